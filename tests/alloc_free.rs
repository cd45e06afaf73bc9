//! Zero heap allocations per value on the hot paths, proven with a counting
//! global allocator: scalar encode/decode (`encode_i64` → `[u8; N]`,
//! `decode_i64(&[u8])`, …), component and tuple encode into a reused
//! buffer, borrowed tuple decode of escape-free strings into a reused
//! `Vec`, `tuple::decode_reusing` of any strings into a vector that is
//! never cleared (once its buffers have grown), `tuple::DecodeArena` (any
//! strings, every one borrowed), and typed decode (`KeyReader::str_in`) of escaped strings into a
//! reused scratch `String`.
//!
//! The counter is per thread, so the test harness's other threads do not
//! disturb it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::borrow::Cow;
use std::cell::Cell;

use lexikey::format::{base64, binary, decimal, hex};
use lexikey::{tuple, Component, Field, Format, Key, Type, Value};

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

fn bump() {
    // `try_with`: the slot may already be gone while a thread exits.
    let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every call forwards to `System` unchanged; the counter is a
// const-initialized thread-local `Cell`, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The number of allocations (and reallocations) `f` makes on this thread.
fn allocations<R>(f: impl FnOnce() -> R) -> usize {
    let before = ALLOCS.with(Cell::get);
    std::hint::black_box(f());
    ALLOCS.with(Cell::get) - before
}

const I64S: [i64; 9] = [
    i64::MIN,
    i64::MIN + 1,
    -1_000_000,
    -1,
    0,
    1,
    3_831_868,
    i64::MAX - 1,
    i64::MAX,
];
const F64S: [f64; 12] = [
    f64::NEG_INFINITY,
    f64::MIN,
    -1.5,
    -5e-324,
    -0.0,
    0.0,
    5e-324,
    f64::MIN_POSITIVE,
    1.0,
    f64::MAX,
    f64::INFINITY,
    f64::NAN,
];
/// Strings a text key writes as they are (no byte <= 0x25), and binary keys
/// without `00`: decoding them borrows.
const PLAIN: [&str; 5] = ["", "population", "usa", "san_francisco", "Zürich~é"];
/// Strings with bytes that text keys escape and binary keys escape.
const ESCAPED: [&str; 4] = ["san francisco", "a#b$c%d", "\0\u{1}\u{1f}", "100% !"];

#[test]
fn the_counter_counts() {
    assert!(allocations(|| vec![1u8; 10]) >= 1);
    assert_eq!(allocations(|| 1 + 1), 0);
}

#[test]
fn scalar_encode_and_decode_allocate_nothing() {
    let n = allocations(|| {
        let mut acc = 0u64;
        for &v in &I64S {
            let k = hex::encode_i64(v);
            assert_eq!(hex::decode_i64(&k).unwrap(), v);
            let k = base64::encode_i64(v);
            assert_eq!(base64::decode_i64(&k).unwrap(), v);
            let k = decimal::encode_i64(v);
            assert_eq!(decimal::decode_i64(&k).unwrap(), v);
            let k = binary::encode_i64(v);
            assert_eq!(binary::decode_i64(&k).unwrap(), v);
            acc = acc.wrapping_add(v as u64);
        }
        for &v in &F64S {
            let same = |x: f64| x.to_bits() == v.to_bits() || (x.is_nan() && v.is_nan());
            assert!(same(hex::decode_f64(&hex::encode_f64(v)).unwrap()));
            assert!(same(base64::decode_f64(&base64::encode_f64(v)).unwrap()));
            assert!(same(binary::decode_f64(&binary::encode_f64(v)).unwrap()));
            acc ^= v.to_bits();
        }
        acc
    });
    assert_eq!(n, 0, "scalar encode/decode allocated");
}

/// Every fixed-width type, both directions, every format: one component
/// encoded into a reused buffer and decoded back.
#[test]
fn component_encode_and_decode_of_fixed_width_values_allocate_nothing() {
    let values = [
        Value::Bool(true),
        Value::I32(-7),
        Value::U32(7),
        Value::I64(-3_831_868),
        Value::U64(u64::MAX),
        Value::Ts(1_700_000_000_000),
        Value::F64(-2.5),
        Value::F32(0.25),
        Value::Uuid(0x0123_4567_89AB_CDEF_0123_4567_89AB_CDEF),
    ];
    let mut buf = Vec::with_capacity(256);
    for format in Format::ALL {
        for value in &values {
            if format == Format::Decimal && matches!(value, Value::F64(_) | Value::F32(_)) {
                continue; // decimal refuses floats
            }
            for c in [
                Component::asc(value.clone()),
                Component::desc(value.clone()),
            ] {
                let field = c.field();
                let n = allocations(|| {
                    buf.clear();
                    format.encode_component(&c, &mut buf).unwrap();
                    let back = format.decode_component(field, &buf).unwrap();
                    assert_eq!(back.value, c.value, "{format} {c:?}");
                });
                assert_eq!(n, 0, "{format}: {c:?} allocated");
            }
        }
    }
}

fn tuples() -> Vec<Vec<Component<'static>>> {
    let mut out = Vec::new();
    for s in PLAIN.iter().chain(&ESCAPED) {
        for &i in &I64S {
            out.push(vec![Component::asc(*s), Component::asc(i)]);
            out.push(vec![
                Component::asc(*s),
                Component::desc(*s),
                Component::asc(i),
            ]);
        }
        for &f in &F64S {
            out.push(vec![
                Component::asc(7_i64),
                Component::asc(f),
                Component::asc(*s),
            ]);
        }
        // Decimals (dec): ELEN in `decimal`, the binary bytes elsewhere.
        for d in ["0", "-0.5", "10.5", "1234567890.0001", "-1e-40", "1e300"] {
            let d: lexikey::Dec = d.parse().unwrap();
            out.push(vec![Component::asc(*s), Component::asc(d.clone())]);
            out.push(vec![Component::asc(*s), Component::desc(d)]);
        }
    }
    out
}

#[test]
fn tuple_encode_into_a_reused_buffer_allocates_nothing() {
    let tuples = tuples();
    let mut buf = Vec::with_capacity(1024);
    for format in Format::ALL {
        let mut keys = 0;
        let n = allocations(|| {
            for t in &tuples {
                buf.clear();
                match tuple::encode_into(format, t, &mut buf) {
                    Ok(()) => keys += 1,
                    // Decimal refuses floats (the error itself may allocate:
                    // not a hot path).
                    Err(_) => assert_eq!(format, Format::Decimal),
                }
            }
        });
        if format != Format::Decimal {
            assert_eq!(n, 0, "{format}: tuple encode allocated");
        }
        assert!(keys > 0);
    }
    // Decimal on the tuples it holds.
    let n = allocations(|| {
        for t in tuples
            .iter()
            .filter(|t| !matches!(t[1].value, Value::F64(_)))
        {
            buf.clear();
            tuple::encode_into(Format::Decimal, t, &mut buf).unwrap();
        }
    });
    assert_eq!(n, 0, "decimal: tuple encode allocated");
}

/// `tuple::encode` writes into the buffer the last dropped `Key` left on
/// the thread: encode and drop in a loop allocates nothing once that
/// buffer has grown (after the first two keys). Kept keys get
/// one allocation each, of exactly their length (the per-thread scratch
/// they are written into first has grown by then).
#[test]
fn tuple_encode_reuses_a_dropped_keys_buffer() {
    let long = "a long row key part, longer than a reused buffer may be: ".repeat(5);
    let mut tuples = tuples();
    tuples.push(vec![Component::asc(long.as_str()), Component::asc(7_i64)]);
    // Every key once, all kept (so no buffer is left for reuse): the
    // thread's scratch grows to the longest of them.
    let warm: Vec<Key> = Format::ALL
        .iter()
        .flat_map(|&f| tuples.iter().filter_map(move |t| tuple::encode(f, t).ok()))
        .collect();
    drop(warm);
    let (mut reused, mut fresh) = (0, 0);
    for format in Format::ALL {
        for t in &tuples {
            let Ok(first) = tuple::encode(format, t) else {
                continue; // decimal refuses floats
            };
            let first = first.into_vec(); // takes the buffer: none left
            let recycled = first.len() <= Key::RECYCLE_MAX;
            // Encode and drop, twice: the first key gets an exact
            // allocation and leaves it behind; the second, written into
            // it, may grow it once to what the encoders reserve (upper
            // bounds); from then on it is reused as it is.
            for _ in 0..2 {
                drop(tuple::encode(format, t).unwrap());
            }
            let n = allocations(|| {
                let key = tuple::encode(format, t).unwrap();
                assert_eq!(key, first);
            });
            assert_eq!(n, usize::from(!recycled), "{format} {t:?}");
            // Keys that are kept: one allocation each, exactly sized.
            let mut kept = Vec::with_capacity(3);
            let n = allocations(|| {
                for _ in 0..3 {
                    kept.push(tuple::encode(format, t).unwrap());
                }
            });
            assert_eq!(n, 3 - usize::from(recycled), "{format} {t:?}");
            // The first took the spare buffer; the others are exact.
            for k in &kept[usize::from(recycled)..] {
                assert_eq!(k.capacity(), k.len(), "{format} {t:?}");
            }
            assert!(kept.iter().all(|k| *k == first));
            if recycled {
                reused += 1;
            } else {
                fresh += 1;
            }
        }
    }
    assert!(reused >= 40 && fresh >= 4, "{reused} reused, {fresh} not");
}

#[test]
fn borrowed_tuple_decode_of_escape_free_strings_allocates_nothing() {
    for format in Format::ALL {
        let schema = [Field::asc(Type::Str), Field::asc(Type::I64)];
        let keys: Vec<Vec<u8>> = PLAIN
            .iter()
            .flat_map(|s| I64S.map(|i| (*s, i)))
            .map(|(s, i)| {
                tuple::encode(format, &[Component::asc(s), Component::asc(i)])
                    .unwrap()
                    .into_vec()
            })
            .collect();
        let mut parts: Vec<Component<'_>> = Vec::with_capacity(4);
        let n = allocations(|| {
            for k in &keys {
                parts.clear();
                tuple::decode_into(format, k, Some(&schema), &mut parts).unwrap();
                assert!(
                    matches!(parts[0].value, Value::Str(Cow::Borrowed(_))),
                    "{format}"
                );
                assert!(matches!(parts[1].value, Value::I64(_)));
            }
        });
        assert_eq!(n, 0, "{format}: borrowed tuple decode allocated");

        // Three components, a float among them.
        if format != Format::Decimal {
            let schema = [
                Field::asc(Type::I64),
                Field::asc(Type::F64),
                Field::asc(Type::Str),
            ];
            let keys: Vec<Vec<u8>> = PLAIN
                .iter()
                .flat_map(|s| F64S.map(|f| (*s, f)))
                .map(|(s, f)| {
                    let c = [Component::asc(-1_i64), Component::asc(f), Component::asc(s)];
                    tuple::encode(format, &c).unwrap().into_vec()
                })
                .collect();
            let n = allocations(|| {
                for k in &keys {
                    parts.clear();
                    tuple::decode_into(format, k, Some(&schema), &mut parts).unwrap();
                    assert!(matches!(parts[2].value, Value::Str(Cow::Borrowed(_))));
                }
            });
            assert_eq!(n, 0, "{format}: borrowed (i64, f64, str) decode allocated");
        }
    }
}

/// Escaped strings must be unescaped into an owned string: one allocation
/// per such string, never more.
#[test]
fn decoding_an_escaped_string_allocates_once() {
    let schema = [Field::asc(Type::Str), Field::asc(Type::I64)];
    for format in Format::ALL {
        for s in ESCAPED {
            let key = tuple::encode(format, &[Component::asc(s), Component::asc(1_i64)]).unwrap();
            let mut parts: Vec<Component<'_>> = Vec::with_capacity(4);
            let n = allocations(|| {
                tuple::decode_into(format, &key, Some(&schema), &mut parts).unwrap();
                parts.clear();
            });
            assert!(n <= 1, "{format} {s:?}: {n} allocations");
        }
    }
}

/// The keys of the steady-state decode tests: `(str, str, i64)` tuples
/// in which escaped and plain strings alternate, in both positions; `f`
/// gets each text format with each schema it decodes with (with a
/// schema, and hex and base64 without one) and those keys with their
/// values.
fn for_each_three_part_case(
    mut f: impl FnMut(Format, Option<&[Field]>, &[(Key, &str, &str, i64)]),
) {
    for format in [Format::Hex, Format::Base64, Format::Decimal] {
        let schema = [
            Field::asc(Type::Str),
            Field::asc(Type::Str),
            Field::asc(Type::I64),
        ];
        let mut keys = Vec::new();
        // Escaped and plain strings alternate, in both positions.
        let strs: Vec<&str> = ESCAPED.iter().chain(&PLAIN).copied().collect();
        for (j, s) in strs.iter().enumerate() {
            let t = strs[(j + 3) % strs.len()];
            for i in I64S {
                let c = [Component::asc(*s), Component::asc(t), Component::asc(i)];
                keys.push((tuple::encode(format, &c).unwrap(), *s, t, i));
            }
        }
        let schemas: &[Option<&[Field]>] = if format == Format::Decimal {
            &[Some(&schema)]
        } else {
            &[Some(&schema), None]
        };
        for &schema in schemas {
            f(format, schema, &keys);
        }
    }
}

/// `tuple::decode_reusing` into one vector that is never cleared: once
/// each string position has held an escaped string (a first pass over the
/// keys), decoding allocates nothing, escaped strings included, in every
/// text format, with a schema and (hex, base64) without one.
#[test]
fn tuple_decode_reusing_allocates_nothing_in_steady_state() {
    for_each_three_part_case(|format, schema, keys| {
        let mut parts: Vec<Component<'_>> = Vec::new();
        let mut pass = || {
            for (key, s, t, i) in keys {
                tuple::decode_reusing(format, key, schema, &mut parts).unwrap();
                assert_eq!(parts.len(), 3);
                assert_eq!(parts[0].value, Value::from(*s));
                assert_eq!(parts[1].value, Value::from(*t));
                assert_eq!(parts[2].value, Value::I64(*i));
            }
        };
        pass(); // the buffers grow to the longest string of each position
        let n = allocations(&mut pass);
        assert_eq!(n, 0, "{format} {schema:?}: decode_reusing allocated");
    });
}

/// `tuple::DecodeArena`: once its buffer has grown (a first pass over the
/// keys), decoding allocates nothing, escaped strings included, in every
/// text format, with a schema and (hex, base64) without one; every string
/// is handed out borrowed.
#[test]
fn tuple_decode_arena_allocates_nothing_in_steady_state() {
    for_each_three_part_case(|format, schema, keys| {
        let mut arena = tuple::DecodeArena::new();
        let mut pass = || {
            for (key, s, t, i) in keys {
                let n = arena
                    .decode(format, key, schema, |j, c| {
                        let want = [Value::from(*s), Value::from(*t), Value::I64(*i)];
                        assert_eq!(c.value, want[j]);
                        if j < 2 {
                            assert!(matches!(c.value, Value::Str(Cow::Borrowed(_))));
                        }
                    })
                    .unwrap();
                assert_eq!(n, 3);
            }
        };
        pass(); // the buffer grows to the longest escaped string
        let n = allocations(&mut pass);
        assert_eq!(n, 0, "{format} {schema:?}: DecodeArena::decode allocated");
    });
}

/// `KeyReader::str_in` with a reused scratch string: no allocation per key
/// in the text formats, escaped strings included (once the scratch has
/// grown), and none for escape-free strings in any format.
#[test]
fn typed_decode_into_a_reused_scratch_allocates_nothing() {
    use lexikey::format::typed::{KeyReader, KeyWriter};
    for format in Format::ALL {
        let mut keys = Vec::new();
        for s in PLAIN.iter().chain(&ESCAPED) {
            if format == Format::Binary && s.contains('\0') {
                continue; // binary: a string holding 00 is unescaped into a new String
            }
            for i in I64S {
                let mut key = Vec::new();
                KeyWriter::new(format, &mut key).str(s).str(s).i64(i);
                keys.push((key, *s, i));
            }
        }
        let (mut a, mut b) = (String::with_capacity(64), String::with_capacity(64));
        let n = allocations(|| {
            for (key, s, i) in &keys {
                let mut r = KeyReader::new(format, key);
                assert_eq!(r.str_in(&mut a).unwrap(), *s);
                assert_eq!(r.str_in(&mut b).unwrap(), *s);
                assert_eq!(r.i64().unwrap(), *i);
                r.finish().unwrap();
            }
        });
        assert_eq!(n, 0, "{format}: KeyReader::str_in allocated");
    }
}
