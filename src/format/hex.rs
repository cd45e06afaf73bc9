//! The `hex` format: a tag letter, then fixed-width UPPERCASE hex of the
//! order bytes.
//!
//! | type | tag (asc/desc) | key of an example value |
//! |---|---|---|
//! | `bool` | `b`/`B` | `true` → `b01` |
//! | `f64` | `d`/`D` | `1.0` → `dBFF0000000000000` |
//! | `f32` | `f`/`F` | `1.0` → `fBF800000` |
//! | `uuid` | `g`/`G` | 32 digits |
//! | `i32` | `i`/`I` | `-1` → `i7FFFFFFF` |
//! | `i64` | `l`/`L` | `3831868` → `l80000000003A783C` |
//! | `ts` | `t`/`T` | milliseconds as `i64` |
//! | `u64` | `u`/`U` | `42` → `u000000000000002A` |
//! | `u32` | `w`/`W` | `42` → `w0000002A` |
//! | `bytes` | `x`/`X` | `[0xAB]` → `xAB`; descending `X54~` |
//! | `str` | none | `san francisco` → `san%20francisco`; descending `8C9E91~`… |
//!
//! Descending fixed-width values write the bitwise NOT of the order bytes
//! under the uppercase tag, so `a.cmp(&b) == enc(b).cmp(&enc(a))`.
//!
//! ```
//! use lexikey::format::hex;
//! assert_eq!(&hex::encode_i64(3831868), b"l80000000003A783C");
//! assert_eq!(hex::decode_i64(b"l80000000003A783C")?, 3831868);
//! assert!(hex::decode_i64(b"l80000000003a783c").is_err()); // lowercase
//! # Ok::<(), lexikey::DecodeError>(())
//! ```

use crate::error::DecodeError;
use crate::format::hex_digits::{hex16, nibble, unhex16, Hex};
use crate::format::text;
use crate::value::{f64_from_order_bits, f64_order_bits};
use crate::value::{Component, Field};

/// Appends one component in the `hex` format.
#[inline]
pub fn encode_component(c: &Component<'_>, out: &mut Vec<u8>) {
    text::encode_tagged::<Hex>(c, out);
}

/// Decodes one `#`-free component of type `field`.
#[inline]
pub fn decode_component(field: Field, input: &[u8]) -> Result<Component<'_>, DecodeError> {
    text::decode_tagged::<Hex>(field, input)
}

/// Decodes one component without a schema: a valid tagged value is read as
/// that value, anything else as an ascending string.
pub fn guess_component(input: &[u8]) -> Result<Component<'_>, DecodeError> {
    text::guess_tagged::<Hex>(input)
}

#[inline]
fn write_u64(tag: u8, v: u64) -> [u8; 17] {
    let digits = hex16(v);
    let mut out = [tag; 17];
    let mut i = 0;
    while i < 16 {
        out[1 + i] = digits[i];
        i += 1;
    }
    out
}

#[inline(always)]
fn read_u64(tag: u8, key: &[u8]) -> Result<u64, DecodeError> {
    if let Some((&t, body)) = key.split_first() {
        if let Ok(body) = <&[u8; 16]>::try_from(body) {
            if t == tag {
                if let Some(v) = unhex16(body) {
                    return Ok(v);
                }
            }
        }
    }
    read_u64_slow(tag, key)
}

/// The error path of [`read_u64`]: says what is wrong, and where.
#[cold]
fn read_u64_slow(tag: u8, key: &[u8]) -> Result<u64, DecodeError> {
    let Some((&t, body)) = key.split_first() else {
        return Err(DecodeError::Truncated {
            offset: 0,
            expected: "a type tag",
        });
    };
    if t != tag {
        return Err(DecodeError::UnexpectedTag {
            offset: 0,
            found: t,
            expected: if tag == b'l' {
                "'l' (i64)"
            } else {
                "'d' (f64)"
            },
        });
    }
    let Ok(body) = <&[u8; 16]>::try_from(body) else {
        return Err(if body.len() < 16 {
            DecodeError::Truncated {
                offset: key.len(),
                expected: "16 hex digits",
            }
        } else {
            DecodeError::TrailingBytes { offset: 17 }
        });
    };
    let mut v = 0u64;
    for (i, &c) in body.iter().enumerate() {
        v = v << 4 | u64::from(nibble(c, 1 + i)?);
    }
    Ok(v)
}

/// The ascending `hex` key of an `i64`: `l` + 16 digits of `v ^ i64::MIN`.
/// No allocation.
///
/// ```
/// assert_eq!(&lexikey::format::hex::encode_i64(-1), b"l7FFFFFFFFFFFFFFF");
/// ```
#[inline]
pub fn encode_i64(v: i64) -> [u8; 17] {
    write_u64(b'l', (v as u64) ^ (1 << 63))
}

/// Decodes an ascending `hex` `i64` key (exactly 17 bytes, canonical).
#[inline]
pub fn decode_i64(key: &[u8]) -> Result<i64, DecodeError> {
    Ok((read_u64(b'l', key)? ^ (1 << 63)) as i64)
}

/// The ascending `hex` key of an `f64`: `d` + 16 digits of the float
/// transform (canonical NaN). No allocation.
///
/// ```
/// assert_eq!(&lexikey::format::hex::encode_f64(1.0), b"dBFF0000000000000");
/// ```
#[inline]
pub fn encode_f64(v: f64) -> [u8; 17] {
    write_u64(b'd', f64_order_bits(v))
}

/// Decodes an ascending `hex` `f64` key.
#[inline]
pub fn decode_f64(key: &[u8]) -> Result<f64, DecodeError> {
    f64_from_order_bits(read_u64(b'd', key)?).ok_or(DecodeError::NonCanonical {
        offset: 1,
        reason: "a NaN other than the canonical NaN",
    })
}
