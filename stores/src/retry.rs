//! Retrying optimistic transactions (RocksDB, SlateDB): the pause before
//! running a transaction that lost a conflict again.

#![allow(dead_code)] // unused when neither rocksdb nor slatedb is on

use std::time::Duration;

/// How many times a transaction that lost an optimistic conflict is run
/// again before the adapter gives up with a retryable error.
pub(crate) const CONFLICT_RETRIES: u32 = 200;

/// A short pause before re-running a transaction that lost a conflict,
/// growing with the attempt, so that racers spread out.
pub(crate) fn backoff(attempt: u32) {
    if attempt > 2 {
        std::thread::sleep(Duration::from_micros(20 * u64::from(attempt.min(50))));
    } else {
        std::thread::yield_now();
    }
}
