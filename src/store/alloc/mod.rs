//! Decreasing row IDs for upside-down tables, over any [`Store`].
//!
//! In an *upside-down* table the newest row has the smallest key: "latest
//! first" is a forward scan that stops after one row, and the oldest row sits
//! at a constant key. Row `id` of the table with prefix `P` lives at
//! `tuple::encode(format, P ++ [Component::asc(id)])` — an ascending `u64`,
//! so handing out *decreasing* IDs puts each new row first. In hex:
//!
//! ```
//! use lexikey::store::alloc::{Allocator, AllocatorConfig};
//! use lexikey::store::MemStore;
//! use lexikey::{Component, Format};
//!
//! let config = AllocatorConfig::new(Format::Hex, &[Component::asc("comments")]);
//! let comments = Allocator::new(MemStore::new(), config)?;
//! let first = comments.insert(b"first!")?;
//! let second = comments.insert(b"me too")?;
//! assert_eq!((first, second), (u64::MAX, u64::MAX - 1));
//! assert_eq!(comments.key(first), b"comments#uFFFFFFFFFFFFFFFF");
//! assert_eq!(comments.key(second), b"comments#uFFFFFFFFFFFFFFFE");
//! assert_eq!(comments.newest()?, Some((second, b"me too".to_vec())));
//! assert_eq!(comments.oldest()?, Some((first, b"first!".to_vec())));
//! # Ok::<(), lexikey::store::alloc::AllocError>(())
//! ```
//!
//! The rows of a table are exactly the keys of
//! [`tuple::prefix_range`]`(format, P)` that decode with the schema
//! `P's fields ++ [u64]`. Any other key in that range is foreign data and
//! makes every operation that meets it fail with [`AllocError::Corrupt`]
//! (never a guessed ID). Tables must therefore not nest: the range of
//! `["comments"]` holds the keys of `["comments", "archive"]`.
//!
//! # The algorithm (guard off, the default)
//!
//! 1. Read the first (smallest) key under the prefix ([`Store::first_key`]).
//! 2. Decode its ID `first` (a key that does not decode is
//!    [`AllocError::Corrupt`]) and propose `first − 1`, or
//!    [`AllocatorConfig::start`] when the table is empty. If `first` is
//!    already the floor
//!    ([`AllocatorConfig::floor`]), fail with [`AllocError::Exhausted`]:
//!    never a wrap.
//! 3. [`Store::put_if_absent`] the row at the proposed key.
//! 4. If it wrote, the ID is ours. If another client won (`false`) or the
//!    store failed with a retryable error, back off (exponential, full
//!    jitter, between [`AllocatorConfig::backoff_base`] and
//!    [`AllocatorConfig::backoff_cap`]) and go to 1 — at most
//!    [`AllocatorConfig::max_attempts`] times in all, then
//!    [`AllocError::Contention`]. A non-retryable error is returned at once
//!    as [`AllocError::Store`]. After a put whose outcome is unknown (a
//!    timeout) the next attempt first settles it: it reads the row back and,
//!    if it is absent, *burns* the ID (below) before writing anywhere else.
//!
//! `put_if_absent` is the only arbiter of who owns an ID, so two clients can
//! never both be told the same ID by step 4, whatever the interleaving.
//!
//! # Burned IDs: exactly once under delayed writes
//!
//! A put that timed out may still be inside the store (held by a network
//! partition, a paused server, a queue) and land later. Reading the row
//! back and finding nothing proves only that it has not landed *yet*: a
//! client that then wrote its value under the next ID would leave two rows
//! with one value once the late put lands (an *orphan copy*). So after an
//! ambiguous put of row `id` whose read-back finds the row absent, the
//! allocator writes a **tombstone** there, `put_if_absent(key(id),
//! `[`BURNED`]`)`, and only then goes on:
//!
//! - the tombstone wins → the late put, itself a put-if-absent, will find
//!   the key taken and fail: the value can only ever be in the row this call
//!   goes on to write. The ID is *burned*: never handed out (allocation goes
//!   below it like below any key), never a row ([`Allocator::newest`],
//!   [`Allocator::oldest`], [`Allocator::scan`] pass over it,
//!   [`Allocator::delete`] leaves it), counted in [`AllocStats::burned`];
//! - the tombstone loses → the key was written meanwhile, perhaps by the
//!   late put: read it again (our value → ours, as below; another value or
//!   another tombstone → taken, go on);
//! - its outcome is unknown too → the next attempt reads the key again.
//!
//! The normal path is unchanged (one read, one put); burning costs one more
//! put, only after an ambiguous write. A tombstone is a row value that no
//! caller's value can equal: stored values that start with [`FRAME`] are
//! framed ([`encode_value`], [`decode_value`]) — every other value, text
//! included, is stored as it is. Tombstones are never removed: they are a
//! few bytes each, one per ambiguous write that did not land.
//!
//! # The reuse guard (`guard: true`)
//!
//! Without the guard an ID is free whenever its row is absent: **deleting the
//! newest row lets its ID be handed out again** (step 1 then sees the row
//! before it). That is the one thing only the guard does: exactly-once
//! under delayed writes holds without it (see *Burned IDs*). With the
//! guard, a *low-water mark* (LWM) key outside the table's range holds the
//! smallest ID ever reserved, and IDs only go down:
//!
//! 1. Read the LWM ([`Store::get`]). If it is absent (a new table, or a table
//!    created before the guard was turned on), read the first row instead.
//! 2. Propose `lwm − 1` (or `first − 1`, or `start` for an empty table);
//!    `Exhausted` at the floor as above.
//! 3. Reserve the ID: [`Store::compare_and_swap`] the LWM from the value read
//!    in 1 to `"<id> <token>"`, where the token is unique to this attempt. On
//!    `false` another client reserved first: back off, go to 1. After a
//!    retryable error, read the LWM back at once to see whether the CAS
//!    applied.
//! 4. [`Store::put_if_absent`] the row. Nobody else reserves this ID, so this
//!    cannot lose to another guarded client.
//!
//! Cost: one more round trip per ID (three — get, CAS, put — instead of two),
//! and every client contends on the one LWM key instead of on whichever row
//! key is next; stores with per-key locks or optimistic transactions
//! serialize on it. The default guard key is `enc(P) + "$lwm"` in the text
//! formats and `enc(P)` without its last byte in binary (see
//! [`default_guard_key`] for why), or [`AllocatorConfig::guard_key`].
//!
//! # Salted tables (`salt: Some(salter)`)
//!
//! Consecutive IDs are consecutive keys, so every insert of an unsalted
//! table writes to the same place — the first key of the table, one region
//! of an HBase or Bigtable table, one server: a *hot spot*. A salted table
//! spreads its rows over N buckets ([`crate::store::salt`]) and keeps every other
//! promise:
//!
//! - **Row keys.** Row `id` lives at `salt(b) + key(id)`, where `key(id)`
//!   is the unsalted row key above and `b` is [`Salter::bucket`]`(key(id))`:
//!   a function of the ID alone. Two clients racing for the same next ID
//!   race on the same key, and `put_if_absent` still decides.
//! - **Step 1** reads the first key of every bucket ([`Store::first_keys`]:
//!   one round trip on the adapters that can batch, N one-row reads in turn
//!   on the others) and takes the smallest ID among them: the table's
//!   smallest ID, as the one first key of an unsalted table is. Steps 2–4,
//!   the guard, burned IDs, floors, exhaustion and every fault rule are the
//!   unsalted ones, unchanged: a salted allocator hands out exactly the IDs
//!   an unsalted one would, in the same order (a property test runs both
//!   through the same interleavings of concurrent clients). Concurrent
//!   reads of the N buckets need not be one snapshot: a stale bucket can
//!   only make the proposal an ID that exists, which `put_if_absent`
//!   refuses (a retry), never one below a gap.
//! - **Reads.** [`Allocator::newest`] and [`Allocator::scan`] scan the
//!   buckets and merge them ([`merge_sorted`](crate::store::salt::merge_sorted)): newest first, as unsalted.
//!   [`Allocator::oldest`] stays a `get` of the constant start key
//!   ([`Allocator::start_key`], salted).
//! - **The salt record.** A salted table has one more key, `enc(P) +
//!   "#!salt"` (text formats; `enc(P) + "!salt"` in binary,
//!   [`SALT_RECORD_SUFFIX`]) holding `buckets=N mode=fast|phoenix`
//!   ([`salt_record`]), written by the first insert. Opening a salted
//!   allocator ([`Allocator::new`]) reads it and refuses a table with
//!   other buckets or another hash ([`AllocError::SaltMismatch`]), or a
//!   table that already holds unsalted keys ([`AllocError::NotSalted`]).
//!   The record lies in the *unsalted* range of the table, where an
//!   unsalted allocator looks first: one opened on a salted table meets it
//!   at its first read and fails with [`AllocError::SaltMismatch`] too (at
//!   no cost to unsalted tables, which have no record). One race is left:
//!   a salted and an unsalted client creating the same new table at the
//!   same moment can both succeed.
//!
//! The cost: step 1 reads N keys instead of one (in one round trip where
//! the store allows), and a scan of `n` rows reads about `n / N + n / 4N`
//! rows of each bucket. The guard's low-water mark is still one key that
//! every guarded insert writes: salting spreads the rows, not the LWM.
//!
//! # Batches ([`Allocator::insert_many`])
//!
//! On a store that writes several keys in one transaction
//! ([`Store::atomic_batches`]: redb, RocksDB, SlateDB, PostgreSQL and
//! [`MemStore`](crate::store::MemStore)), a batch of `n` values is one
//! attempt of the same loop: step 1 as above (the first key, or the LWM);
//! step 2 proposes `first − 1` down to `first − n` (fewer at the floor);
//! step 3 is one [`Store::put_all_if_absent`] of all `n` rows — written
//! only if every row key is absent and, guard on, in the same transaction
//! as the CAS of the LWM to the batch's smallest ID. All or nothing: a
//! lost race writes nothing, and the batch is read and proposed again
//! whole. So a batch gets `n` consecutive IDs, each below every ID handed
//! out before the batch began, never one another client holds, and the
//! table stays contiguous. A batch whose commit has an unknown outcome is
//! settled by its first row, as a single put is (*Burned IDs*): the batch
//! needs every key absent, so a tombstone on its first key stops it from
//! landing late; guard on, the LWM is read first (our token there: the
//! batch is ours). Guard on, a row key taken below the LWM (a client
//! without the guard) fails the batch while the LWM stays: one single
//! insert then skips it.
//!
//! What a batch of `n` costs, by store:
//!
//! | store | a batch of `n` IDs |
//! |---|---|
//! | redb | one write transaction: one commit, one `fsync` (default) |
//! | RocksDB | one optimistic transaction: one commit |
//! | SlateDB | one transaction: one commit, one durable flush |
//! | PostgreSQL | one statement (`INSERT … SELECT … FROM unnest(…)`, the LWM CAS in a CTE): one round trip, one commit |
//! | memory | one lock |
//! | Redis, etcd, Bigtable | `n` single inserts: 2 round trips per ID (3 with the guard) |
//!
//! [`AllocatorConfig::batch_size`] (default 1,024) bounds `n`; longer
//! calls are several batches.
//!
//! # Guarantees, precisely
//!
//! Both modes, under any number of concurrent clients on a store that
//! implements the [`Store`] contract (atomic `put_if_absent` and
//! `compare_and_swap`):
//!
//! - **No duplicate ID:** an `Ok(id)` means this call's `put_if_absent`
//!   wrote row `id` (or, after an ambiguous write, see below, that the row
//!   holds this call's value and no other client can have written it). No
//!   two successful calls return the same ID — with
//!   [`AllocatorConfig::assume_unique_values`], provided the values are
//!   indeed unique.
//! - **No mislabelled ID:** every ID comes from decoding a row key that
//!   re-encodes to exactly itself, or from the LWM; a key that does not
//!   decode stops the allocator ([`AllocError::Corrupt`],
//!   [`AllocError::CorruptGuard`]). Nothing ever wraps below the floor.
//! - **No lost row:** every row written by an `Ok` call stays where it was
//!   written; the allocator never overwrites or deletes.
//! - **Exactly once:** a call's value is in at most one row — also when a
//!   write that timed out lands late (guard off: the ID was burned first;
//!   guard on: the ID is the call's alone). An `Ok(id)` call's value is in
//!   row `id` and nowhere else.
//! - Without faults, IDs are **contiguous** from `start` down in both modes.
//!   Under the faults below, guard off the keys stay contiguous (a fault can
//!   leave an orphan row of a killed client or a burned ID, never a gap);
//!   guard on, an ambiguous CAS or a client killed after its CAS can leave
//!   holes.
//!
//! Under faults:
//!
//! - **A client killed mid-way** (SIGKILL, power loss: no cleanup runs).
//!   Guard off, killed between reading the first key and its
//!   `put_if_absent`: it wrote nothing and left no trace, so there is no
//!   hole — the next client reads the same first key and takes the same ID,
//!   and the row it writes holds *its* value (an ID is only ever derived from
//!   rows that exist, never from a dead client's intent). Guard on, killed
//!   between the CAS and the put: the ID is skipped forever (a *hole*): the
//!   LWM is already below it, so it is never handed out, and no row ever
//!   appears under it. In both modes, killed after its put, the row exists
//!   but its client never learnt the ID (an *orphan* row holding that
//!   client's value; later IDs go below it and it is never relabelled).
//!   Holes and orphans break contiguity or exactly-once, never uniqueness;
//!   [`Allocator::oldest`] falls back to a search when the start row is a
//!   hole.
//! - **A store that returns errors.** A retryable error on a read is simply
//!   retried. A retryable error on a write leaves its outcome unknown (a
//!   timeout may hide a committed write: the *ambiguous commit*), so the
//!   allocator reads the key back:
//!   - guard on, CAS of the LWM: read back at once; the LWM holds our unique
//!     token exactly when our CAS applied, and then we own the ID. Otherwise
//!     the attempt starts over — if our CAS did apply but another client
//!     moved the LWM on before we looked, that ID is a hole;
//!   - guard on, put of the row: the ID is ours alone, so the next attempt
//!     first reads the row: our value → our write landed, done; absent →
//!     put again (`true` → written now; `false` → a delayed write of ours
//!     landed meanwhile, read again); another value → only if clients
//!     without the guard share the table: the ID is skipped. Exact: no
//!     orphan, and resolved by reads, so even a store that applies every
//!     write and loses every answer still yields IDs;
//!   - guard off, put of the row: the next attempt first reads the row.
//!     Absent → burn the ID (see *Burned IDs*), then start over; another
//!     value or a tombstone → lost, start over; *our* value →
//!     it may be ours, or another client may have inserted identical bytes
//!     there. The allocator cannot tell, so it returns
//!     [`AllocError::Ambiguous`] with the ID (read the row, decide) unless
//!     [`AllocatorConfig::assume_unique_values`] says values are unique (e.g.
//!     they embed a request ID), in which case it claims the row. A write
//!     delayed inside the store that lands after the read-back found
//!     nothing finds the tombstone and fails: no orphan copy. One limit
//!     remains: if the key held *another* client's row when we read it, and
//!     that row is deleted while our put is still held in the store, the
//!     late put can land in the freed key (deleting rows is what the guard
//!     is for).
//!
//!   Adapters must report a write whose outcome is unknown as retryable; a
//!   non-retryable error is taken to mean "not applied" and is returned at
//!   once as [`AllocError::Store`]. If the attempts run out while a row
//!   write's outcome is still unknown, the result is
//!   [`AllocError::Ambiguous`], never `Contention` (an unresolved CAS gives
//!   `Contention`: no row was written, at worst the ID is a hole).
//! - **Error storms** (the store fails every call for a while: an outage, a
//!   leader election, a partition). Each call keeps retrying with backoff
//!   and gives up after [`AllocatorConfig::max_attempts`] attempts —
//!   roughly `max_attempts × backoff_cap` plus the store's own timeouts —
//!   with [`AllocError::Contention`] when nothing of this call can have
//!   been written, or [`AllocError::Ambiguous`] when its row write's outcome
//!   is still unknown (read that row). A storm never causes a duplicate, a
//!   mislabelled row or a lost `Ok` row; after it, allocation continues from
//!   the rows (guard off: from the newest row, so no hole; guard on: below
//!   the LWM, with at most the holes described above). A storm of *lost
//!   answers* (every write applied, every reply an error, reads fine)
//!   still yields IDs with the guard or with
//!   [`AllocatorConfig::assume_unique_values`], and
//!   [`AllocError::Ambiguous`] (row written, holding the caller's value)
//!   for every call otherwise.
//!
//! Tested on every adapter of `lexikey-stores` (redb, RocksDB, Redis,
//! PostgreSQL, etcd; `stores/tests/conformance.rs`): concurrent clients
//! through a test-only wrapper that fails a seeded tenth of the calls before
//! they reach the store and reports a tenth of the applied writes as failed,
//! then the store is read directly. Servers killed mid-run (etcd,
//! PostgreSQL, Redis: `stores/tests/faults.rs`) and clients SIGKILLed
//! mid-allocation (Redis, PostgreSQL: `cli/tests/stores.rs`) are tested too.
//! - **Clients with and without the guard on one table.** Still no duplicate
//!   (`put_if_absent` decides), but unguarded clients reuse deleted IDs and
//!   take IDs below the LWM, which guarded clients then skip
//!   ([`AllocStats::skipped`]). Turning the guard on for an existing table is
//!   safe: with no LWM yet, the first guarded allocation starts below the
//!   first row.

//! # Last key of an ascending table
//!
//! [`last_key`] finds the largest key of a range with only "first key in a
//! range" probes, for stores without reverse scans: byte by byte, a binary
//! search over the next byte, O(key length × log 256) probes.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use crate::error::{DecodeError, EncodeError};
use crate::format::text::SEP;
use crate::format::Format;
use crate::range::{prefix_end, KeyRange};
use crate::store::salt::Salter;
use crate::store::{Cas, Store, StoreError};
use crate::tuple;
use crate::value::{Component, Field, Type, Value};

mod salted;

use salted::salt_mismatch_message;
pub use salted::{salt_record, SALT_RECORD_SUFFIX};

/// Why an allocation (or another allocator operation) failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AllocError {
    /// The newest row (or the low-water mark) already has the floor ID:
    /// nothing is left below it. Never a wrap.
    #[error("row IDs exhausted: the floor ID {floor} is already taken")]
    Exhausted {
        /// The configured floor ([`AllocatorConfig::floor`]).
        floor: u64,
    },
    /// Every attempt failed and the last one lost to another client;
    /// nothing was written. (When the last attempt failed because the store
    /// did, the error is [`AllocError::Store`], holding that store error.)
    #[error("gave up after {attempts} attempts: other clients kept winning")]
    Contention {
        /// The number of attempts made ([`AllocatorConfig::max_attempts`]).
        attempts: u32,
    },
    /// A non-retryable store error (nothing was written by the failing call).
    #[error("store error: {0}")]
    Store(#[from] StoreError),
    /// A key in the table's range that is not a row key: foreign data, a
    /// nested table, or a corrupt key.
    #[error("key {} in the table's range is not a row key: {error}", crate::escape_key(.key))]
    Corrupt {
        /// The key, as read from the store.
        key: Vec<u8>,
        /// Why it does not decode; the offset indexes `key`.
        error: DecodeError,
    },
    /// A row key whose value starts with [`FRAME`] but is neither a
    /// tombstone nor an escaped value (see [`encode_value`]): foreign data,
    /// or written by a later version of lexikey.
    #[error("row key {} holds {}, which starts like a lexikey-framed value but is none", crate::escape_key(.key), crate::escape_key(.value))]
    CorruptValue {
        /// The row key.
        key: Vec<u8>,
        /// What it holds.
        value: Vec<u8>,
    },
    /// A key or prefix that the format cannot encode.
    #[error("cannot encode the table prefix: {0}")]
    Encode(#[from] EncodeError),
    /// The outcome of writing row `id` is unknown: it holds this call's value
    /// or nothing (guard on), or a value equal to this call's that this call
    /// or another client wrote (guard off). Read the row to decide.
    #[error("the write of row {id} may or may not have happened (last store error: {error})")]
    Ambiguous {
        /// The ID whose row may hold the value.
        id: u64,
        /// The store error that made the outcome unknown.
        error: StoreError,
    },
    /// The low-water-mark key holds something other than `ID` or `ID TOKEN`.
    #[error("guard key {} holds {}, not a low-water mark (`ID` or `ID TOKEN`)", crate::escape_key(.key), crate::escape_key(.value))]
    CorruptGuard {
        /// The guard key.
        key: Vec<u8>,
        /// What it holds.
        value: Vec<u8>,
    },
    /// A key outside the table's range was given as a row key (or returned
    /// by a store asked for a key inside the range).
    #[error("key {} is not in this table's range", crate::escape_key(.key))]
    NotInTable {
        /// The key.
        key: Vec<u8>,
    },
    /// The configuration cannot work (start below floor, no guard key, …).
    #[error("invalid allocator configuration: {0}")]
    Config(String),
    /// The table's salt is not this allocator's: its salt record (see
    /// *Salted tables* in the module docs) names other buckets or another
    /// hash, or the table is salted and this allocator is not. Nothing was
    /// written.
    #[error("{}", salt_mismatch_message(.key, .table, .client))]
    SaltMismatch {
        /// The salt record's key.
        key: Vec<u8>,
        /// The table's salt (bucket count, hash), as its record says.
        table: (u8, crate::store::salt::SaltMode),
        /// This allocator's salt (`None`: unsalted).
        client: Option<(u8, crate::store::salt::SaltMode)>,
    },
    /// A salted allocator was opened on a table that already holds keys
    /// written without salt: the table is unsalted. Nothing was written.
    #[error("the table already holds keys written without salt (e.g. {}): it is an unsalted table, open it without salt buckets", crate::escape_key(.key))]
    NotSalted {
        /// One of the unsalted keys.
        key: Vec<u8>,
    },
    /// The salt record holds something other than `buckets=N mode=M`.
    #[error("salt record {} holds {}, not `buckets=N mode=fast|phoenix`", crate::escape_key(.key), crate::escape_key(.value))]
    CorruptSaltRecord {
        /// The salt record's key.
        key: Vec<u8>,
        /// What it holds.
        value: Vec<u8>,
    },
}

impl AllocError {
    /// The error's kind, as every binding reports it (Python's exception
    /// classes, Java's and Node's `kind`): `contention`, `exhausted`,
    /// `store`, `ambiguous`, `corrupt` (a row key or guard that does not
    /// parse), `config` (the configuration or the table prefix) or `other`.
    ///
    /// ```
    /// use lexikey::store::alloc::AllocError;
    /// assert_eq!(AllocError::Contention { attempts: 8 }.kind(), "contention");
    /// assert_eq!(AllocError::Config("no guard key".into()).kind(), "config");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            AllocError::Contention { .. } => "contention",
            AllocError::Exhausted { .. } => "exhausted",
            AllocError::Store(_) => "store",
            AllocError::Ambiguous { .. } => "ambiguous",
            AllocError::Corrupt { .. } | AllocError::CorruptGuard { .. } => "corrupt",
            AllocError::Config(_) | AllocError::Encode(_) => "config",
            _ => "other",
        }
    }
}

/// How an [`Allocator`] is set up. Build it with [`AllocatorConfig::new`] and
/// the `with_*` methods (or set the public fields).
///
/// ```
/// use lexikey::store::alloc::AllocatorConfig;
/// use lexikey::{Component, Format};
/// let c = AllocatorConfig::new(Format::Decimal, &[Component::asc("q")]).with_start(999).with_guard(true);
/// assert_eq!((c.start, c.floor, c.guard), (999, 0, true));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AllocatorConfig {
    /// The key format of the table.
    pub format: Format,
    /// The table prefix: the components before the ID.
    pub prefix: Vec<Component<'static>>,
    /// The first (largest) ID, given to the first row. Default `u64::MAX`.
    pub start: u64,
    /// The smallest ID that may be handed out. Default 0.
    pub floor: u64,
    /// Attempts per call before [`AllocError::Contention`]. Default 64.
    pub max_attempts: u32,
    /// The first backoff delay; doubles on each retry. Default 500 µs.
    pub backoff_base: Duration,
    /// The largest backoff delay. Default 50 ms.
    pub backoff_cap: Duration,
    /// Keep a low-water mark so that IDs are never reused (see the module
    /// docs). Default `false`.
    pub guard: bool,
    /// The low-water-mark key; `None` = [`default_guard_key`]. Must lie
    /// outside the table's range.
    pub guard_key: Option<Vec<u8>>,
    /// Guard off: after an ambiguous write, claim a row that holds a value
    /// equal to this call's (correct only if concurrent inserts never carry
    /// identical values) instead of returning [`AllocError::Ambiguous`].
    /// Default `false`.
    pub assume_unique_values: bool,
    /// The most IDs [`Allocator::insert_many`] commits in one transaction
    /// on a store with [`Store::atomic_batches`]; more values go in several
    /// batches. A batch that loses a race is proposed again whole, so very
    /// large batches do worse under contention. Default 1,024.
    pub batch_size: usize,
    /// Salted rows (see *Salted tables* in the module docs): row `id` lives
    /// at `salt(id) + key(id)`, spread over the salter's buckets, instead
    /// of at `key(id)`. The salt's layout follows [`AllocatorConfig::format`]
    /// (two hex digits and `#` for the text formats, one byte for binary),
    /// whatever [`Salter::for_format`] the salter was given. Every client
    /// of a table must give the same bucket count and hash; a table
    /// remembers them (its salt record) and refuses another. Default `None`.
    pub salt: Option<Salter>,
    /// Without [`AllocatorConfig::salt`]: read the table's salt record at
    /// opening and, when there is one, open the table with the salt it
    /// names (its bucket count and hash) instead of failing with
    /// [`AllocError::SaltMismatch`]. For readers, which need not be told
    /// how a table was salted (`lexikey scan` without `--salt-buckets`).
    /// With a salt given, unused: that salt must be the record's. Default
    /// `false`.
    pub salt_from_record: bool,
    /// **A deliberate bug, for testing the history checker** (cargo feature
    /// `broken-allocator`, off by default): guard off, forget a write whose
    /// outcome is unknown instead of reading it back, and start over. When
    /// that write did land, its value ends up in two rows (the orphan and
    /// the row the retry writes) and the call is acknowledged with the
    /// second ID: the value was written twice. Default `false`.
    #[cfg(feature = "broken-allocator")]
    pub broken_skip_read_back: bool,
}

impl AllocatorConfig {
    /// The defaults for a table with this format and prefix.
    pub fn new(format: Format, prefix: &[Component<'static>]) -> Self {
        AllocatorConfig {
            format,
            prefix: prefix.to_vec(),
            start: u64::MAX,
            floor: 0,
            max_attempts: 64,
            backoff_base: Duration::from_micros(500),
            backoff_cap: Duration::from_millis(50),
            guard: false,
            guard_key: None,
            assume_unique_values: false,
            batch_size: 1024,
            salt: None,
            salt_from_record: false,
            #[cfg(feature = "broken-allocator")]
            broken_skip_read_back: false,
        }
    }

    /// Sets [`AllocatorConfig::salt_from_record`]: without a salt, open
    /// the table with the salt its record names.
    pub fn with_salt_from_record(mut self, yes: bool) -> Self {
        self.salt_from_record = yes;
        self
    }

    /// Sets [`AllocatorConfig::salt`]: rows salted over `salter`'s buckets.
    ///
    /// ```
    /// use lexikey::store::alloc::AllocatorConfig;
    /// use lexikey::store::salt::{SaltMode, Salter};
    /// use lexikey::{Component, Format};
    /// let c = AllocatorConfig::new(Format::Hex, &[Component::asc("q")]).with_salt(Salter::new(16, SaltMode::Fast)?);
    /// assert_eq!(c.salt.map(|s| s.buckets()), Some(16));
    /// # Ok::<(), lexikey::store::salt::BucketsError>(())
    /// ```
    pub fn with_salt(mut self, salter: Salter) -> Self {
        self.salt = Some(salter);
        self
    }

    /// Sets [`AllocatorConfig::start`].
    pub fn with_start(mut self, start: u64) -> Self {
        self.start = start;
        self
    }

    /// Sets [`AllocatorConfig::floor`].
    pub fn with_floor(mut self, floor: u64) -> Self {
        self.floor = floor;
        self
    }

    /// Sets [`AllocatorConfig::max_attempts`].
    pub fn with_max_attempts(mut self, max_attempts: u32) -> Self {
        self.max_attempts = max_attempts;
        self
    }

    /// Sets the backoff delays ([`AllocatorConfig::backoff_base`],
    /// [`AllocatorConfig::backoff_cap`]). A zero base never sleeps (it only
    /// yields the thread).
    pub fn with_backoff(mut self, base: Duration, cap: Duration) -> Self {
        self.backoff_base = base;
        self.backoff_cap = cap;
        self
    }

    /// Sets [`AllocatorConfig::guard`].
    pub fn with_guard(mut self, guard: bool) -> Self {
        self.guard = guard;
        self
    }

    /// Sets [`AllocatorConfig::guard_key`].
    pub fn with_guard_key(mut self, key: impl Into<Vec<u8>>) -> Self {
        self.guard_key = Some(key.into());
        self
    }

    /// Turns on the deliberate bug of the cargo feature `broken-allocator`
    /// (see `broken_skip_read_back`, present with that feature): for
    /// testing that the history checker (`lexikey-history`) catches a real
    /// bug. Test builds only.
    ///
    /// # Errors
    /// [`AllocError::Config`] in a build without the feature.
    pub fn with_broken_skip_read_back(self) -> Result<Self, AllocError> {
        #[cfg(feature = "broken-allocator")]
        {
            let mut c = self;
            c.broken_skip_read_back = true;
            Ok(c)
        }
        #[cfg(not(feature = "broken-allocator"))]
        {
            let _ = self;
            Err(AllocError::Config(
                "the broken allocator needs lexikey built with feature broken-allocator".into(),
            ))
        }
    }

    /// Sets [`AllocatorConfig::batch_size`] (0 counts as 1).
    pub fn with_batch_size(mut self, n: usize) -> Self {
        self.batch_size = n.max(1);
        self
    }

    /// Sets [`AllocatorConfig::assume_unique_values`].
    pub fn with_assume_unique_values(mut self, yes: bool) -> Self {
        self.assume_unique_values = yes;
        self
    }
}

/// The low-water-mark key a guarded table uses by default.
///
/// - **Text formats** (`hex`, `base64`, `decimal`): `enc(P) + "$lwm"`. The
///   table's range is `[enc(P) + "#", enc(P) + "$")`, so this key sorts just
///   after it. No text key ever contains `$` (it is escaped in strings and
///   absent from every alphabet), so no tuple encodes to it and it lies in
///   no other table's range except that of a table whose prefix `P` extends
///   — and such nesting is already forbidden. It is printable ASCII, which
///   `text` columns (PostgreSQL, CQL) accept, unlike a NUL byte.
/// - **Binary**: `enc(P)` without its last byte. Every key of the table
///   starts with `enc(P)`, so this shorter key sorts before all of them. Its
///   last component is cut short, so it decodes with no schema that starts
///   with `P`'s types, and — components being prefix-free — it is in the
///   range of no other table whose prefix has `P`'s types. Binary keys are
///   untagged, so some unrelated schema may read it (every 8 bytes are a
///   `u64`): no binary key is impossible for *every* schema, and one key
///   space should hold one schema family. An `enc(P)` of one byte (a single
///   `bool`) has no such key: set [`AllocatorConfig::guard_key`].
///
/// # Errors
/// [`AllocError::Config`] for an empty prefix (its range is every key, so no
/// key lies outside it) or a one-byte binary prefix;
/// [`AllocError::Encode`] when the prefix does not encode.
///
/// ```
/// use lexikey::store::alloc::default_guard_key;
/// use lexikey::{Component, Format};
/// let p = [Component::asc("comments")];
/// assert_eq!(default_guard_key(Format::Hex, &p)?, b"comments$lwm");
/// assert_eq!(default_guard_key(Format::Binary, &p)?, b"comments\x00");
/// # Ok::<(), lexikey::store::alloc::AllocError>(())
/// ```
pub fn default_guard_key(format: Format, prefix: &[Component<'_>]) -> Result<Vec<u8>, AllocError> {
    if prefix.is_empty() {
        return Err(AllocError::Config(
            "the reuse guard needs a non-empty table prefix: an empty prefix's range is every \
             key, so no key outside it can hold the low-water mark"
                .into(),
        ));
    }
    let mut key = tuple::encode(format, prefix)?.into_vec();
    if format.is_text() {
        key.extend_from_slice(b"$lwm");
    } else {
        if key.len() < 2 {
            return Err(AllocError::Config(format!(
                "the binary prefix {} is one byte long, so the default guard key would be \
                 empty: set guard_key",
                crate::escape_key(&key)
            )));
        }
        let _ = key.pop();
    }
    Ok(key)
}

/// The first bytes of every *framed* row value: `FF` then `lexikey:`. A
/// stored row value that starts with them is not the caller's bytes as
/// they are: what follows says what it is ([`BURNED`] or an escaped value,
/// see [`encode_value`]). No UTF-8 text starts with `FF`.
pub const FRAME: &[u8] = b"\xFFlexikey:";

/// The tombstone of a burned ID: [`FRAME`] then `burned`. A row key that
/// holds it is no row: [`Allocator::newest`], [`Allocator::oldest`] and
/// [`Allocator::scan`] pass over it, [`Allocator::delete`] leaves it, and
/// allocation goes below it like below any key, so the ID is never handed
/// out. A caller's value equal to these bytes is stored escaped, so it is
/// never taken for a tombstone.
pub const BURNED: &[u8] = b"\xFFlexikey:burned";

/// What a row key of a table holds (see [`Allocator::read_entry`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    /// A row: its ID and the caller's value.
    Row {
        /// The row's ID.
        id: u64,
        /// The value, as the caller inserted it.
        value: Vec<u8>,
    },
    /// A tombstone: the ID was burned after an ambiguous write (see the
    /// module docs) and is no row.
    Burned {
        /// The burned ID.
        id: u64,
    },
}

impl Slot {
    /// The ID of the row or of the burned ID.
    pub fn id(&self) -> u64 {
        match self {
            Slot::Row { id, .. } | Slot::Burned { id } => *id,
        }
    }
}

/// The bytes a row holds for the caller's `value`: `value` itself, unless
/// it starts with [`FRAME`]; then `FRAME + "=" + value`. So every value can
/// be stored, and no value is ever stored as [`BURNED`]. Values that do not
/// start with `FF` (all text among them) are stored unchanged, without a
/// copy.
///
/// ```
/// use lexikey::store::alloc::{decode_value, encode_value, Stored, BURNED};
/// assert_eq!(&*encode_value(b"first!"), b"first!");
/// assert_eq!(&*encode_value(BURNED), b"\xFFlexikey:=\xFFlexikey:burned");
/// assert_eq!(decode_value(&encode_value(BURNED)), Some(Stored::Value(BURNED)));
/// assert_eq!(decode_value(BURNED), Some(Stored::Burned));
/// assert_eq!(decode_value(b"\xFFlexikey:what"), None);
/// ```
pub fn encode_value(value: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if value.starts_with(FRAME) {
        let mut v = Vec::with_capacity(FRAME.len() + 1 + value.len());
        v.extend_from_slice(FRAME);
        v.push(b'=');
        v.extend_from_slice(value);
        std::borrow::Cow::Owned(v)
    } else {
        std::borrow::Cow::Borrowed(value)
    }
}

/// What stored row bytes mean (the inverse of [`encode_value`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored<'a> {
    /// The caller's value.
    Value(&'a [u8]),
    /// A tombstone ([`BURNED`]).
    Burned,
}

/// Reads stored row bytes: the caller's value, or a tombstone; `None` for
/// bytes that start with [`FRAME`] but are neither [`BURNED`] nor an
/// escaped value (foreign data, or a later version of the framing).
pub fn decode_value(stored: &[u8]) -> Option<Stored<'_>> {
    match stored.strip_prefix(FRAME) {
        None => Some(Stored::Value(stored)),
        Some(b"burned") => Some(Stored::Burned),
        Some(rest) => rest
            .strip_prefix(b"=")
            .filter(|v| v.starts_with(FRAME))
            .map(Stored::Value),
    }
}

/// Counters of an [`Allocator`], summed over all calls since it was built
/// (a snapshot from [`Allocator::stats`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AllocStats {
    /// Successful inserts.
    pub inserted: u64,
    /// Attempts made by all insert calls, successful or not (an attempt
    /// at a batch of [`Allocator::insert_many`] counts once).
    pub attempts: u64,
    /// Attempts beyond the first of each call or batch (`attempts − calls`).
    pub retries: u64,
    /// Races lost: `put_if_absent` or the LWM CAS returned `false`.
    pub conflicts: u64,
    /// Retryable store errors seen (each followed by a retry).
    pub store_errors: u64,
    /// Writes whose outcome was unknown and had to be re-read.
    pub ambiguous: u64,
    /// Guard on: IDs reserved but given up because their row already
    /// existed (written by a client without the guard, or before the guard).
    pub skipped: u64,
    /// IDs this allocator burned: after an ambiguous write whose read-back
    /// found the row absent, it wrote a tombstone ([`BURNED`]) there so
    /// that the write, if it was only delayed, can never land (see the
    /// module docs). A burned ID is never handed out and is no row. A
    /// tombstone whose write answered with an error is counted when it is
    /// read back (so in the rare case of two clients burning one ID after
    /// lost answers, both count it).
    pub burned: u64,
}

/// The result of [`Allocator::insert_with_stats`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inserted {
    /// The new row's ID.
    pub id: u64,
    /// Attempts this call needed (1 = no retry).
    pub attempts: u32,
}

#[derive(Debug, Default)]
struct Counters {
    inserted: AtomicU64,
    calls: AtomicU64,
    attempts: AtomicU64,
    conflicts: AtomicU64,
    store_errors: AtomicU64,
    ambiguous: AtomicU64,
    skipped: AtomicU64,
    burned: AtomicU64,
}

fn bump(c: &AtomicU64) {
    let _ = c.fetch_add(1, Ordering::Relaxed);
}

/// The decreasing row-ID allocator of one table (see the module docs).
/// Share it between threads (`&Allocator` or `Arc<Allocator>`); every
/// method takes `&self`.
pub struct Allocator<S> {
    store: S,
    config: AllocatorConfig,
    /// The range of the (unsalted) row keys: `tuple::prefix_range(P)`.
    range: KeyRange,
    /// Where the rows are: `[range]`, or one range per salt bucket.
    ranges: Vec<KeyRange>,
    /// The salt, with the format's layout.
    salter: Option<Salter>,
    /// `enc(P) + "#"` (text, non-empty `P`), `enc(P)` (binary) or empty.
    row_prefix: Vec<u8>,
    schema: Vec<Field>,
    start_key: Vec<u8>,
    guard_key: Option<Vec<u8>>,
    /// The key of the salt record: `row_prefix + "!salt"`.
    salt_key: Vec<u8>,
    /// Salted: the salt record is known to be in the store (read at
    /// opening, or written by the first insert).
    salt_recorded: AtomicBool,
    counters: Counters,
}

impl<S> fmt::Debug for Allocator<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Allocator")
            .field("config", &self.config)
            .field("range", &self.range)
            .field("salt", &self.salter)
            .field(
                "guard_key",
                &self.guard_key.as_deref().map(crate::escape_key),
            )
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

impl<S> Allocator<S> {
    /// A snapshot of the counters.
    pub fn stats(&self) -> AllocStats {
        let c = &self.counters;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let attempts = get(&c.attempts);
        AllocStats {
            inserted: get(&c.inserted),
            attempts,
            retries: attempts.saturating_sub(get(&c.calls)),
            conflicts: get(&c.conflicts),
            store_errors: get(&c.store_errors),
            ambiguous: get(&c.ambiguous),
            skipped: get(&c.skipped),
            burned: get(&c.burned),
        }
    }
}

/// The store error an insert gives up with after `attempts` attempts, the
/// last of which failed with the retryable `e`: `e`'s store and message,
/// saying how often it was tried.
fn gave_up(e: StoreError, attempts: u32) -> StoreError {
    StoreError {
        message: format!(
            "{} (gave up after {attempts} attempts, the store failing)",
            e.message
        ),
        ..e
    }
}

/// Where one attempt of an insert stands.
enum Step {
    /// Try again (after a backoff): another client won (a lost race, a key
    /// taken or deleted meanwhile).
    Lost,
    /// Try again (after a backoff): the store failed with this retryable
    /// error. An insert whose last attempt ends so gives up with
    /// [`AllocError::Store`], not [`AllocError::Contention`].
    Failed(StoreError),
    /// Done.
    Done(u64),
}

impl<S: Store> Allocator<S> {
    /// An allocator for the table `config.prefix` in `store`.
    ///
    /// Without salt this reads nothing. With [`AllocatorConfig::salt`] it
    /// reads the table's salt record (and, when there is none, checks that
    /// the table holds no unsalted keys): a table created with other
    /// buckets or another hash is refused here. Retryable store errors are
    /// retried as an insert retries them ([`AllocatorConfig::max_attempts`],
    /// with backoff). It writes nothing: the first insert into a new table
    /// writes the record. With [`AllocatorConfig::salt_from_record`] and no
    /// salt, it reads the salt record and, when there is one, opens the
    /// table with the salt it names.
    ///
    /// # Errors
    /// [`AllocError::Encode`] when the prefix does not encode in the format;
    /// [`AllocError::Config`] when `start < floor`, `max_attempts == 0`, or
    /// the guard is on and no guard key outside the table's range exists
    /// (see [`default_guard_key`]) or the one given lies inside it. Salted:
    /// [`AllocError::SaltMismatch`], [`AllocError::NotSalted`],
    /// [`AllocError::CorruptSaltRecord`], [`AllocError::Store`].
    pub fn new(store: S, config: AllocatorConfig) -> Result<Self, AllocError> {
        if config.salt.is_none() && config.salt_from_record {
            let unsalted = Allocator::new(store, config.with_salt_from_record(false))?;
            let Some((buckets, mode)) = unsalted.read_salt_record()? else {
                return Ok(unsalted);
            };
            let Allocator { store, config, .. } = unsalted;
            let salter = Salter::new(buckets, mode)
                .map_err(|e| AllocError::Config(format!("the table's salt record: {e}")))?;
            return Allocator::new(store, config.with_salt(salter));
        }
        if config.start < config.floor {
            return Err(AllocError::Config(format!(
                "start {} is below floor {}",
                config.start, config.floor
            )));
        }
        if config.max_attempts == 0 {
            return Err(AllocError::Config("max_attempts must be at least 1".into()));
        }
        let format = config.format;
        let (start, end) = tuple::prefix_range(format, &config.prefix)?;
        let range = KeyRange {
            start: (!start.is_empty()).then_some(start),
            end,
        };
        let mut row_prefix = tuple::encode(format, &config.prefix)?.into_vec();
        if format.is_text() && !config.prefix.is_empty() {
            row_prefix.push(SEP);
        }
        let schema: Vec<Field> = config
            .prefix
            .iter()
            .map(Component::field)
            .chain([Field::asc(Type::U64)])
            .collect();
        let salter = config.salt.map(|s| s.for_format(format));
        let ranges = match &salter {
            None => vec![range.clone()],
            Some(s) => s.ranges(&range),
        };
        let mut salt_key = row_prefix.clone();
        salt_key.extend_from_slice(SALT_RECORD_SUFFIX);
        let in_rows = |k: &[u8]| ranges.iter().any(|r| r.contains(k));
        let guard_key = if config.guard {
            let key = match &config.guard_key {
                Some(k) => k.clone(),
                None => default_guard_key(format, &config.prefix)?,
            };
            if key.is_empty() || range.contains(&key) || in_rows(&key) {
                return Err(AllocError::Config(format!(
                    "guard key {} must be non-empty and outside the table's range {range:?}",
                    crate::escape_key(&key)
                )));
            }
            Some(key)
        } else {
            None
        };
        if salter.is_some() && in_rows(&salt_key) {
            // Only a prefix that spells a salt can do this.
            return Err(AllocError::Config(format!(
                "the salt record's key {} falls inside a salt bucket of the table: choose another \
                 table prefix",
                crate::escape_key(&salt_key)
            )));
        }
        let mut a = Allocator {
            store,
            config,
            range,
            ranges,
            salter,
            row_prefix,
            schema,
            start_key: Vec::new(),
            guard_key,
            salt_key,
            salt_recorded: AtomicBool::new(false),
            counters: Counters::default(),
        };
        a.start_key = a.key(a.config.start);
        debug_assert!(a.ranges.iter().any(|r| r.contains(&a.start_key)));
        if a.salter.is_some() {
            a.open_salted()?;
        }
        Ok(a)
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The configuration.
    pub fn config(&self) -> &AllocatorConfig {
        &self.config
    }

    /// The range of the table's row keys without salt,
    /// [`tuple::prefix_range`] of the prefix: where the rows are in an
    /// unsalted table. A salted table's rows are in [`Allocator::ranges`].
    pub fn range(&self) -> &KeyRange {
        &self.range
    }

    /// Where the table's rows are, as the store holds them: the one range
    /// [`Allocator::range`] without salt, one range per salt bucket (bucket
    /// order) with. A reader of the raw store scans these.
    pub fn ranges(&self) -> &[KeyRange] {
        &self.ranges
    }

    /// The salt of the table's rows (with the format's layout), if salted.
    pub fn salter(&self) -> Option<&Salter> {
        self.salter.as_ref()
    }

    /// The key of the table's salt record (see *Salted tables* in the
    /// module docs): `enc(P) + "#!salt"` in the text formats,
    /// `enc(P) + "!salt"` in binary. Only salted tables have one.
    pub fn salt_record_key(&self) -> &[u8] {
        &self.salt_key
    }

    /// The low-water-mark key, when the guard is on.
    pub fn guard_key(&self) -> Option<&[u8]> {
        self.guard_key.as_deref()
    }

    /// The key of row `id`: `tuple::encode(format, P ++ [Component::asc(id)])`,
    /// with its salt in front in a salted table.
    ///
    /// ```
    /// use lexikey::store::alloc::{Allocator, AllocatorConfig};
    /// use lexikey::store::salt::{SaltMode, Salter};
    /// use lexikey::{store::MemStore, Component, Format};
    /// let p = [Component::asc("comments")];
    /// let a = Allocator::new(MemStore::new(), AllocatorConfig::new(Format::Decimal, &p))?;
    /// assert_eq!(a.key(42), b"comments#00000000000000000042");
    /// let a = Allocator::new(MemStore::new(), AllocatorConfig::new(Format::Binary, &p))?;
    /// assert_eq!(a.key(42), b"comments\x00\x01\x00\x00\x00\x00\x00\x00\x00\x2A");
    /// let salted = AllocatorConfig::new(Format::Decimal, &p).with_salt(Salter::new(4, SaltMode::Fast)?);
    /// let a = Allocator::new(MemStore::new(), salted)?;
    /// assert_eq!(a.key(42), b"00#comments#00000000000000000042");
    /// assert_eq!(a.key(41), b"02#comments#00000000000000000041");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn key(&self, id: u64) -> Vec<u8> {
        let mut key = self.row_prefix.clone();
        // An ascending full-width u64 encodes in every format (the decimal
        // width check is the only fallible step, and 20 digits hold u64::MAX).
        self.config
            .format
            .encode_component(&Component::asc(id), &mut key)
            .expect("an ascending u64 encodes in every format");
        match &self.salter {
            None => key,
            Some(s) => s.salted_key(&key),
        }
    }

    /// The salt bucket row `id` is written to (`None` without salt): where
    /// the row goes, before it is written.
    ///
    /// ```
    /// use lexikey::store::alloc::{Allocator, AllocatorConfig};
    /// use lexikey::store::salt::{SaltMode, Salter};
    /// use lexikey::{store::MemStore, Component, Format};
    /// let c = AllocatorConfig::new(Format::Decimal, &[Component::asc("comments")]);
    /// let a = Allocator::new(MemStore::new(), c.clone().with_salt(Salter::new(4, SaltMode::Fast)?))?;
    /// assert_eq!((a.bucket_of(42), a.bucket_of(41)), (Some(0), Some(2)));
    /// assert_eq!(Allocator::new(MemStore::new(), c)?.bucket_of(42), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bucket_of(&self, id: u64) -> Option<u8> {
        let s = self.salter.as_ref()?;
        s.unsalt(&self.key(id)).ok().map(|(bucket, _)| bucket)
    }

    /// The constant key of the oldest row (the start ID).
    pub fn start_key(&self) -> &[u8] {
        &self.start_key
    }

    /// The ID of a row key of this table.
    ///
    /// # Errors
    /// [`AllocError::NotInTable`] for a key outside the table's range (a
    /// salted table: outside every bucket's range);
    /// [`AllocError::Corrupt`] for a key inside it that is not a row key
    /// (a salt that is not the key's bucket, a key that does not decode
    /// with `P's fields ++ [u64]`, or does not re-encode to itself);
    /// [`AllocError::SaltMismatch`] when an unsalted allocator meets a
    /// salted table's salt record.
    pub fn decode_id(&self, key: &[u8]) -> Result<u64, AllocError> {
        if !self.ranges.iter().any(|r| r.contains(key)) {
            return Err(AllocError::NotInTable { key: key.to_vec() });
        }
        let corrupt = |error| AllocError::Corrupt {
            key: key.to_vec(),
            error,
        };
        let (body, salt_len) = match &self.salter {
            None => (key, 0),
            Some(s) => (s.unsalt(key).map_err(corrupt)?.1, s.salt_len()),
        };
        let parts = match tuple::decode(self.config.format, body, Some(&self.schema)) {
            Ok(parts) => parts,
            Err(e) if self.salter.is_none() && key == self.salt_key => {
                return Err(self.salted_table(e))
            }
            Err(e) => return Err(corrupt(e.shift(salt_len))),
        };
        let id = match parts.last().map(|c| &c.value) {
            Some(Value::U64(id)) => *id,
            _ => {
                return Err(corrupt(DecodeError::NonCanonical {
                    offset: salt_len + self.row_prefix.len(),
                    reason: "the last component is not a u64",
                }))
            }
        };
        let canonical = self.key(id);
        if canonical != key {
            let offset = canonical
                .iter()
                .zip(key)
                .position(|(a, b)| a != b)
                .unwrap_or(canonical.len().min(key.len()));
            return Err(corrupt(DecodeError::NonCanonical {
                offset,
                reason: "the key decodes, but not to this table's prefix",
            }));
        }
        Ok(id)
    }

    /// Allocates the next (smaller) ID and stores `value` as its row.
    ///
    /// # Errors
    /// [`AllocError::Exhausted`] at the floor, [`AllocError::Contention`]
    /// after `max_attempts`, [`AllocError::Ambiguous`] when a write's outcome
    /// stays unknown, [`AllocError::Store`] on a non-retryable store error,
    /// [`AllocError::Corrupt`] / [`AllocError::CorruptGuard`] on foreign data.
    pub fn insert(&self, value: &[u8]) -> Result<u64, AllocError> {
        self.insert_with_stats(value).map(|i| i.id)
    }

    /// Like [`Allocator::insert`], also telling how many attempts it took.
    ///
    /// # Errors
    /// As [`Allocator::insert`].
    pub fn insert_with_stats(&self, value: &[u8]) -> Result<Inserted, AllocError> {
        bump(&self.counters.calls);
        // What the row holds: the value itself, unless it starts like a
        // framed value (see `encode_value`): then it is escaped.
        let stored = encode_value(value);
        let mut rng = SplitMix::seeded();
        let mut state = if self.guard_key.is_some() {
            State::Guarded(Guarded::default())
        } else {
            State::Plain(None, false)
        };
        let max = self.config.max_attempts;
        // The store error that ended the last attempt (None: the last
        // attempt lost to another client).
        let mut failing: Option<StoreError> = None;
        for attempt in 1..=max {
            if attempt > 1 {
                self.backoff(&mut rng, attempt - 1);
            }
            bump(&self.counters.attempts);
            let step = match &mut state {
                State::Plain(pending, burn_sent) => self.attempt_plain(&stored, pending, burn_sent),
                State::Guarded(g) => self.attempt_guarded(&stored, g),
            }?;
            match step {
                Step::Done(id) => {
                    bump(&self.counters.inserted);
                    return Ok(Inserted {
                        id,
                        attempts: attempt,
                    });
                }
                Step::Lost => failing = None,
                Step::Failed(e) => failing = Some(e),
            }
        }
        let unresolved = match state {
            State::Plain(pending, _) => pending,
            State::Guarded(g) => g.reserved.zip(g.put_error),
        };
        match (unresolved, failing) {
            (Some((id, error)), _) => Err(AllocError::Ambiguous { id, error }),
            // The store was failing when the attempts ran out (a dead
            // server, a partition): that is the error, not contention.
            (None, Some(e)) => Err(AllocError::Store(gave_up(e, max))),
            (None, None) => Err(AllocError::Contention { attempts: max }),
        }
    }

    /// Inserts one row per value, in order, and returns their IDs: each
    /// below the one before, as many single [`Allocator::insert`] calls in
    /// a row would give.
    ///
    /// On a store that writes several keys in one transaction
    /// ([`Store::atomic_batches`]: redb, RocksDB, SlateDB, PostgreSQL,
    /// [`MemStore`](crate::store::MemStore)) the values go in batches of up
    /// to [`AllocatorConfig::batch_size`], and each batch is **one commit**
    /// (one durable commit, one `fsync` on redb): one read of the newest
    /// row (or of the low-water mark), then all the batch's rows at once,
    /// written only if every row key is still absent (and, with the guard,
    /// the LWM unchanged). A batch is all or nothing: on a lost race it is
    /// read and proposed again as a whole. The guarantees are those of
    /// [`Allocator::insert`] (see *Batches* in the module docs). On the
    /// other stores (Redis, etcd, Bigtable, test wrappers) each value is one
    /// [`Allocator::insert`]: a round trip or two per ID.
    ///
    /// ```
    /// use lexikey::store::alloc::{Allocator, AllocatorConfig};
    /// use lexikey::store::MemStore;
    /// use lexikey::{Component, Format};
    /// let a = Allocator::new(MemStore::new(), AllocatorConfig::new(Format::Hex, &[Component::asc("t")]))?;
    /// assert_eq!(a.insert_many(&[b"a", b"b", b"c"])?, [u64::MAX, u64::MAX - 1, u64::MAX - 2]);
    /// assert_eq!(a.newest()?, Some((u64::MAX - 2, b"c".to_vec())));
    /// # Ok::<(), lexikey::store::alloc::AllocError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Allocator::insert`]; use [`Allocator::insert_many_into`] to
    /// learn which IDs were allocated before the failure.
    pub fn insert_many<V: AsRef<[u8]>>(&self, values: &[V]) -> Result<Vec<u64>, AllocError> {
        let mut ids = Vec::with_capacity(values.len());
        self.insert_many_into(values, &mut ids)?;
        Ok(ids)
    }

    /// [`Allocator::insert_many`], appending each ID to `ids` as soon as
    /// its batch is committed: after an error, `ids` holds the IDs
    /// allocated before it (whole batches; the failing batch wrote
    /// nothing, unless the error is [`AllocError::Ambiguous`], whose `id`
    /// is then the batch's first ID).
    ///
    /// # Errors
    /// As [`Allocator::insert`].
    pub fn insert_many_into<V: AsRef<[u8]>>(
        &self,
        values: &[V],
        ids: &mut Vec<u64>,
    ) -> Result<(), AllocError> {
        if !self.store.atomic_batches() {
            for v in values {
                ids.push(self.insert(v.as_ref())?);
            }
            return Ok(());
        }
        let mut rest = values;
        while !rest.is_empty() {
            let n = rest.len().min(self.config.batch_size.max(1));
            if n == 1 {
                ids.push(self.insert(rest[0].as_ref())?);
                rest = &rest[1..];
                continue;
            }
            match self.insert_batch(&rest[..n])? {
                Some((first, written)) => {
                    ids.extend((0..written as u64).map(|i| first - i));
                    rest = &rest[written..];
                }
                // Guard on, the batch's IDs hold rows of clients without
                // the guard: one insert, which skips them.
                None => {
                    ids.push(self.insert(rest[0].as_ref())?);
                    rest = &rest[1..];
                }
            }
        }
        Ok(())
    }

    /// One batch: IDs `first, first − 1, …` for (a prefix of) `values`, in
    /// one [`Store::put_all_if_absent`]. `Ok(Some((first, n)))`: the first
    /// `n` values are in rows `first` down (`n` < `values.len()` only at
    /// the floor). `Ok(None)`: guard on and a row key in the batch's range
    /// is taken while the LWM stays: let a single insert skip it.
    fn insert_batch<V: AsRef<[u8]>>(
        &self,
        values: &[V],
    ) -> Result<Option<(u64, usize)>, AllocError> {
        bump(&self.counters.calls);
        let stored: Vec<std::borrow::Cow<'_, [u8]>> =
            values.iter().map(|v| encode_value(v.as_ref())).collect();
        let mut rng = SplitMix::seeded();
        let mut b = Batch::default();
        let max = self.config.max_attempts;
        let mut failing: Option<StoreError> = None;
        for attempt in 1..=max {
            if attempt > 1 {
                self.backoff(&mut rng, attempt - 1);
            }
            bump(&self.counters.attempts);
            match self.attempt_batch(&stored, &mut b)? {
                BatchStep::Done(first, n) => {
                    let _ = self
                        .counters
                        .inserted
                        .fetch_add(n as u64, Ordering::Relaxed);
                    return Ok(Some((first, n)));
                }
                BatchStep::Skip => return Ok(None),
                BatchStep::Lost => failing = None,
                BatchStep::Failed(e) => failing = Some(e),
            }
        }
        match (b.pending, failing) {
            (Some((id, _, error)), _) => Err(AllocError::Ambiguous { id, error }),
            (None, Some(e)) => Err(AllocError::Store(gave_up(e, max))),
            (None, None) => Err(AllocError::Contention { attempts: max }),
        }
    }

    /// One attempt of a batch (see [`Allocator::insert_batch`]).
    fn attempt_batch(
        &self,
        stored: &[std::borrow::Cow<'_, [u8]>],
        b: &mut Batch,
    ) -> Result<BatchStep, AllocError> {
        if b.pending.is_some() {
            if let Some(step) = self.resolve_batch(stored, b)? {
                return Ok(step);
            }
        }
        if let Some(step) = self.ensure_salt_record()? {
            return Ok(match step {
                Step::Failed(e) => BatchStep::Failed(e),
                _ => BatchStep::Lost,
            });
        }
        // 1. The newest row, or the LWM.
        let (current, base) = match self.guard_key.as_deref() {
            Some(gk) => {
                let current = match self.store.get(gk) {
                    Ok(v) => v,
                    Err(e) => return self.retry_or_fail(e).map(BatchStep::from),
                };
                let base = match &current {
                    Some(v) => Some(self.parse_guard(v)?),
                    None => match self.first_id()? {
                        Ok(id) => id,
                        Err(e) => return self.retry_or_fail(e).map(BatchStep::from),
                    },
                };
                (current, base)
            }
            None => match self.first_id()? {
                Ok(id) => (None, id),
                Err(e) => return self.retry_or_fail(e).map(BatchStep::from),
            },
        };
        // 2. Propose `first` and the IDs below it, down to the floor.
        let first = self.propose(base)?;
        let room = usize::try_from(first.saturating_sub(self.config.floor)).unwrap_or(usize::MAX);
        let n = stored.len().min(room.saturating_add(1));
        let keys: Vec<Vec<u8>> = (0..n as u64).map(|i| self.key(first - i)).collect();
        let rows: Vec<(&[u8], &[u8])> = keys
            .iter()
            .zip(stored)
            .map(|(k, v)| (k.as_slice(), v.as_ref()))
            .collect();
        let new = self
            .guard_key
            .as_ref()
            .map(|_| guard_value(first - (n as u64 - 1)));
        let cas = self
            .guard_key
            .as_deref()
            .zip(new.as_deref())
            .map(|(key, new)| Cas {
                key,
                expected: current.as_deref(),
                new,
            });
        // 3. All rows, and the LWM, in one transaction.
        match self.store.put_all_if_absent(&rows, cas) {
            Ok(true) => Ok(BatchStep::Done(first, n)),
            Ok(false) => {
                bump(&self.counters.conflicts);
                if let Some(gk) = self.guard_key.as_deref() {
                    // The LWM did not move: a row key is taken (a client
                    // without the guard).
                    if matches!(self.store.get(gk), Ok(v) if v == current) {
                        return Ok(BatchStep::Skip);
                    }
                }
                Ok(BatchStep::Lost)
            }
            Err(e) if e.retryable => {
                bump(&self.counters.store_errors);
                bump(&self.counters.ambiguous);
                b.pending = Some((first, n, e.clone()));
                b.guard = new;
                b.burn_sent = false;
                Ok(BatchStep::Failed(e))
            }
            Err(e) => Err(AllocError::Store(e)),
        }
    }

    /// Settles a batch whose commit had an unknown outcome, before this
    /// call writes anywhere else. The batch is all or nothing and needs
    /// every row key absent, so its first row tells, settled as
    /// [`Allocator::resolve_plain`] settles a single put: our value → ours
    /// (or [`AllocError::Ambiguous`] unless values are unique); taken →
    /// lost; absent → burned, and a late batch finds the tombstone and
    /// fails whole. Guard on, the LWM is read first: our token there
    /// proves the batch ours. `None` = settled, it can no longer land;
    /// `Some(step)` = the attempt ends here.
    fn resolve_batch(
        &self,
        stored: &[std::borrow::Cow<'_, [u8]>],
        b: &mut Batch,
    ) -> Result<Option<BatchStep>, AllocError> {
        let Some((first, n, _)) = b.pending.clone() else {
            return Ok(None);
        };
        if let (Some(gk), Some(ours)) = (self.guard_key.as_deref(), &b.guard) {
            match self.store.get(gk) {
                Ok(Some(v)) if v == *ours => {
                    b.pending = None;
                    return Ok(Some(BatchStep::Done(first, n)));
                }
                Ok(_) => {}
                Err(e) if e.retryable => {
                    bump(&self.counters.store_errors);
                    return Ok(Some(BatchStep::Failed(e)));
                }
                Err(e) => {
                    return Err(AllocError::Ambiguous {
                        id: first,
                        error: e,
                    })
                }
            }
        }
        let mut single = b.pending.take().map(|(id, _, e)| (id, e));
        let step = self.resolve_plain(&stored[0], &mut single, &mut b.burn_sent);
        b.pending = single.map(|(id, e)| (id, n, e));
        match step? {
            None => {
                b.pending = None;
                b.guard = None;
                b.burn_sent = false;
                Ok(None)
            }
            Some(Step::Done(id)) => Ok(Some(BatchStep::Done(id, n))),
            Some(step) => Ok(Some(BatchStep::from(step))),
        }
    }

    /// One attempt without the guard. `stored`: the row's bytes (the
    /// caller's value, framed); `pending`: an ID whose put had an unknown
    /// outcome, and the error that made it so; `burn_sent`: a tombstone
    /// for it was written with an unknown outcome.
    fn attempt_plain(
        &self,
        stored: &[u8],
        pending: &mut Option<(u64, StoreError)>,
        burn_sent: &mut bool,
    ) -> Result<Step, AllocError> {
        #[cfg(feature = "broken-allocator")]
        if self.config.broken_skip_read_back {
            // The deliberate bug: no read-back, the write is forgotten.
            *pending = None;
        }
        if pending.is_some() {
            if let Some(step) = self.resolve_plain(stored, pending, burn_sent)? {
                return Ok(step);
            }
            *burn_sent = false;
        }
        if let Some(step) = self.ensure_salt_record()? {
            return Ok(step);
        }
        // 1. The newest row.
        let first = match self.first_id()? {
            Ok(id) => id,
            Err(e) => return self.retry_or_fail(e),
        };
        // 2. Propose.
        let id = self.propose(first)?;
        // 3. Put.
        match self.store.put_if_absent(&self.key(id), stored) {
            Ok(true) => Ok(Step::Done(id)),
            Ok(false) => {
                bump(&self.counters.conflicts);
                Ok(Step::Lost)
            }
            Err(e) if e.retryable => {
                bump(&self.counters.store_errors);
                bump(&self.counters.ambiguous);
                *pending = Some((id, e.clone()));
                Ok(Step::Failed(e))
            }
            Err(e) => Err(AllocError::Store(e)),
        }
    }

    /// Guard off: settles a put of row `id` whose outcome was unknown
    /// (`pending`), before this call may write anywhere else. `Ok(None)`:
    /// settled, and the write can no longer land (the key holds another
    /// client's row or a tombstone): go on allocating. `Ok(Some(step))`:
    /// the attempt ends here (the row is ours, or the store failed and the
    /// next attempt looks again).
    ///
    /// Read the row. Our value → ours (or an identical value of another
    /// client: [`AllocError::Ambiguous`] unless values are unique).
    /// Another value or a tombstone → the key is taken, and a put-if-absent
    /// delayed in the store can never land there. Absent → the write did
    /// not land *yet*: burn the ID by a put-if-absent of [`BURNED`]. If that
    /// wins, a late put of ours will find the key taken and fail; if it
    /// loses, someone (perhaps our late put) wrote the key: read again.
    fn resolve_plain(
        &self,
        stored: &[u8],
        pending: &mut Option<(u64, StoreError)>,
        burn_sent: &mut bool,
    ) -> Result<Option<Step>, AllocError> {
        let Some((id, _)) = pending else {
            return Ok(None);
        };
        let key = self.key(*id);
        // Twice at most: a lost burn means the key was written, and the
        // second read sees by whom (unless it was deleted meanwhile: then
        // the next attempt starts here again).
        for _ in 0..2 {
            match self.store.get(&key) {
                Ok(Some(v)) if v == stored => {
                    let (id, error) = pending.take().expect("pending is Some");
                    if self.config.assume_unique_values {
                        return Ok(Some(Step::Done(id)));
                    }
                    return Err(AllocError::Ambiguous { id, error });
                }
                // Someone else's row, or a tombstone (ours from an earlier
                // burn whose answer was lost — counted now —, or another
                // client's whose ambiguous write had the same ID): the key
                // is taken.
                Ok(Some(v)) => {
                    if *burn_sent && v == BURNED {
                        bump(&self.counters.burned);
                    }
                    *pending = None;
                    return Ok(None);
                }
                Ok(None) => {}
                Err(e) => return self.retry_or_ambiguous(e, pending).map(Some),
            }
            match self.store.put_if_absent(&key, BURNED) {
                Ok(true) => {
                    bump(&self.counters.burned);
                    *pending = None;
                    return Ok(None);
                }
                Ok(false) => {}
                // The burn's outcome is unknown too: the next attempt
                // reads the key again (it holds our row, a tombstone, or
                // nothing yet).
                Err(e) if e.retryable => {
                    bump(&self.counters.store_errors);
                    bump(&self.counters.ambiguous);
                    *burn_sent = true;
                    return Ok(Some(Step::Failed(e)));
                }
                Err(e) => return self.retry_or_ambiguous(e, pending).map(Some),
            }
        }
        Ok(Some(Step::Lost))
    }

    /// One attempt with the guard.
    fn attempt_guarded(&self, stored: &[u8], g: &mut Guarded) -> Result<Step, AllocError> {
        if let Some(step) = self.ensure_salt_record()? {
            return Ok(step);
        }
        let gk = self.guard_key.as_deref().unwrap_or_default();
        let id = match g.reserved {
            Some(id) => id,
            None => {
                // 1. Read the low-water mark.
                let current = match self.store.get(gk) {
                    Ok(v) => v,
                    Err(e) => return self.retry_or_fail(e),
                };
                let ours = matches!((&current, &g.proposed), (Some(c), Some(p)) if c == p);
                g.proposed = None;
                if ours {
                    // Our earlier CAS, whose reply was lost, did apply.
                    let current = current.unwrap_or_default();
                    let id = self.parse_guard(&current)?;
                    g.reserved = Some(id);
                    id
                } else {
                    // 2. Propose below the LWM, or below the first row.
                    let base = match &current {
                        Some(v) => Some(self.parse_guard(v)?),
                        None => match self.first_id()? {
                            Ok(id) => id,
                            Err(e) => return self.retry_or_fail(e),
                        },
                    };
                    let id = self.propose(base)?;
                    // 3. Reserve.
                    let new = guard_value(id);
                    match self.store.compare_and_swap(gk, current.as_deref(), &new) {
                        Ok(true) => {
                            g.reserved = Some(id);
                            id
                        }
                        Ok(false) => {
                            bump(&self.counters.conflicts);
                            return Ok(Step::Lost);
                        }
                        Err(e) if e.retryable => {
                            bump(&self.counters.store_errors);
                            bump(&self.counters.ambiguous);
                            // Look at once, before other clients can move
                            // the LWM past our token (which would make a
                            // hole of an ID we did reserve).
                            match self.store.get(gk) {
                                Ok(Some(v)) if v == new => {
                                    g.reserved = Some(id);
                                    id
                                }
                                Ok(_) => return Ok(Step::Failed(e)),
                                Err(_) => {
                                    // Resolved by step 1 of the next attempt.
                                    g.proposed = Some(new);
                                    return Ok(Step::Failed(e));
                                }
                            }
                        }
                        Err(e) => return Err(AllocError::Store(e)),
                    }
                }
            }
        };
        // 4. Put the row; nobody else reserves `id`.
        let key = self.key(id);
        if g.put_error.is_some() {
            // An earlier put of ours had an unknown outcome: read the row
            // first. Putting again would not tell (its answer can be lost
            // too: a store whose every write commits but times out would
            // never resolve), a read does.
            match self.store.get(&key) {
                Ok(Some(v)) if v == stored => return Ok(Step::Done(id)),
                Ok(Some(_)) => return Ok(self.skip(g)),
                Ok(None) => {}
                Err(e) if e.retryable => {
                    bump(&self.counters.store_errors);
                    return Ok(Step::Failed(e));
                }
                Err(e) => return Err(AllocError::Ambiguous { id, error: e }),
            }
        }
        match self.store.put_if_absent(&key, stored) {
            Ok(true) => Ok(Step::Done(id)),
            Ok(false) => {
                if g.put_error.is_some() {
                    // An earlier put of ours may have landed.
                    match self.store.get(&key) {
                        Ok(Some(v)) if v == stored => return Ok(Step::Done(id)),
                        Ok(_) => {}
                        Err(e) => {
                            return if e.retryable {
                                bump(&self.counters.store_errors);
                                Ok(Step::Failed(e))
                            } else {
                                Err(AllocError::Ambiguous { id, error: e })
                            };
                        }
                    }
                }
                Ok(self.skip(g))
            }
            Err(e) if e.retryable => {
                bump(&self.counters.store_errors);
                bump(&self.counters.ambiguous);
                g.put_error = Some(e.clone());
                Ok(Step::Failed(e))
            }
            // An earlier put of ours may have landed: say so.
            Err(e) if g.put_error.is_some() => Err(AllocError::Ambiguous { id, error: e }),
            Err(e) => Err(AllocError::Store(e)),
        }
    }

    /// Step 1: the smallest ID of the table, a row's or a burned one's
    /// (`None`: the table is empty). Unsalted, the first key of the range;
    /// salted, the smallest ID among the first keys of the buckets (one
    /// [`Store::first_keys`] call). The inner error is the store's, for the
    /// caller's retry rule.
    fn first_id(&self) -> Result<Result<Option<u64>, StoreError>, AllocError> {
        if self.salter.is_none() {
            return Ok(match self.store.first_key(&self.range) {
                Ok(k) => Ok(k.as_deref().map(|k| self.decode_id(k)).transpose()?),
                Err(e) => Err(e),
            });
        }
        let keys = match self.store.first_keys(&self.ranges) {
            Ok(keys) if keys.len() == self.ranges.len() => keys,
            Ok(keys) => {
                return Ok(Err(StoreError::fatal(
                    "store",
                    format!(
                        "first_keys answered {} ranges of {}",
                        keys.len(),
                        self.ranges.len()
                    ),
                )))
            }
            Err(e) => return Ok(Err(e)),
        };
        let mut min: Option<u64> = None;
        for key in keys.iter().flatten() {
            let id = self.decode_id(key)?;
            min = Some(min.map_or(id, |m| m.min(id)));
        }
        Ok(Ok(min))
    }

    /// Guard on: the reserved ID's row was written by someone else (a
    /// writer without the guard): give the ID up.
    fn skip(&self, g: &mut Guarded) -> Step {
        bump(&self.counters.conflicts);
        bump(&self.counters.skipped);
        g.reserved = None;
        g.put_error = None;
        Step::Lost
    }

    /// Step 2: the ID below `base` (the newest ID or the LWM), or `start`.
    fn propose(&self, base: Option<u64>) -> Result<u64, AllocError> {
        match base {
            None => Ok(self.config.start),
            Some(b) if b <= self.config.floor => Err(AllocError::Exhausted {
                floor: self.config.floor,
            }),
            Some(b) => Ok((b - 1).min(self.config.start)),
        }
    }

    fn retry_or_fail(&self, e: StoreError) -> Result<Step, AllocError> {
        if e.retryable {
            bump(&self.counters.store_errors);
            Ok(Step::Failed(e))
        } else {
            Err(AllocError::Store(e))
        }
    }

    fn retry_or_ambiguous(
        &self,
        e: StoreError,
        pending: &mut Option<(u64, StoreError)>,
    ) -> Result<Step, AllocError> {
        if e.retryable {
            bump(&self.counters.store_errors);
            return Ok(Step::Failed(e));
        }
        match pending.take() {
            Some((id, _)) => Err(AllocError::Ambiguous { id, error: e }),
            None => Err(AllocError::Store(e)),
        }
    }

    fn parse_guard(&self, v: &[u8]) -> Result<u64, AllocError> {
        parse_guard_value(v).ok_or_else(|| AllocError::CorruptGuard {
            key: self.guard_key.clone().unwrap_or_default(),
            value: v.to_vec(),
        })
    }

    fn backoff(&self, rng: &mut SplitMix, retry: u32) {
        let base = u64::try_from(self.config.backoff_base.as_nanos()).unwrap_or(u64::MAX);
        let cap = u64::try_from(self.config.backoff_cap.as_nanos()).unwrap_or(u64::MAX);
        let ceiling = base
            .saturating_mul(1u64 << retry.saturating_sub(1).min(40))
            .min(cap);
        if ceiling == 0 {
            std::thread::yield_now();
            return;
        }
        // Full jitter: uniform in [0, ceiling].
        let nanos = rng.next() % (ceiling + 1);
        std::thread::sleep(Duration::from_nanos(nanos));
    }

    /// What the row key `key` holding `stored` is: a row (its ID and the
    /// caller's value) or a burned ID. For readers of the raw store (a
    /// paged scan of [`Allocator::range`]) that want what
    /// [`Allocator::scan`] shows, or the tombstones too.
    ///
    /// # Errors
    /// As [`Allocator::decode_id`]; [`AllocError::CorruptValue`] for a value
    /// that starts with [`FRAME`] but is no framed value.
    pub fn read_entry(&self, key: &[u8], stored: Vec<u8>) -> Result<Slot, AllocError> {
        let id = self.decode_id(key)?;
        match decode_value(&stored) {
            Some(Stored::Burned) => Ok(Slot::Burned { id }),
            Some(Stored::Value(v)) if v.len() == stored.len() => {
                Ok(Slot::Row { id, value: stored })
            }
            Some(Stored::Value(v)) => Ok(Slot::Row {
                id,
                value: v.to_vec(),
            }),
            None => Err(AllocError::CorruptValue {
                key: key.to_vec(),
                value: stored,
            }),
        }
    }

    /// The newest row (smallest ID), if any: one forward scan of one row
    /// (and more only when the first keys are tombstones). Salted, the
    /// buckets' first keys in one [`Store::first_keys`] call (as an insert
    /// reads them) and a `get` of the smallest: two round trips on the
    /// stores that answer `first_keys` in one, whatever the number of
    /// buckets; when that key is a tombstone, or its row was deleted
    /// between the two reads, the buckets are scanned and merged (as
    /// [`Allocator::scan`]).
    ///
    /// # Errors
    /// [`AllocError::Store`] (retryable or not: reads are not retried here),
    /// [`AllocError::Corrupt`] when the first key is not a row key,
    /// [`AllocError::CorruptValue`].
    pub fn newest(&self) -> Result<Option<(u64, Vec<u8>)>, AllocError> {
        if self.salter.is_some() {
            let Some(id) = self.first_id()?.map_err(AllocError::Store)? else {
                return Ok(None);
            };
            let key = self.key(id);
            if let Some(v) = self.store.get(&key)? {
                if let Slot::Row { id, value } = self.read_entry(&key, v)? {
                    return Ok(Some((id, value)));
                }
            }
        }
        Ok(self.scan(1)?.pop())
    }

    /// The oldest row (largest ID): a `get` of the constant start key. When
    /// that row is absent (deleted, or a hole left by a crashed guarded
    /// client) or burned, it falls back to [`last_key`] over the table's
    /// range (salted: over each bucket's, taking the largest ID), below any
    /// tombstones it meets.
    ///
    /// # Errors
    /// As [`Allocator::newest`].
    pub fn oldest(&self) -> Result<Option<(u64, Vec<u8>)>, AllocError> {
        if let Some(v) = self.store.get(&self.start_key)? {
            if let Slot::Row { id, value } = self.read_entry(&self.start_key, v)? {
                return Ok(Some((id, value)));
            }
        }
        let mut ranges = self.ranges.clone();
        // The row found may be deleted before we read it: search again.
        let mut gone = 0;
        while gone < self.config.max_attempts {
            // The largest key of each range; the largest ID among them.
            let mut best: Option<(u64, usize, Vec<u8>)> = None;
            for (i, range) in ranges.iter().enumerate() {
                if let Some(key) = last_key(&self.store, range)? {
                    let id = self.decode_id(&key)?;
                    if best.as_ref().is_none_or(|b| id > b.0) {
                        best = Some((id, i, key));
                    }
                }
            }
            let Some((_, i, key)) = best else {
                return Ok(None);
            };
            match self.store.get(&key)? {
                None => gone += 1,
                Some(v) => match self.read_entry(&key, v)? {
                    Slot::Row { id, value } => return Ok(Some((id, value))),
                    // Search below the tombstone.
                    Slot::Burned { .. } => ranges[i].end = Some(key),
                },
            }
        }
        Err(AllocError::Contention {
            attempts: self.config.max_attempts,
        })
    }

    /// Up to `limit` rows, newest first. Tombstones are passed over (the
    /// store is read again after them, so `limit` rows come back when the
    /// table has them). Salted, the buckets are scanned and merged
    /// ([`merge_sorted`](crate::store::salt::merge_sorted)): for `limit` rows about `limit / N` (plus a
    /// quarter) of each bucket, and more of a bucket that runs short.
    ///
    /// # Errors
    /// As [`Allocator::newest`], for any key of the scan.
    pub fn scan(&self, limit: usize) -> Result<Vec<(u64, Vec<u8>)>, AllocError> {
        self.scan_after(None, limit)
    }

    /// Like [`Allocator::scan`], for the rows with IDs above `after` only
    /// (all rows when `None`): a reader pages through a table by passing
    /// the last ID of each page.
    ///
    /// ```
    /// use lexikey::store::alloc::{Allocator, AllocatorConfig};
    /// use lexikey::store::salt::{SaltMode, Salter};
    /// use lexikey::{store::MemStore, Component, Format};
    /// let c = AllocatorConfig::new(Format::Hex, &[Component::asc("t")]).with_start(10);
    /// let a = Allocator::new(MemStore::new(), c.with_salt(Salter::new(4, SaltMode::Fast)?))?;
    /// for v in [b"a", b"b", b"c", b"d", b"e"] {
    ///     a.insert(v)?;
    /// }
    /// let page = a.scan_after(None, 2)?;
    /// assert_eq!(page, [(6, b"e".to_vec()), (7, b"d".to_vec())]);
    /// let page = a.scan_after(Some(7), 2)?;
    /// assert_eq!(page, [(8, b"c".to_vec()), (9, b"b".to_vec())]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Allocator::scan`].
    pub fn scan_after(
        &self,
        after: Option<u64>,
        limit: usize,
    ) -> Result<Vec<(u64, Vec<u8>)>, AllocError> {
        let mut out = Vec::new();
        self.walk(after, limit, true, |slot| {
            if let Slot::Row { id, value } = slot {
                out.push((id, value));
            }
        })?;
        Ok(out)
    }

    /// Up to `limit` keys of the table, rows and burned IDs alike, with IDs
    /// above `after` (all when `None`), newest first: the table as stored,
    /// for a reader that wants the tombstones too (pass the last ID of a
    /// page to read the next).
    ///
    /// # Errors
    /// As [`Allocator::scan`].
    pub fn entries(&self, after: Option<u64>, limit: usize) -> Result<Vec<Slot>, AllocError> {
        let mut out = Vec::new();
        self.walk(after, limit, false, |slot| out.push(slot))?;
        Ok(out)
    }

    /// Feeds `take` the table's keys with IDs above `after`, newest first,
    /// until `limit` of them counted (`rows_only`: only rows count; the
    /// burned IDs met on the way are fed too) or the table ends (salted:
    /// [`Allocator::walk_salted`]).
    fn walk(
        &self,
        after: Option<u64>,
        limit: usize,
        rows_only: bool,
        mut take: impl FnMut(Slot),
    ) -> Result<(), AllocError> {
        let counts = |slot: &Slot| !rows_only || matches!(slot, Slot::Row { .. });
        let mut range = self.range.clone();
        if let Some(after) = after {
            let mut k = self.key(after);
            if let Some(s) = &self.salter {
                let _ = k.drain(..s.salt_len());
            }
            k.push(0);
            range.start = Some(k);
        }
        let mut counted = 0;
        let Some(s) = &self.salter else {
            while counted < limit {
                let want = limit - counted;
                let entries = self.store.scan(&range, want)?;
                let full = entries.len() == want;
                let mut last = None;
                for (k, v) in entries {
                    let slot = self.read_entry(&k, v)?;
                    counted += usize::from(counts(&slot));
                    take(slot);
                    last = Some(k);
                }
                match last {
                    Some(mut k) if full => {
                        k.push(0);
                        range.start = Some(k);
                    }
                    _ => break,
                }
            }
            return Ok(());
        };
        self.walk_salted(s, &range, limit, counts, take)
    }

    /// Deletes row `id`; returns whether it existed. Without the guard its
    /// ID may be handed out again if it was the newest. A burned ID is no
    /// row: its tombstone stays (`false`), so the write it stopped can
    /// never land.
    ///
    /// # Errors
    /// [`AllocError::Store`].
    pub fn delete(&self, id: u64) -> Result<bool, AllocError> {
        let key = self.key(id);
        match self.store.get(&key)? {
            None => Ok(false),
            Some(v) if v == BURNED => Ok(false),
            Some(_) => Ok(self.store.delete(&key)?),
        }
    }

    /// The low-water mark: the smallest ID ever reserved (guard on; `None`
    /// when the guard is off or nothing was reserved yet).
    ///
    /// # Errors
    /// [`AllocError::Store`], [`AllocError::CorruptGuard`].
    pub fn low_water_mark(&self) -> Result<Option<u64>, AllocError> {
        let Some(gk) = &self.guard_key else {
            return Ok(None);
        };
        match self.store.get(gk)? {
            None => Ok(None),
            Some(v) => self.parse_guard(&v).map(Some),
        }
    }
}

enum State {
    /// The unsettled put (ID, error), and whether a tombstone for it was
    /// sent with an unknown outcome.
    Plain(Option<(u64, StoreError)>, bool),
    Guarded(Guarded),
}

/// Where a batch stands between attempts.
#[derive(Default)]
struct Batch {
    /// A batch commit whose outcome is unknown: its first ID, its size,
    /// the error.
    pending: Option<(u64, usize, StoreError)>,
    /// Guard on: the LWM value that commit would have set.
    guard: Option<Vec<u8>>,
    /// A tombstone for the first row was sent with an unknown outcome.
    burn_sent: bool,
}

/// Where one attempt of a batch stands.
enum BatchStep {
    Lost,
    Failed(StoreError),
    /// Rows `first` down, `n` of them, are ours.
    Done(u64, usize),
    /// Guard on, a row key taken below the LWM: insert one value alone.
    Skip,
}

impl From<Step> for BatchStep {
    fn from(s: Step) -> Self {
        match s {
            Step::Lost => BatchStep::Lost,
            Step::Failed(e) => BatchStep::Failed(e),
            // Not reached: the steps mapped are those of a read.
            Step::Done(_) => BatchStep::Lost,
        }
    }
}

#[derive(Default)]
struct Guarded {
    /// The ID whose reservation (LWM CAS) we hold.
    reserved: Option<u64>,
    /// The LWM value of a CAS whose outcome is unknown.
    proposed: Option<Vec<u8>>,
    /// The error of a put of `reserved` whose outcome is unknown.
    put_error: Option<StoreError>,
}

/// `"<id> <token>"`: the token (32 hex digits: a per-process random word and
/// a per-process counter) makes every CAS value unique, so that a client can
/// tell whether an ambiguous CAS was its own.
fn guard_value(id: u64) -> Vec<u8> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{id} {:016x}{n:016x}", process_seed()).into_bytes()
}

/// Parses `ID` or `ID TOKEN` (canonical decimal ID, printable token).
fn parse_guard_value(v: &[u8]) -> Option<u64> {
    let (id, token) = match v.iter().position(|&b| b == b' ') {
        Some(i) => (&v[..i], Some(&v[i + 1..])),
        None => (v, None),
    };
    if let Some(t) = token {
        if t.is_empty() || !t.iter().all(u8::is_ascii_graphic) {
            return None;
        }
    }
    if id.is_empty() || !id.iter().all(u8::is_ascii_digit) || (id.len() > 1 && id[0] == b'0') {
        return None;
    }
    std::str::from_utf8(id).ok()?.parse().ok()
}

/// A random word per process, from the clock, the process ID, the thread ID
/// and an address (ASLR).
fn process_seed() -> u64 {
    static SEED: OnceLock<u64> = OnceLock::new();
    *SEED.get_or_init(|| {
        let local = 0u8;
        let mut s = SplitMix(
            time_nanos()
                ^ u64::from(std::process::id()).rotate_left(32)
                ^ thread_hash()
                ^ (&local as *const u8 as u64),
        );
        s.next()
    })
}

fn time_nanos() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

fn thread_hash() -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(std::thread::current().id())
}

/// SplitMix64: a tiny, good-enough generator for backoff jitter.
struct SplitMix(u64);

impl SplitMix {
    fn seeded() -> SplitMix {
        static CALLS: AtomicU64 = AtomicU64::new(0);
        let n = CALLS.fetch_add(1, Ordering::Relaxed);
        SplitMix(process_seed() ^ time_nanos() ^ n.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The largest key in `range`, found with [`Store::first_key`] probes only
/// ("is there a key in `[a, b)`?"), for stores without reverse scans.
///
/// The answer is built byte by byte. With `p` a prefix of the answer (at
/// first empty), one probe of `[p + 00, prefix_end(p))` tells whether a key
/// longer than `p` exists; if none does, `p` is the answer. Otherwise a
/// binary search over the next byte `b` — "is there a key in
/// `[p + b, prefix_end(p))`?" — finds the largest `b` that starts a key, in
/// at most 8 probes (fewer: each key a probe returns raises the lower
/// bound). So at most `1 + 9 × (len + 1)` probes for an answer of `len`
/// bytes, every probe clipped to `range`.
///
/// Not a snapshot: with concurrent writes in the range the answer may be
/// stale; a caller that needs the row `get`s it and searches again if it is
/// gone (as [`Allocator::oldest`] does).
///
/// # Errors
/// The store's errors, and a non-retryable one if the store returns a key
/// outside the probed range.
///
/// ```
/// use lexikey::store::alloc::last_key;
/// use lexikey::store::{MemStore, Store};
/// use lexikey::KeyRange;
/// let s = MemStore::new();
/// for k in [&b"a"[..], b"ab\xFF", b"ab\xFF\x00", b"b"] {
///     s.put_if_absent(k, b"")?;
/// }
/// assert_eq!(last_key(&s, &KeyRange::prefix(b"a"))?, Some(b"ab\xFF\x00".to_vec()));
/// assert_eq!(last_key(&s, &KeyRange::all())?, Some(b"b".to_vec()));
/// assert_eq!(last_key(&s, &KeyRange::prefix(b"c"))?, None);
/// # Ok::<(), lexikey::store::StoreError>(())
/// ```
pub fn last_key<S: Store + ?Sized>(
    store: &S,
    range: &KeyRange,
) -> Result<Option<Vec<u8>>, StoreError> {
    if range.is_empty() {
        return Ok(None);
    }
    let Some(first) = store.first_key(range)? else {
        return Ok(None);
    };
    if !range.contains(&first) {
        return Err(outside());
    }
    let mut p: Vec<u8> = Vec::new();
    // A key of the range that starts with `p`.
    let mut witness = first;
    loop {
        let n = p.len();
        let end = prefix_end(&p);
        // Any key of `range` that starts with `p` and whose byte `n` is >= b.
        let probe = |b: u8| -> Result<Option<Vec<u8>>, StoreError> {
            let mut start = p.clone();
            start.push(b);
            let start = match &range.start {
                Some(s) if *s > start => s.clone(),
                _ => start,
            };
            let end = match (&end, &range.end) {
                (Some(a), Some(r)) => Some(a.min(r).clone()),
                (a, r) => a.clone().or_else(|| r.clone()),
            };
            let r = KeyRange {
                start: Some(start),
                end,
            };
            if r.is_empty() {
                return Ok(None);
            }
            match store.first_key(&r)? {
                None => Ok(None),
                Some(k) if r.contains(&k) && k.len() > n && k.starts_with(&p) && k[n] >= b => {
                    Ok(Some(k))
                }
                Some(_) => Err(outside()),
            }
        };
        let mut lo = if witness.len() > n {
            witness[n]
        } else {
            match probe(0)? {
                None => return Ok(Some(p)),
                Some(k) => {
                    let b = k[n];
                    witness = k;
                    b
                }
            }
        };
        let mut hi = u8::MAX;
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            match probe(mid)? {
                Some(k) => {
                    lo = k[n];
                    hi = hi.max(lo);
                    witness = k;
                }
                None => hi = mid - 1,
            }
        }
        p.push(lo);
    }
}

fn outside() -> StoreError {
    StoreError::fatal(
        "store",
        "first_key returned a key outside the range it was asked for",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_values_parse_strictly() {
        assert_eq!(parse_guard_value(b"0"), Some(0));
        assert_eq!(parse_guard_value(b"18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_guard_value(b"42 00ff"), Some(42));
        for bad in [
            &b""[..],
            b" ",
            b"42 ",
            b"042",
            b"-1",
            b"+1",
            b"18446744073709551616",
            b"4 2 x",
            b"42 \x00",
            b"1e3",
        ] {
            assert_eq!(parse_guard_value(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn guard_values_are_unique_and_parse_back() {
        let a = guard_value(7);
        let b = guard_value(7);
        assert_ne!(a, b, "every CAS value carries its own token");
        assert_eq!(parse_guard_value(&a), Some(7));
        assert_eq!(a.len(), "7 ".len() + 32);
        let threads: Vec<_> = (0..4)
            .map(|_| std::thread::spawn(|| (0..1000).map(|_| guard_value(1)).collect::<Vec<_>>()))
            .collect();
        let mut all = std::collections::HashSet::new();
        for t in threads {
            for v in t.join().expect("thread") {
                assert!(all.insert(v));
            }
        }
    }

    #[test]
    fn jitter_generators_differ() {
        let mut a = SplitMix::seeded();
        let mut b = SplitMix::seeded();
        let xs: Vec<u64> = (0..4).map(|_| a.next()).collect();
        let ys: Vec<u64> = (0..4).map(|_| b.next()).collect();
        assert_ne!(xs, ys);
    }

    #[test]
    fn backoff_stays_under_the_cap() {
        let config = AllocatorConfig::new(Format::Hex, &[Component::asc("t")])
            .with_backoff(Duration::from_micros(10), Duration::from_micros(200));
        let a = Allocator::new(crate::store::MemStore::new(), config).expect("config");
        let mut rng = SplitMix::seeded();
        let t = std::time::Instant::now();
        for retry in 1..=20 {
            a.backoff(&mut rng, retry);
        }
        // 20 sleeps of at most 200 µs each (plus scheduling slack).
        assert!(
            t.elapsed() < Duration::from_millis(200),
            "{:?}",
            t.elapsed()
        );
        let zero = AllocatorConfig::new(Format::Hex, &[Component::asc("t")])
            .with_backoff(Duration::ZERO, Duration::ZERO);
        let a = Allocator::new(crate::store::MemStore::new(), zero).expect("config");
        a.backoff(&mut rng, 63);
    }
}
