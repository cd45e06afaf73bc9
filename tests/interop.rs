//! Interop profiles: golden vectors from each project's own test files
//! (checked both ways) and properties (order, round trip, canonical decode,
//! no panic) over edge-heavy values.

mod common;

use std::cmp::Ordering;

use lexikey::interop::fdb::{self, Element, Int};
use lexikey::DecodeError;
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// Fixture plumbing
// ---------------------------------------------------------------------------

/// The data lines of a fixture: columns split on tabs, comment columns
/// (starting with `#`) and comment lines dropped.
fn fixture(name: &str) -> Vec<(usize, Vec<String>)> {
    let path = format!("{}/fixtures/interop/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let cols = l
                .split('\t')
                .filter(|c| !c.starts_with('#'))
                .map(unescape)
                .collect();
            (i + 1, cols)
        })
        .collect()
}

/// `\xNN` → that byte, `\\` → `\`; the result must be UTF-8.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') {
            out.push(u8::from_str_radix(&s[i + 2..i + 4], 16).unwrap());
            i += 4;
        } else if b[i] == b'\\' && b.get(i + 1) == Some(&b'\\') {
            out.push(b'\\');
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

fn hex(s: &str) -> Vec<u8> {
    lexikey::input::parse_hex(s).unwrap()
}

fn variant(e: &DecodeError) -> &'static str {
    match e {
        DecodeError::InvalidSymbol { .. } => "InvalidSymbol",
        DecodeError::UnexpectedTag { .. } => "UnexpectedTag",
        DecodeError::Truncated { .. } => "Truncated",
        DecodeError::NonCanonical { .. } => "NonCanonical",
        DecodeError::TrailingBytes { .. } => "TrailingBytes",
        DecodeError::InvalidUtf8 { .. } => "InvalidUtf8",
        DecodeError::OutOfRange { .. } => "OutOfRange",
        DecodeError::SchemaRequired { .. } => "SchemaRequired",
        DecodeError::MissingComponent { .. } => "MissingComponent",
        _ => "other",
    }
}

/// Checks a malformed-key fixture (`hex, variant, offset`) against `decode`.
fn check_malformed<T: std::fmt::Debug>(
    name: &str,
    decode: impl Fn(&[u8]) -> Result<T, DecodeError>,
) -> usize {
    let rows = fixture(name);
    for (line, cols) in &rows {
        let key = hex(&cols[0]);
        match decode(&key) {
            Ok(v) => panic!("{name}:{line}: {} decoded to {v:?}", cols[0]),
            Err(e) => {
                assert_eq!(variant(&e), cols[1], "{name}:{line}: {e}");
                assert_eq!(e.offset().to_string(), cols[2], "{name}:{line}: {e}");
                // The message names the offset.
                assert!(
                    e.to_string().contains(&format!("at byte {}", cols[2])),
                    "{e}"
                );
            }
        }
    }
    rows.len()
}

// ---------------------------------------------------------------------------
// FoundationDB tuple layer: golden vectors
// ---------------------------------------------------------------------------

/// Parses fixture columns into elements; `(` … `)` delimit a nested tuple.
fn fdb_elements(cols: &[String]) -> Vec<Element> {
    fn go(cols: &mut std::slice::Iter<'_, String>) -> Vec<Element> {
        let mut out = Vec::new();
        while let Some(c) = cols.next() {
            match c.as_str() {
                "(" => out.push(Element::Nested(go(cols))),
                ")" => return out,
                _ => out.push(fdb::parse_component(c).unwrap()),
            }
        }
        out
    }
    go(&mut cols.iter())
}

#[test]
fn fdb_golden_both_ways() {
    let rows = fixture("fdb.tsv");
    assert!(rows.len() >= 60, "{} vectors", rows.len());
    for (line, cols) in &rows {
        let key = hex(&cols[0]);
        let tuple = fdb_elements(&cols[1..]);
        assert_eq!(
            lexikey::to_hex(&fdb::pack_to_vec(&tuple)),
            cols[0],
            "fdb.tsv:{line}: pack {tuple:?}"
        );
        let back = fdb::unpack(&key).unwrap_or_else(|e| panic!("fdb.tsv:{line}: {e}"));
        assert_eq!(back, tuple, "fdb.tsv:{line}: unpack");
        // Bit-exact floats (Eq already compares bits; make it explicit).
        for (a, b) in back.iter().zip(&tuple) {
            if let (Element::Double(x), Element::Double(y)) = (a, b) {
                assert_eq!(x.to_bits(), y.to_bits());
            }
        }
        // The component syntax round-trips (rows without the fixture-only
        // nesting syntax, where columns and elements line up).
        if cols.iter().any(|c| c == "(") {
            continue;
        }
        for (e, c) in tuple.iter().zip(&cols[1..]) {
            {
                assert_eq!(fdb::parse_component(&fdb::format_component(e)).unwrap(), *e);
                if !matches!(e, Element::Float(_) | Element::Double(_)) {
                    assert_eq!(&fdb::format_component(e), c, "fdb.tsv:{line}");
                }
            }
        }
    }
}

#[test]
fn fdb_golden_sorted_order() {
    // Sorting the golden tuples by value sorts their keys.
    let rows = fixture("fdb.tsv");
    let mut pairs: Vec<(Vec<Element>, Vec<u8>)> = rows
        .iter()
        .map(|(_, c)| (fdb_elements(&c[1..]), hex(&c[0])))
        .collect();
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    for w in pairs.windows(2) {
        assert_eq!(
            w[0].0.cmp(&w[1].0),
            w[0].1.cmp(&w[1].1),
            "{:?} / {:?}",
            w[0].0,
            w[1].0
        );
    }
}

#[test]
fn fdb_malformed() {
    let n = check_malformed("fdb-malformed.tsv", fdb::unpack);
    assert!(n >= 30);
}

#[test]
fn fdb_python_u64_max_is_lenient_only() {
    let py = hex("1d08ffffffffffffffff");
    assert_eq!(
        fdb::unpack_lenient(&py).unwrap(),
        vec![Element::from(u64::MAX)]
    );
    let py_neg = hex("0bf70000000000000000");
    assert_eq!(
        fdb::unpack_lenient(&py_neg).unwrap(),
        vec![Element::Int(
            Int::from_sign_magnitude(true, &[0xFF; 8]).unwrap()
        )]
    );
    // Other short big-integer forms stay errors even when lenient.
    assert!(fdb::unpack_lenient(&hex("1d0101")).is_err());
}

#[test]
fn fdb_depth_limit() {
    let mut ok = vec![0x05; fdb::MAX_DEPTH];
    ok.extend(vec![0x00; fdb::MAX_DEPTH]);
    assert!(fdb::unpack(&ok).is_ok());
    let deep = vec![0x05; 100_000];
    let e = fdb::unpack(&deep).unwrap_err();
    assert_eq!(e.offset(), fdb::MAX_DEPTH);
}

#[test]
fn fdb_int_extremes() {
    let max = Int::from_sign_magnitude(false, &[0xFF; 255]).unwrap();
    let min = Int::from_sign_magnitude(true, &[0xFF; 255]).unwrap();
    let k = fdb::pack_to_vec(&[Element::Int(max.clone())]);
    assert_eq!(&k[..2], &[0x1D, 0xFF]);
    assert_eq!(k.len(), 257);
    let k = fdb::pack_to_vec(&[Element::Int(min.clone())]);
    assert_eq!(&k[..2], &[0x0B, 0x00]);
    assert!(k[2..].iter().all(|&b| b == 0));
    assert!(Int::from_sign_magnitude(false, &[1; 256]).is_none());
    assert_eq!(Int::parse(&max.to_string()).unwrap(), max);
    assert_eq!(Int::parse(&min.to_string()).unwrap(), min);
    assert_eq!(max.to_string().len(), 615);
    for bad in ["", "-", "01", "-0", "+1", "1e3", " 1"] {
        assert!(Int::parse(bad).is_err(), "{bad:?}");
    }
}

// ---------------------------------------------------------------------------
// FoundationDB tuple layer: properties
// ---------------------------------------------------------------------------

/// ±(2^(8n) − 1), ±2^(8n) and their neighbours for every size class n.
fn fdb_boundary_ints() -> BoxedStrategy<Int> {
    (0usize..=255, 0u8..4, any::<bool>())
        .prop_map(|(n, which, neg)| {
            let mag = match which {
                0 => vec![0xFF; n],                           // 2^(8n) - 1
                1 => [vec![1], vec![0; n]].concat(),          // 2^(8n)
                2 => [vec![0xFF; n], vec![0xFE]].concat(),    // 2^(8n+8) - 2
                _ => [vec![1], vec![0; n], vec![1]].concat(), // 2^(8n+8) + 1
            };
            Int::from_sign_magnitude(neg, &mag[..mag.len().min(255)]).unwrap()
        })
        .boxed()
}

fn fdb_ints() -> BoxedStrategy<Int> {
    prop_oneof![
        3 => fdb_boundary_ints(),
        2 => common::i64s().prop_map(Int::from),
        2 => common::u64s().prop_map(Int::from),
        1 => Just(Int::from(u64::MAX)),
        1 => Just(Int::from(-i128::from(u64::MAX))),
        1 => (any::<bool>(), prop::collection::vec(any::<u8>(), 0..40))
            .prop_map(|(n, m)| Int::from_sign_magnitude(n, &m).unwrap()),
    ]
    .boxed()
}

fn fdb_leaf() -> BoxedStrategy<Element> {
    prop_oneof![
        1 => Just(Element::Null),
        2 => common::bytes().prop_map(Element::Bytes),
        2 => common::strings().prop_map(Element::String),
        4 => fdb_ints().prop_map(Element::Int),
        1 => common::f32s().prop_map(Element::Float),
        1 => any::<u32>().prop_map(|b| Element::Float(f32::from_bits(b))),
        1 => common::f64s().prop_map(Element::Double),
        1 => any::<u64>().prop_map(|b| Element::Double(f64::from_bits(b))),
        1 => any::<bool>().prop_map(Element::Bool),
        1 => common::uuids().prop_map(|u| Element::Uuid(u.to_be_bytes())),
        1 => any::<[u8; 12]>().prop_map(|b| Element::Versionstamp(fdb::Versionstamp(b))),
    ]
    .boxed()
}

fn fdb_element() -> BoxedStrategy<Element> {
    fdb_leaf()
        .prop_recursive(3, 16, 4, |inner| {
            prop::collection::vec(inner, 0..4).prop_map(Element::Nested)
        })
        .boxed()
}

fn fdb_tuple() -> BoxedStrategy<Vec<Element>> {
    prop::collection::vec(fdb_element(), 0..4).boxed()
}

/// Two tuples that often share a prefix.
fn fdb_tuple_pair() -> BoxedStrategy<(Vec<Element>, Vec<Element>)> {
    (fdb_tuple(), fdb_tuple(), fdb_tuple(), 0u8..3)
        .prop_map(|(p, a, b, mode)| match mode {
            0 => (a, b),
            1 => ([p.clone(), a].concat(), [p, b].concat()),
            _ => (p.clone(), [p, a].concat()),
        })
        .boxed()
}

/// Keys that are often valid, or one byte away from valid.
fn fdb_keys() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..24),
        1 => prop::collection::vec(
            prop::sample::select(vec![0u8, 1, 2, 5, 0x0B, 0x0C, 0x13, 0x14, 0x15, 0x1C, 0x1D, 0x20, 0x21, 0x26, 0x30, 0x33, 0xFF, 0xFE, 0x80]),
            0..24,
        ),
        2 => (fdb_tuple(), any::<prop::sample::Index>(), any::<u8>(), 0u8..3).prop_map(|(t, i, b, op)| {
            let mut k = fdb::pack_to_vec(&t);
            if !k.is_empty() {
                let i = i.index(k.len());
                match op {
                    0 => k[i] = b,
                    1 => k.truncate(i),
                    _ => k.insert(i, b),
                }
            }
            k
        }),
    ]
    .boxed()
}

proptest! {
    #![proptest_config(common::config())]

    #[test]
    fn fdb_order((a, b) in fdb_tuple_pair()) {
        let (ka, kb) = (fdb::pack_to_vec(&a), fdb::pack_to_vec(&b));
        prop_assert_eq!(a.cmp(&b), ka.cmp(&kb), "{:?} vs {:?}", a, b);
        prop_assert_eq!(a == b, ka == kb);
    }

    #[test]
    fn fdb_element_order(a in fdb_element(), b in fdb_element()) {
        let (ka, kb) = (fdb::pack_to_vec(std::slice::from_ref(&a)), fdb::pack_to_vec(std::slice::from_ref(&b)));
        prop_assert_eq!(a.cmp(&b), ka.cmp(&kb), "{:?} vs {:?}", a, b);
    }

    #[test]
    fn fdb_round_trip(t in fdb_tuple()) {
        let k = fdb::pack_to_vec(&t);
        let back = fdb::unpack(&k).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &t);
        prop_assert_eq!(fdb::unpack_lenient(&k).unwrap(), t);
    }

    #[test]
    fn fdb_canonical_and_no_panic(k in fdb_keys()) {
        if let Ok(t) = fdb::unpack(&k) {
            prop_assert_eq!(fdb::pack_to_vec(&t), k.clone());
        }
        if let Ok(t) = fdb::unpack_lenient(&k) {
            prop_assert_eq!(fdb::unpack(&fdb::pack_to_vec(&t)).unwrap(), t);
        }
    }

    #[test]
    fn fdb_int_model(a in any::<i128>(), b in any::<i128>()) {
        let (x, y) = (Int::from(a), Int::from(b));
        prop_assert_eq!(x.cmp(&y), a.cmp(&b));
        prop_assert_eq!(x.to_i128(), Some(a));
        prop_assert_eq!(x.to_string(), a.to_string());
        prop_assert_eq!(Int::parse(&a.to_string()).unwrap(), x);
    }

    #[test]
    fn fdb_int_boundaries(a in fdb_ints(), b in fdb_ints()) {
        let (ka, kb) = (
            fdb::pack_to_vec(&[Element::Int(a.clone())]),
            fdb::pack_to_vec(&[Element::Int(b.clone())]),
        );
        prop_assert_eq!(a.cmp(&b), ka.cmp(&kb), "{} vs {}", a, b);
        prop_assert_eq!(Int::parse(&a.to_string()).unwrap(), a.clone());
        // Size class: 8-byte codes hold up to 2^64 - 1 in magnitude.
        let n = a.magnitude().len();
        let code = ka[0];
        match n {
            0 => prop_assert_eq!(code, 0x14),
            1..=8 => prop_assert_eq!(usize::from(code.abs_diff(0x14)), n),
            _ => prop_assert!(code == 0x0B || code == 0x1D),
        }
    }
}

#[test]
fn fdb_element_cmp_is_total_over_floats() {
    // NaN payloads and signs order by bits, as FDB sorts them.
    let vals = [
        f64::from_bits(0xFFFF_FFFF_FFFF_FFFF),
        f64::from_bits(0xFFF8_0000_0000_0000),
        f64::NEG_INFINITY,
        -1.0,
        -0.0,
        0.0,
        1.0,
        f64::INFINITY,
        f64::NAN,
        f64::from_bits(0x7FFF_FFFF_FFFF_FFFF),
    ];
    for w in vals.windows(2) {
        let (a, b) = (Element::Double(w[0]), Element::Double(w[1]));
        assert_eq!(a.cmp(&b), Ordering::Less, "{:?} {:?}", w[0], w[1]);
        assert!(fdb::pack_to_vec(&[a]) < fdb::pack_to_vec(&[b]));
    }
}
