//! `lexikey encode`: values to a key, one key per invocation or one key per
//! input line (bulk mode).

use anyhow::{anyhow, bail, Result};
use lexikey::frontend::host::ColType;
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::profile::Profile;
use lexikey::frontend::spec::{Comp, KeySpec, RowError};

use crate::args::{utf8_positionals, EncodeArgs};
use crate::common::{self, FLUSH_AT};
use crate::kinds;
use crate::layout::{self, LayoutArgs};
use crate::progress::Progress;
use crate::Io;

/// Runs `lexikey encode`.
///
/// # Errors
/// Usage errors, components that do not parse, values the format cannot hold.
pub(crate) fn run(args: &EncodeArgs, io: &mut Io<'_>) -> Result<()> {
    let k = &args.key;
    let spec = layout::key_spec(&LayoutArgs {
        format: &k.format,
        salt: &k.salt,
        geo: &k.geo,
        hbase_numeric: k.hbase_numeric.as_deref(),
        round: args.round,
        bbox: (false, false),
    })?
    .with_max_key_len(common::max_key_len(k.max_key_len));
    let format = spec.format();
    if args.versionstamp && format != KeyFormat::Profile(Profile::Fdb) {
        bail!("--versionstamp applies only to --format fdb-tuple (FoundationDB's versionstamped keys)");
    }
    if args.versionstamp && k.stdin {
        bail!("--versionstamp packs one key: it takes COMPONENT arguments, not --stdin");
    }
    if k.stdin {
        let Some(schema) = k.schema.as_deref() else {
            bail!("encode --stdin needs --schema TYPE[.desc],... to type the tab-separated values");
        };
        if !args.components.is_empty() {
            bail!("encode --stdin reads rows from standard input and takes no COMPONENT arguments");
        }
        let spec = spec.with_schema(schema)?;
        let geo = spec
            .schema()
            .unwrap_or_default()
            .iter()
            .any(|c| matches!(c, ColType::Native(col) if col.kind == kinds::Kind::Geo));
        kinds::check_geo_used(spec.geo(), geo)?;
        let progress = Progress::counter("rows", k.quiet);
        return bulk(&spec, k.json, &progress, io);
    }
    if k.schema.is_some() {
        bail!("--schema is for --stdin; each COMPONENT names its own type (TYPE[.desc]:VALUE)");
    }
    let texts = utf8_positionals(&args.components, "COMPONENT")?;
    if texts.is_empty() {
        bail!(
            "missing COMPONENT: expected TYPE[.desc]:VALUE..., e.g. lexikey encode {}",
            match format {
                KeyFormat::Native(_) => "str:population i64:3831868",
                KeyFormat::Profile(Profile::Fdb) => "--format fdb-tuple str:hello int:5",
                KeyFormat::Profile(Profile::Hbase) => "--format hbase-ordered numeric:1 text:foo",
                KeyFormat::Profile(Profile::Phoenix) => "--format phoenix varchar:a bigint.desc:1",
            }
        );
    }
    let comps = spec.parse_components(&texts)?;
    let key = match format {
        KeyFormat::Native(_) => {
            ts_hints(texts.iter().copied());
            kinds::check_geo_used(spec.geo(), any_geo(&comps))?;
            spec.encode(&comps)?
        }
        KeyFormat::Profile(_) if args.versionstamp => spec.encode_with_versionstamp(&comps)?,
        // A profile's components are named by their text as given.
        KeyFormat::Profile(_) => spec.encode_named(&comps, |i| {
            format!("component {} ({})", i + 1, texts.get(i).unwrap_or(&"?"))
        })?,
    };
    let mut out = Vec::with_capacity(key.len() * 2 + 16);
    push_key(format, &key, k.json, &mut out)?;
    io.stdout.write_all(&out)?;
    Ok(())
}

/// Appends a key as the command line prints it (text keys as they are,
/// binary keys as lowercase hex; `json`: `{"key":"…"}`) and a newline.
fn push_key(format: KeyFormat, key: &[u8], json: bool, out: &mut Vec<u8>) -> Result<()> {
    let format = format.native();
    if json {
        common::push_key_json(format, key, out)?;
    } else {
        common::push_key(format, key, out);
    }
    out.push(b'\n');
    Ok(())
}

/// Whether any component is a `geo`.
pub(crate) fn any_geo(comps: &[Comp]) -> bool {
    comps
        .iter()
        .any(|c| matches!(c, Comp::Native(col, _) if col.kind == kinds::Kind::Geo))
}

/// Reuses a vector's allocation for slices of another lifetime.
fn recycle<'b>(mut v: Vec<&str>) -> Vec<&'b str> {
    v.clear();
    // An empty vector: the map never runs; `collect` reuses the allocation.
    v.into_iter().map(|_| "").collect()
}

/// Bulk mode: one tab-separated row per line → one key per line, each
/// written by the layout's row encoder.
fn bulk(spec: &KeySpec, json: bool, progress: &Progress, io: &mut Io<'_>) -> Result<()> {
    let format = spec.format();
    let mut enc = spec.encoder()?;
    let n = enc.width();
    let mut out: Vec<u8> = Vec::with_capacity(FLUSH_AT + (FLUSH_AT >> 1));
    let mut key: Vec<u8> = Vec::with_capacity(256);
    // Text keys without JSON are written straight into `out`.
    let direct = format.is_text() && !json;
    let mut store: Vec<&str> = Vec::with_capacity(n + 1);
    let stdout = &mut *io.stdout;
    let res = common::for_each_line(io.stdin, |lineno, line| {
        let line = std::str::from_utf8(line)
            .map_err(|e| anyhow!("line {lineno}: invalid UTF-8 at byte {}", e.valid_up_to()))?;
        let mut cells = recycle(std::mem::take(&mut store));
        cells.extend(line.split('\t'));
        if cells.len() != n {
            bail!(
                "line {lineno}: expected {n} tab-separated values (one per schema field), found {}",
                cells.len()
            );
        }
        let at = |e: RowError| match e.index {
            Some(_) => anyhow!("line {lineno}, {e}"),
            None => anyhow!("line {lineno}: {e}"),
        };
        if direct {
            enc.encode_texts(&cells, &mut out).map_err(at)?;
            out.push(b'\n');
        } else {
            key.clear();
            enc.encode_texts(&cells, &mut key).map_err(at)?;
            push_key(format, &key, json, &mut out)?;
        }
        store = recycle(cells);
        progress.row(lineno);
        common::maybe_flush(stdout, &mut out)
    });
    // Keys of the rows before an error are written, then the error reported.
    stdout.write_all(&out)?;
    res
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
