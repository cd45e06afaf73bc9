//! `lexikey range`: the half-open key range `[start, end)` of a query on the
//! component after a fixed tuple prefix, printed raw or in a store's syntax.

use anyhow::{anyhow, bail, Result};
use lexikey::range::{RangeError, RangeQuery};
use lexikey::render::{render, render_into, Dialect, RenderOptions};
use lexikey::{Component, Dir, Format, KeyRange};

use crate::args::{Args, Opt};
use crate::common;
use crate::{interop, Io};

/// The options `range` accepts.
pub const OPTS: &[Opt] = &[
    Opt::value("format"),
    Opt::value("width"),
    Opt::flag("json"),
    Opt::value("for"),
    Opt::value("table"),
    Opt::value("limit"),
    Opt::flag("reversed"),
    Opt::value("column"),
    Opt::value("partition-key"),
    Opt::repeated("ge"),
    Opt::repeated("gt"),
    Opt::repeated("le"),
    Opt::repeated("lt"),
    Opt::repeated("eq"),
    Opt::repeated("prefix"),
    Opt::value("salt-buckets"),
];

/// Help text.
pub const USAGE: &str = "\
Usage:
  lexikey range [--format F] [--width N] [--for raw|hbase|cql|rocksdb|etcd|redis|sql]
                [--table T] [--limit N] [--reversed] [--json] PREFIX_COMPONENT...
                [--ge C] [--gt C] [--le C] [--lt C] [--eq C] [--prefix STR]

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
is an error (exit 2).

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
pub fn run(args: &Args, io: &mut Io<'_>) -> Result<()> {
    if let Some(profile) = interop::profile(args) {
        return run_profile(profile, args, io);
    }
    let format = common::key_format(args)?;
    interop::reject_salt(args)?;
    let width = common::width(args, format)?;
    let (dialect, opts) = render_options(args, format.is_text())?;
    let texts = args.positional_strs("PREFIX_COMPONENT")?;
    let prefix = super::encode::components(&texts, width)?;
    let range = build(format, &prefix, args, width)?;
    let rendered = render(dialect, &range, &opts)?;
    if args.flag("json") {
        let mut out = Vec::with_capacity(256);
        out.extend_from_slice(b"{\"start\":");
        side_json(format, range.start.as_deref(), &mut out)?;
        out.extend_from_slice(b",\"end\":");
        side_json(format, range.end.as_deref(), &mut out)?;
        if dialect != Dialect::Raw {
            out.extend_from_slice(b",\"for\":\"");
            out.extend_from_slice(dialect.name().as_bytes());
            out.extend_from_slice(b"\",\"output\":");
            common::push_json_str(&rendered, &mut out);
        }
        out.extend_from_slice(b"}\n");
        io.stdout.write_all(&out)?;
    } else {
        io.stdout.write_all(rendered.as_bytes())?;
    }
    Ok(())
}

/// `--for` and the render options (`--table`, `--limit`, `--reversed`,
/// `--column`, `--partition-key`); `text`: the keys are text keys.
fn render_options(args: &Args, text: bool) -> Result<(Dialect, RenderOptions)> {
    let dialect =
        Dialect::parse(args.value("for").unwrap_or("raw")).map_err(|e| anyhow!("--for: {e}"))?;
    let mut opts = RenderOptions::new().text(text);
    if let Some(t) = args.value("table") {
        opts = opts.table(t);
    }
    if let Some(l) = args.value("limit") {
        let Ok(n) = l.parse::<u64>() else {
            bail!("invalid --limit {l:?}: expected a number from 1 to 2147483647");
        };
        opts = opts.limit(n);
    }
    if args.flag("reversed") {
        opts = opts.reversed(true);
    }
    if let Some(c) = args.value("column") {
        opts = opts.column(c);
    }
    if let Some(c) = args.value("partition-key") {
        opts = opts.partition_key(c);
    }
    Ok((dialect, opts))
}

/// `range --format PROFILE`: binary keys; a salted Phoenix table gives one
/// range per bucket, rendered one after another (raw: a pair of lines per
/// bucket, bucket 0 first).
fn run_profile(profile: interop::Profile, args: &Args, io: &mut Io<'_>) -> Result<()> {
    let (dialect, opts) = render_options(args, false)?;
    let ranges = interop::ranges(profile, args)?;
    let mut rendered = String::new();
    for r in &ranges {
        render_into(dialect, r, &opts, &mut rendered)?;
    }
    if !args.flag("json") {
        io.stdout.write_all(rendered.as_bytes())?;
        return Ok(());
    }
    let mut out = Vec::with_capacity(256);
    let push_range = |r: &KeyRange, out: &mut Vec<u8>| -> Result<()> {
        out.extend_from_slice(b"{\"start\":");
        side_json(Format::Binary, r.start.as_deref(), out)?;
        out.extend_from_slice(b",\"end\":");
        side_json(Format::Binary, r.end.as_deref(), out)?;
        out.push(b'}');
        Ok(())
    };
    match ranges.as_slice() {
        [r] if args.value("salt-buckets").is_none() => {
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

fn side_json(format: Format, key: Option<&[u8]>, out: &mut Vec<u8>) -> Result<()> {
    match key {
        None => out.extend_from_slice(b"null"),
        Some(k) => common::push_key_string_json(format, k, out)?,
    }
    Ok(())
}

/// Builds the range of the query in `args` under `prefix`.
///
/// # Errors
/// Predicates that do not parse, disagree or match no key.
pub fn build(
    format: Format,
    prefix: &[Component<'static>],
    args: &Args,
    width: Option<u8>,
) -> Result<KeyRange> {
    let mut q = RangeQuery::new(format).prefix(prefix);
    for (name, value) in &args.opts {
        let Some(v) = value else { continue };
        let comp = || -> Result<Component<'static>> {
            let mut c =
                lexikey::input::parse_component(v).map_err(|e| anyhow!("--{name} {v:?}: {e}"))?;
            common::apply_width(&mut c, width);
            Ok(c)
        };
        q = match *name {
            "ge" => q.ge(comp()?),
            "gt" => q.gt(comp()?),
            "le" => q.le(comp()?),
            "lt" => q.lt(comp()?),
            "eq" => q.eq(comp()?),
            "prefix" => q.str_prefix(v, Dir::Asc),
            _ => q,
        };
    }
    q.build().map_err(|e| match e {
        RangeError::Empty => {
            anyhow!("no key can match: the predicates leave an empty range (start >= end)")
        }
        other => anyhow!("{other}"),
    })
}
