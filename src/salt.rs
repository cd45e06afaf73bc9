//! salt (work in progress).
