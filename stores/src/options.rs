//! Store URL options: `?name=value&name=value`, and namespaces.

use lexikey::store::StoreError;

use crate::url::bad_url;

/// The namespace a store URL without `ns=` uses.
pub const DEFAULT_NAMESPACE: &str = "lexikey";

/// Checks a namespace name: 1–48 characters of `A–Z a–z 0–9 _ . -`.
///
/// The alphabet keeps namespaces apart in every store: none contains `/`
/// (the etcd/RocksDB key prefix is `NAME/`, so no namespace's prefix is a
/// prefix of another's), nor `:` (the Redis value hash is `NAME:values`),
/// and every name is a valid quoted PostgreSQL identifier.
///
/// # Errors
/// A fatal [`StoreError`] saying what is wrong.
pub fn check_namespace(ns: &str) -> Result<(), StoreError> {
    let ok = !ns.is_empty()
        && ns.len() <= 48
        && ns
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(StoreError::fatal(
            crate::STORE_NAME,
            format!("bad namespace {ns:?}: expected 1-48 characters of A-Z a-z 0-9 _ . -"),
        ))
    }
}

/// Splits `rest` at the first `?` into (path, options).
pub(crate) fn split(rest: &str) -> (&str, &str) {
    rest.split_once('?').unwrap_or((rest, ""))
}

/// Parsed `name=value` options, consumed one by one; [`Options::finish`]
/// rejects the ones nobody took.
#[derive(Debug, Default)]
pub(crate) struct Options {
    pairs: Vec<(String, String)>,
}

impl Options {
    pub(crate) fn parse(url: &str, query: &str) -> Result<Options, StoreError> {
        let mut pairs = Vec::new();
        for part in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| bad_url(url, format!("option `{part}` has no `=value`")))?;
            if pairs.iter().any(|(name, _)| name == k) {
                return Err(bad_url(url, format!("option `{k}` given twice")));
            }
            pairs.push((k.to_string(), v.to_string()));
        }
        Ok(Options { pairs })
    }

    /// Removes and returns option `name`.
    pub(crate) fn take(&mut self, name: &str) -> Option<String> {
        let i = self.pairs.iter().position(|(k, _)| k == name)?;
        Some(self.pairs.remove(i).1)
    }

    /// The namespace (`ns=`, default [`DEFAULT_NAMESPACE`]), checked.
    pub(crate) fn namespace(&mut self, url: &str) -> Result<String, StoreError> {
        let ns = self
            .take("ns")
            .unwrap_or_else(|| DEFAULT_NAMESPACE.to_string());
        check_namespace(&ns).map_err(|e| bad_url(url, e.message))?;
        Ok(ns)
    }

    #[allow(dead_code)] // only redb uses it
    pub(crate) fn take_bool(&mut self, url: &str, name: &str) -> Result<Option<bool>, StoreError> {
        match self.take(name).as_deref() {
            None => Ok(None),
            Some("true" | "1" | "yes" | "on") => Ok(Some(true)),
            Some("false" | "0" | "no" | "off") => Ok(Some(false)),
            Some(v) => Err(bad_url(
                url,
                format!("option `{name}={v}`: expected true or false"),
            )),
        }
    }

    pub(crate) fn take_u64(&mut self, url: &str, name: &str) -> Result<Option<u64>, StoreError> {
        match self.take(name) {
            None => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| {
                bad_url(
                    url,
                    format!("option `{name}={v}`: expected a non-negative integer"),
                )
            }),
        }
    }

    /// The options nobody took, in URL order (for client libraries).
    pub(crate) fn into_pairs(self) -> Vec<(String, String)> {
        self.pairs
    }

    /// Fails if an option is left over (unknown); `known` lists the
    /// options this store takes, for the message.
    pub(crate) fn finish(&self, url: &str, known: &[&str]) -> Result<(), StoreError> {
        match self.pairs.first() {
            None => Ok(()),
            Some((k, _)) => Err(bad_url(
                url,
                format!("unknown option `{k}` (known: {})", known.join(", ")),
            )),
        }
    }
}
