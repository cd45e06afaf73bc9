//! `lexikey range`: the half-open key range `[start, end)` of a query on the
//! component after a fixed tuple prefix, printed raw or in a store's syntax.
//! Every format's ranges are the library's
//! ([`KeySpec::ranges`](lexikey::frontend::spec::KeySpec::ranges)).
//!
//! # Ranges
//!
//! With `--format fdb-tuple|hbase-ordered|phoenix`, `range` computes
//! `[start, end)` over the profile's keys: the keys whose
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
//! `--after CURSOR` prints the next page's ranges: each range from just
//! after the last key the page cursor holds (`lexikey_design::cursor`).
//!
//! Salted Phoenix tables (`--salt-buckets N`): the salt byte hashes the
//! whole row key, so a range is one sub-range per bucket, `[b ‖ start,
//! b ‖ end)` for `b` = 0 … N−1.

use anyhow::{anyhow, bail, Result};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::Comp;
use lexikey::range::render::{render_into, Dialect, RenderOptions};
use lexikey::range::{Pred, RangeError, RangeQuery};
use lexikey::{Component, Format, KeyRange, Value};

use crate::args::{utf8_positionals, PredOp, RangeArgs};
use crate::common;
use crate::kinds::{self, GeoOpts};
use crate::layout::{self, LayoutArgs};
use crate::Io;

/// Runs `lexikey range`.
///
/// # Errors
/// Usage errors, components that do not parse or encode, predicates that
/// disagree, an empty range.
pub(crate) fn run(args: &RangeArgs, io: &mut Io<'_>) -> Result<()> {
    let layout = LayoutArgs {
        format: &args.format,
        salt: &args.salt,
        geo: &args.geo,
        hbase_numeric: args.hbase_numeric.as_deref(),
        round: args.round,
        bbox: (args.bbox.is_some(), args.max_ranges.is_some()),
    };
    let format = layout::key_format(&args.format);
    let (spec, dialect, opts) = match format {
        KeyFormat::Native(f) => {
            let spec = layout::key_spec(&layout)?;
            let (dialect, opts) = render_options(args, f.is_text())?;
            if args.splits {
                return splits(args, spec.salter(), dialect, &opts, io);
            }
            (spec, dialect, opts)
        }
        KeyFormat::Profile(_) => {
            let (dialect, opts) = render_options(args, false)?;
            if args.splits {
                bail!(
                    "--splits is for the salted tables of lexikey alloc (formats hex, base64, \
                     decimal, binary); Phoenix splits a SALT_BUCKETS table itself"
                );
            }
            let spec = layout::key_spec(&layout)?;
            if args.schema.is_some() {
                layout::check_range_schema(format)?;
            }
            (spec, dialect, opts)
        }
    };
    let salted = spec.salter().is_some() || spec.profile_options().salt.is_some();
    let texts = utf8_positionals(&args.components, "PREFIX_COMPONENT")?;
    let fields = match args.schema.as_deref() {
        Some(s) => Some(kinds::fields(&kinds::parse_schema(s, spec.width())?)),
        None => None,
    };
    // A --prefix takes the direction of its field when the schema names a
    // str there, or else of another predicate's str (its nullability the
    // range takes from the same place).
    let prefix_dir = fields
        .as_ref()
        .and_then(|f| f.get(texts.len()))
        .filter(|f| f.ty == lexikey::Type::Str)
        .map(|f| f.dir);
    let spec = spec.with_max_key_len(usize::MAX).with_fields(fields);
    let comps = spec.parse_components(&texts)?;
    let bbox = args.bbox.as_deref();
    if let KeyFormat::Native(_) = format {
        super::encode::ts_hints(
            texts
                .iter()
                .copied()
                .chain(args.preds.iter().map(|p| p.value.as_str())),
        );
        if bbox.is_none() && args.max_ranges.is_some() {
            bail!("--max-ranges applies to --bbox");
        }
        let geo_pred = args
            .preds
            .iter()
            .any(|p| p.op != PredOp::Prefix && kinds::is_geo_component(&p.value));
        kinds::check_geo_used(
            spec.geo(),
            super::encode::any_geo(&comps) || geo_pred || bbox.is_some(),
        )?;
    }
    let (ranges, cover) = match (bbox, format) {
        (Some(b), KeyFormat::Native(f)) => {
            let prefix = natives(&comps);
            let (logical, cover) = bbox_ranges(f, &prefix, b, args, spec.width(), spec.geo())?;
            let ranges = match spec.salter() {
                // Bucket-major: every range of bucket 0, then bucket 1, ...:
                // the physical ranges in key order.
                Some(s) => (0..s.buckets())
                    .flat_map(|b| logical.iter().map(move |r| s.bucket_range(b, r)))
                    .collect(),
                None => logical,
            };
            (ranges, Some(cover))
        }
        _ => {
            let preds = args
                .preds
                .iter()
                .map(|p| spec.parse_pred(p.op, &p.value))
                .collect::<Result<Vec<_>, _>>()?;
            // Without a schema, the direction of another predicate's str
            // (--not-null str?.desc --prefix ab).
            let prefix_dir = prefix_dir.or_else(|| {
                preds.iter().find_map(|p| match p.value() {
                    Some(Comp::Native(_, c)) if c.value.ty() == lexikey::Type::Str => Some(c.dir),
                    _ => None,
                })
            });
            let preds = preds
                .into_iter()
                .map(|q| match (q, prefix_dir) {
                    (Pred::Prefix(t, _), Some(d)) => Pred::Prefix(t, d),
                    (q, _) => q,
                })
                .collect();
            let ranges = spec
                .ranges(&comps, preds)
                .map_err(|e| range_error(e, &texts, args))?;
            (ranges, None)
        }
    };
    let text = matches!(format, KeyFormat::Native(f) if f.is_text());
    if let Some(last) = &args.last {
        let token = last_cursor(&spec, ranges, args, last, text)?;
        io.stdout.write_all(token.as_bytes())?;
        io.stdout.write_all(b"\n")?;
        return Ok(());
    }
    let ranges = match &args.after {
        Some(token) => next_page(&spec, &ranges, token, args.secret.as_deref(), text)?,
        None => {
            if args.secret.is_some() {
                bail!("--secret goes with --after CURSOR or --last KEY");
            }
            ranges
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
    let multi = salted || cover.is_some();
    note_whole_table(dialect, &ranges);
    print_ranges(
        format.native(),
        &ranges,
        multi,
        dialect,
        &opts,
        spec.salter().as_ref(),
        args.json,
        &extra,
        io,
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

/// `--last KEY [--after CURSOR] [--secret S]`: the cursor (its token) of
/// the page of the query read up to the row whose key is `last` (as
/// stored, with its salt; a binary key in hex or `Bytes.toStringBinary`
/// form), the page being the first one, or with `--after` the one after
/// that cursor's. Signed with `--secret`.
fn last_cursor(
    spec: &lexikey::frontend::spec::KeySpec,
    ranges: Vec<KeyRange>,
    args: &RangeArgs,
    last: &str,
    text: bool,
) -> Result<String> {
    use lexikey_design::cursor::{spec_fingerprint, Cursor};
    if args.json || args.dialect.is_some_and(|d| d != Dialect::Raw) {
        bail!("--last prints a page cursor, not ranges: it takes no --for or --json");
    }
    let secret = args.secret.as_deref().map(str::as_bytes);
    let fp = spec_fingerprint(spec);
    let cursor = match &args.after {
        Some(token) => {
            Cursor::resume(token, fp, &ranges, secret).map_err(|e| anyhow!("--after: {e}"))?
        }
        None => Cursor::new(fp, ranges),
    };
    let mut key = Vec::new();
    if text {
        key.extend_from_slice(last.as_bytes());
    } else {
        common::binary_key(
            last.as_bytes(),
            layout::key_format(&args.format).name(),
            &mut key,
        )
        .map_err(|e| anyhow!("--last: {e}"))?;
    }
    let rest = spec.unsalted(&key).map_err(|e| {
        anyhow!(
            "--last: key {} is not a key of this layout: {e}",
            lexikey::show_key(&key)
        )
    })?;
    let salt_len = key.len() - rest.len();
    let next = cursor.advance(&key, salt_len).map_err(|_| {
        anyhow!(
            "--last: key {} is in none of the query's ranges",
            lexikey::show_key(&key)
        )
    })?;
    Ok(next.to_token(secret))
}

/// `--after CURSOR`: the ranges of the page after the cursor's (the
/// cursor must be for this layout and these ranges; `text`: text keys).
fn next_page(
    spec: &lexikey::frontend::spec::KeySpec,
    ranges: &[KeyRange],
    token: &str,
    secret: Option<&str>,
    text: bool,
) -> Result<Vec<KeyRange>> {
    let fp = lexikey_design::cursor::spec_fingerprint(spec);
    let cursor =
        lexikey_design::cursor::Cursor::resume(token, fp, ranges, secret.map(str::as_bytes))
            .map_err(|e| anyhow!("--after: {e}"))?;
    let next = cursor.next_ranges(text);
    if next.is_empty() {
        bail!("--after: the cursor's ranges are read to their end: there is no next page");
    }
    Ok(next)
}

/// The command line's message of a range error: components and predicates
/// named by their text ([`lexikey::frontend::spec::range_message`]).
fn range_error(e: RangeError, texts: &[&str], args: &RangeArgs) -> anyhow::Error {
    let preds: Vec<&str> = args.preds.iter().map(|p| p.value.as_str()).collect();
    anyhow!(lexikey::frontend::spec::range_message(&e, texts, &preds))
}

/// Prints `ranges`: as text, each rendered in turn (raw: a pair of lines
/// each); with `json`, `{"start":…,"end":…}` for a single range (`multi`
/// false) or `{"ranges":[{"start":…,"end":…},…]}`, then `extra` (JSON
/// members), then `"for"` and `"output"` (the rendered text) when the
/// dialect is not raw. DynamoDB with a salter: each bucket's range reads
/// that bucket's partition (`lexikey::range::render::dynamodb`).
#[allow(clippy::too_many_arguments)]
fn print_ranges(
    format: Format,
    ranges: &[KeyRange],
    multi: bool,
    dialect: Dialect,
    opts: &RenderOptions,
    salter: Option<&lexikey::store::salt::Salter>,
    json: bool,
    extra: &[u8],
    io: &mut Io<'_>,
) -> Result<()> {
    let mut rendered = String::new();
    // JSON with raw bounds prints the bounds themselves: nothing to render
    // (the raw rendering refuses text it cannot show, which JSON escapes).
    if !(json && dialect == Dialect::Raw) {
        for r in ranges {
            match (dialect, salter, r.start.as_deref()) {
                (Dialect::DynamoDb, Some(s), Some(start)) => {
                    // A bucket's range starts with its salt.
                    let bucket = (0..s.buckets())
                        .find(|&b| start.starts_with(&s.salt(b)))
                        .ok_or_else(|| anyhow!("a salted range outside every bucket"))?;
                    let ns = opts.partition.as_deref();
                    let ns = ns.unwrap_or(lexikey::range::render::dynamodb::DEFAULT_PARTITION);
                    let o =
                        opts.clone()
                            .partition(lexikey::range::render::dynamodb::bucket_partition(
                                ns, bucket,
                            ));
                    render_into(dialect, r, &o, &mut rendered)?;
                }
                _ => render_into(dialect, r, opts, &mut rendered)?,
            }
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
    if let (Some(url), Dialect::DynamoDb) = (&args.store, dialect) {
        let spec = lexikey_stores::parse_url(url)?;
        let Some((table, ns)) = spec.dynamodb_names() else {
            bail!("--store {spec}: --for dynamodb needs a dynamodb://TABLE store URL");
        };
        opts = opts.table(table).partition(ns);
    } else if let Some(url) = &args.store {
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
