//! `Allocator`: decreasing row IDs for upside-down tables, over every store
//! the command line opens, exactly as `lexikey alloc` sets it up: both call
//! `lexikey_stores::open_allocator`, so the store's tuning (processes
//! sharing a `redb:` file retry instead of giving up) and key rule are the
//! same. The table's rows are the keys `(str:TABLE, u64:ID)` in the format
//! given. Store calls run with the GIL released.

use std::sync::{Arc, PoisonError, RwLock};

use lexikey::store::alloc::Allocator as RustAllocator;
use lexikey::store::salt::SaltMode;
use lexikey::store::Store;
use lexikey::Format;
use lexikey_stores::{OpenError, TableOptions};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyTuple};

use crate::errors::{alloc_err, store_err, value_err};

/// Decreasing row IDs for an upside-down table: the newest row gets the
/// smallest key, so "latest first" is a forward scan that stops after one
/// row. `Allocator(store_url, table, format="hex", guard=False, *,
/// start=None, floor=None, salt_buckets=0, salt_mode="fast")`.
///
/// `store_url` is any store the command line accepts: `redb:PATH` (embedded;
/// processes may share the file, their writes queued), `redis://HOST:PORT`,
/// `postgres://USER@HOST:PORT/DB`, `etcd://HOST:PORT[,HOST:PORT...]`,
/// `memory:` (options after `?`, e.g. `?ns=NAME`). Rows are the keys
/// `(str:TABLE, u64:ID)` in `format` (`hex`, `base64`, `decimal`,
/// `binary`), the first row gets ID 18446744073709551615. `guard=True`
/// keeps a low-water mark so a deleted newest ID is never handed out again.
/// `start` (keyword) is the ID of an empty table's first row (default
/// 18446744073709551615) and `floor` the smallest ID ever handed out
/// (default 0; below it `insert` raises `ExhaustedError`): the core's
/// `AllocatorConfig::start` and `floor`. Every client of a table should
/// give the same. (The command line's `alloc` has no such options: its
/// tables use the defaults.) `salt_buckets=N` (keyword, 1 to 255; 0, the
/// default: none) spreads the rows over N buckets instead of writing every
/// new row next to the last one (the hot spot of an upside-down table),
/// with IDs, newest-first reads and every other rule unchanged, as `lexikey
/// alloc --salt-buckets N`; `salt_mode` is the salt's hash, `"fast"` or
/// `"phoenix"`. A table created with N buckets refuses to be opened with
/// another N or mode, or without salt (`AllocError`, kind `other`).
/// Processes and threads may share a table: no ID is ever returned twice.
///
/// - `insert(value: bytes) -> int`, `insert_many(values) -> list[int]`
/// - `newest()`, `oldest() -> (id, bytes) | None`
/// - `scan(limit=None) -> list[(id, bytes)]`, newest first
/// - `close()`: lets go of the store (its connections; a `redb:` file's
///   lock) at once instead of when the object is collected; later calls
///   raise `ValueError`. `with Allocator(...) as a:` closes on leaving.
///
/// `read_only=True` (keyword) opens an existing table for reading, as
/// `lexikey scan` does: a store that does not exist is a `StoreError`
/// (never a new empty file), a `redb:` file is opened read-only (a user
/// who may only read it can scan it), and `insert` raises `AllocError`.
///
/// Failures raise `AllocError` (`kind`: `contention` as `ContentionError`,
/// `exhausted` as `ExhaustedError`, or `store`, `ambiguous`, `corrupt`,
/// `config`, `other`).
#[pyclass(frozen, module = "lexikey")]
pub(crate) struct Allocator {
    /// `None` once closed.
    inner: RwLock<Option<Arc<Inner>>>,
    url: String,
    table: String,
}

type Inner = RustAllocator<Arc<dyn Store>>;

impl Allocator {
    /// The open allocator, or the `ValueError` of a closed one (as a
    /// closed Python file raises).
    fn open(&self) -> PyResult<Arc<Inner>> {
        self.inner
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .ok_or_else(|| value_err(format!("{} is closed", self.describe())))
    }

    fn describe(&self) -> String {
        format!("Allocator({:?}, {:?})", self.url, self.table)
    }
}

impl std::fmt::Debug for Allocator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

fn value_bytes(v: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = v.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = v.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "a row value is bytes, not {}",
        v.get_type().name()?
    )))
}

fn rows<'py>(py: Python<'py>, rows: Vec<(u64, Vec<u8>)>) -> PyResult<Bound<'py, PyList>> {
    let items = rows
        .into_iter()
        .map(|(id, v)| row(py, id, &v))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

fn row<'py>(py: Python<'py>, id: u64, v: &[u8]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(
        py,
        [
            id.into_pyobject(py)?.into_any(),
            PyBytes::new(py, v).into_any(),
        ],
    )
}

#[pymethods]
impl Allocator {
    #[new]
    #[pyo3(signature = (store_url, table, format = "hex", guard = false, *, start = None, floor = None, salt_buckets = None, salt_mode = "fast", read_only = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        store_url: &str,
        table: &str,
        format: &str,
        guard: bool,
        start: Option<&Bound<'_, PyAny>>,
        floor: Option<&Bound<'_, PyAny>>,
        salt_buckets: Option<&Bound<'_, PyAny>>,
        salt_mode: &str,
        read_only: bool,
    ) -> PyResult<Self> {
        let id = |v: Option<&Bound<'_, PyAny>>, name: &str| -> PyResult<Option<u64>> {
            v.map(|v| crate::int_arg::<u64>(v, &format!("{name} (0 to 18446744073709551615)")))
                .transpose()
                .map_err(|e| value_err(e.value(py).to_string()))
        };
        let (start, floor) = (id(start, "start")?, id(floor, "floor")?);
        let buckets = salt_buckets
            .map(|v| crate::int_arg::<u8>(v, "salt_buckets (0 to 255; 0: no salt)"))
            .transpose()
            .map_err(|e| value_err(e.value(py).to_string()))?
            .unwrap_or(0);
        let mode = SaltMode::from_name(salt_mode).ok_or_else(|| {
            value_err(format!(
                "invalid salt_mode {salt_mode:?}: expected \"fast\" (the default) or \"phoenix\""
            ))
        })?;
        let format = Format::parse(format).map_err(|e| {
            value_err(format!(
                "{e} (an allocator's keys are in a native format: hex, base64, decimal or binary)"
            ))
        })?;
        let mut options = TableOptions::new(format)
            .with_guard(guard)
            .with_salt_buckets(buckets)
            .with_salt_mode(mode)
            .with_existing_only(read_only);
        if let Some(start) = start {
            options = options.with_start(start);
        }
        if let Some(floor) = floor {
            options = options.with_floor(floor);
        }
        let inner = py
            .detach(|| lexikey_stores::open_allocator(store_url, table, &options))
            .map_err(|e| match e {
                OpenError::Alloc(e) => alloc_err(py, &e, &[]),
                // The store does not open: an OSError, with the command
                // line's message.
                e @ OpenError::Store { .. } => store_err(e.to_string()),
                // A URL that does not parse (OpenError::BadUrl), or row
                // keys that break the store's key rule.
                e => value_err(e.to_string()),
            })?;
        Ok(Allocator {
            inner: RwLock::new(Some(Arc::new(inner))),
            url: store_url.to_string(),
            table: table.to_string(),
        })
    }

    fn __repr__(&self) -> String {
        let closed = self
            .inner
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .is_none();
        let state = if closed { " (closed)" } else { "" };
        format!("{}{state}", self.describe())
    }

    /// Lets go of the store now (connections, a `redb:` file's lock);
    /// calls after it raise `ValueError`. Closing twice is allowed. A call
    /// running in another thread finishes first.
    fn close(&self) {
        let _ = self
            .inner
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// Closes the allocator; an exception in the `with` block goes on.
    #[pyo3(signature = (_exc_type = None, _exc = None, _tb = None))]
    fn __exit__(
        &self,
        _exc_type: Option<&Bound<'_, PyAny>>,
        _exc: Option<&Bound<'_, PyAny>>,
        _tb: Option<&Bound<'_, PyAny>>,
    ) -> bool {
        self.close();
        false
    }

    /// Inserts a row holding `value` under a new ID (one below the newest
    /// row's) and returns the ID.
    fn insert(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<u64> {
        let v = value_bytes(value)?;
        let inner = self.open()?;
        py.detach(|| inner.insert(&v))
            .map_err(|e| alloc_err(py, &e, &[]))
    }

    /// Inserts one row per value, in order, and returns their IDs (each
    /// below the one before). On redb, RocksDB, SlateDB, PostgreSQL and
    /// `memory:` the values are committed in batches of up to 1,024, each
    /// one transaction (one fsync on redb); on Redis, etcd and Bigtable
    /// each value is its own insert. On a failure the exception's `ids`
    /// holds the IDs allocated before it (whole batches).
    fn insert_many(&self, py: Python<'_>, values: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
        let vs = values
            .try_iter()?
            .map(|v| value_bytes(&v?))
            .collect::<PyResult<Vec<_>>>()?;
        let inner = self.open()?;
        let mut ids = Vec::with_capacity(vs.len());
        let res = py.detach(|| inner.insert_many_into(&vs, &mut ids));
        match res {
            Ok(()) => Ok(ids),
            Err(e) => Err(alloc_err(py, &e, &ids)),
        }
    }

    /// The newest row `(id, value)`, or `None` for an empty table.
    fn newest<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let inner = self.open()?;
        let r = py
            .detach(|| inner.newest())
            .map_err(|e| alloc_err(py, &e, &[]))?;
        r.map(|(id, v)| row(py, id, &v)).transpose()
    }

    /// The oldest row `(id, value)`, or `None` for an empty table.
    fn oldest<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let inner = self.open()?;
        let r = py
            .detach(|| inner.oldest())
            .map_err(|e| alloc_err(py, &e, &[]))?;
        r.map(|(id, v)| row(py, id, &v)).transpose()
    }

    /// Up to `limit` rows `(id, value)`, newest first (all with `None`).
    #[pyo3(signature = (limit = None))]
    fn scan<'py>(&self, py: Python<'py>, limit: Option<usize>) -> PyResult<Bound<'py, PyList>> {
        let n = limit.unwrap_or(usize::MAX);
        let inner = self.open()?;
        let r = py
            .detach(|| inner.scan(n))
            .map_err(|e| alloc_err(py, &e, &[]))?;
        rows(py, r)
    }
}
