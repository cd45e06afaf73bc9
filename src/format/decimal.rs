//! The `decimal` format: zero-padded, fixed-width, untagged decimal digits.
//!
//! | type | full width | example |
//! |---|---|---|
//! | `i64`, `ts` | 20 (sign slot + 19 digits) | `3831868` → `00000000000003831868`, `-1` → `-9999999999999999998` |
//! | `i32` | 11 (sign slot + 10 digits) | `-5` → `-9999999994` |
//! | `u64` | 20 | `42` → `00000000000000000042` |
//! | `u32` | 10 | |
//! | `bool` | 1 | `0` / `1` |
//! | `uuid` | 39 (the 128-bit value) | |
//! | `vi64`, `vu64` | 2 to 21: a length letter and the digits | `42` → `b42`, `-1` → `S8` (see [`crate::format::compact`]) |
//! | `str`, `bytes` | as in [`crate::format::hex`] | |
//! | `f64`, `f32` | refused ([`EncodeError::Unsupported`]) | |
//!
//! Signed integers start with a sign slot: `0` for non-negative values,
//! which then read as themselves, and `-` for negative ones, followed by the
//! nine's complement of the magnitude (`10^d − 1 − |v|`), so that
//! `-` (0x2D) < `0` puts negatives first and larger magnitudes lower.
//!
//! A narrower width ([`Field::width`], e.g. 7 for populations) is allowed for
//! integer types; a value that does not fit is an error, never truncated.
//! Widths are ignored by non-integer types.
//!
//! Descending components complement every character: digit `d` → `9 − d`,
//! sign slot `0` ↔ `-`. Fixed width makes that reverse the order.
//!
//! Decimal keys carry no tag: decoding needs a schema.
//!
//! ```
//! use lexikey::{Component, Format};
//! let mut key = Vec::new();
//! let pop = Component { width: Some(7), ..Component::asc(389625_u64) };
//! Format::Decimal.encode_component(&pop, &mut key)?;
//! assert_eq!(key, b"0389625");
//! # Ok::<(), lexikey::EncodeError>(())
//! ```

use crate::error::{DecodeError, EncodeError};
use crate::format::hex_digits::Hex;
use crate::format::text;
use crate::value::{Component, Field, Type, Value};

/// The full (default) width of a type in this format, `None` for types
/// without a fixed decimal width (strings, bytes, floats).
pub const fn full_width(ty: Type) -> Option<u8> {
    match ty {
        Type::I64 | Type::Ts | Type::U64 => Some(20),
        Type::I32 => Some(11),
        Type::U32 => Some(10),
        Type::Bool => Some(1),
        Type::Uuid => Some(39),
        _ => None,
    }
}

/// The width used for `field`, checked against the type's limits.
fn width_of(ty: Type, width: Option<u8>) -> Result<u8, EncodeError> {
    let full = full_width(ty).unwrap_or(0);
    let is_int = matches!(ty, Type::I64 | Type::Ts | Type::U64 | Type::I32 | Type::U32);
    match width {
        Some(w) if is_int => {
            let min = if ty.is_signed_int() { 2 } else { 1 };
            if w < min || w > full {
                return Err(EncodeError::BadWidth {
                    ty,
                    width: w,
                    min,
                    max: full,
                });
            }
            Ok(w)
        }
        _ => Ok(full),
    }
}

/// The largest magnitude `digits` decimal digits hold (`u128::MAX` when all fit).
#[inline]
fn max_for(digits: u8) -> u128 {
    10u128
        .checked_pow(u32::from(digits))
        .map_or(u128::MAX, |p| p - 1)
}

/// Writes `v` as exactly `buf.len()` zero-padded digits (caller checked fit).
#[inline]
fn write_digits(mut v: u128, buf: &mut [u8]) {
    if v <= u128::from(u64::MAX) && buf.len() <= 20 {
        let all = digits20(v as u64);
        buf.copy_from_slice(&all[20 - buf.len()..]);
    } else {
        for d in buf.iter_mut().rev() {
            *d = b'0' + (v % 10) as u8;
            v /= 10;
        }
    }
}

/// Complements a decimal key in place (descending order): the sign slot of
/// a signed type swaps `0` and `-`, every digit `d` becomes `9 - d`. Other
/// bytes are left for the decoder to reject.
fn complement(buf: &mut [u8], signed: bool) {
    for (i, b) in buf.iter_mut().enumerate() {
        *b = match (*b, signed && i == 0) {
            (b'0', true) => b'-',
            (b'-', true) => b'0',
            // Any other byte in the sign slot stays as it is, for the
            // decoder to reject (a digit there must not pass as a sign).
            (other, true) => other,
            (c @ b'0'..=b'9', false) => b'9' - (c - b'0'),
            (other, false) => other,
        };
    }
}

/// Appends one component in the `decimal` format.
///
/// # Errors
/// [`EncodeError::Unsupported`] for floats; [`EncodeError::WidthOverflow`]
/// when the value needs more digits than the width; [`EncodeError::BadWidth`].
#[inline]
pub fn encode_component(c: &Component<'_>, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    if let (Value::I64(v) | Value::Ts(v), None, false) = (&c.value, c.width, c.dir.is_desc()) {
        out.extend_from_slice(&encode_i64(*v));
        return Ok(());
    }
    let ty = c.value.ty();
    let (signed, neg, mag): (bool, bool, u128) = match c.value {
        Value::Str(_) | Value::Bytes(_) => {
            text::encode_tagged::<Hex>(c, out);
            return Ok(());
        }
        Value::Dec(ref d) => {
            // ELEN text; descending = the key of the negated number.
            d.write_elen(c.dir.is_desc(), out);
            return Ok(());
        }
        Value::Vi64(_) | Value::Vu64(_) => {
            crate::format::compact::write_decimal(&c.value, c.dir.is_desc(), out);
            return Ok(());
        }
        Value::F64(_) | Value::F32(_) => {
            return Err(EncodeError::Unsupported {
                ty,
                format: "decimal",
                hint: ": use the hex or base64 format for floats",
            })
        }
        Value::Bool(b) => (false, false, u128::from(b)),
        Value::Uuid(v) => (false, false, v),
        Value::I32(v) => (true, v < 0, u128::from(v.unsigned_abs())),
        Value::I64(v) | Value::Ts(v) => (true, v < 0, u128::from(v.unsigned_abs())),
        Value::U64(v) => (false, false, u128::from(v)),
        Value::U32(v) => (false, false, u128::from(v)),
        Value::Null(ty) => return Err(EncodeError::NotNullable { ty }),
        Value::List(..) => return crate::format::list::encode(crate::Format::Decimal, c, out),
    };
    let w = width_of(ty, c.width)?;
    let digits = if signed { w - 1 } else { w };
    let max = max_for(digits);
    if mag > max {
        let value = if neg {
            format!("-{mag}")
        } else {
            mag.to_string()
        };
        return Err(EncodeError::WidthOverflow { value, width: w });
    }
    let mut buf = [0u8; 40];
    let buf = &mut buf[..usize::from(w)];
    if signed {
        buf[0] = if neg { b'-' } else { b'0' };
        write_digits(if neg { max - mag } else { mag }, &mut buf[1..]);
    } else {
        write_digits(mag, buf);
    }
    if c.dir.is_desc() {
        complement(buf, signed);
    }
    out.extend_from_slice(buf);
    Ok(())
}

/// Decodes one `#`-free component of type `field`.
#[inline]
pub fn decode_component(field: Field, input: &[u8]) -> Result<Component<'_>, DecodeError> {
    let ty = field.ty;
    // Fast path: a full-width ascending i64/ts (anything unusual falls
    // through to the general decoder, which says what is wrong).
    if matches!(ty, Type::I64 | Type::Ts) && field.width.is_none() && !field.dir.is_desc() {
        if let Some(v) = read_i64(input) {
            return Ok(Component {
                value: if ty == Type::Ts {
                    Value::Ts(v)
                } else {
                    Value::I64(v)
                },
                dir: field.dir,
                width: field.width,
                nulls: None,
                list: 0,
            });
        }
    }
    if matches!(ty, Type::Str | Type::Bytes) {
        return text::decode_tagged::<Hex>(field, input);
    }
    if ty == Type::Dec {
        return Ok(Component {
            value: Value::Dec(crate::value::big_decimal::Dec::read_elen(
                input,
                field.dir.is_desc(),
            )?),
            dir: field.dir,
            width: None,
            nulls: None,
            list: 0,
        });
    }
    if matches!(ty, Type::Vi64 | Type::Vu64) {
        return Ok(Component {
            value: crate::format::compact::read_decimal(ty, input, field.dir.is_desc())?,
            dir: field.dir,
            width: None,
            nulls: None,
            list: 0,
        });
    }
    if matches!(ty, Type::F64 | Type::F32) {
        return Err(DecodeError::UnexpectedTag {
            offset: 0,
            found: input.first().copied().unwrap_or(0),
            expected: "no float: the decimal format does not hold floats",
        });
    }
    let w = width_of(ty, field.width).map_err(|_| DecodeError::NonCanonical {
        offset: 0,
        reason: "the schema's decimal width is not valid for this type",
    })?;
    let w = usize::from(w);
    if input.len() < w {
        return Err(DecodeError::Truncated {
            offset: input.len(),
            expected: "more decimal digits",
        });
    }
    if input.len() > w {
        return Err(DecodeError::TrailingBytes { offset: w });
    }
    let mut buf = [0u8; 40];
    let buf = &mut buf[..w];
    buf.copy_from_slice(input);
    let signed = ty.is_signed_int();
    if field.dir.is_desc() {
        complement(buf, signed);
    }
    let (neg, digits) = if signed {
        match buf[0] {
            b'0' => (false, &buf[1..]),
            b'-' => (true, &buf[1..]),
            _ => {
                return Err(DecodeError::InvalidSymbol {
                    offset: 0,
                    found: input[0],
                    expected: if field.dir.is_desc() {
                        "a sign slot ('-' for >= 0, '0' for < 0 in descending keys)"
                    } else {
                        "a sign slot ('0' for >= 0, '-' for < 0)"
                    },
                })
            }
        }
    } else {
        (false, &buf[..])
    };
    let first = w - digits.len();
    let mut v: u128 = 0;
    for (i, &d) in digits.iter().enumerate() {
        if !d.is_ascii_digit() {
            return Err(DecodeError::InvalidSymbol {
                offset: first + i,
                found: input[first + i],
                expected: "a decimal digit",
            });
        }
        v = match v
            .checked_mul(10)
            .and_then(|x| x.checked_add(u128::from(d - b'0')))
        {
            Some(x) => x,
            None => return Err(DecodeError::OutOfRange { offset: 0, ty }),
        };
    }
    let out_of_range = DecodeError::OutOfRange { offset: 0, ty };
    let mag = if neg {
        let m = max_for(digits.len() as u8) - v;
        if m == 0 {
            return Err(DecodeError::NonCanonical {
                offset: 0,
                reason: "negative zero",
            });
        }
        m
    } else {
        v
    };
    let value = match ty {
        Type::Bool => match mag {
            0 => Value::Bool(false),
            1 => Value::Bool(true),
            _ => return Err(out_of_range),
        },
        Type::Uuid => Value::Uuid(mag),
        // Read by `compact::read_decimal` before this point.
        Type::Vi64 | Type::Vu64 => return Err(out_of_range),
        Type::U64 => Value::U64(u64::try_from(mag).map_err(|_| out_of_range)?),
        Type::U32 => Value::U32(u32::try_from(mag).map_err(|_| out_of_range)?),
        Type::I64 | Type::Ts => {
            let v = signed_from(neg, mag, i128::from(i64::MIN), i128::from(i64::MAX))
                .ok_or(out_of_range)? as i64;
            if ty == Type::Ts {
                Value::Ts(v)
            } else {
                Value::I64(v)
            }
        }
        Type::I32 => Value::I32(
            signed_from(neg, mag, i128::from(i32::MIN), i128::from(i32::MAX)).ok_or(out_of_range)?
                as i32,
        ),
        Type::F64 | Type::F32 | Type::Dec | Type::Str | Type::Bytes => return Err(out_of_range),
    };
    Ok(Component {
        value,
        dir: field.dir,
        width: field.width,
        nulls: None,
        list: 0,
    })
}

fn signed_from(neg: bool, mag: u128, min: i128, max: i128) -> Option<i128> {
    let m = i128::try_from(mag).ok()?;
    let v = if neg { -m } else { m };
    (min..=max).contains(&v).then_some(v)
}

const ONES: u64 = 0x0101_0101_0101_0101;

/// The 8 ASCII digits of `n < 10^8`, most significant first, computed a
/// word at a time: split into 4+4, 2+2, 1+1 digits by multiply-and-shift
/// division in lanes of 32, 16 and 8 bits.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
const fn digits8(n: u32) -> [u8; 8] {
    let x = n as u64;
    // Lanes of 32 bits: the first 4 digits in the low lane (first in memory).
    let x = (x / 10_000) | (x % 10_000) << 32;
    // x / 100 in each 32-bit lane (exact for lanes < 10_000).
    let hi = ((x * 10_486) >> 20) & 0x0000_007F_0000_007F;
    let x = hi | (x - hi * 100) << 16;
    // x / 10 in each 16-bit lane (exact for lanes < 100).
    let hi = ((x * 103) >> 10) & 0x000F_000F_000F_000F;
    let x = hi | (x - hi * 10) << 8;
    (x + 0x30 * ONES).to_le_bytes()
}

/// The 4 ASCII digits of `n < 10^4`: [`digits8`]'s last two steps, on
/// one lane.
#[inline(always)]
const fn digits4(n: u32) -> [u8; 4] {
    let x = n as u64;
    let hi = (x * 10_486) >> 20; // n / 100
    let x = hi | (x - hi * 100) << 16;
    let hi = ((x * 103) >> 10) & 0x000F_000F;
    let x = hi | (x - hi * 10) << 8;
    ((x + 0x3030_3030) as u32).to_le_bytes()
}

/// The 16 ASCII digits of `a` and then `b` (each `< 10^8`, zero-padded
/// to 8): SSE2 on x86_64, [`digits8`] twice elsewhere.
#[inline(always)]
fn digits16(a: u32, b: u32) -> [u8; 16] {
    // SAFETY: `digits16_sse2` needs only SSE2, which the `cfg` proves every
    // function of this build has (as at `digits::unhex16`); it takes and
    // returns plain values.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[allow(unsafe_code)]
    return unsafe { digits16_sse2(a, b) };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return digits16_swar(a, b);
}

/// [`digits16`] by [`digits8`] twice.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn digits16_swar(a: u32, b: u32) -> [u8; 16] {
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&digits8(a));
    out[8..].copy_from_slice(&digits8(b));
    out
}

/// [`digits16`] with SSE2: the four 4-digit groups (`a` and `b` split by
/// a 32 × 32 → 64-bit multiply by a reciprocal) one per 32-bit lane, each
/// split into two 2-digit halves (`x / 100` as `mulhi(x, 5243) >> 3`,
/// exact below 10^4) in its two 16-bit lanes, each of those into tens and
/// ones (`mulhi(x, 6554)`, exact below 100) in its two bytes, plus `'0'`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
fn digits16_sse2(a: u32, b: u32) -> [u8; 16] {
    use core::arch::x86_64::{
        _mm_add_epi16, _mm_add_epi8, _mm_mul_epu32, _mm_mulhi_epu16, _mm_mullo_epi16, _mm_or_si128,
        _mm_set1_epi16, _mm_set1_epi64x, _mm_set1_epi8, _mm_set_epi64x, _mm_slli_epi16,
        _mm_slli_epi32, _mm_slli_epi64, _mm_srli_epi16, _mm_srli_epi64, _mm_sub_epi16,
        _mm_sub_epi64,
    };
    // `as i64`/`as i16`: bit patterns (every value here is below 2^27).
    // a and b in the two 64-bit lanes, split into [x / 10^4, x % 10^4] in
    // 32-bit lanes: x / 10^4 = (x * 3518437209) >> 45, exact below 2^32.
    let ab = _mm_set_epi64x(i64::from(b), i64::from(a));
    let q = _mm_srli_epi64::<45>(_mm_mul_epu32(ab, _mm_set1_epi64x(3_518_437_209)));
    let r = _mm_sub_epi64(ab, _mm_mul_epu32(q, _mm_set1_epi64x(10_000)));
    let x = _mm_or_si128(q, _mm_slli_epi64::<32>(r));
    // 32-bit lanes x < 10^4 (high halves zero) -> [x / 100, x % 100].
    let hi = _mm_srli_epi16::<3>(_mm_mulhi_epu16(x, _mm_set1_epi16(5243)));
    let lo = _mm_sub_epi16(x, _mm_mullo_epi16(hi, _mm_set1_epi16(100)));
    let y = _mm_or_si128(hi, _mm_slli_epi32::<16>(lo));
    // 16-bit lanes y < 100 -> bytes [y / 10, y % 10].
    let tens = _mm_mulhi_epu16(y, _mm_set1_epi16(6554));
    let ones = _mm_sub_epi16(y, _mm_mullo_epi16(tens, _mm_set1_epi16(10)));
    let d = _mm_add_epi8(
        _mm_add_epi16(tens, _mm_slli_epi16::<8>(ones)),
        _mm_set1_epi8(b'0' as i8),
    );
    crate::format::hex_digits::sse2_bytes(d)
}

/// The 20 zero-padded ASCII digits of `v`.
#[inline]
fn digits20(v: u64) -> [u8; 20] {
    let (top, mid, low) = split20(v); // top < 1845
    let mut out = [0u8; 20];
    out[..4].copy_from_slice(&digits4(top as u32));
    out[4..].copy_from_slice(&digits16(mid, low));
    out
}

/// `v` as `top · 10^16 + mid · 10^8 + low` (`mid`, `low` < 10^8): both
/// quotients straight from `v` (two independent multiplications by a
/// reciprocal, not a chain of divisions), the remainders from them.
#[inline(always)]
fn split20(v: u64) -> (u64, u32, u32) {
    let top = v / 10_000_000_000_000_000;
    let high = v / 100_000_000;
    let mid = high - top * 100_000_000;
    let low = v - high * 100_000_000;
    (top, mid as u32, low as u32)
}

/// The value of 8 ASCII digits (first digit in the low byte of `c`), or
/// `None` when a byte is not a digit.
#[inline(always)]
fn parse8(c: u64) -> Option<u32> {
    // Every byte in 0x30..=0x3F, and still below 0x40 after adding 6.
    if c & (0xF0 * ONES) != 0x30 * ONES || (c + 6 * ONES) & (0xF0 * ONES) != 0x30 * ONES {
        return None;
    }
    let x = c - 0x30 * ONES;
    let x = (x * 10 + (x >> 8)) & 0x00FF_00FF_00FF_00FF;
    let x = (x * 100 + (x >> 16)) & 0x0000_FFFF_0000_FFFF;
    Some((x.wrapping_mul(10_000).wrapping_add(x >> 32)) as u32)
}

/// The nine's complement bound of 19 digits.
const NINES19: u64 = 9_999_999_999_999_999_999;

/// Zero-padded full-width decimal of an `i64` (20 bytes). No allocation.
///
/// ```
/// assert_eq!(&lexikey::format::decimal::encode_i64(389625), b"00000000000000389625");
/// assert_eq!(&lexikey::format::decimal::encode_i64(-1), b"-9999999999999999998");
/// ```
#[inline]
pub fn encode_i64(v: i64) -> [u8; 20] {
    let mag = v.unsigned_abs();
    let (sign, x) = if v < 0 {
        (b'-', NINES19 - mag)
    } else {
        (b'0', mag)
    };
    // x < 10^19, so the top quotient is below 1000: its three digits come
    // from a table (one load instead of a chain of multiply-and-shift
    // steps), after the sign, which takes the place of the leading 0.
    let (top, mid, low) = split20(x);
    let head = TOP3[(top as usize).min(999)] | u32::from(sign);
    let rest = digits16(mid, low);
    let mut out = [0u8; 20];
    out[..4].copy_from_slice(&head.to_le_bytes());
    out[4..].copy_from_slice(&rest);
    out
}

/// The three ASCII digits of every number below 1000 in bytes 1–3 of a
/// little-endian word (byte 0 left zero for the sign).
const TOP3: [u32; 1000] = {
    let mut t = [0u32; 1000];
    let mut i = 0;
    while i < 1000 {
        let (a, b, c) = (i / 100, i / 10 % 10, i % 10);
        t[i] = (b'0' as u32 + a as u32) << 8
            | (b'0' as u32 + b as u32) << 16
            | (b'0' as u32 + c as u32) << 24;
        i += 1;
    }
    t
};

/// Decodes a full-width ascending decimal `i64`. No allocation.
#[inline]
pub fn decode_i64(key: &[u8]) -> Result<i64, DecodeError> {
    if let Some(v) = read_i64(key) {
        return Ok(v);
    }
    decode_i64_slow(key)
}

/// The fast path of [`decode_i64`]; `None` when anything is off.
#[inline]
fn read_i64(key: &[u8]) -> Option<i64> {
    let key: &[u8; 20] = key.try_into().ok()?;
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&key[i..i + 8]);
        u64::from_le_bytes(w)
    };
    let (d1, d2, d3) = (key[1], key[2], key[3]);
    if !(d1.is_ascii_digit() && d2.is_ascii_digit() && d3.is_ascii_digit()) {
        return None;
    }
    let top = u64::from(d1 - b'0') * 100 + u64::from(d2 - b'0') * 10 + u64::from(d3 - b'0');
    let x = top * 10_000_000_000_000_000
        + u64::from(parse8(word(4))?) * 100_000_000
        + u64::from(parse8(word(12))?);
    // Both signs computed and one selected, without a branch on the sign
    // (random signs would mispredict). Negative: mag = NINES19 - x, where
    // 0 (negative zero) and > 2^63 are errors.
    let neg = key[0] == b'-';
    let mag = NINES19.wrapping_sub(x);
    let ok = if neg {
        x < NINES19 && mag <= 1 << 63
    } else {
        key[0] == b'0' && x <= i64::MAX as u64
    };
    let v = if neg { mag.wrapping_neg() } else { x };
    ok.then_some(v as i64)
}

/// The error path of [`decode_i64`]: the general decoder's verdict.
#[cold]
fn decode_i64_slow(key: &[u8]) -> Result<i64, DecodeError> {
    match decode_component(Field::asc(Type::I64), key)?.value {
        Value::I64(v) => Ok(v),
        _ => Err(DecodeError::OutOfRange {
            offset: 0,
            ty: Type::I64,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits4_matches_format() {
        for n in 0..10_000 {
            assert_eq!(digits4(n), *format!("{n:04}").as_bytes(), "{n}");
        }
    }

    #[test]
    fn digits8_matches_format() {
        let mut n = 0u32;
        while n < 100_000_000 {
            assert_eq!(digits8(n), *format!("{n:08}").as_bytes(), "{n}");
            n += 9_973;
        }
        for n in [0, 9, 10, 99, 100, 9_999, 10_000, 99_999_999] {
            assert_eq!(digits8(n), *format!("{n:08}").as_bytes(), "{n}");
            let w = u64::from_le_bytes(digits8(n));
            assert_eq!(parse8(w), Some(n));
        }
    }

    #[test]
    fn digits16_paths_match_format() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let edges = [0, 1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 99_999_999];
        for i in 0..200_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (a, b) = if i < 121 {
                (edges[(i / 11) as usize], edges[(i % 11) as usize])
            } else {
                ((x % 100_000_000) as u32, ((x >> 32) % 100_000_000) as u32)
            };
            let want = format!("{a:08}{b:08}");
            assert_eq!(digits16(a, b), *want.as_bytes(), "{a} {b}");
            assert_eq!(digits16_swar(a, b), *want.as_bytes(), "{a} {b}");
        }
        // Every 4-digit group value in every group position.
        for g in 0..10_000u32 {
            for (a, b) in [(g, 0), (g * 10_000, 0), (0, g), (0, g * 10_000)] {
                assert_eq!(digits16(a, b), *format!("{a:08}{b:08}").as_bytes());
            }
        }
    }

    #[test]
    fn encode_i64_matches_its_definition_at_every_top_quotient() {
        // Every value of the top quotient (the table), both signs, and the
        // extremes: "0" + 19 digits, or "-" + the nine's complement.
        let reference = |v: i64| {
            if v < 0 {
                format!("-{:019}", NINES19 - v.unsigned_abs())
            } else {
                format!("{v:020}")
            }
        };
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for top in 0..1000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for m in [top * 10u64.pow(16), top * 10u64.pow(16) + x % 10u64.pow(16)] {
                let Ok(v) = i64::try_from(m) else { continue };
                for v in [v, -v, v.saturating_add(1), -v - 1] {
                    assert_eq!(encode_i64(v), *reference(v).as_bytes(), "{v}");
                }
            }
        }
        for v in [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX] {
            assert_eq!(encode_i64(v), *reference(v).as_bytes(), "{v}");
        }
    }

    #[test]
    fn digits20_matches_format() {
        for v in [
            0,
            1,
            42,
            u64::MAX,
            NINES19,
            10u64.pow(16),
            10u64.pow(16) - 1,
            123_456_789_012_345_678,
        ] {
            assert_eq!(digits20(v), *format!("{v:020}").as_bytes(), "{v}");
        }
    }

    #[test]
    fn parse8_rejects_non_digits() {
        for bad in [
            *b"1234567/",
            *b"1234567:",
            *b"a2345678",
            *b"1234 678",
            *b"\xB12345678",
        ] {
            assert_eq!(parse8(u64::from_le_bytes(bad)), None);
        }
    }
}
