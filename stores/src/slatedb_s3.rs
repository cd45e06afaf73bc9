//! SlateDB on S3 (`slatedb:s3://BUCKET/PREFIX?endpoint=URL&region=REGION`):
//! the object store, the checks made when opening, and the writer lease.
//!
//! # The object store
//!
//! `object_store`'s S3 client (`AmazonS3Builder`): path-style requests to
//! `endpoint=` when given (plain HTTP allowed when it is `http://`), else
//! AWS's endpoint of the region; conditional puts by ETag (`If-Match`,
//! `If-None-Match: *`), which SlateDB's manifest and write-ahead-log
//! fencing depend on. Credentials come from `AWS_ACCESS_KEY_ID` and
//! `AWS_SECRET_ACCESS_KEY` (with `AWS_SESSION_TOKEN` when set), and never
//! appear in a message. The database's objects live under `PREFIX/db/`.
//!
//! Opening lists `PREFIX/` once before anything else, so that a bucket that
//! does not exist, refused credentials or an endpoint that does not answer
//! fail at once with one line that says what to do (and nothing written).
//!
//! # The writer lease
//!
//! SlateDB allows one writer per database: a new writer fences the one
//! before it. On a local directory the adapter queues writer processes
//! with a file lock; S3 has no locks, so the adapter keeps a *lease* in the
//! object `PREFIX/lexikey.lock`, with conditional puts only:
//!
//! - Taking it: create the object (`If-None-Match: *`); or, when it says
//!   `free` (released), replace it (`If-Match` its ETag); or, when its ETag
//!   has not changed for [`LEASE_TTL`] as this process saw it (its holder
//!   died without releasing it: SIGKILL), replace it the same way. The
//!   staleness is measured on this process's own clock from the moment it
//!   first saw that ETag, so clock skew between machines does not matter.
//!   The open waits, polling, up to `wait_ms` (as for a local directory),
//!   then fails with a retryable error naming the holder.
//! - Holding it: a task renews it every [`RENEW_EVERY`] (a new body, so a
//!   new ETag, `If-Match` the last one).
//! - Releasing it (the store dropped): it is replaced by `free`.
//!
//! The lease only keeps writers from fencing each other back and forth;
//! SlateDB's fencing is what keeps the data safe. A holder that stops
//! renewing for longer than [`LEASE_TTL`] (a process stopped by SIGSTOP, a
//! machine that hangs) may lose the lease; the next writer then fences it,
//! and its writes fail with a fatal `fenced` error (see `SlateStore`):
//! nothing it did not acknowledge is reported written.

use std::path::Path as FsPath;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lexikey::store::StoreError;
use object_store::aws::{AmazonS3Builder, S3ConditionalPut};
use object_store::path::Path;
use object_store::prefix::PrefixStore;
use object_store::{
    ClientOptions, Error as OsError, ObjectStore, ObjectStoreExt, PutMode, PutPayload, RetryConfig,
    UpdateVersion,
};
use tokio::runtime::Runtime;
use tokio::task::JoinHandle;

use crate::SlateS3;

const NAME: &str = "slatedb";

/// How long a lease whose ETag does not change is taken for its holder's:
/// past it, a waiting writer takes the lease over.
pub(crate) const LEASE_TTL: Duration = Duration::from_secs(6);

/// How often the holder renews its lease.
pub(crate) const RENEW_EVERY: Duration = Duration::from_millis(1500);

/// The body of a released lease.
const FREE: &str = "free\n";

/// The bound on one S3 request (a request to a stopped server gives up
/// after it, and is retried by `object_store` up to three times).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// One line: `object_store`'s messages may span several.
fn one_line(e: impl std::fmt::Display) -> String {
    e.to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A non-empty environment variable.
fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// Where requests go, for messages: the endpoint, or AWS in the region.
fn target(s3: &SlateS3, region: &str) -> String {
    match &s3.endpoint {
        Some(e) => e.clone(),
        None => format!("AWS S3 in {region}"),
    }
}

/// The S3 object store of `s3` (its keys relative to `PREFIX/`), checked by
/// one listing of `PREFIX/`.
///
/// # Errors
/// Fatal when a credential variable is missing, the bucket does not exist
/// or S3 refuses the credentials; retryable when the endpoint does not
/// answer. Each one line, naming what to do.
pub(crate) fn connect(
    rt: &Runtime,
    s3: &SlateS3,
    root: &FsPath,
) -> Result<Arc<dyn ObjectStore>, StoreError> {
    let root = root.display();
    let fatal = |why: String| StoreError::fatal(NAME, format!("{root}: {why}"));
    let missing: Vec<&str> = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]
        .into_iter()
        .filter(|v| env(v).is_none())
        .collect();
    let (Some(key_id), Some(secret)) = (env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY"))
    else {
        return Err(fatal(format!(
            "no S3 credentials: set {} (a local S3 server such as moto takes any values)",
            missing.join(" and ")
        )));
    };
    let region = s3
        .region
        .clone()
        .or_else(|| env("AWS_REGION"))
        .or_else(|| env("AWS_DEFAULT_REGION"))
        .unwrap_or_else(|| "us-east-1".to_string());
    let at = target(s3, &region);
    crate::tls::install_ring();
    let retry = RetryConfig {
        max_retries: 3,
        retry_timeout: Duration::from_secs(30),
        ..RetryConfig::default()
    };
    let client = ClientOptions::new()
        .with_timeout(REQUEST_TIMEOUT)
        .with_connect_timeout(Duration::from_secs(3));
    let mut builder = AmazonS3Builder::new()
        .with_bucket_name(&s3.bucket)
        .with_region(&region)
        .with_access_key_id(key_id)
        .with_secret_access_key(secret)
        .with_conditional_put(S3ConditionalPut::ETagMatch)
        .with_retry(retry)
        .with_client_options(client);
    if let Some(token) = env("AWS_SESSION_TOKEN") {
        builder = builder.with_token(token);
    }
    if let Some(e) = &s3.endpoint {
        builder = builder
            .with_endpoint(e)
            .with_allow_http(e.starts_with("http://"));
    }
    let bucket: Arc<dyn ObjectStore> = Arc::new(
        builder
            .build()
            .map_err(|e| fatal(format!("cannot set up the S3 client: {}", one_line(e))))?,
    );
    let objects: Arc<dyn ObjectStore> = if s3.prefix.is_empty() {
        bucket
    } else {
        Arc::new(PrefixStore::new(bucket, s3.prefix.as_str()))
    };
    // One listing: the bucket, the credentials and the endpoint, checked.
    let listed = rt.block_on(objects.list_with_delimiter(None));
    if let Err(e) = listed {
        let text = one_line(&e);
        let b = &s3.bucket;
        return Err(
            if text.contains("NoSuchBucket") || matches!(e, OsError::NotFound { .. }) {
                fatal(format!(
                "bucket `{b}` does not exist at {at}: create it first (e.g. aws s3 mb s3://{b}{})",
                s3.endpoint
                    .as_ref()
                    .map_or(String::new(), |e| format!(" --endpoint-url {e}"))
            ))
            } else if matches!(
                e,
                OsError::PermissionDenied { .. } | OsError::Unauthenticated { .. }
            ) || [
                "InvalidAccessKeyId",
                "SignatureDoesNotMatch",
                "AccessDenied",
            ]
            .iter()
            .any(|c| text.contains(c))
            {
                fatal(format!(
                "S3 at {at} refused the credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) \
                 for bucket `{b}`: check them and the bucket's policy ({text})"
            ))
            } else {
                StoreError::transient(
                NAME,
                format!("{root}: cannot reach S3 at {at} (is the server running, the endpoint right?): {text}"),
            )
            },
        );
    }
    Ok(objects)
}

/// The writer lease `PREFIX/lexikey.lock` (see the module docs), renewed
/// by a task on the store's runtime until [`Lease::release`].
pub(crate) struct Lease {
    objects: Arc<dyn ObjectStore>,
    version: Arc<Mutex<UpdateVersion>>,
    renewer: JoinHandle<()>,
}

fn lock_path() -> Path {
    Path::from(super::LOCK_FILE)
}

/// This process's lease body number `n`: `PID HOST N` (a new body each
/// renewal, so a new ETag).
fn body(n: u64) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| env("HOSTNAME"))
        .unwrap_or_default();
    format!("{} {} {n}\n", std::process::id(), host.trim())
}

fn version_of(e_tag: Option<String>, version: Option<String>) -> UpdateVersion {
    UpdateVersion { e_tag, version }
}

impl Lease {
    /// Takes the lease, waiting up to `wait` for its holder (see the module
    /// docs).
    ///
    /// # Errors
    /// Retryable when another writer holds it for longer than `wait` (the
    /// message names it) or S3 does not answer.
    pub(crate) fn acquire(
        rt: &Runtime,
        objects: &Arc<dyn ObjectStore>,
        root: &FsPath,
        wait: Duration,
    ) -> Result<Lease, StoreError> {
        let path = lock_path();
        let failed = |e: OsError| {
            StoreError::transient(
                NAME,
                format!(
                    "{}: cannot take the writer lease {}/{path}: {}",
                    root.display(),
                    root.display(),
                    one_line(e)
                ),
            )
        };
        let deadline = Instant::now() + wait;
        let mut pause = Duration::from_millis(20);
        // The ETag last seen and when this process first saw it.
        let mut seen: Option<(Option<String>, Instant)> = None;
        let mut holder = String::new();
        let taken = loop {
            let mine = PutPayload::from(body(0).into_bytes());
            match rt.block_on(objects.put_opts(&path, mine.clone(), PutMode::Create.into())) {
                Ok(r) => break version_of(r.e_tag, r.version),
                Err(OsError::AlreadyExists { .. } | OsError::Precondition { .. }) => {}
                Err(e) => return Err(failed(e)),
            }
            let current = rt.block_on(async {
                let g = objects.get(&path).await?;
                let v = version_of(g.meta.e_tag.clone(), g.meta.version.clone());
                Ok::<_, OsError>((v, g.bytes().await?))
            });
            let (v, bytes) = match current {
                Ok(c) => c,
                // Released by deletion in between: create it again.
                Err(OsError::NotFound { .. }) => continue,
                Err(e) => return Err(failed(e)),
            };
            let now = Instant::now();
            let stale = match &seen {
                Some((tag, since)) if *tag == v.e_tag => now.duration_since(*since) >= LEASE_TTL,
                _ => {
                    seen = Some((v.e_tag.clone(), now));
                    false
                }
            };
            if bytes.as_ref() == FREE.as_bytes() || stale {
                let update = PutMode::Update(v.clone()).into();
                match rt.block_on(objects.put_opts(&path, mine, update)) {
                    Ok(r) => break version_of(r.e_tag, r.version),
                    Err(OsError::AlreadyExists { .. } | OsError::Precondition { .. }) => {}
                    Err(e) => return Err(failed(e)),
                }
            } else {
                holder = String::from_utf8_lossy(&bytes).trim().to_string();
            }
            if now >= deadline {
                let who = match holder.split(' ').collect::<Vec<_>>()[..] {
                    [pid, host, _] => format!(" (process {pid} on {host})"),
                    _ => String::new(),
                };
                return Err(StoreError::transient(
                    NAME,
                    format!(
                        "{}: another writer{who} holds the database (lease {}/{path}, renewed \
                         every {} ms, taken over after {} s unrenewed); gave up after waiting \
                         {} ms (URL option wait_ms=)",
                        root.display(),
                        root.display(),
                        RENEW_EVERY.as_millis(),
                        LEASE_TTL.as_secs(),
                        wait.as_millis()
                    ),
                ));
            }
            std::thread::sleep(pause.min(deadline - now));
            pause = (pause * 2).min(Duration::from_millis(200));
        };
        let version = Arc::new(Mutex::new(taken));
        let renewer = rt.spawn(renew(Arc::clone(objects), Arc::clone(&version)));
        Ok(Lease {
            objects: Arc::clone(objects),
            version,
            renewer,
        })
    }

    /// Stops renewing and marks the lease `free` (if it is still ours).
    pub(crate) fn release(&self, rt: &Runtime) {
        self.renewer.abort();
        let v = self
            .version
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let free = PutPayload::from(FREE.as_bytes().to_vec());
        let _ = rt.block_on(
            self.objects
                .put_opts(&lock_path(), free, PutMode::Update(v).into()),
        );
    }
}

/// Renews the lease every [`RENEW_EVERY`] until it is lost (another writer
/// took it over) or the task is aborted. A failed request (S3 paused or
/// unreachable) is tried again at the next tick.
async fn renew(objects: Arc<dyn ObjectStore>, version: Arc<Mutex<UpdateVersion>>) {
    let path = lock_path();
    for n in 1.. {
        tokio::time::sleep(RENEW_EVERY).await;
        let v = version.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let next = PutPayload::from(body(n).into_bytes());
        match objects
            .put_opts(&path, next, PutMode::Update(v).into())
            .await
        {
            Ok(r) => {
                *version.lock().unwrap_or_else(|p| p.into_inner()) = version_of(r.e_tag, r.version)
            }
            Err(OsError::Precondition { .. } | OsError::AlreadyExists { .. }) => return,
            Err(_) => {}
        }
    }
}

impl std::fmt::Debug for Lease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lease").finish_non_exhaustive()
    }
}
