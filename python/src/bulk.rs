//! The bulk path of `Schema.encode_many` (and `Schema.encode`, one row):
//! every format, every type, one path.
//!
//! A chunk of rows goes through three steps:
//! 1. **read** (GIL held): each row's values become the core's
//!    [`Arg`](lexikey::frontend::host::Arg)s, copied into one [`ArgRows`] arena
//!    (exact `str`, `int` and `float` values straight from CPython's
//!    objects, no Python code run; other values through
//!    [`conv::with_arg`](crate::conv::with_arg), the row held by a strong
//!    reference while Python code may run);
//! 2. **encode** (GIL released): the core's
//!    [`RowEncoder`](lexikey::frontend::spec::RowEncoder) writes each key into one
//!    buffer — the conversion rules of [`lexikey::frontend::host`], no text, no
//!    allocation per row;
//! 3. **objects** (GIL held): one `str` (or `bytes`) per key, straight into
//!    the result list.
//!
//! The first bad row wins: a value that cannot be read stops the read
//! step, the rows before it are encoded (an encoding error among them is
//! the one raised), then its error is raised.
//!
//! With more than one chunk and more than one CPU, step 2 runs on a
//! [`Worker`] thread while this one does steps 1 and 3 of the chunks on
//! either side ([`Chunks`] cuts the input; `Schema::encode_chunks` keeps
//! the chunks finishing in order).

use std::os::raw::c_int;

use lexikey::frontend::host::{Arg, Rows as ArgRows};
use lexikey::frontend::spec::{RowEncoder, RowError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::conv;
use crate::errors::encode_err;

/// The reused buffers of one `encode_many` call.
#[derive(Debug)]
pub(crate) struct Buffers {
    /// The chunk's values.
    pub(crate) args: ArgRows,
    /// The keys, one after the other, each starting at a multiple of 8.
    out: Vec<u8>,
    /// Where each key ends in `out`.
    ends: Vec<usize>,
}

impl Buffers {
    pub(crate) fn new(width: usize) -> Buffers {
        Buffers {
            args: ArgRows::new(width),
            out: Vec::new(),
            ends: Vec::new(),
        }
    }
}

/// Reads row `row` into `b.args` (`what`: the row as messages name it;
/// `labels`: the schema's fields). On error the row's values are dropped.
#[allow(unsafe_code)]
pub(crate) fn read_row(
    row: &Bound<'_, PyAny>,
    b: &mut Buffers,
    labels: &[String],
    what: &dyn Fn() -> String,
) -> Result<(), PyErr> {
    let width = labels.len();
    let before = b.args.len();
    let res = read_values(row, b, labels, what);
    if res.is_err() {
        b.args.truncate(before);
    }
    debug_assert!(res.is_err() || b.args.len() == before + 1 || width == 0);
    res
}

#[allow(unsafe_code)]
fn read_values(
    row: &Bound<'_, PyAny>,
    b: &mut Buffers,
    labels: &[String],
    what: &dyn Fn() -> String,
) -> Result<(), PyErr> {
    let width = labels.len();
    let arity = |n: usize| {
        encode_err(format!(
            "{} has {n} values; the schema has {width} fields",
            what()
        ))
    };
    let Ok(t) = row.cast::<PyTuple>() else {
        // Lists and other sequences: their items, one by one.
        let items = items(row, what)?;
        if items.len() != width {
            return Err(arity(items.len()));
        }
        for (i, v) in items.iter().enumerate() {
            read_value(v, b, &labels[i], i, what)?;
        }
        return Ok(());
    };
    if t.len() != width {
        return Err(arity(t.len()));
    }
    for (i, label) in labels.iter().enumerate() {
        // In range (the length was checked); a borrowed reference, alive
        // while the tuple is (we hold it).
        // SAFETY: the GIL is held; `t` is a tuple of `width` items.
        let v = unsafe { ffi::PyTuple_GetItem(t.as_ptr(), i as ffi::Py_ssize_t) };
        // SAFETY: `v` is a live object (an item of the tuple), the GIL is
        // held, and nothing runs Python code before it is read.
        if unsafe { read_exact(row.py(), v, b) } {
            continue;
        }
        // SAFETY: as above: `v` is a live borrowed reference.
        let v = unsafe { Bound::from_borrowed_ptr(row.py(), v) };
        read_value(&v, b, label, i, what)?;
    }
    Ok(())
}

/// Reads an exact `str` (valid UTF-8), `int` (fitting an `i64`),
/// `float`, `bool`, `bytes` or `datetime` in `timezone.utc` without
/// calling Python code; `false` for anything else.
///
/// # Safety
/// The GIL is held and `v` is a live object.
#[allow(unsafe_code)]
unsafe fn read_exact(py: Python<'_>, v: *mut ffi::PyObject, b: &mut Buffers) -> bool {
    // SAFETY: per the function's contract; no call below runs Python code.
    unsafe {
        let ty = ffi::Py_TYPE(v);
        if ty == &raw mut ffi::PyUnicode_Type {
            return match conv::utf8_raw(v) {
                Some(s) => {
                    b.args.push_str(s);
                    true
                }
                None => false,
            };
        }
        if ty == &raw mut ffi::PyLong_Type {
            let mut overflow: c_int = 0;
            let x = ffi::PyLong_AsLongLongAndOverflow(v, &mut overflow);
            if overflow != 0 {
                return false;
            }
            if x == -1 && !ffi::PyErr_Occurred().is_null() {
                ffi::PyErr_Clear();
                return false;
            }
            b.args.push_int(x);
            return true;
        }
        if ty == &raw mut ffi::PyFloat_Type {
            b.args.push(Arg::F64(ffi::PyFloat_AsDouble(v)));
            return true;
        }
        if ty == &raw mut ffi::PyBool_Type {
            b.args.push(Arg::Bool(v == ffi::Py_True()));
            return true;
        }
        if ty == &raw mut ffi::PyBytes_Type {
            let mut p: *mut std::os::raw::c_char = std::ptr::null_mut();
            let mut n: ffi::Py_ssize_t = 0;
            if ffi::PyBytes_AsStringAndSize(v, &mut p, &mut n) < 0 {
                ffi::PyErr_Clear();
                return false;
            }
            // `n` bytes at `p`, owned by `v` (alive: the row holds it).
            let bytes = std::slice::from_raw_parts(p.cast::<u8>(), n as usize);
            b.args.push(Arg::Bytes(bytes));
            return true;
        }
        if let Some(a) = conv::raw_utc_datetime(py, v) {
            b.args.push(a);
            return true;
        }
    }
    false
}

/// Reads any value through the core's conversion.
fn read_value(
    v: &Bound<'_, PyAny>,
    b: &mut Buffers,
    label: &str,
    i: usize,
    what: &dyn Fn() -> String,
) -> Result<(), PyErr> {
    conv::with_arg(v, |a| b.args.push(a)).map_err(|e| {
        Python::attach(|py| {
            if e.is_instance_of::<crate::errors::EncodeError>(py) {
                encode_err(format!(
                    "{}, value {} ({label}): {}",
                    what(),
                    i + 1,
                    e.value(py)
                ))
            } else {
                e
            }
        })
    })
}

/// The items of a row: a tuple or a list (or any sequence).
pub(crate) fn items<'py>(
    row: &Bound<'py, PyAny>,
    what: &dyn Fn() -> String,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if let Ok(t) = row.cast::<PyTuple>() {
        return Ok(t.iter().collect());
    }
    if let Ok(l) = row.cast::<PyList>() {
        return Ok(l.iter().collect());
    }
    Err(encode_err(format!(
        "{}: expected a tuple (or list) of values, got {}",
        what(),
        row.get_type().name()?
    )))
}

/// Step 2: the keys of the rows read into `b.args`, into `b.out` (each
/// key at a multiple of 8), ending at `b.ends`; the first failing row's
/// index and error.
pub(crate) fn encode_rows(
    enc: &mut RowEncoder<'_>,
    b: &mut Buffers,
) -> Result<(), (usize, RowError)> {
    b.out.clear();
    b.ends.clear();
    let mut row: Vec<Arg<'_>> = Vec::with_capacity(b.args.width());
    for r in 0..b.args.len() {
        // Padding: one fixed-size copy cut back (no memset call).
        let at = align(b.out.len());
        b.out.extend_from_slice(&[0; 8]);
        b.out.truncate(at);
        b.args.row(r, &mut row);
        enc.encode(&row, &mut b.out).map_err(|e| (r, e))?;
        b.ends.push(b.out.len());
    }
    Ok(())
}

/// Step 3: the keys of `b` as Python objects, appended to `keys`.
pub(crate) fn push_keys<'py>(
    py: Python<'py>,
    text: bool,
    b: &Buffers,
    keys: &mut Keys<'py>,
) -> PyResult<()> {
    let mut start = 0;
    for &end in &b.ends {
        start = align(start);
        keys.push(crate::key_object(py, text, &b.out[start..end])?)?;
        start = end;
    }
    Ok(())
}

/// `n` rounded up to a multiple of 8: each key starts on a word boundary
/// of `Buffers::out`, where CPython's ASCII decoder takes its fast path
/// (eight bytes at a time when the source is aligned; byte by byte until
/// it is otherwise).
fn align(n: usize) -> usize {
    n.next_multiple_of(8)
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

/// One chunk of rows taken from [`Chunks`]: rows `base..base + n` of the
/// input, and the error that ended the input there, if one did.
#[derive(Debug)]
pub(crate) struct Chunk {
    /// The index of its first row in the input.
    pub(crate) base: usize,
    n: usize,
    /// Which of [`Chunks`]'s two row holders keeps an iterator's rows.
    slot: usize,
    /// The error that stopped the rows (an iterator's, or the reading's).
    pub(crate) error: Option<PyErr>,
}

/// The input of `encode_many` cut into chunks: a list read in place (up
/// to its length when the call started: rows another thread appends
/// meanwhile are not encoded), or an iterable's rows held a chunk at a
/// time. Two chunks can be alive at once (one being read, the one before
/// it being encoded), so an iterator's rows go to two holders in turn.
#[derive(Debug)]
pub(crate) struct Chunks<'a, 'py> {
    list: Option<&'a Bound<'py, PyList>>,
    iter: Option<Bound<'py, pyo3::types::PyIterator>>,
    total: usize,
    size: usize,
    held: [Vec<Bound<'py, PyAny>>; 2],
    next_slot: usize,
    base: usize,
    done: bool,
}

impl<'a, 'py> Chunks<'a, 'py> {
    /// The chunks of `rows`, `size` rows each (the last may be shorter).
    pub(crate) fn new(rows: &'a Bound<'py, PyAny>, size: usize) -> PyResult<Chunks<'a, 'py>> {
        let list = rows.cast::<PyList>().ok();
        let iter = match list {
            Some(_) => None,
            None => Some(rows.try_iter()?),
        };
        Ok(Chunks {
            list,
            iter,
            total: list.map_or(0, |l| l.len()),
            size,
            held: [Vec::new(), Vec::new()],
            next_slot: 0,
            base: 0,
            done: false,
        })
    }

    /// The next chunk; `None` when the input is used up. A chunk may be
    /// empty when it carries an error (an iterator that raised).
    pub(crate) fn next_chunk(&mut self) -> Option<Chunk> {
        if self.done {
            return None;
        }
        let base = self.base;
        let mut error = None;
        let (n, slot) = match (self.list, self.iter.as_mut()) {
            (Some(l), _) => {
                // A list that shrank meanwhile ends earlier.
                let end = l.len().min(self.total);
                let n = end.saturating_sub(base).min(self.size);
                self.done = base + n >= end;
                (n, 0)
            }
            (None, Some(it)) => {
                let slot = self.next_slot;
                self.next_slot ^= 1;
                let held = &mut self.held[slot];
                held.clear();
                for row in it.by_ref().take(self.size) {
                    match row {
                        Ok(row) => held.push(row),
                        // The rows before it first (their error would be
                        // the first one).
                        Err(e) => {
                            error = Some(e);
                            break;
                        }
                    }
                }
                self.done = error.is_some() || held.len() < self.size;
                (held.len(), slot)
            }
            (None, None) => (0, 0),
        };
        self.base += n;
        if n == 0 && error.is_none() {
            self.done = true;
            return None;
        }
        Some(Chunk {
            base,
            n,
            slot,
            error,
        })
    }

    /// Whether the last chunk was taken.
    pub(crate) fn is_done(&self) -> bool {
        self.done
    }

    /// The rows of chunk `c`.
    pub(crate) fn rows(&self, c: &Chunk) -> Rows<'_, 'py> {
        match self.list {
            Some(l) => Rows::List(l, c.base, c.n),
            None => Rows::Held(&self.held[c.slot]),
        }
    }
}

/// What the worker hands back: the buffers of a chunk, encoded.
type Encoded = (Buffers, Result<(), (usize, RowError)>);

/// The thread of `encode_many` that encodes chunks (step 2) while the
/// calling thread reads the next one and makes the keys of the one before
/// (steps 1 and 3). It runs no Python code and touches no Python object:
/// the buffers it gets hold copies of the values. It ends when its
/// `Worker` is dropped (the scope the thread was started in waits for it).
#[derive(Debug)]
pub(crate) struct Worker {
    jobs: std::sync::mpsc::Sender<Buffers>,
    /// `None` only while [`Worker::wait`] has it on the released GIL.
    done: Option<std::sync::mpsc::Receiver<Encoded>>,
}

impl Worker {
    /// Starts the worker in scope `s` with its own encoder; `None` if the
    /// system cannot start a thread (the caller encodes on its own).
    pub(crate) fn spawn<'scope, 'env>(
        s: &'scope std::thread::Scope<'scope, 'env>,
        mut enc: RowEncoder<'env>,
    ) -> Option<Worker> {
        let (jobs, todo) = std::sync::mpsc::channel::<Buffers>();
        let (tell, done) = std::sync::mpsc::channel::<Encoded>();
        std::thread::Builder::new()
            .name("lexikey-encode".into())
            .spawn_scoped(s, move || {
                for mut b in todo {
                    let res = encode_rows(&mut enc, &mut b);
                    if tell.send((b, res)).is_err() {
                        return;
                    }
                }
            })
            .ok()?;
        Some(Worker {
            jobs,
            done: Some(done),
        })
    }

    /// Hands a chunk's buffers (read) to the worker.
    pub(crate) fn send(&self, b: Buffers) -> PyResult<()> {
        self.jobs.send(b).map_err(|_| stopped())
    }

    /// The oldest chunk sent and not yet waited for, encoded (the GIL
    /// released while waiting).
    pub(crate) fn wait(&mut self, py: Python<'_>) -> PyResult<Encoded> {
        let rx = self.done.take().ok_or_else(stopped)?;
        let (rx, got) = py.detach(move || {
            let got = rx.recv();
            (rx, got)
        });
        self.done = Some(rx);
        got.map_err(|_| stopped())
    }
}

/// The CPUs this process may use, asked once (the answer reads the
/// scheduler's affinity and the cgroup's quota: system calls, kept off
/// the per-call path of `Schema.encode`).
pub(crate) fn cpus() -> usize {
    static CPUS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The error of a worker that is gone (it panicked: a bug).
fn stopped() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err("internal error: the encoding thread stopped")
}
