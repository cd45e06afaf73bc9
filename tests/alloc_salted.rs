//! The salted allocator (issue 28) on `MemStore`: salted and unsalted
//! allocators driven through the same interleavings of concurrent clients
//! (and the same injected faults) hand out the same IDs and leave the same
//! table; the salted row keys, the salt record that refuses another bucket
//! count, merged newest-first reads, and the fault rules over salted rows.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use lexikey::store::alloc::{AllocError, AllocStats, Allocator, AllocatorConfig, Slot, BURNED};
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::store::{Entry, MemStore, Store, StoreError};
use lexikey::{Component, Format, KeyRange};
use proptest::prelude::*;

#[path = "support/flaky.rs"]
mod flaky;
use flaky::{Flaky, Schedule, Writes};

#[path = "support/delayed.rs"]
mod delayed;

fn comments() -> Vec<Component<'static>> {
    vec![Component::asc("comments")]
}

fn config(format: Format) -> AllocatorConfig {
    AllocatorConfig::new(format, &comments())
}

fn salter(n: u8, mode: SaltMode) -> Salter {
    Salter::new(n, mode).expect("1 to 255 buckets")
}

fn salted(format: Format, n: u8) -> AllocatorConfig {
    config(format).with_salt(salter(n, SaltMode::Fast))
}

// ---------------------------------------------------------------------------
// Deterministic interleavings: a scheduler that lets one client's store
// call run at a time, in an order drawn by proptest.

thread_local! {
    /// The client a thread runs (`usize::MAX`: not a client: its calls
    /// pass without a turn).
    static CLIENT: Cell<usize> = const { Cell::new(usize::MAX) };
}

#[derive(Default)]
struct Turns {
    /// Clients blocked at a store call, waiting for their turn.
    waiting: BTreeSet<usize>,
    /// The client whose turn it is (until it takes it).
    granted: Option<usize>,
    /// Clients still running.
    live: usize,
    /// Turns taken so far: the number of the next store call.
    steps: u64,
}

/// One store call at a time, each when the schedule says: a client asks
/// for its turn before each call; when every live client is waiting, the
/// scheduler picks one by the next choice. Between two of its calls a
/// client runs alone, so the whole run is a function of the choices.
struct Scheduler {
    turns: Mutex<Turns>,
    cv: Condvar,
}

const DEADLOCK: Duration = Duration::from_secs(60);

impl Scheduler {
    fn new(clients: usize) -> Self {
        Scheduler {
            turns: Mutex::new(Turns {
                live: clients,
                ..Turns::default()
            }),
            cv: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Turns> {
        self.turns.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for the calling client's turn; returns the call's number.
    fn turn(&self) -> u64 {
        let me = CLIENT.get();
        let mut t = self.lock();
        let _ = t.waiting.insert(me);
        self.cv.notify_all();
        while t.granted != Some(me) {
            let (g, timeout) = self
                .cv
                .wait_timeout(t, DEADLOCK)
                .unwrap_or_else(|p| p.into_inner());
            t = g;
            assert!(!timeout.timed_out(), "client {me} never got its turn");
        }
        t.granted = None;
        let _ = t.waiting.remove(&me);
        t.steps += 1;
        t.steps - 1
    }

    fn finished(&self) {
        let mut t = self.lock();
        t.live -= 1;
        self.cv.notify_all();
    }

    /// Grants turns, choice by choice (then always the first waiting
    /// client), until every client finished.
    fn run(&self, choices: &[u8]) {
        let mut next = choices.iter();
        loop {
            let mut t = self.lock();
            while t.live > 0 && (t.granted.is_some() || t.waiting.len() < t.live) {
                let (g, timeout) = self
                    .cv
                    .wait_timeout(t, DEADLOCK)
                    .unwrap_or_else(|p| p.into_inner());
                t = g;
                assert!(!timeout.timed_out(), "the clients stopped asking for turns");
            }
            if t.live == 0 {
                return;
            }
            let pick = usize::from(next.next().copied().unwrap_or(0)) % t.waiting.len();
            t.granted = t.waiting.iter().nth(pick).copied();
            self.cv.notify_all();
        }
    }
}

/// Marks its client finished when dropped (also when the client panics).
struct Finished<'a>(&'a Scheduler);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.finished();
    }
}

/// A `MemStore` whose calls from client threads take turns
/// ([`Scheduler`]); call number `k` fails before reaching the store when
/// `before` holds `k`, and a write that `after` holds is applied and then
/// reported as failed. The salt record's calls pass without a turn: only
/// salted clients make them (once, writing the record), and the runs of
/// both modes must make the same calls.
struct Stepped {
    inner: Arc<MemStore>,
    sched: Arc<Scheduler>,
    record: Vec<u8>,
    before: BTreeSet<u64>,
    after: BTreeSet<u64>,
}

impl Stepped {
    /// The call's turn: `Ok(Some(k))` for call `k`, `Ok(None)` without a
    /// turn, `Err` when `k` fails before the call.
    fn turn(&self, key: Option<&[u8]>) -> Result<Option<u64>, StoreError> {
        if CLIENT.get() == usize::MAX || key == Some(&self.record[..]) {
            return Ok(None);
        }
        let k = self.sched.turn();
        if self.before.contains(&k) {
            return Err(StoreError::transient("stepped", "failed before the call"));
        }
        Ok(Some(k))
    }

    fn answer<T>(&self, k: Option<u64>, r: Result<T, StoreError>) -> Result<T, StoreError> {
        match k {
            Some(k) if r.is_ok() && self.after.contains(&k) => Err(StoreError::transient(
                "stepped",
                "failed after the call (applied)",
            )),
            _ => r,
        }
    }
}

impl Store for Stepped {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        self.turn(None)?;
        self.inner.first_key(range)
    }
    fn first_keys(&self, ranges: &[KeyRange]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        // One call, as on the adapters that batch (and one snapshot).
        self.turn(None)?;
        self.inner.first_keys(ranges)
    }
    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        let k = self.turn(Some(key))?;
        self.answer(k, self.inner.put_if_absent(key, value))
    }
    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        let k = self.turn(Some(key))?;
        self.answer(k, self.inner.compare_and_swap(key, expected, new))
    }
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.turn(Some(key))?;
        self.inner.get(key)
    }
    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.turn(None)?;
        self.inner.scan(range, limit)
    }
    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        let k = self.turn(Some(key))?;
        self.answer(k, self.inner.delete(key))
    }
}

/// What a run ended in, comparable between the two modes.
#[derive(Debug, PartialEq, Eq)]
struct Ending {
    /// Per client, per insert: `ok ID`, `ambiguous ID`, or the error's kind.
    results: Vec<Vec<String>>,
    /// Per client.
    stats: Vec<AllocStats>,
    /// The table as the allocator reads it.
    rows: Vec<(u64, Vec<u8>)>,
    /// `scan(k)` for a few `k`, and the IDs of `entries` (rows, burned).
    scans: Vec<Vec<(u64, Vec<u8>)>>,
    entries: Vec<(u64, bool)>,
    newest: Option<(u64, Vec<u8>)>,
    oldest: Option<(u64, Vec<u8>)>,
}

fn kind(r: &Result<u64, AllocError>) -> String {
    match r {
        Ok(id) => format!("ok {id}"),
        Err(AllocError::Ambiguous { id, .. }) => format!("ambiguous {id}"),
        Err(AllocError::Contention { .. }) => "contention".into(),
        // Gave up while the store was failing.
        Err(AllocError::Store(e)) if e.retryable => "store failing".into(),
        Err(AllocError::Exhausted { .. }) => "exhausted".into(),
        Err(e) => panic!("unexpected error: {e}"),
    }
}

#[derive(Debug, Clone)]
struct Run {
    format: Format,
    guard: bool,
    unique: bool,
    floor: u64,
    /// Inserts per client.
    clients: Vec<usize>,
    choices: Vec<u8>,
    before: BTreeSet<u64>,
    after: BTreeSet<u64>,
}

const START: u64 = 1000;

fn run(r: &Run, salt: Option<Salter>) -> Ending {
    let mut config = config(r.format)
        .with_start(START)
        .with_floor(r.floor)
        .with_guard(r.guard)
        .with_assume_unique_values(r.unique)
        .with_max_attempts(6)
        .with_backoff(Duration::ZERO, Duration::ZERO);
    if let Some(s) = salt {
        config = config.with_salt(s);
    }
    let inner = Arc::new(MemStore::new());
    let sched = Arc::new(Scheduler::new(r.clients.len()));
    // The record's key: one allocator on the bare store tells it.
    let record = Allocator::new(Arc::clone(&inner), config.clone())
        .expect("config")
        .salt_record_key()
        .to_vec();
    let store = Arc::new(Stepped {
        inner: Arc::clone(&inner),
        sched: Arc::clone(&sched),
        record,
        before: r.before.clone(),
        after: r.after.clone(),
    });
    let allocs: Vec<_> = r
        .clients
        .iter()
        .map(|_| Allocator::new(Arc::clone(&store), config.clone()).expect("config"))
        .collect();
    let (results, stats): (Vec<_>, Vec<_>) = std::thread::scope(|s| {
        let handles: Vec<_> = allocs
            .iter()
            .zip(&r.clients)
            .enumerate()
            .map(|(c, (a, &n))| {
                let sched = &*sched;
                s.spawn(move || {
                    CLIENT.set(c);
                    let _done = Finished(sched);
                    let out: Vec<String> = (0..n)
                        .map(|i| kind(&a.insert(format!("c{c} i{i}").as_bytes())))
                        .collect();
                    (out, a.stats())
                })
            })
            .collect();
        sched.run(&r.choices);
        handles
            .into_iter()
            .map(|h| h.join().expect("client"))
            .unzip()
    });
    let reader = Allocator::new(Arc::clone(&inner), config).expect("config");
    let n = r.clients.iter().sum::<usize>();
    Ending {
        results,
        stats,
        rows: reader.scan(usize::MAX).expect("scan"),
        scans: [0, 1, 2, 3, n / 2, n + 1]
            .iter()
            .map(|&k| reader.scan(k).expect("scan"))
            .collect(),
        entries: reader
            .entries(None, usize::MAX)
            .expect("entries")
            .into_iter()
            .map(|s| (s.id(), matches!(s, Slot::Burned { .. })))
            .collect(),
        newest: reader.newest().expect("newest"),
        oldest: reader.oldest().expect("oldest"),
    }
}

fn a_run() -> impl Strategy<Value = Run> {
    (
        prop::sample::select(Format::ALL.to_vec()),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![3 => Just(0u64), 1 => (START - 12)..=START],
        prop::collection::vec(1..6usize, 1..5),
        prop::collection::vec(any::<u8>(), 0..200),
        prop_oneof![
            2 => Just((BTreeSet::new(), BTreeSet::new())),
            1 => (
                prop::collection::btree_set(0..120u64, 0..12),
                prop::collection::btree_set(0..120u64, 0..12),
            ),
        ],
    )
        .prop_map(
            |(format, guard, unique, floor, clients, choices, (before, after))| Run {
                format,
                guard,
                unique,
                floor,
                clients,
                choices,
                before,
                after,
            },
        )
}

fn a_salter() -> impl Strategy<Value = Salter> {
    (
        prop_oneof![4 => 1..=16u8, 1 => 17..=255u8],
        prop_oneof![Just(SaltMode::Fast), Just(SaltMode::Phoenix)],
    )
        .prop_map(|(n, mode)| salter(n, mode))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// The same interleaving of concurrent inserts — each client's store
    /// calls in the same order, the same calls failing before or after
    /// they apply — gives the same IDs, errors and counters, and the same
    /// table read the same way (scans of every size, newest, oldest, burned
    /// IDs), salted or not: salting moves rows, never changes an answer.
    #[test]
    fn salted_and_unsalted_hand_out_the_same_ids(r in a_run(), salt in a_salter()) {
        let plain = run(&r, None);
        let salted = run(&r, Some(salt));
        prop_assert_eq!(&salted, &plain, "{:?} salted {:?}", r, salt);
        // And the run means something: IDs unique among the acknowledged.
        let mut seen = BTreeSet::new();
        for result in plain.results.iter().flatten() {
            if let Some(id) = result.strip_prefix("ok ") {
                prop_assert!(seen.insert(id.to_string()), "{} twice", id);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Keys and the salt record

#[test]
fn row_keys_are_the_salt_then_the_unsalted_key_in_every_format() -> Result<(), AllocError> {
    for format in Format::ALL {
        for mode in [SaltMode::Fast, SaltMode::Phoenix] {
            let s = salter(8, mode).for_format(format);
            let plain = Allocator::new(MemStore::new(), config(format))?;
            let a = Allocator::new(MemStore::new(), config(format).with_salt(s))?;
            assert_eq!(a.ranges().len(), 8);
            assert_eq!(a.ranges(), &s.ranges(plain.range())[..]);
            let mut buckets = BTreeSet::new();
            for id in (0..64).chain(u64::MAX - 64..=u64::MAX) {
                let key = a.key(id);
                let unsalted = plain.key(id);
                assert_eq!(key, s.salted_key(&unsalted), "{format:?} {id}");
                assert_eq!(a.decode_id(&key)?, id);
                let _ = buckets.insert(s.bucket(&unsalted));
                // The unsalted key is no row of the salted table, and the
                // salted key none of the unsalted one.
                assert!(a.decode_id(&unsalted).is_err());
                assert!(plain.decode_id(&key).is_err());
            }
            assert_eq!(buckets.len(), 8, "{format:?} {mode:?}: every bucket used");
            assert_eq!(a.start_key(), &a.key(u64::MAX)[..]);
        }
    }
    // Text salts are printable: two hex digits and '#'.
    let a = Allocator::new(MemStore::new(), salted(Format::Hex, 16))?;
    let k = a.key(u64::MAX);
    assert_eq!(&k[2..], b"#comments#uFFFFFFFFFFFFFFFF");
    Ok(())
}

#[test]
fn a_key_under_another_bucket_is_corrupt_and_named() -> Result<(), AllocError> {
    let a = Allocator::new(MemStore::new(), salted(Format::Hex, 4))?;
    let key = a.key(7);
    let bucket = key[1] - b'0';
    let mut moved = key.clone();
    moved[1] = b'0' + (bucket + 1) % 4;
    match a.decode_id(&moved) {
        Err(e @ AllocError::Corrupt { .. }) => {
            assert!(e.to_string().contains("not the key's bucket"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        a.decode_id(b"04#comments#u0000000000000007"),
        Err(AllocError::NotInTable { .. })
    ));
    // Foreign data in a bucket stops the allocator, never a guessed ID.
    assert!(a.store().put_if_absent(&moved, b"x")?);
    assert!(matches!(a.insert(b"v"), Err(AllocError::Corrupt { .. })));
    Ok(())
}

#[test]
fn the_first_insert_writes_the_salt_record_and_opening_writes_nothing() -> Result<(), AllocError> {
    let store = Arc::new(MemStore::new());
    let a = Allocator::new(Arc::clone(&store), salted(Format::Hex, 16))?;
    assert_eq!(a.salt_record_key(), b"comments#!salt");
    assert!(
        store.scan(&KeyRange::all(), 10)?.is_empty(),
        "nothing written"
    );
    assert_eq!((a.newest()?, a.oldest()?), (None, None));
    assert!(a.scan(10)?.is_empty());
    assert_eq!(a.insert(b"first")?, u64::MAX);
    assert_eq!(
        store.get(b"comments#!salt")?,
        Some(b"buckets=16 mode=fast".to_vec())
    );
    // Binary: enc(P) + "!salt".
    let b = Allocator::new(MemStore::new(), salted(Format::Binary, 3))?;
    assert_eq!(b.salt_record_key(), b"comments\x00\x01!salt");
    let _ = b.insert(b"x")?;
    assert_eq!(
        b.store().get(b"comments\x00\x01!salt")?,
        Some(b"buckets=3 mode=fast".to_vec())
    );
    Ok(())
}

#[test]
fn a_salted_table_refuses_another_salt_and_no_salt() -> Result<(), AllocError> {
    let store = Arc::new(MemStore::new());
    let a = Allocator::new(Arc::clone(&store), salted(Format::Hex, 16))?;
    let id = a.insert(b"first")?;
    // Other buckets, another hash: refused at opening.
    for (n, mode, opened) in [
        (4, SaltMode::Fast, "with 4 salt buckets (fast hash)"),
        (16, SaltMode::Phoenix, "with 16 salt buckets (phoenix hash)"),
    ] {
        let c = config(Format::Hex).with_salt(salter(n, mode));
        match Allocator::new(Arc::clone(&store), c) {
            Err(e @ AllocError::SaltMismatch { .. }) => assert_eq!(
                e.to_string(),
                format!(
                    "the table is salted with 16 buckets (fast hash), as its salt record \
                     comments#!salt says, but was opened {opened}: open it with 16 salt buckets \
                     and the fast hash (every client of a table must use the same salt)"
                )
            ),
            other => panic!("{other:?}"),
        }
    }
    // No salt: the record is the first key of the unsalted range, met by
    // the first read of every operation.
    let plain = Allocator::new(Arc::clone(&store), config(Format::Hex))?;
    let no_salt = "the table is salted with 16 buckets (fast hash), as its salt record \
                   comments#!salt says, but was opened without salt";
    for r in [
        plain.insert(b"x").map(|_| ()),
        plain.scan(5).map(|_| ()),
        plain.newest().map(|_| ()),
        plain.oldest().map(|_| ()),
    ] {
        match r {
            Err(e @ AllocError::SaltMismatch { client: None, .. }) => {
                assert!(e.to_string().starts_with(no_salt), "{e}")
            }
            other => panic!("{other:?}"),
        }
    }
    // Guarded and unsalted: the first insert falls back to the first row.
    let guarded = Allocator::new(Arc::clone(&store), config(Format::Hex).with_guard(true))?;
    assert!(matches!(
        guarded.insert(b"x"),
        Err(AllocError::SaltMismatch { .. })
    ));
    // Nothing was written by the refused clients.
    assert_eq!(a.scan(10)?, vec![(id, b"first".to_vec())]);
    assert_eq!(store.scan(&KeyRange::all(), 10)?.len(), 2);
    Ok(())
}

#[test]
fn an_unsalted_table_refuses_salt() -> Result<(), AllocError> {
    let store = Arc::new(MemStore::new());
    let plain = Allocator::new(Arc::clone(&store), config(Format::Decimal))?;
    let _ = plain.insert(b"row")?;
    match Allocator::new(Arc::clone(&store), salted(Format::Decimal, 4)) {
        Err(e @ AllocError::NotSalted { .. }) => assert_eq!(
            e.to_string(),
            "the table already holds keys written without salt (e.g. \
             comments#18446744073709551615): it is an unsalted table, open it without salt buckets"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        store.scan(&KeyRange::all(), 10)?.len(),
        1,
        "nothing written"
    );
    Ok(())
}

#[test]
fn a_salt_record_that_is_no_record_is_reported() -> Result<(), AllocError> {
    for bad in [
        &b"buckets=16"[..],
        b"buckets=016 mode=fast",
        b"buckets=0 mode=fast",
        b"buckets=256 mode=fast",
        b"buckets=4 mode=slow",
        b"buckets=4 mode=fast ",
        b"",
        b"\xFF",
    ] {
        let store = MemStore::new();
        assert!(store.put_if_absent(b"comments#!salt", bad)?);
        match Allocator::new(store, salted(Format::Hex, 4)) {
            Err(e @ AllocError::CorruptSaltRecord { .. }) => {
                assert!(
                    e.to_string()
                        .starts_with("salt record comments#!salt holds "),
                    "{e}"
                )
            }
            other => panic!("{bad:?}: {other:?}"),
        }
    }
    Ok(())
}

/// Two clients creating one new table at once: both write the record (one
/// wins, the other reads it back), and the second opens it as it is.
#[test]
fn the_record_race_of_two_new_clients() -> Result<(), AllocError> {
    let store = Arc::new(MemStore::new());
    let a = Allocator::new(Arc::clone(&store), salted(Format::Hex, 5))?;
    let b = Allocator::new(Arc::clone(&store), salted(Format::Hex, 5))?;
    let c = Allocator::new(Arc::clone(&store), salted(Format::Hex, 6))?;
    assert_eq!(a.insert(b"a")?, u64::MAX);
    assert_eq!(b.insert(b"b")?, u64::MAX - 1);
    // Opened before the record existed: refused at its first insert.
    assert!(matches!(
        c.insert(b"c"),
        Err(AllocError::SaltMismatch { .. })
    ));
    assert_eq!(a.scan(5)?.len(), 2);
    Ok(())
}

// ---------------------------------------------------------------------------
// Reads

#[test]
fn scans_merge_the_buckets_newest_first_and_page() -> Result<(), AllocError> {
    for n in [1u8, 2, 7, 16, 255] {
        let a = Allocator::new(MemStore::new(), salted(Format::Hex, n).with_start(5000))?;
        for i in 0..300 {
            let _ = a.insert(format!("row {i}").as_bytes())?;
        }
        let all = a.scan(usize::MAX)?;
        let ids: Vec<u64> = all.iter().map(|r| r.0).collect();
        assert_eq!(ids, (4701..=5000).collect::<Vec<_>>(), "{n} buckets");
        for limit in [0, 1, 2, 3, 17, 299, 300, 301] {
            assert_eq!(a.scan(limit)?, all[..limit.min(300)].to_vec());
        }
        // Pages of 7 from any ID read the rest of the table.
        let mut paged = Vec::new();
        let mut after = None;
        loop {
            let page = a.scan_after(after, 7)?;
            paged.extend_from_slice(&page);
            match page.last() {
                Some((id, _)) if page.len() == 7 => after = Some(*id),
                _ => break,
            }
        }
        assert_eq!(paged, all);
        assert_eq!(a.scan_after(Some(4850), 2)?, all[150..152].to_vec());
        assert!(a.scan_after(Some(u64::MAX), 2)?.is_empty());
        assert_eq!(a.newest()?, Some((4701, b"row 299".to_vec())));
        assert_eq!(a.oldest()?, Some((5000, b"row 0".to_vec())));
    }
    Ok(())
}

/// Tombstones at both ends and in between, spread over the buckets:
/// newest, oldest and scans pass over them as unsalted, and a later insert
/// goes below every key.
#[test]
fn oldest_newest_and_scan_pass_over_salted_tombstones() -> Result<(), AllocError> {
    for n in [1u8, 3, 16] {
        let a = Allocator::new(MemStore::new(), salted(Format::Decimal, n))?;
        let s = a.store();
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
            let got: Vec<u64> = a.scan(limit)?.iter().map(|r| r.0).collect();
            let want: Vec<u64> = [7u64, 5, 4, 3, 2]
                .iter()
                .map(|i| u64::MAX - i)
                .take(limit)
                .collect();
            assert_eq!(got, want, "{n} buckets, limit {limit}");
        }
        let entries: Vec<u64> = a.entries(None, 100)?.iter().map(Slot::id).collect();
        assert_eq!(entries, (u64::MAX - 9..=u64::MAX).collect::<Vec<_>>());
        assert_eq!(a.insert(b"next")?, u64::MAX - 10);
        assert!(!a.delete(u64::MAX - 9)?, "a tombstone is no row");
        assert!(a.delete(u64::MAX - 7)?);
        assert_eq!(a.newest()?, Some((u64::MAX - 10, b"next".to_vec())));
    }
    Ok(())
}

#[test]
fn oldest_searches_every_bucket_when_the_start_row_is_gone() -> Result<(), AllocError> {
    let a = Allocator::new(MemStore::new(), salted(Format::Base64, 8).with_start(100))?;
    for i in 0..20 {
        let _ = a.insert(format!("{i}").as_bytes())?;
    }
    for id in [100, 99, 98] {
        assert!(a.delete(id)?);
    }
    assert_eq!(a.oldest()?, Some((97, b"3".to_vec())));
    Ok(())
}

// ---------------------------------------------------------------------------
// The promises of the unsalted allocator, salted

#[test]
fn eight_threads_by_1000_salted_unique_contiguous_newest_first() -> Result<(), AllocError> {
    for (n, guard) in [(16, false), (4, true)] {
        let a = Allocator::new(
            MemStore::new(),
            salted(Format::Hex, n)
                .with_guard(guard)
                .with_max_attempts(10_000)
                .with_backoff(Duration::from_micros(1), Duration::from_micros(200)),
        )?;
        let got: Vec<Vec<(u64, Vec<u8>)>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|t| {
                    let a = &a;
                    s.spawn(move || {
                        (0..1000)
                            .map(|i| {
                                let v = format!("t{t}-{i}").into_bytes();
                                (a.insert(&v).expect("insert"), v)
                            })
                            .collect()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("client"))
                .collect()
        });
        let mut given = BTreeMap::new();
        for client in &got {
            for w in client.windows(2) {
                assert!(w[1].0 < w[0].0, "one client's IDs strictly decrease");
            }
            for (id, v) in client {
                assert!(given.insert(*id, v.clone()).is_none(), "duplicate {id}");
            }
        }
        let rows = a.scan(usize::MAX)?;
        let want: Vec<u64> = (u64::MAX - 7999..=u64::MAX).collect();
        assert_eq!(
            rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            want,
            "newest first, contiguous"
        );
        for (id, v) in &rows {
            assert_eq!(given.get(id), Some(v));
        }
        // The rows are spread: every bucket holds about 1/N of them.
        for (b, r) in a.ranges().iter().enumerate() {
            let held = a.store().scan(r, usize::MAX)?.len();
            let even = 8000 / usize::from(n);
            assert!(
                held > even / 2 && held < even * 2,
                "bucket {b}: {held} of 8000"
            );
        }
    }
    Ok(())
}

#[test]
fn exhaustion_and_floors_hold_salted() -> Result<(), AllocError> {
    for guard in [false, true] {
        let a = Allocator::new(
            MemStore::new(),
            salted(Format::Hex, 4)
                .with_start(12)
                .with_floor(10)
                .with_guard(guard),
        )?;
        assert_eq!(
            [a.insert(b"a")?, a.insert(b"b")?, a.insert(b"c")?],
            [12, 11, 10]
        );
        assert!(matches!(
            a.insert(b"d"),
            Err(AllocError::Exhausted { floor: 10 })
        ));
    }
    Ok(())
}

#[test]
fn guard_on_a_salted_table_never_reuses_a_deleted_newest_id() -> Result<(), AllocError> {
    let a = Allocator::new(MemStore::new(), salted(Format::Hex, 4).with_guard(true))?;
    let first = a.insert(b"a")?;
    let second = a.insert(b"b")?;
    assert!(a.delete(second)?);
    assert_eq!(a.insert(b"c")?, second - 1);
    assert_eq!(a.low_water_mark()?, Some(second - 1));
    assert_eq!(a.newest()?.map(|r| r.0), Some(second - 1));
    assert_eq!(a.oldest()?.map(|r| r.0), Some(first));
    Ok(())
}

/// Retryable errors and ambiguous commits over salted rows, 4 threads:
/// no ID twice, every value in at most one row, IDs contiguous counting
/// burned ones (guard off), as unsalted.
#[test]
fn faults_over_salted_rows_keep_every_rule() -> Result<(), AllocError> {
    for (guard, unique) in [(false, false), (false, true), (true, false)] {
        let inner = Arc::new(MemStore::new());
        let seed = 0xFA17 ^ u64::from(guard) << 1 ^ u64::from(unique);
        let store = Arc::new(
            Flaky::new(Arc::clone(&inner))
                .before(Schedule::Random { one_in: 7, seed })
                .after(
                    Schedule::Random {
                        one_in: 7,
                        seed: !seed,
                    },
                    Writes::All,
                ),
        );
        let c = salted(Format::Hex, 8)
            .with_guard(guard)
            .with_assume_unique_values(unique)
            .with_max_attempts(1000)
            .with_backoff(Duration::from_micros(5), Duration::from_micros(300));
        let outs: Vec<Vec<(bool, u64, Vec<u8>)>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|t| {
                    let store = Arc::clone(&store);
                    let c = c.clone();
                    s.spawn(move || {
                        let a = loop {
                            match Allocator::new(Arc::clone(&store), c.clone()) {
                                Ok(a) => break a,
                                Err(AllocError::Store(e)) if e.retryable => continue,
                                Err(e) => panic!("{e}"),
                            }
                        };
                        (0..200)
                            .map(|i| {
                                let v = format!("t{t} {i}").into_bytes();
                                match a.insert(&v) {
                                    Ok(id) => (true, id, v),
                                    Err(AllocError::Ambiguous { id, .. }) => (false, id, v),
                                    Err(e) => panic!("{e}"),
                                }
                            })
                            .collect()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("client"))
                .collect()
        });
        let reader = Allocator::new(Arc::clone(&inner), c)?;
        let rows: BTreeMap<u64, Vec<u8>> = reader.scan(usize::MAX)?.into_iter().collect();
        let mut ids = BTreeSet::new();
        for (ok, id, v) in outs.iter().flatten() {
            assert!(ids.insert(*id), "ID {id} twice");
            assert_eq!(rows.get(id), Some(v), "row {id} (ok {ok})");
        }
        assert_eq!(rows.len(), 800, "one row per call");
        let values: BTreeSet<&Vec<u8>> = rows.values().collect();
        assert_eq!(values.len(), 800, "no value twice");
        let entries = reader.entries(None, usize::MAX)?;
        let burned = entries
            .iter()
            .filter(|s| matches!(s, Slot::Burned { .. }))
            .count();
        if guard {
            assert_eq!(burned, 0);
        } else {
            let newest = entries.first().map(Slot::id).expect("rows");
            assert_eq!(
                u64::MAX - newest + 1,
                entries.len() as u64,
                "keys contiguous from the start down, counting burned IDs"
            );
        }
        let inj = store.injected();
        assert!(inj.before > 0 && inj.after > 0, "{inj:?}");
    }
    Ok(())
}

/// Writes held past the client's timeout and landing later (issue 23),
/// salted: every scenario of `check_held_write`, in two formats.
#[test]
fn held_writes_stay_exactly_once_salted() {
    let mut failures = Vec::new();
    let mut burned = 0;
    for format in [Format::Hex, Format::Binary] {
        for sc in delayed::all_scenarios(6) {
            let store = Arc::new(MemStore::new());
            match delayed::check_held_write(store, salted(format, 4), sc) {
                Ok(end) => burned += end.burned,
                Err(m) => failures.push(format!("{format:?} {m}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(burned > 0);
}

/// `salt_from_record` (readers, issue 38): without a salt given, a salted
/// table opens with the salt its record names and reads newest first, in
/// every format; an unsalted or new table opens unsalted; a salt given
/// must still match the record; a corrupt record is an error.
#[test]
fn a_reader_takes_the_salt_from_the_record() {
    for format in [Format::Hex, Format::Base64, Format::Decimal, Format::Binary] {
        let store = Arc::new(MemStore::new());
        let w = Allocator::new(
            Arc::clone(&store),
            config(format).with_salt(salter(8, SaltMode::Phoenix)),
        )
        .unwrap();
        for v in [&b"a"[..], b"b", b"c"] {
            let _ = w.insert(v).unwrap();
        }
        let want = w.scan(10).unwrap();
        assert_eq!(want.len(), 3);
        let r = Allocator::new(
            Arc::clone(&store),
            config(format).with_salt_from_record(true),
        )
        .unwrap();
        assert_eq!(
            r.salter().map(|s| (s.buckets(), s.mode())),
            Some((8, SaltMode::Phoenix))
        );
        assert_eq!(r.scan(10).unwrap(), want, "{format:?}");
        // Without the flag: refused, as before.
        let plain = Allocator::new(Arc::clone(&store), config(format)).unwrap();
        assert!(matches!(
            plain.scan(10),
            Err(AllocError::SaltMismatch { .. })
        ));
        // A salt given must be the record's.
        let e = Allocator::new(
            Arc::clone(&store),
            config(format)
                .with_salt(salter(4, SaltMode::Phoenix))
                .with_salt_from_record(true),
        )
        .unwrap_err();
        assert!(
            matches!(
                e,
                AllocError::SaltMismatch {
                    table: (8, SaltMode::Phoenix),
                    ..
                }
            ),
            "{e}"
        );
    }
    // An unsalted table, and a new one: unsalted.
    let store = Arc::new(MemStore::new());
    let w = Allocator::new(Arc::clone(&store), config(Format::Hex)).unwrap();
    let _ = w.insert(b"x").unwrap();
    let r = Allocator::new(
        Arc::clone(&store),
        config(Format::Hex).with_salt_from_record(true),
    )
    .unwrap();
    assert!(r.salter().is_none());
    assert_eq!(r.scan(10).unwrap(), vec![(u64::MAX, b"x".to_vec())]);
    let other =
        AllocatorConfig::new(Format::Hex, &[Component::asc("new")]).with_salt_from_record(true);
    assert!(Allocator::new(Arc::clone(&store), other)
        .unwrap()
        .salter()
        .is_none());
    // A record that is not `buckets=N mode=M`.
    assert!(store
        .put_if_absent(b"comments#!salt", b"buckets=0 mode=fast")
        .unwrap());
    let e = Allocator::new(
        Arc::clone(&store),
        config(Format::Hex).with_salt_from_record(true),
    )
    .unwrap_err();
    assert!(matches!(e, AllocError::CorruptSaltRecord { .. }), "{e}");
}
