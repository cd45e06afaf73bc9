//! SQLite4's order-preserving varint, HBase's `putVaruint64` /
//! `getVaruint64`.

use crate::error::DecodeError;

/// Appends SQLite4's order-preserving varint of `v` (HBase's
/// `putVaruint64`): 1 byte up to 240, 2 up to 2287, 3 up to 67823, then a
/// length byte `FA`–`FF` and 3 to 8 big-endian bytes.
///
/// ```
/// use lexikey::interop::hbase::encode_varuint64;
/// let mut out = Vec::new();
/// encode_varuint64(2287, &mut out);
/// assert_eq!(out, [0xF8, 0xFF]);
/// ```
pub fn encode_varuint64(v: u64, out: &mut Vec<u8>) {
    if v < 241 {
        out.push(v as u8);
    } else if v < 2288 {
        let y = v - 240;
        out.extend_from_slice(&[(y / 256 + 241) as u8, (y % 256) as u8]);
    } else if v < 67824 {
        let y = v - 2288;
        out.extend_from_slice(&[249, (y / 256) as u8, (y % 256) as u8]);
    } else {
        let n = 8 - (v.leading_zeros() / 8) as usize; // bytes needed: 3..=8
        out.push(247 + n as u8);
        out.extend_from_slice(&v.to_be_bytes()[8 - n..]);
    }
}

/// Reads a varint written by [`encode_varuint64`] at the start of `key`;
/// returns the value and its length.
///
/// ```
/// use lexikey::interop::hbase::decode_varuint64;
/// assert_eq!(decode_varuint64(&[0xF9, 0xFF, 0xFF])?, (67823, 3));
/// assert!(decode_varuint64(&[0xF1, 0x00]).is_err()); // 240 fits one byte
/// # Ok::<(), lexikey::DecodeError>(())
/// ```
///
/// # Errors
/// [`DecodeError::Truncated`] when `key` ends inside the varint,
/// [`DecodeError::NonCanonical`] (offset 0) when a shorter form exists.
pub fn decode_varuint64(key: &[u8]) -> Result<(u64, usize), DecodeError> {
    read_varint(key, 0, 0)
}

/// Reads a varint at `pos`, each byte XORed with `mask`.
pub(super) fn read_varint(key: &[u8], pos: usize, mask: u8) -> Result<(u64, usize), DecodeError> {
    let byte = |i: usize| -> Result<u64, DecodeError> {
        key.get(pos + i)
            .map(|b| u64::from(b ^ mask))
            .ok_or(DecodeError::Truncated {
                offset: key.len(),
                expected: "varint bytes",
            })
    };
    let a0 = byte(0)?;
    let (v, len, min) = match a0 {
        0..=240 => (a0, 1, 0),
        241..=248 => ((a0 - 241) * 256 + byte(1)? + 240, 2, 241),
        249 => (2288 + 256 * byte(1)? + byte(2)?, 3, 2288),
        _ => {
            let n = (a0 - 247) as usize;
            let mut v = 0u64;
            for i in 1..=n {
                v = v << 8 | byte(i)?;
            }
            (v, n + 1, if n == 3 { 67824 } else { 1u64 << (8 * (n - 1)) })
        }
    };
    if v < min {
        return Err(DecodeError::NonCanonical {
            offset: pos,
            reason: "varint longer than needed",
        });
    }
    Ok((v, len))
}
