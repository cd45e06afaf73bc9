//! The command line's grammar, declared with clap (derive): one options
//! struct per subcommand, the shared parts flattened in, each parsed once
//! and handed to the subcommand's `run`.
//!
//! # How arguments are read
//!
//! clap's hyphen handling is per argument (`allow_hyphen_values`,
//! `allow_negative_numbers`), and none of its settings gives exactly the
//! rules below: a decimal key such as `---7698…=` or an escaped key such as
//! `--%20x` would be read as an unknown long option. So a small lexer first splits
//! the arguments by these rules, with the subcommand's clap definition as the
//! one list of options (which exist, which take a value, which repeat), and
//! gives clap a normalized command line: every option as `--name=value` or
//! `--name`, then `--`, then the positionals. clap then types the values,
//! and builds the help, completions, man page and "did you mean" hints from
//! the same definitions.
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
//!    bounds `--ge` … `--eq`, `--prefix`, which intersect).

use std::ffi::{OsStr, OsString};

use anyhow::{anyhow, bail, Result};
use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{ArgAction, CommandFactory, FromArgMatches, Parser, Subcommand};
use lexikey::kinds::geo::Curve;
use lexikey::range::render::Dialect;
use lexikey::store::salt::SaltMode;
use lexikey::Format;

use crate::help;

// ---------------------------------------------------------------------------
// The grammar
// ---------------------------------------------------------------------------

/// `lexikey`: the top level.
#[derive(Debug, Parser)]
#[command(
    name = "lexikey",
    about = "Sortable row keys for ordered key-value stores",
    long_about = "Sortable row keys for ordered key-value stores (HBase, Bigtable, Cassandra, \
                  RocksDB, etcd, Redis, PostgreSQL): typed values to keys and back, the exact \
                  [start, stop) range of a query in each store's syntax, and decreasing row IDs \
                  for upside-down tables. Every error prints one line on stderr and exits with \
                  code 2.",
    version,
    override_help = help::TOP,
    disable_help_subcommand = true,
    after_long_help = EXAMPLES
)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The component syntax and the types, for the man pages.
pub const COMPONENTS: &str = "\
Components:
  A COMPONENT is TYPE[.desc]:VALUE (everything after the first ':' is the value,
  verbatim); .desc sorts the component in descending order. TYPE is one of:
    str      text (UTF-8)
    i64, u64, i32, u32    integers (decimal)
    f64, f32 floats (1.5, -2e10, inf, -inf, nan; a literal out of range is an error)
    bool     true or false
    bytes    hex
    ts       RFC 3339 (2024-05-01T12:00:00Z), or an integer with a unit: 1714564800s,
             1714564800000ms, ...us, ...ns (a bare integer is milliseconds)
    uuid     hyphenated
    dec      a decimal of any size (10.50, -1e-30), exact
    ulid     a ULID, stored as uuid
    uuid7    a UUIDv7, stored as uuid
    geo      LAT,LON, stored as the u64 code of its grid cell (--curve, --bits)
  The interop formats (--format fdb-tuple, hbase-ordered, phoenix) take their own
  types: see lexikey-encode(1).";

/// Examples for the man page, ending with the install lines of every page.
pub const EXAMPLES: &str = "\
Examples:
  lexikey encode str:population i64:3831868
  lexikey decode population#l80000000003A783C
  lexikey range --for hbase --table cities str:population --ge i64:1000000
  lexikey alloc --store redb:/tmp/app.redb --table comments \"first!\"
  lexikey completions bash > ~/.local/share/bash-completion/completions/lexikey
Installing the pages (this one and one per command):
  lexikey man > ~/.local/share/man/man1/lexikey.1
  for c in encode decode range reverse alloc scan demo completions man; do
    lexikey man $c > ~/.local/share/man/man1/lexikey-$c.1; done";

/// The subcommands.
// One value per process: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Values to a key (one per invocation, or one per input line with --stdin)
    #[command(override_help = help::ENCODE)]
    Encode(EncodeArgs),
    /// A key back to its components
    #[command(override_help = help::DECODE)]
    Decode(DecodeArgs),
    /// The half-open key range [start, end) of a query, raw or in a store's syntax
    #[command(override_help = help::RANGE)]
    Range(RangeArgs),
    /// The reverse number i64::MAX - N (Java's Long.MAX_VALUE - n)
    #[command(override_help = help::REVERSE)]
    Reverse(ReverseArgs),
    /// Rows with decreasing IDs in an upside-down table of a store
    #[command(override_help = help::ALLOC)]
    Alloc(AllocArgs),
    /// The rows of an upside-down table, newest first
    #[command(override_help = help::SCAN)]
    Scan(ScanArgs),
    /// The tour: a city index, an upside-down table and a queue on a real store
    #[command(override_help = help::DEMO)]
    Demo(DemoArgs),
    /// Hot spots, skew and key sizes of a key design, from sample rows
    #[command(override_help = help::LINT)]
    Lint(LintArgs),
    /// The command that creates a table pre-split at sample rows' quantiles
    #[command(override_help = help::PLAN)]
    Plan(PlanArgs),
    /// Whether keys of an old layout still read and sort under a new one
    #[command(override_help = help::SCHEMA)]
    Schema(SchemaArgs),
    /// A shell completion script (bash, zsh, fish, powershell, elvish)
    #[command(override_help = help::COMPLETIONS)]
    Completions(CompletionsArgs),
    /// The man page (roff), of lexikey or of one subcommand
    #[command(override_help = help::MAN)]
    Man(ManArgs),
    /// The help of lexikey or of one subcommand
    Help(HelpArgs),
}

/// `--format F` and `--width N` of `encode`, `decode` and `range`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct KeyFormatArgs {
    /// Key format: hex (default), base64, decimal, binary, or an interop
    /// profile: fdb-tuple, hbase-ordered, phoenix
    #[arg(long, value_name = "F", value_parser = Choice::new(KeyFormat::NAMES, KeyFormat::parse))]
    pub format: Option<KeyFormat>,
    /// decimal only: the width in digits of every integer component (1 to 20)
    #[arg(long, value_name = "N")]
    pub width: Option<String>,
}

impl KeyFormatArgs {
    /// The interop profile `--format` names, if it names one.
    pub fn profile(&self) -> Option<Profile> {
        match self.format {
            Some(KeyFormat::Profile(p)) => Some(p),
            _ => None,
        }
    }

    /// The native format (default hex; [`Format::Binary`] under a profile,
    /// whose keys are bytes).
    pub fn native(&self) -> Format {
        match self.format {
            None => Format::Hex,
            Some(KeyFormat::Native(f)) => f,
            Some(KeyFormat::Profile(_)) => Format::Binary,
        }
    }
}

/// `--salt-buckets N [--salt-mode M]`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SaltArgs {
    /// Keys salted in front: N buckets (1 to 255; phoenix: 1 to 256)
    #[arg(long, value_name = "N")]
    pub salt_buckets: Option<String>,
    /// The salt hash: fast (default) or phoenix
    #[arg(long, value_name = "M", value_parser = Choice::new(&["fast", "phoenix"], parse_salt_mode))]
    pub salt_mode: Option<SaltMode>,
}

/// `--curve C --bits B`: the grid of geo components.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct GeoArgs {
    /// The grid's curve for geo components: hilbert (default) or morton
    #[arg(long, value_name = "C", value_parser = Choice::new(&["hilbert", "morton"], parse_curve))]
    pub curve: Option<Curve>,
    /// Bits per axis of the geo grid, 1 to 32 (default 32)
    #[arg(long, value_name = "B", value_parser = parse_bits)]
    pub bits: Option<u8>,
}

/// The options `encode` and `decode` share.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct KeyArgs {
    /// Format and decimal width.
    #[command(flatten)]
    pub format: KeyFormatArgs,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
    /// The fields, e.g. str,i64.desc (bulk mode; decode: the key's fields)
    #[arg(long, value_name = "S")]
    pub schema: Option<String>,
    /// Bulk mode: one row or key per line of standard input
    #[arg(long)]
    pub stdin: bool,
    /// Refuse keys longer than N bytes (default 32767)
    #[arg(long, value_name = "N", value_parser = parse_max_key_len)]
    pub max_key_len: Option<usize>,
    /// Salting.
    #[command(flatten)]
    pub salt: SaltArgs,
    /// The geo grid.
    #[command(flatten)]
    pub geo: GeoArgs,
    /// hbase-ordered: the numeric encoding, current (HBase 2.5.0+) or legacy
    #[arg(long, value_name = "E", value_parser = Choice::new(HBASE_NUMERIC, any_text))]
    pub hbase_numeric: Option<String>,
    /// No progress display on stderr (bulk mode)
    #[arg(long)]
    pub quiet: bool,
}

/// `--hbase-numeric` names, for completion (checked with the profile).
const HBASE_NUMERIC: &[&str] = &["current", "legacy"];

/// Any text: checked where the context is known.
fn any_text(s: &str) -> Result<String, String> {
    Ok(s.to_string())
}

/// `lexikey encode`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct EncodeArgs {
    /// The shared options.
    #[command(flatten)]
    pub key: KeyArgs,
    /// phoenix: round a DECIMAL of more than 38 digits half up, as Phoenix does
    #[arg(long)]
    pub round: bool,
    /// fdb-tuple: a key for SET_VERSIONSTAMPED_KEY (one incomplete versionstamp, its offset appended)
    #[arg(long)]
    pub versionstamp: bool,
    /// TYPE[.desc]:VALUE, e.g. str:population i64:3831868
    #[arg(value_name = "COMPONENT")]
    pub components: Vec<OsString>,
}

/// `lexikey decode`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct DecodeArgs {
    /// The shared options.
    #[command(flatten)]
    pub key: KeyArgs,
    /// Print the values only (what encode --stdin --schema reads back)
    #[arg(long)]
    pub values: bool,
    /// The output: components (TYPE:VALUE, the default), values, or json
    #[arg(long, value_name = "O", value_parser = Choice::new(&["components", "values", "json"], parse_output))]
    pub output: Option<Output>,
    /// The key (binary keys and interop profiles: as hex)
    #[arg(value_name = "KEY")]
    pub keys: Vec<OsString>,
}

/// `lexikey range`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct RangeArgs {
    /// Format and decimal width.
    #[command(flatten)]
    pub format: KeyFormatArgs,
    /// The key's fields, e.g. str,i64: predicates of another type are errors
    #[arg(long, value_name = "S")]
    pub schema: Option<String>,
    /// Print {"start":…,"end":…} (and the rendering) as JSON
    #[arg(long)]
    pub json: bool,
    /// Where the range goes: raw (default), hbase, cql, rocksdb, etcd, redis, sql, cbt, dynamodb
    #[arg(long = "for", value_name = "D", value_parser = Choice::new(DIALECTS, parse_dialect))]
    pub dialect: Option<Dialect>,
    /// The table (hbase, cql, sql, cbt, dynamodb) or sorted-set key (redis); default t
    #[arg(long, value_name = "T")]
    pub table: Option<String>,
    /// cbt: the bigtable://PROJECT/INSTANCE store the line names; dynamodb: the dynamodb://TABLE store
    #[arg(long, value_name = "URL", value_hint = clap::ValueHint::Other)]
    pub store: Option<String>,
    /// At most N keys (hbase, cql, sql, etcd, redis, cbt, dynamodb)
    #[arg(long, value_name = "N", value_parser = parse_range_limit)]
    pub limit: Option<u64>,
    /// Largest key first (hbase, cql, sql, etcd, redis, cbt, dynamodb)
    #[arg(long)]
    pub reversed: bool,
    /// With --salt-buckets N and --for cbt|hbase: the command that creates the table split at every bucket
    #[arg(long)]
    pub splits: bool,
    /// The key column (cql, sql)
    #[arg(long, value_name = "C")]
    pub column: Option<String>,
    /// The partition key (cql)
    #[arg(long, value_name = "P")]
    pub partition_key: Option<String>,
    /// Next component >= C (repeatable)
    #[arg(long, value_name = "C", action = ArgAction::Append)]
    pub ge: Vec<String>,
    /// Next component > C (repeatable)
    #[arg(long, value_name = "C", action = ArgAction::Append)]
    pub gt: Vec<String>,
    /// Next component <= C (repeatable)
    #[arg(long, value_name = "C", action = ArgAction::Append)]
    pub le: Vec<String>,
    /// Next component < C (repeatable)
    #[arg(long, value_name = "C", action = ArgAction::Append)]
    pub lt: Vec<String>,
    /// Next component = C (repeatable)
    #[arg(long, value_name = "C", action = ArgAction::Append)]
    pub eq: Vec<String>,
    /// Next component: an ascending str starting with STR (repeatable)
    #[arg(long, value_name = "STR", action = ArgAction::Append)]
    pub prefix: Vec<String>,
    /// Next component is null: its nullable type, e.g. i64? (repeatable)
    #[arg(id = "is-null", long = "is-null", value_name = "TYPE?", action = ArgAction::Append)]
    pub is_null: Vec<String>,
    /// Next component is not null: its nullable type, e.g. i64? (repeatable)
    #[arg(id = "not-null", long = "not-null", value_name = "TYPE?", action = ArgAction::Append)]
    pub not_null: Vec<String>,
    /// Salting.
    #[command(flatten)]
    pub salt: SaltArgs,
    /// The geo grid.
    #[command(flatten)]
    pub geo: GeoArgs,
    /// The next component is a geo code inside MINLAT,MINLON,MAXLAT,MAXLON
    #[arg(long, value_name = "BOX")]
    pub bbox: Option<String>,
    /// At most K ranges for --bbox (1 to 4096, default 8)
    #[arg(long, value_name = "K", value_parser = parse_max_ranges)]
    pub max_ranges: Option<usize>,
    /// The next page's ranges: after the last key a page cursor holds (Python Schema.page_ranges)
    #[arg(long, value_name = "CURSOR")]
    pub after: Option<String>,
    /// Print the cursor of the page read up to KEY (its last row's key) instead of ranges
    #[arg(long, value_name = "KEY")]
    pub last: Option<String>,
    /// With --after: accept only a cursor signed with S (HMAC); with --last: sign the cursor
    #[arg(long, value_name = "S")]
    pub secret: Option<String>,
    /// hbase-ordered: the numeric encoding, current (HBase 2.5.0+) or legacy
    #[arg(long, value_name = "E", value_parser = Choice::new(HBASE_NUMERIC, any_text))]
    pub hbase_numeric: Option<String>,
    /// phoenix: round a DECIMAL of more than 38 digits half up, as Phoenix does
    #[arg(long)]
    pub round: bool,
    /// The fixed leading components, TYPE[.desc]:VALUE
    #[arg(value_name = "PREFIX_COMPONENT")]
    pub components: Vec<OsString>,
    /// Every predicate (`--ge` … `--eq`, `--prefix`, `--is-null`,
    /// `--not-null`) in command-line order.
    #[arg(skip)]
    pub preds: Vec<Pred>,
}

/// `lexikey reverse`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ReverseArgs {
    /// Print the i64 key in format F: hex, base64, decimal, binary
    #[arg(long, value_name = "F", value_parser = Choice::new(PLAIN_FORMATS, parse_plain_format))]
    pub format: Option<Format>,
    /// decimal only: the width in digits (1 to 20)
    #[arg(long, value_name = "N")]
    pub width: Option<String>,
    /// 0 <= N <= 9223372036854775807
    #[arg(value_name = "N")]
    pub n: Vec<OsString>,
}

/// `--store URL --table NAME [--format F] [--salt-buckets N [--salt-mode M]]`
/// of `alloc` and `scan`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TableArgs {
    /// The store: memory:, redb:PATH, rocksdb:PATH, redis://…, postgres://…, etcd://…, bigtable://…
    #[arg(long, value_name = "URL", value_hint = clap::ValueHint::Other)]
    pub store: Option<String>,
    /// The upside-down table
    #[arg(long, value_name = "NAME")]
    pub table: Option<String>,
    /// Key format: hex (default), base64, decimal, binary
    #[arg(long, value_name = "F", value_parser = Choice::new(PLAIN_FORMATS, parse_plain_format))]
    pub format: Option<Format>,
    /// Salting: the rows spread over N buckets.
    #[command(flatten)]
    pub salt: SaltArgs,
}

/// `lexikey alloc`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct AllocArgs {
    /// Store, table, format.
    #[command(flatten)]
    pub table: TableArgs,
    /// N rows, each storing the single VALUE given
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub count: Option<u64>,
    /// The reuse guard: IDs strictly decrease even when the newest row is deleted
    #[arg(long)]
    pub guard: bool,
    /// One summary line on stderr at the end
    #[arg(long)]
    pub stats: bool,
    /// Refuse row keys longer than N bytes (default: 65535 for slatedb:, 4096 for bigtable://)
    #[arg(long, value_name = "N", value_parser = parse_max_key_len)]
    pub max_key_len: Option<usize>,
    /// No progress bar on stderr
    #[arg(long)]
    pub quiet: bool,
    /// The rows' values
    #[arg(value_name = "VALUE")]
    pub values: Vec<OsString>,
}

/// `lexikey scan`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ScanArgs {
    /// Store, table, format.
    #[command(flatten)]
    pub table: TableArgs,
    /// Stop after N rows
    #[arg(long, value_name = "N", value_parser = parse_scan_limit)]
    pub limit: Option<usize>,
    /// Continue after the page whose `next: TOKEN` line (on stderr) gave TOKEN
    #[arg(long, value_name = "TOKEN")]
    pub after: Option<String>,
    /// Sign the `next:` cursor with S (HMAC) and accept only cursors signed with S
    #[arg(long, value_name = "S")]
    pub secret: Option<String>,
    /// No progress display on stderr
    #[arg(long)]
    pub quiet: bool,
    /// (none: scan takes no positional arguments)
    #[arg(value_name = "ARG", hide = true)]
    pub rest: Vec<OsString>,
}

/// `lexikey demo`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct DemoArgs {
    /// The store (default: a new redb file in the temporary directory)
    #[arg(long, value_name = "URL")]
    pub store: Option<String>,
    /// (none: demo takes no positional arguments)
    #[arg(value_name = "ARG", hide = true)]
    pub rest: Vec<OsString>,
}

/// What `lint` and `plan` share: the layout and the sample.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SampleArgs {
    /// Format and decimal width.
    #[command(flatten)]
    pub format: KeyFormatArgs,
    /// The key's fields, one CSV column each, e.g. str,i64.desc
    #[arg(long, value_name = "S")]
    pub schema: Option<String>,
    /// Salting.
    #[command(flatten)]
    pub salt: SaltArgs,
    /// The number of regions (default 16)
    #[arg(long, value_name = "N", value_parser = parse_regions)]
    pub regions: Option<usize>,
    /// How FILE is written: csv or jsonl (default: jsonl for a name ending in .jsonl or .ndjson, else csv)
    #[arg(long, value_name = "FMT", value_parser = Choice::new(&lexikey_design::InputFormat::NAMES, parse_input_format))]
    pub input: Option<lexikey_design::InputFormat>,
    /// The sample: a CSV or JSON-lines file, rows in insertion order (- for standard input)
    #[arg(value_name = "FILE")]
    pub file: Vec<OsString>,
}

/// `lexikey lint`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct LintArgs {
    /// Layout, sample, regions.
    #[command(flatten)]
    pub sample: SampleArgs,
    /// Print one JSON object instead of the report
    #[arg(long)]
    pub json: bool,
    /// Write an SVG chart of the writes per region to FILE
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub svg: Option<OsString>,
}

/// `lexikey schema diff OLD NEW`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SchemaArgs {
    /// `diff`, then the old and the new schema
    #[arg(value_name = "ARG")]
    pub words: Vec<String>,
    /// The format of both layouts (default hex)
    #[arg(long, value_name = "F", value_parser = Choice::new(KeyFormat::NAMES, KeyFormat::parse))]
    pub format: Option<KeyFormat>,
    /// The old layout's format (default --format)
    #[arg(long, value_name = "F", value_parser = Choice::new(KeyFormat::NAMES, KeyFormat::parse))]
    pub old_format: Option<KeyFormat>,
    /// The new layout's format (default --format)
    #[arg(long, value_name = "F", value_parser = Choice::new(KeyFormat::NAMES, KeyFormat::parse))]
    pub new_format: Option<KeyFormat>,
    /// decimal only: the width of integer components of both layouts
    #[arg(long, value_name = "N")]
    pub width: Option<String>,
    /// Salt buckets of both layouts
    #[arg(long, value_name = "N")]
    pub salt_buckets: Option<String>,
    /// Salt buckets of the old layout (default --salt-buckets)
    #[arg(long, value_name = "N")]
    pub old_salt_buckets: Option<String>,
    /// Salt buckets of the new layout (default --salt-buckets)
    #[arg(long, value_name = "N")]
    pub new_salt_buckets: Option<String>,
    /// The salt hash of both layouts: fast (default) or phoenix
    #[arg(long, value_name = "M", value_parser = Choice::new(&["fast", "phoenix"], parse_salt_mode))]
    pub salt_mode: Option<SaltMode>,
    /// The old layout's salt hash (default --salt-mode)
    #[arg(long, value_name = "M", value_parser = Choice::new(&["fast", "phoenix"], parse_salt_mode))]
    pub old_salt_mode: Option<SaltMode>,
    /// The new layout's salt hash (default --salt-mode)
    #[arg(long, value_name = "M", value_parser = Choice::new(&["fast", "phoenix"], parse_salt_mode))]
    pub new_salt_mode: Option<SaltMode>,
    /// Print one JSON object instead of the report
    #[arg(long)]
    pub json: bool,
}

/// `lexikey plan`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PlanArgs {
    /// Layout, sample, regions.
    #[command(flatten)]
    pub sample: SampleArgs,
    /// Where the table is created: hbase, cbt or phoenix
    #[arg(long = "for", value_name = "D", value_parser = Choice::new(&["hbase", "cbt", "phoenix"], any_text))]
    pub target: Option<String>,
    /// The table (default t)
    #[arg(long, value_name = "T")]
    pub table: Option<String>,
}

fn parse_input_format(v: &str) -> Result<lexikey_design::InputFormat, String> {
    lexikey_design::InputFormat::from_name(v)
        .ok_or_else(|| format!("invalid --input {v:?}: expected csv or jsonl"))
}

/// The largest `--regions`.
pub const MAX_REGIONS: usize = 65_536;

fn parse_regions(v: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n @ 1..=MAX_REGIONS) => Ok(n),
        _ => Err(format!(
            "invalid --regions {v:?}: expected a number from 1 to {MAX_REGIONS}"
        )),
    }
}

/// `lexikey completions`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct CompletionsArgs {
    /// bash, zsh, fish, powershell or elvish
    #[arg(value_name = "SHELL", value_parser = Choice::new(SHELLS, parse_shell))]
    pub shell: Vec<clap_complete::Shell>,
}

/// `lexikey man`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ManArgs {
    /// A subcommand (default: the page of lexikey itself)
    #[arg(value_name = "COMMAND", value_parser = Choice::new(COMMANDS, parse_command_name))]
    pub command: Vec<String>,
}

/// `lexikey help`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct HelpArgs {
    /// A subcommand
    #[arg(value_name = "COMMAND", value_parser = Choice::new(COMMANDS, parse_command_name))]
    pub command: Option<String>,
}

/// The subcommands, for messages and completion.
pub const COMMANDS: &[&str] = &[
    "encode",
    "decode",
    "range",
    "reverse",
    "alloc",
    "scan",
    "demo",
    "lint",
    "plan",
    "schema",
    "completions",
    "man",
];

// ---------------------------------------------------------------------------
// Typed values
// ---------------------------------------------------------------------------

pub use lexikey::frontend::{key_format::KeyFormat, profile::Profile};

/// What `decode` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// `TYPE[.desc]:VALUE` per component (what `encode` takes).
    Components,
    /// The values alone (what `encode --stdin --schema` takes).
    Values,
    /// JSON.
    Json,
}

fn parse_output(s: &str) -> Result<Output, String> {
    match s {
        "components" => Ok(Output::Components),
        "values" => Ok(Output::Values),
        "json" => Ok(Output::Json),
        _ => Err(format!(
            "invalid --output {s:?}: expected components (the default), values or json"
        )),
    }
}

/// The native formats' names.
const PLAIN_FORMATS: &[&str] = &["hex", "base64", "decimal", "binary"];

/// `--format` where only the native formats apply.
fn parse_plain_format(f: &str) -> Result<Format, String> {
    if Profile::parse(f).is_some() {
        return Err(format!(
            "--format {f} is an interop profile, which applies to encode, decode and range only"
        ));
    }
    Format::parse(f).map_err(|e| e.to_string())
}

fn parse_salt_mode(m: &str) -> Result<SaltMode, String> {
    SaltMode::from_name(m)
        .ok_or_else(|| format!("invalid --salt-mode {m:?}: expected fast (the default) or phoenix"))
}

fn parse_curve(c: &str) -> Result<Curve, String> {
    Curve::from_name(c)
        .ok_or_else(|| format!("invalid --curve {c:?}: expected hilbert (the default) or morton"))
}

fn parse_bits(b: &str) -> Result<u8, String> {
    match b.parse::<u8>() {
        Ok(n @ 1..=32) => Ok(n),
        _ => Err(format!(
            "invalid --bits {b:?}: expected the bits per axis of the geo grid, 1 to 32 (default 32)"
        )),
    }
}

fn parse_max_key_len(v: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "invalid --max-key-len {v:?}: expected a positive number of bytes"
        )),
    }
}

const DIALECTS: &[&str] = &[
    "raw", "hbase", "cql", "rocksdb", "etcd", "redis", "sql", "cbt", "dynamodb",
];

fn parse_dialect(d: &str) -> Result<Dialect, String> {
    Dialect::parse(d).map_err(|e| format!("--for: {e}"))
}

fn parse_range_limit(l: &str) -> Result<u64, String> {
    l.parse::<u64>()
        .map_err(|_| format!("invalid --limit {l:?}: expected a number from 1 to 2147483647"))
}

fn parse_scan_limit(l: &str) -> Result<usize, String> {
    l.parse::<usize>()
        .map_err(|_| format!("invalid --limit {l:?}: expected a number of rows"))
}

fn parse_count(c: &str) -> Result<u64, String> {
    c.parse::<u64>()
        .map_err(|_| format!("invalid --count {c:?}: expected a number of rows"))
}

/// The largest `--max-ranges`.
pub const MAX_MAX_RANGES: usize = 4096;

fn parse_max_ranges(v: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n @ 1..=MAX_MAX_RANGES) => Ok(n),
        _ => Err(format!(
            "invalid --max-ranges {v:?}: expected a number from 1 to {MAX_MAX_RANGES}"
        )),
    }
}

const SHELLS: &[&str] = &["bash", "zsh", "fish", "powershell", "elvish"];

fn parse_shell(s: &str) -> Result<clap_complete::Shell, String> {
    use clap_complete::Shell;
    Ok(match s {
        "bash" => Shell::Bash,
        "zsh" => Shell::Zsh,
        "fish" => Shell::Fish,
        "powershell" => Shell::PowerShell,
        "elvish" => Shell::Elvish,
        _ => {
            return Err(format!(
                "unknown shell {s:?}: expected bash, zsh, fish, powershell or elvish"
            ))
        }
    })
}

fn parse_command_name(c: &str) -> Result<String, String> {
    if COMMANDS.contains(&c) {
        Ok(c.to_string())
    } else {
        Err(unknown_command(c).to_string())
    }
}

/// A value parser over a fixed list of names: `parse` gives the value or
/// the exact message of the error, and the names are offered to shell
/// completion.
#[derive(Clone, Debug)]
pub struct Choice<T> {
    names: &'static [&'static str],
    parse: fn(&str) -> Result<T, String>,
}

impl<T> Choice<T> {
    /// A parser offering `names` to completion.
    pub const fn new(names: &'static [&'static str], parse: fn(&str) -> Result<T, String>) -> Self {
        Choice { names, parse }
    }
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Choice<T> {
    type Value = T;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let s = value.to_str().unwrap_or("\u{FFFD}");
        (self.parse)(s).map_err(|m| clap::Error::raw(ErrorKind::ValueValidation, m))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(PossibleValue::new)))
    }
}

// ---------------------------------------------------------------------------
// Range predicates, in command-line order
// ---------------------------------------------------------------------------

/// The operator of a range predicate (the library's).
pub use lexikey::range::PredOp;

/// One range predicate: `--ge i64:5`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pred {
    /// The operator.
    pub op: PredOp,
    /// The value as given.
    pub value: String,
}

/// The predicates of `m` (a `range` match) in command-line order.
fn ordered_preds(m: &clap::ArgMatches) -> Vec<Pred> {
    let mut out: Vec<(usize, Pred)> = Vec::new();
    for op in PredOp::ALL {
        let name = op.name();
        if let (Some(idx), Some(vals)) = (m.indices_of(name), m.get_many::<String>(name)) {
            for (i, v) in idx.zip(vals) {
                out.push((
                    i,
                    Pred {
                        op,
                        value: v.clone(),
                    },
                ));
            }
        }
    }
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, p)| p).collect()
}

/// The positionals as UTF-8 strings; `what` names them in the message.
///
/// # Errors
/// When one is not valid UTF-8.
pub fn utf8_positionals<'a>(args: &'a [OsString], what: &str) -> Result<Vec<&'a str>> {
    args.iter()
        .enumerate()
        .map(|(i, p)| {
            p.to_str()
                .ok_or_else(|| anyhow!("{what} {} is not valid UTF-8: {:?}", i + 1, p))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------

/// What the command line asks for.
#[allow(clippy::large_enum_variant)] // one per process
#[derive(Debug)]
pub enum Parsed {
    /// Print this help text.
    Help(&'static str),
    /// Run a subcommand.
    Run(Command),
}

/// The message of an unknown subcommand, with clap's suggestion when a
/// subcommand is close (`encod` → `encode`), or of a mistyped top-level
/// option (`-v`, `--verison`: `--version`).
pub fn unknown_command(c: &str) -> anyhow::Error {
    let option_hint = match c {
        "-v" | "-version" => Some("-V' or '--version"),
        _ if c.starts_with("--") => ["--version", "--help"].into_iter().find(|o| close(c, o)),
        _ => None,
    };
    let hint = option_hint
        .map(str::to_string)
        .or_else(|| {
            suggestion(
                Cli::command().try_get_matches_from(["lexikey", c]),
                ContextKind::SuggestedSubcommand,
            )
        })
        .map(|s| format!(" (did you mean '{s}'?)"))
        .unwrap_or_default();
    anyhow!(
        "unknown command {c:?}{hint}: expected encode, decode, range, reverse, alloc, scan, demo, \
         completions or man (see 'lexikey --help')"
    )
}

/// The suggestion clap's error holds, if any.
fn suggestion(r: Result<clap::ArgMatches, clap::Error>, kind: ContextKind) -> Option<String> {
    let e = r.err()?;
    match e.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        // Sorted by confidence, the closest last.
        ContextValue::Strings(v) => v.last().cloned(),
        _ => None,
    }
}

/// The help text of subcommand `name`.
pub fn usage(name: &str) -> Option<&'static str> {
    Some(match name {
        "encode" => help::ENCODE,
        "decode" => help::DECODE,
        "range" => help::RANGE,
        "reverse" => help::REVERSE,
        "alloc" => help::ALLOC,
        "scan" => help::SCAN,
        "demo" => help::DEMO,
        "lint" => help::LINT,
        "plan" => help::PLAN,
        "schema" => help::SCHEMA,
        "completions" => help::COMPLETIONS,
        "man" => help::MAN,
        _ => return None,
    })
}

/// Parses the arguments of subcommand `name` (`args`: those after it).
///
/// # Errors
/// An unknown subcommand or option (with a suggestion when one is close),
/// an option given twice, a missing or superfluous option value, a value
/// that does not parse.
pub fn parse(name: &str, args: &[OsString]) -> Result<Parsed> {
    let top = Cli::command();
    let Some(sub) = top.find_subcommand(name).filter(|_| name != "help") else {
        return Err(unknown_command(name));
    };
    let lexed = lex(sub, name, args)?;
    if lexed.help {
        return Ok(Parsed::Help(usage(name).unwrap_or(help::TOP)));
    }
    let argv = std::iter::once(OsString::from("lexikey"))
        .chain(std::iter::once(OsString::from(name)))
        .chain(lexed.argv);
    let m = top.try_get_matches_from(argv).map_err(clap_error)?;
    let mut cli = Cli::from_arg_matches(&m).map_err(clap_error)?;
    if let (Command::Range(r), Some(("range", rm))) = (&mut cli.command, m.subcommand()) {
        r.preds = ordered_preds(rm);
    }
    Ok(Parsed::Run(cli.command))
}

/// One line for a clap error: the value parser's own message, or clap's
/// first line without its `error: ` prefix.
fn clap_error(e: clap::Error) -> anyhow::Error {
    if let Some(src) = std::error::Error::source(&e) {
        return anyhow!("{src}");
    }
    let text = e.render().to_string();
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("invalid arguments");
    anyhow!("{}", line.strip_prefix("error: ").unwrap_or(line))
}

/// The arguments split by the module's rules.
struct Lexed {
    /// `--name=value`/`--name` options, `--`, positionals.
    argv: Vec<OsString>,
    /// Whether `-h`/`--help` was given.
    help: bool,
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

/// Splits `args` by the rules, with `sub`'s options.
fn lex(sub: &clap::Command, name: &str, args: &[OsString]) -> Result<Lexed> {
    let options: Vec<&clap::Arg> = sub
        .get_arguments()
        .filter(|a| !a.is_positional() && a.get_long().is_some())
        .collect();
    let mut opts: Vec<OsString> = Vec::new();
    let mut positionals: Vec<OsString> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    let mut help = false;
    let mut i = 0;
    while i < args.len() {
        let raw = &args[i];
        i += 1;
        let Some(s) = raw.to_str() else {
            // Not UTF-8: never an option.
            positionals.push(raw.clone());
            continue;
        };
        if s == "--" {
            positionals.extend(args[i..].iter().cloned());
            break;
        }
        let Some((oname, inline)) = option_shape(s) else {
            positionals.push(raw.clone());
            continue;
        };
        if oname == "help" || (oname == "h" && !s.starts_with("--")) {
            help = true;
            continue;
        }
        // Long options need `--`; a single-dash long name is a typo we name.
        let found = if s.starts_with("--") {
            options.iter().find(|a| a.get_long() == Some(oname))
        } else {
            None
        };
        let Some(arg) = found else {
            return Err(unknown_option(sub, name, s, oname, &options));
        };
        let long = arg.get_long().unwrap_or(oname);
        let repeat = matches!(arg.get_action(), ArgAction::Append);
        if !repeat && seen.contains(&long) {
            bail!("option '--{long}' given more than once");
        }
        seen.push(long);
        if arg.get_action().takes_values() {
            let v: &OsStr = match inline {
                Some(v) => OsStr::new(v),
                None => {
                    let Some(v) = args.get(i) else {
                        bail!("option '--{long}' needs a value");
                    };
                    i += 1;
                    v
                }
            };
            let Some(v) = v.to_str() else {
                bail!("the value of '--{long}' is not valid UTF-8: {:?}", v);
            };
            opts.push(format!("--{long}={v}").into());
        } else {
            if inline.is_some() {
                bail!("option '--{long}' takes no value");
            }
            opts.push(format!("--{long}").into());
        }
    }
    opts.push("--".into());
    opts.extend(positionals);
    Ok(Lexed { argv: opts, help })
}

/// The message of an unknown option, with clap's suggestion of a close one.
fn unknown_option(
    sub: &clap::Command,
    cmd: &str,
    given: &str,
    name: &str,
    options: &[&clap::Arg],
) -> anyhow::Error {
    let long = format!("--{name}");
    // SQL's and other tools' spellings of the inclusive bounds: the close
    // strict option (--gt for --gte) is the wrong one to suggest.
    let alias = match name {
        "gte" | "geq" | "ge=" | "min" => Some("ge"),
        "lte" | "leq" | "le=" | "max" => Some("le"),
        "equals" | "equal" | "eql" => Some("eq"),
        _ => None,
    }
    .filter(|a| options.iter().any(|o| o.get_long() == Some(*a)));
    let hint = if let Some(a) = alias {
        Some(format!("--{a}"))
    } else if options.iter().any(|a| a.get_long() == Some(name)) {
        // `-format`: the option exists with two dashes.
        Some(long)
    } else {
        suggestion(
            sub.clone()
                .try_get_matches_from([OsString::from(cmd), OsString::from(&long)]),
            ContextKind::SuggestedArg,
        )
    }
    .map(|s| format!(": did you mean '{s}'?"))
    .unwrap_or_default();
    let known: Vec<String> = options
        .iter()
        .filter_map(|a| a.get_long())
        .map(|l| format!("--{l}"))
        .collect();
    anyhow!(
        "unknown option '{}' for '{cmd}'{hint} (accepted: {}); an argument that begins with '-' \
         can be passed after '--'",
        given.split('=').next().unwrap_or(given),
        if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        }
    )
}

/// Whether `a` is within two edits of `b` (a typo of it).
fn close(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()] <= 2
}

impl DecodeArgs {
    /// The output `--output`, `--values` and `--json` ask for.
    ///
    /// # Errors
    /// Two of them that disagree.
    pub fn output(&self) -> Result<Output> {
        let mut chosen = self.output;
        for (given, o, name) in [
            (self.values, Output::Values, "--values"),
            (self.key.json, Output::Json, "--json"),
        ] {
            if given {
                match chosen {
                    Some(c) if c != o => bail!(
                        "{name} and another output option disagree: choose one of --output \
                         components|values|json, --values, --json"
                    ),
                    _ => chosen = Some(o),
                }
            }
        }
        Ok(chosen.unwrap_or(Output::Components))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    fn range(v: &[&str]) -> RangeArgs {
        match parse("range", &os(v)).unwrap() {
            Parsed::Run(Command::Range(r)) => r,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn hyphen_positionals() {
        let r = range(&["-5", "--%20", "-", "--table", "-x", "---7="]);
        assert_eq!(r.components, os(&["-5", "--%20", "-", "---7="]));
        assert_eq!(r.table.as_deref(), Some("-x"));
        let r = range(&["--json", "--", "--json", "-h"]);
        assert!(r.json);
        assert_eq!(r.components, os(&["--json", "-h"]));
    }

    #[test]
    fn predicates_keep_their_order() {
        let r = range(&[
            "--lt",
            "i64:9",
            "str:a",
            "--ge=i64:1",
            "--prefix",
            "-x",
            "--lt",
            "i64:8",
        ]);
        let got: Vec<(PredOp, &str)> = r.preds.iter().map(|p| (p.op, p.value.as_str())).collect();
        assert_eq!(
            got,
            [
                (PredOp::Lt, "i64:9"),
                (PredOp::Ge, "i64:1"),
                (PredOp::Prefix, "-x"),
                (PredOp::Lt, "i64:8")
            ]
        );
    }

    #[test]
    fn errors() {
        let err = |v: &[&str]| parse("encode", &os(v)).unwrap_err().to_string();
        assert!(err(&["--fromat", "hex"]).contains("did you mean '--format'"));
        assert!(err(&["-x"]).starts_with("unknown option '-x' for 'encode'"));
        assert!(err(&["--format"]).contains("needs a value"));
        assert!(err(&["--format=hex", "--format=hex"]).contains("more than once"));
        assert!(err(&["--json=1"]).contains("takes no value"));
        assert!(err(&["--format", "hexx"]).contains("unknown format \"hexx\""));
        assert!(unknown_command("encod")
            .to_string()
            .contains("did you mean 'encode'"));
    }
}
