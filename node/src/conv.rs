//! JavaScript values ⇄ the core's host-neutral values: a JavaScript value
//! becomes a [`lexikey::frontend::host::Arg`] (which column type takes which
//! argument, and how, is the core's rule, the same for Python and Java),
//! a decoded [`lexikey::frontend::host::Out`] becomes a JavaScript value,
//! and an [`ArgError`] is worded with JavaScript's type names.
//!
//! | JavaScript | `Arg` | decoded back as |
//! |---|---|---|
//! | `null` | `Null` | `null` |
//! | `boolean` | `Bool` | `boolean` |
//! | `number` | `F64`; `Int` for a column of integers (or milliseconds) when it is a whole number | `number` (floats; integers of 32 bits or fewer) |
//! | `bigint` | `Int`, beyond `i64` `BigInt` | `bigint` (`i64`, `u64`, `fdb-tuple` and other 64-bit integers) |
//! | `string` | `Str`; `Uuid` for a UUID column, `Decimal` for a decimal column | `string` (also UUIDs and decimals) |
//! | `Buffer`, `Uint8Array` | `Bytes` | `Buffer` |
//! | `Date` | `Time` (to the millisecond) | `Date` |
//! | `[lat, lon]` for a `geo` column | `Geo` | `[lat, lon]` |
//! | `Versionstamp` (`index.js`) | `Versionstamp` | `Versionstamp` |
//! | an array, for a `list<T>` field of a schema | a list, element by element ([`lexikey::frontend::host::list_value`]; its text `"[1, 2]"` as a `string`) | an array of the elements' values |
//! | an array, in `fdb-tuple` (not a `[type, value]` pair) | a nested tuple ([`KeySpec::nested`](lexikey::frontend::spec::KeySpec::nested)) | an array |

use lexikey::frontend::host::{f64_of_f32, Arg, ArgError, ArgKind, HostItem, Out, Want};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::profile::Profile;
use lexikey::interop::fdb;

use crate::errors::Error;
use crate::js::{Js, Kind, Value};

/// The buffers one value's `Arg` borrows: its string's UTF-8 and its
/// bigint's magnitude (reused from row to row).
#[derive(Debug, Default)]
pub(crate) struct Slot {
    text: Vec<u8>,
    mag: Vec<u8>,
}

/// 2^63 as an `f64`: whole numbers below it in magnitude fit an `i64`.
const I64_LIMIT: f64 = 9_223_372_036_854_775_808.0;

/// The [`Arg`] of a JavaScript value for a column that wants `want`
/// (`None`: a plain value, typed by the format's rule).
pub(crate) fn arg<'a>(
    js: Js,
    v: Value,
    want: Option<Want>,
    slot: &'a mut Slot,
) -> Result<Arg<'a>, Error> {
    Ok(match js.kind(v)? {
        Kind::Null => Arg::Null,
        Kind::Undefined | Kind::Other => Arg::Other,
        Kind::Boolean => Arg::Bool(js.bool(v)?),
        Kind::Number => {
            let x = js.f64(v)?;
            let whole = x.fract() == 0.0 && x.abs() < I64_LIMIT;
            match want {
                Some(Want::Int | Want::Time | Want::Decimal) if whole => Arg::Int(x as i64),
                _ => Arg::F64(x),
            }
        }
        Kind::BigInt => match js.bigint_i64(v)? {
            Some(x) => Arg::Int(x),
            None => {
                let negative = js.bigint_words(v, &mut slot.mag)?;
                Arg::BigInt {
                    negative,
                    magnitude: &slot.mag,
                }
            }
        },
        Kind::String => {
            js.str_into(v, &mut slot.text)?;
            // Node writes UTF-8 (lone surrogates replaced by U+FFFD).
            let s =
                std::str::from_utf8(&slot.text).map_err(|e| Error::Js(format!("lexikey: {e}")))?;
            match want {
                Some(Want::Uuid) => match lexikey::value::literal::parse_uuid(s) {
                    Ok(u) => Arg::Uuid(u),
                    Err(_) => Arg::Str(s),
                },
                Some(Want::Decimal) => Arg::Decimal(s),
                _ => Arg::Str(s),
            }
        }
        Kind::Object => {
            if let Some(vs) = versionstamp_of(js, v)? {
                Arg::Versionstamp(vs.0)
            } else if let Some(b) = js.bytes(v)? {
                Arg::Bytes(b)
            } else if let Some(ms) = js.date_ms(v)? {
                time_of_ms(ms)
            } else if want == Some(Want::Geo) && js.array_len(v)? == Some(2) {
                let (lat, lon) = (js.element(v, 0)?, js.element(v, 1)?);
                if js.kind(lat)? == Kind::Number && js.kind(lon)? == Kind::Number {
                    Arg::Geo(js.f64(lat)?, js.f64(lon)?)
                } else {
                    Arg::Other
                }
            } else {
                Arg::Other
            }
        }
    })
}

/// A JavaScript value as a `list<T>` field sees it ([`list_value`]): an
/// array is a list of elements, each converted by [`arg`] for what its
/// element type wants and its errors worded by [`message`].
///
/// [`list_value`]: lexikey::frontend::host::list_value
#[derive(Debug, Clone, Copy)]
pub(crate) struct JsItem {
    pub(crate) js: Js,
    pub(crate) v: Value,
}

impl HostItem for JsItem {
    type Error = Error;

    fn is_null(&self) -> bool {
        matches!(self.js.kind(self.v), Ok(Kind::Null))
    }

    fn elements(&self) -> Result<Option<Vec<JsItem>>, Error> {
        let Some(n) = self.js.array_len(self.v)? else {
            return Ok(None);
        };
        (0..n)
            .map(|i| {
                Ok(JsItem {
                    js: self.js,
                    v: self.js.element(self.v, i)?,
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    fn with_arg<R>(&self, want: Want, f: impl FnOnce(Arg<'_>) -> R) -> Result<R, Error> {
        let mut slot = Slot::default();
        Ok(f(arg(self.js, self.v, Some(want), &mut slot)?))
    }

    fn message(&self, e: &ArgError) -> String {
        message(self.js, e, self.v)
    }

    fn type_name(&self) -> String {
        type_name(self.js, self.v)
    }

    fn error(&self, message: String) -> Error {
        Error::Encode(message)
    }
}

/// The versionstamp of `trVersion` (a 10-byte `Buffer`/`Uint8Array`, or
/// `null`/`undefined` for an incomplete one) and `userVersion` (an integer
/// from 0 to 65535; `undefined` is 0): the arguments of `new
/// Versionstamp(trVersion, userVersion)`, as Python's
/// `lexikey.Versionstamp(tr_version, user_version)` takes them.
pub(crate) fn versionstamp(js: Js, tr: Value, uv: Value) -> Result<fdb::Versionstamp, Error> {
    let uv = match js.kind(uv)? {
        Kind::Undefined => 0,
        Kind::Number => {
            let x = js.f64(uv)?;
            if x.fract() != 0.0 || !(0.0..=65535.0).contains(&x) {
                return Err(Error::Value(format!(
                    "userVersion {x} is out of range (an integer from 0 to 65535)"
                )));
            }
            x as u16
        }
        _ => {
            return Err(Error::Type(format!(
                "userVersion is a number, not {}",
                type_name(js, uv)
            )))
        }
    };
    match js.kind(tr)? {
        Kind::Null | Kind::Undefined => Ok(fdb::Versionstamp::incomplete(uv)),
        _ => {
            let Some(b) = js.bytes(tr)? else {
                return Err(Error::Type(format!(
                    "trVersion is a Buffer, a Uint8Array or null, not {}",
                    type_name(js, tr)
                )));
            };
            let tr: [u8; 10] = b.try_into().map_err(|_| {
                Error::Value(format!(
                    "trVersion is 10 bytes, not {} (a versionstamp is 10 bytes of transaction \
                     version and a 2-byte user version)",
                    b.len()
                ))
            })?;
            Ok(fdb::Versionstamp::new(tr, uv))
        }
    }
}

/// The versionstamp a `Versionstamp` object holds (`None`: not one).
fn versionstamp_of(js: Js, v: Value) -> Result<Option<fdb::Versionstamp>, Error> {
    let Some(class) = crate::errors::versionstamp_class(js) else {
        return Ok(None);
    };
    if !js.instance_of(v, class)? {
        return Ok(None);
    }
    versionstamp(js, js.get(v, c"trVersion")?, js.get(v, c"userVersion")?).map(Some)
}

/// A `Versionstamp` object of `vs` (its 12 bytes as a `Buffer` when
/// `init` did not register the class).
pub(crate) fn versionstamp_value(js: Js, vs: fdb::Versionstamp) -> Result<Value, Error> {
    let Some(class) = crate::errors::versionstamp_class(js) else {
        return js.buffer(&vs.0);
    };
    let tr = if vs.is_complete() {
        js.buffer(&vs.tr_version())?
    } else {
        js.null()?
    };
    let uv = js.number(f64::from(vs.user_version()))?;
    js.construct(class, &[tr, uv])
}

/// The instant of a `Date`'s milliseconds (an invalid `Date`: `Other`).
fn time_of_ms(ms: f64) -> Arg<'static> {
    if !ms.is_finite() {
        return Arg::Other;
    }
    // A Date holds whole milliseconds within ±8.64e15.
    let ms = ms as i64;
    Arg::Time {
        secs: ms.div_euclid(1000),
        nanos: (ms.rem_euclid(1000) as u32) * 1_000_000,
    }
}

/// A JavaScript value's type, for messages (`number 1.5`, `string`,
/// `Buffer`, `Date`, …).
pub(crate) fn type_name(js: Js, v: Value) -> String {
    let kind = match js.kind(v) {
        Ok(k) => k,
        Err(_) => return "a value".into(),
    };
    match kind {
        Kind::Null => "null".into(),
        Kind::Undefined => "undefined".into(),
        Kind::Boolean => "a boolean".into(),
        Kind::Number => match js.f64(v) {
            Ok(x) => format!("the number {x}"),
            Err(_) => "a number".into(),
        },
        Kind::BigInt => "a bigint".into(),
        Kind::String => "a string".into(),
        Kind::Other => "a function or symbol".into(),
        Kind::Object => {
            if matches!(js.bytes(v), Ok(Some(_))) {
                "a Uint8Array".into()
            } else if matches!(js.date_ms(v), Ok(Some(_))) {
                "a Date".into()
            } else if matches!(versionstamp_of(js, v), Ok(Some(_))) {
                "a Versionstamp".into()
            } else if matches!(js.array_len(v), Ok(Some(_))) {
                "an array".into()
            } else {
                "an object".into()
            }
        }
    }
}

/// What a type takes, in JavaScript's names.
fn js_want(want: Want) -> &'static str {
    match want {
        Want::Int => "an integer (a bigint, or a number that is a whole number)",
        Want::Float => "a number",
        Want::Bool => "a boolean",
        Want::Str => "a string",
        Want::Bytes => "a Buffer or Uint8Array",
        Want::Uuid => "a UUID string",
        Want::Time => "a Date (or integer milliseconds)",
        Want::Decimal => "a decimal string or an integer",
        Want::Geo => "a [lat, lon] array",
        Want::Null => "null",
    }
}

/// The message of an [`ArgError`] about the JavaScript value `v`.
pub(crate) fn message(js: Js, e: &ArgError, v: Value) -> String {
    match e {
        ArgError::Expected { want, ty } => {
            format!(
                "expected {} for {ty}, got {}",
                js_want(*want),
                type_name(js, v)
            )
        }
        ArgError::InexactDecimal { ty } => format!(
            "{} is not an exact decimal ({ty}): give a decimal string (e.g. \"10.50\") or an \
             integer",
            type_name(js, v)
        ),
        ArgError::PlainIntOutOfRange { value } => format!(
            "{value} is out of range for i64, the type of a plain bigint: give \"u64:{value}\" \
             or \"dec:{value}\" for more"
        ),
        ArgError::NoPlainType { kind, format } => plain_message(js, *kind, *format, v),
        other => other.to_string(),
    }
}

/// Why a plain value has no type in `format`.
fn plain_message(js: Js, kind: ArgKind, format: KeyFormat, v: Value) -> String {
    match (format, kind) {
        (_, ArgKind::Other | ArgKind::Geo) => format!(
            "a component is a \"TYPE[.desc]:VALUE\" string, a [type, value] pair, or a string, \
             number, bigint, boolean, Buffer, Uint8Array or Date, not {}",
            type_name(js, v)
        ),
        (KeyFormat::Native(_), ArgKind::Null) => {
            "null has no type in the native formats (they have no null)".into()
        }
        (KeyFormat::Profile(Profile::Fdb), ArgKind::Time) => {
            "the FoundationDB tuple layer has no time type: give integer milliseconds".into()
        }
        (KeyFormat::Profile(p), ArgKind::Null) => format!(
            "a plain null has no {p} type: give the column's bare type (e.g. \"{}\")",
            if p == Profile::Hbase {
                "text"
            } else {
                "varchar"
            }
        ),
        (f, _) => format!(
            "a plain {} has no {f} type: give a \"TYPE:VALUE\" string",
            type_name(js, v)
        ),
    }
}

/// Whether a column's decoded integers are JavaScript numbers (32 bits or
/// fewer) rather than bigints, by its label (`i32`, `int8.desc`,
/// `unsigned_int`).
pub(crate) fn small_int(label: &str) -> bool {
    let base = label.split('.').next().unwrap_or(label);
    matches!(
        base,
        "i32"
            | "u32"
            | "int32"
            | "int16"
            | "int8"
            | "integer"
            | "smallint"
            | "tinyint"
            | "unsigned_int"
            | "unsigned_smallint"
            | "unsigned_tinyint"
    )
}

/// The JavaScript value of a decoded value (`small`: its integers are
/// numbers; `typed`: nested tuples as `[type, value]` pairs).
pub(crate) fn out(js: Js, v: &Out<'_>, small: bool, typed: bool) -> Result<Value, Error> {
    match v {
        Out::Null => js.null(),
        Out::Bool(b) => js.boolean(*b),
        // The column bounds the value: exact as a number.
        Out::Int(x) if small => js.number(*x as f64),
        Out::Int(x) => js.bigint_from_i64(*x),
        Out::U64(x) => js.bigint_from_u64(*x),
        Out::BigInt(i) => js.bigint_from_mag(i.is_negative(), i.magnitude()),
        Out::F64(x) => js.number(*x),
        Out::F32(x) => js.number(f64_of_f32(*x)),
        Out::Str(s) => js.str(s.as_bytes()),
        Out::Bytes(b) => js.buffer(b),
        Out::Versionstamp(b) => versionstamp_value(js, fdb::Versionstamp(*b)),
        Out::Uuid(u) => {
            let mut s = String::with_capacity(36);
            lexikey::value::literal::format_uuid(*u, &mut s);
            js.str(s.as_bytes())
        }
        Out::Time { secs, nanos } => js.date(*secs as f64 * 1000.0 + f64::from(nanos / 1_000_000)),
        Out::Decimal(t) => js.str(t.as_bytes()),
        Out::Geo(lat, lon) => {
            let a = js.array(2)?;
            js.set_element(a, 0, js.number(*lat)?)?;
            js.set_element(a, 1, js.number(*lon)?)?;
            Ok(a)
        }
        Out::Nested(items) => {
            let a = js.array(items.len())?;
            for (i, (label, item)) in items.iter().enumerate() {
                let value = out(js, item, small_int(label), typed)?;
                let e = if typed {
                    pair(js, label, value)?
                } else {
                    value
                };
                js.set_element(a, i as u32, e)?;
            }
            Ok(a)
        }
        Out::List(items) => {
            let a = js.array(items.len())?;
            for (i, item) in items.iter().enumerate() {
                let value = out(js, item, small, typed)?;
                js.set_element(a, i as u32, value)?;
            }
            Ok(a)
        }
    }
}

/// The pair `[label, value]`.
pub(crate) fn pair(js: Js, label: &str, value: Value) -> Result<Value, Error> {
    let p = js.array(2)?;
    js.set_element(p, 0, js.str(label.as_bytes())?)?;
    js.set_element(p, 1, value)?;
    Ok(p)
}
