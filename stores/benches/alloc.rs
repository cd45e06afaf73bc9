//! Criterion benches of the decreasing row-ID allocator
//! ([`lexikey::store::alloc::Allocator`]) on every store, next to that store's raw
//! `put_if_absent` rate.
//!
//! One group per store: `alloc/memory`, `alloc/redb` (`fsync=false`),
//! `alloc/redb-fsync` (a sync per commit, redb's default), `alloc/rocksdb`,
//! `alloc/slatedb` (each write durable in its local object store),
//! `alloc/redis`, `alloc/postgres`, `alloc/etcd` (one node),
//! `alloc/etcd-cluster` (3 nodes), `alloc/bigtable` (the emulator; its
//! `raw_put_if_absent` is one `CheckAndMutateRow`), `alloc/slatedb-s3`
//! (SlateDB on moto's S3) and `alloc/dynamodb` (dynalite; one conditional
//! `PutItem`). Each group holds:
//!
//! - `raw_put_if_absent`: one client, [`Store::put_if_absent`] of fresh keys
//!   shaped like row keys (the store's own cost of one conditional write);
//! - `raw_put_if_absent_8way`: the same from 8 threads at once (fresh keys
//!   never collide), the store's parallel write rate;
//! - `alloc_uncontended`: one client, [`Allocator::insert`] (first key, then
//!   put-if-absent: two round trips);
//! - `alloc_guard`: the same with the reuse guard on (get, CAS of the
//!   low-water mark, put: three round trips);
//! - `insert_many_1000`: one client, [`Allocator::insert_many`] of 1,000
//!   values, reported as 1,000 elements (issue 38): one commit per batch
//!   of up to 1,024 on the stores with atomic batches (memory, redb,
//!   RocksDB, SlateDB, PostgreSQL), 1,000 single inserts on the others
//!   (compare it with `alloc_uncontended`, the per-ID path);
//! - `alloc_8way`: 8 threads, each its own allocator on one shared table,
//!   each doing a batch of N inserts; one iteration is one batch, timed with
//!   `iter_custom` and reported as `8 × N` elements, so criterion's
//!   throughput is allocations/s. N depends on the store (see
//!   [`STORES`]);
//! - `alloc_salted_1`, `alloc_salted_4`, `alloc_salted_16`: as
//!   `alloc_uncontended`, the rows salted over 1, 4, 16 buckets (issue 28:
//!   each insert reads the first key of every bucket, one
//!   `Store::first_keys` call); `alloc_8way_salted_16`: as `alloc_8way`,
//!   salted over 16 buckets;
//! - `newest`, `newest_salted_4`, `newest_salted_16`: `Allocator::newest`
//!   of the tables the benches above filled (salted: the buckets' first
//!   keys in one `Store::first_keys` call, then a get).
//!
//! The salted and newest benches go through a counting wrapper of the
//! store: after each, the store calls (round trips) and the keys read per
//! operation go to stderr too.
//!
//! Every figure is an element rate (`thrpt`, elements/s = operations/s).
//! After each allocator bench the allocators' [`lexikey::store::alloc::AllocStats`]
//! (over warm-up and measurement) go to stderr: inserts, retries (attempts
//! beyond the first), lost races, retryable store errors, and failed calls.
//!
//! Embedded stores live in a temporary directory under `LEXIKEY_BENCH_DIR`
//! (default: the system temp dir; put it on the disk you care about for
//! `redb-fsync`). Server stores read their URL from `LEXIKEY_REDIS_URL`,
//! `LEXIKEY_POSTGRES_URL`, `LEXIKEY_ETCD_URL`, `LEXIKEY_ETCD_CLUSTER_URL`,
//! `LEXIKEY_BIGTABLE_URL`, `LEXIKEY_SLATEDB_S3_URL` and `LEXIKEY_DYNAMODB_URL`;
//! a group whose variable is missing (or whose feature is off, or whose
//! server does not answer) is skipped with a message on stderr. Each run
//! writes into a fresh namespace (`?ns=bench_PID_NANOS`) and leaves its rows
//! there. The memory store deletes what each sample wrote (untimed), so its
//! millions of rows do not pile up in RAM.
//!
//! Run with private servers on loopback (they are stopped afterwards):
//!
//! ```text
//! scripts/with-stores.sh cargo bench -p lexikey-stores --features all-servers --bench alloc \
//!     -- --warm-up-time 1 --measurement-time 3
//! scripts/with-stores.sh cargo bench -p lexikey-stores --features all-servers -- --test  # smoke
//! cargo bench -p lexikey-stores --bench alloc -- alloc/redb        # embedded only, one group
//! ```
//!
//! Defaults: 10 samples, 1 s warm-up, 3 s measurement per bench; the command
//! line overrides them. Results and how to read them: `stores/BENCHES.md`.

// criterion_group! generates an undocumented `pub fn benches`.
#![allow(missing_docs)]

use std::fmt::Display;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use lexikey::store::alloc::{AllocStats, Allocator, AllocatorConfig};
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::store::{Entry, Store, StoreError};
use lexikey::{Component, Format, KeyRange};

/// Concurrent clients in the contended benches.
const CLIENTS: usize = 8;

/// The value of every row (24 bytes).
const VALUE: &[u8] = b"lexikey bench row value.";

/// One store to bench.
struct Spec {
    /// The group is `alloc/{name}`.
    name: &'static str,
    /// The cargo feature the adapter needs, and whether this build has it.
    feature: (&'static str, bool),
    /// Where the store is: `Embedded(scheme, options)` or `Server(env var)`.
    place: Place,
    /// Inserts per client in one batch of the 8-way benches.
    batch: usize,
}

/// Where a store lives.
enum Place {
    /// Built-in memory store.
    Memory,
    /// A file or directory in a temp dir: scheme and URL options.
    Embedded(&'static str, &'static str),
    /// A server whose URL is in this environment variable.
    Server(&'static str),
}

/// Every store, in the order the groups run. The batch sizes keep one
/// 8-way batch around 10–300 ms on a small machine.
const STORES: &[Spec] = &[
    Spec {
        name: "memory",
        feature: ("", true),
        place: Place::Memory,
        batch: 1000,
    },
    Spec {
        name: "redb",
        feature: ("redb", cfg!(feature = "redb")),
        place: Place::Embedded("redb", "fsync=false"),
        batch: 200,
    },
    Spec {
        name: "redb-fsync",
        feature: ("redb", cfg!(feature = "redb")),
        place: Place::Embedded("redb", "fsync=true"),
        batch: 10,
    },
    Spec {
        name: "rocksdb",
        feature: ("rocksdb", cfg!(feature = "rocksdb")),
        place: Place::Embedded("rocksdb", ""),
        batch: 200,
    },
    Spec {
        name: "slatedb",
        feature: ("slatedb", cfg!(feature = "slatedb")),
        place: Place::Embedded("slatedb", ""),
        batch: 100,
    },
    // SlateDB on moto's S3 (scripts/with-stores.sh starts it): every
    // write one durable PUT of a write-ahead-log object over HTTP.
    Spec {
        name: "slatedb-s3",
        feature: ("slatedb", cfg!(feature = "slatedb")),
        place: Place::Server("LEXIKEY_SLATEDB_S3_URL"),
        batch: 20,
    },
    Spec {
        name: "redis",
        feature: ("redis", cfg!(feature = "redis")),
        place: Place::Server("LEXIKEY_REDIS_URL"),
        batch: 100,
    },
    Spec {
        name: "postgres",
        feature: ("postgres", cfg!(feature = "postgres")),
        place: Place::Server("LEXIKEY_POSTGRES_URL"),
        batch: 50,
    },
    Spec {
        name: "etcd",
        feature: ("etcd", cfg!(feature = "etcd")),
        place: Place::Server("LEXIKEY_ETCD_URL"),
        batch: 20,
    },
    Spec {
        name: "etcd-cluster",
        feature: ("etcd", cfg!(feature = "etcd")),
        place: Place::Server("LEXIKEY_ETCD_CLUSTER_URL"),
        batch: 20,
    },
    Spec {
        name: "bigtable",
        feature: ("bigtable", cfg!(feature = "bigtable")),
        place: Place::Server("LEXIKEY_BIGTABLE_URL"),
        batch: 20,
    },
    Spec {
        name: "dynamodb",
        feature: ("dynamodb", cfg!(feature = "dynamodb")),
        place: Place::Server("LEXIKEY_DYNAMODB_URL"),
        batch: 20,
    },
];

/// An open store, and the temp dir it must not outlive.
struct Opened {
    store: Arc<dyn Store>,
    /// Delete each sample's rows after timing it (memory store).
    tidy: bool,
    _dir: Option<tempfile::TempDir>,
}

/// `URL?ns=NS` (or `URL&ns=NS`).
fn with_ns(url: &str, ns: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}ns={ns}")
}

/// Opens the store of `spec` in namespace `ns`, or says why not.
fn open(spec: &Spec, ns: &str) -> Result<Opened, String> {
    let (feature, enabled) = spec.feature;
    if !enabled {
        return Err(format!(
            "built without cargo feature `{feature}` (add `--features {feature}` or `all-servers`)"
        ));
    }
    let store = |url: &str| lexikey_stores::open(url).map_err(|e| format!("open {url}: {e}"));
    match spec.place {
        Place::Memory => Ok(Opened {
            store: Arc::from(store("memory:")?),
            tidy: true,
            _dir: None,
        }),
        Place::Embedded(scheme, opts) => {
            let parent = std::env::var_os("LEXIKEY_BENCH_DIR")
                .map(std::path::PathBuf::from)
                .unwrap_or_else(std::env::temp_dir);
            let dir = tempfile::Builder::new()
                .prefix("lexikey-bench-")
                .tempdir_in(&parent)
                .map_err(|e| format!("temp dir in {}: {e}", parent.display()))?;
            let mut url = format!("{scheme}:{}", dir.path().join("db").display());
            if !opts.is_empty() {
                url = format!("{url}?{opts}");
            }
            Ok(Opened {
                store: Arc::from(store(&with_ns(&url, ns))?),
                tidy: false,
                _dir: Some(dir),
            })
        }
        Place::Server(var) => {
            let url = std::env::var(var).map_err(|_| {
                format!(
                    "{var} is not set (run through scripts/with-stores.sh, \
                     or export it; see stores/BENCHES.md)"
                )
            })?;
            Ok(Opened {
                store: Arc::from(store(&with_ns(&url, ns))?),
                tidy: false,
                _dir: None,
            })
        }
    }
}

/// Failed operations of one bench, and the first error's text.
#[derive(Default)]
struct Failures {
    count: AtomicU64,
    first: Mutex<Option<String>>,
}

impl Failures {
    fn note(&self, what: impl Display) {
        if self.count.fetch_add(1, Ordering::Relaxed) == 0 {
            *self.first.lock().unwrap_or_else(|p| p.into_inner()) = Some(what.to_string());
        }
    }

    /// `", N failed (first: …)"`, or nothing.
    fn summary(&self) -> String {
        match self.count.load(Ordering::Relaxed) {
            0 => String::new(),
            n => {
                let first = self.first.lock().unwrap_or_else(|p| p.into_inner());
                format!(", {n} FAILED (first: {})", first.as_deref().unwrap_or("?"))
            }
        }
    }
}

/// The allocator configuration of a bench table: hex keys, defaults
/// otherwise (64 attempts, 500 µs – 50 ms jittered backoff).
fn config(table: &'static str) -> AllocatorConfig {
    AllocatorConfig::new(Format::Hex, &[Component::asc(table)])
}

fn allocator(store: &Arc<dyn Store>, config: AllocatorConfig) -> Allocator<Arc<dyn Store>> {
    Allocator::new(Arc::clone(store), config).expect("bench allocator configuration")
}

/// Deletes every key of `range` (untimed housekeeping for the memory store).
fn clear(store: &dyn Store, range: &KeyRange) {
    loop {
        let rows = store.scan(range, 10_000).expect("scan for cleanup");
        if rows.is_empty() {
            return;
        }
        for (k, _) in rows {
            let _ = store.delete(&k).expect("delete for cleanup");
        }
    }
}

/// Runs `op(client)` `per_client` times on each of `clients` threads, all at
/// once; returns the wall time from the first spawn to the last join.
fn batch(clients: usize, per_client: usize, op: impl Fn(usize) + Sync) -> Duration {
    let start = Instant::now();
    std::thread::scope(|s| {
        for client in 0..clients {
            let op = &op;
            let _ = s.spawn(move || {
                for _ in 0..per_client {
                    op(client);
                }
            });
        }
    });
    start.elapsed()
}

/// One insert, failures counted.
fn insert(alloc: &Allocator<Arc<dyn Store>>, fails: &Failures) {
    if let Err(e) = alloc.insert(VALUE) {
        fails.note(e);
    }
}

/// Prints the allocators' counters for one bench.
fn report(group: &str, bench: &str, stats: AllocStats, fails: &Failures) {
    if stats.attempts == 0 {
        return; // filtered out
    }
    eprintln!(
        "{group}/{bench}: {} inserted, {} retries ({:.3} per insert), {} lost races, \
         {} retryable store errors{}",
        stats.inserted,
        stats.retries,
        stats.retries as f64 / stats.inserted.max(1) as f64,
        stats.conflicts,
        stats.store_errors,
        fails.summary()
    );
}

/// Sums the counters of several allocators.
fn sum(stats: impl IntoIterator<Item = AllocStats>) -> AllocStats {
    stats
        .into_iter()
        .fold(AllocStats::default(), |a, s| AllocStats {
            inserted: a.inserted + s.inserted,
            attempts: a.attempts + s.attempts,
            retries: a.retries + s.retries,
            conflicts: a.conflicts + s.conflicts,
            store_errors: a.store_errors + s.store_errors,
            ambiguous: a.ambiguous + s.ambiguous,
            skipped: a.skipped + s.skipped,
            burned: a.burned + s.burned,
        })
}

/// The raw benches: `put_if_absent` of fresh row-shaped keys (table `raw`,
/// IDs counting down from `u64::MAX`), by one client and by 8.
fn raw_benches(g: &mut BenchmarkGroup<'_, WallTime>, opened: &Opened, spec: &Spec) {
    let store = &opened.store;
    let keys = allocator(store, config("raw")); // only builds keys
    let next = AtomicU64::new(u64::MAX);
    let fails = Failures::default();
    let put = || {
        let key = keys.key(next.fetch_sub(1, Ordering::Relaxed));
        match store.put_if_absent(&key, VALUE) {
            Ok(true) => {}
            Ok(false) => fails.note("a fresh key was already present"),
            Err(e) => fails.note(e),
        }
    };
    let tidy = || {
        if opened.tidy {
            clear(&**store, keys.range());
        }
    };

    g.throughput(Throughput::Elements(1));
    g.bench_function("raw_put_if_absent", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                put();
            }
            let elapsed = start.elapsed();
            tidy();
            elapsed
        })
    });

    let n = spec.batch;
    g.throughput(Throughput::Elements((CLIENTS * n) as u64));
    g.bench_function("raw_put_if_absent_8way", |b| {
        b.iter_custom(|iters| {
            let elapsed = (0..iters).map(|_| batch(CLIENTS, n, |_| put())).sum();
            tidy();
            elapsed
        })
    });
    if fails.count.load(Ordering::Relaxed) > 0 {
        eprintln!("alloc/{}/raw: {}", spec.name, fails.summary());
    }
}

/// A store that counts what goes through it: calls (one round trip each on
/// a server store; `first_keys` is one call) and the ranges and keys they
/// read.
struct Counting {
    inner: Arc<dyn Store>,
    /// Reading calls: `first_key`, `first_keys`, `get`, `scan`.
    reads: AtomicU64,
    /// Ranges and keys those calls read (`first_keys` of N ranges: N).
    ranges: AtomicU64,
    /// Writing calls.
    writes: AtomicU64,
}

impl Counting {
    fn new(inner: &Arc<dyn Store>) -> Arc<Counting> {
        Arc::new(Counting {
            inner: Arc::clone(inner),
            reads: AtomicU64::new(0),
            ranges: AtomicU64::new(0),
            writes: AtomicU64::new(0),
        })
    }

    fn read(&self, ranges: usize) {
        let _ = self.reads.fetch_add(1, Ordering::Relaxed);
        let _ = self.ranges.fetch_add(ranges as u64, Ordering::Relaxed);
    }

    fn write(&self) {
        let _ = self.writes.fetch_add(1, Ordering::Relaxed);
    }

    /// `reads R calls (K keys/ranges), writes W calls` per operation.
    fn per(&self, ops: u64) -> String {
        let ops = ops.max(1) as f64;
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed) as f64 / ops;
        format!(
            "per operation: {:.2} reading calls ({:.2} ranges or keys read), {:.2} writing calls",
            get(&self.reads),
            get(&self.ranges),
            get(&self.writes)
        )
    }
}

impl Store for Counting {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        self.read(1);
        self.inner.first_key(range)
    }
    fn first_keys(&self, ranges: &[KeyRange]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        self.read(ranges.len());
        self.inner.first_keys(ranges)
    }
    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        self.write();
        self.inner.put_if_absent(key, value)
    }
    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        self.write();
        self.inner.compare_and_swap(key, expected, new)
    }
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.read(1);
        self.inner.get(key)
    }
    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.read(1);
        self.inner.scan(range, limit)
    }
    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        self.write();
        self.inner.delete(key)
    }
}

/// The salted benches: one client over 1, 4, 16 buckets, 8 clients over
/// 16, then `newest` of an unsalted and two salted tables, each through a
/// [`Counting`] store.
fn salted_benches(g: &mut BenchmarkGroup<'_, WallTime>, opened: &Opened, spec: &Spec) {
    let group = format!("alloc/{}", spec.name);
    let salted = |table: &'static str, n: u8| {
        config(table).with_salt(Salter::new(n, SaltMode::Fast).expect("1 to 255 buckets"))
    };
    let counted = |counting: &Arc<Counting>, config: AllocatorConfig| {
        let store: Arc<dyn Store> = Arc::clone(counting) as Arc<dyn Store>;
        allocator(&store, config)
    };
    let mut tables = vec![("newest", config("newest"))];
    g.throughput(Throughput::Elements(1));
    for (bench, table, n) in [
        ("alloc_salted_1", "salted1", 1),
        ("alloc_salted_4", "salted4", 4),
        ("alloc_salted_16", "salted16", 16),
    ] {
        let counting = Counting::new(&opened.store);
        let alloc = counted(&counting, salted(table, n));
        let fails = Failures::default();
        g.bench_function(bench, |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    insert(&alloc, &fails);
                }
                let elapsed = start.elapsed();
                if opened.tidy {
                    for r in alloc.ranges() {
                        clear(&*opened.store, r);
                    }
                }
                elapsed
            })
        });
        let stats = alloc.stats();
        report(&group, bench, stats, &fails);
        if stats.attempts > 0 {
            eprintln!("{group}/{bench}: {}", counting.per(stats.inserted));
        }
        if n > 1 {
            tables.push((bench, salted(table, n)));
        }
    }

    let n = spec.batch;
    let counting = Counting::new(&opened.store);
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| counted(&counting, salted("multi16", 16)))
        .collect();
    let fails = Failures::default();
    g.throughput(Throughput::Elements((CLIENTS * n) as u64));
    g.bench_function("alloc_8way_salted_16", |b| {
        b.iter_custom(|iters| {
            let elapsed = (0..iters)
                .map(|_| batch(CLIENTS, n, |c| insert(&clients[c], &fails)))
                .sum();
            if opened.tidy {
                for r in clients[0].ranges() {
                    clear(&*opened.store, r);
                }
            }
            elapsed
        })
    });
    let stats = sum(clients.iter().map(Allocator::stats));
    report(
        &group,
        &format!("alloc_8way_salted_16 ({CLIENTS} x {n} per batch)"),
        stats,
        &fails,
    );
    if stats.attempts > 0 {
        eprintln!(
            "{group}/alloc_8way_salted_16: {}",
            counting.per(stats.inserted)
        );
    }

    // newest: of a table with rows (the memory store's were cleared).
    g.throughput(Throughput::Elements(1));
    for ((bench, config), name) in
        tables
            .into_iter()
            .zip(["newest", "newest_salted_4", "newest_salted_16"])
    {
        let _ = bench;
        let counting = Counting::new(&opened.store);
        let alloc = counted(&counting, config);
        for _ in 0..100 {
            insert(&alloc, &Failures::default());
        }
        let (before_reads, before_ranges) = (
            counting.reads.load(Ordering::Relaxed),
            counting.ranges.load(Ordering::Relaxed),
        );
        let calls = AtomicU64::new(0);
        let fails = Failures::default();
        g.bench_function(name, |b| {
            b.iter(|| {
                let _ = calls.fetch_add(1, Ordering::Relaxed);
                match alloc.newest() {
                    Ok(Some(row)) => row.0,
                    Ok(None) => {
                        fails.note("empty table");
                        0
                    }
                    Err(e) => {
                        fails.note(e);
                        0
                    }
                }
            })
        });
        let n = calls.load(Ordering::Relaxed).max(1) as f64;
        if calls.load(Ordering::Relaxed) > 0 {
            eprintln!(
                "{group}/{name}: per newest: {:.2} reading calls ({:.2} ranges read){}",
                (counting.reads.load(Ordering::Relaxed) - before_reads) as f64 / n,
                (counting.ranges.load(Ordering::Relaxed) - before_ranges) as f64 / n,
                fails.summary()
            );
        }
    }
}

/// The allocator benches: one client without and with the guard, then 8
/// clients on one table.
fn alloc_benches(g: &mut BenchmarkGroup<'_, WallTime>, opened: &Opened, spec: &Spec) {
    let group = format!("alloc/{}", spec.name);
    let store = &opened.store;
    g.throughput(Throughput::Elements(1));
    for (bench, table, guard) in [
        ("alloc_uncontended", "solo", false),
        ("alloc_guard", "guard", true),
    ] {
        let alloc = allocator(store, config(table).with_guard(guard));
        let fails = Failures::default();
        g.bench_function(bench, |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    insert(&alloc, &fails);
                }
                let elapsed = start.elapsed();
                if opened.tidy {
                    clear(&**store, alloc.range());
                }
                elapsed
            })
        });
        report(&group, bench, alloc.stats(), &fails);
    }

    let alloc = allocator(store, config("many"));
    let fails = Failures::default();
    let values = vec![VALUE; 1000];
    g.throughput(Throughput::Elements(values.len() as u64));
    g.bench_function("insert_many_1000", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                if let Err(e) = alloc.insert_many(&values) {
                    fails.note(e);
                }
            }
            let elapsed = start.elapsed();
            if opened.tidy {
                clear(&**store, alloc.range());
            }
            elapsed
        })
    });
    report(&group, "insert_many_1000", alloc.stats(), &fails);

    let n = spec.batch;
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| allocator(store, config("multi")))
        .collect();
    let fails = Failures::default();
    g.throughput(Throughput::Elements((CLIENTS * n) as u64));
    g.bench_function("alloc_8way", |b| {
        b.iter_custom(|iters| {
            let elapsed = (0..iters)
                .map(|_| batch(CLIENTS, n, |c| insert(&clients[c], &fails)))
                .sum();
            if opened.tidy {
                clear(&**store, clients[0].range());
            }
            elapsed
        })
    });
    report(
        &group,
        &format!("alloc_8way ({CLIENTS} x {n} per batch)"),
        sum(clients.iter().map(Allocator::stats)),
        &fails,
    );
}

/// A namespace of this run's own.
fn namespace() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("bench_{}_{nanos:08x}", std::process::id())
}

fn alloc(c: &mut Criterion) {
    let ns = namespace();
    for spec in STORES {
        let opened = match open(spec, &ns) {
            Ok(o) => o,
            Err(why) => {
                eprintln!("alloc/{}: SKIPPED: {why}", spec.name);
                continue;
            }
        };
        let mut g = c.benchmark_group(format!("alloc/{}", spec.name));
        raw_benches(&mut g, &opened, spec);
        alloc_benches(&mut g, &opened, spec);
        salted_benches(&mut g, &opened, spec);
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = alloc
}
criterion_main!(benches);
