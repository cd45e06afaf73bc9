//! # lexikey-stores — real stores for lexikey
//!
//! Adapters that implement [`lexikey::store::Store`] (first key in a range,
//! put-if-absent, compare-and-swap, get, scan, delete) on real ordered
//! key-value stores. Every adapter compares keys as unsigned bytes,
//! lexicographically, and passes the same conformance suite
//! (`stores/tests/conformance.rs`).
//!
//! | feature | store | adapter | put-if-absent | first key in `[a, b)` |
//! |---|---|---|---|---|
//! | `redb` (default) | redb, embedded, pure Rust | [`RedbStore`] | one write transaction at a time: get, insert, commit | table `range(a..b)` |
//! | `rocksdb` | RocksDB (Debian's `librocksdb-dev`) | [`RocksStore`] | `OptimisticTransactionDB`: `get_for_update`, put, commit; `Busy` → retried | iterator with `iterate_upper_bound` |
//! | `slatedb` | SlateDB 0.18 on the local filesystem | [`SlateStore`] | `DbTransaction` (snapshot isolation): get, put, commit, then wait until durable; a conflict → retried | forward `scan(start..end)` |
//! | `redis` | Redis 7 | [`RedisStore`] | Lua: `ZADD NX` + `HSET` in one step | `ZRANGE z [a (b BYLEX LIMIT 0 1` |
//! | `postgres` | PostgreSQL | [`PostgresStore`] | `INSERT … ON CONFLICT DO NOTHING` | `SELECT k … WHERE k >= $1 AND k < $2 ORDER BY k LIMIT 1` |
//! | `etcd` | etcd v3 (JSON gateway) | [`EtcdStore`] | txn `create_revision(k) == 0` → put | range `key`/`range_end`, `limit 1` |
//! | `bigtable` | Cloud Bigtable, or its emulator (gRPC) | `BigtableStore` | one `CheckAndMutateRow`: the cell absent → the false branch writes it | `ReadRows` `[a, b)`, `rows_limit 1`, keys only |
//! | `dynamodb` | Amazon DynamoDB, dynalite, DynamoDB Local (AWS SDK for Rust) | `DynamoStore` | `PutItem` with `attribute_not_exists(sk)` | `Query` of the partition, `sk >= a`, `Limit 1` (kept when below `b`) |
//!
//! `all-servers` turns on every adapter but the default one (`redis`,
//! `postgres`, `etcd`, `rocksdb`, `slatedb`, `bigtable`, `dynamodb`). The default build has no server
//! dependency and no C library.
//!
//! ## Cargo features
//!
//! The store features are listed once, here (`stores/Cargo.toml`, and
//! [`STORE_FEATURES`] for the code): one feature per adapter, the groups
//! `all-servers` (every adapter) and `default-servers` (`redis`,
//! `postgres`, `etcd`: the pure-Rust server clients). Every front end —
//! the command line (`cli/`), Python (`python/`), Java (`java/`) and the
//! history recorder (`history/`) — takes the same set under the same names,
//! each forwarded to this crate, `default-servers` on by default: `cargo
//! install --path cli --features bigtable`, `MATURIN_PEP517_ARGS="--features
//! slatedb" pip install ./python`, `--features all-servers` on any of them.
//! Cargo wants each front end to declare the features it forwards, so each
//! `[features]` holds a generated block, which `stores/tests/features.rs`
//! checks against this crate's list. Adding a store therefore means: its
//! adapter and feature here (and in [`STORE_FEATURES`], `all-servers`, the
//! scheme in `src/features.rs`), then `UPDATE_FEATURES=1 cargo test -p
//! lexikey-stores --test features` to rewrite the front ends' blocks.
//! `scripts/lib.sh`'s `LEXIKEY_FEATURES` turns `all-servers` on in every
//! front end, so the test build compiles this crate once, with every
//! adapter, for all of them. `lexikey --version` names the stores of the
//! build ([`compiled_stores`]).
//!
//! ## Store URLs
//!
//! [`open`] turns a URL into a store; [`parse_url`] only parses it (no I/O)
//! into a [`StoreSpec`], which renders back as a canonical URL. Every way
//! to open a store ([`open`], [`open_for_reading`], [`open_store`],
//! [`open_allocator`]) parses its URL once and passes the spec down: each
//! store's variant holds the option struct its adapter opens with
//! ([`RedbOptions`], [`SlateOptions`], [`EtcdOptions`], [`BigtableOptions`],
//! [`ClientUrl`]), and a URL that does not parse is [`OpenError::BadUrl`],
//! what the bindings raise as a bad argument (`ValueError`,
//! `IllegalArgumentException`) where a store that does not open is an I/O
//! error.
//!
//!
//! | URL | store |
//! |---|---|
//! | `memory:` | [`lexikey::store::MemStore`] (nothing persisted) |
//! | `redb:PATH` | redb database file `PATH` (created if missing) |
//! | `rocksdb:PATH` | RocksDB directory `PATH` (created if missing) |
//! | `slatedb:PATH` | SlateDB database in directory `PATH` (the object-store root; created if missing); one writer process at a time |
//! | `slatedb:s3://BUCKET/PREFIX?endpoint=URL&region=REGION` | SlateDB database on S3 under `PREFIX/` (the bucket must exist; `endpoint=` an S3-compatible server such as moto's, else AWS; credentials from `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`); one writer process at a time, by a lease object |
//! | `redis://[USER:PASSWORD@]HOST:PORT[/DB]` | Redis server (`rediss://`: TLS) |
//! | `postgres://USER[:PASSWORD]@HOST:PORT/DB` (or `postgresql://`) | PostgreSQL server (`sslmode=`: TLS) |
//! | `etcd://[USER:PASSWORD@]HOST:PORT[,HOST:PORT…]` | etcd cluster (plain HTTP; `etcd+https://`: TLS); fails over between endpoints |
//! | `bigtable://PROJECT/INSTANCE` | Cloud Bigtable over TLS with Application Default Credentials, or the emulator at `emulator=HOST:PORT` or `$BIGTABLE_EMULATOR_HOST`; table `ns=` and its column family `family=` created when missing |
//! | `dynamodb://TABLE?endpoint=http://HOST:PORT&region=REGION` | a DynamoDB table (created when missing, on-demand capacity) in lexikey's layout ([`lexikey::range::render::dynamodb`]): `ns=` is the partition key value; credentials from the AWS SDK's chain; no `endpoint=`: AWS's |
//!
//! What [`open`] creates when missing (a file, a directory, a table, a
//! column family) [`open_for_reading`] never creates: there a missing one
//! is an error naming it.
//!
//! Options follow a `?` as `name=value` pairs joined by `&`:
//!
//! - `ns=NAME` — the namespace, default `lexikey` ([`DEFAULT_NAMESPACE`]).
//!   Stores with different namespaces never see each other's keys: it is the
//!   redb table name, the Redis sorted-set name (values in the hash
//!   `NAME:values`), the PostgreSQL table name, the Bigtable table ID (row
//!   keys are the keys themselves), and a key prefix `NAME/` in
//!   etcd, RocksDB and SlateDB. A name is 1–48 characters of `A–Z a–z 0–9 _ . -`.
//! - `fsync=false` (redb only) — do not sync to disk on every commit (see
//!   [`RedbOptions::fsync`]); for tests and bulk loads.
//! - `processes=many|one` (redb only) — whether several processes may open
//!   the file at once, their writes queued (see
//!   [`RedbOptions::multi_process`]); default `many`, and `one` with
//!   `fsync=false`. A process that holds the file alone makes other opens
//!   wait.
//! - `lock_timeout_ms=N` (redb only) — how long an open waits for a process
//!   that holds the file alone, default 10000; only then is it an error
//!   (naming this option).
//! - `wait_ms=N` (slatedb only) — how long opening waits for another
//!   process that holds the database's writer lock (on S3: its lease),
//!   default 30000; then the open fails, naming the lock (see
//!   [`SlateStore`]).
//! - `endpoint=URL`, `region=REGION` (`slatedb:s3://` only) — the S3
//!   endpoint (`http://HOST:PORT` or `https://…`; default AWS's) and region
//!   (default `AWS_REGION`, `AWS_DEFAULT_REGION`, else `us-east-1`).
//! - `timeout_ms=N` (etcd, redis, postgres, bigtable) — bound on one request / connect,
//!   default 5000.
//! - `family=F`, `app_profile=ID`, `emulator=HOST:PORT` (bigtable only) —
//!   the column family (default `f`), the app profile of data requests,
//!   the emulator to use (see `BigtableStore`).
//! - TLS: `cacert=`, `cert=`, `key=` (PEM files; `rediss://`,
//!   `etcd+https://`), and PostgreSQL's `sslmode=`, `sslrootcert=`,
//!   `sslcert=`, `sslkey=` (see [`TlsOptions`] and each adapter's docs for
//!   the environment variables they also read).
//! - any other option of a `postgres://` or `redis://` URL is passed to its
//!   client library unchanged.
//!
//! ## Secrets
//!
//! A password in a URL is never shown: every error message, `Display` and
//! `Debug` of [`StoreSpec`] and [`ClientUrl`], and [`StoreSpec::to_url`]
//! print it as `***` (see [`redact_url`]); [`StoreSpec::connect_url`] is the
//! explicit way to get it back, for connecting.
//!
//! ```
//! # fn main() -> Result<(), lexikey::store::StoreError> {
//! let dir = tempfile::tempdir().unwrap();
//! let url = format!("redb:{}?ns=comments&fsync=false", dir.path().join("db.redb").display());
//! let store = lexikey_stores::open(&url)?;
//! assert!(store.put_if_absent(b"k1", b"v")?);
//! assert!(!store.put_if_absent(b"k1", b"w")?);
//! assert_eq!(store.get(b"k1")?, Some(b"v".to_vec()));
//! assert!(lexikey_stores::open("nosuch:x").is_err());
//! # Ok(()) }
//! ```
//!
//! ## Tables and their allocators
//!
//! [`open_allocator`] opens a store from its URL and builds the allocator
//! of one table in it with that store's tuning ([`tune`]: processes
//! sharing a `redb:` file retry where a server's clients give up) and the
//! store's key rule: what `lexikey alloc`, Python's `lexikey.Allocator` and
//! the history recorder all call, so a table behaves the same from each
//! (see [`TableOptions`], [`open_store`], [`store_url_from_env`]).
//!
//! ## Errors and retries
//!
//! Every adapter maps failures to [`StoreError`]. `retryable` is set for
//! lost connections, timeouts, leader elections and optimistic-transaction
//! conflicts the adapter gave up on. A retryable error from a **write**
//! (`put_if_absent`, `compare_and_swap`, `delete`) of a server store means
//! the outcome is unknown: the request may have been applied before the
//! connection broke. Adapters therefore never resend a write that may have
//! reached the server (that would turn "I wrote it" into "it already
//! exists"); they only fail over when the request provably was not sent
//! (connection refused).

//! ## Code layout
//!
//! `lib.rs` is the crate's front (these docs, the modules, the re-exports,
//! [`open`]); `url.rs` parses a store URL into a [`StoreSpec`] (with
//! `options.rs`, its `?name=value` options and namespaces, and
//! `secret.rs`, the passwords it hides); `adapter_options.rs` holds the
//! adapters' option structs; `open.rs` opens a parsed URL and the
//! allocator of a table; `features.rs` says which adapters this build has;
//! one `*_store.rs` per adapter (`tls.rs`, `pool.rs`, `prefix.rs`,
//! `retry.rs`: what several of them share).

use lexikey::store::{Store, StoreError};

mod adapter_options;
mod features;
mod open;
mod options;
mod pool;
mod prefix;
mod retry;
mod secret;
#[cfg(any(
    feature = "redis",
    feature = "postgres",
    feature = "etcd",
    feature = "slatedb"
))]
mod tls;
mod url;

#[cfg(feature = "bigtable")]
mod bigtable_store;
#[cfg(feature = "dynamodb")]
mod dynamodb_store;
#[cfg(feature = "etcd")]
mod etcd_store;
#[cfg(feature = "postgres")]
mod postgres_store;
#[cfg(feature = "redb")]
mod redb_store;
#[cfg(feature = "redis")]
mod redis_store;
#[cfg(feature = "rocksdb")]
mod rocksdb_store;
#[cfg(feature = "slatedb")]
mod slatedb_s3;
#[cfg(feature = "slatedb")]
mod slatedb_store;

pub use adapter_options::{
    BigtableOptions, DynamoOptions, EtcdOptions, RedbOptions, SlateOptions, SlateS3,
};
#[cfg(feature = "bigtable")]
pub use bigtable_store::{BigtableStore, EMULATOR_HOST_VAR};
#[cfg(feature = "dynamodb")]
pub use dynamodb_store::DynamoStore;
#[cfg(feature = "etcd")]
pub use etcd_store::EtcdStore;
#[cfg(feature = "postgres")]
pub use postgres_store::PostgresStore;
#[cfg(feature = "redb")]
pub use redb_store::RedbStore;
#[cfg(feature = "redis")]
pub use redis_store::RedisStore;
#[cfg(feature = "rocksdb")]
pub use rocksdb_store::RocksStore;
#[cfg(feature = "slatedb")]
pub use slatedb_store::{SlateStore, LOCK_FILE};

pub use features::{compiled_stores, STORE_FEATURES};
pub use open::{
    open_allocator, open_store, store_url_from_env, table_allocator, tune, KeyLimit, OpenError,
    TableOptions, REDB_BACKOFF_BASE, REDB_BACKOFF_CAP, REDB_MAX_ATTEMPTS, STORE_URL_VAR,
};
pub use options::{check_namespace, DEFAULT_NAMESPACE};
pub use secret::{redact_url, Secret, MIN_SCRUBBED_LEN, REDACTED};
pub use url::{
    parse_url, ClientUrl, StoreSpec, TlsOptions, BIGTABLE_KEY_LEN, DEFAULT_BIGTABLE_FAMILY,
    DEFAULT_LOCK_TIMEOUT, DEFAULT_SLATEDB_WAIT, DEFAULT_TIMEOUT, DYNAMODB_KEY_LEN, SLATEDB_KEY_LEN,
};

/// The name of this crate's own errors (bad URL, missing feature) in
/// [`StoreError::store`].
pub const STORE_NAME: &str = "lexikey-stores";

/// Opens the store a URL names (see the [crate docs](crate#store-urls) for
/// the syntax): [`parse_url`], then open or connect.
///
/// # Errors
/// A fatal [`StoreError`] for a URL that does not parse, an unknown scheme
/// or option, an invalid namespace, or a scheme whose cargo feature this
/// build lacks; otherwise whatever opening the store returns (for servers:
/// a retryable error when the server cannot be reached).
pub fn open(url: &str) -> Result<Box<dyn Store>, StoreError> {
    let spec = open::parse_to_open(url, false).map_err(OpenError::into_store_error)?;
    open::open_spec(url, &spec, false)
}

/// Opens the store a URL names for reading, as [`open`] does, but
/// **creates nothing**: no file, directory, table, column family or
/// namespace. What reading commands (`lexikey scan`, `Allocator(...,
/// read_only=True)`) do, so that a typo in a URL or a table name is an
/// error instead of a new, empty store that reads as empty.
///
/// - `redb:` — the file must exist and hold the namespace's table (the
///   error lists the namespaces there); opened read-only (a user without
///   write permission can read it; writes fail).
/// - `rocksdb:` — the directory must exist; opened read-only (beside a
///   writing process, reading what was written when it opened). The
///   namespace is a key prefix: nothing to create or check.
/// - `slatedb:` — the directory must exist and hold a database (`db/`);
///   then it opens as with [`open`].
/// - `postgres:` — the table `ns=` must exist in the database's current
///   schema (the error lists the tables there).
/// - `bigtable:` — the table `ns=` and its column family `family=` must
///   exist (the error lists the instance's tables, or the table's
///   families); a wrong project or instance shows as an instance without
///   tables on the emulator.
/// - `redis:`, `etcd:` — the namespace is a key prefix: opening writes
///   nothing, as with [`open`].
///
/// # Errors
/// As [`open`], and a fatal [`StoreError`] naming what is missing.
pub fn open_for_reading(url: &str) -> Result<Box<dyn Store>, StoreError> {
    let spec = open::parse_to_open(url, true).map_err(OpenError::into_store_error)?;
    open::open_spec(url, &spec, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(url: &str) -> String {
        match open(url) {
            Ok(_) => panic!("{url} opened"),
            Err(e) => {
                assert!(!e.retryable, "{url}: {e}");
                e.to_string()
            }
        }
    }

    #[test]
    fn memory_url() {
        let s = open("memory:").unwrap();
        assert!(s.put_if_absent(b"a", b"1").unwrap());
        assert!(open("memory:?ns=x").is_ok());
    }

    #[test]
    fn bad_urls_are_errors_not_panics() {
        for url in [
            "",
            ":",
            "nope",
            "nosuch:x",
            "memory:/x",
            "memory:?zz=1",
            "redb:",
            "redb:?ns=a",
            "redb:/tmp/x?ns=",
            "redb:/tmp/x?ns=a/b",
            "redb:/tmp/x?fsync=maybe",
            "redb:/tmp/x?what=1",
            "redb:/tmp/x?processes=2",
            "redb:/tmp/x?processes=many&fsync=false",
            "redb:/tmp/x?ns",
            "rocksdb:",
            "slatedb:",
            "slatedb:?ns=a",
            "slatedb:/tmp/x?wait_ms=soon",
            "slatedb:/tmp/x?ns=a/b",
            "etcd://",
            "etcd://host",
            "etcd://127.0.0.1:notaport",
            "etcd://127.0.0.1:1?timeout_ms=x",
            "redis://127.0.0.1:1?ns=bad%20name",
            "postgres://127.0.0.1:1/db?ns=",
            "\u{0}:\u{ff}",
        ] {
            let msg = err(url);
            assert!(!msg.is_empty());
        }
        assert!(err("nosuch:x").contains("unknown scheme"));
        assert!(err("redb:/tmp/x?what=1").contains("what"));
    }

    #[test]
    fn namespace_syntax() {
        assert!(check_namespace("lexikey").is_ok());
        assert!(check_namespace("a-b.c_D9").is_ok());
        for bad in ["", "a/b", "a b", "a:b", "é", &"x".repeat(49)] {
            assert!(check_namespace(bad).is_err(), "{bad:?}");
        }
    }
}
