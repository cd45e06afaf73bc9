//! `lexikey lint` and `lexikey plan` through the built binary: the
//! contract's JSON fields and exit status, the table-creation lines with
//! N-1 split points that sort, differ and cut the sample (keys made by
//! `lexikey encode --stdin`, an independent path) into near-equal parts.
//! See: issue #43.

mod common;
#[path = "../../tests/support/hbase_create.rs"]
mod hbase_create;

use common::{fails, fails_with, ok, ok_with, run_with};
use proptest::prelude::*;

/// CSV rows (ts, str): a rising timestamp, or random ones.
fn rows(ts: &[i64]) -> String {
    ts.iter()
        .enumerate()
        .map(|(i, t)| format!("{t},user{}\n", i % 10))
        .collect()
}

/// The value of `"name":` in a flat JSON object, up to the next `,` or `}`.
fn field<'j>(j: &'j str, name: &str) -> &'j str {
    let at = j
        .find(&format!("\"{name}\":"))
        .unwrap_or_else(|| panic!("{name} in {j}"))
        + name.len()
        + 3;
    let end = j[at..].find([',', '}']).map_or(j.len(), |e| at + e);
    &j[at..end]
}

/// The keys `lexikey encode --stdin` makes of the CSV rows (no quoting).
fn encoded(csv: &str, schema: &str, format: &str) -> Vec<Vec<u8>> {
    let tsv = csv.replace(',', "\t");
    ok_with(
        &["encode", "--stdin", "--schema", schema, "--format", format],
        tsv.as_bytes(),
    )
    .lines()
    .map(|l| l.as_bytes().to_vec())
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// `lint --json`: the contract's fields, typed; a timestamp rising
    /// with insertion order is a hot spot with a fix, random ones are not.
    #[test]
    fn lint_json_contract(
        start in 0i64..4_000_000_000_000,
        step in 1i64..100_000,
        n in 100usize..600,
        regions in 2usize..33,
        seed in prop::collection::vec(0i64..4_000_000_000_000, 400..600),
    ) {
        let rising: Vec<i64> = (0..n as i64).map(|i| start + i * step).collect();
        for (ts, hot) in [(rising, true), (seed, false)] {
            let r = regions.to_string();
            let j = ok_with(&["lint", "--schema", "ts,str", "--json", "--regions", &r, "-"], rows(&ts).as_bytes());
            prop_assert!(j.ends_with("}\n") && j.lines().count() == 1, "{j}");
            prop_assert_eq!(field(&j, "hot_spot"), if hot { "true" } else { "false" });
            let share: f64 = field(&j, "busiest_region_share").parse().unwrap();
            prop_assert!(field(&j, "busiest_region_share").contains('.'));
            prop_assert!((0.0..=1.0).contains(&share));
            let b = field(&j, "suggested_salt_buckets");
            if hot {
                prop_assert_eq!(share, 1.0);
                prop_assert!(b.parse::<u8>().unwrap() >= 2);
            } else {
                prop_assert_eq!(b, "null");
            }
            let kb = &j[j.find("\"key_bytes\":").unwrap() + 12..];
            for p in ["p50", "p99", "max"] {
                prop_assert_eq!(field(kb, p).parse::<usize>().unwrap(), 23);
            }
        }
    }

    /// `plan --for cbt|hbase|phoenix`: N-1 split points, sorted and
    /// distinct, each region holding n/N rows give or take one.
    #[test]
    fn plan_cuts_near_equal_parts(
        ts in prop::collection::hash_set(0i64..4_000_000_000_000, 20..400),
        regions in 1usize..20,
    ) {
        let ts: Vec<i64> = ts.into_iter().collect();
        let csv = rows(&ts);
        let mut keys = encoded(&csv, "ts,str", "hex");
        keys.sort();
        let r = regions.to_string();
        let cbt = ok_with(&["plan", "--schema", "ts,str", "--regions", &r, "--for", "cbt", "--table", "ev", "-"], csv.as_bytes());
        let splits: Vec<Vec<u8>> = match cbt.strip_prefix("cbt createtable ev splits='") {
            Some(rest) => rest.trim_end().trim_end_matches('\'').split(',').map(|s| s.as_bytes().to_vec()).collect(),
            None => { prop_assert_eq!(&cbt, "cbt createtable ev\n"); Vec::new() }
        };
        prop_assert_eq!(splits.len(), regions - 1);
        prop_assert!(splits.windows(2).all(|w| w[0] < w[1]));
        let n = keys.len();
        let mut parts = vec![0usize; regions];
        for k in &keys {
            parts[splits.partition_point(|s| s <= k)] += 1;
        }
        prop_assert!(parts.iter().all(|&p| p >= n / regions && p <= n.div_ceil(regions)), "{parts:?}");
        let hbase = ok_with(&["plan", "--schema", "ts,str", "--regions", &r, "--for", "hbase", "--table", "ev", "-"], csv.as_bytes());
        let quoted: Vec<String> = splits.iter().map(|s| format!("'{}'", String::from_utf8_lossy(s))).collect();
        if regions > 1 {
            prop_assert_eq!(hbase, format!("create 'ev', 'cf', SPLITS => [{}]\n", quoted.join(", ")));
        }
        let phoenix = ok_with(&["plan", "--schema", "ts,str", "--regions", &r, "--for", "phoenix", "--table", "ev", "-"], csv.as_bytes());
        if regions > 1 {
            prop_assert_eq!(phoenix, format!("CREATE TABLE ev (K VARCHAR NOT NULL PRIMARY KEY) SPLIT ON ({})\n", quoted.join(", ")));
        }
    }
}

/// Files, --svg, and the errors: exit 2 and one line.
#[test]
fn files_svg_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("ev.csv");
    let ts: Vec<i64> = (0..200).map(|i| 1_700_000_000_000 + i).collect();
    std::fs::write(&csv, rows(&ts)).unwrap();
    let svg = dir.path().join("ev.svg");
    let text = ok(&[
        "lint".as_ref(),
        "--schema".as_ref(),
        "ts,str".as_ref(),
        "--svg".as_ref(),
        svg.as_os_str(),
        csv.as_os_str(),
    ]);
    assert!(text.contains("HOT SPOT: keys are rising"), "{text}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg ") && picture.ends_with("</svg>\n"));
    assert_eq!(
        picture.matches("<rect ").count(),
        32,
        "16 regions, before and after"
    );

    let e = fails_with(&["lint", "--schema", "ts,str", "-"], b"1,a\nx,b\n");
    assert!(e.starts_with("-: line 2, value 1 (ts):"), "{e}");
    assert_eq!(
        fails(&["lint", "--schema", "ts,str", "/nonexistent/x.csv"]),
        "cannot open /nonexistent/x.csv: No such file or directory (os error 2)"
    );
    assert!(fails(&["lint", "-"]).contains("needs --schema"));
    assert!(
        fails(&["lint", "--schema", "str", "--regions", "0", "-"]).contains("invalid --regions")
    );
    let e = fails_with(
        &[
            "plan",
            "--schema",
            "str",
            "--regions",
            "4",
            "--for",
            "cbt",
            "-",
        ],
        b"a\nb\nb\n",
    );
    assert_eq!(e, "the sample has 2 distinct keys: too few for 4 regions");
    assert!(fails(&["plan", "--schema", "str", "--for", "cbt", "-"]).contains("needs --regions"));
    assert!(fails(&["plan", "--schema", "str", "--regions", "2", "-"]).contains("needs --for"));
    let o = run_with(&["lint", "--schema", "str", "-"], b"");
    assert_eq!(o.code, 2);
    assert_eq!(o.stderr, "lexikey: error: -: no rows\n");
}

/// `plan --for hbase` of binary keys (every byte value, quotes,
/// backslashes, `#`) run under JRuby with HBase's split reader: HBase
/// receives N-1 distinct sorted splits, each a sample key, that cut the
/// sample into near-equal parts.
#[test]
fn plan_hbase_lines_under_jruby() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut lines = String::new();
    let mut cases = Vec::new();
    for _ in 0..8 {
        let (vals, regions) = (
            prop::collection::hash_set(any::<i64>(), 30..200),
            2usize..24,
        )
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let csv: String = vals
            .iter()
            .map(|v| format!("{v},\"it's \\#{{x}}\"\n"))
            .collect();
        let tsv: String = vals
            .iter()
            .map(|v| format!("{v}\tit's \\#{{x}}\n"))
            .collect();
        let mut keys: Vec<String> = ok_with(
            &[
                "encode", "--stdin", "--schema", "i64,str", "--format", "binary",
            ],
            tsv.as_bytes(),
        )
        .lines()
        .map(str::to_string)
        .collect();
        keys.sort();
        let r = regions.to_string();
        let line = ok_with(
            &[
                "plan",
                "--schema",
                "i64,str",
                "--format",
                "binary",
                "--regions",
                &r,
                "--for",
                "hbase",
                "-",
            ],
            csv.as_bytes(),
        );
        assert!(
            line.is_ascii() && line.matches('\n').count() == 1,
            "{line:?}"
        );
        lines.push_str(&line);
        cases.push((keys, regions));
    }
    let got = hbase_create::run(&lines, "design");
    assert_eq!(got.lines().count(), cases.len(), "{got}");
    for (out, (keys, regions)) in got.lines().zip(&cases) {
        let words: Vec<&str> = out.split(' ').collect();
        assert_eq!(&words[..2], ["74", "6366"], "table t, family cf");
        let splits = &words[2..];
        assert_eq!(splits.len(), regions - 1, "{out}");
        assert!(splits.windows(2).all(|w| w[0] < w[1]), "{out}");
        assert!(
            splits
                .iter()
                .all(|s| keys.binary_search(&s.to_string()).is_ok()),
            "{out}"
        );
        let n = keys.len();
        let mut parts = vec![0usize; *regions];
        for k in keys {
            parts[splits.partition_point(|s| *s <= k.as_str())] += 1;
        }
        assert!(
            parts
                .iter()
                .all(|&p| p >= n / regions && p <= n.div_ceil(*regions)),
            "{parts:?}"
        );
    }
}

/// A JSON string literal of `s`, escaped as `style` picks per character
/// (0: as it is where JSON allows, 1: `\uXXXX` (a surrogate pair beyond
/// the BMP), 2: the short escapes `\"`, `\\`, `\/`, `\n`, ...): the JSON
/// lines reader must read every spelling back.
fn json_string(s: &str, style: &[u8]) -> String {
    let mut out = String::from("\"");
    for (i, c) in s.chars().enumerate() {
        let st = style[i % style.len()] % 3;
        let short = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '/' if st == 2 => Some("\\/"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            _ => None,
        };
        match (short, st) {
            (Some(e), 0 | 2) => out.push_str(e),
            _ if st == 1 || (c as u32) < 0x20 => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A CSV field: quoted, quotes doubled.
fn csv_field(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// The same rows as CSV and as JSON lines (numbers as JSON numbers or
    /// strings, strings in every escape spelling, blank lines, spaces
    /// around values) give the same `lint --json` and `plan` output,
    /// whether the format comes from the file's name (.csv, .jsonl,
    /// .ndjson) or from --input on standard input.
    #[test]
    fn csv_and_json_lines_give_the_same_report(
        rows in prop::collection::vec((any::<i64>(), "[a-z\"\\\\/,é😀 \t\n\r\u{1}-\u{1f}]{0,12}", any::<bool>()), 30..120),
        style in prop::collection::vec(any::<u8>(), 1..8),
        rising in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let (mut csv, mut jsonl) = (String::new(), String::new());
        for (i, (n, s, quoted)) in rows.iter().enumerate() {
            // A rising leading value makes a hot spot: the reports differ by
            // row order. Otherwise the golden-ratio sequence (its low byte
            // random): consecutive rows spread evenly over the key space, so
            // no region takes most of the newest rows. Random values did,
            // now and then: 4 of the newest 7 of 30 rows in one of 8
            // regions is a hot spot, and happens by chance (CI, 30 Nov).
            let n = if rising {
                i as i64 * 1000
            } else {
                (i as i64).wrapping_mul(0x9E37_79B9_7F4A_7C15_u64 as i64) ^ (*n & 0xFF)
            };
            csv.push_str(&format!("{n},{}\n", csv_field(s)));
            let num = if *quoted { format!("\"{n}\"") } else { n.to_string() };
            let sep = if i % 3 == 0 { " , " } else { "," };
            jsonl.push_str(&format!("[{num}{sep}{}]\n", json_string(s, &style)));
            if i % 7 == 0 {
                jsonl.push_str(" \n");
            }
        }
        let paths = ["s.csv", "s.jsonl", "s.NDJSON"].map(|n| dir.path().join(n));
        std::fs::write(&paths[0], &csv).unwrap();
        std::fs::write(&paths[1], &jsonl).unwrap();
        std::fs::write(&paths[2], &jsonl).unwrap();
        let lint = |file: &std::path::Path| ok(&["lint".as_ref(), "--schema".as_ref(), "i64,str".as_ref(), "--json".as_ref(), "--regions".as_ref(), "8".as_ref(), file.as_os_str()]);
        let want = lint(&paths[0]);
        prop_assert!(want.contains(&format!("\"rows\":{}", rows.len())), "{want}");
        prop_assert_eq!(field(&want, "hot_spot"), if rising { "true" } else { "false" });
        prop_assert_eq!(&lint(&paths[1]), &want);
        prop_assert_eq!(&lint(&paths[2]), &want);
        let stdin = ok_with(&["lint", "--schema", "i64,str", "--json", "--regions", "8", "--input", "jsonl", "-"], jsonl.as_bytes());
        prop_assert_eq!(&stdin, &want);
        let plan = |file: &std::path::Path| ok(&["plan".as_ref(), "--schema".as_ref(), "i64,str".as_ref(), "--format".as_ref(), "binary".as_ref(), "--regions".as_ref(), "4".as_ref(), "--for".as_ref(), "hbase".as_ref(), file.as_os_str()]);
        prop_assert_eq!(plan(&paths[1]), plan(&paths[0]));
    }
}

/// JSON lines that are not rows of the schema: exit 2, one line naming the
/// file, the line and the column (or the value).
#[test]
fn json_lines_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.jsonl");
    for (text, want) in [
        (
            "[1, \"a\"]\n{\"n\": 1, \"s\": \"a\"}\n",
            "line 2, column 1: a JSON object: a schema's fields have no names; write each row as an array of values in the schema's order",
        ),
        ("[1, null]\n", "line 1, column 5: null: every field takes a value (the text syntax has no null)"),
        ("[1, \"a\"]\n\n[1, \"a\" 2]\n", "line 3, column 9: expected ',' or ']' after a value"),
        ("[1]\n", "line 1: 1 values; the schema has 2 fields"),
        ("[\"x\", \"a\"]\n", "line 1, value 1 (i64):"),
        ("[1.5, \"a\"]\n", "line 1, value 1 (i64):"),
        ("[1, \"a\\q\"]\n", "line 1, column 7: an invalid escape in a string"),
    ] {
        std::fs::write(&file, text).unwrap();
        let e = fails(&["lint".as_ref(), "--schema".as_ref(), "i64,str".as_ref(), file.as_os_str()]);
        let want = format!("{}: {want}", file.display());
        assert!(e.starts_with(&want), "{text:?}: {e}");
    }
    // --input wins over the name: the JSON file read as CSV.
    let e = fails(&[
        "lint".as_ref(),
        "--schema".as_ref(),
        "str".as_ref(),
        "--input".as_ref(),
        "csv".as_ref(),
        file.as_os_str(),
    ]);
    assert!(
        e.contains("line 1: a quote inside an unquoted field"),
        "{e}"
    );
    assert!(fails(&["lint", "--schema", "str", "--input", "json", "-"])
        .contains("invalid --input \"json\": expected csv or jsonl"));
}
