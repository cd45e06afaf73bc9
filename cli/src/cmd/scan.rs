//! `lexikey scan`: the rows of an upside-down table, newest first.

use anyhow::{anyhow, Result};

use crate::args::ScanArgs;
use crate::progress::Progress;
use crate::Io;

/// Help text.
pub const USAGE: &str = "\
Usage:
  lexikey scan --store URL --table NAME [--limit N] [--format F] [--quiet]

Prints the rows of the upside-down table NAME (written by 'lexikey alloc'), newest
(smallest ID) first, one per line: the ID in decimal, a TAB, the value. The scan is
a plain forward scan of the table's key range; with --limit N it stops after N rows
(default: every row).

Values are printed as text: valid UTF-8 as it is, except that a backslash is
written \\\\, tab \\t, newline \\n, carriage return \\r, and every other control
character and every byte that is not valid UTF-8 as \\xNN. So each row is one line.
--store and --format as in 'lexikey alloc'. The table is read 10,000 rows at a time;
on a terminal, stderr shows the rows so far and rows/s (--quiet: not).
";

/// Runs `lexikey scan`.
///
/// # Errors
/// Usage errors, store errors, a key in the table's range that is not a row.
pub fn run(args: &ScanArgs, io: &mut Io<'_>) -> Result<()> {
    let limit = args.limit.unwrap_or(usize::MAX);
    if let Some(first) = args.rest.first() {
        return Err(anyhow!(
            "scan takes no positional arguments (got {first:?})"
        ));
    }
    let alloc = super::alloc::table_allocator(&args.table, false)?;
    let progress = Progress::counter("rows", args.quiet);
    let store = alloc.store();
    let end = alloc.range().end.clone();
    let mut start = alloc.range().start.clone();
    let mut done = 0usize;
    let mut out = Vec::with_capacity(1 << 16);
    // Page by page, so that a large table shows progress and is written
    // as it is read; each page starts just after the last key of the one
    // before.
    while done < limit {
        let page = (limit - done).min(SCAN_PAGE);
        let range = lexikey::KeyRange {
            start: start.clone(),
            end: end.clone(),
        };
        let rows = store.scan(&range, page)?;
        let full = rows.len() == page;
        for (key, value) in &rows {
            let id = alloc.decode_id(key)?;
            out.extend_from_slice(id.to_string().as_bytes());
            out.push(b'\t');
            push_escaped_value(value, &mut out);
            out.push(b'\n');
        }
        done += rows.len();
        progress.set(done as u64);
        io.stdout.write_all(&out)?;
        out.clear();
        match rows.last() {
            Some((k, _)) if full => {
                let mut next = k.clone();
                next.push(0);
                start = Some(next);
            }
            _ => break,
        }
    }
    Ok(())
}

/// Rows read from the store at a time.
const SCAN_PAGE: usize = 10_000;

/// Appends a stored value as one line of text (see the help text).
///
/// ```
/// let mut out = Vec::new();
/// lexikey_cli::cmd::scan::push_escaped_value(b"caf\xC3\xA9\t\\\x00\xFF", &mut out);
/// assert_eq!(String::from_utf8(out).unwrap(), r"café\t\\\x00\xFF");
/// ```
pub fn push_escaped_value(value: &[u8], out: &mut Vec<u8>) {
    let mut rest = value;
    while !rest.is_empty() {
        let (valid, bad) = match std::str::from_utf8(rest) {
            Ok(s) => (s, &rest[rest.len()..]),
            Err(e) => {
                let (v, b) = rest.split_at(e.valid_up_to());
                // `v` is valid UTF-8 by construction.
                (std::str::from_utf8(v).unwrap_or_default(), b)
            }
        };
        for c in valid.chars() {
            match c {
                '\\' => out.extend_from_slice(b"\\\\"),
                '\t' => out.extend_from_slice(b"\\t"),
                '\n' => out.extend_from_slice(b"\\n"),
                '\r' => out.extend_from_slice(b"\\r"),
                c if (c as u32) < 0x20 || c as u32 == 0x7F => {
                    out.extend_from_slice(format!("\\x{:02X}", c as u32).as_bytes());
                }
                c => {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        if let Some((&b, tail)) = bad.split_first() {
            out.extend_from_slice(format!("\\x{b:02X}").as_bytes());
            rest = tail;
        } else {
            rest = bad;
        }
    }
}
