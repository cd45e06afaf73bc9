//! Namespaces as key prefixes (etcd, RocksDB): user key `k` is stored as
//! `NS/k`, and a user range maps to the store range inside `NS/`.

#![allow(dead_code)] // unused when neither etcd nor rocksdb is on

use lexikey::range::prefix_end;
use lexikey::KeyRange;

/// The `NS/` prefix of one namespace.
#[derive(Debug, Clone)]
pub(crate) struct Prefix {
    prefix: Vec<u8>,
    /// The end of the whole namespace: `prefix_end(NS/)` = `NS0`.
    end: Vec<u8>,
}

impl Prefix {
    /// `ns` must have passed [`crate::check_namespace`] (non-empty, no `/`).
    pub(crate) fn new(ns: &str) -> Prefix {
        let mut prefix = ns.as_bytes().to_vec();
        prefix.push(b'/');
        // The prefix ends in `/`, never 0xFF, so it has an end.
        let end = prefix_end(&prefix).unwrap_or_default();
        Prefix { prefix, end }
    }

    /// The store key of user key `key`.
    pub(crate) fn key(&self, key: &[u8]) -> Vec<u8> {
        let mut k = Vec::with_capacity(self.prefix.len() + key.len());
        k.extend_from_slice(&self.prefix);
        k.extend_from_slice(key);
        k
    }

    /// The user key of store key `key` (`None` if outside the namespace).
    pub(crate) fn strip<'a>(&self, key: &'a [u8]) -> Option<&'a [u8]> {
        key.strip_prefix(self.prefix.as_slice())
    }

    /// The store range `[start, end)` of a user range: an unbounded side
    /// becomes the namespace's own bound, so both sides are always bounded.
    pub(crate) fn range(&self, range: &KeyRange) -> (Vec<u8>, Vec<u8>) {
        let start = match &range.start {
            Some(s) => self.key(s),
            None => self.prefix.clone(),
        };
        let end = match &range.end {
            Some(e) => self.key(e),
            None => self.end.clone(),
        };
        (start, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_stay_inside_the_namespace() {
        let p = Prefix::new("ns");
        assert_eq!(p.key(b"k"), b"ns/k");
        assert_eq!(p.strip(b"ns/k"), Some(&b"k"[..]));
        assert_eq!(p.strip(b"nt/k"), None);
        assert_eq!(
            p.range(&KeyRange::all()),
            (b"ns/".to_vec(), b"ns0".to_vec())
        );
        let r = KeyRange::new(Some(b"\xFF".to_vec()), None).unwrap();
        assert_eq!(p.range(&r), (b"ns/\xFF".to_vec(), b"ns0".to_vec()));
    }
}
