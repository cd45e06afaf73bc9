//! FoundationDB versionstamps and versionstamped keys: `lexikey.Versionstamp`
//! and `lexikey.pack_with_versionstamp`, the names and behaviour of the
//! official bindings' `fdb.tuple.Versionstamp` and
//! `fdb.tuple.pack_with_versionstamp` (the rules are the core's:
//! [`lexikey::interop::fdb::pack_with_versionstamp`]).

use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::profile::Profile;
use lexikey::interop::fdb;
use pyo3::basic::CompareOp;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes};

use crate::errors::encode_err;

/// A FoundationDB versionstamp: a 10-byte transaction version (``None``: an
/// incomplete versionstamp, which the database completes at commit) and a
/// 16-bit user version.
///
/// >>> lexikey.Versionstamp(bytes(range(10)), 5).to_bytes().hex()
/// '000102030405060708090005'
///
/// A transaction version of ten ``0xff`` bytes is the incomplete
/// placeholder: it reads back as ``None``, as ``fdb.tuple`` decodes it.
/// Versionstamps compare by their 12 bytes, the order of their keys.
#[pyclass(module = "lexikey", frozen)]
#[derive(Clone)]
pub(crate) struct Versionstamp(pub(crate) fdb::Versionstamp);

#[pymethods]
impl Versionstamp {
    #[new]
    #[pyo3(signature = (tr_version, user_version = 0))]
    fn new(tr_version: Option<&Bound<'_, PyAny>>, user_version: i128) -> PyResult<Self> {
        let uv = user_version;
        let uv = u16::try_from(uv).map_err(|_| {
            PyValueError::new_err(format!("user_version {uv} is out of range (0 to 65535)"))
        })?;
        let Some(tr) = tr_version.filter(|t| !t.is_none()) else {
            return Ok(Versionstamp(fdb::Versionstamp::incomplete(uv)));
        };
        let tr = tr.cast::<PyBytes>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "tr_version is bytes or None, not {}",
                crate::conv::type_name(tr)
            ))
        })?;
        let tr: [u8; 10] = tr.as_bytes().try_into().map_err(|_| {
            PyValueError::new_err(format!(
                "tr_version is 10 bytes, not {} (a versionstamp is 10 bytes of transaction \
                 version and a 2-byte user version)",
                tr.as_bytes().len()
            ))
        })?;
        Ok(Versionstamp(fdb::Versionstamp::new(tr, uv)))
    }

    /// The 10-byte transaction version, or ``None`` when incomplete.
    #[getter]
    fn tr_version<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.0
            .is_complete()
            .then(|| PyBytes::new(py, &self.0.tr_version()))
    }

    /// The 16-bit user version.
    #[getter]
    fn user_version(&self) -> u16 {
        self.0.user_version()
    }

    /// Whether the transaction version is set.
    fn is_complete(&self) -> bool {
        self.0.is_complete()
    }

    /// The 12 bytes as packed (an incomplete one's transaction version all
    /// ``0xff``).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.0 .0)
    }

    fn __repr__(&self) -> String {
        match self.0.is_complete() {
            true => format!(
                "lexikey.Versionstamp(bytes.fromhex('{}'), {})",
                lexikey::to_hex(&self.0.tr_version()),
                self.0.user_version()
            ),
            false => format!("lexikey.Versionstamp(None, {})", self.0.user_version()),
        }
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        match other.cast::<Versionstamp>() {
            Ok(o) => PyBool::new(py, op.matches(self.0.cmp(&o.get().0)))
                .to_owned()
                .into_any()
                .unbind(),
            Err(_) => py.NotImplemented(),
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.0.hash(&mut h);
        h.finish()
    }
}

/// Packs components (as ``encode`` takes them in the ``fdb-tuple`` format,
/// lists being nested tuples) holding exactly one incomplete
/// ``Versionstamp``, for FoundationDB's ``SET_VERSIONSTAMPED_KEY``: the
/// packed tuple, then the placeholder's offset as 4 bytes little-endian —
/// what ``fdb.tuple.pack_with_versionstamp`` returns.
///
/// >>> lexikey.pack_with_versionstamp(["log", lexikey.Versionstamp(None)]).hex()
/// '026c6f670033ffffffffffffffffffff000006000000'
///
/// Raises ``EncodeError`` when there is no incomplete versionstamp or more
/// than one, or for a component that cannot be encoded.
#[pyfunction]
pub(crate) fn pack_with_versionstamp<'py>(
    py: Python<'py>,
    components: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let fmt = KeyFormat::Profile(Profile::Fdb);
    let spec = crate::Fidelity::default().spec(fmt, None, None)?;
    let comps = crate::components(&spec, components)?;
    let key = spec
        .encode_with_versionstamp(&comps)
        .map_err(|e| encode_err(e.to_string()))?;
    Ok(PyBytes::new(py, &key))
}
