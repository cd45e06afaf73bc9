//! [`ArrowKeyError`]: what went wrong, and where.

use std::fmt;

/// Why a batch could not be encoded or a key array decoded: the column,
/// the row and the value at fault where they are known, and what is wrong.
///
/// `Display` gives one readable line:
/// `column "n", row 7, value 18446744073709551615: 18446744073709551615 is out of range for i64`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrowKeyError {
    /// The column at fault: its field's name (unnamed columns, as
    /// [`crate::encode_arrays`] takes them, are `c0`, `c1`, …: the names
    /// [`crate::default_name`] gives).
    pub column: Option<String>,
    /// The row at fault, zero-based (in an [`crate::ArrowEncoder`], counted
    /// from the first row of the first batch).
    pub row: Option<usize>,
    /// The value at fault as text: a string quoted, bytes and keys as hex,
    /// an instant in RFC 3339, `null`.
    pub value: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl ArrowKeyError {
    /// An error of the whole input (no column, row or value).
    pub(crate) fn new(message: impl Into<String>) -> ArrowKeyError {
        ArrowKeyError {
            column: None,
            row: None,
            value: None,
            message: message.into(),
        }
    }

    /// An error of a column (its type, its length).
    pub(crate) fn column(column: impl Into<String>, message: impl Into<String>) -> ArrowKeyError {
        ArrowKeyError {
            column: Some(column.into()),
            ..ArrowKeyError::new(message)
        }
    }
}

impl fmt::Display for ArrowKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut part = |f: &mut fmt::Formatter<'_>, args: fmt::Arguments<'_>| {
            let sep = if first { "" } else { ", " };
            first = false;
            write!(f, "{sep}{args}")
        };
        if let Some(c) = &self.column {
            part(f, format_args!("column {c:?}"))?;
        }
        if let Some(r) = self.row {
            part(f, format_args!("row {r}"))?;
        }
        if let Some(v) = &self.value {
            part(f, format_args!("value {v}"))?;
        }
        if first {
            f.write_str(&self.message)
        } else {
            write!(f, ": {}", self.message)
        }
    }
}

impl std::error::Error for ArrowKeyError {}
