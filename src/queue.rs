//! queue (work in progress).
