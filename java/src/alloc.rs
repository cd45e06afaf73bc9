//! `lexikey.Allocator`: decreasing row IDs for upside-down tables, opened
//! exactly as `lexikey alloc` and Python's `Allocator` open them: all three
//! call [`lexikey_stores::open_allocator`], so the store's tuning and key
//! rule are the same. The table's rows are the keys `(str:TABLE, u64:ID)`.

use std::sync::Arc;

use lexikey::store::alloc::Allocator;
use lexikey::store::Store;
use lexikey::Format;
use lexikey_stores::{OpenError, TableOptions};

use crate::errors::{alloc_err, arg_err, Error};
use crate::wire::Writer;

/// An open table.
pub(crate) type Table = Allocator<Arc<dyn Store>>;

/// The options of `lexikey.AllocatorOptions`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    /// The key format name (`hex`, `base64`, `decimal`, `binary`).
    pub(crate) format: String,
    /// The reuse guard.
    pub(crate) guard: bool,
    /// An empty table's first ID.
    pub(crate) start: Option<u64>,
    /// The smallest ID handed out.
    pub(crate) floor: Option<u64>,
    /// Open for reading ([`TableOptions::existing_only`]).
    pub(crate) read_only: bool,
}

/// Opens table `table` in the store at `url`.
pub(crate) fn open(url: &str, table: &str, o: &Options) -> Result<Table, Error> {
    let format = Format::parse(&o.format).map_err(|e| {
        arg_err(format!(
            "{e} (an allocator's keys are in a native format: hex, base64, decimal or binary)"
        ))
    })?;
    let mut options = TableOptions::new(format)
        .with_guard(o.guard)
        .with_existing_only(o.read_only);
    if let Some(start) = o.start {
        options = options.with_start(start);
    }
    if let Some(floor) = o.floor {
        options = options.with_floor(floor);
    }
    lexikey_stores::open_allocator(url, table, &options).map_err(|e| match e {
        OpenError::Alloc(e) => alloc_err(&e, &[]),
        // The store does not open: an I/O failure, with the command line's
        // message.
        e @ OpenError::Store { .. } => Error::Store(e.to_string()),
        // A URL that does not parse (OpenError::BadUrl), or row keys that
        // break the store's key rule.
        e => arg_err(e.to_string()),
    })
}

/// Writes rows `(id, value)`: a count, then each ID and value.
pub(crate) fn write_rows(rows: &[(u64, Vec<u8>)]) -> Vec<u8> {
    let mut w = Writer::default();
    w.u32(rows.len());
    for (id, v) in rows {
        w.buf.extend_from_slice(&id.to_le_bytes());
        w.raw_bytes(v);
    }
    w.buf
}
