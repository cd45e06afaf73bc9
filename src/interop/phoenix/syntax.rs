//! The `TYPE[.desc]:VALUE` component text of `phoenix`, read and written.

use super::decimal::{check_char, decimal_fits, round_decimal, DecimalRounding};
use super::{Column, Type, Value, MAX_DECIMAL_PRECISION};
use crate::interop::hbase::Decimal;
use crate::value::ParseError;

/// Parses a `TYPE[.desc]:VALUE` component; a bare `TYPE[.desc]` (or an
/// empty `VARCHAR`/`VARBINARY` value) is null.
///
/// | `TYPE` | `VALUE` |
/// |---|---|
/// | integer types | decimal |
/// | `float`, `double`, unsigned forms | Rust float syntax, `NaN`, `inf` |
/// | `boolean` | `true` / `false` |
/// | `date`, `time`, unsigned forms | RFC 3339 (up to 3 fraction digits) or integer milliseconds |
/// | `timestamp`, `unsigned_timestamp` | RFC 3339 with up to 9 fraction digits, or integer milliseconds |
/// | `varchar` | the text, verbatim |
/// | `varbinary` | hex |
/// | `decimal` | decimal syntax: `-12.5`, `1.5e-7`, `1E+30` (empty: null) |
/// | `char(n)` | the text, verbatim (ASCII, at most `n` characters; empty is the all-space value) |
/// | `binary(n)` | hex, at most `n` bytes (empty is the all-zero value) |
///
/// ```
/// use lexikey::interop::phoenix::{parse_component, Column, Type, Value};
/// assert_eq!(parse_component("bigint.desc:42")?, (Column::desc(Type::Bigint), Value::Int(42)));
/// assert_eq!(
///     parse_component("timestamp:1970-01-01T00:00:00.001000002Z")?.1,
///     Value::Timestamp(1, 2)
/// );
/// assert_eq!(parse_component("decimal:1.50")?.1, Value::Decimal("1.5".parse()?));
/// assert_eq!(parse_component("char(3).desc:ab")?.0, Column::desc(Type::Char(3)));
/// # Ok::<(), lexikey::ParseError>(())
/// ```
///
/// # Errors
/// A [`ParseError`] naming the component.
pub fn parse_component(s: &str) -> Result<(Column, Value), ParseError> {
    parse_component_with(s, DecimalRounding::Refuse)
}

/// Parses the text of a value of `ty` (see [`parse_component`]).
///
/// # Errors
/// A [`ParseError`] for text that is not a value of the type.
pub fn parse_value(ty: Type, text: &str) -> Result<Value, ParseError> {
    parse_value_with(ty, text, DecimalRounding::Refuse)
}

/// [`parse_component`] with an explicit [`DecimalRounding`] for a
/// `DECIMAL` of more than 38 significant digits.
///
/// ```
/// use lexikey::interop::phoenix::{parse_component_with, DecimalRounding, Value};
/// let (_, v) = parse_component_with("decimal:-2.499999999999999999999999999999999999999", DecimalRounding::HalfUp)?;
/// assert_eq!(v, Value::Decimal("-2.5".parse()?));
/// assert!(parse_component_with("decimal:-2.499999999999999999999999999999999999999", DecimalRounding::Refuse).is_err());
/// # Ok::<(), lexikey::ParseError>(())
/// ```
///
/// # Errors
/// As [`parse_component`].
pub fn parse_component_with(
    s: &str,
    rounding: DecimalRounding,
) -> Result<(Column, Value), ParseError> {
    let Some((spec, text)) = s.split_once(':') else {
        return Ok((Column::parse(s)?, Value::Null));
    };
    let column = Column::parse(spec)?;
    Ok((column, parse_value_with(column.ty, text, rounding)?))
}

/// A `DECIMAL`'s text: parsed, rounded (or refused) per `rounding` when it
/// has more than 38 significant digits, then checked against the range.
pub(crate) fn parse_decimal(text: &str, rounding: DecimalRounding) -> Result<Decimal, ParseError> {
    let d = Decimal::parse(text)?;
    let n = d.digits().len();
    let d = if n > MAX_DECIMAL_PRECISION {
        let r = round_decimal(&d);
        if rounding == DecimalRounding::Refuse && decimal_fits(&r).is_ok() {
            return Err(ParseError::new(format!(
                "decimal value {text:?}: DECIMAL has more than 38 significant digits (Phoenix's \
                 maximum precision): it has {n}, which Phoenix rounds half up and stores as {r}; \
                 --round writes that key (phoenix::DecimalRounding::HalfUp)"
            )));
        }
        r
    } else {
        d
    };
    decimal_fits(&d).map_err(|e| ParseError::new(format!("decimal value {text:?}: {e}")))?;
    Ok(d)
}

/// [`parse_value`] with an explicit [`DecimalRounding`] for a `DECIMAL` of
/// more than 38 significant digits.
///
/// # Errors
/// As [`parse_value`]; with [`DecimalRounding::HalfUp`], a `DECIMAL` is
/// refused only when its rounded value is out of range.
pub fn parse_value_with(
    ty: Type,
    text: &str,
    rounding: DecimalRounding,
) -> Result<Value, ParseError> {
    let bad = || ParseError::new(format!("invalid {ty} value {text:?}"));
    Ok(match ty {
        t if t.int_range().is_some() => {
            let v: i64 = text.parse().map_err(|_| bad())?;
            let (lo, hi) = t.int_range().unwrap_or_default();
            if v < lo || v > hi {
                return Err(ParseError::new(format!(
                    "{ty} value {text:?} is out of range ({lo} to {hi})"
                )));
            }
            Value::Int(v)
        }
        Type::Float | Type::UnsignedFloat => Value::Float(text.parse().map_err(|_| bad())?),
        Type::Double | Type::UnsignedDouble => Value::Double(text.parse().map_err(|_| bad())?),
        Type::Boolean => match text.to_ascii_lowercase().as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => return Err(bad()),
        },
        Type::Date | Type::Time | Type::UnsignedDate | Type::UnsignedTime => {
            Value::Date(crate::value::literal::parse_ts(text)?)
        }
        Type::Timestamp | Type::UnsignedTimestamp => {
            let (ms, nanos) = parse_timestamp(text)?;
            Value::Timestamp(ms, nanos)
        }
        Type::Varchar if text.is_empty() => Value::Null,
        Type::Varchar => Value::Varchar(text.to_string()),
        Type::Decimal if text.is_empty() => Value::Null,
        Type::Decimal => Value::Decimal(parse_decimal(text, rounding)?),
        Type::Char(n) => {
            check_char(text, n)
                .map_err(|e| ParseError::new(format!("{ty} value {text:?}: {e}")))?;
            Value::Char(text.to_string())
        }
        Type::Binary(n) => {
            let b = crate::value::literal::parse_hex(text)?;
            if b.len() > usize::from(n) {
                return Err(ParseError::new(format!(
                    "{ty} value {text:?}: longer than {n} bytes"
                )));
            }
            Value::Binary(b)
        }
        _ => {
            let b = crate::value::literal::parse_hex(text)?;
            if b.is_empty() {
                Value::Null
            } else {
                Value::Varbinary(b)
            }
        }
    })
}

/// RFC 3339 with up to 9 fraction digits (or integer milliseconds): the
/// digits after the third are the nanoseconds within the millisecond.
fn parse_timestamp(text: &str) -> Result<(i64, u32), ParseError> {
    let Some(dot) = text.find('.').filter(|_| text.contains('T')) else {
        return Ok((crate::value::literal::parse_ts(text)?, 0));
    };
    let frac_len = text[dot + 1..]
        .bytes()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if frac_len <= 3 {
        return Ok((crate::value::literal::parse_ts(text)?, 0));
    }
    if frac_len > 9 {
        return Err(ParseError::new(format!(
            "invalid timestamp {text:?}: at most 9 fraction digits"
        )));
    }
    let extra = &text[dot + 4..dot + 1 + frac_len];
    let nanos: u32 = format!("{extra:0<6}").parse().unwrap_or(0);
    let ms_text = format!("{}{}", &text[..dot + 4], &text[dot + 1 + frac_len..]);
    Ok((crate::value::literal::parse_ts(&ms_text)?, nanos))
}

/// A `TIMESTAMP` as RFC 3339 UTC: milliseconds, then the nanoseconds
/// within the millisecond (six more digits) when there are any.
pub(crate) fn timestamp_text(ms: i64, nanos: u32) -> String {
    let mut s = String::new();
    crate::value::literal::format_ts(ms, &mut s);
    if nanos > 0 && s.ends_with('Z') {
        s.pop();
        s.push_str(&format!("{nanos:06}Z"));
    }
    s
}

/// Writes a component in the syntax of [`parse_component`] (dates and
/// timestamps as RFC 3339 UTC).
///
/// ```
/// use lexikey::interop::phoenix::{format_component, Column, Type, Value};
/// assert_eq!(format_component(Column::asc(Type::Timestamp), &Value::Timestamp(1, 2)),
///            "timestamp:1970-01-01T00:00:00.001000002Z");
/// assert_eq!(format_component(Column::desc(Type::Varchar), &Value::Null), "varchar.desc");
/// ```
pub fn format_component(column: Column, value: &Value) -> String {
    let mut s = String::new();
    write_component(column, value, &mut s);
    s
}

/// Appends the text of [`format_component`] to `out` (with no allocation
/// but for timestamps and binary values).
///
/// ```
/// use lexikey::interop::phoenix::{write_component, Column, Type, Value};
/// let mut s = String::from("x\t");
/// write_component(Column::desc(Type::Bigint), &Value::Int(-5), &mut s);
/// assert_eq!(s, "x\tbigint.desc:-5");
/// ```
pub fn write_component(column: Column, value: &Value, out: &mut String) {
    use std::fmt::Write;
    // Writing to a `String` does not fail.
    let _ = match value {
        Value::Null => write!(out, "{column}"),
        Value::Int(v) => write!(out, "{column}:{v}"),
        Value::Float(f) => write!(out, "{column}:{f:?}"),
        Value::Double(f) => write!(out, "{column}:{f:?}"),
        Value::Bool(b) => write!(out, "{column}:{b}"),
        Value::Date(ms) => {
            let r = write!(out, "{column}:");
            crate::value::literal::format_ts(*ms, out);
            r
        }
        Value::Timestamp(ms, nanos) => write!(out, "{column}:{}", timestamp_text(*ms, *nanos)),
        Value::Varchar(s) | Value::Char(s) => write!(out, "{column}:{s}"),
        Value::Varbinary(b) | Value::Binary(b) => write!(out, "{column}:{}", crate::to_hex(b)),
        Value::Decimal(d) => write!(out, "{column}:{d}"),
    };
}
