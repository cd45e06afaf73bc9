//! Running the real parsers and clients that rendered lines are checked
//! with (bash, redis-cli, psql, jruby, ...), and the ranges those checks
//! draw: shared by the render tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use lexikey::KeyRange;

/// Runs `cmd` with `stdin` written to it from a thread (so that a large
/// input never deadlocks against a full stdout pipe) and returns its
/// output, asserting that it succeeded. A program that cannot be started
/// fails the test with `install`, which says how to get it: these tests
/// must never pass without their parser.
pub(crate) fn run_piped(mut cmd: Command, stdin: &[u8], install: &str) -> Output {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run {program}: {e}. This test must not be skipped: {install}")
        });
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    assert!(
        out.status.success(),
        "{program} failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A range that is not empty from two drawn bounds: sorted, equal ends
/// dropped (an open end instead), never ending at "".
pub(crate) fn nonempty_range(a: Option<Vec<u8>>, b: Option<Vec<u8>>) -> KeyRange {
    let (mut a, mut b) = (a, b);
    if let (Some(x), Some(y)) = (&a, &b) {
        if x > y {
            std::mem::swap(&mut a, &mut b);
        } else if x == y {
            b = None;
        }
    }
    if b.as_deref() == Some(&[][..]) {
        b = None;
    }
    KeyRange { start: a, end: b }
}
