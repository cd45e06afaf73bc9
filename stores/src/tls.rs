//! What the server adapters share for TLS and credentials: reading PEM
//! files, the environment variables of the stores' own tools, and the
//! rustls crypto provider (`ring`: no cmake, no nasm, no OpenSSL).

#![allow(dead_code)] // each adapter uses a part

use lexikey::store::StoreError;

/// A non-empty environment variable.
pub(crate) fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The bytes of a PEM file named by a URL option or variable (`what`, for
/// the message).
pub(crate) fn read_pem(store: &'static str, what: &str, path: &str) -> Result<Vec<u8>, StoreError> {
    std::fs::read(path)
        .map_err(|e| StoreError::fatal(store, format!("cannot read the {what} file {path:?}: {e}")))
}

/// Makes `ring` the process's rustls provider unless one is set already
/// (the `redis` crate builds its TLS configuration from the default).
#[cfg(any(feature = "redis", feature = "postgres"))]
pub(crate) fn install_ring() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Another thread may win the race: either way one provider is set.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}
