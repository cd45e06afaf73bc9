//! The interop profiles on the command line: `--format fdb-tuple`,
//! `--format hbase-ordered` and `--format phoenix` on `encode`, `decode` and
//! `range`, for keys that Java code (HBase `OrderedBytes`/`Struct`, Apache
//! Phoenix) and the FoundationDB tuple layer read and write. The encodings
//! themselves are the library's ([`lexikey::interop`]); this module parses
//! the command line's components and schemas, prints keys as lowercase hex
//! and decoded components in each profile's `TYPE[.desc]:VALUE` syntax, and
//! computes ranges.
//!
//! # Ranges
//!
//! `range` computes `[start, end)` over the profile's keys: the keys whose
//! leading components are the prefix components and whose next component
//! satisfies every predicate. Every bound is exact (no key outside the
//! answer lies inside the range, no key of the answer outside it):
//!
//! - **fdb-tuple**: with no predicate, FoundationDB's own
//!   `Subspace(prefix).range()`: `[prefix + 00, prefix + FF)`, the tuples that
//!   extend the prefix by at least one element (the prefix tuple itself is
//!   not in it). Predicates compare elements in the tuple layer's order,
//!   which orders types by type code (null < bytes < str < … < int < f32 <
//!   f64 < bool < uuid < versionstamp). `--eq e` is `[p+pack(e),
//!   p+pack(e)+FF)`: the tuple `(prefix…, e)` and every tuple extending it.
//! - **hbase-ordered** and **phoenix**: with no predicate, every row whose
//!   leading fields are the prefix, including the row whose remaining fields
//!   are all null (which `Struct` and Phoenix write as the prefix alone).
//!   Comparisons (`--ge`, `--gt`, `--le`, `--lt`, `--prefix`) never match a
//!   null next field, as in SQL; `--eq TYPE` (a bare type: null) matches
//!   the rows whose next field is null.
//!
//! Salted Phoenix tables (`--salt-buckets N`): the salt byte hashes the
//! whole row key, so a range is one sub-range per bucket, `[b ‖ start,
//! b ‖ end)` for `b` = 0 … N−1.

use anyhow::{anyhow, bail, Context, Result};
use lexikey::interop::{fdb, hbase, phoenix, ValueError};
use lexikey::range::prefix_end;
use lexikey::{DecodeError, KeyRange};

pub use crate::args::Profile;
use crate::args::{DecodeArgs, EncodeArgs, KeyArgs, PredOp, RangeArgs, SaltArgs};
use crate::common::{self, FLUSH_AT};
use crate::progress::Progress;
use crate::Io;

/// The options of an interop profile.
#[derive(Debug, Clone, Copy, Default)]
pub struct Opts {
    /// `--salt-buckets N` (Phoenix only).
    pub salt: Option<u16>,
    /// `--hbase-numeric current|legacy` (hbase-ordered only).
    pub hbase: hbase::Codec,
    /// `--round` (phoenix only): round a DECIMAL of more than 38 digits.
    pub rounding: phoenix::DecimalRounding,
}

/// The command-line options a profile checks.
struct Given<'a> {
    /// `--width`.
    width: Option<&'a str>,
    /// Options of the native formats only: name and whether given.
    refused: &'a [(&'a str, bool)],
    /// `--salt-buckets`, `--salt-mode`.
    salt: &'a SaltArgs,
    /// `--hbase-numeric`.
    hbase_numeric: Option<&'a str>,
    /// `--round`.
    round: bool,
}

/// The profile options parsed: `--salt-buckets`, `--hbase-numeric`,
/// `--round`, each refused for a profile it does not apply to.
fn common_options(profile: Profile, given: &Given<'_>) -> Result<Opts> {
    let mut opts = Opts {
        salt: salt_option(profile, given)?,
        ..Opts::default()
    };
    if let Some(v) = given.hbase_numeric {
        if profile != Profile::Hbase {
            bail!(
                "--hbase-numeric applies only to --format hbase-ordered, not {}",
                profile.name()
            );
        }
        let Some(n) = hbase::NumericEncoding::from_name(v) else {
            bail!(
                "invalid --hbase-numeric {v:?}: expected current (HBase 2.5.0 and later, the \
                 default) or legacy (HBase 2.4.x and older, before HBASE-26566)"
            );
        };
        opts.hbase = hbase::Codec::new(n);
    }
    if given.round {
        if profile != Profile::Phoenix {
            bail!(
                "--round applies only to --format phoenix (a DECIMAL of more than 38 digits), \
                 not {}",
                profile.name()
            );
        }
        opts.rounding = phoenix::DecimalRounding::HalfUp;
    }
    Ok(opts)
}

/// `--salt-buckets N` parsed (Phoenix only, 1 to 256; `--salt-mode` may
/// only say `phoenix`), the options of the native formats refused.
fn salt_option(profile: Profile, given: &Given<'_>) -> Result<Option<u16>> {
    let salt = given.salt;
    if given.width.is_some() {
        bail!(
            "--width applies only to --format decimal (the {} profile fixes its own widths)",
            profile.name()
        );
    }
    if let Some((opt, _)) = given.refused.iter().find(|(_, given)| *given) {
        bail!(
            "--{opt} applies to geo components of the native formats (hex, base64, decimal, \
             binary), not --format {}",
            profile.name()
        );
    }
    let mode = salt.salt_mode;
    let Some(v) = salt.salt_buckets.as_deref() else {
        if mode.is_some() {
            bail!("--salt-mode needs --salt-buckets N");
        }
        return Ok(None);
    };
    if profile != Profile::Phoenix {
        bail!(
            "--salt-buckets applies only to --format phoenix (a SALT_BUCKETS table) among the \
             interop profiles, not {} (the native formats take it too)",
            profile.name()
        );
    }
    if mode == Some(lexikey::salt::SaltMode::Fast) {
        bail!("--salt-mode fast does not apply to --format phoenix, whose salt is always Phoenix's hash");
    }
    match v.parse::<u16>() {
        Ok(n @ 1..=256) => Ok(Some(n)),
        _ => bail!(
            "invalid --salt-buckets {v:?}: expected a number from 1 to 256 (Phoenix's SALT_BUCKETS)"
        ),
    }
}

/// [`common_options`] for `encode` and `decode` (`round`: `--round`,
/// which `decode` does not take).
fn key_options(profile: Profile, k: &KeyArgs, round: bool) -> Result<Opts> {
    let refused = [
        ("curve", k.geo.curve.is_some()),
        ("bits", k.geo.bits.is_some()),
    ];
    common_options(
        profile,
        &Given {
            width: k.format.width.as_deref(),
            refused: &refused,
            salt: &k.salt,
            hbase_numeric: k.hbase_numeric.as_deref(),
            round,
        },
    )
}

// ---------------------------------------------------------------------------
// Components and schemas
// ---------------------------------------------------------------------------

/// Components of one key, parsed in a profile's syntax.
#[derive(Debug, Clone)]
pub enum Row {
    /// Tuple elements.
    Fdb(Vec<fdb::Element>),
    /// Struct fields and their values.
    Hbase(Vec<hbase::Field>, Vec<hbase::Value>),
    /// Primary-key columns and their values.
    Phoenix(Vec<phoenix::Column>, Vec<phoenix::Value>),
}

/// Parses `TYPE[.desc]:VALUE` components in `profile`'s syntax.
///
/// # Errors
/// The first component that does not parse, named.
pub fn parse_components(profile: Profile, texts: &[&str], opts: &Opts) -> Result<Row> {
    // The library's messages sometimes quote the component already.
    fn ctx(t: &str) -> impl Fn(lexikey::ParseError) -> anyhow::Error + '_ {
        move |e| {
            let quoted = format!("{t:?}");
            if e.to_string().contains(&quoted) {
                anyhow!("{e}")
            } else {
                anyhow!("component {quoted}: {e}")
            }
        }
    }
    Ok(match profile {
        Profile::Fdb => Row::Fdb(
            texts
                .iter()
                .map(|t| fdb::parse_component(t).map_err(ctx(t)))
                .collect::<Result<_>>()?,
        ),
        Profile::Hbase => {
            let (mut fs, mut vs) = (Vec::new(), Vec::new());
            for t in texts {
                let (f, v) = hbase::parse_component(t).map_err(ctx(t))?;
                fs.push(f);
                vs.push(v);
            }
            Row::Hbase(fs, vs)
        }
        Profile::Phoenix => {
            let (mut cs, mut vs) = (Vec::new(), Vec::new());
            for t in texts {
                let (c, v) = phoenix::parse_component_with(t, opts.rounding).map_err(ctx(t))?;
                cs.push(c);
                vs.push(v);
            }
            Row::Phoenix(cs, vs)
        }
    })
}

/// The `fdb-tuple` type names a bulk schema may use.
const FDB_TYPES: &[&str] = &[
    "null",
    "bytes",
    "str",
    "int",
    "i64",
    "u64",
    "i32",
    "u32",
    "f32",
    "float",
    "f64",
    "double",
    "bool",
    "uuid",
    "versionstamp",
];

/// A `--schema` in a profile's syntax.
#[derive(Debug, Clone)]
pub enum Schema {
    /// `fdb-tuple` element types (bulk encode only: keys are self-describing).
    Fdb(Vec<String>),
    /// `hbase-ordered` fields.
    Hbase(Vec<hbase::Field>),
    /// A Phoenix table (columns and salt).
    Phoenix(phoenix::Table),
}

impl Schema {
    fn len(&self) -> usize {
        match self {
            Schema::Fdb(t) => t.len(),
            Schema::Hbase(f) => f.len(),
            Schema::Phoenix(t) => t.columns.len(),
        }
    }

    fn field_name(&self, i: usize) -> String {
        match self {
            Schema::Fdb(t) => t[i].clone(),
            Schema::Hbase(f) => f[i].to_string(),
            Schema::Phoenix(t) => t.columns[i].to_string(),
        }
    }
}

/// Parses a comma-separated `--schema` (spaces around names are ignored).
///
/// # Errors
/// An empty schema, an unknown type, a `.desc` in `fdb-tuple`, a blob-copy
/// (HBase) or VARBINARY (Phoenix) field that is not the last.
pub fn parse_schema(profile: Profile, text: &str, salt: Option<u16>) -> Result<Schema> {
    let ctx = || format!("invalid schema {text:?}");
    if text.trim().is_empty() {
        return Err(anyhow!("empty schema: expected TYPE[.desc],...")).with_context(ctx);
    }
    let names: Vec<&str> = text.split(',').map(str::trim).collect();
    Ok(match profile {
        Profile::Fdb => {
            let mut types = Vec::new();
            for n in names {
                if n.ends_with(".desc") || n.ends_with(".asc") {
                    return Err(anyhow!(
                        "{n:?}: the FoundationDB tuple layer has no sort direction"
                    ))
                    .with_context(ctx);
                }
                if !FDB_TYPES.contains(&n) {
                    return Err(anyhow!(
                        "unknown fdb-tuple type {n:?}: expected one of {}",
                        FDB_TYPES.join(", ")
                    ))
                    .with_context(ctx);
                }
                types.push(n.to_string());
            }
            Schema::Fdb(types)
        }
        Profile::Hbase => {
            let fields = names
                .iter()
                .map(|n| hbase::Field::parse(n))
                .collect::<Result<Vec<_>, _>>()
                .with_context(ctx)?;
            check_hbase_fields(&fields).with_context(ctx)?;
            Schema::Hbase(fields)
        }
        Profile::Phoenix => {
            let mut table = phoenix::Table::parse(text).with_context(ctx)?;
            check_phoenix_columns(&table.columns).with_context(ctx)?;
            if let Some(n) = salt {
                table = table.salted(n);
            }
            Schema::Phoenix(table)
        }
    })
}

fn check_hbase_fields(fields: &[hbase::Field]) -> Result<()> {
    let n = fields.len();
    if let Some(i) = fields[..n.saturating_sub(1)]
        .iter()
        .position(|f| f.kind == hbase::Kind::BlobCopy)
    {
        bail!(
            "field {} is blob-copy, which runs to the end of the key: only the last field may use it",
            i + 1
        );
    }
    Ok(())
}

fn check_phoenix_columns(columns: &[phoenix::Column]) -> Result<()> {
    let n = columns.len();
    if let Some(i) = columns[..n.saturating_sub(1)]
        .iter()
        .position(|c| c.ty == phoenix::Type::Varbinary)
    {
        bail!(
            "column {} is VARBINARY, which may only be the last primary-key column",
            i + 1
        );
    }
    Ok(())
}

/// The message of a value the profile cannot encode; `name(i)` names
/// component `i` (zero-based).
fn value_error(e: ValueError, name: impl Fn(usize) -> String) -> anyhow::Error {
    match e {
        ValueError::Unencodable { field, reason } => anyhow!("{}: {reason}", name(field)),
        ValueError::TypeMismatch { field, expected } => {
            anyhow!("{}: expected a {expected} value", name(field))
        }
        ValueError::Schema { reason } => anyhow!("{reason}"),
        other => anyhow!("{other}"),
    }
}

/// Encodes a row as `profile` writes it (Phoenix: with the salt byte when
/// `salt` is set).
fn encode_row(row: &Row, opts: &Opts, name: impl Fn(usize) -> String) -> Result<Vec<u8>> {
    let mut key = Vec::new();
    match row {
        Row::Fdb(elems) => fdb::pack(elems, &mut key),
        Row::Hbase(fields, values) => {
            check_hbase_fields(fields)?;
            (opts.hbase)
                .encode_struct(fields, values, &mut key)
                .map_err(|e| value_error(e, name))?;
        }
        Row::Phoenix(columns, values) => {
            check_phoenix_columns(columns)?;
            let mut table = phoenix::Table::new(columns.clone());
            if let Some(n) = opts.salt {
                table = table.salted(n);
            }
            phoenix::encode_row_key(&table, values, &mut key).map_err(|e| value_error(e, name))?;
        }
    }
    Ok(key)
}

/// Parses one bulk row: the tab-separated values of the schema's fields.
fn parse_cells(schema: &Schema, cells: &[&str], lineno: u64, opts: &Opts) -> Result<Row> {
    let at = |i: usize, e: &dyn std::fmt::Display| {
        anyhow!(
            "line {lineno}, value {} ({}): {e}",
            i + 1,
            schema.field_name(i)
        )
    };
    Ok(match schema {
        Schema::Fdb(types) => Row::Fdb(
            types
                .iter()
                .zip(cells)
                .enumerate()
                .map(|(i, (ty, c))| {
                    fdb::parse_component(&format!("{ty}:{c}")).map_err(|e| at(i, &e))
                })
                .collect::<Result<_>>()?,
        ),
        Schema::Hbase(fields) => Row::Hbase(
            fields.clone(),
            fields
                .iter()
                .zip(cells)
                .enumerate()
                .map(|(i, (f, c))| hbase::parse_value(f.kind, c).map_err(|e| at(i, &e)))
                .collect::<Result<_>>()?,
        ),
        Schema::Phoenix(table) => Row::Phoenix(
            table.columns.clone(),
            table
                .columns
                .iter()
                .zip(cells)
                .enumerate()
                .map(|(i, (col, c))| {
                    phoenix::parse_value_with(col.ty, c, opts.rounding).map_err(|e| at(i, &e))
                })
                .collect::<Result<_>>()?,
        ),
    })
}

// ---------------------------------------------------------------------------
// encode
// ---------------------------------------------------------------------------

/// `lexikey encode --format PROFILE …`.
///
/// # Errors
/// Usage errors, components that do not parse, values the profile cannot
/// encode, keys over `--max-key-len`.
pub fn encode(profile: Profile, args: &EncodeArgs, io: &mut Io<'_>) -> Result<()> {
    let k = &args.key;
    let opts = key_options(profile, k, args.round)?;
    let salt = opts.salt;
    let json = k.json;
    let max = common::max_key_len(k.max_key_len);
    if k.stdin {
        let Some(text) = k.schema.as_deref() else {
            bail!("encode --stdin needs --schema TYPE[.desc],... to type the tab-separated values");
        };
        if !args.components.is_empty() {
            bail!("encode --stdin reads rows from standard input and takes no COMPONENT arguments");
        }
        let schema = parse_schema(profile, text, salt)?;
        let progress = Progress::counter("rows", k.quiet);
        return encode_bulk(&schema, &opts, json, max, &progress, io);
    }
    if k.schema.is_some() {
        bail!("--schema is for --stdin; each COMPONENT names its own type (TYPE[.desc]:VALUE)");
    }
    let texts = crate::args::utf8_positionals(&args.components, "COMPONENT")?;
    if texts.is_empty() {
        bail!(
            "missing COMPONENT: expected TYPE[.desc]:VALUE..., e.g. lexikey encode --format {} {}",
            profile.name(),
            match profile {
                Profile::Fdb => "str:hello int:5",
                Profile::Hbase => "numeric:1 text:foo",
                Profile::Phoenix => "varchar:a bigint.desc:1",
            }
        );
    }
    let row = parse_components(profile, &texts, &opts)?;
    let key = encode_row(&row, &opts, |i| {
        format!("component {} ({})", i + 1, texts.get(i).unwrap_or(&"?"))
    })?;
    lexikey::tuple::check_len(&key, max)?;
    let mut out = Vec::with_capacity(2 * key.len() + 16);
    push_key(&key, json, &mut out);
    io.stdout.write_all(&out)?;
    Ok(())
}

/// Appends a key as lowercase hex (or `{"key":"…"}`) and a newline.
fn push_key(key: &[u8], json: bool, out: &mut Vec<u8>) {
    if json {
        out.extend_from_slice(b"{\"key\":\"");
        common::push_hex(key, out);
        out.extend_from_slice(b"\"}");
    } else {
        common::push_hex(key, out);
    }
    out.push(b'\n');
}

fn encode_bulk(
    schema: &Schema,
    opts: &Opts,
    json: bool,
    max: usize,
    progress: &Progress,
    io: &mut Io<'_>,
) -> Result<()> {
    let mut out: Vec<u8> = Vec::with_capacity(FLUSH_AT + (FLUSH_AT >> 1));
    let stdout = &mut *io.stdout;
    let n = schema.len();
    let res = common::for_each_line(io.stdin, |lineno, line| {
        let line = std::str::from_utf8(line)
            .map_err(|e| anyhow!("line {lineno}: invalid UTF-8 at byte {}", e.valid_up_to()))?;
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.len() != n {
            bail!(
                "line {lineno}: expected {n} tab-separated values (one per schema field), found {}",
                cells.len()
            );
        }
        let row = parse_cells(schema, &cells, lineno, opts)?;
        let key = encode_row(&row, opts, |i| {
            format!("line {lineno}, value {} ({})", i + 1, schema.field_name(i))
        })
        .map_err(|e| {
            if e.to_string().starts_with("line ") {
                e
            } else {
                anyhow!("line {lineno}: {e}")
            }
        })?;
        lexikey::tuple::check_len(&key, max).map_err(|e| anyhow!("line {lineno}: {e}"))?;
        push_key(&key, json, &mut out);
        progress.row(lineno);
        common::maybe_flush(stdout, &mut out)
    });
    stdout.write_all(&out)?;
    res
}

// ---------------------------------------------------------------------------
// decode
// ---------------------------------------------------------------------------

/// A decoded key.
#[derive(Debug, Clone)]
pub enum Decoded {
    /// Tuple elements.
    Fdb(Vec<fdb::Element>),
    /// One value per struct field (null after the end of the key).
    Hbase(Vec<(hbase::Field, hbase::Value)>),
    /// One value per primary-key column (null after the end of the key).
    Phoenix(Vec<(phoenix::Column, phoenix::Value)>),
}

/// Decodes `key` (canonically: keys the Java side or FoundationDB bindings
/// could not have written are errors).
///
/// # Errors
/// The decoder's error, with the offset of the byte at fault.
pub fn decode_key(
    schema: Option<&Schema>,
    key: &[u8],
    codec: hbase::Codec,
) -> Result<Decoded, DecodeError> {
    Ok(match schema {
        None | Some(Schema::Fdb(_)) => Decoded::Fdb(fdb::unpack(key)?),
        Some(Schema::Hbase(fields)) => {
            let values = codec.decode_struct(fields, key)?;
            Decoded::Hbase(fields.iter().copied().zip(values).collect())
        }
        Some(Schema::Phoenix(table)) => {
            let values = phoenix::decode_row_key(table, key)?;
            Decoded::Phoenix(table.columns.iter().copied().zip(values).collect())
        }
    })
}

/// The components of a decoded key in the profile's `TYPE[.desc]:VALUE`
/// syntax (what `encode` reads back; a bare type is null).
pub fn component_texts(d: &Decoded) -> Vec<String> {
    match d {
        Decoded::Fdb(es) => es.iter().map(fdb::format_component).collect(),
        Decoded::Hbase(vs) => vs
            .iter()
            .map(|(f, v)| hbase::format_component(*f, v))
            .collect(),
        Decoded::Phoenix(vs) => vs
            .iter()
            .map(|(c, v)| phoenix::format_component(*c, v))
            .collect(),
    }
}

/// `lexikey decode --format PROFILE …`.
///
/// # Errors
/// Usage errors and keys that do not decode.
pub fn decode(profile: Profile, args: &DecodeArgs, io: &mut Io<'_>) -> Result<()> {
    let k = &args.key;
    let opts = key_options(profile, k, false)?;
    let salt = opts.salt;
    let json = k.json;
    let max = common::max_key_len(k.max_key_len);
    let schema = match (profile, k.schema.as_deref()) {
        (Profile::Fdb, None) => None,
        (Profile::Fdb, Some(_)) => bail!(
            "fdb-tuple keys are self-describing (each element has its type code): decode takes no --schema"
        ),
        (_, Some(s)) => Some(parse_schema(profile, s, salt)?),
        (_, None) => bail!(
            "{} keys do not name their {}: pass --schema TYPE[.desc],... (e.g. --schema {})",
            profile.name(),
            if profile == Profile::Hbase {
                "fields"
            } else {
                "columns"
            },
            if profile == Profile::Hbase {
                "numeric,text.desc"
            } else {
                "varchar,bigint.desc"
            }
        ),
    };
    if k.stdin {
        if !args.keys.is_empty() {
            bail!("decode --stdin reads keys from standard input and takes no KEY argument");
        }
        let progress = Progress::counter("keys", k.quiet);
        return decode_bulk(
            profile,
            schema.as_ref(),
            opts.hbase,
            json,
            max,
            &progress,
            io,
        );
    }
    let key = match args.keys.as_slice() {
        [k] => k,
        [] => bail!("missing KEY: expected exactly one key (or --stdin for one key per line)"),
        _ => bail!(
            "decode takes exactly one KEY, got {} (use --stdin for many)",
            args.keys.len()
        ),
    };
    let raw = common::os_bytes(key);
    let mut buf = Vec::new();
    key_from_hex(profile, &raw, max, &mut buf)?;
    let d =
        decode_key(schema.as_ref(), &buf, opts.hbase).map_err(|e| invalid_key(profile, &raw, e))?;
    let mut out = Vec::with_capacity(64);
    if json {
        push_decoded_json(&d, &mut out);
        out.push(b'\n');
    } else {
        for t in component_texts(&d) {
            check_line(&t, b"\n")?;
            out.extend_from_slice(t.as_bytes());
            out.push(b'\n');
        }
    }
    io.stdout.write_all(&out)?;
    Ok(())
}

/// Refuses a component text holding a byte of `forbidden` (a newline, or in
/// bulk output a tab), which the line-oriented output cannot hold.
fn check_line(text: &str, forbidden: &[u8]) -> Result<()> {
    if let Some(b) = text.bytes().find(|b| forbidden.contains(b)) {
        bail!(
            "a component holds {}, which the line-oriented text output cannot show: use --json",
            if b == b'\n' { "a newline" } else { "a tab" }
        );
    }
    Ok(())
}

/// Decodes a hex key (either case) into `buf`.
fn key_from_hex(profile: Profile, raw: &[u8], max: usize, buf: &mut Vec<u8>) -> Result<()> {
    if raw.len() > 2 * max {
        bail!(
            "key of {} bytes is longer than the limit of {max} bytes",
            raw.len() / 2
        );
    }
    common::unhex_key(raw, buf).map_err(|e| match e {
        None => anyhow!(
            "invalid {} key \"{}\": keys are given as hex, and this has an odd number of digits ({})",
            profile.name(),
            common::show_key(raw),
            raw.len()
        ),
        Some(at) => anyhow!(
            "invalid {} key \"{}\": keys are given as hex, bad digit at character {at}",
            profile.name(),
            common::show_key(raw),
        ),
    })
}

fn invalid_key(profile: Profile, raw: &[u8], e: DecodeError) -> anyhow::Error {
    anyhow!(
        "invalid {} key \"{}\": {e} (byte N of the key is hex digits 2N and 2N+1)",
        profile.name(),
        common::show_key(raw)
    )
}

fn decode_bulk(
    profile: Profile,
    schema: Option<&Schema>,
    codec: hbase::Codec,
    json: bool,
    max: usize,
    progress: &Progress,
    io: &mut Io<'_>,
) -> Result<()> {
    let mut out: Vec<u8> = Vec::with_capacity(FLUSH_AT + (FLUSH_AT >> 1));
    let mut buf = Vec::with_capacity(256);
    let stdout = &mut *io.stdout;
    let res = common::for_each_line(io.stdin, |lineno, line| {
        let start = out.len();
        let r = (|| -> Result<()> {
            key_from_hex(profile, line, max, &mut buf)?;
            let d = decode_key(schema, &buf, codec).map_err(|e| invalid_key(profile, line, e))?;
            if json {
                push_decoded_json(&d, &mut out);
            } else {
                for (i, t) in component_texts(&d).iter().enumerate() {
                    check_line(t, b"\t\n").map_err(|e| anyhow!("component {}: {e}", i + 1))?;
                    if i > 0 {
                        out.push(b'\t');
                    }
                    out.extend_from_slice(t.as_bytes());
                }
            }
            out.push(b'\n');
            Ok(())
        })();
        if let Err(e) = r {
            out.truncate(start);
            return Err(anyhow!("line {lineno}: {e:#}"));
        }
        progress.row(lineno);
        common::maybe_flush(stdout, &mut out)
    });
    stdout.write_all(&out)?;
    res
}

// ---------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------

/// A JSON value of a component.
enum Json {
    Null,
    /// A number or `true`/`false`, written as it is.
    Literal(String),
    Str(String),
    /// Nested tuple elements.
    Array(Vec<fdb::Element>),
}

/// Appends `{"components":[{"type":…,"dir":…,"value":…},…]}`.
pub fn push_decoded_json(d: &Decoded, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"components\":");
    match d {
        Decoded::Fdb(es) => push_fdb_array(es, out),
        Decoded::Hbase(vs) => {
            out.push(b'[');
            for (i, (f, v)) in vs.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let j = hbase_json(*f, v);
                push_component_json(f.kind.name(), f.order == hbase::Order::Descending, j, out);
            }
            out.push(b']');
        }
        Decoded::Phoenix(vs) => {
            out.push(b'[');
            for (i, (c, v)) in vs.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let j = phoenix_json(*c, v);
                let ty = c.ty.to_string();
                push_component_json(&ty, c.order == phoenix::SortOrder::Desc, j, out);
            }
            out.push(b']');
        }
    }
    out.push(b'}');
}

fn push_component_json(ty: &str, desc: bool, value: Json, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"type\":");
    common::push_json_str(ty, out);
    out.extend_from_slice(if desc {
        b",\"dir\":\"desc\",\"value\":"
    } else {
        b",\"dir\":\"asc\",\"value\":"
    });
    match value {
        Json::Null => out.extend_from_slice(b"null"),
        Json::Literal(s) => out.extend_from_slice(s.as_bytes()),
        Json::Str(s) => common::push_json_str(&s, out),
        Json::Array(es) => push_fdb_array(&es, out),
    }
    out.push(b'}');
}

fn push_fdb_array(es: &[fdb::Element], out: &mut Vec<u8>) {
    out.push(b'[');
    for (i, e) in es.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let (ty, j) = fdb_json(e);
        push_component_json(ty, false, j, out);
    }
    out.push(b']');
}

/// The value part of a `TYPE:VALUE` text.
fn value_text(component: String) -> String {
    match component.split_once(':') {
        Some((_, v)) => v.to_string(),
        None => String::new(),
    }
}

/// A float: a JSON number when finite (shortest round-trip form), else its
/// component text (`NaN`, `inf`, `-inf`, or `0x` + raw bits) as a string.
fn float_json(finite: bool, debug: String, component: impl FnOnce() -> String) -> Json {
    if finite {
        Json::Literal(debug)
    } else {
        Json::Str(value_text(component()))
    }
}

fn fdb_json(e: &fdb::Element) -> (&'static str, Json) {
    use fdb::Element as E;
    let text = || value_text(fdb::format_component(e));
    match e {
        E::Null => ("null", Json::Null),
        E::Bytes(b) => ("bytes", Json::Str(lexikey::to_hex(b))),
        E::String(s) => ("str", Json::Str(s.clone())),
        E::Nested(v) => ("nested", Json::Array(v.clone())),
        E::Int(i) => ("int", Json::Literal(i.to_string())),
        E::Float(f) => (
            "f32",
            float_json(f.is_finite(), format!("{f:?}"), || fdb::format_component(e)),
        ),
        E::Double(f) => (
            "f64",
            float_json(f.is_finite(), format!("{f:?}"), || fdb::format_component(e)),
        ),
        E::Bool(b) => ("bool", Json::Literal(b.to_string())),
        E::Uuid(_) => ("uuid", Json::Str(text())),
        E::Versionstamp(_) => ("versionstamp", Json::Str(text())),
    }
}

fn hbase_json(f: hbase::Field, v: &hbase::Value) -> Json {
    use hbase::Value as V;
    let text = || hbase::format_component(f, v);
    match v {
        V::Null => Json::Null,
        V::Int8(x) => Json::Literal(x.to_string()),
        V::Int16(x) => Json::Literal(x.to_string()),
        V::Int32(x) => Json::Literal(x.to_string()),
        V::Int64(x) => Json::Literal(x.to_string()),
        V::Float32(x) => float_json(x.is_finite(), format!("{x:?}"), text),
        V::Float64(x) => float_json(x.is_finite(), format!("{x:?}"), text),
        // Exact decimal text: up to 31 digits and exponents beyond f64.
        V::Numeric(n) => Json::Str(n.to_string()),
        V::Text(s) => Json::Str(s.clone()),
        V::Bytes(b) => Json::Str(lexikey::to_hex(b)),
    }
}

fn phoenix_json(c: phoenix::Column, v: &phoenix::Value) -> Json {
    use phoenix::Value as V;
    let text = || phoenix::format_component(c, v);
    match v {
        V::Null => Json::Null,
        V::Int(x) => Json::Literal(x.to_string()),
        V::Float(x) => float_json(x.is_finite(), format!("{x:?}"), text),
        V::Double(x) => float_json(x.is_finite(), format!("{x:?}"), text),
        V::Bool(b) => Json::Literal(b.to_string()),
        V::Date(_) | V::Timestamp(..) => Json::Str(value_text(text())),
        V::Varchar(s) | V::Char(s) => Json::Str(s.clone()),
        V::Varbinary(b) | V::Binary(b) => Json::Str(lexikey::to_hex(b)),
        // Exact decimal text: up to 38 digits and exponents beyond f64.
        V::Decimal(d) => Json::Str(d.to_string()),
    }
}

// ---------------------------------------------------------------------------
// range
// ---------------------------------------------------------------------------

/// A predicate operator on the next component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ge,
    Gt,
    Le,
    Lt,
}

/// The keys whose next component is one value: `[lo, hi)`, `None` for
/// −∞ / +∞.
#[derive(Debug, Clone)]
struct Span {
    lo: Option<Vec<u8>>,
    hi: Option<Vec<u8>>,
}

impl Span {
    /// The keys that start with `q`.
    fn prefix(q: Vec<u8>) -> Span {
        Span {
            hi: prefix_end(&q),
            lo: Some(q),
        }
    }

    /// The single key `q` and the keys that continue it with `suffix..`:
    /// `[q, q ‖ after)`.
    fn upto(q: Vec<u8>, after: u8) -> Span {
        Span {
            hi: Some(cat(&q, &[after])),
            lo: Some(q),
        }
    }
}

/// The intersection of the bounds seen so far.
#[derive(Debug, Default)]
struct Bounds {
    start: Option<Vec<u8>>,
    end: Option<Vec<u8>>,
    empty: bool,
}

impl Bounds {
    /// Raises the start to `lo` (`None`: −∞, no change).
    fn raise(&mut self, lo: Option<Vec<u8>>) {
        if let Some(lo) = lo {
            if self.start.as_ref().is_none_or(|s| lo > *s) {
                self.start = Some(lo);
            }
        }
    }

    /// Lowers the end to `hi` (`None`: +∞, no change).
    fn lower(&mut self, hi: Option<Vec<u8>>) {
        if let Some(hi) = hi {
            if self.end.as_ref().is_none_or(|e| hi < *e) {
                self.end = Some(hi);
            }
        }
    }

    /// Raises the start to `hi` (`None`: +∞, nothing is left).
    fn raise_past(&mut self, hi: Option<Vec<u8>>) {
        match hi {
            Some(_) => self.raise(hi),
            None => self.empty = true,
        }
    }

    /// Lowers the end to `lo` (`None`: −∞, nothing is left).
    fn lower_below(&mut self, lo: Option<Vec<u8>>) {
        match lo {
            Some(_) => self.lower(lo),
            None => self.empty = true,
        }
    }

    /// Keeps only the keys in `span`.
    fn within(&mut self, span: Span) {
        self.raise(span.lo);
        self.lower(span.hi);
    }

    /// Applies `op` against the keys of one value; `desc`: the component
    /// sorts in descending value order.
    fn apply(&mut self, op: Op, span: Span, desc: bool) {
        match (op, desc) {
            (Op::Eq, _) => self.within(span),
            (Op::Ge, false) | (Op::Le, true) => self.raise(span.lo),
            (Op::Ge, true) | (Op::Le, false) => self.lower(span.hi),
            (Op::Gt, false) | (Op::Lt, true) => self.raise_past(span.hi),
            (Op::Gt, true) | (Op::Lt, false) => self.lower_below(span.lo),
        }
    }

    fn finish(self) -> Result<KeyRange> {
        let empty = self.empty
            || matches!((&self.start, &self.end), (Some(s), Some(e)) if s >= e)
            || self.end.as_deref() == Some(&[][..]);
        if empty {
            bail!("no key can match: the predicates leave an empty range (start >= end)");
        }
        Ok(KeyRange {
            start: self.start,
            end: self.end,
        })
    }
}

fn cat(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(a.len() + b.len());
    v.extend_from_slice(a);
    v.extend_from_slice(b);
    v
}

/// One predicate from the command line.
enum Pred<'a> {
    Cmp(Op, &'a str, &'a str),
    Prefix(&'a str),
}

fn predicates(args: &RangeArgs) -> Vec<Pred<'_>> {
    args.preds
        .iter()
        .map(|p| {
            let v = p.value.as_str();
            let op = match p.op {
                PredOp::Eq => Op::Eq,
                PredOp::Ge => Op::Ge,
                PredOp::Gt => Op::Gt,
                PredOp::Le => Op::Le,
                PredOp::Lt => Op::Lt,
                PredOp::Prefix => return Pred::Prefix(v),
            };
            Pred::Cmp(op, p.op.name(), v)
        })
        .collect()
}

/// The ranges of a `range --format PROFILE` query: one, or one per salt
/// bucket for a salted Phoenix table.
///
/// # Errors
/// Components and predicates that do not parse or encode, predicates on
/// different types, an empty range.
pub fn ranges(profile: Profile, args: &RangeArgs) -> Result<Vec<KeyRange>> {
    let refused = [
        ("curve", args.geo.curve.is_some()),
        ("bits", args.geo.bits.is_some()),
        ("bbox", args.bbox.is_some()),
        ("max-ranges", args.max_ranges.is_some()),
    ];
    let opts = common_options(
        profile,
        &Given {
            width: args.format.width.as_deref(),
            refused: &refused,
            salt: &args.salt,
            hbase_numeric: args.hbase_numeric.as_deref(),
            round: args.round,
        },
    )?;
    let salt = opts.salt;
    let texts = crate::args::utf8_positionals(&args.components, "PREFIX_COMPONENT")?;
    let row = parse_components(profile, &texts, &opts)?;
    let preds = predicates(args);
    let name = |i: usize| format!("component {} ({})", i + 1, texts.get(i).unwrap_or(&"?"));
    let range = match row {
        Row::Fdb(prefix) => fdb_range(&prefix, &preds)?,
        Row::Hbase(fields, values) => hbase_range(&fields, &values, &preds, opts.hbase, name)?,
        Row::Phoenix(columns, values) => {
            phoenix_range(&columns, &values, &preds, opts.rounding, name)?
        }
    };
    Ok(match salt {
        None => vec![range],
        Some(n) => (0..n)
            .map(|b| {
                // b < n <= 256.
                let b = b as u8;
                KeyRange {
                    start: Some(cat(&[b], range.start.as_deref().unwrap_or_default())),
                    end: match &range.end {
                        Some(e) => Some(cat(&[b], e)),
                        None => b.checked_add(1).map(|n| vec![n]),
                    },
                }
            })
            .collect(),
    })
}

fn pred_error(op: &str, text: &str, e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("--{op} {text:?}: {e}")
}

fn fdb_range(prefix: &[fdb::Element], preds: &[Pred<'_>]) -> Result<KeyRange> {
    let p = fdb::pack_to_vec(prefix);
    // Subspace(prefix).range(): every tuple extending the prefix.
    let mut b = Bounds {
        start: Some(cat(&p, &[0x00])),
        end: Some(cat(&p, &[0xFF])),
        empty: false,
    };
    for pred in preds {
        match pred {
            Pred::Prefix(s) => {
                let mut q = p.clone();
                fdb::pack(&[fdb::Element::String(s.to_string())], &mut q);
                q.pop(); // the string's 00 terminator: longer strings continue
                b.within(Span::prefix(q));
            }
            Pred::Cmp(op, name, text) => {
                let e = fdb::parse_component(text).map_err(|e| pred_error(name, text, e))?;
                let mut q = p.clone();
                fdb::pack(&[e], &mut q);
                // Type codes are below FF and an element's bytes never
                // continue with FF where another element of the same value
                // starts: [q, q ‖ FF) is exactly the tuples (prefix…, e, …).
                b.apply(*op, Span::upto(q, 0xFF), false);
            }
        }
    }
    b.finish()
}

/// Checks that every predicate is on the same field, returning it.
fn same_field<F: PartialEq + std::fmt::Display + Copy>(
    seen: &mut Option<F>,
    f: F,
    name: &str,
    text: &str,
) -> Result<()> {
    match seen {
        None => *seen = Some(f),
        Some(s) if *s == f => {}
        Some(s) => bail!(
            "--{name} {text:?}: the predicates are on one component, of type {s}; this one is {f}"
        ),
    }
    Ok(())
}

fn hbase_range(
    fields: &[hbase::Field],
    values: &[hbase::Value],
    preds: &[Pred<'_>],
    codec: hbase::Codec,
    name: impl Fn(usize) -> String + Copy,
) -> Result<KeyRange> {
    use hbase::{Field, Kind, Order, Value};
    check_hbase_fields(fields)?;
    let mut p = Vec::new();
    for (i, (f, v)) in fields.iter().zip(values).enumerate() {
        (codec)
            .encode_value(*f, v, &mut p)
            .map_err(|e| value_error(e, |_| name(i)))?;
    }
    // The row whose remaining fields are all null: Struct omits trailing nulls.
    let mut row = Vec::new();
    (codec)
        .encode_struct(fields, values, &mut row)
        .map_err(|e| value_error(e, name))?;
    if fields.last().is_some_and(|f| f.kind == Kind::BlobCopy) {
        if !preds.is_empty() {
            bail!("no component can follow a blob-copy component: it runs to the end of the key");
        }
        return KeyRange::new(
            (!row.is_empty()).then(|| row.clone()),
            Some(cat(&row, &[0])),
        )
        .map_err(|e| anyhow!("{e}"));
    }
    // A descending null sorts last: the row without it is not next to the
    // rows that write it, so the range then starts at the written prefix.
    let trailing_desc_null = values
        .iter()
        .zip(fields)
        .rev()
        .take_while(|(v, _)| matches!(v, Value::Null))
        .any(|(_, f)| f.order == Order::Descending);
    let start = if trailing_desc_null { p.clone() } else { row };
    let region_start = (!start.is_empty()).then_some(start);
    let mut b = Bounds {
        start: region_start.clone(),
        end: prefix_end(&p),
        empty: false,
    };
    let mut field: Option<Field> = None;
    let mut compares = false;
    for pred in preds {
        match pred {
            Pred::Prefix(s) => {
                same_field(&mut field, Field::asc(Kind::Text), "prefix", s)?;
                if s.contains('\0') {
                    bail!("--prefix {s:?}: HBase text may not contain U+0000");
                }
                compares = true;
                let mut q = cat(&p, &[hbase::TEXT]);
                q.extend_from_slice(s.as_bytes());
                b.within(Span::prefix(q));
            }
            Pred::Cmp(op, name, text) => {
                let (f, v) = hbase::parse_component(text).map_err(|e| pred_error(name, text, e))?;
                same_field(&mut field, f, name, text)?;
                let desc = f.order == Order::Descending;
                let span = if matches!(v, Value::Null) {
                    if !f.kind.is_nullable() {
                        return Err(pred_error(name, text, "a fixed-width field is never null"));
                    }
                    if *op != Op::Eq {
                        return Err(pred_error(
                            name,
                            text,
                            "a null (a bare type) only goes with --eq: comparisons never match null",
                        ));
                    }
                    if desc {
                        Span::prefix(cat(&p, &[!hbase::NULL]))
                    } else {
                        Span {
                            lo: region_start.clone(),
                            hi: Some(cat(&p, &[hbase::NULL + 1])),
                        }
                    }
                } else {
                    compares |= *op != Op::Eq;
                    let mut q = p.clone();
                    codec
                        .encode_value(f, &v, &mut q)
                        .map_err(|e| value_error(e, |_| format!("--{name} {text:?}")))?;
                    if f.kind == Kind::BlobCopy && !desc {
                        // Runs to the end of the key: longer blobs are other values.
                        Span::upto(q, 0x00)
                    } else {
                        Span::prefix(q)
                    }
                };
                b.apply(*op, span, desc);
            }
        }
    }
    if let Some(f) = field.filter(|_| compares) {
        // Comparisons match the non-null values of the field's kind only:
        // the keys whose next header is one of the kind's (not a written
        // null, not the row written as the prefix alone).
        let (lo, hi) = match f.kind {
            Kind::Numeric => (hbase::NEG_INF, hbase::NAN),
            k => (k.header(), k.header()),
        };
        let (lo, hi) = match f.order {
            Order::Ascending => (lo, hi),
            Order::Descending => (!hi, !lo),
        };
        b.within(Span {
            lo: Some(cat(&p, &[lo])),
            hi: Some(cat(&p, &[hi + 1])),
        });
    }
    b.finish()
}

fn phoenix_range(
    columns: &[phoenix::Column],
    values: &[phoenix::Value],
    preds: &[Pred<'_>],
    rounding: phoenix::DecimalRounding,
    name: impl Fn(usize) -> String + Copy,
) -> Result<KeyRange> {
    use phoenix::{Column, SortOrder, Type};
    check_phoenix_columns(columns)?;
    let var = |c: &Column| c.ty.fixed_width().is_none();
    // The prefix as written when more columns follow: each variable-width
    // value ends with its separator (FF after a non-null DESC value).
    let mut p = Vec::new();
    for (i, (c, v)) in columns.iter().zip(values).enumerate() {
        if v.is_null() {
            if !var(c) {
                bail!(
                    "{}: a fixed-width primary-key column may not be null",
                    name(i)
                );
            }
        } else {
            phoenix::encode_value(*c, v, &mut p).map_err(|e| value_error(e, |_| name(i)))?;
        }
        if var(c) && c.ty != Type::Varbinary {
            let desc_sep = c.order == SortOrder::Desc && !v.is_null();
            p.push(if desc_sep {
                phoenix::DESC_SEPARATOR
            } else {
                phoenix::SEPARATOR
            });
        }
    }
    // The row whose remaining columns are all null (trailing nulls dropped).
    let row = if values.iter().all(phoenix::Value::is_null) {
        Vec::new()
    } else {
        let mut row = Vec::new();
        phoenix::encode_row_key(&phoenix::Table::new(columns.to_vec()), values, &mut row)
            .map_err(|e| value_error(e, name))?;
        row
    };
    if columns.last().is_some_and(|c| c.ty == Type::Varbinary) {
        if !preds.is_empty() {
            bail!("no column can follow a VARBINARY column: it may only be the last");
        }
        return KeyRange::new(
            (!row.is_empty()).then(|| row.clone()),
            Some(cat(&row, &[0])),
        )
        .map_err(|e| anyhow!("{e}"));
    }
    let region_start = (!row.is_empty()).then_some(row);
    let mut b = Bounds {
        start: region_start.clone(),
        end: prefix_end(&p),
        empty: false,
    };
    let mut column: Option<Column> = None;
    let mut compares = false;
    for pred in preds {
        match pred {
            Pred::Prefix(s) => {
                same_field(&mut column, Column::asc(Type::Varchar), "prefix", s)?;
                if s.contains('\0') {
                    bail!("--prefix {s:?}: a Phoenix VARCHAR may not contain U+0000");
                }
                compares = true;
                b.within(Span::prefix(cat(&p, s.as_bytes())));
            }
            Pred::Cmp(op, name, text) => {
                let (c, v) = phoenix::parse_component_with(text, rounding)
                    .map_err(|e| pred_error(name, text, e))?;
                same_field(&mut column, c, name, text)?;
                let desc = c.order == SortOrder::Desc;
                let null_after = if c.ty == Type::Varbinary { 0x00 } else { 0x01 };
                let span = if v.is_null() {
                    if !var(&c) {
                        return Err(pred_error(
                            name,
                            text,
                            "a fixed-width primary-key column is never null",
                        ));
                    }
                    if *op != Op::Eq {
                        return Err(pred_error(
                            name,
                            text,
                            "a null (a bare type or an empty value) only goes with --eq: \
                             comparisons never match null",
                        ));
                    }
                    // Null is written empty, then a 00 separator (or nothing).
                    Span {
                        lo: region_start.clone(),
                        hi: Some(cat(&p, &[null_after])),
                    }
                } else {
                    compares |= *op != Op::Eq;
                    let mut q = p.clone();
                    phoenix::encode_value(c, &v, &mut q)
                        .map_err(|e| value_error(e, |_| format!("--{name} {text:?}")))?;
                    match (c.ty, desc) {
                        // A DECIMAL is delimited like a VARCHAR: 00 (or the end of
                        // the key) after an ASC value, FF after a DESC one; neither
                        // byte occurs inside its bytes.
                        (Type::Varchar | Type::Decimal, false) => Span::upto(q, 0x01),
                        (Type::Varbinary, false) => Span::upto(q, 0x00),
                        (Type::Varbinary, true) => {
                            if *op != Op::Eq {
                                return Err(pred_error(
                                    name,
                                    text,
                                    "a DESC VARBINARY takes --eq only: its trailing FF is also an \
                                     inverted 00, so Phoenix's own key order is not the value order",
                                ));
                            }
                            q.push(phoenix::DESC_SEPARATOR);
                            Span::upto(q, 0x00)
                        }
                        (Type::Varchar | Type::Decimal, true) => {
                            q.push(phoenix::DESC_SEPARATOR);
                            Span::prefix(q)
                        }
                        _ => Span::prefix(q),
                    }
                };
                b.apply(*op, span, desc);
            }
        }
    }
    if let Some(c) = column.filter(|_| compares) {
        // Comparisons never match null (written empty, then 00 or nothing);
        // a fixed-width value always follows the whole prefix.
        b.raise(Some(match c.ty {
            Type::Varchar | Type::Decimal => cat(&p, &[0x01]),
            Type::Varbinary => cat(&p, &[0x00]),
            _ => p.clone(),
        }));
    }
    b.finish()
}
