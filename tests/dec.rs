//! `dec` (arbitrary-precision decimals) against an exact oracle: the
//! `bigdecimal` crate decides every comparison, equality and conversion.
//! Order, round trip and canonical decode in every format are also covered
//! by tests/props.rs (`dec` is one of the value types there).

mod common;

use std::cmp::Ordering;
use std::str::FromStr;

use bigdecimal::num_bigint::BigInt;
use bigdecimal::BigDecimal;
use common::{config, dec_texts, f64s};
use lexikey::value::big_decimal::Dec;
use lexikey::{tuple, Component, DecodeError, Dir, Field, Format, Type, Value};
use proptest::prelude::*;

fn oracle(text: &str) -> BigDecimal {
    BigDecimal::from_str(text).expect("the oracle parses generated decimals")
}

fn elen(d: &Dec, dir: Dir) -> Vec<u8> {
    let mut out = Vec::new();
    d.write_elen(dir.is_desc(), &mut out);
    out
}

fn bin(d: &Dec, dir: Dir) -> Vec<u8> {
    let mut out = Vec::new();
    d.write_binary(dir.is_desc(), &mut out);
    out
}

fn key(f: Format, d: &Dec, dir: Dir) -> Vec<u8> {
    let c = Component {
        value: Value::Dec(d.clone()),
        dir,
        width: None,
        nulls: None,
        list: 0,
    };
    tuple::encode(f, &[c])
        .expect("dec encodes in every format")
        .into_vec()
}

proptest! {
    #![proptest_config(config())]

    /// Numeric order (decided by the oracle) == `Dec` order == key order, in
    /// ELEN, binary, hex and base64, ascending and (reversed) descending.
    #[test]
    fn order_matches_the_oracle(a in dec_texts(), b in dec_texts()) {
        let (da, db) = (Dec::parse(&a).unwrap(), Dec::parse(&b).unwrap());
        let want = oracle(&a).cmp(&oracle(&b));
        prop_assert_eq!(da.cmp(&db), want, "{} vs {}", a, b);
        prop_assert_eq!(da == db, want == Ordering::Equal);
        for dir in [Dir::Asc, Dir::Desc] {
            let w = dir.apply(want);
            prop_assert_eq!(elen(&da, dir).cmp(&elen(&db, dir)), w, "elen {} vs {}", a, b);
            prop_assert_eq!(bin(&da, dir).cmp(&bin(&db, dir)), w, "binary {} vs {}", a, b);
            for f in Format::ALL {
                prop_assert_eq!(key(f, &da, dir).cmp(&key(f, &db, dir)), w, "{} {} vs {}", f, a, b);
            }
        }
    }

    /// Round trip through every encoding and through the text form; decoders
    /// use exactly the bytes written.
    #[test]
    fn round_trip(a in dec_texts(), dir in prop::sample::select(vec![Dir::Asc, Dir::Desc])) {
        let d = Dec::parse(&a).unwrap();
        prop_assert_eq!(oracle(&d.to_string()), oracle(&a));
        prop_assert_eq!(Dec::parse(&d.to_string()).unwrap(), d.clone());
        prop_assert_eq!(Dec::read_elen(&elen(&d, dir), dir.is_desc()).unwrap(), d.clone());
        let b = bin(&d, dir);
        prop_assert_eq!(b.len(), d.binary_len());
        let mut tail = b.clone();
        tail.extend_from_slice(&[0x00, 0xFF, 0x42]);
        prop_assert_eq!(Dec::read_binary(&tail, dir.is_desc()).unwrap(), (d.clone(), b.len()));
        for f in Format::ALL {
            let k = key(f, &d, dir);
            let schema = [Field { ty: Type::Dec, dir, width: None, nulls: None, list: 0 }];
            let back = tuple::decode(f, &k, Some(&schema)).unwrap();
            prop_assert_eq!(&back[0].value, &Value::Dec(d.clone()));
        }
    }

    /// Every spelling of one number is one value with one key: leading and
    /// trailing zeros, `+`, exponent shifts, `-0`.
    #[test]
    fn spellings_of_one_number_share_one_key(
        neg in any::<bool>(),
        int in "[0-9]{1,12}",
        frac in "[0-9]{0,12}",
        shift in -30i32..30,
        pad in 0usize..4,
    ) {
        let sign = if neg { "-" } else { "" };
        let plain = format!("{sign}{int}.{frac}");
        let zeros = "0".repeat(pad);
        // The same number as X e`shift`, X = the number / 10^shift (the
        // point moved left by `shift`).
        let digits = format!("{int}{frac}");
        let point = int.len() as i32 - shift;
        let moved = if point <= 0 {
            format!("{sign}0.{}{digits}e{shift}", "0".repeat((-point) as usize))
        } else if point as usize >= digits.len() {
            format!("{sign}{digits}{}e{shift}", "0".repeat(point as usize - digits.len()))
        } else {
            format!("{sign}{}.{}e{shift}", &digits[..point as usize], &digits[point as usize..])
        };
        let spellings = [
            plain.clone(),
            format!("{sign}{zeros}{int}.{frac}{zeros}"),
            format!("{}{int}.{frac}", if neg { "-" } else { "+" }),
            moved,
        ];
        let want = Dec::parse(&plain).unwrap();
        for s in &spellings {
            let d = Dec::parse(s).unwrap();
            prop_assert_eq!(oracle(s), oracle(&plain), "oracle disagrees on {}", s);
            prop_assert_eq!(&d, &want, "{} vs {}", s, plain);
            for f in Format::ALL {
                prop_assert_eq!(key(f, &d, Dir::Asc), key(f, &want, Dir::Asc));
            }
        }
        // The text form drops what the number does not need.
        let t = want.to_string();
        prop_assert!(!(t.contains('.') && t.ends_with('0')), "{}", t);
        prop_assert!(t != "-0");
    }

    /// A scaled integer straight to its key (`Format::encode_scaled_dec`,
    /// `Dec::put_scaled_binary`, the Arrow decimals' path) is the key of
    /// `Dec::from_scaled` of its digits, in every format that has it, both
    /// directions: every `u128` (the extremes, the 39-digit ones, trailing
    /// zeros, zero and a "negative zero"), every `i8` scale. The value is
    /// the oracle's `magnitude × 10^-scale`.
    #[test]
    fn scaled_integers_write_the_keys_of_their_decs(
        neg in any::<bool>(),
        magnitude in prop_oneof![
            3 => any::<u64>().prop_map(u128::from),
            3 => any::<u128>(),
            2 => (any::<u64>(), 0u32..20).prop_map(|(m, z)| u128::from(m % 100_000) * 10u128.pow(z)),
            1 => prop::sample::select(vec![
                0, 1, 9, 10, 99, 100, u128::from(u64::MAX), u128::from(u64::MAX) + 1,
                10u128.pow(38) - 1, 10u128.pow(38), i128::MAX as u128, i128::MIN.unsigned_abs(),
                u128::MAX, u128::MAX - 1,
            ]),
        ],
        scale in any::<i8>(),
        dir in prop::sample::select(vec![Dir::Asc, Dir::Desc]),
    ) {
        let digits = magnitude.to_string();
        let d = Dec::from_scaled(neg, digits.as_bytes(), scale.into()).expect("always in range");
        let sign = if neg && magnitude != 0 { "-" } else { "" };
        prop_assert_eq!(
            oracle(&d.to_string()),
            oracle(&format!("{sign}{digits}E{}", -i32::from(scale)))
        );
        let mut buf = [0u8; Dec::SCALED_BINARY_MAX];
        let n = Dec::put_scaled_binary(neg, magnitude, scale, dir.is_desc(), &mut buf);
        prop_assert_eq!(&buf[..n], &bin(&d, dir)[..]);
        for f in [Format::Hex, Format::Base64, Format::Binary] {
            let mut out = b"prefix".to_vec();
            prop_assert!(f.encode_scaled_dec(neg, magnitude, scale, dir, &mut out));
            prop_assert_eq!(&out[..6], b"prefix");
            prop_assert_eq!(&out[6..], &key(f, &d, dir)[..], "{:?}", f);
        }
        let mut out = Vec::new();
        prop_assert!(!Format::Decimal.encode_scaled_dec(neg, magnitude, scale, dir, &mut out));
        prop_assert!(out.is_empty());
    }

    /// Integers convert exactly.
    #[test]
    fn integers_are_exact(v in any::<i64>(), u in any::<u64>(), w in any::<i128>()) {
        prop_assert_eq!(oracle(&Dec::from(v).to_string()), BigDecimal::from(v));
        prop_assert_eq!(oracle(&Dec::from(u).to_string()), BigDecimal::from(u));
        prop_assert_eq!(oracle(&Dec::from(w).to_string()), BigDecimal::from(BigInt::from(w)));
    }

    /// Every finite f64 converts to its exact value (the oracle computes
    /// mantissa × 2^exponent with big integers), which parses back to the
    /// same f64.
    #[test]
    fn floats_are_exact(v in f64s()) {
        let d = Dec::from_f64_exact(v);
        if !v.is_finite() {
            prop_assert!(d.is_err());
            return Ok(());
        }
        let d = d.unwrap();
        let bits = v.to_bits();
        let biased = ((bits >> 52) & 0x7FF) as i64;
        let frac = bits & ((1 << 52) - 1);
        let (mant, e2) = if biased == 0 { (frac, -1074) } else { (frac | (1 << 52), biased - 1075) };
        let mut m = BigInt::from(mant);
        if bits >> 63 == 1 {
            m = -m;
        }
        let want = if e2 >= 0 {
            BigDecimal::from(m << (e2 as usize))
        } else {
            let k = (-e2) as u32;
            BigDecimal::new(m * BigInt::from(5).pow(k), i64::from(k))
        };
        prop_assert_eq!(oracle(&d.to_string()), want);
        prop_assert_eq!(d.to_string().parse::<f64>().unwrap(), if v == 0.0 { 0.0 } else { v });
    }

    /// Arbitrary input: an error or a value whose key is exactly the input.
    #[test]
    fn arbitrary_keys_decode_canonically(
        text in prop::collection::vec(prop::sample::select(b"-=0123456789#x".to_vec()), 0..24),
        raw in prop::collection::vec(any::<u8>(), 0..24),
        desc in any::<bool>(),
    ) {
        if let Ok(d) = Dec::read_elen(&text, desc) {
            let mut again = Vec::new();
            d.write_elen(desc, &mut again);
            prop_assert_eq!(again, text);
        }
        if let Ok((d, used)) = Dec::read_binary(&raw, desc) {
            let mut again = Vec::new();
            d.write_binary(desc, &mut again);
            prop_assert_eq!(&again[..], &raw[..used]);
        }
    }
}

/// Keys of mutated valid keys: rejected with an offset inside the input,
/// or decoded canonically.
#[test]
fn decode_errors_point_into_the_input() {
    fn elen_err(k: &str) -> DecodeError {
        Dec::read_elen(k.as_bytes(), false).expect_err(k)
    }
    fn bin_err(k: &[u8]) -> DecodeError {
        Dec::read_binary(k, false).expect_err("malformed")
    }
    assert!(matches!(
        elen_err(""),
        DecodeError::Truncated { offset: 0, .. }
    ));
    assert!(matches!(
        elen_err("=1"),
        DecodeError::Truncated { offset: 2, .. }
    ));
    assert!(matches!(
        elen_err("==2105"),
        DecodeError::Truncated { offset: 6, .. }
    ));
    assert!(matches!(
        elen_err("=1-x"),
        DecodeError::TrailingBytes { offset: 3 }
    ));
    assert!(matches!(
        elen_err("00"),
        DecodeError::TrailingBytes { offset: 1 }
    ));
    assert!(matches!(
        elen_err("x"),
        DecodeError::InvalidSymbol { offset: 0, .. }
    ));
    assert!(matches!(
        elen_err("=a-"),
        DecodeError::InvalidSymbol { offset: 1, .. }
    ));
    assert!(matches!(
        elen_err("==2x0-"),
        DecodeError::InvalidSymbol { offset: 3, .. }
    ));
    // Claimed lengths beyond the input are truncation, never an allocation.
    assert!(matches!(
        elen_err("==9123-"),
        DecodeError::Truncated { offset: 7, .. }
    ));
    assert!(matches!(
        elen_err("====9999999999"),
        DecodeError::NonCanonical { offset: 13, .. }
    ));
    // Non-canonical: trailing fraction zero, a one-digit number written with
    // a length, a leading zero, zero written as a positive.
    assert!(matches!(
        elen_err("=10-"),
        DecodeError::NonCanonical { offset: 2, .. }
    ));
    assert!(matches!(
        elen_err("==15-"),
        DecodeError::NonCanonical { offset: 1, .. }
    ));
    assert!(matches!(
        elen_err("==205-"),
        DecodeError::NonCanonical { .. }
    ));
    assert!(matches!(
        elen_err("=0-"),
        DecodeError::NonCanonical { offset: 0, .. }
    ));
    assert!(matches!(elen_err("-9="), DecodeError::NonCanonical { .. }));

    assert!(matches!(
        bin_err(&[]),
        DecodeError::Truncated { offset: 0, .. }
    ));
    assert!(matches!(
        bin_err(&[0x04]),
        DecodeError::InvalidSymbol { offset: 0, .. }
    ));
    assert!(matches!(
        bin_err(&[0x03, 0x80]),
        DecodeError::Truncated { offset: 2, .. }
    ));
    assert!(matches!(
        bin_err(&[0x03, 0x80, 0x01, 0x15]),
        DecodeError::Truncated { offset: 4, .. }
    ));
    assert!(matches!(
        bin_err(&[0x03, 0x80, 0x01, 0xC9]),
        DecodeError::InvalidSymbol { offset: 3, .. }
    ));
    assert!(matches!(
        bin_err(&[0x03, 0x80, 0x01, 0x02]),
        DecodeError::NonCanonical { offset: 3, .. }
    ));
    assert!(matches!(
        bin_err(&[0x03, 0x80, 0x01, 0x15, 0x00]),
        DecodeError::NonCanonical { offset: 4, .. }
    ));
    assert!(matches!(
        bin_err(&[0x03, 0x00, 0x00, 0x14]),
        DecodeError::NonCanonical { offset: 1, .. }
    ));

    // Inside tuples, offsets index the whole key.
    let schema = [Field::asc(Type::Str), Field::asc(Type::Dec)];
    let e = tuple::decode(Format::Decimal, b"price#=10-", Some(&schema)).unwrap_err();
    assert_eq!(e.offset(), 8, "{e}");
    let e = tuple::decode(Format::Hex, b"price#n0380011F", Some(&schema)).unwrap_err();
    assert!(
        matches!(e, DecodeError::Truncated { offset: 15, .. }),
        "{e}"
    );
    let e = tuple::decode(Format::Hex, b"price#n03800114FF", Some(&schema)).unwrap_err();
    assert!(matches!(e, DecodeError::TrailingBytes { .. }), "{e}");
}

#[test]
fn parse_errors_are_clear() {
    for bad in [
        "", "-", "+", ".", "1.2.3", "1e", "1e+", "NaN", "inf", " 1", "1 ", "1_000", "1,5", "0x10",
        "--1", "1e99999", "1e-99999", "1e32768",
    ] {
        let e = Dec::parse(bad).expect_err(bad).to_string();
        assert!(e.contains("dec") || e.contains("decimal"), "{bad}: {e}");
    }
    let many = "9".repeat(Dec::MAX_DIGITS + 1);
    assert!(Dec::parse(&many).is_err());
    assert!(Dec::parse(&"9".repeat(Dec::MAX_DIGITS)).is_ok());
    // Zeros count against the exponent, not the digits: they are not significant.
    assert!(Dec::parse(&format!("1{}", "0".repeat(40_000))).is_err());
    assert_eq!(
        Dec::parse(&format!("0.{}1", "0".repeat(30_000)))
            .unwrap()
            .parts()
            .1,
        -30_000
    );
    assert!(Dec::from_f64_exact(f64::NAN).is_err());
    assert!(Dec::from_f64_exact(f64::INFINITY).is_err());
    assert_eq!(Dec::from_f64_exact(-0.0).unwrap(), Dec::zero());
}

#[test]
fn limits_round_trip_at_the_edges() {
    for text in [
        format!("9{}", "9".repeat(Dec::MAX_DIGITS - 1)),
        format!("0.{}1", "0".repeat(Dec::MAX_EXP as usize)),
        format!("-1e{}", Dec::MAX_EXP - 1),
    ] {
        let d = Dec::parse(&text).unwrap();
        for dir in [Dir::Asc, Dir::Desc] {
            assert_eq!(Dec::read_elen(&elen(&d, dir), dir.is_desc()).unwrap(), d);
            let b = bin(&d, dir);
            assert_eq!(
                Dec::read_binary(&b, dir.is_desc()).unwrap(),
                (d.clone(), b.len())
            );
        }
    }
}
