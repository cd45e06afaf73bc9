//! `Allocator`: decreasing row IDs for upside-down tables, over every store
//! the command line opens (`lexikey_stores::open`), exactly as `lexikey
//! alloc` and `lexikey scan` set it up: the table's rows are the keys
//! `(str:TABLE, u64:ID)` in the format given. Store calls run with the GIL
//! released.

use std::sync::Arc;

use lexikey::alloc::{Allocator as RustAllocator, AllocatorConfig};
use lexikey::store::Store;
use lexikey::{Component, Format};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyTuple};

use crate::errors::{alloc_err, value_err};

/// Decreasing row IDs for an upside-down table: the newest row gets the
/// smallest key, so "latest first" is a forward scan that stops after one
/// row. `Allocator(store_url, table, format="hex", guard=False, *,
/// start=None, floor=None)`.
///
/// `store_url` is any store the command line accepts: `redb:PATH` (embedded,
/// one process at a time), `redis://HOST:PORT`,
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
/// tables use the defaults.)
/// Processes and threads may share a table: no ID is ever returned twice.
///
/// - `insert(value: bytes) -> int`, `insert_many(values) -> list[int]`
/// - `newest()`, `oldest() -> (id, bytes) | None`
/// - `scan(limit=None) -> list[(id, bytes)]`, newest first
///
/// Failures raise `AllocError` (`kind`: `contention` as `ContentionError`,
/// `exhausted` as `ExhaustedError`, or `store`, `ambiguous`, `corrupt`,
/// `config`, `other`).
#[pyclass(frozen, module = "lexikey")]
pub(crate) struct Allocator {
    inner: RustAllocator<Arc<dyn Store>>,
    url: String,
    table: String,
}

impl std::fmt::Debug for Allocator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Allocator({:?}, {:?})", self.url, self.table)
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
    #[pyo3(signature = (store_url, table, format = "hex", guard = false, *, start = None, floor = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        store_url: &str,
        table: &str,
        format: &str,
        guard: bool,
        start: Option<&Bound<'_, PyAny>>,
        floor: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let id = |v: Option<&Bound<'_, PyAny>>, name: &str| -> PyResult<Option<u64>> {
            v.map(|v| crate::conv::int::<u64>(v, &format!("{name} (0 to 18446744073709551615)")))
                .transpose()
                .map_err(|e| value_err(e.value(py).to_string()))
        };
        let (start, floor) = (id(start, "start")?, id(floor, "floor")?);
        let format = Format::parse(format).map_err(|e| {
            value_err(format!(
                "{e} (an allocator's keys are in a native format: hex, base64, decimal or binary)"
            ))
        })?;
        let store = py
            .detach(|| lexikey_cli::cmd::alloc::open_store(store_url))
            .map_err(|e| value_err(format!("{e:#}")))?;
        let mut config = AllocatorConfig::new(format, &[Component::asc(table.to_string())]);
        if guard {
            config = config.with_guard(true);
        }
        if let Some(start) = start {
            config = config.with_start(start);
        }
        if let Some(floor) = floor {
            config = config.with_floor(floor);
        }
        let inner = RustAllocator::new(store, config).map_err(|e| alloc_err(py, &e, &[]))?;
        Ok(Allocator {
            inner,
            url: store_url.to_string(),
            table: table.to_string(),
        })
    }

    fn __repr__(&self) -> String {
        format!("Allocator({:?}, {:?})", self.url, self.table)
    }

    /// Inserts a row holding `value` under a new ID (one below the newest
    /// row's) and returns the ID.
    fn insert(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<u64> {
        let v = value_bytes(value)?;
        py.detach(|| self.inner.insert(&v))
            .map_err(|e| alloc_err(py, &e, &[]))
    }

    /// Inserts one row per value, in order, and returns their IDs. On a
    /// failure the exception's `ids` holds the IDs allocated before it.
    fn insert_many(&self, py: Python<'_>, values: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
        let vs = values
            .try_iter()?
            .map(|v| value_bytes(&v?))
            .collect::<PyResult<Vec<_>>>()?;
        let mut ids = Vec::with_capacity(vs.len());
        let res = py.detach(|| {
            for v in &vs {
                ids.push(self.inner.insert(v)?);
            }
            Ok::<(), lexikey::AllocError>(())
        });
        match res {
            Ok(()) => Ok(ids),
            Err(e) => Err(alloc_err(py, &e, &ids)),
        }
    }

    /// The newest row `(id, value)`, or `None` for an empty table.
    fn newest<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let r = py
            .detach(|| self.inner.newest())
            .map_err(|e| alloc_err(py, &e, &[]))?;
        r.map(|(id, v)| row(py, id, &v)).transpose()
    }

    /// The oldest row `(id, value)`, or `None` for an empty table.
    fn oldest<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let r = py
            .detach(|| self.inner.oldest())
            .map_err(|e| alloc_err(py, &e, &[]))?;
        r.map(|(id, v)| row(py, id, &v)).transpose()
    }

    /// Up to `limit` rows `(id, value)`, newest first (all with `None`).
    #[pyo3(signature = (limit = None))]
    fn scan<'py>(&self, py: Python<'py>, limit: Option<usize>) -> PyResult<Bound<'py, PyList>> {
        let n = limit.unwrap_or(usize::MAX);
        let r = py
            .detach(|| self.inner.scan(n))
            .map_err(|e| alloc_err(py, &e, &[]))?;
        rows(py, r)
    }
}
