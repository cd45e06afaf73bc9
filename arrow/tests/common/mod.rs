//! What the tests share: values of every kind as Arrow arrays of a chosen
//! type and, independently, as the row path's host values ([`Arg`]).

#![allow(dead_code)]

use std::sync::Arc;

use arrow_array::builder::StringDictionaryBuilder;
use arrow_array::types::Int32Type;
use arrow_array::*;
use arrow_buffer::i256;
use arrow_schema::{DataType, TimeUnit};
use lexikey::frontend::host::Arg;

/// The Arrow type of a generated column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum AKind {
    Utf8,
    LargeUtf8,
    Utf8View,
    Dict,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    Bool,
    Bin,
    LargeBin,
    BinView,
    /// FixedSizeBinary(3).
    Fixed3,
    TsS,
    TsMs,
    TsUs,
    TsNs,
    Date32,
    Date64,
    Uuid,
    Dec128(i8),
    Dec256(i8),
    Null,
}

/// One value, as the generator made it (its meaning depends on the
/// column's [`AKind`]: `Int` for the integer kinds and the raw count of a
/// timestamp or date, `Dec` a mantissa and scale).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    Null,
    Str(String),
    Int(i128),
    F64(f64),
    F32(f32),
    Bool(bool),
    Bytes(Vec<u8>),
    Uuid(u128),
    Dec(i128, i8),
}

/// A host value owning its bytes.
#[derive(Debug, Clone)]
pub(crate) enum OwnedArg {
    Null,
    Int(i64),
    Big(bool, Vec<u8>),
    F64(f64),
    F32(f32),
    Bool(bool),
    Str(String),
    Bytes(Vec<u8>),
    Uuid(u128),
    Time(i64, u32),
    Dec(String),
}

impl OwnedArg {
    pub(crate) fn arg(&self) -> Arg<'_> {
        match self {
            OwnedArg::Null => Arg::Null,
            OwnedArg::Int(v) => Arg::Int(*v),
            OwnedArg::Big(n, m) => Arg::BigInt {
                negative: *n,
                magnitude: m,
            },
            OwnedArg::F64(x) => Arg::F64(*x),
            OwnedArg::F32(x) => Arg::F32(*x),
            OwnedArg::Bool(b) => Arg::Bool(*b),
            OwnedArg::Str(s) => Arg::Str(s),
            OwnedArg::Bytes(b) => Arg::Bytes(b),
            OwnedArg::Uuid(u) => Arg::Uuid(*u),
            OwnedArg::Time(s, n) => Arg::Time {
                secs: *s,
                nanos: *n,
            },
            OwnedArg::Dec(t) => Arg::Decimal(t),
        }
    }
}

/// `v` counts of `per_sec` per second as seconds and nanoseconds.
fn time(v: i128, per_sec: i128) -> OwnedArg {
    let secs = v.div_euclid(per_sec);
    let nanos = v.rem_euclid(per_sec) * (1_000_000_000 / per_sec);
    OwnedArg::Time(secs as i64, nanos as u32)
}

/// The host value the row path is given for a cell of a column of `kind`
/// (`dec`: a string column holds decimal text).
pub(crate) fn owned_arg(kind: AKind, cell: &Cell, dec: bool) -> OwnedArg {
    match (kind, cell) {
        (_, Cell::Null) => OwnedArg::Null,
        (_, Cell::Str(s)) if dec => OwnedArg::Dec(s.clone()),
        (_, Cell::Str(s)) => OwnedArg::Str(s.clone()),
        (AKind::TsS, Cell::Int(v)) => OwnedArg::Time(*v as i64, 0),
        (AKind::TsMs | AKind::Date64, Cell::Int(v)) => time(*v, 1000),
        (AKind::TsUs, Cell::Int(v)) => time(*v, 1_000_000),
        (AKind::TsNs, Cell::Int(v)) => time(*v, 1_000_000_000),
        (AKind::Date32, Cell::Int(v)) => OwnedArg::Time(*v as i64 * 86_400, 0),
        (_, Cell::Int(v)) => match i64::try_from(*v) {
            Ok(x) => OwnedArg::Int(x),
            Err(_) => {
                let m = v.unsigned_abs().to_be_bytes().to_vec();
                OwnedArg::Big(*v < 0, m)
            }
        },
        (_, Cell::F64(x)) => OwnedArg::F64(*x),
        (_, Cell::F32(x)) => OwnedArg::F32(*x),
        (_, Cell::Bool(b)) => OwnedArg::Bool(*b),
        (_, Cell::Bytes(b)) => OwnedArg::Bytes(b.clone()),
        (_, Cell::Uuid(u)) => OwnedArg::Uuid(*u),
        // Exponent notation: another text than the crate writes.
        (_, Cell::Dec(m, s)) => OwnedArg::Dec(format!("{m}E{}", -i32::from(*s))),
    }
}

fn opt<T>(cells: &[Cell], f: impl Fn(&Cell) -> T) -> Vec<Option<T>> {
    cells
        .iter()
        .map(|c| if *c == Cell::Null { None } else { Some(f(c)) })
        .collect()
}

fn int(c: &Cell) -> i128 {
    match c {
        Cell::Int(v) => *v,
        other => panic!("not an int: {other:?}"),
    }
}

fn text(c: &Cell) -> String {
    match c {
        Cell::Str(s) => s.clone(),
        other => panic!("not a str: {other:?}"),
    }
}

fn bytes(c: &Cell) -> Vec<u8> {
    match c {
        Cell::Bytes(b) => b.clone(),
        other => panic!("not bytes: {other:?}"),
    }
}

/// The Arrow array of `cells` as `kind`.
pub(crate) fn array(kind: AKind, cells: &[Cell]) -> ArrayRef {
    match kind {
        AKind::Utf8 => Arc::new(StringArray::from(opt(cells, text))),
        AKind::LargeUtf8 => Arc::new(LargeStringArray::from(opt(cells, text))),
        AKind::Utf8View => Arc::new(StringViewArray::from(opt(cells, text))),
        AKind::Dict => {
            let mut b = StringDictionaryBuilder::<Int32Type>::new();
            for c in opt(cells, text) {
                match c {
                    Some(s) => {
                        b.append_value(s);
                    }
                    None => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        AKind::I8 => Arc::new(Int8Array::from(opt(cells, |c| int(c) as i8))),
        AKind::I16 => Arc::new(Int16Array::from(opt(cells, |c| int(c) as i16))),
        AKind::I32 => Arc::new(Int32Array::from(opt(cells, |c| int(c) as i32))),
        AKind::I64 => Arc::new(Int64Array::from(opt(cells, |c| int(c) as i64))),
        AKind::U8 => Arc::new(UInt8Array::from(opt(cells, |c| int(c) as u8))),
        AKind::U16 => Arc::new(UInt16Array::from(opt(cells, |c| int(c) as u16))),
        AKind::U32 => Arc::new(UInt32Array::from(opt(cells, |c| int(c) as u32))),
        AKind::U64 => Arc::new(UInt64Array::from(opt(cells, |c| int(c) as u64))),
        AKind::F32 => Arc::new(Float32Array::from(opt(cells, |c| match c {
            Cell::F32(x) => *x,
            other => panic!("{other:?}"),
        }))),
        AKind::F64 => Arc::new(Float64Array::from(opt(cells, |c| match c {
            Cell::F64(x) => *x,
            other => panic!("{other:?}"),
        }))),
        AKind::Bool => Arc::new(BooleanArray::from(opt(cells, |c| match c {
            Cell::Bool(b) => *b,
            other => panic!("{other:?}"),
        }))),
        AKind::Bin => {
            let v = opt(cells, bytes);
            Arc::new(BinaryArray::from_iter(v))
        }
        AKind::LargeBin => {
            let v = opt(cells, bytes);
            Arc::new(LargeBinaryArray::from_iter(v))
        }
        AKind::BinView => {
            let v = opt(cells, bytes);
            Arc::new(BinaryViewArray::from_iter(v))
        }
        AKind::Fixed3 => {
            let v = opt(cells, bytes);
            Arc::new(
                FixedSizeBinaryArray::try_from_sparse_iter_with_size(v.into_iter(), 3).unwrap(),
            )
        }
        AKind::Uuid => {
            let v = opt(cells, |c| match c {
                Cell::Uuid(u) => u.to_be_bytes().to_vec(),
                other => panic!("{other:?}"),
            });
            Arc::new(
                FixedSizeBinaryArray::try_from_sparse_iter_with_size(v.into_iter(), 16).unwrap(),
            )
        }
        AKind::TsS => Arc::new(TimestampSecondArray::from(opt(cells, |c| int(c) as i64))),
        AKind::TsMs => Arc::new(
            TimestampMillisecondArray::from(opt(cells, |c| int(c) as i64)).with_timezone("UTC"),
        ),
        AKind::TsUs => Arc::new(
            TimestampMicrosecondArray::from(opt(cells, |c| int(c) as i64)).with_timezone("+02:00"),
        ),
        AKind::TsNs => Arc::new(TimestampNanosecondArray::from(opt(cells, |c| {
            int(c) as i64
        }))),
        AKind::Date32 => Arc::new(Date32Array::from(opt(cells, |c| int(c) as i32))),
        AKind::Date64 => Arc::new(Date64Array::from(opt(cells, |c| int(c) as i64))),
        AKind::Dec128(s) => Arc::new(
            Decimal128Array::from(opt(cells, |c| match c {
                Cell::Dec(m, _) => *m,
                other => panic!("{other:?}"),
            }))
            .with_precision_and_scale(38, s)
            .unwrap(),
        ),
        AKind::Dec256(s) => Arc::new(
            Decimal256Array::from(opt(cells, |c| match c {
                Cell::Dec(m, _) => i256::from_i128(*m),
                other => panic!("{other:?}"),
            }))
            .with_precision_and_scale(76, s)
            .unwrap(),
        ),
        AKind::Null => Arc::new(NullArray::new(cells.len())),
    }
}

/// The Arrow type of `kind`.
pub(crate) fn data_type(kind: AKind) -> DataType {
    array(kind, &[]).data_type().clone()
}

/// The time unit of a timestamp kind.
pub(crate) fn unit(kind: AKind) -> Option<TimeUnit> {
    match data_type(kind) {
        DataType::Timestamp(u, _) => Some(u),
        _ => None,
    }
}

/// The error of a value: its column, row, value text and message.
pub(crate) fn err(
    column: &str,
    row: usize,
    value: &str,
    message: &str,
) -> lexikey_arrow::ArrowKeyError {
    lexikey_arrow::ArrowKeyError {
        column: Some(column.into()),
        row: Some(row),
        value: Some(value.into()),
        message: message.into(),
    }
}
