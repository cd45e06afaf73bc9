//! Phoenix row keys back to values, canonically.

use super::decimal::decode_decimal;
use super::encode::encode_row_key;
use super::{
    double_from_key, float_from_key, salt_byte, Column, Table, Type, Value, DESC_SEPARATOR,
    SEPARATOR,
};
use crate::error::DecodeError;
use crate::order::NanRule;

/// Decodes a row key of `table` into one value per column (null for the
/// columns after the end of the key).
///
/// # Errors
/// - [`DecodeError::SchemaRequired`] (offset 0) for a table Phoenix would
///   refuse (see [`encode_row_key`]);
/// - [`DecodeError::Truncated`] when the key ends inside a fixed-width
///   value, before a DESC value's `FF`, or before a fixed-width column;
/// - [`DecodeError::InvalidSymbol`] at a wrong salt byte, a `BOOLEAN`
///   byte other than `00`/`01`, a non-ASCII byte in a `CHAR`, or a
///   `DECIMAL` exponent or digit byte out of range;
/// - [`DecodeError::Truncated`] also for a `DECIMAL` without digits or a
///   negative one without its terminator `66`;
/// - [`DecodeError::NonCanonical`] for values Phoenix does not write
///   (negative `UNSIGNED_*`, NaN payloads, nanoseconds over 999999, a
///   `DECIMAL` with leading or trailing zero digits, over 38 digits or
///   with a terminator after 20 digit bytes), an explicit trailing null or
///   separator, or an empty key;
/// - [`DecodeError::InvalidUtf8`] in a `VARCHAR`.
pub fn decode_row_key(table: &Table, key: &[u8]) -> Result<Vec<Value>, DecodeError> {
    if table.check().is_err() {
        return Err(DecodeError::SchemaRequired { offset: 0 });
    }
    let mut pos = 0;
    if let Some(buckets) = table.salt_buckets {
        let &salt = key.first().ok_or(DecodeError::Truncated {
            offset: 0,
            expected: "the salt byte",
        })?;
        if salt != salt_byte(&key[1..], buckets) {
            return Err(DecodeError::InvalidSymbol {
                offset: 0,
                found: salt,
                expected: "the salt byte of the rest of the key",
            });
        }
        pos = 1;
    }
    if pos == key.len() {
        return Err(DecodeError::NonCanonical {
            offset: pos,
            reason: "an empty primary key (Phoenix refuses an all-null key)",
        });
    }
    let ncols = table.columns.len();
    let mut out = Vec::with_capacity(ncols);
    for (i, c) in table.columns.iter().enumerate() {
        if pos == key.len() {
            // The key ended after the last written column: the rest are null.
            if c.ty.fixed_width().is_some() {
                return Err(DecodeError::Truncated {
                    offset: key.len(),
                    expected: "a fixed-width primary-key column (it may not be null)",
                });
            }
            out.push(Value::Null);
            continue;
        }
        let (v, next) = decode_column(table, *c, key, pos, i + 1 == ncols)?;
        out.push(v);
        pos = next;
    }
    if pos < key.len() {
        return Err(DecodeError::TrailingBytes { offset: pos });
    }
    // Canonical: re-encode and compare (catches explicit trailing nulls and
    // separators).
    let mut again = Vec::with_capacity(key.len());
    match encode_row_key(table, &out, &mut again) {
        Ok(()) if again == key => Ok(out),
        Ok(()) => {
            let at = again
                .iter()
                .zip(key)
                .position(|(a, b)| a != b)
                .unwrap_or(again.len().min(key.len()));
            Err(DecodeError::NonCanonical {
                offset: at,
                reason: "Phoenix writes this row differently (explicit trailing null or separator)",
            })
        }
        Err(_) => Err(DecodeError::NonCanonical {
            offset: 0,
            reason: "Phoenix would not write this row",
        }),
    }
}

/// Decodes one column at `pos`; returns the value and the offset after it
/// (and after its separator or trailing byte).
fn decode_column(
    table: &Table,
    c: Column,
    key: &[u8],
    pos: usize,
    is_last: bool,
) -> Result<(Value, usize), DecodeError> {
    let mask = if c.order.is_desc() { 0xFF } else { 0 };
    if let Some(w) = c.ty.fixed_width() {
        let raw = key.get(pos..pos + w).ok_or(DecodeError::Truncated {
            offset: key.len(),
            expected: "fixed-width column bytes",
        })?;
        if c.ty == Type::Boolean {
            let b = raw[0];
            if b > 1 {
                return Err(DecodeError::InvalidSymbol {
                    offset: pos,
                    found: b,
                    expected: "a BOOLEAN byte 00 or 01",
                });
            }
            return Ok((Value::Bool((b == 1) ^ (mask != 0)), pos + 1));
        }
        let b: Vec<u8> = raw.iter().map(|x| x ^ mask).collect();
        match c.ty {
            Type::Char(_) => {
                if let Some(i) = b.iter().position(|x| !x.is_ascii()) {
                    return Err(DecodeError::InvalidSymbol {
                        offset: pos + i,
                        found: raw[i],
                        expected: "an ASCII byte in a CHAR",
                    });
                }
                // Phoenix strips the padding when it reads a CHAR.
                let len = b.iter().rposition(|&x| x != b' ').map_or(0, |i| i + 1);
                let text = String::from_utf8_lossy(&b[..len]).into_owned();
                return Ok((Value::Char(text), pos + w));
            }
            Type::Binary(_) => return Ok((Value::Binary(b), pos + w)),
            _ => {}
        }
        let noncanon = |reason| DecodeError::NonCanonical {
            offset: pos,
            reason,
        };
        let be64 = |s: &[u8]| {
            let mut a = [0u8; 8];
            a[8 - s.len()..].copy_from_slice(s);
            u64::from_be_bytes(a)
        };
        let v = match c.ty {
            t if t.int_range().is_some() => {
                let width = b.len();
                let u = be64(&b);
                let v = if t.is_unsigned() {
                    if b[0] & 0x80 != 0 {
                        return Err(noncanon("negative value in an UNSIGNED column"));
                    }
                    u as i64
                } else {
                    // Flip the sign bit back and sign-extend.
                    let shift = 64 - 8 * width as u32;
                    (((u ^ 1 << (8 * width - 1)) << shift) as i64) >> shift
                };
                Value::Int(v)
            }
            Type::Float => match float_from_key(be64(&b) as u32) {
                Some(f) => Value::Float(f),
                None => return Err(noncanon("a NaN other than Java's canonical one")),
            },
            Type::Double => match double_from_key(be64(&b)) {
                Some(f) => Value::Double(f),
                None => return Err(noncanon("a NaN other than Java's canonical one")),
            },
            Type::UnsignedFloat => match NanRule::Canonical.f32_from_bits(be64(&b) as u32) {
                Some(f) if !f.is_sign_negative() => Value::Float(f),
                _ => return Err(noncanon("negative or non-canonical UNSIGNED_FLOAT")),
            },
            Type::UnsignedDouble => match NanRule::Canonical.f64_from_bits(be64(&b)) {
                Some(f) if !f.is_sign_negative() => Value::Double(f),
                _ => return Err(noncanon("negative or non-canonical UNSIGNED_DOUBLE")),
            },
            Type::Date | Type::Time => Value::Date((be64(&b) ^ 1 << 63) as i64),
            Type::UnsignedDate | Type::UnsignedTime => {
                let ms = be64(&b) as i64;
                if ms < 0 {
                    return Err(noncanon("negative milliseconds in an UNSIGNED column"));
                }
                Value::Date(ms)
            }
            Type::Timestamp | Type::UnsignedTimestamp => {
                let m = be64(&b[..8]);
                let ms = if c.ty == Type::Timestamp {
                    (m ^ 1 << 63) as i64
                } else {
                    if m >> 63 != 0 {
                        return Err(noncanon("negative milliseconds in an UNSIGNED column"));
                    }
                    m as i64
                };
                let nanos = be64(&b[8..]) as u32;
                if nanos >= 1_000_000 {
                    return Err(DecodeError::NonCanonical {
                        offset: pos + 8,
                        reason: "nanoseconds within the millisecond over 999999",
                    });
                }
                Value::Timestamp(ms, nanos)
            }
            _ => unreachable!("fixed-width types are handled above"),
        };
        return Ok((v, pos + w));
    }
    // Variable width.
    let desc_sep = table.row_key_order_optimizable && c.order.is_desc();
    let (end, next) = if desc_sep {
        // A null DESC value is an empty value and a 00 separator.
        if !is_last && key.get(pos) == Some(&SEPARATOR) {
            return Ok((Value::Null, pos + 1));
        }
        if is_last && c.ty == Type::Varbinary {
            // The value (which may hold FF), then the trailing FF at the very end.
            match key.len().checked_sub(1) {
                Some(l) if l >= pos && key[l] == DESC_SEPARATOR => (l, l + 1),
                _ => {
                    return Err(DecodeError::Truncated {
                        offset: key.len(),
                        expected: "the FF ending a trailing DESC value",
                    })
                }
            }
        } else {
            match key[pos..].iter().position(|&b| b == DESC_SEPARATOR) {
                Some(i) => (pos + i, pos + i + 1),
                None => {
                    return Err(DecodeError::Truncated {
                        offset: key.len(),
                        expected: "the FF separator after a DESC value",
                    })
                }
            }
        }
    } else if is_last {
        (key.len(), key.len())
    } else {
        match key[pos..].iter().position(|&b| b == SEPARATOR) {
            Some(i) => (pos + i, pos + i + 1),
            // The last written column of the key: no separator.
            None => (key.len(), key.len()),
        }
    };
    if pos == end {
        return Ok((Value::Null, next));
    }
    if c.ty == Type::Decimal {
        return Ok((
            Value::Decimal(decode_decimal(&key[pos..end], mask, pos)?),
            next,
        ));
    }
    let bytes: Vec<u8> = key[pos..end].iter().map(|b| b ^ mask).collect();
    let v = match c.ty {
        Type::Varchar => match String::from_utf8(bytes) {
            Ok(s) => {
                if let Some(i) = s.bytes().position(|b| b == 0) {
                    return Err(DecodeError::InvalidSymbol {
                        offset: pos + i,
                        found: key[pos + i],
                        expected: "no U+0000 inside a VARCHAR",
                    });
                }
                Value::Varchar(s)
            }
            Err(e) => {
                return Err(DecodeError::InvalidUtf8 {
                    offset: pos + e.utf8_error().valid_up_to(),
                })
            }
        },
        _ => Value::Varbinary(bytes),
    };
    Ok((v, next))
}
