//! `lexikey lint` and `lexikey plan`: a key design judged on sample rows
//! before the table exists; `lexikey schema diff`: whether an old layout's
//! keys still read and sort under a new one (the work is lexikey-design's).

use std::ffi::OsString;
use std::io::BufReader;

use anyhow::{anyhow, bail, Context, Result};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::KeySpec;
use lexikey::store::salt::SaltMode;
use lexikey_design::{InputFormat, Sample, Target};

use crate::args::{GeoArgs, KeyFormatArgs, LintArgs, PlanArgs, SaltArgs, SampleArgs, SchemaArgs};
use crate::layout::{self, LayoutArgs};
use crate::Io;

/// The default `--regions` of `lint`.
const DEFAULT_REGIONS: usize = 16;

/// The layout and the sample rows of `args`.
fn read(args: &SampleArgs, cmd: &str, io: &mut Io<'_>) -> Result<(KeySpec, Sample)> {
    let Some(schema) = args.schema.as_deref() else {
        bail!("{cmd} needs --schema TYPE[.desc],... (one CSV column per field)");
    };
    let file: &OsString = match args.file.as_slice() {
        [f] => f,
        [] => {
            bail!("{cmd} needs FILE: the sample rows as CSV or JSON lines (- for standard input)")
        }
        more => bail!("{cmd} takes one FILE, got {}", more.len()),
    };
    let spec = layout::key_spec(&LayoutArgs {
        format: &args.format,
        salt: &args.salt,
        geo: &GeoArgs::default(),
        hbase_numeric: None,
        round: false,
        bbox: (false, false),
    })?
    // Long keys are reported, not refused.
    .with_max_key_len(usize::MAX)
    .with_schema(schema)?;
    let input = args
        .input
        .unwrap_or_else(|| InputFormat::from_path(std::path::Path::new(file)));
    let sample = if file == "-" {
        Sample::read(&spec, input, &mut *io.stdin)
    } else {
        let f = std::fs::File::open(file)
            .with_context(|| format!("cannot open {}", file.to_string_lossy()))?;
        Sample::read(&spec, input, BufReader::new(f))
    }
    .map_err(|e| anyhow!("{}: {e}", file.to_string_lossy()))?;
    if sample.is_empty() {
        bail!("{}: no rows", file.to_string_lossy());
    }
    Ok((spec, sample))
}

/// Runs `lexikey lint`.
///
/// # Errors
/// Usage errors, rows that do not parse, an SVG file that cannot be written.
pub(crate) fn lint(args: &LintArgs, io: &mut Io<'_>) -> Result<()> {
    let (spec, sample) = read(&args.sample, "lint", io)?;
    let regions = args.sample.regions.unwrap_or(DEFAULT_REGIONS);
    let report = lexikey_design::lint(&spec, &sample, regions)?;
    if let Some(path) = &args.svg {
        std::fs::write(path, report.to_svg())
            .with_context(|| format!("cannot write {}", path.to_string_lossy()))?;
    }
    let mut out = if args.json {
        report.to_json()
    } else {
        report.to_text()
    };
    if args.json {
        out.push('\n');
    }
    io.stdout.write_all(out.as_bytes())?;
    Ok(())
}

/// Runs `lexikey plan`.
///
/// # Errors
/// Usage errors, rows that do not parse, too few distinct keys, a split
/// the target's syntax cannot carry.
pub(crate) fn plan(args: &PlanArgs, io: &mut Io<'_>) -> Result<()> {
    let Some(target) = args.target.as_deref() else {
        bail!("plan needs --for hbase|cbt|phoenix");
    };
    let target = Target::parse(target)?;
    let Some(regions) = args.sample.regions else {
        bail!("plan needs --regions N (the table's regions: N-1 split points)");
    };
    let (spec, sample) = read(&args.sample, "plan", io)?;
    let table = args.table.as_deref().unwrap_or("t");
    let line = lexikey_design::plan(&spec, &sample, regions, target, table)?;
    io.stdout.write_all(line.as_bytes())?;
    Ok(())
}

/// Runs `lexikey schema diff OLD NEW`.
///
/// # Errors
/// Usage errors, a schema or an option that does not parse.
pub(crate) fn schema(args: &SchemaArgs, io: &mut Io<'_>) -> Result<()> {
    let (old, new) = match args.words.as_slice() {
        [d, old, new] if d == "diff" => (old, new),
        [d, ..] if d == "diff" => bail!("schema diff takes OLD and NEW: two schemas"),
        [] => bail!("schema needs an action: schema diff OLD NEW"),
        [other, ..] => bail!("unknown schema action {other:?}: expected diff"),
    };
    let side = |which: &str,
                schema: &str,
                format: Option<KeyFormat>,
                buckets: &Option<String>,
                mode: Option<SaltMode>| {
        let spec = layout::key_spec(&LayoutArgs {
            format: &KeyFormatArgs {
                format: format.or(args.format),
                width: args.width.clone(),
            },
            salt: &SaltArgs {
                salt_buckets: buckets.clone().or_else(|| args.salt_buckets.clone()),
                salt_mode: mode.or(args.salt_mode),
            },
            geo: &GeoArgs::default(),
            hbase_numeric: None,
            round: false,
            bbox: (false, false),
        })
        .with_context(|| format!("{which} layout"))?;
        spec.with_schema(schema)
            .map_err(|e| anyhow!("{which} schema {schema:?}: {e}"))
    };
    let old = side(
        "old",
        old,
        args.old_format,
        &args.old_salt_buckets,
        args.old_salt_mode,
    )?;
    let new = side(
        "new",
        new,
        args.new_format,
        &args.new_salt_buckets,
        args.new_salt_mode,
    )?;
    let d = lexikey_design::diff(&old, &new)?;
    let out = if args.json {
        d.to_json() + "\n"
    } else {
        d.to_text()
    };
    io.stdout.write_all(out.as_bytes())?;
    Ok(())
}
