//! `lexikey decode`: a key back to its components, one key per invocation
//! or one key per input line (bulk mode).

use anyhow::{anyhow, bail, Result};
use lexikey::{tuple, Component, Field, Format};

use crate::args::{Args, Opt};
use crate::common::{self, FLUSH_AT};
use crate::{interop, Io};

/// The options `decode` accepts.
pub const OPTS: &[Opt] = &[
    Opt::value("format"),
    Opt::value("width"),
    Opt::flag("json"),
    Opt::value("schema"),
    Opt::flag("stdin"),
    Opt::value("max-key-len"),
    Opt::value("salt-buckets"),
];

/// Help text.
pub const USAGE: &str = "\
Usage:
  lexikey decode [--format F] [--schema TYPE[.desc],...] [--width N] [--json] KEY
  lexikey decode --stdin [--format F] [--schema ...] [--width N] [--json]

Prints one TYPE[.desc]:VALUE line per component of KEY (the COMPONENT syntax of
'lexikey encode', so the output encodes back to the same key), e.g.
  lexikey decode population#l80000000003A783C    ->  str:population
                                                     i64:3831868
Decoding is canonical: a key the encoder could not have produced (wrong case, width,
tag or escape, truncated, trailing bytes, invalid UTF-8) is an error naming the byte.

Options:
  --format F    hex (default), base64, decimal, binary (KEY given as hex, either case),
                or an interop profile: fdb-tuple, hbase-ordered, phoenix (below)
  --schema S    the fields, e.g. str,i64.desc; required for decimal and binary keys.
                Without it, hex and base64 keys are read by their tags: a part that
                is not a valid tagged value is read as an ascending str.
  --width N     decimal only: the width of every integer field (as in encode)
  --max-key-len N  refuse keys longer than N bytes (default 32767, HBase's row-key
                limit; 65535 is Cassandra's)
  --json        print {\"components\":[{\"type\":\"i64\",\"dir\":\"asc\",\"value\":3831868},...]}
                (integers as JSON numbers, NaN/inf as strings, bytes/ts/uuid as strings)
  --stdin       bulk mode: one KEY per line on standard input; prints one line per key
                with its components TAB-separated (one JSON object per line with
                --json). The first bad key stops the run: the lines of the keys before
                it are printed, then one error line naming the line number, exit 2.
A str value holding a newline (or, in bulk mode, a tab) cannot be shown in the
line-oriented text output: that is an error pointing to --json.

Interop profiles (see 'lexikey help encode' for the component syntax):
  lexikey decode --format fdb-tuple [--json] KEY
  lexikey decode --format hbase-ordered|phoenix --schema TYPE[.desc],... [--salt-buckets N]
                 [--json] KEY
  (--stdin: one KEY per line, as above)
KEY is hex (either case). Prints one component per line in the profile's syntax, so
the output encodes back to the same key, e.g.
  lexikey decode --format fdb-tuple 0268656c6c6f001505  ->  str:hello
                                                            int:5
  lexikey decode --format hbase-ordered --schema numeric,text 180234666f6f00  ->  numeric:1
                                                                                  text:foo
  lexikey decode --format phoenix --schema varchar,bigint.desc 61007ffffffffffffffe  ->  varchar:a
                                                                                         bigint.desc:1
fdb-tuple keys are self-describing (no --schema); a nested tuple prints as
nested:[ELEMENT, ...] (for reading: encode has no syntax for it). hbase-ordered and
phoenix keys need --schema: the struct's fields, or the primary-key columns in order,
plus --salt-buckets N for a salted Phoenix table. Fields after the end of the key are
null and print as a bare TYPE. Decoding is canonical: a key the Java side or the
FoundationDB bindings could not have written (unknown type code or header, integer
longer than needed, missing terminator or separator, wrong salt byte, trailing
bytes) is an error naming the byte.
--json: {\"components\":[{\"type\":\"int\",\"dir\":\"asc\",\"value\":5},...]}: null as null,
integers and finite floats as numbers, booleans as true/false, hbase numeric as a
string (its exact decimal), bytes as hex, dates and timestamps as RFC 3339, a nested
tuple as an array of components.
";

/// Runs `lexikey decode`.
///
/// # Errors
/// Usage errors and keys that do not decode.
pub fn run(args: &Args, io: &mut Io<'_>) -> Result<()> {
    if let Some(profile) = interop::profile(args) {
        return interop::decode(profile, args, io);
    }
    let format = common::key_format(args)?;
    interop::reject_salt(args)?;
    let width = common::width(args, format)?;
    let json = args.flag("json");
    let max = common::max_key_len(args)?;
    let schema = match args.value("schema") {
        Some(s) => Some(common::schema(s, width)?),
        None if matches!(format, Format::Decimal | Format::Binary) => {
            bail!(
                "{format} keys carry no type tags: pass --schema TYPE[.desc],... (e.g. --schema str,i64)"
            )
        }
        None => {
            if width.is_some() {
                bail!("--width needs --schema (it applies to the schema's integer fields)");
            }
            None
        }
    };
    if args.flag("stdin") {
        if !args.positionals.is_empty() {
            bail!("decode --stdin reads keys from standard input and takes no KEY argument");
        }
        return bulk(format, schema.as_deref(), json, max, io);
    }
    let key = match args.positionals.as_slice() {
        [k] => k,
        [] => bail!("missing KEY: expected exactly one key (or --stdin for one key per line)"),
        _ => bail!(
            "decode takes exactly one KEY, got {} (use --stdin for many; quote a key that holds spaces)",
            args.positionals.len()
        ),
    };
    let raw = common::os_bytes(key);
    let mut hexbuf = Vec::new();
    let bytes = key_bytes(format, &raw, &mut hexbuf, max)?;
    let comps = tuple::decode(format, bytes, schema.as_deref())
        .map_err(|e| invalid_key(format, &raw, e))?;
    let mut out = Vec::with_capacity(64 * comps.len());
    let mut scratch = String::new();
    if json {
        common::push_components_json(&comps, &mut scratch, &mut out);
        out.push(b'\n');
    } else {
        for c in &comps {
            common::push_component_text(c, b"\n", &mut scratch, &mut out)?;
            out.push(b'\n');
        }
    }
    io.stdout.write_all(&out)?;
    Ok(())
}

/// The key bytes: the text itself, or for `binary` the bytes of the hex
/// text (either case), decoded into `buf`.
fn key_bytes<'a>(
    format: Format,
    raw: &'a [u8],
    buf: &'a mut Vec<u8>,
    max: usize,
) -> Result<&'a [u8]> {
    if format.is_text() {
        lexikey::tuple::check_len(raw, max)?;
        return Ok(raw);
    }
    if raw.len() > 2 * max {
        // Binary keys arrive as hex: two digits a byte.
        bail!(
            "key of {} bytes is longer than the limit of {max} bytes",
            raw.len() / 2
        );
    }
    buf.clear();
    if !raw.len().is_multiple_of(2) {
        bail!(
            "invalid binary key \"{}\": binary keys are given as hex, and this has an odd number of digits ({})",
            common::show_key(raw),
            raw.len()
        );
    }
    for (i, p) in raw.chunks_exact(2).enumerate() {
        let d = |c: u8| (c as char).to_digit(16);
        match (d(p[0]), d(p[1])) {
            (Some(h), Some(l)) => buf.push((h << 4 | l) as u8),
            (h, _) => bail!(
                "invalid binary key \"{}\": binary keys are given as hex, bad digit at character {}",
                common::show_key(raw),
                if h.is_none() { 2 * i } else { 2 * i + 1 }
            ),
        }
    }
    Ok(buf)
}

/// The message of a key that does not decode.
fn invalid_key(format: Format, raw: &[u8], e: lexikey::DecodeError) -> anyhow::Error {
    if format.is_text() {
        anyhow!("invalid key \"{}\": {e}", common::show_key(raw))
    } else {
        anyhow!(
            "invalid binary key \"{}\": {e} (byte N of a binary key is hex digits 2N and 2N+1)",
            common::show_key(raw)
        )
    }
}

/// Reuses a vector's allocation for components of another lifetime.
fn recycle<'b>(mut v: Vec<Component<'_>>) -> Vec<Component<'b>> {
    v.clear();
    // An empty vector: the map never runs; `collect` reuses the allocation.
    v.into_iter().map(|_| unreachable!()).collect()
}

/// Bulk mode: one key per line → one line of tab-separated components.
fn bulk(
    format: Format,
    schema: Option<&[Field]>,
    json: bool,
    max: usize,
    io: &mut Io<'_>,
) -> Result<()> {
    let mut out: Vec<u8> = Vec::with_capacity(FLUSH_AT + (FLUSH_AT >> 1));
    let mut hexbuf: Vec<u8> = Vec::with_capacity(256);
    let mut store: Vec<Component<'static>> = Vec::with_capacity(8);
    let mut scratch = String::new();
    let stdout = &mut *io.stdout;
    let res = common::for_each_line(io.stdin, |lineno, line| {
        let row_start = out.len();
        let mut comps = recycle(std::mem::take(&mut store));
        let r = row(
            format,
            schema,
            json,
            max,
            line,
            &mut hexbuf,
            &mut comps,
            &mut scratch,
            &mut out,
        );
        store = recycle(comps);
        if let Err(e) = r {
            out.truncate(row_start);
            return Err(anyhow!("line {lineno}: {e:#}"));
        }
        common::maybe_flush(stdout, &mut out)
    });
    stdout.write_all(&out)?;
    res
}

/// Decodes one bulk line into `out`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn row<'k>(
    format: Format,
    schema: Option<&[Field]>,
    json: bool,
    max: usize,
    line: &'k [u8],
    hexbuf: &'k mut Vec<u8>,
    comps: &mut Vec<Component<'k>>,
    scratch: &mut String,
    out: &mut Vec<u8>,
) -> Result<()> {
    let bytes = key_bytes(format, line, hexbuf, max)?;
    tuple::decode_into(format, bytes, schema, comps).map_err(|e| invalid_key(format, line, e))?;
    if json {
        common::push_components_json(comps, scratch, out);
    } else {
        for (i, c) in comps.iter().enumerate() {
            if i > 0 {
                out.push(b'\t');
            }
            common::push_component_text(c, b"\t\n", scratch, out)
                .map_err(|e| anyhow!("component {}: {e}", i + 1))?;
        }
    }
    out.push(b'\n');
    Ok(())
}
