//! Cloud Bigtable — HBase's data model as a service — and its emulator,
//! over gRPC.
//!
//! # What it promises
//!
//! [`BigtableStore`] is a [`Store`] in one Bigtable table (the URL's `ns=`,
//! default `lexikey`). A key is the **row key itself** (no prefix), and its
//! value is the newest cell of one column, `FAMILY:v` (family `f` unless the
//! URL's `family=` says otherwise). So the rows lexikey writes are the rows
//! `cbt read`, the HBase shell of a Bigtable HBase client, or any Bigtable
//! client sees, and a lexikey range is a Bigtable row range as it is
//! (`lexikey range --for cbt`).
//!
//! | operation | Bigtable request |
//! |---|---|
//! | first key in `[a, b)` | `ReadRows` row range `start_key_closed a`, `end_key_open b`, `rows_limit 1`, filter: the column, newest cell, value stripped (keys only) |
//! | scan | `ReadRows` with the same range, `rows_limit` = the limit, filter: the column, newest cell |
//! | get | `ReadRows` of one row key |
//! | put-if-absent | one `CheckAndMutateRow`: predicate "the column has a cell"; no match (absent) → the false branch `SetCell`s it; a match means the key exists |
//! | compare-and-swap | one `CheckAndMutateRow`: predicate "the newest cell's value is exactly `expected`" (a `ValueRange` closed on both ends: no regex, every byte exact); match → `DeleteFromColumn` + `SetCell` (one version left) |
//! | delete | one `CheckAndMutateRow`: the column has a cell → `DeleteFromColumn` |
//!
//! Each write is **one** `CheckAndMutateRow`, which Bigtable applies
//! atomically to its row: of many clients putting one absent key, exactly
//! one sees the predicate unmatched. Bigtable's own rules apply, enforced
//! here because the emulator does not: a row key is 1 to 4,096 bytes
//! ([`BIGTABLE_KEY_LEN`](crate::BIGTABLE_KEY_LEN)): an empty key or a longer
//! one is a fatal error naming the rule, before any request.
//!
//! # Where it connects
//!
//! 1. `emulator=HOST:PORT` in the URL, else the environment variable
//!    `BIGTABLE_EMULATOR_HOST` ([`EMULATOR_HOST_VAR`], the convention of
//!    Google's own clients and of `cbt`): the emulator, plain-text gRPC, no
//!    credentials. Any project and instance names work.
//! 2. Otherwise Cloud Bigtable (`bigtable.googleapis.com`, the admin API at
//!    `bigtableadmin.googleapis.com`) over TLS (rustls, `ring`), with
//!    Application Default Credentials: the service account key file named
//!    by `GOOGLE_APPLICATION_CREDENTIALS`, else `gcloud auth
//!    application-default login`'s file, else the metadata server of a
//!    Google Cloud machine. No token or key is ever printed.
//!
//! Opening checks the table through the admin API and **creates the table
//! and its column family when missing** (the family with a garbage
//! collection rule of one version), so it needs the admin permissions
//! `bigtable.tables.get`, `.create` and `.update` on Cloud (or a table
//! made beforehand with the family, which the `get` alone then confirms).
//! Opened for reading ([`BigtableOptions::read_only`], what `lexikey scan`
//! and `Allocator(..., read_only=True)` do), it creates nothing: a missing
//! table is an error that lists the tables the instance has (a wrong
//! project or instance on the emulator shows as an instance without
//! tables), a missing family one that lists the table's families.
//!
//! # Errors and timeouts
//!
//! Every request is bounded by `timeout_ms` (default 5,000 ms). A timeout,
//! an unavailable server (refused connection, emulator stopped) and
//! Bigtable's transient codes (`UNAVAILABLE`, `DEADLINE_EXCEEDED`,
//! `ABORTED`, `INTERNAL`, …) are retryable; a write that fails so has an
//! unknown outcome (it may have been applied), and it is never resent here:
//! the allocator reads the row back. A missing table after open (the
//! emulator keeps everything in memory: a restarted emulator has no tables)
//! is a fatal error that says so: silently creating an empty table again
//! would hand out IDs that were handed out before.
//!
//! # What it does not do
//!
//! No reversed scans (Bigtable has them behind a feature flag; the newest row
//! of an upside-down table is its first key, read forward), no batching, no
//! retries of its own. Bigtable's own prefix helpers are not used: the
//! bigtable_rs crate's (and the Python client's `add_row_range_with_prefix`)
//! turn a prefix ending in `0xFF` into a wrong end key; ranges here are
//! lexikey's own (`lexikey::range::prefix_end`).

use std::collections::HashMap;
use std::future::Future;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use admin::bigtable_table_admin_client::BigtableTableAdminClient;
use admin::modify_column_families_request::{modification::Mod, Modification};
use bigtable_rs::bigtable::{BigTable, BigTableConnection, Error as BtError, RowCell};
use bigtable_rs::google::bigtable::v2 as data;
use data::mutation::{DeleteFromColumn, Mutation as Mut, SetCell};
use data::row_filter::{Chain, Filter};
use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2 as admin;
use lexikey::store::{Entry, Store, StoreError};
use lexikey::KeyRange;
use tokio::runtime::Runtime;
use tonic::transport::{Channel, ClientTlsConfig};
use tonic::{Code, Status};

use crate::url::BIGTABLE_KEY_LEN;
use crate::BigtableOptions;

/// Rows as ReadRows returns them: each key with its cells.
type Rows = Vec<(Vec<u8>, Vec<RowCell>)>;

const NAME: &str = "bigtable";

/// The environment variable naming the emulator (`HOST:PORT`), as Google's
/// clients and `cbt` read it; the URL's `emulator=` wins over it.
pub const EMULATOR_HOST_VAR: &str = "BIGTABLE_EMULATOR_HOST";

/// The column qualifier of the value cell.
const QUALIFIER: &[u8] = b"v";

/// OAuth scopes of the data and the admin API.
const ADMIN_SCOPE: &str = "https://www.googleapis.com/auth/bigtable.admin.table";
const CLOUD_ADMIN: &str = "bigtableadmin.googleapis.com";

/// A [`Store`] in one Bigtable table: keys are row keys, values the newest
/// cell of column `FAMILY:v`. The URL is in the [crate docs](crate); the
/// requests, where it connects and what it refuses are described at the
/// top of its source, `stores/src/bigtable_store.rs`.
///
/// The store runs the gRPC client on a tokio runtime of its own (two worker
/// threads); its methods block. Do not call them from inside another
/// tokio runtime's async context.
pub struct BigtableStore {
    client: BigTable,
    table_name: String,
    table: String,
    family: String,
    app_profile: String,
    timeout: Duration,
    /// `emulator HOST:PORT` or `Cloud Bigtable`, for messages.
    server: String,
    emulator: Option<String>,
    // Last: the runtime outlives the client's background tasks.
    rt: Runtime,
}

impl std::fmt::Debug for BigtableStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BigtableStore")
            .field("table", &self.table_name)
            .field("family", &self.family)
            .field("server", &self.server)
            .finish_non_exhaustive()
    }
}

/// The admin client, and the credentials its requests carry (Cloud).
struct Admin {
    client: BigtableTableAdminClient<Channel>,
    auth: Option<std::sync::Arc<dyn gcp_auth::TokenProvider>>,
}

/// At most 20 names, comma-separated, then how many more there are.
fn some_names(names: &[String]) -> String {
    const SHOWN: usize = 20;
    let mut s = names[..names.len().min(SHOWN)].join(", ");
    if names.len() > SHOWN {
        s.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    s
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Checks an emulator address: `HOST:PORT`, as the emulator and its clients
/// take it.
fn check_emulator(source: &str, host: &str) -> Result<(), StoreError> {
    let ok = match host.rsplit_once(':') {
        Some((h, p)) => {
            !h.is_empty()
                && !h.contains(['/', '@', '?', '#', ' '])
                && p.parse::<u16>().is_ok_and(|p| p > 0)
        }
        None => false,
    };
    if ok {
        Ok(())
    } else {
        Err(StoreError::fatal(
            NAME,
            format!("{source} = {host:?}: expected the emulator's HOST:PORT"),
        ))
    }
}

impl BigtableStore {
    /// Connects (the emulator or Cloud, as the [crate docs](crate) say), then
    /// checks the table and creates it, or its column family, when missing
    /// (but with [`BigtableOptions::read_only`]: then a missing one is an
    /// error).
    ///
    /// # Errors
    /// A fatal [`StoreError`] for bad names, missing credentials (Cloud) or
    /// a refused admin request; a retryable one when the server does not
    /// answer (the message names the emulator's address).
    pub fn open_with(options: BigtableOptions) -> Result<BigtableStore, StoreError> {
        crate::check_namespace(&options.table)?;
        let emulator = match options.emulator.clone() {
            Some(host) => {
                check_emulator("emulator", &host)?;
                Some(host)
            }
            None => match std::env::var(EMULATOR_HOST_VAR) {
                Ok(host) if !host.is_empty() => {
                    check_emulator(EMULATOR_HOST_VAR, &host)?;
                    Some(host)
                }
                _ => None,
            },
        };
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("lexikey-bigtable")
            .enable_all()
            .build()
            .map_err(|e| StoreError::fatal(NAME, format!("cannot start a tokio runtime: {e}")))?;
        let server = match &emulator {
            Some(h) => format!("emulator {h}"),
            None => "Cloud Bigtable".to_string(),
        };
        let o = &options;
        let connected = rt.block_on(async {
            match &emulator {
                Some(host) => {
                    let conn = BigTableConnection::new_with_emulator(
                        host,
                        &o.project,
                        &o.instance,
                        false,
                        1,
                        Some(o.timeout),
                    )
                    .map_err(|e| StoreError::fatal(NAME, format!("{server}: {e}")))?;
                    let channel = Channel::from_shared(format!("http://{host}"))
                        .map_err(|e| StoreError::fatal(NAME, format!("{server}: {e}")))?
                        .connect_timeout(o.timeout)
                        .timeout(o.timeout)
                        .connect_lazy();
                    Ok::<_, StoreError>((
                        conn,
                        Admin {
                            client: BigtableTableAdminClient::new(channel),
                            auth: None,
                        },
                    ))
                }
                None => {
                    let provider = gcp_auth::provider().await.map_err(|e| {
                        StoreError::fatal(
                            NAME,
                            format!(
                                "no Google Cloud credentials for Cloud Bigtable: {}; set \
                                 GOOGLE_APPLICATION_CREDENTIALS to a service account key file or run \
                                 `gcloud auth application-default login` (for the emulator: set \
                                 {EMULATOR_HOST_VAR} or add ?emulator=HOST:PORT to the URL)",
                                one_line(&e.to_string())
                            ),
                        )
                    })?;
                    let conn = BigTableConnection::new_with_token_provider(
                        &o.project,
                        &o.instance,
                        false,
                        1,
                        Some(o.timeout),
                        std::sync::Arc::clone(&provider),
                    )
                    .map_err(|e| StoreError::fatal(NAME, format!("{server}: {e}")))?;
                    let tls = ClientTlsConfig::new()
                        .with_webpki_roots()
                        .domain_name(CLOUD_ADMIN);
                    let channel = Channel::from_shared(format!("https://{CLOUD_ADMIN}"))
                        .map_err(|e| StoreError::fatal(NAME, format!("{server}: {e}")))?
                        .tls_config(tls)
                        .map_err(|e| StoreError::fatal(NAME, format!("{server}: TLS: {e}")))?
                        .connect_timeout(o.timeout)
                        .timeout(o.timeout)
                        .connect_lazy();
                    Ok((
                        conn,
                        Admin {
                            client: BigtableTableAdminClient::new(channel),
                            auth: Some(provider),
                        },
                    ))
                }
            }
        })?;
        let (conn, admin) = connected;
        let instance = format!("projects/{}/instances/{}", o.project, o.instance);
        let store = BigtableStore {
            client: conn.client(),
            table_name: format!("{instance}/tables/{}", o.table),
            table: o.table.clone(),
            family: o.family.clone(),
            app_profile: o.app_profile.clone().unwrap_or_default(),
            timeout: o.timeout,
            server,
            emulator,
            rt,
        };
        if o.read_only {
            store.check_table(admin, &instance)?;
        } else {
            store.ensure_table(admin, &instance)?;
        }
        Ok(store)
    }

    /// Runs `fut` on the store's runtime, bounded by the timeout.
    fn run<T>(
        &self,
        op: &str,
        fut: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        self.rt
            .block_on(async { tokio::time::timeout(self.timeout, fut).await })
            .unwrap_or_else(|_| {
                Err(StoreError::transient(
                    NAME,
                    format!(
                        "{op} on {}: no answer within {} ms (timeout_ms)",
                        self.server,
                        self.timeout.as_millis()
                    ),
                ))
            })
    }

    /// A gRPC status as a store error: retryable for the transient codes,
    /// with a hint for the common cases.
    fn status_error(&self, op: &str, s: &Status) -> StoreError {
        let code = s.code();
        let retryable = matches!(
            code,
            Code::Unavailable
                | Code::DeadlineExceeded
                | Code::Cancelled
                | Code::Aborted
                | Code::ResourceExhausted
                | Code::Internal
                | Code::Unknown
        );
        let mut msg = format!("{op} on {}: {code:?}: {}", self.server, s.message());
        let mut source = std::error::Error::source(s);
        while let Some(e) = source {
            let text = e.to_string();
            if !msg.contains(&text) {
                msg.push_str(": ");
                msg.push_str(&text);
            }
            source = e.source();
        }
        match (code, &self.emulator) {
            // Refused, or a connection the emulator's death reset or closed
            // (`Unknown: transport error`, or `Cancelled: … transport error:
            // connection closed` for a read in flight), depending on the
            // moment.
            (Code::Unavailable | Code::Unknown | Code::Cancelled, Some(host))
                if code == Code::Unavailable || msg.contains("transport error") =>
            {
                msg.push_str(&format!(" (is the Bigtable emulator running at {host}?)"));
            }
            (Code::NotFound, _) if op != "GetTable" => msg.push_str(&format!(
                " (table {} is gone since the store was opened; the emulator keeps tables in \
                 memory only, so a restarted emulator has none: open the store again to create it)",
                self.table
            )),
            (Code::PermissionDenied | Code::Unauthenticated, _) => msg.push_str(
                " (the credentials of GOOGLE_APPLICATION_CREDENTIALS or gcloud's application \
                 default login lack a Bigtable permission)",
            ),
            _ => {}
        }
        StoreError {
            store: NAME,
            message: one_line(&msg),
            retryable,
        }
    }

    fn client_error(&self, op: &str, e: BtError) -> StoreError {
        match e {
            BtError::RpcError(s) => self.status_error(op, &s),
            BtError::TransportError(e) => StoreError::transient(
                NAME,
                one_line(&format!("{op} on {}: transport: {e}", self.server)),
            ),
            BtError::TimeoutError(_) => StoreError::transient(
                NAME,
                format!(
                    "{op} on {}: no answer within {} ms (timeout_ms)",
                    self.server,
                    self.timeout.as_millis()
                ),
            ),
            BtError::GCPAuthError(e) => StoreError::fatal(
                NAME,
                one_line(&format!(
                    "{op}: Google Cloud credentials: {e} (GOOGLE_APPLICATION_CREDENTIALS)"
                )),
            ),
            other => {
                StoreError::fatal(NAME, one_line(&format!("{op} on {}: {other}", self.server)))
            }
        }
    }

    /// Refuses a row key Bigtable refuses: empty, or over 4 KiB.
    fn check_key(&self, key: &[u8]) -> Result<(), StoreError> {
        let (min, max) = BIGTABLE_KEY_LEN;
        if key.len() < min {
            return Err(StoreError::fatal(
                NAME,
                "an empty row key: Bigtable row keys are 1 to 4096 bytes",
            ));
        }
        if key.len() > max {
            return Err(StoreError::fatal(
                NAME,
                format!(
                    "a row key of {} bytes: Cloud Bigtable's limit is {max} bytes (4 KiB; \
                     the emulator does not enforce it, lexikey does)",
                    key.len()
                ),
            ));
        }
        Ok(())
    }

    /// `GetTable` with the table's schema (its families): the table, or the
    /// server's refusal (`NotFound`: no such table).
    fn get_table(&self, admin: &mut Admin) -> Result<Result<admin::Table, Status>, StoreError> {
        let get = admin::GetTableRequest {
            name: self.table_name.clone(),
            view: admin::table::View::SchemaView as i32,
        };
        let got = self.run("GetTable", async {
            let req = auth(admin, get).await?;
            Ok(admin.client.get_table(req).await)
        })?;
        Ok(got.map(tonic::Response::into_inner))
    }

    /// Read-only: the table and its family exist, or a fatal error naming
    /// what is missing and what is there.
    fn check_table(&self, mut admin: Admin, instance: &str) -> Result<(), StoreError> {
        let table = match self.get_table(&mut admin)? {
            Ok(t) => t,
            Err(s) if s.code() == Code::NotFound => {
                let there = match self.list_tables(&mut admin, instance) {
                    Ok(names) if names.is_empty() => {
                        "it has no tables (a wrong project or instance?)".to_string()
                    }
                    Ok(names) => format!("its tables: {}", some_names(&names)),
                    Err(e) => format!("its tables could not be listed: {}", e.message),
                };
                return Err(StoreError::fatal(
                    NAME,
                    format!(
                        "no table {:?} in {instance} on {}: {there}; reading creates no table \
                         (lexikey alloc creates it)",
                        self.table, self.server
                    ),
                ));
            }
            Err(s) => return Err(self.status_error("GetTable", &s)),
        };
        if table.column_families.contains_key(&self.family) {
            return Ok(());
        }
        let mut families: Vec<&str> = table.column_families.keys().map(String::as_str).collect();
        families.sort_unstable();
        Err(StoreError::fatal(
            NAME,
            format!(
                "table {:?} on {} has no column family {:?} (family=): its families: {}; reading \
                 creates no family",
                self.table,
                self.server,
                self.family,
                if families.is_empty() {
                    "none".to_string()
                } else {
                    families.join(", ")
                }
            ),
        ))
    }

    /// The IDs of the instance's tables, sorted (every page).
    fn list_tables(&self, admin: &mut Admin, instance: &str) -> Result<Vec<String>, StoreError> {
        let mut names = Vec::new();
        let mut page_token = String::new();
        loop {
            let list = admin::ListTablesRequest {
                parent: instance.to_string(),
                view: admin::table::View::NameOnly as i32,
                page_size: 0,
                page_token: page_token.clone(),
            };
            let got = self.run("ListTables", async {
                let req = auth(admin, list).await?;
                Ok(admin.client.list_tables(req).await)
            })?;
            let page = got
                .map_err(|s| self.status_error("ListTables", &s))?
                .into_inner();
            let prefix = format!("{instance}/tables/");
            names.extend(page.tables.into_iter().map(|t| {
                t.name
                    .strip_prefix(&prefix)
                    .map(str::to_string)
                    .unwrap_or(t.name)
            }));
            if page.next_page_token.is_empty() {
                break;
            }
            page_token = page.next_page_token;
        }
        names.sort_unstable();
        Ok(names)
    }

    /// Creates the table, or its family, when missing.
    fn ensure_table(&self, mut admin: Admin, instance: &str) -> Result<(), StoreError> {
        let family = || {
            let mut f = HashMap::new();
            let _ = f.insert(
                self.family.clone(),
                admin::ColumnFamily {
                    gc_rule: Some(admin::GcRule {
                        rule: Some(admin::gc_rule::Rule::MaxNumVersions(1)),
                    }),
                    ..Default::default()
                },
            );
            f
        };
        // Another client may create the table or the family between our
        // get and our create: then look again.
        for _ in 0..5 {
            match self.get_table(&mut admin)? {
                Ok(t) if t.column_families.contains_key(&self.family) => return Ok(()),
                Ok(_) => {
                    let modify = admin::ModifyColumnFamiliesRequest {
                        name: self.table_name.clone(),
                        modifications: family()
                            .into_iter()
                            .map(|(id, cf)| Modification {
                                id,
                                r#mod: Some(Mod::Create(cf)),
                                ..Default::default()
                            })
                            .collect(),
                        ignore_warnings: false,
                    };
                    let done = self.run("ModifyColumnFamilies", async {
                        let req = auth(&admin, modify).await?;
                        Ok(admin.client.modify_column_families(req).await)
                    })?;
                    match done {
                        Ok(_) => return Ok(()),
                        Err(s)
                            if matches!(
                                s.code(),
                                Code::AlreadyExists | Code::FailedPrecondition
                            ) => {}
                        Err(s) => return Err(self.status_error("ModifyColumnFamilies", &s)),
                    }
                }
                Err(s) if s.code() == Code::NotFound => {
                    let create = admin::CreateTableRequest {
                        parent: instance.to_string(),
                        table_id: self.table.clone(),
                        table: Some(admin::Table {
                            column_families: family(),
                            ..Default::default()
                        }),
                        initial_splits: Vec::new(),
                    };
                    let done = self.run("CreateTable", async {
                        let req = auth(&admin, create).await?;
                        Ok(admin.client.create_table(req).await)
                    })?;
                    match done {
                        Ok(_) => return Ok(()),
                        Err(s) if s.code() == Code::AlreadyExists => {}
                        Err(s) => return Err(self.status_error("CreateTable", &s)),
                    }
                }
                Err(s) => return Err(self.status_error("GetTable", &s)),
            }
        }
        Err(StoreError::transient(
            NAME,
            format!(
                "table {} on {}: created and changed by other clients while opening; try again",
                self.table, self.server
            ),
        ))
    }

    /// The filter of the value cell: column `FAMILY:v`, newest cell.
    fn cell_filters(&self) -> Vec<data::RowFilter> {
        vec![
            filter(Filter::ColumnRangeFilter(data::ColumnRange {
                family_name: self.family.clone(),
                start_qualifier: Some(data::column_range::StartQualifier::StartQualifierClosed(
                    QUALIFIER.to_vec(),
                )),
                end_qualifier: Some(data::column_range::EndQualifier::EndQualifierClosed(
                    QUALIFIER.to_vec(),
                )),
            })),
            filter(Filter::CellsPerColumnLimitFilter(1)),
        ]
    }

    fn cell_filter(&self) -> data::RowFilter {
        filter(Filter::Chain(Chain {
            filters: self.cell_filters(),
        }))
    }

    /// `ReadRows` over `rows` (`None`: the whole table).
    fn read_rows(
        &self,
        op: &str,
        rows: Option<data::RowSet>,
        limit: i64,
        keys_only: bool,
    ) -> Result<Rows, StoreError> {
        let mut filters = self.cell_filters();
        if keys_only {
            filters.push(filter(Filter::StripValueTransformer(true)));
        }
        let req = data::ReadRowsRequest {
            table_name: self.table_name.clone(),
            app_profile_id: self.app_profile.clone(),
            rows,
            filter: Some(filter(Filter::Chain(Chain { filters }))),
            rows_limit: limit,
            ..Default::default()
        };
        let mut client = self.client.clone();
        self.run(op, async move {
            client
                .read_rows(req)
                .await
                .map_err(|e| self.client_error(op, e))
        })
    }

    /// The row set of a non-empty range (`None`: every row).
    fn row_set(range: &KeyRange) -> Option<data::RowSet> {
        let start = range
            .start
            .as_ref()
            .filter(|s| !s.is_empty())
            .map(|s| data::row_range::StartKey::StartKeyClosed(s.clone()));
        let end = range
            .end
            .as_ref()
            .map(|e| data::row_range::EndKey::EndKeyOpen(e.clone()));
        if start.is_none() && end.is_none() {
            return None;
        }
        Some(data::RowSet {
            row_keys: Vec::new(),
            row_ranges: vec![data::RowRange {
                start_key: start,
                end_key: end,
            }],
        })
    }

    /// Whether no key can be in `range` (Bigtable refuses inverted
    /// ranges, and takes an empty end key as unbounded).
    fn no_rows(range: &KeyRange) -> bool {
        range.is_empty() || range.end.as_ref().is_some_and(|e| e.is_empty())
    }

    /// One `CheckAndMutateRow`: whether the predicate matched.
    fn check_and_mutate(
        &self,
        op: &str,
        key: &[u8],
        predicate: data::RowFilter,
        true_mutations: Vec<data::Mutation>,
        false_mutations: Vec<data::Mutation>,
    ) -> Result<bool, StoreError> {
        self.check_key(key)?;
        let req = data::CheckAndMutateRowRequest {
            table_name: self.table_name.clone(),
            app_profile_id: self.app_profile.clone(),
            row_key: key.to_vec(),
            predicate_filter: Some(predicate),
            true_mutations,
            false_mutations,
            ..Default::default()
        };
        let mut client = self.client.clone();
        self.run(op, async move {
            client
                .check_and_mutate_row(req)
                .await
                .map(|r| r.predicate_matched)
                .map_err(|e| self.client_error(op, e))
        })
    }

    fn set_cell(&self, value: &[u8]) -> data::Mutation {
        // Milliseconds, as Cloud Bigtable's default timestamp granularity
        // wants.
        let micros = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64 * 1000);
        data::Mutation {
            mutation: Some(Mut::SetCell(SetCell {
                family_name: self.family.clone(),
                column_qualifier: QUALIFIER.to_vec(),
                timestamp_micros: micros,
                value: value.to_vec(),
            })),
        }
    }

    fn delete_cell(&self) -> data::Mutation {
        data::Mutation {
            mutation: Some(Mut::DeleteFromColumn(DeleteFromColumn {
                family_name: self.family.clone(),
                column_qualifier: QUALIFIER.to_vec(),
                time_range: None,
            })),
        }
    }
}

fn filter(f: Filter) -> data::RowFilter {
    data::RowFilter { filter: Some(f) }
}

/// An admin request with the Cloud credentials' token, if any.
async fn auth<T>(admin: &Admin, msg: T) -> Result<tonic::Request<T>, StoreError> {
    let mut req = tonic::Request::new(msg);
    if let Some(p) = &admin.auth {
        let token = p.token(&[ADMIN_SCOPE]).await.map_err(|e| {
            StoreError::fatal(
                NAME,
                one_line(&format!(
                    "Google Cloud credentials: {e} (GOOGLE_APPLICATION_CREDENTIALS)"
                )),
            )
        })?;
        let value = format!("Bearer {}", token.as_str())
            .parse()
            .map_err(|_| StoreError::fatal(NAME, "the access token is not a valid header"))?;
        let _ = req.metadata_mut().insert("authorization", value);
    }
    Ok(req)
}

impl Store for BigtableStore {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        if Self::no_rows(range) {
            return Ok(None);
        }
        let rows = self.read_rows("ReadRows", Self::row_set(range), 1, true)?;
        Ok(rows.into_iter().next().map(|(k, _)| k))
    }

    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        let existed = self.check_and_mutate(
            "CheckAndMutateRow",
            key,
            self.cell_filter(),
            Vec::new(),
            vec![self.set_cell(value)],
        )?;
        Ok(!existed)
    }

    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        let Some(expected) = expected else {
            return self.put_if_absent(key, new);
        };
        let mut filters = self.cell_filters();
        filters.push(filter(Filter::ValueRangeFilter(data::ValueRange {
            start_value: Some(data::value_range::StartValue::StartValueClosed(
                expected.to_vec(),
            )),
            end_value: Some(data::value_range::EndValue::EndValueClosed(
                expected.to_vec(),
            )),
        })));
        self.check_and_mutate(
            "CheckAndMutateRow",
            key,
            filter(Filter::Chain(Chain { filters })),
            vec![self.delete_cell(), self.set_cell(new)],
            Vec::new(),
        )
    }

    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.check_key(key)?;
        let rows = data::RowSet {
            row_keys: vec![key.to_vec()],
            row_ranges: Vec::new(),
        };
        let rows = self.read_rows("ReadRows", Some(rows), 1, false)?;
        Ok(rows
            .into_iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, cells)| cells.into_iter().next())
            .map(|c| c.value))
    }

    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        if limit == 0 || Self::no_rows(range) {
            return Ok(Vec::new());
        }
        // rows_limit 0 is "no limit".
        let n = i64::try_from(limit).unwrap_or(0);
        let rows = self.read_rows("ReadRows", Self::row_set(range), n, false)?;
        Ok(rows
            .into_iter()
            .filter_map(|(k, cells)| cells.into_iter().next().map(|c| (k, c.value)))
            .take(limit)
            .collect())
    }

    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        self.check_and_mutate(
            "CheckAndMutateRow",
            key,
            self.cell_filter(),
            vec![self.delete_cell()],
            Vec::new(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emulator_addresses() {
        assert!(check_emulator("x", "127.0.0.1:8086").is_ok());
        assert!(check_emulator("x", "localhost:1").is_ok());
        for bad in ["", "127.0.0.1", ":1", "h:0", "h:x", "http://h:1", "h:70000"] {
            let e = check_emulator(EMULATOR_HOST_VAR, bad).unwrap_err();
            assert!(
                !e.retryable && e.message.contains("HOST:PORT"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn row_sets_are_exact() {
        let r = KeyRange::prefix(b"\x01\xFF");
        let set = BigtableStore::row_set(&r).unwrap();
        assert_eq!(
            set.row_ranges[0].end_key,
            Some(data::row_range::EndKey::EndKeyOpen(b"\x02".to_vec())),
            "the end of prefix 01 FF is 02, not 02 00"
        );
        assert!(BigtableStore::row_set(&KeyRange::all()).is_none());
        assert!(BigtableStore::no_rows(&KeyRange {
            start: None,
            end: Some(Vec::new())
        }));
        assert!(BigtableStore::no_rows(&KeyRange {
            start: Some(b"b".to_vec()),
            end: Some(b"a".to_vec())
        }));
    }
}
