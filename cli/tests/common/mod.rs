//! Runs the built `lexikey` binary and checks the error contract.
#![allow(dead_code, unreachable_pub)]

use std::io::Write;
use std::process::{Command, Stdio};

#[path = "../../../tests/support/size.rs"]
pub mod size;

/// What a run of the binary produced.
#[derive(Debug)]
pub struct Out {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Out {
    pub fn stdout_str(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8")
    }
}

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_lexikey")
}

/// Runs `lexikey ARGS` with `stdin` as standard input.
pub fn run_with<S: AsRef<std::ffi::OsStr>>(args: &[S], stdin: &[u8]) -> Out {
    run_env(args, stdin, &[])
}

/// Runs `lexikey ARGS` with `stdin` and the extra environment `env`.
pub fn run_env<S: AsRef<std::ffi::OsStr>>(args: &[S], stdin: &[u8], env: &[(&str, &str)]) -> Out {
    run_in(None, args, stdin, env)
}

/// Runs `lexikey ARGS` in directory `dir` (default: the test's own).
pub fn run_in<S: AsRef<std::ffi::OsStr>>(
    dir: Option<&std::path::Path>,
    args: &[S],
    stdin: &[u8],
    env: &[(&str, &str)],
) -> Out {
    let mut cmd = Command::new(bin());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("RUST_BACKTRACE", "1")
        .spawn()
        .expect("spawn lexikey");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The binary may exit before reading everything (an error): ignore EPIPE.
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait lexikey");
    writer.join().unwrap();
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Out {
    run_with(args, b"")
}

/// Runs and asserts success (exit 0, nothing on stderr); returns stdout.
pub fn ok<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    ok_with(args, b"")
}

pub fn ok_with<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S], stdin: &[u8]) -> String {
    let o = run_with(args, stdin);
    assert_eq!(o.code, 0, "lexikey {args:?} failed: {}", o.stderr);
    assert!(
        o.stderr.is_empty(),
        "lexikey {args:?} wrote to stderr: {}",
        o.stderr
    );
    o.stdout_str()
}

/// Runs a `scan --limit N` that stops before the table's end: asserts
/// exit 0 and that stderr is exactly the `next: TOKEN` line of the page
/// cursor; returns stdout.
pub fn ok_next<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    let o = run_with(args, b"");
    assert_eq!(o.code, 0, "lexikey {args:?} failed: {}", o.stderr);
    let token = o
        .stderr
        .strip_prefix("next: ")
        .and_then(|t| t.strip_suffix('\n'));
    assert!(
        token.is_some_and(|t| !t.is_empty()
            && t.bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')),
        "lexikey {args:?}: stderr is not one next: line: {}",
        o.stderr
    );
    o.stdout_str()
}

/// Asserts the error contract: exit code 2, exactly one line on stderr
/// starting with `lexikey: error: `, no panic, no backtrace.
pub fn check_error(o: &Out, what: &str) {
    assert_eq!(
        o.code, 2,
        "{what}: expected exit 2, got {} (stderr {:?})",
        o.code, o.stderr
    );
    assert!(
        o.stderr.starts_with("lexikey: error: "),
        "{what}: stderr {:?}",
        o.stderr
    );
    assert!(o.stderr.ends_with('\n'), "{what}: stderr {:?}", o.stderr);
    assert_eq!(
        o.stderr.matches('\n').count(),
        1,
        "{what}: not one line: {:?}",
        o.stderr
    );
    assert!(!o.stderr.contains("panicked"), "{what}: {:?}", o.stderr);
    assert!(
        !o.stderr.contains("internal error"),
        "{what}: {:?}",
        o.stderr
    );
    assert!(
        !o.stderr.contains("stack backtrace"),
        "{what}: {:?}",
        o.stderr
    );
}

/// Runs and asserts the error contract; returns the message (without the
/// `lexikey: error: ` prefix and the newline).
pub fn fails<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    fails_with(args, b"")
}

pub fn fails_with<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S], stdin: &[u8]) -> String {
    let o = run_with(args, stdin);
    check_error(&o, &format!("lexikey {args:?}"));
    o.stderr["lexikey: error: ".len()..].trim_end().to_string()
}
