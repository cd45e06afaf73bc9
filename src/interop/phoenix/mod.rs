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
//!   refuses them by default ([`ValueError::Unencodable`] / a
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
use super::ValueError;
use crate::error::DecodeError;
use crate::order::{self, NanRule};
use crate::value::ParseError;

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

// ---------------------------------------------------------------------------
// DECIMAL, CHAR
// ---------------------------------------------------------------------------

/// The base-100 form of a non-zero decimal: `E`, the exponent of the
/// leading digit, and the digits `D₀…Dₖ` (each 0–99) of `0.D₀D₁…Dₖ ×
/// 100^(E+1)`, the decimal point falling between two base-100 digits.
fn centesimal(d: &Decimal) -> Result<(i64, Vec<u8>), &'static str> {
    if d.digits().len() > MAX_DECIMAL_PRECISION {
        return Err("DECIMAL has more than 38 significant digits (Phoenix's maximum precision)");
    }
    // 0.d1d2… × 10^x: an odd x takes a leading 0 digit so that the point
    // falls on a pair boundary; an odd count takes a trailing 0.
    let x = d.exponent();
    let odd = x.rem_euclid(2);
    let mut ds = Vec::with_capacity(d.digits().len() + 2);
    if odd == 1 {
        ds.push(0);
    }
    ds.extend_from_slice(d.digits());
    if ds.len() % 2 == 1 {
        ds.push(0);
    }
    let exp = (x + odd) / 2 - 1;
    if !(DECIMAL_MIN_EXP..=DECIMAL_MAX_EXP).contains(&exp) {
        return Err("DECIMAL out of range: Phoenix keys hold 1e-126 <= |v| < 1e124");
    }
    Ok((exp, ds.chunks(2).map(|p| p[0] * 10 + p[1]).collect()))
}

/// What [`parse_value_with`] does with a `DECIMAL` of more than 38
/// significant digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DecimalRounding {
    /// Refuse it, naming the value Phoenix would store (the default: a key
    /// must not silently stand for another number).
    #[default]
    Refuse,
    /// Round it as Phoenix does before writing it ([`round_decimal`]); the
    /// key is then the one Phoenix writes for the value given.
    HalfUp,
}

/// The value Phoenix stores for `d`: `NumberUtil.normalize`, i.e.
/// `BigDecimal.round(PDataType.DEFAULT_MATH_CONTEXT)` — 38 significant
/// digits, `RoundingMode.HALF_UP` (ties away from zero) — then
/// `stripTrailingZeros()`. `PDecimal.toBytes` applies it before writing,
/// so the exponent range (`10^-126 <= |v| < 10^124`, [`decimal_fits`]) is
/// checked on the rounded value: 39 nines times `10^84` round to `10^124`,
/// out of range, and `9.99…9e-127` (39 nines) to `1e-126`, in range.
///
/// ```
/// use lexikey::interop::phoenix::{round_decimal, Decimal};
/// let d: Decimal = "99.9999999999999999999999999999999999999".parse()?; // 39 nines
/// assert_eq!(round_decimal(&d).to_string(), "100");
/// # Ok::<(), lexikey::ParseError>(())
/// ```
pub fn round_decimal(d: &Decimal) -> Decimal {
    d.rounded(MAX_DECIMAL_PRECISION)
}

/// Whether Phoenix can write `d` in a row key and read it back (see the
/// module docs: precision 38, `10^-126 <= |d| < 10^124`).
///
/// ```
/// use lexikey::interop::phoenix::{decimal_fits, Decimal};
/// assert!(decimal_fits(&"-1.5e-7".parse::<Decimal>()?).is_ok());
/// assert!(decimal_fits(&"1e124".parse::<Decimal>()?).is_err());
/// # Ok::<(), lexikey::ParseError>(())
/// ```
///
/// # Errors
/// The reason, as [`ValueError::Unencodable`] would give it.
pub fn decimal_fits(d: &Decimal) -> Result<(), &'static str> {
    if d.is_zero() {
        return Ok(());
    }
    centesimal(d).map(|_| ())
}

/// Appends the ascending `DECIMAL` bytes of `d` (`PDecimal.toBytes`).
fn encode_decimal(d: &Decimal, out: &mut Vec<u8>) -> Result<(), &'static str> {
    if d.is_zero() {
        out.push(DECIMAL_ZERO);
        return Ok(());
    }
    let (exp, digits) = centesimal(d)?;
    // exp is -63..=61, so both exponent bytes fit in a u8.
    if d.is_negative() {
        out.push((62 - exp) as u8);
        out.extend(digits.iter().map(|c| 101 - c));
        if digits.len() < DECIMAL_MAX_DIGIT_BYTES {
            out.push(DECIMAL_NEG_TERMINATOR);
        }
    } else {
        out.push((exp + 65) as u8 | 0x80);
        out.extend(digits.iter().map(|c| c + 1));
    }
    Ok(())
}

/// Decodes the `DECIMAL` at `raw` (the key's bytes of the value, `mask`
/// `FF` for DESC), `at` the key offset of `raw[0]`. `raw` is not empty.
fn decode_decimal(raw: &[u8], mask: u8, at: usize) -> Result<Decimal, DecodeError> {
    let b: Vec<u8> = raw.iter().map(|x| x ^ mask).collect();
    let noncanon = |offset, reason| DecodeError::NonCanonical { offset, reason };
    let head = b[0];
    if head == DECIMAL_ZERO {
        if b.len() > 1 {
            return Err(noncanon(at + 1, "bytes after a DECIMAL zero (80)"));
        }
        return Ok(Decimal::default());
    }
    let negative = head & 0x80 == 0;
    let exp = if negative {
        62 - i64::from(head)
    } else {
        i64::from(head & 0x7F) - 65
    };
    if !(DECIMAL_MIN_EXP..=DECIMAL_MAX_EXP).contains(&exp) {
        return Err(DecodeError::InvalidSymbol {
            offset: at,
            found: raw[0],
            expected: "a DECIMAL exponent byte 01-7D or 82-FE (ascending form)",
        });
    }
    let mut body = &b[1..];
    let terminated = negative && body.last() == Some(&DECIMAL_NEG_TERMINATOR);
    if terminated {
        body = &body[..body.len() - 1];
    }
    if body.is_empty() {
        return Err(DecodeError::Truncated {
            offset: at + b.len(),
            expected: "DECIMAL digits",
        });
    }
    let (lo, hi) = if negative { (2, 101) } else { (1, 100) };
    if let Some(i) = body.iter().position(|x| !(lo..=hi).contains(x)) {
        return Err(DecodeError::InvalidSymbol {
            offset: at + 1 + i,
            found: raw[1 + i],
            expected: "a DECIMAL digit byte",
        });
    }
    if body.len() > DECIMAL_MAX_DIGIT_BYTES {
        return Err(noncanon(
            at + 1 + DECIMAL_MAX_DIGIT_BYTES,
            "a DECIMAL is at most 21 bytes",
        ));
    }
    if negative && !terminated && body.len() < DECIMAL_MAX_DIGIT_BYTES {
        return Err(DecodeError::Truncated {
            offset: at + b.len(),
            expected: "the terminator 66 after a negative DECIMAL",
        });
    }
    if terminated && body.len() == DECIMAL_MAX_DIGIT_BYTES {
        return Err(noncanon(
            at + b.len() - 1,
            "Phoenix writes no terminator after 20 DECIMAL digit bytes",
        ));
    }
    let centi: Vec<u8> = body
        .iter()
        .map(|x| if negative { 101 - x } else { x - 1 })
        .collect();
    if centi[0] == 0 {
        return Err(noncanon(at + 1, "a leading zero DECIMAL digit"));
    }
    if centi[centi.len() - 1] == 0 {
        return Err(noncanon(at + centi.len(), "a trailing zero DECIMAL digit"));
    }
    let digits: Vec<u8> = centi.iter().flat_map(|c| [c / 10, c % 10]).collect();
    let d = Decimal::new(negative, &digits, 2 * (exp + 1)).unwrap_or_default();
    if d.digits().len() > MAX_DECIMAL_PRECISION {
        return Err(noncanon(
            at,
            "a DECIMAL of more than 38 significant digits (Phoenix rounds to 38)",
        ));
    }
    // Belt and braces: the bytes must be the ones Phoenix writes for `d`.
    let mut again = Vec::with_capacity(b.len());
    match encode_decimal(&d, &mut again) {
        Ok(()) if again == b => Ok(d),
        _ => {
            let i = again
                .iter()
                .zip(&b)
                .position(|(x, y)| x != y)
                .unwrap_or(again.len().min(b.len()));
            Err(noncanon(at + i, "Phoenix writes this DECIMAL differently"))
        }
    }
}

/// Why a `CHAR(n)` value cannot be written, if it cannot.
pub(crate) fn check_char(s: &str, n: u16) -> Result<(), &'static str> {
    if !s.is_ascii() {
        return Err("CHAR holds single-byte (ASCII) characters only");
    }
    if s.len() > usize::from(n) {
        return Err("longer than the CHAR(n) column's n characters");
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------

/// Appends the bytes of one non-null value in `column`'s type and order (no
/// separator): what `PDataType.toBytes(value, sortOrder)` returns.
///
/// ```
/// use lexikey::interop::phoenix::{encode_value, Column, Type, Value};
/// let mut out = Vec::new();
/// encode_value(Column::asc(Type::Integer), &Value::Int(-1), &mut out)?;
/// assert_eq!(out, [0x7F, 0xFF, 0xFF, 0xFF]);
/// out.clear();
/// encode_value(Column::desc(Type::Varchar), &Value::from("a"), &mut out)?;
/// assert_eq!(out, [!b'a']);
/// # Ok::<(), lexikey::interop::ValueError>(())
/// ```
///
/// # Errors
/// [`ValueError::TypeMismatch`] for a value of another type,
/// [`ValueError::Unencodable`] for null or empty values, integers out of
/// the type's range, negative values (or −0.0) in `UNSIGNED_*` columns,
/// nanoseconds over 999999, U+0000 in a `VARCHAR`, a `DECIMAL` of more
/// than 38 significant digits or out of `10^-126 <= |v| < 10^124`, a
/// `CHAR(n)` value with a non-ASCII character or longer than `n` bytes
/// (trailing spaces included), a `BINARY(n)` value longer than `n`
/// bytes.
pub fn encode_value(column: Column, value: &Value, out: &mut Vec<u8>) -> Result<(), ValueError> {
    encode_at(0, column, value, out)
}

fn encode_at(
    index: usize,
    column: Column,
    value: &Value,
    out: &mut Vec<u8>,
) -> Result<(), ValueError> {
    let start = out.len();
    let bad = |reason| ValueError::Unencodable {
        field: index,
        reason,
    };
    let mismatch = || ValueError::TypeMismatch {
        field: index,
        expected: column.ty.name(),
    };
    if value.is_null() {
        return Err(bad("a null or empty value has no bytes of its own"));
    }
    let ty = column.ty;
    match (ty, value) {
        (_, Value::Int(v)) if ty.int_range().is_some() => {
            let (lo, hi) = ty.int_range().unwrap_or_default();
            if *v < lo || *v > hi {
                return Err(bad(ty.out_of_range()));
            }
            let width = ty.fixed_width().unwrap_or(8);
            let mut be = (*v as u64).to_be_bytes();
            if !ty.is_unsigned() {
                be[8 - width] ^= 0x80;
            }
            out.extend_from_slice(&be[8 - width..]);
        }
        (Type::Float, Value::Float(f)) => out.extend_from_slice(&float_key(*f).to_be_bytes()),
        (Type::Double, Value::Double(f)) => out.extend_from_slice(&double_key(*f).to_be_bytes()),
        (Type::UnsignedFloat, Value::Float(f)) => {
            if f.is_sign_negative() && !f.is_nan() {
                return Err(bad("UNSIGNED_FLOAT takes values >= +0.0"));
            }
            out.extend_from_slice(&NanRule::Canonical.f32_bits(*f).to_be_bytes());
        }
        (Type::UnsignedDouble, Value::Double(f)) => {
            if f.is_sign_negative() && !f.is_nan() {
                return Err(bad("UNSIGNED_DOUBLE takes values >= +0.0"));
            }
            out.extend_from_slice(&NanRule::Canonical.f64_bits(*f).to_be_bytes());
        }
        (Type::Boolean, Value::Bool(b)) => {
            // PBoolean writes DESC as the other value, not inverted bytes.
            let byte = u8::from(*b ^ column.order.is_desc());
            out.push(byte);
            return Ok(());
        }
        (Type::Date | Type::Time, Value::Date(ms)) => {
            out.extend_from_slice(&((*ms as u64) ^ 1 << 63).to_be_bytes())
        }
        (Type::UnsignedDate | Type::UnsignedTime, Value::Date(ms)) => {
            if *ms < 0 {
                return Err(bad("UNSIGNED date/time takes milliseconds >= 0"));
            }
            out.extend_from_slice(&ms.to_be_bytes());
        }
        (Type::Timestamp | Type::UnsignedTimestamp, Value::Timestamp(ms, nanos)) => {
            if *nanos >= 1_000_000 {
                return Err(bad(
                    "nanoseconds within the millisecond must be below 1000000",
                ));
            }
            if ty == Type::UnsignedTimestamp {
                if *ms < 0 {
                    return Err(bad("UNSIGNED_TIMESTAMP takes milliseconds >= 0"));
                }
                out.extend_from_slice(&ms.to_be_bytes());
            } else {
                out.extend_from_slice(&((*ms as u64) ^ 1 << 63).to_be_bytes());
            }
            out.extend_from_slice(&nanos.to_be_bytes());
        }
        (Type::Varchar, Value::Varchar(s)) => {
            if s.as_bytes().contains(&0) {
                return Err(bad(
                    "VARCHAR in a row key may not contain U+0000 (the separator)",
                ));
            }
            out.extend_from_slice(s.as_bytes());
        }
        (Type::Varbinary, Value::Varbinary(b)) => out.extend_from_slice(b),
        (Type::Decimal, Value::Decimal(d)) => encode_decimal(d, out).map_err(bad)?,
        (Type::Char(n), Value::Char(s)) => {
            check_char(s, n).map_err(bad)?;
            out.extend_from_slice(s.as_bytes());
            out.resize(start + usize::from(n), b' ');
        }
        (Type::Binary(n), Value::Binary(b)) => {
            if b.len() > usize::from(n) {
                return Err(bad("longer than the BINARY(n) column's n bytes"));
            }
            out.extend_from_slice(b);
            out.resize(start + usize::from(n), 0);
        }
        _ => return Err(mismatch()),
    }
    if column.order.is_desc() {
        for b in &mut out[start..] {
            *b = !*b;
        }
    }
    Ok(())
}

/// Appends the row key of `values` in `table` (`PTableImpl.newKey`, see
/// the module docs), salt byte included. `values` may be shorter than the
/// columns (the rest are null).
///
/// ```
/// use lexikey::interop::phoenix::{encode_row_key, Table, Value};
/// let t = Table::parse("varchar.desc,varchar")?;
/// let mut key = Vec::new();
/// encode_row_key(&t, &[Value::from("ab")], &mut key).unwrap();
/// assert_eq!(key, [!b'a', !b'b', 0xFF]); // a trailing DESC value keeps its FF
/// key.clear();
/// encode_row_key(&t.clone().salted(4), &[Value::from("ab")], &mut key).unwrap();
/// assert_eq!(key[1..], [!b'a', !b'b', 0xFF]);
/// # Ok::<(), lexikey::ParseError>(())
/// ```
///
/// # Errors
/// [`ValueError::Schema`] for a table Phoenix would refuse (no columns,
/// `VARBINARY` not last, `SALT_BUCKETS` out of 1–256), more values than
/// columns, or no non-null value; [`ValueError::Unencodable`] for a null
/// fixed-width column; otherwise as [`encode_value`].
pub fn encode_row_key(
    table: &Table,
    values: &[Value],
    out: &mut Vec<u8>,
) -> Result<(), ValueError> {
    table
        .check()
        .map_err(|reason| ValueError::Schema { reason })?;
    if values.len() > table.columns.len() {
        return Err(ValueError::Schema {
            reason: "more values than primary-key columns",
        });
    }
    let n = values
        .iter()
        .rposition(|v| !v.is_null())
        .map_or(0, |i| i + 1);
    if n == 0 {
        return Err(ValueError::Schema {
            reason: "the primary key may not be entirely null",
        });
    }
    for (i, c) in table.columns.iter().enumerate().skip(n) {
        if c.ty.fixed_width().is_some() {
            return Err(ValueError::Unencodable {
                field: i,
                reason: "a fixed-width primary-key column may not be null",
            });
        }
    }
    let start = out.len();
    if table.salt_buckets.is_some() {
        out.push(0);
    }
    let mut prev: Option<(Column, bool)> = None;
    for (i, (c, v)) in table.columns.iter().zip(&values[..n]).enumerate() {
        if let Some((p, was_null)) = prev {
            if p.ty.fixed_width().is_none() {
                out.push(table.separator(was_null, p.order));
            }
        }
        let null = v.is_null();
        if null {
            if c.ty.fixed_width().is_some() {
                return Err(ValueError::Unencodable {
                    field: i,
                    reason: "a fixed-width primary-key column may not be null",
                });
            }
        } else {
            encode_at(i, *c, v, out)?;
        }
        prev = Some((*c, null));
    }
    if let Some((p, was_null)) = prev {
        if p.ty.fixed_width().is_none() && table.separator(was_null, p.order) == DESC_SEPARATOR {
            out.push(DESC_SEPARATOR);
        }
    }
    if let Some(buckets) = table.salt_buckets {
        out[start] = salt_byte(&out[start + 1..], buckets);
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------

/// Decodes a row key of `table` into one value per column (null for the
/// columns after the end of the key).
///
/// # Errors
/// - [`DecodeError::SchemaRequired`] (offset 0) for a table Phoenix would
///   refuse (see [`encode_row_key`]);
/// - [`DecodeError::Truncated`] when the key ends inside a fixed-width
///   value, before a DESC value's `FF`, or before a fixed-width column;
/// - [`DecodeError::InvalidSymbol`] at a wrong salt byte, a `BOOLEAN`
///   byte other than `00`/`01`, a non-ASCII byte in a `CHAR`, or a
///   `DECIMAL` exponent or digit byte out of range;
/// - [`DecodeError::Truncated`] also for a `DECIMAL` without digits or a
///   negative one without its terminator `66`;
/// - [`DecodeError::NonCanonical`] for values Phoenix does not write
///   (negative `UNSIGNED_*`, NaN payloads, nanoseconds over 999999, a
///   `DECIMAL` with leading or trailing zero digits, over 38 digits or
///   with a terminator after 20 digit bytes), an explicit trailing null or
///   separator, or an empty key;
/// - [`DecodeError::InvalidUtf8`] in a `VARCHAR`.
pub fn decode_row_key(table: &Table, key: &[u8]) -> Result<Vec<Value>, DecodeError> {
    if table.check().is_err() {
        return Err(DecodeError::SchemaRequired { offset: 0 });
    }
    let mut pos = 0;
    if let Some(buckets) = table.salt_buckets {
        let &salt = key.first().ok_or(DecodeError::Truncated {
            offset: 0,
            expected: "the salt byte",
        })?;
        if salt != salt_byte(&key[1..], buckets) {
            return Err(DecodeError::InvalidSymbol {
                offset: 0,
                found: salt,
                expected: "the salt byte of the rest of the key",
            });
        }
        pos = 1;
    }
    if pos == key.len() {
        return Err(DecodeError::NonCanonical {
            offset: pos,
            reason: "an empty primary key (Phoenix refuses an all-null key)",
        });
    }
    let ncols = table.columns.len();
    let mut out = Vec::with_capacity(ncols);
    for (i, c) in table.columns.iter().enumerate() {
        if pos == key.len() {
            // The key ended after the last written column: the rest are null.
            if c.ty.fixed_width().is_some() {
                return Err(DecodeError::Truncated {
                    offset: key.len(),
                    expected: "a fixed-width primary-key column (it may not be null)",
                });
            }
            out.push(Value::Null);
            continue;
        }
        let (v, next) = decode_column(table, *c, key, pos, i + 1 == ncols)?;
        out.push(v);
        pos = next;
    }
    if pos < key.len() {
        return Err(DecodeError::TrailingBytes { offset: pos });
    }
    // Canonical: re-encode and compare (catches explicit trailing nulls and
    // separators).
    let mut again = Vec::with_capacity(key.len());
    match encode_row_key(table, &out, &mut again) {
        Ok(()) if again == key => Ok(out),
        Ok(()) => {
            let at = again
                .iter()
                .zip(key)
                .position(|(a, b)| a != b)
                .unwrap_or(again.len().min(key.len()));
            Err(DecodeError::NonCanonical {
                offset: at,
                reason: "Phoenix writes this row differently (explicit trailing null or separator)",
            })
        }
        Err(_) => Err(DecodeError::NonCanonical {
            offset: 0,
            reason: "Phoenix would not write this row",
        }),
    }
}

/// Decodes one column at `pos`; returns the value and the offset after it
/// (and after its separator or trailing byte).
fn decode_column(
    table: &Table,
    c: Column,
    key: &[u8],
    pos: usize,
    is_last: bool,
) -> Result<(Value, usize), DecodeError> {
    let mask = if c.order.is_desc() { 0xFF } else { 0 };
    if let Some(w) = c.ty.fixed_width() {
        let raw = key.get(pos..pos + w).ok_or(DecodeError::Truncated {
            offset: key.len(),
            expected: "fixed-width column bytes",
        })?;
        if c.ty == Type::Boolean {
            let b = raw[0];
            if b > 1 {
                return Err(DecodeError::InvalidSymbol {
                    offset: pos,
                    found: b,
                    expected: "a BOOLEAN byte 00 or 01",
                });
            }
            return Ok((Value::Bool((b == 1) ^ (mask != 0)), pos + 1));
        }
        let b: Vec<u8> = raw.iter().map(|x| x ^ mask).collect();
        match c.ty {
            Type::Char(_) => {
                if let Some(i) = b.iter().position(|x| !x.is_ascii()) {
                    return Err(DecodeError::InvalidSymbol {
                        offset: pos + i,
                        found: raw[i],
                        expected: "an ASCII byte in a CHAR",
                    });
                }
                // Phoenix strips the padding when it reads a CHAR.
                let len = b.iter().rposition(|&x| x != b' ').map_or(0, |i| i + 1);
                let text = String::from_utf8_lossy(&b[..len]).into_owned();
                return Ok((Value::Char(text), pos + w));
            }
            Type::Binary(_) => return Ok((Value::Binary(b), pos + w)),
            _ => {}
        }
        let noncanon = |reason| DecodeError::NonCanonical {
            offset: pos,
            reason,
        };
        let be64 = |s: &[u8]| {
            let mut a = [0u8; 8];
            a[8 - s.len()..].copy_from_slice(s);
            u64::from_be_bytes(a)
        };
        let v = match c.ty {
            t if t.int_range().is_some() => {
                let width = b.len();
                let u = be64(&b);
                let v = if t.is_unsigned() {
                    if b[0] & 0x80 != 0 {
                        return Err(noncanon("negative value in an UNSIGNED column"));
                    }
                    u as i64
                } else {
                    // Flip the sign bit back and sign-extend.
                    let shift = 64 - 8 * width as u32;
                    (((u ^ 1 << (8 * width - 1)) << shift) as i64) >> shift
                };
                Value::Int(v)
            }
            Type::Float => match float_from_key(be64(&b) as u32) {
                Some(f) => Value::Float(f),
                None => return Err(noncanon("a NaN other than Java's canonical one")),
            },
            Type::Double => match double_from_key(be64(&b)) {
                Some(f) => Value::Double(f),
                None => return Err(noncanon("a NaN other than Java's canonical one")),
            },
            Type::UnsignedFloat => match NanRule::Canonical.f32_from_bits(be64(&b) as u32) {
                Some(f) if !f.is_sign_negative() => Value::Float(f),
                _ => return Err(noncanon("negative or non-canonical UNSIGNED_FLOAT")),
            },
            Type::UnsignedDouble => match NanRule::Canonical.f64_from_bits(be64(&b)) {
                Some(f) if !f.is_sign_negative() => Value::Double(f),
                _ => return Err(noncanon("negative or non-canonical UNSIGNED_DOUBLE")),
            },
            Type::Date | Type::Time => Value::Date((be64(&b) ^ 1 << 63) as i64),
            Type::UnsignedDate | Type::UnsignedTime => {
                let ms = be64(&b) as i64;
                if ms < 0 {
                    return Err(noncanon("negative milliseconds in an UNSIGNED column"));
                }
                Value::Date(ms)
            }
            Type::Timestamp | Type::UnsignedTimestamp => {
                let m = be64(&b[..8]);
                let ms = if c.ty == Type::Timestamp {
                    (m ^ 1 << 63) as i64
                } else {
                    if m >> 63 != 0 {
                        return Err(noncanon("negative milliseconds in an UNSIGNED column"));
                    }
                    m as i64
                };
                let nanos = be64(&b[8..]) as u32;
                if nanos >= 1_000_000 {
                    return Err(DecodeError::NonCanonical {
                        offset: pos + 8,
                        reason: "nanoseconds within the millisecond over 999999",
                    });
                }
                Value::Timestamp(ms, nanos)
            }
            _ => unreachable!("fixed-width types are handled above"),
        };
        return Ok((v, pos + w));
    }
    // Variable width.
    let desc_sep = table.row_key_order_optimizable && c.order.is_desc();
    let (end, next) = if desc_sep {
        // A null DESC value is an empty value and a 00 separator.
        if !is_last && key.get(pos) == Some(&SEPARATOR) {
            return Ok((Value::Null, pos + 1));
        }
        if is_last && c.ty == Type::Varbinary {
            // The value (which may hold FF), then the trailing FF at the very end.
            match key.len().checked_sub(1) {
                Some(l) if l >= pos && key[l] == DESC_SEPARATOR => (l, l + 1),
                _ => {
                    return Err(DecodeError::Truncated {
                        offset: key.len(),
                        expected: "the FF ending a trailing DESC value",
                    })
                }
            }
        } else {
            match key[pos..].iter().position(|&b| b == DESC_SEPARATOR) {
                Some(i) => (pos + i, pos + i + 1),
                None => {
                    return Err(DecodeError::Truncated {
                        offset: key.len(),
                        expected: "the FF separator after a DESC value",
                    })
                }
            }
        }
    } else if is_last {
        (key.len(), key.len())
    } else {
        match key[pos..].iter().position(|&b| b == SEPARATOR) {
            Some(i) => (pos + i, pos + i + 1),
            // The last written column of the key: no separator.
            None => (key.len(), key.len()),
        }
    };
    if pos == end {
        return Ok((Value::Null, next));
    }
    if c.ty == Type::Decimal {
        return Ok((
            Value::Decimal(decode_decimal(&key[pos..end], mask, pos)?),
            next,
        ));
    }
    let bytes: Vec<u8> = key[pos..end].iter().map(|b| b ^ mask).collect();
    let v = match c.ty {
        Type::Varchar => match String::from_utf8(bytes) {
            Ok(s) => {
                if let Some(i) = s.bytes().position(|b| b == 0) {
                    return Err(DecodeError::InvalidSymbol {
                        offset: pos + i,
                        found: key[pos + i],
                        expected: "no U+0000 inside a VARCHAR",
                    });
                }
                Value::Varchar(s)
            }
            Err(e) => {
                return Err(DecodeError::InvalidUtf8 {
                    offset: pos + e.utf8_error().valid_up_to(),
                })
            }
        },
        _ => Value::Varbinary(bytes),
    };
    Ok((v, next))
}

// ---------------------------------------------------------------------------
// Component syntax
// ---------------------------------------------------------------------------

/// Parses a `TYPE[.desc]:VALUE` component; a bare `TYPE[.desc]` (or an
/// empty `VARCHAR`/`VARBINARY` value) is null.
///
/// | `TYPE` | `VALUE` |
/// |---|---|
/// | integer types | decimal |
/// | `float`, `double`, unsigned forms | Rust float syntax, `NaN`, `inf` |
/// | `boolean` | `true` / `false` |
/// | `date`, `time`, unsigned forms | RFC 3339 (up to 3 fraction digits) or integer milliseconds |
/// | `timestamp`, `unsigned_timestamp` | RFC 3339 with up to 9 fraction digits, or integer milliseconds |
/// | `varchar` | the text, verbatim |
/// | `varbinary` | hex |
/// | `decimal` | decimal syntax: `-12.5`, `1.5e-7`, `1E+30` (empty: null) |
/// | `char(n)` | the text, verbatim (ASCII, at most `n` characters; empty is the all-space value) |
/// | `binary(n)` | hex, at most `n` bytes (empty is the all-zero value) |
///
/// ```
/// use lexikey::interop::phoenix::{parse_component, Column, Type, Value};
/// assert_eq!(parse_component("bigint.desc:42")?, (Column::desc(Type::Bigint), Value::Int(42)));
/// assert_eq!(
///     parse_component("timestamp:1970-01-01T00:00:00.001000002Z")?.1,
///     Value::Timestamp(1, 2)
/// );
/// assert_eq!(parse_component("decimal:1.50")?.1, Value::Decimal("1.5".parse()?));
/// assert_eq!(parse_component("char(3).desc:ab")?.0, Column::desc(Type::Char(3)));
/// # Ok::<(), lexikey::ParseError>(())
/// ```
///
/// # Errors
/// A [`ParseError`] naming the component.
pub fn parse_component(s: &str) -> Result<(Column, Value), ParseError> {
    parse_component_with(s, DecimalRounding::Refuse)
}

/// Parses the text of a value of `ty` (see [`parse_component`]).
///
/// # Errors
/// A [`ParseError`] for text that is not a value of the type.
pub fn parse_value(ty: Type, text: &str) -> Result<Value, ParseError> {
    parse_value_with(ty, text, DecimalRounding::Refuse)
}

/// [`parse_component`] with an explicit [`DecimalRounding`] for a
/// `DECIMAL` of more than 38 significant digits.
///
/// ```
/// use lexikey::interop::phoenix::{parse_component_with, DecimalRounding, Value};
/// let (_, v) = parse_component_with("decimal:-2.499999999999999999999999999999999999999", DecimalRounding::HalfUp)?;
/// assert_eq!(v, Value::Decimal("-2.5".parse()?));
/// assert!(parse_component_with("decimal:-2.499999999999999999999999999999999999999", DecimalRounding::Refuse).is_err());
/// # Ok::<(), lexikey::ParseError>(())
/// ```
///
/// # Errors
/// As [`parse_component`].
pub fn parse_component_with(
    s: &str,
    rounding: DecimalRounding,
) -> Result<(Column, Value), ParseError> {
    let Some((spec, text)) = s.split_once(':') else {
        return Ok((Column::parse(s)?, Value::Null));
    };
    let column = Column::parse(spec)?;
    Ok((column, parse_value_with(column.ty, text, rounding)?))
}

/// A `DECIMAL`'s text: parsed, rounded (or refused) per `rounding` when it
/// has more than 38 significant digits, then checked against the range.
pub(crate) fn parse_decimal(text: &str, rounding: DecimalRounding) -> Result<Decimal, ParseError> {
    let d = Decimal::parse(text)?;
    let n = d.digits().len();
    let d = if n > MAX_DECIMAL_PRECISION {
        let r = round_decimal(&d);
        if rounding == DecimalRounding::Refuse && decimal_fits(&r).is_ok() {
            return Err(ParseError::new(format!(
                "decimal value {text:?}: DECIMAL has more than 38 significant digits (Phoenix's \
                 maximum precision): it has {n}, which Phoenix rounds half up and stores as {r}; \
                 --round writes that key (phoenix::DecimalRounding::HalfUp)"
            )));
        }
        r
    } else {
        d
    };
    decimal_fits(&d).map_err(|e| ParseError::new(format!("decimal value {text:?}: {e}")))?;
    Ok(d)
}

/// [`parse_value`] with an explicit [`DecimalRounding`] for a `DECIMAL` of
/// more than 38 significant digits.
///
/// # Errors
/// As [`parse_value`]; with [`DecimalRounding::HalfUp`], a `DECIMAL` is
/// refused only when its rounded value is out of range.
pub fn parse_value_with(
    ty: Type,
    text: &str,
    rounding: DecimalRounding,
) -> Result<Value, ParseError> {
    let bad = || ParseError::new(format!("invalid {ty} value {text:?}"));
    Ok(match ty {
        t if t.int_range().is_some() => {
            let v: i64 = text.parse().map_err(|_| bad())?;
            let (lo, hi) = t.int_range().unwrap_or_default();
            if v < lo || v > hi {
                return Err(ParseError::new(format!(
                    "{ty} value {text:?} is out of range ({lo} to {hi})"
                )));
            }
            Value::Int(v)
        }
        Type::Float | Type::UnsignedFloat => Value::Float(text.parse().map_err(|_| bad())?),
        Type::Double | Type::UnsignedDouble => Value::Double(text.parse().map_err(|_| bad())?),
        Type::Boolean => match text.to_ascii_lowercase().as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => return Err(bad()),
        },
        Type::Date | Type::Time | Type::UnsignedDate | Type::UnsignedTime => {
            Value::Date(crate::value::literal::parse_ts(text)?)
        }
        Type::Timestamp | Type::UnsignedTimestamp => {
            let (ms, nanos) = parse_timestamp(text)?;
            Value::Timestamp(ms, nanos)
        }
        Type::Varchar if text.is_empty() => Value::Null,
        Type::Varchar => Value::Varchar(text.to_string()),
        Type::Decimal if text.is_empty() => Value::Null,
        Type::Decimal => Value::Decimal(parse_decimal(text, rounding)?),
        Type::Char(n) => {
            check_char(text, n)
                .map_err(|e| ParseError::new(format!("{ty} value {text:?}: {e}")))?;
            Value::Char(text.to_string())
        }
        Type::Binary(n) => {
            let b = crate::value::literal::parse_hex(text)?;
            if b.len() > usize::from(n) {
                return Err(ParseError::new(format!(
                    "{ty} value {text:?}: longer than {n} bytes"
                )));
            }
            Value::Binary(b)
        }
        _ => {
            let b = crate::value::literal::parse_hex(text)?;
            if b.is_empty() {
                Value::Null
            } else {
                Value::Varbinary(b)
            }
        }
    })
}

/// RFC 3339 with up to 9 fraction digits (or integer milliseconds): the
/// digits after the third are the nanoseconds within the millisecond.
fn parse_timestamp(text: &str) -> Result<(i64, u32), ParseError> {
    let Some(dot) = text.find('.').filter(|_| text.contains('T')) else {
        return Ok((crate::value::literal::parse_ts(text)?, 0));
    };
    let frac_len = text[dot + 1..]
        .bytes()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if frac_len <= 3 {
        return Ok((crate::value::literal::parse_ts(text)?, 0));
    }
    if frac_len > 9 {
        return Err(ParseError::new(format!(
            "invalid timestamp {text:?}: at most 9 fraction digits"
        )));
    }
    let extra = &text[dot + 4..dot + 1 + frac_len];
    let nanos: u32 = format!("{extra:0<6}").parse().unwrap_or(0);
    let ms_text = format!("{}{}", &text[..dot + 4], &text[dot + 1 + frac_len..]);
    Ok((crate::value::literal::parse_ts(&ms_text)?, nanos))
}

/// A `TIMESTAMP` as RFC 3339 UTC: milliseconds, then the nanoseconds
/// within the millisecond (six more digits) when there are any.
pub(crate) fn timestamp_text(ms: i64, nanos: u32) -> String {
    let mut s = String::new();
    crate::value::literal::format_ts(ms, &mut s);
    if nanos > 0 && s.ends_with('Z') {
        s.pop();
        s.push_str(&format!("{nanos:06}Z"));
    }
    s
}

/// Writes a component in the syntax of [`parse_component`] (dates and
/// timestamps as RFC 3339 UTC).
///
/// ```
/// use lexikey::interop::phoenix::{format_component, Column, Type, Value};
/// assert_eq!(format_component(Column::asc(Type::Timestamp), &Value::Timestamp(1, 2)),
///            "timestamp:1970-01-01T00:00:00.001000002Z");
/// assert_eq!(format_component(Column::desc(Type::Varchar), &Value::Null), "varchar.desc");
/// ```
pub fn format_component(column: Column, value: &Value) -> String {
    let v = match value {
        Value::Null => return column.to_string(),
        Value::Int(v) => v.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::Double(f) => format!("{f:?}"),
        Value::Bool(b) => b.to_string(),
        Value::Date(ms) => {
            let mut s = String::new();
            crate::value::literal::format_ts(*ms, &mut s);
            s
        }
        Value::Timestamp(ms, nanos) => timestamp_text(*ms, *nanos),
        Value::Varchar(s) | Value::Char(s) => s.clone(),
        Value::Varbinary(b) | Value::Binary(b) => crate::to_hex(b),
        Value::Decimal(d) => d.to_string(),
    };
    format!("{column}:{v}")
}
