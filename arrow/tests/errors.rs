//! Bad input: a null where the format has none, a column of the wrong
//! type, a value out of range, a string with a byte the format forbids, a
//! key that does not decode. Each error names the column, the row and the
//! value, and nothing partial comes back.

mod common;

use std::sync::Arc;

use arrow_array::*;
use arrow_schema::{DataType, Field, FieldRef};
use common::err;
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::KeySpec;
use lexikey_arrow::{decode_array, encode_arrays, encode_batch, ArrowEncoder, ArrowKeyError};
use proptest::prelude::*;

fn spec(format: &str, schema: &str) -> KeySpec {
    KeySpec::new(KeyFormat::parse(format).unwrap())
        .with_schema(schema)
        .unwrap()
}

fn batch(cols: Vec<(&str, ArrayRef)>) -> RecordBatch {
    RecordBatch::try_from_iter(cols).unwrap()
}

#[test]
fn a_null_in_a_native_format() {
    let b = batch(vec![
        (
            "city",
            Arc::new(StringArray::from(vec![Some("a"), Some("b"), None])),
        ),
        ("n", Arc::new(Int64Array::from(vec![1, 2, 3]))),
    ]);
    for format in ["hex", "base64", "decimal", "binary"] {
        let e = encode_batch(&spec(format, "str,i64"), &b).unwrap_err();
        assert_eq!(
            e,
            err("city", 2, "null", "a null: the native formats have no null"),
            "{format}"
        );
        assert_eq!(
            e.to_string(),
            "column \"city\", row 2, value null: a null: the native formats have no null"
        );
    }
}

/// The row path names a row's first bad value, a null or not: so does
/// the Arrow path (a bad instant before a null names the instant, a null
/// before a bad instant names the null), in every native format.
#[test]
fn the_first_bad_value_of_a_row_is_the_one_named() {
    use lexikey::frontend::host::Arg;
    let ts = || {
        // One microsecond past a millisecond: `ts` holds whole milliseconds.
        Arc::new(TimestampMicrosecondArray::from(vec![1_001]).with_timezone("UTC")) as ArrayRef
    };
    let null_str = || Arc::new(StringArray::from(vec![None::<&str>])) as ArrayRef;
    for format in ["hex", "base64", "decimal", "binary"] {
        // The instant first: the row path's error for it.
        let s = spec(format, "ts,str");
        let e = encode_batch(&s, &batch(vec![("t", ts()), ("s", null_str())])).unwrap_err();
        let row = s
            .encoder()
            .unwrap()
            .encode(
                &[
                    Arg::Time {
                        secs: 0,
                        nanos: 1_001_000,
                    },
                    Arg::Null,
                ],
                &mut Vec::new(),
            )
            .unwrap_err();
        assert_eq!(row.index, Some(0), "{format}");
        assert_eq!(
            (e.column.as_deref(), e.row),
            (Some("t"), Some(0)),
            "{format}: {e}"
        );
        assert_eq!(e.message, row.error.to_string(), "{format}");
        // The null first: the null is named.
        let s = spec(format, "str,ts");
        let e = encode_batch(&s, &batch(vec![("s", null_str()), ("t", ts())])).unwrap_err();
        assert_eq!(
            e,
            err("s", 0, "null", "a null: the native formats have no null"),
            "{format}"
        );
    }
}

#[test]
fn a_column_of_the_wrong_type() {
    let s = spec("hex", "str,i64");
    let fields: Vec<FieldRef> = vec![
        Arc::new(Field::new("city", DataType::Utf8, false)),
        Arc::new(Field::new("n", DataType::Float64, false)),
    ];
    let e = ArrowEncoder::new(&s, &fields).unwrap_err();
    assert_eq!(e.column.as_deref(), Some("n"));
    assert_eq!((e.row, e.value), (None, None));
    assert_eq!(
        e.message,
        "a Float64 column for i64: expected an integer column (Int8…Int64, UInt8…UInt64)"
    );
    // And in a batch of another type than the encoder's fields.
    let mut enc = ArrowEncoder::new(
        &s,
        &fields[..1]
            .iter()
            .cloned()
            .chain([Arc::new(Field::new("n", DataType::Int64, false))])
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let bad: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from(vec!["a"])),
        Arc::new(Float64Array::from(vec![1.0])),
    ];
    let e = enc.push(&bad).unwrap_err();
    assert_eq!(e.column.as_deref(), Some("n"));
    assert!(enc.is_empty());
    // An f32 key takes no Float64 column (narrowing loses precision).
    let e = encode_arrays(
        &spec("binary", "f32"),
        &[Arc::new(Float64Array::from(vec![1.5])) as ArrayRef],
    )
    .unwrap_err();
    assert_eq!(e.column.as_deref(), Some("c0"));
    assert_eq!(
        e.message,
        "a Float64 column for f32: expected a Float32 column"
    );
}

#[test]
fn counts_and_lengths() {
    let s = spec("hex", "str,i64");
    let e = encode_arrays(&s, &[Arc::new(StringArray::from(vec!["a"])) as ArrayRef]).unwrap_err();
    assert_eq!(e.message, "1 columns; the schema has 2 fields");
    let e = encode_arrays(
        &s,
        &[
            Arc::new(StringArray::from(vec!["a", "b"])) as ArrayRef,
            Arc::new(Int64Array::from(vec![1])) as ArrayRef,
        ],
    )
    .unwrap_err();
    assert_eq!(
        e,
        ArrowKeyError {
            column: Some("c1".into()),
            row: None,
            value: None,
            message: "1 rows; the first column has 2".into()
        }
    );
    let no_schema = KeySpec::new(KeyFormat::parse("hex").unwrap());
    assert!(encode_arrays(&no_schema, &[]).is_err());
    assert!(decode_array(&no_schema, &StringArray::from(vec!["a"]), None).is_err());
}

#[test]
fn out_of_range_values() {
    // UInt64 above i64 for an i64 field.
    let b = batch(vec![(
        "n",
        Arc::new(UInt64Array::from(vec![1, u64::MAX])) as ArrayRef,
    )]);
    let e = encode_batch(&spec("binary", "i64"), &b).unwrap_err();
    assert_eq!(
        e,
        err(
            "n",
            1,
            "18446744073709551615",
            "18446744073709551615 is out of range for i64"
        )
    );
    // Int64 beyond i32; a negative for u32.
    let e = encode_arrays(
        &spec("hex", "i32"),
        &[Arc::new(Int64Array::from(vec![0, 0, 1 << 40])) as ArrayRef],
    )
    .unwrap_err();
    assert_eq!(
        e,
        err(
            "c0",
            2,
            "1099511627776",
            "1099511627776 is out of range for i32"
        )
    );
    let e = encode_arrays(
        &spec("hex", "u32"),
        &[Arc::new(Int8Array::from(vec![-1])) as ArrayRef],
    )
    .unwrap_err();
    assert_eq!(e, err("c0", 0, "-1", "-1 is out of range for u32"));
    // A width of 3 in decimal.
    let w = KeySpec::new(KeyFormat::parse("decimal").unwrap())
        .with_width(Some(3))
        .unwrap()
        .with_schema("u64")
        .unwrap();
    let e = encode_arrays(
        &w,
        &[Arc::new(UInt16Array::from(vec![999, 1000])) as ArrayRef],
    )
    .unwrap_err();
    assert_eq!(
        (e.column.as_deref(), e.row, e.value.as_deref()),
        (Some("c0"), Some(1), Some("1000"))
    );
    // A timestamp with microseconds for a ts (whole milliseconds).
    let e = encode_arrays(
        &spec("hex", "ts"),
        &[Arc::new(TimestampMicrosecondArray::from(vec![1_500])) as ArrayRef],
    )
    .unwrap_err();
    assert_eq!(
        e,
        err(
            "c0",
            0,
            "1970-01-01T00:00:00.001500000Z",
            "ts holds whole milliseconds: this time has 500000 nanoseconds more (truncate it)"
        )
    );
}

#[test]
fn a_byte_the_format_forbids() {
    // Phoenix VARCHAR separates columns with 00: a string holding one is
    // refused; so is a CHAR(2) of another length.
    let e = encode_arrays(
        &spec("phoenix", "varchar,bigint"),
        &[
            Arc::new(StringArray::from(vec!["ok", "a\0b"])) as ArrayRef,
            Arc::new(Int64Array::from(vec![1, 2])) as ArrayRef,
        ],
    )
    .unwrap_err();
    assert_eq!(
        (e.column.as_deref(), e.row, e.value.as_deref()),
        (Some("c0"), Some(1), Some("\"a\\0b\""))
    );
    let e = encode_arrays(
        &spec("phoenix", "char(2)"),
        &[Arc::new(StringArray::from(vec!["abc"])) as ArrayRef],
    )
    .unwrap_err();
    assert_eq!((e.column.as_deref(), e.row), (Some("c0"), Some(0)));
}

#[test]
fn bad_keys() {
    let s = spec("hex", "str,i64");
    // A null key, a key that is not canonical, a key array of another type.
    let keys = StringArray::from(vec![Some("a#l8000000000000001"), None]);
    let e = decode_array(&s, &keys, None).unwrap_err();
    assert_eq!(
        (e.row, e.value.as_deref(), e.message.as_str()),
        (Some(1), Some("null"), "a null key")
    );
    let keys = StringArray::from(vec!["a#l8000000000000001", "a#l80000000000000ff"]);
    let e = decode_array(&s, &keys, None).unwrap_err();
    assert_eq!(
        (e.row, e.value.as_deref()),
        (Some(1), Some("\"a#l80000000000000ff\""))
    );
    let e = decode_array(&s, &Int64Array::from(vec![1]), None).unwrap_err();
    assert!(e.message.starts_with("a Int64 key array"), "{e}");
    // Sliced: rows count from the slice's start.
    let keys = StringArray::from(vec!["x", "a#l8000000000000001", "bad"]).slice(1, 2);
    assert_eq!(decode_array(&s, &keys, None).unwrap_err().row, Some(1));
    // An fdb-tuple int beyond Int64 has no column value.
    let f = spec("fdb-tuple", "int");
    let keys = encode_arrays(
        &f,
        &[Arc::new(UInt64Array::from(vec![u64::MAX])) as ArrayRef],
    )
    .unwrap();
    let e = decode_array(&f, keys.as_ref(), Some(&["big".into()])).unwrap_err();
    assert_eq!(e.column.as_deref(), Some("big"));
    assert_eq!(e.message, "18446744073709551615 is out of range for Int64");
    // Names: one per field.
    assert!(decode_array(
        &s,
        &StringArray::from(vec!["a#l8000000000000001"]),
        Some(&["x".into()])
    )
    .is_err());
}

proptest! {
    /// One bad value (UInt64 above i64) at a random row of a random batch
    /// of a stream: the error names that row, counted from the stream's
    /// first row, the encoder keeps the batches before it whole, and the
    /// keys it gives are exactly theirs.
    #[test]
    fn errors_name_the_row_and_keep_nothing_of_the_batch(
        sizes in prop::collection::vec(0usize..20, 1..5),
        bad in any::<prop::sample::Index>(),
        format in prop::sample::select(vec!["hex", "base64", "decimal", "binary"]),
    ) {
        let total: usize = sizes.iter().sum();
        prop_assume!(total > 0);
        let bad = bad.index(total);
        let s = spec(format, "str,i64");
        let fields: Vec<FieldRef> = vec![
            Arc::new(Field::new("s", DataType::Utf8, false)),
            Arc::new(Field::new("n", DataType::UInt64, false)),
        ];
        let mut enc = ArrowEncoder::new(&s, &fields).unwrap();
        let mut start = 0;
        let mut kept = 0;
        for size in sizes {
            let rows = start..start + size;
            let strs: Vec<String> = rows.clone().map(|r| format!("k{r}")).collect();
            let nums: Vec<u64> = rows.clone().map(|r| if r == bad { 1 << 63 } else { r as u64 }).collect();
            let cols: Vec<ArrayRef> = vec![Arc::new(StringArray::from(strs)), Arc::new(UInt64Array::from(nums))];
            match enc.push(&cols) {
                Ok(()) => prop_assert!(!rows.contains(&bad)),
                Err(e) => {
                    prop_assert!(rows.contains(&bad));
                    prop_assert_eq!(e, err("n", bad, "9223372036854775808", "9223372036854775808 is out of range for i64"));
                    kept = start;
                    break;
                }
            }
            start += size;
        }
        prop_assert_eq!(enc.len(), kept);
        let keys = enc.finish();
        prop_assert_eq!(keys.len(), kept);
        let expect = encode_arrays(&s, &[
            Arc::new(StringArray::from((0..kept).map(|r| format!("k{r}")).collect::<Vec<_>>())) as ArrayRef,
            Arc::new(Int64Array::from((0..kept as i64).collect::<Vec<_>>())) as ArrayRef,
        ]).unwrap();
        prop_assert_eq!(keys.to_data(), expect.to_data());
    }
}
