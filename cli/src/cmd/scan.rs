//! `lexikey scan`: the rows of an upside-down table, newest first (salted:
//! the buckets merged, `lexikey::store::alloc::Allocator::scan_after`).
//! With `--limit N`, a full page ends with `next: TOKEN` on stderr when
//! rows follow; `--after TOKEN` reads the next page (the cursor is
//! `lexikey_design::cursor`'s: `scan_cursor`, `scan_resume`).

use anyhow::{anyhow, Result};
use lexikey_design::cursor::{scan_cursor, scan_resume};
use lexikey_stores::{KeyLimit, TableOptions};

use crate::args::ScanArgs;
use crate::progress::Progress;
use crate::Io;

/// Runs `lexikey scan`.
///
/// # Errors
/// Usage errors, store errors, a key in the table's range that is not a row.
pub(crate) fn run(args: &ScanArgs, io: &mut Io<'_>) -> Result<()> {
    let limit = args.limit.unwrap_or(usize::MAX);
    if let Some(first) = args.rest.first() {
        return Err(anyhow!(
            "scan takes no positional arguments (got {first:?})"
        ));
    }
    // A reader writes nothing: no key length check.
    let options = TableOptions::default()
        .with_key_limit(KeyLimit::Unchecked)
        .with_existing_only(true);
    let alloc = super::alloc::table_allocator(&args.table, options)?;
    let secret = args.secret.as_deref().map(str::as_bytes);
    let mut after = match &args.after {
        Some(token) => scan_resume(&alloc, token, secret).map_err(|e| anyhow!("--after: {e}"))?,
        None => None,
    };
    let progress = Progress::counter("rows", args.quiet);
    let mut done = 0usize;
    let mut out = Vec::with_capacity(1 << 16);
    // Page by page, so that a large table shows progress and is written
    // as it is read; each page starts after the last ID of the one before
    // (burned IDs, tombstones, are no rows: the allocator passes them).
    while done < limit {
        let page = (limit - done).min(SCAN_PAGE);
        let rows = alloc.scan_after(after, page)?;
        let full = rows.len() == page;
        for (id, value) in &rows {
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
            Some((id, _)) if full => after = Some(*id),
            _ => {
                after = None;
                break;
            }
        }
    }
    drop(progress);
    // A full page (`--limit N` rows read): `next: TOKEN` when the table
    // holds a row after it (one more row read to know).
    if let (Some(last), true) = (after, args.limit.is_some_and(|n| n > 0 && done == n)) {
        if !alloc.scan_after(Some(last), 1)?.is_empty() {
            let token = scan_cursor(&alloc, last)
                .map_err(|e| anyhow!("{e}"))?
                .to_token(secret);
            io.stdout.flush()?;
            eprintln!("next: {token}");
        }
    }
    Ok(())
}

/// Rows read from the store at a time.
const SCAN_PAGE: usize = 10_000;

/// Appends a stored value as one line of text (see the help text).
pub(crate) fn push_escaped_value(value: &[u8], out: &mut Vec<u8>) {
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

#[cfg(test)]
mod tests {
    #[test]
    fn values_print_as_one_line() {
        let mut out = Vec::new();
        super::push_escaped_value(b"caf\xC3\xA9\t\\\x00\xFF", &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), r"café\t\\\x00\xFF");
    }
}
