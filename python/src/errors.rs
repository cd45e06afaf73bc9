//! The exceptions: `DecodeError` and `EncodeError` (subclasses of
//! `ValueError`), `AllocError` (a `RuntimeError`) and its two kinds a
//! caller handles differently, `ContentionError` (retry later) and
//! `ExhaustedError` (the table has no ID left).

use lexikey::store::alloc::AllocError as RustAllocError;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;

pyo3::create_exception!(
    lexikey,
    DecodeError,
    PyValueError,
    "A key that does not decode: not a key its encoder could have written.\n\n\
     `offset` is the byte offset of the first byte at fault (for a binary key given as \
     hex text, the byte index: hex digits 2*offset and 2*offset+1)."
);
pyo3::create_exception!(
    lexikey,
    EncodeError,
    PyValueError,
    "Values that cannot be encoded: a component that does not parse, a value of the \
     wrong type or out of range, a width overflow, a key over the length limit."
);
pyo3::create_exception!(
    lexikey,
    AllocError,
    PyRuntimeError,
    "An allocation failed. `kind` says why: 'contention', 'exhausted', 'store', \
     'ambiguous', 'corrupt', 'config' or 'other'; `ids` lists the IDs that \
     insert_many allocated before the failure."
);
pyo3::create_exception!(
    lexikey,
    ContentionError,
    AllocError,
    "Every attempt lost to another client or hit a retryable store error; nothing was \
     written. Retrying later may succeed (kind 'contention')."
);
pyo3::create_exception!(
    lexikey,
    ExhaustedError,
    AllocError,
    "The table's IDs are used up down to the floor; never a wrap (kind 'exhausted')."
);

pyo3::create_exception!(
    lexikey,
    StoreError,
    pyo3::exceptions::PyOSError,
    "A store that cannot be opened or reached (a refused connection, a missing directory, \
     TLS or authentication failures): an OSError."
);

/// A `StoreError` with `msg`.
pub(crate) fn store_err(msg: String) -> PyErr {
    StoreError::new_err(msg)
}

/// An `EncodeError` with `msg`.
pub(crate) fn encode_err(msg: String) -> PyErr {
    EncodeError::new_err(msg)
}

/// A `DecodeError` with `msg` and `offset`.
pub(crate) fn decode_err(msg: String, offset: usize) -> PyErr {
    Python::attach(|py| {
        let e = DecodeError::new_err(msg);
        match e.value(py).setattr("offset", offset) {
            Ok(()) => e,
            Err(other) => other,
        }
    })
}

/// The `DecodeError` of a Rust decode error (`what`: the key, for the
/// message).
pub(crate) fn from_decode(e: &lexikey::DecodeError, what: &str) -> PyErr {
    decode_err(format!("invalid key {what}: {e}"), e.offset())
}

/// A plain `ValueError` (bad arguments: an unknown format, schema or
/// render target).
pub(crate) fn value_err(msg: String) -> PyErr {
    PyValueError::new_err(msg)
}

/// The exception of an allocator error, with `kind` and the `ids` allocated
/// before it.
pub(crate) fn alloc_err(py: Python<'_>, e: &RustAllocError, ids: &[u64]) -> PyErr {
    let kind = e.kind();
    let msg = e.to_string();
    let err = match kind {
        "contention" => ContentionError::new_err(msg),
        "exhausted" => ExhaustedError::new_err(msg),
        _ => AllocError::new_err(msg),
    };
    let set = || -> PyResult<()> {
        let v = err.value(py);
        v.setattr("kind", kind)?;
        v.setattr("ids", PyList::new(py, ids)?)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(other) => other,
    }
}
