//! `lexikey alloc`: rows with decreasing IDs in an upside-down table of a
//! real store, through the compare-and-set allocator.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use lexikey::alloc::{Allocator, AllocatorConfig};
use lexikey::store::Store;
use lexikey::Component;

use crate::args::{AllocArgs, TableArgs};
use crate::common::{self, FLUSH_AT};
use crate::progress::Progress;
use crate::Io;

/// Help text.
pub const USAGE: &str = "\
Usage:
  lexikey alloc --store URL --table NAME [--count N] [--format F] [--guard] [--stats]
                [--max-key-len N] [--quiet] [VALUE...]

Inserts rows into the upside-down table NAME of the store at URL, each under a new
ID one below the newest row's (the first row gets 18446744073709551615), and prints
each allocated ID as a decimal number, one per line, as soon as it is allocated.
One row per VALUE; with --count N, N rows that each store the single VALUE given
(empty when none); with neither, one row with an empty value. IDs come from a
compare-and-set loop (read the newest ID, put-if-absent ID-1, retry when another
client won), so concurrent 'lexikey alloc' processes never get the same ID.

Row ID of table NAME is the key (str:NAME, u64:ID) in format F, e.g. in hex
  NAME#uFFFFFFFFFFFFFFFF
so the newest row is the first key of the table: 'lexikey scan' reads it first.

Options:
  --store URL   memory:, redb:PATH (embedded, the default build), rocksdb:PATH,
                slatedb:PATH, redis://HOST:PORT, postgres://USER@HOST:PORT/DB,
                etcd://HOST:PORT[,...] (server stores need the cli built with feature
                redis, postgres, etcd, rocksdb, slatedb or all-servers); TLS: rediss://,
                postgres://…?sslmode=verify-full, etcd+https:// (see the README's
                'Production stores'). Without --store, the URL in the LEXIKEY_STORE
                variable (keeps a password out of 'ps'). Passwords never appear in
                messages (shown as ***). One process at a time writes a slatedb:
                store; others wait for it (wait_ms=, default 30000) and then fail.
  --format F    key format: hex (default), base64, decimal, binary; every client of
                a table must use the same
  --guard       the reuse guard: a low-water mark makes IDs strictly decreasing even
                when the newest row is deleted (one more round trip per ID); every
                client of a table should use it
  --stats       print one summary line on stderr at the end (rows, attempts,
                conflicts, store errors)
  --max-key-len N  refuse a table whose row keys are longer than N bytes (default:
                65535 for slatedb: stores, which also refuse an empty key, SlateDB's
                key rule; no limit for the others)
  --quiet       no progress bar (shown on stderr only when it is a terminal: IDs so
                far, IDs/s and the time left)
If an allocation fails, the IDs allocated before it are printed, then one error line,
exit code 2.

Several processes may allocate in one redb: file at once (their writes queue); a
process that opened the file alone (?processes=one, or ?fsync=false) makes the others
wait for it, up to ?lock_timeout_ms=N (default 10000).
";

/// Opens `--store` and builds the allocator of `--table`.
///
/// # Errors
/// Missing options, a store URL that does not open, a bad configuration.
pub fn table_allocator(args: &TableArgs, guard: bool) -> Result<Allocator<Arc<dyn Store>>> {
    let env_url = store_from_env();
    let Some(url) = args.store.as_deref().or(env_url.as_deref()) else {
        bail!("missing --store URL (e.g. --store redb:lexikey.redb, or set LEXIKEY_STORE)");
    };
    let Some(table) = args.table.as_deref() else {
        bail!("missing --table NAME");
    };
    let format = args.format.unwrap_or(lexikey::Format::Hex);
    let store = open_store(url)?;
    let mut config = AllocatorConfig::new(format, &[Component::asc(table.to_string())]);
    if matches!(
        lexikey_stores::parse_url(url),
        Ok(lexikey_stores::StoreSpec::Redb { .. })
    ) {
        // Processes sharing a redb file queue for its write lock, and a
        // lost race costs one local read: the only thing retried is a
        // conflict (redb's own errors are fatal). A client that backed off
        // far would keep losing to the ones that just won, so it retries
        // soon and for as long as it takes instead of giving up after the
        // default 64 attempts.
        config = config
            .with_max_attempts(REDB_MAX_ATTEMPTS)
            .with_backoff(Duration::from_micros(100), Duration::from_millis(5));
    }
    if guard {
        config = config.with_guard(true);
    }
    Ok(Allocator::new(store, config)?)
}

/// Attempts per ID on a `redb:` file (see [`table_allocator`]).
const REDB_MAX_ATTEMPTS: u32 = 100_000;

/// The store URL of `--store`, or else of `LEXIKEY_STORE` (unset or empty:
/// `None`): a URL with a password stays out of the command line, which `ps`
/// shows to every user.
pub fn store_url(args: &TableArgs) -> Option<String> {
    args.store.clone().or_else(store_from_env)
}

/// The store URL of `LEXIKEY_STORE` (unset or empty: `None`), taken when
/// `--store` is not given.
pub fn store_from_env() -> Option<String> {
    std::env::var("LEXIKEY_STORE")
        .ok()
        .filter(|u| !u.is_empty())
}

/// Opens a store URL. Messages show it with its password as `***`.
///
/// # Errors
/// The URL does not parse, or the store cannot be opened or reached.
pub fn open_store(url: &str) -> Result<Arc<dyn Store>> {
    let store = lexikey_stores::open(url)
        .with_context(|| format!("cannot open store {:?}", lexikey_stores::redact_url(url)))?;
    Ok(Arc::from(store))
}

/// Checks the table's row keys (all of one length: the ID is fixed-width in
/// every format) against `--max-key-len N`, or, without it, against the
/// store's own key rule (`slatedb:`: 1 to 65,535 bytes).
///
/// # Errors
/// A row key that the limit or the rule refuses.
fn check_row_keys(args: &AllocArgs, key: &[u8]) -> Result<()> {
    let url = store_url(&args.table).unwrap_or_default();
    let rule = lexikey_stores::parse_url(&url)
        .ok()
        .and_then(|s| s.key_len_rule());
    let (min, max, why) = match (args.max_key_len, rule) {
        (Some(n), rule) => (rule.map_or(0, |r| r.0), n, ""),
        (None, Some((min, max))) => (min, max, " (a slatedb: store's key rule)"),
        (None, None) => return Ok(()),
    };
    if key.len() < min {
        bail!(
            "row keys of this table are empty: {} refuses an empty key",
            lexikey_stores::redact_url(&url)
        );
    }
    lexikey::tuple::check_len(key, max).map_err(|e| anyhow!("row keys of this table: {e}{why}"))?;
    Ok(())
}

/// Runs `lexikey alloc`.
///
/// # Errors
/// Usage errors, store and allocation errors.
pub fn run(args: &AllocArgs, io: &mut Io<'_>) -> Result<()> {
    let values: Vec<Vec<u8>> = args
        .values
        .iter()
        .map(|v| common::os_bytes(v).into_owned())
        .collect();
    let (n, single) = match args.count {
        Some(n) => {
            if values.len() > 1 {
                bail!(
                    "--count N stores the single VALUE given in N rows, but {} VALUEs were given",
                    values.len()
                );
            }
            (n, Some(values.first().cloned().unwrap_or_default()))
        }
        None if values.is_empty() => (1, Some(Vec::new())),
        None => (values.len() as u64, None),
    };
    let alloc = table_allocator(&args.table, args.guard)?;
    check_row_keys(args, alloc.start_key())?;
    let mut out: Vec<u8> = Vec::with_capacity(4096);
    let progress = Progress::bar(n, "IDs", args.quiet);
    let mut last_flush = Instant::now();
    let mut result = Ok(());
    for i in 0..n {
        let value = match &single {
            Some(v) => v.as_slice(),
            None => values[i as usize].as_slice(),
        };
        match alloc.insert(value) {
            Ok(id) => {
                out.extend_from_slice(id.to_string().as_bytes());
                out.push(b'\n');
            }
            Err(e) => {
                result = Err(anyhow!(
                    "allocation {} of {n} failed ({} allocated before it): {e}",
                    i + 1,
                    i
                ));
                break;
            }
        }
        // Print IDs promptly (another process may be waiting for them),
        // without a write per row on long runs.
        if out.len() >= FLUSH_AT || last_flush.elapsed() >= Duration::from_millis(100) {
            io.stdout.write_all(&out)?;
            io.stdout.flush()?;
            out.clear();
            last_flush = Instant::now();
        }
        progress.set(i + 1);
    }
    progress.finish();
    io.stdout.write_all(&out)?;
    io.stdout.flush()?;
    if args.stats {
        let s = alloc.stats();
        eprintln!(
            "lexikey alloc: {} rows, {} attempts, {} retries, {} conflicts, {} store errors, {} ambiguous, {} skipped",
            s.inserted, s.attempts, s.retries, s.conflicts, s.store_errors, s.ambiguous, s.skipped
        );
    }
    result
}
