//! The `lexikey` binary: runs [`lexikey_cli::run`], prints any error as one
//! line on stderr (`lexikey: error: …`) and exits with code 2. A panic —
//! a bug — is caught by a hook that does the same, so no backtrace ever
//! reaches the user. A closed output pipe (`lexikey … | head`) ends the run
//! quietly with code 0, like other Unix filters.

use std::ffi::OsString;
use std::io::{self, BufReader, Write};
use std::process::ExitCode;

/// Standard input is read in chunks of this size.
const READ_BUF: usize = 1 << 20;

/// Makes a message one line: newlines and carriage returns escaped.
fn one_line(s: &str) -> String {
    s.replace('\r', "\\r").replace('\n', "\\n")
}

fn report(msg: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "lexikey: error: {}", one_line(msg));
    let _ = err.flush();
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        report(&format!(
            "internal error (a bug in lexikey, please report it): {msg}{at}"
        ));
        std::process::exit(2);
    }));
    // Test hook: proves that a panic still ends in one line and exit 2.
    if std::env::var_os("LEXIKEY_TEST_PANIC").is_some() {
        panic!("LEXIKEY_TEST_PANIC is set");
    }
    let argv: Vec<OsString> = std::env::args_os().skip(1).collect();
    let stdin = io::stdin();
    let mut input = BufReader::with_capacity(READ_BUF, stdin.lock());
    let stdout = io::stdout();
    let mut output = stdout.lock();
    let mut io = lexikey_cli::Io {
        stdin: &mut input,
        stdout: &mut output,
    };
    match lexikey_cli::run(&argv, &mut io) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            report(&format!("{e:#}"));
            ExitCode::from(2)
        }
    }
}
