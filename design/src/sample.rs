//! Sample rows: their keys, in insertion order, and the text of each row's
//! leading value; read from CSV or pushed one by one by a binding.

use std::io::BufRead;

use lexikey::frontend::spec::KeySpec;

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
            line.clear();
            let read = input.read_line(&mut line).map_err(|e| match e.kind() {
                std::io::ErrorKind::InvalidData => {
                    DesignError::new(format!("line {}: the input is not UTF-8", lineno + 1))
                }
                _ => DesignError::new(format!("reading the sample: {e}")),
            })?;
            if read == 0 {
                break;
            }
            lineno += 1;
            let start_line = lineno;
            record.clear();
            cells.clear();
            // A quoted field may hold newlines: read lines until it closes.
            loop {
                let body = line.strip_suffix('\n').unwrap_or(&line);
                let body = body.strip_suffix('\r').unwrap_or(body);
                record.push_str(body);
                if quotes_balanced(&record) {
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
            key.clear();
            enc.encode_texts(&texts, &mut key).map_err(|e| {
                DesignError::new(match e.index {
                    Some(_) => format!("line {start_line}, {e}"),
                    None => format!("line {start_line}: {e}"),
                })
            })?;
            sample.push(&key, texts.first().copied().unwrap_or(""));
        }
        Ok(sample)
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
