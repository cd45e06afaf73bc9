//! Salted tables: the salt record (how a table says it is salted, and
//! the check that every client opens it with the same salt) and the walk
//! that merges the buckets' scans back into one newest-first order. See
//! *Salted tables* in [`crate::store::alloc`]'s docs.

use std::sync::atomic::Ordering;

use crate::error::DecodeError;
use crate::range::KeyRange;
use crate::store::salt::{merge_sorted, SaltMode, Salter};
use crate::store::{Store, StoreError};

use super::{AllocError, Allocator, Slot, SplitMix, Step};

/// What follows the row prefix (`enc(P) + "#"` in the text formats,
/// `enc(P)` in binary) in the key of a salted table's *salt record*: e.g.
/// `comments#!salt`. See *Salted tables* in the module docs.
pub const SALT_RECORD_SUFFIX: &[u8] = b"!salt";

/// The value of a salt record: `buckets=N mode=fast|phoenix`.
///
/// ```
/// use lexikey::store::alloc::salt_record;
/// use lexikey::store::salt::SaltMode;
/// assert_eq!(salt_record(16, SaltMode::Fast), b"buckets=16 mode=fast");
/// ```
pub fn salt_record(buckets: u8, mode: SaltMode) -> Vec<u8> {
    format!("buckets={buckets} mode={mode}").into_bytes()
}

/// Reads a salt record written by [`salt_record`] (canonical decimal,
/// 1 to 255 buckets, a known hash); `None` for anything else.
pub(super) fn parse_salt_record(v: &[u8]) -> Option<(u8, SaltMode)> {
    let text = std::str::from_utf8(v).ok()?;
    let (n, mode) = text.strip_prefix("buckets=")?.split_once(" mode=")?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) || n.starts_with('0') {
        return None;
    }
    let n: u8 = n.parse().ok()?;
    Some((n, SaltMode::from_name(mode)?))
}

pub(super) fn salt_mismatch_message(
    key: &[u8],
    table: &(u8, crate::store::salt::SaltMode),
    client: &Option<(u8, crate::store::salt::SaltMode)>,
) -> String {
    let opened = match client {
        None => "without salt".to_string(),
        Some((n, mode)) => format!("with {n} salt buckets ({mode} hash)"),
    };
    format!(
        "the table is salted with {} buckets ({} hash), as its salt record {} says, but was \
         opened {opened}: open it with {} salt buckets and the {} hash (every client of a table \
         must use the same salt)",
        table.0,
        table.1,
        crate::escape_key(key),
        table.0,
        table.1
    )
}

impl<S: Store> Allocator<S> {
    /// Salted: reads the salt record at opening (see [`Allocator::new`]).
    pub(super) fn open_salted(&self) -> Result<(), AllocError> {
        let mut rng = SplitMix::seeded();
        let mut last = None;
        for attempt in 1..=self.config.max_attempts {
            if attempt > 1 {
                self.backoff(&mut rng, attempt - 1);
            }
            let r = match self.store.get(&self.salt_key) {
                Ok(Some(v)) => self.check_salt_record(&v).map(|()| {
                    self.salt_recorded.store(true, Ordering::Relaxed);
                }),
                // A new table, or an unsalted one: its (unsalted) range
                // holds nothing but, perhaps, the record itself.
                Ok(None) => match self.store.scan(&self.range, 2) {
                    Ok(keys) => match keys.into_iter().find(|(k, _)| *k != self.salt_key) {
                        Some((key, _)) => Err(AllocError::NotSalted { key }),
                        None => Ok(()),
                    },
                    Err(e) => Err(AllocError::Store(e)),
                },
                Err(e) => Err(AllocError::Store(e)),
            };
            match r {
                Err(AllocError::Store(e)) if e.retryable => last = Some(e),
                r => return r,
            }
        }
        Err(AllocError::Store(last.unwrap_or_else(|| {
            StoreError::transient("store", "the salt record could not be read")
        })))
    }

    /// The salt the table's salt record names (`None`: no record), read
    /// with the retries of [`Allocator::open_salted`].
    pub(super) fn read_salt_record(&self) -> Result<Option<(u8, SaltMode)>, AllocError> {
        let mut rng = SplitMix::seeded();
        let mut last = None;
        for attempt in 1..=self.config.max_attempts {
            if attempt > 1 {
                self.backoff(&mut rng, attempt - 1);
            }
            match self.store.get(&self.salt_key) {
                Ok(None) => return Ok(None),
                Ok(Some(v)) => {
                    return parse_salt_record(&v).map(Some).ok_or_else(|| {
                        AllocError::CorruptSaltRecord {
                            key: self.salt_key.clone(),
                            value: v,
                        }
                    })
                }
                Err(e) if e.retryable => last = Some(e),
                Err(e) => return Err(AllocError::Store(e)),
            }
        }
        Err(AllocError::Store(last.unwrap_or_else(|| {
            StoreError::transient("store", "the salt record could not be read")
        })))
    }

    /// Salted: the record `v` read from the store names this allocator's
    /// salt.
    pub(super) fn check_salt_record(&self, v: &[u8]) -> Result<(), AllocError> {
        let table = parse_salt_record(v).ok_or_else(|| AllocError::CorruptSaltRecord {
            key: self.salt_key.clone(),
            value: v.to_vec(),
        })?;
        let client = self.salter.map(|s| (s.buckets(), s.mode()));
        if client == Some(table) {
            Ok(())
        } else {
            Err(AllocError::SaltMismatch {
                key: self.salt_key.clone(),
                table,
                client,
            })
        }
    }

    /// Salted: writes the salt record if it is not known to be there
    /// (once per allocator: the first insert into a new table). `Some`:
    /// the attempt ends here (a retryable store error).
    pub(super) fn ensure_salt_record(&self) -> Result<Option<Step>, AllocError> {
        let Some(s) = &self.salter else {
            return Ok(None);
        };
        if self.salt_recorded.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let record = salt_record(s.buckets(), s.mode());
        // A put with an unknown outcome is harmless: the record holds one
        // value per salt, so the next attempt's put or read settles it.
        let written = match self.store.put_if_absent(&self.salt_key, &record) {
            Ok(w) => w,
            Err(e) => return self.retry_or_fail(e).map(Some),
        };
        if !written {
            match self.store.get(&self.salt_key) {
                Ok(Some(v)) => self.check_salt_record(&v)?,
                // Deleted meanwhile: write it again.
                Ok(None) => return Ok(Some(Step::Lost)),
                Err(e) => return self.retry_or_fail(e).map(Some),
            }
        }
        self.salt_recorded.store(true, Ordering::Relaxed);
        Ok(None)
    }

    /// Unsalted, the salt record met among the rows: the table is salted.
    /// Reads the record for the error (`error`: why the key is no row, in
    /// case the record cannot be read).
    pub(super) fn salted_table(&self, error: DecodeError) -> AllocError {
        let key = self.salt_key.clone();
        match self
            .store
            .get(&key)
            .ok()
            .flatten()
            .as_deref()
            .and_then(parse_salt_record)
        {
            Some(table) => AllocError::SaltMismatch {
                key,
                table,
                client: None,
            },
            None => AllocError::Corrupt { key, error },
        }
    }

    /// [`Allocator::walk`] of a salted table, in rounds: 1. scan a page of
    /// every bucket whose buffer is empty and which may hold more; 2. the
    /// *horizon* is the smallest last-read ID among the buckets that may
    /// hold more — no unread key can come before it; 3. merge the buffers
    /// ([`merge_sorted`]), feed the keys up to the horizon, keep the rest
    /// buffered; repeat.
    pub(super) fn walk_salted(
        &self,
        s: &Salter,
        range: &KeyRange,
        limit: usize,
        counts: impl Fn(&Slot) -> bool,
        mut take: impl FnMut(Slot),
    ) -> Result<(), AllocError> {
        let mut counted = 0;
        struct Bucket {
            range: KeyRange,
            buf: std::collections::VecDeque<(Vec<u8>, Slot)>,
            done: bool,
        }
        // About the bucket's share of `limit`, and a quarter more.
        let share = limit.div_ceil(self.ranges.len());
        let page = share.saturating_add(share / 4 + 1).min(limit);
        let mut buckets: Vec<Bucket> = s
            .ranges(range)
            .into_iter()
            .map(|range| Bucket {
                range,
                buf: Default::default(),
                done: false,
            })
            .collect();
        while counted < limit {
            for b in &mut buckets {
                if b.buf.is_empty() && !b.done {
                    let entries = self.store.scan(&b.range, page)?;
                    b.done = entries.len() < page;
                    if let Some((k, _)) = entries.last() {
                        let mut next = k.clone();
                        next.push(0);
                        b.range.start = Some(next);
                    }
                    for (k, v) in entries {
                        let slot = self.read_entry(&k, v)?;
                        b.buf.push_back((k, slot));
                    }
                }
            }
            if buckets.iter().all(|b| b.buf.is_empty()) {
                break;
            }
            // A bucket that may hold more is read up to its last ID.
            let horizon = buckets
                .iter()
                .filter(|b| !b.done)
                .filter_map(|b| b.buf.back().map(|(_, slot)| slot.id()))
                .min();
            let scans: Vec<_> = buckets
                .iter_mut()
                .map(|b| std::mem::take(&mut b.buf).into_iter())
                .collect();
            for (key, slot) in merge_sorted(scans, s.salt_len()) {
                if counted < limit && horizon.is_none_or(|h| slot.id() <= h) {
                    counted += usize::from(counts(&slot));
                    take(slot);
                } else {
                    // Not final yet: back to its bucket, in order.
                    let b = usize::from(s.bucket(&key));
                    buckets[b].buf.push_back((s.salted_key(&key), slot));
                }
            }
        }
        Ok(())
    }
}
