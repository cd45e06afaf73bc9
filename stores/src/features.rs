//! The store adapters and their cargo features: which ones this build has
//! ([`compiled_stores`], what `lexikey --version` names), and the error of
//! a URL whose adapter this build lacks.
//!
//! The features themselves are declared in `stores/Cargo.toml`, and every
//! front end (`cli/`, `python/`, `java/`, `history/`) forwards the same set
//! under the same names (see the [crate docs](crate#cargo-features));
//! [`STORE_FEATURES`] is that list, checked against the manifests by
//! `stores/tests/features.rs`.

use lexikey::store::StoreError;

use crate::{redact_url, STORE_NAME};

/// The cargo feature of each store adapter, in the order `lexikey
/// --version` names them: `redb` (on by default) first, then the ones a
/// front end forwards. `memory:` needs none.
pub const STORE_FEATURES: &[&str] = &[
    "redb", "redis", "postgres", "etcd", "rocksdb", "slatedb", "bigtable", "dynamodb",
];

/// Whether this build has the adapter of a feature in [`STORE_FEATURES`].
// Not `matches!`: with every feature on, every arm is `true`.
#[allow(clippy::match_like_matches_macro)]
const fn compiled(feature: &str) -> bool {
    match feature.as_bytes() {
        b"redb" => cfg!(feature = "redb"),
        b"redis" => cfg!(feature = "redis"),
        b"postgres" => cfg!(feature = "postgres"),
        b"etcd" => cfg!(feature = "etcd"),
        b"rocksdb" => cfg!(feature = "rocksdb"),
        b"slatedb" => cfg!(feature = "slatedb"),
        b"bigtable" => cfg!(feature = "bigtable"),
        b"dynamodb" => cfg!(feature = "dynamodb"),
        _ => false,
    }
}

/// The stores this build opens: `memory`, then the feature of each adapter
/// compiled in, in [`STORE_FEATURES`] order (`lexikey --version`'s list).
///
/// ```
/// let stores = lexikey_stores::compiled_stores();
/// assert_eq!(stores[..2], ["memory", "redb"]);
/// ```
pub fn compiled_stores() -> Vec<&'static str> {
    let mut stores = vec!["memory"];
    stores.extend(STORE_FEATURES.iter().copied().filter(|f| compiled(f)));
    stores
}

/// The cargo feature a URL scheme needs, when this build lacks it.
pub(crate) fn missing(scheme: &str) -> Option<&'static str> {
    feature_of(scheme).filter(|f| !compiled(f))
}

/// The cargo feature of a URL scheme's adapter (`None`: `memory`, or no
/// such scheme).
fn feature_of(scheme: &str) -> Option<&'static str> {
    Some(match scheme {
        "redb" => "redb",
        "rocksdb" => "rocksdb",
        "slatedb" => "slatedb",
        "redis" | "rediss" => "redis",
        "postgres" | "postgresql" => "postgres",
        "etcd" | "etcd+https" => "etcd",
        "bigtable" => "bigtable",
        "dynamodb" => "dynamodb",
        _ => return None,
    })
}

/// A store whose adapter this build lacks: the message says how each front
/// end gets it (issue 38: `pip install ./python` has no Bigtable, and the
/// error said only which cargo feature was missing).
pub(crate) fn missing_feature(url: &str, feature: &str) -> StoreError {
    StoreError::fatal(
        STORE_NAME,
        format!(
            "`{}` needs lexikey-stores built with cargo feature `{feature}`: for the command \
             line, cargo install --path cli --features {feature}; for Python, \
             MATURIN_PEP517_ARGS=\"--features {feature}\" pip install ./python",
            redact_url(url)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_feature_says_how_to_get_it() {
        let e = missing_feature("bigtable://p/i?emulator=127.0.0.1:1", "bigtable").to_string();
        assert!(
            e.ends_with(
                "needs lexikey-stores built with cargo feature `bigtable`: for the command line, \
                 cargo install --path cli --features bigtable; for Python, \
                 MATURIN_PEP517_ARGS=\"--features bigtable\" pip install ./python"
            ),
            "{e}"
        );
    }

    #[test]
    fn every_scheme_has_a_listed_feature() {
        for (scheme, url) in [
            ("redb", "redb:x"),
            ("rocksdb", "rocksdb:x"),
            ("slatedb", "slatedb:x"),
            ("redis", "redis://h:1"),
            ("rediss", "rediss://h:1"),
            ("postgres", "postgres://u@h:1/db"),
            ("postgresql", "postgresql://u@h:1/db"),
            ("etcd", "etcd://h:1"),
            ("etcd+https", "etcd+https://h:1"),
            ("bigtable", "bigtable://p/i"),
            (
                "dynamodb",
                "dynamodb://tab?endpoint=http://127.0.0.1:1&region=us-east-1",
            ),
        ] {
            let feature = feature_of(scheme).unwrap();
            assert!(STORE_FEATURES.contains(&feature), "{scheme}");
            assert_eq!(crate::parse_url(url).unwrap().feature(), Some(feature));
            assert_eq!(missing(scheme).is_some(), !compiled(feature));
        }
        assert_eq!(feature_of("memory"), None);
        assert_eq!(missing("nosuch"), None);
        let on = STORE_FEATURES.iter().filter(|f| compiled(f)).count();
        assert_eq!(compiled_stores().len(), 1 + on);
    }
}
