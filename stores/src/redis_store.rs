//! Redis 7: keys in a sorted set (every score 0, so members sort by bytes),
//! values in a hash, writes as Lua scripts.

use std::io::Write as _;
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use lexikey::store::{Entry, Store, StoreError};
use lexikey::KeyRange;
use redis::{
    Client, Connection, ConnectionAddr, ConnectionInfo, ConnectionLike, IntoConnectionInfo,
    RedisError, RedisResult, Script, Value,
};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

use crate::pool::Pool;
use crate::secret::Scrub;
use crate::tls::{
    env, explain, explain_handshake_io, install_ring, read_pem, tls_error_in, Verifier,
};
use crate::url::{parse_client, ClientUrl, TlsOptions};

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
    /// `rediss://`: the TLS set-up, and the `cacert=` file (for messages).
    tls: Option<(Arc<ClientConfig>, Option<String>)>,
    scrub: Scrub,
    zset: Vec<u8>,
    hash: Vec<u8>,
    timeout: Duration,
    pool: Pool<Conn>,
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
        let bad = |e: RedisError| crate::url::bad_url(url, e.to_string());
        let mut info = client_url.as_str().into_connection_info().map_err(bad)?;
        if info.redis_settings().password().is_none() {
            if let Some(p) = env("REDISCLI_AUTH") {
                scrub.add(&p);
                let settings = info.redis_settings().clone().set_password(p);
                info = info.set_redis_settings(settings);
            }
        }
        // `rediss://`: TLS of our own (see `TlsConn`), so that the server
        // certificate is checked as redis-cli checks it.
        let tls = match info.addr() {
            ConnectionAddr::TcpTls { .. } => Some((tls_config(&c.tls)?, c.tls.ca.clone())),
            _ => None,
        };
        let client = Client::open(info).map_err(bad)?;
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

    fn connect(&self) -> Result<Conn, StoreError> {
        if let Some((config, ca)) = &self.tls {
            return self.connect_tls(config, ca.as_deref());
        }
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
                if dropped {
                    e.message
                        .push_str(" (a TLS-only server? then use rediss://)");
                }
                e
            })?;
        c.set_read_timeout(Some(self.timeout))
            .map_err(|e| err(&e))?;
        c.set_write_timeout(Some(self.timeout))
            .map_err(|e| err(&e))?;
        Ok(Conn::Plain(c))
    }

    /// A TLS connection: TCP, the handshake (every certificate failure one
    /// line, not retryable), then `AUTH` and `SELECT` as the URL asks.
    fn connect_tls(
        &self,
        config: &Arc<ClientConfig>,
        ca: Option<&str>,
    ) -> Result<Conn, StoreError> {
        let info: &ConnectionInfo = self.client.get_connection_info();
        let ConnectionAddr::TcpTls { host, port, .. } = info.addr() else {
            return Err(StoreError::fatal(NAME, "not a rediss:// address"));
        };
        let io = |e: std::io::Error| {
            StoreError::transient(NAME, self.scrub.scrub(&format!("{host}:{port}: {e}")))
        };
        let addrs: Vec<_> = (host.as_str(), *port)
            .to_socket_addrs()
            .map_err(io)?
            .collect();
        let mut last = None;
        let mut tcp = None;
        for a in &addrs {
            match TcpStream::connect_timeout(a, self.timeout) {
                Ok(t) => {
                    tcp = Some(t);
                    break;
                }
                Err(e) => last = Some(e),
            }
        }
        let mut tcp = match tcp {
            Some(t) => t,
            None => {
                return Err(io(last.unwrap_or_else(|| {
                    std::io::Error::new(std::io::ErrorKind::NotFound, "no address")
                })))
            }
        };
        tcp.set_read_timeout(Some(self.timeout)).map_err(io)?;
        tcp.set_write_timeout(Some(self.timeout)).map_err(io)?;
        let _ = tcp.set_nodelay(true);
        let name = ServerName::try_from(host.clone())
            .map_err(|e| StoreError::fatal(NAME, format!("TLS: host {host:?}: {e}")))?;
        let mut conn = ClientConnection::new(Arc::clone(config), name)
            .map_err(|e| StoreError::fatal(NAME, format!("TLS: {e}")))?;
        while conn.is_handshaking() {
            if let Err(e) = conn.complete_io(&mut tcp) {
                const PLAIN: &str = "use redis:// for a server without TLS";
                return Err(match tls_error_in(&e) {
                    Some(t) => StoreError::fatal(NAME, explain(t, ca, "cacert", PLAIN)),
                    // Perhaps only a slow or restarting server: retryable.
                    None => StoreError::transient(
                        NAME,
                        format!("{host}:{port}: {}", explain_handshake_io(&e, PLAIN)),
                    ),
                });
            }
        }
        let mut c = TlsConn {
            stream: StreamOwned::new(conn, tcp),
            parser: redis::Parser::new(),
            db: info.redis_settings().db(),
            open: true,
        };
        let settings = info.redis_settings();
        if let Some(pw) = settings.password() {
            let mut auth = redis::cmd("AUTH");
            if let Some(user) = settings.username() {
                let _ = auth.arg(user);
            }
            let _ = auth.arg(pw);
            if let Err(e) = auth.query::<()>(&mut c) {
                let mut se = err(&e);
                if e.kind() == redis::ErrorKind::Io || e.is_timeout() {
                    se.message = self.scrub.scrub(&se.message);
                    return Err(se);
                }
                return Err(StoreError::fatal(
                    NAME,
                    self.scrub
                        .scrub(&format!("authentication failed (wrong password?): {e}")),
                ));
            }
        }
        if c.db != 0 {
            redis::cmd("SELECT")
                .arg(c.db)
                .query::<()>(&mut c)
                .map_err(|e| err(&e))?;
        }
        Ok(Conn::Tls(Box::new(c)))
    }

    /// Runs read-only `f` like `with_conn`, once more on a fresh connection
    /// if the first attempt failed with a retryable error: after a server
    /// restart, a pooled connection fails once, and a read is safe to resend.
    fn read<T>(&self, f: impl Fn(&mut Conn) -> Result<T, RedisError>) -> Result<T, StoreError> {
        match self.with_conn(&f) {
            Err(e) if e.retryable => self.with_conn(&f),
            r => r,
        }
    }

    /// Runs `f` on a pooled connection; gives the connection back unless it
    /// broke.
    fn with_conn<T>(
        &self,
        f: impl FnOnce(&mut Conn) -> Result<T, RedisError>,
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

/// The rustls set-up of a `rediss://` URL: its `cacert=` file (else the
/// system's roots) and client certificate.
fn tls_config(t: &TlsOptions) -> Result<Arc<ClientConfig>, StoreError> {
    install_ring();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let setup = |e: rustls::Error| StoreError::fatal(NAME, format!("TLS setup: {e}"));
    let mut roots = RootCertStore::empty();
    let mut pinned = Vec::new();
    match &t.ca {
        Some(path) => {
            for c in CertificateDer::pem_slice_iter(&read_pem(NAME, "cacert", path)?) {
                let c = c.map_err(|e| StoreError::fatal(NAME, format!("cacert {path:?}: {e}")))?;
                roots
                    .add(c.clone())
                    .map_err(|e| StoreError::fatal(NAME, format!("cacert {path:?}: {e}")))?;
                pinned.push(c);
            }
            if roots.is_empty() {
                return Err(StoreError::fatal(
                    NAME,
                    format!("cacert {path:?}: no certificate"),
                ));
            }
        }
        None => (roots, pinned) = crate::tls::system_roots(),
    }
    let verifier = Verifier::new(roots, pinned, true, Arc::clone(&provider)).map_err(setup)?;
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(setup)?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier));
    let config = match (&t.cert, &t.key) {
        (Some(cert), Some(key)) => {
            let certs = CertificateDer::pem_slice_iter(&read_pem(NAME, "cert", cert)?)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| StoreError::fatal(NAME, format!("cert {cert:?}: {e}")))?;
            let key = PrivateKeyDer::from_pem_slice(&read_pem(NAME, "key", key)?)
                .map_err(|e| StoreError::fatal(NAME, format!("key {key:?}: {e}")))?;
            builder.with_client_auth_cert(certs, key).map_err(setup)?
        }
        _ => builder.with_no_client_auth(),
    };
    Ok(Arc::new(config))
}

/// A pooled connection: the `redis` crate's own (plain TCP), or ours over
/// rustls. Both speak to the `redis` crate's commands and scripts through
/// [`ConnectionLike`].
enum Conn {
    Plain(Connection),
    Tls(Box<TlsConn>),
}

impl ConnectionLike for Conn {
    fn req_packed_command(&mut self, cmd: &[u8]) -> RedisResult<Value> {
        match self {
            Conn::Plain(c) => c.req_packed_command(cmd),
            Conn::Tls(c) => c.req_packed_command(cmd),
        }
    }
    fn req_packed_commands(
        &mut self,
        cmd: &[u8],
        offset: usize,
        count: usize,
    ) -> RedisResult<Vec<Value>> {
        match self {
            Conn::Plain(c) => c.req_packed_commands(cmd, offset, count),
            Conn::Tls(c) => c.req_packed_commands(cmd, offset, count),
        }
    }
    fn get_db(&self) -> i64 {
        match self {
            Conn::Plain(c) => c.get_db(),
            Conn::Tls(c) => c.get_db(),
        }
    }
    fn check_connection(&mut self) -> bool {
        match self {
            Conn::Plain(c) => c.check_connection(),
            Conn::Tls(c) => c.check_connection(),
        }
    }
    fn is_open(&self) -> bool {
        match self {
            Conn::Plain(c) => c.is_open(),
            Conn::Tls(c) => c.is_open(),
        }
    }
}

/// RESP over a rustls stream: the packed commands the `redis` crate
/// builds go out as they are, its parser reads the replies. (The `redis`
/// crate's own TLS cannot take a custom certificate check.)
struct TlsConn {
    stream: StreamOwned<ClientConnection, TcpStream>,
    parser: redis::Parser,
    db: i64,
    open: bool,
}

impl TlsConn {
    fn send(&mut self, cmd: &[u8]) -> RedisResult<()> {
        let r = self
            .stream
            .write_all(cmd)
            .and_then(|()| self.stream.flush());
        if r.is_err() {
            self.open = false;
        }
        Ok(r?)
    }

    fn receive(&mut self) -> RedisResult<Value> {
        match self.parser.parse_value(&mut self.stream) {
            Ok(v) => v.extract_error(),
            Err(e) => {
                // A broken stream or a reply cut short: never reuse it.
                self.open = false;
                Err(e)
            }
        }
    }
}

impl ConnectionLike for TlsConn {
    fn req_packed_command(&mut self, cmd: &[u8]) -> RedisResult<Value> {
        self.send(cmd)?;
        self.receive()
    }
    fn req_packed_commands(
        &mut self,
        cmd: &[u8],
        offset: usize,
        count: usize,
    ) -> RedisResult<Vec<Value>> {
        self.send(cmd)?;
        let mut out = Vec::with_capacity(count);
        for i in 0..offset + count {
            let v = self.receive()?;
            if i >= offset {
                out.push(v);
            }
        }
        Ok(out)
    }
    fn get_db(&self) -> i64 {
        self.db
    }
    fn check_connection(&mut self) -> bool {
        redis::cmd("PING").query::<String>(self).is_ok()
    }
    fn is_open(&self) -> bool {
        self.open
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

    /// One pipeline of `ZRANGE … BYLEX LIMIT 0 1`, one per range: one
    /// round trip.
    fn first_keys(&self, ranges: &[KeyRange]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        let asked: Vec<&KeyRange> = ranges.iter().filter(|r| !r.is_empty()).collect();
        let mut answers = if asked.is_empty() {
            Vec::new()
        } else {
            let mut pipe = redis::pipe();
            for r in &asked {
                let (min, max) = lex_bounds(r);
                let _ = pipe
                    .cmd("ZRANGE")
                    .arg(&self.zset)
                    .arg(min)
                    .arg(max)
                    .arg("BYLEX")
                    .arg("LIMIT")
                    .arg(0)
                    .arg(1);
            }
            let got: Vec<Vec<Vec<u8>>> = self.read(|c| pipe.query(c))?;
            if got.len() != asked.len() {
                return Err(StoreError::fatal(
                    NAME,
                    format!(
                        "a pipeline of {} reads got {} replies",
                        asked.len(),
                        got.len()
                    ),
                ));
            }
            got
        }
        .into_iter();
        Ok(ranges
            .iter()
            .map(|r| {
                if r.is_empty() {
                    None
                } else {
                    answers.next().and_then(|mut keys| keys.pop())
                }
            })
            .collect())
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
