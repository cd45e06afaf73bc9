//! Nullable components (`TYPE?`, `.nulls_last`; `lexikey::format::null`):
//! order, round trip and canonical decode in every format and direction,
//! nulls first and last, alone and inside composite keys with every other
//! type; the present value is the marker and the unchanged bytes of the
//! non-nullable component; the golden vectors of `fixtures/nulls.tsv`,
//! both ways; `is-null` / `not-null` ranges; bad input.

mod common;

use common::*;
use lexikey::format::null;
use lexikey::range::{KeyRange, Pred, RangeError, RangeQuery};
use lexikey::value::literal::{component_to_string, parse_component};
use lexikey::{tuple, Component, DecodeError, Dir, EncodeError, Field, Format, Nulls, Type, Value};
use proptest::prelude::*;

/// Which rows a range must hold.
type Keep<'a> = Box<dyn Fn(&Component<'_>) -> bool + 'a>;

/// A field of any type `format` supports, nullable or not (half of them).
fn any_field(format: Format) -> impl Strategy<Value = Field> {
    (every_type(), dirs(), prop::option::weighted(0.5, nulls()))
        .prop_filter("format supports type", move |(t, _, _)| {
            supports(format, *t)
        })
        .prop_map(|(ty, dir, nulls)| Field {
            ty,
            dir,
            width: None,
            nulls,
            list: 0,
        })
}

/// A value of `field`: a null a third of the time when it is nullable.
fn cell(field: Field) -> BoxedStrategy<Component<'static>> {
    let value = value_of(field.ty);
    let v = if field.nulls.is_some() {
        prop_oneof![1 => Just(Value::Null(field.ty)), 2 => value].boxed()
    } else {
        value
    };
    v.prop_map(move |v| Component::of(field, v)).boxed()
}

/// A schema of 1–4 fields, at least one nullable, and two rows of it.
fn mixed_rows(
    format: Format,
) -> impl Strategy<Value = (Vec<Component<'static>>, Vec<Component<'static>>)> {
    (
        prop::collection::vec(any_field(format), 0..4),
        any_field(format),
        nulls(),
        0usize..4,
    )
        .prop_flat_map(|(mut fields, f, n, at)| {
            fields.insert(at.min(fields.len()), f.nullable(n));
            let row = fields.iter().map(|&f| cell(f)).collect::<Vec<_>>();
            (row.clone(), row)
        })
}

proptest! {
    #![proptest_config(config())]

    /// One nullable component: value order (nulls where the field says,
    /// whatever the direction) ⇔ key order, and the key decodes back, in
    /// every format; a present value's key is the marker and the key the
    /// same component has without the `?`.
    #[test]
    fn order_and_round_trip_alone(
        (field, a, b) in (every_type(), dirs(), nulls())
            .prop_map(|(ty, dir, n)| Field { ty, dir, width: None, nulls: Some(n), list: 0 })
            .prop_flat_map(|f| (Just(f), cell(f), cell(f))),
    ) {
        for format in Format::ALL.into_iter().filter(|f| supports(*f, field.ty)) {
            let (ka, kb) = (enc(format, std::slice::from_ref(&a)), enc(format, std::slice::from_ref(&b)));
            prop_assert_eq!(ka.cmp(&kb), a.key_cmp(&b), "{} {:?} {:?}", format, a, b);
            prop_assert_eq!(ka == kb, a == b);
            // Where the null goes, explicitly.
            if a.is_null() && !b.is_null() {
                prop_assert_eq!(ka < kb, field.nulls == Some(Nulls::First), "{} {:?}", format, b);
            }
            let back = tuple::decode(format, &ka, Some(&[field])).unwrap();
            prop_assert_eq!(&back, &vec![a.clone()]);
            prop_assert_eq!(enc(format, &back), ka.clone());
            let plain = Component { nulls: None, ..a.clone() };
            if !a.is_null() {
                let mut want = vec![null::marker(format, field.nulls.unwrap(), false)];
                want.extend(enc(format, &[plain]));
                prop_assert_eq!(&ka, &want);
            } else {
                prop_assert_eq!(ka, vec![null::marker(format, field.nulls.unwrap(), true)]);
                // A null in the same field without the `?` is refused.
                let refused = matches!(
                    tuple::encode(format, &[plain]),
                    Err(EncodeError::NotNullable { .. })
                );
                prop_assert!(refused, "{} {:?}", format, a);
            }
        }
    }

    /// Nullable components mixed with every other type (nullable or not),
    /// both directions, nulls first and last, in composite keys: tuple
    /// order ⇔ key order, round trip through the schema, and a row's
    /// prefix sorts before it.
    #[test]
    fn order_and_round_trip_in_composite_keys(
        (format, (a, b)) in formats().prop_flat_map(|f| (Just(f), mixed_rows(f))),
    ) {
        check_composite_rows(format, &a, &b)?;
    }

    /// Canonical decode: a key with one byte replaced, dropped or added
    /// either decodes to components whose key it is exactly, or is
    /// refused with an offset inside the key, in every format.
    #[test]
    fn decode_is_canonical(
        (format, (row, _)) in formats().prop_flat_map(|f| (Just(f), mixed_rows(f))),
        at in any::<prop::sample::Index>(),
        with in prop::sample::select(b"\x00\x01\x02\x03\xFE\xFF-=_^>$#~%0lL".to_vec()),
        how in 0..3u8,
    ) {
        check_edited_key(format, &row, at, with, how)?;
    }

    /// `is-null`, `not-null` and the comparisons on a nullable component
    /// after a fixed prefix: the range holds exactly the keys of the rows
    /// that match (SQL: a comparison is never true of a null), in every
    /// format, direction and null order.
    #[test]
    fn null_ranges_hold_exactly_the_matching_keys(
        (format, field, rows, op, bound) in (formats(), every_type(), dirs(), nulls())
            .prop_filter("format supports type", |(f, t, _, _)| supports(*f, *t))
            .prop_flat_map(|(format, ty, dir, n)| {
                let field = Field { ty, dir, width: None, nulls: Some(n), list: 0 };
                let row = (prop::sample::select(vec!["a", "b"]), cell(field), prop::option::of(any::<bool>()));
                (
                    Just(format),
                    Just(field),
                    prop::collection::vec(row, 1..12),
                    0..6u8,
                    value_of(ty),
                )
            }),
    ) {
        let prefix = [Component::asc("b")];
        let null = Component::of(field, Value::Null(field.ty));
        let bound = Component::of(field, bound);
        let q = RangeQuery::new(format).prefix(&prefix);
        let (q, keep): (RangeQuery<'_>, Keep<'_>) = match op {
            0 => (q.is_null(null.clone()), Box::new(|c: &Component<'_>| c.is_null())),
            1 => (q.not_null(null.clone()), Box::new(|c: &Component<'_>| !c.is_null())),
            2 => (q.ge(bound.clone()), Box::new(|c: &Component<'_>| !c.is_null() && c.value >= bound.value)),
            3 => (q.lt(bound.clone()), Box::new(|c: &Component<'_>| !c.is_null() && c.value < bound.value)),
            4 => (q.eq(bound.clone()), Box::new(|c: &Component<'_>| !c.is_null() && c.value == bound.value)),
            _ => (q.gt(bound.clone()), Box::new(|c: &Component<'_>| !c.is_null() && c.value > bound.value)),
        };
        let range = match q.build() {
            Ok(r) => r,
            Err(RangeError::Empty) => KeyRange { start: Some(vec![1]), end: Some(vec![1]) },
            Err(e) => return Err(TestCaseError::fail(e.to_string())),
        };
        for (p, c, more) in rows {
            let mut comps = vec![Component::asc(p), c.clone()];
            if let Some(m) = more {
                comps.push(Component::asc(m));
            }
            let key = enc(format, &comps);
            let want = p == "b" && keep(&c);
            prop_assert_eq!(range.contains(&key), want, "{} {:?} {:?} {:?}", format, range, comps, op);
        }
    }

    /// `prefix` on a nullable `str?` component after a fixed prefix: the
    /// range holds exactly the keys of the rows whose value is present and
    /// starts with the text (never a null), in every format, direction and
    /// null order, whether the schema says the component is nullable or a
    /// `not-null` beside the prefix does.
    #[test]
    fn str_prefix_on_a_nullable_str_holds_exactly_the_matching_keys(
        format in formats(),
        dir in dirs(),
        n in nulls(),
        by_schema in any::<bool>(),
        text in "[ab%#\\x00\u{e9}]{0,3}",
        rows in prop::collection::vec(
            (
                prop::sample::select(vec!["a", "b", "b#", ""]),
                prop::option::weighted(0.7, "[ab%#\\x00\u{e9}]{0,5}"),
                prop::option::of(any::<i64>()),
            ),
            1..16,
        ),
    ) {
        let field = Field { ty: Type::Str, dir, width: None, nulls: Some(n), list: 0 };
        let schema = [Field::asc(Type::Str), field];
        let prefix = [Component::asc("b")];
        let q = RangeQuery::new(format).prefix(&prefix).str_prefix(&text, dir);
        let q = if by_schema {
            q.fields(&schema)
        } else {
            q.not_null(Component::of(field, Value::Null(Type::Str)))
        };
        let range = q.build().map_err(|e| TestCaseError::fail(e.to_string()))?;
        for (p, v, more) in rows {
            let c = match &v {
                Some(s) => Component::of(field, s.clone()),
                None => Component::of(field, Value::Null(Type::Str)),
            };
            let mut comps = vec![Component::asc(p), c];
            if let Some(m) = more {
                comps.push(Component::asc(m));
            }
            let key = enc(format, &comps);
            let want = p == "b" && v.as_deref().is_some_and(|s| s.starts_with(text.as_str()));
            prop_assert_eq!(range.contains(&key), want, "{} {:?} {:?} {:?}", format, range, comps, text);
        }
    }
}

/// The spellings: `TYPE?`, `.desc`, `.nulls_last` (also `.asc`,
/// `.nulls_first`) parse, print and parse back; `.nulls_*` needs the `?`.
#[test]
fn schema_spellings() {
    let cases = [
        ("i64?", Field::asc(Type::I64).nullable(Nulls::First), "i64?"),
        (
            "str,i64?",
            Field::asc(Type::I64).nullable(Nulls::First),
            "i64?",
        ),
        (
            "i64?.desc",
            Field::desc(Type::I64).nullable(Nulls::First),
            "i64?.desc",
        ),
        (
            "i64?.nulls_last",
            Field::asc(Type::I64).nullable(Nulls::Last),
            "i64?.nulls_last",
        ),
        (
            "i64?.desc.nulls_last",
            Field::desc(Type::I64).nullable(Nulls::Last),
            "i64?.desc.nulls_last",
        ),
        (
            "ts?.asc.nulls_first",
            Field::asc(Type::Ts).nullable(Nulls::First),
            "ts?",
        ),
    ];
    for (text, want, shown) in cases {
        let schema = Field::parse_schema(text).unwrap();
        let f = *schema.last().unwrap();
        assert_eq!(f, want, "{text}");
        assert_eq!(f.to_string(), shown);
        assert_eq!(Field::parse(shown), Ok(f));
    }
    for bad in [
        "i64.nulls_last",
        "i64?.nulls_last.desc",
        "i64?.last",
        "i64??",
        "?",
    ] {
        let e = Field::parse(bad).unwrap_err().to_string();
        assert!(!e.contains('\n') && !e.is_empty(), "{bad}: {e}");
    }
    // The existing messages stay.
    assert_eq!(
        Field::parse("i64.up").unwrap_err().to_string(),
        "unknown direction \"up\" in \"i64.up\": expected 'asc' or 'desc'"
    );
}

/// The component syntax: a bare nullable type is its null, `TYPE?:VALUE`
/// a present value; a bare non-nullable type is still refused.
#[test]
fn component_spelling() {
    let c = parse_component("i64?.desc.nulls_last").unwrap();
    assert_eq!(c.value, Value::Null(Type::I64));
    assert_eq!(c.field(), Field::desc(Type::I64).nullable(Nulls::Last));
    assert_eq!(component_to_string(&c), "i64?.desc.nulls_last");
    let c = parse_component("str?:a:b").unwrap();
    assert_eq!(c.value, Value::from("a:b"));
    assert_eq!(component_to_string(&c), "str?:a:b");
    assert!(parse_component("i64").is_err());
}

/// `fixtures/nulls.tsv`: `FORMAT<TAB>COMPONENT…<TAB>KEY` (binary keys as
/// lowercase hex); every line encodes to its key, its key decodes to its
/// components, and they print as the fixture's text.
#[test]
fn golden_vectors_both_ways() {
    let checked = check_golden_tsv("nulls.tsv");
    assert!(checked >= 400, "only {checked} vectors");
}

/// Bad input: a wrong marker, a marker of the other null order, bytes
/// after a null, a missing marker, a null where none is allowed: each a
/// clear one-line error at the right offset.
#[test]
fn bad_input_errors_with_offsets() {
    let first = Field::asc(Type::I64).nullable(Nulls::First);
    let last = Field::desc(Type::Str).nullable(Nulls::Last);
    let dec = |format, fields: &[Field], k: &[u8]| {
        let e = tuple::decode(format, k, Some(fields)).unwrap_err();
        assert!(!e.to_string().contains('\n'));
        e
    };
    // Text: the other order's null marker, an unknown marker, a value
    // with no marker, bytes after a null.
    assert!(matches!(
        dec(Format::Hex, &[first], b"_"),
        DecodeError::InvalidSymbol {
            offset: 0,
            found: b'_',
            ..
        }
    ));
    assert!(matches!(
        dec(Format::Hex, &[last], b"-"),
        DecodeError::InvalidSymbol { offset: 0, .. }
    ));
    assert!(matches!(
        dec(Format::Hex, &[first], b"l8000000000000005"),
        DecodeError::InvalidSymbol { offset: 0, .. }
    ));
    assert!(matches!(
        dec(Format::Base64, &[first], b"-x"),
        DecodeError::TrailingBytes { offset: 1 }
    ));
    // In the second part of a key: offsets count from the key's start.
    let two = [Field::asc(Type::Str), first];
    assert!(matches!(
        dec(Format::Decimal, &two, b"ab#+"),
        DecodeError::InvalidSymbol { offset: 3, .. }
    ));
    assert!(matches!(
        dec(Format::Hex, &two, b"ab#=l80"),
        DecodeError::Truncated { .. }
    ));
    // Binary: 02 in a nulls-first field, 00 in a nulls-last one, no byte.
    assert!(matches!(
        dec(Format::Binary, &[first], &[0x02]),
        DecodeError::InvalidSymbol {
            offset: 0,
            found: 2,
            ..
        }
    ));
    assert!(matches!(
        dec(
            Format::Binary,
            &[Field::asc(Type::Bool), last],
            &[0x01, 0x00]
        ),
        DecodeError::InvalidSymbol { offset: 1, .. }
    ));
    assert!(matches!(
        dec(Format::Binary, &[first], &[0x00, 0x00]),
        DecodeError::TrailingBytes { offset: 1 }
    ));
    assert!(matches!(
        dec(Format::Binary, &[first], &[0x01, 0x80, 0, 0, 0, 0, 0, 0]),
        DecodeError::Truncated { .. }
    ));
    // A null in a field without the `?`: refused when encoding, with the
    // spelling that allows it.
    let e = tuple::encode(Format::Hex, &[Component::asc(Value::Null(Type::I64))]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a null in a non-nullable i64 component (a nullable one is written i64?)"
    );
    // A field without the `?` reads no marker: "-" is not an i64.
    assert!(tuple::decode(Format::Hex, b"-", Some(&[Field::asc(Type::I64)])).is_err());
}

/// `is-null` and `not-null` bounds, exactly, in a text and the binary
/// format; and the predicates that make no sense are refused.
#[test]
fn null_predicate_bounds() {
    let f = Field::desc(Type::I64).nullable(Nulls::Last);
    let null = Component::of(f, Value::Null(Type::I64));
    let prefix = [Component::asc("p")];
    let q = || RangeQuery::new(Format::Hex).prefix(&prefix);
    let r = q().is_null(null.clone()).build().unwrap();
    assert_eq!(
        (r.start.as_deref(), r.end.as_deref()),
        (Some(&b"p#_"[..]), Some(&b"p#_$"[..]))
    );
    let r = q().not_null(null.clone()).build().unwrap();
    assert_eq!(
        (r.start.as_deref(), r.end.as_deref()),
        (Some(&b"p#="[..]), Some(&b"p#>"[..]))
    );
    let b = || RangeQuery::new(Format::Binary).prefix(&prefix);
    let r = b().is_null(null.clone()).build().unwrap();
    assert_eq!(
        (r.start.as_deref(), r.end.as_deref()),
        (Some(&b"p\x00\x01\x02"[..]), Some(&b"p\x00\x01\x03"[..]))
    );
    let r = b().not_null(null.clone()).build().unwrap();
    assert_eq!(
        (r.start.as_deref(), r.end.as_deref()),
        (Some(&b"p\x00\x01\x01"[..]), Some(&b"p\x00\x01\x02"[..]))
    );
    // is-null and not-null together: nothing.
    assert!(matches!(
        q().is_null(null.clone()).not_null(null.clone()).build(),
        Err(RangeError::Empty)
    ));
    // A comparison with a null, is-null on a field without the `?`, and a
    // schema whose field is not nullable: refused.
    for (p, want) in [
        (Pred::Ge(null.clone()), "compares with a null"),
        (
            Pred::IsNull(Component::asc(Value::Null(Type::I64))),
            "needs a nullable component",
        ),
        (
            Pred::NotNull(Component::of(f, 5_i64)),
            "names its component by its null",
        ),
    ] {
        let e = q().pred(p).build().unwrap_err().to_string();
        assert!(e.contains(want), "{e}");
    }
    let schema = [Field::asc(Type::Str), Field::desc(Type::I64)];
    let e = q()
        .fields(&schema)
        .is_null(null.clone())
        .build()
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "the is-null predicate is an i64?.desc.nulls_last (null), but field 2 of the schema is an i64.desc"
    );
    let _ = Dir::Asc;
}
