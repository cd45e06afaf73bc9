//! The conformance suite every store adapter passes: the same tests, run
//! per adapter by the `conformance!` macro at the bottom.
//!
//! Embedded stores (memory, redb, rocksdb, slatedb) run in temporary
//! directories.
//! Server stores read their URL from the environment, as
//! `scripts/with-stores.sh` exports it:
//!
//! ```text
//! scripts/with-stores.sh cargo test -p lexikey-stores --features all-servers
//! ```
//!
//! A server test whose variable is missing **fails** (it does not pass
//! silently): build without that adapter's feature to leave it out. Each
//! test works in a namespace of its own (`?ns=`), so tests and runs never
//! see each other's keys.

#![allow(missing_docs)]

use std::collections::BTreeMap;
use std::sync::{Arc, Barrier};
use std::thread;

use lexikey::range::prefix_end;
use lexikey::store::Store;
use lexikey::KeyRange;

// The core's fault-injecting wrapper, shared with its tests/alloc.rs.
#[path = "../../tests/support/delayed.rs"]
mod delayed;
#[path = "../../tests/support/flaky.rs"]
mod flaky;
#[path = "../../tests/support/size.rs"]
mod size;

/// A store under test, and what must live as long as it (a temp dir).
struct Fixture {
    store: Arc<dyn Store>,
    _dir: Option<tempfile::TempDir>,
}

/// A namespace unique to this test in this run.
fn namespace(test: &str) -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("t_{test}_{}_{nanos:08x}", std::process::id())
}

/// `URL?ns=…` (or `&ns=…`).
fn with_ns(url: &str, ns: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}ns={ns}")
}

#[allow(dead_code)] // unused when no server feature is on
fn server(var: &str, test: &str) -> Fixture {
    let url = std::env::var(var).unwrap_or_else(|_| {
        panic!(
            "{var} is not set: run the server tests through scripts/with-stores.sh \
             (e.g. `scripts/with-stores.sh cargo test -p lexikey-stores --features all-servers`), \
             or build without that store's feature"
        )
    });
    let url = with_ns(&url, &namespace(test));
    let store = lexikey_stores::open(&url)
        .unwrap_or_else(|e| panic!("open {}: {e}", lexikey_stores::redact_url(&url)));
    Fixture {
        store: Arc::from(store),
        _dir: None,
    }
}

/// `LEXIKEY_SLATEDB_S3_URL` (`slatedb:s3://BUCKET/PREFIX?…`) with the
/// test's namespace appended to the prefix and given as `ns=`.
#[allow(dead_code)] // unused without the slatedb feature
fn slatedb_s3(test: &str) -> Fixture {
    let var = "LEXIKEY_SLATEDB_S3_URL";
    let base = std::env::var(var).unwrap_or_else(|_| {
        panic!("{var} is not set: run the S3 tests through scripts/with-stores.sh (it starts moto's S3)")
    });
    let ns = namespace(test);
    let (location, query) = base.split_once('?').unwrap_or((&base, ""));
    let url = format!("{location}/{ns}?{query}&ns={ns}");
    let store = lexikey_stores::open(&url).unwrap_or_else(|e| panic!("open {url}: {e}"));
    Fixture {
        store: Arc::from(store),
        _dir: None,
    }
}

#[allow(dead_code)] // unused when no embedded feature is on
fn embedded(scheme: &str, opts: &str) -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("{scheme}:{}{opts}", dir.path().join("db").display());
    let store = lexikey_stores::open(&url).unwrap_or_else(|e| panic!("open {url}: {e}"));
    Fixture {
        store: Arc::from(store),
        _dir: Some(dir),
    }
}

fn memory() -> Fixture {
    Fixture {
        store: Arc::from(lexikey_stores::open("memory:").expect("memory:")),
        _dir: None,
    }
}

/// A small deterministic PRNG (SplitMix64): the same keys on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A key of 0–5 bytes drawn mostly from a tiny alphabet with the edge
    /// bytes 0x00 and 0xFF, so keys share prefixes and touch both ends.
    fn key(&mut self) -> Vec<u8> {
        const ALPHABET: &[u8] = &[0x00, 0x01, b'a', b'b', 0x7F, 0x80, 0xFE, 0xFF];
        let len = self.below(6);
        (0..len)
            .map(|_| {
                if self.below(8) == 0 {
                    self.next() as u8
                } else {
                    ALPHABET[self.below(ALPHABET.len())]
                }
            })
            .collect()
    }

    fn bound(&mut self, keys: &[Vec<u8>]) -> Option<Vec<u8>> {
        match self.below(4) {
            0 => None,
            1 if !keys.is_empty() => Some(keys[self.below(keys.len())].clone()),
            _ => Some(self.key()),
        }
    }
}

/// Which keys a store takes: any (the empty key too), or non-empty keys
/// only (Bigtable: a row key is 1 to 4,096 bytes; the empty key must be
/// refused with a fatal error, never stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keys {
    Any,
    NonEmpty,
}

/// Asserts that the store refuses the empty key, for every write and read
/// of one key, with a fatal error.
fn refuses_empty_key(s: &dyn Store) {
    let fatal = |what: &str, r: Result<(), lexikey::store::StoreError>| match r {
        Err(e) => assert!(!e.retryable, "{what}: a retryable error: {e}"),
        Ok(()) => panic!("{what} of the empty key succeeded"),
    };
    fatal("put_if_absent", s.put_if_absent(b"", b"v").map(drop));
    fatal(
        "compare_and_swap",
        s.compare_and_swap(b"", Some(b"v"), b"w").map(drop),
    );
    fatal("get", s.get(b"").map(drop));
    fatal("delete", s.delete(b"").map(drop));
}

fn oracle_range(
    oracle: &BTreeMap<Vec<u8>, Vec<u8>>,
    r: &KeyRange,
    limit: usize,
) -> Vec<(Vec<u8>, Vec<u8>)> {
    if r.is_empty() {
        return Vec::new();
    }
    oracle
        .range::<[u8], _>(lexikey::store::btree_bounds(r))
        .take(limit)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// First key and scans over many ranges agree with a `BTreeMap`.
fn range_scans_exact(s: &dyn Store, keys_rule: Keys) {
    let mut rng = Rng(0x5EED_0001);
    let mut oracle = BTreeMap::new();
    if keys_rule == Keys::NonEmpty {
        refuses_empty_key(s);
    }
    for i in 0..300u32 {
        let k = rng.key();
        if k.is_empty() && keys_rule == Keys::NonEmpty {
            continue;
        }
        let v = format!("v{i}").into_bytes();
        let fresh = !oracle.contains_key(&k);
        assert_eq!(
            s.put_if_absent(&k, &v).unwrap(),
            fresh,
            "put_if_absent {k:?}"
        );
        if fresh {
            let _ = oracle.insert(k, v);
        }
    }
    // The empty key and keys made only of 0x00 / 0xFF are there too.
    for k in [&b""[..], b"\x00", b"\x00\x00", b"\xFF", b"\xFF\xFF\xFF"] {
        if k.is_empty() && keys_rule == Keys::NonEmpty {
            continue;
        }
        if !oracle.contains_key(k) {
            assert!(s.put_if_absent(k, b"edge").unwrap());
            let _ = oracle.insert(k.to_vec(), b"edge".to_vec());
        }
    }
    let keys: Vec<Vec<u8>> = oracle.keys().cloned().collect();

    let mut ranges = vec![
        KeyRange::all(),
        KeyRange::prefix(b"\x00"),
        KeyRange::prefix(b"\xFF"),
        KeyRange::prefix(b"a"),
        KeyRange::new(None, Some(b"\x00".to_vec())).unwrap(),
        KeyRange::new(Some(b"\xFF\xFF\xFF\xFF".to_vec()), None).unwrap(),
        // Empty: start == end, start > end.
        KeyRange {
            start: Some(b"b".to_vec()),
            end: Some(b"b".to_vec()),
        },
        KeyRange {
            start: Some(b"b".to_vec()),
            end: Some(b"a".to_vec()),
        },
    ];
    for _ in 0..150 {
        let (a, b) = (rng.bound(&keys), rng.bound(&keys));
        ranges.push(KeyRange { start: a, end: b });
    }
    for _ in 0..30 {
        let p = &keys[rng.below(keys.len())];
        let p = &p[..rng.below(p.len() + 1)];
        ranges.push(KeyRange::prefix(p));
        ranges.push(KeyRange {
            start: Some(p.to_vec()),
            end: prefix_end(p),
        });
    }
    // The first keys of every range at once (over 128 of them: etcd
    // answers at most 128 ranges per txn), of none, of one.
    let want: Vec<Option<Vec<u8>>> = ranges
        .iter()
        .map(|r| oracle_range(&oracle, r, 1).pop().map(|(k, _)| k))
        .collect();
    assert!(ranges.len() > 128);
    assert_eq!(s.first_keys(&ranges).unwrap(), want, "first_keys");
    assert!(s.first_keys(&[]).unwrap().is_empty());
    for (r, w) in ranges.iter().zip(&want).take(20) {
        assert_eq!(
            &s.first_keys(std::slice::from_ref(r)).unwrap()[..],
            std::slice::from_ref(w)
        );
    }
    for r in &ranges {
        let want = oracle_range(&oracle, r, 1).pop().map(|(k, _)| k);
        assert_eq!(s.first_key(r).unwrap(), want, "first_key {r:?}");
        let limit = [1, 2, 7, 1000][rng.below(4)];
        assert_eq!(
            s.scan(r, limit).unwrap(),
            oracle_range(&oracle, r, limit),
            "scan {r:?} limit {limit}"
        );
    }
    assert!(s.scan(&KeyRange::all(), 0).unwrap().is_empty());
    assert_eq!(
        s.scan(&KeyRange::all(), usize::MAX).unwrap().len(),
        oracle.len()
    );
    // Every key reads back.
    for (k, v) in oracle.iter().take(50) {
        assert_eq!(s.get(k).unwrap().as_ref(), Some(v), "get {k:?}");
    }
}

/// 8 threads race to put the same keys: exactly one winner per key, and the
/// stored value is the winner's.
fn put_if_absent_race(s: Arc<dyn Store>, keys: usize) {
    const THREADS: usize = 8;
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let s = Arc::clone(&s);
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || {
                let mut rng = Rng(t as u64);
                // Each thread its own order, so races happen everywhere.
                let mut order: Vec<usize> = (0..keys).collect();
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below(i + 1));
                }
                barrier.wait();
                let mut won = Vec::new();
                for i in order {
                    let key = format!("race\x00{i:05}").into_bytes();
                    if s.put_if_absent(&key, &[t as u8]).expect("put_if_absent") {
                        won.push(i);
                    }
                }
                won
            })
        })
        .collect();
    let mut winner = vec![None; keys];
    for (t, h) in handles.into_iter().enumerate() {
        for i in h.join().expect("thread") {
            assert!(
                winner[i].is_none(),
                "key {i} won by threads {:?} and {t}",
                winner[i]
            );
            winner[i] = Some(t);
        }
    }
    for (i, w) in winner.iter().enumerate() {
        let w = w.unwrap_or_else(|| panic!("key {i}: nobody won"));
        let key = format!("race\x00{i:05}").into_bytes();
        assert_eq!(s.get(&key).unwrap(), Some(vec![w as u8]), "key {i}");
    }
    let all = s.scan(&KeyRange::prefix(b"race\x00"), usize::MAX).unwrap();
    assert_eq!(all.len(), keys);
}

/// Compare-and-swap semantics, then 8 threads incrementing one counter
/// through a CAS loop lose no increment.
fn compare_and_swap(s: Arc<dyn Store>, per_thread: usize) {
    let k = b"cas\xFF";
    assert!(
        !s.compare_and_swap(k, Some(b"x"), b"y").unwrap(),
        "absent != Some"
    );
    assert!(s.compare_and_swap(k, None, b"1").unwrap(), "absent == None");
    assert!(
        !s.compare_and_swap(k, None, b"2").unwrap(),
        "present != None"
    );
    assert!(
        !s.compare_and_swap(k, Some(b"2"), b"3").unwrap(),
        "wrong value"
    );
    assert_eq!(s.get(k).unwrap(), Some(b"1".to_vec()));
    assert!(
        s.compare_and_swap(k, Some(b"1"), b"").unwrap(),
        "right value"
    );
    assert_eq!(s.get(k).unwrap(), Some(Vec::new()), "empty value");
    assert!(
        !s.compare_and_swap(k, None, b"z").unwrap(),
        "empty is present"
    );
    assert!(
        s.compare_and_swap(k, Some(b""), b"\x00\xFF").unwrap(),
        "from empty"
    );
    assert_eq!(s.get(k).unwrap(), Some(b"\x00\xFF".to_vec()));
    assert!(!s.put_if_absent(k, b"q").unwrap());

    const THREADS: usize = 8;
    let counter = b"cas-counter";
    assert!(s.put_if_absent(counter, b"0").unwrap());
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|_| {
            let s = Arc::clone(&s);
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || {
                barrier.wait();
                let mut lost = 0u64;
                for _ in 0..per_thread {
                    loop {
                        let cur = s.get(counter).unwrap().unwrap();
                        let n: u64 = std::str::from_utf8(&cur).unwrap().parse().unwrap();
                        let next = (n + 1).to_string();
                        if s.compare_and_swap(counter, Some(&cur), next.as_bytes())
                            .unwrap()
                        {
                            break;
                        }
                        lost += 1;
                    }
                }
                lost
            })
        })
        .collect();
    let lost: u64 = handles.into_iter().map(|h| h.join().unwrap()).sum();
    let total = (THREADS * per_thread).to_string();
    assert_eq!(
        s.get(counter).unwrap(),
        Some(total.into_bytes()),
        "counter ({lost} CAS conflicts)"
    );
}

/// get / delete / re-insert, and scans skip deleted keys.
fn get_delete(s: &dyn Store, keys_rule: Keys) {
    assert_eq!(s.get(b"gd").unwrap(), None);
    assert!(!s.delete(b"gd").unwrap());
    for k in [&b"gd\x00"[..], b"gd\x01", b"gd\x02"] {
        assert!(s.put_if_absent(k, k).unwrap());
    }
    let r = KeyRange::prefix(b"gd");
    assert_eq!(s.first_key(&r).unwrap(), Some(b"gd\x00".to_vec()));
    assert!(s.delete(b"gd\x00").unwrap());
    assert!(!s.delete(b"gd\x00").unwrap());
    assert_eq!(s.get(b"gd\x00").unwrap(), None);
    assert_eq!(s.first_key(&r).unwrap(), Some(b"gd\x01".to_vec()));
    assert_eq!(
        s.scan(&r, 10).unwrap(),
        vec![
            (b"gd\x01".to_vec(), b"gd\x01".to_vec()),
            (b"gd\x02".to_vec(), b"gd\x02".to_vec())
        ]
    );
    assert!(s.put_if_absent(b"gd\x00", b"again").unwrap());
    assert_eq!(s.get(b"gd\x00").unwrap(), Some(b"again".to_vec()));
    // Large values, binary values, the empty key.
    let big = vec![0xA5u8; 64 * 1024];
    assert!(s.put_if_absent(b"gd-big", &big).unwrap());
    assert_eq!(s.get(b"gd-big").unwrap(), Some(big));
    if keys_rule == Keys::Any {
        assert!(s.put_if_absent(b"", b"empty key").unwrap());
        assert_eq!(s.get(b"").unwrap(), Some(b"empty key".to_vec()));
        assert_eq!(s.first_key(&KeyRange::all()).unwrap(), Some(Vec::new()));
        assert!(s.delete(b"").unwrap());
    } else {
        refuses_empty_key(s);
    }
    assert_eq!(
        s.first_key(&KeyRange::all()).unwrap(),
        Some(b"gd\x00".to_vec())
    );
}

/// 8 clients (each its own [`Allocator`] on the shared store) allocate
/// `per_client` rows each: every ID unique, the IDs contiguous from the
/// start down, every value stored under the ID its client was given, the
/// table read back newest first. `salt`: the same over salted rows (issue
/// 28), whose keys are then spread over every bucket.
/// `LEXIKEY_ALLOC_PER_CLIENT` overrides `per_client`.
fn allocator_contention(s: Arc<dyn Store>, per_client: usize, salt: Option<u8>) {
    use lexikey::store::alloc::{Allocator, AllocatorConfig};
    use lexikey::{Component, Format};
    use std::time::{Duration, Instant};

    const CLIENTS: usize = 8;
    const START: u64 = 1_000_000;
    let per_client = std::env::var("LEXIKEY_ALLOC_PER_CLIENT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(per_client);
    let mut config = AllocatorConfig::new(Format::Hex, &[Component::asc("comments")])
        .with_start(START)
        .with_max_attempts(10_000)
        .with_backoff(Duration::from_micros(100), Duration::from_millis(20))
        .with_assume_unique_values(true);
    if let Some(n) = salt {
        config = config.with_salt(salter(n));
    }
    let barrier = Arc::new(Barrier::new(CLIENTS));
    let t = Instant::now();
    let handles: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let alloc = Allocator::new(Arc::clone(&s), config.clone()).expect("allocator");
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || {
                barrier.wait();
                let ids: Vec<(u64, Vec<u8>)> = (0..per_client)
                    .map(|i| {
                        let value = format!("client {c} row {i}").into_bytes();
                        let id = alloc
                            .insert(&value)
                            .unwrap_or_else(|e| panic!("client {c}, row {i}: {e}"));
                        (id, value)
                    })
                    .collect();
                (ids, alloc.stats())
            })
        })
        .collect();
    let mut given = BTreeMap::new();
    let (mut retries, mut conflicts, mut errors) = (0, 0, 0);
    for h in handles {
        let (ids, stats) = h.join().expect("client");
        retries += stats.retries;
        conflicts += stats.conflicts;
        errors += stats.store_errors;
        for (id, value) in ids {
            if let Some(other) = given.insert(id, value.clone()) {
                panic!(
                    "ID {id} given twice: {:?} and {:?}",
                    String::from_utf8_lossy(&other),
                    String::from_utf8_lossy(&value)
                );
            }
        }
    }
    let elapsed = t.elapsed();
    let n = CLIENTS * per_client;
    assert_eq!(given.len(), n);
    let want: Vec<u64> = (START + 1 - n as u64..=START).collect();
    assert_eq!(
        given.keys().copied().collect::<Vec<_>>(),
        want,
        "IDs contiguous from the start down"
    );
    // Read back through the allocator and through the raw store.
    let reader = Allocator::new(Arc::clone(&s), config).expect("allocator");
    let rows = reader.scan(usize::MAX).expect("scan");
    assert_eq!(rows.len(), n, "rows in the table");
    assert_eq!(
        rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        want,
        "newest first"
    );
    for (id, value) in rows {
        assert_eq!(given.get(&id), Some(&value), "row {id}");
    }
    assert_eq!(
        reader.newest().unwrap().map(|r| r.0),
        Some(START + 1 - n as u64)
    );
    assert_eq!(reader.oldest().unwrap().map(|r| r.0), Some(START));
    let mut raw = 0;
    for (b, r) in reader.ranges().iter().enumerate() {
        let held = s.scan(r, usize::MAX).expect("raw scan").len();
        if salt.is_some() {
            assert!(held > 0, "salt bucket {b} holds rows");
        }
        raw += held;
    }
    assert_eq!(raw, n, "raw keys in the table's ranges");
    eprintln!(
        "{CLIENTS} clients x {per_client} allocations (salt {salt:?}) in {elapsed:?} \
         ({:.0}/s): {retries} retries, {conflicts} conflicts, {errors} store errors",
        n as f64 / elapsed.as_secs_f64()
    );
}

/// `Store::put_all_if_absent` (issue 38): the stores that say
/// `atomic_batches` are exactly the transactional ones (`expected`), and
/// on them a batch is all or nothing: written when every row key is
/// absent and the CAS matches, not at all otherwise; under racing
/// threads with overlapping batches, every key ends up holding the value
/// of one batch that is there whole. The others refuse a batch of two.
fn put_all_if_absent(s: Arc<dyn Store>, expected: bool) {
    use lexikey::store::Cas;
    assert_eq!(s.atomic_batches(), expected, "atomic_batches");
    if !expected {
        let e = s
            .put_all_if_absent(&[(b"b1", b"x"), (b"b2", b"x")], None)
            .unwrap_err();
        assert!(!e.retryable, "{e}");
        assert_eq!(s.get(b"b1").unwrap(), None);
        return;
    }
    let rows: [(&[u8], &[u8]); 3] = [(b"b3", b"three"), (b"b2", b"two"), (b"b1", b"one")];
    assert!(s.put_all_if_absent(&rows, None).unwrap());
    for (k, v) in rows {
        assert_eq!(s.get(k).unwrap().as_deref(), Some(v));
    }
    // One key taken: nothing written.
    assert!(!s
        .put_all_if_absent(&[(b"c1", b"x"), (b"b2", b"x"), (b"c2", b"x")], None)
        .unwrap());
    assert_eq!(s.get(b"c1").unwrap(), None);
    assert_eq!(s.get(b"c2").unwrap(), None);
    assert_eq!(s.get(b"b2").unwrap(), Some(b"two".to_vec()));
    // With a CAS: absent expected, then a value expected.
    let cas = |expected, new| Cas {
        key: b"g",
        expected,
        new,
    };
    assert!(s
        .put_all_if_absent(&[(b"d1", b"x"), (b"d2", b"y")], Some(cas(None, b"v1")))
        .unwrap());
    assert_eq!(s.get(b"g").unwrap(), Some(b"v1".to_vec()));
    assert_eq!(s.get(b"d2").unwrap(), Some(b"y".to_vec()));
    // The CAS does not match: nothing written.
    assert!(!s
        .put_all_if_absent(&[(b"e1", b"x")], Some(cas(None, b"v2")))
        .unwrap());
    assert!(!s
        .put_all_if_absent(&[(b"e1", b"x")], Some(cas(Some(b"v0"), b"v2")))
        .unwrap());
    assert_eq!(s.get(b"e1").unwrap(), None);
    // A row taken: the CAS is not applied either.
    assert!(!s
        .put_all_if_absent(
            &[(b"e1", b"x"), (b"d1", b"x")],
            Some(cas(Some(b"v1"), b"v2"))
        )
        .unwrap());
    assert_eq!(s.get(b"g").unwrap(), Some(b"v1".to_vec()));
    assert_eq!(s.get(b"e1").unwrap(), None);
    assert!(s
        .put_all_if_absent(&[(b"e1", b"x")], Some(cas(Some(b"v1"), b"v2")))
        .unwrap());
    assert_eq!(s.get(b"g").unwrap(), Some(b"v2".to_vec()));

    // Racing threads, each batch the keys r<i>..r<i+4> of its start i.
    const THREADS: usize = 4;
    const STARTS: usize = 40;
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let s = Arc::clone(&s);
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || {
                barrier.wait();
                let mut won = Vec::new();
                for j in 0..STARTS {
                    let i = (j * 7 + t * 3) % STARTS;
                    let keys: Vec<Vec<u8>> = (i..i + 4)
                        .map(|k| format!("r{k:03}").into_bytes())
                        .collect();
                    let value = format!("t{t} i{i}").into_bytes();
                    let rows: Vec<(&[u8], &[u8])> = keys
                        .iter()
                        .map(|k| (k.as_slice(), value.as_slice()))
                        .collect();
                    if s.put_all_if_absent(&rows, None).expect("batch") {
                        won.push((i, value));
                    }
                }
                won
            })
        })
        .collect();
    let mut won: Vec<(usize, Vec<u8>)> = Vec::new();
    for h in handles {
        won.extend(h.join().expect("thread"));
    }
    let range = KeyRange::new(Some(b"r".to_vec()), Some(b"s".to_vec())).unwrap();
    let stored: BTreeMap<Vec<u8>, Vec<u8>> =
        s.scan(&range, usize::MAX).unwrap().into_iter().collect();
    assert!(!won.is_empty());
    let mut covered = 0;
    for (i, value) in &won {
        for k in *i..i + 4 {
            assert_eq!(
                stored.get(format!("r{k:03}").as_bytes()),
                Some(value),
                "batch at {i}: key r{k:03} holds its value"
            );
            covered += 1;
        }
    }
    assert_eq!(
        covered,
        stored.len(),
        "every key written by a winning batch, once"
    );
}

/// `Allocator::insert_many` (issue 38) by 8 concurrent clients, each a mix
/// of batches of 1 to 40 values and single inserts: no ID given twice;
/// within a batch the IDs go down by one; each client's later call gets
/// smaller IDs (real-time order); all IDs contiguous from the start; every
/// row reads back with its value, newest first. `guard` and `salt` as
/// for `allocator_contention`.
fn allocator_batches(s: Arc<dyn Store>, per_client: usize, salt: Option<u8>, guard: bool) {
    use lexikey::store::alloc::{Allocator, AllocatorConfig};
    use lexikey::{Component, Format};
    use std::time::{Duration, Instant};

    const CLIENTS: usize = 8;
    const START: u64 = 1_000_000;
    let mut config = AllocatorConfig::new(Format::Hex, &[Component::asc("batches")])
        .with_start(START)
        .with_guard(guard)
        .with_batch_size(16)
        .with_max_attempts(10_000)
        .with_backoff(Duration::from_micros(100), Duration::from_millis(20));
    if let Some(n) = salt {
        config = config.with_salt(salter(n));
    }
    let barrier = Arc::new(Barrier::new(CLIENTS));
    let t = Instant::now();
    let handles: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let alloc = Allocator::new(Arc::clone(&s), config.clone()).expect("allocator");
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || {
                let mut rng = Rng(c as u64 + 1);
                barrier.wait();
                let mut calls: Vec<Vec<(u64, Vec<u8>)>> = Vec::new();
                let mut done = 0;
                while done < per_client {
                    let n = (1 + rng.below(40)).min(per_client - done);
                    let values: Vec<Vec<u8>> = (done..done + n)
                        .map(|i| format!("client {c} row {i}").into_bytes())
                        .collect();
                    let ids = if n == 1 && rng.below(2) == 0 {
                        vec![alloc.insert(&values[0]).expect("insert")]
                    } else {
                        alloc
                            .insert_many(&values)
                            .unwrap_or_else(|e| panic!("client {c}: {e}"))
                    };
                    assert_eq!(ids.len(), n, "one ID per value");
                    calls.push(ids.into_iter().zip(values).collect());
                    done += n;
                }
                (calls, alloc.stats())
            })
        })
        .collect();
    let mut given = BTreeMap::new();
    let mut conflicts = 0;
    let atomic = s.atomic_batches();
    for h in handles {
        let (calls, stats) = h.join().expect("client");
        conflicts += stats.conflicts;
        let mut last: Option<u64> = None;
        for call in calls {
            for w in call.windows(2) {
                assert!(w[1].0 < w[0].0, "IDs of a call go down");
            }
            // A call is batches of 16, each one commit where the store
            // has atomic batches: consecutive IDs.
            for batch in call.chunks(16).filter(|_| atomic) {
                for w in batch.windows(2) {
                    assert_eq!(w[1].0 + 1, w[0].0, "IDs of a batch go down by one");
                }
            }
            if let Some(l) = last {
                assert!(call[0].0 < l, "a later call gets smaller IDs");
            }
            last = call.last().map(|r| r.0);
            for (id, value) in call {
                assert!(given.insert(id, value).is_none(), "ID {id} given twice");
            }
        }
    }
    let elapsed = t.elapsed();
    let n = CLIENTS * per_client;
    let want: Vec<u64> = (START + 1 - n as u64..=START).collect();
    assert_eq!(
        given.keys().copied().collect::<Vec<_>>(),
        want,
        "IDs contiguous from the start down"
    );
    let reader = Allocator::new(Arc::clone(&s), config).expect("allocator");
    let rows = reader.scan(usize::MAX).expect("scan");
    assert_eq!(
        rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        want,
        "newest first"
    );
    for (id, value) in rows {
        assert_eq!(given.get(&id), Some(&value), "row {id}");
    }
    if guard {
        assert_eq!(
            reader.low_water_mark().expect("lwm"),
            Some(START + 1 - n as u64)
        );
    }
    eprintln!(
        "{CLIENTS} batching clients x {per_client} IDs (salt {salt:?}, guard {guard}) in \
         {elapsed:?}: {conflicts} conflicts"
    );
}

/// The allocator over a store that fails about one call in ten before it
/// reaches the store and reports about one applied write in ten as failed
/// (ambiguous commits), with `threads` clients × `per_thread` inserts, in
/// three modes: guard off (ambiguous rows reported as
/// `AllocError::Ambiguous`), guard off with `assume_unique_values`, guard
/// on. Then the store is read directly (not through the wrapper):
/// - no ID is given to two callers; every `Ok` and every `Ambiguous` ID's
///   row holds that caller's value;
/// - no lost row and no orphan: the table holds exactly one row per call,
///   and its IDs are exactly the IDs handed out;
/// - guard off: the IDs are contiguous from the start down; guard on:
///   skipped IDs (holes) are counted, and the low-water mark is the newest
///   row's ID (no hole below the newest row).
///
/// `LEXIKEY_FAULT_PER_THREAD` overrides `per_thread`.
///
/// `batch`: the clients call `insert_many` with 1 to 8 values instead
/// (issue 38), so a batch commit fails or is lost as one write; guard on,
/// a batch's unknown outcome may then burn an ID and be reported as
/// `Ambiguous`, as guard off.
fn allocator_faults(
    s: Arc<dyn Store>,
    threads: usize,
    per_thread: usize,
    salt: Option<u8>,
    batch: bool,
) {
    use flaky::{splitmix, Flaky, Schedule, Writes};
    use lexikey::store::alloc::{AllocError, Allocator, AllocatorConfig};
    use lexikey::{Component, Format};
    use std::collections::BTreeSet;
    use std::time::{Duration, Instant};

    const START: u64 = 1_000_000;
    let per_thread = std::env::var("LEXIKEY_FAULT_PER_THREAD")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(per_thread);
    let n = threads * per_thread;
    for (mode, guard, unique) in [
        ("plain", false, false),
        ("unique", false, true),
        ("guard", true, false),
    ] {
        let seed = 0x5EED ^ (guard as u64) << 1 ^ unique as u64;
        let flaky = Arc::new(
            Flaky::new(Arc::clone(&s))
                .before(Schedule::Random { one_in: 10, seed })
                .after(
                    Schedule::Random {
                        one_in: 10,
                        seed: !seed,
                    },
                    Writes::All,
                ),
        );
        let mut config =
            AllocatorConfig::new(Format::Hex, &[Component::asc(format!("faults_{mode}"))])
                .with_start(START)
                .with_guard(guard)
                .with_assume_unique_values(unique)
                .with_max_attempts(1_000)
                .with_backoff(Duration::from_micros(50), Duration::from_millis(5));
        if let Some(n) = salt {
            config = config.with_salt(salter(n));
        }
        let barrier = Arc::new(Barrier::new(threads));
        let t = Instant::now();
        let handles: Vec<_> = (0..threads)
            .map(|c| {
                // Salted, opening reads the salt record: retried.
                let alloc = loop {
                    match Allocator::new(Arc::clone(&flaky), config.clone()) {
                        Ok(a) => break a,
                        Err(AllocError::Store(e)) if e.retryable => continue,
                        Err(e) => panic!("{mode}: opening: {e}"),
                    }
                };
                let barrier = Arc::clone(&barrier);
                let atomic = flaky.atomic_batches();
                thread::spawn(move || {
                    barrier.wait();
                    let mut out = Vec::new();
                    let mut i = 0;
                    while i < per_thread {
                        let k = if batch {
                            (1 + splitmix(i as u64 ^ (c as u64) << 32) as usize % 8)
                                .min(per_thread - i)
                        } else {
                            1
                        };
                        let values: Vec<Vec<u8>> = (i..i + k)
                            .map(|i| format!("{mode} client {c} row {i}").into_bytes())
                            .collect();
                        if !batch {
                            match alloc.insert(&values[0]) {
                                Ok(id) => out.push((true, id, values[0].clone())),
                                Err(AllocError::Ambiguous { id, .. }) => {
                                    out.push((false, id, values[0].clone()))
                                }
                                Err(e) => panic!("{mode}: client {c}, row {i}: {e}"),
                            }
                        } else {
                            let mut ids = Vec::new();
                            let r = alloc.insert_many_into(&values, &mut ids);
                            for (id, v) in ids.iter().zip(&values) {
                                out.push((true, *id, v.clone()));
                            }
                            match r {
                                Ok(()) => {}
                                // The failing batch (the rest: k <= the
                                // batch size) is all there or not at all:
                                // its first row holds our value, so all.
                                Err(AllocError::Ambiguous { id, .. }) if atomic => {
                                    for (j, v) in values[ids.len()..].iter().enumerate() {
                                        out.push((false, id - j as u64, v.clone()));
                                    }
                                }
                                // One insert at a time: that value's row;
                                // the next loop goes on after it.
                                Err(AllocError::Ambiguous { id, .. }) => {
                                    out.push((false, id, values[ids.len()].clone()));
                                    i += ids.len() + 1;
                                    continue;
                                }
                                Err(e) => panic!("{mode}: client {c}, row {i}: {e}"),
                            }
                        }
                        i += k;
                    }
                    (out, alloc.stats())
                })
            })
            .collect();
        let mut handed: BTreeMap<u64, (bool, Vec<u8>)> = BTreeMap::new();
        let (mut ambiguous, mut errors, mut retries, mut burned) = (0, 0, 0, 0);
        for h in handles {
            let (out, stats) = h.join().expect("client");
            ambiguous += stats.ambiguous;
            burned += stats.burned;
            errors += stats.store_errors;
            retries += stats.retries;
            for (ok, id, value) in out {
                if let Some(other) = handed.insert(id, (ok, value.clone())) {
                    panic!(
                        "{mode}: ID {id} given twice: {:?} and {:?}",
                        String::from_utf8_lossy(&other.1),
                        String::from_utf8_lossy(&value)
                    );
                }
            }
        }
        let elapsed = t.elapsed();
        let reported = handed.values().filter(|(ok, _)| !ok).count();
        if unique || (guard && !batch) {
            assert_eq!(reported, 0, "{mode}: every ambiguous write is resolved");
        }
        // Read the store directly, without the wrapper.
        let reader = Allocator::new(Arc::clone(&s), config).expect("allocator");
        let rows: BTreeMap<u64, Vec<u8>> =
            reader.scan(usize::MAX).expect("scan").into_iter().collect();
        for (id, (_, value)) in &handed {
            assert_eq!(
                rows.get(id).map(|v| String::from_utf8_lossy(v)),
                Some(String::from_utf8_lossy(value)),
                "{mode}: row {id} holds its caller's value"
            );
        }
        assert_eq!(handed.len(), n, "{mode}: one ID per call");
        assert_eq!(
            rows.len(),
            n,
            "{mode}: one row per call (no orphan, no lost row)"
        );
        let values: BTreeSet<&Vec<u8>> = rows.values().collect();
        assert_eq!(values.len(), n, "{mode}: no value stored twice");
        let newest = *rows.keys().next().expect("rows");
        let holes = START + 1 - newest - n as u64;
        if guard {
            let lwm = reader.low_water_mark().expect("lwm");
            assert_eq!(
                lwm,
                Some(newest),
                "{mode}: the low-water mark is the newest row"
            );
        }
        let mut raw = Vec::new();
        for r in reader.ranges() {
            raw.extend(s.scan(r, usize::MAX).expect("raw scan"));
        }
        let mut tombstones = 0u64;
        for (k, v) in &raw {
            let id = reader.decode_id(k).expect("row key");
            if !rows.contains_key(&id) {
                assert_eq!(
                    v.as_slice(),
                    lexikey::store::alloc::BURNED,
                    "{mode}: a key that is no row is a tombstone"
                );
                tombstones += 1;
            }
        }
        if !guard {
            // A put that failed before reaching the store looks like a
            // timeout: its ID is burned (a tombstone, still a key), so the
            // keys stay contiguous. The clients' counts include the burns
            // whose answer was lost (read back later), so they are at
            // least the tombstones (clients pending on one ID may each
            // count its tombstone).
            assert_eq!(
                holes, tombstones,
                "{mode}: IDs contiguous from the start down, counting burned IDs"
            );
            assert!(
                burned >= tombstones && burned <= tombstones * threads as u64,
                "{mode}: {burned} burned by the stats, {tombstones} tombstones"
            );
        } else if !batch {
            assert_eq!(tombstones, 0, "{mode}: the guard burns nothing");
        }
        let inj = flaky.injected();
        assert!(
            inj.before > 0 && inj.after > 0,
            "{mode}: faults injected: {inj:?}"
        );
        eprintln!(
            "faults {mode}: {threads} clients x {per_thread} in {elapsed:?}: \
             injected {} before + {} after (of {} calls), {ambiguous} ambiguous writes, \
             {errors} store errors, {retries} retries, {reported} reported Ambiguous, {holes} holes, \
             {burned} burned",
            inj.before,
            inj.after,
            inj.before + inj.passed,
        );
    }
}

/// Writes held past the client's timeout and landing later (issue 23), on
/// the real store: every landing point of a one-client insert (and after
/// it), guard off and on, unique values or not, each on a fresh table:
/// exactly once, tombstones invisible, burned IDs never handed out (the
/// rules of `delayed::check_held_write`).
fn held_writes(s: Arc<dyn Store>, salt: Option<u8>) {
    use lexikey::store::alloc::AllocatorConfig;
    use lexikey::{Component, Format};
    let mut burned = 0;
    for (i, sc) in delayed::all_scenarios(5)
        .into_iter()
        .filter(|sc| sc.other_at.is_none() || sc.other_at == Some(1))
        .enumerate()
    {
        let mut config = AllocatorConfig::new(Format::Hex, &[Component::asc(format!("held_{i}"))]);
        if let Some(n) = salt {
            config = config.with_salt(salter(n));
        }
        match delayed::check_held_write(Arc::clone(&s), config, sc) {
            Ok(end) => burned += end.burned,
            Err(m) => panic!("{m}"),
        }
    }
    assert!(burned > 0, "some scenario burned an ID");
}

/// A salter of `n` buckets (the allocator gives it its format's layout).
fn salter(n: u8) -> lexikey::store::salt::Salter {
    lexikey::store::salt::Salter::new(n, lexikey::store::salt::SaltMode::Fast)
        .expect("1 to 255 buckets")
}

/// Runs the suite against one adapter. `$cfg`: when the adapter is built;
/// `$open`: `fn(&str) -> Fixture` given the test's name; `$race_keys`,
/// `$cas_per_thread`: sizes (smaller for slow stores); `$alloc`: the
/// allocations per client at full size (`LEXIKEY_TEST_SIZE=full`); CI
/// size runs a fifth of them, and a smaller fault run
/// (tests/support/size.rs).
macro_rules! conformance {
    ($name:ident, $cfg:meta, $open:expr, $race_keys:expr, $cas_per_thread:expr) => {
        conformance!(
            $name,
            $cfg,
            $open,
            $race_keys,
            $cas_per_thread,
            1000,
            Keys::Any,
            cfg_attr(any(), ignore)
        );
    };
    // `$salted`: an attribute on the three salted tests (a no-op, or
    // `ignore` where they would repeat another store's).
    ($name:ident, $cfg:meta, $open:expr, $race_keys:expr, $cas_per_thread:expr, $alloc:expr, $keys:expr, $salted:meta) => {
        #[cfg($cfg)]
        mod $name {
            use super::*;

            fn fixture(test: &str) -> Fixture {
                let open: fn(&str) -> Fixture = $open;
                open(test)
            }

            #[test]
            fn range_scans_exact() {
                let f = fixture("range");
                super::range_scans_exact(&*f.store, $keys);
            }

            #[test]
            fn put_if_absent_race() {
                let f = fixture("race");
                super::put_if_absent_race(Arc::clone(&f.store), $race_keys);
            }

            #[test]
            fn compare_and_swap() {
                let f = fixture("cas");
                super::compare_and_swap(Arc::clone(&f.store), $cas_per_thread);
            }

            #[test]
            fn get_delete() {
                let f = fixture("getdel");
                super::get_delete(&*f.store, $keys);
            }

            #[test]
            fn allocator_8_clients() {
                let f = fixture("alloc");
                super::allocator_contention(
                    Arc::clone(&f.store),
                    size::pick($alloc / 5, $alloc),
                    None,
                );
            }

            #[test]
            fn allocator_held_writes() {
                let f = fixture("held");
                super::held_writes(Arc::clone(&f.store), None);
            }

            #[test]
            fn allocator_injected_faults() {
                let f = fixture("faults");
                super::allocator_faults(Arc::clone(&f.store), 4, size::pick(100, 250), None, false);
            }

            // Batches (issue 38): the store's batch write, then
            // `insert_many` by concurrent clients, guard off and on, and
            // under injected faults. On the stores without atomic batches
            // these run the per-ID path (the same guarantees).
            #[test]
            fn put_all_if_absent() {
                let f = fixture("batch");
                let name = stringify!($name);
                let atomic = ["memory", "redb", "rocksdb", "slatedb", "postgres"]
                    .iter()
                    .any(|s| name.starts_with(s));
                super::put_all_if_absent(Arc::clone(&f.store), atomic);
            }

            #[test]
            fn allocator_batches_8_clients() {
                let f = fixture("batches");
                super::allocator_batches(Arc::clone(&f.store), size::pick(60, 250), None, false);
            }

            #[test]
            fn allocator_batches_guarded() {
                let f = fixture("batches_guard");
                super::allocator_batches(Arc::clone(&f.store), size::pick(60, 250), None, true);
            }

            #[test]
            fn allocator_batches_injected_faults() {
                let f = fixture("batch_faults");
                super::allocator_faults(Arc::clone(&f.store), 4, size::pick(100, 250), None, true);
            }

            // The same over salted rows (issue 28). Each salted insert
            // reads the 16 buckets' heads: on the etcd stores (TLS above
            // all) 8 x 1,000 of them cost minutes of CPU per store, so they
            // run a quarter of the unsalted count (8 x 250 at full size,
            // 8 x 50 at CI size); LEXIKEY_ALLOC_PER_CLIENT=1000 runs 8 x
            // 1,000.
            #[test]
            #[$salted]
            fn salted_allocator_8_clients() {
                let f = fixture("salted_alloc");
                super::allocator_contention(
                    Arc::clone(&f.store),
                    size::pick($alloc / 20, $alloc / 4),
                    Some(16),
                );
            }

            #[test]
            #[$salted]
            fn salted_allocator_batches() {
                let f = fixture("salted_batches");
                super::allocator_batches(Arc::clone(&f.store), size::pick(30, 100), Some(8), false);
            }

            #[test]
            #[$salted]
            fn salted_allocator_held_writes() {
                let f = fixture("salted_held");
                super::held_writes(Arc::clone(&f.store), Some(4));
            }

            #[test]
            #[$salted]
            fn salted_allocator_injected_faults() {
                let f = fixture("salted_faults");
                super::allocator_faults(
                    Arc::clone(&f.store),
                    4,
                    size::pick(40, 100),
                    Some(8),
                    false,
                );
            }
        }
    };
}

conformance!(memory, all(), |_| memory(), 500, 200);

conformance!(
    redb,
    feature = "redb",
    |_| embedded("redb", "?fsync=false"),
    300,
    100
);
conformance!(
    rocksdb,
    feature = "rocksdb",
    |_| embedded("rocksdb", ""),
    500,
    200
);
conformance!(
    slatedb,
    feature = "slatedb",
    |_| embedded("slatedb", ""),
    300,
    100
);
// SlateDB on S3 (moto's server, started by scripts/with-stores.sh): each
// test in a prefix of its own, as one prefix is one database with one
// writer at a time (the lease), and the namespace inside it. Every write
// is a PUT to moto (pure Python): smaller sizes than the local SlateDB's
// (8 x 50 allocations at CI size, 8 x 250 at full size).
conformance!(
    slatedb_s3,
    feature = "slatedb",
    |t| slatedb_s3(t),
    100,
    30,
    250,
    Keys::Any,
    cfg_attr(any(), ignore)
);
conformance!(
    redis,
    feature = "redis",
    |t| server("LEXIKEY_REDIS_URL", t),
    300,
    100
);
conformance!(
    postgres,
    feature = "postgres",
    |t| server("LEXIKEY_POSTGRES_URL", t),
    300,
    100
);
conformance!(
    etcd,
    feature = "etcd",
    |t| server("LEXIKEY_ETCD_URL", t),
    200,
    50
);
conformance!(
    etcd_cluster,
    feature = "etcd",
    |t| server("LEXIKEY_ETCD_CLUSTER_URL", t),
    200,
    50
);
// Bigtable (its emulator, started by scripts/with-stores.sh): a row key
// is 1 to 4,096 bytes, so the empty key is refused.
conformance!(
    bigtable,
    feature = "bigtable",
    |t| server("LEXIKEY_BIGTABLE_URL", t),
    300,
    100,
    1000,
    Keys::NonEmpty,
    cfg_attr(any(), ignore)
);
// DynamoDB (dynalite, started by scripts/with-stores.sh at
// LEXIKEY_DYNAMODB_ENDPOINT): one table per test, created by the adapter;
// keys are 1 to 1,024 bytes (the sort key limit), so the empty key is
// refused. Each write is an HTTP request to a Node process: 8 x 50
// allocations at CI size, 8 x 250 at full size. Salted tests included: the
// salted allocator over one partition (the bucket partitions are
// open_allocator's, tested from Python).
conformance!(
    dynamodb,
    feature = "dynamodb",
    |t| dynamodb(t),
    200,
    50,
    250,
    Keys::NonEmpty,
    cfg_attr(any(), ignore)
);

#[allow(dead_code)] // unused without the dynamodb feature
fn dynamodb(test: &str) -> Fixture {
    let ep = std::env::var("LEXIKEY_DYNAMODB_ENDPOINT").unwrap_or_else(|_| {
        panic!(
            "LEXIKEY_DYNAMODB_ENDPOINT is not set: run the server tests through \
             scripts/with-stores.sh (it starts dynalite), or build without the dynamodb feature"
        )
    });
    let url = format!(
        "dynamodb://{}?endpoint={ep}&region=us-east-1",
        namespace(test)
    );
    let store = lexikey_stores::open(&url).unwrap_or_else(|e| panic!("open {url}: {e}"));
    Fixture {
        store: Arc::from(store),
        _dir: None,
    }
}

// The same suite over TLS with authentication (scripts/stores.sh starts
// these servers with TLS only and passwords on: see stores/tests/secure.rs
// for what must fail against them), the salted tests included (at CI size
// 8 x 50 salted allocations: on the etcd servers each salted insert costs
// TLS requests to 16 buckets).
conformance!(
    redis_tls,
    feature = "redis",
    |t| server("LEXIKEY_REDIS_TLS_URL", t),
    300,
    100
);
conformance!(
    postgres_tls,
    feature = "postgres",
    |t| server("LEXIKEY_POSTGRES_TLS_URL", t),
    300,
    100
);
conformance!(
    etcd_tls,
    feature = "etcd",
    |t| server("LEXIKEY_ETCD_TLS_URL", t),
    200,
    50
);
conformance!(
    etcd_cluster_tls,
    feature = "etcd",
    |t| server("LEXIKEY_ETCD_CLUSTER_TLS_URL", t),
    200,
    50
);

/// Namespaces keep stores apart on one server.
#[allow(dead_code)]
fn namespaces_isolated(var: &str) {
    let a = server(var, "ns_a");
    let b = server(var, "ns_b");
    assert!(a.store.put_if_absent(b"k", b"a").unwrap());
    assert!(b.store.put_if_absent(b"k", b"b").unwrap());
    assert_eq!(a.store.get(b"k").unwrap(), Some(b"a".to_vec()));
    assert_eq!(b.store.scan(&KeyRange::all(), 10).unwrap().len(), 1);
    assert!(a.store.delete(b"k").unwrap());
    assert_eq!(b.store.get(b"k").unwrap(), Some(b"b".to_vec()));
    assert_eq!(a.store.first_key(&KeyRange::all()).unwrap(), None);
}

#[cfg(feature = "redis")]
#[test]
fn redis_namespaces_isolated() {
    namespaces_isolated("LEXIKEY_REDIS_URL");
}

#[cfg(feature = "postgres")]
#[test]
fn postgres_namespaces_isolated() {
    namespaces_isolated("LEXIKEY_POSTGRES_URL");
}

/// Many clients opening one new table at once all succeed: PostgreSQL's
/// `CREATE TABLE IF NOT EXISTS` is not atomic, and the clients that lose
/// the race get a catalog error ("type … already exists"), which must not
/// reach the user (seen in CI: `cli/tests/stores.rs` killed_client_postgres).
#[cfg(feature = "postgres")]
#[test]
fn postgres_concurrent_opens_of_a_new_table() {
    let url = std::env::var("LEXIKEY_POSTGRES_URL").expect("run through scripts/with-stores.sh");
    for round in 0..8 {
        let url = with_ns(&url, &namespace(&format!("race{round}")));
        let barrier = std::sync::Barrier::new(8);
        std::thread::scope(|s| {
            let opened: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(|| {
                        barrier.wait();
                        lexikey_stores::open(&url).map(|_| ())
                    })
                })
                .collect();
            for t in opened {
                if let Err(e) = t.join().unwrap() {
                    panic!("round {round}: {e}");
                }
            }
        });
    }
}

#[cfg(feature = "etcd")]
#[test]
fn etcd_namespaces_isolated() {
    namespaces_isolated("LEXIKEY_ETCD_URL");
}

#[cfg(feature = "redb")]
#[test]
fn redb_reopens_with_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    for fsync in [true, false] {
        let url = format!("redb:{}?fsync={fsync}&ns=n{fsync}", path.display());
        {
            let s = lexikey_stores::open(&url).unwrap();
            assert!(s.put_if_absent(b"k", b"v").unwrap());
        }
        let s = lexikey_stores::open(&url).unwrap();
        assert_eq!(s.get(b"k").unwrap(), Some(b"v".to_vec()));
        assert!(!s.put_if_absent(b"k", b"w").unwrap());
    }
}

/// Issue 38: `insert_many` of 1,000 IDs on redb with its default fsync on
/// is one write transaction (one durable commit), and takes well under a
/// second (it took 6.9 s as 1,000 commits); the rows read back, newest
/// first, with their values. The same with the guard: still one commit.
#[cfg(feature = "redb")]
#[test]
fn redb_insert_many_is_one_durable_commit() {
    use lexikey::store::alloc::{Allocator, AllocatorConfig};
    use lexikey::{Component, Format};
    use lexikey_stores::RedbStore;
    use std::time::Instant;

    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(RedbStore::open(dir.path().join("db")).unwrap());
    for guard in [false, true] {
        let table = if guard { "guarded" } else { "plain" };
        let config = AllocatorConfig::new(Format::Hex, &[Component::asc(table)]).with_guard(guard);
        let alloc = Allocator::new(Arc::clone(&store), config).unwrap();
        let _ = alloc.insert(b"before").unwrap();
        let values: Vec<Vec<u8>> = (0..1000).map(|i| format!("row {i}").into_bytes()).collect();
        let commits = store.commits();
        let t = Instant::now();
        let ids = alloc.insert_many(&values).unwrap();
        let elapsed = t.elapsed();
        assert_eq!(store.commits() - commits, 1, "guard {guard}: one commit");
        let want: Vec<u64> = (0..1000).map(|i| u64::MAX - 1 - i).collect();
        assert_eq!(ids, want);
        let rows = alloc.scan(usize::MAX).unwrap();
        assert_eq!(rows.len(), 1001);
        for ((id, v), (want_id, want_v)) in
            rows.iter().zip(ids.iter().rev().zip(values.iter().rev()))
        {
            assert_eq!((id, v), (want_id, want_v));
        }
        assert_eq!(rows[1000], (u64::MAX, b"before".to_vec()));
        // The per-ID path, as every front end took before: 100 inserts.
        let t = Instant::now();
        for v in &values[..100] {
            let _ = alloc.insert(v).unwrap();
        }
        let singles = t.elapsed();
        // A single insert commits its row (and, guard on, the LWM first).
        let per_insert = if guard { 2 } else { 1 };
        assert_eq!(
            store.commits() - commits,
            1 + 100 * per_insert,
            "guard {guard}: commits of single inserts"
        );
        eprintln!(
            "redb (fsync on), guard {guard}: 1,000 IDs in one commit: {elapsed:?}; \
             100 single inserts: {singles:?} ({:?} per 1,000)",
            singles * 10
        );
        assert!(elapsed.as_secs_f64() < 1.0, "1,000 IDs took {elapsed:?}");
    }
}
