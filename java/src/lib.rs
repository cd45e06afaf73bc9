//! `lexikey` for the JVM: the JNI functions behind the Java package
//! `lexikey` (`java/src/main/java/lexikey`), so that the key a Java or
//! Spark job writes is byte for byte the key the Rust service, the
//! `lexikey` command and Python write.
//!
//! What it promises:
//! - **Same keys.** Component strings (`"i64.desc:5"`) are parsed by the
//!   core's [`lexikey::frontend::spec::KeySpec`], the path `lexikey encode` takes;
//!   Java values become core values directly, by the rules in [`conv`];
//!   `Schema` rows encode and decode through the core's tuple and profile
//!   codecs.
//! - **One crossing per call.** Values travel as one `byte[]` per call
//!   ([`wire`]), and bulk calls (`encodeTextMany`, `decodeMany`) cross once
//!   per chunk of rows, not once per value.
//! - **Strict decoding.** Every decoder is the core's canonical one; a bad
//!   key throws `DecodeException` with the byte offset the Rust error
//!   carries.
//! - **No panic reaches the JVM** ([`errors::boundary`]): every failure is
//!   a Java exception.
//!
//! The functions are the `native` methods of `lexikey.Native`; handles
//! (`long`) are boxed Rust values the Java objects own (`Schema`: freed by
//! a `Cleaner`; `Allocator`: by `close()`).

use std::ptr::null_mut;

use jni::objects::{JByteArray, JClass, JIntArray, JString};
use jni::sys::{jboolean, jbyteArray, jint, jlong, jlongArray, jstring};
use jni::JNIEnv;
use lexikey::frontend::key_format::KeyFormat;
use lexikey::range::render::{render as render_range, Dialect, RenderOptions};
use lexikey::KeyRange;

mod alloc;
mod conv;
mod errors;
mod schema;
mod wire;

use errors::{arg_err, boundary, encode_err, Error};
use schema::{key_bytes, key_spec, pred_op, Opts, Schema};
use wire::{Reader, Writer};

// ---------------------------------------------------------------------------
// Arguments and buffers
// ---------------------------------------------------------------------------

/// Buffers reused by the calls of one thread: a bulk call of 4,096 rows
/// would otherwise allocate (and the allocator map and unmap) a few hundred
/// KB per crossing, and a single-row call a handful of small vectors.
#[derive(Debug, Default)]
struct Scratch {
    /// The call's value buffer, copied from Java.
    cells: Vec<u8>,
    /// The keys.
    out: Vec<u8>,
    /// Where each key ends.
    ends: Vec<i32>,
}

/// Buffers grown past this are dropped after the call.
const SCRATCH_KEEP: usize = 4 << 20;

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's buffers (fresh ones if they are in use).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut s) => {
            let r = f(&mut s);
            if s.cells.capacity() > SCRATCH_KEEP || s.out.capacity() > SCRATCH_KEEP {
                *s = Scratch::default();
            }
            r
        }
        Err(_) => f(&mut Scratch::default()),
    })
}

/// The layout of a format with every option at its default, built once.
fn default_spec(fmt: KeyFormat) -> Result<&'static lexikey::frontend::spec::KeySpec, Error> {
    static SPECS: std::sync::OnceLock<Vec<(KeyFormat, lexikey::frontend::spec::KeySpec)>> =
        std::sync::OnceLock::new();
    let specs = SPECS.get_or_init(|| {
        KeyFormat::NAMES
            .iter()
            .filter_map(|n| KeyFormat::parse(n).ok())
            .filter_map(|f| key_spec(f, &Opts::default()).ok().map(|s| (f, s)))
            .collect()
    });
    specs
        .iter()
        .find(|(f, _)| *f == fmt)
        .map(|(_, s)| s)
        .ok_or_else(|| Error::State(format!("lexikey: no layout for {fmt}")))
}

fn string(env: &mut JNIEnv<'_>, s: &JString<'_>, what: &str) -> Result<String, Error> {
    if s.is_null() {
        return Err(arg_err(format!("{what} is null")));
    }
    Ok(env.get_string(s)?.into())
}

fn opt_string(env: &mut JNIEnv<'_>, s: &JString<'_>) -> Result<Option<String>, Error> {
    if s.is_null() {
        return Ok(None);
    }
    Ok(Some(env.get_string(s)?.into()))
}

/// The first `len` bytes of a Java `byte[]`, copied.
fn bytes(env: &mut JNIEnv<'_>, arr: &JByteArray<'_>, len: jint) -> Result<Vec<u8>, Error> {
    let mut v = Vec::new();
    bytes_into(env, arr, len, &mut v)?;
    Ok(v)
}

/// The first `len` bytes of a Java `byte[]`, copied into `v` (replacing
/// its contents).
fn bytes_into(
    env: &mut JNIEnv<'_>,
    arr: &JByteArray<'_>,
    len: jint,
    v: &mut Vec<u8>,
) -> Result<(), Error> {
    let n = usize::try_from(len).map_err(|_| Error::State("negative length".into()))?;
    if arr.is_null() {
        return Err(Error::State("lexikey: a null buffer".into()));
    }
    v.clear();
    v.reserve(n);
    let raw = env.get_raw();
    // SAFETY: `raw` is this thread's live JNIEnv and `arr` a live byte[]
    // local reference; `GetByteArrayRegion` writes `len` bytes to the
    // spare capacity just reserved (a raw pointer: no reference to
    // uninitialized memory is made), or throws (index out of bounds) and
    // writes nothing, which the check below reports before `set_len`.
    #[allow(unsafe_code)]
    unsafe {
        let get = (**raw)
            .GetByteArrayRegion
            .ok_or_else(|| Error::State("lexikey: no GetByteArrayRegion".into()))?;
        get(
            raw,
            arr.as_raw(),
            0,
            len,
            v.as_mut_ptr().cast::<jni::sys::jbyte>(),
        );
        if env.exception_check()? {
            return Err(Error::Jni(jni::errors::Error::JavaException));
        }
        v.set_len(n);
    }
    Ok(())
}

fn ints(env: &mut JNIEnv<'_>, arr: &JIntArray<'_>, len: usize) -> Result<Vec<i32>, Error> {
    let mut v = vec![0i32; len];
    env.get_int_array_region(arr, 0, &mut v)?;
    Ok(v)
}

fn new_bytes(env: &mut JNIEnv<'_>, b: &[u8]) -> Result<jbyteArray, Error> {
    Ok(env.byte_array_from_slice(b)?.into_raw())
}

/// The result of a single-row encode: the key is written over the start of
/// the caller's buffer `buf` (whose cells were copied already) and its
/// length returned; a key longer than the buffer is not written, and
/// minus its length is returned (the caller grows the buffer and calls
/// again). No Java array is allocated by the call.
fn key_into(env: &mut JNIEnv<'_>, buf: &JByteArray<'_>, key: &[u8]) -> Result<jint, Error> {
    let n = jint::try_from(key.len()).map_err(|_| encode_err("key too long"))?;
    if key.len() > usize::try_from(env.get_array_length(buf)?).unwrap_or(0) {
        return Ok(-n);
    }
    // SAFETY: `u8` and `i8` have the same size and alignment.
    #[allow(unsafe_code)]
    let signed = unsafe { std::slice::from_raw_parts(key.as_ptr().cast::<i8>(), key.len()) };
    env.set_byte_array_region(buf, 0, signed)?;
    Ok(n)
}

fn format_of(env: &mut JNIEnv<'_>, name: &JString<'_>) -> Result<KeyFormat, Error> {
    let name = string(env, name, "format")?;
    KeyFormat::parse(&name).map_err(arg_err)
}

/// Refuses a format of the other kind: `encodeText` takes the text
/// formats, `encodeBytes` the others.
fn check_kind(fmt: KeyFormat, text: bool) -> Result<(), Error> {
    match (text, fmt.is_text()) {
        (true, false) => Err(arg_err(format!(
            "{fmt} keys are bytes: use encodeBytes (encodeText takes the text formats hex, \
             base64 and decimal)"
        ))),
        (false, true) => Err(arg_err(format!(
            "{fmt} keys are text: use encodeText (encodeBytes takes binary, fdb-tuple, \
             hbase-ordered and phoenix)"
        ))),
        _ => Ok(()),
    }
}

fn optional(v: jint) -> Option<u32> {
    u32::try_from(v).ok()
}

/// The boxed value behind a handle.
///
/// # Safety
/// `h` is a handle this library returned for a `T` and has not freed; the
/// Java side guarantees it (see `Schema`, `Allocator`).
#[allow(unsafe_code)]
unsafe fn handle<'a, T>(h: jlong) -> Result<&'a T, Error> {
    if h == 0 {
        return Err(Error::State("lexikey: a closed or released object".into()));
    }
    // SAFETY: per the contract.
    Ok(unsafe { &*(h as *const T) })
}

fn into_handle<T>(v: T) -> jlong {
    Box::into_raw(Box::new(v)) as jlong
}

/// Frees a handle.
///
/// # Safety
/// As [`handle`], and no call uses `h` afterwards.
#[allow(unsafe_code)]
unsafe fn free<T>(h: jlong) {
    if h != 0 {
        // SAFETY: per the contract.
        drop(unsafe { Box::from_raw(h as *mut T) });
    }
}

// ---------------------------------------------------------------------------
// Lexikey
// ---------------------------------------------------------------------------

/// Bit of a format code: the format's keys are text.
const TEXT_BIT: jint = 0x100;

/// `Native.formatCode(format)`: the format's index in
/// [`KeyFormat::NAMES`], with [`TEXT_BIT`] for a text format (Java caches
/// it, so that calls pass a number, not a string to decode).
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_formatCode<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    format: JString<'l>,
) -> jint {
    boundary(&mut env, -1, |env| {
        let fmt = format_of(env, &format)?;
        let i = KeyFormat::NAMES
            .iter()
            .position(|n| KeyFormat::parse(n).ok() == Some(fmt))
            .ok_or_else(|| Error::State(format!("lexikey: no code for {fmt}")))?;
        let i = jint::try_from(i).map_err(|_| Error::State("lexikey: format code".into()))?;
        Ok(if fmt.is_text() { i | TEXT_BIT } else { i })
    })
}

/// The format of a code from `formatCode`.
fn format_at(code: jint) -> Result<KeyFormat, Error> {
    usize::try_from(code & 0xFF)
        .ok()
        .and_then(|i| KeyFormat::NAMES.get(i))
        .and_then(|n| KeyFormat::parse(n).ok())
        .ok_or_else(|| Error::State(format!("lexikey: unknown format code {code}")))
}

/// `Native.encode(formatCode, text, buf, len, strings)`: the key of one row
/// of components (`Lexikey.encodeText` / `encodeBytes`), the cells the
/// first `len` bytes of `buf`, the key written over them ([`key_into`]);
/// `strings`: every cell is a component string, parsed as the command line
/// parses its arguments (`lexikey.Main`).
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_encode<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    format: jint,
    text: jboolean,
    cells: JByteArray<'l>,
    len: jint,
    strings: jboolean,
) -> jint {
    boundary(&mut env, 0, |env| {
        let fmt = format_at(format)?;
        check_kind(fmt, text != 0)?;
        with_scratch(|sc| {
            bytes_into(env, &cells, len, &mut sc.cells)?;
            let spec = default_spec(fmt)?;
            sc.out.clear();
            if strings != 0 {
                schema::encode_texts(spec, &sc.cells, &mut sc.out)?;
            } else {
                schema::encode_plain(spec, &sc.cells, &mut sc.out)?;
            }
            key_into(env, &cells, &sc.out)
        })
    })
}

/// `Native.packWithVersionstamp(cells, len)`: the versionstamped
/// `fdb-tuple` key of a row of components (`Lexikey.packWithVersionstamp`).
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_packWithVersionstamp<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    cells: JByteArray<'l>,
    len: jint,
) -> jbyteArray {
    boundary(&mut env, null_mut(), |env| {
        let fmt = KeyFormat::Profile(lexikey::frontend::profile::Profile::Fdb);
        let raw = bytes(env, &cells, len)?;
        let key = schema::pack_with_versionstamp(default_spec(fmt)?, &raw)?;
        new_bytes(env, &key)
    })
}

/// `Native.decode(format, schema, key, len, keyIsText)`: the values of a
/// key, as a row.
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_decode<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    format: JString<'l>,
    schema: JString<'l>,
    key: JByteArray<'l>,
    len: jint,
    key_is_text: jboolean,
) -> jbyteArray {
    boundary(&mut env, null_mut(), |env| {
        let fmt = format_of(env, &format)?;
        let schema = opt_string(env, &schema)?;
        let dec = Schema::decoder(default_spec(fmt)?, schema.as_deref()).map_err(|e| {
            match schema.as_deref().filter(|s| KeyFormat::parse(s).is_ok()) {
                // decode(key, "hex"): the format where the schema goes.
                Some(s) => arg_err(format!(
                    "invalid schema {s:?}: {s:?} is a key format, not a schema; the arguments \
                     are decode(format, key, schema)"
                )),
                None => e,
            }
        })?;
        let raw = bytes(env, &key, len)?;
        let key = key_bytes(fmt, key_is_text != 0, &raw)?;
        let mut w = Writer::default();
        dec.decode(&key, &String::new, &mut w)?;
        new_bytes(env, &w.buf)
    })
}

/// `Native.reverse(n)`: `Long.MAX_VALUE - n`.
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_reverse<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    n: jlong,
) -> jlong {
    boundary(&mut env, 0, |_| {
        lexikey::reverse(n).map_err(|e| encode_err(e.to_string()))
    })
}

/// `Native.show(key)`: the key as the HBase shell prints it
/// ([`lexikey::to_string_binary`]).
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_show<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    key: JByteArray<'l>,
) -> jstring {
    boundary(&mut env, null_mut(), |env| {
        if key.is_null() {
            return Err(arg_err("key: a byte[], not null"));
        }
        let n = env.get_array_length(&key)?;
        let key = bytes(env, &key, n)?;
        Ok(env.new_string(lexikey::to_string_binary(&key))?.into_raw())
    })
}

/// `Native.version()`: the version of the native library (this crate's,
/// the lexikey version it was built from).
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_version<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
) -> jstring {
    boundary(&mut env, null_mut(), |env| {
        Ok(env.new_string(env!("CARGO_PKG_VERSION"))?.into_raw())
    })
}

/// `Native.render(start, end, text, target, table)`: a range in a store's
/// syntax (`null` bounds are unbounded).
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_render<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    start: JByteArray<'l>,
    end: JByteArray<'l>,
    text: jboolean,
    target: JString<'l>,
    table: JString<'l>,
) -> jstring {
    boundary(&mut env, null_mut(), |env| {
        let mut bound = |b: &JByteArray<'_>| -> Result<Option<Vec<u8>>, Error> {
            if b.is_null() {
                return Ok(None);
            }
            let n = env.get_array_length(b)?;
            bytes(env, b, n).map(Some)
        };
        let r = KeyRange {
            start: bound(&start)?,
            end: bound(&end)?,
        };
        let target = string(env, &target, "target")?;
        let dialect = Dialect::parse(&target).map_err(|e| arg_err(e.to_string()))?;
        let mut opts = RenderOptions::new().text(text != 0);
        if let Some(t) = opt_string(env, &table)? {
            opts = opts.table(t);
        }
        let out = render_range(dialect, &r, &opts).map_err(|e| arg_err(e.to_string()))?;
        Ok(env.new_string(out)?.into_raw())
    })
}

// ---------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------

/// `Native.schemaNew(spec, format, width, saltBuckets, hbaseNumeric,
/// round)`: a handle (`width`, `saltBuckets`: -1 for none).
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_schemaNew<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    spec: JString<'l>,
    format: JString<'l>,
    width: jint,
    salt: jint,
    hbase_numeric: JString<'l>,
    round: jboolean,
) -> jlong {
    boundary(&mut env, 0, |env| {
        let text = string(env, &spec, "spec")?;
        let fmt = format_of(env, &format)?;
        let width = match optional(width) {
            None => None,
            Some(w) => Some(u8::try_from(w).map_err(|_| {
                arg_err(format!(
                    "invalid width {w}: expected a number of decimal digits from 1 to 20"
                ))
            })?),
        };
        let opts = Opts {
            width,
            salt: optional(salt),
            hbase_numeric: opt_string(env, &hbase_numeric)?,
            round: round != 0,
        };
        let s = Schema::new(fmt, &text, opts)?;
        Ok(into_handle(s))
    })
}

/// `Native.schemaFree(handle)`.
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_schemaFree<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    h: jlong,
) {
    boundary(&mut env, (), |_| {
        // SAFETY: the Java Schema's Cleaner frees its handle once, after
        // its last use.
        #[allow(unsafe_code)]
        unsafe {
            free::<Schema>(h)
        };
        Ok(())
    });
}

/// `Native.schemaFields(handle)`: the field labels, comma-separated.
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_schemaFields<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    h: jlong,
) -> jstring {
    boundary(&mut env, null_mut(), |env| {
        // SAFETY: a live Schema handle (the Java object is reachable).
        #[allow(unsafe_code)]
        let s = unsafe { handle::<Schema>(h)? };
        Ok(env.new_string(s.labels().join(","))?.into_raw())
    })
}

/// `Native.schemaEncode(handle, text, cells, len, rows, base, ends)`: the
/// keys of `rows` rows, concatenated; `ends[i]` is the end of key `i`
/// (`ends` may be null for one row). `base` is the index of the first row
/// in messages (-1: one row, named `values`).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_lexikey_Native_schemaEncode<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    h: jlong,
    text: jboolean,
    cells: JByteArray<'l>,
    len: jint,
    rows: jint,
    base: jlong,
    ends: JIntArray<'l>,
) -> jbyteArray {
    boundary(&mut env, null_mut(), |env| {
        // SAFETY: a live Schema handle (the Java object is reachable).
        #[allow(unsafe_code)]
        let s = unsafe { handle::<Schema>(h)? };
        check_kind(s.format(), text != 0)?;
        let rows = usize::try_from(rows).unwrap_or(0);
        with_scratch(|sc| {
            bytes_into(env, &cells, len, &mut sc.cells)?;
            sc.out.clear();
            sc.ends.clear();
            let base = usize::try_from(base).ok();
            let mut r = Reader::new(&sc.cells);
            s.encode_rows(&mut r, rows, base, &mut sc.out, &mut sc.ends)?;
            if !ends.is_null() {
                env.set_int_array_region(&ends, 0, &sc.ends)?;
            }
            new_bytes(env, &sc.out)
        })
    })
}

/// `Native.schemaEncodeOne(handle, text, buf, len)`: the key of one row
/// (named `values` in messages), the cells the first `len` bytes of `buf`,
/// the key written over them ([`key_into`]).
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_schemaEncodeOne<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    h: jlong,
    text: jboolean,
    buf: JByteArray<'l>,
    len: jint,
) -> jint {
    boundary(&mut env, 0, |env| {
        // SAFETY: a live Schema handle (the Java object is reachable).
        #[allow(unsafe_code)]
        let s = unsafe { handle::<Schema>(h)? };
        check_kind(s.format(), text != 0)?;
        with_scratch(|sc| {
            bytes_into(env, &buf, len, &mut sc.cells)?;
            sc.out.clear();
            sc.ends.clear();
            let mut r = Reader::new(&sc.cells);
            s.encode_rows(&mut r, 1, None, &mut sc.out, &mut sc.ends)?;
            key_into(env, &buf, &sc.out)
        })
    })
}

/// The keys of `buf`, end to end, key `i` ending at `ends[i]` (as Java
/// packs them); ends out of order or past the buffer are an error.
fn key_slices<'b>(
    buf: &'b [u8],
    ends: &'b [i32],
) -> impl Iterator<Item = Result<&'b [u8], Error>> + 'b {
    let mut start = 0usize;
    ends.iter().map(move |&end| {
        let end = usize::try_from(end).unwrap_or(0);
        let key = buf
            .get(start..end)
            .ok_or_else(|| Error::State("lexikey: bad key ends".into()))?;
        start = end;
        Ok(key)
    })
}

/// `Native.schemaDesign(handle, keys, len, ends, n, regions, target,
/// table)`: of the sample whose keys (in insertion order) are the `n` keys
/// of `keys` (key `i` ends at `ends[i]`), with `target` null the
/// lexikey-design lint report as `lexikey lint --json` prints it, else the
/// line of `lexikey plan --for target --table table`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_lexikey_Native_schemaDesign<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    h: jlong,
    keys: JByteArray<'l>,
    len: jint,
    ends: JIntArray<'l>,
    n: jint,
    regions: jint,
    target: JString<'l>,
    table: JString<'l>,
) -> jstring {
    boundary(&mut env, null_mut(), |env| {
        // SAFETY: a live Schema handle (the Java object is reachable).
        #[allow(unsafe_code)]
        let s = unsafe { handle::<Schema>(h)? };
        let buf = bytes(env, &keys, len)?;
        let ends = ints(env, &ends, usize::try_from(n).unwrap_or(0))?;
        let mut sample = lexikey_design::Sample::new();
        for key in key_slices(&buf, &ends) {
            sample
                .push_key(s.spec(), key?)
                .map_err(|e| Error::State(format!("lexikey: {e}")))?;
        }
        // A negative count is out of range as 0 is.
        let regions = usize::try_from(regions).unwrap_or(0);
        let design = |e: lexikey_design::DesignError| arg_err(e.to_string());
        let out = match opt_string(env, &target)? {
            None => lexikey_design::lint(s.spec(), &sample, regions)
                .map_err(design)?
                .to_json(),
            Some(t) => {
                let target = lexikey_design::Target::parse(&t).map_err(design)?;
                let table = opt_string(env, &table)?.unwrap_or_else(|| "t".to_owned());
                lexikey_design::plan(s.spec(), &sample, regions, target, &table).map_err(design)?
            }
        };
        Ok(env.new_string(out)?.into_raw())
    })
}

/// `Native.schemaDiff(handle, other)`: whether the keys of the first
/// layout read and sort the same under the second, as `lexikey schema
/// diff --json` prints it (lexikey-design's diff).
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_schemaDiff<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    h: jlong,
    other: jlong,
) -> jstring {
    boundary(&mut env, null_mut(), |env| {
        // SAFETY: live Schema handles (both Java objects are reachable).
        #[allow(unsafe_code)]
        let (old, new) = unsafe { (handle::<Schema>(h)?, handle::<Schema>(other)?) };
        let d = lexikey_design::diff(old.spec(), new.spec()).map_err(|e| arg_err(e.to_string()))?;
        Ok(env.new_string(d.to_json())?.into_raw())
    })
}

/// `Native.schemaDecode(handle, keys, len, ends, n, keysAreText, base)`:
/// the rows of `n` keys (key `i` ends at `ends[i]`); `base` as in
/// `schemaEncode`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_lexikey_Native_schemaDecode<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    h: jlong,
    keys: JByteArray<'l>,
    len: jint,
    ends: JIntArray<'l>,
    n: jint,
    keys_are_text: jboolean,
    base: jint,
) -> jbyteArray {
    boundary(&mut env, null_mut(), |env| {
        // SAFETY: a live Schema handle (the Java object is reachable).
        #[allow(unsafe_code)]
        let s = unsafe { handle::<Schema>(h)? };
        let buf = bytes(env, &keys, len)?;
        let ends = ints(env, &ends, usize::try_from(n).unwrap_or(0))?;
        let mut w = Writer::default();
        for (i, raw) in key_slices(&buf, &ends).enumerate() {
            let raw = raw?;
            // The message prefix, made only for an error.
            let at = || match usize::try_from(base) {
                Ok(b) => format!("key {}: ", b + i),
                Err(_) => String::new(),
            };
            let key = key_bytes(s.format(), keys_are_text != 0, raw).map_err(|e| match e {
                Error::Decode(m, o) => Error::Decode(format!("{}{m}", at()), o),
                e => e,
            })?;
            s.decode(&key, &at, &mut w)?;
        }
        new_bytes(env, &w.buf)
    })
}

/// `Native.schemaRanges(handle, cells, len, allBuckets)`: the ranges of a
/// query (a row of prefix values, then a count of predicates, each a kind
/// byte and a value): a count, then per range its start and end (a
/// presence byte and the bytes).
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_schemaRanges<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    h: jlong,
    cells: JByteArray<'l>,
    len: jint,
    all: jboolean,
) -> jbyteArray {
    boundary(&mut env, null_mut(), |env| {
        // SAFETY: a live Schema handle (the Java object is reachable).
        #[allow(unsafe_code)]
        let s = unsafe { handle::<Schema>(h)? };
        let buf = bytes(env, &cells, len)?;
        let mut r = Reader::new(&buf);
        let prefix = r.row()?;
        let n = r.row_len()?;
        let mut preds = Vec::with_capacity(n);
        for _ in 0..n {
            let kind = pred_op(r.u8()?)
                .ok_or_else(|| Error::State("lexikey: unknown predicate code".into()))?;
            preds.push((kind, r.cell()?));
        }
        let ranges = s.ranges(&prefix, &preds, all != 0)?;
        let mut w = Writer::default();
        w.u32(ranges.len());
        for r in &ranges {
            for side in [&r.start, &r.end] {
                match side {
                    None => w.buf.push(0),
                    Some(k) => {
                        w.buf.push(1);
                        w.raw_bytes(k);
                    }
                }
            }
        }
        new_bytes(env, &w.buf)
    })
}

// ---------------------------------------------------------------------------
// Allocator
// ---------------------------------------------------------------------------

/// `Native.allocOpen(url, table, format, guard, start, hasStart, floor,
/// hasFloor, readOnly)`: a handle.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_lexikey_Native_allocOpen<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    url: JString<'l>,
    table: JString<'l>,
    format: JString<'l>,
    guard: jboolean,
    start: jlong,
    has_start: jboolean,
    floor: jlong,
    has_floor: jboolean,
    read_only: jboolean,
) -> jlong {
    boundary(&mut env, 0, |env| {
        let url = string(env, &url, "storeUrl")?;
        let table = string(env, &table, "table")?;
        let o = alloc::Options {
            format: string(env, &format, "format")?,
            guard: guard != 0,
            start: (has_start != 0).then_some(start as u64),
            floor: (has_floor != 0).then_some(floor as u64),
            read_only: read_only != 0,
        };
        Ok(into_handle(alloc::open(&url, &table, &o)?))
    })
}

/// `Native.allocFree(handle)`.
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_allocFree<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    h: jlong,
) {
    boundary(&mut env, (), |_| {
        // SAFETY: Allocator.close frees the handle once, after every call
        // on it returned (its write lock).
        #[allow(unsafe_code)]
        unsafe {
            free::<alloc::Table>(h)
        };
        Ok(())
    });
}

/// `Native.allocInsert(handle, value)`: the new row's ID.
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_allocInsert<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    h: jlong,
    value: JByteArray<'l>,
) -> jlong {
    boundary(&mut env, 0, |env| {
        // SAFETY: a live handle (Allocator's read lock is held).
        #[allow(unsafe_code)]
        let t = unsafe { handle::<alloc::Table>(h)? };
        if value.is_null() {
            return Err(arg_err("value is null"));
        }
        let n = env.get_array_length(&value)?;
        let v = bytes(env, &value, n)?;
        let id = t.insert(&v).map_err(|e| errors::alloc_err(&e, &[]))?;
        Ok(id as jlong)
    })
}

/// `Native.allocInsertMany(handle, values, ends)`: one row per value
/// (value `i` ends at `ends[i]`), their IDs.
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_allocInsertMany<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    h: jlong,
    values: JByteArray<'l>,
    ends: JIntArray<'l>,
) -> jlongArray {
    boundary(&mut env, null_mut(), |env| {
        // SAFETY: a live handle (Allocator's read lock is held).
        #[allow(unsafe_code)]
        let t = unsafe { handle::<alloc::Table>(h)? };
        let len = env.get_array_length(&values)?;
        let buf = bytes(env, &values, len)?;
        let n = env.get_array_length(&ends)?;
        let ends = ints(env, &ends, usize::try_from(n).unwrap_or(0))?;
        let mut vs: Vec<&[u8]> = Vec::with_capacity(ends.len());
        let mut start = 0usize;
        for &end in &ends {
            let end = usize::try_from(end).unwrap_or(0);
            let v = buf
                .get(start..end)
                .ok_or_else(|| Error::State("lexikey: bad value ends".into()))?;
            start = end;
            vs.push(v);
        }
        let mut ids: Vec<u64> = Vec::with_capacity(vs.len());
        t.insert_many_into(&vs, &mut ids)
            .map_err(|e| errors::alloc_err(&e, &ids))?;
        let out: Vec<i64> = ids.iter().map(|&id| id as i64).collect();
        let arr = env.new_long_array(i32::try_from(out.len()).unwrap_or(i32::MAX))?;
        env.set_long_array_region(&arr, 0, &out)?;
        Ok(arr.into_raw())
    })
}

/// `Native.allocRows(handle, which, limit)`: rows `(id, value)`: `which` 0
/// the newest, 1 the oldest, 2 up to `limit` newest first (`limit` < 0:
/// all).
#[no_mangle]
pub extern "system" fn Java_lexikey_Native_allocRows<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    h: jlong,
    which: jint,
    limit: jlong,
) -> jbyteArray {
    boundary(&mut env, null_mut(), |env| {
        // SAFETY: a live handle (Allocator's read lock is held).
        #[allow(unsafe_code)]
        let t = unsafe { handle::<alloc::Table>(h)? };
        let err = |e: lexikey::AllocError| errors::alloc_err(&e, &[]);
        let rows = match which {
            0 => t.newest().map_err(err)?.into_iter().collect(),
            1 => t.oldest().map_err(err)?.into_iter().collect(),
            _ => t
                .scan(usize::try_from(limit).unwrap_or(usize::MAX))
                .map_err(err)?,
        };
        new_bytes(env, &alloc::write_rows(&rows))
    })
}
