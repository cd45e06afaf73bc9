//! geo (work in progress).
