//! Values and `Struct` rows to `OrderedBytes` keys.

use super::decimal::{Decimal, Numeric, MAX_DECIMAL_EXPONENT};
use super::varint::encode_varuint64;
use super::{
    f32_bits, f64_bits, Codec, Field, Kind, NumericEncoding, Value, BLOB_COPY, BLOB_VAR,
    FIXED_FLOAT32, FIXED_FLOAT64, FIXED_INT16, FIXED_INT32, FIXED_INT64, FIXED_INT8, MAX_EXPONENT,
    MAX_LARGE_EXPONENT, MAX_SMALL_EXPONENT, NAN, NEG_INF, NEG_LARGE, NEG_MED_MAX, NEG_SMALL, NULL,
    POS_INF, POS_LARGE, POS_MED_MIN, POS_SMALL, TEXT, ZERO,
};
use crate::interop::ValueError;

/// Appends one value in the encoding of `field` (HBase's
/// `OrderedBytes.encode*` for that type and order).
///
/// ```
/// use lexikey::interop::hbase::{encode_value, Field, Kind, Value};
/// let mut key = Vec::new();
/// encode_value(Field::asc(Kind::Int64), &Value::Int64(5), &mut key)?;
/// assert_eq!(key, [0x2C, 0x80, 0, 0, 0, 0, 0, 0, 0x05]);
/// key.clear();
/// encode_value(Field::desc(Kind::Text), &Value::from("a"), &mut key)?;
/// assert_eq!(key, [!0x34, !b'a', 0xFF]);
/// # Ok::<(), lexikey::interop::ValueError>(())
/// ```
///
/// # Errors
/// [`ValueError::TypeMismatch`] when the value's variant is not the
/// field's; [`ValueError::Unencodable`] for null in a fixed-width field,
/// U+0000 in text, `00` in a descending blob-copy, and a number whose
/// rounding to 31 digits carries past [`MAX_DECIMAL_EXPONENT`].
pub fn encode_value(field: Field, value: &Value, out: &mut Vec<u8>) -> Result<(), ValueError> {
    Codec::CURRENT.encode_value(field, value, out)
}

pub(super) fn encode_at(
    numeric: NumericEncoding,
    index: usize,
    field: Field,
    value: &Value,
    out: &mut Vec<u8>,
) -> Result<(), ValueError> {
    let start = out.len();
    let mismatch = || ValueError::TypeMismatch {
        field: index,
        expected: field.kind.name(),
    };
    let bad = |reason| ValueError::Unencodable {
        field: index,
        reason,
    };
    match (field.kind, value) {
        (k, Value::Null) => {
            if !k.is_nullable() {
                return Err(bad("null in a fixed-width field (Java takes a primitive)"));
            }
            out.push(NULL);
            if k == Kind::BlobCopy && field.order.is_desc() {
                out.push(0);
            }
        }
        (Kind::Int8, Value::Int8(v)) => out.extend_from_slice(&[FIXED_INT8, (*v as u8) ^ 0x80]),
        (Kind::Int16, Value::Int16(v)) => {
            out.push(FIXED_INT16);
            out.extend_from_slice(&((*v as u16) ^ 0x8000).to_be_bytes());
        }
        (Kind::Int32, Value::Int32(v)) => {
            out.push(FIXED_INT32);
            out.extend_from_slice(&((*v as u32) ^ 0x8000_0000).to_be_bytes());
        }
        (Kind::Int64, Value::Int64(v)) => {
            out.push(FIXED_INT64);
            out.extend_from_slice(&((*v as u64) ^ 1 << 63).to_be_bytes());
        }
        (Kind::Float32, Value::Float32(v)) => {
            out.push(FIXED_FLOAT32);
            out.extend_from_slice(&f32_bits(*v).to_be_bytes());
        }
        (Kind::Float64, Value::Float64(v)) => {
            out.push(FIXED_FLOAT64);
            out.extend_from_slice(&f64_bits(*v).to_be_bytes());
        }
        (Kind::Numeric, Value::Numeric(n)) => encode_numeric(n, numeric, out).map_err(bad)?,
        (Kind::Text, Value::Text(s)) => {
            if s.as_bytes().contains(&0) {
                return Err(bad("text may not contain U+0000 (it is the terminator)"));
            }
            out.push(TEXT);
            out.extend_from_slice(s.as_bytes());
            out.push(0);
        }
        (Kind::BlobVar, Value::Bytes(b)) => encode_blob_var(b, out),
        (Kind::BlobCopy, Value::Bytes(b)) => {
            if field.order.is_desc() && b.contains(&0) {
                return Err(bad("a descending blob-copy may not contain 0x00"));
            }
            out.push(BLOB_COPY);
            out.extend_from_slice(b);
            if field.order.is_desc() {
                out.push(0);
            }
        }
        _ => return Err(mismatch()),
    }
    if field.order.is_desc() {
        for b in &mut out[start..] {
            *b = !*b;
        }
    }
    Ok(())
}

fn encode_blob_var(b: &[u8], out: &mut Vec<u8>) {
    out.push(BLOB_VAR);
    if b.is_empty() {
        out.push(0);
        return;
    }
    // Emit the bits 7 at a time, MSB first, each group with a "more" bit.
    let total_bits = b.len() * 8;
    let groups = total_bits.div_ceil(7);
    for g in 0..groups {
        let mut payload = 0u8;
        for j in 0..7 {
            let bit = g * 7 + j;
            let set = bit < total_bits && b[bit / 8] & (0x80 >> (bit % 8)) != 0;
            payload = payload << 1 | u8::from(set);
        }
        let more = if g + 1 < groups { 0x80 } else { 0 };
        out.push(more | payload);
    }
}

fn encode_numeric(
    n: &Numeric,
    numeric: NumericEncoding,
    out: &mut Vec<u8>,
) -> Result<(), &'static str> {
    let d = match n {
        Numeric::NegInfinity => {
            out.push(NEG_INF);
            return Ok(());
        }
        Numeric::Infinity => {
            out.push(POS_INF);
            return Ok(());
        }
        Numeric::NaN => {
            out.push(NAN);
            return Ok(());
        }
        Numeric::Finite(d) => d.normalized(),
    };
    if d.is_zero() {
        out.push(ZERO);
        return Ok(());
    }
    // Rounding can carry past the largest exponent (see `Decimal::rounded`).
    if d.exponent.abs() > MAX_DECIMAL_EXPONENT {
        return Err("the exponent is beyond java.math.BigDecimal's range");
    }
    // value = 0.D × 10^x; E = ceil(x / 2); the mantissa gets a leading zero
    // digit when x is odd.
    let x = d.exponent;
    let e = (x + 1).div_euclid(2);
    let neg = d.negative;
    let m_mask = if neg { 0xFF } else { 0 };
    if numeric == NumericEncoding::Legacy && e > MAX_LARGE_EXPONENT as i64 {
        encode_legacy_large(&d, out);
        return Ok(());
    }
    if e >= 1 {
        if e as u64 > MAX_EXPONENT {
            return Err("the exponent is beyond java.math.BigDecimal's range");
        }
        if e <= 10 {
            out.push(if neg {
                NEG_MED_MAX - e as u8
            } else {
                POS_MED_MIN + e as u8
            });
        } else {
            out.push(if neg { NEG_LARGE } else { POS_LARGE });
            let at = out.len();
            encode_varuint64(e as u64, out);
            if neg {
                out[at..].iter_mut().for_each(|b| *b = !*b);
            }
        }
    } else {
        let small = e.unsigned_abs();
        if small > MAX_SMALL_EXPONENT {
            return Err("the exponent is beyond java.math.BigDecimal's range");
        }
        out.push(if neg { NEG_SMALL } else { POS_SMALL });
        let at = out.len();
        encode_varuint64(small, out);
        if !neg {
            out[at..].iter_mut().for_each(|b| *b = !*b);
        }
    }
    // The centimal digits: pairs of decimal digits (a leading 0 when x is
    // odd, a trailing 0 when the count is odd), 2X+1 each, the last 2X.
    let lead = usize::from(x.rem_euclid(2) == 1);
    let n_digits = (lead + d.digits.len()).div_ceil(2);
    let digit = |i: usize| i.checked_sub(lead).and_then(|j| d.digits.get(j).copied());
    for p in 0..n_digits {
        let c = digit(2 * p).unwrap_or(0) * 10 + digit(2 * p + 1).unwrap_or(0);
        let b = if p + 1 < n_digits { 2 * c + 1 } else { 2 * c };
        out.push(b ^ m_mask);
    }
    Ok(())
}

/// The old (pre-HBASE-26566) `encodeNumericLarge`'s exponent loops on
/// `|v| = 0.D × 10^x` (`x >= 1`): they divide by 10^32, 10^8 and 100 while
/// the value is at least 10^32, 10^8 and 1 *and* `E <= 350`. Returns `E`
/// and `y`, the value left being `0.D × 10^y` (`y <= 0` below 100^351,
/// where `E = ceil(x / 2)`; `y >= 1` from 100^351 up).
fn legacy_exponent(x: i64) -> (i64, i64) {
    // 0.D × 10^(x − 2E) >= 10^k exactly when x − 2E > k.
    let mut e = 0;
    for (k, step) in [(32, 16), (8, 4), (0, 1)] {
        while x - 2 * e > k && e <= 350 {
            e += step;
        }
    }
    (e, x - 2 * e)
}

/// Appends a number of 100^351 or more (normalized, `d.exponent() > 702`)
/// as HBase's encoder wrote it before HBASE-26566. After the exponent
/// loops ([`legacy_exponent`]) the value left is `0.D × 10^y` with `y >= 1`;
/// the mantissa loop multiplies it by 100 and writes `(byte) (2d + 1)` for
/// `d = BigDecimal.intValue()`, the low 32 bits of the integer part `I`:
/// only `I mod 128` reaches the byte. When `I` fits an `int` the rest is
/// the ordinary fraction digits; otherwise `I − d` (a non-zero multiple of
/// 2^32) never leaves, so the loop runs its full 18 bytes, the fraction
/// digits then zeros. The last byte's low bit is cleared.
fn encode_legacy_large(d: &Decimal, out: &mut Vec<u8>) {
    let (e, y) = legacy_exponent(d.exponent);
    let neg = d.negative;
    out.push(if neg { NEG_LARGE } else { POS_LARGE });
    let at = out.len();
    encode_varuint64(e as u64, out);
    if neg {
        out[at..].iter_mut().for_each(|b| *b = !*b);
    }
    // B = 100 × 0.D × 10^y has z integer digits: D's first z digits, then
    // zeros. 10^7 is a multiple of 128, so seven zeros decide I mod 128.
    let z = usize::try_from(y + 2).unwrap_or(usize::MAX);
    let int_digits = &d.digits[..z.min(d.digits.len())];
    let zeros = (z - int_digits.len()).min(7);
    let digits = int_digits
        .iter()
        .copied()
        .chain(std::iter::repeat_n(0, zeros));
    let low7 = digits.fold(0u8, |r, c| ((u16::from(r) * 10 + u16::from(c)) % 128) as u8);
    // I >= 2^31 (not an int): certain with more than 10 digits.
    let fits_int = z <= 10 && {
        let i = int_digits.iter().fold(0u64, |v, &c| v * 10 + u64::from(c));
        i * 10u64.pow((z - int_digits.len()) as u32) < 1 << 31
    };
    let frac = d.digits.get(z..).unwrap_or(&[]);
    let start = out.len();
    out.push(2 * low7 + 1);
    let mut i = 0;
    while out.len() - start < 18 && (!fits_int || i < frac.len()) {
        let c = frac.get(i).copied().unwrap_or(0) * 10 + frac.get(i + 1).copied().unwrap_or(0);
        out.push(2 * c + 1);
        i += 2;
    }
    if let Some(last) = out.last_mut() {
        *last &= 0xFE;
    }
    if neg {
        out[start..].iter_mut().for_each(|b| *b = !*b);
    }
}

/// Appends the fields of a struct (HBase `Struct.encode`): each value in
/// its field's encoding, trailing nulls omitted. `values` may be shorter
/// than `schema` (the rest are null).
///
/// # Errors
/// [`ValueError::Schema`] when there are more values than fields or a
/// blob-copy field is not the last; otherwise as [`encode_value`], with the
/// index of the field.
pub fn encode_struct(
    schema: &[Field],
    values: &[Value],
    out: &mut Vec<u8>,
) -> Result<(), ValueError> {
    Codec::CURRENT.encode_struct(schema, values, out)
}

pub(super) fn check_schema(schema: &[Field]) -> Result<(), ValueError> {
    let n = schema.len();
    if schema
        .iter()
        .take(n.saturating_sub(1))
        .any(|f| f.kind == Kind::BlobCopy)
    {
        return Err(ValueError::Schema {
            reason: "blob-copy runs to the end of the key: only the last field may use it",
        });
    }
    Ok(())
}
