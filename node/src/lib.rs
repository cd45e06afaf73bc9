//! `lexikey` for Node: a thin Node-API binding (napi-rs) over the Rust core
//! and lexikey-stores, so that the key a JavaScript service writes is byte
//! for byte the key the Rust service, the `lexikey` command, Python and
//! Java write.
//!
//! What it promises, as the Python and Java bindings do:
//! - **Same keys.** Component strings (`"i64.desc:5"`) and formats are the
//!   command line's: `encode` parses them with the library's
//!   [`KeySpec`](lexikey::frontend::spec::KeySpec); `[type, value]` pairs
//!   and plain values become components by the core's rules
//!   ([`lexikey::frontend::host`]); `Schema` encodes rows with the core's
//!   row encoder, a whole batch per call into Rust.
//! - **Strict decoding.** Every decoder is the core's canonical one; a bad
//!   key throws `DecodeError` with the byte offset the Rust error carries.
//! - **No panic reaches JavaScript**: every failure is a JavaScript error.
//! - **The allocator never blocks the event loop**: store calls run on
//!   Node's thread pool and settle promises.
//!
//! The JavaScript side (`index.js`, `index.mjs`, `index.d.ts`) only names
//! things: the error classes, `Schema` and `Allocator` as classes over the
//! functions exported here.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::profile::Profile;
use lexikey::frontend::spec::{Comp, KeySpec};
use lexikey::range::render::{render as render_range, Dialect, RenderOptions};
use lexikey::KeyRange;
use napi::sys;

mod alloc;
mod conv;
mod errors;
mod handle;
mod js;
mod schema;

use errors::Error;
use js::{Js, Kind, Value};
use schema::{key_bytes, key_value, Opts, Schema};

impl handle::Tagged for Schema {
    const TAG: sys::napi_type_tag = sys::napi_type_tag {
        lower: 0x6c65_7869_6b65_7953,
        upper: 0x5c4e_3a5c_4e3a_5c4e,
    };
    const NAME: &'static str = "lexikey Schema";
}

/// The arguments of a call (missing ones `undefined`).
const MAX_ARGS: usize = 4;

/// Runs `body` for a call from JavaScript: its error thrown, a panic
/// caught and thrown as an `Error`.
fn run(
    env: sys::napi_env,
    info: sys::napi_callback_info,
    body: fn(Js, [Value; MAX_ARGS]) -> Result<Value, Error>,
) -> Value {
    let js = Js { env };
    let res = catch_unwind(AssertUnwindSafe(|| {
        let mut argc = MAX_ARGS;
        let mut argv = [ptr::null_mut(); MAX_ARGS];
        // SAFETY: `argv` holds MAX_ARGS values; Node fills the missing ones
        // with `undefined`.
        let status = unsafe {
            sys::napi_get_cb_info(
                env,
                info,
                &mut argc,
                argv.as_mut_ptr(),
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        if status != sys::Status::napi_ok {
            return Err(Error::Js("lexikey: napi_get_cb_info failed".into()));
        }
        body(js, argv)
    }));
    match res {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            errors::throw(js, &e);
            ptr::null_mut()
        }
        Err(_) => {
            errors::throw(js, &Error::Js("lexikey: internal error (a panic)".into()));
            ptr::null_mut()
        }
    }
}

/// `init({DecodeError, EncodeError, AllocError, StoreError})`: the classes
/// errors are thrown as.
fn init(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    errors::register(js, a[0])?;
    js.undefined()
}

/// The component of one item of `encode`'s list: a component string
/// (`"i64.desc:5"`, or a profile's bare type: a null), a `[type, value]`
/// pair, or a plain value typed by the format's rule; in `fdb-tuple`, an
/// array that is not a pair (or the pair `["nested", [...]]` that `decode`
/// gives with `types`) is a nested tuple of such items.
fn component(
    js: Js,
    spec: &KeySpec,
    item: Value,
    slot: &mut conv::Slot,
    i: usize,
) -> Result<Comp, Error> {
    component_at(js, spec, item, slot, i, 0)
}

/// [`component`] at nesting level `depth` (a list among the key's
/// components is level 0).
fn component_at(
    js: Js,
    spec: &KeySpec,
    item: Value,
    slot: &mut conv::Slot,
    i: usize,
    depth: usize,
) -> Result<Comp, Error> {
    let kind = js.kind(item)?;
    if kind == Kind::String {
        let text = js.string(item)?;
        if spec.is_component(&text) {
            return spec
                .parse_named(&text)
                .map_err(|e| Error::Encode(e.to_string()));
        }
    }
    let fdb = spec.format() == KeyFormat::Profile(Profile::Fdb);
    let len = match kind {
        Kind::Object => js.array_len(item)?,
        _ => None,
    };
    if len == Some(2) {
        let ty = js.element(item, 0)?;
        if js.kind(ty)? == Kind::String {
            let ty = js.string(ty)?;
            let v = js.element(item, 1)?;
            if fdb && ty == "nested" && js.array_len(v)?.is_some() {
                return nested(js, spec, v, slot, i, depth);
            }
            let named = |e: String| Error::Encode(format!("component [{ty:?}, ...]: {e}"));
            match spec.col_type(&ty) {
                Ok(col) => {
                    let a = conv::arg(js, v, Some(col.want()), slot)?;
                    return spec
                        .pair(&ty, a)
                        .map_err(|e| named(conv::message(js, &e, v)));
                }
                // A first item that names no type: a nested tuple.
                Err(_) if fdb => return nested(js, spec, item, slot, i, depth),
                Err(e) => return Err(named(e.to_string())),
            }
        }
    }
    if fdb && len.is_some() {
        return nested(js, spec, item, slot, i, depth);
    }
    let a = conv::arg(js, item, None, slot)?;
    let ty = spec
        .plain_type(a)
        .map_err(|e| Error::Encode(conv::message(js, &e, item)))?;
    spec.typed(&ty, a).map_err(|e| {
        Error::Encode(format!(
            "component {} ({ty}): {}",
            i + 1,
            conv::message(js, &e, item)
        ))
    })
}

/// The `fdb-tuple` nested tuple of the array `arr` at level `depth`
/// (bounded by the core: [`KeySpec::nested`]).
fn nested(
    js: Js,
    spec: &KeySpec,
    arr: Value,
    slot: &mut conv::Slot,
    i: usize,
    depth: usize,
) -> Result<Comp, Error> {
    /// An item's error, or the core's about the list.
    struct Fail(Error);
    impl From<lexikey::frontend::host::ArgError> for Fail {
        fn from(e: lexikey::frontend::host::ArgError) -> Fail {
            Fail(Error::Encode(e.to_string()))
        }
    }
    let n = js.array_len(arr)?.unwrap_or(0);
    spec.nested(depth, 0..n, |j, d| {
        let item = js.element(arr, j).map_err(Fail)?;
        component_at(js, spec, item, slot, i, d).map_err(Fail)
    })
    .map_err(|f| f.0)
}

/// The length of a `components` argument (a `TypeError` when it is not an
/// array).
fn components_len(js: Js, v: Value) -> Result<u32, Error> {
    js.array_len(v)?.ok_or_else(|| {
        Error::Type(format!(
            "components is an array (e.g. [\"str:a\", 5n]), not {}",
            conv::type_name(js, v)
        ))
    })
}

/// The components of the array `arr` of `n` items ([`component`]).
fn components(js: Js, spec: &KeySpec, arr: Value, n: u32) -> Result<Vec<Comp>, Error> {
    let mut slot = conv::Slot::default();
    (0..n)
        .map(|i| component(js, spec, js.element(arr, i)?, &mut slot, i as usize))
        .collect()
}

/// `versionstampBytes(trVersion, userVersion)`: the 12 bytes of a
/// versionstamp (an incomplete one's transaction version all `0xff`), its
/// arguments checked as `new Versionstamp(...)` takes them.
fn versionstamp_bytes(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    js.buffer(&conv::versionstamp(js, a[0], a[1])?.0)
}

/// `packWithVersionstamp(components)`: the `fdb-tuple` key of components
/// holding exactly one incomplete versionstamp, then its offset as 4
/// bytes little-endian (`fdb.tuple.pack_with_versionstamp`).
fn pack_with_versionstamp(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    let spec = KeySpec::new(KeyFormat::Profile(Profile::Fdb)).with_max_key_len(schema::MAX_KEY_LEN);
    let n = components_len(js, a[0])?;
    let comps = components(js, &spec, a[0], n)?;
    let key = spec
        .encode_with_versionstamp(&comps)
        .map_err(|e| Error::Encode(e.to_string()))?;
    js.buffer(&key)
}

/// `encode(components, {format, saltBuckets, width, hbaseNumeric, round})`.
fn encode(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    let opts = Opts::read(js, a[1])?;
    let spec = opts.key_spec()?;
    let fmt = spec.format();
    let n = components_len(js, a[0])?;
    if n == 0 && opts.salt.is_none() && fmt != KeyFormat::Profile(Profile::Phoenix) {
        // The empty tuple: the empty key (the command line needs a
        // COMPONENT; fdb.tuple.pack(()) is b"" too). A Phoenix row key is
        // never empty.
        return key_value(js, fmt, b"");
    }
    let comps = components(js, &spec, a[0], n)?;
    let key = spec
        .encode(&comps)
        .map_err(|e| Error::Encode(e.to_string()))?;
    key_value(js, fmt, &key)
}

/// `decode(key, {format, schema, saltBuckets, width, hbaseNumeric, types})`.
fn decode(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    let opts = Opts::read(js, a[1])?;
    let spec = opts.decode_spec()?;
    let mut key = Vec::new();
    key_bytes(js, spec.format(), a[0], &mut key)?;
    schema::decode_key(js, &spec, &key, None, opts.types, &String::new)
}

/// `render(start, end, target, table)`: the range in a store's syntax.
fn render(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    let absent = |v: Value| -> Result<bool, Error> {
        Ok(matches!(js.kind(v)?, Kind::Null | Kind::Undefined))
    };
    let is_bytes = |v: Value| -> Result<bool, Error> {
        Ok(js.kind(v)? == Kind::Object && js.bytes(v)?.is_some())
    };
    let text = !(is_bytes(a[0])? || is_bytes(a[1])?);
    let bound = |v: Value| -> Result<Option<Vec<u8>>, Error> {
        if absent(v)? {
            return Ok(None);
        }
        let mut b = Vec::new();
        if js.kind(v)? == Kind::String {
            js.str_into(v, &mut b)?;
        } else {
            key_bytes(
                js,
                KeyFormat::parse("binary").map_err(Error::Value)?,
                v,
                &mut b,
            )?;
        }
        Ok(Some(b))
    };
    if js.kind(a[2])? != Kind::String {
        return Err(Error::Type(format!(
            "target is a string, not {}",
            conv::type_name(js, a[2])
        )));
    }
    let dialect = Dialect::parse(&js.string(a[2])?).map_err(|e| Error::Value(e.to_string()))?;
    let mut opts = RenderOptions::new().text(text);
    let table;
    if !absent(a[3])? {
        if js.kind(a[3])? != Kind::String {
            return Err(Error::Type(format!(
                "table is a string, not {}",
                conv::type_name(js, a[3])
            )));
        }
        table = js.string(a[3])?;
        opts = opts.table(&table);
    }
    let r = KeyRange {
        start: bound(a[0])?,
        end: bound(a[1])?,
    };
    let s = render_range(dialect, &r, &opts).map_err(|e| Error::Value(e.to_string()))?;
    js.str(s.as_bytes())
}

/// `reverse(n)`: `9223372036854775807n - n` (a bigint, 0 to 2^63-1).
fn reverse(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    let mut slot = conv::Slot::default();
    let v = match conv::arg(
        js,
        a[0],
        Some(lexikey::frontend::host::Want::Int),
        &mut slot,
    )? {
        lexikey::frontend::host::Arg::Int(v) if v >= 0 => v,
        _ => {
            return Err(Error::Encode(format!(
                "reverse takes an integer from 0 to 9223372036854775807, not {}",
                conv::type_name(js, a[0])
            )))
        }
    };
    let r = lexikey::reverse(v).map_err(|e| Error::Encode(e.to_string()))?;
    js.bigint_from_i64(r)
}

/// `schemaNew(spec, format, options)`: a `Schema` handle.
fn schema_new(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    if js.kind(a[0])? != Kind::String {
        return Err(Error::Type(format!(
            "a schema is a string (e.g. \"str,i64\"), not {}",
            conv::type_name(js, a[0])
        )));
    }
    let text = js.string(a[0])?;
    let mut opts = Opts::read(js, a[2])?;
    match js.kind(a[1])? {
        Kind::Undefined | Kind::Null => {}
        Kind::String => opts.format = Some(js.string(a[1])?),
        _ => {
            return Err(Error::Type(format!(
                "format is a string, not {}",
                conv::type_name(js, a[1])
            )))
        }
    }
    handle::wrap(js, Schema::new(&text, &opts)?)
}

/// `schemaInfo(h)`: `{format, fields}`.
fn schema_info(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    let s = handle::get::<Schema>(js, a[0])?;
    let o = js.object()?;
    js.set(o, c"format", js.str(s.format().name().as_bytes())?)?;
    let labels = js.array(0)?;
    for (i, l) in s.labels().iter().enumerate() {
        js.set_element(labels, i as u32, js.str(l.as_bytes())?)?;
    }
    js.set(o, c"fields", labels)?;
    Ok(o)
}

/// `schemaEncode(h, values)`: one key.
fn schema_encode(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    let s = handle::get::<Schema>(js, a[0])?;
    let mut key = None;
    s.encode_rows(js, &[a[1]], true, |k| {
        key = Some(key_value(js, s.format(), k)?);
        Ok(())
    })?;
    key.ok_or_else(|| Error::Js("lexikey: no key".into()))
}

/// The items of an array argument.
fn items(js: Js, v: Value, what: &str) -> Result<Vec<Value>, Error> {
    let n = js.array_len(v)?.ok_or_else(|| {
        Error::Type(format!(
            "{what} is an array, not {}",
            conv::type_name(js, v)
        ))
    })?;
    (0..n).map(|i| js.element(v, i)).collect()
}

/// `schemaEncodeMany(h, rows)`: the keys of every row, one call, packed:
/// `[keys, ends]`, every key one after the other and the end of each in a
/// `Uint32Array`. The keys are one `string` when they are ASCII (every
/// `hex` and `base64` key), else one `Buffer`; `index.js` cuts them into
/// the keys (substrings, or `Buffer` views): one JavaScript allocation a
/// batch, not one a key.
fn schema_encode_many(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    let s = handle::get::<Schema>(js, a[0])?;
    let rows = items(js, a[1], "rows")?;
    let mut all = Vec::new();
    let mut ends = Vec::with_capacity(rows.len());
    s.encode_rows(js, &rows, false, |k| {
        all.extend_from_slice(k);
        ends.push(u32::try_from(all.len()).map_err(|_| {
            Error::Encode("the keys of one call exceed 4 GiB: encode fewer rows per call".into())
        })?);
        Ok(())
    })?;
    let out = js.array(2)?;
    let keys = if s.format().is_text() && all.is_ascii() {
        js.str(&all)?
    } else {
        js.buffer(&all)?
    };
    js.set_element(out, 0, keys)?;
    js.set_element(out, 1, js.u32_array(&ends)?)?;
    Ok(out)
}

/// `schemaDecode(h, key)`: the values of one key.
fn schema_decode(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    let s = handle::get::<Schema>(js, a[0])?;
    let mut key = Vec::new();
    key_bytes(js, s.format(), a[1], &mut key)?;
    s.decode(js, &key, &String::new)
}

/// `schemaDecodeMany(h, keys)`: the values of every key, one call.
fn schema_decode_many(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    let s = handle::get::<Schema>(js, a[0])?;
    let keys = items(js, a[1], "keys")?;
    let out = js.array(keys.len())?;
    let mut key = Vec::new();
    for (i, &k) in keys.iter().enumerate() {
        key_bytes(js, s.format(), k, &mut key)?;
        let row = s.decode(js, &key, &|| format!("key {i}: "))?;
        js.set_element(out, i as u32, row)?;
    }
    Ok(out)
}

/// `schemaRange(h, prefix, predicate)`: `{start, end}`.
fn schema_range(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    let s = handle::get::<Schema>(js, a[0])?;
    let rs = s.ranges(js, a[1], a[2], false)?;
    match rs.as_slice() {
        [r] => schema::range_object(js, s.format(), r),
        _ => Err(Error::Value(
            "a salted schema has one range per bucket: use schema.ranges(...)".into(),
        )),
    }
}

/// `schemaRanges(h, prefix, predicate)`: one `{start, end}` per salt
/// bucket (bucket 0 first; one for an unsalted schema).
fn schema_ranges(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    let s = handle::get::<Schema>(js, a[0])?;
    let rs = s.ranges(js, a[1], a[2], true)?;
    let out = js.array(rs.len())?;
    for (i, r) in rs.iter().enumerate() {
        js.set_element(out, i as u32, schema::range_object(js, s.format(), r)?)?;
    }
    Ok(out)
}

fn alloc_open(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    alloc::open(js, a[0], a[1], a[2])
}

fn alloc_insert(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    alloc::insert(js, a[0], a[1])
}

fn alloc_newest(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    alloc::end(js, a[0], true)
}

fn alloc_oldest(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    alloc::end(js, a[0], false)
}

fn alloc_scan(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    alloc::scan(js, a[0], a[1])
}

fn alloc_close(js: Js, a: [Value; MAX_ARGS]) -> Result<Value, Error> {
    alloc::close(js, a[0])
}

/// One exported function: a C callback running its body through [`run`].
macro_rules! exports {
    ($($name:literal => $body:ident),* $(,)?) => {
        /// The module's functions, by their JavaScript names.
        fn functions() -> Vec<(&'static str, sys::napi_callback)> {
            vec![$(($name, {
                unsafe extern "C" fn cb(env: sys::napi_env, info: sys::napi_callback_info) -> Value {
                    run(env, info, $body)
                }
                Some(cb as unsafe extern "C" fn(sys::napi_env, sys::napi_callback_info) -> Value)
            })),*]
        }
    };
}

exports! {
    "init" => init,
    "encode" => encode,
    "decode" => decode,
    "render" => render,
    "reverse" => reverse,
    "versionstampBytes" => versionstamp_bytes,
    "packWithVersionstamp" => pack_with_versionstamp,
    "schemaNew" => schema_new,
    "schemaInfo" => schema_info,
    "schemaEncode" => schema_encode,
    "schemaEncodeMany" => schema_encode_many,
    "schemaDecode" => schema_decode,
    "schemaDecodeMany" => schema_decode_many,
    "schemaRange" => schema_range,
    "schemaRanges" => schema_ranges,
    "allocOpen" => alloc_open,
    "allocInsert" => alloc_insert,
    "allocNewest" => alloc_newest,
    "allocOldest" => alloc_oldest,
    "allocScan" => alloc_scan,
    "allocClose" => alloc_close,
}

/// The module's exports: the functions above and `version`.
#[napi_derive::napi(module_exports)]
pub fn module_exports(exports: napi::bindgen_prelude::Object, env: napi::Env) -> napi::Result<()> {
    let js = Js { env: env.raw() };
    let target = napi::JsValue::raw(&exports);
    let fail = |e: Error| napi::Error::from_reason(format!("{e:?}"));
    for (name, cb) in functions() {
        let mut f = ptr::null_mut();
        // SAFETY: `name` is valid for its length; `cb` a C callback.
        let status = unsafe {
            sys::napi_create_function(
                js.env,
                name.as_ptr().cast(),
                name.len() as isize,
                cb,
                ptr::null_mut(),
                &mut f,
            )
        };
        if status != sys::Status::napi_ok {
            return Err(napi::Error::from_reason(format!(
                "lexikey: cannot export {name}"
            )));
        }
        let cname =
            std::ffi::CString::new(name).map_err(|e| napi::Error::from_reason(e.to_string()))?;
        js.set(target, &cname, f).map_err(fail)?;
    }
    let version = js.str(env!("CARGO_PKG_VERSION").as_bytes()).map_err(fail)?;
    js.set(target, c"version", version).map_err(fail)?;
    Ok(())
}
