//! Apache Phoenix row keys, byte for byte: the primary-key columns of a
//! Phoenix table encoded as `PTableImpl.newKey` writes them, with the salt
//! byte of `SALT_BUCKETS` tables.
//!
//! # Column types
//!
//! | [`Type`] | SQL | bytes (ascending) |
//! |---|---|---|
//! | [`Type::Tinyint`], [`Type::Smallint`], [`Type::Integer`], [`Type::Bigint`] | `TINYINT` … `BIGINT` | 1/2/4/8 bytes big-endian, sign bit flipped |
//! | [`Type::UnsignedTinyint`] … [`Type::UnsignedLong`] | `UNSIGNED_*` | big-endian as is; values 0 to the signed type's maximum |
//! | [`Type::Float`], [`Type::Double`] | `FLOAT`, `DOUBLE` | IEEE bits (NaN canonical), sign bit flipped if clear or all bits flipped if set, **then plus one** (Phoenix's own transform) |
//! | [`Type::UnsignedFloat`], [`Type::UnsignedDouble`] | `UNSIGNED_FLOAT`, `UNSIGNED_DOUBLE` | IEEE bits as is; values >= +0.0 or NaN |
//! | [`Type::Boolean`] | `BOOLEAN` | `01` true, `00` false |
//! | [`Type::Date`], [`Type::Time`] | `DATE`, `TIME` | milliseconds since 1970 as `BIGINT` |
//! | [`Type::Timestamp`] | `TIMESTAMP` | milliseconds as `BIGINT`, then the nanoseconds within the millisecond (0–999999) as 4 bytes |
//! | [`Type::UnsignedDate`], [`Type::UnsignedTime`], [`Type::UnsignedTimestamp`] | `UNSIGNED_*` | the same with unsigned milliseconds |
//! | [`Type::Decimal`] | `DECIMAL` | an exponent byte and base-100 digit bytes (see [DECIMAL](#decimal)); variable width |
//! | [`Type::Char`]`(n)` | `CHAR(n)` | `n` bytes: the ASCII text, padded on the right with spaces (`20`) |
//! | [`Type::Binary`]`(n)` | `BINARY(n)` | `n` bytes: the bytes, padded on the right with `00` |
//! | [`Type::Varchar`] | `VARCHAR` | UTF-8 (no U+0000); variable width |
//! | [`Type::Varbinary`] | `VARBINARY` | the bytes; variable width, last column only |
//!
//! A DESC column holds the bitwise NOT of those bytes (padding included: a
//! DESC `CHAR` pads with `DF`, a DESC `BINARY` with `FF`, as
//! `PChar.pad` / `PBinary.pad` do) — except `BOOLEAN`, whose DESC form is
//! `00` for true and `01` for false, as `PBoolean.toBytes(Object,
//! SortOrder)` writes it. Arrays are not supported.
//!
//! # DECIMAL
//!
//! `PDecimal.toBytes` (`PDataType.toBytes(BigDecimal, …)`): the value is
//! first normalised (`NumberUtil.normalize`: rounded to 38 significant
//! digits, trailing zeros stripped), so `1.0`, `1` and `1.000` are one
//! key, and a [`Decimal`] (the interop module's canonical decimal: sign,
//! digits, exponent) holds exactly that normal form. Then, with the
//! magnitude written as `0.D₀D₁…Dₖ × 100^(E+1)` in base 100 (`D₀` ≠ 0,
//! `Dₖ` ≠ 0, the decimal point between two base-100 digits):
//!
//! | value | bytes (ascending) |
//! |---|---|
//! | zero | `80` |
//! | positive | `(E + 65) \| 0x80`, then `Dᵢ + 1` for each digit (`01`–`64`) |
//! | negative | `62 − E`, then `101 − Dᵢ` for each digit (`02`–`65`), then the terminator `66` — left out when there are 20 digit bytes (Phoenix caps a DECIMAL at 21 bytes) |
//!
//! So `1` is `c1 02`, `10` is `c1 0b`, `-1` is `3e 64 66`, `0.01` is `c0 02`.
//! Byte order is numeric order, and a `DECIMAL` is variable width: in a
//! composite key it takes the `00`/`FF` separators and the trailing `FF`
//! of a DESC last column exactly like `VARCHAR` (`PDecimal.isFixedWidth()`
//! is false).
//!
//! What lexikey keeps and drops of Phoenix's behaviour:
//! - **precision**: at most [`MAX_DECIMAL_PRECISION`] (38) significant
//!   digits. Phoenix silently rounds longer values half-up; lexikey
//!   refuses them by default ([`ValueError::Unencodable`](crate::interop::ValueError::Unencodable) / a
//!   [`ParseError`] naming the value Phoenix would store) rather than write
//!   a key that does not decode to the value given. Asked explicitly
//!   ([`DecimalRounding::HalfUp`] with [`parse_value_with`] /
//!   [`parse_component_with`], or [`round_decimal`]; `--round` in the CLI)
//!   it rounds as Phoenix does and writes the key Phoenix writes.
//! - **range**: `10^-126 <= |v| < 10^124` (`E` from −63 to 61). Phoenix's
//!   reader keeps the scale in a Java `byte`, so smaller magnitudes come
//!   back wrong; at `10^124` and above the exponent byte becomes `00` (a
//!   negative value, ascending) or `FF` (a positive value, ascending — `00`
//!   once DESC), which reads as a separator or a null inside a composite
//!   key. Both are refused.
//! - **declared precision and scale** (`DECIMAL(10,2)`) are not modelled:
//!   the schema type is plain `decimal`, and a value is written as Phoenix
//!   writes a value that already fits the column (Phoenix would round it
//!   down to the declared scale first).
//!
//! # CHAR(n) and BINARY(n)
//!
//! Fixed width, so no separator: `n` bytes whatever the value
//! (`PTableImpl.newKey` pads with `PDataType.pad`). A value longer than `n`
//! bytes is refused, as Phoenix refuses it (`DataExceedsCapacityException`).
//! - `CHAR(n)` ([`Value::Char`]) holds single-byte characters only (ASCII,
//!   as `PChar` requires). Phoenix strips the trailing spaces when it reads
//!   a `CHAR` (`StringUtil.getUnpaddedCharLength`), so trailing spaces are
//!   padding, not part of the value: `"ab "` and `"ab"` are the same value
//!   (they compare equal and write the same key) and [`decode_row_key`]
//!   returns `"ab"`. An all-space key decodes to the empty string (Phoenix
//!   refuses an empty CHAR literal as null, but writes `'   '` and reads
//!   it back as empty). Values compare blank-padded, as the key bytes do,
//!   so `"a"` sorts after `"a\u{1}"`.
//! - `BINARY(n)` ([`Value::Binary`]) keeps every byte: Phoenix reads back
//!   all `n` of them, padding included, so a shorter value decodes to its
//!   zero-padded form (the two compare equal, zero-padded).
//! - `n` is 1 to [`MAX_FIXED_LEN`] (32767, HBase's row-key limit); written
//!   `char(n)`, `binary(n)` in schemas and components.
//!
//! # Row keys
//!
//! [`encode_row_key`] follows `PTableImpl.newKey`:
//! 1. trailing null (or empty) values are dropped; a fixed-width column may
//!    not be null;
//! 2. a salted table reserves the first byte;
//! 3. the columns are written in order; after a variable-width column that
//!    is followed by another one comes a separator: `00`, or `FF` for a
//!    non-null DESC value of a table that is `rowKeyOrderOptimizable`
//!    (every table created by Phoenix 4.4 or later — [`Table::legacy`] is
//!    the older layout, which misorders DESC values that are prefixes of
//!    each other);
//! 4. **the trailing rule**: if the last written column is variable-width
//!    and DESC (non-null, order-optimizable), a final `FF` follows it;
//!    an ASC one has no terminator;
//! 5. the salt byte is `abs(hash % SALT_BUCKETS)` where `hash` is Java's
//!    `Arrays.hashCode` over the rest of the key as *signed* bytes
//!    (`h = 31 * h + b`, starting at 1, wrapping) — [`salt_byte`],
//!    [`java_hash`] (`SaltingUtil.getSaltingByte`).
//!
//! # Order
//!
//! Without salt, key order is row order: column by column, DESC columns
//! reversed, and a null (empty) variable-width value first whatever the
//! order (Phoenix writes it as an empty value and a `00` separator).
//! Salted keys order by bucket first. One exception, Phoenix's own: a
//! trailing DESC `VARBINARY` ends with `FF`, which is also an inverted
//! `00`, so `x` sorts before `x ++ 00 ++ …` although the column is DESC.
//!
//! # Canonical decoding
//!
//! [`decode_row_key`] accepts exactly what [`encode_row_key`] writes: a
//! wrong salt byte, a missing separator or trailing `FF`, values out of an
//! unsigned type's range, a NaN other than Java's, nanoseconds over
//! 999999, invalid UTF-8, a `DECIMAL` Phoenix would not write (see
//! [DECIMAL](#decimal)), a non-ASCII `CHAR`, or an explicitly written
//! trailing null are errors with the offset of the byte at fault. Decoding
//! returns each value's canonical form (a `DECIMAL` normalised, a `CHAR`
//! without its padding, a `BINARY` with it), so
//! `encode(decode(key)) == key`.
//!
//! ```
//! use lexikey::interop::phoenix::{decode_row_key, encode_row_key, Table, Value};
//! let table = Table::parse("varchar,bigint.desc")?;
//! let mut key = Vec::new();
//! encode_row_key(&table, &[Value::from("a"), Value::Int(1)], &mut key).unwrap();
//! assert_eq!(key, b"a\x00\x7f\xff\xff\xff\xff\xff\xff\xfe");
//! assert_eq!(decode_row_key(&table, &key).unwrap(), [Value::from("a"), Value::Int(1)]);
//! # Ok::<(), lexikey::ParseError>(())
//! ```

use std::cmp::Ordering;
use std::fmt;

pub use super::hbase::Decimal;
use crate::order::{self, NanRule};
use crate::value::ParseError;

mod decimal;
mod decode;
mod encode;
mod syntax;

pub(crate) use decimal::check_char;
pub use decimal::{decimal_fits, round_decimal, DecimalRounding};
pub use decode::decode_row_key;
pub use encode::{encode_row_key, encode_value};
pub use syntax::{
    format_component, parse_component, parse_component_with, parse_value, parse_value_with,
    write_component,
};
pub(crate) use syntax::{parse_decimal, timestamp_text};

/// The separator after an ascending (or null) variable-width value
/// (`QueryConstants.SEPARATOR_BYTE`).
pub const SEPARATOR: u8 = 0x00;
/// The separator after a non-null DESC variable-width value, and the
/// terminator of a trailing one (`QueryConstants.DESC_SEPARATOR_BYTE`).
pub const DESC_SEPARATOR: u8 = 0xFF;
/// The most salt buckets a table may have (`SaltingUtil.MAX_BUCKET_NUM`).
pub const MAX_SALT_BUCKETS: u16 = 256;
/// The most significant digits of a `DECIMAL` (`PDataType.MAX_PRECISION`).
pub const MAX_DECIMAL_PRECISION: usize = 38;
/// The widest `CHAR(n)` / `BINARY(n)` lexikey accepts: HBase's row-key
/// limit (`Short.MAX_VALUE` bytes).
pub const MAX_FIXED_LEN: u16 = 32767;

/// The `DECIMAL` exponent byte of zero (`PDataType.ZERO_BYTE`).
const DECIMAL_ZERO: u8 = 0x80;
/// The byte after the digits of a negative `DECIMAL` (`NEG_TERMINAL_BYTE`).
const DECIMAL_NEG_TERMINATOR: u8 = 102;
/// The most base-100 digit bytes of a `DECIMAL` (21 bytes, less the
/// exponent byte).
const DECIMAL_MAX_DIGIT_BYTES: usize = 20;
/// The range of the base-100 exponent `E` (of the leading digit) that
/// lexikey writes (see the module docs: [DECIMAL](self#decimal)).
const DECIMAL_MIN_EXP: i64 = -63;
const DECIMAL_MAX_EXP: i64 = 61;

/// A Phoenix column type (the subset usable in row keys that lexikey
/// supports).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Type {
    /// `TINYINT`: `i8`.
    Tinyint,
    /// `SMALLINT`: `i16`.
    Smallint,
    /// `INTEGER`: `i32`.
    Integer,
    /// `BIGINT`: `i64`.
    Bigint,
    /// `UNSIGNED_TINYINT`: 0..=127.
    UnsignedTinyint,
    /// `UNSIGNED_SMALLINT`: 0..=32767.
    UnsignedSmallint,
    /// `UNSIGNED_INT`: 0..=2147483647.
    UnsignedInt,
    /// `UNSIGNED_LONG`: 0..=9223372036854775807.
    UnsignedLong,
    /// `FLOAT`: `f32`.
    Float,
    /// `DOUBLE`: `f64`.
    Double,
    /// `UNSIGNED_FLOAT`: `f32` >= +0.0 (or NaN).
    UnsignedFloat,
    /// `UNSIGNED_DOUBLE`: `f64` >= +0.0 (or NaN).
    UnsignedDouble,
    /// `BOOLEAN`.
    Boolean,
    /// `DATE`: milliseconds since 1970-01-01T00:00:00Z.
    Date,
    /// `TIME`: milliseconds, as `DATE`.
    Time,
    /// `TIMESTAMP`: milliseconds and nanoseconds within the millisecond.
    Timestamp,
    /// `UNSIGNED_DATE`: milliseconds >= 0.
    UnsignedDate,
    /// `UNSIGNED_TIME`: milliseconds >= 0.
    UnsignedTime,
    /// `UNSIGNED_TIMESTAMP`: milliseconds >= 0 and nanoseconds.
    UnsignedTimestamp,
    /// `VARCHAR`: UTF-8, variable width; empty is null.
    Varchar,
    /// `VARBINARY`: bytes, variable width, last column only; empty is null.
    Varbinary,
    /// `DECIMAL`: a [`Decimal`] of up to 38 significant digits, variable
    /// width.
    Decimal,
    /// `CHAR(n)`: `n` ASCII bytes, space-padded (`n` from 1 to
    /// [`MAX_FIXED_LEN`]).
    Char(u16),
    /// `BINARY(n)`: `n` bytes, zero-padded (`n` from 1 to
    /// [`MAX_FIXED_LEN`]).
    Binary(u16),
}

impl Type {
    /// Every supported type that takes no length (all but [`Type::Char`]
    /// and [`Type::Binary`]).
    pub const ALL: [Type; 22] = [
        Type::Tinyint,
        Type::Smallint,
        Type::Integer,
        Type::Bigint,
        Type::UnsignedTinyint,
        Type::UnsignedSmallint,
        Type::UnsignedInt,
        Type::UnsignedLong,
        Type::Float,
        Type::Double,
        Type::UnsignedFloat,
        Type::UnsignedDouble,
        Type::Boolean,
        Type::Date,
        Type::Time,
        Type::Timestamp,
        Type::UnsignedDate,
        Type::UnsignedTime,
        Type::UnsignedTimestamp,
        Type::Varchar,
        Type::Varbinary,
        Type::Decimal,
    ];

    /// The lowercase SQL name without a length (`bigint`, `unsigned_int`,
    /// `varchar`, `char`, …); [`Display`](fmt::Display) adds the length
    /// (`char(3)`).
    pub const fn name(self) -> &'static str {
        match self {
            Type::Tinyint => "tinyint",
            Type::Smallint => "smallint",
            Type::Integer => "integer",
            Type::Bigint => "bigint",
            Type::UnsignedTinyint => "unsigned_tinyint",
            Type::UnsignedSmallint => "unsigned_smallint",
            Type::UnsignedInt => "unsigned_int",
            Type::UnsignedLong => "unsigned_long",
            Type::Float => "float",
            Type::Double => "double",
            Type::UnsignedFloat => "unsigned_float",
            Type::UnsignedDouble => "unsigned_double",
            Type::Boolean => "boolean",
            Type::Date => "date",
            Type::Time => "time",
            Type::Timestamp => "timestamp",
            Type::UnsignedDate => "unsigned_date",
            Type::UnsignedTime => "unsigned_time",
            Type::UnsignedTimestamp => "unsigned_timestamp",
            Type::Varchar => "varchar",
            Type::Varbinary => "varbinary",
            Type::Decimal => "decimal",
            Type::Char(_) => "char",
            Type::Binary(_) => "binary",
        }
    }

    /// Parses a SQL type name, any case; `int` is `integer`; `char(N)` and
    /// `binary(N)` take their length.
    ///
    /// ```
    /// use lexikey::interop::phoenix::Type;
    /// assert_eq!(Type::from_name("CHAR(3)"), Some(Type::Char(3)));
    /// assert_eq!(Type::from_name("decimal"), Some(Type::Decimal));
    /// assert_eq!(Type::from_name("char"), None); // CHAR needs its length
    /// ```
    pub fn from_name(name: &str) -> Option<Type> {
        parse_type(name).ok()
    }

    /// The width of a fixed-width type; `None` for `VARCHAR`, `VARBINARY`,
    /// `DECIMAL`.
    pub const fn fixed_width(self) -> Option<usize> {
        Some(match self {
            Type::Tinyint | Type::UnsignedTinyint | Type::Boolean => 1,
            Type::Smallint | Type::UnsignedSmallint => 2,
            Type::Integer | Type::UnsignedInt | Type::Float | Type::UnsignedFloat => 4,
            Type::Bigint
            | Type::UnsignedLong
            | Type::Double
            | Type::UnsignedDouble
            | Type::Date
            | Type::Time
            | Type::UnsignedDate
            | Type::UnsignedTime => 8,
            Type::Timestamp | Type::UnsignedTimestamp => 12,
            Type::Char(n) | Type::Binary(n) => n as usize,
            Type::Varchar | Type::Varbinary | Type::Decimal => return None,
        })
    }

    /// The range of an integer type (`None` for other types).
    pub const fn int_range(self) -> Option<(i64, i64)> {
        Some(match self {
            Type::Tinyint => (i8::MIN as i64, i8::MAX as i64),
            Type::Smallint => (i16::MIN as i64, i16::MAX as i64),
            Type::Integer => (i32::MIN as i64, i32::MAX as i64),
            Type::Bigint => (i64::MIN, i64::MAX),
            Type::UnsignedTinyint => (0, i8::MAX as i64),
            Type::UnsignedSmallint => (0, i16::MAX as i64),
            Type::UnsignedInt => (0, i32::MAX as i64),
            Type::UnsignedLong => (0, i64::MAX),
            _ => return None,
        })
    }

    /// Why an integer is refused for this type: the type and its range,
    /// in Phoenix's names (what a user must change the value to).
    const fn out_of_range(self) -> &'static str {
        match self {
            Type::Tinyint => "out of range for TINYINT (-128 to 127)",
            Type::Smallint => "out of range for SMALLINT (-32768 to 32767)",
            Type::Integer => "out of range for INTEGER (-2147483648 to 2147483647)",
            Type::UnsignedTinyint => "out of range for UNSIGNED_TINYINT (0 to 127)",
            Type::UnsignedSmallint => "out of range for UNSIGNED_SMALLINT (0 to 32767)",
            Type::UnsignedInt => "out of range for UNSIGNED_INT (0 to 2147483647)",
            Type::UnsignedLong => "out of range for UNSIGNED_LONG (0 to 9223372036854775807)",
            _ => "out of range for BIGINT (-9223372036854775808 to 9223372036854775807)",
        }
    }

    fn is_unsigned(self) -> bool {
        self.name().starts_with("unsigned_")
    }
}

impl fmt::Display for Type {
    /// The SQL name as [`Type::from_name`] reads it: `bigint`, `char(3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Char(n) | Type::Binary(n) => write!(f, "{}({n})", self.name()),
            _ => f.write_str(self.name()),
        }
    }
}

/// The type names [`parse_type`] lists in its error.
const TYPE_NAMES: &str = "tinyint, smallint, integer, bigint, unsigned_tinyint, \
     unsigned_smallint, unsigned_int, unsigned_long, float, double, unsigned_float, \
     unsigned_double, boolean, date, time, timestamp, unsigned_date, unsigned_time, \
     unsigned_timestamp, varchar, varbinary, decimal, char(N), binary(N)";

/// Parses a type name (see [`Type::from_name`]) with an error that says
/// what is wrong.
fn parse_type(name: &str) -> Result<Type, ParseError> {
    let lower = name.to_ascii_lowercase();
    if lower == "int" {
        return Ok(Type::Integer);
    }
    if let Some(t) = Type::ALL.into_iter().find(|t| t.name() == lower) {
        return Ok(t);
    }
    let sized = |base: &str| {
        lower
            .strip_prefix(base)
            .and_then(|r| r.strip_prefix('('))
            .and_then(|r| r.strip_suffix(')'))
    };
    for (base, make) in [
        ("char", Type::Char as fn(u16) -> Type),
        ("binary", Type::Binary),
    ] {
        if lower == base {
            return Err(ParseError::new(format!(
                "phoenix type {name:?} needs its length: {base}(N), N from 1 to {MAX_FIXED_LEN}"
            )));
        }
        if let Some(digits) = sized(base) {
            // Plain decimal digits only (no sign, no leading zero).
            return match digits.parse::<u16>() {
                Ok(n) if (1..=MAX_FIXED_LEN).contains(&n) && n.to_string() == digits => {
                    Ok(make(n))
                }
                _ => Err(ParseError::new(format!(
                    "invalid phoenix type {name:?}: the length of {base}(N) is a number from 1 to {MAX_FIXED_LEN}"
                ))),
            };
        }
    }
    Err(ParseError::new(format!(
        "unknown phoenix type {name:?}: expected one of {TYPE_NAMES}"
    )))
}

/// Sort order of a primary-key column (`SortOrder`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SortOrder {
    /// `ASC`.
    #[default]
    Asc,
    /// `DESC`: the bytes inverted.
    Desc,
}

impl SortOrder {
    /// Whether this is [`SortOrder::Desc`] (as [`crate::Dir::is_desc`];
    /// the two convert with `From`).
    pub const fn is_desc(self) -> bool {
        matches!(self, SortOrder::Desc)
    }
}

/// One primary-key column: a type and an order. Written `TYPE[.desc]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Column {
    /// The type.
    pub ty: Type,
    /// The sort order.
    pub order: SortOrder,
}

impl Column {
    /// An ASC column.
    pub const fn asc(ty: Type) -> Column {
        Column {
            ty,
            order: SortOrder::Asc,
        }
    }

    /// A DESC column.
    pub const fn desc(ty: Type) -> Column {
        Column {
            ty,
            order: SortOrder::Desc,
        }
    }

    /// Parses `TYPE[.desc]` (also `.asc`).
    ///
    /// ```
    /// use lexikey::interop::phoenix::{Column, Type};
    /// assert_eq!(Column::parse("bigint.desc")?, Column::desc(Type::Bigint));
    /// assert_eq!(Column::parse("char(3).desc")?, Column::desc(Type::Char(3)));
    /// # Ok::<(), lexikey::ParseError>(())
    /// ```
    ///
    /// # Errors
    /// A [`ParseError`] for an unknown type or suffix.
    pub fn parse(s: &str) -> Result<Column, ParseError> {
        let (name, order) = match s.rsplit_once('.') {
            Some((n, o)) if o.eq_ignore_ascii_case("desc") => (n, SortOrder::Desc),
            Some((n, o)) if o.eq_ignore_ascii_case("asc") => (n, SortOrder::Asc),
            Some(_) => {
                return Err(ParseError::new(format!(
                    "invalid phoenix column {s:?}: the suffix may be .asc or .desc"
                )))
            }
            None => (s, SortOrder::Asc),
        };
        let ty = parse_type(name)?;
        Ok(Column { ty, order })
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.ty)?;
        if self.order.is_desc() {
            f.write_str(".desc")?;
        }
        Ok(())
    }
}

/// A table's primary key: its columns, its salt buckets and its separator
/// layout.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Table {
    /// The primary-key columns, in order.
    pub columns: Vec<Column>,
    /// `SALT_BUCKETS` (1 to 256), or `None` for an unsalted table.
    pub salt_buckets: Option<u16>,
    /// Whether DESC variable-width values use the `FF` separator and
    /// trailing byte (`rowKeyOrderOptimizable`, true for tables created by
    /// Phoenix 4.4 and later).
    pub row_key_order_optimizable: bool,
}

impl Table {
    /// An unsalted, order-optimizable table.
    pub fn new(columns: Vec<Column>) -> Table {
        Table {
            columns,
            salt_buckets: None,
            row_key_order_optimizable: true,
        }
    }

    /// The same table with `SALT_BUCKETS = buckets`.
    pub fn salted(mut self, buckets: u16) -> Table {
        self.salt_buckets = Some(buckets);
        self
    }

    /// The same table with the pre-4.4 layout (`00` separators for DESC
    /// values too, no trailing byte).
    pub fn legacy(mut self) -> Table {
        self.row_key_order_optimizable = false;
        self
    }

    /// Parses comma-separated columns: `varchar,bigint.desc`.
    ///
    /// # Errors
    /// A [`ParseError`] naming the bad column.
    pub fn parse(schema: &str) -> Result<Table, ParseError> {
        let columns = schema
            .split(',')
            .map(|c| Column::parse(c.trim()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Table::new(columns))
    }

    fn check(&self) -> Result<(), &'static str> {
        if self.columns.is_empty() {
            return Err("a table needs at least one primary-key column");
        }
        if let Some(n) = self.salt_buckets {
            if n == 0 || n > MAX_SALT_BUCKETS {
                return Err("SALT_BUCKETS must be 1 to 256");
            }
        }
        let n = self.columns.len();
        if self.columns[..n - 1]
            .iter()
            .any(|c| c.ty == Type::Varbinary)
        {
            return Err("VARBINARY may only be the last primary-key column");
        }
        Ok(())
    }

    fn separator(&self, was_null: bool, order: SortOrder) -> u8 {
        if self.row_key_order_optimizable && !was_null && order.is_desc() {
            DESC_SEPARATOR
        } else {
            SEPARATOR
        }
    }
}

/// A primary-key value.
///
/// `Eq` and `Ord` compare floats by their order bits with NaN canonical;
/// `Ord` is the ASC key order of values of one column type, `Null` first.
#[derive(Debug, Clone)]
pub enum Value {
    /// SQL `NULL` (variable-width columns only; an empty `VARCHAR` or
    /// `VARBINARY` is null too).
    Null,
    /// Any integer type (range-checked against the column's type).
    Int(i64),
    /// `FLOAT`, `UNSIGNED_FLOAT`.
    Float(f32),
    /// `DOUBLE`, `UNSIGNED_DOUBLE`.
    Double(f64),
    /// `BOOLEAN`.
    Bool(bool),
    /// `DATE`, `TIME` and their unsigned forms: milliseconds since 1970.
    Date(i64),
    /// `TIMESTAMP`, `UNSIGNED_TIMESTAMP`: milliseconds since 1970 and the
    /// nanoseconds within the millisecond (0–999999).
    Timestamp(i64, u32),
    /// `VARCHAR`.
    Varchar(String),
    /// `VARBINARY`.
    Varbinary(Vec<u8>),
    /// `DECIMAL`: the normal form Phoenix writes (trailing zeros are not
    /// kept, so `1.0` is `1`).
    Decimal(Decimal),
    /// `CHAR(n)`: ASCII text; trailing spaces are padding (`"ab "` equals
    /// `"ab"`), and the empty string is the all-space value, not null.
    Char(String),
    /// `BINARY(n)`: up to `n` bytes; a shorter value equals its
    /// zero-padded form (what decoding returns). Never null.
    Binary(Vec<u8>),
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Varchar(s.to_string())
    }
}

impl Value {
    fn rank(&self) -> u8 {
        match self {
            Value::Null => 0,
            Value::Int(_) => 1,
            Value::Float(_) => 2,
            Value::Double(_) => 3,
            Value::Bool(_) => 4,
            Value::Date(_) => 5,
            Value::Timestamp(..) => 6,
            Value::Varchar(_) => 7,
            Value::Varbinary(_) => 8,
            Value::Decimal(_) => 9,
            Value::Char(_) => 10,
            Value::Binary(_) => 11,
        }
    }

    /// Whether the value is null as Phoenix sees it (`Null`, or an empty
    /// `VARCHAR` / `VARBINARY`; a `CHAR` or `BINARY` value never is).
    pub fn is_null(&self) -> bool {
        match self {
            Value::Null => true,
            Value::Varchar(s) => s.is_empty(),
            Value::Varbinary(b) => b.is_empty(),
            _ => false,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a.cmp(b),
            (Value::Float(a), Value::Float(b)) => float_key(*a).cmp(&float_key(*b)),
            (Value::Double(a), Value::Double(b)) => double_key(*a).cmp(&double_key(*b)),
            (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
            (Value::Date(a), Value::Date(b)) => a.cmp(b),
            (Value::Timestamp(a, x), Value::Timestamp(b, y)) => (a, x).cmp(&(b, y)),
            (Value::Varchar(a), Value::Varchar(b)) => a.cmp(b),
            (Value::Varbinary(a), Value::Varbinary(b)) => a.cmp(b),
            (Value::Decimal(a), Value::Decimal(b)) => a.cmp(b),
            (Value::Char(a), Value::Char(b)) => padded_cmp(a.as_bytes(), b.as_bytes(), b' '),
            (Value::Binary(a), Value::Binary(b)) => padded_cmp(a, b, 0),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// Compares `a` and `b` as if both were padded with `pad` to the same
/// length (the order of `CHAR`/`BINARY` keys).
fn padded_cmp(a: &[u8], b: &[u8], pad: u8) -> Ordering {
    let n = a.len().max(b.len());
    let at = |s: &[u8], i: usize| s.get(i).copied().unwrap_or(pad);
    (0..n)
        .map(|i| at(a, i).cmp(&at(b, i)))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// Phoenix's `FLOAT` key bits: Java's `floatToIntBits` (one NaN), the
/// order transform, plus one.
///
/// ```
/// use lexikey::interop::phoenix::float_key;
/// assert_eq!(float_key(0.0), 0x8000_0001);
/// assert_eq!(float_key(-0.0), 0x8000_0000);
/// assert_eq!(float_key(f32::NAN), 0xFFC0_0001);
/// ```
pub fn float_key(f: f32) -> u32 {
    order::f32_to_order(f, NanRule::Canonical).wrapping_add(1)
}

/// Phoenix's `DOUBLE` key bits (see [`float_key`]).
///
/// ```
/// use lexikey::interop::phoenix::double_key;
/// assert_eq!(double_key(1.0), 0xBFF0_0000_0000_0001);
/// ```
pub fn double_key(f: f64) -> u64 {
    order::f64_to_order(f, NanRule::Canonical).wrapping_add(1)
}

/// The inverse of [`float_key`]; `None` for a key [`float_key`] does not
/// write (a NaN other than Java's canonical one).
fn float_from_key(k: u32) -> Option<f32> {
    order::f32_from_order(k.wrapping_sub(1), NanRule::Canonical)
}

/// The inverse of [`double_key`] (see [`float_from_key`]).
fn double_from_key(k: u64) -> Option<f64> {
    order::f64_from_order(k.wrapping_sub(1), NanRule::Canonical)
}

/// Java's `Arrays.hashCode(byte[])` over `bytes` as signed bytes:
/// `h = 31 * h + b`, starting at 1, wrapping.
///
/// ```
/// use lexikey::interop::phoenix::java_hash;
/// assert_eq!(java_hash(b""), 1);
/// assert_eq!(java_hash(&[0x96, 0x00, 0xF6, 0x00, 0x13, 0xFE]), i32::MIN);
/// ```
pub fn java_hash(bytes: &[u8]) -> i32 {
    bytes.iter().fold(1i32, |h, &b| {
        h.wrapping_mul(31).wrapping_add(i32::from(b as i8))
    })
}

/// The salt byte of a row key (`SaltingUtil.getSaltingByte`): `abs(hash %
/// buckets)` of [`java_hash`] over the key *without* its salt byte.
///
/// # Panics
/// If `buckets` is 0 (a caller bug: `SALT_BUCKETS` is 1 to 256).
///
/// ```
/// use lexikey::interop::phoenix::salt_byte;
/// // i32::MIN % 3 == -2: the absolute value of the remainder, not the remainder of the absolute value.
/// assert_eq!(salt_byte(&[0x96, 0x00, 0xF6, 0x00, 0x13, 0xFE], 3), 2);
/// ```
pub fn salt_byte(key_without_salt: &[u8], buckets: u16) -> u8 {
    assert!(buckets > 0, "SALT_BUCKETS must be at least 1");
    // |hash % buckets| < buckets <= 256.
    (java_hash(key_without_salt) % i32::from(buckets)).unsigned_abs() as u8
}
