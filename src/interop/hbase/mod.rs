//! HBase `OrderedBytes` (package `org.apache.hadoop.hbase.util`) and the
//! `Struct` of `Ordered*` data types (`org.apache.hadoop.hbase.types`),
//! byte for byte.
//!
//! Every encoding starts with a header byte that names the type; a
//! DESCENDING value is the bitwise NOT of the ascending encoding, header
//! included, so the header also tells the order (ascending headers are
//! below `0x80`).
//!
//! | [`Kind`] | Java type | ascending encoding | descending header |
//! |---|---|---|---|
//! | null | (any nullable type) | `05` | `FA` |
//! | [`Kind::Numeric`] | `OrderedNumeric` | `07` −inf; `08`…`14` negative; `15` zero; `16`…`22` positive; `23` +inf; `26` NaN | inverted |
//! | [`Kind::Int8`] | `OrderedInt8` | `29`, 1 byte with the sign bit flipped | `D6` |
//! | [`Kind::Int16`] | `OrderedInt16` | `2A`, 2 bytes big-endian, sign flipped | `D5` |
//! | [`Kind::Int32`] | `OrderedInt32` | `2B`, 4 bytes | `D4` |
//! | [`Kind::Int64`] | `OrderedInt64` | `2C`, 8 bytes | `D3` |
//! | [`Kind::Float32`] | `OrderedFloat32` | `30`, 4 bytes: sign flipped if clear, all bits flipped if set | `CF` |
//! | [`Kind::Float64`] | `OrderedFloat64` | `31`, 8 bytes, the same transform | `CE` |
//! | [`Kind::Text`] | `OrderedString` | `34`, UTF-8, `00` | `CB` … `FF` |
//! | [`Kind::BlobVar`] | `OrderedBlobVar` | `37`, 7 bits per byte (MSB = "more follows"), or `37 00` when empty | `C8` |
//! | [`Kind::BlobCopy`] | `OrderedBlob` | `38`, the bytes as they are, to the end of the key | `C7` … `FF` |
//!
//! # Numeric
//!
//! The variable-length numeric encoding (after SQLite4's key encoding)
//! writes a number as an exponent `E` and a base-100 mantissa `M` with
//! `value = M × 100^E` and `0.01 <= M < 1`. Each centimal digit `X` is
//! a byte `2X+1`, the last one `2X`. Medium numbers (`1 <= E <= 10`) keep
//! `E` in the header (`17+E`, or `13−E` negative); large ones (`E >= 11`)
//! write `22` and `E` as a SQLite4 varint ([`encode_varuint64`]); small ones
//! (`|v| < 1`) write `16` and the complemented varint of `−E`. Negative
//! numbers complement the exponent and mantissa bytes.
//!
//! Values are [`Numeric`]: ±infinity, NaN or a [`Decimal`] (sign, decimal
//! digits, exponent — no bignum). As HBase does (`OrderedBytes.normalize`),
//! encoding strips trailing zeros and rounds to 31 significant digits,
//! half up, so keys of values that differ only beyond digit 31 are equal.
//!
//! Every exponent a [`Decimal`] holds is written, as HBase 2.5.0 and later
//! write it (HBASE-26566; `1E+1000` is `22 f2 05 02`). HBase 2.4.x and
//! older wrote numbers of 100^351 and above differently, as keys that read
//! back as other numbers: [`NumericEncoding::Legacy`] ([`Codec::LEGACY`])
//! writes and reads those, and the default decoder refuses them with an
//! error naming the option (`--hbase-numeric legacy` in the CLI).
//!
//! # Order
//!
//! For two values of one field, `a.cmp(&b) == key(a).cmp(&key(b))`,
//! reversed for a descending field ([`Value`]'s `Ord` is the ascending
//! order), with these exceptions, all HBase's own:
//! - **BlobVar** does not keep byte order when a shorter blob differs
//!   from a longer one only in its last encoded byte: `[01]` →
//!   `37 80 40` sorts before `[00 FF]` → `37 80 BF 60`, because the
//!   last byte of the shorter blob has its "more follows" bit clear.
//!   Blobs of one length, and a blob against its own extensions, keep
//!   their order.
//! - **Struct** omits trailing nulls, so a trailing null in a descending
//!   field sorts first, not last.
//! - Floats: every NaN is the one canonical NaN (Java's `floatToIntBits`),
//!   after +inf; −0.0 sorts before +0.0.
//!
//! # Canonical decoding
//!
//! Decoders reject, with the offset of the byte at fault, anything HBase's
//! encoders cannot write: unknown headers, a header of the wrong type,
//! varints and mantissas that are longer than needed (a trailing zero
//! centimal digit, a leading one, more than 31 digits, a medium header
//! `13`/`17` for `E = 0`, a large header for `E <= 10`), centimal digits
//! over 99, NaN payloads other than Java's, text that is not UTF-8,
//! blob-var padding bits, `00` inside a descending blob-copy, explicitly
//! written trailing nulls in a struct, and trailing bytes.
//!
//! ```
//! use lexikey::interop::hbase::{decode_struct, encode_struct, Field, Kind, Numeric, Order, Value};
//! let schema = [Field::asc(Kind::Numeric), Field::asc(Kind::Text)];
//! let row = [Value::Numeric(Numeric::from(1_i64)), Value::from("foo")];
//! let mut key = Vec::new();
//! encode_struct(&schema, &row, &mut key)?;
//! assert_eq!(key, b"\x18\x02\x34foo\x00");
//! assert_eq!(decode_struct(&schema, &key).unwrap(), row);
//! # Ok::<(), lexikey::interop::ValueError>(())
//! ```

use std::cmp::Ordering;
use std::fmt;

use super::ValueError;
use crate::error::DecodeError;
use crate::order::{self, NanRule};
use crate::value::ParseError;

/// Header of a null value.
pub const NULL: u8 = 0x05;
/// Header of numeric −infinity.
pub const NEG_INF: u8 = 0x07;
/// Header of large negative numbers (`E >= 11`).
pub const NEG_LARGE: u8 = 0x08;
/// Header of medium negative numbers with `E = 10` (up to `0x13` for `E = 0`).
pub const NEG_MED_MIN: u8 = 0x09;
/// Header of medium negative numbers with `E = 0` (never written).
pub const NEG_MED_MAX: u8 = 0x13;
/// Header of small negative numbers (`-1 < v < 0`).
pub const NEG_SMALL: u8 = 0x14;
/// Header of numeric zero.
pub const ZERO: u8 = 0x15;
/// Header of small positive numbers (`0 < v < 1`).
pub const POS_SMALL: u8 = 0x16;
/// Header of medium positive numbers with `E = 0` (never written).
pub const POS_MED_MIN: u8 = 0x17;
/// Header of medium positive numbers with `E = 10`.
pub const POS_MED_MAX: u8 = 0x21;
/// Header of large positive numbers (`E >= 11`).
pub const POS_LARGE: u8 = 0x22;
/// Header of numeric +infinity.
pub const POS_INF: u8 = 0x23;
/// Header of numeric NaN.
pub const NAN: u8 = 0x26;
/// Header of [`Kind::Int8`].
pub const FIXED_INT8: u8 = 0x29;
/// Header of [`Kind::Int16`].
pub const FIXED_INT16: u8 = 0x2A;
/// Header of [`Kind::Int32`].
pub const FIXED_INT32: u8 = 0x2B;
/// Header of [`Kind::Int64`].
pub const FIXED_INT64: u8 = 0x2C;
/// Header of [`Kind::Float32`].
pub const FIXED_FLOAT32: u8 = 0x30;
/// Header of [`Kind::Float64`].
pub const FIXED_FLOAT64: u8 = 0x31;
/// Header of [`Kind::Text`].
pub const TEXT: u8 = 0x34;
/// Header of [`Kind::BlobVar`].
pub const BLOB_VAR: u8 = 0x37;
/// Header of [`Kind::BlobCopy`].
pub const BLOB_COPY: u8 = 0x38;

/// The most significant digits HBase keeps (`OrderedBytes.MAX_PRECISION`).
pub const MAX_PRECISION: usize = 31;

/// The largest exponent `E` (base 100) that HBase's numeric encoder wrote
/// correctly before HBASE-26566 (HBase 2.4.x and older): from 100^351 up,
/// the old `encodeNumericLarge` stopped normalizing at `E = 351` or `352`
/// and wrote a key that decodes to another number. Current HBase (2.5.0
/// and later, [`NumericEncoding::Current`]) writes every exponent; the old
/// keys are [`NumericEncoding::Legacy`].
pub const MAX_LARGE_EXPONENT: u64 = 351;

/// The largest large-number exponent `E` accepted: `100^E` with
/// `E = 2^30` is the first power of 100 past [`Decimal`]'s range (and
/// HBase's decoder computes `−2E` in a Java `int`).
pub const MAX_EXPONENT: u64 = 1 << 30;

/// The largest small-number exponent `−E` accepted (beyond it, the value
/// is outside `java.math.BigDecimal`'s scale range).
pub const MAX_SMALL_EXPONENT: u64 = 1 << 30;

/// Sort order of one field (`org.apache.hadoop.hbase.util.Order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Order {
    /// `Order.ASCENDING`.
    #[default]
    Ascending,
    /// `Order.DESCENDING`: every byte of the ascending encoding inverted.
    Descending,
}

impl Order {
    /// Whether this is [`Order::Descending`] (as [`crate::Dir::is_desc`];
    /// the two convert with `From`).
    pub const fn is_desc(self) -> bool {
        matches!(self, Order::Descending)
    }

    fn mask(self) -> u8 {
        match self {
            Order::Ascending => 0,
            Order::Descending => 0xFF,
        }
    }
}

/// Which of HBase's two numeric encoders a key follows for numbers of
/// 100^351 ([`MAX_LARGE_EXPONENT`]) and above; below that the two agree
/// byte for byte.
///
/// HBASE-26566 ("Optimize encodeNumeric in OrderedBytes", apache/hbase
/// pull request 3940, merged December 2021, fix versions 2.5.0 and
/// 3.0.0-alpha-3) rewrote `encodeNumericLarge`: it now writes any exponent
/// as a varint and the mantissa rounded to 31 digits like every other
/// number. Before it (HBase 2.4.x and older) the normalizing loops stopped
/// at `E = 351` or `352` and the first mantissa byte took the low bits of
/// the whole integer part, so such keys decode to another number.
///
/// ```
/// use lexikey::interop::hbase::{Codec, Field, Kind, NumericEncoding, Value};
/// let v = Value::Numeric("1e1000".parse()?);
/// let mut key = Vec::new();
/// Codec::CURRENT.encode_value(Field::asc(Kind::Numeric), &v, &mut key).unwrap();
/// assert_eq!(key, [0x22, 0xF2, 0x05, 0x02]);
/// key.clear();
/// Codec::new(NumericEncoding::Legacy).encode_value(Field::asc(Kind::Numeric), &v, &mut key).unwrap();
/// assert_eq!(key, [0x22, 0xF1, 0x70, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
///                  0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00]);
/// # Ok::<(), lexikey::ParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum NumericEncoding {
    /// HBase 2.5.0 and later: every exponent [`Decimal`] holds, canonical
    /// (`E` as a varint, at most 31 significant digits, rounded half up).
    #[default]
    Current,
    /// HBase 2.4.x and older (before HBASE-26566): numbers of 100^351 and
    /// more are written as the old encoder wrote them, and such keys decode
    /// to the number the old decoder reads back from them (not the number
    /// that was written: the old encoder lost it). Keys with `E > 352`,
    /// which the old encoder never wrote, are refused.
    Legacy,
}

impl NumericEncoding {
    /// The name in the CLI's `--hbase-numeric` (`current`, `legacy`).
    pub const fn name(self) -> &'static str {
        match self {
            NumericEncoding::Current => "current",
            NumericEncoding::Legacy => "legacy",
        }
    }

    /// Parses [`NumericEncoding::name`].
    pub fn from_name(name: &str) -> Option<NumericEncoding> {
        [NumericEncoding::Current, NumericEncoding::Legacy]
            .into_iter()
            .find(|n| n.name() == name)
    }
}

/// The options of the `hbase-ordered` profile: which numeric encoder keys
/// follow. The free functions ([`encode_value`], [`decode_struct`], …) are
/// [`Codec::CURRENT`]'s methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Codec {
    /// The numeric encoder (see [`NumericEncoding`]).
    pub numeric: NumericEncoding,
}

impl Codec {
    /// Current HBase (2.5.0 and later).
    pub const CURRENT: Codec = Codec::new(NumericEncoding::Current);
    /// HBase 2.4.x and older (before HBASE-26566).
    pub const LEGACY: Codec = Codec::new(NumericEncoding::Legacy);

    /// A codec with the given numeric encoder.
    pub const fn new(numeric: NumericEncoding) -> Codec {
        Codec { numeric }
    }

    /// [`encode_value`] with this codec's numeric encoder.
    ///
    /// # Errors
    /// As [`encode_value`].
    pub fn encode_value(
        self,
        field: Field,
        value: &Value,
        out: &mut Vec<u8>,
    ) -> Result<(), ValueError> {
        encode_at(self.numeric, 0, field, value, out)
    }

    /// [`encode_struct`] with this codec's numeric encoder.
    ///
    /// # Errors
    /// As [`encode_struct`].
    pub fn encode_struct(
        self,
        schema: &[Field],
        values: &[Value],
        out: &mut Vec<u8>,
    ) -> Result<(), ValueError> {
        check_schema(schema)?;
        if values.len() > schema.len() {
            return Err(ValueError::Schema {
                reason: "more values than fields",
            });
        }
        let last = values
            .iter()
            .rposition(|v| !matches!(v, Value::Null))
            .map_or(0, |i| i + 1);
        for (i, (f, v)) in schema.iter().zip(&values[..last]).enumerate() {
            encode_at(self.numeric, i, *f, v, out)?;
        }
        Ok(())
    }

    /// [`decode_value`] with this codec's numeric encoder.
    ///
    /// # Errors
    /// As [`decode_value`]; with [`NumericEncoding::Legacy`], also
    /// [`DecodeError::NonCanonical`] for a large-number exponent over 352.
    pub fn decode_value(
        self,
        field: Field,
        key: &[u8],
        pos: usize,
    ) -> Result<(Value, usize), DecodeError> {
        Reader {
            key,
            mask: field.order.mask(),
            numeric: self.numeric,
        }
        .value(field.kind, pos)
    }

    /// [`decode_struct`] with this codec's numeric encoder.
    ///
    /// # Errors
    /// As [`decode_struct`] and [`Codec::decode_value`].
    pub fn decode_struct(self, schema: &[Field], key: &[u8]) -> Result<Vec<Value>, DecodeError> {
        if check_schema(schema).is_err() {
            return Err(DecodeError::SchemaRequired { offset: 0 });
        }
        let mut out = Vec::with_capacity(schema.len());
        let mut pos = 0;
        let mut last_null_at = None;
        for f in schema {
            if pos == key.len() {
                out.push(Value::Null);
                continue;
            }
            let (v, next) = self.decode_value(*f, key, pos)?;
            last_null_at = matches!(v, Value::Null).then_some(pos);
            out.push(v);
            pos = next;
        }
        if pos < key.len() {
            return Err(DecodeError::TrailingBytes { offset: pos });
        }
        if let Some(at) = last_null_at {
            return Err(DecodeError::NonCanonical {
                offset: at,
                reason: "trailing null written out (HBase's Struct omits trailing nulls)",
            });
        }
        Ok(out)
    }
}

/// The type of one field: which `OrderedBytes` encoding it uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `OrderedInt8`: header `29`, 1 byte.
    Int8,
    /// `OrderedInt16`: header `2A`, 2 bytes.
    Int16,
    /// `OrderedInt32`: header `2B`, 4 bytes.
    Int32,
    /// `OrderedInt64`: header `2C`, 8 bytes.
    Int64,
    /// `OrderedFloat32`: header `30`, 4 bytes.
    Float32,
    /// `OrderedFloat64`: header `31`, 8 bytes.
    Float64,
    /// `OrderedNumeric`: the variable-length decimal encoding. Nullable.
    Numeric,
    /// `OrderedString`: header `34`, UTF-8, `00`. Nullable.
    Text,
    /// `OrderedBlobVar`: header `37`, 7 bits per byte. Nullable.
    BlobVar,
    /// `OrderedBlob`: header `38`, a byte-for-byte copy that runs to the end
    /// of the key, so only the last field of a struct may use it. Nullable.
    BlobCopy,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 10] = [
        Kind::Int8,
        Kind::Int16,
        Kind::Int32,
        Kind::Int64,
        Kind::Float32,
        Kind::Float64,
        Kind::Numeric,
        Kind::Text,
        Kind::BlobVar,
        Kind::BlobCopy,
    ];

    /// The name used in component syntax (`int64`, `numeric`, `blob-var`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Int8 => "int8",
            Kind::Int16 => "int16",
            Kind::Int32 => "int32",
            Kind::Int64 => "int64",
            Kind::Float32 => "float32",
            Kind::Float64 => "float64",
            Kind::Numeric => "numeric",
            Kind::Text => "text",
            Kind::BlobVar => "blob-var",
            Kind::BlobCopy => "blob-copy",
        }
    }

    /// Parses a kind name: [`Kind::name`], or the aliases `str`, `string`,
    /// `blobvar`, `blob`, `blobcopy`.
    pub fn from_name(name: &str) -> Option<Kind> {
        Some(match name {
            "str" | "string" => Kind::Text,
            "blobvar" => Kind::BlobVar,
            "blob" | "blobcopy" => Kind::BlobCopy,
            _ => return Kind::ALL.into_iter().find(|k| k.name() == name),
        })
    }

    /// Whether the kind accepts [`Value::Null`] (the fixed-width Java types
    /// take primitives and do not).
    pub const fn is_nullable(self) -> bool {
        matches!(
            self,
            Kind::Numeric | Kind::Text | Kind::BlobVar | Kind::BlobCopy
        )
    }

    /// The ascending header of the kind (numeric: the header of zero).
    pub const fn header(self) -> u8 {
        match self {
            Kind::Int8 => FIXED_INT8,
            Kind::Int16 => FIXED_INT16,
            Kind::Int32 => FIXED_INT32,
            Kind::Int64 => FIXED_INT64,
            Kind::Float32 => FIXED_FLOAT32,
            Kind::Float64 => FIXED_FLOAT64,
            Kind::Numeric => ZERO,
            Kind::Text => TEXT,
            Kind::BlobVar => BLOB_VAR,
            Kind::BlobCopy => BLOB_COPY,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One field of a struct: a kind and an order. Written `KIND[.desc]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Field {
    /// The encoding.
    pub kind: Kind,
    /// The order.
    pub order: Order,
}

impl Field {
    /// An ascending field.
    pub const fn asc(kind: Kind) -> Field {
        Field {
            kind,
            order: Order::Ascending,
        }
    }

    /// A descending field.
    pub const fn desc(kind: Kind) -> Field {
        Field {
            kind,
            order: Order::Descending,
        }
    }

    /// Parses `KIND[.desc]` (also `KIND.asc`).
    ///
    /// ```
    /// use lexikey::interop::hbase::{Field, Kind};
    /// assert_eq!(Field::parse("numeric.desc")?, Field::desc(Kind::Numeric));
    /// # Ok::<(), lexikey::ParseError>(())
    /// ```
    ///
    /// # Errors
    /// A [`ParseError`] for an unknown kind or suffix.
    pub fn parse(s: &str) -> Result<Field, ParseError> {
        let (name, order) = match s.rsplit_once('.') {
            Some((n, "desc")) => (n, Order::Descending),
            Some((n, "asc")) => (n, Order::Ascending),
            Some(_) => {
                return Err(ParseError::new(format!(
                    "invalid hbase-ordered field {s:?}: the suffix may be .asc or .desc"
                )))
            }
            None => (s, Order::Ascending),
        };
        let kind = Kind::from_name(name).ok_or_else(|| {
            ParseError::new(format!(
                "unknown hbase-ordered type {name:?}: expected int8, int16, int32, int64, \
                 float32, float64, numeric, text, blob-var or blob-copy"
            ))
        })?;
        Ok(Field { kind, order })
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        if self.order.is_desc() {
            f.write_str(".desc")?;
        }
        Ok(())
    }
}

/// A value of one field.
///
/// `Eq` and `Ord` compare floats by their order bits with every NaN
/// canonical (as Java's `floatToIntBits` does), so `NaN == NaN`,
/// `-0.0 < +0.0`. `Ord` is the ascending key order of values of one kind
/// (except blob-var, see the module docs); `Null` sorts first.
#[derive(Debug, Clone)]
pub enum Value {
    /// Java `null` (nullable kinds only).
    Null,
    /// A [`Kind::Int8`] value.
    Int8(i8),
    /// A [`Kind::Int16`] value.
    Int16(i16),
    /// A [`Kind::Int32`] value.
    Int32(i32),
    /// A [`Kind::Int64`] value.
    Int64(i64),
    /// A [`Kind::Float32`] value.
    Float32(f32),
    /// A [`Kind::Float64`] value.
    Float64(f64),
    /// A [`Kind::Numeric`] value.
    Numeric(Numeric),
    /// A [`Kind::Text`] value.
    Text(String),
    /// A [`Kind::BlobVar`] or [`Kind::BlobCopy`] value.
    Bytes(Vec<u8>),
}

impl Value {
    fn rank(&self) -> u8 {
        match self {
            Value::Null => 0,
            Value::Int8(_) => 1,
            Value::Int16(_) => 2,
            Value::Int32(_) => 3,
            Value::Int64(_) => 4,
            Value::Float32(_) => 5,
            Value::Float64(_) => 6,
            Value::Numeric(_) => 7,
            Value::Text(_) => 8,
            Value::Bytes(_) => 9,
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Text(s.to_string())
    }
}

impl From<Numeric> for Value {
    fn from(n: Numeric) -> Self {
        Value::Numeric(n)
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
            (Value::Int8(a), Value::Int8(b)) => a.cmp(b),
            (Value::Int16(a), Value::Int16(b)) => a.cmp(b),
            (Value::Int32(a), Value::Int32(b)) => a.cmp(b),
            (Value::Int64(a), Value::Int64(b)) => a.cmp(b),
            (Value::Float32(a), Value::Float32(b)) => f32_bits(*a).cmp(&f32_bits(*b)),
            (Value::Float64(a), Value::Float64(b)) => f64_bits(*a).cmp(&f64_bits(*b)),
            (Value::Numeric(a), Value::Numeric(b)) => a.cmp(b),
            (Value::Text(a), Value::Text(b)) => a.cmp(b),
            (Value::Bytes(a), Value::Bytes(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// The order bits of an `f32` as HBase writes them (Java's canonical NaN).
#[inline]
fn f32_bits(f: f32) -> u32 {
    order::f32_to_order(f, NanRule::Canonical)
}

/// The order bits of an `f64` as HBase writes them (Java's canonical NaN).
#[inline]
fn f64_bits(f: f64) -> u64 {
    order::f64_to_order(f, NanRule::Canonical)
}

// ---------------------------------------------------------------------------
// Decimal and Numeric
// ---------------------------------------------------------------------------

/// A finite decimal number `±0.d₁d₂…dₙ × 10^exponent`, kept as its decimal
/// digits (no bignum): no leading or trailing zero digits; zero has no
/// digits and is not negative. The representation is unique, so the
/// derived `Eq` is numeric equality; `Ord` is numeric order.
///
/// ```
/// use lexikey::interop::hbase::Decimal;
/// let d: Decimal = "-123.4500".parse()?;
/// assert_eq!(d.digits(), &[1, 2, 3, 4, 5]);
/// assert_eq!(d.exponent(), 3);
/// assert_eq!(d.to_string(), "-123.45");
/// assert_eq!("1e400".parse::<Decimal>()?.to_string(), "1E+400");
/// # Ok::<(), lexikey::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    exponent: i64,
}

/// The largest decimal exponent magnitude [`Decimal`] accepts
/// (`java.math.BigDecimal`'s scale is an `int`).
pub const MAX_DECIMAL_EXPONENT: i64 = 2_147_483_647;

impl Decimal {
    /// A decimal from a sign, decimal digits (each `0..=9`) and the
    /// exponent of `0.d₁d₂… × 10^exponent`. Leading and trailing zero digits
    /// are dropped (adjusting the exponent). `None` if a digit is over 9 or
    /// the exponent leaves ±[`MAX_DECIMAL_EXPONENT`].
    pub fn new(negative: bool, digits: &[u8], exponent: i64) -> Option<Decimal> {
        if digits.iter().any(|&d| d > 9) {
            return None;
        }
        let lead = digits.iter().take_while(|&&d| d == 0).count();
        let digits = &digits[lead..];
        let trail = digits.iter().rev().take_while(|&&d| d == 0).count();
        let digits = &digits[..digits.len() - trail];
        if digits.is_empty() {
            return Some(Decimal::default());
        }
        let exponent = exponent.checked_sub(i64::try_from(lead).ok()?)?;
        if exponent.abs() > MAX_DECIMAL_EXPONENT {
            return None;
        }
        Some(Decimal {
            negative,
            digits: digits.to_vec(),
            exponent,
        })
    }

    /// Whether the number is below zero.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// Whether the number is zero.
    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// The significant digits, most significant first (empty for zero).
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The exponent `x` of `0.d₁d₂… × 10^x` (0 for zero).
    pub fn exponent(&self) -> i64 {
        self.exponent
    }

    /// Parses decimal syntax: an optional sign, digits with an optional
    /// `.`, an optional exponent (`e`/`E`, optional sign, digits):
    /// `42`, `-0.00123`, `1.5e-7`, `1E+308`.
    ///
    /// # Errors
    /// A [`ParseError`] for bad syntax or an exponent out of range.
    pub fn parse(text: &str) -> Result<Decimal, ParseError> {
        let err = || {
            ParseError::new(format!(
                "invalid decimal {text:?}: expected digits with an optional sign, '.' and exponent"
            ))
        };
        let (negative, rest) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let (mantissa, exp) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if int.is_empty() && frac.is_empty() {
            return Err(err());
        }
        if !int.bytes().chain(frac.bytes()).all(|c| c.is_ascii_digit()) {
            return Err(err());
        }
        let exp: i64 = match exp {
            Some(e) => {
                let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if digits.is_empty()
                    || digits.len() > 12
                    || !digits.bytes().all(|c| c.is_ascii_digit())
                {
                    return Err(err());
                }
                e.parse().map_err(|_| err())?
            }
            None => 0,
        };
        let digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|c| c - b'0').collect();
        let exponent = i64::try_from(int.len())
            .ok()
            .and_then(|n| n.checked_add(exp))
            .ok_or_else(err)?;
        Decimal::new(negative, &digits, exponent).ok_or_else(|| {
            ParseError::new(format!("invalid decimal {text:?}: exponent out of range"))
        })
    }

    /// The decimal of an `f64`'s shortest round-trip form (what Java's
    /// `BigDecimal.valueOf(double)` gives on JDK 19 and later). `None` for
    /// NaN and infinities; `-0.0` is zero.
    pub fn from_f64(f: f64) -> Option<Decimal> {
        if !f.is_finite() {
            return None;
        }
        Decimal::parse(&format!("{f:e}")).ok()
    }

    /// The nearest `f64` (`BigDecimal.doubleValue()`).
    pub fn to_f64(&self) -> f64 {
        // The shortest-digit text parses correctly rounded.
        self.to_string().parse().unwrap_or(f64::NAN)
    }

    /// HBase's `OrderedBytes.normalize`: at most [`MAX_PRECISION`]
    /// significant digits, rounded half up (away from zero).
    ///
    /// ```
    /// use lexikey::interop::hbase::Decimal;
    /// let d: Decimal = "0.99999999999999999999999999999995".parse()?; // 32 nines and a 5
    /// assert_eq!(d.normalized().to_string(), "1");
    /// # Ok::<(), lexikey::ParseError>(())
    /// ```
    pub fn normalized(&self) -> Decimal {
        self.rounded(MAX_PRECISION)
    }

    /// At most `precision` (at least 1) significant digits, rounded half up
    /// (away from zero), as `BigDecimal.round(new MathContext(precision,
    /// RoundingMode.HALF_UP))` then `stripTrailingZeros()`.
    ///
    /// ```
    /// use lexikey::interop::hbase::Decimal;
    /// let d: Decimal = "-2.45".parse()?;
    /// assert_eq!(d.rounded(2).to_string(), "-2.5");
    /// assert_eq!("99.96".parse::<Decimal>()?.rounded(3).to_string(), "100");
    /// # Ok::<(), lexikey::ParseError>(())
    /// ```
    pub fn rounded(&self, precision: usize) -> Decimal {
        let precision = precision.max(1);
        if self.digits.len() <= precision {
            return self.clone();
        }
        let mut digits = self.digits[..precision].to_vec();
        let mut exponent = self.exponent;
        if self.digits[precision] >= 5 {
            let mut i = precision;
            loop {
                if i == 0 {
                    digits.insert(0, 1);
                    exponent += 1;
                    break;
                }
                i -= 1;
                if digits[i] == 9 {
                    digits[i] = 0;
                } else {
                    digits[i] += 1;
                    break;
                }
            }
        }
        // Only a carry past the largest exponent fails `new`: the result is
        // then exactly 0.1 × 10^exponent, which the encoders refuse as too
        // large (never zero).
        Decimal::new(self.negative, &digits, exponent).unwrap_or_else(|| Decimal {
            negative: self.negative,
            digits: vec![1],
            exponent,
        })
    }

    fn cmp_magnitude(&self, other: &Decimal) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (false, false) => self
                .exponent
                .cmp(&other.exponent)
                .then_with(|| self.digits.cmp(&other.digits)),
        }
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.negative, other.negative) {
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
        }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::str::FromStr for Decimal {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Decimal::parse(s)
    }
}

impl fmt::Display for Decimal {
    /// Plain notation (`-123.45`, `0.00123`, `1000`) when the exponent is
    /// between −6 and 40, else scientific (`1.5E+400`, `4.9E-324`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.write_str("0");
        }
        if self.negative {
            f.write_str("-")?;
        }
        let ds: String = self.digits.iter().map(|d| char::from(b'0' + d)).collect();
        let n = ds.len() as i64;
        let x = self.exponent;
        if (-6..=40).contains(&x) {
            if x <= 0 {
                write!(f, "0.{}{ds}", "0".repeat((-x) as usize))
            } else if x >= n {
                write!(f, "{ds}{}", "0".repeat((x - n) as usize))
            } else {
                let (a, b) = ds.split_at(x as usize);
                write!(f, "{a}.{b}")
            }
        } else {
            let (a, b) = ds.split_at(1);
            let e = x - 1;
            let sign = if e < 0 { '-' } else { '+' };
            if b.is_empty() {
                write!(f, "{a}E{sign}{}", e.abs())
            } else {
                write!(f, "{a}.{b}E{sign}{}", e.abs())
            }
        }
    }
}

/// A value of the numeric encoding: −infinity < every finite decimal <
/// +infinity < NaN (the order of the headers `07`, `08`–`22`, `23`, `26`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Numeric {
    /// −infinity (`07`).
    NegInfinity,
    /// A finite number.
    Finite(Decimal),
    /// +infinity (`23`).
    Infinity,
    /// NaN (`26`).
    NaN,
}

impl From<i64> for Numeric {
    fn from(v: i64) -> Self {
        Numeric::Finite(Decimal::parse(&v.to_string()).unwrap_or_default())
    }
}

impl From<f64> for Numeric {
    fn from(f: f64) -> Self {
        if f.is_nan() {
            Numeric::NaN
        } else if f == f64::INFINITY {
            Numeric::Infinity
        } else if f == f64::NEG_INFINITY {
            Numeric::NegInfinity
        } else {
            Numeric::Finite(Decimal::from_f64(f).unwrap_or_default())
        }
    }
}

impl From<Decimal> for Numeric {
    fn from(d: Decimal) -> Self {
        Numeric::Finite(d)
    }
}

impl Numeric {
    /// Parses a decimal ([`Decimal::parse`]) or `inf`, `+inf`, `-inf`,
    /// `infinity`, `NaN` (either case).
    ///
    /// # Errors
    /// A [`ParseError`] for bad syntax.
    pub fn parse(text: &str) -> Result<Numeric, ParseError> {
        Ok(match text.to_ascii_lowercase().as_str() {
            "inf" | "+inf" | "infinity" | "+infinity" => Numeric::Infinity,
            "-inf" | "-infinity" => Numeric::NegInfinity,
            "nan" => Numeric::NaN,
            _ => Numeric::Finite(Decimal::parse(text)?),
        })
    }
}

impl std::str::FromStr for Numeric {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Numeric::parse(s)
    }
}

impl fmt::Display for Numeric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Numeric::NegInfinity => f.write_str("-inf"),
            Numeric::Finite(d) => d.fmt(f),
            Numeric::Infinity => f.write_str("inf"),
            Numeric::NaN => f.write_str("NaN"),
        }
    }
}

// ---------------------------------------------------------------------------
// Varint
// ---------------------------------------------------------------------------

/// Appends SQLite4's order-preserving varint of `v` (HBase's
/// `putVaruint64`): 1 byte up to 240, 2 up to 2287, 3 up to 67823, then a
/// length byte `FA`–`FF` and 3 to 8 big-endian bytes.
///
/// ```
/// use lexikey::interop::hbase::encode_varuint64;
/// let mut out = Vec::new();
/// encode_varuint64(2287, &mut out);
/// assert_eq!(out, [0xF8, 0xFF]);
/// ```
pub fn encode_varuint64(v: u64, out: &mut Vec<u8>) {
    if v < 241 {
        out.push(v as u8);
    } else if v < 2288 {
        let y = v - 240;
        out.extend_from_slice(&[(y / 256 + 241) as u8, (y % 256) as u8]);
    } else if v < 67824 {
        let y = v - 2288;
        out.extend_from_slice(&[249, (y / 256) as u8, (y % 256) as u8]);
    } else {
        let n = 8 - (v.leading_zeros() / 8) as usize; // bytes needed: 3..=8
        out.push(247 + n as u8);
        out.extend_from_slice(&v.to_be_bytes()[8 - n..]);
    }
}

/// Reads a varint written by [`encode_varuint64`] at the start of `key`;
/// returns the value and its length.
///
/// ```
/// use lexikey::interop::hbase::decode_varuint64;
/// assert_eq!(decode_varuint64(&[0xF9, 0xFF, 0xFF])?, (67823, 3));
/// assert!(decode_varuint64(&[0xF1, 0x00]).is_err()); // 240 fits one byte
/// # Ok::<(), lexikey::DecodeError>(())
/// ```
///
/// # Errors
/// [`DecodeError::Truncated`] when `key` ends inside the varint,
/// [`DecodeError::NonCanonical`] (offset 0) when a shorter form exists.
pub fn decode_varuint64(key: &[u8]) -> Result<(u64, usize), DecodeError> {
    read_varint(key, 0, 0)
}

/// Reads a varint at `pos`, each byte XORed with `mask`.
fn read_varint(key: &[u8], pos: usize, mask: u8) -> Result<(u64, usize), DecodeError> {
    let byte = |i: usize| -> Result<u64, DecodeError> {
        key.get(pos + i)
            .map(|b| u64::from(b ^ mask))
            .ok_or(DecodeError::Truncated {
                offset: key.len(),
                expected: "varint bytes",
            })
    };
    let a0 = byte(0)?;
    let (v, len, min) = match a0 {
        0..=240 => (a0, 1, 0),
        241..=248 => ((a0 - 241) * 256 + byte(1)? + 240, 2, 241),
        249 => (2288 + 256 * byte(1)? + byte(2)?, 3, 2288),
        _ => {
            let n = (a0 - 247) as usize;
            let mut v = 0u64;
            for i in 1..=n {
                v = v << 8 | byte(i)?;
            }
            (v, n + 1, if n == 3 { 67824 } else { 1u64 << (8 * (n - 1)) })
        }
    };
    if v < min {
        return Err(DecodeError::NonCanonical {
            offset: pos,
            reason: "varint longer than needed",
        });
    }
    Ok((v, len))
}

// ---------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------

/// Appends one value in the encoding of `field` (HBase's
/// `OrderedBytes.encode*` for that type and order).
///
/// ```
/// use lexikey::interop::hbase::{encode_value, Field, Kind, Value};
/// let mut key = Vec::new();
/// encode_value(Field::asc(Kind::Int64), &Value::Int64(5), &mut key)?;
/// assert_eq!(key, [0x2C, 0x80, 0, 0, 0, 0, 0, 0, 0x05]);
/// key.clear();
/// encode_value(Field::desc(Kind::Text), &Value::from("a"), &mut key)?;
/// assert_eq!(key, [!0x34, !b'a', 0xFF]);
/// # Ok::<(), lexikey::interop::ValueError>(())
/// ```
///
/// # Errors
/// [`ValueError::TypeMismatch`] when the value's variant is not the
/// field's; [`ValueError::Unencodable`] for null in a fixed-width field,
/// U+0000 in text, `00` in a descending blob-copy, and a number whose
/// rounding to 31 digits carries past [`MAX_DECIMAL_EXPONENT`].
pub fn encode_value(field: Field, value: &Value, out: &mut Vec<u8>) -> Result<(), ValueError> {
    Codec::CURRENT.encode_value(field, value, out)
}

fn encode_at(
    numeric: NumericEncoding,
    index: usize,
    field: Field,
    value: &Value,
    out: &mut Vec<u8>,
) -> Result<(), ValueError> {
    let start = out.len();
    let mismatch = || ValueError::TypeMismatch {
        field: index,
        expected: field.kind.name(),
    };
    let bad = |reason| ValueError::Unencodable {
        field: index,
        reason,
    };
    match (field.kind, value) {
        (k, Value::Null) => {
            if !k.is_nullable() {
                return Err(bad("null in a fixed-width field (Java takes a primitive)"));
            }
            out.push(NULL);
            if k == Kind::BlobCopy && field.order.is_desc() {
                out.push(0);
            }
        }
        (Kind::Int8, Value::Int8(v)) => out.extend_from_slice(&[FIXED_INT8, (*v as u8) ^ 0x80]),
        (Kind::Int16, Value::Int16(v)) => {
            out.push(FIXED_INT16);
            out.extend_from_slice(&((*v as u16) ^ 0x8000).to_be_bytes());
        }
        (Kind::Int32, Value::Int32(v)) => {
            out.push(FIXED_INT32);
            out.extend_from_slice(&((*v as u32) ^ 0x8000_0000).to_be_bytes());
        }
        (Kind::Int64, Value::Int64(v)) => {
            out.push(FIXED_INT64);
            out.extend_from_slice(&((*v as u64) ^ 1 << 63).to_be_bytes());
        }
        (Kind::Float32, Value::Float32(v)) => {
            out.push(FIXED_FLOAT32);
            out.extend_from_slice(&f32_bits(*v).to_be_bytes());
        }
        (Kind::Float64, Value::Float64(v)) => {
            out.push(FIXED_FLOAT64);
            out.extend_from_slice(&f64_bits(*v).to_be_bytes());
        }
        (Kind::Numeric, Value::Numeric(n)) => encode_numeric(n, numeric, out).map_err(bad)?,
        (Kind::Text, Value::Text(s)) => {
            if s.as_bytes().contains(&0) {
                return Err(bad("text may not contain U+0000 (it is the terminator)"));
            }
            out.push(TEXT);
            out.extend_from_slice(s.as_bytes());
            out.push(0);
        }
        (Kind::BlobVar, Value::Bytes(b)) => encode_blob_var(b, out),
        (Kind::BlobCopy, Value::Bytes(b)) => {
            if field.order.is_desc() && b.contains(&0) {
                return Err(bad("a descending blob-copy may not contain 0x00"));
            }
            out.push(BLOB_COPY);
            out.extend_from_slice(b);
            if field.order.is_desc() {
                out.push(0);
            }
        }
        _ => return Err(mismatch()),
    }
    if field.order.is_desc() {
        for b in &mut out[start..] {
            *b = !*b;
        }
    }
    Ok(())
}

fn encode_blob_var(b: &[u8], out: &mut Vec<u8>) {
    out.push(BLOB_VAR);
    if b.is_empty() {
        out.push(0);
        return;
    }
    // Emit the bits 7 at a time, MSB first, each group with a "more" bit.
    let total_bits = b.len() * 8;
    let groups = total_bits.div_ceil(7);
    for g in 0..groups {
        let mut payload = 0u8;
        for j in 0..7 {
            let bit = g * 7 + j;
            let set = bit < total_bits && b[bit / 8] & (0x80 >> (bit % 8)) != 0;
            payload = payload << 1 | u8::from(set);
        }
        let more = if g + 1 < groups { 0x80 } else { 0 };
        out.push(more | payload);
    }
}

fn encode_numeric(
    n: &Numeric,
    numeric: NumericEncoding,
    out: &mut Vec<u8>,
) -> Result<(), &'static str> {
    let d = match n {
        Numeric::NegInfinity => {
            out.push(NEG_INF);
            return Ok(());
        }
        Numeric::Infinity => {
            out.push(POS_INF);
            return Ok(());
        }
        Numeric::NaN => {
            out.push(NAN);
            return Ok(());
        }
        Numeric::Finite(d) => d.normalized(),
    };
    if d.is_zero() {
        out.push(ZERO);
        return Ok(());
    }
    // Rounding can carry past the largest exponent (see `Decimal::rounded`).
    if d.exponent.abs() > MAX_DECIMAL_EXPONENT {
        return Err("the exponent is beyond java.math.BigDecimal's range");
    }
    // value = 0.D × 10^x; E = ceil(x / 2); the mantissa gets a leading zero
    // digit when x is odd.
    let x = d.exponent;
    let e = (x + 1).div_euclid(2);
    let neg = d.negative;
    let m_mask = if neg { 0xFF } else { 0 };
    if numeric == NumericEncoding::Legacy && e > MAX_LARGE_EXPONENT as i64 {
        encode_legacy_large(&d, out);
        return Ok(());
    }
    if e >= 1 {
        if e as u64 > MAX_EXPONENT {
            return Err("the exponent is beyond java.math.BigDecimal's range");
        }
        if e <= 10 {
            out.push(if neg {
                NEG_MED_MAX - e as u8
            } else {
                POS_MED_MIN + e as u8
            });
        } else {
            out.push(if neg { NEG_LARGE } else { POS_LARGE });
            let at = out.len();
            encode_varuint64(e as u64, out);
            if neg {
                out[at..].iter_mut().for_each(|b| *b = !*b);
            }
        }
    } else {
        let small = e.unsigned_abs();
        if small > MAX_SMALL_EXPONENT {
            return Err("the exponent is beyond java.math.BigDecimal's range");
        }
        out.push(if neg { NEG_SMALL } else { POS_SMALL });
        let at = out.len();
        encode_varuint64(small, out);
        if !neg {
            out[at..].iter_mut().for_each(|b| *b = !*b);
        }
    }
    // The centimal digits: pairs of decimal digits (a leading 0 when x is
    // odd, a trailing 0 when the count is odd), 2X+1 each, the last 2X.
    let lead = usize::from(x.rem_euclid(2) == 1);
    let n_digits = (lead + d.digits.len()).div_ceil(2);
    let digit = |i: usize| i.checked_sub(lead).and_then(|j| d.digits.get(j).copied());
    for p in 0..n_digits {
        let c = digit(2 * p).unwrap_or(0) * 10 + digit(2 * p + 1).unwrap_or(0);
        let b = if p + 1 < n_digits { 2 * c + 1 } else { 2 * c };
        out.push(b ^ m_mask);
    }
    Ok(())
}

/// The old (pre-HBASE-26566) `encodeNumericLarge`'s exponent loops on
/// `|v| = 0.D × 10^x` (`x >= 1`): they divide by 10^32, 10^8 and 100 while
/// the value is at least 10^32, 10^8 and 1 *and* `E <= 350`. Returns `E`
/// and `y`, the value left being `0.D × 10^y` (`y <= 0` below 100^351,
/// where `E = ceil(x / 2)`; `y >= 1` from 100^351 up).
fn legacy_exponent(x: i64) -> (i64, i64) {
    // 0.D × 10^(x − 2E) >= 10^k exactly when x − 2E > k.
    let mut e = 0;
    for (k, step) in [(32, 16), (8, 4), (0, 1)] {
        while x - 2 * e > k && e <= 350 {
            e += step;
        }
    }
    (e, x - 2 * e)
}

/// Appends a number of 100^351 or more (normalized, `d.exponent() > 702`)
/// as HBase's encoder wrote it before HBASE-26566. After the exponent
/// loops ([`legacy_exponent`]) the value left is `0.D × 10^y` with `y >= 1`;
/// the mantissa loop multiplies it by 100 and writes `(byte) (2d + 1)` for
/// `d = BigDecimal.intValue()`, the low 32 bits of the integer part `I`:
/// only `I mod 128` reaches the byte. When `I` fits an `int` the rest is
/// the ordinary fraction digits; otherwise `I − d` (a non-zero multiple of
/// 2^32) never leaves, so the loop runs its full 18 bytes, the fraction
/// digits then zeros. The last byte's low bit is cleared.
fn encode_legacy_large(d: &Decimal, out: &mut Vec<u8>) {
    let (e, y) = legacy_exponent(d.exponent);
    let neg = d.negative;
    out.push(if neg { NEG_LARGE } else { POS_LARGE });
    let at = out.len();
    encode_varuint64(e as u64, out);
    if neg {
        out[at..].iter_mut().for_each(|b| *b = !*b);
    }
    // B = 100 × 0.D × 10^y has z integer digits: D's first z digits, then
    // zeros. 10^7 is a multiple of 128, so seven zeros decide I mod 128.
    let z = usize::try_from(y + 2).unwrap_or(usize::MAX);
    let int_digits = &d.digits[..z.min(d.digits.len())];
    let zeros = (z - int_digits.len()).min(7);
    let digits = int_digits
        .iter()
        .copied()
        .chain(std::iter::repeat_n(0, zeros));
    let low7 = digits.fold(0u8, |r, c| ((u16::from(r) * 10 + u16::from(c)) % 128) as u8);
    // I >= 2^31 (not an int): certain with more than 10 digits.
    let fits_int = z <= 10 && {
        let i = int_digits.iter().fold(0u64, |v, &c| v * 10 + u64::from(c));
        i * 10u64.pow((z - int_digits.len()) as u32) < 1 << 31
    };
    let frac = d.digits.get(z..).unwrap_or(&[]);
    let start = out.len();
    out.push(2 * low7 + 1);
    let mut i = 0;
    while out.len() - start < 18 && (!fits_int || i < frac.len()) {
        let c = frac.get(i).copied().unwrap_or(0) * 10 + frac.get(i + 1).copied().unwrap_or(0);
        out.push(2 * c + 1);
        i += 2;
    }
    if let Some(last) = out.last_mut() {
        *last &= 0xFE;
    }
    if neg {
        out[start..].iter_mut().for_each(|b| *b = !*b);
    }
}

/// Appends the fields of a struct (HBase `Struct.encode`): each value in
/// its field's encoding, trailing nulls omitted. `values` may be shorter
/// than `schema` (the rest are null).
///
/// # Errors
/// [`ValueError::Schema`] when there are more values than fields or a
/// blob-copy field is not the last; otherwise as [`encode_value`], with the
/// index of the field.
pub fn encode_struct(
    schema: &[Field],
    values: &[Value],
    out: &mut Vec<u8>,
) -> Result<(), ValueError> {
    Codec::CURRENT.encode_struct(schema, values, out)
}

fn check_schema(schema: &[Field]) -> Result<(), ValueError> {
    let n = schema.len();
    if schema
        .iter()
        .take(n.saturating_sub(1))
        .any(|f| f.kind == Kind::BlobCopy)
    {
        return Err(ValueError::Schema {
            reason: "blob-copy runs to the end of the key: only the last field may use it",
        });
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------

/// Decodes one value of `field` starting at `pos` in `key`; returns it and
/// the offset after it. Offsets in errors are offsets into `key`.
///
/// ```
/// use lexikey::interop::hbase::{decode_value, Field, Kind, Value};
/// let key = [0x2C, 0x80, 0, 0, 0, 0, 0, 0, 0x05];
/// assert_eq!(decode_value(Field::asc(Kind::Int64), &key, 0)?, (Value::Int64(5), 9));
/// let err = decode_value(Field::desc(Kind::Int64), &key, 0).unwrap_err();
/// assert_eq!(err.offset(), 0); // an ascending header where a descending one belongs
/// # Ok::<(), lexikey::DecodeError>(())
/// ```
///
/// # Errors
/// [`DecodeError::UnexpectedTag`] for a header of another type or order,
/// [`DecodeError::Truncated`] when the key ends inside the value,
/// [`DecodeError::NonCanonical`] and [`DecodeError::InvalidSymbol`] for
/// bytes HBase's encoder would not write, [`DecodeError::InvalidUtf8`]
/// for text.
pub fn decode_value(field: Field, key: &[u8], pos: usize) -> Result<(Value, usize), DecodeError> {
    Codec::CURRENT.decode_value(field, key, pos)
}

/// Decodes a whole key as a struct of `schema` (HBase `Struct.decode`):
/// returns one value per field, null for the fields after the end of the
/// key.
///
/// # Errors
/// As [`decode_value`], plus [`DecodeError::NonCanonical`] for an
/// explicitly written trailing null (HBase's `Struct` omits them),
/// [`DecodeError::TrailingBytes`] after the last field, and
/// [`DecodeError::SchemaRequired`] (offset 0) for a schema with a
/// blob-copy field that is not the last.
pub fn decode_struct(schema: &[Field], key: &[u8]) -> Result<Vec<Value>, DecodeError> {
    Codec::CURRENT.decode_struct(schema, key)
}

struct Reader<'a> {
    key: &'a [u8],
    mask: u8,
    numeric: NumericEncoding,
}

impl Reader<'_> {
    fn get(&self, i: usize, expected: &'static str) -> Result<u8, DecodeError> {
        self.key
            .get(i)
            .map(|b| b ^ self.mask)
            .ok_or(DecodeError::Truncated {
                offset: self.key.len(),
                expected,
            })
    }

    fn fixed<const N: usize>(&self, pos: usize) -> Result<[u8; N], DecodeError> {
        let mut a = [0u8; N];
        for (i, b) in a.iter_mut().enumerate() {
            *b = self.get(pos + i, "fixed-width value bytes")?;
        }
        Ok(a)
    }

    fn value(&self, kind: Kind, pos: usize) -> Result<(Value, usize), DecodeError> {
        let raw = *self.key.get(pos).ok_or(DecodeError::Truncated {
            offset: self.key.len(),
            expected: "a header byte",
        })?;
        let h = raw ^ self.mask;
        let body = pos + 1;
        let wrong = |expected| DecodeError::UnexpectedTag {
            offset: pos,
            found: raw,
            expected,
        };
        // Ascending headers are below 0x80: the header's own order must be
        // the field's.
        if raw >= 0x80 && self.mask == 0 || raw < 0x80 && self.mask != 0 {
            return Err(wrong(if self.mask == 0 {
                "an ascending header (below 0x80)"
            } else {
                "a descending header (0x80 or above)"
            }));
        }
        if h == NULL && kind.is_nullable() {
            if kind == Kind::BlobCopy && self.mask != 0 {
                let t = self.get(body, "0x00 ending a descending blob-copy null")?;
                if t != 0 {
                    return Err(DecodeError::InvalidSymbol {
                        offset: body,
                        found: self.key[body],
                        expected: "0xFF ending a descending blob-copy null",
                    });
                }
                return Ok((Value::Null, body + 1));
            }
            return Ok((Value::Null, body));
        }
        Ok(match kind {
            Kind::Int8 if h == FIXED_INT8 => {
                let [b] = self.fixed::<1>(body)?;
                (Value::Int8((b ^ 0x80) as i8), body + 1)
            }
            Kind::Int16 if h == FIXED_INT16 => {
                let b = self.fixed::<2>(body)?;
                (
                    Value::Int16((u16::from_be_bytes(b) ^ 0x8000) as i16),
                    body + 2,
                )
            }
            Kind::Int32 if h == FIXED_INT32 => {
                let b = self.fixed::<4>(body)?;
                (
                    Value::Int32((u32::from_be_bytes(b) ^ 0x8000_0000) as i32),
                    body + 4,
                )
            }
            Kind::Int64 if h == FIXED_INT64 => {
                let b = self.fixed::<8>(body)?;
                (
                    Value::Int64((u64::from_be_bytes(b) ^ 1 << 63) as i64),
                    body + 8,
                )
            }
            Kind::Float32 if h == FIXED_FLOAT32 => {
                let t = u32::from_be_bytes(self.fixed::<4>(body)?);
                let f = order::f32_from_order(t, NanRule::Canonical).ok_or(
                    DecodeError::NonCanonical {
                        offset: body,
                        reason: "a NaN other than Java's canonical 0x7fc00000",
                    },
                )?;
                (Value::Float32(f), body + 4)
            }
            Kind::Float64 if h == FIXED_FLOAT64 => {
                let t = u64::from_be_bytes(self.fixed::<8>(body)?);
                let f = order::f64_from_order(t, NanRule::Canonical).ok_or(
                    DecodeError::NonCanonical {
                        offset: body,
                        reason: "a NaN other than Java's canonical 0x7ff8000000000000",
                    },
                )?;
                (Value::Float64(f), body + 8)
            }
            Kind::Numeric if (NEG_INF..=NAN).contains(&h) && h != 0x24 && h != 0x25 => {
                let (n, next) = self.numeric(h, pos)?;
                (Value::Numeric(n), next)
            }
            Kind::Text if h == TEXT => {
                let mut i = body;
                let mut bytes = Vec::new();
                loop {
                    let b = self.get(i, "0x00 ending the text")?;
                    if b == 0 {
                        break;
                    }
                    bytes.push(b);
                    i += 1;
                }
                match String::from_utf8(bytes) {
                    Ok(s) => (Value::Text(s), i + 1),
                    Err(e) => {
                        return Err(DecodeError::InvalidUtf8 {
                            offset: body + e.utf8_error().valid_up_to(),
                        })
                    }
                }
            }
            Kind::BlobVar if h == BLOB_VAR => self.blob_var(body)?,
            Kind::BlobCopy if h == BLOB_COPY => {
                let end = if self.mask == 0 {
                    self.key.len()
                } else {
                    // Descending: the value, then an inverted 0x00 at the very end.
                    let last = self.key.len().checked_sub(1).filter(|&l| l >= body);
                    match last {
                        Some(l) if self.key[l] == 0xFF => l,
                        Some(l) => {
                            return Err(DecodeError::InvalidSymbol {
                                offset: l,
                                found: self.key[l],
                                expected: "0xFF ending a descending blob-copy",
                            })
                        }
                        None => {
                            return Err(DecodeError::Truncated {
                                offset: self.key.len(),
                                expected: "0xFF ending a descending blob-copy",
                            })
                        }
                    }
                };
                let mut v = Vec::with_capacity(end - body);
                for i in body..end {
                    let b = self.key[i] ^ self.mask;
                    if b == 0 && self.mask != 0 {
                        return Err(DecodeError::InvalidSymbol {
                            offset: i,
                            found: self.key[i],
                            expected: "no 0xFF (0x00) inside a descending blob-copy",
                        });
                    }
                    v.push(b);
                }
                let next = if self.mask == 0 { end } else { end + 1 };
                (Value::Bytes(v), next)
            }
            _ => {
                return Err(wrong(match kind {
                    Kind::Int8 => "the int8 header 0x29 (0xD6 descending)",
                    Kind::Int16 => "the int16 header 0x2A (0xD5 descending)",
                    Kind::Int32 => "the int32 header 0x2B (0xD4 descending)",
                    Kind::Int64 => "the int64 header 0x2C (0xD3 descending)",
                    Kind::Float32 => "the float32 header 0x30 (0xCF descending)",
                    Kind::Float64 => "the float64 header 0x31 (0xCE descending)",
                    Kind::Numeric => "a numeric header 0x05-0x23 or 0x26 (inverted descending)",
                    Kind::Text => "the text header 0x34 (0xCB descending) or null",
                    Kind::BlobVar => "the blob-var header 0x37 (0xC8 descending) or null",
                    Kind::BlobCopy => "the blob-copy header 0x38 (0xC7 descending) or null",
                }))
            }
        })
    }

    fn blob_var(&self, body: usize) -> Result<(Value, usize), DecodeError> {
        // Collect the 7-bit groups up to the one with the MSB clear.
        let mut groups = Vec::new();
        let mut i = body;
        loop {
            let b = self.get(i, "a blob-var byte with the high bit clear")?;
            groups.push(b & 0x7F);
            i += 1;
            if b & 0x80 == 0 {
                break;
            }
        }
        let last = i - 1;
        if groups.len() == 1 && groups[0] == 0 {
            return Ok((Value::Bytes(Vec::new()), i));
        }
        let total_bits = groups.len() * 7;
        let n = total_bits / 8;
        if n == 0 || (n * 8).div_ceil(7) != groups.len() {
            return Err(DecodeError::NonCanonical {
                offset: last,
                reason: "blob-var longer than its bytes need",
            });
        }
        let mut out = vec![0u8; n];
        for bit in 0..total_bits {
            let set = groups[bit / 7] & (0x40 >> (bit % 7)) != 0;
            if bit < n * 8 {
                if set {
                    out[bit / 8] |= 0x80 >> (bit % 8);
                }
            } else if set {
                return Err(DecodeError::NonCanonical {
                    offset: last,
                    reason: "blob-var padding bits are not zero",
                });
            }
        }
        Ok((Value::Bytes(out), i))
    }

    /// Decodes a numeric value whose (de-masked) header `h` is at `pos`.
    fn numeric(&self, h: u8, pos: usize) -> Result<(Numeric, usize), DecodeError> {
        let body = pos + 1;
        let noncanon = |offset, reason| DecodeError::NonCanonical { offset, reason };
        let (negative, e, m_at, m_comp): (bool, i64, usize, bool) = match h {
            NEG_INF => return Ok((Numeric::NegInfinity, body)),
            POS_INF => return Ok((Numeric::Infinity, body)),
            NAN => return Ok((Numeric::NaN, body)),
            ZERO => return Ok((Numeric::Finite(Decimal::default()), body)),
            NEG_LARGE | POS_LARGE => {
                let neg = h == NEG_LARGE;
                let (e, len) = read_varint(self.key, body, self.mask ^ if neg { 0xFF } else { 0 })?;
                if e <= 10 {
                    return Err(noncanon(
                        pos,
                        "large-number header for an exponent of 10 or less",
                    ));
                }
                if e > MAX_EXPONENT {
                    return Err(noncanon(
                        body,
                        "exponent beyond java.math.BigDecimal's range",
                    ));
                }
                if self.numeric == NumericEncoding::Legacy && e > MAX_LARGE_EXPONENT + 1 {
                    return Err(noncanon(body, LEGACY_NEVER_WROTE));
                }
                (neg, e as i64, body + len, neg)
            }
            NEG_SMALL | POS_SMALL => {
                let neg = h == NEG_SMALL;
                let (e, len) = read_varint(self.key, body, self.mask ^ if neg { 0 } else { 0xFF })?;
                if e > MAX_SMALL_EXPONENT {
                    return Err(noncanon(
                        body,
                        "exponent beyond java.math.BigDecimal's range",
                    ));
                }
                (neg, -(e as i64), body + len, neg)
            }
            NEG_MED_MIN..=NEG_MED_MAX | POS_MED_MIN..=POS_MED_MAX => {
                let neg = h <= NEG_MED_MAX;
                let e = if neg {
                    NEG_MED_MAX - h
                } else {
                    h - POS_MED_MIN
                };
                if e == 0 {
                    return Err(noncanon(
                        pos,
                        "medium-number header for exponent 0 (a small number)",
                    ));
                }
                (neg, i64::from(e), body, neg)
            }
            _ => unreachable!("numeric() is only called with numeric headers"),
        };
        let comp = if m_comp { 0xFF } else { 0 };
        let large = matches!(h, NEG_LARGE | POS_LARGE);
        match self.mantissa(negative, e, pos, m_at, comp) {
            // A key of the old encoder for 100^351 and above: its shape is
            // known, whatever the current decoder found wrong.
            Err(err)
                if large
                    && (e == MAX_LARGE_EXPONENT as i64 || e == MAX_LARGE_EXPONENT as i64 + 1) =>
            {
                match self.legacy_mantissa(negative, e, m_at, comp) {
                    Some(found) if self.numeric == NumericEncoding::Legacy => Ok(found),
                    Some(_) => Err(noncanon(m_at, LEGACY_KEY)),
                    None => Err(err),
                }
            }
            other => other,
        }
    }

    /// The canonical mantissa at `m_at` (bytes 2X+1, the last one 2X, XORed
    /// with `comp` for a negative number) of a number with exponent `e`.
    fn mantissa(
        &self,
        negative: bool,
        e: i64,
        pos: usize,
        m_at: usize,
        comp: u8,
    ) -> Result<(Numeric, usize), DecodeError> {
        let noncanon = |offset, reason| DecodeError::NonCanonical { offset, reason };
        let mut dec = Vec::new();
        let mut i = m_at;
        loop {
            let b = self.get(i, "numeric mantissa bytes")? ^ comp;
            let c = b >> 1;
            if c > 99 {
                return Err(DecodeError::InvalidSymbol {
                    offset: i,
                    found: self.key[i],
                    expected: "a centimal digit byte (2X or 2X+1, X <= 99)",
                });
            }
            if i == m_at && c == 0 {
                return Err(noncanon(i, "leading zero centimal digit"));
            }
            dec.push(c / 10);
            dec.push(c % 10);
            i += 1;
            if b & 1 == 0 {
                if c == 0 {
                    return Err(noncanon(i - 1, "trailing zero centimal digit"));
                }
                break;
            }
        }
        // A small number's exponent within MAX_SMALL_EXPONENT can still leave
        // BigDecimal's range once a leading zero digit is dropped: refused,
        // never read as zero.
        let Some(d) = Decimal::new(negative, &dec, 2 * e) else {
            return Err(noncanon(
                pos + 1,
                "exponent beyond java.math.BigDecimal's range",
            ));
        };
        if d.digits.len() > MAX_PRECISION {
            return Err(noncanon(m_at, "more than 31 significant digits"));
        }
        Ok((Numeric::Finite(d), i))
    }

    /// A mantissa the pre-HBASE-26566 encoder wrote after `E = 351` or `352`
    /// (see [`encode_legacy_large`]): a first byte of any value (the low
    /// bits of the integer part), then centimal digits; at most 18 bytes;
    /// a trailing zero digit only when the loop ran its full 18 bytes (or
    /// wrote one). `None` if the bytes are not of that shape. The value is
    /// what the old `decodeSignificand` reads: `Σ (byteᵢ >> 1) × 100^(E−1−i)`
    /// rounded to 31 digits half up.
    fn legacy_mantissa(
        &self,
        negative: bool,
        e: i64,
        m_at: usize,
        comp: u8,
    ) -> Option<(Numeric, usize)> {
        let mut dec = Vec::with_capacity(37);
        let mut i = m_at;
        let last = loop {
            let b = self.key.get(i)? ^ self.mask ^ comp;
            let c = b >> 1;
            if i == m_at && c >= 100 {
                dec.extend_from_slice(&[1, (c - 100) / 10, (c - 100) % 10]);
            } else if c <= 99 {
                dec.extend_from_slice(&[c / 10, c % 10]);
            } else {
                return None;
            }
            i += 1;
            if b & 1 == 0 {
                break c;
            }
            if i - m_at == 18 {
                return None;
            }
        };
        let n = i - m_at;
        if last == 0 && n > 1 && n < 18 {
            return None;
        }
        let x = 2 * e + i64::from(dec.len() % 2 == 1);
        let d = Decimal::new(negative, &dec, x)?.normalized();
        Some((Numeric::Finite(d), i))
    }
}

/// Why a current-HBase decoder refuses an old key of 100^351 or more.
const LEGACY_KEY: &str =
    "a key written by HBase's numeric encoder before HBASE-26566 (HBase 2.4.x \
     and older) for a number of 100^351 or more, which current HBase reads as another number: \
     read it with --hbase-numeric legacy (hbase::NumericEncoding::Legacy)";

/// Why the legacy decoder refuses `E > 352`.
const LEGACY_NEVER_WROTE: &str = "an exponent over 352, which HBase's numeric encoder before \
     HBASE-26566 never wrote (a current-HBase key: read it without --hbase-numeric legacy)";

// ---------------------------------------------------------------------------
// Component syntax
// ---------------------------------------------------------------------------

/// Parses a `KIND[.desc]:VALUE` component; a bare `KIND[.desc]` (no `:`)
/// is null.
///
/// | `KIND` | `VALUE` |
/// |---|---|
/// | `int8` `int16` `int32` `int64` | decimal |
/// | `float32` `float64` | Rust float syntax, `NaN`, `inf`, `-inf` |
/// | `numeric` | decimal with optional exponent (`-1.5e-7`), `inf`, `-inf`, `NaN` |
/// | `text` (`str`) | the text, verbatim |
/// | `blob-var`, `blob-copy` (`blob`) | hex |
///
/// ```
/// use lexikey::interop::hbase::{parse_component, Field, Kind, Numeric, Value};
/// let (f, v) = parse_component("numeric.desc:-12.5")?;
/// assert_eq!(f, Field::desc(Kind::Numeric));
/// assert_eq!(v, Value::Numeric("-12.5".parse()?));
/// assert_eq!(parse_component("text")?.1, Value::Null);
/// # Ok::<(), lexikey::ParseError>(())
/// ```
///
/// # Errors
/// A [`ParseError`] naming the component.
pub fn parse_component(s: &str) -> Result<(Field, Value), ParseError> {
    let Some((spec, text)) = s.split_once(':') else {
        return Ok((Field::parse(s)?, Value::Null));
    };
    let field = Field::parse(spec)?;
    Ok((field, parse_value(field.kind, text)?))
}

/// Parses the text of a value of `kind` (see [`parse_component`]).
///
/// # Errors
/// A [`ParseError`] for text that is not a value of the kind.
pub fn parse_value(kind: Kind, text: &str) -> Result<Value, ParseError> {
    let bad = || ParseError::new(format!("invalid {kind} value {text:?}"));
    Ok(match kind {
        Kind::Int8 => Value::Int8(text.parse().map_err(|_| bad())?),
        Kind::Int16 => Value::Int16(text.parse().map_err(|_| bad())?),
        Kind::Int32 => Value::Int32(text.parse().map_err(|_| bad())?),
        Kind::Int64 => Value::Int64(text.parse().map_err(|_| bad())?),
        Kind::Float32 => Value::Float32(text.parse().map_err(|_| bad())?),
        Kind::Float64 => Value::Float64(text.parse().map_err(|_| bad())?),
        Kind::Numeric => Value::Numeric(Numeric::parse(text)?),
        Kind::Text => Value::Text(text.to_string()),
        Kind::BlobVar | Kind::BlobCopy => Value::Bytes(crate::value::literal::parse_hex(text)?),
    })
}

/// Writes a component in the syntax of [`parse_component`].
///
/// ```
/// use lexikey::interop::hbase::{format_component, Field, Kind, Value};
/// assert_eq!(format_component(Field::desc(Kind::Int8), &Value::Int8(-3)), "int8.desc:-3");
/// assert_eq!(format_component(Field::asc(Kind::Text), &Value::Null), "text");
/// ```
pub fn format_component(field: Field, value: &Value) -> String {
    let v = match value {
        Value::Null => return field.to_string(),
        Value::Int8(v) => v.to_string(),
        Value::Int16(v) => v.to_string(),
        Value::Int32(v) => v.to_string(),
        Value::Int64(v) => v.to_string(),
        Value::Float32(v) => format!("{v:?}"),
        Value::Float64(v) => format!("{v:?}"),
        Value::Numeric(n) => n.to_string(),
        Value::Text(s) => s.clone(),
        Value::Bytes(b) => crate::to_hex(b),
    };
    format!("{field}:{v}")
}
