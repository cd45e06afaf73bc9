//! Decreasing row-ID allocator for upside-down tables (in progress).
