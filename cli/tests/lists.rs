//! `list<T>` components on the command line: `lexikey encode
//! 'list<i64>:[1,2,3]'` writes the library's key; for random rows of
//! schemas with list fields (nested, descending, nullable, next to scalar
//! fields), `decode --stdin --schema S --values | encode --stdin --schema S`
//! gives back the keys byte for byte in every format (lists that are not
//! nullable: `--values` has no spelling of a null), and `decode`'s
//! `TYPE:VALUE` output encodes back to the key; bad list input is one line
//! on stderr and exit status 2.

mod common;

use lexikey::{tuple, Component, Field, Format, Type, Value};
use proptest::prelude::*;

use common::{fails, ok, ok_with};

/// A string without the bytes the line-oriented text cannot hold, heavy
/// in the list syntax's own characters.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just('a'),
            Just(','),
            Just('['),
            Just(']'),
            Just('\\'),
            Just(' '),
            Just(':'),
            Just('!'),
            Just('.'),
            Just('#'),
            Just('%'),
            Just('é'),
            any::<char>().prop_filter("no tab, newline or NUL (argv)", |c| !matches!(
                *c,
                '\t' | '\n' | '\0'
            )),
        ],
        0..5,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn scalar(ty: Type) -> BoxedStrategy<Value<'static>> {
    match ty {
        Type::Str => text().prop_map(Value::from).boxed(),
        Type::I64 => any::<i64>().prop_map(Value::I64).boxed(),
        Type::Bytes => proptest::collection::vec(any::<u8>(), 0..4)
            .prop_map(Value::from)
            .boxed(),
        Type::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        _ => any::<u32>().prop_map(Value::U32).boxed(),
    }
}

fn list(ty: Type, depth: u8) -> BoxedStrategy<Value<'static>> {
    let elem = if depth > 1 {
        list(ty, depth - 1)
    } else {
        scalar(ty)
    };
    proptest::collection::vec(elem, 0..4)
        .prop_map(move |items| Value::list(ty, items))
        .boxed()
}

/// A schema text (a list field between two scalars) and rows for it.
fn case() -> impl Strategy<Value = (Vec<Field>, Vec<Vec<Component<'static>>>)> {
    (
        proptest::sample::select(vec![
            Type::Str,
            Type::I64,
            Type::Bytes,
            Type::Bool,
            Type::U32,
        ]),
        1u8..=2,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_flat_map(|(ty, depth, desc, nullable)| {
            let mut f = if desc {
                Field::desc(ty)
            } else {
                Field::asc(ty)
            }
            .list_of(depth);
            if nullable {
                f = f.nullable(lexikey::Nulls::Last);
            }
            let schema = vec![Field::asc(Type::Str), f, Field::asc(Type::I64)];
            let value = if nullable {
                prop_oneof![3 => list(ty, depth), 1 => Just(Value::Null(ty))].boxed()
            } else {
                list(ty, depth)
            };
            let row = (text(), value, any::<i64>()).prop_map(move |(s, v, n)| {
                vec![Component::asc(s), Component::of(f, v), Component::asc(n)]
            });
            (Just(schema), proptest::collection::vec(row, 1..6))
        })
}

proptest! {
    // Each case runs up to 2 + rows processes per format.
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn values_and_components_read_back((schema, rows) in case()) {
        let spec = schema.iter().map(Field::to_string).collect::<Vec<_>>().join(",");
        for format in Format::ALL {
            let name = format.name();
            let mut input = String::new();
            for row in &rows {
                let key = tuple::encode(format, row).unwrap();
                if format.is_text() {
                    input.push_str(std::str::from_utf8(&key).unwrap());
                } else {
                    input.push_str(&lexikey::to_hex(&key));
                }
                input.push('\n');
            }
            let decode = ["decode", "--stdin", "--format", name, "--schema", &spec];
            // `--values` has no spelling of a null (as for every nullable
            // type): the bare values of lists that are not nullable.
            if schema[1].nulls.is_none() {
                let values = ok_with(&[&decode[..], &["--values"]].concat(), input.as_bytes());
                let back = ok_with(&["encode", "--stdin", "--format", name, "--schema", &spec], values.as_bytes());
                prop_assert_eq!(&back, &input, "{} {} {:?}", name, spec, values);
            }
            // The TYPE:VALUE lines, one key's components per line.
            let comps = ok_with(&decode, input.as_bytes());
            for (line, key) in comps.lines().zip(input.lines()) {
                let args: Vec<&str> = ["encode", "--format", name]
                    .into_iter()
                    .chain(line.split('\t'))
                    .collect();
                let again = ok(&args);
                prop_assert_eq!(again.trim_end(), key, "{} {:?}", name, line);
            }
        }
    }
}

#[test]
fn encode_writes_the_library_key_and_refuses_bad_lists() {
    assert_eq!(
        ok(&["encode", "list<i64>:[1,2,3]"]),
        "a:l8000000000000001:l8000000000000002:l8000000000000003.\n"
    );
    assert_eq!(
        ok(&["encode", "str:usa", r"list<str>:[a\,b, c]"]),
        "usa#a:a,b!:c!.\n"
    );
    assert_eq!(
        ok(&[
            "decode",
            "--schema",
            "list<list<i64>>",
            "a:a:l8000000000000001.:a.."
        ]),
        "list<list<i64>>:[[1], []]\n"
    );
    for (args, says) in [
        (
            &["encode", "list<i64?>:[1]"][..],
            "list elements are not nullable",
        ),
        (&["encode", "list<i64>:[1, x]"], "element 1"),
        (&["encode", "list<i64>:5"], "expected [ELEMENT, ...]"),
        (
            &["decode", "--schema", "list<i64>", "a:l8000000000000001"],
            "byte 19",
        ),
        (&["decode", "--schema", "list<str>", "a:abc."], "'!' ending"),
    ] {
        let err = fails(args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
