//! The FoundationDB tuple layer, byte for byte.
//!
//! Keys written by the official bindings (`fdb.tuple.pack` in Python,
//! `Tuple.pack()` in Java, `tuple.Tuple.Pack` in Go) decode here, and keys
//! packed here decode there. The layout is the one of FoundationDB's
//! `design/tuple.md`:
//!
//! | element | code | body |
//! |---|---|---|
//! | [`Element::Null`] | `00` | nothing (`00 FF` inside a nested tuple) |
//! | [`Element::Bytes`] | `01` | bytes with `00` escaped as `00 FF`, then `00` |
//! | [`Element::String`] | `02` | UTF-8, escaped and terminated like bytes |
//! | [`Element::Nested`] | `05` | the elements, then `00` |
//! | [`Element::Int`], 9–255 bytes, negative | `0B` | length XOR `FF`, one's complement of the magnitude |
//! | [`Element::Int`], 1–8 bytes, negative | `0C`–`13` | one's complement of the magnitude (`13` = 1 byte) |
//! | [`Element::Int`] zero | `14` | nothing |
//! | [`Element::Int`], 1–8 bytes, positive | `15`–`1C` | big-endian magnitude (`15` = 1 byte) |
//! | [`Element::Int`], 9–255 bytes, positive | `1D` | length, big-endian magnitude |
//! | [`Element::Float`] | `20` | 4 bytes: IEEE bits, sign bit flipped if clear, else all bits flipped |
//! | [`Element::Double`] | `21` | 8 bytes, the same transform |
//! | [`Element::Bool`] | `26` / `27` | nothing (`false`, `true`) |
//! | [`Element::Uuid`] | `30` | 16 bytes, RFC 4122 network order |
//! | [`Element::Versionstamp`] | `33` | 12 bytes (10 transaction version, 2 user version) |
//!
//! # Order
//!
//! [`Element`]'s [`Ord`] is the order of packed keys, and `Vec<Element>`'s
//! (lexicographic, a prefix first) is the order of packed tuples:
//!
//! > `a.cmp(&b) == pack(&a).cmp(&pack(&b))` for any tuples `a`, `b`.
//!
//! Elements of different types order by type code (null < bytes < string <
//! nested < integers < float < double < false < true < UUID < versionstamp);
//! integers by value whatever their size; floats as FDB does: by the
//! transformed bits, which is IEEE-754 `totalOrder` — negative NaNs (by
//! payload) < −inf < … < −0.0 < +0.0 < … < +inf < positive NaNs (by payload).
//! NaNs are **not** canonicalized (unlike lexikey's own formats): every NaN
//! keeps its bits, and two floats are equal exactly when their bits are.
//!
//! # Canonical decoding
//!
//! [`unpack`] accepts exactly the keys [`pack`] writes, so
//! `pack(unpack(k)?) == k`. It rejects, each with the offset of the byte at
//! fault: unknown or deprecated type codes (`03`, `04`, `25`, …), a missing
//! `00` terminator, integers written with more bytes than they need
//! (`16 00 05`, `13 FF`), big-integer codes for values that fit 8 bytes,
//! invalid UTF-8 in strings, and nesting deeper than [`MAX_DEPTH`].
//!
//! One binding quirk: Python's `fdb.tuple` writes exactly ±(2^64−1) with the
//! big-integer codes (`1D 08 FF…FF`, `0B F7 00…00`), while Java (and this
//! module) write `1C FF…FF` and `0C 00…00`. [`unpack`] rejects the Python
//! form as non-canonical; [`unpack_lenient`] accepts it.
//!
//! ```
//! use lexikey::interop::fdb::{pack_to_vec, unpack, Element};
//! let t = vec![Element::from("F\u{d4}O\0bar"), Element::from(-5_551_212_i64)];
//! let key = pack_to_vec(&t);
//! assert_eq!(key, b"\x02F\xc3\x94O\x00\xffbar\x00\x11\xabK\x93");
//! assert_eq!(unpack(&key)?, t);
//! # Ok::<(), lexikey::DecodeError>(())
//! ```

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use crate::error::DecodeError;
use crate::order::{self, NanRule};
use crate::value::literal::{push_escaped_element, split_elements, unescape_element};
use crate::value::ParseError;

/// Type code of [`Element::Null`].
pub const NULL: u8 = 0x00;
/// Type code of [`Element::Bytes`].
pub const BYTES: u8 = 0x01;
/// Type code of [`Element::String`].
pub const STRING: u8 = 0x02;
/// Type code of [`Element::Nested`].
pub const NESTED: u8 = 0x05;
/// Type code of negative integers of 9 to 255 bytes.
pub const NEG_INT_BIG: u8 = 0x0B;
/// Type code of the integer zero; `INT_ZERO ± n` holds an `n`-byte integer.
pub const INT_ZERO: u8 = 0x14;
/// Type code of positive integers of 9 to 255 bytes.
pub const POS_INT_BIG: u8 = 0x1D;
/// Type code of [`Element::Float`].
pub const FLOAT: u8 = 0x20;
/// Type code of [`Element::Double`].
pub const DOUBLE: u8 = 0x21;
/// Type code of `Element::Bool(false)`.
pub const FALSE: u8 = 0x26;
/// Type code of `Element::Bool(true)`.
pub const TRUE: u8 = 0x27;
/// Type code of [`Element::Uuid`].
pub const UUID: u8 = 0x30;
/// Type code of [`Element::Versionstamp`] (96-bit).
pub const VERSIONSTAMP: u8 = 0x33;

/// The deepest nesting of tuples [`unpack`] accepts (the outer tuple is
/// level 0). Deeper keys are rejected so that hostile input cannot exhaust
/// the stack.
pub const MAX_DEPTH: usize = 100;

const EXPECTED_CODE: &str = "an FDB tuple type code (00-02, 05, 0B-1D, 20, 21, 26, 27, 30, 33)";

/// One element of a FoundationDB tuple.
///
/// `Ord`, `Eq` and `Hash` follow the packed bytes (see the module docs):
/// floats compare by their bits through FDB's order transform, so
/// `Element::Double(f64::NAN) == Element::Double(f64::NAN)` and
/// `-0.0 < +0.0`.
#[derive(Debug, Clone)]
pub enum Element {
    /// `None` / `null`.
    Null,
    /// A byte string.
    Bytes(Vec<u8>),
    /// A Unicode string.
    String(String),
    /// A nested tuple.
    Nested(Vec<Element>),
    /// An integer of up to 255 bytes of magnitude.
    Int(Int),
    /// A 32-bit float (Python `SingleFloat`, Java `Float`).
    Float(f32),
    /// A 64-bit float.
    Double(f64),
    /// A boolean.
    Bool(bool),
    /// A UUID, RFC 4122 byte order.
    Uuid([u8; 16]),
    /// A 96-bit versionstamp.
    Versionstamp(Versionstamp),
}

impl Element {
    /// The type code this element is packed with.
    ///
    /// ```
    /// use lexikey::interop::fdb::Element;
    /// assert_eq!(Element::from(-1_i64).code(), 0x13);
    /// assert_eq!(Element::Bool(true).code(), 0x27);
    /// ```
    pub fn code(&self) -> u8 {
        match self {
            Element::Null => NULL,
            Element::Bytes(_) => BYTES,
            Element::String(_) => STRING,
            Element::Nested(_) => NESTED,
            Element::Int(i) => i.code(),
            Element::Float(_) => FLOAT,
            Element::Double(_) => DOUBLE,
            Element::Bool(false) => FALSE,
            Element::Bool(true) => TRUE,
            Element::Uuid(_) => UUID,
            Element::Versionstamp(_) => VERSIONSTAMP,
        }
    }

    /// The rank of the element's type in the cross-type order (integers of
    /// every size share one rank).
    fn rank(&self) -> u8 {
        match self {
            Element::Int(_) => INT_ZERO,
            Element::Bool(_) => FALSE,
            e => e.code(),
        }
    }
}

impl PartialEq for Element {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Element {}

impl PartialOrd for Element {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Element {
    fn cmp(&self, other: &Self) -> Ordering {
        use Element as E;
        match (self, other) {
            (E::Null, E::Null) => Ordering::Equal,
            (E::Bytes(a), E::Bytes(b)) => a.cmp(b),
            (E::String(a), E::String(b)) => a.cmp(b),
            (E::Nested(a), E::Nested(b)) => a.cmp(b),
            (E::Int(a), E::Int(b)) => a.cmp(b),
            (E::Float(a), E::Float(b)) => float_bits(*a).cmp(&float_bits(*b)),
            (E::Double(a), E::Double(b)) => double_bits(*a).cmp(&double_bits(*b)),
            (E::Bool(a), E::Bool(b)) => a.cmp(b),
            (E::Uuid(a), E::Uuid(b)) => a.cmp(b),
            (E::Versionstamp(a), E::Versionstamp(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl Hash for Element {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.rank().hash(state);
        match self {
            Element::Null => {}
            Element::Bytes(b) => b.hash(state),
            Element::String(s) => s.hash(state),
            Element::Nested(v) => v.hash(state),
            Element::Int(i) => i.hash(state),
            Element::Float(f) => f.to_bits().hash(state),
            Element::Double(f) => f.to_bits().hash(state),
            Element::Bool(b) => b.hash(state),
            Element::Uuid(u) => u.hash(state),
            Element::Versionstamp(v) => v.hash(state),
        }
    }
}

impl From<&str> for Element {
    fn from(s: &str) -> Self {
        Element::String(s.to_string())
    }
}

impl From<String> for Element {
    fn from(s: String) -> Self {
        Element::String(s)
    }
}

impl From<&[u8]> for Element {
    fn from(b: &[u8]) -> Self {
        Element::Bytes(b.to_vec())
    }
}

impl From<Vec<u8>> for Element {
    fn from(b: Vec<u8>) -> Self {
        Element::Bytes(b)
    }
}

impl From<bool> for Element {
    fn from(b: bool) -> Self {
        Element::Bool(b)
    }
}

impl From<f32> for Element {
    fn from(f: f32) -> Self {
        Element::Float(f)
    }
}

impl From<f64> for Element {
    fn from(f: f64) -> Self {
        Element::Double(f)
    }
}

impl From<Int> for Element {
    fn from(i: Int) -> Self {
        Element::Int(i)
    }
}

impl From<Vec<Element>> for Element {
    fn from(v: Vec<Element>) -> Self {
        Element::Nested(v)
    }
}

macro_rules! element_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Element {
            fn from(i: $t) -> Self {
                Element::Int(Int::from(i))
            }
        }
    )*};
}
element_from_int!(i8, i16, i32, i64, i128, u8, u16, u32, u64, u128);

/// A 96-bit versionstamp: a 10-byte transaction version (8-byte commit
/// version, 2-byte batch order) and a 2-byte user version, big-endian.
/// Orders by its bytes, as packed.
///
/// Packing writes the 12 bytes as they are. An *incomplete* versionstamp
/// (transaction version all `FF`, as [`Versionstamp::incomplete`] makes it)
/// is a placeholder for the database to fill in at commit through
/// `SET_VERSIONSTAMPED_KEY`: [`pack_with_versionstamp`] packs a tuple
/// holding one, with the placeholder's offset appended as that mutation
/// wants it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Versionstamp(pub [u8; 12]);

impl Versionstamp {
    /// The length of a packed versionstamp's body.
    pub const LEN: usize = 12;

    /// An incomplete versionstamp: the transaction version all `FF` (the
    /// database writes the real one at commit), then `user_version`.
    ///
    /// ```
    /// use lexikey::interop::fdb::Versionstamp;
    /// let v = Versionstamp::incomplete(5);
    /// assert_eq!(v.0, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 5]);
    /// assert!(!v.is_complete());
    /// ```
    pub fn incomplete(user_version: u16) -> Versionstamp {
        Versionstamp::new([0xFF; 10], user_version)
    }

    /// A versionstamp from its transaction version and user version.
    ///
    /// ```
    /// use lexikey::interop::fdb::Versionstamp;
    /// let v = Versionstamp::new([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 657);
    /// assert_eq!(v.0, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x02, 0x91]);
    /// assert_eq!(v.user_version(), 657);
    /// ```
    pub fn new(tr_version: [u8; 10], user_version: u16) -> Versionstamp {
        let mut b = [0; 12];
        b[..10].copy_from_slice(&tr_version);
        b[10..].copy_from_slice(&user_version.to_be_bytes());
        Versionstamp(b)
    }

    /// The 10-byte transaction version.
    pub fn tr_version(&self) -> [u8; 10] {
        let mut t = [0; 10];
        t.copy_from_slice(&self.0[..10]);
        t
    }

    /// The 2-byte user version.
    pub fn user_version(&self) -> u16 {
        u16::from_be_bytes([self.0[10], self.0[11]])
    }

    /// Whether the transaction version is set (not all `FF`).
    pub fn is_complete(&self) -> bool {
        self.0[..10].iter().any(|&b| b != 0xFF)
    }
}

/// An integer of up to 255 bytes of magnitude, as the tuple layer stores
/// it: a sign and a big-endian magnitude without leading zeros (zero is
/// the empty, non-negative magnitude). The representation is unique, so
/// the derived `Eq` and `Hash` are value equality.
///
/// `Ord` is numeric order.
///
/// ```
/// use lexikey::interop::fdb::Int;
/// let big: Int = "-18446744073709551616".parse()?; // -(2^64)
/// assert!(big.is_negative());
/// assert_eq!(big.magnitude(), &[1, 0, 0, 0, 0, 0, 0, 0, 0]);
/// assert_eq!(big.to_i64(), None);
/// assert_eq!(big.to_string(), "-18446744073709551616");
/// assert_eq!(Int::from(u64::MAX).to_u64(), Some(u64::MAX));
/// # Ok::<(), lexikey::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Int {
    negative: bool,
    magnitude: Vec<u8>,
}

impl Int {
    /// The largest magnitude, in bytes, the tuple layer can hold.
    pub const MAX_BYTES: usize = 255;

    /// An integer from a sign and a big-endian magnitude (leading zero bytes
    /// are dropped; a zero magnitude is zero whatever `negative` says).
    /// `None` when the magnitude needs more than [`Int::MAX_BYTES`] bytes.
    pub fn from_sign_magnitude(negative: bool, magnitude: &[u8]) -> Option<Int> {
        let first = magnitude
            .iter()
            .position(|&b| b != 0)
            .unwrap_or(magnitude.len());
        let magnitude = &magnitude[first..];
        if magnitude.len() > Self::MAX_BYTES {
            return None;
        }
        Some(Int {
            negative: negative && !magnitude.is_empty(),
            magnitude: magnitude.to_vec(),
        })
    }

    /// Whether the integer is below zero.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// The big-endian magnitude, without leading zeros (empty for zero).
    pub fn magnitude(&self) -> &[u8] {
        &self.magnitude
    }

    /// The value as an `i128`, if it fits.
    pub fn to_i128(&self) -> Option<i128> {
        if self.magnitude.len() > 16 {
            return None;
        }
        let m = self
            .magnitude
            .iter()
            .fold(0u128, |a, &b| a << 8 | u128::from(b));
        if self.negative {
            if m <= 1 << 127 {
                Some((m as i128).wrapping_neg())
            } else {
                None
            }
        } else {
            i128::try_from(m).ok()
        }
    }

    /// The value as an `i64`, if it fits.
    pub fn to_i64(&self) -> Option<i64> {
        self.to_i128().and_then(|v| i64::try_from(v).ok())
    }

    /// The value as a `u64`, if it fits.
    pub fn to_u64(&self) -> Option<u64> {
        self.to_i128().and_then(|v| u64::try_from(v).ok())
    }

    /// The type code of the packed integer.
    fn code(&self) -> u8 {
        let n = self.magnitude.len();
        match (self.negative, n) {
            (_, 0) => INT_ZERO,
            (false, 1..=8) => INT_ZERO + n as u8,
            (true, 1..=8) => INT_ZERO - n as u8,
            (false, _) => POS_INT_BIG,
            (true, _) => NEG_INT_BIG,
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        let n = self.magnitude.len();
        out.push(self.code());
        if n > 8 {
            // n <= MAX_BYTES (255) is an invariant of Int.
            let len = n as u8;
            out.push(if self.negative { !len } else { len });
        }
        if self.negative {
            out.extend(self.magnitude.iter().map(|b| !b));
        } else {
            out.extend_from_slice(&self.magnitude);
        }
    }
}

impl Ord for Int {
    fn cmp(&self, other: &Self) -> Ordering {
        let mag = || {
            self.magnitude
                .len()
                .cmp(&other.magnitude.len())
                .then_with(|| self.magnitude.cmp(&other.magnitude))
        };
        match (self.negative, other.negative) {
            (false, false) => mag(),
            (true, true) => mag().reverse(),
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

macro_rules! int_from_unsigned {
    ($($t:ty),*) => {$(
        impl From<$t> for Int {
            fn from(v: $t) -> Self {
                Int::from_unsigned(false, u128::from(v))
            }
        }
    )*};
}
int_from_unsigned!(u8, u16, u32, u64, u128);

macro_rules! int_from_signed {
    ($($t:ty),*) => {$(
        impl From<$t> for Int {
            fn from(v: $t) -> Self {
                Int::from_unsigned(v < 0, i128::from(v).unsigned_abs())
            }
        }
    )*};
}
int_from_signed!(i8, i16, i32, i64, i128);

impl Int {
    /// Sets the integer to `v`, reusing the magnitude's buffer (no
    /// allocation once it holds 8 bytes).
    pub(crate) fn set_i64(&mut self, v: i64) {
        let m = v.unsigned_abs().to_be_bytes();
        let first = m.iter().position(|&b| b != 0).unwrap_or(8);
        self.negative = v < 0;
        self.magnitude.clear();
        self.magnitude.extend_from_slice(&m[first..]);
    }

    fn from_unsigned(negative: bool, m: u128) -> Int {
        let bytes = m.to_be_bytes();
        let first = bytes.iter().position(|&b| b != 0).unwrap_or(16);
        Int {
            negative: negative && m != 0,
            magnitude: bytes[first..].to_vec(),
        }
    }

    /// Parses a decimal integer (optional `-`, digits, no leading zeros
    /// except `0` itself, no `-0`).
    ///
    /// # Errors
    /// A [`ParseError`] for bad syntax or a magnitude over 255 bytes.
    pub fn parse(text: &str) -> Result<Int, ParseError> {
        let err = |why: &str| ParseError::new(format!("invalid integer {text:?}: {why}"));
        let (negative, digits) = match text.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, text),
        };
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(err("expected decimal digits with an optional leading '-'"));
        }
        if digits.len() > 1 && digits.starts_with('0') {
            return Err(err("leading zero"));
        }
        if negative && digits == "0" {
            return Err(err("-0 is written 0"));
        }
        // 255 bytes hold at most 615 decimal digits.
        if digits.len() > 620 {
            return Err(err("more than 255 bytes of magnitude"));
        }
        let mut mag: Vec<u8> = Vec::new();
        for d in digits.bytes() {
            let mut carry = u32::from(d - b'0');
            for b in mag.iter_mut().rev() {
                let v = u32::from(*b) * 10 + carry;
                *b = v as u8;
                carry = v >> 8;
            }
            while carry > 0 {
                mag.insert(0, carry as u8);
                carry >>= 8;
            }
        }
        Int::from_sign_magnitude(negative, &mag)
            .ok_or_else(|| err("more than 255 bytes of magnitude"))
    }
}

impl std::str::FromStr for Int {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Int::parse(s)
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(v) = self.to_i128() {
            return write!(f, "{v}");
        }
        let mut s = String::new();
        write_magnitude_decimal(self.negative, &self.magnitude, &mut s);
        f.write_str(&s)
    }
}

/// Writes the integer of a sign and a big-endian magnitude of any length
/// in decimal (a zero magnitude is `0`, whatever the sign).
pub(crate) fn write_magnitude_decimal(negative: bool, magnitude: &[u8], out: &mut String) {
    use fmt::Write as _;
    // Repeated division by 10^19 of the base-256 magnitude.
    let mut mag = magnitude.to_vec();
    let mut chunks: Vec<u64> = Vec::new();
    const CHUNK: u128 = 10_000_000_000_000_000_000;
    while mag.iter().any(|&b| b != 0) {
        let mut rem: u128 = 0;
        for b in mag.iter_mut() {
            let cur = rem << 8 | u128::from(*b);
            *b = (cur / CHUNK) as u8;
            rem = cur % CHUNK;
        }
        chunks.push(rem as u64);
    }
    if chunks.is_empty() {
        out.push('0');
        return;
    }
    if negative {
        out.push('-');
    }
    let mut it = chunks.iter().rev();
    if let Some(first) = it.next() {
        let _ = write!(out, "{first}");
    }
    for c in it {
        let _ = write!(out, "{c:019}");
    }
}

/// FDB's order transform of an `f32`'s bits: flip the sign bit of a
/// non-negative float, every bit of a negative one (NaNs keep their bits).
///
/// ```
/// use lexikey::interop::fdb::float_bits;
/// assert_eq!(float_bits(-42.0), 0x3dd7ffff); // the spec's `pack(-42f)`
/// assert_eq!(float_bits(0.0), 0x8000_0000);
/// ```
pub fn float_bits(f: f32) -> u32 {
    order::f32_to_order(f, NanRule::Keep)
}

/// The inverse of [`float_bits`].
pub fn float_from_bits(b: u32) -> f32 {
    f32::from_bits(order::ieee_bits_32(b))
}

/// FDB's order transform of an `f64`'s bits (see [`float_bits`]).
pub fn double_bits(f: f64) -> u64 {
    order::f64_to_order(f, NanRule::Keep)
}

/// The inverse of [`double_bits`].
pub fn double_from_bits(b: u64) -> f64 {
    f64::from_bits(order::ieee_bits_64(b))
}

/// Appends the packed tuple to `out`.
///
/// Every tuple can be packed; integers are bounded by [`Int`]'s invariant
/// and incomplete versionstamps are written as they are (see
/// [`Versionstamp`]). Keys of tuples nested deeper than [`MAX_DEPTH`] pack
/// but do not [`unpack`].
///
/// ```
/// use lexikey::interop::fdb::{pack, Element};
/// let mut key = b"prefix".to_vec();
/// pack(&[Element::Nested(vec![Element::Null, Element::from("hello")])], &mut key);
/// assert_eq!(key, b"prefix\x05\x00\xff\x02hello\x00\x00");
/// ```
pub fn pack(tuple: &[Element], out: &mut Vec<u8>) {
    let mut stamps = Stamps::default();
    for e in tuple {
        write_element(e, false, out, &mut stamps);
    }
}

/// Why [`pack_with_versionstamp`] cannot pack a tuple.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VersionstampError {
    /// The tuple holds no incomplete versionstamp.
    #[error(
        "no incomplete versionstamp in the tuple: a versionstamped key needs exactly one \
         (transaction version ffffffffffffffffffff)"
    )]
    Missing,
    /// The tuple holds more than one incomplete versionstamp.
    #[error(
        "two incomplete versionstamps in one tuple (at byte {first} and byte {second}): a \
         versionstamped key takes exactly one"
    )]
    Multiple {
        /// Offset in the key of the first one's type code.
        first: usize,
        /// Offset in the key of the second one's type code.
        second: usize,
    },
    /// The placeholder starts beyond what the 4-byte offset can say.
    #[error("the incomplete versionstamp starts at byte {offset}: beyond a 4-byte offset")]
    OffsetTooLarge {
        /// Offset in the key of the placeholder's transaction version.
        offset: usize,
    },
}

/// Packs a tuple holding exactly one incomplete versionstamp (at any
/// depth) for FoundationDB's `SET_VERSIONSTAMPED_KEY`: the packed tuple,
/// then the offset in the key of the placeholder's 10-byte transaction
/// version as 4 bytes little-endian, as the official bindings'
/// `pack_with_versionstamp` writes it for API version 520 and later. The
/// offset counts from the start of `out`, so a prefix already in `out`
/// counts, as the bindings' `prefix` argument does.
///
/// ```
/// use lexikey::interop::fdb::{pack_with_versionstamp, Element, Versionstamp};
/// let t = [Element::from("events"), Element::Versionstamp(Versionstamp::incomplete(7))];
/// let mut key = Vec::new();
/// pack_with_versionstamp(&t, &mut key)?;
/// // fdb.tuple.pack_with_versionstamp(("events", Versionstamp(user_version=7)))
/// assert_eq!(
///     key,
///     b"\x02events\x00\x33\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00\x07\x09\x00\x00\x00"
/// );
/// # Ok::<(), lexikey::interop::fdb::VersionstampError>(())
/// ```
///
/// # Errors
/// [`VersionstampError`]: no incomplete versionstamp, more than one, or
/// an offset beyond `u32`. `out` is left as it was.
pub fn pack_with_versionstamp(
    tuple: &[Element],
    out: &mut Vec<u8>,
) -> Result<(), VersionstampError> {
    let start = out.len();
    let mut stamps = Stamps::default();
    for e in tuple {
        write_element(e, false, out, &mut stamps);
    }
    let result = match stamps {
        Stamps { first: None, .. } => Err(VersionstampError::Missing),
        Stamps {
            first: Some(first),
            second: Some(second),
        } => Err(VersionstampError::Multiple { first, second }),
        Stamps {
            first: Some(code), ..
        } => u32::try_from(code + 1)
            .map(|offset| out.extend_from_slice(&offset.to_le_bytes()))
            .map_err(|_| VersionstampError::OffsetTooLarge { offset: code + 1 }),
    };
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// Where the first two incomplete versionstamps of a tuple were packed
/// (the offsets of their type codes).
#[derive(Default)]
struct Stamps {
    first: Option<usize>,
    second: Option<usize>,
}

/// The packed tuple as a new vector.
///
/// ```
/// use lexikey::interop::fdb::{pack_to_vec, Element};
/// assert_eq!(pack_to_vec(&[Element::from(1066_i64)]), b"\x16\x04\x2a");
/// ```
pub fn pack_to_vec(tuple: &[Element]) -> Vec<u8> {
    let mut out = Vec::new();
    pack(tuple, &mut out);
    out
}

fn write_escaped(body: &[u8], out: &mut Vec<u8>) {
    for &b in body {
        out.push(b);
        if b == 0 {
            out.push(0xFF);
        }
    }
    out.push(0);
}

fn write_element(e: &Element, nested: bool, out: &mut Vec<u8>, stamps: &mut Stamps) {
    match e {
        Element::Null => {
            out.push(NULL);
            if nested {
                out.push(0xFF);
            }
        }
        Element::Bytes(b) => {
            out.push(BYTES);
            write_escaped(b, out);
        }
        Element::String(s) => {
            out.push(STRING);
            write_escaped(s.as_bytes(), out);
        }
        Element::Nested(v) => {
            out.push(NESTED);
            for e in v {
                write_element(e, true, out, stamps);
            }
            out.push(0);
        }
        Element::Int(i) => i.write(out),
        Element::Float(f) => {
            out.push(FLOAT);
            out.extend_from_slice(&float_bits(*f).to_be_bytes());
        }
        Element::Double(f) => {
            out.push(DOUBLE);
            out.extend_from_slice(&double_bits(*f).to_be_bytes());
        }
        Element::Bool(b) => out.push(if *b { TRUE } else { FALSE }),
        Element::Uuid(u) => {
            out.push(UUID);
            out.extend_from_slice(u);
        }
        Element::Versionstamp(v) => {
            if !v.is_complete() {
                if stamps.first.is_none() {
                    stamps.first = Some(out.len());
                } else if stamps.second.is_none() {
                    stamps.second = Some(out.len());
                }
            }
            out.push(VERSIONSTAMP);
            out.extend_from_slice(&v.0);
        }
    }
}

/// Unpacks a whole key into its elements, canonically.
///
/// # Errors
/// - [`DecodeError::UnexpectedTag`] at an unknown or deprecated type code;
/// - [`DecodeError::Truncated`] (offset = key length) when the key ends
///   inside an element: a fixed-size body, a big integer, or a bytes,
///   string or nested tuple without its `00` terminator;
/// - [`DecodeError::NonCanonical`] at the first byte of an integer body
///   that is longer than needed (`15 00`, `13 FF`, `1D 08 …`), and at a
///   nested tuple deeper than [`MAX_DEPTH`];
/// - [`DecodeError::InvalidUtf8`] at the first byte of a bad UTF-8 sequence.
///
/// ```
/// use lexikey::interop::fdb::{unpack, Element};
/// assert_eq!(unpack(b"\x15\x01\x27")?, vec![Element::from(1_i64), Element::Bool(true)]);
/// let err = unpack(b"\x16\x00\x05").unwrap_err();
/// assert_eq!(err.offset(), 1); // 5 fits one byte: code 15
/// assert_eq!(unpack(b"\x02hello").unwrap_err().offset(), 6); // no terminator
/// # Ok::<(), lexikey::DecodeError>(())
/// ```
pub fn unpack(key: &[u8]) -> Result<Vec<Element>, DecodeError> {
    Decoder {
        key,
        lenient: false,
    }
    .tuple()
}

/// Like [`unpack`], but also accepts the big-integer codes for integers that
/// fit 8 bytes (`1D 08 FF…FF` for 2^64−1, as Python's `fdb.tuple` writes
/// it). Such keys decode to the same [`Int`] as their canonical form, so
/// `pack(unpack_lenient(k))` may differ from `k`.
///
/// ```
/// use lexikey::interop::fdb::{unpack, unpack_lenient, Element};
/// let py = b"\x1d\x08\xff\xff\xff\xff\xff\xff\xff\xff";
/// assert_eq!(unpack_lenient(py)?, vec![Element::from(u64::MAX)]);
/// assert!(unpack(py).is_err());
/// # Ok::<(), lexikey::DecodeError>(())
/// ```
///
/// # Errors
/// As [`unpack`], except for that one case.
pub fn unpack_lenient(key: &[u8]) -> Result<Vec<Element>, DecodeError> {
    Decoder { key, lenient: true }.tuple()
}

struct Decoder<'a> {
    key: &'a [u8],
    lenient: bool,
}

impl Decoder<'_> {
    fn tuple(&self) -> Result<Vec<Element>, DecodeError> {
        let mut pos = 0;
        let mut out = Vec::new();
        while pos < self.key.len() {
            let (e, next) = self.element(pos, 0)?;
            out.push(e);
            pos = next;
        }
        Ok(out)
    }

    fn take(&self, pos: usize, n: usize, expected: &'static str) -> Result<&[u8], DecodeError> {
        self.key.get(pos..pos + n).ok_or(DecodeError::Truncated {
            offset: self.key.len(),
            expected,
        })
    }

    /// Reads an escaped, `00`-terminated body starting at `start`; returns
    /// the unescaped bytes and the offset after the terminator.
    fn escaped(
        &self,
        start: usize,
        expected: &'static str,
    ) -> Result<(Vec<u8>, usize), DecodeError> {
        let key = self.key;
        let mut out = Vec::new();
        let mut i = start;
        loop {
            match key.get(i) {
                None => {
                    return Err(DecodeError::Truncated {
                        offset: key.len(),
                        expected,
                    })
                }
                Some(0) if key.get(i + 1) == Some(&0xFF) => {
                    out.push(0);
                    i += 2;
                }
                Some(0) => return Ok((out, i + 1)),
                Some(&b) => {
                    out.push(b);
                    i += 1;
                }
            }
        }
    }

    fn element(&self, pos: usize, depth: usize) -> Result<(Element, usize), DecodeError> {
        let key = self.key;
        let code = key[pos];
        let body = pos + 1;
        Ok(match code {
            NULL => (Element::Null, body),
            BYTES => {
                let (b, next) = self.escaped(body, "0x00 ending a byte string")?;
                (Element::Bytes(b), next)
            }
            STRING => {
                let (b, next) = self.escaped(body, "0x00 ending a string")?;
                match String::from_utf8(b) {
                    Ok(s) => (Element::String(s), next),
                    Err(e) => {
                        // Map the position in the unescaped bytes back to
                        // the key: every 00 before it took two bytes.
                        let bad = e.utf8_error().valid_up_to();
                        let zeros = e.as_bytes()[..bad].iter().filter(|&&b| b == 0).count();
                        return Err(DecodeError::InvalidUtf8 {
                            offset: body + bad + zeros,
                        });
                    }
                }
            }
            NESTED => {
                if depth >= MAX_DEPTH {
                    return Err(DecodeError::NonCanonical {
                        offset: pos,
                        reason: "tuples nested deeper than 100 levels are not decoded",
                    });
                }
                let mut items = Vec::new();
                let mut i = body;
                loop {
                    match key.get(i) {
                        None => {
                            return Err(DecodeError::Truncated {
                                offset: key.len(),
                                expected: "0x00 ending a nested tuple",
                            })
                        }
                        Some(0) if key.get(i + 1) == Some(&0xFF) => {
                            items.push(Element::Null);
                            i += 2;
                        }
                        Some(0) => break,
                        Some(_) => {
                            let (e, next) = self.element(i, depth + 1)?;
                            items.push(e);
                            i = next;
                        }
                    }
                }
                (Element::Nested(items), i + 1)
            }
            INT_ZERO => (Element::Int(Int::default()), body),
            0x0C..=0x13 | 0x15..=0x1C => {
                let negative = code < INT_ZERO;
                let n = usize::from(code.abs_diff(INT_ZERO));
                let b = self.take(body, n, "integer bytes")?;
                if b[0] == if negative { 0xFF } else { 0 } {
                    return Err(DecodeError::NonCanonical {
                        offset: body,
                        reason: "integer written with more bytes than it needs",
                    });
                }
                let mag: Vec<u8> = if negative {
                    b.iter().map(|x| !x).collect()
                } else {
                    b.to_vec()
                };
                (
                    Element::Int(Int {
                        negative,
                        magnitude: mag,
                    }),
                    body + n,
                )
            }
            NEG_INT_BIG | POS_INT_BIG => {
                let negative = code == NEG_INT_BIG;
                let len = self.take(body, 1, "big-integer length")?[0];
                let n = usize::from(if negative { !len } else { len });
                let b = self.take(body + 1, n, "big-integer bytes")?;
                let mag: Vec<u8> = if negative {
                    b.iter().map(|x| !x).collect()
                } else {
                    b.to_vec()
                };
                let int = Int::from_sign_magnitude(negative, &mag).unwrap_or_default();
                let minimal = n >= 9 && int.magnitude.len() == n;
                let python_u64 =
                    n == 8 && int.magnitude.len() == 8 && mag.iter().all(|&x| x == 0xFF);
                let accepted = minimal || (self.lenient && python_u64);
                if !accepted {
                    return Err(DecodeError::NonCanonical {
                        offset: if n >= 9 { body + 1 } else { body },
                        reason: if n >= 9 {
                            "big integer written with more bytes than it needs"
                        } else {
                            "big-integer code for a value that fits 8 bytes"
                        },
                    });
                }
                (Element::Int(int), body + 1 + n)
            }
            FLOAT => {
                let b = self.take(body, 4, "4 float bytes")?;
                let bits = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
                (Element::Float(float_from_bits(bits)), body + 4)
            }
            DOUBLE => {
                let b = self.take(body, 8, "8 double bytes")?;
                let mut a = [0; 8];
                a.copy_from_slice(b);
                (
                    Element::Double(double_from_bits(u64::from_be_bytes(a))),
                    body + 8,
                )
            }
            FALSE => (Element::Bool(false), body),
            TRUE => (Element::Bool(true), body),
            UUID => {
                let b = self.take(body, 16, "16 UUID bytes")?;
                let mut a = [0; 16];
                a.copy_from_slice(b);
                (Element::Uuid(a), body + 16)
            }
            VERSIONSTAMP => {
                let b = self.take(body, 12, "12 versionstamp bytes")?;
                let mut a = [0; 12];
                a.copy_from_slice(b);
                (Element::Versionstamp(Versionstamp(a)), body + 12)
            }
            found => {
                return Err(DecodeError::UnexpectedTag {
                    offset: pos,
                    found,
                    expected: EXPECTED_CODE,
                })
            }
        })
    }
}

/// Parses one `TYPE:VALUE` component into an element (the CLI's syntax).
///
/// | `TYPE` | element | `VALUE` |
/// |---|---|---|
/// | `null` | [`Element::Null`] | empty (`null:`; a bare `null` is accepted too) |
/// | `bytes` | [`Element::Bytes`] | hex |
/// | `str` | [`Element::String`] | the text, verbatim |
/// | `int` (`i64`, `u64`, `i32`, `u32`) | [`Element::Int`] | decimal, up to 255 bytes (or the named type's range) |
/// | `f32` / `float` | [`Element::Float`] | Rust float syntax, `NaN`, `inf`; or `0x` + 8 hex digits of raw IEEE bits |
/// | `f64` / `double` | [`Element::Double`] | likewise, `0x` + 16 hex digits |
/// | `bool` | [`Element::Bool`] | `true` / `false` |
/// | `uuid` | [`Element::Uuid`] | hyphenated |
/// | `versionstamp` | [`Element::Versionstamp`] | 24 hex digits (an incomplete one: the first 20 are `f`) |
/// | `nested` | [`Element::Nested`] | `[` the elements in this syntax, separated by `, ` `]` |
///
/// Inside `nested:[…]` a string's `\`, `,`, `[` and `]` are written `\\`,
/// `\,`, `\[` and `\]` (outside, a string is verbatim). Nesting is bounded
/// as in [`unpack`]: a `nested` at level [`MAX_DEPTH`] (the outer tuple is
/// level 0) is an error, so every key parsed here unpacks. The tuple layer
/// has no descending order, so `.desc` is an error.
///
/// ```
/// use lexikey::interop::fdb::{parse_component, Element};
/// assert_eq!(parse_component("int:-5551212")?, Element::from(-5_551_212_i64));
/// assert_eq!(parse_component("str:a:b")?, Element::from("a:b"));
/// assert_eq!(parse_component("f32:0x7fffffff")?, Element::Float(f32::from_bits(0x7fff_ffff)));
/// assert_eq!(
///     parse_component(r"nested:[int:2, null:, str:a\, b, nested:[]]")?,
///     Element::Nested(vec![
///         Element::from(2_i64),
///         Element::Null,
///         Element::from("a, b"),
///         Element::Nested(vec![]),
///     ])
/// );
/// assert!(parse_component("int.desc:1").is_err());
/// # Ok::<(), lexikey::ParseError>(())
/// ```
///
/// # Errors
/// A [`ParseError`] naming the component and what was expected.
pub fn parse_component(s: &str) -> Result<Element, ParseError> {
    parse_at(s, 0)
}

/// Checks that a nested tuple at level `depth` (the outer tuple's elements
/// are level 0) is within [`MAX_DEPTH`], the bound of [`unpack`].
///
/// # Errors
/// A [`ParseError`] saying the limit.
pub fn check_depth(depth: usize) -> Result<(), ParseError> {
    if depth >= MAX_DEPTH {
        return Err(ParseError::new(format!(
            "tuples nested deeper than {MAX_DEPTH} levels are not encoded (they would not decode)"
        )));
    }
    Ok(())
}

fn parse_at(s: &str, depth: usize) -> Result<Element, ParseError> {
    if s == "null" {
        return Ok(Element::Null);
    }
    let Some((ty, text)) = s.split_once(':') else {
        return Err(ParseError::new(format!(
            "component {s:?} has no ':': expected TYPE:VALUE, e.g. int:42 or str:usa"
        )));
    };
    if ty.ends_with(".desc") {
        return Err(ParseError::new(format!(
            "component {s:?}: the FoundationDB tuple layer has no descending order"
        )));
    }
    let bad = |what: &str| ParseError::new(format!("invalid {ty} value {text:?}: {what}"));
    Ok(match ty {
        "null" if text.is_empty() => Element::Null,
        "null" => return Err(bad("null takes no value (write null:)")),
        "bytes" => Element::Bytes(crate::value::literal::parse_hex(text)?),
        "str" if depth > 0 => Element::String(unescape_element(text).map_err(|e| bad(&e))?),
        "str" => Element::String(text.to_string()),
        "nested" => {
            check_depth(depth)?;
            let inner = text
                .strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .ok_or_else(|| bad("expected [ELEMENT, ...], e.g. nested:[int:1, str:a]"))?;
            let parts = if inner.trim_start_matches(' ').is_empty() {
                Vec::new()
            } else {
                split_elements(inner).map_err(|e| bad(&e))?
            };
            let mut items = Vec::with_capacity(parts.len());
            for part in parts {
                let part = part.trim_start_matches(' ');
                if part.is_empty() {
                    return Err(bad("an empty element (two commas, or one at an end)"));
                }
                items.push(parse_at(part, depth + 1)?);
            }
            Element::Nested(items)
        }
        "int" => Element::Int(Int::parse(text)?),
        "i64" | "u64" | "i32" | "u32" => {
            let i = Int::parse(text)?;
            let ok = match ty {
                "i64" => i.to_i64().is_some(),
                "u64" => i.to_u64().is_some(),
                "i32" => i.to_i64().and_then(|v| i32::try_from(v).ok()).is_some(),
                _ => i.to_i64().and_then(|v| u32::try_from(v).ok()).is_some(),
            };
            if !ok {
                return Err(bad("out of range"));
            }
            Element::Int(i)
        }
        "f32" | "float" => Element::Float(match text.strip_prefix("0x") {
            Some(h) if h.len() == 8 => f32::from_bits(
                u32::from_str_radix(h, 16).map_err(|_| bad("expected 8 hex digits after 0x"))?,
            ),
            Some(_) => return Err(bad("expected 8 hex digits after 0x")),
            None => text.parse().map_err(|_| bad("not a float"))?,
        }),
        "f64" | "double" => Element::Double(match text.strip_prefix("0x") {
            Some(h) if h.len() == 16 => f64::from_bits(
                u64::from_str_radix(h, 16).map_err(|_| bad("expected 16 hex digits after 0x"))?,
            ),
            Some(_) => return Err(bad("expected 16 hex digits after 0x")),
            None => text.parse().map_err(|_| bad("not a float"))?,
        }),
        "bool" => match text {
            "true" => Element::Bool(true),
            "false" => Element::Bool(false),
            _ => return Err(bad("expected true or false")),
        },
        "uuid" => Element::Uuid(crate::value::literal::parse_uuid(text)?.to_be_bytes()),
        "versionstamp" => {
            let b = crate::value::literal::parse_hex(text)?;
            let a: [u8; 12] = b.try_into().map_err(|_| bad("expected 24 hex digits"))?;
            Element::Versionstamp(Versionstamp(a))
        }
        _ => {
            return Err(ParseError::new(format!(
                "unknown fdb-tuple type {ty:?} in {s:?}: expected null, bytes, str, int, i64, u64, \
                 i32, u32, f32, f64, bool, uuid, versionstamp or nested"
            )))
        }
    })
}

/// Writes an element in the syntax of [`parse_component`], which reads it
/// back (`int:42`, `f64:0x7ff8000000000001` for a NaN other than the
/// default one, `nested:[…]` with its strings' `\`, `,`, `[`, `]`
/// escaped).
///
/// ```
/// use lexikey::interop::fdb::{format_component, Element};
/// assert_eq!(format_component(&Element::from(-1_i64)), "int:-1");
/// assert_eq!(format_component(&Element::Double(f64::NAN)), "f64:NaN");
/// assert_eq!(
///     format_component(&Element::Nested(vec![Element::Null, Element::from("a,b")])),
///     r"nested:[null:, str:a\,b]"
/// );
/// ```
pub fn format_component(e: &Element) -> String {
    let mut s = String::new();
    write_component(e, false, &mut s);
    s
}

fn write_component(e: &Element, nested: bool, s: &mut String) {
    use std::fmt::Write;
    // Writing to a String cannot fail.
    let _ = match e {
        Element::Null => write!(s, "null:"),
        Element::Bytes(b) => write!(s, "bytes:{}", crate::to_hex(b)),
        Element::String(t) if nested => {
            s.push_str("str:");
            push_escaped_element(t, s);
            Ok(())
        }
        Element::String(t) => write!(s, "str:{t}"),
        Element::Int(i) => write!(s, "int:{i}"),
        Element::Float(f) if f.is_nan() && f.to_bits() != f32::NAN.to_bits() => {
            write!(s, "f32:0x{:08x}", f.to_bits())
        }
        Element::Float(f) => write!(s, "f32:{f:?}"),
        Element::Double(f) if f.is_nan() && f.to_bits() != f64::NAN.to_bits() => {
            write!(s, "f64:0x{:016x}", f.to_bits())
        }
        Element::Double(f) => write!(s, "f64:{f:?}"),
        Element::Bool(b) => write!(s, "bool:{b}"),
        Element::Uuid(u) => {
            s.push_str("uuid:");
            crate::value::literal::format_uuid(u128::from_be_bytes(*u), s);
            Ok(())
        }
        Element::Versionstamp(v) => write!(s, "versionstamp:{}", crate::to_hex(&v.0)),
        Element::Nested(v) => {
            s.push_str("nested:[");
            for (i, e) in v.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write_component(e, true, s);
            }
            s.push(']');
            Ok(())
        }
    };
}
