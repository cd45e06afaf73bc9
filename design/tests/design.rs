//! Properties of `lint` and `plan` over random samples: a key whose leading
//! component follows insertion order is a hot spot, a uniformly random one
//! is not; split points are sorted, distinct and cut the sample into
//! near-equal parts; the JSON report has every contract field, typed.
//! See: issue #43.

use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::KeySpec;
use lexikey_design::{lint, plan, split_points, Sample, Target};
use proptest::prelude::*;

fn spec(format: &str, schema: &str) -> KeySpec {
    KeySpec::new(KeyFormat::parse(format).unwrap())
        .with_schema(schema)
        .unwrap()
}

/// A CSV sample of (leading i64, trailing str) rows.
fn sample(spec: &KeySpec, leads: &[i64], tail: &[u32]) -> Sample {
    let mut csv = String::new();
    for (i, l) in leads.iter().enumerate() {
        csv.push_str(&format!("{l},user{}\n", tail[i % tail.len()]));
    }
    Sample::from_csv(spec, csv.as_bytes()).unwrap()
}

fn formats() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("hex"), Just("base64"), Just("binary"), Just("decimal")]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A leading component that rises (timestamps, sequences) or falls
    /// (decreasing IDs) with insertion order is a hot spot: every recent
    /// write lands in one region; salting spreads them.
    #[test]
    fn monotone_leading_component_is_flagged(
        n in 200usize..1500,
        start in -1_000_000i64..1_000_000,
        steps in prop::collection::vec(1i64..1000, 1..50),
        falling in any::<bool>(),
        regions in 2usize..40,
        tail in prop::collection::vec(any::<u32>(), 1..20),
        format in formats(),
    ) {
        let s = spec(format, "i64,str");
        let mut v = start;
        let leads: Vec<i64> = (0..n).map(|i| {
            v += if falling { -steps[i % steps.len()] } else { steps[i % steps.len()] };
            v
        }).collect();
        let smp = sample(&s, &leads, &tail);
        let l = lint(&s, &smp, regions).unwrap();
        prop_assert!(l.hot_spot, "{}", l.to_text());
        prop_assert_eq!(l.busiest_region_share, 1.0);
        prop_assert_eq!(l.direction.map(|d| d.name()), Some(if falling { "falling" } else { "rising" }));
        let b = l.suggested_salt_buckets.expect("a fix");
        let after = l.share_after_salting.expect("measured");
        prop_assert!(after < l.busiest_region_share, "{b} buckets: {after}");
        let counts = l.writes_per_region_after_salting.as_ref().unwrap();
        prop_assert_eq!(counts.iter().sum::<usize>(), l.window_rows);
    }

    /// A uniformly random leading component is not a hot spot.
    #[test]
    fn random_leading_component_is_not_flagged(
        leads in prop::collection::vec(any::<i64>(), 400..1500),
        regions in 2usize..40,
        tail in prop::collection::vec(any::<u32>(), 1..20),
        format in formats(),
    ) {
        let s = spec(format, "i64,str");
        let smp = sample(&s, &leads, &tail);
        let l = lint(&s, &smp, regions).unwrap();
        prop_assert!(!l.hot_spot, "{}", l.to_text());
        prop_assert!(l.suggested_salt_buckets.is_none());
        prop_assert_eq!(l.writes_per_region.iter().sum::<usize>(), l.window_rows);
    }

    /// Split points are sorted, distinct, and cut a sample of distinct
    /// keys into parts of n/regions rows, give or take one.
    #[test]
    fn split_points_cut_near_equal_parts(
        leads in prop::collection::hash_set(any::<i64>(), 1..600),
        regions in 1usize..64,
        format in formats(),
    ) {
        let s = spec(format, "i64,str");
        let leads: Vec<i64> = leads.into_iter().collect();
        let smp = sample(&s, &leads, &[7]);
        let n = smp.len();
        let got = split_points(&s, &smp, regions);
        if n < regions {
            prop_assert!(got.unwrap_err().to_string().contains("too few"));
            return Ok(());
        }
        let splits = got.unwrap();
        prop_assert_eq!(splits.len(), regions - 1);
        prop_assert!(splits.windows(2).all(|w| w[0] < w[1]));
        let mut parts = vec![0usize; regions];
        for i in 0..n {
            parts[splits.partition_point(|k| k.as_slice() <= smp.key(i))] += 1;
        }
        let (lo, hi) = (n / regions, n.div_ceil(regions));
        prop_assert!(parts.iter().all(|&p| p >= lo && p <= hi), "{parts:?} for {n} rows");
    }

    /// A salted layout is split at bucket salts only: sorted, distinct, each
/// the salt of a bucket the sample holds.
#[test]
fn salted_split_points_are_bucket_salts(
    leads in prop::collection::hash_set(any::<i64>(), 200..400),
    buckets in 2u8..64,
    regions in 1usize..8,
    format in formats(),
) {
    use lexikey::store::salt::{SaltMode, Salter};
    let f = lexikey::Format::parse(format).unwrap();
    let salter = Salter::new(buckets, SaltMode::Fast).unwrap().for_format(f);
    let s = spec(format, "i64,str").with_salter(Some(salter)).unwrap();
    let leads: Vec<i64> = leads.into_iter().collect();
    let smp = sample(&s, &leads, &[7]);
    let got = split_points(&s, &smp, regions);
    let held: std::collections::BTreeSet<Vec<u8>> =
        (0..smp.len()).map(|i| smp.key(i)[..salter.salt_len()].to_vec()).collect();
    if held.len() < regions {
        prop_assert!(got.is_err());
        return Ok(());
    }
    let splits = got.unwrap();
    prop_assert_eq!(splits.len(), regions - 1);
    prop_assert!(splits.windows(2).all(|w| w[0] < w[1]));
    prop_assert!(splits.iter().all(|k| held.contains(k) && k != held.first().unwrap()));
}

/// The JSON report holds the contract's fields with their types.
    #[test]
    fn json_fields_are_typed(
        leads in prop::collection::vec(any::<i64>(), 1..300),
        regions in 1usize..32,
        sorted in any::<bool>(),
    ) {
        let s = spec("hex", "i64,str");
        let mut leads = leads;
        if sorted {
            leads.sort_unstable();
        }
        let l = lint(&s, &sample(&s, &leads, &[1, 2, 3]), regions).unwrap();
        let j = l.to_json();
        let field = |name: &str| -> String {
            let at = j.find(&format!("\"{name}\":")).unwrap_or_else(|| panic!("{name} in {j}"));
            j[at + name.len() + 3..].chars().take_while(|&c| c != ',' && c != '}').collect()
        };
        prop_assert!(["true", "false"].contains(&field("hot_spot").as_str()));
        let share: f64 = field("busiest_region_share").parse().unwrap();
        prop_assert!((0.0..=1.0).contains(&share));
        let b = field("suggested_salt_buckets");
        prop_assert!(b == "null" || b.parse::<u8>().is_ok(), "{b}");
        prop_assert_eq!(b == "null", !l.hot_spot);
        let kb = &j[j.find("\"key_bytes\":").unwrap()..];
        for p in ["p50", "p99", "max"] {
            let at = kb.find(&format!("\"{p}\":")).unwrap();
            let v: String = kb[at + p.len() + 3..].chars().take_while(char::is_ascii_digit).collect();
            prop_assert!(v.parse::<usize>().is_ok());
        }
        prop_assert!(l.key_bytes.p50 <= l.key_bytes.p99 && l.key_bytes.p99 <= l.key_bytes.max);
    }
}

/// The keys over each store's limit are named, by row number.
#[test]
fn long_keys_are_named() {
    let s = spec("hex", "str").with_max_key_len(1 << 20);
    let mut csv = String::new();
    for len in [10usize, 1100, 3000, 5000, 40_000] {
        csv.push_str(&"x".repeat(len));
        csv.push('\n');
    }
    let l = lint(&s, &Sample::from_csv(&s, csv.as_bytes()).unwrap(), 4).unwrap();
    let over = |store: &str| {
        l.limits
            .iter()
            .find(|c| c.store == store)
            .map(|c| c.first_rows_over.clone())
            .unwrap()
    };
    assert_eq!(over("dynamodb sort key"), [2, 3, 4, 5]);
    assert_eq!(over("dynamodb partition key"), [3, 4, 5]);
    assert_eq!(over("bigtable row key"), [4, 5]);
    assert_eq!(over("hbase row key"), [5]);
    assert_eq!(over("cassandra key"), Vec::<usize>::new());
    assert_eq!(l.key_bytes.max, 40_000);
}

/// Skew: the leading values with the most rows, most first.
#[test]
fn celebrity_prefix_shows_up() {
    let s = spec("hex", "str,i64");
    let mut csv = String::new();
    for i in 0..100 {
        let user = if i % 2 == 0 {
            "celebrity".to_string()
        } else {
            format!("u{i}")
        };
        csv.push_str(&format!("{user},{i}\n"));
    }
    let l = lint(&s, &Sample::from_csv(&s, csv.as_bytes()).unwrap(), 4).unwrap();
    assert_eq!(l.skew[0].value, "celebrity");
    assert_eq!(l.skew[0].rows, 50);
    assert_eq!(l.skew[0].share, 0.5);
    assert_eq!(l.skew[1].rows, 1);
}

/// Phoenix: the leading values where they change at the quantiles, in a
/// CREATE TABLE of the schema's columns.
#[test]
fn phoenix_split_on_leading_values() {
    let s = spec("phoenix", "varchar,bigint.desc");
    let mut csv = String::new();
    for (i, user) in ["d'Arc", "bob", "carol", "alice"].iter().enumerate() {
        for j in 0..3 {
            csv.push_str(&format!("\"{user}\",{}\n", i * 3 + j));
        }
    }
    let smp = Sample::from_csv(&s, csv.as_bytes()).unwrap();
    assert_eq!(
        plan(&s, &smp, 4, Target::Phoenix, "events").unwrap(),
        "CREATE TABLE events (K1 VARCHAR NOT NULL, K2 BIGINT NOT NULL, CONSTRAINT PK PRIMARY KEY \
         (K1, K2 DESC)) SPLIT ON ('bob', 'carol', 'd''Arc')\n"
    );
    let e = plan(&s, &smp, 5, Target::Phoenix, "events").unwrap_err();
    assert_eq!(
        e.to_string(),
        "the sample has 4 distinct leading values: too few for 5 regions"
    );
}

/// Bad CSV: one line naming the line.
#[test]
fn csv_errors_name_the_line() {
    let s = spec("hex", "str,i64");
    let e = |csv: &str| {
        Sample::from_csv(&s, csv.as_bytes())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        e("a,1\nb,x\n"),
        "line 2, value 2 (i64): invalid i64 value \"x\": not a number in range for i64"
    );
    assert!(e("a,1\n\"b,2\n").starts_with("line 2: a quoted field is not closed"));
    assert!(e("a,1,2\n").starts_with("line 1: 3 values; the schema has 2 fields"));
}
