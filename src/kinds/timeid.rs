//! Time-ordered IDs: [ULID](https://github.com/ulid/spec) and UUIDv7
//! ([RFC 9562 §5.7](https://www.rfc-editor.org/rfc/rfc9562#name-uuid-version-7)),
//! with monotonic generators, as key components.
//!
//! Both IDs are 128-bit integers whose top 48 bits are milliseconds since
//! the Unix epoch, so their big-endian value — the order of a
//! [`Value::Uuid`] key component in every format — is creation order:
//!
//! > for IDs `a`, `b`: `a.cmp(&b) == (ms(a), rest(a)).cmp(&(ms(b), rest(b)))
//! > == key(a).cmp(&key(b))`, and for ULIDs also `== a.to_string().cmp(&b.to_string())`.
//!
//! | | bits 127–80 | bits 79–0 | text |
//! |---|---|---|---|
//! | [`Ulid`] | `unix_ts_ms` | 80 random bits | 26 Crockford base32 symbols |
//! | UUIDv7 ([`uuid7`]) | `unix_ts_ms` | `ver`=`0111` (4), `rand_a` (12), `var`=`10` (2), `rand_b` (62) | `8-4-4-4-12` hex ([`crate::value::literal::format_uuid`]) |
//!
//! ```
//! use lexikey::kinds::timeid::Ulid;
//! use lexikey::{tuple, Component, Format};
//!
//! let id = Ulid::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV")?;
//! assert_eq!(id.timestamp_ms(), 1_469_922_850_259); // 2016-07-30T23:54:10.259Z
//! let key = tuple::encode(Format::Hex, &[Component::asc("event"), id.component()])?;
//! assert_eq!(key, b"event#g01563E3AB5D3D6764C61EFB99302BD5B");
//! let key = tuple::encode(Format::Binary, &[id.component()])?;
//! assert_eq!(key, 0x01563E3AB5D3D6764C61EFB99302BD5B_u128.to_be_bytes());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A ULID's own string is a sortable key too (its alphabet is in ASCII
//! order and it has a fixed width), so `Component::asc(id.to_string())`
//! sorts the same way — at 26 bytes instead of 33 (`hex`) or 16 (`binary`).
//!
//! # Canonical ULID decoding
//!
//! 26 base32 symbols hold 130 bits; a ULID has 128. ulid-rs shifts all 26
//! symbols into a `u128` without looking at the first one, so the two top
//! bits fall off: `"ZZZZZZZZZZZZZZZZZZZZZZZZZZ"` and
//! `"7ZZZZZZZZZZZZZZZZZZZZZZZZZ"` decode to the same ID, and a store keyed
//! by the text holds two rows for one ID. Here the first symbol must be
//! `0`–`7` ([`Ulid::MAX`] is `7ZZZZZZZZZZZZZZZZZZZZZZZZZ`), so every ID has
//! one text and every text one ID.
//!
//! | input | [`Ulid::parse_strict`] | [`Ulid::parse`] (spec: lenient) | ulid-rs |
//! |---|---|---|---|
//! | `01ARZ3NDEKTSV4RRFFQ69G5FAV` | ok | ok | ok |
//! | `01arz3ndektsv4rrffq69g5fav` | error at byte 2 | ok (same ID) | ok |
//! | `0IARZ3NDEKTSV4RRFFQ69G5FAV` (`I`, `L` → `1`; `O` → `0`) | error at byte 1 | ok (same ID) | error |
//! | `8ZZZZZZZZZZZZZZZZZZZZZZZZZ` (≥ 2¹²⁸) | error at byte 0 | error at byte 0 | ok (wraps) |
//! | `01ARZ3NDEKTSV4RRFFQ69G5FAU` (`U` is not a symbol) | error at byte 25 | error at byte 25 | error |
//!
//! [`Ulid::parse_strict`] accepts exactly what [`Ulid::encode`] writes
//! (`encode(parse_strict(s)) == s`): use it on keys read back from a store.
//! [`Ulid::parse`] follows the spec's advice for human input (case
//! insensitive, Crockford's `I`/`L`/`O` substitutions) and is what
//! [`FromStr`] uses. Both report the byte offset of the first bad symbol
//! (ulid-rs says only `InvalidChar` or `InvalidLength`).
//!
//! # Monotonic generation
//!
//! [`UlidGenerator`] and [`Uuid7Generator`] return strictly increasing IDs,
//! also within one millisecond and when the clock steps back. They read an
//! injectable [`Clock`] and [`RandomSource`]; the defaults are the system
//! clock and [`SplitMix64`], seeded from the time and std's per-process
//! hash keys. **`SplitMix64` is not cryptographic**: its output can be
//! predicted from a few IDs. When IDs must be unguessable, pass a
//! cryptographic source (any `FnMut() -> u64` is a [`RandomSource`]). An
//! exhausted millisecond is an error ([`TimeIdError::Overflow`]), never a
//! wrap, as in ulid-rs's `Generator`. A generator is one sequence: share
//! one behind a `Mutex`, or give each thread its own (IDs of different
//! generators are unique with high probability but not ordered within a
//! millisecond).
//!
//! ```
//! use lexikey::kinds::timeid::{uuid7_timestamp, Ulid, UlidGenerator, Uuid7Generator};
//!
//! let mut ids = UlidGenerator::with_sources(|| 1_469_922_850_259_i64, || 0_u64);
//! let a = ids.generate()?;
//! let b = ids.generate()?; // same millisecond: the random part + 1
//! assert_eq!(a.to_string(), "01ARZ3NDEK0000000000000000");
//! assert_eq!(b.to_string(), "01ARZ3NDEK0000000000000001");
//!
//! let mut uuids = Uuid7Generator::with_sources(|| 1_645_557_742_000_i64, || 0_u64);
//! let u = uuids.generate()?;
//! assert_eq!(u, 0x017F22E2_79B0_7000_8000_000000000000);
//! assert_eq!(uuid7_timestamp(u), Some(1_645_557_742_000));
//! assert!(uuids.generate()? > u);
//! # Ok::<(), lexikey::kinds::timeid::TimeIdError>(())
//! ```
//!
//! # Newest first: descending or reverse timestamps
//!
//! Two keys put the newest row first. Both sort by `ms` descending; they
//! differ in their bytes, their range and what they decode to:
//!
//! | | `Component::desc(Value::Ts(ms))` | `Component::asc(lexikey::reverse(ms)?)` |
//! |---|---|---|
//! | order bytes | `!(ms ^ 2⁶³)` = `0x7FFF…FF - ms` | `(i64::MAX - ms) ^ 2⁶³` = `0xFFFF…FF - ms` |
//! | `hex` key | tag `T` | tag `l` |
//! | range | every `i64` (before 1970 too) | `ms >= 0`; negative → [`crate::EncodeError::ReverseOutOfRange`] |
//! | decodes to | `ms` (schema field `ts.desc`) | `i64::MAX - ms` (schema field `i64`; apply [`crate::reverse`] again) |
//! | use it for | new tables | rows Java code writes as `Long.MAX_VALUE - ts` |
//!
//! ```
//! use lexikey::{reverse, tuple, Component, Field, Format, Type, Value};
//!
//! let (older, newer) = (1_700_000_000_000_i64, 1_700_000_000_001_i64);
//! let desc = |ms| tuple::encode(Format::Hex, &[Component::desc(Value::Ts(ms))]);
//! let rev = |ms| tuple::encode(Format::Hex, &[Component::asc(reverse(ms)?)]);
//! assert_eq!(desc(older)?, b"T7FFFFE74301A97FF");
//! assert_eq!(rev(older)?, b"lFFFFFE74301A97FF");
//! assert!(desc(newer)? < desc(older)?);
//! assert!(rev(newer)? < rev(older)?);
//!
//! // The binary keys differ in the top bit only.
//! let desc_bin = tuple::encode(Format::Binary, &[Component::desc(Value::Ts(older))])?;
//! let rev_bin = tuple::encode(Format::Binary, &[Component::asc(reverse(older)?)])?;
//! assert_eq!(desc_bin, b"\x7F\xFF\xFE\x74\x30\x1A\x97\xFF");
//! assert_eq!(rev_bin, b"\xFF\xFF\xFE\x74\x30\x1A\x97\xFF");
//!
//! // In `decimal` they do not even share digits.
//! let dec = |c| tuple::encode(Format::Decimal, &[c]);
//! assert_eq!(dec(Component::desc(Value::Ts(older)))?, b"-9999998299999999999");
//! assert_eq!(dec(Component::asc(reverse(older)?))?, b"09223370336854775807");
//!
//! // Reading them back.
//! let back = tuple::decode(Format::Hex, b"T7FFFFE74301A97FF", Some(&[Field::desc(Type::Ts)]))?;
//! assert_eq!(back[0].value, Value::Ts(older));
//! let back = tuple::decode(Format::Hex, b"lFFFFFE74301A97FF", Some(&[Field::asc(Type::I64)]))?;
//! assert_eq!(back[0].value, Value::I64(reverse(older)?));
//!
//! // Descending keys also cover timestamps before 1970; reverse numbers do not.
//! assert!(desc(-1)? > desc(0)?);
//! assert!(reverse(-1).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Time-ordered IDs go newest first the same way: `Component::desc(id)`
//! (there is no reverse-number form of a 128-bit ID).

use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::DecodeError;
use crate::value::{Component, Value};

/// The largest timestamp a ULID or UUIDv7 holds: `2⁴⁸ - 1` ms, in the year
/// 10889.
pub const MAX_MS: i64 = (1 << 48) - 1;

/// Why a time-ordered ID could not be built or generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TimeIdError {
    /// The timestamp is negative or does not fit in 48 bits.
    #[error("timestamp {ms} ms is outside the 48-bit range 0..={max} of a time-ordered ID", max = MAX_MS)]
    TimestampOutOfRange {
        /// The timestamp given (or read from the clock).
        ms: i64,
    },
    /// A random field wider than its slot (never silently truncated).
    #[error("{field} {value:#x} does not fit in {bits} bits")]
    RandomOutOfRange {
        /// The field: `random` (ULID), `rand_a` or `rand_b` (UUIDv7).
        field: &'static str,
        /// The value given.
        value: u128,
        /// The width of the field.
        bits: u32,
    },
    /// Every ID of the millisecond after the last one was used: the ULID
    /// random part or the UUIDv7 counter is all ones. The generator is
    /// unchanged; it succeeds again once the clock passes `ms`.
    #[error("{kind} generator overflow: no ID left in millisecond {ms} after the last one; retry in the next millisecond")]
    Overflow {
        /// `ULID` or `UUIDv7`.
        kind: &'static str,
        /// The millisecond that is exhausted.
        ms: i64,
    },
    /// A UUID that is not version 7 with the RFC 9562 variant.
    #[error("{value:#034x} is not a UUIDv7 (version 7, variant 0b10)")]
    NotUuid7 {
        /// The UUID given.
        value: u128,
    },
}

fn check_ms(ms: i64) -> Result<u128, TimeIdError> {
    if (0..=MAX_MS).contains(&ms) {
        Ok(ms as u128)
    } else {
        Err(TimeIdError::TimestampOutOfRange { ms })
    }
}

// ---------------------------------------------------------------- ULID --

/// Crockford's base32 alphabet, in ASCII (and value) order.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const INVALID: u8 = 0xFF;

/// Symbol values: the uppercase alphabet only (`strict`), or also lowercase
/// and Crockford's `I`/`L` → 1, `O` → 0 (`lenient`).
const fn decode_table(lenient: bool) -> [u8; 256] {
    let mut t = [INVALID; 256];
    let mut i = 0;
    while i < 32 {
        let c = ALPHABET[i];
        t[c as usize] = i as u8;
        if lenient {
            t[c.to_ascii_lowercase() as usize] = i as u8;
        }
        i += 1;
    }
    if lenient {
        t[b'I' as usize] = 1;
        t[b'i' as usize] = 1;
        t[b'L' as usize] = 1;
        t[b'l' as usize] = 1;
        t[b'O' as usize] = 0;
        t[b'o' as usize] = 0;
    }
    t
}

static STRICT: [u8; 256] = decode_table(false);
static LENIENT: [u8; 256] = decode_table(true);

const EXPECT_STRICT: &str = "an uppercase Crockford base32 symbol (0-9, A-Z without I, L, O, U)";
const EXPECT_LENIENT: &str = "a Crockford base32 symbol (0-9, A-Z without U, either case)";
const EXPECT_FIRST: &str = "a first symbol 0-7 (a larger one overflows 128 bits)";
const EXPECT_LEN: &str = "26 Crockford base32 symbols";

/// A ULID: 48 bits of Unix milliseconds, then 80 random bits.
///
/// Every `u128` is a ULID and `Ulid: Ord` is the `u128` order, which is
/// `(timestamp_ms, random)` order, the order of [`Ulid::encode`]'s text and
/// of the ID's key component ([`Ulid::component`]) in every format.
///
/// ```
/// use lexikey::kinds::timeid::Ulid;
/// let id = Ulid::from_parts(1_469_922_850_259, 0x2F8E_4A10_5C26_6D5B_3E9A)?;
/// assert_eq!(id.to_string(), "01ARZ3NDEK5Y74M42W4SPNPFMT");
/// assert_eq!(id.random(), 0x2F8E_4A10_5C26_6D5B_3E9A);
/// assert_eq!("01arz3ndek5y74m42w4spnpfmt".parse::<Ulid>()?, id);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ulid(pub u128);

impl Ulid {
    /// The length of a ULID's text.
    pub const ENCODED_LEN: usize = 26;
    /// The smallest ULID, `00000000000000000000000000`.
    pub const NIL: Ulid = Ulid(0);
    /// The largest ULID, `7ZZZZZZZZZZZZZZZZZZZZZZZZZ`.
    ///
    /// ```
    /// use lexikey::kinds::timeid::Ulid;
    /// assert_eq!(Ulid::MAX, Ulid(u128::MAX));
    /// assert_eq!(Ulid::MAX.to_string(), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    /// ```
    pub const MAX: Ulid = Ulid(u128::MAX);
    /// The largest random part, `2⁸⁰ - 1`.
    pub const MAX_RANDOM: u128 = (1 << 80) - 1;

    /// The ULID of a timestamp and a random part.
    ///
    /// # Errors
    /// [`TimeIdError::TimestampOutOfRange`] unless `0 <= ms <= MAX_MS`;
    /// [`TimeIdError::RandomOutOfRange`] if `random` needs more than 80 bits.
    pub fn from_parts(ms: i64, random: u128) -> Result<Ulid, TimeIdError> {
        let ms = check_ms(ms)?;
        if random > Ulid::MAX_RANDOM {
            return Err(TimeIdError::RandomOutOfRange {
                field: "random",
                value: random,
                bits: 80,
            });
        }
        Ok(Ulid(ms << 80 | random))
    }

    /// The timestamp: milliseconds since the Unix epoch (`0..=MAX_MS`).
    pub const fn timestamp_ms(self) -> i64 {
        (self.0 >> 80) as i64
    }

    /// The 80-bit random part.
    pub const fn random(self) -> u128 {
        self.0 & Ulid::MAX_RANDOM
    }

    /// The 26 ASCII symbols of the ULID (uppercase Crockford base32, the
    /// first symbol `0`–`7`).
    pub fn to_bytes(self) -> [u8; 26] {
        let mut out = [0u8; 26];
        for (i, o) in out.iter_mut().enumerate() {
            *o = ALPHABET[((self.0 >> (125 - 5 * i)) & 31) as usize];
        }
        out
    }

    /// The ULID's text: 26 uppercase Crockford base32 symbols (also what
    /// `Display` writes).
    ///
    /// ```
    /// use lexikey::kinds::timeid::Ulid;
    /// assert_eq!(Ulid(1).encode(), "00000000000000000000000001");
    /// assert_eq!(Ulid(1 << 80).encode(), "00000000010000000000000000");
    /// ```
    pub fn encode(self) -> String {
        let mut s = String::with_capacity(Ulid::ENCODED_LEN);
        self.encode_into(&mut s);
        s
    }

    /// Appends the ULID's text to `out`.
    pub fn encode_into(self, out: &mut String) {
        for b in self.to_bytes() {
            out.push(b as char);
        }
    }

    /// Parses a ULID leniently, as the ULID spec asks of decoders: either
    /// case, and Crockford's `I`/`i`/`L`/`l` read as `1`, `O`/`o` as `0`.
    /// The result is still exact: a first symbol above `7` (a value of 2¹²⁸
    /// or more) is refused, not wrapped. `FromStr` and `TryFrom<&str>` call
    /// this.
    ///
    /// ```
    /// use lexikey::kinds::timeid::Ulid;
    /// use lexikey::DecodeError;
    /// let id = Ulid::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV")?;
    /// assert_eq!(Ulid::parse("01arz3ndektsv4rrffq69g5fav")?, id);
    /// assert_eq!(Ulid::parse("0IARZ3NDEKTSV4RRFFQ69G5FAV")?, id);
    /// assert!(matches!(
    ///     Ulid::parse("8ZZZZZZZZZZZZZZZZZZZZZZZZZ"),
    ///     Err(DecodeError::InvalidSymbol { offset: 0, found: b'8', .. })
    /// ));
    /// # Ok::<(), DecodeError>(())
    /// ```
    ///
    /// # Errors
    /// - [`DecodeError::InvalidSymbol`] at the first byte that is not a
    ///   symbol, or at byte 0 when the first symbol is above `7`;
    /// - [`DecodeError::Truncated`] (offset = the input length) for fewer
    ///   than 26 bytes;
    /// - [`DecodeError::TrailingBytes`] (offset 26) for more.
    pub fn parse(text: &str) -> Result<Ulid, DecodeError> {
        decode_with(text.as_bytes(), &LENIENT, EXPECT_LENIENT)
    }

    /// Parses exactly the text [`Ulid::encode`] writes: 26 uppercase
    /// symbols, no substitutions. Every accepted text is canonical:
    /// `parse_strict(s)?.encode() == s`.
    ///
    /// ```
    /// use lexikey::kinds::timeid::Ulid;
    /// use lexikey::DecodeError;
    /// let s = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    /// assert_eq!(Ulid::parse_strict(s)?.encode(), s);
    /// let err = Ulid::parse_strict("01ARZ3NDEKTSV4RRFFQ69g5FAV").unwrap_err();
    /// assert_eq!(err.to_string(), "invalid byte 'g' (0x67) at byte 21: expected an uppercase \
    ///     Crockford base32 symbol (0-9, A-Z without I, L, O, U)");
    /// # Ok::<(), DecodeError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Ulid::parse`], with lowercase and `I`, `L`, `O` also invalid.
    pub fn parse_strict(text: &str) -> Result<Ulid, DecodeError> {
        Ulid::decode(text.as_bytes())
    }

    /// [`Ulid::parse_strict`] on bytes (a ULID read from a key).
    ///
    /// # Errors
    /// As [`Ulid::parse_strict`].
    pub fn decode(input: &[u8]) -> Result<Ulid, DecodeError> {
        decode_with(input, &STRICT, EXPECT_STRICT)
    }

    /// The ULID as an ascending key component ([`Value::Uuid`]).
    /// `Component::desc(id)` gives newest-first keys.
    ///
    /// ```
    /// use lexikey::kinds::timeid::Ulid;
    /// use lexikey::{tuple, Component, Format};
    /// let id = Ulid::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV")?;
    /// assert_eq!(tuple::encode(Format::Base64, &[id.component()])?, b"g-KNyDfMIpbOBNTytZk9xLk");
    /// assert_eq!(tuple::encode(Format::Hex, &[Component::desc(id)])?, b"GFEA9C1C54A2C2989B39E10466CFD42A4");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn component(self) -> Component<'static> {
        Component::asc(self)
    }

    /// The ULID in a decoded [`Value::Uuid`]; `None` for other values.
    pub fn from_value(value: &Value<'_>) -> Option<Ulid> {
        match *value {
            Value::Uuid(u) => Some(Ulid(u)),
            _ => None,
        }
    }
}

fn decode_with(
    input: &[u8],
    table: &[u8; 256],
    expected: &'static str,
) -> Result<Ulid, DecodeError> {
    let mut acc: u128 = 0;
    for (offset, &b) in input.iter().take(Ulid::ENCODED_LEN).enumerate() {
        let v = table[b as usize];
        if v == INVALID {
            return Err(DecodeError::InvalidSymbol {
                offset,
                found: b,
                expected,
            });
        }
        if offset == 0 && v > 7 {
            return Err(DecodeError::InvalidSymbol {
                offset,
                found: b,
                expected: EXPECT_FIRST,
            });
        }
        acc = acc << 5 | u128::from(v);
    }
    if input.len() < Ulid::ENCODED_LEN {
        return Err(DecodeError::Truncated {
            offset: input.len(),
            expected: EXPECT_LEN,
        });
    }
    if input.len() > Ulid::ENCODED_LEN {
        return Err(DecodeError::TrailingBytes {
            offset: Ulid::ENCODED_LEN,
        });
    }
    Ok(Ulid(acc))
}

impl fmt::Display for Ulid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.to_bytes();
        // The symbols are ASCII.
        f.write_str(std::str::from_utf8(&b).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Ulid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ulid({self})")
    }
}

impl FromStr for Ulid {
    type Err = DecodeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ulid::parse(s)
    }
}

impl TryFrom<&str> for Ulid {
    type Error = DecodeError;
    fn try_from(s: &str) -> Result<Self, Self::Error> {
        Ulid::parse(s)
    }
}

impl From<Ulid> for u128 {
    fn from(id: Ulid) -> u128 {
        id.0
    }
}

impl From<u128> for Ulid {
    fn from(u: u128) -> Ulid {
        Ulid(u)
    }
}

impl From<Ulid> for Value<'static> {
    /// A ULID is a [`Value::Uuid`]: its big-endian value sorts by time.
    fn from(id: Ulid) -> Self {
        Value::Uuid(id.0)
    }
}

/// With the `serde` feature: the text in human-readable formats (JSON…),
/// the `u128` otherwise — which [`crate::serde_key`] turns into a
/// [`Value::Uuid`] component.
#[cfg(feature = "serde")]
impl serde::Serialize for Ulid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_str(
                std::str::from_utf8(&self.to_bytes()).map_err(serde::ser::Error::custom)?,
            )
        } else {
            s.serialize_u128(self.0)
        }
    }
}

/// With the `serde` feature: the text (read by [`Ulid::parse`]) in
/// human-readable formats, the `u128` otherwise.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Ulid {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if d.is_human_readable() {
            let s = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
            Ulid::parse(&s).map_err(serde::de::Error::custom)
        } else {
            <u128 as serde::Deserialize>::deserialize(d).map(Ulid)
        }
    }
}

// ------------------------------------------------------------- UUIDv7 --

const VERSION_7: u128 = 0x7 << 76;
const VARIANT_RFC: u128 = 0b10 << 62;
const RAND_B_MAX: u64 = (1 << 62) - 1;

/// The UUIDv7 of a timestamp and its two random fields (RFC 9562 §5.7):
/// `unix_ts_ms` (48 bits) · `ver` = `0111` · `rand_a` (12) · `var` = `10` ·
/// `rand_b` (62).
///
/// ```
/// use lexikey::kinds::timeid::{uuid7, uuid7_timestamp};
/// use lexikey::value::literal::format_uuid;
/// // The test vector of RFC 9562, Appendix A.6.
/// let u = uuid7(0x017F22E279B0, 0xCC3, 0x18C4DC0C0C07398F)?;
/// let mut s = String::new();
/// format_uuid(u, &mut s);
/// assert_eq!(s, "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
/// assert_eq!(uuid7_timestamp(u), Some(1_645_557_742_000));
/// # Ok::<(), lexikey::kinds::timeid::TimeIdError>(())
/// ```
///
/// # Errors
/// [`TimeIdError::TimestampOutOfRange`] unless `0 <= ms <= MAX_MS`;
/// [`TimeIdError::RandomOutOfRange`] if `rand_a` needs more than 12 bits or
/// `rand_b` more than 62.
pub fn uuid7(ms: i64, rand_a: u16, rand_b: u64) -> Result<u128, TimeIdError> {
    let ms = check_ms(ms)?;
    if rand_a > 0xFFF {
        return Err(TimeIdError::RandomOutOfRange {
            field: "rand_a",
            value: rand_a.into(),
            bits: 12,
        });
    }
    if rand_b > RAND_B_MAX {
        return Err(TimeIdError::RandomOutOfRange {
            field: "rand_b",
            value: rand_b.into(),
            bits: 62,
        });
    }
    Ok(ms << 80 | VERSION_7 | u128::from(rand_a) << 64 | VARIANT_RFC | u128::from(rand_b))
}

/// Whether `u` is a UUIDv7: version `7`, variant `10`.
pub const fn is_uuid7(u: u128) -> bool {
    (u >> 76) & 0xF == 7 && (u >> 62) & 0b11 == 0b10
}

/// The timestamp (ms since the Unix epoch) of a UUIDv7; `None` if `u` is
/// not a UUIDv7 (see [`is_uuid7`]).
///
/// ```
/// use lexikey::kinds::timeid::uuid7_timestamp;
/// assert_eq!(uuid7_timestamp(0x017F22E2_79B0_7CC3_98C4_DC0C0C07398F), Some(1_645_557_742_000));
/// assert_eq!(uuid7_timestamp(0x017F22E2_79B0_4CC3_98C4_DC0C0C07398F), None); // version 4
/// ```
pub const fn uuid7_timestamp(u: u128) -> Option<i64> {
    if is_uuid7(u) {
        Some((u >> 80) as i64)
    } else {
        None
    }
}

/// The fields `(ms, rand_a, rand_b)` of a UUIDv7, the inverse of [`uuid7`];
/// `None` if `u` is not a UUIDv7.
pub const fn uuid7_parts(u: u128) -> Option<(i64, u16, u64)> {
    if is_uuid7(u) {
        Some((
            (u >> 80) as i64,
            ((u >> 64) & 0xFFF) as u16,
            (u as u64) & RAND_B_MAX,
        ))
    } else {
        None
    }
}

// --------------------------------------------------------- generators --

/// A source of milliseconds since the Unix epoch. Any `FnMut() -> i64` is
/// one, so a test can drive a generator with a fixed or scripted clock.
pub trait Clock {
    /// The current time in milliseconds since the Unix epoch.
    fn now_ms(&mut self) -> i64;
}

impl<F: FnMut() -> i64> Clock for F {
    fn now_ms(&mut self) -> i64 {
        self()
    }
}

/// The system clock ([`SystemTime::now`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&mut self) -> i64 {
        match SystemTime::now().duration_since(UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_millis()).unwrap_or(i64::MAX),
            Err(e) => -i64::try_from(e.duration().as_millis()).unwrap_or(i64::MAX),
        }
    }
}

/// A source of random `u64`s. Any `FnMut() -> u64` is one — wrap a
/// cryptographic generator this way when IDs must be unguessable.
pub trait RandomSource {
    /// The next random number.
    fn next_u64(&mut self) -> u64;
}

impl<F: FnMut() -> u64> RandomSource for F {
    fn next_u64(&mut self) -> u64 {
        self()
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a fast 64-bit generator with a
/// 2⁶⁴ period that passes BigCrush. **Not cryptographic**: a few outputs
/// reveal the state, so generated IDs can be predicted. It exists so that
/// lexikey needs no `rand` dependency.
///
/// ```
/// use lexikey::kinds::timeid::{RandomSource, SplitMix64};
/// let mut r = SplitMix64::new(0);
/// assert_eq!(r.next_u64(), 0xE220A8397B1DCDAF);
/// ```
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator with a fixed seed (reproducible output).
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// A generator seeded from the system time, a process-wide counter and
    /// std's randomly keyed [`RandomState`] (which the OS seeds), so two
    /// generators — in one process or in two — start apart.
    pub fn from_entropy() -> Self {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let mut h = RandomState::new().build_hasher();
        h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
        if let Ok(d) = SystemTime::now().duration_since(UNIX_EPOCH) {
            h.write_u128(d.as_nanos());
        }
        SplitMix64::new(h.finish())
    }
}

impl RandomSource for SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A monotonic ULID generator.
///
/// [`UlidGenerator::generate`], in steps:
/// 1. read the clock: `ms` (outside `0..=MAX_MS` →
///    [`TimeIdError::TimestampOutOfRange`]);
/// 2. if the last ID's timestamp is `>= ms` (the same millisecond, or the
///    clock stepped back): return the last ID + 1 — its timestamp, its
///    random part incremented. If the random part is already all ones,
///    return [`TimeIdError::Overflow`] and keep the state (never wrap: a
///    wrapped ID would sort before the ones already handed out);
/// 3. otherwise return `ms` with 80 fresh random bits;
/// 4. remember the ID.
///
/// So IDs strictly increase, and a clock that steps back cannot make an ID
/// repeat or sort before an earlier one. Within a millisecond the IDs after
/// the first are predictable (+1), as the ULID spec's monotonic mode is.
///
/// ```
/// use lexikey::kinds::timeid::{TimeIdError, Ulid, UlidGenerator};
/// let mut g = UlidGenerator::with_sources(|| 42_i64, || u64::MAX);
/// let first = g.generate()?;
/// assert_eq!(first, Ulid::from_parts(42, Ulid::MAX_RANDOM)?);
/// assert_eq!(g.generate(), Err(TimeIdError::Overflow { kind: "ULID", ms: 42 }));
/// # Ok::<(), TimeIdError>(())
/// ```
pub struct UlidGenerator<C = SystemClock, R = SplitMix64> {
    clock: C,
    rng: R,
    last: Option<Ulid>,
}

impl UlidGenerator {
    /// A generator on the system clock and a [`SplitMix64`] seeded by
    /// [`SplitMix64::from_entropy`].
    pub fn new() -> Self {
        UlidGenerator::with_sources(SystemClock, SplitMix64::from_entropy())
    }
}

impl Default for UlidGenerator {
    fn default() -> Self {
        UlidGenerator::new()
    }
}

impl<C: Clock, R: RandomSource> UlidGenerator<C, R> {
    /// A generator on the given clock and random source.
    pub fn with_sources(clock: C, rng: R) -> Self {
        UlidGenerator {
            clock,
            rng,
            last: None,
        }
    }

    /// The same generator, continuing after `last` (say the newest ID in
    /// the store, after a restart): every ID it returns is greater.
    pub fn resume_after(mut self, last: Ulid) -> Self {
        self.last = Some(last);
        self
    }

    /// The last ID returned (or given to [`UlidGenerator::resume_after`]).
    pub fn last(&self) -> Option<Ulid> {
        self.last
    }

    /// The next ID: greater than every ID this generator returned before.
    ///
    /// # Errors
    /// [`TimeIdError::TimestampOutOfRange`] for a clock outside
    /// `0..=MAX_MS`; [`TimeIdError::Overflow`] when the millisecond of the
    /// last ID has no ID left after it.
    pub fn generate(&mut self) -> Result<Ulid, TimeIdError> {
        let ms = self.clock.now_ms();
        check_ms(ms)?;
        let id = match self.last {
            Some(last) if last.timestamp_ms() >= ms => {
                if last.random() == Ulid::MAX_RANDOM {
                    return Err(TimeIdError::Overflow {
                        kind: "ULID",
                        ms: last.timestamp_ms(),
                    });
                }
                Ulid(last.0 + 1)
            }
            _ => {
                let hi = u128::from(self.rng.next_u64() & 0xFFFF);
                let lo = u128::from(self.rng.next_u64());
                Ulid::from_parts(ms, hi << 64 | lo)?
            }
        };
        self.last = Some(id);
        Ok(id)
    }
}

impl<C, R> fmt::Debug for UlidGenerator<C, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UlidGenerator")
            .field("last", &self.last)
            .finish_non_exhaustive()
    }
}

/// The width of [`Uuid7Generator`]'s counter: `rand_a` and the top 30 bits
/// of `rand_b`.
const COUNTER_BITS: u32 = 42;
const COUNTER_MAX: u64 = (1 << COUNTER_BITS) - 1;

/// A monotonic UUIDv7 generator: RFC 9562 §6.2 **Method 1** (a fixed
/// bit-length dedicated counter), with a 42-bit counter in `rand_a` (12
/// bits) and the leftmost 30 bits of `rand_b`, followed by 32 random bits.
///
/// [`Uuid7Generator::generate`], in steps:
/// 1. read the clock: `ms` (outside `0..=MAX_MS` →
///    [`TimeIdError::TimestampOutOfRange`]);
/// 2. if the last ID's timestamp is `>= ms` (the same millisecond, or the
///    clock stepped back), keep that timestamp and increment the counter;
///    a counter that is all ones is [`TimeIdError::Overflow`] (the state is
///    kept, and no ID wraps);
/// 3. otherwise take `ms` and seed the counter with 41 random bits, its
///    leftmost bit zero — the RFC's rollover guard, leaving at least 2⁴¹
///    increments in each millisecond;
/// 4. fill the last 32 bits of `rand_b` with fresh random bits, set the
///    version and variant, and remember the ID.
///
/// The counter sits above the random tail, so IDs strictly increase. Method
/// 3 (sub-millisecond clock bits in `rand_a`) was not chosen: it needs a
/// finer clock than every platform has and still needs a counter when two
/// IDs share a clock reading.
///
/// ```
/// use lexikey::kinds::timeid::{uuid7_parts, Uuid7Generator};
/// let mut g = Uuid7Generator::with_sources(|| 1_645_557_742_000_i64, || 0_u64);
/// let (a, b) = (g.generate()?, g.generate()?);
/// assert_eq!(uuid7_parts(a), Some((1_645_557_742_000, 0, 0)));
/// assert_eq!(uuid7_parts(b), Some((1_645_557_742_000, 0, 1 << 32))); // counter + 1
/// # Ok::<(), lexikey::kinds::timeid::TimeIdError>(())
/// ```
pub struct Uuid7Generator<C = SystemClock, R = SplitMix64> {
    clock: C,
    rng: R,
    /// The last ID's timestamp and counter.
    last: Option<(i64, u64)>,
}

impl Uuid7Generator {
    /// A generator on the system clock and a [`SplitMix64`] seeded by
    /// [`SplitMix64::from_entropy`].
    pub fn new() -> Self {
        Uuid7Generator::with_sources(SystemClock, SplitMix64::from_entropy())
    }
}

impl Default for Uuid7Generator {
    fn default() -> Self {
        Uuid7Generator::new()
    }
}

impl<C: Clock, R: RandomSource> Uuid7Generator<C, R> {
    /// A generator on the given clock and random source.
    pub fn with_sources(clock: C, rng: R) -> Self {
        Uuid7Generator {
            clock,
            rng,
            last: None,
        }
    }

    /// The same generator, continuing after the UUIDv7 `last` (say the
    /// newest ID in the store, after a restart): every ID it returns is
    /// greater.
    ///
    /// # Errors
    /// [`TimeIdError::NotUuid7`] if `last` is not a UUIDv7.
    pub fn resume_after(mut self, last: u128) -> Result<Self, TimeIdError> {
        let (ms, rand_a, rand_b) =
            uuid7_parts(last).ok_or(TimeIdError::NotUuid7 { value: last })?;
        self.last = Some((ms, u64::from(rand_a) << 30 | rand_b >> 32));
        Ok(self)
    }

    /// The next UUIDv7: greater than every ID this generator returned
    /// before.
    ///
    /// # Errors
    /// [`TimeIdError::TimestampOutOfRange`] for a clock outside
    /// `0..=MAX_MS`; [`TimeIdError::Overflow`] when the counter of the last
    /// ID's millisecond is exhausted.
    pub fn generate(&mut self) -> Result<u128, TimeIdError> {
        let now = self.clock.now_ms();
        check_ms(now)?;
        let (ms, counter) = match self.last {
            Some((ms, counter)) if ms >= now => {
                if counter == COUNTER_MAX {
                    return Err(TimeIdError::Overflow { kind: "UUIDv7", ms });
                }
                (ms, counter + 1)
            }
            _ => (now, self.rng.next_u64() & (COUNTER_MAX >> 1)),
        };
        let tail = self.rng.next_u64() & 0xFFFF_FFFF;
        let id = uuid7(
            ms,
            (counter >> 30) as u16,
            (counter & ((1 << 30) - 1)) << 32 | tail,
        )?;
        self.last = Some((ms, counter));
        Ok(id)
    }
}

impl<C, R> fmt::Debug for Uuid7Generator<C, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Uuid7Generator")
            .field("last", &self.last)
            .finish_non_exhaustive()
    }
}
