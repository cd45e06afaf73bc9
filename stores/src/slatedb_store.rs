//! SlateDB — an LSM tree on object storage — on the local filesystem or
//! on S3.
//!
//! # What it promises
//!
//! [`SlateStore`] is a [`Store`] in a SlateDB database whose object store is
//! `object_store`'s `LocalFileSystem` rooted at a directory (`slatedb:PATH`),
//! or its S3 client (`slatedb:s3://BUCKET/PREFIX`; see `slatedb_s3.rs` for
//! the S3 parts: credentials, the checks made when opening, and the writer
//! lease that takes the place of the lock file).
//! Keys compare as unsigned bytes; namespaces are key prefixes `NS/` (as in
//! the RocksDB and etcd adapters), so every key SlateDB sees is non-empty
//! even for the empty user key (SlateDB refuses an empty key).
//!
//! - **A `true` from a write means durable.** SlateDB's `commit` returns a
//!   `WriteHandle` without waiting for the object store. The adapter then
//!   calls `Db::flush` (write the write-ahead log now rather than at the
//!   next `flush_interval` tick) and `WriteHandle::await_durable`, which
//!   resolves once the WAL object holding this commit is stored. Only then
//!   does `put_if_absent`, `compare_and_swap` or `delete` return. (SlateDB
//!   0.18 has no `await_durable` write option any more: waiting on the
//!   handle is its replacement. `LocalFileSystem` writes each object to a
//!   temporary file and renames it, without `fsync`: an acknowledged write
//!   survives the death of the process, not necessarily a power cut.)
//! - **Atomic writes by optimistic transactions.** Each write is a
//!   `DbTransaction` at `IsolationLevel::Snapshot`: get the key, decide, put
//!   (or delete), commit. A commit that loses a write-write race fails with
//!   a transaction conflict; that is a lost race, not an error: the adapter
//!   runs the transaction again (reading the key afresh), up to 200 times,
//!   so `put_if_absent` returns `false` exactly when another writer won.
//! - **Forward iteration with an exclusive upper bound.** `first_key` and
//!   `scan` iterate `[NS/start, NS/end)`, an unbounded side replaced by the
//!   namespace's own bound, so a scan never walks into another namespace.
//!
//! # One writer at a time
//!
//! SlateDB allows one writer per database: opening a writer *fences* the
//! previous one (its next write fails, and its instance closes). Two
//! `lexikey` processes on one path would fence each other back and forth.
//! So the adapter serializes writers itself, the way an HBase or RocksDB
//! user expects a locked database to behave:
//!
//! 1. Opening takes an exclusive lock on the file `PATH/lexikey.lock`
//!    (`flock`; the kernel releases it when the process dies, even by
//!    SIGKILL). If another process holds it, the open **waits**, polling,
//!    up to `wait_ms` (default 30,000 ms), then fails with a retryable
//!    error naming the lock and the process that holds it. So concurrent
//!    `lexikey alloc` processes on one path run one after the other; one
//!    that waits too long exits 2 with that one line and allocates nothing.
//! 2. A writer that is fenced anyway (a SlateDB client that does not take
//!    the lock, or a lock on a filesystem where `flock` is not shared)
//!    loses nothing that was acknowledged: a write whose durable wait
//!    failed was **not acknowledged**. The adapter reports it as a
//!    *retryable* error (its outcome is unknown to the caller), drops the
//!    fenced instance and opens a new one (fencing the other writer in
//!    turn, and replaying only what is durable). The allocator then reads
//!    the row back, through the new instance, before it decides anything
//!    (see the allocator's "Guarantees, precisely"): no ID is handed out
//!    twice, and a row reported written is durable.
//!
//! # What it does not do
//!
//! No readers without the lock (SlateDB's `DbReader`): every open is a
//! writer, so `lexikey scan` waits for a running `lexikey alloc` too. No
//! object store but the local filesystem and S3. No time-to-live, no merge
//! operator.
//!
//! # On S3
//!
//! The lock file is replaced by a lease object (`PREFIX/lexikey.lock`,
//! taken and renewed by conditional puts; see `slatedb_s3.rs`), and a
//! writer fenced anyway (it lost its lease: it was stopped for longer than
//! the lease's 6 s) does **not** reopen: its write fails with a fatal
//! error saying it was fenced (not acknowledged), and so does every later
//! call. Reopening would fence the writer that holds the lease now, and
//! the two would fence each other back and forth.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use lexikey::store::{Cas, Entry, Store, StoreError};
use lexikey::KeyRange;
use slatedb::config::CloseOptions;
use slatedb::object_store::local::LocalFileSystem;
use slatedb::object_store::ObjectStore;
use slatedb::{CloseReason, Db, DbTransaction, ErrorKind, IsolationLevel};
use tokio::runtime::Runtime;

use crate::slatedb_s3::{connect, Lease};

use crate::prefix::Prefix;
use crate::retry::{backoff, CONFLICT_RETRIES};
use crate::SlateOptions;

const NAME: &str = "slatedb";

/// The writer lock, in the object-store root.
pub const LOCK_FILE: &str = "lexikey.lock";

/// The database's path inside the object store: `PATH/db`.
pub(crate) const DB_PATH: &str = "db";

/// A [`Store`] in a SlateDB database on the local filesystem.
///
/// A write is a `DbTransaction` (snapshot isolation; a lost race is run
/// again) and returns only once durable: commit, then `Db::flush`, then
/// `WriteHandle::await_durable`. One writer process at a time: opening
/// takes the lock file `PATH/lexikey.lock` ([`LOCK_FILE`]), waiting for
/// another holder up to [`SlateOptions::wait`]. An instance fenced anyway
/// by another SlateDB writer is replaced by a new one, and its write that
/// had not become durable is reported as a retryable error (not
/// acknowledged). The reasons are in the comments at the top of
/// `stores/src/slatedb_store.rs`.
///
/// The store runs SlateDB's async API on a tokio runtime of its own (two
/// worker threads); its methods block. Do not call them from inside
/// another tokio runtime's async context.
pub struct SlateStore {
    // Field order is drop order: the database is closed in `Drop` (and an
    // S3 lease released), then the runtime stops, then the lock is
    // released.
    db: Mutex<Option<Arc<Db>>>,
    rt: Runtime,
    objects: Arc<dyn ObjectStore>,
    root: PathBuf,
    prefix: Prefix,
    lock: WriterLock,
    /// On S3: set once an instance was fenced; every later call fails.
    fenced: std::sync::atomic::AtomicBool,
}

/// What keeps other lexikey writers out: the lock file of a local
/// directory, or the lease object on S3.
#[derive(Debug)]
enum WriterLock {
    File(#[allow(dead_code)] File),
    Lease(Lease),
}

impl std::fmt::Debug for SlateStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SlateStore")
            .field("root", &self.root)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// What a write transaction does with the key's current value.
enum Write<'a> {
    Put(&'a [u8]),
    Delete,
}

/// The outcome of one transaction attempt.
enum Attempt {
    Done(bool),
    Conflict,
}

/// Where in a write a SlateDB error happened: before the commit (nothing
/// applied) or after it (applied in memory, durability unknown).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Read,
    BeforeCommit,
    AfterCommit,
}

fn io_err(what: &str, path: &Path, e: impl std::fmt::Display) -> StoreError {
    StoreError::fatal(NAME, format!("{what} {}: {e}", path.display()))
}

impl SlateStore {
    /// Opens (creating if missing) the SlateDB database under directory
    /// `path` with default options (namespace `lexikey`, wait 30 s).
    ///
    /// # Errors
    /// As [`SlateStore::open_with`].
    pub fn open(path: impl AsRef<Path>) -> Result<SlateStore, StoreError> {
        Self::open_with(path, SlateOptions::default())
    }

    /// Opens (creating if missing) the SlateDB database under directory
    /// `path`, or on S3 when `options.s3` is set (`path` then only names
    /// the store in messages: `s3://BUCKET/PREFIX`): takes the writer lock
    /// or lease (waiting up to `options.wait`), then opens the database
    /// (replaying its write-ahead log).
    ///
    /// ```no_run
    /// use lexikey_stores::{SlateOptions, SlateS3, SlateStore};
    /// // moto's S3 on loopback; AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY set.
    /// let s3 = SlateS3 {
    ///     bucket: "keys".into(),
    ///     prefix: "events".into(),
    ///     endpoint: Some("http://127.0.0.1:5000".into()),
    ///     region: Some("us-east-1".into()),
    /// };
    /// let options = SlateOptions { s3: Some(s3), ..SlateOptions::default() };
    /// let store = SlateStore::open_with("s3://keys/events", options)?;
    /// # Ok::<(), lexikey::store::StoreError>(())
    /// ```
    ///
    /// # Errors
    /// A fatal [`StoreError`] for a bad namespace or when the directory or
    /// the database cannot be created or opened (on S3: missing
    /// credentials, a bucket that does not exist, refused credentials); a
    /// retryable one when another process held the writer lock (or lease)
    /// for longer than `options.wait`, or S3 does not answer.
    pub fn open_with(
        path: impl AsRef<Path>,
        options: SlateOptions,
    ) -> Result<SlateStore, StoreError> {
        crate::check_namespace(&options.namespace)?;
        let root = path.as_ref().to_path_buf();
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("lexikey-slatedb")
            .enable_all()
            .build()
            .map_err(|e| StoreError::fatal(NAME, format!("cannot start a tokio runtime: {e}")))?;
        let (objects, lock) = match &options.s3 {
            Some(s3) => {
                let objects = connect(&rt, s3, &root)?;
                let lease = Lease::acquire(&rt, &objects, &root, options.wait)?;
                (objects, WriterLock::Lease(lease))
            }
            None => {
                std::fs::create_dir_all(&root).map_err(|e| io_err("cannot create", &root, e))?;
                let lock = writer_lock(&root, options.wait)?;
                let objects: Arc<dyn ObjectStore> = Arc::new(
                    LocalFileSystem::new_with_prefix(&root)
                        .map_err(|e| io_err("cannot open", &root, e))?,
                );
                (objects, WriterLock::File(lock))
            }
        };
        let store = SlateStore {
            db: Mutex::new(None),
            rt,
            objects,
            root,
            prefix: Prefix::new(&options.namespace),
            lock,
            fenced: std::sync::atomic::AtomicBool::new(false),
        };
        let _ = store.db()?;
        Ok(store)
    }

    fn on_s3(&self) -> bool {
        matches!(self.lock, WriterLock::Lease(_))
    }

    fn slot(&self) -> MutexGuard<'_, Option<Arc<Db>>> {
        // The slot holds an `Option<Arc>`: a panic elsewhere cannot leave it
        // half-written.
        self.db.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The open database instance, opening one if there is none (at the
    /// start, or after a failed or fenced instance was dropped).
    fn db(&self) -> Result<Arc<Db>, StoreError> {
        if self.fenced.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(StoreError::fatal(
                NAME,
                format!(
                    "{}: fenced: another writer opened the database; this store is closed \
                     (open it again)",
                    self.root.display()
                ),
            ));
        }
        let mut slot = self.slot();
        if let Some(db) = &*slot {
            return Ok(Arc::clone(db));
        }
        let settings = slatedb::Settings::default();
        let db = self
            .rt
            .block_on(
                Db::builder(DB_PATH, Arc::clone(&self.objects))
                    .with_settings(settings)
                    .build(),
            )
            .map_err(|e| {
                let retryable = matches!(e.kind(), ErrorKind::Unavailable | ErrorKind::Closed(_));
                StoreError {
                    store: NAME,
                    message: format!("cannot open {}: {e}", self.root.display()),
                    retryable,
                }
            })?;
        let db = Arc::new(db);
        *slot = Some(Arc::clone(&db));
        Ok(db)
    }

    /// Drops instance `old` (if it is still the current one) so that the
    /// next call opens a new instance: one that fences `old` and sees only
    /// what is durable. `old` is closed without a final flush.
    fn replace(&self, old: &Arc<Db>) {
        {
            let mut slot = self.slot();
            if slot.as_ref().is_some_and(|d| Arc::ptr_eq(d, old)) {
                *slot = None;
            } else {
                return;
            }
        }
        let no_flush = CloseOptions { flush_type: None };
        let _ = self.rt.block_on(old.close_with_options(no_flush));
    }

    /// Maps a SlateDB error to a [`StoreError`], replacing the instance when
    /// it is closed (fenced) or when a commit's durability is unknown.
    fn fail(&self, db: &Arc<Db>, e: &slatedb::Error, stage: Stage) -> StoreError {
        let kind = e.kind();
        let closed = matches!(kind, ErrorKind::Closed(_));
        if closed || (stage == Stage::AfterCommit && kind != ErrorKind::Invalid) {
            self.replace(db);
        }
        let fenced = kind == ErrorKind::Closed(CloseReason::Fenced);
        if fenced && self.on_s3() {
            // Not reopened (see the module docs): fatal, for this call and
            // every later one.
            self.fenced
                .store(true, std::sync::atomic::Ordering::Relaxed);
            let what = if stage == Stage::Read {
                "this read did not happen"
            } else {
                "this write is not acknowledged (not durable here)"
            };
            return StoreError::fatal(
                NAME,
                format!(
                    "{}: fenced: another writer opened the database (it took over the lease \
                     {}); {what}; this store is closed (open it again): {e}",
                    self.root.display(),
                    LOCK_FILE
                ),
            );
        }
        let what = match (kind, stage) {
            (ErrorKind::Closed(CloseReason::Fenced), Stage::Read) => {
                "fenced: another writer opened the database; reopening".to_string()
            }
            (ErrorKind::Closed(CloseReason::Fenced), _) => {
                "fenced: another writer opened the database; this write is not acknowledged \
                 (not durable here); reopening"
                    .to_string()
            }
            (_, Stage::AfterCommit) => {
                "a committed write did not become durable; it is not acknowledged".to_string()
            }
            _ => String::new(),
        };
        // `Invalid` (a bad argument or call) is the caller's to fix; every
        // other error may pass (a new instance, a storage hiccup). A write's
        // error before its commit means "not applied"; from the commit on,
        // "unknown": both retryable, and the allocator reads back.
        let retryable = kind != ErrorKind::Invalid;
        let message = if what.is_empty() {
            format!("{}: {e}", self.root.display())
        } else {
            format!("{}: {what}: {e}", self.root.display())
        };
        StoreError {
            store: NAME,
            message,
            retryable,
        }
    }

    /// Runs a write transaction until it commits durably, `body` decides
    /// not to write, or it loses too many conflicts. `body` reads and
    /// writes through the transaction and returns whether to commit
    /// (`false`: roll back; the call returns `false`); its errors come
    /// before the commit (nothing applied).
    fn transact(
        &self,
        body: impl AsyncFn(&DbTransaction) -> Result<bool, slatedb::Error>,
    ) -> Result<bool, StoreError> {
        for attempt in 0..CONFLICT_RETRIES {
            let db = self.db()?;
            let res = self.rt.block_on(async {
                let txn = db
                    .begin(IsolationLevel::Snapshot)
                    .map_err(|e| (e, Stage::BeforeCommit))?;
                if !body(&txn).await.map_err(|e| (e, Stage::BeforeCommit))? {
                    txn.rollback();
                    return Ok(Attempt::Done(false));
                }
                let handle = match txn.commit().await {
                    Ok(Some(h)) => h,
                    // Nothing was written (an empty batch): nothing to make
                    // durable.
                    Ok(None) => return Ok(Attempt::Done(true)),
                    Err(e) if e.kind() == ErrorKind::Transaction => return Ok(Attempt::Conflict),
                    Err(e) => return Err((e, Stage::AfterCommit)),
                };
                // Acknowledge only once durable (see the module docs).
                db.flush().await.map_err(|e| (e, Stage::AfterCommit))?;
                handle
                    .await_durable()
                    .await
                    .map_err(|e| (e, Stage::AfterCommit))?;
                Ok(Attempt::Done(true))
            });
            match res {
                Ok(Attempt::Done(wrote)) => return Ok(wrote),
                Ok(Attempt::Conflict) => backoff(attempt),
                Err((e, stage)) => return Err(self.fail(&db, &e, stage)),
            }
        }
        Err(StoreError::transient(
            NAME,
            format!("transaction lost {CONFLICT_RETRIES} conflicts in a row"),
        ))
    }

    /// A write transaction on `key` ([`SlateStore::transact`]). `decide`
    /// sees the current value and returns what to write (`None`: nothing;
    /// the call returns `false`).
    fn write<'v>(
        &self,
        key: &[u8],
        decide: impl Fn(Option<&[u8]>) -> Option<Write<'v>>,
    ) -> Result<bool, StoreError> {
        let k = self.prefix.key(key);
        self.transact(async |txn| {
            let cur = txn.get(&k).await?;
            match decide(cur.as_deref()) {
                None => return Ok(false),
                Some(Write::Put(v)) => txn.put(&k, v)?,
                Some(Write::Delete) => txn.delete(&k)?,
            }
            Ok(true)
        })
    }

    /// [`Store::put_all_if_absent`]: one transaction
    /// ([`SlateStore::transact`]) that reads every key (the CAS key and the
    /// rows), then writes them all.
    fn write_all(&self, rows: &[(&[u8], &[u8])], cas: Option<Cas<'_>>) -> Result<bool, StoreError> {
        let keys: Vec<Vec<u8>> = rows.iter().map(|(k, _)| self.prefix.key(k)).collect();
        let cas_key = cas.map(|c| self.prefix.key(c.key));
        self.transact(async |txn| {
            if let (Some(c), Some(k)) = (cas, &cas_key) {
                if txn.get(k).await?.as_deref() != c.expected {
                    return Ok(false);
                }
                txn.put(k, c.new)?;
            }
            for (k, (_, v)) in keys.iter().zip(rows) {
                if txn.get(k).await?.is_some() {
                    return Ok(false);
                }
                txn.put(k, v)?;
            }
            Ok(true)
        })
    }

    /// Runs read `f` on the current instance.
    fn read<T>(
        &self,
        f: impl AsyncFnOnce(&Db) -> Result<T, slatedb::Error>,
    ) -> Result<T, StoreError> {
        let db = self.db()?;
        self.rt
            .block_on(f(&db))
            .map_err(|e| self.fail(&db, &e, Stage::Read))
    }

    /// Makes every write so far durable (SlateDB's `Db::flush`). Every
    /// acknowledged write already is; this is for callers of the async
    /// API's semantics.
    ///
    /// # Errors
    /// As a write.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.read(async |db| db.flush().await)
    }
}

impl Drop for SlateStore {
    fn drop(&mut self) {
        if let Some(db) = self.slot().take() {
            // A clean close flushes what is in memory (every acknowledged
            // write is durable already).
            let _ = self.rt.block_on(db.close());
        }
        if let WriterLock::Lease(lease) = &self.lock {
            lease.release(&self.rt);
        }
    }
}

/// Takes the exclusive writer lock `ROOT/lexikey.lock`, waiting up to
/// `wait` for another process to release it, and writes this process's ID
/// into the file (for the message another waiter prints).
fn writer_lock(root: &Path, wait: Duration) -> Result<File, StoreError> {
    let path = root.join(LOCK_FILE);
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&path)
        .map_err(|e| io_err("cannot open", &path, e))?;
    let deadline = Instant::now() + wait;
    let mut pause = Duration::from_millis(2);
    loop {
        match file.try_lock() {
            Ok(()) => break,
            Err(TryLockError::WouldBlock) => {
                let now = Instant::now();
                if now >= deadline {
                    let mut holder = String::new();
                    let _ = (&file).read_to_string(&mut holder);
                    let holder = match holder.trim() {
                        "" => String::new(),
                        pid => format!(" (process {pid})"),
                    };
                    return Err(StoreError::transient(
                        NAME,
                        format!(
                            "{}: another writer{holder} holds the database (lock {}); \
                             gave up after waiting {} ms (URL option wait_ms=)",
                            root.display(),
                            path.display(),
                            wait.as_millis()
                        ),
                    ));
                }
                std::thread::sleep(pause.min(deadline - now));
                pause = (pause * 2).min(Duration::from_millis(100));
            }
            Err(TryLockError::Error(e)) => return Err(io_err("cannot lock", &path, e)),
        }
    }
    // Best effort: the ID only makes a waiter's message more helpful.
    let _ = file
        .set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| writeln!(file, "{}", std::process::id()));
    Ok(file)
}

impl Store for SlateStore {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.scan(range, 1)?.pop().map(|(k, _)| k))
    }

    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        self.write(key, |cur| cur.is_none().then_some(Write::Put(value)))
    }

    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        self.write(key, |cur| (cur == expected).then_some(Write::Put(new)))
    }

    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let k = self.prefix.key(key);
        self.read(async |db| Ok(db.get(&k).await?.map(|v| v.to_vec())))
    }

    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        if range.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let (start, end) = self.prefix.range(range);
        if start >= end {
            // `[∞, "")`: empty, though `range.is_empty()` cannot tell (and
            // SlateDB's scan refuses an empty range).
            return Ok(Vec::new());
        }
        self.read(async |db| {
            let mut out = Vec::new();
            let mut iter = db.scan(start..end).await?;
            while let Some(kv) = iter.next().await? {
                // The bounds keep the iterator inside the namespace.
                let Some(user) = self.prefix.strip(&kv.key) else {
                    break;
                };
                out.push((user.to_vec(), kv.value.to_vec()));
                if out.len() == limit {
                    break;
                }
            }
            Ok(out)
        })
    }

    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        self.write(key, |cur| cur.is_some().then_some(Write::Delete))
    }

    fn atomic_batches(&self) -> bool {
        true
    }

    /// One snapshot-isolation transaction: one commit, one durable flush.
    fn put_all_if_absent(
        &self,
        rows: &[(&[u8], &[u8])],
        cas: Option<Cas<'_>>,
    ) -> Result<bool, StoreError> {
        self.write_all(rows, cas)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lexikey::store::alloc::{Allocator, AllocatorConfig};
    use lexikey::{Component, Format};

    fn options(ns: &str, wait_ms: u64) -> SlateOptions {
        SlateOptions {
            namespace: ns.to_string(),
            wait: Duration::from_millis(wait_ms),
            s3: None,
        }
    }

    /// A second opener of one path waits for the writer lock, then fails
    /// with a retryable error that names the lock and its holder; once the
    /// holder is gone it opens, and sees the holder's rows.
    #[test]
    fn second_writer_waits_then_fails_naming_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let a = SlateStore::open_with(dir.path(), options("t", 0)).unwrap();
        assert!(a.put_if_absent(b"k", b"a").unwrap());
        let t = Instant::now();
        let e = SlateStore::open_with(dir.path(), options("t", 300)).unwrap_err();
        assert!(t.elapsed() >= Duration::from_millis(300), "did not wait");
        assert!(e.retryable, "{e}");
        let msg = e.to_string();
        assert!(msg.contains(LOCK_FILE), "{msg}");
        assert!(
            msg.contains(&format!("(process {})", std::process::id())),
            "{msg}"
        );
        assert!(msg.contains("waiting 300 ms"), "{msg}");
        drop(a);
        let b = SlateStore::open_with(dir.path(), options("t", 0)).unwrap();
        assert_eq!(b.get(b"k").unwrap(), Some(b"a".to_vec()));
    }

    /// A writer fenced mid-allocation (a SlateDB client that ignores the
    /// lock opens the database and writes the next row): its write is not
    /// acknowledged, it reopens, and the allocator re-reads and goes on
    /// below the foreign row. Nothing acknowledged is lost.
    #[test]
    fn fenced_writer_reopens_and_the_allocator_rereads() {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(SlateStore::open_with(dir.path(), options("t", 0)).unwrap());
        let config = AllocatorConfig::new(Format::Hex, &[Component::asc("events")])
            .with_start(100)
            .with_backoff(Duration::from_micros(100), Duration::from_millis(5));
        let alloc = Allocator::new(Arc::clone(&store), config).unwrap();
        for i in 0..20u64 {
            assert_eq!(
                alloc.insert(format!("row {i}").as_bytes()).unwrap(),
                100 - i
            );
        }
        // The foreign writer: opening fences `store`; it takes ID 80.
        let foreign = store
            .rt
            .block_on(Db::builder(DB_PATH, Arc::clone(&store.objects)).build())
            .unwrap();
        let foreign_key = store.prefix.key(&alloc.key(80));
        store.rt.block_on(async {
            let h = foreign.put(&foreign_key, b"foreign").await.unwrap();
            foreign.flush().await.unwrap();
            h.await_durable().await.unwrap();
        });
        // `store` still believes 81 is the newest row: its put of 80 is
        // fenced (not acknowledged), it reopens (fencing `foreign`), and
        // the allocator reads 80 back, sees the foreign value, starts over.
        assert_eq!(alloc.insert(b"after").unwrap(), 79);
        let stats = alloc.stats();
        assert!(stats.store_errors >= 1, "{stats:?}");
        let rows = alloc.scan(usize::MAX).unwrap();
        assert_eq!(rows.len(), 22);
        assert_eq!(rows[0], (79, b"after".to_vec()));
        assert_eq!(rows[1], (80, b"foreign".to_vec()));
        for (i, row) in rows[2..].iter().rev().enumerate() {
            assert_eq!(row, &(100 - i as u64, format!("row {i}").into_bytes()));
        }
        // The foreign instance is fenced now.
        let e = store
            .rt
            .block_on(async {
                let _ = foreign.put(b"t/x", b"y").await?;
                foreign.flush().await
            })
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Closed(CloseReason::Fenced), "{e}");
        // And everything is durable: a fresh open sees the same rows.
        drop(alloc);
        drop(foreign);
        drop(store);
        let again = SlateStore::open_with(dir.path(), options("t", 0)).unwrap();
        let config = AllocatorConfig::new(Format::Hex, &[Component::asc("events")]);
        let reader = Allocator::new(again, config).unwrap();
        assert_eq!(reader.scan(usize::MAX).unwrap(), rows);
    }

    /// On S3 (moto's, through scripts/with-stores.sh): two writers on one
    /// path. The older lexikey writer is fenced when a SlateDB writer that
    /// ignores the lease opens the database: its write fails with a fatal
    /// error that says so (not acknowledged, not retried), and so does
    /// every later call; the newer writer has every acknowledged row and
    /// none of the fenced write.
    #[test]
    fn s3_older_writer_is_fenced_with_a_clear_error() {
        let base = std::env::var("LEXIKEY_SLATEDB_S3_URL")
            .expect("LEXIKEY_SLATEDB_S3_URL: run through scripts/with-stores.sh (moto's S3)");
        let (location, query) = base.split_once('?').unwrap();
        let url = format!("{location}/fence-{}?{query}&ns=t", std::process::id());
        let spec = crate::parse_url(&url).unwrap();
        let crate::StoreSpec::Slatedb { path, options } = spec else {
            panic!("{url}")
        };
        let older = SlateStore::open_with(&path, options).unwrap();
        assert!(older.on_s3());
        assert!(older.put_if_absent(b"a", b"acked").unwrap());
        let newer = older
            .rt
            .block_on(Db::builder(DB_PATH, Arc::clone(&older.objects)).build())
            .unwrap();
        let e = older.put_if_absent(b"b", b"fenced").unwrap_err();
        assert!(!e.retryable, "{e}");
        let msg = e.to_string();
        for part in [
            path.as_str(),
            "fenced: another writer opened the database",
            "this write is not acknowledged",
            "open it again",
        ] {
            assert!(msg.contains(part), "{part}: {msg}");
        }
        assert!(!msg.contains('\n'), "{msg}");
        let e = older.get(b"a").unwrap_err();
        assert!(!e.retryable && e.to_string().contains("fenced"), "{e}");
        let (a, b) = older.rt.block_on(async {
            let a = newer.get(b"t/a").await.unwrap();
            let b = newer.get(b"t/b").await.unwrap();
            newer.close().await.unwrap();
            (a, b)
        });
        assert_eq!(a.as_deref(), Some(&b"acked"[..]));
        assert_eq!(b, None);
    }
}
