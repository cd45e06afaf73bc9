//! The golden vectors of `fixtures/` through the Arrow path, both ways:
//! each line's values, as one-row Arrow columns of the types
//! `decoded_schema` gives (the crate docs' table), encode to exactly the
//! line's key, and the key decodes to exactly those columns.
//!
//! Every native line (`fixtures/<format>.tsv`) is checked; of the interop
//! fixtures, the `fdb-tuple` lines (but nested tuples and integers beyond
//! `Int64`, which have no column type), the `hbase-ordered` `value` and
//! `struct` lines and the Phoenix `value` and `row` lines (the others
//! are codec options and hashes, not keys of a schema).

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::*;
use arrow_schema::{DataType, TimeUnit};
use lexikey::frontend::host::{
    fdb_label, fdb_out, hbase_out, native_out, phoenix_out, ColType, Out,
};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::profile::Item;
use lexikey::frontend::spec::{Comp, KeySpec};
use lexikey::interop::phoenix::SortOrder;
use lexikey::value::literal::parse_component;
use lexikey_arrow::{decode_array, decoded_schema, encode_arrays};

fn root() -> String {
    format!("{}/..", env!("CARGO_MANIFEST_DIR"))
}

/// A native fixture column unescaped (`lexikey::fixture`, the one reader).
fn unescape(s: &str) -> String {
    lexikey::fixture::unescape(s).unwrap_or_else(|e| panic!("{e} in fixture"))
}

/// An interop fixture column unescaped.
fn unescape_bytes(s: &str) -> String {
    lexikey::fixture::unescape_bytes(s).unwrap_or_else(|e| panic!("{e} in fixture"))
}

/// The data lines of a fixture: `(line number, columns)`, comment
/// columns dropped.
fn lines(path: &str) -> Vec<(usize, Vec<String>)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    lexikey::fixture::data_lines(&text)
        .into_iter()
        .map(|(n, cols)| (n, cols.into_iter().map(str::to_string).collect()))
        .collect()
}

/// A one-row column of type `dt` holding `v` (`None`: no such column).
fn column(dt: &DataType, v: &Out<'_>) -> Option<ArrayRef> {
    let utc = |a: TimestampMillisecondArray| a.with_timezone("UTC");
    Some(match (dt, v) {
        (dt, Out::Null) => new_null_array(dt, 1),
        (DataType::Utf8, Out::Str(s)) => Arc::new(StringArray::from(vec![s.as_ref()])),
        (DataType::Utf8, Out::Decimal(s)) => Arc::new(StringArray::from(vec![s.as_str()])),
        (DataType::Binary, Out::Bytes(b)) => Arc::new(BinaryArray::from(vec![*b])),
        (DataType::FixedSizeBinary(_), Out::Bytes(b)) => {
            Arc::new(FixedSizeBinaryArray::try_from_iter([*b].into_iter()).unwrap())
        }
        (DataType::FixedSizeBinary(16), Out::Uuid(u)) => {
            Arc::new(FixedSizeBinaryArray::try_from_iter([u.to_be_bytes()].into_iter()).unwrap())
        }
        (DataType::Boolean, Out::Bool(b)) => Arc::new(BooleanArray::from(vec![*b])),
        (DataType::Int8, Out::Int(x)) => Arc::new(Int8Array::from(vec![*x as i8])),
        (DataType::Int16, Out::Int(x)) => Arc::new(Int16Array::from(vec![*x as i16])),
        (DataType::Int32, Out::Int(x)) => Arc::new(Int32Array::from(vec![*x as i32])),
        (DataType::Int64, Out::Int(x)) => Arc::new(Int64Array::from(vec![*x])),
        (DataType::UInt32, Out::Int(x)) => Arc::new(UInt32Array::from(vec![*x as u32])),
        (DataType::UInt64, Out::Int(x)) => Arc::new(UInt64Array::from(vec![*x as u64])),
        (DataType::UInt64, Out::U64(x)) => Arc::new(UInt64Array::from(vec![*x])),
        (DataType::Float32, Out::F32(x)) => Arc::new(Float32Array::from(vec![*x])),
        (DataType::Float64, Out::F64(x)) => Arc::new(Float64Array::from(vec![*x])),
        (DataType::Timestamp(TimeUnit::Millisecond, _), Out::Time { secs, nanos }) => {
            Arc::new(utc(TimestampMillisecondArray::from(vec![
                secs * 1000 + i64::from(nanos / 1_000_000),
            ])))
        }
        (DataType::Timestamp(TimeUnit::Nanosecond, _), Out::Time { secs, nanos }) => Arc::new(
            TimestampNanosecondArray::from(vec![secs * 1_000_000_000 + i64::from(*nanos)])
                .with_timezone("UTC"),
        ),
        (DataType::List(item), Out::List(elems)) => {
            // The elements' one-row columns, end to end.
            let parts = elems
                .iter()
                .map(|e| column(item.data_type(), e).map(|a| a.to_data()))
                .collect::<Option<Vec<_>>>()?;
            let child = if parts.is_empty() {
                new_empty_array(item.data_type())
            } else {
                let mut all = arrow_data::transform::MutableArrayData::new(
                    parts.iter().collect(),
                    false,
                    parts.len(),
                );
                for i in 0..parts.len() {
                    all.try_extend(i, 0, 1).unwrap();
                }
                make_array(all.freeze())
            };
            Arc::new(ListArray::new(
                item.clone(),
                arrow_buffer::OffsetBuffer::from_lengths([elems.len()]),
                child,
                None,
            ))
        }
        _ => return None,
    })
}

/// The key as the fixture writes it (text, or lowercase hex).
fn key_text(keys: &dyn Array, text: bool) -> String {
    if text {
        keys.as_string::<i32>().value(0).to_string()
    } else {
        lexikey::to_hex(keys.as_binary::<i32>().value(0)).to_lowercase()
    }
}

/// Both ways for one key: `values` encode to `key`, `key` decodes to
/// `values`. `false`: a value has no column type (not checked).
fn check(spec: &KeySpec, values: &[Out<'_>], key: &str, text: bool, at: &str) -> bool {
    let schema = decoded_schema(spec, None).unwrap();
    let Some(cols) = schema
        .fields()
        .iter()
        .zip(values)
        .map(|(f, v)| column(f.data_type(), v))
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    let keys = encode_arrays(spec, &cols).unwrap_or_else(|e| panic!("{at}: encode: {e}"));
    let want = if text {
        key.to_string()
    } else {
        key.to_lowercase()
    };
    assert_eq!(key_text(keys.as_ref(), text), want, "{at}: key");
    let back = decode_array(spec, keys.as_ref(), None).unwrap_or_else(|e| panic!("{at}: {e}"));
    for (i, c) in cols.iter().enumerate() {
        let mut want = c.clone();
        // A Phoenix BINARY(n) reads back zero-padded to n bytes.
        if let (Some(ColType::Phoenix(p)), Out::Bytes(b)) =
            (spec.schema().unwrap().get(i), &values[i])
        {
            if let lexikey::interop::phoenix::Type::Binary(n) = p.ty {
                let mut b = b.to_vec();
                b.resize(usize::from(n), 0);
                want = Arc::new(BinaryArray::from(vec![b.as_slice()]));
            }
        }
        assert_eq!(back.column(i).to_data(), want.to_data(), "{at}: column {i}");
    }
    true
}

fn native_file(format: &str) {
    let path = format!("{}/fixtures/{format}.tsv", root());
    let text = format != "binary";
    let spec0 = KeySpec::new(KeyFormat::parse(format).unwrap());
    let mut checked = 0;
    for (n, mut cols) in lines(&path) {
        let key = cols.pop().unwrap();
        let comps: Vec<_> = cols
            .iter()
            .map(|c| parse_component(&unescape(c)).unwrap())
            .collect();
        let schema: Vec<&str> = cols.iter().map(|c| c.split_once(':').unwrap().0).collect();
        let spec = spec0.clone().with_schema(&schema.join(",")).unwrap();
        let values: Vec<Out<'_>> = comps
            .iter()
            .map(|c| native_out(None, &c.value, spec.geo()).unwrap())
            .collect();
        if check(&spec, &values, &key, text, &format!("{path}:{n}")) {
            checked += 1;
        }
    }
    assert!(checked >= 20, "{path}: {checked} lines checked");
}

/// `fixtures/lists.tsv` (list components in every native format, derived
/// from the layout table of `src/format/list.rs` and the scalar vectors,
/// as its header says): each list as a one-row `List` column.
#[test]
fn list_vectors() {
    let path = format!("{}/fixtures/lists.tsv", root());
    let mut checked = 0;
    for (n, mut cols) in lines(&path) {
        let key = cols.pop().unwrap();
        let format = cols.remove(0);
        let comps: Vec<String> = cols.iter().map(|c| unescape(c)).collect();
        let schema: Vec<&str> = comps
            .iter()
            .map(|c| c.split_once(':').map_or(c.as_str(), |(t, _)| t))
            .collect();
        let spec = KeySpec::new(KeyFormat::parse(&format).unwrap())
            .with_schema(&schema.join(","))
            .unwrap();
        let parsed: Vec<_> = comps.iter().map(|c| parse_component(c).unwrap()).collect();
        let values: Vec<Out<'_>> = parsed
            .iter()
            .map(|c| native_out(None, &c.value, spec.geo()).unwrap())
            .collect();
        let text = format != "binary";
        assert!(
            check(&spec, &values, &key, text, &format!("{path}:{n}")),
            "{path}:{n}: no column for {comps:?}"
        );
        checked += 1;
    }
    assert!(checked >= 150, "{path}: {checked} lines checked");
}

#[test]
fn hex_vectors() {
    native_file("hex");
}

#[test]
fn base64_vectors() {
    native_file("base64");
}

#[test]
fn decimal_vectors() {
    native_file("decimal");
}

#[test]
fn binary_vectors() {
    native_file("binary");
}

#[test]
fn fdb_vectors() {
    let path = format!("{}/fixtures/interop/fdb.tsv", root());
    let (mut checked, mut skipped) = (0, 0);
    for (n, cols) in lines(&path) {
        let key = &cols[0];
        if cols.iter().any(|c| c == "(") {
            skipped += 1;
            continue;
        }
        let elems: Vec<_> = cols[1..]
            .iter()
            .map(|c| lexikey::interop::fdb::parse_component(&unescape_bytes(c)).unwrap())
            .collect();
        if elems.is_empty() {
            continue;
        }
        let schema: Vec<&str> = elems.iter().map(fdb_label).collect();
        if schema.contains(&"nested") {
            skipped += 1;
            continue;
        }
        let spec = KeySpec::new(KeyFormat::parse("fdb-tuple").unwrap())
            .with_schema(&schema.join(","))
            .unwrap();
        let values: Vec<Out<'_>> = elems.iter().map(fdb_out).collect();
        if check(&spec, &values, key, false, &format!("{path}:{n}")) {
            checked += 1;
        } else {
            skipped += 1;
        }
    }
    assert!(
        checked >= 40,
        "{path}: {checked} checked, {skipped} skipped"
    );
}

/// The profile values of component texts (bare types: nulls) in `spec`'s
/// syntax, and the schema they imply.
fn profile_values(spec: &KeySpec, texts: &[String]) -> (Vec<String>, Vec<Item>) {
    let mut types = Vec::new();
    let mut items = Vec::new();
    for t in texts {
        let Comp::Profile(item) = spec.parse(t).unwrap() else {
            panic!("{t}: not a profile item")
        };
        types.push(
            t.split_once(':')
                .map_or(t.as_str(), |(ty, _)| ty)
                .to_string(),
        );
        items.push(item);
    }
    (types, items)
}

fn outs(items: &[Item]) -> Vec<Out<'_>> {
    items
        .iter()
        .map(|i| match i {
            Item::Hbase(_, v) => hbase_out(v),
            Item::Phoenix(_, v) => phoenix_out(v),
            Item::Fdb(e) => fdb_out(e),
        })
        .collect()
}

#[test]
fn hbase_vectors() {
    let path = format!("{}/fixtures/interop/hbase.tsv", root());
    let base = KeySpec::new(KeyFormat::parse("hbase-ordered").unwrap());
    let mut checked = 0;
    for (n, cols) in lines(&path) {
        let (key, texts) = match cols[0].as_str() {
            "value" => (cols[2].clone(), vec![unescape(&cols[1])]),
            "struct" => (
                cols[1].clone(),
                cols[3..].iter().map(|c| unescape(c)).collect(),
            ),
            _ => continue,
        };
        let (types, items) = profile_values(&base, &texts);
        let spec = base.clone().with_schema(&types.join(",")).unwrap();
        if check(&spec, &outs(&items), &key, false, &format!("{path}:{n}")) {
            checked += 1;
        }
    }
    assert!(checked >= 200, "{path}: {checked} checked");
}

#[test]
fn phoenix_vectors() {
    let path = format!("{}/fixtures/interop/phoenix.tsv", root());
    let base = KeySpec::new(KeyFormat::parse("phoenix").unwrap());
    let mut checked = 0;
    for (n, cols) in lines(&path) {
        let at = format!("{path}:{n}");
        match cols[0].as_str() {
            "value" => {
                let (types, items) = profile_values(&base, &[unescape(&cols[1])]);
                let spec = base.clone().with_schema(&types.join(",")).unwrap();
                // A value's bytes; as a one-column key a trailing DESC
                // VARCHAR or VARBINARY gets its FF.
                let mut key = cols[2].clone();
                if let Item::Phoenix(c, _) = &items[0] {
                    if c.ty.fixed_width().is_none() && c.order == SortOrder::Desc {
                        key.push_str("ff");
                    }
                }
                if check(&spec, &outs(&items), &key, false, &at) {
                    checked += 1;
                }
            }
            "row" if cols[2] == "-" => {
                let schema = &cols[1];
                let spec = base.clone().with_schema(schema).unwrap();
                let (_, items) = profile_values(&spec, &cols[4..]);
                let mut values = outs(&items);
                // Trailing columns left out of the row are nulls.
                values.resize(spec.schema().unwrap().len(), Out::Null);
                if check(&spec, &values, &cols[3], false, &at) {
                    checked += 1;
                }
            }
            _ => {}
        }
    }
    assert!(checked >= 120, "{path}: {checked} checked");
}
