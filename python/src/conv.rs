//! Python values ↔ lexikey values.
//!
//! | type | Python in | Python out |
//! |---|---|---|
//! | `str` | `str` | `str` |
//! | `i64`, `u64`, `i32`, `u32` | `int` (range-checked; `bool` refused) | `int` |
//! | `f64`, `f32` | `float` or `int` (`f32`: rounded to the nearest `f32`) | `float` |
//! | `bool` | `bool` | `bool` |
//! | `bytes` | `bytes`, `bytearray` | `bytes` |
//! | `ts` | timezone-aware `datetime` (whole milliseconds) or `int` milliseconds | `datetime` in UTC |
//! | `uuid`, `uuid7` | `uuid.UUID` | `uuid.UUID` |
//! | `ulid` | `uuid.UUID` or the ULID text | the ULID text (`str`) |
//! | `geo` | `(lat, lon)` | `(lat, lon)`: the shortest point inside the cell |
//! | `dec` | `decimal.Decimal` or `int` (exact; a `float` is refused) | `decimal.Decimal` |
//!
//! Interop profiles map the same way by kind: integers ↔ `int` (any size in
//! `fdb-tuple`), floats ↔ `float`, text ↔ `str`, blobs ↔ `bytes`, UUIDs ↔
//! `uuid.UUID`, numerics and Phoenix `DECIMAL` ↔ `decimal.Decimal`, Phoenix
//! `DATE`/`TIME`/`TIMESTAMP` ↔ `datetime` (a `TIMESTAMP` with nanoseconds
//! below the microsecond decodes to its RFC 3339 text, which encodes back),
//! null ↔ `None`, `fdb-tuple` versionstamps ↔ 12 `bytes`, nested tuples →
//! lists of `(type, value)` pairs.
//!
//! Every value given as a `(type, value)` pair becomes the command line's
//! component text (`TYPE[.desc]:VALUE`), exactly (floats by their shortest
//! round-trip form or raw bits, decimals by their exact digits), and is
//! parsed by the command line's own parser.

use std::borrow::Cow;
use std::fmt::Write as _;

use lexikey::geo::{Curve, Grid};
use lexikey::input;
use lexikey::interop::{fdb, hbase, phoenix};
use lexikey::timeid::Ulid;
use lexikey::{Component, Dec, Type, Value};
use lexikey_cli::interop::{Decoded, Profile};
use lexikey_cli::kinds::{Col, GeoOpts, Kind};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple,
};

use crate::errors::{decode_err, encode_err};

/// The geo grid of `geo` components: the command line's default (Hilbert
/// curve, 32 bits per axis).
pub(crate) fn default_geo() -> PyResult<GeoOpts> {
    let grid = Grid::new(Curve::Hilbert, GeoOpts::DEFAULT_BITS)
        .map_err(|e| encode_err(format!("geo grid: {e}")))?;
    Ok(GeoOpts { grid, given: false })
}

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
    timedelta: Py<PyAny>,
    epoch: Py<PyAny>,
    uuid: Py<PyAny>,
    decimal: Py<PyAny>,
}

static STD: PyOnceLock<Std> = PyOnceLock::new();

fn std_types(py: Python<'_>) -> PyResult<&Std> {
    STD.get_or_try_init(py, || {
        let dt = py.import("datetime")?;
        let utc = dt.getattr("timezone")?.getattr("utc")?;
        let datetime = dt.getattr("datetime")?;
        let epoch = datetime.call1((1970, 1, 1, 0, 0, 0, 0, &utc))?;
        Ok(Std {
            datetime: datetime.unbind(),
            timedelta: dt.getattr("timedelta")?.unbind(),
            epoch: epoch.unbind(),
            uuid: py.import("uuid")?.getattr("UUID")?.unbind(),
            decimal: py.import("decimal")?.getattr("Decimal")?.unbind(),
        })
    })
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

fn expected(what: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    encode_err(format!("expected {what}, got {}", type_name(obj)))
}

/// A Python `int` (not a `bool`) as `T`, range-checked.
pub(crate) fn int<'py, T>(obj: &Bound<'py, PyAny>, ty: &str) -> PyResult<T>
where
    T: FromPyObjectOwned<'py>,
{
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(expected(&format!("an int for {ty}"), obj));
    }
    obj.extract::<T>().map_err(|_| {
        encode_err(format!(
            "{} is out of range for {ty}",
            obj.str().map(|s| s.to_string()).unwrap_or_default()
        ))
    })
}

fn float(obj: &Bound<'_, PyAny>, ty: &str) -> PyResult<f64> {
    if obj.is_instance_of::<PyFloat>() {
        return obj.extract::<f64>();
    }
    if obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>() {
        return obj
            .extract::<f64>()
            .map_err(|_| encode_err(format!("int out of range for {ty}")));
    }
    Err(expected(&format!("a float for {ty}"), obj))
}

fn bytes(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    Err(expected("bytes", obj))
}

fn string(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    match obj.cast::<PyString>() {
        Ok(s) => Ok(s
            .to_cow()
            .map_err(|_| encode_err("a str with lone surrogates is not UTF-8".to_string()))?
            .to_string()),
        Err(_) => Err(expected("a str", obj)),
    }
}

fn uuid(obj: &Bound<'_, PyAny>) -> PyResult<u128> {
    let py = obj.py();
    if !obj.is_instance(std_types(py)?.uuid.bind(py))? {
        return Err(expected("a uuid.UUID", obj));
    }
    obj.getattr("int")?.extract::<u128>()
}

/// Microseconds since 1970 of a timezone-aware `datetime`.
fn datetime_us(obj: &Bound<'_, PyAny>) -> PyResult<i128> {
    let py = obj.py();
    let s = std_types(py)?;
    if !obj.is_instance(s.datetime.bind(py))? {
        return Err(expected("a timezone-aware datetime.datetime", obj));
    }
    if obj.call_method0("utcoffset")?.is_none() {
        return Err(encode_err(
            "naive datetime refused: give it a tzinfo (e.g. datetime.timezone.utc)".into(),
        ));
    }
    let d = obj.sub(s.epoch.bind(py))?;
    let days: i128 = d.getattr("days")?.extract::<i64>()?.into();
    let secs: i128 = d.getattr("seconds")?.extract::<i64>()?.into();
    let us: i128 = d.getattr("microseconds")?.extract::<i64>()?.into();
    Ok((days * 86_400 + secs) * 1_000_000 + us)
}

/// Milliseconds since 1970: an `int`, or a `datetime` holding whole
/// milliseconds.
fn millis(obj: &Bound<'_, PyAny>, ty: &str) -> PyResult<i64> {
    if obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>() {
        return int::<i64>(obj, ty);
    }
    let us = datetime_us(obj)?;
    if us % 1000 != 0 {
        return Err(encode_err(format!(
            "{ty} holds whole milliseconds: this datetime has {} microseconds more \
             (truncate it, e.g. dt.replace(microsecond=dt.microsecond // 1000 * 1000))",
            us.rem_euclid(1000)
        )));
    }
    i64::try_from(us / 1000).map_err(|_| encode_err(format!("datetime out of range for {ty}")))
}

/// A Python value of core type `ty` as a value (strings owned).
pub(crate) fn value(ty: Type, obj: &Bound<'_, PyAny>) -> PyResult<Value<'static>> {
    Ok(match ty {
        Type::Str => Value::Str(Cow::Owned(string(obj)?)),
        Type::I64 => Value::I64(int(obj, "i64")?),
        Type::U64 => Value::U64(int(obj, "u64")?),
        Type::I32 => Value::I32(int(obj, "i32")?),
        Type::U32 => Value::U32(int(obj, "u32")?),
        Type::F64 => Value::F64(float(obj, "f64")?),
        Type::F32 => Value::F32(float(obj, "f32")? as f32),
        Type::Bool => match obj.cast::<PyBool>() {
            Ok(b) => Value::Bool(b.is_true()),
            Err(_) => return Err(expected("a bool", obj)),
        },
        Type::Bytes => Value::Bytes(Cow::Owned(bytes(obj)?)),
        Type::Ts => Value::Ts(millis(obj, "ts")?),
        Type::Uuid => Value::Uuid(uuid(obj)?),
        Type::Dec => Value::Dec(
            Dec::parse(&decimal_text(obj)?).map_err(|e| encode_err(format!("dec: {e}")))?,
        ),
    })
}

/// The exact text of a `decimal.Decimal` or `int`.
fn decimal_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = obj.py();
    let is_int = obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>();
    if is_int || obj.is_instance(std_types(py)?.decimal.bind(py))? {
        return Ok(obj.str()?.to_string());
    }
    if obj.is_instance_of::<PyFloat>() {
        return Err(encode_err(
            "a float is not an exact decimal: give a decimal.Decimal (e.g. Decimal(\"10.50\")) or an int"
                .into(),
        ));
    }
    Err(expected("a decimal.Decimal or an int", obj))
}

/// The value of a column of the native formats (core types and the command
/// line's kinds).
pub(crate) fn col_value(col: &Col, obj: &Bound<'_, PyAny>) -> PyResult<Value<'static>> {
    match col.kind {
        Kind::Core(ty) => value(ty, obj),
        _ => {
            let text = kind_text(col.kind, obj)?;
            col.parse_value(&text, &default_geo()?)
                .map(Value::into_owned)
                .map_err(|e| encode_err(format!("{e:#}")))
        }
    }
}

fn kind_text(kind: Kind, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(s.to_cow()?.to_string());
    }
    Ok(match kind {
        Kind::Ulid => {
            let mut s = String::new();
            Ulid(uuid(obj)?).encode_into(&mut s);
            s
        }
        Kind::Uuid7 => {
            let mut s = String::new();
            input::format_uuid(uuid(obj)?, &mut s);
            s
        }
        Kind::Geo => {
            let t = obj
                .cast::<PyTuple>()
                .map_err(|_| expected("a (lat, lon) tuple", obj))?;
            if t.len() != 2 {
                return Err(expected("a (lat, lon) tuple", obj));
            }
            let lat = float(&t.get_item(0)?, "geo")?;
            let lon = float(&t.get_item(1)?, "geo")?;
            format!("{lat:?},{lon:?}")
        }
        Kind::Core(_) => return Err(expected("a str", obj)),
    })
}

/// The component text `TYPE[.desc]:VALUE` of a `(type, value)` pair in a
/// native format.
pub(crate) fn native_text(spec: &str, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let col = Col::parse(spec).map_err(|e| encode_err(format!("{e:#}")))?;
    let mut s = format!("{spec}:");
    match col.kind {
        Kind::Core(ty) => input::write_value(&value(ty, obj)?, &mut s),
        k => s.push_str(&kind_text(k, obj)?),
    }
    Ok(s)
}

/// How a profile's type takes its value as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cat {
    Str,
    Int,
    F64,
    F32,
    F64Bits,
    F32Bits,
    Bool,
    Hex,
    Uuid,
    Decimal,
    Millis,
    Nanos,
    Null,
}

/// The text category of an `fdb-tuple` type name.
pub(crate) fn fdb_cat(ty: &str) -> Cat {
    match ty {
        "null" => Cat::Null,
        "bytes" | "versionstamp" => Cat::Hex,
        "int" | "i64" | "u64" | "i32" | "u32" => Cat::Int,
        "f32" | "float" => Cat::F32Bits,
        "f64" | "double" => Cat::F64Bits,
        "bool" => Cat::Bool,
        "uuid" => Cat::Uuid,
        _ => Cat::Str,
    }
}

/// The text category of an `hbase-ordered` kind.
pub(crate) fn hbase_cat(kind: hbase::Kind) -> Cat {
    use hbase::Kind as K;
    match kind {
        K::Int8 | K::Int16 | K::Int32 | K::Int64 => Cat::Int,
        K::Float32 => Cat::F32,
        K::Float64 => Cat::F64,
        K::Numeric => Cat::Decimal,
        K::Text => Cat::Str,
        K::BlobVar | K::BlobCopy => Cat::Hex,
    }
}

/// The text category of a Phoenix type.
pub(crate) fn phoenix_cat(ty: phoenix::Type) -> Cat {
    use phoenix::Type as T;
    match ty {
        T::Float | T::UnsignedFloat => Cat::F32,
        T::Double | T::UnsignedDouble => Cat::F64,
        T::Boolean => Cat::Bool,
        T::Date | T::Time | T::UnsignedDate | T::UnsignedTime => Cat::Millis,
        T::Timestamp | T::UnsignedTimestamp => Cat::Nanos,
        T::Varchar | T::Char(_) => Cat::Str,
        T::Varbinary | T::Binary(_) => Cat::Hex,
        T::Decimal => Cat::Decimal,
        _ => Cat::Int,
    }
}

/// The value text of a Python value in category `cat` (`None`: null, the
/// bare type).
pub(crate) fn cat_text(cat: Cat, ty: &str, obj: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if obj.is_none() {
        return Ok(None);
    }
    if cat == Cat::Null {
        return Err(expected("None for null", obj));
    }
    Ok(Some(match cat {
        Cat::Str => string(obj)?,
        Cat::Int => {
            if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
                return Err(expected(&format!("an int for {ty}"), obj));
            }
            obj.str()?.to_string()
        }
        Cat::F64 => format!("{:?}", float(obj, ty)?),
        Cat::F32 => format!("{:?}", float(obj, ty)? as f32),
        Cat::F64Bits => format!("0x{:016x}", float(obj, ty)?.to_bits()),
        Cat::F32Bits => format!("0x{:08x}", f32_bits_of(float(obj, ty)?)),
        Cat::Bool => match obj.cast::<PyBool>() {
            Ok(b) => b.is_true().to_string(),
            Err(_) => return Err(expected("a bool", obj)),
        },
        Cat::Hex => lexikey::to_hex(&bytes(obj)?),
        Cat::Uuid => {
            let mut s = String::new();
            input::format_uuid(uuid(obj)?, &mut s);
            s
        }
        Cat::Decimal => decimal_text(obj)?,
        // Also the RFC 3339 text (what a TIMESTAMP with nanoseconds below
        // the microsecond decodes to).
        Cat::Millis | Cat::Nanos if obj.is_instance_of::<PyString>() => string(obj)?,
        Cat::Millis => millis(obj, ty)?.to_string(),
        Cat::Nanos => {
            if obj.is_instance_of::<PyInt>() {
                millis(obj, ty)?.to_string()
            } else {
                let us = datetime_us(obj)?;
                let ms = i64::try_from(us.div_euclid(1000))
                    .map_err(|_| encode_err(format!("datetime out of range for {ty}")))?;
                let mut s = String::new();
                input::format_ts(ms, &mut s);
                // format_ts ends in ".mmmZ": add the sub-millisecond digits.
                if s.ends_with('Z') {
                    s.pop();
                    let _ = write!(s, "{:03}000Z", us.rem_euclid(1000));
                }
                s
            }
        }
        Cat::Null => unreachable_null(),
    }))
}

#[cold]
fn unreachable_null() -> String {
    // Handled above (None or an error).
    String::new()
}

/// `f32` bits of a Python float, NaN payloads kept (an `as` cast would
/// quiet a signaling NaN).
fn f32_bits_of(x: f64) -> u32 {
    let b = x.to_bits();
    let exp = (b >> 52) & 0x7FF;
    let mant = b & ((1 << 52) - 1);
    if exp == 0x7FF && mant != 0 && mant & ((1 << 29) - 1) == 0 {
        let sign = ((b >> 63) as u32) << 31;
        return sign | 0x7F80_0000 | (mant >> 29) as u32;
    }
    (x as f32).to_bits()
}

/// A Python float holding an `f32`, NaN payloads kept.
fn f64_of_f32(x: f32) -> f64 {
    let b = x.to_bits();
    if x.is_nan() {
        let sign = u64::from(b >> 31) << 63;
        let mant = u64::from(b & 0x7F_FFFF) << 29;
        return f64::from_bits(sign | (0x7FF << 52) | mant);
    }
    f64::from(x)
}

/// The component text of a `(type, value)` pair in an interop profile.
pub(crate) fn profile_text(
    profile: Profile,
    spec: &str,
    obj: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let cat = match profile {
        Profile::Fdb => fdb_cat(spec),
        Profile::Hbase => hbase::Field::parse(spec)
            .map(|f| hbase_cat(f.kind))
            .unwrap_or(Cat::Str),
        Profile::Phoenix => phoenix::Column::parse(spec)
            .map(|c| phoenix_cat(c.ty))
            .unwrap_or(Cat::Str),
    };
    Ok(match (cat_text(cat, spec, obj)?, profile) {
        (None, Profile::Fdb) => "null:".to_string(),
        (None, _) => spec.to_string(),
        (Some(v), _) => format!("{spec}:{v}"),
    })
}

// ---------------------------------------------------------------------------
// Out: values to Python
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
    let kw = PyDict::new(py);
    kw.set_item("microseconds", us)?;
    let d = s.timedelta.bind(py).call((), Some(&kw))?;
    s.epoch.bind(py).add(d)
}

fn uuid_of(py: Python<'_>, u: u128) -> PyResult<Bound<'_, PyAny>> {
    let kw = PyDict::new(py);
    kw.set_item("int", u)?;
    std_types(py)?.uuid.bind(py).call((), Some(&kw))
}

fn decimal_of<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    std_types(py)?.decimal.bind(py).call1((text,))
}

/// A decoded core value as a Python value.
pub(crate) fn py_value<'py>(py: Python<'py>, v: &Value<'_>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Str(s) => PyString::new(py, s).into_any(),
        Value::I64(x) => x.into_pyobject(py)?.into_any(),
        Value::U64(x) => x.into_pyobject(py)?.into_any(),
        Value::I32(x) => x.into_pyobject(py)?.into_any(),
        Value::U32(x) => x.into_pyobject(py)?.into_any(),
        Value::F64(x) => PyFloat::new(py, *x).into_any(),
        Value::F32(x) => PyFloat::new(py, f64::from(*x)).into_any(),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Bytes(b) => PyBytes::new(py, b).into_any(),
        Value::Ts(ms) => datetime_of(py, i128::from(*ms) * 1000)?,
        Value::Uuid(u) => uuid_of(py, *u)?,
        Value::Dec(d) => decimal_of(py, &d.to_string())?,
    })
}

/// A decoded value of a native column as a Python value.
pub(crate) fn py_col_value<'py>(
    py: Python<'py>,
    col: Option<&Col>,
    c: &Component<'_>,
) -> PyResult<Bound<'py, PyAny>> {
    match (col.map(|c| c.kind), &c.value) {
        (Some(Kind::Ulid), Value::Uuid(u)) => {
            let mut s = String::new();
            Ulid(*u).encode_into(&mut s);
            Ok(PyString::new(py, &s).into_any())
        }
        (Some(Kind::Uuid7), Value::Uuid(u)) => {
            if let Some(col) = col {
                let mut s = String::new();
                col.write_value(&c.value, &default_geo()?, &mut s)
                    .map_err(|e| decode_err(format!("{e:#}"), 0))?;
            }
            uuid_of(py, *u)
        }
        (Some(Kind::Geo), Value::U64(code)) => {
            let (lat, lon) = default_geo()?
                .point(*code)
                .map_err(|e| decode_err(format!("{e:#}"), 0))?;
            let f = |s: &str| s.parse::<f64>().unwrap_or(f64::NAN);
            Ok(PyTuple::new(py, [f(&lat), f(&lon)])?.into_any())
        }
        _ => py_value(py, &c.value),
    }
}

/// The `(type, value)` pairs of a decoded interop key: types labelled as
/// the command line labels them. `err(i, e)` turns the error of converting
/// element `i` into the one raised.
pub(crate) fn py_decoded<'py>(
    py: Python<'py>,
    d: &Decoded,
    err: &dyn Fn(usize, PyErr) -> PyErr,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    decoded_each(d, err, |item| match item {
        Item::Fdb(e) => fdb_pair(py, e),
        Item::Hbase(f, v) => pair(py, &f.to_string(), hbase_value(py, v)?),
        Item::Phoenix(c, v) => pair(py, &c.to_string(), phoenix_value(py, c, v)?),
    })
}

/// The values alone (for `Schema.decode`), `err` as in [`py_decoded`].
pub(crate) fn py_decoded_values<'py>(
    py: Python<'py>,
    d: &Decoded,
    err: &dyn Fn(usize, PyErr) -> PyErr,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    decoded_each(d, err, |item| match item {
        Item::Fdb(e) => fdb_value(py, e),
        Item::Hbase(_, v) => hbase_value(py, v),
        Item::Phoenix(c, v) => phoenix_value(py, c, v),
    })
}

/// One element of a decoded interop key.
enum Item<'a> {
    Fdb(&'a fdb::Element),
    Hbase(&'a hbase::Field, &'a hbase::Value),
    Phoenix(phoenix::Column, &'a phoenix::Value),
}

fn decoded_each<'py>(
    d: &Decoded,
    err: &dyn Fn(usize, PyErr) -> PyErr,
    f: impl Fn(Item<'_>) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let items: Vec<Item<'_>> = match d {
        Decoded::Fdb(es) => es.iter().map(Item::Fdb).collect(),
        Decoded::Hbase(vs) => vs.iter().map(|(f, v)| Item::Hbase(f, v)).collect(),
        Decoded::Phoenix(vs) => vs.iter().map(|(c, v)| Item::Phoenix(*c, v)).collect(),
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| f(item).map_err(|e| err(i, e)))
        .collect()
}

pub(crate) fn pair<'py>(
    py: Python<'py>,
    label: &str,
    v: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyTuple::new(py, [PyString::new(py, label).into_any(), v])?.into_any())
}

fn fdb_pair<'py>(py: Python<'py>, e: &fdb::Element) -> PyResult<Bound<'py, PyAny>> {
    let text = fdb::format_component(e);
    let label = text.split_once(':').map_or(text.as_str(), |(l, _)| l);
    pair(py, label, fdb_value(py, e)?)
}

fn fdb_value<'py>(py: Python<'py>, e: &fdb::Element) -> PyResult<Bound<'py, PyAny>> {
    use fdb::Element as E;
    Ok(match e {
        E::Null => py.None().into_bound(py),
        E::Bytes(b) => PyBytes::new(py, b).into_any(),
        E::String(s) => PyString::new(py, s).into_any(),
        E::Nested(v) => PyList::new(
            py,
            v.iter()
                .map(|e| fdb_pair(py, e))
                .collect::<PyResult<Vec<_>>>()?,
        )?
        .into_any(),
        E::Int(i) => match i.to_i128() {
            Some(v) => v.into_pyobject(py)?.into_any(),
            None => py.get_type::<PyInt>().call1((i.to_string(),))?,
        },
        E::Float(f) => PyFloat::new(py, f64_of_f32(*f)).into_any(),
        E::Double(f) => PyFloat::new(py, *f).into_any(),
        E::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        E::Uuid(u) => uuid_of(py, u128::from_be_bytes(*u))?,
        E::Versionstamp(v) => PyBytes::new(py, &v.0).into_any(),
    })
}

fn hbase_value<'py>(py: Python<'py>, v: &hbase::Value) -> PyResult<Bound<'py, PyAny>> {
    use hbase::Value as V;
    Ok(match v {
        V::Null => py.None().into_bound(py),
        V::Int8(x) => x.into_pyobject(py)?.into_any(),
        V::Int16(x) => x.into_pyobject(py)?.into_any(),
        V::Int32(x) => x.into_pyobject(py)?.into_any(),
        V::Int64(x) => x.into_pyobject(py)?.into_any(),
        V::Float32(x) => PyFloat::new(py, f64::from(*x)).into_any(),
        V::Float64(x) => PyFloat::new(py, *x).into_any(),
        V::Numeric(n) => decimal_of(py, &n.to_string())?,
        V::Text(s) => PyString::new(py, s).into_any(),
        V::Bytes(b) => PyBytes::new(py, b).into_any(),
    })
}

fn phoenix_value<'py>(
    py: Python<'py>,
    c: phoenix::Column,
    v: &phoenix::Value,
) -> PyResult<Bound<'py, PyAny>> {
    use phoenix::Value as V;
    Ok(match v {
        V::Null => py.None().into_bound(py),
        V::Int(x) => x.into_pyobject(py)?.into_any(),
        V::Float(x) => PyFloat::new(py, f64::from(*x)).into_any(),
        V::Double(x) => PyFloat::new(py, *x).into_any(),
        V::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        V::Date(ms) => datetime_of(py, i128::from(*ms) * 1000)?,
        V::Timestamp(ms, ns) if ns % 1000 == 0 => {
            datetime_of(py, i128::from(*ms) * 1000 + i128::from(ns / 1000))?
        }
        V::Timestamp(..) => {
            let text = phoenix::format_component(c, v);
            let value = text.split_once(':').map_or("", |(_, v)| v);
            PyString::new(py, value).into_any()
        }
        V::Varchar(s) | V::Char(s) => PyString::new(py, s).into_any(),
        V::Varbinary(b) | V::Binary(b) => PyBytes::new(py, b).into_any(),
        V::Decimal(d) => decimal_of(py, &d.to_string())?,
    })
}
