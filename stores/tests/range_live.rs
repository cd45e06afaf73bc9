//! Rendered ranges run by real servers return exactly the expected rows.
//!
//! Keys of random tuples (adversarial strings, both directions, every
//! format) are loaded into PostgreSQL (`text COLLATE "C"` for text formats,
//! `bytea` for binary) and into a Redis sorted set (all scores 0). For
//! random predicates, the range computed by `RangeQuery` is rendered by
//! `lexikey::range::render` (`--for sql` / `--for redis`), the rendered statement is
//! executed by the real server — the SQL text through PostgreSQL's own
//! parser, the Redis line through the real `redis-cli` — and the rows it
//! returns must be exactly the keys of the tuples that satisfy the predicate,
//! computed on the values.
//!
//! Needs `LEXIKEY_POSTGRES_URL` / `LEXIKEY_REDIS_URL` (run through
//! `scripts/with-stores.sh`); a missing variable fails the test.

#![allow(missing_docs)]
#![cfg(all(feature = "postgres", feature = "redis"))]

use std::io::Write;
use std::process::{Command, Stdio};

use lexikey::range::render::{render, Dialect, RenderOptions};
use lexikey::range::{RangeError, RangeQuery};
use lexikey::{tuple, Component, Dir, Format, Value};

/// A small deterministic generator (SplitMix64): the cases are the same on
/// every run, so a failure reproduces.
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

const STRINGS: &[&str] = &[
    "",
    "a",
    "ab",
    "a b",
    "a#b",
    "a$",
    "a%",
    "a-b",
    "a/b",
    "a.b",
    "a\u{1}",
    "a\u{7f}",
    "aé",
    "b",
    "usa",
    "usa-east",
    "usa/ca",
    "'",
    "''",
    "\\",
    "#{x}",
    "\u{10ffff}",
    "z",
];
const INTS: &[i64] = &[
    i64::MIN,
    -1_000_000,
    -1,
    0,
    1,
    2,
    999_999,
    1_000_000,
    3_831_868,
    i64::MAX,
];

/// Rows of the schema (str, i64, str): a `Dir` per field.
fn rows(rng: &mut Rng, dirs: [Dir; 3], n: usize) -> Vec<Vec<Component<'static>>> {
    let mut out: Vec<Vec<Component<'static>>> = Vec::new();
    while out.len() < n {
        let row = vec![
            Component {
                value: Value::from(rng.pick(STRINGS).to_string()),
                dir: dirs[0],
                width: None,
                nulls: None,
                list: 0,
            },
            Component {
                value: Value::I64(*rng.pick(INTS)),
                dir: dirs[1],
                width: None,
                nulls: None,
                list: 0,
            },
            Component {
                value: Value::from(rng.pick(STRINGS).to_string()),
                dir: dirs[2],
                width: None,
                nulls: None,
                list: 0,
            },
        ];
        if !out.contains(&row) {
            out.push(row);
        }
    }
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

struct Query {
    prefix: Vec<Component<'static>>,
    op: Op,
    a: Value<'static>,
    b: Value<'static>,
}

impl Query {
    fn random(rng: &mut Rng, rows: &[Vec<Component<'static>>]) -> Query {
        let k = rng.below(3);
        let src = rng.pick(rows);
        let prefix = src[..k].to_vec();
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
        let value = |rng: &mut Rng| match k {
            1 => Value::I64(*rng.pick(INTS)),
            _ => Value::from(rng.pick(STRINGS).to_string()),
        };
        let (a, b) = (value(rng), value(rng));
        let op = if matches!(op, Op::Prefix) && k == 1 {
            Op::Ge
        } else {
            op
        };
        let a = match (op, a) {
            (Op::Prefix, Value::Str(s)) => {
                Value::from(s.chars().take(rng.below(3)).collect::<String>())
            }
            (_, a) => a,
        };
        Query { prefix, op, a, b }
    }

    fn matches(&self, row: &[Component<'_>]) -> bool {
        let k = self.prefix.len();
        if row[..k] != self.prefix[..] {
            return false;
        }
        let v = &row[k].value;
        match self.op {
            Op::Tuple => true,
            Op::Eq => *v == self.a,
            Op::Ge => *v >= self.a,
            Op::Gt => *v > self.a,
            Op::Le => *v <= self.a,
            Op::Lt => *v < self.a,
            Op::Between => *v >= self.a && *v < self.b,
            Op::Prefix => match (v, &self.a) {
                (Value::Str(s), Value::Str(p)) => s.starts_with(p.as_ref()),
                _ => false,
            },
        }
    }

    fn range(&self, format: Format, dir: Dir) -> Result<lexikey::KeyRange, RangeError> {
        let c = |v: &Value<'static>| Component {
            value: v.clone(),
            dir,
            width: None,
            nulls: None,
            list: 0,
        };
        let q = RangeQuery::new(format).prefix(&self.prefix);
        match self.op {
            Op::Tuple => q,
            Op::Eq => q.eq(c(&self.a)),
            Op::Ge => q.ge(c(&self.a)),
            Op::Gt => q.gt(c(&self.a)),
            Op::Le => q.le(c(&self.a)),
            Op::Lt => q.lt(c(&self.a)),
            Op::Between => q.ge(c(&self.a)).lt(c(&self.b)),
            Op::Prefix => match &self.a {
                Value::Str(s) => q.str_prefix(s, dir),
                _ => unreachable!("prefix queries are on str components"),
            },
        }
        .build()
    }
}

fn env(var: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| {
        panic!(
            "{var} is not set: run this test through scripts/with-stores.sh (scripts/test.sh does)"
        )
    })
}

/// Decodes `psql`-style bytea text output (`\x0a1b…`).
fn bytea(text: &str) -> Vec<u8> {
    let hex = text.strip_prefix("\\x").expect("bytea hex output");
    lexikey::value::literal::parse_hex(hex).expect("hex")
}

/// Parses `redis-cli --no-raw` array output: lines `N) "…"` with C-style escapes.
fn redis_cli_members(out: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(out);
    let mut members = Vec::new();
    for line in text.lines() {
        if line == "(empty array)" || line.is_empty() {
            continue;
        }
        let q = line
            .find('"')
            .unwrap_or_else(|| panic!("unexpected redis-cli line {line:?}"));
        let body = line[q + 1..].strip_suffix('"').expect("closing quote");
        let mut m = Vec::new();
        let mut it = body.bytes();
        while let Some(c) = it.next() {
            if c != b'\\' {
                m.push(c);
                continue;
            }
            match it.next() {
                Some(b'x') => {
                    let h = [it.next().unwrap(), it.next().unwrap()];
                    m.push(u8::from_str_radix(std::str::from_utf8(&h).unwrap(), 16).unwrap());
                }
                Some(b'n') => m.push(b'\n'),
                Some(b'r') => m.push(b'\r'),
                Some(b't') => m.push(b'\t'),
                Some(b'a') => m.push(7),
                Some(b'b') => m.push(8),
                Some(other) => m.push(other),
                None => panic!("dangling escape in {line:?}"),
            }
        }
        members.push(m);
    }
    members
}

#[test]
fn rendered_ranges_return_exactly_the_expected_rows() {
    let pg_url = env("LEXIKEY_POSTGRES_URL");
    let redis_url = env("LEXIKEY_REDIS_URL");
    let mut pg = postgres::Client::connect(&pg_url, postgres::NoTls).expect("connect postgres");
    let mut redis_con = redis::Client::open(redis_url.as_str())
        .expect("redis url")
        .get_connection()
        .expect("connect redis");
    let hostport = redis_url
        .trim_start_matches("redis://")
        .trim_end_matches('/');
    let (host, port) = hostport.rsplit_once(':').expect("host:port");

    let mut rng = Rng(0x1E41_C0DE);
    let mut checked = 0;
    let mut nonempty = 0;
    for (fi, format) in Format::ALL.into_iter().enumerate() {
        for (di, dirs) in [
            [Dir::Asc; 3],
            [Dir::Desc, Dir::Asc, Dir::Desc],
            [Dir::Asc, Dir::Desc, Dir::Asc],
        ]
        .into_iter()
        .enumerate()
        {
            let rows = rows(&mut rng, dirs, 120);
            let keys: Vec<Vec<u8>> = rows
                .iter()
                .map(|r| tuple::encode(format, r).unwrap().into_vec())
                .collect();
            let table = format!("live_{fi}_{di}_{}", std::process::id());
            // Load PostgreSQL.
            let coltype = if format.is_text() {
                "text COLLATE \"C\""
            } else {
                "bytea"
            };
            pg.batch_execute(&format!(
                "DROP TABLE IF EXISTS {table}; CREATE TABLE {table} (k {coltype} PRIMARY KEY)"
            ))
            .unwrap();
            for k in &keys {
                if format.is_text() {
                    pg.execute(
                        &format!("INSERT INTO {table} VALUES ($1)"),
                        &[&std::str::from_utf8(k).unwrap()],
                    )
                    .unwrap();
                } else {
                    pg.execute(
                        &format!("INSERT INTO {table} VALUES ($1)"),
                        &[&k.as_slice()],
                    )
                    .unwrap();
                }
            }
            // Load Redis.
            let _: () = redis::cmd("DEL").arg(&table).query(&mut redis_con).unwrap();
            for k in &keys {
                let _: i64 = redis::cmd("ZADD")
                    .arg(&table)
                    .arg(0)
                    .arg(k.as_slice())
                    .query(&mut redis_con)
                    .unwrap();
            }
            for _ in 0..25 {
                let q = Query::random(&mut rng, &rows);
                let dir = dirs[q.prefix.len()];
                let mut want: Vec<Vec<u8>> = rows
                    .iter()
                    .zip(&keys)
                    .filter(|(r, _)| q.matches(r))
                    .map(|(_, k)| k.clone())
                    .collect();
                want.sort();
                let range = match q.range(format, dir) {
                    Ok(r) => r,
                    Err(RangeError::Empty) => {
                        assert!(want.is_empty(), "empty range but rows match");
                        continue;
                    }
                    Err(e) => panic!("{e}"),
                };
                let opts = RenderOptions::new()
                    .table(table.clone())
                    .text(format.is_text());
                // PostgreSQL runs the rendered SQL.
                let sql = render(Dialect::Sql, &range, &opts).unwrap();
                let got: Vec<Vec<u8>> = pg
                    .simple_query(&sql)
                    .unwrap_or_else(|e| panic!("{sql}: {e}"))
                    .into_iter()
                    .filter_map(|m| match m {
                        postgres::SimpleQueryMessage::Row(r) => {
                            let v = r.get(0).expect("k");
                            Some(if format.is_text() {
                                v.as_bytes().to_vec()
                            } else {
                                bytea(v)
                            })
                        }
                        _ => None,
                    })
                    .collect();
                assert_eq!(got, want, "{format} {sql}");
                // redis-cli runs the rendered line against the real server.
                let line = render(Dialect::Redis, &range, &opts).unwrap();
                let mut child = Command::new("redis-cli")
                    .args(["-h", host, "-p", port, "--no-raw"])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("redis-cli (Debian package redis-tools, installed with redis-server)");
                child
                    .stdin
                    .take()
                    .unwrap()
                    .write_all(format!("{line}\n").as_bytes())
                    .unwrap();
                let out = child.wait_with_output().unwrap();
                assert!(
                    out.status.success(),
                    "redis-cli: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                assert_eq!(redis_cli_members(&out.stdout), want, "{format} {line}");
                checked += 1;
                nonempty += usize::from(!want.is_empty());
            }
            pg.batch_execute(&format!("DROP TABLE {table}")).unwrap();
            let _: () = redis::cmd("DEL").arg(&table).query(&mut redis_con).unwrap();
        }
    }
    assert!(checked >= 250, "only {checked} queries ran");
    assert!(
        nonempty >= checked / 4,
        "only {nonempty} of {checked} queries matched rows: the cases are too weak"
    );
}
