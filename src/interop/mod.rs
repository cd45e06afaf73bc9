//! Byte-exact interop profiles: keys that Java and FoundationDB code
//! already wrote, read and written byte for byte.
//!
//! | profile | module | CLI `--format` | element model |
//! |---|---|---|---|
//! | FoundationDB tuple layer | [`fdb`] | `fdb-tuple` | [`fdb::Element`] (self-describing: type codes) |
//! | HBase `OrderedBytes` / `Struct` | [`hbase`] | `hbase-ordered` | [`hbase::Field`] schema + [`hbase::Value`] |
//! | Apache Phoenix row keys | [`phoenix`] | `phoenix` | [`phoenix::Table`] (columns, salt) + [`phoenix::Value`] |
//!
//! # FoundationDB (`fdb-tuple`)
//!
//! - [`fdb::pack`]`(&[Element], &mut Vec<u8>)`, [`fdb::pack_to_vec`],
//!   [`fdb::unpack`]`(&[u8]) -> Result<Vec<Element>, DecodeError>`
//!   (canonical), [`fdb::unpack_lenient`] (also Python's form of ±(2^64−1)).
//! - Keys are self-describing: `decode` needs no schema.
//! - Components: [`fdb::parse_component`] / [`fdb::format_component`]:
//!   `null:`, `bytes:HEX`, `str:TEXT`, `int:DEC` (any size up to 255
//!   bytes; `i64`/`u64`/`i32`/`u32` are range-checked aliases), `f32:`,
//!   `f64:` (also `0x` + raw IEEE bits), `bool:`, `uuid:`,
//!   `versionstamp:HEX24`. No `.desc`: the tuple layer has no descending
//!   order.
//!
//! # HBase `OrderedBytes` (`hbase-ordered`)
//!
//! - One value: [`hbase::encode_value`]`(Field, &Value, &mut Vec<u8>)`,
//!   [`hbase::decode_value`]`(Field, &[u8], pos) -> (Value, next)`.
//! - A row key: [`hbase::encode_struct`]`(&[Field], &[Value], &mut Vec<u8>)`
//!   and [`hbase::decode_struct`]`(&[Field], &[u8]) -> Vec<Value>` (HBase
//!   `Struct`: fields concatenated, trailing nulls omitted). Decoding needs
//!   the schema (headers name the encoding but not, e.g., blob-var vs
//!   blob-copy nulls).
//! - Components: [`hbase::parse_component`] / [`hbase::format_component`]
//!   with `KIND[.desc]:VALUE`, kinds `int8`, `int16`, `int32`, `int64`,
//!   `float32`, `float64`, `numeric` (decimal text, `inf`, `-inf`, `NaN`),
//!   `text`, `blob-var`, `blob-copy` (hex); a bare `KIND[.desc]` is null.
//!   [`hbase::Field::parse`] parses a schema entry (`numeric.desc`).
//! - Encoding errors are [`ValueError`] (U+0000 in text, `00` in a
//!   descending blob-copy, null in a fixed-width field, a numeric rounded
//!   past `BigDecimal`'s range).
//! - Numerics of 100^351 and above are written as HBase 2.5.0 and later
//!   write them (HBASE-26566); [`hbase::Codec::LEGACY`] writes and reads
//!   them as HBase 2.4.x and older did ([`hbase::NumericEncoding`]).
//!
//! # Apache Phoenix (`phoenix`)
//!
//! - A table: [`phoenix::Table::parse`]`("varchar,bigint.desc")`, then
//!   `.salted(n)` for `SALT_BUCKETS = n` (the CLI's `--salt-buckets N`)
//!   and `.legacy()` for tables older than Phoenix 4.4.
//! - [`phoenix::encode_row_key`]`(&Table, &[Value], &mut Vec<u8>)` and
//!   [`phoenix::decode_row_key`]`(&Table, &[u8]) -> Vec<Value>`; one value's
//!   bytes: [`phoenix::encode_value`]; the salt byte alone:
//!   [`phoenix::salt_byte`].
//! - Components: [`phoenix::parse_component`] /
//!   [`phoenix::format_component`] with `TYPE[.desc]:VALUE`, types named as
//!   in SQL, lowercase (`integer`/`int`, `bigint`, `smallint`, `tinyint`,
//!   `unsigned_int`, …, `float`, `double`, `boolean`, `date`, `time`,
//!   `timestamp`, `varchar`, `varbinary` as hex, `decimal` as decimal
//!   text, `char(N)` as text, `binary(N)` as hex); a bare `TYPE[.desc]` or
//!   an empty `varchar:`/`varbinary:`/`decimal:` is null. `DECIMAL` values
//!   are [`phoenix::Decimal`] (the same canonical decimal as
//!   [`hbase::Decimal`]); one of more than 38 significant digits is refused
//!   unless parsed with [`phoenix::parse_component_with`] and
//!   [`phoenix::DecimalRounding::HalfUp`], which rounds it as Phoenix does
//!   ([`phoenix::round_decimal`]); arrays are not supported.
//!
//! # Mapping `TYPE[.desc]:VALUE` onto each profile
//!
//! | lexikey component | `fdb-tuple` | `hbase-ordered` | `phoenix` |
//! |---|---|---|---|
//! | `str:` | `str:` | `text:` | `varchar:` |
//! | `bytes:` | `bytes:` | `blob-var:` (or `blob-copy:` last) | `varbinary:` (last) |
//! | `i64:` | `int:` (or `i64:`) | `int64:` (or `numeric:`) | `bigint:` |
//! | `i32:` | `int:` (or `i32:`) | `int32:` | `integer:` |
//! | `u64:` | `int:` (or `u64:`) | `numeric:` | `unsigned_long:` (up to 2^63−1) |
//! | `f64:` / `f32:` | `f64:` / `f32:` | `float64:` / `float32:` | `double:` / `float:` |
//! | `bool:` | `bool:` | — | `boolean:` |
//! | `ts:` | `int:` (ms) | `int64:` (ms) | `timestamp:` / `date:` |
//! | `uuid:` | `uuid:` | `blob-var:` (hex) | `varbinary:` (hex) or `binary(16):` |
//! | — | — | `numeric:` | `decimal:` (up to 38 digits; rounded with `--round`) |
//! | `.desc` | not available | `.desc` (every byte inverted) | `.desc` |
//!
//! Every decoder returns [`crate::DecodeError`] with the offset of the byte
//! at fault and never panics, whatever the input.
//!
//! # Directions
//!
//! lexikey's [`Dir`], HBase's [`hbase::Order`] and Phoenix's
//! [`phoenix::SortOrder`] name the same two directions (a descending
//! component is written as the ascending one with every byte inverted, in
//! all three), and convert into each other with `From`:
//!
//! ```
//! use lexikey::interop::{hbase::Order, phoenix::SortOrder};
//! use lexikey::Dir;
//!
//! assert_eq!(Order::from(Dir::Desc), Order::Descending);
//! assert_eq!(SortOrder::from(Order::Descending), SortOrder::Desc);
//! assert_eq!(Dir::from(SortOrder::Asc), Dir::Asc);
//! ```

use crate::value::Dir;

pub mod fdb;
pub mod hbase;
pub mod phoenix;

use hbase::Order;
use phoenix::SortOrder;

impl From<Dir> for Order {
    fn from(d: Dir) -> Order {
        match d {
            Dir::Asc => Order::Ascending,
            Dir::Desc => Order::Descending,
        }
    }
}

impl From<Order> for Dir {
    fn from(o: Order) -> Dir {
        match o {
            Order::Ascending => Dir::Asc,
            Order::Descending => Dir::Desc,
        }
    }
}

impl From<Dir> for SortOrder {
    fn from(d: Dir) -> SortOrder {
        match d {
            Dir::Asc => SortOrder::Asc,
            Dir::Desc => SortOrder::Desc,
        }
    }
}

impl From<SortOrder> for Dir {
    fn from(o: SortOrder) -> Dir {
        match o {
            SortOrder::Asc => Dir::Asc,
            SortOrder::Desc => Dir::Desc,
        }
    }
}

impl From<Order> for SortOrder {
    fn from(o: Order) -> SortOrder {
        Dir::from(o).into()
    }
}

impl From<SortOrder> for Order {
    fn from(o: SortOrder) -> Order {
        Dir::from(o).into()
    }
}

/// Why a value could not be encoded in an interop profile (the Java side
/// would throw, or would write a key that does not decode to the value).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValueError {
    /// The value cannot be written in this field's type.
    #[error("field {field}: {reason}")]
    Unencodable {
        /// Zero-based index of the field in the schema.
        field: usize,
        /// Why, e.g. "text may not contain U+0000".
        reason: &'static str,
    },
    /// The value's variant does not match the field's type.
    #[error("field {field}: expected a {expected} value")]
    TypeMismatch {
        /// Zero-based index of the field in the schema.
        field: usize,
        /// The type the schema declares.
        expected: &'static str,
    },
    /// The schema or the number of values is not usable.
    #[error("schema: {reason}")]
    Schema {
        /// What is wrong with it.
        reason: &'static str,
    },
}
