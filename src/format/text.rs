//! Shared machinery of the text formats (`hex`, `base64`, `decimal`):
//! string escaping, the tag byte, and the body codecs.
//!
//! # Strings
//!
//! Ascending string components are the string itself with every byte
//! `<= 0x25` (C0 controls, space, `!"#$%`) written as `%` and two UPPERCASE
//! hex digits. `#` (0x23) separates components and `$` (0x24) ends a tuple
//! prefix range; every escape starts with `%` (0x25), which is above both and
//! below every unescaped byte, so string order is key order and no component
//! can contain a separator. Non-ASCII text and DEL pass through.
//!
//! Descending string components are the format's body codec (hex or
//! sortable base64) applied to the bitwise NOT of the UTF-8 bytes, followed
//! by `~`. The NOT reverses byte order; `~` (0x7E) sorts above every body
//! character, so a string sorts *after* every longer string it is a prefix
//! of, as descending order requires. In base64, the unused low bits of the
//! last character are set to one (not zero) for the same reason.
//! Descending keys are printable ASCII: `"ab"` → `9E9D~` (hex).
//!
//! Bytes components are tagged `x` (ascending: the body of the bytes) or `X`
//! (descending: the body of the NOT of the bytes, then `~`).

use std::borrow::Cow;

use crate::bytes::{upper_hex_value, UPPER_HEX};
use crate::error::DecodeError;
use crate::value::{f64_from_order_bits, f64_order_bits, Component, Dir, Field, Type, Value};

/// The component separator of text keys.
pub const SEP: u8 = b'#';
/// The byte just above [`SEP`]: `enc(P) + "$"` ends the range of tuple prefix `P`.
pub const SEP_END: u8 = b'$';
/// The escape byte.
pub const ESC: u8 = b'%';
/// The terminator of descending variable-length components.
pub const DESC_END: u8 = b'~';

/// Whether byte `b` must be escaped in an ascending string component.
#[inline]
pub(crate) fn needs_escape(b: u8) -> bool {
    b <= ESC
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of every byte of `w` that is `<= ESC`, exact for the lowest
/// such byte (a borrow only ever flags bytes above a true hit).
#[inline(always)]
fn escape_bits(w: u64) -> u64 {
    w.wrapping_sub((ESC as u64 + 1) * ONES) & !w & HIGH
}

/// The index of the first byte `<= ESC` in `s[from..]` (as an index into
/// `s`), or `s.len()` when there is none. Scans eight bytes at a time.
#[inline]
pub(crate) fn find_escape(s: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(w) = s.get(i..i + 8) {
        let m = escape_bits(u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    if i >= s.len() {
        return s.len();
    }
    if s.len() >= 8 {
        // The last, overlapping word, its bytes before `i` set to 0xFF so
        // that they neither match nor borrow (`i - base` is 1..=7).
        let base = s.len() - 8;
        let w = u64::from_le_bytes(s[base..].try_into().unwrap_or([0; 8]));
        let m = escape_bits(w | ((1u64 << (8 * (i - base))) - 1));
        return if m == 0 {
            s.len()
        } else {
            base + (m.trailing_zeros() / 8) as usize
        };
    }
    while i < s.len() && !needs_escape(s[i]) {
        i += 1;
    }
    i
}

/// The high bit of exactly those bytes of `w` that are `<= ESC` (no
/// borrow between bytes: `(b & 0x7F) + 0x5A` cannot carry).
#[inline(always)]
fn escape_bits_exact(w: u64) -> u64 {
    !((w & (0x7F * ONES)) + (0x80 - (ESC as u64 + 1)) * ONES) & !w & HIGH
}

/// Appends `b` escaped (`b <= ESC`): `%` and two UPPERCASE hex digits.
#[inline(always)]
fn push_escape(b: u8, out: &mut Vec<u8>) {
    // One load of the whole escape (`b <= ESC`, so the index is in range).
    out.extend_from_slice(&ESCAPES[usize::from(b & 63)]);
}

/// The escape of every byte `<= ESC`, by value (and of the bytes up to 63,
/// which are never used: the table is indexed with `b & 63`).
const ESCAPES: [[u8; 3]; 64] = {
    let mut t = [[0u8; 3]; 64];
    let mut b = 0;
    while b < 64 {
        t[b] = [ESC, UPPER_HEX[b >> 4], UPPER_HEX[b & 15]];
        b += 1;
    }
    t
};

/// Appends the escaped form of `s`, eight bytes at a time: each word is
/// appended whole (a fixed-size copy, no `memcpy` call), and when it holds
/// a byte to escape, the output is cut back to just before that byte, its
/// escape appended, and the next word read from the byte after it. So a
/// string costs one word step per eight clean bytes plus one per escape,
/// with no branch per byte. The last `len % 8` bytes are read as the
/// string's last eight bytes, shifted.
///
/// This is the body of an ascending `str` component in the text formats
/// (`hex`, `base64`, `decimal`); public for the columnar writers
/// (`lexikey-arrow`), which write a column's strings with no
/// [`Component`] per value.
///
/// ```
/// let mut out = Vec::new();
/// lexikey::format::text::escape_into(b"san francisco#1", &mut out);
/// assert_eq!(out, b"san%20francisco%231");
/// ```
#[inline(always)]
pub fn escape_into(s: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    if s.len() < 8 {
        // Short strings: gathered into one word; without an escape (the
        // common case) it is appended whole and cut back to length.
        let n = s.len();
        let w = crate::bytes::gather_short(s);
        if escape_bits_exact(w) & ((1u64 << (8 * n)) - 1) == 0 {
            out.extend_from_slice(&w.to_le_bytes());
            out.truncate(out.len() - (8 - n));
            return;
        }
        for &b in s {
            if needs_escape(b) {
                push_escape(b, out);
            } else {
                out.push(b);
            }
        }
        return;
    }
    out.reserve(s.len() + 6);
    while let Some(w) = s.get(i..i + 8) {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        let m = escape_bits_exact(w);
        out.extend_from_slice(&w.to_le_bytes());
        if m == 0 {
            i += 8;
            continue;
        }
        let k = (m.trailing_zeros() / 8) as usize;
        out.truncate(out.len() - 8 + k);
        push_escape((w >> (8 * k)) as u8, out);
        i += k + 1;
    }
    // Fewer than 8 bytes left: the last word, its bytes before `i` shifted out.
    while i < s.len() {
        let base = s.len() - 8;
        let skip = i - base; // 1..=7
        let w = u64::from_le_bytes(s[base..].try_into().unwrap_or([0; 8])) >> (8 * skip);
        let n = 8 - skip;
        // The shifted-in zero bytes would match: only the first `n` count.
        let m = escape_bits_exact(w) & ((1u64 << (8 * n)) - 1);
        out.extend_from_slice(&w.to_le_bytes());
        if m == 0 {
            out.truncate(out.len() - skip);
            return;
        }
        let k = (m.trailing_zeros() / 8) as usize;
        out.truncate(out.len() - 8 + k);
        push_escape(s[i + k], out);
        i += k + 1;
    }
}

/// Bounds of the ascending string part of a text key that starts at
/// `pos`: `(first, end)`, where `first` is the first byte that needs
/// unescaping (`== end` when none does) and `end` the index of the next `#`
/// (or `key.len()`). One word-at-a-time scan finds both when there is no
/// escape: `#` is itself a byte that strings escape.
#[inline(always)]
pub(crate) fn str_part(key: &[u8], pos: usize) -> (usize, usize) {
    let i = find_escape(key, pos);
    if i == key.len() || key[i] == SEP {
        (i, i)
    } else {
        (i, crate::bytes::find_byte(key, i, SEP).unwrap_or(key.len()))
    }
}

/// Decodes the ascending string part of a text key that starts at `pos`
/// (borrowed unless it holds an escape); returns it and where the part
/// ends. Errors index `key`.
#[inline]
pub(crate) fn decode_str_part(
    key: &[u8],
    pos: usize,
) -> Result<(Cow<'_, str>, usize), DecodeError> {
    let (first, end) = str_part(key, pos);
    Ok((str_from_part(key, pos, first, end)?, end))
}

/// The ascending string `key[pos..end]`, whose first byte that needs
/// unescaping is at `first` (`== end`: none), as [`str_part`] found them.
#[inline]
pub(crate) fn str_from_part(
    key: &[u8],
    pos: usize,
    first: usize,
    end: usize,
) -> Result<Cow<'_, str>, DecodeError> {
    let part = &key[pos..end];
    let s = crate::bytes::utf8(part).map_err(|e| DecodeError::InvalidUtf8 {
        offset: pos + e.valid_up_to(),
    })?;
    if first == end {
        return Ok(Cow::Borrowed(s));
    }
    // One allocation; `s` was validated once, and the escape found by the
    // scan is where unescaping starts.
    let mut o = String::with_capacity(part.len());
    match unescape_str_into(s, first - pos, &mut o) {
        Ok(()) => Ok(Cow::Owned(o)),
        Err(()) => Err(unescape_error(part).shift(pos)),
    }
}

/// Decodes an ascending string component (canonically), borrowing when it
/// holds no escape.
#[inline]
pub(crate) fn unescape(input: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    let s = crate::bytes::utf8(input).map_err(|e| DecodeError::InvalidUtf8 {
        offset: e.valid_up_to(),
    })?;
    let i = find_escape(input, 0);
    if i == input.len() {
        return Ok(Cow::Borrowed(s));
    }
    let mut o = String::with_capacity(input.len());
    match unescape_str_into(s, i, &mut o) {
        Ok(()) => Ok(Cow::Owned(o)),
        Err(()) => Err(unescape_error(input)),
    }
}

/// The value of an escape's two digits (`%` at `s[i]`) when they are
/// UPPERCASE hex of a byte that must be escaped (`<= ESC`), else `None`.
#[inline(always)]
fn escaped_byte(s: &[u8], i: usize) -> Option<u8> {
    let (&h, &l) = (s.get(i + 1)?, s.get(i + 2)?);
    // `h` is `0`, `1` or `2`; `l` any digit, at most `5` after a `2`.
    let l = upper_hex_value(l)?;
    let v = h.wrapping_sub(b'0').checked_mul(16)?.checked_add(l)?;
    (h <= b'2' && needs_escape(v)).then_some(v)
}

/// Appends the unescaped form of the ascending string component `s`
/// (already valid UTF-8, no `#`), whose first byte `<= ESC` is at
/// `first`, to `out`. Runs between escapes are copied as `&str` pieces
/// (escapes are ASCII, so every run boundary is a char boundary and nothing
/// is validated twice). `Err(())` on anything non-canonical: callers
/// report it with [`unescape_error`].
#[inline(always)]
pub(crate) fn unescape_str_into(s: &str, first: usize, out: &mut String) -> Result<(), ()> {
    let b = s.as_bytes();
    let (mut start, mut i) = (0, first);
    out.reserve(b.len());
    loop {
        out.push_str(s.get(start..i).ok_or(())?);
        if i == b.len() {
            return Ok(());
        }
        if b[i] != ESC {
            return Err(());
        }
        out.push(char::from(escaped_byte(b, i).ok_or(())?));
        start = i + 3;
        i = find_escape(b, start);
    }
}

/// The error [`unescape`] reports for `input` (which does not decode).
#[cold]
#[inline(never)]
pub(crate) fn unescape_error(input: &[u8]) -> DecodeError {
    match unescape_reference(input) {
        Err(e) => e,
        // Unreachable when the fast path refused `input`; keep a sane error.
        Ok(_) => DecodeError::NonCanonical {
            offset: 0,
            reason: "not a canonical string component",
        },
    }
}

/// The reference decoder of an ascending string component, one escape at
/// a time: the source of [`unescape`]'s error reports.
fn unescape_reference(input: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    let s = std::str::from_utf8(input).map_err(|e| DecodeError::InvalidUtf8 {
        offset: e.valid_up_to(),
    })?;
    let mut i = find_escape(input, 0);
    if i == input.len() {
        return Ok(Cow::Borrowed(s));
    }
    let mut owned: Option<Vec<u8>> = None;
    let mut start = 0;
    while i < input.len() {
        let b = input[i];
        if b == ESC {
            let h = *input.get(i + 1).ok_or(DecodeError::Truncated {
                offset: input.len(),
                expected: "two hex digits after '%'",
            })?;
            let l = *input.get(i + 2).ok_or(DecodeError::Truncated {
                offset: input.len(),
                expected: "two hex digits after '%'",
            })?;
            let hv = upper_hex_value(h).ok_or(DecodeError::InvalidSymbol {
                offset: i + 1,
                found: h,
                expected: "uppercase hex digit after '%'",
            })?;
            let lv = upper_hex_value(l).ok_or(DecodeError::InvalidSymbol {
                offset: i + 2,
                found: l,
                expected: "uppercase hex digit after '%'",
            })?;
            let v = hv << 4 | lv;
            if !needs_escape(v) {
                return Err(DecodeError::NonCanonical {
                    offset: i,
                    reason: "escape of a byte above 0x25, which is written as itself",
                });
            }
            let o = owned.get_or_insert_with(|| Vec::with_capacity(input.len()));
            o.extend_from_slice(&input[start..i]);
            o.push(v);
            start = i + 3;
            i = find_escape(input, start);
        } else {
            return Err(DecodeError::InvalidSymbol {
                offset: i,
                found: b,
                expected: "a byte above 0x25 or a %XX escape",
            });
        }
    }
    Ok(match owned {
        None => Cow::Borrowed(s),
        Some(mut o) => {
            o.extend_from_slice(&input[start..]);
            // Escapes only produce ASCII, and the raw input is valid UTF-8,
            // so the result is valid UTF-8 too.
            Cow::Owned(String::from_utf8(o).map_err(|e| DecodeError::InvalidUtf8 {
                offset: e.utf8_error().valid_up_to(),
            })?)
        }
    })
}

/// Where a body decoder writes its bytes: a `Vec`, or a fixed stack
/// buffer for fixed-width values (no allocation).
pub(crate) trait Sink {
    /// Appends one byte.
    fn push(&mut self, b: u8);
    /// Appends bytes.
    fn extend_from_slice(&mut self, b: &[u8]);
}

impl Sink for Vec<u8> {
    #[inline]
    fn push(&mut self, b: u8) {
        Vec::push(self, b);
    }
    #[inline]
    fn extend_from_slice(&mut self, b: &[u8]) {
        Vec::extend_from_slice(self, b);
    }
}

/// A [`Sink`] over a fixed buffer. Bytes past its end are counted, not
/// written (callers compare [`SliceSink::len`] with what they expect).
pub(crate) struct SliceSink<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> SliceSink<'a> {
    #[inline]
    pub(crate) fn new(buf: &'a mut [u8]) -> Self {
        SliceSink { buf, len: 0 }
    }
    /// How many bytes were pushed.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

impl Sink for SliceSink<'_> {
    #[inline]
    fn push(&mut self, b: u8) {
        if let Some(x) = self.buf.get_mut(self.len) {
            *x = b;
        }
        self.len += 1;
    }
    #[inline]
    fn extend_from_slice(&mut self, b: &[u8]) {
        for &x in b {
            self.push(x);
        }
    }
}

/// A body codec: how the tagged text formats write bytes.
pub(crate) trait Body {
    /// Appends the body of `bytes` (inverted when `invert`). `ones` fills
    /// unused low bits with ones instead of zeros (descending variable-length).
    fn encode(bytes: &[u8], invert: bool, ones: bool, out: &mut Vec<u8>);
    /// Appends the body of the 8 big-endian bytes of `v` (as
    /// `encode(&v.to_be_bytes(), false, false, out)`).
    #[inline]
    fn encode_u64(v: u64, out: &mut Vec<u8>) {
        Self::encode(&v.to_be_bytes(), false, false, out);
    }
    /// Appends the body of variable-length `bytes` (`bytes`, `dec`,
    /// descending strings): inverted, with ones in unused low bits, when
    /// `desc`. Default: [`Body::encode`].
    #[inline]
    fn encode_var(bytes: &[u8], desc: bool, out: &mut Vec<u8>) {
        Self::encode(bytes, desc, desc, out);
    }
    /// Decodes a variable-length body written by [`Body::encode_var`].
    /// Default: [`Body::decode`].
    #[inline]
    fn decode_var(input: &[u8], desc: bool, out: &mut Vec<u8>) -> Result<(), DecodeError> {
        Self::decode(input, desc, desc, out)
    }
    /// Decodes a whole body into `out`, canonically; offsets relative to `input`.
    fn decode<S: Sink>(
        input: &[u8],
        invert: bool,
        ones: bool,
        out: &mut S,
    ) -> Result<(), DecodeError>;
    /// Decodes the body of 8 bytes (`input` is exactly
    /// `encoded_len(8)` long), as `decode(input, false, false, …)` would.
    #[inline]
    fn decode_u64(input: &[u8]) -> Result<u64, DecodeError> {
        Self::decode_u64_general(input, "more digits")
    }
    /// [`Body::decode_u64`] through [`Body::decode`]: the default, and the
    /// error path of the codecs with a fast one (which name what a whole
    /// body is, `expected`, when `input` is too short).
    #[inline]
    fn decode_u64_general(input: &[u8], expected: &'static str) -> Result<u64, DecodeError> {
        let mut buf = [0u8; 8];
        let mut out = SliceSink::new(&mut buf);
        Self::decode(input, false, false, &mut out)?;
        if out.len() != 8 {
            return Err(DecodeError::Truncated {
                offset: input.len(),
                expected,
            });
        }
        Ok(u64::from_be_bytes(buf))
    }
    /// The body length of `n` bytes.
    fn encoded_len(n: usize) -> usize;
}

/// The order bits of an 8-byte fixed-width value.
#[inline]
fn order_u64(v: &Value<'_>) -> Option<u64> {
    match *v {
        Value::I64(v) | Value::Ts(v) => Some((v as u64) ^ (1 << 63)),
        Value::U64(v) => Some(v),
        Value::F64(v) => Some(f64_order_bits(v)),
        _ => None,
    }
}

/// The value of 8-byte fixed-width type `ty` from its order bits (`None`
/// for a non-canonical NaN or a type that is not 8 bytes wide).
#[inline(always)]
pub(crate) fn value_from_u64(ty: Type, bits: u64) -> Option<Value<'static>> {
    Some(match ty {
        Type::I64 => Value::I64((bits ^ (1 << 63)) as i64),
        Type::Ts => Value::Ts((bits ^ (1 << 63)) as i64),
        Type::U64 => Value::U64(bits),
        Type::F64 => Value::F64(f64_from_order_bits(bits)?),
        _ => return None,
    })
}

/// The value of a whole, valid 8-byte tagged component (`tag` + body) of
/// `field`, or `None` when anything is off (the caller then asks
/// [`decode_tagged`], which says what). The fast path of tuple decoding.
#[inline(always)]
pub(crate) fn decode_fixed8<B: Body>(field: Field, part: &[u8]) -> Option<Value<'static>> {
    let (&t, body) = part.split_first()?;
    if t != tag_of(field.ty, field.dir) || body.len() != B::encoded_len(8) {
        return None;
    }
    let bits = B::decode_u64(body).ok()?;
    value_from_u64(field.ty, if field.dir.is_desc() { !bits } else { bits })
}

/// Appends a whole component in a tagged text format with body codec `B`
/// (inlined into each format's writer: the row encoder's loop included).
#[inline(always)]
pub(crate) fn encode_tagged<B: Body>(c: &Component<'_>, out: &mut Vec<u8>) {
    let desc = c.dir.is_desc();
    match &c.value {
        Value::Str(s) => {
            if desc {
                B::encode_var(s.as_bytes(), true, out);
                out.push(DESC_END);
            } else {
                escape_into(s.as_bytes(), out);
            }
        }
        Value::Bytes(b) => {
            out.push(tag_of(Type::Bytes, c.dir));
            B::encode_var(b, desc, out);
            if desc {
                out.push(DESC_END);
            }
        }
        Value::Dec(d) => {
            // The bytes on the stack when they fit (every number of up to
            // 120 digits); only longer ones need a heap buffer.
            let mut small = [0u8; 64];
            let n = d.binary_len();
            if let Some(buf) = small.get_mut(..n) {
                d.put_binary(desc, buf);
                encode_dec_body::<B>(c.dir, buf, out);
            } else {
                let mut bytes = vec![0; n];
                d.put_binary(desc, &mut bytes);
                encode_dec_body::<B>(c.dir, &bytes, out);
            }
        }
        v @ (Value::Vi64(_) | Value::Vu64(_)) => {
            if let Some((b, n)) = crate::format::compact::encode_value(v, desc) {
                out.push(tag_of(v.ty(), c.dir));
                B::encode_var(&b[..n], false, out);
            }
        }
        v => {
            if let Some(bits) = order_u64(v) {
                out.push(tag_of(v.ty(), c.dir));
                B::encode_u64(if desc { !bits } else { bits }, out);
            } else if let Some((buf, n)) = v.order_bytes() {
                // Other fixed widths: order bytes are always present.
                out.push(tag_of(v.ty(), c.dir));
                B::encode(&buf[..n], desc, false, out);
            }
        }
    }
}

/// Appends a `dec` component whose binary encoding (already NOT-ed when
/// descending) is `body`: the tag, then the body in the format's alphabet
/// (the binary encoding is prefix-free: no terminator).
#[inline(always)]
pub(crate) fn encode_dec_body<B: Body>(dir: Dir, body: &[u8], out: &mut Vec<u8>) {
    out.push(tag_of(Type::Dec, dir));
    B::encode_var(body, false, out);
}

/// The tag byte of `ty` in direction `dir` (`Str` has none: callers never ask).
#[inline]
pub(crate) fn tag_of(ty: Type, dir: Dir) -> u8 {
    let t = ty.tag().unwrap_or(b'?');
    if dir.is_desc() {
        t.to_ascii_uppercase()
    } else {
        t
    }
}

/// Checks the tag at `input[0]`.
pub(crate) fn expect_tag(field: Field, input: &[u8]) -> Result<(), DecodeError> {
    let want = tag_of(field.ty, field.dir);
    match input.first() {
        None => Err(DecodeError::Truncated {
            offset: 0,
            expected: "a type tag",
        }),
        Some(&t) if t == want => Ok(()),
        Some(&t) => Err(DecodeError::UnexpectedTag {
            offset: 0,
            found: t,
            expected: tag_name(field),
        }),
    }
}

fn tag_name(field: Field) -> &'static str {
    // A static description per (type, direction): small table.
    const ASC: [&str; 12] = [
        "'b' (bool)",
        "'d' (f64)",
        "'f' (f32)",
        "'g' (uuid)",
        "'i' (i32)",
        "'l' (i64)",
        "'n' (dec)",
        "'t' (ts)",
        "'u' (u64)",
        "'w' (u32)",
        "'x' (bytes)",
        "(none: str)",
    ];
    const DESC: [&str; 12] = [
        "'B' (bool.desc)",
        "'D' (f64.desc)",
        "'F' (f32.desc)",
        "'G' (uuid.desc)",
        "'I' (i32.desc)",
        "'L' (i64.desc)",
        "'N' (dec.desc)",
        "'T' (ts.desc)",
        "'U' (u64.desc)",
        "'W' (u32.desc)",
        "'X' (bytes.desc)",
        "(none: str.desc)",
    ];
    match (field.ty, field.dir.is_desc()) {
        (Type::Vi64, false) => return "'k' (vi64)",
        (Type::Vi64, true) => return "'K' (vi64.desc)",
        (Type::Vu64, false) => return "'v' (vu64)",
        (Type::Vu64, true) => return "'V' (vu64.desc)",
        _ => {}
    }
    let i = Type::ALL.iter().position(|t| *t == field.ty).unwrap_or(11);
    if field.dir.is_desc() {
        DESC[i]
    } else {
        ASC[i]
    }
}

/// Splits a descending variable-length component into its body, checking
/// the final `~`.
pub(crate) fn strip_desc_end(input: &[u8]) -> Result<&[u8], DecodeError> {
    match input.split_last() {
        Some((&DESC_END, body)) => Ok(body),
        _ => Err(DecodeError::Truncated {
            offset: input.len(),
            expected: "'~' at the end of a descending string/bytes component",
        }),
    }
}

/// Decodes a descending string component: body of NOT(utf8) then `~`.
pub(crate) fn decode_desc_str<B: Body>(input: &[u8]) -> Result<Cow<'static, str>, DecodeError> {
    let body = strip_desc_end(input)?;
    let mut bytes = Vec::with_capacity(body.len());
    B::decode_var(body, true, &mut bytes)?;
    match String::from_utf8(bytes) {
        Ok(s) => Ok(Cow::Owned(s)),
        Err(e) => {
            // Point at the body character holding the first bad byte.
            let bad = e.utf8_error().valid_up_to();
            let n = B::encoded_len(bad);
            Err(DecodeError::InvalidUtf8 {
                offset: n.min(body.len().saturating_sub(1)),
            })
        }
    }
}

/// Reads the value of a tagged text component whose body decoded to
/// `bytes` (`total` bytes in all: more than `bytes` holds when the body
/// was longer than the caller's buffer) with `read`, which returns the
/// value and the bytes it used; every byte must be used. Errors point into
/// `input` (tag included): a truncation at its end, anything else at the
/// text character that holds the first bit of the byte.
fn read_body<T, B: Body>(
    input: &[u8],
    bytes: &[u8],
    total: usize,
    read: impl FnOnce(&[u8]) -> Result<(T, usize), DecodeError>,
) -> Result<T, DecodeError> {
    let at = |i: usize| 1 + B::encoded_len(i).min(input.len().saturating_sub(2));
    let (value, used) = read(bytes).map_err(|e| match e {
        DecodeError::Truncated { expected, .. } => DecodeError::Truncated {
            offset: input.len(),
            expected,
        },
        e => {
            let o = at(e.offset());
            e.with_offset(o)
        }
    })?;
    if used != total {
        return Err(DecodeError::TrailingBytes { offset: at(used) });
    }
    Ok(value)
}

/// Decodes one component of a tagged text format with body codec `B`.
#[inline]
pub(crate) fn decode_tagged<'k, B: Body>(
    field: Field,
    input: &'k [u8],
) -> Result<Component<'k>, DecodeError> {
    let value = match field.ty {
        Type::Str => {
            if field.dir.is_desc() {
                Value::Str(decode_desc_str::<B>(input)?)
            } else {
                Value::Str(unescape(input)?)
            }
        }
        Type::Bytes => {
            expect_tag(field, input)?;
            let mut bytes = Vec::new();
            if field.dir.is_desc() {
                let body = strip_desc_end(&input[1..]).map_err(|e| e.shift(1))?;
                B::decode_var(body, true, &mut bytes).map_err(|e| e.shift(1))?;
            } else {
                B::decode_var(&input[1..], false, &mut bytes).map_err(|e| e.shift(1))?;
            }
            Value::Bytes(Cow::Owned(bytes))
        }
        Type::Dec => {
            expect_tag(field, input)?;
            let mut bytes = Vec::new();
            B::decode_var(&input[1..], false, &mut bytes).map_err(|e| e.shift(1))?;
            Value::Dec(read_body::<_, B>(input, &bytes, bytes.len(), |b| {
                crate::value::big_decimal::Dec::read_binary(b, field.dir.is_desc())
            })?)
        }
        ty @ (Type::Vi64 | Type::Vu64) => {
            expect_tag(field, input)?;
            let body = &input[1..];
            // One byte more than the longest encoding: a longer body is
            // refused below without decoding all of it.
            let mut buf = [0u8; crate::format::compact::MAX_LEN + 1];
            let mut sink = SliceSink::new(&mut buf);
            B::decode(body, false, false, &mut sink).map_err(|e| e.shift(1))?;
            let len = sink.len();
            read_body::<_, B>(input, &buf[..len.min(buf.len())], len, |b| {
                crate::format::compact::decode_value(ty, b, field.dir.is_desc())
            })?
        }
        ty => {
            expect_tag(field, input)?;
            let n = ty.fixed_len().unwrap_or(0);
            let want = B::encoded_len(n);
            let body = &input[1..];
            if body.len() < want {
                return Err(DecodeError::Truncated {
                    offset: input.len(),
                    expected: "more digits",
                });
            }
            if body.len() > want {
                return Err(DecodeError::TrailingBytes { offset: 1 + want });
            }
            let desc = field.dir.is_desc();
            let value = if n == 8 {
                let bits = B::decode_u64(body).map_err(|e| e.shift(1))?;
                value_from_u64(ty, if desc { !bits } else { bits })
            } else {
                let mut buf = [0u8; 16];
                let mut sink = SliceSink::new(&mut buf[..n]);
                B::decode(body, desc, false, &mut sink).map_err(|e| e.shift(1))?;
                Value::from_order_bytes(ty, &buf[..n])
            };
            value.ok_or(DecodeError::NonCanonical {
                offset: 1,
                reason: non_canonical_reason(ty),
            })?
        }
    };
    Ok(Component {
        value,
        dir: field.dir,
        width: None,
        nulls: None,
        list: 0,
    })
}

pub(crate) fn non_canonical_reason(ty: Type) -> &'static str {
    match ty {
        Type::Bool => "a bool is 0 or 1",
        Type::F64 | Type::F32 => "a NaN other than the canonical NaN",
        _ => "not an encoding of this type",
    }
}

/// Guesses a component's type from its tag (schemaless decoding): a valid
/// tagged value is read as that value, anything else as an ascending string.
pub(crate) fn guess_tagged<'k, B: Body>(input: &'k [u8]) -> Result<Component<'k>, DecodeError> {
    if let Some((ty, dir)) = input.first().and_then(|&t| Type::from_tag(t)) {
        if let Ok(c) = decode_tagged::<B>(
            Field {
                ty,
                dir,
                width: None,
                nulls: None,
                list: 0,
            },
            input,
        ) {
            return Ok(c);
        }
    }
    decode_tagged::<B>(Field::asc(Type::Str), input)
}

#[cfg(test)]
mod tests {
    use super::{escape_into, find_escape, needs_escape, unescape};

    #[test]
    fn find_escape_matches_position() {
        let mut s = Vec::new();
        for len in 0..40 {
            for hit in 0..=len {
                for bad in [0x00, 0x20, 0x23, 0x25] {
                    s.clear();
                    s.extend((0..len).map(|i| {
                        if i == hit {
                            bad
                        } else {
                            [0x26, 0x27, 0x7F, 0x80, 0xFF, b'a'][i % 6]
                        }
                    }));
                    for from in 0..=len {
                        let want = s[from..]
                            .iter()
                            .position(|&b| needs_escape(b))
                            .map_or(len, |p| from + p);
                        assert_eq!(find_escape(&s, from), want, "{s:?} from {from}");
                    }
                }
            }
        }
    }

    #[test]
    fn escape_bits_exact_is_exact() {
        for pos in 0..8 {
            for b in 0..=255u8 {
                for fill in [0x00u8, 0x25, 0x26, 0x7F, 0x80, 0xFF] {
                    let mut w = [fill; 8];
                    w[pos] = b;
                    let m = super::escape_bits_exact(u64::from_le_bytes(w));
                    for (i, &x) in w.iter().enumerate() {
                        assert_eq!(m >> (8 * i + 7) & 1 == 1, needs_escape(x), "{w:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn unescape_fast_path_agrees_with_reference() {
        // Every 1- to 3-byte input over an alphabet of interesting bytes,
        // each inside a short frame: same value, same error.
        let alphabet = [
            b'%', b'0', b'1', b'2', b'5', b'6', b'9', b'A', b'F', b'a', b'#', b' ', 0x7F, 0xC3,
            0xA9, 0xFF, 0x00,
        ];
        let mut input = Vec::new();
        for n in 0..=3u32 {
            for code in 0..alphabet.len().pow(n) {
                for frame in [&b""[..], b"x", b"abcdefghij"] {
                    input.clear();
                    input.extend_from_slice(frame);
                    let mut c = code;
                    for _ in 0..n {
                        input.push(alphabet[c % alphabet.len()]);
                        c /= alphabet.len();
                    }
                    input.extend_from_slice(frame);
                    input.extend_from_slice(b"%25%00");
                    for cut in [input.len(), input.len() - 1, input.len() - 5] {
                        let k = &input[..cut];
                        assert_eq!(unescape(k), super::unescape_reference(k), "{k:?}");
                    }
                }
            }
        }
    }

    /// `len` bytes drawn from `alphabet` by the xorshift state `x`.
    fn random_bytes(alphabet: &[u8], len: usize, x: &mut u64) -> Vec<u8> {
        (0..len)
            .map(|_| {
                *x ^= *x << 13;
                *x ^= *x >> 7;
                *x ^= *x << 17;
                alphabet[(*x % alphabet.len() as u64) as usize]
            })
            .collect()
    }

    #[test]
    fn escape_into_matches_byte_by_byte_reference() {
        let alphabet = [0x00u8, 0x20, 0x23, 0x25, 0x26, b'a', 0x7F, 0xC3, 0xA9];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..48 {
            for _ in 0..300 {
                let s = random_bytes(&alphabet, len, &mut x);
                let mut want = b"prefix".to_vec();
                for &b in &s {
                    if needs_escape(b) {
                        want.extend_from_slice(format!("%{b:02X}").as_bytes());
                    } else {
                        want.push(b);
                    }
                }
                let mut got = b"prefix".to_vec();
                escape_into(&s, &mut got);
                assert_eq!(got, want, "{s:?}");
            }
        }
    }

    #[test]
    fn escape_round_trip_every_byte_position() {
        for len in 0..80 {
            for b in 0u8..0x80 {
                let s: String = (0..len)
                    .map(|i| if i % 3 == 1 { char::from(b) } else { 'x' })
                    .collect();
                let mut out = Vec::new();
                escape_into(s.as_bytes(), &mut out);
                assert!(out.iter().all(|&c| !needs_escape(c) || c == b'%'));
                assert_eq!(unescape(&out).unwrap(), s);
            }
        }
    }
}
