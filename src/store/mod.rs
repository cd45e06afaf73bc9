//! The store trait: the few primitives the allocator and range scans need,
//! plus [`MemStore`], an in-memory store for tests and examples.
//!
//! Real stores (an embedded default, RocksDB, Redis, PostgreSQL, etcd) live
//! in the `lexikey-stores` crate and pass one shared conformance suite.
//! Keys compare as unsigned bytes, lexicographically, in every store.

pub mod alloc;
pub mod queue;
pub mod salt;

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Mutex;

use crate::range::KeyRange;

/// A key and its value.
pub type Entry = (Vec<u8>, Vec<u8>);

/// An error from a store: I/O, the network, the server, or a conflict the
/// adapter could not resolve. `retryable` says whether trying the same
/// operation again may succeed (a lost connection, a leader election, an
/// optimistic-transaction conflict).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{store}: {message}")]
pub struct StoreError {
    /// Which store (`redis`, `postgres`, …).
    pub store: &'static str,
    /// What went wrong, one line.
    pub message: String,
    /// Whether a retry may succeed.
    pub retryable: bool,
}

impl StoreError {
    /// A retryable error.
    pub fn transient(store: &'static str, message: impl Into<String>) -> Self {
        StoreError {
            store,
            message: message.into(),
            retryable: true,
        }
    }

    /// A permanent error.
    pub fn fatal(store: &'static str, message: impl Into<String>) -> Self {
        StoreError {
            store,
            message: message.into(),
            retryable: false,
        }
    }
}

/// A compare-and-set that [`Store::put_all_if_absent`] applies in the same
/// transaction as its rows: `key` must hold `expected` (`None`: be absent),
/// and is then set to `new`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cas<'a> {
    /// The key compared and set.
    pub key: &'a [u8],
    /// Its value now (`None`: absent) for the write to happen.
    pub expected: Option<&'a [u8]>,
    /// Its value after the write.
    pub new: &'a [u8],
}

/// An ordered key-value store, as the allocator sees it. Implementations
/// must be safe to share between threads; every method is one atomic
/// operation on the store.
pub trait Store: Send + Sync {
    /// The smallest key in `range`, if any.
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError>;

    /// Writes `key = value` only if `key` is absent. Returns whether it wrote.
    /// Atomic: of many concurrent callers for one absent key, exactly one
    /// gets `true`.
    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError>;

    /// Sets `key` to `new` only if its current value is `expected` (`None`:
    /// only if absent). Returns whether it wrote. Atomic.
    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError>;

    /// The value of `key`.
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError>;

    /// Up to `limit` entries of `range`, in key order.
    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError>;

    /// The smallest key of each of `ranges`, in their order: what
    /// [`Store::first_key`] returns for each (so exactly `ranges.len()`
    /// answers). A salted allocator asks this before every insert, one
    /// range per salt bucket ([`crate::store::alloc`]).
    ///
    /// The default asks one range after the other. Adapters that can ask
    /// for all of them at once override it — one pipeline, one read-only
    /// transaction, one query: one round trip instead of N. The answers
    /// need not come from one snapshot (the default's do not).
    ///
    /// ```
    /// use lexikey::{store::{MemStore, Store}, KeyRange};
    /// let s = MemStore::new();
    /// s.put_if_absent(b"a2", b"")?;
    /// s.put_if_absent(b"b7", b"")?;
    /// let firsts = s.first_keys(&[KeyRange::prefix(b"b"), KeyRange::prefix(b"c"), KeyRange::prefix(b"a")])?;
    /// assert_eq!(firsts, [Some(b"b7".to_vec()), None, Some(b"a2".to_vec())]);
    /// # Ok::<(), lexikey::store::StoreError>(())
    /// ```
    ///
    /// # Errors
    /// The store's; an adapter fails the whole call if any range fails.
    fn first_keys(&self, ranges: &[KeyRange]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        ranges.iter().map(|r| self.first_key(r)).collect()
    }

    /// Removes `key`; returns whether it existed.
    fn delete(&self, key: &[u8]) -> Result<bool, StoreError>;

    /// Whether [`Store::put_all_if_absent`] writes several keys in one
    /// atomic transaction. The allocator's
    /// [`insert_many`](crate::store::alloc::Allocator::insert_many) commits a
    /// batch of IDs at once only on a store that says `true`; on the
    /// others it inserts the IDs one at a time. The default is `false`;
    /// the transactional adapters (redb, RocksDB, SlateDB, PostgreSQL) and
    /// [`MemStore`] say `true`.
    fn atomic_batches(&self) -> bool {
        false
    }

    /// Writes every `rows` entry, and applies `cas`, only if every row key
    /// is absent and `cas` (if given) matches — all of it or nothing, in
    /// one transaction (one durable commit). Returns whether it wrote. The
    /// row keys are distinct and differ from `cas.key`.
    ///
    /// Only stores whose [`Store::atomic_batches`] is `true` implement it
    /// for more than one key. The default handles one row without a `cas`
    /// (a [`Store::put_if_absent`]) and refuses anything else.
    ///
    /// ```
    /// use lexikey::store::{Cas, MemStore, Store};
    /// let s = MemStore::new();
    /// let cas = Cas { key: b"lwm", expected: None, new: b"8" };
    /// assert!(s.put_all_if_absent(&[(b"k9", b"a"), (b"k8", b"b")], Some(cas))?);
    /// // k8 is taken: nothing of this batch is written.
    /// assert!(!s.put_all_if_absent(&[(b"k7", b"c"), (b"k8", b"d")], None)?);
    /// assert_eq!(s.get(b"k7")?, None);
    /// assert_eq!(s.get(b"lwm")?, Some(b"8".to_vec()));
    /// # Ok::<(), lexikey::store::StoreError>(())
    /// ```
    ///
    /// # Errors
    /// The store's. A retryable error from the commit leaves its outcome
    /// unknown (all or nothing was written). The default fails with a
    /// fatal error for more than one row or a `cas`.
    fn put_all_if_absent(
        &self,
        rows: &[(&[u8], &[u8])],
        cas: Option<Cas<'_>>,
    ) -> Result<bool, StoreError> {
        match (rows, cas) {
            ([], None) => Ok(true),
            ([(k, v)], None) => self.put_if_absent(k, v),
            _ => Err(StoreError::fatal(
                "store",
                "this store cannot write several keys in one transaction",
            )),
        }
    }
}

impl<S: Store + ?Sized> Store for std::sync::Arc<S> {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        (**self).first_key(range)
    }
    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        (**self).put_if_absent(key, value)
    }
    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        (**self).compare_and_swap(key, expected, new)
    }
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        (**self).get(key)
    }
    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        (**self).scan(range, limit)
    }
    fn first_keys(&self, ranges: &[KeyRange]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        (**self).first_keys(ranges)
    }
    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        (**self).delete(key)
    }
    fn atomic_batches(&self) -> bool {
        (**self).atomic_batches()
    }
    fn put_all_if_absent(
        &self,
        rows: &[(&[u8], &[u8])],
        cas: Option<Cas<'_>>,
    ) -> Result<bool, StoreError> {
        (**self).put_all_if_absent(rows, cas)
    }
}

/// The `BTreeMap` bounds of a [`KeyRange`].
pub fn btree_bounds(range: &KeyRange) -> (Bound<&[u8]>, Bound<&[u8]>) {
    (
        range
            .start
            .as_deref()
            .map_or(Bound::Unbounded, Bound::Included),
        range
            .end
            .as_deref()
            .map_or(Bound::Unbounded, Bound::Excluded),
    )
}

/// An in-memory store (a `BTreeMap` behind a mutex), for tests and examples.
/// Not a substitute for a real store: nothing is persisted.
///
/// ```
/// use lexikey::{store::{MemStore, Store}, KeyRange};
/// let s = MemStore::new();
/// assert!(s.put_if_absent(b"k2", b"v")?);
/// assert!(!s.put_if_absent(b"k2", b"w")?);
/// s.put_if_absent(b"k1", b"v")?;
/// assert_eq!(s.first_key(&KeyRange::prefix(b"k"))?, Some(b"k1".to_vec()));
/// # Ok::<(), lexikey::store::StoreError>(())
/// ```
#[derive(Debug, Default)]
pub struct MemStore {
    map: Mutex<BTreeMap<Vec<u8>, Vec<u8>>>,
}

impl MemStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<Vec<u8>, Vec<u8>>> {
        // A panic in another thread cannot leave the map half-updated (every
        // operation is a single map call), so a poisoned lock is still usable.
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Store for MemStore {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        if range.is_empty() {
            return Ok(None);
        }
        Ok(self
            .lock()
            .range::<[u8], _>(btree_bounds(range))
            .next()
            .map(|(k, _)| k.clone()))
    }

    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        let mut m = self.lock();
        if m.contains_key(key) {
            return Ok(false);
        }
        let _ = m.insert(key.to_vec(), value.to_vec());
        Ok(true)
    }

    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        let mut m = self.lock();
        if m.get(key).map(Vec::as_slice) != expected {
            return Ok(false);
        }
        let _ = m.insert(key.to_vec(), new.to_vec());
        Ok(true)
    }

    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.lock().get(key).cloned())
    }

    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        if range.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self
            .lock()
            .range::<[u8], _>(btree_bounds(range))
            .take(limit)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect())
    }

    /// All ranges under one lock: one snapshot.
    fn first_keys(&self, ranges: &[KeyRange]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        let m = self.lock();
        Ok(ranges
            .iter()
            .map(|r| {
                if r.is_empty() {
                    return None;
                }
                m.range::<[u8], _>(btree_bounds(r))
                    .next()
                    .map(|(k, _)| k.clone())
            })
            .collect())
    }

    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        Ok(self.lock().remove(key).is_some())
    }

    fn atomic_batches(&self) -> bool {
        true
    }

    /// Under one lock.
    fn put_all_if_absent(
        &self,
        rows: &[(&[u8], &[u8])],
        cas: Option<Cas<'_>>,
    ) -> Result<bool, StoreError> {
        let mut m = self.lock();
        if cas.is_some_and(|c| m.get(c.key).map(Vec::as_slice) != c.expected)
            || rows.iter().any(|(k, _)| m.contains_key(*k))
        {
            return Ok(false);
        }
        if let Some(c) = cas {
            let _ = m.insert(c.key.to_vec(), c.new.to_vec());
        }
        for (k, v) in rows {
            let _ = m.insert(k.to_vec(), v.to_vec());
        }
        Ok(true)
    }
}
