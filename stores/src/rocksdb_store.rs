//! RocksDB through `OptimisticTransactionDB`, linked to the system library.

use std::path::Path;

use lexikey::store::{Entry, Store, StoreError};
use lexikey::KeyRange;
use rocksdb::{
    Direction, ErrorKind, IteratorMode, MultiThreaded, OptimisticTransactionDB, Options,
    ReadOptions,
};

use crate::prefix::Prefix;
use crate::retry::{backoff, CONFLICT_RETRIES};

const NAME: &str = "rocksdb";

type Db = OptimisticTransactionDB<MultiThreaded>;

/// A [`Store`] in a RocksDB directory, namespaced by a key prefix `NS/`.
///
/// Writes are optimistic transactions: `get_for_update` records the key,
/// the transaction writes, and `commit` fails with `Busy` (or `TryAgain`)
/// when another writer changed the key in between. The adapter then runs
/// the whole transaction again (re-reading the key), up to 200 times, so a
/// caller sees `false` ("already there") exactly when another writer won.
/// Range reads use an iterator with `iterate_upper_bound`, so they never
/// walk past the range (into another namespace's keys or tombstones).
pub struct RocksStore {
    db: Db,
    prefix: Prefix,
}

impl std::fmt::Debug for RocksStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RocksStore")
            .field("path", &self.db.path())
            .field("prefix", &self.prefix)
            .finish()
    }
}

fn err(e: rocksdb::Error) -> StoreError {
    let retryable = matches!(
        e.kind(),
        ErrorKind::Busy | ErrorKind::TryAgain | ErrorKind::TimedOut
    );
    StoreError {
        store: NAME,
        message: e.to_string(),
        retryable,
    }
}

fn is_conflict(e: &rocksdb::Error) -> bool {
    matches!(e.kind(), ErrorKind::Busy | ErrorKind::TryAgain)
}

impl RocksStore {
    /// Opens (creating if missing) the RocksDB directory `path`; keys live
    /// under the prefix `NS/` of namespace `ns`.
    ///
    /// # Errors
    /// A fatal [`StoreError`] for a bad namespace or when RocksDB cannot
    /// open the directory (for example: it is locked by another process).
    pub fn open(path: impl AsRef<Path>, ns: &str) -> Result<RocksStore, StoreError> {
        crate::check_namespace(ns)?;
        let mut opts = Options::default();
        opts.create_if_missing(true);
        let path = path.as_ref();
        let db = Db::open(&opts, path)
            .map_err(|e| StoreError::fatal(NAME, format!("{}: {e}", path.display())))?;
        Ok(RocksStore {
            db,
            prefix: Prefix::new(ns),
        })
    }

    /// Runs transaction `f` until it commits or loses too many conflicts.
    /// `f` returns `(result, write)`; with `write == false` the transaction
    /// is rolled back and `result` returned at once.
    fn txn<T>(
        &self,
        f: impl Fn(&rocksdb::Transaction<'_, Db>) -> Result<(T, bool), rocksdb::Error>,
    ) -> Result<T, StoreError> {
        for attempt in 0..CONFLICT_RETRIES {
            let txn = self.db.transaction();
            let (out, write) = match f(&txn) {
                Ok(r) => r,
                Err(e) if is_conflict(&e) => {
                    backoff(attempt);
                    continue;
                }
                Err(e) => return Err(err(e)),
            };
            if !write {
                txn.rollback().map_err(err)?;
                return Ok(out);
            }
            match txn.commit() {
                Ok(()) => return Ok(out),
                Err(e) if is_conflict(&e) => backoff(attempt),
                Err(e) => return Err(err(e)),
            }
        }
        Err(StoreError::transient(
            NAME,
            format!("transaction lost {CONFLICT_RETRIES} optimistic conflicts in a row"),
        ))
    }

    fn iter_opts(&self, range: &KeyRange) -> (Vec<u8>, ReadOptions) {
        let (start, end) = self.prefix.range(range);
        let mut opts = ReadOptions::default();
        opts.set_iterate_lower_bound(start.clone());
        opts.set_iterate_upper_bound(end);
        (start, opts)
    }
}

impl Store for RocksStore {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.scan(range, 1)?.pop().map(|(k, _)| k))
    }

    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        let k = self.prefix.key(key);
        self.txn(|t| {
            if t.get_for_update(&k, true)?.is_some() {
                return Ok((false, false));
            }
            t.put(&k, value)?;
            Ok((true, true))
        })
    }

    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        let k = self.prefix.key(key);
        self.txn(|t| {
            if t.get_for_update(&k, true)?.as_deref() != expected {
                return Ok((false, false));
            }
            t.put(&k, new)?;
            Ok((true, true))
        })
    }

    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.db.get(self.prefix.key(key)).map_err(err)
    }

    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        if range.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let (start, opts) = self.iter_opts(range);
        let mut out = Vec::new();
        let iter = self
            .db
            .iterator_opt(IteratorMode::From(&start, Direction::Forward), opts);
        for item in iter {
            let (k, v) = item.map_err(err)?;
            // The bounds keep the iterator inside the namespace.
            let Some(user) = self.prefix.strip(&k) else {
                break;
            };
            out.push((user.to_vec(), v.to_vec()));
            if out.len() == limit {
                break;
            }
        }
        Ok(out)
    }

    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        let k = self.prefix.key(key);
        self.txn(|t| {
            if t.get_for_update(&k, true)?.is_none() {
                return Ok((false, false));
            }
            t.delete(&k)?;
            Ok((true, true))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the adapter relies on: an optimistic transaction that read a key
    /// with `get_for_update` fails to commit, with a conflict, when another
    /// writer wrote that key in between — also when the key was absent.
    #[test]
    fn lost_race_is_a_conflict() {
        let dir = tempfile::tempdir().unwrap();
        let s = RocksStore::open(dir.path(), "t").unwrap();
        let slow = s.db.transaction();
        assert_eq!(slow.get_for_update(b"t/k", true).unwrap(), None);
        assert!(s.put_if_absent(b"k", b"fast").unwrap());
        slow.put(b"t/k", b"slow").unwrap();
        let e = slow.commit().unwrap_err();
        assert!(is_conflict(&e), "{e}");
        assert_eq!(s.get(b"k").unwrap(), Some(b"fast".to_vec()));
        // And the adapter, re-running the transaction, reports "present".
        assert!(!s.put_if_absent(b"k", b"slow").unwrap());
    }
}
