//! Opening a store and the allocator of a table from a store URL, with each
//! store's tuning: the one way the command line (`lexikey alloc`, `scan`,
//! `demo`), the Python binding (`lexikey.Allocator`) and the history
//! recorder (`lexikey-history`) set a table up, so that a table behaves the
//! same from each of them.
//!
//! - [`open_store`]: [`open`](crate::open), with an error that names the URL
//!   (its password as `***`) and a store shared as `Arc<dyn Store>`.
//! - [`TableOptions`]: what a client chooses (format, guard, first and
//!   floor ID, salt buckets, key length limit); [`TableOptions::config`]
//!   turns it into the
//!   [`AllocatorConfig`] of a table with the store's tuning applied (see
//!   [`tune`]).
//! - [`open_allocator`]: both, plus the check of the table's row keys
//!   against the limit or the store's key rule; [`table_allocator`] does
//!   the same on a store already open.
//! - [`store_url_from_env`]: the URL in [`STORE_URL_VAR`] (`LEXIKEY_STORE`),
//!   for a client given none (a password stays out of the command line).
//!
//! ```
//! use lexikey_stores::{open_allocator, TableOptions};
//!
//! # fn main() -> Result<(), lexikey_stores::OpenError> {
//! let dir = tempfile::tempdir().unwrap();
//! let url = format!("redb:{}", dir.path().join("events.redb").display());
//! let alloc = open_allocator(&url, "events", &TableOptions::default().with_guard(true))?;
//! assert_eq!(alloc.insert(b"first")?, u64::MAX);
//! assert_eq!(alloc.insert(b"second")?, u64::MAX - 1);
//! // Processes sharing a redb file keep retrying where other stores give up.
//! assert_eq!(alloc.config().max_attempts, lexikey_stores::REDB_MAX_ATTEMPTS);
//!
//! let err = open_allocator("redis://app:hunter22@127.0.0.1:1?timeout_ms=200", "t", &TableOptions::default())
//!     .err()
//!     .unwrap();
//! assert!(err.to_string().starts_with("cannot open store \"redis://app:***@127.0.0.1:1?timeout_ms=200\": "));
//! assert!(!err.to_string().contains("hunter22"));
//! # Ok(()) }
//! ```

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use lexikey::store::alloc::{AllocError, Allocator, AllocatorConfig};
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::store::{Store, StoreError};
use lexikey::{Component, EncodeError, Format};

use crate::features::{missing, missing_feature};
use crate::{parse_url, redact_url, StoreSpec};

/// The environment variable that holds a store URL for a client given none
/// (`lexikey alloc` and `lexikey scan` without `--store`): a URL with a
/// password stays out of the command line, which `ps` shows to every user.
pub const STORE_URL_VAR: &str = "LEXIKEY_STORE";

/// The store URL in [`STORE_URL_VAR`] (`LEXIKEY_STORE`); `None` when it is
/// unset, empty or not valid Unicode.
pub fn store_url_from_env() -> Option<String> {
    std::env::var(STORE_URL_VAR).ok().filter(|u| !u.is_empty())
}

/// Attempts per ID on a `redb:` store (see [`tune`]), instead of the
/// allocator's default 64.
pub const REDB_MAX_ATTEMPTS: u32 = 100_000;

/// The first backoff delay of an allocator on a `redb:` store (see
/// [`tune`]); it doubles on each retry up to [`REDB_BACKOFF_CAP`].
pub const REDB_BACKOFF_BASE: Duration = Duration::from_micros(100);

/// The largest backoff delay of an allocator on a `redb:` store (see
/// [`tune`]).
pub const REDB_BACKOFF_CAP: Duration = Duration::from_millis(5);

/// Applies a store's tuning to an allocator configuration: the one place
/// where a kind of store changes how its tables' allocators behave.
///
/// - `redb:` — [`REDB_MAX_ATTEMPTS`] attempts per ID, backoff from
///   [`REDB_BACKOFF_BASE`] to [`REDB_BACKOFF_CAP`]. Processes sharing a
///   redb file queue for its write lock, and a lost race costs one local
///   read: the only thing retried is a conflict (redb's own errors are
///   fatal). A client that backed off far would keep losing to the ones
///   that just won, so it retries soon and for as long as it takes instead
///   of giving up after the default 64 attempts (with which 4 processes
///   allocating at once on one file see `Contention` errors).
/// - every other store: the allocator's defaults (64 attempts, 500 µs to
///   50 ms). On a server a conflict costs a round trip and a retryable
///   error may be an outage, which a caller should hear about.
///
/// ```
/// use lexikey::store::alloc::AllocatorConfig;
/// use lexikey::{Component, Format};
/// let base = AllocatorConfig::new(Format::Hex, &[Component::asc("t")]);
/// let spec = lexikey_stores::parse_url("redb:/tmp/x.redb").unwrap();
/// let tuned = lexikey_stores::tune(&spec, base.clone());
/// assert_eq!(tuned.max_attempts, lexikey_stores::REDB_MAX_ATTEMPTS);
/// let redis = lexikey_stores::parse_url("redis://127.0.0.1:6379").unwrap();
/// assert_eq!(lexikey_stores::tune(&redis, base.clone()).max_attempts, base.max_attempts);
/// ```
pub fn tune(spec: &StoreSpec, config: AllocatorConfig) -> AllocatorConfig {
    match spec {
        StoreSpec::Redb { .. } => config
            .with_max_attempts(REDB_MAX_ATTEMPTS)
            .with_backoff(REDB_BACKOFF_BASE, REDB_BACKOFF_CAP),
        _ => config,
    }
}

/// How the length of a table's row keys is checked by [`open_allocator`]
/// and [`table_allocator`], before anything is written. Row keys of one
/// table all have one length (the ID is fixed-width in every format), so
/// one check covers every row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeyLimit {
    /// The store's own key rule ([`StoreSpec::key_len_rule`]: `slatedb:`
    /// keys are 1 to 65,535 bytes); no limit on the other stores. The
    /// default, and `lexikey alloc`'s without `--max-key-len`.
    #[default]
    StoreRule,
    /// At most this many bytes, whatever the store's longest key (the
    /// store's shortest key still applies): `lexikey alloc --max-key-len N`.
    Max(usize),
    /// No check: for a reader (`lexikey scan`), which writes nothing.
    Unchecked,
}

/// What a client chooses about a table: its key format, the reuse guard,
/// the first and the smallest ID, the salt, the key length check. Every
/// client of a table should choose the same (but the key length check; a
/// salted table refuses another salt). The defaults are `lexikey alloc`'s:
/// hex keys, no guard, IDs from `u64::MAX` down to 0, no salt, the store's
/// key rule.
///
/// The table named `NAME` holds the rows `(str:NAME, u64:ID)` in the
/// format. Build the options with [`TableOptions::new`] or `default()` and
/// the `with_*` methods:
///
/// ```
/// use lexikey::Format;
/// use lexikey_stores::{KeyLimit, TableOptions};
/// let o = TableOptions::new(Format::Base64).with_guard(true).with_max_key_len(64);
/// assert_eq!((o.format, o.guard, o.key_limit), (Format::Base64, true, KeyLimit::Max(64)));
/// let c = o.config("redb:/tmp/x.redb", "events");
/// assert!(c.guard && c.max_attempts == lexikey_stores::REDB_MAX_ATTEMPTS);
/// // Rows spread over 16 salt buckets (lexikey alloc --salt-buckets 16).
/// let c = TableOptions::default().with_salt_buckets(16).config("memory:", "events");
/// assert_eq!(c.salt.map(|s| s.buckets()), Some(16));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct TableOptions {
    /// The key format of the table's rows (default [`Format::Hex`]).
    pub format: Format,
    /// The reuse guard ([`AllocatorConfig::guard`]): IDs strictly decrease
    /// even when the newest row is deleted. Default `false`.
    pub guard: bool,
    /// The ID of an empty table's first row ([`AllocatorConfig::start`]);
    /// `None`: `u64::MAX`.
    pub start: Option<u64>,
    /// The smallest ID handed out ([`AllocatorConfig::floor`]); `None`: 0.
    pub floor: Option<u64>,
    /// Attempts per call ([`AllocatorConfig::max_attempts`]); `None`: the
    /// store's tuning ([`tune`]), else the allocator's default.
    pub max_attempts: Option<u32>,
    /// [`AllocatorConfig::assume_unique_values`] (default `false`).
    pub assume_unique_values: bool,
    /// Salt buckets ([`AllocatorConfig::salt`]): the rows spread over this
    /// many buckets, 1 to 255; 0 (the default): no salt. A table created
    /// with N buckets refuses to be opened with another N (its salt record,
    /// see `lexikey::store::alloc`).
    pub salt_buckets: u8,
    /// The salt's hash (default [`SaltMode::Fast`]; [`SaltMode::Phoenix`]
    /// for tables Apache Phoenix also reads). Without salt buckets, unused.
    pub salt_mode: SaltMode,
    /// The check of the row keys' length (default [`KeyLimit::StoreRule`]).
    pub key_limit: KeyLimit,
    /// Open the store for reading ([`crate::open_for_reading`]): nothing is
    /// created. A file store (`redb:`, `rocksdb:`, `slatedb:`) must exist,
    /// and `redb:` and `rocksdb:` are opened read-only (a user without
    /// write permission can scan; writes fail); a `redb:` namespace, a
    /// PostgreSQL table, a Bigtable table and its column family must exist
    /// (the error names the missing one). Without
    /// [`TableOptions::salt_buckets`], a salted table is opened with the
    /// salt its salt record names
    /// ([`AllocatorConfig::salt_from_record`]); buckets given must match
    /// it. What reading commands (`lexikey scan`) ask, so that a typo
    /// never creates anything. Default `false`.
    pub existing_only: bool,
}

impl TableOptions {
    /// The defaults, with this key format.
    pub fn new(format: Format) -> Self {
        TableOptions {
            format,
            ..TableOptions::default()
        }
    }

    /// Sets [`TableOptions::existing_only`].
    pub fn with_existing_only(mut self, existing_only: bool) -> Self {
        self.existing_only = existing_only;
        self
    }

    /// Sets [`TableOptions::guard`].
    pub fn with_guard(mut self, guard: bool) -> Self {
        self.guard = guard;
        self
    }

    /// Sets [`TableOptions::start`].
    pub fn with_start(mut self, start: u64) -> Self {
        self.start = Some(start);
        self
    }

    /// Sets [`TableOptions::floor`].
    pub fn with_floor(mut self, floor: u64) -> Self {
        self.floor = Some(floor);
        self
    }

    /// Sets [`TableOptions::max_attempts`], overriding the store's tuning.
    pub fn with_max_attempts(mut self, max_attempts: u32) -> Self {
        self.max_attempts = Some(max_attempts);
        self
    }

    /// Sets [`TableOptions::assume_unique_values`].
    pub fn with_assume_unique_values(mut self, yes: bool) -> Self {
        self.assume_unique_values = yes;
        self
    }

    /// Sets [`TableOptions::salt_buckets`] (0: no salt).
    pub fn with_salt_buckets(mut self, buckets: u8) -> Self {
        self.salt_buckets = buckets;
        self
    }

    /// Sets [`TableOptions::salt_mode`].
    pub fn with_salt_mode(mut self, mode: SaltMode) -> Self {
        self.salt_mode = mode;
        self
    }

    /// The salt of [`TableOptions::salt_buckets`] and
    /// [`TableOptions::salt_mode`], `None` without buckets.
    pub fn salter(&self) -> Option<Salter> {
        Salter::new(self.salt_buckets, self.salt_mode).ok()
    }

    /// Sets [`TableOptions::key_limit`].
    pub fn with_key_limit(mut self, limit: KeyLimit) -> Self {
        self.key_limit = limit;
        self
    }

    /// Sets [`TableOptions::key_limit`] to [`KeyLimit::Max`]`(max)`.
    pub fn with_max_key_len(self, max: usize) -> Self {
        self.with_key_limit(KeyLimit::Max(max))
    }

    /// The allocator configuration of table `table` in the store at `url`:
    /// the allocator's defaults, then the store's tuning ([`tune`]; none
    /// for a URL that does not parse), then these options. A caller may
    /// change it further before [`Allocator::new`].
    pub fn config(&self, url: &str, table: &str) -> AllocatorConfig {
        self.config_of(parse_url(url).ok().as_ref(), table)
    }

    /// [`TableOptions::config`] of a URL parsed already (`None`: it does
    /// not parse).
    fn config_of(&self, spec: Option<&StoreSpec>, table: &str) -> AllocatorConfig {
        let mut c = AllocatorConfig::new(self.format, &[Component::asc(table.to_string())]);
        if let Some(spec) = spec {
            c = tune(spec, c);
        }
        if let Some(n) = self.max_attempts {
            c = c.with_max_attempts(n);
        }
        if let Some(start) = self.start {
            c = c.with_start(start);
        }
        if let Some(floor) = self.floor {
            c = c.with_floor(floor);
        }
        if let Some(salter) = self.salter() {
            c = c.with_salt(salter);
        }
        if self.existing_only {
            c = c.with_salt_from_record(true);
        }
        c.with_guard(self.guard)
            .with_assume_unique_values(self.assume_unique_values)
    }
}

/// Why [`open_store`], [`open_allocator`] or [`table_allocator`] failed.
/// Each message is one line, and shows the URL's password as `***`.
#[derive(Debug)]
#[non_exhaustive]
pub enum OpenError {
    /// The URL does not parse ([`parse_url`]'s error, naming what is
    /// wrong): `cannot open store "URL": ERROR`, as [`OpenError::Store`]
    /// words it. Never retryable. What the bindings raise as a bad
    /// argument (Python's `ValueError`, Java's `IllegalArgumentException`)
    /// where a store that did not open is an I/O error; a URL whose scheme
    /// needs a cargo feature this build lacks is this variant too when it
    /// does not parse (the message names the feature), else
    /// [`OpenError::Store`].
    BadUrl {
        /// The URL, its password as `***` ([`redact_url`]).
        url: String,
        /// The parse error (fatal).
        error: StoreError,
    },
    /// The store did not open: `cannot open store "URL": ERROR`.
    Store {
        /// The URL, its password as `***` ([`redact_url`]).
        url: String,
        /// What opening returned (retryable: a server that may come back).
        error: StoreError,
    },
    /// The allocator refused the configuration (a table name that does not
    /// encode, start below floor, …): the allocator's message.
    Alloc(AllocError),
    /// The store refuses an empty key and the table's row keys are empty:
    /// `row keys of this table are empty: URL refuses an empty key`.
    EmptyKey {
        /// The URL, its password as `***`.
        url: String,
    },
    /// The table's row keys are longer than the limit:
    /// `row keys of this table: ERROR`, followed by ` (a slatedb: store's
    /// key rule)` when the limit is the store's rule.
    KeyTooLong {
        /// The key length error ([`EncodeError::KeyTooLong`]).
        error: EncodeError,
        /// The scheme of the store whose key rule set the limit (`slatedb`);
        /// `None` for [`KeyLimit::Max`].
        rule_of: Option<&'static str>,
    },
}

impl OpenError {
    /// Whether trying again may succeed: a store that could not be reached
    /// (a server down or restarting). Everything else is fatal.
    pub fn retryable(&self) -> bool {
        matches!(self, OpenError::Store { error, .. } if error.retryable)
    }

    /// The store error of [`OpenError::BadUrl`] and [`OpenError::Store`]
    /// (what [`parse_to_open`] and [`open_spec`] return), for the
    /// functions that return a [`StoreError`]; any other variant as a
    /// fatal one with its message.
    pub(crate) fn into_store_error(self) -> StoreError {
        match self {
            OpenError::BadUrl { error, .. } | OpenError::Store { error, .. } => error,
            other => StoreError::fatal(crate::STORE_NAME, other.to_string()),
        }
    }
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::BadUrl { url, error } | OpenError::Store { url, error } => {
                write!(f, "cannot open store {url:?}: {error}")
            }
            OpenError::Alloc(e) => e.fmt(f),
            OpenError::EmptyKey { url } => {
                write!(
                    f,
                    "row keys of this table are empty: {url} refuses an empty key"
                )
            }
            OpenError::KeyTooLong { error, rule_of } => {
                write!(f, "row keys of this table: {error}")?;
                match rule_of {
                    Some(scheme) => write!(f, " (a {scheme}: store's key rule)"),
                    None => Ok(()),
                }
            }
        }
    }
}

/// [`OpenError::Alloc`] is transparent: its message and `source` are the
/// allocator error's. The other messages already hold the error they wrap,
/// so they return no `source` (a chain printer such as `anyhow`'s `{:#}`
/// would show it twice); the wrapped error is a field for callers that
/// need it.
impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::Alloc(e) => e.source(),
            _ => None,
        }
    }
}

impl From<AllocError> for OpenError {
    fn from(e: AllocError) -> Self {
        OpenError::Alloc(e)
    }
}

/// Opens the store a URL names ([`open`](crate::open)), to be shared by the
/// allocators and readers of one process.
///
/// # Errors
/// [`OpenError::BadUrl`] for a URL that does not parse, [`OpenError::Store`]
/// for a store that did not open: `cannot open store "URL": ERROR`, the URL
/// with its password as `***`; [`OpenError::retryable`] when the store
/// could not be reached.
pub fn open_store(url: &str) -> Result<Arc<dyn Store>, OpenError> {
    let spec = parse_to_open(url, false)?;
    Ok(Arc::from(
        open_spec(url, &spec, false).map_err(store_error(url))?,
    ))
}

/// Opens the store at `url` and builds the allocator of table `table` in it,
/// with the store's tuning ([`TableOptions::config`]), after checking the
/// table's row keys ([`TableOptions::key_limit`]). This is what
/// `lexikey alloc` and `lexikey.Allocator` do. The URL is parsed once.
///
/// # Errors
/// The URL does not parse ([`OpenError::BadUrl`]), the store does not open
/// ([`OpenError::Store`]), the allocator refuses the configuration
/// ([`OpenError::Alloc`]), the row keys break the limit
/// ([`OpenError::EmptyKey`], [`OpenError::KeyTooLong`]). Nothing is
/// written to the store before the checks pass.
pub fn open_allocator(
    url: &str,
    table: &str,
    options: &TableOptions,
) -> Result<Allocator<Arc<dyn Store>>, OpenError> {
    let spec = parse_to_open(url, options.existing_only)?;
    // DynamoDB: a salted table's buckets get partitions of their own, once
    // the allocator knows its salt (given, or read from the salt record).
    #[cfg(feature = "dynamodb")]
    if let StoreSpec::Dynamodb(o) = &spec {
        let o = crate::DynamoOptions {
            read_only: options.existing_only,
            ..o.clone()
        };
        let store = Arc::new(crate::DynamoStore::open_with(o).map_err(store_error(url))?);
        let alloc = allocator_on(store.clone(), url, Some(&spec), table, options)?;
        if let Some(salter) = alloc.salter() {
            store.route_buckets(salter, alloc.range());
        }
        return Ok(alloc);
    }
    let store = open_spec(url, &spec, options.existing_only).map_err(store_error(url))?;
    allocator_on(Arc::from(store), url, Some(&spec), table, options)
}

/// [`OpenError::Store`] of the URL (its password as `***`).
fn store_error(url: &str) -> impl FnOnce(StoreError) -> OpenError + '_ {
    move |error| OpenError::Store {
        url: redact_url(url).into_owned(),
        error,
    }
}

/// Parses a URL to open it (`read_only`: [`crate::open_for_reading`]): the
/// one parse of every open path, which then passes the spec down
/// ([`open_spec`], the table's tuning and key rule). In order: a file
/// store to read must exist ([`check_exists`], an [`OpenError::Store`]);
/// a scheme whose cargo feature this build lacks is an error naming it
/// (before the rest of the URL is looked at); then a URL that does not
/// parse is an [`OpenError::BadUrl`].
pub(crate) fn parse_to_open(url: &str, read_only: bool) -> Result<StoreSpec, OpenError> {
    let parsed = parse_url(url);
    if let (true, Ok(spec)) = (read_only, &parsed) {
        check_exists(spec).map_err(store_error(url))?;
    }
    let shown = || redact_url(url).into_owned();
    match (url.split_once(':').and_then(|(s, _)| missing(s)), parsed) {
        (None, Ok(spec)) => Ok(spec),
        (None, Err(error)) => Err(OpenError::BadUrl {
            url: shown(),
            error,
        }),
        (Some(feature), parsed) => {
            let error = missing_feature(url, feature);
            Err(match parsed {
                Ok(_) => OpenError::Store {
                    url: shown(),
                    error,
                },
                Err(_) => OpenError::BadUrl {
                    url: shown(),
                    error,
                },
            })
        }
    }
}

/// Opens the store of a parsed URL (`url`: the text it was parsed from,
/// for messages); `read_only`: creates nothing
/// ([`crate::open_for_reading`]).
///
/// # Errors
/// What opening the store returns; a fatal error for a store whose cargo
/// feature this build lacks.
pub(crate) fn open_spec(
    url: &str,
    spec: &StoreSpec,
    read_only: bool,
) -> Result<Box<dyn Store>, StoreError> {
    // A build without the stores that read-only changes ignores it.
    #[cfg(not(any(
        feature = "redb",
        feature = "rocksdb",
        feature = "postgres",
        feature = "bigtable",
        feature = "dynamodb"
    )))]
    let _ = read_only;
    match spec {
        StoreSpec::Memory { .. } => Ok(Box::new(lexikey::store::MemStore::new())),
        #[cfg(feature = "redb")]
        StoreSpec::Redb { path, options } => {
            let options = crate::RedbOptions {
                read_only,
                ..options.clone()
            };
            Ok(Box::new(crate::RedbStore::open_with(path, options)?))
        }
        #[cfg(feature = "rocksdb")]
        StoreSpec::Rocksdb { path, namespace } if read_only => Ok(Box::new(
            crate::RocksStore::open_read_only(path, namespace)?,
        )),
        #[cfg(feature = "rocksdb")]
        StoreSpec::Rocksdb { path, namespace } => {
            Ok(Box::new(crate::RocksStore::open(path, namespace)?))
        }
        #[cfg(feature = "slatedb")]
        StoreSpec::Slatedb { path, options } => Ok(Box::new(crate::SlateStore::open_with(
            path,
            options.clone(),
        )?)),
        #[cfg(feature = "redis")]
        StoreSpec::Redis(c) => Ok(Box::new(crate::RedisStore::open_parsed(url, c)?)),
        #[cfg(feature = "postgres")]
        StoreSpec::Postgres(c) => Ok(Box::new(crate::PostgresStore::open_parsed(
            url, c, read_only,
        )?)),
        #[cfg(feature = "etcd")]
        StoreSpec::Etcd(options) => Ok(Box::new(crate::EtcdStore::open_checked(options.clone())?)),
        #[cfg(feature = "bigtable")]
        StoreSpec::Bigtable(options) => Ok(Box::new(crate::BigtableStore::open_with(
            crate::BigtableOptions {
                read_only,
                ..options.clone()
            },
        )?)),
        #[cfg(feature = "dynamodb")]
        StoreSpec::Dynamodb(options) => Ok(Box::new(crate::DynamoStore::open_with(
            crate::DynamoOptions {
                read_only,
                ..options.clone()
            },
        )?)),
        // A store whose feature this build lacks (parse_to_open reports it
        // first).
        #[allow(unreachable_patterns)] // every feature on
        spec => Err(missing_feature(url, spec.feature().unwrap_or("?"))),
    }
}

/// Refuses a file store (`redb:`, `rocksdb:`, `slatedb:`) whose path does
/// not exist, or a `slatedb:` directory that holds no database
/// ([`crate::open_for_reading`]); server stores pass (their adapters check
/// their tables when opened read-only).
fn check_exists(spec: &StoreSpec) -> Result<(), StoreError> {
    let (scheme, path) = match spec {
        // On S3: no local path to check (opening checks the bucket).
        StoreSpec::Slatedb { options, .. } if options.s3.is_some() => return Ok(()),
        StoreSpec::Redb { path, .. } => ("redb", path),
        StoreSpec::Rocksdb { path, .. } => ("rocksdb", path),
        StoreSpec::Slatedb { path, .. } => ("slatedb", path),
        _ => return Ok(()),
    };
    let at = std::path::Path::new(path);
    if !at.exists() {
        return Err(StoreError::fatal(
            scheme,
            format!(
                "no store at {path:?}: reading opens existing stores only (lexikey alloc creates \
                 one)"
            ),
        ));
    }
    // A SlateDB directory holds its database in `db/`: opening any other
    // directory would create one there (and the lock file).
    #[cfg(feature = "slatedb")]
    if matches!(spec, StoreSpec::Slatedb { .. }) && !at.join(crate::slatedb_store::DB_PATH).is_dir()
    {
        return Err(StoreError::fatal(
            scheme,
            format!(
                "no SlateDB store in {path:?} (no {}/ inside): reading opens existing stores \
                 only (lexikey alloc creates one)",
                crate::slatedb_store::DB_PATH
            ),
        ));
    }
    Ok(())
}

/// Builds the allocator of table `table` in a store already opened from
/// `url` (see [`open_allocator`]; the URL gives the store's tuning and key
/// rule).
///
/// # Errors
/// As [`open_allocator`], but for opening.
pub fn table_allocator(
    store: Arc<dyn Store>,
    url: &str,
    table: &str,
    options: &TableOptions,
) -> Result<Allocator<Arc<dyn Store>>, OpenError> {
    allocator_on(store, url, parse_url(url).ok().as_ref(), table, options)
}

/// [`table_allocator`] with the URL parsed already (`None`: it does not
/// parse: no tuning, no key rule).
fn allocator_on(
    store: Arc<dyn Store>,
    url: &str,
    spec: Option<&StoreSpec>,
    table: &str,
    options: &TableOptions,
) -> Result<Allocator<Arc<dyn Store>>, OpenError> {
    // An empty name is a slip (an unset variable), never a table anyone
    // meant: every front end refuses it here, in the same words.
    if table.is_empty() {
        return Err(OpenError::Alloc(AllocError::Config(
            "the table name is empty: give a name of 1 or more characters".into(),
        )));
    }
    let alloc = Allocator::new(store, options.config_of(spec, table))?;
    check_row_key(url, spec, options.key_limit, alloc.start_key())?;
    Ok(alloc)
}

/// Checks a table's row key (all of them have its length) against the
/// limit and the key rule of the store `spec` names.
fn check_row_key(
    url: &str,
    spec: Option<&StoreSpec>,
    limit: KeyLimit,
    key: &[u8],
) -> Result<(), OpenError> {
    let rule = spec.and_then(|spec| {
        let (min, max) = spec.key_len_rule()?;
        // The stores with a key rule (`slatedb:`) have schemes named as
        // their cargo features.
        Some((min, max, spec.feature()?))
    });
    let (min, max, rule_of) = match (limit, rule) {
        (KeyLimit::Unchecked, _) | (KeyLimit::StoreRule, None) => return Ok(()),
        (KeyLimit::Max(n), rule) => (rule.map_or(0, |r| r.0), n, None),
        (KeyLimit::StoreRule, Some((min, max, scheme))) => (min, max, Some(scheme)),
    };
    if key.len() < min {
        return Err(OpenError::EmptyKey {
            url: redact_url(url).into_owned(),
        });
    }
    lexikey::tuple::check_len(key, max).map_err(|error| OpenError::KeyTooLong { error, rule_of })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::url::PARSES;

    /// `f`'s result and how many times it parsed a URL.
    fn parses<T>(f: impl FnOnce() -> T) -> (T, usize) {
        PARSES.with(|n| n.set(0));
        let r = f();
        (r, PARSES.with(|n| n.get()))
    }

    #[test]
    fn every_open_path_parses_its_url_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut urls = vec!["memory:?ns=t".to_string()];
        if cfg!(feature = "redb") {
            urls.push(format!("redb:{}", dir.path().join("t.redb").display()));
        }
        for url in &urls {
            let opts = TableOptions::default();
            let (r, n) = parses(|| open_allocator(url, "t", &opts));
            assert!(r.is_ok() && n == 1, "open_allocator {url}: {n} parses");
            let (r, n) =
                parses(|| open_allocator(url, "t", &opts.clone().with_existing_only(true)));
            assert!(
                r.is_ok() && n == 1,
                "open_allocator (reading) {url}: {n} parses"
            );
            let (r, n) = parses(|| open_store(url));
            assert!(r.is_ok() && n == 1, "open_store {url}: {n} parses");
            let (r, n) = parses(|| crate::open(url));
            assert!(r.is_ok() && n == 1, "open {url}: {n} parses");
            let (r, n) = parses(|| crate::open_for_reading(url));
            assert!(r.is_ok() && n == 1, "open_for_reading {url}: {n} parses");
        }
        // A bad URL too: parsed once, refused.
        let (r, n) = parses(|| open_allocator("redb:?ns=a", "t", &TableOptions::default()));
        assert!(matches!(r, Err(OpenError::BadUrl { .. })) && n == 1, "{n}");
    }

    #[test]
    fn open_takes_the_parsed_spec() {
        // The spec decides what opens; the text is only for messages.
        let spec = parse_url("memory:?ns=parsed").unwrap();
        let store = open_spec("shown-only", &spec, false).unwrap();
        assert!(store.put_if_absent(b"k", b"v").unwrap());
        #[cfg(feature = "redb")]
        {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("spec.redb");
            let spec = parse_url(&format!("redb:{}?ns=a&fsync=false", path.display())).unwrap();
            let StoreSpec::Redb { options, .. } = &spec else {
                panic!("{spec}")
            };
            assert!(!options.fsync && !options.multi_process && options.namespace == "a");
            drop(open_spec("redb:x", &spec, false).unwrap());
            assert!(path.exists());
            // Reading the same spec creates nothing: no table `b` appears.
            let other = parse_url(&format!("redb:{}?ns=b", path.display())).unwrap();
            let e = open_spec("redb:x", &other, true).err().unwrap();
            assert!(e.message.contains("\"b\""), "{e}");
        }
    }

    #[test]
    fn a_url_that_does_not_parse_is_bad_url_for_every_scheme() {
        for url in [
            "",
            "nope",
            "nosuch:x",
            "memory:/x",
            "redb:",
            "redb:/tmp/x?fsync=maybe",
            "rocksdb:",
            "rocksdb://x",
            "slatedb:",
            "slatedb:/tmp/x?wait_ms=soon",
            "redis://127.0.0.1:notaport",
            "rediss://h:1?ns=bad%20name",
            "postgres://u@h:0/db",
            "postgresql://u@h/db?sslmode=allow",
            "etcd://host",
            "etcd+https://h:1?timeout_ms=x",
            "bigtable://p",
            "bigtable://p/i?family=.f",
        ] {
            for read_only in [false, true] {
                let opts = TableOptions::default().with_existing_only(read_only);
                let e = open_allocator(url, "t", &opts).err().unwrap();
                let OpenError::BadUrl { error, .. } = &e else {
                    panic!("{url}: {e:?}")
                };
                assert!(!error.retryable && !e.retryable(), "{url}");
                assert!(
                    e.to_string()
                        .starts_with(&format!("cannot open store {url:?}: ")),
                    "{e}"
                );
            }
            let e = open_store(url).err().unwrap();
            assert!(matches!(e, OpenError::BadUrl { .. }), "{url}: {e:?}");
        }
    }

    #[test]
    fn a_store_that_does_not_open_is_store() {
        // Parsed, but nothing there to read.
        let dir = tempfile::tempdir().unwrap();
        let url = format!("redb:{}", dir.path().join("none.redb").display());
        let opts = TableOptions::default().with_existing_only(true);
        let e = open_allocator(&url, "t", &opts).err().unwrap();
        assert!(matches!(e, OpenError::Store { .. }), "{e:?}");
        assert!(e.to_string().contains("no store at"), "{e}");
        // Parsed, but this build lacks the adapter: a store error naming
        // the feature (a bigtable:// URL that does not parse stays BadUrl).
        #[cfg(not(feature = "bigtable"))]
        {
            let e = open_store("bigtable://p/i").err().unwrap();
            assert!(matches!(e, OpenError::Store { .. }), "{e:?}");
            assert!(e.to_string().contains("cargo feature `bigtable`"), "{e}");
            let e = open_store("bigtable://p").err().unwrap();
            assert!(matches!(e, OpenError::BadUrl { .. }), "{e:?}");
            assert!(e.to_string().contains("cargo feature `bigtable`"), "{e}");
        }
    }
}
