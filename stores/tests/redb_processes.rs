//! Several processes share one redb file (`processes=many`): allocations
//! from 4 processes at once give unique, contiguous IDs. The test runs its
//! own binary again as the child processes.

#![cfg(feature = "redb")]
#![allow(missing_docs)]

#[path = "../../tests/support/children.rs"]
mod children;

use std::collections::BTreeSet;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lexikey::store::alloc::{Allocator, AllocatorConfig};
use lexikey::{Component, Format};

const PROCESSES: usize = 4;
const PER_PROCESS: usize = 150;
const START: u64 = 10_000;
const CHILD_VAR: &str = "LEXIKEY_REDB_CHILD_URL";

fn allocator(url: &str) -> Allocator<Arc<dyn lexikey::store::Store>> {
    let store: Arc<dyn lexikey::store::Store> = Arc::from(lexikey_stores::open(url).unwrap());
    let config = AllocatorConfig::new(Format::Hex, &[Component::asc("events")])
        .with_start(START)
        .with_max_attempts(10_000)
        .with_backoff(Duration::from_micros(100), Duration::from_millis(10));
    Allocator::new(store, config).unwrap()
}

/// The child: allocates `PER_PROCESS` rows, prints one ID per line.
#[test]
#[ignore = "helper: redb_multi_process runs it in child processes"]
fn redb_child() {
    let url = std::env::var(CHILD_VAR).expect("run by redb_multi_process");
    let alloc = allocator(&url);
    for i in 0..PER_PROCESS {
        let id = alloc
            .insert(format!("pid {} row {i}", std::process::id()).as_bytes())
            .unwrap();
        println!("ID {id}");
    }
}

#[test]
fn redb_multi_process() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("redb:{}?processes=many", dir.path().join("db").display());
    // The parent has the file open the whole time, and allocates too.
    let parent = allocator(&url);
    let t = Instant::now();
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
    for i in 0..PER_PROCESS {
        assert!(ids.insert(parent.insert(format!("parent row {i}").as_bytes()).unwrap()));
    }
    children::gather_ids(children, PER_PROCESS, "ID ", &mut ids);
    let n = (PROCESSES + 1) * PER_PROCESS;
    let want: BTreeSet<u64> = (START + 1 - n as u64..=START).collect();
    assert_eq!(ids, want, "unique and contiguous from the start down");
    assert_eq!(parent.scan(usize::MAX).unwrap().len(), n);
    eprintln!(
        "{n} IDs from {} processes in {:?}",
        PROCESSES + 1,
        t.elapsed()
    );
}
