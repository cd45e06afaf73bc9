//! Queue keys: the RocksDB queue pattern, `<prefix…, queue_id, seq>`.
//!
//! Many queues share one ordered key space. Item `seq` of queue `q` lives
//! at the tuple `prefix ++ [q, seq]`, with `q` a fixed-width unsigned
//! integer (`u32` or `u64`, [`IdWidth`]) and `seq` an ascending `u64` — in
//! every format big-endian, so key order is `(q, seq)` order:
//!
//! ```
//! use lexikey::store::queue::{IdWidth, QueueKeys};
//! use lexikey::{Component, Format};
//!
//! let queues = QueueKeys::new(Format::Hex, &[Component::asc("queue")], IdWidth::U32)?;
//! assert_eq!(queues.key(7, 1)?, b"queue#w00000007#u0000000000000001");
//! let r = queues.range(7)?;
//! assert_eq!(r.start.as_deref(), Some(&b"queue#w00000007"[..]));
//! assert_eq!(r.end.as_deref(), Some(&b"queue#w00000008"[..])); // the next queue
//! let r = queues.after(7, 41)?.expect("seq 41 is not the last possible one");
//! assert_eq!(r.start.as_deref(), Some(&b"queue#w00000007#u000000000000002A"[..]));
//!
//! let binary = QueueKeys::new(Format::Binary, &[Component::asc("q")], IdWidth::U32)?;
//! assert_eq!(binary.key(7, 1)?, b"q\x00\x01\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\x00\x01");
//! assert_eq!(binary.range(7)?.end.as_deref(), Some(&b"q\x00\x01\x00\x00\x00\x08"[..]));
//! # Ok::<(), lexikey::store::queue::QueueError>(())
//! ```
//!
//! # Why the upper bound is the next queue
//!
//! A consumed item is deleted, and an LSM store (RocksDB, LevelDB, HBase)
//! keeps a *tombstone* for it until compaction. An iterator without an
//! upper bound that reaches the end of queue `q` keeps going — through the
//! tombstones at the head of queue `q + 1`, possibly millions of them —
//! looking for the next live key, only to discard it. [`QueueKeys::range`]
//! therefore always ends at the first key of queue `q + 1` (RocksDB's
//! `iterate_upper_bound`): the iterator stops at the edge of its queue.
//! Every id is fixed width, so `key(q, s) < key(q + 1, 0)` for every `s`.
//! The last id (`u32::MAX` / `u64::MAX`) has no next queue: its range ends
//! at the end of its own prefix.
//!
//! For the same reason a consumer remembers the first live seq and seeks
//! there ([`QueueKeys::next_after`], [`QueueKeys::read`]), rather than
//! scanning from the start of the queue over the tombstones of what it
//! already consumed.
//!
//! # Tracking first and last
//!
//! - Without any extra key: [`QueueKeys::first_seq`] (one
//!   [`Store::first_key`]) and [`QueueKeys::last_seq`] (a
//!   [`last_key`] search) read them from the items themselves — exact
//!   while the queue holds items, but an empty queue remembers nothing, so
//!   a producer that derives its next seq from them restarts at 0 after
//!   the queue drains.
//! - With a [`QueueMeta`] record `{first, next}` per queue, kept at
//!   [`QueueKeys::meta_key`] and only ever changed by
//!   [`Store::compare_and_swap`]:
//!   - [`QueueKeys::push`], in steps: 1. read the record (absent: derive it
//!     from the items, or `{0, 0}`); 2. reserve `seq = next` by a CAS of
//!     the record to `{first, next + 1}` — on a lost race go back to 1;
//!     3. `put_if_absent` the item at `key(q, seq)`. Seqs are unique and
//!     increasing, and are **never reused**, even after the queue drains.
//!   - [`QueueKeys::consume`]: 1. delete the items of seq `first ..= upto`;
//!     2. CAS `first` to `upto + 1`. Readers then seek from `first`.
//!
//!   With several producers a seq is reserved (step 2) before its item is
//!   written (step 3), so for a moment item `s + 1` can be visible while
//!   item `s` is not yet; a producer killed between the two steps leaves a
//!   hole (a seq with no item). One producer per queue — the RocksDB queue
//!   service's design — keeps visibility in seq order.
//!
//! The meta key of a text-format queue set is `enc(prefix) + "$meta#" +
//! enc(q)`: it sorts after every queue (text keys contain no `$`), so it is
//! in no queue's range. Binary keys have no such free byte: set a separate
//! prefix with [`QueueKeys::with_meta_prefix`] (also allowed for text).
//!
//! # Command line
//!
//! `lexikey demo` shows a queue built from this API: `push` three items,
//! print their keys and the range of the queue with its next-queue bound,
//! `consume` the first, then `next_after` the last processed seq.

use crate::error::{DecodeError, EncodeError};
use crate::format::text::{SEP, SEP_END};
use crate::format::Format;
use crate::range::{prefix_end, KeyRange};
use crate::store::alloc::last_key;
use crate::store::{Store, StoreError};
use crate::tuple;
use crate::value::{Component, Field, Type, Value};

/// The fixed width of the queue id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum IdWidth {
    /// A `u32` (hex `w00000007`, 4 bytes in binary, 10 decimal digits).
    #[default]
    U32,
    /// A `u64` (hex `u0000000000000007`, 8 bytes, 20 digits).
    U64,
}

impl IdWidth {
    /// The largest queue id.
    pub const fn max(self) -> u64 {
        match self {
            IdWidth::U32 => u32::MAX as u64,
            IdWidth::U64 => u64::MAX,
        }
    }

    /// The key type of the id.
    pub const fn ty(self) -> Type {
        match self {
            IdWidth::U32 => Type::U32,
            IdWidth::U64 => Type::U64,
        }
    }
}

/// Why a queue operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum QueueError {
    /// A queue id wider than [`IdWidth`].
    #[error("queue id {queue_id} does not fit the id width (largest id {max})")]
    IdOutOfRange {
        /// The id.
        queue_id: u64,
        /// The largest id of the width.
        max: u64,
    },
    /// The prefix cannot be encoded in the format.
    #[error("cannot encode the queue prefix: {0}")]
    Encode(#[from] EncodeError),
    /// A store error (nothing more was attempted).
    #[error("store error: {0}")]
    Store(#[from] StoreError),
    /// A key in a queue's range that is not an item key of that queue.
    #[error("key {} in queue {queue_id}'s range is not one of its items: {error}", crate::escape_key(.key))]
    Corrupt {
        /// The queue whose range was read.
        queue_id: u64,
        /// The key, as read from the store.
        key: Vec<u8>,
        /// Why it does not decode; the offset indexes `key`.
        error: DecodeError,
    },
    /// The meta key holds something other than a [`QueueMeta`].
    #[error("meta key {} holds {}, not `FIRST NEXT`", crate::escape_key(.key), crate::escape_key(.value))]
    CorruptMeta {
        /// The meta key.
        key: Vec<u8>,
        /// Its value.
        value: Vec<u8>,
    },
    /// The item key of a seq just reserved was already taken: something
    /// writes items without reserving their seq through the meta record.
    #[error("item {} was written without a reservation", crate::escape_key(.key))]
    Occupied {
        /// The item key.
        key: Vec<u8>,
    },
    /// Every seq of the queue is used (`next` reached `u64::MAX`).
    #[error("queue {queue_id} has used every seq")]
    Exhausted {
        /// The queue.
        queue_id: u64,
    },
    /// Every attempt lost a compare-and-swap race.
    #[error("gave up on queue {queue_id} after {attempts} lost compare-and-swap races")]
    Contention {
        /// The queue.
        queue_id: u64,
        /// The attempts made.
        attempts: u32,
    },
    /// The configuration cannot work (no room for meta keys, a meta prefix
    /// that overlaps the queues).
    #[error("invalid queue configuration: {0}")]
    Config(String),
}

/// The per-queue record behind [`QueueKeys::push`] and
/// [`QueueKeys::consume`]: every item with seq `< first` is consumed, `next`
/// is the seq the next push takes, `first <= next`. Stored as ASCII
/// `"FIRST NEXT"` (decimal, no leading zeros), e.g. `"3 7"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct QueueMeta {
    /// The oldest seq that may still hold an unconsumed item.
    pub first: u64,
    /// The seq of the next push.
    pub next: u64,
}

impl QueueMeta {
    /// The stored form: `"FIRST NEXT"`.
    ///
    /// ```
    /// use lexikey::store::queue::QueueMeta;
    /// let m = QueueMeta { first: 3, next: 7 };
    /// assert_eq!(m.to_bytes(), b"3 7");
    /// assert_eq!(QueueMeta::parse(b"3 7"), Some(m));
    /// assert_eq!(QueueMeta::parse(b"03 7"), None); // not canonical
    /// assert_eq!(QueueMeta::parse(b"8 7"), None); // first > next
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        format!("{} {}", self.first, self.next).into_bytes()
    }

    /// Parses exactly what [`QueueMeta::to_bytes`] writes; `None` otherwise.
    pub fn parse(bytes: &[u8]) -> Option<QueueMeta> {
        fn num(s: &[u8]) -> Option<u64> {
            let ok =
                !s.is_empty() && s.iter().all(u8::is_ascii_digit) && (s == b"0" || s[0] != b'0');
            if !ok {
                return None;
            }
            std::str::from_utf8(s).ok()?.parse().ok()
        }
        let sp = bytes.iter().position(|&b| b == b' ')?;
        let m = QueueMeta {
            first: num(&bytes[..sp])?,
            next: num(&bytes[sp + 1..])?,
        };
        (m.first <= m.next).then_some(m)
    }
}

/// The keys and ranges of a set of queues under one tuple prefix; see the
/// [module docs](self).
#[derive(Debug, Clone)]
pub struct QueueKeys {
    format: Format,
    prefix: Vec<Component<'static>>,
    width: IdWidth,
    /// Where the queue id starts: `enc(prefix)`, plus `#` in text formats
    /// when the prefix is not empty.
    head: Vec<u8>,
    /// Where the id of a meta key starts; `None`: no room for meta keys.
    meta_head: Option<Vec<u8>>,
    max_attempts: u32,
}

/// Appends a `u32`/`u64` component in `format`.
fn push_component(format: Format, out: &mut Vec<u8>, c: &Component<'_>) {
    // Unsigned integers encode in every format and full width.
    let r = format.encode_component(c, out);
    debug_assert!(r.is_ok(), "u32/u64 components always encode");
}

/// A half-open key range `[start, end)`, `None` = unbounded above.
type Span = (Vec<u8>, Option<Vec<u8>>);

/// A meta key, its raw value (the CAS's expected value) and the record.
type LoadedMeta = (Vec<u8>, Option<Vec<u8>>, Option<QueueMeta>);

/// Whether two half-open ranges (`None` end = unbounded) share a key.
fn overlap(a: &Span, b: &Span) -> bool {
    let before = |x: &Span, y: &Span| x.1.as_ref().is_some_and(|end| *end <= y.0);
    !(before(a, b) || before(b, a))
}

impl QueueKeys {
    /// Queues under `prefix` in `format`, with ids of `width`.
    ///
    /// # Errors
    /// [`QueueError::Encode`] when the prefix does not encode in `format`.
    pub fn new(
        format: Format,
        prefix: &[Component<'_>],
        width: IdWidth,
    ) -> Result<QueueKeys, QueueError> {
        let mut head = tuple::encode(format, prefix)?.into_vec();
        let meta_head = format.is_text().then(|| {
            let mut m = head.clone();
            m.extend_from_slice(b"$meta#");
            m
        });
        if format.is_text() && !prefix.is_empty() {
            head.push(SEP);
        }
        Ok(QueueKeys {
            format,
            prefix: prefix.iter().cloned().map(Component::into_owned).collect(),
            width,
            head,
            meta_head,
            max_attempts: 64,
        })
    }

    /// Keeps the [`QueueMeta`] records under a separate tuple prefix:
    /// `meta_key(q) = enc(meta_prefix ++ [q])`.
    ///
    /// # Errors
    /// [`QueueError::Config`] when the meta prefix is empty or its keys
    /// could fall in a queue's key space; [`QueueError::Encode`].
    ///
    /// ```
    /// use lexikey::store::queue::{IdWidth, QueueKeys};
    /// use lexikey::{Component, Format};
    /// let q = QueueKeys::new(Format::Binary, &[Component::asc("q")], IdWidth::U32)?
    ///     .with_meta_prefix(&[Component::asc("qmeta")])?;
    /// assert_eq!(q.meta_key(7)?, b"qmeta\x00\x01\x00\x00\x00\x07");
    /// // The queues' own prefix is refused: its keys are queue keys.
    /// assert!(QueueKeys::new(Format::Binary, &[Component::asc("q")], IdWidth::U32)?
    ///     .with_meta_prefix(&[Component::asc("q")]).is_err());
    /// # Ok::<(), lexikey::store::queue::QueueError>(())
    /// ```
    pub fn with_meta_prefix(mut self, meta_prefix: &[Component<'_>]) -> Result<Self, QueueError> {
        if meta_prefix.is_empty() {
            return Err(QueueError::Config(
                "the meta prefix must not be empty: its range would be every key".into(),
            ));
        }
        let (start, end) = tuple::prefix_range(self.format, meta_prefix)?;
        if overlap(&(start.clone(), end), &self.key_space()) {
            return Err(QueueError::Config(format!(
                "meta keys under {} could fall in a queue's range",
                crate::escape_key(&start)
            )));
        }
        let mut head = tuple::encode(self.format, meta_prefix)?.into_vec();
        if self.format.is_text() {
            head.push(SEP);
        }
        self.meta_head = Some(head);
        Ok(self)
    }

    /// Sets how many compare-and-swap races [`QueueKeys::push`] and
    /// [`QueueKeys::consume`] may lose before [`QueueError::Contention`]
    /// (default 64, at least 1).
    pub fn with_max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The tuple prefix.
    pub fn prefix(&self) -> &[Component<'static>] {
        &self.prefix
    }

    /// The id width.
    pub fn width(&self) -> IdWidth {
        self.width
    }

    /// The half-open range holding every queue's items:
    /// `[queue_start(0), end of range(max id))`.
    pub fn key_space(&self) -> (Vec<u8>, Option<Vec<u8>>) {
        let max = self.width.max();
        let mut start = self.head.clone();
        push_component(self.format, &mut start, &self.id(0));
        let end = self.last_queue_end(max);
        (start, end)
    }

    fn id(&self, q: u64) -> Component<'static> {
        match self.width {
            // Checked by the callers.
            IdWidth::U32 => Component::asc(Value::U32(q as u32)),
            IdWidth::U64 => Component::asc(Value::U64(q)),
        }
    }

    fn check(&self, q: u64) -> Result<(), QueueError> {
        let max = self.width.max();
        if q > max {
            return Err(QueueError::IdOutOfRange { queue_id: q, max });
        }
        Ok(())
    }

    /// `enc(prefix ++ [q])`: every item key of queue `q` starts with it.
    ///
    /// # Errors
    /// [`QueueError::IdOutOfRange`].
    pub fn queue_start(&self, q: u64) -> Result<Vec<u8>, QueueError> {
        self.check(q)?;
        let mut k = self.head.clone();
        push_component(self.format, &mut k, &self.id(q));
        Ok(k)
    }

    /// The end of the last queue's range: the prefix end of its start.
    fn last_queue_end(&self, max: u64) -> Option<Vec<u8>> {
        let mut k = self.head.clone();
        push_component(self.format, &mut k, &self.id(max));
        if self.format.is_text() {
            k.push(SEP_END);
            Some(k)
        } else {
            prefix_end(&k)
        }
    }

    /// The key of item `seq` of queue `q`: `enc(prefix ++ [q, seq])`.
    ///
    /// # Errors
    /// [`QueueError::IdOutOfRange`].
    pub fn key(&self, q: u64, seq: u64) -> Result<Vec<u8>, QueueError> {
        let mut k = self.queue_start(q)?;
        if self.format.is_text() {
            k.push(SEP);
        }
        push_component(self.format, &mut k, &Component::asc(seq));
        Ok(k)
    }

    /// The range of queue `q`: `[queue_start(q), queue_start(q + 1))` — the
    /// upper bound is the next queue's first key (see the module docs); for
    /// the last id, the end of its own prefix.
    ///
    /// # Errors
    /// [`QueueError::IdOutOfRange`].
    pub fn range(&self, q: u64) -> Result<KeyRange, QueueError> {
        let start = self.queue_start(q)?;
        let end = if q == self.width.max() {
            self.last_queue_end(q)
        } else {
            Some(self.queue_start(q + 1)?)
        };
        Ok(KeyRange {
            start: Some(start),
            end,
        })
    }

    /// The items of queue `q` with seq `>= seq`:
    /// `[key(q, seq), end of range(q))`.
    ///
    /// # Errors
    /// [`QueueError::IdOutOfRange`].
    pub fn from_seq(&self, q: u64, seq: u64) -> Result<KeyRange, QueueError> {
        Ok(KeyRange {
            start: Some(self.key(q, seq)?),
            end: self.range(q)?.end,
        })
    }

    /// "Next after the last processed": the items of queue `q` with seq
    /// `> last_processed`, `[key(q, last_processed + 1), end of range(q))`.
    /// `None` when `last_processed` is `u64::MAX` (nothing can follow).
    ///
    /// # Errors
    /// [`QueueError::IdOutOfRange`].
    pub fn after(&self, q: u64, last_processed: u64) -> Result<Option<KeyRange>, QueueError> {
        match last_processed.checked_add(1) {
            Some(seq) => self.from_seq(q, seq).map(Some),
            None => {
                self.check(q)?;
                Ok(None)
            }
        }
    }

    /// The `(queue id, seq)` of an item key; canonical: only keys that
    /// [`QueueKeys::key`] writes decode.
    ///
    /// # Errors
    /// The [`DecodeError`], with offsets into `key`: an
    /// [`DecodeError::InvalidSymbol`] or [`DecodeError::Truncated`] where
    /// the key leaves the prefix, then the id's and the seq's own errors.
    ///
    /// ```
    /// use lexikey::store::queue::{IdWidth, QueueKeys};
    /// use lexikey::{Component, Format};
    /// let q = QueueKeys::new(Format::Hex, &[Component::asc("queue")], IdWidth::U32)?;
    /// assert_eq!(q.decode(b"queue#w00000007#u0000000000000001")?, (7, 1));
    /// assert_eq!(q.decode(b"queue#w00000007").unwrap_err().offset(), 15);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode(&self, key: &[u8]) -> Result<(u64, u64), DecodeError> {
        let n = self.head.len();
        if let Some(i) = key.iter().zip(&self.head).position(|(a, b)| a != b) {
            return Err(DecodeError::InvalidSymbol {
                offset: i,
                found: key[i],
                expected: "the queue prefix",
            });
        }
        if key.len() < n {
            return Err(DecodeError::Truncated {
                offset: key.len(),
                expected: "the queue prefix",
            });
        }
        let schema = [Field::asc(self.width.ty()), Field::asc(Type::U64)];
        let parts = tuple::decode(self.format, &key[n..], Some(&schema)).map_err(|e| e.shift(n))?;
        let num = |v: &Value<'_>| match *v {
            Value::U32(x) => u64::from(x),
            Value::U64(x) => x,
            // The schema only allows u32 and u64.
            _ => unreachable!("schema is u32/u64"),
        };
        Ok((num(&parts[0].value), num(&parts[1].value)))
    }

    /// Decodes an item key read from queue `q`'s range.
    fn item(&self, q: u64, key: &[u8]) -> Result<u64, QueueError> {
        let corrupt = |error| QueueError::Corrupt {
            queue_id: q,
            key: key.to_vec(),
            error,
        };
        let (id, seq) = self.decode(key).map_err(corrupt)?;
        if id != q {
            return Err(corrupt(DecodeError::NonCanonical {
                offset: self.head.len(),
                reason: "an item of another queue, returned for this queue's range",
            }));
        }
        Ok(seq)
    }

    /// The smallest seq present in queue `q` (one [`Store::first_key`]).
    ///
    /// # Errors
    /// [`QueueError::Store`]; [`QueueError::Corrupt`] for a foreign key.
    pub fn first_seq<S: Store + ?Sized>(
        &self,
        store: &S,
        q: u64,
    ) -> Result<Option<u64>, QueueError> {
        store
            .first_key(&self.range(q)?)?
            .map(|k| self.item(q, &k))
            .transpose()
    }

    /// The largest seq present in queue `q` (a [`last_key`] search).
    ///
    /// # Errors
    /// As [`QueueKeys::first_seq`].
    pub fn last_seq<S: Store + ?Sized>(
        &self,
        store: &S,
        q: u64,
    ) -> Result<Option<u64>, QueueError> {
        last_key(store, &self.range(q)?)?
            .map(|k| self.item(q, &k))
            .transpose()
    }

    /// Up to `limit` items of queue `q` with seq `>= seq`, in seq order.
    ///
    /// # Errors
    /// As [`QueueKeys::first_seq`].
    pub fn read<S: Store + ?Sized>(
        &self,
        store: &S,
        q: u64,
        seq: u64,
        limit: usize,
    ) -> Result<Vec<(u64, Vec<u8>)>, QueueError> {
        store
            .scan(&self.from_seq(q, seq)?, limit)?
            .into_iter()
            .map(|(k, v)| Ok((self.item(q, &k)?, v)))
            .collect()
    }

    /// The first item of queue `q` after `last_processed`.
    ///
    /// # Errors
    /// As [`QueueKeys::first_seq`].
    pub fn next_after<S: Store + ?Sized>(
        &self,
        store: &S,
        q: u64,
        last_processed: u64,
    ) -> Result<Option<(u64, Vec<u8>)>, QueueError> {
        match last_processed.checked_add(1) {
            Some(seq) => Ok(self.read(store, q, seq, 1)?.into_iter().next()),
            None => {
                self.check(q)?;
                Ok(None)
            }
        }
    }

    /// The key of queue `q`'s [`QueueMeta`] record.
    ///
    /// # Errors
    /// [`QueueError::Config`] for binary queues without
    /// [`QueueKeys::with_meta_prefix`]; [`QueueError::IdOutOfRange`].
    ///
    /// ```
    /// use lexikey::store::queue::{IdWidth, QueueKeys};
    /// use lexikey::{Component, Format};
    /// let q = QueueKeys::new(Format::Hex, &[Component::asc("queue")], IdWidth::U32)?;
    /// assert_eq!(q.meta_key(7)?, b"queue$meta#w00000007");
    /// # Ok::<(), lexikey::store::queue::QueueError>(())
    /// ```
    pub fn meta_key(&self, q: u64) -> Result<Vec<u8>, QueueError> {
        self.check(q)?;
        let mut k = self.meta_head.clone().ok_or_else(|| {
            QueueError::Config(
                "binary queues need with_meta_prefix: no binary key is outside every queue".into(),
            )
        })?;
        push_component(self.format, &mut k, &self.id(q));
        Ok(k)
    }

    /// Queue `q`'s [`QueueMeta`] record, if it has one.
    ///
    /// # Errors
    /// [`QueueError::CorruptMeta`], [`QueueError::Store`], and those of
    /// [`QueueKeys::meta_key`].
    pub fn meta<S: Store + ?Sized>(
        &self,
        store: &S,
        q: u64,
    ) -> Result<Option<QueueMeta>, QueueError> {
        Ok(self.load_meta(store, q)?.2)
    }

    /// The meta key, its raw value and the parsed record.
    fn load_meta<S: Store + ?Sized>(&self, store: &S, q: u64) -> Result<LoadedMeta, QueueError> {
        let key = self.meta_key(q)?;
        let raw = store.get(&key)?;
        let meta = match &raw {
            None => None,
            Some(v) => Some(QueueMeta::parse(v).ok_or_else(|| QueueError::CorruptMeta {
                key: key.clone(),
                value: v.clone(),
            })?),
        };
        Ok((key, raw, meta))
    }

    /// The record of a queue that has none yet: derived from its items
    /// (`first` = the smallest seq, `next` = the largest + 1), or `{0, 0}`.
    fn derive_meta<S: Store + ?Sized>(&self, store: &S, q: u64) -> Result<QueueMeta, QueueError> {
        let Some(last) = self.last_seq(store, q)? else {
            return Ok(QueueMeta::default());
        };
        let next = last
            .checked_add(1)
            .ok_or(QueueError::Exhausted { queue_id: q })?;
        let first = self.first_seq(store, q)?.unwrap_or(next);
        Ok(QueueMeta { first, next })
    }

    /// Appends `value` to queue `q`; returns its seq. The steps are in the
    /// module docs: reserve `next` by compare-and-swap of the
    /// [`QueueMeta`] record, then `put_if_absent` the item.
    ///
    /// # Errors
    /// [`QueueError::Exhausted`], [`QueueError::Contention`],
    /// [`QueueError::Occupied`], [`QueueError::Store`] (a failed CAS write
    /// may have reserved a seq that then stays a hole), and those of
    /// [`QueueKeys::meta_key`].
    ///
    /// ```
    /// use lexikey::store::queue::{IdWidth, QueueKeys, QueueMeta};
    /// use lexikey::store::MemStore;
    /// use lexikey::{Component, Format};
    /// let queues = QueueKeys::new(Format::Hex, &[Component::asc("queue")], IdWidth::U32)?;
    /// let store = MemStore::new();
    /// for job in ["resize a.png", "resize b.png", "resize c.png"] {
    ///     queues.push(&store, 7, job.as_bytes())?;
    /// }
    /// assert_eq!((queues.first_seq(&store, 7)?, queues.last_seq(&store, 7)?), (Some(0), Some(2)));
    /// let (seq, job) = queues.next_after(&store, 7, 0)?.expect("two more jobs");
    /// assert_eq!((seq, &job[..]), (1, &b"resize b.png"[..]));
    /// // Consume seqs 0 and 1: deleted, and `first` moves past them.
    /// assert_eq!(queues.consume(&store, 7, 1)?, QueueMeta { first: 2, next: 3 });
    /// assert_eq!(queues.read(&store, 7, 2, 10)?, [(2, b"resize c.png".to_vec())]);
    /// // Drained queues keep counting: seqs are never reused.
    /// queues.consume(&store, 7, 2)?;
    /// assert_eq!(queues.push(&store, 7, b"resize d.png")?, 3);
    /// # Ok::<(), lexikey::store::queue::QueueError>(())
    /// ```
    pub fn push<S: Store + ?Sized>(
        &self,
        store: &S,
        q: u64,
        value: &[u8],
    ) -> Result<u64, QueueError> {
        for _ in 0..self.max_attempts {
            let (meta_key, raw, meta) = self.load_meta(store, q)?;
            let meta = match meta {
                Some(m) => m,
                None => self.derive_meta(store, q)?,
            };
            let seq = meta.next;
            let next = seq
                .checked_add(1)
                .ok_or(QueueError::Exhausted { queue_id: q })?;
            let new = QueueMeta { next, ..meta }.to_bytes();
            if !store.compare_and_swap(&meta_key, raw.as_deref(), &new)? {
                continue;
            }
            let key = self.key(q, seq)?;
            if !store.put_if_absent(&key, value)? {
                return Err(QueueError::Occupied { key });
            }
            return Ok(seq);
        }
        Err(QueueError::Contention {
            queue_id: q,
            attempts: self.max_attempts,
        })
    }

    /// Marks every item of queue `q` with seq `<= upto` consumed: deletes
    /// them, then moves the record's `first` to `upto + 1` (never beyond
    /// `next`, never backwards) by compare-and-swap. Returns the record.
    ///
    /// # Errors
    /// As [`QueueKeys::push`], without `Occupied`.
    pub fn consume<S: Store + ?Sized>(
        &self,
        store: &S,
        q: u64,
        upto: u64,
    ) -> Result<QueueMeta, QueueError> {
        for _ in 0..self.max_attempts {
            let (meta_key, raw, meta) = self.load_meta(store, q)?;
            let meta = match meta {
                Some(m) => m,
                None => self.derive_meta(store, q)?,
            };
            let first = upto.saturating_add(1).min(meta.next).max(meta.first);
            // 1. Delete the items in [meta.first, first).
            if first > meta.first {
                let range = KeyRange {
                    start: Some(self.key(q, meta.first)?),
                    end: Some(self.key(q, first)?),
                };
                loop {
                    let batch = store.scan(&range, 1024)?;
                    if batch.is_empty() {
                        break;
                    }
                    for (k, _) in batch {
                        let _ = self.item(q, &k)?;
                        let _ = store.delete(&k)?;
                    }
                }
            }
            // 2. Move `first`.
            let new = QueueMeta { first, ..meta };
            if raw.as_deref() == Some(&new.to_bytes()[..]) {
                return Ok(new);
            }
            if store.compare_and_swap(&meta_key, raw.as_deref(), &new.to_bytes())? {
                return Ok(new);
            }
        }
        Err(QueueError::Contention {
            queue_id: q,
            attempts: self.max_attempts,
        })
    }
}
