//! Renderers (`src/range/render/`): golden outputs, errors, and statement safety.
//!
//! Statement safety is proved by parsing rendered output back and comparing
//! bytes, on adversarial keys and names from proptest generators:
//! - hbase shell: the rendered `scan` commands are run by Debian's `ruby`
//!   (the hbase shell is JRuby) with a stub `scan`, and the bytes Ruby sees
//!   are compared; reversed scans are checked for exact row membership.
//! - etcdctl: the rendered command lines are run by `bash` with a stub
//!   `etcdctl` that prints its arguments; they are read the way etcdctl
//!   reads them.
//! - redis: the rendered lines are piped into the real `redis-cli`, talking
//!   to a fake server in this test that records the commands it receives;
//!   also parsed by a port of `sdssplitargs`.
//! - CQL / PostgreSQL: lexers written from each language's literal rules.
//! - etcd JSON: base64 decoded back by an independent decoder.
//! - cbt: the rendered lines are run by `bash` with a stub `cbt` that prints
//!   its arguments; they are read the way cbt reads them (`key=value`
//!   split at the first `=`, `prefix=P` as Go's `PrefixRange(P)`, written
//!   here from its rules). The real `cbt` runs them against the Bigtable
//!   emulator in `stores/tests/bigtable_ranges.rs`.
//!
//! The external tools (`ruby`, `bash`, `redis-cli`) are required: a missing
//! tool fails the test with a message saying what to install.

#[path = "support/hbase_create.rs"]
mod hbase_create;
#[path = "support/size.rs"]
mod size;
#[path = "support/tools.rs"]
mod tools;
use tools::{nonempty_range, run_piped};

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

use lexikey::range::render::{
    base64, redis_quote, render, render_into, ruby_literal, shell_quote, Dialect, RenderError,
    RenderOptions, Side,
};
use lexikey::range::EmptyRange;
use lexikey::range::RangeQuery;
use lexikey::{Component, Dir, Format, KeyRange, Value};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

// ================================================================ helpers

fn kr(start: Option<&[u8]>, end: Option<&[u8]>) -> KeyRange {
    KeyRange {
        start: start.map(<[u8]>::to_vec),
        end: end.map(<[u8]>::to_vec),
    }
}

fn population() -> KeyRange {
    kr(Some(b"population#l80000000000F4240"), Some(b"population$"))
}

fn text() -> RenderOptions {
    RenderOptions::new().text(true)
}

/// The range as the renderers see it: an empty start is no start.
fn norm(r: &KeyRange) -> (Option<&[u8]>, Option<&[u8]>) {
    (
        r.start.as_deref().filter(|s| !s.is_empty()),
        r.end.as_deref(),
    )
}

/// Runs `program args` with `stdin`, returning stdout. A missing program
/// fails loudly: these tests must never pass without their parser.
fn run_tool(program: &str, args: &[&str], stdin: &[u8], install: &str) -> Vec<u8> {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .env_clear()
        .env("PATH", "/nonexistent")
        .env("LC_ALL", "C");
    run_piped(cmd, stdin, install).stdout
}

fn which(program: &str) -> String {
    for dir in ["/usr/bin", "/bin", "/usr/local/bin"] {
        let p = format!("{dir}/{program}");
        if std::path::Path::new(&p).exists() {
            return p;
        }
    }
    program.to_string() // let spawn fail with its own message
}

fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex {s:?}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn assert_printable_ascii(s: &str) {
    assert!(
        s.bytes().all(|b| b == b'\n' || (0x20..=0x7E).contains(&b)),
        "output is not printable ASCII: {s:?}"
    );
}

/// The characters no rendered output may hold raw (written from the list
/// in the issue, independently of `src/range/render/`): control characters
/// (C0, DEL, C1) and the bidirectional formatting characters of the
/// "trojan source" attacks. See: issue 29.
fn hidden(c: char) -> bool {
    matches!(
        c as u32,
        0x00..=0x1F | 0x7F..=0x9F | 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069
    )
}

/// `hidden` outside the line ends: what a terminal would not show as itself.
fn assert_no_hidden(out: &str) {
    for line in out.split_terminator('\n') {
        assert!(
            !line.chars().any(hidden),
            "output holds a control or bidi character raw: {out:?}"
        );
    }
    assert!(out.ends_with('\n'), "{out:?}");
}

// ================================================================ generators

/// Pieces that break naive quoting, plus arbitrary bytes.
fn token() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        4 => "[a-z0-9]{1,3}".prop_map(String::into_bytes),
        4 => select(vec![
            "'", "\"", "\\", "#", "#{", "#$", "#@", "#{x}", "#{`id`}", "$(", "$(id)", "`", "${",
            "$", "@", "{", "}", "(", ")", "[", "]", ";", "|", "&", " ", "\t", "\n", "\r", "-",
            "--", "+", "%", "!", "*", "?", ",", "=", ">", "<", "~", "^", "''", "'\\''", "\\x41",
            "\\'", "\\\\", "\\n", "0x", "0X", "E'", "::", "/*", "*/", "//", "$$", " AND ", ":",
            "binary:", "é", "€", "😀", "\u{7F}", "\u{80}", "\u{FEFF}", "\u{2028}", "\u{10FFFF}",
            // Trojan source: C1 controls and bidirectional formatting.
            "\u{85}", "\u{9B}", "\u{9F}", "\u{202E}", "\u{202A}", "\u{2066}", "\u{2069}",
            "\u{200E}", "\u{200F}", "\u{61C}",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        2 => select(vec![0x00u8, 0xFF, 0x80, 0xC3, 0x01, 0x1B, 0x7F, 0xFE, 0x00, 0xFF])
            .prop_map(|b| vec![b]),
        1 => any::<u8>().prop_map(|b| vec![b]),
    ]
    .boxed()
}

fn bin_key() -> BoxedStrategy<Vec<u8>> {
    vec(token(), 0..7).prop_map(|t| t.concat()).boxed()
}

/// Valid UTF-8 without NUL (what CQL/SQL text can hold).
fn text_key() -> BoxedStrategy<Vec<u8>> {
    let piece = prop_oneof![
        4 => token().prop_map(|t| String::from_utf8_lossy(&t).replace('\0', "0").into_bytes()),
        1 => any::<char>()
            .prop_filter("no NUL", |&c| c != '\0')
            .prop_map(|c| c.to_string().into_bytes()),
    ];
    vec(piece, 0..7).prop_map(|t| t.concat()).boxed()
}

fn ranges_of(k: BoxedStrategy<Vec<u8>>, zeros: bool) -> BoxedStrategy<KeyRange> {
    let z = if zeros { 0..2usize } else { 0..1usize };
    prop_oneof![
        (option::of(k.clone()), option::of(k.clone())).prop_map(|(a, b)| nonempty_range(a, b)),
        // Shared prefixes: [a, a + s).
        (k.clone(), k.clone())
            .prop_map(|(a, s)| nonempty_range(Some(a.clone()), Some([a, s].concat()))),
        // Bounds ending in 00 bytes (hbase reversed scans treat them apart).
        (k.clone(), k, z.clone(), z).prop_map(|(a, b, za, zb)| {
            let a = [a, vec![0; za]].concat();
            let b = [b, vec![0; zb]].concat();
            nonempty_range(Some(a), Some(b))
        }),
    ]
    .prop_filter("not empty", |r| !r.is_empty())
    .boxed()
}

fn bin_range() -> BoxedStrategy<KeyRange> {
    ranges_of(bin_key(), true)
}

fn text_range() -> BoxedStrategy<KeyRange> {
    ranges_of(text_key(), false)
}

/// Adversarial table/column names (non-empty, no NUL).
fn name() -> BoxedStrategy<String> {
    prop_oneof![
        3 => "[a-z][a-z0-9_]{0,5}",
        3 => select(vec![
            "from", "select", "key", "token", "limit", "order", "table", "where", "and", "user",
            "desc", "values", "Events", "MixedCase", "_x", "x$y", "a.b", "ks.t", ".t", "t.",
            "it's", "a\"b", "\"", "a b", "é", "1abc", "#{x}", "$(id)", "a;b", "a--b", "a/*b",
            "back\\slash",
        ])
        .prop_map(str::to_string),
        2 => "[ -~]{1,6}",
        1 => "\\PC{1,4}".prop_filter("no NUL", |s: &String| !s.contains('\0')),
    ]
    .boxed()
}

#[derive(Debug, Clone)]
struct Opts {
    table: Option<String>,
    limit: Option<u64>,
    reversed: bool,
}

fn opts() -> BoxedStrategy<Opts> {
    (
        option::of(name()),
        option::of(prop_oneof![1u64..=100, Just(i32::MAX as u64)]),
        any::<bool>(),
    )
        .prop_map(|(table, limit, reversed)| Opts {
            table,
            limit,
            reversed,
        })
        .boxed()
}

impl Opts {
    fn render_options(&self, text: bool) -> RenderOptions {
        let mut o = RenderOptions::new().text(text).reversed(self.reversed);
        o.table = self.table.clone();
        o.limit = self.limit;
        o
    }
}

// ================================================================ golden

#[test]
fn golden_population_every_dialect() {
    let r = population();
    let cases: [(Dialect, &str); 7] = [
        (Dialect::Raw, "population#l80000000000F4240\npopulation$\n"),
        (
            Dialect::Hbase,
            "scan 't', {STARTROW => 'population#l80000000000F4240', STOPROW => 'population$'}\n",
        ),
        (
            Dialect::Cql,
            "SELECT * FROM t WHERE pk = ? AND ck >= 'population#l80000000000F4240' AND ck < 'population$';\n",
        ),
        (
            Dialect::Rocksdb,
            "iterate_lower_bound=population#l80000000000F4240\niterate_upper_bound=population$\n",
        ),
        (
            Dialect::Etcd,
            "etcdctl get 'population#l80000000000F4240' 'population$'\n\
             {\"key\":\"cG9wdWxhdGlvbiNsODAwMDAwMDAwMDBGNDI0MA==\",\"range_end\":\"cG9wdWxhdGlvbiQ=\"}\n",
        ),
        (
            Dialect::Redis,
            "ZRANGE t [population#l80000000000F4240 (population$ BYLEX\n",
        ),
        (
            Dialect::Sql,
            "SELECT k FROM t WHERE k >= 'population#l80000000000F4240' AND k < 'population$' ORDER BY k;\n",
        ),
    ];
    for (d, want) in cases {
        assert_eq!(render(d, &r, &text()).unwrap(), want, "{d}");
    }
}

#[test]
fn golden_population_with_options() {
    let r = population();
    let o = text().table("cities").limit(10).reversed(true);
    let cases: [(Dialect, &str); 7] = [
        // raw and rocksdb print the bounds only.
        (Dialect::Raw, "population#l80000000000F4240\npopulation$\n"),
        (
            Dialect::Hbase,
            "scan 'cities', {STARTROW => 'population$', FILTER => \"RowFilter(<, 'binary:population$') \
             AND InclusiveStopFilter('population\\#l80000000000F4240')\", LIMIT => 10, REVERSED => true}\n",
        ),
        (
            Dialect::Cql,
            "SELECT * FROM cities WHERE pk = ? AND ck >= 'population#l80000000000F4240' \
             AND ck < 'population$' ORDER BY ck DESC LIMIT 10;\n",
        ),
        (
            Dialect::Rocksdb,
            "iterate_lower_bound=population#l80000000000F4240\niterate_upper_bound=population$\n",
        ),
        (
            Dialect::Etcd,
            "etcdctl get --limit=10 --order=DESCEND --sort-by=KEY 'population#l80000000000F4240' 'population$'\n\
             {\"key\":\"cG9wdWxhdGlvbiNsODAwMDAwMDAwMDBGNDI0MA==\",\"range_end\":\"cG9wdWxhdGlvbiQ=\",\
             \"limit\":\"10\",\"sort_order\":\"DESCEND\",\"sort_target\":\"KEY\"}\n",
        ),
        (
            Dialect::Redis,
            "ZRANGE cities (population$ [population#l80000000000F4240 BYLEX REV LIMIT 0 10\n",
        ),
        (
            Dialect::Sql,
            "SELECT k FROM cities WHERE k >= 'population#l80000000000F4240' AND k < 'population$' \
             ORDER BY k DESC LIMIT 10;\n",
        ),
    ];
    for (d, want) in cases {
        assert_eq!(render(d, &r, &o).unwrap(), want, "{d}");
    }
}

#[test]
fn golden_binary_keys() {
    // A binary key with NUL, 0xFF and a quote; the end is its prefix end.
    let r = kr(Some(b"\x01a'\x00\xff"), Some(b"\x01a("));
    let b = RenderOptions::new();
    let cases: [(Dialect, &str); 7] = [
        (Dialect::Raw, "01612700ff\n016128\n"),
        (
            Dialect::Hbase,
            "scan 't', {STARTROW => \"\\x01a'\\x00\\xFF\", STOPROW => \"\\x01a(\"}\n",
        ),
        (
            Dialect::Cql,
            "SELECT * FROM t WHERE pk = ? AND ck >= 0x01612700ff AND ck < 0x016128;\n",
        ),
        (
            Dialect::Rocksdb,
            "iterate_lower_bound=0x01612700ff\niterate_upper_bound=0x016128\n",
        ),
        (
            Dialect::Etcd,
            "# etcdctl cannot take this range: a key holds a NUL byte, and no command-line argument \
             can hold one; POST the JSON below to /v3/kv/range\n\
             {\"key\":\"AWEnAP8=\",\"range_end\":\"AWEo\"}\n",
        ),
        (
            Dialect::Redis,
            "ZRANGE t \"[\\x01a'\\x00\\xFF\" \"(\\x01a(\" BYLEX\n",
        ),
        (
            Dialect::Sql,
            "SELECT k FROM t WHERE k >= decode('01612700ff', 'hex') AND k < decode('016128', 'hex') ORDER BY k;\n",
        ),
    ];
    for (d, want) in cases {
        assert_eq!(render(d, &r, &b).unwrap(), want, "{d}");
    }
}

#[test]
fn golden_unbounded_sides() {
    let all = KeyRange::all();
    let from = kr(Some(b"m"), None);
    let to = kr(None, Some(b"m"));
    let t = text();
    let expect = |d: Dialect, r: &KeyRange, want: &str| {
        assert_eq!(render(d, r, &t).unwrap(), want, "{d} {r:?}");
    };
    expect(Dialect::Raw, &all, "\n\n");
    expect(Dialect::Raw, &from, "m\n\n");
    expect(Dialect::Raw, &to, "\nm\n");
    expect(Dialect::Hbase, &all, "scan 't'\n");
    expect(Dialect::Hbase, &from, "scan 't', {STARTROW => 'm'}\n");
    expect(Dialect::Hbase, &to, "scan 't', {STOPROW => 'm'}\n");
    expect(Dialect::Cql, &all, "SELECT * FROM t WHERE pk = ?;\n");
    expect(
        Dialect::Cql,
        &to,
        "SELECT * FROM t WHERE pk = ? AND ck < 'm';\n",
    );
    expect(
        Dialect::Rocksdb,
        &all,
        "iterate_lower_bound=\niterate_upper_bound=\n",
    );
    expect(
        Dialect::Rocksdb,
        &from,
        "iterate_lower_bound=m\niterate_upper_bound=\n",
    );
    expect(
        Dialect::Etcd,
        &all,
        "etcdctl get --from-key ''\n{\"key\":\"AA==\",\"range_end\":\"AA==\"}\n",
    );
    expect(
        Dialect::Etcd,
        &from,
        "etcdctl get --from-key 'm'\n{\"key\":\"bQ==\",\"range_end\":\"AA==\"}\n",
    );
    expect(
        Dialect::Etcd,
        &to,
        "# etcdctl cannot take this range: its unbounded start is etcd's key \"\\0\", and no \
         command-line argument can hold a NUL byte; POST the JSON below to /v3/kv/range\n\
         {\"key\":\"AA==\",\"range_end\":\"bQ==\"}\n",
    );
    expect(Dialect::Redis, &all, "ZRANGE t - + BYLEX\n");
    expect(Dialect::Redis, &to, "ZRANGE t - (m BYLEX\n");
    expect(Dialect::Sql, &all, "SELECT k FROM t ORDER BY k;\n");
    expect(
        Dialect::Sql,
        &to,
        "SELECT k FROM t WHERE k < 'm' ORDER BY k;\n",
    );
    // Reversed, unbounded.
    let rev = text().reversed(true);
    assert_eq!(
        render(Dialect::Hbase, &all, &rev).unwrap(),
        "scan 't', {REVERSED => true}\n"
    );
    assert_eq!(
        render(Dialect::Redis, &from, &rev).unwrap(),
        "ZRANGE t + [m BYLEX REV\n"
    );
    // A start at the empty key is no start.
    let empty_start = kr(Some(b""), Some(b"m"));
    for d in Dialect::ALL {
        assert_eq!(
            render(d, &empty_start, &t).unwrap(),
            render(d, &to, &t).unwrap(),
            "{d}"
        );
    }
}

#[test]
fn golden_quoting_details() {
    // hbase: Ruby double quotes with every `#` escaped.
    let r = kr(Some(b"a#{b}#$c#@d\"\\"), Some(b"it's"));
    assert_eq!(
        render(Dialect::Hbase, &r, &text().table("ns:t")).unwrap(),
        "scan 'ns:t', {STARTROW => \"a\\#{b}\\#$c\\#@d\\\"\\\\\", STOPROW => \"it's\"}\n"
    );
    // Reversed, both bounds ending in 00: exact STARTROW/STOPROW, no filter.
    let z = kr(Some(b"a\x00"), Some(b"b\x00"));
    assert_eq!(
        render(Dialect::Hbase, &z, &RenderOptions::new().reversed(true)).unwrap(),
        "scan 't', {STARTROW => 'b', STOPROW => 'a', REVERSED => true}\n"
    );
    // CQL: quoted names and `''`.
    let o = text()
        .table("My.Table")
        .partition_key("select")
        .column("a\"b");
    assert_eq!(
        render(Dialect::Cql, &r, &o).unwrap(),
        "SELECT * FROM \"My\".\"Table\" WHERE \"select\" = ? AND \"a\"\"b\" >= 'a#{b}#$c#@d\"\\' \
         AND \"a\"\"b\" < 'it''s';\n"
    );
    // SQL: backslash → E'' string; names quoted.
    assert_eq!(
        render(Dialect::Sql, &r, &text().table("public.T").column("user")).unwrap(),
        "SELECT \"user\" FROM public.\"T\" WHERE \"user\" >= E'a#{b}#$c#@d\"\\\\' \
         AND \"user\" < 'it''s' ORDER BY \"user\";\n"
    );
    // etcd: `--` before a key starting with `-`; ANSI-C quoting.
    let dash = kr(Some(b"-x"), Some(b"-y\n"));
    assert_eq!(
        render(Dialect::Etcd, &dash, &RenderOptions::new())
            .unwrap()
            .lines()
            .next()
            .unwrap(),
        "etcdctl get -- '-x' $'-y\\x0A'"
    );
    // redis: quoting only where needed.
    assert_eq!(
        render(
            Dialect::Redis,
            &kr(Some(b"a b"), None),
            &text().table("my set")
        )
        .unwrap(),
        "ZRANGE \"my set\" \"[a b\" + BYLEX\n"
    );
    // rocksdb: space and 0x-prefixed text go to hex.
    assert_eq!(
        render(Dialect::Rocksdb, &kr(Some(b"0Xa"), Some(b"a b")), &text()).unwrap(),
        "iterate_lower_bound=0x305861\niterate_upper_bound=0x612062\n"
    );
}

// ================================================================ errors and API

#[test]
fn empty_ranges_are_errors_in_every_dialect() {
    let empties = [
        kr(Some(b"b"), Some(b"a")),
        kr(Some(b"a"), Some(b"a")),
        kr(None, Some(b"")),
        kr(Some(b""), Some(b"")),
    ];
    for d in Dialect::ALL {
        for r in &empties {
            for o in [RenderOptions::new(), text().reversed(true).limit(3)] {
                assert_eq!(
                    render(d, r, &o),
                    Err(RenderError::Empty(EmptyRange)),
                    "{d} {r:?}"
                );
            }
        }
    }
    assert_eq!(
        RenderError::Empty(EmptyRange).to_string(),
        "empty range: no key can match (start >= end)"
    );
}

#[test]
fn text_keys_that_a_dialect_cannot_hold() {
    let bad_utf8 = kr(Some(b"ab\xffc"), None);
    for d in [Dialect::Raw, Dialect::Cql, Dialect::Sql] {
        assert_eq!(
            render(d, &bad_utf8, &text()),
            Err(RenderError::NotUtf8 {
                dialect: d,
                side: Side::Start,
                offset: 2
            })
        );
        // As binary it renders.
        assert!(render(d, &bad_utf8, &RenderOptions::new()).is_ok());
    }
    let nul = kr(Some(b"a"), Some(b"b\x00c"));
    for d in [Dialect::Cql, Dialect::Sql, Dialect::Raw] {
        assert_eq!(
            render(d, &nul, &text()),
            Err(RenderError::UnrepresentableByte {
                dialect: d,
                side: Side::End,
                offset: 1,
                byte: 0
            })
        );
    }
    // Raw text: one key per line, so no control characters.
    let nl = kr(Some(b"a\nb"), None);
    assert!(matches!(
        render(Dialect::Raw, &nl, &text()),
        Err(RenderError::UnrepresentableByte {
            byte: b'\n',
            offset: 1,
            ..
        })
    ));
    // Dialects that carry any byte accept all of these.
    for d in [
        Dialect::Hbase,
        Dialect::Rocksdb,
        Dialect::Etcd,
        Dialect::Redis,
    ] {
        for r in [&bad_utf8, &nul, &nl] {
            assert!(render(d, r, &text()).is_ok(), "{d} {r:?}");
        }
    }
    assert_eq!(
        render(Dialect::Cql, &nul, &text()).unwrap_err().to_string(),
        "the end key holds byte 0x00 at byte 1, which cql text cannot hold; render the keys as binary"
    );
    assert_eq!(
        render(Dialect::Sql, &bad_utf8, &text()).unwrap_err().to_string(),
        "the start key is not valid UTF-8 (at byte 2): sql text keys must be UTF-8; render the keys as binary"
    );
}

#[test]
fn invalid_limits_and_names() {
    let r = population();
    for d in Dialect::ALL {
        for limit in [0, i32::MAX as u64 + 1, u64::MAX] {
            assert_eq!(
                render(d, &r, &text().limit(limit)),
                Err(RenderError::InvalidLimit { limit })
            );
        }
        assert!(render(d, &r, &text().limit(i32::MAX as u64)).is_ok());
    }
    for d in [Dialect::Hbase, Dialect::Cql, Dialect::Sql] {
        assert!(matches!(
            render(d, &r, &text().table("")),
            Err(RenderError::InvalidName { what: "table", .. })
        ));
        assert!(matches!(
            render(d, &r, &text().table("a\0b")),
            Err(RenderError::InvalidName { what: "table", .. })
        ));
    }
    for bad in ["new\nline", "tab\tle", "del\x7f"] {
        for d in [Dialect::Hbase, Dialect::Cql, Dialect::Sql] {
            assert!(matches!(
                render(d, &r, &text().table(bad)),
                Err(RenderError::InvalidName { what: "table", .. })
            ));
        }
    }
    assert!(matches!(
        render(Dialect::Cql, &r, &text().partition_key("")),
        Err(RenderError::InvalidName {
            what: "partition key",
            ..
        })
    ));
    assert!(matches!(
        render(Dialect::Sql, &r, &text().column("")),
        Err(RenderError::InvalidName { what: "column", .. })
    ));
    // A Redis key may be anything, even empty.
    assert_eq!(
        render(Dialect::Redis, &r, &text().table("")).unwrap(),
        "ZRANGE \"\" [population#l80000000000F4240 (population$ BYLEX\n"
    );
    assert_eq!(
        RenderError::InvalidLimit { limit: 0 }.to_string(),
        "invalid limit 0: expected 1 to 2147483647"
    );
}

#[test]
fn render_into_appends_and_leaves_output_alone_on_error() {
    let mut out = String::from("before\n");
    render_into(Dialect::Raw, &population(), &text(), &mut out).unwrap();
    assert_eq!(out, "before\npopulation#l80000000000F4240\npopulation$\n");
    let mut out = String::from("before\n");
    // The start renders before the end fails.
    let r = kr(Some(b"ok"), Some(b"p\x00"));
    assert!(render_into(Dialect::Cql, &r, &text(), &mut out).is_err());
    assert_eq!(out, "before\n");
}

#[test]
fn dialect_names_round_trip() {
    let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
    assert_eq!(
        names,
        ["raw", "hbase", "cql", "rocksdb", "etcd", "redis", "sql", "cbt", "dynamodb"]
    );
    for d in Dialect::ALL {
        assert_eq!(Dialect::parse(d.name()), Ok(d));
        assert_eq!(d.name().to_uppercase().parse::<Dialect>(), Ok(d));
        assert_eq!(Dialect::try_from(d.name()), Ok(d));
        assert_eq!(d.to_string(), d.name());
    }
    let err = Dialect::parse("mongo").unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown dialect \"mongo\": expected one of raw, hbase, cql, rocksdb, etcd, redis, sql, cbt, dynamodb"
    );
    assert!(Dialect::parse("").is_err());
    assert!(Dialect::parse("raw ").is_err());
}

#[test]
fn every_output_is_printable_ascii_lines() {
    // Whatever the keys, the rendered text is printable ASCII lines (raw and
    // text literals aside, which carry the key's own UTF-8).
    let r = kr(Some(b"\x00\x01\n\r\t\x7f\x80\xff'\"\\#{$(`"), None);
    let nul_free = kr(Some(b"\x01\n\r\t\x7f\x80\xff'\"\\#{$(`"), None);
    for d in Dialect::ALL {
        // cbt takes keys as arguments, which cannot hold the NUL: refused.
        let r = if d == Dialect::Cbt {
            assert_eq!(
                render(d, &r, &RenderOptions::new()),
                Err(RenderError::NulArgument {
                    dialect: d,
                    side: Side::Start,
                    offset: 0
                })
            );
            &nul_free
        } else {
            &r
        };
        let out = render(d, r, &RenderOptions::new().reversed(true).limit(5)).unwrap();
        assert_printable_ascii(&out);
        assert!(out.ends_with('\n'));
    }
}

// ================================================================ what you see is what runs

/// Text made of the characters a terminal hides (controls, bidi
/// formatting), their neighbours that it shows, quotes and non-UTF-8 bytes.
fn trojan_key() -> BoxedStrategy<Vec<u8>> {
    let piece = prop_oneof![
        3 => (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap().to_string().into_bytes()),
        3 => (0x7Fu32..0xA1).prop_map(|c| char::from_u32(c).unwrap().to_string().into_bytes()),
        4 => select(vec![
            0x061Cu32, 0x061B, 0x061D, 0x200B, 0x200D, 0x200E, 0x200F, 0x2010, 0x2029, 0x202A,
            0x202B, 0x202C, 0x202D, 0x202E, 0x202F, 0x2065, 0x2066, 0x2067, 0x2068, 0x2069,
            0x206A, 0xFEFF,
        ])
        .prop_map(|c| char::from_u32(c).unwrap().to_string().into_bytes()),
        4 => token(),
        1 => any::<char>().prop_map(|c| c.to_string().into_bytes()),
    ];
    vec(piece, 0..6).prop_map(|t| t.concat()).boxed()
}

/// Names: plain, or holding a hidden character.
fn trojan_name() -> BoxedStrategy<String> {
    prop_oneof![
        2 => name(),
        1 => trojan_key().prop_map(|k| String::from_utf8_lossy(&k).into_owned()),
    ]
    .boxed()
}

/// Whether `e` is a justified refusal of `r` (or of the names) in `d`.
fn justified(d: Dialect, r: &KeyRange, ro: &RenderOptions, e: &RenderError) -> bool {
    let (start, end) = norm(r);
    let key = |side: &Side| match side {
        Side::Start => start,
        Side::End => end,
    };
    let name_bad = |n: &Option<String>| {
        n.as_deref()
            .is_some_and(|n| n.is_empty() || n.chars().any(hidden))
    };
    match e {
        RenderError::NotUtf8 { side, offset, .. } => {
            ro.text
                && key(side).is_some_and(|k| {
                    std::str::from_utf8(k).err().map(|e| e.valid_up_to()) == Some(*offset)
                })
        }
        RenderError::UnrepresentableByte {
            dialect,
            side,
            offset,
            byte,
        } => {
            ro.text
                && *dialect == d
                && key(side).and_then(|k| k.get(*offset)) == Some(byte)
                && (hidden(*byte as char) && *byte < 0x80)
                && match d {
                    Dialect::Raw | Dialect::Cql => true,
                    Dialect::Sql => *byte == 0, // `text` cannot hold NUL
                    _ => false,
                }
        }
        // Only Bigtable limits a key's length (4,096 bytes).
        RenderError::KeyTooLong {
            dialect,
            side,
            len,
            max,
        } => {
            *dialect == d
                && d == Dialect::Cbt
                && *max == 4096
                && key(side).map(<[u8]>::len) == Some(*len)
                && *len > *max
        }
        // Only cbt passes keys as command-line arguments: the first NUL.
        RenderError::NulArgument {
            dialect,
            side,
            offset,
        } => {
            *dialect == d
                && d == Dialect::Cbt
                && key(side).and_then(|k| k.iter().position(|&b| b == 0)) == Some(*offset)
                && (*side == Side::Start || !start.is_some_and(|s| s.contains(&0)))
        }
        RenderError::UnrepresentableChar {
            dialect,
            side,
            offset,
            ch,
        } => {
            ro.text
                && *dialect == d
                && matches!(d, Dialect::Raw | Dialect::Cql)
                && hidden(*ch)
                && key(side)
                    .and_then(|k| std::str::from_utf8(k).ok())
                    .and_then(|s| s.get(*offset..))
                    .is_some_and(|s| s.starts_with(*ch))
        }
        RenderError::InvalidName { what, .. } => match *what {
            "table" => name_bad(&ro.table),
            "partition key" => name_bad(&ro.partition_key),
            "column" => name_bad(&ro.column),
            _ => false,
        },
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(size::cases(3000)))]

    /// No output of any dialect holds a control character (C0, DEL, C1) or
    /// a bidirectional formatting character raw: each is escaped in the
    /// target's syntax, or the range is refused for a stated reason (a
    /// dialect without escapes, a name holding one). 3,000 cases × 7
    /// dialects × text and binary. See: issue 29.
    #[test]
    fn no_output_holds_a_hidden_character_raw(
        a in option::of(trojan_key()),
        b in option::of(trojan_key()),
        o in opts(),
        table in option::of(trojan_name()),
        pk in option::of(trojan_name()),
        column in option::of(trojan_name()),
    ) {
        let r = nonempty_range(a, b);
        prop_assume!(!r.is_empty());
        for text in [true, false] {
            let mut ro = o.render_options(text);
            ro.table = table.clone();
            ro.partition_key = pk.clone();
            ro.column = column.clone();
            for d in Dialect::ALL {
                match render(d, &r, &ro) {
                    Ok(out) => assert_no_hidden(&out),
                    Err(e) => prop_assert!(justified(d, &r, &ro, &e), "{}: {:?} {:?}: {}", d, r, ro, e),
                }
            }
        }
    }
}

#[test]
fn golden_hidden_characters() {
    // SQL: escape strings, \uXXXX for C1 and bidi, \xNN for ASCII controls.
    let r = kr(
        Some("a\u{202E}b'\u{9B}".as_bytes()),
        Some("a\u{2066}\x7f".as_bytes()),
    );
    assert_eq!(
        render(Dialect::Sql, &r, &text()).unwrap(),
        "SELECT k FROM t WHERE k >= E'a\\u202Eb''\\u009B' AND k < E'a\\u2066\\x7F' ORDER BY k;\n"
    );
    // A key without them stays a plain literal, non-ASCII included.
    assert_eq!(
        render(Dialect::Sql, &kr(Some("é€".as_bytes()), None), &text()).unwrap(),
        "SELECT k FROM t WHERE k >= 'é€' ORDER BY k;\n"
    );
    // hbase, etcd, redis, rocksdb already escape every byte outside
    // printable ASCII.
    let rlo = kr(Some("x\u{202E}".as_bytes()), None);
    assert_eq!(
        render(Dialect::Hbase, &rlo, &text()).unwrap(),
        "scan 't', {STARTROW => \"x\\xE2\\x80\\xAE\"}\n"
    );
    assert_eq!(
        render(Dialect::Etcd, &rlo, &text())
            .unwrap()
            .lines()
            .next()
            .unwrap(),
        "etcdctl get --from-key $'x\\xE2\\x80\\xAE'"
    );
    assert_eq!(
        render(Dialect::Redis, &rlo, &text()).unwrap(),
        "ZRANGE t \"[x\\xE2\\x80\\xAE\" + BYLEX\n"
    );
    assert_eq!(
        render(Dialect::Rocksdb, &rlo, &text()).unwrap(),
        "iterate_lower_bound=0x78e280ae\niterate_upper_bound=\n"
    );
    // CQL and raw have no escapes: refused, at the first such character.
    for d in [Dialect::Cql, Dialect::Raw] {
        assert_eq!(
            render(d, &r, &text()),
            Err(RenderError::UnrepresentableChar {
                dialect: d,
                side: Side::Start,
                offset: 1,
                ch: '\u{202E}'
            })
        );
        assert_eq!(
            render(d, &kr(Some(b"a"), Some(b"b\x7f")), &text()),
            Err(RenderError::UnrepresentableByte {
                dialect: d,
                side: Side::End,
                offset: 1,
                byte: 0x7F
            })
        );
        // As binary they render (blob literals, hex).
        assert!(render(d, &r, &RenderOptions::new()).is_ok());
    }
    assert_eq!(
        render(Dialect::Cql, &kr(Some("\u{9B}".as_bytes()), None), &text())
            .unwrap_err()
            .to_string(),
        "the start key holds U+009B at byte 0, a control or bidirectional formatting character that \
         cql text has no escape for (printed raw, a terminal would show something other than what \
         runs); render the keys as binary"
    );
    // CQL: line breaks and tabs too (no escapes, one statement per line).
    assert!(matches!(
        render(Dialect::Cql, &kr(Some(b"a\nb"), None), &text()),
        Err(RenderError::UnrepresentableByte {
            byte: b'\n',
            offset: 1,
            ..
        })
    ));
    // Names are printed as themselves: refused.
    for (bad, reason) in [
        (
            "t\u{202E}",
            "a name cannot hold a bidirectional formatting character",
        ),
        ("t\u{85}", "a name cannot hold a control character"),
    ] {
        for d in [Dialect::Hbase, Dialect::Cql, Dialect::Sql] {
            assert_eq!(
                render(d, &population(), &text().table(bad)),
                Err(RenderError::InvalidName {
                    what: "table",
                    name: bad.to_string(),
                    reason
                })
            );
        }
    }
    // The Redis key is a quoted argument: escaped.
    assert_eq!(
        render(
            Dialect::Redis,
            &kr(None, Some(b"b")),
            &text().table("z\u{202E}")
        )
        .unwrap(),
        "ZRANGE \"z\\xE2\\x80\\xAE\" - (b BYLEX\n"
    );
}

#[test]
fn golden_hbase_filters_that_are_not_utf8() {
    // The issue's case: `range --format binary --for hbase --reversed -- bytes:ff`.
    let r = kr(Some(b"\xff\x00\x01"), Some(b"\xff\x00\x02"));
    assert_eq!(
        render(Dialect::Hbase, &r, &RenderOptions::new().reversed(true)).unwrap(),
        "scan 't', {STARTROW => \"\\xFF\\x00\\x02\", FILTER => \
         org.apache.hadoop.hbase.filter.ParseFilter.new.parseFilterString(\"RowFilter(<, \
         'binary:\\xFF\\x00\\x02') AND InclusiveStopFilter('\\xFF\\x00\\x01')\".to_java_bytes), \
         REVERSED => true}\n"
    );
    // UTF-8 filters stay strings (the same bytes in every shell).
    let r = kr(Some("é".as_bytes()), Some("ü".as_bytes()));
    assert_eq!(
        render(Dialect::Hbase, &r, &RenderOptions::new().reversed(true)).unwrap(),
        "scan 't', {STARTROW => \"\\xC3\\xBC\", FILTER => \"RowFilter(<, 'binary:\\xC3\\xBC') \
         AND InclusiveStopFilter('\\xC3\\xA9')\", REVERSED => true}\n"
    );
    // Forward scans have no filter.
    assert_eq!(
        render(
            Dialect::Hbase,
            &kr(Some(b"\xff"), None),
            &RenderOptions::new()
        )
        .unwrap(),
        "scan 't', {STARTROW => \"\\xFF\"}\n"
    );
}

// ================================================================ base64

/// An independent decoder (table-free, strict about padding).
fn b64_decode(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let s = s.as_bytes();
    if !s.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::new();
    for (i, q) in s.chunks(4).enumerate() {
        let last = i == s.len() / 4 - 1;
        let pad = q.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for &c in &q[..4 - pad] {
            n = n << 6 | val(c)?;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        // Canonical: the bits padding drops are zero.
        if pad > 0 && bytes[3 - pad..].iter().any(|&b| b != 0) {
            return None;
        }
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

#[test]
fn base64_rfc4648_vectors() {
    for (raw, enc) in [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ] {
        assert_eq!(base64(raw.as_bytes()), enc);
        assert_eq!(b64_decode(enc).unwrap(), raw.as_bytes());
    }
    assert_eq!(base64(&[0xFF, 0xFF, 0xFE]), "///+");
    assert_eq!(base64(&[0xFB, 0xEF]), "++8=");
}

// ================================================================ hbase via Ruby

const RUBY_PRELUDE: &str = r#"
$stdout.binmode
STARTROW = 'STARTROW'; STOPROW = 'STOPROW'; FILTER = 'FILTER'; LIMIT = 'LIMIT'; REVERSED = 'REVERSED'
# Stand-ins for JRuby's Java integration, enough for the one Java call the
# renderer prints (org.apache.hadoop.hbase.filter.ParseFilter.new
# .parseFilterString(bytes)): String#to_java_bytes is the string's bytes,
# and the call returns a filter that remembers them. The JRuby test below
# runs the same lines against Java classes.
class String
  def to_java_bytes
    JavaBytes.new(b)
  end
end
JavaBytes = Struct.new(:bytes)
ParsedFilter = Struct.new(:source)
class JavaName
  def initialize(path)
    @path = path
  end
  CALL = %w[org apache hadoop hbase filter ParseFilter new parseFilterString]
  def method_missing(name, *args)
    path = @path + [name.to_s]
    if path == CALL
      raise "parseFilterString takes one byte[]: #{args.inspect}" unless args.size == 1 && args[0].is_a?(JavaBytes)
      return ParsedFilter.new(args[0].bytes)
    end
    raise "no such Java name #{path.join('.')}" unless args.empty? && path == CALL.first(path.size)
    JavaName.new(path)
  end
end
def org
  JavaName.new(['org'])
end
def hx(v)
  case v
  when nil then '-'
  when String then 'x' + v.unpack1('H*')
  when ParsedFilter then 'j' + v.source.unpack1('H*')
  else v.inspect
  end
end
def scan(table, opts = {})
  extra = opts.keys - [STARTROW, STOPROW, FILTER, LIMIT, REVERSED]
  raise "unexpected options #{extra.inspect}" unless extra.empty?
  puts [table, opts[STARTROW], opts[STOPROW], opts[FILTER], opts[LIMIT], opts[REVERSED]].map { |v| hx(v) }.join(' ')
end
"#;

/// What Ruby saw for one `scan` command.
#[derive(Debug, PartialEq)]
struct Scan {
    table: Vec<u8>,
    startrow: Option<Vec<u8>>,
    stoprow: Option<Vec<u8>>,
    filter: Option<Vec<u8>>,
    /// The FILTER was a Filter object (parsed from bytes), not a string.
    filter_object: bool,
    limit: Option<u64>,
    reversed: bool,
}

fn parse_ruby_line(line: &str) -> Scan {
    let f: Vec<&str> = line.split(' ').collect();
    assert_eq!(f.len(), 6, "{line:?}");
    let bytes = |s: &str| -> Option<Vec<u8>> {
        match s {
            "-" => None,
            _ => Some(unhex(s.strip_prefix('x').expect("string"))),
        }
    };
    let filter_object = f[3].starts_with('j');
    let filter = if filter_object {
        Some(unhex(&f[3][1..]))
    } else {
        bytes(f[3])
    };
    Scan {
        table: bytes(f[0]).expect("table"),
        startrow: bytes(f[1]),
        stoprow: bytes(f[2]),
        filter,
        filter_object,
        limit: (f[4] != "-").then(|| f[4].parse().expect("limit")),
        reversed: match f[5] {
            "-" => false,
            "true" => true,
            other => panic!("REVERSED => {other}"),
        },
    }
}

/// HBase filter language, as `ParseFilter` reads it: simple expressions
/// `Name(arg, …)` joined by `AND`; quoted arguments with `''` for a quote.
fn parse_hbase_filter(s: &[u8]) -> Vec<(String, Vec<Vec<u8>>)> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut expect_filter = true;
    while i < s.len() {
        if s[i] == b' ' || s[i] == b'\t' {
            i += 1;
            continue;
        }
        if !expect_filter {
            assert!(s[i..].starts_with(b"AND "), "expected AND at {i}: {s:?}");
            i += 3;
            expect_filter = true;
            continue;
        }
        // extractFilterSimpleExpression: up to the `)` outside quotes.
        let start = i;
        let mut quotes = 0;
        let end = loop {
            assert!(i < s.len(), "unterminated filter: {s:?}");
            if s[i] == b'\'' {
                if i + 1 < s.len() && s[i + 1] == b'\'' {
                    i += 1;
                } else {
                    quotes += 1;
                }
            } else if s[i] == b')' && quotes % 2 == 0 {
                break i;
            }
            i += 1;
        };
        let expr = &s[start..=end];
        i = end + 1;
        let lp = expr.iter().position(|&c| c == b'(').expect("(");
        let name = String::from_utf8(expr[..lp].to_vec()).expect("name");
        // getFilterArguments.
        let mut args = Vec::new();
        let mut j = lp + 1;
        while j < expr.len() {
            match expr[j] {
                b' ' | b',' | b')' => j += 1,
                b'\'' => {
                    let mut arg = Vec::new();
                    j += 1;
                    loop {
                        assert!(j < expr.len(), "unterminated argument: {expr:?}");
                        if expr[j] == b'\'' {
                            if j + 1 < expr.len() && expr[j + 1] == b'\'' {
                                arg.push(b'\'');
                                j += 2;
                                continue;
                            }
                            j += 1;
                            break;
                        }
                        arg.push(expr[j]);
                        j += 1;
                    }
                    args.push(arg);
                }
                _ => {
                    let k = j + expr[j..]
                        .iter()
                        .position(|&c| matches!(c, b' ' | b',' | b')'))
                        .expect("end of argument");
                    args.push(expr[j..k].to_vec());
                    j = k;
                }
            }
        }
        out.push((name, args));
        expect_filter = false;
    }
    out
}

/// Whether HBase would return row `k` for this scan.
fn hbase_returns(scan: &Scan, filters: &[(String, Vec<Vec<u8>>)], k: &[u8]) -> bool {
    // An empty STARTROW/STOPROW means "no bound" to HBase.
    let startrow = scan.startrow.as_deref().filter(|s| !s.is_empty());
    let stoprow = scan.stoprow.as_deref().filter(|s| !s.is_empty());
    let in_rows = if scan.reversed {
        startrow.is_none_or(|s| k <= s) && stoprow.is_none_or(|s| k > s)
    } else {
        startrow.is_none_or(|s| k >= s) && stoprow.is_none_or(|s| k < s)
    };
    in_rows
        && filters.iter().all(|(name, args)| match name.as_str() {
            "RowFilter" => {
                assert_eq!(args[0], b"<");
                let v = args[1].strip_prefix(b"binary:").expect("binary comparator");
                k < v
            }
            "InclusiveStopFilter" => {
                if scan.reversed {
                    k >= &args[0][..]
                } else {
                    k <= &args[0][..]
                }
            }
            other => panic!("unexpected filter {other}"),
        })
}

/// Keys at and around every bound: where off-by-one errors show.
fn probes(r: &KeyRange) -> Vec<Vec<u8>> {
    let mut p: Vec<Vec<u8>> = vec![b"\x00".to_vec(), b"\xff\xff\xff".to_vec(), b"a".to_vec()];
    for x in [&r.start, &r.end].into_iter().flatten() {
        if x.is_empty() {
            continue;
        }
        let n = x.len();
        p.push(x.clone());
        p.push(x[..n - 1].to_vec());
        let suffixes: [&[u8]; 5] = [&[0], &[0, 0], &[1], &[0xFF], &[0xFF, 0xFF]];
        for suffix in suffixes {
            p.push([&x[..], suffix].concat());
        }
        let last = x[n - 1];
        if last < 0xFF {
            p.push([&x[..n - 1], &[last + 1]].concat());
        }
        if last > 0 {
            p.push([&x[..n - 1], &[last - 1, 0xFF, 0xFF, 0xFF]].concat());
        }
    }
    p.retain(|k| !k.is_empty()); // HBase has no empty row key
    p
}

fn check_hbase_batch(cases: &[(KeyRange, Opts)]) {
    let mut script = String::from(RUBY_PRELUDE);
    let mut rendered = Vec::new();
    for (r, o) in cases {
        let out = render(Dialect::Hbase, r, &o.render_options(false)).unwrap();
        assert_printable_ascii(&out);
        assert_eq!(out.matches('\n').count(), 1, "{out:?}");
        script.push_str(&out);
        rendered.push(out);
    }
    let stdout = run_tool(
        &which("ruby"),
        &["-W0", "-"],
        script.as_bytes(),
        "apt-get update && apt-get install -y ruby",
    );
    let stdout = String::from_utf8(stdout).expect("hex output");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), cases.len(), "one line per scan command");
    for (((r, o), line), cmd) in cases.iter().zip(&lines).zip(&rendered) {
        check_hbase_scan(r, o, &parse_ruby_line(line), &format!("{r:?} {o:?}\n{cmd}"));
    }
}

/// What HBase would do with `scan` (the arguments as the shell received
/// them) returns exactly the rows of `r`, in the order and number asked.
fn check_hbase_scan(r: &KeyRange, o: &Opts, scan: &Scan, ctx: &str) {
    {
        assert_eq!(
            scan.table,
            o.table.as_deref().unwrap_or("t").as_bytes(),
            "{ctx}"
        );
        assert_eq!(scan.limit, o.limit, "{ctx}");
        assert_eq!(scan.reversed, o.reversed, "{ctx}");
        let (start, end) = norm(r);
        let filters = scan
            .filter
            .as_deref()
            .map(parse_hbase_filter)
            .unwrap_or_default();
        // A filter string only when its bytes are UTF-8: the shells before
        // HBASE-15032 decode it into a Java String (see `Dialect::Hbase`).
        if let Some(f) = &scan.filter {
            assert_eq!(scan.filter_object, std::str::from_utf8(f).is_err(), "{ctx}");
        }
        if !o.reversed {
            assert_eq!(scan.startrow.as_deref(), start, "{ctx}");
            assert_eq!(scan.stoprow.as_deref(), end, "{ctx}");
            assert!(filters.is_empty(), "{ctx}");
        } else {
            // The shell's old Scan(start, stop) makes start == stop a Get.
            if let (Some(a), Some(b)) = (&scan.startrow, &scan.stoprow) {
                assert_ne!(a, b, "{ctx}");
            }
            for k in probes(r) {
                assert_eq!(
                    hbase_returns(scan, &filters, &k),
                    r.contains(&k),
                    "row {k:?}\n{ctx}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// 32 batches × 100 = 3,200 scan commands through Ruby.
    #[test]
    fn hbase_commands_parse_to_the_intended_bytes_in_ruby(
        cases in vec((bin_range(), opts()), 100)
    ) {
        check_hbase_batch(&cases);
    }
}

#[test]
fn hbase_ruby_literals_of_every_byte() {
    // Every single byte and every pair around `#`, through Ruby.
    let mut keys: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    for b in 0..=255u8 {
        keys.push(vec![b'#', b]);
        keys.push(vec![b'\\', b]);
    }
    let mut script = String::from("$stdout.binmode\n");
    for k in &keys {
        let lit = ruby_literal(k);
        assert_printable_ascii(&lit);
        script.push_str(&format!("puts({lit}.unpack1('H*'))\n"));
    }
    let out = run_tool(
        &which("ruby"),
        &["-W0", "-"],
        script.as_bytes(),
        "apt-get update && apt-get install -y ruby",
    );
    let out = String::from_utf8(out).unwrap();
    let got: Vec<Vec<u8>> = out.lines().map(unhex).collect();
    assert_eq!(got, keys);
}

// ================================================================ hbase via JRuby

// The hbase shell is JRuby, and its shells have turned a `FILTER` string
// into the bytes HBase parses in two ways (apache/hbase,
// hbase-shell/src/main/ruby/hbase/table.rb, `_hash_to_scan`):
// - before HBASE-15032 (0.94.x, 0.96.x, 0.98.0–0.98.16.1, 1.0.x, 1.1.x):
//   `ParseFilter.new.parseFilterString(filter)`, the `String` overload: JRuby
//   decodes the Ruby string into a java.lang.String, ParseFilter encodes it
//   back with `Bytes.toBytes` (UTF-8);
// - since (0.98.17+, 1.2.0+, 2.x, 3.x):
//   `ParseFilter.new.parseFilterString(filter.to_java_bytes)`.
// A FILTER that is not a String goes to `scan.setFilter(filter)` in both.
// These tests run the rendered lines under Debian's `jruby` with a stand-in
// `scan` that does exactly that, once per way, against Java stand-ins for
// HBase's `ParseFilter` (both overloads, as HBase writes them) and `Filter`
// (which records the bytes it was parsed from), compiled by `javac`.
// See: issue 29.

const JAVA_PARSE_FILTER: &str = r#"package org.apache.hadoop.hbase.filter;

import java.nio.charset.StandardCharsets;

/** Stand-in for HBase's ParseFilter: its two parseFilterString overloads. */
public class ParseFilter {
    /** As HBase: {@code return parseFilterString(Bytes.toBytes(filterString));} (UTF-8). */
    public Filter parseFilterString(String filterString) {
        return new Filter(filterString.getBytes(StandardCharsets.UTF_8), "String");
    }

    /** As HBase: parses these bytes. */
    public Filter parseFilterString(byte[] filterStringAsByteArray) {
        return new Filter(filterStringAsByteArray.clone(), "bytes");
    }
}
"#;

const JAVA_FILTER: &str = r#"package org.apache.hadoop.hbase.filter;

/** Stand-in for a parsed filter: the bytes it was parsed from. */
public class Filter {
    private final byte[] source;
    private final String via;

    Filter(byte[] source, String via) {
        this.source = source;
        this.via = via;
    }

    /** Which overload parsed it: "String" or "bytes". */
    public String via() {
        return via;
    }

    /** The bytes it was parsed from, as lowercase hex. */
    public String sourceHex() {
        return hex(source);
    }

    /** Lowercase hex of {@code b} (what Ruby's unpack1('H*') prints). */
    public static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(2 * b.length);
        for (byte x : b) {
            s.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return s.toString();
    }
}
"#;

/// The stand-in hbase shell: `scan` as `_hash_to_scan` builds it, printing
/// what reaches HBase: table, STARTROW, STOPROW (`to_java_bytes`, as the
/// shell passes them), the filter's bytes (`x…` parsed from a FILTER
/// string, `j…` a Filter object given as FILTER), LIMIT, REVERSED, and
/// which overload parsed the filter. `$shell` picks the way a FILTER
/// string is turned into bytes.
const JRUBY_PRELUDE: &str = r#"
require 'java'
$stdout.binmode
STARTROW = 'STARTROW'; STOPROW = 'STOPROW'; FILTER = 'FILTER'; LIMIT = 'LIMIT'; REVERSED = 'REVERSED'
$shell = :java_string
def hx(v)
  v.nil? ? '-' : 'x' + org.apache.hadoop.hbase.filter.Filter.hex(v.to_java_bytes)
end
def scan(table, args = {})
  extra = args.keys - [STARTROW, STOPROW, FILTER, LIMIT, REVERSED]
  raise "unexpected options #{extra.inspect}" unless extra.empty?
  filter = args[FILTER]
  if filter.class == String
    parser = org.apache.hadoop.hbase.filter.ParseFilter.new
    parsed = case $shell
             when :java_string then parser.parseFilterString(filter)
             when :java_bytes then parser.parseFilterString(filter.to_java_bytes)
             end
    f = 'x' + parsed.sourceHex
  elsif filter.nil?
    parsed = nil
    f = '-'
  elsif filter.is_a?(org.apache.hadoop.hbase.filter.Filter)
    parsed = filter
    f = 'j' + parsed.sourceHex
  else
    raise "FILTER is neither a String nor a Filter: #{filter.class}"
  end
  puts [hx(table), hx(args[STARTROW]), hx(args[STOPROW]), f,
        args[LIMIT].nil? ? '-' : args[LIMIT].inspect,
        args[REVERSED].nil? ? '-' : args[REVERSED].inspect,
        parsed.nil? ? '-' : parsed.via].join(' ')
end
# Each line of stdin is one command, evaluated on its own as the shell
# evaluates a typed line, its source read as UTF-8 (the shell's locale).
$stdin.binmode
$stdin.each_line { |line| eval(line.force_encoding('UTF-8'), TOPLEVEL_BINDING) }
"#;

/// Compiles the Java stand-ins once per test process and writes the
/// stand-in shell next to them: (classpath, shell script).
fn java_standins() -> &'static (String, String) {
    static DIR: std::sync::OnceLock<(String, String)> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("render-hbase-standins-{}", std::process::id()));
        let src = dir.join("src/org/apache/hadoop/hbase/filter");
        std::fs::create_dir_all(&src).expect("mkdir");
        std::fs::write(src.join("ParseFilter.java"), JAVA_PARSE_FILTER).expect("write");
        std::fs::write(src.join("Filter.java"), JAVA_FILTER).expect("write");
        let classes = dir.join("classes");
        let out = Command::new(which("javac"))
            .arg("-d")
            .arg(&classes)
            .arg(src.join("ParseFilter.java"))
            .arg(src.join("Filter.java"))
            .output()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot run javac: {e}. The hbase-shell tests compile Java stand-ins and must \
                     not be skipped: apt-get install -y openjdk-17-jdk-headless"
                )
            });
        assert!(
            out.status.success(),
            "javac failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let shell = dir.join("shell.rb");
        std::fs::write(&shell, JRUBY_PRELUDE).expect("write");
        (
            classes.to_str().expect("utf-8 path").to_string(),
            shell.to_str().expect("utf-8 path").to_string(),
        )
    })
}

/// Runs the stand-in shell under Debian's `jruby` with the Java stand-ins
/// on the class path, one command per line of `lines`; its stdout. A
/// missing jruby fails the test, naming the package.
fn run_jruby(lines: &str) -> String {
    let (classpath, shell) = java_standins();
    let mut cmd = Command::new(which("jruby"));
    // --dev: a faster start (no JIT), the same semantics; a bounded heap.
    cmd.args(["--dev", "-J-Xmx512m", "-W0", shell])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", env!("CARGO_TARGET_TMPDIR"))
        .env("LC_ALL", "C")
        .env("CLASSPATH", classpath);
    let install = "the hbase shell is JRuby and its rendered lines are run by JRuby: install the \
                   Debian package `jruby` (apt-get update && apt-get install -y jruby; \
                   scripts/test.sh does this)";
    let out = run_piped(cmd, lines.as_bytes(), install);
    String::from_utf8(out.stdout).expect("hex output")
}

/// Runs every case's hbase line under JRuby, once as a shell that passes a
/// FILTER string through a Java String and once as one that passes its
/// bytes, and checks that both return exactly the range's rows.
fn check_hbase_jruby_batch(cases: &[(KeyRange, Opts)]) {
    let mut script = String::new();
    let mut lines = String::new();
    let mut rendered = Vec::new();
    for (r, o) in cases {
        let out = render(Dialect::Hbase, r, &o.render_options(false)).unwrap();
        assert_printable_ascii(&out);
        assert_eq!(out.matches('\n').count(), 1, "{out:?}");
        lines.push_str(&out);
        rendered.push(out);
    }
    for shell in ["java_string", "java_bytes"] {
        script.push_str(&format!("$shell = :{shell}\n"));
        script.push_str(&lines);
    }
    let stdout = run_jruby(&script);
    let got: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        got.len(),
        2 * cases.len(),
        "one line per scan command and shell"
    );
    let mut filter_objects = 0;
    for (shell, got) in ["java_string", "java_bytes"]
        .iter()
        .zip(got.chunks(cases.len()))
    {
        for (((r, o), line), cmd) in cases.iter().zip(got).zip(&rendered) {
            let (head, via) = line.rsplit_once(' ').expect("7 fields");
            let scan = parse_ruby_line(head);
            let ctx = format!("shell {shell}: {r:?} {o:?}\n{cmd}");
            // Which overload parsed the filter: a FILTER string goes through
            // the one this shell uses, a Filter object was parsed from bytes.
            let want_via = match (&scan.filter, scan.filter_object, *shell) {
                (None, _, _) => "-",
                (Some(_), true, _) | (Some(_), false, "java_bytes") => "bytes",
                (Some(_), false, _) => "String",
            };
            assert_eq!(via, want_via, "{ctx}");
            filter_objects += usize::from(scan.filter_object);
            check_hbase_scan(r, o, &scan, &ctx);
        }
    }
    // Not a vacuous pass: the batches hold filters that are not UTF-8.
    if cases.len() >= 100 {
        assert!(filter_objects > 0, "no case needed a Filter object");
    }
}

/// Reversed most of the time: reversed scans are where the filters are.
fn hbase_opts() -> BoxedStrategy<Opts> {
    (opts(), prop::bool::weighted(0.8))
        .prop_map(|(mut o, rev)| {
            o.reversed = rev;
            o
        })
        .boxed()
}

/// A component value of a random type for `.desc` key ranges.
fn desc_value() -> BoxedStrategy<Value<'static>> {
    prop_oneof![
        prop_oneof![
            Just(i64::MIN),
            Just(-1i64),
            Just(0i64),
            Just(1i64),
            Just(i64::MAX),
            any::<i64>()
        ]
        .prop_map(Value::I64),
        text_key().prop_map(|k| Value::from(String::from_utf8(k).expect("utf-8"))),
        bin_key().prop_map(Value::from),
    ]
    .boxed()
}

/// Ranges of real `.desc` keys: a predicate on a descending component
/// (sometimes ascending) under a prefix of string components of either
/// direction, in every format; the binary format's descending keys are
/// inverted bytes (`FF`-heavy, not UTF-8).
fn desc_range() -> BoxedStrategy<KeyRange> {
    (
        select(Format::ALL.to_vec()),
        vec((text_key(), any::<bool>()), 0..3),
        prop::bool::weighted(0.8),
        0..6usize,
        desc_value(),
        desc_value(),
    )
        .prop_filter_map("a range with keys", |(format, prefix, desc, op, a, b)| {
            let comp = |v: Value<'static>| Component {
                value: v,
                dir: if desc { Dir::Desc } else { Dir::Asc },
                width: None,
                nulls: None,
                list: 0,
            };
            let prefix: Vec<Component<'static>> = prefix
                .into_iter()
                .map(|(s, d)| Component {
                    value: Value::from(String::from_utf8(s).expect("utf-8")),
                    dir: if d { Dir::Desc } else { Dir::Asc },
                    width: None,
                    nulls: None,
                    list: 0,
                })
                .collect();
            let q = RangeQuery::new(format).prefix(&prefix);
            let q = match op {
                0 => q.ge(comp(a)),
                1 => q.gt(comp(a)),
                2 => q.le(comp(a)),
                3 => q.lt(comp(a)),
                4 => q.eq(comp(a)),
                _ => {
                    // `between` needs one type on both ends.
                    if a.ty() != b.ty() {
                        return None;
                    }
                    q.between(comp(a), true, comp(b), false)
                }
            };
            q.build().ok().filter(|r| !r.is_empty())
        })
        .boxed()
}

/// Keys and ranges where the two ways part: the issue's own example
/// (`--format binary --reversed -- bytes:ff`), every single byte as the
/// end of a reversed range, long values, quotes, backslashes and `#{`.
fn hbase_edge_cases() -> Vec<(KeyRange, Opts)> {
    let rev = Opts {
        table: None,
        limit: None,
        reversed: true,
    };
    let mut cases = vec![
        (
            kr(Some(b"\xff\x00\x01"), Some(b"\xff\x00\x02")),
            rev.clone(),
        ),
        (kr(None, Some(b"\xff\x00\x02")), rev.clone()),
        (kr(Some(b"\xfe"), None), rev.clone()),
        (
            kr(Some(b"a'\\#{x}\xc3"), Some(b"a'\\#{x}\xc4")),
            rev.clone(),
        ),
    ];
    for b in 0..=255u8 {
        cases.push((kr(Some(b"\x00\x01"), Some(&[b'k', b, b'\''])), rev.clone()));
        cases.push((kr(Some(&[b'k', b]), None), rev.clone()));
    }
    let long: Vec<u8> = (0..60_000u32).map(|i| (i * 7 % 256) as u8).collect();
    let mut long_end = long.clone();
    long_end.push(0xFF);
    cases.push((
        KeyRange {
            start: Some(long.clone()),
            end: Some(long_end),
        },
        rev.clone(),
    ));
    let mut utf8_long = "é#{'\\".repeat(10_000).into_bytes();
    cases.push((
        KeyRange {
            start: None,
            end: Some(utf8_long.clone()),
        },
        rev.clone(),
    ));
    utf8_long.push(0x80);
    cases.push((
        KeyRange {
            start: Some(utf8_long),
            end: None,
        },
        rev,
    ));
    cases
}

proptest! {
    // JRuby takes seconds to start (its lines take milliseconds): one run
    // for all three batches, many lines in it.
    #![proptest_config(ProptestConfig::with_cases(1))]

    /// In one JRuby run, each line run as both kinds of shell: the edge
    /// cases ([`hbase_edge_cases`]), 1,600 scan commands (80% reversed,
    /// adversarial bytes) and 1,600 scans over ranges of `.desc` keys in
    /// every format.
    #[test]
    fn hbase_commands_are_exact_in_both_kinds_of_shell(
        commands in vec((bin_range(), hbase_opts()), 1600),
        desc in vec((desc_range(), hbase_opts()), 1600),
    ) {
        let mut cases = hbase_edge_cases();
        cases.extend(commands);
        cases.extend(desc);
        check_hbase_jruby_batch(&cases);
    }
}

// ================================================================ etcdctl via bash

/// What etcdctl (cobra/pflag, then `getGetOp`) makes of `get` arguments.
#[derive(Debug, PartialEq)]
struct EtcdGet {
    key: Vec<u8>,
    range_end: Vec<u8>,
    limit: Option<u64>,
    descend_by_key: bool,
}

fn etcdctl_get(args: &[Vec<u8>]) -> EtcdGet {
    assert_eq!(args[0], b"get");
    let mut positional = Vec::new();
    let (mut from_key, mut limit, mut order, mut sort_by) = (false, None, None, None);
    let mut dashdash = false;
    for a in &args[1..] {
        if dashdash || !a.starts_with(b"-") || a == b"-" {
            positional.push(a.clone());
        } else if a == b"--" {
            dashdash = true;
        } else {
            let a = std::str::from_utf8(a).expect("flag");
            match a.split_once('=') {
                None if a == "--from-key" => from_key = true,
                Some(("--limit", n)) => limit = Some(n.parse().unwrap()),
                Some(("--order", o)) => order = Some(o.to_string()),
                Some(("--sort-by", t)) => sort_by = Some(t.to_string()),
                _ => panic!("unknown flag {a}"),
            }
        }
    }
    assert!(
        !positional.is_empty() && positional.len() <= 2,
        "{positional:?}"
    );
    let mut key = positional[0].clone();
    let range_end = if from_key {
        assert_eq!(positional.len(), 1);
        if key.is_empty() {
            key = b"\x00".to_vec();
        }
        b"\x00".to_vec()
    } else {
        positional.get(1).cloned().expect("range_end")
    };
    assert!(!key.is_empty(), "etcd refuses an empty key");
    let descend_by_key = match (order.as_deref(), sort_by.as_deref()) {
        (None, None) => false,
        (Some("DESCEND"), Some("KEY")) => true,
        other => panic!("{other:?}"),
    };
    EtcdGet {
        key,
        range_end,
        limit,
        descend_by_key,
    }
}

fn expected_etcd(r: &KeyRange, o: &Opts) -> EtcdGet {
    let (start, end) = norm(r);
    EtcdGet {
        key: start.unwrap_or(b"\x00").to_vec(),
        range_end: end.unwrap_or(b"\x00").to_vec(),
        limit: o.limit,
        descend_by_key: o.reversed,
    }
}

/// The JSON body, read by a strict little parser (string values only).
fn parse_json_object(s: &str) -> Vec<(String, String)> {
    let b = s.as_bytes();
    let mut i = 0;
    let string = |i: &mut usize| -> String {
        assert_eq!(b[*i], b'"', "{s}");
        *i += 1;
        let start = *i;
        while b[*i] != b'"' {
            assert!(b[*i] != b'\\' && b[*i] >= 0x20, "unexpected escape in {s}");
            *i += 1;
        }
        *i += 1;
        s[start..*i - 1].to_string()
    };
    assert_eq!(b[i], b'{');
    i += 1;
    let mut fields = Vec::new();
    loop {
        let k = string(&mut i);
        assert_eq!(b[i], b':');
        i += 1;
        let v = string(&mut i);
        fields.push((k, v));
        match b[i] {
            b',' => i += 1,
            b'}' => break,
            c => panic!("unexpected {:?} in {s}", c as char),
        }
    }
    assert_eq!(i + 1, b.len(), "trailing text in {s}");
    fields
}

fn check_etcd_json(r: &KeyRange, o: &Opts, line: &str) {
    let fields = parse_json_object(line);
    let want = expected_etcd(r, o);
    let get = |k: &str| fields.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    assert_eq!(b64_decode(get("key").unwrap()).unwrap(), want.key, "{line}");
    assert_eq!(
        b64_decode(get("range_end").unwrap()).unwrap(),
        want.range_end,
        "{line}"
    );
    assert_eq!(get("limit").map(|l| l.parse().unwrap()), o.limit, "{line}");
    if o.reversed {
        assert_eq!(get("sort_order"), Some("DESCEND"));
        assert_eq!(get("sort_target"), Some("KEY"));
    }
    let known = ["key", "range_end", "limit", "sort_order", "sort_target"];
    assert!(fields.iter().all(|(k, _)| known.contains(&k.as_str())));
    assert_eq!(
        fields.len(),
        2 + usize::from(o.limit.is_some()) + 2 * usize::from(o.reversed)
    );
}

fn check_etcd_batch(cases: &[(KeyRange, Opts)]) {
    let mut script = String::from("etcdctl() { printf '%s\\0' \"$#\" \"$@\"; }\n");
    let mut expected = Vec::new();
    for (r, o) in cases {
        let out = render(Dialect::Etcd, r, &o.render_options(false)).unwrap();
        assert_printable_ascii(&out);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out:?}");
        check_etcd_json(r, o, lines[1]);
        let (start, end) = norm(r);
        let nul = [start, end].into_iter().flatten().any(|k| k.contains(&0));
        let expressible = !nul && (start.is_some() || end.is_none());
        if expressible {
            assert!(lines[0].starts_with("etcdctl get "), "{out}");
            expected.push((r, o, lines[0].to_string()));
        } else {
            assert!(
                lines[0].starts_with("# etcdctl cannot take this range: "),
                "{out}"
            );
        }
        script.push_str(lines[0]);
        script.push('\n');
    }
    let out = run_tool(
        &which("bash"),
        &["--noprofile", "--norc", "-s"],
        script.as_bytes(),
        "install bash",
    );
    let mut fields = out.split(|&b| b == 0);
    for (r, o, cmd) in expected {
        let n: usize = std::str::from_utf8(fields.next().expect("count"))
            .unwrap()
            .parse()
            .unwrap_or_else(|e| panic!("{e}: {cmd}"));
        let args: Vec<Vec<u8>> = (0..n).map(|_| fields.next().unwrap().to_vec()).collect();
        assert_eq!(
            etcdctl_get(&args),
            expected_etcd(r, o),
            "{r:?} {o:?}\n{cmd}"
        );
    }
    assert_eq!(
        fields.next(),
        Some(&b""[..]),
        "nothing after the last command"
    );
    assert_eq!(fields.next(), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// 64 batches × 100 = 6,400 etcd renderings through bash: ~45% are
    /// etcdctl commands (≈2,900 checked argument by argument), the rest the
    /// comment line (a key with NUL, or an unbounded start), which bash must
    /// run as a no-op. The JSON body of each is decoded too.
    #[test]
    fn etcdctl_commands_pass_the_intended_bytes_through_bash(
        cases in vec((bin_range(), opts()), 100)
    ) {
        check_etcd_batch(&cases);
    }

    /// The shell quoting alone, NUL-free keys: 64 × 100 = 6,400 keys come
    /// back exact from one `printf` per batch.
    #[test]
    fn shell_quote_round_trips_through_bash(keys in vec(bin_key(), 100)) {
        let keys: Vec<Vec<u8>> = keys
            .into_iter()
            .map(|k| k.into_iter().filter(|&b| b != 0).collect())
            .collect();
        let mut script = String::from("printf '%s\\0'");
        for k in &keys {
            let q = shell_quote(k).unwrap();
            assert_printable_ascii(&q);
            script.push(' ');
            script.push_str(&q);
        }
        script.push('\n');
        let out = run_tool(&which("bash"), &["--noprofile", "--norc", "-s"], script.as_bytes(), "install bash");
        let got: Vec<&[u8]> = out.split(|&b| b == 0).collect();
        prop_assert_eq!(got.len(), keys.len() + 1);
        for (g, k) in got.iter().zip(&keys) {
            prop_assert_eq!(*g, &k[..]);
        }
    }
}

// ================================================================ cbt via bash

/// What a `cbt read` line asks for, as cbt reads its arguments: the global
/// flags, the table, and the row range (Go's `bigtable.NewRange`,
/// `InfiniteRange` or `PrefixRange`), count and direction.
#[derive(Debug, PartialEq, Eq)]
struct CbtRead {
    project: Option<Vec<u8>>,
    instance: Option<Vec<u8>>,
    table: Vec<u8>,
    start: Option<Vec<u8>>,
    end: Option<Vec<u8>>,
    count: Option<u64>,
    reversed: bool,
}

/// Go's `prefixSuccessor` (cloud.google.com/go/bigtable): drop trailing
/// 0xFF bytes, increment the last one; none left: no end.
fn go_prefix_successor(p: &[u8]) -> Option<Vec<u8>> {
    let n = p.iter().rposition(|&b| b != 0xFF)?;
    let mut out = p[..n].to_vec();
    out.push(p[n] + 1);
    Some(out)
}

fn cbt_read(args: &[Vec<u8>]) -> CbtRead {
    let mut i = 0;
    let (mut project, mut instance) = (None, None);
    while args[i].first() == Some(&b'-') {
        match &args[i][..] {
            b"-project" => project = Some(args[i + 1].clone()),
            b"-instance" => instance = Some(args[i + 1].clone()),
            other => panic!("unexpected flag {:?}", String::from_utf8_lossy(other)),
        }
        i += 2;
    }
    assert_eq!(args[i], b"read");
    let table = args[i + 1].clone();
    let mut r = CbtRead {
        project,
        instance,
        table,
        start: None,
        end: None,
        count: None,
        reversed: false,
    };
    let mut prefix = None;
    for a in &args[i + 2..] {
        let eq = a.iter().position(|&b| b == b'=').expect("key=value");
        let (k, v) = (&a[..eq], a[eq + 1..].to_vec());
        match k {
            b"start" => r.start = Some(v),
            b"end" => r.end = Some(v),
            b"prefix" => prefix = Some(v),
            b"count" => r.count = Some(std::str::from_utf8(&v).unwrap().parse().unwrap()),
            b"reversed" => r.reversed = v == b"true",
            other => panic!("unexpected argument {:?}", String::from_utf8_lossy(other)),
        }
    }
    if let Some(p) = prefix {
        assert!(
            r.start.is_none() && r.end.is_none(),
            "prefix= with start=/end="
        );
        r.end = go_prefix_successor(&p);
        r.start = Some(p);
    }
    r
}

#[test]
fn golden_cbt() {
    let o = RenderOptions::new().table("cities").text(true);
    assert_eq!(
        render(Dialect::Cbt, &population(), &o).unwrap(),
        "cbt read cities start='population#l80000000000F4240' end='population$'\n"
    );
    // A tuple prefix is exactly cbt's prefix=.
    assert_eq!(
        render(Dialect::Cbt, &KeyRange::prefix(b"usa#"), &o).unwrap(),
        "cbt read cities prefix='usa#'\n"
    );
    assert_eq!(
        render(
            Dialect::Cbt,
            &KeyRange::prefix(b"\xFF\xFF"),
            &RenderOptions::new()
        )
        .unwrap(),
        "cbt read t prefix=$'\\xFF\\xFF'\n"
    );
    // Not a prefix range: start and end.
    assert_eq!(
        render(
            Dialect::Cbt,
            &kr(Some(b"a"), Some(b"c")),
            &RenderOptions::new()
        )
        .unwrap(),
        "cbt read t start='a' end='c'\n"
    );
    assert_eq!(
        render(
            Dialect::Cbt,
            &kr(None, Some(b"m")),
            &RenderOptions::new().limit(3).reversed(true)
        )
        .unwrap(),
        "cbt read t end='m' count=3 reversed=true\n"
    );
    assert_eq!(
        render(Dialect::Cbt, &KeyRange::all(), &RenderOptions::new()).unwrap(),
        "cbt read t\n"
    );
    // -project/-instance when given; names quoted when they need it.
    let named = RenderOptions::new()
        .project("example.com:app")
        .instance("prod-1")
        .table("my table");
    assert_eq!(
        render(Dialect::Cbt, &kr(Some(b"k"), None), &named).unwrap(),
        "cbt -project example.com:app -instance prod-1 read 'my table' start='k'\n"
    );
    // Bigtable's row keys are at most 4,096 bytes: a longer bound is refused,
    // saying so (issue 38: a 5,069-byte command was printed without a word).
    let long = vec![b'k'; 4097];
    assert_eq!(
        render(
            Dialect::Cbt,
            &kr(Some(b"a"), Some(&long)),
            &RenderOptions::new()
        ),
        Err(RenderError::KeyTooLong {
            dialect: Dialect::Cbt,
            side: Side::End,
            len: 4097,
            max: 4096
        })
    );
    assert!(render(
        Dialect::Cbt,
        &kr(Some(&long[..4096]), None),
        &RenderOptions::new()
    )
    .is_ok());
    // A NUL cannot be an argument: one error, naming the side and byte.
    let e = render(
        Dialect::Cbt,
        &kr(Some(b"a"), Some(b"b\x00")),
        &RenderOptions::new(),
    )
    .unwrap_err();
    assert_eq!(
        e,
        RenderError::NulArgument {
            dialect: Dialect::Cbt,
            side: Side::End,
            offset: 1
        }
    );
    assert_eq!(
        e.to_string(),
        "the end key holds byte 0x00 at byte 1, and cbt takes keys as command-line arguments, \
         which cannot hold a NUL byte: read this range with a Bigtable client library instead \
         (a RowRange of these bytes; --for raw prints them in hex)"
    );
    for bad in ["", "a\nb"] {
        assert!(matches!(
            render(
                Dialect::Cbt,
                &population(),
                &RenderOptions::new().project(bad)
            ),
            Err(RenderError::InvalidName {
                what: "project",
                ..
            })
        ));
    }
}

fn check_cbt_batch(cases: &[(KeyRange, Opts, bool)]) {
    let mut script = String::from("cbt() { printf '%s\\0' \"$#\" \"$@\"; }\n");
    let mut expected = Vec::new();
    for (r, o, named) in cases {
        let mut ro = o.render_options(false);
        if *named {
            ro = ro.project("p-1").instance("i.2");
        }
        let (start, end) = norm(r);
        match render(Dialect::Cbt, r, &ro) {
            Ok(line) => {
                assert_printable_ascii(&line);
                assert!(
                    !start.is_some_and(|k| k.contains(&0)) && !end.is_some_and(|k| k.contains(&0))
                );
                script.push_str(&line);
                expected.push((r, o, *named, line));
            }
            Err(RenderError::NulArgument { .. }) => {
                assert!(
                    start.is_some_and(|k| k.contains(&0)) || end.is_some_and(|k| k.contains(&0))
                );
            }
            Err(e) => {
                assert!(
                    matches!(e, RenderError::InvalidName { what: "table", .. }),
                    "{r:?} {o:?}: {e}"
                );
            }
        }
    }
    let out = run_tool(
        &which("bash"),
        &["--noprofile", "--norc", "-s"],
        script.as_bytes(),
        "install bash",
    );
    let mut fields = out.split(|&b| b == 0);
    for (r, o, named, line) in expected {
        let n: usize = std::str::from_utf8(fields.next().expect("count"))
            .unwrap()
            .parse()
            .unwrap_or_else(|e| panic!("{e}: {line}"));
        let args: Vec<Vec<u8>> = (0..n).map(|_| fields.next().unwrap().to_vec()).collect();
        let (start, end) = norm(r);
        assert_eq!(
            cbt_read(&args),
            CbtRead {
                project: named.then(|| b"p-1".to_vec()),
                instance: named.then(|| b"i.2".to_vec()),
                table: o.table.clone().unwrap_or_else(|| "t".into()).into_bytes(),
                start: start.map(<[u8]>::to_vec),
                end: end.map(<[u8]>::to_vec),
                count: o.limit,
                reversed: o.reversed,
            },
            "{r:?} {o:?}\n{line}"
        );
    }
    assert_eq!(fields.next(), Some(&b""[..]), "nothing after the last line");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// 64 batches × 100 cbt renderings through bash (prefix ranges half of
    /// the time, so that `prefix=` with trailing 0xFF bytes is common):
    /// every line that renders passes exactly the range's bytes, flags,
    /// table, count and direction to cbt; the others hold a NUL.
    #[test]
    fn cbt_lines_pass_the_intended_range_through_bash(
        cases in vec((prop_oneof![bin_range(), bin_key().prop_map(|k| KeyRange::prefix(&k))], opts(), any::<bool>()), 100)
    ) {
        let cases: Vec<_> = cases.into_iter().filter(|(r, _, _)| !r.is_empty() && r.end.as_deref() != Some(&[][..])).collect();
        check_cbt_batch(&cases);
    }
}

// ================================================================ redis

/// `sdssplitargs` (redis-cli's line parser), written from its rules.
fn sdssplitargs(line: &[u8]) -> Option<Vec<Vec<u8>>> {
    let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut args = Vec::new();
    let mut p = 0;
    loop {
        while p < line.len() && line[p].is_ascii_whitespace() || line.get(p) == Some(&0x0B) {
            p += 1;
        }
        if p >= line.len() {
            return Some(args);
        }
        let mut cur = Vec::new();
        let (mut inq, mut insq) = (false, false);
        loop {
            let c = line.get(p).copied();
            if inq {
                match c {
                    None => return None,
                    Some(b'\\')
                        if line.get(p + 1) == Some(&b'x')
                            && line.get(p + 2).and_then(|&c| hex(c)).is_some()
                            && line.get(p + 3).and_then(|&c| hex(c)).is_some() =>
                    {
                        cur.push(hex(line[p + 2]).unwrap() * 16 + hex(line[p + 3]).unwrap());
                        p += 3;
                    }
                    Some(b'\\') if p + 1 < line.len() => {
                        p += 1;
                        cur.push(match line[p] {
                            b'n' => b'\n',
                            b'r' => b'\r',
                            b't' => b'\t',
                            b'b' => 0x08,
                            b'a' => 0x07,
                            other => other,
                        });
                    }
                    Some(b'"') => {
                        // The closing quote must be followed by a space or the end.
                        if line.get(p + 1).is_some_and(|c| !c.is_ascii_whitespace()) {
                            return None;
                        }
                        p += 1;
                        break;
                    }
                    Some(c) => cur.push(c),
                }
            } else if insq {
                match c {
                    None => return None,
                    Some(b'\\') if line.get(p + 1) == Some(&b'\'') => {
                        p += 1;
                        cur.push(b'\'');
                    }
                    Some(b'\'') => {
                        if line.get(p + 1).is_some_and(|c| !c.is_ascii_whitespace()) {
                            return None;
                        }
                        p += 1;
                        break;
                    }
                    Some(c) => cur.push(c),
                }
            } else {
                match c {
                    None | Some(b' ' | b'\n' | b'\r' | b'\t' | 0) => break,
                    Some(b'"') => inq = true,
                    Some(b'\'') => insq = true,
                    Some(c) => cur.push(c),
                }
            }
            p += 1;
        }
        args.push(cur);
    }
}

fn expected_redis(r: &KeyRange, o: &Opts) -> Vec<Vec<u8>> {
    let (start, end) = norm(r);
    let min = start.map_or(b"-".to_vec(), |s| [b"[", s].concat());
    let max = end.map_or(b"+".to_vec(), |e| [b"(", e].concat());
    let key = o.table.as_deref().unwrap_or("t").as_bytes().to_vec();
    let mut v = vec![b"ZRANGE".to_vec(), key];
    if o.reversed {
        v.extend([max, min, b"BYLEX".to_vec(), b"REV".to_vec()]);
    } else {
        v.extend([min, max, b"BYLEX".to_vec()]);
    }
    if let Some(n) = o.limit {
        v.extend([b"LIMIT".to_vec(), b"0".to_vec(), n.to_string().into_bytes()]);
    }
    v
}

/// A fake Redis server: records every command `redis-cli` sends, answers +OK.
fn through_redis_cli(lines: &str) -> Vec<Vec<Vec<u8>>> {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().unwrap();
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().expect("accept");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let mut w = stream.try_clone().unwrap();
        let mut r = BufReader::new(stream);
        let mut commands = Vec::new();
        let mut line = Vec::new();
        loop {
            line.clear();
            if r.read_until(b'\n', &mut line).unwrap_or(0) == 0 {
                return commands;
            }
            let n: usize = std::str::from_utf8(&line[1..line.len() - 2])
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(line[0], b'*');
            let mut args = Vec::with_capacity(n);
            for _ in 0..n {
                line.clear();
                r.read_until(b'\n', &mut line).unwrap();
                assert_eq!(line[0], b'$');
                let len: usize = std::str::from_utf8(&line[1..line.len() - 2])
                    .unwrap()
                    .parse()
                    .unwrap();
                let mut arg = vec![0; len + 2];
                r.read_exact(&mut arg).unwrap();
                arg.truncate(len);
                args.push(arg);
            }
            commands.push(args);
            w.write_all(b"+OK\r\n").unwrap();
        }
    });
    let port = addr.port().to_string();
    let stdout = run_tool(
        &which("redis-cli"),
        &["-h", "127.0.0.1", "-p", &port],
        lines.as_bytes(),
        "apt-get update && apt-get install -y redis-tools",
    );
    // If redis-cli never connected, unblock accept (the test then fails below).
    drop(TcpStream::connect(addr));
    let commands = server.join().expect("fake server");
    let stdout = String::from_utf8_lossy(&stdout);
    assert!(
        !stdout.contains("Invalid argument"),
        "redis-cli refused a line:\n{stdout}"
    );
    // redis-cli may ask `COMMAND DOCS` first; keep what the lines sent.
    commands.into_iter().filter(|c| c[0] == b"ZRANGE").collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// 8 batches × 300 = 2,400 ZRANGE lines through the real redis-cli.
    #[test]
    fn redis_commands_reach_redis_cli_as_the_intended_bytes(
        cases in vec((bin_range(), opts()), 300)
    ) {
        let mut lines = String::new();
        for (r, o) in &cases {
            let out = render(Dialect::Redis, r, &o.render_options(false)).unwrap();
            assert_printable_ascii(&out);
            prop_assert_eq!(out.matches('\n').count(), 1);
            lines.push_str(&out);
        }
        let got = through_redis_cli(&lines);
        prop_assert_eq!(got.len(), cases.len());
        for ((r, o), cmd) in cases.iter().zip(&got) {
            prop_assert_eq!(cmd, &expected_redis(r, o), "{:?} {:?}", r, o);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(size::cases(4000)))]

    /// 4,000 lines through a port of `sdssplitargs`.
    #[test]
    fn redis_commands_split_to_the_intended_bytes(r in bin_range(), o in opts()) {
        let out = render(Dialect::Redis, &r, &o.render_options(false)).unwrap();
        let args = sdssplitargs(out.trim_end_matches('\n').as_bytes());
        prop_assert_eq!(args, Some(expected_redis(&r, &o)), "{}", out);
    }

    #[test]
    fn redis_quote_splits_back(k in bin_key()) {
        let q = redis_quote(&k);
        assert_printable_ascii(&q);
        prop_assert_eq!(sdssplitargs(q.as_bytes()), Some(vec![k]));
    }
}

// ================================================================ CQL

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// Identifier: name (unquoted ones lowercased) and whether quoted.
    Ident(String, bool),
    Str(Vec<u8>),
    Blob(Vec<u8>),
    Int(u64),
    Punct(&'static str),
}

/// Cassandra's reserved keywords (Apache docs, Appendix A, plus DataStax's
/// list): a bare name must not be one of these.
const CQL_RESERVED: &[&str] = &[
    "add",
    "allow",
    "alter",
    "and",
    "any",
    "apply",
    "asc",
    "authorize",
    "batch",
    "begin",
    "by",
    "columnfamily",
    "create",
    "default",
    "delete",
    "desc",
    "describe",
    "drop",
    "each_quorum",
    "entries",
    "execute",
    "for",
    "from",
    "full",
    "grant",
    "if",
    "in",
    "index",
    "inet",
    "infinity",
    "insert",
    "into",
    "is",
    "keyspace",
    "keyspaces",
    "limit",
    "local_one",
    "local_quorum",
    "materialized",
    "mbean",
    "mbeans",
    "modify",
    "nan",
    "norecursive",
    "not",
    "null",
    "of",
    "on",
    "one",
    "or",
    "order",
    "password",
    "primary",
    "quorum",
    "rename",
    "replace",
    "revoke",
    "schema",
    "select",
    "set",
    "table",
    "to",
    "token",
    "truncate",
    "unlogged",
    "unset",
    "update",
    "use",
    "using",
    "view",
    "where",
    "with",
];

/// PostgreSQL 15 keywords that cannot be bare names (`pg_get_keywords()`
/// categories R, T, C).
const PG_RESERVED: &[&str] = &[
    "all",
    "analyse",
    "analyze",
    "and",
    "any",
    "array",
    "as",
    "asc",
    "asymmetric",
    "authorization",
    "between",
    "bigint",
    "binary",
    "bit",
    "boolean",
    "both",
    "case",
    "cast",
    "char",
    "character",
    "check",
    "coalesce",
    "collate",
    "collation",
    "column",
    "concurrently",
    "constraint",
    "create",
    "cross",
    "current_catalog",
    "current_date",
    "current_role",
    "current_schema",
    "current_time",
    "current_timestamp",
    "current_user",
    "dec",
    "decimal",
    "default",
    "deferrable",
    "desc",
    "distinct",
    "do",
    "else",
    "end",
    "except",
    "exists",
    "extract",
    "false",
    "fetch",
    "float",
    "for",
    "foreign",
    "freeze",
    "from",
    "full",
    "grant",
    "greatest",
    "group",
    "grouping",
    "having",
    "ilike",
    "in",
    "initially",
    "inner",
    "inout",
    "int",
    "integer",
    "intersect",
    "interval",
    "into",
    "is",
    "isnull",
    "join",
    "lateral",
    "leading",
    "least",
    "left",
    "like",
    "limit",
    "localtime",
    "localtimestamp",
    "national",
    "natural",
    "nchar",
    "none",
    "normalize",
    "not",
    "notnull",
    "null",
    "nullif",
    "numeric",
    "offset",
    "on",
    "only",
    "or",
    "order",
    "out",
    "outer",
    "overlaps",
    "overlay",
    "placing",
    "position",
    "precision",
    "primary",
    "real",
    "references",
    "returning",
    "right",
    "row",
    "select",
    "session_user",
    "setof",
    "similar",
    "smallint",
    "some",
    "substring",
    "symmetric",
    "table",
    "tablesample",
    "then",
    "time",
    "timestamp",
    "to",
    "trailing",
    "treat",
    "trim",
    "true",
    "union",
    "unique",
    "user",
    "using",
    "values",
    "varchar",
    "variadic",
    "verbose",
    "when",
    "where",
    "window",
    "with",
    "xmlattributes",
    "xmlconcat",
    "xmlelement",
    "xmlexists",
    "xmlforest",
    "xmlnamespaces",
    "xmlparse",
    "xmlpi",
    "xmlroot",
    "xmlserialize",
    "xmltable",
];

#[derive(Clone, Copy, PartialEq)]
enum Lang {
    Cql,
    /// PostgreSQL; `true` = standard_conforming_strings on.
    Pg(bool),
}

const PUNCT: &[&str] = &[
    ">=", "<=", "::", "<", ">", "=", "?", "*", ";", ".", ",", "(", ")",
];

/// A lexer for the statements we render, by each language's rules:
/// comments, quoted identifiers (`""`), string literals (`''`; PostgreSQL
/// `E'…'` backslash escapes, and backslash escapes in plain strings when
/// standard_conforming_strings is off), CQL blobs `0x…`.
fn lex(s: &str, lang: Lang) -> Result<Vec<Tok>, String> {
    let b = s.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"--") || (lang == Lang::Cql && b[i..].starts_with(b"//")) {
            i += b[i..]
                .iter()
                .position(|&c| c == b'\n')
                .unwrap_or(b.len() - i);
        } else if b[i..].starts_with(b"/*") {
            let end = s[i + 2..].find("*/").ok_or("unterminated comment")?;
            i += end + 4;
        } else if c == b'"' {
            let mut name = Vec::new();
            i += 1;
            loop {
                match b.get(i) {
                    None => return Err("unterminated identifier".into()),
                    Some(b'"') if b.get(i + 1) == Some(&b'"') => {
                        name.push(b'"');
                        i += 2;
                    }
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(&c) => {
                        name.push(c);
                        i += 1;
                    }
                }
            }
            toks.push(Tok::Ident(String::from_utf8(name).unwrap(), true));
        } else if c == b'\''
            || (matches!(lang, Lang::Pg(_))
                && matches!(c, b'E' | b'e')
                && b.get(i + 1) == Some(&b'\''))
        {
            let escapes = c != b'\'' || lang == Lang::Pg(false);
            i += if c == b'\'' { 1 } else { 2 };
            let mut v = Vec::new();
            loop {
                match b.get(i) {
                    None => return Err("unterminated string".into()),
                    Some(b'\'') if b.get(i + 1) == Some(&b'\'') => {
                        v.push(b'\'');
                        i += 2;
                    }
                    Some(b'\'') => {
                        i += 1;
                        break;
                    }
                    Some(b'\\') if escapes => {
                        i += 1;
                        let e = *b.get(i).ok_or("unterminated escape")?;
                        i += 1;
                        match e {
                            b'b' => v.push(8),
                            b'f' => v.push(12),
                            b'n' => v.push(b'\n'),
                            b'r' => v.push(b'\r'),
                            b't' => v.push(b'\t'),
                            b'0'..=b'7' => {
                                let mut n = (e - b'0') as u32;
                                for _ in 0..2 {
                                    match b.get(i) {
                                        Some(&d @ b'0'..=b'7') => {
                                            n = n * 8 + (d - b'0') as u32;
                                            i += 1;
                                        }
                                        _ => break,
                                    }
                                }
                                v.push(n as u8);
                            }
                            b'x' => {
                                let mut n = 0u32;
                                let mut digits = 0;
                                while digits < 2 {
                                    match b.get(i).and_then(|&d| (d as char).to_digit(16)) {
                                        Some(d) => {
                                            n = n * 16 + d;
                                            i += 1;
                                            digits += 1;
                                        }
                                        None => break,
                                    }
                                }
                                if digits == 0 {
                                    v.push(b'x');
                                } else {
                                    v.push(n as u8);
                                }
                            }
                            b'u' | b'U' => {
                                // `\uXXXX` / `\UXXXXXXXX`: exactly 4 / 8
                                // hex digits, a code point (no surrogates).
                                let n = if e == b'u' { 4 } else { 8 };
                                let digits = s.get(i..i + n).ok_or("short unicode escape")?;
                                if !digits.bytes().all(|d| d.is_ascii_hexdigit()) {
                                    return Err("bad unicode escape".into());
                                }
                                let cp = u32::from_str_radix(digits, 16).map_err(|_| "hex")?;
                                let c = char::from_u32(cp)
                                    .ok_or("unicode escape: not a scalar value")?;
                                i += n;
                                v.extend_from_slice(c.to_string().as_bytes());
                            }
                            other => v.push(other),
                        }
                    }
                    Some(&c) => {
                        v.push(c);
                        i += 1;
                    }
                }
            }
            toks.push(Tok::Str(v));
        } else if lang == Lang::Cql && c == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) {
            let digits: String = s[i + 2..]
                .chars()
                .take_while(|c| c.is_ascii_hexdigit())
                .collect();
            if !digits.len().is_multiple_of(2) {
                return Err("odd blob".into());
            }
            i += 2 + digits.len();
            toks.push(Tok::Blob(unhex(&digits.to_ascii_lowercase())));
        } else if c.is_ascii_digit() {
            let digits: String = s[i..].chars().take_while(char::is_ascii_digit).collect();
            i += digits.len();
            toks.push(Tok::Int(digits.parse().map_err(|_| "int")?));
        } else if c.is_ascii_alphabetic() || (c == b'_' && lang != Lang::Cql) {
            let word: String = s[i..]
                .chars()
                .take_while(|&c| {
                    c.is_ascii_alphanumeric() || c == '_' || (c == '$' && lang != Lang::Cql)
                })
                .collect();
            i += word.len();
            toks.push(Tok::Ident(word.to_ascii_lowercase(), false));
        } else if let Some(p) = PUNCT.iter().find(|p| b[i..].starts_with(p.as_bytes())) {
            toks.push(Tok::Punct(p));
            i += p.len();
        } else {
            return Err(format!("unexpected character at {i}"));
        }
    }
    Ok(toks)
}

/// A parsed `SELECT`: names, the two bounds, order and limit.
#[derive(Debug, PartialEq)]
struct Select {
    table: Vec<String>,
    pk: Option<String>,
    column: Option<String>,
    ge: Option<Vec<u8>>,
    lt: Option<Vec<u8>>,
    desc: bool,
    limit: Option<u64>,
}

struct Parser<'a> {
    toks: &'a [Tok],
    i: usize,
    reserved: &'a [&'a str],
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i)
    }
    fn next(&mut self) -> Result<Tok, String> {
        let t = self.toks.get(self.i).cloned().ok_or("unexpected end")?;
        self.i += 1;
        Ok(t)
    }
    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(w, false)) if w == kw)
    }
    fn kw(&mut self, kw: &str) -> Result<(), String> {
        if self.is_kw(kw) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected {kw}, found {:?}", self.peek()))
        }
    }
    fn punct(&mut self, p: &str) -> Result<(), String> {
        match self.next()? {
            Tok::Punct(q) if q == p => Ok(()),
            t => Err(format!("expected {p}, found {t:?}")),
        }
    }
    fn name(&mut self) -> Result<String, String> {
        match self.next()? {
            Tok::Ident(n, true) => Ok(n),
            Tok::Ident(n, false) if !self.reserved.contains(&n.as_str()) => Ok(n),
            t => Err(format!("expected a name, found {t:?}")),
        }
    }
}

fn parse_select(toks: &[Tok], lang: Lang) -> Result<Select, String> {
    let reserved = if lang == Lang::Cql {
        CQL_RESERVED
    } else {
        PG_RESERVED
    };
    let mut p = Parser {
        toks,
        i: 0,
        reserved,
    };
    p.kw("select")?;
    let mut column = None;
    if lang == Lang::Cql {
        p.punct("*")?;
    } else {
        column = Some(p.name()?);
    }
    p.kw("from")?;
    let mut table = vec![p.name()?];
    if p.peek() == Some(&Tok::Punct(".")) {
        p.i += 1;
        table.push(p.name()?);
    }
    let mut pk = None;
    let (mut ge, mut lt) = (None, None);
    if p.is_kw("where") {
        p.i += 1;
        let mut first = true;
        loop {
            if !first {
                if !p.is_kw("and") {
                    break;
                }
                p.i += 1;
            }
            let n = p.name()?;
            let op = match p.next()? {
                Tok::Punct(op) => op,
                t => return Err(format!("expected an operator, found {t:?}")),
            };
            let value = match (lang, op, p.next()?) {
                (Lang::Cql, "=", Tok::Punct("?")) if first => {
                    pk = Some(n);
                    first = false;
                    continue;
                }
                (Lang::Cql, _, Tok::Str(v) | Tok::Blob(v)) => v,
                (Lang::Pg(_), _, Tok::Str(v)) => v,
                // bytea: `decode('hex digits', 'hex')`.
                (Lang::Pg(_), _, Tok::Ident(f, false)) if f == "decode" => {
                    p.punct("(")?;
                    let Tok::Str(h) = p.next()? else {
                        return Err("decode: expected a string".into());
                    };
                    p.punct(",")?;
                    if p.next()? != Tok::Str(b"hex".to_vec()) {
                        return Err("decode: expected 'hex'".into());
                    }
                    p.punct(")")?;
                    let h = String::from_utf8(h).map_err(|_| "decode utf8")?;
                    if !h.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')) {
                        return Err(format!("decode: not lowercase hex: {h:?}"));
                    }
                    unhex(&h)
                }
                (_, _, t) => return Err(format!("unexpected {t:?}")),
            };
            first = false;
            match column.get_or_insert_with(|| n.clone()) {
                c if *c == n => {}
                c => return Err(format!("column {n} vs {c}")),
            }
            match op {
                ">=" if ge.is_none() && lt.is_none() => ge = Some(value),
                "<" if lt.is_none() => lt = Some(value),
                _ => return Err(format!("unexpected {op}")),
            }
        }
    }
    let mut desc = false;
    if p.is_kw("order") {
        p.i += 1;
        p.kw("by")?;
        let n = p.name()?;
        match column.get_or_insert_with(|| n.clone()) {
            c if *c == n => {}
            c => return Err(format!("order by {n} vs {c}")),
        }
        if p.is_kw("desc") {
            p.i += 1;
            desc = true;
        }
    }
    let mut limit = None;
    if p.is_kw("limit") {
        p.i += 1;
        match p.next()? {
            Tok::Int(n) => limit = Some(n),
            t => return Err(format!("expected a limit, found {t:?}")),
        }
    }
    p.punct(";")?;
    if p.i != toks.len() {
        return Err(format!("trailing tokens {:?}", &toks[p.i..]));
    }
    Ok(Select {
        table,
        pk,
        column,
        ge,
        lt,
        desc,
        limit,
    })
}

/// `ks.t`: the documented split at the first dot.
fn table_parts(t: &str) -> Vec<String> {
    match t.split_once('.') {
        Some((a, b)) if !a.is_empty() && !b.is_empty() => vec![a.into(), b.into()],
        _ => vec![t.into()],
    }
}

#[derive(Debug, Clone)]
struct SqlOpts {
    base: Opts,
    pk: Option<String>,
    column: Option<String>,
}

fn sql_opts() -> BoxedStrategy<SqlOpts> {
    (opts(), option::of(name()), option::of(name()))
        .prop_map(|(base, pk, column)| SqlOpts { base, pk, column })
        .boxed()
}

fn check_select(dialect: Dialect, r: &KeyRange, o: &SqlOpts, text: bool) -> Result<(), String> {
    let mut ro = o.base.render_options(text);
    ro.partition_key = o.pk.clone();
    ro.column = o.column.clone();
    let (start, end) = norm(r);
    let out = match render(dialect, r, &ro) {
        Ok(out) => out,
        // CQL string literals have no escapes: a text key with a control or
        // bidi character is refused, at its first such character.
        Err(e) if dialect == Dialect::Cql && text => {
            let first = [(Side::Start, start), (Side::End, end)]
                .into_iter()
                .find_map(|(side, k)| {
                    let s = std::str::from_utf8(k?).ok()?;
                    s.char_indices()
                        .find(|&(_, c)| hidden(c))
                        .map(|(i, c)| (side, i, c))
                });
            let Some((side, offset, c)) = first else {
                return Err(format!("render: {e}"));
            };
            let want = if c.is_ascii() {
                RenderError::UnrepresentableByte {
                    dialect,
                    side,
                    offset,
                    byte: c as u8,
                }
            } else {
                RenderError::UnrepresentableChar {
                    dialect,
                    side,
                    offset,
                    ch: c,
                }
            };
            return if e == want {
                Ok(())
            } else {
                Err(format!("{e:?} != {want:?}"))
            };
        }
        Err(e) => return Err(format!("render: {e}")),
    };
    assert!(out.ends_with(";\n"), "{out:?}");
    // One line: PostgreSQL literals escape line breaks; CQL refuses them.
    assert_eq!(out.matches('\n').count(), 1, "{out:?}");
    assert_no_hidden(&out);
    let langs: &[Lang] = match dialect {
        Dialect::Cql => &[Lang::Cql],
        // Every literal means the same under both settings of
        // standard_conforming_strings.
        _ => &[Lang::Pg(true), Lang::Pg(false)],
    };
    let default_column = if dialect == Dialect::Cql { "ck" } else { "k" };
    let want = Select {
        table: table_parts(o.base.table.as_deref().unwrap_or("t")),
        pk: (dialect == Dialect::Cql).then(|| o.pk.clone().unwrap_or("pk".into())),
        column: (dialect == Dialect::Sql || start.is_some() || end.is_some() || o.base.reversed)
            .then(|| o.column.clone().unwrap_or(default_column.into())),
        ge: start.map(<[u8]>::to_vec),
        lt: end.map(<[u8]>::to_vec),
        desc: o.base.reversed,
        limit: o.base.limit,
    };
    for &lang in langs {
        let toks = lex(&out, lang).map_err(|e| format!("{e}: {out}"))?;
        let got = parse_select(&toks, lang).map_err(|e| format!("{e}: {out}"))?;
        if got != want {
            return Err(format!("{got:?}\n!= {want:?}\n{out}"));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(size::cases(3000)))]

    /// 3,000 text + 3,000 blob statements, parsed back by CQL's rules.
    #[test]
    fn cql_text_statements_parse_back(r in text_range(), o in sql_opts()) {
        prop_assert_eq!(check_select(Dialect::Cql, &r, &o, true), Ok(()));
    }

    #[test]
    fn cql_blob_statements_parse_back(r in bin_range(), o in sql_opts()) {
        prop_assert_eq!(check_select(Dialect::Cql, &r, &o, false), Ok(()));
    }

    /// 3,000 text + 3,000 bytea statements, parsed back by PostgreSQL's rules.
    #[test]
    fn sql_text_statements_parse_back(r in text_range(), o in sql_opts()) {
        prop_assert_eq!(check_select(Dialect::Sql, &r, &o, true), Ok(()));
    }

    #[test]
    fn sql_bytea_statements_parse_back(r in bin_range(), o in sql_opts()) {
        prop_assert_eq!(check_select(Dialect::Sql, &r, &o, false), Ok(()));
    }
}

// ================================================================ raw and rocksdb

/// RocksDB notation: empty = unbounded, `0x…` = hex, anything else = itself.
fn rocksdb_value(v: &str) -> Option<Vec<u8>> {
    if v.is_empty() {
        None
    } else if let Some(h) = v.strip_prefix("0x") {
        assert!(h.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')));
        Some(unhex(h))
    } else {
        assert!(!v.starts_with("0X"));
        Some(v.as_bytes().to_vec())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(size::cases(3000)))]

    #[test]
    fn raw_round_trips(r in bin_range(), text in any::<bool>()) {
        let (start, end) = norm(&r);
        let out = match render(Dialect::Raw, &r, &RenderOptions::new().text(text)) {
            Ok(out) => out,
            Err(e) => {
                // Only text keys that cannot be one line shown as itself
                // are refused.
                prop_assert!(text, "{}", e);
                let bad = |k: &[u8]| std::str::from_utf8(k).map_or(true, |s| s.chars().any(hidden));
                prop_assert!([start, end].into_iter().flatten().any(bad));
                return Ok(());
            }
        };
        assert_no_hidden(&out);
        let lines: Vec<&str> = out.split_terminator('\n').collect();
        prop_assert_eq!(lines.len(), 2);
        let back = |l: &str| -> Option<Vec<u8>> {
            (!l.is_empty()).then(|| if text { l.as_bytes().to_vec() } else { unhex(l) })
        };
        let (lo, hi) = (back(lines[0]), back(lines[1]));
        prop_assert_eq!(lo.as_deref(), start);
        prop_assert_eq!(hi.as_deref(), end);
    }

    #[test]
    fn rocksdb_round_trips(r in bin_range(), text in any::<bool>()) {
        let out = render(Dialect::Rocksdb, &r, &RenderOptions::new().text(text)).unwrap();
        assert_printable_ascii(&out);
        let lines: Vec<&str> = out.split_terminator('\n').collect();
        prop_assert_eq!(lines.len(), 2);
        let lo = lines[0].strip_prefix("iterate_lower_bound=").unwrap();
        let hi = lines[1].strip_prefix("iterate_upper_bound=").unwrap();
        let (start, end) = norm(&r);
        let (lo_key, hi_key) = (rocksdb_value(lo), rocksdb_value(hi));
        prop_assert_eq!(lo_key.as_deref(), start);
        prop_assert_eq!(hi_key.as_deref(), end);
        if !text {
            prop_assert!(lo.is_empty() || lo.starts_with("0x"));
        }
    }

    #[test]
    fn etcd_json_round_trips(r in bin_range(), o in opts()) {
        let out = render(Dialect::Etcd, &r, &o.render_options(false)).unwrap();
        check_etcd_json(&r, &o, out.lines().nth(1).unwrap());
    }

    #[test]
    fn base64_decodes_back(k in vec(any::<u8>(), 0..40)) {
        prop_assert_eq!(b64_decode(&base64(&k)), Some(k));
    }
}

// ================================================================ timing

/// One timed pass over every dialect, so a slow renderer shows up.
#[test]
fn rendering_is_cheap() {
    let r = population();
    let t0 = Instant::now();
    for _ in 0..10_000 {
        for d in Dialect::ALL {
            std::hint::black_box(render(d, &r, &text()).unwrap());
        }
    }
    let per = t0.elapsed() / 70_000;
    assert!(per < Duration::from_millis(1), "{per:?} per render");
}

// ================================================================ pre-split tables

/// `render_splits` for hbase, run under JRuby with a stand-in `create` and
/// HBase's split reader: every bucket count's splits (text and binary
/// salts, 1 to 255 buckets, the binary ones holding `'`, `\`, `,`, `"`,
/// `#`, DEL and bytes above 0x7F) reach HBase as exactly the bytes of
/// `Salter::split_points`, in order. The cbt line is run against the
/// Bigtable emulator in cli/tests/stores.rs.
#[test]
fn hbase_splits_parse_under_jruby() {
    use lexikey::range::render::render_splits;
    use lexikey::store::salt::{SaltMode, Salter};
    let mut lines = String::new();
    let mut want = String::new();
    let tables = ["t", "it's", "a\\b"];
    for (i, buckets) in [1u8, 2, 16, 45, 128, 255].into_iter().enumerate() {
        for format in [Format::Hex, Format::Binary] {
            let table = tables[i % tables.len()];
            let s = Salter::new(buckets, SaltMode::Fast)
                .unwrap()
                .for_format(format);
            let splits = s.split_points();
            assert_eq!(splits.len(), usize::from(buckets) - 1);
            let line =
                render_splits(Dialect::Hbase, &splits, &RenderOptions::new().table(table)).unwrap();
            assert_printable_ascii(&line);
            assert_eq!(line.matches('\n').count(), 1, "{line:?}");
            lines.push_str(&line);
            let mut w = vec![hex_lower(table.as_bytes()), "66".to_string()];
            w.extend(splits.iter().map(|k| hex_lower(k)));
            want.push_str(&w.join(" "));
            want.push('\n');
        }
    }
    let got = hbase_create::run(&lines, "render");
    for ((g, w), l) in got.lines().zip(want.lines()).zip(lines.lines()) {
        assert_eq!(g, w, "{l}");
    }
    assert_eq!(got.lines().count(), want.lines().count(), "{got}");
}

fn hex_lower(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// What `render_splits` refuses: another dialect, an empty split, a cbt
/// split holding a comma (a binary salt of 45+ buckets) or a NUL.
#[test]
fn splits_refused() {
    use lexikey::range::render::render_splits;
    use lexikey::store::salt::{SaltMode, Salter};
    let o = RenderOptions::new();
    let s = Salter::new(4, SaltMode::Fast)
        .unwrap()
        .for_format(Format::Hex)
        .split_points();
    assert_eq!(
        render_splits(Dialect::Cbt, &s, &o).unwrap(),
        "cbt createtable t splits='01#,02#,03#'\n"
    );
    assert_eq!(
        render_splits(Dialect::Cbt, &[], &o).unwrap(),
        "cbt createtable t\n"
    );
    let e = render_splits(Dialect::Sql, &s, &o).unwrap_err().to_string();
    assert!(
        e.contains("only cbt and hbase create pre-split tables"),
        "{e}"
    );
    let wide = Salter::new(45, SaltMode::Fast).unwrap().split_points();
    let e = render_splits(Dialect::Cbt, &wide, &o)
        .unwrap_err()
        .to_string();
    assert!(e.contains("comma") && e.contains("44 buckets"), "{e}");
    let fits = Salter::new(44, SaltMode::Fast).unwrap().split_points();
    assert!(render_splits(Dialect::Cbt, &fits, &o).is_ok());
    let e = render_splits(Dialect::Cbt, &[b"a\0".to_vec()], &o)
        .unwrap_err()
        .to_string();
    assert!(e.contains("NUL"), "{e}");
    let e = render_splits(Dialect::Hbase, &[Vec::new()], &o)
        .unwrap_err()
        .to_string();
    assert!(e.contains("empty"), "{e}");
}

// ================================================================ dynamodb via bash

use lexikey::range::render::dynamodb::{MAX_SORT_KEY, TEXT_INDEX};

#[test]
fn golden_dynamodb() {
    let o = RenderOptions::new().table("cities").text(true);
    let q = "aws dynamodb query --table-name cities --consistent-read";
    assert_eq!(
        render(Dialect::DynamoDb, &KeyRange::prefix(b"usa#"), &o).unwrap(),
        format!(
            "{q} --index-name sk_text --key-condition-expression 'pk = :p AND begins_with(sk_text, :k)' \
             --expression-attribute-values '{{\":p\":{{\"S\":\"lexikey\"}},\":k\":{{\"S\":\"usa#\"}}}}'\n"
        )
    );
    assert_eq!(
        render(Dialect::DynamoDb, &kr(Some(b"it's"), None), &o.clone().reversed(true).limit(3)).unwrap(),
        format!(
            "{q} --index-name sk_text --key-condition-expression 'pk = :p AND sk_text >= :a' \
             --expression-attribute-values '{{\":p\":{{\"S\":\"lexikey\"}},\":a\":{{\"S\":\"it'\\''s\"}}}}' \
             --no-scan-index-forward --max-items 3\n"
        )
    );
    assert_eq!(
        render(Dialect::DynamoDb, &kr(None, Some("é\u{202E}".as_bytes())), &o).unwrap(),
        format!(
            "{q} --index-name sk_text --key-condition-expression 'pk = :p AND sk_text < :z' \
             --expression-attribute-values '{{\":p\":{{\"S\":\"lexikey\"}},\":z\":{{\"S\":\"\\u00e9\\u202e\"}}}}'\n"
        )
    );
    // An end ending in 00: BETWEEN the end without it.
    let b = RenderOptions::new().table("t");
    assert_eq!(
        render(Dialect::DynamoDb, &kr(Some(b"\x01"), Some(b"\x02\x00")), &b).unwrap(),
        "aws dynamodb query --table-name t --consistent-read --key-condition-expression \
         'pk = :p AND sk BETWEEN :a AND :z' --expression-attribute-values \
         '{\":p\":{\"S\":\"lexikey\"},\":a\":{\"B\":\"AQ==\"},\":z\":{\"B\":\"Ag==\"}}'\n"
    );
    // Any other end: the largest 1,024-byte key below it.
    let out = render(Dialect::DynamoDb, &kr(Some(b"\x01"), Some(b"\x02\x01")), &b).unwrap();
    let z = base64(&[&[2u8, 0][..], &[0xFF; MAX_SORT_KEY - 2]].concat());
    assert!(out.contains(&format!("\":z\":{{\"B\":\"{z}\"}}")), "{out}");
    // A binary prefix that is not UTF-8: BETWEEN (dynalite decodes B values
    // as UTF-8 for begins_with).
    let out = render(Dialect::DynamoDb, &KeyRange::prefix(b"\x80"), &b).unwrap();
    assert!(out.contains("'pk = :p AND sk BETWEEN :a AND :z'"), "{out}");
    let out = render(Dialect::DynamoDb, &KeyRange::prefix(b"ab"), &b).unwrap();
    assert!(out.contains("'pk = :p AND begins_with(sk, :k)'"), "{out}");
    // Everything: the partition alone.
    assert_eq!(
        render(
            Dialect::DynamoDb,
            &KeyRange::all(),
            &b.clone().partition("ns#0B")
        )
        .unwrap(),
        "aws dynamodb query --table-name t --consistent-read --key-condition-expression 'pk = :p' \
         --expression-attribute-values '{\":p\":{\"S\":\"ns#0B\"}}'\n"
    );
    // DynamoDB's sort keys are at most 1,024 bytes.
    let long = vec![b'a'; MAX_SORT_KEY + 1];
    assert_eq!(
        render(Dialect::DynamoDb, &kr(Some(&long), None), &b),
        Err(RenderError::KeyTooLong {
            dialect: Dialect::DynamoDb,
            side: Side::Start,
            len: MAX_SORT_KEY + 1,
            max: MAX_SORT_KEY
        })
    );
    assert_eq!(
        render(Dialect::DynamoDb, &kr(Some(b"\xff"), None), &o),
        Err(RenderError::NotUtf8 {
            dialect: Dialect::DynamoDb,
            side: Side::Start,
            offset: 0
        })
    );
}

/// A key condition as DynamoDB reads it, from the documentation of
/// `KeyConditionExpression`: the sort key compared as unsigned bytes (`B`)
/// or by the bytes of its UTF-8 encoding (`S`), `BETWEEN` inclusive,
/// `begins_with` a byte prefix.
#[derive(Debug)]
struct DynamoQuery {
    table: String,
    index: Option<String>,
    partition: String,
    cond: Option<(String, Vec<Vec<u8>>)>,
    forward: bool,
    max_items: Option<u64>,
}

impl DynamoQuery {
    fn selects(&self, k: &[u8]) -> bool {
        match &self.cond {
            None => true,
            Some((op, v)) => match op.as_str() {
                ">=" => k >= &v[0][..],
                "<" => k < &v[0][..],
                "between" => k >= &v[0][..] && k <= &v[1][..],
                "begins_with" => k.starts_with(&v[0]),
                other => panic!("unexpected operator {other}"),
            },
        }
    }
}

/// A JSON string of the renderer's (printable ASCII, `\"`, `\\`, `\uXXXX`
/// with surrogate pairs) decoded to UTF-8.
fn json_string(s: &str) -> (String, &str) {
    let s = s.strip_prefix('"').expect("a JSON string");
    let mut units = Vec::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                return (
                    String::from_utf16(&units).expect("valid UTF-16"),
                    &s[i + 1..],
                )
            }
            '\\' => match chars.next().unwrap().1 {
                '"' => units.push(b'"' as u16),
                '\\' => units.push(b'\\' as u16),
                'u' => {
                    let hex: String = (0..4).map(|_| chars.next().unwrap().1).collect();
                    units.push(u16::from_str_radix(&hex, 16).unwrap());
                }
                e => panic!("unexpected escape \\{e}"),
            },
            c => {
                assert!((' '..='~').contains(&c), "raw {c:?} in JSON");
                units.push(c as u16);
            }
        }
    }
    panic!("unterminated JSON string")
}

/// `{":n":{"S"|"B":"…"},…}`: each name's bytes and type.
fn attribute_values(json: &str) -> Vec<(String, &'static str, Vec<u8>)> {
    let mut rest = json.strip_prefix('{').expect("{");
    let mut out = Vec::new();
    loop {
        let (name, r) = json_string(rest);
        let r = r.strip_prefix(":{").expect(":{");
        let (ty, r) = json_string(r);
        let r = r.strip_prefix(':').expect(":");
        let (v, r) = json_string(r);
        let (ty, v) = match ty.as_str() {
            "S" => ("S", v.into_bytes()),
            "B" => ("B", b64_decode(&v).expect("canonical base64")),
            t => panic!("type {t}"),
        };
        out.push((name, ty, v));
        rest = r.strip_prefix('}').expect("}");
        match rest {
            "}" => return out,
            r => rest = r.strip_prefix(',').expect(","),
        }
    }
}

fn dynamo_query(args: &[Vec<u8>], text: bool) -> DynamoQuery {
    let a: Vec<String> = args
        .iter()
        .map(|a| String::from_utf8(a.clone()).unwrap())
        .collect();
    assert_eq!(a[..3], ["dynamodb", "query", "--table-name"]);
    let mut q = DynamoQuery {
        table: a[3].clone(),
        index: None,
        partition: String::new(),
        cond: None,
        forward: true,
        max_items: None,
    };
    let (mut expr, mut values) = (None, None);
    let mut consistent = false;
    let mut i = 4;
    while i < a.len() {
        match a[i].as_str() {
            "--consistent-read" => consistent = true,
            "--no-scan-index-forward" => q.forward = false,
            "--index-name" => {
                i += 1;
                q.index = Some(a[i].clone());
            }
            "--max-items" => {
                i += 1;
                q.max_items = Some(a[i].parse().unwrap());
            }
            "--key-condition-expression" => {
                i += 1;
                expr = Some(a[i].clone());
            }
            "--expression-attribute-values" => {
                i += 1;
                values = Some(attribute_values(&a[i]));
            }
            other => panic!("unexpected argument {other}"),
        }
        i += 1;
    }
    assert!(consistent, "a strongly consistent read");
    let values = values.expect("values");
    let sk = if text { "sk_text" } else { "sk" };
    let ty = if text { "S" } else { "B" };
    let get = |n: &str| {
        let (_, t, v) = values.iter().find(|(m, _, _)| m == n).expect(n);
        assert_eq!(*t, if n == ":p" { "S" } else { ty }, "{n}");
        v.clone()
    };
    q.partition = String::from_utf8(get(":p")).unwrap();
    let expr = expr.expect("a key condition");
    let cond = expr.strip_prefix("pk = :p").expect("the partition first");
    q.cond = match cond {
        "" => None,
        c if c == format!(" AND {sk} >= :a") => Some((">=".into(), vec![get(":a")])),
        c if c == format!(" AND {sk} < :z") => Some(("<".into(), vec![get(":z")])),
        c if c == format!(" AND {sk} BETWEEN :a AND :z") => {
            Some(("between".into(), vec![get(":a"), get(":z")]))
        }
        c if c == format!(" AND begins_with({sk}, :k)") => {
            Some(("begins_with".into(), vec![get(":k")]))
        }
        c => panic!("unexpected condition {c:?}"),
    };
    assert_eq!(
        values.len(),
        1 + q.cond.as_ref().map_or(0, |(_, v)| v.len())
    );
    q
}

/// Probe keys for a DynamoDB query: around the bounds, and the longest
/// keys DynamoDB stores (1,024 bytes) just below the end.
fn dynamo_probes(r: &KeyRange, text: bool) -> Vec<Vec<u8>> {
    let mut p = probes(r);
    for x in [&r.start, &r.end]
        .into_iter()
        .flatten()
        .filter(|x| !x.is_empty())
    {
        let n = x.len();
        if let (true, Ok(s)) = (text, std::str::from_utf8(x)) {
            let last = s.chars().next_back().unwrap();
            let head = &s[..s.len() - last.len_utf8()];
            for c in [
                char::from_u32(last as u32 - 1),
                char::from_u32(last as u32 + 1),
            ]
            .into_iter()
            .flatten()
            {
                for fill in ["", "\u{10FFFF}", "\u{FFFF}", "\u{7F}", "\u{7FF}"] {
                    let mut k = format!("{head}{c}");
                    while k.len() + fill.len() <= MAX_SORT_KEY && !fill.is_empty() {
                        k.push_str(fill);
                    }
                    p.push(k.into_bytes());
                }
            }
        } else if !text && x[n - 1] > 0 {
            let mut k = [&x[..n - 1], &[x[n - 1] - 1]].concat();
            k.resize(MAX_SORT_KEY.max(k.len()), 0xFF);
            p.push(k.clone());
            k.truncate(MAX_SORT_KEY - 1);
            p.push(k);
        }
    }
    p.retain(|k| !k.is_empty() && k.len() <= MAX_SORT_KEY);
    if text {
        p.retain(|k| std::str::from_utf8(k).is_ok());
    }
    p
}

fn check_dynamodb_batch(cases: &[(KeyRange, Opts, bool)]) {
    let mut script = String::from("aws() { printf '%s\\0' \"$#\" \"$@\"; }\n");
    let mut expected = Vec::new();
    for (r, o, text) in cases {
        let ro = o.render_options(*text).partition("ns#01");
        match render(Dialect::DynamoDb, r, &ro) {
            Ok(line) => {
                assert_printable_ascii(&line);
                script.push_str(&line);
                expected.push((r, o, *text, line));
            }
            Err(e) => assert!(
                matches!(e, RenderError::InvalidName { what: "table", .. }),
                "{r:?} {o:?}: {e}"
            ),
        }
    }
    let out = run_tool(
        &which("bash"),
        &["--noprofile", "--norc", "-s"],
        script.as_bytes(),
        "install bash",
    );
    let mut fields = out.split(|&b| b == 0);
    for (r, o, text, line) in expected {
        let n: usize = std::str::from_utf8(fields.next().unwrap())
            .unwrap()
            .parse()
            .unwrap();
        let args: Vec<Vec<u8>> = (0..n).map(|_| fields.next().unwrap().to_vec()).collect();
        let q = dynamo_query(&args, text);
        assert_eq!(
            q.table,
            o.table.clone().unwrap_or_else(|| "t".into()),
            "{line}"
        );
        // The text index where a sort-key condition needs `S` values; a
        // whole partition is read from the table (every key, text or not).
        let bounded = r.start.as_deref().is_some_and(|s| !s.is_empty()) || r.end.is_some();
        assert_eq!(q.index.as_deref(), (text && bounded).then_some(TEXT_INDEX));
        assert_eq!(q.partition, "ns#01");
        assert_eq!((q.forward, q.max_items), (!o.reversed, o.limit));
        for k in dynamo_probes(r, text) {
            assert_eq!(q.selects(&k), r.contains(&k), "{r:?} key {k:?}\n{line}");
        }
    }
    assert_eq!(fields.next(), Some(&b""[..]), "nothing after the last line");
}

fn short(r: &KeyRange) -> bool {
    [&r.start, &r.end]
        .into_iter()
        .flatten()
        .all(|k| k.len() <= MAX_SORT_KEY)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(size::cases(48)))]

    /// Batches of 100 DynamoDB queries through bash, read back as DynamoDB
    /// reads a key condition: each selects exactly the keys of its range
    /// among probes at every bound (the longest storable keys included),
    /// text (`S`, the `sk_text` index) and binary (`B`), prefixes half of
    /// the time (`begins_with`). The live check against dynalite, with the
    /// real `aws` command and boto3, is python/tests/test_dynamodb.py.
    #[test]
    fn dynamodb_queries_select_exactly_the_range(
        bin in vec((prop_oneof![bin_range(), bin_key().prop_map(|k| KeyRange::prefix(&k))], opts()), 50),
        txt in vec((prop_oneof![text_range(), text_key().prop_map(|k| KeyRange::prefix(&k))], opts()), 50),
    ) {
        let cases: Vec<(KeyRange, Opts, bool)> = bin
            .into_iter()
            .map(|(r, o)| (r, o, false))
            .chain(txt.into_iter().map(|(r, o)| (r, o, true)))
            .filter(|(r, _, _)| !r.is_empty() && r.end.as_deref() != Some(&[][..]) && short(r))
            .collect();
        check_dynamodb_batch(&cases);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(size::cases(3000)))]

    /// DynamoDB compares `S` sort keys by their UTF-8 bytes; lexikey's text
    /// keys are compared as bytes. For UTF-8 the two are one order, code
    /// point order: over keys of every text format (strings of any
    /// character, integers, ascending and descending, composite), keys
    /// are valid UTF-8 and byte order = code point order.
    #[test]
    fn text_keys_sort_the_same_as_utf8_strings(
        f in select(vec![Format::Hex, Format::Base64, Format::Decimal]),
        a in vec((any::<String>(), any::<i64>(), any::<bool>()), 1..3),
        b in vec((any::<String>(), any::<i64>(), any::<bool>()), 1..3),
    ) {
        let enc = |t: &[(String, i64, bool)]| -> Vec<u8> {
            let comps: Vec<Component<'static>> = t
                .iter()
                .flat_map(|(s, n, desc)| {
                    if *desc {
                        [Component::desc(s.clone()), Component::desc(*n)]
                    } else {
                        [Component::asc(s.clone()), Component::asc(*n)]
                    }
                })
                .collect();
            lexikey::tuple::encode(f, &comps).unwrap().into_vec()
        };
        let (ka, kb) = (enc(&a), enc(&b));
        let (sa, sb) = (std::str::from_utf8(&ka).unwrap(), std::str::from_utf8(&kb).unwrap());
        prop_assert_eq!(ka.cmp(&kb), sa.chars().cmp(sb.chars()));
    }
}
