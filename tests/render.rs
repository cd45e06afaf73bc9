//! Renderers (`src/render.rs`): golden outputs, errors, and statement safety.
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
//!
//! The external tools (`ruby`, `bash`, `redis-cli`) are required: a missing
//! tool fails the test with a message saying what to install.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lexikey::range::EmptyRange;
use lexikey::render::{
    base64, redis_quote, render, render_into, ruby_literal, shell_quote, Dialect, RenderError,
    RenderOptions, Side,
};
use lexikey::KeyRange;
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
    let mut child = match Command::new(program)
        .args(args)
        .env_clear()
        .env("PATH", "/nonexistent")
        .env("LC_ALL", "C")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => panic!(
            "cannot run {program}: {e}. This test checks rendered output with the real \
             {program} and must not be skipped: {install}"
        ),
    };
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    assert!(
        out.status.success(),
        "{program} failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
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

/// A range that is not empty: sorted, equal ends dropped, never ending at "".
fn make(a: Option<Vec<u8>>, b: Option<Vec<u8>>) -> KeyRange {
    let (mut a, mut b) = (a, b);
    if let (Some(x), Some(y)) = (&a, &b) {
        if x > y {
            std::mem::swap(&mut a, &mut b);
        } else if x == y {
            b = None;
        }
    }
    if b.as_deref() == Some(&[][..]) {
        b = None;
    }
    KeyRange { start: a, end: b }
}

fn ranges_of(k: BoxedStrategy<Vec<u8>>, zeros: bool) -> BoxedStrategy<KeyRange> {
    let z = if zeros { 0..2usize } else { 0..1usize };
    prop_oneof![
        (option::of(k.clone()), option::of(k.clone())).prop_map(|(a, b)| make(a, b)),
        // Shared prefixes: [a, a + s).
        (k.clone(), k.clone()).prop_map(|(a, s)| make(Some(a.clone()), Some([a, s].concat()))),
        // Bounds ending in 00 bytes (hbase reversed scans treat them apart).
        (k.clone(), k, z.clone(), z).prop_map(|(a, b, za, zb)| {
            let a = [a, vec![0; za]].concat();
            let b = [b, vec![0; zb]].concat();
            make(Some(a), Some(b))
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
            "SELECT k FROM t WHERE k >= '\\x01612700ff'::bytea AND k < '\\x016128'::bytea ORDER BY k;\n",
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
        ["raw", "hbase", "cql", "rocksdb", "etcd", "redis", "sql"]
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
        "unknown dialect \"mongo\": expected one of raw, hbase, cql, rocksdb, etcd, redis, sql"
    );
    assert!(Dialect::parse("").is_err());
    assert!(Dialect::parse("raw ").is_err());
}

#[test]
fn every_output_is_printable_ascii_lines() {
    // Whatever the keys, the rendered text is printable ASCII lines (raw and
    // text literals aside, which carry the key's own UTF-8).
    let r = kr(Some(b"\x00\x01\n\r\t\x7f\x80\xff'\"\\#{$(`"), None);
    for d in Dialect::ALL {
        let out = render(d, &r, &RenderOptions::new().reversed(true).limit(5)).unwrap();
        assert_printable_ascii(&out);
        assert!(out.ends_with('\n'));
    }
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
def hx(v)
  case v
  when nil then '-'
  when String then 'x' + v.unpack1('H*')
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
    Scan {
        table: bytes(f[0]).expect("table"),
        startrow: bytes(f[1]),
        stoprow: bytes(f[2]),
        filter: bytes(f[3]),
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
        let scan = parse_ruby_line(line);
        let ctx = format!("{r:?} {o:?}\n{cmd}");
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
                    hbase_returns(&scan, &filters, &k),
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
    #![proptest_config(ProptestConfig::with_cases(4000))]

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
                            b'u' | b'U' => return Err("unicode escape".into()),
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
                (Lang::Pg(_), _, Tok::Str(v)) => {
                    if p.peek() == Some(&Tok::Punct("::")) {
                        p.i += 1;
                        p.kw("bytea")?;
                        // bytea hex input: `\x` then hex pairs.
                        let s = String::from_utf8(v).map_err(|_| "bytea utf8")?;
                        let h = s.strip_prefix("\\x").ok_or("bytea without \\x")?;
                        unhex(h)
                    } else {
                        v
                    }
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
    let out = match render(dialect, r, &ro) {
        Ok(out) => out,
        Err(e) => return Err(format!("render: {e}")),
    };
    assert!(out.ends_with(";\n"), "{out:?}");
    if dialect == Dialect::Sql {
        // PostgreSQL literals escape line breaks; CQL literals have no
        // escapes, so a text key with a line break spans lines.
        assert_eq!(out.matches('\n').count(), 1, "{out:?}");
    }
    let langs: &[Lang] = match dialect {
        Dialect::Cql => &[Lang::Cql],
        // Text literals mean the same under both settings of
        // standard_conforming_strings; bytea is written for `on`.
        _ if text => &[Lang::Pg(true), Lang::Pg(false)],
        _ => &[Lang::Pg(true)],
    };
    let (start, end) = norm(r);
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
    #![proptest_config(ProptestConfig::with_cases(3000))]

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
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn raw_round_trips(r in bin_range(), text in any::<bool>()) {
        let (start, end) = norm(&r);
        let out = match render(Dialect::Raw, &r, &RenderOptions::new().text(text)) {
            Ok(out) => out,
            Err(e) => {
                // Only text keys that cannot be one line are refused.
                prop_assert!(text, "{}", e);
                let bad = |k: &[u8]| std::str::from_utf8(k).is_err() || k.iter().any(|&b| b < 0x20);
                prop_assert!([start, end].into_iter().flatten().any(bad));
                return Ok(());
            }
        };
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
