//! `diff` against brute force: for random pairs of layouts (small schemas
//! over core types, ascending and descending, every native format, salted
//! or not) and random rows, old-encode then new-decode must give the same
//! values and the new keys must sort as the old ones do exactly when the
//! verdict says compatible; a breaking verdict's witness key is checked
//! with the codecs. See: issue #43.

use lexikey::frontend::host::Arg;
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::{Comp, KeySpec};
use lexikey::store::salt::{SaltMode, Salter};
use lexikey_design::diff;
use proptest::prelude::*;

#[path = "../../tests/support/size.rs"]
mod size;

const TYPES: [&str; 6] = ["str", "i64", "i32", "u32", "bool", "f64"];
const FORMATS: [&str; 4] = ["hex", "base64", "decimal", "binary"];

/// A layout: format, salt buckets (0: none), columns (`i64.desc`).
#[derive(Debug, Clone)]
struct Layout {
    format: &'static str,
    salt: u8,
    cols: Vec<String>,
}

impl Layout {
    fn spec(&self, cols: &[String]) -> KeySpec {
        let s = KeySpec::new(KeyFormat::parse(self.format).unwrap())
            .with_salter((self.salt > 0).then(|| Salter::new(self.salt, SaltMode::Fast).unwrap()))
            .unwrap();
        s.with_schema(&cols.join(",")).unwrap()
    }
}

fn col() -> impl Strategy<Value = String> {
    (0..TYPES.len(), any::<bool>())
        .prop_map(|(t, d)| format!("{}{}", TYPES[t], if d { ".desc" } else { "" }))
}

fn layout() -> impl Strategy<Value = Layout> {
    (
        0..FORMATS.len(),
        prop_oneof![Just(0u8), Just(2), Just(4)],
        prop::collection::vec(col(), 1..4),
    )
        .prop_map(|(f, salt, cols)| Layout {
            format: FORMATS[f],
            salt,
            cols,
        })
}

/// The new layout: the old one changed in one way, or a random one.
fn pair() -> impl Strategy<Value = (Layout, Layout)> {
    (
        layout(),
        0u8..8,
        layout(),
        col(),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(old, how, other, c, ix)| {
            let mut new = old.clone();
            let i = ix.index(old.cols.len());
            match how {
                0 => {}
                1 => new.cols.push(c),
                2 => {
                    new.cols[i] = match new.cols[i].strip_suffix(".desc") {
                        Some(t) => t.to_string(),
                        None => format!("{}.desc", new.cols[i]),
                    }
                }
                3 => new.cols[i] = c,
                4 => new.format = other.format,
                5 => new.salt = other.salt,
                6 if new.cols.len() > 1 => {
                    new.cols.pop();
                }
                _ => new = other,
            }
            (old, new)
        })
}

/// A random value of a type, edges often.
fn value(ty: &str) -> BoxedStrategy<Val> {
    match ty.trim_end_matches(".desc") {
        "str" => prop_oneof![Just(String::new()), "[a-c#$~]{0,3}", "\\PC{0,4}"]
            .prop_map(Val::Str)
            .boxed(),
        "bool" => any::<bool>().prop_map(Val::Bool).boxed(),
        "f64" => prop_oneof![
            Just(0.0),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            prop::num::f64::NORMAL,
            -1e6f64..1e6
        ]
        .prop_map(Val::F64)
        .boxed(),
        _ => prop_oneof![
            Just(0i64),
            Just(-1),
            Just(i64::MAX),
            Just(i64::MIN),
            Just(i64::from(u32::MAX)),
            -300i64..300,
            any::<i32>().prop_map(i64::from),
            any::<u32>().prop_map(i64::from),
            any::<i64>()
        ]
        .prop_map(Val::Int)
        .boxed(),
    }
}

#[derive(Debug, Clone)]
enum Val {
    Str(String),
    Bool(bool),
    F64(f64),
    Int(i64),
}

impl Val {
    fn arg(&self) -> Arg<'_> {
        match self {
            Val::Str(s) => Arg::Str(s),
            Val::Bool(b) => Arg::Bool(*b),
            Val::F64(x) => Arg::F64(*x),
            Val::Int(i) => Arg::Int(*i),
        }
    }
}

fn key(spec: &KeySpec, row: &[Val]) -> Option<Vec<u8>> {
    let comps: Vec<Comp> = row
        .iter()
        .enumerate()
        .map(|(i, v)| spec.field(i, v.arg()).ok())
        .collect::<Option<_>>()?;
    spec.encode(&comps).ok()
}

/// The values of a key, without their type labels.
fn values(spec: &KeySpec, key: &[u8]) -> Option<Vec<String>> {
    let v = spec.decode(key).ok()?;
    Some(
        v.component_texts()
            .iter()
            .map(|t| t.split_once(':').map_or(t.clone(), |(_, v)| v.to_string()))
            .collect(),
    )
}

/// Brute force: whether some row breaks (misread or reordered).
fn breaks(old: &Layout, new: &Layout, rows: &[Vec<Val>]) -> bool {
    let o = old.spec(&old.cols);
    if new.cols.len() < old.cols.len() {
        // Old keys have a value the new layout has no column for.
        return rows.iter().any(|r| key(&o, r).is_some());
    }
    let n = new.spec(&new.cols[..old.cols.len()]);
    let unsalted = |s: &KeySpec, k: &[u8]| s.unsalted(k).map(<[u8]>::to_vec).unwrap_or_default();
    let mut keys = Vec::new();
    for r in rows {
        let Some(k) = key(&o, r) else { continue };
        if values(&n, &k) != values(&o, &k) {
            return true;
        }
        keys.push((unsalted(&o, &k), key(&n, r).map(|k| unsalted(&n, &k))));
    }
    keys.iter().any(|(a, na)| {
        keys.iter().any(|(b, nb)| match (na, nb) {
            (Some(na), Some(nb)) => a < b && na >= nb,
            _ => false,
        })
    })
}

fn rows(cols: &[String]) -> impl Strategy<Value = Vec<Vec<Val>>> {
    let row: Vec<BoxedStrategy<Val>> = cols.iter().map(|c| value(c)).collect();
    prop::collection::vec(row, 40..80)
}

/// 96 cases at CI size, 1,000 at the full size (`LEXIKEY_TEST_SIZE=full`);
/// `LEXIKEY_DIFF_CASES` sets another count.
fn cases() -> u32 {
    std::env::var("LEXIKEY_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| size::pick(96, 1_000))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// The verdict matches brute force: random rows that break imply a
    /// breaking verdict; a breaking verdict's witness breaks by the same
    /// test, and random rows find a break too.
    #[test]
    fn verdict_matches_brute_force(
        (old, new, rows) in pair().prop_flat_map(|(o, n)| {
            let r = rows(&o.cols);
            (Just(o), Just(n), r)
        })
    ) {
        let d = diff(&old.spec(&old.cols), &new.spec(&new.cols)).unwrap();
        let brute = breaks(&old, &new, &rows);
        prop_assert!(!(brute && d.compatible), "brute force breaks, verdict compatible: {}", d.reason);
        if !d.compatible {
            prop_assert!(d.migration.is_some());
            prop_assert!(d.decode_witness.is_some() || d.order_witness.is_some());
            prop_assert!(brute, "verdict breaking, random rows do not: {}", d.reason);
        } else {
            prop_assert!(d.decode_witness.is_none() && d.order_witness.is_none());
        }
    }

    /// A layout against itself or with trailing columns appended is
    /// compatible.
    #[test]
    fn identity_and_appended_columns_are_compatible(old in layout(), extra in prop::collection::vec(col(), 0..3)) {
        let mut new = old.clone();
        new.cols.extend(extra);
        let d = diff(&old.spec(&old.cols), &new.spec(&new.cols)).unwrap();
        prop_assert!(d.compatible, "{}", d.reason);
    }
}
