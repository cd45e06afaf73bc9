//! Java values ⇄ the core's host-neutral values: a Java object read from
//! the wire ([`Host`]) becomes a [`lexikey::frontend::host::Arg`] (which column type
//! takes which argument, and how, is the core's rule: [`lexikey::frontend::host`],
//! the same for Python and Java), a decoded [`lexikey::frontend::host::Out`] becomes a
//! Java object, and an [`ArgError`] is worded with Java's class names.
//!
//! | Java | `Arg` | decoded back as |
//! |---|---|---|
//! | `null` | `Null` | `Null` → `null` |
//! | `Boolean` | `Bool` | `Boolean` |
//! | `Long`, `Integer`, `Short`, `Byte`, `BigInteger` | `Int`, beyond `i64` `BigInt` | by the column: `Long` (`i64`, `u32`, `fdb-tuple` integers), `Integer` (`i32`), `BigInteger` (`u64`; `fdb-tuple` integers beyond `long`), `Byte`/`Short` (HBase `int8`/`int16`, Phoenix `TINYINT`/`SMALLINT`) |
//! | `Double`, `Float` | `F64`, `F32` | `Double`, `Float` |
//! | `String` | `Str` | `String` (also a `ulid`'s text) |
//! | `byte[]` | `Bytes` | `byte[]` |
//! | `java.time.Instant` | `Time` (to the nanosecond) | `Instant` |
//! | `java.util.UUID` | `Uuid` | `UUID` |
//! | `java.math.BigDecimal` | `Decimal` (its `toString()`) | `BigDecimal` (an HBase numeric's infinities and NaN: `Double`, which such a column takes back: [`numeric_arg`]) |
//! | `double[] {lat, lon}` | `Geo` | `double[]` |
//! | `List` for a `list<T>` field | a list, element by element ([`lexikey::frontend::host::list_value`]; its text `"[1, 2]"` as a `String`) | `List<Object>` of the elements' classes |
//! | `fdb-tuple` nested tuple | — | `List<Object>` |
//!
//! A plain value given to `Lexikey.encodeText`/`encodeBytes` takes the
//! type [`KeySpec::plain_type`] gives its `Arg` (`Long` → `i64`, `Double`
//! → `f64`, `String` → `str`, `Instant` → `ts`, …), except that Java's
//! narrower integer classes keep their width: `Integer` → `i32` (`int32`,
//! `integer`), `Short` and `Byte` → `i32` in the native formats, `int16`
//! / `int8` in `hbase-ordered`, `smallint` / `tinyint` in `phoenix`.

use lexikey::frontend::host::{Arg, ArgError, ArgKind, HostItem, Out, Want};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::profile::Profile;
use lexikey::frontend::spec::{Comp, KeySpec};

use crate::errors::{encode_err, Error};
use crate::wire::{Host, Writer};

// ---------------------------------------------------------------------------
// In: Java values to Args
// ---------------------------------------------------------------------------

/// The magnitude without leading zero bytes.
fn trim(mag: &[u8]) -> &[u8] {
    let first = mag.iter().position(|&b| b != 0).unwrap_or(mag.len());
    &mag[first..]
}

/// The [`Arg`] of a Java value (a `String` with a lone surrogate, a
/// `double[]` that is no point and any other class are `Other`: see
/// [`message`] for what is said about them).
pub(crate) fn arg<'a>(h: &Host<'a>) -> Arg<'a> {
    match *h {
        Host::Null => Arg::Null,
        Host::Str(s) => Arg::Str(s),
        Host::Long(v) => Arg::Int(v),
        Host::Int(v) => Arg::Int(v.into()),
        Host::Short(v) => Arg::Int(v.into()),
        Host::Byte(v) => Arg::Int(v.into()),
        Host::BigInt { neg, mag } => {
            let mag = trim(mag);
            let small = (mag.len() <= 8).then(|| {
                let m = mag.iter().fold(0u64, |a, &b| a << 8 | u64::from(b));
                if neg {
                    0i64.checked_sub_unsigned(m)
                } else {
                    i64::try_from(m).ok()
                }
            });
            match small.flatten() {
                Some(v) => Arg::Int(v),
                None => Arg::BigInt {
                    negative: neg,
                    magnitude: mag,
                },
            }
        }
        Host::Double(v) => Arg::F64(v),
        Host::Float(v) => Arg::F32(v),
        Host::Bool(b) => Arg::Bool(b),
        Host::Bytes(b) => Arg::Bytes(b),
        Host::Instant(secs, nanos) => Arg::Time { secs, nanos },
        Host::Uuid(u) => Arg::Uuid(u),
        Host::Decimal(t) => Arg::Decimal(t),
        Host::Doubles(b) => {
            let mut it = Host::doubles(b);
            match (it.next(), it.next(), it.next()) {
                (Some(lat), Some(lon), None) => Arg::Geo(lat, lon),
                _ => Arg::Other,
            }
        }
        Host::Versionstamp(b) => Arg::Versionstamp(b),
        Host::BadStr(_) | Host::Other(_) | Host::List(..) => Arg::Other,
    }
}

/// The [`Arg`] of a Java value for a column that is an HBase numeric: as
/// [`arg`], except that a non-finite `Double` or `Float` is the numeric's
/// infinity or NaN (which `BigDecimal`, Java's exact decimal, cannot hold;
/// decoding gives them back as `Double`s).
pub(crate) fn numeric_arg<'a>(h: &Host<'a>) -> Arg<'a> {
    let x = match *h {
        Host::Double(x) => x,
        Host::Float(x) => f64::from(x),
        _ => return arg(h),
    };
    if x.is_nan() {
        Arg::Decimal("NaN")
    } else if x == f64::INFINITY {
        Arg::Decimal("Infinity")
    } else if x == f64::NEG_INFINITY {
        Arg::Decimal("-Infinity")
    } else {
        arg(h)
    }
}

/// The column type Java's narrower integer classes take as plain values
/// (`None`: the core's plain rule for the value's `Arg`).
fn narrow_plain_type(fmt: KeyFormat, h: &Host<'_>) -> Option<&'static str> {
    let width = match h {
        Host::Int(_) => 32,
        Host::Short(_) => 16,
        Host::Byte(_) => 8,
        _ => return None,
    };
    Some(match (fmt, width) {
        (KeyFormat::Native(_), _) => "i32",
        (KeyFormat::Profile(Profile::Fdb), _) => "int",
        (KeyFormat::Profile(Profile::Hbase), 32) => "int32",
        (KeyFormat::Profile(Profile::Hbase), 16) => "int16",
        (KeyFormat::Profile(Profile::Hbase), _) => "int8",
        (KeyFormat::Profile(Profile::Phoenix), 32) => "integer",
        (KeyFormat::Profile(Profile::Phoenix), 16) => "smallint",
        (KeyFormat::Profile(Profile::Phoenix), _) => "tinyint",
    })
}

/// One component given to `Lexikey.encodeText`/`encodeBytes`: a component
/// string (a `String` holding `:`, or a profile's bare type) parsed by the
/// core, or a plain value typed by its class ([`KeySpec::arg`]; Java's
/// narrower integers keep their width).
pub(crate) fn plain(spec: &KeySpec, h: &Host<'_>) -> Result<Comp, ArgError> {
    plain_at(spec, h, 0)
}

/// [`plain`] at nesting level `depth`: a `List` is a nested tuple of
/// components ([`KeySpec::nested`] bounds the depth and refuses it outside
/// the `fdb-tuple` format).
fn plain_at(spec: &KeySpec, h: &Host<'_>, depth: usize) -> Result<Comp, ArgError> {
    if let Host::List(n, cells) = h {
        let mut r = crate::wire::Reader::new(cells);
        return spec.nested(depth, 0..*n, |i, d| {
            let h = r
                .cell()
                .map_err(|_| ArgError::Invalid("lexikey: malformed List cells from Java".into()))?;
            plain_at(spec, &h, d).map_err(|e| match h {
                // A list's own error is named once, at the top.
                Host::List(..) => e,
                _ => ArgError::Invalid(format!(
                    "nested element {} ({}): {}",
                    i + 1,
                    describe(&h),
                    message(&e, &h)
                )),
            })
        });
    }
    match narrow_plain_type(spec.format(), h) {
        Some(ty) => spec.pair(ty, arg(h)),
        None => spec.arg(arg(h)),
    }
}

/// A Java value as a `list<T>` field sees it ([`list_value`]): a `List`
/// is a list of elements, each converted by [`arg`] and its errors worded
/// by [`message`].
///
/// [`list_value`]: lexikey::frontend::host::list_value
impl<'a> HostItem for Host<'a> {
    type Error = Error;

    fn is_null(&self) -> bool {
        matches!(self, Host::Null)
    }

    fn elements(&self) -> Result<Option<Vec<Host<'a>>>, Error> {
        let Host::List(n, cells) = *self else {
            return Ok(None);
        };
        let mut r = crate::wire::Reader::new(cells);
        Ok(Some((0..n).map(|_| r.cell()).collect::<Result<_, _>>()?))
    }

    fn with_arg<R>(&self, _want: Want, f: impl FnOnce(Arg<'_>) -> R) -> Result<R, Error> {
        Ok(f(arg(self)))
    }

    fn message(&self, e: &ArgError) -> String {
        message(e, self)
    }

    fn type_name(&self) -> String {
        class(self)
    }

    fn error(&self, message: String) -> Error {
        encode_err(message)
    }
}

// ---------------------------------------------------------------------------
// Errors, worded for Java
// ---------------------------------------------------------------------------

/// What a type takes, in Java's class names.
fn java_want(want: Want) -> &'static str {
    match want {
        Want::Int => "an integer (Long, Integer, Short, Byte or BigInteger)",
        Want::Float => "a Double or Float (or an integer)",
        Want::Bool => "a Boolean",
        Want::Str => "a String",
        Want::Bytes => "a byte[]",
        Want::Uuid => "a UUID",
        Want::Time => "an Instant (or integer milliseconds)",
        Want::Decimal => "a BigDecimal or an integer",
        Want::Geo => "a double[] {lat, lon}",
        Want::Null => "null",
    }
}

/// The Java class of a value, for messages.
pub(crate) fn class(h: &Host<'_>) -> String {
    match h {
        Host::Other(name) => (*name).to_string(),
        Host::Doubles(b) => format!("a double[] of {} numbers", b.len() / 8),
        other => other.java_type().to_string(),
    }
}

const SURROGATE: &str = "is not UTF-8";

/// The message of an [`ArgError`] about the Java value `h`.
pub(crate) fn message(e: &ArgError, h: &Host<'_>) -> String {
    if let Host::BadStr(at) = h {
        return format!("a String with a lone surrogate (char {at}) {SURROGATE}");
    }
    match e {
        ArgError::Expected { want, ty } => {
            format!("expected {} for {ty}, got {}", java_want(*want), class(h))
        }
        ArgError::SubMillisecond { ty, nanos } => format!(
            "{ty} holds whole milliseconds: this Instant has {nanos} nanoseconds more \
             (truncate it, e.g. instant.truncatedTo(ChronoUnit.MILLIS))"
        ),
        ArgError::TimeOutOfRange { ty } => format!("Instant out of range for {ty}"),
        ArgError::InexactDecimal { ty } => format!(
            "a {} is not an exact decimal ({ty}): give a BigDecimal (e.g. new \
             BigDecimal(\"10.50\")) or an integer",
            class(h)
        ),
        ArgError::PlainIntOutOfRange { value } => format!(
            "{value} is out of range for i64, the type of a plain integer: give \"u64:{value}\" \
             or \"dec:{value}\" for more"
        ),
        ArgError::NoPlainType { kind, format } => plain_message(*kind, *format, h),
        other => other.to_string(),
    }
}

/// Why a plain value has no type in `format`.
fn plain_message(kind: ArgKind, format: KeyFormat, h: &Host<'_>) -> String {
    match (format, kind) {
        (_, ArgKind::Other | ArgKind::Geo) => format!(
            "a component is a \"TYPE[.desc]:VALUE\" String, or a String, Long, Integer, Double, \
             Float, Boolean, byte[], Instant, UUID or BigDecimal value, not {}",
            class(h)
        ),
        (KeyFormat::Native(_), ArgKind::Null) => {
            "null has no type in the native formats (they have no null)".into()
        }
        (KeyFormat::Profile(Profile::Fdb), ArgKind::Time) => {
            "the FoundationDB tuple layer has no time type: give integer milliseconds".into()
        }
        (KeyFormat::Profile(Profile::Fdb), ArgKind::Decimal) => {
            "the FoundationDB tuple layer has no decimal type: give an integer or a Double".into()
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
            class(h)
        ),
    }
}

/// A plain value's description in messages: its class, and its text for
/// the short ones.
pub(crate) fn describe(h: &Host<'_>) -> String {
    match h {
        Host::Str(s) if s.len() <= 40 => format!("String {s:?}"),
        Host::Long(v) => format!("Long {v}"),
        Host::Int(v) => format!("Integer {v}"),
        other => class(other),
    }
}

// ---------------------------------------------------------------------------
// Out: decoded values to Java
// ---------------------------------------------------------------------------

/// The Java class of a decoded integer, by its column type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntClass {
    /// `Byte`: HBase `int8`, Phoenix `TINYINT`, `UNSIGNED_TINYINT`.
    Byte,
    /// `Short`: HBase `int16`, Phoenix `SMALLINT`, `UNSIGNED_SMALLINT`.
    Short,
    /// `Integer`: `i32`, HBase `int32`, Phoenix `INTEGER`, `UNSIGNED_INT`.
    Int,
    /// `Long`: `i64`, `u32`, HBase `int64`, Phoenix `BIGINT`,
    /// `UNSIGNED_LONG`, `fdb-tuple` integers (`BigInteger` beyond `long`).
    Long,
    /// `BigInteger`: `u64` and `vu64` (every value, so that the class is the type's).
    BigInteger,
}

impl IntClass {
    /// The class of a column type label (`i32`, `int8.desc`,
    /// `unsigned_int`, `int`).
    pub(crate) fn of_label(label: &str) -> IntClass {
        let base = label.split('.').next().unwrap_or(label);
        match base {
            "i32" | "int32" | "integer" | "unsigned_int" => IntClass::Int,
            "int16" | "smallint" | "unsigned_smallint" => IntClass::Short,
            "int8" | "tinyint" | "unsigned_tinyint" => IntClass::Byte,
            "u64" | "vu64" => IntClass::BigInteger,
            _ => IntClass::Long,
        }
    }
}

/// Writes a decoded value as the Java object of its column (`class`: for
/// integers).
pub(crate) fn write_out(w: &mut Writer, class: IntClass, v: &Out<'_>) {
    match v {
        Out::Null => w.null(),
        Out::Bool(b) => w.bool(*b),
        Out::Int(x) => match class {
            // The column type bounds the value: the casts are exact.
            IntClass::Byte => w.byte(*x as i8),
            IntClass::Short => w.short(*x as i16),
            IntClass::Int => w.int(*x as i32),
            IntClass::Long => w.long(*x),
            IntClass::BigInteger => w.bigint(*x < 0, &x.unsigned_abs().to_be_bytes()),
        },
        Out::U64(x) => w.bigint(false, &x.to_be_bytes()),
        Out::BigInt(i) => w.bigint(i.is_negative(), i.magnitude()),
        Out::F64(x) => w.double(*x),
        Out::F32(x) => w.float(*x),
        Out::Str(s) => w.str(s),
        Out::Bytes(b) => w.bytes(b),
        Out::Uuid(u) => w.uuid(*u),
        Out::Time { secs, nanos } => w.instant(*secs, *nanos),
        Out::Decimal(t) => match t.as_str() {
            // BigDecimal has no infinities nor NaN (HBase numerics do).
            "inf" => w.double(f64::INFINITY),
            "-inf" => w.double(f64::NEG_INFINITY),
            "NaN" => w.double(f64::NAN),
            t => w.decimal(t),
        },
        Out::Geo(lat, lon) => w.doubles(&[*lat, *lon]),
        Out::Versionstamp(b) => w.versionstamp(b),
        Out::Nested(items) => {
            w.list(items.len());
            for (label, v) in items {
                write_out(w, IntClass::of_label(label), v);
            }
        }
        Out::List(items) => {
            // A list's elements take its element type's class.
            w.list(items.len());
            for v in items {
                write_out(w, class, v);
            }
        }
    }
}
