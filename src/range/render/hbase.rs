//! [`Dialect::Hbase`]: one `hbase shell` `scan` command, keys and the table
//! name as Ruby string literals (the shell is JRuby), the prefix filter a
//! `PrefixFilter` or a `ParseFilter` of exact bytes.

use crate::bytes::push_x_escape;
use std::fmt::Write as _;

use super::{is_printable, name, Bounds, RenderError, RenderOptions};

/// `bytes` as a Ruby string literal (the hbase shell is JRuby) that
/// evaluates to exactly these bytes.
///
/// Single-quoted when every byte is printable ASCII (`0x20–0x7E`) and there
/// is no `'` or `\`. Otherwise double-quoted: printable ASCII as itself,
/// except `"` → `\"`, `\` → `\\` and `#` → `\#` (so `#{`, `#$`, `#@` never
/// interpolate); every other byte as `\xNN`. The result is printable ASCII.
///
/// ```
/// use lexikey::range::render::ruby_literal;
/// assert_eq!(ruby_literal(b"usa#ca"), "'usa#ca'");
/// assert_eq!(ruby_literal(b"it's #{x}\x00\xff"), r#""it's \#{x}\x00\xFF""#);
/// ```
pub fn ruby_literal(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 2);
    ruby_into(bytes, &mut s);
    s
}

pub(super) fn ruby_into(bytes: &[u8], out: &mut String) {
    if bytes
        .iter()
        .all(|&b| is_printable(b) && b != b'\'' && b != b'\\')
    {
        out.push('\'');
        out.extend(bytes.iter().map(|&b| b as char));
        out.push('\'');
        return;
    }
    out.push('"');
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'#' => out.push_str("\\#"),
            _ if is_printable(b) => out.push(b as char),
            _ => push_x_escape(b, out),
        }
    }
    out.push('"');
}

/// The Java call that turns a filter-language string's bytes into a Filter
/// object in the hbase shell (see [`Dialect::Hbase`], "Filters with bytes
/// that are not UTF-8").
///
/// Facts (apache/hbase, `hbase-shell/src/main/ruby/hbase/table.rb`):
/// - A `FILTER => String` is parsed by
///   `ParseFilter.new.parseFilterString(filter)` — the `String` overload,
///   so JRuby first decodes the Ruby string into a `java.lang.String` as
///   UTF-8, with U+FFFD for bytes that are not UTF-8, and `ParseFilter`
///   re-encodes it with `Bytes.toBytes` — in every release before
///   HBASE-15032: 0.94.x, 0.96.x, 0.98.0–0.98.16.1, 1.0.x, 1.1.x.
/// - HBASE-15032 ("hbase shell scan filter string assumes UTF-8 encoding",
///   commits e15c48ed2cf on master and a6eea24f711 on branch-1 (2015-12-24),
///   ae1fc1d5cda on branch-1.2, b32568a8aec on 0.98 (2016-01-04)) passes
///   `filter.to_java_bytes` instead: 0.98.17+, 1.2.0+, 1.3.0+, 2.x, 3.x.
/// - A FILTER that is not a `String` goes to `scan.setFilter(filter)`
///   unchanged in every release, and `ParseFilter#parseFilterString(byte[])`
///   is public in every release (0.94.27 on), so this call is exact in all.
const HBASE_PARSE_FILTER: &str = "org.apache.hadoop.hbase.filter.ParseFilter.new.parseFilterString";

/// A byte-string argument of HBase's filter language: `'…'` with `'` doubled.
fn filter_arg(bytes: &[u8], out: &mut Vec<u8>) {
    out.push(b'\'');
    for &b in bytes {
        if b == b'\'' {
            out.push(b'\'');
        }
        out.push(b);
    }
    out.push(b'\'');
}

/// `key` without its last byte when that byte is `00` (and something is
/// left): the largest key smaller than `key`.
fn strip_trailing_zero(key: &[u8]) -> Option<&[u8]> {
    match key.split_last() {
        Some((0, rest)) if !rest.is_empty() => Some(rest),
        _ => None,
    }
}

pub(super) fn hbase(
    b: &Bounds<'_>,
    o: &RenderOptions,
    out: &mut String,
) -> Result<(), RenderError> {
    let table = name(&o.table, "t", "table")?;
    out.push_str("scan ");
    ruby_into(table.as_bytes(), out);

    let mut opts: Vec<(&str, String)> = Vec::new();
    if !o.reversed {
        if let Some(start) = b.start {
            opts.push(("STARTROW", ruby_literal(start)));
        }
        if let Some(end) = b.end {
            opts.push(("STOPROW", ruby_literal(end)));
        }
    } else {
        // A reversed scan starts at STARTROW (inclusive, the larger key) and
        // stops before STOPROW (exclusive). See `Dialect::Hbase`.
        let mut filters: Vec<Vec<u8>> = Vec::new();
        if let Some(end) = b.end {
            match strip_trailing_zero(end) {
                Some(below) => opts.push(("STARTROW", ruby_literal(below))),
                None => {
                    opts.push(("STARTROW", ruby_literal(end)));
                    let mut f = b"RowFilter(<, ".to_vec();
                    filter_arg(&[b"binary:", end].concat(), &mut f);
                    f.push(b')');
                    filters.push(f);
                }
            }
        }
        if let Some(start) = b.start {
            match strip_trailing_zero(start) {
                Some(below) => opts.push(("STOPROW", ruby_literal(below))),
                None => {
                    let mut f = b"InclusiveStopFilter(".to_vec();
                    filter_arg(start, &mut f);
                    f.push(b')');
                    filters.push(f);
                }
            }
        }
        if !filters.is_empty() {
            let filter = filters.join(&b" AND "[..]);
            let literal = ruby_literal(&filter);
            if std::str::from_utf8(&filter).is_ok() {
                opts.push(("FILTER", literal));
            } else {
                // Not valid UTF-8: a FILTER *string* would be decoded into a
                // Java String by the shells before HBASE-15032, turning
                // these bytes into U+FFFD. A Filter object parsed from the
                // string's own bytes is exact in every shell.
                opts.push((
                    "FILTER",
                    format!("{HBASE_PARSE_FILTER}({literal}.to_java_bytes)"),
                ));
            }
        }
    }
    if let Some(limit) = o.limit {
        opts.push(("LIMIT", limit.to_string()));
    }
    if o.reversed {
        opts.push(("REVERSED", "true".to_string()));
    }
    if !opts.is_empty() {
        out.push_str(", {");
        for (i, (k, v)) in opts.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "{k} => {v}");
        }
        out.push('}');
    }
    out.push('\n');
    Ok(())
}
