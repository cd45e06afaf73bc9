//! Composite keys: tuples of components in one key.
//!
//! **Text formats** join components with `#`; strings are escaped so that no
//! component contains `#` or `$`, and every byte a component can hold sorts
//! above both (see [`crate::format::text`]). Hence tuple order is byte order, and the
//! keys of every tuple that extends a prefix `P` are exactly the range
//! `[enc(P) + "#", enc(P) + "$")`:
//!
//! ```
//! use lexikey::{tuple, Component, Format};
//! let key = tuple::encode(Format::Hex, &[
//!     Component::asc("usa"), Component::asc("california"), Component::asc("san francisco"),
//! ])?;
//! assert_eq!(key, b"usa#california#san%20francisco");
//! let key = tuple::encode(Format::Hex, &[Component::asc("population"), Component::asc(3831868_i64)])?;
//! assert_eq!(key, b"population#l80000000003A783C");
//! # Ok::<(), lexikey::EncodeError>(())
//! ```
//!
//! **Binary** concatenates components: each one is prefix-free (fixed width,
//! or terminated by `00 01`), so no separator is needed, and the keys that
//! extend `P` are `[enc(P) + 00, prefix_end(enc(P)))` (the key of `P`
//! itself is excluded, as in FoundationDB's `Subspace::range`).

use std::borrow::Cow;
use std::cell::Cell;

use crate::bytes::{find_byte, prefix_end};
use crate::error::{DecodeError, EncodeError};
use crate::format::text::{self, Body, SEP, SEP_END};
use crate::format::{base64, decimal, hex, Format};
use crate::key::Key;
use crate::value::{Component, Dir, Field, Type, Value};

mod arena;
pub use arena::DecodeArena;

/// HBase's largest row key, in bytes (`Short.MAX_VALUE`): the default limit
/// of the `lexikey` command.
pub const HBASE_MAX_KEY_LEN: usize = 32_767;
/// Cassandra's largest key (partition or clustering component), in bytes
/// (an unsigned 16-bit length).
pub const CASSANDRA_MAX_KEY_LEN: usize = 65_535;

/// Checks a key against a store's length limit, so an over-long key is
/// refused before it reaches the store (where it would fail mid-batch, or be
/// rejected only by some regions).
///
/// # Errors
/// [`EncodeError::KeyTooLong`] when `key.len() > max`.
///
/// ```
/// use lexikey::tuple::{check_len, HBASE_MAX_KEY_LEN};
/// assert!(check_len(&[b'a'; 32_767], HBASE_MAX_KEY_LEN).is_ok());
/// assert!(check_len(&[b'a'; 32_768], HBASE_MAX_KEY_LEN).is_err());
/// ```
#[inline]
pub fn check_len(key: &[u8], max: usize) -> Result<(), EncodeError> {
    if key.len() > max {
        return Err(EncodeError::KeyTooLong {
            len: key.len(),
            max,
            largest: None,
        });
    }
    Ok(())
}

/// The component of `comps` whose encoding in `format` is largest (the
/// first of equals), with its size — its separator included in a text
/// format — and its name `name(i)`: the part of a key over the length
/// limit to shorten ([`EncodeError::KeyTooLong`]'s `largest`, which the
/// encoders fill in when they know the components; a caller that checks
/// a key it built itself with [`check_len`] can add it). `None` for no
/// component. Allocates: for error paths.
///
/// ```
/// use lexikey::{tuple, Component, Format, Value};
/// let comps = [Component::asc(Value::Str("a".into())), Component::asc(Value::Str("abc".into()))];
/// let p = tuple::largest_component(Format::Hex, &comps, |i| format!("field {i}")).unwrap();
/// assert_eq!((p.index, p.label.as_str(), p.size), (1, "field 1", 4));
/// ```
pub fn largest_component(
    format: Format,
    comps: &[Component<'_>],
    name: impl Fn(usize) -> String,
) -> Option<Box<crate::KeyPart>> {
    let mut one = Vec::new();
    let mut best: Option<(usize, usize)> = None;
    for (i, c) in comps.iter().enumerate() {
        one.clear();
        if format.encode_component(c, &mut one).is_err() {
            continue;
        }
        let size = one.len() + usize::from(i > 0 && format.is_text());
        if best.is_none_or(|(_, b)| size > b) {
            best = Some((i, size));
        }
    }
    best.map(|(index, size)| {
        Box::new(crate::KeyPart {
            index,
            label: name(index),
            size,
        })
    })
}

/// Encodes a tuple into a new [`Key`].
///
/// When a key dropped earlier on this thread left its buffer (see
/// [`Key`]), the key is written straight into it: encode, use, drop in a
/// loop allocates nothing (once that buffer has grown). Otherwise the key
/// is written into a scratch buffer kept per thread (it grows to the
/// longest key encoded on the thread; one longer than 4 KiB is not kept)
/// and copied into one allocation of exactly its length, with no pass to
/// measure it first.
/// `Key` derefs to `[u8]` and compares equal to the same bytes;
/// [`Key::into_vec`] gives a `Vec<u8>`. [`encode_into`] a reused `Vec`
/// remains the fastest path.
///
/// # Errors
/// The first component's [`EncodeError`], if any.
#[inline]
pub fn encode(format: Format, components: &[Component<'_>]) -> Result<Key, EncodeError> {
    let mut spare = Key::take_spare();
    if spare.capacity() != 0 {
        spare.clear();
        // On error the buffer goes back, as a dropped key's would.
        let mut key = Key::from(spare);
        return write_key(format, components, key.buf_mut()).map(|()| key);
    }
    thread_local! {
        static SCRATCH: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
    }
    // `take` leaves an empty `Vec` behind (no allocation), so a nested
    // call never shares the buffer; during thread teardown (`try_with`
    // fails) a new one is used.
    let mut buf = SCRATCH.try_with(Cell::take).unwrap_or_default();
    buf.clear();
    let key = encode_into(format, components, &mut buf).map(|()| Key::from_slice(&buf));
    if buf.capacity() <= SCRATCH_MAX {
        let _ = SCRATCH.try_with(|s| s.set(buf));
    }
    key
}

/// The largest scratch buffer [`encode`] keeps between calls (bytes):
/// a longer key's buffer is freed after use.
const SCRATCH_MAX: usize = 4096;

/// Appends the key of a tuple to `out` (which is not cleared). On error,
/// `out` is truncated back to its length on entry.
///
/// ```
/// use lexikey::{tuple, Component, Format};
/// let mut key = Vec::new();
/// for (city, n) in [("zürich", 1_i64), ("san francisco", 2)] {
///     key.clear(); // the buffer is reused: no allocation once it has grown
///     tuple::encode_into(Format::Hex, &[Component::asc(city), Component::asc(n)], &mut key)?;
/// }
/// assert_eq!(key, b"san%20francisco#l8000000000000002");
/// # Ok::<(), lexikey::EncodeError>(())
/// ```
#[inline]
pub fn encode_into(
    format: Format,
    components: &[Component<'_>],
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    write_key(format, components, out)
}

/// [`encode_into`]'s body, inlined into [`encode`] too (so that a new key
/// pays no call more than a reused buffer does).
#[inline(always)]
fn write_key(
    format: Format,
    components: &[Component<'_>],
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let start = out.len();
    for (i, c) in components.iter().enumerate() {
        if i > 0 && format.is_text() {
            out.push(SEP);
        }
        if let Err(e) = format.encode_component(c, out) {
            out.truncate(start);
            return Err(e);
        }
    }
    Ok(())
}

/// The half-open range `[start, end)` holding the keys of every tuple that
/// extends `prefix` by one or more components. `end` is `None` when the
/// range is unbounded above (a binary prefix of only `FF` bytes, or an empty
/// binary prefix).
///
/// ```
/// use lexikey::{tuple, Component, Format};
/// let (start, end) = tuple::prefix_range(Format::Hex, &[Component::asc("usa")])?;
/// assert_eq!(start, b"usa#");
/// assert_eq!(end.as_deref(), Some(&b"usa$"[..]));
/// # Ok::<(), lexikey::EncodeError>(())
/// ```
pub fn prefix_range(
    format: Format,
    prefix: &[Component<'_>],
) -> Result<(Vec<u8>, Option<Vec<u8>>), EncodeError> {
    let mut start = encode(format, prefix)?.into_vec();
    let end = extension_end(format, &start, prefix.is_empty());
    if !prefix.is_empty() {
        // Text: the separator; binary: just above the key of P itself,
        // which is not an extension of P.
        start.push(if format.is_text() { SEP } else { 0 });
    }
    Ok((start, end))
}

/// The exclusive end of the keys that extend a prefix whose key is `enc`
/// (`empty`: the prefix has no component); `None` = unbounded.
pub(crate) fn extension_end(format: Format, enc: &[u8], empty: bool) -> Option<Vec<u8>> {
    if format.is_text() {
        (!empty).then(|| {
            let mut e = Vec::with_capacity(enc.len() + 1);
            e.extend_from_slice(enc);
            e.push(SEP_END);
            e
        })
    } else {
        prefix_end(enc)
    }
}

/// Decodes a key into its components.
///
/// With a schema, the key must hold exactly one component per field, each
/// canonical. Without one (`None`), only the tagged text formats (`hex`,
/// `base64`) can decode: each `#`-separated part that is a valid tagged value
/// is read as that value, any other part as an ascending string — pass a
/// schema to read descending strings or to have a malformed tagged part
/// reported as an error.
///
/// # Errors
/// A [`DecodeError`] whose offset indexes `key`:
/// [`DecodeError::MissingComponent`] / [`DecodeError::TrailingBytes`] when the
/// component count differs from the schema, [`DecodeError::SchemaRequired`]
/// for `decimal` and `binary` keys without a schema, and each component's own
/// errors.
///
/// ```
/// use lexikey::{tuple, Field, Format, Type, Value};
/// let parts = tuple::decode(Format::Hex, b"population#l80000000003A783C", None)?;
/// assert_eq!(parts[0].value, Value::from("population"));
/// assert_eq!(parts[1].value, Value::I64(3831868));
/// let schema = [Field::asc(Type::Str), Field::asc(Type::I64)];
/// assert!(tuple::decode(Format::Hex, b"population#l80000000003a783c", Some(&schema)).is_err());
/// # Ok::<(), lexikey::DecodeError>(())
/// ```
pub fn decode<'k>(
    format: Format,
    key: &'k [u8],
    schema: Option<&[Field]>,
) -> Result<Vec<Component<'k>>, DecodeError> {
    let mut out = Vec::with_capacity(schema.map_or(4, <[Field]>::len));
    decode_into(format, key, schema, &mut out)?;
    Ok(out)
}

/// Like [`decode`], appending to `out` (so a caller can reuse the vector).
#[inline(always)]
pub fn decode_into<'k>(
    format: Format,
    key: &'k [u8],
    schema: Option<&[Field]>,
    out: &mut Vec<Component<'k>>,
) -> Result<(), DecodeError> {
    // Text keys with a schema: the direct path, inlined into the caller;
    // the rest is one call.
    if let (true, Some(schema)) = (format != Format::Binary, schema) {
        let start = out.len();
        if decode_text_direct(format, key, schema, out).is_some() {
            return Ok(());
        }
        out.truncate(start);
        return decode_text_general(format, key, schema, out);
    }
    decode_other(format, key, schema, out)
}

/// [`decode_into`] of a binary key, or of a text key without a schema.
#[inline(never)]
fn decode_other<'k>(
    format: Format,
    key: &'k [u8],
    schema: Option<&[Field]>,
    out: &mut Vec<Component<'k>>,
) -> Result<(), DecodeError> {
    if format == Format::Binary {
        return decode_binary(key, schema, out);
    }
    match schema {
        None => guess_into(format, key, out),
        Some(schema) => decode_text_general(format, key, schema, out),
    }
}

/// Decodes a binary key (a schema is required) into `out`.
#[inline]
fn decode_binary<'k, S: Parts<'k>>(
    key: &'k [u8],
    schema: Option<&[Field]>,
    out: &mut S,
) -> Result<(), DecodeError> {
    let schema = schema.ok_or(DecodeError::SchemaRequired { offset: 0 })?;
    let mut pos = 0;
    for (index, &field) in schema.iter().enumerate() {
        if pos == key.len() && index > 0 {
            return Err(DecodeError::MissingComponent { offset: pos, index });
        }
        let (c, used) = crate::format::binary::decode_component(field, &key[pos..])
            .map_err(|e| e.shift(pos))?;
        out.put(c);
        pos += used;
    }
    if pos != key.len() {
        return Err(DecodeError::TrailingBytes { offset: pos });
    }
    Ok(())
}

/// The general loop of text decoding with a schema, run when the direct
/// path ([`decode_text_direct`]) refuses a key: the direct path reports
/// only *that* something is off, and this loop decodes the key again from
/// the start and says what and where (so results, partial output and
/// errors are this loop's; a unit test compares them on mutated keys).
#[inline(never)]
fn decode_text_general<'k>(
    format: Format,
    key: &'k [u8],
    schema: &[Field],
    out: &mut Vec<Component<'k>>,
) -> Result<(), DecodeError> {
    // `next`: where the next `#`-separated part starts; `None` once the
    // last part has been read (a key always has at least one part).
    let mut next = Some(0_usize);
    let mut index = 0;
    while let Some(pos) = next {
        let Some(&field) = schema.get(index) else {
            return Err(DecodeError::TrailingBytes {
                offset: pos.saturating_sub(1),
            });
        };
        let (c, end) = text_part(format, field, key, pos)?;
        out.push(c);
        next = (end < key.len()).then_some(end + 1);
        index += 1;
    }
    if index < schema.len() {
        return Err(DecodeError::MissingComponent {
            offset: key.len(),
            index,
        });
    }
    Ok(())
}

/// Like [`decode_into`], but *replaces* the contents of `out` rather than
/// appending, reusing the strings it holds: where `out[i]` holds an owned
/// string (`Cow::Owned`), the key's `i`-th component, if it is an ascending
/// string, is copied or unescaped into that string's buffer. So a loop that
/// decodes key after key into one vector, *without clearing it*, stops
/// allocating once each string position has held an escaped string; with
/// [`decode_into`] (which appends, so such a loop clears the vector before
/// each key), every escaped string takes a new `String`, freed by the
/// clearing.
///
/// The components are equal to [`decode_into`]'s, but a string may be
/// owned where [`decode_into`] would borrow it from `key`. On error,
/// `out` holds what [`decode_into`] leaves in an empty vector (the
/// components before the bad one) and the error is the same. Binary keys
/// decode as with [`decode_into`] (their strings borrow from the key).
///
/// ```
/// use std::borrow::Cow;
/// use lexikey::{tuple, Component, Field, Format, Type, Value};
/// let schema = [Field::asc(Type::Str), Field::asc(Type::I64)];
/// let keys = [&b"san%20francisco#l8000000000000001"[..], b"zurich#l8000000000000002"];
/// let mut parts = Vec::new();
/// for key in keys {
///     tuple::decode_reusing(Format::Hex, key, Some(&schema), &mut parts)?;
///     assert_eq!(parts.len(), 2);
/// }
/// assert_eq!(parts[0].value, Value::from("zurich"));
/// // The buffer of "san francisco" now holds "zurich".
/// assert!(matches!(parts[0].value, Value::Str(Cow::Owned(_))));
/// # Ok::<(), lexikey::DecodeError>(())
/// ```
pub fn decode_reusing<'k>(
    format: Format,
    key: &'k [u8],
    schema: Option<&[Field]>,
    out: &mut Vec<Component<'k>>,
) -> Result<(), DecodeError> {
    if format != Format::Binary {
        let mut parts = Reuse {
            out: &mut *out,
            i: 0,
        };
        let done = match schema {
            Some(schema) => decode_text_direct(format, key, schema, &mut parts).map(Ok),
            None => Some(guess_into(format, key, &mut parts)),
        };
        if let Some(result) = done {
            let n = parts.i;
            out.truncate(n);
            return result;
        }
    }
    // Binary, and the text keys the direct path refuses: `decode_into`'s
    // results and errors.
    out.clear();
    decode_into(format, key, schema, out)
}

/// The direct path of text decoding with a schema: `None` when anything
/// is unusual or wrong (the caller then runs the general loop, which
/// reports it). No `Result` is moved per part, and the common fields take
/// the shortest path: an ascending string is found and checked for
/// escapes by one word-at-a-time scan (`#` is itself a byte that strings
/// escape), and a fixed-width value is read at its known width, its
/// separator checked where it must be.
#[inline]
fn decode_text_direct<'k, S: Parts<'k>>(
    format: Format,
    key: &'k [u8],
    schema: &[Field],
    out: &mut S,
) -> Option<()> {
    let (last, init) = schema.split_last()?;
    let mut pos = 0;
    for &field in init {
        let end = direct_part(format, field, key, pos, out)?;
        // Not the last field: a separator must follow.
        (end < key.len()).then_some(())?;
        pos = end + 1;
    }
    let end = direct_part(format, *last, key, pos, out)?;
    (end == key.len()).then_some(())
}

/// One part for [`decode_text_direct`]: puts the component, returns
/// where the part ends.
#[inline(always)]
fn direct_part<'k, S: Parts<'k>>(
    format: Format,
    field: Field,
    key: &'k [u8],
    pos: usize,
    out: &mut S,
) -> Option<usize> {
    if field.ty == Type::Str && !field.dir.is_desc() && field.nulls.is_none() && field.list == 0 {
        let (first, end) = text::str_part(key, pos);
        let s = crate::bytes::utf8(&key[pos..end]).ok()?;
        out.put_str(s, first - pos)?;
        return Some(end);
    }
    let (c, end) = match fixed8_at(format, field, key, pos) {
        Some((value, end)) => (
            Component {
                value,
                dir: field.dir,
                width: None,
                nulls: None,
                list: 0,
            },
            end,
        ),
        // Anything else: the general codec, its error dropped.
        None => text_part(format, field, key, pos).ok()?,
    };
    out.put(c);
    Some(end)
}

/// Where the direct path puts the components it decodes: appended to a
/// `Vec` ([`decode_into`]), or over the components already there
/// ([`decode_reusing`]).
trait Parts<'k> {
    /// Puts a component.
    fn put(&mut self, c: Component<'k>);
    /// Puts the ascending string component `s` (valid UTF-8, no `#`),
    /// whose first byte to unescape is at `s[first]` (`first == s.len()`:
    /// none); `None` when it does not unescape.
    fn put_str(&mut self, s: &'k str, first: usize) -> Option<()>;
}

impl<'k> Parts<'k> for Vec<Component<'k>> {
    #[inline(always)]
    fn put(&mut self, c: Component<'k>) {
        self.push(c);
    }
    #[inline(always)]
    fn put_str(&mut self, s: &'k str, first: usize) -> Option<()> {
        self.push(Component::asc(Value::Str(str_value(s, first)?)));
        Some(())
    }
}

/// [`decode_reusing`]'s [`Parts`]: component `i` overwrites `out[i]`
/// (pushed past the end), and a string put where `out[i]` holds an owned
/// string is written into that string's buffer.
struct Reuse<'a, 'k> {
    out: &'a mut Vec<Component<'k>>,
    i: usize,
}

impl<'k> Parts<'k> for Reuse<'_, 'k> {
    #[inline(always)]
    fn put(&mut self, c: Component<'k>) {
        match self.out.get_mut(self.i) {
            Some(slot) => *slot = c,
            None => self.out.push(c),
        }
        self.i += 1;
    }
    #[inline(always)]
    fn put_str(&mut self, s: &'k str, first: usize) -> Option<()> {
        if let Some(slot) = self.out.get_mut(self.i) {
            if let Value::Str(Cow::Owned(buf)) = &mut slot.value {
                buf.clear();
                text::unescape_str_into(s, first, buf).ok()?;
                slot.dir = Dir::Asc;
                slot.width = None;
                self.i += 1;
                return Some(());
            }
        }
        self.put(Component::asc(Value::Str(str_value(s, first)?)));
        Some(())
    }
}

/// The ascending string `s` (valid UTF-8, no `#`) whose first byte to
/// unescape is at `s[first]`: borrowed when there is none, else unescaped
/// into a new `String`.
#[inline(always)]
fn str_value(s: &str, first: usize) -> Option<Cow<'_, str>> {
    if first == s.len() {
        return Some(Cow::Borrowed(s));
    }
    let mut o = String::with_capacity(s.len());
    text::unescape_str_into(s, first, &mut o).ok()?;
    Some(Cow::Owned(o))
}

/// The 8-byte value of `field` whose text starts at `key[pos]`, read at
/// its fixed width (hex 17, base64 12; decimal: full-width ascending `i64`s,
/// 20) when the end or a separator follows; returns it and where it ends.
/// `None` when it is not such a value: the caller falls back to the
/// component codec, which says what is wrong.
#[inline(always)]
fn fixed8_at(
    format: Format,
    field: Field,
    key: &[u8],
    pos: usize,
) -> Option<(Value<'static>, usize)> {
    let w = match (format, field.ty.fixed_len()) {
        _ if field.nulls.is_some() | (field.list != 0) => return None,
        (Format::Hex, Some(8)) => 17,
        (Format::Base64, Some(8)) => 12,
        (Format::Decimal, _) if field == Field::asc(Type::I64) => 20,
        _ => return None,
    };
    let part = key.get(pos..pos + w)?;
    if pos + w != key.len() && key[pos + w] != SEP {
        return None;
    }
    let value = match format {
        Format::Hex if field == Field::asc(Type::I64) => Value::I64(hex::decode_i64(part).ok()?),
        Format::Hex => text::decode_fixed8::<crate::format::hex_digits::Hex>(field, part)?,
        Format::Base64 => text::decode_fixed8::<base64::B64>(field, part)?,
        _ => Value::I64(decimal::decode_i64(part).ok()?),
    };
    Some((value, pos + w))
}

/// Decodes the text part of `key` that starts at `pos` as `field`;
/// returns the component and where the part ends (the index of the next
/// `#`, or `key.len()`). Errors index `key`.
///
/// An ascending string is found and checked for escapes by one
/// word-at-a-time scan (`#` is itself a byte that strings escape), and an
/// 8-byte hex/base64 value has a fixed width, so its separator is checked
/// where it must be rather than searched for. Anything else goes to the
/// component codec, which reports the error.
#[inline]
fn text_part<'k>(
    format: Format,
    field: Field,
    key: &'k [u8],
    pos: usize,
) -> Result<(Component<'k>, usize), DecodeError> {
    let component = |value| Component {
        value,
        dir: field.dir,
        width: None,
        nulls: None,
        list: 0,
    };
    if field.ty == Type::Str && !field.dir.is_desc() && field.nulls.is_none() && field.list == 0 {
        let (s, end) = text::decode_str_part(key, pos)?;
        return Ok((component(Value::Str(s)), end));
    }
    if let Some((value, end)) = fixed8_at(format, field, key, pos) {
        return Ok((component(value), end));
    }
    let end = find_byte(key, pos, SEP).unwrap_or(key.len());
    let c = format
        .decode_component(field, &key[pos..end])
        .map_err(|e| e.shift(pos))?;
    Ok((c, end))
}

/// Schemaless decoding (tagged text formats only): each `#`-separated part
/// that is a valid tagged value is read as that value, any other part as
/// an ascending string.
fn guess_into<'k, S: Parts<'k>>(
    format: Format,
    key: &'k [u8],
    out: &mut S,
) -> Result<(), DecodeError> {
    if !matches!(format, Format::Hex | Format::Base64) {
        return Err(DecodeError::SchemaRequired { offset: 0 });
    }
    let mut pos = 0;
    loop {
        let end = guess_part(format, key, pos, out)?;
        if end == key.len() {
            return Ok(());
        }
        pos = end + 1;
    }
}

/// Decodes the part of `key` that starts at `pos` without a schema (as
/// [`hex::guess_component`] does), pushes it onto `out` and returns where
/// the part ends. One scan finds the part's end and its first escape (the
/// body of a tagged value holds no byte that strings escape); a part is
/// tried as a tagged value only when it starts with a tag and, for a
/// fixed-width type, has that type's length (any other could not decode).
#[inline]
fn guess_part<'k, S: Parts<'k>>(
    format: Format,
    key: &'k [u8],
    pos: usize,
    out: &mut S,
) -> Result<usize, DecodeError> {
    let tag = key.get(pos).and_then(|&t| Type::from_tag(t));
    // An 8-byte tagged value (the common one) is read at its width first:
    // when it decodes and a separator or the end follows, it is the whole
    // part, and the scan below is not needed.
    if let Some((ty, dir)) = tag {
        let field = Field {
            ty,
            dir,
            width: None,
            nulls: None,
            list: 0,
        };
        if let Some((value, end)) = fixed8_at(format, field, key, pos) {
            out.put(Component {
                value,
                dir,
                width: None,
                nulls: None,
                list: 0,
            });
            return Ok(end);
        }
    }
    let (first, end) = text::str_part(key, pos);
    let part = &key[pos..end];
    if let Some((ty, dir)) = tag {
        let field = Field {
            ty,
            dir,
            width: None,
            nulls: None,
            list: 0,
        };
        let body_len = |n| match format {
            Format::Hex => crate::format::hex_digits::Hex::encoded_len(n),
            _ => base64::B64::encoded_len(n),
        };
        let fits = ty.fixed_len().is_none_or(|n| part.len() == 1 + body_len(n));
        if fits && first == end {
            let fast = match (format, ty.fixed_len()) {
                (Format::Hex, Some(8)) => {
                    text::decode_fixed8::<crate::format::hex_digits::Hex>(field, part)
                }
                (_, Some(8)) => text::decode_fixed8::<base64::B64>(field, part),
                _ => None,
            };
            let c = match fast {
                Some(value) => Some(Component {
                    value,
                    dir,
                    width: None,
                    nulls: None,
                    list: 0,
                }),
                None => format.decode_component(field, part).ok(),
            };
            if let Some(c) = c {
                out.put(c);
                return Ok(end);
            }
        }
    }
    // As `text::str_from_part`, into `out`.
    let s = crate::bytes::utf8(part).map_err(|e| DecodeError::InvalidUtf8 {
        offset: pos + e.valid_up_to(),
    })?;
    out.put_str(s, first - pos)
        .ok_or_else(|| text::unescape_error(part).shift(pos))?;
    Ok(end)
}

/// An appending key builder that reuses its buffer.
///
/// Deprecated: it did what [`encode_into`] (a whole tuple into a reused
/// `Vec`) and [`KeyWriter::push`](crate::format::typed::KeyWriter::push)
/// (one component at a time) do; it keeps working, with their fast path.
///
/// ```
/// use lexikey::format::typed::KeyWriter;
/// use lexikey::{tuple, Component, Format};
/// let mut key = Vec::new();
/// tuple::encode_into(Format::Hex, &[Component::asc("population"), Component::asc(3831868_i64)], &mut key)?;
/// assert_eq!(key, b"population#l80000000003A783C");
/// key.clear();
/// KeyWriter::new(Format::Hex, &mut key).push(&Component::desc(1_i64))?;
/// assert_eq!(key, b"L7FFFFFFFFFFFFFFE");
/// # Ok::<(), lexikey::EncodeError>(())
/// ```
#[deprecated(
    note = "use `tuple::encode_into` with a reused `Vec`, or `format::typed::KeyWriter::push`"
)]
#[derive(Debug, Clone)]
pub struct KeyBuilder {
    format: Format,
    buf: Vec<u8>,
    count: usize,
}

#[allow(deprecated)]
impl KeyBuilder {
    /// An empty builder for `format`.
    pub fn new(format: Format) -> Self {
        KeyBuilder {
            format,
            buf: Vec::new(),
            count: 0,
        }
    }

    /// Appends a component.
    ///
    /// # Errors
    /// The component's [`EncodeError`]; the key is left unchanged.
    pub fn push(&mut self, c: &Component<'_>) -> Result<&mut Self, EncodeError> {
        let start = self.buf.len();
        if self.count > 0 && self.format.is_text() {
            self.buf.push(SEP);
        }
        if let Err(e) = self.format.encode_component(c, &mut self.buf) {
            self.buf.truncate(start);
            return Err(e);
        }
        self.count += 1;
        Ok(self)
    }

    /// The key so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Empties the key, keeping the allocation.
    pub fn clear(&mut self) {
        self.buf.clear();
        self.count = 0;
    }

    /// Takes the key.
    pub fn finish(self) -> Vec<u8> {
        self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The straightforward text decoder (split on `#`, one component codec
    /// call per part) that `decode_into`'s direct paths must agree with,
    /// errors included.
    fn reference<'k>(
        format: Format,
        key: &'k [u8],
        schema: &[Field],
    ) -> Result<Vec<Component<'k>>, DecodeError> {
        let mut out = Vec::new();
        let mut pos = 0_usize;
        let mut index = 0;
        for part in key.split(|&b| b == SEP) {
            let Some(&field) = schema.get(index) else {
                return Err(DecodeError::TrailingBytes {
                    offset: pos.saturating_sub(1),
                });
            };
            out.push(
                format
                    .decode_component(field, part)
                    .map_err(|e| e.shift(pos))?,
            );
            pos += part.len() + 1;
            index += 1;
        }
        if index < schema.len() {
            return Err(DecodeError::MissingComponent {
                offset: key.len(),
                index,
            });
        }
        Ok(out)
    }

    /// The straightforward schemaless decoder (split on `#`, guess each
    /// part) that `guess_into` must agree with, errors included.
    fn reference_guess(format: Format, key: &[u8]) -> Result<Vec<Component<'_>>, DecodeError> {
        let mut out = Vec::new();
        let mut pos = 0;
        for part in key.split(|&b| b == SEP) {
            let c = match format {
                Format::Hex => crate::format::hex::guess_component(part),
                Format::Base64 => base64::guess_component(part),
                _ => Err(DecodeError::SchemaRequired { offset: 0 }),
            };
            out.push(c.map_err(|e| e.shift(pos))?);
            pos += part.len() + 1;
        }
        Ok(out)
    }

    #[test]
    #[allow(deprecated)]
    fn key_builder_still_builds_the_same_keys() {
        let c = [Component::asc("san francisco"), Component::desc(7_i64)];
        for format in Format::ALL {
            let mut kb = KeyBuilder::new(format);
            kb.push(&c[0]).unwrap().push(&c[1]).unwrap();
            assert_eq!(kb.as_bytes(), encode(format, &c).unwrap());
            let mut key = Vec::new();
            let mut w = crate::format::typed::KeyWriter::new(format, &mut key);
            w.push(&c[0]).unwrap().push(&c[1]).unwrap();
            assert_eq!(key, kb.finish());
        }
        // A refused component leaves the key as it was.
        let mut key = b"k".to_vec();
        let mut w = crate::format::typed::KeyWriter::new(Format::Decimal, &mut key);
        assert!(w.push(&Component::asc(1.5_f64)).is_err());
        w.push(&Component::asc("x")).unwrap();
        assert_eq!(key, b"kx");
    }

    #[test]
    fn encode_reuses_a_spare_buffer_or_allocates_exactly() {
        for format in Format::ALL {
            for s in [
                "",
                "a",
                "san francisco",
                "a#b$c%d",
                "zürich_東京",
                "0123456789abcdef%",
            ] {
                let c = [
                    Component::asc(s),
                    Component::asc(-5_i64),
                    Component::desc(s),
                ];
                let mut want = Vec::new();
                encode_into(format, &c, &mut want).unwrap();
                // No spare buffer: scratch, then an exact copy.
                drop(Key::take_spare());
                let key = encode(format, &c).unwrap();
                assert_eq!(key, want, "{format} {s:?}");
                assert_eq!(key.capacity(), key.len(), "{format} {s:?}");
                // A spare buffer holding a stale, longer key: cleared first.
                drop(Key::from_slice(&[b'z'; 200]));
                let key = encode(format, &c).unwrap();
                assert_eq!(key, want, "{format} {s:?}");
                assert_eq!(key.capacity(), 200, "{format} {s:?}");
            }
        }
        // A key longer than the scratch kept between calls.
        let long = "x".repeat(SCRATCH_MAX + 1);
        let key = encode(Format::Hex, &[Component::asc(long.as_str())]).unwrap();
        assert_eq!(key, long.as_bytes());
        assert_eq!(encode(Format::Hex, &[Component::asc("a")]).unwrap(), b"a");
        // An error leaves nothing behind for the next key, on either path.
        for spare in [false, true] {
            drop(Key::take_spare());
            if spare {
                drop(Key::from_slice(b"stale"));
            }
            assert!(encode(Format::Decimal, &[Component::asc("a"), Component::asc(1.5)]).is_err());
            assert_eq!(encode(Format::Hex, &[Component::asc("b")]).unwrap(), b"b");
        }
    }

    /// `decode_reusing` into `reused` (holding whatever the previous key
    /// left, owned strings included) gives `want`'s components, or its
    /// error with what `decode_into` leaves in an empty vector.
    fn check_reusing<'k>(
        format: Format,
        key: &'k [u8],
        schema: Option<&[Field]>,
        want: &Result<Vec<Component<'k>>, DecodeError>,
        reused: &mut Vec<Component<'k>>,
    ) {
        let got = decode_reusing(format, key, schema, reused);
        match want {
            Ok(want) => {
                assert_eq!(got, Ok(()), "{format} {key:?} {schema:?}");
                assert_eq!(reused, want, "{format} {key:?} {schema:?}");
            }
            Err(e) => {
                assert_eq!(got.as_ref(), Err(e), "{format} {key:?} {schema:?}");
                let mut partial = Vec::new();
                let _ = decode_into(format, key, schema, &mut partial);
                assert_eq!(reused, &partial, "{format} {key:?} {schema:?}");
            }
        }
    }

    #[test]
    fn direct_text_paths_agree_with_component_codecs() {
        use crate::Dir;
        let strs = ["", "a", "san francisco", "a#b$c%d", "\0\u{7f}", "Zürich"];
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let bytes = [
            0u8, b'#', b'$', b'%', b'0', b'A', b'a', b'l', b'd', b'-', 0x7F, 0xC3, 0xFF,
        ];
        for format in [Format::Hex, Format::Base64, Format::Decimal] {
            for dir in [Dir::Asc, Dir::Desc] {
                for s in strs {
                    for ty in [Type::I64, Type::F64, Type::U64, Type::Ts, Type::I32] {
                        if format == Format::Decimal && ty == Type::F64 {
                            continue;
                        }
                        let f = |ty| Field {
                            ty,
                            dir,
                            width: None,
                            nulls: None,
                            list: 0,
                        };
                        let schema = [f(Type::Str), f(ty), Field::asc(Type::Str)];
                        let v = match ty {
                            Type::I64 => Value::I64(next() as i64),
                            Type::F64 => Value::F64(f64::from_bits(next())),
                            Type::U64 => Value::U64(next()),
                            Type::Ts => Value::Ts(next() as i64),
                            _ => Value::I32(next() as i32),
                        };
                        let c = [
                            Component {
                                value: Value::from(s),
                                dir,
                                width: None,
                                nulls: None,
                                list: 0,
                            },
                            Component {
                                value: v,
                                dir,
                                width: None,
                                nulls: None,
                                list: 0,
                            },
                            Component::asc(s),
                        ];
                        let key = encode(format, &c).unwrap().into_vec();
                        let mut keys = vec![key.clone(), Vec::new()];
                        for i in 0..=key.len() {
                            let b = bytes[(next() % bytes.len() as u64) as usize];
                            let mut k = key.clone();
                            if i < k.len() {
                                k[i] = b;
                            } else {
                                k.push(b);
                            }
                            keys.push(k);
                            keys.push(key[..i].to_vec());
                            let mut k = key.clone();
                            k.insert(i, b);
                            keys.push(k);
                        }
                        // One vector for all these keys: `decode_reusing`
                        // always meets the components (owned strings
                        // included) that the key before left.
                        let mut reused = Vec::new();
                        for k in &keys {
                            if format != Format::Decimal && dir == Dir::Asc {
                                let want = reference_guess(format, k);
                                assert_eq!(decode(format, k, None), want, "{format} {k:?}");
                                check_reusing(format, k, None, &want, &mut reused);
                            }
                            for n in 0..=schema.len() {
                                let want = reference(format, k, &schema[..n]);
                                let got = decode(format, k, Some(&schema[..n]));
                                assert_eq!(got, want, "{format} {k:?} {:?}", &schema[..n]);
                                let schema = Some(&schema[..n]);
                                check_reusing(format, k, schema, &want, &mut reused);
                            }
                        }
                    }
                }
            }
        }
    }
}
