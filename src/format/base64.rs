//! The `base64` format: the `hex` format's tags with a sortable base64 body.
//!
//! The body is base64 of the same big-endian order bytes, bits left-aligned
//! (as base64 of the bytes gives), in the alphabet
//! `-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz`, whose
//! characters are in ASCII order, and without `=` padding (padding breaks
//! order). Fixed widths: 1 byte → 2 chars, 4 → 6, 8 → 11, 16 → 22.
//! Decoding is canonical: the unused low bits of the last character must be
//! zero (one in descending variable-length components, see [`crate::format::text`]).
//!
//! ```
//! use lexikey::{Component, Format};
//! let mut key = Vec::new();
//! Format::Base64.encode_component(&Component::asc(3831868_i64), &mut key)?;
//! assert_eq!(key, b"lV------uT2k");
//! # Ok::<(), lexikey::EncodeError>(())
//! ```

use data_encoding::{DecodeKind, Encoding, Specification};

use crate::error::DecodeError;
use crate::format::text::{self, Body, Sink};
use crate::value::{Component, Field};

/// The sortable alphabet, in ASCII order.
pub const ALPHABET: &[u8; 64] = b"-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

/// The sortable base64 encoding as a `data-encoding` [`Specification`]:
/// [`ALPHABET`], no padding, and canonical decoding (the unused low bits of
/// the last character must be zero). Variable-length bodies (`bytes`,
/// `dec`, descending strings) are written and read by the encoding built
/// from it; the fixed-width values keep their hand-tuned paths, proven
/// equal to it by the tests of this module.
///
/// ```
/// let enc = lexikey::format::base64::specification().encoding()?;
/// assert_eq!(enc.encode(&[0x80, 0, 0, 0, 0, 0x3A, 0x78, 0x3C]), "V------uT2k");
/// assert!(enc.decode(b"V------uT2l").is_err()); // non-zero unused bits
/// # Ok::<(), data_encoding::SpecificationError>(())
/// ```
pub fn specification() -> Specification {
    let mut spec = Specification::new();
    spec.symbols
        .push_str(std::str::from_utf8(ALPHABET).unwrap_or_default());
    spec.check_trailing_bits = true;
    spec
}

/// The encoding of [`specification`] as a constant (no allocation, no
/// lazy initialization), built the way `data-encoding` builds its own
/// constants (`BASE64`, `HEXLOWER`) and checked against the specification
/// by the doctest below and the unit tests.
///
/// ```
/// use lexikey::format::base64::{specification, SORTABLE};
/// assert_eq!(SORTABLE, specification().encoding()?);
/// assert_eq!(SORTABLE.encode(b"\xFF"), "zk");
/// # Ok::<(), data_encoding::SpecificationError>(())
/// ```
pub const SORTABLE: Encoding = Encoding::internal_new(SORTABLE_IMPL);

/// `data-encoding`'s table for [`SORTABLE`]: 256 symbols (the alphabet four
/// times), 256 values (`128`: not a symbol), the padding (`128`: none), and
/// the flags `check trailing bits | most significant bit first | 6 bits`.
const SORTABLE_IMPL: &[u8] = &{
    let mut t = [0u8; 514];
    let mut i = 0;
    while i < 256 {
        t[i] = ALPHABET[i % 64];
        t[256 + i] = 128;
        i += 1;
    }
    let mut v = 0;
    while v < 64 {
        t[256 + ALPHABET[v] as usize] = v as u8;
        v += 1;
    }
    t[512] = 128;
    t[513] = 0b1_1110;
    t
};

/// [`SORTABLE`] at one address.
static ENCODING: Encoding = SORTABLE;

#[inline]
fn encoding() -> &'static Encoding {
    &ENCODING
}

/// Each alphabet character mapped to the character of the inverted
/// sextet (`63 - v`); other bytes to themselves. The body of the NOT of
/// some bytes, with ones in the unused low bits, is the body of the bytes
/// with every character mapped (each full sextet is inverted; the last
/// one's data bits are inverted and its zero padding becomes ones).
static INVERT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as u8;
        i += 1;
    }
    let mut v = 0;
    while v < 64 {
        t[ALPHABET[v] as usize] = ALPHABET[63 - v];
        v += 1;
    }
    t
};

/// Symbol value of each alphabet byte, 0xFF elsewhere.
static VALUE: [u8; 256] = {
    let mut t = [0xFFu8; 256];
    let mut i = 0;
    while i < 64 {
        t[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    t
};

pub(crate) struct B64;

impl Body for B64 {
    #[inline]
    fn encode(bytes: &[u8], invert: bool, ones: bool, out: &mut Vec<u8>) {
        let mask = if invert { 0xFF } else { 0 };
        out.reserve(Self::encoded_len(bytes.len()));
        let chunks = bytes.chunks_exact(3);
        let rest = chunks.remainder();
        for c in chunks {
            let n =
                u32::from(c[0] ^ mask) << 16 | u32::from(c[1] ^ mask) << 8 | u32::from(c[2] ^ mask);
            out.extend_from_slice(&[
                ALPHABET[(n >> 18) as usize & 63],
                ALPHABET[(n >> 12) as usize & 63],
                ALPHABET[(n >> 6) as usize & 63],
                ALPHABET[n as usize & 63],
            ]);
        }
        match *rest {
            [a] => {
                let n = u32::from(a ^ mask) << 4 | if ones { 0xF } else { 0 };
                out.extend_from_slice(&[
                    ALPHABET[(n >> 6) as usize & 63],
                    ALPHABET[n as usize & 63],
                ]);
            }
            [a, b] => {
                let n =
                    u32::from(a ^ mask) << 10 | u32::from(b ^ mask) << 2 | if ones { 3 } else { 0 };
                out.extend_from_slice(&[
                    ALPHABET[(n >> 12) as usize & 63],
                    ALPHABET[(n >> 6) as usize & 63],
                    ALPHABET[n as usize & 63],
                ]);
            }
            _ => {}
        }
    }

    #[inline]
    fn encode_u64(v: u64, out: &mut Vec<u8>) {
        out.extend_from_slice(&b64_11(v));
    }

    #[inline]
    fn decode_u64(input: &[u8]) -> Result<u64, DecodeError> {
        if let Ok(body) = <&[u8; 11]>::try_from(input) {
            if let Some(v) = unb64_11(body) {
                return Ok(v);
            }
        }
        decode_u64_slow(input)
    }

    fn decode<S: Sink>(
        input: &[u8],
        invert: bool,
        ones: bool,
        out: &mut S,
    ) -> Result<(), DecodeError> {
        let mask = if invert { 0xFF } else { 0 };
        if input.len() % 4 == 1 {
            sym(input[input.len() - 1], input.len() - 1)?;
            return Err(DecodeError::Truncated {
                offset: input.len(),
                expected: "another base64 character (a length of 4n+1 is impossible)",
            });
        }
        let chunks = input.chunks_exact(4);
        let rest = chunks.remainder();
        for (i, c) in chunks.enumerate() {
            let o = 4 * i;
            let n = sym(c[0], o)? << 18
                | sym(c[1], o + 1)? << 12
                | sym(c[2], o + 2)? << 6
                | sym(c[3], o + 3)?;
            out.extend_from_slice(&[
                (n >> 16) as u8 ^ mask,
                (n >> 8) as u8 ^ mask,
                n as u8 ^ mask,
            ]);
        }
        let o = input.len() - rest.len();
        let (pad_mask, pad_bits) = match *rest {
            [a, b] => {
                let n = sym(a, o)? << 6 | sym(b, o + 1)?;
                out.push((n >> 4) as u8 ^ mask);
                (0xF, n & 0xF)
            }
            [a, b, c] => {
                let n = sym(a, o)? << 12 | sym(b, o + 1)? << 6 | sym(c, o + 2)?;
                out.extend_from_slice(&[(n >> 10) as u8 ^ mask, (n >> 2) as u8 ^ mask]);
                (0x3, n & 0x3)
            }
            _ => return Ok(()),
        };
        let want = if ones { pad_mask } else { 0 };
        if pad_bits != want {
            return Err(DecodeError::NonCanonical {
                offset: input.len() - 1,
                reason: if ones {
                    "the unused low bits of the last base64 character must be one"
                } else {
                    "the unused low bits of the last base64 character must be zero"
                },
            });
        }
        Ok(())
    }

    #[inline]
    fn encoded_len(n: usize) -> usize {
        (8 * n).div_ceil(6)
    }

    /// With `data-encoding`; descending: the ascending body, every
    /// character mapped through [`INVERT`]. No allocation.
    #[inline]
    fn encode_var(bytes: &[u8], desc: bool, out: &mut Vec<u8>) {
        let enc = encoding();
        let start = out.len();
        out.resize(start + enc.encode_len(bytes.len()), 0);
        enc.encode_mut(bytes, &mut out[start..]);
        if desc {
            for c in &mut out[start..] {
                *c = INVERT[*c as usize];
            }
        }
    }

    /// With `data-encoding`; descending: the characters mapped through
    /// [`INVERT`] a block at a time on the stack, so no allocation.
    fn decode_var(input: &[u8], desc: bool, out: &mut Vec<u8>) -> Result<(), DecodeError> {
        if input.len() % 4 == 1 {
            sym(input[input.len() - 1], input.len() - 1)?;
            return Err(DecodeError::Truncated {
                offset: input.len(),
                expected: "another base64 character (a length of 4n+1 is impossible)",
            });
        }
        if !desc {
            return decode_var_at(input, input, 0, out, false);
        }
        // 64 characters (48 bytes) at a time: whole blocks but the last.
        let mut buf = [0u8; 64];
        for (i, chunk) in input.chunks(buf.len()).enumerate() {
            let mapped = &mut buf[..chunk.len()];
            for (m, &c) in mapped.iter_mut().zip(chunk) {
                *m = INVERT[c as usize];
            }
            decode_var_at(mapped, input, i * 64, out, true)?;
        }
        Ok(())
    }
}

/// Decodes `chunk` (the characters of `input` from `at`, mapped when
/// `desc`) with `data-encoding`, appending to `out`; errors point into
/// `input` and say what the hand-written decoder says.
fn decode_var_at(
    chunk: &[u8],
    input: &[u8],
    at: usize,
    out: &mut Vec<u8>,
    desc: bool,
) -> Result<(), DecodeError> {
    let enc = encoding();
    let start = out.len();
    // The length is 4n, 4n+2 or 4n+3: always valid.
    let n = enc.decode_len(chunk.len()).unwrap_or(0);
    out.resize(start + n, 0);
    match enc.decode_mut(chunk, &mut out[start..]) {
        Ok(len) => {
            out.truncate(start + len);
            Ok(())
        }
        Err(e) => {
            out.truncate(start);
            let offset = at + e.error.position;
            Err(match e.error.kind {
                DecodeKind::Symbol | DecodeKind::Padding => sym(input[offset], offset)
                    .err()
                    .unwrap_or(DecodeError::NonCanonical {
                        offset,
                        reason: "not a sortable base64 character",
                    }),
                DecodeKind::Trailing => DecodeError::NonCanonical {
                    offset: input.len() - 1,
                    reason: if desc {
                        "the unused low bits of the last base64 character must be one"
                    } else {
                        "the unused low bits of the last base64 character must be zero"
                    },
                },
                DecodeKind::Length => DecodeError::Truncated {
                    offset: input.len(),
                    expected: "another base64 character (a length of 4n+1 is impossible)",
                },
            })
        }
    }
}

#[inline]
fn sym(c: u8, offset: usize) -> Result<u32, DecodeError> {
    match VALUE[c as usize] {
        0xFF => Err(DecodeError::InvalidSymbol {
            offset,
            found: c,
            expected: "a sortable base64 character (-, 0-9, A-Z, _, a-z)",
        }),
        v => Ok(u32::from(v)),
    }
}

/// Appends one component in the `base64` format.
#[inline]
pub fn encode_component(c: &Component<'_>, out: &mut Vec<u8>) {
    text::encode_tagged::<B64>(c, out);
}

/// Decodes one `#`-free component of type `field`.
#[inline]
pub fn decode_component(field: Field, input: &[u8]) -> Result<Component<'_>, DecodeError> {
    text::decode_tagged::<B64>(field, input)
}

/// Decodes one component without a schema (see [`crate::format::hex::guess_component`]).
pub fn guess_component(input: &[u8]) -> Result<Component<'_>, DecodeError> {
    text::guess_tagged::<B64>(input)
}

/// The ascending `base64` key of an `i64`: `l` + 11 characters. No allocation.
///
/// ```
/// assert_eq!(&lexikey::format::base64::encode_i64(3831868), b"lV------uT2k");
/// ```
#[inline]
pub fn encode_i64(v: i64) -> [u8; 12] {
    encode_u64_body(b'l', (v as u64) ^ (1 << 63))
}

/// The ascending `base64` key of an `f64`.
#[inline]
pub fn encode_f64(v: f64) -> [u8; 12] {
    encode_u64_body(b'd', crate::value::f64_order_bits(v))
}

#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
const ONES: u64 = 0x0101_0101_0101_0101;

/// The alphabet characters of 8 six-bit values, one per byte (SWAR): the
/// alphabet is five runs of consecutive ASCII, so a character is
/// `v + 0x2D` plus 2, 7, 4 and 1 for `v` at or past 1, 11, 37 and 38.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
const fn sextets_to_ascii(v: u64) -> u64 {
    // 1 in each byte where the byte (< 64) is >= k: no carry between bytes.
    const fn ge(v: u64, k: u64) -> u64 {
        ((v + (0x80 - k) * ONES) >> 7) & ONES
    }
    v + 0x2D * ONES + 2 * ge(v, 1) + 7 * ge(v, 11) + 4 * ge(v, 37) + ge(v, 38)
}

/// The 11 body characters of 8 big-endian bytes (64 bits, then two zero
/// bits): the sextets spread one per byte, the first 8 a word at a time,
/// then made alphabet characters (SSE2 on x86_64, all 11 at once; SWAR
/// and a table elsewhere).
///
/// Returned as two words, first character in the low byte: the first 8
/// characters, and the last 3 (in the low three bytes).
#[inline]
fn b64_words(v: u64) -> (u64, u64) {
    // The top 48 bits, spread to one sextet per byte, first in the top byte.
    let x = v >> 16;
    let x = (x & 0xFFFF_FF00_0000) << 8 | (x & 0x00FF_FFFF);
    let x = (x & 0x00FF_F000_00FF_F000) << 4 | (x & 0x0000_0FFF_0000_0FFF);
    let x = (x & 0x0FC0_0FC0_0FC0_0FC0) << 2 | (x & 0x003F_003F_003F_003F);
    // The last three sextets, first in the low byte.
    let tail = (v >> 10) & 63 | ((v >> 4) & 63) << 8 | ((v & 15) << 2) << 16;
    // SAFETY: `sextets_sse2` needs only SSE2, which the `cfg` proves every
    // function of this build has (as at `digits::unhex16`); it takes and
    // returns plain values.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[allow(unsafe_code)]
    let (head, tail) = unsafe { sextets_sse2(x.swap_bytes(), tail) };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let (head, tail) = (sextets_to_ascii(x).swap_bytes(), sextets_to_ascii(tail));
    (head, tail)
}

/// The 11 body characters of 8 big-endian bytes, as [`b64_words`] gives
/// them.
#[inline]
fn b64_11(v: u64) -> [u8; 11] {
    let (head, tail) = b64_words(v);
    let mut out = [0u8; 11];
    out[..8].copy_from_slice(&head.to_le_bytes());
    out[8..].copy_from_slice(&tail.to_le_bytes()[..3]);
    out
}

/// [`sextets_to_ascii`] of two words at once, with SSE2: a character is
/// `v + 0x2D` plus 2, 7, 4 and 1 where `v` exceeds 0, 10, 36 and 37
/// (signed compares: every byte is below 64).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
fn sextets_sse2(a: u64, b: u64) -> (u64, u64) {
    use core::arch::x86_64::{
        _mm_add_epi8, _mm_and_si128, _mm_cmpgt_epi8, _mm_set1_epi8, _mm_set_epi64x,
    };
    // `as i64`: bit patterns, not values.
    let x = _mm_set_epi64x(b as i64, a as i64);
    let step = |above: i8, add: i8| {
        _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8(above)), _mm_set1_epi8(add))
    };
    let y = _mm_add_epi8(
        _mm_add_epi8(_mm_add_epi8(x, _mm_set1_epi8(0x2D)), step(0, 2)),
        _mm_add_epi8(_mm_add_epi8(step(10, 7), step(36, 4)), step(37, 1)),
    );
    crate::format::hex_digits::sse2_words(y)
}

/// The 8 bytes of an 11-character body, or `None` when a character is not
/// in the alphabet or the two unused low bits are not zero. Each symbol is
/// looked up and shifted into place on its own (no chain of `v << 6 | x`
/// through all eleven), so the lookups overlap.
#[inline]
fn unb64_11(d: &[u8; 11]) -> Option<u64> {
    let x: [u8; 11] = std::array::from_fn(|i| VALUE[d[i] as usize]);
    let bad = x.iter().fold(0, |a, &b| a | b);
    // 0xFF marks a non-alphabet byte; the low two bits must be zero.
    if bad & 0xC0 != 0 || x[10] & 3 != 0 {
        return None;
    }
    let at = |i: usize| u64::from(x[i]) << (58 - 6 * i);
    let hi = (at(0) | at(1)) | (at(2) | at(3)) | (at(4) | at(5));
    let lo = (at(6) | at(7)) | (at(8) | at(9)) | u64::from(x[10] >> 2);
    Some(hi | lo)
}

/// The error path of [`Body::decode_u64`] (says what is wrong, and where).
#[cold]
fn decode_u64_slow(input: &[u8]) -> Result<u64, DecodeError> {
    B64::decode_u64_general(input, "11 base64 characters")
}

#[inline]
fn encode_u64_body(tag: u8, v: u64) -> [u8; 12] {
    // Two stores: the tag and the first 7 characters, then the last 4.
    let (head, tail) = b64_words(v);
    let first = u64::from(tag) | head << 8;
    let rest = (head >> 56) as u32 | (tail as u32) << 8;
    let mut out = [0u8; 12];
    out[..8].copy_from_slice(&first.to_le_bytes());
    out[8..].copy_from_slice(&rest.to_le_bytes());
    out
}

/// The order bits of an ascending 12-byte key with tag `tag`, `None` when
/// anything is off (the caller then reports the error the general decoder
/// gives).
#[inline]
fn read_u64(tag: u8, key: &[u8]) -> Option<u64> {
    match key.split_first() {
        Some((&t, body)) if t == tag => unb64_11(body.try_into().ok()?),
        _ => None,
    }
}

/// Decodes an ascending `base64` `i64` key. No allocation.
#[inline]
pub fn decode_i64(key: &[u8]) -> Result<i64, DecodeError> {
    match read_u64(b'l', key) {
        Some(v) => Ok((v ^ (1 << 63)) as i64),
        None => decode_slow(crate::Type::I64, key).map(|v| match v {
            crate::Value::I64(v) => v,
            _ => 0,
        }),
    }
}

/// Decodes an ascending `base64` `f64` key. No allocation.
#[inline]
pub fn decode_f64(key: &[u8]) -> Result<f64, DecodeError> {
    match read_u64(b'd', key).and_then(crate::value::f64_from_order_bits) {
        Some(v) => Ok(v),
        None => decode_slow(crate::Type::F64, key).map(|v| match v {
            crate::Value::F64(v) => v,
            _ => 0.0,
        }),
    }
}

/// The error path of the scalar decoders: the general decoder's verdict.
#[cold]
fn decode_slow(ty: crate::Type, key: &[u8]) -> Result<crate::Value<'_>, DecodeError> {
    Ok(decode_component(Field::asc(ty), key)?.value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table version [`b64_11`] replaces.
    fn by_table(v: u64) -> [u8; 11] {
        let mut out = [0u8; 11];
        for (i, o) in out.iter_mut().enumerate().take(10) {
            *o = ALPHABET[((v >> (58 - 6 * i)) & 63) as usize];
        }
        out[10] = ALPHABET[((v & 15) << 2) as usize];
        out
    }

    /// The table decoder [`unb64_11`] replaces.
    fn unb64_by_table(d: &[u8; 11]) -> Option<u64> {
        let mut v = 0u64;
        for &c in &d[..10] {
            let x = VALUE[c as usize];
            if x == 0xFF {
                return None;
            }
            v = v << 6 | u64::from(x);
        }
        let x = VALUE[d[10] as usize];
        if x == 0xFF || x & 3 != 0 {
            return None;
        }
        Some(v << 4 | u64::from(x >> 2))
    }

    #[test]
    fn swar_body_decode_matches_table() {
        // Every byte value in every position, in bodies of several values.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..40 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = match round {
                0 => 0,
                1 => u64::MAX,
                _ => x,
            };
            let body = b64_11(v);
            for pos in 0..11 {
                for b in 0..=255u8 {
                    let mut d = body;
                    d[pos] = b;
                    assert_eq!(unb64_11(&d), unb64_by_table(&d), "{d:?}");
                }
            }
        }
        // Two bytes changed at once (borrows and carries between lanes).
        let bytes = [
            0x00, 0x2C, 0x2D, 0x2F, 0x30, 0x3A, 0x40, 0x41, 0x5B, 0x5F, 0x60, 0x61, 0x7A, 0x7B,
            0x7F, 0x80, 0xFF,
        ];
        let body = b64_11(0x0123_4567_89AB_CDEF);
        for i in 0..8 {
            for j in 0..8 {
                for &a in &bytes {
                    for &b in &bytes {
                        let mut d = body;
                        d[i] = a;
                        d[j] = b;
                        assert_eq!(unb64_11(&d), unb64_by_table(&d), "{d:?}");
                    }
                }
            }
        }
    }

    use proptest::prelude::*;

    proptest! {
        /// The hand-tuned body codec writes exactly what `data-encoding`
        /// writes from the specification (ascending, and descending: the
        /// NOT of the bytes with ones in the unused bits), and both read
        /// every body back, with the same error on bad input.
        #[test]
        fn hand_tuned_equals_data_encoding(
            bytes in proptest::collection::vec(any::<u8>(), 0..80),
            junk in proptest::collection::vec(
                prop_oneof![4 => proptest::sample::select(ALPHABET.to_vec()), 1 => any::<u8>()],
                0..70,
            ),
        ) {
            for desc in [false, true] {
                let mut hand = Vec::new();
                B64::encode(&bytes, desc, desc, &mut hand);
                let mut de = Vec::new();
                B64::encode_var(&bytes, desc, &mut de);
                prop_assert_eq!(&hand, &de);
                if !desc {
                    let de = encoding().encode(&bytes);
                    prop_assert_eq!(&hand, de.as_bytes());
                }
                let mut back = Vec::new();
                B64::decode_var(&de, desc, &mut back).unwrap();
                prop_assert_eq!(&back, &bytes);
                // Arbitrary text: the same value or the same error.
                let mut a = Vec::new();
                let mut b = Vec::new();
                let ra = B64::decode(&junk, desc, desc, &mut a);
                let rb = B64::decode_var(&junk, desc, &mut b);
                prop_assert_eq!(&ra, &rb, "{:?}", String::from_utf8_lossy(&junk));
                if ra.is_ok() {
                    prop_assert_eq!(&a, &b);
                }
            }
        }
    }

    #[test]
    fn fixed_width_bodies_equal_data_encoding() {
        // i64 and f64 bodies (the SWAR path) are data-encoding's output.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(
                &b64_11(x)[..],
                encoding().encode(&x.to_be_bytes()).as_bytes()
            );
        }
    }

    #[test]
    fn swar_body_matches_table() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..50_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = match i {
                0..=63 => 1 << i,
                64..=127 => !(1 << (i - 64)),
                _ => x,
            };
            assert_eq!(b64_11(v), by_table(v), "{v:#x}");
            assert_eq!(unb64_11(&b64_11(v)), Some(v));
        }
        // Every sextet value in every position.
        for pos in 0..10 {
            for s in 0..64u64 {
                let v = s << (58 - 6 * pos);
                assert_eq!(b64_11(v), by_table(v));
            }
        }
        // The last sextet (4 bits and two zero bits) at every value.
        for s in 0..16u64 {
            assert_eq!(b64_11(s), by_table(s));
        }
    }

    #[test]
    #[allow(unsafe_code)] // calls the SSE2 mapping directly, as `b64_11` does
    fn sse2_and_swar_sextets_agree() {
        for s in 0..64u64 {
            for pos in 0..8 {
                let a = s << (8 * pos) | 0x3F3F_0000_0001_0A25 & !(0xFF << (8 * pos));
                let b = (63 - s) << (8 * pos);
                let swar = (sextets_to_ascii(a), sextets_to_ascii(b));
                // SAFETY: as in `b64_11`.
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                assert_eq!(unsafe { sextets_sse2(a, b) }, swar, "{a:#x} {b:#x}");
                assert_eq!(swar.0.to_le_bytes()[pos], ALPHABET[s as usize]);
            }
        }
    }
}
