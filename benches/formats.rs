//! Criterion benches: one group per format and direction (`hex/encode`,
//! `hex/decode`, `b64/…`, `decimal/…`, `binary/…`, `tuple/…`, and
//! `list/…` for `(str, list<i64>)` keys).
//!
//! Every group holds, side by side and on the same values:
//! - `lexikey`: the allocation-free fast path (`encode_i64` → `[u8; N]`,
//!   `decode_i64(&[u8])`, `tuple::encode_into` a reused buffer,
//!   borrowed `tuple::decode_into` a reused `Vec`);
//! - `lexikey_generic` (scalars): the same value through
//!   `Format::encode_component` / `decode_component`;
//! - tuples: `lexikey_hex`/`_b64`/`_decimal`/`_binary` are the public
//!   API (`tuple::encode_into` a reused buffer, `tuple::decode_into` a
//!   reused `Vec` with the schema; `_noschema`: without one; `_reusing`:
//!   `tuple::decode_reusing` into a vector that is never cleared; `_arena`:
//!   `tuple::DecodeArena::decode`, each component to a closure, every
//!   string borrowed),
//!   `lexikey_hex_alloc` the allocating `tuple::encode` (`_moved`: its
//!   `Result` moved through `black_box`), `lexikey_hex_push`
//!   `KeyWriter::push` per component, and `lexikey_*_typed` the same keys
//!   through `format::typed::{KeyWriter, KeyReader}` (no `Component`);
//! - `naive`: what a hand-rolled `format!` / `from_str_radix` / `str::parse`
//!   implementation does;
//! - `copy_floor`: appending the finished keys' bytes to a reused buffer,
//!   the cost of merely moving the output;
//! - peers (binary and tuple groups): storekey, memcomparable,
//!   foundationdb-tuple, plus generic codecs (`hex`, `base64`, `itoa`).
//!
//! Each iteration handles a batch of [`N`] values and reports
//! `Throughput::Elements(N)`, so criterion's time per iteration divided by
//! `N` is the time per value (`python3 benches/table.py` prints that table).
//! Values are random with edge values mixed in (MIN/MAX/0/−1, ±0.0, ±inf,
//! NaN, subnormals). Tuple groups take [`NT`] = 4096 tuples per iteration
//! whose strings follow issue 16's mix (see [`mixed_string`]): 60 %
//! lowercase words, 30 % with spaces or `#`/`%`, 10 % non-ASCII.
//!
//! Run: `cargo bench -p lexikey --bench formats -- --warm-up-time 1 --measurement-time 3`.
//! CI smoke run: `cargo bench -p lexikey -- --test`.

// criterion_group! generates an undocumented `pub fn benches`.
#![allow(missing_docs)]

use std::borrow::Cow;
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use base64::Engine as _;
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use lexikey::format::typed::{KeyReader, KeyWriter};
use lexikey::format::{base64 as lb64, binary, decimal, hex as lhex};
use lexikey::{tuple, Component, Field, Format, Type, Value};
use serde::Serialize as _;

/// Values per iteration (scalar groups).
const N: usize = 1000;
/// Tuples per iteration (tuple groups), as in issue 16's independent run.
const NT: usize = 4096;

const B64_ALPHABET: &str = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

/// xorshift64*: deterministic inputs without a `rand` dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Random i64s, log-uniform magnitudes, one in eight an edge value.
fn i64s(rng: &mut Rng, n: usize) -> Vec<i64> {
    const EDGE: [i64; 8] = [
        i64::MIN,
        i64::MAX,
        0,
        -1,
        1,
        i64::MIN + 1,
        i64::MAX - 1,
        -10,
    ];
    (0..n)
        .map(|_| {
            if rng.below(8) == 0 {
                EDGE[rng.below(8) as usize]
            } else {
                let shift = rng.below(64);
                let v = (rng.next() >> shift) as i64;
                if rng.below(2) == 0 {
                    v
                } else {
                    v.wrapping_neg()
                }
            }
        })
        .collect()
}

/// Random f64s: half arbitrary bit patterns, half "measurements", one in
/// eight an edge value.
fn f64s(rng: &mut Rng, n: usize) -> Vec<f64> {
    const EDGE: [f64; 10] = [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        f64::MAX,
        f64::MIN,
    ];
    (0..n)
        .map(|_| match rng.below(16) {
            0 | 1 => EDGE[rng.below(10) as usize],
            2..=8 => f64::from_bits(rng.next()),
            _ => (rng.next() as i64 % 100_000_000) as f64 / 100.0,
        })
        .collect()
}

/// Lowercase words that key strings are made of.
const WORDS: [&str; 24] = [
    "user",
    "order",
    "population",
    "event",
    "city",
    "device",
    "account",
    "session",
    "metric",
    "sensor",
    "invoice",
    "region",
    "item",
    "tenant",
    "page",
    "click",
    "cart",
    "payment",
    "shipment",
    "warehouse",
    "temperature",
    "login",
    "error",
    "status",
];
/// Non-ASCII words (Latin accents, Greek, Cyrillic, CJK).
const NON_ASCII: [&str; 8] = [
    "zürich",
    "são paulo",
    "kraków",
    "東京",
    "москва",
    "café",
    "δέλτα",
    "naïve",
];

/// A key string of the mix issue 16 prescribes: 60 % lowercase words (one
/// to three, joined by `_`), 30 % holding a byte that text keys escape
/// (words joined by spaces, some with `#` or `%`), 10 % non-ASCII.
fn mixed_string(rng: &mut Rng) -> String {
    let word = |rng: &mut Rng| WORDS[rng.below(WORDS.len() as u64) as usize];
    let mut s = String::new();
    match rng.below(10) {
        0..=5 => {
            for i in 0..=rng.below(3) {
                if i > 0 {
                    s.push('_');
                }
                s.push_str(word(rng));
            }
        }
        6..=8 => {
            s.push_str(word(rng));
            match rng.below(3) {
                0 => write!(s, " #{}", rng.below(10_000)).unwrap(),
                1 => write!(s, " {}% {}", rng.below(100), word(rng)).unwrap(),
                _ => write!(s, " {} {}", word(rng), word(rng)).unwrap(),
            }
        }
        _ => {
            s.push_str(NON_ASCII[rng.below(NON_ASCII.len() as u64) as usize]);
            if rng.below(2) == 0 {
                s.push('_');
                s.push_str(word(rng));
            }
        }
    }
    s
}

fn strings(rng: &mut Rng) -> Vec<String> {
    (0..NT).map(|_| mixed_string(rng)).collect()
}

/// Keys of variable length in one flat buffer.
struct Keys {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl Keys {
    fn build<T>(values: &[T], mut enc: impl FnMut(&T, &mut Vec<u8>)) -> Keys {
        let mut bytes = Vec::new();
        let mut ends = Vec::with_capacity(values.len());
        for v in values {
            enc(v, &mut bytes);
            ends.push(bytes.len());
        }
        Keys { bytes, ends }
    }
    fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let k = &self.bytes[start..end];
            start = end;
            k
        })
    }
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    group_of(c, name, N)
}

fn group_of<'a>(c: &'a mut Criterion, name: &str, n: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(n as u64));
    g
}

/// Appends every key to a reused buffer: the floor of any encoder (and of
/// any decoder, which must at least read as many bytes).
fn copy_floor(g: &mut BenchmarkGroup<'_, WallTime>, id: &str, keys: &Keys) {
    let mut out = Vec::with_capacity(keys.bytes.len());
    g.bench_function(id, |b| {
        b.iter(|| {
            out.clear();
            for k in keys.iter() {
                out.extend_from_slice(k);
            }
            black_box(&out);
        })
    });
}

/// [`copy_floor`] for fixed-width keys: each copy has a length known at
/// compile time, as the fixed-width encoders' outputs do.
fn copy_floor_fixed<const W: usize>(g: &mut BenchmarkGroup<'_, WallTime>, id: &str, keys: &Keys) {
    let fixed: Vec<[u8; W]> = keys
        .iter()
        .map(|k| <[u8; W]>::try_from(k).expect("fixed-width key"))
        .collect();
    let mut out = Vec::with_capacity(keys.bytes.len());
    g.bench_function(id, |b| {
        b.iter(|| {
            out.clear();
            for k in &fixed {
                out.extend_from_slice(black_box(k));
            }
            black_box(&out);
        })
    });
}

/// The float transform written out by hand, for the naive baselines.
fn naive_f64_bits(v: f64) -> u64 {
    let bits = if v.is_nan() {
        0x7FF8_0000_0000_0000
    } else {
        v.to_bits()
    };
    if bits >> 63 == 0 {
        bits ^ (1 << 63)
    } else {
        !bits
    }
}

fn naive_f64_from_bits(b: u64) -> f64 {
    f64::from_bits(if b >> 63 == 1 { b ^ (1 << 63) } else { !b })
}

fn b64_engine() -> base64::engine::GeneralPurpose {
    let alphabet = base64::alphabet::Alphabet::new(B64_ALPHABET).expect("alphabet");
    base64::engine::GeneralPurpose::new(
        &alphabet,
        base64::engine::GeneralPurposeConfig::new()
            .with_encode_padding(false)
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::RequireNone)
            .with_decode_allow_trailing_bits(false),
    )
}

/// Naive sortable base64 of 8 bytes: a `String` built char by char.
fn naive_b64(tag: char, v: u64) -> String {
    let x = u128::from(v) << 2;
    let body: String = (0..11)
        .map(|i| char::from(B64_ALPHABET.as_bytes()[((x >> (60 - 6 * i)) & 63) as usize]))
        .collect();
    format!("{tag}{body}")
}

fn naive_b64_decode(key: &[u8]) -> u64 {
    let mut x = 0u128;
    for &c in &key[1..] {
        let v = B64_ALPHABET.bytes().position(|a| a == c).expect("symbol");
        x = x << 6 | v as u128;
    }
    (x >> 2) as u64
}

fn naive_decimal(v: i64) -> String {
    if v < 0 {
        format!("-{:019}", 9_999_999_999_999_999_999u64 - v.unsigned_abs())
    } else {
        format!("0{v:019}")
    }
}

fn naive_decimal_parse(key: &[u8]) -> i64 {
    let s = std::str::from_utf8(key).expect("utf8");
    let m: u64 = s[1..].parse().expect("digits");
    match key[0] {
        b'0' => m as i64,
        _ => (9_999_999_999_999_999_999u64 - m).wrapping_neg() as i64,
    }
}

fn itoa_pad(buf: &mut itoa::Buffer, v: i64, out: &mut Vec<u8>) {
    let (sign, m) = if v < 0 {
        (b'-', 9_999_999_999_999_999_999u64 - v.unsigned_abs())
    } else {
        (b'0', v as u64)
    };
    let digits = buf.format(m).as_bytes();
    let mut key = [b'0'; 20];
    key[0] = sign;
    key[20 - digits.len()..].copy_from_slice(digits);
    out.extend_from_slice(&key);
}

/// The escaping of text keys, written the obvious way.
fn naive_escape(s: &str) -> String {
    let mut out = String::new();
    for ch in s.chars() {
        if (ch as u32) <= 0x25 {
            out.push_str(&format!("%{:02X}", ch as u32));
        } else {
            out.push(ch);
        }
    }
    out
}

fn naive_unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.char_indices();
    while let Some((i, ch)) = it.next() {
        if ch == '%' {
            out.push(char::from(
                u8::from_str_radix(&s[i + 1..i + 3], 16).expect("escape"),
            ));
            it.next();
            it.next();
        } else {
            out.push(ch);
        }
    }
    out
}

fn naive_hex_u64(s: &str, tag: char) -> u64 {
    assert!(s.starts_with(tag));
    u64::from_str_radix(&s[1..], 16).expect("hex")
}

// ---------------------------------------------------------------- scalars --

fn bench_hex(c: &mut Criterion) {
    const W: usize = 17;
    let mut rng = Rng(0x5EED_0001);
    let ints = i64s(&mut rng, N);
    let floats = f64s(&mut rng, N);
    let ikeys = Keys::build(&ints, |&v, o| o.extend_from_slice(&lhex::encode_i64(v)));
    let fkeys = Keys::build(&floats, |&v, o| o.extend_from_slice(&lhex::encode_f64(v)));

    let mut g = group(c, "hex/encode");
    let mut out = Vec::with_capacity(32 * N);
    g.bench_function("i64/lexikey", |b| {
        b.iter(|| {
            out.clear();
            for &v in &ints {
                out.extend_from_slice(&lhex::encode_i64(black_box(v)));
            }
            black_box(&out);
        })
    });
    g.bench_function("i64/lexikey_generic", |b| {
        b.iter(|| {
            out.clear();
            for &v in &ints {
                Format::Hex
                    .encode_component(&Component::asc(black_box(v)), &mut out)
                    .unwrap();
            }
            black_box(&out);
        })
    });
    g.bench_function("i64/naive_format", |b| {
        b.iter(|| {
            for &v in &ints {
                black_box(format!("l{:016X}", (v as u64) ^ (1 << 63)));
            }
        })
    });
    let mut s = String::with_capacity(32);
    g.bench_function("i64/write_reused_string", |b| {
        b.iter(|| {
            for &v in &ints {
                s.clear();
                write!(s, "l{:016X}", (v as u64) ^ (1 << 63)).unwrap();
                black_box(&s);
            }
        })
    });
    copy_floor_fixed::<W>(&mut g, "i64/copy_floor", &ikeys);
    g.bench_function("f64/lexikey", |b| {
        b.iter(|| {
            out.clear();
            for &v in &floats {
                out.extend_from_slice(&lhex::encode_f64(black_box(v)));
            }
            black_box(&out);
        })
    });
    g.bench_function("f64/naive_format", |b| {
        b.iter(|| {
            for &v in &floats {
                black_box(format!("d{:016X}", naive_f64_bits(v)));
            }
        })
    });
    copy_floor_fixed::<W>(&mut g, "f64/copy_floor", &fkeys);
    g.finish();

    let mut g = group(c, "hex/decode");
    g.bench_function("i64/lexikey", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for k in ikeys.iter() {
                acc = acc.wrapping_add(lhex::decode_i64(black_box(k)).unwrap());
            }
            black_box(acc)
        })
    });
    g.bench_function("i64/lexikey_generic", |b| {
        b.iter(|| {
            let mut acc = 0usize;
            for k in ikeys.iter() {
                let c = Format::Hex
                    .decode_component(Field::asc(Type::I64), black_box(k))
                    .unwrap();
                acc += matches!(c.value, Value::I64(v) if v > 0) as usize;
            }
            black_box(acc)
        })
    });
    g.bench_function("i64/naive_from_str_radix", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for k in ikeys.iter() {
                let s = std::str::from_utf8(black_box(k)).unwrap();
                acc = acc.wrapping_add((naive_hex_u64(s, 'l') ^ (1 << 63)) as i64);
            }
            black_box(acc)
        })
    });
    g.bench_function("i64/hex_crate", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for k in ikeys.iter() {
                let mut buf = [0u8; 8];
                hex::decode_to_slice(&black_box(k)[1..], &mut buf).unwrap();
                acc = acc.wrapping_add((u64::from_be_bytes(buf) ^ (1 << 63)) as i64);
            }
            black_box(acc)
        })
    });
    copy_floor_fixed::<W>(&mut g, "i64/copy_floor", &ikeys);
    g.bench_function("f64/lexikey", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for k in fkeys.iter() {
                acc ^= lhex::decode_f64(black_box(k)).unwrap().to_bits();
            }
            black_box(acc)
        })
    });
    g.bench_function("f64/naive_from_str_radix", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for k in fkeys.iter() {
                let s = std::str::from_utf8(black_box(k)).unwrap();
                acc ^= naive_f64_from_bits(naive_hex_u64(s, 'd')).to_bits();
            }
            black_box(acc)
        })
    });
    copy_floor_fixed::<W>(&mut g, "f64/copy_floor", &fkeys);
    g.finish();
}

fn bench_b64(c: &mut Criterion) {
    const W: usize = 12;
    let mut rng = Rng(0x5EED_0002);
    let ints = i64s(&mut rng, N);
    let floats = f64s(&mut rng, N);
    let ikeys = Keys::build(&ints, |&v, o| o.extend_from_slice(&lb64::encode_i64(v)));
    let fkeys = Keys::build(&floats, |&v, o| o.extend_from_slice(&lb64::encode_f64(v)));
    let engine = b64_engine();

    let mut g = group(c, "b64/encode");
    let mut out = Vec::with_capacity(32 * N);
    g.bench_function("i64/lexikey", |b| {
        b.iter(|| {
            out.clear();
            for &v in &ints {
                out.extend_from_slice(&lb64::encode_i64(black_box(v)));
            }
            black_box(&out);
        })
    });
    g.bench_function("i64/lexikey_generic", |b| {
        b.iter(|| {
            out.clear();
            for &v in &ints {
                Format::Base64
                    .encode_component(&Component::asc(black_box(v)), &mut out)
                    .unwrap();
            }
            black_box(&out);
        })
    });
    g.bench_function("i64/naive_format", |b| {
        b.iter(|| {
            for &v in &ints {
                black_box(naive_b64('l', (v as u64) ^ (1 << 63)));
            }
        })
    });
    g.bench_function("i64/base64_crate", |b| {
        b.iter(|| {
            out.clear();
            for &v in &ints {
                let mut key = [b'l'; 12];
                let bytes = ((black_box(v) as u64) ^ (1 << 63)).to_be_bytes();
                engine.encode_slice(bytes, &mut key[1..]).unwrap();
                out.extend_from_slice(&key);
            }
            black_box(&out);
        })
    });
    copy_floor_fixed::<W>(&mut g, "i64/copy_floor", &ikeys);
    g.bench_function("f64/lexikey", |b| {
        b.iter(|| {
            out.clear();
            for &v in &floats {
                out.extend_from_slice(&lb64::encode_f64(black_box(v)));
            }
            black_box(&out);
        })
    });
    g.bench_function("f64/naive_format", |b| {
        b.iter(|| {
            for &v in &floats {
                black_box(naive_b64('d', naive_f64_bits(v)));
            }
        })
    });
    copy_floor_fixed::<W>(&mut g, "f64/copy_floor", &fkeys);
    g.finish();

    let mut g = group(c, "b64/decode");
    g.bench_function("i64/lexikey", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for k in ikeys.iter() {
                acc = acc.wrapping_add(lb64::decode_i64(black_box(k)).unwrap());
            }
            black_box(acc)
        })
    });
    g.bench_function("i64/lexikey_generic", |b| {
        b.iter(|| {
            let mut acc = 0usize;
            for k in ikeys.iter() {
                let c = Format::Base64
                    .decode_component(Field::asc(Type::I64), black_box(k))
                    .unwrap();
                acc += matches!(c.value, Value::I64(v) if v > 0) as usize;
            }
            black_box(acc)
        })
    });
    g.bench_function("i64/naive_position", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for k in ikeys.iter() {
                acc = acc.wrapping_add((naive_b64_decode(black_box(k)) ^ (1 << 63)) as i64);
            }
            black_box(acc)
        })
    });
    g.bench_function("i64/base64_crate", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for k in ikeys.iter() {
                let mut buf = [0u8; 9];
                engine.decode_slice(&black_box(k)[1..], &mut buf).unwrap();
                let v = u64::from_be_bytes(buf[..8].try_into().unwrap());
                acc = acc.wrapping_add((v ^ (1 << 63)) as i64);
            }
            black_box(acc)
        })
    });
    copy_floor_fixed::<W>(&mut g, "i64/copy_floor", &ikeys);
    g.bench_function("f64/lexikey", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for k in fkeys.iter() {
                acc ^= lb64::decode_f64(black_box(k)).unwrap().to_bits();
            }
            black_box(acc)
        })
    });
    g.bench_function("f64/naive_position", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for k in fkeys.iter() {
                acc ^= naive_f64_from_bits(naive_b64_decode(black_box(k))).to_bits();
            }
            black_box(acc)
        })
    });
    copy_floor_fixed::<W>(&mut g, "f64/copy_floor", &fkeys);
    g.finish();
}

fn bench_decimal(c: &mut Criterion) {
    const W: usize = 20;
    let mut rng = Rng(0x5EED_0003);
    let ints = i64s(&mut rng, N);
    let ikeys = Keys::build(&ints, |&v, o| o.extend_from_slice(&decimal::encode_i64(v)));

    let mut g = group(c, "decimal/encode");
    let mut out = Vec::with_capacity(32 * N);
    g.bench_function("i64/lexikey", |b| {
        b.iter(|| {
            out.clear();
            for &v in &ints {
                out.extend_from_slice(&decimal::encode_i64(black_box(v)));
            }
            black_box(&out);
        })
    });
    g.bench_function("i64/lexikey_generic", |b| {
        b.iter(|| {
            out.clear();
            for &v in &ints {
                Format::Decimal
                    .encode_component(&Component::asc(black_box(v)), &mut out)
                    .unwrap();
            }
            black_box(&out);
        })
    });
    g.bench_function("i64/naive_format", |b| {
        b.iter(|| {
            for &v in &ints {
                black_box(naive_decimal(v));
            }
        })
    });
    let mut buf = itoa::Buffer::new();
    g.bench_function("i64/itoa_pad", |b| {
        b.iter(|| {
            out.clear();
            for &v in &ints {
                itoa_pad(&mut buf, black_box(v), &mut out);
            }
            black_box(&out);
        })
    });
    copy_floor_fixed::<W>(&mut g, "i64/copy_floor", &ikeys);
    g.finish();

    let mut g = group(c, "decimal/decode");
    g.bench_function("i64/lexikey", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for k in ikeys.iter() {
                acc = acc.wrapping_add(decimal::decode_i64(black_box(k)).unwrap());
            }
            black_box(acc)
        })
    });
    g.bench_function("i64/lexikey_generic", |b| {
        b.iter(|| {
            let mut acc = 0usize;
            for k in ikeys.iter() {
                let c = Format::Decimal
                    .decode_component(Field::asc(Type::I64), black_box(k))
                    .unwrap();
                acc += matches!(c.value, Value::I64(v) if v > 0) as usize;
            }
            black_box(acc)
        })
    });
    g.bench_function("i64/naive_str_parse", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for k in ikeys.iter() {
                acc = acc.wrapping_add(naive_decimal_parse(black_box(k)));
            }
            black_box(acc)
        })
    });
    copy_floor_fixed::<W>(&mut g, "i64/copy_floor", &ikeys);
    g.finish();
}

fn bench_binary(c: &mut Criterion) {
    const W: usize = 8;
    let mut rng = Rng(0x5EED_0004);
    let ints = i64s(&mut rng, N);
    let floats = f64s(&mut rng, N);
    let ikeys = Keys::build(&ints, |&v, o| o.extend_from_slice(&binary::encode_i64(v)));
    let fkeys = Keys::build(&floats, |&v, o| o.extend_from_slice(&binary::encode_f64(v)));
    let sk_i = Keys::build(&ints, |v, o| storekey::encode(o, v).unwrap());
    let sk_f = Keys::build(&floats, |v, o| storekey::encode(o, v).unwrap());
    let mc_i = Keys::build(&ints, |v, o| {
        v.serialize(&mut memcomparable::Serializer::new(o)).unwrap()
    });
    let mc_f = Keys::build(&floats, |v, o| {
        v.serialize(&mut memcomparable::Serializer::new(o)).unwrap()
    });
    let fdb_i = Keys::build(&ints, |v, o| {
        foundationdb_tuple::pack_into(v, o);
    });
    let fdb_f = Keys::build(&floats, |v, o| {
        foundationdb_tuple::pack_into(v, o);
    });

    let mut g = group(c, "binary/encode");
    let mut out = Vec::with_capacity(32 * N);
    macro_rules! enc {
        ($id:expr, $vals:expr, |$v:ident, $o:ident| $body:expr) => {
            g.bench_function($id, |b| {
                b.iter(|| {
                    out.clear();
                    for &$v in $vals {
                        let $v = black_box($v);
                        let $o = &mut out;
                        $body;
                    }
                    black_box(&out);
                })
            });
        };
    }
    enc!("i64/lexikey", &ints, |v, o| o
        .extend_from_slice(&binary::encode_i64(v)));
    enc!("i64/lexikey_generic", &ints, |v, o| Format::Binary
        .encode_component(&Component::asc(v), o)
        .unwrap());
    g.bench_function("i64/naive_to_vec", |b| {
        b.iter(|| {
            for &v in &ints {
                black_box(((v as u64) ^ (1 << 63)).to_be_bytes().to_vec());
            }
        })
    });
    enc!("i64/storekey", &ints, |v, o| storekey::encode(o, &v)
        .unwrap());
    enc!("i64/memcomparable", &ints, |v, o| v
        .serialize(&mut memcomparable::Serializer::new(o))
        .unwrap());
    enc!("i64/fdb_tuple", &ints, |v, o| {
        foundationdb_tuple::pack_into(&v, o);
    });
    copy_floor_fixed::<W>(&mut g, "i64/copy_floor", &ikeys);
    enc!("f64/lexikey", &floats, |v, o| o
        .extend_from_slice(&binary::encode_f64(v)));
    g.bench_function("f64/naive_to_vec", |b| {
        b.iter(|| {
            for &v in &floats {
                black_box(naive_f64_bits(v).to_be_bytes().to_vec());
            }
        })
    });
    enc!("f64/storekey", &floats, |v, o| storekey::encode(o, &v)
        .unwrap());
    enc!("f64/memcomparable", &floats, |v, o| v
        .serialize(&mut memcomparable::Serializer::new(o))
        .unwrap());
    enc!("f64/fdb_tuple", &floats, |v, o| {
        foundationdb_tuple::pack_into(&v, o);
    });
    copy_floor_fixed::<W>(&mut g, "f64/copy_floor", &fkeys);
    g.finish();

    let mut g = group(c, "binary/decode");
    macro_rules! dec {
        ($id:expr, $keys:expr, |$k:ident| $body:expr) => {
            g.bench_function($id, |b| {
                b.iter(|| {
                    let mut acc = 0u64;
                    for $k in $keys.iter() {
                        let $k = black_box($k);
                        acc = acc.wrapping_add($body);
                    }
                    black_box(acc)
                })
            });
        };
    }
    dec!("i64/lexikey", ikeys, |k| binary::decode_i64(k).unwrap()
        as u64);
    dec!("i64/lexikey_generic", ikeys, |k| match Format::Binary
        .decode_component(Field::asc(Type::I64), k)
        .unwrap()
        .value
    {
        Value::I64(v) => v as u64,
        _ => 0,
    });
    dec!(
        "i64/storekey",
        sk_i,
        |k| storekey::decode_borrow::<i64>(k).unwrap() as u64
    );
    dec!(
        "i64/memcomparable",
        mc_i,
        |k| memcomparable::from_slice::<i64>(k).unwrap() as u64
    );
    dec!(
        "i64/fdb_tuple",
        fdb_i,
        |k| foundationdb_tuple::unpack::<i64>(k).unwrap() as u64
    );
    copy_floor_fixed::<W>(&mut g, "i64/copy_floor", &ikeys);
    dec!("f64/lexikey", fkeys, |k| binary::decode_f64(k)
        .unwrap()
        .to_bits());
    dec!("f64/storekey", sk_f, |k| storekey::decode_borrow::<f64>(k)
        .unwrap()
        .to_bits());
    dec!("f64/memcomparable", mc_f, |k| memcomparable::from_slice::<
        f64,
    >(k)
    .unwrap()
    .to_bits());
    dec!("f64/fdb_tuple", fdb_f, |k| {
        foundationdb_tuple::unpack::<f64>(k).unwrap().to_bits()
    });
    copy_floor_fixed::<W>(&mut g, "f64/copy_floor", &fkeys);
    g.finish();
}

// ----------------------------------------------------------------- tuples --

/// One tuple shape: its values, its lexikey components and schema, and the
/// peers' encoders/decoders for the same values.
trait Shape: Sized {
    const NAME: &'static str;
    /// Whether decimal keys can hold it (no float).
    const DECIMAL: bool = true;
    fn gen(rng: &mut Rng) -> Vec<Self>;
    /// Calls `f` with the tuple as `Component`s (built on the stack, as a
    /// caller of `tuple::encode` does).
    fn with_components<R>(&self, f: impl FnOnce(&[Component<'_>]) -> R) -> R;
    /// `tuple::encode_into(format, &[…components…], out)`.
    fn lexikey(&self, format: Format, out: &mut Vec<u8>) {
        self.with_components(|c| tuple::encode_into(format, c, out).unwrap());
    }
    /// The same key through `format::typed::KeyWriter`.
    fn typed(&self, format: Format, out: &mut Vec<u8>);
    /// Reads it back through `format::typed::KeyReader`.
    fn typed_decode(format: Format, key: &[u8]) -> usize;
    /// The same through `KeyReader::str_in` with reused scratch strings
    /// (no allocation for escaped strings).
    fn typed_decode_in(format: Format, key: &[u8], scratch: &mut [String; 2]) -> usize;
    fn schema() -> Vec<Field>;
    fn naive(&self) -> String;
    fn naive_decode(key: &str) -> usize;
    fn storekey(&self, out: &mut Vec<u8>);
    fn storekey_borrowed(key: &[u8]) -> usize;
    fn storekey_owned(key: &[u8]) -> usize;
    fn memcomparable(&self, out: &mut Vec<u8>);
    fn memcomparable_decode(key: &[u8]) -> usize;
    fn fdb(&self, out: &mut Vec<u8>);
    fn fdb_decode(key: &[u8]) -> usize;
}

struct StrI64(String, i64);
struct StrStrI64(String, String, i64);
struct I64F64Str(i64, f64, String);

impl Shape for StrI64 {
    const NAME: &'static str = "str_i64";
    fn gen(rng: &mut Rng) -> Vec<Self> {
        let ints = i64s(rng, NT);
        strings(rng)
            .into_iter()
            .zip(ints)
            .map(|(s, i)| StrI64(s, i))
            .collect()
    }
    fn with_components<R>(&self, f: impl FnOnce(&[Component<'_>]) -> R) -> R {
        f(&[Component::asc(self.0.as_str()), Component::asc(self.1)])
    }
    fn typed(&self, format: Format, out: &mut Vec<u8>) {
        KeyWriter::new(format, out).str(&self.0).i64(self.1);
    }
    fn typed_decode(format: Format, key: &[u8]) -> usize {
        let mut r = KeyReader::new(format, key);
        let s = r.str().unwrap();
        let i = r.i64().unwrap();
        r.finish().unwrap();
        s.len().wrapping_add(i as usize)
    }
    fn typed_decode_in(format: Format, key: &[u8], scratch: &mut [String; 2]) -> usize {
        let mut r = KeyReader::new(format, key);
        let s = r.str_in(&mut scratch[0]).unwrap();
        let i = r.i64().unwrap();
        r.finish().unwrap();
        s.len().wrapping_add(i as usize)
    }
    fn schema() -> Vec<Field> {
        vec![Field::asc(Type::Str), Field::asc(Type::I64)]
    }
    fn naive(&self) -> String {
        format!(
            "{}#l{:016X}",
            naive_escape(&self.0),
            (self.1 as u64) ^ (1 << 63)
        )
    }
    fn naive_decode(key: &str) -> usize {
        let mut parts = key.split('#');
        let s = naive_unescape(parts.next().unwrap());
        let i = naive_hex_u64(parts.next().unwrap(), 'l');
        s.len().wrapping_add(i as usize)
    }
    fn storekey(&self, out: &mut Vec<u8>) {
        storekey::encode(out, &(self.0.as_str(), self.1)).unwrap();
    }
    fn storekey_borrowed(key: &[u8]) -> usize {
        let (s, i) = storekey::decode_borrow::<(Cow<'_, str>, i64)>(key).unwrap();
        s.len().wrapping_add(i as usize)
    }
    fn storekey_owned(key: &[u8]) -> usize {
        let (s, i) = storekey::decode::<_, (String, i64)>(key).unwrap();
        s.len().wrapping_add(i as usize)
    }
    fn memcomparable(&self, out: &mut Vec<u8>) {
        (self.0.as_str(), self.1)
            .serialize(&mut memcomparable::Serializer::new(out))
            .unwrap();
    }
    fn memcomparable_decode(key: &[u8]) -> usize {
        let (s, i) = memcomparable::from_slice::<(String, i64)>(key).unwrap();
        s.len().wrapping_add(i as usize)
    }
    fn fdb(&self, out: &mut Vec<u8>) {
        foundationdb_tuple::pack_into(&(self.0.as_str(), self.1), out);
    }
    fn fdb_decode(key: &[u8]) -> usize {
        let (s, i) = foundationdb_tuple::unpack::<(Cow<'_, str>, i64)>(key).unwrap();
        s.len().wrapping_add(i as usize)
    }
}

impl Shape for StrStrI64 {
    const NAME: &'static str = "str_str_i64";
    fn gen(rng: &mut Rng) -> Vec<Self> {
        let ints = i64s(rng, NT);
        let a = strings(rng);
        let b = strings(rng);
        a.into_iter()
            .zip(b)
            .zip(ints)
            .map(|((a, b), i)| StrStrI64(a, b, i))
            .collect()
    }
    fn with_components<R>(&self, f: impl FnOnce(&[Component<'_>]) -> R) -> R {
        f(&[
            Component::asc(self.0.as_str()),
            Component::asc(self.1.as_str()),
            Component::asc(self.2),
        ])
    }
    fn typed(&self, format: Format, out: &mut Vec<u8>) {
        KeyWriter::new(format, out)
            .str(&self.0)
            .str(&self.1)
            .i64(self.2);
    }
    fn typed_decode(format: Format, key: &[u8]) -> usize {
        let mut r = KeyReader::new(format, key);
        let a = r.str().unwrap();
        let b = r.str().unwrap();
        let i = r.i64().unwrap();
        r.finish().unwrap();
        (a.len() + b.len()).wrapping_add(i as usize)
    }
    fn typed_decode_in(format: Format, key: &[u8], scratch: &mut [String; 2]) -> usize {
        let [sa, sb] = scratch;
        let mut r = KeyReader::new(format, key);
        let a = r.str_in(sa).unwrap();
        let b = r.str_in(sb).unwrap();
        let i = r.i64().unwrap();
        r.finish().unwrap();
        (a.len() + b.len()).wrapping_add(i as usize)
    }
    fn schema() -> Vec<Field> {
        vec![
            Field::asc(Type::Str),
            Field::asc(Type::Str),
            Field::asc(Type::I64),
        ]
    }
    fn naive(&self) -> String {
        format!(
            "{}#{}#l{:016X}",
            naive_escape(&self.0),
            naive_escape(&self.1),
            (self.2 as u64) ^ (1 << 63)
        )
    }
    fn naive_decode(key: &str) -> usize {
        let mut parts = key.split('#');
        let a = naive_unescape(parts.next().unwrap());
        let b = naive_unescape(parts.next().unwrap());
        let i = naive_hex_u64(parts.next().unwrap(), 'l');
        (a.len() + b.len()).wrapping_add(i as usize)
    }
    fn storekey(&self, out: &mut Vec<u8>) {
        storekey::encode(out, &(self.0.as_str(), self.1.as_str(), self.2)).unwrap();
    }
    fn storekey_borrowed(key: &[u8]) -> usize {
        let (a, b, i) = storekey::decode_borrow::<(Cow<'_, str>, Cow<'_, str>, i64)>(key).unwrap();
        (a.len() + b.len()).wrapping_add(i as usize)
    }
    fn storekey_owned(key: &[u8]) -> usize {
        let (a, b, i) = storekey::decode::<_, (String, String, i64)>(key).unwrap();
        (a.len() + b.len()).wrapping_add(i as usize)
    }
    fn memcomparable(&self, out: &mut Vec<u8>) {
        (self.0.as_str(), self.1.as_str(), self.2)
            .serialize(&mut memcomparable::Serializer::new(out))
            .unwrap();
    }
    fn memcomparable_decode(key: &[u8]) -> usize {
        let (a, b, i) = memcomparable::from_slice::<(String, String, i64)>(key).unwrap();
        (a.len() + b.len()).wrapping_add(i as usize)
    }
    fn fdb(&self, out: &mut Vec<u8>) {
        foundationdb_tuple::pack_into(&(self.0.as_str(), self.1.as_str(), self.2), out);
    }
    fn fdb_decode(key: &[u8]) -> usize {
        let (a, b, i) =
            foundationdb_tuple::unpack::<(Cow<'_, str>, Cow<'_, str>, i64)>(key).unwrap();
        (a.len() + b.len()).wrapping_add(i as usize)
    }
}

impl Shape for I64F64Str {
    const NAME: &'static str = "i64_f64_str";
    fn gen(rng: &mut Rng) -> Vec<Self> {
        let ints = i64s(rng, NT);
        let floats = f64s(rng, NT);
        let s = strings(rng);
        ints.into_iter()
            .zip(floats)
            .zip(s)
            .map(|((i, f), s)| I64F64Str(i, f, s))
            .collect()
    }
    const DECIMAL: bool = false;
    fn with_components<R>(&self, f: impl FnOnce(&[Component<'_>]) -> R) -> R {
        f(&[
            Component::asc(self.0),
            Component::asc(self.1),
            Component::asc(self.2.as_str()),
        ])
    }
    fn typed(&self, format: Format, out: &mut Vec<u8>) {
        KeyWriter::new(format, out)
            .i64(self.0)
            .f64(self.1)
            .unwrap()
            .str(&self.2);
    }
    fn typed_decode(format: Format, key: &[u8]) -> usize {
        let mut r = KeyReader::new(format, key);
        let i = r.i64().unwrap();
        let f = r.f64().unwrap();
        let s = r.str().unwrap();
        r.finish().unwrap();
        s.len()
            .wrapping_add(i as usize)
            .wrapping_add(f.to_bits() as usize)
    }
    fn typed_decode_in(format: Format, key: &[u8], scratch: &mut [String; 2]) -> usize {
        let mut r = KeyReader::new(format, key);
        let i = r.i64().unwrap();
        let f = r.f64().unwrap();
        let s = r.str_in(&mut scratch[0]).unwrap();
        r.finish().unwrap();
        s.len()
            .wrapping_add(i as usize)
            .wrapping_add(f.to_bits() as usize)
    }
    fn schema() -> Vec<Field> {
        vec![
            Field::asc(Type::I64),
            Field::asc(Type::F64),
            Field::asc(Type::Str),
        ]
    }
    fn naive(&self) -> String {
        format!(
            "l{:016X}#d{:016X}#{}",
            (self.0 as u64) ^ (1 << 63),
            naive_f64_bits(self.1),
            naive_escape(&self.2)
        )
    }
    fn naive_decode(key: &str) -> usize {
        let mut parts = key.split('#');
        let i = naive_hex_u64(parts.next().unwrap(), 'l');
        let f = naive_f64_from_bits(naive_hex_u64(parts.next().unwrap(), 'd'));
        let s = naive_unescape(parts.next().unwrap());
        s.len()
            .wrapping_add(i as usize)
            .wrapping_add(f.to_bits() as usize)
    }
    fn storekey(&self, out: &mut Vec<u8>) {
        storekey::encode(out, &(self.0, self.1, self.2.as_str())).unwrap();
    }
    fn storekey_borrowed(key: &[u8]) -> usize {
        let (i, f, s) = storekey::decode_borrow::<(i64, f64, Cow<'_, str>)>(key).unwrap();
        s.len()
            .wrapping_add(i as usize)
            .wrapping_add(f.to_bits() as usize)
    }
    fn storekey_owned(key: &[u8]) -> usize {
        let (i, f, s) = storekey::decode::<_, (i64, f64, String)>(key).unwrap();
        s.len()
            .wrapping_add(i as usize)
            .wrapping_add(f.to_bits() as usize)
    }
    fn memcomparable(&self, out: &mut Vec<u8>) {
        (self.0, self.1, self.2.as_str())
            .serialize(&mut memcomparable::Serializer::new(out))
            .unwrap();
    }
    fn memcomparable_decode(key: &[u8]) -> usize {
        let (i, f, s) = memcomparable::from_slice::<(i64, f64, String)>(key).unwrap();
        s.len()
            .wrapping_add(i as usize)
            .wrapping_add(f.to_bits() as usize)
    }
    fn fdb(&self, out: &mut Vec<u8>) {
        foundationdb_tuple::pack_into(&(self.0, self.1, self.2.as_str()), out);
    }
    fn fdb_decode(key: &[u8]) -> usize {
        let (i, f, s) = foundationdb_tuple::unpack::<(i64, f64, Cow<'_, str>)>(key).unwrap();
        s.len()
            .wrapping_add(i as usize)
            .wrapping_add(f.to_bits() as usize)
    }
}

fn lexikey_key<S: Shape>(format: Format, t: &S, out: &mut Vec<u8>) {
    t.lexikey(format, out);
}

/// `full`: also the base64 and decimal formats, the allocating
/// `tuple::encode` and `KeyWriter::push` (the `(str, i64)` shape).
fn tuple_encode<S: Shape>(g: &mut BenchmarkGroup<'_, WallTime>, values: &[S], full: bool) {
    let name = S::NAME;
    let mut out = Vec::with_capacity(128 * NT);
    let mut run = |id: &str, f: &dyn Fn(&S, &mut Vec<u8>)| {
        g.bench_function(format!("{name}/{id}"), |b| {
            b.iter(|| {
                out.clear();
                for t in values {
                    f(black_box(t), &mut out);
                }
                black_box(&out);
            })
        });
    };
    run("lexikey_hex", &|t, o| lexikey_key(Format::Hex, t, o));
    run("lexikey_hex_typed", &|t, o| t.typed(Format::Hex, o));
    if full {
        run("lexikey_b64", &|t, o| lexikey_key(Format::Base64, t, o));
        if S::DECIMAL {
            run("lexikey_decimal", &|t, o| {
                lexikey_key(Format::Decimal, t, o)
            });
        }
        run("lexikey_hex_push", &|t, o| {
            t.with_components(|c| {
                let mut w = KeyWriter::new(Format::Hex, o);
                for c in c {
                    w.push(c).unwrap();
                }
            })
        });
    }
    run("lexikey_binary", &|t, o| lexikey_key(Format::Binary, t, o));
    run("lexikey_binary_typed", &|t, o| t.typed(Format::Binary, o));
    run("storekey", &|t, o| t.storekey(o));
    run("memcomparable", &|t, o| t.memcomparable(o));
    run("fdb_tuple", &|t, o| t.fdb(o));
    if full {
        // A new `Key` per key, used by reference and dropped at once, as a
        // caller does (`store.put(&key, …)`): like `encode_into`'s rows,
        // which black-box only the output, not a copy of each result.
        g.bench_function(format!("{name}/lexikey_hex_alloc"), |b| {
            b.iter(|| {
                for t in values {
                    let key = black_box(t)
                        .with_components(|c| tuple::encode(Format::Hex, c))
                        .unwrap();
                    black_box(&key);
                }
            })
        });
        // The same, with the whole `Result` moved through `black_box`
        // (the form of this row until issue 16's fourth round): each key
        // then also pays a copy the caller does not make, whose loads
        // wait on the stores just made (store forwarding).
        g.bench_function(format!("{name}/lexikey_hex_alloc_moved"), |b| {
            b.iter(|| {
                for t in values {
                    black_box(black_box(t).with_components(|c| tuple::encode(Format::Hex, c)))
                        .unwrap();
                }
            })
        });
    }
    g.bench_function(format!("{name}/naive_format"), |b| {
        b.iter(|| {
            for t in values {
                black_box(black_box(t).naive());
            }
        })
    });
    let keys = Keys::build(values, |t, o| lexikey_key(Format::Hex, t, o));
    copy_floor(g, &format!("{name}/copy_floor"), &keys);
}

/// A decode bench `{name}/{id}`: `f` of every key in `keys`.
fn decode_with(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    id: &str,
    keys: &Keys,
    f: fn(&[u8]) -> usize,
) {
    g.bench_function(format!("{name}/{id}"), |b| {
        b.iter(|| {
            let mut acc = 0usize;
            for k in keys.iter() {
                acc = acc.wrapping_add(f(black_box(k)));
            }
            black_box(acc)
        })
    });
}

fn tuple_decode<S: Shape>(g: &mut BenchmarkGroup<'_, WallTime>, values: &[S], full: bool) {
    let name = S::NAME;
    let schema = S::schema();
    let mut cases = vec![
        ("lexikey_hex", Format::Hex, true),
        ("lexikey_hex_noschema", Format::Hex, false),
        ("lexikey_binary", Format::Binary, true),
    ];
    if full {
        cases.push(("lexikey_b64", Format::Base64, true));
        cases.push(("lexikey_b64_noschema", Format::Base64, false));
        if S::DECIMAL {
            cases.push(("lexikey_decimal", Format::Decimal, true));
        }
    }
    for (id, format, with_schema) in cases {
        let keys = Keys::build(values, |t, o| lexikey_key(format, t, o));
        let schema = with_schema.then_some(&schema[..]);
        let mut parts: Vec<Component<'_>> = Vec::with_capacity(4);
        g.bench_function(format!("{name}/{id}"), |b| {
            b.iter(|| {
                let mut acc = 0usize;
                for k in keys.iter() {
                    parts.clear();
                    tuple::decode_into(format, black_box(k), schema, &mut parts).unwrap();
                    acc += parts.len();
                }
                black_box(acc)
            })
        });
        // The same keys through a `DecodeArena` (each component handed to
        // a closure, escaped strings unescaped into its buffer).
        let mut arena = tuple::DecodeArena::new();
        g.bench_function(format!("{name}/{id}_arena"), |b| {
            b.iter(|| {
                let mut acc = 0usize;
                for k in keys.iter() {
                    acc += arena
                        .decode(format, black_box(k), schema, |_, c| {
                            black_box(&c);
                        })
                        .unwrap();
                }
                black_box(acc)
            })
        });
        // The same keys through `decode_reusing` into a vector that is
        // never cleared (text formats; binary is `decode_into`).
        if format != Format::Binary {
            let mut parts: Vec<Component<'_>> = Vec::with_capacity(4);
            g.bench_function(format!("{name}/{id}_reusing"), |b| {
                b.iter(|| {
                    let mut acc = 0usize;
                    for k in keys.iter() {
                        tuple::decode_reusing(format, black_box(k), schema, &mut parts).unwrap();
                        acc += parts.len();
                    }
                    black_box(acc)
                })
            });
        }
    }
    let mut run = |id: &str, keys: Keys, f: fn(&[u8]) -> usize| decode_with(g, name, id, &keys, f);
    run(
        "lexikey_hex_typed",
        Keys::build(values, |t, o| t.typed(Format::Hex, o)),
        |k| S::typed_decode(Format::Hex, k),
    );
    run(
        "lexikey_binary_typed",
        Keys::build(values, |t, o| t.typed(Format::Binary, o)),
        |k| S::typed_decode(Format::Binary, k),
    );
    let sk = Keys::build(values, S::storekey);
    run(
        "storekey_borrowed",
        Keys::build(values, S::storekey),
        S::storekey_borrowed,
    );
    run("storekey_owned", sk, S::storekey_owned);
    run(
        "memcomparable",
        Keys::build(values, S::memcomparable),
        S::memcomparable_decode,
    );
    run("fdb_tuple", Keys::build(values, S::fdb), S::fdb_decode);
    run(
        "naive_split_parse",
        Keys::build(values, |t, o| lexikey_key(Format::Hex, t, o)),
        |k| S::naive_decode(std::str::from_utf8(k).unwrap()),
    );
    let keys = Keys::build(values, |t, o| t.typed(Format::Hex, o));
    let mut scratch = [String::with_capacity(64), String::with_capacity(64)];
    g.bench_function(format!("{name}/lexikey_hex_typed_in"), |b| {
        b.iter(|| {
            let mut acc = 0usize;
            for k in keys.iter() {
                acc = acc.wrapping_add(S::typed_decode_in(Format::Hex, black_box(k), &mut scratch));
            }
            black_box(acc)
        })
    });
    let keys = Keys::build(values, |t, o| lexikey_key(Format::Hex, t, o));
    copy_floor(g, &format!("{name}/copy_floor"), &keys);
}

fn bench_tuple(c: &mut Criterion) {
    let mut rng = Rng(0x5EED_0016);
    let a = StrI64::gen(&mut rng);
    let b = StrStrI64::gen(&mut rng);
    let d = I64F64Str::gen(&mut rng);

    let mut g = group_of(c, "tuple/encode", NT);
    tuple_encode(&mut g, &a, true);
    tuple_encode(&mut g, &b, false);
    tuple_encode(&mut g, &d, false);
    g.finish();

    let mut g = group_of(c, "tuple/decode", NT);
    tuple_decode(&mut g, &a, true);
    tuple_decode(&mut g, &b, false);
    tuple_decode(&mut g, &d, false);
    g.finish();
}

/// A `(str, list<i64>)` row of [`bench_lists`].
type Row = (String, Vec<i64>);

/// `(str, list<i64>)` keys: a word and a list of 0 to 8 integers (a fifth
/// of them empty), [`NT`] per iteration, side by side with the peers that
/// encode a sequence in order (storekey and memcomparable: a `Vec<i64>`;
/// FoundationDB: a nested tuple) and a naive `format!` of the same text.
/// The components are built once: the rows time the encoding, not the
/// building of `Value::List`s.
fn bench_lists(c: &mut Criterion) {
    let mut rng = Rng(0x5EED_0042);
    let words = strings(&mut rng);
    let ints = i64s(&mut rng, NT * 8);
    let rows: Vec<Row> = words
        .into_iter()
        .enumerate()
        .map(|(i, w)| {
            let n = (rng.next() % 10).saturating_sub(1).min(8) as usize;
            (w, ints[i * 8..i * 8 + n].to_vec())
        })
        .collect();
    let list = Field {
        list: 1,
        ..Field::asc(Type::I64)
    };
    let comps: Vec<[Component<'_>; 2]> = rows
        .iter()
        .map(|(w, l)| {
            [
                Component::asc(w.as_str()),
                Component::of(
                    list,
                    Value::List(Type::I64, l.iter().map(|&v| Value::I64(v)).collect()),
                ),
            ]
        })
        .collect();
    let schema = [Field::asc(Type::Str), list];
    let name = "str_list_i64";

    let mut g = group_of(c, "list/encode", NT);
    let mut out = Vec::with_capacity(256 * NT);
    for (id, format) in [
        ("lexikey_hex", Format::Hex),
        ("lexikey_binary", Format::Binary),
    ] {
        g.bench_function(format!("{name}/{id}"), |b| {
            b.iter(|| {
                out.clear();
                for c in &comps {
                    tuple::encode_into(format, black_box(c), &mut out).unwrap();
                }
                black_box(&out);
            })
        });
    }
    let mut run = |id: &str, f: &dyn Fn(&Row, &mut Vec<u8>)| {
        g.bench_function(format!("{name}/{id}"), |b| {
            b.iter(|| {
                out.clear();
                for r in &rows {
                    f(black_box(r), &mut out);
                }
                black_box(&out);
            })
        });
    };
    run("storekey", &|(w, l), o| {
        storekey::encode(o, &(w.as_str(), l)).unwrap();
    });
    run("memcomparable", &|(w, l), o| {
        (w.as_str(), l)
            .serialize(&mut memcomparable::Serializer::new(o))
            .unwrap();
    });
    run("fdb_tuple", &|(w, l), o| {
        foundationdb_tuple::pack_into(&(w.as_str(), l), o);
    });
    g.bench_function(format!("{name}/naive_format"), |b| {
        b.iter(|| {
            for (w, l) in &rows {
                let mut s = naive_escape(black_box(w));
                s.push_str("#a");
                for v in l {
                    s.push_str(&format!(":l{:016X}", (*v as u64) ^ (1 << 63)));
                }
                s.push('.');
                black_box(s);
            }
        })
    });
    let keys = Keys::build(&comps, |c, o| {
        tuple::encode_into(Format::Hex, c, o).unwrap()
    });
    copy_floor(&mut g, &format!("{name}/copy_floor"), &keys);
    g.finish();

    let mut g = group_of(c, "list/decode", NT);
    for (id, format) in [
        ("lexikey_hex", Format::Hex),
        ("lexikey_binary", Format::Binary),
    ] {
        let keys = Keys::build(&comps, |c, o| tuple::encode_into(format, c, o).unwrap());
        let mut parts: Vec<Component<'_>> = Vec::with_capacity(2);
        g.bench_function(format!("{name}/{id}"), |b| {
            b.iter(|| {
                let mut acc = 0usize;
                for k in keys.iter() {
                    parts.clear();
                    tuple::decode_into(format, black_box(k), Some(&schema), &mut parts).unwrap();
                    acc += parts.len();
                }
                black_box(acc)
            })
        });
    }
    let mut run =
        |id: &str, keys: Keys, f: fn(&[u8]) -> usize| decode_with(&mut g, name, id, &keys, f);
    run(
        "storekey",
        Keys::build(&rows, |(w, l), o| {
            storekey::encode(o, &(w.as_str(), l)).unwrap()
        }),
        |k| {
            let (w, l) = storekey::decode::<_, (String, Vec<i64>)>(k).unwrap();
            w.len() + l.len()
        },
    );
    run(
        "memcomparable",
        Keys::build(&rows, |(w, l), o| {
            (w.as_str(), l)
                .serialize(&mut memcomparable::Serializer::new(o))
                .unwrap()
        }),
        |k| {
            let (w, l) = memcomparable::from_slice::<(String, Vec<i64>)>(k).unwrap();
            w.len() + l.len()
        },
    );
    run(
        "fdb_tuple",
        Keys::build(&rows, |(w, l), o| {
            foundationdb_tuple::pack_into(&(w.as_str(), l), o);
        }),
        |k| {
            let (w, l) = foundationdb_tuple::unpack::<(Cow<'_, str>, Vec<i64>)>(k).unwrap();
            w.len() + l.len()
        },
    );
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_hex, bench_b64, bench_decimal, bench_binary, bench_tuple, bench_lists
}
criterion_main!(benches);
