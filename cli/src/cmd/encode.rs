//! `lexikey encode`: values to a key, one key per invocation or one key per
//! input line (bulk mode).

use anyhow::{anyhow, bail, Context, Result};
use lexikey::salt::Salter;
use lexikey::{input, text::SEP, tuple, Component, Format, Key};

use crate::args::{utf8_positionals, EncodeArgs, GeoArgs, KeyFormatArgs, SaltArgs};
use crate::common::{self, FLUSH_AT};
use crate::kinds::{self, Col, GeoOpts};
use crate::progress::Progress;
use crate::{interop, salting, Io};

/// Help text.
pub const USAGE: &str = "\
Usage:
  lexikey encode [--format F] [--width N] [--json] COMPONENT...
  lexikey encode --schema TYPE[.desc],... --stdin [--format F] [--width N] [--json]
  (also: [--salt-buckets N [--salt-mode fast|phoenix]] [--curve C] [--bits B], below)

Prints the key of the tuple of COMPONENTs and a newline. COMPONENT is TYPE[.desc]:VALUE
(everything after the first ':' is the value, verbatim), e.g.
  lexikey encode str:population i64:3831868      ->  population#l80000000003A783C

TYPE is str, i64, u64, i32, u32, f64, f32, bool, bytes (hex), ts (RFC 3339 or
milliseconds), uuid (hyphenated), or one of these, stored as a core type:
  ulid     a ULID (26 Crockford base32 symbols; either case, I/L read as 1, O as 0; a
           first symbol above 7 is refused), stored as the uuid of the same 128 bits
  uuid7    a hyphenated UUID of version 7 and the RFC 9562 variant, stored as uuid;
           any other UUID is refused (use uuid: for those)
  geo      LAT,LON in degrees, stored as the u64 code of its cell on the grid of
           --curve (hilbert, the default, or morton: the geohash bit order) and --bits
           (bits per axis, 1 to 32; default 32, the whole u64)
e.g.
  lexikey encode str:event ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV  ->  event#g01563E3AB5D3D6764C61EFB99302BD5B
  lexikey encode --bits 16 str:places geo:37.7749,-122.4194   ->  places#u000000004B71B06D

Salting (hex, base64, decimal, binary):
  --salt-buckets N   put the key's salt bucket (0 to N-1, N from 1 to 255) in front of
                the key: two UPPERCASE hex digits and '#' in text formats (00#...), one
                byte in binary. The bucket hashes the unsalted key:
  --salt-mode M fast (default: FNV-1a + fmix64, fixed forever) or phoenix (Apache
                Phoenix's abs(Arrays.hashCode(key) % N))
e.g.
  lexikey encode --salt-buckets 16 str:events i64:42  ->  00#events#l800000000000002A

Options:
  --format F    hex (default), base64, decimal, binary (printed as lowercase hex), or an
                interop profile: fdb-tuple, hbase-ordered, phoenix (below)
  --width N     decimal only: width in digits of every integer component (i64, u64,
                i32, u32, ts; the sign slot of signed types counts), 1 to 20; a value
                that does not fit is an error. Default: the type's full width.
  --json        print {\"key\":\"...\"} instead of the bare key
  --max-key-len N  refuse keys longer than N bytes (default 32767, HBase's row-key
                limit; 65535 is Cassandra's)
  --stdin       bulk mode: read one row per line from standard input, each row the
                tab-separated VALUEs of the --schema fields, and print one key per
                line (one JSON object per line with --json). Lines are split on \\n only
                (a \\r is part of the last value). The first bad row stops the run:
                the keys of the rows before it are printed, then one error line
                naming the line number, exit code 2.
  --schema S    bulk mode: the fields, e.g. str,i64.desc
  --quiet       bulk mode: no progress display (shown on stderr only when it is a
                terminal: the rows so far and rows/s)

Interop profiles: keys byte for byte as Java (HBase OrderedBytes/Struct, Apache Phoenix)
and the FoundationDB tuple layer write them, printed as lowercase hex:
  lexikey encode --format fdb-tuple|hbase-ordered|phoenix [--salt-buckets N] [--json]
                 COMPONENT...
  lexikey encode --format PROFILE --schema TYPE[.desc],... --stdin [--salt-buckets N] [--json]
COMPONENT is in the profile's own syntax:
  fdb-tuple      null:, bytes:HEX, str:TEXT, int:DEC (up to 255 bytes of magnitude; i64,
                 u64, i32, u32 are range-checked aliases), f32:, f64: (also 0x + the raw
                 IEEE bits), bool:, uuid:, versionstamp:HEX24. No .desc: the tuple layer
                 has no descending order. Nested tuples have no syntax.
  hbase-ordered  KIND[.desc]:VALUE, KIND one of int8, int16, int32, int64, float32,
                 float64, numeric (decimal, 1.5e-7, inf, -inf, NaN), text, blob-var,
                 blob-copy (hex; the last field only). A bare KIND[.desc] is null;
                 trailing nulls are left out, as HBase's Struct does.
  phoenix        TYPE[.desc]:VALUE, TYPE the column's SQL type in lowercase: tinyint,
                 smallint, integer (int), bigint, unsigned_tinyint, unsigned_smallint,
                 unsigned_int, unsigned_long, float, double, unsigned_float,
                 unsigned_double, boolean, date, time, timestamp (RFC 3339 or integer
                 milliseconds; timestamp takes up to 9 fraction digits), unsigned_date,
                 unsigned_time, unsigned_timestamp, varchar, varbinary (hex; the last
                 column only), decimal (1.5, -0.001, 1E+30: up to 38 significant digits,
                 1e-126 <= |v| < 1e124; 1.0 and 1 are one key), char(N) (ASCII text of at
                 most N characters, space-padded; trailing spaces are padding), binary(N)
                 (hex, at most N bytes, zero-padded). A bare TYPE[.desc] or an empty
                 varchar:/varbinary:/decimal: is null; an empty char(N):/binary(N): is
                 all padding (fixed-width columns are never null).
                 The columns are the primary key's, in order (a table created by Phoenix
                 4.4 or later); trailing nulls are left out, as Phoenix does.
  --salt-buckets N  phoenix: the table's SALT_BUCKETS (1 to 256); the key starts with
                 the salt byte, computed from the rest of the key
  --round        phoenix: a decimal of more than 38 significant digits is rounded half
                 up to 38, as Phoenix does before writing it, and the key of that value
                 is printed (without --round such a value is an error naming it)
  --hbase-numeric current|legacy  hbase-ordered: the numeric encoder of numbers of
                 100^351 and above. current (default): HBase 2.5.0 and later
                 (HBASE-26566), every exponent; legacy: HBase 2.4.x and older, whose
                 encoder wrote such numbers as keys that read back as other numbers
e.g.
  lexikey encode --format fdb-tuple str:hello int:5           ->  0268656c6c6f001505
  lexikey encode --format hbase-ordered numeric:1 text:foo    ->  180234666f6f00
  lexikey encode --format phoenix varchar:a bigint.desc:1     ->  61007ffffffffffffffe
  lexikey encode --format phoenix --salt-buckets 4 varchar:a  ->  0061
  lexikey encode --format phoenix decimal:-1.5 char(3):ab     ->  3e64336600616220
  lexikey encode --format hbase-ordered numeric:1e1000        ->  22f20502
  lexikey encode --format phoenix --round decimal:99.9999999999999999999999999999999999999  ->  c202
With --stdin, each line holds the tab-separated VALUEs (the text after the ':') of
the --schema fields; an fdb-tuple schema lists element types (str,int). In bulk mode
an hbase-ordered text cell is never null (an empty cell is the empty string), and a
phoenix varchar, varbinary or decimal cell is null when empty.
";

/// Runs `lexikey encode`.
///
/// # Errors
/// Usage errors, components that do not parse, values the format cannot hold.
pub fn run(args: &EncodeArgs, io: &mut Io<'_>) -> Result<()> {
    let k = &args.key;
    if let Some(profile) = k.format.profile() {
        return interop::encode(profile, args, io);
    }
    let (format, width, salter, geo) = native_options(
        &k.format,
        &k.salt,
        &k.geo,
        k.hbase_numeric.as_deref(),
        args.round,
    )?;
    let json = k.json;
    let max = common::max_key_len(k.max_key_len);
    if k.stdin {
        let Some(schema) = k.schema.as_deref() else {
            bail!("encode --stdin needs --schema TYPE[.desc],... to type the tab-separated values");
        };
        if !args.components.is_empty() {
            bail!("encode --stdin reads rows from standard input and takes no COMPONENT arguments");
        }
        let cols = kinds::parse_schema(schema, width)?;
        geo.check_used(kinds::any_geo(&cols))?;
        let opts = BulkOpts {
            format,
            salter,
            geo,
            json,
            max,
            progress: Progress::counter("rows", k.quiet),
        };
        return bulk(&opts, &cols, io);
    }
    if k.schema.is_some() {
        bail!("--schema is for --stdin; each COMPONENT names its own type (TYPE[.desc]:VALUE)");
    }
    let texts = utf8_positionals(&args.components, "COMPONENT")?;
    if texts.is_empty() {
        bail!("missing COMPONENT: expected TYPE[.desc]:VALUE..., e.g. lexikey encode str:population i64:3831868");
    }
    let (cols, comps) = components(&texts, width, &geo)?;
    geo.check_used(kinds::any_geo(&cols))?;
    let mut key = encode_components(format, &comps)?;
    if let Some(s) = salter {
        key = s.salted_key(&key);
    }
    tuple::check_len(&key, max)?;
    let mut out = Vec::with_capacity(key.len() * 2 + 16);
    if json {
        common::push_key_json(format, &key, &mut out)?;
    } else {
        common::push_key(format, &key, &mut out);
    }
    out.push(b'\n');
    io.stdout.write_all(&out)?;
    Ok(())
}

/// The options of the native formats, checked in this order: no interop
/// option (`hbase_numeric`, `round`), the format, `--width` (decimal only),
/// the salter, the geo grid.
///
/// # Errors
/// An interop option, a width with another format or out of range, a bad
/// salt or grid.
pub fn native_options(
    format: &KeyFormatArgs,
    salt: &SaltArgs,
    geo: &GeoArgs,
    hbase_numeric: Option<&str>,
    round: bool,
) -> Result<(Format, Option<u8>, Option<Salter>, GeoOpts)> {
    if hbase_numeric.is_some() {
        bail!("--hbase-numeric applies only to --format hbase-ordered");
    }
    if round {
        bail!("--round applies only to --format phoenix (a DECIMAL of more than 38 digits)");
    }
    let f = format.native();
    let width = common::width(format.width.as_deref(), f)?;
    let salter = salting::salter(salt, f)?;
    Ok((f, width, salter, GeoOpts::new(geo)?))
}

/// Parses `TYPE[.desc]:VALUE` components (core types and the command
/// line's kinds, [`kinds`]), applying `width` to integers.
///
/// # Errors
/// The first component that does not parse, named.
pub fn components(
    texts: &[&str],
    width: Option<u8>,
    geo: &GeoOpts,
) -> Result<(Vec<Col>, Vec<Component<'static>>)> {
    texts
        .iter()
        .map(|t| {
            let (col, mut c) =
                kinds::parse_component(t, geo).with_context(|| format!("component {t:?}"))?;
            common::apply_width(&mut c, width);
            Ok((col, c))
        })
        .collect::<Result<Vec<_>>>()
        .map(|v| v.into_iter().unzip())
}

/// Encodes a tuple, naming the component that cannot be encoded.
///
/// # Errors
/// The component's encode error.
pub fn encode_components(format: Format, comps: &[Component<'_>]) -> Result<Vec<u8>> {
    tuple::encode(format, comps)
        .map(Key::into_vec)
        .map_err(|e| {
            // Find the culprit for the message.
            let mut scratch = Vec::new();
            match comps
                .iter()
                .position(|c| format.encode_component(c, &mut scratch).is_err())
            {
                Some(i) => anyhow!(
                    "component {} ({}): {e}",
                    i + 1,
                    input::component_to_string(&comps[i])
                ),
                None => anyhow!(e),
            }
        })
}

/// The options of bulk mode.
struct BulkOpts {
    format: Format,
    salter: Option<Salter>,
    geo: GeoOpts,
    json: bool,
    max: usize,
    progress: Progress,
}

/// Bulk mode: one tab-separated row per line → one key per line.
fn bulk(o: &BulkOpts, cols: &[Col], io: &mut Io<'_>) -> Result<()> {
    let format = o.format;
    let mut out: Vec<u8> = Vec::with_capacity(FLUSH_AT + (FLUSH_AT >> 1));
    let mut key: Vec<u8> = Vec::with_capacity(256);
    let mut salted: Vec<u8> = Vec::with_capacity(256);
    let text = format.is_text();
    // Unsalted text keys without JSON are written straight into `out`.
    let direct = text && !o.json && o.salter.is_none();
    let stdout = &mut *io.stdout;
    let res = common::for_each_line(io.stdin, |lineno, line| {
        let row_start = out.len();
        let r = (|| -> Result<()> {
            let line = std::str::from_utf8(line)
                .map_err(|e| anyhow!("line {lineno}: invalid UTF-8 at byte {}", e.valid_up_to()))?;
            let buf = if direct { &mut out } else { &mut key };
            buf_clear_if(buf, !direct);
            let key_start = buf.len();
            let mut parts = line.split('\t');
            for (i, col) in cols.iter().enumerate() {
                let Some(t) = parts.next() else {
                    bail!(
                        "line {lineno}: expected {} tab-separated values (one per schema field), found {}",
                        cols.len(),
                        i
                    );
                };
                let c = col
                    .component(t, &o.geo)
                    .map_err(|e| anyhow!("line {lineno}, value {} ({col}): {e}", i + 1))?;
                if i > 0 && text {
                    buf.push(SEP);
                }
                format
                    .encode_component(&c, buf)
                    .map_err(|e| anyhow!("line {lineno}, value {} ({col}): {e}", i + 1))?;
            }
            if parts.next().is_some() {
                bail!(
                    "line {lineno}: expected {} tab-separated values (one per schema field), found {}",
                    cols.len(),
                    line.split('\t').count()
                );
            }
            if direct {
                tuple::check_len(&buf[key_start..], o.max)
                    .map_err(|e| anyhow!("line {lineno}: {e}"))?;
            } else {
                let k: &[u8] = match o.salter {
                    Some(s) => {
                        salted.clear();
                        s.salted_key_into(&key, &mut salted);
                        &salted
                    }
                    None => &key,
                };
                tuple::check_len(k, o.max).map_err(|e| anyhow!("line {lineno}: {e}"))?;
                if o.json {
                    common::push_key_json(format, k, &mut out)?;
                } else {
                    common::push_key(format, k, &mut out);
                }
            }
            out.push(b'\n');
            Ok(())
        })();
        if r.is_err() {
            out.truncate(row_start);
        }
        r?;
        o.progress.row(lineno);
        common::maybe_flush(stdout, &mut out)
    });
    // Keys of the rows before an error are written, then the error reported.
    stdout.write_all(&out)?;
    res
}

#[inline]
fn buf_clear_if(buf: &mut Vec<u8>, clear: bool) {
    if clear {
        buf.clear();
    }
}
