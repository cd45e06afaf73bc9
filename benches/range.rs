//! Criterion bench: computing a range costs about two key encodings.
//!
//! Group `range/build`, per query, side by side:
//! - `lexikey`: `RangeQuery::new(f).prefix(..).<predicate>(..).build()`;
//! - `two_encodings`: the budget the [ranges] issue sets — two
//!   `tuple::encode` calls of the prefix + component, each returning an owned
//!   key, as a range's two owned bounds must be.
//!
//! Each iteration builds a batch of [`N`] ranges (`Throughput::Elements`).
//! Run: `cargo bench -p lexikey --bench range -- --warm-up-time 1 --measurement-time 3`.

// criterion_group! generates an undocumented `pub fn benches`.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use lexikey::range::RangeQuery;
use lexikey::{tuple, Component, Format};

/// Ranges per iteration.
const N: usize = 1_000;

fn bench_build(c: &mut Criterion) {
    let mut g = c.benchmark_group("range/build");
    g.throughput(Throughput::Elements(N as u64));
    let values: Vec<i64> = (0..N as i64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64))
        .collect();
    for (name, format) in [
        ("hex", Format::Hex),
        ("binary", Format::Binary),
        ("decimal", Format::Decimal),
    ] {
        let prefix = [Component::asc("population")];
        g.bench_function(format!("{name}/ge/lexikey"), |b| {
            b.iter(|| {
                for &v in &values {
                    let r = RangeQuery::new(format)
                        .prefix(&prefix)
                        .ge(Component::asc(v))
                        .build();
                    let _ = black_box(r);
                }
            })
        });
        g.bench_function(format!("{name}/between/lexikey"), |b| {
            b.iter(|| {
                for &v in &values {
                    let r = RangeQuery::new(format)
                        .prefix(&prefix)
                        .between(
                            Component::asc(v / 2),
                            true,
                            Component::asc(v / 2 + 1000),
                            false,
                        )
                        .build();
                    let _ = black_box(r);
                }
            })
        });
        g.bench_function(format!("{name}/two_encodings"), |b| {
            b.iter(|| {
                for &v in &values {
                    let c = [Component::asc("population"), Component::asc(v)];
                    let k1 = tuple::encode(format, &c).unwrap();
                    let k2 = tuple::encode(format, &c).unwrap();
                    black_box((k1, k2));
                }
            })
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_build
}
criterion_main!(benches);
