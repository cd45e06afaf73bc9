//! The binding's errors and how they reach JavaScript: `DecodeError` (with
//! `offset`), `EncodeError`, `AllocError` (with `kind` and `ids`) and
//! `StoreError` are the classes of `index.js` (subclasses of `Error`),
//! handed over once by `init` and kept as references in the module's
//! instance data; bad arguments are a `TypeError` (a value of the wrong
//! JavaScript type) or a `RangeError` (an unknown format, schema or
//! option value). Messages are the core's and the command line's.

use std::ffi::c_void;
use std::ptr;

use lexikey::store::alloc::AllocError as RustAllocError;
use napi::sys;

use crate::js::{Js, Value};

/// A failure of a call, thrown as the JavaScript error of its kind.
#[derive(Debug)]
pub(crate) enum Error {
    /// Values that cannot be encoded (`EncodeError`).
    Encode(String),
    /// A key that does not decode, and the offset of the byte at fault
    /// (`DecodeError`).
    Decode(String, usize),
    /// An argument of the wrong JavaScript type (`TypeError`).
    Type(String),
    /// An unknown format, schema, render target or option value
    /// (`RangeError`).
    Value(String),
    /// An allocation failed (`AllocError`): its kind and the IDs allocated
    /// before the failure.
    Alloc { msg: String, kind: &'static str },
    /// A store that cannot be opened or reached (`StoreError`).
    Store(String),
    /// A Node-API call failed: its pending exception, or an `Error` with
    /// this message.
    Js(String),
}

/// The error classes of `index.js`, as references (instance data).
#[derive(Debug)]
pub(crate) struct Classes {
    decode: sys::napi_ref,
    encode: sys::napi_ref,
    alloc: sys::napi_ref,
    store: sys::napi_ref,
    /// Not an error: the `Versionstamp` class, which values are made of
    /// and read as.
    versionstamp: sys::napi_ref,
}

unsafe extern "C" fn drop_classes(_env: sys::napi_env, data: *mut c_void, _hint: *mut c_void) {
    // SAFETY: `data` is the box `register` leaked; Node calls this once.
    drop(unsafe { Box::from_raw(data.cast::<Classes>()) });
}

/// Keeps the classes of `init({DecodeError, EncodeError, AllocError,
/// StoreError, Versionstamp})`.
pub(crate) fn register(js: Js, classes: Value) -> Result<(), Error> {
    let r = |name: &std::ffi::CStr| -> Result<sys::napi_ref, Error> {
        let v = js.get(classes, name)?;
        if js.kind(v)? != crate::js::Kind::Other {
            return Err(Error::Type(format!(
                "init: {} is not a class",
                name.to_string_lossy()
            )));
        }
        let mut out = ptr::null_mut();
        // SAFETY: `v` is a value of this call; the reference keeps it.
        if unsafe { sys::napi_create_reference(js.env, v, 1, &mut out) } != sys::Status::napi_ok {
            return Err(Error::Js("lexikey: napi_create_reference failed".into()));
        }
        Ok(out)
    };
    let c = Box::new(Classes {
        decode: r(c"DecodeError")?,
        encode: r(c"EncodeError")?,
        alloc: r(c"AllocError")?,
        store: r(c"StoreError")?,
        versionstamp: r(c"Versionstamp")?,
    });
    let p = Box::into_raw(c);
    // SAFETY: `p` is a live box, freed by `drop_classes` with the module.
    let status = unsafe {
        sys::napi_set_instance_data(js.env, p.cast(), Some(drop_classes), ptr::null_mut())
    };
    if status != sys::Status::napi_ok {
        // SAFETY: not handed over: still ours.
        drop(unsafe { Box::from_raw(p) });
        return Err(Error::Js("lexikey: napi_set_instance_data failed".into()));
    }
    Ok(())
}

fn classes(js: Js) -> Option<&'static Classes> {
    let mut p = ptr::null_mut();
    // SAFETY: the instance data is `register`'s box (or null).
    let status = unsafe { sys::napi_get_instance_data(js.env, &mut p) };
    if status != sys::Status::napi_ok || p.is_null() {
        return None;
    }
    // SAFETY: alive until the environment goes away.
    Some(unsafe { &*p.cast::<Classes>() })
}

/// The `Versionstamp` class of `index.js` (`None`: `init` was not called).
pub(crate) fn versionstamp_class(js: Js) -> Option<Value> {
    let class = classes(js)?.versionstamp;
    let mut ctor = ptr::null_mut();
    // SAFETY: `class` is a live reference of this environment.
    let status = unsafe { sys::napi_get_reference_value(js.env, class, &mut ctor) };
    (status == sys::Status::napi_ok).then_some(ctor)
}

/// `new Class(message)` of a registered class (`None`: `init` was not
/// called, or the call failed).
fn instance(js: Js, class: sys::napi_ref, msg: Value) -> Option<Value> {
    let mut ctor = ptr::null_mut();
    // SAFETY: `class` is a live reference of this environment.
    if unsafe { sys::napi_get_reference_value(js.env, class, &mut ctor) } != sys::Status::napi_ok {
        return None;
    }
    let mut out = ptr::null_mut();
    let args = [msg];
    // SAFETY: `ctor` is a function; one argument.
    let status = unsafe { sys::napi_new_instance(js.env, ctor, 1, args.as_ptr(), &mut out) };
    (status == sys::Status::napi_ok).then_some(out)
}

fn pending(js: Js) -> bool {
    let mut p = false;
    // SAFETY: `env` belongs to the current call.
    unsafe { sys::napi_is_exception_pending(js.env, &mut p) };
    p
}

/// The JavaScript error object of `e` (`None`: an exception is pending).
pub(crate) fn to_js(js: Js, e: &Error) -> Option<Value> {
    if pending(js) {
        return None;
    }
    let text = match e {
        Error::Encode(m)
        | Error::Decode(m, _)
        | Error::Type(m)
        | Error::Value(m)
        | Error::Store(m)
        | Error::Js(m) => m.as_str(),
        Error::Alloc { msg, .. } => msg.as_str(),
    };
    let msg = js.str(text.as_bytes()).ok()?;
    let plain =
        |f: unsafe extern "C" fn(sys::napi_env, Value, Value, *mut Value) -> sys::napi_status| {
            let mut out = ptr::null_mut();
            // SAFETY: `msg` is a string of this call; no code.
            let status = unsafe { f(js.env, ptr::null_mut(), msg, &mut out) };
            (status == sys::Status::napi_ok).then_some(out)
        };
    let class = classes(js);
    let made = match (e, class) {
        (Error::Type(_), _) => plain(sys::napi_create_type_error),
        (Error::Value(_), _) => plain(sys::napi_create_range_error),
        (Error::Decode(_, offset), Some(c)) => instance(js, c.decode, msg).inspect(|&o| {
            if let Ok(n) = js.number(*offset as f64) {
                let _ = js.set(o, c"offset", n);
            }
        }),
        (Error::Encode(_), Some(c)) => instance(js, c.encode, msg),
        (Error::Alloc { kind, .. }, Some(c)) => instance(js, c.alloc, msg).inspect(|&o| {
            if let Ok(k) = js.str(kind.as_bytes()) {
                let _ = js.set(o, c"kind", k);
            }
        }),
        (Error::Store(_), Some(c)) => instance(js, c.store, msg),
        _ => None,
    };
    made.or_else(|| plain(sys::napi_create_error))
}

/// Throws `e` in JavaScript (nothing when an exception is pending).
pub(crate) fn throw(js: Js, e: &Error) {
    if let Some(v) = to_js(js, e) {
        // SAFETY: `v` is an error object of this call.
        unsafe { sys::napi_throw(js.env, v) };
    }
}

/// The error of an allocator failure, with its kind.
pub(crate) fn alloc_err(e: &RustAllocError) -> Error {
    let kind = e.kind();
    Error::Alloc {
        msg: e.to_string(),
        kind,
    }
}

/// The `DecodeError` of a Rust decode error (`what`: the key, for the
/// message), worded as the command line's `decode`.
pub(crate) fn from_decode(e: &lexikey::DecodeError, what: &str) -> Error {
    Error::Decode(format!("invalid key {what}: {e}"), e.offset())
}
