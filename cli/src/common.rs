//! Helpers shared by the subcommands: key and
//! value output (text and JSON), and the streaming line reader of bulk mode.

use std::borrow::Cow;
use std::io::{BufRead, Write};

use anyhow::{anyhow, bail, Context, Result};
use lexikey::{value::literal, Component, Format, Value};

/// Bulk output is written to standard output whenever this many bytes are
/// pending.
pub(crate) const FLUSH_AT: usize = 1 << 16;

/// The `--max-key-len N` option: the longest key accepted, in bytes.
/// Default: HBase's row-key limit, 32,767 ([`lexikey::tuple::HBASE_MAX_KEY_LEN`]);
/// Cassandra users may raise it to 65,535.
///
/// (`args` checks that it is positive.)
pub(crate) fn max_key_len(given: Option<usize>) -> usize {
    given.unwrap_or(lexikey::tuple::HBASE_MAX_KEY_LEN)
}

/// Appends lowercase hex of `bytes` (how binary keys are printed):
/// [`lexikey::value::literal::push_hex`], the buffer grown once and one 2-byte
/// table load per byte.
#[inline]
pub(crate) fn push_hex(bytes: &[u8], out: &mut Vec<u8>) {
    lexikey::value::literal::push_hex(bytes, out);
}

/// Reads a binary key given as text into `buf`: hex, `0x` hex or HBase's
/// `Bytes.toStringBinary` form ([`lexikey::value::literal::decode_binary_key`]);
/// `what` names the key in messages (`binary`, `fdb-tuple`, ...).
///
/// # Errors
/// One line naming the key, what is wrong and where, and the forms taken.
pub(crate) fn binary_key(raw: &[u8], what: &str, buf: &mut Vec<u8>) -> Result<()> {
    use lexikey::value::literal::BinaryKeyError as E;
    buf.clear();
    lexikey::value::literal::decode_binary_key(raw, buf).map_err(|e| {
        let keys = if what == "binary" {
            "binary keys"
        } else {
            "keys"
        };
        let why = match e {
            E::OddDigits { len } => {
                format!("{keys} are given as hex, and this has an odd number of digits ({len})")
            }
            E::BadDigit { at } => format!("{keys} are given as hex, bad digit at character {at}"),
            E::BadEscape { at } => format!(
                "in the Bytes.toStringBinary form, character {at} is neither printable ASCII \
                 nor the start of a \\xNN escape"
            ),
        };
        anyhow!(
            "invalid {what} key {}: {why} ({})",
            lexikey::show_key(raw),
            E::FORMS
        )
    })
}

/// Appends a key as the CLI prints it: text keys as they are, binary keys as
/// lowercase hex.
#[inline]
pub(crate) fn push_key(format: Format, key: &[u8], out: &mut Vec<u8>) {
    if format.is_text() {
        out.extend_from_slice(key);
    } else {
        push_hex(key, out);
    }
}

/// Appends `{"key":"…"}` for a key (binary keys as lowercase hex).
pub(crate) fn push_key_json(format: Format, key: &[u8], out: &mut Vec<u8>) -> Result<()> {
    out.extend_from_slice(b"{\"key\":");
    push_key_string_json(format, key, out)?;
    out.push(b'}');
    Ok(())
}

/// Appends a key as a JSON string (binary keys as lowercase hex).
pub(crate) fn push_key_string_json(format: Format, key: &[u8], out: &mut Vec<u8>) -> Result<()> {
    if format.is_text() {
        let s = std::str::from_utf8(key).map_err(|e| {
            anyhow!(
                "internal error: text key is not UTF-8 at byte {}",
                e.valid_up_to()
            )
        })?;
        push_json_str(s, out);
    } else {
        out.push(b'"');
        push_hex(key, out);
        out.push(b'"');
    }
    Ok(())
}

/// Appends `s` as a JSON string literal: `"` and `\` escaped, control
/// characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`; DEL, the C1
/// controls and the bidirectional formatting characters (U+061C, U+200E,
/// U+200F, U+202A–U+202E, U+2066–U+2069) as `\uXXXX`, so that what a
/// terminal shows is what the string holds; everything else (including
/// other non-ASCII) as it is.
pub(crate) fn push_json_str(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let short: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0C => b"\\f",
            0x00..=0x1F | 0x7F => b"",
            0xC2 | 0xD8 | 0xE2 => {
                // A hidden character: its UTF-8 length, or 0.
                let n = match (b, bytes.get(i + 1), bytes.get(i + 2)) {
                    (0xC2, Some(0x80..=0x9F), _) | (0xD8, Some(0x9C), _) => 2,
                    (0xE2, Some(0x80), Some(0x8E | 0x8F | 0xAA..=0xAE))
                    | (0xE2, Some(0x81), Some(0xA6..=0xA9)) => 3,
                    _ => 0,
                };
                if n == 0 {
                    i += 1;
                    continue;
                }
                out.extend_from_slice(&bytes[start..i]);
                let c = s[i..i + n].chars().next().map_or(0, u32::from);
                out.extend_from_slice(format!("\\u{c:04x}").as_bytes());
                i += n;
                start = i;
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        };
        out.extend_from_slice(&bytes[start..i]);
        if short.is_empty() {
            out.extend_from_slice(b"\\u00");
            push_hex(&[b], out);
        } else {
            out.extend_from_slice(short);
        }
        i += 1;
        start = i;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Appends a value as JSON: integers as JSON numbers (exact decimal digits),
/// finite floats as numbers (shortest round-trip form), NaN and infinities
/// as the strings `"NaN"`, `"inf"`, `"-inf"`, booleans as `true`/`false`,
/// strings as strings, and bytes (lowercase hex), timestamps (RFC 3339),
/// UUIDs (hyphenated) and decimals (`dec`: plain notation, exact — a JSON
/// number would be rounded to a double by most parsers) as strings in their
/// `TYPE:VALUE` text form.
pub(crate) fn push_value_json(v: &Value<'_>, scratch: &mut String, out: &mut Vec<u8>) {
    scratch.clear();
    match v {
        Value::Str(s) => push_json_str(s, out),
        Value::Null(_) => out.extend_from_slice(b"null"),
        Value::List(_, items) => {
            // A JSON array of the elements, each as a value of its own.
            out.push(b'[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                push_value_json(v, scratch, out);
            }
            out.push(b']');
        }
        Value::I64(_) | Value::U64(_) | Value::I32(_) | Value::U32(_) | Value::Bool(_) => {
            literal::write_value(v, scratch);
            out.extend_from_slice(scratch.as_bytes());
        }
        Value::F64(x) if x.is_finite() => {
            literal::write_value(v, scratch);
            out.extend_from_slice(scratch.as_bytes());
        }
        Value::F32(x) if x.is_finite() => {
            literal::write_value(v, scratch);
            out.extend_from_slice(scratch.as_bytes());
        }
        _ => {
            literal::write_value(v, scratch);
            push_json_str(scratch, out);
        }
    }
}

/// Appends `{"type":"…","dir":"asc|desc","value":…}` for a component.
pub(crate) fn push_component_json(c: &Component<'_>, scratch: &mut String, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"type\":\"");
    scratch.clear();
    let _ = lexikey::value::write_type_name(c.value.ty(), c.list, scratch);
    out.extend_from_slice(scratch.as_bytes());
    out.extend_from_slice(if c.dir.is_desc() {
        b"\",\"dir\":\"desc\",\"value\":"
    } else {
        b"\",\"dir\":\"asc\",\"value\":"
    });
    push_value_json(&c.value, scratch, out);
    match c.nulls {
        Some(lexikey::Nulls::First) => out.extend_from_slice(b",\"nulls\":\"first\""),
        Some(lexikey::Nulls::Last) => out.extend_from_slice(b",\"nulls\":\"last\""),
        None => {}
    }
    out.push(b'}');
}

/// Appends `{"components":[…]}`.
pub(crate) fn push_components_json(cs: &[Component<'_>], scratch: &mut String, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"components\":[");
    for (i, c) in cs.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_component_json(c, scratch, out);
    }
    out.extend_from_slice(b"]}");
}

/// Appends a component as `TYPE[.desc]:VALUE` (what `encode` reads back).
///
/// # Errors
/// When the value contains a byte in `forbidden` (a newline, or in bulk
/// output a tab), which the line-oriented text output cannot hold: the
/// message points to `--json`.
pub(crate) fn push_component_text(
    c: &Component<'_>,
    forbidden: &[u8],
    scratch: &mut String,
    out: &mut Vec<u8>,
) -> Result<()> {
    let f = c.field();
    scratch.clear();
    let _ = lexikey::value::write_type_name(f.ty, f.list, scratch);
    out.extend_from_slice(scratch.as_bytes());
    if f.nulls.is_some() {
        // A nullable component: `TYPE?[.desc][.nulls_last]`, a null
        // with no `:VALUE` (what `encode` reads back as the null).
        scratch.clear();
        let _ = lexikey::value::write_suffix(f.dir, f.nulls, scratch);
        out.extend_from_slice(scratch.as_bytes());
        if c.is_null() {
            return Ok(());
        }
    } else if f.dir.is_desc() {
        out.extend_from_slice(b".desc");
    }
    out.push(b':');
    if let Value::Str(s) = &c.value {
        if let Some(b) = s.bytes().find(|b| forbidden.contains(b)) {
            bail!(
                "a str component holds {}, which the line-oriented text output cannot show: \
                 use --json",
                if b == b'\n' { "a newline" } else { "a tab" }
            );
        }
        out.extend_from_slice(s.as_bytes());
    } else {
        scratch.clear();
        literal::write_value(&c.value, scratch);
        if let Some(b) = scratch.bytes().find(|b| forbidden.contains(b)) {
            bail!(
                "a list component holds {}, which the line-oriented text output cannot show: \
                 use --json",
                if b == b'\n' { "a newline" } else { "a tab" }
            );
        }
        out.extend_from_slice(scratch.as_bytes());
    }
    Ok(())
}

/// [`strip_type`] for `decode --values`, leaving the cell `encode --stdin`
/// reads back: a nullable component's null is `\N`, and a present value
/// whose text is backslashes and `N` gets one backslash more
/// ([`lexikey::frontend::native::nullable_cell`]).
pub(crate) fn value_cell(c: &Component<'_>, out: &mut Vec<u8>, start: usize) {
    use lexikey::frontend::native::{nullable_cell_escaped, NULL_CELL};
    strip_type(out, start);
    if c.nulls.is_none() {
        return;
    }
    if c.is_null() {
        out.truncate(start);
        out.extend_from_slice(NULL_CELL.as_bytes());
    } else if std::str::from_utf8(&out[start..]).is_ok_and(nullable_cell_escaped) {
        out.insert(start, b'\\');
    }
}

/// Removes the `TYPE[.desc]:` of the component text written at
/// `out[start..]`, leaving its value (`--values`).
pub(crate) fn strip_type(out: &mut Vec<u8>, start: usize) {
    // A type name holds no ':'; a bare type (a null) is all type.
    let end = out[start..]
        .iter()
        .position(|&b| b == b':')
        .map_or(out.len(), |i| start + i + 1);
    out.drain(start..end);
}

/// The bytes of an argument (raw bytes on Unix, so that invalid UTF-8
/// reaches the decoder and is reported with its offset).
pub(crate) fn os_bytes(s: &std::ffi::OsStr) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(s.as_bytes())
    }
    #[cfg(not(unix))]
    {
        match s.to_string_lossy() {
            Cow::Borrowed(b) => Cow::Borrowed(b.as_bytes()),
            Cow::Owned(o) => Cow::Owned(o.into_bytes()),
        }
    }
}

/// Calls `f(line_number, line)` for every line of `r` (1-based; the line
/// without its `\n`; a last line without `\n` counts). Lines are split on
/// `\n` only: a `\r` before it is part of the line. Lines are borrowed
/// from the reader's buffer when they fit in it (no copy).
///
/// # Errors
/// The first error of `f`, or a read error.
pub(crate) fn for_each_line(
    r: &mut dyn BufRead,
    mut f: impl FnMut(u64, &[u8]) -> Result<()>,
) -> Result<()> {
    let mut lineno = 0u64;
    for_each_chunk(r, |chunk| for_each_line_of(chunk, &mut lineno, &mut f))
}

/// Calls `f(chunk)` for the lines of `r` a chunk at a time: each chunk is
/// one or more whole lines joined by `\n` (the last without its `\n`),
/// borrowed from the reader's buffer when they fit in it; the lines of all
/// chunks in order are [`for_each_line`]'s (split them with
/// [`for_each_line_of`]). What is borrowed from one chunk lives for all
/// its lines, so a caller can reuse one buffer of borrows a chunk.
///
/// # Errors
/// The first error of `f`, or a read error.
pub(crate) fn for_each_chunk(
    r: &mut dyn BufRead,
    mut f: impl FnMut(&[u8]) -> Result<()>,
) -> Result<()> {
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context("cannot read standard input"),
        };
        if buf.is_empty() {
            if !carry.is_empty() {
                f(&carry)?;
            }
            return Ok(());
        }
        let n = buf.len();
        let Some(last) = memchr::memrchr(b'\n', buf) else {
            carry.extend_from_slice(buf);
            r.consume(n);
            continue;
        };
        let mut pos = 0;
        if !carry.is_empty() {
            // The line begun in an earlier buffer ends at the first `\n`.
            let i = memchr::memchr(b'\n', &buf[..last]).unwrap_or(last);
            carry.extend_from_slice(&buf[..i]);
            f(&carry)?;
            carry.clear();
            pos = i + 1;
        }
        if pos <= last {
            f(&buf[pos..last])?;
        }
        carry.extend_from_slice(&buf[last + 1..]);
        r.consume(n);
    }
}

/// Calls `f(line_number, line)` for each line of a chunk of
/// [`for_each_chunk`], `lineno` the number of the line before it (counted
/// on).
///
/// # Errors
/// The first error of `f`.
#[inline(always)]
pub(crate) fn for_each_line_of<'c>(
    chunk: &'c [u8],
    lineno: &mut u64,
    mut f: impl FnMut(u64, &'c [u8]) -> Result<()>,
) -> Result<()> {
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', chunk) {
        *lineno += 1;
        f(*lineno, &chunk[start..end])?;
        start = end + 1;
    }
    *lineno += 1;
    f(*lineno, &chunk[start..])
}

/// Writes `out` to `w` and clears it when it holds at least [`FLUSH_AT`] bytes.
///
/// # Errors
/// A write error.
#[inline]
pub(crate) fn maybe_flush(w: &mut dyn Write, out: &mut Vec<u8>) -> Result<()> {
    if out.len() >= FLUSH_AT {
        w.write_all(out)?;
        out.clear();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Lines across buffer ends (a reader of `cap` bytes a fill), counted
    /// from 1, the last without its `\n`, and by chunk.
    #[test]
    fn lines_and_chunks_across_buffers() {
        let input = b"ab\n\ncdefgh\r\nij\nklmnopqrstu\nv";
        let want: Vec<(u64, &[u8])> = vec![
            (1, b"ab"),
            (2, b""),
            (3, b"cdefgh\r"),
            (4, b"ij"),
            (5, b"klmnopqrstu"),
            (6, b"v"),
        ];
        for cap in 1..=input.len() + 1 {
            let mut r = std::io::BufReader::with_capacity(cap, &input[..]);
            let mut got = Vec::new();
            super::for_each_line(&mut r, |n, l| {
                got.push((n, l.to_vec()));
                Ok(())
            })
            .unwrap();
            let got: Vec<(u64, &[u8])> = got.iter().map(|(n, l)| (*n, l.as_slice())).collect();
            assert_eq!(got, want, "buffer of {cap}");
            let mut r = std::io::BufReader::with_capacity(cap, &input[..]);
            let mut lines = 0;
            super::for_each_chunk(&mut r, |c| {
                super::for_each_line_of(c, &mut lines, |n, l| {
                    assert_eq!(want[n as usize - 1].1, l);
                    Ok(())
                })
            })
            .unwrap();
            assert_eq!(lines, 6);
        }
        // A final `\n` ends the last line; an error stops the lines.
        let mut seen = 0;
        let err = super::for_each_line(&mut &b"a\nb\nc\n"[..], |n, _| {
            seen = n;
            anyhow::ensure!(n < 2, "stop");
            Ok(())
        });
        assert!(err.is_err());
        assert_eq!(seen, 2);
        let mut n = 0;
        super::for_each_line(&mut &b"a\nb\n"[..], |_, _| {
            n += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(n, 2);
    }

    #[test]
    fn json_strings_escape_controls_and_hidden_characters() {
        let mut out = Vec::new();
        super::push_json_str(
            "a\"\\\n\u{1}é\u{202E}\u{85}\u{7F}\u{2069}\u{2070}",
            &mut out,
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"a\\\"\\\\\\n\\u0001é\\u202e\\u0085\\u007f\\u2069\u{2070}\""
        );
    }
}
