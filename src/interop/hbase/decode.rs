//! `OrderedBytes` keys back to values and `Struct` rows, canonically.

use super::decimal::{Decimal, Numeric};
use super::varint::read_varint;
use super::{
    Codec, Field, Kind, NumericEncoding, Value, BLOB_COPY, BLOB_VAR, FIXED_FLOAT32, FIXED_FLOAT64,
    FIXED_INT16, FIXED_INT32, FIXED_INT64, FIXED_INT8, MAX_EXPONENT, MAX_LARGE_EXPONENT,
    MAX_PRECISION, MAX_SMALL_EXPONENT, NAN, NEG_INF, NEG_LARGE, NEG_MED_MAX, NEG_MED_MIN,
    NEG_SMALL, NULL, POS_INF, POS_LARGE, POS_MED_MAX, POS_MED_MIN, POS_SMALL, TEXT, ZERO,
};
use crate::error::DecodeError;
use crate::order::{self, NanRule};

/// Decodes one value of `field` starting at `pos` in `key`; returns it and
/// the offset after it. Offsets in errors are offsets into `key`.
///
/// ```
/// use lexikey::interop::hbase::{decode_value, Field, Kind, Value};
/// let key = [0x2C, 0x80, 0, 0, 0, 0, 0, 0, 0x05];
/// assert_eq!(decode_value(Field::asc(Kind::Int64), &key, 0)?, (Value::Int64(5), 9));
/// let err = decode_value(Field::desc(Kind::Int64), &key, 0).unwrap_err();
/// assert_eq!(err.offset(), 0); // an ascending header where a descending one belongs
/// # Ok::<(), lexikey::DecodeError>(())
/// ```
///
/// # Errors
/// [`DecodeError::UnexpectedTag`] for a header of another type or order,
/// [`DecodeError::Truncated`] when the key ends inside the value,
/// [`DecodeError::NonCanonical`] and [`DecodeError::InvalidSymbol`] for
/// bytes HBase's encoder would not write, [`DecodeError::InvalidUtf8`]
/// for text.
pub fn decode_value(field: Field, key: &[u8], pos: usize) -> Result<(Value, usize), DecodeError> {
    Codec::CURRENT.decode_value(field, key, pos)
}

/// Decodes a whole key as a struct of `schema` (HBase `Struct.decode`):
/// returns one value per field, null for the fields after the end of the
/// key.
///
/// # Errors
/// As [`decode_value`], plus [`DecodeError::NonCanonical`] for an
/// explicitly written trailing null (HBase's `Struct` omits them),
/// [`DecodeError::TrailingBytes`] after the last field, and
/// [`DecodeError::SchemaRequired`] (offset 0) for a schema with a
/// blob-copy field that is not the last.
pub fn decode_struct(schema: &[Field], key: &[u8]) -> Result<Vec<Value>, DecodeError> {
    Codec::CURRENT.decode_struct(schema, key)
}

pub(super) struct Reader<'a> {
    pub(super) key: &'a [u8],
    pub(super) mask: u8,
    pub(super) numeric: NumericEncoding,
}

impl Reader<'_> {
    fn get(&self, i: usize, expected: &'static str) -> Result<u8, DecodeError> {
        self.key
            .get(i)
            .map(|b| b ^ self.mask)
            .ok_or(DecodeError::Truncated {
                offset: self.key.len(),
                expected,
            })
    }

    fn fixed<const N: usize>(&self, pos: usize) -> Result<[u8; N], DecodeError> {
        let mut a = [0u8; N];
        for (i, b) in a.iter_mut().enumerate() {
            *b = self.get(pos + i, "fixed-width value bytes")?;
        }
        Ok(a)
    }

    pub(super) fn value(&self, kind: Kind, pos: usize) -> Result<(Value, usize), DecodeError> {
        let raw = *self.key.get(pos).ok_or(DecodeError::Truncated {
            offset: self.key.len(),
            expected: "a header byte",
        })?;
        let h = raw ^ self.mask;
        let body = pos + 1;
        let wrong = |expected| DecodeError::UnexpectedTag {
            offset: pos,
            found: raw,
            expected,
        };
        // Ascending headers are below 0x80: the header's own order must be
        // the field's.
        if raw >= 0x80 && self.mask == 0 || raw < 0x80 && self.mask != 0 {
            return Err(wrong(if self.mask == 0 {
                "an ascending header (below 0x80)"
            } else {
                "a descending header (0x80 or above)"
            }));
        }
        if h == NULL && kind.is_nullable() {
            if kind == Kind::BlobCopy && self.mask != 0 {
                let t = self.get(body, "0x00 ending a descending blob-copy null")?;
                if t != 0 {
                    return Err(DecodeError::InvalidSymbol {
                        offset: body,
                        found: self.key[body],
                        expected: "0xFF ending a descending blob-copy null",
                    });
                }
                return Ok((Value::Null, body + 1));
            }
            return Ok((Value::Null, body));
        }
        Ok(match kind {
            Kind::Int8 if h == FIXED_INT8 => {
                let [b] = self.fixed::<1>(body)?;
                (Value::Int8((b ^ 0x80) as i8), body + 1)
            }
            Kind::Int16 if h == FIXED_INT16 => {
                let b = self.fixed::<2>(body)?;
                (
                    Value::Int16((u16::from_be_bytes(b) ^ 0x8000) as i16),
                    body + 2,
                )
            }
            Kind::Int32 if h == FIXED_INT32 => {
                let b = self.fixed::<4>(body)?;
                (
                    Value::Int32((u32::from_be_bytes(b) ^ 0x8000_0000) as i32),
                    body + 4,
                )
            }
            Kind::Int64 if h == FIXED_INT64 => {
                let b = self.fixed::<8>(body)?;
                (
                    Value::Int64((u64::from_be_bytes(b) ^ 1 << 63) as i64),
                    body + 8,
                )
            }
            Kind::Float32 if h == FIXED_FLOAT32 => {
                let t = u32::from_be_bytes(self.fixed::<4>(body)?);
                let f = order::f32_from_order(t, NanRule::Canonical).ok_or(
                    DecodeError::NonCanonical {
                        offset: body,
                        reason: "a NaN other than Java's canonical 0x7fc00000",
                    },
                )?;
                (Value::Float32(f), body + 4)
            }
            Kind::Float64 if h == FIXED_FLOAT64 => {
                let t = u64::from_be_bytes(self.fixed::<8>(body)?);
                let f = order::f64_from_order(t, NanRule::Canonical).ok_or(
                    DecodeError::NonCanonical {
                        offset: body,
                        reason: "a NaN other than Java's canonical 0x7ff8000000000000",
                    },
                )?;
                (Value::Float64(f), body + 8)
            }
            Kind::Numeric if (NEG_INF..=NAN).contains(&h) && h != 0x24 && h != 0x25 => {
                let (n, next) = self.numeric(h, pos)?;
                (Value::Numeric(n), next)
            }
            Kind::Text if h == TEXT => {
                let mut i = body;
                let mut bytes = Vec::new();
                loop {
                    let b = self.get(i, "0x00 ending the text")?;
                    if b == 0 {
                        break;
                    }
                    bytes.push(b);
                    i += 1;
                }
                match String::from_utf8(bytes) {
                    Ok(s) => (Value::Text(s), i + 1),
                    Err(e) => {
                        return Err(DecodeError::InvalidUtf8 {
                            offset: body + e.utf8_error().valid_up_to(),
                        })
                    }
                }
            }
            Kind::BlobVar if h == BLOB_VAR => self.blob_var(body)?,
            Kind::BlobCopy if h == BLOB_COPY => {
                let end = if self.mask == 0 {
                    self.key.len()
                } else {
                    // Descending: the value, then an inverted 0x00 at the very end.
                    let last = self.key.len().checked_sub(1).filter(|&l| l >= body);
                    match last {
                        Some(l) if self.key[l] == 0xFF => l,
                        Some(l) => {
                            return Err(DecodeError::InvalidSymbol {
                                offset: l,
                                found: self.key[l],
                                expected: "0xFF ending a descending blob-copy",
                            })
                        }
                        None => {
                            return Err(DecodeError::Truncated {
                                offset: self.key.len(),
                                expected: "0xFF ending a descending blob-copy",
                            })
                        }
                    }
                };
                let mut v = Vec::with_capacity(end - body);
                for i in body..end {
                    let b = self.key[i] ^ self.mask;
                    if b == 0 && self.mask != 0 {
                        return Err(DecodeError::InvalidSymbol {
                            offset: i,
                            found: self.key[i],
                            expected: "no 0xFF (0x00) inside a descending blob-copy",
                        });
                    }
                    v.push(b);
                }
                let next = if self.mask == 0 { end } else { end + 1 };
                (Value::Bytes(v), next)
            }
            _ => {
                return Err(wrong(match kind {
                    Kind::Int8 => "the int8 header 0x29 (0xD6 descending)",
                    Kind::Int16 => "the int16 header 0x2A (0xD5 descending)",
                    Kind::Int32 => "the int32 header 0x2B (0xD4 descending)",
                    Kind::Int64 => "the int64 header 0x2C (0xD3 descending)",
                    Kind::Float32 => "the float32 header 0x30 (0xCF descending)",
                    Kind::Float64 => "the float64 header 0x31 (0xCE descending)",
                    Kind::Numeric => "a numeric header 0x05-0x23 or 0x26 (inverted descending)",
                    Kind::Text => "the text header 0x34 (0xCB descending) or null",
                    Kind::BlobVar => "the blob-var header 0x37 (0xC8 descending) or null",
                    Kind::BlobCopy => "the blob-copy header 0x38 (0xC7 descending) or null",
                }))
            }
        })
    }

    fn blob_var(&self, body: usize) -> Result<(Value, usize), DecodeError> {
        // Collect the 7-bit groups up to the one with the MSB clear.
        let mut groups = Vec::new();
        let mut i = body;
        loop {
            let b = self.get(i, "a blob-var byte with the high bit clear")?;
            groups.push(b & 0x7F);
            i += 1;
            if b & 0x80 == 0 {
                break;
            }
        }
        let last = i - 1;
        if groups.len() == 1 && groups[0] == 0 {
            return Ok((Value::Bytes(Vec::new()), i));
        }
        let total_bits = groups.len() * 7;
        let n = total_bits / 8;
        if n == 0 || (n * 8).div_ceil(7) != groups.len() {
            return Err(DecodeError::NonCanonical {
                offset: last,
                reason: "blob-var longer than its bytes need",
            });
        }
        let mut out = vec![0u8; n];
        for bit in 0..total_bits {
            let set = groups[bit / 7] & (0x40 >> (bit % 7)) != 0;
            if bit < n * 8 {
                if set {
                    out[bit / 8] |= 0x80 >> (bit % 8);
                }
            } else if set {
                return Err(DecodeError::NonCanonical {
                    offset: last,
                    reason: "blob-var padding bits are not zero",
                });
            }
        }
        Ok((Value::Bytes(out), i))
    }

    /// Decodes a numeric value whose (de-masked) header `h` is at `pos`.
    fn numeric(&self, h: u8, pos: usize) -> Result<(Numeric, usize), DecodeError> {
        let body = pos + 1;
        let noncanon = |offset, reason| DecodeError::NonCanonical { offset, reason };
        let (negative, e, m_at, m_comp): (bool, i64, usize, bool) = match h {
            NEG_INF => return Ok((Numeric::NegInfinity, body)),
            POS_INF => return Ok((Numeric::Infinity, body)),
            NAN => return Ok((Numeric::NaN, body)),
            ZERO => return Ok((Numeric::Finite(Decimal::default()), body)),
            NEG_LARGE | POS_LARGE => {
                let neg = h == NEG_LARGE;
                let (e, len) = read_varint(self.key, body, self.mask ^ if neg { 0xFF } else { 0 })?;
                if e <= 10 {
                    return Err(noncanon(
                        pos,
                        "large-number header for an exponent of 10 or less",
                    ));
                }
                if e > MAX_EXPONENT {
                    return Err(noncanon(
                        body,
                        "exponent beyond java.math.BigDecimal's range",
                    ));
                }
                if self.numeric == NumericEncoding::Legacy && e > MAX_LARGE_EXPONENT + 1 {
                    return Err(noncanon(body, LEGACY_NEVER_WROTE));
                }
                (neg, e as i64, body + len, neg)
            }
            NEG_SMALL | POS_SMALL => {
                let neg = h == NEG_SMALL;
                let (e, len) = read_varint(self.key, body, self.mask ^ if neg { 0 } else { 0xFF })?;
                if e > MAX_SMALL_EXPONENT {
                    return Err(noncanon(
                        body,
                        "exponent beyond java.math.BigDecimal's range",
                    ));
                }
                (neg, -(e as i64), body + len, neg)
            }
            NEG_MED_MIN..=NEG_MED_MAX | POS_MED_MIN..=POS_MED_MAX => {
                let neg = h <= NEG_MED_MAX;
                let e = if neg {
                    NEG_MED_MAX - h
                } else {
                    h - POS_MED_MIN
                };
                if e == 0 {
                    return Err(noncanon(
                        pos,
                        "medium-number header for exponent 0 (a small number)",
                    ));
                }
                (neg, i64::from(e), body, neg)
            }
            _ => unreachable!("numeric() is only called with numeric headers"),
        };
        let comp = if m_comp { 0xFF } else { 0 };
        let large = matches!(h, NEG_LARGE | POS_LARGE);
        match self.mantissa(negative, e, pos, m_at, comp) {
            // A key of the old encoder for 100^351 and above: its shape is
            // known, whatever the current decoder found wrong.
            Err(err)
                if large
                    && (e == MAX_LARGE_EXPONENT as i64 || e == MAX_LARGE_EXPONENT as i64 + 1) =>
            {
                match self.legacy_mantissa(negative, e, m_at, comp) {
                    Some(found) if self.numeric == NumericEncoding::Legacy => Ok(found),
                    Some(_) => Err(noncanon(m_at, LEGACY_KEY)),
                    None => Err(err),
                }
            }
            other => other,
        }
    }

    /// The canonical mantissa at `m_at` (bytes 2X+1, the last one 2X, XORed
    /// with `comp` for a negative number) of a number with exponent `e`.
    fn mantissa(
        &self,
        negative: bool,
        e: i64,
        pos: usize,
        m_at: usize,
        comp: u8,
    ) -> Result<(Numeric, usize), DecodeError> {
        let noncanon = |offset, reason| DecodeError::NonCanonical { offset, reason };
        let mut dec = Vec::new();
        let mut i = m_at;
        loop {
            let b = self.get(i, "numeric mantissa bytes")? ^ comp;
            let c = b >> 1;
            if c > 99 {
                return Err(DecodeError::InvalidSymbol {
                    offset: i,
                    found: self.key[i],
                    expected: "a centimal digit byte (2X or 2X+1, X <= 99)",
                });
            }
            if i == m_at && c == 0 {
                return Err(noncanon(i, "leading zero centimal digit"));
            }
            dec.push(c / 10);
            dec.push(c % 10);
            i += 1;
            if b & 1 == 0 {
                if c == 0 {
                    return Err(noncanon(i - 1, "trailing zero centimal digit"));
                }
                break;
            }
        }
        // A small number's exponent within MAX_SMALL_EXPONENT can still leave
        // BigDecimal's range once a leading zero digit is dropped: refused,
        // never read as zero.
        let Some(d) = Decimal::new(negative, &dec, 2 * e) else {
            return Err(noncanon(
                pos + 1,
                "exponent beyond java.math.BigDecimal's range",
            ));
        };
        if d.digits.len() > MAX_PRECISION {
            return Err(noncanon(m_at, "more than 31 significant digits"));
        }
        Ok((Numeric::Finite(d), i))
    }

    /// A mantissa the pre-HBASE-26566 encoder wrote after `E = 351` or `352`
    /// (see [`encode_legacy_large`]): a first byte of any value (the low
    /// bits of the integer part), then centimal digits; at most 18 bytes;
    /// a trailing zero digit only when the loop ran its full 18 bytes (or
    /// wrote one). `None` if the bytes are not of that shape. The value is
    /// what the old `decodeSignificand` reads: `Σ (byteᵢ >> 1) × 100^(E−1−i)`
    /// rounded to 31 digits half up.
    fn legacy_mantissa(
        &self,
        negative: bool,
        e: i64,
        m_at: usize,
        comp: u8,
    ) -> Option<(Numeric, usize)> {
        let mut dec = Vec::with_capacity(37);
        let mut i = m_at;
        let last = loop {
            let b = self.key.get(i)? ^ self.mask ^ comp;
            let c = b >> 1;
            if i == m_at && c >= 100 {
                dec.extend_from_slice(&[1, (c - 100) / 10, (c - 100) % 10]);
            } else if c <= 99 {
                dec.extend_from_slice(&[c / 10, c % 10]);
            } else {
                return None;
            }
            i += 1;
            if b & 1 == 0 {
                break c;
            }
            if i - m_at == 18 {
                return None;
            }
        };
        let n = i - m_at;
        if last == 0 && n > 1 && n < 18 {
            return None;
        }
        let x = 2 * e + i64::from(dec.len() % 2 == 1);
        let d = Decimal::new(negative, &dec, x)?.normalized();
        Some((Numeric::Finite(d), i))
    }
}

/// Why a current-HBase decoder refuses an old key of 100^351 or more.
const LEGACY_KEY: &str =
    "a key written by HBase's numeric encoder before HBASE-26566 (HBase 2.4.x \
     and older) for a number of 100^351 or more, which current HBase reads as another number: \
     read it with --hbase-numeric legacy (hbase::NumericEncoding::Legacy)";

/// Why the legacy decoder refuses `E > 352`.
const LEGACY_NEVER_WROTE: &str = "an exponent over 352, which HBase's numeric encoder before \
     HBASE-26566 never wrote (a current-HBase key: read it without --hbase-numeric legacy)";
