//! Values and rows to Phoenix row keys (`PTableImpl.newKey`), salted or not.

use super::decimal::{check_char, encode_decimal};
use super::{double_key, float_key, salt_byte, Column, Table, Type, Value, DESC_SEPARATOR};
use crate::interop::ValueError;
use crate::order::NanRule;

/// Appends the bytes of one non-null value in `column`'s type and order (no
/// separator): what `PDataType.toBytes(value, sortOrder)` returns.
///
/// ```
/// use lexikey::interop::phoenix::{encode_value, Column, Type, Value};
/// let mut out = Vec::new();
/// encode_value(Column::asc(Type::Integer), &Value::Int(-1), &mut out)?;
/// assert_eq!(out, [0x7F, 0xFF, 0xFF, 0xFF]);
/// out.clear();
/// encode_value(Column::desc(Type::Varchar), &Value::from("a"), &mut out)?;
/// assert_eq!(out, [!b'a']);
/// # Ok::<(), lexikey::interop::ValueError>(())
/// ```
///
/// # Errors
/// [`ValueError::TypeMismatch`] for a value of another type,
/// [`ValueError::Unencodable`] for null or empty values, integers out of
/// the type's range, negative values (or −0.0) in `UNSIGNED_*` columns,
/// nanoseconds over 999999, U+0000 in a `VARCHAR`, a `DECIMAL` of more
/// than 38 significant digits or out of `10^-126 <= |v| < 10^124`, a
/// `CHAR(n)` value with a non-ASCII character or longer than `n` bytes
/// (trailing spaces included), a `BINARY(n)` value longer than `n`
/// bytes.
pub fn encode_value(column: Column, value: &Value, out: &mut Vec<u8>) -> Result<(), ValueError> {
    encode_at(0, column, value, out)
}

fn encode_at(
    index: usize,
    column: Column,
    value: &Value,
    out: &mut Vec<u8>,
) -> Result<(), ValueError> {
    let start = out.len();
    let bad = |reason| ValueError::Unencodable {
        field: index,
        reason,
    };
    let mismatch = || ValueError::TypeMismatch {
        field: index,
        expected: column.ty.name(),
    };
    if value.is_null() {
        return Err(bad("a null or empty value has no bytes of its own"));
    }
    let ty = column.ty;
    match (ty, value) {
        (_, Value::Int(v)) if ty.int_range().is_some() => {
            let (lo, hi) = ty.int_range().unwrap_or_default();
            if *v < lo || *v > hi {
                return Err(bad(ty.out_of_range()));
            }
            let width = ty.fixed_width().unwrap_or(8);
            let mut be = (*v as u64).to_be_bytes();
            if !ty.is_unsigned() {
                be[8 - width] ^= 0x80;
            }
            out.extend_from_slice(&be[8 - width..]);
        }
        (Type::Float, Value::Float(f)) => out.extend_from_slice(&float_key(*f).to_be_bytes()),
        (Type::Double, Value::Double(f)) => out.extend_from_slice(&double_key(*f).to_be_bytes()),
        (Type::UnsignedFloat, Value::Float(f)) => {
            if f.is_sign_negative() && !f.is_nan() {
                return Err(bad("UNSIGNED_FLOAT takes values >= +0.0"));
            }
            out.extend_from_slice(&NanRule::Canonical.f32_bits(*f).to_be_bytes());
        }
        (Type::UnsignedDouble, Value::Double(f)) => {
            if f.is_sign_negative() && !f.is_nan() {
                return Err(bad("UNSIGNED_DOUBLE takes values >= +0.0"));
            }
            out.extend_from_slice(&NanRule::Canonical.f64_bits(*f).to_be_bytes());
        }
        (Type::Boolean, Value::Bool(b)) => {
            // PBoolean writes DESC as the other value, not inverted bytes.
            let byte = u8::from(*b ^ column.order.is_desc());
            out.push(byte);
            return Ok(());
        }
        (Type::Date | Type::Time, Value::Date(ms)) => {
            out.extend_from_slice(&((*ms as u64) ^ 1 << 63).to_be_bytes())
        }
        (Type::UnsignedDate | Type::UnsignedTime, Value::Date(ms)) => {
            if *ms < 0 {
                return Err(bad("UNSIGNED date/time takes milliseconds >= 0"));
            }
            out.extend_from_slice(&ms.to_be_bytes());
        }
        (Type::Timestamp | Type::UnsignedTimestamp, Value::Timestamp(ms, nanos)) => {
            if *nanos >= 1_000_000 {
                return Err(bad(
                    "nanoseconds within the millisecond must be below 1000000",
                ));
            }
            if ty == Type::UnsignedTimestamp {
                if *ms < 0 {
                    return Err(bad("UNSIGNED_TIMESTAMP takes milliseconds >= 0"));
                }
                out.extend_from_slice(&ms.to_be_bytes());
            } else {
                out.extend_from_slice(&((*ms as u64) ^ 1 << 63).to_be_bytes());
            }
            out.extend_from_slice(&nanos.to_be_bytes());
        }
        (Type::Varchar, Value::Varchar(s)) => {
            if s.as_bytes().contains(&0) {
                return Err(bad(
                    "VARCHAR in a row key may not contain U+0000 (the separator)",
                ));
            }
            out.extend_from_slice(s.as_bytes());
        }
        (Type::Varbinary, Value::Varbinary(b)) => out.extend_from_slice(b),
        (Type::Decimal, Value::Decimal(d)) => encode_decimal(d, out).map_err(bad)?,
        (Type::Char(n), Value::Char(s)) => {
            check_char(s, n).map_err(bad)?;
            out.extend_from_slice(s.as_bytes());
            out.resize(start + usize::from(n), b' ');
        }
        (Type::Binary(n), Value::Binary(b)) => {
            if b.len() > usize::from(n) {
                return Err(bad("longer than the BINARY(n) column's n bytes"));
            }
            out.extend_from_slice(b);
            out.resize(start + usize::from(n), 0);
        }
        _ => return Err(mismatch()),
    }
    if column.order.is_desc() {
        for b in &mut out[start..] {
            *b = !*b;
        }
    }
    Ok(())
}

/// Appends the row key of `values` in `table` (`PTableImpl.newKey`, see
/// the module docs), salt byte included. `values` may be shorter than the
/// columns (the rest are null).
///
/// ```
/// use lexikey::interop::phoenix::{encode_row_key, Table, Value};
/// let t = Table::parse("varchar.desc,varchar")?;
/// let mut key = Vec::new();
/// encode_row_key(&t, &[Value::from("ab")], &mut key).unwrap();
/// assert_eq!(key, [!b'a', !b'b', 0xFF]); // a trailing DESC value keeps its FF
/// key.clear();
/// encode_row_key(&t.clone().salted(4), &[Value::from("ab")], &mut key).unwrap();
/// assert_eq!(key[1..], [!b'a', !b'b', 0xFF]);
/// # Ok::<(), lexikey::ParseError>(())
/// ```
///
/// # Errors
/// [`ValueError::Schema`] for a table Phoenix would refuse (no columns,
/// `VARBINARY` not last, `SALT_BUCKETS` out of 1–256), more values than
/// columns, or no non-null value; [`ValueError::Unencodable`] for a null
/// fixed-width column; otherwise as [`encode_value`].
pub fn encode_row_key(
    table: &Table,
    values: &[Value],
    out: &mut Vec<u8>,
) -> Result<(), ValueError> {
    table
        .check()
        .map_err(|reason| ValueError::Schema { reason })?;
    if values.len() > table.columns.len() {
        return Err(ValueError::Schema {
            reason: "more values than primary-key columns",
        });
    }
    let n = values
        .iter()
        .rposition(|v| !v.is_null())
        .map_or(0, |i| i + 1);
    if n == 0 {
        return Err(ValueError::Schema {
            reason: "the primary key may not be entirely null",
        });
    }
    for (i, c) in table.columns.iter().enumerate().skip(n) {
        if c.ty.fixed_width().is_some() {
            return Err(ValueError::Unencodable {
                field: i,
                reason: "a fixed-width primary-key column may not be null",
            });
        }
    }
    let start = out.len();
    if table.salt_buckets.is_some() {
        out.push(0);
    }
    let mut prev: Option<(Column, bool)> = None;
    for (i, (c, v)) in table.columns.iter().zip(&values[..n]).enumerate() {
        if let Some((p, was_null)) = prev {
            if p.ty.fixed_width().is_none() {
                out.push(table.separator(was_null, p.order));
            }
        }
        let null = v.is_null();
        if null {
            if c.ty.fixed_width().is_some() {
                return Err(ValueError::Unencodable {
                    field: i,
                    reason: "a fixed-width primary-key column may not be null",
                });
            }
        } else {
            encode_at(i, *c, v, out)?;
        }
        prev = Some((*c, null));
    }
    if let Some((p, was_null)) = prev {
        if p.ty.fixed_width().is_none() && table.separator(was_null, p.order) == DESC_SEPARATOR {
            out.push(DESC_SEPARATOR);
        }
    }
    if let Some(buckets) = table.salt_buckets {
        out[start] = salt_byte(&out[start + 1..], buckets);
    }
    Ok(())
}
