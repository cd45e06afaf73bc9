//! The recorder's parts: allocating clients, the deleter, the final read of
//! the table, and the merge of their logs into one history.
//!
//! Each client process (or thread, for RocksDB, whose database one process
//! owns) appends to its own log, one line per `write(2)`: an `invoke` line
//! *before* it calls the allocator, its `alloc` line after. A client killed
//! mid-call leaves an invoke line without its `alloc` line; [`merge`] turns
//! it into an `info` op (see [`History::complete_invokes`]). The deleter
//! does the same with `delete-invoke` and `delete` lines. A line cut short
//! by the kill (no newline yet) was never written as far as the history is
//! concerned: the write it announced had not started.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use lexikey::store::alloc::{AllocError, Allocator, AllocatorConfig, Slot};
use lexikey::store::Store;
use lexikey::Format;
use lexikey_stores::TableOptions;

use crate::clock::now_ns;
use crate::history::{
    parse_line, render_alloc, render_burned, render_delete, render_delete_invoke, render_invoke,
    render_read, AllocOp, DeleteOp, History, Outcome, ParseError, Pending,
};

/// What a client or deleter needs to reach the table.
#[derive(Debug, Clone)]
pub struct Table {
    /// The store URL (`lexikey_stores::open_store`).
    pub url: String,
    /// The table name: prefix `[str:NAME]`, hex keys.
    pub name: String,
    /// The reuse guard.
    pub guard: bool,
    /// Salt buckets (0: no salt): the rows spread over this many buckets
    /// (`lexikey_stores::TableOptions::salt_buckets`).
    pub salt_buckets: u8,
    /// Attempts per call before the allocator gives up.
    pub max_attempts: u32,
    /// The deliberate bug (feature `broken-allocator`).
    pub broken: bool,
}

impl Table {
    /// The table options: hex keys, the guard, the salt buckets,
    /// `max_attempts`, and `assume_unique_values` (every value is unique:
    /// client, process, sequence number, so an ambiguous write that reads
    /// back as ours is ours).
    pub fn options(&self) -> TableOptions {
        TableOptions::new(Format::Hex)
            .with_guard(self.guard)
            .with_salt_buckets(self.salt_buckets)
            .with_max_attempts(self.max_attempts)
            .with_assume_unique_values(true)
    }

    /// The allocator config of this table: [`Table::options`] with the
    /// store's tuning (`lexikey_stores::TableOptions::config`, as
    /// `lexikey alloc` and Python's `Allocator` get it), and the deliberate
    /// bug when `broken`.
    ///
    /// # Errors
    /// `broken` in a build of lexikey without its `broken-allocator` feature.
    pub fn config(&self) -> Result<AllocatorConfig> {
        let c = self.options().config(&self.url, &self.name);
        if self.broken {
            return Ok(c.with_broken_skip_read_back()?);
        }
        Ok(c)
    }

    /// Opens the store (`lexikey_stores::open_store`) and builds the
    /// table's allocator (salted, this reads the salt record), retrying
    /// retryable errors until `deadline` (a server may be down when a
    /// replacement client starts).
    ///
    /// # Errors
    /// A fatal store error, or the deadline passed; a bad configuration (a
    /// salt that is not the table's).
    pub fn open(&self, deadline: Instant) -> Result<Allocator<Arc<dyn Store>>> {
        loop {
            let retry = match lexikey_stores::open_store(&self.url) {
                Ok(store) => match Allocator::new(store, self.config()?) {
                    Ok(alloc) => return Ok(alloc),
                    Err(AllocError::Store(e)) if e.retryable => anyhow!(e),
                    Err(e) => return Err(e.into()),
                },
                Err(e) if e.retryable() => anyhow!(e),
                Err(e) => return Err(e.into()),
            };
            if Instant::now() >= deadline {
                return Err(retry);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// A log file shared by the threads of one process: one `write(2)` a line.
#[derive(Debug)]
pub struct Log(Mutex<File>);

impl Log {
    /// Opens `path` for appending (created if missing).
    ///
    /// # Errors
    /// The file cannot be opened.
    pub fn append(path: &Path) -> Result<Log> {
        let f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        Ok(Log(Mutex::new(f)))
    }

    /// Appends one line (the newline is added).
    ///
    /// # Errors
    /// The write failed.
    pub fn line(&self, text: &str) -> Result<()> {
        let mut buf = Vec::with_capacity(text.len() + 1);
        buf.extend_from_slice(text.as_bytes());
        buf.push(b'\n');
        let mut f = self.0.lock().unwrap_or_else(|p| p.into_inner());
        f.write_all(&buf).context("cannot write the log")
    }
}

/// What an allocator result means for the history.
pub fn outcome(r: &Result<u64, AllocError>) -> (Outcome, Option<u64>) {
    match r {
        Ok(id) => (Outcome::Ok, Some(*id)),
        // The row may hold our value: unknown.
        Err(AllocError::Ambiguous { id, .. }) => (Outcome::Info, Some(*id)),
        // Contention: nothing of this call was written. Store: a
        // non-retryable error, "not applied" by the adapters' contract.
        // The rest fail before any write.
        Err(_) => (Outcome::Fail, None),
    }
}

/// Counts of one client process.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Acknowledged.
    pub ok: u64,
    /// Failed.
    pub fail: u64,
    /// Unknown.
    pub info: u64,
}

/// Runs clients `first .. first + threads` (one thread each) for
/// `seconds`, logging to `log`.
///
/// # Errors
/// The store does not open, a log write fails, or the allocator meets
/// foreign data (a corrupt key: the run is meaningless).
///
/// `pause`: each client sleeps this long after each call (zero: back to
/// back). `deleter`: also run the deleter (every `.0`, logging to `.1`) as a
/// thread of this process — for RocksDB, whose database only one process
/// can open.
pub fn run_clients(
    table: &Table,
    first: u64,
    threads: u64,
    seconds: f64,
    log: &Path,
    pause: Duration,
    deleter: Option<(Duration, &Path)>,
) -> Result<Counts> {
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let alloc = table.open(deadline)?;
    let log = Log::append(log)?;
    let delete_log = deleter.map(|(_, p)| Log::append(p)).transpose()?;
    let pid = std::process::id();
    let results: Vec<Result<Counts>> = std::thread::scope(|s| {
        let deleting = deleter.zip(delete_log.as_ref()).map(|((every, _), dlog)| {
            let alloc = &alloc;
            s.spawn(move || delete_loop(alloc, every, deadline, dlog).map(|_| Counts::default()))
        });
        let handles: Vec<_> = (first..first + threads)
            .map(|client| {
                let (alloc, log) = (&alloc, &log);
                s.spawn(move || client_loop(alloc, log, client, pid, deadline, pause))
            })
            .chain(deleting)
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(anyhow!("client panicked"))))
            .collect()
    });
    let mut total = Counts::default();
    for r in results {
        let c = r?;
        total.ok += c.ok;
        total.fail += c.fail;
        total.info += c.info;
    }
    Ok(total)
}

fn client_loop(
    alloc: &Allocator<Arc<dyn Store>>,
    log: &Log,
    client: u64,
    pid: u32,
    deadline: Instant,
    pause: Duration,
) -> Result<Counts> {
    let mut counts = Counts::default();
    let mut seq = 0u64;
    while Instant::now() < deadline {
        seq += 1;
        let value = format!("c{client}.{pid}.{seq}").into_bytes();
        let invoke_ns = now_ns();
        log.line(&render_invoke(client, invoke_ns, &value))?;
        let r = alloc.insert(&value);
        let complete_ns = now_ns();
        let (outcome, id) = outcome(&r);
        log.line(&render_alloc(&AllocOp {
            line: 0,
            client,
            invoke_ns,
            complete_ns,
            outcome,
            id,
            value,
        }))?;
        match outcome {
            Outcome::Ok => counts.ok += 1,
            Outcome::Fail => counts.fail += 1,
            Outcome::Info => counts.info += 1,
        }
        match r {
            Err(e @ (AllocError::Corrupt { .. } | AllocError::CorruptGuard { .. })) => {
                bail!("client {client}: {e}")
            }
            // Keep a failing store from turning the run into a busy loop.
            Err(_) => std::thread::sleep(Duration::from_millis(20).max(pause)),
            Ok(_) => std::thread::sleep(pause),
        }
    }
    Ok(counts)
}

/// Deletes the newest row every `interval` for `seconds`, logging each
/// delete (guard runs: any ID handed out again after its row was deleted
/// is a violation). Returns the number of rows deleted.
///
/// # Errors
/// The store does not open, a log write fails.
pub fn run_deleter(table: &Table, seconds: f64, interval: Duration, log: &Path) -> Result<u64> {
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let alloc = table.open(deadline)?;
    delete_loop(&alloc, interval, deadline, &Log::append(log)?)
}

/// The deleter's loop (see [`run_deleter`]).
fn delete_loop(
    alloc: &Allocator<Arc<dyn Store>>,
    interval: Duration,
    deadline: Instant,
    log: &Log,
) -> Result<u64> {
    let mut deleted = 0;
    while Instant::now() < deadline {
        std::thread::sleep(interval);
        let Ok(Some((id, value))) = alloc.newest() else {
            continue;
        };
        let invoke_ns = now_ns();
        // Announced first, as a client's call is: killed before its
        // `delete` line, the delete becomes `info` in the merge.
        log.line(&render_delete_invoke(invoke_ns, id, &value))?;
        // One round trip, as a user's delete of the row it just read:
        // `newest` never returns a burned ID, so the key holds this row (no
        // tombstone to keep; `Allocator::delete` reads the key first to
        // spare tombstones, and that extra round trip closed the window this
        // deleter exists to hit).
        let r = alloc
            .store()
            .delete(&alloc.key(id))
            .map_err(AllocError::Store);
        let complete_ns = now_ns();
        let outcome = match &r {
            Ok(_) => Outcome::Ok,
            Err(AllocError::Store(e)) if e.retryable => Outcome::Info,
            Err(_) => Outcome::Fail,
        };
        if matches!(r, Ok(true)) {
            deleted += 1;
        }
        log.line(&render_delete(&DeleteOp {
            line: 0,
            invoke_ns,
            complete_ns,
            outcome,
            id,
            value,
        }))?;
    }
    Ok(deleted)
}

/// Every row of the table, read directly from the store (pages of 1000
/// keys, [`Allocator::entries`]), as `read` lines, and every burned ID as a
/// `burned` line. Retryable errors are retried for up to `patience` (a
/// server may still be recovering).
///
/// # Errors
/// The store does not open or keeps failing; a key in the table's range
/// that is not a row key.
pub fn read_table(table: &Table, patience: Duration) -> Result<Vec<String>> {
    let deadline = Instant::now() + patience;
    let alloc = table.open(deadline)?;
    let mut out = Vec::new();
    let mut after = None;
    const PAGE: usize = 1000;
    loop {
        // Rows and burned IDs, newest first (salted: the buckets merged).
        let page = loop {
            match alloc.entries(after, PAGE) {
                Ok(page) => break page,
                Err(AllocError::Store(e)) if e.retryable && Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(200));
                }
                Err(e) => return Err(anyhow!(e).context("cannot read the table")),
            }
        };
        let full = page.len() == PAGE;
        for slot in &page {
            out.push(match slot {
                Slot::Row { id, value } => render_read(*id, value),
                Slot::Burned { id } => render_burned(*id),
            });
        }
        match page.last() {
            Some(slot) if full => after = Some(slot.id()),
            _ => return Ok(out),
        }
    }
}

/// Merges logs (client, deleter, fault and read lines, in any order) into
/// one history. A last line without its newline (cut by a kill) is
/// dropped; invokes without their alloc line become `info` ops.
///
/// # Errors
/// A file that cannot be read; a bad line (named with its file and line).
pub fn merge(files: &[PathBuf]) -> Result<History> {
    let mut h = History::default();
    let mut pending = Pending::default();
    let mut n = 0usize;
    for path in files {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let complete = match text.rfind('\n') {
            Some(i) => &text[..=i],
            None => "",
        };
        for (i, l) in complete.lines().enumerate() {
            n += 1;
            if l.trim().is_empty() {
                continue;
            }
            let line = parse_line(l, n).map_err(|e| ParseError {
                line: e.line,
                message: format!("{} line {}: {}", path.display(), i + 1, e.message),
            })?;
            h.add(line, &mut pending);
        }
    }
    h.complete_invokes(pending)?;
    Ok(h)
}
