//! PostgreSQL: one table `(k bytea PRIMARY KEY, v bytea)`; `bytea` compares
//! as `memcmp`, so index order is lexikey's order.

use std::str::FromStr;

use lexikey::store::{Entry, Store, StoreError};
use lexikey::KeyRange;
use postgres::error::SqlState;
use postgres::{Client, Config, NoTls, Statement};

use crate::pool::Pool;
use crate::spec::{parse_client, ClientUrl};

const NAME: &str = "postgres";

/// A [`Store`] in a PostgreSQL table (created if missing):
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
pub struct PostgresStore {
    config: Config,
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
        None => e.to_string(),
    };
    StoreError {
        store: NAME,
        message,
        retryable,
    }
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
        Self::open_parsed(url, &parse_client(url)?)
    }

    /// Connects with the parsed `c` (`url`: for error messages).
    pub(crate) fn open_parsed(url: &str, c: &ClientUrl) -> Result<PostgresStore, StoreError> {
        let (ns, timeout) = (&c.namespace, c.timeout);
        let client_url = c.client_url();
        let mut config =
            Config::from_str(&client_url).map_err(|e| crate::bad_url(url, e.to_string()))?;
        let _ = config.connect_timeout(timeout);
        if config.get_hosts().is_empty() {
            return Err(crate::bad_url(url, "no host"));
        }
        let store = PostgresStore {
            config,
            table: quote_ident(ns),
            pool: Pool::new(64),
        };
        let mut client = store.config.connect(NoTls).map_err(|e| err(&e))?;
        store.create_table(&mut client)?;
        store.pool.put(store.prepare(client)?);
        Ok(store)
    }

    fn create_table(&self, client: &mut Client) -> Result<(), StoreError> {
        let sql = format!(
            "CREATE TABLE IF NOT EXISTS {} (k bytea PRIMARY KEY, v bytea NOT NULL)",
            self.table
        );
        match client.batch_execute(&sql) {
            Ok(()) => Ok(()),
            // Two clients creating the table at once: one of them gets a
            // unique violation on the catalog; the table is there.
            Err(e)
                if e.code() == Some(&SqlState::UNIQUE_VIOLATION)
                    || e.code() == Some(&SqlState::DUPLICATE_TABLE) =>
            {
                Ok(())
            }
            Err(e) => Err(err(&e)),
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
        Ok(Conn {
            client,
            insert,
            update,
            get,
            delete,
            range,
            range_open,
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
                let client = self.config.connect(NoTls).map_err(|e| err(&e))?;
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

impl Store for PostgresStore {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.scan(range, 1)?.pop().map(|(k, _)| k))
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
}
