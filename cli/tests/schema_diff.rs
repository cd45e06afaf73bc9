//! `lexikey schema diff OLD NEW` through the built binary: the contract's
//! JSON (`compatible`, `reason`), exit status 0 whichever the verdict, the
//! per-side `--old-*`/`--new-*` options, the verdict the library gives for
//! the same layouts, and one-line errors with exit status 2. See: issue #43.

mod common;

use common::{fails, ok};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::KeySpec;
use lexikey::store::salt::{SaltMode, Salter};
use proptest::prelude::*;

const TYPES: [&str; 5] = ["str", "i64", "i32", "u32", "bool"];
const FORMATS: [&str; 4] = ["hex", "base64", "decimal", "binary"];

fn schema() -> impl Strategy<Value = String> {
    prop::collection::vec((0..TYPES.len(), any::<bool>()), 1..4).prop_map(|cols| {
        cols.iter()
            .map(|&(t, d)| format!("{}{}", TYPES[t], if d { ".desc" } else { "" }))
            .collect::<Vec<_>>()
            .join(",")
    })
}

fn spec(format: &str, salt: u8, schema: &str) -> KeySpec {
    KeySpec::new(KeyFormat::parse(format).unwrap())
        .with_salter((salt > 0).then(|| Salter::new(salt, SaltMode::Fast).unwrap()))
        .unwrap()
        .with_schema(schema)
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// `--json`: one object on one line with a bool `compatible` and a
    /// string `reason`, the library's verdict for the same layouts (each
    /// side's format and salt given by --old-*/--new-*), a migration plan
    /// exactly when breaking; the text report leads with the verdict; exit
    /// status 0 both ways.
    #[test]
    fn json_contract(
        old in schema(),
        new in prop_oneof![schema(), Just(String::new())],
        fo in 0..FORMATS.len(),
        fnew in 0..FORMATS.len(),
        so in prop_oneof![Just(0u8), Just(4)],
        sn in prop_oneof![Just(0u8), Just(4)],
    ) {
        // Half the time the new schema extends the old one.
        let new = if new.is_empty() { format!("{old},str") } else { new };
        let mut args = vec![
            "schema".to_string(), "diff".into(), old.clone(), new.clone(),
            "--old-format".into(), FORMATS[fo].into(), "--new-format".into(), FORMATS[fnew].into(),
        ];
        for (flag, n) in [("--old-salt-buckets", so), ("--new-salt-buckets", sn)] {
            if n > 0 {
                args.extend([flag.to_string(), n.to_string()]);
            }
        }
        let text = ok(&args);
        args.push("--json".into());
        let out = ok(&args);
        prop_assert!(out.ends_with('\n') && out.matches('\n').count() == 1, "{out}");
        let j: serde_json::Value = serde_json::from_str(&out).unwrap();
        let compatible = j["compatible"].as_bool().expect("compatible is a bool");
        prop_assert!(!j["reason"].as_str().expect("reason is a string").is_empty());
        let d = lexikey_design::diff(&spec(FORMATS[fo], so, &old), &spec(FORMATS[fnew], sn, &new)).unwrap();
        prop_assert_eq!(compatible, d.compatible);
        prop_assert_eq!(j["reason"].as_str().unwrap(), d.reason.as_str());
        prop_assert_eq!(j["migration"].is_null(), compatible);
        prop_assert_eq!(j["decode_witness"].is_null() && j["order_witness"].is_null(), compatible);
        let first = text.lines().next().unwrap_or_default();
        prop_assert_eq!(first, if compatible { "compatible" } else { "breaking" });
    }
}

/// The shared options apply to both sides; a side's own wins.
#[test]
fn shared_and_side_options() {
    let v = |args: &[&str]| -> serde_json::Value { serde_json::from_str(&ok(args)).unwrap() };
    let base = ["schema", "diff", "str,i64", "str,i64", "--json"];
    assert_eq!(v(&base)["compatible"], true);
    let both = [&base[..], &["--format", "binary", "--salt-buckets", "8"]].concat();
    assert_eq!(v(&both)["compatible"], true);
    let one = [&both[..], &["--new-salt-buckets", "4"]].concat();
    let j = v(&one);
    assert_eq!(j["compatible"], false);
    assert_eq!(
        j["changes"][0],
        "salt changed: 8 buckets (fast) -> 4 buckets (fast)"
    );
    let fmt = [&base[..], &["--old-format", "base64"]].concat();
    assert_eq!(v(&fmt)["changes"][0], "format changed: base64 -> hex");
}

/// Bad arguments: one line on stderr, exit status 2.
#[test]
fn bad_arguments() {
    for (args, msg) in [
        (&["schema"][..], "schema needs an action"),
        (&["schema", "diff", "str"][..], "takes OLD and NEW"),
        (
            &["schema", "diff", "str", "str", "str"][..],
            "takes OLD and NEW",
        ),
        (
            &["schema", "merge", "str", "str"][..],
            "unknown schema action",
        ),
        (
            &["schema", "diff", "str,i6", "str"][..],
            "old schema \"str,i6\"",
        ),
        (
            &["schema", "diff", "str", "nope"][..],
            "new schema \"nope\"",
        ),
        (
            &["schema", "diff", "str", "str", "--new-format", "hexx"][..],
            "hexx",
        ),
        (
            &["schema", "diff", "str", "str", "--old-salt-buckets", "0"][..],
            "old layout",
        ),
    ] {
        let e = fails(args);
        assert!(e.contains(msg), "{args:?}: {e}");
    }
}
