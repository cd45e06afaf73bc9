//! etcd v3 through its JSON gateway (`POST /v3/kv/…`), over a small sync
//! HTTP client: no gRPC, no protoc, no async runtime.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use lexikey::store::{Entry, Store, StoreError};
use lexikey::KeyRange;
use serde_json::{json, Value};
use std::sync::Arc;

use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};
use ureq::tls::{parse_pem, Certificate, ClientCert, PemItem, PrivateKey, TlsConfig};
use ureq::unversioned::resolver::DefaultResolver;
use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, Connector, Either, LazyBuffers, NextTimeout, TcpConnector,
    Transport, TransportAdapter,
};
use ureq::Agent;

use crate::prefix::Prefix;
use crate::secret::{Scrub, Secret};
use crate::tls::{
    env, explain, explain_handshake_io, install_ring, read_pem, tls_error_in, Verifier,
};
use crate::url::TlsOptions;
use crate::EtcdOptions;

const NAME: &str = "etcd";

/// Pause between two passes over every endpoint (reads only).
const PASS_PAUSE: Duration = Duration::from_millis(100);
/// Passes over every endpoint a read makes before it gives up.
const READ_PASSES: usize = 3;

/// A [`Store`] on an etcd cluster, keys under the prefix `NS/`.
///
/// | operation | etcd request |
/// |---|---|
/// | first key | `range` `key`=`NS/start`, `range_end`=`NS/end` (or the prefix end `NS0`), `limit 1`, `keys_only` |
/// | put-if-absent | `txn` `compare: create_revision(k) == 0`, `success: put` |
/// | compare-and-swap | `txn` `compare: value(k) == expected` (a missing key never matches), `success: put` |
/// | delete | `deleterange` |
///
/// Reads are linearizable (etcd's default). Keys and values travel as
/// standard base64, as the gateway wants.
///
/// **Failover.** With several endpoints, requests go to the last endpoint
/// that answered. When an endpoint refuses the connection, the request
/// moves to the next one at once (it never reached a server, so this is
/// safe even for writes). A read that times out or meets a server error
/// such as "no leader" also moves on, for up to three passes over all
/// endpoints. A write whose outcome is unknown (timeout or broken
/// connection after sending, "request timed out", "leader changed") is
/// **not** resent: it fails with a retryable [`StoreError`], and the next
/// request starts at the next endpoint. Every request is bounded by
/// [`EtcdOptions::timeout`].
///
/// **TLS and authentication.** `etcd+https://` speaks HTTPS (ureq over
/// rustls, `ring` provider) with an optional client certificate, as an
/// etcd started with `--client-cert-auth` wants. With a user
/// (`etcd+https://USER:PASSWORD@…` or `ETCDCTL_USER`), the store gets a
/// token from `/v3/auth/authenticate` and sends it in the `Authorization`
/// header. When a member refuses the token (`invalid auth token`: it
/// expired after `--auth-token-ttl` idle seconds, or came from another
/// member — etcd's simple tokens are per member), the store authenticates
/// again and resends the request once: etcd checks the token before it
/// applies anything, so this is safe for writes too.
pub struct EtcdStore {
    agent: Agent,
    /// The CA file (`cacert=`, `ETCDCTL_CACERT`), for TLS messages.
    ca: Option<String>,
    scheme: &'static str,
    endpoints: Vec<String>,
    current: AtomicUsize,
    prefix: Prefix,
    auth: Option<Auth>,
    scrub: Scrub,
}

/// A user, its password and the current token.
struct Auth {
    user: String,
    password: Secret,
    token: Mutex<Option<String>>,
}

impl std::fmt::Debug for EtcdStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EtcdStore")
            .field("endpoints", &self.endpoints)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// How a request failed.
enum Failure {
    /// The request never reached a server (connection refused): safe to
    /// send elsewhere.
    NotSent(String),
    /// It may or may not have been applied.
    Unknown(String),
    /// The server answered with an error; `retryable` per its gRPC code.
    Server { message: String, retryable: bool },
    /// The server refused the auth token (expired, or another member's).
    BadToken(String),
}

/// Why [`EtcdStore::send`] failed.
enum SendError {
    /// The token was refused: authenticate again, then resend.
    BadToken(String),
    /// Anything else.
    Store(StoreError),
}

impl From<StoreError> for SendError {
    fn from(e: StoreError) -> Self {
        SendError::Store(e)
    }
}

fn b64(bytes: &[u8]) -> String {
    B64.encode(bytes)
}

fn unb64(v: &Value) -> Result<Vec<u8>, StoreError> {
    match v {
        // proto3 JSON omits empty bytes.
        Value::Null => Ok(Vec::new()),
        Value::String(s) => B64
            .decode(s)
            .map_err(|e| StoreError::fatal(NAME, format!("bad base64 from etcd: {e}"))),
        other => Err(StoreError::fatal(
            NAME,
            format!("expected a base64 string from etcd, got {other}"),
        )),
    }
}

/// An etcd int64 (proto3 JSON writes them as strings; absent = 0).
fn int(v: &Value) -> i64 {
    match v {
        Value::String(s) => s.parse().unwrap_or(0),
        Value::Number(n) => n.as_i64().unwrap_or(0),
        _ => 0,
    }
}

impl EtcdStore {
    /// Opens `etcd://HOST:PORT[,HOST:PORT…][?ns=NAME&timeout_ms=N]` and
    /// checks that some endpoint answers.
    ///
    /// # Errors
    /// A fatal [`StoreError`] for a bad URL; a retryable one when no
    /// endpoint answers.
    pub fn open(url: &str) -> Result<EtcdStore, StoreError> {
        Self::open_checked(crate::url::parse_etcd(url)?)
    }

    /// [`EtcdStore::open_with`], then one request to check that some
    /// endpoint answers.
    pub(crate) fn open_checked(options: EtcdOptions) -> Result<EtcdStore, StoreError> {
        let store = Self::open_with(options)?;
        // Fail early when nothing answers.
        let _ = store.first_key(&KeyRange::all())?;
        Ok(store)
    }

    /// A store on the endpoints of `options` (no request is made).
    ///
    /// # Errors
    /// A fatal [`StoreError`] for no endpoint or a bad namespace, or a
    /// certificate file that cannot be read.
    pub fn open_with(options: EtcdOptions) -> Result<EtcdStore, StoreError> {
        crate::check_namespace(&options.namespace)?;
        if options.endpoints.is_empty() {
            return Err(StoreError::fatal(NAME, "no endpoint"));
        }
        let mut scrub = Scrub::default();
        let auth = auth_from(&options, &mut scrub);
        let tls = options.tls.as_ref().map(tls_config).transpose()?;
        let config = Agent::config_builder()
            .tls_config(tls.as_ref().map(|t| t.ureq.clone()).unwrap_or_default())
            .http_status_as_error(false)
            .timeout_global(Some(options.timeout))
            .timeout_connect(Some(options.timeout.min(Duration::from_secs(1))))
            .max_idle_connections_per_host(32)
            .max_idle_connections(128)
            .build();
        // With a CA file (or SSL_CERT_FILE / SSL_CERT_DIR), TLS of our own
        // (`PinnedTls`): ureq's cannot take a custom certificate check;
        // without one, ureq's (Mozilla roots).
        let agent = match tls.as_ref().and_then(|t| t.pinned.clone()) {
            Some(rustls) => Agent::with_parts(
                config,
                TcpConnector::default().chain(PinnedTls(rustls)),
                DefaultResolver::default(),
            ),
            None => config.into(),
        };
        Ok(EtcdStore {
            agent,
            ca: tls.as_ref().and_then(|t| t.ca.clone()),
            scheme: if tls.is_some() { "https" } else { "http" },
            endpoints: options.endpoints,
            current: AtomicUsize::new(0),
            prefix: Prefix::new(&options.namespace),
            auth,
            scrub,
        })
    }

    /// One POST to one endpoint, with `token` in the `Authorization` header.
    fn post(
        &self,
        endpoint: &str,
        path: &str,
        body: &Value,
        token: Option<&str>,
    ) -> Result<Value, Failure> {
        let url = format!("{}://{endpoint}{path}", self.scheme);
        let mut req = self.agent.post(&url);
        if let Some(t) = token {
            req = req.header("Authorization", t);
        }
        let mut resp = match req.send_json(body) {
            Ok(r) => r,
            Err(e) => {
                let not_sent = match &e {
                    ureq::Error::Io(io) => matches!(
                        io.kind(),
                        std::io::ErrorKind::ConnectionRefused
                            | std::io::ErrorKind::AddrNotAvailable
                    ),
                    ureq::Error::ConnectionFailed | ureq::Error::HostNotFound => true,
                    ureq::Error::Timeout(t) => {
                        matches!(t, ureq::Timeout::Connect | ureq::Timeout::Resolve)
                    }
                    _ => false,
                };
                // A certificate refused, a server without TLS: one line,
                // and no other endpoint or retry can help.
                let tls = match &e {
                    ureq::Error::Rustls(t) => Some(t),
                    ureq::Error::Io(io) => tls_error_in(io),
                    _ => None,
                };
                if let Some(t) = tls {
                    let why = explain(
                        t,
                        self.ca.as_deref(),
                        "cacert",
                        "use etcd:// for an endpoint without TLS",
                    );
                    return Err(Failure::Server {
                        message: format!("{endpoint}: {why}"),
                        retryable: false,
                    });
                }
                if let ureq::Error::Io(io) = &e {
                    if let Some(h) = io.get_ref().and_then(|x| x.downcast_ref::<HandshakeIo>()) {
                        return Err(Failure::NotSent(format!("{endpoint}: {h}")));
                    }
                }
                let mut message = self.scrub.scrub(&format!("{endpoint}: {e}"));
                // A TLS-only etcd drops a plain-HTTP client without a word.
                let dropped = matches!(&e, ureq::Error::Io(io) if matches!(
                    io.kind(),
                    std::io::ErrorKind::ConnectionReset
                        | std::io::ErrorKind::ConnectionAborted
                        | std::io::ErrorKind::UnexpectedEof
                )) || e.to_string().contains("disconnected");
                if dropped && self.scheme == "http" {
                    message.push_str(" (an HTTPS-only endpoint? then use etcd+https://)");
                }
                return Err(if not_sent {
                    Failure::NotSent(message)
                } else {
                    Failure::Unknown(message)
                });
            }
        };
        let status = resp.status().as_u16();
        let text = resp
            .body_mut()
            .read_to_string()
            .map_err(|e| Failure::Unknown(format!("{endpoint}: reading the answer: {e}")))?;
        let json: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            // Not etcd's JSON: a proxy, or etcd refusing the request before
            // its gateway ("Client sent an HTTP request to an HTTPS
            // server", a client certificate with a CommonName).
            Err(_) if status != 200 => {
                let line = text.lines().next().unwrap_or("").trim();
                let line: String = line.chars().take(200).collect();
                return Err(Failure::Server {
                    message: self
                        .scrub
                        .scrub(&format!("{endpoint}: HTTP {status}: {line}")),
                    retryable: matches!(status, 502..=504),
                });
            }
            Err(e) => {
                return Err(Failure::Unknown(format!(
                    "{endpoint}: reading the answer: {e}"
                )))
            }
        };
        if status == 200 {
            return Ok(json);
        }
        // gRPC-gateway errors: {"error": "...", "code": N, "message": "..."}
        let code = json.get("code").and_then(Value::as_i64).unwrap_or(-1);
        let text = json
            .get("message")
            .or_else(|| json.get("error"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let message = self
            .scrub
            .scrub(&format!("{endpoint}: HTTP {status}, code {code}: {text}"));
        // 16 UNAUTHENTICATED: etcd's "invalid auth token".
        if code == 16 || text.contains("invalid auth token") {
            return Err(Failure::BadToken(message));
        }
        // 4 DEADLINE_EXCEEDED, 10 ABORTED, 14 UNAVAILABLE; HTTP 503/504.
        let retryable = matches!(code, 4 | 10 | 14) || matches!(status, 502..=504);
        Err(Failure::Server { message, retryable })
    }

    /// Sends a request (authenticated when the store has a user), failing
    /// over between endpoints as the type docs describe. `read`: the
    /// request changes nothing, so it may be resent.
    fn call(&self, path: &str, body: &Value, read: bool) -> Result<Value, StoreError> {
        let Some(auth) = &self.auth else {
            return self
                .send(path, body, read, None)
                .map_err(SendError::into_store);
        };
        let cached = auth.token.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let token = match cached {
            Some(t) => t,
            None => self.authenticate(auth)?,
        };
        match self.send(path, body, read, Some(&token)) {
            // Refused before anything was applied: a new token, once more.
            Err(SendError::BadToken(_)) => {
                let token = self.authenticate(auth)?;
                self.send(path, body, read, Some(&token))
                    .map_err(SendError::into_store)
            }
            r => r.map_err(SendError::into_store),
        }
    }

    /// Gets a new token for `auth` (and keeps it for the next requests).
    fn authenticate(&self, auth: &Auth) -> Result<String, StoreError> {
        let body = json!({ "name": auth.user, "password": auth.password.expose() });
        // Authenticating changes no key: resending it is safe.
        let resp = self
            .send("/v3/auth/authenticate", &body, true, None)
            .map_err(SendError::into_store)
            .map_err(|mut e| {
                e.message = format!("authentication as {:?} failed: {}", auth.user, e.message);
                e
            })?;
        let token = resp
            .get("token")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                StoreError::fatal(
                    NAME,
                    format!(
                        "authentication as {:?}: no token in the answer (is auth enabled?)",
                        auth.user
                    ),
                )
            })?
            .to_string();
        *auth.token.lock().unwrap_or_else(|p| p.into_inner()) = Some(token.clone());
        Ok(token)
    }

    /// [`EtcdStore::call`] with a given token (or none).
    fn send(
        &self,
        path: &str,
        body: &Value,
        read: bool,
        token: Option<&str>,
    ) -> Result<Value, SendError> {
        let n = self.endpoints.len();
        let first = self.current.load(Ordering::Relaxed) % n;
        let passes = if read { READ_PASSES } else { 1 };
        let mut last = String::new();
        for attempt in 0..n * passes {
            if attempt > 0 && attempt % n == 0 {
                std::thread::sleep(PASS_PAUSE);
            }
            let i = (first + attempt) % n;
            match self.post(&self.endpoints[i], path, body, token) {
                Ok(v) => {
                    if i != first {
                        self.current.store(i, Ordering::Relaxed);
                    }
                    return Ok(v);
                }
                Err(Failure::NotSent(m)) => {
                    last = m;
                    self.current.store((i + 1) % n, Ordering::Relaxed);
                }
                Err(Failure::Unknown(m)) => {
                    self.current.store((i + 1) % n, Ordering::Relaxed);
                    if !read {
                        return Err(StoreError::transient(
                            NAME,
                            format!("{m} (the write may or may not have been applied)"),
                        )
                        .into());
                    }
                    last = m;
                }
                Err(Failure::BadToken(message)) => {
                    // Authenticate at this member, then resend here.
                    self.current.store(i, Ordering::Relaxed);
                    return Err(match token {
                        Some(_) => SendError::BadToken(message),
                        None => SendError::Store(StoreError::fatal(NAME, message)),
                    });
                }
                Err(Failure::Server { message, retryable }) => {
                    if !retryable {
                        return Err(StoreError::fatal(NAME, message).into());
                    }
                    if !read {
                        self.current.store((i + 1) % n, Ordering::Relaxed);
                        return Err(StoreError::transient(
                            NAME,
                            format!("{message} (the write may or may not have been applied)"),
                        )
                        .into());
                    }
                    last = message;
                }
            }
        }
        Err(StoreError::transient(
            NAME,
            format!(
                "no endpoint of {} answered; last error: {last}",
                self.endpoints.join(",")
            ),
        )
        .into())
    }
}

impl SendError {
    fn into_store(self) -> StoreError {
        match self {
            SendError::Store(e) => e,
            SendError::BadToken(m) => StoreError::fatal(NAME, m),
        }
    }
}

/// The user and password of `o`, else of `ETCDCTL_USER` (`USER` or
/// `USER:PASSWORD`) and `ETCDCTL_PASSWORD`, as etcdctl reads them; the
/// password is added to `scrub`.
fn auth_from(o: &EtcdOptions, scrub: &mut Scrub) -> Option<Auth> {
    let (user, password) = match &o.user {
        Some(u) => (u.clone(), o.password.clone()),
        None => {
            let v = env("ETCDCTL_USER")?;
            match v.split_once(':') {
                Some((u, p)) => (u.to_string(), Some(Secret::new(p))),
                None => (v, None),
            }
        }
    };
    let password = password
        .or_else(|| env("ETCDCTL_PASSWORD").map(Secret::new))
        .unwrap_or_default();
    scrub.add(password.expose());
    Some(Auth {
        user,
        password,
        token: Mutex::new(None),
    })
}

/// The TLS set-up of an `etcd+https://` store.
struct Tls {
    /// ureq's settings (used as they are without a CA file).
    ureq: TlsConfig,
    /// With a CA file: our rustls set-up (see [`PinnedTls`]).
    pinned: Option<Arc<ClientConfig>>,
    /// The CA file.
    ca: Option<String>,
}

/// The TLS settings for `t` (files from `ETCDCTL_CACERT`, `ETCDCTL_CERT`,
/// `ETCDCTL_KEY` when the URL names none).
fn tls_config(t: &TlsOptions) -> Result<Tls, StoreError> {
    let ca = t.ca.clone().or_else(|| env("ETCDCTL_CACERT"));
    let (cert, key) = match (&t.cert, &t.key) {
        (Some(c), Some(k)) => (Some(c.clone()), Some(k.clone())),
        _ => (env("ETCDCTL_CERT"), env("ETCDCTL_KEY")),
    };
    let pem_err = |what: &str, path: &str, e: ureq::Error| {
        StoreError::fatal(NAME, format!("the {what} file {path:?}: {e}"))
    };
    let certs = |what: &str, path: &str| -> Result<Vec<Certificate<'static>>, StoreError> {
        let pem = read_pem(NAME, what, path)?;
        let mut out = Vec::new();
        for item in parse_pem(&pem) {
            if let PemItem::Certificate(c) = item.map_err(|e| pem_err(what, path, e))? {
                out.push(c);
            }
        }
        if out.is_empty() {
            return Err(StoreError::fatal(
                NAME,
                format!("the {what} file {path:?} holds no certificate"),
            ));
        }
        Ok(out)
    };
    let mut b = TlsConfig::builder();
    let client =
        match (&cert, &key) {
            (Some(cert), Some(key)) => {
                let chain = certs("cert", cert)?;
                let pem = read_pem(NAME, "key", key)?;
                let parsed = PrivateKey::from_pem(&pem).map_err(|e| pem_err("key", key, e))?;
                let der = parsed.der().to_vec();
                b = b.client_cert(Some(ClientCert::new_with_certs(&chain, parsed)));
                Some((chain, der))
            }
            (None, None) => None,
            _ => return Err(StoreError::fatal(
                NAME,
                "a client certificate needs both cert= and key= (or ETCDCTL_CERT and ETCDCTL_KEY)",
            )),
        };
    // The CA file; else the trust store SSL_CERT_FILE / SSL_CERT_DIR name
    // (as etcdctl reads them); else ureq's own roots.
    let trust = match &ca {
        None if crate::tls::env_trust_store().is_none() => None,
        None => Some(crate::tls::system_roots()),
        Some(ca) => {
            let mut roots = RootCertStore::empty();
            let mut pinned = Vec::new();
            for c in certs("cacert", ca)? {
                let c = CertificateDer::from(c.der().to_vec());
                roots
                    .add(c.clone())
                    .map_err(|e| StoreError::fatal(NAME, format!("the cacert file {ca:?}: {e}")))?;
                pinned.push(c);
            }
            Some((roots, pinned))
        }
    };
    let pinned = match trust {
        None => None,
        Some((roots, pinned)) => {
            install_ring();
            let provider = Arc::new(rustls::crypto::ring::default_provider());
            let setup = |e: rustls::Error| StoreError::fatal(NAME, format!("TLS setup: {e}"));
            let verifier =
                Verifier::new(roots, pinned, true, Arc::clone(&provider)).map_err(setup)?;
            let builder = ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .map_err(setup)?
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(verifier));
            let config = match client {
                Some((chain, key)) => {
                    let chain = chain
                        .iter()
                        .map(|c| CertificateDer::from(c.der().to_vec()))
                        .collect();
                    let key = PrivateKeyDer::try_from(key)
                        .map_err(|e| StoreError::fatal(NAME, format!("the key file: {e}")))?;
                    builder.with_client_auth_cert(chain, key).map_err(setup)?
                }
                None => builder.with_no_client_auth(),
            };
            Some(Arc::new(config))
        }
    };
    Ok(Tls {
        ureq: b.build(),
        pinned,
        ca,
    })
}

/// A ureq connector: TLS over the TCP transport with our rustls set-up
/// (the certificate check of `tls::Verifier`). A handshake failure is
/// `ureq::Error::Rustls`.
#[derive(Debug)]
struct PinnedTls(Arc<ClientConfig>);

impl<In: Transport> Connector<In> for PinnedTls {
    type Out = Either<In, PinnedTransport>;

    fn connect(
        &self,
        details: &ConnectionDetails,
        chained: Option<In>,
    ) -> Result<Option<Self::Out>, ureq::Error> {
        let Some(transport) = chained else {
            return Ok(None);
        };
        if !details.needs_tls() || transport.is_tls() {
            return Ok(Some(Either::A(transport)));
        }
        let host = details.uri.host().unwrap_or_default();
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        let name = ServerName::try_from(host.to_string())
            .map_err(|_| ureq::Error::Tls("etcd: not a host name or IP address"))?;
        let mut conn = ClientConnection::new(Arc::clone(&self.0), name)?;
        let mut sock = TransportAdapter::new(transport.boxed(), details.current_time.clone());
        sock.set_timeout(details.timeout);
        while conn.is_handshaking() {
            if let Err(e) = conn.complete_io(&mut sock) {
                return Err(match tls_error_in(&e) {
                    Some(t) => ureq::Error::Rustls(t.clone()),
                    None => ureq::Error::Io(std::io::Error::new(e.kind(), HandshakeIo(e))),
                });
            }
        }
        let buffers = LazyBuffers::new(
            details.config.input_buffer_size(),
            details.config.output_buffer_size(),
        );
        Ok(Some(Either::B(PinnedTransport {
            buffers,
            stream: StreamOwned { conn, sock },
        })))
    }
}

/// An I/O error during [`PinnedTls`]'s handshake (nothing was sent).
#[derive(Debug)]
struct HandshakeIo(std::io::Error);

impl std::fmt::Display for HandshakeIo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&explain_handshake_io(
            &self.0,
            "use etcd:// for an endpoint without TLS",
        ))
    }
}

impl std::error::Error for HandshakeIo {}

/// The transport [`PinnedTls`] makes.
struct PinnedTransport {
    buffers: LazyBuffers,
    stream: StreamOwned<ClientConnection, TransportAdapter>,
}

impl std::fmt::Debug for PinnedTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PinnedTransport").finish_non_exhaustive()
    }
}

impl Transport for PinnedTransport {
    fn buffers(&mut self) -> &mut dyn Buffers {
        &mut self.buffers
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        use std::io::Write as _;
        self.stream.get_mut().set_timeout(timeout);
        let output = &self.buffers.output()[..amount];
        self.stream.write_all(output)?;
        Ok(())
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        use std::io::Read as _;
        self.stream.get_mut().set_timeout(timeout);
        let input = self.buffers.input_append_buf();
        let n = self.stream.read(input)?;
        self.buffers.input_appended(n);
        Ok(n > 0)
    }

    fn is_open(&mut self) -> bool {
        self.stream.get_mut().get_mut().is_open()
    }

    fn is_tls(&self) -> bool {
        true
    }
}

impl EtcdStore {
    fn range(
        &self,
        range: &KeyRange,
        limit: usize,
        keys_only: bool,
    ) -> Result<Vec<Entry>, StoreError> {
        if range.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let (start, end) = self.prefix.range(range);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let body = json!({
            "key": b64(&start),
            "range_end": b64(&end),
            "limit": limit.to_string(),
            "keys_only": keys_only,
        });
        let resp = self.call("/v3/kv/range", &body, true)?;
        let Some(kvs) = resp.get("kvs").and_then(Value::as_array) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::with_capacity(kvs.len());
        for kv in kvs {
            let key = unb64(&kv["key"])?;
            let user = self.prefix.strip(&key).ok_or_else(|| {
                StoreError::fatal(NAME, "etcd returned a key outside the requested range")
            })?;
            out.push((user.to_vec(), unb64(&kv["value"])?));
        }
        Ok(out)
    }

    /// A txn: if every compare holds, put `key = value`. Returns whether it
    /// did.
    fn txn_put(&self, compare: Value, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        let body = json!({
            "compare": [compare],
            "success": [{ "request_put": { "key": b64(key), "value": b64(value) } }],
        });
        let resp = self.call("/v3/kv/txn", &body, false)?;
        // A failed txn has no `succeeded` field (proto3 omits false).
        Ok(resp.get("succeeded").and_then(Value::as_bool) == Some(true))
    }
}

/// The most operations etcd takes in one transaction (its
/// `--max-txn-ops` default).
const MAX_TXN_OPS: usize = 128;

impl Store for EtcdStore {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.range(range, 1, true)?.pop().map(|(k, _)| k))
    }

    /// One read-only txn of keys-only, one-key ranges (up to 128 of them:
    /// more take one txn per 128): one round trip, one revision.
    fn first_keys(&self, ranges: &[KeyRange]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        // (index, namespaced start and end) of each range that is asked.
        let asked: Vec<(usize, _)> = ranges
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.is_empty())
            .map(|(i, r)| (i, self.prefix.range(r)))
            .collect();
        let mut out = vec![None; ranges.len()];
        for chunk in asked.chunks(MAX_TXN_OPS) {
            let ops: Vec<Value> = chunk
                .iter()
                .map(|(_, (start, end))| {
                    json!({ "request_range": {
                        "key": b64(start), "range_end": b64(end), "limit": "1", "keys_only": true,
                    }})
                })
                .collect();
            let resp = self.call("/v3/kv/txn", &json!({ "success": ops }), true)?;
            let replies = resp
                .get("responses")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice);
            if replies.len() != chunk.len() {
                return Err(StoreError::fatal(
                    NAME,
                    format!(
                        "a txn of {} ranges got {} replies",
                        chunk.len(),
                        replies.len()
                    ),
                ));
            }
            for ((i, _), reply) in chunk.iter().zip(replies) {
                let first = reply
                    .get("response_range")
                    .and_then(|r| r.get("kvs"))
                    .and_then(Value::as_array)
                    .and_then(|kvs| kvs.first());
                if let Some(kv) = first {
                    let key = unb64(&kv["key"])?;
                    let user = self.prefix.strip(&key).ok_or_else(|| {
                        StoreError::fatal(NAME, "etcd returned a key outside the requested range")
                    })?;
                    out[*i] = Some(user.to_vec());
                }
            }
        }
        Ok(out)
    }

    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        let k = self.prefix.key(key);
        let compare = json!({
            "key": b64(&k), "target": "CREATE", "result": "EQUAL", "create_revision": "0",
        });
        self.txn_put(compare, &k, value)
    }

    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        let k = self.prefix.key(key);
        let compare = match expected {
            None => json!({
                "key": b64(&k), "target": "CREATE", "result": "EQUAL", "create_revision": "0",
            }),
            // etcd fails a value compare on a missing key, as it should.
            Some(v) => json!({
                "key": b64(&k), "target": "VALUE", "result": "EQUAL", "value": b64(v),
            }),
        };
        self.txn_put(compare, &k, new)
    }

    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let k = self.prefix.key(key);
        let resp = self.call("/v3/kv/range", &json!({ "key": b64(&k) }), true)?;
        match resp
            .get("kvs")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
        {
            None => Ok(None),
            Some(kv) => Ok(Some(unb64(&kv["value"])?)),
        }
    }

    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.range(range, limit, false)
    }

    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        let k = self.prefix.key(key);
        let resp = self.call("/v3/kv/deleterange", &json!({ "key": b64(&k) }), false)?;
        Ok(int(&resp["deleted"]) > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_and_bytes() {
        assert_eq!(int(&json!("12")), 12);
        assert_eq!(int(&Value::Null), 0);
        assert_eq!(unb64(&Value::Null).unwrap(), b"");
        assert_eq!(unb64(&json!(b64(b"\x00\xFF"))).unwrap(), b"\x00\xFF");
        assert!(unb64(&json!("!!")).is_err());
    }
}
