//! The `lexikey` command line, as a library so that tests can drive every
//! subcommand in-process ([`run`]) as well as through the built binary.
//!
//! The grammar is declared with clap in [`args`] (one options struct per
//! subcommand) and summed up in [`USAGE`]. One file per subcommand under
//! [`cmd`], each with `pub fn run(args: &XArgs, io: &mut Io<'_>) -> Result<()>`;
//! the binary (`src/main.rs`) turns every error into one line on stderr and
//! exit code 2.

use std::ffi::OsString;
use std::io::{BufRead, Write};

use anyhow::{bail, Result};

pub mod api;
mod progress;

pub mod args;
pub mod cmd;
pub mod common;
pub mod interop;
pub mod kinds;
pub mod salting;

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

/// The top-level help text.
pub const USAGE: &str = "\
lexikey: sortable row keys for ordered key-value stores

Usage:
  lexikey encode [--format F] [--width N] [--json] COMPONENT...
  lexikey encode --schema TYPE[.desc],... --stdin [--format F] [--width N] [--json]
  lexikey decode [--format F] [--schema TYPE[.desc],...] [--width N] [--json] KEY
  lexikey decode --stdin [--format F] [--schema ...] [--width N] [--json]
  lexikey range [--format F] [--width N] [--for raw|hbase|cql|rocksdb|etcd|redis|sql]
                [--table T] [--limit N] [--reversed] [--json] PREFIX_COMPONENT...
                [--ge C] [--gt C] [--le C] [--lt C] [--eq C] [--prefix STR]
  lexikey range ... PREFIX_COMPONENT... --bbox MINLAT,MINLON,MAXLAT,MAXLON [--max-ranges K]
  lexikey reverse [--format F] [--width N] N
  lexikey alloc --store URL --table NAME [--count N] [--format F] [--guard] [--stats]
                [--quiet] [VALUE...]
  lexikey scan --store URL --table NAME [--limit N] [--format F] [--quiet]
  lexikey demo [--store URL]
  lexikey help [COMMAND] | lexikey COMMAND --help | lexikey --version
  lexikey completions bash|zsh|fish|powershell|elvish | lexikey man [COMMAND]

COMPONENT is TYPE[.desc]:VALUE; TYPE is one of str, i64, u64, i32, u32, f64, f32,
bool, bytes (hex), ts (RFC 3339 or milliseconds), uuid, or ulid, uuid7 (stored as
uuid) and geo (LAT,LON, stored as a u64 cell code; grid: --curve hilbert|morton,
--bits 1-32); everything after the first ':' is the value, verbatim. F is hex
(default), base64, decimal or binary (printed as lowercase hex). Arguments that
begin with '-' (-5, -9999999999999999998) are positionals unless shaped like an
option (-x, --name); after '--' every argument is a positional. Every error prints one line on stderr and exits with code 2.
encode, decode and range take --salt-buckets N [--salt-mode fast|phoenix] for keys
salted in front (N from 1 to 255; range prints one range per bucket).

For keys shared with Java and FoundationDB code, encode, decode and range also take
--format fdb-tuple, hbase-ordered or phoenix (keys as lowercase hex, components in
the profile's own types; --salt-buckets N for a salted Phoenix table): see
'lexikey help encode'.
";

/// The version line: the crate version and the stores compiled in.
pub fn version() -> String {
    let mut stores = vec!["memory", "redb"];
    for (on, name) in [
        (cfg!(feature = "redis"), "redis"),
        (cfg!(feature = "postgres"), "postgres"),
        (cfg!(feature = "etcd"), "etcd"),
        (cfg!(feature = "rocksdb"), "rocksdb"),
        (cfg!(feature = "slatedb"), "slatedb"),
    ] {
        if on {
            stores.push(name);
        }
    }
    format!(
        "lexikey {} (stores: {})\n",
        env!("CARGO_PKG_VERSION"),
        stores.join(", ")
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
        "-h" | "--help" => return write_all(io, USAGE.as_bytes()),
        "help" => {
            let text = match rest.first().and_then(|s| s.to_str()) {
                None => USAGE,
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
        C::Completions(a) => cmd::completions::run(&a, io)?,
        C::Man(a) => cmd::completions::man(&a, io)?,
        C::Help(_) => return write_all(io, USAGE.as_bytes()),
    }
    io.stdout.flush()?;
    Ok(())
}

fn write_all(io: &mut Io<'_>, bytes: &[u8]) -> Result<()> {
    io.stdout.write_all(bytes)?;
    io.stdout.flush()?;
    Ok(())
}
