//! `decode --values` closes the round trip: for random keys of every native
//! format (every type, ascending and descending, `.desc` strings included),
//! `lexikey decode --stdin --schema S --values | lexikey encode --stdin
//! --schema S` gives back the input keys byte for byte.

mod common;

use std::borrow::Cow;

use lexikey::{tuple, Component, Dec, Dir, Format, Value};
use proptest::prelude::*;

use common::ok_with;

const TYPES: &[&str] = &[
    "str", "i64", "u64", "i32", "u32", "f64", "f32", "bool", "bytes", "ts", "uuid", "dec",
];

/// A string without the two bytes the line-oriented text cannot hold.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just('a'),
            Just('%'),
            Just('#'),
            Just('$'),
            Just(' '),
            Just('~'),
            Just('\u{1}'),
            Just('\r'),
            Just('é'),
            Just('\u{10FFFF}'),
            any::<char>().prop_filter("no tab or newline", |c| *c != '\t' && *c != '\n'),
        ],
        0..8,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn value(ty: &'static str) -> BoxedStrategy<Value<'static>> {
    match ty {
        "str" => text().prop_map(|s| Value::Str(Cow::Owned(s))).boxed(),
        "i64" => any::<i64>().prop_map(Value::I64).boxed(),
        "u64" => any::<u64>().prop_map(Value::U64).boxed(),
        "i32" => any::<i32>().prop_map(Value::I32).boxed(),
        "u32" => any::<u32>().prop_map(Value::U32).boxed(),
        "f64" => prop_oneof![
            any::<f64>(),
            Just(f64::NAN),
            Just(-0.0),
            Just(f64::INFINITY),
            Just(f64::MIN_POSITIVE / 4.0)
        ]
        .prop_map(Value::F64)
        .boxed(),
        "f32" => prop_oneof![any::<f32>(), Just(f32::NEG_INFINITY), Just(1e-45_f32)]
            .prop_map(Value::F32)
            .boxed(),
        "bool" => any::<bool>().prop_map(Value::Bool).boxed(),
        "bytes" => proptest::collection::vec(any::<u8>(), 0..6)
            .prop_map(|b| Value::Bytes(Cow::Owned(b)))
            .boxed(),
        "ts" => (-62_135_596_800_000_i64..253_402_300_799_999)
            .prop_map(Value::Ts)
            .boxed(),
        "uuid" => any::<u128>().prop_map(Value::Uuid).boxed(),
        _ => (any::<i64>(), -40_i32..40)
            .prop_map(|(m, e)| {
                let text = format!("{m}e{e}");
                Value::Dec(Dec::parse(&text).expect("a decimal"))
            })
            .boxed(),
    }
}

/// A schema (types and directions) and rows of values for it.
fn case() -> impl Strategy<Value = (Vec<(&'static str, bool)>, Vec<Vec<Value<'static>>>)> {
    proptest::collection::vec((proptest::sample::select(TYPES), any::<bool>()), 1..4).prop_flat_map(
        |schema| {
            let row: Vec<_> = schema.iter().map(|(t, _)| value(t)).collect();
            (Just(schema), proptest::collection::vec(row, 1..12))
        },
    )
}

fn roundtrip(format: Format, schema: &[(&str, bool)], rows: &[Vec<Value<'static>>]) {
    let spec: Vec<String> = schema
        .iter()
        .map(|(t, d)| format!("{t}{}", if *d { ".desc" } else { "" }))
        .collect();
    let spec = spec.join(",");
    let mut input = String::new();
    for row in rows {
        let comps: Vec<Component<'_>> = row
            .iter()
            .zip(schema)
            .map(|(v, (_, d))| Component {
                value: v.clone(),
                dir: if *d { Dir::Desc } else { Dir::Asc },
                width: None,
                nulls: None,
                list: 0,
            })
            .collect();
        // Types a format cannot hold (decimal: floats, bytes, ...) are not keys.
        let Ok(key) = tuple::encode(format, &comps) else {
            continue;
        };
        if format.is_text() {
            input.push_str(std::str::from_utf8(&key).expect("text keys are UTF-8"));
        } else {
            input.push_str(&lexikey::to_hex(&key));
        }
        input.push('\n');
    }
    if input.is_empty() {
        return;
    }
    let name = format.name();
    let values = ok_with(
        &[
            "decode", "--stdin", "--format", name, "--schema", &spec, "--values",
        ],
        input.as_bytes(),
    );
    let back = ok_with(
        &["encode", "--stdin", "--format", name, "--schema", &spec],
        values.as_bytes(),
    );
    assert_eq!(
        back, input,
        "format {name}, schema {spec}, values {values:?}"
    );
}

proptest! {
    // Each case runs two processes per format.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn decode_values_encode_gives_the_keys_back((schema, rows) in case()) {
        for format in [Format::Hex, Format::Base64, Format::Decimal, Format::Binary] {
            roundtrip(format, &schema, &rows);
        }
    }
}

/// Nullable fields (`TYPE?`, `.desc`, `.nulls_last`) and rows with nulls:
/// values that are backslashes and `N` (the null's spelling, escaped), the
/// empty string, and the rest of `text()`.
fn nullable_case() -> impl Strategy<Value = (Vec<lexikey::Field>, Vec<Vec<Value<'static>>>)> {
    let field = (
        proptest::sample::select(TYPES),
        any::<bool>(),
        proptest::option::of(any::<bool>()),
    );
    proptest::collection::vec(field, 1..4).prop_flat_map(|fields| {
        let fields: Vec<lexikey::Field> = fields
            .into_iter()
            .map(|(t, d, n)| {
                let spec = format!(
                    "{t}{}{}{}",
                    if n.is_some() { "?" } else { "" },
                    if d { ".desc" } else { "" },
                    if n == Some(true) { ".nulls_last" } else { "" }
                );
                lexikey::Field::parse(&spec).expect("a field")
            })
            .collect();
        let row: Vec<_> = fields
            .iter()
            .map(|f| {
                let ty = TYPES
                    .iter()
                    .copied()
                    .find(|t| *t == f.ty.to_string())
                    .expect("a listed type");
                let v = if f.ty == lexikey::Type::Str {
                    prop_oneof![
                        3 => value(ty),
                        1 => proptest::sample::select(vec!["\\N", "\\\\N", "N", "\\", "\\n", ""])
                            .prop_map(|s| Value::Str(Cow::Borrowed(s))),
                    ]
                    .boxed()
                } else {
                    value(ty)
                };
                if f.nulls.is_some() {
                    let ty = f.ty;
                    prop_oneof![1 => Just(Value::Null(ty)), 2 => v].boxed()
                } else {
                    v
                }
            })
            .collect();
        (Just(fields), proptest::collection::vec(row, 1..10))
    })
}

/// The keys `encode --stdin` prints for `rows` written as cells (a null as
/// `\N`, a value that is backslashes and `N` with one more backslash, the
/// rule of `lexikey::frontend::native::nullable_cell`, written out here
/// independently) equal the library's keys of the same rows, byte for
/// byte, and `decode --values` gives those cells back. Rows a format cannot
/// hold are left out.
fn nullable_rows(format: Format, fields: &[lexikey::Field], rows: &[Vec<Value<'static>>]) {
    let spec: Vec<String> = fields.iter().map(ToString::to_string).collect();
    let spec = spec.join(",");
    let (mut input, mut keys) = (String::new(), String::new());
    for row in rows {
        let comps: Vec<Component<'_>> = row
            .iter()
            .zip(fields)
            .map(|(v, f)| Component::of(*f, v.clone()))
            .collect();
        let Ok(key) = tuple::encode(format, &comps) else {
            continue;
        };
        let cells: Vec<String> = comps
            .iter()
            .map(|c| {
                if c.is_null() {
                    return "\\N".to_string();
                }
                let text = lexikey::value::literal::value_to_string(&c.value);
                let backslashes_n = text.len() > 1
                    && text.ends_with('N')
                    && text[..text.len() - 1].bytes().all(|b| b == b'\\');
                if c.nulls.is_some() && backslashes_n {
                    format!("\\{text}")
                } else {
                    text
                }
            })
            .collect();
        input.push_str(&cells.join("\t"));
        input.push('\n');
        if format.is_text() {
            keys.push_str(std::str::from_utf8(&key).expect("text keys are UTF-8"));
        } else {
            keys.push_str(&lexikey::to_hex(&key));
        }
        keys.push('\n');
    }
    if input.is_empty() {
        return;
    }
    let name = format.name();
    let got = ok_with(
        &["encode", "--stdin", "--format", name, "--schema", &spec],
        input.as_bytes(),
    );
    assert_eq!(got, keys, "format {name}, schema {spec}, cells {input:?}");
    let values = ok_with(
        &[
            "decode", "--stdin", "--format", name, "--schema", &spec, "--values",
        ],
        keys.as_bytes(),
    );
    assert_eq!(values, input, "format {name}, schema {spec}");
}

proptest! {
    // Each case runs two processes per format: 16 cases at CI size, 200 at
    // LEXIKEY_TEST_SIZE=full.
    #![proptest_config(ProptestConfig::with_cases(common::size::pick(16, 200)))]

    /// TSV cells with nulls (`\N`) encode to the library's keys of the same
    /// rows, and `decode --values` writes the same cells back.
    #[test]
    fn tsv_nulls_encode_as_the_library_does((fields, rows) in nullable_case()) {
        for format in [Format::Hex, Format::Base64, Format::Decimal, Format::Binary] {
            nullable_rows(format, &fields, &rows);
        }
    }
}

/// `\N` is the null of a nullable field only: in a `str` field without
/// the `?` it is the two characters, and an empty cell of a `str?` is the
/// empty string, not a null.
#[test]
fn the_null_cell_is_for_nullable_fields_only() {
    let keys = ok_with(
        &["encode", "--stdin", "--schema", "str,str?,str?.nulls_last"],
        b"\\N\t\\N\t\n\\N\t\\\\N\t\\N\n",
    );
    assert_eq!(keys, "\\N#-#=\n\\N#=\\N#_\n");
    let err = common::fails_with(&["encode", "--stdin", "--schema", "i64"], b"\\N\n");
    assert!(err.contains("line 1"), "{err}");
}

/// The example: a `.desc` string shows its value with the schema.
#[test]
fn desc_strings_show_their_values() {
    let keys = ok_with(
        &["encode", "--stdin", "--schema", "str,i64,str.desc"],
        b"san francisco\t5\tab\n",
    );
    let values = ok_with(
        &[
            "decode",
            "--stdin",
            "--schema",
            "str,i64,str.desc",
            "--values",
        ],
        keys.as_bytes(),
    );
    assert_eq!(values, "san francisco\t5\tab\n");
    let back = ok_with(
        &["encode", "--stdin", "--schema", "str,i64,str.desc"],
        values.as_bytes(),
    );
    assert_eq!(back, keys);
    let json = ok_with(
        &[
            "decode",
            "--stdin",
            "--schema",
            "str,i64,str.desc",
            "--output",
            "json",
        ],
        keys.as_bytes(),
    );
    assert!(json.starts_with("{\"components\":["), "{json}");
}
