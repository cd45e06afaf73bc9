//! One encoding of the benchmark's `(Utf8, Int64)` batch (the same
//! generator as `benches/arrow.rs`), for counting its instructions:
//!
//! ```text
//! cargo build --release -p lexikey-arrow --example instructions
//! valgrind --tool=callgrind --toggle-collect='instructions::run' \
//!     target/release/examples/instructions binary 1000000
//! ```
//!
//! (`binary`, `hex` or `arrow-row`; a third argument RUNS runs it that
//! many times and prints the best run's ns/row; instructions per row = the total
//! `Ir` / rows). `twelve` encodes the rows of `python/bench.py`'s
//! every-scalar schema (`str,i64,u64,i32,u32,f64,f32,bool,bytes,ts,uuid,dec`,
//! hex; millisecond timestamps, `Decimal128(38, 2)`), what the Python
//! `encode_arrow` row of that script measures.

use std::hint::black_box;
use std::sync::Arc;

use arrow_array::types::Decimal128Type;
use arrow_array::{
    Array, ArrayRef, BinaryArray, BooleanArray, FixedSizeBinaryArray, Float32Array, Float64Array,
    Int32Array, Int64Array, PrimitiveArray, RecordBatch, StringArray, TimestampMillisecondArray,
    UInt32Array, UInt64Array,
};
use arrow_row::{RowConverter, SortField};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::KeySpec;

/// The benchmark's xorshift.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// The measured call, alone between the toggles.
#[inline(never)]
fn run(what: &str, batch: &RecordBatch) -> usize {
    match what {
        "arrow-row" => {
            let fields = batch
                .schema()
                .fields()
                .iter()
                .map(|f| SortField::new(f.data_type().clone()))
                .collect();
            let conv = RowConverter::new(fields).unwrap();
            conv.convert_columns(batch.columns()).unwrap().num_rows()
        }
        "twelve" => {
            let spec = KeySpec::new(KeyFormat::parse("hex").unwrap())
                .with_schema("str,i64,u64,i32,u32,f64,f32,bool,bytes,ts,uuid,dec")
                .unwrap();
            lexikey_arrow::encode_batch(&spec, batch).unwrap().len()
        }
        format => {
            let spec = KeySpec::new(KeyFormat::parse(format).unwrap())
                .with_schema("str,i64")
                .unwrap();
            lexikey_arrow::encode_batch(&spec, batch).unwrap().len()
        }
    }
}

/// The rows of `python/bench.py`'s `scalar_rows(rows)`.
fn twelve(rows: usize) -> RecordBatch {
    let n = rows as i64;
    let start_ms = 1_714_521_600_000; // 2024-05-01T00:00:00Z
    RecordBatch::try_from_iter([
        (
            "c0",
            Arc::new(StringArray::from_iter_values(
                (0..rows).map(|i| format!("city {}", i % 5000)),
            )) as ArrayRef,
        ),
        (
            "c1",
            Arc::new(Int64Array::from_iter_values(
                (0..n).map(|i| i * 7919 - 4_000_000_000),
            )),
        ),
        (
            "c2",
            Arc::new(UInt64Array::from_iter_values(
                (0..rows as u64).map(|i| i * 104_729),
            )),
        ),
        (
            "c3",
            Arc::new(Int32Array::from_iter_values(
                (0..n).map(|i| (i - n / 2) as i32),
            )),
        ),
        (
            "c4",
            Arc::new(UInt32Array::from_iter_values((0..rows).map(|i| i as u32))),
        ),
        (
            "c5",
            Arc::new(Float64Array::from_iter_values(
                (0..rows).map(|i| i as f64 * 0.25),
            )),
        ),
        (
            "c6",
            Arc::new(Float32Array::from_iter_values(
                (0..rows).map(|i| (i % 1000) as f32),
            )),
        ),
        (
            "c7",
            Arc::new(BooleanArray::from_iter((0..rows).map(|i| Some(i % 2 == 0)))),
        ),
        (
            "c8",
            Arc::new(BinaryArray::from_iter_values(
                (0..rows).map(|i| (i as u32).to_be_bytes()),
            )),
        ),
        (
            "c9",
            Arc::new(
                TimestampMillisecondArray::from_iter_values((0..n).map(|i| start_ms + i))
                    .with_timezone("UTC"),
            ),
        ),
        (
            "c10",
            Arc::new(
                FixedSizeBinaryArray::try_from_iter(
                    (0..rows as u128).map(|i| (i * 2_654_435_761).to_be_bytes()),
                )
                .unwrap(),
            ),
        ),
        (
            "c11",
            Arc::new(
                PrimitiveArray::<Decimal128Type>::from_iter_values(0..rows as i128)
                    .with_precision_and_scale(38, 2)
                    .unwrap(),
            ),
        ),
    ])
    .unwrap()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_else(|| "binary".into());
    let rows: usize = args.next().map_or(1_000_000, |n| n.parse().unwrap());
    let runs: usize = args.next().map_or(1, |n| n.parse().unwrap());
    if what == "twelve" {
        timed(&what, &twelve(rows), runs);
        return;
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let words = ["population", "san francisco", "usa", "berlin", "tokyo", "x"];
    let s = StringArray::from_iter_values((0..rows).map(|_| {
        let w = words[(rng.next() % words.len() as u64) as usize];
        format!("{w}{}", rng.next() % 1000)
    }));
    let n = Int64Array::from_iter_values((0..rows).map(|_| rng.next() as i64 >> (rng.next() % 60)));
    let batch = RecordBatch::try_from_iter([
        ("s", Arc::new(s) as ArrayRef),
        ("n", Arc::new(n) as ArrayRef),
    ])
    .unwrap();
    timed(&what, &batch, runs);
}

/// Runs `what` `runs` times; with more than one run, the best run's
/// ns/row on stderr (a wall-clock check beside the instruction count).
fn timed(what: &str, batch: &RecordBatch, runs: usize) {
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let t = std::time::Instant::now();
        println!("{}", black_box(run(what, black_box(batch))));
        best = best.min(t.elapsed().as_secs_f64());
    }
    if runs > 1 {
        eprintln!(
            "{what}: best of {runs}: {:.1} ns/row",
            best * 1e9 / batch.num_rows() as f64
        );
    }
}
