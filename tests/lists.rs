//! List components (`list<TYPE>`, `lexikey::format::list`): order, round
//! trip and canonical decode in every format and direction, nested lists,
//! nullable lists (nulls first and last), alone and inside composite keys
//! with every other type; the layout table (an element's bytes are its
//! component's bytes); the `list<…>` schema and value syntax; the golden
//! vectors of `fixtures/lists.tsv`, both ways; bad input.

mod common;

use common::*;
use lexikey::format::list;
use lexikey::value::literal::{component_to_string, parse_component};
use lexikey::value::MAX_LIST_DEPTH;
use lexikey::{tuple, Component, DecodeError, EncodeError, Field, Format, Nulls, Type, Value};
use proptest::prelude::*;

/// A list field of depth 1–3 over any type, either direction, nullable
/// a third of the time.
fn list_field() -> impl Strategy<Value = Field> {
    (
        every_type(),
        1u8..=3,
        dirs(),
        prop::option::weighted(0.33, nulls()),
    )
        .prop_map(|(ty, depth, dir, nulls)| Field {
            ty,
            dir,
            width: None,
            nulls,
            list: depth,
        })
}

/// A list value of `depth` over `ty`: 0–4 elements, drawn from a few
/// values most of the time so that lists share prefixes and elements.
fn list_value(ty: Type, depth: u8) -> BoxedStrategy<Value<'static>> {
    let elem = if depth > 1 {
        list_value(ty, depth - 1)
    } else {
        value_of(ty)
    };
    (
        prop::collection::vec(elem.clone(), 1..4),
        prop::collection::vec(any::<prop::sample::Index>(), 0..5),
        prop::collection::vec(elem, 0..4),
        any::<bool>(),
    )
        .prop_map(move |(pool, picks, free, pooled)| {
            let items = if pooled {
                picks.iter().map(|i| i.get(&pool).clone()).collect()
            } else {
                free
            };
            Value::list(ty, items)
        })
        .boxed()
}

/// `b` derived from `a`: a prefix, an extension, one element changed, or
/// unrelated — the pairs whose order the layout must get right.
fn related(ty: Type, depth: u8, a: Value<'static>) -> BoxedStrategy<Value<'static>> {
    let Value::List(_, items) = a.clone() else {
        unreachable!()
    };
    let items = items.into_vec();
    let elem = if depth > 1 {
        list_value(ty, depth - 1)
    } else {
        value_of(ty)
    };
    let n = items.len();
    prop_oneof![
        (0..=n).prop_map({
            let items = items.clone();
            move |k| Value::list(ty, items[..k].to_vec())
        }),
        elem.clone().prop_map({
            let items = items.clone();
            move |e| {
                let mut v = items.clone();
                v.push(e);
                Value::list(ty, v)
            }
        }),
        (elem, any::<prop::sample::Index>()).prop_map(move |(e, at)| {
            let mut v = items.clone();
            if !v.is_empty() {
                let i = at.index(v.len());
                v[i] = e;
            }
            Value::list(ty, v)
        }),
        list_value(ty, depth),
    ]
    .boxed()
}

/// A component of `field`: a null a quarter of the time when nullable.
fn cell(field: Field) -> BoxedStrategy<Component<'static>> {
    let value = if field.list > 0 {
        list_value(field.ty, field.list)
    } else {
        value_of(field.ty)
    };
    let v = if field.nulls.is_some() {
        prop_oneof![1 => Just(Value::Null(field.ty)), 3 => value].boxed()
    } else {
        value
    };
    v.prop_map(move |v| Component::of(field, v)).boxed()
}

/// Two components of one list field, related as [`related`] makes them.
fn list_pair() -> impl Strategy<Value = (Field, Component<'static>, Component<'static>)> {
    list_field().prop_flat_map(|f| {
        cell(f).prop_flat_map(move |a| {
            let b = match &a.value {
                Value::List(..) => related(f.ty, f.list, a.value.clone()),
                _ => cell(f).prop_map(|c| c.value).boxed(),
            };
            let b = if f.nulls.is_some() {
                prop_oneof![3 => b, 1 => Just(Value::Null(f.ty))].boxed()
            } else {
                b
            };
            (Just(f), Just(a), b.prop_map(move |v| Component::of(f, v)))
        })
    })
}

/// A field of any kind `format` supports: a scalar (nullable or not) or a
/// list.
fn any_field(format: Format) -> impl Strategy<Value = Field> {
    prop_oneof![
        (every_type(), dirs(), prop::option::weighted(0.3, nulls())).prop_map(
            |(ty, dir, nulls)| Field {
                ty,
                dir,
                width: None,
                nulls,
                list: 0,
            }
        ),
        list_field(),
    ]
    .prop_filter("format supports type", move |f| supports(format, f.ty))
}

/// A schema of 1–4 fields, at least one a list, and two rows of it that
/// share a prefix often.
fn mixed_rows(
    format: Format,
) -> impl Strategy<Value = (Vec<Component<'static>>, Vec<Component<'static>>)> {
    (
        prop::collection::vec(any_field(format), 0..4),
        list_field().prop_filter("format supports type", move |f| supports(format, f.ty)),
        0usize..4,
    )
        .prop_flat_map(|(mut fields, f, at)| {
            fields.insert(at.min(fields.len()), f);
            let row = fields.iter().map(|&f| cell(f)).collect::<Vec<_>>();
            (row.clone(), row, any::<prop::sample::Index>())
        })
        .prop_map(|(a, mut b, share)| {
            // Rows that agree on their first components, so later ones
            // (lists included) decide the order.
            let k = share.index(a.len() + 1);
            b[..k].clone_from_slice(&a[..k]);
            (a, b)
        })
}

proptest! {
    #![proptest_config(config())]

    /// One list component (nested, descending, nullable): value order
    /// (elementwise, shorter first, empty first, nulls where the field
    /// says) ⇔ key order, the key decodes back and re-encodes to itself,
    /// in every format that holds the element type.
    #[test]
    fn order_and_round_trip_alone((field, a, b) in list_pair()) {
        for format in Format::ALL.into_iter().filter(|f| supports(*f, field.ty)) {
            let (ka, kb) = (enc(format, std::slice::from_ref(&a)), enc(format, std::slice::from_ref(&b)));
            prop_assert_eq!(ka.cmp(&kb), a.key_cmp(&b), "{} {:?} {:?}", format, a, b);
            prop_assert_eq!(ka == kb, a == b);
            let back = tuple::decode(format, &ka, Some(&[field])).unwrap();
            prop_assert_eq!(&back, &vec![a.clone()]);
            prop_assert_eq!(enc(format, &back), ka.clone());
            if format.is_text() {
                // One printable part: no separator, no prefix-range end.
                prop_assert!(ka.iter().all(|&c| c >= 0x21 && c != b'#' && c != b'$'), "{:?}", String::from_utf8_lossy(&ka));
            }
        }
    }

    /// The comparisons (`gt`, `ge`, `lt`, `le`, `eq`) on a list component
    /// after a fixed prefix: the range holds exactly the keys of the rows
    /// whose list compares so with the bound (elementwise, shorter first;
    /// a comparison is never true of a null), in every format and
    /// direction, nested and nullable lists included. A strict bound on a
    /// list of a fixed-width type stays strict (it has no neighbour).
    #[test]
    fn comparison_ranges_hold_exactly_the_matching_keys(
        (field, bound, rows) in list_field().prop_flat_map(|f| {
            list_value(f.ty, f.list).prop_flat_map(move |bound| {
                let b = related(f.ty, f.list, bound.clone());
                let v = if f.nulls.is_some() {
                    prop_oneof![4 => b, 1 => Just(Value::Null(f.ty))].boxed()
                } else {
                    b
                };
                (Just(f), Just(bound), prop::collection::vec((prop::sample::select(vec!["a", "b"]), v), 1..10))
            })
        }),
        op in 0..5u8,
    ) {
        use lexikey::range::{KeyRange, RangeError, RangeQuery};
        use std::cmp::Ordering;
        let bound = Component::of(field, bound);
        let prefix = [Component::asc("b")];
        // The value order: the key order of the ascending field.
        let value_cmp = |c: &Component<'_>| {
            let o = c.key_cmp(&bound);
            if field.dir == lexikey::Dir::Desc { o.reverse() } else { o }
        };
        for format in Format::ALL.into_iter().filter(|f| supports(*f, field.ty)) {
            let q = RangeQuery::new(format).prefix(&prefix);
            let (q, want): (RangeQuery<'_>, &[Ordering]) = match op {
                0 => (q.gt(bound.clone()), &[Ordering::Greater]),
                1 => (q.ge(bound.clone()), &[Ordering::Greater, Ordering::Equal]),
                2 => (q.lt(bound.clone()), &[Ordering::Less]),
                3 => (q.le(bound.clone()), &[Ordering::Less, Ordering::Equal]),
                _ => (q.eq(bound.clone()), &[Ordering::Equal]),
            };
            let range = match q.build() {
                Ok(r) => r,
                Err(RangeError::Empty) => KeyRange { start: Some(vec![1]), end: Some(vec![1]) },
                Err(e) => return Err(TestCaseError::fail(e.to_string())),
            };
            for (p, v) in &rows {
                let c = Component::of(field, v.clone());
                let key = enc(format, &[Component::asc(*p), c.clone()]);
                let keep = *p == "b" && !c.is_null() && want.contains(&value_cmp(&c));
                prop_assert_eq!(range.contains(&key), keep, "{} {:?} op {} bound {:?} row {:?}", format, range, op, bound, c);
            }
        }
    }

    /// Lists mixed with every other type (nullable or not), both
    /// directions, in composite keys: tuple order ⇔ key order, round trip
    /// through the schema (also with `decode_reusing`), and a row's prefix
    /// sorts before it.
    #[test]
    fn order_and_round_trip_in_composite_keys(
        (format, (a, b)) in formats().prop_flat_map(|f| (Just(f), mixed_rows(f))),
    ) {
        check_composite_rows(format, &a, &b)?;
    }

    /// Canonical decode: a key with one byte replaced, dropped or added
    /// either decodes to components whose key it is exactly, or is refused
    /// with an offset inside the key and a one-line message.
    #[test]
    fn decode_is_canonical(
        (format, (row, _)) in formats().prop_flat_map(|f| (Just(f), mixed_rows(f))),
        at in any::<prop::sample::Index>(),
        with in prop::sample::select(b"\x00\x01\x02\xFE\xFF:.!~aAl#$%-=_0F".to_vec()),
        how in 0..3u8,
    ) {
        check_edited_key(format, &row, at, with, how)?;
    }

    /// The layout table: an ascending list of scalars is, per element, the
    /// element marker and that element's own component key (a `str` or
    /// `bytes` one followed by `!` in text), then the end marker, after
    /// the tag `a` in `hex`/`base64`; a descending `binary` list is the NOT
    /// of the ascending one.
    #[test]
    fn elements_are_their_component_bytes(
        (ty, v) in every_type().prop_flat_map(|t| (Just(t), list_value(t, 1))),
    ) {
        let Value::List(_, items) = &v else { unreachable!() };
        for format in Format::ALL.into_iter().filter(|f| supports(*f, ty)) {
            let mut want = Vec::new();
            if matches!(format, Format::Hex | Format::Base64) {
                want.push(list::TAG);
            }
            for e in items {
                if format.is_text() {
                    want.push(list::TEXT_ELEM);
                    want.extend(enc(format, &[Component::asc(e.clone())]));
                    if matches!(ty, Type::Str | Type::Bytes) {
                        want.push(list::TEXT_STR_END);
                    }
                } else {
                    want.push(list::BIN_ELEM);
                    want.extend(enc(format, &[Component::asc(e.clone())]));
                }
            }
            want.push(if format.is_text() { list::TEXT_END } else { list::BIN_END });
            let field = Field::asc(ty).list_of(1);
            prop_assert_eq!(enc(format, &[Component::of(field, v.clone())]), want.clone());
            if format == Format::Binary {
                let desc = enc(format, &[Component::of(Field { dir: lexikey::Dir::Desc, ..field }, v.clone())]);
                prop_assert_eq!(desc, want.iter().map(|b| !b).collect::<Vec<_>>());
            }
        }
    }

    /// The value syntax: every list component prints as
    /// `list<…>[?][.desc]:[…]` and parses back to itself.
    #[test]
    fn syntax_round_trip(c in list_field().prop_flat_map(cell)) {
        let text = component_to_string(&c);
        prop_assert_eq!(parse_component(&text).unwrap(), c, "{}", text);
    }
}

/// The spellings: `list<T>`, nested, with `?`, `.desc`, `.nulls_last`
/// parse, print and parse back; elements are not nullable; the depth
/// limit.
#[test]
fn schema_spellings() {
    let cases = [
        ("list<i64>", Field::asc(Type::I64).list_of(1)),
        ("list<list<str>>", Field::asc(Type::Str).list_of(2)),
        ("list<str>.desc", Field::desc(Type::Str).list_of(1)),
        (
            "list<i64>?",
            Field::asc(Type::I64).list_of(1).nullable(Nulls::First),
        ),
        (
            "list<dec>?.desc.nulls_last",
            Field::desc(Type::Dec).list_of(1).nullable(Nulls::Last),
        ),
    ];
    for (text, want) in cases {
        assert_eq!(Field::parse(text), Ok(want), "{text}");
        assert_eq!(want.to_string(), text);
    }
    let deepest = format!("{}i64{}", "list<".repeat(8), ">".repeat(8));
    assert_eq!(
        Field::parse(&deepest),
        Ok(Field::asc(Type::I64).list_of(MAX_LIST_DEPTH))
    );
    let too_deep = format!("{}i64{}", "list<".repeat(9), ">".repeat(9));
    let e = Field::parse(&too_deep).unwrap_err().to_string();
    assert!(e.contains("deeper than 8 levels"), "{e}");
    let e = Field::parse("list<i64?>").unwrap_err().to_string();
    assert!(e.contains("list elements are not nullable"), "{e}");
    let e = Field::parse("list<i64.desc>").unwrap_err().to_string();
    assert!(e.contains("apply to the whole list"), "{e}");
    assert!(Field::parse("list<i64").is_err());
    assert!(Field::parse("list<i65>").is_err());
    assert_eq!(
        Field::parse_schema("str,list<i64>.desc,i64?"),
        Ok(vec![
            Field::asc(Type::Str),
            Field::desc(Type::I64).list_of(1),
            Field::asc(Type::I64).nullable(Nulls::First),
        ])
    );
}

/// The value syntax's escapes, spaces, empty elements and errors.
#[test]
fn value_syntax() {
    let l = |ty, items: Vec<Value<'static>>| Value::list(ty, items);
    let s = |x: &str| Value::from(x.to_string());
    let cases: [(&str, Value<'static>); 8] = [
        (
            "list<i64>:[1,2,3]",
            l(Type::I64, vec![1_i64.into(), 2_i64.into(), 3_i64.into()]),
        ),
        (r"list<str>:[a\,b, c]", l(Type::Str, vec![s("a,b"), s("c")])),
        (
            "list<list<i64>>:[[1, 2], []]",
            l(
                Type::I64,
                vec![
                    l(Type::I64, vec![1_i64.into(), 2_i64.into()]),
                    l(Type::I64, vec![]),
                ],
            ),
        ),
        ("list<str>:[]", l(Type::Str, vec![])),
        ("list<str>:[,]", l(Type::Str, vec![s("")])),
        (
            "list<str>:[ a,  b, ,]",
            l(Type::Str, vec![s(" a"), s(" b"), s("")]),
        ),
        (
            r"list<str>:[\[x\], \\]",
            l(Type::Str, vec![s("[x]"), s("\\")]),
        ),
        (
            "list<bytes>:[00ff]",
            l(Type::Bytes, vec![Value::from(vec![0_u8, 0xFF])]),
        ),
    ];
    for (text, want) in cases {
        let c = parse_component(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(c.value, want, "{text}");
        assert_eq!(parse_component(&component_to_string(&c)).unwrap(), c);
    }
    assert_eq!(
        component_to_string(&parse_component("list<list<i64>>.desc:[[1,2],[]]").unwrap()),
        "list<list<i64>>.desc:[[1, 2], []]"
    );
    assert_eq!(
        component_to_string(&parse_component("list<i64>?").unwrap()),
        "list<i64>?"
    );
    for (bad, says) in [
        ("list<i64>:1", "expected [ELEMENT, ...]"),
        ("list<i64>:[1, x]", "element 1"),
        ("list<i64>:[1]]", "unescaped ']'"),
        ("list<list<i64>>:[[1]", "an unclosed '['"),
        (r"list<str>:[a\b]", "unknown escape"),
        ("list<list<i64>>:[1]", "expected [ELEMENT, ...]"),
    ] {
        let e = parse_component(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
        assert!(!e.contains('\n'));
    }
}

/// Values that do not fit their field are refused with a clear error and
/// nothing written: an element of another type, a null element, a scalar
/// in a list field and a list in a scalar one, a depth past the limit.
#[test]
fn encode_refuses_values_that_do_not_fit() {
    let f = Field::asc(Type::I64).list_of(1);
    let bad = [
        Component::of(f, Value::list(Type::I64, vec![Value::from("x")])),
        Component::of(f, Value::list(Type::I64, vec![Value::Null(Type::I64)])),
        Component::of(f, Value::I64(1)),
        Component::of(
            f,
            Value::list(Type::I64, vec![Value::list(Type::I64, vec![])]),
        ),
        Component::of(Field::asc(Type::I64), Value::list(Type::I64, vec![])),
        Component::of(f.list_of(2), Value::list(Type::I64, vec![Value::I64(1)])),
        Component::of(
            f.list_of(MAX_LIST_DEPTH + 1),
            Value::list(Type::I64, vec![]),
        ),
        Component::of(
            f.list_of(MAX_LIST_DEPTH + 1).nullable(Nulls::First),
            Value::Null(Type::I64),
        ),
    ];
    for c in bad {
        for format in Format::ALL {
            let mut out = b"k".to_vec();
            let e = tuple::encode_into(format, std::slice::from_ref(&c), &mut out).unwrap_err();
            assert!(
                matches!(e, EncodeError::BadList { .. }),
                "{format} {c:?}: {e}"
            );
            assert_eq!(out, b"k");
        }
    }
    // A null in a list field without the `?`.
    let e = tuple::encode(Format::Hex, &[Component::of(f, Value::Null(Type::I64))]).unwrap_err();
    assert!(matches!(e, EncodeError::NotNullable { .. }), "{e}");
}

/// Bad keys: truncated and unterminated lists, a byte that is no marker,
/// a bad element, an unterminated string element, trailing bytes, a wrong
/// tag, a field nested past the limit — each a one-line error at the
/// offending byte.
#[test]
fn decode_errors_say_where() {
    let i64s = Field::asc(Type::I64).list_of(1);
    let strs = Field::asc(Type::Str).list_of(1);
    let nested = Field::asc(Type::I64).list_of(2);
    let cases: Vec<(Format, Field, &[u8], usize, &str)> = vec![
        (
            Format::Hex,
            i64s,
            b"a:l8000000000000001",
            19,
            "':' (a list element)",
        ),
        (Format::Hex, i64s, b"a", 1, "'.' (the end of the list)"),
        (Format::Hex, i64s, b"a:l8000000000000001,", 19, "trailing"),
        (Format::Hex, i64s, b"a:l80000000000000.", 17, "more digits"),
        (Format::Hex, i64s, b"a:l800000000000000G.", 18, ""),
        (Format::Hex, i64s, b"a.x", 2, "trailing"),
        (Format::Hex, i64s, b"l8000000000000001", 0, "'a' (list)"),
        (Format::Hex, strs, b"a:abc.", 6, "'!' ending"),
        (Format::Hex, strs, b"a:a%2!.", 5, "two hex digits"),
        (
            Format::Hex,
            nested,
            b"a:l",
            2,
            "'a' (a list element of a list)",
        ),
        (
            Format::Hex,
            nested,
            b"a:a:l8000000000000001.",
            22,
            "'.' (the end",
        ),
        (
            Format::Base64,
            Field::desc(Type::I64).list_of(1),
            b"A",
            1,
            "'~'",
        ),
        (Format::Decimal, i64s, b":1.", 2, "more decimal digits"),
        (
            Format::Binary,
            i64s,
            &[0x01, 0x80, 0, 0],
            4,
            "the rest of a fixed-width value",
        ),
        (
            Format::Binary,
            i64s,
            &[0x01, 0x80, 0, 0, 0, 0, 0, 0, 1],
            9,
            "01 (a list element) or 00",
        ),
        (
            Format::Binary,
            i64s,
            &[0x02],
            0,
            "01 (a list element) or 00",
        ),
        (
            Format::Binary,
            strs,
            &[0x01, b'a', 0x00],
            3,
            "01 (terminator)",
        ),
        (
            Format::Binary,
            Field::desc(Type::I64).list_of(1),
            &[0x00],
            0,
            "FE (a list element) or FF",
        ),
        (
            Format::Hex,
            Field::asc(Type::I64).list_of(9),
            b"a.",
            0,
            "at most 8 levels",
        ),
        (
            Format::Binary,
            Field::asc(Type::I64).list_of(9),
            &[0x00],
            0,
            "at most 8 levels",
        ),
        // A field too deep refuses even its null.
        (
            Format::Binary,
            Field::asc(Type::I64).list_of(9).nullable(Nulls::First),
            &[0x00],
            0,
            "at most 8 levels",
        ),
        (
            Format::Hex,
            Field::asc(Type::I64).list_of(9).nullable(Nulls::First),
            b"-",
            0,
            "at most 8 levels",
        ),
    ];
    let mut wrong = Vec::new();
    for (format, field, key, offset, says) in cases {
        let e = tuple::decode(format, key, Some(&[field])).unwrap_err();
        let text = e.to_string();
        if e.offset() != offset || !text.contains(says) || text.contains('\n') {
            wrong.push(format!(
                "{format} {:?}: {text}",
                String::from_utf8_lossy(key)
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    // A nullable list: a bad marker is the null module's error.
    let e = tuple::decode(Format::Hex, b"?a.", Some(&[i64s.nullable(Nulls::First)])).unwrap_err();
    assert!(
        matches!(e, DecodeError::InvalidSymbol { offset: 0, .. }),
        "{e}"
    );
}

/// Schemaless decoding does not guess lists: a string that looks like one
/// stays a string.
#[test]
fn schemaless_decoding_reads_list_keys_as_strings() {
    for key in [&b"a."[..], b"a:l8000000000000001.", b"AD1~"] {
        let back = tuple::decode(Format::Hex, key, None).unwrap();
        assert_eq!(
            back,
            vec![Component::asc(std::str::from_utf8(key).unwrap())]
        );
    }
}

/// `fixtures/lists.tsv`: `FORMAT<TAB>COMPONENT…<TAB>KEY` (binary keys as
/// lowercase hex); every line encodes to its key, its key decodes to its
/// components, and they print as the fixture's text.
#[test]
fn golden_vectors_both_ways() {
    let checked = check_golden_tsv("lists.tsv");
    assert!(checked >= 150, "only {checked} vectors");
}

/// The host layer (what every binding calls): a list column takes its
/// text (`[1, 2]`), its elements' column is one level less deep and
/// neither descending nor nullable, a null is the null of a nullable
/// list, and any other argument is refused naming the field.
#[test]
fn host_values_of_list_columns() {
    use lexikey::frontend::host::{list_element, native_value, Arg};
    use lexikey::frontend::native::{Col, GeoOpts};
    let geo = GeoOpts::new(None, None).unwrap();
    let col = Col::parse("list<list<i64>>?.desc").unwrap();
    assert_eq!(list_element(&col).to_string(), "list<i64>");
    assert_eq!(list_element(&list_element(&col)).to_string(), "i64");
    let one = Value::list(Type::I64, vec![Value::I64(1)]);
    assert_eq!(
        native_value(&col, Arg::Str("[[1], []]"), &geo).unwrap(),
        Value::list(Type::I64, vec![one, Value::list(Type::I64, vec![])])
    );
    assert_eq!(
        native_value(&col, Arg::Null, &geo).unwrap(),
        Value::Null(Type::I64)
    );
    for bad in [Arg::Int(1), Arg::Other, Arg::Str("[1]")] {
        let e = native_value(&col, bad, &geo).unwrap_err().to_string();
        assert!(e.contains("list<"), "{bad:?}: {e}");
    }
}
