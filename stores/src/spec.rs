//! Store URLs, parsed without I/O: [`parse_url`] → [`StoreSpec`].

use std::fmt;
use std::time::Duration;

use lexikey::store::StoreError;

use crate::bad_url;
use crate::options::{split, Options};

/// The bound on one request / connect when a URL has no `timeout_ms=`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(5000);

/// How long opening a `redb:` file waits for a process that holds it alone
/// when the URL has no `lock_timeout_ms=`.
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_millis(10_000);

/// Why redb refuses `processes=many` with `fsync=false`.
pub(crate) const MULTI_PROCESS_NEEDS_FSYNC: &str =
    "several processes (processes=many) need fsync on every commit";

/// What a store URL names: everything [`open`](crate::open) needs, parsed
/// and checked by [`parse_url`] without touching a file or the network.
///
/// [`StoreSpec::to_url`] renders it back as a canonical URL (every option
/// spelled out) that parses to the same spec.
#[derive(Debug, Clone, PartialEq, Eq)]
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
        /// `ns=`: the table name.
        namespace: String,
        /// `fsync=` (default `true`).
        fsync: bool,
        /// `processes=many` (the default with fsync on) or `one` (the
        /// default, and the only choice, with `fsync=false`).
        multi_process: bool,
        /// `lock_timeout_ms=` (default [`DEFAULT_LOCK_TIMEOUT`]): how long
        /// opening waits for a process that holds the file alone.
        lock_timeout: Duration,
    },
    /// `rocksdb:PATH`.
    Rocksdb {
        /// The database directory (never empty; holds no `?`).
        path: String,
        /// `ns=`: the key prefix `NS/`.
        namespace: String,
    },
    /// `redis://…` (`ns=`: the sorted-set name). The client part (`base`,
    /// `options`) is checked by the `redis` crate when the store is
    /// opened, not here.
    Redis(ClientUrl),
    /// `postgres://…` or `postgresql://…` (`ns=`: the table name). The
    /// client part is checked by the `postgres` crate when the store is
    /// opened, not here.
    Postgres(ClientUrl),
    /// `etcd://HOST:PORT[,HOST:PORT…]`.
    Etcd {
        /// `HOST:PORT` endpoints, in URL order (at least one).
        endpoints: Vec<String>,
        /// `ns=`: the key prefix `NS/`.
        namespace: String,
        /// `timeout_ms=` (default [`DEFAULT_TIMEOUT`]).
        timeout: Duration,
    },
}

/// Parses a store URL (see the [crate docs](crate#store-urls) for the
/// syntax) without any I/O: no file is created, no server contacted. Every
/// scheme parses whatever cargo features this build has.
///
/// ```
/// use lexikey_stores::{parse_url, StoreSpec};
/// let spec = parse_url("etcd://127.0.0.1:2379,127.0.0.1:2479?ns=jobs")?;
/// assert!(matches!(&spec, StoreSpec::Etcd { endpoints, namespace, .. }
///     if endpoints.len() == 2 && namespace == "jobs"));
/// assert_eq!(spec.to_url(), "etcd://127.0.0.1:2379,127.0.0.1:2479?ns=jobs&timeout_ms=5000");
/// assert_eq!(parse_url(&spec.to_url())?, spec);
/// assert!(parse_url("redb:/tmp/x?fsync=maybe").is_err());
/// # Ok::<(), lexikey::store::StoreError>(())
/// ```
///
/// # Errors
/// A fatal [`StoreError`] naming the URL and what is wrong: no scheme, an
/// unknown scheme, a missing path, an unknown, repeated or malformed option,
/// an invalid namespace, a bad etcd endpoint. The same errors, with the same
/// messages, as [`open`](crate::open) gives for these URLs.
pub fn parse_url(url: &str) -> Result<StoreSpec, StoreError> {
    let (scheme, rest) = url.split_once(':').ok_or_else(|| {
        bad_url(
            url,
            "expected SCHEME:… (memory:, redb:, rocksdb:, redis://, postgres://, etcd://)",
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
            let (path, opts) = split(rest);
            if path.is_empty() {
                return Err(bad_url(url, "expected redb:PATH"));
            }
            let mut opts = Options::parse(url, opts)?;
            let namespace = opts.namespace(url)?;
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
                namespace,
                fsync,
                multi_process,
                lock_timeout,
            })
        }
        "rocksdb" => {
            let (path, opts) = split(rest);
            if path.is_empty() {
                return Err(bad_url(url, "expected rocksdb:PATH"));
            }
            let mut opts = Options::parse(url, opts)?;
            let namespace = opts.namespace(url)?;
            opts.finish(url, &["ns"])?;
            Ok(StoreSpec::Rocksdb {
                path: path.to_string(),
                namespace,
            })
        }
        "redis" => {
            let c = parse_client(url)?;
            Ok(StoreSpec::Redis(c))
        }
        "postgres" | "postgresql" => {
            let c = parse_client(url)?;
            Ok(StoreSpec::Postgres(c))
        }
        "etcd" => {
            let (endpoints, namespace, timeout) = parse_etcd(url)?;
            Ok(StoreSpec::Etcd {
                endpoints,
                namespace,
                timeout,
            })
        }
        _ => Err(bad_url(
            url,
            format!(
                "unknown scheme `{scheme}:` (memory:, redb:, rocksdb:, redis://, postgres://, etcd://)"
            ),
        )),
    }
}

/// The URL of a server with a client library (Redis, PostgreSQL): what
/// lexikey takes out of it, and the rest for the library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientUrl {
    /// The URL before its `?`, as given (`redis://HOST:PORT[/DB]`,
    /// `postgres://USER@HOST:PORT/DB`).
    pub base: String,
    /// `ns=`: the sorted-set (Redis) or table (PostgreSQL) name.
    pub namespace: String,
    /// `timeout_ms=` (default [`DEFAULT_TIMEOUT`]).
    pub timeout: Duration,
    /// Every other option, in URL order, for the client library.
    pub options: Vec<(String, String)>,
}

impl ClientUrl {
    /// The URL the client library gets: `base`, then the options lexikey
    /// did not take.
    #[allow(dead_code)] // only the redis and postgres adapters use it
    pub(crate) fn client_url(&self) -> String {
        client_url(&self.base, &self.options)
    }
}

fn client_url(base: &str, options: &[(String, String)]) -> String {
    if options.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", join(options))
    }
}

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
    let mut opts = Options::parse(url, query)?;
    let namespace = opts.namespace(url)?;
    let timeout = timeout(url, &mut opts)?;
    Ok(ClientUrl {
        base: base.to_string(),
        namespace,
        timeout,
        options: opts.into_pairs(),
    })
}

fn timeout(url: &str, opts: &mut Options) -> Result<Duration, StoreError> {
    Ok(opts
        .take_u64(url, "timeout_ms")?
        .map_or(DEFAULT_TIMEOUT, Duration::from_millis))
}

/// `etcd://HOST:PORT[,HOST:PORT…][?ns=NAME&timeout_ms=N]`: the endpoints,
/// the namespace and the timeout.
pub(crate) fn parse_etcd(url: &str) -> Result<(Vec<String>, String, Duration), StoreError> {
    let rest = url
        .strip_prefix("etcd://")
        .ok_or_else(|| bad_url(url, "expected etcd://HOST:PORT[,HOST:PORT…]"))?;
    let (hosts, query) = split(rest);
    let mut opts = Options::parse(url, query)?;
    let namespace = opts.namespace(url)?;
    let timeout = timeout(url, &mut opts)?;
    opts.finish(url, &["ns", "timeout_ms"])?;
    let endpoints: Vec<String> = hosts.split(',').map(str::to_string).collect();
    for ep in &endpoints {
        check_endpoint(url, ep)?;
    }
    Ok((endpoints, namespace, timeout))
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

impl StoreSpec {
    /// The cargo feature of `lexikey-stores` that opening this store needs
    /// (`None` for `memory:`).
    pub fn feature(&self) -> Option<&'static str> {
        match self {
            StoreSpec::Memory { .. } => None,
            StoreSpec::Redb { .. } => Some("redb"),
            StoreSpec::Rocksdb { .. } => Some("rocksdb"),
            StoreSpec::Redis(_) => Some("redis"),
            StoreSpec::Postgres(_) => Some("postgres"),
            StoreSpec::Etcd { .. } => Some("etcd"),
        }
    }

    /// The namespace (`ns=`, or [`DEFAULT_NAMESPACE`](crate::DEFAULT_NAMESPACE)).
    pub fn namespace(&self) -> &str {
        match self {
            StoreSpec::Memory { namespace }
            | StoreSpec::Redb { namespace, .. }
            | StoreSpec::Rocksdb { namespace, .. }
            | StoreSpec::Redis(ClientUrl { namespace, .. })
            | StoreSpec::Postgres(ClientUrl { namespace, .. })
            | StoreSpec::Etcd { namespace, .. } => namespace,
        }
    }

    /// The canonical URL: the same store, every option spelled out
    /// (`ns`, then the store's own options, then the client library's, in
    /// their original order). `parse_url(&spec.to_url()) == Ok(spec)`.
    pub fn to_url(&self) -> String {
        let ms = |t: &Duration| t.as_millis();
        match self {
            StoreSpec::Memory { namespace } => format!("memory:?ns={namespace}"),
            StoreSpec::Redb {
                path,
                namespace,
                fsync,
                multi_process,
                lock_timeout,
            } => format!(
                "redb:{path}?ns={namespace}&fsync={fsync}&processes={}&lock_timeout_ms={}",
                if *multi_process { "many" } else { "one" },
                ms(lock_timeout)
            ),
            StoreSpec::Rocksdb { path, namespace } => format!("rocksdb:{path}?ns={namespace}"),
            StoreSpec::Redis(ClientUrl {
                base,
                namespace,
                timeout,
                options: client_options,
            })
            | StoreSpec::Postgres(ClientUrl {
                base,
                namespace,
                timeout,
                options: client_options,
            }) => {
                let mut url = format!("{base}?ns={namespace}&timeout_ms={}", ms(timeout));
                if !client_options.is_empty() {
                    url.push('&');
                    url.push_str(&join(client_options));
                }
                url
            }
            StoreSpec::Etcd {
                endpoints,
                namespace,
                timeout,
            } => format!(
                "etcd://{}?ns={namespace}&timeout_ms={}",
                endpoints.join(","),
                ms(timeout)
            ),
        }
    }
}

impl fmt::Display for StoreSpec {
    /// [`StoreSpec::to_url`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_url())
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
    fn endpoints() {
        let u = "etcd://x";
        assert!(check_endpoint(u, "127.0.0.1:2379").is_ok());
        assert!(check_endpoint(u, "[::1]:2379").is_ok());
        for bad in ["127.0.0.1", ":1", "h:0", "h:70000", "h/x:1", "a@b:1"] {
            assert!(check_endpoint(u, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parse_creates_nothing() {
        let dir = std::env::temp_dir().join(format!("lexikey-parse-{}", std::process::id()));
        for url in [
            format!("redb:{}", dir.display()),
            format!("rocksdb:{}", dir.display()),
        ] {
            assert!(parse_url(&url).is_ok());
            assert!(!dir.exists(), "{url}");
        }
    }

    #[test]
    fn specs_know_their_feature_and_namespace() {
        let spec = parse_url("postgres://u@h:1/db?ns=t").unwrap();
        assert_eq!((spec.feature(), spec.namespace()), (Some("postgres"), "t"));
        let spec = parse_url("memory:").unwrap();
        assert_eq!((spec.feature(), spec.namespace()), (None, "lexikey"));
        assert_eq!(spec.to_string(), "memory:?ns=lexikey");
    }
}
