//! Host values to typed components, with no text in between: the one set
//! of rules by which a binding (Python, Java) turns its own values into
//! lexikey components and keys, and decoded keys back into values.
//!
//! A binding maps each of its values to an [`Arg`] — a host-neutral view
//! (a string, an integer, a float, an instant, an exact decimal as text,
//! …) that borrows the host's bytes where it can — and the library decides,
//! here and once, which argument a column type takes and how it becomes a
//! value of that type: which integers fit, how a float becomes an `f32`
//! (NaN payloads kept where the format keeps them), that a `bool` is not an
//! integer, that a `ts` holds whole milliseconds, that a float is not an
//! exact decimal. Errors are [`ArgError`]s whose variants say what was
//! wrong, so that each host words them in its own terms ("expected an int
//! for i64, got bool" in Python, with the host's type name).
//!
//! The paths that use these rules are on [`KeySpec`](crate::frontend::spec::KeySpec):
//! [`KeySpec::typed`](crate::frontend::spec::KeySpec::typed) (a `(type, value)`
//! pair), [`KeySpec::arg`](crate::frontend::spec::KeySpec::arg) (a plain value or a
//! `TYPE:VALUE` text), [`KeySpec::field`](crate::frontend::spec::KeySpec::field) (the
//! value of a schema's field) and the bulk writer
//! [`RowEncoder`](crate::frontend::spec::RowEncoder), which writes a row of `Arg`s
//! straight into a caller's buffer with no allocation per row. Decoding
//! gives [`Out`] values, the same kinds of value the other way.
//!
//! | column type | `Arg`s taken |
//! |---|---|
//! | `str`, `text`, `varchar`, `char(n)` | `Str` |
//! | integers (`i64`, `u64`, `i32`, `u32`, FDB `int` of any size, HBase `int8`…`int64`, Phoenix integers) | `Int`, `BigInt`, range-checked (a `Bool` is refused) |
//! | floats | `F64`, `F32`, `Int` (rounded to the nearest float; an `f32` from an `F64` by Rust's `as`, except that FoundationDB's `f32` keeps a NaN's payload) |
//! | `bool`, `boolean` | `Bool` |
//! | `bytes`, blobs, `varbinary`, `binary(n)` | `Bytes` |
//! | FDB `versionstamp` | `Versionstamp`, or its 12 bytes as `Bytes` |
//! | `ts`, Phoenix `date`/`time` | `Int` (milliseconds), `Time` holding whole milliseconds; Phoenix also a `Str` (RFC 3339) |
//! | Phoenix `timestamp` | `Int` (milliseconds), `Time` (to the nanosecond), `Str` |
//! | `uuid`, `uuid7` (a version 7 only), `ulid` | `Uuid`; `uuid7` and `ulid` also their text as a `Str` |
//! | `dec`, HBase `numeric`, Phoenix `decimal` | `Decimal` (exact text), `Int`, `BigInt` (an `F64` is refused: not exact) |
//! | `geo` | `Geo`, or its `LAT,LON` text as a `Str` |
//!
//! In the interop profiles `Null` is a null of any column (FoundationDB
//! writes null whatever the type named; HBase and Phoenix refuse it in
//! fixed-width columns when the key is written). In the native formats
//! `Null` is the null of a nullable column (`TYPE?`, see
//! [`crate::format::null`]) and refused in any other.
//!
//! ```
//! use lexikey::frontend::host::Arg;
//! use lexikey::frontend::key_format::KeyFormat;
//! use lexikey::frontend::spec::KeySpec;
//!
//! // A schema, and rows of host values written straight into a buffer.
//! let spec = KeySpec::new(KeyFormat::parse("hex")?).with_schema("str,i64.desc,ts")?;
//! let mut enc = spec.encoder()?;
//! let mut key = Vec::new();
//! enc.encode(&[Arg::Str("event"), Arg::Int(5), Arg::Time { secs: 1_714_564_800, nanos: 0 }], &mut key)?;
//! assert_eq!(key, b"event#L7FFFFFFFFFFFFFFA#t8000018F34069E00");
//!
//! // The same rules for one component: an i32 out of range is refused.
//! let err = spec.typed(&spec.col_type("i32")?, Arg::Int(1 << 40)).unwrap_err();
//! assert_eq!(err.to_string(), "1099511627776 is out of range for i32");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;
use std::fmt;

use crate::frontend::key_format::KeyFormat;
use crate::frontend::native::{Col, GeoOpts, Kind};
use crate::frontend::profile::Profile;
use crate::interop::{fdb, hbase, phoenix};
use crate::kinds::timeid::is_uuid7;
use crate::value::big_decimal::Dec;
use crate::value::literal;
use crate::value::{ParseError, Type, Value};

// ---------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------

/// A host value, as a binding sees it: what a Python or Java value is,
/// before any column type is applied. Strings and bytes are borrowed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arg<'a> {
    /// No value (`None`, `null`): a null in the interop profiles.
    Null,
    /// A boolean (never an integer, whatever the host says).
    Bool(bool),
    /// An integer that fits an `i64`.
    Int(i64),
    /// An integer of any size (beyond `i64`): its sign and big-endian
    /// magnitude (leading zero bytes allowed; zero is an empty magnitude).
    BigInt {
        /// Whether it is below zero.
        negative: bool,
        /// The magnitude, big-endian.
        magnitude: &'a [u8],
    },
    /// A 64-bit float (Python `float`, Java `Double`).
    F64(f64),
    /// A 32-bit float (Java `Float`).
    F32(f32),
    /// A string.
    Str(&'a str),
    /// Bytes.
    Bytes(&'a [u8]),
    /// A UUID as a 128-bit big-endian number.
    Uuid(u128),
    /// An instant: seconds since 1970-01-01T00:00:00Z (negative before)
    /// and nanoseconds after that second (below 1,000,000,000).
    Time {
        /// Whole seconds since 1970 (floored).
        secs: i64,
        /// Nanoseconds, 0 to 999,999,999.
        nanos: u32,
    },
    /// An exact decimal as text (Python `str(Decimal)`, Java
    /// `BigDecimal.toString()`): `-12.50`, `1E+3`, also `NaN` and
    /// `Infinity` where the type has them.
    Decimal(&'a str),
    /// A point: latitude and longitude in degrees.
    Geo(f64, f64),
    /// A FoundationDB versionstamp (Python and Java `lexikey.Versionstamp`):
    /// its 12 bytes, an incomplete one's transaction version all `FF`.
    Versionstamp([u8; 12]),
    /// A whole component `TYPE[.desc]:VALUE` in the format's syntax (or an
    /// interop profile's bare type: a null).
    Component(&'a str),
    /// A host value of no kind above (the host names it in messages).
    Other,
}

/// The kind of an [`Arg`], for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArgKind {
    /// [`Arg::Null`].
    Null,
    /// [`Arg::Bool`].
    Bool,
    /// [`Arg::Int`], [`Arg::BigInt`].
    Int,
    /// [`Arg::F64`], [`Arg::F32`].
    Float,
    /// [`Arg::Str`].
    Str,
    /// [`Arg::Bytes`].
    Bytes,
    /// [`Arg::Uuid`].
    Uuid,
    /// [`Arg::Time`].
    Time,
    /// [`Arg::Decimal`].
    Decimal,
    /// [`Arg::Geo`].
    Geo,
    /// [`Arg::Versionstamp`].
    Versionstamp,
    /// [`Arg::Component`].
    Component,
    /// [`Arg::Other`].
    Other,
}

impl ArgKind {
    /// A short name: `int`, `float`, `str`, `time`, ….
    pub const fn name(self) -> &'static str {
        match self {
            ArgKind::Null => "null",
            ArgKind::Bool => "bool",
            ArgKind::Int => "int",
            ArgKind::Float => "float",
            ArgKind::Str => "str",
            ArgKind::Bytes => "bytes",
            ArgKind::Uuid => "uuid",
            ArgKind::Time => "time",
            ArgKind::Decimal => "decimal",
            ArgKind::Geo => "geo",
            ArgKind::Versionstamp => "versionstamp",
            ArgKind::Component => "component",
            ArgKind::Other => "value",
        }
    }
}

impl Arg<'_> {
    /// The argument's kind.
    pub const fn kind(&self) -> ArgKind {
        match self {
            Arg::Null => ArgKind::Null,
            Arg::Bool(_) => ArgKind::Bool,
            Arg::Int(_) | Arg::BigInt { .. } => ArgKind::Int,
            Arg::F64(_) | Arg::F32(_) => ArgKind::Float,
            Arg::Str(_) => ArgKind::Str,
            Arg::Bytes(_) => ArgKind::Bytes,
            Arg::Uuid(_) => ArgKind::Uuid,
            Arg::Time { .. } => ArgKind::Time,
            Arg::Decimal(_) => ArgKind::Decimal,
            Arg::Geo(..) => ArgKind::Geo,
            Arg::Versionstamp(_) => ArgKind::Versionstamp,
            Arg::Component(_) => ArgKind::Component,
            Arg::Other => ArgKind::Other,
        }
    }
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// What a column type takes, for [`ArgError::Expected`]: each host names
/// its own types for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Want {
    /// An integer.
    Int,
    /// A float (or an integer).
    Float,
    /// A boolean.
    Bool,
    /// A string.
    Str,
    /// Bytes.
    Bytes,
    /// A UUID.
    Uuid,
    /// An instant (or integer milliseconds).
    Time,
    /// An exact decimal (or an integer).
    Decimal,
    /// A `(lat, lon)` point.
    Geo,
    /// Null (the FoundationDB `null` type).
    Null,
}

impl Want {
    /// The host-neutral words for it (`an integer`, `a UUID`, …).
    pub const fn describe(self) -> &'static str {
        match self {
            Want::Int => "an integer",
            Want::Float => "a float",
            Want::Bool => "a boolean",
            Want::Str => "a string",
            Want::Bytes => "bytes",
            Want::Uuid => "a UUID",
            Want::Time => "an instant",
            Want::Decimal => "an exact decimal or an integer",
            Want::Geo => "a (lat, lon) point",
            Want::Null => "null",
        }
    }
}

/// Why a host value is not a value of a column type. The variants carry
/// what a host needs to word the message its own way; [`fmt::Display`]
/// gives a host-neutral line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArgError {
    /// The value is of another kind than the type takes (a host adds the
    /// name of the value's own type).
    #[error("expected {} for {ty}", .want.describe())]
    Expected {
        /// What the type takes.
        want: Want,
        /// The type, as written (`i64`, `bigint.desc`).
        ty: String,
    },
    /// An integer outside the type's range.
    #[error("{value} is out of range for {ty}")]
    OutOfRange {
        /// The integer in decimal (at most 64 digits, then `…(N digits)`).
        value: String,
        /// The type.
        ty: String,
    },
    /// An integer too large for a float type.
    #[error("int out of range for {ty}")]
    FloatOverflow {
        /// The type.
        ty: String,
    },
    /// An instant with a part below the millisecond, for a type that holds
    /// whole milliseconds.
    #[error("{ty} holds whole milliseconds: this time has {nanos} nanoseconds more (truncate it)")]
    SubMillisecond {
        /// The type.
        ty: String,
        /// The nanoseconds past the millisecond (1 to 999,999).
        nanos: u32,
    },
    /// An instant outside the type's range.
    #[error("time out of range for {ty}")]
    TimeOutOfRange {
        /// The type.
        ty: String,
    },
    /// A float given for an exact decimal.
    #[error("a float is not an exact decimal ({ty}): give an exact decimal or an integer")]
    InexactDecimal {
        /// The type.
        ty: String,
    },
    /// A plain value (no type given) of a kind the format has no type for.
    #[error("a plain {} value has no {format} type: give its type", .kind.name())]
    NoPlainType {
        /// The value's kind.
        kind: ArgKind,
        /// The format.
        format: KeyFormat,
    },
    /// A plain integer beyond `i64`, the type of a plain integer in the
    /// native formats.
    #[error("{value} is out of range for i64, the type of a plain integer: give it as u64 or dec for more")]
    PlainIntOutOfRange {
        /// The integer in decimal (capped as in [`ArgError::OutOfRange`]).
        value: String,
    },
    /// A value of the right kind that is not a value of the type, in the
    /// type's own words (`invalid int8 value "300"`).
    #[error("{0}")]
    Invalid(String),
    /// A component text or type name that does not parse.
    #[error("{0}")]
    Parse(#[from] ParseError),
}

impl ArgError {
    fn expected(want: Want, ty: impl fmt::Display) -> ArgError {
        ArgError::Expected {
            want,
            ty: ty.to_string(),
        }
    }
}

impl From<crate::EncodeError> for ArgError {
    fn from(e: crate::EncodeError) -> Self {
        ArgError::Invalid(e.to_string())
    }
}

// ---------------------------------------------------------------------------
// Column types
// ---------------------------------------------------------------------------

/// An `fdb-tuple` element type as a schema or a `(type, value)` pair names
/// it ([`crate::frontend::profile::FDB_TYPES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FdbType {
    /// `null`.
    Null,
    /// `bytes`.
    Bytes,
    /// `str`.
    Str,
    /// `int`: any size.
    Int,
    /// `i64`: an `int` in `i64`'s range.
    I64,
    /// `u64`.
    U64,
    /// `i32`.
    I32,
    /// `u32`.
    U32,
    /// `f32`.
    F32,
    /// `float` (`f32`).
    Float,
    /// `f64`.
    F64,
    /// `double` (`f64`).
    Double,
    /// `bool`.
    Bool,
    /// `uuid`.
    Uuid,
    /// `versionstamp`: 12 bytes.
    Versionstamp,
}

impl FdbType {
    /// Every type, in [`crate::frontend::profile::FDB_TYPES`] order.
    pub const ALL: [FdbType; 15] = [
        FdbType::Null,
        FdbType::Bytes,
        FdbType::Str,
        FdbType::Int,
        FdbType::I64,
        FdbType::U64,
        FdbType::I32,
        FdbType::U32,
        FdbType::F32,
        FdbType::Float,
        FdbType::F64,
        FdbType::Double,
        FdbType::Bool,
        FdbType::Uuid,
        FdbType::Versionstamp,
    ];

    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            FdbType::Null => "null",
            FdbType::Bytes => "bytes",
            FdbType::Str => "str",
            FdbType::Int => "int",
            FdbType::I64 => "i64",
            FdbType::U64 => "u64",
            FdbType::I32 => "i32",
            FdbType::U32 => "u32",
            FdbType::F32 => "f32",
            FdbType::Float => "float",
            FdbType::F64 => "f64",
            FdbType::Double => "double",
            FdbType::Bool => "bool",
            FdbType::Uuid => "uuid",
            FdbType::Versionstamp => "versionstamp",
        }
    }

    /// The type named `name`.
    pub fn from_name(name: &str) -> Option<FdbType> {
        FdbType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The range of a range-checked integer type.
    const fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            FdbType::I64 => (i64::MIN as i128, i64::MAX as i128),
            FdbType::U64 => (0, u64::MAX as i128),
            FdbType::I32 => (i32::MIN as i128, i32::MAX as i128),
            FdbType::U32 => (0, u32::MAX as i128),
            _ => return None,
        })
    }
}

/// The type of one component in a format: a native column (a core type or
/// a kind, with its direction and width), an `fdb-tuple` element type, an
/// `hbase-ordered` field or a Phoenix column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColType {
    /// A native column.
    Native(Col),
    /// An `fdb-tuple` element type.
    Fdb(FdbType),
    /// An `hbase-ordered` field.
    Hbase(hbase::Field),
    /// A Phoenix primary-key column.
    Phoenix(phoenix::Column),
}

impl ColType {
    /// Parses `TYPE[.desc]` in `format`'s syntax (no width applied).
    ///
    /// # Errors
    /// An unknown type or direction (an `fdb-tuple` type has none).
    pub fn parse(format: KeyFormat, spec: &str) -> Result<ColType, ParseError> {
        Ok(match format {
            KeyFormat::Native(_) => ColType::Native(Col::parse(spec)?),
            KeyFormat::Profile(Profile::Fdb) => ColType::Fdb(parse_fdb_type(spec)?),
            KeyFormat::Profile(Profile::Hbase) => ColType::Hbase(hbase::Field::parse(spec)?),
            KeyFormat::Profile(Profile::Phoenix) => ColType::Phoenix(phoenix::Column::parse(spec)?),
        })
    }

    /// The label of the type whose values this column's decoded values
    /// hold: a list's element type (`i32` for `list<list<i32>>?.desc`),
    /// else the column's own label. A binding picks the class of a decoded
    /// integer by it (Java's `Integer` for an `i32`, a JavaScript `number`).
    ///
    /// ```
    /// use lexikey::frontend::host::ColType;
    /// use lexikey::frontend::key_format::KeyFormat;
    /// let hex = KeyFormat::parse("hex")?;
    /// assert_eq!(ColType::parse(hex, "list<list<i32>>?.desc")?.value_label(), "i32");
    /// assert_eq!(ColType::parse(hex, "i32.desc")?.value_label(), "i32.desc");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value_label(&self) -> String {
        match self {
            ColType::Native(c) if c.field.list > 0 => c.field.ty.name().to_string(),
            other => other.to_string(),
        }
    }

    /// What the type takes, for messages.
    pub fn want(&self) -> Want {
        match self {
            ColType::Native(c) => match c.kind {
                Kind::Ulid | Kind::Uuid7 => Want::Uuid,
                Kind::Geo => Want::Geo,
                Kind::Core(t) => match t {
                    Type::Str => Want::Str,
                    Type::I64 | Type::U64 | Type::I32 | Type::U32 | Type::Vi64 | Type::Vu64 => {
                        Want::Int
                    }
                    Type::F64 | Type::F32 => Want::Float,
                    Type::Bool => Want::Bool,
                    Type::Bytes => Want::Bytes,
                    Type::Ts => Want::Time,
                    Type::Uuid => Want::Uuid,
                    Type::Dec => Want::Decimal,
                },
            },
            ColType::Fdb(t) => match t {
                FdbType::Null => Want::Null,
                FdbType::Bytes | FdbType::Versionstamp => Want::Bytes,
                FdbType::Str => Want::Str,
                FdbType::Int | FdbType::I64 | FdbType::U64 | FdbType::I32 | FdbType::U32 => {
                    Want::Int
                }
                FdbType::F32 | FdbType::Float | FdbType::F64 | FdbType::Double => Want::Float,
                FdbType::Bool => Want::Bool,
                FdbType::Uuid => Want::Uuid,
            },
            ColType::Hbase(f) => match f.kind {
                hbase::Kind::Int8
                | hbase::Kind::Int16
                | hbase::Kind::Int32
                | hbase::Kind::Int64 => Want::Int,
                hbase::Kind::Float32 | hbase::Kind::Float64 => Want::Float,
                hbase::Kind::Numeric => Want::Decimal,
                hbase::Kind::Text => Want::Str,
                hbase::Kind::BlobVar | hbase::Kind::BlobCopy => Want::Bytes,
            },
            ColType::Phoenix(c) => {
                use phoenix::Type as T;
                match c.ty {
                    T::Float | T::UnsignedFloat | T::Double | T::UnsignedDouble => Want::Float,
                    T::Boolean => Want::Bool,
                    T::Date
                    | T::Time
                    | T::UnsignedDate
                    | T::UnsignedTime
                    | T::Timestamp
                    | T::UnsignedTimestamp => Want::Time,
                    T::Varchar | T::Char(_) => Want::Str,
                    T::Varbinary | T::Binary(_) => Want::Bytes,
                    T::Decimal => Want::Decimal,
                    _ => Want::Int,
                }
            }
        }
    }
}

impl fmt::Display for ColType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ColType::Native(c) => c.fmt(f),
            ColType::Fdb(t) => f.write_str(t.name()),
            ColType::Hbase(h) => h.fmt(f),
            ColType::Phoenix(c) => c.fmt(f),
        }
    }
}

/// Parses an `fdb-tuple` type name as a schema or a pair gives it.
fn parse_fdb_type(n: &str) -> Result<FdbType, ParseError> {
    if n.ends_with(".desc") || n.ends_with(".asc") {
        return Err(ParseError::new(format!(
            "{n:?}: the FoundationDB tuple layer has no sort direction"
        )));
    }
    FdbType::from_name(n).ok_or_else(|| {
        ParseError::new(format!(
            "unknown fdb-tuple type {n:?}: expected one of {}",
            crate::frontend::profile::FDB_TYPES.join(", ")
        ))
    })
}

// ---------------------------------------------------------------------------
// Shared rules
// ---------------------------------------------------------------------------

/// The value of an integer argument: `Some(Some(v))` when it fits an
/// `i128`, `Some(None)` beyond, `None` for an argument that is no integer.
pub fn int_of(arg: Arg<'_>) -> Option<Option<i128>> {
    match arg {
        Arg::Int(v) => Some(Some(i128::from(v))),
        Arg::BigInt {
            negative,
            magnitude,
        } => {
            let first = magnitude
                .iter()
                .position(|&b| b != 0)
                .unwrap_or(magnitude.len());
            let m = &magnitude[first..];
            if m.len() > 16 {
                return Some(None);
            }
            let u = m.iter().fold(0u128, |a, &b| a << 8 | u128::from(b));
            Some(match (negative, u) {
                (false, u) => i128::try_from(u).ok(),
                (true, u) if u <= 1 << 127 => Some((u as i128).wrapping_neg()),
                (true, _) => None,
            })
        }
        _ => None,
    }
}

/// The decimal text of an integer argument (`None` for other arguments).
pub fn int_text(arg: Arg<'_>) -> Option<String> {
    match arg {
        Arg::Int(v) => Some(v.to_string()),
        Arg::BigInt {
            negative,
            magnitude,
        } => {
            let mut s = String::new();
            fdb::write_magnitude_decimal(negative, magnitude, &mut s);
            Some(s)
        }
        _ => None,
    }
}

/// An integer's text as messages show it: at most 64 digits, then
/// `…(N digits)`.
fn shown_int(arg: Arg<'_>) -> String {
    let s = int_text(arg).unwrap_or_default();
    if s.len() <= 64 {
        return s;
    }
    format!("{}…({} digits)", &s[..64], s.trim_start_matches('-').len())
}

/// The integer argument `arg` in `lo..=hi`, or the error of a value out of
/// range for `ty`; `None` for an argument that is no integer.
fn ranged(
    arg: Arg<'_>,
    lo: i128,
    hi: i128,
    ty: &dyn fmt::Display,
) -> Option<Result<i128, ArgError>> {
    Some(match int_of(arg)? {
        Some(v) if v >= lo && v <= hi => Ok(v),
        _ => Err(ArgError::OutOfRange {
            value: shown_int(arg),
            ty: ty.to_string(),
        }),
    })
}

/// A float argument (`F64`, `F32`, or an integer rounded to the nearest
/// `f64`) as an `f64`; `ty` names the type in errors.
///
/// # Errors
/// [`ArgError::Expected`] for another kind of argument,
/// [`ArgError::FloatOverflow`] for an integer beyond `f64`.
pub fn float_of(arg: Arg<'_>, ty: &str) -> Result<f64, ArgError> {
    float_in(arg, &ty)
}

/// [`float_of`], the type named by anything printable: formatted only for
/// an error, so that the profiles' row loops make no string per field.
fn float_in(arg: Arg<'_>, ty: &dyn fmt::Display) -> Result<f64, ArgError> {
    match arg {
        Arg::F64(x) => Ok(x),
        Arg::F32(x) => Ok(f64_of_f32(x)),
        Arg::Int(v) => Ok(v as f64),
        Arg::BigInt { .. } => {
            // Correctly rounded, as the hosts convert big integers.
            let x: f64 = int_text(arg)
                .and_then(|t| t.parse().ok())
                .unwrap_or(f64::INFINITY);
            if x.is_infinite() {
                return Err(ArgError::FloatOverflow { ty: ty.to_string() });
            }
            Ok(x)
        }
        _ => Err(ArgError::expected(Want::Float, ty)),
    }
}

/// An `f32` argument for an `f32` type, with NaN payloads kept: an `F64`
/// whose NaN payload fits the `f32`'s is narrowed bit for bit (an `as`
/// cast would quiet a signaling NaN), other values by `as`.
fn f32_keeping_nan(arg: Arg<'_>, ty: &dyn fmt::Display) -> Result<f32, ArgError> {
    match arg {
        Arg::F32(x) => Ok(x),
        _ => Ok(f32_of_f64_keeping_nan(float_in(arg, ty)?)),
    }
}

/// The `f32` of an `f64`, NaN payloads kept when they fit.
pub fn f32_of_f64_keeping_nan(x: f64) -> f32 {
    let b = x.to_bits();
    let exp = (b >> 52) & 0x7FF;
    let mant = b & ((1 << 52) - 1);
    if exp == 0x7FF && mant != 0 && mant & ((1 << 29) - 1) == 0 {
        let sign = ((b >> 63) as u32) << 31;
        return f32::from_bits(sign | 0x7F80_0000 | (mant >> 29) as u32);
    }
    x as f32
}

/// The `f64` holding an `f32`, NaN payloads kept (the inverse of
/// [`f32_of_f64_keeping_nan`] on `f32` values).
pub fn f64_of_f32(x: f32) -> f64 {
    let b = x.to_bits();
    if x.is_nan() {
        let sign = u64::from(b >> 31) << 63;
        let mant = u64::from(b & 0x7F_FFFF) << 29;
        return f64::from_bits(sign | (0x7FF << 52) | mant);
    }
    f64::from(x)
}

/// A float for a profile that writes one canonical NaN (HBase, Phoenix).
fn canonical_f64(arg: Arg<'_>, ty: &dyn fmt::Display) -> Result<f64, ArgError> {
    let x = float_in(arg, ty)?;
    Ok(if x.is_nan() { f64::NAN } else { x })
}

/// [`canonical_f64`] as an `f32`.
fn canonical_f32(arg: Arg<'_>, ty: &dyn fmt::Display) -> Result<f32, ArgError> {
    let x = match arg {
        Arg::F32(x) => x,
        _ => float_in(arg, ty)? as f32,
    };
    Ok(if x.is_nan() { f32::NAN } else { x })
}

/// Milliseconds since 1970 of an instant and the nanoseconds past them.
fn millis_of(secs: i64, nanos: u32, ty: &dyn fmt::Display) -> Result<(i64, u32), ArgError> {
    // In i64 when it fits (every instant of years ±292 million); in i128
    // at the edges, where the sum may fit when the product does not.
    let ms = secs
        .checked_mul(1000)
        .and_then(|ms| ms.checked_add(i64::from(nanos / 1_000_000)));
    if let Some(ms) = ms {
        return Ok((ms, nanos % 1_000_000));
    }
    let ns = i128::from(secs) * 1_000_000_000 + i128::from(nanos);
    let ms = i64::try_from(ns.div_euclid(1_000_000))
        .map_err(|_| ArgError::TimeOutOfRange { ty: ty.to_string() })?;
    Ok((ms, ns.rem_euclid(1_000_000) as u32))
}

/// Whole milliseconds: integer milliseconds, or an instant holding whole
/// milliseconds; `None` for other arguments.
fn whole_millis(arg: Arg<'_>, ty: &dyn fmt::Display) -> Option<Result<i64, ArgError>> {
    Some(match arg {
        Arg::Int(ms) => Ok(ms),
        Arg::BigInt { .. } => Err(ArgError::OutOfRange {
            value: shown_int(arg),
            ty: ty.to_string(),
        }),
        Arg::Time { secs, nanos } => millis_of(secs, nanos, ty).and_then(|(ms, rest)| {
            if rest != 0 {
                Err(ArgError::SubMillisecond {
                    ty: ty.to_string(),
                    nanos: rest,
                })
            } else {
                Ok(ms)
            }
        }),
        _ => return None,
    })
}

/// The exact decimal text of a decimal or integer argument (`None` for
/// other kinds; the error of a float).
fn decimal_text<'a>(arg: Arg<'a>, ty: &dyn fmt::Display) -> Result<Cow<'a, str>, ArgError> {
    match arg {
        Arg::Decimal(t) => Ok(Cow::Borrowed(t)),
        Arg::Int(_) | Arg::BigInt { .. } => Ok(Cow::Owned(int_text(arg).unwrap_or_default())),
        Arg::F64(_) | Arg::F32(_) => Err(ArgError::InexactDecimal { ty: ty.to_string() }),
        _ => Err(ArgError::expected(Want::Decimal, ty)),
    }
}

fn bad(e: impl fmt::Display) -> ArgError {
    ArgError::Invalid(e.to_string())
}

// ---------------------------------------------------------------------------
// Native formats
// ---------------------------------------------------------------------------

/// The value of a native column holding `arg` (strings and bytes
/// borrowed).
///
/// # Errors
/// An argument the column does not take, or not a value of its type.
pub fn native_value<'a>(col: &Col, arg: Arg<'a>, geo: &GeoOpts) -> Result<Value<'a>, ArgError> {
    if let (Arg::Null, Some(_)) = (arg, col.field.nulls) {
        // The null of a nullable column (`TYPE?`).
        return Ok(Value::Null(col.field.ty));
    }
    if col.field.list > 0 {
        // A list column: its text (`[1, 2]`); a host list is converted
        // element by element by the binding ([`list_element`]).
        return match arg {
            Arg::Str(text) => col
                .parse_value(text, geo)
                .map(Value::into_owned)
                .map_err(bad),
            _ => Err(ArgError::Invalid(format!(
                "a {col} field takes a list: a host list where the binding takes one \
                 (a Python list, a Java List, a Node array, an Arrow List column), or its \
                 text [ELEMENT, ...]"
            ))),
        };
    }
    match col.kind {
        Kind::Core(ty) => core_value(ty, arg),
        kind => match arg {
            Arg::Str(text) => col
                .parse_value(text, geo)
                .map(Value::into_owned)
                .map_err(bad),
            Arg::Uuid(u) if kind == Kind::Ulid => Ok(Value::Uuid(u)),
            Arg::Uuid(u) if kind == Kind::Uuid7 => {
                if is_uuid7(u) {
                    Ok(Value::Uuid(u))
                } else {
                    // The message of the UUID's text, which says why.
                    let mut s = String::new();
                    literal::format_uuid(u, &mut s);
                    Err(col
                        .parse_value(&s, geo)
                        .err()
                        .map_or_else(|| bad("not a UUIDv7"), bad))
                }
            }
            Arg::Geo(lat, lon) if kind == Kind::Geo => geo
                .grid
                .encode(lat, lon)
                .map(Value::U64)
                .map_err(|e| bad(format!("invalid geo {:?}: {e}", format!("{lat:?},{lon:?}")))),
            _ => Err(ArgError::expected(
                ColType::Native(*col).want(),
                kind.name(),
            )),
        },
    }
}

/// The column of the elements of list column `col` (`list<…>`): one
/// level less deep, ascending, not nullable (elements are not nullable;
/// the list's direction and `?` apply to the whole list). A binding turns
/// a host list into a [`Value::List`] of `col.field.ty` whose elements are
/// [`native_value`]s of this column (or, nested, lists of it).
///
/// ```
/// use lexikey::frontend::host::list_element;
/// use lexikey::frontend::native::Col;
/// let col = Col::parse("list<list<i64>>?.desc")?;
/// assert_eq!(list_element(&col).to_string(), "list<i64>");
/// assert_eq!(list_element(&list_element(&col)).to_string(), "i64");
/// # Ok::<(), lexikey::ParseError>(())
/// ```
pub fn list_element(col: &Col) -> Col {
    Col::core(crate::Field {
        list: col.field.list.saturating_sub(1),
        ..crate::Field::asc(col.field.ty)
    })
}

/// A host language's value as a list field sees it: what a binding tells
/// [`list_value`] about one of its values, so that the walk from a host
/// list to a [`Value::List`] — the element loop, the null of a nullable
/// list, the element index in errors, nested lists one schema level at a
/// time — is written once for every binding.
pub trait HostItem: Sized {
    /// The binding's error (its exception).
    type Error;

    /// Whether the value is the host's null (`None`, `null`).
    fn is_null(&self) -> bool;

    /// The elements of the value when it is a host list (a Python `list`
    /// or `tuple`, a Java `List`, a JavaScript array), else `None`.
    ///
    /// # Errors
    /// The binding's, reading the list.
    fn elements(&self) -> Result<Option<Vec<Self>>, Self::Error>;

    /// Calls `f` with the value's [`Arg`] for a column that wants `want`.
    ///
    /// # Errors
    /// The binding's, converting the value.
    fn with_arg<R>(&self, want: Want, f: impl FnOnce(Arg<'_>) -> R) -> Result<R, Self::Error>;

    /// The message of `e` about this value, in the host's words.
    fn message(&self, e: &ArgError) -> String;

    /// The value's type in the host's words (`NoneType`, `Integer`, `a
    /// string`), for `a list<i64> field takes a list, not …`.
    fn type_name(&self) -> String;

    /// The binding's error of `message` about this value.
    fn error(&self, message: String) -> Self::Error;
}

/// The value of list column `col` (`list<…>`) holding host value `h`: a
/// host list whose elements are values of [`list_element`]`(col)` (each
/// converted by [`native_value`], or, nested, by this function one level
/// down, so that the depth is the schema's), or the host's null for a
/// nullable list. Messages: `a {col} field takes a list, not {type}` for
/// another value (a null where the list is not nullable, or nested),
/// `element {i}: {why}` (zero-based) for an element its column does not
/// take (a null element included: elements are not nullable).
///
/// ```
/// use lexikey::frontend::host::{list_value, Arg, ArgError, HostItem, Want};
/// use lexikey::frontend::native::{Col, GeoOpts};
/// use lexikey::{Type, Value};
///
/// // A toy host whose values are integers, nulls and lists.
/// #[derive(Clone)]
/// enum Toy { Null, Int(i64), List(Vec<Toy>) }
/// impl HostItem for Toy {
///     type Error = String;
///     fn is_null(&self) -> bool { matches!(self, Toy::Null) }
///     fn elements(&self) -> Result<Option<Vec<Toy>>, String> {
///         Ok(match self { Toy::List(v) => Some(v.clone()), _ => None })
///     }
///     fn with_arg<R>(&self, _: Want, f: impl FnOnce(Arg<'_>) -> R) -> Result<R, String> {
///         Ok(f(match self { Toy::Int(v) => Arg::Int(*v), Toy::Null => Arg::Null, _ => Arg::Other }))
///     }
///     fn message(&self, e: &ArgError) -> String { e.to_string() }
///     fn type_name(&self) -> String { "toy".into() }
///     fn error(&self, message: String) -> String { message }
/// }
///
/// let geo = GeoOpts::new(None, None)?;
/// let col = Col::parse("list<i64>?")?;
/// let v = list_value(&col, &Toy::List(vec![Toy::Int(1), Toy::Int(2)]), &geo)?;
/// assert_eq!(v, Value::list(Type::I64, vec![Value::I64(1), Value::I64(2)]));
/// assert_eq!(list_value(&col, &Toy::Null, &geo)?, Value::Null(Type::I64));
/// let e = list_value(&col, &Toy::List(vec![Toy::Int(1), Toy::Null]), &geo).unwrap_err();
/// assert_eq!(e, "element 1: expected an integer for i64");
/// assert_eq!(list_value(&col, &Toy::Int(1), &geo).unwrap_err(), "a list<i64>? field takes a list, not toy");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As above, in the binding's error ([`HostItem::error`]); the binding's
/// own errors reading the list or an element.
pub fn list_value<H: HostItem>(
    col: &Col,
    h: &H,
    geo: &GeoOpts,
) -> Result<Value<'static>, H::Error> {
    if col.field.nulls.is_some() && h.is_null() {
        return Ok(Value::Null(col.field.ty));
    }
    let Some(items) = h.elements()? else {
        return Err(h.error(format!("a {col} field takes a list, not {}", h.type_name())));
    };
    let elem = list_element(col);
    let want = ColType::Native(elem).want();
    let mut values = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        values.push(if elem.field.list > 0 {
            list_value(&elem, item, geo)?
        } else {
            item.with_arg(want, |a| native_value(&elem, a, geo).map(Value::into_owned))?
                .map_err(|e| item.error(format!("element {i}: {}", item.message(&e))))?
        });
    }
    Ok(Value::list(col.field.ty, values))
}

/// The message of a host list given where no `list<…>` column says its
/// element type (a plain value in a native format, or a scalar column).
pub const LIST_NEEDS_SCHEMA: &str = "a list is the value of a list<TYPE> field: give a schema \
     with list<TYPE> (e.g. list<i64>); a list alone has no element type (an empty one least of all)";

/// The value of core type `ty` for the arguments that take it with no
/// check that can fail (an `Int` in the type's range, an `F64` for a
/// float, an instant of whole milliseconds, a value of the type's own
/// kind); `None` for every other argument, which [`core_value`] converts
/// or refuses. The bulk encoder's first try, and `core_value`'s.
#[inline(always)]
pub(crate) fn plain_value(ty: Type, arg: Arg<'_>) -> Option<Value<'_>> {
    Some(match (ty, arg) {
        (Type::Str, Arg::Str(s)) => Value::Str(Cow::Borrowed(s)),
        (Type::I64, Arg::Int(v)) => Value::I64(v),
        (Type::U64, Arg::Int(v)) if v >= 0 => Value::U64(v as u64),
        (Type::Vi64, Arg::Int(v)) => Value::Vi64(v),
        (Type::Vu64, Arg::Int(v)) if v >= 0 => Value::Vu64(v as u64),
        (Type::I32, Arg::Int(v)) if i32::try_from(v).is_ok() => Value::I32(v as i32),
        (Type::U32, Arg::Int(v)) if u32::try_from(v).is_ok() => Value::U32(v as u32),
        (Type::F64, Arg::F64(x)) => Value::F64(x),
        (Type::F32, Arg::F32(x)) => Value::F32(x),
        (Type::F32, Arg::F64(x)) => Value::F32(x as f32),
        (Type::Bool, Arg::Bool(b)) => Value::Bool(b),
        (Type::Bytes, Arg::Bytes(b)) => Value::Bytes(Cow::Borrowed(b)),
        (Type::Uuid, Arg::Uuid(u)) => Value::Uuid(u),
        (Type::Ts, Arg::Int(ms)) => Value::Ts(ms),
        (Type::Ts, Arg::Time { secs, nanos }) if nanos % 1_000_000 == 0 => Value::Ts(
            secs.checked_mul(1000)?
                .checked_add(i64::from(nanos / 1_000_000))?,
        ),
        _ => return None,
    })
}

/// The value of a core type holding `arg`.
fn core_value(ty: Type, arg: Arg<'_>) -> Result<Value<'_>, ArgError> {
    if let Some(v) = plain_value(ty, arg) {
        return Ok(v);
    }
    let name = ty.name();
    let want = |w| ArgError::expected(w, name);
    macro_rules! int {
        ($t:ty, $v:ident) => {
            match ranged(arg, <$t>::MIN as i128, <$t>::MAX as i128, &name) {
                Some(r) => Value::$v(r? as $t),
                None => return Err(want(Want::Int)),
            }
        };
    }
    Ok(match ty {
        // What `plain_value` did not take.
        Type::Str => return Err(want(Want::Str)),
        Type::I64 => int!(i64, I64),
        Type::U64 => int!(u64, U64),
        Type::Vi64 => int!(i64, Vi64),
        Type::Vu64 => int!(u64, Vu64),
        Type::I32 => int!(i32, I32),
        Type::U32 => int!(u32, U32),
        Type::F64 => Value::F64(float_of(arg, name)?),
        Type::F32 => Value::F32(float_of(arg, name)? as f32),
        Type::Bool => return Err(want(Want::Bool)),
        Type::Bytes => return Err(want(Want::Bytes)),
        Type::Ts => match whole_millis(arg, &name) {
            Some(ms) => Value::Ts(ms?),
            None => return Err(want(Want::Time)),
        },
        Type::Uuid => match arg {
            Arg::Uuid(u) => Value::Uuid(u),
            _ => return Err(want(Want::Uuid)),
        },
        Type::Dec => {
            let text = decimal_text(arg, &name)?;
            Value::Dec(Dec::parse(&text).map_err(|e| bad(format!("dec: {e}")))?)
        }
    })
}

// ---------------------------------------------------------------------------
// fdb-tuple
// ---------------------------------------------------------------------------

/// The `fdb-tuple` element of type `ty` holding `arg` (a `Null` is a null
/// whatever the type).
///
/// # Errors
/// An argument the type does not take, or not a value of it.
pub fn fdb_element(ty: FdbType, arg: Arg<'_>) -> Result<fdb::Element, ArgError> {
    let mut e = fdb::Element::Null;
    set_fdb(&mut e, ty, arg)?;
    Ok(e)
}

/// [`fdb_element`] into `slot`, reusing its string, bytes or integer buffer
/// when it holds one of the same variant.
pub(crate) fn set_fdb(slot: &mut fdb::Element, ty: FdbType, arg: Arg<'_>) -> Result<(), ArgError> {
    use fdb::Element as E;
    let name = ty.name();
    let want = |w| ArgError::expected(w, name);
    match (ty, arg) {
        (_, Arg::Null) => *slot = E::Null,
        (FdbType::Null, _) => return Err(want(Want::Null)),
        (FdbType::Str, Arg::Str(s)) => match slot {
            E::String(buf) => {
                buf.clear();
                buf.push_str(s);
            }
            _ => *slot = E::String(s.to_owned()),
        },
        (FdbType::Str, _) => return Err(want(Want::Str)),
        (FdbType::Bytes, Arg::Bytes(b)) => match slot {
            E::Bytes(buf) => {
                buf.clear();
                buf.extend_from_slice(b);
            }
            _ => *slot = E::Bytes(b.to_vec()),
        },
        (FdbType::Versionstamp, Arg::Versionstamp(b)) => {
            *slot = E::Versionstamp(fdb::Versionstamp(b))
        }
        (FdbType::Versionstamp, Arg::Bytes(b)) => match <[u8; 12]>::try_from(b) {
            Ok(a) => *slot = E::Versionstamp(fdb::Versionstamp(a)),
            Err(_) => {
                return Err(bad(format!(
                    "invalid versionstamp value {}: expected 24 hex digits",
                    literal::show_input(&crate::to_hex(b))
                )))
            }
        },
        (FdbType::Bytes | FdbType::Versionstamp, _) => return Err(want(Want::Bytes)),
        (FdbType::Int, Arg::Int(v)) => match slot {
            E::Int(i) => i.set_i64(v),
            _ => *slot = E::Int(fdb::Int::from(v)),
        },
        (
            FdbType::Int,
            Arg::BigInt {
                negative,
                magnitude,
            },
        ) => {
            *slot = E::Int(
                fdb::Int::from_sign_magnitude(negative, magnitude).ok_or_else(|| {
                    bad(format!(
                        "invalid integer {}: more than 255 bytes of magnitude",
                        literal::show_input(&int_text(arg).unwrap_or_default())
                    ))
                })?,
            )
        }
        (FdbType::I64 | FdbType::U64 | FdbType::I32 | FdbType::U32, _) => {
            let (lo, hi) = ty.int_range().unwrap_or_default();
            match int_of(arg) {
                Some(Some(v)) if v >= lo && v <= hi => match (slot, i64::try_from(v)) {
                    (E::Int(i), Ok(v)) => i.set_i64(v),
                    (slot, _) => *slot = E::Int(fdb::Int::from(v)),
                },
                Some(_) => {
                    return Err(bad(format!(
                        "invalid {name} value {}: out of range",
                        literal::show_input(&int_text(arg).unwrap_or_default())
                    )))
                }
                None => return Err(want(Want::Int)),
            }
        }
        (FdbType::Int, _) => return Err(want(Want::Int)),
        (FdbType::F32 | FdbType::Float, _) => *slot = E::Float(f32_keeping_nan(arg, &name)?),
        (FdbType::F64 | FdbType::Double, _) => *slot = E::Double(float_of(arg, name)?),
        (FdbType::Bool, Arg::Bool(b)) => *slot = E::Bool(b),
        (FdbType::Bool, _) => return Err(want(Want::Bool)),
        (FdbType::Uuid, Arg::Uuid(u)) => *slot = E::Uuid(u.to_be_bytes()),
        (FdbType::Uuid, _) => return Err(want(Want::Uuid)),
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// hbase-ordered
// ---------------------------------------------------------------------------

/// The `hbase-ordered` value of `field` holding `arg` (`Null`: null, which
/// only the nullable kinds take when the key is written).
///
/// # Errors
/// An argument the kind does not take, or not a value of it.
pub fn hbase_value(field: hbase::Field, arg: Arg<'_>) -> Result<hbase::Value, ArgError> {
    let mut v = hbase::Value::Null;
    set_hbase(&mut v, field, arg)?;
    Ok(v)
}

/// [`hbase_value`] into `slot`, reusing its buffer.
pub(crate) fn set_hbase(
    slot: &mut hbase::Value,
    field: hbase::Field,
    arg: Arg<'_>,
) -> Result<(), ArgError> {
    use hbase::{Kind as K, Value as V};
    // Printed only for an error: a row makes no string.
    let label: &dyn fmt::Display = &field;
    let want = |w| ArgError::expected(w, label);
    let kind = field.kind;
    let int = |lo: i128, hi: i128| -> Result<i64, ArgError> {
        match int_of(arg) {
            Some(Some(v)) if v >= lo && v <= hi => Ok(v as i64),
            Some(_) => Err(bad(format!(
                "invalid {kind} value {}",
                literal::show_input(&int_text(arg).unwrap_or_default())
            ))),
            None => Err(want(Want::Int)),
        }
    };
    match (kind, arg) {
        (_, Arg::Null) => *slot = V::Null,
        (K::Int8, _) => *slot = V::Int8(int(i8::MIN.into(), i8::MAX.into())? as i8),
        (K::Int16, _) => *slot = V::Int16(int(i16::MIN.into(), i16::MAX.into())? as i16),
        (K::Int32, _) => *slot = V::Int32(int(i32::MIN.into(), i32::MAX.into())? as i32),
        (K::Int64, _) => *slot = V::Int64(int(i64::MIN.into(), i64::MAX.into())?),
        (K::Float32, _) => *slot = V::Float32(canonical_f32(arg, &label)?),
        (K::Float64, _) => *slot = V::Float64(canonical_f64(arg, &label)?),
        (K::Numeric, _) => {
            let text = decimal_text(arg, &label)?;
            *slot = V::Numeric(hbase::Numeric::parse(&text).map_err(bad)?);
        }
        (K::Text, Arg::Str(s)) => match slot {
            V::Text(buf) => {
                buf.clear();
                buf.push_str(s);
            }
            _ => *slot = V::Text(s.to_owned()),
        },
        (K::Text, _) => return Err(want(Want::Str)),
        (K::BlobVar | K::BlobCopy, Arg::Bytes(b)) => match slot {
            V::Bytes(buf) => {
                buf.clear();
                buf.extend_from_slice(b);
            }
            _ => *slot = V::Bytes(b.to_vec()),
        },
        (K::BlobVar | K::BlobCopy, _) => return Err(want(Want::Bytes)),
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// phoenix
// ---------------------------------------------------------------------------

/// The Phoenix value of `column` holding `arg` (`Null`, an empty
/// `VARCHAR` or `VARBINARY`: null); `rounding`: a `DECIMAL` of more than 38
/// digits.
///
/// # Errors
/// An argument the type does not take, or not a value of it.
pub fn phoenix_value(
    column: phoenix::Column,
    arg: Arg<'_>,
    rounding: phoenix::DecimalRounding,
) -> Result<phoenix::Value, ArgError> {
    let mut v = phoenix::Value::Null;
    set_phoenix(&mut v, column, arg, rounding)?;
    Ok(v)
}

/// [`phoenix_value`] into `slot`, reusing its buffer.
pub(crate) fn set_phoenix(
    slot: &mut phoenix::Value,
    column: phoenix::Column,
    arg: Arg<'_>,
    rounding: phoenix::DecimalRounding,
) -> Result<(), ArgError> {
    use phoenix::{Type as T, Value as V};
    let ty = column.ty;
    // Printed only for an error: a row makes no string.
    let label: &dyn fmt::Display = &column;
    let want = |w| ArgError::expected(w, label);
    match (ty, arg) {
        (_, Arg::Null) => *slot = V::Null,
        (t, _) if t.int_range().is_some() => {
            let (lo, hi) = t.int_range().unwrap_or_default();
            *slot = V::Int(match int_of(arg) {
                Some(Some(v)) if v >= i128::from(lo) && v <= i128::from(hi) => v as i64,
                // Any other whole number, however large: say the range
                // (issue 38: UNSIGNED_LONG given 2**64 - 1 said "invalid").
                Some(Some(v)) => {
                    return Err(bad(format!(
                        "{ty} value {:?} is out of range ({lo} to {hi})",
                        v.to_string()
                    )))
                }
                Some(None) => {
                    return Err(bad(format!(
                        "{ty} value {} is out of range ({lo} to {hi})",
                        literal::show_input(&int_text(arg).unwrap_or_default())
                    )))
                }
                None => return Err(want(Want::Int)),
            });
        }
        (T::Float | T::UnsignedFloat, _) => *slot = V::Float(canonical_f32(arg, &label)?),
        (T::Double | T::UnsignedDouble, _) => *slot = V::Double(canonical_f64(arg, &label)?),
        (T::Boolean, Arg::Bool(b)) => *slot = V::Bool(b),
        (T::Boolean, _) => return Err(want(Want::Bool)),
        // The RFC 3339 text (what a TIMESTAMP with nanoseconds below the
        // microsecond decodes to in hosts without them), parsed as text.
        (
            T::Date
            | T::Time
            | T::UnsignedDate
            | T::UnsignedTime
            | T::Timestamp
            | T::UnsignedTimestamp,
            Arg::Str(text),
        ) => *slot = phoenix::parse_value_with(ty, text, rounding).map_err(bad)?,
        (T::Date | T::Time | T::UnsignedDate | T::UnsignedTime, _) => {
            match whole_millis(arg, &label) {
                Some(ms) => *slot = V::Date(ms?),
                None => return Err(want(Want::Time)),
            }
        }
        (T::Timestamp | T::UnsignedTimestamp, Arg::Time { secs, nanos }) => {
            let (ms, ns) = millis_of(secs, nanos, &label)?;
            *slot = V::Timestamp(ms, ns);
        }
        (T::Timestamp | T::UnsignedTimestamp, _) => match whole_millis(arg, &label) {
            Some(ms) => *slot = V::Timestamp(ms?, 0),
            None => return Err(want(Want::Time)),
        },
        (T::Varchar, Arg::Str("")) => *slot = V::Null,
        (T::Varchar, Arg::Str(s)) => match slot {
            V::Varchar(buf) => {
                buf.clear();
                buf.push_str(s);
            }
            _ => *slot = V::Varchar(s.to_owned()),
        },
        (T::Char(n), Arg::Str(s)) => {
            phoenix::check_char(s, n)
                .map_err(|e| bad(format!("{ty} value {}: {e}", literal::show_input(s))))?;
            match slot {
                V::Char(buf) => {
                    buf.clear();
                    buf.push_str(s);
                }
                _ => *slot = V::Char(s.to_owned()),
            }
        }
        (T::Varchar | T::Char(_), _) => return Err(want(Want::Str)),
        (T::Varbinary, Arg::Bytes([])) => *slot = V::Null,
        (T::Varbinary, Arg::Bytes(b)) => match slot {
            V::Varbinary(buf) => {
                buf.clear();
                buf.extend_from_slice(b);
            }
            _ => *slot = V::Varbinary(b.to_vec()),
        },
        (T::Binary(n), Arg::Bytes(b)) => {
            if b.len() > usize::from(n) {
                return Err(bad(format!(
                    "{ty} value {}: longer than {n} bytes",
                    literal::show_input(&crate::to_hex(b))
                )));
            }
            *slot = V::Binary(b.to_vec());
        }
        (T::Varbinary | T::Binary(_), _) => return Err(want(Want::Bytes)),
        (T::Decimal, _) => {
            let text = decimal_text(arg, &label)?;
            *slot = V::Decimal(phoenix::parse_decimal(&text, rounding).map_err(bad)?);
        }
        // Every type is handled above (integers by their range).
        (_, _) => return Err(want(ColType::Phoenix(column).want())),
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Rows of arguments in one buffer
// ---------------------------------------------------------------------------

/// Rows of host values copied into one buffer, for a host that must copy
/// its values out before the keys are written (Python releases its
/// interpreter lock while encoding: the values must not be the host's
/// objects then). Pushing a row's values copies strings and bytes into
/// one arena; [`Rows::row`] reads a row back as borrowed [`Arg`]s.
/// Cleared and refilled, it allocates nothing once it has grown.
///
/// ```
/// use lexikey::frontend::host::{Arg, Rows};
/// let mut rows = Rows::new(2);
/// rows.push_str("a");
/// rows.push(Arg::Int(5));
/// rows.push_str("b");
/// rows.push(Arg::Uuid(7));
/// assert_eq!(rows.len(), 2);
/// let mut row = Vec::new();
/// rows.row(1, &mut row);
/// assert_eq!(row, [Arg::Str("b"), Arg::Uuid(7)]);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Rows {
    width: usize,
    /// The bytes of byte values (`Bytes`, `Uuid`, `BigInt`, `Geo`).
    arena: Vec<u8>,
    /// The text of text values (`Str`, `Decimal`, `Component`): a
    /// `String`, so that reading one back needs no UTF-8 check.
    text: String,
    /// `(start, len)` of the slices longer than `u32::MAX` bytes.
    long: Vec<(usize, usize)>,
    cells: Vec<Cell>,
}

/// One value: 16 bytes. A slice is `arena[val..val + aux]` (or `text[…]`
/// for a text tag); a slice longer than `u32::MAX` bytes is `long[val]`.
#[derive(Debug, Clone, Copy)]
struct Cell {
    val: u64,
    aux: u32,
    tag: Tag,
    long: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Null,
    Bool,
    Int,
    BigPos,
    BigNeg,
    F64,
    F32,
    Str,
    Bytes,
    Uuid,
    Time,
    Decimal,
    Geo,
    Versionstamp,
    Component,
    Other,
}

impl Rows {
    /// Rows of `width` values each.
    pub fn new(width: usize) -> Rows {
        Rows {
            width,
            ..Rows::default()
        }
    }

    /// The number of values per row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The number of whole rows.
    pub fn len(&self) -> usize {
        self.cells.len().checked_div(self.width).unwrap_or(0)
    }

    /// Whether no whole row is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Empties the rows, keeping the buffers.
    pub fn clear(&mut self) {
        self.arena.clear();
        self.text.clear();
        self.long.clear();
        self.cells.clear();
    }

    /// Keeps the first `rows` rows (a partly pushed row after them is
    /// dropped too).
    pub fn truncate(&mut self, rows: usize) {
        self.cells.truncate(rows * self.width);
        // The arenas keep the dropped values' bytes: they are unreachable
        // and go at the next clear.
    }

    /// The cell of a slice at `start`, `len` bytes long.
    fn slice_cell(&mut self, tag: Tag, start: usize, len: usize) -> Cell {
        match u32::try_from(len) {
            Ok(aux) => Cell {
                val: start as u64,
                aux,
                tag,
                long: false,
            },
            Err(_) => {
                self.long.push((start, len));
                Cell {
                    val: (self.long.len() - 1) as u64,
                    aux: 0,
                    tag,
                    long: true,
                }
            }
        }
    }

    fn slice(&mut self, tag: Tag, b: &[u8]) {
        let start = self.arena.len();
        self.arena.extend_from_slice(b);
        let cell = self.slice_cell(tag, start, b.len());
        self.cells.push(cell);
    }

    fn text_slice(&mut self, tag: Tag, s: &str) {
        let start = self.text.len();
        self.text.push_str(s);
        let cell = self.slice_cell(tag, start, s.len());
        self.cells.push(cell);
    }

    fn word(&mut self, tag: Tag, val: u64, aux: u32) {
        self.cells.push(Cell {
            val,
            aux,
            tag,
            long: false,
        });
    }

    /// Appends a string value (the common case, without a match).
    #[inline]
    pub fn push_str(&mut self, s: &str) {
        self.text_slice(Tag::Str, s);
    }

    /// Appends an integer value.
    #[inline]
    pub fn push_int(&mut self, v: i64) {
        self.word(Tag::Int, v as u64, 0);
    }

    /// Appends a value (its bytes copied).
    pub fn push(&mut self, arg: Arg<'_>) {
        match arg {
            Arg::Null => self.word(Tag::Null, 0, 0),
            Arg::Bool(b) => self.word(Tag::Bool, u64::from(b), 0),
            Arg::Int(v) => self.push_int(v),
            Arg::BigInt {
                negative,
                magnitude,
            } => self.slice(if negative { Tag::BigNeg } else { Tag::BigPos }, magnitude),
            Arg::F64(x) => self.word(Tag::F64, x.to_bits(), 0),
            Arg::F32(x) => self.word(Tag::F32, u64::from(x.to_bits()), 0),
            Arg::Str(s) => self.push_str(s),
            Arg::Bytes(b) => self.slice(Tag::Bytes, b),
            Arg::Uuid(u) => self.slice(Tag::Uuid, &u.to_be_bytes()),
            Arg::Time { secs, nanos } => self.word(Tag::Time, secs as u64, nanos),
            Arg::Decimal(t) => self.text_slice(Tag::Decimal, t),
            Arg::Geo(lat, lon) => {
                let mut b = [0u8; 16];
                b[..8].copy_from_slice(&lat.to_bits().to_le_bytes());
                b[8..].copy_from_slice(&lon.to_bits().to_le_bytes());
                self.slice(Tag::Geo, &b);
            }
            Arg::Versionstamp(b) => self.slice(Tag::Versionstamp, &b),
            Arg::Component(t) => self.text_slice(Tag::Component, t),
            Arg::Other => self.word(Tag::Other, 0, 0),
        }
    }

    /// The `(start, end)` of a slice cell.
    #[inline]
    fn span(&self, c: Cell) -> (usize, usize) {
        let (start, len) = if c.long {
            self.long.get(c.val as usize).copied().unwrap_or_default()
        } else {
            (c.val as usize, c.aux as usize)
        };
        (start, start + len)
    }

    fn bytes(&self, c: Cell) -> &[u8] {
        let (start, end) = self.span(c);
        self.arena.get(start..end).unwrap_or_default()
    }

    fn text(&self, c: Cell) -> &str {
        // Whole pushed strings: always in range and on char boundaries.
        let (start, end) = self.span(c);
        self.text.get(start..end).unwrap_or_default()
    }

    /// Value `i` of row `r`.
    ///
    /// # Panics
    /// Out of range.
    pub fn get(&self, r: usize, i: usize) -> Arg<'_> {
        self.arg(self.cells[r * self.width + i])
    }

    fn arg(&self, c: Cell) -> Arg<'_> {
        match c.tag {
            Tag::Null => Arg::Null,
            Tag::Bool => Arg::Bool(c.val != 0),
            Tag::Int => Arg::Int(c.val as i64),
            Tag::BigPos | Tag::BigNeg => Arg::BigInt {
                negative: c.tag == Tag::BigNeg,
                magnitude: self.bytes(c),
            },
            Tag::F64 => Arg::F64(f64::from_bits(c.val)),
            Tag::F32 => Arg::F32(f32::from_bits(c.val as u32)),
            Tag::Str => Arg::Str(self.text(c)),
            Tag::Bytes => Arg::Bytes(self.bytes(c)),
            Tag::Uuid => Arg::Uuid(u128::from_be_bytes(
                self.bytes(c).try_into().unwrap_or_default(),
            )),
            Tag::Time => Arg::Time {
                secs: c.val as i64,
                nanos: c.aux,
            },
            Tag::Decimal => Arg::Decimal(self.text(c)),
            Tag::Geo => {
                let b = self.bytes(c);
                let word = |i: usize| {
                    let w = b.get(i..i + 8).and_then(|w| w.try_into().ok());
                    f64::from_bits(u64::from_le_bytes(w.unwrap_or_default()))
                };
                Arg::Geo(word(0), word(8))
            }
            Tag::Versionstamp => Arg::Versionstamp(self.bytes(c).try_into().unwrap_or_default()),
            Tag::Component => Arg::Component(self.text(c)),
            Tag::Other => Arg::Other,
        }
    }

    /// Row `r`'s values into `out` (cleared first).
    ///
    /// # Panics
    /// `r` out of range.
    pub fn row<'a>(&'a self, r: usize, out: &mut Vec<Arg<'a>>) {
        out.clear();
        let cells = &self.cells[r * self.width..(r + 1) * self.width];
        out.extend(cells.iter().map(|&c| self.arg(c)));
    }
}

// ---------------------------------------------------------------------------
// Decoded values
// ---------------------------------------------------------------------------

/// A decoded value, host-neutral: what a binding maps to its own objects
/// (the inverse of the [`Arg`] a value is encoded from, per column type).
#[derive(Debug, Clone, PartialEq)]
pub enum Out<'a> {
    /// Null (the interop profiles).
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer that fits an `i64`.
    Int(i64),
    /// An unsigned integer above `i64::MAX` (`u64`).
    U64(u64),
    /// An integer of any size (FoundationDB), beyond `i64`.
    BigInt(&'a fdb::Int),
    /// A 64-bit float.
    F64(f64),
    /// A 32-bit float (hosts without one widen it with
    /// [`f64_of_f32`], which keeps a NaN's payload).
    F32(f32),
    /// A string.
    Str(Cow<'a, str>),
    /// Bytes.
    Bytes(&'a [u8]),
    /// A UUID.
    Uuid(u128),
    /// An instant: seconds since 1970 and nanoseconds after that second.
    Time {
        /// Whole seconds (floored).
        secs: i64,
        /// Nanoseconds, 0 to 999,999,999.
        nanos: u32,
    },
    /// An exact decimal as text (plain or exponent notation, as
    /// `Decimal(...)` in Python and `new BigDecimal(...)` in Java read it;
    /// HBase numerics also `inf`, `-inf`, `NaN`).
    Decimal(String),
    /// A point: the shortest latitude and longitude inside the decoded
    /// cell.
    Geo(f64, f64),
    /// An `fdb-tuple` nested tuple: each element's type label and value.
    Nested(Vec<(&'static str, Out<'a>)>),
    /// An `fdb-tuple` versionstamp: its 12 bytes (an incomplete one's
    /// transaction version all `FF`).
    Versionstamp([u8; 12]),
    /// A native `list<…>` component: its elements (a host list).
    List(Vec<Out<'a>>),
}

/// The instant `ms` milliseconds and `nanos` nanoseconds (below the
/// millisecond) after 1970.
pub(crate) fn instant(ms: i64, nanos: u32) -> Out<'static> {
    let total = i128::from(ms) * 1_000_000 + i128::from(nanos);
    Out::Time {
        secs: total.div_euclid(1_000_000_000) as i64,
        nanos: total.rem_euclid(1_000_000_000) as u32,
    }
}

/// An instant as RFC 3339 UTC text, to the nanosecond where it has them
/// (`1970-01-01T00:00:00.001000002Z`): what a Phoenix `TIMESTAMP` reads
/// back from a `Str`, for hosts whose time type stops at the microsecond.
pub fn time_text(secs: i64, nanos: u32) -> String {
    let total = i128::from(secs) * 1_000_000_000 + i128::from(nanos);
    let ms = total.div_euclid(1_000_000);
    let ms = i64::try_from(ms).unwrap_or(if ms < 0 { i64::MIN } else { i64::MAX });
    phoenix::timestamp_text(ms, total.rem_euclid(1_000_000) as u32)
}

/// The label of an `fdb-tuple` element (`int`, `str`, `f32`, `nested`, …),
/// as [`fdb::format_component`] writes it.
pub fn fdb_label(e: &fdb::Element) -> &'static str {
    use fdb::Element as E;
    match e {
        E::Null => "null",
        E::Bytes(_) => "bytes",
        E::String(_) => "str",
        E::Nested(_) => "nested",
        E::Int(_) => "int",
        E::Float(_) => "f32",
        E::Double(_) => "f64",
        E::Bool(_) => "bool",
        E::Uuid(_) => "uuid",
        E::Versionstamp(_) => "versionstamp",
    }
}

/// The host-neutral value of an `fdb-tuple` element.
pub fn fdb_out(e: &fdb::Element) -> Out<'_> {
    use fdb::Element as E;
    match e {
        E::Null => Out::Null,
        E::Bytes(b) => Out::Bytes(b),
        E::String(s) => Out::Str(Cow::Borrowed(s)),
        E::Nested(v) => Out::Nested(v.iter().map(|e| (fdb_label(e), fdb_out(e))).collect()),
        E::Int(i) => match i.to_i64() {
            Some(v) => Out::Int(v),
            None => match i.to_u64() {
                Some(v) => Out::U64(v),
                None => Out::BigInt(i),
            },
        },
        E::Float(f) => Out::F32(*f),
        E::Double(f) => Out::F64(*f),
        E::Bool(b) => Out::Bool(*b),
        E::Uuid(u) => Out::Uuid(u128::from_be_bytes(*u)),
        E::Versionstamp(v) => Out::Versionstamp(v.0),
    }
}

/// The host-neutral value of an `hbase-ordered` value.
pub fn hbase_out(v: &hbase::Value) -> Out<'_> {
    use hbase::Value as V;
    match v {
        V::Null => Out::Null,
        V::Int8(x) => Out::Int((*x).into()),
        V::Int16(x) => Out::Int((*x).into()),
        V::Int32(x) => Out::Int((*x).into()),
        V::Int64(x) => Out::Int(*x),
        V::Float32(x) => Out::F32(*x),
        V::Float64(x) => Out::F64(*x),
        V::Numeric(n) => Out::Decimal(n.to_string()),
        V::Text(s) => Out::Str(Cow::Borrowed(s)),
        V::Bytes(b) => Out::Bytes(b),
    }
}

/// The host-neutral value of a Phoenix value.
pub fn phoenix_out(v: &phoenix::Value) -> Out<'_> {
    use phoenix::Value as V;
    match v {
        V::Null => Out::Null,
        V::Int(x) => Out::Int(*x),
        V::Float(x) => Out::F32(*x),
        V::Double(x) => Out::F64(*x),
        V::Bool(b) => Out::Bool(*b),
        V::Date(ms) => instant(*ms, 0),
        V::Timestamp(ms, ns) => instant(*ms, *ns),
        V::Varchar(s) | V::Char(s) => Out::Str(Cow::Borrowed(s)),
        V::Varbinary(b) | V::Binary(b) => Out::Bytes(b),
        V::Decimal(d) => Out::Decimal(d.to_string()),
    }
}

/// The host-neutral value of a decoded native component of `col`
/// (`None`: no schema, the component's own type): `ulid` as its text,
/// `uuid7` checked to be a version 7, `geo` as its point.
///
/// # Errors
/// A value the column's kind could not have written (a UUID that is not
/// a v7, a code outside the grid): the kind's message.
pub fn native_out<'a>(
    col: Option<&Col>,
    v: &'a Value<'_>,
    geo: &GeoOpts,
) -> Result<Out<'a>, ParseError> {
    Ok(match (col.map(|c| c.kind), v) {
        (Some(Kind::Ulid), Value::Uuid(u)) => {
            let mut s = String::new();
            crate::kinds::timeid::Ulid(*u).encode_into(&mut s);
            Out::Str(Cow::Owned(s))
        }
        (Some(Kind::Uuid7), Value::Uuid(u)) => {
            if let Some(col) = col {
                col.write_value(v, geo, &mut String::new())?;
            }
            Out::Uuid(*u)
        }
        (Some(Kind::Geo), Value::U64(code)) => {
            let (lat, lon) = geo.point(*code)?;
            let f = |s: &str| s.parse::<f64>().unwrap_or(f64::NAN);
            Out::Geo(f(&lat), f(&lon))
        }
        (_, Value::Str(s)) => Out::Str(Cow::Borrowed(s)),
        (_, Value::I64(x) | Value::Vi64(x)) => Out::Int(*x),
        (_, Value::U64(x) | Value::Vu64(x)) => match i64::try_from(*x) {
            Ok(v) => Out::Int(v),
            Err(_) => Out::U64(*x),
        },
        (_, Value::I32(x)) => Out::Int((*x).into()),
        (_, Value::U32(x)) => Out::Int((*x).into()),
        (_, Value::F64(x)) => Out::F64(*x),
        (_, Value::F32(x)) => Out::F32(*x),
        (_, Value::Bool(b)) => Out::Bool(*b),
        (_, Value::Bytes(b)) => Out::Bytes(b),
        (_, Value::Ts(ms)) => instant(*ms, 0),
        (_, Value::Uuid(u)) => Out::Uuid(*u),
        (_, Value::Dec(d)) => Out::Decimal(d.to_string()),
        (_, Value::Null(_)) => Out::Null,
        (_, Value::List(_, items)) => Out::List(
            items
                .iter()
                .map(|v| native_out(None, v, geo))
                .collect::<Result<_, _>>()?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_every_kind() {
        let big = [1u8, 0, 0, 0, 0, 0, 0, 0, 0];
        let args = [
            Arg::Null,
            Arg::Bool(true),
            Arg::Int(-5),
            Arg::BigInt {
                negative: true,
                magnitude: &big,
            },
            Arg::F64(-0.0),
            Arg::F32(1.5),
            Arg::Str("é#"),
            Arg::Bytes(b"\x00\xff"),
            Arg::Uuid(u128::MAX - 3),
            Arg::Time {
                secs: -1,
                nanos: 999_999_999,
            },
            Arg::Decimal("-1E+3"),
            Arg::Geo(37.5, -122.25),
            Arg::Versionstamp([7; 12]),
            Arg::Component("i64:5"),
            Arg::Other,
        ];
        let mut rows = Rows::new(args.len());
        for _ in 0..3 {
            for a in args {
                rows.push(a);
            }
        }
        assert_eq!(rows.len(), 3);
        let mut row = Vec::new();
        rows.row(2, &mut row);
        assert_eq!(row, args);
        rows.truncate(1);
        assert_eq!(rows.len(), 1);
        rows.clear();
        assert!(rows.is_empty());
    }

    #[test]
    fn big_integers() {
        assert_eq!(
            int_of(Arg::BigInt {
                negative: false,
                magnitude: &[0, 0, 1, 0]
            }),
            Some(Some(256))
        );
        let min = (1u128 << 127).to_be_bytes();
        assert_eq!(
            int_of(Arg::BigInt {
                negative: true,
                magnitude: &min
            }),
            Some(Some(i128::MIN))
        );
        assert_eq!(
            int_of(Arg::BigInt {
                negative: false,
                magnitude: &min
            }),
            Some(None)
        );
        assert_eq!(
            int_of(Arg::BigInt {
                negative: false,
                magnitude: &[1; 17]
            }),
            Some(None)
        );
        let huge = vec![0xFF; 100];
        let s = shown_int(Arg::BigInt {
            negative: true,
            magnitude: &huge,
        });
        assert!(s.starts_with('-') && s.ends_with("(241 digits)"), "{s}");
    }

    #[test]
    fn nan_payloads() {
        let quiet = f32::from_bits(0x7FC0_0001);
        assert_eq!(
            f32_of_f64_keeping_nan(f64_of_f32(quiet)).to_bits(),
            0x7FC0_0001
        );
        let signaling = f32::from_bits(0xFF80_0001);
        assert_eq!(
            f32_of_f64_keeping_nan(f64_of_f32(signaling)).to_bits(),
            0xFF80_0001
        );
    }
}
