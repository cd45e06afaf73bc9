//! Byte-level helpers that every layer shares (the formats, text keys,
//! tuples and ranges): a word-at-a-time byte search and the prefix end of
//! a byte string. Depends on nothing else in the crate, so no module has
//! to reach sideways or upwards for them.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The index of the first byte equal to `needle` in `s[from..]` (as an
/// index into `s`), or `None`. Scans eight bytes at a time: the classic
/// "has zero byte" test on `word ^ needle`, exact for the lowest hit.
#[inline]
pub(crate) fn find_byte(s: &[u8], from: usize, needle: u8) -> Option<usize> {
    let pattern = u64::from(needle) * ONES;
    // `skip` sets bytes of `x` to 0xFF: they neither hit nor borrow.
    let hits = |w: &[u8], skip: u64| {
        let x = (u64::from_le_bytes(w.try_into().unwrap_or([0; 8])) ^ pattern) | skip;
        x.wrapping_sub(ONES) & !x & HIGH
    };
    let mut i = from;
    while let Some(w) = s.get(i..i + 8) {
        let m = hits(w, 0);
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    if i >= s.len() {
        return None;
    }
    if s.len() >= 8 {
        // The last, overlapping word, without its bytes before `i`
        // (`i - base` is 1..=7).
        let base = s.len() - 8;
        let m = hits(&s[base..], (1u64 << (8 * (i - base))) - 1);
        return (m != 0).then(|| base + (m.trailing_zeros() / 8) as usize);
    }
    s[i..].iter().position(|&b| b == needle).map(|p| i + p)
}

/// `bytes` as a `&str`, as [`std::str::from_utf8`] gives it. Key strings
/// are mostly ASCII, and short: `from_utf8` checks a short string byte by
/// byte (its word-at-a-time path needs 16 aligned bytes), so an ASCII
/// string is recognised here first, a word at a time, and only the others
/// are validated by `from_utf8` (which also reports where they go wrong).
#[inline(always)]
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, std::str::Utf8Error> {
    if is_ascii(bytes) {
        // SAFETY: every byte is below 0x80 (`is_ascii`, checked against std
        // by `is_ascii_agrees_with_std` below; the `decode_<format>` fuzz
        // targets also assert that every string `tuple::decode` returns is
        // valid UTF-8), and a sequence of ASCII bytes is valid UTF-8.
        #[allow(unsafe_code)]
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes)
}

/// The bytes of `s` (`s.len() < 8`) in one little-endian word, zeros
/// above: read as two overlapping 4-byte pieces, or three single bytes
/// (overlapping pieces OR the same byte into the same place), so no loop
/// whose length varies from string to string (its exit mispredicts).
#[inline(always)]
pub(crate) fn gather_short(s: &[u8]) -> u64 {
    let n = s.len();
    if n >= 4 {
        let lo = u32::from_le_bytes(s[..4].try_into().unwrap_or([0; 4]));
        let hi = u32::from_le_bytes(s[n - 4..].try_into().unwrap_or([0; 4]));
        u64::from(lo) | u64::from(hi) << (8 * (n - 4))
    } else if n > 0 {
        u64::from(s[0])
            | u64::from(s[n / 2]) << (8 * (n / 2))
            | u64::from(s[n - 1]) << (8 * (n - 1))
    } else {
        0
    }
}

/// Whether every byte of `s` is below 0x80: the high bits of the words
/// that cover `s` (the last one overlapping, shorter strings gathered into
/// one word) ORed together.
#[inline(always)]
fn is_ascii(s: &[u8]) -> bool {
    let word = |w: &[u8]| u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
    let n = s.len();
    if n < 8 {
        // 0..=7 bytes, read as up to three overlapping pieces and ORed in
        // place: unlike `gather_short`, no piece needs shifting to its
        // position (7 instructions per (str, i64) key less, measured).
        let v = if n >= 4 {
            let lo = u32::from_le_bytes(s[..4].try_into().unwrap_or([0; 4]));
            let hi = u32::from_le_bytes(s[n - 4..].try_into().unwrap_or([0; 4]));
            lo | hi
        } else if n > 0 {
            u32::from(s[0]) | u32::from(s[n / 2]) | u32::from(s[n - 1])
        } else {
            0
        };
        return v & 0x8080_8080 == 0;
    }
    let mut acc = word(&s[n - 8..]);
    let mut i = 0;
    while let Some(w) = s.get(i..i + 8) {
        acc |= word(w);
        i += 8;
    }
    acc & HIGH == 0
}

/// The smallest key greater than every key that starts with `prefix`: drop
/// trailing `FF` bytes, then increment the last byte. `None` when there is
/// no such key (an empty or all-`FF` prefix): scan to the end of the table.
///
/// The classic mistakes this avoids: appending `FF` (misses keys that
/// continue with `FF FF`), incrementing a trailing `FF` (it overflows into
/// the previous byte), and using the prefix itself as an inclusive end.
///
/// ```
/// use lexikey::range::prefix_end;
/// assert_eq!(prefix_end(b"usa#"), Some(b"usa$".to_vec()));
/// assert_eq!(prefix_end(b"a\xFF\xFF"), Some(b"b".to_vec()));
/// assert_eq!(prefix_end(b"\xFF\xFF"), None);
/// assert_eq!(prefix_end(b""), None);
/// ```
pub fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let keep = prefix.iter().rposition(|&b| b != 0xFF)?;
    let mut end = prefix[..=keep].to_vec();
    end[keep] += 1;
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::{find_byte, prefix_end};

    #[test]
    fn find_byte_matches_position() {
        let mut s = Vec::new();
        for len in 0..40 {
            for hit in 0..=len {
                s.clear();
                s.extend((0..len).map(|i| if i == hit { 0 } else { 1 + (i as u8 % 250) }));
                for from in 0..=len {
                    let want = s[from..].iter().position(|&b| b == 0).map(|p| from + p);
                    assert_eq!(
                        find_byte(&s, from, 0),
                        want,
                        "len {len} hit {hit} from {from}"
                    );
                }
            }
        }
        // Hits before `from` must neither count nor borrow.
        let z = [0u8, 0, 0, 0, 0, 0, 0, 1, 1];
        for from in 0..=z.len() {
            let want = z[from..].iter().position(|&b| b == 0).map(|p| from + p);
            assert_eq!(find_byte(&z, from, 0), want, "from {from}");
        }
        // Bytes that borrow (0x00 next to 0x01) and inverted needles.
        assert_eq!(find_byte(&[1, 0, 0, 1, 1, 1, 1, 1, 0], 0, 0), Some(1));
        assert_eq!(find_byte(&[0xFE, 0xFF, 0, 0xFF], 0, 0xFF), Some(1));
        assert_eq!(find_byte(&[0x7F; 9], 0, 0xFF), None);
    }

    #[test]
    fn gather_short_reads_every_byte_in_place() {
        for n in 0..8usize {
            let s: Vec<u8> = (0..n).map(|i| 0x21 + i as u8 * 0x11).collect();
            let mut want = [0u8; 8];
            want[..n].copy_from_slice(&s);
            assert_eq!(super::gather_short(&s), u64::from_le_bytes(want), "n {n}");
        }
    }

    #[test]
    fn is_ascii_agrees_with_std() {
        for len in 0..40usize {
            let base: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(super::is_ascii(&base), "len {len}");
            for hit in 0..len {
                for b in [0x80u8, 0xC3, 0xFF] {
                    let mut s = base.clone();
                    s[hit] = b;
                    assert!(!super::is_ascii(&s), "len {len} hit {hit} byte {b:#x}");
                }
            }
        }
        // Every byte value at every position of short strings, against std
        // (and `utf8` against `from_utf8`, results and error positions).
        for len in 1..12usize {
            for hit in 0..len {
                for b in 0..=255u8 {
                    let mut s = vec![b'x'; len];
                    s[hit] = b;
                    assert_eq!(super::is_ascii(&s), s.is_ascii());
                    assert_eq!(super::utf8(&s), std::str::from_utf8(&s));
                }
            }
        }
    }

    #[test]
    fn prefix_end_is_the_smallest_key_above_the_prefix() {
        assert_eq!(prefix_end(b"usa#"), Some(b"usa$".to_vec()));
        assert_eq!(prefix_end(b"a\xFF\xFF"), Some(b"b".to_vec()));
        assert_eq!(prefix_end(b"\xFF"), None);
    }
}
