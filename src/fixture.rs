//! The fixture files of `fixtures/` as the tests, the Arrow crate's tests
//! and the fuzz seeder read them (one reader of the format, not a public
//! API: hidden from the docs, it may change with the files).
//!
//! A file is tab-separated lines; a line starting with `#` and a blank
//! line are comments, and so is a column starting with `#` (the interop
//! files' notes). Two escape sets: the native files (`fixtures/*.tsv`)
//! write `\t`, `\n`, `\\`, `\xNN` (the character U+00NN) and `\u{…}`
//! ([`unescape`]); the interop files (`fixtures/interop/*.tsv`) write
//! `\xNN` (the byte NN) and `\\` ([`unescape_bytes`]).

/// The data lines of a fixture file's `text`: `(line number from 1,
/// columns)`, comment lines and comment columns dropped, the columns
/// still escaped.
///
/// ```
/// use lexikey::fixture::data_lines;
/// let text = "# a comment\nstr:a\t#note\tx\n\nstr:b\ty\n";
/// assert_eq!(data_lines(text), vec![(2, vec!["str:a", "x"]), (4, vec!["str:b", "y"])]);
/// ```
pub fn data_lines(text: &str) -> Vec<(usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !is_comment_line(l))
        .map(|(i, l)| {
            (
                i + 1,
                l.split('\t').filter(|c| !c.starts_with('#')).collect(),
            )
        })
        .collect()
}

/// Whether a line is a comment (or blank).
pub fn is_comment_line(line: &str) -> bool {
    line.starts_with('#') || line.trim().is_empty()
}

/// A native fixture column unescaped: `\t`, `\n`, `\\`, `\xNN` (the
/// character U+00NN), `\u{…}`.
///
/// ```
/// assert_eq!(lexikey::fixture::unescape(r"a\tb\x41\u{e9}\\")?, "a\tbA\u{e9}\\");
/// assert!(lexikey::fixture::unescape(r"\q").is_err());
/// # Ok::<(), String>(())
/// ```
///
/// # Errors
/// An unknown escape, bad hex digits.
pub fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('\\') => out.push('\\'),
            Some('x') => {
                let h: String = it.by_ref().take(2).collect();
                let b = u8::from_str_radix(&h, 16).map_err(|e| format!("\\x{h}: {e}"))?;
                out.push(char::from(b));
            }
            Some('u') => {
                if it.next() != Some('{') {
                    return Err("\\u without {".into());
                }
                let h: String = it.by_ref().take_while(|&c| c != '}').collect();
                let c = u32::from_str_radix(&h, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| format!("bad \\u{{{h}}}"))?;
                out.push(c);
            }
            other => return Err(format!("bad escape \\{other:?}")),
        }
    }
    Ok(out)
}

/// An interop fixture column unescaped: `\xNN` (the byte NN) and `\\`;
/// the bytes must be UTF-8.
///
/// ```
/// assert_eq!(lexikey::fixture::unescape_bytes(r"\xc3\xa9\\")?, "\u{e9}\\");
/// assert!(lexikey::fixture::unescape_bytes(r"\xff").is_err());
/// # Ok::<(), String>(())
/// ```
///
/// # Errors
/// Bad hex digits, bytes that are not UTF-8.
pub fn unescape_bytes(s: &str) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') {
            let h = s.get(i + 2..i + 4).ok_or("\\x without two digits")?;
            out.push(u8::from_str_radix(h, 16).map_err(|e| format!("\\x{h}: {e}"))?);
            i += 4;
        } else if b[i] == b'\\' && b.get(i + 1) == Some(&b'\\') {
            out.push(b'\\');
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|e| e.to_string())
}
