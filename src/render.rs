//! Rendering key ranges in each store's own syntax (in progress).
