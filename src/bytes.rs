//! Byte-level helpers that every layer shares (the formats, text keys,
//! tuples and ranges): a word-at-a-time byte search, the prefix end of a
//! byte string, and the hex digits (the alphabets, their values, and the
//! lowercase writer behind [`crate::value::literal::push_hex`]). Depends on nothing
//! else in the crate, so no module has to reach sideways or upwards for
//! them.

pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
pub(crate) const HIGH: u64 = 0x8080_8080_8080_8080;

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

/// The sixteen hex digits, UPPERCASE: what the `hex` format, text escapes
/// and text salts write.
pub(crate) const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `\xNN`, uppercase digits (as HBase's `Bytes.toStringBinary`
/// prints a byte): the one writer of that escape ([`crate::escape_key`],
/// [`crate::to_string_binary`], the renderers).
pub(crate) fn push_x_escape(b: u8, out: &mut String) {
    out.push_str("\\x");
    out.push(char::from(UPPER_HEX[usize::from(b >> 4)]));
    out.push(char::from(UPPER_HEX[usize::from(b & 15)]));
}

/// The sixteen hex digits, lowercase: how binary keys are shown.
pub(crate) const LOWER_HEX: &[u8; 16] = b"0123456789abcdef";

/// Marks a byte that is not a hex digit in [`UPPER_VALUE`] and
/// [`ANY_VALUE`] (a value no digit has: its high nibble is set).
const NOT_HEX: u8 = 0xFF;

/// The value of each byte as a hex digit: `0..=15`, or [`NOT_HEX`]; the
/// letters `a`-`f` count only when `lowercase` is set.
const fn digit_values(lowercase: bool) -> [u8; 256] {
    let mut t = [NOT_HEX; 256];
    let mut i = 0;
    while i < 16 {
        t[UPPER_HEX[i] as usize] = i as u8;
        if lowercase {
            t[LOWER_HEX[i] as usize] = i as u8;
        }
        i += 1;
    }
    t
}

/// The value of every UPPERCASE hex digit, [`NOT_HEX`] for any other byte.
static UPPER_VALUE: [u8; 256] = digit_values(false);

/// The value of every hex digit of either case, [`NOT_HEX`] for any other
/// byte.
static ANY_VALUE: [u8; 256] = digit_values(true);

/// The two digits of every byte value in `alphabet` ([`UPPER_HEX`] or
/// [`LOWER_HEX`]), high nibble first: one load per byte for the writers.
pub(crate) const fn hex_pairs(alphabet: &[u8; 16]) -> [[u8; 2]; 256] {
    let mut t = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = [alphabet[i >> 4], alphabet[i & 15]];
        i += 1;
    }
    t
}

/// Two lowercase hex digits for every byte value.
static LOWER_PAIRS: [[u8; 2]; 256] = hex_pairs(LOWER_HEX);

/// The value of an UPPERCASE hex digit (`0-9`, `A-F`), `None` for any
/// other byte.
#[inline(always)]
pub(crate) fn upper_hex_value(c: u8) -> Option<u8> {
    match UPPER_VALUE[usize::from(c)] {
        NOT_HEX => None,
        v => Some(v),
    }
}

/// The value of a hex digit of either case, `None` for any other byte.
#[inline(always)]
pub(crate) fn hex_value(c: u8) -> Option<u8> {
    match ANY_VALUE[usize::from(c)] {
        NOT_HEX => None,
        v => Some(v),
    }
}

/// The two lowercase hex digits of byte `b`.
#[inline(always)]
pub(crate) fn lower_hex_pair(b: u8) -> [u8; 2] {
    LOWER_PAIRS[usize::from(b)]
}

/// Appends two lowercase hex digits per byte of `bytes` to `out`: the
/// buffer is grown once, then each byte is one load of its two digits.
#[inline]
pub(crate) fn push_lower_hex(bytes: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + 2 * bytes.len(), 0);
    for (pair, &b) in out[start..].chunks_exact_mut(2).zip(bytes) {
        pair.copy_from_slice(&lower_hex_pair(b));
    }
}

/// Appends the bytes spelled by `hex` (digits of either case, two per
/// byte) to `out`. On error `out` is as it was, and the error is the index
/// of the first bad digit, or `None` for an odd number of digits (checked
/// first).
#[inline]
pub(crate) fn unhex_into(hex: &[u8], out: &mut Vec<u8>) -> Result<(), Option<usize>> {
    if !hex.len().is_multiple_of(2) {
        return Err(None);
    }
    let start = out.len();
    out.resize(start + hex.len() / 2, 0);
    let mut bad = None;
    for (i, (o, p)) in out[start..].iter_mut().zip(hex.chunks_exact(2)).enumerate() {
        let (h, l) = (ANY_VALUE[usize::from(p[0])], ANY_VALUE[usize::from(p[1])]);
        // A bad digit is NOT_HEX, the only value with its high nibble set.
        if (h | l) > 0x0F {
            bad = Some(if h == NOT_HEX { 2 * i } else { 2 * i + 1 });
            break;
        }
        *o = h << 4 | l;
    }
    match bad {
        None => Ok(()),
        Some(at) => {
            out.truncate(start);
            Err(Some(at))
        }
    }
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
    fn hex_digits_and_values_agree_with_std() {
        for b in 0..=255u8 {
            let c = b as char;
            let any = c.to_digit(16).map(|d| d as u8);
            assert_eq!(super::hex_value(b), any, "{b:#x}");
            let upper = any.filter(|_| !c.is_ascii_lowercase());
            assert_eq!(super::upper_hex_value(b), upper, "{b:#x}");
            assert_eq!(super::lower_hex_pair(b), *format!("{b:02x}").as_bytes());
            assert_eq!(
                [
                    super::UPPER_HEX[usize::from(b >> 4)],
                    super::UPPER_HEX[usize::from(b & 15)]
                ],
                *format!("{b:02X}").as_bytes()
            );
        }
    }

    #[test]
    fn lower_hex_round_trips_and_reports_the_first_bad_digit() {
        let bytes: Vec<u8> = (0..=255u8).chain([0, 0xFF, 0x10]).collect();
        for n in 0..bytes.len() {
            let mut out = b"keep".to_vec();
            super::push_lower_hex(&bytes[..n], &mut out);
            let want: String = bytes[..n].iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(&out[4..], want.as_bytes());
            let mut back = b"x".to_vec();
            assert_eq!(super::unhex_into(&out[4..], &mut back), Ok(()));
            assert_eq!(&back[1..], &bytes[..n]);
            // Upper case reads the same.
            let mut upper = Vec::new();
            assert_eq!(
                super::unhex_into(want.to_ascii_uppercase().as_bytes(), &mut upper),
                Ok(())
            );
            assert_eq!(upper, &bytes[..n]);
        }
        // Errors: odd length first, then the first bad digit of a pair;
        // the output is left as it was.
        for (hex, want) in [
            (&b"abc"[..], Err(None)),
            (b"xbc", Err(None)),
            (b"0g", Err(Some(1))),
            (b"g0", Err(Some(0))),
            (b"gg", Err(Some(0))),
            (b"00ff0 ", Err(Some(5))),
            (b"00\xc3\xa9", Err(Some(2))),
            (b"", Ok(())),
        ] {
            let mut out = b"keep".to_vec();
            assert_eq!(super::unhex_into(hex, &mut out), want, "{hex:?}");
            if want.is_err() {
                assert_eq!(out, b"keep");
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
