//! [`Delayed`]: a [`Store`] wrapper, for tests only, that holds one row
//! write past the client's timeout and applies it later — the write a
//! network partition or a paused server keeps inside the store and commits
//! after the client gave up on it.
//!
//! Armed, the wrapper takes the next `put_if_absent` of a key in the given
//! ranges (a row of the table; tombstones and other keys pass), does not
//! apply it, and answers with a retryable error, as a client-side timeout
//! does. The held write then lands — still a put-if-absent, evaluated when
//! it lands, as a delayed conditional write is in every store — right after
//! the `land_after`-th store call that follows (0: before the error is
//! returned, the plain ambiguous commit), or never on its own
//! ([`Delayed::finish`] applies it after the call). A second action (another
//! client's insert, say) can be run after the `other_at`-th call.
//!
//! One file, two crates: the core's `tests/alloc.rs` runs it over
//! `MemStore`, `lexikey-stores`' conformance suite over every adapter. It
//! depends on nothing but `lexikey`.

#![allow(dead_code)] // each including test crate uses a different part

use std::sync::Mutex;

use lexikey::store::alloc::BURNED;
use lexikey::store::{Entry, Store, StoreError};
use lexikey::KeyRange;

/// An action run inside the wrapper, after a given store call.
pub(crate) type Action = Box<dyn FnOnce() + Send>;

/// The wrapper (see the module docs).
pub(crate) struct Delayed<S> {
    inner: S,
    ranges: Vec<KeyRange>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    armed: bool,
    /// The write taken, not applied yet.
    held: Option<(Vec<u8>, Vec<u8>)>,
    /// Whether it landed (written) when it was applied.
    landed: Option<bool>,
    /// Store calls since the write was taken.
    since: usize,
    land_after: Option<usize>,
    other: Option<(usize, Action)>,
}

impl<S: Store> Delayed<S> {
    /// Holds the next row put in `ranges` (a table's
    /// [`Allocator::ranges`](lexikey::store::alloc::Allocator::ranges)); it lands
    /// after `land_after` more store calls (`None`: only by
    /// [`Delayed::finish`]); `other` runs after its call number.
    pub(crate) fn new(
        inner: S,
        ranges: Vec<KeyRange>,
        land_after: Option<usize>,
        other: Option<(usize, Action)>,
    ) -> Self {
        Delayed {
            inner,
            ranges,
            state: Mutex::new(State {
                armed: true,
                land_after,
                other,
                ..State::default()
            }),
        }
    }

    /// The wrapped store.
    pub(crate) fn inner(&self) -> &S {
        &self.inner
    }

    /// The held write (key, value), if one was taken.
    pub(crate) fn taken(&self) -> Option<(Vec<u8>, Vec<u8>)> {
        let s = self.lock();
        s.held.clone()
    }

    /// Applies the held write now if it has not landed yet, then runs the
    /// other action if it has not run; returns whether the write wrote
    /// (`None`: nothing was held).
    pub(crate) fn finish(&self) -> Result<Option<bool>, StoreError> {
        let (landed, other) = {
            let mut s = self.lock();
            self.land_locked(&mut s)?;
            (s.landed, s.other.take())
        };
        if let Some((_, f)) = other {
            f();
        }
        Ok(landed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn land_locked(&self, s: &mut State) -> Result<(), StoreError> {
        if s.landed.is_none() {
            if let Some((k, v)) = &s.held {
                s.landed = Some(self.inner.put_if_absent(k, v)?);
            }
        }
        Ok(())
    }

    /// After each store call: count it, land the write or run the other
    /// action when their turn has come.
    fn tick<T>(&self, r: Result<T, StoreError>) -> Result<T, StoreError> {
        let other = {
            let mut s = self.lock();
            if s.held.is_none() {
                return r;
            }
            s.since += 1;
            if s.land_after == Some(s.since) {
                self.land_locked(&mut s)?;
            }
            match &s.other {
                Some((at, _)) if *at == s.since => s.other.take().map(|(_, f)| f),
                _ => None,
            }
        };
        if let Some(f) = other {
            f();
        }
        r
    }
}

impl<S: Store> Store for Delayed<S> {
    fn first_key(&self, range: &KeyRange) -> Result<Option<Vec<u8>>, StoreError> {
        self.tick(self.inner.first_key(range))
    }
    fn put_if_absent(&self, key: &[u8], value: &[u8]) -> Result<bool, StoreError> {
        {
            let mut s = self.lock();
            if s.armed && self.ranges.iter().any(|r| r.contains(key)) && value != BURNED {
                s.armed = false;
                s.held = Some((key.to_vec(), value.to_vec()));
                if s.land_after == Some(0) {
                    self.land_locked(&mut s)?;
                }
                let other = match &s.other {
                    Some((0, _)) => s.other.take().map(|(_, f)| f),
                    _ => None,
                };
                drop(s);
                if let Some(f) = other {
                    f();
                }
                return Err(StoreError::transient(
                    "delayed",
                    "timed out (the write is held in the store)",
                ));
            }
        }
        self.tick(self.inner.put_if_absent(key, value))
    }
    fn compare_and_swap(
        &self,
        key: &[u8],
        expected: Option<&[u8]>,
        new: &[u8],
    ) -> Result<bool, StoreError> {
        self.tick(self.inner.compare_and_swap(key, expected, new))
    }
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.tick(self.inner.get(key))
    }
    fn scan(&self, range: &KeyRange, limit: usize) -> Result<Vec<Entry>, StoreError> {
        self.tick(self.inner.scan(range, limit))
    }
    fn delete(&self, key: &[u8]) -> Result<bool, StoreError> {
        self.tick(self.inner.delete(key))
    }
}

/// One scenario of [`check_held_write`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scenario {
    /// The reuse guard.
    pub(crate) guard: bool,
    /// [`AllocatorConfig::assume_unique_values`].
    pub(crate) unique: bool,
    /// When the held write lands (see [`Delayed`]).
    pub(crate) land_after: Option<usize>,
    /// After which store call another client inserts a row (`None`: no
    /// other client).
    pub(crate) other_at: Option<usize>,
    /// Rows in the table before.
    pub(crate) rows_before: usize,
}

/// What a scenario ended in (for coverage counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ended {
    /// The call returned `Ok`.
    pub(crate) ok: bool,
    /// IDs burned.
    pub(crate) burned: u64,
    /// The held write landed (wrote its row).
    pub(crate) landed: bool,
}

/// Runs one scenario on a fresh table of `store` (`config`): client A's
/// first row put is held past its timeout and lands as the scenario says;
/// then checks what must hold whatever the timing:
///
/// - exactly once: A's value is in at most one row; `Ok(id)` → in row `id`;
///   `Ambiguous { id }` → nowhere but row `id`; no other error;
/// - the other client's `Ok(id)` row holds its value, once;
/// - no row lost, tombstones are no rows: `scan`, `newest` and `oldest`
///   show exactly the rows read from the store, burned IDs are counted in
///   A's stats, and a later insert gets an ID below every key (a burned ID
///   is never handed out).
///
/// `Err` describes the first broken rule.
pub(crate) fn check_held_write<S>(
    store: S,
    config: lexikey::store::alloc::AllocatorConfig,
    sc: Scenario,
) -> Result<Ended, String>
where
    S: Store + Clone + 'static,
{
    use lexikey::store::alloc::{AllocError, Allocator, Slot};
    use std::collections::BTreeMap;
    let e = |m: String| format!("{sc:?}: {m}");
    let config = config
        .with_guard(sc.guard)
        .with_assume_unique_values(sc.unique)
        .with_max_attempts(16)
        .with_backoff(std::time::Duration::ZERO, std::time::Duration::ZERO);
    let plain = Allocator::new(store.clone(), config.clone()).map_err(|x| e(x.to_string()))?;
    let mut before = Vec::new();
    for i in 0..sc.rows_before {
        let v = format!("before {i}").into_bytes();
        before.push((plain.insert(&v).map_err(|x| e(x.to_string()))?, v));
    }
    let other_result = std::sync::Arc::new(Mutex::new(None));
    let other = sc.other_at.map(|at| {
        let b = Allocator::new(store.clone(), config.clone()).expect("config");
        let out = std::sync::Arc::clone(&other_result);
        let f: Action = Box::new(move || {
            let r = b.insert(b"other");
            *out.lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
        });
        (at, f)
    });
    let ranges = plain.ranges().to_vec();
    let delayed = Delayed::new(store.clone(), ranges.clone(), sc.land_after, other);
    let a = Allocator::new(delayed, config.clone()).map_err(|x| e(x.to_string()))?;
    let r = a.insert(b"mine");
    if a.store().taken().is_none() {
        return Err(e("no write was held".into()));
    }
    let landed = a.store().finish().map_err(|x| e(x.to_string()))? == Some(true);

    // The table as stored.
    let mut rows = BTreeMap::new();
    let mut burned = Vec::new();
    let mut stored = Vec::new();
    for range in &ranges {
        stored.extend(
            store
                .scan(range, usize::MAX)
                .map_err(|x| e(x.to_string()))?,
        );
    }
    for (k, v) in stored {
        match plain.read_entry(&k, v).map_err(|x| e(x.to_string()))? {
            Slot::Row { id, value } => {
                let _ = rows.insert(id, value);
            }
            Slot::Burned { id } => burned.push(id),
        }
    }
    let mine: Vec<u64> = rows
        .iter()
        .filter(|(_, v)| v.as_slice() == b"mine")
        .map(|(id, _)| *id)
        .collect();
    if mine.len() > 1 {
        return Err(e(format!(
            "orphan copy: the value is in rows {mine:?} ({r:?})"
        )));
    }
    let ok = match &r {
        Ok(id) if mine == [*id] => true,
        Ok(id) => return Err(e(format!("Ok({id}) but the value is in {mine:?}"))),
        Err(AllocError::Ambiguous { id, .. }) if !sc.guard && !sc.unique => {
            if mine.iter().any(|m| m != id) {
                return Err(e(format!("Ambiguous({id}) but the value is in {mine:?}")));
            }
            false
        }
        Err(x) => return Err(e(format!("unexpected error: {x}"))),
    };
    if sc.other_at.is_some() {
        match other_result
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            Some(Ok(id)) if rows.get(&id).map(Vec::as_slice) == Some(&b"other"[..]) => {}
            Some(res) => return Err(e(format!("the other client: {res:?}, rows {rows:?}"))),
            None => return Err(e("the other client never ran".into())),
        }
        let n = rows.values().filter(|v| v.as_slice() == b"other").count();
        if n != 1 {
            return Err(e(format!("the other client's value is in {n} rows")));
        }
    }
    for (id, v) in &before {
        if rows.get(id) != Some(v) {
            return Err(e(format!("row {id} lost")));
        }
    }
    let shown: BTreeMap<u64, Vec<u8>> = plain
        .scan(usize::MAX)
        .map_err(|x| e(x.to_string()))?
        .into_iter()
        .collect();
    if shown != rows {
        return Err(e(format!("scan shows {shown:?}, the store holds {rows:?}")));
    }
    let newest = plain.newest().map_err(|x| e(x.to_string()))?;
    let oldest = plain.oldest().map_err(|x| e(x.to_string()))?;
    let first = rows.iter().next().map(|(k, v)| (*k, v.clone()));
    let last = rows.iter().next_back().map(|(k, v)| (*k, v.clone()));
    if newest != first || oldest != last {
        return Err(e(format!(
            "newest {newest:?} / oldest {oldest:?}, rows {rows:?}"
        )));
    }
    if a.stats().burned != burned.len() as u64 {
        return Err(e(format!(
            "stats say {} burned, the store holds {burned:?}",
            a.stats().burned
        )));
    }
    for id in &burned {
        if plain.delete(*id).map_err(|x| e(x.to_string()))? {
            return Err(e(format!("delete({id}) removed a tombstone")));
        }
    }
    let lowest = rows.keys().chain(&burned).min().copied();
    let next = plain.insert(b"next").map_err(|x| e(x.to_string()))?;
    if lowest.is_some_and(|l| next >= l) {
        return Err(e(format!("next insert got {next}, not below {lowest:?}")));
    }
    Ok(Ended {
        ok,
        burned: burned.len() as u64,
        landed,
    })
}

/// Every scenario: the held write lands after 0..=`calls` store calls or
/// never; no other client, or one inserting after 0..=`calls` calls; guard
/// off and on; unique values or not; an empty table or one with 2 rows.
pub(crate) fn all_scenarios(calls: usize) -> Vec<Scenario> {
    let mut out = Vec::new();
    let points: Vec<Option<usize>> = (0..=calls).map(Some).chain([None]).collect();
    for guard in [false, true] {
        for unique in [true, false] {
            for rows_before in [0, 2] {
                for &land_after in &points {
                    for &other_at in &points {
                        out.push(Scenario {
                            guard,
                            unique,
                            land_after,
                            other_at,
                            rows_before,
                        });
                    }
                }
            }
        }
    }
    out
}
