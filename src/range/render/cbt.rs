//! [`Dialect::Cbt`]: one Bigtable `cbt read` command line (bash quoting),
//! `prefix=` when the range is exactly a prefix's.

use std::fmt::Write as _;

use super::{name, shell_quote, Bounds, Dialect, RenderError, RenderOptions};

/// A name as one bash word: bare when it is made of `A-Z a-z 0-9 _ . - :`
/// (Bigtable's table, project and instance names are), else quoted.
pub(super) fn shell_word(name: &str) -> String {
    if !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b':'))
    {
        name.to_string()
    } else {
        // Names hold no NUL (checked by `name`), so quoting cannot fail.
        shell_quote(name.as_bytes()).unwrap_or_default()
    }
}

/// Bigtable's limit on a row key, in bytes.
const BIGTABLE_MAX_KEY: usize = 4096;

pub(super) fn cbt(b: &Bounds<'_>, o: &RenderOptions, out: &mut String) -> Result<(), RenderError> {
    for (side, key) in b.sides() {
        if let Some(len) = key.map(<[u8]>::len).filter(|&n| n > BIGTABLE_MAX_KEY) {
            return Err(RenderError::KeyTooLong {
                dialect: Dialect::Cbt,
                side,
                len,
                max: BIGTABLE_MAX_KEY,
            });
        }
        if let Some(offset) = key.and_then(|k| k.iter().position(|&c| c == 0)) {
            return Err(RenderError::NulArgument {
                dialect: Dialect::Cbt,
                side,
                offset,
            });
        }
    }
    let table = name(&o.table, "t", "table")?;
    out.push_str("cbt");
    if o.project.is_some() {
        let _ = write!(
            out,
            " -project {}",
            shell_word(name(&o.project, "", "project")?)
        );
    }
    if o.instance.is_some() {
        let _ = write!(
            out,
            " -instance {}",
            shell_word(name(&o.instance, "", "instance")?)
        );
    }
    let _ = write!(out, " read {}", shell_word(table));
    let mut arg = |what: &str, key: &[u8]| {
        let _ = write!(out, " {what}=");
        // No NUL here (checked above), so quoting cannot fail.
        out.push_str(&shell_quote(key).unwrap_or_default());
    };
    match (b.start, b.end) {
        // cbt's prefix= is [P, the prefix end of P): exact, trailing 0xFF
        // bytes dropped before the increment (and no end for all-0xFF P).
        (Some(p), end) if end == crate::range::prefix_end(p).as_deref() => arg("prefix", p),
        (start, end) => {
            if let Some(s) = start {
                arg("start", s);
            }
            if let Some(e) = end {
                arg("end", e);
            }
        }
    }
    if let Some(limit) = o.limit {
        let _ = write!(out, " count={limit}");
    }
    if o.reversed {
        out.push_str(" reversed=true");
    }
    out.push('\n');
    Ok(())
}
