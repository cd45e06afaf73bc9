//! Decreasing row IDs for upside-down tables, over any [`Store`].
//!
//! In an *upside-down* table the newest row has the smallest key: "latest
//! first" is a forward scan that stops after one row, and the oldest row sits
//! at a constant key. Row `id` of the table with prefix `P` lives at
//! `tuple::encode(format, P ++ [Component::asc(id)])` — an ascending `u64`,
//! so handing out *decreasing* IDs puts each new row first. In hex:
//!
//! ```
//! use lexikey::alloc::{Allocator, AllocatorConfig};
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
//! # Ok::<(), lexikey::alloc::AllocError>(())
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
//!    as [`AllocError::Store`]. After a failed put the next attempt first
//!    reads the row back (see *Guarantees*).
//!
//! `put_if_absent` is the only arbiter of who owns an ID, so two clients can
//! never both be told the same ID by step 4, whatever the interleaving.
//!
//! # The reuse guard (`guard: true`)
//!
//! Without the guard an ID is free whenever its row is absent: **deleting the
//! newest row lets its ID be handed out again** (step 1 then sees the row
//! before it). With the guard, a *low-water mark* (LWM) key outside the
//! table's range holds the smallest ID ever reserved, and IDs only go down:
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
//! - Without faults, IDs are **contiguous** from `start` down in both modes.
//!   Under the faults below, guard off they stay contiguous (a fault can
//!   leave an orphan row, never a hole); guard on, an ambiguous CAS or a
//!   client killed after its CAS can leave holes.
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
//!     Absent → start over; another value → lost, start over; *our* value →
//!     it may be ours, or another client may have inserted identical bytes
//!     there. The allocator cannot tell, so it returns
//!     [`AllocError::Ambiguous`] with the ID (read the row, decide) unless
//!     [`AllocatorConfig::assume_unique_values`] says values are unique (e.g.
//!     they embed a request ID), in which case it claims the row. One more
//!     limit: a write delayed inside the store that lands *after* the
//!     read-back found nothing leaves an orphan copy of the value.
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
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use crate::error::{DecodeError, EncodeError};
use crate::format::Format;
use crate::range::{prefix_end, KeyRange};
use crate::store::{Store, StoreError};
use crate::text::SEP;
use crate::tuple;
use crate::value::{Component, Field, Type, Value};

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
    /// Every attempt lost to another client or failed with a retryable
    /// store error; nothing was written.
    #[error(
        "gave up after {attempts} attempts: other clients kept winning or the store kept failing"
    )]
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
}

/// How an [`Allocator`] is set up. Build it with [`AllocatorConfig::new`] and
/// the `with_*` methods (or set the public fields).
///
/// ```
/// use lexikey::alloc::AllocatorConfig;
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
            #[cfg(feature = "broken-allocator")]
            broken_skip_read_back: false,
        }
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
/// use lexikey::alloc::default_guard_key;
/// use lexikey::{Component, Format};
/// let p = [Component::asc("comments")];
/// assert_eq!(default_guard_key(Format::Hex, &p)?, b"comments$lwm");
/// assert_eq!(default_guard_key(Format::Binary, &p)?, b"comments\x00");
/// # Ok::<(), lexikey::alloc::AllocError>(())
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

/// Counters of an [`Allocator`], summed over all calls since it was built
/// (a snapshot from [`Allocator::stats`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AllocStats {
    /// Successful inserts.
    pub inserted: u64,
    /// Attempts made by all insert calls, successful or not.
    pub attempts: u64,
    /// Attempts beyond the first of each call (`attempts − calls`).
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
    range: KeyRange,
    /// `enc(P) + "#"` (text, non-empty `P`), `enc(P)` (binary) or empty.
    row_prefix: Vec<u8>,
    schema: Vec<Field>,
    start_key: Vec<u8>,
    guard_key: Option<Vec<u8>>,
    counters: Counters,
}

impl<S> fmt::Debug for Allocator<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Allocator")
            .field("config", &self.config)
            .field("range", &self.range)
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
        }
    }
}

/// Where one attempt of an insert stands.
enum Step {
    /// Try again (after a backoff).
    Retry,
    /// Done.
    Done(u64),
}

impl<S: Store> Allocator<S> {
    /// An allocator for the table `config.prefix` in `store`.
    ///
    /// # Errors
    /// [`AllocError::Encode`] when the prefix does not encode in the format;
    /// [`AllocError::Config`] when `start < floor`, `max_attempts == 0`, or
    /// the guard is on and no guard key outside the table's range exists
    /// (see [`default_guard_key`]) or the one given lies inside it.
    pub fn new(store: S, config: AllocatorConfig) -> Result<Self, AllocError> {
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
        let guard_key = if config.guard {
            let key = match &config.guard_key {
                Some(k) => k.clone(),
                None => default_guard_key(format, &config.prefix)?,
            };
            if key.is_empty() || range.contains(&key) {
                return Err(AllocError::Config(format!(
                    "guard key {} must be non-empty and outside the table's range {range:?}",
                    crate::escape_key(&key)
                )));
            }
            Some(key)
        } else {
            None
        };
        let mut a = Allocator {
            store,
            config,
            range,
            row_prefix,
            schema,
            start_key: Vec::new(),
            guard_key,
            counters: Counters::default(),
        };
        a.start_key = a.key(a.config.start);
        debug_assert!(a.range.contains(&a.start_key));
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

    /// The table's key range, [`tuple::prefix_range`] of the prefix.
    pub fn range(&self) -> &KeyRange {
        &self.range
    }

    /// The low-water-mark key, when the guard is on.
    pub fn guard_key(&self) -> Option<&[u8]> {
        self.guard_key.as_deref()
    }

    /// The key of row `id`: `tuple::encode(format, P ++ [Component::asc(id)])`.
    ///
    /// ```
    /// use lexikey::alloc::{Allocator, AllocatorConfig};
    /// use lexikey::{store::MemStore, Component, Format};
    /// let p = [Component::asc("comments")];
    /// let a = Allocator::new(MemStore::new(), AllocatorConfig::new(Format::Decimal, &p))?;
    /// assert_eq!(a.key(42), b"comments#00000000000000000042");
    /// let a = Allocator::new(MemStore::new(), AllocatorConfig::new(Format::Binary, &p))?;
    /// assert_eq!(a.key(42), b"comments\x00\x01\x00\x00\x00\x00\x00\x00\x00\x2A");
    /// # Ok::<(), lexikey::alloc::AllocError>(())
    /// ```
    pub fn key(&self, id: u64) -> Vec<u8> {
        let mut key = self.row_prefix.clone();
        // An ascending full-width u64 encodes in every format (the decimal
        // width check is the only fallible step, and 20 digits hold u64::MAX).
        self.config
            .format
            .encode_component(&Component::asc(id), &mut key)
            .expect("an ascending u64 encodes in every format");
        key
    }

    /// The constant key of the oldest row (the start ID).
    pub fn start_key(&self) -> &[u8] {
        &self.start_key
    }

    /// The ID of a row key of this table.
    ///
    /// # Errors
    /// [`AllocError::NotInTable`] for a key outside the table's range;
    /// [`AllocError::Corrupt`] for a key inside it that is not a row key
    /// (does not decode with `P's fields ++ [u64]`, or does not re-encode to
    /// itself).
    pub fn decode_id(&self, key: &[u8]) -> Result<u64, AllocError> {
        if !self.range.contains(key) {
            return Err(AllocError::NotInTable { key: key.to_vec() });
        }
        let corrupt = |error| AllocError::Corrupt {
            key: key.to_vec(),
            error,
        };
        let parts = tuple::decode(self.config.format, key, Some(&self.schema)).map_err(corrupt)?;
        let id = match parts.last().map(|c| &c.value) {
            Some(Value::U64(id)) => *id,
            _ => {
                return Err(corrupt(DecodeError::NonCanonical {
                    offset: self.row_prefix.len(),
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
        let mut rng = SplitMix::seeded();
        let mut state = if self.guard_key.is_some() {
            State::Guarded(Guarded::default())
        } else {
            State::Plain(None)
        };
        let max = self.config.max_attempts;
        for attempt in 1..=max {
            if attempt > 1 {
                self.backoff(&mut rng, attempt - 1);
            }
            bump(&self.counters.attempts);
            let step = match &mut state {
                State::Plain(pending) => self.attempt_plain(value, pending),
                State::Guarded(g) => self.attempt_guarded(value, g),
            }?;
            if let Step::Done(id) = step {
                bump(&self.counters.inserted);
                return Ok(Inserted {
                    id,
                    attempts: attempt,
                });
            }
        }
        let unresolved = match state {
            State::Plain(pending) => pending,
            State::Guarded(g) => g.reserved.zip(g.put_error),
        };
        match unresolved {
            Some((id, error)) => Err(AllocError::Ambiguous { id, error }),
            None => Err(AllocError::Contention { attempts: max }),
        }
    }

    /// One attempt without the guard. `pending`: an ID whose put had an
    /// unknown outcome, and the error that made it so.
    fn attempt_plain(
        &self,
        value: &[u8],
        pending: &mut Option<(u64, StoreError)>,
    ) -> Result<Step, AllocError> {
        #[cfg(feature = "broken-allocator")]
        if self.config.broken_skip_read_back {
            // The deliberate bug: no read-back, the write is forgotten.
            *pending = None;
        }
        if let Some((id, _)) = pending {
            let id = *id;
            match self.store.get(&self.key(id)) {
                Ok(Some(v)) if v == value => {
                    let (id, error) = pending.take().expect("pending is Some");
                    if self.config.assume_unique_values {
                        return Ok(Step::Done(id));
                    }
                    return Err(AllocError::Ambiguous { id, error });
                }
                // Absent (our write did not land) or someone else's row.
                Ok(_) => *pending = None,
                Err(e) => return self.retry_or_ambiguous(e, pending),
            }
        }
        // 1. The newest row.
        let first = match self.store.first_key(&self.range) {
            Ok(k) => k,
            Err(e) => return self.retry_or_fail(e),
        };
        // 2. Propose.
        let id = self.propose(first.as_deref().map(|k| self.decode_id(k)).transpose()?)?;
        // 3. Put.
        match self.store.put_if_absent(&self.key(id), value) {
            Ok(true) => Ok(Step::Done(id)),
            Ok(false) => {
                bump(&self.counters.conflicts);
                Ok(Step::Retry)
            }
            Err(e) if e.retryable => {
                bump(&self.counters.store_errors);
                bump(&self.counters.ambiguous);
                *pending = Some((id, e));
                Ok(Step::Retry)
            }
            Err(e) => Err(AllocError::Store(e)),
        }
    }

    /// One attempt with the guard.
    fn attempt_guarded(&self, value: &[u8], g: &mut Guarded) -> Result<Step, AllocError> {
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
                        None => match self.store.first_key(&self.range) {
                            Ok(k) => k.as_deref().map(|k| self.decode_id(k)).transpose()?,
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
                            return Ok(Step::Retry);
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
                                Ok(_) => return Ok(Step::Retry),
                                Err(_) => {
                                    // Resolved by step 1 of the next attempt.
                                    g.proposed = Some(new);
                                    return Ok(Step::Retry);
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
                Ok(Some(v)) if v == value => return Ok(Step::Done(id)),
                Ok(Some(_)) => return Ok(self.skip(g)),
                Ok(None) => {}
                Err(e) if e.retryable => {
                    bump(&self.counters.store_errors);
                    return Ok(Step::Retry);
                }
                Err(e) => return Err(AllocError::Ambiguous { id, error: e }),
            }
        }
        match self.store.put_if_absent(&key, value) {
            Ok(true) => Ok(Step::Done(id)),
            Ok(false) => {
                if g.put_error.is_some() {
                    // An earlier put of ours may have landed.
                    match self.store.get(&key) {
                        Ok(Some(v)) if v == value => return Ok(Step::Done(id)),
                        Ok(_) => {}
                        Err(e) => {
                            return if e.retryable {
                                bump(&self.counters.store_errors);
                                Ok(Step::Retry)
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
                g.put_error = Some(e);
                Ok(Step::Retry)
            }
            // An earlier put of ours may have landed: say so.
            Err(e) if g.put_error.is_some() => Err(AllocError::Ambiguous { id, error: e }),
            Err(e) => Err(AllocError::Store(e)),
        }
    }

    /// Guard on: the reserved ID's row was written by someone else (a
    /// writer without the guard): give the ID up.
    fn skip(&self, g: &mut Guarded) -> Step {
        bump(&self.counters.conflicts);
        bump(&self.counters.skipped);
        g.reserved = None;
        g.put_error = None;
        Step::Retry
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
            Ok(Step::Retry)
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
            return Ok(Step::Retry);
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

    /// The newest row (smallest ID), if any: one forward scan of one row.
    ///
    /// # Errors
    /// [`AllocError::Store`] (retryable or not: reads are not retried here),
    /// [`AllocError::Corrupt`] when the first key is not a row key.
    pub fn newest(&self) -> Result<Option<(u64, Vec<u8>)>, AllocError> {
        let rows = self.store.scan(&self.range, 1)?;
        match rows.into_iter().next() {
            None => Ok(None),
            Some((k, v)) => Ok(Some((self.decode_id(&k)?, v))),
        }
    }

    /// The oldest row (largest ID): a `get` of the constant start key. When
    /// that row is absent (deleted, or a hole left by a crashed guarded
    /// client) it falls back to [`last_key`] over the table's range.
    ///
    /// # Errors
    /// As [`Allocator::newest`].
    pub fn oldest(&self) -> Result<Option<(u64, Vec<u8>)>, AllocError> {
        if let Some(v) = self.store.get(&self.start_key)? {
            return Ok(Some((self.config.start, v)));
        }
        // The row found may be deleted before we read it: search again.
        for _ in 0..self.config.max_attempts {
            let Some(key) = last_key(&self.store, &self.range)? else {
                return Ok(None);
            };
            let id = self.decode_id(&key)?;
            if let Some(v) = self.store.get(&key)? {
                return Ok(Some((id, v)));
            }
        }
        Err(AllocError::Contention {
            attempts: self.config.max_attempts,
        })
    }

    /// Up to `limit` rows, newest first.
    ///
    /// # Errors
    /// As [`Allocator::newest`], for any key of the scan.
    pub fn scan(&self, limit: usize) -> Result<Vec<(u64, Vec<u8>)>, AllocError> {
        self.store
            .scan(&self.range, limit)?
            .into_iter()
            .map(|(k, v)| Ok((self.decode_id(&k)?, v)))
            .collect()
    }

    /// Deletes row `id`; returns whether it existed. Without the guard its
    /// ID may be handed out again if it was the newest.
    ///
    /// # Errors
    /// [`AllocError::Store`].
    pub fn delete(&self, id: u64) -> Result<bool, AllocError> {
        Ok(self.store.delete(&self.key(id))?)
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
    Plain(Option<(u64, StoreError)>),
    Guarded(Guarded),
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
/// use lexikey::alloc::last_key;
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
