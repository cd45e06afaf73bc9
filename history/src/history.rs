//! The lines of a history: parsing (with the line number of every error)
//! and rendering in the exact format of the crate docs.

use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write as _};

use serde_json::{Map, Value};

/// What a client learnt about one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Acknowledged: the call returned its ID.
    Ok,
    /// Certainly not applied.
    Fail,
    /// Unknown: may or may not have been applied.
    Info,
}

impl Outcome {
    /// `ok`, `fail` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Fail => "fail",
            Outcome::Info => "info",
        }
    }

    fn parse(s: &str) -> Option<Outcome> {
        match s {
            "ok" => Some(Outcome::Ok),
            "fail" => Some(Outcome::Fail),
            "info" => Some(Outcome::Info),
            _ => None,
        }
    }
}

/// One allocation call (`"op": "alloc"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllocOp {
    /// The 1-based line of the history it came from (0: built in code).
    pub line: usize,
    /// The client (a lane of the timeline).
    pub client: u64,
    /// When the call started.
    pub invoke_ns: u64,
    /// When it returned (for a killed client: when it was killed).
    pub complete_ns: u64,
    /// What the client learnt.
    pub outcome: Outcome,
    /// The ID the call returned or named, if any.
    pub id: Option<u64>,
    /// The value it wrote.
    pub value: Vec<u8>,
}

/// One row read from the store at the end (`"op": "read"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadRow {
    /// The 1-based line.
    pub line: usize,
    /// The row's ID.
    pub id: u64,
    /// What it holds.
    pub value: Vec<u8>,
}

/// One burned ID read from the store at the end (`"op": "burned"`): a
/// tombstone the allocator wrote so that a write whose outcome it did not
/// know can never land (see [`lexikey::store::alloc`]). No row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BurnedId {
    /// The 1-based line.
    pub line: usize,
    /// The burned ID.
    pub id: u64,
}

/// One delete of a row by the deleter (`"op": "delete"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeleteOp {
    /// The 1-based line.
    pub line: usize,
    /// When the delete started.
    pub invoke_ns: u64,
    /// When it returned.
    pub complete_ns: u64,
    /// `ok` (deleted, or already gone), `fail` (not applied), `info`.
    pub outcome: Outcome,
    /// The deleted row's ID.
    pub id: u64,
    /// What the row held when the deleter read it.
    pub value: Vec<u8>,
}

/// One injected fault (`"op": "fault"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// The 1-based line.
    pub line: usize,
    /// `kill`, `pause`, `kill-client`, `partition`, ….
    pub fault: String,
    /// What it hit (`redis`, `etcd leader m2`, `client 3`, …).
    pub target: String,
    /// When it started.
    pub start_ns: u64,
    /// When it ended (the server answered again, the client was replaced).
    pub end_ns: u64,
}

/// A parsed history.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History {
    /// The allocation calls, in the order of their lines.
    pub ops: Vec<AllocOp>,
    /// The rows read at the end.
    pub reads: Vec<ReadRow>,
    /// The burned IDs read at the end.
    pub burned: Vec<BurnedId>,
    /// The deletes.
    pub deletes: Vec<DeleteOp>,
    /// The faults.
    pub faults: Vec<Fault>,
}

/// A line that is not a history line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl std::error::Error for ParseError {}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// An `invoke` line: a call that started (client, time, value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invoke {
    /// The 1-based line.
    pub line: usize,
    /// The client.
    pub client: u64,
    /// When the call started.
    pub invoke_ns: u64,
    /// The value it writes.
    pub value: Vec<u8>,
}

/// A `delete-invoke` line: a delete that started (time, row). The deleter
/// writes it before it deletes and its `delete` line after; a deleter killed
/// in between (RocksDB's, a thread of a client process) leaves this line
/// alone, and [`History::complete_invokes`] makes it an `info` delete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeleteInvoke {
    /// The 1-based line.
    pub line: usize,
    /// When the delete started.
    pub invoke_ns: u64,
    /// The row's ID.
    pub id: u64,
    /// What the row held when the deleter read it.
    pub value: Vec<u8>,
}

/// The `invoke` and `delete-invoke` lines of a history, waiting for
/// [`History::complete_invokes`] to match them with their completions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pending {
    /// The `invoke` lines.
    pub allocs: Vec<Invoke>,
    /// The `delete-invoke` lines.
    pub deletes: Vec<DeleteInvoke>,
}

/// One parsed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// `"op": "alloc"`.
    Alloc(AllocOp),
    /// `"op": "invoke"`.
    Invoke(Invoke),
    /// `"op": "delete-invoke"`.
    DeleteInvoke(DeleteInvoke),
    /// `"op": "read"`.
    Read(ReadRow),
    /// `"op": "burned"`.
    Burned(BurnedId),
    /// `"op": "delete"`.
    Delete(DeleteOp),
    /// `"op": "fault"`.
    Fault(Fault),
}

struct Fields<'a> {
    obj: &'a Map<String, Value>,
    line: usize,
}

impl Fields<'_> {
    fn err(&self, message: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            message: message.into(),
        }
    }

    fn u64(&self, name: &str) -> Result<u64, ParseError> {
        match self.obj.get(name) {
            Some(v) => v
                .as_u64()
                .ok_or_else(|| self.err(format!("`{name}` must be a non-negative integer"))),
            None => Err(self.err(format!("missing `{name}`"))),
        }
    }

    fn opt_u64(&self, name: &str) -> Result<Option<u64>, ParseError> {
        match self.obj.get(name) {
            Some(Value::Null) => Ok(None),
            Some(_) => self.u64(name).map(Some),
            None => Err(self.err(format!("missing `{name}`"))),
        }
    }

    fn str(&self, name: &str) -> Result<&str, ParseError> {
        match self.obj.get(name) {
            Some(Value::String(s)) => Ok(s),
            Some(_) => Err(self.err(format!("`{name}` must be a string"))),
            None => Err(self.err(format!("missing `{name}`"))),
        }
    }

    fn outcome(&self) -> Result<Outcome, ParseError> {
        let s = self.str("outcome")?;
        Outcome::parse(s)
            .ok_or_else(|| self.err(format!("`outcome` must be ok, fail or info, not {s:?}")))
    }

    fn value(&self) -> Result<Vec<u8>, ParseError> {
        let s = self.str("value")?;
        unhex(s).ok_or_else(|| self.err(format!("`value` {s:?} is not hex (pairs of 0-9 A-F)")))
    }

    fn only(&self, names: &[&str]) -> Result<(), ParseError> {
        match self.obj.keys().find(|k| !names.contains(&k.as_str())) {
            Some(k) => Err(self.err(format!("unknown field `{k}`"))),
            None => Ok(()),
        }
    }
}

/// Parses one line (`number`: its 1-based line number).
///
/// # Errors
/// Not a JSON object, an unknown `op`, a missing or mistyped field, an
/// unknown field, `complete_ns < invoke_ns`.
pub fn parse_line(text: &str, number: usize) -> Result<Line, ParseError> {
    let err = |message: String| ParseError {
        line: number,
        message,
    };
    let v: Value =
        serde_json::from_str(text).map_err(|e| err(format!("not a JSON object: {e}")))?;
    let Value::Object(obj) = &v else {
        return Err(err("not a JSON object".into()));
    };
    let f = Fields { obj, line: number };
    let times = |a: u64, b: u64| {
        if b < a {
            Err(err(format!("complete_ns {b} is before invoke_ns {a}")))
        } else {
            Ok(())
        }
    };
    let line = match f.str("op")? {
        "alloc" => {
            f.only(&[
                "client",
                "op",
                "invoke_ns",
                "complete_ns",
                "outcome",
                "id",
                "value",
            ])?;
            let op = AllocOp {
                line: number,
                client: f.u64("client")?,
                invoke_ns: f.u64("invoke_ns")?,
                complete_ns: f.u64("complete_ns")?,
                outcome: f.outcome()?,
                id: f.opt_u64("id")?,
                value: f.value()?,
            };
            times(op.invoke_ns, op.complete_ns)?;
            if op.outcome == Outcome::Ok && op.id.is_none() {
                return Err(err("an ok alloc must have an id".into()));
            }
            Line::Alloc(op)
        }
        "invoke" => {
            f.only(&["client", "op", "invoke_ns", "value"])?;
            Line::Invoke(Invoke {
                line: number,
                client: f.u64("client")?,
                invoke_ns: f.u64("invoke_ns")?,
                value: f.value()?,
            })
        }
        "delete-invoke" => {
            f.only(&["op", "invoke_ns", "id", "value"])?;
            Line::DeleteInvoke(DeleteInvoke {
                line: number,
                invoke_ns: f.u64("invoke_ns")?,
                id: f.u64("id")?,
                value: f.value()?,
            })
        }
        "read" => {
            f.only(&["op", "id", "value"])?;
            Line::Read(ReadRow {
                line: number,
                id: f.u64("id")?,
                value: f.value()?,
            })
        }
        "burned" => {
            f.only(&["op", "id"])?;
            Line::Burned(BurnedId {
                line: number,
                id: f.u64("id")?,
            })
        }
        "delete" => {
            f.only(&["op", "invoke_ns", "complete_ns", "outcome", "id", "value"])?;
            let d = DeleteOp {
                line: number,
                invoke_ns: f.u64("invoke_ns")?,
                complete_ns: f.u64("complete_ns")?,
                outcome: f.outcome()?,
                id: f.u64("id")?,
                value: f.value()?,
            };
            times(d.invoke_ns, d.complete_ns)?;
            Line::Delete(d)
        }
        "fault" => {
            f.only(&["op", "fault", "target", "start_ns", "end_ns"])?;
            let x = Fault {
                line: number,
                fault: f.str("fault")?.to_string(),
                target: f.str("target")?.to_string(),
                start_ns: f.u64("start_ns")?,
                end_ns: f.u64("end_ns")?,
            };
            if x.end_ns < x.start_ns {
                return Err(err(format!(
                    "end_ns {} is before start_ns {}",
                    x.end_ns, x.start_ns
                )));
            }
            Line::Fault(x)
        }
        other => {
            return Err(err(format!(
                "unknown op {other:?} (alloc, read, delete, fault, invoke, delete-invoke)"
            )))
        }
    };
    Ok(line)
}

impl History {
    /// Parses a whole history. Blank lines are skipped. An `invoke` line
    /// whose value has no `alloc` line becomes an `info` op completing at
    /// the start of the first `kill-client` fault of its client that starts
    /// after it (see [`kill_time`]), else at the last time in the history;
    /// a `delete-invoke` line without its `delete` line becomes an `info`
    /// delete completing at the last time in the history.
    ///
    /// # Errors
    /// The first bad line; two alloc or invoke lines with one value.
    pub fn parse(text: &str) -> Result<History, ParseError> {
        let mut h = History::default();
        let mut pending = Pending::default();
        for (i, l) in text.lines().enumerate() {
            if l.trim().is_empty() {
                continue;
            }
            h.add(parse_line(l, i + 1)?, &mut pending);
        }
        h.complete_invokes(pending)?;
        Ok(h)
    }

    /// Adds a parsed line; an invoke goes to `pending`, for
    /// [`History::complete_invokes`] once every line is in.
    pub fn add(&mut self, line: Line, pending: &mut Pending) {
        match line {
            Line::Alloc(op) => self.ops.push(op),
            Line::Invoke(v) => pending.allocs.push(v),
            Line::DeleteInvoke(d) => pending.deletes.push(d),
            Line::Read(r) => self.reads.push(r),
            Line::Burned(b) => self.burned.push(b),
            Line::Delete(d) => self.deletes.push(d),
            Line::Fault(f) => self.faults.push(f),
        }
    }

    /// Turns the invokes without an `alloc` line into `info` ops, and the
    /// delete invokes without a `delete` line (same ID, value and
    /// `invoke_ns`) into `info` deletes; checks that no two calls share a
    /// value.
    ///
    /// # Errors
    /// Two alloc lines, or two invoke lines, with one value; an invoke whose
    /// alloc line has another client or time.
    pub fn complete_invokes(&mut self, pending: Pending) -> Result<(), ParseError> {
        let Pending {
            allocs: invokes,
            deletes: delete_invokes,
        } = pending;
        // Value -> index into self.ops.
        let mut by_value: HashMap<&[u8], usize> = HashMap::new();
        for (i, op) in self.ops.iter().enumerate() {
            if let Some(first) = by_value.insert(&op.value, i) {
                return Err(ParseError {
                    line: op.line,
                    message: format!(
                        "value {} was already written by the op of line {}: every call \
                         must write its own value",
                        hex(&op.value),
                        self.ops[first].line
                    ),
                });
            }
        }
        let end = self.last_ns();
        let mut seen: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut extra = Vec::new();
        for v in invokes {
            if let Some(first) = seen.insert(v.value.clone(), v.line) {
                return Err(ParseError {
                    line: v.line,
                    message: format!("value {} invoked twice (line {first})", hex(&v.value)),
                });
            }
            if let Some(&i) = by_value.get(v.value.as_slice()) {
                let op = &self.ops[i];
                if op.client != v.client || op.invoke_ns != v.invoke_ns {
                    return Err(ParseError {
                        line: v.line,
                        message: format!(
                            "invoke of value {} does not match its alloc line {} (client or \
                             invoke_ns differ)",
                            hex(&v.value),
                            op.line
                        ),
                    });
                }
                continue;
            }
            let complete = kill_time(&self.faults, v.client, v.invoke_ns).unwrap_or(end);
            extra.push(AllocOp {
                line: v.line,
                client: v.client,
                invoke_ns: v.invoke_ns,
                complete_ns: complete.max(v.invoke_ns),
                outcome: Outcome::Info,
                id: None,
                value: v.value,
            });
        }
        self.ops.extend(extra);
        let done: HashSet<(u64, u64, &[u8])> = self
            .deletes
            .iter()
            .map(|d| (d.id, d.invoke_ns, d.value.as_slice()))
            .collect();
        let unmatched: Vec<DeleteOp> = delete_invokes
            .into_iter()
            .filter(|d| !done.contains(&(d.id, d.invoke_ns, d.value.as_slice())))
            .map(|d| DeleteOp {
                line: d.line,
                invoke_ns: d.invoke_ns,
                // The deleter has no client number a kill-client fault
                // names: the delete may have applied at any time up to the
                // end.
                complete_ns: end.max(d.invoke_ns),
                outcome: Outcome::Info,
                id: d.id,
                value: d.value,
            })
            .collect();
        self.deletes.extend(unmatched);
        Ok(())
    }

    /// The last time any line mentions (0 for an empty history).
    pub fn last_ns(&self) -> u64 {
        let ops = self.ops.iter().map(|o| o.complete_ns);
        let dels = self.deletes.iter().map(|d| d.complete_ns);
        let faults = self.faults.iter().map(|f| f.end_ns);
        ops.chain(dels).chain(faults).max().unwrap_or(0)
    }

    /// The first time any line mentions (0 for an empty history).
    pub fn first_ns(&self) -> u64 {
        let ops = self.ops.iter().map(|o| o.invoke_ns);
        let dels = self.deletes.iter().map(|d| d.invoke_ns);
        let faults = self.faults.iter().map(|f| f.start_ns);
        ops.chain(dels).chain(faults).min().unwrap_or(0)
    }

    /// The history in the exact line format: alloc lines by invocation
    /// time, then deletes, faults, and the reads (rows, then burned IDs)
    /// last.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let mut ops: Vec<&AllocOp> = self.ops.iter().collect();
        ops.sort_by_key(|o| (o.invoke_ns, o.client, o.line));
        for o in ops {
            out.push_str(&render_alloc(o));
            out.push('\n');
        }
        let mut dels: Vec<&DeleteOp> = self.deletes.iter().collect();
        dels.sort_by_key(|d| (d.invoke_ns, d.line));
        for d in dels {
            out.push_str(&render_delete(d));
            out.push('\n');
        }
        let mut faults: Vec<&Fault> = self.faults.iter().collect();
        faults.sort_by_key(|f| (f.start_ns, f.line));
        for f in faults {
            out.push_str(&render_fault(f));
            out.push('\n');
        }
        for r in &self.reads {
            out.push_str(&render_read(r.id, &r.value));
            out.push('\n');
        }
        for b in &self.burned {
            out.push_str(&render_burned(b.id));
            out.push('\n');
        }
        out
    }
}

/// When a `kill-client` fault hit `client` after `after_ns`: the start of
/// the first such fault whose target is `client C` or `clients A-B` with
/// `A <= C <= B`.
pub fn kill_time(faults: &[Fault], client: u64, after_ns: u64) -> Option<u64> {
    faults
        .iter()
        .filter(|f| f.fault == "kill-client" && f.start_ns >= after_ns)
        .filter(|f| targets_client(&f.target, client))
        .map(|f| f.start_ns)
        .min()
}

fn targets_client(target: &str, client: u64) -> bool {
    if let Some(c) = target.strip_prefix("client ") {
        return c.parse() == Ok(client);
    }
    if let Some((a, b)) = target
        .strip_prefix("clients ")
        .and_then(|r| r.split_once('-'))
    {
        if let (Ok(a), Ok(b)) = (a.parse::<u64>(), b.parse::<u64>()) {
            return (a..=b).contains(&client);
        }
    }
    false
}

/// UPPERCASE hex.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02X}");
    }
    s
}

/// Parses hex (either case; an even number of digits).
pub fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    s.as_bytes()
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).ok()?, 16).ok())
        .collect()
}

fn json_str(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

fn opt(id: Option<u64>) -> String {
    id.map_or_else(|| "null".to_string(), |i| i.to_string())
}

/// An `alloc` line.
pub fn render_alloc(o: &AllocOp) -> String {
    format!(
        "{{\"client\": {}, \"op\": \"alloc\", \"invoke_ns\": {}, \"complete_ns\": {}, \"outcome\": \"{}\", \"id\": {}, \"value\": \"{}\"}}",
        o.client,
        o.invoke_ns,
        o.complete_ns,
        o.outcome.as_str(),
        opt(o.id),
        hex(&o.value)
    )
}

/// An `invoke` line (a client's own log only).
pub fn render_invoke(client: u64, invoke_ns: u64, value: &[u8]) -> String {
    format!(
        "{{\"client\": {client}, \"op\": \"invoke\", \"invoke_ns\": {invoke_ns}, \"value\": \"{}\"}}",
        hex(value)
    )
}

/// A `read` line.
pub fn render_read(id: u64, value: &[u8]) -> String {
    format!(
        "{{\"op\": \"read\", \"id\": {id}, \"value\": \"{}\"}}",
        hex(value)
    )
}

/// A `burned` line.
pub fn render_burned(id: u64) -> String {
    format!("{{\"op\": \"burned\", \"id\": {id}}}")
}

/// A `delete-invoke` line (the deleter's own log only).
pub fn render_delete_invoke(invoke_ns: u64, id: u64, value: &[u8]) -> String {
    format!(
        "{{\"op\": \"delete-invoke\", \"invoke_ns\": {invoke_ns}, \"id\": {id}, \"value\": \"{}\"}}",
        hex(value)
    )
}

/// A `delete` line.
pub fn render_delete(d: &DeleteOp) -> String {
    format!(
        "{{\"op\": \"delete\", \"invoke_ns\": {}, \"complete_ns\": {}, \"outcome\": \"{}\", \"id\": {}, \"value\": \"{}\"}}",
        d.invoke_ns,
        d.complete_ns,
        d.outcome.as_str(),
        d.id,
        hex(&d.value)
    )
}

/// A `fault` line.
pub fn render_fault(f: &Fault) -> String {
    format!(
        "{{\"op\": \"fault\", \"fault\": {}, \"target\": {}, \"start_ns\": {}, \"end_ns\": {}}}",
        json_str(&f.fault),
        json_str(&f.target),
        f.start_ns,
        f.end_ns
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_byte_for_byte() {
        let lines = [
            r#"{"client": 3, "op": "alloc", "invoke_ns": 10, "complete_ns": 20, "outcome": "ok", "id": 18446744073709551615, "value": "6333"}"#,
            r#"{"client": 0, "op": "alloc", "invoke_ns": 10, "complete_ns": 10, "outcome": "info", "id": null, "value": ""}"#,
            r#"{"op": "read", "id": 7, "value": "00FF"}"#,
            r#"{"op": "burned", "id": 18446744073709551614}"#,
            r#"{"op": "delete", "invoke_ns": 1, "complete_ns": 2, "outcome": "fail", "id": 7, "value": "00"}"#,
            r#"{"op": "fault", "fault": "pause", "target": "etcd \"m1\"", "start_ns": 1, "end_ns": 2}"#,
        ];
        for (i, l) in lines.iter().enumerate() {
            let back = match parse_line(l, i + 1).unwrap() {
                Line::Alloc(o) => render_alloc(&o),
                Line::Read(r) => render_read(r.id, &r.value),
                Line::Burned(b) => render_burned(b.id),
                Line::Delete(d) => render_delete(&d),
                Line::Fault(f) => render_fault(&f),
                Line::Invoke(_) | Line::DeleteInvoke(_) => unreachable!(),
            };
            assert_eq!(&back, l);
        }
        assert_eq!(
            render_invoke(2, 5, b"ab"),
            r#"{"client": 2, "op": "invoke", "invoke_ns": 5, "value": "6162"}"#
        );
    }

    #[test]
    fn bad_lines_name_their_line() {
        for (l, why) in [
            ("[]", "not a JSON object"),
            ("{", "not a JSON object"),
            (r#"{"op": "x"}"#, "unknown op"),
            (r#"{"op": "read", "id": -1, "value": ""}"#, "`id`"),
            (r#"{"op": "read", "id": 1, "value": "0"}"#, "not hex"),
            (r#"{"op": "read", "id": 1, "value": "zz"}"#, "not hex"),
            (r#"{"op": "read", "id": 1}"#, "missing `value`"),
            (
                r#"{"op": "read", "id": 1, "value": "", "x": 1}"#,
                "unknown field",
            ),
            (
                r#"{"client": 1, "op": "alloc", "invoke_ns": 5, "complete_ns": 4, "outcome": "ok", "id": 1, "value": ""}"#,
                "before",
            ),
            (
                r#"{"client": 1, "op": "alloc", "invoke_ns": 5, "complete_ns": 6, "outcome": "ok", "id": null, "value": ""}"#,
                "must have an id",
            ),
            (
                r#"{"client": 1, "op": "alloc", "invoke_ns": 5, "complete_ns": 6, "outcome": "maybe", "id": 1, "value": ""}"#,
                "outcome",
            ),
        ] {
            let e = History::parse(&format!("\n{l}\n")).unwrap_err();
            assert_eq!(e.line, 2, "{l}");
            assert!(e.message.contains(why), "{l}: {e}");
        }
    }

    #[test]
    fn unmatched_invokes_become_info() {
        let h = History::parse(concat!(
            r#"{"client": 1, "op": "invoke", "invoke_ns": 5, "value": "01"}"#,
            "\n",
            r#"{"client": 1, "op": "alloc", "invoke_ns": 5, "complete_ns": 9, "outcome": "ok", "id": 4, "value": "01"}"#,
            "\n",
            r#"{"client": 1, "op": "invoke", "invoke_ns": 10, "value": "02"}"#,
            "\n",
            r#"{"client": 2, "op": "invoke", "invoke_ns": 11, "value": "03"}"#,
            "\n",
            r#"{"op": "fault", "fault": "kill-client", "target": "clients 0-1", "start_ns": 12, "end_ns": 30}"#,
            "\n",
            r#"{"op": "fault", "fault": "kill", "target": "redis", "start_ns": 40, "end_ns": 50}"#,
        ))
        .unwrap();
        assert_eq!(h.ops.len(), 3);
        assert_eq!(
            (h.ops[1].outcome, h.ops[1].complete_ns),
            (Outcome::Info, 12)
        );
        assert_eq!(
            (h.ops[2].outcome, h.ops[2].complete_ns),
            (Outcome::Info, 50)
        );
        let deletes = History::parse(concat!(
            r#"{"op": "delete-invoke", "invoke_ns": 20, "id": 4, "value": "01"}"#,
            "\n",
            r#"{"op": "delete", "invoke_ns": 20, "complete_ns": 21, "outcome": "ok", "id": 4, "value": "01"}"#,
            "\n",
            r#"{"op": "delete-invoke", "invoke_ns": 22, "id": 5, "value": "02"}"#,
            "\n",
            r#"{"op": "fault", "fault": "kill-client", "target": "clients 0-1", "start_ns": 23, "end_ns": 30}"#,
        ))
        .unwrap();
        assert_eq!(deletes.deletes.len(), 2);
        let d = &deletes.deletes[1];
        assert_eq!(
            (d.id, d.outcome, d.invoke_ns, d.complete_ns),
            (5, Outcome::Info, 22, 30)
        );
        assert_eq!(
            render_delete_invoke(22, 5, b"\x02"),
            r#"{"op": "delete-invoke", "invoke_ns": 22, "id": 5, "value": "02"}"#
        );
        let twice = "{\"client\": 1, \"op\": \"invoke\", \"invoke_ns\": 5, \"value\": \"01\"}\n";
        assert!(History::parse(&twice.repeat(2))
            .unwrap_err()
            .message
            .contains("invoked twice"));
    }
}
