//! [`Flaky`]: a [`Store`] wrapper, for tests only, that makes a chosen
//! fraction of calls fail with a retryable [`StoreError`], in two ways:
//!
//! - **before** the call reaches the store: nothing is applied (a refused
//!   connection, a request lost on the way);
//! - **after** a write (`put_if_absent`, `compare_and_swap`, `delete`) was
//!   applied: the store changed, but the caller sees an error — the
//!   *ambiguous commit* of a timeout or a connection lost after the server
//!   committed.
//!
//! One file, two crates, no copy: the core's `tests/alloc.rs` includes it
//! (`#[path = "support/flaky.rs"] mod flaky;`) to run the allocator's fault
//! tests over `MemStore`, and `lexikey-stores`' `tests/conformance.rs`
//! includes the same file to run one allocator fault scenario over every
//! adapter. It depends on nothing but `lexikey`. (`tests/support/` holds no
//! test target of its own: cargo only builds `tests/*.rs`.)

#![allow(dead_code)] // each including test crate uses a different part

use std::sync::atomic::{AtomicU64, Ordering};

use lexikey::store::{Cas, Entry, Store, StoreError};
use lexikey::KeyRange;

/// Which of a sequence of eligible calls fail. Calls are numbered 0, 1, 2, …
/// in the order they reach the wrapper (over all threads); under threads
/// that order varies from run to run, the set of failing numbers does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Schedule {
    /// No call fails.
    Never,
    /// Exactly calls `n−1, 2n−1, …`: one in `n`, strictly periodic.
    Every(u64),
    /// Call `k` fails when a hash of `(seed, k)` is 0 modulo `one_in`: one
    /// in `one_in` on average, scattered, so that the failure does not keep
    /// hitting the same step of a loop that makes a fixed number of calls.
    Random {
        /// The average period.
        one_in: u64,
        /// Picks the failing calls; same seed, same calls.
        seed: u64,
    },
}

impl Schedule {
    fn hits(self, k: u64) -> bool {
        match self {
            Schedule::Never => false,
            Schedule::Every(n) => n > 0 && k % n == n - 1,
            Schedule::Random { one_in, seed } => {
                one_in > 0
                    && splitmix(k.wrapping_add(seed.wrapping_mul(GOLDEN))).is_multiple_of(one_in)
            }
        }
    }
}

/// Which successful writes a [`Flaky`] may report as failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Writes {
    /// `put_if_absent`, `compare_and_swap`, `put_all_if_absent` and
    /// `delete`.
    All,
    /// Only `compare_and_swap`.
    Cas,
    /// Only `put_if_absent` and `put_all_if_absent`.
    Put,
}

/// Counts of injected faults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Injected {
    /// Calls failed before reaching the store.
    pub(crate) before: u64,
    /// Writes applied, then reported as failed.
    pub(crate) after: u64,
    /// Calls that reached the store.
    pub(crate) passed: u64,
}

/// A store that fails some calls (see the module docs). Without
/// [`Flaky::before`] / [`Flaky::after`] it passes every call through.
#[derive(Debug)]
pub(crate) struct Flaky<S> {
    inner: S,
    before: Schedule,
    after: Schedule,
    writes: Writes,
    /// Every call (for `before`).
    calls: AtomicU64,
    /// Eligible writes that the store applied or answered (for `after`).
    answered: AtomicU64,
    injected_before: AtomicU64,
    injected_after: AtomicU64,
    passed: AtomicU64,
}

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function.
pub(crate) fn splitmix(n: u64) -> u64 {
    let mut z = n.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn bump(c: &AtomicU64) {
    let _ = c.fetch_add(1, Ordering::Relaxed);
}

impl<S> Flaky<S> {
    /// A wrapper that injects nothing yet.
    pub(crate) fn new(inner: S) -> Self {
        Flaky {
            inner,
            before: Schedule::Never,
            after: Schedule::Never,
            writes: Writes::All,
            calls: AtomicU64::new(0),
            answered: AtomicU64::new(0),
            injected_before: AtomicU64::new(0),
            injected_after: AtomicU64::new(0),
            passed: AtomicU64::new(0),
        }
    }

    /// Fail the calls of `schedule` (any method) before they reach the store.
    pub(crate) fn before(mut self, schedule: Schedule) -> Self {
        self.before = schedule;
        self
    }

    /// Report the writes of `schedule` (among `writes` that the store
    /// answered without an error) as failed after they were applied.
    pub(crate) fn after(mut self, schedule: Schedule, writes: Writes) -> Self {
        self.after = schedule;
        self.writes = writes;
        self
    }

    /// The wrapped store.
    pub(crate) fn inner(&self) -> &S {
        &self.inner
    }

    /// What was injected so far.
    pub(crate) fn injected(&self) -> Injected {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Injected {
            before: get(&self.injected_before),
            after: get(&self.injected_after),
            passed: get(&self.passed),
        }
    }

    fn gate(&self) -> Result<(), StoreError> {
        let k = self.calls.fetch_add(1, Ordering::Relaxed);
        if self.before.hits(k) {
            bump(&self.injected_before);
            return Err(StoreError::transient(
                "flaky",
                "injected failure before the call (not applied)",
            ));
        }
        bump(&self.passed);
        Ok(())
    }

    fn answer<T>(&self, write: Writes, r: Result<T, StoreError>) -> Result<T, StoreError> {
        let eligible = self.writes == Writes::All || self.writes == write;
        if eligible && r.is_ok() {
            let k = self.answered.fetch_add(1, Ordering::Relaxed);
            if self.after.hits(k) {
                bump(&self.injected_after);
                return Err(StoreError::transient(
                    "flaky",
                    "injected failure after the call (applied)",
                ));
            }
        }
        r
    }
}

impl<S: Store> Store for Flaky<S> {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        self.gate()?;
        self.inner.first_key(range)
    }
    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        self.gate()?;
        self.answer(Writes::Put, self.inner.put_if_absent(key, value))
    }
    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        self.gate()?;
        self.answer(Writes::Cas, self.inner.compare_and_swap(key, expected, new))
    }
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.gate()?;
        self.inner.get(key)
    }
    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.gate()?;
        self.inner.scan(range, limit)
    }
    /// The wrapped store's: a batch fails as one write, all of it applied
    /// or none.
    fn atomic_batches(&self) -> bool {
        self.inner.atomic_batches()
    }
    fn put_all_if_absent(
        &self,
        rows: &[(&[u8], &[u8])],
        cas: Option<Cas<'_>>,
    ) -> Result<bool, StoreError> {
        self.gate()?;
        self.answer(Writes::Put, self.inner.put_all_if_absent(rows, cas))
    }
    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        self.gate()?;
        // Only `Writes::All` covers deletes.
        let r = self.inner.delete(key);
        if self.writes == Writes::All {
            self.answer(Writes::All, r)
        } else {
            r
        }
    }
}
