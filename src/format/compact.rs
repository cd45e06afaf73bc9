//! Compact ordered integers: the kinds `vi64` ([`Type::Vi64`]) and `vu64`
//! ([`Type::Vu64`]), 1 byte for small magnitudes, up to 9 for the extremes,
//! in the same order as the numbers in every format.
//!
//! # Binary layout
//!
//! The first byte says how many bytes follow; the numbers a longer
//! encoding holds are all further from zero than those of a shorter one,
//! so the first byte alone orders encodings of different lengths, and
//! equal first bytes are followed by equally many big-endian bytes.
//!
//! | kind | first byte | bytes | value |
//! |---|---|---|---|
//! | `vu64` | `00`–`F7` | 1 | the byte: 0 … 247 |
//! | `vu64` | `F8`–`FF` | 2 … 9 | `n = first − F7` big-endian bytes, ≥ 248 and ≥ 2^(8(n−1)) |
//! | `vi64` | `00`–`07` | 9 … 2 | negative, `n = 8 − first` bytes: the low `n` bytes of the two's complement; `−v−1` ≥ 120 and ≥ 2^(8(n−1)) |
//! | `vi64` | `08`–`F7` | 1 | `first − 0x80`: −120 … 119 |
//! | `vi64` | `F8`–`FF` | 2 … 9 | positive, `n = first − F7` big-endian bytes, ≥ 120 and ≥ 2^(8(n−1)) |
//!
//! Every number has exactly one encoding (the shortest); a decoder refuses
//! any other ([`DecodeError::NonCanonical`]). The encoding is prefix-free
//! (its length is in its first byte), so it needs no terminator inside a
//! tuple, and descending components are the bitwise NOT of every byte,
//! which reverses the order of prefix-free byte strings.
//!
//! # Text formats
//!
//! `hex` and `base64` write the tag (`k`/`K` for `vi64`, `v`/`V` for
//! `vu64`, uppercase descending) and the body of the binary bytes
//! (descending: of their NOT). A body codec keeps the order of the bit
//! strings it encodes, and two different prefix-free encodings differ in a
//! bit that both hold, so their bodies differ in a character both hold.
//!
//! `decimal` writes a length letter and the digits, with no leading zero:
//!
//! | number | letter | digits | examples |
//! |---|---|---|---|
//! | ≥ 0, `d` digits (1 … 20) | `a` + (d − 1): `a` … `t` | the number | `0` → `a0`, `42` → `b42` |
//! | < 0, magnitude of `d` digits (1 … 19) | `S` − (d − 1): `S` … `A` | nine's complement of the magnitude | `−1` → `S8`, `−42` → `R57` |
//!
//! Uppercase letters sort before lowercase, a longer negative before a
//! shorter one and a longer positive after a shorter one; equal letters
//! mean equally many digits, compared as numbers (complemented for
//! negatives). Descending maps every character through an order-reversing
//! map: digit `c` → `'9' + '0' − c`, letter `c` → `'A' + 'z' − c` (the
//! letters used, `A`–`S` and `a`–`t`, map to `z`–`h` and `Z`–`G`).
//!
//! The kinds are not guessed by schemaless decoding (their tags are not in
//! [`Type::from_tag`]): a string such as `v10` written before they existed
//! keeps decoding as that string.
//!
//! ```
//! use lexikey::{tuple, Component, Format, Value};
//! let key = tuple::encode(Format::Hex, &[Component::asc(Value::Vi64(5))])?;
//! assert_eq!(key.as_bytes(), b"k85");
//! let key = tuple::encode(Format::Binary, &[Component::asc(Value::Vu64(1000))])?;
//! assert_eq!(key.as_bytes(), [0xF9, 0x03, 0xE8]);
//! # Ok::<(), lexikey::EncodeError>(())
//! ```

use crate::error::DecodeError;
use crate::value::{Type, Value};

/// The longest encoding, in bytes.
pub const MAX_LEN: usize = 9;

/// What a truncated encoding still needed.
const REST: &str = "the rest of a compact integer";
/// Why a longer-than-needed encoding is refused.
const NOT_SHORTEST: &str = "a compact integer in more bytes than it needs";

/// The number of big-endian bytes `m` needs (at least 1).
#[inline]
fn byte_len(m: u64) -> usize {
    (8 - (m.leading_zeros() / 8) as usize).max(1)
}

/// The smallest magnitude an `n`-byte tail may hold (`first_min` for 1).
#[inline]
fn tail_min(n: usize, first_min: u64) -> u64 {
    if n == 1 {
        first_min
    } else {
        1 << (8 * (n - 1))
    }
}

/// The binary encoding of a `vu64` (descending: every byte inverted): the
/// bytes and how many of them are used.
///
/// ```
/// use lexikey::format::compact::encode_vu64;
/// assert_eq!(encode_vu64(7, false).1, 1);
/// assert_eq!(encode_vu64(u64::MAX, false).1, 9);
/// ```
#[inline]
pub fn encode_vu64(v: u64, desc: bool) -> ([u8; MAX_LEN], usize) {
    let mut b = [0u8; MAX_LEN];
    let n = if v < 0xF8 {
        b[0] = v as u8;
        1
    } else {
        let n = byte_len(v);
        b[0] = 0xF7 + n as u8;
        b[1..=n].copy_from_slice(&v.to_be_bytes()[8 - n..]);
        n + 1
    };
    invert_if(&mut b[..n], desc);
    (b, n)
}

/// The binary encoding of a `vi64` (descending: every byte inverted).
///
/// ```
/// use lexikey::format::compact::encode_vi64;
/// assert_eq!(encode_vi64(-1, false), ([0x7F, 0, 0, 0, 0, 0, 0, 0, 0], 1));
/// assert_eq!(encode_vi64(i64::MIN, false).1, 9);
/// ```
#[inline]
pub fn encode_vi64(v: i64, desc: bool) -> ([u8; MAX_LEN], usize) {
    let mut b = [0u8; MAX_LEN];
    let n = if (-120..=119).contains(&v) {
        b[0] = (v + 0x80) as u8;
        1
    } else if v > 0 {
        let n = byte_len(v as u64);
        b[0] = 0xF7 + n as u8;
        b[1..=n].copy_from_slice(&v.to_be_bytes()[8 - n..]);
        n + 1
    } else {
        let n = byte_len(!v as u64);
        b[0] = 8 - n as u8;
        b[1..=n].copy_from_slice(&v.to_be_bytes()[8 - n..]);
        n + 1
    };
    invert_if(&mut b[..n], desc);
    (b, n)
}

#[inline]
fn invert_if(b: &mut [u8], desc: bool) {
    if desc {
        for x in b {
            *x = !*x;
        }
    }
}

/// The first byte (un-inverted) and the `n`-byte tail after it as a
/// number; errors when the input is empty or shorter than the first byte
/// says.
#[inline]
fn head_tail(input: &[u8], mask: u8, n: usize) -> Result<u64, DecodeError> {
    let tail = input.get(1..=n).ok_or(DecodeError::Truncated {
        offset: input.len(),
        expected: REST,
    })?;
    Ok(tail
        .iter()
        .fold(0u64, |acc, &x| acc << 8 | u64::from(x ^ mask)))
}

#[inline]
fn first(input: &[u8], mask: u8) -> Result<u8, DecodeError> {
    input
        .first()
        .map(|b| b ^ mask)
        .ok_or(DecodeError::Truncated {
            offset: 0,
            expected: "a compact integer",
        })
}

/// Decodes a `vu64` from the start of `input`: the number and the bytes
/// used. Offsets in errors are relative to `input`.
///
/// # Errors
/// [`DecodeError::Truncated`] when the input ends inside the encoding,
/// [`DecodeError::NonCanonical`] for an encoding longer than the number
/// needs.
///
/// ```
/// use lexikey::format::compact::decode_vu64;
/// assert_eq!(decode_vu64(&[0xF9, 0x03, 0xE8, 0x42], false)?, (1000, 3));
/// assert!(decode_vu64(&[0xF9, 0x00, 0x05], false).is_err()); // 5 in 3 bytes
/// assert!(decode_vu64(&[0xF9, 0x03], false).is_err()); // truncated
/// # Ok::<(), lexikey::DecodeError>(())
/// ```
#[inline]
pub fn decode_vu64(input: &[u8], desc: bool) -> Result<(u64, usize), DecodeError> {
    let mask = if desc { 0xFF } else { 0 };
    let b0 = first(input, mask)?;
    if b0 < 0xF8 {
        return Ok((u64::from(b0), 1));
    }
    let n = usize::from(b0 - 0xF7);
    let v = head_tail(input, mask, n)?;
    if v < tail_min(n, 0xF8) {
        return Err(DecodeError::NonCanonical {
            offset: 0,
            reason: NOT_SHORTEST,
        });
    }
    Ok((v, n + 1))
}

/// Decodes a `vi64` from the start of `input`: the number and the bytes
/// used. Offsets in errors are relative to `input`.
///
/// # Errors
/// As [`decode_vu64`], and [`DecodeError::OutOfRange`] for a 9-byte
/// encoding outside `i64`.
///
/// ```
/// use lexikey::format::compact::decode_vi64;
/// assert_eq!(decode_vi64(&[0x85], false)?, (5, 1));
/// assert_eq!(decode_vi64(&[0x7A], true)?, (5, 1)); // descending: !0x85
/// # Ok::<(), lexikey::DecodeError>(())
/// ```
#[inline]
pub fn decode_vi64(input: &[u8], desc: bool) -> Result<(i64, usize), DecodeError> {
    let mask = if desc { 0xFF } else { 0 };
    let b0 = first(input, mask)?;
    let non_canonical = DecodeError::NonCanonical {
        offset: 0,
        reason: NOT_SHORTEST,
    };
    let out_of_range = DecodeError::OutOfRange {
        offset: 0,
        ty: Type::Vi64,
    };
    match b0 {
        0x08..=0xF7 => Ok((i64::from(b0) - 0x80, 1)),
        0xF8.. => {
            let n = usize::from(b0 - 0xF7);
            let v = head_tail(input, mask, n)?;
            if v < tail_min(n, 120) {
                return Err(non_canonical);
            }
            let v = i64::try_from(v).map_err(|_| out_of_range)?;
            Ok((v, n + 1))
        }
        _ => {
            let n = usize::from(8 - b0);
            let p = head_tail(input, mask, n)?;
            // Sign-extend the low `n` bytes.
            let v = if n == 8 {
                p as i64
            } else {
                (p | (!0u64 << (8 * n))) as i64
            };
            if v >= 0 {
                return Err(out_of_range);
            }
            if (!v as u64) < tail_min(n, 120) {
                return Err(non_canonical);
            }
            Ok((v, n + 1))
        }
    }
}

/// The binary encoding of a compact value (`None` for any other value).
#[inline]
pub(crate) fn encode_value(v: &Value<'_>, desc: bool) -> Option<([u8; MAX_LEN], usize)> {
    match *v {
        Value::Vi64(x) => Some(encode_vi64(x, desc)),
        Value::Vu64(x) => Some(encode_vu64(x, desc)),
        _ => None,
    }
}

/// Decodes a compact value of type `ty` (one of the two kinds) from the
/// start of `input`.
#[inline]
pub(crate) fn decode_value(
    ty: Type,
    input: &[u8],
    desc: bool,
) -> Result<(Value<'static>, usize), DecodeError> {
    if ty == Type::Vu64 {
        decode_vu64(input, desc).map(|(v, n)| (Value::Vu64(v), n))
    } else {
        decode_vi64(input, desc).map(|(v, n)| (Value::Vi64(v), n))
    }
}

/// The order-reversing map of the `decimal` characters (its own inverse).
#[inline]
fn mirror(c: u8) -> u8 {
    if c.is_ascii_digit() {
        b'9' + b'0' - c
    } else {
        (b'A' + b'z').wrapping_sub(c)
    }
}

/// Appends the `decimal` text of a compact value (see the module docs).
pub(crate) fn write_decimal(v: &Value<'_>, desc: bool, out: &mut Vec<u8>) {
    let (neg, mag) = match *v {
        Value::Vi64(x) => (x < 0, x.unsigned_abs()),
        Value::Vu64(x) => (false, x),
        _ => return,
    };
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut m = mag;
    loop {
        i -= 1;
        digits[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    let d = (digits.len() - i) as u8;
    let start = out.len();
    if neg {
        out.push(b'S' + 1 - d);
        out.extend(digits[i..].iter().map(|&c| b'9' + b'0' - c));
    } else {
        out.push(b'a' + d - 1);
        out.extend_from_slice(&digits[i..]);
    }
    if desc {
        for c in &mut out[start..] {
            *c = mirror(*c);
        }
    }
}

/// Reads a whole `decimal` component of compact type `ty`.
pub(crate) fn read_decimal(
    ty: Type,
    input: &[u8],
    desc: bool,
) -> Result<Value<'static>, DecodeError> {
    let at = |i: usize| input.get(i).map(|&c| if desc { mirror(c) } else { c });
    let lead = at(0).ok_or(DecodeError::Truncated {
        offset: 0,
        expected: "a compact integer's length letter",
    })?;
    let (neg, d) = match lead {
        b'a'..=b't' => (false, usize::from(lead - b'a') + 1),
        b'A'..=b'S' if ty == Type::Vi64 => (true, usize::from(b'S' - lead) + 1),
        _ => {
            return Err(DecodeError::InvalidSymbol {
                offset: 0,
                found: input[0],
                expected: if ty == Type::Vi64 {
                    "a compact integer's length letter (A-S, a-s)"
                } else {
                    "a compact integer's length letter (a-t)"
                },
            })
        }
    };
    if input.len() < 1 + d {
        return Err(DecodeError::Truncated {
            offset: input.len(),
            expected: "more digits",
        });
    }
    if input.len() > 1 + d {
        return Err(DecodeError::TrailingBytes { offset: 1 + d });
    }
    let mut mag: u128 = 0;
    for (i, &raw) in input.iter().enumerate().skip(1) {
        // Digits map to digits either way: the raw byte must be one.
        let c = if desc { mirror(raw) } else { raw };
        if !raw.is_ascii_digit() {
            return Err(DecodeError::InvalidSymbol {
                offset: i,
                found: raw,
                expected: "a decimal digit",
            });
        }
        let digit = if neg { b'9' - c } else { c - b'0' };
        if i == 1 && digit == 0 && (d > 1 || neg) {
            return Err(DecodeError::NonCanonical {
                offset: 1,
                reason: "a compact integer with a leading zero",
            });
        }
        mag = mag * 10 + u128::from(digit);
    }
    let out_of_range = DecodeError::OutOfRange { offset: 0, ty };
    Ok(match (ty, neg) {
        (Type::Vu64, _) => Value::Vu64(u64::try_from(mag).map_err(|_| out_of_range)?),
        (_, false) => Value::Vi64(i64::try_from(mag).map_err(|_| out_of_range)?),
        (_, true) => Value::Vi64(i64::try_from(-(mag as i128)).map_err(|_| out_of_range)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers around every length boundary of both kinds.
    fn edges() -> Vec<i128> {
        let mut v = vec![0, 1, -1, 119, 120, -120, -121, 247, 248, 255, 256];
        for k in 1..=8u32 {
            let p = 1i128 << (8 * k);
            v.extend([p - 1, p, p + 1, -p, -p - 1, -p + 1]);
        }
        v.extend([
            i128::from(i64::MIN),
            i128::from(i64::MAX),
            i128::from(u64::MAX),
        ]);
        v
    }

    /// Found by the `decode_compact` fuzz target: in a descending
    /// `decimal` key the letter map must not turn a non-digit into a digit.
    #[test]
    fn descending_decimal_refuses_non_digits() {
        let e = read_decimal(Type::Vi64, b"h\x88", true).unwrap_err();
        assert!(
            matches!(e, DecodeError::InvalidSymbol { offset: 1, .. }),
            "{e}"
        );
        let mut k = Vec::new();
        write_decimal(&Value::Vi64(-6), true, &mut k);
        assert_eq!(read_decimal(Type::Vi64, &k, true), Ok(Value::Vi64(-6)));
    }

    #[test]
    fn lengths_and_round_trip_at_every_boundary() {
        for x in edges() {
            for desc in [false, true] {
                if let Ok(v) = i64::try_from(x) {
                    let (b, n) = encode_vi64(v, desc);
                    let want = if (-120..=119).contains(&v) {
                        1
                    } else {
                        1 + byte_len(if v < 0 { !v as u64 } else { v as u64 })
                    };
                    assert_eq!(n, want, "{v}");
                    assert_eq!(decode_vi64(&b[..n], desc), Ok((v, n)), "{v}");
                }
                if let Ok(v) = u64::try_from(x) {
                    let (b, n) = encode_vu64(v, desc);
                    assert_eq!(n, if v < 248 { 1 } else { 1 + byte_len(v) }, "{v}");
                    assert_eq!(decode_vu64(&b[..n], desc), Ok((v, n)), "{v}");
                }
            }
        }
    }
}
