//! `alloc`, `scan` and `demo` on real stores, through the built binary:
//! the embedded default (redb) always, and the servers that
//! `scripts/with-stores.sh` starts when their URLs are in the environment
//! (LEXIKEY_REDIS_URL, LEXIKEY_POSTGRES_URL, LEXIKEY_ETCD_URL; and
//! LEXIKEY_BIGTABLE_URL, required with feature `bigtable`).

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{check_error, fails, ok, ok_next, run};
use lexikey::{Component, Format};

const MAX: u64 = u64::MAX;

fn redb_url(dir: &Path) -> String {
    format!("redb:{}?fsync=false", dir.join("db.redb").display())
}

fn ids(out: &str) -> Vec<u64> {
    out.lines()
        .map(|l| l.parse().expect("an ID per line"))
        .collect()
}

#[test]
fn demo_on_memory_store_golden() {
    let out = ok(&["demo", "--store", "memory:"]);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/demo-memory.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &out).unwrap();
    }
    let want = std::fs::read_to_string(path).unwrap();
    assert_eq!(
        out, want,
        "demo output changed (UPDATE_GOLDEN=1 rewrites the golden file)"
    );
}

#[test]
fn demo_default_runs_on_embedded_store_and_cleans_up() {
    let out = ok(&["demo"]);
    let first = out.lines().next().unwrap();
    let url = first.strip_prefix("lexikey demo on redb:").expect(first);
    let path = url.split('?').next().unwrap();
    assert!(!Path::new(path).exists(), "{path} was not removed");
    // Same content as on the memory store, apart from the first lines.
    let want = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/demo-memory.txt"
    ))
    .unwrap();
    let tail = |s: &str| s.split_once("\n== 1.").map(|(_, t)| t.to_string()).unwrap();
    assert_eq!(tail(&out), tail(&want));
    for line in [
        "    8804190  New York",
        "newest: 18446744073709551613 \"latest comment\"",
        "  seq 3  \"send email\"",
    ] {
        assert!(out.contains(line), "{line}");
    }
    assert!(!out.contains("other queue".replace("other", "  seq 1  \"other").as_str()));
}

#[test]
fn demo_again_on_a_persistent_store() {
    let dir = tempfile::tempdir().unwrap();
    let url = redb_url(dir.path());
    ok(&["demo", "--store", &url]);
    let again = ok(&["demo", "--store", &url]);
    assert!(again.contains("(already there)"));
    // The comments table keeps growing downwards; the oldest stays.
    assert!(
        again.contains("newest: 18446744073709551610 \"latest comment\""),
        "{again}"
    );
    assert!(
        again.contains("oldest: 18446744073709551615 \"first!\""),
        "{again}"
    );
}

#[test]
fn alloc_then_scan_on_redb() {
    let dir = tempfile::tempdir().unwrap();
    let url = redb_url(dir.path());
    let s = |args: &[&str]| -> Vec<String> {
        let mut v = vec![
            "--store".to_string(),
            url.clone(),
            "--table".into(),
            "comments".into(),
        ];
        v.extend(args.iter().map(|a| a.to_string()));
        v
    };
    let cmd = |name: &str, args: &[&str]| -> String {
        let mut v = vec![name.to_string()];
        v.extend(s(args));
        ok(&v)
    };
    // One row per VALUE, IDs decreasing from u64::MAX.
    assert_eq!(ids(&cmd("alloc", &["hello", "world"])), [MAX, MAX - 1]);
    // No VALUE: one row with an empty value.
    assert_eq!(ids(&cmd("alloc", &[])), [MAX - 2]);
    // --count N: N rows with the single VALUE (or empty).
    assert_eq!(
        ids(&cmd("alloc", &["--count", "3", "same"])),
        [MAX - 3, MAX - 4, MAX - 5]
    );
    assert_eq!(ids(&cmd("alloc", &["--count", "2"])), [MAX - 6, MAX - 7]);
    assert_eq!(cmd("alloc", &["--count", "0"]), "");
    // Values that begin with '-', and bytes that need escaping in scan.
    assert_eq!(
        ids(&cmd("alloc", &["--", "-x", "a\tb\\\u{1}é"])),
        [MAX - 8, MAX - 9]
    );
    let scan = cmd("scan", &[]);
    let want = [
        format!("{}\ta\\tb\\\\\\x01é", MAX - 9),
        format!("{}\t-x", MAX - 8),
        format!("{}\t", MAX - 7),
        format!("{}\t", MAX - 6),
        format!("{}\tsame", MAX - 5),
        format!("{}\tsame", MAX - 4),
        format!("{}\tsame", MAX - 3),
        format!("{}\t", MAX - 2),
        format!("{}\tworld", MAX - 1),
        format!("{MAX}\thello"),
    ];
    assert_eq!(scan.lines().collect::<Vec<_>>(), want);
    assert_eq!(
        ok_next(&[vec!["scan".to_string()], s(&["--limit", "2"])].concat())
            .lines()
            .collect::<Vec<_>>(),
        want[..2]
    );
    assert_eq!(cmd("scan", &["--limit", "0"]), "");
    // Another table and another format are separate key ranges.
    let other = ok(&[
        "alloc",
        "--store",
        &url,
        "--table",
        "comments2",
        "--format",
        "base64",
        "x",
    ]);
    assert_eq!(ids(&other), [MAX]);
    assert_eq!(
        ok(&[
            "scan",
            "--store",
            &url,
            "--table",
            "comments2",
            "--format",
            "base64"
        ]),
        format!("{MAX}\tx\n")
    );
    assert_eq!(cmd("scan", &[]).lines().count(), 10);
    // The reuse guard (every client of its table uses it).
    let g = ok(&[
        "alloc", "--guard", "--store", &url, "--table", "guarded", "a", "b",
    ]);
    assert_eq!(ids(&g), [MAX, MAX - 1]);
    // Binary keys read directly from the store: the table's rows are
    // exactly the keys the allocator wrote.
    let store = lexikey_stores::open(&url).unwrap();
    let key = |id: u64| {
        lexikey::tuple::encode(
            Format::Hex,
            &[
                Component::asc("comments"),
                Component::asc(lexikey::Value::U64(id)),
            ],
        )
        .unwrap()
    };
    assert_eq!(store.get(&key(MAX)).unwrap(), Some(b"hello".to_vec()));
    assert_eq!(
        store.get(&key(MAX - 9)).unwrap(),
        Some("a\tb\\\u{1}é".as_bytes().to_vec())
    );
}

#[test]
fn alloc_and_scan_errors() {
    let dir = tempfile::tempdir().unwrap();
    let url = redb_url(dir.path());
    for (args, want) in [
        (vec!["alloc", "--table", "t"], "missing --store"),
        (vec!["alloc", "--store", &url], "missing --table"),
        (vec!["scan", "--store", &url], "missing --table"),
        (
            vec!["alloc", "--store", "nosuch:x", "--table", "t"],
            "cannot open store \"nosuch:x\"",
        ),
        (
            vec!["alloc", "--store", "redb:", "--table", "t"],
            "expected redb:PATH",
        ),
        (
            vec!["alloc", "--store", "memory:?bogus=1", "--table", "t"],
            "bogus",
        ),
        (
            vec![
                "alloc", "--store", &url, "--table", "t", "--count", "2", "a", "b",
            ],
            "2 VALUEs were given",
        ),
        (
            vec!["alloc", "--store", &url, "--table", "t", "--count", "x"],
            "invalid --count",
        ),
        (
            vec!["alloc", "--store", &url, "--table", "t", "--count", "-1"],
            "invalid --count",
        ),
        (
            vec!["alloc", "--store", &url, "--table", "t", "--format", "hexx"],
            "unknown format",
        ),
        (
            vec!["alloc", "--store", &url, "--table", "t", "-x"],
            "unknown option '-x'",
        ),
        (
            vec!["scan", "--store", &url, "--table", "t", "--limit", "x"],
            "invalid --limit",
        ),
        (
            vec!["scan", "--store", &url, "--table", "t", "extra"],
            "no positional",
        ),
        (vec!["demo", "extra"], "no positional"),
        (vec!["demo", "--store", "nosuch:"], "cannot open store"),
    ] {
        let msg = fails(&args);
        assert!(msg.contains(want), "{args:?}: {msg}");
    }
    // A table read in the wrong format: its keys are not rows of that format.
    ok(&["alloc", "--store", &url, "--table", "t", "v"]);
    let msg = fails(&[
        "scan", "--store", &url, "--table", "t", "--format", "decimal",
    ]);
    assert!(msg.contains("is not a row key"), "{msg}");
    let msg = fails(&[
        "alloc", "--store", &url, "--table", "t", "--format", "decimal", "v",
    ]);
    assert!(
        msg.contains("allocation 1 of 1 failed (0 allocated before it)"),
        "{msg}"
    );
    // A server that is not there: one line, exit 2 (whatever the build's features).
    let o = run(&["alloc", "--store", "redis://127.0.0.1:1", "--table", "t"]);
    check_error(&o, "redis not there");
    assert!(o.stdout.is_empty());
}

/// `alloc --salt-buckets N` and `scan --salt-buckets N` (issue 28): the
/// same IDs and the same scan as unsalted, the rows spread over the
/// buckets, and a table that refuses another salt (or none), exit 2 with
/// one line.
#[test]
fn salted_alloc_and_scan_on_redb() {
    let dir = tempfile::tempdir().unwrap();
    let url = redb_url(dir.path());
    let with = |cmd: &str, table: &str, extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [cmd, "--store", &url, "--table", table]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let values = ["a", "b", "c", "d", "e", "f"];
    let plain = ok(&with("alloc", "plain", &values));
    let salted = ok(&with(
        "alloc",
        "salted",
        &[&["--salt-buckets", "4"][..], &values].concat(),
    ));
    assert_eq!(ids(&salted), ids(&plain));
    assert_eq!(ids(&plain), (MAX - 5..=MAX).rev().collect::<Vec<_>>());
    let scan_plain = ok(&with("scan", "plain", &[]));
    let scan_salted = ok(&with("scan", "salted", &["--salt-buckets", "4"]));
    assert_eq!(scan_salted, scan_plain);
    assert_eq!(
        ok_next(&with(
            "scan",
            "salted",
            &["--salt-buckets", "4", "--limit", "2"]
        )),
        format!("{}\tf\n{}\te\n", MAX - 5, MAX - 4)
    );
    // The rows are salted keys, spread over the buckets, and the salt
    // record names the buckets.
    let store = lexikey_stores::open(&url).unwrap();
    let keys: Vec<Vec<u8>> = store
        .scan(&lexikey::KeyRange::all(), 100)
        .unwrap()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    let salted_rows: Vec<&Vec<u8>> = keys
        .iter()
        .filter(|k| k[2..].starts_with(b"#salted#"))
        .collect();
    assert_eq!(salted_rows.len(), 6);
    let buckets: BTreeSet<&[u8]> = salted_rows.iter().map(|k| &k[..2]).collect();
    assert!(buckets.len() > 1, "{buckets:?}");
    assert_eq!(
        store.get(b"salted#!salt").unwrap(),
        Some(b"buckets=4 mode=fast".to_vec())
    );
    // (The file is held while open.)
    drop(store);
    // Another salt, or none, or salt on an unsalted table: refused.
    let table_is = "the table is salted with 4 buckets (fast hash), as its salt record \
                    salted#!salt says, but was opened";
    for (args, want) in [
        (
            with("alloc", "salted", &["--salt-buckets", "8", "x"]),
            format!("{table_is} with 8 salt buckets (fast hash)"),
        ),
        (
            with(
                "scan",
                "salted",
                &["--salt-buckets", "4", "--salt-mode", "phoenix"],
            ),
            format!("{table_is} with 4 salt buckets (phoenix hash)"),
        ),
        (
            with("alloc", "salted", &["x"]),
            format!("allocation 1 of 1 failed (0 allocated before it): {table_is} without salt"),
        ),
        (
            with("alloc", "plain", &["--salt-buckets", "2", "x"]),
            "the table already holds keys written without salt (e.g. plain#uFFFFFFFFFFFFFFFA)"
                .to_string(),
        ),
        (
            with("alloc", "t", &["--salt-buckets", "0"]),
            "invalid --salt-buckets \"0\": expected a number from 1 to 255".to_string(),
        ),
        (
            with("alloc", "t", &["--salt-buckets", "256"]),
            "invalid --salt-buckets \"256\"".to_string(),
        ),
        (
            with("scan", "t", &["--salt-mode", "phoenix"]),
            "--salt-mode needs --salt-buckets N".to_string(),
        ),
    ] {
        let msg = fails(&args);
        assert!(msg.starts_with(&want), "{args:?}: {msg}");
    }
    assert_eq!(
        ok(&with("scan", "salted", &["--salt-buckets", "4"])),
        scan_plain
    );
    // A reader need not be told the salt: the salt record names it
    // (issue 38).
    assert_eq!(ok(&with("scan", "salted", &[])), scan_plain);
    assert_eq!(
        ok_next(&with("scan", "salted", &["--limit", "2"])),
        format!("{}\tf\n{}\te\n", MAX - 5, MAX - 4)
    );
}

/// Reading creates no PostgreSQL table (issue 38): `lexikey scan` of a
/// missing table (the URL's ns=) exits 2 with one line naming it and the
/// tables there; `psql` then finds no such table; an existing one reads.
#[test]
fn reading_creates_no_postgres_table() {
    let Ok(base) = std::env::var("LEXIKEY_POSTGRES_URL") else {
        eprintln!("LEXIKEY_POSTGRES_URL is not set: run under scripts/with-stores.sh");
        return;
    };
    let tables = || {
        let o = std::process::Command::new("psql")
            .args([
                &base,
                "-Atc",
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()",
            ])
            .output()
            .expect("psql (postgresql-client, scripts/install-stores.sh)");
        assert!(
            o.status.success(),
            "psql: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    };
    let url = fresh_namespace(&base, "there");
    let table = url.rsplit_once("ns=").unwrap().1.to_string();
    assert_eq!(
        ids(&ok(&["alloc", "--store", &url, "--table", "c", "x"])),
        [MAX]
    );
    let missing = fresh_namespace(&base, "nosuch");
    let missing_table = missing.rsplit_once("ns=").unwrap().1.to_string();
    let msg = fails(&["scan", "--store", &missing, "--table", "c"]);
    assert!(
        msg.starts_with(&format!(
            "cannot open store \"{missing}\": postgres: no table \"{missing_table}\" in \
             database \"postgres\" (schema public): its tables: "
        )) && msg.contains(&table)
            && msg.ends_with("; reading creates no table (lexikey alloc creates it)"),
        "{msg}"
    );
    let there = tables();
    assert!(there.lines().any(|l| l == table), "{there}");
    assert!(!there.contains(&missing_table), "{there}");
    assert_eq!(
        ok(&["scan", "--store", &url, "--table", "c"]),
        format!("{MAX}\tx\n")
    );
}

/// `base` with a namespace no other run uses (`ns=TAG_PID_NANOS`).
fn fresh_namespace(base: &str, tag: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}ns={tag}_{}_{nanos:08x}", std::process::id())
}

/// Every row of table `t` in `store`, read directly.
fn table_rows(store: &dyn lexikey::store::Store) -> Vec<(Vec<u8>, Vec<u8>)> {
    let (start, end) = lexikey::tuple::prefix_range(Format::Hex, &[Component::asc("t")]).unwrap();
    store
        .scan(
            &lexikey::KeyRange {
                start: Some(start),
                end,
            },
            usize::MAX,
        )
        .unwrap()
}

/// 8 `lexikey alloc` processes at once on one server table: exactly 8 × 50
/// rows, IDs unique and contiguous from the start ID down, every value
/// stored — checked by reading the store directly.
fn concurrent_processes(var: &str) {
    let Ok(base) = std::env::var(var) else {
        eprintln!("{var} not set: skipped (run through scripts/with-stores.sh)");
        return;
    };
    let url = fresh_namespace(&base, "cli");
    let probe = run(&["scan", "--store", &url, "--table", "t"]);
    if probe
        .stderr
        .contains("needs lexikey-stores built with cargo feature")
    {
        eprintln!(
            "{var}: the binary lacks the feature: skipped ({})",
            probe.stderr.trim()
        );
        return;
    }
    // The table is new: a reader finds none (and creates none), on the
    // servers whose tables are created (PostgreSQL).
    assert!(
        probe.code == 0
            || probe.stderr.contains("no table")
                && probe.stderr.contains("reading creates no table"),
        "{}",
        probe.stderr
    );
    concurrent_allocs(&url, 8, 50);
}

/// `clients` `lexikey alloc --count per` processes at once on table `t` of
/// `url`: every process succeeds, IDs unique and contiguous from the start
/// down, every row holds its client's value (read directly afterwards).
fn concurrent_allocs(url: &str, clients: usize, per: usize) {
    let children: Vec<_> = (0..clients)
        .map(|c| {
            std::process::Command::new(common::bin())
                .args([
                    "alloc",
                    "--stats",
                    "--store",
                    url,
                    "--table",
                    "t",
                    "--count",
                    &per.to_string(),
                    &format!("client-{c}"),
                ])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut all = BTreeSet::new();
    let mut by_value = Vec::new();
    for (c, child) in children.into_iter().enumerate() {
        let o = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "client {c}: {stderr}");
        eprintln!("client {c}: {}", stderr.trim());
        let got = ids(&String::from_utf8(o.stdout).unwrap());
        assert_eq!(got.len(), per);
        assert!(
            got.windows(2).all(|w| w[0] > w[1]),
            "client {c}: IDs not decreasing"
        );
        for id in got {
            assert!(all.insert(id), "duplicate ID {id}");
            by_value.push((id, format!("client-{c}")));
        }
    }
    let n = (clients * per) as u64;
    assert_eq!(all.len() as u64, n);
    assert_eq!(*all.first().unwrap(), MAX - (n - 1), "not contiguous");
    assert_eq!(*all.last().unwrap(), MAX);
    // Read the store directly: exactly these rows, each with its client's value.
    let rows = table_rows(&*lexikey_stores::open(url).unwrap());
    assert_eq!(rows.len() as u64, n);
    by_value.sort();
    let mut stored: Vec<(u64, String)> = rows
        .iter()
        .map(|(k, v)| {
            let text = std::str::from_utf8(k).unwrap();
            let hex = text.strip_prefix("t#u").unwrap();
            (
                u64::from_str_radix(hex, 16).unwrap(),
                String::from_utf8(v.clone()).unwrap(),
            )
        })
        .collect();
    stored.sort();
    assert_eq!(stored, by_value);
}

#[test]
fn concurrent_processes_redis() {
    concurrent_processes("LEXIKEY_REDIS_URL");
}

#[test]
fn concurrent_processes_postgres() {
    concurrent_processes("LEXIKEY_POSTGRES_URL");
}

#[test]
fn concurrent_processes_etcd() {
    concurrent_processes("LEXIKEY_ETCD_URL");
}

/// A client killed with SIGKILL mid-run (anywhere, including between reading
/// the first key and its put-if-absent) leaves no hole and no mislabelled
/// row: afterwards the table's rows are contiguous from the start ID down,
/// every ID a surviving client printed holds that client's value, and new
/// allocations continue below the smallest row. See: issue 8 item 4.
fn killed_client(var: &str) {
    let Ok(base) = std::env::var(var) else {
        eprintln!("{var} not set: skipped (run through scripts/with-stores.sh)");
        return;
    };
    killed_client_on(&fresh_namespace(&base, "kill"), var);
}

/// [`killed_client`] on store `url` (`label` names it in messages). The
/// store is read only once every process is done, so it also works for a
/// store that one process at a time may open (SlateDB).
fn killed_client_on(url: &str, label: &str) {
    use std::io::BufRead;
    let spawn = |c: usize, count: usize| {
        std::process::Command::new(common::bin())
            .args([
                "alloc",
                "--store",
                url,
                "--table",
                "t",
                "--count",
                &count.to_string(),
                &format!("client-{c}"),
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut victim = spawn(0, 100_000);
    let survivors: Vec<_> = (1..4).map(|c| spawn(c, 150)).collect();
    // Kill mid-run: once the victim has printed its first IDs (a fixed
    // delay is not enough on a loaded machine, where starting the process
    // and connecting can take longer), plus a little more. The IDs it
    // printed were acknowledged: their rows must survive the kill.
    let mut acked: Vec<u64> = Vec::new();
    let mut out = std::io::BufReader::new(victim.stdout.take().unwrap());
    let mut first = String::new();
    let _ = out.read_line(&mut first).unwrap();
    if first.is_empty() {
        // It ended before its first ID: say why.
        let o = victim.wait_with_output().unwrap();
        panic!(
            "{label}: the victim printed no ID: {:?}, stderr {}",
            o.status,
            String::from_utf8_lossy(&o.stderr)
        );
    }
    acked.push(first.trim_end().parse().expect("the victim printed no ID"));
    std::thread::sleep(std::time::Duration::from_millis(30));
    victim.kill().unwrap(); // SIGKILL
    let _ = victim.wait();
    // What it printed before it died. A line cut by the kill (a batch's
    // IDs fill the pipe at once: the kill can land inside a write) has no
    // newline: it is dropped, though the digits before the cut parse.
    let mut rest = Vec::new();
    let _ = std::io::Read::read_to_end(&mut out, &mut rest);
    let complete = &rest[..rest.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)];
    acked.extend(
        String::from_utf8_lossy(complete)
            .lines()
            .filter_map(|l| l.parse::<u64>().ok()),
    );
    let mut printed = Vec::new();
    for (i, child) in survivors.into_iter().enumerate() {
        let o = child.wait_with_output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        for id in ids(&String::from_utf8(o.stdout).unwrap()) {
            printed.push((id, format!("client-{}", i + 1)));
        }
    }
    // After the kill, allocation goes on.
    let after = run(&[
        "alloc", "--store", url, "--table", "t", "--count", "5", "later",
    ]);
    assert_eq!(after.code, 0, "{}", after.stderr);
    let later = ids(&after.stdout_str());
    let rows = table_rows(&*lexikey_stores::open(url).unwrap());
    let stored: std::collections::BTreeMap<u64, String> = rows
        .iter()
        .map(|(k, v)| {
            let hex = std::str::from_utf8(k).unwrap().strip_prefix("t#u").unwrap();
            (
                u64::from_str_radix(hex, 16).unwrap(),
                String::from_utf8(v.clone()).unwrap(),
            )
        })
        .collect();
    // Contiguous from the start ID down: no hole.
    let n = stored.len() as u64;
    assert_eq!(
        *stored.keys().next().unwrap(),
        MAX - (n - 1),
        "hole in the table"
    );
    assert_eq!(*stored.keys().last().unwrap(), MAX);
    // Every printed ID is its client's row; the later ones are the smallest.
    for (id, value) in &printed {
        assert_eq!(stored.get(id), Some(value), "ID {id} mislabelled");
    }
    assert_eq!(later.len(), 5);
    assert_eq!(*later.last().unwrap(), MAX - (n - 1));
    for id in &later {
        assert_eq!(stored.get(id).map(String::as_str), Some("later"));
    }
    // The victim's acknowledged rows survived; its rows (written before the
    // kill) hold only its own value.
    for id in &acked {
        assert_eq!(
            stored.get(id).map(String::as_str),
            Some("client-0"),
            "acknowledged ID {id} lost"
        );
    }
    let victim_rows = stored.values().filter(|v| *v == "client-0").count();
    assert!(
        victim_rows > 0 && victim_rows < 100_000,
        "the kill did not land mid-run: {victim_rows} rows"
    );
    eprintln!(
        "{label}: victim wrote {victim_rows} rows ({} printed) before SIGKILL; {} rows in all",
        acked.len(),
        stored.len()
    );
    assert_eq!(
        victim_rows + printed.len() + later.len(),
        stored.len(),
        "rows of unknown origin"
    );
}

#[test]
fn killed_client_redis() {
    killed_client("LEXIKEY_REDIS_URL");
}

#[test]
fn killed_client_postgres() {
    killed_client("LEXIKEY_POSTGRES_URL");
}

/// SlateDB (`slatedb:PATH`, feature `slatedb`): one writer process at a
/// time, the others wait for its lock. See: issue 14.
#[cfg(feature = "slatedb")]
mod slatedb {
    use super::*;

    fn slate_url(dir: &Path) -> String {
        format!("slatedb:{}", dir.join("db").display())
    }

    /// The demo runs on SlateDB, says why the IDs go down, and reuses its
    /// data when run again.
    #[test]
    fn demo_on_slatedb() {
        let dir = tempfile::tempdir().unwrap();
        let url = slate_url(dir.path());
        let out = ok(&["demo", "--store", &url]);
        for line in [
            "    8804190  New York",
            "newest: 18446744073709551613 \"latest comment\"",
            "(this store iterates forward only, with no reverse scan: because IDs go",
            "  seq 3  \"send email\"",
        ] {
            assert!(out.contains(line), "{line}: {out}");
        }
        let again = ok(&["demo", "--store", &url]);
        assert!(again.contains("(already there)"), "{again}");
        assert!(
            again.contains("newest: 18446744073709551610 \"latest comment\""),
            "{again}"
        );
        // The redb demo says nothing about forward-only iteration.
        assert!(!ok(&["demo"]).contains("forward only"));
    }

    /// SlateDB's key rule: row keys over 65,535 bytes are refused by
    /// default (one line, exit 2, before anything is written); an explicit
    /// --max-key-len overrides it.
    #[test]
    fn key_rule_is_the_default_max_key_len() {
        let dir = tempfile::tempdir().unwrap();
        let url = slate_url(dir.path());
        // NAME + "#u" + 16 hex digits: a table name of 65,517 bytes makes
        // row keys of exactly 65,535 bytes; one more byte is too long.
        let fits = "a".repeat(65_535 - 18);
        let long = "a".repeat(65_535 - 17);
        assert_eq!(
            ids(&ok(&["alloc", "--store", &url, "--table", &fits, "x"])),
            [MAX]
        );
        let msg = fails(&["alloc", "--store", &url, "--table", &long, "x"]);
        assert!(
            msg.contains("key of 65536 bytes is longer than the limit of 65535 bytes")
                && msg.contains("slatedb"),
            "{msg}"
        );
        let o = ["alloc", "--store", url.as_str(), "--table", long.as_str()];
        let msg = fails(&[&o[..], &["--max-key-len", "100"]].concat());
        assert!(msg.contains("limit of 100 bytes"), "{msg}");
        let out = ok(&[&o[..], &["--max-key-len", "70000", "x"]].concat());
        assert_eq!(ids(&out), [MAX]);
        // Nothing was written for the refused table: its first row is MAX.
        assert_eq!(
            ok(&["scan", "--store", &url, "--table", &long]),
            format!("{MAX}\tx\n")
        );
        // Other stores keep no default limit.
        let redb = redb_url(dir.path());
        assert_eq!(
            ids(&ok(&["alloc", "--store", &redb, "--table", &long, "x"])),
            [MAX]
        );
    }

    /// 4 concurrent `lexikey alloc --count 200` processes on one path: they
    /// take the writer lock in turn; every ID unique and contiguous, every
    /// row present afterwards.
    #[test]
    fn concurrent_alloc_processes() {
        let dir = tempfile::tempdir().unwrap();
        let url = slate_url(dir.path());
        let t = std::time::Instant::now();
        concurrent_allocs(&url, 4, 200);
        eprintln!("slatedb: 4 processes x 200 in {:?}", t.elapsed());
        // And `lexikey scan` lists them all.
        let scan = ok(&["scan", "--store", &url, "--table", "t"]);
        assert_eq!(scan.lines().count(), 800);
    }

    /// A process that cannot get the writer lock in time allocates nothing
    /// and exits 2 with one line naming the lock and its holder.
    #[test]
    fn busy_writer_lock_exits_2_with_one_line() {
        let dir = tempfile::tempdir().unwrap();
        let url = slate_url(dir.path());
        let holder = lexikey_stores::open(&url).unwrap();
        let busy = format!("{url}?wait_ms=200");
        let o = run(&["alloc", "--store", &busy, "--table", "t", "x"]);
        check_error(&o, "lock held");
        assert!(o.stdout.is_empty());
        for part in [
            "another writer",
            &format!("(process {})", std::process::id()),
            "lexikey.lock",
            "waiting 200 ms",
        ] {
            assert!(o.stderr.contains(part), "{part}: {}", o.stderr);
        }
        drop(holder);
        assert_eq!(
            ids(&ok(&["alloc", "--store", &busy, "--table", "t", "x"])),
            [MAX]
        );
    }

    /// A writer SIGKILLed mid-run: no duplicate, no lost acknowledged row,
    /// no mislabelled row, and the next processes go on allocating.
    #[test]
    fn killed_writer() {
        let dir = tempfile::tempdir().unwrap();
        killed_client_on(&slate_url(dir.path()), "slatedb");
    }
}

/// SlateDB on S3 (`slatedb:s3://BUCKET/PREFIX?endpoint=…&region=…`, feature
/// `slatedb`) against moto's S3, which `scripts/with-stores.sh` starts
/// (`LEXIKEY_SLATEDB_S3_URL`, with the credentials moto takes in
/// `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`). Issue 41.
#[cfg(feature = "slatedb")]
mod slatedb_s3 {
    use super::*;

    fn base() -> String {
        std::env::var("LEXIKEY_SLATEDB_S3_URL").unwrap_or_else(|_| {
            panic!(
                "LEXIKEY_SLATEDB_S3_URL is not set: run through scripts/with-stores.sh, which \
                 starts moto's S3 (scripts/install-stores.sh installs it)"
            )
        })
    }

    /// The URL of a database of its own (one prefix is one database, one
    /// writer at a time): the base URL's prefix + `/TAG-PID-NANOS`.
    fn fresh(tag: &str) -> String {
        let base = base();
        let (location, query) = base.split_once('?').unwrap();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        format!("{location}/{tag}-{}-{nanos}?{query}", std::process::id())
    }

    /// `URL` with its bucket replaced, or its endpoint.
    fn with_bucket(url: &str, bucket: &str) -> String {
        let rest = url.strip_prefix("slatedb:s3://").unwrap();
        let (_, rest) = rest.split_once('/').unwrap();
        format!("slatedb:s3://{bucket}/{rest}")
    }

    /// 4 concurrent `lexikey alloc --count 200` processes on one S3 path:
    /// they take the writer lease in turn; every ID unique and contiguous,
    /// each process's IDs newest first, every row present afterwards.
    #[test]
    fn concurrent_alloc_processes() {
        let url = fresh("procs");
        let t = std::time::Instant::now();
        concurrent_allocs(&url, 4, 200);
        eprintln!("slatedb on S3: 4 processes x 200 in {:?}", t.elapsed());
        let scan = ok(&["scan", "--store", &url, "--table", "t"]);
        assert_eq!(scan.lines().count(), 800);
        // Newest first: the smallest ID leads.
        let first = scan.lines().next().unwrap();
        assert!(first.starts_with(&format!("{}\t", MAX - 799)), "{first}");
    }

    /// A missing bucket, a dead endpoint, missing credentials: exit 2, one
    /// line saying what to do, nothing printed on stdout, and the secret
    /// key never shown.
    #[test]
    fn open_errors_are_one_line() {
        let url = fresh("errors");
        let secret = "s3cr3t-never-printed-0123456789";
        let env = [("AWS_SECRET_ACCESS_KEY", secret)];
        let args = |u: &str| -> Vec<String> {
            ["alloc", "--store", u, "--table", "t", "x"]
                .iter()
                .map(|a| a.to_string())
                .collect()
        };
        let nobucket = with_bucket(&url, "no-such-bucket-lexikey");
        let o = common::run_env(&args(&nobucket), b"", &env);
        check_error(&o, "missing bucket");
        for part in [
            "bucket `no-such-bucket-lexikey` does not exist",
            "aws s3 mb s3://no-such-bucket-lexikey --endpoint-url http://127.0.0.1:",
        ] {
            assert!(o.stderr.contains(part), "{part}: {}", o.stderr);
        }
        assert!(
            o.stdout.is_empty() && !o.stderr.contains(secret),
            "{}",
            o.stderr
        );

        let (location, query) = url.split_once('?').unwrap();
        let endpoint = query
            .split('&')
            .find_map(|p| p.strip_prefix("endpoint="))
            .unwrap();
        let dead = format!(
            "{location}?{}",
            query.replace(endpoint, "http://127.0.0.1:9")
        );
        let t = std::time::Instant::now();
        let o = common::run_env(&args(&dead), b"", &env);
        check_error(&o, "dead endpoint");
        assert!(
            o.stderr
                .contains("cannot reach S3 at http://127.0.0.1:9 (is the server running"),
            "{}",
            o.stderr
        );
        assert!(!o.stderr.contains(secret), "{}", o.stderr);
        eprintln!("dead endpoint: failed in {:?}", t.elapsed());

        for var in ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"] {
            let o = common::run_env(&args(&url), b"", &[(var, "")]);
            check_error(&o, var);
            assert!(
                o.stderr.contains(&format!("no S3 credentials: set {var} ")),
                "{}",
                o.stderr
            );
        }
        // Nothing was written by any of them: the table is new.
        assert_eq!(
            ids(&ok(&["alloc", "--store", &url, "--table", "t", "x"])),
            [MAX]
        );
    }

    /// A writer SIGKILLed mid-run keeps its lease until it goes stale (6 s
    /// unrenewed); then the others take over: no duplicate, no lost
    /// acknowledged row, no mislabelled row.
    #[test]
    fn killed_writer() {
        killed_client_on(&fresh("kill"), "slatedb on S3");
    }
}

/// Bigtable (`bigtable://PROJECT/INSTANCE`, feature `bigtable`) on the
/// emulator that `scripts/with-stores.sh` starts (`LEXIKEY_BIGTABLE_URL`;
/// missing, the tests fail). See: issue 26.
#[cfg(feature = "bigtable")]
mod bigtable {
    use super::*;

    fn base() -> String {
        std::env::var("LEXIKEY_BIGTABLE_URL").unwrap_or_else(|_| {
            panic!(
                "LEXIKEY_BIGTABLE_URL is not set: run through scripts/with-stores.sh, which starts \
                 the Bigtable emulator (Debian package google-cloud-cli-bigtable-emulator)"
            )
        })
    }

    /// demo, alloc and scan on the emulator: the table (the URL's ns=) is
    /// created by the first of them.
    #[test]
    fn demo_alloc_scan() {
        let url = fresh_namespace(&base(), "cli");
        let out = ok(&["demo", "--store", &url]);
        for line in [
            "    8804190  New York",
            "newest: 18446744073709551613 \"latest comment\"",
            "  seq 3  \"send email\"",
        ] {
            assert!(out.contains(line), "{line}: {out}");
        }
        let again = ok(&["demo", "--store", &url]);
        assert!(again.contains("(already there)"), "{again}");
        assert_eq!(
            ids(&ok(&[
                "alloc", "--store", &url, "--table", "c", "first!", "me too"
            ])),
            [MAX, MAX - 1]
        );
        assert_eq!(
            ok_next(&["scan", "--store", &url, "--table", "c", "--limit", "1"]),
            format!("{}\tme too\n", MAX - 1)
        );
    }

    #[test]
    fn concurrent_processes() {
        concurrent_allocs(&fresh_namespace(&base(), "cli"), 8, 50);
    }

    #[test]
    fn killed_client() {
        killed_client_on(&fresh_namespace(&base(), "kill"), "bigtable");
    }

    /// Cloud Bigtable's row key limit (4 KiB) is the default --max-key-len:
    /// a longer table name is refused before anything is written (the
    /// emulator would take it); past an explicit --max-key-len, the adapter
    /// refuses the row key itself.
    #[test]
    fn row_key_limit() {
        let url = fresh_namespace(&base(), "keylen");
        // NAME + "#u" + 16 hex digits.
        let fits = "a".repeat(4096 - 18);
        let long = "a".repeat(4096 - 17);
        assert_eq!(
            ids(&ok(&["alloc", "--store", &url, "--table", &fits, "x"])),
            [MAX]
        );
        let msg = fails(&["alloc", "--store", &url, "--table", &long, "x"]);
        assert!(
            msg.contains("key of 4097 bytes is longer than the limit of 4096 bytes")
                && msg.contains("bigtable"),
            "{msg}"
        );
        let msg = fails(&[
            "alloc",
            "--store",
            &url,
            "--table",
            &long,
            "--max-key-len",
            "5000",
            "x",
        ]);
        assert!(
            msg.contains("a row key of 4097 bytes: Cloud Bigtable's limit is 4096 bytes"),
            "{msg}"
        );
        assert_eq!(ok(&["scan", "--store", &url, "--table", &long]), "");
    }

    /// `range --splits --for cbt` prints the line that creates a salted
    /// table split at its buckets: run by bash against the emulator
    /// (`BIGTABLE_EMULATOR_HOST`, exported by scripts/with-stores.sh), it
    /// creates the table (cbt ls lists it), which a salted alloc then
    /// writes to and scan reads, newest first. Text and binary salts.
    #[test]
    fn splits_line_creates_the_table() {
        for format in ["hex", "binary"] {
            let url = fresh_namespace(&base(), &format!("splits_{format}"));
            let table = url.rsplit_once("ns=").unwrap().1.to_string();
            let line = ok(&[
                "range",
                "--splits",
                "--salt-buckets",
                "8",
                "--for",
                "cbt",
                "--format",
                format,
                "--store",
                &url,
            ]);
            let splits = match format {
                "hex" => "'01#,02#,03#,04#,05#,06#,07#'",
                _ => r"$'\x01,\x02,\x03,\x04,\x05,\x06,\x07'",
            };
            assert_eq!(
                line,
                format!(
                    "cbt -project lexikey -instance test createtable {table} splits={splits}\n"
                )
            );
            let run = |cmd: &str| {
                let o = std::process::Command::new("bash")
                    .args(["-c", cmd])
                    .output()
                    .expect("bash");
                assert!(
                    o.status.success(),
                    "{cmd}: {}{}",
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                );
                String::from_utf8_lossy(&o.stdout).into_owned()
            };
            run(line.trim_end());
            let tables = run("cbt -project lexikey -instance test ls");
            assert!(
                tables.lines().any(|t| t == table),
                "{table} not in {tables}"
            );
            let salted = ["--salt-buckets", "8", "--format", format];
            let alloc = ok(&[
                &["alloc", "--store", &url, "--table", "t", "--count", "20"][..],
                &salted,
                &["x"],
            ]
            .concat());
            assert_eq!(ids(&alloc), (0..20).map(|i| MAX - i).collect::<Vec<_>>());
            let scan = ok(&[&["scan", "--store", &url, "--table", "t"][..], &salted].concat());
            assert_eq!(scan.lines().count(), 20, "{scan}");
            assert!(scan.starts_with(&format!("{}\tx\n", MAX - 19)), "{scan}");
        }
    }

    /// `cbt ls [TABLE]` on the emulator (`BIGTABLE_EMULATOR_HOST`, which
    /// `scripts/with-stores.sh` sets): the instance's tables, or a table's
    /// column families; `cbt` is Google's own client, not lexikey.
    fn cbt_ls(project: &str, instance: &str, table: Option<&str>) -> String {
        let mut cmd = std::process::Command::new("cbt");
        let _ = cmd.args(["-project", project, "-instance", instance, "ls"]);
        if let Some(t) = table {
            let _ = cmd.arg(t);
        }
        let o = cmd
            .output()
            .expect("cbt (Debian package google-cloud-cli-cbt, scripts/install-stores.sh)");
        assert!(
            o.status.success(),
            "cbt ls: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    }

    /// Reading creates nothing (issue 38): `lexikey scan` of a missing
    /// table, in a wrong project or instance, or with a column family the
    /// table lacks, exits 2 with one line naming what is missing (and the
    /// tables the instance has), and afterwards `cbt ls` shows that no
    /// table and no family was created; the existing table still reads.
    #[test]
    fn reading_creates_no_table_or_family() {
        let base = base();
        let url = fresh_namespace(&base, "there");
        let table = url.rsplit_once("ns=").unwrap().1.to_string();
        let (project, instance) = ("lexikey", "test");
        assert!(
            base.starts_with(&format!("bigtable://{project}/{instance}?")),
            "{base}"
        );
        assert_eq!(
            ids(&ok(&["alloc", "--store", &url, "--table", "c", "x"])),
            [MAX]
        );
        let missing = fresh_namespace(&base, "nosuch");
        let missing_table = missing.rsplit_once("ns=").unwrap().1.to_string();
        let elsewhere = |p: &str, i: &str| {
            url.replacen(
                &format!("bigtable://{project}/{instance}"),
                &format!("bigtable://{p}/{i}"),
                1,
            )
        };
        let (wrong_project, wrong_instance) = (
            elsewhere("wrong-project", instance),
            elsewhere(project, "wrong-inst"),
        );
        let scan = |u: &str| fails(&["scan", "--store", u, "--table", "c"]);
        let msg = scan(&missing);
        assert!(
            msg.starts_with(&format!(
                "cannot open store \"{missing}\": bigtable: no table \"{missing_table}\" in \
                 projects/{project}/instances/{instance} on emulator "
            )) && msg.contains(&table)
                && msg.ends_with("; reading creates no table (lexikey alloc creates it)"),
            "{msg}"
        );
        for (u, p, i) in [
            (&wrong_project, "wrong-project", instance),
            (&wrong_instance, project, "wrong-inst"),
        ] {
            let msg = scan(u);
            assert!(
                msg.contains(&format!(
                    "no table \"{table}\" in projects/{p}/instances/{i}"
                )) && msg.contains("it has no tables (a wrong project or instance?)"),
                "{msg}"
            );
        }
        // Python's read-only open takes the same path; Allocator's
        // read-only open in the library too.
        let msg = scan(&format!("{url}&family=g"));
        assert!(
            msg.contains(&format!(
                "table \"{table}\" on emulator {} has no column family \"g\" (family=): its \
                 families: f; reading creates no family",
                std::env::var("BIGTABLE_EMULATOR_HOST").unwrap()
            )),
            "{msg}"
        );
        // Nothing was created: cbt lists the tables and the families.
        let tables = cbt_ls(project, instance, None);
        assert!(tables.lines().any(|l| l == table), "{tables}");
        assert!(!tables.contains(&missing_table), "{tables}");
        for (p, i) in [("wrong-project", instance), (project, "wrong-inst")] {
            assert_eq!(cbt_ls(p, i, None), "", "{p}/{i}");
        }
        // `cbt ls TABLE`: a header, a line of dashes, then one family a
        // line (its name first).
        let listing = cbt_ls(project, instance, Some(&table));
        let families: Vec<&str> = listing
            .lines()
            .skip_while(|l| !l.starts_with("---"))
            .skip(1)
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert_eq!(families, ["f"], "{listing}");
        // The existing table reads as before.
        assert_eq!(
            ok(&["scan", "--store", &url, "--table", "c"]),
            format!("{MAX}\tx\n")
        );
    }

    /// A salted table reads without --salt-buckets: the salt record names
    /// the count and the hash (issue 38); a count given must match it.
    #[test]
    fn salted_table_reads_without_salt_buckets() {
        let url = fresh_namespace(&base(), "salted");
        let with = |cmd: &str, extra: &[&str]| -> Vec<String> {
            [&[cmd, "--store", &url, "--table", "s"][..], extra]
                .concat()
                .iter()
                .map(|s| s.to_string())
                .collect()
        };
        let _ = ok(&with("alloc", &["--salt-buckets", "4", "a", "b", "c"]));
        let want = format!("{}\tc\n{}\tb\n{MAX}\ta\n", MAX - 2, MAX - 1);
        assert_eq!(ok(&with("scan", &[])), want);
        assert_eq!(ok(&with("scan", &["--salt-buckets", "4"])), want);
        let msg = fails(&with("scan", &["--salt-buckets", "8"]));
        assert!(
            msg.starts_with("the table is salted with 4 buckets (fast hash), as its salt record"),
            "{msg}"
        );
    }

    /// A server that is not there: one line naming the address, exit 2.
    #[test]
    fn emulator_not_there() {
        let o = run(&[
            "alloc",
            "--store",
            "bigtable://p/i?emulator=127.0.0.1:1&timeout_ms=2000",
            "--table",
            "t",
        ]);
        check_error(&o, "emulator not there");
        assert!(
            o.stderr
                .contains("(is the Bigtable emulator running at 127.0.0.1:1?)"),
            "{}",
            o.stderr
        );
        assert!(o.stdout.is_empty());
    }

    /// `range --for cbt --store bigtable://P/I?ns=T` names the project,
    /// instance and table; --table overrides the table.
    #[test]
    fn range_for_cbt_names_the_store() {
        let q = ["str:population", "--ge", "i64:1000000"];
        let with = |extra: &[&str]| ok(&[&["range", "--for", "cbt"][..], extra, &q].concat());
        assert_eq!(
            with(&["--store", "bigtable://my-proj/prod?ns=cities"]),
            "cbt -project my-proj -instance prod read cities \
             start='population#l80000000000F4240' end='population$'\n"
        );
        assert_eq!(
            with(&["--store", "bigtable://my-proj/prod", "--table", "idx"]),
            "cbt -project my-proj -instance prod read idx \
             start='population#l80000000000F4240' end='population$'\n"
        );
        assert_eq!(
            with(&[]),
            "cbt read t start='population#l80000000000F4240' end='population$'\n"
        );
        for (args, what) in [
            (
                &[
                    "range",
                    "--for",
                    "hbase",
                    "--store",
                    "bigtable://p/i",
                    "str:a",
                ][..],
                "--store applies to --for cbt",
            ),
            (
                &[
                    "range",
                    "--for",
                    "cbt",
                    "--store",
                    "redis://127.0.0.1:1",
                    "str:a",
                ],
                "--for cbt needs a bigtable://PROJECT/INSTANCE store URL",
            ),
            (
                &["range", "--for", "cbt", "--format", "binary", "bytes:00"],
                "cannot hold a NUL byte: read this range with a Bigtable client library",
            ),
        ] {
            let msg = fails(args);
            assert!(msg.contains(what), "{args:?}: {msg}");
        }
    }
}

/// A Redis server of this test's own (the shared ones serve other tests),
/// on a free loopback port, without persistence; killed when dropped.
#[cfg(feature = "redis")]
struct PrivateRedis {
    child: std::process::Child,
    port: u16,
}

#[cfg(feature = "redis")]
impl PrivateRedis {
    fn start() -> PrivateRedis {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = std::process::Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("redis-server on the PATH");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "redis-server did not start on {port}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        PrivateRedis { child, port }
    }

    /// SIGKILL, and wait for it.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(feature = "redis")]
impl Drop for PrivateRedis {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The store dies under `lexikey alloc`: after the IDs printed so far, one
/// line on stderr naming Redis and the cause, exit 2 — never "other clients
/// kept winning" (contention), which is what it said when the attempts
/// failed because the store did. Where the kill lands decides which of the
/// two store answers is right: between two calls, or before a write went
/// out, a store error after every attempt failed (the connection refused);
/// while a write was on the wire, "may or may not have happened" with the
/// last store error (the allocator cannot read the row back to settle it).
#[cfg(feature = "redis")]
#[test]
fn alloc_reports_a_dead_store_as_a_store_error() {
    use std::io::BufRead;
    let mut redis = PrivateRedis::start();
    let url = format!("redis://127.0.0.1:{}?timeout_ms=500", redis.port);
    let mut child = std::process::Command::new(common::bin())
        .args([
            "alloc", "--store", &url, "--table", "t", "--count", "10000000",
        ])
        .args(["--quiet", "v"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().expect("alloc printed no ID").unwrap();
    assert_eq!(first, u64::MAX.to_string());
    redis.kill();
    let started = std::time::Instant::now();
    let printed = 1 + lines.map_while(Result::ok).count();
    let o = child.wait_with_output().unwrap();
    let out = common::Out {
        code: o.status.code().unwrap_or(-1),
        stdout: Vec::new(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    common::check_error(&out, "alloc on a dead store");
    let msg = &out.stderr;
    eprintln!(
        "{printed} IDs, then in {:.1} s: {msg}",
        started.elapsed().as_secs_f64()
    );
    let head = format!(
        "lexikey: error: allocation {} of 10000000 failed ({printed} allocated before it): ",
        printed + 1
    );
    let rest = msg
        .strip_prefix(&head)
        .unwrap_or_else(|| panic!("{msg}\nwanted: {head}"));
    assert!(!msg.contains("other clients"), "{msg}");
    if let Some(cause) = rest.strip_prefix("store error: redis: ") {
        assert!(
            cause.contains("Connection refused") && cause.ends_with("the store failing)\n"),
            "{msg}"
        );
        let attempts = cause
            .rsplit_once("(gave up after ")
            .and_then(|(_, r)| r.split_once(' '))
            .and_then(|(n, _)| n.parse::<u32>().ok())
            .unwrap_or_else(|| panic!("no attempt count: {msg}"));
        assert!(attempts > 1, "{msg}");
    } else {
        // The next row's key: the IDs count down from u64::MAX.
        let row = u64::MAX - printed as u64;
        let ambiguous = format!(
            "the write of row {row} may or may not have happened (last store error: redis: "
        );
        assert!(
            rest.starts_with(&ambiguous) && rest.ends_with(")\n"),
            "{msg}\nwanted a store error or: {ambiguous}"
        );
    }
}
