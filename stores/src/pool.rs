//! A minimal connection pool for the server adapters: idle connections in a
//! mutex-guarded stack. A connection is returned only after an operation
//! that left it usable; a broken one is dropped and the next caller
//! connects afresh.

#![allow(dead_code)] // unused when no server feature is on

use std::sync::Mutex;

/// Idle connections, at most `max_idle` kept.
#[derive(Debug)]
pub(crate) struct Pool<C> {
    idle: Mutex<Vec<C>>,
    max_idle: usize,
}

impl<C> Pool<C> {
    pub(crate) fn new(max_idle: usize) -> Self {
        Pool {
            idle: Mutex::new(Vec::new()),
            max_idle,
        }
    }

    /// An idle connection, if there is one.
    pub(crate) fn take(&self) -> Option<C> {
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop()
    }

    /// Gives a usable connection back.
    pub(crate) fn put(&self, c: C) {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < self.max_idle {
            idle.push(c);
        }
    }

    /// Drops every idle connection (after a server restart, say).
    pub(crate) fn clear(&self) {
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}
