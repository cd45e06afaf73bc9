//! Arbitrary-precision decimals (`dec`): exact decimal numbers of any size
//! as key components, in printable ELEN text and in compact binary.
//!
//! A [`Dec`] is a decimal number held exactly: `-123456789012345678901234567890.0001`,
//! `1e-40`, every `i64`/`u64`/`i128`, and the exact value of every finite
//! `f64` ([`Dec::from_f64_exact`]: `0.1_f64` is
//! `0.1000000000000000055511151231257827021181583404541015625`). It keeps the
//! *number*, not the way it was written: `1`, `1.0`, `1.00`, `+1`, `10e-1`
//! are one value with one key, and `-0` is `0`. The scale (number of
//! fraction digits a SQL `DECIMAL(p, s)` column would show) is **not kept**:
//! a key cannot hold both "1.0" and "1.00" if equal numbers must give equal
//! keys.
//!
//! Limits: at most [`Dec::MAX_DIGITS`] significant digits and an adjusted
//! exponent within ±[`Dec::MAX_EXP`] (the number is `0.d₁d₂… × 10^exp`
//! with `d₁ ≠ 0`), so a key never exceeds about 64 KiB; anything larger is
//! a parse error, never a truncation.
//!
//! # Text (`decimal` format): ELEN
//!
//! Peter Seymour's *Efficient Lexicographic Encoding of Numbers* (2008),
//! its general decimal scheme ("large decimals"), written with `=` for the
//! paper's `+` (so that the three symbols sort `-` < digits < `=` in ASCII,
//! as in the paper's Python implementation):
//!
//! * **zero** is `0`;
//! * a **positive** number is its integer part as an ELEN natural number,
//!   then the fraction digits (trailing zeros stripped), then the
//!   terminator `-`, which sorts below every digit, so `10.5` < `10.55`;
//! * an ELEN natural `n ≥ 1` is `k` times `=`, then the chain of lengths,
//!   then the digits of `n`: `7` → `=7`, `10` → `==210` (2 digits: `10`),
//!   `1234567890` → `===2101234567890` (`10` digits, which is `2` digits);
//!   an integer part of `0` (numbers between 0 and 1) is written `=0`, the
//!   one spot between zero (`0`) and one (`=1…`) that no natural uses;
//! * a **negative** number is the positive encoding of its magnitude with
//!   every symbol mirrored: `=` ↔ `-`, digit `d` ↔ `9 − d`. Mirroring
//!   reverses the order of the (prefix-free) positive encodings, and `-`
//!   sorts below `0` and `=`, so negatives come first.
//!
//! | value | key |
//! |---|---|
//! | `-10.5` | `--7894=` |
//! | `-1` | `-8=` |
//! | `-0.5` | `-94=` |
//! | `0` | `0` |
//! | `0.5` | `=05-` |
//! | `1` | `=1-` |
//! | `10.5` | `==2105-` |
//! | `1e-40` | `=0` + 39 zeros + `1-` |
//!
//! A descending `dec` in the `decimal` format is the key of the negated
//! number (`ELEN(−v)`): printable, prefix-free, in reverse order.
//!
//! # Binary (`binary` format; body of `hex`/`base64` keys)
//!
//! An order-preserving, self-delimiting encoding of lexikey's own design
//! (in the spirit of CockroachDB's and SQLite4's decimal keys):
//!
//! | value | bytes |
//! |---|---|
//! | negative | `01`, then the bitwise NOT of the positive body of its magnitude |
//! | zero | `02` |
//! | positive | `03`, then the body |
//!
//! The body is the exponent as 2 bytes big-endian of `exp + 0x8000`, then
//! the digits in pairs, one byte per pair `p` (00–99): `2p + 1` while more
//! pairs follow, `2p` for the last one (an odd digit count is padded with
//! a `0`). The first pair is at least 10 (no leading zero) and the last is
//! never 0 (no trailing zero), so every number has one encoding. An even
//! byte ends the body, so no terminator is needed and no encoding is a
//! prefix of another — which is why NOT reverses order for negatives and
//! for descending components. `1.5` → `03 80 01 1E`.
//!
//! In the `hex` and `base64` formats a `dec` is the tag `n` (`N`
//! descending) followed by those bytes in the format's alphabet (NOT-ed when
//! descending): `1.5` → `n0380011E`.
//!
//! ```
//! use lexikey::value::big_decimal::Dec;
//! use lexikey::{tuple, Component, Format};
//!
//! let price: Dec = "10.50".parse()?;
//! assert_eq!(price.to_string(), "10.5"); // the number, not its scale
//! let key = tuple::encode(Format::Decimal, &[Component::asc("price"), Component::asc(price.clone())])?;
//! assert_eq!(key, b"price#==2105-");
//! let key = tuple::encode(Format::Hex, &[Component::asc(price)])?;
//! assert_eq!(key, b"n0380021564");
//! assert!(Dec::parse("-0.000001")? < Dec::parse("0")?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::error::DecodeError;
use crate::value::ParseError;

/// An exact decimal number of arbitrary (bounded) size, in canonical form.
/// See the [module docs](self).
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Dec {
    /// Negative (never for zero).
    neg: bool,
    /// Adjusted exponent: the value is `0.DIGITS × 10^exp` (0 for zero).
    exp: i32,
    /// The significant digits, ASCII, first and last not `0`; empty for zero.
    digits: Digits,
}

/// How many significant digits a [`Dec`] holds without a heap buffer: 8,
/// one word (`Digits::as_bytes` reads them as one).
const INLINE: usize = 8;
const _: () = assert!(INLINE == std::mem::size_of::<u64>());

/// The significant digits of a [`Dec`]: up to [`INLINE`] in place (padded
/// with NUL bytes, which no digit is), more on the heap. A number's digits
/// are in place exactly when they fit, so equal numbers have equal
/// `Digits` (the derived equality and hash hold). 16 bytes, as a
/// `Box<str>` alone is: the inline variant lies beside the box's non-null
/// pointer.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Digits {
    Inline([u8; INLINE]),
    Heap(Box<str>),
}

impl Default for Digits {
    fn default() -> Digits {
        Digits::Inline([0; INLINE])
    }
}

impl Digits {
    /// The digits `hi` then `lo` (ASCII digits, no NUL).
    fn of(hi: &[u8], lo: &[u8]) -> Digits {
        let count = hi.len() + lo.len();
        if count <= INLINE {
            let mut b = [0; INLINE];
            b[..hi.len()].copy_from_slice(hi);
            b[hi.len()..count].copy_from_slice(lo);
            return Digits::Inline(b);
        }
        let mut digits = Vec::with_capacity(count);
        digits.extend_from_slice(hi);
        digits.extend_from_slice(lo);
        // The capacity is exact: the box takes the buffer as it is.
        Digits::Heap(
            String::from_utf8(digits)
                .unwrap_or_default()
                .into_boxed_str(),
        )
    }

    fn as_bytes(&self) -> &[u8] {
        match self {
            Digits::Inline(b) => {
                // The digits are the bytes before the NUL padding: as a
                // little-endian word, the padding is its high zero bytes.
                let n = INLINE - (u64::from_le_bytes(*b).leading_zeros() / 8) as usize;
                &b[..n]
            }
            Digits::Heap(s) => s.as_bytes(),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            // ASCII digits: always UTF-8.
            Digits::Inline(_) => std::str::from_utf8(self.as_bytes()).unwrap_or_default(),
            Digits::Heap(s) => s,
        }
    }
}

/// Binary header byte of a negative number.
const NEG: u8 = 0x01;
/// Binary header byte (and whole encoding) of zero.
const ZERO: u8 = 0x02;
/// Binary header byte of a positive number.
const POS: u8 = 0x03;

/// Writes the binary encoding of a nonzero number over `dst` (exactly its
/// length): the header, the exponent, then `pairs` (the digit pairs, each
/// 0–99, most significant first), NOT-ed when `invert`. The one writer of
/// the encoding ([`Dec::put_binary`], [`Dec::put_scaled_binary`]).
#[inline]
fn put_nonzero(neg: bool, exp: i32, pairs: impl Iterator<Item = u8>, invert: bool, dst: &mut [u8]) {
    let m = if invert { 0xFF } else { 0 };
    let Some((head, body)) = dst.split_first_mut() else {
        return;
    };
    *head = if neg { NEG } else { POS } ^ m;
    let body_m = if neg { m ^ 0xFF } else { m };
    let e = (exp + 0x8000) as u16;
    let (exp, digits) = body.split_at_mut(2.min(body.len()));
    for (dst, b) in exp.iter_mut().zip(e.to_be_bytes()) {
        *dst = b ^ body_m;
    }
    let n = digits.len();
    for (i, (dst, p)) in digits.iter_mut().zip(pairs).enumerate() {
        *dst = (2 * p + u8::from(i + 1 != n)) ^ body_m;
    }
}

impl Dec {
    /// The most significant digits a `Dec` holds.
    pub const MAX_DIGITS: usize = 32_767;
    /// The largest magnitude of the adjusted exponent.
    pub const MAX_EXP: i32 = 32_767;

    /// Zero.
    pub fn zero() -> Dec {
        Dec::default()
    }

    /// The number `DIGITS × 10^-scale`, negative when `negative` (and not
    /// zero): an integer and a scale as columnar decimals hold them
    /// (Arrow's `Decimal128(p, s)`: `12345`, scale 2 is `123.45`), with no
    /// text in between. `digits` are ASCII digits, leading and trailing
    /// zeros allowed; no allocation for up to 8 significant digits.
    ///
    /// ```
    /// use lexikey::value::big_decimal::Dec;
    /// assert_eq!(Dec::from_scaled(true, b"12345", 2)?, Dec::parse("-123.45")?);
    /// assert_eq!(Dec::from_scaled(false, b"15", -2)?, Dec::parse("1500")?);
    /// assert!(Dec::from_scaled(false, b"1x", 0).is_err());
    /// # Ok::<(), lexikey::ParseError>(())
    /// ```
    ///
    /// # Errors
    /// A byte that is not an ASCII digit; numbers beyond
    /// [`Dec::MAX_DIGITS`] / [`Dec::MAX_EXP`] (as [`Dec::parse`]).
    pub fn from_scaled(negative: bool, digits: &[u8], scale: i64) -> Result<Dec, ParseError> {
        if let Some(i) = digits.iter().position(|b| !b.is_ascii_digit()) {
            return Err(ParseError::new(format!(
                "invalid dec digits at byte {i}: expected ASCII digits"
            )));
        }
        let point = (digits.len() as i64).saturating_sub(scale);
        Dec::from_parts(negative, digits, point)
    }

    /// Builds from parts: sign, digit string (ASCII digits, any leading or
    /// trailing zeros), and `point`: the value is `0.DIGITS × 10^point`.
    fn from_parts(neg: bool, digits: &[u8], point: i64) -> Result<Dec, ParseError> {
        Dec::from_split(neg, digits, &[], point)
    }

    /// [`Dec::from_parts`] of the digits `hi` then `lo` (the two sides of
    /// a written number's point, read in place): no allocation for up to
    /// 8 significant digits, one (the digits' own) beyond.
    fn from_split(neg: bool, hi: &[u8], lo: &[u8], point: i64) -> Result<Dec, ParseError> {
        let lead_zeros = |d: &[u8]| d.iter().take_while(|&&c| c == b'0').count();
        let trail_zeros = |d: &[u8]| d.iter().rev().take_while(|&&c| c == b'0').count();
        let (hi, lo, lead) = match lead_zeros(hi) {
            n if n == hi.len() => {
                let m = lead_zeros(lo);
                (&[][..], &lo[m..], n + m)
            }
            n => (&hi[n..], lo, n),
        };
        let (hi, lo) = match trail_zeros(lo) {
            n if n == lo.len() => (&hi[..hi.len() - trail_zeros(hi)], &[][..]),
            n => (hi, &lo[..lo.len() - n]),
        };
        let count = hi.len() + lo.len();
        if count == 0 {
            return Ok(Dec::zero());
        }
        if count > Dec::MAX_DIGITS {
            return Err(ParseError::new(format!(
                "decimal has {count} significant digits: at most {} are allowed",
                Dec::MAX_DIGITS
            )));
        }
        let exp = point - lead as i64;
        if exp.abs() > i64::from(Dec::MAX_EXP) {
            return Err(ParseError::new(format!(
                "decimal exponent out of range: the value must lie within 1e-{} and 1e{}",
                Dec::MAX_EXP + 1,
                Dec::MAX_EXP
            )));
        }
        Ok(Dec {
            neg,
            exp: exp as i32,
            // Only ASCII digits reach here.
            digits: Digits::of(hi, lo),
        })
    }

    /// Parses decimal notation: an optional sign, digits with an optional
    /// `.` (digits on at least one side), and an optional exponent
    /// (`e`/`E`, optional sign, digits). `1.0`, `-0.25`, `.5`, `5.`,
    /// `1e-40`, `-123456789012345678901234567890.0001`.
    ///
    /// # Errors
    /// Anything else (empty, spaces, `NaN`, `inf`, `_`), and numbers beyond
    /// [`Dec::MAX_DIGITS`] / [`Dec::MAX_EXP`]; the message says where.
    ///
    /// ```
    /// use lexikey::value::big_decimal::Dec;
    /// assert_eq!(Dec::parse("1.50e2")?.to_string(), "150");
    /// assert_eq!(Dec::parse("-0")?, Dec::parse("0.000")?);
    /// assert!(Dec::parse("1,5").is_err());
    /// # Ok::<(), lexikey::ParseError>(())
    /// ```
    pub fn parse(s: &str) -> Result<Dec, ParseError> {
        let b = s.as_bytes();
        let bad = |at: usize, what: &str| {
            ParseError::new(format!(
                "invalid dec value {s:?} at byte {at}: {what} (expected e.g. -12.5, 0.001, 1e-40)"
            ))
        };
        let mut i = 0;
        let neg = match b.first() {
            Some(b'-') => {
                i = 1;
                true
            }
            Some(b'+') => {
                i = 1;
                false
            }
            _ => false,
        };
        // The digits are read in place: those before the point (or all)
        // and those after it.
        let start = i;
        let mut point: Option<usize> = None;
        while let Some(&c) = b.get(i) {
            match c {
                b'0'..=b'9' => {}
                b'.' if point.is_none() => point = Some(i),
                b'e' | b'E' => break,
                _ => return Err(bad(i, "not a digit")),
            }
            i += 1;
        }
        let (hi, lo) = match point {
            Some(p) => (&b[start..p], &b[p + 1..i]),
            None => (&b[start..i], &b[i..i]),
        };
        if hi.is_empty() && lo.is_empty() {
            return Err(bad(i, "expected a digit"));
        }
        let mut exp: i64 = 0;
        if i < b.len() {
            // At an `e`.
            i += 1;
            let eneg = match b.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            if i == b.len() {
                return Err(bad(i, "expected exponent digits"));
            }
            while let Some(&c) = b.get(i) {
                if !c.is_ascii_digit() {
                    return Err(bad(i, "not an exponent digit"));
                }
                // Saturate: anything this large is out of range anyway.
                exp = (exp * 10 + i64::from(c - b'0')).min(1 << 40);
                i += 1;
            }
            if eneg {
                exp = -exp;
            }
        }
        Dec::from_split(neg, hi, lo, hi.len() as i64 + exp)
    }

    /// The exact value of a finite `f64` (no rounding: `0.1` gives 55
    /// fraction digits). `-0.0` is `0`.
    ///
    /// # Errors
    /// NaN and infinities, which are not numbers a decimal can hold.
    ///
    /// ```
    /// use lexikey::value::big_decimal::Dec;
    /// assert_eq!(Dec::from_f64_exact(0.5)?.to_string(), "0.5");
    /// assert_eq!(Dec::from_f64_exact(0.1)?.to_string(), "0.1000000000000000055511151231257827021181583404541015625");
    /// assert_eq!(Dec::from_f64_exact(1e21)?.to_string(), "1000000000000000000000");
    /// # Ok::<(), lexikey::ParseError>(())
    /// ```
    pub fn from_f64_exact(v: f64) -> Result<Dec, ParseError> {
        if !v.is_finite() {
            return Err(ParseError::new(format!(
                "{v} has no decimal value: dec holds finite numbers only"
            )));
        }
        let bits = v.to_bits();
        let neg = bits >> 63 == 1;
        let biased = ((bits >> 52) & 0x7FF) as i64;
        let frac = bits & ((1 << 52) - 1);
        let (mant, e2) = if biased == 0 {
            (frac, -1074)
        } else {
            (frac | (1 << 52), biased - 1075)
        };
        if mant == 0 {
            return Ok(Dec::zero());
        }
        // value = mant × 2^e2. Digits little-endian, base 10.
        let mut d: Vec<u8> = mant.to_string().bytes().rev().map(|c| c - b'0').collect();
        let mul = |d: &mut Vec<u8>, k: u8| {
            let mut carry = 0u8;
            for x in d.iter_mut() {
                let t = *x * k + carry;
                *x = t % 10;
                carry = t / 10;
            }
            if carry > 0 {
                d.push(carry);
            }
        };
        let scale = if e2 >= 0 {
            for _ in 0..e2 {
                mul(&mut d, 2);
            }
            0
        } else {
            // mant × 2^-k = mant × 5^k / 10^k.
            for _ in 0..-e2 {
                mul(&mut d, 5);
            }
            -e2
        };
        let digits: Vec<u8> = d.iter().rev().map(|x| x + b'0').collect();
        let point = digits.len() as i64 - scale;
        Dec::from_parts(neg, &digits, point)
    }

    /// Whether the number is below zero.
    pub fn is_negative(&self) -> bool {
        self.neg
    }

    /// Whether the number is zero.
    pub fn is_zero(&self) -> bool {
        matches!(self.digits, Digits::Inline([0, ..]))
    }

    /// The number with the opposite sign (`0` stays `0`).
    pub fn negated(&self) -> Dec {
        Dec {
            neg: !self.neg && !self.is_zero(),
            ..self.clone()
        }
    }

    /// The significant digits (ASCII, no leading or trailing zero; empty
    /// for zero) and the adjusted exponent: the magnitude is
    /// `0.DIGITS × 10^exp`.
    pub fn parts(&self) -> (&str, i32) {
        (self.digits.as_str(), self.exp)
    }

    /// Appends the ELEN key (the `decimal` format's text; see the module
    /// docs). `mirror` writes the key of the negated number.
    pub fn write_elen(&self, mirror: bool, out: &mut Vec<u8>) {
        if self.is_zero() {
            out.push(b'0');
            return;
        }
        let start = out.len();
        let d = self.digits.as_bytes();
        // Integer part and fraction digits.
        let (int, frac_zeros, frac): (&[u8], usize, &[u8]) = if self.exp <= 0 {
            (b"0", (-self.exp) as usize, d)
        } else {
            let e = self.exp as usize;
            if e >= d.len() {
                (d, 0, &[])
            } else {
                (&d[..e], 0, &d[e..])
            }
        };
        let int_len = if self.exp > 0 { self.exp as usize } else { 1 };
        // The chain of lengths: int_len, len(int_len), … until one digit
        // (int_len <= MAX_EXP has 5 digits, so at most 2 entries).
        let mut chain = [0usize; 4];
        let mut levels = 0;
        let mut n = int_len;
        while n > 1 {
            chain[levels] = n;
            levels += 1;
            n = n.ilog10() as usize + 1;
        }
        out.resize(out.len() + levels + 1, b'=');
        for &n in chain[..levels].iter().rev() {
            // Writing into a Vec cannot fail.
            let _ = std::io::Write::write_fmt(out, format_args!("{n}"));
        }
        out.extend_from_slice(int);
        // Zeros of the integer part beyond the significant digits.
        out.resize(out.len() + (int_len - int.len()), b'0');
        out.resize(out.len() + frac_zeros, b'0');
        out.extend_from_slice(frac);
        out.push(b'-');
        if self.neg != mirror {
            for c in &mut out[start..] {
                *c = mirror_symbol(*c);
            }
        }
    }

    /// Reads a whole ELEN key (as [`Dec::write_elen`] writes it, `mirror`
    /// for the key of the negated number).
    ///
    /// # Errors
    /// Any byte sequence the encoder cannot produce, with its offset.
    pub fn read_elen(input: &[u8], mirror: bool) -> Result<Dec, DecodeError> {
        let v = parse_elen(input)?;
        let v = if mirror { v.negated() } else { v };
        // Canonical: the one key of this number, byte for byte.
        let mut again = Vec::with_capacity(input.len());
        v.write_elen(mirror, &mut again);
        if again != input {
            let at = again
                .iter()
                .zip(input)
                .position(|(a, b)| a != b)
                .unwrap_or(again.len().min(input.len()));
            return Err(DecodeError::NonCanonical {
                offset: at,
                reason: "not the ELEN key of any decimal (leading zero, trailing fraction zero or bad length chain)",
            });
        }
        Ok(v)
    }

    /// Appends the binary encoding (see the module docs); `invert` writes
    /// its bitwise NOT (descending).
    pub fn write_binary(&self, invert: bool, out: &mut Vec<u8>) {
        let start = out.len();
        out.resize(start + self.binary_len(), 0);
        self.put_binary(invert, &mut out[start..]);
    }

    /// Writes the binary encoding over `dst`, which is
    /// [`Dec::binary_len`] bytes long: the one writer of the encoding
    /// ([`Dec::write_binary`], [`Dec::binary_bytes`] and the `hex`/`base64`
    /// bodies call it).
    pub(crate) fn put_binary(&self, invert: bool, dst: &mut [u8]) {
        if self.is_zero() {
            if let Some(head) = dst.first_mut() {
                *head = ZERO ^ if invert { 0xFF } else { 0 };
            }
            return;
        }
        let pairs = self.digits.as_bytes().chunks(2).map(|d| {
            let hi = d[0] - b'0';
            let lo = d.get(1).map_or(0, |c| c - b'0');
            hi * 10 + lo
        });
        put_nonzero(self.neg, self.exp, pairs, invert, dst);
    }

    /// The most bytes [`Dec::put_scaled_binary`] writes: the header, two
    /// exponent bytes and the 20 digit pairs of a 39-digit `u128`.
    pub const SCALED_BINARY_MAX: usize = 23;

    /// Writes the binary encoding of `magnitude × 10^-scale` (negative when
    /// `negative` and not zero; NOT-ed when `invert`) at the start of
    /// `dst` and returns its length: the bytes of
    /// `Dec::from_scaled(negative, digits, scale)?.write_binary(invert, …)`
    /// for the digits of `magnitude`, with no `Dec` built and no
    /// allocation (a columnar decimal, Arrow's `Decimal128(p, s)`, straight
    /// to its key). Every such number is in range: no error.
    ///
    /// ```
    /// use lexikey::value::big_decimal::Dec;
    /// let mut buf = [0u8; Dec::SCALED_BINARY_MAX];
    /// let n = Dec::put_scaled_binary(false, 150, 2, false, &mut buf);
    /// let mut key = Vec::new();
    /// Dec::parse("1.5")?.write_binary(false, &mut key);
    /// assert_eq!(&buf[..n], &key[..]);
    /// assert_eq!(&buf[..n], &[0x03, 0x80, 0x01, 0x1E]);
    /// # Ok::<(), lexikey::ParseError>(())
    /// ```
    pub fn put_scaled_binary(
        negative: bool,
        magnitude: u128,
        scale: i8,
        invert: bool,
        dst: &mut [u8; Dec::SCALED_BINARY_MAX],
    ) -> usize {
        if magnitude == 0 {
            dst[0] = ZERO ^ if invert { 0xFF } else { 0 };
            return 1;
        }
        // The significant digits (trailing zeros stripped, `tz` of them) as
        // pairs, most significant first, the last one padded with a zero
        // when their number is odd; in 64 bits once the number fits (a
        // 128-bit division is a library call).
        let mut m = magnitude;
        let mut tz = 0;
        while m > u128::from(u64::MAX) && m.is_multiple_of(10) {
            m /= 10;
            tz += 1;
        }
        if let Ok(mut s) = u64::try_from(m) {
            while s.is_multiple_of(10) {
                s /= 10;
                tz += 1;
            }
            m = u128::from(s);
        }
        let sig = match u64::try_from(m) {
            Ok(s) => s.ilog10(),
            Err(_) => m.ilog10(),
        } as usize
            + 1;
        let np = sig.div_ceil(2);
        let mut pairs = [0u8; 20];
        let mut i = np;
        if sig % 2 == 1 {
            i -= 1;
            let (q, r) = match u64::try_from(m) {
                Ok(s) => (u128::from(s / 10), s % 10),
                Err(_) => (m / 10, (m % 10) as u64),
            };
            pairs[i] = r as u8 * 10;
            m = q;
        }
        while m > u128::from(u64::MAX) {
            i -= 1;
            pairs[i] = (m % 100) as u8;
            m /= 100;
        }
        let mut s = m as u64;
        while i > 0 {
            i -= 1;
            pairs[i] = (s % 100) as u8;
            s /= 100;
        }
        // `0.DIGITS × 10^(digits - scale)`: at most 39 digits and
        // |scale| <= 128, always within MAX_EXP.
        let exp = (sig + tz) as i32 - i32::from(scale);
        let len = 3 + np;
        put_nonzero(
            negative,
            exp,
            pairs[..np].iter().copied(),
            invert,
            &mut dst[..len],
        );
        len
    }

    /// The length of the binary encoding.
    pub fn binary_len(&self) -> usize {
        if self.is_zero() {
            1
        } else {
            3 + self.digits.as_bytes().len().div_ceil(2)
        }
    }

    /// The bytes of the binary encoding ([`Dec::write_binary`] without a
    /// buffer of the caller's).
    pub fn binary_bytes(&self, invert: bool) -> impl Iterator<Item = u8> + '_ {
        let mut bytes = vec![0; self.binary_len()];
        self.put_binary(invert, &mut bytes);
        bytes.into_iter()
    }

    /// Reads a binary encoding from the start of `input` (`invert` for
    /// descending); returns the number and the bytes used.
    ///
    /// # Errors
    /// A bad header, exponent or digit byte, or a truncated body, with its
    /// offset.
    pub fn read_binary(input: &[u8], invert: bool) -> Result<(Dec, usize), DecodeError> {
        let m = if invert { 0xFF } else { 0 };
        let Some(&h) = input.first() else {
            return Err(DecodeError::Truncated {
                offset: 0,
                expected: "a dec header byte",
            });
        };
        let neg = match h ^ m {
            ZERO => return Ok((Dec::zero(), 1)),
            NEG => true,
            POS => false,
            _ => {
                return Err(DecodeError::InvalidSymbol {
                    offset: 0,
                    found: h,
                    expected: if invert {
                        "a descending dec header (FE negative, FD zero, FC positive)"
                    } else {
                        "a dec header (01 negative, 02 zero, 03 positive)"
                    },
                })
            }
        };
        let bm = if neg { m ^ 0xFF } else { m };
        let Some(&[e0, e1]) = input.get(1..3) else {
            return Err(DecodeError::Truncated {
                offset: input.len(),
                expected: "the 2 exponent bytes of a dec",
            });
        };
        let exp = i32::from(u16::from_be_bytes([e0 ^ bm, e1 ^ bm])) - 0x8000;
        if exp.abs() > Dec::MAX_EXP {
            return Err(DecodeError::NonCanonical {
                offset: 1,
                reason: "dec exponent beyond ±32767",
            });
        }
        let mut digits = Vec::new();
        let mut i = 3;
        loop {
            let Some(&b) = input.get(i) else {
                return Err(DecodeError::Truncated {
                    offset: input.len(),
                    expected: "more dec digit bytes (the last one is even)",
                });
            };
            let b = b ^ bm;
            let p = b >> 1;
            if p > 99 {
                return Err(DecodeError::InvalidSymbol {
                    offset: i,
                    found: input[i],
                    expected: "a dec digit pair byte (2p or 2p+1, p <= 99)",
                });
            }
            let last = b & 1 == 0;
            if i == 3 && p < 10 {
                return Err(DecodeError::NonCanonical {
                    offset: i,
                    reason: "a dec's first digit is not 0",
                });
            }
            digits.push(b'0' + p / 10);
            if last {
                if p == 0 {
                    return Err(DecodeError::NonCanonical {
                        offset: i,
                        reason: "a dec's last digit pair is not 00",
                    });
                }
                if p % 10 != 0 {
                    digits.push(b'0' + p % 10);
                }
                i += 1;
                break;
            }
            digits.push(b'0' + p % 10);
            if digits.len() >= Dec::MAX_DIGITS {
                return Err(DecodeError::NonCanonical {
                    offset: i,
                    reason: "a dec holds at most 32767 digits",
                });
            }
            i += 1;
        }
        Ok((
            Dec {
                neg,
                exp,
                digits: Digits::of(&digits, &[]),
            },
            i,
        ))
    }

    /// Magnitude order of two non-zero numbers.
    fn cmp_magnitude(&self, other: &Dec) -> Ordering {
        self.exp
            .cmp(&other.exp)
            .then_with(|| self.digits.as_bytes().cmp(other.digits.as_bytes()))
    }
}

/// `=` ↔ `-`, digit `d` ↔ `9 − d`.
#[inline]
fn mirror_symbol(c: u8) -> u8 {
    match c {
        b'=' => b'-',
        b'-' => b'=',
        d => b'9' - (d - b'0'),
    }
}

/// Parses an ELEN key loosely (the caller re-encodes to check canonicity);
/// never trusts a length beyond the input.
fn parse_elen(input: &[u8]) -> Result<Dec, DecodeError> {
    let Some(&first) = input.first() else {
        return Err(DecodeError::Truncated {
            offset: 0,
            expected: "an ELEN decimal ('0', '=…' or '-…')",
        });
    };
    let neg = match first {
        b'0' => {
            if input.len() > 1 {
                return Err(DecodeError::TrailingBytes { offset: 1 });
            }
            return Ok(Dec::zero());
        }
        b'=' => false,
        b'-' => true,
        c => {
            return Err(DecodeError::InvalidSymbol {
                offset: 0,
                found: c,
                expected: "an ELEN decimal: '0', '=' (positive) or '-' (negative)",
            })
        }
    };
    // Read symbols as the positive form.
    let sym = |i: usize| -> Option<u8> {
        input
            .get(i)
            .map(|&c| if neg { mirror_symbol_checked(c) } else { c })
    };
    let k = (0..input.len())
        .take_while(|&i| sym(i) == Some(b'='))
        .count();
    let mut i = k;
    // The chain: the first element has 1 digit, each next one as many
    // digits as the previous one's value; the last is the integer part.
    let mut len = 1usize;
    let mut int: Vec<u8> = Vec::new();
    for level in 0..k {
        let end = i.checked_add(len).filter(|&e| e <= input.len());
        let Some(end) = end else {
            return Err(DecodeError::Truncated {
                offset: input.len(),
                expected: "the digits an ELEN length announces",
            });
        };
        let mut value = 0usize;
        int.clear();
        for (j, &raw) in input.iter().enumerate().take(end).skip(i) {
            match sym(j) {
                Some(c @ b'0'..=b'9') => {
                    int.push(c);
                    value = value
                        .saturating_mul(10)
                        .saturating_add(usize::from(c - b'0'));
                }
                _ => {
                    return Err(DecodeError::InvalidSymbol {
                        offset: j,
                        found: raw,
                        expected: "a digit of an ELEN number",
                    })
                }
            }
        }
        i = end;
        if level + 1 < k {
            len = value;
            if len > Dec::MAX_EXP as usize {
                return Err(DecodeError::NonCanonical {
                    offset: end - 1,
                    reason: "a dec's integer part has at most 32767 digits",
                });
            }
        }
    }
    // Fraction digits up to the terminator, which must end the input.
    let frac_start = i;
    loop {
        match sym(i) {
            Some(b'0'..=b'9') => i += 1,
            Some(b'-') => break,
            Some(_) => {
                return Err(DecodeError::InvalidSymbol {
                    offset: i,
                    found: input[i],
                    expected: "a fraction digit or the ELEN terminator",
                })
            }
            None => {
                return Err(DecodeError::Truncated {
                    offset: input.len(),
                    expected: if neg {
                        "the '=' that ends a negative ELEN decimal"
                    } else {
                        "the '-' that ends a positive ELEN decimal"
                    },
                })
            }
        }
    }
    if i + 1 != input.len() {
        return Err(DecodeError::TrailingBytes { offset: i + 1 });
    }
    let frac: Vec<u8> = (frac_start..i).filter_map(sym).collect();
    let int_len = int.len() as i64;
    let mut digits = int;
    digits.extend_from_slice(&frac);
    Dec::from_parts(neg, &digits, int_len).map_err(|_| DecodeError::NonCanonical {
        offset: 0,
        reason: "a dec beyond 32767 digits or exponent ±32767",
    })
}

/// [`mirror_symbol`] for untrusted bytes: anything else maps to a byte no
/// parser accepts.
fn mirror_symbol_checked(c: u8) -> u8 {
    match c {
        b'=' | b'-' | b'0'..=b'9' => mirror_symbol(c),
        _ => 0,
    }
}

impl Ord for Dec {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => {
                return if other.neg {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (false, true) => {
                return if self.neg {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            _ => {}
        }
        match (self.neg, other.neg) {
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
        }
    }
}

impl PartialOrd for Dec {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Dec {
    /// Plain decimal notation, no exponent: `-10.5`, `0.0001`, `100`, `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.write_str("0");
        }
        if self.neg {
            f.write_str("-")?;
        }
        let d: &str = self.digits.as_str();
        if self.exp <= 0 {
            f.write_str("0.")?;
            for _ in 0..-self.exp {
                f.write_str("0")?;
            }
            f.write_str(d)
        } else {
            let e = self.exp as usize;
            if e >= d.len() {
                f.write_str(d)?;
                for _ in d.len()..e {
                    f.write_str("0")?;
                }
                Ok(())
            } else {
                write!(f, "{}.{}", &d[..e], &d[e..])
            }
        }
    }
}

impl fmt::Debug for Dec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Dec({self})")
    }
}

impl FromStr for Dec {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Dec, ParseError> {
        Dec::parse(s)
    }
}

macro_rules! dec_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Dec {
            fn from(v: $t) -> Dec {
                let neg = v < 0;
                let mag = (v as i128).unsigned_abs().to_string();
                let n = mag.len() as i64;
                // At most 39 digits: always within the limits.
                Dec::from_parts(neg, mag.as_bytes(), n).unwrap_or_default()
            }
        }
    )*};
}
dec_from_int!(i32, i64, i128);

macro_rules! dec_from_uint {
    ($($t:ty),*) => {$(
        impl From<$t> for Dec {
            fn from(v: $t) -> Dec {
                let mag = v.to_string();
                let n = mag.len() as i64;
                Dec::from_parts(false, mag.as_bytes(), n).unwrap_or_default()
            }
        }
    )*};
}
dec_from_uint!(u32, u64, u128);

impl TryFrom<f64> for Dec {
    type Error = ParseError;
    /// [`Dec::from_f64_exact`].
    fn try_from(v: f64) -> Result<Dec, ParseError> {
        Dec::from_f64_exact(v)
    }
}

/// The newtype-struct name a [`Dec`] serializes under, which lexikey's
/// serializers recognize (published as `serde_key::DEC_NAME`; defined
/// here so that this module does not depend on `serde_key`).
#[cfg(feature = "serde")]
pub(crate) const SERDE_NAME: &str = "lexikey::serde_key::Dec";

#[cfg(feature = "serde")]
impl serde::Serialize for Dec {
    /// A newtype named `lexikey::serde_key::Dec` (`serde_key::DEC_NAME`)
    /// around the plain text (`"10.5"`): other serializers write the
    /// string, lexikey's `serde_key` a `dec` component.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(SERDE_NAME, &self.to_string())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Dec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Dec, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Dec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a decimal number as text")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Dec, E> {
                Dec::parse(s).map_err(E::custom)
            }
            fn visit_newtype_struct<D: serde::Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<Dec, D::Error> {
                let s = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                Dec::parse(&s).map_err(serde::de::Error::custom)
            }
        }
        d.deserialize_newtype_struct(SERDE_NAME, V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_in_place_exactly_when_they_fit() {
        // As small as a `Box<str>` alone: a `Value` holding a `Dec` does
        // not grow.
        assert_eq!(std::mem::size_of::<Digits>(), 16);
        assert_eq!(std::mem::size_of::<Dec>(), 24);
        for (text, inline) in [
            ("0", true),
            ("12345678", true),
            ("-1234.5678", true),
            ("0.000012345678", true),
            ("123456789", false),
            ("1234567.89", false),
            ("100000000", true),
        ] {
            let d = Dec::parse(text).unwrap();
            assert_eq!(matches!(d.digits, Digits::Inline(_)), inline, "{text}");
            // Every way of making the number gives the same value (the
            // same variant): parsed, decoded from its keys, converted.
            let mut b = Vec::new();
            d.write_binary(false, &mut b);
            assert_eq!(Dec::read_binary(&b, false).unwrap().0, d, "{text}");
            let mut e = Vec::new();
            d.write_elen(false, &mut e);
            assert_eq!(Dec::read_elen(&e, false).unwrap(), d, "{text}");
            assert_eq!(Dec::parse(&d.to_string()).unwrap(), d, "{text}");
        }
        assert_eq!(Dec::from(123_456_789_i64), Dec::parse("123456789").unwrap());
        assert_eq!(Dec::from(12_345_678_i64), Dec::parse("12345678").unwrap());
    }

    fn elen(s: &str) -> String {
        let mut out = Vec::new();
        Dec::parse(s).unwrap().write_elen(false, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn module_table() {
        for (v, k) in [
            ("-10.5", "--7894="),
            ("-1", "-8="),
            ("-0.5", "-94="),
            ("0", "0"),
            ("0.5", "=05-"),
            ("1", "=1-"),
            ("10.5", "==2105-"),
        ] {
            assert_eq!(elen(v), k, "{v}");
            assert_eq!(
                Dec::read_elen(k.as_bytes(), false).unwrap(),
                Dec::parse(v).unwrap()
            );
        }
        let mut b = Vec::new();
        Dec::parse("1.5").unwrap().write_binary(false, &mut b);
        assert_eq!(b, [0x03, 0x80, 0x01, 0x1E]);
    }

    #[test]
    fn huge_claimed_lengths_are_truncation_errors() {
        for k in ["===9999999999-", "====9", "==9123-", "=", "-", "=-"] {
            assert!(Dec::read_elen(k.as_bytes(), false).is_err(), "{k}");
        }
    }
}
