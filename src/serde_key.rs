//! serde keys (work in progress).
