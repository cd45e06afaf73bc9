//! Salting: spread writes over N buckets, and read them back in key order.
//!
//! An upside-down table (newest row first, see [`crate::store::alloc`]) or any key
//! that starts with a timestamp sends every write to the same region of the
//! store: one server takes all the load (a *hot spot*). Salting puts a
//! *bucket* in front of each key, derived from a hash of the key itself, so
//! consecutive keys land in different buckets — HBase/Phoenix call it
//! `SALT_BUCKETS`. The price is paid on reads: one logical range becomes one
//! physical range per bucket, and the N sorted scans are merged back into
//! one sorted stream.
//!
//! # How a bucket is written
//!
//! | layout | salted key | salt length |
//! |---|---|---|
//! | binary ([`Format::Binary`], the default) | the bucket as one byte, then the key (Phoenix's layout) | 1 |
//! | text ([`Format::Hex`], [`Format::Base64`], [`Format::Decimal`]) | the bucket as two UPPERCASE hex digits, `#`, then the key | 3 |
//!
//! The text layout keeps keys printable (and valid UTF-8) and sortable:
//! `00#` < `01#` < … < `09#` < `0A#` < … < `FE#` because `0`–`9` sort below
//! `A`–`F` in ASCII, and a fixed-width salt never lets one bucket's keys
//! interleave with another's. `#` is the component separator, so a salted
//! text key reads like a tuple whose first component is the bucket.
//!
//! ```
//! use lexikey::store::salt::{SaltMode, Salter};
//! use lexikey::{tuple, Component, Format};
//!
//! let key = tuple::encode(Format::Hex, &[Component::asc("events"), Component::asc(42_i64)])?;
//! assert_eq!(key, b"events#l800000000000002A");
//! let text = Salter::new(16, SaltMode::Fast)?.for_format(Format::Hex);
//! assert_eq!(text.salted_key(&key), b"00#events#l800000000000002A");
//! let binary = Salter::new(16, SaltMode::Fast)?;
//! assert_eq!(binary.salted_key(&key), b"\x00events#l800000000000002A");
//! // Phoenix: abs(Arrays.hashCode(key) % 16).
//! let phoenix = Salter::new(16, SaltMode::Phoenix)?;
//! assert_eq!(phoenix.salted_key(&key)[0], lexikey::interop::phoenix::salt_byte(&key, 16));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Choosing a bucket ([`SaltMode`])
//!
//! The bucket is a function of the unsalted key only, so a point read
//! (`get`) needs no fan-out: compute the bucket, read one key.
//!
//! - [`SaltMode::Fast`] (the default), in steps:
//!   1. `h` = 64-bit FNV-1a of the key bytes (offset basis
//!      `0xCBF29CE484222325`, prime `0x100000001B3`);
//!   2. `h` goes through the MurmurHash3 `fmix64` finalizer (xor-shift 33,
//!      multiply by `0xFF51AFD7ED558CCD`, xor-shift 33, multiply by
//!      `0xC4CEB9FE1A85EC53`, xor-shift 33), so that keys differing only in
//!      their last byte — consecutive IDs, timestamps — spread over every
//!      bucket, which plain FNV-1a's low bits do badly;
//!   3. bucket = `(h × N) >> 64` (the high word of the 128-bit product:
//!      Lemire's multiply-shift reduction, unbiased enough and without a
//!      division).
//!
//!   This function is part of the key format: it never changes between
//!   versions, since changing it would move every stored row.
//! - [`SaltMode::Phoenix`]: Apache Phoenix's `SaltingUtil.getSaltingByte`,
//!   `abs(Arrays.hashCode(key) % N)` with Java's hash over signed bytes
//!   ([`phoenix::salt_byte`]), for tables that Phoenix also reads or
//!   writes. Phoenix allows 256 buckets; a [`Salter`] stops at 255.
//!
//! # Reading: fan-out and merge
//!
//! 1. [`Salter::ranges`] turns the logical range `[start, end)` into one
//!    physical range per bucket `b`: `[salt(b) + start, salt(b) + end)`, an
//!    unbounded side becoming the edge of the bucket (`salt(b)` itself, or
//!    [`prefix_end`]`(salt(b))`).
//! 2. Scan each physical range (in parallel if the store allows); each scan
//!    is sorted.
//! 3. [`merge_sorted`] (or [`Salter::merge`]) runs a k-way merge over the
//!    N sorted scans with a binary heap holding the head of each: pop the
//!    smallest unsalted key, yield it, push the next row of the scan it
//!    came from. `O(total × log N)`, one row per scan in memory.
//!
//! For "the first `n` rows", scanning `n` rows per bucket is enough: the
//! first `n` rows overall are among the first `n` of each bucket.
//! [`Salter::scan_merged`] does exactly that over a [`Store`].
//!
//! # Example: latest first across buckets
//!
//! Events keyed by a reverse timestamp (`i64::MAX − ms`, [`crate::reverse`])
//! sort newest first, so without salt every new event is written at the
//! front of the table, on one server. Salted with 4 buckets, the writes
//! spread, and a merged read still returns the newest events first:
//!
//! ```
//! use lexikey::store::salt::{SaltMode, Salter};
//! use lexikey::store::{MemStore, Store};
//! use lexikey::{reverse, tuple, Component, Format, KeyRange};
//!
//! let salter = Salter::new(4, SaltMode::Fast)?.for_format(Format::Hex);
//! let store = MemStore::new();
//! let key = |ms: i64| -> Result<Vec<u8>, Box<dyn std::error::Error>> {
//!     Ok(tuple::encode(Format::Hex, &[Component::asc("events"), Component::asc(reverse(ms)?)])?.into_vec())
//! };
//! for ms in [1_700_000_000_000_i64, 1_700_000_000_500, 1_700_000_001_000, 1_700_000_002_000] {
//!     store.put_if_absent(&salter.salted_key(&key(ms)?), ms.to_string().as_bytes())?;
//! }
//! // The two newest events went to different buckets...
//! assert_eq!(salter.salted_key(&key(1_700_000_002_000)?), b"01#events#lFFFFFE74301A902F");
//! assert_eq!(salter.salted_key(&key(1_700_000_001_000)?), b"02#events#lFFFFFE74301A9417");
//! // ...and the two newest come back first, unsalted.
//! let logical = KeyRange::prefix(b"events#");
//! let newest = salter.scan_merged(&store, &logical, 2)?;
//! assert_eq!(newest[0], (key(1_700_000_002_000)?, b"1700000002000".to_vec()));
//! assert_eq!(newest[1], (key(1_700_000_001_000)?, b"1700000001000".to_vec()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Command line
//!
//! `lexikey range --salt-buckets N …` builds the logical range as usual and
//! prints `Salter::new(N, mode)?.for_format(format).ranges(&range)`: N
//! physical ranges, bucket order, one per line.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt;

use crate::bytes::UPPER_HEX;
use crate::error::DecodeError;
use crate::format::Format;
use crate::interop::phoenix;
use crate::range::{prefix_end, KeyRange};
use crate::store::{Entry, Store, StoreError};

/// How the bucket of a key is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SaltMode {
    /// lexikey's own hash: FNV-1a 64, MurmurHash3's `fmix64`, multiply-shift
    /// to `0..N` (see the [module docs](self)). Fixed forever.
    #[default]
    Fast,
    /// Apache Phoenix's salt byte: `abs(Arrays.hashCode(key) % N)`
    /// ([`phoenix::salt_byte`]).
    Phoenix,
}

impl SaltMode {
    /// The name used on the command line (`fast`, `phoenix`).
    pub const fn name(self) -> &'static str {
        match self {
            SaltMode::Fast => "fast",
            SaltMode::Phoenix => "phoenix",
        }
    }

    /// Parses a name written by [`SaltMode::name`].
    pub fn from_name(name: &str) -> Option<SaltMode> {
        [SaltMode::Fast, SaltMode::Phoenix]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

impl fmt::Display for SaltMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A bucket count outside 1–255.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("salt buckets must be 1 to 255, got {buckets}")]
pub struct BucketsError {
    /// The count asked for.
    pub buckets: u32,
}

/// Where a salted key's bucket goes and how it is written: the bucket count,
/// the hash ([`SaltMode`]) and the layout (one byte, or two hex digits and
/// `#` for text formats). See the [module docs](self).
///
/// ```
/// use lexikey::store::salt::{SaltMode, Salter};
/// let s = Salter::new(8, SaltMode::Fast)?;
/// assert_eq!((s.buckets(), s.mode(), s.salt_len()), (8, SaltMode::Fast, 1));
/// assert!(Salter::new(0, SaltMode::Fast).is_err());
/// # Ok::<(), lexikey::store::salt::BucketsError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Salter {
    buckets: u8,
    mode: SaltMode,
    text: bool,
}

/// The text salt's separator (the component separator).
const TEXT_SEP: u8 = crate::format::text::SEP;

/// The fast hash, steps 1 and 2 of [`SaltMode::Fast`].
fn fast_hash(key: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in key {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

impl Salter {
    /// A salter with `buckets` buckets (1 to 255) and the binary layout (one
    /// salt byte). Use [`Salter::for_format`] for text keys.
    ///
    /// # Errors
    /// [`BucketsError`] for 0 buckets.
    pub const fn new(buckets: u8, mode: SaltMode) -> Result<Salter, BucketsError> {
        if buckets == 0 {
            return Err(BucketsError { buckets: 0 });
        }
        Ok(Salter {
            buckets,
            mode,
            text: false,
        })
    }

    /// Like [`Salter::new`], taking the count as the command line does.
    ///
    /// # Errors
    /// [`BucketsError`] for a count outside 1–255.
    pub fn with_count(buckets: u32, mode: SaltMode) -> Result<Salter, BucketsError> {
        match u8::try_from(buckets) {
            Ok(b) => Salter::new(b, mode).map_err(|_| BucketsError { buckets }),
            Err(_) => Err(BucketsError { buckets }),
        }
    }

    /// The same salter with the layout of `format`'s keys: two UPPERCASE hex
    /// digits and `#` for the text formats, one byte for binary.
    pub const fn for_format(mut self, format: Format) -> Salter {
        self.text = format.is_text();
        self
    }

    /// The number of buckets.
    pub const fn buckets(&self) -> u8 {
        self.buckets
    }

    /// The hash.
    pub const fn mode(&self) -> SaltMode {
        self.mode
    }

    /// Whether buckets are written as text (`0A#`).
    pub const fn is_text(&self) -> bool {
        self.text
    }

    /// The length of the salt in front of every salted key: 1 (binary) or 3
    /// (text).
    pub const fn salt_len(&self) -> usize {
        if self.text {
            3
        } else {
            1
        }
    }

    /// The bucket (`0..buckets`) of a key, computed from the key without
    /// any salt.
    ///
    /// ```
    /// use lexikey::store::salt::{SaltMode, Salter};
    /// // Phoenix vectors from its documented algorithm: Arrays.hashCode over
    /// // signed bytes, then abs(hash % N).
    /// let p = Salter::new(7, SaltMode::Phoenix)?;
    /// assert_eq!(p.bucket(b"abc"), 5); // ((31 + 97) * 31 + 98) * 31 + 99 = 126145; 126145 % 7 = 5
    /// let p = Salter::new(10, SaltMode::Phoenix)?;
    /// assert_eq!(p.bucket(&[0x80]), 7); // 31 + (-128) = -97; |-97 % 10| = 7
    /// let f = Salter::new(16, SaltMode::Fast)?;
    /// assert_eq!([f.bucket(b""), f.bucket(b"a"), f.bucket(b"b")], [14, 8, 6]);
    /// # Ok::<(), lexikey::store::salt::BucketsError>(())
    /// ```
    pub fn bucket(&self, key_without_salt: &[u8]) -> u8 {
        match self.mode {
            SaltMode::Fast => {
                let h = u128::from(fast_hash(key_without_salt));
                // < buckets <= 255.
                ((h * u128::from(self.buckets)) >> 64) as u8
            }
            SaltMode::Phoenix => phoenix::salt_byte(key_without_salt, u16::from(self.buckets)),
        }
    }

    /// The salt written in front of the keys of `bucket`: `[bucket]`, or
    /// `"0A#"`-style text.
    ///
    /// # Panics
    /// If `bucket >= buckets()` (a caller bug).
    pub fn salt(&self, bucket: u8) -> Vec<u8> {
        assert!(
            bucket < self.buckets,
            "bucket {bucket} out of range 0..{}",
            self.buckets
        );
        let mut out = Vec::with_capacity(3);
        self.push_salt(bucket, &mut out);
        out
    }

    /// Where a salted table should be split so that each bucket starts a
    /// region (tablet) of its own: the salt of every bucket but the first,
    /// in key order (`01#`, `02#`, … in the text formats; bytes 1, 2, … in
    /// binary). Every key of bucket `b` starts with `salt(b)`, so the split
    /// at `salt(b)` is the boundary between buckets `b - 1` and `b`.
    /// [`crate::range::render::render_splits`] prints the command that creates
    /// such a table.
    ///
    /// ```
    /// use lexikey::store::salt::{SaltMode, Salter};
    /// use lexikey::Format;
    /// let s = Salter::new(3, SaltMode::Fast)?;
    /// assert_eq!(s.split_points(), [vec![1u8], vec![2]]);
    /// assert_eq!(s.for_format(Format::Hex).split_points(), [b"01#".to_vec(), b"02#".to_vec()]);
    /// # Ok::<(), lexikey::store::salt::BucketsError>(())
    /// ```
    pub fn split_points(&self) -> Vec<Vec<u8>> {
        (1..self.buckets).map(|b| self.salt(b)).collect()
    }

    fn push_salt(&self, bucket: u8, out: &mut Vec<u8>) {
        if self.text {
            out.push(UPPER_HEX[usize::from(bucket >> 4)]);
            out.push(UPPER_HEX[usize::from(bucket & 0xF)]);
            out.push(TEXT_SEP);
        } else {
            out.push(bucket);
        }
    }

    /// The salted key: the salt of [`Salter::bucket`]`(key)`, then `key`.
    pub fn salted_key(&self, key: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.salt_len() + key.len());
        self.salted_key_into(key, &mut out);
        out
    }

    /// Appends the salted key to `out` (which is not cleared).
    pub fn salted_key_into(&self, key: &[u8], out: &mut Vec<u8>) {
        self.push_salt(self.bucket(key), out);
        out.extend_from_slice(key);
    }

    /// Splits a salted key into its bucket and the key without salt,
    /// checking that the salt is well formed and is the key's own bucket.
    ///
    /// # Errors
    /// - [`DecodeError::Truncated`] (offset: the key's length) when the key
    ///   is shorter than the salt;
    /// - [`DecodeError::InvalidSymbol`] at the offending byte: a text salt
    ///   that is not two UPPERCASE hex digits and `#`;
    /// - [`DecodeError::NonCanonical`] at offset 0 when the bucket is
    ///   `>= buckets()` or is not the bucket the key hashes to.
    ///
    /// ```
    /// use lexikey::store::salt::{SaltMode, Salter};
    /// use lexikey::Format;
    /// let s = Salter::new(16, SaltMode::Fast)?.for_format(Format::Hex);
    /// assert_eq!(s.unsalt(b"08#a")?, (8, &b"a"[..]));
    /// assert!(s.unsalt(b"07#a").is_err()); // "a" is in bucket 8
    /// assert!(s.unsalt(b"0b#b").is_err()); // lowercase
    /// assert!(s.unsalt(b"08").is_err()); // truncated
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn unsalt<'k>(&self, salted: &'k [u8]) -> Result<(u8, &'k [u8]), DecodeError> {
        let n = self.salt_len();
        let salt = salted.get(..n).ok_or(DecodeError::Truncated {
            offset: salted.len(),
            expected: if self.text {
                "a salt of two hex digits and '#'"
            } else {
                "a salt byte"
            },
        })?;
        let bucket = if self.text {
            let digit = |i: usize| -> Result<u8, DecodeError> {
                let c = salt[i];
                match c {
                    b'0'..=b'9' => Ok(c - b'0'),
                    b'A'..=b'F' => Ok(c - b'A' + 10),
                    _ => Err(DecodeError::InvalidSymbol {
                        offset: i,
                        found: c,
                        expected: "an UPPERCASE hex digit of the salt",
                    }),
                }
            };
            let b = digit(0)? << 4 | digit(1)?;
            if salt[2] != TEXT_SEP {
                return Err(DecodeError::InvalidSymbol {
                    offset: 2,
                    found: salt[2],
                    expected: "'#' after the salt",
                });
            }
            b
        } else {
            salt[0]
        };
        let key = &salted[n..];
        if bucket >= self.buckets {
            return Err(DecodeError::NonCanonical {
                offset: 0,
                reason: "salt bucket out of range",
            });
        }
        if bucket != self.bucket(key) {
            return Err(DecodeError::NonCanonical {
                offset: 0,
                reason: "salt is not the key's bucket",
            });
        }
        Ok((bucket, key))
    }

    /// The physical range of `bucket` for the logical range `logical`:
    /// `[salt + start, salt + end)`, an unbounded start becoming `salt` and
    /// an unbounded end [`prefix_end`]`(salt)`.
    ///
    /// # Panics
    /// If `bucket >= buckets()`.
    pub fn bucket_range(&self, bucket: u8, logical: &KeyRange) -> KeyRange {
        salted_range(&self.salt(bucket), logical)
    }

    /// One physical range per bucket, in bucket order (index = bucket), that
    /// together hold exactly the salted keys of the keys in `logical`. A
    /// logical range that holds no key (`start >= end`, or an end of `""`)
    /// gives no range at all, rather than N empty ones.
    ///
    /// ```
    /// use lexikey::store::salt::{SaltMode, Salter};
    /// use lexikey::{Format, KeyRange};
    /// let s = Salter::new(3, SaltMode::Fast)?.for_format(Format::Hex);
    /// let r = s.ranges(&KeyRange::prefix(b"events#"));
    /// assert_eq!(format!("{r:?}"), "[[00#events#, 00#events$), [01#events#, 01#events$), [02#events#, 02#events$)]");
    /// let b = Salter::new(2, SaltMode::Phoenix)?;
    /// assert_eq!(format!("{:?}", b.ranges(&KeyRange::all())), r#"[[\x00, \x01), [\x01, \x02)]"#);
    /// # Ok::<(), lexikey::store::salt::BucketsError>(())
    /// ```
    pub fn ranges(&self, logical: &KeyRange) -> Vec<KeyRange> {
        if logical.is_empty() || logical.end.as_deref() == Some(&[][..]) {
            return Vec::new();
        }
        (0..self.buckets)
            .map(|b| self.bucket_range(b, logical))
            .collect()
    }

    /// Merges per-bucket scans of salted keys (each sorted ascending) into
    /// one ascending stream of unsalted keys: [`merge_sorted`] with
    /// [`Salter::salt_len`].
    pub fn merge<I, V>(&self, scans: Vec<I>) -> MergeSorted<I, V>
    where
        I: Iterator<Item = (Vec<u8>, V)>,
    {
        merge_sorted(scans, self.salt_len())
    }

    /// The first `limit` rows of `logical` in unsalted key order: scans up
    /// to `limit` rows of each bucket's range and merges them (the first
    /// `limit` rows overall are among the first `limit` of each bucket).
    /// Keys come back without their salt.
    ///
    /// # Errors
    /// The store's errors.
    pub fn scan_merged<S: Store + ?Sized>(
        &self,
        store: &S,
        logical: &KeyRange,
        limit: usize,
    ) -> Result<Vec<Entry>, StoreError> {
        let scans = self
            .ranges(logical)
            .iter()
            .map(|r| store.scan(r, limit).map(Vec::into_iter))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self.merge(scans).take(limit).collect())
    }
}

/// The head of one scan inside the merge heap.
struct Head<V> {
    key: Vec<u8>,
    value: V,
    source: usize,
    desc: bool,
}

impl<V> PartialEq for Head<V> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<V> Eq for Head<V> {}

impl<V> PartialOrd for Head<V> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<V> Ord for Head<V> {
    /// "Greater" = comes out of the (max-)heap first: the smallest key when
    /// ascending, the largest when descending; on equal keys, the lower
    /// source index.
    fn cmp(&self, other: &Self) -> Ordering {
        let by_key = self.key.cmp(&other.key);
        let by_key = if self.desc { by_key } else { by_key.reverse() };
        by_key.then_with(|| other.source.cmp(&self.source))
    }
}

/// The k-way merge of [`merge_sorted`] and [`merge_sorted_desc`]: an
/// iterator over `(key without salt, value)`.
pub struct MergeSorted<I, V> {
    scans: Vec<I>,
    heap: BinaryHeap<Head<V>>,
    salt_len: usize,
    desc: bool,
}

impl<I, V> fmt::Debug for MergeSorted<I, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MergeSorted")
            .field("scans", &self.scans.len())
            .field("pending", &self.heap.len())
            .field("salt_len", &self.salt_len)
            .field("desc", &self.desc)
            .finish()
    }
}

impl<I, V> MergeSorted<I, V>
where
    I: Iterator<Item = (Vec<u8>, V)>,
{
    fn new(scans: Vec<I>, salt_len: usize, desc: bool) -> Self {
        let mut m = MergeSorted {
            heap: BinaryHeap::with_capacity(scans.len()),
            scans,
            salt_len,
            desc,
        };
        for source in 0..m.scans.len() {
            m.refill(source);
        }
        m
    }

    /// Pushes the next row of scan `source`, if any, with its salt removed.
    fn refill(&mut self, source: usize) {
        if let Some((mut key, value)) = self.scans[source].next() {
            let _ = key.drain(..self.salt_len.min(key.len()));
            self.heap.push(Head {
                key,
                value,
                source,
                desc: self.desc,
            });
        }
    }
}

impl<I, V> Iterator for MergeSorted<I, V>
where
    I: Iterator<Item = (Vec<u8>, V)>,
{
    type Item = (Vec<u8>, V);

    fn next(&mut self) -> Option<Self::Item> {
        let head = self.heap.pop()?;
        self.refill(head.source);
        Some((head.key, head.value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let mut lo = self.heap.len();
        let mut hi = Some(self.heap.len());
        for s in &self.scans {
            let (l, h) = s.size_hint();
            lo = lo.saturating_add(l);
            hi = hi.zip(h).and_then(|(a, b)| a.checked_add(b));
        }
        (lo, hi)
    }
}

/// Merges N scans, each sorted ascending by key, into one ascending stream,
/// after removing the first `salt_len` bytes of every key (the salt; 1 for
/// binary salts, 3 for text ones — [`Salter::salt_len`]). Ordering is by
/// the key *without* salt; rows with equal keys come out in scan order.
///
/// A binary heap holds the head of each scan: 1. pull the first row of
/// every scan into the heap; 2. pop the smallest key and yield it; 3. pull
/// the next row of the scan it came from; repeat 2–3 until the heap is
/// empty. One row per scan is held in memory, each row costs `O(log N)`.
///
/// The output is sorted only if every input is (each store scan is); a key
/// shorter than `salt_len` is yielded empty.
///
/// ```
/// use lexikey::store::salt::merge_sorted;
/// let bucket0 = vec![(b"\x00a".to_vec(), 1), (b"\x00d".to_vec(), 4)];
/// let bucket1 = vec![(b"\x01b".to_vec(), 2), (b"\x01c".to_vec(), 3)];
/// let merged: Vec<_> = merge_sorted(vec![bucket0.into_iter(), bucket1.into_iter()], 1).collect();
/// assert_eq!(merged, [(b"a".to_vec(), 1), (b"b".to_vec(), 2), (b"c".to_vec(), 3), (b"d".to_vec(), 4)]);
/// ```
pub fn merge_sorted<I, V>(scans: Vec<I>, salt_len: usize) -> MergeSorted<I, V>
where
    I: Iterator<Item = (Vec<u8>, V)>,
{
    MergeSorted::new(scans, salt_len, false)
}

/// [`merge_sorted`] for scans sorted *descending* (reverse iterators, such
/// as RocksDB's `SeekForPrev`/`Prev` or HBase `reversed` scans): yields the
/// largest unsalted key first.
///
/// ```
/// use lexikey::store::salt::merge_sorted_desc;
/// let bucket0 = vec![(b"00#d".to_vec(), ()), (b"00#a".to_vec(), ())];
/// let bucket1 = vec![(b"01#c".to_vec(), ()), (b"01#b".to_vec(), ())];
/// let keys: Vec<_> = merge_sorted_desc(vec![bucket0.into_iter(), bucket1.into_iter()], 3)
///     .map(|(k, ())| k)
///     .collect();
/// assert_eq!(keys, [b"d", b"c", b"b", b"a"]);
/// ```
pub fn merge_sorted_desc<I, V>(scans: Vec<I>, salt_len: usize) -> MergeSorted<I, V>
where
    I: Iterator<Item = (Vec<u8>, V)>,
{
    MergeSorted::new(scans, salt_len, true)
}

/// The physical range of one salt bucket: the keys of `logical` with
/// `salt` in front, `[salt ‖ start, salt ‖ end)`; an unbounded start is
/// `salt` itself and an unbounded end the end of the bucket
/// (`prefix_end(salt)`). The one bucket range of every salted key layout
/// ([`Salter::bucket_range`], Phoenix's `SALT_BUCKETS` in
/// [`crate::frontend::profile::ProfileRange`]).
///
/// ```
/// use lexikey::{store::salt::salted_range, KeyRange};
/// let r = salted_range(&[7], &KeyRange::prefix(b"us"));
/// assert_eq!(format!("{r:?}"), r"[\x07us, \x07ut)");
/// assert_eq!(salted_range(&[0xFF], &KeyRange::all()).end, None);
/// ```
pub fn salted_range(salt: &[u8], logical: &KeyRange) -> KeyRange {
    let with = |k: &[u8]| {
        let mut v = Vec::with_capacity(salt.len() + k.len());
        v.extend_from_slice(salt);
        v.extend_from_slice(k);
        v
    };
    KeyRange {
        start: Some(logical.start.as_deref().map_or_else(|| salt.to_vec(), with)),
        end: logical
            .end
            .as_deref()
            .map(with)
            .or_else(|| prefix_end(salt)),
    }
}
