//! `lexikey decode`: a key back to its components, one key per invocation
//! or one key per input line (bulk mode).

use anyhow::{anyhow, bail, Result};
use lexikey::frontend::host::ColType;
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::layout::LayoutOption;
use lexikey::frontend::spec::{KeyError, KeySpec};
use lexikey::{Component, Format};

use crate::args::{DecodeArgs, Output};
use crate::common::{self, FLUSH_AT};
use crate::kinds::{self, Col};
use crate::layout::{self, LayoutArgs};
use crate::progress::Progress;
use crate::{profile_out, Io};

/// Runs `lexikey decode`.
///
/// # Errors
/// Usage errors and keys that do not decode.
pub(crate) fn run(args: &DecodeArgs, io: &mut Io<'_>) -> Result<()> {
    let k = &args.key;
    let spec = layout::key_spec(&LayoutArgs {
        format: &k.format,
        salt: &k.salt,
        geo: &k.geo,
        hbase_numeric: k.hbase_numeric.as_deref(),
        round: false,
        bbox: (false, false),
    })?
    .with_max_key_len(common::max_key_len(k.max_key_len));
    let format = spec.format();
    let output = args.output()?;
    layout::check_decode_schema(format, k.schema.is_some())?;
    LayoutOption::Width
        .check_decode_needs(format, spec.width().is_some(), k.schema.is_some())
        .map_err(layout::refusal)?;
    let spec = match k.schema.as_deref() {
        Some(s) => spec.with_schema(s)?,
        None => spec,
    };
    // The schema's native columns.
    let cols: Option<Vec<Col>> = spec.schema().map(|s| {
        s.iter()
            .filter_map(|c| match c {
                ColType::Native(col) => Some(*col),
                _ => None,
            })
            .collect()
    });
    kinds::check_geo_used(spec.geo(), cols.as_deref().is_some_and(kinds::any_geo))?;
    let o = DecodeOpts {
        schema: spec.schema().is_some(),
        // Only needed when a column is not a core type.
        cols: cols.filter(|c| c.iter().any(|c| !matches!(c.kind, kinds::Kind::Core(_)))),
        spec,
        json: output == Output::Json,
        values: output == Output::Values,
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
        _ if format.profile().is_some() => bail!(
            "decode takes exactly one KEY, got {} (use --stdin for many)",
            args.keys.len()
        ),
        _ => bail!(
            "decode takes exactly one KEY, got {} (use --stdin for many; quote a key that holds spaces)",
            args.keys.len()
        ),
    };
    let raw = common::os_bytes(key);
    let mut hexbuf = Vec::new();
    let bytes = key_bytes(&o.spec, &raw, &mut hexbuf)?;
    let mut out = Vec::with_capacity(64);
    if format.profile().is_some() {
        let v = o
            .spec
            .decode(bytes)
            .map_err(|e| invalid_key(format, &raw, e))?;
        if let Some(d) = v.profile_values() {
            profile_out::push_decoded(d, o.json, o.values, false, &mut String::new(), &mut out)?;
        }
        io.stdout.write_all(&out)?;
        return Ok(());
    }
    let mut comps = Vec::new();
    decode_key(&o, &raw, bytes, &mut comps)?;
    if !o.schema {
        warn_damaged(format.native(), &comps, None);
    }
    let geo = o.spec.geo();
    let mut scratch = String::new();
    if o.json {
        kinds::push_components_json(o.cols.as_deref(), &comps, geo, &mut scratch, &mut out)
            .map_err(|e| invalid_component(format, &raw, e))?;
        out.push(b'\n');
    } else {
        for (i, c) in comps.iter().enumerate() {
            let col = o.cols.as_ref().and_then(|cols| cols.get(i));
            let start = out.len();
            kinds::push_component_text(col, c, b"\n", geo, &mut scratch, &mut out).map_err(
                |e| match col {
                    Some(col) if !matches!(col.kind, kinds::Kind::Core(_)) => {
                        invalid_component(format, &raw, anyhow!("component {}: {e}", i + 1))
                    }
                    _ => e,
                },
            )?;
            if o.values {
                common::value_cell(c, &mut out, start);
            }
            out.push(b'\n');
        }
    }
    io.stdout.write_all(&out)?;
    Ok(())
}

/// What decoding needs: the layout and the output options.
struct DecodeOpts {
    spec: KeySpec,
    /// Whether `--schema` was given.
    schema: bool,
    /// The columns of `--schema` when one is a command-line kind.
    cols: Option<Vec<Col>>,
    json: bool,
    /// `--values`: the values alone, without `TYPE[.desc]:`.
    values: bool,
    /// Whether bulk mode warned of a damaged tagged value already.
    warned: std::cell::Cell<bool>,
}

/// Decodes `bytes` (a native key; `raw` as given, for messages) into
/// `comps` ([`KeySpec::decode_into`]: a salted key's salt checked and
/// removed).
#[inline]
fn decode_key<'k>(
    o: &DecodeOpts,
    raw: &[u8],
    bytes: &'k [u8],
    comps: &mut Vec<Component<'k>>,
) -> Result<()> {
    let format = o.spec.format();
    o.spec.decode_into(bytes, comps).map_err(|e| match e {
        KeyError::Decode(e) => invalid_key(format, raw, e),
        KeyError::WrongBucket(w) => invalid_component(
            format,
            raw,
            anyhow!(
                "the salt at byte 0 is bucket {}, but the key's bucket is {} ({} buckets, \
                 --salt-mode {})",
                w.found,
                w.expected,
                w.buckets,
                w.mode
            ),
        ),
    })
}

/// The message of a key whose component is not a value of its
/// command-line kind.
fn invalid_component(format: KeyFormat, raw: &[u8], e: anyhow::Error) -> anyhow::Error {
    if format.is_text() {
        anyhow!("invalid key {}: {e}", lexikey::show_key(raw))
    } else {
        anyhow!("invalid binary key {}: {e}", lexikey::show_key(raw))
    }
}

/// The key bytes: the text itself, or for a binary key (`binary` and the
/// interop profiles) the bytes of the hex text (either case), decoded into
/// `buf`.
#[inline]
fn key_bytes<'a>(spec: &KeySpec, raw: &'a [u8], buf: &'a mut Vec<u8>) -> Result<&'a [u8]> {
    let max = spec.max_key_len();
    let format = spec.format();
    if format.is_text() {
        return text_key(spec, raw);
    }
    if raw.len() > 2 * max {
        // Binary keys arrive as hex: two digits a byte.
        bail!(
            "key of {} bytes is longer than the limit of {max} bytes",
            raw.len() / 2
        );
    }
    common::binary_key(raw, format.name(), buf)?;
    Ok(buf)
}

/// The bytes of a key of a text format: the text itself, checked against
/// the length limit.
#[inline]
fn text_key<'a>(spec: &KeySpec, raw: &'a [u8]) -> Result<&'a [u8]> {
    lexikey::tuple::check_len(raw, spec.max_key_len())?;
    Ok(raw)
}

/// The message of a key that does not decode.
fn invalid_key(format: KeyFormat, raw: &[u8], e: lexikey::DecodeError) -> anyhow::Error {
    match format {
        KeyFormat::Native(f) if f.is_text() => {
            anyhow!("invalid key {}: {e}", lexikey::show_key(raw))
        }
        KeyFormat::Native(_) => anyhow!(
            "invalid binary key {}: {e} (byte N of a binary key is hex digits 2N and 2N+1)",
            lexikey::show_key(raw)
        ),
        KeyFormat::Profile(p) => anyhow!(
            "invalid {p} key {}: {e} (byte N of the key is hex digits 2N and 2N+1)",
            lexikey::show_key(raw)
        ),
    }
}

/// Reuses a vector's allocation for components of another lifetime.
/// Inlined, so that the compiler sees the vector empty and drops nothing.
#[inline(always)]
fn recycle<'b>(mut v: Vec<Component<'_>>) -> Vec<Component<'b>> {
    v.clear();
    // An empty vector: the map never runs; `collect` reuses the allocation.
    v.into_iter().map(|_| unreachable!()).collect()
}

/// Bulk mode: one key per line → one line of tab-separated components.
fn bulk(o: &DecodeOpts, progress: &Progress, io: &mut Io<'_>) -> Result<()> {
    let mut hexbuf: Vec<u8> = Vec::with_capacity(256);
    let mut scratch = String::new();
    let format = o.spec.format();
    if format.profile().is_some() {
        return each_row(progress, io, |_, line, out| {
            profile_row(o, line, &mut hexbuf, &mut scratch, out)
        });
    }
    let mut store: Vec<Component<'static>> = Vec::with_capacity(8);
    if !format.is_text() {
        // The bytes of a binary key are decoded from its hex into
        // `hexbuf`, a line at a time: the components recycled a line.
        return each_row(progress, io, |lineno, line, out| {
            let mut comps = recycle(std::mem::take(&mut store));
            let r = key_bytes(&o.spec, line, &mut hexbuf)
                .and_then(|bytes| row(o, lineno, line, bytes, &mut comps, &mut scratch, out));
            store = recycle(comps);
            r
        });
    }
    // A text key is its line: the components borrow from the chunk of
    // lines it is in, their vector recycled a chunk rather than a line
    // (recycling took about 160 instructions a line, callgrind).
    let mut out: Vec<u8> = Vec::with_capacity(FLUSH_AT + (FLUSH_AT >> 1));
    let stdout = &mut *io.stdout;
    let mut lineno = 0;
    let res = common::for_each_chunk(io.stdin, |chunk| {
        let mut comps = recycle(std::mem::take(&mut store));
        let r = common::for_each_line_of(chunk, &mut lineno, |lineno, line| {
            put_row(lineno, progress, stdout, &mut out, |out| {
                let bytes = text_key(&o.spec, line)?;
                row(o, lineno, line, bytes, &mut comps, &mut scratch, out)
            })
        });
        store = recycle(comps);
        r
    });
    stdout.write_all(&out)?;
    res
}

/// Runs `row` on each line of standard input (its number, the line, the
/// output), the output flushed as it fills; a failing line's partial
/// output is dropped, the lines before it written and its error returned.
/// One loop a kind of key, so that each row's code is compiled into its
/// own.
#[inline(always)]
fn each_row(
    progress: &Progress,
    io: &mut Io<'_>,
    mut row: impl FnMut(u64, &[u8], &mut Vec<u8>) -> Result<()>,
) -> Result<()> {
    let mut out: Vec<u8> = Vec::with_capacity(FLUSH_AT + (FLUSH_AT >> 1));
    let stdout = &mut *io.stdout;
    let res = common::for_each_line(io.stdin, |lineno, line| {
        put_row(lineno, progress, stdout, &mut out, |out| {
            row(lineno, line, out)
        })
    });
    stdout.write_all(&out)?;
    res
}

/// Appends the output of line `lineno` to `out` (`row` writes it), then
/// flushes `out` when it has filled; on error, drops the line's partial
/// output and returns the error, numbered.
#[inline(always)]
fn put_row(
    lineno: u64,
    progress: &Progress,
    stdout: &mut dyn std::io::Write,
    out: &mut Vec<u8>,
    row: impl FnOnce(&mut Vec<u8>) -> Result<()>,
) -> Result<()> {
    let row_start = out.len();
    if let Err(e) = row(out) {
        out.truncate(row_start);
        return Err(anyhow!("line {lineno}: {e:#}"));
    }
    progress.row(lineno);
    common::maybe_flush(stdout, out)
}

/// Decodes one bulk line of an interop profile into `out`.
fn profile_row(
    o: &DecodeOpts,
    line: &[u8],
    hexbuf: &mut Vec<u8>,
    scratch: &mut String,
    out: &mut Vec<u8>,
) -> Result<()> {
    let format = o.spec.format();
    let bytes = key_bytes(&o.spec, line, hexbuf)?;
    let v = o
        .spec
        .decode(bytes)
        .map_err(|e| invalid_key(format, line, e))?;
    if let Some(d) = v.profile_values() {
        profile_out::push_decoded(d, o.json, o.values, true, scratch, out)?;
    }
    Ok(())
}

/// Decodes one bulk line (`bytes` its key) into `out`.
#[inline]
fn row<'k>(
    o: &DecodeOpts,
    lineno: u64,
    line: &[u8],
    bytes: &'k [u8],
    comps: &mut Vec<Component<'k>>,
    scratch: &mut String,
    out: &mut Vec<u8>,
) -> Result<()> {
    let format = o.spec.format();
    decode_key(o, line, bytes, comps)?;
    if !o.schema && !o.warned.get() && warn_damaged(format.native(), comps, Some(lineno)) {
        // Once per run: the first such line says it.
        o.warned.set(true);
    }
    let geo = o.spec.geo();
    if o.json {
        kinds::push_components_json(o.cols.as_deref(), comps, geo, scratch, out)
            .map_err(|e| invalid_component(format, line, e))?;
    } else {
        for (i, c) in comps.iter().enumerate() {
            if i > 0 {
                out.push(b'\t');
            }
            let col = o.cols.as_ref().and_then(|cols| cols.get(i));
            let start = out.len();
            kinds::push_component_text(col, c, b"\t\n", geo, scratch, out).map_err(
                |e| match col {
                    Some(col) if !matches!(col.kind, kinds::Kind::Core(_)) => {
                        invalid_component(format, line, anyhow!("component {}: {e}", i + 1))
                    }
                    _ => anyhow!("component {}: {e}", i + 1),
                },
            )?;
            if o.values {
                common::value_cell(c, out, start);
            }
        }
    }
    out.push(b'\n');
    Ok(())
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
