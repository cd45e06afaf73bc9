//! Arrow columns as the core's host values ([`Arg`]): which Arrow types a
//! column type takes, and each row's value.

use std::fmt::Write as _;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Date64Type, Decimal128Type, Decimal256Type, Float32Type, Float64Type, Int16Type,
    Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{
    Array, BinaryArray, BinaryViewArray, BooleanArray, FixedSizeBinaryArray, LargeBinaryArray,
    LargeStringArray, StringArray, StringViewArray,
};
use arrow_buffer::{i256, NullBuffer};
use arrow_schema::{DataType, TimeUnit};
use lexikey::frontend::host::{list_element, time_text, Arg, ColType, Want};
use lexikey::frontend::native::{Col, Kind};
use lexikey::value::literal;
use lexikey::value::MAX_LIST_DEPTH;

/// The values of an input column, by Arrow type (each borrowed from the
/// array, its offset applied).
#[derive(Debug, Clone)]
pub(crate) enum Values<'a> {
    /// A column of Arrow type `Null`.
    Null,
    Bool(&'a BooleanArray),
    I8(&'a [i8]),
    I16(&'a [i16]),
    I32(&'a [i32]),
    I64(&'a [i64]),
    U8(&'a [u8]),
    U16(&'a [u16]),
    U32(&'a [u32]),
    U64(&'a [u64]),
    F32(&'a [f32]),
    F64(&'a [f64]),
    Str(&'a StringArray),
    LargeStr(&'a LargeStringArray),
    StrView(&'a StringViewArray),
    /// Dictionary-encoded strings: the keys (an integer variant) and the
    /// dictionary (a string variant, with its own nulls).
    Dict(Box<Values<'a>>, Box<Values<'a>>, Option<&'a NullBuffer>),
    Bin(&'a BinaryArray),
    LargeBin(&'a LargeBinaryArray),
    BinView(&'a BinaryViewArray),
    FixedBin(&'a FixedSizeBinaryArray),
    /// `FixedSizeBinary(16)` read as UUIDs.
    Uuid(&'a FixedSizeBinaryArray),
    /// A timestamp in `unit`s since 1970.
    Ts(&'a [i64], TimeUnit),
    Date32(&'a [i32]),
    Date64(&'a [i64]),
    Dec128(&'a [i128], i8),
    Dec256(&'a [i256], i8),
    /// A `List`, `LargeList` or `FixedSizeList` column: each row's
    /// elements, rows of the element column (read for the field's
    /// element column, [`list_element`]).
    List(Offsets<'a>, Box<Column<'a>>),
}

/// Where each row's elements are in a list column's element column.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Offsets<'a> {
    I32(&'a [i32]),
    I64(&'a [i64]),
    /// A `FixedSizeList` of this many elements (its element column sliced
    /// with it).
    Fixed(usize),
}

impl Offsets<'_> {
    /// The element rows of row `r` (offsets of a valid array: increasing,
    /// non-negative).
    #[inline]
    pub(crate) fn range(&self, r: usize) -> std::ops::Range<usize> {
        match *self {
            Offsets::I32(o) => o[r] as usize..o[r + 1] as usize,
            Offsets::I64(o) => o[r] as usize..o[r + 1] as usize,
            Offsets::Fixed(n) => r * n..(r + 1) * n,
        }
    }
}

/// What a column type takes, for the message of a column of another type.
fn expected(want: Want, ty: &ColType) -> &'static str {
    match want {
        Want::Int => "an integer column (Int8…Int64, UInt8…UInt64)",
        Want::Float => match ty {
            ColType::Native(c) if c.field.ty == lexikey::Type::F32 => "a Float32 column",
            _ if is_f32(ty) => "a Float32 column",
            _ => "a Float64 or Float32 column",
        },
        Want::Bool => "a Boolean column",
        Want::Str => "a string column (Utf8, LargeUtf8, Utf8View, or a dictionary of strings)",
        Want::Bytes => "a binary column (Binary, LargeBinary, BinaryView, FixedSizeBinary)",
        Want::Uuid => "a FixedSizeBinary(16) column (arrow.uuid)",
        Want::Time => "a Timestamp (any unit, any zone), Date32 or Date64 column",
        Want::Decimal => "a Decimal128, Decimal256, integer or string (exact decimal text) column",
        Want::Geo => "a string column of \"LAT,LON\" points",
        Want::Null => "a Null column",
    }
}

/// Whether a float type is 32 bits wide.
fn is_f32(ty: &ColType) -> bool {
    use lexikey::frontend::host::FdbType;
    use lexikey::interop::{hbase, phoenix};
    match ty {
        ColType::Native(c) => c.field.ty == lexikey::Type::F32,
        ColType::Fdb(t) => matches!(t, FdbType::F32 | FdbType::Float),
        ColType::Hbase(f) => f.kind == hbase::Kind::Float32,
        ColType::Phoenix(c) => {
            matches!(c.ty, phoenix::Type::Float | phoenix::Type::UnsignedFloat)
        }
    }
}

/// Whether a column type of the kind `want` also takes strings: the text
/// of a `ulid`/`uuid7` or a `geo` point.
fn takes_text(ty: &ColType) -> bool {
    matches!(
        ty,
        ColType::Native(c) if matches!(c.kind, Kind::Ulid | Kind::Uuid7 | Kind::Geo)
    )
}

fn int_values(a: &dyn Array) -> Option<Values<'_>> {
    Some(match a.data_type() {
        DataType::Int8 => Values::I8(a.as_primitive::<Int8Type>().values()),
        DataType::Int16 => Values::I16(a.as_primitive::<Int16Type>().values()),
        DataType::Int32 => Values::I32(a.as_primitive::<Int32Type>().values()),
        DataType::Int64 => Values::I64(a.as_primitive::<Int64Type>().values()),
        DataType::UInt8 => Values::U8(a.as_primitive::<UInt8Type>().values()),
        DataType::UInt16 => Values::U16(a.as_primitive::<UInt16Type>().values()),
        DataType::UInt32 => Values::U32(a.as_primitive::<UInt32Type>().values()),
        DataType::UInt64 => Values::U64(a.as_primitive::<UInt64Type>().values()),
        _ => return None,
    })
}

fn str_values(a: &dyn Array) -> Option<Values<'_>> {
    Some(match a.data_type() {
        DataType::Utf8 => Values::Str(a.as_string::<i32>()),
        DataType::LargeUtf8 => Values::LargeStr(a.as_string::<i64>()),
        DataType::Utf8View => Values::StrView(a.as_string_view()),
        DataType::Dictionary(_, v)
            if matches!(
                **v,
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
            ) =>
        {
            let d = a.as_any_dictionary();
            let keys = int_values(d.keys())?;
            let dict = d.values();
            Values::Dict(
                Box::new(keys),
                Box::new(str_values(dict.as_ref())?),
                dict.nulls(),
            )
        }
        _ => return None,
    })
}

/// Whether `dt` is a type [`Values::of`] reads for some column type (the
/// check of a stream's schema before any batch).
pub(crate) fn check_type(dt: &DataType, ty: &ColType) -> Result<(), String> {
    if let Some(col) = list_col(ty) {
        return check_list(dt, ty, col);
    }
    let ok = match dt {
        DataType::Null => true,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
            matches!(ty.want(), Want::Str | Want::Decimal) || takes_text(ty)
        }
        DataType::Dictionary(k, v) => {
            k.is_integer()
                && matches!(
                    **v,
                    DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
                )
                && (matches!(ty.want(), Want::Str | Want::Decimal) || takes_text(ty))
        }
        DataType::Int8
        | DataType::Int16
        | DataType::Int32
        | DataType::Int64
        | DataType::UInt8
        | DataType::UInt16
        | DataType::UInt32
        | DataType::UInt64 => matches!(ty.want(), Want::Int | Want::Decimal),
        DataType::Float32 => ty.want() == Want::Float,
        DataType::Float64 => ty.want() == Want::Float && !is_f32(ty),
        DataType::Boolean => ty.want() == Want::Bool,
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => ty.want() == Want::Bytes,
        DataType::FixedSizeBinary(n) => {
            ty.want() == Want::Bytes || (*n == 16 && ty.want() == Want::Uuid)
        }
        DataType::Timestamp(..) | DataType::Date32 | DataType::Date64 => ty.want() == Want::Time,
        DataType::Decimal128(..) | DataType::Decimal256(..) => ty.want() == Want::Decimal,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "a {dt} column for {ty}: expected {}",
            expected(ty.want(), ty)
        ))
    }
}

/// The native column of a list field (`list<…>`), `None` for any other.
fn list_col(ty: &ColType) -> Option<&Col> {
    match ty {
        ColType::Native(c) if c.field.list > 0 => Some(c),
        _ => None,
    }
}

/// The element type of an Arrow list type.
fn list_child(dt: &DataType) -> Option<&DataType> {
    match dt {
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => {
            Some(f.data_type())
        }
        _ => None,
    }
}

/// How many Arrow list types are nested in `dt`.
fn list_depth(dt: &DataType) -> usize {
    list_child(dt).map_or(0, |c| 1 + list_depth(c))
}

/// [`check_type`] of a list field `col`: a `List`, `LargeList` or
/// `FixedSizeList` whose element type the element column takes (lists of
/// lists for deeper fields), the list's text, or `Null`.
fn check_list(dt: &DataType, ty: &ColType, col: &Col) -> Result<(), String> {
    let text =
        |v: &DataType| matches!(v, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View);
    match dt {
        DataType::Null => Ok(()),
        v if text(v) => Ok(()),
        DataType::Dictionary(k, v) if k.is_integer() && text(v) => Ok(()),
        _ => match list_child(dt) {
            Some(child) => {
                let elem = ColType::Native(list_element(col));
                check_type(child, &elem).map_err(|m| {
                    let depth = list_depth(dt);
                    if depth == usize::from(col.field.list) {
                        format!("a {dt} column for {ty}: its elements: {m}")
                    } else {
                        let most = if depth > usize::from(MAX_LIST_DEPTH) {
                            format!(" (lists nest at most {MAX_LIST_DEPTH} levels)")
                        } else {
                            String::new()
                        };
                        format!(
                            "a {dt} column for {ty}: lists nested {depth} levels deep for a \
                             field of {} levels{most}",
                            col.field.list
                        )
                    }
                })
            }
            None => Err(format!(
                "a {dt} column for {ty}: expected a List, LargeList or FixedSizeList column of \
                 {} elements, or the lists' text (Utf8…, [ELEMENT, ...])",
                list_element(col)
            )),
        },
    }
}

/// One input column, read for one column type.
#[derive(Debug, Clone)]
pub(crate) struct Column<'a> {
    pub(crate) values: Values<'a>,
    nulls: Option<&'a NullBuffer>,
    /// Strings are exact decimal text (a `dec` column).
    decimal_text: bool,
    /// The magnitude of an integer beyond `i64` (big-endian).
    big: [u8; 32],
    /// The text of a decimal value.
    text: String,
}

impl<'a> Column<'a> {
    /// The column `array` for the column type `ty`.
    ///
    /// # Errors
    /// An Arrow type the column type does not take (the message of
    /// [`check_type`]).
    pub(crate) fn new(array: &'a dyn Array, ty: &ColType) -> Result<Column<'a>, String> {
        let dt = array.data_type();
        check_type(dt, ty)?;
        let values = match dt {
            DataType::Null => Values::Null,
            DataType::Boolean => Values::Bool(array.as_boolean()),
            DataType::Float32 => Values::F32(array.as_primitive::<Float32Type>().values()),
            DataType::Float64 => Values::F64(array.as_primitive::<Float64Type>().values()),
            DataType::Binary => Values::Bin(array.as_binary::<i32>()),
            DataType::LargeBinary => Values::LargeBin(array.as_binary::<i64>()),
            DataType::BinaryView => Values::BinView(array.as_binary_view()),
            DataType::FixedSizeBinary(16) if ty.want() == Want::Uuid => {
                Values::Uuid(array.as_fixed_size_binary())
            }
            DataType::FixedSizeBinary(_) => Values::FixedBin(array.as_fixed_size_binary()),
            DataType::Timestamp(unit, _) => {
                let values = match unit {
                    TimeUnit::Second => array
                        .as_primitive::<arrow_array::types::TimestampSecondType>()
                        .values(),
                    TimeUnit::Millisecond => array
                        .as_primitive::<arrow_array::types::TimestampMillisecondType>()
                        .values(),
                    TimeUnit::Microsecond => array
                        .as_primitive::<arrow_array::types::TimestampMicrosecondType>()
                        .values(),
                    TimeUnit::Nanosecond => array
                        .as_primitive::<arrow_array::types::TimestampNanosecondType>()
                        .values(),
                };
                Values::Ts(values, *unit)
            }
            DataType::Date32 => Values::Date32(array.as_primitive::<Date32Type>().values()),
            DataType::Date64 => Values::Date64(array.as_primitive::<Date64Type>().values()),
            DataType::Decimal128(_, s) => {
                Values::Dec128(array.as_primitive::<Decimal128Type>().values(), *s)
            }
            DataType::Decimal256(_, s) => {
                Values::Dec256(array.as_primitive::<Decimal256Type>().values(), *s)
            }
            DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(..) => {
                let (offsets, child) = match dt {
                    DataType::List(_) => {
                        let a = array.as_list::<i32>();
                        (Offsets::I32(a.value_offsets()), a.values())
                    }
                    DataType::LargeList(_) => {
                        let a = array.as_list::<i64>();
                        (Offsets::I64(a.value_offsets()), a.values())
                    }
                    _ => {
                        let a = array.as_fixed_size_list();
                        let n = usize::try_from(a.value_length()).unwrap_or_default();
                        (Offsets::Fixed(n), a.values())
                    }
                };
                let elem = list_col(ty)
                    .map(list_element)
                    .ok_or_else(|| format!("a {dt} column for {ty}: not supported"))?;
                let child = Column::new(child.as_ref(), &ColType::Native(elem))?;
                Values::List(offsets, Box::new(child))
            }
            _ => match int_values(array).or_else(|| str_values(array)) {
                Some(v) => v,
                None => return Err(format!("a {dt} column for {ty}: not supported")),
            },
        };
        Ok(Column {
            values,
            nulls: array.nulls(),
            // A list field's text is its list's (`[1.5, 2]`), not a decimal.
            decimal_text: ty.want() == Want::Decimal && list_col(ty).is_none(),
            big: [0; 32],
            text: String::new(),
        })
    }

    /// Whether any row may be null.
    pub(crate) fn has_nulls(&self) -> bool {
        self.nulls.is_some_and(|n| n.null_count() > 0)
            || match &self.values {
                Values::Null => true,
                Values::Dict(_, _, Some(n)) => n.null_count() > 0,
                _ => false,
            }
    }

    /// Whether row `r` is null (a `Null` column, a null slot, a dictionary
    /// key pointing at a null).
    #[inline]
    pub(crate) fn is_null(&self, r: usize) -> bool {
        if self.nulls.is_some_and(|n| n.is_null(r)) {
            return true;
        }
        match &self.values {
            Values::Null => true,
            Values::Dict(keys, _, dict_nulls) => {
                dict_nulls.is_some_and(|n| key_index(keys, r).is_none_or(|k| n.is_null(k)))
            }
            _ => false,
        }
    }

    /// The host value of row `r` (not null; a list: [`Arg::Other`], its
    /// elements are read by [`crate::list`]).
    pub(crate) fn arg(&mut self, r: usize) -> Arg<'_> {
        if self.is_null(r) {
            return Arg::Null;
        }
        if let Some(a) = self.array_arg(r) {
            return a;
        }
        match &self.values {
            Values::U64(v) => {
                self.big[..8].copy_from_slice(&v[r].to_be_bytes());
                Arg::BigInt {
                    negative: false,
                    magnitude: &self.big[..8],
                }
            }
            Values::Dec128(v, scale) => {
                let (v, scale) = (v[r], *scale);
                self.text.clear();
                write_decimal(v < 0, &v.unsigned_abs().to_string(), scale, &mut self.text);
                Arg::Decimal(&self.text)
            }
            Values::Dec256(v, scale) => {
                let (v, scale) = (v[r], *scale);
                self.text.clear();
                let digits = v.to_string();
                write_decimal(
                    v < i256::ZERO,
                    digits.trim_start_matches('-'),
                    scale,
                    &mut self.text,
                );
                Arg::Decimal(&self.text)
            }
            _ => Arg::Other,
        }
    }

    /// The host value of row `r` (not null) when it borrows the arrays
    /// only; `None` for one written into the column's scratch (a `UInt64`
    /// beyond `i64`, a decimal's text) and for a list.
    #[inline]
    pub(crate) fn array_arg(&self, r: usize) -> Option<Arg<'a>> {
        Some(match &self.values {
            Values::Null => Arg::Null,
            Values::Bool(a) => Arg::Bool(a.value(r)),
            Values::I8(v) => Arg::Int(v[r].into()),
            Values::I16(v) => Arg::Int(v[r].into()),
            Values::I32(v) => Arg::Int(v[r].into()),
            Values::I64(v) => Arg::Int(v[r]),
            Values::U8(v) => Arg::Int(v[r].into()),
            Values::U16(v) => Arg::Int(v[r].into()),
            Values::U32(v) => Arg::Int(v[r].into()),
            Values::U64(v) => Arg::Int(i64::try_from(v[r]).ok()?),
            Values::F32(v) => Arg::F32(v[r]),
            Values::F64(v) => Arg::F64(v[r]),
            Values::Str(_) | Values::LargeStr(_) | Values::StrView(_) | Values::Dict(..) => {
                let s = str_at(&self.values, r).unwrap_or_default();
                if self.decimal_text {
                    Arg::Decimal(s)
                } else {
                    Arg::Str(s)
                }
            }
            Values::Bin(a) => Arg::Bytes(a.value(r)),
            Values::LargeBin(a) => Arg::Bytes(a.value(r)),
            Values::BinView(a) => Arg::Bytes(a.value(r)),
            Values::FixedBin(a) => Arg::Bytes(a.value(r)),
            Values::Uuid(a) => Arg::Uuid(uuid_at(a, r)),
            Values::Ts(v, unit) => {
                let (secs, nanos) = instant(v[r], *unit);
                Arg::Time { secs, nanos }
            }
            Values::Date32(v) => Arg::Time {
                secs: i64::from(v[r]) * 86_400,
                nanos: 0,
            },
            Values::Date64(v) => {
                let (secs, nanos) = instant(v[r], TimeUnit::Millisecond);
                Arg::Time { secs, nanos }
            }
            Values::Dec128(..) | Values::Dec256(..) | Values::List(..) => return None,
        })
    }

    /// Row `r`'s value as messages show it: strings quoted, bytes as hex,
    /// instants in RFC 3339, `null`, lists in brackets (`[1, 2]`).
    pub(crate) fn show(&mut self, r: usize) -> String {
        let null = self.is_null(r);
        if let (Values::List(offsets, child), false) = (&mut self.values, null) {
            let items: Vec<String> = offsets.range(r).map(|j| child.show(j)).collect();
            return format!("[{}]", items.join(", "));
        }
        let arg = self.arg(r);
        show_arg(arg)
    }
}

/// An argument as messages show it.
pub(crate) fn show_arg(arg: Arg<'_>) -> String {
    match arg {
        Arg::Null => "null".to_string(),
        Arg::Bool(b) => b.to_string(),
        Arg::Int(v) => v.to_string(),
        Arg::BigInt { .. } => lexikey::frontend::host::int_text(arg).unwrap_or_default(),
        Arg::F64(x) => format!("{x:?}"),
        Arg::F32(x) => format!("{x:?}"),
        Arg::Str(s) | Arg::Decimal(s) | Arg::Component(s) => literal::show_input(s),
        Arg::Bytes(b) => format!("0x{}", lexikey::to_hex(b)),
        Arg::Versionstamp(b) => format!("versionstamp 0x{}", lexikey::to_hex(&b)),
        Arg::Uuid(u) => {
            let mut s = String::new();
            literal::format_uuid(u, &mut s);
            s
        }
        Arg::Time { secs, nanos } => time_text(secs, nanos),
        Arg::Geo(lat, lon) => format!("({lat:?}, {lon:?})"),
        Arg::Other => "?".to_string(),
    }
}

/// The dictionary index of row `r` (`None`: negative, not an index).
#[inline]
fn key_index(keys: &Values<'_>, r: usize) -> Option<usize> {
    match keys {
        Values::I8(v) => usize::try_from(v[r]).ok(),
        Values::I16(v) => usize::try_from(v[r]).ok(),
        Values::I32(v) => usize::try_from(v[r]).ok(),
        Values::I64(v) => usize::try_from(v[r]).ok(),
        Values::U8(v) => Some(v[r].into()),
        Values::U16(v) => Some(v[r].into()),
        Values::U32(v) => usize::try_from(v[r]).ok(),
        Values::U64(v) => usize::try_from(v[r]).ok(),
        _ => None,
    }
}

/// The string of row `r` of a string column (`None`: not one, or a
/// dictionary key out of range).
#[inline]
pub(crate) fn str_at<'a>(values: &Values<'a>, r: usize) -> Option<&'a str> {
    Some(match values {
        Values::Str(a) => a.value(r),
        Values::LargeStr(a) => a.value(r),
        Values::StrView(a) => a.value(r),
        Values::Dict(keys, dict, _) => {
            let k = key_index(keys, r)?;
            let len = match &**dict {
                Values::Str(a) => a.len(),
                Values::LargeStr(a) => a.len(),
                Values::StrView(a) => a.len(),
                _ => 0,
            };
            if k >= len {
                return None;
            }
            return str_at(dict, k);
        }
        _ => return None,
    })
}

/// The UUID in row `r`.
#[inline]
pub(crate) fn uuid_at(a: &FixedSizeBinaryArray, r: usize) -> u128 {
    u128::from_be_bytes(a.value(r).try_into().unwrap_or_default())
}

/// Seconds and nanoseconds of `v` `unit`s since 1970.
#[inline]
pub(crate) fn instant(v: i64, unit: TimeUnit) -> (i64, u32) {
    let per_sec: i64 = match unit {
        TimeUnit::Second => return (v, 0),
        TimeUnit::Millisecond => 1_000,
        TimeUnit::Microsecond => 1_000_000,
        TimeUnit::Nanosecond => 1_000_000_000,
    };
    let nanos = v.rem_euclid(per_sec) * (1_000_000_000 / per_sec);
    (v.div_euclid(per_sec), nanos as u32)
}

/// The exact decimal text of `digits × 10^-scale` (negative when `neg`):
/// plain notation with `scale` fraction digits (`150`, 2 → `1.50`), an
/// exponent for a negative scale (`15`, -2 → `15E+2`).
pub(crate) fn write_decimal(neg: bool, digits: &str, scale: i8, out: &mut String) {
    if neg {
        out.push('-');
    }
    if scale <= 0 {
        out.push_str(digits);
        if scale < 0 {
            let _ = write!(out, "E+{}", -i32::from(scale));
        }
        return;
    }
    let scale = scale as usize;
    if digits.len() > scale {
        let (int, frac) = digits.split_at(digits.len() - scale);
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', scale - digits.len()));
        out.push_str(digits);
    }
}

/// The columns of a batch against the spec's column types, named.
///
/// # Errors
/// A column of a type its column type does not take.
pub(crate) fn columns<'a>(
    arrays: &'a [arrow_array::ArrayRef],
    types: &[ColType],
    names: &[String],
) -> Result<Vec<Column<'a>>, crate::ArrowKeyError> {
    arrays
        .iter()
        .zip(types)
        .enumerate()
        .map(|(i, (a, ty))| {
            Column::new(a.as_ref(), ty).map_err(|m| crate::ArrowKeyError::column(&names[i], m))
        })
        .collect()
}
