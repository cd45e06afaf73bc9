//! Time-ordered IDs: ULID text round trips and canonical decoding (against
//! a slow reference decoder), ID order = (ms, random) order = text order =
//! key order, monotonic generators (scripted clocks, overflow), UUIDv7
//! layout and order.

mod common;

use lexikey::kinds::timeid::{
    is_uuid7, uuid7, uuid7_parts, uuid7_timestamp, SplitMix64, TimeIdError, Ulid, UlidGenerator,
    Uuid7Generator, MAX_MS,
};
use lexikey::{tuple, Component, DecodeError, Dir, Field, Format, Type, Value};
use proptest::prelude::*;

const ALPHABET: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The obviously correct twin of the decoders: one symbol at a time by
/// `str::find`, the value as a sum of `symbol * 32^k` checked against 2^128.
fn reference_decode(s: &[u8], lenient: bool) -> Result<u128, usize> {
    let mut digits = Vec::new();
    for (i, &b) in s.iter().take(26).enumerate() {
        let mut c = b as char;
        if lenient {
            c = c.to_ascii_uppercase();
            c = match c {
                'I' | 'L' => '1',
                'O' => '0',
                c => c,
            };
        }
        let d = if c.is_ascii() { ALPHABET.find(c) } else { None };
        match d {
            Some(d) if i > 0 || d <= 7 => digits.push(d as u128),
            _ => return Err(i),
        }
    }
    if s.len() != 26 {
        return Err(s.len().min(26));
    }
    // Checked arithmetic: a first symbol <= 7 keeps 26 symbols below 2^128.
    let v = digits
        .into_iter()
        .try_fold(0u128, |acc, d| acc.checked_mul(32)?.checked_add(d));
    Ok(v.expect("no overflow"))
}

fn key(format: Format, c: Component<'_>) -> Vec<u8> {
    tuple::encode(format, &[c])
        .expect("uuid components encode in every format")
        .into_vec()
}

fn ulid_texts() -> impl Strategy<Value = String> {
    // Canonical texts, near-canonical ones (case, I/L/O, U, '8'+), wrong lengths.
    let sym = prop::sample::select(
        "0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyzIiLlOoUu8Z#-\u{e9}"
            .chars()
            .collect::<Vec<_>>(),
    );
    prop_oneof![
        4 => common::uuids().prop_map(|u| Ulid(u).encode()),
        3 => (common::uuids(), 0usize..26, sym.clone()).prop_map(|(u, i, c)| {
            let mut s: Vec<char> = Ulid(u).encode().chars().collect();
            s[i] = c;
            s.into_iter().collect()
        }),
        2 => common::uuids().prop_map(|u| Ulid(u).encode().to_lowercase()),
        2 => prop::collection::vec(sym, 24..29).prop_map(|v| v.into_iter().collect()),
    ]
}

proptest! {
    #![proptest_config(common::config())]

    #[test]
    fn ulid_round_trip(u in common::uuids()) {
        let id = Ulid(u);
        let s = id.encode();
        prop_assert_eq!(s.len(), 26);
        prop_assert!(s.as_bytes()[0] <= b'7');
        prop_assert_eq!(&id.to_string(), &s);
        prop_assert_eq!(Ulid::parse_strict(&s), Ok(id));
        prop_assert_eq!(Ulid::parse(&s), Ok(id));
        prop_assert_eq!(Ulid::parse(&s.to_lowercase()), Ok(id));
        prop_assert_eq!(s.parse::<Ulid>(), Ok(id));
        prop_assert_eq!(Ulid::from_parts(id.timestamp_ms(), id.random()), Ok(id));
        prop_assert_eq!(reference_decode(s.as_bytes(), false), Ok(u));
    }

    /// Strict decoding accepts only what `encode` writes; both decoders
    /// agree with the reference, error offsets included.
    #[test]
    fn ulid_canonical_decode(s in ulid_texts()) {
        let strict = Ulid::parse_strict(&s);
        match (&strict, reference_decode(s.as_bytes(), false)) {
            (Ok(id), Ok(v)) => {
                prop_assert_eq!(id.0, v);
                prop_assert_eq!(&id.encode(), &s, "strict decode is canonical");
            }
            (Err(e), Err(offset)) => prop_assert_eq!(e.offset(), offset, "{}", e),
            (a, b) => prop_assert!(false, "{:?}: strict {:?}, reference {:?}", s, a, b),
        }
        match (Ulid::parse(&s), reference_decode(s.as_bytes(), true)) {
            (Ok(id), Ok(v)) => {
                prop_assert_eq!(id.0, v);
                prop_assert_eq!(id.encode(), s.to_uppercase().replace(['I', 'L'], "1").replace('O', "0"));
            }
            (Err(e), Err(offset)) => prop_assert_eq!(e.offset(), offset, "{}", e),
            (a, b) => prop_assert!(false, "{:?}: lenient {:?}, reference {:?}", s, a, b),
        }
        if let Ok(id) = strict {
            prop_assert_eq!(Ulid::parse(&s), Ok(id));
        }
    }

    /// ID order = (ms, random) order = text order = key order (every
    /// format, both directions).
    #[test]
    fn ulid_order(
        ma in prop_oneof![Just(0i64), Just(MAX_MS), 0..=MAX_MS, 1_700_000_000_000i64..1_700_000_000_004],
        mb in prop_oneof![Just(0i64), Just(MAX_MS), 0..=MAX_MS, 1_700_000_000_000i64..1_700_000_000_004],
        ra in prop_oneof![Just(0u128), Just(Ulid::MAX_RANDOM), 0..=Ulid::MAX_RANDOM, 0u128..4],
        rb in prop_oneof![Just(0u128), Just(Ulid::MAX_RANDOM), 0..=Ulid::MAX_RANDOM, 0u128..4],
        format in common::formats(),
    ) {
        let a = Ulid::from_parts(ma, ra).unwrap();
        let b = Ulid::from_parts(mb, rb).unwrap();
        let expected = (ma, ra).cmp(&(mb, rb));
        prop_assert_eq!(a.cmp(&b), expected);
        prop_assert_eq!(a.encode().cmp(&b.encode()), expected);
        prop_assert_eq!(key(format, a.component()).cmp(&key(format, b.component())), expected);
        prop_assert_eq!(key(format, Component::desc(a)).cmp(&key(format, Component::desc(b))), expected.reverse());
        // The text as a string component sorts the same way.
        prop_assert_eq!(
            key(format, Component::asc(a.encode())).cmp(&key(format, Component::asc(b.encode()))),
            expected
        );
        // And decodes back.
        let k = key(format, a.component());
        let back = tuple::decode(format, &k, Some(&[Field::asc(Type::Uuid)])).unwrap();
        prop_assert_eq!(Ulid::from_value(&back[0].value), Some(a));
    }

    /// A scripted clock (repeats, steps forward and back): IDs strictly
    /// increase and carry the latest time seen.
    #[test]
    fn ulid_generator_monotonic(
        start in prop_oneof![Just(0i64), 0..MAX_MS - 1000, Just(MAX_MS - 1000)],
        steps in prop::collection::vec(-3i64..4, 1..40),
        seed: u64,
    ) {
        let times = clock_script(start, &steps);
        let mut t = times.clone().into_iter();
        let mut g = UlidGenerator::with_sources(move || t.next().unwrap(), SplitMix64::new(seed));
        let mut prev: Option<Ulid> = None;
        let mut latest = i64::MIN;
        for &now in &times {
            latest = latest.max(now);
            let id = g.generate().unwrap();
            prop_assert_eq!(id.timestamp_ms(), latest);
            if let Some(p) = prev {
                prop_assert!(id > p);
                prop_assert!(id.encode() > p.encode());
                if now <= p.timestamp_ms() {
                    prop_assert_eq!(id.0, p.0 + 1, "same millisecond: random part + 1");
                }
            }
            prop_assert_eq!(g.last(), Some(id));
            prev = Some(id);
        }
    }

    #[test]
    fn uuid7_layout_and_order(
        ma in prop_oneof![Just(0i64), Just(MAX_MS), 0..=MAX_MS, 1_700_000_000_000i64..1_700_000_000_004],
        mb in prop_oneof![Just(0i64), Just(MAX_MS), 0..=MAX_MS, 1_700_000_000_000i64..1_700_000_000_004],
        aa in prop_oneof![Just(0u16), Just(0xFFF), 0u16..=0xFFF],
        ab in prop_oneof![Just(0u16), Just(0xFFF), 0u16..=0xFFF],
        ba in prop_oneof![Just(0u64), Just((1 << 62) - 1), 0u64..1 << 62],
        bb in prop_oneof![Just(0u64), Just((1 << 62) - 1), 0u64..1 << 62],
        format in common::formats(),
    ) {
        let a = uuid7(ma, aa, ba).unwrap();
        let b = uuid7(mb, ab, bb).unwrap();
        prop_assert!(is_uuid7(a));
        prop_assert_eq!(uuid7_parts(a), Some((ma, aa, ba)));
        prop_assert_eq!(uuid7_timestamp(a), Some(ma));
        prop_assert_eq!(a >> 76 & 0xF, 7);
        prop_assert_eq!(a >> 62 & 3, 2);
        let expected = (ma, aa, ba).cmp(&(mb, ab, bb));
        prop_assert_eq!(a.cmp(&b), expected);
        if ma != mb {
            prop_assert_eq!(a.cmp(&b), ma.cmp(&mb), "timestamp first");
        }
        prop_assert_eq!(
            key(format, Component::asc(Value::Uuid(a))).cmp(&key(format, Component::asc(Value::Uuid(b)))),
            expected
        );
        prop_assert_eq!(
            key(format, Component::desc(Value::Uuid(a))).cmp(&key(format, Component::desc(Value::Uuid(b)))),
            expected.reverse()
        );
    }

    /// `uuid7_timestamp` is `Some` exactly for version 7, variant `10`.
    #[test]
    fn uuid7_recognition(u in common::uuids(), version in 0u128..16, variant in 0u128..4) {
        let u = u & !(0xF << 76) & !(3 << 62) | version << 76 | variant << 62;
        let is7 = version == 7 && variant == 2;
        prop_assert_eq!(is_uuid7(u), is7);
        prop_assert_eq!(uuid7_timestamp(u), is7.then_some((u >> 80) as i64));
        prop_assert_eq!(uuid7_parts(u).is_some(), is7);
        if let Some((ms, a, b)) = uuid7_parts(u) {
            prop_assert_eq!(uuid7(ms, a, b), Ok(u));
        }
    }

    #[test]
    fn uuid7_generator_monotonic(
        start in prop_oneof![Just(0i64), 0..MAX_MS - 1000, Just(MAX_MS - 1000)],
        steps in prop::collection::vec(-3i64..4, 1..40),
        seed: u64,
    ) {
        let times = clock_script(start, &steps);
        let mut t = times.clone().into_iter();
        let mut g = Uuid7Generator::with_sources(move || t.next().unwrap(), SplitMix64::new(seed));
        let mut prev: Option<u128> = None;
        let mut latest = i64::MIN;
        for &now in &times {
            latest = latest.max(now);
            let id = g.generate().unwrap();
            let (ms, rand_a, rand_b) = uuid7_parts(id).unwrap();
            prop_assert_eq!(ms, latest);
            let counter = u64::from(rand_a) << 30 | rand_b >> 32;
            if let Some(p) = prev {
                prop_assert!(id > p);
                let (pms, pa, pb) = uuid7_parts(p).unwrap();
                let pcounter = u64::from(pa) << 30 | pb >> 32;
                if pms == ms {
                    prop_assert_eq!(counter, pcounter + 1, "method 1: the counter counts");
                } else {
                    prop_assert!(counter < 1 << 41, "a new millisecond seeds the counter with its top bit clear");
                }
            }
            prev = Some(id);
        }
    }
}

/// Clock readings: `start`, then each step added (clamped to the range).
fn clock_script(start: i64, steps: &[i64]) -> Vec<i64> {
    let mut t = start;
    let mut v = vec![t];
    for s in steps {
        t = (t + s).clamp(0, MAX_MS);
        v.push(t);
    }
    v
}

#[test]
fn ulid_spec_example() {
    let id = Ulid::parse_strict("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
    assert_eq!(id.timestamp_ms(), 1_469_922_850_259);
    assert_eq!(id.0, 0x0156_3E3A_B5D3_D676_4C61_EFB9_9302_BD5B);
    assert_eq!(Ulid::MAX.encode(), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    assert_eq!(Ulid::NIL.encode(), "00000000000000000000000000");
}

/// ulid-rs accepts `8`–`Z` as the first symbol and drops the top bits, so
/// `ZZZ…Z` and `7ZZ…Z` are one ID there; here only the latter parses.
#[test]
fn ulid_first_symbol_overflow() {
    for first in "89ABCDEFGHJKMNPQRSTVWXYZ".chars() {
        let s = format!("{first}ZZZZZZZZZZZZZZZZZZZZZZZZZ");
        let e = Ulid::parse(&s).unwrap_err();
        assert_eq!(
            e,
            DecodeError::InvalidSymbol {
                offset: 0,
                found: first as u8,
                expected: "a first symbol 0-7 (a larger one overflows 128 bits)"
            }
        );
        assert_eq!(
            e.to_string(),
            format!(
                "invalid byte '{first}' (0x{:02X}) at byte 0: expected a first symbol 0-7 (a larger one overflows 128 bits)",
                first as u32
            )
        );
        assert_eq!(Ulid::parse_strict(&s).unwrap_err().offset(), 0);
    }
    assert_eq!(Ulid::parse("7ZZZZZZZZZZZZZZZZZZZZZZZZZ"), Ok(Ulid::MAX));
    assert_eq!(Ulid::parse("7zzzzzzzzzzzzzzzzzzzzzzzzz"), Ok(Ulid::MAX));
}

/// Every byte at every position, against the reference (rebuilds both
/// lookup tables).
#[test]
fn ulid_every_byte_at_every_position() {
    let base = *b"01ARZ3NDEKTSV4RRFFQ69G5FAV";
    for pos in 0..26 {
        for b in 0..=255u8 {
            let mut s = base;
            s[pos] = b;
            let strict = Ulid::decode(&s).map(|u| u.0).map_err(|e| e.offset());
            assert_eq!(strict, reference_decode(&s, false), "strict {s:?}");
            if let Ok(text) = std::str::from_utf8(&s) {
                let lenient = Ulid::parse(text).map(|u| u.0).map_err(|e| e.offset());
                assert_eq!(lenient, reference_decode(&s, true), "lenient {s:?}");
            }
        }
    }
}

#[test]
fn ulid_length_errors() {
    let s = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    assert_eq!(
        Ulid::parse(&s[..25]),
        Err(DecodeError::Truncated {
            offset: 25,
            expected: "26 Crockford base32 symbols"
        })
    );
    assert_eq!(
        Ulid::parse_strict(""),
        Err(DecodeError::Truncated {
            offset: 0,
            expected: "26 Crockford base32 symbols"
        })
    );
    assert_eq!(
        Ulid::parse(&format!("{s}0")),
        Err(DecodeError::TrailingBytes { offset: 26 })
    );
    // A bad symbol before the end is reported first, at its own offset.
    assert_eq!(Ulid::parse("01ARZ3U").unwrap_err().offset(), 6);
    assert_eq!(
        Ulid::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV-")
            .unwrap_err()
            .to_string(),
        "trailing bytes at byte 26"
    );
    assert_eq!(
        Ulid::parse("01ARZ3NDEKTSV4RRFFQ69G5FA")
            .unwrap_err()
            .to_string(),
        "unexpected end of input at byte 25: expected 26 Crockford base32 symbols"
    );
    assert_eq!(
        Ulid::parse("01ARZ3NDEKTSV4RRFFQ69G5FAU").unwrap_err().to_string(),
        "invalid byte 'U' (0x55) at byte 25: expected a Crockford base32 symbol (0-9, A-Z without U, either case)"
    );
    // Non-ASCII: the offset of the first byte of the character.
    assert_eq!(
        Ulid::parse("01ARZ3NDEKTSV4RRFFQ69G5Fé")
            .unwrap_err()
            .offset(),
        24
    );
}

#[test]
fn ulid_from_parts_checks_ranges() {
    assert_eq!(
        Ulid::from_parts(-1, 0),
        Err(TimeIdError::TimestampOutOfRange { ms: -1 })
    );
    assert_eq!(
        Ulid::from_parts(MAX_MS + 1, 0),
        Err(TimeIdError::TimestampOutOfRange { ms: MAX_MS + 1 })
    );
    assert_eq!(
        Ulid::from_parts(0, 1 << 80),
        Err(TimeIdError::RandomOutOfRange {
            field: "random",
            value: 1 << 80,
            bits: 80
        })
    );
    assert_eq!(Ulid::from_parts(MAX_MS, Ulid::MAX_RANDOM), Ok(Ulid::MAX));
    assert_eq!(
        TimeIdError::TimestampOutOfRange { ms: -1 }.to_string(),
        "timestamp -1 ms is outside the 48-bit range 0..=281474976710655 of a time-ordered ID"
    );
    assert_eq!(
        Ulid::from_parts(0, 1 << 80).unwrap_err().to_string(),
        "random 0x100000000000000000000 does not fit in 80 bits"
    );
}

#[test]
fn ulid_generator_overflow_is_an_error_until_the_clock_moves() {
    let mut now = 7_i64;
    let clock = std::rc::Rc::new(std::cell::Cell::new(now));
    let c = clock.clone();
    let mut g = UlidGenerator::with_sources(move || c.get(), || u64::MAX);
    let first = g.generate().unwrap();
    assert_eq!(first, Ulid::from_parts(7, Ulid::MAX_RANDOM).unwrap());
    for _ in 0..3 {
        let e = g.generate().unwrap_err();
        assert_eq!(
            e,
            TimeIdError::Overflow {
                kind: "ULID",
                ms: 7
            }
        );
        assert_eq!(
            e.to_string(),
            "ULID generator overflow: no ID left in millisecond 7 after the last one; retry in the next millisecond"
        );
        assert_eq!(g.last(), Some(first), "state kept");
    }
    // A clock stepping back is still the exhausted millisecond.
    clock.set(5);
    assert!(g.generate().is_err());
    now += 1;
    clock.set(now);
    let next = g.generate().unwrap();
    assert!(next > first);
    assert_eq!(next.timestamp_ms(), 8);
}

#[test]
fn ulid_generator_resume_and_clock_errors() {
    let last = Ulid::from_parts(100, 5).unwrap();
    let mut g = UlidGenerator::with_sources(|| 90_i64, SplitMix64::new(1)).resume_after(last);
    assert_eq!(g.generate(), Ok(Ulid::from_parts(100, 6).unwrap()));
    let mut g = UlidGenerator::with_sources(|| -5_i64, SplitMix64::new(1));
    assert_eq!(
        g.generate(),
        Err(TimeIdError::TimestampOutOfRange { ms: -5 })
    );
    assert_eq!(g.last(), None);
    assert!(format!("{g:?}").starts_with("UlidGenerator { last: None"));
}

#[test]
fn system_generators_work() {
    let mut g = UlidGenerator::new();
    let mut u = Uuid7Generator::default();
    let (a, b) = (g.generate().unwrap(), g.generate().unwrap());
    assert!(a < b);
    // After 2020 and before 2200.
    assert!((1_577_836_800_000..7_258_118_400_000).contains(&a.timestamp_ms()));
    let (x, y) = (u.generate().unwrap(), u.generate().unwrap());
    assert!(x < y && is_uuid7(x));
    // Two entropy-seeded generators do not start alike.
    let mut r1 = SplitMix64::from_entropy();
    let mut r2 = SplitMix64::from_entropy();
    use lexikey::kinds::timeid::RandomSource;
    assert_ne!(r1.next_u64(), r2.next_u64());
}

#[test]
fn uuid7_rfc_vector_and_errors() {
    let u = uuid7(0x017F_22E2_79B0, 0xCC3, 0x18C4_DC0C_0C07_398F).unwrap();
    assert_eq!(u, 0x017F22E2_79B0_7CC3_98C4_DC0C0C07398F);
    let mut s = String::new();
    lexikey::value::literal::format_uuid(u, &mut s);
    assert_eq!(s, "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    assert_eq!(
        lexikey::value::literal::parse_uuid(&s)
            .ok()
            .and_then(uuid7_timestamp),
        Some(1_645_557_742_000)
    );
    assert_eq!(
        uuid7(0, 0x1000, 0),
        Err(TimeIdError::RandomOutOfRange {
            field: "rand_a",
            value: 0x1000,
            bits: 12
        })
    );
    assert_eq!(
        uuid7(0, 0, 1 << 62),
        Err(TimeIdError::RandomOutOfRange {
            field: "rand_b",
            value: 1 << 62,
            bits: 62
        })
    );
    assert_eq!(
        uuid7(MAX_MS + 1, 0, 0),
        Err(TimeIdError::TimestampOutOfRange { ms: MAX_MS + 1 })
    );
    // A version-4 UUID.
    let v4 = 0x9f6b_3c1e_4d2a_4b8c_9e7f_1a2b_3c4d_5e6f_u128;
    assert_eq!(uuid7_timestamp(v4), None);
    assert_eq!(
        Uuid7Generator::new()
            .resume_after(v4)
            .unwrap_err()
            .to_string(),
        "0x9f6b3c1e4d2a4b8c9e7f1a2b3c4d5e6f is not a UUIDv7 (version 7, variant 0b10)"
    );
}

#[test]
fn uuid7_generator_overflow_after_resume() {
    // The last ID of millisecond 50 has the all-ones counter.
    let last = uuid7(50, 0xFFF, (1 << 62) - 1).unwrap();
    let clock = std::rc::Rc::new(std::cell::Cell::new(50_i64));
    let c = clock.clone();
    let mut g = Uuid7Generator::with_sources(move || c.get(), SplitMix64::new(3))
        .resume_after(last)
        .unwrap();
    assert_eq!(
        g.generate(),
        Err(TimeIdError::Overflow {
            kind: "UUIDv7",
            ms: 50
        })
    );
    clock.set(51);
    let next = g.generate().unwrap();
    assert!(next > last);
    assert_eq!(uuid7_timestamp(next), Some(51));
    // Resuming mid-millisecond continues the counter.
    let last = uuid7(60, 0x123, 0x0000_0007_FFFF_FFFF).unwrap();
    let mut g = Uuid7Generator::with_sources(|| 60_i64, || 0_u64)
        .resume_after(last)
        .unwrap();
    assert_eq!(g.generate(), uuid7(60, 0x123, 0x0000_0008_0000_0000));
}

/// Newest first, two ways: descending `ts` and reverse `i64` keys order
/// alike for every non-negative ms, in every format.
#[test]
fn newest_first_forms_agree() {
    let times = [
        0_i64,
        1,
        999,
        1_700_000_000_000,
        1_700_000_000_001,
        MAX_MS,
        i64::MAX - 1,
        i64::MAX,
    ];
    for format in Format::ALL {
        for &a in &times {
            for &b in &times {
                let desc = |ms| key(format, Component::desc(Value::Ts(ms)));
                let rev = |ms| key(format, Component::asc(lexikey::reverse(ms).unwrap()));
                assert_eq!(desc(a).cmp(&desc(b)), b.cmp(&a), "{format} desc {a} {b}");
                assert_eq!(rev(a).cmp(&rev(b)), b.cmp(&a), "{format} reverse {a} {b}");
            }
        }
        // Descending also orders timestamps before 1970.
        let d = |ms| key(format, Component::desc(Value::Ts(ms)));
        assert!(d(-1) > d(0) && d(i64::MIN) > d(-1));
        let k = d(-86_400_000);
        let back = tuple::decode(
            format,
            &k,
            Some(&[Field {
                ty: Type::Ts,
                dir: Dir::Desc,
                width: None,
                nulls: None,
                list: 0,
            }]),
        )
        .unwrap();
        assert_eq!(back[0].value, Value::Ts(-86_400_000));
    }
}
