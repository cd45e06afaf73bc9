//! Store URLs, parsed once and without I/O: [`parse_url`] → [`StoreSpec`],
//! which holds each adapter's own option struct; [`bad_url`], the error of
//! a URL that does not parse.

use std::fmt;
use std::time::Duration;

use lexikey::store::StoreError;

use crate::adapter_options::{
    BigtableOptions, DynamoOptions, EtcdOptions, RedbOptions, SlateOptions, SlateS3,
};
use crate::options::{split, Options};
use crate::secret::{percent_decode, percent_encode, Scrub, Secret, REDACTED};
use crate::{redact_url, STORE_NAME};

/// A fatal error about a URL, naming the URL and what is wrong with it
/// (the URL's secrets hidden in both): `bad store URL `URL`: WHY`.
pub(crate) fn bad_url(url: &str, why: impl fmt::Display) -> StoreError {
    let why = Scrub::of_url(url).scrub(&why.to_string());
    StoreError::fatal(
        STORE_NAME,
        format!("bad store URL `{}`: {why}", redact_url(url)),
    )
}

/// The bound on one request / connect when a URL has no `timeout_ms=`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(5000);

/// How long opening a `slatedb:` store waits for another process's writer
/// lock when the URL has no `wait_ms=`.
pub const DEFAULT_SLATEDB_WAIT: Duration = Duration::from_secs(30);

/// SlateDB's key rule, `(shortest, longest)` in bytes: keys of 1 to 65,535
/// bytes, as its data-modeling guide has them (an empty key is refused).
pub const SLATEDB_KEY_LEN: (usize, usize) = (1, 65_535);
/// Cloud Bigtable's row key rule, `(shortest, longest)` in bytes: a row key
/// is 1 to 4,096 bytes (4 KiB, Cloud Bigtable's documented limit). The
/// emulator takes longer keys; the adapter refuses them as Cloud would.
pub const BIGTABLE_KEY_LEN: (usize, usize) = (1, 4096);
/// DynamoDB's key rule, `(shortest, longest)` in bytes: the key is the
/// binary sort key, 1 to 1,024 bytes (DynamoDB's documented sort key
/// limit).
pub const DYNAMODB_KEY_LEN: (usize, usize) = (1, 1024);

/// The column family of a `bigtable://` URL without `family=`.
pub const DEFAULT_BIGTABLE_FAMILY: &str = "f";

/// How long opening a `redb:` file waits for a process that holds it alone
/// when the URL has no `lock_timeout_ms=`.
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_millis(10_000);

/// Why redb refuses `processes=many` with `fsync=false`.
pub(crate) const MULTI_PROCESS_NEEDS_FSYNC: &str =
    "several processes (processes=many) need fsync on every commit";

/// What a store URL names: everything [`open`](crate::open) needs, parsed
/// and checked by [`parse_url`] without touching a file or the network.
/// Each store's variant holds the option struct its adapter opens with
/// (the URL's `ns=` is its namespace, or Bigtable's table), so opening
/// reads nothing from the URL again.
///
/// [`StoreSpec::to_url`] renders it back as a canonical URL (every option
/// spelled out) with any password shown as `***`, for messages;
/// [`StoreSpec::connect_url`] renders the same URL with the password, for
/// connecting, and parses to the same spec. `Debug` and `Display` never
/// show a password (see [`redact_url`](crate::redact_url)).
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreSpec {
    /// `memory:` — a [`lexikey::store::MemStore`].
    Memory {
        /// `ns=` (checked, then ignored: a memory store is one namespace).
        namespace: String,
    },
    /// `redb:PATH`.
    Redb {
        /// The database file (never empty; holds no `?`).
        path: String,
        /// `ns=` (the table name), `fsync=` (default `true`),
        /// `processes=many` (the default with fsync on) or `one` (the
        /// default, and the only choice, with `fsync=false`),
        /// `lock_timeout_ms=` (default [`DEFAULT_LOCK_TIMEOUT`]);
        /// [`RedbOptions::read_only`] is `false` (reading sets it).
        options: RedbOptions,
    },
    /// `rocksdb:PATH`.
    Rocksdb {
        /// The database directory (never empty; holds no `?`).
        path: String,
        /// `ns=`: the key prefix `NS/`.
        namespace: String,
    },
    /// `slatedb:PATH`.
    Slatedb {
        /// The object-store root directory (never empty; holds no `?`).
        path: String,
        /// `ns=` (the key prefix `NS/`) and `wait_ms=` (how long opening
        /// waits for another process's writer lock, default 30,000 ms).
        options: SlateOptions,
    },
    /// `redis://…` or `rediss://…` (TLS; `ns=`: the sorted-set name). The
    /// client part (`base`, `options`) is checked by the `redis` crate
    /// when the store is opened, not here.
    Redis(ClientUrl),
    /// `postgres://…` or `postgresql://…` (`ns=`: the table name). The
    /// client part is checked by the `postgres` crate when the store is
    /// opened, not here.
    Postgres(ClientUrl),
    /// `etcd://[USER[:PASSWORD]@]HOST:PORT[,HOST:PORT…]`, or
    /// `etcd+https://…` for TLS ([`EtcdOptions::tls`] is `Some`): the
    /// endpoints in URL order (at least one), `ns=`, `timeout_ms=`
    /// (default [`DEFAULT_TIMEOUT`]), the user and password
    /// (percent-decoded), `cacert=`, `cert=`, `key=`.
    Etcd(EtcdOptions),
    /// `bigtable://PROJECT/INSTANCE`: a Cloud Bigtable instance, or the
    /// Bigtable emulator (`emulator=HOST:PORT`, else the environment's
    /// `BIGTABLE_EMULATOR_HOST` when the store is opened). `ns=` is the
    /// table ID (default `lexikey`), `family=` the column family (default
    /// [`DEFAULT_BIGTABLE_FAMILY`]), `timeout_ms=` the bound on one request
    /// (default [`DEFAULT_TIMEOUT`]), `app_profile=` the app profile of
    /// data requests; [`BigtableOptions::read_only`] is `false` (reading
    /// sets it).
    Bigtable(BigtableOptions),
    /// `dynamodb://TABLE?endpoint=http://HOST:PORT&region=REGION`: a
    /// DynamoDB table (created when missing), at `endpoint=` (dynalite,
    /// DynamoDB Local; default AWS's), in `region=` (default the SDK's
    /// chain); `ns=` is the partition key value (default `lexikey`),
    /// `timeout_ms=` the bound on one request (default
    /// [`DEFAULT_TIMEOUT`]); [`DynamoOptions::read_only`] is `false`.
    Dynamodb(DynamoOptions),
}

/// TLS settings of a server URL, taken by lexikey (not the client
/// library): file paths of PEM files, and PostgreSQL's `sslmode`.
///
/// | | Redis (`rediss://`) | PostgreSQL | etcd (`etcd+https://`) |
/// |---|---|---|---|
/// | [`mode`](Self::mode) | — (the scheme) | `sslmode=` | — (the scheme) |
/// | [`ca`](Self::ca) | `cacert=` | `sslrootcert=` | `cacert=` |
/// | [`cert`](Self::cert) | `cert=` | `sslcert=` | `cert=` |
/// | [`key`](Self::key) | `key=` | `sslkey=` | `key=` |
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TlsOptions {
    /// PostgreSQL's `sslmode`: `disable`, `prefer`, `require`,
    /// `verify-ca` or `verify-full` (`None`: not in the URL).
    pub mode: Option<String>,
    /// CA certificates to trust (PEM file), instead of the system's.
    pub ca: Option<String>,
    /// Client certificate chain (PEM file), with [`key`](Self::key).
    pub cert: Option<String>,
    /// The client certificate's private key (PEM file).
    pub key: Option<String>,
}

/// The names of the [`TlsOptions`] in one scheme's URLs.
struct TlsNames {
    mode: Option<&'static str>,
    ca: &'static str,
    cert: &'static str,
    key: &'static str,
}

const REDIS_TLS: TlsNames = TlsNames {
    mode: None,
    ca: "cacert",
    cert: "cert",
    key: "key",
};
const POSTGRES_TLS: TlsNames = TlsNames {
    mode: Some("sslmode"),
    ca: "sslrootcert",
    cert: "sslcert",
    key: "sslkey",
};
const ETCD_TLS: TlsNames = TlsNames {
    mode: None,
    ca: "cacert",
    cert: "cert",
    key: "key",
};

/// PostgreSQL `sslmode` values lexikey supports (libpq's but `allow`).
pub(crate) const SSL_MODES: &[&str] = &["disable", "prefer", "require", "verify-ca", "verify-full"];

impl TlsNames {
    /// Takes the TLS options out of `opts`. `tls`: the scheme asks for TLS
    /// (files are refused otherwise, as they would be ignored).
    fn take(&self, url: &str, opts: &mut Options, tls: bool) -> Result<TlsOptions, StoreError> {
        let mode = match self.mode {
            Some(name) => match opts.take(name) {
                Some(m) if !SSL_MODES.contains(&m.as_str()) => {
                    return Err(bad_url(
                        url,
                        format!("option `{name}={m}`: expected {}", SSL_MODES.join(", ")),
                    ))
                }
                m => m,
            },
            None => None,
        };
        let t = TlsOptions {
            mode,
            ca: opts.take(self.ca),
            cert: opts.take(self.cert),
            key: opts.take(self.key),
        };
        if t.cert.is_some() != t.key.is_some() {
            return Err(bad_url(
                url,
                format!("options `{}=` and `{}=` go together", self.cert, self.key),
            ));
        }
        if !tls && (t.ca.is_some() || t.cert.is_some()) {
            return Err(bad_url(
                url,
                format!(
                    "options `{}=`, `{}=`, `{}=` need a TLS URL (rediss://, etcd+https://)",
                    self.ca, self.cert, self.key
                ),
            ));
        }
        Ok(t)
    }

    /// Appends `&name=value` for each option set.
    fn render(&self, t: &TlsOptions, url: &mut String) {
        let pairs = [
            (self.mode, &t.mode),
            (Some(self.ca), &t.ca),
            (Some(self.cert), &t.cert),
            (Some(self.key), &t.key),
        ];
        for (name, value) in pairs {
            if let (Some(n), Some(v)) = (name, value) {
                url.push_str(&format!("&{n}={v}"));
            }
        }
    }
}

/// Parses a store URL (see the [crate docs](crate#store-urls) for the
/// syntax) without any I/O: no file is created, no server contacted. Every
/// scheme parses whatever cargo features this build has.
///
/// ```
/// use lexikey_stores::{parse_url, StoreSpec};
/// let spec = parse_url("etcd://127.0.0.1:2379,127.0.0.1:2479?ns=jobs")?;
/// assert!(matches!(&spec, StoreSpec::Etcd(o)
///     if o.endpoints.len() == 2 && o.namespace == "jobs"));
/// assert_eq!(spec.to_url(), "etcd://127.0.0.1:2379,127.0.0.1:2479?ns=jobs&timeout_ms=5000");
/// assert_eq!(parse_url(&spec.to_url())?, spec);
/// assert!(parse_url("redb:/tmp/x?fsync=maybe").is_err());
/// for typo in ["redb://x", "rocksdb://x", "slatedb:///tmp/x"] {
///     // FILE:PATH, not a URL with a host: refused, naming the spelling.
///     assert!(parse_url(typo).unwrap_err().to_string().contains(":PATH, e.g."));
/// }
/// # Ok::<(), lexikey::store::StoreError>(())
/// ```
///
/// # Errors
/// A fatal [`StoreError`] naming the URL and what is wrong: no scheme, an
/// unknown scheme, a missing path, an unknown, repeated or malformed option,
/// an invalid namespace, a bad etcd endpoint. The same errors, with the same
/// messages, as [`open`](crate::open) gives for these URLs.
pub fn parse_url(url: &str) -> Result<StoreSpec, StoreError> {
    #[cfg(test)]
    PARSES.with(|n| n.set(n.get() + 1));
    let (scheme, rest) = url.split_once(':').ok_or_else(|| {
        bad_url(
            url,
            "expected SCHEME:… (memory:, redb:, rocksdb:, slatedb:, redis://, rediss://, postgres://, etcd://, etcd+https://, bigtable://, dynamodb://)",
        )
    })?;
    match scheme {
        "memory" => {
            let (path, opts) = split(rest);
            if !path.is_empty() && path != "//" {
                return Err(bad_url(url, "memory: takes no path"));
            }
            let mut opts = Options::parse(url, opts)?;
            let namespace = opts.namespace(url)?;
            opts.finish(url, &["ns"])?;
            Ok(StoreSpec::Memory { namespace })
        }
        "redb" => {
            let (path, mut opts, namespace) = embedded(url, "redb", rest)?;
            let fsync = opts.take_bool(url, "fsync")?.unwrap_or(true);
            // Several processes by default (they queue for each write);
            // without fsync a process must hold the file alone.
            let multi_process = match opts.take("processes").as_deref() {
                None => fsync,
                Some("one") => false,
                Some("many") => true,
                Some(v) => {
                    return Err(bad_url(
                        url,
                        format!("option `processes={v}`: expected one or many"),
                    ))
                }
            };
            let lock_timeout = opts
                .take_u64(url, "lock_timeout_ms")?
                .map_or(DEFAULT_LOCK_TIMEOUT, Duration::from_millis);
            opts.finish(url, &["ns", "fsync", "processes", "lock_timeout_ms"])?;
            if multi_process && !fsync {
                return Err(StoreError::fatal("redb", MULTI_PROCESS_NEEDS_FSYNC));
            }
            Ok(StoreSpec::Redb {
                path: path.to_string(),
                options: RedbOptions {
                    namespace,
                    fsync,
                    multi_process,
                    lock_timeout,
                    read_only: false,
                },
            })
        }
        "rocksdb" => {
            let (path, opts, namespace) = embedded(url, "rocksdb", rest)?;
            opts.finish(url, &["ns"])?;
            Ok(StoreSpec::Rocksdb {
                path: path.to_string(),
                namespace,
            })
        }
        "slatedb" if rest.starts_with("s3://") => parse_slatedb_s3(url, rest),
        "slatedb" => {
            let (path, mut opts, namespace) = embedded(url, "slatedb", rest)?;
            let wait = opts
                .take_u64(url, "wait_ms")?
                .map_or(DEFAULT_SLATEDB_WAIT, Duration::from_millis);
            opts.finish(url, &["ns", "wait_ms"])?;
            Ok(StoreSpec::Slatedb {
                path: path.to_string(),
                options: SlateOptions {
                    namespace,
                    wait,
                    s3: None,
                },
            })
        }
        "redis" | "rediss" => {
            let c = parse_client(url)?;
            Ok(StoreSpec::Redis(c))
        }
        "postgres" | "postgresql" => {
            let c = parse_client(url)?;
            Ok(StoreSpec::Postgres(c))
        }
        "etcd" | "etcd+https" => parse_etcd(url).map(StoreSpec::Etcd),
        "bigtable" => parse_bigtable(url, rest).map(StoreSpec::Bigtable),
        "dynamodb" => parse_dynamodb(url, rest).map(StoreSpec::Dynamodb),
        _ => Err(bad_url(
            url,
            format!(
                "unknown scheme `{scheme}:` (memory:, redb:, rocksdb:, slatedb:, redis://, rediss://, postgres://, etcd://, etcd+https://, bigtable://, dynamodb://)"
            ),
        )),
    }
}

#[cfg(test)]
thread_local! {
    /// How many times this thread called [`parse_url`]: the open paths'
    /// tests check that they parse a URL once.
    pub(crate) static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// `slatedb:s3://BUCKET/PREFIX?endpoint=URL&region=REGION` (and `ns=`,
/// `wait_ms=`; `rest` is what follows `slatedb:`). The path of the spec is
/// `s3://BUCKET/PREFIX` (`s3://BUCKET` for the bucket's root).
fn parse_slatedb_s3(url: &str, rest: &str) -> Result<StoreSpec, StoreError> {
    let (location, opts) = split(rest);
    let location = &location["s3://".len()..];
    let (bucket, prefix) = location.split_once('/').unwrap_or((location, ""));
    // S3's bucket naming rules: 3 to 63 characters of a-z 0-9 . -,
    // starting and ending with a letter or digit.
    let edge = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    let bucket_ok = (3..=63).contains(&bucket.len())
        && bucket
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
        && edge(bucket.bytes().next())
        && edge(bucket.bytes().last());
    if !bucket_ok {
        return Err(bad_url(
            url,
            format!(
                "bad S3 bucket name {bucket:?}: expected slatedb:s3://BUCKET/PREFIX, BUCKET 3 to \
                 63 characters of a-z 0-9 . - (starting and ending with a letter or digit)"
            ),
        ));
    }
    let prefix = prefix.trim_end_matches('/');
    if prefix
        .split('/')
        .any(|p| p.is_empty() || p == "." || p == "..")
        && !prefix.is_empty()
    {
        return Err(bad_url(
            url,
            format!("bad S3 prefix {prefix:?}: empty, `.` or `..` path segment"),
        ));
    }
    let mut opts = Options::parse(url, opts)?;
    let namespace = opts.namespace(url)?;
    let wait = opts
        .take_u64(url, "wait_ms")?
        .map_or(DEFAULT_SLATEDB_WAIT, Duration::from_millis);
    let endpoint = opts.take("endpoint");
    if let Some(e) = &endpoint {
        let host = e
            .strip_prefix("http://")
            .or_else(|| e.strip_prefix("https://"));
        if host.is_none_or(|h| h.is_empty() || h.contains(['?', '#', '@'])) {
            return Err(bad_url(
                url,
                format!("option `endpoint={e}`: expected http://HOST:PORT or https://HOST[:PORT]"),
            ));
        }
    }
    let region = opts.take("region");
    if let Some(r) = &region {
        let ok = !r.is_empty()
            && r.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !ok {
            return Err(bad_url(
                url,
                format!("option `region={r}`: expected a region name such as us-east-1"),
            ));
        }
    }
    opts.finish(url, &["ns", "wait_ms", "endpoint", "region"])?;
    let path = if prefix.is_empty() {
        format!("s3://{bucket}")
    } else {
        format!("s3://{bucket}/{prefix}")
    };
    Ok(StoreSpec::Slatedb {
        path,
        options: SlateOptions {
            namespace,
            wait,
            s3: Some(SlateS3 {
                bucket: bucket.to_string(),
                prefix: prefix.to_string(),
                endpoint,
                region,
            }),
        },
    })
}

/// `PATH?OPTIONS` of an embedded store's URL (`SCHEME:` stripped): the
/// path (never empty), the options, and the namespace taken from them.
fn embedded<'a>(
    url: &str,
    scheme: &str,
    rest: &'a str,
) -> Result<(&'a str, Options, String), StoreError> {
    let (path, opts) = split(rest);
    if path.is_empty() {
        return Err(bad_url(url, format!("expected {scheme}:PATH")));
    }
    if path.starts_with("//") {
        // `redb://x` is URL-shaped, but the host would be taken as a path
        // at the file system's root (`/x`): refused, with the spelling.
        return Err(bad_url(
            url,
            format!(
                "`{scheme}://` is not how a file is named: write {scheme}:PATH, e.g. \
                 {scheme}:/var/lib/app/db (absolute) or {scheme}:app.db (relative)"
            ),
        ));
    }
    let mut opts = Options::parse(url, opts)?;
    let namespace = opts.namespace(url)?;
    Ok((path, opts, namespace))
}

/// The URL of a server with a client library (Redis, PostgreSQL): what
/// lexikey takes out of it, and the rest for the library.
///
/// `base` holds the password, if the URL has one: `Debug` and `Display`
/// show it as `***` (as they do secret options such as `password=`); print
/// the struct, never the field.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ClientUrl {
    /// The URL before its `?`, as given (`redis://[USER:PASSWORD@]HOST:PORT[/DB]`,
    /// `rediss://…`, `postgres://USER[:PASSWORD]@HOST:PORT/DB`).
    pub base: String,
    /// `ns=`: the sorted-set (Redis) or table (PostgreSQL) name.
    pub namespace: String,
    /// `timeout_ms=` (default [`DEFAULT_TIMEOUT`]).
    pub timeout: Duration,
    /// The TLS options (see [`TlsOptions`] for their names per scheme).
    pub tls: TlsOptions,
    /// Every other option, in URL order, for the client library.
    pub options: Vec<(String, String)>,
}

impl ClientUrl {
    /// The URL the client library gets: `base`, then the options lexikey
    /// did not take. It holds the password: never show it.
    #[allow(dead_code)] // only the redis and postgres adapters use it
    pub(crate) fn client_url(&self) -> String {
        if self.options.is_empty() {
            self.base.clone()
        } else {
            format!("{}?{}", self.base, join(&self.options))
        }
    }

    /// Whether this is a Redis URL (`redis://`, `rediss://`).
    fn is_redis(&self) -> bool {
        self.base.starts_with("redis")
    }

    /// The canonical URL; `reveal`: with the password.
    fn render(&self, reveal: bool) -> String {
        let mut query = format!(
            "ns={}&timeout_ms={}",
            self.namespace,
            self.timeout.as_millis()
        );
        let names = if self.is_redis() {
            &REDIS_TLS
        } else {
            &POSTGRES_TLS
        };
        names.render(&self.tls, &mut query);
        if !self.options.is_empty() {
            query.push('&');
            query.push_str(&join(&self.options));
        }
        if reveal {
            format!("{}?{query}", self.base)
        } else {
            let query = format!("?{query}");
            let query = crate::secret::redact_options(&query);
            format!("{}{query}", crate::redact_url(&self.base))
        }
    }
}

impl fmt::Display for ClientUrl {
    /// The canonical URL, password shown as `***`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl fmt::Debug for ClientUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let options = format!("?{}", join(&self.options));
        f.debug_struct("ClientUrl")
            .field("base", &crate::redact_url(&self.base))
            .field("namespace", &self.namespace)
            .field("timeout", &self.timeout)
            .field("tls", &self.tls)
            .field("options", &crate::secret::redact_options(&options))
            .finish()
    }
}

/// `k=v&k=v`.
fn join(options: &[(String, String)]) -> String {
    options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

/// `BASE?ns=…&timeout_ms=…&…` of a Redis or PostgreSQL URL (any scheme).
pub(crate) fn parse_client(url: &str) -> Result<ClientUrl, StoreError> {
    let (base, query) = split(url);
    check_client_ports(url, base)?;
    let mut opts = Options::parse(url, query)?;
    let namespace = opts.namespace(url)?;
    let timeout = timeout(url, &mut opts)?;
    let tls = if base.starts_with("redis") {
        REDIS_TLS.take(url, &mut opts, base.starts_with("rediss:"))?
    } else {
        POSTGRES_TLS.take(url, &mut opts, true)?
    };
    Ok(ClientUrl {
        base: base.to_string(),
        namespace,
        timeout,
        tls,
        options: opts.into_pairs(),
    })
}

fn timeout(url: &str, opts: &mut Options) -> Result<Duration, StoreError> {
    Ok(opts
        .take_u64(url, "timeout_ms")?
        .map_or(DEFAULT_TIMEOUT, Duration::from_millis))
}

/// `etcd[+https]://[USER[:PASSWORD]@]HOST:PORT[,HOST:PORT…][?ns=NAME&timeout_ms=N&cacert=…]`.
pub(crate) fn parse_etcd(url: &str) -> Result<EtcdOptions, StoreError> {
    let (rest, https) = match (
        url.strip_prefix("etcd://"),
        url.strip_prefix("etcd+https://"),
    ) {
        (Some(r), _) => (r, false),
        (None, Some(r)) => (r, true),
        (None, None) => {
            return Err(bad_url(
                url,
                "expected etcd://HOST:PORT[,HOST:PORT…] or etcd+https://…",
            ))
        }
    };
    let (authority, query) = split(rest);
    let mut opts = Options::parse(url, query)?;
    let namespace = opts.namespace(url)?;
    let timeout = timeout(url, &mut opts)?;
    let tls = ETCD_TLS.take(url, &mut opts, https)?;
    opts.finish(url, &["ns", "timeout_ms", "cacert", "cert", "key"])?;
    let (userinfo, hosts) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, authority),
    };
    let (mut user, mut password) = (None, None);
    if let Some(u) = userinfo {
        let (name, pass) = match u.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (u, None),
        };
        let decode = |s: &str, what: &str| {
            percent_decode(s).ok_or_else(|| bad_url(url, format!("the {what} is not UTF-8")))
        };
        if name.is_empty() {
            return Err(bad_url(url, "expected USER[:PASSWORD]@ before the hosts"));
        }
        user = Some(decode(name, "user")?);
        password = pass
            .map(|p| decode(p, "password").map(Secret::new))
            .transpose()?;
    }
    let endpoints: Vec<String> = hosts.split(',').map(str::to_string).collect();
    for ep in &endpoints {
        check_endpoint(url, ep)?;
    }
    Ok(EtcdOptions {
        endpoints,
        namespace,
        timeout,
        user,
        password,
        tls: https.then_some(tls),
    })
}

/// The hosts of a Redis or PostgreSQL URL (`SCHEME://[USER[:PASSWORD]@]
/// HOST[:PORT][,HOST[:PORT]…][/…]`; a host may be `[IPv6]`): each port
/// given must be a number from 1 to 65,535, or the URL is bad. The client
/// libraries would refuse it only when connecting, as a store error
/// (`InvalidClientConfig`), which the bindings could not tell from a
/// server that did not answer (issue 38).
fn check_client_ports(url: &str, base: &str) -> Result<(), StoreError> {
    let Some((_, rest)) = base.split_once("://") else {
        return Ok(());
    };
    // After the last `@` (a password may hold one), up to the path.
    let hosts = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
    let hosts = hosts.split('/').next().unwrap_or_default();
    for host in hosts.split(',') {
        let port = match host.strip_prefix('[') {
            Some(v6) => v6.split_once(']').and_then(|(_, p)| p.strip_prefix(':')),
            None => host.rsplit_once(':').map(|(_, p)| p),
        };
        if let Some(p) = port {
            if !matches!(p.parse::<u16>(), Ok(n) if n > 0) {
                return Err(bad_url(
                    url,
                    format!("the port `{p}` of host `{host}` is not a number from 1 to 65535"),
                ));
            }
        }
    }
    Ok(())
}

/// Parses `HOST:PORT`.
fn check_endpoint(url: &str, ep: &str) -> Result<(), StoreError> {
    let (host, port) = ep
        .rsplit_once(':')
        .ok_or_else(|| bad_url(url, format!("endpoint `{ep}`: expected HOST:PORT")))?;
    if host.is_empty() || host.contains(['/', '@', '?', '#', ' ']) {
        return Err(bad_url(url, format!("endpoint `{ep}`: bad host")));
    }
    match port.parse::<u16>() {
        Ok(p) if p > 0 => Ok(()),
        _ => Err(bad_url(url, format!("endpoint `{ep}`: bad port"))),
    }
}

/// `dynamodb://TABLE[?endpoint=http://HOST:PORT&region=R&ns=NS&timeout_ms=N]`
/// (`rest`: after `dynamodb:`).
fn parse_dynamodb(url: &str, rest: &str) -> Result<DynamoOptions, StoreError> {
    const FORM: &str = "expected dynamodb://TABLE?endpoint=http://HOST:PORT&region=REGION";
    let rest = rest.strip_prefix("//").ok_or_else(|| bad_url(url, FORM))?;
    let (table, query) = split(rest);
    let b = table.as_bytes();
    if !(3..=255).contains(&b.len())
        || !b
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
    {
        return Err(bad_url(
            url,
            format!("{FORM}: bad table `{table}` (DynamoDB table names are 3-255 characters of a-z A-Z 0-9 _ - .)"),
        ));
    }
    let mut opts = Options::parse(url, query)?;
    let namespace = opts.namespace(url)?;
    let endpoint = opts.take("endpoint");
    if let Some(ep) = &endpoint {
        let hostport = ep
            .strip_prefix("http://")
            .or_else(|| ep.strip_prefix("https://"))
            .ok_or_else(|| {
                bad_url(
                    url,
                    format!(
                        "option `endpoint={ep}`: expected http://HOST:PORT or https://HOST[:PORT]"
                    ),
                )
            })?;
        let hostport = hostport.strip_suffix('/').unwrap_or(hostport);
        if hostport.contains(':') {
            check_endpoint(url, hostport)?;
        } else if hostport.is_empty() || hostport.contains(['/', '@', '?', '#', ' ']) {
            return Err(bad_url(url, format!("option `endpoint={ep}`: bad host")));
        }
    }
    let region = opts.take("region");
    if let Some(r) = &region {
        if r.is_empty() || !r.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-') {
            return Err(bad_url(
                url,
                format!("option `region={r}`: expected an AWS region such as us-east-1"),
            ));
        }
    }
    let timeout = timeout(url, &mut opts)?;
    opts.finish(url, &["ns", "endpoint", "region", "timeout_ms"])?;
    Ok(DynamoOptions {
        table: table.to_string(),
        namespace,
        endpoint,
        region,
        timeout,
        read_only: false,
    })
}

/// A Bigtable resource name (table, column family, app profile): 1 to `max`
/// characters of `_ a-z A-Z 0-9` then `- _ . a-z A-Z 0-9`, as Cloud
/// Bigtable's API defines them (`[_a-zA-Z0-9][-_.a-zA-Z0-9]*`).
fn bigtable_name(name: &str, max: usize) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b.len() <= max
        && (b[0].is_ascii_alphanumeric() || b[0] == b'_')
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
}

/// A project or instance ID in a `bigtable://` URL: 1 to 64 characters of
/// `a-z A-Z 0-9 - _ .` (and `:` in a project, as domain-scoped projects
/// `example.com:app` have it). Cloud's own rules are narrower; the emulator
/// takes any name.
fn bigtable_id(id: &str, colon: bool) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id.bytes().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.') || (colon && c == b':')
        })
}

/// `bigtable://PROJECT/INSTANCE[?ns=TABLE&family=F&timeout_ms=N&app_profile=ID&emulator=HOST:PORT]`
/// (`rest`: after `bigtable:`).
fn parse_bigtable(url: &str, rest: &str) -> Result<BigtableOptions, StoreError> {
    const FORM: &str = "expected bigtable://PROJECT/INSTANCE";
    let rest = rest.strip_prefix("//").ok_or_else(|| bad_url(url, FORM))?;
    let (path, query) = split(rest);
    let (project, instance) = path.split_once('/').ok_or_else(|| bad_url(url, FORM))?;
    if !bigtable_id(project, true) {
        return Err(bad_url(
            url,
            format!("{FORM}: bad project `{project}` (1-64 characters of a-z A-Z 0-9 - _ . :)"),
        ));
    }
    if !bigtable_id(instance, false) {
        return Err(bad_url(
            url,
            format!("{FORM}: bad instance `{instance}` (1-64 characters of a-z A-Z 0-9 - _ .)"),
        ));
    }
    let mut opts = Options::parse(url, query)?;
    let namespace = opts.namespace(url)?;
    if !bigtable_name(&namespace, 50) {
        return Err(bad_url(
            url,
            format!("`ns={namespace}` names the Bigtable table: it must start with a letter, a digit or `_`"),
        ));
    }
    let family = opts
        .take("family")
        .unwrap_or_else(|| DEFAULT_BIGTABLE_FAMILY.to_string());
    if !bigtable_name(&family, 64) {
        return Err(bad_url(
            url,
            format!("option `family={family}`: expected 1-64 characters of - _ . a-z A-Z 0-9, not starting with - or ."),
        ));
    }
    let timeout = timeout(url, &mut opts)?;
    let app_profile = opts.take("app_profile");
    if let Some(p) = &app_profile {
        if !bigtable_name(p, 50) {
            return Err(bad_url(
                url,
                format!("option `app_profile={p}`: expected 1-50 characters of - _ . a-z A-Z 0-9, not starting with - or ."),
            ));
        }
    }
    let emulator = opts.take("emulator");
    if let Some(ep) = &emulator {
        check_endpoint(url, ep)?;
    }
    opts.finish(
        url,
        &["ns", "family", "timeout_ms", "app_profile", "emulator"],
    )?;
    Ok(BigtableOptions {
        project: project.to_string(),
        instance: instance.to_string(),
        table: namespace,
        family,
        timeout,
        app_profile,
        emulator,
        read_only: false,
    })
}

impl StoreSpec {
    /// The cargo feature of `lexikey-stores` that opening this store needs
    /// (`None` for `memory:`).
    pub fn feature(&self) -> Option<&'static str> {
        match self {
            StoreSpec::Memory { .. } => None,
            StoreSpec::Redb { .. } => Some("redb"),
            StoreSpec::Rocksdb { .. } => Some("rocksdb"),
            StoreSpec::Slatedb { .. } => Some("slatedb"),
            StoreSpec::Redis(_) => Some("redis"),
            StoreSpec::Postgres(_) => Some("postgres"),
            StoreSpec::Etcd(_) => Some("etcd"),
            StoreSpec::Bigtable(_) => Some("bigtable"),
            StoreSpec::Dynamodb(_) => Some("dynamodb"),
        }
    }

    /// The key-length rule of the store's own data-modeling guide, as
    /// `(shortest, longest)` in bytes, for tools that check keys before
    /// they write them (the CLI's `--max-key-len` default): `slatedb:` keys
    /// are 1 to 65,535 bytes ([`SLATEDB_KEY_LEN`]), `bigtable://` row keys
    /// 1 to 4,096 bytes ([`BIGTABLE_KEY_LEN`]). `None`: no such rule.
    ///
    /// The adapters themselves take any key their store takes (the
    /// SlateDB adapter stores the empty key under its namespace prefix),
    /// but for Bigtable, whose row key is the key itself: the adapter
    /// refuses an empty key and one over 4 KiB, as Cloud Bigtable does.
    pub fn key_len_rule(&self) -> Option<(usize, usize)> {
        match self {
            StoreSpec::Slatedb { .. } => Some(SLATEDB_KEY_LEN),
            StoreSpec::Bigtable(_) => Some(BIGTABLE_KEY_LEN),
            StoreSpec::Dynamodb(_) => Some(DYNAMODB_KEY_LEN),
            _ => None,
        }
    }

    /// The project, instance and table of a `bigtable://` store (`None`
    /// for the other stores): what `lexikey range --for cbt --store URL`
    /// names on its `cbt` line.
    ///
    /// ```
    /// let spec = lexikey_stores::parse_url("bigtable://my-proj/prod?ns=events")?;
    /// assert_eq!(spec.bigtable_names(), Some(("my-proj", "prod", "events")));
    /// assert_eq!(lexikey_stores::parse_url("memory:")?.bigtable_names(), None);
    /// # Ok::<(), lexikey::store::StoreError>(())
    /// ```
    pub fn bigtable_names(&self) -> Option<(&str, &str, &str)> {
        match self {
            StoreSpec::Bigtable(o) => Some((&o.project, &o.instance, &o.table)),
            _ => None,
        }
    }

    /// The table and the partition (`ns=`) of a `dynamodb://` store
    /// (`None` for the other stores): what `lexikey range --for dynamodb
    /// --store URL` queries.
    ///
    /// ```
    /// let spec = lexikey_stores::parse_url("dynamodb://ids?region=us-east-1&ns=events")?;
    /// assert_eq!(spec.dynamodb_names(), Some(("ids", "events")));
    /// # Ok::<(), lexikey::store::StoreError>(())
    /// ```
    pub fn dynamodb_names(&self) -> Option<(&str, &str)> {
        match self {
            StoreSpec::Dynamodb(o) => Some((&o.table, &o.namespace)),
            _ => None,
        }
    }

    /// The namespace (`ns=`, or [`DEFAULT_NAMESPACE`](crate::DEFAULT_NAMESPACE)).
    pub fn namespace(&self) -> &str {
        match self {
            StoreSpec::Memory { namespace }
            | StoreSpec::Rocksdb { namespace, .. }
            | StoreSpec::Redis(ClientUrl { namespace, .. })
            | StoreSpec::Postgres(ClientUrl { namespace, .. }) => namespace,
            StoreSpec::Redb { options, .. } => &options.namespace,
            StoreSpec::Slatedb { options, .. } => &options.namespace,
            StoreSpec::Etcd(o) => &o.namespace,
            StoreSpec::Bigtable(o) => &o.table,
            StoreSpec::Dynamodb(o) => &o.namespace,
        }
    }

    /// The canonical URL, for showing: the same store, every option
    /// spelled out (`ns`, then the store's own options, then the client
    /// library's, in their original order), any password or secret option
    /// shown as `***`. For a URL without secrets,
    /// `parse_url(&spec.to_url()) == Ok(spec)`; to connect, use
    /// [`StoreSpec::connect_url`].
    pub fn to_url(&self) -> String {
        self.render(false)
    }

    /// The canonical URL **with** its password: what a client connects
    /// with; `parse_url(&spec.connect_url()) == Ok(spec)`. Never print it
    /// (use [`StoreSpec::to_url`] or `Display`).
    pub fn connect_url(&self) -> String {
        self.render(true)
    }

    fn render(&self, reveal: bool) -> String {
        let ms = |t: &Duration| t.as_millis();
        match self {
            StoreSpec::Memory { namespace } => format!("memory:?ns={namespace}"),
            StoreSpec::Redb { path, options: o } => format!(
                "redb:{path}?ns={}&fsync={}&processes={}&lock_timeout_ms={}",
                o.namespace,
                o.fsync,
                if o.multi_process { "many" } else { "one" },
                ms(&o.lock_timeout)
            ),
            StoreSpec::Rocksdb { path, namespace } => format!("rocksdb:{path}?ns={namespace}"),
            StoreSpec::Slatedb { path, options: o } => {
                let mut url = format!("slatedb:{path}?ns={}&wait_ms={}", o.namespace, ms(&o.wait));
                let s3 = o.s3.as_ref();
                if let Some(e) = s3.and_then(|s| s.endpoint.as_ref()) {
                    url.push_str(&format!("&endpoint={e}"));
                }
                if let Some(r) = s3.and_then(|s| s.region.as_ref()) {
                    url.push_str(&format!("&region={r}"));
                }
                url
            }
            StoreSpec::Redis(c) | StoreSpec::Postgres(c) => c.render(reveal),
            StoreSpec::Etcd(EtcdOptions {
                endpoints,
                namespace,
                timeout,
                user,
                password,
                tls,
            }) => {
                let scheme = if tls.is_some() { "etcd+https" } else { "etcd" };
                let userinfo = match (user, password) {
                    (None, _) => String::new(),
                    (Some(u), None) => format!("{}@", percent_encode(u)),
                    (Some(u), Some(p)) => {
                        let p = if reveal {
                            percent_encode(p.expose())
                        } else {
                            REDACTED.to_string()
                        };
                        format!("{}:{p}@", percent_encode(u))
                    }
                };
                let mut url = format!(
                    "{scheme}://{userinfo}{}?ns={namespace}&timeout_ms={}",
                    endpoints.join(","),
                    ms(timeout)
                );
                if let Some(t) = tls {
                    ETCD_TLS.render(t, &mut url);
                }
                url
            }
            StoreSpec::Bigtable(BigtableOptions {
                project,
                instance,
                table: namespace,
                family,
                timeout,
                app_profile,
                emulator,
                read_only: _,
            }) => {
                let mut url = format!(
                    "bigtable://{project}/{instance}?ns={namespace}&family={family}&timeout_ms={}",
                    ms(timeout)
                );
                if let Some(p) = app_profile {
                    url.push_str(&format!("&app_profile={p}"));
                }
                if let Some(e) = emulator {
                    url.push_str(&format!("&emulator={e}"));
                }
                url
            }
            StoreSpec::Dynamodb(o) => {
                let mut url = format!("dynamodb://{}?ns={}", o.table, o.namespace);
                if let Some(e) = &o.endpoint {
                    url.push_str(&format!("&endpoint={e}"));
                }
                if let Some(r) = &o.region {
                    url.push_str(&format!("&region={r}"));
                }
                url.push_str(&format!("&timeout_ms={}", ms(&o.timeout)));
                url
            }
        }
    }
}

impl fmt::Display for StoreSpec {
    /// [`StoreSpec::to_url`]: no password shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_url())
    }
}

impl fmt::Debug for StoreSpec {
    /// `StoreSpec(URL)` with [`StoreSpec::to_url`]: no password shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StoreSpec({:?})", self.to_url())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scheme_parses_and_renders_canonically() {
        for (url, canonical) in [
            ("memory:", "memory:?ns=lexikey"),
            ("memory://?ns=a", "memory:?ns=a"),
            (
                "redb:/tmp/x",
                "redb:/tmp/x?ns=lexikey&fsync=true&processes=many&lock_timeout_ms=10000",
            ),
            (
                "redb:/tmp/x?fsync=false&lock_timeout_ms=250",
                "redb:/tmp/x?ns=lexikey&fsync=false&processes=one&lock_timeout_ms=250",
            ),
            (
                "redb:db&=x?fsync=no&processes=many&fsync=1",
                "", // fsync twice: an error
            ),
            (
                "redb:rel/db?processes=many&ns=n",
                "redb:rel/db?ns=n&fsync=true&processes=many&lock_timeout_ms=10000",
            ),
            ("rocksdb:/d?ns=q", "rocksdb:/d?ns=q"),
            ("slatedb:/d", "slatedb:/d?ns=lexikey&wait_ms=30000"),
            (
                "slatedb:rel/d?wait_ms=0&ns=q",
                "slatedb:rel/d?ns=q&wait_ms=0",
            ),
            ("slatedb:/d?fsync=false", ""), // not a slatedb option
            // SlateDB on S3 (issue 41): bucket, prefix, endpoint, region.
            (
                "slatedb:s3://keys/a/b/?region=eu-west-1&endpoint=http://127.0.0.1:5000&ns=q",
                "slatedb:s3://keys/a/b?ns=q&wait_ms=30000&endpoint=http://127.0.0.1:5000&region=eu-west-1",
            ),
            ("slatedb:s3://my.keys-1", "slatedb:s3://my.keys-1?ns=lexikey&wait_ms=30000"),
            ("slatedb:s3://Keys/p", ""),        // upper case: not a bucket name
            ("slatedb:s3://ab/p", ""),          // too short
            ("slatedb:s3://-ab/p", ""),         // must start with a letter or digit
            ("slatedb:s3://abc/p//q", ""),      // empty path segment
            ("slatedb:s3://abc/../q", ""),      // `..`
            ("slatedb:s3://abc/p?endpoint=127.0.0.1:5000", ""), // no scheme
            ("slatedb:s3://abc/p?region=", ""),
            ("slatedb:s3://abc/p?fsync=false", ""), // not an option here
            (
                "redis://127.0.0.1:1/2?timeout_ms=+7&protocol=resp3",
                "redis://127.0.0.1:1/2?ns=lexikey&timeout_ms=7&protocol=resp3",
            ),
            (
                "postgresql://u@h:1/db?sslmode=disable&ns=t&a==b",
                "postgresql://u@h:1/db?ns=t&timeout_ms=5000&sslmode=disable&a==b",
            ),
            (
                "etcd://a:1,b:2?timeout_ms=10",
                "etcd://a:1,b:2?ns=lexikey&timeout_ms=10",
            ),
            (
                "bigtable://proj/inst",
                "bigtable://proj/inst?ns=lexikey&family=f&timeout_ms=5000",
            ),
            (
                "bigtable://example.com:p-1/i_2?emulator=127.0.0.1:8086&app_profile=batch&family=cf.1&ns=_t&timeout_ms=7",
                "bigtable://example.com:p-1/i_2?ns=_t&family=cf.1&timeout_ms=7&app_profile=batch&emulator=127.0.0.1:8086",
            ),
            ("bigtable://p/i?ns=-t", ""),        // a table ID starts with [_a-zA-Z0-9]
            ("bigtable://p/i?family=.f", ""),    // so does a family
            ("bigtable://p/i?family=", ""),
            ("bigtable://p/i?emulator=host", ""), // HOST:PORT
            ("bigtable://p/i?app_profile=a/b", ""),
            ("bigtable://p/i?fsync=false", ""), // not a bigtable option
            ("bigtable://p", ""),
            ("bigtable://p/", ""),
            ("bigtable:///i", ""),
            ("bigtable://p/i/t", ""),
            ("bigtable:p/i", ""),
        ] {
            match parse_url(url) {
                Ok(spec) => {
                    assert_eq!(spec.to_url(), canonical, "{url}");
                    assert_eq!(parse_url(canonical).unwrap(), spec, "{url}");
                }
                Err(e) => assert!(canonical.is_empty(), "{url}: {e}"),
            }
        }
    }

    #[test]
    fn passwords_show_only_in_connect_url() {
        for (url, shown) in [
            (
                "postgres://alice:s3cretpw@127.0.0.1:1/db?password=s3cretpw&sslmode=verify-full&sslrootcert=/ca.pem",
                "postgres://alice:***@127.0.0.1:1/db?ns=lexikey&timeout_ms=5000&sslmode=verify-full&sslrootcert=/ca.pem&password=***",
            ),
            (
                "rediss://bob:s3cretpw@h:1/2?cacert=/ca.pem&cert=/c.pem&key=/k.pem",
                "rediss://bob:***@h:1/2?ns=lexikey&timeout_ms=5000&cacert=/ca.pem&cert=/c.pem&key=/k.pem",
            ),
            (
                "etcd+https://root:s3cret%40pw@a:1,b:2?cacert=/ca.pem",
                "etcd+https://root:***@a:1,b:2?ns=lexikey&timeout_ms=5000&cacert=/ca.pem",
            ),
        ] {
            let spec = parse_url(url).unwrap();
            assert_eq!(spec.to_url(), shown);
            assert_eq!(spec.to_string(), shown);
            assert!(!format!("{spec:?}").contains("s3cret"), "{spec:?}");
            assert!(spec.connect_url().contains("s3cret"));
            assert_eq!(parse_url(&spec.connect_url()).unwrap(), spec);
        }
        // Shown URLs parse back to themselves; here a `?password=` ends
        // another secret option's value (found by fuzz target
        // parse_store_url: it was shown as `password=******`, then `***`).
        let spec = parse_url("redis:u:pw@h?password=s+://r?password=").unwrap();
        let shown = spec.to_url();
        assert_eq!(
            shown,
            "redis:u:***@h?ns=lexikey&timeout_ms=5000&password=***"
        );
        assert_eq!(parse_url(&shown).unwrap().to_url(), shown);
        let spec = parse_url("etcd://u%3Ax:p%40ss@h:1").unwrap();
        assert!(
            matches!(&spec, StoreSpec::Etcd(EtcdOptions { user: Some(u), password: Some(p), tls: None, .. })
            if u == "u:x" && p.expose() == "p@ss")
        );
        // A Bigtable URL has no password: one spliced in is refused, unseen.
        for url in [
            "bigtable://u:s3cretpw@p/i",
            "bigtable://p/i?password=s3cretpw",
            "bigtable://p:s3cretpw@h/i",
        ] {
            let e = parse_url(url).unwrap_err();
            assert!(!e.to_string().contains("s3cretpw"), "{e}");
        }
        for bad in [
            "redis://h:1?cacert=/ca.pem",
            "etcd://h:1?cert=/c.pem",
            "rediss://h:1?cert=/c.pem",
            "postgres://u@h/db?sslmode=allow",
            "etcd://@h:1",
        ] {
            assert!(parse_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn endpoints() {
        let u = "etcd://x";
        assert!(check_endpoint(u, "127.0.0.1:2379").is_ok());
        assert!(check_endpoint(u, "[::1]:2379").is_ok());
        for bad in ["127.0.0.1", ":1", "h:0", "h:70000", "h/x:1", "a@b:1"] {
            assert!(check_endpoint(u, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn client_url_ports() {
        for good in [
            "redis://127.0.0.1:6379",
            "redis://127.0.0.1",
            "rediss://user:p%40ss@h:1/2?ns=x",
            "redis://:pw:with:colons@h:6379",
            "redis://[::1]:6379/0",
            "redis://[::1]",
            "postgres://u@h1:5432,h2:5433/db",
            "postgres://u:p@h/db?sslmode=require",
        ] {
            assert!(parse_client(good).is_ok(), "{good}");
        }
        for (bad, part) in [
            (
                "redis://127.0.0.1:notaport",
                "the port `notaport` of host `127.0.0.1:notaport`",
            ),
            ("redis://h:0", "the port `0`"),
            ("redis://h:", "the port ``"),
            ("rediss://u:pw@h:70000/1", "the port `70000`"),
            ("redis://[::1]:x", "the port `x` of host `[::1]:x`"),
            (
                "postgres://u@h1:5432,h2:nope/db",
                "the port `nope` of host `h2:nope`",
            ),
        ] {
            let e = parse_client(bad)
                .err()
                .unwrap_or_else(|| panic!("{bad} parsed"));
            assert!(!e.retryable, "{bad}");
            assert!(e.message.contains(part), "{bad}: {}", e.message);
            assert!(e.message.starts_with("bad store URL `"), "{}", e.message);
        }
    }

    #[test]
    fn parse_creates_nothing() {
        let dir = std::env::temp_dir().join(format!("lexikey-parse-{}", std::process::id()));
        for url in [
            format!("redb:{}", dir.display()),
            format!("rocksdb:{}", dir.display()),
            format!("slatedb:{}", dir.display()),
        ] {
            assert!(parse_url(&url).is_ok());
            assert!(!dir.exists(), "{url}");
        }
    }

    #[test]
    fn specs_know_their_feature_and_namespace() {
        let spec = parse_url("postgres://u@h:1/db?ns=t").unwrap();
        assert_eq!((spec.feature(), spec.namespace()), (Some("postgres"), "t"));
        assert_eq!(spec.key_len_rule(), None);
        let spec = parse_url("slatedb:/d?ns=s").unwrap();
        assert_eq!((spec.feature(), spec.namespace()), (Some("slatedb"), "s"));
        assert_eq!(spec.key_len_rule(), Some((1, 65_535)));
        let spec = parse_url("bigtable://p/i?ns=events").unwrap();
        assert_eq!(
            (spec.feature(), spec.namespace()),
            (Some("bigtable"), "events")
        );
        assert_eq!(spec.key_len_rule(), Some((1, 4096)));
        let spec = parse_url("memory:").unwrap();
        assert_eq!((spec.feature(), spec.namespace()), (None, "lexikey"));
        assert_eq!(spec.to_string(), "memory:?ns=lexikey");
    }
}
