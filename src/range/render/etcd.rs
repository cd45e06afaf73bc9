//! [`Dialect::Etcd`]: an `etcdctl get` command line (bash quoting) and the
//! JSON body for etcd's gateway (standard base64).

use crate::bytes::push_x_escape;
use std::fmt::Write as _;

use super::{is_printable, Bounds, RenderError, RenderOptions};

/// Standard base64 (RFC 4648 §4: `A–Z a–z 0–9 + /`) with `=` padding, as
/// etcd's JSON gateway expects for `bytes` fields.
///
/// ```
/// use lexikey::range::render::base64;
/// assert_eq!(base64(b""), "");
/// assert_eq!(base64(b"\0"), "AA==");
/// assert_eq!(base64(b"foobar"), "Zm9vYmFy");
/// assert_eq!(base64(b"\xfb\xff"), "+/8=");
/// ```
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// `bytes` as one bash word that expands to exactly these bytes, or `None`
/// when that is impossible (a NUL byte: no command-line argument can hold
/// one).
///
/// `'…'` (a `'` written `'\''`) when every byte is printable ASCII;
/// otherwise ANSI-C quoting `$'…'` (bash, zsh, ksh) with `\\`, `\'` and
/// `\xNN` for every byte outside printable ASCII. The result is printable
/// ASCII.
///
/// ```
/// use lexikey::range::render::shell_quote;
/// assert_eq!(shell_quote(b"it's $(x)").as_deref(), Some(r"'it'\''s $(x)'"));
/// assert_eq!(shell_quote(b"a\n\xff'").as_deref(), Some(r"$'a\x0A\xFF\''"));
/// assert_eq!(shell_quote(b""), Some("''".to_string()));
/// assert_eq!(shell_quote(b"a\0b"), None);
/// ```
pub fn shell_quote(bytes: &[u8]) -> Option<String> {
    if bytes.contains(&0) {
        return None;
    }
    let mut s = String::with_capacity(bytes.len() + 2);
    if bytes.iter().all(|&b| is_printable(b)) {
        s.push('\'');
        for &b in bytes {
            if b == b'\'' {
                s.push_str("'\\''");
            } else {
                s.push(b as char);
            }
        }
        s.push('\'');
    } else {
        s.push_str("$'");
        for &b in bytes {
            match b {
                b'\\' => s.push_str("\\\\"),
                b'\'' => s.push_str("\\'"),
                _ if is_printable(b) => s.push(b as char),
                _ => push_x_escape(b, &mut s),
            }
        }
        s.push('\'');
    }
    Some(s)
}

pub(super) fn etcd(b: &Bounds<'_>, o: &RenderOptions, out: &mut String) -> Result<(), RenderError> {
    // Line 1: etcdctl.
    let positional: Option<Vec<&[u8]>> = match (b.start, b.end) {
        (Some(start), Some(end)) => Some(vec![start, end]),
        (Some(start), None) => Some(vec![start]),
        (None, None) => Some(vec![b""]),
        (None, Some(_)) => None,
    };
    match positional {
        None => out.push_str(
            "# etcdctl cannot take this range: its unbounded start is etcd's key \"\\0\", \
             and no command-line argument can hold a NUL byte; POST the JSON below to /v3/kv/range\n",
        ),
        Some(args) if args.iter().any(|a| a.contains(&0)) => out.push_str(
            "# etcdctl cannot take this range: a key holds a NUL byte, \
             and no command-line argument can hold one; POST the JSON below to /v3/kv/range\n",
        ),
        Some(args) => {
            out.push_str("etcdctl get");
            if b.end.is_none() {
                out.push_str(" --from-key");
            }
            if let Some(limit) = o.limit {
                let _ = write!(out, " --limit={limit}");
            }
            if o.reversed {
                out.push_str(" --order=DESCEND --sort-by=KEY");
            }
            if args.iter().any(|a| a.first() == Some(&b'-')) {
                out.push_str(" --");
            }
            for a in args {
                out.push(' ');
                // No NUL here (checked above), so quoting cannot fail.
                out.push_str(&shell_quote(a).unwrap_or_default());
            }
            out.push('\n');
        }
    }
    // Line 2: the JSON gateway body.
    let _ = write!(
        out,
        "{{\"key\":\"{}\",\"range_end\":\"{}\"",
        base64(b.start.unwrap_or(b"\0")),
        base64(b.end.unwrap_or(b"\0"))
    );
    if let Some(limit) = o.limit {
        let _ = write!(out, ",\"limit\":\"{limit}\"");
    }
    if o.reversed {
        out.push_str(",\"sort_order\":\"DESCEND\",\"sort_target\":\"KEY\"");
    }
    out.push_str("}\n");
    Ok(())
}
