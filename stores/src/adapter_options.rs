//! The option structs of the adapters: what each opens with, and what a
//! parsed store URL ([`StoreSpec`](crate::StoreSpec)) holds for its store.
//! They are compiled whatever the cargo features, so that every URL parses
//! in every build; the adapter that takes one needs its feature.

use std::time::Duration;

use crate::secret::Secret;
use crate::url::TlsOptions;

/// Options of a `RedbStore`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedbOptions {
    /// The table that holds this store's keys (the URL's `ns=`), default
    /// [`crate::DEFAULT_NAMESPACE`].
    pub namespace: String,
    /// Sync to disk on every commit (default `true`). With `false`, a commit
    /// survives a crash of the process only once a later durable commit
    /// happened; one in every 1024 commits, `RedbStore::flush` and
    /// dropping the store are durable. Use it in tests that commit a lot
    /// (a durable commit costs 1–2 ms here, a non-durable one 0.3–0.5 ms).
    pub fsync: bool,
    /// Let several processes open the database at once, each writing (the
    /// URL's `processes=many`; redb's `ConcurrencyMode::MultiWriter`, file
    /// byte-range locks; Linux, macOS, Windows). Write transactions stay
    /// one at a time across all processes (a writer waits for the one
    /// before it), so put-if-absent stays atomic. Needs `fsync: true` (a
    /// non-durable commit would be invisible to the other processes).
    /// Default `true`; with `false` (`processes=one`) the process holds the
    /// file alone while it has it open, and other opens wait for it (see
    /// `lock_timeout`).
    pub multi_process: bool,
    /// Open the file for reading only (`RedbStore::open_read_only`): it
    /// must exist, nothing is written to it (not even a missing table), a
    /// user without write permission can read it, and every write fails.
    /// Default `false`.
    pub read_only: bool,
    /// How long opening waits while another process holds the file alone
    /// (it opened with `multi_process: false`) before it fails (the URL's
    /// `lock_timeout_ms=`); default [`crate::DEFAULT_LOCK_TIMEOUT`].
    pub lock_timeout: Duration,
}

impl Default for RedbOptions {
    fn default() -> Self {
        RedbOptions {
            namespace: crate::DEFAULT_NAMESPACE.to_string(),
            fsync: true,
            multi_process: true,
            lock_timeout: crate::DEFAULT_LOCK_TIMEOUT,
            read_only: false,
        }
    }
}

/// Options of a `SlateStore`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlateOptions {
    /// The namespace (the URL's `ns=`): keys live under the prefix `NS/`.
    pub namespace: String,
    /// How long opening waits for another process's writer lock (the
    /// URL's `wait_ms=`), default [`DEFAULT_SLATEDB_WAIT`](crate::DEFAULT_SLATEDB_WAIT) (30 s). Zero:
    /// fail at once.
    pub wait: Duration,
    /// `Some`: the database is on S3 (a `slatedb:s3://BUCKET/PREFIX` URL),
    /// not in a local directory.
    pub s3: Option<SlateS3>,
}

impl Default for SlateOptions {
    fn default() -> Self {
        SlateOptions {
            namespace: crate::DEFAULT_NAMESPACE.to_string(),
            wait: crate::DEFAULT_SLATEDB_WAIT,
            s3: None,
        }
    }
}

/// Where a SlateDB database on S3 lives: the fields of a
/// `slatedb:s3://BUCKET/PREFIX?endpoint=URL&region=REGION` URL. The
/// credentials are not here: they come from the environment
/// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, and `AWS_SESSION_TOKEN`
/// when set) when the store is opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlateS3 {
    /// The bucket (it must exist: the adapter does not create it).
    pub bucket: String,
    /// The key prefix of the database's objects inside the bucket, without
    /// a leading or trailing `/` (empty: the bucket's root).
    pub prefix: String,
    /// The S3 endpoint, `http://HOST:PORT` or `https://…` (the URL's
    /// `endpoint=`; `None`: AWS's own endpoint of the region).
    pub endpoint: Option<String>,
    /// The region (the URL's `region=`; `None`: `AWS_REGION`, else
    /// `AWS_DEFAULT_REGION`, else `us-east-1`, when opened).
    pub region: Option<String>,
}

/// Options of an `EtcdStore`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EtcdOptions {
    /// Client endpoints, `HOST:PORT`, tried in order.
    pub endpoints: Vec<String>,
    /// Key prefix `NS/` of this store's keys (the URL's `ns=`).
    pub namespace: String,
    /// Bound on one HTTP request, connect included (default 5 s; the URL's
    /// `timeout_ms=`). Keep it above etcd's election time (~1–3 s on
    /// loopback) so that writes wait out an election instead of failing.
    pub timeout: Duration,
    /// The etcd user to authenticate as (`None`: `ETCDCTL_USER`, else no
    /// authentication).
    pub user: Option<String>,
    /// The user's password (`None`: from `ETCDCTL_USER=USER:PASSWORD` or
    /// `ETCDCTL_PASSWORD`).
    pub password: Option<Secret>,
    /// `Some`: HTTPS (the URL scheme `etcd+https://`), trusting `ca` (else
    /// `ETCDCTL_CACERT`, else the Mozilla roots of `webpki-roots`), with the
    /// client certificate `cert`/`key` (else `ETCDCTL_CERT`/`ETCDCTL_KEY`).
    /// `None`: plain HTTP.
    pub tls: Option<TlsOptions>,
}

/// What a `BigtableStore` opens (the fields of a `bigtable://` URL).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BigtableOptions {
    /// The Google Cloud project ID.
    pub project: String,
    /// The Bigtable instance ID.
    pub instance: String,
    /// The table ID (the URL's `ns=`), created when missing.
    pub table: String,
    /// The column family of the value cells (the URL's `family=`, default
    /// `f`), created when missing.
    pub family: String,
    /// Bound on one request (the URL's `timeout_ms=`).
    pub timeout: Duration,
    /// The app profile of data requests (`None`: the default profile).
    pub app_profile: Option<String>,
    /// The emulator's `HOST:PORT` (`None`: `BIGTABLE_EMULATOR_HOST`, else
    /// Cloud Bigtable).
    pub emulator: Option<String>,
    /// Open an existing table only ([`crate::open_for_reading`]): a missing
    /// table or column family is a fatal error naming it (and the tables
    /// the instance has, or the table's families), and nothing is created.
    /// Needs only `bigtable.tables.get` (and `.list` for the names).
    pub read_only: bool,
}

/// What a `DynamoStore` opens (the fields of a `dynamodb://` URL).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynamoOptions {
    /// The DynamoDB table (the URL's `TABLE`), created when missing.
    pub table: String,
    /// The partition key value of the store's keys (the URL's `ns=`,
    /// default `lexikey`).
    pub namespace: String,
    /// The endpoint URL (`endpoint=http://HOST:PORT`: dynalite, DynamoDB
    /// Local); `None`: AWS's regional endpoint.
    pub endpoint: Option<String>,
    /// The AWS region (`region=`); `None`: the SDK's region chain.
    pub region: Option<String>,
    /// Bound on one request and on connecting (the URL's `timeout_ms=`).
    pub timeout: Duration,
    /// Open an existing table only ([`crate::open_for_reading`]): a
    /// missing table is an error, nothing is created.
    pub read_only: bool,
}
