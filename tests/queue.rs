//! Queue keys: isolation between neighbouring queues, seq order = key
//! order, `after()` exactness over a `MemStore`, canonical decode, and the
//! meta-record push/consume helpers (including concurrent producers).

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use lexikey::store::queue::{IdWidth, QueueError, QueueKeys, QueueMeta};
use lexikey::store::{MemStore, Store};
use lexikey::{Component, Format};
use proptest::prelude::*;

fn widths() -> impl Strategy<Value = IdWidth> {
    prop::sample::select(vec![IdWidth::U32, IdWidth::U64])
}

/// A format, a tuple prefix of 0–2 components it supports, and a width.
fn queue_sets() -> impl Strategy<Value = QueueKeys> {
    (common::formats(), widths()).prop_flat_map(|(format, width)| {
        prop::collection::vec(
            common::field_for(format).prop_flat_map(|f| {
                common::value_of(f.ty).prop_map(move |value| Component {
                    value,
                    dir: f.dir,
                    width: None,
                    nulls: None,
                    list: 0,
                })
            }),
            0..3,
        )
        .prop_map(move |prefix| QueueKeys::new(format, &prefix, width).expect("prefix encodes"))
    })
}

/// Queue ids near the edges of `width`.
fn ids(width: IdWidth) -> BoxedStrategy<u64> {
    let max = width.max();
    prop_oneof![
        2 => prop::sample::select(vec![0, 1, 2, 255, 256, max - 1, max]),
        2 => 0..=max,
        1 => 0u64..8,
    ]
    .boxed()
}

fn seqs() -> BoxedStrategy<u64> {
    prop_oneof![
        2 => prop::sample::select(vec![0, 1, 255, 256, u64::MAX - 1, u64::MAX]),
        2 => any::<u64>(),
        2 => 0u64..16,
    ]
    .boxed()
}

/// A queue set with a queue id, and ids/seqs to test against it.
fn setup() -> impl Strategy<Value = (QueueKeys, u64, u64, u64, u64)> {
    queue_sets().prop_flat_map(|qs| {
        let w = qs.width();
        (Just(qs), ids(w), seqs(), ids(w), seqs())
    })
}

proptest! {
    #![proptest_config(common::config())]

    /// Keys of queue `q` are in `range(q)`; keys of `q ± 1` (and of any
    /// other queue) never are.
    #[test]
    fn neighbours_never_fall_in_range((qs, q, s, other, s2) in setup()) {
        let range = qs.range(q).unwrap();
        prop_assert!(range.contains(&qs.key(q, s).unwrap()));
        let max = qs.width().max();
        for n in [q.checked_sub(1), q.checked_add(1).filter(|&n| n <= max), Some(other)]
            .into_iter()
            .flatten()
            .filter(|&n| n != q)
        {
            for seq in [0, s, s2, u64::MAX] {
                let k = qs.key(n, seq).unwrap();
                prop_assert!(!range.contains(&k), "key {:?} of queue {} in range {:?} of {}", k, n, range, q);
            }
            // The bound is exactly the next queue's first key.
            if Some(n) == q.checked_add(1) {
                prop_assert_eq!(range.end.as_deref(), Some(&qs.queue_start(n).unwrap()[..]));
            }
        }
    }

    /// `(q, seq)` order is key order, and keys decode back canonically.
    #[test]
    fn key_order_is_seq_order((qs, q, s, q2, s2) in setup()) {
        let (a, b) = (qs.key(q, s).unwrap(), qs.key(q2, s2).unwrap());
        prop_assert_eq!((q, s).cmp(&(q2, s2)), a.cmp(&b));
        prop_assert_eq!(qs.decode(&a), Ok((q, s)));
        prop_assert_eq!(qs.decode(&b), Ok((q2, s2)));
        if qs.format().is_text() {
            prop_assert!(std::str::from_utf8(&a).is_ok() && a.iter().all(|&c| c >= 0x20));
            let r = qs.range(q).unwrap();
            for side in [r.start, r.end].into_iter().flatten() {
                prop_assert!(std::str::from_utf8(&side).is_ok() && side.iter().all(|&c| c >= 0x20));
            }
        }
    }

    /// `after(q, last)` holds exactly the items of `q` with seq > last, and
    /// `range(q)` exactly the items of `q`, whatever the neighbouring queues
    /// hold; first/last/next_after agree with a model.
    #[test]
    fn after_is_exact(
        (qs, q, _, _, _) in setup(),
        mine in prop::collection::btree_set(seqs(), 0..12),
        theirs in prop::collection::vec((prop::sample::select(vec![-1i8, 1]), seqs()), 0..12),
        last in seqs(),
    ) {
        let store = MemStore::new();
        for &s in &mine {
            store.put_if_absent(&qs.key(q, s).unwrap(), &s.to_be_bytes()).unwrap();
        }
        let max = qs.width().max();
        for (d, s) in theirs {
            let n = if d < 0 { q.checked_sub(1) } else { q.checked_add(1).filter(|&n| n <= max) };
            if let Some(n) = n {
                store.put_if_absent(&qs.key(n, s).unwrap(), b"other").unwrap();
            }
        }
        // range(q): exactly mine.
        let all: Vec<u64> = store
            .scan(&qs.range(q).unwrap(), usize::MAX)
            .unwrap()
            .into_iter()
            .map(|(k, v)| {
                let (id, s) = qs.decode(&k).unwrap();
                assert_eq!((id, v), (q, s.to_be_bytes().to_vec()));
                s
            })
            .collect();
        prop_assert_eq!(&all, &mine.iter().copied().collect::<Vec<_>>());
        // after(q, last): exactly mine above last.
        let expected: Vec<u64> = mine.iter().copied().filter(|&s| s > last).collect();
        let got: Vec<u64> = match qs.after(q, last).unwrap() {
            Some(r) => store
                .scan(&r, usize::MAX)
                .unwrap()
                .into_iter()
                .map(|(k, _)| qs.decode(&k).unwrap().1)
                .collect(),
            None => {
                prop_assert_eq!(last, u64::MAX);
                Vec::new()
            }
        };
        prop_assert_eq!(&got, &expected);
        prop_assert_eq!(
            qs.next_after(&store, q, last).unwrap().map(|(s, _)| s),
            expected.first().copied()
        );
        prop_assert_eq!(qs.first_seq(&store, q).unwrap(), mine.first().copied());
        prop_assert_eq!(qs.last_seq(&store, q).unwrap(), mine.last().copied());
        let from: Vec<u64> = qs.read(&store, q, last, 5).unwrap().into_iter().map(|(s, _)| s).collect();
        let want: Vec<u64> = mine.iter().copied().filter(|&s| s >= last).take(5).collect();
        prop_assert_eq!(from, want);
    }

    /// Decoding is canonical and never panics: random bytes and item keys
    /// with one byte changed decode only if they re-encode to themselves.
    #[test]
    fn decode_is_canonical(
        (qs, q, s, _, _) in setup(),
        random in common::bytes(),
        change in (any::<prop::sample::Index>(), any::<u8>()),
    ) {
        let mut mutated = qs.key(q, s).unwrap();
        let i = change.0.index(mutated.len());
        mutated[i] = change.1;
        let mut cut = qs.key(q, s).unwrap();
        cut.truncate(i);
        for input in [random, mutated, cut] {
            if let Ok((id, seq)) = qs.decode(&input) {
                prop_assert_eq!(qs.key(id, seq).unwrap(), input);
            }
        }
    }

    /// The meta record's text form is canonical.
    #[test]
    fn meta_round_trip(a in seqs(), b in seqs(), junk in common::bytes()) {
        let m = QueueMeta { first: a.min(b), next: a.max(b) };
        prop_assert_eq!(QueueMeta::parse(&m.to_bytes()), Some(m));
        if let Some(p) = QueueMeta::parse(&junk) {
            prop_assert_eq!(p.to_bytes(), junk);
        }
    }
}

fn hex_queues() -> QueueKeys {
    QueueKeys::new(Format::Hex, &[Component::asc("queue")], IdWidth::U32).unwrap()
}

#[test]
fn golden_keys() {
    let q = hex_queues();
    assert_eq!(q.key(7, 1).unwrap(), b"queue#w00000007#u0000000000000001");
    assert_eq!(q.meta_key(7).unwrap(), b"queue$meta#w00000007");
    let last = q.range(u64::from(u32::MAX)).unwrap();
    assert_eq!(last.end.as_deref(), Some(&b"queue#wFFFFFFFF$"[..]));
    let d = QueueKeys::new(Format::Decimal, &[Component::asc("queue")], IdWidth::U64).unwrap();
    assert_eq!(
        d.key(7, 1).unwrap(),
        b"queue#00000000000000000007#00000000000000000001"
    );
    assert_eq!(
        d.range(7).unwrap().end.as_deref(),
        Some(&b"queue#00000000000000000008"[..])
    );
    let b = QueueKeys::new(Format::Binary, &[], IdWidth::U32).unwrap();
    assert_eq!(b.range(u64::from(u32::MAX)).unwrap().end, None);
    assert_eq!(b.range(0).unwrap().end.as_deref(), Some(&[0, 0, 0, 1][..]));
    assert!(matches!(
        q.key(1 << 32, 0),
        Err(QueueError::IdOutOfRange {
            queue_id: 4294967296,
            max: 4294967295
        })
    ));
    assert!(q.after(7, u64::MAX).unwrap().is_none());
}

#[test]
fn meta_keys_lie_outside_every_queue() {
    for format in [Format::Hex, Format::Base64, Format::Decimal] {
        for prefix in [vec![], vec![Component::asc("queue")]] {
            let q = QueueKeys::new(format, &prefix, IdWidth::U32).unwrap();
            let (start, end) = q.key_space();
            for id in [0, 7, u64::from(u32::MAX)] {
                let m = q.meta_key(id).unwrap();
                let inside = m >= start && end.as_ref().is_none_or(|e| m < *e);
                assert!(!inside, "{format}: meta key {m:?} inside the queues");
            }
        }
    }
    let b = QueueKeys::new(Format::Binary, &[Component::asc("q")], IdWidth::U32).unwrap();
    assert!(matches!(b.meta_key(1), Err(QueueError::Config(_))));
    assert!(matches!(
        b.push(&MemStore::new(), 1, b"x"),
        Err(QueueError::Config(_))
    ));
    // An empty binary prefix: every key is a queue key, so no meta prefix fits.
    let e = QueueKeys::new(Format::Binary, &[], IdWidth::U32).unwrap();
    assert!(e.with_meta_prefix(&[Component::asc("meta")]).is_err());
    let ok = b.with_meta_prefix(&[Component::asc("qmeta")]).unwrap();
    assert_eq!(ok.push(&MemStore::new(), 1, b"x").unwrap(), 0);
}

#[test]
fn push_consume_and_recovery() {
    let q = hex_queues();
    let s = MemStore::new();
    // Items written before any meta record: push continues after them.
    for seq in [5u64, 6] {
        s.put_if_absent(&q.key(3, seq).unwrap(), b"old").unwrap();
    }
    assert_eq!(q.meta(&s, 3).unwrap(), None);
    assert_eq!(q.push(&s, 3, b"new").unwrap(), 7);
    assert_eq!(
        q.meta(&s, 3).unwrap(),
        Some(QueueMeta { first: 5, next: 8 })
    );
    // Consuming is idempotent, never goes backwards nor past `next`.
    assert_eq!(
        q.consume(&s, 3, 5).unwrap(),
        QueueMeta { first: 6, next: 8 }
    );
    assert_eq!(
        q.consume(&s, 3, 2).unwrap(),
        QueueMeta { first: 6, next: 8 }
    );
    assert_eq!(
        q.consume(&s, 3, 100).unwrap(),
        QueueMeta { first: 8, next: 8 }
    );
    assert_eq!(q.first_seq(&s, 3).unwrap(), None);
    assert_eq!(q.push(&s, 3, b"after drain").unwrap(), 8);
    // The neighbours are untouched.
    assert_eq!(q.first_seq(&s, 2).unwrap(), None);
    assert_eq!(q.first_seq(&s, 4).unwrap(), None);
    // A corrupt record is reported, not guessed around.
    assert!(s
        .compare_and_swap(&q.meta_key(3).unwrap(), Some(b"8 9"), b"9 8")
        .unwrap());
    assert!(matches!(
        q.push(&s, 3, b"x"),
        Err(QueueError::CorruptMeta { .. })
    ));
    // A foreign key in the queue's range is reported.
    s.put_if_absent(b"queue#w00000004#zzz", b"").unwrap();
    let e = q.first_seq(&s, 4).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("key queue#w00000004#zzz in queue 4's range is not one of its items"),
        "{e}"
    );
    // Exhaustion is an error, never a wrap.
    let t = MemStore::new();
    t.put_if_absent(
        &q.meta_key(1).unwrap(),
        format!("0 {}", u64::MAX).as_bytes(),
    )
    .unwrap();
    assert!(matches!(
        q.push(&t, 1, b"x"),
        Err(QueueError::Exhausted { queue_id: 1 })
    ));
}

/// 8 producers × 500 pushes on one queue: every seq unique, the seqs
/// exactly 0..4000, every item stored.
#[test]
fn concurrent_producers_get_unique_seqs() {
    let q = Arc::new(hex_queues().with_max_attempts(u32::MAX));
    let store = Arc::new(MemStore::new());
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let (q, store) = (Arc::clone(&q), Arc::clone(&store));
            std::thread::spawn(move || {
                (0..500)
                    .map(|i| q.push(&*store, 9, format!("{t}/{i}").as_bytes()).unwrap())
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut seen = BTreeSet::new();
    for t in threads {
        for seq in t.join().unwrap() {
            assert!(seen.insert(seq), "seq {seq} handed out twice");
        }
    }
    assert_eq!(seen, (0..4000).collect());
    let items = q.read(&*store, 9, 0, usize::MAX).unwrap();
    assert_eq!(items.len(), 4000);
    assert_eq!(
        q.meta(&*store, 9).unwrap(),
        Some(QueueMeta {
            first: 0,
            next: 4000
        })
    );
}
