//! The deliberately broken allocator (core feature `broken-allocator`: skip
//! the read-back after an ambiguous write) in a real run against a private
//! Redis that `scripts/history.sh` starts and pauses: the checker must find
//! the values it wrote twice. Needs redis-server (scripts/install-stores.sh).

use std::process::Command;

/// Runs the script: exit code, stdout, stdout + stderr.
fn history_sh(args: &[&str], out: &std::path::Path) -> (i32, String, String) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let o = Command::new("bash")
        .arg(format!("{root}/scripts/history.sh"))
        .args(args)
        .arg("--out")
        .arg(out)
        .env("LEXIKEY_HISTORY_BIN", env!("CARGO_BIN_EXE_lexikey-history"))
        .env("FAULT_EVERY", "4")
        .output()
        .expect("bash runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    (o.status.code().unwrap_or(-1), stdout, text)
}

/// The checker's full report on a history file (the script prints its
/// first 40 lines only: on a long run the violations listed last, such as
/// reuse, fall past the cut).
fn full_report(history: &std::path::Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_lexikey-history"))
        .arg("check")
        .arg(history)
        .output()
        .expect("lexikey-history runs");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_checker_catches_the_broken_allocator_in_a_real_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("broken.jsonl");
    let (rc, stdout, text) = history_sh(
        &[
            "--store",
            "redis",
            "--seconds",
            "14",
            "--faults",
            "pause",
            "--broken",
        ],
        &out,
    );
    assert_eq!(rc, 1, "{text}");
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("history: redis pause: "), "{text}");
    assert!(!last.ends_with(", 0 violations"), "{text}");
    // The bug's signature: an acknowledged value also sits in an orphan row.
    let report = full_report(&out);
    assert!(
        report.contains("violation: exactly-once: the value of the op of line"),
        "{text}\n{report}"
    );
    // The history and its picture are there to read.
    let h = std::fs::read_to_string(&out).expect("history written");
    assert!(h.contains(r#""op": "fault", "fault": "pause", "target": "redis""#));
    let svg = std::fs::read_to_string(dir.path().join("broken.svg")).expect("svg written");
    assert!(svg.contains("#C800A0"), "violations are drawn");
}

/// Without the reuse guard, deleting the newest row lets its ID be handed
/// out again (documented in lexikey::store::alloc): a real run with the deleter
/// and no guard must be caught by the no-reuse rule — and the same run with
/// the guard is clean (history/tests/runs.rs, docs/allocator.md's table).
#[test]
fn the_checker_catches_reuse_without_the_guard_in_a_real_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("reuse.jsonl");
    let (rc, stdout, text) = history_sh(
        &[
            "--store",
            "redis",
            "--seconds",
            "6",
            // One client, pausing 5 ms after each insert: the deleter (every
            // 200 ms) reads the newest row and deletes it, in well under a
            // millisecond, inside that pause, and the next insert then
            // hands the deleted ID out again. Back to back, the next insert
            // usually read the newest row before the delete reached the
            // store: a CI run of 10,753 inserts and 30 deletes ended with
            // no reuse to catch.
            "--clients",
            "1",
            "--pause-ms",
            "5",
            "--deletes",
        ],
        &out,
    );
    assert_eq!(rc, 1, "{text}");
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("history: redis none,deletes: "), "{text}");
    let report = full_report(&out);
    assert!(report.contains("violation: reuse: ID "), "{text}\n{report}");
}
