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

use anyhow::{anyhow, bail, Result};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::profile::{
    component_texts, decode_key, encode_row, parse_cells, parse_schema, Decoded, Options, Profile,
    Schema,
};
use lexikey::frontend::spec::KeySpec;
use lexikey::interop::{fdb, hbase, phoenix};
use lexikey::range::RangeError;
use lexikey::{DecodeError, KeyRange};

use crate::args::{DecodeArgs, EncodeArgs, KeyArgs, RangeArgs, SaltArgs};
use crate::common::{self, FLUSH_AT};
use crate::progress::Progress;
use crate::Io;

/// The options of an interop profile.
pub(crate) type Opts = Options;

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
    if mode == Some(lexikey::store::salt::SaltMode::Fast) {
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
// encode
// ---------------------------------------------------------------------------

/// `lexikey encode --format PROFILE …`.
///
/// # Errors
/// Usage errors, components that do not parse, values the profile cannot
/// encode, keys over `--max-key-len`.
pub(crate) fn encode(profile: Profile, args: &EncodeArgs, io: &mut Io<'_>) -> Result<()> {
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
    let spec = KeySpec::new(KeyFormat::Profile(profile))
        .with_profile_options(opts)?
        .with_max_key_len(max);
    let comps = spec.parse_components(&texts)?;
    let key = spec.encode_named(&comps, |i| {
        format!("component {} ({})", i + 1, texts.get(i).unwrap_or(&"?"))
    })?;
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
                anyhow!(e)
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

/// `lexikey decode --format PROFILE …`.
///
/// # Errors
/// Usage errors and keys that do not decode.
pub(crate) fn decode(profile: Profile, args: &DecodeArgs, io: &mut Io<'_>) -> Result<()> {
    let k = &args.key;
    let opts = key_options(profile, k, false)?;
    let salt = opts.salt;
    let output = args.output()?;
    let json = output == crate::args::Output::Json;
    let values = output == crate::args::Output::Values;
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
            (json, values),
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
            let start = out.len();
            out.extend_from_slice(t.as_bytes());
            if values {
                crate::cmd::decode::strip_type(&mut out, start);
            }
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
    common::binary_key(raw, profile.name(), buf)
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
    (json, values): (bool, bool),
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
                    let start = out.len();
                    out.extend_from_slice(t.as_bytes());
                    if values {
                        crate::cmd::decode::strip_type(&mut out, start);
                    }
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
pub(crate) fn push_decoded_json(d: &Decoded, out: &mut Vec<u8>) {
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

/// The ranges of a `range --format PROFILE` query: one, or one per salt
/// bucket for a salted Phoenix table ([`ProfileRange`]).
///
/// # Errors
/// Components and predicates that do not parse or encode, predicates on
/// different types, an empty range.
pub(crate) fn ranges(profile: Profile, args: &RangeArgs) -> Result<Vec<KeyRange>> {
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
    if args.schema.is_some() {
        bail!(
            "--schema applies to range with the native formats; --format {} components and \
             predicates name their own types, and the predicates must agree with each other",
            profile.name()
        );
    }
    let texts = crate::args::utf8_positionals(&args.components, "PREFIX_COMPONENT")?;
    let spec = KeySpec::new(KeyFormat::Profile(profile)).with_profile_options(opts)?;
    let prefix = spec.parse_components(&texts)?;
    let preds = args
        .preds
        .iter()
        .map(|p| spec.parse_pred(p.op.name(), &p.value))
        .collect::<Result<Vec<_>, _>>()?;
    spec.ranges(&prefix, preds)
        .map_err(|e| range_error(e, &texts, args))
}

/// The command line's message of a range error: components and predicates
/// named by their text ([`lexikey::frontend::spec::range_message`]).
pub(crate) fn range_error(e: RangeError, texts: &[&str], args: &RangeArgs) -> anyhow::Error {
    let preds: Vec<&str> = args.preds.iter().map(|p| p.value.as_str()).collect();
    anyhow!(lexikey::frontend::spec::range_message(&e, texts, &preds))
}
