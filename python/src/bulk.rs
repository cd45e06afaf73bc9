//! The typed path of `Schema.encode_many` for schemas whose fields are all
//! `str` and `i64` (either direction): the common row key of a bulk job
//! (`"str,i64"`, `"str,str,i64.desc"`).
//!
//! A chunk of rows goes through three steps:
//! 1. **read** (GIL held): every row is a tuple of exact `str`/`int`
//!    values; the strings' UTF-8 (CPython's own buffer, no conversion) is
//!    copied into one arena and the integers into one cell vector, with
//!    borrowed references only (no reference counting, no Python code run,
//!    so nothing can free a row under us);
//! 2. **encode** (GIL released): the core's typed writer
//!    ([`KeyWriter::str`], [`KeyWriter::i64`]) appends each key to one
//!    buffer, with no `Component` built for ascending fields;
//! 3. **objects** (GIL held): one `str` (or `bytes`) per key, straight into
//!    the result list.
//!
//! Anything unusual — a row that is not a tuple, a value of another type
//! (a `bool`, an `int` subclass, an `int` out of range, a `str` with lone
//! surrogates), an encoding error, a key over the length limit — makes
//! [`Bulk::chunk`] return `false` before any key of the chunk is made; the
//! caller then runs the general path on that chunk, which encodes the same
//! bytes or raises the error with its message. The keys are the bytes of
//! [`lexikey::tuple::encode_into`] (the core's promise for
//! [`KeyWriter`]); the tests compare this path with the single-row one.

use std::borrow::Cow;
use std::os::raw::c_int;

use lexikey::format::typed::KeyWriter;
use lexikey::salt::Salter;
use lexikey::{Component, Dir, Field, Format, Type, Value};
use lexikey_cli::kinds::{Col, Kind};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::MAX_KEY_LEN;

/// How one field is read and written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// An ascending `str`: [`KeyWriter::str`].
    StrAsc,
    /// An ascending full-width `i64`: [`KeyWriter::i64`].
    I64Asc,
    /// A `str` of this field (descending): [`KeyWriter::push`].
    Str(Field),
    /// An `i64` of this field (descending, or a decimal width):
    /// [`KeyWriter::push`].
    I64(Field),
}

/// The typed bulk encoder of a schema of `str` and `i64` fields.
#[derive(Debug, Clone)]
pub(crate) struct Bulk {
    format: Format,
    slots: Vec<Slot>,
    salter: Option<Salter>,
    text: bool,
}

/// The reused buffers of one `encode_many` call.
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    /// The strings of the chunk's rows, one after the other.
    arena: String,
    /// Per field of every row: the end of its string in `arena`, or its
    /// `i64` (as `u64` bits).
    cells: Vec<u64>,
    /// The keys, one after the other, each starting at a multiple of 8.
    out: Vec<u8>,
    /// Where each key ends in `out`.
    ends: Vec<usize>,
    /// One unsalted key (salted schemas).
    unsalted: Vec<u8>,
}

/// The UTF-8 of a `str` object, or `None` (the error cleared) for a `str`
/// with lone surrogates.
///
/// # Safety
/// The GIL is held, `obj` is a live `str`, and the result is not used
/// after `obj` may have been freed (the bytes belong to it).
#[allow(unsafe_code)]
unsafe fn utf8_of<'a>(obj: *mut ffi::PyObject) -> Option<&'a str> {
    // SAFETY: per the function's contract; `crate::conv::utf8_raw` returns
    // CPython's UTF-8 of the string, owned by `obj`.
    unsafe { crate::conv::utf8_raw(obj) }
}

impl Bulk {
    /// The bulk encoder of `cols`, or `None` unless every field is a `str`
    /// or an `i64`.
    pub(crate) fn new(
        format: Format,
        cols: &[Col],
        salter: Option<Salter>,
        text: bool,
    ) -> Option<Bulk> {
        let slots = cols
            .iter()
            .map(|c| {
                let f = c.field;
                let asc = f.dir == Dir::Asc;
                match c.kind {
                    Kind::Core(Type::Str) if asc => Some(Slot::StrAsc),
                    Kind::Core(Type::Str) => Some(Slot::Str(f)),
                    // KeyWriter::i64 writes the full width in decimal.
                    Kind::Core(Type::I64)
                        if asc && (f.width.is_none() || format != Format::Decimal) =>
                    {
                        Some(Slot::I64Asc)
                    }
                    Kind::Core(Type::I64) => Some(Slot::I64(f)),
                    _ => None,
                }
            })
            .collect::<Option<Vec<_>>>()?;
        if slots.is_empty() {
            return None;
        }
        Some(Bulk {
            format,
            slots,
            salter,
            text,
        })
    }

    /// Encodes the rows `base..base + n` of `rows` (`list`: a list read
    /// in place; otherwise `chunk` holds the `n` rows) and appends their
    /// keys to `keys`. `Ok(false)`: some row needs the general path (no key
    /// was appended).
    #[allow(unsafe_code)]
    pub(crate) fn chunk<'py>(
        &self,
        py: Python<'py>,
        rows: Rows<'_, 'py>,
        b: &mut Buffers,
        keys: &mut Keys<'py>,
    ) -> PyResult<bool> {
        b.arena.clear();
        b.cells.clear();
        for i in 0..rows.len() {
            let row = rows.ptr(i);
            // SAFETY: the GIL is held; `row` is a live object (a borrowed
            // reference from the list, or owned by `chunk`); no Python code
            // runs until the step ends.
            if row.is_null() || !unsafe { self.read(row, b) } {
                return Ok(false);
            }
        }
        if !py.detach(|| self.encode(b)) {
            return Ok(false);
        }
        let mut start = 0;
        for &end in &b.ends {
            start = align(start);
            keys.push(crate::key_object(py, self.text, &b.out[start..end])?)?;
            start = end;
        }
        Ok(true)
    }

    /// Step 1 for one row: its values into `b.arena` and `b.cells`;
    /// `false` if it is not a tuple of exact `str`/`int` values that fit.
    ///
    /// # Safety
    /// The GIL is held and `row` is a live object.
    #[allow(unsafe_code)]
    unsafe fn read(&self, row: *mut ffi::PyObject, b: &mut Buffers) -> bool {
        // SAFETY: per the function's contract: every pointer read here is
        // `row` or an item of the tuple `row` (a borrowed reference, alive
        // while `row` is); no call below runs Python code.
        unsafe {
            if ffi::Py_TYPE(row) != &raw mut ffi::PyTuple_Type && ffi::PyTuple_Check(row) == 0 {
                return false;
            }
            // Py_SIZE: the tuple's length field (PyVarObject, in the
            // limited API), no call.
            if usize::try_from(ffi::Py_SIZE(row)).ok() != Some(self.slots.len()) {
                return false;
            }
            for (i, slot) in self.slots.iter().enumerate() {
                // In range: the size was checked.
                let v = ffi::PyTuple_GetItem(row, i as ffi::Py_ssize_t);
                match slot {
                    Slot::StrAsc | Slot::Str(_) => {
                        if ffi::Py_TYPE(v) != &raw mut ffi::PyUnicode_Type {
                            return false;
                        }
                        let Some(s) = utf8_of(v) else { return false };
                        b.arena.push_str(s);
                        b.cells.push(b.arena.len() as u64);
                    }
                    Slot::I64Asc | Slot::I64(_) => {
                        if ffi::Py_TYPE(v) != &raw mut ffi::PyLong_Type {
                            return false;
                        }
                        let mut overflow: c_int = 0;
                        let x = ffi::PyLong_AsLongLongAndOverflow(v, &mut overflow);
                        if overflow != 0 {
                            return false;
                        }
                        if x == -1 && !ffi::PyErr_Occurred().is_null() {
                            ffi::PyErr_Clear();
                            return false;
                        }
                        b.cells.push(x as u64);
                    }
                }
            }
        }
        true
    }

    /// Step 2: the keys of the cells into `b.out`, ending at `b.ends`;
    /// `false` if a value does not encode or a key is too long.
    fn encode(&self, b: &mut Buffers) -> bool {
        b.out.clear();
        b.ends.clear();
        let n = self.slots.len();
        let mut start = 0usize;
        for row in b.cells.chunks_exact(n) {
            // Padding: one fixed-size copy cut back (no memset call).
            let at = align(b.out.len());
            b.out.extend_from_slice(&[0; 8]);
            b.out.truncate(at);
            let key_start = b.out.len();
            let dst = match self.salter {
                Some(_) => {
                    b.unsalted.clear();
                    &mut b.unsalted
                }
                None => &mut b.out,
            };
            let mut w = KeyWriter::new(self.format, dst);
            for (slot, &cell) in self.slots.iter().zip(row) {
                let res = match *slot {
                    Slot::StrAsc | Slot::Str(_) => {
                        let end = cell as usize;
                        let s = &b.arena[start..end];
                        start = end;
                        match *slot {
                            Slot::Str(f) => w.push(&component(Value::Str(Cow::Borrowed(s)), f)),
                            _ => Ok(w.str(s)),
                        }
                    }
                    Slot::I64Asc => Ok(w.i64(cell as i64)),
                    Slot::I64(f) => w.push(&component(Value::I64(cell as i64), f)),
                };
                if res.is_err() {
                    return false;
                }
            }
            if let Some(s) = &self.salter {
                s.salted_key_into(&b.unsalted, &mut b.out);
            }
            if b.out.len() - key_start > MAX_KEY_LEN {
                return false;
            }
            b.ends.push(b.out.len());
        }
        true
    }
}

/// `n` rounded up to a multiple of 8: each key starts on a word boundary
/// of `Buffers::out`, where CPython's ASCII decoder takes its fast path
/// (eight bytes at a time when the source is aligned; byte by byte until
/// it is otherwise).
fn align(n: usize) -> usize {
    n.next_multiple_of(8)
}

fn component(value: Value<'_>, f: Field) -> Component<'_> {
    Component {
        value,
        dir: f.dir,
        width: f.width,
    }
}

/// The rows of one chunk: a slice of a list (read in place) or rows taken
/// from an iterator.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Rows<'a, 'py> {
    /// `list[base..base + n]`.
    List(&'a Bound<'py, PyList>, usize, usize),
    /// Rows held by the caller.
    Held(&'a [Bound<'py, PyAny>]),
}

impl<'py> Rows<'_, 'py> {
    /// The number of rows.
    pub(crate) fn len(&self) -> usize {
        match self {
            Rows::List(_, _, n) => *n,
            Rows::Held(v) => v.len(),
        }
    }

    /// Row `i` (an `IndexError` if a list shrank meanwhile).
    pub(crate) fn get(&self, i: usize) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Rows::List(l, base, _) => l.get_item(base + i),
            Rows::Held(v) => Ok(v[i].clone()),
        }
    }

    /// Row `i` as a borrowed pointer (null if a list shrank: the error is
    /// cleared, the general path sees the list as it is).
    #[allow(unsafe_code)]
    fn ptr(&self, i: usize) -> *mut ffi::PyObject {
        match self {
            Rows::List(l, base, _) => {
                let Ok(at) = ffi::Py_ssize_t::try_from(base + i) else {
                    return std::ptr::null_mut();
                };
                // SAFETY: the GIL is held (`l` is bound); `l` is a list; the
                // result is a borrowed reference or null with an error set.
                unsafe {
                    let p = ffi::PyList_GetItem(l.as_ptr(), at);
                    if p.is_null() {
                        ffi::PyErr_Clear();
                    }
                    p
                }
            }
            Rows::Held(v) => v[i].as_ptr(),
        }
    }
}

/// The result list of `encode_many`, filled in order: a list of the
/// input's length made up front when the input is a list (no second
/// vector of a million references, no growing), else grown.
#[derive(Debug)]
pub(crate) struct Keys<'py> {
    list: Bound<'py, PyList>,
    /// Items set so far (`list` is longer while being filled).
    len: usize,
    /// The length `list` was made with (items set in place below it);
    /// 0: `list` grows by appending.
    cap: usize,
}

impl<'py> Keys<'py> {
    /// An empty result for `n` keys (`None`: unknown).
    #[allow(unsafe_code)]
    pub(crate) fn new(py: Python<'py>, n: Option<usize>) -> PyResult<Keys<'py>> {
        let Some(n) = n.filter(|&n| n > 0) else {
            return Ok(Keys {
                list: PyList::empty(py),
                len: 0,
                cap: 0,
            });
        };
        let size = ffi::Py_ssize_t::try_from(n)
            .map_err(|_| pyo3::exceptions::PyOverflowError::new_err("too many rows"))?;
        // SAFETY: the GIL is held; the result is a new list of `n` NULL
        // items (every one set by `push` or cut by `finish` before Python
        // sees the list) or NULL with an error set. Untracked by the garbage
        // collector until `finish`: `gc.get_objects()` (in another thread
        // while the GIL is released, or in Python code the general path
        // runs) must not hand out a list with NULL items.
        let list = unsafe {
            let list = Bound::from_owned_ptr_or_err(py, ffi::PyList_New(size))?;
            ffi::PyObject_GC_UnTrack(list.as_ptr().cast());
            list
        };
        Ok(Keys {
            list: list.cast_into::<PyList>()?,
            len: 0,
            cap: n,
        })
    }

    /// Appends a key.
    #[allow(unsafe_code)]
    pub(crate) fn push(&mut self, key: Bound<'py, PyAny>) -> PyResult<()> {
        if self.len >= self.cap {
            self.len += 1;
            return self.list.append(key);
        }
        // In range (checked above); PyList_SetItem steals the reference
        // and cannot fail on a list with an index in range.
        let at = self.len as ffi::Py_ssize_t;
        // SAFETY: the GIL is held; `self.list` is a list; `at` is in range;
        // the item at `at` is NULL (never set), so nothing is leaked.
        unsafe { ffi::PyList_SetItem(self.list.as_ptr(), at, key.into_ptr()) };
        self.len += 1;
        Ok(())
    }

    /// The list of the keys pushed (a list made longer than the rows it
    /// got, because the input list shrank meanwhile, is cut).
    #[allow(unsafe_code)]
    pub(crate) fn finish(self) -> PyResult<Bound<'py, PyList>> {
        if self.cap > 0 {
            if self.len < self.cap {
                self.list.del_slice(self.len, self.cap)?;
            }
            // SAFETY: the GIL is held; the list, untracked by `new` (made
            // with `cap` > 0) and never tracked since, now holds no NULL.
            unsafe { ffi::PyObject_GC_Track(self.list.as_ptr().cast()) };
        }
        Ok(self.list)
    }
}
