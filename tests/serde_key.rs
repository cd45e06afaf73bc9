//! serde keys: round trips of random structs in every format that holds
//! their fields, key order = the order of the fields tuple (derived `Ord`,
//! with `dirs` and `Desc` reversing), canonical re-encoding of whatever
//! decodes (including corrupted keys), and the refusals and errors.
#![cfg(feature = "serde")]

mod common;

use std::cmp::{Ordering, Reverse};

use lexikey::kinds::timeid::Ulid;
use lexikey::serde_key::{from_key, to_components, to_key, Desc, Error, Ts};
use lexikey::value::{f32_order_bits, f64_order_bits};
use lexikey::{tuple, Component, DecodeError, Dir, EncodeError, Format, Type, Value};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// Compares field by field, each reversed when its direction is `Desc`
/// (`dirs` empty = all ascending).
fn fields_cmp(ords: &[Ordering], dirs: &[Dir]) -> Ordering {
    ords.iter()
        .enumerate()
        .map(|(i, o)| dirs.get(i).copied().unwrap_or_default().apply(*o))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// `$b` with its first `$k` fields taken from `$a`: two values that share
/// a prefix of fields, so the comparison reaches every field.
macro_rules! splice {
    ($a:expr, $b:expr, $k:expr, $T:ident; $($f:ident),* $(,)?) => {{
        #[allow(unused_assignments)]
        {
            let mut i = 0usize;
            $T { $($f: { let v = if i < $k { $a.$f.clone() } else { $b.$f.clone() }; i += 1; v }),* }
        }
    }};
}

macro_rules! field_ords {
    ($a:expr, $b:expr; $($f:ident),* $(,)?) => {
        [$($a.$f.cmp(&$b.$f)),*]
    };
}

// ------------------------------------------------------------- types --

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Flat {
    b: bool,
    i8_: i8,
    i16_: i16,
    i32_: i32,
    i64_: i64,
    i128_: i128,
    u8_: u8,
    u16_: u16,
    u32_: u32,
    u64_: u64,
    u128_: u128,
    c: char,
    s: String,
    #[serde(with = "lexikey::serde_key::bytes")]
    bytes: Vec<u8>,
    ts: Ts,
}

macro_rules! flat_fields {
    ($m:ident!($($pre:tt)*)) => {
        $m!($($pre)*; b, i8_, i16_, i32_, i64_, i128_, u8_, u16_, u32_, u64_, u128_, c, s, bytes, ts)
    };
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    A,
    B(i64),
    C { s: String, t: Option<bool> },
    D(u8, Desc<String>),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Inner {
    x: u16,
    y: Desc<Option<i32>>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Unit;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Nested {
    opt: Option<u16>,
    kind: Kind,
    list: Vec<u32>,
    inner: Inner,
    pair: (u8, String),
    arr: [u16; 2],
    unit: Unit,
    nested_opt: Option<Option<String>>,
    desc_list: Desc<Vec<String>>,
    ulid: Ulid,
    words: Vec<(String, Desc<u8>)>,
    twice: Desc<Desc<i8>>,
}

macro_rules! nested_fields {
    ($m:ident!($($pre:tt)*)) => {
        $m!($($pre)*; opt, kind, list, inner, pair, arr, unit, nested_opt, desc_list, ulid, words, twice)
    };
}

#[derive(Serialize, Deserialize, Debug, Clone)]
struct Floats {
    a: f64,
    b: Desc<f32>,
    c: Option<f64>,
    d: Vec<f32>,
    e: (f32, u8),
}

type FloatsOrd = (u64, Reverse<u32>, Option<u64>, Vec<u32>, (u32, u8));

impl Floats {
    /// The fields in lexikey's float order (`-0.0 < +0.0`, one NaN last).
    fn ord(&self) -> FloatsOrd {
        (
            f64_order_bits(self.a),
            Reverse(f32_order_bits(self.b.0)),
            self.c.map(f64_order_bits),
            self.d.iter().copied().map(f32_order_bits).collect(),
            (f32_order_bits(self.e.0), self.e.1),
        )
    }
}

// -------------------------------------------------------- strategies --

fn chars() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(vec![
            '\0',
            '#',
            '$',
            '%',
            'a',
            'é',
            '\u{FFFF}',
            '\u{10FFFF}'
        ]),
        any::<char>(),
    ]
}

fn flats() -> impl Strategy<Value = Flat> {
    (
        (
            any::<bool>(),
            any::<i8>(),
            any::<i16>(),
            prop_oneof![
                Just(i32::MIN),
                Just(-1),
                Just(0),
                Just(i32::MAX),
                any::<i32>()
            ],
            common::i64s(),
            prop_oneof![
                Just(i128::MIN),
                Just(-1i128),
                Just(0),
                Just(i128::MAX),
                any::<i128>()
            ],
            any::<u8>(),
            any::<u16>(),
        ),
        (
            prop_oneof![Just(0u32), Just(u32::MAX), any::<u32>()],
            common::u64s(),
            common::uuids(),
            chars(),
            common::strings(),
            common::bytes(),
            common::i64s(),
        ),
    )
        .prop_map(
            |(
                (b, i8_, i16_, i32_, i64_, i128_, u8_, u16_),
                (u32_, u64_, u128_, c, s, bytes, ts),
            )| {
                Flat {
                    b,
                    i8_,
                    i16_,
                    i32_,
                    i64_,
                    i128_,
                    u8_,
                    u16_,
                    u32_,
                    u64_,
                    u128_,
                    c,
                    s,
                    bytes,
                    ts: Ts(ts),
                }
            },
        )
}

fn small_strings() -> impl Strategy<Value = String> {
    prop_oneof![3 => "[ab]{0,2}", 1 => common::strings()]
}

fn kinds() -> impl Strategy<Value = Kind> {
    prop_oneof![
        Just(Kind::A),
        common::i64s().prop_map(Kind::B),
        (small_strings(), any::<Option<bool>>()).prop_map(|(s, t)| Kind::C { s, t }),
        (0u8..3, small_strings()).prop_map(|(a, s)| Kind::D(a, Desc(s))),
    ]
}

fn nesteds() -> impl Strategy<Value = Nested> {
    (
        (
            prop::option::of(prop_oneof![Just(0u16), Just(u16::MAX), any::<u16>()]),
            kinds(),
            prop::collection::vec(0u32..3, 0..4),
            (0u16..3, prop::option::of(-1i32..2)).prop_map(|(x, y)| Inner { x, y: Desc(y) }),
            (0u8..2, small_strings()),
            [0u16..2, 0u16..2],
        ),
        (
            prop::option::of(prop::option::of(small_strings())),
            prop::collection::vec(small_strings(), 0..3),
            prop_oneof![common::uuids(), 0u128..3],
            prop::collection::vec((small_strings(), 0u8..3), 0..3),
            any::<i8>(),
        ),
    )
        .prop_map(
            |((opt, kind, list, inner, pair, arr), (nested_opt, desc_list, ulid, words, twice))| {
                Nested {
                    opt,
                    kind,
                    list,
                    inner,
                    pair,
                    arr,
                    unit: Unit,
                    nested_opt,
                    desc_list: Desc(desc_list),
                    ulid: Ulid(ulid),
                    words: words.into_iter().map(|(s, n)| (s, Desc(n))).collect(),
                    twice: Desc(Desc(twice)),
                }
            },
        )
}

fn floats() -> impl Strategy<Value = Floats> {
    (
        common::f64s(),
        common::f32s(),
        prop::option::of(common::f64s()),
        prop::collection::vec(common::f32s(), 0..3),
        (common::f32s(), 0u8..2),
    )
        .prop_map(|(a, b, c, d, e)| Floats {
            a,
            b: Desc(b),
            c,
            d,
            e,
        })
}

/// No directions (all ascending), or one random direction per field.
fn dirs_for(n: usize) -> impl Strategy<Value = Vec<Dir>> {
    prop_oneof![
        Just(Vec::new()),
        prop::collection::vec(common::dirs(), n..=n)
    ]
}

/// Encodes, decodes, re-encodes; returns the key.
fn round_trip<T>(value: &T, format: Format, dirs: &[Dir]) -> Result<(Vec<u8>, T), TestCaseError>
where
    T: Serialize + for<'de> Deserialize<'de>,
{
    let key =
        to_key(value, format, dirs).map_err(|e| TestCaseError::fail(format!("to_key: {e}")))?;
    let back: T =
        from_key(&key, format, dirs).map_err(|e| TestCaseError::fail(format!("from_key: {e}")))?;
    let again = to_key(&back, format, dirs).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&again, &key, "decode then encode gives the key back");
    Ok((key, back))
}

/// A struct holding decimals, one reversed by `Desc`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Priced {
    item: String,
    price: lexikey::Dec,
    newest_cost_first: Desc<lexikey::Dec>,
}

proptest! {
    #![proptest_config(common::config())]

    /// `Dec` fields become `dec` components: numeric order (== derived Ord),
    /// in every format, and back.
    #[test]
    fn dec_fields_round_trip_and_order(
        a in (common::dec_texts(), common::dec_texts()),
        b in (common::dec_texts(), common::dec_texts()),
        same_item in any::<bool>(),
        format in common::formats(),
    ) {
        let mk = |(p, c): (String, String), item: &str| Priced {
            item: item.to_string(),
            price: p.parse().unwrap(),
            newest_cost_first: Desc(c.parse().unwrap()),
        };
        let a = mk(a, "book");
        let b = mk(b, if same_item { "book" } else { "books" });
        let (ka, back) = round_trip(&a, format, &[])?;
        prop_assert_eq!(&back, &a);
        let (kb, _) = round_trip(&b, format, &[])?;
        prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
        let cs = to_components(&a, &[]).unwrap();
        prop_assert_eq!(cs[1].value.ty(), Type::Dec);
        prop_assert_eq!(cs[2].dir, Dir::Desc);
    }

    #[test]
    fn flat_round_trip_and_order(
        a in flats(),
        b in flats(),
        k in 0usize..=15,
        format in common::formats(),
        dirs in dirs_for(15),
    ) {
        let b = flat_fields!(splice!(a, b, k, Flat));
        let (ka, back) = round_trip(&a, format, &dirs)?;
        prop_assert_eq!(&back, &a);
        let (kb, _) = round_trip(&b, format, &dirs)?;
        let expected = fields_cmp(&flat_fields!(field_ords!(a, b)), &dirs);
        prop_assert_eq!(ka.cmp(&kb), expected);
        if dirs.iter().all(|d| *d == Dir::Asc) {
            prop_assert_eq!(ka.cmp(&kb), a.cmp(&b), "derived Ord = key order");
        }
    }

    #[test]
    fn nested_round_trip_and_order(
        a in nesteds(),
        b in nesteds(),
        k in 0usize..=12,
        format in common::formats(),
        dirs in dirs_for(12),
    ) {
        let b = nested_fields!(splice!(a, b, k, Nested));
        let (ka, back) = round_trip(&a, format, &dirs)?;
        prop_assert_eq!(&back, &a);
        let (kb, _) = round_trip(&b, format, &dirs)?;
        let expected = fields_cmp(&nested_fields!(field_ords!(a, b)), &dirs);
        prop_assert_eq!(ka.cmp(&kb), expected);
        if dirs.is_empty() {
            prop_assert_eq!(ka.cmp(&kb), a.cmp(&b), "derived Ord = key order");
        }
        // The whole value wrapped in Desc: every component reversed.
        let (da, db) = (to_key(&Desc(&a), format, &[]).unwrap(), to_key(&Desc(&b), format, &[]).unwrap());
        prop_assert_eq!(da.cmp(&db), a.cmp(&b).reverse());
        prop_assert_eq!(from_key::<Desc<Nested>>(&da, format, &[]).unwrap().0, a);
    }

    /// Floats in the formats that hold them; `decimal` refuses them.
    #[test]
    fn floats_round_trip_and_order(a in floats(), b in floats(), format in common::formats()) {
        if format == Format::Decimal {
            let e = to_key(&a, format, &[]).unwrap_err();
            prop_assert!(matches!(e, Error::Encode(EncodeError::Unsupported { .. })), "{}", e);
            return Ok(());
        }
        let (ka, back) = round_trip(&a, format, &[])?;
        prop_assert_eq!(back.ord(), a.ord(), "round trip up to the canonical NaN");
        let (kb, _) = round_trip(&b, format, &[])?;
        prop_assert_eq!(ka.cmp(&kb), a.ord().cmp(&b.ord()));
    }

    /// Tuples and bare values at the top level, with per-field directions.
    #[test]
    fn tuples_and_scalars(
        t in (any::<u8>(), small_strings(), prop::option::of(common::i64s())),
        u in (any::<u8>(), small_strings(), prop::option::of(common::i64s())),
        v in prop::collection::vec(small_strings(), 0..4),
        w in prop::collection::vec(small_strings(), 0..4),
        d3 in prop::collection::vec(common::dirs(), 3..=3),
        d1 in common::dirs(),
        format in common::formats(),
    ) {
        let (kt, back) = round_trip(&t, format, &d3)?;
        prop_assert_eq!(&back, &t);
        let (ku, _) = round_trip(&u, format, &d3)?;
        let ords = [t.0.cmp(&u.0), t.1.cmp(&u.1), t.2.cmp(&u.2)];
        prop_assert_eq!(kt.cmp(&ku), fields_cmp(&ords, &d3));
        // A bare sequence is one field: one direction for all of it.
        let (kv, back) = round_trip(&v, format, &[d1])?;
        prop_assert_eq!(&back, &v);
        let (kw, _) = round_trip(&w, format, &[d1])?;
        prop_assert_eq!(kv.cmp(&kw), d1.apply(v.cmp(&w)));
    }

    /// Narrow integers come back range-checked, with the component's offset.
    #[test]
    fn narrowing_is_checked(x in any::<i32>(), y in any::<u32>(), format in common::formats()) {
        let key = to_key(&("p", x, y), format, &[]).unwrap();
        let start = |i: usize| -> usize {
            if format == Format::Binary { [0, 3, 7][i] } else {
                key.iter().enumerate().filter(|(_, &b)| b == b'#').map(|(j, _)| j + 1).nth(i - 1).unwrap()
            }
        };
        let got = from_key::<(String, i8, u16)>(&key, format, &[]);
        match (i8::try_from(x), u16::try_from(y)) {
            (Ok(a), Ok(b)) => prop_assert_eq!(got, Ok(("p".to_string(), a, b))),
            (Err(_), _) => prop_assert_eq!(got, Err(Error::OutOfRange {
                offset: start(1), value: x.to_string(), target: "i8".into(),
            })),
            (Ok(_), Err(_)) => prop_assert_eq!(got, Err(Error::OutOfRange {
                offset: start(2), value: y.to_string(), target: "u16".into(),
            })),
        }
    }

    /// Corrupted keys: decoding never panics, and whatever decodes
    /// re-encodes to exactly the bytes read (canonical decode).
    #[test]
    fn corrupted_keys_decode_canonically_or_fail(
        a in nesteds(),
        format in common::formats(),
        cut in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        byte in prop_oneof![any::<u8>(), prop::sample::select(vec![b'#', b'$', b'0', b'1', b'b', b'B', 0, 1, 0xFF])],
        mode in 0..3,
    ) {
        let mut key = to_key(&a, format, &[]).unwrap();
        match mode {
            0 if !key.is_empty() => key.truncate(cut.index(key.len())),
            1 if !key.is_empty() => { let i = at.index(key.len()); key[i] = byte; }
            _ => key.insert(at.index(key.len() + 1), byte),
        }
        match from_key::<Nested>(&key, format, &[]) {
            Ok(v) => prop_assert_eq!(to_key(&v, format, &[]).unwrap(), key),
            Err(e) => {
                if let Some(o) = e.offset() {
                    prop_assert!(o <= key.len(), "{} points inside the key", e);
                }
            }
        }
    }
}

// -------------------------------------------------------- unit tests --

#[test]
fn golden_keys() {
    #[derive(Serialize)]
    struct Row<'a> {
        country: &'a str,
        pop: Desc<u64>,
        tag: Option<char>,
    }
    let r = Row {
        country: "usa",
        pop: Desc(3_831_868),
        tag: Some('x'),
    };
    let expect: [(Format, &[u8]); 4] = [
        (Format::Hex, b"usa#UFFFFFFFFFFC587C3#b01#x"),
        (Format::Base64, b"usa#Uzzzzzzz4WwB#b-F#x"),
        (Format::Decimal, b"usa#99999999999996168131#1#x"),
        (
            Format::Binary,
            b"usa\x00\x01\xFF\xFF\xFF\xFF\xFF\xC5\x87\xC3\x01x\x00\x01",
        ),
    ];
    for (format, key) in expect {
        assert_eq!(
            to_key(&r, format, &[]).unwrap(),
            key,
            "{format}: {}",
            lexikey::escape_key(&to_key(&r, format, &[]).unwrap())
        );
    }
}

#[test]
fn components_match_the_type_map() {
    #[derive(Serialize)]
    enum E {
        #[allow(dead_code)]
        A,
        B(u8),
    }
    let c = to_components(
        &(1_i8, 2_u16, -3_i128, 4_u128, 'é', Ts(5), E::B(6), ()),
        &[],
    )
    .unwrap();
    let values: Vec<Value<'_>> = c.into_iter().map(|c| c.value).collect();
    assert_eq!(
        values,
        vec![
            Value::I32(1),
            Value::U32(2),
            Value::Uuid((-3_i128) as u128 ^ 1 << 127),
            Value::Uuid(4),
            Value::from("é"),
            Value::Ts(5),
            Value::U32(1),
            Value::U32(6),
        ]
    );
    // A Ulid is a uuid component, as with `Ulid::component`.
    let id = Ulid::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
    assert_eq!(to_components(&id, &[]).unwrap(), vec![id.component()]);
    assert_eq!(
        to_key(&id, Format::Hex, &[]).unwrap(),
        tuple::encode(Format::Hex, &[id.component()]).unwrap()
    );
}

#[test]
fn dirs_apply_per_top_level_field() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct P {
        a: (u8, u8),
        b: Option<u8>,
    }
    let p = P {
        a: (1, 2),
        b: Some(3),
    };
    let c = to_components(&p, &[Dir::Desc, Dir::Asc]).unwrap();
    let dirs: Vec<Dir> = c.iter().map(|c| c.dir).collect();
    assert_eq!(dirs, [Dir::Desc, Dir::Desc, Dir::Asc, Dir::Asc]);
    // Desc inside a descending field flips back.
    let c = to_components(&(Desc(1_u8), 2_u8), &[Dir::Desc, Dir::Desc]).unwrap();
    assert_eq!(c, vec![Component::asc(1_u32), Component::desc(2_u32)]);
    // Wrong counts.
    assert_eq!(
        to_key(&p, Format::Hex, &[Dir::Desc]),
        Err(Error::Dirs {
            expected: 2,
            found: 1
        })
    );
    assert_eq!(
        to_key(&5_u8, Format::Hex, &[Dir::Desc, Dir::Asc]),
        Err(Error::Dirs {
            expected: 1,
            found: 2
        })
    );
    assert_eq!(
        to_key(&(), Format::Hex, &[Dir::Desc]),
        Err(Error::Dirs {
            expected: 0,
            found: 1
        })
    );
    assert_eq!(
        from_key::<P>(b"x", Format::Hex, &[Dir::Asc]),
        Err(Error::Dirs {
            expected: 2,
            found: 1
        })
    );
    assert_eq!(
        Error::Dirs {
            expected: 2,
            found: 1
        }
        .to_string(),
        "1 directions given for 2 top-level fields: give none (all ascending) or one per field"
    );
}

#[test]
fn refusals() {
    use std::collections::BTreeMap;
    let map: BTreeMap<u8, u8> = [(1, 2)].into();
    let e = to_key(&map, Format::Hex, &[]).unwrap_err();
    assert!(matches!(e, Error::Unsupported { what: "a map", .. }));
    assert!(e.to_string().starts_with("a map cannot be part of a key: "));
    assert!(matches!(
        from_key::<BTreeMap<u8, u8>>(b"", Format::Hex, &[]),
        Err(Error::Unsupported { what: "a map", .. })
    ));

    #[derive(Serialize)]
    struct Skips {
        #[serde(skip_serializing_if = "Option::is_none")]
        a: Option<u8>,
        b: u8,
    }
    assert!(to_key(&Skips { a: Some(1), b: 2 }, Format::Hex, &[]).is_ok());
    assert!(matches!(
        to_key(&Skips { a: None, b: 2 }, Format::Hex, &[]),
        Err(Error::Unsupported {
            what: "a skipped field",
            ..
        })
    ));

    // `#[serde(skip)]` leaves no hole: the field is neither written nor read.
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Skipped {
        a: u8,
        #[serde(skip)]
        cache: u32,
        b: u8,
    }
    let key = to_key(
        &Skipped {
            a: 1,
            cache: 9,
            b: 2,
        },
        Format::Hex,
        &[],
    )
    .unwrap();
    assert_eq!(key, b"w00000001#w00000002");
    assert_eq!(
        from_key::<Skipped>(&key, Format::Hex, &[]),
        Ok(Skipped {
            a: 1,
            cache: 0,
            b: 2
        })
    );

    #[derive(Deserialize, Debug)]
    #[serde(untagged)]
    #[allow(dead_code)]
    enum Untagged {
        A(u8),
        B(String),
    }
    assert!(matches!(
        from_key::<Untagged>(b"w00000001", Format::Hex, &[]),
        Err(Error::Unsupported {
            what: "deserialize_any",
            ..
        })
    ));
}

#[test]
fn decode_errors_point_into_the_key() {
    type T = (String, u32, bool);
    let key = to_key(&("ab#c".to_string(), 7_u32, true), Format::Hex, &[]).unwrap();
    assert_eq!(key, b"ab%23c#w00000007#b01");
    // Missing component.
    assert_eq!(
        from_key::<T>(&key[..16], Format::Hex, &[]),
        Err(Error::Decode(DecodeError::MissingComponent {
            offset: 16,
            index: 2
        }))
    );
    // Trailing component: the offset of its separator.
    assert_eq!(
        from_key::<(String, u32)>(&key, Format::Hex, &[]),
        Err(Error::Decode(DecodeError::TrailingBytes { offset: 16 }))
    );
    assert_eq!(
        from_key::<()>(b"x", Format::Hex, &[]),
        Err(Error::Decode(DecodeError::TrailingBytes { offset: 0 }))
    );
    assert_eq!(from_key::<()>(b"", Format::Hex, &[]), Ok(()));
    // A bad byte inside the second component: offset into the whole key.
    let mut bad = key.clone();
    bad[10] = b'g';
    let e = from_key::<T>(&bad, Format::Hex, &[]).unwrap_err();
    assert_eq!(e.offset(), Some(10), "{e}");
    // Binary: the same, at the component's offset.
    let key = to_key(&("ab".to_string(), 7_u32, true), Format::Binary, &[]).unwrap();
    assert_eq!(key, b"ab\x00\x01\x00\x00\x00\x07\x01");
    assert_eq!(
        from_key::<T>(&key[..8], Format::Binary, &[]),
        Err(Error::Decode(DecodeError::MissingComponent {
            offset: 8,
            index: 2
        }))
    );
    let mut bad = key.clone();
    bad[8] = 2;
    assert_eq!(
        from_key::<T>(&bad, Format::Binary, &[])
            .unwrap_err()
            .offset(),
        Some(8)
    );
    assert_eq!(
        from_key::<(String, u32)>(&key, Format::Binary, &[]),
        Err(Error::Decode(DecodeError::TrailingBytes { offset: 8 }))
    );
    // An enum index past the last variant.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    enum Two {
        A,
        B,
    }
    let e = from_key::<(u8, Two)>(b"w00000001#w00000002", Format::Hex, &[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "value 2 at byte 10 does not fit a variant index of enum Two (2 variants)"
    );
    // A char from a longer string.
    let e = from_key::<char>(b"ab", Format::Hex, &[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "value \"ab\" at byte 0 does not fit char (one character)"
    );
    // A Deserialize impl's own error gets the offset of the last component.
    #[derive(Debug)]
    struct Even;
    impl<'de> Deserialize<'de> for Even {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let v = u32::deserialize(d)?;
            if v % 2 == 0 {
                Ok(Even)
            } else {
                Err(serde::de::Error::custom(format!("{v} is odd")))
            }
        }
    }
    let e = from_key::<(u8, Even)>(b"w00000001#w00000003", Format::Hex, &[]).unwrap_err();
    assert_eq!(
        e,
        Error::Custom {
            msg: "3 is odd".into(),
            offset: Some(10)
        }
    );
    assert_eq!(e.to_string(), "3 is odd (component at byte 10)");
}

#[test]
fn borrowed_strings_and_bytes() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct B<'a> {
        s: &'a str,
        // `&[u8]` serializes as a sequence but deserializes from bytes.
        #[serde(serialize_with = "lexikey::serde_key::bytes::serialize", borrow)]
        b: &'a [u8],
    }
    let v = B {
        s: "plain",
        b: b"raw",
    };
    let key = to_key(&v, Format::Binary, &[]).unwrap();
    let back: B<'_> = from_key(&key, Format::Binary, &[]).unwrap();
    assert_eq!(back, v);
    assert!(
        std::ptr::eq(back.s.as_ptr(), key[..].as_ptr()),
        "borrowed from the key"
    );
    // A string that needs unescaping cannot be borrowed: serde's own error.
    let key = to_key(&("a b",), Format::Hex, &[]).unwrap();
    assert_eq!(key, b"a%20b");
    assert!(from_key::<(&str,)>(&key, Format::Hex, &[]).is_err());
    assert_eq!(
        from_key::<(String,)>(&key, Format::Hex, &[]),
        Ok(("a b".to_string(),))
    );
}

#[test]
fn ts_and_types_in_schemas() {
    // A serde key decodes with `tuple::decode` and the matching schema.
    #[derive(Serialize)]
    struct Ev {
        user: u64,
        at: Desc<Ts>,
        id: Ulid,
    }
    let ev = Ev {
        user: 42,
        at: Desc(Ts(1_700_000_000_000)),
        id: Ulid(7),
    };
    let key = to_key(&ev, Format::Base64, &[]).unwrap();
    let schema = lexikey::Field::parse_schema("u64,ts.desc,uuid").unwrap();
    let parts = tuple::decode(Format::Base64, &key, Some(&schema)).unwrap();
    assert_eq!(parts[0].value, Value::U64(42));
    assert_eq!(parts[1].value, Value::Ts(1_700_000_000_000));
    assert_eq!(parts[1].dir, Dir::Desc);
    assert_eq!(parts[2].value, Value::Uuid(7));
    assert_eq!(parts[2].value.ty(), Type::Uuid);
}
