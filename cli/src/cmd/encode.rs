//! `lexikey encode`: values to a key, one key per invocation or one key per
//! input line (bulk mode).

use anyhow::{anyhow, bail, Result};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::{Comp, KeySpec};
use lexikey::store::salt::Salter;
use lexikey::{format::text::SEP, tuple, Format};

use crate::args::{utf8_positionals, EncodeArgs, GeoArgs, KeyFormatArgs, SaltArgs};
use crate::common::{self, FLUSH_AT};
use crate::kinds::{self, Col, GeoOpts};
use crate::progress::Progress;
use crate::{interop, salting, Io};

/// Runs `lexikey encode`.
///
/// # Errors
/// Usage errors, components that do not parse, values the format cannot hold.
pub(crate) fn run(args: &EncodeArgs, io: &mut Io<'_>) -> Result<()> {
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
        kinds::check_geo_used(&geo, kinds::any_geo(&cols))?;
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
    let spec = native_spec(format, width, salter, geo, max)?;
    let comps = spec.parse_components(&texts)?;
    ts_hints(texts.iter().copied());
    kinds::check_geo_used(&geo, any_geo(&comps))?;
    let key = spec.encode(&comps)?;
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
pub(crate) fn native_options(
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
    Ok((f, width, salter, kinds::geo_opts(geo)?))
}

/// The key layout of the native options (checked by [`native_options`]).
///
/// # Errors
/// None in practice: the options were checked.
pub(crate) fn native_spec(
    format: Format,
    width: Option<u8>,
    salter: Option<Salter>,
    geo: GeoOpts,
    max: usize,
) -> Result<KeySpec> {
    Ok(KeySpec::new(KeyFormat::Native(format))
        .with_width(width)?
        .with_salter(salter)?
        .with_geo(geo)
        .with_max_key_len(max))
}

/// Whether any component is a `geo`.
pub(crate) fn any_geo(comps: &[Comp]) -> bool {
    comps
        .iter()
        .any(|c| matches!(c, Comp::Native(col, _) if col.kind == kinds::Kind::Geo))
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
            // Over the limit: name the largest value (the line parsed
            // again, on this error path only).
            let too_long = |e: lexikey::EncodeError| {
                let e = match e {
                    lexikey::EncodeError::KeyTooLong {
                        len,
                        max,
                        largest: None,
                    } => {
                        let comps: Vec<_> = line
                            .split('\t')
                            .zip(cols)
                            .filter_map(|(t, col)| col.component(t, &o.geo).ok())
                            .collect();
                        lexikey::EncodeError::KeyTooLong {
                            len,
                            max,
                            largest: tuple::largest_component(format, &comps, |i| {
                                cols[i].to_string()
                            }),
                        }
                    }
                    e => e,
                };
                anyhow!("line {lineno}: {e}")
            };
            if direct {
                tuple::check_len(&buf[key_start..], o.max).map_err(too_long)?;
            } else {
                let k: &[u8] = match o.salter {
                    Some(s) => {
                        salted.clear();
                        s.salted_key_into(&key, &mut salted);
                        &salted
                    }
                    None => &key,
                };
                tuple::check_len(k, o.max).map_err(too_long)?;
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

/// Prints a one-line hint on stderr for each `ts` component given as a
/// bare integer that is only plausible as seconds (it is read as
/// milliseconds: [`lexikey::value::literal::ts_seconds_hint`]).
pub(crate) fn ts_hints<'a>(texts: impl Iterator<Item = &'a str>) {
    for t in texts {
        let Some((spec, value)) = t.split_once(':') else {
            continue;
        };
        if matches!(spec, "ts" | "ts.asc" | "ts.desc") {
            if let Some(h) = lexikey::value::literal::ts_seconds_hint(value) {
                eprintln!("lexikey: hint: {h}");
            }
        }
    }
}
