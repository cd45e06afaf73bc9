//! Entry points without an argument vector, for bindings (the Python
//! package `lexikey`): the commands' own parsing, checks and messages, with
//! the key returned as bytes instead of printed.
//!
//! [`encode`] and [`range`] run the very `encode` and `range` commands
//! ([`crate::run`]) on an argument vector built from typed options (values
//! as `--name=VALUE`, components after `--`, so every value is taken
//! verbatim) and read their output back: text keys as printed, binary and
//! interop keys from their lowercase hex. So a binding accepts exactly the
//! components, types and formats the command line does, and refuses what it
//! refuses with the same message.
//!
//! ```
//! use lexikey_cli::api::{encode, range, KeyOptions};
//! let o = KeyOptions::new("hex");
//! assert_eq!(encode(&o, &["str:population", "i64:3831868"])?, b"population#l80000000003A783C");
//! let preds = [("ge", "i64:1000000".to_string())];
//! let r = range(&o, &["str:population"], &preds)?;
//! assert_eq!(r[0].start.as_deref(), Some(&b"population#l80000000000F4240"[..]));
//! assert_eq!(r[0].end.as_deref(), Some(&b"population$"[..]));
//! let fdb = KeyOptions::new("fdb-tuple");
//! assert_eq!(encode(&fdb, &["str:users", "int:42"])?, b"\x02users\x00\x15\x2a");
//! # Ok::<(), anyhow::Error>(())
//! ```

use std::ffi::OsString;

use anyhow::{anyhow, bail, Result};
use lexikey::{Format, KeyRange};

use crate::interop::Profile;
use crate::Io;

/// The key options of a call: the command line's `--format`, `--width` and
/// `--salt-buckets`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyOptions {
    /// `--format`: `hex`, `base64`, `decimal`, `binary`, `fdb-tuple`,
    /// `hbase-ordered` or `phoenix`.
    pub format: String,
    /// `--width N` (decimal only).
    pub width: Option<u8>,
    /// `--salt-buckets N`.
    pub salt_buckets: Option<u32>,
}

impl KeyOptions {
    /// Options with `format` and nothing else.
    pub fn new(format: impl Into<String>) -> KeyOptions {
        KeyOptions {
            format: format.into(),
            width: None,
            salt_buckets: None,
        }
    }

    /// Whether keys of this format are text (`hex`, `base64`, `decimal`):
    /// `None` for an unknown format name.
    pub fn is_text(&self) -> Option<bool> {
        if Profile::parse(&self.format).is_some() {
            return Some(false);
        }
        Format::parse(&self.format).ok().map(Format::is_text)
    }

    fn argv(&self, command: &str) -> Vec<OsString> {
        let mut argv = vec![
            OsString::from(command),
            OsString::from(format!("--format={}", self.format)),
        ];
        if let Some(w) = self.width {
            argv.push(format!("--width={w}").into());
        }
        if let Some(n) = self.salt_buckets {
            argv.push(format!("--salt-buckets={n}").into());
        }
        argv
    }

    /// Parses a printed key: text as it is, binary keys from hex.
    fn key(&self, line: &[u8]) -> Result<Vec<u8>> {
        if self.is_text() == Some(true) {
            return Ok(line.to_vec());
        }
        unhex(line)
    }
}

/// Runs one command on `argv`, returning its standard output.
fn run(argv: &[OsString]) -> Result<Vec<u8>> {
    let mut stdin: &[u8] = &[];
    let mut stdout = Vec::new();
    let mut io = Io {
        stdin: &mut stdin,
        stdout: &mut stdout,
    };
    crate::run(argv, &mut io)?;
    Ok(stdout)
}

fn unhex(text: &[u8]) -> Result<Vec<u8>> {
    let text = std::str::from_utf8(text)?;
    lexikey::input::parse_hex(text).map_err(|e| anyhow!("internal error: {e}"))
}

/// The key of the tuple of `components` (`TYPE[.desc]:VALUE`, as `lexikey
/// encode` takes them): the bytes `lexikey encode` prints (binary and
/// interop keys as bytes, not hex).
///
/// # Errors
/// Whatever `lexikey encode` refuses, with its message.
pub fn encode(o: &KeyOptions, components: &[&str]) -> Result<Vec<u8>> {
    encode_with(o, &[], components)
}

/// [`encode`] with more of the command's options, each one argument as
/// written on the command line (`"--hbase-numeric=legacy"`, `"--round"`).
///
/// # Errors
/// As [`encode`].
pub fn encode_with(o: &KeyOptions, options: &[&str], components: &[&str]) -> Result<Vec<u8>> {
    let mut argv = o.argv("encode");
    argv.extend(options.iter().map(OsString::from));
    argv.push("--".into());
    argv.extend(components.iter().map(OsString::from));
    let out = run(&argv)?;
    let line = out.strip_suffix(b"\n").unwrap_or(&out);
    o.key(line)
}

/// The ranges `lexikey range` computes for `prefix` components and
/// predicates `(name, component)`, `name` one of `ge`, `gt`, `le`, `lt`,
/// `eq` (a component) or `prefix` (a string): one range, or one per salt
/// bucket with `salt_buckets`.
///
/// # Errors
/// Whatever `lexikey range` refuses, with its message (an empty range is
/// "no key can match …").
pub fn range(o: &KeyOptions, prefix: &[&str], preds: &[(&str, String)]) -> Result<Vec<KeyRange>> {
    range_with(o, &[], prefix, preds)
}

/// [`range`] with more of the command's options, as in [`encode_with`].
///
/// # Errors
/// As [`range`].
pub fn range_with(
    o: &KeyOptions,
    options: &[&str],
    prefix: &[&str],
    preds: &[(&str, String)],
) -> Result<Vec<KeyRange>> {
    let mut argv = o.argv("range");
    argv.extend(options.iter().map(OsString::from));
    for (name, value) in preds {
        if !matches!(*name, "ge" | "gt" | "le" | "lt" | "eq" | "prefix") {
            bail!("unknown predicate {name:?}: expected ge, gt, le, lt, eq or prefix");
        }
        argv.push(format!("--{name}={value}").into());
    }
    argv.push("--".into());
    argv.extend(prefix.iter().map(OsString::from));
    let out = run(&argv)?;
    let lines: Vec<&[u8]> = out
        .strip_suffix(b"\n")
        .unwrap_or(&out)
        .split(|&b| b == b'\n')
        .collect();
    if !lines.len().is_multiple_of(2) {
        bail!("internal error: range printed an odd number of lines");
    }
    lines
        .chunks_exact(2)
        .map(|p| {
            let side = |l: &[u8]| -> Result<Option<Vec<u8>>> {
                if l.is_empty() {
                    Ok(None)
                } else {
                    o.key(l).map(Some)
                }
            };
            Ok(KeyRange {
                start: side(p[0])?,
                end: side(p[1])?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_options_go_to_the_command() {
        let o = KeyOptions::new("hbase-ordered");
        let legacy = encode_with(&o, &["--hbase-numeric=legacy"], &["numeric:1E+702"]).unwrap();
        assert_eq!(legacy, [0x22, 0xf1, 0x6f, 0xc8]);
        assert!(encode(&o, &["numeric:1E+702"]).unwrap() != legacy);
        let p = KeyOptions::new("phoenix");
        let d = "decimal:99.9999999999999999999999999999999999999";
        assert_eq!(encode_with(&p, &["--round"], &[d]).unwrap(), [0xc2, 0x02]);
        assert!(encode(&p, &[d]).is_err());
        let r = range_with(&p, &["--round"], &[d], &[]).unwrap();
        assert_eq!(r.len(), 1);
        let e = encode_with(&KeyOptions::new("hex"), &["--round"], &["str:a"]).unwrap_err();
        assert!(format!("{e:#}").contains("--round applies only to --format phoenix"));
    }

    #[test]
    fn errors_are_the_commands() {
        let o = KeyOptions::new("hex");
        let e = encode(&o, &["i32:3000000000"]).unwrap_err();
        assert!(
            format!("{e:#}").contains("not a number in range for i32"),
            "{e:#}"
        );
        let e = encode(&KeyOptions::new("octal"), &["i32:1"]).unwrap_err();
        assert!(format!("{e:#}").contains("octal"), "{e:#}");
        let e = range(&o, &[], &[("gt", "i64:9223372036854775807".into())]).unwrap_err();
        assert!(format!("{e:#}").contains("no key can match"), "{e:#}");
    }

    #[test]
    fn verbatim_values() {
        let o = KeyOptions::new("hex");
        // Values that look like options or hold newlines stay values.
        assert_eq!(encode(&o, &["str:--json"]).unwrap(), b"--json");
        assert_eq!(encode(&o, &["i64:-5"]).unwrap(), b"l7FFFFFFFFFFFFFFB");
        let r = range(&o, &[], &[("lt", "i64:-5".into())]).unwrap();
        assert_eq!(r[0].start, None);
        let mut salted = KeyOptions::new("binary");
        salted.salt_buckets = Some(2);
        assert_eq!(range(&salted, &["str:a"], &[]).unwrap().len(), 2);
    }
}
