//! `Allocator`: decreasing row IDs for upside-down tables, over every store
//! the command line opens, exactly as `lexikey alloc` sets it up: both call
//! `lexikey_stores::open_allocator`. Every store call runs on Node's thread
//! pool (a Node-API async work item) and settles a promise, so the event
//! loop never waits for a store.

use std::ffi::c_void;
use std::ptr;
use std::sync::{Arc, PoisonError, RwLock};

use lexikey::store::alloc::Allocator as RustAllocator;
use lexikey::store::salt::SaltMode;
use lexikey::store::Store;
use lexikey::Format;
use lexikey_stores::{OpenError, TableOptions};
use napi::sys;

use crate::errors::{self, alloc_err, Error};
use crate::handle::{self, Tagged};
use crate::js::{Js, Kind, Value};

type Inner = RustAllocator<Arc<dyn Store>>;

/// An open allocator (`None` once closed).
#[derive(Debug)]
pub(crate) struct Alloc {
    inner: RwLock<Option<Arc<Inner>>>,
    describe: String,
}

impl Tagged for Alloc {
    const TAG: sys::napi_type_tag = sys::napi_type_tag {
        lower: 0x6c65_7869_6b65_7941,
        upper: 0x0a11_0ca7_0a11_0ca7,
    };
    const NAME: &'static str = "lexikey Allocator";
}

impl Alloc {
    fn open(&self) -> Result<Arc<Inner>, Error> {
        self.inner
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .ok_or_else(|| Error::Value(format!("{} is closed", self.describe)))
    }

    /// Lets go of the store (connections, a `redb:` file's lock) once the
    /// calls under way are done.
    pub(crate) fn close(&self) {
        self.inner
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
    }
}

/// What a store call gives back, made a JavaScript value when it settles.
enum Done {
    Opened(Alloc),
    Id(u64),
    Row(Option<(u64, Vec<u8>)>),
    Rows(Vec<(u64, Vec<u8>)>),
}

type Job = Box<dyn FnOnce() -> Result<Done, Error> + Send>;

struct Work {
    work: sys::napi_async_work,
    deferred: sys::napi_deferred,
    job: Option<Job>,
    result: Option<Result<Done, Error>>,
}

unsafe extern "C" fn execute(_env: sys::napi_env, data: *mut c_void) {
    // SAFETY: `data` is the `Work` of `spawn`, used by this thread alone
    // until `complete`.
    let w = unsafe { &mut *data.cast::<Work>() };
    if let Some(job) = w.job.take() {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).unwrap_or_else(|_| {
            Err(Error::Js(
                "lexikey: internal error (a panic in the allocator)".into(),
            ))
        });
        w.result = Some(r);
    }
}

fn row(js: Js, id: u64, v: &[u8]) -> Result<Value, Error> {
    let a = js.array(2)?;
    js.set_element(a, 0, js.bigint_from_u64(id)?)?;
    js.set_element(a, 1, js.buffer(v)?)?;
    Ok(a)
}

fn settle(js: Js, done: Done) -> Result<Value, Error> {
    match done {
        Done::Opened(a) => handle::wrap(js, a),
        Done::Id(id) => js.bigint_from_u64(id),
        Done::Row(None) => js.null(),
        Done::Row(Some((id, v))) => row(js, id, &v),
        Done::Rows(rows) => {
            let arr = js.array(rows.len())?;
            for (i, (id, v)) in rows.iter().enumerate() {
                js.set_element(arr, i as u32, row(js, *id, v)?)?;
            }
            Ok(arr)
        }
    }
}

unsafe extern "C" fn complete(env: sys::napi_env, status: sys::napi_status, data: *mut c_void) {
    // SAFETY: `data` is the box of `spawn`, ours again once the work is done.
    let w = unsafe { Box::from_raw(data.cast::<Work>()) };
    let js = Js { env };
    let result = match w.result {
        Some(r) if status == sys::Status::napi_ok => r,
        _ => Err(Error::Js(
            "lexikey: the allocator call was cancelled".into(),
        )),
    };
    let settled = result.and_then(|d| settle(js, d));
    // SAFETY: `deferred` is settled exactly once, here; `work` deleted once.
    unsafe {
        match settled {
            Ok(v) => {
                sys::napi_resolve_deferred(env, w.deferred, v);
            }
            Err(e) => {
                let v = errors::to_js(js, &e).unwrap_or_else(|| {
                    let mut exc = ptr::null_mut();
                    sys::napi_get_and_clear_last_exception(env, &mut exc);
                    exc
                });
                sys::napi_reject_deferred(env, w.deferred, v);
            }
        }
        sys::napi_delete_async_work(env, w.work);
    }
}

/// A promise settled by `job`, run on Node's thread pool.
fn spawn(js: Js, job: Job) -> Result<Value, Error> {
    let mut deferred = ptr::null_mut();
    let mut promise = ptr::null_mut();
    // SAFETY: `env` belongs to the current call.
    if unsafe { sys::napi_create_promise(js.env, &mut deferred, &mut promise) }
        != sys::Status::napi_ok
    {
        return Err(Error::Js("lexikey: napi_create_promise failed".into()));
    }
    let name = js.str(b"lexikey.Allocator")?;
    let w = Box::into_raw(Box::new(Work {
        work: ptr::null_mut(),
        deferred,
        job: Some(job),
        result: None,
    }));
    // SAFETY: `w` is live until `complete` frees it; the callbacks match
    // the signatures Node-API calls them with.
    unsafe {
        let mut work = ptr::null_mut();
        let s = sys::napi_create_async_work(
            js.env,
            ptr::null_mut(),
            name,
            Some(execute),
            Some(complete),
            w.cast(),
            &mut work,
        );
        if s != sys::Status::napi_ok {
            drop(Box::from_raw(w));
            return Err(Error::Js("lexikey: napi_create_async_work failed".into()));
        }
        (*w).work = work;
        if sys::napi_queue_async_work(js.env, work) != sys::Status::napi_ok {
            sys::napi_delete_async_work(js.env, work);
            drop(Box::from_raw(w));
            return Err(Error::Js("lexikey: napi_queue_async_work failed".into()));
        }
    }
    Ok(promise)
}

/// An ID option (`start`, `floor`): a bigint or a whole number, 0 to 2^64-1.
fn id_opt(js: Js, opts: Value, name: &std::ffi::CStr) -> Result<Option<u64>, Error> {
    let v = js.get(opts, name)?;
    let bad = || {
        Error::Value(format!(
            "invalid {}: expected an ID from 0 to 18446744073709551615 (a bigint)",
            name.to_string_lossy()
        ))
    };
    match js.kind(v)? {
        Kind::Undefined => Ok(None),
        Kind::BigInt => {
            let mut mag = Vec::new();
            let neg = js.bigint_words(v, &mut mag)?;
            let first = mag.iter().position(|&b| b != 0).unwrap_or(mag.len());
            let m = &mag[first..];
            if m.len() > 8 || (neg && !m.is_empty()) {
                return Err(bad());
            }
            Ok(Some(m.iter().fold(0u64, |a, &b| a << 8 | u64::from(b))))
        }
        Kind::Number => {
            let x = js.f64(v)?;
            if x.fract() != 0.0 || !(0.0..=9_007_199_254_740_991.0).contains(&x) {
                return Err(bad());
            }
            Ok(Some(x as u64))
        }
        _ => Err(bad()),
    }
}

/// `Allocator.open(storeUrl, table, options)`: the store opened on the
/// thread pool.
pub(crate) fn open(js: Js, url: Value, table: Value, opts: Value) -> Result<Value, Error> {
    let s = |v: Value, what: &str| -> Result<String, Error> {
        if js.kind(v)? != Kind::String {
            return Err(Error::Type(format!(
                "{what} is a string, not {}",
                crate::conv::type_name(js, v)
            )));
        }
        js.string(v)
    };
    let (url, table) = (s(url, "storeUrl")?, s(table, "table")?);
    let mut options = TableOptions::new(Format::Hex);
    if !matches!(js.kind(opts)?, Kind::Undefined | Kind::Null) {
        let o = crate::schema::Opts::read(js, opts)?;
        if let Some(f) = &o.format {
            let format = Format::parse(f).map_err(|e| {
                Error::Value(format!(
                    "{e} (an allocator's keys are in a native format: hex, base64, decimal or binary)"
                ))
            })?;
            options = TableOptions::new(format);
        }
        let buckets = match o.salt {
            None => 0,
            Some(n) => u8::try_from(n).map_err(|_| {
                Error::Value(format!(
                    "invalid saltBuckets {n}: expected 0 to 255 (0: no salt)"
                ))
            })?,
        };
        let mode = match js.get(opts, c"saltMode")? {
            v if js.kind(v)? == Kind::Undefined => SaltMode::Fast,
            v => {
                let name = s(v, "saltMode")?;
                SaltMode::from_name(&name).ok_or_else(|| {
                    Error::Value(format!(
                        "invalid saltMode {name:?}: expected \"fast\" (the default) or \"phoenix\""
                    ))
                })?
            }
        };
        let flag = |name: &std::ffi::CStr| -> Result<bool, Error> {
            let v = js.get(opts, name)?;
            Ok(js.kind(v)? == Kind::Boolean && js.bool(v)?)
        };
        options = options
            .with_guard(flag(c"guard")?)
            .with_salt_buckets(buckets)
            .with_salt_mode(mode)
            .with_existing_only(flag(c"readOnly")?);
        if let Some(start) = id_opt(js, opts, c"start")? {
            options = options.with_start(start);
        }
        if let Some(floor) = id_opt(js, opts, c"floor")? {
            options = options.with_floor(floor);
        }
    }
    spawn(
        js,
        Box::new(move || {
            let inner =
                lexikey_stores::open_allocator(&url, &table, &options).map_err(|e| match e {
                    OpenError::Alloc(e) => alloc_err(&e),
                    // The store does not open: the command line's message.
                    e @ OpenError::Store { .. } => Error::Store(e.to_string()),
                    e => Error::Value(e.to_string()),
                })?;
            Ok(Done::Opened(Alloc {
                inner: RwLock::new(Some(Arc::new(inner))),
                describe: format!(
                    "Allocator({:?}, {table:?})",
                    lexikey_stores::redact_url(&url)
                ),
            }))
        }),
    )
}

/// `allocator.insert(value)`: the new row's ID.
pub(crate) fn insert(js: Js, h: Value, value: Value) -> Result<Value, Error> {
    let inner = handle::get::<Alloc>(js, h)?.open()?;
    let v = match js.kind(value)? {
        Kind::String => js.string(value)?.into_bytes(),
        Kind::Object => js.bytes(value)?.map(<[u8]>::to_vec).ok_or_else(|| {
            Error::Type(format!(
                "a row's value is a Buffer or a string, not {}",
                crate::conv::type_name(js, value)
            ))
        })?,
        _ => {
            return Err(Error::Type(format!(
                "a row's value is a Buffer or a string, not {}",
                crate::conv::type_name(js, value)
            )))
        }
    };
    spawn(
        js,
        Box::new(move || inner.insert(&v).map(Done::Id).map_err(|e| alloc_err(&e))),
    )
}

/// `allocator.newest()` / `oldest()`: `[id, value]` or `null`.
pub(crate) fn end(js: Js, h: Value, newest: bool) -> Result<Value, Error> {
    let inner = handle::get::<Alloc>(js, h)?.open()?;
    spawn(
        js,
        Box::new(move || {
            let r = if newest {
                inner.newest()
            } else {
                inner.oldest()
            };
            r.map(Done::Row).map_err(|e| alloc_err(&e))
        }),
    )
}

/// `allocator.scan(limit)`: rows newest first.
pub(crate) fn scan(js: Js, h: Value, limit: Value) -> Result<Value, Error> {
    let inner = handle::get::<Alloc>(js, h)?.open()?;
    let n = match js.kind(limit)? {
        Kind::Undefined | Kind::Null => usize::MAX,
        Kind::Number => {
            let x = js.f64(limit)?;
            if x.fract() != 0.0 || x < 0.0 {
                return Err(Error::Value(format!(
                    "invalid limit {x}: expected a whole number of rows"
                )));
            }
            x as usize
        }
        _ => {
            return Err(Error::Type(format!(
                "limit is a number, not {}",
                crate::conv::type_name(js, limit)
            )))
        }
    };
    spawn(
        js,
        Box::new(move || inner.scan(n).map(Done::Rows).map_err(|e| alloc_err(&e))),
    )
}

/// `allocator.close()`.
pub(crate) fn close(js: Js, h: Value) -> Result<Value, Error> {
    handle::get::<Alloc>(js, h)?.close();
    js.undefined()
}
