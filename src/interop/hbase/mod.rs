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

mod decimal;
mod decode;
mod encode;
mod syntax;
mod varint;

pub use decimal::{Decimal, Numeric, MAX_DECIMAL_EXPONENT};
use decode::Reader;
pub use decode::{decode_struct, decode_value};
use encode::{check_schema, encode_at};
pub use encode::{encode_struct, encode_value};
pub use syntax::{format_component, parse_component, parse_value};
pub use varint::{decode_varuint64, encode_varuint64};

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
