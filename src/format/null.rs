//! Nullable components (`TYPE?`): one marker byte before the value.
//!
//! A component of a nullable field ([`Field::nulls`] is `Some`) starts
//! with a marker. A null is the marker alone; a present value is the
//! marker "value follows" and then the bytes the same field without the
//! `?` writes, unchanged (direction, width and all). Components of fields
//! without the `?` have no marker: their bytes are the same as before
//! nullable components existed.
//!
//! | format | null, nulls first (`TYPE?`) | value follows | null, nulls last (`TYPE?.nulls_last`) |
//! |---|---|---|---|
//! | `binary` | `00` | `01` | `02` |
//! | `hex`, `base64`, `decimal` | `-` (0x2D) | `=` (0x3D) | `_` (0x5F) |
//!
//! So `i64?` of `5` in `hex` is `=l8000000000000005`, its null `-`; in
//! `binary` `01 80 00 00 00 00 00 00 05` and `00`.
//!
//! **Order.** The marker is the component's first byte and is never
//! inverted by `.desc` (only the value bytes after it are). Two present
//! values have the same marker, so they compare by their value bytes,
//! which keep the value order in both directions. A null and a present
//! value differ at the marker, which is below "value follows" for nulls
//! first and above it for nulls last: so the null sorts before (after)
//! every value of the component in the final key order, ascending or
//! descending, as SQL's `DESC NULLS FIRST` means it. Two nulls are
//! equal. The marker is one byte and the value bytes are prefix-free as
//! before, so the component stays prefix-free and whatever follows it in
//! a tuple key compares only when everything before is equal. In the text
//! formats all three markers are printable, shell-safe, and neither the
//! separator `#` nor the escape `%`, so parts still split at `#`.
//!
//! **Decoding.** The marker must be one of the two the field allows: a
//! nulls-first field refuses `02`/`_`, a nulls-last one `00`/`-`, and any
//! other byte is an error at the marker's offset. A null marker followed
//! by more bytes of the same part is an error (trailing bytes), so
//! `decode(encode(x)) == x` and `encode(decode(k)) == k` exactly. A null
//! ([`Value::Null`](crate::Value::Null)) in a component without the `?` is an encode error,
//! and a field without the `?` reads no marker.
//!
//! ```
//! use lexikey::{tuple, Component, Field, Format, Type, Value};
//! let f = Field::parse("i64?")?;
//! let some = tuple::encode(Format::Hex, &[Component::of(f, 5_i64)])?;
//! let none = tuple::encode(Format::Hex, &[Component::of(f, Value::Null(Type::I64))])?;
//! assert_eq!(some, b"=l8000000000000005");
//! assert_eq!(none, b"-");
//! assert!(none < some);
//! let back = tuple::decode(Format::Hex, &none, Some(&[f]))?;
//! assert_eq!(back[0].value, Value::Null(Type::I64));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::DecodeError;
use crate::format::Format;
use crate::value::{Field, Nulls};

/// The `binary` marker of a null that sorts first.
pub const BIN_NULL_FIRST: u8 = 0x00;
/// The `binary` marker before a present value.
pub const BIN_VALUE: u8 = 0x01;
/// The `binary` marker of a null that sorts last.
pub const BIN_NULL_LAST: u8 = 0x02;
/// The text marker of a null that sorts first (`hex`, `base64`, `decimal`).
pub const TEXT_NULL_FIRST: u8 = b'-';
/// The text marker before a present value.
pub const TEXT_VALUE: u8 = b'=';
/// The text marker of a null that sorts last.
pub const TEXT_NULL_LAST: u8 = b'_';

/// The marker `format` writes for a component whose nulls sort where
/// `nulls` says: of a null when `null`, else the one before a value.
///
/// ```
/// use lexikey::format::null::marker;
/// use lexikey::{Format, Nulls};
/// assert_eq!(marker(Format::Binary, Nulls::Last, true), 0x02);
/// assert_eq!(marker(Format::Hex, Nulls::First, false), b'=');
/// ```
pub const fn marker(format: Format, nulls: Nulls, null: bool) -> u8 {
    let text = format.is_text();
    match (null, nulls, text) {
        (false, _, false) => BIN_VALUE,
        (false, _, true) => TEXT_VALUE,
        (true, Nulls::First, false) => BIN_NULL_FIRST,
        (true, Nulls::First, true) => TEXT_NULL_FIRST,
        (true, Nulls::Last, false) => BIN_NULL_LAST,
        (true, Nulls::Last, true) => TEXT_NULL_LAST,
    }
}

/// What a refused marker should have been, for the error message.
const fn expected(format: Format, nulls: Nulls) -> &'static str {
    match (format.is_text(), nulls) {
        (true, Nulls::First) => "the marker of a nullable component: '-' (null) or '=' (value)",
        (true, Nulls::Last) => "the marker of a nulls-last component: '_' (null) or '=' (value)",
        (false, Nulls::First) => "the marker of a nullable component: 00 (null) or 01 (value)",
        (false, Nulls::Last) => "the marker of a nulls-last component: 02 (null) or 01 (value)",
    }
}

/// Reads the marker at `input[0]` of a component of nullable `field`
/// (`field.nulls` is `Some`): `true` for a null, `false` when a value
/// follows. Errors at offset 0: no byte, or a byte that is not one of the
/// field's two markers.
pub(crate) fn read_marker(format: Format, field: Field, input: &[u8]) -> Result<bool, DecodeError> {
    let nulls = field.nulls.unwrap_or_default();
    let Some(&b) = input.first() else {
        return Err(DecodeError::Truncated {
            offset: 0,
            expected: expected(format, nulls),
        });
    };
    if b == marker(format, nulls, true) {
        Ok(true)
    } else if b == marker(format, nulls, false) {
        Ok(false)
    } else {
        Err(DecodeError::InvalidSymbol {
            offset: 0,
            found: b,
            expected: expected(format, nulls),
        })
    }
}
