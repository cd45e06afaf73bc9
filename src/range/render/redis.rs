//! [`Dialect::Redis`]: one `ZRANGE … BYLEX` command in `redis-cli`'s own
//! argument syntax.

use crate::bytes::push_x_escape;
use std::fmt::Write as _;

use super::{is_printable, Bounds, RenderError, RenderOptions};

/// `bytes` as one argument in `redis-cli`'s command-line syntax (what its
/// prompt and its standard input accept), decoding to exactly these bytes.
///
/// Bare when non-empty and every byte is printable ASCII other than space,
/// `"`, `'` and `\`; otherwise double-quoted with `\"`, `\\`, and `\xNN` for
/// every byte outside printable ASCII. The result is printable ASCII.
///
/// ```
/// use lexikey::range::render::redis_quote;
/// assert_eq!(redis_quote(b"[usa#"), "[usa#");
/// assert_eq!(redis_quote(b"[a b\"\0"), r#""[a b\"\x00""#);
/// assert_eq!(redis_quote(b""), r#""""#);
/// ```
pub fn redis_quote(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 2);
    redis_into(bytes, &mut s);
    s
}

fn redis_into(bytes: &[u8], out: &mut String) {
    let bare = !bytes.is_empty()
        && bytes
            .iter()
            .all(|&b| (0x21..=0x7E).contains(&b) && !matches!(b, b'"' | b'\'' | b'\\'));
    if bare {
        out.extend(bytes.iter().map(|&b| b as char));
        return;
    }
    out.push('"');
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            _ if is_printable(b) => out.push(b as char),
            _ => push_x_escape(b, out),
        }
    }
    out.push('"');
}

pub(super) fn redis(
    b: &Bounds<'_>,
    o: &RenderOptions,
    out: &mut String,
) -> Result<(), RenderError> {
    let key = o.table.as_deref().unwrap_or("t");
    let min = match b.start {
        Some(start) => redis_quote(&[b"[", start].concat()),
        None => "-".to_string(),
    };
    let max = match b.end {
        Some(end) => redis_quote(&[b"(", end].concat()),
        None => "+".to_string(),
    };
    out.push_str("ZRANGE ");
    redis_into(key.as_bytes(), out);
    if o.reversed {
        let _ = write!(out, " {max} {min} BYLEX REV");
    } else {
        let _ = write!(out, " {min} {max} BYLEX");
    }
    if let Some(limit) = o.limit {
        let _ = write!(out, " LIMIT 0 {limit}");
    }
    out.push('\n');
    Ok(())
}
