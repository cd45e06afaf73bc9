//! [`Key`]: the owned key [`tuple::encode`](crate::tuple::encode) returns.
//!
//! A heap allocation and its free cost about as much as encoding a typical
//! row key (`population#l80000000003A783C`; BENCHMARKS.md, issue 16), and
//! the usual life of a key is short: encode it, hand it to the store, drop
//! it. So a dropped [`Key`] gives its buffer back to its thread (one spare
//! buffer per thread, of at most [`Key::RECYCLE_MAX`] bytes), and the
//! thread's next [`tuple::encode`](crate::tuple::encode) writes straight
//! into that buffer: encode, use, drop in a loop costs no allocation and no
//! copy (once the buffer has grown to what the encoders reserve: it may
//! grow on the first keys). With no spare buffer (the keys are kept), each
//! key gets one allocation of exactly its length, as a `Vec` would.
//!
//! It reads as the bytes it holds: it derefs to `[u8]`, compares, orders and
//! hashes as those bytes (so a `HashMap<Key, _>` is looked up by `&[u8]`),
//! and equals a `Vec<u8>`, a slice or a byte-string literal of the same
//! bytes. Store clients that take `AsRef<[u8]>` take it as is;
//! [`Key::into_vec`] (or `Vec::from`) hands the buffer, without a copy, to
//! those that want a `Vec`.
//!
//! ```
//! use lexikey::{tuple, Component, Format, Key};
//! let key: Key = tuple::encode(Format::Hex, &[Component::asc("population"), Component::asc(3_831_868_i64)])?;
//! assert_eq!(key, b"population#l80000000003A783C");
//! assert_eq!(key.len(), 28);
//! let bytes: Vec<u8> = key.into_vec();
//! assert_eq!(bytes, b"population#l80000000003A783C");
//! # Ok::<(), lexikey::EncodeError>(())
//! ```

use std::borrow::Borrow;
use std::cell::Cell;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// An owned key: its bytes in a heap buffer that goes back to the thread
/// for the next [`tuple::encode`](crate::tuple::encode) when the key is
/// dropped. See the [module docs](self).
pub struct Key(Vec<u8>);

thread_local! {
    /// The buffer of the last key dropped on this thread (empty: none).
    static SPARE: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

impl Key {
    /// The largest buffer (capacity, bytes) a dropped key gives back for
    /// reuse. A reused buffer stays with the key written into it, so a kept
    /// key can hold more than its length: up to this much, unless the key
    /// outgrew the buffer (it then grows as a `Vec` does).
    pub const RECYCLE_MAX: usize = 256;

    /// A key holding a copy of `bytes` (one allocation, of exactly their
    /// length).
    ///
    /// ```
    /// use lexikey::Key;
    /// let key = Key::from_slice(b"usa#california");
    /// assert_eq!(key, b"usa#california");
    /// assert_eq!(key.len(), 14);
    /// ```
    #[inline]
    pub fn from_slice(bytes: &[u8]) -> Key {
        Key(bytes.to_vec())
    }

    /// The key's bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The size of the key's buffer: its length, except for a key written
    /// into a reused buffer (up to [`Key::RECYCLE_MAX`], or more when the
    /// key outgrew that buffer and it grew as a `Vec` does).
    #[inline]
    pub fn capacity(&self) -> usize {
        self.0.capacity()
    }

    /// The key's bytes as a `Vec` (its buffer: no copy; it is then not
    /// given back for reuse).
    ///
    /// ```
    /// use lexikey::Key;
    /// assert_eq!(Key::from_slice(b"usa#").into_vec(), b"usa#".to_vec());
    /// ```
    #[inline]
    pub fn into_vec(mut self) -> Vec<u8> {
        std::mem::take(&mut self.0)
    }

    /// The key's buffer, to write the key into.
    #[inline]
    pub(crate) fn buf_mut(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }

    /// The thread's spare buffer, if a dropped key left one (capacity 0 if
    /// none). Its contents are stale: clear it before use.
    #[inline]
    pub(crate) fn take_spare() -> Vec<u8> {
        SPARE.try_with(Cell::take).unwrap_or_default()
    }
}

impl Drop for Key {
    /// Gives the buffer to the thread's next `tuple::encode` when its
    /// capacity is at most [`Key::RECYCLE_MAX`] (a buffer already waiting
    /// there is freed); frees it otherwise.
    #[inline]
    fn drop(&mut self) {
        let cap = self.0.capacity();
        if cap != 0 && cap <= Key::RECYCLE_MAX {
            let buf = std::mem::take(&mut self.0);
            // During thread teardown the closure is dropped unrun, and the
            // buffer with it.
            let _ = SPARE.try_with(move |s| drop(s.replace(buf)));
        }
    }
}

impl Clone for Key {
    /// A copy of exactly the key's length.
    fn clone(&self) -> Key {
        Key::from_slice(&self.0)
    }
}

impl Default for Key {
    /// The empty key (no allocation).
    #[inline]
    fn default() -> Key {
        Key(Vec::new())
    }
}

impl Deref for Key {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl AsRef<[u8]> for Key {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Borrow<[u8]> for Key {
    #[inline]
    fn borrow(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl From<&[u8]> for Key {
    #[inline]
    fn from(bytes: &[u8]) -> Key {
        Key::from_slice(bytes)
    }
}

impl From<Vec<u8>> for Key {
    /// Takes the `Vec`'s buffer (no copy).
    #[inline]
    fn from(v: Vec<u8>) -> Key {
        Key(v)
    }
}

impl From<Key> for Vec<u8> {
    #[inline]
    fn from(k: Key) -> Vec<u8> {
        k.into_vec()
    }
}

impl fmt::Debug for Key {
    /// `Key(b"population#l80000000003A783C")`: the bytes, with
    /// non-printable ones escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key(b\"{}\")", self.as_bytes().escape_ascii())
    }
}

impl PartialEq for Key {
    #[inline]
    fn eq(&self, other: &Key) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    #[inline]
    fn partial_cmp(&self, other: &Key) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    /// Byte order: the order the store sorts keys in.
    #[inline]
    fn cmp(&self, other: &Key) -> Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl Hash for Key {
    /// Hashes as the `[u8]` it holds (so that `Borrow<[u8]>` look-ups work).
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

/// `Key == other`, `other == Key` and their byte order, for the byte
/// containers a key is compared with.
macro_rules! cmp_bytes {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Key {
            #[inline]
            fn eq(&self, other: &$t) -> bool {
                self.as_bytes() == &other[..]
            }
        }
        impl PartialEq<Key> for $t {
            #[inline]
            fn eq(&self, other: &Key) -> bool {
                &self[..] == other.as_bytes()
            }
        }
        impl PartialOrd<$t> for Key {
            #[inline]
            fn partial_cmp(&self, other: &$t) -> Option<Ordering> {
                Some(self.as_bytes().cmp(&other[..]))
            }
        }
        impl PartialOrd<Key> for $t {
            #[inline]
            fn partial_cmp(&self, other: &Key) -> Option<Ordering> {
                Some(self[..].cmp(other.as_bytes()))
            }
        }
    )*};
}
cmp_bytes!([u8], &[u8], Vec<u8>);

impl<const N: usize> PartialEq<[u8; N]> for Key {
    #[inline]
    fn eq(&self, other: &[u8; N]) -> bool {
        self.as_bytes() == other
    }
}

impl<const N: usize> PartialEq<&[u8; N]> for Key {
    #[inline]
    fn eq(&self, other: &&[u8; N]) -> bool {
        self.as_bytes() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_key_leaves_its_buffer_for_the_next() {
        let key = Key::from_slice(b"usa#california");
        let ptr = key.as_ptr();
        drop(key);
        let spare = Key::take_spare();
        assert_eq!(spare.as_ptr(), ptr);
        assert!(Key::take_spare().capacity() == 0, "taken once");
        // Too large a buffer is freed, not kept.
        drop(Key::from_slice(&[0; Key::RECYCLE_MAX + 1]));
        assert_eq!(Key::take_spare().capacity(), 0);
        // into_vec hands the buffer over: nothing left behind.
        let v = Key::from_slice(b"a").into_vec();
        assert_eq!(v, b"a");
        assert_eq!(Key::take_spare().capacity(), 0);
    }

    #[test]
    fn debug_shows_the_bytes() {
        assert_eq!(
            format!("{:?}", Key::from_slice(b"a#\x00\xff")),
            r#"Key(b"a#\x00\xff")"#
        );
    }
}
