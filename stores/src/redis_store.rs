//! Redis 7: keys in a sorted set (every score 0, so members sort by bytes),
//! values in a hash, writes as Lua scripts.

use std::time::Duration;

use lexikey::store::{Entry, Store, StoreError};
use lexikey::KeyRange;
use redis::{
    Client, ClientTlsConfig, Connection, IntoConnectionInfo, RedisError, Script, TlsCertificates,
};

use crate::pool::Pool;
use crate::secret::Scrub;
use crate::spec::{parse_client, ClientUrl};
use crate::tls::{env, install_ring, read_pem};

const NAME: &str = "redis";

/// `KEYS[1]` sorted set, `KEYS[2]` value hash; `ARGV[1]` key, `ARGV[2]`
/// value. Member and value are written in one step (a script runs alone).
const PUT_IF_ABSENT: &str = r"
if redis.call('ZADD', KEYS[1], 'NX', 0, ARGV[1]) == 1 then
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
  return 1
end
return 0
";

/// `ARGV[1]` key, `ARGV[2]` new value, `ARGV[3]` `1` if a value is
/// expected (`0`: expected absent), `ARGV[4]` the expected value.
const COMPARE_AND_SWAP: &str = r"
local cur = redis.call('HGET', KEYS[2], ARGV[1])
if ARGV[3] == '0' then
  if cur then return 0 end
elseif cur ~= ARGV[4] then
  return 0
end
redis.call('ZADD', KEYS[1], 0, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
";

/// `ARGV[1]` key. Returns 1 if it existed.
const DELETE: &str = r"
local n = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
return n
";

/// `ARGV[1]`/`ARGV[2]` lex bounds, `ARGV[3]` limit (-1: none). Returns
/// key, value, key, value, … from one consistent state.
const SCAN: &str = r"
local ks = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2], 'BYLEX', 'LIMIT', 0, ARGV[3])
local out = {}
for i, k in ipairs(ks) do
  out[2 * i - 1] = k
  out[2 * i] = redis.call('HGET', KEYS[2], k) or ''
end
return out
";

/// A [`Store`] in Redis (7.0 or later, for `ZRANGE … BYLEX`).
///
/// Namespace `NS` keeps its keys as members of the sorted set `NS` (all
/// scores 0: Redis then orders members by `memcmp`, which is lexikey's
/// order) and their values in the hash `NS:values`. Every write is one Lua
/// script, so a key and its value appear together (put-if-absent is
/// `ZADD NX` then `HSET` inside one script). `first_key` is
/// `ZRANGE NS [start (end BYLEX LIMIT 0 1`.
///
/// Connections are pooled. A connection that fails is dropped; the error is
/// retryable, and for a write it means "outcome unknown" (see the
/// [crate docs](crate#errors-and-retries)).
///
/// **TLS and passwords.** `rediss://` connects over TLS (rustls, `ring`
/// provider), trusting the system's roots or the PEM file `cacert=`;
/// `cert=` and `key=` give a client certificate. A password
/// (`requirepass`) is `redis://:PASSWORD@HOST:PORT`, an ACL user
/// `redis://USER:PASSWORD@HOST:PORT`; a URL without a password takes it from
/// `REDISCLI_AUTH`, as `redis-cli` does.
pub struct RedisStore {
    client: Client,
    tls: bool,
    scrub: Scrub,
    zset: Vec<u8>,
    hash: Vec<u8>,
    timeout: Duration,
    pool: Pool<Connection>,
    put_if_absent: Script,
    cas: Script,
    delete: Script,
    scan: Script,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field(
                "server",
                &self.client.get_connection_info().addr().to_string(),
            )
            .field("zset", &String::from_utf8_lossy(&self.zset))
            .finish_non_exhaustive()
    }
}

fn err(e: &RedisError) -> StoreError {
    // A refused password is not going to work on a second try.
    if e.kind() == redis::ErrorKind::AuthenticationFailed {
        return StoreError::fatal(NAME, e.to_string());
    }
    use redis::{ErrorKind, ServerErrorKind};
    let retryable = e.is_io_error()
        || e.is_timeout()
        || e.is_connection_dropped()
        || e.is_connection_refusal()
        || matches!(
            e.kind(),
            ErrorKind::Server(
                ServerErrorKind::BusyLoading
                    | ServerErrorKind::TryAgain
                    | ServerErrorKind::MasterDown
                    | ServerErrorKind::ClusterDown
            )
        );
    StoreError {
        store: NAME,
        message: e.to_string(),
        retryable,
    }
}

/// Whether a connection that returned `e` may be used again.
fn reusable(e: &RedisError) -> bool {
    !(e.is_io_error() || e.is_timeout() || e.is_connection_dropped() || e.is_unrecoverable_error())
}

impl RedisStore {
    /// Connects to the Redis server of `url`
    /// (`redis://HOST:PORT[/DB][?ns=NAME&timeout_ms=N]`; other options go to
    /// the `redis` crate). Checks the server with a `PING`.
    ///
    /// # Errors
    /// A fatal [`StoreError`] for a bad URL; a retryable one when the
    /// server cannot be reached.
    pub fn open(url: &str) -> Result<RedisStore, StoreError> {
        Self::open_parsed(url, &parse_client(url)?)
    }

    /// Connects with the parsed `c` (`url`: for error messages).
    pub(crate) fn open_parsed(url: &str, c: &ClientUrl) -> Result<RedisStore, StoreError> {
        let (ns, timeout) = (&c.namespace, c.timeout);
        let client_url = c.client_url();
        let mut scrub = Scrub::of_url(url);
        let bad = |e: RedisError| crate::bad_url(url, e.to_string());
        let mut info = client_url.as_str().into_connection_info().map_err(bad)?;
        if info.redis_settings().password().is_none() {
            if let Some(p) = env("REDISCLI_AUTH") {
                scrub.add(&p);
                let settings = info.redis_settings().clone().set_password(p);
                info = info.set_redis_settings(settings);
            }
        }
        let tls = client_url.starts_with("rediss:");
        let client = if tls {
            install_ring();
            let read = |what: &str, path: &Option<String>| {
                path.as_deref().map(|p| read_pem(NAME, what, p)).transpose()
            };
            let certs = TlsCertificates {
                root_cert: read("cacert", &c.tls.ca)?,
                client_tls: match (read("cert", &c.tls.cert)?, read("key", &c.tls.key)?) {
                    (Some(client_cert), Some(client_key)) => Some(ClientTlsConfig {
                        client_cert,
                        client_key,
                    }),
                    _ => None,
                },
            };
            Client::build_with_tls(info, certs).map_err(bad)?
        } else {
            Client::open(info).map_err(bad)?
        };
        let store = RedisStore {
            client,
            tls,
            scrub,
            zset: ns.as_bytes().to_vec(),
            hash: format!("{ns}:values").into_bytes(),
            timeout,
            pool: Pool::new(64),
            put_if_absent: Script::new(PUT_IF_ABSENT),
            cas: Script::new(COMPARE_AND_SWAP),
            delete: Script::new(DELETE),
            scan: Script::new(SCAN),
        };
        store.with_conn(|c| redis::cmd("PING").query::<String>(c))?;
        Ok(store)
    }

    fn connect(&self) -> Result<Connection, StoreError> {
        let c = self
            .client
            .get_connection_with_timeout(self.timeout)
            .map_err(|e| {
                // A TLS-only server drops a plain-text client.
                let dropped = e.is_connection_dropped()
                    || e.to_string().contains("reset by peer")
                    || e.to_string().contains("end of file");
                let mut e = err(&e);
                e.message = self.scrub.scrub(&e.message);
                if dropped && !self.tls {
                    e.message
                        .push_str(" (a TLS-only server? then use rediss://)");
                }
                e
            })?;
        c.set_read_timeout(Some(self.timeout))
            .map_err(|e| err(&e))?;
        c.set_write_timeout(Some(self.timeout))
            .map_err(|e| err(&e))?;
        Ok(c)
    }

    /// Runs read-only `f` like `with_conn`, once more on a fresh connection
    /// if the first attempt failed with a retryable error: after a server
    /// restart, a pooled connection fails once, and a read is safe to resend.
    fn read<T>(
        &self,
        f: impl Fn(&mut Connection) -> Result<T, RedisError>,
    ) -> Result<T, StoreError> {
        match self.with_conn(&f) {
            Err(e) if e.retryable => self.with_conn(&f),
            r => r,
        }
    }

    /// Runs `f` on a pooled connection; gives the connection back unless it
    /// broke.
    fn with_conn<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, RedisError>,
    ) -> Result<T, StoreError> {
        let mut c = match self.pool.take() {
            Some(c) => c,
            None => self.connect()?,
        };
        match f(&mut c) {
            Ok(v) => {
                self.pool.put(c);
                Ok(v)
            }
            Err(e) => {
                if reusable(&e) {
                    self.pool.put(c);
                } else {
                    // The server may have restarted: drop the other idle
                    // connections too, rather than fail once on each.
                    self.pool.clear();
                }
                Err(err(&e))
            }
        }
    }
}

/// The `ZRANGE … BYLEX` bounds of a range.
fn lex_bounds(range: &KeyRange) -> (Vec<u8>, Vec<u8>) {
    let bound = |b: &Option<Vec<u8>>, mark: u8, open: &[u8]| match b {
        Some(k) => {
            let mut v = Vec::with_capacity(k.len() + 1);
            v.push(mark);
            v.extend_from_slice(k);
            v
        }
        None => open.to_vec(),
    };
    (
        bound(&range.start, b'[', b"-"),
        bound(&range.end, b'(', b"+"),
    )
}

impl Store for RedisStore {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        if range.is_empty() {
            return Ok(None);
        }
        let (min, max) = lex_bounds(range);
        let mut keys: Vec<Vec<u8>> = self.read(|c| {
            redis::cmd("ZRANGE")
                .arg(&self.zset)
                .arg(&min)
                .arg(&max)
                .arg("BYLEX")
                .arg("LIMIT")
                .arg(0)
                .arg(1)
                .query(c)
        })?;
        Ok(keys.pop())
    }

    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        let n: i64 = self.with_conn(|c| {
            self.put_if_absent
                .key(&self.zset)
                .key(&self.hash)
                .arg(key)
                .arg(value)
                .invoke(c)
        })?;
        Ok(n == 1)
    }

    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        let n: i64 = self.with_conn(|c| {
            self.cas
                .key(&self.zset)
                .key(&self.hash)
                .arg(key)
                .arg(new)
                .arg(if expected.is_some() { "1" } else { "0" })
                .arg(expected.unwrap_or_default())
                .invoke(c)
        })?;
        Ok(n == 1)
    }

    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.read(|c| redis::cmd("HGET").arg(&self.hash).arg(key).query(c))
    }

    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        if range.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let (min, max) = lex_bounds(range);
        // A negative count is "no limit" to ZRANGE.
        let lim: i64 = i64::try_from(limit).unwrap_or(-1);
        let flat: Vec<Vec<u8>> = self.read(|c| {
            self.scan
                .key(&self.zset)
                .key(&self.hash)
                .arg(&min)
                .arg(&max)
                .arg(lim)
                .invoke(c)
        })?;
        let mut out = Vec::with_capacity(flat.len() / 2);
        let mut it = flat.into_iter();
        while let (Some(k), Some(v)) = (it.next(), it.next()) {
            out.push((k, v));
        }
        Ok(out)
    }

    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        let n: i64 = self.with_conn(|c| {
            self.delete
                .key(&self.zset)
                .key(&self.hash)
                .arg(key)
                .invoke(c)
        })?;
        Ok(n == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lex_bounds_of_ranges() {
        assert_eq!(lex_bounds(&KeyRange::all()), (b"-".to_vec(), b"+".to_vec()));
        let r = KeyRange::new(Some(b"a\x00".to_vec()), Some(b"b\xFF".to_vec())).unwrap();
        assert_eq!(lex_bounds(&r), (b"[a\x00".to_vec(), b"(b\xFF".to_vec()));
    }
}
