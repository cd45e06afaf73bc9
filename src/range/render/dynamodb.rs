//! DynamoDB: the table layout lexikey's DynamoDB store writes
//! (`dynamodb://TABLE` in `lexikey-stores`), written down once here, and
//! [`super::Dialect::DynamoDb`], a range as the
//! `aws dynamodb query` command that reads exactly its keys from such a
//! table.
//!
//! # The layout
//!
//! One item per key, in a table whose primary key is
//!
//! | attribute | type | holds |
//! |---|---|---|
//! | [`PARTITION_KEY`] `pk` | `S` (partition key) | the key's partition: the store's namespace (`ns=`, default [`DEFAULT_PARTITION`] `lexikey`), or for a row of a salted allocator table, the namespace and the row's bucket ([`bucket_partition`]: `lexikey#0B`) |
//! | [`SORT_KEY`] `sk` | `B` (sort key) | the key itself, every byte (the salt of a salted row included): DynamoDB compares `B` sort keys as unsigned bytes, which is lexikey's order |
//! | [`VALUE`] `v` | `B` | the value |
//! | [`TEXT_SORT_KEY`] `sk_text` | `S` | the key again, as text, when it is valid UTF-8 (every key of the text formats is); left out otherwise |
//!
//! and a local secondary index [`TEXT_INDEX`] `sk_text` (partition key `pk`,
//! sort key `sk_text`, every attribute projected), so that text keys can be
//! queried as the `S` strings they are. DynamoDB compares `S` values by
//! the bytes of their UTF-8 encoding, and for UTF-8 byte order is code
//! point order, so the index holds the same keys in the same order as
//! `sk` (`tests/render.rs` proves it over the text formats' keys).
//!
//! One scan of the store is one `Query` of one partition, sorted by the
//! sort key: a store's keys live in one partition, so a partition's keys
//! are what one DynamoDB partition key can hold (a local secondary index
//! caps an item collection at 10 GB). A salted allocator table
//! (`--salt-buckets N`) puts each bucket in its own partition — DynamoDB's
//! "write sharding": N partition keys take the writes, and a read queries
//! each bucket's partition and merges them.
//!
//! DynamoDB's limits: a partition key of at most
//! [`MAX_PARTITION_KEY`] (2,048) bytes, a sort key (`sk`, and `sk_text` in
//! the index) of at most [`MAX_SORT_KEY`] (1,024) bytes. The store refuses
//! longer keys; the renderer refuses longer bounds.
//!
//! # The query
//!
//! One line, to paste into bash (add `--endpoint-url URL` for dynalite or
//! DynamoDB Local):
//!
//! ```text
//! aws dynamodb query --table-name T --consistent-read [--index-name sk_text]
//!   --key-condition-expression 'pk = :p AND …' --expression-attribute-values '{…}'
//!   [--no-scan-index-forward] [--max-items N]
//! ```
//!
//! Text keys ([`RenderOptions::text`]) are `S` values queried through the
//! `sk_text` index; binary keys are `B` values (standard base64 in the
//! JSON) on `sk`. The partition is [`RenderOptions::partition`] (default
//! `lexikey`). DynamoDB takes one condition on the sort key, chosen so
//! that it holds for exactly the keys of `[start, end)`:
//!
//! - no bound: `pk = :p` alone;
//! - `[P, prefix_end(P))`, the keys that start with `P`: `begins_with(sk,
//!   :k)`. (dynalite decodes `B` values as UTF-8 before `begins_with`, so a
//!   binary prefix that is not valid UTF-8, or holds U+FFFD, is written
//!   with `BETWEEN` instead, which is exact everywhere);
//! - `[start, ∞)`: `sk >= :a`; `[0, end)`: `sk < :z`;
//! - `[start, end)`: `sk BETWEEN :a AND :z`, with `:z` the largest sort key
//!   below `end` that DynamoDB can store: `end` without its last byte when
//!   that byte is `00`, otherwise `end` with its last byte (text: character)
//!   decremented and then filled up to 1,024 bytes with the largest bytes
//!   (`FF`; text: U+10FFFF, then the largest character that fits). No
//!   stored key lies between `:z` and `end`, since none is longer than
//!   1,024 bytes, so `BETWEEN` is exact.
//!
//! `S` values are JSON strings in which every character outside printable
//! ASCII is a `\uXXXX` escape (U+10000 and above: a surrogate pair), so the
//! line is printable ASCII and shows every character; the JSON is one
//! shell word in single quotes.

use std::fmt::Write as _;

use super::{base64, name, shell_quote, Bounds, Dialect, RenderError, RenderOptions, Side};

/// The partition key attribute (`S`): the key's partition.
pub const PARTITION_KEY: &str = "pk";
/// The sort key attribute (`B`): the key's bytes.
pub const SORT_KEY: &str = "sk";
/// The value attribute (`B`).
pub const VALUE: &str = "v";
/// The attribute that holds the key as text (`S`), when it is UTF-8.
pub const TEXT_SORT_KEY: &str = "sk_text";
/// The local secondary index on ([`PARTITION_KEY`], [`TEXT_SORT_KEY`]).
pub const TEXT_INDEX: &str = "sk_text";
/// The partition of a store without `ns=`, and the query's default.
pub const DEFAULT_PARTITION: &str = "lexikey";
/// DynamoDB's limit on a partition key, in bytes.
pub const MAX_PARTITION_KEY: usize = 2048;
/// DynamoDB's limit on a sort key, in bytes.
pub const MAX_SORT_KEY: usize = 1024;

/// The partition of bucket `bucket` of a salted allocator table in
/// namespace `ns`: `ns#` and the bucket as two UPPERCASE hex digits.
///
/// ```
/// use lexikey::range::render::dynamodb::bucket_partition;
/// assert_eq!(bucket_partition("lexikey", 11), "lexikey#0B");
/// ```
pub fn bucket_partition(ns: &str, bucket: u8) -> String {
    format!("{ns}#{bucket:02X}")
}

/// The largest key of at most [`MAX_SORT_KEY`] bytes below `end` (not
/// empty), as bytes (`text`: as valid UTF-8, `end` being UTF-8).
fn below(end: &[u8], text: bool) -> Vec<u8> {
    let mut z = end.to_vec();
    if text {
        let s = std::str::from_utf8(end).unwrap_or_default();
        let Some(last) = s.chars().next_back() else {
            return z;
        };
        z.truncate(end.len() - last.len_utf8());
        if last == '\0' {
            return z;
        }
        let prev = match last as u32 - 1 {
            0xDFFF => '\u{D7FF}',
            c => char::from_u32(c).unwrap_or('\0'),
        };
        let mut buf = [0; 4];
        z.extend_from_slice(prev.encode_utf8(&mut buf).as_bytes());
        while z.len() + 4 <= MAX_SORT_KEY {
            z.extend_from_slice("\u{10FFFF}".as_bytes());
        }
        let tail = match MAX_SORT_KEY - z.len() {
            3 => "\u{FFFF}",
            2 => "\u{7FF}",
            1 => "\u{7F}",
            _ => "",
        };
        z.extend_from_slice(tail.as_bytes());
    } else {
        match z.pop() {
            Some(0) | None => {}
            Some(b) => {
                z.push(b - 1);
                z.resize(MAX_SORT_KEY.max(z.len()), 0xFF);
            }
        }
    }
    z
}

/// `s` as a JSON string, printable ASCII: `\"`, `\\`, and `\uXXXX` for
/// every other character outside `0x20–0x7E`.
fn json_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// One attribute value of `--expression-attribute-values`.
fn value(name: &str, key: &[u8], text: bool, out: &mut String) {
    let _ = write!(out, "\"{name}\":{{");
    if text {
        out.push_str("\"S\":");
        json_str(std::str::from_utf8(key).unwrap_or_default(), out);
    } else {
        out.push_str("\"B\":\"");
        out.push_str(&base64(key));
        out.push('"');
    }
    out.push('}');
}

pub(super) fn dynamodb(
    b: &Bounds<'_>,
    o: &RenderOptions,
    out: &mut String,
) -> Result<(), RenderError> {
    let dialect = Dialect::DynamoDb;
    // The keys that start with P: `begins_with`, whatever the end's bytes
    // (a text prefix's end need not be UTF-8). dynalite compares a B
    // begins_with as decoded UTF-8: such a binary prefix takes BETWEEN.
    let prefix = match (b.start, b.end) {
        (Some(p), end) if end == crate::range::prefix_end(p).as_deref() => {
            let utf8 = std::str::from_utf8(p).is_ok_and(|s| !s.contains('\u{FFFD}'));
            (o.text || utf8).then_some(p)
        }
        _ => None,
    };
    for (side, key) in b.sides() {
        let Some(key) = key.filter(|_| prefix.is_none() || side == Side::Start) else {
            continue;
        };
        if key.len() > MAX_SORT_KEY {
            return Err(RenderError::KeyTooLong {
                dialect,
                side,
                len: key.len(),
                max: MAX_SORT_KEY,
            });
        }
        // JSON escapes every character: text need only be UTF-8.
        if o.text {
            std::str::from_utf8(key).map_err(|e| RenderError::NotUtf8 {
                dialect,
                side,
                offset: e.valid_up_to(),
            })?;
        }
    }
    let table = name(&o.table, "t", "table")?;
    let partition = name(&o.partition, DEFAULT_PARTITION, "partition")?;
    if partition.len() > MAX_PARTITION_KEY {
        return Err(RenderError::InvalidName {
            what: "partition",
            name: partition.to_string(),
            reason: "a DynamoDB partition key is at most 2048 bytes",
        });
    }
    // The text index only where a condition on the sort key needs `S`
    // values: a whole partition is read from the table itself, which holds
    // every key (the index holds only the UTF-8 ones), in the same order.
    let use_index = o.text && (b.start.is_some() || b.end.is_some());
    let sk = if use_index { TEXT_SORT_KEY } else { SORT_KEY };
    let mut values = String::from("{");
    value(":p", partition.as_bytes(), true, &mut values);
    let condition = match (prefix, b.start, b.end) {
        (Some(p), _, _) => {
            values.push(',');
            value(":k", p, o.text, &mut values);
            format!("pk = :p AND begins_with({sk}, :k)")
        }
        (None, None, None) => "pk = :p".to_string(),
        (None, Some(s), None) => {
            values.push(',');
            value(":a", s, o.text, &mut values);
            format!("pk = :p AND {sk} >= :a")
        }
        (None, None, Some(e)) => {
            values.push(',');
            value(":z", e, o.text, &mut values);
            format!("pk = :p AND {sk} < :z")
        }
        (None, Some(s), Some(e)) => {
            values.push(',');
            value(":a", s, o.text, &mut values);
            values.push(',');
            value(":z", &below(e, o.text), o.text, &mut values);
            format!("pk = :p AND {sk} BETWEEN :a AND :z")
        }
    };
    values.push('}');
    out.push_str("aws dynamodb query --table-name ");
    out.push_str(&super::cbt::shell_word(table));
    out.push_str(" --consistent-read");
    if use_index {
        let _ = write!(out, " --index-name {TEXT_INDEX}");
    }
    let _ = write!(out, " --key-condition-expression '{condition}'");
    // Printable ASCII, no NUL: quoting cannot fail.
    let _ = write!(
        out,
        " --expression-attribute-values {}",
        shell_quote(values.as_bytes()).unwrap_or_default()
    );
    if o.reversed {
        out.push_str(" --no-scan-index-forward");
    }
    if let Some(limit) = o.limit {
        let _ = write!(out, " --max-items {limit}");
    }
    out.push('\n');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_the_largest_key_under_the_end() {
        assert_eq!(below(b"ab\x00", false), b"ab");
        let z = below(b"ab", false);
        assert_eq!((z.len(), &z[..2], z[2]), (MAX_SORT_KEY, &b"aa"[..], 0xFF));
        let t = below("a$".as_bytes(), true);
        let t = std::str::from_utf8(&t).unwrap();
        assert!(
            t.starts_with("a#\u{10FFFF}") && t.len() == MAX_SORT_KEY,
            "{}",
            t.len()
        );
        let t = below("a\u{E000}".as_bytes(), true);
        assert!(std::str::from_utf8(&t)
            .unwrap()
            .starts_with("a\u{D7FF}\u{10FFFF}"));
    }
}
