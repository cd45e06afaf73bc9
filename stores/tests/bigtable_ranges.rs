//! Ranges proven on a Bigtable server: the emulator that
//! `scripts/with-stores.sh` starts (`LEXIKEY_BIGTABLE_URL`).
//!
//! For every key format — `hex`, `base64`, `decimal`, `binary`, the
//! `fdb-tuple`, `hbase-ordered` and `phoenix` profiles, and salted keys
//! (lexikey's salter on hex keys, Phoenix's `SALT_BUCKETS`) — rows of the
//! schema `(string, i64, string)` (both directions where the format has
//! them) are written into a Bigtable table of their own, their row keys
//! being the keys themselves. Then, for random predicates (a tuple prefix,
//! `eq`, `ge`, `gt`, `le`, `lt`, between, a string prefix) on random fixed
//! leading components, the ranges lexikey computes are read back from the
//! server with `ReadRows` (the adapter's scan: exact bounds), and the rows
//! that come back must be exactly the rows whose **values** satisfy the
//! predicate — computed on the values, not the keys. At least 200 cases
//! per format. The strings hold `\0` (escaped as `00 FF` by the binary
//! encodings), descending components invert every byte, so keys are full
//! of `0x00` and `0xFF`; and every prefix of a binary key that ends in
//! `0xFF` is scanned as a prefix range (where bigtable_rs's own prefix
//! helper would end the range one row too late).
//!
//! The same ranges, rendered by `lexikey range --for cbt`
//! ([`Dialect::Cbt`]), run through bash and the real `cbt` (Debian package
//! `google-cloud-cli-cbt`) against the emulator, every tenth case and every
//! `0xFF` prefix: the rows `cbt` prints are the same. A range with a NUL
//! byte in a bound must be refused by the renderer instead.
//!
//! A missing `LEXIKEY_BIGTABLE_URL` fails the test: the emulator comes
//! from the Debian package `google-cloud-cli-bigtable-emulator`
//! (`scripts/install-stores.sh` installs it).

#![allow(missing_docs)]
#![cfg(feature = "bigtable")]

use std::collections::BTreeSet;
use std::io::Write as _;
use std::process::{Command, Stdio};

use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::profile::{Options, Profile};
use lexikey::frontend::spec::{Comp, KeySpec};
use lexikey::range::render::{render, Dialect, RenderError, RenderOptions};
use lexikey::range::{prefix_end, Pred, RangeError};
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::store::Store;
use lexikey::{Format, KeyRange};

/// SplitMix64: the same cases on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Strings with shared prefixes, separators, `\0` (→ `00 FF` in binary
/// keys), controls, the top of ASCII and of Unicode.
const STRINGS: &[&str] = &[
    "",
    "a",
    "a\0",
    "a\0b",
    "a\0\0",
    "ab",
    "a b",
    "a#b",
    "a$",
    "a%",
    "a-b",
    "a\u{1}",
    "a\u{7f}",
    "aé",
    "aÿ",
    "b",
    "usa",
    "usa-east",
    "\u{10ffff}",
    "z",
];

const INTS: &[i64] = &[
    i64::MIN,
    -1_000_000,
    -256,
    -1,
    0,
    1,
    255,
    256,
    3_831_868,
    i64::MAX,
];

/// One abstract row: the values the oracle compares.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Row {
    a: String,
    n: i64,
    b: String,
}

/// A value of the row's field `i` (0: string, 1: i64, 2: string).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum V {
    S(String),
    I(i64),
}

impl Row {
    fn field(&self, i: usize) -> V {
        match i {
            0 => V::S(self.a.clone()),
            1 => V::I(self.n),
            _ => V::S(self.b.clone()),
        }
    }
}

/// One key layout under test: a spec, the type names of its three fields
/// and their directions.
struct Layout {
    name: String,
    spec: KeySpec,
    types: [&'static str; 3],
    desc: [bool; 3],
    /// The profile refuses empty strings as values (Phoenix: an empty
    /// VARCHAR is NULL).
    no_empty: bool,
}

impl Layout {
    fn text(&self, i: usize, v: &V) -> String {
        let ty = self.types[i];
        let desc = if self.desc[i] { ".desc" } else { "" };
        match v {
            V::S(s) => format!("{ty}{desc}:{s}"),
            V::I(n) => format!("{ty}{desc}:{n}"),
        }
    }

    fn comp(&self, i: usize, v: &V) -> Option<Comp> {
        self.spec.parse(&self.text(i, v)).ok()
    }

    fn key(&self, row: &Row) -> Option<Vec<u8>> {
        let comps = (0..3)
            .map(|i| self.comp(i, &row.field(i)))
            .collect::<Option<Vec<_>>>()?;
        self.spec.encode(&comps).ok()
    }
}

/// Every layout: each native format in three direction patterns, each
/// profile (fdb-tuple has no descending order), salted hex and salted
/// Phoenix.
fn layouts() -> Vec<(String, Vec<Layout>)> {
    let dirs = [
        [false, false, false],
        [true, false, true],
        [false, true, false],
    ];
    let mut out = Vec::new();
    for f in Format::ALL {
        let group = dirs
            .iter()
            .map(|&desc| Layout {
                name: format!("{f} {desc:?}"),
                spec: KeySpec::new(KeyFormat::Native(f)),
                types: ["str", "i64", "str"],
                desc,
                no_empty: false,
            })
            .collect();
        out.push((f.to_string(), group));
    }
    let profile = |p: Profile, types, desc, salt: Option<u16>| {
        let opts = Options {
            salt,
            ..Options::default()
        };
        Layout {
            name: format!("{p} {desc:?} salt {salt:?}"),
            spec: KeySpec::new(KeyFormat::Profile(p))
                .with_profile_options(opts)
                .expect("profile options"),
            types,
            desc,
            no_empty: p == Profile::Phoenix,
        }
    };
    out.push((
        "fdb-tuple".into(),
        vec![profile(
            Profile::Fdb,
            ["str", "int", "str"],
            [false; 3],
            None,
        )],
    ));
    for (p, types) in [
        (Profile::Hbase, ["text", "int64", "text"]),
        (Profile::Phoenix, ["varchar", "bigint", "varchar"]),
    ] {
        let group = dirs
            .iter()
            .map(|&desc| profile(p, types, desc, None))
            .collect();
        out.push((p.to_string(), group));
    }
    // Salted: one range per bucket, each read (and each a cbt line).
    out.push((
        "phoenix salted".into(),
        vec![
            profile(
                Profile::Phoenix,
                ["varchar", "bigint", "varchar"],
                [false; 3],
                Some(4),
            ),
            profile(
                Profile::Phoenix,
                ["varchar", "bigint", "varchar"],
                [true, false, false],
                Some(7),
            ),
        ],
    ));
    let salted = |buckets, mode, desc| Layout {
        name: format!("hex salted {buckets} {mode:?} {desc:?}"),
        spec: KeySpec::new(KeyFormat::Native(Format::Hex))
            .with_salter(Some(Salter::with_count(buckets, mode).expect("salter")))
            .expect("salted spec"),
        types: ["str", "i64", "str"],
        desc,
        no_empty: false,
    };
    out.push((
        "hex salted".into(),
        vec![
            salted(3, SaltMode::Fast, [false; 3]),
            salted(8, SaltMode::Phoenix, [true, false, true]),
        ],
    ));
    let bsalted = Layout {
        name: "binary salted 16".into(),
        spec: KeySpec::new(KeyFormat::Native(Format::Binary))
            .with_salter(Some(
                Salter::with_count(16, SaltMode::Fast).expect("salter"),
            ))
            .expect("salted spec"),
        types: ["str", "i64", "str"],
        desc: [false, true, false],
        no_empty: false,
    };
    out.push(("binary salted".into(), vec![bsalted]));
    out
}

#[derive(Debug, Clone, Copy)]
enum Op {
    Tuple,
    Eq,
    Ge,
    Gt,
    Le,
    Lt,
    Between,
    Prefix,
}

#[derive(Debug)]
struct Query {
    /// Fixed leading fields: the first `k` values of a row.
    prefix: Vec<V>,
    op: Op,
    a: V,
    b: V,
}

impl Query {
    fn random(rng: &mut Rng, rows: &[Row], no_empty: bool) -> Query {
        let k = rng.below(3);
        let src = rng.pick(rows);
        let prefix = (0..k).map(|i| src.field(i)).collect();
        let string = |rng: &mut Rng| loop {
            let s = *rng.pick(STRINGS);
            if !(no_empty && s.is_empty()) {
                return s.to_string();
            }
        };
        let value = |rng: &mut Rng| match (k, rng.below(3)) {
            // Often a value some row holds, so that predicates hit.
            (_, 0) => rng.pick(rows).field(k),
            (1, _) => V::I(*rng.pick(INTS)),
            _ => V::S(string(rng)),
        };
        let op = *rng.pick(&[
            Op::Tuple,
            Op::Eq,
            Op::Ge,
            Op::Gt,
            Op::Le,
            Op::Lt,
            Op::Between,
            Op::Prefix,
        ]);
        let (a, b) = (value(rng), value(rng));
        let (op, a) = match (op, a) {
            (Op::Prefix, V::S(s)) => {
                let n = rng.below(s.chars().count() + 1);
                (Op::Prefix, V::S(s.chars().take(n).collect()))
            }
            (Op::Prefix, a) => (Op::Ge, a),
            (op, a) => (op, a),
        };
        Query { prefix, op, a, b }
    }

    fn matches(&self, row: &Row) -> bool {
        let k = self.prefix.len();
        if (0..k).any(|i| row.field(i) != self.prefix[i]) {
            return false;
        }
        let v = row.field(k);
        match self.op {
            Op::Tuple => true,
            Op::Eq => v == self.a,
            Op::Ge => v >= self.a,
            Op::Gt => v > self.a,
            Op::Le => v <= self.a,
            Op::Lt => v < self.a,
            Op::Between => v >= self.a && v < self.b,
            Op::Prefix => match (&v, &self.a) {
                (V::S(s), V::S(p)) => s.starts_with(p.as_str()),
                _ => false,
            },
        }
    }

    /// The ranges lexikey computes; `None` when a value of the query
    /// cannot be written in this layout (skipped, not counted).
    fn ranges(&self, l: &Layout) -> Option<Result<Vec<KeyRange>, RangeError>> {
        let k = self.prefix.len();
        let prefix = self
            .prefix
            .iter()
            .enumerate()
            .map(|(i, v)| l.comp(i, v))
            .collect::<Option<Vec<_>>>()?;
        let c = |v: &V| l.comp(k, v);
        let preds = match self.op {
            Op::Tuple => vec![],
            Op::Eq => vec![Pred::Eq(c(&self.a)?)],
            Op::Ge => vec![Pred::Ge(c(&self.a)?)],
            Op::Gt => vec![Pred::Gt(c(&self.a)?)],
            Op::Le => vec![Pred::Le(c(&self.a)?)],
            Op::Lt => vec![Pred::Lt(c(&self.a)?)],
            Op::Between => vec![Pred::Ge(c(&self.a)?), Pred::Lt(c(&self.b)?)],
            Op::Prefix => match &self.a {
                V::S(p) => {
                    let dir = if l.desc[k] {
                        lexikey::Dir::Desc
                    } else {
                        lexikey::Dir::Asc
                    };
                    vec![Pred::Prefix(p.clone(), dir)]
                }
                V::I(_) => return None,
            },
        };
        match l.spec.ranges(&prefix, preds) {
            Err(RangeError::Empty) => Some(Err(RangeError::Empty)),
            // A query this layout cannot answer (a descending prefix on a
            // profile that has none, a value it cannot hold): skipped.
            Err(_) => None,
            Ok(r) => Some(Ok(r)),
        }
    }
}

fn env_url() -> String {
    std::env::var("LEXIKEY_BIGTABLE_URL").unwrap_or_else(|_| {
        panic!(
            "LEXIKEY_BIGTABLE_URL is not set: run through scripts/with-stores.sh, which starts \
             the Bigtable emulator (Debian package google-cloud-cli-bigtable-emulator, \
             installed by scripts/install-stores.sh)"
        )
    })
}

/// The store of table `table` on the emulator of `LEXIKEY_BIGTABLE_URL`.
fn open_table(table: &str) -> Box<dyn Store> {
    let url = format!("{}&ns={table}", env_url());
    lexikey_stores::open(&url).unwrap_or_else(|e| panic!("open {url}: {e}"))
}

/// Reads every range (a salted query has one per bucket): the union of
/// the rows, in key order.
fn read(store: &dyn Store, ranges: &[KeyRange]) -> Vec<Vec<u8>> {
    let mut got = BTreeSet::new();
    for r in ranges {
        for (k, _) in store.scan(r, usize::MAX).expect("ReadRows") {
            assert!(r.contains(&k), "ReadRows returned {k:?} outside {r:?}");
            assert!(got.insert(k), "a row returned twice");
        }
    }
    got.into_iter().collect()
}

/// What `cbt` needs to run against the emulator here: a home whose
/// `.cbtrc` names the project and instance (cbt's own convention, for lines
/// without -project/-instance) and a credentials file (otherwise cbt asks
/// gcloud for credentials first, ~6 s a call, which the emulator ignores).
struct Cbt {
    home: tempfile::TempDir,
    emulator: String,
    project: String,
    instance: String,
    lines: Vec<(String, Vec<Vec<u8>>)>,
}

impl Cbt {
    fn new() -> Cbt {
        let spec = lexikey_stores::parse_url(&env_url()).expect("LEXIKEY_BIGTABLE_URL");
        let lexikey_stores::StoreSpec::Bigtable(lexikey_stores::BigtableOptions {
            project,
            instance,
            emulator,
            ..
        }) = spec
        else {
            panic!("LEXIKEY_BIGTABLE_URL is not a bigtable:// URL")
        };
        let emulator = emulator
            .or_else(|| std::env::var("BIGTABLE_EMULATOR_HOST").ok())
            .expect("the emulator's address (emulator= or BIGTABLE_EMULATOR_HOST)");
        let home = tempfile::tempdir().expect("temp dir");
        let creds = home.path().join("creds.json");
        std::fs::write(&creds, "{}").expect("creds");
        std::fs::write(
            home.path().join(".cbtrc"),
            format!(
                "project = {project}\ninstance = {instance}\ncreds = {}\n",
                creds.display()
            ),
        )
        .expect(".cbtrc");
        Cbt {
            home,
            emulator,
            project,
            instance,
            lines: Vec::new(),
        }
    }

    /// Queues a rendered line and the rows it must print.
    fn push(&mut self, line: String, want: Vec<Vec<u8>>) {
        self.lines.push((line, want));
    }

    /// Runs every queued line in one bash, each between markers, and
    /// compares what cbt printed with the rows wanted.
    fn run(&mut self) -> usize {
        const MARK: &str = "@@lexikey-cbt-line@@";
        let mut script = String::from("set -u\n");
        for (line, _) in &self.lines {
            script.push_str(&format!("echo '{MARK}'\n{line}echo \"{MARK}rc=$?\"\n"));
        }
        let mut child = Command::new("bash")
            .arg("-s")
            .env("HOME", self.home.path())
            .env("BIGTABLE_EMULATOR_HOST", &self.emulator)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("bash");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(script.as_bytes())
            .expect("write the script");
        let out = child.wait_with_output().expect("bash ran");
        assert!(
            out.status.success(),
            "bash: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = out.stdout;
        let mark = format!("{MARK}\n");
        let parts: Vec<&[u8]> = split(&stdout, mark.as_bytes())
            .into_iter()
            .skip(1)
            .collect();
        assert_eq!(
            parts.len(),
            self.lines.len(),
            "one output per line; stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for (part, (line, want)) in parts.iter().zip(&self.lines) {
            let end = find(part, format!("{MARK}rc=").as_bytes())
                .unwrap_or_else(|| panic!("no end marker after {line}"));
            let rc = &part[end + MARK.len() + 3..];
            assert!(
                rc.starts_with(b"0\n"),
                "{line} failed: {}\n{}",
                String::from_utf8_lossy(rc),
                String::from_utf8_lossy(&out.stderr)
            );
            let rows = cbt_rows(&part[..end]);
            assert_eq!(&rows, want, "{line}");
        }
        let n = self.lines.len();
        self.lines.clear();
        n
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn split<'a>(mut hay: &'a [u8], sep: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    while let Some(i) = find(hay, sep) {
        out.push(&hay[..i]);
        hay = &hay[i + sep.len()..];
    }
    out.push(hay);
    out
}

/// The row keys of `cbt read`'s output: each row is a line of 40 dashes,
/// the key as its raw bytes, then its cells (`  FAMILY:QUALIFIER … @ time`
/// and the quoted value on the next line).
fn cbt_rows(out: &[u8]) -> Vec<Vec<u8>> {
    let sep = format!("{}\n", "-".repeat(40));
    let mut rows = Vec::new();
    for chunk in split(out, sep.as_bytes()).into_iter().skip(1) {
        // The key may hold a newline: it ends at the last cell header.
        let cell = chunk
            .windows(6)
            .rposition(|w| w == b"\n  f:v")
            .unwrap_or_else(|| panic!("no cell in cbt's row {:?}", String::from_utf8_lossy(chunk)));
        rows.push(chunk[..cell].to_vec());
    }
    rows
}

#[test]
fn lexikey_ranges_read_back_exactly_from_bigtable_and_cbt() {
    let mut rng = Rng(0xB16_7AB1E);
    let mut cbt = Cbt::new();
    let (mut cbt_lines, mut refused_nul, mut ff_prefixes) = (0, 0, 0);
    let mut with_00_ff = (false, false);
    for (gi, (format, group)) in layouts().into_iter().enumerate() {
        let (mut cases, mut nonempty) = (0, 0);
        let per_layout = 220 / group.len() + 1;
        for (li, layout) in group.iter().enumerate() {
            let table = format!("rng_{gi}_{li}_{}", std::process::id());
            let store = open_table(&table);
            // Rows whose keys this layout can write, unique by value.
            let mut rows: Vec<Row> = Vec::new();
            let mut keys: Vec<Vec<u8>> = Vec::new();
            let mut tries = 0;
            while rows.len() < 100 && tries < 5000 {
                tries += 1;
                let s = |rng: &mut Rng| loop {
                    let s = *rng.pick(STRINGS);
                    if !(layout.no_empty && s.is_empty()) {
                        return s.to_string();
                    }
                };
                let a = s(&mut rng);
                let n = *rng.pick(INTS);
                let row = Row {
                    a,
                    n,
                    b: s(&mut rng),
                };
                if rows.contains(&row) {
                    continue;
                }
                let Some(key) = layout.key(&row) else {
                    continue;
                };
                assert!(!keys.contains(&key), "{}: two rows, one key", layout.name);
                assert!(
                    store
                        .put_if_absent(&key, format!("{row:?}").as_bytes())
                        .expect("put"),
                    "{}: fresh key already there",
                    layout.name
                );
                rows.push(row);
                keys.push(key);
            }
            assert!(
                rows.len() >= 60,
                "{}: only {} rows",
                layout.name,
                rows.len()
            );
            for k in &keys {
                with_00_ff.0 |= k.contains(&0x00);
                with_00_ff.1 |= k.contains(&0xFF);
            }
            let text = layout.spec.format().is_text();
            let mut done = 0;
            while done < per_layout {
                let q = Query::random(&mut rng, &rows, layout.no_empty);
                let Some(result) = q.ranges(layout) else {
                    continue;
                };
                done += 1;
                cases += 1;
                let mut want: Vec<Vec<u8>> = rows
                    .iter()
                    .zip(&keys)
                    .filter(|(r, _)| q.matches(r))
                    .map(|(_, k)| k.clone())
                    .collect();
                want.sort();
                let ranges = match result {
                    Ok(r) => r,
                    Err(_) => {
                        assert!(
                            want.is_empty(),
                            "{}: {q:?}: empty range, but rows match",
                            layout.name
                        );
                        continue;
                    }
                };
                nonempty += usize::from(!want.is_empty());
                let got = read(&*store, &ranges);
                assert_eq!(got, want, "{}: {q:?} {ranges:?}", layout.name);
                // Every tenth case through the real cbt as well.
                if cases % 10 == 0 {
                    let mut o = RenderOptions::new().table(table.clone()).text(text);
                    if cases % 20 == 0 {
                        o = o
                            .project(cbt.project.clone())
                            .instance(cbt.instance.clone());
                    }
                    let mut lines = String::new();
                    let mut nul = false;
                    for r in &ranges {
                        match render(Dialect::Cbt, r, &o) {
                            Ok(line) => lines.push_str(&line),
                            Err(RenderError::NulArgument { .. }) => nul = true,
                            Err(RenderError::Empty(_)) => {}
                            Err(e) => panic!("{}: render {r:?}: {e}", layout.name),
                        }
                    }
                    if nul {
                        refused_nul += 1;
                    } else {
                        // The lines of a salted query print bucket after
                        // bucket: in key order, as the ranges are.
                        cbt.push(lines, want.clone());
                    }
                }
            }
            // Every prefix of a binary key that ends in 0xFF, as a prefix
            // range: exactly the keys that start with it.
            if !text {
                let mut prefixes = BTreeSet::new();
                for k in &keys {
                    for (i, &b) in k.iter().enumerate() {
                        if b == 0xFF {
                            let _ = prefixes.insert(k[..=i].to_vec());
                        }
                    }
                }
                for (i, p) in prefixes.iter().enumerate() {
                    let r = KeyRange::prefix(p);
                    assert_eq!(r.end, prefix_end(p));
                    let mut want: Vec<Vec<u8>> =
                        keys.iter().filter(|k| k.starts_with(p)).cloned().collect();
                    want.sort();
                    assert_eq!(
                        read(&*store, std::slice::from_ref(&r)),
                        want,
                        "{}: prefix {p:02x?}",
                        layout.name
                    );
                    ff_prefixes += 1;
                    if i % 8 == 0 {
                        match render(Dialect::Cbt, &r, &RenderOptions::new().table(table.clone())) {
                            Ok(line) => {
                                assert!(line.contains(" prefix="), "{line}");
                                cbt.push(line, want);
                            }
                            Err(RenderError::NulArgument { .. }) => refused_nul += 1,
                            Err(e) => panic!("render prefix {p:02x?}: {e}"),
                        }
                    }
                }
            }
            cbt_lines += cbt.run();
        }
        assert!(cases >= 200, "{format}: only {cases} cases");
        assert!(
            nonempty >= cases / 4,
            "{format}: only {nonempty} of {cases} cases matched rows: too weak"
        );
        eprintln!("{format}: {cases} cases ({nonempty} with rows)");
    }
    assert!(
        with_00_ff.0 && with_00_ff.1,
        "keys with 0x00 and 0xFF were written"
    );
    assert!(
        ff_prefixes > 100,
        "only {ff_prefixes} prefixes ending in 0xFF"
    );
    assert!(cbt_lines > 150, "only {cbt_lines} cbt lines ran");
    assert!(refused_nul > 0, "no range with a NUL byte was refused");
    eprintln!(
        "{cbt_lines} cbt lines ran, {refused_nul} ranges refused (NUL), {ff_prefixes} 0xFF prefixes"
    );
}

/// The classic trap, on the server: the prefix `01 FF` ends at `02`, so
/// the row `02` is not in it (bigtable_rs's helper ends it at `02 00`, which
/// holds `02`); an all-`FF` prefix has no end. Through the adapter and
/// through cbt.
#[test]
fn prefixes_ending_in_ff_on_the_server() {
    let table = format!("ff_{}", std::process::id());
    let store = open_table(&table);
    let keys: [&[u8]; 8] = [
        b"\x01",
        b"\x01\xFF",
        b"\x01\xFF\x00",
        b"\x01\xFF\xFF",
        b"\x02",
        b"\x02\x00",
        b"\xFF",
        b"\xFF\xFF\x01",
    ];
    for k in keys {
        assert!(store.put_if_absent(k, b"v").unwrap());
    }
    let mut cbt = Cbt::new();
    for (p, want) in [
        (&b"\x01\xFF"[..], &keys[1..4]),
        (b"\x01", &keys[0..4]),
        (b"\xFF", &keys[6..8]),
        (b"\xFF\xFF", &keys[7..8]),
        (b"\x02", &keys[4..6]),
    ] {
        let r = KeyRange::prefix(p);
        let want: Vec<Vec<u8>> = want.iter().map(|k| k.to_vec()).collect();
        assert_eq!(read(&*store, std::slice::from_ref(&r)), want, "{p:02x?}");
        assert_eq!(
            store.first_key(&r).unwrap().as_ref(),
            want.first(),
            "{p:02x?}"
        );
        let line = render(Dialect::Cbt, &r, &RenderOptions::new().table(table.clone())).unwrap();
        assert!(line.contains(" prefix="), "{line}");
        cbt.push(line, want);
    }
    // The row 02 00 holds a NUL: cbt cannot be given it; one line says so.
    let r = KeyRange::new(Some(b"\x02\x00".to_vec()), None).unwrap();
    let e = render(Dialect::Cbt, &r, &RenderOptions::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the start key holds byte 0x00 at byte 1, and cbt takes keys as command-line arguments, \
         which cannot hold a NUL byte: read this range with a Bigtable client library instead \
         (a RowRange of these bytes; --for raw prints them in hex)"
    );
    assert_eq!(cbt.run(), 5);
}
