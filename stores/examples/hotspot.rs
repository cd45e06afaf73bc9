//! Where an upside-down table's writes go, unsalted and salted (issue 28):
//! the table in `stores/BENCHES.md`, "Salted tables", "The write spread".
//!
//! For each store given and each salt (none, 1, 4, 16 buckets) it inserts
//! 10,000 rows through `lexikey_stores::open_allocator` into a fresh table,
//! then reads every bucket's range back from the store and prints, per
//! table: the rows per bucket, and the share of the writes taken by the
//! busiest region of a table pre-split at the bucket boundaries (`00#`,
//! `01#`, …), over the whole run and over the worst window of 100
//! consecutive inserts. Unsalted, all rows are one key range: one region.
//!
//! ```text
//! cargo run -p lexikey-stores --example hotspot -- redb:/tmp/spread.redb
//! scripts/with-stores.sh sh -c 'cargo run -p lexikey-stores --features redis \
//!     --example hotspot -- "redb:/tmp/spread.redb?fsync=false" "$LEXIKEY_REDIS_URL"'
//! ```
//!
//! Each run writes into a fresh namespace (`?ns=spread_PID_NANOS`).

use std::collections::BTreeMap;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use lexikey_stores::{open_allocator, redact_url, TableOptions};

const INSERTS: u64 = 10_000;
const WINDOW: u64 = 100;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let urls: Vec<String> = std::env::args().skip(1).collect();
    if urls.is_empty() {
        return Err("usage: hotspot STORE_URL...".into());
    }
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH)?.subsec_nanos();
    let ns = format!("spread_{}_{nanos:08x}", std::process::id());
    println!(
        "| store | salt buckets | inserts/s (1 client) | rows per bucket | busiest region, all {INSERTS} | busiest region, worst {WINDOW} in a row |"
    );
    println!("|---|---:|---:|---|---:|---:|");
    for url in &urls {
        let sep = if url.contains('?') { '&' } else { '?' };
        let url = format!("{url}{sep}ns={ns}");
        for n in [0u8, 1, 4, 16] {
            let table = format!("spread{n}");
            let options = TableOptions::default().with_salt_buckets(n);
            let alloc = open_allocator(&url, &table, &options)?;
            let t = Instant::now();
            for i in 0..INSERTS {
                let _ = alloc.insert(format!("row {i}").as_bytes())?;
            }
            let rate = INSERTS as f64 / t.elapsed().as_secs_f64();
            // Read the rows back, bucket by bucket: the region of a row is
            // the bucket range that holds it.
            let mut region_of = BTreeMap::new();
            let mut per_bucket = Vec::new();
            for (b, range) in alloc.ranges().iter().enumerate() {
                let rows = alloc.store().scan(range, usize::MAX)?;
                per_bucket.push(rows.len() as u64);
                for (key, _) in rows {
                    let _ = region_of.insert(alloc.decode_id(&key)?, b);
                }
            }
            assert_eq!(region_of.len() as u64, INSERTS, "every row read back");
            let busiest = |ids: &mut dyn Iterator<Item = &usize>, total: u64| {
                let mut count = vec![0u64; per_bucket.len()];
                for &b in ids {
                    count[b] += 1;
                }
                count.into_iter().max().unwrap_or(0) as f64 * 100.0 / total as f64
            };
            let all = busiest(&mut region_of.values(), INSERTS);
            // Consecutive inserts are consecutive IDs (one client, no fault).
            let ids: Vec<&usize> = region_of.values().collect();
            let worst = ids
                .chunks(WINDOW as usize)
                .map(|w| busiest(&mut w.iter().copied(), w.len() as u64))
                .fold(0.0, f64::max);
            println!(
                "| {} | {} | {rate:.0} | {} | {all:.1} % | {worst:.0} % |",
                redact_url(&url).split('?').next().unwrap_or_default(),
                if n == 0 {
                    "none".to_string()
                } else {
                    n.to_string()
                },
                per_bucket
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
    }
    Ok(())
}
