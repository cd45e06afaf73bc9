//! Half-open key ranges `[start, end)` and prefix ends.
//!
//! Every range in lexikey is half-open: `start` is inclusive, `end` is
//! exclusive, and either side may be unbounded (`None`), meaning "from the
//! first key of the table" / "to the end of the table". This is what HBase
//! (`STARTROW`/`STOPROW`), RocksDB (`iterate_lower_bound`/`iterate_upper_bound`),
//! etcd (`key`/`range_end`) and FoundationDB use.

use std::fmt;

/// A half-open key range `[start, end)`; `None` on a side means unbounded.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct KeyRange {
    /// Inclusive lower bound; `None` = from the first key.
    pub start: Option<Vec<u8>>,
    /// Exclusive upper bound; `None` = to the last key.
    pub end: Option<Vec<u8>>,
}

/// The range is empty: no key can match (for example `> i64::MAX`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("empty range: no key can match (start >= end)")]
pub struct EmptyRange;

impl KeyRange {
    /// Every key.
    pub const fn all() -> KeyRange {
        KeyRange {
            start: None,
            end: None,
        }
    }

    /// `[start, end)`, refusing an empty range.
    ///
    /// # Errors
    /// [`EmptyRange`] when both sides are bounded and `start >= end`.
    pub fn new(start: Option<Vec<u8>>, end: Option<Vec<u8>>) -> Result<KeyRange, EmptyRange> {
        if let (Some(s), Some(e)) = (&start, &end) {
            if s >= e {
                return Err(EmptyRange);
            }
        }
        Ok(KeyRange { start, end })
    }

    /// The keys that start with `prefix`: `[prefix, prefix_end(prefix))`.
    /// An empty prefix is every key.
    ///
    /// ```
    /// use lexikey::KeyRange;
    /// let r = KeyRange::prefix(b"ab\xFF");
    /// assert_eq!(r.end.as_deref(), Some(&b"ac"[..]));
    /// assert!(r.contains(b"ab\xFF\xFF\x00") && !r.contains(b"ac"));
    /// ```
    pub fn prefix(prefix: &[u8]) -> KeyRange {
        KeyRange {
            start: (!prefix.is_empty()).then(|| prefix.to_vec()),
            end: prefix_end(prefix),
        }
    }

    /// `[start, end]` made half-open: the end becomes the smallest key
    /// greater than `end` (`end + 00`).
    pub fn inclusive(start: Option<Vec<u8>>, end: &[u8]) -> Result<KeyRange, EmptyRange> {
        let mut e = end.to_vec();
        e.push(0);
        KeyRange::new(start, Some(e))
    }

    /// Whether `key` is in the range.
    pub fn contains(&self, key: &[u8]) -> bool {
        self.start.as_deref().is_none_or(|s| key >= s)
            && self.end.as_deref().is_none_or(|e| key < e)
    }

    /// Whether the range holds no key at all.
    pub fn is_empty(&self) -> bool {
        matches!((&self.start, &self.end), (Some(s), Some(e)) if s >= e)
    }
}

impl fmt::Debug for KeyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |s: &Option<Vec<u8>>| match s {
            None => "∞".to_string(),
            Some(k) => crate::escape_key(k),
        };
        write!(f, "[{}, {})", side(&self.start), side(&self.end))
    }
}

/// The smallest key greater than every key that starts with `prefix`: drop
/// trailing `FF` bytes, then increment the last byte. `None` when there is
/// no such key (an empty or all-`FF` prefix): scan to the end of the table.
///
/// The classic mistakes this avoids: appending `FF` (misses keys that
/// continue with `FF FF`), incrementing a trailing `FF` (it overflows into
/// the previous byte), and using the prefix itself as an inclusive end.
///
/// ```
/// use lexikey::range::prefix_end;
/// assert_eq!(prefix_end(b"usa#"), Some(b"usa$".to_vec()));
/// assert_eq!(prefix_end(b"a\xFF\xFF"), Some(b"b".to_vec()));
/// assert_eq!(prefix_end(b"\xFF\xFF"), None);
/// assert_eq!(prefix_end(b""), None);
/// ```
pub fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let keep = prefix.iter().rposition(|&b| b != 0xFF)?;
    let mut end = prefix[..=keep].to_vec();
    end[keep] += 1;
    Some(end)
}

/// The smallest **valid UTF-8** string greater than every string that starts
/// with `prefix`: drop trailing U+10FFFF characters, then replace the last
/// character by the next code point (skipping the surrogate gap
/// U+D800–U+DFFF). `None` when no such string exists (empty, or only
/// U+10FFFF).
///
/// A byte-wise prefix end of text can produce invalid UTF-8 (`"é"` is
/// `C3 A9`; `C3 AA` is fine but `"\u{7F}"` → `80` is not a valid string),
/// which PostgreSQL `text` and CQL `text` columns refuse.
///
/// ```
/// use lexikey::range::text_prefix_end;
/// assert_eq!(text_prefix_end("usa#").as_deref(), Some("usa$"));
/// assert_eq!(text_prefix_end("a\u{7F}").as_deref(), Some("a\u{80}"));
/// assert_eq!(text_prefix_end("a\u{D7FF}").as_deref(), Some("a\u{E000}"));
/// assert_eq!(text_prefix_end("b\u{10FFFF}").as_deref(), Some("c"));
/// assert_eq!(text_prefix_end("\u{10FFFF}"), None);
/// ```
pub fn text_prefix_end(prefix: &str) -> Option<String> {
    let mut s = prefix.trim_end_matches(char::MAX).to_string();
    let last = s.pop()?;
    let next = match last as u32 {
        0xD7FF => '\u{E000}',
        c => char::from_u32(c + 1)?,
    };
    s.push(next);
    Some(s)
}
