//! # lexikey-history — Jepsen-style histories of the allocator
//!
//! The allocator ([`lexikey::store::alloc`]) promises an upside-down table more
//! than unique IDs: **a row inserted after another row was acknowledged gets
//! a smaller ID**, for every client, while servers crash, restart, pause and
//! fail over. This crate records what concurrent clients saw while faults
//! hit a real store, and checks the record.
//!
//! # How
//!
//! 1. **Record** ([`record`]): N client processes allocate in a loop; before
//!    each call a client appends an *invoke* line to its own log, after it a
//!    completed `alloc` line. Times are `CLOCK_MONOTONIC` nanoseconds
//!    ([`clock::now_ns`]), one clock for every process of the machine. A
//!    guard run adds a deleter process that deletes the newest rows and logs
//!    each delete, an invoke line before it and a `delete` line after; `scripts/history.sh` logs each fault it injects.
//! 2. **Merge** ([`record::merge`]): the logs become one history. An invoke
//!    line without its completion (the client was SIGKILLed mid-call) becomes
//!    an `info` op: its write may or may not have happened.
//! 3. **Read**: the table is read directly from the store, one `read` line
//!    per row and one `burned` line per burned ID (a tombstone the allocator
//!    wrote so that a write whose outcome it did not know can never land).
//! 4. **Check** ([`check()`]): the rules below; any violation is reported with
//!    the offending lines, and the `check` command exits 1.
//! 5. **Draw** ([`svg`]): a timeline, one lane per client, faults as bands,
//!    violating pairs linked.
//!
//! # The history format
//!
//! One JSON object per line. The `alloc` and `read` lines are a contract,
//! byte for byte (spaces after `:` and `,`):
//!
//! ```text
//! {"client": 3, "op": "alloc", "invoke_ns": 1000, "complete_ns": 2000, "outcome": "ok", "id": 18446744073709551615, "value": "63332D30"}
//! {"op": "read", "id": 18446744073709551615, "value": "63332D30"}
//! ```
//!
//! `outcome` is `ok` (acknowledged: the call returned the ID), `fail`
//! (certainly not applied: the allocator gave up before writing, or a
//! non-retryable error) or `info` (unknown: an ambiguous write, a client
//! killed mid-call); `id` is `null` unless the call named an ID. `value` is
//! the row's value in UPPERCASE hex; every call writes a value no other call
//! writes (client, process and sequence number), so a row tells which call
//! wrote it. Five more lines, added by this crate:
//!
//! ```text
//! {"op": "burned", "id": 18446744073709551614}
//! {"op": "delete", "invoke_ns": 5000, "complete_ns": 6000, "outcome": "ok", "id": 18446744073709551615, "value": "63332D30"}
//! {"op": "fault", "fault": "pause", "target": "redis", "start_ns": 7000, "end_ns": 9000}
//! {"client": 3, "op": "invoke", "invoke_ns": 1000, "value": "63332D30"}
//! {"op": "delete-invoke", "invoke_ns": 5000, "id": 18446744073709551615, "value": "63332D30"}
//! ```
//!
//! A `burned` line is a burned ID read at the end: no row, and no op may
//! have been acknowledged with it. A `delete` is the deleter removing a row it read (`value` is what the row
//! held); a `fault` is an injected fault and the time it lasted; an `invoke`
//! appears only in a client's own log and never in a merged history (the
//! checker still accepts one: an invoke without a completed `alloc` line of
//! the same value is an `info` op). A `delete-invoke` is the deleter's
//! invoke, written before it deletes: one without its `delete` line (same
//! `invoke_ns`, `id` and `value`; the deleter, a thread of a RocksDB client
//! process, was killed in between) is an `info` delete lasting to the end
//! of the history.
//!
//! # What is checked ([`check::check`])
//!
//! - **unique**: no ID acknowledged (`ok`) twice; no two rows for one ID,
//!   and no ID both a row and burned (or burned twice);
//! - **no lost write**: every `ok` ID has its row, holding the op's value
//!   (unless the deleter deleted that row) — a burned `ok` ID is a lost
//!   write; no `fail` op's value is in any row;
//! - **exactly once**: no value in two rows (an op written twice — `info`
//!   ops may or may not be present, never duplicated), and no row whose
//!   value no op wrote;
//! - **real-time order**: if `ok` op A completed before `ok` op B was
//!   invoked (`A.complete_ns < B.invoke_ns`), then `id(A) > id(B)`. Checked
//!   in O(n log n): ops sorted by completion and by invocation, one sweep
//!   that keeps the smallest ID completed so far;
//! - **no reuse**, whenever the history has deletes (the recorder deletes
//!   only in guard runs): once a row was deleted, its ID is never handed out
//!   again — no op other than the deleted row's writer got that ID, and no
//!   other value sits under it.
//!
//! What it does not check: that IDs are contiguous (holes and orphan rows
//! are allowed under faults, see [`lexikey::store::alloc`]), nor that a `fail`
//! op's ID is absent (it has none).

pub mod check;
pub mod clock;
pub mod history;
pub mod record;
pub mod svg;

pub use check::{check, Report, Violation};
pub use history::{AllocOp, DeleteOp, Fault, History, Outcome, ReadRow};
