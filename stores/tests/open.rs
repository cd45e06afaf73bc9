//! `open_allocator` and friends: the store's tuning is applied (redb: 4
//! processes allocating at once on one file all succeed with the default
//! options), the key rule and limit are checked before anything is
//! written, messages name the URL without its password, and the
//! `LEXIKEY_STORE` fallback. The child processes of the redb test are this
//! test binary run again.

#![cfg(feature = "redb")]
#![allow(missing_docs)]

#[path = "../../tests/support/children.rs"]
mod children;

use std::collections::BTreeSet;
use std::process::{Command, Stdio};

use lexikey::store::alloc::AllocError;
use lexikey::{EncodeError, Format};
use lexikey_stores::{
    open_allocator, open_store, store_url_from_env, table_allocator, KeyLimit, OpenError,
    TableOptions, REDB_BACKOFF_BASE, REDB_BACKOFF_CAP, REDB_MAX_ATTEMPTS, STORE_URL_VAR,
};

const PROCESSES: usize = 4;
const PER_PROCESS: usize = 200;
const CHILD_VAR: &str = "LEXIKEY_OPEN_CHILD_URL";

fn redb_url(dir: &tempfile::TempDir, name: &str) -> String {
    format!("redb:{}", dir.path().join(name).display())
}

fn err(r: Result<impl Sized, OpenError>) -> OpenError {
    match r {
        Ok(_) => panic!("opened"),
        Err(e) => e,
    }
}

#[test]
fn redb_tuning_is_applied() {
    let dir = tempfile::tempdir().unwrap();
    let url = redb_url(&dir, "t.redb");
    let a = open_allocator(&url, "events", &TableOptions::default()).unwrap();
    let c = a.config();
    assert_eq!(c.max_attempts, REDB_MAX_ATTEMPTS);
    assert_eq!(
        (c.backoff_base, c.backoff_cap),
        (REDB_BACKOFF_BASE, REDB_BACKOFF_CAP)
    );
    assert_eq!(
        (c.format, c.guard, c.start, c.floor),
        (Format::Hex, false, u64::MAX, 0)
    );
    drop(a);
    // The options apply over the tuning.
    let o = TableOptions::new(Format::Decimal)
        .with_guard(true)
        .with_start(1000)
        .with_floor(10)
        .with_max_attempts(7)
        .with_assume_unique_values(true);
    let a = open_allocator(&url, "events", &o).unwrap();
    let c = a.config();
    assert_eq!(c.max_attempts, 7);
    assert_eq!(
        (c.backoff_base, c.backoff_cap),
        (REDB_BACKOFF_BASE, REDB_BACKOFF_CAP)
    );
    assert_eq!(
        (c.format, c.guard, c.start, c.floor),
        (Format::Decimal, true, 1000, 10)
    );
    assert!(c.assume_unique_values);
    assert_eq!(a.insert(b"x").unwrap(), 1000);
    // Rows are (str:TABLE, u64:ID) in the format.
    assert_eq!(
        a.key(1000),
        lexikey::tuple::encode(
            Format::Decimal,
            &[
                lexikey::Component::asc("events"),
                lexikey::Component::asc(lexikey::Value::U64(1000)),
            ],
        )
        .unwrap()
        .into_vec()
    );
}

#[test]
fn other_stores_keep_the_allocator_defaults() {
    let a = open_allocator("memory:", "t", &TableOptions::default()).unwrap();
    let defaults = lexikey::store::alloc::AllocatorConfig::new(Format::Hex, &[]);
    let c = a.config();
    assert_eq!(c.max_attempts, defaults.max_attempts);
    assert_eq!(
        (c.backoff_base, c.backoff_cap),
        (defaults.backoff_base, defaults.backoff_cap)
    );
    // A URL that does not parse gets no tuning (and does not open).
    let c = TableOptions::default().config("nosuch:x", "t");
    assert_eq!(c.max_attempts, defaults.max_attempts);
}

/// The child: allocates `PER_PROCESS` rows with the default options, prints
/// one ID per line.
#[test]
#[ignore = "helper: redb_processes_all_succeed runs it in child processes"]
fn redb_child() {
    let url = std::env::var(CHILD_VAR).expect("run by redb_processes_all_succeed");
    let alloc = open_allocator(&url, "events", &TableOptions::default()).unwrap();
    for i in 0..PER_PROCESS {
        let id = alloc
            .insert(format!("pid {} row {i}", std::process::id()).as_bytes())
            .unwrap();
        println!("ID {id}");
    }
}

/// 4 processes × 200 inserts at once on one redb file, with the default
/// options: every insert succeeds (no `Contention`), 800 unique IDs.
#[test]
fn redb_processes_all_succeed() {
    let dir = tempfile::tempdir().unwrap();
    let url = redb_url(&dir, "shared.redb");
    let children: Vec<_> = (0..PROCESSES)
        .map(|_| {
            Command::new(std::env::current_exe().unwrap())
                .args(["--ignored", "--exact", "redb_child", "--nocapture"])
                .env(CHILD_VAR, &url)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut ids = BTreeSet::new();
    children::gather_ids(children, PER_PROCESS, "ID ", &mut ids);
    let n = (PROCESSES * PER_PROCESS) as u64;
    let want: BTreeSet<u64> = (u64::MAX - n + 1..=u64::MAX).collect();
    assert_eq!(ids, want, "unique and contiguous from the top down");
    let a = open_allocator(&url, "events", &TableOptions::default()).unwrap();
    assert_eq!(a.scan(usize::MAX).unwrap().len() as u64, n);
}

#[test]
fn messages_name_the_url_without_its_password() {
    let e = err(open_store("nosuch:x"));
    assert!(
        e.to_string()
            .starts_with("cannot open store \"nosuch:x\": lexikey-stores: "),
        "{e}"
    );
    assert!(e.to_string().contains("unknown scheme"), "{e}");
    assert!(!e.retryable());
    assert!(std::error::Error::source(&e).is_none());
    // A URL with a password that does not parse (bad port), whatever the
    // build's features: the password is `***` in the message and the field.
    let e = err(open_allocator(
        "etcd://root:hunter22@127.0.0.1:notaport",
        "t",
        &TableOptions::default(),
    ));
    let msg = e.to_string();
    assert!(
        msg.starts_with("cannot open store \"etcd://root:***@127.0.0.1:notaport\": "),
        "{msg}"
    );
    assert!(!msg.contains("hunter22"), "{msg}");
    // A URL that does not parse says so by its variant (issue 39).
    match &e {
        OpenError::BadUrl { url, error } => {
            assert_eq!(url, "etcd://root:***@127.0.0.1:notaport");
            assert!(!error.retryable);
        }
        other => panic!("{other:?}"),
    }
}

#[cfg(feature = "redis")]
#[test]
fn a_server_that_is_not_there_is_retryable() {
    let e = err(open_store("redis://127.0.0.1:1?timeout_ms=500"));
    assert!(e.retryable(), "{e}");
    assert!(
        e.to_string()
            .starts_with("cannot open store \"redis://127.0.0.1:1?timeout_ms=500\": redis: "),
        "{e}"
    );
}

#[test]
fn a_bad_configuration_is_the_allocators_error() {
    let e = err(open_allocator(
        "memory:",
        "t",
        &TableOptions::default().with_start(5).with_floor(6),
    ));
    assert_eq!(
        e.to_string(),
        "invalid allocator configuration: start 5 is below floor 6"
    );
    assert!(
        matches!(e, OpenError::Alloc(AllocError::Config(_))),
        "{e:?}"
    );
    assert!(!e.retryable());
}

#[test]
fn key_limit() {
    let dir = tempfile::tempdir().unwrap();
    let url = redb_url(&dir, "k.redb");
    // "t#u" + 16 hex digits: 19 bytes.
    let e = err(open_allocator(
        &url,
        "t",
        &TableOptions::default().with_max_key_len(18),
    ));
    assert_eq!(
        e.to_string(),
        "row keys of this table: key of 19 bytes is longer than the limit of 18 bytes"
    );
    assert!(matches!(
        e,
        OpenError::KeyTooLong {
            error: EncodeError::KeyTooLong {
                len: 19,
                max: 18,
                largest: None,
            },
            rule_of: None
        }
    ));
    // Nothing was written: the table is empty.
    let a = open_allocator(&url, "t", &TableOptions::default().with_max_key_len(19)).unwrap();
    assert_eq!(a.newest().unwrap(), None);
    // redb has no key rule: no default limit.
    let long = "a".repeat(70_000);
    drop(a);
    let a = open_allocator(&url, &long, &TableOptions::default()).unwrap();
    assert_eq!(a.insert(b"x").unwrap(), u64::MAX);
    // A store already open: the same checks.
    let store = open_store("memory:").unwrap();
    let e = err(table_allocator(
        store.clone(),
        "memory:",
        "t",
        &TableOptions::default().with_key_limit(KeyLimit::Max(3)),
    ));
    assert!(e.to_string().contains("limit of 3 bytes"), "{e}");
    assert!(table_allocator(store, "memory:", "t", &TableOptions::default()).is_ok());
}

#[cfg(feature = "slatedb")]
#[test]
fn slatedb_key_rule_is_the_default_limit() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("slatedb:{}", dir.path().join("s").display());
    // NAME + "#u" + 16 hex digits: 65,535 bytes fit, 65,536 do not.
    let fits = "a".repeat(65_535 - 18);
    let long = "a".repeat(65_535 - 17);
    let store = open_store(&url).unwrap();
    let open = |table: &str, o: &TableOptions| table_allocator(store.clone(), &url, table, o);
    assert!(open(&fits, &TableOptions::default()).is_ok());
    let e = err(open(&long, &TableOptions::default()));
    assert_eq!(
        e.to_string(),
        "row keys of this table: key of 65536 bytes is longer than the limit of 65535 bytes (a slatedb: store's key rule)"
    );
    // An explicit limit overrides the rule; a reader checks nothing.
    let e = err(open(&long, &TableOptions::default().with_max_key_len(100)));
    assert!(e.to_string().ends_with("limit of 100 bytes"), "{e}");
    assert!(open(&long, &TableOptions::default().with_max_key_len(70_000)).is_ok());
    assert!(open(
        &long,
        &TableOptions::default().with_key_limit(KeyLimit::Unchecked)
    )
    .is_ok());
}

/// The only test of this binary that touches the environment.
#[test]
fn store_url_from_the_environment() {
    assert_eq!(STORE_URL_VAR, "LEXIKEY_STORE");
    let saved = std::env::var_os(STORE_URL_VAR);
    std::env::remove_var(STORE_URL_VAR);
    assert_eq!(store_url_from_env(), None);
    std::env::set_var(STORE_URL_VAR, "");
    assert_eq!(store_url_from_env(), None, "empty is unset");
    std::env::set_var(STORE_URL_VAR, "memory:?ns=env");
    assert_eq!(store_url_from_env().as_deref(), Some("memory:?ns=env"));
    let url = store_url_from_env().unwrap();
    assert!(open_allocator(&url, "t", &TableOptions::default()).is_ok());
    match saved {
        Some(v) => std::env::set_var(STORE_URL_VAR, v),
        None => std::env::remove_var(STORE_URL_VAR),
    }
}

/// `open_for_reading`: a missing file is an error and is not created; an
/// existing redb file opens read-only: its rows are read, a namespace it
/// does not hold is an error naming it (no table is created), every write
/// is refused with a clear error, and the file's bytes stay as they were.
#[test]
fn reading_opens_existing_redb_files_read_only() {
    use lexikey::KeyRange;
    let dir = tempfile::tempdir().unwrap();
    let url = redb_url(&dir, "r.redb");
    let e = match lexikey_stores::open_for_reading(&url) {
        Ok(_) => panic!("a missing file opened for reading"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("no store at"), "{e}");
    assert!(!dir.path().join("r.redb").exists());

    let w = lexikey_stores::open(&url).unwrap();
    assert!(w.put_if_absent(b"k1", b"v1").unwrap());
    drop(w);
    let before = std::fs::read(dir.path().join("r.redb")).unwrap();

    let r = lexikey_stores::open_for_reading(&url).expect("open for reading");
    assert_eq!(r.get(b"k1").unwrap().as_deref(), Some(&b"v1"[..]));
    let all = KeyRange::new(None, None).unwrap();
    assert_eq!(r.scan(&all, 10).unwrap().len(), 1);
    for e in [
        r.put_if_absent(b"k2", b"v2").unwrap_err(),
        r.compare_and_swap(b"k1", Some(b"v1"), b"v3").unwrap_err(),
        r.delete(b"k1").unwrap_err(),
    ] {
        assert!(e.to_string().contains("opened for reading only"), "{e}");
    }
    // A namespace the file does not hold: an error naming it and the
    // ones there, and no table is created (issue 38).
    let e = match lexikey_stores::open_for_reading(&format!("{url}?ns=other")) {
        Ok(_) => panic!("a missing namespace opened for reading"),
        Err(e) => e.to_string(),
    };
    assert!(
        e.ends_with(
            "r.redb: no namespace \"other\" (ns=) in this file: its namespaces: lexikey; \
             reading creates nothing"
        ),
        "{e}"
    );
    drop(r);
    assert_eq!(std::fs::read(dir.path().join("r.redb")).unwrap(), before);
}

/// `open_for_reading` of a `slatedb:` directory that exists but holds no
/// database (a wrong path such as a parent directory): an error, and
/// nothing is written into it (no lock file, no `db/`); a real store
/// reads (issue 38).
#[cfg(feature = "slatedb")]
#[test]
fn reading_creates_no_slatedb_database() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("slatedb:{}", dir.path().display());
    let e = match lexikey_stores::open_for_reading(&url) {
        Ok(_) => panic!("an empty directory opened as a SlateDB store"),
        Err(e) => e.to_string(),
    };
    assert!(e.starts_with("slatedb: no SlateDB store in "), "{e}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let real = format!("slatedb:{}", dir.path().join("s").display());
    let w = lexikey_stores::open(&real).unwrap();
    assert!(w.put_if_absent(b"k", b"v").unwrap());
    drop(w);
    let r = lexikey_stores::open_for_reading(&real).expect("open for reading");
    assert_eq!(r.get(b"k").unwrap().as_deref(), Some(&b"v"[..]));
}
