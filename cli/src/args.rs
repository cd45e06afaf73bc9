//! A small hand-rolled argument parser with exactly the rules the grammar
//! needs (clap's hyphen handling is per-argument and harder to make exact).
//!
//! # Rules
//!
//! 1. Options may appear anywhere among the positionals, in any order.
//! 2. An option that takes a value reads it from `--name=VALUE` or from the
//!    next argument, **verbatim** even when it begins with `-`
//!    (`--prefix -x`, `--ge i64:-5`).
//! 3. An argument *shaped like an option* — `-` or `--`, then an ASCII
//!    letter, then letters, digits or `-`, optionally followed by `=…` — is
//!    an option; an unknown one is an error. `-h` and `--help` print help.
//! 4. Every other argument is a positional, even when it begins with `-`:
//!    `-5`, `-9999999999999999998`, `--%20x`, `-`.
//! 5. After `--`, every argument is a positional (`lexikey decode -- --x`
//!    decodes the key `--x`).
//! 6. An option given twice is an error unless it is repeatable (the range
//!    bounds `--ge` … `--eq`, which intersect).

use std::ffi::{OsStr, OsString};

use anyhow::{bail, Result};

/// One option a subcommand accepts.
#[derive(Debug, Clone, Copy)]
pub struct Opt {
    /// The name without dashes (`format`).
    pub name: &'static str,
    /// Whether it takes a value (`--format hex`) or is a flag (`--json`).
    pub takes_value: bool,
    /// Whether it may be given more than once.
    pub repeat: bool,
}

impl Opt {
    /// An option with a value, at most once.
    pub const fn value(name: &'static str) -> Opt {
        Opt {
            name,
            takes_value: true,
            repeat: false,
        }
    }

    /// An option with a value that may be repeated.
    pub const fn repeated(name: &'static str) -> Opt {
        Opt {
            name,
            takes_value: true,
            repeat: true,
        }
    }

    /// A flag without a value.
    pub const fn flag(name: &'static str) -> Opt {
        Opt {
            name,
            takes_value: false,
            repeat: false,
        }
    }
}

/// The parsed arguments of one subcommand.
#[derive(Debug, Default)]
pub struct Args {
    /// The options in command-line order: name and value (`None` for flags).
    pub opts: Vec<(&'static str, Option<String>)>,
    /// The positionals, in order, as given (not necessarily UTF-8).
    pub positionals: Vec<OsString>,
    /// Whether `-h`/`--help` was given.
    pub help: bool,
}

impl Args {
    /// The value of option `name`, if given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.opts
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether flag `name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.opts.iter().any(|(n, _)| *n == name)
    }

    /// The positionals as UTF-8 strings.
    ///
    /// # Errors
    /// When one is not valid UTF-8.
    pub fn positional_strs(&self, what: &str) -> Result<Vec<&str>> {
        self.positionals
            .iter()
            .enumerate()
            .map(|(i, p)| {
                p.to_str()
                    .ok_or_else(|| anyhow::anyhow!("{what} {} is not valid UTF-8: {:?}", i + 1, p))
            })
            .collect()
    }
}

/// Whether `s` is shaped like an option (rule 3), returning the name part
/// (after the dashes, before any `=`) and the inline value.
fn option_shape(s: &str) -> Option<(&str, Option<&str>)> {
    let body = s.strip_prefix("--").or_else(|| s.strip_prefix('-'))?;
    let (name, value) = match body.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (body, None),
    };
    let mut chars = name.bytes();
    let first = chars.next()?;
    if !first.is_ascii_alphabetic() || !chars.all(|c| c.is_ascii_alphanumeric() || c == b'-') {
        return None;
    }
    Some((name, value))
}

/// Parses `args` (the arguments after the subcommand name) for subcommand
/// `cmd` accepting `spec`.
///
/// # Errors
/// Unknown options, options given twice, missing option values, option
/// values that are not UTF-8.
pub fn parse(cmd: &str, spec: &[Opt], args: &[OsString]) -> Result<Args> {
    let mut out = Args::default();
    let mut i = 0;
    while i < args.len() {
        let raw = &args[i];
        i += 1;
        let Some(s) = raw.to_str() else {
            // Not UTF-8: never an option.
            out.positionals.push(raw.clone());
            continue;
        };
        if s == "--" {
            out.positionals.extend(args[i..].iter().cloned());
            break;
        }
        let Some((name, inline)) = option_shape(s) else {
            out.positionals.push(raw.clone());
            continue;
        };
        if name == "help" || (name == "h" && !s.starts_with("--")) {
            out.help = true;
            continue;
        }
        // Long options need `--`; a single-dash long name is a typo we name.
        let opt = if s.starts_with("--") {
            spec.iter().find(|o| o.name == name)
        } else {
            None
        };
        let Some(opt) = opt else {
            let known: Vec<String> = spec.iter().map(|o| format!("--{}", o.name)).collect();
            bail!(
                "unknown option '{}' for '{cmd}' (accepted: {}); an argument that begins \
                 with '-' can be passed after '--'",
                s.split('=').next().unwrap_or(s),
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            );
        };
        if !opt.repeat && out.opts.iter().any(|(n, _)| *n == opt.name) {
            bail!("option '--{}' given more than once", opt.name);
        }
        let value = if opt.takes_value {
            let v: &OsStr = match inline {
                Some(v) => OsStr::new(v),
                None => {
                    let Some(v) = args.get(i) else {
                        bail!("option '--{}' needs a value", opt.name);
                    };
                    i += 1;
                    v
                }
            };
            let Some(v) = v.to_str() else {
                bail!("the value of '--{}' is not valid UTF-8: {:?}", opt.name, v);
            };
            Some(v.to_string())
        } else {
            if inline.is_some() {
                bail!("option '--{}' takes no value", opt.name);
            }
            None
        };
        out.opts.push((opt.name, value));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    const SPEC: &[Opt] = &[Opt::value("format"), Opt::flag("json"), Opt::repeated("ge")];

    #[test]
    fn hyphen_positionals() {
        let a = parse("t", SPEC, &os(&["-5", "--%20", "-", "--format", "-x"])).unwrap();
        assert_eq!(a.positionals, os(&["-5", "--%20", "-"]));
        assert_eq!(a.value("format"), Some("-x"));
        let a = parse("t", SPEC, &os(&["--json", "--", "--json", "-h"])).unwrap();
        assert!(a.flag("json"));
        assert_eq!(a.positionals, os(&["--json", "-h"]));
    }

    #[test]
    fn errors() {
        assert!(parse("t", SPEC, &os(&["--fromat", "hex"])).is_err());
        assert!(parse("t", SPEC, &os(&["-x"])).is_err());
        assert!(parse("t", SPEC, &os(&["--format"])).is_err());
        assert!(parse("t", SPEC, &os(&["--format=a", "--format=b"])).is_err());
        assert!(parse("t", SPEC, &os(&["--json=1"])).is_err());
        let a = parse("t", SPEC, &os(&["--ge=a", "--ge", "b"])).unwrap();
        assert_eq!(a.opts.len(), 2);
    }
}
