//! The decreasing row-ID allocator on `MemStore`: order, uniqueness and
//! contiguity under 8 threads, exhaustion, the reuse guard, foreign keys,
//! faults (retryable errors, ambiguous commits, crashed clients), contention,
//! and `last_key` against a reverse-scan oracle.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lexikey::store::alloc::{
    default_guard_key, last_key, AllocError, AllocStats, Allocator, AllocatorConfig,
};
use lexikey::store::{btree_bounds, Entry, MemStore, Store, StoreError};
use lexikey::{tuple, Component, Format, KeyRange, Value};
use proptest::prelude::*;

#[path = "support/flaky.rs"]
mod flaky;
use flaky::{Flaky, Schedule, Writes};

#[path = "support/delayed.rs"]
mod delayed;
#[path = "support/size.rs"]
mod size;

fn comments() -> Vec<Component<'static>> {
    vec![Component::asc("comments")]
}

fn config(format: Format) -> AllocatorConfig {
    AllocatorConfig::new(format, &comments())
}

/// Short backoffs: the tests exercise the loop, not the sleeping.
fn quick(c: AllocatorConfig) -> AllocatorConfig {
    c.with_backoff(Duration::from_micros(20), Duration::from_millis(2))
}

/// Every row of the table, by ID (retrying a flaky store's scan).
fn rows<S: Store>(a: &Allocator<S>) -> BTreeMap<u64, Vec<u8>> {
    loop {
        match a.scan(usize::MAX) {
            Ok(rows) => return rows.into_iter().collect(),
            Err(AllocError::Store(e)) if e.retryable => continue,
            Err(e) => panic!("scan: {e}"),
        }
    }
}

// ---------------------------------------------------------------------------
// Test stores

/// Passes every call to `inner`, counting `first_key` probes.
struct Counting<S> {
    inner: S,
    probes: AtomicU64,
}

impl<S: Store> Store for Counting<S> {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        let _ = self.probes.fetch_add(1, Ordering::Relaxed);
        self.inner.first_key(range)
    }
    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        self.inner.put_if_absent(key, value)
    }
    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        self.inner.compare_and_swap(key, expected, new)
    }
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.get(key)
    }
    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.inner.scan(range, limit)
    }
    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        self.inner.delete(key)
    }
}

fn yielding() -> Yielding<MemStore> {
    Yielding {
        inner: MemStore::new(),
    }
}

/// Yields the thread around every call, so that 8 clients on 2 cores really
/// interleave between reading the first key and writing (on a bare
/// `MemStore` a call is so short that they hardly ever do).
struct Yielding<S> {
    inner: S,
}

impl<S: Store> Yielding<S> {
    fn run<T>(&self, f: impl FnOnce(&S) -> T) -> T {
        std::thread::yield_now();
        let r = f(&self.inner);
        std::thread::yield_now();
        r
    }
}

impl<S: Store> Store for Yielding<S> {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        self.run(|s| s.first_key(range))
    }
    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        self.run(|s| s.put_if_absent(key, value))
    }
    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        self.run(|s| s.compare_and_swap(key, expected, new))
    }
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.run(|s| s.get(key))
    }
    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.run(|s| s.scan(range, limit))
    }
    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        self.run(|s| s.delete(key))
    }
}

/// Another client that always gets there first: before each
/// `put_if_absent` it writes the key itself, and before each
/// `compare_and_swap` it moves the value on.
struct Interloper {
    inner: MemStore,
    /// The LWM the interloper writes next (always a new value).
    next: AtomicU64,
}

impl Interloper {
    fn new() -> Self {
        Interloper {
            inner: MemStore::new(),
            next: AtomicU64::new(1_000_000),
        }
    }
}

impl Store for Interloper {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.first_key(range)
    }
    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        let _ = self.inner.put_if_absent(key, b"interloper")?;
        self.inner.put_if_absent(key, value)
    }
    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        let theirs = format!("{} interloper", self.next.fetch_sub(1, Ordering::Relaxed));
        let _ = self
            .inner
            .compare_and_swap(key, expected, theirs.as_bytes())?;
        self.inner.compare_and_swap(key, expected, new)
    }
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.get(key)
    }
    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.inner.scan(range, limit)
    }
    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        self.inner.delete(key)
    }
}

/// A client process that dies (panics) at its next `put_if_absent` once
/// armed: after reading the first key (guard off) or after reserving the ID
/// with the CAS (guard on), before writing the row.
struct Crash {
    inner: Arc<MemStore>,
    armed: AtomicBool,
}

impl Store for Crash {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.first_key(range)
    }
    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        if self.armed.swap(false, Ordering::SeqCst) {
            panic!("client killed before its put");
        }
        self.inner.put_if_absent(key, value)
    }
    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        self.inner.compare_and_swap(key, expected, new)
    }
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.get(key)
    }
    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.inner.scan(range, limit)
    }
    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        self.inner.delete(key)
    }
}

// ---------------------------------------------------------------------------
// Keys

#[test]
fn keys_are_the_tuple_encoding_in_every_format() -> Result<(), AllocError> {
    for format in Format::ALL {
        let a = Allocator::new(MemStore::new(), config(format))?;
        let mut previous: Option<lexikey::Key> = None;
        for id in [0, 1, 41, 42, 255, 256, u64::MAX / 2, u64::MAX - 1, u64::MAX] {
            let mut comps = comments();
            comps.push(Component::asc(Value::U64(id)));
            let key = tuple::encode(format, &comps)?;
            assert_eq!(a.key(id), key, "{format}");
            assert!(
                a.range().contains(&key),
                "{format}: {key:?} outside the range"
            );
            assert_eq!(a.decode_id(&key)?, id, "{format}");
            if let Some(p) = previous {
                assert!(p < key, "{format}: ascending IDs must give ascending keys");
            }
            previous = Some(key);
        }
        let (start, end) = tuple::prefix_range(format, &comments())?;
        assert_eq!(a.range().start.as_deref(), Some(&start[..]));
        assert_eq!(a.range().end, end);
    }
    let key = |f| Allocator::new(MemStore::new(), config(f)).map(|a| a.key(u64::MAX));
    assert_eq!(key(Format::Hex)?, b"comments#uFFFFFFFFFFFFFFFF");
    assert_eq!(key(Format::Base64)?, b"comments#uzzzzzzzzzzw");
    assert_eq!(key(Format::Decimal)?, b"comments#18446744073709551615");
    assert_eq!(
        key(Format::Binary)?,
        b"comments\x00\x01\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF"
    );
    Ok(())
}

#[test]
fn decode_id_refuses_keys_of_other_tables() -> Result<(), AllocError> {
    let a = Allocator::new(MemStore::new(), config(Format::Hex))?;
    let other = tuple::encode(
        Format::Hex,
        &[Component::asc("posts"), Component::asc(Value::U64(7))],
    )?;
    assert!(matches!(
        a.decode_id(&other),
        Err(AllocError::NotInTable { .. })
    ));
    assert!(matches!(a.decode_id(b"comments#u0000000000000007"), Ok(7)));
    Ok(())
}

// ---------------------------------------------------------------------------
// Order, newest, oldest

#[test]
fn ids_strictly_decrease_in_every_format_and_mode() -> Result<(), AllocError> {
    for format in Format::ALL {
        for guard in [false, true] {
            let a = Allocator::new(MemStore::new(), config(format).with_guard(guard))?;
            assert_eq!(a.newest()?, None);
            assert_eq!(a.oldest()?, None);
            let mut ids = Vec::new();
            for i in 0..300u32 {
                let id = a.insert(format!("row {i}").as_bytes())?;
                if let Some(&last) = ids.last() {
                    assert!(id < last, "{format} guard={guard}: {id} after {last}");
                }
                ids.push(id);
            }
            assert_eq!(ids[0], u64::MAX);
            assert_eq!(ids[299], u64::MAX - 299, "contiguous");
            assert_eq!(a.newest()?, Some((u64::MAX - 299, b"row 299".to_vec())));
            assert_eq!(a.oldest()?, Some((u64::MAX, b"row 0".to_vec())));
            let first = a.scan(3)?;
            let want: Vec<(u64, Vec<u8>)> = (297..300)
                .rev()
                .map(|i| (u64::MAX - i, format!("row {i}").into_bytes()))
                .collect();
            assert_eq!(first, want, "scan is newest first");
            if guard {
                assert_eq!(a.low_water_mark()?, Some(u64::MAX - 299));
            }
        }
    }
    Ok(())
}

#[test]
fn custom_start_and_floor() -> Result<(), AllocError> {
    let a = Allocator::new(
        MemStore::new(),
        config(Format::Decimal).with_start(1000).with_floor(10),
    )?;
    assert_eq!(a.insert(b"a")?, 1000);
    assert_eq!(a.insert(b"b")?, 999);
    assert_eq!(a.key(999), b"comments#00000000000000000999");
    assert_eq!(a.oldest()?, Some((1000, b"a".to_vec())));
    Ok(())
}

#[test]
fn oldest_falls_back_to_a_search_when_the_start_row_is_gone() -> Result<(), AllocError> {
    for format in Format::ALL {
        let a = Allocator::new(MemStore::new(), config(format))?;
        for i in 0..20u8 {
            let _ = a.insert(&[i])?;
        }
        assert!(a.delete(u64::MAX)?);
        assert!(a.delete(u64::MAX - 1)?);
        assert_eq!(a.oldest()?, Some((u64::MAX - 2, vec![2])), "{format}");
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Concurrency: 8 threads × 1,000

/// 8 threads × 1,000 inserts with the default configuration.
fn eight_by_thousand<S: Store>(store: S, label: &str, guard: bool) -> Result<(), AllocError> {
    const THREADS: usize = 8;
    const EACH: usize = 1000;
    let a = Allocator::new(store, config(Format::Hex).with_guard(guard))?;
    let t0 = Instant::now();
    let got: Vec<Vec<(u64, Vec<u8>, u32)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let a = &a;
                s.spawn(move || {
                    (0..EACH)
                        .map(|i| {
                            let value = format!("t{t}-{i}").into_bytes();
                            let r = a.insert_with_stats(&value).expect("insert");
                            (r.id, value, r.attempts)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread"))
            .collect()
    });
    let elapsed = t0.elapsed();
    let mut mine: HashMap<u64, Vec<u8>> = HashMap::new();
    let mut max_attempts = 0;
    for thread in &got {
        for w in thread.windows(2) {
            assert!(w[1].0 < w[0].0, "one client's IDs strictly decrease");
        }
        for (id, value, attempts) in thread {
            assert!(
                mine.insert(*id, value.clone()).is_none(),
                "duplicate ID {id}"
            );
            max_attempts = max_attempts.max(*attempts);
        }
    }
    let n = (THREADS * EACH) as u64;
    let stored = rows(&a);
    assert_eq!(stored.len() as u64, n, "exactly 8,000 rows");
    let want: BTreeSet<u64> = (u64::MAX - (n - 1)..=u64::MAX).collect();
    assert_eq!(
        stored.keys().copied().collect::<BTreeSet<_>>(),
        want,
        "contiguous from start"
    );
    for (id, value) in &stored {
        assert_eq!(
            Some(value),
            mine.get(id),
            "row {id} holds its inserter's value"
        );
    }
    let st: AllocStats = a.stats();
    assert_eq!(st.inserted, n);
    assert_eq!(st.attempts, n + st.retries);
    eprintln!(
        "8x1000 {label} guard={guard}: {elapsed:?} ({:.0} IDs/s), {} retries ({} conflicts, \
         max {max_attempts} attempts for one ID), stats {st:?}",
        n as f64 / elapsed.as_secs_f64(),
        st.retries,
        st.conflicts,
    );
    Ok(())
}

#[test]
fn eight_threads_by_1000_unique_contiguous_all_stored() -> Result<(), AllocError> {
    eight_by_thousand(MemStore::new(), "MemStore", false)
}

#[test]
fn eight_threads_by_1000_with_guard() -> Result<(), AllocError> {
    eight_by_thousand(MemStore::new(), "MemStore", true)
}

#[test]
fn eight_threads_by_1000_interleaved() -> Result<(), AllocError> {
    let store = Yielding {
        inner: MemStore::new(),
    };
    eight_by_thousand(store, "yielding MemStore", false)
}

#[test]
fn eight_threads_by_1000_interleaved_with_guard() -> Result<(), AllocError> {
    let store = Yielding {
        inner: MemStore::new(),
    };
    eight_by_thousand(store, "yielding MemStore", true)
}

// ---------------------------------------------------------------------------
// Exhaustion

#[test]
fn exhaustion_is_an_error_never_a_wrap() -> Result<(), AllocError> {
    for format in Format::ALL {
        for guard in [false, true] {
            for floor in [0, 7] {
                let cfg = config(format)
                    .with_guard(guard)
                    .with_start(floor + 2)
                    .with_floor(floor);
                let a = Allocator::new(MemStore::new(), cfg)?;
                assert_eq!(a.insert(b"a")?, floor + 2);
                assert_eq!(a.insert(b"b")?, floor + 1);
                assert_eq!(a.insert(b"c")?, floor);
                for _ in 0..2 {
                    match a.insert(b"d") {
                        Err(AllocError::Exhausted { floor: f }) => assert_eq!(f, floor),
                        other => {
                            panic!("{format} guard={guard}: expected Exhausted, got {other:?}")
                        }
                    }
                }
                assert_eq!(rows(&a).len(), 3, "nothing written after exhaustion");
            }
        }
    }
    // start == floor: exactly one ID.
    let a = Allocator::new(MemStore::new(), config(Format::Hex).with_start(0))?;
    assert_eq!(a.insert(b"only")?, 0);
    let e = a.insert(b"more").unwrap_err();
    assert_eq!(
        e.to_string(),
        "row IDs exhausted: the floor ID 0 is already taken"
    );
    Ok(())
}

#[test]
fn bad_configurations_are_refused() {
    let cfg = config(Format::Hex).with_start(5).with_floor(6);
    assert!(matches!(
        Allocator::new(MemStore::new(), cfg),
        Err(AllocError::Config(_))
    ));
    let cfg = config(Format::Hex).with_max_attempts(0);
    assert!(matches!(
        Allocator::new(MemStore::new(), cfg),
        Err(AllocError::Config(_))
    ));
    // A guard needs a key outside the range.
    let cfg = AllocatorConfig::new(Format::Hex, &[]).with_guard(true);
    assert!(matches!(
        Allocator::new(MemStore::new(), cfg),
        Err(AllocError::Config(_))
    ));
    let cfg = AllocatorConfig::new(Format::Binary, &[Component::asc(true)]).with_guard(true);
    assert!(matches!(
        Allocator::new(MemStore::new(), cfg),
        Err(AllocError::Config(_))
    ));
    let cfg = config(Format::Hex)
        .with_guard(true)
        .with_guard_key(&b"comments#lwm"[..]);
    assert!(matches!(
        Allocator::new(MemStore::new(), cfg),
        Err(AllocError::Config(_))
    ));
    // A prefix the format cannot encode.
    let cfg = AllocatorConfig::new(Format::Decimal, &[Component::asc(1.5_f64)]);
    assert!(matches!(
        Allocator::new(MemStore::new(), cfg),
        Err(AllocError::Encode(_))
    ));
    // Guard off: no guard key needed, even with an empty prefix.
    let a = Allocator::new(MemStore::new(), AllocatorConfig::new(Format::Hex, &[])).unwrap();
    assert_eq!(a.insert(b"x").unwrap(), u64::MAX);
    assert_eq!(a.key(u64::MAX), b"uFFFFFFFFFFFFFFFF");
}

// ---------------------------------------------------------------------------
// The reuse guard

#[test]
fn default_guard_keys_lie_outside_the_range_and_decode_as_nothing() -> Result<(), AllocError> {
    let prefixes: Vec<Vec<Component<'static>>> = vec![
        comments(),
        vec![Component::asc("t"), Component::asc(7_i64)],
        vec![Component::desc("queue"), Component::asc(Value::U64(0))],
        vec![Component::asc(Value::Bytes(vec![0xFF, 0x00].into()))],
    ];
    for format in Format::ALL {
        for p in &prefixes {
            let key = default_guard_key(format, p)?;
            let (start, end) = tuple::prefix_range(format, p)?;
            let range = KeyRange {
                start: Some(start),
                end,
            };
            assert!(
                !range.contains(&key),
                "{format} {p:?}: guard key inside the range"
            );
            let mut schema: Vec<_> = p.iter().map(Component::field).collect();
            assert!(tuple::decode(format, &key, Some(&schema)).is_err());
            schema.push(lexikey::Field::asc(lexikey::Type::U64));
            assert!(tuple::decode(format, &key, Some(&schema)).is_err());
            if format.is_text() {
                assert!(key.ends_with(b"$lwm") && std::str::from_utf8(&key).is_ok());
            }
        }
    }
    assert_eq!(
        default_guard_key(Format::Hex, &comments())?,
        b"comments$lwm"
    );
    assert_eq!(
        default_guard_key(Format::Decimal, &comments())?,
        b"comments$lwm"
    );
    assert_eq!(
        default_guard_key(Format::Binary, &comments())?,
        b"comments\x00"
    );
    Ok(())
}

#[test]
fn guard_on_delete_newest_then_insert_never_returns_a_deleted_id() -> Result<(), AllocError> {
    for format in Format::ALL {
        let a = Allocator::new(MemStore::new(), config(format).with_guard(true))?;
        let mut deleted = BTreeSet::new();
        let mut given = BTreeSet::new();
        for round in 0..50 {
            let id = a.insert(format!("r{round}").as_bytes())?;
            assert!(
                !deleted.contains(&id),
                "{format}: deleted ID {id} handed out again"
            );
            assert!(
                given.iter().all(|&g| id < g),
                "{format}: {id} not below every earlier ID"
            );
            let _ = given.insert(id);
            if round % 2 == 1 {
                let (newest, _) = a.newest()?.expect("a row");
                assert!(a.delete(newest)?);
                let _ = deleted.insert(newest);
            }
        }
        // Even an emptied table goes on below the low-water mark.
        for (id, _) in a.scan(usize::MAX)? {
            assert!(a.delete(id)?);
        }
        let id = a.insert(b"after")?;
        assert_eq!(Some(id + 1), given.iter().next().copied());
        assert_eq!(a.low_water_mark()?, Some(id));
    }
    Ok(())
}

#[test]
fn guard_off_reuses_a_deleted_newest_id_as_documented() -> Result<(), AllocError> {
    let a = Allocator::new(MemStore::new(), config(Format::Hex))?;
    let x = a.insert(b"x")?;
    let y = a.insert(b"y")?;
    assert!(a.delete(y)?);
    assert_eq!(a.insert(b"z")?, y, "the freed newest ID comes back");
    assert_eq!(a.newest()?, Some((y, b"z".to_vec())));
    // Deleting a row that is not the newest frees nothing.
    assert!(a.delete(x)?);
    assert_eq!(a.insert(b"w")?, y - 1);
    Ok(())
}

#[test]
fn guard_on_a_table_that_already_has_rows_continues_below_them() -> Result<(), AllocError> {
    let store = Arc::new(MemStore::new());
    let plain = Allocator::new(Arc::clone(&store), config(Format::Hex))?;
    for _ in 0..5 {
        let _ = plain.insert(b"old")?;
    }
    let guarded = Allocator::new(Arc::clone(&store), config(Format::Hex).with_guard(true))?;
    assert_eq!(guarded.insert(b"new")?, u64::MAX - 5);
    // A client without the guard writes below the LWM: the guarded client
    // skips the taken ID instead of overwriting or duplicating it.
    assert_eq!(plain.insert(b"sneaky")?, u64::MAX - 6);
    assert_eq!(guarded.insert(b"new2")?, u64::MAX - 7);
    assert_eq!(guarded.stats().skipped, 1);
    assert_eq!(rows(&guarded).len(), 8);
    Ok(())
}

#[test]
fn guard_value_that_is_not_a_low_water_mark_is_reported() -> Result<(), AllocError> {
    let a = Allocator::new(MemStore::new(), config(Format::Hex).with_guard(true))?;
    let _ = a.insert(b"a")?;
    let gk = a.guard_key().expect("guard on").to_vec();
    let current = a.store().get(&gk)?.expect("an LWM");
    assert!(a.store().compare_and_swap(&gk, Some(&current), b"-5")?);
    match a.insert(b"b") {
        Err(e @ AllocError::CorruptGuard { .. }) => {
            assert_eq!(
                e.to_string(),
                "guard key comments$lwm holds -5, not a low-water mark (`ID` or `ID TOKEN`)"
            );
        }
        other => panic!("expected CorruptGuard, got {other:?}"),
    }
    // A bare ID (set by hand) is accepted.
    assert!(a.store().compare_and_swap(&gk, Some(b"-5"), b"100")?);
    assert_eq!(a.insert(b"b")?, 99);
    Ok(())
}

// ---------------------------------------------------------------------------
// Foreign keys

#[test]
fn foreign_keys_in_the_range_are_an_error_never_an_id() -> Result<(), AllocError> {
    let cases: Vec<(Format, Vec<u8>)> = vec![
        (Format::Hex, b"comments#hello".to_vec()),
        (Format::Hex, b"comments#uffffffffffffffff".to_vec()),
        (Format::Hex, b"comments#u00000000000000#".to_vec()),
        (Format::Hex, b"comments#uFFFFFFFFFFFFFFF0#x".to_vec()),
        (Format::Base64, b"comments#u".to_vec()),
        (Format::Decimal, b"comments#1234".to_vec()),
        (Format::Decimal, b"comments#-0000000000000000001".to_vec()),
        (Format::Binary, b"comments\x00\x01abc".to_vec()),
        (
            Format::Binary,
            b"comments\x00\x01\x00\x00\x00\x00\x00\x00\x00\x05\x00".to_vec(),
        ),
    ];
    for (format, foreign) in cases {
        for guard in [false, true] {
            let a = Allocator::new(MemStore::new(), config(format).with_guard(guard))?;
            assert!(
                a.range().contains(&foreign),
                "{foreign:?} must be in the range"
            );
            assert!(a.store().put_if_absent(&foreign, b"not ours")?);
            match a.insert(b"v") {
                Err(AllocError::Corrupt { key, error }) => {
                    assert_eq!(key, foreign);
                    assert!(error.offset() <= key.len());
                }
                other => panic!("{format} {foreign:?}: expected Corrupt, got {other:?}"),
            }
            assert!(matches!(a.newest(), Err(AllocError::Corrupt { .. })));
            assert!(matches!(a.scan(10), Err(AllocError::Corrupt { .. })));
            assert_eq!(
                a.store().scan(&KeyRange::all(), 10)?.len(),
                1,
                "nothing written"
            );
        }
    }
    let a = Allocator::new(MemStore::new(), config(Format::Hex))?;
    assert!(a.store().put_if_absent(b"comments#hello", b"")?);
    let msg = a.insert(b"v").unwrap_err().to_string();
    assert!(
        msg.starts_with("key comments#hello in the table's range is not a row key: "),
        "{msg}"
    );
    Ok(())
}

#[test]
fn keys_outside_the_range_are_not_seen() -> Result<(), AllocError> {
    let a = Allocator::new(MemStore::new(), config(Format::Hex))?;
    for k in [
        &b"comments"[..],
        b"comments$",
        b"comments\"",
        b"commentz#u0000000000000000",
        b"a",
    ] {
        assert!(a.store().put_if_absent(k, b"neighbour")?);
    }
    assert_eq!(a.insert(b"v")?, u64::MAX);
    assert_eq!(a.oldest()?, Some((u64::MAX, b"v".to_vec())));
    Ok(())
}

// ---------------------------------------------------------------------------
// Contention

#[test]
fn contention_is_reported_after_max_attempts() -> Result<(), AllocError> {
    for guard in [false, true] {
        let store = Interloper::new();
        let cfg = quick(config(Format::Hex).with_guard(guard).with_max_attempts(3));
        let a = Allocator::new(store, cfg)?;
        match a.insert(b"mine") {
            Err(AllocError::Contention { attempts }) => assert_eq!(attempts, 3),
            other => panic!("guard={guard}: expected Contention, got {other:?}"),
        }
        let st = a.stats();
        assert_eq!(
            (st.attempts, st.retries, st.conflicts, st.inserted),
            (3, 2, 3, 0)
        );
        // No row holds our value.
        assert!(rows(&a).values().all(|v| v != b"mine"));
    }
    Ok(())
}

#[test]
fn tiny_max_attempts_under_real_threads_reports_contention_not_duplicates() -> Result<(), AllocError>
{
    let cfg = config(Format::Hex)
        .with_max_attempts(1)
        .with_backoff(Duration::ZERO, Duration::ZERO);
    let a = Allocator::new(yielding(), cfg)?;
    let results: Vec<Result<u64, AllocError>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..8)
            .map(|t| {
                let a = &a;
                s.spawn(move || {
                    (0..300)
                        .map(|i| a.insert(format!("{t}/{i}").as_bytes()))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        hs.into_iter()
            .flat_map(|h| h.join().expect("thread"))
            .collect()
    });
    let mut ids = BTreeSet::new();
    let mut contention = 0;
    for r in results {
        match r {
            Ok(id) => assert!(ids.insert(id), "duplicate {id}"),
            Err(AllocError::Contention { attempts: 1 }) => contention += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(ids.len() as u64, rows(&a).len() as u64);
    eprintln!(
        "max_attempts=1, 8x300: {} ok, {contention} Contention",
        ids.len()
    );
    Ok(())
}

// ---------------------------------------------------------------------------
// Faults

/// Runs 8 threads × `each` inserts over `store`; returns the (id, value)
/// pairs of successful calls and the Ambiguous outcomes.
#[allow(clippy::type_complexity)]
fn hammer<S: Store>(a: &Allocator<S>, each: usize) -> (Vec<(u64, Vec<u8>)>, Vec<(u64, Vec<u8>)>) {
    let out: Vec<(bool, u64, Vec<u8>)> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..8)
            .map(|t| {
                s.spawn(move || {
                    let mut v = Vec::new();
                    for i in 0..each {
                        let value = format!("t{t}-{i}").into_bytes();
                        match a.insert(&value) {
                            Ok(id) => v.push((true, id, value)),
                            Err(AllocError::Ambiguous { id, .. }) => v.push((false, id, value)),
                            Err(e) => panic!("insert: {e}"),
                        }
                    }
                    v
                })
            })
            .collect();
        hs.into_iter()
            .flat_map(|h| h.join().expect("thread"))
            .collect()
    });
    let (ok, amb): (Vec<_>, Vec<_>) = out.into_iter().partition(|r| r.0);
    (
        ok.into_iter().map(|(_, id, v)| (id, v)).collect(),
        amb.into_iter().map(|(_, id, v)| (id, v)).collect(),
    )
}

/// No duplicate ID among the successes; every success's row holds its value.
fn check_unique_and_stored(stored: &BTreeMap<u64, Vec<u8>>, ok: &[(u64, Vec<u8>)]) {
    let mut seen = BTreeSet::new();
    for (id, value) in ok {
        assert!(seen.insert(*id), "duplicate ID {id}");
        assert_eq!(
            stored.get(id),
            Some(value),
            "row {id} must hold its inserter's value"
        );
    }
}

/// The burned IDs of the table (its tombstones), read from the store.
fn burned_ids<S: Store>(a: &Allocator<S>) -> Vec<u64> {
    use lexikey::store::alloc::Slot;
    let all = loop {
        match a.store().scan(a.range(), usize::MAX) {
            Ok(all) => break all,
            Err(e) if e.retryable => continue,
            Err(e) => panic!("scan: {e}"),
        }
    };
    all.into_iter()
        .filter_map(|(k, v)| match a.read_entry(&k, v).expect("entry") {
            Slot::Burned { id } => Some(id),
            Slot::Row { .. } => None,
        })
        .collect()
}

fn is_contiguous(ids: impl Iterator<Item = u64>, n: u64) -> bool {
    ids.collect::<BTreeSet<_>>() == (u64::MAX - (n - 1)..=u64::MAX).collect()
}

#[test]
fn retryable_errors_before_the_call_never_duplicate_nor_leave_holes() -> Result<(), AllocError> {
    for guard in [false, true] {
        // 5: more calls than one attempt makes, so that the failure moves
        // from call to call (with 3, a lone client whose attempts take 3
        // calls would fail the same call forever).
        let store = Flaky::new(yielding()).before(Schedule::Every(5));
        before_faults(store, guard)?;
        let store = Flaky::new(yielding()).before(Schedule::Random { one_in: 4, seed: 0 });
        before_faults(store, guard)?;
    }
    Ok(())
}

fn before_faults<S: Store>(store: Flaky<S>, guard: bool) -> Result<(), AllocError> {
    {
        let a = Allocator::new(store, quick(config(Format::Hex).with_guard(guard)))?;
        let (ok, amb) = hammer(&a, 250);
        assert!(
            amb.is_empty(),
            "failures before the call are never ambiguous: {amb:?} {:?}",
            a.stats()
        );
        let stored = rows(&a);
        check_unique_and_stored(&stored, &ok);
        assert_eq!(stored.len(), 2000);
        // A put that failed before reaching the store looks like a timeout
        // to the client: guard off, its ID is burned (a tombstone, still a
        // key: the keys have no gap); guard on, the ID is retried.
        let burned = burned_ids(&a);
        let st = a.stats();
        // Every tombstone is counted; one whose write failed may be
        // counted by each client that had a put of that ID pending.
        let n = burned.len() as u64;
        assert!(
            st.burned >= n && st.burned <= 8 * n,
            "{st:?}, {n} tombstones"
        );
        if guard {
            assert!(burned.is_empty());
        }
        assert!(
            is_contiguous(
                stored.keys().copied().chain(burned.iter().copied()),
                2000 + n
            ),
            "guard={guard}: no holes"
        );
        assert!(st.store_errors > 0);
        eprintln!(
            "guard={guard}: injected {:?}, stats {st:?}",
            a.store().injected()
        );
    }
    Ok(())
}

#[test]
fn ambiguous_commits_with_the_guard_resolve_exactly() -> Result<(), AllocError> {
    // Every 4th write is applied and then reported as failed.
    let store = Flaky::new(yielding()).after(Schedule::Every(4), Writes::All);
    let a = Allocator::new(store, quick(config(Format::Hex).with_guard(true)))?;
    let (ok, amb) = hammer(&a, 250);
    assert!(amb.is_empty(), "the guard resolves every ambiguous write");
    let stored = rows(&a);
    check_unique_and_stored(&stored, &ok);
    // No orphan row: the rows are exactly the IDs handed out.
    assert_eq!(
        stored.keys().copied().collect::<BTreeSet<_>>(),
        ok.iter().map(|r| r.0).collect()
    );
    assert_eq!(stored.len(), 2000);
    let lowest = *stored.keys().next().expect("rows");
    let holes = u64::MAX - lowest + 1 - 2000;
    let st = a.stats();
    assert!(st.ambiguous > 0);
    eprintln!("ambiguous writes, guard on: {holes} holes (skipped IDs), stats {st:?}");
    Ok(())
}

#[test]
fn an_ambiguous_cas_of_one_client_leaves_no_hole() -> Result<(), AllocError> {
    // One client: an applied-but-failed CAS is recognised by its token.
    let store = Flaky::new(yielding()).after(Schedule::Every(2), Writes::Cas);
    let a = Allocator::new(store, quick(config(Format::Base64).with_guard(true)))?;
    let ids: Vec<u64> = (0..100).map(|i| a.insert(&[i])).collect::<Result<_, _>>()?;
    assert_eq!(ids, (0..100).map(|i| u64::MAX - i).collect::<Vec<_>>());
    assert_eq!(a.stats().ambiguous, 50);
    Ok(())
}

#[test]
fn ambiguous_commits_without_the_guard_are_reported_or_claimed() -> Result<(), AllocError> {
    // Default: a row holding our value after an ambiguous write is reported.
    let store = Flaky::new(yielding()).after(Schedule::Every(4), Writes::All);
    let a = Allocator::new(store, quick(config(Format::Hex)))?;
    let (ok, amb) = hammer(&a, 250);
    assert!(!amb.is_empty());
    let stored = rows(&a);
    check_unique_and_stored(&stored, &ok);
    // An Ambiguous ID is no one else's: it holds this caller's value.
    let mut all: Vec<(u64, Vec<u8>)> = ok.clone();
    all.extend(amb.iter().cloned());
    check_unique_and_stored(&stored, &all);
    assert_eq!(
        stored.len(),
        2000,
        "every call's value is stored exactly once"
    );
    assert!(is_contiguous(stored.keys().copied(), 2000));
    eprintln!(
        "ambiguous writes, guard off: {} Ok, {} Ambiguous",
        ok.len(),
        amb.len()
    );

    // With unique values the allocator may claim them.
    let store = Flaky::new(yielding()).after(Schedule::Every(4), Writes::All);
    let cfg = quick(config(Format::Hex)).with_assume_unique_values(true);
    let a = Allocator::new(store, cfg)?;
    let (ok, amb) = hammer(&a, 250);
    assert!(amb.is_empty());
    let stored = rows(&a);
    check_unique_and_stored(&stored, &ok);
    assert_eq!(stored.len(), 2000);
    assert!(is_contiguous(stored.keys().copied(), 2000));
    assert!(a.stats().ambiguous > 0);
    Ok(())
}

#[test]
fn identical_values_and_an_ambiguous_write_never_give_one_id_to_two_callers(
) -> Result<(), AllocError> {
    // Every client inserts the same bytes, so a re-read cannot tell whose
    // row it is: without assume_unique_values that must be Ambiguous, never
    // a second Ok for the same ID.
    let store = Flaky::new(yielding()).after(Schedule::Every(3), Writes::All);
    let a = Allocator::new(store, quick(config(Format::Hex)))?;
    let out: Vec<Result<u64, AllocError>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..8)
            .map(|_| s.spawn(|| (0..200).map(|_| a.insert(b"same")).collect::<Vec<_>>()))
            .collect();
        hs.into_iter()
            .flat_map(|h| h.join().expect("thread"))
            .collect()
    });
    let mut ids = BTreeSet::new();
    for r in out {
        match r {
            Ok(id) => assert!(ids.insert(id), "ID {id} given to two callers"),
            Err(AllocError::Ambiguous { .. }) => {}
            Err(e) => panic!("{e}"),
        }
    }
    Ok(())
}

#[test]
fn error_storms() -> Result<(), AllocError> {
    // Every call fails before reaching the store (an outage): each insert
    // gives up after max_attempts with the store's error, not Contention
    // (no other client won anything), and writes nothing.
    for guard in [false, true] {
        let store = Flaky::new(MemStore::new()).before(Schedule::Every(1));
        let cfg = quick(config(Format::Hex).with_guard(guard).with_max_attempts(5));
        let a = Allocator::new(store, cfg)?;
        for _ in 0..3 {
            match a.insert(b"lost") {
                Err(AllocError::Store(e)) => {
                    assert_eq!(e.store, "flaky", "guard={guard}: {e}");
                    assert_eq!(
                        e.message,
                        "injected failure before the call (not applied) \
                         (gave up after 5 attempts, the store failing)",
                        "guard={guard}"
                    );
                }
                other => panic!("guard={guard}: expected the store's error, got {other:?}"),
            }
        }
        assert_eq!(a.store().injected().passed, 0);
        assert!(a.store().inner().scan(&KeyRange::all(), 10)?.is_empty());
    }
    // Every write is applied and then reported as failed (every answer
    // lost): with the guard, or with unique values, every insert still
    // succeeds, exactly, contiguously; without either, every insert says
    // Ambiguous with the ID whose row holds its value.
    for (guard, unique) in [(true, false), (false, true), (false, false)] {
        let store = Flaky::new(MemStore::new()).after(Schedule::Every(1), Writes::All);
        let cfg = quick(config(Format::Hex))
            .with_guard(guard)
            .with_assume_unique_values(unique);
        let a = Allocator::new(store, cfg)?;
        for i in 0..20u8 {
            let want = u64::MAX - u64::from(i);
            match a.insert(&[i]) {
                Ok(id) if guard || unique => assert_eq!(id, want),
                Err(AllocError::Ambiguous { id, .. }) if !guard && !unique => {
                    assert_eq!(id, want);
                }
                other => panic!("guard={guard} unique={unique}: got {other:?}"),
            }
            assert_eq!(a.get_row(want)?, Some(vec![i]));
        }
        assert_eq!(rows(&a).len(), 20);
    }
    Ok(())
}

#[test]
fn a_client_killed_before_its_put() -> Result<(), AllocError> {
    for guard in [false, true] {
        let store = Arc::new(MemStore::new());
        let healthy = Allocator::new(Arc::clone(&store), config(Format::Hex).with_guard(guard))?;
        let doomed_store = Crash {
            inner: Arc::clone(&store),
            armed: AtomicBool::new(false),
        };
        let doomed = Allocator::new(doomed_store, config(Format::Hex).with_guard(guard))?;
        assert_eq!(healthy.insert(b"a")?, u64::MAX);
        doomed.store().armed.store(true, Ordering::SeqCst);
        let died = std::thread::scope(|s| s.spawn(|| doomed.insert(b"lost")).join().is_err());
        assert!(died);
        let next = healthy.insert(b"b")?;
        if guard {
            // Reserved by the dead client: skipped forever, never reused.
            assert_eq!(next, u64::MAX - 2, "the dead client's ID is a hole");
            assert_eq!(healthy.get_row(u64::MAX - 1)?, None);
        } else {
            // It wrote nothing: the ID is simply taken by the next client.
            assert_eq!(next, u64::MAX - 1);
        }
        let stored = rows(&healthy);
        assert_eq!(stored.len(), 2);
        assert!(stored.values().all(|v| v != b"lost"));
    }
    // A hole at the start key: oldest() searches instead.
    let store = Arc::new(MemStore::new());
    let doomed_store = Crash {
        inner: Arc::clone(&store),
        armed: AtomicBool::new(true),
    };
    let doomed = Allocator::new(doomed_store, config(Format::Binary).with_guard(true))?;
    let died = std::thread::scope(|s| s.spawn(|| doomed.insert(b"lost")).join().is_err());
    assert!(died);
    let healthy = Allocator::new(Arc::clone(&store), config(Format::Binary).with_guard(true))?;
    assert_eq!(healthy.insert(b"first real row")?, u64::MAX - 1);
    assert_eq!(
        healthy.oldest()?,
        Some((u64::MAX - 1, b"first real row".to_vec()))
    );
    Ok(())
}

trait GetRow {
    fn get_row(&self, id: u64) -> Result<Option<Vec<u8>>, AllocError>;
}

impl<S: Store> GetRow for Allocator<S> {
    fn get_row(&self, id: u64) -> Result<Option<Vec<u8>>, AllocError> {
        Ok(self.store().get(&self.key(id))?)
    }
}

// ---------------------------------------------------------------------------
// Random interleavings of insert and delete (two clients)

#[derive(Debug, Clone)]
enum Op {
    Insert(usize),
    DeleteNewest,
    DeleteOldest,
    Delete(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..2usize).prop_map(Op::Insert),
        2 => Just(Op::DeleteNewest),
        1 => Just(Op::DeleteOldest),
        1 => any::<usize>().prop_map(Op::Delete),
    ]
}

fn format() -> impl Strategy<Value = Format> {
    prop::sample::select(Format::ALL.to_vec())
}

fn two_clients(format: Format, guard: bool) -> [Allocator<Arc<MemStore>>; 2] {
    let store = Arc::new(MemStore::new());
    let cfg = config(format).with_guard(guard).with_start(10_000);
    [
        Allocator::new(Arc::clone(&store), cfg.clone()).expect("config"),
        Allocator::new(store, cfg).expect("config"),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// Guard on: every new ID is below every ID ever handed out, whatever
    /// was deleted in between and by whichever client.
    #[test]
    fn guard_ids_only_go_down(format in format(), ops in prop::collection::vec(op(), 1..60)) {
        let clients = two_clients(format, true);
        let mut live: BTreeSet<u64> = BTreeSet::new();
        let mut lowest: Option<u64> = None;
        for op in ops {
            match op {
                Op::Insert(c) => {
                    let id = clients[c].insert(b"v").map_err(|e| TestCaseError::fail(e.to_string()))?;
                    prop_assert!(lowest.is_none_or(|l| id < l), "{} not below {:?}", id, lowest);
                    prop_assert_eq!(id, lowest.map_or(10_000, |l| l - 1), "no holes without faults");
                    lowest = Some(id);
                    live.insert(id);
                }
                Op::DeleteNewest => if let Some(id) = live.pop_first() {
                    prop_assert!(clients[0].delete(id).unwrap());
                },
                Op::DeleteOldest => if let Some(id) = live.pop_last() {
                    prop_assert!(clients[1].delete(id).unwrap());
                },
                Op::Delete(i) => if !live.is_empty() {
                    let id = *live.iter().nth(i % live.len()).unwrap();
                    live.remove(&id);
                    prop_assert!(clients[0].delete(id).unwrap());
                },
            }
            let stored: BTreeSet<u64> = rows(&clients[1]).into_keys().collect();
            prop_assert_eq!(&stored, &live);
        }
    }

    /// Guard off: a new ID is one below the newest live row (so a deleted
    /// newest ID comes back), or the start ID in an empty table.
    #[test]
    fn plain_ids_follow_the_newest_live_row(format in format(), ops in prop::collection::vec(op(), 1..60)) {
        let clients = two_clients(format, false);
        let mut live: BTreeSet<u64> = BTreeSet::new();
        for op in ops {
            match op {
                Op::Insert(c) => {
                    let id = clients[c].insert(b"v").map_err(|e| TestCaseError::fail(e.to_string()))?;
                    let want = live.first().map_or(10_000, |n| n - 1);
                    prop_assert_eq!(id, want);
                    prop_assert!(live.insert(id), "duplicate live ID {}", id);
                }
                Op::DeleteNewest => if let Some(id) = live.pop_first() {
                    prop_assert!(clients[1].delete(id).unwrap());
                },
                Op::DeleteOldest => if let Some(id) = live.pop_last() {
                    prop_assert!(clients[0].delete(id).unwrap());
                },
                Op::Delete(i) => if !live.is_empty() {
                    let id = *live.iter().nth(i % live.len()).unwrap();
                    live.remove(&id);
                    prop_assert!(clients[1].delete(id).unwrap());
                },
            }
        }
        let stored: BTreeSet<u64> = rows(&clients[0]).into_keys().collect();
        prop_assert_eq!(stored, live);
    }
}

// ---------------------------------------------------------------------------
// last_key against a reverse-scan oracle

/// The oracle: a reverse scan.
fn oracle(keys: &BTreeSet<Vec<u8>>, range: &KeyRange) -> Option<Vec<u8>> {
    if range.is_empty() {
        return None;
    }
    keys.range::<[u8], _>(btree_bounds(range))
        .next_back()
        .cloned()
}

fn check_last_key(keys: &BTreeSet<Vec<u8>>, range: &KeyRange) -> Result<(), TestCaseError> {
    let store = Counting {
        inner: MemStore::new(),
        probes: AtomicU64::new(0),
    };
    for k in keys {
        prop_assert!(store.inner.put_if_absent(k, b"").unwrap());
    }
    let got = last_key(&store, range).unwrap();
    let want = oracle(keys, range);
    prop_assert_eq!(&got, &want, "range {:?}", range);
    let probes = store.probes.load(Ordering::Relaxed);
    let bound = 1 + 9 * (want.map_or(0, |k| k.len() as u64 + 1));
    prop_assert!(probes <= bound, "{} probes > bound {}", probes, bound);
    Ok(())
}

/// Keys over an edge-heavy alphabet, so that they share prefixes, contain
/// 0x00 and 0xFF, and are prefixes of one another.
fn edge_key() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            3 => prop::sample::select(vec![0x00u8, 0x01, 0x7F, 0x80, 0xFE, 0xFF]),
            1 => any::<u8>(),
        ],
        0..6,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: size::cases(3000), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn last_key_matches_a_reverse_scan(
        keys in prop::collection::btree_set(edge_key(), 0..40),
        start in prop::option::of(edge_key()),
        end in prop::option::of(edge_key()),
    ) {
        check_last_key(&keys, &KeyRange { start, end })?;
    }

    #[test]
    fn last_key_of_a_prefix(keys in prop::collection::btree_set(edge_key(), 0..40), p in edge_key()) {
        check_last_key(&keys, &KeyRange::prefix(&p))?;
    }
}

#[test]
fn last_key_edge_cases() {
    let set = |ks: &[&[u8]]| ks.iter().map(|k| k.to_vec()).collect::<BTreeSet<_>>();
    let cases: Vec<(BTreeSet<Vec<u8>>, KeyRange)> = vec![
        (set(&[]), KeyRange::all()),
        (set(&[b""]), KeyRange::all()),
        (set(&[b"", b"\x00"]), KeyRange::all()),
        (
            set(&[b"\xFF", b"\xFF\xFF", b"\xFF\xFF\xFF"]),
            KeyRange::all(),
        ),
        (
            set(&[b"\xFF", b"\xFF\xFF", b"\xFF\xFF\xFF"]),
            KeyRange::prefix(b"\xFF\xFF"),
        ),
        (
            set(&[b"a", b"a\x00", b"a\x00\x00", b"b"]),
            KeyRange::prefix(b"a"),
        ),
        (
            set(&[b"a", b"a\x00", b"a\xFF", b"a\xFF\x00"]),
            KeyRange::new(None, Some(b"a\xFF".to_vec())).unwrap(),
        ),
        (
            set(&[b"ab", b"abc", b"abd"]),
            KeyRange::new(Some(b"abc".to_vec()), Some(b"abd".to_vec())).unwrap(),
        ),
        (
            set(&[b"x\x00\x00\x00", b"x\x00\x00"]),
            KeyRange::prefix(b"x"),
        ),
    ];
    for (keys, range) in cases {
        check_last_key(&keys, &range).unwrap();
    }
}

#[test]
fn last_key_of_a_long_key_stays_within_the_probe_bound() {
    let store = Counting {
        inner: MemStore::new(),
        probes: AtomicU64::new(0),
    };
    let long: Vec<u8> = (0..200u32).map(|i| (i * 37 % 256) as u8).collect();
    for cut in [10, 50, 100, 200] {
        assert!(store.inner.put_if_absent(&long[..cut], b"").unwrap());
    }
    assert!(store.inner.put_if_absent(b"\x00", b"").unwrap());
    assert_eq!(
        last_key(&store, &KeyRange::all()).unwrap(),
        Some(long.clone())
    );
    let probes = store.probes.load(Ordering::Relaxed);
    eprintln!(
        "last_key of a 200-byte key among 5: {probes} probes (bound {})",
        1 + 9 * 201
    );
    assert!(probes <= 1 + 9 * 201);
}

#[test]
fn retries_are_counted() -> Result<(), AllocError> {
    let store = Interloper::new();
    let a = Allocator::new(store, quick(config(Format::Hex)).with_max_attempts(2))?;
    let _ = a.insert(b"x");
    let st = a.stats();
    assert_eq!((st.attempts, st.retries, st.conflicts), (2, 1, 2));
    assert!(format!("{a:?}").contains("retries: 1"));
    Ok(())
}

// ---------------------------------------------------------------------------
// Writes delayed past the client's timeout (issue 23)

/// The orphan copy of issue 23, as a partition made it on etcd: the put
/// times out, the read-back finds nothing, then the put lands. Before the
/// fix the call went on to the next ID and the value ended in two rows.
// See: issue 23 ("[exactly-once]"), `scripts/history.sh --store etcd-cluster --faults partition`
#[test]
fn a_put_that_lands_after_the_read_back_leaves_no_orphan_copy() -> Result<(), AllocError> {
    use delayed::{check_held_write, Scenario};
    for guard in [false, true] {
        for land_after in [1, 2, 3] {
            let sc = Scenario {
                guard,
                unique: true,
                land_after: Some(land_after),
                other_at: None,
                rows_before: 1,
            };
            let store = Arc::new(MemStore::new());
            if let Err(m) = check_held_write(Arc::clone(&store), config(Format::Hex), sc) {
                panic!("{m}");
            }
        }
    }
    // The same call, step by step, guard off: the put of row MAX-1 is held,
    // the read-back finds nothing, the held put lands, the tombstone loses,
    // the row is read again: it is this call's.
    let store = Arc::new(MemStore::new());
    let plain = Allocator::new(Arc::clone(&store), config(Format::Hex))?;
    let _ = plain.insert(b"before")?;
    let ranges = plain.ranges().to_vec();
    let d = delayed::Delayed::new(Arc::clone(&store), ranges, Some(1), None);
    let a = Allocator::new(d, config(Format::Hex).with_assume_unique_values(true))?;
    assert_eq!(a.insert(b"mine")?, u64::MAX - 1);
    assert_eq!(a.stats().burned, 0);
    assert_eq!(
        plain.scan(10)?,
        vec![
            (u64::MAX - 1, b"mine".to_vec()),
            (u64::MAX, b"before".to_vec())
        ]
    );
    // Landing one call later, after the tombstone: the late put fails and
    // the value goes to the next ID, once; MAX-1 is burned.
    let store = Arc::new(MemStore::new());
    let plain = Allocator::new(Arc::clone(&store), config(Format::Hex))?;
    let _ = plain.insert(b"before")?;
    let d = delayed::Delayed::new(Arc::clone(&store), plain.ranges().to_vec(), Some(2), None);
    let a = Allocator::new(d, config(Format::Hex))?;
    assert_eq!(a.insert(b"mine")?, u64::MAX - 2);
    assert_eq!(a.store().finish().map_err(AllocError::Store)?, Some(false));
    assert_eq!(a.stats().burned, 1);
    assert_eq!(
        store.get(&plain.key(u64::MAX - 1))?,
        Some(lexikey::store::alloc::BURNED.to_vec())
    );
    assert_eq!(
        plain.scan(10)?,
        vec![
            (u64::MAX - 2, b"mine".to_vec()),
            (u64::MAX, b"before".to_vec())
        ]
    );
    assert_eq!(plain.newest()?, Some((u64::MAX - 2, b"mine".to_vec())));
    Ok(())
}

/// Every timing of a held write (lands after 0..=9 store calls of the
/// call, or after it returned), alone or with another client inserting at
/// every point, guard off and on, unique values or not, empty table or
/// not: exactly once, no lost row, tombstones invisible, burned IDs never
/// handed out (the rules of `check_held_write`).
#[test]
fn held_writes_at_every_point_of_the_call_stay_exactly_once() {
    use delayed::{all_scenarios, check_held_write};
    let mut failures = Vec::new();
    let (mut runs, mut burned, mut landed, mut ambiguous) = (0u32, 0u32, 0u32, 0u32);
    for format in [Format::Hex, Format::Binary] {
        for sc in all_scenarios(9) {
            let store = Arc::new(MemStore::new());
            match check_held_write(store, config(format), sc) {
                Ok(end) => {
                    runs += 1;
                    burned += u32::from(end.burned > 0);
                    landed += u32::from(end.landed);
                    ambiguous += u32::from(!end.ok);
                }
                Err(m) => failures.push(format!("{format:?} {m}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failures.len(),
        runs as usize + failures.len(),
        failures.join("\n")
    );
    // Each path was taken: IDs burned, held writes that landed (on their
    // own ID) and that found a tombstone, calls that said Ambiguous.
    assert!(burned > 0 && landed > 0 && landed < runs && ambiguous > 0);
    eprintln!("{runs} scenarios: {burned} burned an ID, {landed} held writes landed, {ambiguous} Ambiguous");
}

#[test]
fn values_that_look_like_tombstones_are_stored_and_read_as_themselves() -> Result<(), AllocError> {
    use lexikey::store::alloc::{decode_value, encode_value, Stored, BURNED, FRAME};
    let a = Allocator::new(MemStore::new(), config(Format::Hex))?;
    let tricky: Vec<Vec<u8>> = vec![
        BURNED.to_vec(),
        FRAME.to_vec(),
        [FRAME, b"="].concat(),
        [FRAME, b"=", BURNED].concat(),
        [FRAME, b"burned\x00"].concat(),
        b"\xFF".to_vec(),
        Vec::new(),
    ];
    for v in &tricky {
        let id = a.insert(v)?;
        assert_eq!(decode_value(&encode_value(v)), Some(Stored::Value(v)));
        assert_eq!(a.scan(1)?, vec![(id, v.clone())]);
        assert_eq!(a.newest()?, Some((id, v.clone())));
    }
    assert_eq!(a.scan(100)?.len(), tricky.len());
    assert_eq!(a.stats().burned, 0);
    // A framed value that is neither: an error naming the key, never a row.
    let key = a.key(7);
    a.store().put_if_absent(&key, &[FRAME, b"v2:x"].concat())?;
    match a.scan(100) {
        Err(e @ AllocError::CorruptValue { .. }) => assert!(e.to_string().contains("framed")),
        other => panic!("{other:?}"),
    }
    Ok(())
}

proptest! {
    /// encode_value / decode_value: a bijection from values onto the
    /// stored bytes that are not BURNED; values not starting with FRAME
    /// are stored as they are.
    #[test]
    fn value_framing_round_trips(tail in proptest::collection::vec(any::<u8>(), 0..24), framed: bool) {
        use lexikey::store::alloc::{decode_value, encode_value, Stored, BURNED, FRAME};
        let v = if framed { [FRAME, &tail].concat() } else { tail };
        let e = encode_value(&v);
        prop_assert_ne!(&*e, BURNED);
        prop_assert_eq!(decode_value(&e), Some(Stored::Value(&v)));
        if !v.starts_with(FRAME) {
            prop_assert_eq!(&*e, &v[..]);
        }
        if let Some(Stored::Value(x)) = decode_value(&v) {
            prop_assert_eq!(&*encode_value(x), &v[..]);
        }
    }
}

/// Tombstones at the start key and at the newest end: oldest and newest
/// look past them, and a scan of any limit returns that many rows.
#[test]
fn oldest_newest_and_scan_pass_over_tombstones() -> Result<(), AllocError> {
    use lexikey::store::alloc::BURNED;
    let a = Allocator::new(MemStore::new(), config(Format::Decimal))?;
    let s = a.store();
    // IDs MAX, MAX-1 burned; MAX-2..MAX-5 rows; MAX-6 burned; MAX-7 row; MAX-8, MAX-9 burned.
    for i in 0..10u64 {
        let id = u64::MAX - i;
        let v = if [0, 1, 6, 8, 9].contains(&i) {
            BURNED.to_vec()
        } else {
            format!("row {i}").into_bytes()
        };
        assert!(s.put_if_absent(&a.key(id), &v)?);
    }
    assert_eq!(a.newest()?, Some((u64::MAX - 7, b"row 7".to_vec())));
    assert_eq!(a.oldest()?, Some((u64::MAX - 2, b"row 2".to_vec())));
    for limit in 0..8 {
        let got = a.scan(limit)?;
        let want: Vec<u64> = [7u64, 5, 4, 3, 2]
            .iter()
            .map(|i| u64::MAX - i)
            .take(limit)
            .collect();
        assert_eq!(got.iter().map(|r| r.0).collect::<Vec<_>>(), want);
    }
    assert_eq!(a.insert(b"next")?, u64::MAX - 10);
    assert!(!a.delete(u64::MAX - 9)?, "a tombstone is no row");
    assert_eq!(s.get(&a.key(u64::MAX - 9))?, Some(BURNED.to_vec()));
    assert!(a.delete(u64::MAX - 7)?);
    // Only tombstones: no row.
    let b = Allocator::new(MemStore::new(), config(Format::Hex))?;
    for id in [u64::MAX, u64::MAX - 1] {
        assert!(b.store().put_if_absent(&b.key(id), BURNED)?);
    }
    assert_eq!((b.newest()?, b.oldest()?), (None, None));
    assert!(b.scan(5)?.is_empty());
    assert_eq!(b.insert(b"x")?, u64::MAX - 2);
    Ok(())
}
