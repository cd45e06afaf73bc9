//! The checker on hand-made histories (one per kind of violation, and
//! correct ones), and on generated histories: correct ones give no
//! violation, and each planted bug is found.

use lexikey_history::check::{check, describe, Violation};
use lexikey_history::history::{hex, render_alloc, render_read};
use lexikey_history::{AllocOp, History, Outcome};
use proptest::prelude::*;

fn alloc(client: u64, t0: u64, t1: u64, outcome: &str, id: Option<u64>, value: &str) -> String {
    let id = id.map_or("null".to_string(), |i| i.to_string());
    format!(
        r#"{{"client": {client}, "op": "alloc", "invoke_ns": {t0}, "complete_ns": {t1}, "outcome": "{outcome}", "id": {id}, "value": "{}"}}"#,
        hex(value.as_bytes())
    )
}

fn read(id: u64, value: &str) -> String {
    format!(
        r#"{{"op": "read", "id": {id}, "value": "{}"}}"#,
        hex(value.as_bytes())
    )
}

fn delete(t0: u64, t1: u64, id: u64, value: &str) -> String {
    format!(
        r#"{{"op": "delete", "invoke_ns": {t0}, "complete_ns": {t1}, "outcome": "ok", "id": {id}, "value": "{}"}}"#,
        hex(value.as_bytes())
    )
}

fn run(lines: &[String]) -> (History, lexikey_history::Report) {
    let h = History::parse(&lines.join("\n")).expect("history parses");
    let r = check(&h);
    (h, r)
}

/// A correct history: two concurrent clients, an ok, a fail, an info that
/// landed and one that did not, a killed client, a fault.
fn correct() -> Vec<String> {
    vec![
        alloc(0, 10, 20, "ok", Some(100), "a"),
        alloc(1, 15, 40, "ok", Some(99), "b"), // concurrent with a: any order
        alloc(0, 25, 30, "fail", None, "c"),
        alloc(0, 31, 50, "info", Some(98), "d"), // landed
        alloc(1, 41, 60, "info", None, "e"),     // did not
        alloc(0, 51, 55, "ok", Some(97), "f"),
        r#"{"client": 1, "op": "invoke", "invoke_ns": 61, "value": "67"}"#.to_string(), // killed
        r#"{"op": "fault", "fault": "kill-client", "target": "client 1", "start_ns": 62, "end_ns": 70}"#.to_string(),
        alloc(1, 71, 80, "ok", Some(95), "h"), // 96 is g's orphan row
        read(95, "h"),
        read(96, "g"),
        read(97, "f"),
        read(98, "d"),
        read(99, "b"),
        read(100, "a"),
    ]
}

#[test]
fn a_correct_history_has_no_violation() {
    let (h, r) = run(&correct());
    assert_eq!(r.violations, vec![], "{}", describe(&h, &r));
    assert_eq!((r.ops, r.ok, r.fail, r.info), (8, 4, 1, 3));
    assert_eq!(r.info_present, 2);
    assert_eq!(r.summary(), "8 ops (ok 4, fail 1, info 3), 0 violations");
    // The synthesized info op of the killed client ends at the kill.
    let g = h.ops.iter().find(|o| o.value == b"g").expect("g");
    assert_eq!((g.outcome, g.complete_ns, g.id), (Outcome::Info, 62, None));
}

#[test]
fn an_empty_history_is_correct() {
    let r = check(&History::default());
    assert_eq!(r.summary(), "0 ops (ok 0, fail 0, info 0), 0 violations");
}

#[test]
fn duplicate_acknowledged_id() {
    let (_, r) = run(&[
        alloc(0, 10, 20, "ok", Some(100), "a"),
        alloc(1, 12, 22, "ok", Some(100), "b"),
        read(100, "a"),
    ]);
    assert!(r.violations.contains(&Violation::DuplicateId {
        id: 100,
        first: 1,
        second: 2
    }));
    // b's ID holds a's value.
    assert!(r.violations.contains(&Violation::WrongValue {
        op: 2,
        row: 3,
        id: 100
    }));
    assert_eq!(r.violations.len(), 2, "{:?}", r.violations);
}

#[test]
fn duplicate_row() {
    let (_, r) = run(&[
        alloc(0, 10, 20, "ok", Some(100), "a"),
        alloc(0, 21, 30, "info", None, "b"),
        read(100, "a"),
        read(100, "b"),
    ]);
    assert_eq!(
        r.violations,
        vec![Violation::DuplicateRow {
            id: 100,
            first: 3,
            second: 4
        }]
    );
}

#[test]
fn lost_write() {
    let (h, r) = run(&[
        alloc(0, 10, 20, "ok", Some(100), "a"),
        alloc(0, 21, 30, "ok", Some(99), "b"),
        read(100, "a"),
    ]);
    assert_eq!(r.violations, vec![Violation::LostWrite { op: 2, id: 99 }]);
    let text = describe(&h, &r);
    assert!(text.contains("violation: lost-write: the ok op of line 2 got ID 99, which has no row"));
    assert!(text.contains(&format!(
        "  line 2: {}",
        alloc(0, 21, 30, "ok", Some(99), "b")
    )));
}

#[test]
fn an_ok_row_with_another_value() {
    let (_, r) = run(&[
        alloc(0, 10, 20, "ok", Some(100), "a"),
        alloc(1, 10, 20, "info", None, "b"),
        read(100, "b"),
    ]);
    assert_eq!(
        r.violations,
        vec![Violation::WrongValue {
            op: 1,
            row: 3,
            id: 100
        }]
    );
}

#[test]
fn a_failed_op_that_was_written() {
    let (_, r) = run(&[alloc(0, 10, 20, "fail", None, "a"), read(100, "a")]);
    assert_eq!(
        r.violations,
        vec![Violation::FailedButWritten { op: 1, row: 2 }]
    );
}

#[test]
fn a_value_written_twice() {
    // What the broken allocator does: its first write landed unseen, the
    // retry wrote the value again under the next ID.
    let (_, r) = run(&[
        alloc(0, 10, 20, "ok", Some(99), "a"),
        read(99, "a"),
        read(100, "a"),
    ]);
    assert_eq!(
        r.violations,
        vec![Violation::WrittenTwice {
            op: 1,
            first: 2,
            second: 3
        }]
    );
    // An info op too: may be present, never twice.
    let (_, r) = run(&[
        alloc(0, 10, 20, "info", None, "a"),
        read(99, "a"),
        read(100, "a"),
    ]);
    assert_eq!(r.violations.len(), 1);
    assert_eq!(r.violations[0].rule(), "exactly-once");
}

#[test]
fn a_row_no_op_wrote() {
    let (_, r) = run(&[read(100, "zz")]);
    assert_eq!(r.violations, vec![Violation::UnknownRow { row: 1 }]);
}

#[test]
fn real_time_order() {
    // a completes (20) before b is invoked (25), yet b got the larger ID.
    let (h, r) = run(&[
        alloc(0, 10, 20, "ok", Some(99), "a"),
        alloc(1, 25, 30, "ok", Some(100), "b"),
        read(99, "a"),
        read(100, "b"),
    ]);
    assert_eq!(
        r.violations,
        vec![Violation::Order {
            earlier: 1,
            later: 2
        }]
    );
    assert!(describe(&h, &r).contains("real-time-order"));
    // Overlapping (or touching) calls may take IDs in any order.
    for (t0, t1) in [(15, 30), (20, 30)] {
        let (_, r) = run(&[
            alloc(0, 10, 20, "ok", Some(99), "a"),
            alloc(1, t0, t1, "ok", Some(100), "b"),
            read(99, "a"),
            read(100, "b"),
        ]);
        assert_eq!(r.violations, vec![], "b at {t0}..{t1}");
    }
    // The witness is the smallest ID completed before b: 97 (line 3).
    let (_, r) = run(&[
        alloc(0, 1, 2, "ok", Some(99), "a"),
        alloc(0, 3, 4, "ok", Some(98), "c"),
        alloc(0, 5, 6, "ok", Some(97), "d"),
        alloc(1, 7, 8, "ok", Some(97), "b"),
        read(99, "a"),
        read(98, "c"),
        read(97, "d"),
    ]);
    assert!(r.violations.contains(&Violation::Order {
        earlier: 3,
        later: 4
    }));
    // info and fail ops are not ordered.
    let (_, r) = run(&[
        alloc(0, 10, 20, "info", Some(99), "a"),
        alloc(1, 25, 30, "ok", Some(100), "b"),
        read(99, "a"),
        read(100, "b"),
    ]);
    assert_eq!(r.violations, vec![]);
}

#[test]
fn reuse_after_delete() {
    let lines = [
        alloc(0, 10, 20, "ok", Some(100), "a"),
        alloc(0, 21, 30, "ok", Some(99), "b"),
        delete(31, 32, 99, "b"),
        alloc(0, 40, 50, "ok", Some(99), "c"), // 99 again
        read(99, "c"),
        read(100, "a"),
    ];
    let (_, r) = run(&lines);
    assert!(r.violations.contains(&Violation::Reuse {
        delete: 3,
        reused_by: 4,
        id: 99
    }));
    // ... and the acknowledged ID 99 twice.
    assert!(r.violations.iter().any(|v| v.rule() == "unique"));
    // Without the reuse, the deleted row is not a lost write.
    let (h, r) = run(&[
        alloc(0, 10, 20, "ok", Some(100), "a"),
        alloc(0, 21, 30, "ok", Some(99), "b"),
        delete(31, 32, 99, "b"),
        alloc(0, 40, 50, "ok", Some(98), "c"),
        read(98, "c"),
        read(100, "a"),
    ]);
    assert_eq!(r.violations, vec![], "{}", describe(&h, &r));
    // A row reused by an op whose call was cut short (info) counts too.
    let (_, r) = run(&[
        alloc(0, 10, 20, "ok", Some(100), "a"),
        delete(31, 32, 100, "a"),
        alloc(0, 40, 50, "info", None, "c"),
        read(100, "c"),
    ]);
    assert_eq!(
        r.violations,
        vec![Violation::Reuse {
            delete: 2,
            reused_by: 3,
            id: 100
        }]
    );
}

#[test]
fn bad_histories_are_errors_not_reports() {
    // Two calls with one value cannot be told apart.
    let e = History::parse(
        &[
            alloc(0, 1, 2, "ok", Some(1), "a"),
            alloc(1, 1, 2, "fail", None, "a"),
        ]
        .join("\n"),
    )
    .unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("already written"), "{e}");
}

// --- generated histories --------------------------------------------------

/// One generated call: when it ran, and what happened.
#[derive(Debug, Clone)]
struct Call {
    client: u64,
    start: u64,
    len: u64,
    /// Where inside [start, start+len] its write took effect (per mille).
    at: u64,
    /// 0 ok, 1 fail, 2 info that landed, 3 info that did not.
    fate: u8,
}

fn calls() -> impl Strategy<Value = Vec<Call>> {
    prop::collection::vec(
        (0u64..6, 0u64..1000, 1u64..200, 0u64..=1000, 0u8..4).prop_map(
            |(client, start, len, at, fate)| Call {
                client,
                start,
                len,
                at,
                fate,
            },
        ),
        1..60,
    )
}

/// A correct history of `calls`: each call that wrote took its ID at its
/// linearization point, IDs decreasing in that order from 1000.
fn history_of(calls: &[Call]) -> History {
    let mut idx: Vec<usize> = (0..calls.len()).collect();
    let point = |c: &Call| c.start * 1000 + c.len * c.at;
    idx.sort_by_key(|&i| (point(&calls[i]), i));
    let mut h = History::default();
    let mut next = 1000u64;
    let mut ids = vec![None; calls.len()];
    for &i in &idx {
        if calls[i].fate != 1 && calls[i].fate != 3 {
            ids[i] = Some(next);
            next -= 1;
        }
    }
    for (i, c) in calls.iter().enumerate() {
        let outcome = match c.fate {
            0 => Outcome::Ok,
            1 => Outcome::Fail,
            _ => Outcome::Info,
        };
        let value = format!("v{i}").into_bytes();
        h.ops.push(AllocOp {
            line: 0,
            client: c.client,
            invoke_ns: c.start * 1000,
            complete_ns: (c.start + c.len) * 1000,
            outcome,
            // An info op may or may not know its ID.
            id: if outcome == Outcome::Info && i % 2 == 0 {
                None
            } else {
                ids[i]
            },
            value,
        });
        if let Some(id) = ids[i] {
            h.reads.push(lexikey_history::ReadRow {
                line: 0,
                id,
                value: format!("v{i}").into_bytes(),
            });
        }
    }
    h
}

/// Renders and parses back (line numbers as in a file).
fn reparse(h: &History) -> History {
    History::parse(&h.render()).expect("rendered history parses")
}

fn rules(h: &History) -> Vec<&'static str> {
    check(h).violations.iter().map(Violation::rule).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn generated_correct_histories_pass(calls in calls()) {
        let h = reparse(&history_of(&calls));
        let r = check(&h);
        prop_assert_eq!(&r.violations, &vec![], "{}", describe(&h, &r));
        prop_assert_eq!(r.ops, calls.len());
        prop_assert_eq!(r.ok + r.fail + r.info, r.ops);
    }

    #[test]
    fn swapped_ids_of_ordered_calls_are_found(calls in calls(), pick in any::<prop::sample::Index>()) {
        let mut h = history_of(&calls);
        let ok: Vec<usize> = (0..h.ops.len()).filter(|&i| h.ops[i].outcome == Outcome::Ok).collect();
        let pairs: Vec<(usize, usize)> = ok.iter().flat_map(|&a| ok.iter().map(move |&b| (a, b)))
            .filter(|&(a, b)| h.ops[a].complete_ns < h.ops[b].invoke_ns).collect();
        prop_assume!(!pairs.is_empty());
        let (a, b) = pairs[pick.index(pairs.len())];
        let (ia, ib) = (h.ops[a].id, h.ops[b].id);
        h.ops[a].id = ib;
        h.ops[b].id = ia;
        // The rows move with their IDs: only the order is wrong.
        for row in &mut h.reads {
            if Some(row.id) == ia { row.id = ib.expect("ok"); } else if Some(row.id) == ib { row.id = ia.expect("ok"); }
        }
        let found = rules(&reparse(&h));
        prop_assert!(!found.is_empty() && found.iter().all(|r| *r == "real-time-order"), "{:?}", found);
    }

    #[test]
    fn a_dropped_ok_row_is_found(calls in calls(), pick in any::<prop::sample::Index>()) {
        let mut h = history_of(&calls);
        let ok: Vec<u64> = h.ops.iter().filter(|o| o.outcome == Outcome::Ok).filter_map(|o| o.id).collect();
        prop_assume!(!ok.is_empty());
        let id = ok[pick.index(ok.len())];
        h.reads.retain(|r| r.id != id);
        prop_assert_eq!(rules(&reparse(&h)), vec!["lost-write"]);
    }

    #[test]
    fn a_failed_op_in_the_table_is_found(calls in calls(), pick in any::<prop::sample::Index>()) {
        let mut h = history_of(&calls);
        let failed: Vec<usize> = (0..h.ops.len()).filter(|&i| h.ops[i].outcome == Outcome::Fail).collect();
        prop_assume!(!failed.is_empty());
        let i = failed[pick.index(failed.len())];
        h.reads.push(lexikey_history::ReadRow { line: 0, id: 1, value: h.ops[i].value.clone() });
        prop_assert_eq!(rules(&reparse(&h)), vec!["lost-write"]);
    }

    #[test]
    fn a_duplicated_write_is_found(calls in calls(), pick in any::<prop::sample::Index>()) {
        let mut h = history_of(&calls);
        prop_assume!(!h.reads.is_empty());
        let row = h.reads[pick.index(h.reads.len())].clone();
        h.reads.push(lexikey_history::ReadRow { line: 0, id: 1, ..row });
        prop_assert_eq!(rules(&reparse(&h)), vec!["exactly-once"]);
    }

    #[test]
    fn a_second_ok_for_one_id_is_found(calls in calls(), pick in any::<prop::sample::Index>()) {
        let mut h = history_of(&calls);
        let ok: Vec<usize> = (0..h.ops.len()).filter(|&i| h.ops[i].outcome == Outcome::Ok).collect();
        prop_assume!(!ok.is_empty());
        let i = ok[pick.index(ok.len())];
        // A late duplicate acknowledgment, after everything else.
        let end = h.last_ns();
        h.ops.push(AllocOp { line: 0, client: 9, invoke_ns: end + 1, complete_ns: end + 2,
            outcome: Outcome::Ok, id: h.ops[i].id, value: b"late".to_vec() });
        let found = rules(&reparse(&h));
        prop_assert!(found.contains(&"unique"), "{:?}", found);
    }
}

#[test]
fn rendering_is_the_exact_line_format() {
    let op = AllocOp {
        line: 0,
        client: 7,
        invoke_ns: 1,
        complete_ns: 2,
        outcome: Outcome::Fail,
        id: None,
        value: vec![0xAB, 0x01],
    };
    assert_eq!(
        render_alloc(&op),
        r#"{"client": 7, "op": "alloc", "invoke_ns": 1, "complete_ns": 2, "outcome": "fail", "id": null, "value": "AB01"}"#
    );
    assert_eq!(
        render_read(u64::MAX, b"\x00"),
        r#"{"op": "read", "id": 18446744073709551615, "value": "00"}"#
    );
}

#[test]
fn the_timeline_draws_lanes_faults_and_violating_pairs() {
    let mut lines = correct();
    lines.push(alloc(2, 90, 95, "ok", Some(101), "late")); // after a..h, larger ID
    lines.push(read(101, "late"));
    let (h, r) = run(&lines);
    assert!(r.violations.iter().all(|v| v.rule() == "real-time-order"));
    let svg = lexikey_history::svg::render(&h, &r, "redis kill").expect("svg");
    assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
    for text in [
        "redis kill",
        "client 0",
        "client 1",
        "client 2",
        "kill-client client 1",
        "seconds",
    ] {
        assert!(svg.contains(text), "missing {text:?}");
    }
    // Op bars in the three outcome colours, and the fault band.
    for colour in ["#2EA043", "#D73027", "#F59614", "#787878"] {
        assert!(svg.to_uppercase().contains(colour), "missing {colour}");
    }
    // A link per violating pair.
    let link = r##"<polyline fill="none" opacity="1" stroke="#C800A0""##;
    assert!(svg.matches(link).count() >= r.violations.len(), "{svg}");
    let clean = run(&correct());
    let plain = lexikey_history::svg::render(&clean.0, &clean.1, "ok").expect("svg");
    assert_eq!(plain.matches(link).count(), 0);
    assert_eq!(plain.matches("#C800A0").count(), 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The O(n log n) sweep flags exactly the ops that the quadratic
    /// definition flags: B such that some ok A completed before B was
    /// invoked with id(A) <= id(B); and its witness is such an A.
    #[test]
    fn real_time_order_matches_the_quadratic_definition(
        ops in prop::collection::vec((0u64..50, 1u64..20, 0u64..30), 0..40)
    ) {
        let mut h = History::default();
        for (i, &(start, len, id)) in ops.iter().enumerate() {
            h.ops.push(AllocOp { line: i + 1, client: i as u64, invoke_ns: start,
                complete_ns: start + len, outcome: Outcome::Ok, id: Some(id),
                value: format!("v{i}").into_bytes() });
        }
        // (No reads: the lost-write violations this makes are filtered out.)
        let found: Vec<(usize, usize)> = check(&h).violations.iter().filter_map(|v| match v {
            Violation::Order { earlier, later } => Some((*earlier, *later)),
            _ => None,
        }).collect();
        let violates = |a: &AllocOp, b: &AllocOp| a.complete_ns < b.invoke_ns && a.id <= b.id;
        let mut expected: Vec<usize> = h.ops.iter()
            .filter(|b| h.ops.iter().any(|a| violates(a, b))).map(|b| b.line).collect();
        let mut flagged: Vec<usize> = found.iter().map(|&(_, b)| b).collect();
        expected.sort_unstable();
        flagged.sort_unstable();
        prop_assert_eq!(flagged, expected);
        for (a, b) in found {
            prop_assert!(violates(&h.ops[a - 1], &h.ops[b - 1]));
        }
    }
}

fn burned(id: u64) -> String {
    format!(r#"{{"op": "burned", "id": {id}}}"#)
}

// See: issue 23. A call whose put timed out burns that ID and goes on to
// the next: the table holds a tombstone there, which is no row and no
// violation; the call's value is in one row.
#[test]
fn burned_ids_are_no_rows_and_no_violation() {
    let lines = vec![
        alloc(0, 10, 50, "ok", Some(98), "a"), // burned 99, then wrote 98
        alloc(1, 60, 70, "ok", Some(97), "b"),
        alloc(1, 71, 80, "info", None, "c"), // gave up; burned 96
        read(97, "b"),
        read(98, "a"),
        burned(96),
        burned(99),
    ];
    let (h, r) = run(&lines);
    assert_eq!(r.violations, vec![], "{}", describe(&h, &r));
    assert_eq!((r.rows, r.burned, r.info_present), (2, 2, 0));
    assert!(describe(&h, &r).contains("2 rows, 2 burned IDs"));
    // The history renders back with its burned lines.
    let again = History::parse(&h.render()).expect("parses");
    assert_eq!(again.burned.len(), 2);
}

#[test]
fn an_acknowledged_burned_id_is_a_lost_write() {
    let (h, r) = run(&[alloc(0, 10, 20, "ok", Some(99), "a"), burned(99)]);
    assert_eq!(
        r.violations,
        vec![Violation::BurnedButAcknowledged {
            op: 1,
            burned: 2,
            id: 99
        }]
    );
    assert!(describe(&h, &r).contains("got ID 99, which is burned (line 2)"));
}

#[test]
fn a_burned_id_that_is_also_a_row_is_not_unique() {
    let (_, r) = run(&[
        alloc(0, 10, 20, "ok", Some(99), "a"),
        read(99, "a"),
        burned(99),
        burned(98),
        burned(98),
    ]);
    assert_eq!(
        r.violations,
        vec![
            Violation::BurnedTwice {
                id: 99,
                first: 2,
                second: 3
            },
            Violation::BurnedTwice {
                id: 98,
                first: 4,
                second: 5
            }
        ]
    );
    assert_eq!(r.violations[0].rule(), "unique");
}
