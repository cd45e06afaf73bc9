//! The `lexikey` command line, as a library so that tests can drive every
//! subcommand in-process ([`run`]) as well as through the built binary.
//!
//! The grammar is declared with clap in [`args`] (one options struct per
//! subcommand); the help texts are in `help.rs`. One file per subcommand
//! under `cmd/`, each with `fn run(args: &XArgs, io: &mut Io<'_>) ->
//! Result<()>`; the binary (`src/main.rs`) turns every error into one line
//! on stderr and exit code 2. Keys, ranges and stores are the libraries'
//! (`lexikey`, `lexikey-stores`): this crate is a leaf.

use std::ffi::OsString;
use std::io::{BufRead, Write};

use anyhow::{bail, Result};

mod progress;

// The library exports what the binary and the tests use: `run`, `Io` and
// the grammar (`args`, for the completion and man-page tests). Everything
// else is the command line's own wiring.
pub mod args;
mod cmd;
mod common;
mod help;
mod kinds;
mod layout;
mod profile_out;

/// Where a subcommand reads and writes.
pub struct Io<'a> {
    /// Standard input (bulk mode reads lines from it).
    pub stdin: &'a mut dyn BufRead,
    /// Standard output.
    pub stdout: &'a mut dyn Write,
}

impl std::fmt::Debug for Io<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Io")
    }
}

/// The version line: the crate version and the stores compiled in (as
/// lexikey-stores reports them: `memory`, `redb`, then the adapters of the
/// store features this build has).
pub fn version() -> String {
    format!(
        "lexikey {} (stores: {})\n",
        env!("CARGO_PKG_VERSION"),
        lexikey_stores::compiled_stores().join(", ")
    )
}

/// Runs `lexikey` with `argv` (the arguments after the program name).
///
/// # Errors
/// Any usage, parse, encode, decode or I/O error; the binary prints it as
/// one line and exits with code 2.
pub fn run(argv: &[OsString], io: &mut Io<'_>) -> Result<()> {
    let Some(first) = argv.first() else {
        bail!("missing command: expected encode, decode, range, reverse, alloc, scan or demo (see 'lexikey --help')");
    };
    let rest = &argv[1..];
    let name = first.to_str().unwrap_or("");
    match name {
        "-h" | "--help" => return write_all(io, help::TOP.as_bytes()),
        "help" => {
            if rest.len() > 1 {
                bail!(
                    "help takes at most one COMMAND, got {}: {} (e.g. 'lexikey help encode')",
                    rest.len(),
                    rest.iter()
                        .map(|s| s.to_string_lossy())
                        .collect::<Vec<_>>()
                        .join(" ")
                );
            }
            let text = match rest.first().and_then(|s| s.to_str()) {
                None => help::TOP,
                Some(c) => args::usage(c).ok_or_else(|| args::unknown_command(c))?,
            };
            return write_all(io, text.as_bytes());
        }
        "-V" | "--version" => return write_all(io, version().as_bytes()),
        _ => {}
    }
    if args::usage(name).is_none() {
        return Err(args::unknown_command(&first.to_string_lossy()));
    }
    let command = match args::parse(name, rest)? {
        args::Parsed::Help(text) => return write_all(io, text.as_bytes()),
        args::Parsed::Run(c) => c,
    };
    use args::Command as C;
    match command {
        C::Encode(a) => cmd::encode::run(&a, io)?,
        C::Decode(a) => cmd::decode::run(&a, io)?,
        C::Range(a) => cmd::range::run(&a, io)?,
        C::Reverse(a) => cmd::reverse::run(&a, io)?,
        C::Alloc(a) => cmd::alloc::run(&a, io)?,
        C::Scan(a) => cmd::scan::run(&a, io)?,
        C::Demo(a) => cmd::demo::run(&a, io)?,
        C::Lint(a) => cmd::design::lint(&a, io)?,
        C::Plan(a) => cmd::design::plan(&a, io)?,
        C::Schema(a) => cmd::design::schema(&a, io)?,
        C::Completions(a) => cmd::completions::run(&a, io)?,
        C::Man(a) => cmd::completions::man(&a, io)?,
        C::Help(_) => return write_all(io, help::TOP.as_bytes()),
    }
    io.stdout.flush()?;
    Ok(())
}

fn write_all(io: &mut Io<'_>, bytes: &[u8]) -> Result<()> {
    io.stdout.write_all(bytes)?;
    io.stdout.flush()?;
    Ok(())
}
