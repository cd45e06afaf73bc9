//! Short recorded runs under faults, one per store (the CI version of the
//! 60-second table of docs/allocator.md; `scripts/history.sh` runs the long ones).
//! Each run starts its own servers, injects every fault of its list at
//! least once, and must end with `0 violations`. Runs are serialized (the
//! machine has two cores; parallel runs would starve each other's
//! clients): cargo-nextest runs each alone (.config/nextest.toml), and
//! under `cargo test` a lock keeps them one at a time. Needs the store servers,
//! librocksdb and the Bigtable emulator (scripts/install-stores.sh).

use std::process::Command;
use std::sync::Mutex;

/// Under `cargo test` (threads of one process); cargo-nextest runs each
/// test in a process of its own, alone (.config/nextest.toml).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[path = "../../tests/support/size.rs"]
mod size;

/// Runs `scripts/history.sh` and checks the report and the history: for
/// `seconds` at CI size, for 60 s at full size (`LEXIKEY_TEST_SIZE=full`,
/// the table in docs/allocator.md).
fn run(store: &str, seconds: u32, faults: &str, guard: bool, clients: u32, salt: Option<u8>) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let seconds = size::pick(seconds, 60);
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("h.jsonl");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut cmd = Command::new("bash");
    let _ = cmd
        .arg(format!("{root}/scripts/history.sh"))
        .args(["--store", store, "--faults", faults])
        .args([
            "--seconds",
            &seconds.to_string(),
            "--clients",
            &clients.to_string(),
        ])
        .arg("--out")
        .arg(&out)
        .env("LEXIKEY_HISTORY_BIN", env!("CARGO_BIN_EXE_lexikey-history"))
        .env("FAULT_EVERY", "4");
    if guard {
        let _ = cmd.arg("--guard");
    }
    if let Some(n) = salt {
        let _ = cmd.args(["--salt-buckets", &n.to_string()]);
    }
    let o = cmd.output().expect("bash runs");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let all = format!("{stdout}{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{all}");
    let last = stdout.lines().last().unwrap_or_default();
    let label = format!(
        "{store} {faults}{}{}",
        if guard { ",deletes" } else { "" },
        salt.map_or(String::new(), |n| format!(" salt={n}"))
    );
    let counts = last
        .strip_prefix(&format!("history: {label}: "))
        .and_then(|r| r.strip_suffix("), 0 violations"))
        .unwrap_or_else(|| panic!("last line {last:?}\n{all}"));
    // "N ops (ok X, fail Y, info Z"
    let nums: Vec<u64> = counts
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("number"))
        .collect();
    assert_eq!(nums.len(), 4, "{last}");
    assert_eq!(nums[0], nums[1] + nums[2] + nums[3], "{last}");
    assert!(nums[1] >= 50, "too few acknowledged allocations: {last}");
    let h = std::fs::read_to_string(&out).expect("history");
    for f in faults.split(',').filter(|f| *f != "none") {
        let line = format!(r#"{{"op": "fault", "fault": "{f}", "#);
        assert!(h.contains(&line), "no {f} fault happened:\n{all}");
    }
    assert_eq!(
        h.contains(r#""op": "delete""#),
        guard,
        "deletes only in guard runs"
    );
    assert!(
        h.lines()
            .filter(|l| l.starts_with(r#"{"op": "read""#))
            .count() as u64
            >= nums[1] / 2
    );
}

#[test]
fn redis() {
    run("redis", 16, "kill,pause,kill-client", false, 8, None);
}

#[test]
fn postgres_guard() {
    run("postgres", 17, "kill,pause,kill-client", true, 8, None);
}

#[test]
fn etcd() {
    run("etcd", 18, "kill,pause,kill-client", false, 4, None);
}

#[test]
fn etcd_cluster_partition_and_leader_and_follower_kills() {
    // The members in network namespaces (root, iproute2); the leader cut
    // off, then kill hits the leader, then a follower. Without the guard: a
    // partition can hold a put inside etcd and apply it after the
    // allocator's read-back found nothing; the allocator then burns the ID
    // (a tombstone the late put cannot pass), so no orphan copy is left
    // (issue 23: a clean-clone CI run caught one before the burn).
    run("etcd-cluster", 20, "partition,kill,kill", false, 4, None);
}

/// The Bigtable emulator (in memory: no kill), paused beyond the clients'
/// timeout and a client killed mid-call, guard off and on. See: issue 26.
#[test]
fn bigtable() {
    run("bigtable", 14, "pause,kill-client", false, 8, None);
}

#[test]
fn bigtable_guard() {
    run("bigtable", 14, "pause,kill-client", true, 8, None);
}

#[test]
fn redb_processes() {
    run("redb", 8, "kill-client", false, 4, None);
}

#[test]
fn rocksdb_threads_and_a_deleter_thread() {
    run("rocksdb", 8, "kill-client", true, 4, None);
}

/// Salted rows (issue 28): the buckets' first keys read in one call, the
/// newest-first read merged over the buckets; the checker's rules,
/// real-time order included, hold as without salt.
#[test]
fn redis_salted() {
    run("redis", 10, "kill,pause", false, 8, Some(16));
}

#[test]
fn etcd_cluster_salted_partition() {
    run("etcd-cluster", 20, "partition,kill", false, 4, Some(8));
}

#[test]
fn bigtable_salted() {
    run("bigtable", 10, "pause,kill-client", false, 8, Some(4));
}

/// DynamoDB on dynalite (`--path`: its data outlive a kill): killed and
/// restarted, paused beyond the clients' timeout, a client killed
/// mid-call; salted, each bucket in a partition of its own. See: issue 41.
#[test]
fn dynamodb() {
    run("dynamodb", 14, "kill,pause,kill-client", false, 4, None);
}

#[test]
fn dynamodb_salted() {
    run("dynamodb", 10, "pause,kill-client", false, 4, Some(4));
}
