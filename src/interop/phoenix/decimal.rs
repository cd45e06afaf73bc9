//! Phoenix's `DECIMAL` (base-100 digits, as `PDecimal` writes them) and
//! `CHAR` (fixed width, space-padded) bodies.

use super::{
    DECIMAL_MAX_DIGIT_BYTES, DECIMAL_MAX_EXP, DECIMAL_MIN_EXP, DECIMAL_NEG_TERMINATOR,
    DECIMAL_ZERO, MAX_DECIMAL_PRECISION,
};
use crate::error::DecodeError;
use crate::interop::hbase::Decimal;

/// The base-100 form of a non-zero decimal: `E`, the exponent of the
/// leading digit, and the digits `D₀…Dₖ` (each 0–99) of `0.D₀D₁…Dₖ ×
/// 100^(E+1)`, the decimal point falling between two base-100 digits.
fn centesimal(d: &Decimal) -> Result<(i64, Vec<u8>), &'static str> {
    if d.digits().len() > MAX_DECIMAL_PRECISION {
        return Err("DECIMAL has more than 38 significant digits (Phoenix's maximum precision)");
    }
    // 0.d1d2… × 10^x: an odd x takes a leading 0 digit so that the point
    // falls on a pair boundary; an odd count takes a trailing 0.
    let x = d.exponent();
    let odd = x.rem_euclid(2);
    let mut ds = Vec::with_capacity(d.digits().len() + 2);
    if odd == 1 {
        ds.push(0);
    }
    ds.extend_from_slice(d.digits());
    if ds.len() % 2 == 1 {
        ds.push(0);
    }
    let exp = (x + odd) / 2 - 1;
    if !(DECIMAL_MIN_EXP..=DECIMAL_MAX_EXP).contains(&exp) {
        return Err("DECIMAL out of range: Phoenix keys hold 1e-126 <= |v| < 1e124");
    }
    Ok((exp, ds.chunks(2).map(|p| p[0] * 10 + p[1]).collect()))
}

/// What [`parse_value_with`](super::parse_value_with) does with a `DECIMAL` of more than 38
/// significant digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DecimalRounding {
    /// Refuse it, naming the value Phoenix would store (the default: a key
    /// must not silently stand for another number).
    #[default]
    Refuse,
    /// Round it as Phoenix does before writing it ([`round_decimal`]); the
    /// key is then the one Phoenix writes for the value given.
    HalfUp,
}

/// The value Phoenix stores for `d`: `NumberUtil.normalize`, i.e.
/// `BigDecimal.round(PDataType.DEFAULT_MATH_CONTEXT)` — 38 significant
/// digits, `RoundingMode.HALF_UP` (ties away from zero) — then
/// `stripTrailingZeros()`. `PDecimal.toBytes` applies it before writing,
/// so the exponent range (`10^-126 <= |v| < 10^124`, [`decimal_fits`]) is
/// checked on the rounded value: 39 nines times `10^84` round to `10^124`,
/// out of range, and `9.99…9e-127` (39 nines) to `1e-126`, in range.
///
/// ```
/// use lexikey::interop::phoenix::{round_decimal, Decimal};
/// let d: Decimal = "99.9999999999999999999999999999999999999".parse()?; // 39 nines
/// assert_eq!(round_decimal(&d).to_string(), "100");
/// # Ok::<(), lexikey::ParseError>(())
/// ```
pub fn round_decimal(d: &Decimal) -> Decimal {
    d.rounded(MAX_DECIMAL_PRECISION)
}

/// Whether Phoenix can write `d` in a row key and read it back (see the
/// module docs: precision 38, `10^-126 <= |d| < 10^124`).
///
/// ```
/// use lexikey::interop::phoenix::{decimal_fits, Decimal};
/// assert!(decimal_fits(&"-1.5e-7".parse::<Decimal>()?).is_ok());
/// assert!(decimal_fits(&"1e124".parse::<Decimal>()?).is_err());
/// # Ok::<(), lexikey::ParseError>(())
/// ```
///
/// # Errors
/// The reason, as [`ValueError::Unencodable`](crate::interop::ValueError::Unencodable) would give it.
pub fn decimal_fits(d: &Decimal) -> Result<(), &'static str> {
    if d.is_zero() {
        return Ok(());
    }
    centesimal(d).map(|_| ())
}

/// Appends the ascending `DECIMAL` bytes of `d` (`PDecimal.toBytes`).
pub(super) fn encode_decimal(d: &Decimal, out: &mut Vec<u8>) -> Result<(), &'static str> {
    if d.is_zero() {
        out.push(DECIMAL_ZERO);
        return Ok(());
    }
    let (exp, digits) = centesimal(d)?;
    // exp is -63..=61, so both exponent bytes fit in a u8.
    if d.is_negative() {
        out.push((62 - exp) as u8);
        out.extend(digits.iter().map(|c| 101 - c));
        if digits.len() < DECIMAL_MAX_DIGIT_BYTES {
            out.push(DECIMAL_NEG_TERMINATOR);
        }
    } else {
        out.push((exp + 65) as u8 | 0x80);
        out.extend(digits.iter().map(|c| c + 1));
    }
    Ok(())
}

/// Decodes the `DECIMAL` at `raw` (the key's bytes of the value, `mask`
/// `FF` for DESC), `at` the key offset of `raw[0]`. `raw` is not empty.
pub(super) fn decode_decimal(raw: &[u8], mask: u8, at: usize) -> Result<Decimal, DecodeError> {
    let b: Vec<u8> = raw.iter().map(|x| x ^ mask).collect();
    let noncanon = |offset, reason| DecodeError::NonCanonical { offset, reason };
    let head = b[0];
    if head == DECIMAL_ZERO {
        if b.len() > 1 {
            return Err(noncanon(at + 1, "bytes after a DECIMAL zero (80)"));
        }
        return Ok(Decimal::default());
    }
    let negative = head & 0x80 == 0;
    let exp = if negative {
        62 - i64::from(head)
    } else {
        i64::from(head & 0x7F) - 65
    };
    if !(DECIMAL_MIN_EXP..=DECIMAL_MAX_EXP).contains(&exp) {
        return Err(DecodeError::InvalidSymbol {
            offset: at,
            found: raw[0],
            expected: "a DECIMAL exponent byte 01-7D or 82-FE (ascending form)",
        });
    }
    let mut body = &b[1..];
    let terminated = negative && body.last() == Some(&DECIMAL_NEG_TERMINATOR);
    if terminated {
        body = &body[..body.len() - 1];
    }
    if body.is_empty() {
        return Err(DecodeError::Truncated {
            offset: at + b.len(),
            expected: "DECIMAL digits",
        });
    }
    let (lo, hi) = if negative { (2, 101) } else { (1, 100) };
    if let Some(i) = body.iter().position(|x| !(lo..=hi).contains(x)) {
        return Err(DecodeError::InvalidSymbol {
            offset: at + 1 + i,
            found: raw[1 + i],
            expected: "a DECIMAL digit byte",
        });
    }
    if body.len() > DECIMAL_MAX_DIGIT_BYTES {
        return Err(noncanon(
            at + 1 + DECIMAL_MAX_DIGIT_BYTES,
            "a DECIMAL is at most 21 bytes",
        ));
    }
    if negative && !terminated && body.len() < DECIMAL_MAX_DIGIT_BYTES {
        return Err(DecodeError::Truncated {
            offset: at + b.len(),
            expected: "the terminator 66 after a negative DECIMAL",
        });
    }
    if terminated && body.len() == DECIMAL_MAX_DIGIT_BYTES {
        return Err(noncanon(
            at + b.len() - 1,
            "Phoenix writes no terminator after 20 DECIMAL digit bytes",
        ));
    }
    let centi: Vec<u8> = body
        .iter()
        .map(|x| if negative { 101 - x } else { x - 1 })
        .collect();
    if centi[0] == 0 {
        return Err(noncanon(at + 1, "a leading zero DECIMAL digit"));
    }
    if centi[centi.len() - 1] == 0 {
        return Err(noncanon(at + centi.len(), "a trailing zero DECIMAL digit"));
    }
    let digits: Vec<u8> = centi.iter().flat_map(|c| [c / 10, c % 10]).collect();
    let d = Decimal::new(negative, &digits, 2 * (exp + 1)).unwrap_or_default();
    if d.digits().len() > MAX_DECIMAL_PRECISION {
        return Err(noncanon(
            at,
            "a DECIMAL of more than 38 significant digits (Phoenix rounds to 38)",
        ));
    }
    // Belt and braces: the bytes must be the ones Phoenix writes for `d`.
    let mut again = Vec::with_capacity(b.len());
    match encode_decimal(&d, &mut again) {
        Ok(()) if again == b => Ok(d),
        _ => {
            let i = again
                .iter()
                .zip(&b)
                .position(|(x, y)| x != y)
                .unwrap_or(again.len().min(b.len()));
            Err(noncanon(at + i, "Phoenix writes this DECIMAL differently"))
        }
    }
}

/// Why a `CHAR(n)` value cannot be written, if it cannot.
pub(crate) fn check_char(s: &str, n: u16) -> Result<(), &'static str> {
    if !s.is_ascii() {
        return Err("CHAR holds single-byte (ASCII) characters only");
    }
    if s.len() > usize::from(n) {
        return Err("longer than the CHAR(n) column's n characters");
    }
    Ok(())
}
