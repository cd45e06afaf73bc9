//! The `base64` format: the `hex` format's tags with a sortable base64 body.
//!
//! The body is base64 of the same big-endian order bytes, bits left-aligned
//! (as base64 of the bytes gives), in the alphabet
//! `-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz`, whose
//! characters are in ASCII order, and without `=` padding (padding breaks
//! order). Fixed widths: 1 byte → 2 chars, 4 → 6, 8 → 11, 16 → 22.
//! Decoding is canonical: the unused low bits of the last character must be
//! zero (one in descending variable-length components, see [`crate::text`]).
//!
//! ```
//! use lexikey::{Component, Format};
//! let mut key = Vec::new();
//! Format::Base64.encode_component(&Component::asc(3831868_i64), &mut key)?;
//! assert_eq!(key, b"lV------uT2k");
//! # Ok::<(), lexikey::EncodeError>(())
//! ```

use crate::error::DecodeError;
use crate::text::{self, Body};
use crate::value::{Component, Field};

/// The sortable alphabet, in ASCII order.
pub const ALPHABET: &[u8; 64] = b"-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

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

    fn decode(
        input: &[u8],
        invert: bool,
        ones: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), DecodeError> {
        let mask = if invert { 0xFF } else { 0 };
        if input.len() % 4 == 1 {
            sym(input[input.len() - 1], input.len() - 1)?;
            return Err(DecodeError::Truncated {
                offset: input.len(),
                expected: "another base64 character (a length of 4n+1 is impossible)",
            });
        }
        out.reserve(input.len() * 3 / 4);
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

#[inline]
fn encode_u64_body(tag: u8, v: u64) -> [u8; 12] {
    let mut out = [0u8; 12];
    out[0] = tag;
    // 64 bits, left-aligned in 66: shift in two zero bits.
    let x = u128::from(v) << 2;
    let mut i = 0;
    while i < 11 {
        out[1 + i] = ALPHABET[((x >> (60 - 6 * i)) & 63) as usize];
        i += 1;
    }
    out
}

/// Decodes an ascending `base64` `i64` key.
pub fn decode_i64(key: &[u8]) -> Result<i64, DecodeError> {
    let c = decode_component(Field::asc(crate::Type::I64), key)?;
    match c.value {
        crate::Value::I64(v) => Ok(v),
        _ => Err(DecodeError::UnexpectedTag {
            offset: 0,
            found: key[0],
            expected: "'l' (i64)",
        }),
    }
}
