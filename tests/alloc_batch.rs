//! `Allocator::insert_many` (issue 38): on a store with atomic batches a
//! batch is one read and one `put_all_if_absent`; it hands out exactly the
//! IDs the same values inserted one at a time would get (a property over
//! random operation sequences, guard and salt on and off, exhaustion
//! included); and concurrent batching clients never share an ID, get
//! consecutive IDs within a batch, smaller IDs for later calls, and rows
//! that read back with their values.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use lexikey::store::alloc::{AllocError, Allocator, AllocatorConfig};
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::store::{Cas, Entry, MemStore, Store, StoreError};
use lexikey::{Component, Format, KeyRange};
use proptest::prelude::*;

/// Passes every call to a `MemStore`, counting them by method, yielding
/// the thread around each (so that threads interleave between a read and
/// a write), and saying `atomic_batches` only when `batches`.
#[derive(Default)]
struct Counted {
    inner: MemStore,
    batches: bool,
    reads: AtomicU64,
    puts: AtomicU64,
    cas: AtomicU64,
    batch_writes: AtomicU64,
}

impl Counted {
    fn new(batches: bool) -> Self {
        Counted {
            batches,
            ..Counted::default()
        }
    }
    fn counts(&self) -> [u64; 4] {
        [&self.reads, &self.puts, &self.cas, &self.batch_writes].map(|c| c.load(Ordering::Relaxed))
    }
    fn run<T>(&self, c: &AtomicU64, f: impl FnOnce(&MemStore) -> T) -> T {
        let _ = c.fetch_add(1, Ordering::Relaxed);
        std::thread::yield_now();
        let r = f(&self.inner);
        std::thread::yield_now();
        r
    }
}

impl Store for Counted {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        self.run(&self.reads, |s| s.first_key(range))
    }
    fn first_keys(&self, ranges: &[KeyRange]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        self.run(&self.reads, |s| s.first_keys(ranges))
    }
    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        self.run(&self.puts, |s| s.put_if_absent(key, value))
    }
    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        self.run(&self.cas, |s| s.compare_and_swap(key, expected, new))
    }
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.run(&self.reads, |s| s.get(key))
    }
    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.inner.scan(range, limit)
    }
    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        self.inner.delete(key)
    }
    fn atomic_batches(&self) -> bool {
        self.batches
    }
    fn put_all_if_absent(
        &self,
        rows: &[(&[u8], &[u8])],
        cas: Option<Cas<'_>>,
    ) -> Result<bool, StoreError> {
        assert!(
            self.batches,
            "a batch write on a store without atomic batches"
        );
        self.run(&self.batch_writes, |s| s.put_all_if_absent(rows, cas))
    }
}

fn config(guard: bool, salt: Option<u8>) -> AllocatorConfig {
    let mut c = AllocatorConfig::new(Format::Hex, &[Component::asc("t")])
        .with_guard(guard)
        .with_max_attempts(100_000)
        .with_backoff(Duration::from_micros(20), Duration::from_millis(2));
    if let Some(n) = salt {
        c = c.with_salt(Salter::new(n, SaltMode::Fast).expect("buckets"));
    }
    c
}

fn values(n: usize, tag: &str) -> Vec<Vec<u8>> {
    (0..n).map(|i| format!("{tag} {i}").into_bytes()).collect()
}

/// One batch of 100 is one read (of the newest row, or of the LWM) and one
/// batch write, guard off and on, salted or not; without atomic batches
/// the same call is 100 single inserts with the same IDs.
#[test]
fn a_batch_is_one_read_and_one_write() -> Result<(), AllocError> {
    for (guard, salt) in [
        (false, None),
        (true, None),
        (false, Some(4)),
        (true, Some(4)),
    ] {
        let vs = values(100, "v");
        let batched = Allocator::new(Counted::new(true), config(guard, salt))?;
        let single = Allocator::new(Counted::new(false), config(guard, salt))?;
        let _ = batched.insert(b"first")?;
        let _ = single.insert(b"first")?;
        let before = batched.store().counts();
        let ids = batched.insert_many(&vs)?;
        let after = batched.store().counts();
        let delta: Vec<u64> = after.iter().zip(before).map(|(a, b)| a - b).collect();
        assert_eq!(
            delta,
            [1, 0, 0, 1],
            "guard {guard}, salt {salt:?}: reads, puts, CAS, batches"
        );
        let want: Vec<u64> = (0..100).map(|i| u64::MAX - 1 - i).collect();
        assert_eq!(ids, want);
        let before = single.store().counts();
        assert_eq!(single.insert_many(&vs)?, want);
        let puts = single.store().counts()[1] - before[1];
        assert_eq!(puts, 100, "one put per ID without atomic batches");
        assert_eq!(batched.scan(usize::MAX)?, single.scan(usize::MAX)?);
    }
    Ok(())
}

/// `batch_size` splits a call into commits of that many IDs.
#[test]
fn batch_size_splits_a_call() -> Result<(), AllocError> {
    let a = Allocator::new(Counted::new(true), config(false, None).with_batch_size(7))?;
    let ids = a.insert_many(&values(30, "v"))?;
    assert_eq!(ids, (0..30).map(|i| u64::MAX - i).collect::<Vec<_>>());
    // 7 + 7 + 7 + 7 in batches, the last 2 in one more batch.
    assert_eq!(a.store().counts()[3], 5);
    assert_eq!(a.insert_many::<&[u8]>(&[])?, Vec::<u64>::new());
    Ok(())
}

/// At the floor a batch takes the IDs that are left and the rest of the
/// call fails with `Exhausted`; `insert_many_into` keeps those IDs.
#[test]
fn a_batch_stops_at_the_floor() -> Result<(), AllocError> {
    let a = Allocator::new(
        Counted::new(true),
        config(true, None).with_start(104).with_floor(100),
    )?;
    let mut ids = Vec::new();
    let e = a.insert_many_into(&values(8, "v"), &mut ids).unwrap_err();
    assert!(matches!(e, AllocError::Exhausted { floor: 100 }), "{e}");
    assert_eq!(ids, [104, 103, 102, 101, 100]);
    assert_eq!(a.scan(usize::MAX)?.len(), 5);
    Ok(())
}

#[derive(Debug, Clone)]
enum Op {
    Insert,
    Many(usize),
    DeleteNewest,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => Just(Op::Insert),
        4 => (0usize..12).prop_map(Op::Many),
        1 => Just(Op::DeleteNewest),
    ]
}

/// What one operation gave: IDs, and the error's kind if it failed.
fn apply<S: Store>(a: &Allocator<S>, op: &Op, tag: usize, batched: bool) -> (Vec<u64>, String) {
    let kind = |e: AllocError| {
        format!("{e:?}")
            .split([' ', '(', '{'])
            .next()
            .unwrap_or("")
            .to_string()
    };
    match op {
        Op::Insert => match a.insert(format!("one {tag}").as_bytes()) {
            Ok(id) => (vec![id], String::new()),
            Err(e) => (Vec::new(), kind(e)),
        },
        Op::Many(n) => {
            let vs = values(*n, &format!("many {tag}"));
            let mut ids = Vec::new();
            let r = if batched {
                a.insert_many_into(&vs, &mut ids)
            } else {
                // The reference: one insert per value.
                vs.iter()
                    .try_for_each(|v| a.insert(v).map(|id| ids.push(id)))
            };
            (ids, r.err().map(kind).unwrap_or_default())
        }
        Op::DeleteNewest => match a.newest() {
            Ok(Some((id, _))) => {
                let _ = a.delete(id).expect("delete");
                (vec![id], "delete".into())
            }
            Ok(None) => (Vec::new(), "empty".into()),
            Err(e) => (Vec::new(), kind(e)),
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Batches hand out exactly what single inserts would: the same IDs
    /// for the same values, the same errors (exhaustion at the floor),
    /// and the same table, through deletes of the newest row (reused
    /// without the guard, not with it).
    #[test]
    fn batches_equal_single_inserts(
        ops in proptest::collection::vec(op(), 1..30),
        guard in any::<bool>(),
        salt in prop_oneof![Just(None), (1u8..6).prop_map(Some)],
        batch_size in 1usize..6,
        room in 0u64..80,
    ) {
        let c = config(guard, salt).with_start(1_000).with_floor(1_000 - room).with_batch_size(batch_size);
        let batched = Allocator::new(Counted::new(true), c.clone()).unwrap();
        let single = Allocator::new(Counted::new(false), c).unwrap();
        for (i, op) in ops.iter().enumerate() {
            let got = apply(&batched, op, i, true);
            let want = apply(&single, op, i, false);
            prop_assert_eq!(&got, &want, "op {} {:?}", i, op);
            for w in got.0.windows(2) {
                prop_assert_eq!(w[1] + 1, w[0]);
            }
        }
        prop_assert_eq!(batched.scan(usize::MAX).unwrap(), single.scan(usize::MAX).unwrap());
        prop_assert_eq!(batched.low_water_mark().unwrap(), single.low_water_mark().unwrap());
    }
}

/// 8 threads, each a mix of `insert_many` calls of 0 to 30 values and
/// single inserts, on one table with batches of at most 8: no ID twice,
/// consecutive IDs within a batch (decreasing within a call), each thread's later call below its
/// earlier one, all IDs contiguous from the start, rows read back with
/// their values; guard off and on, salted or not.
#[test]
fn concurrent_batching_clients_keep_the_guarantees() -> Result<(), AllocError> {
    const THREADS: usize = 8;
    const PER_THREAD: usize = 300;
    for (guard, salt) in [
        (false, None),
        (true, None),
        (false, Some(4)),
        (true, Some(3)),
    ] {
        let store = Arc::new(Counted::new(true));
        let c = config(guard, salt).with_start(1_000_000).with_batch_size(8);
        let barrier = Arc::new(Barrier::new(THREADS));
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let a = Allocator::new(Arc::clone(&store), c.clone()).expect("allocator");
                let barrier = Arc::clone(&barrier);
                std::thread::spawn(move || {
                    barrier.wait();
                    let mut calls: Vec<Vec<(u64, Vec<u8>)>> = Vec::new();
                    let mut done = 0;
                    let mut k = t;
                    while done < PER_THREAD {
                        k = (k * 31 + 7) % 31;
                        let n = k.min(PER_THREAD - done);
                        let vs = values(n, &format!("t{t} at {done}"));
                        let ids = if n == 1 {
                            vec![a.insert(&vs[0]).expect("insert")]
                        } else {
                            a.insert_many(&vs).expect("insert_many")
                        };
                        assert_eq!(ids.len(), n);
                        calls.push(ids.into_iter().zip(vs).collect());
                        done += n;
                    }
                    calls
                })
            })
            .collect();
        let mut given = BTreeMap::new();
        for h in handles {
            let mut last = u64::MAX;
            for call in h.join().expect("thread") {
                for w in call.windows(2) {
                    assert!(w[1].0 < w[0].0, "decreasing within a call");
                }
                // Batches of 8, each one commit: consecutive IDs.
                for batch in call.chunks(8) {
                    for w in batch.windows(2) {
                        assert_eq!(w[1].0 + 1, w[0].0, "consecutive within a batch");
                    }
                }
                if let Some(&(first, _)) = call.first() {
                    assert!(first < last, "a later call gets smaller IDs");
                    last = call.last().map_or(last, |r| r.0);
                }
                for (id, v) in call {
                    assert!(given.insert(id, v).is_none(), "ID {id} twice");
                }
            }
        }
        let n = (THREADS * PER_THREAD) as u64;
        let want: Vec<u64> = (1_000_001 - n..=1_000_000).collect();
        assert_eq!(
            given.keys().copied().collect::<Vec<_>>(),
            want,
            "contiguous"
        );
        let reader = Allocator::new(Arc::clone(&store), c)?;
        let rows: BTreeMap<u64, Vec<u8>> = reader.scan(usize::MAX)?.into_iter().collect();
        assert_eq!(rows, given, "guard {guard}, salt {salt:?}: rows read back");
        if guard {
            assert_eq!(reader.low_water_mark()?, Some(1_000_001 - n));
        }
    }
    Ok(())
}
