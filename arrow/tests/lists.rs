//! List fields (`list<…>`, depths 1 to 3) from Arrow `List`, `LargeList`
//! and `FixedSizeList` columns, per native format: for random schemas
//! mixing list fields (element kinds `i64`, `str`, `bytes`, `f64`, `bool`,
//! `ts`, `uuid`, `dec`; ascending and descending; nullable, nulls first
//! and last) with scalar fields, sliced arrays and sliced element
//! columns, the keys are exactly the row path's (each row's components
//! made as a binding makes them: [`KeySpec::field`] for a scalar, a
//! [`Value::List`] of [`KeySpec::typed`] elements for a list, written by
//! [`KeySpec::encode`]), and decoding the keys gives the columns back.
//! Then bad input: a null element, a wrong element type, lists deeper
//! than the field or than [`MAX_LIST_DEPTH`].

mod common;
#[path = "../../tests/support/size.rs"]
mod size;

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, FixedSizeListArray, Int64Array, LargeListArray, ListArray, RecordBatch,
    StringArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, FieldRef};
use common::{array, err, owned_arg, AKind, Cell};
use lexikey::frontend::host::{list_element, ColType};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::{Comp, KeySpec};
use lexikey::value::MAX_LIST_DEPTH;
use lexikey::{Component, Value};
use lexikey_arrow::{decode_array, decoded_schema, encode_arrays, encode_batch};
use proptest::prelude::*;

use AKind as K;

/// An element type and the Arrow element columns generated for it.
const ELEMS: &[(&str, &[AKind])] = &[
    ("i64", &[K::I64, K::I32, K::U32]),
    ("str", &[K::Utf8, K::LargeUtf8, K::Utf8View]),
    ("bytes", &[K::Bin, K::LargeBin]),
    ("f64", &[K::F64, K::F32]),
    ("bool", &[K::Bool]),
    ("ts", &[K::TsMs, K::Date32]),
    ("uuid", &[K::Uuid]),
    ("dec", &[K::Dec128(2), K::I64]),
];

/// Scalar fields mixed in.
const SCALARS: &[(&str, AKind)] = &[("str", K::Utf8), ("i64", K::I64), ("f64.desc", K::F64)];

/// The Arrow list type of one level.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Level {
    List,
    Large,
    /// `FixedSizeList` of this many elements.
    Fixed(usize),
}

/// A generated value: a scalar cell or a list (`None`: a null list).
#[derive(Debug, Clone)]
enum V {
    Scalar(Cell),
    List(Option<Vec<V>>),
}

/// A generated column.
#[derive(Debug, Clone)]
struct Col {
    /// The field in the schema's syntax.
    ty: String,
    /// The element kind (the scalar's kind for a scalar field).
    kind: AKind,
    /// The list levels, outermost first (empty: a scalar field).
    levels: Vec<Level>,
    values: Vec<V>,
}

/// A scalar value of Arrow kind `kind` (bounded to what every element
/// type takes).
fn scalar(kind: AKind) -> BoxedStrategy<Cell> {
    let ms = 4_000_000_000_000_i64;
    match kind {
        K::I64 => prop_oneof![any::<i64>(), Just(i64::MIN), Just(0)]
            .prop_map(|v| Cell::Int(v.into()))
            .boxed(),
        K::I32 => any::<i32>().prop_map(|v| Cell::Int(v.into())).boxed(),
        K::U32 => any::<u32>().prop_map(|v| Cell::Int(v.into())).boxed(),
        K::Utf8 | K::LargeUtf8 | K::Utf8View => prop_oneof![
            Just(String::new()),
            "[\\x00\\x01 !#$%:.a-c~]{0,4}",
            any::<String>(),
        ]
        .prop_map(Cell::Str)
        .boxed(),
        K::Bin | K::LargeBin => prop::collection::vec(any::<u8>(), 0..5)
            .prop_map(Cell::Bytes)
            .boxed(),
        K::F64 => prop_oneof![
            any::<f64>(),
            Just(-0.0),
            Just(f64::NAN),
            Just(f64::INFINITY)
        ]
        .prop_map(Cell::F64)
        .boxed(),
        K::F32 => prop_oneof![any::<f32>(), Just(f32::NAN)]
            .prop_map(Cell::F32)
            .boxed(),
        K::Bool => any::<bool>().prop_map(Cell::Bool).boxed(),
        K::TsMs => (-ms..ms).prop_map(|v| Cell::Int(v.into())).boxed(),
        K::Date32 => (-40_000i128..40_000).prop_map(Cell::Int).boxed(),
        K::Uuid => any::<u128>().prop_map(Cell::Uuid).boxed(),
        K::Dec128(s) => any::<i64>()
            .prop_map(move |m| Cell::Dec(m.into(), s))
            .boxed(),
        _ => unreachable!("no such element kind"),
    }
}

/// A list value of `levels` (nulls one time in eight when `nullable`: the
/// outermost level only; elements are not nullable).
fn list(kind: AKind, levels: Vec<Level>, nullable: bool) -> BoxedStrategy<V> {
    let Some((&first, rest)) = levels.split_first() else {
        return scalar(kind).prop_map(V::Scalar).boxed();
    };
    let elem = list(kind, rest.to_vec(), false);
    let len = match first {
        Level::Fixed(n) => n..n + 1,
        _ => 0..4,
    };
    let some = prop::collection::vec(elem, len).prop_map(|v| V::List(Some(v)));
    if nullable {
        prop_oneof![7 => some, 1 => Just(V::List(None))].boxed()
    } else {
        some.boxed()
    }
}

/// A list column (`rows` rows) or a scalar one.
fn column(rows: usize) -> BoxedStrategy<Col> {
    let level = prop_oneof![
        2 => Just(Level::List),
        1 => Just(Level::Large),
        1 => (0usize..3).prop_map(Level::Fixed),
    ];
    let list_col = (
        prop::sample::select(ELEMS.to_vec()),
        any::<prop::sample::Index>(),
        prop::collection::vec(level, 1..=3),
        any::<bool>(),
        prop::sample::select(vec!["", "?", "?.nulls_last"]),
    )
        .prop_flat_map(move |((ty, kinds), i, levels, desc, null)| {
            let kind = kinds[i.index(kinds.len())];
            let mut field = ty.to_string();
            for _ in &levels {
                field = format!("list<{field}>");
            }
            let nullable = !null.is_empty();
            let last = if null.ends_with("nulls_last") {
                ".nulls_last"
            } else {
                ""
            };
            let dir = if desc { ".desc" } else { "" };
            let field = format!("{field}{}{dir}{last}", if nullable { "?" } else { "" });
            prop::collection::vec(list(kind, levels.clone(), nullable), rows).prop_map(
                move |values| Col {
                    ty: field.clone(),
                    kind,
                    levels: levels.clone(),
                    values,
                },
            )
        });
    let scalar_col = prop::sample::select(SCALARS.to_vec()).prop_flat_map(move |(ty, kind)| {
        prop::collection::vec(scalar(kind).prop_map(V::Scalar), rows).prop_map(move |values| Col {
            ty: ty.to_string(),
            kind,
            levels: Vec::new(),
            values,
        })
    });
    prop_oneof![3 => list_col, 1 => scalar_col].boxed()
}

/// 1 to 3 columns, at least one a list, of 0 to 8 rows.
fn columns() -> impl Strategy<Value = Vec<Col>> {
    (0usize..8)
        .prop_flat_map(|rows| prop::collection::vec(column(rows), 1..=3))
        .prop_filter("a list field", |cols| {
            cols.iter().any(|c| !c.levels.is_empty())
        })
}

/// The element field of a list level holding `dt` (`uuid` marked as the
/// decoder marks it, so that decoded columns compare equal).
fn item(dt: &DataType, kind: AKind) -> FieldRef {
    let f = Field::new("item", dt.clone(), false);
    Arc::new(if kind == K::Uuid && *dt == DataType::FixedSizeBinary(16) {
        f.with_metadata(HashMap::from([(
            "ARROW:extension:name".to_string(),
            "arrow.uuid".to_string(),
        )]))
    } else {
        f
    })
}

/// The array of `values` (lists of `levels`), each level's arrays sliced
/// out of longer ones: `pad` junk rows before (and, for variable lists,
/// their elements before this slice's elements).
fn arrow_array(kind: AKind, levels: &[Level], values: &[V], pad: usize) -> ArrayRef {
    let Some((&first, rest)) = levels.split_first() else {
        let mut cells: Vec<Cell> = values
            .iter()
            .map(|v| match v {
                V::Scalar(c) => c.clone(),
                V::List(_) => unreachable!("a list among scalars"),
            })
            .collect();
        let junk = cells.first().cloned().unwrap_or(Cell::Null);
        let n = cells.len();
        let mut all = vec![junk.clone(); pad];
        all.append(&mut cells);
        all.push(junk);
        return array(kind, &all).slice(pad, n);
    };
    // Junk rows: lists of the level's shape.
    let junk = match first {
        Level::Fixed(n) => V::List(Some(filler(kind, rest, n))),
        _ => V::List(Some(filler(kind, rest, 2))),
    };
    let mut rows: Vec<V> = vec![junk.clone(); pad];
    rows.extend_from_slice(values);
    rows.push(junk);
    let mut elems: Vec<V> = Vec::new();
    let mut lens = Vec::new();
    let mut valid = Vec::new();
    for v in &rows {
        match v {
            V::List(Some(items)) => {
                elems.extend_from_slice(items);
                lens.push(items.len());
                valid.push(true);
            }
            V::List(None) => {
                // A null list: a fixed list still holds its n elements.
                if let Level::Fixed(n) = first {
                    let filler = filler(kind, rest, n);
                    elems.extend(filler);
                    lens.push(n);
                } else {
                    lens.push(0);
                }
                valid.push(false);
            }
            V::Scalar(_) => unreachable!("a scalar among lists"),
        }
    }
    let child = arrow_array(kind, rest, &elems, 0);
    let field = item(child.data_type(), kind);
    let nulls = Some(NullBuffer::from(valid));
    let whole: ArrayRef = match first {
        Level::List => Arc::new(ListArray::new(
            field,
            OffsetBuffer::from_lengths(lens),
            child,
            nulls,
        )),
        Level::Large => Arc::new(LargeListArray::new(
            field,
            OffsetBuffer::from_lengths(lens),
            child,
            nulls,
        )),
        Level::Fixed(n) => Arc::new(FixedSizeListArray::new(field, n as i32, child, nulls)),
    };
    whole.slice(pad, values.len())
}

/// `n` elements of a fixed list level under a null list: anything
/// non-null of the right shape.
fn filler(kind: AKind, levels: &[Level], n: usize) -> Vec<V> {
    let one = match levels.first() {
        None => V::Scalar(match kind {
            K::Utf8 | K::LargeUtf8 | K::Utf8View => Cell::Str("x".into()),
            K::Bin | K::LargeBin => Cell::Bytes(vec![1]),
            K::F64 => Cell::F64(1.5),
            K::F32 => Cell::F32(1.5),
            K::Bool => Cell::Bool(true),
            K::Uuid => Cell::Uuid(7),
            K::Dec128(s) => Cell::Dec(7, s),
            _ => Cell::Int(7),
        }),
        Some(Level::Fixed(m)) => V::List(Some(filler(kind, &levels[1..], *m))),
        Some(_) => V::List(Some(Vec::new())),
    };
    vec![one; n]
}

/// The row path's component of value `v` of field `ty` (column `i`).
fn component(spec: &KeySpec, i: usize, c: &Col, v: &V) -> Comp {
    match v {
        V::Scalar(cell) => {
            let a = owned_arg(c.kind, cell, false);
            spec.field(i, a.arg()).unwrap()
        }
        V::List(_) => {
            let ColType::Native(col) = spec.schema().unwrap()[i] else {
                panic!("a list field of a profile")
            };
            Comp::Native(
                col,
                Component::of(col.field, list_value(spec, &col, c.kind, v)),
            )
        }
    }
}

/// A list as a binding makes it: each element [`KeySpec::typed`] as a
/// value of the element column.
fn list_value(
    spec: &KeySpec,
    col: &lexikey::frontend::native::Col,
    kind: AKind,
    v: &V,
) -> Value<'static> {
    match v {
        V::List(None) => Value::Null(col.field.ty),
        V::List(Some(items)) => {
            let elem = list_element(col);
            let values = items
                .iter()
                .map(|item| match item {
                    V::List(_) => list_value(spec, &elem, kind, item),
                    V::Scalar(cell) => {
                        let dec = elem.field.ty == lexikey::Type::Dec;
                        let a = owned_arg(kind, cell, dec);
                        match spec.typed(&ColType::Native(elem), a.arg()).unwrap() {
                            Comp::Native(_, c) => c.value,
                            Comp::Profile(_) => panic!("a profile's element"),
                        }
                    }
                })
                .collect();
            Value::list(col.field.ty, values)
        }
        V::Scalar(_) => panic!("a scalar for a list field"),
    }
}

fn spec_of(format: &str, cols: &[Col]) -> KeySpec {
    let schema: Vec<&str> = cols.iter().map(|c| c.ty.as_str()).collect();
    KeySpec::new(KeyFormat::parse(format).unwrap())
        .with_schema(&schema.join(","))
        .unwrap()
}

/// Key `i` of a key array.
fn keys_of(keys: &dyn Array) -> Vec<Vec<u8>> {
    (0..keys.len())
        .map(|i| match keys.data_type() {
            DataType::Utf8 => keys.as_string::<i32>().value(i).as_bytes().to_vec(),
            _ => keys.as_binary::<i32>().value(i).to_vec(),
        })
        .collect()
}

fn check(format: &str, cols: &[Col], pad: usize) -> Result<(), TestCaseError> {
    let spec = spec_of(format, cols);
    let n = cols[0].values.len();
    // The row path's keys, or the row of its first error (a value the
    // format cannot write: a float in `decimal`).
    let expected: Result<Vec<Vec<u8>>, usize> = (0..n)
        .map(|r| {
            let comps: Vec<Comp> = cols
                .iter()
                .enumerate()
                .map(|(i, c)| component(&spec, i, c, &c.values[r]))
                .collect();
            spec.encode(&comps).map_err(|_| r)
        })
        .collect();
    let arrays: Vec<ArrayRef> = cols
        .iter()
        .map(|c| arrow_array(c.kind, &c.levels, &c.values, pad))
        .collect();
    let got = encode_arrays(&spec, &arrays);
    let (keys, expected) = match (got, expected) {
        (Ok(keys), Ok(expected)) => (keys, expected),
        (Err(e), Err(r)) => {
            prop_assert_eq!(e.row, Some(r), "{}", e);
            prop_assert!(e.column.is_some(), "{}", e);
            return Ok(());
        }
        (g, e) => {
            return Err(TestCaseError::fail(format!(
                "row path {e:?}, Arrow path {g:?}"
            )))
        }
    };
    prop_assert_eq!(keys_of(keys.as_ref()), expected.clone());
    // Decoding: the keys again from the decoded columns, and the columns
    // equal to the input's where the types are the decoded ones.
    let batch = decode_array(&spec, keys.as_ref(), None)
        .map_err(|e| TestCaseError::fail(format!("decode: {e}")))?;
    prop_assert_eq!(batch.schema(), decoded_schema(&spec, None).unwrap());
    let again = encode_batch(&spec, &batch).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(keys_of(again.as_ref()), expected);
    for (i, c) in cols.iter().enumerate() {
        let got = batch.column(i);
        let input = arrow_array(c.kind, &c.levels, &c.values, 0);
        let list_type = |dt: &DataType| match dt {
            DataType::List(f) => Some(f.data_type().clone()),
            _ => None,
        };
        let plain = c.levels.iter().all(|l| *l == Level::List)
            && !matches!(c.kind, K::F64 | K::F32)
            && list_type(got.data_type()).is_some()
            && got.data_type() == input.data_type();
        if plain {
            let nulls = |a: &dyn Array| (0..a.len()).map(|r| a.is_null(r)).collect::<Vec<_>>();
            prop_assert_eq!(nulls(got), nulls(&input), "column {} ({})", i, &c.ty);
            let (got, input) = (got.as_list::<i32>(), input.as_list::<i32>());
            for r in 0..got.len() {
                if got.is_valid(r) {
                    prop_assert_eq!(got.value(r).to_data(), input.value(r).to_data());
                }
            }
        }
    }
    Ok(())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: size::pick(1_000, 10_000),
        ..ProptestConfig::default()
    }
}

macro_rules! list_prop {
    ($name:ident, $format:expr) => {
        proptest! {
            #![proptest_config(config())]
            #[test]
            fn $name(cols in columns(), pad in 0usize..3) {
                check($format, &cols, pad)?;
            }
        }
    };
}

list_prop!(hex_lists_are_the_row_path, "hex");
list_prop!(base64_lists_are_the_row_path, "base64");
list_prop!(decimal_lists_are_the_row_path, "decimal");
list_prop!(binary_lists_are_the_row_path, "binary");

/// A `List(Int64)` of `lists` (`None`: a null list; an element `None`: a
/// null element).
fn i64_lists(lists: Vec<Option<Vec<Option<i64>>>>) -> ArrayRef {
    Arc::new(ListArray::from_iter_primitive::<
        arrow_array::types::Int64Type,
        _,
        _,
    >(lists))
}

fn hex(schema: &str) -> KeySpec {
    KeySpec::new(KeyFormat::parse("hex").unwrap())
        .with_schema(schema)
        .unwrap()
}

#[test]
fn a_null_element_is_an_error_naming_it() {
    let spec = hex("str,list<i64>");
    let lists = i64_lists(vec![
        Some(vec![Some(1)]),
        Some(vec![Some(2), None, Some(3)]),
    ]);
    let names: ArrayRef = Arc::new(StringArray::from(vec!["a", "b"]));
    let e = encode_arrays(&spec, &[names.clone(), lists]).unwrap_err();
    assert_eq!(
        e,
        err(
            "c1",
            1,
            "[2, null, 3]",
            "element 1 is a null: list elements are not nullable"
        )
    );
    // Nested: the path to it.
    let spec = hex("str,list<list<i64>>");
    let inner = i64_lists(vec![Some(vec![Some(1)]), Some(vec![None])]);
    let outer: ArrayRef = Arc::new(ListArray::new(
        Arc::new(Field::new("item", inner.data_type().clone(), true)),
        OffsetBuffer::from_lengths([0, 2]),
        inner,
        None,
    ));
    let e = encode_arrays(&spec, &[names, outer]).unwrap_err();
    assert_eq!(
        e,
        err(
            "c1",
            1,
            "[[1], [null]]",
            "element 1: element 0 is a null: list elements are not nullable"
        )
    );
}

#[test]
fn a_null_list_is_the_null_of_a_nullable_field_only() {
    let lists = i64_lists(vec![Some(vec![Some(1)]), None]);
    let e = encode_arrays(&hex("list<i64>"), std::slice::from_ref(&lists)).unwrap_err();
    assert_eq!(
        e,
        err("c0", 1, "null", "a null: the native formats have no null")
    );
    let spec = hex("list<i64>?.nulls_last");
    let keys = encode_arrays(&spec, &[lists]).unwrap();
    let expected: Vec<Vec<u8>> = [
        Value::list(lexikey::Type::I64, vec![Value::I64(1)]),
        Value::Null(lexikey::Type::I64),
    ]
    .into_iter()
    .map(|v| {
        let ColType::Native(col) = spec.schema().unwrap()[0] else {
            unreachable!()
        };
        spec.encode(&[Comp::Native(col, Component::of(col.field, v))])
            .unwrap()
    })
    .collect();
    assert_eq!(keys_of(keys.as_ref()), expected);
}

#[test]
fn an_element_the_element_column_refuses_names_it() {
    // A UInt64 element beyond i64 in a list<i64>.
    let lists = one_list(Arc::new(arrow_array::UInt64Array::from(vec![1, u64::MAX])));
    let e = encode_arrays(&hex("list<i64>"), &[lists]).unwrap_err();
    assert_eq!(
        e,
        err(
            "c0",
            0,
            "[1, 18446744073709551615]",
            "element 1: 18446744073709551615 is out of range for i64"
        )
    );
}

#[test]
fn a_wrong_element_type_is_refused_before_any_row() {
    let lists = one_list(Arc::new(StringArray::from(vec!["a"])));
    let e = encode_arrays(&hex("list<i64>"), &[lists]).unwrap_err();
    assert_eq!(e.column.as_deref(), Some("c0"));
    assert_eq!(e.row, None);
    assert_eq!(
        e.message,
        "a List(non-null Utf8) column for list<i64>: its elements: a Utf8 column for i64: \
         expected an integer column (Int8…Int64, UInt8…UInt64)"
    );
    // A list column for a scalar field, a scalar column for a list field.
    let ints = i64_lists(vec![Some(vec![Some(1)])]);
    let e = encode_arrays(&hex("i64"), &[ints]).unwrap_err();
    assert!(e.message.starts_with("a List("), "{e}");
    assert!(
        e.message
            .contains("column for i64: expected an integer column"),
        "{e}"
    );
    let one: ArrayRef = Arc::new(Int64Array::from(vec![1]));
    let e = encode_arrays(&hex("list<i64>"), &[one]).unwrap_err();
    assert_eq!(
        e.message,
        "a Int64 column for list<i64>: expected a List, LargeList or FixedSizeList column of \
         i64 elements, or the lists' text (Utf8…, [ELEMENT, ...])"
    );
}

/// A `List` of one row holding every value of `values`.
fn one_list(values: ArrayRef) -> ArrayRef {
    Arc::new(ListArray::new(
        Arc::new(Field::new("item", values.data_type().clone(), false)),
        OffsetBuffer::from_lengths([values.len()]),
        values,
        None,
    ))
}

/// `depth` levels of `List` around an `Int64` column of one value.
fn nested(depth: usize) -> ArrayRef {
    let mut a: ArrayRef = Arc::new(Int64Array::from(vec![5]));
    for _ in 0..depth {
        a = one_list(a);
    }
    a
}

#[test]
fn lists_deeper_than_the_field_or_the_limit_are_refused() {
    let max = usize::from(MAX_LIST_DEPTH);
    let field = |d: usize| format!("{}i64{}", "list<".repeat(d), ">".repeat(d));
    // The deepest field takes the deepest lists, and they decode back.
    let spec = hex(&field(max));
    let a = nested(max);
    let keys = encode_arrays(&spec, std::slice::from_ref(&a)).unwrap();
    let back = decode_array(&spec, keys.as_ref(), None).unwrap();
    assert_eq!(back.column(0).to_data(), a.to_data());
    // One level more is no schema, and no column of one.
    assert!(KeySpec::new(KeyFormat::parse("hex").unwrap())
        .with_schema(&field(max + 1))
        .is_err());
    let e = encode_arrays(&spec, &[nested(max + 1)]).unwrap_err();
    assert!(
        e.message.ends_with(&format!(
            "lists nested {} levels deep for a field of {max} levels (lists nest at most {max} levels)",
            max + 1
        )),
        "{e}"
    );
    // Shallower than the field, deeper than the field.
    let e = encode_arrays(&hex(&field(2)), &[nested(1)]).unwrap_err();
    assert!(
        e.message
            .ends_with("lists nested 1 levels deep for a field of 2 levels"),
        "{e}"
    );
    let e = encode_arrays(&hex(&field(1)), &[nested(2)]).unwrap_err();
    assert!(
        e.message
            .ends_with("lists nested 2 levels deep for a field of 1 levels"),
        "{e}"
    );
}

#[test]
fn a_list_field_takes_its_text_too() {
    // A Utf8 column of list texts: the keys of the lists themselves.
    let spec = hex("list<i64>.desc,list<str>");
    let texts: ArrayRef = Arc::new(StringArray::from(vec!["[1, 2]", "[]"]));
    let strs: ArrayRef = Arc::new(StringArray::from(vec!["[a b]", "[]"]));
    let from_text = encode_arrays(&spec, &[texts, strs]).unwrap();
    let ints = i64_lists(vec![Some(vec![Some(1), Some(2)]), Some(vec![])]);
    let words = arrow_array(
        K::Utf8,
        &[Level::List],
        &[
            V::List(Some(vec![V::Scalar(Cell::Str("a b".into()))])),
            V::List(Some(vec![])),
        ],
        0,
    );
    let from_lists = encode_arrays(&spec, &[ints, words]).unwrap();
    assert_eq!(keys_of(from_text.as_ref()), keys_of(from_lists.as_ref()));
    let batch = RecordBatch::try_from_iter([("a", nested(1))]).unwrap();
    assert!(encode_batch(&hex("list<i64>"), &batch).is_ok());
}
