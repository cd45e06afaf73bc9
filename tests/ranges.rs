//! Range exactness: the keys inside a computed range are exactly the keys of
//! the tuples that satisfy the predicate (computed on the values), for every
//! format, direction and predicate; text bounds stay valid UTF-8; prefix
//! ends are least upper bounds.

mod common;

use common::*;
use lexikey::range::{prefix_end, text_prefix_end, RangeError, RangeQuery};
use lexikey::{tuple, Component, Dir, Field, Format, Type, Value};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    Eq,
    Ge,
    Gt,
    Le,
    Lt,
    Between(bool, bool),
    StrPrefix,
}

/// A schema, a pool of a few values per field (so rows share prefixes and
/// predicates hit), and rows drawn mostly from the pool.
fn world(
    format: Format,
) -> impl Strategy<
    Value = (
        Vec<Field>,
        Vec<Vec<Value<'static>>>,
        Vec<Vec<Component<'static>>>,
    ),
> {
    prop::collection::vec(field_for(format), 2..=3).prop_flat_map(move |schema| {
        let pools = schema
            .iter()
            .map(|f| prop::collection::vec(value_of(f.ty), 1..4))
            .collect::<Vec<_>>();
        (Just(schema), pools).prop_flat_map(|(schema, pools)| {
            let row = schema
                .iter()
                .zip(&pools)
                .map(|(f, pool)| {
                    let f = *f;
                    let pooled = prop::sample::select(pool.clone());
                    prop_oneof![4 => pooled, 1 => value_of(f.ty)].prop_map(move |value| Component {
                        value,
                        dir: f.dir,
                        width: None,
                        nulls: None,
                        list: 0,
                    })
                })
                .collect::<Vec<_>>();
            (
                Just(schema),
                Just(pools),
                prop::collection::vec(row, 1..200),
            )
        })
    })
}

fn satisfies(op: &Op, v: &Value<'_>, a: &Value<'_>, b: &Value<'_>) -> bool {
    match op {
        Op::Eq => v == a,
        Op::Ge => v >= a,
        Op::Gt => v > a,
        Op::Le => v <= a,
        Op::Lt => v < a,
        Op::Between(li, hi) => {
            (if *li { v >= a } else { v > a }) && (if *hi { v <= b } else { v < b })
        }
        Op::StrPrefix => match (v, a) {
            (Value::Str(s), Value::Str(p)) => s.starts_with(p.as_ref()),
            _ => false,
        },
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn range_is_exact(
        (format, (schema, pools, rows)) in formats().prop_flat_map(|f| (Just(f), world(f))),
        k_seed in any::<prop::sample::Index>(),
        prefix_row in any::<prop::sample::Index>(),
        op in prop::sample::select(vec![Op::Eq, Op::Ge, Op::Gt, Op::Le, Op::Lt,
            Op::Between(true, true), Op::Between(true, false), Op::Between(false, true),
            Op::Between(false, false), Op::StrPrefix]),
        pick in (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
        fresh in (any::<bool>(), any::<u64>()),
        cut in 0usize..4,
    ) {
        let k = k_seed.index(schema.len()); // the constrained component
        let field = schema[k];
        let prefix: Vec<Component<'static>> = rows[prefix_row.index(rows.len())][..k].to_vec();
        let pool = &pools[k];
        let mut a = pool[pick.0.index(pool.len())].clone();
        let b = pool[pick.1.index(pool.len())].clone();
        if fresh.0 {
            // An operand outside the pool now and then: edge values too.
            a = match field.ty {
                Type::I64 => Value::I64(fresh.1 as i64),
                Type::U64 => Value::U64(fresh.1),
                _ => a,
            };
        }
        let op = if matches!(op, Op::StrPrefix) && field.ty != Type::Str { Op::Ge } else { op };
        if let (Op::StrPrefix, Value::Str(s)) = (&op, &a) {
            // Prefixes of pooled strings, by characters.
            let s: String = s.chars().take(cut).collect();
            a = Value::Str(s.into());
        }
        let comp = |v: &Value<'static>| Component { value: v.clone(), dir: field.dir, width: None, nulls: None, list: 0 };
        let q = RangeQuery::new(format).prefix(&prefix);
        let q = match &op {
            Op::Eq => q.eq(comp(&a)),
            Op::Ge => q.ge(comp(&a)),
            Op::Gt => q.gt(comp(&a)),
            Op::Le => q.le(comp(&a)),
            Op::Lt => q.lt(comp(&a)),
            Op::Between(li, hi) => q.between(comp(&a), *li, comp(&b), *hi),
            Op::StrPrefix => match &a { Value::Str(s) => q.str_prefix(s, field.dir), _ => unreachable!() },
        };
        let expected: Vec<bool> = rows.iter().map(|r| {
            r[..k] == prefix[..] && satisfies(&op, &r[k].value, &a, &b)
        }).collect();
        match q.build() {
            Ok(range) => {
                if format.is_text() {
                    for bound in [&range.start, &range.end].into_iter().flatten() {
                        prop_assert!(std::str::from_utf8(bound).is_ok(), "bound not UTF-8: {:?}", bound);
                        prop_assert!(bound.iter().all(|&x| x >= 0x20));
                    }
                }
                for (row, want) in rows.iter().zip(&expected) {
                    let key = tuple::encode(format, row).unwrap();
                    prop_assert_eq!(range.contains(&key), *want,
                        "row {:?} key {:?} range {:?} op {:?} a {:?} b {:?}", row, key, range, op, a, b);
                    // Keys with more components after the row are decided the same way.
                    let mut longer = row.clone();
                    longer.push(Component::asc("zz"));
                    let lk = tuple::encode(format, &longer).unwrap();
                    prop_assert_eq!(range.contains(&lk), *want);
                    // The bare prefix (a shorter tuple) is never inside.
                    let pk = tuple::encode(format, &prefix).unwrap();
                    if !prefix.is_empty() { prop_assert!(!range.contains(&pk)); }
                }
            }
            Err(RangeError::Empty) => prop_assert!(expected.iter().all(|w| !w)),
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }

    /// prefix_end is the least upper bound of the keys with the prefix.
    #[test]
    fn prefix_end_is_least_upper_bound(p in bytes(), tail in bytes(), other in bytes()) {
        let mut with = p.clone();
        with.extend_from_slice(&tail);
        match prefix_end(&p) {
            None => prop_assert!(p.iter().all(|&b| b == 0xFF)),
            Some(e) => {
                prop_assert!(with < e);
                // Every key >= e does not start with p; every key < e and >= p does.
                if other >= e { prop_assert!(!other.starts_with(&p)); }
                if other >= p && other < e { prop_assert!(other.starts_with(&p)); }
            }
        }
    }

    /// text_prefix_end: valid UTF-8, above every string with the prefix, and
    /// every string at or above it does not have the prefix.
    #[test]
    fn text_prefix_end_is_least_upper_bound(p in strings(), tail in strings(), other in strings()) {
        let with = format!("{p}{tail}");
        match text_prefix_end(&p) {
            None => prop_assert!(p.chars().all(|c| c == char::MAX)),
            Some(e) => {
                prop_assert!(with.as_bytes() < e.as_bytes());
                if other.as_bytes() >= e.as_bytes() { prop_assert!(!other.starts_with(&p)); }
                if other.as_bytes() >= p.as_bytes() && other.as_bytes() < e.as_bytes() {
                    prop_assert!(other.starts_with(&p));
                }
            }
        }
    }
}

#[test]
fn population_example() {
    let r = RangeQuery::new(Format::Hex)
        .prefix(&[Component::asc("population")])
        .ge(Component::asc(1_000_000_i64))
        .build()
        .unwrap();
    assert_eq!(
        r.start.as_deref(),
        Some(&b"population#l80000000000F4240"[..])
    );
    assert_eq!(r.end.as_deref(), Some(&b"population$"[..]));
}

#[test]
fn impossible_predicates_are_empty() {
    let p = [Component::asc("p")];
    let q = RangeQuery::new(Format::Hex).prefix(&p);
    assert_eq!(
        q.clone().gt(Component::asc(i64::MAX)).build(),
        Err(RangeError::Empty)
    );
    assert_eq!(
        q.clone().lt(Component::asc(i64::MIN)).build(),
        Err(RangeError::Empty)
    );
    assert_eq!(
        q.clone()
            .ge(Component::asc(5_i64))
            .lt(Component::asc(3_i64))
            .build(),
        Err(RangeError::Empty)
    );
    // Binary: > the largest u64 under no prefix has no key at all.
    assert_eq!(
        RangeQuery::new(Format::Binary)
            .gt(Component::asc(u64::MAX))
            .build(),
        Err(RangeError::Empty)
    );
    // Disagreeing predicates are refused.
    assert!(matches!(
        q.ge(Component::asc(5_i64))
            .lt(Component::desc(3_i64))
            .build(),
        Err(RangeError::Mismatch(_))
    ));
    let _ = Dir::Asc;
}
