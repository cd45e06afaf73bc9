//! Page cursors through the built binary: `scan --limit N` ends a page that
//! rows follow with `next: TOKEN` on stderr, `scan --after TOKEN` continues
//! (salted tables included) on the embedded store (redb); `range --after
//! CURSOR` prints the next page's ranges; bad tokens are one-line errors.

mod common;

use std::collections::BTreeSet;

use common::{check_error, ok, run};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::KeySpec;
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::Format;
use lexikey_design::cursor::{spec_fingerprint, Cursor};
use proptest::prelude::*;

/// `lexikey scan` of `table` on `url` with `extra`: (IDs, the `next:`
/// token). Anything else on stderr fails.
fn scan(url: &str, table: &str, extra: &[&str]) -> (Vec<u64>, Option<String>) {
    let mut args = vec!["scan", "--store", url, "--table", table];
    args.extend_from_slice(extra);
    let o = run(&args);
    assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
    let next = match o.stderr.as_str() {
        "" => None,
        s => {
            let token = s.strip_prefix("next: ").and_then(|t| t.strip_suffix('\n'));
            let token = token.unwrap_or_else(|| panic!("{args:?}: stderr {s:?}"));
            assert!(token
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'));
            Some(token.to_string())
        }
    };
    let ids = o
        .stdout_str()
        .lines()
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect();
    (ids, next)
}

fn alloc(url: &str, table: &str, salt: &[&str], n: usize) -> Vec<u64> {
    let mut args = vec!["alloc", "--store", url, "--table", table, "--count"];
    let count = n.to_string();
    args.push(&count);
    args.extend_from_slice(salt);
    args.push("v");
    ok(&args).lines().map(|l| l.parse().unwrap()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::size::pick(4, 24)))]

    /// Pages of `--limit N` chained by their `next:` tokens, with rows
    /// added and deleted between pages: every row present throughout is
    /// printed once, newest first, and the last page has no `next:`.
    #[test]
    fn scan_pages_continue_exactly(
        n in 1usize..25,
        salted in any::<bool>(),
        page in 1usize..8,
        deletes in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
        signed in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("redb:{}?fsync=false", dir.path().join("db.redb").display());
        let salt: &[&str] = if salted { &["--salt-buckets", "3"] } else { &[] };
        let mut live = alloc(&url, "t", salt, n);
        let mut throughout: BTreeSet<u64> = live.iter().copied().collect();
        let limit = page.to_string();
        let mut extra = vec!["--limit", &limit];
        extra.extend_from_slice(salt);
        if signed {
            extra.extend_from_slice(&["--secret", "k3y"]);
        }
        let mut seen = Vec::new();
        let mut token: Option<String> = None;
        let mut deletes = deletes.into_iter();
        loop {
            let mut args = extra.clone();
            if let Some(t) = &token {
                args.extend_from_slice(&["--after", t]);
            }
            let (ids, next) = scan(&url, "t", &args);
            seen.extend(&ids);
            let Some(next) = next else {
                prop_assert!(ids.len() <= page);
                break;
            };
            prop_assert_eq!(ids.len(), page);
            // Between pages: a row added (newest: before the cursor) and one deleted.
            live.extend(alloc(&url, "t", salt, 1));
            if let (Some(i), false) = (deletes.next(), live.is_empty()) {
                let id = live.swap_remove(i.index(live.len()));
                // Delete through the library on the same store.
                let store = lexikey_stores::open(&url).unwrap();
                let mut config = lexikey::store::alloc::AllocatorConfig::new(Format::Hex, &[lexikey::Component::asc("t")]);
                if salted {
                    config = config.with_salt(Salter::new(3, SaltMode::Fast).unwrap().for_format(Format::Hex));
                }
                let store: std::sync::Arc<dyn lexikey::store::Store> = store.into();
                let a = lexikey::store::alloc::Allocator::new(store, config).unwrap();
                a.delete(id).unwrap();
                throughout.remove(&id);
            }
            token = Some(next);
        }
        prop_assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
        let seen: BTreeSet<u64> = seen.into_iter().collect();
        prop_assert!(throughout.is_subset(&seen));
    }
}

#[test]
fn next_only_when_rows_follow() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("redb:{}?fsync=false", dir.path().join("db.redb").display());
    let mut ids = alloc(&url, "t", &[], 4);
    ids.sort_unstable(); // newest (smallest ID) first
                         // Exactly the table: no next.
    assert_eq!(scan(&url, "t", &["--limit", "4"]), (ids.clone(), None));
    assert_eq!(scan(&url, "t", &["--limit", "9"]), (ids.clone(), None));
    let (first, next) = scan(&url, "t", &["--limit", "3"]);
    assert_eq!(first, ids[..3]);
    let token = next.unwrap();
    // Without --limit: the rest of the table.
    assert_eq!(
        scan(&url, "t", &["--after", &token]),
        (ids[3..].to_vec(), None)
    );
}

#[test]
fn bad_tokens_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("redb:{}?fsync=false", dir.path().join("db.redb").display());
    alloc(&url, "t", &[], 5);
    alloc(&url, "u", &[], 5);
    alloc(&url, "s", &["--salt-buckets", "2"], 5);
    let token = scan(&url, "t", &["--limit", "2"]).1.unwrap();
    let signed = scan(&url, "t", &["--limit", "2", "--secret", "a"])
        .1
        .unwrap();
    let salted = scan(&url, "s", &["--limit", "2", "--salt-buckets", "2"])
        .1
        .unwrap();
    let mut damaged = token.clone().into_bytes();
    let last = damaged.len() - 3;
    damaged[last] = if damaged[last] == b'A' { b'B' } else { b'A' };
    let damaged = String::from_utf8(damaged).unwrap();
    for (table, args, want) in [
        ("t", vec!["--after", damaged.as_str()], "invalid cursor"),
        (
            "t",
            vec!["--after", "not a token"],
            "not base64url at character 3",
        ),
        ("u", vec!["--after", token.as_str()], "another range"),
        ("u", vec!["--after", salted.as_str()], "another schema"),
        ("s", vec!["--after", token.as_str()], "another schema"),
        (
            "t",
            vec!["--after", token.as_str(), "--secret", "a"],
            "not signed",
        ),
        (
            "t",
            vec!["--after", signed.as_str(), "--secret", "b"],
            "signature does not match",
        ),
        ("t", vec!["--after", signed.as_str()], "pass the secret"),
    ] {
        let mut full = vec!["scan", "--store", &url, "--table", table];
        full.extend(args);
        let o = run(&full);
        check_error(&o, &format!("{full:?}"));
        assert!(o.stderr.contains(want), "{full:?}: {}", o.stderr);
        assert!(o.stdout.is_empty());
    }
}

/// `range --after`: the cursor of a page read up to a key gives the next
/// page's bounds in every `--for` syntax; raw: from just after the key.
#[test]
fn range_after_prints_the_next_page() {
    let salter = Salter::new(2, SaltMode::Fast)
        .unwrap()
        .for_format(Format::Hex);
    let spec = KeySpec::new(KeyFormat::parse("hex").unwrap())
        .with_salter(Some(salter))
        .unwrap()
        .with_max_key_len(usize::MAX);
    let args = [
        "range",
        "--salt-buckets",
        "2",
        "str:events",
        "--ge",
        "i64:40",
    ];
    let raw = ok(&args);
    let lines: Vec<&str> = raw.lines().collect();
    assert_eq!(lines.len(), 4);
    let ranges: Vec<lexikey::KeyRange> = lines
        .chunks(2)
        .map(|p| lexikey::KeyRange {
            start: Some(p[0].as_bytes().to_vec()),
            end: Some(p[1].as_bytes().to_vec()),
        })
        .collect();
    // The page ended at row events/45 in bucket 1.
    let last = b"01#events#l800000000000002D";
    let cursor = Cursor::new(spec_fingerprint(&spec), ranges)
        .advance(last, 3)
        .unwrap();
    for secret in [None, Some("s")] {
        let token = cursor.to_token(secret.map(str::as_bytes));
        let mut with = args.to_vec();
        with.extend_from_slice(&["--after", &token]);
        if let Some(s) = secret {
            with.extend_from_slice(&["--secret", s]);
        }
        // A text key's successor: the key and a space (no text key holds
        // a byte below 0x20).
        assert_eq!(
            ok(&with),
            "00#events#l800000000000002D \n00#events$\n01#events#l800000000000002D \n01#events$\n"
        );
        for target in ["hbase", "cql", "rocksdb", "etcd", "redis", "sql", "cbt"] {
            let mut rendered = with.clone();
            rendered.extend_from_slice(&["--for", target]);
            let out = ok(&rendered);
            // The next page's start, as text or (rocksdb) in hex.
            let hex: String = b"events#l800000000000002D "
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert!(
                out.contains("events#l800000000000002D") || out.contains(&hex),
                "{target}: {out}"
            );
        }
        // Another query, another layout: refused.
        let other = [
            "range",
            "--salt-buckets",
            "2",
            "str:events",
            "--ge",
            "i64:41",
            "--after",
            &token,
        ];
        check_error(&run(&other), "other query");
        let unsalted = ["range", "str:events", "--ge", "i64:40", "--after", &token];
        check_error(&run(&unsalted), "other layout");
    }
}

/// Up to `page` rows of `table` (keys as the CLI prints them) inside
/// `ranges` (raw output: a pair of lines per range), each range read in
/// key order and the ranges merged by the key without its `salt_len`
/// bytes of salt, as a salted reader does.
fn read_page(table: &BTreeSet<String>, raw: &str, salt_len: usize, page: usize) -> Vec<String> {
    let lines: Vec<&str> = raw.lines().collect();
    let mut rows: Vec<String> = Vec::new();
    for pair in lines.chunks(2) {
        let inside = table
            .iter()
            .filter(|k| k.as_str() >= pair[0] && k.as_str() < pair[1]);
        rows.extend(inside.take(page).cloned());
    }
    rows.sort_by(|a, b| a[salt_len..].cmp(&b[salt_len..]));
    rows.truncate(page);
    rows
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::size::pick(6, 40)))]

    /// A query read page by page through the command line alone: `range
    /// QUERY` (the first page), `range QUERY --last KEY [--after T]` (the
    /// cursor after a page), `range QUERY --after T` (the next page's
    /// ranges), salted and not, signed and not, rows inserted and deleted
    /// between pages: every row present throughout is read once, in order.
    #[test]
    fn range_pages_through_the_cli(
        initial in prop::collection::btree_set(0u16..500, 0..40),
        salted in any::<bool>(),
        page in 1usize..9,
        changes in prop::collection::vec(prop::collection::vec((any::<bool>(), 0u16..500), 0..4), 0..12),
        signed in any::<bool>(),
        ge in prop::option::of(0u16..300),
    ) {
        let spec = KeySpec::new(KeyFormat::parse("hex").unwrap()).with_schema("str,i64").unwrap();
        let spec = if salted {
            spec.with_salter(Some(Salter::new(3, SaltMode::Fast).unwrap())).unwrap()
        } else {
            spec
        };
        let salt_len = if salted { 3 } else { 0 };
        let key = |name: &str, i: u16| {
            let comps = spec.parse_components(&[&format!("str:{name}"), &format!("i64:{i}")]).unwrap();
            String::from_utf8(spec.encode(&comps).unwrap()).unwrap()
        };
        let mut query: Vec<String> = vec!["range".into()];
        if salted {
            query.extend(["--salt-buckets".into(), "3".into()]);
        }
        if let Some(g) = ge {
            query.push(format!("--ge=i64:{g}"));
        }
        // --secret goes with --after and --last (not with the first page's ranges).
        let sign: Vec<String> = if signed { vec!["--secret=k3y".into()] } else { Vec::new() };
        let in_query = |i: u16| ge.is_none_or(|g| i >= g);
        let mut table: BTreeSet<String> = initial.iter().map(|&i| key("events", i)).collect();
        table.extend(initial.iter().map(|&i| key("other", i)));
        let mut throughout: BTreeSet<String> = initial.iter().filter(|&&i| in_query(i)).map(|&i| key("events", i)).collect();
        let (mut seen, mut token): (Vec<String>, Option<String>) = (Vec::new(), None);
        let mut changes = changes.into_iter();
        let with = |extra: &[String]| -> Vec<String> {
            let mut a = query.clone();
            a.extend_from_slice(extra);
            a.extend(["--".into(), "str:events".into()]);
            a
        };
        loop {
            let mut after: Vec<String> = token.iter().map(|t| format!("--after={t}")).collect();
            if token.is_some() {
                after.extend(sign.iter().cloned());
            }
            let o = run(&with(&after));
            if o.code == 2 {
                // Every range read to its end.
                prop_assert!(o.stderr.contains("no next page"), "{}", o.stderr);
                break;
            }
            prop_assert_eq!(o.code, 0, "{}", o.stderr);
            let rows = read_page(&table, &o.stdout_str(), salt_len, page);
            seen.extend(rows.iter().map(|k| k[salt_len..].to_string()));
            if rows.len() < page {
                break;
            }
            let mut args = after.clone();
            if token.is_none() {
                args.extend(sign.iter().cloned());
            }
            args.push(format!("--last={}", rows[page - 1]));
            let o = run(&with(&args));
            prop_assert_eq!(o.code, 0, "{}", o.stderr);
            token = Some(o.stdout_str().trim_end().to_string());
            for (insert, i) in changes.next().unwrap_or_default() {
                let k = key("events", i);
                if insert {
                    table.insert(k);
                } else {
                    table.remove(&k);
                    throughout.remove(&k);
                }
            }
        }
        prop_assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
        for k in &throughout {
            prop_assert!(seen.contains(&k[salt_len..].to_string()), "{k} never read");
        }
    }
}

/// `range --last`: refused with --for or --json, for a key outside the
/// query, and --secret alone; a binary key is given in hex.
#[test]
fn range_last_errors_and_binary_keys() {
    for (args, want) in [
        (
            vec![
                "range",
                "str:events",
                "--last",
                "events#l8000000000000001",
                "--for",
                "hbase",
            ],
            "--last prints a page cursor, not ranges: it takes no --for or --json",
        ),
        (
            vec![
                "range",
                "str:events",
                "--last",
                "events#l8000000000000001",
                "--json",
            ],
            "--last prints a page cursor, not ranges: it takes no --for or --json",
        ),
        (
            vec!["range", "str:events", "--last", "other#l8000000000000001"],
            "--last: key \"other#l8000000000000001\" is in none of the query's ranges",
        ),
        (
            vec!["range", "--format", "binary", "str:events", "--last", "0g"],
            "--last: invalid binary key",
        ),
        (
            vec!["range", "str:events", "--secret", "s"],
            "--secret goes with --after CURSOR or --last KEY",
        ),
    ] {
        let o = run(&args);
        check_error(&o, &format!("{args:?}"));
        assert!(o.stderr.contains(want), "{args:?}: {}", o.stderr);
    }
    // Binary: the key in hex; the next page starts after it (a NUL byte).
    let spec = KeySpec::new(KeyFormat::parse("binary").unwrap());
    let raw = ok(&["range", "--format", "binary", "str:events"]);
    let lines: Vec<&str> = raw.lines().collect();
    let last = format!("{}2a", lines[0]);
    let token = ok(&["range", "--format", "binary", "str:events", "--last", &last]);
    let token = token.trim_end();
    let unhex = |h: &str| {
        (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
            .collect::<Vec<u8>>()
    };
    let range = lexikey::KeyRange {
        start: Some(unhex(lines[0])),
        end: Some(unhex(lines[1])),
    };
    let cursor = Cursor::resume(token, spec_fingerprint(&spec), &[range], None).unwrap();
    assert_eq!(
        cursor.next_ranges(false)[0].start,
        Some(unhex(&format!("{last}00")))
    );
    assert_eq!(
        ok(&[
            "range",
            "--format",
            "binary",
            "str:events",
            "--after",
            token
        ]),
        format!("{last}00\n{}\n", lines[1])
    );
}
