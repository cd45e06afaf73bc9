//! Salting: bucket choice (fast and Phoenix), physical ranges, the k-way
//! merge and `scan_merged`, as properties over a `MemStore`.

mod common;

use std::collections::BTreeMap;

use lexikey::interop::phoenix;
use lexikey::store::salt::{merge_sorted, merge_sorted_desc, SaltMode, Salter};
use lexikey::store::{Entry, MemStore, Store};
use lexikey::{reverse, tuple, Component, Format, KeyRange};
use proptest::prelude::*;

fn modes() -> impl Strategy<Value = SaltMode> {
    prop::sample::select(vec![SaltMode::Fast, SaltMode::Phoenix])
}

/// Bucket counts with the edges weighted up.
fn bucket_counts() -> impl Strategy<Value = u8> {
    prop_oneof![
        2 => prop::sample::select(vec![1u8, 2, 3, 16, 254, 255]),
        3 => 1u8..=255,
    ]
}

fn salters() -> impl Strategy<Value = Salter> {
    (bucket_counts(), modes(), common::formats())
        .prop_map(|(n, m, f)| Salter::new(n, m).expect("1..=255 buckets").for_format(f))
}

/// Unsalted keys: raw bytes, text, and composite text keys.
fn keys() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        2 => common::bytes(),
        1 => common::strings().prop_map(String::into_bytes),
        1 => (common::strings(), common::i64s()).prop_map(|(s, n)| {
            tuple::encode(Format::Hex, &[Component::asc(s), Component::asc(n)])
                .expect("hex encodes")
                .into_vec()
        }),
    ]
    .boxed()
}

/// Logical ranges: either side unbounded or a key (possibly empty ranges).
fn logical_ranges() -> impl Strategy<Value = KeyRange> {
    (prop::option::of(keys()), prop::option::of(keys()))
        .prop_map(|(start, end)| KeyRange { start, end })
}

/// The store holding the salted keys of `keys` (value = the unsalted key),
/// and the logical rows `keys ∩ range`, sorted.
fn setup(s: &Salter, keys: &[Vec<u8>], range: &KeyRange) -> (MemStore, Vec<Entry>) {
    let store = MemStore::new();
    let mut logical = BTreeMap::new();
    for k in keys {
        let _ = store.put_if_absent(&s.salted_key(k), k).expect("mem store");
        if range.contains(k) {
            let _ = logical.insert(k.clone(), k.clone());
        }
    }
    (store, logical.into_iter().collect())
}

proptest! {
    #![proptest_config(common::config())]

    /// The N physical ranges hold exactly the salted keys of the logical
    /// range: each bucket's range only its own bucket's keys, their union
    /// every logical row.
    #[test]
    fn ranges_union_is_logical_range(
        s in salters(),
        keys in prop::collection::vec(keys(), 0..40),
        range in logical_ranges(),
    ) {
        let (store, logical) = setup(&s, &keys, &range);
        let ranges = s.ranges(&range);
        let holds_nothing = range.is_empty() || range.end.as_deref() == Some(&[][..]);
        if holds_nothing {
            prop_assert!(ranges.is_empty());
        } else {
            prop_assert_eq!(ranges.len(), usize::from(s.buckets()));
        }
        let mut union = BTreeMap::new();
        for (b, r) in ranges.iter().enumerate() {
            prop_assert!(!r.is_empty());
            for (salted, value) in store.scan(r, usize::MAX).expect("mem store") {
                let (bucket, key) = s.unsalt(&salted).expect("a salted key");
                prop_assert_eq!(usize::from(bucket), b, "key {:?} in another bucket's range", salted);
                prop_assert_eq!(key, &value[..]);
                prop_assert!(union.insert(key.to_vec(), value).is_none(), "row seen twice");
            }
        }
        let union: Vec<_> = union.into_iter().collect();
        prop_assert_eq!(union, logical);
    }

    /// Merging the per-bucket scans gives the logical rows, sorted and
    /// complete; the descending merge of reversed scans gives them reversed.
    #[test]
    fn merge_is_sorted_and_complete(
        s in salters(),
        keys in prop::collection::vec(keys(), 0..40),
        range in logical_ranges(),
    ) {
        let (store, logical) = setup(&s, &keys, &range);
        let scans: Vec<_> = s
            .ranges(&range)
            .iter()
            .map(|r| store.scan(r, usize::MAX).expect("mem store"))
            .collect();
        let merged: Vec<_> = s.merge(scans.iter().cloned().map(Vec::into_iter).collect()).collect();
        prop_assert!(merged.windows(2).all(|w| w[0].0 < w[1].0), "not sorted");
        prop_assert_eq!(&merged, &logical);
        let rev: Vec<_> = merge_sorted_desc(
            scans.into_iter().map(|v| v.into_iter().rev()).collect(),
            s.salt_len(),
        )
        .collect();
        let mut expected = logical.clone();
        expected.reverse();
        prop_assert_eq!(rev, expected);
    }

    /// `scan_merged(limit)` is the first `limit` logical rows.
    #[test]
    fn scan_merged_is_a_prefix(
        s in salters(),
        keys in prop::collection::vec(keys(), 0..40),
        range in logical_ranges(),
        limit in 0usize..12,
    ) {
        let (store, logical) = setup(&s, &keys, &range);
        let got = s.scan_merged(&store, &range, limit).expect("mem store");
        prop_assert_eq!(&got[..], &logical[..limit.min(logical.len())]);
    }

    /// `merge_sorted` on arbitrary sorted inputs: the output is the sorted
    /// multiset union of the stripped keys, ties in scan order.
    #[test]
    fn merge_sorted_any_inputs(
        inputs in prop::collection::vec(prop::collection::vec(common::bytes(), 0..10), 0..8),
        salt_len in 0usize..3,
    ) {
        let strip = |k: &Vec<u8>| k[salt_len.min(k.len())..].to_vec();
        let scans: Vec<Vec<(Vec<u8>, usize)>> = inputs
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let mut v: Vec<_> = v.iter().map(|k| (k.clone(), i)).collect();
                v.sort_by_key(|(k, _)| strip(k));
                v
            })
            .collect();
        let mut expected: Vec<(Vec<u8>, usize)> =
            scans.iter().flatten().map(|(k, i)| (strip(k), *i)).collect();
        expected.sort(); // by key, then by scan index
        let merged: Vec<_> = merge_sorted(scans.into_iter().map(Vec::into_iter).collect(), salt_len).collect();
        prop_assert_eq!(merged, expected);
    }

    /// Buckets are in range; Phoenix mode is Phoenix's salt byte; salted
    /// keys split back canonically.
    #[test]
    fn buckets_and_unsalt(s in salters(), key in keys()) {
        let b = s.bucket(&key);
        prop_assert!(b < s.buckets());
        if s.mode() == SaltMode::Phoenix {
            prop_assert_eq!(b, phoenix::salt_byte(&key, u16::from(s.buckets())));
        }
        let salted = s.salted_key(&key);
        prop_assert_eq!(salted.len(), key.len() + s.salt_len());
        prop_assert_eq!(&salted[..s.salt_len()], &s.salt(b)[..]);
        prop_assert_eq!(s.unsalt(&salted), Ok((b, &key[..])));
        if s.is_text() {
            let salt = String::from_utf8(s.salt(b)).expect("ASCII salt");
            prop_assert_eq!(salt, format!("{b:02X}#"));
        }
    }

    /// Text salts keep text keys text: valid UTF-8, no C0 control byte, in
    /// the keys and in every range bound.
    #[test]
    fn text_salts_stay_printable(
        n in bucket_counts(),
        mode in modes(),
        format in prop::sample::select(vec![Format::Hex, Format::Base64, Format::Decimal]),
        s in common::strings(),
        bound in prop::option::of(common::strings()),
    ) {
        let salter = Salter::new(n, mode).expect("1..=255").for_format(format);
        let key = tuple::encode(format, &[Component::asc(s)]).expect("text encodes");
        let printable = |k: &[u8]| std::str::from_utf8(k).is_ok() && k.iter().all(|&b| b >= 0x20);
        prop_assert!(printable(&salter.salted_key(&key)));
        let logical = match bound {
            Some(b) => {
                let (start, end) = tuple::prefix_range(format, &[Component::asc(b)]).expect("text");
                KeyRange { start: Some(start), end }
            }
            None => KeyRange::all(),
        };
        for r in salter.ranges(&logical) {
            for side in [&r.start, &r.end].into_iter().flatten() {
                prop_assert!(printable(side), "{:?}", r);
            }
        }
    }

    /// `unsalt` never panics, and accepts only what `salted_key` writes:
    /// on random bytes and on salted keys with one byte changed.
    #[test]
    fn unsalt_is_canonical(
        s in salters(),
        random in common::bytes(),
        key in keys(),
        change in prop::option::of((any::<prop::sample::Index>(), any::<u8>())),
    ) {
        let mut mutated = s.salted_key(&key);
        if let Some((at, byte)) = change {
            let i = at.index(mutated.len());
            mutated[i] = byte;
        }
        for input in [random, mutated] {
            if let Ok((b, key)) = s.unsalt(&input) {
                prop_assert_eq!(s.salted_key(key), input.clone());
                prop_assert_eq!(b, s.bucket(key));
            }
        }
    }
}

#[test]
fn bucket_counts_are_checked() {
    assert!(Salter::new(0, SaltMode::Fast).is_err());
    assert!(Salter::with_count(0, SaltMode::Phoenix).is_err());
    assert!(Salter::with_count(256, SaltMode::Phoenix).is_err());
    assert_eq!(
        Salter::with_count(256, SaltMode::Fast)
            .unwrap_err()
            .to_string(),
        "salt buckets must be 1 to 255, got 256"
    );
    assert_eq!(
        Salter::with_count(255, SaltMode::Fast).unwrap().buckets(),
        255
    );
    assert_eq!(SaltMode::from_name("phoenix"), Some(SaltMode::Phoenix));
    assert_eq!(SaltMode::from_name("fast"), Some(SaltMode::Fast));
    assert_eq!(SaltMode::Fast.to_string(), "fast");
    assert_eq!(SaltMode::from_name("Fast"), None);
}

/// Phoenix's salt byte for vectors worked out by hand from its documented
/// algorithm (`Arrays.hashCode` over signed bytes, `abs(hash % N)`).
#[test]
fn phoenix_vectors() {
    let p = |n: u8| Salter::new(n, SaltMode::Phoenix).unwrap();
    // Arrays.hashCode(new byte[0]) == 1.
    assert_eq!(p(4).bucket(b""), 1);
    assert_eq!(p(1).bucket(b"anything"), 0);
    // 31 + 97 = 128.
    assert_eq!(p(3).bucket(b"a"), 2);
    // 31 * 128 + 98 = 4066; 4066 % 10 = 6.
    assert_eq!(p(10).bucket(b"ab"), 6);
    // 31 + (-1) = 30: 0xFF is -1 as a Java byte.
    assert_eq!(p(4).bucket(&[0xFF]), 2);
    // 31 + (-128) = -97: Java's % keeps the sign, abs() removes it.
    assert_eq!(p(10).bucket(&[0x80]), 7);
    assert_eq!(p(255).bucket(&[0x80]), 97);
    // Overflow wraps: hashCode of these six bytes is Integer.MIN_VALUE.
    assert_eq!(p(3).bucket(&[0x96, 0x00, 0xF6, 0x00, 0x13, 0xFE]), 2);
    assert_eq!(p(3).salted_key(b"a"), b"\x02a");
}

/// The fast hash is part of the key format: these vectors never change.
#[test]
fn fast_vectors() {
    let f = |n: u8| Salter::new(n, SaltMode::Fast).unwrap();
    assert_eq!(
        [f(16).bucket(b""), f(16).bucket(b"a"), f(16).bucket(b"b")],
        [14, 8, 6]
    );
    assert_eq!(f(1).bucket(b"a"), 0);
    let hex = f(16).for_format(Format::Hex);
    assert_eq!(hex.salted_key(b"a"), b"08#a");
    assert_eq!(hex.salted_key(b"b"), b"06#b");
    assert_eq!(hex.salted_key(b"c"), b"07#c");
}

/// Sequential keys — reverse timestamps one millisecond apart — spread
/// evenly (fast mode, 100,000 keys): every bucket within 5 standard
/// deviations of the mean (a binomial count), and Pearson's chi-squared
/// statistic within 5 standard deviations of its mean (`df`, variance
/// `2 df`), as a uniform hash gives.
#[test]
fn fast_mode_spreads_sequential_keys() {
    for n in [2u8, 7, 16, 64, 255] {
        let s = Salter::new(n, SaltMode::Fast).unwrap();
        let mut counts = vec![0u32; usize::from(n)];
        let keys = 100_000u32;
        for i in 0..keys {
            let ms = 1_700_000_000_000 + i64::from(i);
            let key = tuple::encode(
                Format::Binary,
                &[
                    Component::asc("events"),
                    Component::asc(reverse(ms).unwrap()),
                ],
            )
            .unwrap();
            counts[usize::from(s.bucket(&key))] += 1;
        }
        let mean = f64::from(keys) / f64::from(n);
        let sd = (mean * (1.0 - 1.0 / f64::from(n))).sqrt();
        let mut chi2 = 0.0;
        for (b, &c) in counts.iter().enumerate() {
            let dev = f64::from(c) - mean;
            assert!(
                dev.abs() < 5.0 * sd,
                "{n} buckets: bucket {b} holds {c}, mean {mean:.0}"
            );
            chi2 += dev * dev / mean;
        }
        let df = f64::from(n) - 1.0;
        assert!(
            chi2 < df + 5.0 * (2.0 * df).sqrt(),
            "{n} buckets: chi2 {chi2:.1}, df {df}"
        );
    }
}

#[test]
fn unsalt_errors_say_where() {
    let s = Salter::new(16, SaltMode::Fast)
        .unwrap()
        .for_format(Format::Hex);
    assert_eq!(
        s.unsalt(b"0").unwrap_err().to_string(),
        "unexpected end of input at byte 1: expected a salt of two hex digits and '#'"
    );
    assert_eq!(
        s.unsalt(b"0g#a").unwrap_err().to_string(),
        "invalid byte 'g' (0x67) at byte 1: expected an UPPERCASE hex digit of the salt"
    );
    assert_eq!(
        s.unsalt(b"08$a").unwrap_err().to_string(),
        "invalid byte '$' (0x24) at byte 2: expected '#' after the salt"
    );
    assert_eq!(
        s.unsalt(b"10#a").unwrap_err().to_string(),
        "non-canonical encoding at byte 0: salt bucket out of range"
    );
    let b = Salter::new(16, SaltMode::Fast).unwrap();
    assert!(b.unsalt(b"").is_err());
    assert_eq!(b.unsalt(b"\x08a").unwrap(), (8, &b"a"[..]));
}
