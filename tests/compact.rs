//! The compact ordered integers `vi64` and `vu64` (`lexikey::format::compact`):
//! order, round trip and canonical decode in every format and direction,
//! alone and inside composite keys with every other type; the golden
//! vectors of `fixtures/compact.tsv`, both ways; bad input.

mod common;

use common::*;
use lexikey::format::compact::{decode_vi64, decode_vu64, encode_vi64, encode_vu64};
use lexikey::value::literal::{component_to_string, parse_component};
use lexikey::{tuple, Component, DecodeError, Dir, Field, Format, Type, Value};
use proptest::prelude::*;

fn compact_value(ty: Type) -> BoxedStrategy<Value<'static>> {
    value_of(ty)
}

fn compact_type() -> impl Strategy<Value = Type> {
    prop::sample::select(Type::COMPACT.to_vec())
}

fn enc(format: Format, comps: &[Component<'_>]) -> Vec<u8> {
    tuple::encode(format, comps)
        .expect("supported type")
        .to_vec()
}

fn schema_of(comps: &[Component<'_>]) -> Vec<Field> {
    comps.iter().map(Component::field).collect()
}

/// A schema of 1–4 fields that `format` supports, at least one of them
/// compact, and two rows of it.
fn mixed_rows(
    format: Format,
) -> impl Strategy<Value = (Vec<Component<'static>>, Vec<Component<'static>>)> {
    let field = (every_type(), dirs())
        .prop_filter("format supports type", move |(t, _)| supports(format, *t));
    (
        prop::collection::vec(field, 0..4),
        compact_type(),
        dirs(),
        0usize..4,
    )
        .prop_flat_map(|(mut fields, ty, dir, at)| {
            fields.insert(at.min(fields.len()), (ty, dir));
            let row = fields
                .iter()
                .map(|&(t, dir)| {
                    value_of(t).prop_map(move |value| Component {
                        value,
                        dir,
                        width: None,
                        nulls: None,
                        list: 0,
                    })
                })
                .collect::<Vec<_>>();
            (row.clone(), row)
        })
}

proptest! {
    #![proptest_config(config())]

    /// One compact component: value order ⇔ key order (reversed when
    /// descending), and the key decodes back to the value, in every format.
    #[test]
    fn order_and_round_trip_alone(
        (a, b) in compact_type().prop_flat_map(|t| (compact_value(t), compact_value(t))),
        dir in dirs(),
    ) {
        for format in Format::ALL {
            let ca = Component { value: a.clone(), dir, width: None, nulls: None, list: 0 };
            let cb = Component { value: b.clone(), dir, width: None, nulls: None, list: 0 };
            let (ka, kb) = (enc(format, std::slice::from_ref(&ca)), enc(format, std::slice::from_ref(&cb)));
            prop_assert_eq!(ka.cmp(&kb), ca.key_cmp(&cb), "{} {:?} {:?}", format, a, b);
            prop_assert_eq!(ka == kb, a == b);
            let back = tuple::decode(format, &ka, Some(&[ca.field()])).unwrap();
            prop_assert_eq!(&back, &vec![ca.clone()]);
            if format.is_text() {
                prop_assert!(ka.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'), "{:?}", ka);
            }
        }
    }

    /// Compact components mixed with every other type, in both
    /// directions, in composite keys: tuple order ⇔ key order, and round
    /// trip through the schema.
    #[test]
    fn order_and_round_trip_in_composite_keys(
        (format, (a, b)) in formats().prop_flat_map(|f| (Just(f), mixed_rows(f))),
    ) {
        let (ka, kb) = (enc(format, &a), enc(format, &b));
        prop_assert_eq!(ka.cmp(&kb), tuple_cmp(&a, &b), "{} {:?} {:?}", format, a, b);
        prop_assert_eq!(tuple::decode(format, &ka, Some(&schema_of(&a))).unwrap(), a);
        // A shorter prefix of the row is before the row.
        let ka1 = enc(format, &b[..b.len() - 1]);
        prop_assert!(ka1 < kb);
    }

    /// Canonical decode in binary: any bytes that decode are exactly the
    /// encoding of what they decode to (so no number has two keys), and
    /// whatever is refused is refused with an offset inside the input.
    #[test]
    fn binary_decode_is_canonical(
        bytes in prop::collection::vec(prop_oneof![Just(0u8), Just(0x07), Just(0x08), Just(0x80), Just(0xF7), Just(0xF8), Just(0xFF), any::<u8>()], 0..11),
        desc in any::<bool>(),
    ) {
        match decode_vu64(&bytes, desc) {
            Ok((v, n)) => {
                let (e, m) = encode_vu64(v, desc);
                prop_assert_eq!(&e[..m], &bytes[..n]);
            }
            Err(e) => prop_assert!(e.offset() <= bytes.len()),
        }
        match decode_vi64(&bytes, desc) {
            Ok((v, n)) => {
                let (e, m) = encode_vi64(v, desc);
                prop_assert_eq!(&e[..m], &bytes[..n]);
            }
            Err(e) => prop_assert!(e.offset() <= bytes.len()),
        }
    }

    /// Canonical decode in the text formats: a key with one character
    /// replaced, dropped or added either decodes to a value whose key it
    /// is, or is refused with an offset inside the key.
    #[test]
    fn text_decode_is_canonical(
        value in compact_type().prop_flat_map(compact_value),
        dir in dirs(),
        at in any::<prop::sample::Index>(),
        with in prop::sample::select(b"0189AFGZaz-_kKvV~#".to_vec()),
        how in 0..3u8,
    ) {
        let c = Component { value, dir, width: None, nulls: None, list: 0 };
        for format in [Format::Hex, Format::Base64, Format::Decimal] {
            let mut k = enc(format, std::slice::from_ref(&c));
            let i = at.index(k.len() + 1);
            match how {
                0 if i < k.len() => k[i] = with,
                1 if i < k.len() => { k.remove(i); }
                _ => k.insert(i.min(k.len()), with),
            }
            match tuple::decode(format, &k, Some(&[c.field()])) {
                Ok(back) => prop_assert_eq!(enc(format, &back), k),
                Err(e) => prop_assert!(e.offset() <= k.len(), "{} {:?}: {}", format, k, e),
            }
        }
    }
}

/// `fixtures/compact.tsv`: `FORMAT<TAB>COMPONENT…<TAB>KEY` (binary keys as
/// lowercase hex); every line encodes to its key and its key decodes to
/// its components. `UPDATE_FIXTURES=1` is not supported here on purpose:
/// these vectors were written by hand from the layout tables.
#[test]
fn golden_vectors_both_ways() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/compact.tsv");
    let text = std::fs::read_to_string(path).expect("fixtures/compact.tsv");
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let (format, rest) = cols.split_first().expect("format column");
        let (key, comps) = rest.split_last().expect("key column");
        let format = Format::parse(format).unwrap();
        let comps: Vec<Component<'static>> = comps
            .iter()
            .map(|c| parse_component(c).unwrap_or_else(|e| panic!("line {}: {e}", n + 1)))
            .collect();
        let got = enc(format, &comps);
        let shown = if format.is_text() {
            String::from_utf8(got.clone()).unwrap()
        } else {
            lexikey::to_hex(&got)
        };
        assert_eq!(&shown, key, "line {}: encode", n + 1);
        let back = tuple::decode(format, &got, Some(&schema_of(&comps))).unwrap();
        assert_eq!(back, comps, "line {}: decode", n + 1);
        for (c, text) in back.iter().zip(&cols[1..]) {
            assert_eq!(&component_to_string(c), text, "line {}", n + 1);
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} vectors");
}

/// Bad input: a truncated varint, a longer-than-needed one, a number out
/// of range, a wrong tag: each a clear error at the right offset.
#[test]
fn bad_input_errors_with_offsets() {
    let f = |ty, dir| Field {
        ty,
        dir,
        width: None,
        nulls: None,
        list: 0,
    };
    let vi = f(Type::Vi64, Dir::Asc);
    let vu = f(Type::Vu64, Dir::Asc);
    let bin = |field, k: &[u8]| tuple::decode(Format::Binary, k, Some(&[field])).unwrap_err();
    // Truncated: the first byte says 2 more bytes follow, 1 does.
    assert!(matches!(
        bin(vu, &[0xF9, 0x03]),
        DecodeError::Truncated { offset: 2, .. }
    ));
    assert!(matches!(
        bin(vi, &[0x06, 0xFF]),
        DecodeError::Truncated { offset: 2, .. }
    ));
    assert!(matches!(
        bin(vi, &[]),
        DecodeError::MissingComponent { .. } | DecodeError::Truncated { offset: 0, .. }
    ));
    // Not the shortest: 5 in two bytes, 120 in three, -121 in three.
    assert!(matches!(
        bin(vu, &[0xF8, 0x05]),
        DecodeError::NonCanonical { offset: 0, .. }
    ));
    assert!(matches!(
        bin(vi, &[0xF9, 0x00, 0x78]),
        DecodeError::NonCanonical { offset: 0, .. }
    ));
    assert!(matches!(
        bin(vi, &[0x06, 0xFF, 0x87]),
        DecodeError::NonCanonical { offset: 0, .. }
    ));
    // A second component after a non-minimal one: the offset is in the key.
    let two = [Field::asc(Type::Bool), vu];
    let e = tuple::decode(Format::Binary, &[0x01, 0xF9, 0x00, 0x05], Some(&two)).unwrap_err();
    assert!(
        matches!(e, DecodeError::NonCanonical { offset: 1, .. }),
        "{e}"
    );
    // Out of range: 2^63 as a vi64.
    assert!(matches!(
        bin(vi, &[0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        DecodeError::OutOfRange { offset: 0, .. }
    ));
    // Trailing byte after a whole one-byte value.
    assert!(matches!(
        bin(vu, &[0x05, 0x00]),
        DecodeError::TrailingBytes { offset: 1 }
    ));
    // Text: truncated hex body, wrong tag, non-canonical hex body.
    let hex = |field, k: &[u8]| tuple::decode(Format::Hex, k, Some(&[field])).unwrap_err();
    assert!(matches!(
        hex(vu, b"vF903"),
        DecodeError::Truncated { offset: 5, .. }
    ));
    assert!(matches!(
        hex(vu, b"k05"),
        DecodeError::UnexpectedTag { offset: 0, .. }
    ));
    assert!(matches!(
        hex(vu, b"vF805"),
        DecodeError::NonCanonical { offset: 1, .. }
    ));
    assert!(matches!(
        hex(vu, b"v0500"),
        DecodeError::TrailingBytes { offset: 3 }
    ));
    // Decimal: leading zero, too few digits, a digit where a letter goes.
    let dec = |field, k: &[u8]| tuple::decode(Format::Decimal, k, Some(&[field])).unwrap_err();
    assert!(matches!(
        dec(vu, b"b05"),
        DecodeError::NonCanonical { offset: 1, .. }
    ));
    assert!(matches!(
        dec(vu, b"c42"),
        DecodeError::Truncated { offset: 3, .. }
    ));
    assert!(matches!(
        dec(vi, b"5"),
        DecodeError::InvalidSymbol { offset: 0, .. }
    ));
    assert!(matches!(
        dec(vu, b"S8"),
        DecodeError::InvalidSymbol { offset: 0, .. }
    ));
    assert!(matches!(
        dec(vi, b"S9"),
        DecodeError::NonCanonical { offset: 1, .. }
    ));
    // Every error above says where, in one line.
    assert!(!hex(vu, b"vF903").to_string().contains('\n'));
}

/// Compact keys are never longer than the fixed ones, and 1 byte in
/// binary (3 characters in hex) for the one-byte ranges.
#[test]
fn key_sizes() {
    for (v, bin) in [
        (0i64, 1),
        (-120, 1),
        (119, 1),
        (120, 2),
        (1000, 3),
        (i64::MAX, 9),
        (i64::MIN, 9),
    ] {
        assert_eq!(
            enc(Format::Binary, &[Component::asc(Value::Vi64(v))]).len(),
            bin,
            "{v}"
        );
        assert_eq!(
            enc(Format::Hex, &[Component::asc(Value::Vi64(v))]).len(),
            1 + 2 * bin,
            "{v}"
        );
    }
}
