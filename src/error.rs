//! Error types: one enum per direction.
//!
//! Every [`DecodeError`] carries the byte offset into the input where the
//! problem was found, so a corrupt key read back from a store can be located.

use crate::value::Type;

/// Why a key could not be decoded. Every variant carries `offset`: the index
/// of the first byte of the input that is wrong (or, for
/// [`DecodeError::Truncated`], the length of the input).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// A byte that may not appear at this position.
    #[error("invalid byte {} at byte {offset}: expected {expected}", show_byte(*.found))]
    InvalidSymbol {
        /// Offset of the byte.
        offset: usize,
        /// The byte found.
        found: u8,
        /// What was allowed there.
        expected: &'static str,
    },
    /// A type tag that is unknown or does not match the schema.
    #[error("unexpected tag {} at byte {offset}: expected {expected}", show_byte(*.found))]
    UnexpectedTag {
        /// Offset of the tag.
        offset: usize,
        /// The tag found.
        found: u8,
        /// The tag(s) allowed there.
        expected: &'static str,
    },
    /// The input ended before the component was complete.
    #[error("unexpected end of input at byte {offset}: expected {expected}")]
    Truncated {
        /// The length of the input (where more bytes were needed).
        offset: usize,
        /// What was still expected.
        expected: &'static str,
    },
    /// The bytes parse, but the encoder could never have produced them
    /// (for example an escape for a byte that needs none, or `-0`).
    #[error("non-canonical encoding at byte {offset}: {reason}")]
    NonCanonical {
        /// Offset of the first byte of the non-canonical part.
        offset: usize,
        /// Why it is not canonical.
        reason: &'static str,
    },
    /// The key holds more components, or more bytes, than the schema allows.
    #[error("trailing bytes at byte {offset}")]
    TrailingBytes {
        /// Offset of the first byte that is left over.
        offset: usize,
    },
    /// A text key or a string component is not valid UTF-8.
    #[error("invalid UTF-8 at byte {offset}")]
    InvalidUtf8 {
        /// Offset of the first byte of the invalid sequence.
        offset: usize,
    },
    /// A number that does not fit the type.
    #[error("value out of range for {ty} at byte {offset}")]
    OutOfRange {
        /// Offset of the first byte of the component.
        offset: usize,
        /// The type it had to fit.
        ty: Type,
    },
    /// The format cannot tell a component's type by itself: a schema is needed.
    #[error("a schema is needed to decode this format (component at byte {offset})")]
    SchemaRequired {
        /// Offset of the component that needs a type.
        offset: usize,
    },
    /// The key has fewer components than the schema lists.
    #[error("missing component {index} at byte {offset}: the schema lists more components than the key holds")]
    MissingComponent {
        /// The key length.
        offset: usize,
        /// Zero-based index of the missing component.
        index: usize,
    },
}

impl DecodeError {
    /// The byte offset this error points at.
    pub fn offset(&self) -> usize {
        match *self {
            DecodeError::InvalidSymbol { offset, .. }
            | DecodeError::UnexpectedTag { offset, .. }
            | DecodeError::Truncated { offset, .. }
            | DecodeError::NonCanonical { offset, .. }
            | DecodeError::TrailingBytes { offset }
            | DecodeError::InvalidUtf8 { offset }
            | DecodeError::OutOfRange { offset, .. }
            | DecodeError::SchemaRequired { offset }
            | DecodeError::MissingComponent { offset, .. } => offset,
        }
    }

    /// The same error pointing at `offset` instead.
    pub(crate) fn with_offset(mut self, new: usize) -> Self {
        match &mut self {
            DecodeError::InvalidSymbol { offset, .. }
            | DecodeError::UnexpectedTag { offset, .. }
            | DecodeError::Truncated { offset, .. }
            | DecodeError::NonCanonical { offset, .. }
            | DecodeError::TrailingBytes { offset }
            | DecodeError::InvalidUtf8 { offset }
            | DecodeError::OutOfRange { offset, .. }
            | DecodeError::SchemaRequired { offset }
            | DecodeError::MissingComponent { offset, .. } => *offset = new,
        }
        self
    }

    /// The same error with its offset moved by `base` (used when a component
    /// decoder works on a slice of a larger key, or a salted key's rest is
    /// decoded after its salt).
    ///
    /// ```
    /// use lexikey::DecodeError;
    /// let e = DecodeError::TrailingBytes { offset: 2 };
    /// assert_eq!(e.shift(3).offset(), 5);
    /// ```
    #[must_use]
    pub fn shift(self, base: usize) -> Self {
        let at = self.offset();
        self.with_offset(at + base)
    }
}

/// Shows a byte as a readable character when it is printable ASCII, else as hex.
fn show_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}' (0x{b:02X})", b as char)
    } else {
        format!("0x{b:02X}")
    }
}

/// The component of a key over the length limit that contributes most
/// to it ([`EncodeError::KeyTooLong`]): the one to shorten.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPart {
    /// Its place in the key, zero-based.
    pub index: usize,
    /// How the caller names it: its type as the schema writes it (`str`),
    /// or the component as given (`component 2 (str:abc…)`).
    pub label: String,
    /// Its encoded size in bytes (with its separator or terminator).
    pub size: usize,
}

impl KeyPart {
    /// `: component N (LABEL) is S bytes of it, the most: shorten it`, or
    /// nothing.
    fn show(part: &Option<Box<KeyPart>>) -> String {
        match part {
            None => String::new(),
            Some(p) if p.label.starts_with("component ") => format!(
                "; {} is {} bytes of it, the most: shorten it",
                p.label, p.size
            ),
            Some(p) => format!(
                "; component {} ({}) is {} bytes of it, the most: shorten it",
                p.index + 1,
                p.label,
                p.size
            ),
        }
    }
}

/// Why a value could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The value needs more digits than the fixed width allows
    /// (never silently truncated).
    #[error("value {value} does not fit in {width} decimal digits")]
    WidthOverflow {
        /// The value, as text.
        value: String,
        /// The width asked for.
        width: u8,
    },
    /// A width outside what the type can use.
    #[error("width {width} is not valid for {ty} (allowed: {min} to {max})")]
    BadWidth {
        /// The type.
        ty: Type,
        /// The width asked for.
        width: u8,
        /// Smallest allowed width.
        min: u8,
        /// Largest allowed width.
        max: u8,
    },
    /// The format cannot encode this type.
    #[error("the {format} format cannot encode {ty} values{hint}")]
    Unsupported {
        /// The type.
        ty: Type,
        /// The format's name.
        format: &'static str,
        /// A hint on what to use instead (starts with `: ` when present).
        hint: &'static str,
    },
    /// The key is longer than the limit the target store accepts (see
    /// [`crate::tuple::check_len`]).
    #[error(
        "key of {len} bytes is longer than the limit of {max} bytes{}",
        KeyPart::show(largest)
    )]
    KeyTooLong {
        /// The key's length.
        len: usize,
        /// The limit.
        max: usize,
        /// The component that contributes most, the one to shorten, when
        /// the encoder knows the components (`None` for a bare key).
        largest: Option<Box<KeyPart>>,
    },
    /// A null ([`crate::Value::Null`]) in a component that is not nullable.
    #[error("a null in a non-nullable {ty} component (a nullable one is written {ty}?)")]
    NotNullable {
        /// The component's type.
        ty: Type,
    },
    /// A list component whose value does not fit its field: an element of
    /// another type, a null element, a scalar in a `list<…>` component or
    /// a list in a scalar one, or lists nested deeper than
    /// [`crate::value::MAX_LIST_DEPTH`] (see [`crate::format::list`]).
    #[error("bad list component: {detail}")]
    BadList {
        /// What is wrong, and where.
        detail: String,
    },
    /// A reverse number asked for a negative input (`i64::MAX - n` overflows).
    #[error("reverse number needs 0 <= n <= {max}, got {n}", max = i64::MAX)]
    ReverseOutOfRange {
        /// The input.
        n: i64,
    },
}
