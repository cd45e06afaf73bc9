//! The IDs that allocating child processes print, gathered and checked: the
//! multi-process tests of the allocator (stores' `open` and
//! `redb_processes`, the CLI's `ux`) share this.

use std::collections::BTreeSet;
use std::process::Child;

/// Waits for every child, asserts that each succeeded and printed exactly
/// `per_child` IDs (the lines starting with `prefix`, the ID after it), and
/// adds them to `ids`, asserting that none was handed out twice (also
/// against what `ids` already holds).
pub(crate) fn gather_ids(
    children: Vec<Child>,
    per_child: usize,
    prefix: &str,
    ids: &mut BTreeSet<u64>,
) {
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "child failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let before = ids.len();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            if let Some(id) = line.strip_prefix(prefix) {
                let id: u64 = id.parse().unwrap_or_else(|e| panic!("{line:?}: {e}"));
                assert!(ids.insert(id), "ID {id} given twice");
            }
        }
        assert_eq!(ids.len() - before, per_child, "IDs printed by a child");
    }
}
