//! The checker: counts and violations of one [`History`] (the rules are in
//! the [crate docs](crate)).
//!
//! Every rule but real-time order is a lookup in hash maps built once (O(n));
//! real-time order is one sort and one sweep (O(n log n)): for each `ok` op
//! B in invocation order, the `ok` ops that completed strictly before B was
//! invoked form a growing set, and the rule holds for B exactly when the
//! smallest ID of that set is greater than B's. A violating B is reported
//! with that smallest-ID op as its witness A (one pair per B, not every
//! pair: that could be quadratic).

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::history::{AllocOp, DeleteOp, History, Outcome, ReadRow};

/// A broken rule, with the lines that show it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Violation {
    /// unique: two `ok` ops got one ID.
    DuplicateId {
        /// The ID.
        id: u64,
        /// The earlier op's line.
        first: usize,
        /// The later op's line.
        second: usize,
    },
    /// unique: two rows for one ID.
    DuplicateRow {
        /// The ID.
        id: u64,
        /// The rows' lines.
        first: usize,
        /// The second row's line.
        second: usize,
    },
    /// no lost write: an `ok` op's ID has no row (and was not deleted).
    LostWrite {
        /// The op's line.
        op: usize,
        /// Its ID.
        id: u64,
    },
    /// no lost write: an `ok` op's ID is burned (a tombstone, no row).
    BurnedButAcknowledged {
        /// The op's line.
        op: usize,
        /// The `burned` line.
        burned: usize,
        /// The ID.
        id: u64,
    },
    /// unique: a row and a tombstone (or two tombstones) for one ID.
    BurnedTwice {
        /// The ID.
        id: u64,
        /// The first line (a row or a `burned` line).
        first: usize,
        /// The `burned` line.
        second: usize,
    },
    /// no lost write: an `ok` op's row holds another value.
    WrongValue {
        /// The op's line.
        op: usize,
        /// The row's line.
        row: usize,
        /// The ID.
        id: u64,
    },
    /// no lost write: a `fail` op's value is in a row.
    FailedButWritten {
        /// The op's line.
        op: usize,
        /// The row's line.
        row: usize,
    },
    /// exactly once: one op's value in two rows.
    WrittenTwice {
        /// The op's line (0 when no op wrote the value).
        op: usize,
        /// The first row's line.
        first: usize,
        /// The second row's line.
        second: usize,
    },
    /// exactly once: a row whose value no op wrote.
    UnknownRow {
        /// The row's line.
        row: usize,
    },
    /// real-time order: `earlier` completed before `later` was invoked, yet
    /// `id(earlier) <= id(later)`.
    Order {
        /// Op A's line.
        earlier: usize,
        /// Op B's line.
        later: usize,
    },
    /// no reuse: a deleted row's ID was handed out again (to an op, or is
    /// held by a row with another value).
    Reuse {
        /// The delete's line.
        delete: usize,
        /// The line of the op (or row) that got the ID again.
        reused_by: usize,
        /// The ID.
        id: u64,
    },
}

impl Violation {
    /// The short name of the rule.
    pub fn rule(&self) -> &'static str {
        match self {
            Violation::DuplicateId { .. }
            | Violation::DuplicateRow { .. }
            | Violation::BurnedTwice { .. } => "unique",
            Violation::LostWrite { .. }
            | Violation::BurnedButAcknowledged { .. }
            | Violation::WrongValue { .. }
            | Violation::FailedButWritten { .. } => "lost-write",
            Violation::WrittenTwice { .. } | Violation::UnknownRow { .. } => "exactly-once",
            Violation::Order { .. } => "real-time-order",
            Violation::Reuse { .. } => "reuse",
        }
    }

    /// The history lines it links (for the picture: the pair to draw).
    pub fn lines(&self) -> (usize, Option<usize>) {
        match *self {
            Violation::DuplicateId { first, second, .. }
            | Violation::DuplicateRow { first, second, .. }
            | Violation::BurnedTwice { first, second, .. }
            | Violation::WrittenTwice { first, second, .. } => (first, Some(second)),
            Violation::LostWrite { op, .. } => (op, None),
            Violation::BurnedButAcknowledged { op, burned, .. } => (op, Some(burned)),
            Violation::WrongValue { op, row, .. } | Violation::FailedButWritten { op, row } => {
                (op, Some(row))
            }
            Violation::UnknownRow { row } => (row, None),
            Violation::Order { earlier, later } => (earlier, Some(later)),
            Violation::Reuse {
                delete, reused_by, ..
            } => (delete, Some(reused_by)),
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.rule();
        match self {
            Violation::DuplicateId { id, first, second } => {
                write!(f, "{r}: ID {id} acknowledged twice (lines {first} and {second})")
            }
            Violation::DuplicateRow { id, first, second } => {
                write!(f, "{r}: two rows for ID {id} (lines {first} and {second})")
            }
            Violation::LostWrite { op, id } => {
                write!(f, "{r}: the ok op of line {op} got ID {id}, which has no row")
            }
            Violation::BurnedButAcknowledged { op, burned, id } => write!(
                f,
                "{r}: the ok op of line {op} got ID {id}, which is burned (line {burned})"
            ),
            Violation::BurnedTwice { id, first, second } => write!(
                f,
                "{r}: ID {id} is burned (line {second}) and read again (line {first})"
            ),
            Violation::WrongValue { op, row, id } => write!(
                f,
                "{r}: the ok op of line {op} got ID {id}, whose row (line {row}) holds another value"
            ),
            Violation::FailedButWritten { op, row } => write!(
                f,
                "{r}: the failed op of line {op} was written (row of line {row})"
            ),
            Violation::WrittenTwice { op, first, second } => write!(
                f,
                "{r}: the value of the op of line {op} is in two rows (lines {first} and {second})"
            ),
            Violation::UnknownRow { row } => {
                write!(f, "{r}: the row of line {row} holds a value no op wrote")
            }
            Violation::Order { earlier, later } => write!(
                f,
                "{r}: the op of line {earlier} completed before the op of line {later} was \
                 invoked, but did not get a larger ID"
            ),
            Violation::Reuse {
                delete,
                reused_by,
                id,
            } => write!(
                f,
                "{r}: ID {id}, deleted on line {delete}, was handed out again (line {reused_by})"
            ),
        }
    }
}

/// What one run's history shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Alloc ops.
    pub ops: usize,
    /// Acknowledged.
    pub ok: usize,
    /// Certainly not applied.
    pub fail: usize,
    /// Unknown.
    pub info: usize,
    /// `info` ops whose value is in a row (they did happen).
    pub info_present: usize,
    /// Rows read.
    pub rows: usize,
    /// Burned IDs read (tombstones: no rows).
    pub burned: usize,
    /// Deletes logged.
    pub deletes: usize,
    /// Every violation found.
    pub violations: Vec<Violation>,
}

impl Report {
    /// `N ops (ok X, fail Y, info Z), V violations` (the end of
    /// `scripts/history.sh`'s last line).
    pub fn summary(&self) -> String {
        format!(
            "{} ops (ok {}, fail {}, info {}), {} violations",
            self.ops,
            self.ok,
            self.fail,
            self.info,
            self.violations.len()
        )
    }
}

/// Checks a history (see the module docs).
pub fn check(h: &History) -> Report {
    let mut r = Report {
        ops: h.ops.len(),
        rows: h.reads.len(),
        burned: h.burned.len(),
        deletes: h.deletes.len(),
        ..Report::default()
    };
    for op in &h.ops {
        match op.outcome {
            Outcome::Ok => r.ok += 1,
            Outcome::Fail => r.fail += 1,
            Outcome::Info => r.info += 1,
        }
    }
    let v = &mut r.violations;

    // unique: acknowledged IDs.
    let mut ok_by_id: HashMap<u64, &AllocOp> = HashMap::new();
    for op in h.ops.iter().filter(|o| o.outcome == Outcome::Ok) {
        let id = op.id.expect("ok ops have an ID (parser)");
        if let Some(first) = ok_by_id.insert(id, op) {
            v.push(Violation::DuplicateId {
                id,
                first: first.line,
                second: op.line,
            });
        }
    }
    // unique: rows.
    let mut row_by_id: HashMap<u64, Vec<&ReadRow>> = HashMap::new();
    for row in &h.reads {
        let rows = row_by_id.entry(row.id).or_default();
        if let Some(first) = rows.first() {
            v.push(Violation::DuplicateRow {
                id: row.id,
                first: first.line,
                second: row.line,
            });
        }
        rows.push(row);
    }

    // unique: a burned ID is no row, and burned once.
    let mut burned_by_id: HashMap<u64, usize> = HashMap::new();
    for b in &h.burned {
        let earlier = row_by_id
            .get(&b.id)
            .and_then(|rows| rows.first())
            .map(|r| r.line)
            .or_else(|| burned_by_id.get(&b.id).copied());
        if let Some(first) = earlier {
            v.push(Violation::BurnedTwice {
                id: b.id,
                first,
                second: b.line,
            });
        }
        let _ = burned_by_id.entry(b.id).or_insert(b.line);
    }

    // Rows by value; exactly once.
    let op_by_value: HashMap<&[u8], &AllocOp> =
        h.ops.iter().map(|o| (o.value.as_slice(), o)).collect();
    let mut row_by_value: HashMap<&[u8], &ReadRow> = HashMap::new();
    for row in &h.reads {
        let op = op_by_value.get(row.value.as_slice());
        if op.is_none() {
            v.push(Violation::UnknownRow { row: row.line });
        }
        if let Some(first) = row_by_value.insert(&row.value, row) {
            v.push(Violation::WrittenTwice {
                op: op.map_or(0, |o| o.line),
                first: first.line,
                second: row.line,
            });
        }
    }
    for op in &h.ops {
        if let Some(row) = row_by_value.get(op.value.as_slice()) {
            match op.outcome {
                Outcome::Fail => v.push(Violation::FailedButWritten {
                    op: op.line,
                    row: row.line,
                }),
                Outcome::Info => r.info_present += 1,
                Outcome::Ok => {}
            }
        }
    }

    // Deleted rows: (id, value) pairs whose delete may have applied.
    let deleted: HashSet<(u64, &[u8])> = h
        .deletes
        .iter()
        .filter(|d| d.outcome != Outcome::Fail)
        .map(|d| (d.id, d.value.as_slice()))
        .collect();

    // no lost write.
    for op in h.ops.iter().filter(|o| o.outcome == Outcome::Ok) {
        let id = op.id.expect("ok ops have an ID");
        let rows = row_by_id.get(&id).map_or(&[][..], Vec::as_slice);
        match rows.first() {
            Some(_) if rows.iter().any(|r| r.value == op.value) => {}
            Some(row) => {
                // A row of another value under a deleted ID is reuse,
                // reported below.
                if !deleted.contains(&(id, op.value.as_slice())) {
                    v.push(Violation::WrongValue {
                        op: op.line,
                        row: row.line,
                        id,
                    });
                }
            }
            None if deleted.contains(&(id, op.value.as_slice())) => {}
            None => match burned_by_id.get(&id) {
                Some(&burned) => v.push(Violation::BurnedButAcknowledged {
                    op: op.line,
                    burned,
                    id,
                }),
                None => v.push(Violation::LostWrite { op: op.line, id }),
            },
        }
    }

    real_time_order(&h.ops, v);
    reuse(&h.deletes, &h.ops, &h.reads, v);
    r
}

/// real-time order, O(n log n) (see the module docs).
fn real_time_order(ops: &[AllocOp], v: &mut Vec<Violation>) {
    let mut ok: Vec<&AllocOp> = ops.iter().filter(|o| o.outcome == Outcome::Ok).collect();
    let mut by_invoke = ok.clone();
    ok.sort_by_key(|o| o.complete_ns);
    by_invoke.sort_by_key(|o| o.invoke_ns);
    let mut done = ok.into_iter().peekable();
    // The op with the smallest ID among those completed so far.
    let mut min: Option<&AllocOp> = None;
    for b in by_invoke {
        while let Some(a) = done.next_if(|a| a.complete_ns < b.invoke_ns) {
            if min.is_none_or(|m| a.id < m.id) {
                min = Some(a);
            }
        }
        if let Some(a) = min {
            if a.id <= b.id {
                v.push(Violation::Order {
                    earlier: a.line,
                    later: b.line,
                });
            }
        }
    }
}

/// no reuse: a deleted (ID, value) row's ID later held by another value.
fn reuse(deletes: &[DeleteOp], ops: &[AllocOp], reads: &[ReadRow], v: &mut Vec<Violation>) {
    let mut first_delete: HashMap<u64, &DeleteOp> = HashMap::new();
    for d in deletes.iter().filter(|d| d.outcome != Outcome::Fail) {
        let e = first_delete.entry(d.id).or_insert(d);
        if d.invoke_ns < e.invoke_ns {
            *e = d;
        }
    }
    if first_delete.is_empty() {
        return;
    }
    let mut reported: HashSet<usize> = HashSet::new();
    for op in ops.iter().filter(|o| o.outcome != Outcome::Fail) {
        let Some(id) = op.id else { continue };
        if let Some(d) = first_delete.get(&id) {
            if d.value != op.value && reported.insert(op.line) {
                v.push(Violation::Reuse {
                    delete: d.line,
                    reused_by: op.line,
                    id,
                });
            }
        }
    }
    let op_line: HashMap<&[u8], usize> = ops.iter().map(|o| (o.value.as_slice(), o.line)).collect();
    for row in reads {
        if let Some(d) = first_delete.get(&row.id) {
            if d.value != row.value {
                // Reported once: through the op that wrote the row, if any.
                let by = op_line.get(row.value.as_slice()).copied();
                if by.is_none_or(|l| reported.insert(l)) {
                    v.push(Violation::Reuse {
                        delete: d.line,
                        reused_by: by.unwrap_or(row.line),
                        id: row.id,
                    });
                }
            }
        }
    }
}

/// The report as text: the counts, then each violation with its lines.
pub fn describe(h: &History, r: &Report) -> String {
    // Only the lines the violations name are rendered.
    let wanted: HashSet<usize> = r
        .violations
        .iter()
        .flat_map(|v| {
            let (a, b) = v.lines();
            [Some(a), b]
        })
        .flatten()
        .collect();
    let mut lines: HashMap<usize, String> = HashMap::new();
    for o in h.ops.iter().filter(|o| wanted.contains(&o.line)) {
        let _ = lines.insert(o.line, crate::history::render_alloc(o));
    }
    for row in h.reads.iter().filter(|r| wanted.contains(&r.line)) {
        let _ = lines.insert(row.line, crate::history::render_read(row.id, &row.value));
    }
    for d in h.deletes.iter().filter(|d| wanted.contains(&d.line)) {
        let _ = lines.insert(d.line, crate::history::render_delete(d));
    }
    for b in h.burned.iter().filter(|b| wanted.contains(&b.line)) {
        let _ = lines.insert(b.line, crate::history::render_burned(b.id));
    }
    let mut out = format!(
        "{} ({} info ops present in the table, {} rows, {} burned IDs, {} deletes)\n",
        r.summary(),
        r.info_present,
        r.rows,
        r.burned,
        r.deletes
    );
    for v in &r.violations {
        out.push_str(&format!("violation: {v}\n"));
        let (a, b) = v.lines();
        for l in [Some(a), b].into_iter().flatten() {
            if let Some(text) = lines.get(&l) {
                out.push_str(&format!("  line {l}: {text}\n"));
            }
        }
    }
    out
}
