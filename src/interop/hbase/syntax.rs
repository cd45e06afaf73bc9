//! The `KIND[.desc]:VALUE` component text of `hbase-ordered`, read and
//! written.

use super::decimal::Numeric;
use super::{Field, Kind, Value};
use crate::value::ParseError;

/// Parses a `KIND[.desc]:VALUE` component; a bare `KIND[.desc]` (no `:`)
/// is null.
///
/// | `KIND` | `VALUE` |
/// |---|---|
/// | `int8` `int16` `int32` `int64` | decimal |
/// | `float32` `float64` | Rust float syntax, `NaN`, `inf`, `-inf` |
/// | `numeric` | decimal with optional exponent (`-1.5e-7`), `inf`, `-inf`, `NaN` |
/// | `text` (`str`) | the text, verbatim |
/// | `blob-var`, `blob-copy` (`blob`) | hex |
///
/// ```
/// use lexikey::interop::hbase::{parse_component, Field, Kind, Numeric, Value};
/// let (f, v) = parse_component("numeric.desc:-12.5")?;
/// assert_eq!(f, Field::desc(Kind::Numeric));
/// assert_eq!(v, Value::Numeric("-12.5".parse()?));
/// assert_eq!(parse_component("text")?.1, Value::Null);
/// # Ok::<(), lexikey::ParseError>(())
/// ```
///
/// # Errors
/// A [`ParseError`] naming the component.
pub fn parse_component(s: &str) -> Result<(Field, Value), ParseError> {
    let Some((spec, text)) = s.split_once(':') else {
        return Ok((Field::parse(s)?, Value::Null));
    };
    let field = Field::parse(spec)?;
    Ok((field, parse_value(field.kind, text)?))
}

/// Parses the text of a value of `kind` (see [`parse_component`]).
///
/// # Errors
/// A [`ParseError`] for text that is not a value of the kind.
pub fn parse_value(kind: Kind, text: &str) -> Result<Value, ParseError> {
    let bad = || ParseError::new(format!("invalid {kind} value {text:?}"));
    Ok(match kind {
        Kind::Int8 => Value::Int8(text.parse().map_err(|_| bad())?),
        Kind::Int16 => Value::Int16(text.parse().map_err(|_| bad())?),
        Kind::Int32 => Value::Int32(text.parse().map_err(|_| bad())?),
        Kind::Int64 => Value::Int64(text.parse().map_err(|_| bad())?),
        Kind::Float32 => Value::Float32(text.parse().map_err(|_| bad())?),
        Kind::Float64 => Value::Float64(text.parse().map_err(|_| bad())?),
        Kind::Numeric => Value::Numeric(Numeric::parse(text)?),
        Kind::Text => Value::Text(text.to_string()),
        Kind::BlobVar | Kind::BlobCopy => Value::Bytes(crate::value::literal::parse_hex(text)?),
    })
}

/// Writes a component in the syntax of [`parse_component`].
///
/// ```
/// use lexikey::interop::hbase::{format_component, Field, Kind, Value};
/// assert_eq!(format_component(Field::desc(Kind::Int8), &Value::Int8(-3)), "int8.desc:-3");
/// assert_eq!(format_component(Field::asc(Kind::Text), &Value::Null), "text");
/// ```
pub fn format_component(field: Field, value: &Value) -> String {
    let v = match value {
        Value::Null => return field.to_string(),
        Value::Int8(v) => v.to_string(),
        Value::Int16(v) => v.to_string(),
        Value::Int32(v) => v.to_string(),
        Value::Int64(v) => v.to_string(),
        Value::Float32(v) => format!("{v:?}"),
        Value::Float64(v) => format!("{v:?}"),
        Value::Numeric(n) => n.to_string(),
        Value::Text(s) => s.clone(),
        Value::Bytes(b) => crate::to_hex(b),
    };
    format!("{field}:{v}")
}
