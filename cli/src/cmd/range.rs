//! `lexikey range`: the half-open key range `[start, end)` of a query on the
//! component after a fixed tuple prefix, printed raw or in a store's syntax.

use anyhow::{anyhow, bail, Result};
use lexikey::frontend::spec::Comp;
use lexikey::range::render::{render_into, Dialect, RenderOptions};
use lexikey::range::RangeQuery;
use lexikey::{Component, Format, KeyRange, Value};

use crate::args::{utf8_positionals, PredOp, RangeArgs};
use crate::common;
use crate::kinds::{self, GeoOpts};
use crate::{interop, Io};

/// Runs `lexikey range`.
///
/// # Errors
/// Usage errors, components that do not parse or encode, predicates that
/// disagree, an empty range.
pub(crate) fn run(args: &RangeArgs, io: &mut Io<'_>) -> Result<()> {
    if let Some(profile) = args.format.profile() {
        return run_profile(profile, args, io);
    }
    let (format, width, salter, geo) = super::encode::native_options(
        &args.format,
        &args.salt,
        &args.geo,
        args.hbase_numeric.as_deref(),
        args.round,
    )?;
    let (dialect, opts) = render_options(args, format.is_text())?;
    if args.splits {
        return splits(args, salter, dialect, &opts, io);
    }
    let texts = utf8_positionals(&args.components, "PREFIX_COMPONENT")?;
    let fields = match args.schema.as_deref() {
        Some(s) => Some(kinds::fields(&kinds::parse_schema(s, width)?)),
        None => None,
    };
    let spec =
        super::encode::native_spec(format, width, None, geo, usize::MAX)?.with_fields(fields);
    let comps = spec.parse_components(&texts)?;
    super::encode::ts_hints(
        texts
            .iter()
            .copied()
            .chain(args.preds.iter().map(|p| p.value.as_str())),
    );
    let bbox = args.bbox.as_deref();
    if bbox.is_none() && args.max_ranges.is_some() {
        bail!("--max-ranges applies to --bbox");
    }
    let geo_pred = args
        .preds
        .iter()
        .any(|p| p.op != PredOp::Prefix && kinds::is_geo_component(&p.value));
    kinds::check_geo_used(
        &geo,
        super::encode::any_geo(&comps) || geo_pred || bbox.is_some(),
    )?;
    let (ranges, cover) = match bbox {
        Some(b) => {
            let prefix = natives(&comps);
            let (logical, cover) = bbox_ranges(format, &prefix, b, args, width, &geo)?;
            let ranges = match salter {
                // Bucket-major: every range of bucket 0, then bucket 1, ...:
                // the physical ranges in key order.
                Some(s) => (0..s.buckets())
                    .flat_map(|b| logical.iter().map(move |r| s.bucket_range(b, r)))
                    .collect(),
                None => logical,
            };
            (ranges, Some(cover))
        }
        None => {
            let preds = args
                .preds
                .iter()
                .map(|p| spec.parse_pred(p.op.name(), &p.value))
                .collect::<Result<Vec<_>, _>>()?;
            let spec = spec.with_salter(salter)?;
            let ranges = spec
                .ranges(&comps, preds)
                .map_err(|e| crate::interop::range_error(e, &texts, args))?;
            (ranges, None)
        }
    };
    let mut extra = Vec::new();
    if let Some(c) = &cover {
        extra = format!(
            ",\"over_coverage\":{},\"covered_cells\":{},\"box_cells\":{}",
            c.over_coverage, c.covered_cells, c.box_cells
        )
        .into_bytes();
    }
    let multi = salter.is_some() || cover.is_some();
    note_whole_table(dialect, &ranges);
    print_ranges(
        format, &ranges, multi, dialect, &opts, args.json, &extra, io,
    )?;
    if let (Some(c), false) = (&cover, args.json) {
        eprintln!(
            "lexikey range: the box is {} cells; {} range{} cover {} cells (over-coverage {:.1}%)",
            c.box_cells,
            c.ranges.len(),
            if c.ranges.len() == 1 { "" } else { "s" },
            c.covered_cells,
            100.0 * c.over_coverage
        );
    }
    Ok(())
}

/// Prints `ranges`: as text, each rendered in turn (raw: a pair of lines
/// each); with `json`, `{"start":…,"end":…}` for a single range (`multi`
/// false) or `{"ranges":[{"start":…,"end":…},…]}`, then `extra` (JSON
/// members), then `"for"` and `"output"` (the rendered text) when the
/// dialect is not raw.
#[allow(clippy::too_many_arguments)]
fn print_ranges(
    format: Format,
    ranges: &[KeyRange],
    multi: bool,
    dialect: Dialect,
    opts: &RenderOptions,
    json: bool,
    extra: &[u8],
    io: &mut Io<'_>,
) -> Result<()> {
    let mut rendered = String::new();
    // JSON with raw bounds prints the bounds themselves: nothing to render
    // (the raw rendering refuses text it cannot show, which JSON escapes).
    if !(json && dialect == Dialect::Raw) {
        for r in ranges {
            render_into(dialect, r, opts, &mut rendered)?;
        }
    }
    if !json {
        io.stdout.write_all(rendered.as_bytes())?;
        return Ok(());
    }
    let mut out = Vec::with_capacity(256);
    let push_range = |r: &KeyRange, out: &mut Vec<u8>| -> Result<()> {
        out.extend_from_slice(b"{\"start\":");
        side_json(format, r.start.as_deref(), out)?;
        out.extend_from_slice(b",\"end\":");
        side_json(format, r.end.as_deref(), out)?;
        out.push(b'}');
        Ok(())
    };
    match ranges {
        [r] if !multi => {
            push_range(r, &mut out)?;
            out.pop();
        }
        _ => {
            out.extend_from_slice(b"{\"ranges\":[");
            for (i, r) in ranges.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                push_range(r, &mut out)?;
            }
            out.push(b']');
        }
    }
    out.extend_from_slice(extra);
    if dialect != Dialect::Raw {
        out.extend_from_slice(b",\"for\":\"");
        out.extend_from_slice(dialect.name().as_bytes());
        out.extend_from_slice(b"\",\"output\":");
        common::push_json_str(&rendered, &mut out);
    }
    out.extend_from_slice(b"}\n");
    io.stdout.write_all(&out)?;
    Ok(())
}

/// The key ranges covering `--bbox` under `prefix` (the geo component
/// comes next), at most `--max-ranges` (default 8), and the cover.
fn bbox_ranges(
    format: Format,
    prefix: &[Component<'static>],
    bbox: &str,
    args: &RangeArgs,
    width: Option<u8>,
    geo: &GeoOpts,
) -> Result<(Vec<KeyRange>, lexikey::kinds::geo::Cover)> {
    if let Some(p) = args.preds.first() {
        bail!(
            "--bbox is the predicate on the geo component after the prefix: it takes no --{}",
            p.op.name()
        );
    }
    let max = args.max_ranges.unwrap_or(DEFAULT_MAX_RANGES);
    let [min_lat, min_lon, max_lat, max_lon] = kinds::parse_bbox(bbox)?;
    let cover = geo
        .grid
        .bbox_ranges(min_lat, min_lon, max_lat, max_lon, max)
        .map_err(|e| anyhow!("invalid --bbox {bbox:?}: {e}"))?;
    let code = |c: u64| {
        let mut comp = Component::asc(Value::U64(c));
        lexikey::frontend::native::apply_width(&mut comp, width);
        comp
    };
    let ranges = cover
        .ranges
        .iter()
        .map(|&(lo, hi)| {
            RangeQuery::new(format)
                .prefix(prefix)
                .ge(code(lo))
                .le(code(hi))
                .build()
                .map_err(|e| anyhow!("{e}"))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((ranges, cover))
}

/// `--max-ranges` without a value.
const DEFAULT_MAX_RANGES: usize = 8;

/// `--for` and the render options (`--table`, `--limit`, `--reversed`,
/// `--column`, `--partition-key`); `text`: the keys are text keys.
fn render_options(args: &RangeArgs, text: bool) -> Result<(Dialect, RenderOptions)> {
    let dialect = args.dialect.unwrap_or(Dialect::Raw);
    let mut opts = RenderOptions::new().text(text);
    if let Some(url) = &args.store {
        if dialect != Dialect::Cbt {
            bail!("--store applies to --for cbt (the Bigtable store the cbt line names)");
        }
        let spec = lexikey_stores::parse_url(url)?;
        let Some((project, instance, table)) = spec.bigtable_names() else {
            bail!("--store {spec}: --for cbt needs a bigtable://PROJECT/INSTANCE store URL");
        };
        opts = opts.project(project).instance(instance).table(table);
    }
    if let Some(t) = &args.table {
        opts = opts.table(t);
    }
    if let Some(n) = args.limit {
        opts = opts.limit(n);
    }
    if args.reversed {
        opts = opts.reversed(true);
    }
    if let Some(c) = &args.column {
        opts = opts.column(c);
    }
    if let Some(c) = &args.partition_key {
        opts = opts.partition_key(c);
    }
    Ok((dialect, opts))
}

/// `range --splits`: the command that creates a salted table (as `lexikey
/// alloc --salt-buckets N` writes it) split at every bucket boundary.
fn splits(
    args: &RangeArgs,
    salter: Option<lexikey::store::salt::Salter>,
    dialect: Dialect,
    opts: &RenderOptions,
    io: &mut Io<'_>,
) -> Result<()> {
    let Some(salter) = salter else {
        bail!("--splits needs --salt-buckets N: the table's bucket count");
    };
    let other = [
        (!args.components.is_empty(), "PREFIX_COMPONENT"),
        (!args.preds.is_empty(), "a predicate"),
        (args.bbox.is_some(), "--bbox"),
        (args.schema.is_some(), "--schema"),
        (args.json, "--json"),
        (args.limit.is_some(), "--limit"),
        (args.reversed, "--reversed"),
    ];
    if let Some((_, what)) = other.iter().find(|(given, _)| *given) {
        bail!("--splits prints a table's split points: it takes no {what}");
    }
    let out = lexikey::range::render::render_splits(dialect, &salter.split_points(), opts)?;
    io.stdout.write_all(out.as_bytes())?;
    Ok(())
}

/// `range --format PROFILE`: binary keys; a salted Phoenix table gives one
/// range per bucket, rendered one after another (raw: a pair of lines per
/// bucket, bucket 0 first).
fn run_profile(
    profile: lexikey::frontend::profile::Profile,
    args: &RangeArgs,
    io: &mut Io<'_>,
) -> Result<()> {
    let (dialect, opts) = render_options(args, false)?;
    if args.splits {
        bail!(
            "--splits is for the salted tables of lexikey alloc (formats hex, base64, decimal, \
             binary); Phoenix splits a SALT_BUCKETS table itself"
        );
    }
    let ranges = interop::ranges(profile, args)?;
    note_whole_table(dialect, &ranges);
    let multi = args.salt.salt_buckets.is_some();
    print_ranges(
        Format::Binary,
        &ranges,
        multi,
        dialect,
        &opts,
        args.json,
        &[],
        io,
    )
}

fn side_json(format: Format, key: Option<&[u8]>, out: &mut Vec<u8>) -> Result<()> {
    match key {
        None => out.extend_from_slice(b"null"),
        Some(k) => common::push_key_string_json(format, k, out)?,
    }
    Ok(())
}

/// The native components of `comps` (all of them: the format is native).
fn natives(comps: &[Comp]) -> Vec<Component<'static>> {
    comps
        .iter()
        .filter_map(|c| match c {
            Comp::Native(_, c) => Some(c.clone()),
            Comp::Profile(_) => None,
        })
        .collect()
}

/// Says on stderr when a rendered command scans the whole table (no
/// prefix, no predicate): such a scan is easy to run by mistake. Raw
/// output (two empty lines) says it itself.
fn note_whole_table(dialect: Dialect, ranges: &[KeyRange]) {
    if dialect != Dialect::Raw && ranges.iter().any(|r| r.start.is_none() && r.end.is_none()) {
        eprintln!(
            "lexikey: note: no prefix and no predicate: this range is the whole table \
             (every key, both sides unbounded)"
        );
    }
}
