//! `lexikey range`: the half-open key range `[start, end)` of a query on the
//! component after a fixed tuple prefix, printed raw or in a store's syntax.

use anyhow::{anyhow, bail, Result};
use lexikey::range::{RangeError, RangeQuery};
use lexikey::render::{render_into, Dialect, RenderOptions};
use lexikey::{Component, Dir, Format, KeyRange, Value};

use crate::args::{utf8_positionals, PredOp, RangeArgs};
use crate::common;
use crate::kinds::{self, GeoOpts};
use crate::{interop, Io};

/// Help text.
pub const USAGE: &str = "\
Usage:
  lexikey range [--format F] [--width N] [--for raw|hbase|cql|rocksdb|etcd|redis|sql]
                [--table T] [--limit N] [--reversed] [--json] PREFIX_COMPONENT...
                [--ge C] [--gt C] [--le C] [--lt C] [--eq C] [--prefix STR]
  lexikey range ... PREFIX_COMPONENT... --bbox MINLAT,MINLON,MAXLAT,MAXLON [--max-ranges K]
                [--curve C] [--bits B]
  (both: [--salt-buckets N [--salt-mode fast|phoenix]])

Computes the half-open key range [start, end) holding exactly the keys whose leading
components are the PREFIX_COMPONENTs and whose next component satisfies every
predicate (several predicates intersect; with none, every key under the prefix).
Components are written as in encode (TYPE[.desc]:VALUE); predicates are on values,
so --ge on a descending component becomes an upper key bound.
  lexikey range str:population --ge i64:1000000  ->  population#l80000000000F4240
                                                     population$

Options:
  --for D       where the range goes:
                raw (default): exactly two lines, the inclusive start and the exclusive
                  end (binary keys as lowercase hex), an unbounded side as an empty line
                hbase: scan 'T', {STARTROW => ..., STOPROW => ...} (Ruby-quoted)
                cql: SELECT * FROM T WHERE pk = ? AND ck >= ... AND ck < ...;
                rocksdb: iterate_lower_bound=... / iterate_upper_bound=...
                etcd: an etcdctl get line and the JSON gateway body (base64)
                redis: ZRANGE T [start (end BYLEX
                sql: SELECT k FROM T WHERE k >= ... AND k < ... ORDER BY k;
  --table T     the table (hbase, cql, sql) or sorted-set key (redis); default t
  --limit N     at most N keys (hbase, cql, sql, etcd, redis)
  --reversed    largest key first, the same keys (hbase, cql, sql, etcd, redis)
  --column C, --partition-key P   the key column (cql, sql) and partition key (cql)
  --json        {\"start\":\"...\",\"end\":\"...\"} (null for an unbounded side; binary keys
                as lowercase hex), plus \"for\" and \"output\" (the rendered text) when
                --for is not raw
  --ge/--gt/--le/--lt/--eq C   predicates on the next component (repeatable)
  --prefix STR  the next component is an ascending str starting with STR
  --format F, --width N        as in encode (F may also be an interop profile, below)
A query no key can match (e.g. --gt i64:9223372036854775807, or --ge i64:5 --lt i64:3)
is an error (exit 2). Components may be of the kinds ulid, uuid7 and geo ('lexikey
help encode'), with --curve and --bits for geo.

Geo boxes:
  --bbox MINLAT,MINLON,MAXLAT,MAXLON   the next component is an ascending geo code:
                the ranges of the cells the box touches (edges included; MINLON >
                MAXLON crosses the antimeridian), at most --max-ranges K (1 to 4096,
                default 8) after joining the ranges across the smallest gaps. Printed
                one after another in code order (raw: a pair of lines each). The over-
                coverage, the fraction of covered cells outside the box, is reported:
                one line on stderr (exit 0), or with --json {\"ranges\":[...],
                \"over_coverage\":F,\"covered_cells\":N,\"box_cells\":N}. Filter the rows by
                their point when it matters. No other predicate goes with --bbox.
e.g.
  lexikey range --bits 16 str:places --bbox 37.70,-122.52,37.82,-122.35 --max-ranges 2 --json
    ->  {\"ranges\":[...],\"over_coverage\":0.6734693877551021,\"covered_cells\":4312,\"box_cells\":1408}

Salting (hex, base64, decimal, binary):
  --salt-buckets N, --salt-mode M   keys salted as by encode (N from 1 to 255): the
                answer is one range per bucket, [salt(b) start, salt(b) end) for b = 0
                to N-1, bucket 0 first (with --bbox: every range of bucket 0, then of
                bucket 1, ...); raw prints a pair of lines per range, other --for
                targets one rendering each (--limit and --reversed apply per range),
                --json {\"ranges\":[{\"start\":...,\"end\":...},...]}. Scan them all and
                merge (lexikey::salt::merge_sorted); for the first n rows, n per bucket.
e.g.
  lexikey range --salt-buckets 2 str:events --ge i64:40  ->  00#events#l8000000000000028
                                                             00#events$
                                                             01#events#l8000000000000028
                                                             01#events$

Interop profiles (binary keys: lowercase hex in raw output):
  lexikey range --format fdb-tuple|hbase-ordered|phoenix [--salt-buckets N] [--for D ...]
                [--json] PREFIX_COMPONENT... [--ge C] [--gt C] [--le C] [--lt C] [--eq C]
                [--prefix STR]
Components and predicates are in the profile's syntax ('lexikey help encode'). The
bounds are exact: no key outside the answer lies inside the range.
  fdb-tuple: with no predicate, FoundationDB's Subspace(prefix).range():
    [prefix+00, prefix+FF), every tuple longer than the prefix (not the prefix tuple
    itself). Predicates compare elements in the tuple layer's order, which orders
    types first (null < bytes < str < int < f32 < f64 < bool < uuid < versionstamp):
    --ge int:5 also matches every f32, f64, bool... element. --eq e gives
    [prefix+pack(e), prefix+pack(e)+FF): the tuple (prefix..., e) and every tuple
    extending it.
  hbase-ordered, phoenix: with no predicate, every row under the prefix, including
    the row whose remaining fields are all null (written as the prefix alone). The
    predicates are on the next field: they must all have its TYPE[.desc].
    Comparisons and --prefix never match a null (as in SQL); --eq with a bare TYPE
    matches the rows where the next field is null. --prefix STR: an ascending text
    (hbase-ordered) or varchar (phoenix) starting with STR. A DESC varbinary takes
    --eq only (Phoenix's trailing FF breaks its order). Left out: with hbase-ordered,
    the row written as the prefix alone when the range needs a descending null there
    (a prefix ending in a .desc null, --eq KIND.desc).
  --hbase-numeric current|legacy, --round  as for encode: hbase-ordered numerics of
    100^351 and above as HBase 2.4.x and older wrote them (legacy); phoenix decimals of
    more than 38 digits rounded as Phoenix stores them (--round)
  --salt-buckets N  phoenix: the salt byte hashes the whole key, so the answer is one
    range per bucket, [b start, b end) for b = 00 to N-1: raw prints a pair of lines
    per bucket (bucket 00 first), other --for targets one rendering per bucket
    (--limit and --reversed apply per bucket), --json {\"ranges\":[{\"start\":...,
    \"end\":...},...]}.
e.g.
  lexikey range --format fdb-tuple str:users  ->  0275736572730000
                                                  02757365727300ff
  lexikey range --format fdb-tuple str:users --ge int:18 --lt int:65  ->  027573657273001512
                                                                          027573657273001541
  lexikey range --format hbase-ordered text:eu --ge int64.desc:100  ->  34657500d3
                                                                        34657500d37fffffffffffff9c
  lexikey range --format phoenix --salt-buckets 2 varchar:us  ->  007573
                                                                  00757301
                                                                  017573
                                                                  01757301
";

/// Runs `lexikey range`.
///
/// # Errors
/// Usage errors, components that do not parse or encode, predicates that
/// disagree, an empty range.
pub fn run(args: &RangeArgs, io: &mut Io<'_>) -> Result<()> {
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
    let (dialect, opts) = render_options(args, format.is_text());
    let texts = utf8_positionals(&args.components, "PREFIX_COMPONENT")?;
    let (cols, prefix) = super::encode::components(&texts, width, &geo)?;
    let bbox = args.bbox.as_deref();
    if bbox.is_none() && args.max_ranges.is_some() {
        bail!("--max-ranges applies to --bbox");
    }
    let geo_pred = args
        .preds
        .iter()
        .any(|p| p.op != PredOp::Prefix && kinds::is_geo_component(&p.value));
    geo.check_used(kinds::any_geo(&cols) || geo_pred || bbox.is_some())?;
    let (logical, cover) = match bbox {
        Some(b) => {
            let (ranges, cover) = bbox_ranges(format, &prefix, b, args, width, &geo)?;
            (ranges, Some(cover))
        }
        None => (vec![build(format, &prefix, args, width, &geo)?], None),
    };
    let ranges = match salter {
        // Bucket-major: every range of bucket 0, then bucket 1, ...: the
        // physical ranges in key order.
        Some(s) => (0..s.buckets())
            .flat_map(|b| logical.iter().map(move |r| s.bucket_range(b, r)))
            .collect(),
        None => logical,
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
    for r in ranges {
        render_into(dialect, r, opts, &mut rendered)?;
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
) -> Result<(Vec<KeyRange>, lexikey::geo::Cover)> {
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
        common::apply_width(&mut comp, width);
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
fn render_options(args: &RangeArgs, text: bool) -> (Dialect, RenderOptions) {
    let mut opts = RenderOptions::new().text(text);
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
    (args.dialect.unwrap_or(Dialect::Raw), opts)
}

/// `range --format PROFILE`: binary keys; a salted Phoenix table gives one
/// range per bucket, rendered one after another (raw: a pair of lines per
/// bucket, bucket 0 first).
fn run_profile(profile: interop::Profile, args: &RangeArgs, io: &mut Io<'_>) -> Result<()> {
    let (dialect, opts) = render_options(args, false);
    let ranges = interop::ranges(profile, args)?;
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

/// Builds the range of the query in `args` under `prefix` (`geo`: the
/// grid of `geo` components).
///
/// # Errors
/// Predicates that do not parse, disagree or match no key.
pub fn build(
    format: Format,
    prefix: &[Component<'static>],
    args: &RangeArgs,
    width: Option<u8>,
    geo: &GeoOpts,
) -> Result<KeyRange> {
    let mut q = RangeQuery::new(format).prefix(prefix);
    for p in &args.preds {
        let v = p.value.as_str();
        if p.op == PredOp::Prefix {
            q = q.str_prefix(v, Dir::Asc);
            continue;
        }
        let name = p.op.name();
        let (_, mut c) =
            kinds::parse_component(v, geo).map_err(|e| anyhow!("--{name} {v:?}: {e}"))?;
        common::apply_width(&mut c, width);
        q = match p.op {
            PredOp::Ge => q.ge(c),
            PredOp::Gt => q.gt(c),
            PredOp::Le => q.le(c),
            PredOp::Lt => q.lt(c),
            PredOp::Eq | PredOp::Prefix => q.eq(c),
        };
    }
    q.build().map_err(|e| match e {
        RangeError::Empty => {
            anyhow!("no key can match: the predicates leave an empty range (start >= end)")
        }
        other => anyhow!("{other}"),
    })
}
