//! What users of other command-line tools reach for first, through the
//! built binary: shell completion (driven in a real bash), "did you mean",
//! the man page, the version line, progress only on a terminal (a pseudo-
//! terminal from util-linux's `script`), and redb files shared by
//! concurrent processes that queue instead of failing.
//! See: issue #17.

#[path = "../../tests/support/children.rs"]
mod children;
mod common;

use std::collections::BTreeSet;
use std::process::{Command, Stdio};

use common::{bin, check_error, fails, ok, run};

/// Runs `script` in bash, with the completion script of `lexikey` loaded.
fn bash(script: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lexikey.bash");
    std::fs::write(&path, ok(&["completions", "bash"])).unwrap();
    let out = Command::new("bash")
        .arg("--norc")
        .arg("-c")
        .arg(format!("source {}\n{script}", path.display()))
        .output()
        .expect("bash");
    assert!(
        out.status.success(),
        "bash failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The words bash's completion function offers for the command line
/// `line` (completing its last word), one per line.
fn complete(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split(' ').collect();
    let script = format!(
        "COMP_WORDS=({words})\nCOMP_CWORD={cword}\nCOMP_LINE='{line}'\nCOMP_POINT=${{#COMP_LINE}}\n\
         spec=$(complete -p lexikey)\nfunc=${{spec#*-F }}\nfunc=${{func%% *}}\n\
         \"$func\" lexikey '{cur}' '{prev}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"",
        words = words
            .iter()
            .map(|w| format!("'{w}'"))
            .collect::<Vec<_>>()
            .join(" "),
        cword = words.len() - 1,
        cur = words[words.len() - 1],
        prev = words[words.len() - 2],
    );
    bash(&script).lines().map(str::to_string).collect()
}

#[test]
fn bash_completion_script_parses_and_completes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lexikey.bash");
    std::fs::write(&path, ok(&["completions", "bash"])).unwrap();
    let check = Command::new("bash").arg("-n").arg(&path).output().unwrap();
    assert!(
        check.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&check.stderr)
    );
    // Registered for the command.
    assert!(bash("complete -p lexikey").contains("lexikey"));
    // lexikey enc<TAB> -> encode
    assert_eq!(complete("lexikey enc"), ["encode"]);
    assert_eq!(complete("lexikey al"), ["alloc"]);
    // Options of the subcommand, and the values of --format.
    assert!(complete("lexikey encode --for").contains(&"--format".to_string()));
    let formats = complete("lexikey encode --format ");
    for f in ["hex", "base64", "decimal", "binary", "phoenix"] {
        assert!(formats.contains(&f.to_string()), "{formats:?}");
    }
    assert_eq!(complete("lexikey range --for hb"), ["hbase"]);
}

#[test]
fn every_shell_gets_a_script() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let s = ok(&["completions", shell]);
        assert!(
            s.contains("encode") && s.contains("salt-buckets"),
            "{shell}"
        );
    }
    assert!(fails(&["completions", "tcsh"]).contains("unknown shell \"tcsh\""));
    assert!(fails(&["completions"]).contains("missing SHELL"));
}

#[test]
fn man_pages() {
    let page = ok(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH lexikey 1"),
        "{page}"
    );
    for word in ["encode", "decode", "range", "alloc", "completions"] {
        assert!(page.contains(word), "{word}");
    }
    let page = ok(&["man", "encode"]);
    assert!(page.contains(".TH lexikey-encode 1"), "{page}");
    assert!(page.contains("salt\\-buckets"), "{page}");
}

#[test]
fn typos_get_suggestions_and_exit_2() {
    for (args, want) in [
        (
            &["encod"][..],
            "unknown command \"encod\" (did you mean 'encode'?)",
        ),
        (&["decod", "x"], "did you mean 'decode'?"),
        (&["rnage"], "did you mean 'range'?"),
        (
            &["encode", "--fromat", "hex", "i64:1"],
            "unknown option '--fromat' for 'encode': did you mean '--format'?",
        ),
        (
            &["range", "--tabel", "t", "str:a"],
            "did you mean '--table'?",
        ),
        (&["alloc", "--cuont", "2"], "did you mean '--count'?"),
        (
            &["decode", "-schema", "i64", "x"],
            "did you mean '--schema'?",
        ),
    ] {
        let msg = fails(args);
        assert!(msg.contains(want), "{args:?}: {msg}");
    }
    // Nothing close: no suggestion.
    assert!(!fails(&["frobnicate"]).contains("did you mean"));
}

#[test]
fn version_names_the_stores() {
    let v = ok(&["--version"]);
    assert!(v.starts_with("lexikey ") && v.ends_with('\n'));
    assert!(v.contains("stores: memory, redb"), "{v}");
    assert_eq!(v.contains("redis"), cfg!(feature = "redis"), "{v}");
    assert_eq!(v.contains("etcd"), cfg!(feature = "etcd"), "{v}");
}

#[test]
fn help_texts_name_every_option() {
    // The help texts are written by hand (they are part of the contract);
    // every option the parser accepts is in them.
    use clap::CommandFactory;
    let cli = lexikey_cli::args::Cli::command();
    for sub in cli.get_subcommands().filter(|s| s.get_name() != "help") {
        let help = ok(&["help", sub.get_name()]);
        assert_eq!(ok(&[sub.get_name(), "--help"]), help);
        for arg in sub.get_arguments() {
            if let Some(long) = arg.get_long() {
                assert!(
                    help.contains(&format!("--{long}")),
                    "'lexikey help {}' does not name --{long}",
                    sub.get_name()
                );
            }
        }
    }
}

/// Runs `lexikey ARGS` under a pseudo-terminal (`script`), standard output
/// to /dev/null, with `TERM=xterm`; returns what the terminal showed.
fn on_terminal(args: &str) -> String {
    on_terminal_as("xterm", args)
}

/// [`on_terminal`] with `TERM` set to `term` (the bar is drawn only on a
/// terminal that is not `dumb`; indicatif reads a missing `TERM` as `dumb`,
/// as CI machines and `env -i` shells have it).
fn on_terminal_as(term: &str, args: &str) -> String {
    let out = Command::new("script")
        .env("TERM", term)
        .args([
            "-qec",
            &format!("{} {args} > /dev/null", bin()),
            "/dev/null",
        ])
        .stdin(Stdio::null())
        .output()
        .expect("script (util-linux)");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn progress_only_on_a_terminal() {
    // On a terminal: the bar with its rate and time left.
    let shown = on_terminal("alloc --store memory: --table t --count 3000");
    assert!(shown.contains("/3000 IDs"), "{shown:?}");
    assert!(shown.contains("ETA"), "{shown:?}");
    // --quiet: nothing.
    let quiet = on_terminal("alloc --quiet --store memory: --table t --count 3000");
    assert!(!quiet.contains("IDs"), "{quiet:?}");
    // A dumb terminal: nothing either (no cursor movement to redraw with).
    let dumb = on_terminal_as("dumb", "alloc --store memory: --table t --count 3000");
    assert!(!dumb.contains("IDs"), "{dumb:?}");
    // Bulk mode on a terminal: rows and rows/s.
    let dir = tempfile::tempdir().unwrap();
    let rows = dir.path().join("rows.tsv");
    let text: String = (0..50_000).map(|i| format!("k\t{i}\n")).collect();
    std::fs::write(&rows, text).unwrap();
    let shown = on_terminal(&format!(
        "encode --schema str,i64 --stdin < {}",
        rows.display()
    ));
    assert!(shown.contains(" rows "), "{shown:?}");
    // A pipe: not one byte on stderr, the same output.
    let o = run(&[
        "alloc", "--store", "memory:", "--table", "t", "--count", "3000",
    ]);
    assert_eq!(o.code, 0);
    assert_eq!(o.stderr, "");
    assert_eq!(o.stdout.iter().filter(|&&b| b == b'\n').count(), 3000);
}

#[test]
fn concurrent_allocs_on_one_redb_file_queue() {
    // The plain URL: four processes at once, all succeed, 800 unique IDs,
    // every row in the table.
    let dir = tempfile::tempdir().unwrap();
    let url = format!("redb:{}", dir.path().join("db.redb").display());
    let children: Vec<_> = (0..4)
        .map(|_| {
            Command::new(bin())
                .args(["alloc", "--store", &url, "--table", "t", "--count", "200"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut ids = BTreeSet::new();
    children::gather_ids(children, 200, "", &mut ids);
    let want: BTreeSet<u64> = (u64::MAX - 799..=u64::MAX).collect();
    assert_eq!(ids, want);
    let rows = ok(&["scan", "--store", &url, "--table", "t"]);
    let scanned: BTreeSet<u64> = rows
        .lines()
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(scanned, want);
}

#[test]
fn a_redb_file_held_alone_makes_others_wait_then_time_out() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.redb");
    // fsync=false: the holder has the file alone for its whole run.
    let holder_url = format!("redb:{}?fsync=false", path.display());
    let mut holder = Command::new(bin())
        .args([
            "alloc",
            "--store",
            &holder_url,
            "--table",
            "t",
            "--count",
            "100000000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until it has the file (its first ID is out).
    {
        use std::io::BufRead;
        let mut first = String::new();
        let mut r = std::io::BufReader::new(holder.stdout.as_mut().unwrap());
        r.read_line(&mut first).unwrap();
        assert_eq!(first.trim(), u64::MAX.to_string());
    }
    let url = format!("redb:{}?lock_timeout_ms=300", path.display());
    let t = std::time::Instant::now();
    let o = run(&["alloc", "--store", &url, "--table", "t"]);
    let waited = t.elapsed();
    holder.kill().unwrap();
    let _ = holder.wait();
    check_error(&o, "alloc on a held file");
    assert!(o.stderr.contains("lock_timeout_ms"), "{}", o.stderr);
    assert!(waited.as_millis() >= 300, "{waited:?}");
    // Once the holder is gone, the plain URL opens at once.
    assert_eq!(
        ok(&[
            "alloc",
            "--store",
            &format!("redb:{}", path.display()),
            "--table",
            "u"
        ]),
        format!("{}\n", u64::MAX)
    );
}

/// `range --splits`: the pre-split command of a salted table, for cbt and
/// the hbase shell (binary splits as Bytes.toStringBinary text, which the
/// shell's create reads back; run under JRuby in tests/render.rs, the cbt
/// line against the emulator in cli/tests/stores.rs).
#[test]
fn range_splits_lines() {
    assert_eq!(
        common::ok(&[
            "range",
            "--splits",
            "--salt-buckets",
            "4",
            "--for",
            "cbt",
            "--table",
            "ids"
        ]),
        "cbt createtable ids splits='01#,02#,03#'\n"
    );
    assert_eq!(
        common::ok(&[
            "range",
            "--splits",
            "--salt-buckets",
            "3",
            "--for",
            "hbase",
            "--table",
            "ids",
            "--format",
            "binary",
        ]),
        concat!(r#"create 'ids', 'f', SPLITS => ["\\x01", "\\x02"]"#, "\n")
    );
    assert_eq!(
        common::ok(&["range", "--splits", "--salt-buckets", "1", "--for", "hbase"]),
        "create 't', 'f'\n"
    );
    assert_eq!(
        common::ok(&[
            "range",
            "--splits",
            "--salt-buckets",
            "2",
            "--for",
            "cbt",
            "--store",
            "bigtable://p/i?ns=comments",
        ]),
        "cbt -project p -instance i createtable comments splits='01#'\n"
    );
}
