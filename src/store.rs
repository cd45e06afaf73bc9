//! The store trait: the few primitives the allocator and range scans need,
//! plus [`MemStore`], an in-memory store for tests and examples.
//!
//! Real stores (an embedded default, RocksDB, Redis, PostgreSQL, etcd) live
//! in the `lexikey-stores` crate and pass one shared conformance suite.
//! Keys compare as unsigned bytes, lexicographically, in every store.

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
    /// range per salt bucket ([`crate::alloc`]).
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
}
