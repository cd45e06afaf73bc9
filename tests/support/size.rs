//! The size of a test run, shared by every test crate (`#[path]`-included).
//!
//! `LEXIKEY_TEST_SIZE=full` (`scripts/test.sh --full`) runs the acceptance
//! sizes; anything else — unset, or `ci`, what `scripts/test.sh` and CI run
//! — the CI sizes: smaller counts of the same tests, never fewer tests.
//! `PROPTEST_CASES`, when set, still overrides every proptest's count
//! (proptest reads it when a test starts).
#![allow(dead_code, unreachable_pub)]

/// True when `LEXIKEY_TEST_SIZE=full`.
pub fn full() -> bool {
    std::env::var("LEXIKEY_TEST_SIZE").is_ok_and(|s| s == "full")
}

/// `full` at the full size, `ci` otherwise.
pub fn pick<T>(ci: T, full: T) -> T {
    if self::full() {
        full
    } else {
        ci
    }
}

/// Proptest cases of a property whose full count is `full`: at CI size at
/// most 1,000 (a property with fewer keeps its count: those spawn a real
/// parser or client per case and are sized for that).
pub fn cases(full: u32) -> u32 {
    pick(full.min(1_000), full)
}
