//! `Schema`: the fields of a key, parsed once, for encoding and decoding
//! many keys. A thin shell over the core's [`KeySpec`] with a schema
//! ([`KeySpec::with_schema`]): rows are read into the core's arguments and
//! written by its [`RowEncoder`](lexikey::frontend::spec::RowEncoder) (see `bulk`),
//! keys decoded by [`KeySpec::decode`], ranges built by
//! [`KeySpec::ranges`] — for the native formats and the interop profiles
//! alike, one path each.

use arrow_schema::Field;
use lexikey::frontend::layout::LayoutOption;
use lexikey::frontend::spec::{Comp, KeySpec, KeyValues};
use lexikey::range::{Pred, PredOp};
use pyo3::basic::CompareOp;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use std::sync::Arc;

use crate::arrow;
use crate::bulk;
use crate::conv;
use crate::errors::{decode_err, encode_err, value_err};
use crate::{key_bytes, Fidelity, Fmt};

/// The key layout of `decode` (and `Schema`): `schema` is needed where the
/// keys do not name their fields; `for_schema`: a `Schema` (an
/// `fdb-tuple` schema lists element types, which `decode` refuses).
pub(crate) fn decode_spec(
    fmt: Fmt,
    fid: &Fidelity,
    schema: Option<&str>,
    width: Option<u8>,
    salt_buckets: Option<u32>,
    for_schema: bool,
) -> PyResult<KeySpec> {
    let spec = fid.spec(fmt, width, salt_buckets)?;
    if !for_schema {
        LayoutOption::DecodeSchema
            .check_given(fmt, schema.is_some())
            .map_err(crate::refusal)?;
    }
    LayoutOption::Width
        .check_decode_needs(fmt, width.is_some(), schema.is_some())
        .map_err(crate::refusal)?;
    match schema {
        None => Ok(spec),
        Some(s) => spec.with_schema(s).map_err(|e| value_err(e.to_string())),
    }
}

/// The bytes of many keys, one after the other in one buffer (no vector
/// per key): what `decode_many` decodes with the GIL released.
#[derive(Debug, Default)]
struct KeyBytes {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl KeyBytes {
    /// Appends a key argument's bytes ([`key_bytes`]; an exact `str` of a
    /// text format and exact `bytes` copied straight from the object).
    fn push(&mut self, obj: &Bound<'_, PyAny>, text: bool) -> PyResult<()> {
        if let Ok(b) = obj.cast_exact::<PyBytes>() {
            self.bytes.extend_from_slice(b.as_bytes());
        } else if let Some(s) = obj
            .cast_exact::<PyString>()
            .ok()
            .filter(|_| text)
            .and_then(|s| conv::utf8(s))
        {
            self.bytes.extend_from_slice(s.as_bytes());
        } else {
            self.bytes.extend_from_slice(&key_bytes(obj, text)?);
        }
        self.ends.push(self.bytes.len());
        Ok(())
    }

    /// Key `i`.
    fn get(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.bytes[start..self.ends[i]]
    }

    /// The number of keys.
    fn len(&self) -> usize {
        self.ends.len()
    }
}

/// Python's cyclic garbage collector held off while `decode_many` makes
/// its objects (`gc.disable()`, and `gc.enable()` when dropped, if it was
/// enabled). The objects made (tuples, UUIDs) form no cycle, yet every
/// 700 of them set off a collection that walks them: `perf` put half of a
/// UUID column's decode in the collector. No code of the caller's runs
/// meanwhile (other threads may, while the GIL is released: their
/// collections wait until the call returns); the next collection after it
/// sees the new objects once.
struct GcPause<'py>(Option<Bound<'py, PyAny>>);

impl<'py> GcPause<'py> {
    fn new(py: Python<'py>) -> PyResult<GcPause<'py>> {
        let gc = py.import(intern!(py, "gc"))?;
        if !gc.call_method0(intern!(py, "isenabled"))?.is_truthy()? {
            return Ok(GcPause(None));
        }
        gc.call_method0(intern!(py, "disable"))?;
        Ok(GcPause(Some(gc.into_any())))
    }
}

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.0 {
            // `gc.enable()` cannot fail; were it to, there is no caller to
            // tell from a destructor, and the collector stays as it was.
            let _ = gc.call_method0(intern!(gc.py(), "enable"));
        }
    }
}

/// Keys decoded per release of the GIL in `decode_many`.
const DECODE_CHUNK: usize = 4096;

/// The rows `Schema.encode_many` reads and encodes at a time.
const CHUNK: usize = 8192;

/// The values of a decoded key as Python values (`pairs`: `(type,
/// value)` pairs). A value Python cannot hold, or that its kind could not
/// have written, raises `DecodeError` naming the value and at its
/// component's byte offset (`at`: the message's prefix).
pub(crate) fn py_values<'py>(
    py: Python<'py>,
    v: &KeyValues<'_, '_>,
    key: &[u8],
    at: &dyn Fn() -> String,
    pairs: bool,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    (0..v.len())
        .map(|i| py_value(py, v, i, key, at, pairs))
        .collect()
}

/// [`py_values`] as a tuple, made in place (no vector per key).
#[allow(unsafe_code)]
fn py_tuple<'py>(
    py: Python<'py>,
    v: &KeyValues<'_, '_>,
    key: &[u8],
    at: &dyn Fn() -> String,
) -> PyResult<Bound<'py, PyTuple>> {
    let n = v.len();
    let size = pyo3::ffi::Py_ssize_t::try_from(n)
        .map_err(|_| value_err("too many values in a key".into()))?;
    // SAFETY: the GIL is held; a new tuple of `n` NULL items, or NULL with
    // an error set. Every item is set below before Python code can see the
    // tuple (a tuple dropped half-filled is freed with its NULL items,
    // which `tupledealloc` skips).
    let t = unsafe { Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyTuple_New(size))? };
    let mut atomic = true;
    for i in 0..n {
        let item = py_value(py, v, i, key, at, false)?;
        // SAFETY: the GIL is held; `item` is a live object.
        atomic &= unsafe { pyo3::ffi::PyObject_GC_IsTracked(item.as_ptr()) } == 0;
        // SAFETY: `i` < `n`, the item is NULL, and PyTuple_SetItem steals
        // the new reference.
        unsafe {
            pyo3::ffi::PyTuple_SetItem(t.as_ptr(), i as pyo3::ffi::Py_ssize_t, item.into_ptr())
        };
    }
    if atomic {
        // No item the garbage collector tracks (str, int, float, bytes,
        // datetime, Decimal...): the tuple can be in no reference cycle,
        // and CPython's collector would untrack it itself at its next pass
        // (`_PyTuple_MaybeUntrack`). Untracked now, a million decoded rows
        // do not make each collection walk them all (pure Python pays it).
        // SAFETY: the GIL is held; `t` is a live, fully set tuple.
        unsafe { pyo3::ffi::PyObject_GC_UnTrack(t.as_ptr().cast()) };
    }
    Ok(t.cast_into::<PyTuple>()?)
}

/// Value `i` of [`py_values`].
fn py_value<'py>(
    py: Python<'py>,
    v: &KeyValues<'_, '_>,
    i: usize,
    key: &[u8],
    at: &dyn Fn() -> String,
    pairs: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let value = match v.get(i) {
        Ok(out) => conv::py_out(py, &out),
        Err(e) => Err(decode_err(e.to_string(), 0)),
    };
    let value = value.map_err(|e| {
        if !e.is_instance_of::<crate::errors::DecodeError>(py) {
            return e;
        }
        let (msg, offset) = v.value_error(key, i, e.value(py));
        decode_err(format!("{}{msg}", at()), offset)
    })?;
    if pairs {
        conv::pair(py, &v.label(i), value)
    } else {
        Ok(value)
    }
}

/// The fields of a key for encoding and decoding many keys with one
/// parse: `Schema("str,i64.desc", format="hex")`.
///
/// - `encode(values) -> key` from a tuple of Python values (one per field);
/// - `decode(key) -> tuple` of Python values;
/// - `encode_many(rows) -> list` and `decode_many(keys) -> list[tuple]`:
///   bulk, with the GIL released while the keys are encoded or decoded;
/// - `encode_arrow(data) -> ArrowArray` and `decode_arrow(keys) ->
///   ArrowArray`: whole Arrow columns (any object of the Arrow PyCapsule
///   interface), the GIL released;
/// - `range(prefix=(), ge=..., lt=..., eq=..., str_prefix=...) -> (start,
///   end)`: `prefix` holds values of the leading fields, the predicates are
///   values of the next field; `ranges(...) -> list[(start, end)]`: the
///   same, one range per salt bucket for a salted schema.
///
/// Keys are `str` for the text formats and `bytes` otherwise, as in
/// `encode`. `width` and `salt_buckets` are the command line's `--width` and
/// `--salt-buckets` (a salted schema has one range per bucket: `ranges`
/// returns them; `range` refuses it); `hbase_numeric` and `round` those of
/// `encode` (`--hbase-numeric`, `--round`). An `fdb-tuple` schema lists
/// element types (`"str,int"`). Schemas are immutable, compare equal when
/// they describe the same keys, hash, and pickle (a Spark closure ships
/// them to its executors).
///
/// >>> s = lexikey.Schema("str,i64")
/// >>> s.encode(("population", 3831868))
/// 'population#l80000000003A783C'
#[pyclass(frozen, module = "lexikey")]
#[derive(Debug)]
pub(crate) struct Schema {
    spec_text: String,
    format: String,
    fmt: Fmt,
    width: Option<u8>,
    salt_buckets: Option<u32>,
    hbase_numeric: Option<String>,
    round: bool,
    /// The layout, with the schema.
    spec: KeySpec,
    labels: Vec<String>,
}

impl Schema {
    fn arity(&self) -> usize {
        self.labels.len()
    }

    /// What makes two schemas equal: the format, the fields as the
    /// schema's syntax writes them, the options.
    fn identity(&self) -> (&str, &[String], Option<u8>, Option<u32>, &str, bool) {
        (
            self.fmt.name(),
            &self.labels,
            self.width,
            self.salt_buckets,
            self.hbase_numeric.as_deref().unwrap_or("current"),
            self.round,
        )
    }

    /// Whether a field is a list (`list<…>`): its rows are encoded by
    /// [`Schema::encode_with_lists`], one at a time (a Python list is no
    /// bulk argument).
    fn has_lists(&self) -> bool {
        self.spec.has_list_fields()
    }

    /// The key of one row of a schema with list fields: list fields from
    /// Python lists ([`conv::list_value`]), the others as
    /// [`Schema::field_comp`] converts them.
    fn encode_with_lists<'py>(
        &self,
        py: Python<'py>,
        values: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        use lexikey::frontend::host::ColType;
        let items = bulk::items(values, &|| "values".to_string())?;
        if items.len() != self.arity() {
            return Err(encode_err(format!(
                "values has {} values; the schema {:?} has {} fields",
                items.len(),
                self.spec_text,
                self.arity()
            )));
        }
        let cols = self.spec.schema().unwrap_or_default();
        let mut comps = Vec::with_capacity(items.len());
        for (i, (v, ty)) in items.iter().zip(cols).enumerate() {
            match ty {
                ColType::Native(col) if col.field.list > 0 => {
                    let value = conv::list_value(col, v, self.spec.geo()).map_err(|e| {
                        if e.is_instance_of::<crate::errors::EncodeError>(py) {
                            encode_err(format!("values, value {} ({col}): {}", i + 1, e.value(py)))
                        } else {
                            e
                        }
                    })?;
                    comps.push(Comp::native(lexikey::Component::of(col.field, value)));
                }
                _ => comps.push(self.field_comp(i, v, "values")?),
            }
        }
        let key = self
            .spec
            .encode(&comps)
            .map_err(|e| encode_err(e.to_string()))?;
        crate::key_object(py, self.fmt.is_text(), &key)
    }

    /// The component of value `v` of field `i` (ranges; a list field's
    /// list element by element, [`KeySpec::list_field`]).
    fn field_comp(&self, i: usize, v: &Bound<'_, PyAny>, what: &str) -> PyResult<Comp> {
        let Some(label) = self.labels.get(i) else {
            return Err(value_err(format!(
                "the schema {:?} has {} fields: no field {} to compare",
                self.spec_text,
                self.arity(),
                i + 1
            )));
        };
        // An EncodeError of the value, named by its field.
        let named = |e: PyErr| {
            Python::attach(|py| {
                if e.is_instance_of::<crate::errors::EncodeError>(py) {
                    encode_err(format!(
                        "{what}, value {} ({label}): {}",
                        i + 1,
                        e.value(py)
                    ))
                } else {
                    e
                }
            })
        };
        if let Some(c) = self.spec.list_field(i, &conv::PyItem(v.clone())) {
            // A list field's list, element by element.
            return c.map_err(named);
        }
        conv::with_arg(v, |a| self.spec.field(i, a))
            .map_err(named)?
            .map_err(|e| {
                encode_err(format!(
                    "{what}, value {} ({label}): {}",
                    i + 1,
                    conv::arg_message(&e, v)
                ))
            })
    }

    /// Reads `rows` (a chunk) into `b`; the first row that cannot be read
    /// stops it (`base`: the chunk's first row's index).
    fn read_chunk(
        &self,
        rows: bulk::Rows<'_, '_>,
        base: usize,
        b: &mut bulk::Buffers,
        many: bool,
    ) -> Option<PyErr> {
        b.args.clear();
        for i in 0..rows.len() {
            let what = || row_name(many, base + i);
            let res = rows
                .get(i)
                .and_then(|row| bulk::read_row(&row, b, &self.labels, &what));
            if let Err(e) = res {
                return Some(e);
            }
        }
        None
    }

    /// The error of row `base + r` (of `rows`) that the encoder refused.
    fn row_err(
        &self,
        rows: bulk::Rows<'_, '_>,
        r: usize,
        base: usize,
        e: &lexikey::frontend::spec::RowError,
        many: bool,
    ) -> PyErr {
        let what = row_name(many, base + r);
        let Some(i) = e.index else {
            return encode_err(if many {
                format!("{what}: {}", e.error)
            } else {
                e.error.to_string()
            });
        };
        let obj = rows
            .get(r)
            .and_then(|row| bulk::items(&row, &|| what.clone()))
            .ok()
            .and_then(|items| items.get(i).cloned());
        let msg = match obj {
            Some(obj) => conv::arg_message(&e.error, &obj),
            None => e.error.to_string(),
        };
        let value = format!("value {} ({}): {msg}", i + 1, e.label);
        encode_err(if many {
            format!("{what}, {value}")
        } else {
            value
        })
    }

    /// Encodes `rows` in chunks, appending the keys to `keys`.
    ///
    /// In chunks of [`CHUNK`] rows: the buffers stay small and are reused
    /// (cache-resident, no fresh pages per call). A list is read in place;
    /// other iterables a chunk at a time. Each chunk goes through the three
    /// steps of [`bulk`]: read (GIL held), encode (GIL released), objects
    /// (GIL held).
    ///
    /// When there is more than one chunk and more than one CPU, the steps
    /// overlap: a worker thread (scoped to this call, no Python in it)
    /// encodes chunk k while this thread makes the keys of chunk k - 1 and
    /// reads chunk k + 1, two buffers taking turns. The keys, their order
    /// and the error raised are those of the one-chunk-at-a-time path: the
    /// chunks finish in order, and the first bad row still wins. What
    /// differs is that rows of the chunk after a failing one may already
    /// have been read (their values converted, an iterator advanced) when
    /// the error is raised.
    fn encode_chunks<'py>(
        &self,
        py: Python<'py>,
        rows: &Bound<'py, PyAny>,
        keys: &mut bulk::Keys<'py>,
        many: bool,
    ) -> PyResult<()> {
        let mut enc = self.spec.encoder().map_err(|e| value_err(e.to_string()))?;
        let mut src = bulk::Chunks::new(rows, CHUNK)?;
        let text = self.fmt.is_text();
        // The chunk `c` is finished: its keys pushed, or its error raised
        // (the encoder's first, then the one that stopped its reading).
        let finish = |keys: &mut bulk::Keys<'py>,
                      src: &bulk::Chunks<'_, 'py>,
                      c: bulk::Chunk,
                      b: &bulk::Buffers,
                      res: Result<(), (usize, lexikey::frontend::spec::RowError)>|
         -> PyResult<()> {
            if let Err((r, e)) = res {
                return Err(self.row_err(src.rows(&c), r, c.base, &e, many));
            }
            bulk::push_keys(py, text, b, keys)?;
            match c.error {
                Some(e) => Err(e),
                None => Ok(()),
            }
        };
        std::thread::scope(|s| {
            let mut free = vec![
                bulk::Buffers::new(self.arity()),
                bulk::Buffers::new(self.arity()),
            ];
            let mut worker: Option<bulk::Worker> = None;
            // Chunks sent to the worker and not finished, oldest first.
            let mut pending = std::collections::VecDeque::new();
            let mut done = false;
            loop {
                if done || free.is_empty() {
                    let (Some(w), Some(c)) = (worker.as_mut(), pending.pop_front()) else {
                        return Ok(());
                    };
                    let (b, res) = w.wait(py)?;
                    finish(keys, &src, c, &b, res)?;
                    free.push(b);
                    continue;
                }
                let Some(mut c) = src.next_chunk() else {
                    done = true;
                    continue;
                };
                let mut b = free
                    .pop()
                    .unwrap_or_else(|| bulk::Buffers::new(self.arity()));
                let unread = self.read_chunk(src.rows(&c), c.base, &mut b, many);
                c.error = unread.or(c.error.take());
                done = c.error.is_some() || src.is_done();
                if worker.is_none() && !done && bulk::cpus() > 1 {
                    // A second chunk follows: from here on, in the worker.
                    let own = self.spec.encoder().map_err(|e| value_err(e.to_string()))?;
                    worker = bulk::Worker::spawn(s, own);
                }
                match &worker {
                    Some(w) => {
                        w.send(b)?;
                        pending.push_back(c);
                    }
                    // One chunk, one CPU, or no thread to be had.
                    None => {
                        let res = py.detach(|| bulk::encode_rows(&mut enc, &mut b));
                        finish(keys, &src, c, &b, res)?;
                        free.push(b);
                    }
                }
            }
        })
    }

    /// Decodes `keys` with the GIL released, then builds their tuples;
    /// `many`: name the bad key's index in the error.
    fn decode_all<'py>(
        &self,
        py: Python<'py>,
        keys: &KeyBytes,
        many: bool,
    ) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        let at = |i: usize| {
            move || {
                if many {
                    format!("key {i}: ")
                } else {
                    String::new()
                }
            }
        };
        let spec = &self.spec;
        let mut tuples = Vec::with_capacity(keys.len());
        // A chunk at a time: decoded with the GIL released, then made into
        // Python objects and dropped, so the decoded values of one chunk
        // reuse the memory of the one before (not a million live at once).
        // The first bad key wins: the keys before a key that does not
        // decode are made into objects first (one of them may be out of
        // Python's range), then its error is raised.
        for first in (0..keys.len()).step_by(DECODE_CHUNK) {
            let n = DECODE_CHUNK.min(keys.len() - first);
            let (chunk, failed) = py.detach(|| {
                let mut chunk = Vec::with_capacity(n);
                for i in first..first + n {
                    match spec.decode(keys.get(i)) {
                        Ok(v) => chunk.push(v),
                        Err(e) => return (chunk, Some((i, e))),
                    }
                }
                (chunk, None)
            });
            for (j, v) in chunk.iter().enumerate() {
                let k = first + j;
                tuples.push(py_tuple(py, v, keys.get(k), &at(k))?);
            }
            if let Some((i, e)) = failed {
                return Err(decode_err(
                    format!(
                        "{}invalid key {}: {e}",
                        at(i)(),
                        lexikey::show_key(keys.get(i))
                    ),
                    e.offset(),
                ));
            }
        }
        Ok(tuples)
    }

    /// The prefix and predicates of a range query.
    fn range_query(
        &self,
        prefix: Option<&Bound<'_, PyAny>>,
        [ge, gt, le, lt, eq]: [Option<&Bound<'_, PyAny>>; 5],
        str_prefix: Option<&str>,
        [is_null, not_null]: [bool; 2],
    ) -> PyResult<(Vec<Comp>, Vec<Pred<Comp>>)> {
        let values = match prefix {
            None => Vec::new(),
            Some(p) => bulk::items(p, &|| "prefix".to_string())?,
        };
        let comps = values
            .iter()
            .enumerate()
            .map(|(i, v)| self.field_comp(i, v, "range"))
            .collect::<PyResult<Vec<_>>>()?;
        let next = values.len();
        let mut preds = crate::predicates(
            [
                (PredOp::Ge, ge),
                (PredOp::Gt, gt),
                (PredOp::Le, le),
                (PredOp::Lt, lt),
                (PredOp::Eq, eq),
            ],
            None,
            |v| self.field_comp(next, v, "range"),
        )?;
        // IS NULL / IS NOT NULL name the field by its null (the command
        // line's --is-null TYPE?): a field without the `?` is refused by
        // the value conversion, as a None for it always is.
        for (op, on) in [(PredOp::IsNull, is_null), (PredOp::NotNull, not_null)] {
            if on {
                let null =
                    Python::attach(|py| self.field_comp(next, &py.None().into_bound(py), "range"))?;
                preds.extend(Pred::with_op(op, null));
            }
        }
        // The prefix takes the field's direction (a descending str's
        // prefix range is inverted) and on a nullable str? selects its
        // values (the not-null beside it says the field is nullable); a
        // field that is not a str is an error, never a range of the wrong
        // bytes.
        if let Some(p) = str_prefix {
            let Some(prefix) = self.spec.str_prefix_preds(next, p) else {
                return Err(encode_err(format!(
                    "range, str_prefix: field {} of the schema {:?} is not a str",
                    next + 1,
                    self.spec_text
                )));
            };
            preds.extend(prefix);
        }
        Ok((comps, preds))
    }

    /// The cursor of a query (`after`: a token of it; `None`: before the
    /// first page) and the layout it was made under.
    fn page_cursor(
        &self,
        prefix: Option<&Bound<'_, PyAny>>,
        preds: [Option<&Bound<'_, PyAny>>; 5],
        str_prefix: Option<&str>,
        nulls: [bool; 2],
        after: Option<&str>,
        secret: Option<&[u8]>,
    ) -> PyResult<(lexikey_design::cursor::Cursor, KeySpec)> {
        use lexikey_design::cursor::{spec_fingerprint, Cursor};
        let (comps, preds) = self.range_query(prefix, preds, str_prefix, nulls)?;
        let spec = self.key_spec(self.salt_buckets)?;
        let ranges = crate::ranges(&spec, comps, preds)?;
        let fp = spec_fingerprint(&spec);
        let cursor = match after {
            Some(token) => Cursor::resume(token, fp, &ranges, secret)
                .map_err(|e| value_err(format!("after: {e}")))?,
            None => Cursor::new(fp, ranges),
        };
        Ok((cursor, spec))
    }

    fn key_spec(&self, salt_buckets: Option<u32>) -> PyResult<KeySpec> {
        let fid = Fidelity::new(self.fmt, self.hbase_numeric.as_deref(), self.round)?;
        fid.spec(self.fmt, self.width, salt_buckets)
    }
}

/// A cursor secret: `str` (its UTF-8) or bytes.
fn secret_bytes(secret: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<u8>>> {
    let Some(s) = secret else {
        return Ok(None);
    };
    if let Ok(t) = s.cast::<PyString>() {
        return Ok(Some(t.to_cow()?.as_bytes().to_vec()));
    }
    match s.extract::<Vec<u8>>() {
        Ok(b) => Ok(Some(b)),
        Err(_) => Err(value_err("secret: expected str or bytes".into())),
    }
}

impl Schema {
    /// The keys of `rows` with the text of each row's first value: an
    /// iterable of rows, or Arrow data (a table's columns are the fields,
    /// as `encode_arrow` reads them; the first value's text decoded from
    /// the key).
    fn sample(&self, py: Python<'_>, rows: &Bound<'_, PyAny>) -> PyResult<lexikey_design::Sample> {
        if arrow::is_arrow(rows)? {
            let input = arrow::take(rows, "rows")?;
            let spec = &self.spec;
            return Ok(py.detach(|| arrow::sample(spec, input))?);
        }
        let list = PyList::new(py, rows.try_iter()?.collect::<PyResult<Vec<_>>>()?)?;
        let mut keys = bulk::Keys::new(py, Some(list.len()))?;
        self.encode_chunks(py, list.as_any(), &mut keys, true)?;
        let keys = keys.finish()?;
        let text = self.fmt.is_text();
        let mut sample = lexikey_design::Sample::new();
        for (row, key) in list.iter().zip(keys.iter()) {
            let lead = row.get_item(0)?.str()?;
            sample.push(&key_bytes(&key, text)?, &lead.to_cow()?);
        }
        Ok(sample)
    }
}

fn row_name(many: bool, r: usize) -> String {
    if many {
        format!("row {r}")
    } else {
        "values".to_string()
    }
}

#[pymethods]
impl Schema {
    #[new]
    #[pyo3(signature = (spec, format = "hex", *, width = None, salt_buckets = None, hbase_numeric = None, round = false))]
    fn new(
        spec: &str,
        format: &str,
        width: Option<u8>,
        salt_buckets: Option<u32>,
        hbase_numeric: Option<&str>,
        round: bool,
    ) -> PyResult<Self> {
        let fmt = crate::parse_fmt(format)?;
        let fid = Fidelity::new(fmt, hbase_numeric, round)?;
        let key_spec = decode_spec(fmt, &fid, Some(spec), width, salt_buckets, true)?;
        let labels = key_spec
            .schema()
            .unwrap_or_default()
            .iter()
            .map(ToString::to_string)
            .collect();
        Ok(Schema {
            spec_text: spec.to_string(),
            format: format.to_string(),
            fmt,
            width,
            salt_buckets,
            hbase_numeric: hbase_numeric.map(str::to_string),
            round,
            spec: key_spec,
            labels,
        })
    }

    /// The schema as given (`"str,i64.desc"`).
    #[getter]
    fn spec(&self) -> &str {
        &self.spec_text
    }

    /// The key format.
    #[getter]
    fn format(&self) -> &str {
        &self.format
    }

    /// The field types as the command line labels them.
    #[getter]
    fn fields(&self) -> Vec<String> {
        self.labels.clone()
    }

    /// `Schema('str,i64.desc', format='hex', salt_buckets=4)`: the call
    /// that makes it (options only when given).
    fn __repr__(&self) -> String {
        let mut s = format!("Schema({:?}, format={:?}", self.spec_text, self.format);
        if let Some(w) = self.width {
            s.push_str(&format!(", width={w}"));
        }
        if let Some(n) = self.salt_buckets {
            s.push_str(&format!(", salt_buckets={n}"));
        }
        if let Some(h) = &self.hbase_numeric {
            s.push_str(&format!(", hbase_numeric={h:?}"));
        }
        if self.round {
            s.push_str(", round=True");
        }
        s.push(')');
        s.replace('"', "'")
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let same = match other.cast::<Schema>() {
            Ok(other) => self.identity() == other.get().identity(),
            Err(_) => return Ok(py.NotImplemented()),
        };
        let result = match op {
            CompareOp::Eq => same,
            CompareOp::Ne => !same,
            _ => return Ok(py.NotImplemented()),
        };
        Ok(pyo3::types::PyBool::new(py, result)
            .to_owned()
            .into_any()
            .unbind())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.identity().hash(&mut h);
        h.finish()
    }

    /// Pickling: the arguments that make the same schema.
    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let args = PyTuple::new(py, [&self.spec_text, &self.format])?;
        let kw = PyDict::new(py);
        kw.set_item("width", self.width)?;
        kw.set_item("salt_buckets", self.salt_buckets)?;
        kw.set_item("hbase_numeric", self.hbase_numeric.as_deref())?;
        kw.set_item("round", self.round)?;
        Ok((args, kw))
    }

    /// The key of one row: a tuple holding one Python value per field.
    fn encode<'py>(
        &self,
        py: Python<'py>,
        values: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let row = PyTuple::new(py, [values])?;
        let mut keys = bulk::Keys::new(py, Some(1))?;
        let n = bulk::items(values, &|| "values".to_string())?.len();
        if n != self.arity() {
            return Err(encode_err(format!(
                "values has {n} values; the schema {:?} has {} fields",
                self.spec_text,
                self.arity()
            )));
        }
        if self.has_lists() {
            return self.encode_with_lists(py, values);
        }
        self.encode_chunks(py, row.as_any(), &mut keys, false)?;
        keys.finish()?
            .get_item(0)
            .map_err(|_| value_err("internal error: no key".into()))
    }

    /// The keys of many rows (an iterable of tuples), in order. The rows
    /// are converted first; the keys are then encoded with the GIL released.
    fn encode_many<'py>(
        &self,
        py: Python<'py>,
        rows: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        if self.has_lists() {
            let keys = rows
                .try_iter()?
                .enumerate()
                .map(|(r, row)| {
                    self.encode_with_lists(py, &row?).map_err(|e| {
                        if e.is_instance_of::<crate::errors::EncodeError>(py) {
                            encode_err(format!("row {r}: {}", e.value(py)))
                        } else {
                            e
                        }
                    })
                })
                .collect::<PyResult<Vec<_>>>()?;
            return PyList::new(py, keys);
        }
        let total = rows.cast::<PyList>().ok().map(|l| l.len());
        let mut keys = bulk::Keys::new(py, total)?;
        self.encode_chunks(py, rows, &mut keys, true)?;
        keys.finish()
    }

    /// The values of one key, as a tuple.
    fn decode<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let mut keys = KeyBytes::default();
        keys.push(key, self.fmt.is_text())?;
        let mut tuples = self.decode_all(py, &keys, false)?;
        tuples
            .pop()
            .ok_or_else(|| value_err("internal error: no tuple".into()))
    }

    /// The values of many keys (an iterable of keys), as a list of tuples.
    /// The keys are decoded with the GIL released (4,096 at a time); the
    /// first bad key raises `DecodeError` (its message names the key's
    /// index). Python's cyclic garbage collector is paused while the
    /// result is built (the objects made form no cycle) and is as it was
    /// afterwards.
    fn decode_many<'py>(
        &self,
        py: Python<'py>,
        keys: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let text = self.fmt.is_text();
        let mut all = KeyBytes::default();
        for k in keys.try_iter()? {
            all.push(&k?, text)?;
        }
        let _paused = GcPause::new(py)?;
        PyList::new(py, self.decode_all(py, &all, true)?)
    }

    /// The keys of Arrow data, as one Arrow column: `binary` for the
    /// binary formats, `string` for the text formats (hex, base64,
    /// decimal), each key the one `encode_many` makes of the same row.
    /// `data` is any object with `__arrow_c_stream__` or
    /// `__arrow_c_array__` (a pyarrow `Table`, `RecordBatch`,
    /// `RecordBatchReader`, `ChunkedArray` or `Array`, a polars `DataFrame`
    /// or `Series`, a pandas `DataFrame`, a DuckDB relation...): its
    /// columns, in order, are the schema's fields (a plain array or series
    /// is a one-field row). The column types each field takes are those
    /// of lexikey-arrow (strings, integers widened where lossless, floats,
    /// booleans, binaries, timestamps and dates, UUIDs, decimals). The
    /// data is read and encoded with the GIL released; a null where the
    /// field has none, a column of the wrong type or a value out of range
    /// raises `EncodeError` naming the column, the row and the value, and
    /// nothing is returned. The result speaks the Arrow PyCapsule
    /// interface: `pyarrow.array(keys)`, `polars.Series(keys)`.
    fn encode_arrow(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<arrow::ArrowArray> {
        let input = arrow::take(data, "data")?;
        let spec = &self.spec;
        let keys = py.detach(|| arrow::encode(spec, input))?;
        let field = Arc::new(Field::new("key", keys.data_type().clone(), false));
        Ok(arrow::ArrowArray::new(field, vec![keys]))
    }

    /// The values of an Arrow column of keys (`binary` or `string`, as
    /// `encode_arrow` makes them; any object with `__arrow_c_stream__` or
    /// `__arrow_c_array__`, or a table of one column) as Arrow columns:
    /// one per field, of the type lexikey-arrow decodes it to, named
    /// `names` (a list of str, one per field) or by default. The keys are
    /// decoded with the GIL released; a key that does not decode raises
    /// `DecodeError` naming its row, and nothing is returned. The result
    /// is a batch (a struct array) that speaks the Arrow PyCapsule
    /// interface: `pyarrow.table(values)`, `polars.DataFrame(values)`.
    #[pyo3(signature = (keys, names = None))]
    fn decode_arrow(
        &self,
        py: Python<'_>,
        keys: &Bound<'_, PyAny>,
        names: Option<Vec<String>>,
    ) -> PyResult<arrow::ArrowArray> {
        let names = names.as_deref();
        let field = arrow::decoded_field(&self.spec, names)?;
        let input = arrow::take(keys, "keys")?;
        let spec = &self.spec;
        let chunks = py.detach(|| arrow::decode(spec, input, names))?;
        Ok(arrow::ArrowArray::new(field, chunks))
    }

    /// The half-open key range `(start, end)` of the keys whose leading
    /// fields hold `prefix` (a tuple of values) and whose next field
    /// satisfies every predicate given (values of that field;
    /// `str_prefix`: that field is a `str` starting with it, in the
    /// field's direction, on a nullable `str?` never a null; `is_null=True` / `not_null=True`: that field,
    /// nullable (`TYPE?`), is null / holds a value, SQL's `IS NULL` / `IS
    /// NOT NULL`). `None` is an unbounded side. Exactly the command line's
    /// `range` (`--is-null TYPE?`, `--not-null TYPE?`).
    ///
    /// >>> lexikey.Schema("str,i64?").range(["age"], is_null=True)
    /// ('age#-', 'age#-$')
    #[pyo3(
        signature = (prefix = None, ge = None, gt = None, le = None, lt = None, eq = None, str_prefix = None, *, is_null = false, not_null = false),
        text_signature = "(self, prefix=(), ge=None, gt=None, le=None, lt=None, eq=None, str_prefix=None, *, is_null=False, not_null=False)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn range<'py>(
        &self,
        py: Python<'py>,
        prefix: Option<&Bound<'py, PyAny>>,
        ge: Option<&Bound<'py, PyAny>>,
        gt: Option<&Bound<'py, PyAny>>,
        le: Option<&Bound<'py, PyAny>>,
        lt: Option<&Bound<'py, PyAny>>,
        eq: Option<&Bound<'py, PyAny>>,
        str_prefix: Option<&str>,
        is_null: bool,
        not_null: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(n) = self.salt_buckets {
            return Err(value_err(format!(
                "a schema salted into {n} buckets has one range per bucket: use \
                 Schema.ranges(...), which returns them all, bucket 0 first"
            )));
        }
        let (comps, preds) = self.range_query(
            prefix,
            [ge, gt, le, lt, eq],
            str_prefix,
            [is_null, not_null],
        )?;
        crate::range_pair(py, &self.key_spec(None)?, comps, preds)
    }

    /// Rows read back from the buckets of a salted table (the ranges of
    /// `ranges`), merged into the order of their keys without the salt:
    /// the order the keys would sort unsalted, so newest first for an
    /// upside-down table. Each argument is an iterable of rows: `(key,
    /// row)` pairs (tuples) or objects with a `row_key` (the rows of
    /// google-cloud-bigtable's `read_rows`); one per bucket, or one that
    /// holds every bucket (a read of `lexikey.bigtable.row_set(ranges)`).
    /// Returns a list of the rows themselves, every row once. Rows of equal
    /// unsalted keys keep their order (arguments in the order given). A key
    /// is `str` or `bytes`, as `decode` takes it. An unsalted schema sorts
    /// by the whole key.
    ///
    /// A key whose salt is malformed or not its own bucket (a row of
    /// another table, or a schema with another `salt_buckets`) raises
    /// `DecodeError` naming the row; a row that is neither a pair nor has
    /// a `row_key` raises `TypeError`.
    #[pyo3(signature = (*scans))]
    fn merge<'py>(
        &self,
        py: Python<'py>,
        scans: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyList>> {
        let text = self.fmt.is_text();
        let mut rows = Vec::new();
        let mut keys = KeyBytes::default();
        for (a, scan) in scans.iter().enumerate() {
            let iter = scan.try_iter().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "argument {a} of merge: an iterable of rows, not {}",
                    scan.get_type()
                        .name()
                        .map_or_else(|_| "?".into(), |n| n.to_string())
                ))
            })?;
            for (i, row) in iter.enumerate() {
                let row = row?;
                let key = match row.cast_exact::<PyTuple>() {
                    Ok(t) if t.len() == 2 => t.get_item(0)?,
                    _ => match row.getattr_opt(intern!(py, "row_key"))? {
                        Some(k) => k,
                        None => {
                            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                                "row {i} of argument {a} of merge: a (key, row) tuple or an \
                                 object with a row_key (a google.cloud.bigtable row), not {}",
                                row.get_type().name()?
                            )))
                        }
                    },
                };
                keys.push(&key, text).map_err(|e| {
                    let msg = format!("row {i} of argument {a} of merge: {}", e.value(py));
                    if e.is_instance_of::<pyo3::exceptions::PyTypeError>(py) {
                        pyo3::exceptions::PyTypeError::new_err(msg)
                    } else {
                        decode_err(msg, 0)
                    }
                })?;
                rows.push((a, i, row));
            }
        }
        let slices: Vec<&[u8]> = (0..keys.len()).map(|i| keys.get(i)).collect();
        let order = self.spec.merge_order(&slices).map_err(|(at, e)| {
            let (a, i, _) = &rows[at];
            decode_err(
                format!(
                    "row {i} of argument {a} of merge: key {} is not a key of {}: {e}",
                    lexikey::to_string_binary(slices[at]),
                    self.__repr__()
                ),
                e.offset(),
            )
        })?;
        PyList::new(py, order.into_iter().map(|j| rows[j].2.clone()))
    }

    /// The ranges of a query as `range` takes it, as a list of `(start,
    /// end)`: for a salted schema one per salt bucket, bucket 0 first (the
    /// command line's `range --salt-buckets N`: scan them all, or in
    /// parallel, and merge); otherwise the one range of `range`.
    #[pyo3(
        signature = (prefix = None, ge = None, gt = None, le = None, lt = None, eq = None, str_prefix = None, *, is_null = false, not_null = false),
        text_signature = "(self, prefix=(), ge=None, gt=None, le=None, lt=None, eq=None, str_prefix=None, *, is_null=False, not_null=False)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn ranges<'py>(
        &self,
        py: Python<'py>,
        prefix: Option<&Bound<'py, PyAny>>,
        ge: Option<&Bound<'py, PyAny>>,
        gt: Option<&Bound<'py, PyAny>>,
        le: Option<&Bound<'py, PyAny>>,
        lt: Option<&Bound<'py, PyAny>>,
        eq: Option<&Bound<'py, PyAny>>,
        str_prefix: Option<&str>,
        is_null: bool,
        not_null: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let (comps, preds) = self.range_query(
            prefix,
            [ge, gt, le, lt, eq],
            str_prefix,
            [is_null, not_null],
        )?;
        let spec = self.key_spec(self.salt_buckets)?;
        let pairs = crate::ranges(&spec, comps, preds)?
            .iter()
            .map(|r| crate::range_tuple(py, self.fmt, r))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, pairs)
    }

    /// The ranges of the next page of a query as `ranges` takes it, as a
    /// list of `(start, end)`: with `after=None` the query's ranges; with
    /// a cursor from `cursor`, each range from just after the last key read
    /// (every bucket of a salted schema after the last row's place), ranges
    /// read to their end left out. A cursor for another schema or query,
    /// damaged, or (with `secret`) not signed with it: ValueError.
    #[pyo3(
        signature = (prefix = None, ge = None, gt = None, le = None, lt = None, eq = None, str_prefix = None, after = None, secret = None, *, is_null = false, not_null = false),
        text_signature = "(self, prefix=(), ge=None, gt=None, le=None, lt=None, eq=None, str_prefix=None, after=None, secret=None, *, is_null=False, not_null=False)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn page_ranges<'py>(
        &self,
        py: Python<'py>,
        prefix: Option<&Bound<'py, PyAny>>,
        ge: Option<&Bound<'py, PyAny>>,
        gt: Option<&Bound<'py, PyAny>>,
        le: Option<&Bound<'py, PyAny>>,
        lt: Option<&Bound<'py, PyAny>>,
        eq: Option<&Bound<'py, PyAny>>,
        str_prefix: Option<&str>,
        after: Option<&str>,
        secret: Option<&Bound<'py, PyAny>>,
        is_null: bool,
        not_null: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let secret = secret_bytes(secret)?;
        let secret = secret.as_deref();
        let (cursor, _) = self.page_cursor(
            prefix,
            [ge, gt, le, lt, eq],
            str_prefix,
            [is_null, not_null],
            after,
            secret,
        )?;
        let pairs = cursor
            .next_ranges(self.fmt.is_text())
            .iter()
            .map(|r| crate::range_tuple(py, self.fmt, r))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, pairs)
    }

    /// The cursor (an opaque URL-safe token) after a page of the query
    /// whose last row has key `last_key` (as stored: with its salt for a
    /// salted schema), the page read from `page_ranges(..., after=after)`;
    /// with `secret`, signed (HMAC-SHA256) so a client cannot forge one.
    #[pyo3(
        signature = (last_key, prefix = None, ge = None, gt = None, le = None, lt = None, eq = None, str_prefix = None, after = None, secret = None, *, is_null = false, not_null = false),
        text_signature = "(self, last_key, prefix=(), ge=None, gt=None, le=None, lt=None, eq=None, str_prefix=None, after=None, secret=None, *, is_null=False, not_null=False)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn cursor<'py>(
        &self,
        last_key: &Bound<'py, PyAny>,
        prefix: Option<&Bound<'py, PyAny>>,
        ge: Option<&Bound<'py, PyAny>>,
        gt: Option<&Bound<'py, PyAny>>,
        le: Option<&Bound<'py, PyAny>>,
        lt: Option<&Bound<'py, PyAny>>,
        eq: Option<&Bound<'py, PyAny>>,
        str_prefix: Option<&str>,
        after: Option<&str>,
        secret: Option<&Bound<'py, PyAny>>,
        is_null: bool,
        not_null: bool,
    ) -> PyResult<String> {
        let secret = secret_bytes(secret)?;
        let secret = secret.as_deref();
        let (cursor, spec) = self.page_cursor(
            prefix,
            [ge, gt, le, lt, eq],
            str_prefix,
            [is_null, not_null],
            after,
            secret,
        )?;
        let key = key_bytes(last_key, self.fmt.is_text())?;
        let rest = spec
            .unsalted(&key)
            .map_err(|e| value_err(format!("last_key: {e}")))?;
        let salt_len = key.len() - rest.len();
        let next = cursor
            .advance(&key, salt_len)
            .map_err(|e| value_err(format!("last_key: {e}")))?;
        Ok(next.to_token(secret))
    }

    /// Lints the key design on sample rows (an iterable of tuples, or
    /// Arrow data as `encode_arrow` takes it: a pyarrow `Table`, a polars
    /// `DataFrame`..., its columns the fields; rows in insertion order):
    /// hot spots, skew, key sizes, as
    /// `lexikey lint --json` reports them (a dict: `hot_spot`,
    /// `busiest_region_share`, `suggested_salt_buckets`, `key_bytes`, ...).
    #[pyo3(signature = (rows, regions = 16))]
    fn lint<'py>(
        &self,
        py: Python<'py>,
        rows: &Bound<'py, PyAny>,
        regions: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let sample = self.sample(py, rows)?;
        let report = lexikey_design::lint(&self.spec, &sample, regions)
            .map_err(|e| value_err(e.to_string()))?;
        py.import("json")?
            .call_method1("loads", (report.to_json(),))
    }

    /// The command that creates `table` split into `regions` regions at
    /// the sample rows' key quantiles (rows as `lint` takes them: tuples
    /// or Arrow data), for `target` `hbase`, `cbt` or
    /// `phoenix` (what `lexikey plan` prints).
    #[pyo3(signature = (rows, regions, target = "hbase", table = "t"))]
    fn plan(
        &self,
        py: Python<'_>,
        rows: &Bound<'_, PyAny>,
        regions: usize,
        target: &str,
        table: &str,
    ) -> PyResult<String> {
        let target = lexikey_design::Target::parse(target).map_err(|e| value_err(e.to_string()))?;
        let sample = self.sample(py, rows)?;
        lexikey_design::plan(&self.spec, &sample, regions, target, table)
            .map_err(|e| value_err(e.to_string()))
    }

    /// Whether every key this schema writes reads back under `other` as
    /// the same values, sorting the same, as `lexikey schema diff --json`
    /// reports it (a dict: `compatible`, `reason`, `changes`, the
    /// witnesses, the `migration` plan of a breaking change).
    fn diff<'py>(&self, py: Python<'py>, other: PyRef<'py, Schema>) -> PyResult<Bound<'py, PyAny>> {
        let d =
            lexikey_design::diff(&self.spec, &other.spec).map_err(|e| value_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (d.to_json(),))
    }
}
