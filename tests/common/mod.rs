//! Shared proptest strategies: edge-heavy values of every type.
#![allow(dead_code, unreachable_pub)]

use std::borrow::Cow;

use lexikey::{tuple, Component, Dir, Field, Format, Nulls, Type, Value};
use proptest::prelude::*;

#[path = "../support/size.rs"]
pub mod size;

/// Cases per property: 10,000 at `LEXIKEY_TEST_SIZE=full`, 1,000 at CI size
/// (tests/support/size.rs), unless PROPTEST_CASES says otherwise.
pub fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(size::cases(10_000))
}

pub fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

pub fn i64s() -> BoxedStrategy<i64> {
    prop_oneof![
        2 => prop::sample::select(vec![i64::MIN, i64::MIN + 1, -256, -255, -1, 0, 1, 255, 256, i64::MAX - 1, i64::MAX]),
        1 => -1000i64..1000,
        3 => any::<i64>(),
    ]
    .boxed()
}

pub fn u64s() -> BoxedStrategy<u64> {
    prop_oneof![
        2 => prop::sample::select(vec![0, 1, 255, 256, u64::MAX - 1, u64::MAX, 1 << 63]),
        3 => any::<u64>(),
    ]
    .boxed()
}

pub fn f64s() -> BoxedStrategy<f64> {
    prop_oneof![
        3 => prop::sample::select(vec![
            0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -f64::NAN, f64::MAX, f64::MIN,
            f64::MIN_POSITIVE, -f64::MIN_POSITIVE, f64::from_bits(1), -f64::from_bits(1),
            f64::from_bits(0x000F_FFFF_FFFF_FFFF), 1.0, -1.0, 0.1, f64::EPSILON,
            f64::from_bits(0x7FF0_0000_0000_0001), f64::from_bits(0xFFF8_0000_0000_0001),
        ]),
        3 => any::<u64>().prop_map(f64::from_bits),
        1 => -10.0f64..10.0,
    ]
    .boxed()
}

pub fn f32s() -> BoxedStrategy<f32> {
    prop_oneof![
        3 => prop::sample::select(vec![
            0.0f32, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::MAX, f32::MIN,
            f32::MIN_POSITIVE, f32::from_bits(1), -f32::from_bits(1), 1.0, -1.0,
        ]),
        3 => any::<u32>().prop_map(f32::from_bits),
    ]
    .boxed()
}

/// Strings with shared prefixes, bytes <= 0x25, `#`, `%`, `$`, DEL, non-ASCII.
pub fn strings() -> BoxedStrategy<String> {
    let alphabet = prop::sample::select(vec![
        'a',
        'b',
        '\0',
        '\u{1}',
        '\u{1f}',
        ' ',
        '!',
        '"',
        '#',
        '$',
        '%',
        '&',
        '~',
        '\u{7f}',
        'é',
        '\u{80}',
        '\u{D7FF}',
        '\u{E000}',
        '\u{FFFF}',
        '\u{10000}',
        '\u{10FFFF}',
        'z',
        '-',
        '/',
        '.',
    ]);
    prop_oneof![
        1 => Just(String::new()),
        4 => prop::collection::vec(alphabet, 0..6).prop_map(|v| v.into_iter().collect()),
        2 => "[a-c]{0,4}",
        2 => any::<String>().prop_map(|s| s.chars().take(12).collect()),
    ]
    .boxed()
}

pub fn bytes() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        3 => prop::collection::vec(prop::sample::select(vec![0u8, 1, 2, 0x25, 0x7F, 0x80, 0xFE, 0xFF]), 0..7),
        2 => prop::collection::vec(any::<u8>(), 0..12),
    ]
    .boxed()
}

pub fn uuids() -> BoxedStrategy<u128> {
    prop_oneof![
        1 => prop::sample::select(vec![0u128, 1, u128::MAX, u128::MAX - 1, 1 << 127]),
        3 => any::<u128>(),
    ]
    .boxed()
}

pub fn value_of(ty: Type) -> BoxedStrategy<Value<'static>> {
    match ty {
        Type::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        Type::F64 => f64s().prop_map(Value::F64).boxed(),
        Type::F32 => f32s().prop_map(Value::F32).boxed(),
        Type::Uuid => uuids().prop_map(Value::Uuid).boxed(),
        Type::I32 => prop_oneof![
            prop::sample::select(vec![i32::MIN, -1, 0, 1, i32::MAX]),
            any::<i32>()
        ]
        .prop_map(Value::I32)
        .boxed(),
        Type::I64 => i64s().prop_map(Value::I64).boxed(),
        Type::Ts => i64s().prop_map(Value::Ts).boxed(),
        Type::U64 => u64s().prop_map(Value::U64).boxed(),
        Type::U32 => prop_oneof![prop::sample::select(vec![0u32, 1, u32::MAX]), any::<u32>()]
            .prop_map(Value::U32)
            .boxed(),
        Type::Bytes => bytes().prop_map(|b| Value::Bytes(Cow::Owned(b))).boxed(),
        Type::Str => strings().prop_map(|s| Value::Str(Cow::Owned(s))).boxed(),
        Type::Dec => dec_texts()
            .prop_map(|s| Value::Dec(s.parse().expect("generated decimals parse")))
            .boxed(),
        Type::Vi64 => compact_i64s().prop_map(Value::Vi64).boxed(),
        Type::Vu64 => compact_u64s().prop_map(Value::Vu64).boxed(),
    }
}

/// `i64`s around every length boundary of the compact encoding (the
/// one-byte range −120 … 119, then ±2^(8k) for every k), and any.
pub fn compact_i64s() -> BoxedStrategy<i64> {
    let edge = (1u32..=7, -2i64..=1, any::<bool>()).prop_map(|(k, d, neg)| {
        let p = (1i64 << (8 * k)) + d;
        if neg {
            -p
        } else {
            p
        }
    });
    prop_oneof![
        2 => prop::sample::select(vec![i64::MIN, i64::MIN + 1, -122, -121, -120, -119, -1, 0, 1, 118, 119, 120, 121, 255, 256, i64::MAX - 1, i64::MAX]),
        2 => edge,
        2 => -300i64..300,
        2 => (any::<i64>(), 0u32..64).prop_map(|(v, s)| v >> s),
    ]
    .boxed()
}

/// `u64`s around every length boundary of the compact encoding (247/248,
/// 2^(8k)), and any.
pub fn compact_u64s() -> BoxedStrategy<u64> {
    let edge = (1u32..=7, 0u64..=3).prop_map(|(k, d)| (1u64 << (8 * k)) + d - 2);
    prop_oneof![
        2 => prop::sample::select(vec![0, 1, 246, 247, 248, 249, 255, 256, u64::MAX - 1, u64::MAX, 1 << 63]),
        2 => edge,
        2 => 0u64..600,
        2 => (any::<u64>(), 0u32..64).prop_map(|(v, s)| v >> s),
    ]
    .boxed()
}

/// Every type: the fixed-layout ones ([`Type::ALL`]) and the compact
/// integers.
pub fn every_type() -> impl Strategy<Value = Type> {
    prop::sample::select(
        Type::ALL
            .iter()
            .chain(&Type::COMPACT)
            .copied()
            .collect::<Vec<_>>(),
    )
}

/// Decimal numbers as text, edge-heavy: zero in its spellings, ±1, halves,
/// powers of ten around length-chain boundaries (9/10, 99/100, 10^9/10^10),
/// shared digit prefixes (1, 1.1, 1.11, 11), long digit runs, tiny and huge
/// exponents up to the limits, and exact f64 values.
pub fn dec_texts() -> BoxedStrategy<String> {
    let digits = prop::collection::vec(prop::sample::select(vec!['0', '1', '5', '9']), 1..24)
        .prop_map(|v| v.into_iter().collect::<String>());
    prop_oneof![
        2 => prop::sample::select(vec![
            "0", "-0", "0.000", "1", "-1", "0.5", "-0.5", "9", "10", "99", "100", "999999999",
            "1000000000", "-9", "-10", "1.1", "1.11", "11", "0.1", "0.01", "-0.01", "10.5",
            "-10.5", "1e-40", "-1e-40", "1e40", "1e32766", "-1e32766", "1e-32767",
            "9.99999999999999999999999e32766", "123456789012345678901234567890.0001",
            "-123456789012345678901234567890.0001",
        ])
        .prop_map(str::to_string),
        4 => (any::<bool>(), digits.clone(), -40i32..40)
            .prop_map(|(neg, d, e)| format!("{}0.{d}e{e}", if neg { "-" } else { "" })),
        1 => (any::<bool>(), digits, -32_000i32..32_000)
            .prop_map(|(neg, d, e)| format!("{}0.{d}e{e}", if neg { "-" } else { "" })),
        1 => any::<i64>().prop_map(|v| v.to_string()),
        1 => f64s()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(|v| lexikey::Dec::from_f64_exact(v).expect("finite").to_string()),
    ]
    .boxed()
}

pub fn types() -> impl Strategy<Value = Type> {
    prop::sample::select(Type::ALL.to_vec())
}

pub fn dirs() -> impl Strategy<Value = Dir> {
    prop::sample::select(vec![Dir::Asc, Dir::Desc])
}

pub fn formats() -> impl Strategy<Value = Format> {
    prop::sample::select(Format::ALL.to_vec())
}

pub fn fields() -> impl Strategy<Value = Field> {
    (types(), dirs()).prop_map(|(ty, dir)| Field {
        ty,
        dir,
        width: None,
        nulls: None,
        list: 0,
    })
}

/// Whether `format` can hold values of `ty`.
pub fn supports(format: Format, ty: Type) -> bool {
    !(format == Format::Decimal && matches!(ty, Type::F64 | Type::F32))
}

/// A field that `format` supports.
pub fn field_for(format: Format) -> impl Strategy<Value = Field> {
    fields().prop_filter("format supports type", move |f| supports(format, f.ty))
}

/// A schema of `n` fields `format` supports, and two tuples of it.
pub fn schema_and_tuples(
    format: Format,
    len: std::ops::RangeInclusive<usize>,
    count: std::ops::Range<usize>,
) -> impl Strategy<Value = (Vec<Field>, Vec<Vec<Component<'static>>>)> {
    prop::collection::vec(field_for(format), len).prop_flat_map(move |schema| {
        let row = schema
            .iter()
            .map(|f| {
                let f = *f;
                value_of(f.ty).prop_map(move |value| Component {
                    value,
                    dir: f.dir,
                    width: None,
                    nulls: None,
                    list: 0,
                })
            })
            .collect::<Vec<_>>();
        (Just(schema), prop::collection::vec(row, count.clone()))
    })
}

/// Tuple order as keys must order: component by component, each by its
/// direction; a shorter tuple that is a prefix of a longer one first.
pub fn tuple_cmp(a: &[Component<'_>], b: &[Component<'_>]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = x.key_cmp(y);
        if o.is_ne() {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

/// The key of `comps` in `format` (the values fit their fields).
pub fn enc(format: Format, comps: &[Component<'_>]) -> Vec<u8> {
    tuple::encode(format, comps)
        .expect("supported type")
        .to_vec()
}

/// The schema the components were written with.
pub fn schema_of(comps: &[Component<'_>]) -> Vec<Field> {
    comps.iter().map(Component::field).collect()
}

/// Nulls first or last.
pub fn nulls() -> impl Strategy<Value = Nulls> {
    prop::sample::select(vec![Nulls::First, Nulls::Last])
}

/// Two rows of one schema: tuple order ⇔ key order, the round trip
/// through the schema (also with `decode_reusing`), and a row's prefix
/// sorts before it.
pub fn check_composite_rows(
    format: Format,
    a: &[Component<'_>],
    b: &[Component<'_>],
) -> Result<(), TestCaseError> {
    let (ka, kb) = (enc(format, a), enc(format, b));
    prop_assert_eq!(ka.cmp(&kb), tuple_cmp(a, b), "{} {:?} {:?}", format, a, b);
    let back = tuple::decode(format, &ka, Some(&schema_of(a))).unwrap();
    prop_assert_eq!(&back[..], a);
    prop_assert_eq!(enc(format, &back), ka);
    let mut reused = Vec::new();
    tuple::decode_reusing(format, &kb, Some(&schema_of(b)), &mut reused).unwrap();
    prop_assert_eq!(&reused[..], b);
    if b.len() > 1 {
        prop_assert!(enc(format, &b[..b.len() - 1]) < kb);
    }
    Ok(())
}

/// Canonical decode: `row`'s key with the byte at `at` replaced by `with`
/// (`how` 0), dropped (1) or `with` inserted (2) either decodes to
/// components whose key it is exactly, or is refused with an offset
/// inside the key and a one-line message.
pub fn check_edited_key(
    format: Format,
    row: &[Component<'_>],
    at: prop::sample::Index,
    with: u8,
    how: u8,
) -> Result<(), TestCaseError> {
    let schema = schema_of(row);
    let mut k = enc(format, row);
    let i = at.index(k.len() + 1);
    match how {
        0 if i < k.len() => k[i] = with,
        1 if i < k.len() => {
            k.remove(i);
        }
        _ => k.insert(i.min(k.len()), with),
    }
    match tuple::decode(format, &k, Some(&schema)) {
        Ok(back) => prop_assert_eq!(enc(format, &back), k),
        Err(e) => {
            prop_assert!(e.offset() <= k.len(), "{} {:?}: {}", format, k, e);
            prop_assert!(!e.to_string().contains('\n'));
        }
    }
    Ok(())
}

/// Checks a golden file of `FORMAT<TAB>COMPONENT…<TAB>KEY` lines under
/// `fixtures/` (binary keys as lowercase hex), both ways: every line
/// encodes to its key, its key decodes (with the components' schema) to
/// its components, and they print as the fixture's text. Returns the
/// number of vectors checked.
pub fn check_golden_tsv(name: &str) -> usize {
    use lexikey::value::literal::{component_to_string, parse_component};
    let path = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut checked = 0;
    for (n, cols) in lexikey::fixture::data_lines(&text) {
        let (format, rest) = cols.split_first().expect("format column");
        let (key, comps) = rest.split_last().expect("key column");
        let format = Format::parse(format).unwrap();
        let texts: Vec<String> = comps
            .iter()
            .map(|c| lexikey::fixture::unescape(c).unwrap())
            .collect();
        let comps: Vec<Component<'static>> = texts
            .iter()
            .map(|c| parse_component(c).unwrap_or_else(|e| panic!("{name} line {n}: {e}")))
            .collect();
        let got = enc(format, &comps);
        let shown = if format.is_text() {
            String::from_utf8(got.clone()).unwrap()
        } else {
            lexikey::to_hex(&got)
        };
        assert_eq!(&shown, key, "{name} line {n}: encode");
        let raw = if format.is_text() {
            key.as_bytes().to_vec()
        } else {
            lexikey::value::literal::parse_hex(key).unwrap()
        };
        let back = tuple::decode(format, &raw, Some(&schema_of(&comps))).unwrap();
        assert_eq!(back, comps, "{name} line {n}: decode");
        let printed: Vec<String> = back.iter().map(component_to_string).collect();
        assert_eq!(printed, texts, "{name} line {n}: print");
        checked += 1;
    }
    checked
}
