//! `lexikey decode`: a key back to its components, one key per invocation
//! or one key per input line (bulk mode).

use anyhow::{anyhow, bail, Result};
use lexikey::salt::Salter;
use lexikey::{tuple, Component, DecodeError, Field, Format};

use crate::args::DecodeArgs;
use crate::common::{self, FLUSH_AT};
use crate::kinds::{self, Col, GeoOpts};
use crate::progress::Progress;
use crate::{interop, Io};

/// Help text.
pub const USAGE: &str = "\
Usage:
  lexikey decode [--format F] [--schema TYPE[.desc],...] [--width N] [--json] KEY
  lexikey decode --stdin [--format F] [--schema ...] [--width N] [--json]
  (also: [--salt-buckets N [--salt-mode fast|phoenix]] [--curve C] [--bits B], below)

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
  --quiet       bulk mode: no progress display (shown on stderr only when it is a
                terminal: the keys so far and keys/s)
A str value holding a newline (or, in bulk mode, a tab) cannot be shown in the
line-oriented text output: that is an error pointing to --json.

The schema may name the kinds ulid, uuid7 and geo ('lexikey help encode'):
  ulid     prints the canonical ULID (uppercase); --json adds \"ts\" (its RFC 3339 time)
  uuid7    prints the hyphenated UUID, --json adds \"ts\"; a UUID that is not a v7 is
           an error
  geo      prints LAT,LON: per axis the shortest decimal inside the code's cell (it
           encodes back to the same code); --json adds \"code\" and \"cell\" (min_lat,
           min_lon, max_lat, max_lon: the cell's exact bounds). --curve and --bits
           must be those the key was encoded with; a code outside the grid is an error.
e.g.
  lexikey decode --schema str,ulid event#g01563E3AB5D3D6764C61EFB99302BD5B  ->  str:event
                                                                                ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV
  lexikey decode --bits 16 --schema str,geo places#u000000004B71B06D  ->  str:places
                                                                          geo:37.775,-122.42
  --salt-buckets N, --salt-mode M   the key is salted as by encode: the salt must be
                the key's own bucket; the components after it are printed (offsets
                in errors count from the start of the salted key)

Interop profiles (see 'lexikey help encode' for the component syntax):
  lexikey decode --format fdb-tuple [--json] KEY
  lexikey decode --format hbase-ordered|phoenix --schema TYPE[.desc],... [--salt-buckets N]
                 [--hbase-numeric current|legacy] [--json] KEY
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
plus --salt-buckets N for a salted Phoenix table. --hbase-numeric legacy reads numerics
of 100^351 and above as HBase 2.4.x and older wrote them (before HBASE-26566), giving the
number those versions read back; without it (current, HBase 2.5.0 and later) such a key
is an error naming the option. Fields after the end of the key are
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
pub fn run(args: &DecodeArgs, io: &mut Io<'_>) -> Result<()> {
    let k = &args.key;
    if let Some(profile) = k.format.profile() {
        return interop::decode(profile, args, io);
    }
    let (format, width, salter, geo) = super::encode::native_options(
        &k.format,
        &k.salt,
        &k.geo,
        k.hbase_numeric.as_deref(),
        false,
    )?;
    let json = k.json;
    let max = common::max_key_len(k.max_key_len);
    let cols = match k.schema.as_deref() {
        Some(s) => Some(kinds::parse_schema(s, width)?),
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
    geo.check_used(cols.as_deref().is_some_and(kinds::any_geo))?;
    let o = DecodeOpts {
        format,
        fields: cols.as_deref().map(kinds::fields),
        // Only needed when a column is not a core type.
        cols: cols.filter(|c| c.iter().any(|c| !matches!(c.kind, kinds::Kind::Core(_)))),
        salter,
        geo,
        json,
        max,
    };
    if k.stdin {
        if !args.keys.is_empty() {
            bail!("decode --stdin reads keys from standard input and takes no KEY argument");
        }
        return bulk(&o, &Progress::counter("keys", k.quiet), io);
    }
    let key = match args.keys.as_slice() {
        [k] => k,
        [] => bail!("missing KEY: expected exactly one key (or --stdin for one key per line)"),
        _ => bail!(
            "decode takes exactly one KEY, got {} (use --stdin for many; quote a key that holds spaces)",
            args.keys.len()
        ),
    };
    let raw = common::os_bytes(key);
    let mut hexbuf = Vec::new();
    let bytes = key_bytes(format, &raw, &mut hexbuf, max)?;
    let mut comps = Vec::new();
    decode_key(&o, &raw, bytes, &mut comps)?;
    let mut out = Vec::with_capacity(64 * comps.len());
    let mut scratch = String::new();
    if json {
        kinds::push_components_json(o.cols.as_deref(), &comps, &o.geo, &mut scratch, &mut out)
            .map_err(|e| invalid_component(format, &raw, e))?;
        out.push(b'\n');
    } else {
        for (i, c) in comps.iter().enumerate() {
            let col = o.cols.as_ref().and_then(|cols| cols.get(i));
            kinds::push_component_text(col, c, b"\n", &o.geo, &mut scratch, &mut out).map_err(
                |e| match col {
                    Some(col) if !matches!(col.kind, kinds::Kind::Core(_)) => {
                        invalid_component(format, &raw, anyhow!("component {}: {e}", i + 1))
                    }
                    _ => e,
                },
            )?;
            out.push(b'\n');
        }
    }
    io.stdout.write_all(&out)?;
    Ok(())
}

/// What decoding needs: the format, the schema, the salt, the geo grid and
/// the output options.
struct DecodeOpts {
    format: Format,
    /// The core fields of `--schema`.
    fields: Option<Vec<Field>>,
    /// The columns of `--schema` when one is a command-line kind.
    cols: Option<Vec<Col>>,
    salter: Option<Salter>,
    geo: GeoOpts,
    json: bool,
    max: usize,
}

/// Decodes `bytes` (the key; `raw` as given, for messages) into `comps`,
/// checking and removing the salt first when the key is salted.
fn decode_key<'k>(
    o: &DecodeOpts,
    raw: &[u8],
    bytes: &'k [u8],
    comps: &mut Vec<Component<'k>>,
) -> Result<()> {
    let Some(s) = o.salter else {
        return tuple::decode_into(o.format, bytes, o.fields.as_deref(), comps)
            .map_err(|e| invalid_key(o.format, raw, e));
    };
    let n = s.salt_len();
    match s.unsalt(bytes) {
        Ok((_, rest)) => tuple::decode_into(o.format, rest, o.fields.as_deref(), comps)
            .map_err(|e| invalid_key(o.format, raw, e.shift(n))),
        Err(DecodeError::NonCanonical { .. }) => {
            // A well-formed salt, not the key's bucket: a damaged rest of
            // the key is the likelier cause, so its own error comes first.
            let rest = &bytes[n..];
            tuple::decode_into(o.format, rest, o.fields.as_deref(), comps)
                .map_err(|e| invalid_key(o.format, raw, e.shift(n)))?;
            let found = if s.is_text() {
                // Two hex digits, checked by unsalt.
                u8::from_str_radix(std::str::from_utf8(&bytes[..2]).unwrap_or("?"), 16)
                    .unwrap_or(u8::MAX)
            } else {
                bytes[0]
            };
            Err(invalid_component(
                o.format,
                raw,
                anyhow!(
                    "the salt at byte 0 is bucket {found}, but the key's bucket is {} \
                     ({} buckets, --salt-mode {})",
                    s.bucket(rest),
                    s.buckets(),
                    s.mode()
                ),
            ))
        }
        Err(e) => Err(invalid_key(o.format, raw, e)),
    }
}

/// The message of a key whose component is not a value of its
/// command-line kind.
fn invalid_component(format: Format, raw: &[u8], e: anyhow::Error) -> anyhow::Error {
    if format.is_text() {
        anyhow!("invalid key \"{}\": {e}", common::show_key(raw))
    } else {
        anyhow!("invalid binary key \"{}\": {e}", common::show_key(raw))
    }
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
    common::unhex_key(raw, buf).map_err(|e| match e {
        None => anyhow!(
            "invalid binary key \"{}\": binary keys are given as hex, and this has an odd number of digits ({})",
            common::show_key(raw),
            raw.len()
        ),
        Some(at) => anyhow!(
            "invalid binary key \"{}\": binary keys are given as hex, bad digit at character {at}",
            common::show_key(raw),
        ),
    })?;
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
fn bulk(o: &DecodeOpts, progress: &Progress, io: &mut Io<'_>) -> Result<()> {
    let mut out: Vec<u8> = Vec::with_capacity(FLUSH_AT + (FLUSH_AT >> 1));
    let mut hexbuf: Vec<u8> = Vec::with_capacity(256);
    let mut store: Vec<Component<'static>> = Vec::with_capacity(8);
    let mut scratch = String::new();
    let stdout = &mut *io.stdout;
    let res = common::for_each_line(io.stdin, |lineno, line| {
        let row_start = out.len();
        let mut comps = recycle(std::mem::take(&mut store));
        let r = row(o, line, &mut hexbuf, &mut comps, &mut scratch, &mut out);
        store = recycle(comps);
        if let Err(e) = r {
            out.truncate(row_start);
            return Err(anyhow!("line {lineno}: {e:#}"));
        }
        progress.row(lineno);
        common::maybe_flush(stdout, &mut out)
    });
    stdout.write_all(&out)?;
    res
}

/// Decodes one bulk line into `out`.
#[inline]
fn row<'k>(
    o: &DecodeOpts,
    line: &'k [u8],
    hexbuf: &'k mut Vec<u8>,
    comps: &mut Vec<Component<'k>>,
    scratch: &mut String,
    out: &mut Vec<u8>,
) -> Result<()> {
    let bytes = key_bytes(o.format, line, hexbuf, o.max)?;
    decode_key(o, line, bytes, comps)?;
    if o.json {
        kinds::push_components_json(o.cols.as_deref(), comps, &o.geo, scratch, out)
            .map_err(|e| invalid_component(o.format, line, e))?;
    } else {
        for (i, c) in comps.iter().enumerate() {
            if i > 0 {
                out.push(b'\t');
            }
            let col = o.cols.as_ref().and_then(|cols| cols.get(i));
            kinds::push_component_text(col, c, b"\t\n", &o.geo, scratch, out).map_err(
                |e| match col {
                    Some(col) if !matches!(col.kind, kinds::Kind::Core(_)) => {
                        invalid_component(o.format, line, anyhow!("component {}: {e}", i + 1))
                    }
                    _ => anyhow!("component {}: {e}", i + 1),
                },
            )?;
        }
    }
    out.push(b'\n');
    Ok(())
}
