//! Rendering a [`KeyRange`] in the syntax of the tool the user has open.
//!
//! [`render`] prints a half-open range `[start, end)` (either side unbounded)
//! as the command or statement for one target system, chosen by a
//! [`Dialect`]. Every key is quoted by that system's own rules, so no key
//! content — quotes, backslashes, newlines, `#{`, `$(`, NUL, bytes ≥ 0x80 —
//! can end its literal early or change the meaning of the statement.
//! `tests/render.rs` proves this on adversarial keys by parsing the output
//! back with the real parsers where they exist (Ruby for the hbase shell,
//! bash for etcdctl, `redis-cli` itself for Redis) and with parsers written
//! from the CQL and PostgreSQL literal grammars, and compares the bytes.
//!
//! The empty range is never rendered: it is [`RenderError::Empty`]. A range
//! that ends at the empty key (`end == Some(b"")`) is empty too; a range that
//! starts at the empty key is the same as one with an unbounded start and is
//! rendered that way.
//!
//! # Output, for the range `[population#l80000000000F4240, population$)`
//!
//! Every output is one or more complete lines, each ending in `\n`, and is
//! printable ASCII, except that `raw`, `cql` and `sql` output carry text
//! keys and table/column names as their own UTF-8 text.
//!
//! **What you see is what runs.** No output holds a control character (C0,
//! DEL, C1) or a bidirectional formatting character (`U+061C`, `U+200E`,
//! `U+200F`, `U+202A–U+202E`, `U+2066–U+2069`) raw, where a terminal would
//! show a different command than the one that runs (the "trojan source"
//! problem): dialects with an escape syntax escape them (Ruby and
//! `redis-cli` `\xNN`, bash `$'\xNN'`, PostgreSQL `E'\u202E'`, hex in
//! RocksDB notation, base64 in etcd JSON); CQL and `raw`, which have none,
//! refuse such text keys ([`RenderError::UnrepresentableByte`],
//! [`RenderError::UnrepresentableChar`]) and such names
//! ([`RenderError::InvalidName`]).
//!
//! | dialect | output |
//! |---|---|
//! | [`raw`](Dialect::Raw) | `population#l80000000000F4240`<br>`population$` |
//! | [`hbase`](Dialect::Hbase) | `scan 't', {STARTROW => 'population#l80000000000F4240', STOPROW => 'population$'}` |
//! | [`cql`](Dialect::Cql) | `SELECT * FROM t WHERE pk = ? AND ck >= 'population#l80000000000F4240' AND ck < 'population$';` |
//! | [`rocksdb`](Dialect::Rocksdb) | `iterate_lower_bound=population#l80000000000F4240`<br>`iterate_upper_bound=population$` |
//! | [`etcd`](Dialect::Etcd) | `etcdctl get 'population#l80000000000F4240' 'population$'`<br>`{"key":"cG9wdWxhdGlvbiNsODAwMDAwMDAwMDBGNDI0MA==","range_end":"cG9wdWxhdGlvbiQ="}` |
//! | [`redis`](Dialect::Redis) | `ZRANGE t [population#l80000000000F4240 (population$ BYLEX` |
//! | [`sql`](Dialect::Sql) | `SELECT k FROM t WHERE k >= 'population#l80000000000F4240' AND k < 'population$' ORDER BY k;` |
//! | [`cbt`](Dialect::Cbt) | `cbt read t start='population#l80000000000F4240' end='population$'` |
//! | [`dynamodb`](Dialect::DynamoDb) | `aws dynamodb query --table-name t --consistent-read --index-name sk_text --key-condition-expression 'pk = :p AND sk_text BETWEEN :a AND :z' --expression-attribute-values '{":p":{"S":"lexikey"},":a":{"S":"population#l80000000000F4240"},":z":{"S":"population#\udbff\udfff…"}}'` |
//!
//! ```
//! use lexikey::range::render::{render, Dialect, RenderOptions};
//! use lexikey::KeyRange;
//!
//! let range = KeyRange::new(
//!     Some(b"population#l80000000000F4240".to_vec()),
//!     Some(b"population$".to_vec()),
//! )?;
//! let text = RenderOptions::new().text(true);
//! assert_eq!(
//!     render(Dialect::Raw, &range, &text)?,
//!     "population#l80000000000F4240\npopulation$\n"
//! );
//! assert_eq!(
//!     render(Dialect::Hbase, &range, &text.clone().table("cities"))?,
//!     "scan 'cities', {STARTROW => 'population#l80000000000F4240', STOPROW => 'population$'}\n"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Options
//!
//! [`RenderOptions`] says whether keys are text or binary, names the table
//! (and the CQL/SQL columns), and asks for a limit or a reversed
//! (largest-key-first) scan. Options a dialect has no syntax for are ignored:
//! `raw` and `rocksdb` print the bounds only. Each dialect's section in
//! [`Dialect`] lists what it uses.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::range::{EmptyRange, KeyRange};

mod cbt;
mod cql;
pub mod dynamodb;
mod etcd;
mod hbase;
mod redis;
mod rocksdb;
mod sql;

pub use etcd::{base64, shell_quote};
pub use hbase::ruby_literal;
pub use redis::redis_quote;

/// A target system: where the rendered range is to be pasted.
///
/// Each variant's docs give its exact output contract; other programs script
/// against these outputs, so they do not change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// Two lines: the inclusive start and the exclusive end. Text keys are
    /// printed as text, binary keys as lowercase hex; an unbounded side is an
    /// empty line.
    ///
    /// Text keys must be UTF-8 without control characters (C0 `0x00–0x1F`,
    /// DEL, C1 `U+0080–U+009F`) and bidirectional formatting characters
    /// (`U+061C`, `U+200E`, `U+200F`, `U+202A–U+202E`, `U+2066–U+2069`), so
    /// that each key is exactly one line and shows as what it is; lexikey's
    /// text formats never produce C0 controls, but pass the others through
    /// from the values. Such a key is an error: print the keys as binary
    /// (hex). `limit` and `reversed` are ignored.
    ///
    /// ```
    /// # use lexikey::range::render::{render, Dialect, RenderOptions};
    /// # use lexikey::KeyRange;
    /// let r = KeyRange::new(Some(b"\x00\x01".to_vec()), None)?;
    /// assert_eq!(render(Dialect::Raw, &r, &RenderOptions::new())?, "0001\n\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Raw,
    /// One hbase shell command:
    /// `scan 'TABLE', {STARTROW => …, STOPROW => …, LIMIT => n, REVERSED => true}`,
    /// with an unbounded side left out (and no `{…}` at all when nothing is
    /// left). Table default: `t`.
    ///
    /// Keys and the table name are Ruby string literals (the hbase shell is
    /// JRuby), see [`ruby_literal`]: single quotes when every byte is
    /// printable ASCII and there is no `'` or `\`; otherwise double quotes
    /// with `\xNN` escapes, `\"`, `\\`, and every `#` written `\#` so that
    /// `#{`, `#$` and `#@` never interpolate.
    ///
    /// **Reversed scans.** A user asking for `[start, end)` newest-first
    /// expects the *same rows*, in descending order. HBase's `REVERSED => true`
    /// scan begins at `STARTROW` (inclusive, the *larger* key) and walks down
    /// to `STOPROW` (exclusive), so the bounds swap sides *and* swap
    /// inclusiveness, which the shell cannot express directly. The renderer
    /// keeps the rows exact:
    /// - upper side: `end` ending in a `00` byte → `STARTROW` is `end`
    ///   without it (the largest key below `end`); otherwise `STARTROW => end`
    ///   plus `RowFilter(<, 'binary:end')` to drop the row `end` itself;
    /// - lower side: `start` ending in a `00` byte → `STOPROW` is `start`
    ///   without it; otherwise `InclusiveStopFilter('start')`, which in a
    ///   reversed scan stops after the row `start`;
    /// - the filters go in one `FILTER => "…"` string (HBase filter
    ///   language, `'` doubled), joined with `AND`.
    ///
    /// **Filters with bytes that are not UTF-8.** hbase shells before
    /// HBASE-15032 (0.98.0–0.98.16.1, 1.0.x, 1.1.x; reversed scans need
    /// 0.98.0+) pass a `FILTER` string to HBase through a Java `String`:
    /// bytes that are not UTF-8 become U+FFFD and the filter compares
    /// against other bytes. Newer shells (0.98.17+, 1.2.0+, 2.x, 3.x) pass
    /// `filter.to_java_bytes`, which is exact. So when the filter's bytes
    /// are not valid UTF-8 (binary and `.desc` keys), the value is a Filter
    /// object built from those bytes, which every shell passes on as it is:
    /// `FILTER => org.apache.hadoop.hbase.filter.ParseFilter.new.parseFilterString("…".to_java_bytes)`.
    /// A valid UTF-8 filter string means the same in both kinds of shell
    /// and is printed as a plain string.
    ///
    /// ```
    /// # use lexikey::range::render::{render, Dialect, RenderOptions};
    /// # use lexikey::KeyRange;
    /// let r = KeyRange::new(Some(b"a\x00".to_vec()), Some(b"b'#{x}".to_vec()))?;
    /// let o = RenderOptions::new().table("t1").limit(10);
    /// assert_eq!(
    ///     render(Dialect::Hbase, &r, &o)?,
    ///     r#"scan 't1', {STARTROW => "a\x00", STOPROW => "b'\#{x}", LIMIT => 10}"#.to_owned() + "\n"
    /// );
    /// assert_eq!(
    ///     render(Dialect::Hbase, &r, &o.reversed(true))?,
    ///     r#"scan 't1', {STARTROW => "b'\#{x}", STOPROW => 'a', "#.to_owned()
    ///         + r#"FILTER => "RowFilter(<, 'binary:b''\#{x}')", LIMIT => 10, REVERSED => true}"#
    ///         + "\n"
    /// );
    /// let ff = KeyRange::new(None, Some(b"\xff".to_vec()))?;
    /// assert_eq!(
    ///     render(Dialect::Hbase, &ff, &RenderOptions::new().reversed(true))?,
    ///     r#"scan 't', {STARTROW => "\xFF", FILTER => org.apache.hadoop.hbase.filter.ParseFilter.new"#
    ///         .to_owned()
    ///         + r#".parseFilterString("RowFilter(<, 'binary:\xFF')".to_java_bytes), REVERSED => true}"#
    ///         + "\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Hbase,
    /// One CQL statement:
    /// `SELECT * FROM t WHERE pk = ? AND ck >= … AND ck < … [ORDER BY ck DESC] [LIMIT n];`
    /// (an unbounded side's clause left out). The partition key stays a bind
    /// marker `?`. Text keys are string literals (`'` doubled), binary keys
    /// blob literals (`0x` + lowercase hex). CQL string literals have no
    /// escapes, so a text key must be UTF-8 without control characters
    /// (C0, DEL, C1) or bidirectional formatting characters: a line break
    /// would split the statement, and the others would show a different
    /// statement than the one that runs. Such a key is an error
    /// ([`RenderError::UnrepresentableByte`],
    /// [`RenderError::UnrepresentableChar`]); lexikey's text formats never
    /// produce C0 controls, but pass the others through from the values.
    ///
    /// Names come from [`RenderOptions::table`] (default `t`; `ks.t` names a
    /// keyspace), [`RenderOptions::partition_key`] (default `pk`) and
    /// [`RenderOptions::column`] (default `ck`). They are exact,
    /// case-sensitive names: written bare when they are lowercase
    /// `[a-z][a-z0-9_]*` and not a keyword, otherwise double-quoted with `"`
    /// doubled. (A table created without quotes has a lowercase name.)
    ///
    /// CQL allows a range (`>=`, `<`) only on the **last restricted
    /// clustering column**: the key must be one clustering column (`ck`),
    /// with any clustering columns before it restricted by `=`.
    ///
    /// ```
    /// # use lexikey::range::render::{render, Dialect, RenderOptions};
    /// # use lexikey::KeyRange;
    /// let r = KeyRange::new(Some(b"it's".to_vec()), None)?;
    /// let o = RenderOptions::new().text(true).table("ks.Events").limit(5).reversed(true);
    /// assert_eq!(
    ///     render(Dialect::Cql, &r, &o)?,
    ///     "SELECT * FROM ks.\"Events\" WHERE pk = ? AND ck >= 'it''s' ORDER BY ck DESC LIMIT 5;\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Cql,
    /// Two lines, the values of RocksDB's `ReadOptions`:
    /// `iterate_lower_bound=…` (inclusive) and `iterate_upper_bound=…`
    /// (exclusive); an unbounded side has an empty value.
    ///
    /// Notation: a value that starts with `0x` is hex (`0x` + lowercase hex
    /// digits); any other non-empty value is the key itself. Text keys are
    /// written as themselves when every byte is printable ASCII other than
    /// space (`0x21–0x7E`) and the key does not start with `0x`/`0X`;
    /// every other key, and every binary key, is written in hex. `limit`
    /// and `reversed` are ignored (a reversed iteration uses the same
    /// bounds with `SeekToLast`/`Prev`).
    ///
    /// ```
    /// # use lexikey::range::render::{render, Dialect, RenderOptions};
    /// # use lexikey::KeyRange;
    /// let r = KeyRange::new(Some(b"0xff".to_vec()), Some(b"zz".to_vec()))?;
    /// assert_eq!(
    ///     render(Dialect::Rocksdb, &r, &RenderOptions::new().text(true))?,
    ///     "iterate_lower_bound=0x30786666\niterate_upper_bound=zz\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Rocksdb,
    /// Two lines: an `etcdctl get` command line (bash) and the JSON body for
    /// etcd's gateway (`POST /v3/kv/range`).
    ///
    /// etcd's range is `key`/`range_end`; `range_end = "\0"` means "to the
    /// end", and an unbounded start is the smallest key `"\0"`.
    /// - `[a, b)` → `etcdctl get 'a' 'b'`;
    /// - `[a, ∞)` → `etcdctl get --from-key 'a'`;
    /// - everything → `etcdctl get --from-key ''` (etcdctl reads `''` as `"\0"`);
    /// - `limit` → `--limit=n`, `reversed` → `--order=DESCEND --sort-by=KEY`;
    /// - `--` goes before the keys when one starts with `-`.
    ///
    /// Arguments are quoted for bash by [`shell_quote`]: `'…'` (a quote
    /// written `'\''`) when every byte is printable ASCII, otherwise bash's
    /// ANSI-C quoting `$'…'` with `\xNN` escapes (bash, zsh, ksh; not POSIX
    /// `sh`). **A command-line argument cannot hold a NUL byte** (not even
    /// as `$'\x00'`, which bash cuts short), so when a key holds a NUL, or
    /// the start is unbounded while the end is not (the start key would be
    /// `"\0"`), the first line is instead a shell comment (`# etcdctl cannot
    /// …`) saying so: use the JSON body.
    ///
    /// The JSON body always works: `{"key":"…","range_end":"…"}` in standard
    /// base64 with padding (see [`base64`]), plus `"limit":"n"` and
    /// `"sort_order":"DESCEND","sort_target":"KEY"` when asked.
    ///
    /// ```
    /// # use lexikey::range::render::{render, Dialect, RenderOptions};
    /// # use lexikey::KeyRange;
    /// let r = KeyRange::new(Some(b"it's".to_vec()), None)?;
    /// assert_eq!(
    ///     render(Dialect::Etcd, &r, &RenderOptions::new())?,
    ///     "etcdctl get --from-key 'it'\\''s'\n{\"key\":\"aXQncw==\",\"range_end\":\"AA==\"}\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Etcd,
    /// One Redis command in `redis-cli`'s own syntax (type it at the
    /// `redis-cli` prompt or pipe it into `redis-cli`):
    /// `ZRANGE t [start (end BYLEX [LIMIT 0 n]` (Redis ≥ 6.2), `-`/`+` for an
    /// unbounded side; reversed: `ZRANGE t (end [start BYLEX REV`. The key
    /// of the sorted set is [`RenderOptions::table`] (default `t`).
    ///
    /// Arguments are quoted by [`redis_quote`]: bare when every byte is
    /// printable ASCII other than space, `"`, `'` and `\`; otherwise in
    /// double quotes with `\"`, `\\` and `\xNN` escapes, which `redis-cli`
    /// decodes (any byte, NUL included). This is **not** shell syntax: do
    /// not paste it after `redis-cli` on a shell command line.
    ///
    /// ```
    /// # use lexikey::range::render::{render, Dialect, RenderOptions};
    /// # use lexikey::KeyRange;
    /// let r = KeyRange::new(None, Some(b"a b\x00".to_vec()))?;
    /// assert_eq!(
    ///     render(Dialect::Redis, &r, &RenderOptions::new().table("z"))?,
    ///     "ZRANGE z - \"(a b\\x00\" BYLEX\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Redis,
    /// One PostgreSQL statement:
    /// `SELECT k FROM t WHERE k >= … AND k < … ORDER BY k [DESC] [LIMIT n];`
    /// (an unbounded side's clause left out, and `WHERE` when both are).
    ///
    /// **Exact under `standard_conforming_strings` on and off.** Text keys
    /// are string literals with `'` doubled (no backslash in them, so both
    /// settings read them alike); a key holding a backslash, a control
    /// character or a bidirectional formatting character is written as an
    /// escape string `E'…'` (read the same under both settings) with `\\`,
    /// `\xNN` for ASCII controls and `\uXXXX` for the others, which keeps
    /// the statement on one line and shows every such character (`\u`
    /// escapes need a UTF-8 server encoding before PostgreSQL 13). Text keys
    /// must be UTF-8 without NUL (`text` cannot hold NUL); the client
    /// encoding must be UTF-8. The key column must be `text COLLATE "C"`
    /// for byte order. Binary keys are `decode('…', 'hex')` (lowercase hex;
    /// `bytea` compares as bytes) — not `'\x…'::bytea`, whose backslash
    /// is a string escape when the setting is off.
    /// Names: [`RenderOptions::table`] (default `t`; `s.t` names a schema)
    /// and [`RenderOptions::column`] (default `k`), bare when lowercase
    /// `[a-z_][a-z0-9_]*` and not a keyword, else double-quoted.
    ///
    /// ```
    /// # use lexikey::range::render::{render, Dialect, RenderOptions};
    /// # use lexikey::KeyRange;
    /// let r = KeyRange::new(Some(b"\x01\xff".to_vec()), Some(b"\x02".to_vec()))?;
    /// assert_eq!(
    ///     render(Dialect::Sql, &r, &RenderOptions::new().table("keys"))?,
    ///     "SELECT k FROM keys WHERE k >= decode('01ff', 'hex') AND k < decode('02', 'hex') ORDER BY k;\n"
    /// );
    /// let rlo = KeyRange::new(Some("a\u{202E}b".into()), None)?;
    /// assert_eq!(
    ///     render(Dialect::Sql, &rlo, &RenderOptions::new().text(true))?,
    ///     "SELECT k FROM t WHERE k >= E'a\\u202Eb' ORDER BY k;\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Sql,
    /// One `cbt` command line (Cloud Bigtable's CLI; paste it into bash):
    /// `cbt [-project P -instance I] read TABLE start=… end=… [count=n]
    /// [reversed=true]` (an unbounded side left out). When the range is
    /// exactly the keys that start with a prefix `P` — `[P, prefix_end(P))`,
    /// which `cbt` computes exactly, trailing `0xFF` bytes included — it is
    /// `prefix=P` instead. `-project`/`-instance` are written only when
    /// [`RenderOptions::project`]/[`RenderOptions::instance`] are set;
    /// otherwise `cbt` takes them from `~/.cbtrc`, as its docs suggest. The
    /// table is [`RenderOptions::table`] (default `t`).
    ///
    /// `cbt` takes a row key as the raw bytes of its argument (no escapes
    /// of its own), so every argument is quoted for bash by [`shell_quote`]
    /// (`start='…'`, or `start=$'\xNN…'` for bytes outside printable
    /// ASCII): exact in bash, zsh and ksh, not POSIX `sh`. **A key holding
    /// a NUL byte cannot be passed** (no command-line argument can hold
    /// one): that is [`RenderError::NulArgument`], naming what to use
    /// instead. With `BIGTABLE_EMULATOR_HOST` set, `cbt` reads the
    /// emulator.
    ///
    /// ```
    /// # use lexikey::range::render::{render, Dialect, RenderOptions};
    /// # use lexikey::KeyRange;
    /// let r = KeyRange::prefix(b"\x01\xFF");
    /// assert_eq!(render(Dialect::Cbt, &r, &RenderOptions::new())?, "cbt read t prefix=$'\\x01\\xFF'\n");
    /// let r = KeyRange::new(Some(b"a=b".to_vec()), Some(b"it's".to_vec()))?;
    /// let o = RenderOptions::new().table("events").project("my-proj").instance("prod").limit(10);
    /// assert_eq!(
    ///     render(Dialect::Cbt, &r, &o)?,
    ///     "cbt -project my-proj -instance prod read events start='a=b' end='it'\\''s' count=10\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Cbt,
    /// One `aws dynamodb query` command line (the AWS CLI; paste it into
    /// bash, with `--endpoint-url URL` appended for dynalite or DynamoDB
    /// Local) that reads exactly the keys of the range from a table in
    /// lexikey's DynamoDB layout ([`dynamodb`]: partition key `pk`, binary
    /// sort key `sk`, the text index `sk_text`): text keys as `S` values
    /// through the index, binary keys as `B` values (standard base64) on
    /// `sk`; `begins_with` for a prefix's range, `BETWEEN` with the largest
    /// storable key below the end otherwise, so that one key condition is
    /// exact. The partition is [`RenderOptions::partition`] (default
    /// `lexikey`), the table [`RenderOptions::table`] (default `t`);
    /// `reversed` is `--no-scan-index-forward`, `limit` `--max-items`. A
    /// bound over DynamoDB's 1,024-byte sort key is
    /// [`RenderError::KeyTooLong`].
    ///
    /// ```
    /// # use lexikey::range::render::{render, Dialect, RenderOptions};
    /// # use lexikey::KeyRange;
    /// let r = KeyRange::prefix(b"events#");
    /// let o = RenderOptions::new().text(true).table("ids").limit(1);
    /// assert_eq!(
    ///     render(Dialect::DynamoDb, &r, &o)?,
    ///     "aws dynamodb query --table-name ids --consistent-read --index-name sk_text \
    /// --key-condition-expression 'pk = :p AND begins_with(sk_text, :k)' \
    /// --expression-attribute-values '{\":p\":{\"S\":\"lexikey\"},\":k\":{\"S\":\"events#\"}}' \
    /// --max-items 1\n"
    /// );
    /// let r = KeyRange::new(Some(b"\x01\xff".to_vec()), None)?;
    /// assert_eq!(
    ///     render(Dialect::DynamoDb, &r, &RenderOptions::new().partition("lexikey#01").reversed(true))?,
    ///     "aws dynamodb query --table-name t --consistent-read \
    /// --key-condition-expression 'pk = :p AND sk >= :a' \
    /// --expression-attribute-values '{\":p\":{\"S\":\"lexikey#01\"},\":a\":{\"B\":\"Af8=\"}}' \
    /// --no-scan-index-forward\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    DynamoDb,
}

impl Dialect {
    /// Every dialect, in the order the CLI lists them.
    pub const ALL: [Dialect; 9] = [
        Dialect::Raw,
        Dialect::Hbase,
        Dialect::Cql,
        Dialect::Rocksdb,
        Dialect::Etcd,
        Dialect::Redis,
        Dialect::Sql,
        Dialect::Cbt,
        Dialect::DynamoDb,
    ];

    /// The CLI name: `raw`, `hbase`, `cql`, `rocksdb`, `etcd`, `redis`,
    /// `sql`, `cbt`, `dynamodb`.
    ///
    /// ```
    /// use lexikey::range::render::Dialect;
    /// assert_eq!(Dialect::Rocksdb.name(), "rocksdb");
    /// assert_eq!(Dialect::parse(Dialect::Sql.name())?, Dialect::Sql);
    /// # Ok::<(), lexikey::range::render::RenderError>(())
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::Raw => "raw",
            Dialect::Hbase => "hbase",
            Dialect::Cql => "cql",
            Dialect::Rocksdb => "rocksdb",
            Dialect::Etcd => "etcd",
            Dialect::Redis => "redis",
            Dialect::Sql => "sql",
            Dialect::Cbt => "cbt",
            Dialect::DynamoDb => "dynamodb",
        }
    }

    /// The dialect with this CLI name (ASCII case-insensitive).
    ///
    /// # Errors
    /// [`RenderError::UnknownDialect`] for any other name.
    ///
    /// ```
    /// use lexikey::range::render::Dialect;
    /// assert_eq!(Dialect::parse("HBase")?, Dialect::Hbase);
    /// assert!(Dialect::parse("mongo").is_err());
    /// # Ok::<(), lexikey::range::render::RenderError>(())
    /// ```
    pub fn parse(name: &str) -> Result<Dialect, RenderError> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| RenderError::UnknownDialect {
                name: name.to_string(),
            })
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Dialect {
    type Err = RenderError;
    fn from_str(s: &str) -> Result<Dialect, RenderError> {
        Dialect::parse(s)
    }
}

impl TryFrom<&str> for Dialect {
    type Error = RenderError;
    fn try_from(s: &str) -> Result<Dialect, RenderError> {
        Dialect::parse(s)
    }
}

/// How to render: key kind, names, limit and direction.
///
/// Build it with [`RenderOptions::new`] (or `Default`) and the chained
/// setters, or assign the public fields. Unset names use each dialect's
/// default (`t`, `pk`, `ck`/`k`). A table or column name must be non-empty
/// and free of control characters ([`RenderError::InvalidName`]); the Redis
/// key may be any string.
///
/// ```
/// use lexikey::range::render::RenderOptions;
/// let o = RenderOptions::new().text(true).table("events").limit(100).reversed(true);
/// assert_eq!(o.table.as_deref(), Some("events"));
/// assert_eq!((o.text, o.limit, o.reversed), (true, Some(100), true));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct RenderOptions {
    /// The table: hbase table, CQL/SQL table (`ks.t` / `schema.t`), or the
    /// Redis sorted set's key. Default `t`.
    pub table: Option<String>,
    /// The keys are text (lexikey's text formats: printed as text, CQL/SQL
    /// string literals) rather than binary (hex, blob, bytea).
    pub text: bool,
    /// At most this many keys (1 to 2,147,483,647). hbase `LIMIT`, CQL/SQL
    /// `LIMIT`, etcd `--limit`/`"limit"`, Redis `LIMIT 0 n`.
    pub limit: Option<u64>,
    /// Largest key first (the same keys, in descending order).
    pub reversed: bool,
    /// CQL partition key column, bound as `?`. Default `pk`.
    pub partition_key: Option<String>,
    /// The key column: CQL clustering column (default `ck`) or SQL column
    /// (default `k`).
    pub column: Option<String>,
    /// The Google Cloud project (`cbt -project`); unset: `cbt` reads it
    /// from `~/.cbtrc`.
    pub project: Option<String>,
    /// The Bigtable instance (`cbt -instance`); unset: `cbt` reads it from
    /// `~/.cbtrc`.
    pub instance: Option<String>,
    /// The column family of hbase's `create` ([`render_splits`]). Default
    /// `f`.
    pub family: Option<String>,
    /// The DynamoDB partition key value (`pk`) the query reads: the
    /// store's namespace, or a salted table's bucket partition
    /// ([`dynamodb::bucket_partition`]). Default `lexikey`.
    pub partition: Option<String>,
}

impl RenderOptions {
    /// Binary keys, default names, no limit, ascending.
    pub fn new() -> RenderOptions {
        RenderOptions::default()
    }

    /// Sets [`RenderOptions::table`].
    pub fn table(mut self, table: impl Into<String>) -> RenderOptions {
        self.table = Some(table.into());
        self
    }

    /// Sets [`RenderOptions::text`].
    pub fn text(mut self, text: bool) -> RenderOptions {
        self.text = text;
        self
    }

    /// Sets [`RenderOptions::limit`].
    pub fn limit(mut self, limit: u64) -> RenderOptions {
        self.limit = Some(limit);
        self
    }

    /// Sets [`RenderOptions::reversed`].
    pub fn reversed(mut self, reversed: bool) -> RenderOptions {
        self.reversed = reversed;
        self
    }

    /// Sets [`RenderOptions::partition_key`].
    pub fn partition_key(mut self, name: impl Into<String>) -> RenderOptions {
        self.partition_key = Some(name.into());
        self
    }

    /// Sets [`RenderOptions::column`].
    pub fn column(mut self, name: impl Into<String>) -> RenderOptions {
        self.column = Some(name.into());
        self
    }

    /// Sets [`RenderOptions::project`].
    pub fn project(mut self, name: impl Into<String>) -> RenderOptions {
        self.project = Some(name.into());
        self
    }

    /// Sets [`RenderOptions::instance`].
    pub fn instance(mut self, name: impl Into<String>) -> RenderOptions {
        self.instance = Some(name.into());
        self
    }

    /// Sets [`RenderOptions::family`].
    pub fn family(mut self, name: impl Into<String>) -> RenderOptions {
        self.family = Some(name.into());
        self
    }

    /// Sets [`RenderOptions::partition`].
    pub fn partition(mut self, value: impl Into<String>) -> RenderOptions {
        self.partition = Some(value.into());
        self
    }
}

/// Which bound of the range a key is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The inclusive start.
    Start,
    /// The exclusive end.
    End,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Start => "start",
            Side::End => "end",
        })
    }
}

/// Why a range could not be rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The range holds no key (`start >= end`, or `end` is the empty key).
    #[error(transparent)]
    Empty(#[from] EmptyRange),
    /// [`Dialect::parse`] got a name it does not know.
    #[error(
        "unknown dialect {name:?}: expected one of raw, hbase, cql, rocksdb, etcd, redis, sql, cbt, dynamodb"
    )]
    UnknownDialect {
        /// The name given.
        name: String,
    },
    /// A key longer than the store's row keys can be: Bigtable's are at
    /// most 4,096 bytes (`cbt` and the API refuse a longer bound; no row
    /// has such a key), DynamoDB's sort keys at most 1,024.
    #[error("the {side} key is {len} bytes: {dialect} row keys are at most {max} bytes; shorten the key's longest component")]
    KeyTooLong {
        /// The dialect whose store has the limit.
        dialect: Dialect,
        /// Which key.
        side: Side,
        /// The key's length in bytes.
        len: usize,
        /// The store's limit.
        max: usize,
    },
    /// A text key is not valid UTF-8.
    #[error("the {side} key is not valid UTF-8 (at byte {offset}): {dialect} text keys must be UTF-8; render the keys as binary")]
    NotUtf8 {
        /// The dialect that needs text.
        dialect: Dialect,
        /// Which key.
        side: Side,
        /// Offset of the first byte of the invalid sequence.
        offset: usize,
    },
    /// A text key holds a byte the dialect's text cannot carry: NUL in SQL
    /// (`text` cannot hold it); an ASCII control character (`0x00–0x1F`,
    /// `0x7F`) in CQL and raw output, which have no escape syntax.
    #[error("the {side} key holds byte {byte:#04x} at byte {offset}, which {dialect} text cannot hold; render the keys as binary")]
    UnrepresentableByte {
        /// The dialect.
        dialect: Dialect,
        /// Which key.
        side: Side,
        /// Offset of the byte.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// A text key holds a character that a terminal does not show as
    /// itself — a C1 control (`U+0080–U+009F`) or a bidirectional
    /// formatting character (`U+061C`, `U+200E`, `U+200F`,
    /// `U+202A–U+202E`, `U+2066–U+2069`) — and the dialect's text has no
    /// escape for it (CQL string literals, raw lines). Printed raw, the
    /// visible command would differ from the one that runs ("trojan
    /// source"); dialects with an escape syntax escape it instead.
    #[error(
        "the {side} key holds U+{:04X} at byte {offset}, a control or bidirectional formatting character \
         that {dialect} text has no escape for (printed raw, a terminal would show something other than \
         what runs); render the keys as binary",
        u32::from(*.ch)
    )]
    UnrepresentableChar {
        /// The dialect.
        dialect: Dialect,
        /// Which key.
        side: Side,
        /// Offset of the character's first byte.
        offset: usize,
        /// The character.
        ch: char,
    },
    /// A key holds a NUL byte and the dialect passes keys as command-line
    /// arguments, which cannot hold one (`cbt`).
    #[error(
        "the {side} key holds byte 0x00 at byte {offset}, and {dialect} takes keys as command-line \
         arguments, which cannot hold a NUL byte: read this range with a Bigtable client library \
         instead (a RowRange of these bytes; --for raw prints them in hex)"
    )]
    NulArgument {
        /// The dialect.
        dialect: Dialect,
        /// Which key.
        side: Side,
        /// Offset of the NUL byte.
        offset: usize,
    },
    /// A table or column name that cannot be written: empty, or with a
    /// control character (`0x00–0x1F`, `0x7F–0x9F`) or a bidirectional
    /// formatting character (names are printed as themselves, so such a
    /// character would hide what the statement names).
    #[error("invalid {what} name {name:?}: {reason}")]
    InvalidName {
        /// `table`, `partition key`, `column`, `project`, `instance` or
        /// `partition` (DynamoDB's partition key value).
        what: &'static str,
        /// The name given.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A limit of 0 (which some stores read as "no limit") or one above
    /// 2,147,483,647 (CQL and the hbase shell take a 32-bit int).
    #[error("invalid limit {limit}: expected 1 to 2147483647")]
    InvalidLimit {
        /// The limit given.
        limit: u64,
    },
    /// [`render_splits`] for a dialect that has no pre-split table, or a
    /// split its syntax cannot carry.
    #[error("split points for {dialect}: {reason}")]
    Splits {
        /// The dialect.
        dialect: Dialect,
        /// What is wrong and what to do.
        reason: &'static str,
    },
}

/// The command that creates table `opts.table` (default `t`) split before
/// each of `splits` (in order, each non-empty): for a salted table, the
/// first key of every bucket but the first ([`crate::store::salt::Salter::split_points`]),
/// so each bucket starts in a region (tablet) of its own, as the salted
/// write spread assumes. One line:
///
/// - [`Dialect::Cbt`]: `cbt [-project P -instance I] createtable T
///   splits=S1,S2,…` (shell-quoted). No families: the Bigtable store adds
///   its own when it opens the table (family `f`, or its URL's `family=`);
/// - [`Dialect::Hbase`]: `create 'T', 'F', SPLITS => ['S1', 'S2', …]`
///   (column family `F`: [`RenderOptions::family`], default `f`): each split a Ruby literal of its
///   `Bytes.toStringBinary` form ([`crate::to_string_binary`]), which the
///   shell's `create` reads back with `Bytes.toBytesBinary` (`"\\x01"` for
///   byte 1).
///
/// No splits: the same command without them (one region).
///
/// # Errors
/// [`RenderError::Splits`]: another dialect, an empty split, or (cbt) a
/// split holding a comma (`splits=` is comma-separated: binary salts of
/// more than 44 buckets; the text formats' salts never hold one) or a NUL;
/// [`RenderError::InvalidName`] as for [`render`].
///
/// ```
/// use lexikey::range::render::{render_splits, Dialect, RenderOptions};
/// use lexikey::store::salt::{SaltMode, Salter};
/// use lexikey::Format;
/// let s = Salter::new(4, SaltMode::Fast)?.for_format(Format::Hex);
/// let o = RenderOptions::new().table("ids");
/// assert_eq!(
///     render_splits(Dialect::Cbt, &s.split_points(), &o)?,
///     "cbt createtable ids splits='01#,02#,03#'\n"
/// );
/// assert_eq!(
///     render_splits(Dialect::Hbase, &s.split_points(), &o)?,
///     "create 'ids', 'f', SPLITS => ['01#', '02#', '03#']\n"
/// );
/// assert_eq!(
///     render_splits(Dialect::Hbase, &s.split_points(), &o.family("cf"))?,
///     "create 'ids', 'cf', SPLITS => ['01#', '02#', '03#']\n"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render_splits(
    dialect: Dialect,
    splits: &[Vec<u8>],
    opts: &RenderOptions,
) -> Result<String, RenderError> {
    let fail = |reason| Err(RenderError::Splits { dialect, reason });
    if splits.iter().any(Vec::is_empty) {
        return fail("a split point is empty (the empty key starts every table)");
    }
    let table = name(&opts.table, "t", "table")?;
    let mut out = String::new();
    match dialect {
        Dialect::Cbt => {
            if splits.iter().any(|k| k.contains(&b',')) {
                return fail(
                    "a split holds a comma, which cbt's comma-separated splits= cannot carry \
                     (a binary salt of more than 44 buckets): use a text key format or at most \
                     44 buckets, or split with a Bigtable client library",
                );
            }
            if splits.iter().any(|k| k.contains(&0)) {
                return fail("a split holds a NUL byte, which a command-line argument cannot hold");
            }
            out.push_str("cbt");
            if opts.project.is_some() {
                let _ = write!(
                    out,
                    " -project {}",
                    cbt::shell_word(name(&opts.project, "", "project")?)
                );
            }
            if opts.instance.is_some() {
                let _ = write!(
                    out,
                    " -instance {}",
                    cbt::shell_word(name(&opts.instance, "", "instance")?)
                );
            }
            let _ = write!(out, " createtable {}", cbt::shell_word(table));
            if !splits.is_empty() {
                let joined = splits.join(&b',');
                // No NUL (checked above): quoting cannot fail.
                let _ = write!(out, " splits={}", shell_quote(&joined).unwrap_or_default());
            }
        }
        Dialect::Hbase => {
            out.push_str("create ");
            hbase::ruby_into(table.as_bytes(), &mut out);
            out.push_str(", ");
            hbase::ruby_into(name(&opts.family, "f", "family")?.as_bytes(), &mut out);
            if !splits.is_empty() {
                out.push_str(", SPLITS => [");
                for (i, k) in splits.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    // The shell reads each split with Bytes.toBytesBinary.
                    hbase::ruby_into(crate::to_string_binary(k).as_bytes(), &mut out);
                }
                out.push(']');
            }
        }
        _ => {
            return fail("only cbt and hbase create pre-split tables: use --for cbt or --for hbase")
        }
    }
    out.push('\n');
    Ok(out)
}

/// Renders `range` for `dialect`: the full output, every line ending in `\n`.
///
/// # Errors
/// - [`RenderError::Empty`]: the range holds no key;
/// - [`RenderError::NotUtf8`], [`RenderError::UnrepresentableByte`],
///   [`RenderError::UnrepresentableChar`]: with `text` set, a key that the
///   dialect's text syntax cannot carry, or cannot show as itself;
/// - [`RenderError::InvalidName`]: an empty name, or one with a control
///   character or a bidirectional formatting character;
/// - [`RenderError::InvalidLimit`]: a limit of 0 or above `i32::MAX`.
///
/// ```
/// use lexikey::range::render::{render, Dialect, RenderError, RenderOptions};
/// use lexikey::KeyRange;
/// let r = KeyRange::prefix(b"usa#");
/// assert_eq!(
///     render(Dialect::Redis, &r, &RenderOptions::new().limit(1))?,
///     "ZRANGE t [usa# (usa$ BYLEX LIMIT 0 1\n"
/// );
/// let empty = KeyRange { start: Some(b"b".to_vec()), end: Some(b"a".to_vec()) };
/// assert!(matches!(
///     render(Dialect::Sql, &empty, &RenderOptions::new()),
///     Err(RenderError::Empty(_))
/// ));
/// # Ok::<(), RenderError>(())
/// ```
pub fn render(
    dialect: Dialect,
    range: &KeyRange,
    opts: &RenderOptions,
) -> Result<String, RenderError> {
    let mut out = String::new();
    render_into(dialect, range, opts, &mut out)?;
    Ok(out)
}

/// Like [`render`], appending to `out`. On error `out` is left as it was.
///
/// # Errors
/// As [`render`].
pub fn render_into(
    dialect: Dialect,
    range: &KeyRange,
    opts: &RenderOptions,
    out: &mut String,
) -> Result<(), RenderError> {
    let len = out.len();
    let result = render_unchecked(dialect, range, opts, out);
    if result.is_err() {
        out.truncate(len);
    }
    result
}

fn render_unchecked(
    dialect: Dialect,
    range: &KeyRange,
    opts: &RenderOptions,
    out: &mut String,
) -> Result<(), RenderError> {
    if range.is_empty() || range.end.as_deref() == Some(&[][..]) {
        return Err(EmptyRange.into());
    }
    if let Some(limit) = opts.limit {
        if limit == 0 || limit > i32::MAX as u64 {
            return Err(RenderError::InvalidLimit { limit });
        }
    }
    let b = Bounds {
        // The empty key is the smallest key: starting there is no bound.
        start: range.start.as_deref().filter(|s| !s.is_empty()),
        end: range.end.as_deref(),
    };
    match dialect {
        Dialect::Raw => raw(&b, opts, out),
        Dialect::Hbase => hbase::hbase(&b, opts, out),
        Dialect::Cql => cql::cql(&b, opts, out),
        Dialect::Rocksdb => rocksdb::rocksdb(&b, opts, out),
        Dialect::Etcd => etcd::etcd(&b, opts, out),
        Dialect::Redis => redis::redis(&b, opts, out),
        Dialect::Sql => sql::sql(&b, opts, out),
        Dialect::Cbt => cbt::cbt(&b, opts, out),
        Dialect::DynamoDb => dynamodb::dynamodb(&b, opts, out),
    }
}

/// The normalized bounds: `start` is never the empty key, `end` never is.
struct Bounds<'a> {
    start: Option<&'a [u8]>,
    end: Option<&'a [u8]>,
}

impl<'a> Bounds<'a> {
    fn sides(&self) -> [(Side, Option<&'a [u8]>); 2] {
        [(Side::Start, self.start), (Side::End, self.end)]
    }
}

fn name<'o>(
    value: &'o Option<String>,
    default: &'static str,
    what: &'static str,
) -> Result<&'o str, RenderError> {
    let name = value.as_deref().unwrap_or(default);
    let reason = if name.is_empty() {
        "a name cannot be empty"
    } else if name.chars().any(char::is_control) {
        "a name cannot hold a control character"
    } else if name.chars().any(is_hidden) {
        "a name cannot hold a bidirectional formatting character"
    } else {
        return Ok(name);
    };
    Err(RenderError::InvalidName {
        what,
        name: name.to_string(),
        reason,
    })
}

/// Whether a terminal shows `c` as something other than itself: a control
/// character (Unicode category Cc: C0 `U+0000–U+001F`, DEL, C1
/// `U+0080–U+009F`) or a bidirectional formatting character (the marks
/// ALM `U+061C`, LRM `U+200E`, RLM `U+200F`; the embeddings and overrides
/// LRE, RLE, PDF, LRO, RLO `U+202A–U+202E`; the isolates LRI, RLI, FSI, PDI
/// `U+2066–U+2069`), the characters of the "trojan source" attacks
/// (CVE-2021-42574). No rendered output holds one raw.
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// What a dialect's text literal cannot hold raw.
#[derive(Clone, Copy)]
enum Refuse {
    /// NUL only (SQL: escape strings carry every other character).
    Nul,
    /// Every character of [`is_hidden`] (CQL literals and raw lines have no
    /// escapes).
    Hidden,
}

/// `key` as text for `dialect`: valid UTF-8, and without what `refuse`
/// names (the first such character is the error).
fn text_key(dialect: Dialect, side: Side, key: &[u8], refuse: Refuse) -> Result<&str, RenderError> {
    let s = std::str::from_utf8(key).map_err(|e| RenderError::NotUtf8 {
        dialect,
        side,
        offset: e.valid_up_to(),
    })?;
    let bad = |c: char| match refuse {
        Refuse::Nul => c == '\0',
        Refuse::Hidden => is_hidden(c),
    };
    match s.char_indices().find(|&(_, c)| bad(c)) {
        Some((offset, c)) if c.is_ascii() => Err(RenderError::UnrepresentableByte {
            dialect,
            side,
            offset,
            byte: c as u8,
        }),
        Some((offset, ch)) => Err(RenderError::UnrepresentableChar {
            dialect,
            side,
            offset,
            ch,
        }),
        None => Ok(s),
    }
}

const LOWER_HEX: &[u8; 16] = b"0123456789abcdef";

fn hex_into(key: &[u8], out: &mut String) {
    out.reserve(2 * key.len());
    for &b in key {
        out.push(LOWER_HEX[(b >> 4) as usize] as char);
        out.push(LOWER_HEX[(b & 15) as usize] as char);
    }
}

fn is_printable(b: u8) -> bool {
    (0x20..=0x7E).contains(&b)
}

// ------------------------------------------------- shared by cql and sql

/// An identifier, bare when `bare_ok` allows it and it is not a keyword,
/// else double-quoted with `"` doubled.
fn ident_into(name: &str, keywords: &[&str], bare_first: fn(u8) -> bool, out: &mut String) {
    let bytes = name.as_bytes();
    let bare = bytes.first().is_some_and(|&b| bare_first(b))
        && bytes
            .iter()
            .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        && !keywords.contains(&name);
    if bare {
        out.push_str(name);
    } else {
        out.push('"');
        out.push_str(&name.replace('"', "\"\""));
        out.push('"');
    }
}

/// `ks.t` / `schema.t`: the first dot separates the two names.
fn qualified_into(table: &str, ident: fn(&str, &mut String), out: &mut String) {
    match table.split_once('.') {
        Some((ns, t)) if !ns.is_empty() && !t.is_empty() => {
            ident(ns, out);
            out.push('.');
            ident(t, out);
        }
        _ => ident(table, out),
    }
}

// ---------------------------------------------------------------- raw

fn raw(b: &Bounds<'_>, o: &RenderOptions, out: &mut String) -> Result<(), RenderError> {
    for (side, key) in b.sides() {
        if let Some(key) = key {
            if o.text {
                out.push_str(text_key(Dialect::Raw, side, key, Refuse::Hidden)?);
            } else {
                hex_into(key, out);
            }
        }
        out.push('\n');
    }
    Ok(())
}
