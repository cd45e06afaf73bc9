//! Python values ↔ the core's host-neutral values: a Python object becomes
//! a [`lexikey::frontend::host::Arg`] (which column type takes which argument, and
//! how, is the core's rule: [`lexikey::frontend::host`]), a decoded
//! [`lexikey::frontend::host::Out`] becomes a Python object, and an
//! [`ArgError`] is worded with Python's names for its types.
//!
//! | Python | `Arg` | decoded back from |
//! |---|---|---|
//! | `None` | `Null` | `Null` |
//! | `bool` | `Bool` | `Bool` |
//! | `int` (and any `__index__` integer) | `Int`, beyond `i64` `BigInt` | `Int`, `U64`, `BigInt` |
//! | `float` | `F64` | `F64`, `F32` (widened, NaN payload kept) |
//! | `str` | `Str` | `Str` (also a `ulid`'s text) |
//! | `bytes`, `bytearray` | `Bytes` | `Bytes` |
//! | timezone-aware `datetime` | `Time` (to the microsecond) | `Time` as a `datetime` in UTC (a Phoenix `TIMESTAMP` with nanoseconds below the microsecond: its RFC 3339 text) |
//! | `uuid.UUID` | `Uuid` | `Uuid` |
//! | `decimal.Decimal` | `Decimal` (its `str`) | `Decimal` |
//! | `(lat, lon)` | `Geo` | `Geo` |
//! | `lexikey.Versionstamp` | `Versionstamp` | `Versionstamp` |
//! | fdb-tuple nested tuple: a `list` of components (`lib.rs`, `KeySpec::nested`) | — | `Nested`: a list of `(type, value)` pairs |
//!
//! Anything else is `Other`; a naive `datetime` too (its message says why).

use lexikey::frontend::host::{self, Arg, ArgError, ArgKind, Out, Want};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::profile::Profile;
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyModule, PyString, PyTuple,
};
use std::os::raw::{c_char, c_int, c_void};

use crate::errors::{decode_err, encode_err};

/// The UTF-8 text of a `str` without a copy (`None`, the error cleared, for
/// a `str` holding lone surrogates).
pub(crate) fn utf8<'a>(s: &'a Bound<'_, PyString>) -> Option<&'a str> {
    // SAFETY: `s` is a live `str` (the GIL is held: we have a `Bound`) and
    // outlives `'a`.
    #[allow(unsafe_code)]
    unsafe {
        utf8_raw(s.as_ptr())
    }
}

/// [`utf8`] of a raw `str` pointer.
///
/// `PyUnicode_AsUTF8AndSize` caches the UTF-8 form in the object (for an
/// ASCII string it is the string's own buffer). It is in every CPython 3
/// (in the limited API from 3.10 only, which is why `pyo3::ffi` under
/// `abi3-py39` does not declare it; the symbol is the interpreter's own and
/// resolved when the module is loaded).
///
/// # Safety
/// The GIL is held, `obj` is a live `str`, and the result is not used once
/// `obj` may have been freed (the bytes belong to it).
#[allow(unsafe_code)]
pub(crate) unsafe fn utf8_raw<'a>(obj: *mut pyo3::ffi::PyObject) -> Option<&'a str> {
    extern "C" {
        fn PyUnicode_AsUTF8AndSize(
            unicode: *mut pyo3::ffi::PyObject,
            size: *mut pyo3::ffi::Py_ssize_t,
        ) -> *const std::os::raw::c_char;
    }
    let mut n: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: per the contract; the call returns NULL with an exception
    // set, or a pointer to `n` bytes of valid UTF-8 owned by `obj`.
    let p = unsafe { PyUnicode_AsUTF8AndSize(obj, &mut n) };
    if p.is_null() {
        // SAFETY: the GIL is held.
        unsafe { pyo3::ffi::PyErr_Clear() };
        return None;
    }
    let len = usize::try_from(n).ok()?;
    // SAFETY: as above: `len` bytes at `p`, valid UTF-8 (CPython's encoder
    // wrote them; it refuses lone surrogates), alive while `obj` is.
    Some(unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(p.cast::<u8>(), len)) })
}

/// A `str` of UTF-8 bytes, checked by CPython's decoder (no second check
/// in Rust): `PyUnicode_FromStringAndSize`, in the limited API.
#[allow(unsafe_code)]
pub(crate) fn str_of_utf8<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let len = pyo3::ffi::Py_ssize_t::try_from(bytes.len())
        .map_err(|_| encode_err("key too long for a str".into()))?;
    // SAFETY: the GIL is held (`py`); `bytes` is valid for `len` bytes
    // during the call, which copies them; the result is a new reference or
    // NULL with an exception set, both handled by `from_owned_ptr_or_err`.
    unsafe {
        let p = pyo3::ffi::PyUnicode_FromStringAndSize(bytes.as_ptr().cast(), len);
        Bound::from_owned_ptr_or_err(py, p)
    }
}

struct Std {
    datetime: Py<PyAny>,
    epoch: Py<PyAny>,
    /// `datetime.timezone.utc` (a singleton: `timezone(timedelta(0))` is it).
    utc: Py<PyAny>,
    uuid: Py<PyAny>,
    decimal: Py<PyAny>,
    /// Whether an exact `datetime`'s fields may be read from its memory
    /// ([`RawDateTime`], checked against known values at start).
    raw_datetime: bool,
    /// `DateTime_FromDateAndTime` of the datetime C API capsule (`None`:
    /// the capsule did not pass the check at start).
    new_datetime: Option<NewDateTime>,
    /// How a decoded `UUID` is made: `object.__new__(UUID)` and its two
    /// slots set, as `UUID.__init__` sets them (`None`: that did not give
    /// `UUID(int=…)` at start, and `UUID(int=…)` is called).
    new_uuid: Option<NewUuid>,
}

/// `PyDateTime_CAPI.DateTime_FromDateAndTime` (Include/datetime.h): year,
/// month, day, hour, minute, second, microsecond, tzinfo, type.
type NewDateTime = unsafe extern "C" fn(
    c_int,
    c_int,
    c_int,
    c_int,
    c_int,
    c_int,
    c_int,
    *mut ffi::PyObject,
    *mut ffi::PyTypeObject,
) -> *mut ffi::PyObject;

/// The start of CPython's `PyDateTime_CAPI` (Include/datetime.h; fields
/// are only ever appended), up to the constructor used here.
#[repr(C)]
struct DateTimeCapi {
    date_type: *mut ffi::PyTypeObject,
    datetime_type: *mut ffi::PyTypeObject,
    time_type: *mut ffi::PyTypeObject,
    delta_type: *mut ffi::PyTypeObject,
    tzinfo_type: *mut ffi::PyTypeObject,
    timezone_utc: *mut ffi::PyObject,
    date_from_date: *const c_void,
    datetime_from_date_and_time: NewDateTime,
}

/// CPython's `PyDateTime_DateTime` (Include/datetime.h, the same from 3.6
/// to 3.14): the fields packed big-endian in `data` (year: 2 bytes, month,
/// day, hour, minute, second, microsecond: 3 bytes). Not in the limited
/// API, so [`std_types`] checks it against `datetime`s of known fields
/// before it is used; the attribute path stands in otherwise.
#[repr(C)]
struct RawDateTime {
    ob: ffi::PyObject,
    hashcode: ffi::Py_hash_t,
    hastzinfo: c_char,
    data: [u8; 10],
    fold: u8,
    tzinfo: *mut ffi::PyObject,
}

/// The fields of a `datetime` read from its memory: `(year, month, day,
/// hour, minute, second, microsecond)` and its `tzinfo` (null: naive).
///
/// # Safety
/// `obj` is a live object of the exact `datetime` type, and
/// [`Std::raw_datetime`] holds.
#[allow(unsafe_code)]
unsafe fn raw_fields(obj: *mut ffi::PyObject) -> ([i64; 7], *mut ffi::PyObject) {
    // SAFETY: per the contract, `obj` points to a `PyDateTime_DateTime`
    // of this layout.
    let dt = unsafe { &*obj.cast::<RawDateTime>() };
    let d = dt.data.map(i64::from);
    let tz = if dt.hastzinfo != 0 {
        dt.tzinfo
    } else {
        std::ptr::null_mut()
    };
    (
        [
            d[0] << 8 | d[1],
            d[2],
            d[3],
            d[4],
            d[5],
            d[6],
            d[7] << 16 | d[8] << 8 | d[9],
        ],
        tz,
    )
}

/// A `UUID`'s two slots, set as `UUID.__init__` sets them.
struct NewUuid {
    object_new: Py<PyAny>,
    safe_unknown: Py<PyAny>,
}

static STD: PyOnceLock<Std> = PyOnceLock::new();

fn std_types(py: Python<'_>) -> PyResult<&Std> {
    STD.get_or_try_init(py, || {
        let dt = py.import("datetime")?;
        let utc = dt.getattr("timezone")?.getattr("utc")?;
        let datetime = dt.getattr("datetime")?;
        let epoch = datetime.call1((1970, 1, 1, 0, 0, 0, 0, &utc))?;
        let uuid = py.import("uuid")?;
        let mut s = Std {
            datetime: datetime.unbind(),
            epoch: epoch.unbind(),
            utc: utc.unbind(),
            uuid: uuid.getattr("UUID")?.unbind(),
            decimal: py.import("decimal")?.getattr("Decimal")?.unbind(),
            raw_datetime: false,
            new_datetime: None,
            new_uuid: None,
        };
        s.raw_datetime = check_raw_datetime(py, &s)?;
        s.new_datetime = datetime_capi(py, &s)?;
        s.new_uuid = check_new_uuid(py, &s, &uuid)?;
        Ok(s)
    })
}

/// The fields of the aware `datetime` (in `timezone.utc`) the start-up
/// checks make and read back.
const SAMPLE: [i64; 7] = [2345, 6, 7, 8, 9, 10, 123_456];

/// Microseconds since 1970 of UTC fields `[year, month, day, hour, minute,
/// second, microsecond]`.
fn civil_us([y, mo, d, h, mi, sec, us]: [i64; 7]) -> i128 {
    let days = lexikey::value::literal::days_from_civil(y, mo, d);
    (i128::from(days) * 86_400 + i128::from(h * 3600 + mi * 60 + sec)) * 1_000_000 + i128::from(us)
}

/// Whether [`RawDateTime`] reads `datetime`s right here: the type is at
/// least its size, and two `datetime`s of known fields (one aware, one
/// naive) read back as made.
#[allow(unsafe_code)]
fn check_raw_datetime(py: Python<'_>, s: &Std) -> PyResult<bool> {
    let ty = s.datetime.bind(py);
    let size: usize = ty.getattr("__basicsize__")?.extract()?;
    if size < std::mem::size_of::<RawDateTime>() {
        return Ok(false);
    }
    let utc = s.utc.bind(py);
    let samples = [
        (sample_datetime(py, s)?, SAMPLE, utc.as_ptr()),
        (
            ty.call1((1, 12, 31, 23, 59, 58, 999_999))?,
            [1, 12, 31, 23, 59, 58, 999_999],
            std::ptr::null_mut(),
        ),
    ];
    Ok(samples.iter().all(|(obj, fields, tz)| {
        // SAFETY: `obj` is a live exact `datetime` at least as large as
        // `RawDateTime` (checked above); reading it is reading memory the
        // object owns, whatever its layout.
        let got = unsafe { raw_fields(obj.as_ptr()) };
        got == (*fields, *tz)
    }))
}

/// `datetime(*SAMPLE, tzinfo=timezone.utc)`, made by Python.
fn sample_datetime<'py>(py: Python<'py>, s: &Std) -> PyResult<Bound<'py, PyAny>> {
    let [y, mo, d, h, mi, sec, us] = SAMPLE;
    s.datetime
        .bind(py)
        .call1((y, mo, d, h, mi, sec, us, s.utc.bind(py)))
}

/// The datetime C API's constructor, from its capsule, if the capsule's
/// types are the module's.
#[allow(unsafe_code)]
fn datetime_capi(py: Python<'_>, s: &Std) -> PyResult<Option<NewDateTime>> {
    // SAFETY: the GIL is held; the name is a C string; the result is the
    // capsule's pointer (the module keeps it alive for the process) or NULL
    // with an error set.
    let p = unsafe { ffi::PyCapsule_Import(c"datetime.datetime_CAPI".as_ptr(), 0) };
    if p.is_null() {
        // SAFETY: the GIL is held.
        unsafe { ffi::PyErr_Clear() };
        return Ok(None);
    }
    // SAFETY: the capsule holds a `PyDateTime_CAPI`, which starts as
    // `DateTimeCapi` in every CPython 3.7+.
    let capi = unsafe { &*p.cast::<DateTimeCapi>() };
    if capi.datetime_type.cast() != s.datetime.as_ptr() || capi.timezone_utc != s.utc.as_ptr() {
        return Ok(None);
    }
    let new = capi.datetime_from_date_and_time;
    let [y, mo, d, h, mi, sec, us] = SAMPLE.map(|x| x as c_int);
    // SAFETY: as documented for the capsule: a new reference or NULL with
    // an error set, taken by `from_owned_ptr_or_err`.
    let made = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            new(y, mo, d, h, mi, sec, us, s.utc.as_ptr(), capi.datetime_type),
        )?
    };
    let want = sample_datetime(py, s)?;
    Ok(made.eq(want)?.then_some(new))
}

/// [`NewUuid`], if a `UUID` made that way is `UUID(int=…)`: the same type,
/// equal, and the same `is_safe`, hash and `str`.
fn check_new_uuid(
    py: Python<'_>,
    s: &Std,
    module: &Bound<'_, PyModule>,
) -> PyResult<Option<NewUuid>> {
    let new = NewUuid {
        object_new: py.get_type::<PyAny>().getattr("__new__")?.unbind(),
        safe_unknown: module.getattr("SafeUUID")?.getattr("unknown")?.unbind(),
    };
    let v: u128 = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210;
    let Ok(made) = make_uuid(py, s, &new, v) else {
        return Ok(None);
    };
    let kw = PyDict::new(py);
    kw.set_item("int", v)?;
    let want = s.uuid.bind(py).call((), Some(&kw))?;
    let same = made.get_type().is(want.get_type())
        && made.eq(&want)?
        && made.getattr("is_safe")?.is(want.getattr("is_safe")?)
        && made.hash()? == want.hash()?
        && made.str()?.to_cow()? == want.str()?.to_cow()?;
    Ok(same.then_some(new))
}

/// A `UUID` of `v`: `object.__new__(UUID)`, then its `int` and `is_safe`
/// slots set through `object.__setattr__`, which is what `UUID.__init__`
/// does after checking its arguments (a `u128` needs no check).
#[allow(unsafe_code)]
fn make_uuid<'py>(py: Python<'py>, s: &Std, new: &NewUuid, v: u128) -> PyResult<Bound<'py, PyAny>> {
    let obj = new.object_new.bind(py).call1((s.uuid.bind(py),))?;
    let int = v.into_pyobject(py)?;
    for (name, value) in [
        (intern!(py, "int"), int.as_any()),
        (intern!(py, "is_safe"), new.safe_unknown.bind(py)),
    ] {
        // SAFETY: the GIL is held; all three are live objects; the call
        // returns -1 with an error set on failure.
        if unsafe { ffi::PyObject_GenericSetAttr(obj.as_ptr(), name.as_ptr(), value.as_ptr()) } < 0
        {
            return Err(PyErr::fetch(py));
        }
    }
    Ok(obj)
}

pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// Why a `str` is no [`Arg`]: it holds lone surrogates.
pub(crate) const SURROGATES: &str = "a str with lone surrogates is not UTF-8";

// ---------------------------------------------------------------------------
// In: Python values to Args
// ---------------------------------------------------------------------------

/// A Python value as a `list<T>` field sees it
/// ([`host::list_value`]): a `list` or `tuple` is a list of elements, each
/// converted by [`with_arg`] and its errors worded by [`arg_message`].
#[derive(Debug, Clone)]
pub(crate) struct PyItem<'py>(pub(crate) Bound<'py, PyAny>);

impl<'py> host::HostItem for PyItem<'py> {
    type Error = PyErr;

    fn is_null(&self) -> bool {
        self.0.is_none()
    }

    fn elements(&self) -> PyResult<Option<Vec<PyItem<'py>>>> {
        Ok(if let Ok(l) = self.0.cast::<PyList>() {
            Some(l.iter().map(PyItem).collect())
        } else if let Ok(t) = self.0.cast::<PyTuple>() {
            Some(t.iter().map(PyItem).collect())
        } else {
            None
        })
    }

    fn with_arg<R>(&self, _want: Want, f: impl FnOnce(Arg<'_>) -> R) -> PyResult<R> {
        with_arg(&self.0, f)
    }

    fn message(&self, e: &ArgError) -> String {
        arg_message(e, &self.0)
    }

    fn type_name(&self) -> String {
        type_name(&self.0)
    }

    fn error(&self, message: String) -> PyErr {
        encode_err(message)
    }
}

/// The value of list column `col` (`list<…>`) holding Python object
/// `obj`: a `list` (or `tuple`) of its elements, each converted as a value
/// of the element column ([`host::list_element`]); `None` is the null of a
/// nullable list ([`host::list_value`]).
pub(crate) fn list_value(
    col: &lexikey::frontend::native::Col,
    obj: &Bound<'_, PyAny>,
    geo: &lexikey::frontend::native::GeoOpts,
) -> PyResult<lexikey::Value<'static>> {
    host::list_value(col, &PyItem(obj.clone()), geo)
}

/// Calls `f` with the [`Arg`] of a Python value (borrowing the object's
/// bytes for the call). Python code may run (`__index__`, `str` of a
/// `Decimal`, a `datetime`'s `utcoffset`).
///
/// # Errors
/// A `str` with lone surrogates (an `EncodeError`), or the error of a
/// Python call.
pub(crate) fn with_arg<R>(obj: &Bound<'_, PyAny>, f: impl FnOnce(Arg<'_>) -> R) -> PyResult<R> {
    let py = obj.py();
    if obj.is_none() {
        return Ok(f(Arg::Null));
    }
    // The standard library's value types, exactly (subclasses take the
    // `isinstance` checks below): one pointer comparison each, before the
    // casts and `isinstance` calls that would miss first.
    let s = std_types(py)?;
    let ty = obj.get_type();
    if ty.is(s.uuid.bind(py)) {
        return Ok(f(Arg::Uuid(uuid_int(obj)?)));
    }
    if ty.is(s.decimal.bind(py)) {
        return with_decimal(obj, f);
    }
    if ty.is(s.datetime.bind(py)) {
        return with_datetime(obj, f);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(f(Arg::Bool(b.is_true())));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return match utf8(s) {
            Some(s) => Ok(f(Arg::Str(s))),
            None => Err(encode_err(SURROGATES.into())),
        };
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        return with_int(i, f);
    }
    if let Ok(x) = obj.cast::<PyFloat>() {
        return Ok(f(Arg::F64(x.value())));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(f(Arg::Bytes(b.as_bytes())));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(f(Arg::Bytes(&b.to_vec())));
    }
    if obj.is_instance(s.datetime.bind(py))? {
        return with_datetime(obj, f);
    }
    if obj.is_instance(s.uuid.bind(py))? {
        return Ok(f(Arg::Uuid(uuid_int(obj)?)));
    }
    if obj.is_instance(s.decimal.bind(py))? {
        return with_decimal(obj, f);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        if t.len() == 2 {
            let lat = float_item(&t.get_item(0)?)?;
            let lon = float_item(&t.get_item(1)?)?;
            if let (Some(lat), Some(lon)) = (lat, lon) {
                return Ok(f(Arg::Geo(lat, lon)));
            }
        }
        return Ok(f(Arg::Other));
    }
    if let Ok(v) = obj.cast::<crate::versionstamp::Versionstamp>() {
        return Ok(f(Arg::Versionstamp(v.get().0 .0)));
    }
    if obj.hasattr("__index__")? {
        // Any integer that says so (numpy.int64, ...).
        if let Ok(i) = obj.call_method0("__index__")?.cast_into::<PyInt>() {
            return with_int(&i, f);
        }
    }
    Ok(f(Arg::Other))
}

/// The `Arg` of a `datetime`: its instant (`Other`: a naive one).
fn with_datetime<R>(obj: &Bound<'_, PyAny>, f: impl FnOnce(Arg<'_>) -> R) -> PyResult<R> {
    Ok(f(match datetime_us(obj)? {
        Some(us) => time_arg(us),
        None => Arg::Other,
    }))
}

/// A `UUID`'s 128 bits (its `int`).
fn uuid_int(obj: &Bound<'_, PyAny>) -> PyResult<u128> {
    obj.getattr(intern!(obj.py(), "int"))?.extract::<u128>()
}

/// The `Arg` of a `Decimal`: its `str` (ASCII: CPython's own buffer, no
/// copy).
fn with_decimal<R>(obj: &Bound<'_, PyAny>, f: impl FnOnce(Arg<'_>) -> R) -> PyResult<R> {
    let text = obj.str()?;
    match utf8(&text) {
        Some(t) => Ok(f(Arg::Decimal(t))),
        None => Ok(f(Arg::Decimal(&text.to_cow()?))),
    }
}

/// The `Arg` of a Python `int`: `Int` when it fits an `i64`, else
/// `BigInt` (its magnitude from `int.to_bytes`).
fn with_int<R>(i: &Bound<'_, PyInt>, f: impl FnOnce(Arg<'_>) -> R) -> PyResult<R> {
    if let Ok(v) = i.extract::<i64>() {
        return Ok(f(Arg::Int(v)));
    }
    let negative = i.lt(0)?;
    let abs = i.call_method0("__abs__")?;
    let bits: usize = abs.call_method0("bit_length")?.extract()?;
    let bytes = abs.call_method1("to_bytes", (bits.div_ceil(8), "big"))?;
    let magnitude = bytes.cast::<PyBytes>()?.as_bytes();
    Ok(f(Arg::BigInt {
        negative,
        magnitude,
    }))
}

/// A `(lat, lon)` item as a float (`None`: not a number), by the core's
/// float rule (an `int` rounds to the nearest float; a `bool` is none).
fn float_item(obj: &Bound<'_, PyAny>) -> PyResult<Option<f64>> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(None);
    }
    let x = if obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyInt>() {
        with_arg(obj, |a| host::float_of(a, "geo").ok())?
    } else {
        None
    };
    Ok(x)
}

/// Microseconds since 1970 of a timezone-aware `datetime` (`None`: a naive
/// one).
fn datetime_us(obj: &Bound<'_, PyAny>) -> PyResult<Option<i128>> {
    let py = obj.py();
    let s = std_types(py)?;
    // A `datetime` (not a subclass, whose fields could be properties) in
    // `timezone.utc`: its fields are the instant's, counted in Rust instead
    // of the general path below, which asks the tzinfo for the offset and
    // makes a `timedelta`. Read from the object's memory where the
    // start-up check passed (abi3 has no datetime field accessors), else
    // as attributes (measured in the benchmark rounds kept in git,
    // `git show 6c1a253:BENCHMARKS.md`: `str,ts` encode_many 0.53 M rows/s
    // by `utcoffset()`, 1.74 M by attributes, 2.89 M from memory).
    // SAFETY: the GIL is held (`obj` is bound) and `obj` is live.
    #[allow(unsafe_code)]
    if let Some(us) = unsafe { utc_datetime_us(obj.as_ptr(), s) } {
        return Ok(Some(us));
    }
    if obj.get_type().is(s.datetime.bind(py))
        && obj.getattr(intern!(py, "tzinfo"))?.is(s.utc.bind(py))
    {
        let field = |name: &Bound<'_, PyString>| -> PyResult<i64> { obj.getattr(name)?.extract() };
        return Ok(Some(civil_us([
            field(intern!(py, "year"))?,
            field(intern!(py, "month"))?,
            field(intern!(py, "day"))?,
            field(intern!(py, "hour"))?,
            field(intern!(py, "minute"))?,
            field(intern!(py, "second"))?,
            field(intern!(py, "microsecond"))?,
        ])));
    }
    if obj.call_method0(intern!(py, "utcoffset"))?.is_none() {
        return Ok(None);
    }
    let d = obj.sub(s.epoch.bind(py))?;
    let days: i128 = d.getattr(intern!(py, "days"))?.extract::<i64>()?.into();
    let secs: i128 = d.getattr(intern!(py, "seconds"))?.extract::<i64>()?.into();
    let us: i128 = d
        .getattr(intern!(py, "microseconds"))?
        .extract::<i64>()?
        .into();
    Ok(Some((days * 86_400 + secs) * 1_000_000 + us))
}

/// Microseconds since 1970 of `obj` if it is an exact `datetime` in
/// `timezone.utc` whose fields can be read from its memory
/// ([`RawDateTime`]); no Python code runs.
///
/// # Safety
/// The GIL is held and `obj` is a live object.
#[allow(unsafe_code)]
unsafe fn utc_datetime_us(obj: *mut ffi::PyObject, s: &Std) -> Option<i128> {
    // SAFETY: per the contract `obj` is live: its type is readable.
    if !s.raw_datetime || unsafe { ffi::Py_TYPE(obj) }.cast() != s.datetime.as_ptr() {
        return None;
    }
    // SAFETY: an exact `datetime`, and `raw_datetime` holds.
    let (fields, tz) = unsafe { raw_fields(obj) };
    (tz == s.utc.as_ptr()).then(|| civil_us(fields))
}

/// [`utc_datetime_us`] for the bulk reader: the `Arg` of an exact `datetime`
/// in `timezone.utc` (`None`: any other value, or the start-up check
/// failed).
///
/// # Safety
/// The GIL is held and `obj` is a live object.
#[allow(unsafe_code)]
pub(crate) unsafe fn raw_utc_datetime(
    py: Python<'_>,
    obj: *mut ffi::PyObject,
) -> Option<Arg<'static>> {
    let s = std_types(py).ok()?;
    // SAFETY: per this function's contract.
    unsafe { utc_datetime_us(obj, s) }.map(time_arg)
}

/// The instant `us` microseconds after 1970 (a `datetime`'s: years 1 to
/// 9999, so the seconds fit).
fn time_arg(us: i128) -> Arg<'static> {
    Arg::Time {
        secs: us.div_euclid(1_000_000) as i64,
        nanos: (us.rem_euclid(1_000_000) * 1000) as u32,
    }
}

/// Whether `obj` is a naive `datetime` (the reason it is `Other`).
fn is_naive_datetime(obj: &Bound<'_, PyAny>) -> bool {
    let py = obj.py();
    let Ok(s) = std_types(py) else { return false };
    obj.is_instance(s.datetime.bind(py)).unwrap_or(false)
        && obj
            .call_method0("utcoffset")
            .map(|o| o.is_none())
            .unwrap_or(false)
}

// ---------------------------------------------------------------------------
// Errors, worded for Python
// ---------------------------------------------------------------------------

/// What a type takes, in Python's names.
fn python_want(want: Want, ty: &str) -> String {
    match want {
        Want::Int => format!("an int for {ty}"),
        Want::Float => format!("a float for {ty}"),
        Want::Bool => "a bool".into(),
        Want::Str => "a str".into(),
        Want::Bytes => "bytes".into(),
        Want::Uuid => "a uuid.UUID".into(),
        Want::Time => "a timezone-aware datetime.datetime".into(),
        Want::Decimal => "a decimal.Decimal or an int".into(),
        Want::Geo => "a (lat, lon) tuple".into(),
        Want::Null => "None for null".into(),
    }
}

/// The message of an [`ArgError`] about the Python value `obj`.
pub(crate) fn arg_message(e: &ArgError, obj: &Bound<'_, PyAny>) -> String {
    match e {
        ArgError::Expected { want, ty } => {
            if *want == Want::Time && is_naive_datetime(obj) {
                return "naive datetime refused: give it a tzinfo (e.g. datetime.timezone.utc)"
                    .into();
            }
            if *want == Want::Geo {
                // A pair whose items are not numbers: the item's type.
                if let Ok(t) = obj.cast::<PyTuple>() {
                    if t.len() == 2 {
                        for item in t.iter() {
                            if !matches!(float_item(&item), Ok(Some(_))) {
                                return format!(
                                    "expected a float for geo, got {}",
                                    type_name(&item)
                                );
                            }
                        }
                    }
                }
            }
            format!(
                "expected {}, got {}",
                python_want(*want, ty),
                type_name(obj)
            )
        }
        ArgError::SubMillisecond { ty, nanos } => format!(
            "{ty} holds whole milliseconds: this datetime has {} microseconds more \
             (truncate it, e.g. dt.replace(microsecond=dt.microsecond // 1000 * 1000))",
            nanos / 1000
        ),
        ArgError::TimeOutOfRange { ty } => format!("datetime out of range for {ty}"),
        ArgError::InexactDecimal { .. } => "a float is not an exact decimal: give a \
             decimal.Decimal (e.g. Decimal(\"10.50\")) or an int"
            .into(),
        ArgError::PlainIntOutOfRange { value } => format!(
            "{value} is out of range for i64, the type of a plain int: give (\"u64\", n) or \
             (\"dec\", n) for more"
        ),
        ArgError::NoPlainType { kind, format } => plain_message(*kind, *format, obj),
        other => other.to_string(),
    }
}

/// Why a plain value has no type in `format`.
fn plain_message(kind: ArgKind, format: KeyFormat, obj: &Bound<'_, PyAny>) -> String {
    let name = match kind {
        ArgKind::Time => "datetime",
        ArgKind::Null | ArgKind::Other | ArgKind::Component | ArgKind::Geo => {
            return format!(
                "a component is a 'TYPE[.desc]:VALUE' string, a (type, value) pair, or a plain \
                 str, int, float, bool, bytes, datetime, UUID or Decimal, not {}",
                obj.repr().map(|r| r.to_string()).unwrap_or_default()
            )
        }
        k => k.name(),
    };
    match (format, kind) {
        (KeyFormat::Profile(Profile::Fdb), ArgKind::Time) => {
            "the FoundationDB tuple layer has no time type: give (\"int\", milliseconds)".into()
        }
        (KeyFormat::Profile(Profile::Fdb), ArgKind::Decimal) => {
            "the FoundationDB tuple layer has no decimal type: give an int or a float".into()
        }
        (f, _) => format!("a plain {name} has no {f} type: give a (type, value) pair"),
    }
}

// ---------------------------------------------------------------------------
// Out: decoded values to Python
// ---------------------------------------------------------------------------

/// The microseconds since 1970 of `datetime.min` and `datetime.max` (UTC).
const DATETIME_US: (i128, i128) = (-62_135_596_800_000_000, 253_402_300_799_999_999);

/// A `datetime` in UTC, `us` microseconds after 1970; a `DecodeError` when
/// `datetime` cannot hold it (years 1 to 9999).
fn datetime_of(py: Python<'_>, us: i128) -> PyResult<Bound<'_, PyAny>> {
    if us < DATETIME_US.0 || us > DATETIME_US.1 {
        return Err(decode_err(
            format!("timestamp {us} µs after 1970 is outside datetime's range (years 1 to 9999)"),
            0,
        ));
    }
    let s = std_types(py)?;
    // datetime(y, m, d, H, M, S, us, timezone.utc): one call, the fields
    // counted in Rust.
    let (secs, us) = (
        us.div_euclid(1_000_000) as i64,
        us.rem_euclid(1_000_000) as i64,
    );
    let (y, m, d) = lexikey::value::literal::civil_from_days(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    if let Some(new) = s.new_datetime {
        // In range (checked above): every field fits an int.
        let f = |x: i64| x as c_int;
        #[allow(unsafe_code)]
        // SAFETY: the GIL is held; the capsule's constructor returns a new
        // reference or NULL with an error set.
        return unsafe {
            Bound::from_owned_ptr_or_err(
                py,
                new(
                    f(y),
                    f(m),
                    f(d),
                    f(t / 3600),
                    f(t / 60 % 60),
                    f(t % 60),
                    f(us),
                    s.utc.as_ptr(),
                    s.datetime.as_ptr().cast(),
                ),
            )
        };
    }
    s.datetime
        .bind(py)
        .call1((y, m, d, t / 3600, t / 60 % 60, t % 60, us, s.utc.bind(py)))
}

fn uuid_of(py: Python<'_>, u: u128) -> PyResult<Bound<'_, PyAny>> {
    let s = std_types(py)?;
    if let Some(new) = &s.new_uuid {
        return make_uuid(py, s, new, u);
    }
    let kw = PyDict::new(py);
    kw.set_item("int", u)?;
    s.uuid.bind(py).call((), Some(&kw))
}

fn decimal_of<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    std_types(py)?.decimal.bind(py).call1((text,))
}

/// A decoded value as a Python value. An instant `datetime` cannot hold (a
/// year outside 1 to 9999) is a `DecodeError` (offset 0: the caller places
/// it).
pub(crate) fn py_out<'py>(py: Python<'py>, v: &Out<'_>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Out::Null => py.None().into_bound(py),
        Out::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Out::Int(x) => x.into_pyobject(py)?.into_any(),
        Out::U64(x) => x.into_pyobject(py)?.into_any(),
        Out::BigInt(i) => match i.to_i128() {
            Some(v) => v.into_pyobject(py)?.into_any(),
            None => py.get_type::<PyInt>().call1((i.to_string(),))?,
        },
        Out::F64(x) => PyFloat::new(py, *x).into_any(),
        Out::F32(x) => PyFloat::new(py, host::f64_of_f32(*x)).into_any(),
        Out::Str(s) => PyString::new(py, s).into_any(),
        Out::Bytes(b) => PyBytes::new(py, b).into_any(),
        Out::Uuid(u) => uuid_of(py, *u)?,
        Out::Time { secs, nanos } if nanos % 1000 == 0 => {
            datetime_of(py, i128::from(*secs) * 1_000_000 + i128::from(nanos / 1000))?
        }
        // Nanoseconds below the microsecond (a Phoenix TIMESTAMP): the RFC
        // 3339 text, which encodes back.
        Out::Time { secs, nanos } => PyString::new(py, &host::time_text(*secs, *nanos)).into_any(),
        Out::Decimal(t) => decimal_of(py, t)?,
        Out::Geo(lat, lon) => PyTuple::new(py, [*lat, *lon])?.into_any(),
        Out::Versionstamp(b) => Bound::new(
            py,
            crate::versionstamp::Versionstamp(lexikey::interop::fdb::Versionstamp(*b)),
        )?
        .into_any(),
        Out::Nested(items) => PyList::new(
            py,
            items
                .iter()
                .map(|(label, v)| pair(py, label, py_out(py, v)?))
                .collect::<PyResult<Vec<_>>>()?,
        )?
        .into_any(),
        Out::List(items) => PyList::new(
            py,
            items
                .iter()
                .map(|v| py_out(py, v))
                .collect::<PyResult<Vec<_>>>()?,
        )?
        .into_any(),
    })
}

/// The pair `(label, value)`.
pub(crate) fn pair<'py>(
    py: Python<'py>,
    label: &str,
    v: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyTuple::new(py, [PyString::new(py, label).into_any(), v])?.into_any())
}
