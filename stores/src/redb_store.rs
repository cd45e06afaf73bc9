//! The embedded default store: redb, a pure-Rust copy-on-write B-tree.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use lexikey::store::{btree_bounds, Cas, Entry, Store, StoreError};
use lexikey::KeyRange;
use redb::{
    ConcurrencyMode, Database, DatabaseError, Durability, ReadOnlyDatabase, ReadTransaction,
    ReadableDatabase, ReadableTable, TableDefinition, TableError, TableHandle, TransactionError,
};

use crate::RedbOptions;

const NAME: &str = "redb";

/// In no-fsync mode, every this many commits one is made durable anyway:
/// redb frees pages only in durable commits, so the file stays bounded.
const DURABLE_EVERY: u64 = 1024;

/// A [`Store`] in a redb database file.
///
/// redb runs one write transaction at a time (others block in
/// `begin_write`), so "get, then insert if absent, then commit" is atomic
/// without any retry loop. Reads run on snapshots, concurrently with the
/// writer.
///
/// By default several processes may open a database file at once
/// ([`RedbOptions::multi_process`]); their writes queue. A process that
/// opened it alone (`processes=one`, or `fsync=false`) makes the others wait
/// at open, up to [`RedbOptions::lock_timeout`]. Within a process, share the
/// store between threads (it is `Sync`) rather than opening it again.
pub struct RedbStore {
    db: Db,
    table: String,
    fsync: bool,
    commits: AtomicU64,
}

impl std::fmt::Debug for RedbStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedbStore")
            .field("table", &self.table)
            .field("fsync", &self.fsync)
            .finish_non_exhaustive()
    }
}

/// The database, opened for writing or for reading only.
enum Db {
    Write(Database),
    Read(ReadOnlyDatabase),
}

impl Db {
    fn begin_read(&self) -> Result<ReadTransaction, TransactionError> {
        match self {
            Db::Write(db) => db.begin_read(),
            Db::Read(db) => db.begin_read(),
        }
    }

    fn writer(&self) -> Result<&Database, StoreError> {
        match self {
            Db::Write(db) => Ok(db),
            Db::Read(_) => Err(StoreError::fatal(
                NAME,
                "the store was opened for reading only (a reading command): writes are refused",
            )),
        }
    }
}

fn err(e: impl std::fmt::Display) -> StoreError {
    StoreError::fatal(NAME, e.to_string())
}

impl RedbStore {
    /// Opens (creating if missing) the database file at `path` with default
    /// options: namespace `lexikey`, fsync on every commit, several
    /// processes.
    ///
    /// # Errors
    /// A fatal [`StoreError`] when the file cannot be created or opened,
    /// including: held alone by another process (or a second handle in this
    /// one) for longer than the lock timeout.
    pub fn open(path: impl AsRef<Path>) -> Result<RedbStore, StoreError> {
        Self::open_with(path, RedbOptions::default())
    }

    /// Opens (creating if missing) the database file at `path`.
    ///
    /// # Errors
    /// As [`RedbStore::open`], and for a bad namespace.
    pub fn open_with(
        path: impl AsRef<Path>,
        options: RedbOptions,
    ) -> Result<RedbStore, StoreError> {
        crate::check_namespace(&options.namespace)?;
        if options.multi_process && !options.fsync {
            return Err(StoreError::fatal(
                NAME,
                crate::url::MULTI_PROCESS_NEEDS_FSYNC,
            ));
        }
        let path = path.as_ref();
        let db = open_waiting(path, &options)?;
        let read_only = matches!(db, Db::Read(_));
        let store = RedbStore {
            db,
            table: options.namespace,
            fsync: options.fsync,
            commits: AtomicU64::new(0),
        };
        if read_only {
            store.check_table(path)?;
        } else {
            // Create the table now, so that readers never meet a missing
            // table.
            store.write(|_| Ok(((), true)))?;
        }
        Ok(store)
    }

    /// Opens the existing database file at `path` for reading only, with
    /// default options ([`RedbOptions::read_only`]): what reading commands
    /// (`lexikey scan`) do. Readers and writers of other processes go on
    /// meanwhile (in the default several-processes mode the reader follows
    /// their commits).
    ///
    /// # Errors
    /// A fatal [`StoreError`] when the file is missing or cannot be read.
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<RedbStore, StoreError> {
        Self::open_with(
            path,
            RedbOptions {
                read_only: true,
                ..RedbOptions::default()
            },
        )
    }

    /// Read-only: the namespace's table is in the file, or a fatal error
    /// naming it and the tables there (a writer creates it when it opens).
    fn check_table(&self, path: &Path) -> Result<(), StoreError> {
        let txn = self.db.begin_read().map_err(err)?;
        match txn.open_table(self.def()) {
            Ok(_) => return Ok(()),
            Err(TableError::TableDoesNotExist(_)) => {}
            Err(e) => return Err(err(e)),
        }
        let mut names: Vec<String> = txn
            .list_tables()
            .map_err(err)?
            .map(|t| t.name().to_string())
            .collect();
        names.sort_unstable();
        let there = if names.is_empty() {
            "it has none".to_string()
        } else {
            format!("its namespaces: {}", names.join(", "))
        };
        Err(StoreError::fatal(
            NAME,
            format!(
                "{}: no namespace {:?} (ns=) in this file: {there}; reading creates nothing",
                path.display(),
                self.table
            ),
        ))
    }

    fn def(&self) -> TableDefinition<'_, &'static [u8], &'static [u8]> {
        TableDefinition::new(&self.table)
    }

    /// The write transactions this handle has committed since it was
    /// opened (durable or not; [`RedbStore::flush`] not counted): one per
    /// write, one per [`Store::put_all_if_absent`] batch.
    pub fn commits(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }

    /// Makes every commit so far durable (one empty durable commit). A no-op
    /// in the default fsync mode, apart from its cost.
    ///
    /// # Errors
    /// A fatal [`StoreError`] on I/O failure.
    pub fn flush(&self) -> Result<(), StoreError> {
        let mut txn = self.db.writer()?.begin_write().map_err(err)?;
        txn.set_durability(Durability::Immediate).map_err(err)?;
        txn.commit().map_err(err)
    }

    /// Runs `f` in a write transaction; commits if `f` returns `(_, true)`,
    /// aborts if `(_, false)`.
    fn write<T>(
        &self,
        f: impl FnOnce(
            &mut redb::Table<'_, &'static [u8], &'static [u8]>,
        ) -> Result<(T, bool), StoreError>,
    ) -> Result<T, StoreError> {
        let mut txn = self.db.writer()?.begin_write().map_err(err)?;
        let (out, commit) = {
            let mut table = txn.open_table(self.def()).map_err(err)?;
            f(&mut table)?
        };
        if !commit {
            txn.abort().map_err(err)?;
            return Ok(out);
        }
        let n = self.commits.fetch_add(1, Ordering::Relaxed) + 1;
        let durable = self.fsync || n.is_multiple_of(DURABLE_EVERY);
        txn.set_durability(if durable {
            Durability::Immediate
        } else {
            Durability::None
        })
        .map_err(err)?;
        txn.commit().map_err(err)?;
        Ok(out)
    }

    /// Runs `f` on a read snapshot of the table; `T::default()` (nothing
    /// found) when the table is missing, which only a read-only store meets.
    fn read<T: Default>(
        &self,
        f: impl FnOnce(&redb::ReadOnlyTable<&'static [u8], &'static [u8]>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let txn = self.db.begin_read().map_err(err)?;
        let table = match txn.open_table(self.def()) {
            Ok(table) => table,
            Err(TableError::TableDoesNotExist(_)) => return Ok(T::default()),
            Err(e) => return Err(err(e)),
        };
        f(&table)
    }
}

/// The first key of a non-empty `range` in `table`.
fn first_in(
    table: &redb::ReadOnlyTable<&'static [u8], &'static [u8]>,
    range: &KeyRange,
) -> Result<Option<Vec<u8>>, StoreError> {
    let mut it = table.range::<&[u8]>(btree_bounds(range)).map_err(err)?;
    match it.next() {
        None => Ok(None),
        Some(r) => Ok(Some(r.map_err(err)?.0.value().to_vec())),
    }
}

/// Opens the file, waiting while another process holds it alone: retries
/// with backoff (5 ms doubling to 100 ms) until `options.lock_timeout`.
fn open_waiting(path: &Path, options: &RedbOptions) -> Result<Db, StoreError> {
    let start = Instant::now();
    let mut pause = Duration::from_millis(5);
    loop {
        let mut builder = Database::builder();
        builder.set_concurrency_mode(if options.multi_process {
            ConcurrencyMode::MultiWriter
        } else {
            ConcurrencyMode::ExclusiveWriter
        });
        let r = if options.read_only {
            builder.open_read_only(path).map(Db::Read)
        } else {
            builder.create(path).map(Db::Write)
        };
        match r {
            Ok(db) => return Ok(db),
            Err(DatabaseError::DatabaseAlreadyOpen) => {
                let waited = start.elapsed();
                if waited >= options.lock_timeout {
                    return Err(StoreError::fatal(
                        NAME,
                        format!(
                            "{}: the file is held by another process (one that opened it with \
                             processes=one or fsync=false), still after waiting {} ms: \
                             raise ?lock_timeout_ms=N to wait longer",
                            path.display(),
                            options.lock_timeout.as_millis()
                        ),
                    ));
                }
                std::thread::sleep(pause.min(options.lock_timeout - waited));
                pause = (pause * 2).min(Duration::from_millis(100));
            }
            Err(e) => return Err(StoreError::fatal(NAME, format!("{}: {e}", path.display()))),
        }
    }
}

impl Drop for RedbStore {
    fn drop(&mut self) {
        if !self.fsync {
            // Make the non-durable commits durable on a clean close.
            let _ = self.flush();
        }
    }
}

impl Store for RedbStore {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        if range.is_empty() {
            return Ok(None);
        }
        self.read(|t| first_in(t, range))
    }

    /// Every range in one read transaction (one snapshot).
    fn first_keys(&self, ranges: &[KeyRange]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        self.read(|t| {
            ranges
                .iter()
                .map(|range| {
                    if range.is_empty() {
                        return Ok(None);
                    }
                    first_in(t, range)
                })
                .collect()
        })
    }

    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        self.write(|t| {
            if t.get(key).map_err(err)?.is_some() {
                return Ok((false, false));
            }
            let _ = t.insert(key, value).map_err(err)?;
            Ok((true, true))
        })
    }

    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        self.write(|t| {
            let matches = {
                let cur = t.get(key).map_err(err)?;
                cur.as_ref().map(|g| g.value()) == expected
            };
            if !matches {
                return Ok((false, false));
            }
            let _ = t.insert(key, new).map_err(err)?;
            Ok((true, true))
        })
    }

    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.read(|t| Ok(t.get(key).map_err(err)?.map(|g| g.value().to_vec())))
    }

    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        if range.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        self.read(|t| {
            let mut out = Vec::new();
            for r in t.range::<&[u8]>(btree_bounds(range)).map_err(err)? {
                let (k, v) = r.map_err(err)?;
                out.push((k.value().to_vec(), v.value().to_vec()));
                if out.len() == limit {
                    break;
                }
            }
            Ok(out)
        })
    }

    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        self.write(|t| {
            let existed = t.remove(key).map_err(err)?.is_some();
            Ok((existed, existed))
        })
    }

    fn atomic_batches(&self) -> bool {
        true
    }

    /// One write transaction: one commit (one `fsync` with `fsync=true`).
    fn put_all_if_absent(
        &self,
        rows: &[(&[u8], &[u8])],
        cas: Option<Cas<'_>>,
    ) -> Result<bool, StoreError> {
        self.write(|t| {
            if let Some(c) = cas {
                let matches = {
                    let cur = t.get(c.key).map_err(err)?;
                    cur.as_ref().map(|g| g.value()) == c.expected
                };
                if !matches {
                    return Ok((false, false));
                }
            }
            for (k, _) in rows {
                if t.get(*k).map_err(err)?.is_some() {
                    return Ok((false, false));
                }
            }
            if let Some(c) = cas {
                let _ = t.insert(c.key, c.new).map_err(err)?;
            }
            for (k, v) in rows {
                let _ = t.insert(*k, *v).map_err(err)?;
            }
            Ok((true, true))
        })
    }
}
