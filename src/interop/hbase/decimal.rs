//! HBase's decimal numbers: [`Decimal`] (exact digits, no bignum) and the
//! `Numeric` encoding of `OrderedBytes` (`encodeNumeric`), which every
//! HBase number shares.

use super::MAX_PRECISION;
use crate::value::ParseError;
use std::cmp::Ordering;
use std::fmt;

/// A finite decimal number `±0.d₁d₂…dₙ × 10^exponent`, kept as its decimal
/// digits (no bignum): no leading or trailing zero digits; zero has no
/// digits and is not negative. The representation is unique, so the
/// derived `Eq` is numeric equality; `Ord` is numeric order.
///
/// ```
/// use lexikey::interop::hbase::Decimal;
/// let d: Decimal = "-123.4500".parse()?;
/// assert_eq!(d.digits(), &[1, 2, 3, 4, 5]);
/// assert_eq!(d.exponent(), 3);
/// assert_eq!(d.to_string(), "-123.45");
/// assert_eq!("1e400".parse::<Decimal>()?.to_string(), "1E+400");
/// # Ok::<(), lexikey::ParseError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Decimal {
    pub(super) negative: bool,
    pub(super) digits: Vec<u8>,
    pub(super) exponent: i64,
}

/// The largest decimal exponent magnitude [`Decimal`] accepts
/// (`java.math.BigDecimal`'s scale is an `int`).
pub const MAX_DECIMAL_EXPONENT: i64 = 2_147_483_647;

impl Decimal {
    /// A decimal from a sign, decimal digits (each `0..=9`) and the
    /// exponent of `0.d₁d₂… × 10^exponent`. Leading and trailing zero digits
    /// are dropped (adjusting the exponent). `None` if a digit is over 9 or
    /// the exponent leaves ±[`MAX_DECIMAL_EXPONENT`].
    pub fn new(negative: bool, digits: &[u8], exponent: i64) -> Option<Decimal> {
        if digits.iter().any(|&d| d > 9) {
            return None;
        }
        let lead = digits.iter().take_while(|&&d| d == 0).count();
        let digits = &digits[lead..];
        let trail = digits.iter().rev().take_while(|&&d| d == 0).count();
        let digits = &digits[..digits.len() - trail];
        if digits.is_empty() {
            return Some(Decimal::default());
        }
        let exponent = exponent.checked_sub(i64::try_from(lead).ok()?)?;
        if exponent.abs() > MAX_DECIMAL_EXPONENT {
            return None;
        }
        Some(Decimal {
            negative,
            digits: digits.to_vec(),
            exponent,
        })
    }

    /// Whether the number is below zero.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// Whether the number is zero.
    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// The significant digits, most significant first (empty for zero).
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The exponent `x` of `0.d₁d₂… × 10^x` (0 for zero).
    pub fn exponent(&self) -> i64 {
        self.exponent
    }

    /// Parses decimal syntax: an optional sign, digits with an optional
    /// `.`, an optional exponent (`e`/`E`, optional sign, digits):
    /// `42`, `-0.00123`, `1.5e-7`, `1E+308`.
    ///
    /// # Errors
    /// A [`ParseError`] for bad syntax or an exponent out of range.
    pub fn parse(text: &str) -> Result<Decimal, ParseError> {
        let err = || {
            ParseError::new(format!(
                "invalid decimal {text:?}: expected digits with an optional sign, '.' and exponent"
            ))
        };
        let (negative, rest) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let (mantissa, exp) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if int.is_empty() && frac.is_empty() {
            return Err(err());
        }
        if !int.bytes().chain(frac.bytes()).all(|c| c.is_ascii_digit()) {
            return Err(err());
        }
        let exp: i64 = match exp {
            Some(e) => {
                let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if digits.is_empty()
                    || digits.len() > 12
                    || !digits.bytes().all(|c| c.is_ascii_digit())
                {
                    return Err(err());
                }
                e.parse().map_err(|_| err())?
            }
            None => 0,
        };
        let digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|c| c - b'0').collect();
        let exponent = i64::try_from(int.len())
            .ok()
            .and_then(|n| n.checked_add(exp))
            .ok_or_else(err)?;
        Decimal::new(negative, &digits, exponent).ok_or_else(|| {
            ParseError::new(format!("invalid decimal {text:?}: exponent out of range"))
        })
    }

    /// The decimal of an `f64`'s shortest round-trip form (what Java's
    /// `BigDecimal.valueOf(double)` gives on JDK 19 and later). `None` for
    /// NaN and infinities; `-0.0` is zero.
    pub fn from_f64(f: f64) -> Option<Decimal> {
        if !f.is_finite() {
            return None;
        }
        Decimal::parse(&format!("{f:e}")).ok()
    }

    /// The nearest `f64` (`BigDecimal.doubleValue()`).
    pub fn to_f64(&self) -> f64 {
        // The shortest-digit text parses correctly rounded.
        self.to_string().parse().unwrap_or(f64::NAN)
    }

    /// HBase's `OrderedBytes.normalize`: at most [`MAX_PRECISION`]
    /// significant digits, rounded half up (away from zero).
    ///
    /// ```
    /// use lexikey::interop::hbase::Decimal;
    /// let d: Decimal = "0.99999999999999999999999999999995".parse()?; // 32 nines and a 5
    /// assert_eq!(d.normalized().to_string(), "1");
    /// # Ok::<(), lexikey::ParseError>(())
    /// ```
    pub fn normalized(&self) -> Decimal {
        self.rounded(MAX_PRECISION)
    }

    /// At most `precision` (at least 1) significant digits, rounded half up
    /// (away from zero), as `BigDecimal.round(new MathContext(precision,
    /// RoundingMode.HALF_UP))` then `stripTrailingZeros()`.
    ///
    /// ```
    /// use lexikey::interop::hbase::Decimal;
    /// let d: Decimal = "-2.45".parse()?;
    /// assert_eq!(d.rounded(2).to_string(), "-2.5");
    /// assert_eq!("99.96".parse::<Decimal>()?.rounded(3).to_string(), "100");
    /// # Ok::<(), lexikey::ParseError>(())
    /// ```
    pub fn rounded(&self, precision: usize) -> Decimal {
        let precision = precision.max(1);
        if self.digits.len() <= precision {
            return self.clone();
        }
        let mut digits = self.digits[..precision].to_vec();
        let mut exponent = self.exponent;
        if self.digits[precision] >= 5 {
            let mut i = precision;
            loop {
                if i == 0 {
                    digits.insert(0, 1);
                    exponent += 1;
                    break;
                }
                i -= 1;
                if digits[i] == 9 {
                    digits[i] = 0;
                } else {
                    digits[i] += 1;
                    break;
                }
            }
        }
        // Only a carry past the largest exponent fails `new`: the result is
        // then exactly 0.1 × 10^exponent, which the encoders refuse as too
        // large (never zero).
        Decimal::new(self.negative, &digits, exponent).unwrap_or_else(|| Decimal {
            negative: self.negative,
            digits: vec![1],
            exponent,
        })
    }

    fn cmp_magnitude(&self, other: &Decimal) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (false, false) => self
                .exponent
                .cmp(&other.exponent)
                .then_with(|| self.digits.cmp(&other.digits)),
        }
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.negative, other.negative) {
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
        }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::str::FromStr for Decimal {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Decimal::parse(s)
    }
}

impl fmt::Display for Decimal {
    /// Plain notation (`-123.45`, `0.00123`, `1000`) when the exponent is
    /// between −6 and 40, else scientific (`1.5E+400`, `4.9E-324`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.write_str("0");
        }
        if self.negative {
            f.write_str("-")?;
        }
        let ds: String = self.digits.iter().map(|d| char::from(b'0' + d)).collect();
        let n = ds.len() as i64;
        let x = self.exponent;
        if (-6..=40).contains(&x) {
            if x <= 0 {
                write!(f, "0.{}{ds}", "0".repeat((-x) as usize))
            } else if x >= n {
                write!(f, "{ds}{}", "0".repeat((x - n) as usize))
            } else {
                let (a, b) = ds.split_at(x as usize);
                write!(f, "{a}.{b}")
            }
        } else {
            let (a, b) = ds.split_at(1);
            let e = x - 1;
            let sign = if e < 0 { '-' } else { '+' };
            if b.is_empty() {
                write!(f, "{a}E{sign}{}", e.abs())
            } else {
                write!(f, "{a}.{b}E{sign}{}", e.abs())
            }
        }
    }
}

/// A value of the numeric encoding: −infinity < every finite decimal <
/// +infinity < NaN (the order of the headers `07`, `08`–`22`, `23`, `26`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Numeric {
    /// −infinity (`07`).
    NegInfinity,
    /// A finite number.
    Finite(Decimal),
    /// +infinity (`23`).
    Infinity,
    /// NaN (`26`).
    NaN,
}

impl From<i64> for Numeric {
    fn from(v: i64) -> Self {
        Numeric::Finite(Decimal::parse(&v.to_string()).unwrap_or_default())
    }
}

impl From<f64> for Numeric {
    fn from(f: f64) -> Self {
        if f.is_nan() {
            Numeric::NaN
        } else if f == f64::INFINITY {
            Numeric::Infinity
        } else if f == f64::NEG_INFINITY {
            Numeric::NegInfinity
        } else {
            Numeric::Finite(Decimal::from_f64(f).unwrap_or_default())
        }
    }
}

impl From<Decimal> for Numeric {
    fn from(d: Decimal) -> Self {
        Numeric::Finite(d)
    }
}

impl Numeric {
    /// Parses a decimal ([`Decimal::parse`]) or `inf`, `+inf`, `-inf`,
    /// `infinity`, `NaN` (either case).
    ///
    /// # Errors
    /// A [`ParseError`] for bad syntax.
    pub fn parse(text: &str) -> Result<Numeric, ParseError> {
        Ok(match text.to_ascii_lowercase().as_str() {
            "inf" | "+inf" | "infinity" | "+infinity" => Numeric::Infinity,
            "-inf" | "-infinity" => Numeric::NegInfinity,
            "nan" => Numeric::NaN,
            _ => Numeric::Finite(Decimal::parse(text)?),
        })
    }
}

impl std::str::FromStr for Numeric {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Numeric::parse(s)
    }
}

impl fmt::Display for Numeric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Numeric::NegInfinity => f.write_str("-inf"),
            Numeric::Finite(d) => d.fmt(f),
            Numeric::Infinity => f.write_str("inf"),
            Numeric::NaN => f.write_str("NaN"),
        }
    }
}
