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
use lexikey::format::text::{escape_into, SEP};
use lexikey::format::{base64, binary, decimal, hex};
use lexikey::frontend::host::{f64_of_f32, ColType};
use lexikey::frontend::native::Kind;
use lexikey::frontend::spec::KeySpec;
use lexikey::value::big_decimal::Dec;
use lexikey::{Component, Dir, Field, Format, Type, Value};

use crate::read::{str_at, uuid_at, Column, Values};

/// Writes the cell of row `r` of one column to a key (`false`: a value
/// this path does not take; nothing is written then).
type CellFn<'c> = Box<dyn Fn(usize, &mut Vec<u8>) -> bool + 'c>;

/// The writer of a column of core type `f.ty` holding `values`, its format
/// fixed when it is built (so that each writer is one type's loop body,
/// with no dispatch on the format, the type or the Arrow type per cell).
fn writer<'c>(format: Format, f: Field, values: &'c Values<'c>) -> CellFn<'c> {
    macro_rules! per_format {
        (|$fmt:ident| $body:expr) => {
            match format {
                Format::Hex => {
                    const $fmt: Format = Format::Hex;
                    $body
                }
                Format::Base64 => {
                    const $fmt: Format = Format::Base64;
                    $body
                }
                Format::Decimal => {
                    const $fmt: Format = Format::Decimal;
                    $body
                }
                Format::Binary => {
                    const $fmt: Format = Format::Binary;
                    $body
                }
            }
        };
    }
    macro_rules! strs {
        ($a:expr) => {
            match format {
                Format::Binary => Box::new(move |r, out| {
                    binary::put_escaped($a.value(r).as_bytes(), false, out);
                    true
                }),
                _ => Box::new(move |r, out| {
                    escape_into($a.value(r).as_bytes(), out);
                    true
                }),
            }
        };
    }
    macro_rules! fixed {
        ($v:expr, $enc:path) => {
            Box::new(move |r, out| {
                out.extend_from_slice(&$enc($v[r]));
                true
            })
        };
    }
    macro_rules! typed {
        ($get:expr) => {{
            let get = $get;
            per_format!(|F| Box::new(move |r, out| put(
                F,
                &Component {
                    value: get(r),
                    dir: f.dir,
                    width: f.width,
                    nulls: f.nulls,
                    list: 0,
                },
                out
            )))
        }};
    }
    match (f.ty, f.dir, values) {
        (Type::Str, Dir::Asc, Values::Str(a)) => strs!(a),
        (Type::Str, Dir::Asc, Values::LargeStr(a)) => strs!(a),
        (Type::Str, Dir::Asc, Values::StrView(a)) => strs!(a),
        (Type::I64, Dir::Asc, Values::I64(v)) if f.width.is_none() => match format {
            Format::Hex => fixed!(v, hex::encode_i64),
            Format::Base64 => fixed!(v, base64::encode_i64),
            Format::Decimal => fixed!(v, decimal::encode_i64),
            Format::Binary => fixed!(v, binary::encode_i64),
        },
        (Type::F64, Dir::Asc, Values::F64(v)) if format != Format::Decimal => match format {
            Format::Hex => fixed!(v, hex::encode_f64),
            Format::Base64 => fixed!(v, base64::encode_f64),
            _ => fixed!(v, binary::encode_f64),
        },
        // Decimals straight from the integer and the scale to the key
        // (no `Dec`, no digits; the `decimal` format's ELEN below).
        (Type::Dec, _, &Values::Dec128(v, scale)) if format != Format::Decimal => {
            per_format!(|F| Box::new(move |r, out| {
                let x = v[r];
                F.encode_scaled_dec(x < 0, x.unsigned_abs(), scale, f.dir, out)
            }))
        }
        (Type::Dec, _, &Values::Dec256(v, scale)) if format != Format::Decimal => {
            per_format!(|F| Box::new(move |r, out| {
                let x = v[r];
                match x.to_i128() {
                    Some(x) => F.encode_scaled_dec(x < 0, x.unsigned_abs(), scale, f.dir, out),
                    None => put_value(F, f, values, r, out),
                }
            }))
        }
        // The other common pairs: the value straight from the slice.
        (Type::I64, _, Values::I64(v)) => typed!(|r| Value::I64(v[r])),
        (Type::U64, _, Values::U64(v)) => typed!(|r| Value::U64(v[r])),
        (Type::I32, _, Values::I32(v)) => typed!(|r| Value::I32(v[r])),
        (Type::U32, _, Values::U32(v)) => typed!(|r| Value::U32(v[r])),
        (Type::F64, _, Values::F64(v)) => typed!(|r| Value::F64(v[r])),
        (Type::F32, _, Values::F32(v)) => typed!(|r| Value::F32(v[r])),
        (Type::Bool, _, Values::Bool(a)) => typed!(|r| Value::Bool(a.value(r))),
        (Type::Bytes, _, Values::Bin(a)) => typed!(|r| Value::Bytes(Cow::Borrowed(a.value(r)))),
        (Type::Uuid, _, Values::Uuid(a)) => typed!(|r| Value::Uuid(uuid_at(a, r))),
        (Type::Ts, _, Values::Ts(v, TimeUnit::Millisecond)) => typed!(|r| Value::Ts(v[r])),
        _ => per_format!(|F| Box::new(move |r, out| put_value(F, f, values, r, out))),
    }
}

/// Appends row `r`'s value of `values` as a component of field `f` (its
/// core value by [`value`]); `false` as [`put`], or a value [`value`]
/// does not take.
#[inline(always)]
fn put_value(format: Format, f: Field, values: &Values<'_>, r: usize, out: &mut Vec<u8>) -> bool {
    let mut digits = [0u8; 80];
    match value(f.ty, values, r, &mut digits) {
        Some(value) => put(
            format,
            &Component {
                value,
                dir: f.dir,
                width: f.width,
                nulls: f.nulls,
                list: 0,
            },
            out,
        ),
        None => false,
    }
}

/// Appends a component in `format` (a constant where it is inlined);
/// `false`: the format cannot hold it (a number wider than its decimal
/// width, a float in `decimal`), and the row is written by the row path.
#[inline(always)]
fn put(format: Format, c: &Component<'_>, out: &mut Vec<u8>) -> bool {
    match format {
        Format::Hex => {
            hex::encode_component(c, out);
            true
        }
        Format::Base64 => {
            base64::encode_component(c, out);
            true
        }
        Format::Decimal => decimal::encode_component(c, out).is_ok(),
        Format::Binary => {
            binary::encode_component(c, out);
            true
        }
    }
}

/// The writers of the columns, or `None` when a column is not a core type
/// (`ulid`, `uuid7`, `geo`), is nullable (`TYPE?`) or is a list
/// (`list<…>`, whose values the row path builds from the list columns'
/// elements, [`crate::list`]): the row path writes (or refuses) those.
fn writers<'c>(
    format: Format,
    types: &[ColType],
    cols: &'c [Column<'c>],
) -> Option<Vec<CellFn<'c>>> {
    types
        .iter()
        .zip(cols)
        .map(|(ty, c)| match ty {
            ColType::Native(col)
                if matches!(col.kind, Kind::Core(_))
                    && col.field.nulls.is_none()
                    && col.field.list == 0 =>
            {
                Some(writer(format, col.field, &c.values))
            }
            _ => None,
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
    let sep = format.is_text();
    if salter.is_none() && nullable.is_empty() {
        if let Some(done) =
            write_binary_plain(format, types, cols, rows.clone(), values, offsets, max)
        {
            return done;
        }
        // The common case, straight into the values: a few rows, then
        // room for the rest at their mean length (no copy as it grows).
        let (first, rest) = ws.split_first().ok_or(rows.start)?;
        let write = |rows: std::ops::Range<usize>, values: &mut Vec<u8>, offsets: &mut Vec<i32>| {
            for r in rows {
                let start = values.len();
                let mut ok = first(r, values);
                for w in rest {
                    if sep {
                        values.push(SEP);
                    }
                    ok &= w(r, values);
                }
                let end = values.len();
                match i32::try_from(end) {
                    Ok(end32) if ok && end - start <= max => offsets.push(end32),
                    _ => {
                        values.truncate(start);
                        return Err(r);
                    }
                }
            }
            Ok(())
        };
        let (begin, n) = (values.len(), rows.len());
        let head = rows.start..rows.end.min(rows.start + 64);
        write(head.clone(), values, offsets)?;
        if head.end < rows.end {
            let mean = (values.len() - begin) / head.len();
            crate::mem::reserve(values, (n - head.len()) * (mean + mean / 8 + 1));
        }
        return write(head.end..rows.end, values, offsets);
    }
    for r in rows {
        if !nullable.is_empty() && nullable.iter().any(|&i| cols[i].is_null(r)) {
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
        for (i, w) in ws.iter().enumerate() {
            if sep && i > 0 {
                dst.push(SEP);
            }
            if !w(r, dst) {
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

/// A column [`write_binary_plain`] writes: a string column's offsets and
/// bytes, or an 8-byte fixed-width column.
enum Plain<'a> {
    Str(&'a [i32], &'a [u8]),
    I64(&'a [i64]),
    F64(&'a [f64]),
}

/// The `binary` keys of rows `rows` when every column is an ascending
/// `Utf8` string column whose strings hold no zero byte, an ascending
/// `i64` or an ascending `f64` (and no null, no salt), written as
/// arrow-row writes its rows: each key's length is known from the string
/// offsets alone, so one pass sets each key's start (and finds the first
/// key too long), the values are sized once, and each column then writes
/// its cells in place, advancing each key's cursor (`offsets`, which so
/// end as the keys' ends). The same bytes as the writers' (`put_escaped`
/// of a string with no zero byte is the string and `00 01`). `None`: not
/// such a batch (nothing written); otherwise as [`write_rows`].
fn write_binary_plain(
    format: Format,
    types: &[ColType],
    cols: &[Column<'_>],
    rows: std::ops::Range<usize>,
    values: &mut Vec<u8>,
    offsets: &mut Vec<i32>,
    max: usize,
) -> Option<Result<(), usize>> {
    if format != Format::Binary || cols.is_empty() || rows.is_empty() {
        return None;
    }
    let mut plain = Vec::with_capacity(cols.len());
    let mut strs = Vec::new();
    // The bytes of the keys: the strings' and each row's fixed part.
    let mut total = 0usize;
    let mut fixed = 0usize;
    for (ty, c) in types.iter().zip(cols) {
        let ColType::Native(col) = ty else {
            return None;
        };
        let f = col.field;
        if !matches!(col.kind, Kind::Core(_)) || f.dir != Dir::Asc || f.width.is_some() {
            return None;
        }
        plain.push(match (f.ty, &c.values) {
            (Type::Str, Values::Str(a)) => {
                let offs = a.value_offsets();
                let data = a.values().as_slice();
                let (a, b) = (
                    usize::try_from(offs[rows.start]).ok()?,
                    usize::try_from(offs[rows.end]).ok()?,
                );
                // No zero byte (a loop with no early exit: it vectorizes).
                if data.get(a..b)?.iter().fold(u8::MAX, |m, &x| m.min(x)) == 0 {
                    return None;
                }
                total += b - a;
                fixed += 2;
                strs.push(offs);
                Plain::Str(offs, data)
            }
            (Type::I64, Values::I64(v)) => {
                fixed += 8;
                Plain::I64(v)
            }
            (Type::F64, Values::F64(v)) => {
                fixed += 8;
                Plain::F64(v)
            }
            _ => return None,
        });
    }
    let begin = values.len();
    total = total.checked_add(fixed.checked_mul(rows.len())?)?;
    // Every end must be an `i32` (else the writers' path says where not).
    i32::try_from(begin.checked_add(total)?).ok()?;
    // Each key's start, up to the first key too long.
    let first = offsets.len();
    offsets.resize(first + rows.len(), 0);
    let cursors = &mut offsets[first..];
    let mut pos = begin;
    let mut stop = None;
    for (k, r) in rows.clone().enumerate() {
        let mut len = fixed;
        for offs in &strs {
            // Offsets of a valid array: non-negative, increasing.
            len += (offs[r + 1] - offs[r]) as usize;
        }
        if len > max {
            stop = Some(k);
            break;
        }
        // At most `begin + total`, an `i32` (checked above).
        cursors[k] = pos as i32;
        pos += len;
    }
    let done = stop.unwrap_or(rows.len());
    let cursors = &mut cursors[..done];
    // 16 bytes of room past the end for a short string's copy.
    crate::mem::reserve(values, (pos + 16).saturating_sub(values.len()));
    values.resize(pos + 16, 0);
    let rows = rows.start..rows.start + done;
    let mut rest: usize = 0;
    let after: Vec<usize> = plain
        .iter()
        .rev()
        .map(|p| {
            let here = rest;
            rest += match p {
                Plain::Str(..) => 2,
                _ => 8,
            };
            here
        })
        .collect();
    for (j, p) in plain.iter().enumerate() {
        match *p {
            Plain::Str(offs, data) => {
                // A short string is copied as 16 bytes when what they
                // cover past it is written later: always in the first
                // column (the rest of the key and the next keys are
                // written after it), else when they end inside the key.
                let room = if j == 0 {
                    0
                } else {
                    16usize.saturating_sub(2 + after[plain.len() - 1 - j])
                };
                for (c, r) in cursors.iter_mut().zip(rows.clone()) {
                    let at = *c as usize;
                    let (a, b) = (offs[r] as usize, offs[r + 1] as usize);
                    let n = b - a;
                    match data.get(a..a + 16) {
                        Some(w) if n <= 16 && n >= room => {
                            values[at..at + 16].copy_from_slice(w);
                        }
                        _ => values[at..at + n].copy_from_slice(&data[a..b]),
                    }
                    values[at + n..at + n + 2].copy_from_slice(&[0x00, 0x01]);
                    *c = (at + n + 2) as i32;
                }
            }
            Plain::I64(v) => {
                for (c, &x) in cursors.iter_mut().zip(&v[rows.clone()]) {
                    let at = *c as usize;
                    values[at..at + 8].copy_from_slice(&binary::encode_i64(x));
                    *c = (at + 8) as i32;
                }
            }
            Plain::F64(v) => {
                for (c, &x) in cursors.iter_mut().zip(&v[rows.clone()]) {
                    let at = *c as usize;
                    values[at..at + 8].copy_from_slice(&binary::encode_f64(x));
                    *c = (at + 8) as i32;
                }
            }
        }
    }
    values.truncate(pos);
    offsets.truncate(first + done);
    Some(match stop {
        Some(_) => Err(rows.end),
        None => Ok(()),
    })
}

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
fn digits_of(m: u128, buf: &mut [u8; 80]) -> &[u8] {
    let mut i = buf.len();
    // In 64 bits when it fits (a 128-bit division is a library call).
    if let Ok(mut m) = u64::try_from(m) {
        loop {
            i -= 1;
            buf[i] = b'0' + (m % 10) as u8;
            m /= 10;
            if m == 0 {
                return &buf[i..];
            }
        }
    }
    let mut m = m;
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
        Type::Vi64 => Value::Vi64(i64::try_from(int(v, r)?).ok()?),
        Type::Vu64 => Value::Vu64(u64::try_from(int(v, r)?).ok()?),
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
