//! [`Key`]: the owned key [`tuple::encode`](crate::tuple::encode) returns.
//!
//! Most row keys are short (`population#l80000000003A783C` is 28 bytes), and
//! a heap allocation and its free cost about as much as encoding such a key
//! (BENCHMARKS.md, issue 16). So a [`Key`] holds up to [`Key::INLINE`] bytes
//! in place, with no allocation at all, and a longer key in one heap
//! allocation of exactly its length, as sled's `IVec` and `smol_str` do.
//!
//! It reads as the bytes it holds: it derefs to `[u8]`, compares, orders and
//! hashes as those bytes (so a `HashMap<Key, _>` is looked up by `&[u8]`),
//! and equals a `Vec<u8>`, a slice or a byte-string literal of the same
//! bytes. Store clients that take `AsRef<[u8]>` take it as is;
//! [`Key::into_vec`] (or `Vec::from`) hands it to those that want a `Vec`.
//!
//! ```
//! use lexikey::{tuple, Component, Format, Key};
//! let key: Key = tuple::encode(Format::Hex, &[Component::asc("population"), Component::asc(3_831_868_i64)])?;
//! assert_eq!(key, b"population#l80000000003A783C");
//! assert_eq!(key.len(), 28);
//! assert!(key.is_inline());
//! let bytes: Vec<u8> = key.into_vec();
//! assert_eq!(bytes, b"population#l80000000003A783C");
//! # Ok::<(), lexikey::EncodeError>(())
//! ```

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// An owned key: up to [`Key::INLINE`] bytes stored in place (no heap
/// allocation), longer keys in one heap allocation of exactly their length.
/// See the [module docs](self).
#[derive(Clone)]
pub struct Key(Repr);

#[derive(Clone)]
enum Repr {
    /// `len <= Key::INLINE`; the bytes past `len` are zero.
    Inline {
        len: u8,
        buf: [u8; Key::INLINE],
    },
    Heap(Box<[u8]>),
}

impl Key {
    /// The longest key held in place: 62 bytes, so that a `Key` is 64 bytes
    /// (one cache line) on 64-bit targets.
    pub const INLINE: usize = 62;

    /// A key holding a copy of `bytes`.
    ///
    /// ```
    /// use lexikey::Key;
    /// let short = Key::from_slice(b"usa#california");
    /// assert!(short.is_inline());
    /// let long = Key::from_slice(&[b'a'; 100]);
    /// assert!(!long.is_inline());
    /// assert_eq!(long.len(), 100);
    /// ```
    #[inline]
    pub fn from_slice(bytes: &[u8]) -> Key {
        let mut key = Key::default();
        key.set(bytes);
        key
    }

    /// Sets the bytes of an empty key (as [`Key::default`] makes it: the
    /// bytes past its length are zero), in place when they fit.
    #[inline]
    pub(crate) fn set(&mut self, bytes: &[u8]) {
        debug_assert!(self.is_empty() && self.is_inline());
        let n = bytes.len();
        match &mut self.0 {
            Repr::Inline { len, buf } if n <= Key::INLINE => {
                buf[..n].copy_from_slice(bytes);
                *len = n as u8;
            }
            _ => self.0 = Repr::Heap(bytes.into()),
        }
    }

    /// The key's bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline { len, buf } => &buf[..usize::from(*len)],
            Repr::Heap(b) => b,
        }
    }

    /// Whether the key is held in place (it is at most [`Key::INLINE`]
    /// bytes long) rather than on the heap.
    #[inline]
    pub fn is_inline(&self) -> bool {
        matches!(self.0, Repr::Inline { .. })
    }

    /// The key's bytes as a `Vec` (no copy for a key on the heap).
    ///
    /// ```
    /// use lexikey::Key;
    /// assert_eq!(Key::from_slice(b"usa#").into_vec(), b"usa#".to_vec());
    /// ```
    #[inline]
    pub fn into_vec(self) -> Vec<u8> {
        match self.0 {
            Repr::Inline { .. } => self.as_bytes().to_vec(),
            Repr::Heap(b) => b.into_vec(),
        }
    }
}

impl Default for Key {
    /// The empty key.
    #[inline]
    fn default() -> Key {
        Key(Repr::Inline {
            len: 0,
            buf: [0; Key::INLINE],
        })
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
    /// Keeps the `Vec`'s allocation (shrunk to fit) for a long key; a short
    /// one is copied in place and the `Vec` freed.
    fn from(v: Vec<u8>) -> Key {
        if v.len() <= Key::INLINE {
            Key::from_slice(&v)
        } else {
            Key(Repr::Heap(v.into_boxed_slice()))
        }
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
    fn one_cache_line() {
        assert_eq!(std::mem::size_of::<Key>(), 64);
    }

    #[test]
    fn inline_up_to_the_limit_heap_beyond() {
        for n in 0..=Key::INLINE + 2 {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 1) as u8).collect();
            let k = Key::from_slice(&bytes);
            assert_eq!(k.is_inline(), n <= Key::INLINE, "{n}");
            assert_eq!(k, bytes);
            assert_eq!(k.clone().into_vec(), bytes);
            let from_vec = Key::from(bytes.clone());
            assert_eq!(from_vec.is_inline(), n <= Key::INLINE);
            assert_eq!(from_vec, k);
        }
    }

    #[test]
    fn debug_shows_the_bytes() {
        assert_eq!(
            format!("{:?}", Key::from_slice(b"a#\x00\xff")),
            r#"Key(b"a#\x00\xff")"#
        );
    }
}
