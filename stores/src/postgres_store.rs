//! PostgreSQL: one table `(k bytea PRIMARY KEY, v bytea)`; `bytea` compares
//! as `memcmp`, so index order is lexikey's order.

use std::str::FromStr;
use std::sync::Arc;

use lexikey::store::{Cas, Entry, Store, StoreError};
use lexikey::KeyRange;
use postgres::config::SslMode;
use postgres::error::SqlState;
use postgres::{Client, Config, NoTls, Statement};
use rustls::client::danger::ServerCertVerifier;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ClientConfig, RootCertStore};
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::pool::Pool;
use crate::secret::Scrub;
use crate::tls::{env, explain, install_ring, read_pem, tls_error_in, Verifier};
use crate::url::{parse_client, ClientUrl, TlsOptions};

const NAME: &str = "postgres";

/// A [`Store`] in a PostgreSQL table (created if missing, but not when
/// opened for reading, [`crate::open_for_reading`]: then a missing table is
/// an error naming it and the tables there):
///
/// ```sql
/// CREATE TABLE IF NOT EXISTS "NS" (k bytea PRIMARY KEY, v bytea NOT NULL)
/// ```
///
/// `bytea` compares bytes as unsigned, shorter-prefix-first (`memcmp`), so
/// the primary-key index yields keys in lexikey's order, NUL bytes and all
/// (`text` could hold neither NUL nor invalid UTF-8).
///
/// | operation | SQL |
/// |---|---|
/// | put-if-absent | `INSERT … ON CONFLICT (k) DO NOTHING` (1 row: written) |
/// | compare-and-swap | `UPDATE … SET v = $3 WHERE k = $1 AND v = $2` (expected absent: the insert above) |
/// | first key | `SELECT k … WHERE k >= $1 AND k < $2 ORDER BY k LIMIT 1` |
///
/// Each statement is atomic on its own (autocommit). Connections are
/// pooled, each with its statements prepared once.
///
/// **TLS and passwords**, as libpq does them: `sslmode=` `disable`,
/// `prefer` (the default: TLS when the server offers it, certificate not
/// checked), `require` (TLS; the certificate is checked against
/// `sslrootcert=` when one is given, as `verify-ca`), `verify-ca` (the
/// chain up to `sslrootcert=`), `verify-full` (the chain and the host
/// name). `sslrootcert=system` trusts the system's roots; without
/// `sslrootcert=`, the `verify-*` modes read `~/.postgresql/root.crt`.
/// `sslcert=`/`sslkey=` give a client certificate. Unset URL parts come
/// from `PGUSER`, `PGPASSWORD`, `PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT`,
/// `PGSSLKEY`. The password is sent as the server asks (SCRAM-SHA-256 or
/// MD5); TLS is rustls with the `ring` provider (no OpenSSL).
pub struct PostgresStore {
    config: Config,
    tls: Option<MakeRustlsConnect>,
    /// `sslrootcert=`, for TLS error messages.
    root_cert: Option<String>,
    scrub: Scrub,
    table: String,
    pool: Pool<Conn>,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore")
            .field("hosts", &self.config.get_hosts())
            .field("ports", &self.config.get_ports())
            .field("table", &self.table)
            .finish_non_exhaustive()
    }
}

/// A connection and its prepared statements.
struct Conn {
    client: Client,
    insert: Statement,
    update: Statement,
    get: Statement,
    delete: Statement,
    /// `k >= $1 AND k < $2 … LIMIT $3`
    range: Statement,
    /// `k >= $1 … LIMIT $2`
    range_open: Statement,
    /// The first key of each `[$1[i], $2[i])`, in order.
    firsts: Statement,
    /// Rows `($1[i], $2[i])`; a taken key fails the statement whole.
    batch: Statement,
    /// The same if key `$3` holds `$4`, which is set to `$5`.
    batch_update: Statement,
    /// The same if key `$3` is absent, which is set to `$4`.
    batch_insert: Statement,
}

fn err(e: &postgres::Error) -> StoreError {
    let retryable = match e.code() {
        // No SQL state: the connection or the protocol failed.
        None => true,
        Some(code) => {
            *code == SqlState::T_R_SERIALIZATION_FAILURE
                || *code == SqlState::T_R_DEADLOCK_DETECTED
                || *code == SqlState::ADMIN_SHUTDOWN
                || *code == SqlState::CRASH_SHUTDOWN
                || *code == SqlState::CANNOT_CONNECT_NOW
                || *code == SqlState::TOO_MANY_CONNECTIONS
                || code.code().starts_with("08")
        }
    };
    let message = match e.as_db_error() {
        Some(db) => format!("{}: {}", db.code().code(), db.message()),
        None => {
            // The crate's message alone is vague ("error performing TLS
            // handshake"): add the causes (rustls: "invalid peer
            // certificate: UnknownIssuer").
            let mut m = e.to_string();
            let mut cause = std::error::Error::source(e);
            while let Some(c) = cause {
                let c = c.to_string();
                if !m.contains(&c) {
                    m = format!("{m}: {c}");
                }
                cause = c_source(cause);
            }
            m
        }
    };
    StoreError {
        store: NAME,
        message,
        retryable,
    }
}

fn c_source<'a>(
    e: Option<&'a (dyn std::error::Error + 'static)>,
) -> Option<&'a (dyn std::error::Error + 'static)> {
    e.and_then(std::error::Error::source)
}

/// Quotes an identifier (namespaces have no `"`, but stay safe anyway).
fn quote_ident(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

impl PostgresStore {
    /// Connects to the server of `url`
    /// (`postgres://USER@HOST:PORT/DB[?ns=NAME&timeout_ms=N]`, other options
    /// go to the `postgres` crate) and creates table `NS` if missing.
    ///
    /// # Errors
    /// A fatal [`StoreError`] for a bad URL; a retryable one when the
    /// server cannot be reached.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        Self::open_parsed(url, &parse_client(url)?, false)
    }

    /// Connects with the parsed `c` (`url`: for error messages);
    /// `read_only` ([`crate::open_for_reading`]): table `NS` must exist
    /// (a fatal error naming it and the tables there), nothing is created.
    pub(crate) fn open_parsed(
        url: &str,
        c: &ClientUrl,
        read_only: bool,
    ) -> Result<PostgresStore, StoreError> {
        let (ns, timeout) = (&c.namespace, c.timeout);
        let client_url = c.client_url();
        let mut scrub = Scrub::of_url(url);
        let mut config =
            Config::from_str(&client_url).map_err(|e| crate::url::bad_url(url, e.to_string()))?;
        let _ = config.connect_timeout(timeout);
        if config.get_hosts().is_empty() {
            return Err(crate::url::bad_url(url, "no host"));
        }
        if config.get_user().is_none() {
            if let Some(u) = env("PGUSER") {
                let _ = config.user(&u);
            }
        }
        if config.get_password().is_none() {
            if let Some(p) = env("PGPASSWORD") {
                scrub.add(&p);
                let _ = config.password(&p);
            }
        }
        let tls = tls_from_env(&c.tls);
        let root_cert = tls.ca.clone();
        let mode = tls.mode.as_deref().unwrap_or("prefer");
        let _ = config.ssl_mode(match mode {
            "disable" => SslMode::Disable,
            "prefer" => SslMode::Prefer,
            _ => SslMode::Require,
        });
        let tls = match mode {
            "disable" => None,
            _ => Some(MakeRustlsConnect::new(client_config(mode, &tls)?)),
        };
        let store = PostgresStore {
            config,
            tls,
            root_cert,
            scrub,
            table: quote_ident(ns),
            pool: Pool::new(64),
        };
        let mut client = store.connect()?;
        if read_only {
            store.check_table(&mut client, ns)?;
        } else {
            store.create_table(&mut client)?;
        }
        store.pool.put(store.prepare(client)?);
        Ok(store)
    }

    /// A new connection (TLS as configured).
    fn connect(&self) -> Result<Client, StoreError> {
        let r = match &self.tls {
            None => self.config.connect(NoTls),
            Some(tls) => self.config.connect(tls.clone()),
        };
        r.map_err(|e| {
            let mut se = err(&e);
            // A certificate refused, a server without TLS: one line that
            // says what to do, and no retry can help.
            if let Some(t) = tls_error_in(&e) {
                se = StoreError::fatal(
                    NAME,
                    explain(
                        t,
                        // `system`: the system's roots, named as such.
                        self.root_cert.as_deref().filter(|c| *c != "system"),
                        "sslrootcert",
                        "use sslmode=disable (or prefer)",
                    ),
                );
            } else if se.message.contains("server does not support TLS") {
                se = StoreError::fatal(
                    NAME,
                    "TLS: the server does not offer TLS (ssl=off): use sslmode=disable (or \
                     prefer), or turn ssl on in the server",
                );
            }
            se.message = self.scrub.scrub(&se.message);
            se
        })
    }

    /// Read-only: table `ns` exists (as `CREATE TABLE "NS"` would name
    /// it), or a fatal error naming it and the tables of the schema.
    fn check_table(&self, client: &mut Client, ns: &str) -> Result<(), StoreError> {
        let row = client
            .query_one(
                "SELECT to_regclass($1) IS NOT NULL, current_database(), current_schema()",
                &[&self.table],
            )
            .map_err(|e| err(&e))?;
        let (found, db, schema): (bool, String, Option<String>) =
            (row.get(0), row.get(1), row.get(2));
        if found {
            return Ok(());
        }
        let tables: Vec<String> = client
            .query(
                "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() \
                 ORDER BY 1 LIMIT 21",
                &[],
            )
            .map_err(|e| err(&e))?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let there = match tables.len() {
            0 => "it has no tables".to_string(),
            1..=20 => format!("its tables: {}", tables.join(", ")),
            _ => format!("its tables: {}, …", tables[..20].join(", ")),
        };
        Err(StoreError::fatal(
            NAME,
            format!(
                "no table {ns:?} in database {db:?} (schema {}): {there}; reading creates no \
                 table (lexikey alloc creates it)",
                schema.as_deref().unwrap_or("none")
            ),
        ))
    }

    fn create_table(&self, client: &mut Client) -> Result<(), StoreError> {
        let sql = format!(
            "CREATE TABLE IF NOT EXISTS {} (k bytea PRIMARY KEY, v bytea NOT NULL)",
            self.table
        );
        // Two clients creating the table at once: CREATE TABLE IF NOT
        // EXISTS is not atomic in PostgreSQL, so the one that loses the
        // race gets a catalog error (a unique violation on pg_type or
        // pg_class, "type … already exists" (42710) or "relation …
        // already exists" (42P07)) once the other has committed. Then the
        // table is there: run the statement again, which now finds it.
        let mut tries = 0;
        loop {
            match client.batch_execute(&sql) {
                Ok(()) => return Ok(()),
                Err(e)
                    if tries < 3
                        && [
                            SqlState::UNIQUE_VIOLATION,
                            SqlState::DUPLICATE_TABLE,
                            SqlState::DUPLICATE_OBJECT,
                        ]
                        .iter()
                        .any(|c| e.code() == Some(c)) =>
                {
                    tries += 1;
                }
                Err(e) => return Err(err(&e)),
            }
        }
    }

    fn prepare(&self, mut client: Client) -> Result<Conn, StoreError> {
        let t = &self.table;
        let mut p = |sql: String| client.prepare(&sql).map_err(|e| err(&e));
        let insert = p(format!(
            "INSERT INTO {t} (k, v) VALUES ($1, $2) ON CONFLICT (k) DO NOTHING"
        ))?;
        let update = p(format!("UPDATE {t} SET v = $3 WHERE k = $1 AND v = $2"))?;
        let get = p(format!("SELECT v FROM {t} WHERE k = $1"))?;
        let delete = p(format!("DELETE FROM {t} WHERE k = $1"))?;
        let range = p(format!(
            "SELECT k, v FROM {t} WHERE k >= $1 AND k < $2 ORDER BY k LIMIT $3"
        ))?;
        let range_open = p(format!(
            "SELECT k, v FROM {t} WHERE k >= $1 ORDER BY k LIMIT $2"
        ))?;
        let firsts = p(format!(
            "SELECT (SELECT k FROM {t} WHERE k >= r.lo AND k < r.hi ORDER BY k LIMIT 1) \
             FROM unnest($1::bytea[], $2::bytea[]) WITH ORDINALITY AS r(lo, hi, i) ORDER BY r.i"
        ))?;
        // Without ON CONFLICT: a taken row key is a unique violation that
        // undoes the whole statement (rows and LWM alike).
        let rows = "SELECT k, v FROM unnest($1::bytea[], $2::bytea[]) AS r(k, v)";
        let batch = p(format!("INSERT INTO {t} (k, v) {rows}"))?;
        let batch_update = p(format!(
            "WITH g AS (UPDATE {t} SET v = $5 WHERE k = $3 AND v = $4 RETURNING 1) \
             INSERT INTO {t} (k, v) {rows} WHERE EXISTS (SELECT 1 FROM g)"
        ))?;
        let batch_insert = p(format!(
            "WITH g AS (INSERT INTO {t} (k, v) VALUES ($3, $4) ON CONFLICT (k) DO NOTHING \
             RETURNING 1) INSERT INTO {t} (k, v) {rows} WHERE EXISTS (SELECT 1 FROM g)"
        ))?;
        Ok(Conn {
            batch,
            batch_update,
            batch_insert,
            client,
            insert,
            update,
            get,
            delete,
            range,
            range_open,
            firsts,
        })
    }

    /// Runs read-only `f` like `with_conn`, once more on a fresh connection
    /// if the first attempt failed with a retryable error: after a server
    /// restart, a pooled connection fails once, and a read is safe to resend.
    fn read<T>(
        &self,
        f: impl Fn(&mut Conn) -> Result<T, postgres::Error>,
    ) -> Result<T, StoreError> {
        match self.with_conn(&f) {
            Err(e) if e.retryable => self.with_conn(&f),
            r => r,
        }
    }

    /// Runs `f` on a pooled connection; gives it back unless it broke.
    fn with_conn<T>(
        &self,
        f: impl FnOnce(&mut Conn) -> Result<T, postgres::Error>,
    ) -> Result<T, StoreError> {
        let mut c = match self.pool.take() {
            Some(c) if !c.client.is_closed() => c,
            _ => {
                let client = self.connect()?;
                self.prepare(client)?
            }
        };
        match f(&mut c) {
            Ok(v) => {
                self.pool.put(c);
                Ok(v)
            }
            Err(e) => {
                if c.client.is_closed() || e.code().is_none() {
                    // The server may have restarted: drop the idle ones too.
                    self.pool.clear();
                } else {
                    self.pool.put(c);
                }
                Err(err(&e))
            }
        }
    }
}

/// `t` with what the URL leaves unset taken from `PGSSLMODE`,
/// `PGSSLROOTCERT`, `PGSSLCERT` and `PGSSLKEY`.
fn tls_from_env(t: &TlsOptions) -> TlsOptions {
    let or_env = |v: &Option<String>, name: &str| v.clone().or_else(|| env(name));
    let mut t = t.clone();
    t.mode = or_env(&t.mode, "PGSSLMODE");
    t.ca = or_env(&t.ca, "PGSSLROOTCERT");
    if t.cert.is_none() && t.key.is_none() {
        t.cert = env("PGSSLCERT");
        t.key = env("PGSSLKEY");
    }
    t
}

/// The rustls configuration of an `sslmode` (not `disable`); see the type
/// docs of [`PostgresStore`].
fn client_config(mode: &str, t: &TlsOptions) -> Result<ClientConfig, StoreError> {
    install_ring();
    if !crate::url::SSL_MODES.contains(&mode) {
        return Err(StoreError::fatal(
            NAME,
            format!(
                "PGSSLMODE={mode}: expected {}",
                crate::url::SSL_MODES.join(", ")
            ),
        ));
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls_err = |e: rustls::Error| StoreError::fatal(NAME, format!("TLS setup: {e}"));
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(tls_err)?;
    // libpq: `require` with a root certificate file behaves as `verify-ca`.
    let verify = match mode {
        "verify-ca" | "verify-full" => true,
        "require" => t.ca.is_some(),
        _ => false,
    };
    // libpq's checks: none (`prefer`, `require`), the chain (`verify-ca`: a
    // certificate for another name passes), or the chain and the name
    // (`verify-full`); a server certificate that is itself in the root
    // file passes as libpq (OpenSSL) lets it.
    let verifier: Arc<dyn ServerCertVerifier> = if verify {
        let (roots, pinned) = root_store(mode, t.ca.as_deref())?;
        Arc::new(
            Verifier::new(roots, pinned, mode == "verify-full", Arc::clone(&provider))
                .map_err(tls_err)?,
        )
    } else {
        Arc::new(Verifier::none(Arc::clone(&provider)))
    };
    let builder = builder
        .dangerous()
        .with_custom_certificate_verifier(verifier);
    match (&t.cert, &t.key) {
        (Some(cert), Some(key)) => {
            let certs = CertificateDer::pem_slice_iter(&read_pem(NAME, "sslcert", cert)?)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| StoreError::fatal(NAME, format!("sslcert {cert:?}: {e}")))?;
            let key = PrivateKeyDer::from_pem_slice(&read_pem(NAME, "sslkey", key)?)
                .map_err(|e| StoreError::fatal(NAME, format!("sslkey {key:?}: {e}")))?;
            builder.with_client_auth_cert(certs, key).map_err(tls_err)
        }
        _ => Ok(builder.with_no_client_auth()),
    }
}

/// The roots a `verify-*` mode trusts: `sslrootcert=FILE`,
/// `sslrootcert=system` (the system's store), or `~/.postgresql/root.crt`;
/// and the file's certificates themselves (a server certificate that is
/// one of them is accepted, see `tls::Verifier`).
fn root_store(
    mode: &str,
    ca: Option<&str>,
) -> Result<(RootCertStore, Vec<CertificateDer<'static>>), StoreError> {
    let mut roots = RootCertStore::empty();
    let mut pinned = Vec::new();
    let path = match ca {
        Some("system") => {
            (roots, pinned) = crate::tls::system_roots();
            if roots.is_empty() {
                return Err(StoreError::fatal(
                    NAME,
                    "sslrootcert=system: the system has no trusted roots",
                ));
            }
            return Ok((roots, pinned));
        }
        Some(p) => p.to_string(),
        None => {
            let home = env("HOME").unwrap_or_default();
            let p = format!("{home}/.postgresql/root.crt");
            if !std::path::Path::new(&p).exists() {
                return Err(StoreError::fatal(
                    NAME,
                    format!("sslmode={mode} needs sslrootcert=FILE (or =system), or {p}"),
                ));
            }
            p
        }
    };
    for c in CertificateDer::pem_slice_iter(&read_pem(NAME, "sslrootcert", &path)?) {
        let c = c.map_err(|e| StoreError::fatal(NAME, format!("sslrootcert {path:?}: {e}")))?;
        roots
            .add(c.clone())
            .map_err(|e| StoreError::fatal(NAME, format!("sslrootcert {path:?}: {e}")))?;
        pinned.push(c);
    }
    if roots.is_empty() {
        return Err(StoreError::fatal(
            NAME,
            format!("sslrootcert {path:?}: no certificate"),
        ));
    }
    Ok((roots, pinned))
}

impl Store for PostgresStore {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.scan(range, 1)?.pop().map(|(k, _)| k))
    }

    /// The ranges with an end in one query (one index probe each); a range
    /// open at the end (only a range that ends with the key space) alone.
    fn first_keys(&self, ranges: &[KeyRange]) -> Result<Vec<Option<Vec<u8>>>, StoreError> {
        let mut out = vec![None; ranges.len()];
        let (mut at, mut lo, mut hi) = (Vec::new(), Vec::new(), Vec::new());
        for (i, r) in ranges.iter().enumerate() {
            match &r.end {
                _ if r.is_empty() => {}
                Some(end) => {
                    at.push(i);
                    lo.push(r.start.as_deref().unwrap_or_default());
                    hi.push(end.as_slice());
                }
                None => out[i] = self.first_key(r)?,
            }
        }
        if !at.is_empty() {
            let rows = self.read(|c| c.client.query(&c.firsts, &[&lo, &hi]))?;
            if rows.len() != at.len() {
                return Err(StoreError::fatal(
                    NAME,
                    format!("a query of {} ranges got {} rows", at.len(), rows.len()),
                ));
            }
            for (i, row) in at.into_iter().zip(rows) {
                out[i] = row.get::<_, Option<Vec<u8>>>(0);
            }
        }
        Ok(out)
    }

    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        let n = self.with_conn(|c| c.client.execute(&c.insert, &[&key, &value]))?;
        Ok(n == 1)
    }

    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        let n = match expected {
            None => self.with_conn(|c| c.client.execute(&c.insert, &[&key, &new]))?,
            Some(exp) => self.with_conn(|c| c.client.execute(&c.update, &[&key, &exp, &new]))?,
        };
        Ok(n == 1)
    }

    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let row = self.read(|c| c.client.query_opt(&c.get, &[&key]))?;
        Ok(row.map(|r| r.get::<_, Vec<u8>>(0)))
    }

    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        if range.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        // The empty bytea is the smallest key: an unbounded start.
        let start: &[u8] = range.start.as_deref().unwrap_or_default();
        let lim = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self.read(|c| match range.end.as_deref() {
            Some(end) => c.client.query(&c.range, &[&start, &end, &lim]),
            None => c.client.query(&c.range_open, &[&start, &lim]),
        })?;
        Ok(rows
            .into_iter()
            .map(|r| (r.get::<_, Vec<u8>>(0), r.get::<_, Vec<u8>>(1)))
            .collect())
    }

    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        let n = self.with_conn(|c| c.client.execute(&c.delete, &[&key]))?;
        Ok(n == 1)
    }

    fn atomic_batches(&self) -> bool {
        true
    }

    /// One statement (autocommit: one transaction, one commit, one round
    /// trip): `INSERT … SELECT … FROM unnest(keys, values)`, under a CTE
    /// that applies the CAS first when there is one. A taken row key is a
    /// unique violation, which undoes the statement: `false`.
    fn put_all_if_absent(
        &self,
        rows: &[(&[u8], &[u8])],
        cas: Option<Cas<'_>>,
    ) -> Result<bool, StoreError> {
        if rows.is_empty() {
            return match cas {
                None => Ok(true),
                Some(c) => self.compare_and_swap(c.key, c.expected, c.new),
            };
        }
        let ks: Vec<&[u8]> = rows.iter().map(|(k, _)| *k).collect();
        let vs: Vec<&[u8]> = rows.iter().map(|(_, v)| *v).collect();
        let r = self.with_conn(|c| match cas {
            None => c.client.execute(&c.batch, &[&ks, &vs]),
            Some(Cas {
                key,
                expected: Some(exp),
                new,
            }) => c
                .client
                .execute(&c.batch_update, &[&ks, &vs, &key, &exp, &new]),
            Some(Cas {
                key,
                expected: None,
                new,
            }) => c.client.execute(&c.batch_insert, &[&ks, &vs, &key, &new]),
        });
        match r {
            Ok(n) => Ok(n == rows.len() as u64),
            Err(e) if e.message.starts_with(SqlState::UNIQUE_VIOLATION.code()) => Ok(false),
            Err(e) => Err(e),
        }
    }
}
