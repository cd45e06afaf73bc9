//! Keys of whole Arrow columns (issue 40, "Speed"), 1,000,000 rows a
//! batch, single thread, each beside its peers in one group:
//! - `(Utf8, Int64)` → binary and hex keys: `lexikey-arrow`, arrow-rs's own
//!   row format (`arrow-row` `RowConverter::convert_columns`, what
//!   DataFusion sorts with), and the row path (`RowEncoder::encode` of each
//!   row's `Arg`s, as the bindings' `encode_many` calls it);
//! - the twelve-field schema `str,i64,u64,i32,u32,f64,f32,bool,bytes,ts,
//!   uuid,dec` → hex: `lexikey-arrow` and the row path;
//! - `(str, i64)` hex keys → columns: `decode_array` and the row path's
//!   `KeySpec::decode_into` / `KeySpec::decode_arena` of each key;
//! - a `list<i64>` column (10,000 rows of 0 to 8 elements) → hex keys,
//!   beside a scalar `i64` column of as many rows.
//!
//! `cargo bench -p lexikey-arrow --bench arrow`; throughput in rows/s.

// criterion_group! makes undocumented functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::sync::Arc;

use arrow_array::types::Decimal128Type;
use arrow_array::*;
use arrow_row::{RowConverter, SortField};
use arrow_schema::TimeUnit;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use lexikey::frontend::host::Arg;
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::KeySpec;

const ROWS: usize = 1_000_000;

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// City-like names of 4 to 19 bytes, a few with a space.
fn strings(rng: &mut Rng) -> StringArray {
    let words = ["population", "san francisco", "usa", "berlin", "tokyo", "x"];
    StringArray::from_iter_values((0..ROWS).map(|_| {
        let w = words[(rng.next() % words.len() as u64) as usize];
        format!("{w}{}", rng.next() % 1000)
    }))
}

fn ints(rng: &mut Rng) -> Int64Array {
    Int64Array::from_iter_values((0..ROWS).map(|_| rng.next() as i64 >> (rng.next() % 60)))
}

fn two(rng: &mut Rng) -> RecordBatch {
    RecordBatch::try_from_iter([
        ("s", Arc::new(strings(rng)) as ArrayRef),
        ("n", Arc::new(ints(rng)) as ArrayRef),
    ])
    .unwrap()
}

fn twelve(rng: &mut Rng) -> RecordBatch {
    let mut r = || rng.next();
    let s = StringArray::from_iter_values((0..ROWS).map(|i| format!("k{}", i % 5000)));
    let i = Int64Array::from_iter_values((0..ROWS).map(|_| r() as i64));
    let u = UInt64Array::from_iter_values((0..ROWS).map(|_| r()));
    let i32s = Int32Array::from_iter_values((0..ROWS).map(|_| r() as i32));
    let u32s = UInt32Array::from_iter_values((0..ROWS).map(|_| r() as u32));
    let f = Float64Array::from_iter_values((0..ROWS).map(|_| (r() as f64) / 3.0 - 1e18));
    let f32s = Float32Array::from_iter_values((0..ROWS).map(|_| (r() as f32) / 7.0));
    let b = BooleanArray::from_iter((0..ROWS).map(|_| Some(r() % 2 == 0)));
    let bytes = BinaryArray::from_iter_values((0..ROWS).map(|_| r().to_be_bytes()));
    let ts = TimestampMicrosecondArray::from_iter_values(
        (0..ROWS).map(|_| (r() % 2_000_000_000_000) as i64 * 1000),
    )
    .with_timezone("UTC");
    let uuid = FixedSizeBinaryArray::try_from_iter((0..ROWS).map(|_| {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&r().to_be_bytes());
        b[8..].copy_from_slice(&r().to_be_bytes());
        b
    }))
    .unwrap();
    let dec = PrimitiveArray::<Decimal128Type>::from_iter_values(
        (0..ROWS).map(|_| (r() % 100_000_000) as i128 - 50_000_000),
    )
    .with_precision_and_scale(12, 2)
    .unwrap();
    let _ = TimeUnit::Microsecond;
    RecordBatch::try_from_iter([
        ("s", Arc::new(s) as ArrayRef),
        ("i", Arc::new(i) as ArrayRef),
        ("u", Arc::new(u) as ArrayRef),
        ("i32", Arc::new(i32s) as ArrayRef),
        ("u32", Arc::new(u32s) as ArrayRef),
        ("f", Arc::new(f) as ArrayRef),
        ("f32", Arc::new(f32s) as ArrayRef),
        ("b", Arc::new(b) as ArrayRef),
        ("bytes", Arc::new(bytes) as ArrayRef),
        ("ts", Arc::new(ts) as ArrayRef),
        ("uuid", Arc::new(uuid) as ArrayRef),
        ("dec", Arc::new(dec) as ArrayRef),
    ])
    .unwrap()
}

/// The row path over a `(str, i64)` batch: each row's `Arg`s through
/// `RowEncoder::encode` into one reused buffer, as `encode_many` does.
fn row_path_two(spec: &KeySpec, batch: &RecordBatch) -> usize {
    let s = batch
        .column(0)
        .as_any()
        .downcast_ref::<StringArray>()
        .unwrap();
    let n = batch
        .column(1)
        .as_any()
        .downcast_ref::<Int64Array>()
        .unwrap();
    let mut enc = spec.encoder().unwrap();
    let mut out = Vec::with_capacity(ROWS * 32);
    let mut offsets = Vec::with_capacity(ROWS + 1);
    for r in 0..batch.num_rows() {
        enc.encode(&[Arg::Str(s.value(r)), Arg::Int(n.value(r))], &mut out)
            .unwrap();
        offsets.push(out.len());
    }
    out.len() + offsets.len()
}

fn row_path_twelve(spec: &KeySpec, batch: &RecordBatch) -> usize {
    let c = |i: usize| batch.column(i).as_any();
    let s = c(0).downcast_ref::<StringArray>().unwrap();
    let i = c(1).downcast_ref::<Int64Array>().unwrap();
    let u = c(2).downcast_ref::<UInt64Array>().unwrap();
    let i32s = c(3).downcast_ref::<Int32Array>().unwrap();
    let u32s = c(4).downcast_ref::<UInt32Array>().unwrap();
    let f = c(5).downcast_ref::<Float64Array>().unwrap();
    let f32s = c(6).downcast_ref::<Float32Array>().unwrap();
    let b = c(7).downcast_ref::<BooleanArray>().unwrap();
    let bytes = c(8).downcast_ref::<BinaryArray>().unwrap();
    let ts = c(9).downcast_ref::<TimestampMicrosecondArray>().unwrap();
    let uuid = c(10).downcast_ref::<FixedSizeBinaryArray>().unwrap();
    let dec = c(11).downcast_ref::<Decimal128Array>().unwrap();
    let mut enc = spec.encoder().unwrap();
    let mut out = Vec::with_capacity(ROWS * 200);
    let mut offsets = Vec::with_capacity(ROWS + 1);
    let mut text = String::new();
    for r in 0..batch.num_rows() {
        let uv = u.value(r);
        let big = uv.to_be_bytes();
        let uarg = match i64::try_from(uv) {
            Ok(v) => Arg::Int(v),
            Err(_) => Arg::BigInt {
                negative: false,
                magnitude: &big,
            },
        };
        let us = ts.value(r);
        text.clear();
        let d = dec.value(r);
        use std::fmt::Write;
        let _ = write!(text, "{d}E-2");
        enc.encode(
            &[
                Arg::Str(s.value(r)),
                Arg::Int(i.value(r)),
                uarg,
                Arg::Int(i32s.value(r).into()),
                Arg::Int(u32s.value(r).into()),
                Arg::F64(f.value(r)),
                Arg::F32(f32s.value(r)),
                Arg::Bool(b.value(r)),
                Arg::Bytes(bytes.value(r)),
                Arg::Time {
                    secs: us.div_euclid(1_000_000),
                    nanos: (us.rem_euclid(1_000_000) * 1000) as u32,
                },
                Arg::Uuid(u128::from_be_bytes(uuid.value(r).try_into().unwrap())),
                Arg::Decimal(&text),
            ],
            &mut out,
        )
        .unwrap();
        offsets.push(out.len());
    }
    out.len() + offsets.len()
}

fn encode_two(c: &mut Criterion) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let batch = two(&mut rng);
    let converter = RowConverter::new(vec![
        SortField::new(arrow_schema::DataType::Utf8),
        SortField::new(arrow_schema::DataType::Int64),
    ])
    .unwrap();
    let mut g = c.benchmark_group("arrow encode (Utf8, Int64)");
    g.throughput(Throughput::Elements(ROWS as u64));
    g.sample_size(10);
    g.bench_function("arrow-row convert_columns", |b| {
        b.iter(|| black_box(converter.convert_columns(batch.columns()).unwrap()))
    });
    for format in ["binary", "hex"] {
        let spec = KeySpec::new(KeyFormat::parse(format).unwrap())
            .with_schema("str,i64")
            .unwrap();
        g.bench_function(BenchmarkId::new("lexikey-arrow", format), |b| {
            b.iter(|| black_box(lexikey_arrow::encode_batch(&spec, &batch).unwrap()))
        });
        g.bench_function(
            BenchmarkId::new("row path RowEncoder::encode", format),
            |b| b.iter(|| black_box(row_path_two(&spec, &batch))),
        );
    }
    g.finish();
}

fn encode_twelve(c: &mut Criterion) {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let batch = twelve(&mut rng);
    let spec = KeySpec::new(KeyFormat::parse("hex").unwrap())
        .with_schema("str,i64,u64,i32,u32,f64,f32,bool,bytes,ts,uuid,dec")
        .unwrap();
    let mut g = c.benchmark_group("arrow encode twelve fields hex");
    g.throughput(Throughput::Elements(ROWS as u64));
    g.sample_size(10);
    g.bench_function("lexikey-arrow", |b| {
        b.iter(|| black_box(lexikey_arrow::encode_batch(&spec, &batch).unwrap()))
    });
    g.bench_function("row path RowEncoder::encode", |b| {
        b.iter(|| black_box(row_path_twelve(&spec, &batch)))
    });
    g.finish();
}

fn decode_two(c: &mut Criterion) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let batch = two(&mut rng);
    let spec = KeySpec::new(KeyFormat::parse("hex").unwrap())
        .with_schema("str,i64")
        .unwrap();
    let keys = lexikey_arrow::encode_batch(&spec, &batch).unwrap();
    let names = ["s".to_string(), "n".to_string()];
    let mut g = c.benchmark_group("arrow decode (str, i64) hex");
    g.throughput(Throughput::Elements(ROWS as u64));
    g.sample_size(10);
    g.bench_function("lexikey-arrow decode_array", |b| {
        b.iter(|| {
            black_box(lexikey_arrow::decode_array(&spec, keys.as_ref(), Some(&names)).unwrap())
        })
    });
    let strs = keys.as_any().downcast_ref::<StringArray>().unwrap();
    g.bench_function("row path KeySpec::decode_into", |b| {
        b.iter(|| {
            let mut comps = Vec::new();
            let mut n = 0;
            for k in strs.iter().flatten() {
                spec.decode_into(k.as_bytes(), &mut comps).unwrap();
                n += comps.len();
            }
            black_box(n)
        })
    });
    // The row decode `decode_array` runs: each component to a closure.
    g.bench_function("row path KeySpec::decode_arena", |b| {
        b.iter(|| {
            let mut arena = lexikey::tuple::DecodeArena::new();
            let mut n = 0;
            for k in strs.iter().flatten() {
                n += spec
                    .decode_arena(k.as_bytes(), &mut arena, |_, c| {
                        black_box(&c);
                    })
                    .unwrap();
            }
            black_box(n)
        })
    });
    g.finish();
}

/// Rows of the list bench.
const LIST_ROWS: usize = 10_000;

/// A `list<i64>` column (`List(Int64)`, 0 to 8 elements a row) beside a
/// scalar `Int64` column of as many rows, both to hex keys: the row path
/// with a list built per row (in reused vectors) against the fast path.
fn encode_list(c: &mut Criterion) {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let lists = ListArray::from_iter_primitive::<arrow_array::types::Int64Type, _, _>(
        (0..LIST_ROWS).map(|_| {
            let n = rng.next() % 9;
            Some(
                (0..n)
                    .map(|_| Some(rng.next() as i64 >> (rng.next() % 60)))
                    .collect::<Vec<_>>(),
            )
        }),
    );
    let elements = lists.values().len();
    let scalars = Int64Array::from_iter_values((0..LIST_ROWS).map(|_| rng.next() as i64));
    let list_batch = RecordBatch::try_from_iter([("l", Arc::new(lists) as ArrayRef)]).unwrap();
    let scalar_batch = RecordBatch::try_from_iter([("n", Arc::new(scalars) as ArrayRef)]).unwrap();
    let mut g = c.benchmark_group(format!(
        "arrow encode list<i64> hex ({LIST_ROWS} rows, {elements} elements)"
    ));
    g.throughput(Throughput::Elements(LIST_ROWS as u64));
    for (schema, batch) in [("list<i64>", &list_batch), ("i64", &scalar_batch)] {
        let spec = KeySpec::new(KeyFormat::parse("hex").unwrap())
            .with_schema(schema)
            .unwrap();
        g.bench_function(BenchmarkId::new("lexikey-arrow", schema), |b| {
            b.iter(|| black_box(lexikey_arrow::encode_batch(&spec, batch).unwrap()))
        });
    }
    g.finish();
}

criterion_group!(benches, encode_two, encode_twelve, decode_two, encode_list);
criterion_main!(benches);
