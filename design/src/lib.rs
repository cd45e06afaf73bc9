//! Key design before the table exists: from a layout ([`KeySpec`]) and
//! sample rows in insertion order ([`Sample`]), the hot spot a key would
//! make, the prefixes that take most rows, the key sizes against each
//! store's limit ([`lint`]), and the split points of a pre-split table in
//! each store's own command ([`plan`]); and, between two layouts, whether
//! the keys of the old one still read and sort under the new one, with a
//! witness and a migration plan when they do not ([`diff`]). Every front
//! end (the `lexikey` command's `lint`, `plan` and `schema diff`, Python's
//! `Schema.lint`, `Schema.plan` and `Schema.diff`) calls these; they print
//! what this crate returns.
//!
//! ```
//! use lexikey::frontend::key_format::KeyFormat;
//! use lexikey::frontend::spec::KeySpec;
//! use lexikey_design::{lint, plan, Sample, Target};
//! let spec = KeySpec::new(KeyFormat::parse("hex")?).with_schema("str,i64")?;
//! let mut csv = String::new();
//! for seq in 0..400 {
//!     csv.push_str(&format!("events,{seq}\n")); // a sequence: every write at the end
//! }
//! let sample = Sample::from_csv(&spec, csv.as_bytes())?;
//! let report = lint(&spec, &sample, 16)?;
//! assert!(report.hot_spot);
//! assert_eq!(report.busiest_region_share, 1.0);
//! assert_eq!(report.key_bytes.max, 24); // events#l8000000000000000
//! assert_eq!(
//!     plan(&spec, &sample, 4, Target::Cbt, "t")?,
//!     "cbt createtable t splits='events#l8000000000000064,events#l80000000000000C8,events#l800000000000012C'\n"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use lexikey::frontend::host::ColType;
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::profile::Profile;
use lexikey::frontend::spec::KeySpec;
use lexikey::range::render::{render_splits, Dialect, RenderOptions};
use lexikey::store::salt::{SaltMode, Salter};

pub mod cursor;
mod diff;
mod report;
mod sample;

pub use diff::{diff, DecodeWitness, Diff, Migration, OrderWitness};
pub use sample::{InputFormat, Sample};

/// Why a lint or a plan could not be made: one readable line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DesignError(String);

impl DesignError {
    pub(crate) fn new(msg: impl Into<String>) -> DesignError {
        DesignError(msg.into())
    }
}

impl fmt::Display for DesignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DesignError {}

/// The most regions [`lint`] and [`plan`] take.
pub const MAX_REGIONS: usize = 65_536;

/// The share of the sample, at its end, that [`lint`] takes as the recent
/// writes: the last quarter of the rows (at least one).
pub const WINDOW_DIVISOR: usize = 4;

/// The salt bucket counts [`lint`] tries, smallest first.
const SALT_CANDIDATES: [u8; 8] = [2, 4, 8, 16, 32, 64, 128, 255];

/// How many leading values the skew report lists.
pub const TOP_K: usize = 5;

/// Which way keys move with insertion order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Most recent keys sort after every earlier one (time, sequences).
    Rising,
    /// Most recent keys sort before every earlier one (decreasing IDs).
    Falling,
}

impl Direction {
    /// `rising` or `falling`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Rising => "rising",
            Direction::Falling => "falling",
        }
    }
}

/// A leading value and the rows that have it.
#[derive(Debug, Clone, PartialEq)]
pub struct Prefix {
    /// The leading value's text.
    pub value: String,
    /// Rows with it.
    pub rows: usize,
    /// `rows` over the sample's rows.
    pub share: f64,
}

/// Key lengths in bytes (nearest-rank percentiles).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyBytes {
    /// The median.
    pub p50: usize,
    /// The 99th percentile.
    pub p99: usize,
    /// The longest.
    pub max: usize,
}

/// One store's key-size limit and the sample rows over it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitCheck {
    /// The store and what the limit is on.
    pub store: &'static str,
    /// The largest key it takes, in bytes.
    pub limit: usize,
    /// Rows whose key is longer.
    pub rows_over: usize,
    /// The first (at most 10) of them, 1-based in insertion order.
    pub first_rows_over: Vec<usize>,
}

/// The key-size limits [`lint`] checks: (store, largest key in bytes).
pub const LIMITS: [(&str, usize); 6] = [
    // HBase: a row key's length is a Java short (HConstants.MAX_ROW_LENGTH).
    ("hbase row key", 32_767),
    // Bigtable: "Row keys: 4 KiB" (quotas and limits).
    ("bigtable row key", 4_096),
    // DynamoDB: partition key 2,048 bytes, sort key 1,024 bytes.
    ("dynamodb partition key", 2_048),
    ("dynamodb sort key", 1_024),
    // Cassandra: a partition key (or clustering value) of at most 64 KiB - 1.
    ("cassandra key", 65_535),
    // etcd: --max-request-bytes, 1.5 MiB by default (a key must fit a request).
    ("etcd request", 1_572_864),
];

/// What [`lint`] finds in a sample.
#[derive(Debug, Clone, PartialEq)]
pub struct Lint {
    /// Rows in the sample.
    pub rows: usize,
    /// The regions asked for.
    pub regions: usize,
    /// The recent writes: the last `window_rows` rows of the sample.
    pub window_rows: usize,
    /// Whether the recent writes crowd into one region.
    pub hot_spot: bool,
    /// Whether keys rise or fall with insertion order (most recent writes
    /// beyond every earlier key), if they do.
    pub direction: Option<Direction>,
    /// The share (0–1) of the recent writes the busiest region takes.
    pub busiest_region_share: f64,
    /// Recent writes per region, first region first.
    pub writes_per_region: Vec<usize>,
    /// For a hot spot: the salt bucket count that spreads the recent
    /// writes best for its size.
    pub suggested_salt_buckets: Option<u8>,
    /// The busiest region's share after salting with that count.
    pub share_after_salting: Option<f64>,
    /// Recent writes per region after salting.
    pub writes_per_region_after_salting: Option<Vec<usize>>,
    /// The leading values that take most rows, most first.
    pub skew: Vec<Prefix>,
    /// Key lengths.
    pub key_bytes: KeyBytes,
    /// Each store's limit and the rows over it.
    pub limits: Vec<LimitCheck>,
}

/// Where recent writes go: regions cut at the quantiles of the rows before
/// the window (the table as it stands, split evenly), then the window's
/// rows (the recent writes) assigned to them.
#[derive(Debug, Clone, PartialEq)]
struct Spread {
    counts: Vec<usize>,
    share: f64,
    direction: Option<Direction>,
}

/// The size of the recent-writes window of `n` rows.
fn window(n: usize) -> usize {
    (n / WINDOW_DIVISOR).max(1).min(n)
}

/// Spread of the keys `key(0..n)` (insertion order) over `regions`. With
/// `salt_len` > 0 (salted keys), regions are cut only where a bucket
/// begins (a salted table is pre-split at its buckets): the split before
/// rank `i * n / regions` moves to the next bucket's salt.
fn spread<'k>(
    n: usize,
    regions: usize,
    salt_len: usize,
    key: impl Fn(usize) -> &'k [u8],
) -> Spread {
    let w = window(n);
    let hist = if n > w { n - w } else { n };
    let mut order: Vec<usize> = (0..hist).collect();
    order.sort_by(|&a, &b| key(a).cmp(key(b)));
    let same = |a: usize, b: usize| match salt_len {
        0 => key(a) == key(b),
        l => key(a)[..l] == key(b)[..l],
    };
    // Salted: split at the bucket's salt itself, where the bucket begins
    // (a falling key's new rows sort before the bucket's first old row).
    let splits: Vec<&[u8]> = choose_splits(&order, regions, same)
        .into_iter()
        .map(|r| match salt_len {
            0 => key(r),
            l => &key(r)[..l],
        })
        .collect();
    let mut counts = vec![0usize; splits.len() + 1];
    let (lo, hi) = (key(order[0]), key(order[order.len() - 1]));
    let (mut above, mut below) = (0usize, 0usize);
    for i in n - w..n {
        let k = key(i);
        counts[splits.partition_point(|s| *s <= k)] += 1;
        above += usize::from(k > hi);
        below += usize::from(k < lo);
    }
    let busiest = counts.iter().copied().max().unwrap_or(0);
    // "Most": more than half of the recent writes beyond every earlier key.
    let direction = if 2 * above > w {
        Some(Direction::Rising)
    } else if 2 * below > w {
        Some(Direction::Falling)
    } else {
        None
    };
    Spread {
        counts,
        share: busiest as f64 / w as f64,
        direction,
    }
}

/// The row indices (from `sorted`, rows in key order) before which to
/// split into `regions` near-equal parts: split `i` at the first row of
/// rank `i * n / regions`, moved forward past rows equal to the one before
/// it so that every split starts a new value; at most `regions - 1`
/// splits, fewer when there are fewer distinct values.
fn choose_splits(
    sorted: &[usize],
    regions: usize,
    same: impl Fn(usize, usize) -> bool,
) -> Vec<usize> {
    // Starts of runs of equal values (rank of each run's first row).
    let mut starts: Vec<usize> = Vec::new();
    for r in 1..sorted.len() {
        if !same(sorted[r - 1], sorted[r]) {
            starts.push(r);
        }
    }
    let n = sorted.len();
    let want = regions.saturating_sub(1).min(starts.len());
    let mut out = Vec::with_capacity(want);
    let mut next = 0usize; // the first usable run start
    for i in 1..regions {
        if out.len() == want {
            break;
        }
        let target = i * n / regions;
        let mut j = starts.partition_point(|&s| s < target).max(next);
        // Leave enough run starts for the splits still to come.
        let left = want - out.len();
        j = j.min(starts.len() - left);
        out.push(sorted[starts[j]]);
        next = j + 1;
    }
    out
}

/// Checks a region count.
fn check_regions(regions: usize) -> Result<(), DesignError> {
    if !(1..=MAX_REGIONS).contains(&regions) {
        return Err(DesignError::new(format!(
            "invalid region count {regions}: expected 1 to {MAX_REGIONS}"
        )));
    }
    Ok(())
}

/// The salter `lint` measures a fix with: Phoenix's hash for Phoenix keys,
/// the fast one otherwise, written as the layout writes salts.
fn fix_salter(spec: &KeySpec, buckets: u8) -> Option<Salter> {
    let (mode, format) = match spec.format() {
        KeyFormat::Profile(Profile::Phoenix) => (SaltMode::Phoenix, lexikey::Format::Binary),
        f => (SaltMode::Fast, f.native()),
    };
    Salter::new(buckets, mode)
        .ok()
        .map(|s| s.for_format(format))
}

/// Lints a key design: where recent writes go among `regions` regions
/// (hot spots), the leading values that take most rows (skew), key sizes
/// against each store's limit ([`LIMITS`]).
///
/// **How the spread is measured**: the sample's rows are in insertion
/// order; the last quarter of them ([`WINDOW_DIVISOR`], at least one row)
/// are the recent writes. The rows before them are sorted and cut into
/// `regions` near-equal regions at their key quantiles (the table as it
/// stands, evenly split); each recent write goes to the region holding its
/// key. A key that rises with insertion order puts every recent write in
/// the last region (a share of 1.0), one that falls in the first; a
/// uniformly spread key gives each region about `1 / regions`. A hot spot
/// is a busiest share past half-way between the two:
/// `share > (1 + 1/regions) / 2`.
/// A salted layout's regions are cut only where a bucket begins (a
/// salted table is pre-split at its buckets), as [`split_points`] cuts them.
///
/// For a hot spot, the fix: each bucket count of 2, 4, 8, …, 255 salts
/// the unsalted keys with the project's salting (`lexikey::store::salt`;
/// Phoenix's hash for Phoenix keys) and is measured the same way; the
/// suggestion is the smallest count whose busiest share is at most
/// `2 / regions`, else the count with the smallest share.
///
/// # Errors
/// An empty sample, a region count outside 1 to [`MAX_REGIONS`].
pub fn lint(spec: &KeySpec, sample: &Sample, regions: usize) -> Result<Lint, DesignError> {
    check_regions(regions)?;
    let n = sample.len();
    if n == 0 {
        return Err(DesignError::new("the sample has no rows"));
    }
    let salt_len = spec.salter().map_or(0, |s| s.salt_len());
    let before = spread(n, regions, salt_len, |i| sample.key(i));
    let threshold = (1.0 + 1.0 / regions as f64) / 2.0;
    let hot = regions > 1 && before.share > threshold;

    let (mut suggested, mut after_share, mut after_counts) = (None, None, None);
    if hot {
        // The unsalted keys, salted anew with each candidate.
        let mut best: Option<(u8, Spread)> = None;
        let mut buf: Vec<u8> = Vec::new();
        let mut ends: Vec<usize> = Vec::with_capacity(n);
        for b in SALT_CANDIDATES {
            let Some(salter) = fix_salter(spec, b) else {
                continue;
            };
            buf.clear();
            ends.clear();
            for i in 0..n {
                let k = sample.key(i);
                let plain = spec.unsalted(k).unwrap_or(k);
                salter.salted_key_into(plain, &mut buf);
                ends.push(buf.len());
            }
            let key = |i: usize| &buf[if i == 0 { 0 } else { ends[i - 1] }..ends[i]];
            let s = spread(n, regions, salter.salt_len(), key);
            let good = s.share <= 2.0 / regions as f64;
            if best.as_ref().is_none_or(|(_, bs)| s.share < bs.share) || good {
                best = Some((b, s));
            }
            if good {
                break;
            }
        }
        if let Some((b, s)) = best {
            suggested = Some(b);
            after_share = Some(s.share);
            after_counts = Some(s.counts);
        }
    }

    // Skew: leading values by row count. The sample's rows sorted by
    // leading text, then runs counted.
    let mut by_lead: Vec<usize> = (0..n).collect();
    by_lead.sort_by(|&a, &b| sample.leading(a).cmp(sample.leading(b)));
    let mut runs: Vec<(usize, usize)> = Vec::new(); // (row, count)
    for &r in &by_lead {
        match runs.last_mut() {
            Some((first, c)) if sample.leading(*first) == sample.leading(r) => *c += 1,
            _ => runs.push((r, 1)),
        }
    }
    runs.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(sample.leading(a.0).cmp(sample.leading(b.0)))
    });
    let skew = runs
        .iter()
        .take(TOP_K)
        .map(|&(r, c)| Prefix {
            value: sample.leading(r).to_string(),
            rows: c,
            share: c as f64 / n as f64,
        })
        .collect();

    let mut lens: Vec<usize> = (0..n).map(|i| sample.key(i).len()).collect();
    let limits = LIMITS
        .iter()
        .map(|&(store, limit)| {
            let over: Vec<usize> = (0..n).filter(|&i| lens[i] > limit).collect();
            LimitCheck {
                store,
                limit,
                rows_over: over.len(),
                first_rows_over: over.iter().take(10).map(|i| i + 1).collect(),
            }
        })
        .collect();
    lens.sort_unstable();
    let rank = |p: usize| lens[(p * n).div_ceil(100).max(1) - 1];
    let key_bytes = KeyBytes {
        p50: rank(50),
        p99: rank(99),
        max: lens[n - 1],
    };

    Ok(Lint {
        rows: n,
        regions,
        window_rows: window(n),
        hot_spot: hot,
        direction: before.direction,
        busiest_region_share: before.share,
        writes_per_region: before.counts,
        suggested_salt_buckets: suggested,
        share_after_salting: after_share,
        writes_per_region_after_salting: after_counts,
        skew,
        key_bytes,
        limits,
    })
}

/// The split points of `regions` regions of the whole sample:
/// `regions - 1` distinct keys, sorted, each the first key of a region, cut
/// at the sample's key quantiles (split `i` at rank `i * n / regions`,
/// moved past keys equal to the one before it), so that each region holds
/// about `n / regions` of the sample's rows. A salted layout is split only
/// where a bucket begins, at the bucket's salt (`01#`, `02#`, ...): its
/// writes spread over the buckets, each region a run of whole buckets.
///
/// # Errors
/// A region count outside 1 to [`MAX_REGIONS`]; a sample with fewer than
/// `regions` distinct keys (salted: buckets).
pub fn split_points(
    spec: &KeySpec,
    sample: &Sample,
    regions: usize,
) -> Result<Vec<Vec<u8>>, DesignError> {
    check_regions(regions)?;
    let salt_len = spec.salter().map_or(0, |s| s.salt_len());
    let mut order: Vec<usize> = (0..sample.len()).collect();
    order.sort_by(|&a, &b| sample.key(a).cmp(sample.key(b)));
    let head = |r: usize| match salt_len {
        0 => sample.key(r),
        l => &sample.key(r)[..l.min(sample.key(r).len())],
    };
    let rows = choose_splits(&order, regions, |a, b| head(a) == head(b));
    if rows.len() + 1 < regions {
        return Err(DesignError::new(format!(
            "the sample has {} distinct {}: too few for {regions} regions",
            rows.len() + usize::from(!sample.is_empty()),
            if salt_len == 0 {
                "keys"
            } else {
                "salt buckets"
            }
        )));
    }
    Ok(rows.into_iter().map(|r| head(r).to_vec()).collect())
}

/// The column family of [`plan`]'s hbase table: `cf`, as the issue's
/// example and HBase's own documentation name one.
pub const HBASE_FAMILY: &str = "cf";

/// Where [`plan`]'s table is created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// `create 'T', 'cf', SPLITS => [...]` for the hbase shell (column
    /// family [`HBASE_FAMILY`]).
    Hbase,
    /// `cbt createtable T splits=...`.
    Cbt,
    /// Phoenix's `CREATE TABLE ... SPLIT ON (...)`.
    Phoenix,
}

impl Target {
    /// Parses `hbase`, `cbt` or `phoenix`.
    ///
    /// # Errors
    /// Another name.
    pub fn parse(s: &str) -> Result<Target, DesignError> {
        match s {
            "hbase" => Ok(Target::Hbase),
            "cbt" => Ok(Target::Cbt),
            "phoenix" => Ok(Target::Phoenix),
            _ => Err(DesignError::new(format!(
                "unknown target {s:?}: expected hbase, cbt or phoenix"
            ))),
        }
    }
}

/// The command that creates `table` split into `regions` regions at the
/// sample's key quantiles ([`split_points`]), one line:
///
/// - [`Target::Hbase`], [`Target::Cbt`]: the split keys as
///   [`render_splits`] writes them (the hbase shell's Ruby literals of
///   `Bytes.toStringBinary`; cbt's shell-quoted `splits=`);
/// - [`Target::Phoenix`]: for Phoenix keys (`--format phoenix`),
///   `CREATE TABLE T (K1 TYPE NOT NULL, …, CONSTRAINT PK PRIMARY KEY (K1,
///   …)) SPLIT ON (…)` with the leading column's values where the sample's
///   leading values change at the quantiles (Phoenix writes each split as
///   that value's key); for keys of a text format, a table of one
///   `VARCHAR` key column split at the keys themselves.
///
/// # Errors
/// As [`split_points`] (for Phoenix keys: fewer than `regions` distinct
/// leading values); a split the target's syntax cannot carry; a salted
/// Phoenix table (Phoenix refuses `SPLIT ON` with `SALT_BUCKETS`); a binary
/// key format for Phoenix; a Phoenix leading column of a type other than
/// char, varchar or a number.
pub fn plan(
    spec: &KeySpec,
    sample: &Sample,
    regions: usize,
    target: Target,
    table: &str,
) -> Result<String, DesignError> {
    let dialect = match target {
        Target::Hbase => Dialect::Hbase,
        Target::Cbt => Dialect::Cbt,
        Target::Phoenix => return phoenix_plan(spec, sample, regions, table),
    };
    let splits = split_points(spec, sample, regions)?;
    let opts = RenderOptions::new().table(table).family(HBASE_FAMILY);
    render_splits(dialect, &splits, &opts).map_err(|e| DesignError::new(e.to_string()))
}

/// A SQL string literal: `'…'` with `'` doubled.
fn sql_string(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// A Phoenix table name: as it is when a plain identifier, else quoted.
fn sql_name(s: &str) -> Result<String, DesignError> {
    if s.is_empty() || s.chars().any(char::is_control) {
        return Err(DesignError::new(format!(
            "invalid table name {s:?}: empty or holding a control character"
        )));
    }
    let plain = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    Ok(if plain {
        s.to_string()
    } else {
        format!("\"{}\"", s.replace('"', "\"\""))
    })
}

fn phoenix_plan(
    spec: &KeySpec,
    sample: &Sample,
    regions: usize,
    table: &str,
) -> Result<String, DesignError> {
    check_regions(regions)?;
    let name = sql_name(table)?;
    let cols = spec.schema().unwrap_or_default();
    let (columns, splits) = match spec.format() {
        KeyFormat::Profile(Profile::Phoenix) => {
            if spec.profile_options().salt.is_some() {
                return Err(DesignError::new(
                    "a salted Phoenix table (SALT_BUCKETS) is split at its buckets: Phoenix \
                     refuses SPLIT ON with SALT_BUCKETS",
                ));
            }
            let lead = match cols.first() {
                Some(ColType::Phoenix(c)) => *c,
                _ => return Err(DesignError::new("a Phoenix plan needs a Phoenix schema")),
            };
            let ty = lead.ty.to_string();
            let quoted = ty.starts_with("char") || ty == "varchar";
            let numeric = matches!(
                ty.as_str(),
                "tinyint"
                    | "smallint"
                    | "integer"
                    | "bigint"
                    | "unsigned_tinyint"
                    | "unsigned_smallint"
                    | "unsigned_int"
                    | "unsigned_long"
                    | "float"
                    | "double"
                    | "unsigned_float"
                    | "unsigned_double"
                    | "decimal"
            );
            if !quoted && !numeric {
                return Err(DesignError::new(format!(
                    "SPLIT ON a leading {ty} column: only char, varchar and numeric leading \
                     columns are written as split values"
                )));
            }
            // Rows in key order; the leading values change at run starts
            // (the leading value is the key's first component).
            let mut order: Vec<usize> = (0..sample.len()).collect();
            order.sort_by(|&a, &b| sample.key(a).cmp(sample.key(b)));
            let rows = choose_splits(&order, regions, |a, b| {
                sample.leading(a) == sample.leading(b)
            });
            if rows.len() + 1 < regions {
                return Err(DesignError::new(format!(
                    "the sample has {} distinct leading values: too few for {regions} regions",
                    rows.len() + usize::from(!sample.is_empty())
                )));
            }
            let mut splits = Vec::with_capacity(rows.len());
            for r in rows {
                let v = sample.leading(r).trim();
                splits.push(if quoted {
                    sql_string(v)
                } else if !v.is_empty()
                    && v.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c))
                {
                    v.to_string()
                } else {
                    return Err(DesignError::new(format!(
                        "the leading value {v:?} is not a number literal for SPLIT ON"
                    )));
                });
            }
            let mut defs = Vec::new();
            let mut pk = Vec::new();
            for (i, c) in cols.iter().enumerate() {
                if let ColType::Phoenix(c) = c {
                    defs.push(format!(
                        "K{} {} NOT NULL",
                        i + 1,
                        c.ty.to_string().to_uppercase()
                    ));
                    pk.push(if c.order.is_desc() {
                        format!("K{} DESC", i + 1)
                    } else {
                        format!("K{}", i + 1)
                    });
                }
            }
            (
                format!(
                    "{}, CONSTRAINT PK PRIMARY KEY ({})",
                    defs.join(", "),
                    pk.join(", ")
                ),
                splits,
            )
        }
        KeyFormat::Native(f) if f.is_text() => {
            let keys = split_points(spec, sample, regions)?;
            let splits = keys
                .iter()
                .map(|k| std::str::from_utf8(k).map(sql_string))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| DesignError::new("a split key is not UTF-8"))?;
            ("K VARCHAR NOT NULL PRIMARY KEY".to_string(), splits)
        }
        f => {
            return Err(DesignError::new(format!(
                "--for phoenix takes Phoenix keys (--format phoenix) or a text key format, not {}",
                f.name()
            )))
        }
    };
    let mut out = format!("CREATE TABLE {name} ({columns})");
    if !splits.is_empty() {
        out.push_str(&format!(" SPLIT ON ({})", splits.join(", ")));
    }
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_skip_equal_values() {
        // Ranks 0..8 holding values 0 0 0 0 1 2 3 3.
        let vals = [0, 0, 0, 0, 1, 2, 3, 3];
        let order: Vec<usize> = (0..8).collect();
        let s = choose_splits(&order, 4, |a, b| vals[a] == vals[b]);
        assert_eq!(s, [4, 5, 6]);
        let s = choose_splits(&order, 8, |a, b| vals[a] == vals[b]);
        assert_eq!(s, [4, 5, 6]);
        assert!(choose_splits(&order, 1, |a, b| vals[a] == vals[b]).is_empty());
    }
}
