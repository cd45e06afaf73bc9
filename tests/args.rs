//! Properties of the typed argument path (`lexikey::frontend::host`, `KeySpec::typed`,
//! `RowEncoder`, `KeySpec::decode`), over every column type of every
//! format and profile:
//!
//! - **typed = text**: a host value given with its type makes the very
//!   component (the same key bytes) that the component text a binding wrote
//!   for it before this path existed makes through the parser — the text
//!   written here by the old rules of `python/src/conv.rs` (an independent
//!   oracle: floats by their shortest form or raw bits, integers in decimal,
//!   bytes in hex, instants as milliseconds or RFC 3339, …); and where that
//!   text does not parse, the typed path refuses the value too;
//! - **bulk = single**: `RowEncoder::encode` of a row gives the key of
//!   `KeySpec::encode` of the row's typed components, salted or not, or both
//!   refuse it;
//! - **round trip**: a key decodes (`KeySpec::decode`) to values that, given
//!   back as arguments, encode to the same key; integers, strings, bytes,
//!   booleans and UUIDs decode to the very values given.

mod common;

use common::config;
use lexikey::frontend::host::{f32_of_f64_keeping_nan, f64_of_f32, Arg, Out, Rows};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::profile::Options;
use lexikey::frontend::spec::KeySpec;
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::value::literal;
use proptest::prelude::*;

/// An owned host value (an [`Arg`] borrows).
#[derive(Debug, Clone)]
enum A {
    Null,
    Bool(bool),
    Int(i64),
    Big(bool, Vec<u8>),
    F64(f64),
    F32(f32),
    Str(String),
    Bytes(Vec<u8>),
    Uuid(u128),
    /// Microseconds-or-finer instants: seconds and nanoseconds.
    Time(i64, u32),
    Dec(String),
    Geo(f64, f64),
}

impl A {
    fn arg(&self) -> Arg<'_> {
        match self {
            A::Null => Arg::Null,
            A::Bool(b) => Arg::Bool(*b),
            A::Int(v) => Arg::Int(*v),
            A::Big(negative, m) => Arg::BigInt {
                negative: *negative,
                magnitude: m,
            },
            A::F64(x) => Arg::F64(*x),
            A::F32(x) => Arg::F32(*x),
            A::Str(s) => Arg::Str(s),
            A::Bytes(b) => Arg::Bytes(b),
            A::Uuid(u) => Arg::Uuid(*u),
            A::Time(secs, nanos) => Arg::Time {
                secs: *secs,
                nanos: *nanos,
            },
            A::Dec(t) => Arg::Decimal(t),
            A::Geo(lat, lon) => Arg::Geo(*lat, *lon),
        }
    }
}

fn floats() -> BoxedStrategy<f64> {
    prop_oneof![
        3 => any::<f64>(),
        1 => prop::sample::select(vec![
            0.0, -0.0, 1.5, -2.25, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -f64::NAN,
            f64::from_bits(0x7FF0_0000_2000_0000), // a signaling NaN an f32 can hold
            f64::from_bits(0xFFF8_0000_0000_0001), f64::MAX, f64::MIN_POSITIVE, 5e-324, 1e39, 3.4e38,
        ]),
        1 => -1e6..1e6f64,
    ]
    .boxed()
}

fn ints() -> BoxedStrategy<i64> {
    prop_oneof![
        2 => prop::sample::select(vec![
            i64::MIN, i64::MIN + 1, -(1 << 31) - 1, -(1 << 31), -32769, -32768, -129, -128, -1, 0, 1,
            127, 128, 255, 32767, 32768, (1 << 31) - 1, 1 << 31, (1 << 32) - 1, 1 << 32, i64::MAX,
        ]),
        2 => -1000i64..1000,
        3 => any::<i64>(),
    ]
    .boxed()
}

fn decimals() -> BoxedStrategy<String> {
    prop_oneof![
        4 => ("-?", "[0-9]{1,25}", prop::option::of("[0-9]{1,25}"), prop::option::of(-400i32..400)).prop_map(
            |(sign, int, frac, exp)| {
                let mut s = format!("{sign}{int}");
                if let Some(f) = frac {
                    s.push('.');
                    s.push_str(&f);
                }
                if let Some(e) = exp {
                    s.push_str(&format!("E{e:+}"));
                }
                s
            }
        ),
        1 => prop::sample::select(vec!["NaN", "Infinity", "-Infinity", "sNaN", "0", "-0", "0E-7", "1e", "", "10.50"])
            .prop_map(str::to_string),
    ]
    .boxed()
}

/// Instants within the years 1 to 9999 (what the text path's RFC 3339 can
/// say), at any precision.
fn times() -> BoxedStrategy<(i64, u32)> {
    (
        -62_135_596_800i64..253_402_300_799,
        prop_oneof![
            Just(0u32),
            (0u32..1000).prop_map(|ms| ms * 1_000_000),
            (0u32..1_000_000).prop_map(|us| us * 1000),
            0u32..1_000_000_000
        ],
    )
        .boxed()
}

fn strings() -> BoxedStrategy<String> {
    prop_oneof![
        3 => ".{0,12}",
        1 => "[a-z#:%\\x00 ]{0,8}",
        1 => Just(String::new()),
        1 => "[0-9A-HJKMNP-TV-Z]{26}", // ULID-shaped
        1 => "-?[0-9]{1,3}\\.[0-9]{1,4},-?[0-9]{1,3}\\.[0-9]{1,4}", // LAT,LON
        1 => "20[0-9]{2}-0[1-9]-1[0-9]T0[0-9]:[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?Z",
    ]
    .boxed()
}

fn args() -> BoxedStrategy<A> {
    prop_oneof![
        1 => Just(A::Null),
        1 => any::<bool>().prop_map(A::Bool),
        6 => ints().prop_map(A::Int),
        1 => (any::<bool>(), prop::collection::vec(any::<u8>(), 0..24)).prop_map(|(n, m)| A::Big(n, m)),
        3 => floats().prop_map(A::F64),
        1 => any::<f32>().prop_map(A::F32),
        4 => strings().prop_map(A::Str),
        2 => prop::collection::vec(any::<u8>(), 0..16).prop_map(A::Bytes),
        2 => prop_oneof![any::<u128>(), Just(0x017f22e2_79b0_7cc3_98c4_dc0c0c07398f_u128)].prop_map(A::Uuid),
        2 => times().prop_map(|(s, n)| A::Time(s, n)),
        2 => decimals().prop_map(A::Dec),
        1 => (-100.0..100.0f64, -200.0..200.0f64).prop_map(|(a, b)| A::Geo(a, b)),
    ]
    .boxed()
}

// ---------------------------------------------------------------------------
// The oracle: component texts as the bindings wrote them before
// ---------------------------------------------------------------------------

fn hex(b: &[u8]) -> String {
    lexikey::to_hex(b)
}

fn uuid_text(u: u128) -> String {
    let mut s = String::new();
    literal::format_uuid(u, &mut s);
    s
}

fn int_text(a: &A) -> Option<String> {
    lexikey::frontend::host::int_text(a.arg())
}

/// Whole milliseconds of an instant, if it holds them.
fn whole_ms(secs: i64, nanos: u32) -> Option<i64> {
    nanos
        .is_multiple_of(1_000_000)
        .then(|| secs * 1000 + i64::from(nanos / 1_000_000))
}

/// A float argument as the old rule read it (`float()`: floats and ints).
fn float(a: &A) -> Option<f64> {
    match a {
        A::F64(x) => Some(*x),
        A::F32(x) => Some(f64_of_f32(*x)),
        A::Int(v) => Some(*v as f64),
        A::Big(..) => int_text(a)?.parse::<f64>().ok().filter(|x| x.is_finite()),
        _ => None,
    }
}

/// The value text of a native column (`ty`: its type name without
/// direction); `None`: the old rule refused the value before any text.
fn native_value_text(ty: &str, a: &A) -> Option<String> {
    let fits = |lo: i128, hi: i128| match lexikey::frontend::host::int_of(a.arg()).flatten() {
        Some(v) if (lo..=hi).contains(&v) => Some(v.to_string()),
        _ => None,
    };
    match ty {
        "str" => match a {
            A::Str(s) => Some(s.clone()),
            _ => None,
        },
        "i64" => fits(i64::MIN.into(), i64::MAX.into()),
        "u64" => fits(0, u64::MAX.into()),
        "i32" => fits(i32::MIN.into(), i32::MAX.into()),
        "u32" => fits(0, u32::MAX.into()),
        "f64" => match a {
            A::F64(_) | A::F32(_) | A::Int(_) | A::Big(..) => float(a).map(|x| format!("{x:?}")),
            _ => None,
        },
        "f32" => match a {
            A::F32(x) => Some(format!("{x:?}")),
            A::F64(_) | A::Int(_) | A::Big(..) => float(a).map(|x| format!("{:?}", x as f32)),
            _ => None,
        },
        "bool" => match a {
            A::Bool(b) => Some(b.to_string()),
            _ => None,
        },
        "bytes" => match a {
            A::Bytes(b) => Some(hex(b)),
            _ => None,
        },
        "ts" => match a {
            A::Int(v) => Some(v.to_string()),
            A::Time(s, n) => whole_ms(*s, *n).map(|ms| ms.to_string()),
            _ => None,
        },
        "uuid" => match a {
            A::Uuid(u) => Some(uuid_text(*u)),
            _ => None,
        },
        "dec" => match a {
            A::Dec(t) => Some(t.clone()),
            A::Int(_) | A::Big(..) => int_text(a),
            _ => None,
        },
        "ulid" => match a {
            A::Str(s) => Some(s.clone()),
            A::Uuid(u) => Some(lexikey::kinds::timeid::Ulid(*u).encode()),
            _ => None,
        },
        "uuid7" => match a {
            A::Str(s) => Some(s.clone()),
            A::Uuid(u) => Some(uuid_text(*u)),
            _ => None,
        },
        "geo" => match a {
            A::Str(s) => Some(s.clone()),
            A::Geo(lat, lon) => Some(format!("{lat:?},{lon:?}")),
            _ => None,
        },
        _ => None,
    }
}

/// The component text of an `fdb-tuple` pair.
fn fdb_text(ty: &str, a: &A) -> Option<String> {
    if let A::Null = a {
        return Some("null:".into());
    }
    let v = match ty {
        "str" => match a {
            A::Str(s) => s.clone(),
            _ => return None,
        },
        "bytes" | "versionstamp" => match a {
            A::Bytes(b) => hex(b),
            _ => return None,
        },
        "int" | "i64" | "u64" | "i32" | "u32" => int_text(a)?,
        "f32" | "float" => match a {
            A::F32(x) => format!("0x{:08x}", x.to_bits()),
            _ => format!("0x{:08x}", f32_of_f64_keeping_nan(float(a)?).to_bits()),
        },
        "f64" | "double" => format!("0x{:016x}", float(a)?.to_bits()),
        "bool" => match a {
            A::Bool(b) => b.to_string(),
            _ => return None,
        },
        "uuid" => match a {
            A::Uuid(u) => uuid_text(*u),
            _ => return None,
        },
        _ => return None,
    };
    Some(format!("{ty}:{v}"))
}

/// A float argument as HBase and Phoenix texts wrote it.
fn float_text(a: &A, single: bool) -> Option<String> {
    match (a, single) {
        (A::F32(x), true) => Some(format!("{x:?}")),
        (_, true) => float(a).map(|x| format!("{:?}", x as f32)),
        (_, false) => float(a).map(|x| format!("{x:?}")),
    }
}

/// The component text of an `hbase-ordered` pair.
fn hbase_text(field: &str, a: &A) -> Option<String> {
    if let A::Null = a {
        return Some(field.into());
    }
    let kind = field.split('.').next().unwrap_or(field);
    let v = match kind {
        "int8" | "int16" | "int32" | "int64" => int_text(a)?,
        "float32" => float_text(a, true)?,
        "float64" => float_text(a, false)?,
        "numeric" => match a {
            A::Dec(t) => t.clone(),
            _ => int_text(a)?,
        },
        "text" => match a {
            A::Str(s) => s.clone(),
            _ => return None,
        },
        "blob-var" | "blob-copy" => match a {
            A::Bytes(b) => hex(b),
            _ => return None,
        },
        _ => return None,
    };
    Some(format!("{field}:{v}"))
}

/// The component text of a Phoenix pair.
fn phoenix_text(column: &str, a: &A) -> Option<String> {
    if let A::Null = a {
        return Some(column.into());
    }
    let ty = column.split('.').next().unwrap_or(column);
    let base = ty.split('(').next().unwrap_or(ty);
    let v = match base {
        "tinyint" | "smallint" | "integer" | "bigint" | "unsigned_tinyint"
        | "unsigned_smallint" | "unsigned_int" | "unsigned_long" => int_text(a)?,
        "float" | "unsigned_float" => float_text(a, true)?,
        "double" | "unsigned_double" => float_text(a, false)?,
        "boolean" => match a {
            A::Bool(b) => b.to_string(),
            _ => return None,
        },
        "date" | "time" | "unsigned_date" | "unsigned_time" => match a {
            A::Str(s) => s.clone(),
            A::Int(v) => v.to_string(),
            A::Time(s, n) => whole_ms(*s, *n)?.to_string(),
            _ => return None,
        },
        "timestamp" | "unsigned_timestamp" => match a {
            A::Str(s) => s.clone(),
            A::Int(v) => v.to_string(),
            A::Time(s, n) => {
                let ms = s * 1000 + i64::from(n / 1_000_000);
                let mut t = String::new();
                literal::format_ts(ms, &mut t);
                let rest = n % 1_000_000;
                if rest > 0 {
                    t.pop();
                    t.push_str(&format!("{rest:06}Z"));
                }
                t
            }
            _ => return None,
        },
        "varchar" | "char" => match a {
            A::Str(s) => s.clone(),
            _ => return None,
        },
        "varbinary" | "binary" => match a {
            A::Bytes(b) => hex(b),
            _ => return None,
        },
        "decimal" => match a {
            A::Dec(t) => t.clone(),
            _ => int_text(a)?,
        },
        _ => return None,
    };
    Some(format!("{column}:{v}"))
}

// ---------------------------------------------------------------------------
// Column types of every format
// ---------------------------------------------------------------------------

const NATIVE: &[&str] = &[
    "str", "i64", "u64", "i32", "u32", "f64", "f32", "bool", "bytes", "ts", "uuid", "dec", "ulid",
    "uuid7", "geo",
];
const FDB: &[&str] = &[
    "null",
    "bytes",
    "str",
    "int",
    "i64",
    "u64",
    "i32",
    "u32",
    "f32",
    "float",
    "f64",
    "double",
    "bool",
    "uuid",
    "versionstamp",
];
const HBASE: &[&str] = &[
    "int8",
    "int16",
    "int32",
    "int64",
    "float32",
    "float64",
    "numeric",
    "text",
    "blob-var",
    "blob-copy",
];
const PHOENIX: &[&str] = &[
    "tinyint",
    "smallint",
    "integer",
    "bigint",
    "unsigned_tinyint",
    "unsigned_smallint",
    "unsigned_int",
    "unsigned_long",
    "float",
    "double",
    "unsigned_float",
    "unsigned_double",
    "boolean",
    "date",
    "time",
    "timestamp",
    "unsigned_date",
    "unsigned_time",
    "unsigned_timestamp",
    "varchar",
    "varbinary",
    "decimal",
    "char(3)",
    "binary(4)",
];

fn spec(format: &str) -> KeySpec {
    KeySpec::new(KeyFormat::parse(format).expect("a format"))
}

/// A format and one of its column types, either direction where it has
/// them.
fn format_and_type() -> BoxedStrategy<(&'static str, String)> {
    let dir = |t: &'static str| prop_oneof![Just(t.to_string()), Just(format!("{t}.desc"))];
    prop_oneof![
        (
            prop::sample::select(vec!["hex", "base64", "decimal", "binary"]),
            prop::sample::select(NATIVE)
        )
            .prop_flat_map(move |(f, t)| (Just(f), dir(t))),
        prop::sample::select(FDB).prop_map(|t| ("fdb-tuple", t.to_string())),
        prop::sample::select(HBASE).prop_flat_map(move |t| (Just("hbase-ordered"), dir(t))),
        prop::sample::select(PHOENIX).prop_flat_map(move |t| (Just("phoenix"), dir(t))),
    ]
    .boxed()
}

/// The text a binding wrote for `(ty, a)` in `format` (`None`: refused
/// before any text).
fn oracle(format: &str, ty: &str, a: &A) -> Option<String> {
    match format {
        "fdb-tuple" => fdb_text(ty, a),
        "hbase-ordered" => hbase_text(ty, a),
        "phoenix" => phoenix_text(ty, a),
        _ => {
            let name = ty.split('.').next().unwrap_or(ty);
            native_value_text(name, a).map(|v| format!("{ty}:{v}"))
        }
    }
}

/// An `Out` given back as an argument (what a binding maps it to and back).
fn out_arg<'a>(o: &'a Out<'a>, big: &'a mut Vec<u8>) -> Arg<'a> {
    match o {
        Out::Null => Arg::Null,
        Out::Bool(b) => Arg::Bool(*b),
        Out::Int(v) => Arg::Int(*v),
        Out::U64(v) => {
            *big = v.to_be_bytes().to_vec();
            Arg::BigInt {
                negative: false,
                magnitude: big,
            }
        }
        Out::BigInt(i) => Arg::BigInt {
            negative: i.is_negative(),
            magnitude: i.magnitude(),
        },
        Out::F64(x) => Arg::F64(*x),
        Out::F32(x) => Arg::F32(*x),
        Out::Str(s) => Arg::Str(s),
        Out::Bytes(b) => Arg::Bytes(b),
        Out::Uuid(u) => Arg::Uuid(*u),
        Out::Time { secs, nanos } => Arg::Time {
            secs: *secs,
            nanos: *nanos,
        },
        Out::Decimal(t) => Arg::Decimal(t),
        Out::Geo(lat, lon) => Arg::Geo(*lat, *lon),
        Out::Nested(_) | Out::List(_) => Arg::Other,
        Out::Versionstamp(b) => Arg::Versionstamp(*b),
    }
}

proptest! {
    #![proptest_config(config())]

    /// typed = text, every column type of every format.
    #[test]
    fn typed_is_the_text_path((format, ty) in format_and_type(), a in args()) {
        let spec = spec(format);
        let col = spec.col_type(&ty).expect("a type of the format");
        let typed = spec.typed(&col, a.arg()).and_then(|c| spec.encode(&[c]).map_err(|e| lexikey::frontend::host::ArgError::Invalid(e.to_string())));
        match oracle(format, &ty, &a) {
            None => prop_assert!(typed.is_err(), "{format} {ty} {a:?}: typed took what the old rule refused: {typed:?}"),
            Some(text) => {
                let parsed = spec.parse(&text).map_err(|e| e.to_string()).and_then(|c| spec.encode(&[c]).map_err(|e| e.to_string()));
                match (&typed, &parsed) {
                    (Ok(k), Ok(p)) => prop_assert_eq!(k, p, "{} {} {:?} ({})", format, ty, a, text),
                    (Err(_), Err(_)) => {}
                    _ => prop_assert!(false, "{format} {ty} {a:?} ({text:?}): typed {typed:?}, text {parsed:?}"),
                }
            }
        }
    }

    /// Round trip: decoded values given back encode to the same key; the
    /// plain kinds decode to the very values given.
    #[test]
    fn decode_encode_round_trip((format, ty) in format_and_type(), a in args()) {
        let spec = spec(format);
        let Ok(spec) = spec.with_schema(&ty) else { return Ok(()) };
        let mut enc = spec.encoder().expect("a schema");
        let mut key = Vec::new();
        if enc.encode(&[a.arg()], &mut key).is_err() {
            return Ok(());
        }
        let v = spec.decode(&key).expect("a key the encoder wrote decodes");
        // hbase-ordered and phoenix: trailing nulls are not written.
        if v.is_empty() {
            prop_assert!(matches!(a, A::Null) || matches!(a.arg(), Arg::Str("") | Arg::Bytes([])));
            return Ok(());
        }
        let out = v.get(0).expect("a value the encoder wrote");
        let mut big = Vec::new();
        let back = out_arg(&out, &mut big);
        let mut again = Vec::new();
        enc.encode(&[back], &mut again).expect("a decoded value encodes");
        prop_assert_eq!(&again, &key, "{} {} {:?} -> {:?}", format, ty, a, out);
        let same = match (&a, &out) {
            (A::Int(x), Out::Int(y)) => x == y,
            (A::Str(x), Out::Str(y)) => ty.starts_with("char") || x.as_str() == y.as_ref() || ty.starts_with("ulid"),
            (A::Bytes(x), Out::Bytes(y)) => ty.starts_with("binary") || ty.starts_with("versionstamp") || x.as_slice() == *y,
            (A::Bool(x), Out::Bool(y)) => x == y,
            (A::Uuid(x), Out::Uuid(y)) => x == y,
            _ => true,
        };
        prop_assert!(same, "{format} {ty}: {a:?} decoded to {out:?}");
    }

    /// bulk = single: rows of 1 to 4 values, salted or not.
    #[test]
    fn row_encoder_is_encode(
        (format, tys) in prop_oneof![
            (prop::sample::select(vec!["hex", "base64", "decimal", "binary"]), prop::collection::vec(prop::sample::select(NATIVE), 1..5)),
            prop::collection::vec(prop::sample::select(FDB), 1..5).prop_map(|t| ("fdb-tuple", t)),
            prop::collection::vec(prop::sample::select(HBASE), 1..5).prop_map(|t| ("hbase-ordered", t)),
            prop::collection::vec(prop::sample::select(PHOENIX), 1..5).prop_map(|t| ("phoenix", t)),
        ],
        row in prop::collection::vec(args(), 4),
        salt in prop::option::of(1u16..6),
    ) {
        let mut spec = spec(format);
        if let Some(n) = salt {
            spec = match format {
                "phoenix" => spec.with_profile_options(Options { salt: Some(n), ..Options::default() }).expect("phoenix salt"),
                "fdb-tuple" | "hbase-ordered" => spec,
                _ => {
                    let f = spec.format().native();
                    spec.with_salter(Some(Salter::with_count(u32::from(n), SaltMode::Fast).expect("buckets").for_format(f))).expect("native salt")
                }
            };
        }
        let Ok(spec) = spec.with_schema(&tys.join(",")) else { return Ok(()) };
        let row = &row[..tys.len()];
        let args: Vec<Arg<'_>> = row.iter().map(A::arg).collect();
        let mut bulk = Vec::new();
        let by_rows = spec.encoder().expect("a schema").encode(&args, &mut bulk).map(|()| bulk);
        let single = args
            .iter()
            .enumerate()
            .map(|(i, a)| spec.field(i, *a).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()
            .and_then(|comps| spec.encode(&comps).map_err(|e| e.to_string()));
        match (&by_rows, &single) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "{format} {tys:?} {row:?}: rows {by_rows:?}, single {single:?}"),
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// `Rows` gives back every value as it was pushed, row by row and
    /// value by value (floats compared by their bits).
    #[test]
    fn rows_hold_what_was_pushed(width in 1usize..5, values in prop::collection::vec(args(), 0..40)) {
        let shown = |a: Arg<'_>| match a {
            Arg::F64(x) => format!("F64({:#x})", x.to_bits()),
            Arg::F32(x) => format!("F32({:#x})", x.to_bits()),
            Arg::Geo(a, b) => format!("Geo({:#x}, {:#x})", a.to_bits(), b.to_bits()),
            other => format!("{other:?}"),
        };
        let mut rows = Rows::new(width);
        for v in &values {
            rows.push(v.arg());
        }
        prop_assert_eq!(rows.len(), values.len() / width);
        let mut row = Vec::new();
        for r in 0..rows.len() {
            rows.row(r, &mut row);
            let want: Vec<String> = values[r * width..(r + 1) * width].iter().map(|v| shown(v.arg())).collect();
            prop_assert_eq!(row.iter().map(|a| shown(*a)).collect::<Vec<_>>(), want.clone());
            for (i, w) in want.iter().enumerate() {
                prop_assert_eq!(&shown(rows.get(r, i)), w);
            }
        }
    }

    /// An instant at any `i64` second gives its exact milliseconds (in
    /// `i128`, the oracle), or an error when it has a sub-millisecond part
    /// or its milliseconds do not fit an `i64`.
    #[test]
    fn instants_give_exact_milliseconds(
        secs in prop_oneof![
            any::<i64>(),
            (-3i64..3).prop_map(|d| i64::MIN / 1000 + d),
            (-3i64..3).prop_map(|d| i64::MAX / 1000 + d),
            Just(i64::MIN),
            Just(i64::MAX),
        ],
        nanos in prop_oneof![(0u32..1000).prop_map(|ms| ms * 1_000_000), 0u32..1_000_000_000],
    ) {
        let spec = spec("hex").with_schema("ts").expect("ts");
        let mut enc = spec.encoder().expect("a schema");
        let (mut got, mut want) = (Vec::new(), Vec::new());
        let res = enc.encode(&[Arg::Time { secs, nanos }], &mut got);
        let ns = i128::from(secs) * 1_000_000_000 + i128::from(nanos);
        match i64::try_from(ns.div_euclid(1_000_000)) {
            Ok(ms) if ns.rem_euclid(1_000_000) == 0 => {
                prop_assert!(res.is_ok(), "{secs} {nanos}: {res:?}");
                enc.encode(&[Arg::Int(ms)], &mut want).expect("ms");
                prop_assert_eq!(got, want);
            }
            _ => prop_assert!(res.is_err(), "{secs} {nanos}: {got:?}"),
        }
    }
}

#[test]
fn plain_values_take_each_formats_type() {
    let cases = [
        ("hex", Arg::Int(5), "i64"),
        ("hex", Arg::F32(1.5), "f32"),
        ("hex", Arg::Time { secs: 0, nanos: 0 }, "ts"),
        ("fdb-tuple", Arg::Int(5), "int"),
        ("fdb-tuple", Arg::Null, "null"),
        ("hbase-ordered", Arg::Str("a"), "text"),
        ("hbase-ordered", Arg::Decimal("1.5"), "numeric"),
        ("phoenix", Arg::Time { secs: 0, nanos: 0 }, "timestamp"),
        ("phoenix", Arg::Bytes(b"x"), "varbinary"),
    ];
    for (f, a, ty) in cases {
        assert_eq!(
            spec(f).plain_type(a).expect("a plain type").to_string(),
            ty,
            "{f} {a:?}"
        );
    }
    assert!(spec("hex").plain_type(Arg::Null).is_err());
    assert!(spec("fdb-tuple")
        .plain_type(Arg::Time { secs: 0, nanos: 0 })
        .is_err());
    let big = [1u8, 0, 0, 0, 0, 0, 0, 0, 0];
    let e = spec("hex")
        .plain_type(Arg::BigInt {
            negative: false,
            magnitude: &big,
        })
        .expect_err("beyond i64");
    assert_eq!(
        e.to_string(),
        "18446744073709551616 is out of range for i64, the type of a plain integer: give it as u64 or dec for more"
    );
    // A string holding ':' is a component; a bare profile type is a null.
    let hex = spec("hex");
    assert!(hex.is_component("i64:5") && !hex.is_component("population"));
    assert!(spec("phoenix").is_component("varchar") && !spec("phoenix").is_component("abc"));
    assert_eq!(
        hex.encode(&[
            hex.arg(Arg::Str("population")).expect("str"),
            hex.arg(Arg::Str("i64:5")).expect("comp")
        ])
        .expect("a key"),
        b"population#l8000000000000005"
    );
}

#[test]
fn errors_say_what_the_type_takes() {
    use lexikey::frontend::host::{ArgError, Want};
    let hex = spec("hex");
    let e = hex
        .pair("i64", Arg::Bool(true))
        .expect_err("a bool is not an integer");
    assert_eq!(
        e,
        ArgError::Expected {
            want: Want::Int,
            ty: "i64".into()
        }
    );
    let e = hex
        .pair(
            "ts",
            Arg::Time {
                secs: 1,
                nanos: 5_000,
            },
        )
        .expect_err("sub-millisecond");
    assert_eq!(
        e,
        ArgError::SubMillisecond {
            ty: "ts".into(),
            nanos: 5_000
        }
    );
    let e = hex.pair("dec", Arg::F64(0.1)).expect_err("not exact");
    assert!(matches!(e, ArgError::InexactDecimal { .. }));
    let e = hex.pair("u32", Arg::Int(-1)).expect_err("negative");
    assert_eq!(e.to_string(), "-1 is out of range for u32");
    let e = spec("hbase-ordered")
        .pair("int8", Arg::Int(300))
        .expect_err("300 > i8");
    assert_eq!(e.to_string(), "invalid int8 value \"300\"");
    let e = spec("phoenix")
        .pair("unsigned_int", Arg::Int(-1))
        .expect_err("unsigned");
    assert_eq!(
        e.to_string(),
        "unsigned_int value \"-1\" is out of range (0 to 2147483647)"
    );
    // Beyond i64 too: the range is stated (issue 38: UNSIGNED_LONG given
    // 2**64 - 1 said "invalid unsigned_long value").
    let e = spec("phoenix")
        .pair(
            "unsigned_long",
            Arg::BigInt {
                negative: false,
                magnitude: &[0xFF; 8],
            },
        )
        .expect_err("2**64 - 1 > i64::MAX");
    assert_eq!(
        e.to_string(),
        "unsigned_long value \"18446744073709551615\" is out of range (0 to 9223372036854775807)"
    );
    let e = spec("fdb-tuple")
        .pair("versionstamp", Arg::Bytes(b"short"))
        .expect_err("12 bytes");
    assert_eq!(
        e.to_string(),
        "invalid versionstamp value \"73686f7274\": expected 24 hex digits"
    );
    let e = hex
        .pair("uuid7", Arg::Uuid(0x123e4567_e89b_12d3_a456_426614174000))
        .expect_err("a v1");
    assert!(e.to_string().contains("version 1, not 7"), "{e}");
    // A row error names the value and its column.
    let s = spec("phoenix")
        .with_schema("varchar,integer.desc")
        .expect("schema");
    let e = s
        .encoder()
        .expect("enc")
        .encode(&[Arg::Str("a"), Arg::Null], &mut Vec::new())
        .expect_err("null integer");
    assert_eq!(e.index, Some(1));
    assert_eq!(e.label, "integer.desc");
}

#[test]
fn decoded_values_are_host_neutral() {
    let s = spec("phoenix")
        .with_schema("varchar,timestamp,decimal")
        .expect("schema");
    let mut key = Vec::new();
    s.encoder()
        .expect("enc")
        .encode(
            &[
                Arg::Str("a"),
                Arg::Time {
                    secs: -1,
                    nanos: 123_456_789,
                },
                Arg::Decimal("-1.50"),
            ],
            &mut key,
        )
        .expect("a key");
    let v = s.decode(&key).expect("decodes");
    assert_eq!(v.label(1), "timestamp");
    assert_eq!(
        v.get(1).expect("ts"),
        Out::Time {
            secs: -1,
            nanos: 123_456_789
        }
    );
    assert_eq!(v.get(2).expect("dec"), Out::Decimal("-1.5".into()));
    assert_eq!(v.offset(1), 2);
    assert_eq!(
        lexikey::frontend::host::time_text(-1, 123_456_789),
        "1969-12-31T23:59:59.123456789Z"
    );
    let f = spec("fdb-tuple");
    let v = f.decode(b"\x05\x15\x01\x00\xff\x00").expect("nested");
    assert_eq!(v.label(0), "nested");
    assert_eq!(
        v.get(0).expect("nested"),
        Out::Nested(vec![("int", Out::Int(1)), ("null", Out::Null)])
    );
}

proptest! {
    #![proptest_config(config())]

    /// A key over the length limit names the component to shorten: the one
    /// whose encoding is largest (the first of equals), with its size, in
    /// both the bulk and the one-key path, salted or not.
    #[test]
    fn key_too_long_names_the_largest_component(
        format in prop::sample::select(vec!["hex", "base64", "decimal", "binary"]),
        strs in prop::collection::vec("[a-z]{0,40}", 1..5),
        ints in prop::collection::vec(any::<i64>(), 0..3),
        salted in any::<bool>(),
    ) {
        let tys: Vec<&str> = strs.iter().map(|_| "str").chain(ints.iter().map(|_| "i64")).collect();
        let args: Vec<Arg<'_>> = strs
            .iter()
            .map(|s| Arg::Str(s))
            .chain(ints.iter().map(|&n| Arg::Int(n)))
            .collect();
        let mut base = spec(format);
        if salted {
            let f = base.format().native();
            base = base
                .with_salter(Some(Salter::with_count(8, SaltMode::Fast).expect("buckets").for_format(f)))
                .expect("salt");
        }
        let base = base.with_schema(&tys.join(",")).expect("schema");
        // Each component's size, encoded on its own (with its separator).
        let f = base.format().native();
        let comps: Vec<_> = args.iter().enumerate().map(|(i, a)| base.field(i, *a).expect("field")).collect();
        let sizes: Vec<usize> = comps
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut one = Vec::new();
                let lexikey::frontend::spec::Comp::Native(_, c) = c else { panic!("not native: {c:?}") };
                f.encode_component(c, &mut one).expect("encodes");
                one.len() + usize::from(i > 0 && f.is_text())
            })
            .collect();
        let (most, size) = sizes
            .iter()
            .enumerate()
            .fold((0, 0), |(bi, bs), (i, &s)| if s > bs || i == 0 { (i, s) } else { (bi, bs) });
        let key = base.encode(&comps).expect("no limit hit");
        prop_assume!(!key.is_empty());
        let spec = base.with_max_key_len(key.len() - 1);
        let single = spec.encode(&comps).expect_err("over the limit").to_string();
        let mut out = Vec::new();
        let bulk = spec.encoder().expect("schema").encode(&args, &mut out).expect_err("over the limit").to_string();
        let head = format!("key of {} bytes is longer than the limit of {} bytes; ", key.len(), key.len() - 1);
        let tail = format!(" is {size} bytes of it, the most: shorten it");
        let want_single = format!("{head}component {} (", most + 1);
        let want_bulk = format!("{head}component {} ({}){tail}", most + 1, tys[most]);
        prop_assert!(single.starts_with(&want_single) && single.ends_with(&tail), "{single} / {want_single} … {tail}");
        prop_assert_eq!(bulk, want_bulk);
    }
}

proptest! {
    #![proptest_config(config())]

    /// A row of value texts (the command line's `encode --stdin`) writes
    /// the key of its components parsed one by one, salted or not.
    #[test]
    fn text_rows_are_encode(
        (format, tys) in prop_oneof![
            (prop::sample::select(vec!["hex", "base64", "decimal", "binary"]), prop::collection::vec(prop::sample::select(NATIVE), 1..5)),
            prop::collection::vec(prop::sample::select(FDB), 1..5).prop_map(|t| ("fdb-tuple", t)),
            prop::collection::vec(prop::sample::select(HBASE), 1..5).prop_map(|t| ("hbase-ordered", t)),
            prop::collection::vec(prop::sample::select(PHOENIX), 1..5).prop_map(|t| ("phoenix", t)),
        ],
        row in prop::collection::vec(args(), 4),
        salt in prop::option::of(1u16..6),
    ) {
        let mut spec = spec(format);
        if let Some(n) = salt {
            spec = match format {
                "phoenix" => spec.with_profile_options(Options { salt: Some(n), ..Options::default() }).expect("phoenix salt"),
                "fdb-tuple" | "hbase-ordered" => spec,
                _ => spec.with_salter(Some(Salter::with_count(u32::from(n), SaltMode::Fast).expect("buckets"))).expect("native salt"),
            };
        }
        let Ok(spec) = spec.with_schema(&tys.join(",")) else { return Ok(()) };
        // The value texts of the row, where every value has one.
        let Some(cells) = tys
            .iter()
            .zip(&row)
            .map(|(ty, a)| oracle(format, ty, a).and_then(|t| t.strip_prefix(&format!("{ty}:")).map(str::to_string)))
            .collect::<Option<Vec<String>>>()
        else {
            return Ok(());
        };
        let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
        let mut bulk = b"before".to_vec();
        let by_rows = spec
            .encoder()
            .expect("a schema")
            .encode_texts(&cells, &mut bulk)
            .map(|()| bulk[6..].to_vec())
            .map_err(|e| {
                assert_eq!(bulk, b"before", "a failed row leaves the buffer as it was");
                e.to_string()
            });
        let single = tys
            .iter()
            .zip(&cells)
            .map(|(ty, v)| spec.parse(&format!("{ty}:{v}")).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()
            .and_then(|comps| spec.encode(&comps).map_err(|e| e.to_string()));
        match (&by_rows, &single) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "{format} {tys:?} {cells:?}: rows {by_rows:?}, single {single:?}"),
        }
    }
}

/// A native key decoded into reused components, salted: the salt of
/// another bucket is reported after the rest of the key decodes, and a
/// damaged rest first.
#[test]
fn decode_into_checks_the_salt_after_the_key() {
    use lexikey::frontend::spec::KeyError;
    let salted = spec("hex")
        .with_schema("str,i64")
        .expect("a schema")
        .with_salter(Some(
            Salter::with_count(16, SaltMode::Fast).expect("buckets"),
        ))
        .expect("a salter");
    let comps = salted
        .parse_components(&["str:a", "i64:5"])
        .expect("components");
    let key = salted.encode(&comps).expect("a key");
    let mut out = Vec::new();
    salted.decode_into(&key, &mut out).expect("its own key");
    assert_eq!(out.len(), 2);
    let mut other = key.clone();
    other[1] = if other[1] == b'0' { b'1' } else { b'0' };
    let Err(KeyError::WrongBucket(w)) = salted.decode_into(&other, &mut out) else {
        panic!("a wrong bucket")
    };
    assert_eq!(w.buckets, 16);
    assert_ne!(w.found, w.expected);
    let mut damaged = other.clone();
    damaged.push(b'!');
    let mut again = Vec::new();
    assert!(matches!(
        salted.decode_into(&damaged, &mut again),
        Err(KeyError::Decode(e)) if e.offset() > 3
    ));
    let fdb = spec("fdb-tuple");
    assert!(fdb.decode_into(b"\x15\x01", &mut Vec::new()).is_err());
}
