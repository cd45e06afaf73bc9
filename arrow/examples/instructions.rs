//! One encoding of the benchmark's `(Utf8, Int64)` batch (the same
//! generator as `benches/arrow.rs`), for counting its instructions:
//!
//! ```text
//! cargo build --release -p lexikey-arrow --example instructions
//! valgrind --tool=callgrind --toggle-collect='instructions::run' \
//!     target/release/examples/instructions binary 1000000
//! ```
//!
//! (`binary`, `hex` or `arrow-row`; instructions per row = the total
//! `Ir` / rows).

use std::hint::black_box;
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, StringArray};
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
        format => {
            let spec = KeySpec::new(KeyFormat::parse(format).unwrap())
                .with_schema("str,i64")
                .unwrap();
            lexikey_arrow::encode_batch(&spec, batch).unwrap().len()
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_else(|| "binary".into());
    let rows: usize = args.next().map_or(1_000_000, |n| n.parse().unwrap());
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
    println!("{}", black_box(run(&what, black_box(&batch))));
}
