//! Amazon DynamoDB — or dynalite, or DynamoDB Local — through the official
//! AWS SDK for Rust.
//!
//! # What it promises
//!
//! [`DynamoStore`] is a [`Store`] in one DynamoDB table (the URL's `TABLE`),
//! in lexikey's DynamoDB layout, written down once in
//! [`lexikey::range::render::dynamodb`] (which `lexikey range --for
//! dynamodb` also queries): partition key `pk` (`S`), binary sort key `sk`
//! (`B`, the key's bytes, compared as unsigned bytes), the value in `v`
//! (`B`), the key as text in `sk_text` (`S`) when it is UTF-8, under the
//! local secondary index `sk_text`. The partition is the URL's namespace
//! (`ns=`, default `lexikey`); the allocator of a salted table opened
//! through [`open_allocator`](crate::open_allocator) puts each bucket's
//! rows in a partition of their own, `NS#BB` (DynamoDB's "write
//! sharding"), and reads each bucket from its partition.
//!
//! | operation | DynamoDB request |
//! |---|---|
//! | first key in `[a, b)` | `Query` of the partition, `sk >= a`, `Limit 1`, strongly consistent (the key kept when below `b`) |
//! | scan | `Query` of the partition from `a` (pages of at most the limit), up to `b` |
//! | get | `GetItem`, strongly consistent |
//! | put-if-absent | `PutItem` with `attribute_not_exists(sk)`: `ConditionalCheckFailedException` means the key exists |
//! | compare-and-swap | `PutItem` with `v = :expected` (absent: `attribute_not_exists(sk)`) |
//! | delete | `DeleteItem` with `attribute_exists(sk)` |
//!
//! A range that lies in one partition (every range the allocator reads)
//! is one `Query`; one that spans bucket partitions is one per partition,
//! merged. DynamoDB's limits are enforced before any request: a key is 1
//! to 1,024 bytes (the sort key limit; a longer key is refused naming
//! it), the partition key at most 2,048 bytes.
//!
//! # Where it connects
//!
//! `endpoint=http://HOST:PORT` (dynalite, DynamoDB Local) or, without it,
//! AWS's regional endpoint; `region=` or the SDK's region chain
//! (`AWS_REGION`, the profile). Credentials come from the SDK's usual chain
//! (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, the profile, SSO, the
//! instance role) and are never printed. Opening describes the table and
//! **creates it when missing** (on-demand capacity, the layout's key
//! schema and index), waiting until it is active; an existing table with
//! another key schema is refused, naming the layout. Opened for reading
//! (`lexikey scan`), a missing table is an error and nothing is created.
//!
//! # Errors
//!
//! One line each, saying what to do: a missing table, a server that cannot
//! be reached (a bad endpoint, a dead server), a timeout (`timeout_ms`,
//! default 5,000) and throttling are retryable; the SDK's own retries are
//! off, so a write is never resent: a write that fails so has an unknown
//! outcome, which the allocator reads back.

use std::sync::RwLock;
use std::time::{Duration, Instant};

use aws_config::retry::RetryConfig;
use aws_config::timeout::TimeoutConfig;
use aws_config::{BehaviorVersion, Region};
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType,
    LocalSecondaryIndex, Projection, ProjectionType, ScalarAttributeType, TableStatus,
};
use aws_sdk_dynamodb::Client;
use lexikey::range::render::dynamodb::{
    bucket_partition, MAX_SORT_KEY, PARTITION_KEY, SORT_KEY, TEXT_INDEX, TEXT_SORT_KEY, VALUE,
};
use lexikey::store::salt::Salter;
use lexikey::store::{Entry, Store, StoreError};
use lexikey::KeyRange;
use tokio::runtime::Runtime;

use crate::DynamoOptions;

const NAME: &str = "dynamodb";

type Item = std::collections::HashMap<String, AttributeValue>;

/// A [`Store`] in one DynamoDB table (see the top of
/// `stores/src/dynamodb_store.rs` for the requests). The SDK runs on a
/// tokio runtime of the store's own; its methods block (do not call them
/// from inside another runtime's async context).
pub struct DynamoStore {
    client: Client,
    table: String,
    namespace: String,
    /// Bucket partitions: the keys of each range go to its partition.
    buckets: RwLock<Vec<(KeyRange, String)>>,
    /// `DynamoDB at URL`, for messages.
    server: String,
    // Last: the runtime outlives the client.
    rt: Runtime,
}

impl std::fmt::Debug for DynamoStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DynamoStore")
            .field("table", &self.table)
            .field("namespace", &self.namespace)
            .field("server", &self.server)
            .finish_non_exhaustive()
    }
}

/// A request error as one line that says what to do; retryable when
/// another try may work (unreachable, timed out, throttled, a server
/// error).
fn request_error<E>(
    server: &str,
    table: &str,
    what: &str,
    e: SdkError<E, HttpResponse>,
) -> StoreError
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    match &e {
        SdkError::DispatchFailure(d) => {
            let why = if d.is_timeout() { "timed out" } else { "unreachable" };
            let cause = std::error::Error::source(&e)
                .map(|s| format!(": {s}"))
                .unwrap_or_default();
            StoreError::transient(
                NAME,
                format!(
                    "{what}: {server} {why}{cause} (is the server running? check the URL's endpoint=)"
                ),
            )
        }
        SdkError::TimeoutError(_) => StoreError::transient(
            NAME,
            format!("{what}: no answer from {server} within timeout_ms (is the server overloaded or paused?)"),
        ),
        SdkError::ServiceError(s) => {
            let code = s.err().code().unwrap_or("unknown error");
            let msg = s.err().message().unwrap_or("").replace('\n', " ");
            match code {
                "ResourceNotFoundException" => StoreError::fatal(
                    NAME,
                    format!(
                        "{what}: table {table} does not exist at {server} (deleted, or the server \
                         lost its data: open the store again to create it)"
                    ),
                ),
                "ProvisionedThroughputExceededException" | "ThrottlingException"
                | "RequestLimitExceeded" | "LimitExceededException" => StoreError::transient(
                    NAME,
                    format!(
                        "{what}: throttled by {server} ({code}): retry later, or raise the table's \
                         capacity"
                    ),
                ),
                "UnrecognizedClientException" | "InvalidSignatureException"
                | "MissingAuthenticationTokenException" | "AccessDeniedException" => {
                    StoreError::fatal(
                        NAME,
                        format!(
                            "{what}: {server} refused the credentials ({code}): check \
                             AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or the AWS profile"
                        ),
                    )
                }
                _ if s.raw().status().is_server_error() => {
                    StoreError::transient(NAME, format!("{what}: {server}: {code}: {msg}"))
                }
                _ => StoreError::fatal(NAME, format!("{what}: {server}: {code}: {msg}")),
            }
        }
        SdkError::ResponseError(_) => StoreError::transient(
            NAME,
            format!("{what}: {server} sent a response that could not be read (retry; is endpoint= a DynamoDB server?)"),
        ),
        _ => {
            let cause = std::error::Error::source(&e)
                .map(|s| s.to_string())
                .unwrap_or_else(|| e.to_string());
            let hint = if cause.contains("credentials") {
                " (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or an AWS profile)"
            } else {
                ""
            };
            StoreError::fatal(NAME, format!("{what}: {cause}{hint}").replace('\n', " "))
        }
    }
}

fn is_code<E: ProvideErrorMetadata, R>(e: &SdkError<E, R>, code: &str) -> bool {
    matches!(e, SdkError::ServiceError(s) if s.err().code() == Some(code))
}

/// Refuses a key DynamoDB cannot store as a sort key.
fn check_key(key: &[u8]) -> Result<(), StoreError> {
    if key.is_empty() || key.len() > MAX_SORT_KEY {
        return Err(StoreError::fatal(
            NAME,
            format!(
                "a key of {} bytes: DynamoDB sort keys are 1 to {MAX_SORT_KEY} bytes (the sort key \
                 limit); shorten the key's longest component",
                key.len()
            ),
        ));
    }
    Ok(())
}

fn blob(b: &[u8]) -> AttributeValue {
    AttributeValue::B(Blob::new(b))
}

fn attr_bytes(item: &Item, name: &str) -> Result<Vec<u8>, StoreError> {
    match item.get(name) {
        Some(AttributeValue::B(b)) => Ok(b.as_ref().to_vec()),
        _ => Err(StoreError::fatal(
            NAME,
            format!("an item without a binary `{name}`: the table is not in lexikey's layout"),
        )),
    }
}

impl DynamoStore {
    /// Opens (and creates when missing, unless `options.read_only`) the
    /// table `options.table`.
    ///
    /// # Errors
    /// A missing table when reading, a table with another key schema, an
    /// unreachable server (retryable), refused credentials.
    pub fn open_with(options: DynamoOptions) -> Result<DynamoStore, StoreError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| StoreError::fatal(NAME, format!("cannot start a tokio runtime: {e}")))?;
        let server = match &options.endpoint {
            Some(ep) => format!("DynamoDB at {ep}"),
            None => "DynamoDB".to_string(),
        };
        let timeouts = TimeoutConfig::builder()
            .connect_timeout(options.timeout)
            .operation_attempt_timeout(options.timeout)
            .build();
        // HTTPS on rustls with the `ring` provider (see stores/Cargo.toml);
        // plain HTTP endpoints (dynalite, DynamoDB Local) go through the
        // same client.
        let https = aws_smithy_http_client::Builder::new()
            .tls_provider(aws_smithy_http_client::tls::Provider::Rustls(
                aws_smithy_http_client::tls::rustls_provider::CryptoMode::Ring,
            ))
            .build_https();
        let mut loader = aws_config::defaults(BehaviorVersion::latest())
            .http_client(https)
            .retry_config(RetryConfig::disabled())
            .timeout_config(timeouts);
        if let Some(r) = &options.region {
            loader = loader.region(Region::new(r.clone()));
        }
        if let Some(ep) = &options.endpoint {
            loader = loader.endpoint_url(ep);
        }
        let config = rt.block_on(loader.load());
        if config.region().is_none() {
            return Err(StoreError::fatal(
                NAME,
                "no AWS region: add region=REGION to the URL, or set AWS_REGION",
            ));
        }
        let store = DynamoStore {
            client: Client::new(&config),
            table: options.table.clone(),
            namespace: options.namespace.clone(),
            buckets: RwLock::new(Vec::new()),
            server,
            rt,
        };
        store.ensure_table(options.read_only)?;
        Ok(store)
    }

    /// Puts the rows of each bucket of a salted allocator table (the
    /// logical table range `table`) in the bucket's own partition
    /// ([`bucket_partition`]). Call it before writing any row (what
    /// [`open_allocator`](crate::open_allocator) does); every client of the
    /// table must do the same.
    pub fn route_buckets(&self, salter: &Salter, table: &KeyRange) {
        let routes = (0..salter.buckets())
            .map(|b| {
                (
                    salter.bucket_range(b, table),
                    bucket_partition(&self.namespace, b),
                )
            })
            .collect();
        *self.buckets.write().unwrap_or_else(|e| e.into_inner()) = routes;
    }

    fn ensure_table(&self, read_only: bool) -> Result<(), StoreError> {
        let what = format!("opening table {}", self.table);
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut created = false;
        loop {
            let d = self
                .rt
                .block_on(self.client.describe_table().table_name(&self.table).send());
            match d {
                Ok(out) => {
                    let Some(t) = out.table() else {
                        return Err(StoreError::fatal(NAME, format!("{what}: no description")));
                    };
                    self.check_schema(t)?;
                    if t.table_status() == Some(&TableStatus::Active) {
                        return Ok(());
                    }
                }
                Err(e) if is_code(&e, "ResourceNotFoundException") => {
                    if read_only {
                        return Err(StoreError::fatal(
                            NAME,
                            format!(
                                "no table {} at {}: reading opens existing tables only (lexikey \
                                 alloc creates one)",
                                self.table, self.server
                            ),
                        ));
                    }
                    if !created {
                        self.create_table()?;
                        created = true;
                    }
                }
                Err(e) => return Err(request_error(&self.server, &self.table, &what, e)),
            }
            if Instant::now() > deadline {
                return Err(StoreError::transient(
                    NAME,
                    format!(
                        "{what}: not active after 60 s at {}: try again later",
                        self.server
                    ),
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn check_schema(
        &self,
        t: &aws_sdk_dynamodb::types::TableDescription,
    ) -> Result<(), StoreError> {
        let ty = |name: &str| {
            t.attribute_definitions()
                .iter()
                .find(|a| a.attribute_name() == name)
                .map(|a| a.attribute_type().clone())
        };
        let key = |kind: KeyType| {
            t.key_schema()
                .iter()
                .find(|k| k.key_type() == &kind)
                .map(|k| k.attribute_name().to_string())
        };
        let ok = key(KeyType::Hash).as_deref() == Some(PARTITION_KEY)
            && key(KeyType::Range).as_deref() == Some(SORT_KEY)
            && ty(PARTITION_KEY) == Some(ScalarAttributeType::S)
            && ty(SORT_KEY) == Some(ScalarAttributeType::B);
        if ok {
            return Ok(());
        }
        Err(StoreError::fatal(
            NAME,
            format!(
                "table {} at {} is not in lexikey's layout (partition key {PARTITION_KEY} S, sort \
                 key {SORT_KEY} B): name a new table, which lexikey creates",
                self.table, self.server
            ),
        ))
    }

    fn create_table(&self) -> Result<(), StoreError> {
        let what = format!("creating table {}", self.table);
        let bad = |e: aws_sdk_dynamodb::error::BuildError| {
            StoreError::fatal(NAME, format!("{what}: {e}"))
        };
        let def = |name: &str, ty| {
            AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(ty)
                .build()
                .map_err(bad)
        };
        let key = |name: &str, kind| {
            KeySchemaElement::builder()
                .attribute_name(name)
                .key_type(kind)
                .build()
                .map_err(bad)
        };
        let index = LocalSecondaryIndex::builder()
            .index_name(TEXT_INDEX)
            .key_schema(key(PARTITION_KEY, KeyType::Hash)?)
            .key_schema(key(TEXT_SORT_KEY, KeyType::Range)?)
            .projection(
                Projection::builder()
                    .projection_type(ProjectionType::All)
                    .build(),
            )
            .build()
            .map_err(bad)?;
        let r = self.rt.block_on(
            self.client
                .create_table()
                .table_name(&self.table)
                .billing_mode(BillingMode::PayPerRequest)
                .attribute_definitions(def(PARTITION_KEY, ScalarAttributeType::S)?)
                .attribute_definitions(def(SORT_KEY, ScalarAttributeType::B)?)
                .attribute_definitions(def(TEXT_SORT_KEY, ScalarAttributeType::S)?)
                .key_schema(key(PARTITION_KEY, KeyType::Hash)?)
                .key_schema(key(SORT_KEY, KeyType::Range)?)
                .local_secondary_indexes(index)
                .send(),
        );
        match r {
            Ok(_) => Ok(()),
            // Another client created it first.
            Err(e) if is_code(&e, "ResourceInUseException") => Ok(()),
            Err(e) => Err(request_error(&self.server, &self.table, &what, e)),
        }
    }

    /// The partition of `key`.
    fn partition_of(&self, key: &[u8]) -> String {
        let buckets = self.buckets.read().unwrap_or_else(|e| e.into_inner());
        buckets
            .iter()
            .find(|(r, _)| r.contains(key))
            .map_or_else(|| self.namespace.clone(), |(_, p)| p.clone())
    }

    /// The partitions whose keys may lie in `range`.
    fn partitions_of(&self, range: &KeyRange) -> Vec<String> {
        let buckets = self.buckets.read().unwrap_or_else(|e| e.into_inner());
        let within = |r: &KeyRange| {
            r.start.as_deref().unwrap_or_default() <= range.start.as_deref().unwrap_or_default()
                && match (&r.end, &range.end) {
                    (None, _) => true,
                    (Some(_), None) => false,
                    (Some(a), Some(b)) => b <= a,
                }
        };
        if let Some((_, p)) = buckets.iter().find(|(r, _)| within(r)) {
            return vec![p.clone()];
        }
        let overlaps = |r: &KeyRange| {
            let below_end = match (&r.start, &range.end) {
                (Some(s), Some(e)) => s < e,
                _ => true,
            };
            let above_start = match (&r.end, &range.start) {
                (Some(e), Some(s)) => s < e,
                _ => true,
            };
            below_end && above_start
        };
        let mut out = vec![self.namespace.clone()];
        out.extend(
            buckets
                .iter()
                .filter(|(r, _)| overlaps(r))
                .map(|(_, p)| p.clone()),
        );
        out
    }

    fn key_item(&self, key: &[u8]) -> Item {
        Item::from([
            (
                PARTITION_KEY.to_string(),
                AttributeValue::S(self.partition_of(key)),
            ),
            (SORT_KEY.to_string(), blob(key)),
        ])
    }

    /// Up to `limit` entries of `range` in one partition, in key order.
    fn query(
        &self,
        partition: &str,
        range: &KeyRange,
        limit: usize,
        values: bool,
    ) -> Result<Vec<Entry>, StoreError> {
        let mut out = Vec::new();
        let mut after: Option<Item> = None;
        let what = format!("reading table {}", self.table);
        while out.len() < limit {
            let page = (limit - out.len()).min(1000) as i32;
            let mut q = self
                .client
                .query()
                .table_name(&self.table)
                .consistent_read(true)
                .limit(page)
                .expression_attribute_values(":p", AttributeValue::S(partition.to_string()))
                .set_exclusive_start_key(after.take());
            q = match range.start.as_deref().filter(|s| !s.is_empty()) {
                Some(s) => q
                    .key_condition_expression(format!("{PARTITION_KEY} = :p AND {SORT_KEY} >= :a"))
                    .expression_attribute_values(":a", blob(s)),
                None => q.key_condition_expression(format!("{PARTITION_KEY} = :p")),
            };
            if !values {
                q = q.projection_expression(SORT_KEY);
            }
            let r = self
                .rt
                .block_on(q.send())
                .map_err(|e| request_error(&self.server, &self.table, &what, e))?;
            for item in r.items() {
                let key = attr_bytes(item, SORT_KEY)?;
                if range.end.as_deref().is_some_and(|e| key.as_slice() >= e) {
                    return Ok(out);
                }
                let value = if values {
                    attr_bytes(item, VALUE)?
                } else {
                    Vec::new()
                };
                out.push((key, value));
            }
            match r.last_evaluated_key() {
                Some(k) if !k.is_empty() => after = Some(k.clone()),
                _ => break,
            }
        }
        Ok(out)
    }

    /// `range` over every partition it may touch, merged.
    fn scan_all(
        &self,
        range: &KeyRange,
        limit: usize,
        values: bool,
    ) -> Result<Vec<Entry>, StoreError> {
        if range.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let mut all = Vec::new();
        for p in self.partitions_of(range) {
            all.extend(self.query(&p, range, limit, values)?);
        }
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all.truncate(limit);
        Ok(all)
    }

    /// `PutItem` of `key = value` under `condition` (with its values);
    /// whether it wrote.
    fn put(
        &self,
        key: &[u8],
        value: &[u8],
        condition: &str,
        expected: Option<&[u8]>,
    ) -> Result<bool, StoreError> {
        check_key(key)?;
        let mut item = self.key_item(key);
        item.insert(VALUE.to_string(), blob(value));
        if let Ok(text) = std::str::from_utf8(key) {
            item.insert(
                TEXT_SORT_KEY.to_string(),
                AttributeValue::S(text.to_string()),
            );
        }
        let mut req = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression(condition);
        if let Some(e) = expected {
            req = req
                .expression_attribute_names("#v", VALUE)
                .expression_attribute_values(":e", blob(e));
        }
        match self.rt.block_on(req.send()) {
            Ok(_) => Ok(true),
            Err(e) if is_code(&e, "ConditionalCheckFailedException") => Ok(false),
            Err(e) => Err(request_error(
                &self.server,
                &self.table,
                &format!("writing to table {}", self.table),
                e,
            )),
        }
    }
}

impl Store for DynamoStore {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.scan_all(range, 1, false)?.pop().map(|(k, _)| k))
    }

    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        self.put(
            key,
            value,
            &format!("attribute_not_exists({SORT_KEY})"),
            None,
        )
    }

    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        match expected {
            None => self.put_if_absent(key, new),
            Some(e) => self.put(key, new, "#v = :e", Some(e)),
        }
    }

    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        check_key(key)?;
        let r = self
            .rt
            .block_on(
                self.client
                    .get_item()
                    .table_name(&self.table)
                    .consistent_read(true)
                    .set_key(Some(self.key_item(key)))
                    .send(),
            )
            .map_err(|e| {
                request_error(
                    &self.server,
                    &self.table,
                    &format!("reading table {}", self.table),
                    e,
                )
            })?;
        r.item().map(|i| attr_bytes(i, VALUE)).transpose()
    }

    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.scan_all(range, limit, true)
    }

    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        check_key(key)?;
        let r = self.rt.block_on(
            self.client
                .delete_item()
                .table_name(&self.table)
                .set_key(Some(self.key_item(key)))
                .condition_expression(format!("attribute_exists({SORT_KEY})"))
                .send(),
        );
        match r {
            Ok(_) => Ok(true),
            Err(e) if is_code(&e, "ConditionalCheckFailedException") => Ok(false),
            Err(e) => Err(request_error(
                &self.server,
                &self.table,
                &format!("deleting from table {}", self.table),
                e,
            )),
        }
    }
}
