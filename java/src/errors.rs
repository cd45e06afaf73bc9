//! Errors, and the boundary every JNI entry point goes through: the body
//! runs under `catch_unwind`, so a Rust panic never unwinds into the JVM
//! (it is thrown as `IllegalStateException` with the panic's message), and
//! every [`Error`] becomes the Java exception the API documents:
//!
//! | error | Java exception |
//! |---|---|
//! | [`Error::Encode`] | `lexikey.EncodeException` (an `IllegalArgumentException`) |
//! | [`Error::Decode`] | `lexikey.DecodeException` (an `IllegalArgumentException`, with `offset()`) |
//! | [`Error::Arg`] | `IllegalArgumentException`: an unknown format, schema, option or target |
//! | [`Error::Alloc`] | `lexikey.AllocException` (a `RuntimeException`, with `kind()` and `ids()`) |
//! | [`Error::Store`] | `lexikey.StoreException` (an `UncheckedIOException`) |
//! | [`Error::State`] | `IllegalStateException`: a closed allocator, a panic |

use std::panic::{catch_unwind, AssertUnwindSafe};

use jni::objects::{JObject, JThrowable, JValue};
use jni::JNIEnv;
use lexikey::store::alloc::AllocError;

/// Why a call failed.
#[derive(Debug)]
pub(crate) enum Error {
    /// Values that cannot be encoded.
    Encode(String),
    /// A key that does not decode, and the offset of the byte at fault.
    Decode(String, usize),
    /// A bad argument: an unknown format, schema, option or target.
    Arg(String),
    /// An allocator call failed: message, kind, IDs allocated before.
    Alloc(String, &'static str, Vec<u64>),
    /// A store that cannot be opened or reached.
    Store(String),
    /// A state the call cannot run in; an internal error.
    State(String),
    /// A JNI call failed (a Java exception may be pending).
    Jni(jni::errors::Error),
}

impl From<jni::errors::Error> for Error {
    fn from(e: jni::errors::Error) -> Self {
        Error::Jni(e)
    }
}

/// An [`Error::Encode`].
pub(crate) fn encode_err(msg: impl Into<String>) -> Error {
    Error::Encode(msg.into())
}

/// An [`Error::Arg`].
pub(crate) fn arg_err(msg: impl Into<String>) -> Error {
    Error::Arg(msg.into())
}

/// The [`Error::Alloc`] of an allocator error, with the IDs allocated
/// before it (the kinds are the Python binding's).
pub(crate) fn alloc_err(e: &AllocError, ids: &[u64]) -> Error {
    let kind = e.kind();
    Error::Alloc(e.to_string(), kind, ids.to_vec())
}

fn throw(env: &mut JNIEnv<'_>, e: Error) {
    // A pending exception (from a failed JNI call) is the one to see.
    if env.exception_check().unwrap_or(true) {
        return;
    }
    let res = match e {
        Error::Encode(m) => env.throw_new("lexikey/EncodeException", m),
        Error::Arg(m) => env.throw_new("java/lang/IllegalArgumentException", m),
        Error::Store(m) => env.throw_new("lexikey/StoreException", m),
        Error::State(m) => env.throw_new("java/lang/IllegalStateException", m),
        Error::Jni(e) => env.throw_new(
            "java/lang/IllegalStateException",
            format!("lexikey: JNI call failed: {e}"),
        ),
        Error::Decode(m, offset) => (|| {
            let msg = env.new_string(m)?;
            let offset = i32::try_from(offset).unwrap_or(i32::MAX);
            let ex = env.new_object(
                "lexikey/DecodeException",
                "(Ljava/lang/String;I)V",
                &[JValue::Object(&msg), JValue::Int(offset)],
            )?;
            env.throw(JThrowable::from(ex))
        })(),
        Error::Alloc(m, kind, ids) => (|| {
            let msg = env.new_string(m)?;
            let kind = env.new_string(kind)?;
            let arr = env.new_long_array(i32::try_from(ids.len()).unwrap_or(i32::MAX))?;
            let ids: Vec<i64> = ids.iter().map(|&id| id as i64).collect();
            env.set_long_array_region(&arr, 0, &ids)?;
            let ex = env.new_object(
                "lexikey/AllocException",
                "(Ljava/lang/String;Ljava/lang/String;[J)V",
                &[
                    JValue::Object(&msg),
                    JValue::Object(&kind),
                    JValue::Object(&JObject::from(arr)),
                ],
            )?;
            env.throw(JThrowable::from(ex))
        })(),
    };
    if res.is_err() && !env.exception_check().unwrap_or(true) {
        let _ = env.throw_new(
            "java/lang/IllegalStateException",
            "lexikey: could not throw the exception of a failed call",
        );
    }
}

/// Runs the body of a JNI entry point: its result, or `fallback` with the
/// Java exception of its error (or of its panic) thrown.
pub(crate) fn boundary<'local, T>(
    env: &mut JNIEnv<'local>,
    fallback: T,
    f: impl FnOnce(&mut JNIEnv<'local>) -> Result<T, Error>,
) -> T {
    match catch_unwind(AssertUnwindSafe(|| f(env))) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            throw(env, e);
            fallback
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_string());
            throw(
                env,
                Error::State(format!("lexikey: internal error (a Rust panic): {what}")),
            );
            fallback
        }
    }
}
