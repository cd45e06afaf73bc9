//! `lexikey range`: the half-open key range `[start, end)` of a query on the
//! component after a fixed tuple prefix, printed raw or in a store's syntax.

use anyhow::{anyhow, bail, Result};
use lexikey::range::{RangeError, RangeQuery};
use lexikey::render::{render, Dialect, RenderOptions};
use lexikey::{Component, Dir, Format, KeyRange};

use crate::args::{Args, Opt};
use crate::common;
use crate::Io;

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
  --format F, --width N        as in encode
A query no key can match (e.g. --gt i64:9223372036854775807, or --ge i64:5 --lt i64:3)
is an error (exit 2).
";

/// Runs `lexikey range`.
///
/// # Errors
/// Usage errors, components that do not parse or encode, predicates that
/// disagree, an empty range.
pub fn run(args: &Args, io: &mut Io<'_>) -> Result<()> {
    let format = common::format(args)?;
    let width = common::width(args, format)?;
    let dialect =
        Dialect::parse(args.value("for").unwrap_or("raw")).map_err(|e| anyhow!("--for: {e}"))?;
    let mut opts = RenderOptions::new().text(format.is_text());
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
