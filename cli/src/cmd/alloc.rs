//! `lexikey alloc`: rows with decreasing IDs in an upside-down table of a
//! real store, through the compare-and-set allocator.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use lexikey::store::alloc::Allocator;
use lexikey::store::Store;
use lexikey_stores::TableOptions;

use crate::args::{AllocArgs, TableArgs};
use crate::common::{self, FLUSH_AT};
use crate::progress::Progress;
use crate::Io;

/// Opens `--store` (else the URL in `LEXIKEY_STORE`) and builds the
/// allocator of `--table` in `--format`, salted by `--salt-buckets N
/// [--salt-mode M]`, with `options`' other choices:
/// [`lexikey_stores::open_allocator`], as Python's `lexikey.Allocator` and
/// the history recorder do, with each store's tuning and key rule.
///
/// # Errors
/// Missing options, a store URL that does not open, a bad configuration
/// (a salt that is not the table's), row keys that break the key length
/// limit.
pub(crate) fn table_allocator(
    args: &TableArgs,
    options: TableOptions,
) -> Result<Allocator<Arc<dyn Store>>> {
    let env_url = lexikey_stores::store_url_from_env();
    let Some(url) = args.store.as_deref().or(env_url.as_deref()) else {
        bail!("missing --store URL (e.g. --store redb:lexikey.redb, or set LEXIKEY_STORE)");
    };
    let Some(table) = args.table.as_deref() else {
        bail!("missing --table NAME");
    };
    let mut options = options;
    options.format = args.format.unwrap_or(lexikey::Format::Hex);
    if let Some(s) = crate::layout::salter(&args.salt, options.format)? {
        options = options
            .with_salt_buckets(s.buckets())
            .with_salt_mode(s.mode());
    }
    Ok(lexikey_stores::open_allocator(url, table, &options)?)
}

/// Runs `lexikey alloc`.
///
/// # Errors
/// Usage errors, store and allocation errors.
pub(crate) fn run(args: &AllocArgs, io: &mut Io<'_>) -> Result<()> {
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
    let mut options = TableOptions::default().with_guard(args.guard);
    if let Some(n) = args.max_key_len {
        options = options.with_max_key_len(n);
    }
    let alloc = table_allocator(&args.table, options)?;
    let mut out: Vec<u8> = Vec::with_capacity(4096);
    let progress = Progress::bar(n, "IDs", args.quiet);
    let mut last_flush = Instant::now();
    let mut result = Ok(());
    // Batches of the allocator's batch size, each one commit, on the
    // stores that write several keys in one transaction (see
    // `Allocator::insert_many`); on the others one ID at a time, each
    // printed as soon as it is allocated.
    let batch = if alloc.store().atomic_batches() {
        alloc.config().batch_size.max(1) as u64
    } else {
        1
    };
    let mut ids: Vec<u64> = Vec::new();
    let mut done = 0u64;
    while done < n {
        let k = batch.min(n - done);
        let chunk: Vec<&[u8]> = (done..done + k)
            .map(|i| match &single {
                Some(v) => v.as_slice(),
                None => values[i as usize].as_slice(),
            })
            .collect();
        ids.clear();
        let r = alloc.insert_many_into(&chunk, &mut ids);
        for id in &ids {
            out.extend_from_slice(id.to_string().as_bytes());
            out.push(b'\n');
        }
        done += ids.len() as u64;
        if let Err(e) = r {
            result = Err(anyhow!(
                "allocation {} of {n} failed ({done} allocated before it): {e}",
                done + 1,
            ));
            break;
        }
        // Print IDs promptly (another process may be waiting for them),
        // without a write per row on long runs.
        if out.len() >= FLUSH_AT || last_flush.elapsed() >= Duration::from_millis(100) {
            io.stdout.write_all(&out)?;
            io.stdout.flush()?;
            out.clear();
            last_flush = Instant::now();
        }
        progress.set(done);
    }
    progress.finish();
    io.stdout.write_all(&out)?;
    io.stdout.flush()?;
    if args.stats {
        let s = alloc.stats();
        eprintln!(
            "lexikey alloc: {} rows, {} attempts, {} retries, {} conflicts, {} store errors, {} ambiguous, {} skipped, {} burned",
            s.inserted, s.attempts, s.retries, s.conflicts, s.store_errors, s.ambiguous, s.skipped, s.burned
        );
    }
    result
}
