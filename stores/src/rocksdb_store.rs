//! RocksDB through `OptimisticTransactionDB`, linked to the system library.

use std::path::Path;

use lexikey::store::{Cas, Entry, Store, StoreError};
use lexikey::KeyRange;
use rocksdb::{
    Direction, ErrorKind, IteratorMode, MultiThreaded, OptimisticTransactionDB, Options,
    ReadOptions,
};

use crate::prefix::Prefix;
use crate::retry::{backoff, CONFLICT_RETRIES};

const NAME: &str = "rocksdb";

type Db = OptimisticTransactionDB<MultiThreaded>;
type ReadDb = rocksdb::DBWithThreadMode<MultiThreaded>;

/// The database, opened for writing or for reading only.
enum Handle {
    Write(Db),
    Read(ReadDb),
}

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
    db: Handle,
    prefix: Prefix,
}

impl std::fmt::Debug for RocksStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RocksStore")
            .field(
                "path",
                &match &self.db {
                    Handle::Write(db) => db.path(),
                    Handle::Read(db) => db.path(),
                },
            )
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
            db: Handle::Write(db),
            prefix: Prefix::new(ns),
        })
    }

    /// Opens the existing RocksDB directory `path` for reading only
    /// (RocksDB's read-only mode: no lock taken, so it opens while another
    /// process writes, and reads what was written when it opened; a user
    /// without write permission can read). Every write fails. What reading
    /// commands (`lexikey scan`) do.
    ///
    /// # Errors
    /// A fatal [`StoreError`] for a bad namespace or when RocksDB cannot
    /// open the directory (for example: it does not exist).
    pub fn open_read_only(path: impl AsRef<Path>, ns: &str) -> Result<RocksStore, StoreError> {
        crate::check_namespace(ns)?;
        let path = path.as_ref();
        // RocksDB would create a missing directory (for its log) before
        // failing to open it.
        if !path.is_dir() {
            return Err(StoreError::fatal(
                NAME,
                format!("{}: no RocksDB directory there", path.display()),
            ));
        }
        let db = ReadDb::open_for_read_only(&Options::default(), path, false)
            .map_err(|e| StoreError::fatal(NAME, format!("{}: {e}", path.display())))?;
        Ok(RocksStore {
            db: Handle::Read(db),
            prefix: Prefix::new(ns),
        })
    }

    fn writer(&self) -> Result<&Db, StoreError> {
        match &self.db {
            Handle::Write(db) => Ok(db),
            Handle::Read(_) => Err(StoreError::fatal(
                NAME,
                "the store was opened for reading only (a reading command): writes are refused",
            )),
        }
    }

    /// Runs transaction `f` until it commits or loses too many conflicts.
    /// `f` returns `(result, write)`; with `write == false` the transaction
    /// is rolled back and `result` returned at once.
    fn txn<T>(
        &self,
        f: impl Fn(&rocksdb::Transaction<'_, Db>) -> Result<(T, bool), rocksdb::Error>,
    ) -> Result<T, StoreError> {
        let db = self.writer()?;
        for attempt in 0..CONFLICT_RETRIES {
            let txn = db.transaction();
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
        let k = self.prefix.key(key);
        match &self.db {
            Handle::Write(db) => db.get(k),
            Handle::Read(db) => db.get(k),
        }
        .map_err(err)
    }

    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        if range.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let (start, opts) = self.iter_opts(range);
        let mode = IteratorMode::From(&start, Direction::Forward);
        match &self.db {
            Handle::Write(db) => self.collect(db.iterator_opt(mode, opts), limit),
            Handle::Read(db) => self.collect(db.iterator_opt(mode, opts), limit),
        }
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

    fn atomic_batches(&self) -> bool {
        true
    }

    /// One optimistic transaction (every key read with `get_for_update`):
    /// one commit, one write-ahead-log record.
    fn put_all_if_absent(
        &self,
        rows: &[(&[u8], &[u8])],
        cas: Option<Cas<'_>>,
    ) -> Result<bool, StoreError> {
        let keys: Vec<Vec<u8>> = rows.iter().map(|(k, _)| self.prefix.key(k)).collect();
        let cas_key = cas.map(|c| self.prefix.key(c.key));
        self.txn(|t| {
            if let (Some(c), Some(k)) = (cas, &cas_key) {
                if t.get_for_update(k, true)?.as_deref() != c.expected {
                    return Ok((false, false));
                }
            }
            for k in &keys {
                if t.get_for_update(k, true)?.is_some() {
                    return Ok((false, false));
                }
            }
            if let (Some(c), Some(k)) = (cas, &cas_key) {
                t.put(k, c.new)?;
            }
            for (k, (_, v)) in keys.iter().zip(rows) {
                t.put(k, v)?;
            }
            Ok((true, true))
        })
    }
}

impl RocksStore {
    /// The first `limit` entries of a bounded iterator, without the prefix.
    fn collect(
        &self,
        iter: impl Iterator<Item = Result<(Box<[u8]>, Box<[u8]>), rocksdb::Error>>,
        limit: usize,
    ) -> Result<Vec<Entry>, StoreError> {
        let mut out = Vec::new();
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
        let slow = s.writer().unwrap().transaction();
        assert_eq!(slow.get_for_update(b"t/k", true).unwrap(), None);
        assert!(s.put_if_absent(b"k", b"fast").unwrap());
        slow.put(b"t/k", b"slow").unwrap();
        let e = slow.commit().unwrap_err();
        assert!(is_conflict(&e), "{e}");
        assert_eq!(s.get(b"k").unwrap(), Some(b"fast".to_vec()));
        // And the adapter, re-running the transaction, reports "present".
        assert!(!s.put_if_absent(b"k", b"slow").unwrap());
    }

    /// Read-only: opens while a writer holds the directory, reads its rows,
    /// refuses writes; a missing directory is an error, not created.
    #[test]
    fn read_only_reads_beside_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let w = RocksStore::open(dir.path(), "t").unwrap();
        assert!(w.put_if_absent(b"k", b"v").unwrap());
        let r = RocksStore::open_read_only(dir.path(), "t").unwrap();
        assert_eq!(r.get(b"k").unwrap(), Some(b"v".to_vec()));
        let all = KeyRange::new(None, None).unwrap();
        assert_eq!(
            r.scan(&all, 10).unwrap(),
            vec![(b"k".to_vec(), b"v".to_vec())]
        );
        let e = r.put_if_absent(b"k2", b"v").unwrap_err();
        assert!(e.to_string().contains("reading only"), "{e}");
        let missing = dir.path().join("missing");
        assert!(RocksStore::open_read_only(&missing, "t").is_err());
        assert!(!missing.exists());
    }
}
