//! Rust objects held by JavaScript: a `Schema` or an allocator boxed in a
//! Node-API external, marked with a type tag of its kind so that a call
//! given any other value (another addon's external, a plain object) is a
//! `TypeError`, never a wild pointer. The box is freed when JavaScript
//! collects the external.

use std::ffi::c_void;
use std::ptr;

use napi::sys;

use crate::errors::Error;
use crate::js::{Js, Value};

/// A kind of handle: its type tag and its name in messages.
pub(crate) trait Tagged: Send + Sync + 'static {
    /// The type tag of this kind (random, fixed).
    const TAG: sys::napi_type_tag;
    /// The JavaScript class that holds it.
    const NAME: &'static str;
}

unsafe extern "C" fn finalize<T>(_env: sys::napi_env, data: *mut c_void, _hint: *mut c_void) {
    // SAFETY: `data` is the box `wrap` leaked for this external; Node calls
    // this once.
    drop(unsafe { Box::from_raw(data.cast::<T>()) });
}

/// An external holding `value`, tagged.
pub(crate) fn wrap<T: Tagged>(js: Js, value: T) -> Result<Value, Error> {
    let p = Box::into_raw(Box::new(value));
    let mut out = ptr::null_mut();
    // SAFETY: `p` is a live box; `finalize::<T>` frees it with the external.
    let status = unsafe {
        sys::napi_create_external(
            js.env,
            p.cast(),
            Some(finalize::<T>),
            ptr::null_mut(),
            &mut out,
        )
    };
    if status != sys::Status::napi_ok {
        // SAFETY: not handed over: still ours.
        drop(unsafe { Box::from_raw(p) });
        return Err(Error::Js("lexikey: napi_create_external failed".into()));
    }
    // SAFETY: `out` is a new external of this call.
    if unsafe { sys::napi_type_tag_object(js.env, out, &T::TAG) } != sys::Status::napi_ok {
        return Err(Error::Js("lexikey: napi_type_tag_object failed".into()));
    }
    Ok(out)
}

/// The object of a handle of kind `T` (a `TypeError` for any other value).
/// It lives as long as the external, at least the current call.
pub(crate) fn get<'a, T: Tagged>(js: Js, v: Value) -> Result<&'a T, Error> {
    let bad = || Error::Type(format!("not a {} handle", T::NAME));
    if js.kind(v)? != crate::js::Kind::Other {
        return Err(bad());
    }
    let mut ok = false;
    // SAFETY: `v` is a value of this call.
    let status = unsafe { sys::napi_check_object_type_tag(js.env, v, &T::TAG, &mut ok) };
    if status != sys::Status::napi_ok || !ok {
        return Err(bad());
    }
    let mut data = ptr::null_mut();
    // SAFETY: `v` is an external tagged `T::TAG`, so `wrap::<T>` made it.
    let status = unsafe { sys::napi_get_value_external(js.env, v, &mut data) };
    if status != sys::Status::napi_ok || data.is_null() {
        return Err(bad());
    }
    // SAFETY: the box of `wrap::<T>`, alive while the external is.
    Ok(unsafe { &*data.cast::<T>() })
}
