//! Golden vectors in `fixtures/`, checked in both directions: every line's
//! components encode to exactly its key, and its key decodes (with the
//! schema the components imply) to exactly its components.
//!
//! Line format (`fixtures/<format>.tsv`): components in the CLI syntax
//! `TYPE[.desc]:VALUE`, tab-separated, then the key (text formats as text,
//! `binary` as lowercase hex). In component values, `\t`, `\n`, `\\` and
//! `\xNN`/`\u{…}` escapes stand for characters a TSV line cannot hold.
//! Lines starting with `#` are comments (sources are cited there).
//! `UPDATE_FIXTURES=1` rewrites the key column from the current encoder
//! (review the diff before committing!).

use lexikey::value::literal::{component_to_string, parse_component};
use lexikey::{tuple, Component, Format};

/// A fixture column unescaped (the one reader: `lexikey::fixture`).
fn unescape(s: &str) -> String {
    lexikey::fixture::unescape(s).unwrap_or_else(|e| panic!("{e} in fixture"))
}

fn escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            // Noncharacters (U+FFFE, U+10FFFF, …) are invisible: write them escaped.
            c if (c as u32) & 0xFFFE == 0xFFFE => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

fn key_text(format: Format, key: &[u8]) -> String {
    if format.is_text() {
        String::from_utf8(key.to_vec()).expect("text key")
    } else {
        lexikey::to_hex(key)
    }
}

fn check_file(format: Format) {
    let path = format!(
        "{}/fixtures/{}.tsv",
        env!("CARGO_MANIFEST_DIR"),
        format.name()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let update = std::env::var_os("UPDATE_FIXTURES").is_some();
    let mut out = String::new();
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        if lexikey::fixture::is_comment_line(line) {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let mut cols: Vec<&str> = line.split('\t').collect();
        let key_col = cols.pop().unwrap();
        let comps: Vec<Component<'static>> = cols
            .iter()
            .map(|c| {
                parse_component(&unescape(c)).unwrap_or_else(|e| panic!("{path}:{}: {e}", n + 1))
            })
            .collect();
        let key = tuple::encode(format, &comps).unwrap_or_else(|e| panic!("{path}:{}: {e}", n + 1));
        if update {
            out.push_str(&cols.join("\t"));
            out.push('\t');
            out.push_str(&key_text(format, &key));
            out.push('\n');
            continue;
        }
        // value -> key
        assert_eq!(
            key_text(format, &key),
            key_col,
            "{path}:{}: encoding changed",
            n + 1
        );
        // key -> value
        let raw = if format.is_text() {
            key_col.as_bytes().to_vec()
        } else {
            lexikey::value::literal::parse_hex(key_col).unwrap()
        };
        let schema: Vec<_> = comps.iter().map(Component::field).collect();
        let back = tuple::decode(format, &raw, Some(&schema))
            .unwrap_or_else(|e| panic!("{path}:{}: {e}", n + 1));
        assert_eq!(back, comps, "{path}:{}: decoding changed", n + 1);
        // and the printed components are the fixture's own text
        let printed: Vec<String> = back
            .iter()
            .map(|c| escape(&component_to_string(c)))
            .collect();
        assert_eq!(printed, cols, "{path}:{}: component text changed", n + 1);
        checked += 1;
    }
    if update {
        std::fs::write(&path, out).unwrap();
    } else {
        assert!(checked >= 20, "{path}: only {checked} vectors");
    }
}

#[test]
fn hex_vectors() {
    check_file(Format::Hex);
}

#[test]
fn base64_vectors() {
    check_file(Format::Base64);
}

#[test]
fn decimal_vectors() {
    check_file(Format::Decimal);
}

#[test]
fn binary_vectors() {
    check_file(Format::Binary);
}

/// DESIGN.md's narrow-width example: a u64 population at width 7.
#[test]
fn decimal_width_seven() {
    use lexikey::{Field, Type, Value};
    let c = Component {
        width: Some(7),
        ..Component::asc(389_625_u64)
    };
    let key = tuple::encode(Format::Decimal, std::slice::from_ref(&c)).unwrap();
    assert_eq!(key, b"0389625");
    let f = Field::asc(Type::U64).with_width(7);
    assert_eq!(
        tuple::decode(Format::Decimal, b"0389625", Some(&[f])).unwrap()[0].value,
        Value::U64(389_625)
    );
    let too_big = Component {
        width: Some(7),
        ..Component::asc(10_000_000_u64)
    };
    assert!(tuple::encode(Format::Decimal, &[too_big]).is_err());
}
