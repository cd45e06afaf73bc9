//! `lexikey demo`: the tour a newcomer runs first — a city index and a range
//! query, an upside-down table filled through the allocator, and a queue
//! read with an exclusive upper bound — on a real store (by default an
//! embedded redb file that needs no server).

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use lexikey::alloc::{Allocator, AllocatorConfig};
use lexikey::range::RangeQuery;
use lexikey::render::{render, Dialect, RenderOptions};
use lexikey::store::Store;
use lexikey::{tuple, Component, Field, Format, Type, Value};

use crate::args::DemoArgs;
use crate::Io;

/// Help text.
pub const USAGE: &str = "\
Usage:
  lexikey demo [--store URL]

Runs the tour of lexikey on a real store and prints what it does:
  1. a city index (population, city) and the range query population >= 1,000,000,
     with its bounds and the hbase shell command;
  2. an upside-down comments table filled through the decreasing-ID allocator,
     with its newest row (a one-row forward scan) and oldest row (a get);
  3. a queue (queue id, seq) read with an exclusive upper bound, so the read never
     walks into the next queue.
Without --store it uses a new embedded redb file in the temporary directory,
removed at the end (no server needed). With --store URL (as in 'lexikey alloc') the
data stays in that store; running the demo again adds comments and reuses the rest.
";

/// US Census Bureau, 2020 Census (P1 total population), as in `fixtures/`.
const CITIES: [(&str, i64); 7] = [
    ("New York", 8_804_190),
    ("Los Angeles", 3_898_747),
    ("Chicago", 2_746_388),
    ("Houston", 2_304_580),
    ("Phoenix", 1_608_139),
    ("San Francisco", 873_965),
    ("Boise", 235_684),
];

/// Runs `lexikey demo`.
///
/// # Errors
/// Store errors; usage errors.
pub fn run(args: &DemoArgs, io: &mut Io<'_>) -> Result<()> {
    if !args.rest.is_empty() {
        bail!("demo takes no positional arguments");
    }
    let (url, temp) = match args.store.as_deref() {
        Some(u) => (u.to_string(), None),
        None => {
            let path = temp_path();
            (format!("redb:{}?fsync=false", path.display()), Some(path))
        }
    };
    let result = (|| {
        let store = super::alloc::open_store(&url)?;
        // Never print a password (LEXIKEY_STORE is not read here: the
        // demo writes into the store it is given on the command line only).
        let url = lexikey_stores::redact_url(&url);
        let mut out = String::new();
        match &temp {
            Some(_) => out.push_str(&format!(
                "lexikey demo on {url}\n(an embedded redb file: no server needed; it is removed at the end)\n"
            )),
            None => out.push_str(&format!("lexikey demo on {url}\n")),
        }
        cities(&store, &mut out)?;
        // SlateDB iterates forward only: say why the IDs go down.
        let forward_only = url.starts_with("slatedb:");
        comments(&store, forward_only, &mut out)?;
        queue(&store, &mut out)?;
        io.stdout.write_all(out.as_bytes())?;
        Ok(())
    })();
    if let Some(path) = temp {
        // The store is closed (dropped) by now.
        let _ = std::fs::remove_file(&path);
    }
    result
}

/// A fresh file name in the temporary directory.
fn temp_path() -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    std::env::temp_dir().join(format!("lexikey-demo-{}-{nanos}.redb", std::process::id()))
}

fn key_text(k: &[u8]) -> String {
    String::from_utf8_lossy(k).into_owned()
}

/// Part 1: the city index and `population >= 1,000,000`.
fn cities(store: &Arc<dyn Store>, out: &mut String) -> Result<()> {
    let f = Format::Hex;
    out.push_str(
        "\n== 1. A city index: one key per (str population, i64 POPULATION, str CITY), hex format\n",
    );
    for (city, pop) in CITIES {
        let key = tuple::encode(
            f,
            &[
                Component::asc("population"),
                Component::asc(pop),
                Component::asc(city),
            ],
        )?;
        let new = store.put_if_absent(&key, city.as_bytes())?;
        out.push_str(&format!(
            "put {}{}\n",
            key_text(&key),
            if new { "" } else { "  (already there)" }
        ));
    }
    let prefix = [Component::asc("population")];
    let range = RangeQuery::new(f)
        .prefix(&prefix)
        .ge(Component::asc(1_000_000_i64))
        .build()?;
    out.push_str(
        "\nQuery: population >= 1,000,000\n$ lexikey range str:population --ge i64:1000000\n",
    );
    out.push_str(&render(
        Dialect::Raw,
        &range,
        &RenderOptions::new().text(true),
    )?);
    out.push_str("$ lexikey range --for hbase --table cities str:population --ge i64:1000000\n");
    out.push_str(&render(
        Dialect::Hbase,
        &range,
        &RenderOptions::new().text(true).table("cities"),
    )?);
    out.push_str("Keys in [start, end), in key order (a forward scan):\n");
    let schema = [
        Field::asc(Type::Str),
        Field::asc(Type::I64),
        Field::asc(Type::Str),
    ];
    let rows = store.scan(&range, usize::MAX)?;
    for (key, _) in &rows {
        let comps = tuple::decode(f, key, Some(&schema))
            .with_context(|| format!("key {} in the city index", key_text(key)))?;
        if let (Value::I64(pop), Value::Str(city)) = (&comps[1].value, &comps[2].value) {
            out.push_str(&format!("  {pop:>9}  {city}\n"));
        }
    }
    out.push_str(&format!(
        "{} of {} cities; the others sort below the start key.\n",
        rows.len(),
        CITIES.len()
    ));
    Ok(())
}

/// Part 2: an upside-down table through the allocator.
fn comments(store: &Arc<dyn Store>, forward_only: bool, out: &mut String) -> Result<()> {
    out.push_str(
        "\n== 2. An upside-down comments table: each new row gets a smaller ID\n\
         (from the shell: lexikey alloc --store URL --table comments VALUE...)\n",
    );
    let config = AllocatorConfig::new(Format::Hex, &[Component::asc("comments")]);
    let alloc = Allocator::new(Arc::clone(store), config)?;
    for text in ["first!", "nice demo", "latest comment"] {
        let id = alloc.insert(text.as_bytes())?;
        out.push_str(&format!(
            "insert {:<18} ->  id {id}  key {}\n",
            format!("{text:?}"),
            key_text(&alloc.key(id))
        ));
    }
    if let Some((id, v)) = alloc.newest()? {
        out.push_str(&format!(
            "newest: {id} {:?}  (the first key of the table: a forward scan of one row)\n",
            String::from_utf8_lossy(&v)
        ));
        if forward_only {
            out.push_str(
                "(this store iterates forward only, with no reverse scan: because IDs go\n\
                 down, the newest row is the first key; with IDs going up it would be the\n\
                 last key, which a forward iterator reaches after every other row)\n",
            );
        }
    }
    if let Some((id, v)) = alloc.oldest()? {
        out.push_str(&format!(
            "oldest: {id} {:?}  (always at the constant start key {}: a get)\n",
            String::from_utf8_lossy(&v),
            key_text(alloc.start_key())
        ));
    }
    Ok(())
}

/// Part 3: a queue `<queue_id, seq>` read with an exclusive upper bound.
fn queue(store: &Arc<dyn Store>, out: &mut String) -> Result<()> {
    let f = Format::Hex;
    out.push_str("\n== 3. A queue: one key per (str queue, u32 QUEUE_ID, u64 SEQ)\n");
    let jobs: [(u32, u64, &str); 5] = [
        (7, 1, "resize image 1"),
        (7, 2, "resize image 2"),
        (7, 3, "send email"),
        (8, 1, "other queue: job 1"),
        (8, 2, "other queue: job 2"),
    ];
    for (q, seq, job) in jobs {
        let key = tuple::encode(
            f,
            &[
                Component::asc("queue"),
                Component::asc(Value::U32(q)),
                Component::asc(Value::U64(seq)),
            ],
        )?;
        let new = store.put_if_absent(&key, job.as_bytes())?;
        out.push_str(&format!(
            "put {} {job:?}{}\n",
            key_text(&key),
            if new { "" } else { "  (already there)" }
        ));
    }
    let prefix = [Component::asc("queue"), Component::asc(Value::U32(7))];
    let range = RangeQuery::new(f).prefix(&prefix).build()?;
    out.push_str(
        "\nRead queue 7 from its first key up to the exclusive upper bound that ends it, so\n\
         the iteration never walks into queue 8 (or its tombstones):\n\
         $ lexikey range str:queue u32:7\n",
    );
    out.push_str(&render(
        Dialect::Raw,
        &range,
        &RenderOptions::new().text(true),
    )?);
    let schema = [
        Field::asc(Type::Str),
        Field::asc(Type::U32),
        Field::asc(Type::U64),
    ];
    let rows = store.scan(&range, usize::MAX)?;
    let mut seqs = Vec::new();
    for (key, value) in &rows {
        let comps = tuple::decode(f, key, Some(&schema))
            .with_context(|| format!("key {} in the queue", key_text(key)))?;
        if let Value::U64(seq) = comps[2].value {
            seqs.push(seq);
            out.push_str(&format!(
                "  seq {seq}  {:?}\n",
                String::from_utf8_lossy(value)
            ));
        }
    }
    if let (Some(first), Some(last)) = (seqs.first(), seqs.last()) {
        out.push_str(&format!(
            "queue 7: first seq {first}, last seq {last}; keep both to append and pop without a scan.\n"
        ));
    }
    Ok(())
}
