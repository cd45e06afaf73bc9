//! What a newcomer trips over in the first fifteen minutes (issue
//! [newcomer]): values that silently changed, and errors that echoed
//! megabytes. Each case failed before the fix.

mod common;

use common::{fails, ok, run};

/// An out-of-range float literal is an error, not `inf` or `0.0`; only
/// `inf`, `-inf` (`infinity`) spell the infinities, and subnormals stay.
#[test]
fn float_literals_that_do_not_fit_are_errors() {
    for (arg, why) in [
        ("f64:1e999", "out of range for f64"),
        ("f64:-1e999", "out of range for f64"),
        ("f32:1e39", "out of range for f32"),
        ("f32:-3.5e38", "out of range for f32"),
        ("f64:1e-400", "too small for f64"),
        ("f64:-1e-400", "too small for f64"),
        ("f32:1e-46", "too small for f32"),
    ] {
        let e = fails(&["encode", arg]);
        assert!(e.contains(why), "{arg}: {e}");
    }
    for arg in [
        "f64:inf",
        "f64:-inf",
        "f64:Infinity",
        "f32:-inf",
        "f64:0",
        "f64:-0.0",
        "f64:0e500",
    ] {
        ok(&["encode", arg]);
    }
    // The smallest subnormals are values, not zero.
    assert_eq!(ok(&["encode", "f64:5e-324"]), "d8000000000000001\n");
    assert_eq!(ok(&["encode", "f32:1e-45"]), "f80000001\n");
    assert_eq!(ok(&["encode", "f64:4.9e-324"]), "d8000000000000001\n");
    // Ranges read predicates the same way.
    let e = fails(&["range", "str:x", "--ge", "f64:1e999"]);
    assert!(e.contains("out of range for f64"), "{e}");
}

/// `ts` takes explicit units; a bare integer is milliseconds, and one that
/// is only plausible as seconds gets a one-line hint on stderr.
#[test]
fn timestamps_take_units_and_hint_at_seconds() {
    let secs = ok(&["encode", "ts:1714564800s"]);
    assert_eq!(secs, ok(&["encode", "ts:1714564800000ms"]));
    assert_eq!(secs, ok(&["encode", "ts:1714564800000000us"]));
    assert_eq!(secs, ok(&["encode", "ts:1714564800000000000ns"]));
    assert_eq!(secs, ok(&["encode", "ts:2024-05-01T12:00:00Z"]));
    let e = fails(&["encode", "ts:1714564800000001us"]);
    assert!(e.contains("not a whole number of milliseconds"), "{e}");
    let e = fails(&["encode", "ts:99999999999999999s"]);
    assert!(e.contains("out of range"), "{e}");

    let o = run(&["encode", "ts:1714564800"]);
    assert_eq!(o.code, 0);
    assert_eq!(o.stdout, b"t8000000066322EC0\n");
    assert_eq!(
        o.stderr,
        "lexikey: hint: ts:1714564800 is read as milliseconds (1970-01-20T20:16:04.800Z); \
         if you meant seconds, write ts:1714564800s\n"
    );
    // Plausible milliseconds, units and RFC 3339: no hint.
    for arg in [
        "ts:1714564800000",
        "ts:1714564800s",
        "ts:5",
        "ts:2024-05-01T12:00:00Z",
    ] {
        let o = run(&["encode", arg]);
        assert_eq!((o.code, o.stderr.as_str()), (0, ""), "{arg}");
    }
    // Range prefixes and predicates too.
    let o = run(&["range", "str:e", "--ge", "ts.desc:1714564800"]);
    assert_eq!(o.code, 0);
    assert!(
        o.stderr.starts_with("lexikey: hint: ts:1714564800 is read"),
        "{}",
        o.stderr
    );
}

/// No message echoes a huge input: every quoted input is cut at 64
/// characters and says how long it was.
#[test]
fn errors_do_not_echo_megabytes() {
    let huge = format!("i64:{}", "9".repeat(100_000));
    let e = fails(&["encode", &huge]);
    assert!(e.len() < 400, "{} bytes: {}", e.len(), &e[..200]);
    assert!(e.contains("…(100004 bytes)"), "{e}");
    assert!(e.contains("…(100000 bytes)"), "{e}");
    let e = fails(&["range", "str:x", "--ge", &huge]);
    assert!(e.len() < 400, "{} bytes", e.len());
    let e = fails(&["encode", &format!("ts:{}x", "1".repeat(100_000))]);
    assert!(e.len() < 600, "{} bytes", e.len());
}

/// A range with no prefix and no predicate is the whole table: said on
/// stderr, whatever the target; a bounded range says nothing.
#[test]
fn a_whole_table_scan_is_said() {
    for target in ["hbase", "cql", "redis", "etcd", "sql", "rocksdb"] {
        let o = run(&["range", "--for", target, "--table", "t"]);
        assert_eq!(o.code, 0, "{target}: {}", o.stderr);
        assert!(
            o.stderr.contains("the whole table"),
            "{target}: {:?}",
            o.stderr
        );
    }
    let o = run(&["range", "--for", "hbase", "--table", "t", "str:a"]);
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    // Raw output shows it itself: two empty lines, nothing on stderr.
    let o = run(&["range"]);
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
}

/// Help and man: `dec` in the type lists, man pages with the component
/// syntax, suggestions for `--gte`/`--lte`, `-v`/`--verison`, and `help`
/// refusing extra words.
#[test]
fn help_man_and_suggestions() {
    for page in [ok(&["--help"]), ok(&["help", "encode"])] {
        assert!(page.contains("dec (a decimal of any size"), "{page}");
    }
    let top = ok(&["man"]);
    assert!(top.contains("Components:") && top.contains("dec "), "{top}");
    assert!(
        top.contains("lexikey man $c >"),
        "the top page says how to install the others"
    );
    for c in ["encode", "decode", "range"] {
        let page = ok(&["man", c]);
        assert!(
            page.contains("TYPE[.desc]:VALUE") && page.contains("ulid"),
            "{c}"
        );
    }
    let e = fails(&["range", "str:a", "--gte", "i64:1"]);
    assert!(e.contains("did you mean '--ge'?"), "{e}");
    let e = fails(&["range", "str:a", "--lte", "i64:1"]);
    assert!(e.contains("did you mean '--le'?"), "{e}");
    let e = fails(&["-v"]);
    assert!(e.contains("did you mean '-V' or '--version'?"), "{e}");
    let e = fails(&["--verison"]);
    assert!(e.contains("did you mean '--version'?"), "{e}");
    let e = fails(&["help", "encode", "decode"]);
    assert!(e.contains("help takes at most one COMMAND, got 2"), "{e}");
}

/// Without a schema, a damaged tagged value decodes as a string (exit 0)
/// with a warning; with one, it is an error; sound keys say nothing.
#[test]
fn a_damaged_tagged_value_is_warned_of() {
    let o = run(&["decode", "population#l80000000003a783C"]);
    assert_eq!(o.code, 0);
    assert_eq!(o.stdout, b"str:population\nstr:l80000000003a783C\n");
    assert!(
        o.stderr.starts_with("lexikey: warning: component 2 (\"l80000000003a783C\") reads as a str but looks like a damaged i64"),
        "{}",
        o.stderr
    );
    let e = fails(&[
        "decode",
        "--schema",
        "str,i64",
        "population#l80000000003a783C",
    ]);
    assert!(e.contains("at byte 23"), "{e}");
    for key in [
        "population#l80000000003A783C",
        "usa#california#san%20francisco",
        "bad#face",
    ] {
        let o = run(&["decode", key]);
        assert_eq!((o.code, o.stderr.as_str()), (0, ""), "{key}");
    }
    let o = run(&["decode", "--format", "base64", "population#lV------uT2"]);
    assert!(
        o.stderr.contains("looks like a damaged i64"),
        "{}",
        o.stderr
    );
}

/// With --schema, a range's prefix and predicates must be of their fields'
/// types; without one, a bound's type is its own (and the keys differ).
#[test]
fn a_schema_refuses_predicates_of_another_type() {
    let e = fails(&[
        "range",
        "--schema",
        "str,i64",
        "str:population",
        "--ge",
        "i32:1000000",
    ]);
    assert_eq!(
        e,
        "the ge predicate is an i32 (1000000), but field 2 of the schema is an i64"
    );
    let e = fails(&[
        "range",
        "--schema",
        "str,i64.desc",
        "str:population",
        "--lt",
        "i64:5",
    ]);
    assert!(
        e.contains("is an i64 (5), but field 2 of the schema is an i64.desc"),
        "{e}"
    );
    let e = fails(&[
        "range",
        "--schema",
        "i64,str",
        "str:population",
        "--prefix",
        "a",
    ]);
    assert!(e.contains("component 1 is a str"), "{e}");
    let e = fails(&[
        "range",
        "--schema",
        "str",
        "str:population",
        "--ge",
        "i64:1",
    ]);
    assert!(e.contains("no field after the prefix"), "{e}");
    assert_eq!(
        ok(&[
            "range",
            "--schema",
            "str,i64",
            "str:population",
            "--ge",
            "i64:1000000"
        ]),
        ok(&["range", "str:population", "--ge", "i64:1000000"])
    );
    let e = fails(&[
        "range",
        "--format",
        "phoenix",
        "--schema",
        "varchar",
        "varchar:a",
    ]);
    assert!(
        e.contains("--schema applies to range with the native formats"),
        "{e}"
    );
    // Without a schema the i32 bound selects i32 keys: the i64 key of 5 is
    // inside the i32 range, which is why the schema matters.
    let r = ok(&["range", "str:population", "--ge", "i32:1000000"]);
    let mut lines = r.lines();
    let (start, end) = (lines.next().unwrap(), lines.next().unwrap());
    let k5 = "population#l8000000000000005";
    assert!(start <= k5 && k5 < end, "{start} {end}");
}

/// JSON output shows hidden characters (C1 controls, bidi overrides, DEL)
/// escaped, and `range --json` works for text keys the raw rendering
/// refuses.
#[test]
fn json_escapes_hidden_characters() {
    let o = run(&["range", "--json", "str:a\u{202E}b"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("a\\u202eb"), "{out}");
    let key = ok(&["encode", "str:x\u{85}\u{7F}"]);
    let json = ok(&["decode", "--json", key.trim_end()]);
    assert!(json.contains("x\\u0085\\u007f"), "{json}");
    for c in json.chars() {
        assert!(
            !matches!(c, '\u{80}'..='\u{9F}' | '\u{202A}'..='\u{202E}' | '\u{7F}'),
            "{json:?}"
        );
    }
}

/// A binary key is read as hex, 0x-prefixed hex, or the `\xNN` form that
/// `range --for hbase` itself prints; errors name the forms.
#[test]
fn binary_keys_in_every_form_people_paste() {
    let hex = ok(&["encode", "--format", "binary", "str:population", "i64:5"]);
    let hex = hex.trim_end();
    let want = ok(&["decode", "--format", "binary", "--schema", "str,i64", hex]);
    let hbase = ok(&[
        "range",
        "--format",
        "binary",
        "--for",
        "hbase",
        "str:population",
        "--eq",
        "i64:5",
    ]);
    // scan 't', {STARTROW => "population\x00\x01\x80...", ...}
    let start = hbase.split('"').nth(1).unwrap().to_string();
    assert!(start.contains("\\x00\\x01"), "{start}");
    for form in [
        format!("0x{hex}"),
        format!("0X{}", hex.to_uppercase()),
        start.clone(),
    ] {
        assert_eq!(
            ok(&["decode", "--format", "binary", "--schema", "str,i64", &form]),
            want,
            "{form}"
        );
    }
    let lines = format!("0x{hex}\n{start}\n{hex}\n");
    let bulk = common::ok_with(
        &[
            "decode", "--stdin", "--format", "binary", "--schema", "str,i64",
        ],
        lines.as_bytes(),
    );
    assert_eq!(bulk.lines().count(), 3);
    assert!(
        bulk.lines().all(|l| l == bulk.lines().next().unwrap()),
        "{bulk}"
    );
    // Profiles read the same forms.
    let fdb = ok(&["encode", "--format", "fdb-tuple", "str:users", "int:42"]);
    assert_eq!(
        ok(&[
            "decode",
            "--format",
            "fdb-tuple",
            &format!("0x{}", fdb.trim_end())
        ]),
        ok(&["decode", "--format", "fdb-tuple", r"\x02users\x00\x15*"])
    );
    for (bad, why) in [
        ("abc", "odd number of digits (3)"),
        ("0x6g", "bad digit at character 3"),
        (r"ab\x0", "character 2 is neither printable ASCII"),
        (r"ab\y00\x01", "character 2 is neither printable ASCII"),
    ] {
        let e = fails(&["decode", "--format", "binary", "--schema", "str", bad]);
        assert!(e.contains(why), "{bad}: {e}");
        assert!(
            e.contains("0x-prefixed hex, or HBase's Bytes.toStringBinary form"),
            "{e}"
        );
    }
}

/// `redb://x` (a URL-shaped typo) is refused with the right spelling instead
/// of creating `/x` at the file system's root.
#[test]
fn url_shaped_file_stores_are_refused() {
    // (rocksdb:// and slatedb:// are refused by the same parser: stores'
    // parse_url; here only the store every build has.)
    for cmd in ["scan", "alloc"] {
        let e = fails(&[cmd, "--store", "redb://x", "--table", "t"]);
        assert!(e.contains("write redb:PATH"), "{e}");
    }
    assert!(!std::path::Path::new("/x").exists());
}

/// `scan` reads existing stores only: a missing file is an error, never
/// created.
#[test]
fn scan_does_not_create_a_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing.redb");
    let url = format!("redb:{}", path.display());
    let e = fails(&["scan", "--store", &url, "--table", "t"]);
    assert!(
        e.contains("no store at") && e.contains("lexikey alloc creates one"),
        "{e}"
    );
    assert!(!path.exists());
    ok(&["alloc", "--store", &url, "--table", "t", "x"]);
    assert!(ok(&["scan", "--store", &url, "--table", "t"]).ends_with("\tx\n"));
}

/// `scan` opens a redb file read-only: a user who may read the file but not
/// write it (nor its directory) can scan it, and the file is left as it
/// was. As root (CI), the scan runs as `nobody` (setpriv); otherwise the
/// file and its directory are made read-only for this user.
#[test]
fn scan_reads_a_file_it_may_not_write() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.redb");
    let url = format!("redb:{}", path.display());
    ok(&["alloc", "--store", &url, "--table", "t", "first", "second"]);
    let before = std::fs::read(&path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    let root = unsafe { libc_geteuid() } == 0;
    let mut cmd = if root {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"]);
        c.arg(common::bin());
        c
    } else {
        std::process::Command::new(common::bin())
    };
    let out = cmd
        .args(["scan", "--store", &url, "--table", "t"])
        .output()
        .expect("run lexikey scan (as nobody via setpriv when root)");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "scan failed: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let values: Vec<&str> = stdout
        .lines()
        .map(|l| l.split_once('\t').unwrap().1)
        .collect();
    assert_eq!(values, ["second", "first"], "{stdout}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "scan changed the file"
    );
}

extern "C" {
    #[link_name = "geteuid"]
    fn libc_geteuid() -> u32;
}
