//! The Node-API calls of the binding, each wrapped once: reading JavaScript
//! values (typeof, strings into a reused buffer, numbers, bigints,
//! `Buffer`/`Uint8Array` bytes, `Date`s, arrays, option objects) and making
//! them. Every call checks its status; a failed call is [`Error::Js`] (the
//! exception Node-API left pending, or a plain `Error` naming the call).

use std::ffi::{c_void, CStr};
use std::ptr;

use napi::sys;

use crate::errors::Error;

/// A JavaScript value of the current call (valid until it returns).
pub(crate) type Value = sys::napi_value;

/// The `typeof` of a value, as Node-API names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Undefined,
    Null,
    Boolean,
    Number,
    String,
    Object,
    BigInt,
    /// A symbol, a function or an external.
    Other,
}

/// The environment of one call from JavaScript.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Js {
    pub(crate) env: sys::napi_env,
}

/// The status of a Node-API call as a result.
fn check(status: sys::napi_status, what: &str) -> Result<(), Error> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::Js(format!(
            "lexikey: Node-API call {what} failed (status {status})"
        )))
    }
}

impl Js {
    /// `typeof v`.
    pub(crate) fn kind(self, v: Value) -> Result<Kind, Error> {
        let mut t = 0;
        // SAFETY: `env` and `v` belong to the current call.
        check(
            unsafe { sys::napi_typeof(self.env, v, &mut t) },
            "napi_typeof",
        )?;
        use sys::ValueType as T;
        Ok(match t {
            T::napi_undefined => Kind::Undefined,
            T::napi_null => Kind::Null,
            T::napi_boolean => Kind::Boolean,
            T::napi_number => Kind::Number,
            T::napi_string => Kind::String,
            T::napi_object => Kind::Object,
            T::napi_bigint => Kind::BigInt,
            _ => Kind::Other,
        })
    }

    /// The UTF-8 of a string value into `buf` (cleared first). Lone
    /// surrogates become U+FFFD, as Node writes every string as UTF-8.
    pub(crate) fn str_into(self, v: Value, buf: &mut Vec<u8>) -> Result<(), Error> {
        let mut len = 0usize;
        // SAFETY: a null buffer asks for the length only.
        check(
            unsafe { sys::napi_get_value_string_utf8(self.env, v, ptr::null_mut(), 0, &mut len) },
            "napi_get_value_string_utf8",
        )?;
        buf.clear();
        buf.reserve(len + 1);
        let mut got = 0usize;
        // SAFETY: `buf` has room for `len` bytes and the terminating NUL.
        check(
            unsafe {
                sys::napi_get_value_string_utf8(
                    self.env,
                    v,
                    buf.as_mut_ptr().cast(),
                    len + 1,
                    &mut got,
                )
            },
            "napi_get_value_string_utf8",
        )?;
        // SAFETY: Node wrote `got` (<= len) bytes.
        unsafe { buf.set_len(got.min(len)) };
        Ok(())
    }

    /// A string value as a Rust `String`.
    pub(crate) fn string(self, v: Value) -> Result<String, Error> {
        let mut buf = Vec::new();
        self.str_into(v, &mut buf)?;
        // Node writes valid UTF-8 (lone surrogates replaced).
        String::from_utf8(buf).map_err(|e| Error::Js(format!("lexikey: {e}")))
    }

    pub(crate) fn f64(self, v: Value) -> Result<f64, Error> {
        let mut x = 0.0;
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_get_value_double(self.env, v, &mut x) },
            "napi_get_value_double",
        )?;
        Ok(x)
    }

    pub(crate) fn bool(self, v: Value) -> Result<bool, Error> {
        let mut b = false;
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_get_value_bool(self.env, v, &mut b) },
            "napi_get_value_bool",
        )?;
        Ok(b)
    }

    /// A bigint as an `i64` when it fits (`None` beyond).
    pub(crate) fn bigint_i64(self, v: Value) -> Result<Option<i64>, Error> {
        let (mut x, mut lossless) = (0i64, false);
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_get_value_bigint_int64(self.env, v, &mut x, &mut lossless) },
            "napi_get_value_bigint_int64",
        )?;
        Ok(lossless.then_some(x))
    }

    /// A bigint's sign and big-endian magnitude into `mag`.
    pub(crate) fn bigint_words(self, v: Value, mag: &mut Vec<u8>) -> Result<bool, Error> {
        let (mut sign, mut count) = (0i32, 0usize);
        // SAFETY: null `sign_bit` and `words` ask for the count only.
        check(
            unsafe {
                sys::napi_get_value_bigint_words(
                    self.env,
                    v,
                    ptr::null_mut(),
                    &mut count,
                    ptr::null_mut(),
                )
            },
            "napi_get_value_bigint_words",
        )?;
        let mut words = vec![0u64; count];
        // SAFETY: `words` holds `count` words.
        check(
            unsafe {
                sys::napi_get_value_bigint_words(
                    self.env,
                    v,
                    &mut sign,
                    &mut count,
                    words.as_mut_ptr(),
                )
            },
            "napi_get_value_bigint_words",
        )?;
        mag.clear();
        for w in words.iter().take(count).rev() {
            mag.extend_from_slice(&w.to_be_bytes());
        }
        Ok(sign != 0)
    }

    /// The bytes of a `Buffer` or `Uint8Array` (`None` for other values).
    /// They belong to the value: valid during the current call.
    pub(crate) fn bytes<'a>(self, v: Value) -> Result<Option<&'a [u8]>, Error> {
        let mut is = false;
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_is_typedarray(self.env, v, &mut is) },
            "napi_is_typedarray",
        )?;
        if !is {
            return Ok(None);
        }
        let (mut ty, mut len, mut data) = (0, 0usize, ptr::null_mut::<c_void>());
        let (mut ab, mut off) = (ptr::null_mut(), 0usize);
        // SAFETY: `v` is a typed array.
        check(
            unsafe {
                sys::napi_get_typedarray_info(
                    self.env, v, &mut ty, &mut len, &mut data, &mut ab, &mut off,
                )
            },
            "napi_get_typedarray_info",
        )?;
        if ty != sys::TypedarrayType::uint8_array {
            return Ok(None);
        }
        if len == 0 || data.is_null() {
            return Ok(Some(&[]));
        }
        // SAFETY: `data` points at the array's `len` bytes (its offset
        // applied), alive as long as the value, i.e. the current call.
        Ok(Some(unsafe {
            std::slice::from_raw_parts(data.cast::<u8>(), len)
        }))
    }

    /// A `Date`'s milliseconds since 1970 (`None` for other values).
    pub(crate) fn date_ms(self, v: Value) -> Result<Option<f64>, Error> {
        let mut is = false;
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_is_date(self.env, v, &mut is) },
            "napi_is_date",
        )?;
        if !is {
            return Ok(None);
        }
        let mut ms = 0.0;
        // SAFETY: `v` is a Date.
        check(
            unsafe { sys::napi_get_date_value(self.env, v, &mut ms) },
            "napi_get_date_value",
        )?;
        Ok(Some(ms))
    }

    /// An array's length (`None`: not an array).
    pub(crate) fn array_len(self, v: Value) -> Result<Option<u32>, Error> {
        let mut is = false;
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_is_array(self.env, v, &mut is) },
            "napi_is_array",
        )?;
        if !is {
            return Ok(None);
        }
        let mut n = 0u32;
        // SAFETY: `v` is an array.
        check(
            unsafe { sys::napi_get_array_length(self.env, v, &mut n) },
            "napi_get_array_length",
        )?;
        Ok(Some(n))
    }

    pub(crate) fn element(self, v: Value, i: u32) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_get_element(self.env, v, i, &mut out) },
            "napi_get_element",
        )?;
        Ok(out)
    }

    pub(crate) fn set_element(self, arr: Value, i: u32, v: Value) -> Result<(), Error> {
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_set_element(self.env, arr, i, v) },
            "napi_set_element",
        )
    }

    /// `v instanceof ctor`.
    pub(crate) fn instance_of(self, v: Value, ctor: Value) -> Result<bool, Error> {
        let mut is = false;
        // SAFETY: as in `kind`; `ctor` is a function of this call.
        check(
            unsafe { sys::napi_instanceof(self.env, v, ctor, &mut is) },
            "napi_instanceof",
        )?;
        Ok(is)
    }

    /// `new ctor(...args)`.
    pub(crate) fn construct(self, ctor: Value, args: &[Value]) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        // SAFETY: as in `kind`; `args` holds `args.len()` values of this call.
        check(
            unsafe { sys::napi_new_instance(self.env, ctor, args.len(), args.as_ptr(), &mut out) },
            "napi_new_instance",
        )?;
        Ok(out)
    }

    /// `obj[name]` (`undefined` when absent).
    pub(crate) fn get(self, obj: Value, name: &CStr) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        // SAFETY: as in `kind`; `name` is NUL-terminated.
        check(
            unsafe { sys::napi_get_named_property(self.env, obj, name.as_ptr(), &mut out) },
            "napi_get_named_property",
        )?;
        Ok(out)
    }

    pub(crate) fn set(self, obj: Value, name: &CStr, v: Value) -> Result<(), Error> {
        // SAFETY: as in `get`.
        check(
            unsafe { sys::napi_set_named_property(self.env, obj, name.as_ptr(), v) },
            "napi_set_named_property",
        )
    }

    pub(crate) fn object(self) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_create_object(self.env, &mut out) },
            "napi_create_object",
        )?;
        Ok(out)
    }

    pub(crate) fn array(self, len: usize) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_create_array_with_length(self.env, len, &mut out) },
            "napi_create_array_with_length",
        )?;
        Ok(out)
    }

    /// A string of UTF-8 text (ASCII text, such as every hex and base64
    /// key, made as Latin-1: no UTF-8 decoding).
    pub(crate) fn str(self, s: &[u8]) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        let len = s.len() as isize;
        // SAFETY: `s` is valid for its length during the call, which copies it.
        if s.is_ascii() {
            check(
                unsafe {
                    sys::napi_create_string_latin1(self.env, s.as_ptr().cast(), len, &mut out)
                },
                "napi_create_string_latin1",
            )?;
        } else {
            check(
                unsafe { sys::napi_create_string_utf8(self.env, s.as_ptr().cast(), len, &mut out) },
                "napi_create_string_utf8",
            )?;
        }
        Ok(out)
    }

    /// A `Uint32Array` holding a copy of `v`.
    pub(crate) fn u32_array(self, v: &[u32]) -> Result<Value, Error> {
        let (mut ab, mut data) = (ptr::null_mut(), ptr::null_mut::<c_void>());
        let len = std::mem::size_of_val(v);
        // SAFETY: a new ArrayBuffer of `len` bytes at `data`.
        check(
            unsafe { sys::napi_create_arraybuffer(self.env, len, &mut data, &mut ab) },
            "napi_create_arraybuffer",
        )?;
        if len > 0 {
            // SAFETY: `data` has room for `len` bytes (ArrayBuffers are
            // aligned for any element type).
            unsafe { ptr::copy_nonoverlapping(v.as_ptr(), data.cast::<u32>(), v.len()) };
        }
        let mut out = ptr::null_mut();
        // SAFETY: `ab` holds `v.len()` u32s from offset 0.
        check(
            unsafe {
                sys::napi_create_typedarray(
                    self.env,
                    sys::TypedarrayType::uint32_array,
                    v.len(),
                    ab,
                    0,
                    &mut out,
                )
            },
            "napi_create_typedarray",
        )?;
        Ok(out)
    }

    /// A `Buffer` holding a copy of `b`.
    pub(crate) fn buffer(self, b: &[u8]) -> Result<Value, Error> {
        let (mut out, mut data) = (ptr::null_mut(), ptr::null_mut());
        // SAFETY: as in `str`.
        check(
            unsafe {
                sys::napi_create_buffer_copy(
                    self.env,
                    b.len(),
                    b.as_ptr().cast(),
                    &mut data,
                    &mut out,
                )
            },
            "napi_create_buffer_copy",
        )?;
        Ok(out)
    }

    pub(crate) fn number(self, x: f64) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_create_double(self.env, x, &mut out) },
            "napi_create_double",
        )?;
        Ok(out)
    }

    pub(crate) fn boolean(self, b: bool) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_get_boolean(self.env, b, &mut out) },
            "napi_get_boolean",
        )?;
        Ok(out)
    }

    pub(crate) fn null(self) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_get_null(self.env, &mut out) },
            "napi_get_null",
        )?;
        Ok(out)
    }

    pub(crate) fn undefined(self) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_get_undefined(self.env, &mut out) },
            "napi_get_undefined",
        )?;
        Ok(out)
    }

    pub(crate) fn bigint_from_i64(self, x: i64) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_create_bigint_int64(self.env, x, &mut out) },
            "napi_create_bigint_int64",
        )?;
        Ok(out)
    }

    pub(crate) fn bigint_from_u64(self, x: u64) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_create_bigint_uint64(self.env, x, &mut out) },
            "napi_create_bigint_uint64",
        )?;
        Ok(out)
    }

    /// A bigint of a sign and a big-endian magnitude.
    pub(crate) fn bigint_from_mag(self, negative: bool, mag: &[u8]) -> Result<Value, Error> {
        let mut words: Vec<u64> = Vec::with_capacity(mag.len() / 8 + 1);
        for chunk in mag.rchunks(8) {
            let mut w = [0u8; 8];
            w[8 - chunk.len()..].copy_from_slice(chunk);
            words.push(u64::from_be_bytes(w));
        }
        if words.is_empty() {
            words.push(0);
        }
        let mut out = ptr::null_mut();
        // SAFETY: `words` holds `words.len()` words.
        check(
            unsafe {
                sys::napi_create_bigint_words(
                    self.env,
                    i32::from(negative),
                    words.len(),
                    words.as_ptr(),
                    &mut out,
                )
            },
            "napi_create_bigint_words",
        )?;
        Ok(out)
    }

    pub(crate) fn date(self, ms: f64) -> Result<Value, Error> {
        let mut out = ptr::null_mut();
        // SAFETY: as in `kind`.
        check(
            unsafe { sys::napi_create_date(self.env, ms, &mut out) },
            "napi_create_date",
        )?;
        Ok(out)
    }
}
