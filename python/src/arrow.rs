//! Arrow columns in and out of Python: `Schema.encode_arrow` and
//! `Schema.decode_arrow` (see `schema`) take any object that speaks the
//! [Arrow PyCapsule interface] and return an [`ArrowArray`], which speaks it
//! too. The keys are made by `lexikey-arrow` (the one Arrow path, shared
//! with Rust callers); this module only moves arrays across the C data
//! interface, without a copy.
//!
//! - **In**: an object's `__arrow_c_array__()` (a schema capsule and an
//!   array capsule: pyarrow's `RecordBatch` and `Array`, our own results)
//!   or `__arrow_c_stream__()` (a stream capsule: pyarrow's `Table`,
//!   `RecordBatchReader` and `ChunkedArray`, polars' `DataFrame` and
//!   `Series`, DuckDB's relations, pandas' `DataFrame`). A struct array is
//!   a batch (its children are the columns); any other array is one
//!   column. The structures are moved out of the capsules with the GIL
//!   held ([`take`]); the stream is then read with the GIL released
//!   ([`Input::chunks`]), since a producer's `get_next` may run a query.
//! - **Out**: an [`ArrowArray`] holds a field and its chunks and hands them
//!   out as capsules: `__arrow_c_schema__`, `__arrow_c_array__` (one chunk)
//!   and `__arrow_c_stream__` (a stream of our own: [`export_stream`]).
//!   Each capsule's destructor releases its structure unless the consumer
//!   moved it out (the structures' `Drop`: a moved-out structure has no
//!   `release` callback left).
//!
//! Written here on arrow-array's C data interface (`ffi`) rather than with
//! the `pyo3-arrow` crate: its dependencies (numpy, arrow-cast, chrono-tz
//! and more) would add minutes to every CI build for what is a few
//! structures moved in and out of capsules. pyarrow is not needed: any
//! library that speaks the interface (polars alone, DuckDB alone) works.
//!
//! [Arrow PyCapsule interface]: https://arrow.apache.org/docs/format/CDataInterface/PyCapsuleInterface.html

use std::collections::VecDeque;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr::NonNull;
use std::sync::Arc;

use arrow_array::ffi::{from_ffi_and_data_type, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{make_array, Array, ArrayRef, StructArray};
use arrow_schema::{DataType, Field, FieldRef};
use lexikey::frontend::spec::KeySpec;
use lexikey_arrow::{decode_array, decoded_schema, ArrowEncoder, ArrowKeyError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};

use crate::errors::{decode_err, encode_err, value_err};

const SCHEMA: &CStr = c"arrow_schema";
const ARRAY: &CStr = c"arrow_array";
const STREAM: &CStr = c"arrow_array_stream";

/// `EINVAL`, the error code our stream returns (22 on Linux, macOS and
/// Windows alike).
const EINVAL: c_int = 22;

/// An Arrow argument, moved out of its capsules (the GIL held), not read
/// yet.
#[derive(Debug)]
pub(crate) enum Input {
    /// An array (`__arrow_c_array__`), already imported.
    Array(FieldRef, ArrayRef),
    /// A stream (`__arrow_c_stream__`), read by [`Input::chunks`].
    Stream(FFI_ArrowArrayStream),
}

/// The capsule `obj` of `name`, its pointer.
fn capsule_ptr<T>(obj: &Bound<'_, PyAny>, name: &CStr) -> PyResult<NonNull<T>> {
    let capsule = obj.cast::<PyCapsule>().map_err(|_| {
        PyTypeError::new_err(format!(
            "the Arrow PyCapsule interface returned a {}, not a capsule {name:?}",
            obj.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })?;
    capsule
        .pointer_checked(Some(name))
        .map(NonNull::cast)
        .map_err(|_| {
            PyValueError::new_err(format!(
                "the Arrow PyCapsule interface returned a capsule that is not {name:?}"
            ))
        })
}

/// `what` (an argument) moved out of its capsules: its
/// `__arrow_c_array__` if it has one (imported here, no data copied), else
/// its `__arrow_c_stream__`. A `TypeError` for anything else.
#[allow(unsafe_code)]
pub(crate) fn take(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Input> {
    let py = obj.py();
    if obj.hasattr(intern!(py, "__arrow_c_array__"))? {
        let pair = obj.call_method0(intern!(py, "__arrow_c_array__"))?;
        let pair = pair
            .cast::<PyTuple>()
            .ok()
            .filter(|t| t.len() == 2)
            .ok_or_else(|| {
                PyTypeError::new_err(
                    "__arrow_c_array__ returned no (schema, array) pair of capsules",
                )
            })?;
        let schema = capsule_ptr::<FFI_ArrowSchema>(&pair.get_item(0)?, SCHEMA)?;
        let array = capsule_ptr::<FFI_ArrowArray>(&pair.get_item(1)?, ARRAY)?;
        // SAFETY: a capsule named "arrow_schema" holds an `ArrowSchema`
        // (the interface's contract); it stays the capsule's (we only
        // read it), alive while `pair` is.
        let field = Field::try_from(unsafe { schema.as_ref() }).map_err(import_err)?;
        // SAFETY: a capsule named "arrow_array" holds an `ArrowArray`;
        // `from_raw` moves it out (the capsule's copy is marked released,
        // so its destructor does nothing), and its buffers are the
        // producer's until our `ArrayData` drops them.
        let array = unsafe { FFI_ArrowArray::from_raw(array.as_ptr()) };
        // SAFETY: the array is described by `field`'s type, as the producer
        // exported them together.
        let data = unsafe { from_ffi_and_data_type(array, field.data_type().clone()) }
            .map_err(import_err)?;
        return Ok(Input::Array(Arc::new(field), make_array(data)));
    }
    if obj.hasattr(intern!(py, "__arrow_c_stream__"))? {
        let capsule = obj.call_method0(intern!(py, "__arrow_c_stream__"))?;
        let stream = capsule_ptr::<FFI_ArrowArrayStream>(&capsule, STREAM)?;
        // SAFETY: a capsule named "arrow_array_stream" holds an
        // `ArrowArrayStream`; `from_raw` moves it out, leaving the
        // capsule's copy released.
        return Ok(Input::Stream(unsafe {
            FFI_ArrowArrayStream::from_raw(stream.as_ptr())
        }));
    }
    Err(PyTypeError::new_err(format!(
        "{what} is Arrow data (an object with __arrow_c_stream__ or __arrow_c_array__: a \
         pyarrow Table, RecordBatch or Array, a polars DataFrame or Series, a DuckDB \
         relation...), not {}",
        obj.get_type().name()?
    )))
}

/// An array or stream that could not be imported.
fn import_err(e: arrow_schema::ArrowError) -> PyErr {
    PyValueError::new_err(format!("invalid Arrow data: {e}"))
}

/// Why reading an [`Input`] failed: the producer's stream failed, or an
/// array did not import (no `PyErr` here: the GIL is released).
#[derive(Debug)]
pub(crate) struct ReadError(pub(crate) String);

impl From<ReadError> for PyErr {
    fn from(e: ReadError) -> PyErr {
        PyValueError::new_err(e.0)
    }
}

/// The chunks of an [`Input`], read one at a time (with or without the
/// GIL: no Python object is touched).
#[derive(Debug)]
pub(crate) struct Chunks {
    /// The field of every chunk.
    pub(crate) field: FieldRef,
    /// The array of an `Input::Array`, until it is taken.
    array: Option<ArrayRef>,
    /// The stream of an `Input::Stream` (released when dropped).
    stream: Option<FFI_ArrowArrayStream>,
}

impl Input {
    /// The field, then the chunks one by one. A stream's schema is asked
    /// for here (the producer's `get_schema`).
    #[allow(unsafe_code)]
    pub(crate) fn chunks(self) -> Result<Chunks, ReadError> {
        match self {
            Input::Array(field, array) => Ok(Chunks {
                field,
                array: Some(array),
                stream: None,
            }),
            Input::Stream(mut stream) => {
                let get_schema = stream
                    .get_schema
                    .ok_or_else(|| ReadError("the Arrow stream is already released".into()))?;
                let mut schema = FFI_ArrowSchema::empty();
                // SAFETY: a live stream (not released: it has callbacks)
                // and an empty schema for it to fill.
                let rc = unsafe { get_schema(&mut stream, &mut schema) };
                if rc != 0 {
                    return Err(stream_err(&mut stream, rc));
                }
                let field = Field::try_from(&schema)
                    .map_err(|e| ReadError(format!("invalid Arrow stream schema: {e}")))?;
                Ok(Chunks {
                    field: Arc::new(field),
                    array: None,
                    stream: Some(stream),
                })
            }
        }
    }
}

impl Chunks {
    /// The next chunk, `None` at the end.
    #[allow(unsafe_code)]
    pub(crate) fn next_chunk(&mut self) -> Result<Option<ArrayRef>, ReadError> {
        let Some(stream) = self.stream.as_mut() else {
            return Ok(self.array.take());
        };
        let get_next = stream
            .get_next
            .ok_or_else(|| ReadError("the Arrow stream is already released".into()))?;
        let mut array = FFI_ArrowArray::empty();
        // SAFETY: a live stream and an empty array for it to fill.
        let rc = unsafe { get_next(stream, &mut array) };
        if rc != 0 {
            return Err(stream_err(stream, rc));
        }
        if array.is_released() {
            // The end of the stream: let it go now.
            self.stream = None;
            return Ok(None);
        }
        // SAFETY: the stream's arrays are of its schema's type.
        let data = unsafe { from_ffi_and_data_type(array, self.field.data_type().clone()) }
            .map_err(|e| ReadError(format!("invalid Arrow data: {e}")))?;
        Ok(Some(make_array(data)))
    }
}

/// The error of a stream call that returned `rc`: the producer's message
/// (`get_last_error`), or the code.
#[allow(unsafe_code)]
fn stream_err(stream: &mut FFI_ArrowArrayStream, rc: c_int) -> ReadError {
    let msg = stream.get_last_error.and_then(|f| {
        // SAFETY: the last call on this live stream failed, which is when
        // `get_last_error` may be called; its string is valid until the
        // next call on the stream, and is copied here.
        let p = unsafe { f(stream) };
        // SAFETY: a non-null result is a NUL-terminated string.
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    });
    ReadError(match msg {
        Some(m) => format!("the Arrow stream failed: {m}"),
        None => format!("the Arrow stream failed (error code {rc})"),
    })
}

/// The columns of a chunk: a struct array's children (a batch; a null
/// row is an error, as no batch has one), or the array itself.
pub(crate) fn columns(chunk: &ArrayRef, batch: bool) -> Result<Vec<ArrayRef>, usize> {
    if !batch {
        return Ok(vec![chunk.clone()]);
    }
    let Some(s) = chunk.as_any().downcast_ref::<StructArray>() else {
        return Ok(vec![chunk.clone()]);
    };
    if let Some(nulls) = s.nulls().filter(|n| n.null_count() > 0) {
        let row = (0..s.len()).find(|&i| nulls.is_null(i)).unwrap_or(0);
        return Err(row);
    }
    Ok(s.columns().to_vec())
}

/// The column fields of a field: a struct's children (a batch), or the
/// field itself (one column); `true` for a batch.
pub(crate) fn column_fields(field: &FieldRef) -> (Vec<FieldRef>, bool) {
    match field.data_type() {
        DataType::Struct(fields) => (fields.iter().cloned().collect(), true),
        _ => (vec![field.clone()], false),
    }
}

/// Arrow data made by lexikey: the keys of `Schema.encode_arrow` (one
/// `binary` or `string` column) or the columns of `Schema.decode_arrow`
/// (a struct: one child per field, a batch). It speaks the Arrow
/// PyCapsule interface, so `pyarrow.array(r)`, `pyarrow.table(r)`,
/// `polars.Series(r)`, `polars.DataFrame(r)` and any other Arrow library
/// take it without a copy: `__arrow_c_array__` (one chunk; a decode of a
/// chunked input has one chunk per input chunk: take it as a stream),
/// `__arrow_c_stream__` and `__arrow_c_schema__`. `len(r)` is the number
/// of rows. A `requested_schema` is not acted on (the data is handed over
/// as it is; the consumer casts it).
#[pyclass(frozen, module = "lexikey", name = "ArrowArray")]
#[derive(Debug)]
pub(crate) struct ArrowArray {
    field: FieldRef,
    chunks: Vec<ArrayRef>,
}

impl ArrowArray {
    /// The chunks of `field`.
    pub(crate) fn new(field: FieldRef, chunks: Vec<ArrayRef>) -> ArrowArray {
        ArrowArray { field, chunks }
    }
}

/// An FFI structure in a capsule of `name`, whose destructor drops it:
/// releasing it unless the consumer moved it out.
fn capsule<'py, T: Send + 'static>(
    py: Python<'py>,
    value: T,
    name: &'static CStr,
) -> PyResult<Bound<'py, PyCapsule>> {
    PyCapsule::new_with_value(py, value, name)
}

#[pymethods]
impl ArrowArray {
    fn __len__(&self) -> usize {
        self.chunks.iter().map(|c| c.len()).sum()
    }

    fn __repr__(&self) -> String {
        format!(
            "<lexikey.ArrowArray {}: {} rows>",
            self.field.data_type(),
            self.__len__()
        )
    }

    /// The field (`arrow_schema` capsule).
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let schema = FFI_ArrowSchema::try_from(self.field.as_ref())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        capsule(py, schema, SCHEMA)
    }

    /// The field and the one chunk (`arrow_schema`, `arrow_array`).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let _ = requested_schema;
        let array = match self.chunks.as_slice() {
            [one] => one.to_data(),
            [] => arrow_data::ArrayData::new_empty(self.field.data_type()),
            many => {
                return Err(PyValueError::new_err(format!(
                    "this Arrow data has {} chunks (one per chunk of the input): take it as a \
                     stream (pyarrow.table, pyarrow.chunked_array, polars.DataFrame)",
                    many.len()
                )))
            }
        };
        let schema = self.__arrow_c_schema__(py)?;
        let array = capsule(py, FFI_ArrowArray::new(&array), ARRAY)?;
        PyTuple::new(py, [schema.into_any(), array.into_any()])
    }

    /// The chunks as a stream (`arrow_array_stream`).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        capsule(
            py,
            export_stream(self.field.clone(), self.chunks.iter().cloned().collect()),
            STREAM,
        )
    }
}

/// What our exported stream owns (its `private_data`).
struct Exported {
    field: FieldRef,
    chunks: VecDeque<ArrayRef>,
    /// The message of the last failed call, for `get_last_error`.
    error: Option<CString>,
}

/// A C stream of `chunks` of `field`: the Arrow C stream interface,
/// written here for arrays of any type (arrow-rs's `FFI_ArrowArrayStream::
/// new` streams record batches only).
fn export_stream(field: FieldRef, chunks: VecDeque<ArrayRef>) -> FFI_ArrowArrayStream {
    let private = Box::new(Exported {
        field,
        chunks,
        error: None,
    });
    FFI_ArrowArrayStream {
        get_schema: Some(stream_get_schema),
        get_next: Some(stream_get_next),
        get_last_error: Some(stream_get_last_error),
        release: Some(stream_release),
        private_data: Box::into_raw(private).cast::<c_void>(),
    }
}

/// The `Exported` of a live stream of ours.
///
/// # Safety
/// `stream` points to a stream made by [`export_stream`], not released.
#[allow(unsafe_code)]
unsafe fn exported<'a>(stream: *mut FFI_ArrowArrayStream) -> &'a mut Exported {
    // SAFETY: per the contract, `private_data` is our live box.
    unsafe { &mut *(*stream).private_data.cast::<Exported>() }
}

#[allow(unsafe_code)]
unsafe extern "C" fn stream_get_schema(
    stream: *mut FFI_ArrowArrayStream,
    out: *mut FFI_ArrowSchema,
) -> c_int {
    // SAFETY: the consumer calls us with our live stream.
    let ex = unsafe { exported(stream) };
    match FFI_ArrowSchema::try_from(ex.field.as_ref()) {
        Ok(schema) => {
            // SAFETY: `out` is the consumer's structure to fill (its old
            // contents are not ours to drop).
            unsafe { std::ptr::write(out, schema) };
            0
        }
        Err(e) => {
            ex.error = CString::new(e.to_string().replace('\0', " ")).ok();
            EINVAL
        }
    }
}

#[allow(unsafe_code)]
unsafe extern "C" fn stream_get_next(
    stream: *mut FFI_ArrowArrayStream,
    out: *mut FFI_ArrowArray,
) -> c_int {
    // SAFETY: the consumer calls us with our live stream.
    let ex = unsafe { exported(stream) };
    let array = match ex.chunks.pop_front() {
        Some(chunk) => FFI_ArrowArray::new(&chunk.to_data()),
        // A released array: the end of the stream.
        None => FFI_ArrowArray::empty(),
    };
    // SAFETY: `out` is the consumer's structure to fill.
    unsafe { std::ptr::write(out, array) };
    0
}

#[allow(unsafe_code)]
unsafe extern "C" fn stream_get_last_error(stream: *mut FFI_ArrowArrayStream) -> *const c_char {
    // SAFETY: the consumer calls us with our live stream.
    let ex = unsafe { exported(stream) };
    ex.error.as_ref().map_or(std::ptr::null(), |e| e.as_ptr())
}

#[allow(unsafe_code)]
unsafe extern "C" fn stream_release(stream: *mut FFI_ArrowArrayStream) {
    if stream.is_null() {
        return;
    }
    // SAFETY: our live stream; its box is freed once, then the stream is
    // marked released.
    unsafe {
        let s = &mut *stream;
        drop(Box::from_raw(s.private_data.cast::<Exported>()));
        s.private_data = std::ptr::null_mut();
        s.get_schema = None;
        s.get_next = None;
        s.get_last_error = None;
        s.release = None;
    }
}

/// Why `encode_arrow` or `decode_arrow` failed (made with the GIL
/// released, raised as a Python exception after).
#[derive(Debug)]
pub(crate) enum Failure {
    /// The input could not be read (a `ValueError`).
    Read(ReadError),
    /// A value or a column the encoder refused (an `EncodeError`).
    Encode(ArrowKeyError),
    /// A key or a key column that does not decode (a `DecodeError`), and
    /// the byte offset at fault in its key.
    Decode(ArrowKeyError, usize),
}

impl From<ReadError> for Failure {
    fn from(e: ReadError) -> Failure {
        Failure::Read(e)
    }
}

impl From<Failure> for PyErr {
    fn from(e: Failure) -> PyErr {
        match e {
            Failure::Read(e) => e.into(),
            Failure::Encode(e) => encode_err(e.to_string()),
            Failure::Decode(e, offset) => decode_err(e.to_string(), offset),
        }
    }
}

/// The error of a struct array's null row `row` (a null row is no row of
/// a batch).
fn null_row(row: usize) -> ArrowKeyError {
    ArrowKeyError {
        column: None,
        row: Some(row),
        value: None,
        message: "the row is null (a struct array with null rows is not a batch)".into(),
    }
}

/// The keys of every row of `input` (a batch, a stream of batches, or one
/// column), in order, as one array: nothing partial on error. Runs without
/// the GIL.
pub(crate) fn encode(spec: &KeySpec, input: Input) -> Result<ArrayRef, Failure> {
    let mut chunks = input.chunks()?;
    let (fields, batch) = column_fields(&chunks.field);
    let mut enc = ArrowEncoder::new(spec, &fields).map_err(Failure::Encode)?;
    let mut rows = 0;
    while let Some(chunk) = chunks.next_chunk()? {
        let cols = columns(&chunk, batch).map_err(|r| Failure::Encode(null_row(rows + r)))?;
        enc.push(&cols).map_err(Failure::Encode)?;
        rows += chunk.len();
    }
    Ok(enc.finish())
}

/// The sample rows of `input` (a batch, a stream of batches, or one
/// column) for `lint` and `plan`: each row's key, in order, its leading
/// value's text decoded from the key (lexikey-design's
/// `Sample::push_key`). Runs without the GIL.
pub(crate) fn sample(spec: &KeySpec, input: Input) -> Result<lexikey_design::Sample, Failure> {
    let keys = encode(spec, input)?;
    let mut sample = lexikey_design::Sample::new();
    let bad = |row: usize, e: lexikey_design::DesignError| {
        Failure::Encode(ArrowKeyError {
            column: None,
            row: Some(row),
            value: None,
            message: e.to_string(),
        })
    };
    if let Some(text) = keys.as_any().downcast_ref::<arrow_array::StringArray>() {
        for (row, key) in text.iter().enumerate() {
            let key = key.unwrap_or_default().as_bytes();
            sample.push_key(spec, key).map_err(|e| bad(row, e))?;
        }
    } else if let Some(bin) = keys.as_any().downcast_ref::<arrow_array::BinaryArray>() {
        for (row, key) in bin.iter().enumerate() {
            sample
                .push_key(spec, key.unwrap_or_default())
                .map_err(|e| bad(row, e))?;
        }
    }
    Ok(sample)
}

/// Whether `obj` speaks the Arrow PyCapsule interface (what [`take`]
/// takes).
pub(crate) fn is_arrow(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = obj.py();
    Ok(obj.hasattr(intern!(py, "__arrow_c_array__"))?
        || obj.hasattr(intern!(py, "__arrow_c_stream__"))?)
}

/// The field of `decode`'s result: a struct of the spec's fields (of
/// lexikey-arrow's types), named `names` or by default. A `ValueError`
/// for a wrong number of names.
pub(crate) fn decoded_field(spec: &KeySpec, names: Option<&[String]>) -> PyResult<FieldRef> {
    let schema = decoded_schema(spec, names).map_err(|e| value_err(e.to_string()))?;
    Ok(Arc::new(Field::new(
        "",
        DataType::Struct(schema.fields().clone()),
        false,
    )))
}

/// The values of the keys of `input` (one key column: an array, a
/// stream, or a batch of one column): one struct array (a batch of
/// [`decoded_field`]) per chunk of the input. Runs without the GIL.
pub(crate) fn decode(
    spec: &KeySpec,
    input: Input,
    names: Option<&[String]>,
) -> Result<Vec<ArrayRef>, Failure> {
    let mut chunks = input.chunks()?;
    let (fields, batch) = column_fields(&chunks.field);
    if batch && fields.len() != 1 {
        return Err(Failure::Decode(
            ArrowKeyError {
                column: None,
                row: None,
                value: None,
                message: format!(
                    "the keys are one column, not a batch of {} columns (select the key column)",
                    fields.len()
                ),
            },
            0,
        ));
    }
    let mut out = Vec::new();
    let mut base = 0;
    while let Some(chunk) = chunks.next_chunk()? {
        let cols = columns(&chunk, batch).map_err(|r| Failure::Decode(null_row(base + r), 0))?;
        let keys = cols[0].as_ref();
        let decoded = decode_array(spec, keys, names).map_err(|mut e| {
            let offset = e.row.map_or(0, |r| offset_in_key(spec, keys, r, &e, names));
            // Rows counted from the first key of the first chunk.
            e.row = e.row.map(|r| r + base);
            Failure::Decode(e, offset)
        })?;
        base += chunk.len();
        out.push(Arc::new(StructArray::from(decoded)) as ArrayRef);
    }
    Ok(out)
}

/// The byte offset at fault in key `r` of `keys`, for the `offset` of
/// `DecodeError`: where the core's decoder stops (the error lexikey-arrow
/// reports, which has no offset), or the start of the column named in `e`
/// (a value that decodes but does not fit its Arrow type; `names` as
/// given to `decode`); 0 when neither is known (a null key).
fn offset_in_key(
    spec: &KeySpec,
    keys: &dyn Array,
    r: usize,
    e: &ArrowKeyError,
    names: Option<&[String]>,
) -> usize {
    use arrow_array::cast::AsArray;
    if keys.is_null(r) {
        return 0;
    }
    let key: &[u8] = match keys.data_type() {
        DataType::Binary => keys.as_binary::<i32>().value(r),
        DataType::LargeBinary => keys.as_binary::<i64>().value(r),
        DataType::BinaryView => keys.as_binary_view().value(r),
        DataType::Utf8 => keys.as_string::<i32>().value(r).as_bytes(),
        DataType::LargeUtf8 => keys.as_string::<i64>().value(r).as_bytes(),
        DataType::Utf8View => keys.as_string_view().value(r).as_bytes(),
        _ => return 0,
    };
    match spec.decode(key) {
        Err(d) => d.offset(),
        Ok(values) => {
            let name =
                |i: usize| names.map_or_else(|| lexikey_arrow::default_name(i), |n| n[i].clone());
            (0..values.len())
                .find(|&i| e.column.as_deref() == Some(name(i).as_str()))
                .map_or(0, |i| values.offset(i))
        }
    }
}
