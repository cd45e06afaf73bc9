//! `lexikey decode`: a key back to its components, one key per invocation
//! or one key per input line (bulk mode).

use anyhow::{anyhow, bail, Result};
use lexikey::store::salt::Salter;
use lexikey::{tuple, Component, DecodeError, Field, Format};

use crate::args::{DecodeArgs, Output};
use crate::common::{self, FLUSH_AT};
use crate::kinds::{self, Col, GeoOpts};
use crate::progress::Progress;
use crate::{interop, Io};

/// Runs `lexikey decode`.
///
/// # Errors
/// Usage errors and keys that do not decode.
pub(crate) fn run(args: &DecodeArgs, io: &mut Io<'_>) -> Result<()> {
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
    let output = args.output()?;
    let json = output == Output::Json;
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
    kinds::check_geo_used(&geo, cols.as_deref().is_some_and(kinds::any_geo))?;
    let o = DecodeOpts {
        format,
        fields: cols.as_deref().map(kinds::fields),
        // Only needed when a column is not a core type.
        cols: cols.filter(|c| c.iter().any(|c| !matches!(c.kind, kinds::Kind::Core(_)))),
        salter,
        geo,
        json,
        values: output == Output::Values,
        max,
        warned: std::cell::Cell::new(false),
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
    if o.fields.is_none() {
        warn_damaged(format, &comps, None);
    }
    let mut out = Vec::with_capacity(64 * comps.len());
    let mut scratch = String::new();
    if json {
        kinds::push_components_json(o.cols.as_deref(), &comps, &o.geo, &mut scratch, &mut out)
            .map_err(|e| invalid_component(format, &raw, e))?;
        out.push(b'\n');
    } else {
        for (i, c) in comps.iter().enumerate() {
            let col = o.cols.as_ref().and_then(|cols| cols.get(i));
            let start = out.len();
            kinds::push_component_text(col, c, b"\n", &o.geo, &mut scratch, &mut out).map_err(
                |e| match col {
                    Some(col) if !matches!(col.kind, kinds::Kind::Core(_)) => {
                        invalid_component(format, &raw, anyhow!("component {}: {e}", i + 1))
                    }
                    _ => e,
                },
            )?;
            if o.values {
                strip_type(&mut out, start);
            }
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
    /// `--values`: the values alone, without `TYPE[.desc]:`.
    values: bool,
    max: usize,
    /// Whether bulk mode warned of a damaged tagged value already.
    warned: std::cell::Cell<bool>,
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
    common::binary_key(raw, "binary", buf)?;
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
        let r = row(
            o,
            lineno,
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
    lineno: u64,
    line: &'k [u8],
    hexbuf: &'k mut Vec<u8>,
    comps: &mut Vec<Component<'k>>,
    scratch: &mut String,
    out: &mut Vec<u8>,
) -> Result<()> {
    let bytes = key_bytes(o.format, line, hexbuf, o.max)?;
    decode_key(o, line, bytes, comps)?;
    if o.fields.is_none() && !o.warned.get() && warn_damaged(o.format, comps, Some(lineno)) {
        // Once per run: the first such line says it.
        o.warned.set(true);
    }
    if o.json {
        kinds::push_components_json(o.cols.as_deref(), comps, &o.geo, scratch, out)
            .map_err(|e| invalid_component(o.format, line, e))?;
    } else {
        for (i, c) in comps.iter().enumerate() {
            if i > 0 {
                out.push(b'\t');
            }
            let col = o.cols.as_ref().and_then(|cols| cols.get(i));
            let start = out.len();
            kinds::push_component_text(col, c, b"\t\n", &o.geo, scratch, out).map_err(
                |e| match col {
                    Some(col) if !matches!(col.kind, kinds::Kind::Core(_)) => {
                        invalid_component(o.format, line, anyhow!("component {}: {e}", i + 1))
                    }
                    _ => anyhow!("component {}: {e}", i + 1),
                },
            )?;
            if o.values {
                strip_type(out, start);
            }
        }
    }
    out.push(b'\n');
    Ok(())
}

/// Removes the `TYPE[.desc]:` of the component text written at
/// `out[start..]`, leaving its value (`--values`).
pub(crate) fn strip_type(out: &mut Vec<u8>, start: usize) {
    // A type name holds no ':'; a bare type (a null) is all type.
    let end = out[start..]
        .iter()
        .position(|&b| b == b':')
        .map_or(out.len(), |i| start + i + 1);
    out.drain(start..end);
}

/// Without a schema, a part of a hex or base64 key that is not a valid
/// tagged value reads as a string: warns (one line on stderr) when such a
/// string looks like a damaged tagged value — a tag letter, then digits of
/// the format's alphabet (either case) within one of the type's width.
/// Returns whether it warned.
fn warn_damaged(format: Format, comps: &[Component<'_>], lineno: Option<u64>) -> bool {
    for (i, c) in comps.iter().enumerate() {
        let lexikey::Value::Str(s) = &c.value else {
            continue;
        };
        let Some(ty) = damaged_type(format, s) else {
            continue;
        };
        let at = lineno.map(|n| format!("line {n}, ")).unwrap_or_default();
        eprintln!(
            "lexikey: warning: {at}component {} ({}) reads as a str but looks like a damaged \
             {ty}: pass --schema to decode strictly",
            i + 1,
            lexikey::value::literal::show_input(s)
        );
        return true;
    }
    false
}

/// The type a string looks like a damaged value of (see [`warn_damaged`]).
fn damaged_type(format: Format, s: &str) -> Option<lexikey::Type> {
    let b = s.as_bytes();
    let (&tag, digits) = b.split_first()?;
    let (ty, _) = lexikey::Type::from_tag(tag.to_ascii_lowercase())?;
    let n = ty.fixed_len()?;
    let (width, digit): (usize, fn(&u8) -> bool) = match format {
        Format::Hex => (2 * n, u8::is_ascii_hexdigit),
        Format::Base64 => ((8 * n).div_ceil(6), |c| {
            c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_'
        }),
        _ => return None,
    };
    (width >= 4 && digits.len().abs_diff(width) <= 1 && digits.iter().all(digit)).then_some(ty)
}
