//! `lexikey demo`: the tour a newcomer runs first — a city index and a range
//! query, an upside-down table filled through the allocator, a queue read
//! with an exclusive upper bound, and the upside-down table salted, with
//! where its writes go — on a real store (by default an embedded redb file
//! that needs no server).

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use lexikey::range::render::{render, Dialect, RenderOptions};
use lexikey::range::RangeQuery;
use lexikey::store::Store;
use lexikey::{tuple, Component, Field, Format, Type, Value};
use lexikey_stores::TableOptions;

use crate::args::DemoArgs;
use crate::Io;

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
pub(crate) fn run(args: &DemoArgs, io: &mut Io<'_>) -> Result<()> {
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
        let store = lexikey_stores::open_store(&url)?;
        // Never print a password (LEXIKEY_STORE is not read here: the
        // demo writes into the store it is given on the command line only).
        let shown = lexikey_stores::redact_url(&url);
        let mut out = String::new();
        match &temp {
            Some(_) => out.push_str(&format!(
                "lexikey demo on {shown}\n(an embedded redb file: no server needed; it is removed at the end)\n"
            )),
            None => out.push_str(&format!("lexikey demo on {shown}\n")),
        }
        cities(&store, &mut out)?;
        // SlateDB iterates forward only: say why the IDs go down.
        let forward_only = url.starts_with("slatedb:");
        comments(&store, &url, forward_only, &mut out)?;
        queue(&store, &mut out)?;
        salted(&store, &url, &mut out)?;
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
fn comments(store: &Arc<dyn Store>, url: &str, forward_only: bool, out: &mut String) -> Result<()> {
    out.push_str(
        "\n== 2. An upside-down comments table: each new row gets a smaller ID\n\
         (from the shell: lexikey alloc --store URL --table comments VALUE...)\n",
    );
    // As `lexikey alloc --table comments` would: the store's tuning.
    let alloc = lexikey_stores::table_allocator(
        Arc::clone(store),
        url,
        "comments",
        &TableOptions::default(),
    )?;
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

/// Salt buckets of part 4.
const DEMO_BUCKETS: u8 = 8;

/// IDs whose buckets part 4 counts.
const SPREAD_IDS: u64 = 10_000;

/// Part 4: the upside-down table salted, and where its writes go.
fn salted(store: &Arc<dyn Store>, url: &str, out: &mut String) -> Result<()> {
    let n = DEMO_BUCKETS;
    out.push_str(&format!(
        "\n== 4. The same table salted over {n} buckets: writes spread out, newest first stays\n\
         (from the shell: lexikey alloc --store URL --table salted --salt-buckets {n} VALUE...)\n"
    ));
    let alloc = lexikey_stores::table_allocator(
        Arc::clone(store),
        url,
        "salted",
        &TableOptions::default().with_salt_buckets(n),
    )?;
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
            "newest: {id} {:?}  (the smallest of the {n} buckets' first keys: {n} one-row scans)\n",
            String::from_utf8_lossy(&v)
        ));
    }
    if let Some((id, v)) = alloc.oldest()? {
        out.push_str(&format!(
            "oldest: {id} {:?}  (still a get of the constant start key {})\n",
            String::from_utf8_lossy(&v),
            key_text(alloc.start_key())
        ));
    }
    // Where the table's first 10,000 rows go: the bucket is a function of
    // the ID, so this is where the allocator writes them.
    let mut rows = vec![0u64; usize::from(n)];
    for i in 0..SPREAD_IDS {
        if let Some(b) = alloc.bucket_of(u64::MAX - i) {
            rows[usize::from(b)] += 1;
        }
    }
    let busiest = rows.iter().copied().max().unwrap_or(0);
    out.push_str(
        "\nRows per bucket of the table's first 10,000 inserts (IDs 2^64-1 down to 2^64-10000):\n",
    );
    for (b, &count) in rows.iter().enumerate() {
        let bar = "#".repeat(usize::try_from(count * 40 / busiest.max(1)).unwrap_or(40));
        out.push_str(&format!(
            "  {b:02X}#  {count:>5}  {:>4.1} %  {bar}\n",
            count as f64 * 100.0 / SPREAD_IDS as f64
        ));
    }
    out.push_str(&format!(
        "In a table pre-split at the bucket boundaries (HBase, Bigtable: 00#, 01#, ... {:02X}#),\n\
         the busiest region takes {:.1} % of the writes (1/{n} = {:.1} %). Unsalted, every new\n\
         row lands next to the last one: one region takes 100 %.\n",
        n - 1,
        busiest as f64 * 100.0 / SPREAD_IDS as f64,
        100.0 / f64::from(n)
    ));
    Ok(())
}
