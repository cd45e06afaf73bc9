//! Values as people write them: `TYPE[.desc]:VALUE` components, RFC 3339
//! timestamps, hyphenated UUIDs, hex bytes — and back.
//!
//! | type | input | output |
//! |---|---|---|
//! | `str` | the text, verbatim | the text |
//! | `i64` `u64` `i32` `u32` | decimal, optional leading `-` (signed) | decimal |
//! | `f64` `f32` | Rust float syntax, also `NaN`, `inf`, `-inf` | shortest round-trip form (`1.0`, `-0.0`, `NaN`) |
//! | `bool` | `true` / `false` | `true` / `false` |
//! | `bytes` | hex (either case), even length | lowercase hex |
//! | `ts` | RFC 3339 (`2024-05-01T12:00:00Z`, `…+02:00`, up to 3 fraction digits) or integer milliseconds | RFC 3339 UTC with milliseconds |
//! | `uuid` | hyphenated, either case | hyphenated lowercase |
//! | `dec` | decimal notation of any size: `-12.50`, `.5`, `1e-40` ([`Dec::parse`](crate::dec::Dec::parse)) | plain notation, trailing zeros dropped: `-12.5`, `0.5`, `0.0…01` |

use std::borrow::Cow;
use std::fmt::Write;

use crate::value::{Component, Field, ParseError, Type, Value};

/// Parses a `TYPE[.desc]:VALUE` component; everything after the first `:`
/// is the value, verbatim.
///
/// ```
/// use lexikey::{input::parse_component, Component};
/// assert_eq!(parse_component("i64:3831868")?, Component::asc(3831868_i64));
/// assert_eq!(parse_component("str.desc:a:b")?, Component::desc("a:b"));
/// # Ok::<(), lexikey::ParseError>(())
/// ```
pub fn parse_component(s: &str) -> Result<Component<'static>, ParseError> {
    let Some((spec, text)) = s.split_once(':') else {
        return Err(ParseError::new(format!(
            "component {s:?} has no ':': expected TYPE[.desc]:VALUE, e.g. i64:42 or str:usa"
        )));
    };
    let field = Field::parse(spec)?;
    let value = parse_value(field.ty, text)?;
    Ok(Component {
        value,
        dir: field.dir,
        width: field.width,
    })
}

/// Parses the text of a value of type `ty`.
pub fn parse_value(ty: Type, text: &str) -> Result<Value<'static>, ParseError> {
    fn num<T: std::str::FromStr>(ty: Type, text: &str) -> Result<T, ParseError> {
        text.parse().map_err(|_| {
            ParseError::new(format!(
                "invalid {ty} value {text:?}: not a number in range for {ty}"
            ))
        })
    }
    Ok(match ty {
        Type::Str => Value::Str(Cow::Owned(text.to_string())),
        Type::I64 => Value::I64(num(ty, text)?),
        Type::U64 => Value::U64(num(ty, text)?),
        Type::I32 => Value::I32(num(ty, text)?),
        Type::U32 => Value::U32(num(ty, text)?),
        Type::F64 => Value::F64(num(ty, text)?),
        Type::F32 => Value::F32(num(ty, text)?),
        Type::Bool => match text {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => {
                return Err(ParseError::new(format!(
                    "invalid bool {text:?}: expected true or false"
                )))
            }
        },
        Type::Bytes => Value::Bytes(Cow::Owned(parse_hex(text)?)),
        Type::Ts => Value::Ts(parse_ts(text)?),
        Type::Uuid => Value::Uuid(parse_uuid(text)?),
        Type::Dec => Value::Dec(crate::dec::Dec::parse(text)?),
    })
}

/// Writes a value as text (the inverse of [`parse_value`]).
pub fn write_value(v: &Value<'_>, out: &mut String) {
    // Writing to a String cannot fail.
    let _ = match v {
        Value::Str(s) => {
            out.push_str(s);
            Ok(())
        }
        Value::I64(x) => write!(out, "{x}"),
        Value::Dec(x) => write!(out, "{x}"),
        Value::U64(x) => write!(out, "{x}"),
        Value::I32(x) => write!(out, "{x}"),
        Value::U32(x) => write!(out, "{x}"),
        Value::F64(x) => write!(out, "{x:?}"),
        Value::F32(x) => write!(out, "{x:?}"),
        Value::Bool(x) => write!(out, "{x}"),
        Value::Bytes(b) => {
            for x in b.iter() {
                let _ = write!(out, "{x:02x}");
            }
            Ok(())
        }
        Value::Ts(ms) => {
            format_ts(*ms, out);
            Ok(())
        }
        Value::Uuid(u) => {
            format_uuid(*u, out);
            Ok(())
        }
    };
}

/// A value as text.
pub fn value_to_string(v: &Value<'_>) -> String {
    let mut s = String::new();
    write_value(v, &mut s);
    s
}

/// Writes a component as `TYPE[.desc]:VALUE`.
pub fn component_to_string(c: &Component<'_>) -> String {
    let mut s = c.field().to_string();
    s.push(':');
    write_value(&c.value, &mut s);
    s
}

/// Parses hex bytes (either case, even length).
pub fn parse_hex(text: &str) -> Result<Vec<u8>, ParseError> {
    let b = text.as_bytes();
    if !b.len().is_multiple_of(2) {
        return Err(ParseError::new(format!(
            "invalid hex {text:?}: odd number of digits"
        )));
    }
    b.chunks_exact(2)
        .enumerate()
        .map(|(i, p)| {
            let d = |c: u8| (c as char).to_digit(16);
            match (d(p[0]), d(p[1])) {
                (Some(h), Some(l)) => Ok((h << 4 | l) as u8),
                _ => Err(ParseError::new(format!(
                    "invalid hex {text:?}: bad digit at character {}",
                    if d(p[0]).is_none() { 2 * i } else { 2 * i + 1 }
                ))),
            }
        })
        .collect()
}

/// Parses a hyphenated UUID (`8-4-4-4-12` hex digits, either case).
pub fn parse_uuid(text: &str) -> Result<u128, ParseError> {
    let err = || {
        ParseError::new(format!(
            "invalid uuid {text:?}: expected 8-4-4-4-12 hex digits, e.g. 123e4567-e89b-12d3-a456-426614174000"
        ))
    };
    let b = text.as_bytes();
    if b.len() != 36 || [8, 13, 18, 23].iter().any(|&i| b[i] != b'-') {
        return Err(err());
    }
    let mut v: u128 = 0;
    for (i, &c) in b.iter().enumerate() {
        if [8, 13, 18, 23].contains(&i) {
            continue;
        }
        v = v << 4 | u128::from((c as char).to_digit(16).ok_or_else(err)?);
    }
    Ok(v)
}

/// Writes a UUID hyphenated, lowercase.
pub fn format_uuid(u: u128, out: &mut String) {
    let h = format!("{u:032x}");
    out.push_str(&h[0..8]);
    for (a, b) in [(8, 12), (12, 16), (16, 20), (20, 32)] {
        out.push('-');
        out.push_str(&h[a..b]);
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day number (inverse of [`days_from_civil`]).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Parses an RFC 3339 timestamp (or integer milliseconds) to milliseconds
/// since the epoch. Years 0000–9999; up to 3 fraction digits (lexikey keys
/// hold milliseconds: more digits would be silently dropped, so they are refused).
///
/// ```
/// use lexikey::input::parse_ts;
/// assert_eq!(parse_ts("1970-01-01T00:00:01.5Z")?, 1500);
/// assert_eq!(parse_ts("2024-02-29T01:00:00+01:00")?, 1709164800000);
/// assert_eq!(parse_ts("-1")?, -1);
/// # Ok::<(), lexikey::ParseError>(())
/// ```
pub fn parse_ts(text: &str) -> Result<i64, ParseError> {
    if !text.is_empty()
        && text
            .bytes()
            .enumerate()
            .all(|(i, c)| c.is_ascii_digit() || (i == 0 && c == b'-'))
    {
        return text
            .parse()
            .map_err(|_| ParseError::new(format!("invalid ts {text:?}: out of range")));
    }
    let err = |why: &str| {
        ParseError::new(format!(
            "invalid ts {text:?}: {why}; expected RFC 3339 like 2024-05-01T12:00:00.000Z or integer milliseconds"
        ))
    };
    // An extended year (`+12345-…`, `-0001-…`, as `format_ts` writes
    // outside 0000–9999): parse it apart, then the rest as a 4-digit year.
    let (ext_year, normalized);
    let b = match text.as_bytes().first() {
        Some(&sign @ (b'+' | b'-')) => {
            let n = text[1..].bytes().take_while(u8::is_ascii_digit).count();
            if !(4..=12).contains(&n) {
                return Err(err("an extended year has a sign and 4 to 12 digits"));
            }
            let y: i64 = text[1..=n].parse().map_err(|_| err("bad year"))?;
            ext_year = Some(if sign == b'-' { -y } else { y });
            normalized = format!("0000{}", &text[1 + n..]);
            normalized.as_bytes()
        }
        _ => {
            ext_year = None;
            text.as_bytes()
        }
    };
    let digits = |r: std::ops::Range<usize>| -> Result<i64, ParseError> {
        let s = b.get(r).ok_or_else(|| err("too short"))?;
        if !s.iter().all(u8::is_ascii_digit) {
            return Err(err("digit expected"));
        }
        Ok(s.iter().fold(0i64, |a, &c| a * 10 + i64::from(c - b'0')))
    };
    let sep = |i: usize, allowed: &[u8]| -> Result<(), ParseError> {
        match b.get(i) {
            Some(c) if allowed.contains(c) => Ok(()),
            _ => Err(err("bad separator")),
        }
    };
    let (y, mo, d) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let y = ext_year.unwrap_or(y);
    sep(4, b"-")?;
    sep(7, b"-")?;
    sep(10, b"Tt ")?;
    let (h, mi, s) = (digits(11..13)?, digits(14..16)?, digits(17..19)?);
    sep(13, b":")?;
    sep(16, b":")?;
    let mut i = 19;
    let mut ms = 0;
    if b.get(i) == Some(&b'.') {
        let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 || n > 3 {
            return Err(err("1 to 3 fraction digits (milliseconds) allowed"));
        }
        ms = digits(i + 1..i + 1 + n)? * 10i64.pow(3 - n as u32);
        i += 1 + n;
    }
    let offset_min = match b.get(i) {
        Some(b'Z' | b'z') if i + 1 == b.len() => 0,
        Some(&c @ (b'+' | b'-')) if i + 6 == b.len() => {
            sep(i + 3, b":")?;
            let (oh, om) = (digits(i + 1..i + 3)?, digits(i + 4..i + 6)?);
            if oh > 23 || om > 59 {
                return Err(err("offset out of range"));
            }
            let o = oh * 60 + om;
            if c == b'-' {
                -o
            } else {
                o
            }
        }
        _ => return Err(err("time zone (Z or +hh:mm) expected at the end")),
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let mdays = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&mo)
        || d < 1
        || d > mdays[(mo - 1) as usize]
        || h > 23
        || mi > 59
        || s > 59
    {
        return Err(err("date or time out of range"));
    }
    let days = i128::from(days_from_civil(y, mo, d));
    let total = ((days * 24 + i128::from(h)) * 60 + i128::from(mi - offset_min)) * 60_000
        + i128::from(s * 1000 + ms);
    i64::try_from(total).map_err(|_| err("out of the range of i64 milliseconds"))
}

/// Writes milliseconds since the epoch as RFC 3339 UTC with milliseconds
/// (`1970-01-01T00:00:00.000Z`). Years outside 0000–9999 are written with
/// a sign and more digits (`+12345-…`), as ISO 8601 extended years.
pub fn format_ts(ms: i64, out: &mut String) {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    let (h, mi, s, f) = (
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000,
    );
    let _ = if (0..=9999).contains(&y) {
        write!(out, "{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{f:03}Z")
    } else {
        write!(out, "{y:+05}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{f:03}Z")
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ts_round_trip_across_eras() {
        for ms in [
            0,
            -1,
            1,
            951_782_400_000,
            -62_135_596_800_000,
            253_402_300_799_999,
            1_709_164_800_000,
        ] {
            let mut s = String::new();
            format_ts(ms, &mut s);
            assert_eq!(parse_ts(&s), Ok(ms), "{s}");
        }
    }
}
