//! The native formats' fast path: each Arrow value straight to the core
//! value of its column's type and written by the core's own
//! [`KeyWriter`] (ascending `str` and `i64` by its typed writers), with no
//! host value ([`Arg`](lexikey::frontend::host::Arg)) and no row encoder
//! in between. It takes exactly the values the row path takes without an
//! error, as the row path converts them; at the first value it does not
//! take (a value out of range, a sub-millisecond instant, a number too
//! wide for its decimal width, a key too long) it stops, and the row path
//! writes that row (and the rest of the batch), so that errors are the
//! row path's own.

use std::borrow::Cow;

use arrow_buffer::i256;
use arrow_schema::TimeUnit;
use lexikey::format::typed::KeyWriter;
use lexikey::frontend::host::{f64_of_f32, ColType};
use lexikey::frontend::native::Kind;
use lexikey::frontend::spec::KeySpec;
use lexikey::value::big_decimal::Dec;
use lexikey::{Component, Dir, Field, Format, Type, Value};

use crate::read::{str_at, uuid_at, Column, Values};

/// How one column is written.
#[derive(Debug)]
enum Writer {
    /// An ascending `str`: [`KeyWriter::str`].
    Str,
    /// An ascending `i64` from an `Int64` column: [`KeyWriter::i64`]
    /// (not in `decimal` with a width).
    I64,
    /// Any other core type: the value, then [`KeyWriter::push`].
    Comp(Field),
}

/// The writers of the columns, or `None` when a column is not a core type
/// (`ulid`, `uuid7`, `geo`: the row path writes those).
fn writers(format: Format, types: &[ColType], cols: &[Column<'_>]) -> Option<Vec<Writer>> {
    types
        .iter()
        .zip(cols)
        .map(|(ty, c)| {
            let ColType::Native(col) = ty else {
                return None;
            };
            let Kind::Core(t) = col.kind else {
                return None;
            };
            let f = col.field;
            Some(match (t, f.dir, &c.values) {
                (Type::Str, Dir::Asc, _) => Writer::Str,
                (Type::I64, Dir::Asc, Values::I64(_))
                    if format != Format::Decimal || f.width.is_none() =>
                {
                    Writer::I64
                }
                _ => Writer::Comp(f),
            })
        })
        .collect()
}

/// Writes rows `rows` of `cols` as keys into `values`, each key's end
/// into `offsets`; `Err(r)`: row `r` is not written (the keys before it
/// are), the row path writes it.
pub(crate) fn write_rows(
    spec: &KeySpec,
    types: &[ColType],
    cols: &[Column<'_>],
    rows: std::ops::Range<usize>,
    values: &mut Vec<u8>,
    offsets: &mut Vec<i32>,
    unsalted: &mut Vec<u8>,
) -> Result<(), usize> {
    let KeyFormat::Native(format) = spec.format() else {
        return Err(rows.start);
    };
    let Some(ws) = writers(format, types, cols) else {
        return Err(rows.start);
    };
    let nullable: Vec<usize> = cols
        .iter()
        .enumerate()
        .filter(|(_, c)| c.has_nulls())
        .map(|(i, _)| i)
        .collect();
    let salter = spec.salter();
    let max = spec.max_key_len();
    let mut digits = [0u8; 80];
    for r in rows {
        if nullable.iter().any(|&i| cols[i].is_null(r)) {
            return Err(r);
        }
        let start = values.len();
        let dst = match salter {
            Some(_) => {
                unsalted.clear();
                &mut *unsalted
            }
            None => &mut *values,
        };
        let mut w = KeyWriter::new(format, dst);
        for (wr, c) in ws.iter().zip(cols) {
            let ok = match wr {
                Writer::Str => match str_at(&c.values, r) {
                    Some(s) => {
                        w.str(s);
                        true
                    }
                    None => false,
                },
                Writer::I64 => match &c.values {
                    Values::I64(v) => {
                        w.i64(v[r]);
                        true
                    }
                    _ => false,
                },
                Writer::Comp(f) => match value(f.ty, &c.values, r, &mut digits) {
                    Some(value) => w
                        .push(&Component {
                            value,
                            dir: f.dir,
                            width: f.width,
                        })
                        .is_ok(),
                    None => false,
                },
            };
            if !ok {
                values.truncate(start);
                return Err(r);
            }
        }
        if let Some(s) = &salter {
            s.salted_key_into(unsalted, values);
        }
        let end = values.len();
        if end - start > max {
            values.truncate(start);
            return Err(r);
        }
        match i32::try_from(end) {
            Ok(end) => offsets.push(end),
            Err(_) => {
                values.truncate(start);
                return Err(r);
            }
        }
    }
    Ok(())
}

use lexikey::frontend::key_format::KeyFormat;

/// An integer of an integer column.
#[inline]
fn int(v: &Values<'_>, r: usize) -> Option<i128> {
    Some(match v {
        Values::I8(v) => v[r].into(),
        Values::I16(v) => v[r].into(),
        Values::I32(v) => v[r].into(),
        Values::I64(v) => v[r].into(),
        Values::U8(v) => v[r].into(),
        Values::U16(v) => v[r].into(),
        Values::U32(v) => v[r].into(),
        Values::U64(v) => v[r].into(),
        _ => return None,
    })
}

/// The ASCII digits of `m` at the end of `buf`.
#[inline]
fn digits_of(mut m: u128, buf: &mut [u8; 80]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            return &buf[i..];
        }
    }
}

/// The value of core type `ty` in row `r`, as the row path converts the
/// host value it would be given (`None`: one the row path refuses, or
/// converts in a way this path does not).
#[inline]
fn value<'a>(ty: Type, v: &Values<'a>, r: usize, digits: &mut [u8; 80]) -> Option<Value<'a>> {
    Some(match ty {
        Type::Str => Value::Str(Cow::Borrowed(str_at(v, r)?)),
        Type::I64 => Value::I64(i64::try_from(int(v, r)?).ok()?),
        Type::U64 => Value::U64(u64::try_from(int(v, r)?).ok()?),
        Type::I32 => Value::I32(i32::try_from(int(v, r)?).ok()?),
        Type::U32 => Value::U32(u32::try_from(int(v, r)?).ok()?),
        Type::F64 => Value::F64(match v {
            Values::F64(x) => x[r],
            Values::F32(x) => f64_of_f32(x[r]),
            _ => return None,
        }),
        Type::F32 => match v {
            Values::F32(x) => Value::F32(x[r]),
            _ => return None,
        },
        Type::Bool => match v {
            Values::Bool(a) => Value::Bool(a.value(r)),
            _ => return None,
        },
        Type::Bytes => Value::Bytes(Cow::Borrowed(match v {
            Values::Bin(a) => a.value(r),
            Values::LargeBin(a) => a.value(r),
            Values::BinView(a) => a.value(r),
            Values::FixedBin(a) => a.value(r),
            _ => return None,
        })),
        Type::Ts => Value::Ts(match v {
            Values::Ts(x, unit) => {
                let x = x[r];
                match unit {
                    TimeUnit::Second => x.checked_mul(1000)?,
                    TimeUnit::Millisecond => x,
                    TimeUnit::Microsecond if x % 1000 == 0 => x / 1000,
                    TimeUnit::Nanosecond if x % 1_000_000 == 0 => x / 1_000_000,
                    _ => return None,
                }
            }
            Values::Date32(x) => i64::from(x[r]) * 86_400_000,
            Values::Date64(x) => x[r],
            _ => return None,
        }),
        Type::Uuid => match v {
            Values::Uuid(a) => Value::Uuid(uuid_at(a, r)),
            _ => return None,
        },
        Type::Dec => Value::Dec(match v {
            Values::Dec128(x, scale) => {
                let x = x[r];
                Dec::from_scaled(x < 0, digits_of(x.unsigned_abs(), digits), (*scale).into())
                    .ok()?
            }
            Values::Dec256(x, scale) => {
                let x = x[r];
                let text = x.to_string();
                Dec::from_scaled(
                    x < i256::ZERO,
                    text.trim_start_matches('-').as_bytes(),
                    (*scale).into(),
                )
                .ok()?
            }
            Values::Str(_) | Values::LargeStr(_) | Values::StrView(_) | Values::Dict(..) => {
                Dec::parse(str_at(v, r)?).ok()?
            }
            _ => {
                let x = int(v, r)?;
                Dec::from_scaled(x < 0, digits_of(x.unsigned_abs(), digits), 0).ok()?
            }
        }),
    })
}
