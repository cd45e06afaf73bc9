//! Values as people write them: `TYPE[.desc]:VALUE` components, RFC 3339
//! timestamps, hyphenated UUIDs, hex bytes — and back.
//!
//! | type | input | output |
//! |---|---|---|
//! | `str` | the text, verbatim | the text |
//! | `i64` `u64` `i32` `u32` | decimal, optional leading `-` (signed) | decimal |
//! | `f64` `f32` | Rust float syntax, also `NaN`, `inf`, `-inf` | shortest round-trip form (`1.0`, `-0.0`, `NaN`) |
//! | `bool` | `true` / `false` | `true` / `false` |
//! | `bytes` | hex (either case), even length | lowercase hex |
//! | `ts` | RFC 3339 (`2024-05-01T12:00:00Z`, `…+02:00`, up to 3 fraction digits) or integer milliseconds | RFC 3339 UTC with milliseconds |
//! | `uuid` | hyphenated, either case | hyphenated lowercase |
//! | `dec` | decimal notation of any size: `-12.50`, `.5`, `1e-40` ([`Dec::parse`](crate::value::big_decimal::Dec::parse)) | plain notation, trailing zeros dropped: `-12.5`, `0.5`, `0.0…01` |
//! | `list<T>` | `[` the elements as `T`'s values, separated by `,` `]` (see [`parse_list`]) | `[1, 2]`, `[a\\,b, c]`, `[[1], []]` |

use std::borrow::Cow;
use std::fmt::Write;

use crate::value::{Component, Field, ParseError, Type, Value};

/// Parses a `TYPE[.desc]:VALUE` component; everything after the first `:`
/// is the value, verbatim. A nullable type with no `:` (`i64?`,
/// `str?.desc.nulls_last`) is that component's null.
///
/// ```
/// use lexikey::{value::literal::parse_component, Component, Type, Value};
/// assert_eq!(parse_component("i64:3831868")?, Component::asc(3831868_i64));
/// assert_eq!(parse_component("str.desc:a:b")?, Component::desc("a:b"));
/// assert_eq!(parse_component("i64?")?.value, Value::Null(Type::I64));
/// assert_eq!(parse_component("i64?:5")?.value, Value::I64(5));
/// # Ok::<(), lexikey::ParseError>(())
/// ```
pub fn parse_component(s: &str) -> Result<Component<'static>, ParseError> {
    let Some((spec, text)) = s.split_once(':') else {
        if let Some(field) = null_spec(s) {
            return Ok(Component::of(field, Value::Null(field.ty)));
        }
        return Err(ParseError::new(format!(
            "component {s:?} has no ':': expected TYPE[.desc]:VALUE, e.g. i64:42 or str:usa"
        )));
    };
    let field = Field::parse(spec)?;
    let value = parse_field_value(field, text)?;
    Ok(Component {
        value,
        dir: field.dir,
        width: field.width,
        nulls: field.nulls,
        list: field.list,
    })
}

/// The nullable field a component text with no `:` names, when it names
/// one (`i64?`, `ts?.desc.nulls_last`): the spelling of that field's null.
pub fn null_spec(s: &str) -> Option<Field> {
    let base = s.split('.').next()?;
    if !base.ends_with('?') {
        return None;
    }
    Field::parse(s).ok().filter(|f| f.nulls.is_some())
}

/// Parses the text of a value of `field`'s type: a scalar as
/// [`parse_value`], a list (`field.list` ≥ 1) as [`parse_list`].
///
/// # Errors
/// Text that is not a value of the type.
pub fn parse_field_value(field: Field, text: &str) -> Result<Value<'static>, ParseError> {
    if field.list == 0 {
        parse_value(field.ty, text)
    } else {
        parse_list(field.ty, field.list, text)
    }
}

/// Parses the text of a list of `depth` levels (1: `list<ty>`) over
/// scalar type `ty`: `[` the elements, separated by `,` `]`, each written
/// as a value of `ty` is (`list<i64>:[1,2,3]`) or, nested, as a list
/// (`list<list<i64>>:[[1, 2], []]`). Inside the brackets `\\`, `\,`, `\[`
/// and `\]` stand for `\`, `,`, `[` and `]` (as in `fdb-tuple`'s
/// `nested:[…]`: `list<str>:[a\,b, c]` is `["a,b", "c"]`); one space
/// right after a comma belongs to the separator; `[]` is the empty list,
/// and a `,` just before the `]` ends the last element without starting
/// another, so `[,]` is a list of one empty string. [`write_value`]
/// writes lists this way (elements separated by `, `, a `,` before the
/// `]` when the last element's text is empty), so they read back.
///
/// ```
/// use lexikey::value::literal::parse_list;
/// use lexikey::{Type, Value};
/// let v = parse_list(Type::Str, 1, r"[a\,b, c]")?;
/// assert_eq!(v, Value::list(Type::Str, vec!["a,b".into(), "c".into()]));
/// let v = parse_list(Type::I64, 2, "[[1, 2], []]")?;
/// let one_two = Value::list(Type::I64, vec![Value::I64(1), Value::I64(2)]);
/// assert_eq!(v, Value::list(Type::I64, vec![one_two, Value::list(Type::I64, vec![])]));
/// assert_eq!(parse_list(Type::Str, 1, "[,]")?, Value::list(Type::Str, vec!["".into()]));
/// # Ok::<(), lexikey::ParseError>(())
/// ```
///
/// # Errors
/// Missing brackets, an unescaped `]` or unclosed `[`, an unknown escape,
/// an element that is not a value of `ty`.
pub fn parse_list(ty: Type, depth: u8, text: &str) -> Result<Value<'static>, ParseError> {
    let mut name = String::new();
    let _ = crate::value::write_type_name(ty, depth, &mut name);
    let bad =
        |what: &str| ParseError::new(format!("invalid {name} value {}: {what}", show_input(text)));
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| bad("expected [ELEMENT, ...], e.g. [1, 2] (and [] for the empty list)"))?;
    if inner.is_empty() {
        return Ok(Value::List(ty, Default::default()));
    }
    let mut parts = split_elements(inner).map_err(|e| bad(&e))?;
    if parts.len() > 1 && parts.last() == Some(&"") {
        parts.pop();
    }
    let mut items = Vec::with_capacity(parts.len());
    for (i, part) in parts.into_iter().enumerate() {
        let part = if i > 0 {
            part.strip_prefix(' ').unwrap_or(part)
        } else {
            part
        };
        let item = if depth > 1 {
            parse_list(ty, depth - 1, part)?
        } else {
            let text = unescape_element(part).map_err(|e| bad(&e))?;
            parse_value(ty, &text).map_err(|e| bad(&format!("element {i}: {e}")))?
        };
        items.push(item);
    }
    Ok(Value::List(ty, items.into()))
}

/// Splits the inside of a bracketed list (`nested:[…]`, `list<T>:[…]`)
/// into its elements' texts (escapes kept), at the commas outside inner
/// brackets and escapes: `a\,b, [c, d]` → `a\,b`, ` [c, d]`. Empty text
/// is one empty element.
pub(crate) fn split_elements(inner: &str) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let bytes = inner.as_bytes();
    let (mut level, mut start, mut i) = (0usize, 0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'[' => level += 1,
            b']' if level == 0 => return Err(format!("an unescaped ']' at character {i}")),
            b']' => level -= 1,
            b',' if level == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if level != 0 {
        return Err("an unclosed '['".into());
    }
    parts.push(&inner[start..]);
    Ok(parts)
}

/// Undoes the escapes of an element inside a bracketed list.
pub(crate) fn unescape_element(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(e @ ('\\' | ',' | '[' | ']')) => out.push(e),
            Some(e) => return Err(format!("unknown escape \\{e} (escape only \\ , [ ])")),
            None => return Err("a '\\' at the end".into()),
        }
    }
    Ok(out)
}

/// Appends `text` as an element inside a bracketed list, its `\`, `,`,
/// `[` and `]` escaped (what [`unescape_element`] reads back).
pub(crate) fn push_escaped_element(text: &str, out: &mut String) {
    for c in text.chars() {
        if matches!(c, '\\' | ',' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// Parses the text of a value of type `ty`.
pub fn parse_value(ty: Type, text: &str) -> Result<Value<'static>, ParseError> {
    fn num<T: std::str::FromStr>(ty: Type, text: &str) -> Result<T, ParseError> {
        text.parse().map_err(|_| {
            ParseError::new(format!(
                "invalid {ty} value {}: not a number in range for {ty}",
                show_input(text)
            ))
        })
    }
    Ok(match ty {
        Type::Str => Value::Str(Cow::Owned(text.to_string())),
        Type::I64 => Value::I64(num(ty, text)?),
        Type::U64 => Value::U64(num(ty, text)?),
        Type::Vi64 => Value::Vi64(num(ty, text)?),
        Type::Vu64 => Value::Vu64(num(ty, text)?),
        Type::I32 => Value::I32(num(ty, text)?),
        Type::U32 => Value::U32(num(ty, text)?),
        Type::F64 => {
            let x: f64 = num(ty, text)?;
            check_float(ty, text, x.is_infinite(), x == 0.0)?;
            Value::F64(x)
        }
        Type::F32 => {
            let x: f32 = num(ty, text)?;
            check_float(ty, text, x.is_infinite(), x == 0.0)?;
            Value::F32(x)
        }
        Type::Bool => match text {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => {
                return Err(ParseError::new(format!(
                    "invalid bool {text:?}: expected true or false"
                )))
            }
        },
        Type::Bytes => Value::Bytes(Cow::Owned(parse_hex(text)?)),
        Type::Ts => Value::Ts(parse_ts(text)?),
        Type::Uuid => Value::Uuid(parse_uuid(text)?),
        Type::Dec => Value::Dec(crate::value::big_decimal::Dec::parse(text)?),
    })
}

/// Refuses a float literal that the parse silently changed: a finite
/// number too large for the type (read as infinity) or a non-zero one too
/// small (read as zero). Only `inf`, `-inf` (also `infinity`) spell the
/// infinities.
fn check_float(ty: Type, text: &str, infinite: bool, zero: bool) -> Result<(), ParseError> {
    let (max, min) = if ty == Type::F32 {
        ("3.4028235e38", "1e-45")
    } else {
        ("1.7976931348623157e308", "5e-324")
    };
    let lower = text.to_ascii_lowercase();
    let body = lower.trim_start_matches(['+', '-']);
    if infinite && !(body == "inf" || body == "infinity") {
        return Err(ParseError::new(format!(
            "invalid {ty} value {}: out of range for {ty} (its largest finite value is {max}; \
             write inf or -inf for the infinities)",
            crate::value::literal::show_input(text)
        )));
    }
    let mantissa = body.split('e').next().unwrap_or("");
    if zero && mantissa.bytes().any(|c| matches!(c, b'1'..=b'9')) {
        return Err(ParseError::new(format!(
            "invalid {ty} value {}: too small for {ty}, it would be read as 0 (the smallest \
             non-zero {ty} is {min})",
            crate::value::literal::show_input(text)
        )));
    }
    Ok(())
}

/// A user's input as it is quoted in a message: at most 64 characters,
/// then `…(N bytes)` — a message never echoes megabytes.
///
/// ```
/// use lexikey::value::literal::show_input;
/// assert_eq!(show_input("i64:5"), "\"i64:5\"");
/// assert_eq!(show_input(&"9".repeat(100)), format!("\"{}\"…(100 bytes)", "9".repeat(64)));
/// ```
pub fn show_input(text: &str) -> String {
    const MAX: usize = 64;
    if text.len() <= MAX {
        return format!("{text:?}");
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{:?}…({} bytes)", &text[..end], text.len())
}

/// Writes a value as text (the inverse of [`parse_value`]).
pub fn write_value(v: &Value<'_>, out: &mut String) {
    // Writing to a String cannot fail.
    let _ = match v {
        Value::Str(s) => {
            out.push_str(s);
            Ok(())
        }
        Value::I64(x) => write!(out, "{x}"),
        Value::Dec(x) => write!(out, "{x}"),
        Value::U64(x) | Value::Vu64(x) => write!(out, "{x}"),
        Value::Vi64(x) => write!(out, "{x}"),
        Value::I32(x) => write!(out, "{x}"),
        Value::U32(x) => write!(out, "{x}"),
        Value::F64(x) => write!(out, "{x:?}"),
        Value::F32(x) => write!(out, "{x:?}"),
        Value::Bool(x) => write!(out, "{x}"),
        Value::Bytes(b) => {
            write_hex(b, out);
            Ok(())
        }
        Value::Ts(ms) => {
            format_ts(*ms, out);
            Ok(())
        }
        Value::Uuid(u) => {
            format_uuid(*u, out);
            Ok(())
        }
        // A null has no value text: its component is written as the bare
        // nullable type ([`component_to_string`]).
        Value::Null(_) => Ok(()),
        Value::List(_, items) => {
            write_list(items, out);
            Ok(())
        }
    };
}

/// Writes a list's elements as [`parse_list`] reads them.
fn write_list(items: &[Value<'_>], out: &mut String) {
    out.push('[');
    let mut scalar = String::new();
    let mut last_empty = false;
    for (i, v) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if let Value::List(_, inner) = v {
            write_list(inner, out);
            last_empty = false;
        } else {
            scalar.clear();
            write_value(v, &mut scalar);
            push_escaped_element(&scalar, out);
            last_empty = scalar.is_empty();
        }
    }
    if last_empty {
        out.push(',');
    }
    out.push(']');
}

/// A value as text.
pub fn value_to_string(v: &Value<'_>) -> String {
    let mut s = String::new();
    write_value(v, &mut s);
    s
}

/// Writes a component as `TYPE[.desc]:VALUE` (a null as its bare
/// nullable type, `i64?`).
pub fn component_to_string(c: &Component<'_>) -> String {
    let mut s = c.field().to_string();
    if c.is_null() {
        return s;
    }
    s.push(':');
    write_value(&c.value, &mut s);
    s
}

/// Why hex text is not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HexError {
    /// An odd number of digits (checked before the digits themselves).
    OddDigits,
    /// The first byte that is not a hex digit, by its index in the text.
    BadDigit {
        /// The index of the bad digit (its byte offset in the text).
        at: usize,
    },
}

impl std::fmt::Display for HexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HexError::OddDigits => f.write_str("odd number of digits"),
            HexError::BadDigit { at } => write!(f, "bad digit at character {at}"),
        }
    }
}

impl std::error::Error for HexError {}

/// Appends `bytes` as lowercase hex (how binary keys and `bytes` values
/// are shown) to `out`.
///
/// ```
/// let mut out = b"key=".to_vec();
/// lexikey::value::literal::push_hex(b"\x00\xAB", &mut out);
/// assert_eq!(out, b"key=00ab");
/// ```
#[inline]
pub fn push_hex(bytes: &[u8], out: &mut Vec<u8>) {
    crate::bytes::push_lower_hex(bytes, out);
}

/// Appends `bytes` as lowercase hex to a `String` (see [`push_hex`]).
pub fn write_hex(bytes: &[u8], out: &mut String) {
    out.reserve(2 * bytes.len());
    for &b in bytes {
        let [h, l] = crate::bytes::lower_hex_pair(b);
        out.push(char::from(h));
        out.push(char::from(l));
    }
}

/// Appends the bytes spelled by `hex` (digits of either case, two per
/// byte) to `out`, which is left as it was on error. One table load per
/// digit, no allocation but `out`'s growth: the reader of every hex key
/// the command line and the bindings take.
///
/// # Errors
/// [`HexError::OddDigits`] for an odd number of digits (checked first),
/// else [`HexError::BadDigit`] at the first byte that is not a hex digit.
///
/// ```
/// use lexikey::value::literal::{decode_hex_into, HexError};
/// let mut out = Vec::new();
/// decode_hex_into(b"00aB", &mut out)?;
/// assert_eq!(out, [0x00, 0xAB]);
/// assert_eq!(decode_hex_into(b"0g", &mut out), Err(HexError::BadDigit { at: 1 }));
/// assert_eq!(decode_hex_into(b"0gz", &mut out), Err(HexError::OddDigits));
/// assert_eq!(out, [0x00, 0xAB]);
/// # Ok::<(), HexError>(())
/// ```
#[inline]
pub fn decode_hex_into(hex: &[u8], out: &mut Vec<u8>) -> Result<(), HexError> {
    crate::bytes::unhex_into(hex, out).map_err(|e| match e {
        None => HexError::OddDigits,
        Some(at) => HexError::BadDigit { at },
    })
}

/// Why a binary key given as text does not read ([`decode_binary_key`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryKeyError {
    /// Hex with an odd number of digits (`len`: the number of digits).
    OddDigits {
        /// How many hex digits there are.
        len: usize,
    },
    /// A character that is not a hex digit, by its index in the text.
    BadDigit {
        /// Its index (byte offset in the text, `0x` included).
        at: usize,
    },
    /// In the `Bytes.toStringBinary` form: a `\` that does not start a
    /// `\xNN` escape, or a byte outside printable ASCII, by its index.
    BadEscape {
        /// Its index in the text.
        at: usize,
    },
}

impl BinaryKeyError {
    /// The forms a binary key may be given in, for messages.
    pub const FORMS: &'static str = "binary keys are read as hex (either case), 0x-prefixed hex, \
         or HBase's Bytes.toStringBinary form with \\xNN escapes";
}

/// Reads a binary key given as text, in any of the three forms people
/// paste: hex (either case, `6162`), `0x`-prefixed hex (`0x6162`), or the
/// text HBase's `Bytes.toStringBinary` prints and `hbase shell` shows
/// (printable ASCII as itself, other bytes as `\xNN`: `ab\x00\x01`).
/// The last form is chosen when the text holds a `\x` (also after a leading
/// `0x`, which a key's own bytes may spell: `0x\xFF`); it is read strictly:
/// a `\` must start a `\xNN` escape (a backslash itself is `\x5C`) and
/// every other byte must be printable ASCII.
///
/// ```
/// use lexikey::value::literal::decode_binary_key;
/// let mut k = Vec::new();
/// for text in ["61620001", "0x61620001", "0X61620001", r"ab\x00\x01", r"\x61b\x00\x01"] {
///     k.clear();
///     decode_binary_key(text.as_bytes(), &mut k).unwrap();
///     assert_eq!(k, b"ab\x00\x01", "{text}");
/// }
/// k.clear();
/// decode_binary_key(br"0x\xFF", &mut k).unwrap();
/// assert_eq!(k, b"0x\xFF");
/// ```
///
/// # Errors
/// [`BinaryKeyError`], with the index of the character at fault.
pub fn decode_binary_key(text: &[u8], out: &mut Vec<u8>) -> Result<(), BinaryKeyError> {
    // A `\x` escape means the `Bytes.toStringBinary` form, also when the
    // key's own bytes start with `0x` (`0x\xFF`): hex never holds a `\`.
    let escaped = text.contains(&b'\\') && text.windows(2).any(|w| w == b"\\x");
    if let Some(hex) = text
        .strip_prefix(b"0x")
        .or_else(|| text.strip_prefix(b"0X"))
        .filter(|_| !escaped)
    {
        if hex.is_empty() {
            // "0x" alone: the digits are missing (the empty key is "").
            return Err(BinaryKeyError::BadDigit { at: 2 });
        }
        return decode_hex_into(hex, out).map_err(|e| match e {
            HexError::OddDigits => BinaryKeyError::OddDigits { len: hex.len() },
            HexError::BadDigit { at } => BinaryKeyError::BadDigit { at: at + 2 },
        });
    }
    if !escaped {
        return decode_hex_into(text, out).map_err(|e| match e {
            HexError::OddDigits => BinaryKeyError::OddDigits { len: text.len() },
            HexError::BadDigit { at } => BinaryKeyError::BadDigit { at },
        });
    }
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'\\' => {
                let digits = text
                    .get(i + 2..i + 4)
                    .filter(|_| text.get(i + 1) == Some(&b'x'));
                let mut byte = Vec::with_capacity(1);
                match digits.map(|d| decode_hex_into(d, &mut byte)) {
                    Some(Ok(())) => out.push(byte[0]),
                    _ => return Err(BinaryKeyError::BadEscape { at: i }),
                }
                i += 4;
            }
            c @ 0x20..=0x7E => {
                out.push(c);
                i += 1;
            }
            _ => return Err(BinaryKeyError::BadEscape { at: i }),
        }
    }
    Ok(())
}

impl std::fmt::Display for BinaryKeyError {
    /// What is wrong, as the Python and Java bindings say it
    /// (`an odd number of hex digits (3)`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::OddDigits { len } => write!(f, "an odd number of hex digits ({len})"),
            Self::BadDigit { at } => write!(f, "a bad hex digit at character {at}"),
            Self::BadEscape { at } => write!(
                f,
                "character {at} is neither printable ASCII nor the start of a \\xNN escape"
            ),
        }
    }
}

impl std::error::Error for BinaryKeyError {}

/// Why a binary key handed to a binding as text does not read
/// ([`binary_key_from_text`]); its message is the bindings' (Python's
/// `DecodeError`, Java's `DecodeException`) and [`offset`](Self::offset)
/// the byte offset they report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryKeyTextError {
    /// `0x` hex or the `Bytes.toStringBinary` form that does not read;
    /// `at`: how many key bytes were read before the fault.
    Form {
        /// What is wrong.
        error: BinaryKeyError,
        /// Key bytes read before it.
        at: usize,
    },
    /// Plain hex with a character that is not a hex digit, in key byte `at`.
    HexDigit {
        /// The key byte the bad digit falls in (its index / 2).
        at: usize,
    },
    /// Plain hex with an odd number of digits.
    HexOdd {
        /// How many digits.
        len: usize,
    },
}

impl BinaryKeyTextError {
    /// The byte offset in the key where reading stopped.
    pub fn offset(&self) -> usize {
        match *self {
            Self::Form { at, .. } | Self::HexDigit { at } => at,
            Self::HexOdd { len } => len / 2,
        }
    }
}

impl std::fmt::Display for BinaryKeyTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Form { error, at } => write!(
                f,
                "invalid binary key: {error} at byte {at} ({})",
                BinaryKeyError::FORMS
            ),
            Self::HexDigit { at } => {
                write!(f, "invalid binary key: given as hex, bad digit at byte {at}")
            }
            Self::HexOdd { len } => write!(
                f,
                "invalid binary key: given as hex, it has an odd number of digits ({len}) at byte {}",
                len / 2
            ),
        }
    }
}

impl std::error::Error for BinaryKeyTextError {}

/// Reads a binary key that a binding (Python, Java) was given as text:
/// hex, `0x` hex or the `Bytes.toStringBinary` form
/// ([`decode_binary_key`]), with the bindings' messages and byte offsets.
///
/// ```
/// use lexikey::value::literal::binary_key_from_text;
/// assert_eq!(binary_key_from_text(br"ab\x00").unwrap(), b"ab\x00");
/// let e = binary_key_from_text(b"61x2").unwrap_err();
/// assert_eq!(e.offset(), 1);
/// assert_eq!(e.to_string(), "invalid binary key: given as hex, bad digit at byte 1");
/// ```
///
/// # Errors
/// [`BinaryKeyTextError`].
pub fn binary_key_from_text(raw: &[u8]) -> Result<Vec<u8>, BinaryKeyTextError> {
    let mut out = Vec::with_capacity(raw.len() / 2);
    if raw.starts_with(b"0x") || raw.starts_with(b"0X") || raw.windows(2).any(|w| w == b"\\x") {
        return match decode_binary_key(raw, &mut out) {
            Ok(()) => Ok(out),
            Err(error) => Err(BinaryKeyTextError::Form {
                error,
                at: out.len(),
            }),
        };
    }
    if let Some(i) = raw.iter().position(|c| !c.is_ascii_hexdigit()) {
        return Err(BinaryKeyTextError::HexDigit { at: i / 2 });
    }
    decode_hex_into(raw, &mut out).map_err(|_| BinaryKeyTextError::HexOdd { len: raw.len() })?;
    Ok(out)
}

/// Parses hex bytes (either case, even length).
///
/// # Errors
/// `invalid hex "…": odd number of digits` or `invalid hex "…": bad digit
/// at character N` ([`HexError`]).
pub fn parse_hex(text: &str) -> Result<Vec<u8>, ParseError> {
    let mut out = Vec::with_capacity(text.len() / 2);
    decode_hex_into(text.as_bytes(), &mut out)
        .map_err(|e| ParseError::new(format!("invalid hex {text:?}: {e}")))?;
    Ok(out)
}

/// Parses a hyphenated UUID (`8-4-4-4-12` hex digits, either case).
pub fn parse_uuid(text: &str) -> Result<u128, ParseError> {
    let err = || {
        ParseError::new(format!(
            "invalid uuid {text:?}: expected 8-4-4-4-12 hex digits, e.g. 123e4567-e89b-12d3-a456-426614174000"
        ))
    };
    let b = text.as_bytes();
    if b.len() != 36 || [8, 13, 18, 23].iter().any(|&i| b[i] != b'-') {
        return Err(err());
    }
    let mut v: u128 = 0;
    for (i, &c) in b.iter().enumerate() {
        if [8, 13, 18, 23].contains(&i) {
            continue;
        }
        v = v << 4 | u128::from(crate::bytes::hex_value(c).ok_or_else(err)?);
    }
    Ok(v)
}

/// Writes a UUID hyphenated, lowercase.
pub fn format_uuid(u: u128, out: &mut String) {
    let b = u.to_be_bytes();
    write_hex(&b[..4], out);
    for (from, to) in [(4, 6), (6, 8), (8, 10), (10, 16)] {
        out.push('-');
        write_hex(&b[from..to], out);
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (month 1–12, day
/// 1–31; any year), by Howard Hinnant's algorithm; negative before 1970.
///
/// ```
/// use lexikey::value::literal::{civil_from_days, days_from_civil};
/// assert_eq!(days_from_civil(1970, 1, 1), 0);
/// assert_eq!(days_from_civil(2000, 3, 1), 11_017);
/// assert_eq!(civil_from_days(11_017), (2000, 3, 1));
/// ```
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `(year, month, day)` of a day number (inverse of
/// [`days_from_civil`]).
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Parses an RFC 3339 timestamp, or an integer with a unit (`s`, `ms`,
/// `us`, `ns`; a bare integer is milliseconds), to milliseconds since the
/// epoch. Years 0000–9999; up to 3 fraction digits, and `us`/`ns` only
/// when whole milliseconds (lexikey keys hold milliseconds: more precision
/// would be silently dropped, so it is refused).
///
/// ```
/// use lexikey::value::literal::parse_ts;
/// assert_eq!(parse_ts("1970-01-01T00:00:01.5Z")?, 1500);
/// assert_eq!(parse_ts("2024-02-29T01:00:00+01:00")?, 1709164800000);
/// assert_eq!(parse_ts("-1")?, -1);
/// assert_eq!(parse_ts("1714564800s")?, 1714564800000);
/// assert_eq!(parse_ts("1714564800000ms")?, 1714564800000);
/// assert_eq!(parse_ts("1714564800000000us")?, 1714564800000);
/// assert!(parse_ts("1714564800000000001ns").is_err());
/// # Ok::<(), lexikey::ParseError>(())
/// ```
pub fn parse_ts(text: &str) -> Result<i64, ParseError> {
    let is_int = |t: &str| {
        !t.is_empty()
            && t != "-"
            && t.bytes()
                .enumerate()
                .all(|(i, c)| c.is_ascii_digit() || (i == 0 && c == b'-'))
    };
    if is_int(text) {
        return text.parse().map_err(|_| {
            ParseError::new(format!("invalid ts {}: out of range", show_input(text)))
        });
    }
    // An integer with its unit: s, ms, us, ns.
    for (unit, per_ms) in [("ms", 0), ("us", 1_000), ("ns", 1_000_000), ("s", -1)] {
        let Some(n) = text.strip_suffix(unit).filter(|n| is_int(n)) else {
            continue;
        };
        let out_of_range =
            || ParseError::new(format!("invalid ts {}: out of range", show_input(text)));
        let v: i128 = n.parse().map_err(|_| out_of_range())?;
        let ms = match per_ms {
            0 => v,
            -1 => v.checked_mul(1000).ok_or_else(out_of_range)?,
            d => {
                if v % d != 0 {
                    return Err(ParseError::new(format!(
                        "invalid ts {}: not a whole number of milliseconds (lexikey keys \
                         hold milliseconds; round it first)",
                        show_input(text)
                    )));
                }
                v / d
            }
        };
        return i64::try_from(ms).map_err(|_| out_of_range());
    }
    let err = |why: &str| {
        ParseError::new(format!(
            "invalid ts {}: {why}; expected RFC 3339 like 2024-05-01T12:00:00.000Z, or an integer \
             with its unit: 1714564800s, 1714564800000ms, …us, …ns (a bare integer is milliseconds)",
            show_input(text)
        ))
    };
    // An extended year (`+12345-…`, `-0001-…`, as `format_ts` writes
    // outside 0000–9999): parse it apart, then the rest as a 4-digit year.
    let (ext_year, normalized);
    let b = match text.as_bytes().first() {
        Some(&sign @ (b'+' | b'-')) => {
            let n = text[1..].bytes().take_while(u8::is_ascii_digit).count();
            if !(4..=12).contains(&n) {
                return Err(err("an extended year has a sign and 4 to 12 digits"));
            }
            let y: i64 = text[1..=n].parse().map_err(|_| err("bad year"))?;
            ext_year = Some(if sign == b'-' { -y } else { y });
            normalized = format!("0000{}", &text[1 + n..]);
            normalized.as_bytes()
        }
        _ => {
            ext_year = None;
            text.as_bytes()
        }
    };
    let digits = |r: std::ops::Range<usize>| -> Result<i64, ParseError> {
        let s = b.get(r).ok_or_else(|| err("too short"))?;
        if !s.iter().all(u8::is_ascii_digit) {
            return Err(err("digit expected"));
        }
        Ok(s.iter().fold(0i64, |a, &c| a * 10 + i64::from(c - b'0')))
    };
    let sep = |i: usize, allowed: &[u8]| -> Result<(), ParseError> {
        match b.get(i) {
            Some(c) if allowed.contains(c) => Ok(()),
            _ => Err(err("bad separator")),
        }
    };
    let (y, mo, d) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let y = ext_year.unwrap_or(y);
    sep(4, b"-")?;
    sep(7, b"-")?;
    sep(10, b"Tt ")?;
    let (h, mi, s) = (digits(11..13)?, digits(14..16)?, digits(17..19)?);
    sep(13, b":")?;
    sep(16, b":")?;
    let mut i = 19;
    let mut ms = 0;
    if b.get(i) == Some(&b'.') {
        let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 || n > 3 {
            return Err(err("1 to 3 fraction digits (milliseconds) allowed"));
        }
        ms = digits(i + 1..i + 1 + n)? * 10i64.pow(3 - n as u32);
        i += 1 + n;
    }
    let offset_min = match b.get(i) {
        Some(b'Z' | b'z') if i + 1 == b.len() => 0,
        Some(&c @ (b'+' | b'-')) if i + 6 == b.len() => {
            sep(i + 3, b":")?;
            let (oh, om) = (digits(i + 1..i + 3)?, digits(i + 4..i + 6)?);
            if oh > 23 || om > 59 {
                return Err(err("offset out of range"));
            }
            let o = oh * 60 + om;
            if c == b'-' {
                -o
            } else {
                o
            }
        }
        _ => return Err(err("time zone (Z or +hh:mm) expected at the end")),
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let mdays = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&mo)
        || d < 1
        || d > mdays[(mo - 1) as usize]
        || h > 23
        || mi > 59
        || s > 59
    {
        return Err(err("date or time out of range"));
    }
    let days = i128::from(days_from_civil(y, mo, d));
    let total = ((days * 24 + i128::from(h)) * 60 + i128::from(mi - offset_min)) * 60_000
        + i128::from(s * 1000 + ms);
    i64::try_from(total).map_err(|_| err("out of the range of i64 milliseconds"))
}

/// Writes milliseconds since the epoch as RFC 3339 UTC with milliseconds
/// (`1970-01-01T00:00:00.000Z`). Years outside 0000–9999 are written with
/// a sign and more digits (`+12345-…`), as ISO 8601 extended years.
pub fn format_ts(ms: i64, out: &mut String) {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    let (h, mi, s, f) = (
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000,
    );
    let _ = if (0..=9999).contains(&y) {
        write!(out, "{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{f:03}Z")
    } else {
        write!(out, "{y:+05}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{f:03}Z")
    };
}

/// The one-line hint for a bare integer `ts` that is only plausible as
/// seconds (10^8 to 10^11: 1973 to 5138 in seconds, but the first days of
/// 1970 in milliseconds), or `None`.
///
/// ```
/// use lexikey::value::literal::ts_seconds_hint;
/// assert!(ts_seconds_hint("1714564800").unwrap().contains("1714564800s"));
/// assert_eq!(ts_seconds_hint("1714564800000"), None);
/// assert_eq!(ts_seconds_hint("1714564800s"), None);
/// ```
pub fn ts_seconds_hint(text: &str) -> Option<String> {
    let n: i64 = text.parse().ok()?;
    if !(100_000_000..100_000_000_000).contains(&n.unsigned_abs()) {
        return None;
    }
    let mut when = String::new();
    format_ts(n, &mut when);
    Some(format!(
        "ts:{text} is read as milliseconds ({when}); if you meant seconds, write ts:{text}s"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages Python's DecodeError and Java's DecodeException carry
    /// (contracts: both bindings print exactly these) and their offsets.
    #[test]
    fn binary_key_text_messages() {
        let forms = BinaryKeyError::FORMS;
        for (raw, msg, at) in [
            (&b"61x2"[..], "invalid binary key: given as hex, bad digit at byte 1".to_string(), 1),
            (b"616", "invalid binary key: given as hex, it has an odd number of digits (3) at byte 1".into(), 1),
            (b"0x616", format!("invalid binary key: an odd number of hex digits (3) at byte 0 ({forms})"), 0),
            (b"0x61zz", format!("invalid binary key: a bad hex digit at character 4 at byte 0 ({forms})"), 0),
            (br"ab\x0", format!("invalid binary key: character 2 is neither printable ASCII nor the start of a \\xNN escape at byte 2 ({forms})"), 2),
        ] {
            let e = binary_key_from_text(raw).unwrap_err();
            assert_eq!((e.to_string(), e.offset()), (msg, at), "{raw:?}");
        }
        assert_eq!(binary_key_from_text(b"0X6162").unwrap(), b"ab");
        assert_eq!(binary_key_from_text(b"").unwrap(), b"");
    }

    #[test]
    fn ts_round_trip_across_eras() {
        for ms in [
            0,
            -1,
            1,
            951_782_400_000,
            -62_135_596_800_000,
            253_402_300_799_999,
            1_709_164_800_000,
        ] {
            let mut s = String::new();
            format_ts(ms, &mut s);
            assert_eq!(parse_ts(&s), Ok(ms), "{s}");
        }
    }
}
