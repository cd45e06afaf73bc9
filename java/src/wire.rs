//! The bytes that carry values across the JNI boundary, in both directions
//! (`lexikey.Wire` is the Java side). One `byte[]` per call, not one JNI
//! call per value: Java writes its objects as tagged cells (what the object
//! *is*: a `Long`, a `String`, an `Instant`), Rust reads them as [`Host`]
//! values and [`crate::conv`] turns them into core values by the rules of
//! the field they are for. Decoded values come back the same way.
//!
//! Layout (little-endian): a cell is a tag byte and its payload.
//!
//! | tag | Java | payload |
//! |---|---|---|
//! | 0 `NULL` | `null` | — |
//! | 1 `STR` | `String` | `u32` length, UTF-8 |
//! | 2 `BAD_STR` | a `String` with a lone surrogate | `u32` char index of the first |
//! | 3 `LONG` | `Long` | `i64` |
//! | 4 `INT` | `Integer` | `i32` |
//! | 5 `SHORT` | `Short` | `i16` |
//! | 6 `BYTE` | `Byte` | `i8` |
//! | 7 `DOUBLE` | `Double` | `f64` bits |
//! | 8 `FLOAT` | `Float` | `f32` bits |
//! | 9 `BOOL` | `Boolean` | `u8` 0/1 |
//! | 10 `BYTES` | `byte[]` | `u32` length, bytes |
//! | 11 `INSTANT` | `java.time.Instant` | `i64` epoch seconds, `i32` nanoseconds (0–999,999,999) |
//! | 12 `UUID` | `java.util.UUID` | `u64` most, `u64` least significant bits |
//! | 13 `DECIMAL` | `java.math.BigDecimal` | `u32` length, its `toString()` (UTF-8) |
//! | 14 `BIGINT` | `java.math.BigInteger` | `u8` negative, `u32` length, big-endian magnitude |
//! | 15 `OTHER` | any other object | `u32` length, UTF-8 class name |
//! | 16 `LIST` | `List` (`fdb-tuple` nested tuples, both ways) | `u32` count, cells |
//! | 17 `DOUBLES` | `double[]` (a geo point) | `u32` count, `f64` bits each |
//! | 18 `VERSIONSTAMP` | `lexikey.Versionstamp` | its 12 bytes |
//!
//! A row is a `u32` count and that many cells.

use crate::errors::Error;

pub(crate) const NULL: u8 = 0;
pub(crate) const STR: u8 = 1;
pub(crate) const BAD_STR: u8 = 2;
pub(crate) const LONG: u8 = 3;
pub(crate) const INT: u8 = 4;
pub(crate) const SHORT: u8 = 5;
pub(crate) const BYTE: u8 = 6;
pub(crate) const DOUBLE: u8 = 7;
pub(crate) const FLOAT: u8 = 8;
pub(crate) const BOOL: u8 = 9;
pub(crate) const BYTES: u8 = 10;
pub(crate) const INSTANT: u8 = 11;
pub(crate) const UUID: u8 = 12;
pub(crate) const DECIMAL: u8 = 13;
pub(crate) const BIGINT: u8 = 14;
pub(crate) const OTHER: u8 = 15;
pub(crate) const LIST: u8 = 16;
pub(crate) const DOUBLES: u8 = 17;
pub(crate) const VERSIONSTAMP: u8 = 18;

/// A Java value as Java gave it, borrowed from the call's buffer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Host<'a> {
    /// `null`.
    Null,
    /// A `String` (valid UTF-8).
    Str(&'a str),
    /// A `String` holding a lone surrogate at this char index: no UTF-8.
    BadStr(u32),
    /// A `Long`.
    Long(i64),
    /// An `Integer`.
    Int(i32),
    /// A `Short`.
    Short(i16),
    /// A `Byte`.
    Byte(i8),
    /// A `Double`.
    Double(f64),
    /// A `Float`.
    Float(f32),
    /// A `Boolean`.
    Bool(bool),
    /// A `byte[]`.
    Bytes(&'a [u8]),
    /// An `Instant`: epoch seconds and nanoseconds.
    Instant(i64, u32),
    /// A `UUID` as its 128 bits.
    Uuid(u128),
    /// A `BigDecimal`: its exact text (`toString()`).
    Decimal(&'a str),
    /// A `BigInteger`: sign and big-endian magnitude.
    BigInt {
        /// Below zero.
        neg: bool,
        /// Big-endian magnitude (leading zeros allowed).
        mag: &'a [u8],
    },
    /// A `double[]`.
    Doubles(&'a [u8]),
    /// A `lexikey.Versionstamp`: its 12 bytes.
    Versionstamp([u8; 12]),
    /// A `List`: its count and its cells, to be read with a [`Reader`].
    List(usize, &'a [u8]),
    /// An object of another class (its name).
    Other(&'a str),
}

impl Host<'_> {
    /// The Java type of the value, for messages.
    pub(crate) fn java_type(&self) -> &'static str {
        match self {
            Host::Null => "null",
            Host::Str(_) | Host::BadStr(_) => "String",
            Host::Long(_) => "Long",
            Host::Int(_) => "Integer",
            Host::Short(_) => "Short",
            Host::Byte(_) => "Byte",
            Host::Double(_) => "Double",
            Host::Float(_) => "Float",
            Host::Bool(_) => "Boolean",
            Host::Bytes(_) => "byte[]",
            Host::Instant(..) => "Instant",
            Host::Uuid(_) => "UUID",
            Host::Decimal(_) => "BigDecimal",
            Host::BigInt { .. } => "BigInteger",
            Host::Doubles(_) => "double[]",
            Host::Versionstamp(_) => "Versionstamp",
            Host::List(..) => "List",
            Host::Other(_) => "Object",
        }
    }

    /// The doubles of a `double[]`.
    pub(crate) fn doubles(bytes: &[u8]) -> impl Iterator<Item = f64> + '_ {
        bytes
            .chunks_exact(8)
            .map(|c| f64::from_bits(u64::from_le_bytes(c.try_into().unwrap_or([0; 8]))))
    }
}

/// Reads cells from Java's buffer. A malformed buffer (a bug on the Java
/// side, never user input) is an `IllegalStateException`.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

/// A malformed buffer (a bug on the Java side): what was wrong. Small, so
/// that reading a cell returns in registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Corrupt(&'static str);

fn corrupt(what: &'static str) -> Corrupt {
    Corrupt(what)
}

impl From<Corrupt> for Error {
    fn from(c: Corrupt) -> Error {
        Error::State(format!(
            "lexikey: malformed value buffer from Java ({})",
            c.0
        ))
    }
}

impl<'a> Reader<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader { buf, pos: 0 }
    }

    /// Whether every byte was read.
    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.buf.len()
    }

    #[inline]
    fn take(&mut self, n: usize) -> Result<&'a [u8], Corrupt> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.buf.len())
            .ok_or_else(|| corrupt("truncated"))?;
        let s = &self.buf[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    #[inline]
    fn array<const N: usize>(&mut self) -> Result<[u8; N], Corrupt> {
        let s = self.take(N)?;
        let mut a = [0; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    #[inline]
    pub(crate) fn u8(&mut self) -> Result<u8, Corrupt> {
        Ok(self.array::<1>()?[0])
    }

    #[inline]
    pub(crate) fn u32(&mut self) -> Result<u32, Corrupt> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    #[inline]
    fn len(&mut self) -> Result<usize, Corrupt> {
        Ok(self.u32()? as usize)
    }

    #[inline]
    fn i64(&mut self) -> Result<i64, Corrupt> {
        Ok(i64::from_le_bytes(self.array()?))
    }

    /// A length-prefixed run of bytes.
    #[inline]
    pub(crate) fn bytes(&mut self) -> Result<&'a [u8], Corrupt> {
        let n = self.len()?;
        self.take(n)
    }

    /// A length-prefixed UTF-8 string.
    #[inline]
    pub(crate) fn str(&mut self) -> Result<&'a str, Corrupt> {
        let b = self.bytes()?;
        if b.is_ascii() {
            // ASCII (the common case, checked a word at a time) is UTF-8.
            // SAFETY: every byte is below 0x80.
            #[allow(unsafe_code)]
            return Ok(unsafe { std::str::from_utf8_unchecked(b) });
        }
        std::str::from_utf8(b).map_err(|_| corrupt("a string that is not UTF-8"))
    }

    /// The count of a row.
    #[inline]
    pub(crate) fn row_len(&mut self) -> Result<usize, Corrupt> {
        self.len()
    }

    /// One cell.
    #[inline]
    pub(crate) fn cell(&mut self) -> Result<Host<'a>, Corrupt> {
        Ok(match self.u8()? {
            NULL => Host::Null,
            STR => Host::Str(self.str()?),
            BAD_STR => Host::BadStr(self.u32()?),
            LONG => Host::Long(self.i64()?),
            INT => Host::Int(i32::from_le_bytes(self.array()?)),
            SHORT => Host::Short(i16::from_le_bytes(self.array()?)),
            BYTE => Host::Byte(i8::from_le_bytes(self.array()?)),
            DOUBLE => Host::Double(f64::from_bits(u64::from_le_bytes(self.array()?))),
            FLOAT => Host::Float(f32::from_bits(u32::from_le_bytes(self.array()?))),
            BOOL => Host::Bool(self.u8()? != 0),
            BYTES => Host::Bytes(self.bytes()?),
            INSTANT => {
                let secs = self.i64()?;
                let nanos = self.u32()?;
                if nanos >= 1_000_000_000 {
                    return Err(corrupt("Instant nanoseconds"));
                }
                Host::Instant(secs, nanos)
            }
            UUID => {
                let hi = self.i64()? as u64;
                let lo = self.i64()? as u64;
                Host::Uuid(u128::from(hi) << 64 | u128::from(lo))
            }
            DECIMAL => Host::Decimal(self.str()?),
            BIGINT => {
                let neg = self.u8()? != 0;
                Host::BigInt {
                    neg,
                    mag: self.bytes()?,
                }
            }
            DOUBLES => {
                let n = self.len()?;
                Host::Doubles(self.take(n.checked_mul(8).ok_or_else(|| corrupt("length"))?)?)
            }
            OTHER => Host::Other(self.str()?),
            VERSIONSTAMP => Host::Versionstamp(self.array()?),
            LIST => {
                let n = self.len()?;
                let start = self.pos;
                for _ in 0..n {
                    self.cell()?;
                }
                Host::List(n, &self.buf[start..self.pos])
            }
            _ => return Err(corrupt("an unknown tag")),
        })
    }

    /// One row: its cells.
    pub(crate) fn row(&mut self) -> Result<Vec<Host<'a>>, Corrupt> {
        let n = self.row_len()?;
        (0..n).map(|_| self.cell()).collect()
    }
}

/// Writes values for Java's `Wire.Reader`.
#[derive(Debug, Default)]
pub(crate) struct Writer {
    pub(crate) buf: Vec<u8>,
}

impl Writer {
    pub(crate) fn tag(&mut self, t: u8) {
        self.buf.push(t);
    }

    pub(crate) fn u32(&mut self, n: usize) {
        // Lengths and counts come from keys of at most 32,767 bytes or
        // from Java arrays: they fit.
        self.buf
            .extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
    }

    pub(crate) fn raw_bytes(&mut self, b: &[u8]) {
        self.u32(b.len());
        self.buf.extend_from_slice(b);
    }

    pub(crate) fn null(&mut self) {
        self.tag(NULL);
    }

    pub(crate) fn str(&mut self, s: &str) {
        self.tag(STR);
        self.raw_bytes(s.as_bytes());
    }

    pub(crate) fn long(&mut self, v: i64) {
        self.tag(LONG);
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn int(&mut self, v: i32) {
        self.tag(INT);
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn short(&mut self, v: i16) {
        self.tag(SHORT);
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn byte(&mut self, v: i8) {
        self.tag(BYTE);
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn double(&mut self, v: f64) {
        self.tag(DOUBLE);
        self.buf.extend_from_slice(&v.to_bits().to_le_bytes());
    }

    pub(crate) fn float(&mut self, v: f32) {
        self.tag(FLOAT);
        self.buf.extend_from_slice(&v.to_bits().to_le_bytes());
    }

    pub(crate) fn bool(&mut self, v: bool) {
        self.tag(BOOL);
        self.buf.push(u8::from(v));
    }

    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.tag(BYTES);
        self.raw_bytes(b);
    }

    /// An `Instant`: seconds since 1970 and nanoseconds after them.
    pub(crate) fn instant(&mut self, secs: i64, nanos: u32) {
        self.tag(INSTANT);
        self.buf.extend_from_slice(&secs.to_le_bytes());
        self.buf.extend_from_slice(&nanos.to_le_bytes());
    }

    pub(crate) fn uuid(&mut self, u: u128) {
        self.tag(UUID);
        self.buf
            .extend_from_slice(&((u >> 64) as u64 as i64).to_le_bytes());
        self.buf.extend_from_slice(&(u as u64 as i64).to_le_bytes());
    }

    /// A `BigDecimal` of its text (plain or exponent notation).
    pub(crate) fn decimal(&mut self, text: &str) {
        self.tag(DECIMAL);
        self.raw_bytes(text.as_bytes());
    }

    /// A `BigInteger` of sign and big-endian magnitude.
    pub(crate) fn bigint(&mut self, neg: bool, mag: &[u8]) {
        self.tag(BIGINT);
        self.buf.push(u8::from(neg));
        self.raw_bytes(mag);
    }

    pub(crate) fn doubles(&mut self, v: &[f64]) {
        self.tag(DOUBLES);
        self.u32(v.len());
        for x in v {
            self.buf.extend_from_slice(&x.to_bits().to_le_bytes());
        }
    }

    /// A `lexikey.Versionstamp` of its 12 bytes.
    pub(crate) fn versionstamp(&mut self, b: &[u8; 12]) {
        self.tag(VERSIONSTAMP);
        self.buf.extend_from_slice(b);
    }

    /// The header of a list of `n` values (nested tuples).
    pub(crate) fn list(&mut self, n: usize) {
        self.tag(LIST);
        self.u32(n);
    }

    /// The header of a row of `n` values.
    pub(crate) fn row(&mut self, n: usize) {
        self.u32(n);
    }
}
