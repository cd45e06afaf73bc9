//! Keys to columns: [`decode_array`], [`decoded_schema`].

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{
    ArrayBuilder, BinaryBuilder, BooleanBuilder, FixedSizeBinaryBuilder, Float32Builder,
    Float64Builder, Int16Builder, Int32Builder, Int64Builder, Int8Builder, NullBuilder,
    StringBuilder, TimestampMillisecondBuilder, TimestampNanosecondBuilder, UInt32Builder,
    UInt64Builder,
};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, ListArray, RecordBatch};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, FieldRef, Schema, SchemaRef, TimeUnit};
use lexikey::frontend::host::{list_element, native_out, ColType, FdbType, Out};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::native::{Col, GeoOpts, Kind};
use lexikey::frontend::spec::KeySpec;
use lexikey::interop::{hbase, phoenix};
use lexikey::value::literal;
use lexikey::{Type, Value};

use crate::encode::schema_of;
use crate::{default_name, ArrowKeyError};

/// The time zone of decoded timestamps.
const UTC: &str = "UTC";

/// The Arrow type a column type decodes to (the crate docs' table).
pub(crate) fn arrow_type(ty: &ColType) -> DataType {
    let ms = DataType::Timestamp(TimeUnit::Millisecond, Some(UTC.into()));
    let ns = DataType::Timestamp(TimeUnit::Nanosecond, Some(UTC.into()));
    let uuid = DataType::FixedSizeBinary(16);
    match ty {
        ColType::Native(c) => match c.kind {
            Kind::Ulid | Kind::Geo => DataType::Utf8,
            Kind::Uuid7 => uuid,
            Kind::Core(t) => match t {
                Type::Str | Type::Dec => DataType::Utf8,
                Type::I64 | Type::Vi64 => DataType::Int64,
                Type::U64 | Type::Vu64 => DataType::UInt64,
                Type::I32 => DataType::Int32,
                Type::U32 => DataType::UInt32,
                Type::F64 => DataType::Float64,
                Type::F32 => DataType::Float32,
                Type::Bool => DataType::Boolean,
                Type::Bytes => DataType::Binary,
                Type::Ts => ms,
                Type::Uuid => uuid,
            },
        },
        ColType::Fdb(t) => match t {
            FdbType::Null => DataType::Null,
            FdbType::Bytes => DataType::Binary,
            FdbType::Str => DataType::Utf8,
            FdbType::Int | FdbType::I64 => DataType::Int64,
            FdbType::U64 => DataType::UInt64,
            FdbType::I32 => DataType::Int32,
            FdbType::U32 => DataType::UInt32,
            FdbType::F32 | FdbType::Float => DataType::Float32,
            FdbType::F64 | FdbType::Double => DataType::Float64,
            FdbType::Bool => DataType::Boolean,
            FdbType::Uuid => uuid,
            FdbType::Versionstamp => DataType::FixedSizeBinary(12),
        },
        ColType::Hbase(f) => match f.kind {
            hbase::Kind::Int8 => DataType::Int8,
            hbase::Kind::Int16 => DataType::Int16,
            hbase::Kind::Int32 => DataType::Int32,
            hbase::Kind::Int64 => DataType::Int64,
            hbase::Kind::Float32 => DataType::Float32,
            hbase::Kind::Float64 => DataType::Float64,
            hbase::Kind::Numeric | hbase::Kind::Text => DataType::Utf8,
            hbase::Kind::BlobVar | hbase::Kind::BlobCopy => DataType::Binary,
        },
        ColType::Phoenix(c) => {
            use phoenix::Type as T;
            match c.ty {
                T::Tinyint | T::UnsignedTinyint => DataType::Int8,
                T::Smallint | T::UnsignedSmallint => DataType::Int16,
                T::Integer | T::UnsignedInt => DataType::Int32,
                T::Bigint | T::UnsignedLong => DataType::Int64,
                T::Float | T::UnsignedFloat => DataType::Float32,
                T::Double | T::UnsignedDouble => DataType::Float64,
                T::Boolean => DataType::Boolean,
                T::Date | T::Time | T::UnsignedDate | T::UnsignedTime => ms,
                T::Timestamp | T::UnsignedTimestamp => ns,
                T::Varchar | T::Char(_) | T::Decimal => DataType::Utf8,
                T::Varbinary | T::Binary(_) => DataType::Binary,
            }
        }
    }
}

/// The field a column type decodes to: named, nullable in the profiles
/// (which have nulls), UUIDs marked with the `arrow.uuid` extension; a
/// list field (`list<…>`) a `List` of its element column's field, named
/// `item`, not nullable (elements are not).
fn field(ty: &ColType, name: &str, nullable: bool) -> Field {
    if let ColType::Native(c) = ty {
        if c.field.list > 0 {
            let item = field(&ColType::Native(list_element(c)), "item", false);
            return Field::new(name, DataType::List(Arc::new(item)), nullable);
        }
    }
    let dt = arrow_type(ty);
    let uuid = dt == DataType::FixedSizeBinary(16);
    let f = Field::new(name, dt, nullable);
    if uuid {
        f.with_metadata(HashMap::from([(
            "ARROW:extension:name".to_string(),
            "arrow.uuid".to_string(),
        )]))
    } else {
        f
    }
}

/// The schema of the batches [`decode_array`] returns: one field per
/// column of the spec's schema, of the type in the crate docs' table,
/// named `names` (default: `c0`, `c1`, …), nullable in the interop
/// profiles only.
///
/// # Errors
/// A spec without a schema; another number of names than the schema has
/// fields.
pub fn decoded_schema(
    spec: &KeySpec,
    names: Option<&[String]>,
) -> Result<SchemaRef, ArrowKeyError> {
    let types = schema_of(spec)?;
    if let Some(n) = names {
        if n.len() != types.len() {
            return Err(ArrowKeyError::new(format!(
                "{} names; the schema has {} fields",
                n.len(),
                types.len()
            )));
        }
    }
    let nullable = !matches!(spec.format(), KeyFormat::Native(_));
    let fields: Vec<Field> = types
        .iter()
        .enumerate()
        .map(|(i, ty)| {
            let name = names.map_or_else(|| default_name(i), |n| n[i].clone());
            // A nullable native column (`TYPE?`) has nulls too.
            let native_null = matches!(ty, ColType::Native(c) if c.field.nulls.is_some());
            field(ty, &name, nullable || native_null)
        })
        .collect();
    Ok(Arc::new(Schema::new(fields)))
}

/// A column being built.
#[derive(Debug)]
enum Builder {
    Null(NullBuilder),
    Str(StringBuilder),
    Bin(BinaryBuilder),
    FixedBin(FixedSizeBinaryBuilder),
    Bool(BooleanBuilder),
    I8(Int8Builder),
    I16(Int16Builder),
    I32(Int32Builder),
    I64(Int64Builder),
    U32(UInt32Builder),
    U64(UInt64Builder),
    F32(Float32Builder),
    F64(Float64Builder),
    TsMs(TimestampMillisecondBuilder),
    TsNs(TimestampNanosecondBuilder),
    /// A list column: its element field, each list's end in the
    /// elements, its nulls, the elements.
    List(FieldRef, Vec<i32>, NullBufferBuilder, Box<Builder>),
}

impl Builder {
    fn new(dt: &DataType, rows: usize) -> Builder {
        match dt {
            DataType::Null => Builder::Null(NullBuilder::new()),
            DataType::Utf8 => Builder::Str(StringBuilder::with_capacity(rows, rows * 8)),
            DataType::Binary => Builder::Bin(BinaryBuilder::with_capacity(rows, rows * 8)),
            DataType::FixedSizeBinary(n) => {
                Builder::FixedBin(FixedSizeBinaryBuilder::with_capacity(rows, *n))
            }
            DataType::Boolean => Builder::Bool(BooleanBuilder::with_capacity(rows)),
            DataType::Int8 => Builder::I8(Int8Builder::with_capacity(rows)),
            DataType::Int16 => Builder::I16(Int16Builder::with_capacity(rows)),
            DataType::Int32 => Builder::I32(Int32Builder::with_capacity(rows)),
            DataType::UInt32 => Builder::U32(UInt32Builder::with_capacity(rows)),
            DataType::UInt64 => Builder::U64(UInt64Builder::with_capacity(rows)),
            DataType::Float32 => Builder::F32(Float32Builder::with_capacity(rows)),
            DataType::Float64 => Builder::F64(Float64Builder::with_capacity(rows)),
            DataType::Timestamp(TimeUnit::Millisecond, _) => {
                Builder::TsMs(TimestampMillisecondBuilder::with_capacity(rows).with_timezone(UTC))
            }
            DataType::Timestamp(_, _) => {
                Builder::TsNs(TimestampNanosecondBuilder::with_capacity(rows).with_timezone(UTC))
            }
            DataType::List(f) => Builder::List(
                f.clone(),
                {
                    let mut ends = Vec::with_capacity(rows + 1);
                    ends.push(0);
                    ends
                },
                NullBufferBuilder::new(rows),
                Box::new(Builder::new(f.data_type(), rows)),
            ),
            // Int64, and nothing else: arrow_type gives no other type.
            _ => Builder::I64(Int64Builder::with_capacity(rows)),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::Null(b) => Arc::new(b.finish()),
            Builder::Str(b) => Arc::new(b.finish()),
            Builder::Bin(b) => Arc::new(b.finish()),
            Builder::FixedBin(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
            Builder::I8(b) => Arc::new(b.finish()),
            Builder::I16(b) => Arc::new(b.finish()),
            Builder::I32(b) => Arc::new(b.finish()),
            Builder::I64(b) => Arc::new(b.finish()),
            Builder::U32(b) => Arc::new(b.finish()),
            Builder::U64(b) => Arc::new(b.finish()),
            Builder::F32(b) => Arc::new(b.finish()),
            Builder::F64(b) => Arc::new(b.finish()),
            Builder::TsMs(b) => Arc::new(b.finish()),
            Builder::TsNs(b) => Arc::new(b.finish()),
            Builder::List(f, ends, nulls, items) => {
                let ends = std::mem::replace(ends, vec![0]);
                Arc::new(ListArray::new(
                    f.clone(),
                    OffsetBuffer::new(ScalarBuffer::from(ends)),
                    items.finish(),
                    nulls.finish(),
                ))
            }
        }
    }

    /// Ends a list of a list column (`null`: the list is a null).
    fn end_list(
        ends: &mut Vec<i32>,
        nulls: &mut NullBufferBuilder,
        items: &Builder,
        null: bool,
    ) -> Result<(), String> {
        let end = i32::try_from(items.len()).map_err(|_| {
            "more than 2^31 list elements in one column: decode fewer keys per array".to_string()
        })?;
        ends.push(end);
        nulls.append(!null);
        Ok(())
    }

    /// The number of values appended (a list column's elements).
    fn len(&self) -> usize {
        match self {
            Builder::Null(b) => b.len(),
            Builder::Str(b) => b.len(),
            Builder::Bin(b) => b.len(),
            Builder::FixedBin(b) => b.len(),
            Builder::Bool(b) => b.len(),
            Builder::I8(b) => b.len(),
            Builder::I16(b) => b.len(),
            Builder::I32(b) => b.len(),
            Builder::I64(b) => b.len(),
            Builder::U32(b) => b.len(),
            Builder::U64(b) => b.len(),
            Builder::F32(b) => b.len(),
            Builder::F64(b) => b.len(),
            Builder::TsMs(b) => b.len(),
            Builder::TsNs(b) => b.len(),
            Builder::List(_, ends, ..) => ends.len() - 1,
        }
    }

    /// Appends a decoded value; `Err` names why it has no value of the
    /// column's Arrow type.
    fn push(&mut self, v: &Out<'_>) -> Result<(), String> {
        let out_of_range = |what: &str| Err(format!("{} is out of range for {what}", show_out(v)));
        match (self, v) {
            (Builder::Null(b), _) => b.append_null(),
            (Builder::Str(b), Out::Null) => b.append_null(),
            (Builder::Bin(b), Out::Null) => b.append_null(),
            (Builder::FixedBin(b), Out::Null) => b.append_null(),
            (Builder::Bool(b), Out::Null) => b.append_null(),
            (Builder::I8(b), Out::Null) => b.append_null(),
            (Builder::I16(b), Out::Null) => b.append_null(),
            (Builder::I32(b), Out::Null) => b.append_null(),
            (Builder::I64(b), Out::Null) => b.append_null(),
            (Builder::U32(b), Out::Null) => b.append_null(),
            (Builder::U64(b), Out::Null) => b.append_null(),
            (Builder::F32(b), Out::Null) => b.append_null(),
            (Builder::F64(b), Out::Null) => b.append_null(),
            (Builder::TsMs(b), Out::Null) => b.append_null(),
            (Builder::TsNs(b), Out::Null) => b.append_null(),
            (Builder::List(_, ends, nulls, items), Out::Null) => {
                Builder::end_list(ends, nulls, items, true)?
            }
            (Builder::List(_, ends, nulls, items), Out::List(elems)) => {
                for e in elems {
                    items.push(e)?;
                }
                Builder::end_list(ends, nulls, items, false)?
            }
            (Builder::Str(b), Out::Str(s)) => b.append_value(s),
            (Builder::Str(b), Out::Decimal(s)) => b.append_value(s),
            (Builder::Str(b), Out::Geo(lat, lon)) => b.append_value(format!("{lat},{lon}")),
            (Builder::Bin(b), Out::Bytes(x)) => b.append_value(x),
            (Builder::FixedBin(b), Out::Bytes(x)) => {
                b.append_value(x).map_err(|e| e.to_string())?
            }
            (Builder::FixedBin(b), Out::Uuid(u)) => {
                b.append_value(u.to_be_bytes()).map_err(|e| e.to_string())?
            }
            (Builder::Bool(b), Out::Bool(x)) => b.append_value(*x),
            (Builder::I8(b), Out::Int(x)) => match i8::try_from(*x) {
                Ok(x) => b.append_value(x),
                Err(_) => return out_of_range("Int8"),
            },
            (Builder::I16(b), Out::Int(x)) => match i16::try_from(*x) {
                Ok(x) => b.append_value(x),
                Err(_) => return out_of_range("Int16"),
            },
            (Builder::I32(b), Out::Int(x)) => match i32::try_from(*x) {
                Ok(x) => b.append_value(x),
                Err(_) => return out_of_range("Int32"),
            },
            (Builder::I64(b), Out::Int(x)) => b.append_value(*x),
            (Builder::I64(_), Out::U64(_) | Out::BigInt(_)) => return out_of_range("Int64"),
            (Builder::U32(b), Out::Int(x)) => match u32::try_from(*x) {
                Ok(x) => b.append_value(x),
                Err(_) => return out_of_range("UInt32"),
            },
            (Builder::U64(b), Out::Int(x)) => match u64::try_from(*x) {
                Ok(x) => b.append_value(x),
                Err(_) => return out_of_range("UInt64"),
            },
            (Builder::U64(b), Out::U64(x)) => b.append_value(*x),
            (Builder::F32(b), Out::F32(x)) => b.append_value(*x),
            (Builder::F64(b), Out::F64(x)) => b.append_value(*x),
            (Builder::TsMs(b), Out::Time { secs, nanos }) => {
                let ms = i128::from(*secs) * 1000 + i128::from(*nanos / 1_000_000);
                match i64::try_from(ms) {
                    Ok(ms) if nanos % 1_000_000 == 0 => b.append_value(ms),
                    _ => return out_of_range("Timestamp(ms)"),
                }
            }
            (Builder::TsNs(b), Out::Time { secs, nanos }) => {
                let ns = i128::from(*secs) * 1_000_000_000 + i128::from(*nanos);
                match i64::try_from(ns) {
                    Ok(ns) => b.append_value(ns),
                    Err(_) => {
                        return Err(format!(
                            "{} is out of range for Timestamp(ns) (1677-09-21 to 2262-04-11)",
                            show_out(v)
                        ))
                    }
                }
            }
            (_, v) => return Err(format!("{} has no value of the column's type", show_out(v))),
        }
        Ok(())
    }

    /// Appends a decoded native value (of column `col`).
    #[inline]
    fn push_native(&mut self, col: &Col, v: &Value<'_>, geo: &GeoOpts) -> Result<(), String> {
        match (self, v) {
            (Builder::Str(b), Value::Str(s)) if matches!(col.kind, Kind::Core(_)) => {
                b.append_value(s)
            }
            (Builder::I64(b), Value::I64(x) | Value::Vi64(x)) => b.append_value(*x),
            (Builder::U64(b), Value::U64(x) | Value::Vu64(x)) => b.append_value(*x),
            (Builder::I32(b), Value::I32(x)) => b.append_value(*x),
            (Builder::U32(b), Value::U32(x)) => b.append_value(*x),
            (Builder::F64(b), Value::F64(x)) => b.append_value(*x),
            (Builder::F32(b), Value::F32(x)) => b.append_value(*x),
            (Builder::Bool(b), Value::Bool(x)) => b.append_value(*x),
            (Builder::Bin(b), Value::Bytes(x)) => b.append_value(x),
            (Builder::TsMs(b), Value::Ts(ms)) => b.append_value(*ms),
            (Builder::List(_, ends, nulls, items), Value::List(_, elems)) => {
                let elem = list_element(col);
                for e in elems {
                    items.push_native(&elem, e, geo)?;
                }
                Builder::end_list(ends, nulls, items, false)?
            }
            (Builder::List(_, ends, nulls, items), Value::Null(_)) => {
                Builder::end_list(ends, nulls, items, true)?
            }
            (b, v) => {
                let out = native_out(Some(col), v, geo).map_err(|e| e.to_string())?;
                return b.push(&out);
            }
        }
        Ok(())
    }
}

/// A decoded value as messages show it.
fn show_out(v: &Out<'_>) -> String {
    match v {
        Out::Null => "null".into(),
        Out::Bool(b) => b.to_string(),
        Out::Int(x) => x.to_string(),
        Out::U64(x) => x.to_string(),
        Out::BigInt(i) => i.to_string(),
        Out::F64(x) => format!("{x:?}"),
        Out::F32(x) => format!("{x:?}"),
        Out::Str(s) => literal::show_input(s),
        Out::Bytes(b) => format!("0x{}", lexikey::to_hex(b)),
        Out::Versionstamp(b) => format!("versionstamp 0x{}", lexikey::to_hex(b)),
        Out::Uuid(u) => {
            let mut s = String::new();
            literal::format_uuid(*u, &mut s);
            s
        }
        Out::Time { secs, nanos } => lexikey::frontend::host::time_text(*secs, *nanos),
        Out::Decimal(s) => s.clone(),
        Out::Geo(lat, lon) => format!("({lat:?}, {lon:?})"),
        Out::Nested(_) => "a nested tuple".into(),
        Out::List(_) => "a list".into(),
    }
}

/// The keys of a key array, each borrowed.
enum Keys<'a> {
    Bin(&'a arrow_array::BinaryArray),
    LargeBin(&'a arrow_array::LargeBinaryArray),
    BinView(&'a arrow_array::BinaryViewArray),
    Str(&'a arrow_array::StringArray),
    LargeStr(&'a arrow_array::LargeStringArray),
    StrView(&'a arrow_array::StringViewArray),
}

impl<'a> Keys<'a> {
    fn of(a: &'a dyn Array) -> Result<Keys<'a>, ArrowKeyError> {
        Ok(match a.data_type() {
            DataType::Binary => Keys::Bin(a.as_binary()),
            DataType::LargeBinary => Keys::LargeBin(a.as_binary()),
            DataType::BinaryView => Keys::BinView(a.as_binary_view()),
            DataType::Utf8 => Keys::Str(a.as_string()),
            DataType::LargeUtf8 => Keys::LargeStr(a.as_string()),
            DataType::Utf8View => Keys::StrView(a.as_string_view()),
            dt => {
                return Err(ArrowKeyError::new(format!(
                    "a {dt} key array: expected Binary, LargeBinary, BinaryView, Utf8, \
                     LargeUtf8 or Utf8View"
                )))
            }
        })
    }

    #[inline]
    fn get(&self, r: usize) -> &'a [u8] {
        match self {
            Keys::Bin(a) => a.value(r),
            Keys::LargeBin(a) => a.value(r),
            Keys::BinView(a) => a.value(r),
            Keys::Str(a) => a.value(r).as_bytes(),
            Keys::LargeStr(a) => a.value(r).as_bytes(),
            Keys::StrView(a) => a.value(r).as_bytes(),
        }
    }
}

/// A key as messages show it: text keys quoted, binary keys as hex.
fn show_key(text: bool, key: &[u8]) -> String {
    match std::str::from_utf8(key) {
        Ok(s) if text => literal::show_input(s),
        _ => format!("0x{}", lexikey::to_hex(key)),
    }
}

/// Decodes a key array (Binary, LargeBinary, BinaryView, Utf8, LargeUtf8
/// or Utf8View; sliced arrays from their offset) into a record batch of
/// [`decoded_schema`]: one column per field of the spec's schema, each
/// key decoded canonically (a key the encoder could not have written is
/// an error).
///
/// # Errors
/// A spec without a schema, a key array of another type, a null key, a
/// key that does not decode, a value outside its column's Arrow type (a
/// Phoenix `TIMESTAMP` beyond the years 1677–2262, an `fdb-tuple` `int`
/// beyond `Int64`): the error names the row and the key (and the column
/// where it is known). Nothing partial is returned.
pub fn decode_array(
    spec: &KeySpec,
    keys: &dyn Array,
    names: Option<&[String]>,
) -> Result<RecordBatch, ArrowKeyError> {
    let schema = decoded_schema(spec, names)?;
    let types = schema_of(spec)?;
    let text = crate::encode::is_text(spec.format());
    let rows = keys.len();
    let k = Keys::of(keys)?;
    let mut builders: Vec<Builder> = schema
        .fields()
        .iter()
        .map(|f| Builder::new(f.data_type(), rows))
        .collect();
    let key_error = |r: usize, key: &[u8], column: Option<usize>, message: String| ArrowKeyError {
        column: column.map(|i| schema.field(i).name().clone()),
        row: Some(r),
        value: Some(show_key(text, key)),
        message,
    };
    let native: Option<Vec<Col>> = types
        .iter()
        .map(|t| match t {
            ColType::Native(c) => Some(*c),
            _ => None,
        })
        .collect();
    let mut arena = lexikey::tuple::DecodeArena::new();
    let nulls = keys.logical_nulls();
    for r in 0..rows {
        if nulls.as_ref().is_some_and(|n| n.is_null(r)) {
            return Err(ArrowKeyError {
                row: Some(r),
                value: Some("null".into()),
                ..ArrowKeyError::new("a null key")
            });
        }
        let key = k.get(r);
        match &native {
            Some(cols) => {
                // Each component straight into its column's builder (no
                // vector of components, no `String` per escaped string);
                // the key's own error comes first, as when the whole key
                // was decoded before any value was pushed.
                let mut bad: Option<(usize, String)> = None;
                spec.decode_arena(key, &mut arena, |i, c| {
                    if bad.is_none() {
                        if let (Some(b), Some(col)) = (builders.get_mut(i), cols.get(i)) {
                            if let Err(m) = b.push_native(col, &c.value, spec.geo()) {
                                bad = Some((i, m));
                            }
                        }
                    }
                })
                .map_err(|e| key_error(r, key, None, e.to_string()))?;
                if let Some((i, m)) = bad {
                    return Err(key_error(r, key, Some(i), m));
                }
            }
            None => {
                let v = spec
                    .decode(key)
                    .map_err(|e| key_error(r, key, None, e.to_string()))?;
                if v.len() != builders.len() {
                    return Err(key_error(
                        r,
                        key,
                        None,
                        format!(
                            "{} values; the schema has {} fields",
                            v.len(),
                            builders.len()
                        ),
                    ));
                }
                for (i, b) in builders.iter_mut().enumerate() {
                    let out = v
                        .get(i)
                        .map_err(|e| key_error(r, key, Some(i), e.to_string()))?;
                    b.push(&out).map_err(|m| key_error(r, key, Some(i), m))?;
                }
            }
        }
    }
    let columns: Vec<ArrayRef> = builders.iter_mut().map(Builder::finish).collect();
    RecordBatch::try_new(schema, columns).map_err(|e| ArrowKeyError::new(e.to_string()))
}
