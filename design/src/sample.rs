//! Sample rows: their keys, in insertion order, and the text of each row's
//! leading value; read from CSV or pushed one by one by a binding.

use std::io::BufRead;

use lexikey::frontend::spec::{KeySpec, RowEncoder};

use crate::DesignError;

/// The keys of sample rows in insertion order (the order they were
/// pushed), each with the text of its leading value (the first column,
/// which names the row's prefix in the skew report and in Phoenix's
/// `SPLIT ON`). Keys and texts live in two flat buffers: pushing a row
/// allocates nothing once the buffers have grown.
///
/// ```
/// use lexikey::frontend::key_format::KeyFormat;
/// use lexikey::frontend::spec::KeySpec;
/// use lexikey_design::Sample;
/// let spec = KeySpec::new(KeyFormat::parse("hex")?).with_schema("str,i64")?;
/// let s = Sample::from_csv(&spec, &b"population,3831868\n\"New York\",8804190\n"[..])?;
/// assert_eq!(s.len(), 2);
/// assert_eq!(s.key(0), b"population#l80000000003A783C");
/// assert_eq!(s.leading(1), "New York");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Sample {
    keys: Vec<u8>,
    key_ends: Vec<usize>,
    leads: String,
    lead_ends: Vec<usize>,
}

impl Sample {
    /// An empty sample.
    pub fn new() -> Sample {
        Sample::default()
    }

    /// Appends a row: its key (as the layout writes it, salted when the
    /// layout is) and the text of its leading value.
    pub fn push(&mut self, key: &[u8], leading: &str) {
        self.keys.extend_from_slice(key);
        self.key_ends.push(self.keys.len());
        self.leads.push_str(leading);
        self.lead_ends.push(self.leads.len());
    }

    /// Appends a row by its key alone (as the layout writes it, salted
    /// when the layout is): its leading value's text is the key's first
    /// value decoded, in the field's text syntax (what a CSV cell holds).
    /// For front ends that make keys in bulk (an Arrow table's) and have no
    /// row text at hand.
    ///
    /// ```
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::frontend::spec::KeySpec;
    /// use lexikey_design::Sample;
    /// let spec = KeySpec::new(KeyFormat::parse("hex")?).with_schema("str,i64")?;
    /// let mut s = Sample::new();
    /// s.push_key(&spec, b"population#l80000000003A783C")?;
    /// assert_eq!(s.leading(0), "population");
    /// assert!(s.push_key(&spec, b"population#x").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A key the layout does not decode (naming the byte offset); the
    /// sample is as it was.
    pub fn push_key(&mut self, spec: &KeySpec, key: &[u8]) -> Result<(), DesignError> {
        let values = spec.decode(key).map_err(|e| {
            DesignError::new(format!(
                "key {} does not decode: {e}",
                lexikey::show_key(key)
            ))
        })?;
        let texts = values.component_texts();
        let first = texts
            .first()
            .map_or("", |t| t.split_once(':').map_or(t.as_str(), |(_, v)| v));
        self.push(key, first);
        Ok(())
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.key_ends.len()
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.key_ends.is_empty()
    }

    /// The key of row `i` (zero-based, insertion order).
    ///
    /// # Panics
    /// If `i >= len()`.
    pub fn key(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.key_ends[i - 1] };
        &self.keys[start..self.key_ends[i]]
    }

    /// The leading value's text of row `i`.
    ///
    /// # Panics
    /// If `i >= len()`.
    pub fn leading(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.lead_ends[i - 1] };
        &self.leads[start..self.lead_ends[i]]
    }

    /// Reads CSV rows (RFC 4180: fields separated by `,`, optionally in
    /// double quotes with `""` for a quote; records end at `\n` or `\r\n`;
    /// no header line; blank lines are skipped), one column per schema
    /// field in the field's text syntax (what `lexikey encode --stdin`
    /// takes), in insertion order, and encodes each with `spec` (which
    /// needs a schema).
    ///
    /// # Errors
    /// Input that is not UTF-8, an unterminated quote, a row of another
    /// width than the schema or a value that does not parse: one line
    /// naming the line number. No sample is returned then.
    pub fn from_csv(spec: &KeySpec, mut input: impl BufRead) -> Result<Sample, DesignError> {
        let mut enc = spec
            .encoder()
            .map_err(|e| DesignError::new(e.to_string()))?;
        let mut sample = Sample::new();
        let mut record = String::new();
        let mut cells: Vec<(usize, usize)> = Vec::new();
        let mut line = String::new();
        let mut lineno = 0usize;
        let mut key = Vec::new();
        loop {
            if !next_line(&mut input, &mut line, lineno)? {
                break;
            }
            lineno += 1;
            let start_line = lineno;
            record.clear();
            cells.clear();
            // A quoted field may hold newlines: read lines until it closes.
            // Only the record's own line break is `\n` or `\r\n`; inside
            // quotes a `\r\n` is the field's (RFC 4180), so a `\r` is
            // dropped only once the quotes balance.
            loop {
                record.push_str(line.strip_suffix('\n').unwrap_or(&line));
                if quotes_balanced(&record) {
                    if record.ends_with('\r') {
                        record.pop();
                    }
                    break;
                }
                record.push('\n');
                line.clear();
                let more = input
                    .read_line(&mut line)
                    .map_err(|e| DesignError::new(format!("line {}: {e}", lineno + 1)))?;
                if more == 0 {
                    return Err(DesignError::new(format!(
                        "line {start_line}: a quoted field is not closed before the end of the input"
                    )));
                }
                lineno += 1;
            }
            if record.is_empty() {
                continue;
            }
            let unquoted = split_record(&record, &mut cells)
                .map_err(|m| DesignError::new(format!("line {start_line}: {m}")))?;
            let texts: Vec<&str> = cells.iter().map(|&(a, b)| &unquoted[a..b]).collect();
            sample.push_texts(&mut enc, &mut key, &texts, start_line)?;
        }
        Ok(sample)
    }

    /// Reads JSON lines: one row a line, a JSON array of one value per
    /// schema field in the schema's order (`["events", 1700000000]`), in
    /// insertion order; blank lines are skipped. A string is the field's
    /// value in its text syntax (what a CSV cell holds: `"2024-05-01T10:00:00Z"`
    /// for a timestamp), a number stands for its literal as written (so
    /// `12345678901234567890` stays exact), `true` and `false` for
    /// themselves. The same rows as CSV ([`Sample::from_csv`]) give the
    /// same sample. A schema's fields have no names, so an object is
    /// refused, as are `null` (the text syntax has no null) and nested
    /// arrays.
    ///
    /// ```
    /// use lexikey::frontend::key_format::KeyFormat;
    /// use lexikey::frontend::spec::KeySpec;
    /// use lexikey_design::Sample;
    /// let spec = KeySpec::new(KeyFormat::parse("hex")?).with_schema("str,i64")?;
    /// let s = Sample::from_jsonl(&spec, &b"[\"population\", 3831868]\n[\"New York\",8804190]\n"[..])?;
    /// assert_eq!(s.key(0), b"population#l80000000003A783C");
    /// assert_eq!(s.leading(1), "New York");
    /// let err = Sample::from_jsonl(&spec, &b"{\"city\": \"Paris\"}\n"[..]).unwrap_err();
    /// assert!(err.to_string().starts_with("line 1, column 1: a JSON object"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Input that is not UTF-8, a line that is not an array of strings,
    /// numbers and booleans (naming the line and the column), a row of
    /// another width than the schema or a value that does not parse
    /// (naming the line and the value). No sample is returned then.
    pub fn from_jsonl(spec: &KeySpec, mut input: impl BufRead) -> Result<Sample, DesignError> {
        let mut enc = spec
            .encoder()
            .map_err(|e| DesignError::new(e.to_string()))?;
        let mut sample = Sample::new();
        let mut line = String::new();
        let mut text = String::new();
        let mut cells: Vec<(usize, usize)> = Vec::new();
        let mut key = Vec::new();
        let mut lineno = 0usize;
        loop {
            if !next_line(&mut input, &mut line, lineno)? {
                break;
            }
            lineno += 1;
            if line.trim().is_empty() {
                continue;
            }
            json_row(&line, &mut text, &mut cells).map_err(|(at, m)| {
                DesignError::new(format!("line {lineno}, column {}: {m}", at + 1))
            })?;
            let texts: Vec<&str> = cells.iter().map(|&(a, b)| &text[a..b]).collect();
            sample.push_texts(&mut enc, &mut key, &texts, lineno)?;
        }
        Ok(sample)
    }

    /// Encodes a row given as its values' texts (read at line `lineno`)
    /// into `key` and appends it.
    fn push_texts(
        &mut self,
        enc: &mut RowEncoder<'_>,
        key: &mut Vec<u8>,
        texts: &[&str],
        lineno: usize,
    ) -> Result<(), DesignError> {
        key.clear();
        enc.encode_texts(texts, key).map_err(|e| {
            DesignError::new(match e.index {
                Some(_) => format!("line {lineno}, {e}"),
                None => format!("line {lineno}: {e}"),
            })
        })?;
        self.push(key, texts.first().copied().unwrap_or(""));
        Ok(())
    }

    /// Reads a sample written as `format` ([`Sample::from_csv`] or
    /// [`Sample::from_jsonl`]).
    ///
    /// # Errors
    /// As the reader of `format`.
    pub fn read(
        spec: &KeySpec,
        format: InputFormat,
        input: impl BufRead,
    ) -> Result<Sample, DesignError> {
        match format {
            InputFormat::Csv => Sample::from_csv(spec, input),
            InputFormat::JsonLines => Sample::from_jsonl(spec, input),
        }
    }
}

/// Reads one JSON line, an array of scalars, into `text` (each value's
/// text, one after the other) and `cells` (each value's span in it). On
/// error: the byte offset in the line and the message.
fn json_row(
    line: &str,
    text: &mut String,
    cells: &mut Vec<(usize, usize)>,
) -> Result<(), (usize, String)> {
    text.clear();
    cells.clear();
    let b = line.as_bytes();
    let skip = |mut i: usize| {
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
        }
        i
    };
    let mut i = skip(0);
    match b.get(i) {
        Some(b'[') => i += 1,
        Some(b'{') => {
            return Err((
                i,
                "a JSON object: a schema's fields have no names; write each row as an array \
                 of values in the schema's order"
                    .into(),
            ))
        }
        _ => return Err((i, "expected a JSON array of the row's values".into())),
    }
    i = skip(i);
    if b.get(i) == Some(&b']') {
        i += 1;
    } else {
        loop {
            let start = text.len();
            i = json_value(line, i, text)?;
            cells.push((start, text.len()));
            i = skip(i);
            match b.get(i) {
                Some(b',') => i = skip(i + 1),
                Some(b']') => {
                    i += 1;
                    break;
                }
                _ => return Err((i, "expected ',' or ']' after a value".into())),
            }
        }
    }
    i = skip(i);
    if i < b.len() {
        return Err((i, "text after the row's closing ']'".into()));
    }
    Ok(())
}

/// Reads the JSON value at `i` of `line` (a string, a number, `true` or
/// `false`), appending its text to `out`; returns the offset after it.
fn json_value(line: &str, i: usize, out: &mut String) -> Result<usize, (usize, String)> {
    let b = line.as_bytes();
    match b.get(i) {
        Some(b'"') => json_string(line, i, out),
        Some(b'-' | b'0'..=b'9') => {
            let end = json_number(b, i).ok_or((i, "an invalid JSON number".to_string()))?;
            out.push_str(&line[i..end]);
            Ok(end)
        }
        Some(b't') if b[i..].starts_with(b"true") => {
            out.push_str("true");
            Ok(i + 4)
        }
        Some(b'f') if b[i..].starts_with(b"false") => {
            out.push_str("false");
            Ok(i + 5)
        }
        Some(b'n') if b[i..].starts_with(b"null") => Err((
            i,
            "null: every field takes a value (the text syntax has no null)".into(),
        )),
        Some(b'[' | b'{') => Err((
            i,
            "a nested array or object: each value is a string, a number or a boolean".into(),
        )),
        _ => Err((
            i,
            "expected a value (a string, a number or a boolean)".into(),
        )),
    }
}

/// The end of the JSON number at `i`, if one is there (RFC 8259's
/// grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`).
fn json_number(b: &[u8], mut i: usize) -> Option<usize> {
    let digits = |mut i: usize| {
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i > start).then_some(i)
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    i = match b.get(i) {
        Some(b'0') => i + 1,
        Some(b'1'..=b'9') => digits(i)?,
        _ => return None,
    };
    if b.get(i) == Some(&b'.') {
        i = digits(i + 1)?;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(i)?;
    }
    // A number runs up to a delimiter.
    match b.get(i) {
        None | Some(b',' | b']' | b' ' | b'\t' | b'\r' | b'\n') => Some(i),
        _ => None,
    }
}

/// Reads the JSON string at `i` (its opening quote), appending the text
/// it stands for to `out`; returns the offset after its closing quote.
fn json_string(line: &str, i: usize, out: &mut String) -> Result<usize, (usize, String)> {
    let b = line.as_bytes();
    let mut j = i + 1;
    let mut run = j; // the start of the run of plain characters
    loop {
        match b.get(j) {
            None | Some(b'\n') => return Err((i, "a string not closed on its line".into())),
            Some(b'"') => {
                out.push_str(&line[run..j]);
                return Ok(j + 1);
            }
            Some(b'\\') => {
                out.push_str(&line[run..j]);
                let c = match b.get(j + 1) {
                    Some(b'"') => '"',
                    Some(b'\\') => '\\',
                    Some(b'/') => '/',
                    Some(b'b') => '\u{8}',
                    Some(b'f') => '\u{c}',
                    Some(b'n') => '\n',
                    Some(b'r') => '\r',
                    Some(b't') => '\t',
                    Some(b'u') => {
                        let (c, next) = json_unicode(b, j)?;
                        out.push(c);
                        j = next;
                        run = j;
                        continue;
                    }
                    _ => return Err((j, "an invalid escape in a string".into())),
                };
                out.push(c);
                j += 2;
                run = j;
            }
            Some(&c) if c < 0x20 => {
                return Err((j, "a control character in a string (escape it)".into()))
            }
            Some(_) => j += 1,
        }
    }
}

/// The character of the `\uXXXX` escape at `j` (a surrogate pair takes
/// two escapes) and the offset after it.
fn json_unicode(b: &[u8], j: usize) -> Result<(char, usize), (usize, String)> {
    let hex4 = |at: usize| -> Option<u32> {
        let h = b.get(at..at + 4)?;
        let s = std::str::from_utf8(h).ok()?;
        if !s.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(s, 16).ok()
    };
    let bad = |m: &str| (j, m.to_string());
    let hi = hex4(j + 2).ok_or_else(|| bad("an invalid \\u escape: expected 4 hex digits"))?;
    match hi {
        0xD800..=0xDBFF => {
            let lo = (b.get(j + 6..j + 8) == Some(b"\\u"))
                .then(|| hex4(j + 8))
                .flatten()
                .filter(|lo| (0xDC00..=0xDFFF).contains(lo))
                .ok_or_else(|| bad("a lone surrogate in a \\u escape"))?;
            let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
            Ok((
                char::from_u32(c).ok_or_else(|| bad("an invalid \\u escape"))?,
                j + 12,
            ))
        }
        0xDC00..=0xDFFF => Err(bad("a lone surrogate in a \\u escape")),
        c => Ok((
            char::from_u32(c).ok_or_else(|| bad("an invalid \\u escape"))?,
            j + 6,
        )),
    }
}

/// Reads the next line of a sample into `line` (emptied first), the line
/// after line `lineno`; false at the end of the input.
fn next_line(
    input: &mut impl BufRead,
    line: &mut String,
    lineno: usize,
) -> Result<bool, DesignError> {
    line.clear();
    let read = input.read_line(line).map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => {
            DesignError::new(format!("line {}: the input is not UTF-8", lineno + 1))
        }
        _ => DesignError::new(format!("reading the sample: {e}")),
    })?;
    Ok(read > 0)
}

/// How a sample file is written: CSV or JSON lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// CSV ([`Sample::from_csv`]).
    Csv,
    /// JSON lines ([`Sample::from_jsonl`]).
    JsonLines,
}

impl InputFormat {
    /// The names `--input` takes.
    pub const NAMES: [&'static str; 2] = ["csv", "jsonl"];

    /// `csv` or `jsonl` (also `ndjson`).
    pub fn from_name(name: &str) -> Option<InputFormat> {
        match name {
            "csv" => Some(InputFormat::Csv),
            "jsonl" | "ndjson" => Some(InputFormat::JsonLines),
            _ => None,
        }
    }

    /// The format a file's name says: JSON lines for a name ending in
    /// `.jsonl` or `.ndjson` (any case), CSV otherwise (standard input
    /// included). The content is never sniffed: a CSV row may begin with
    /// `[` as a JSON array does.
    pub fn from_path(path: &std::path::Path) -> InputFormat {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext.eq_ignore_ascii_case("jsonl") || ext.eq_ignore_ascii_case("ndjson") {
            InputFormat::JsonLines
        } else {
            InputFormat::Csv
        }
    }
}

/// Whether every quote of a record so far is closed.
fn quotes_balanced(s: &str) -> bool {
    s.bytes().filter(|&b| b == b'"').count() % 2 == 0
}

/// Splits a CSV record into fields: returns the unquoted text and each
/// field's span in it.
fn split_record(rec: &str, cells: &mut Vec<(usize, usize)>) -> Result<String, String> {
    let mut out = String::with_capacity(rec.len());
    let mut chars = rec.char_indices().peekable();
    loop {
        let start = out.len();
        if chars.peek().map(|&(_, c)| c) == Some('"') {
            let (at, _) = chars.next().unwrap_or((0, '"'));
            loop {
                match chars.next() {
                    Some((_, '"')) => {
                        if chars.peek().map(|&(_, c)| c) == Some('"') {
                            chars.next();
                            out.push('"');
                        } else {
                            break;
                        }
                    }
                    Some((_, c)) => out.push(c),
                    None => return Err(format!("the quote at column {} is not closed", at + 1)),
                }
            }
            cells.push((start, out.len()));
            match chars.next() {
                None => return Ok(out),
                Some((_, ',')) => {}
                Some((i, c)) => {
                    return Err(format!(
                    "{c:?} after a closing quote at column {} (expected ',' or the end of the row)",
                    i + 1
                ))
                }
            }
        } else {
            loop {
                match chars.next() {
                    None => {
                        cells.push((start, out.len()));
                        return Ok(out);
                    }
                    Some((_, ',')) => break,
                    Some((i, '"')) => {
                        return Err(format!(
                            "a quote inside an unquoted field at column {} (quote the whole field and double the quote)",
                            i + 1
                        ))
                    }
                    Some((_, c)) => out.push(c),
                }
            }
            cells.push((start, out.len()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Result<Vec<String>, String> {
        let mut cells = Vec::new();
        let out = split_record(s, &mut cells)?;
        Ok(cells.iter().map(|&(a, b)| out[a..b].to_string()).collect())
    }

    fn json(s: &str) -> Result<Vec<String>, (usize, String)> {
        let (mut text, mut cells) = (String::new(), Vec::new());
        json_row(s, &mut text, &mut cells)?;
        Ok(cells.iter().map(|&(a, b)| text[a..b].to_string()).collect())
    }

    #[test]
    fn json_rows() {
        assert_eq!(
            json(" [ \"a\" , -1.5e3,true,false ] \n").unwrap(),
            ["a", "-1.5e3", "true", "false"]
        );
        assert_eq!(json("[]").unwrap(), Vec::<String>::new());
        assert_eq!(
            json(r#"["q\"\\\/\b\f\n\r\t", "\u00e9\ud83d\ude00", "é😀"]"#).unwrap(),
            ["q\"\\/\u{8}\u{c}\n\r\t", "é😀", "é😀"]
        );
        assert_eq!(
            json("[12345678901234567890]").unwrap(),
            ["12345678901234567890"]
        );
        for (bad, at, what) in [
            ("{\"a\":1}", 0, "a JSON object"),
            ("1", 0, "expected a JSON array"),
            ("[1,]", 3, "expected a value"),
            ("[1 2]", 3, "expected ','"),
            ("[01]", 1, "invalid JSON number"),
            ("[1.]", 1, "invalid JSON number"),
            ("[-]", 1, "invalid JSON number"),
            ("[1e]", 1, "invalid JSON number"),
            ("[1x]", 1, "invalid JSON number"),
            ("[null]", 1, "null"),
            ("[[1]]", 1, "nested"),
            ("[\"a]", 1, "not closed"),
            ("[\"\\x\"]", 2, "invalid escape"),
            ("[\"\\ud800\"]", 2, "lone surrogate"),
            ("[\"\\udc00\"]", 2, "lone surrogate"),
            ("[\"\\u12g4\"]", 2, "4 hex digits"),
            ("[\"a\tb\"]", 3, "control character"),
            ("[1] x", 4, "after the row"),
            ("[1", 2, "expected ','"),
        ] {
            let (got_at, msg) = json(bad).unwrap_err();
            assert_eq!(got_at, at, "{bad}: {msg}");
            assert!(msg.contains(what), "{bad}: {msg}");
        }
    }

    /// A `\r\n` inside a quoted field is the field's; the record's own
    /// line break may be `\n` or `\r\n`. (Found by the CLI's CSV/JSON
    /// lines property: the `\r` of a quoted `\r\n` was dropped.)
    #[test]
    fn csv_crlf_inside_quotes_is_kept() {
        let spec = KeySpec::new(lexikey::frontend::key_format::KeyFormat::parse("hex").unwrap())
            .with_schema("i64,str")
            .unwrap();
        let csv = Sample::from_csv(&spec, &b"1,\"a\r\nb\r\"\r\n2,\"\r\n\"\n3,c\r\n"[..]).unwrap();
        let jsonl = Sample::from_jsonl(
            &spec,
            &b"[1, \"a\\r\\nb\\r\"]\r\n[2, \"\\r\\n\"]\n[3, \"c\"]\n"[..],
        )
        .unwrap();
        assert_eq!(csv.len(), 3);
        for i in 0..3 {
            assert_eq!(csv.key(i), jsonl.key(i), "row {i}");
        }
    }

    #[test]
    fn input_format_from_path() {
        use std::path::Path;
        for (p, f) in [
            ("rows.jsonl", InputFormat::JsonLines),
            ("a/rows.NDJSON", InputFormat::JsonLines),
            ("rows.csv", InputFormat::Csv),
            ("rows.json", InputFormat::Csv),
            ("-", InputFormat::Csv),
            ("jsonl", InputFormat::Csv),
        ] {
            assert_eq!(InputFormat::from_path(Path::new(p)), f, "{p}");
        }
    }

    #[test]
    fn csv_fields() {
        assert_eq!(split("a,b").unwrap(), ["a", "b"]);
        assert_eq!(
            split("\"a,b\",\"say \"\"hi\"\"\",").unwrap(),
            ["a,b", "say \"hi\"", ""]
        );
        assert_eq!(split("\"x\ny\"").unwrap(), ["x\ny"]);
        assert!(split("\"a\"b")
            .unwrap_err()
            .contains("after a closing quote"));
        assert!(split("a\"b")
            .unwrap_err()
            .contains("inside an unquoted field"));
    }
}
