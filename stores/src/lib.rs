//! lexikey store adapters (in progress).
