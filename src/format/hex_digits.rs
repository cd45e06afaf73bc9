//! UPPERCASE hex digits, shared by the formats that write them: the body
//! codec of the `hex` format ([`Hex`], also what `decimal` keys use for
//! descending strings, bytes and decimals), and the 16 digits of a `u64`
//! and back ([`hex16`], [`unhex16`]: SWAR, and SSE2 on x86_64 — the one
//! `unsafe` call of the crate, see [`unhex16`]).
//!
//! A lower module than every format: it depends only on [`crate::format::text`]'s
//! `Body`/`Sink` traits and the error type.

use crate::bytes::{hex_pairs, upper_hex_value, UPPER_HEX};
use crate::error::DecodeError;
use crate::format::text::{Body, Sink};

/// Two UPPERCASE hex digits for every byte value.
static PAIRS: [[u8; 2]; 256] = hex_pairs(UPPER_HEX);

/// The body codec of the `hex` format: two UPPERCASE digits per byte.
pub(crate) struct Hex;

impl Body for Hex {
    #[inline]
    fn encode(bytes: &[u8], invert: bool, _ones: bool, out: &mut Vec<u8>) {
        let mask = if invert { u64::MAX } else { 0 };
        out.reserve(bytes.len() * 2);
        let words = bytes.chunks_exact(8);
        let rest = words.remainder();
        for w in words {
            let v = u64::from_be_bytes(w.try_into().unwrap_or([0; 8])) ^ mask;
            out.extend_from_slice(&hex16(v));
        }
        for &b in rest {
            out.extend_from_slice(&PAIRS[usize::from(b ^ mask as u8)]);
        }
    }

    #[inline]
    fn encode_u64(v: u64, out: &mut Vec<u8>) {
        out.extend_from_slice(&hex16(v));
    }

    #[inline]
    fn decode<S: Sink>(
        input: &[u8],
        invert: bool,
        _ones: bool,
        out: &mut S,
    ) -> Result<(), DecodeError> {
        let mask = if invert { 0xFF } else { 0 };
        let pairs = input.chunks_exact(2);
        if !pairs.remainder().is_empty() {
            // Check the odd digit itself first, for a precise message.
            let last = input.len() - 1;
            nibble(input[last], last)?;
            return Err(DecodeError::Truncated {
                offset: input.len(),
                expected: "an even number of hex digits",
            });
        }
        for (i, p) in pairs.enumerate() {
            let h = nibble(p[0], 2 * i)?;
            let l = nibble(p[1], 2 * i + 1)?;
            out.push((h << 4 | l) ^ mask);
        }
        Ok(())
    }

    #[inline]
    fn decode_u64(input: &[u8]) -> Result<u64, DecodeError> {
        let Ok(body) = <&[u8; 16]>::try_from(input) else {
            return Self::decode_u64_slow(input);
        };
        match unhex16(body) {
            Some(v) => Ok(v),
            None => Self::decode_u64_slow(input),
        }
    }

    #[inline]
    fn encoded_len(n: usize) -> usize {
        2 * n
    }
}

/// One nibble per byte (most significant nibble in the most significant
/// byte) of the 8 nibbles of `x`.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
const fn spread_nibbles(x: u32) -> u64 {
    let x = x as u64;
    let x = (x & 0xFFFF_0000) << 16 | (x & 0x0000_FFFF);
    let x = (x & 0x0000_FF00_0000_FF00) << 8 | (x & 0x0000_00FF_0000_00FF);
    (x & 0x00F0_00F0_00F0_00F0) << 4 | (x & 0x000F_000F_000F_000F)
}

/// UPPERCASE hex digit of each nibble held in a byte (SWAR):
/// `n + '0'`, plus 7 more where `n >= 10`.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
const fn nibbles_to_ascii(n: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let ge10 = ((n + 6 * ONES) >> 4) & ONES;
    n + 0x30 * ONES + 7 * ge10
}

/// The 16 UPPERCASE hex digits of `v`, most significant first: SSE2
/// where the build enables it (always on x86_64), SWAR elsewhere.
///
/// The call into SSE2 is `unsafe` for the reason given at [`unhex16`]
/// (a `#[target_feature]` function, its feature the x86_64 baseline);
/// both paths are tested against `format!("{v:016X}")`.
#[inline]
pub(crate) fn hex16(v: u64) -> [u8; 16] {
    // SAFETY: `hex16_sse2` needs only SSE2, which the `cfg` proves every
    // function of this build has; it takes and returns plain values.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[allow(unsafe_code)]
    return unsafe { hex16_sse2(v) };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return hex16_swar(v);
}

/// [`hex16`] with SSE2: the 8 bytes of `v`, most significant first, split
/// into high and low nibbles (a 16-bit shift and a mask) and interleaved
/// (`unpacklo`), then made ASCII: `n + '0'`, 7 more where `n > 9`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
fn hex16_sse2(v: u64) -> [u8; 16] {
    use core::arch::x86_64::{
        _mm_add_epi8, _mm_and_si128, _mm_cmpgt_epi8, _mm_cvtsi64_si128, _mm_set1_epi8,
        _mm_srli_epi16, _mm_unpacklo_epi8,
    };
    // `as i64`/`as i8`: bit patterns, not values.
    let x = _mm_cvtsi64_si128(v.swap_bytes() as i64);
    let low4 = _mm_set1_epi8(0x0F);
    let hi = _mm_and_si128(_mm_srli_epi16::<4>(x), low4);
    let lo = _mm_and_si128(x, low4);
    let n = _mm_unpacklo_epi8(hi, lo);
    let letter = _mm_and_si128(_mm_cmpgt_epi8(n, _mm_set1_epi8(9)), _mm_set1_epi8(7));
    let ascii = _mm_add_epi8(_mm_add_epi8(n, _mm_set1_epi8(b'0' as i8)), letter);
    sse2_bytes(ascii)
}

/// The two 64-bit lanes of an SSE2 register, lane 0 first (moves out of
/// the register: no store through a pointer, so no `unsafe`).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn sse2_words(x: core::arch::x86_64::__m128i) -> (u64, u64) {
    use core::arch::x86_64::{_mm_cvtsi128_si64, _mm_unpackhi_epi64};
    // `as u64`: bit patterns, not values.
    (
        _mm_cvtsi128_si64(x) as u64,
        _mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x)) as u64,
    )
}

/// The 16 bytes of an SSE2 register, lane 0 first.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn sse2_bytes(x: core::arch::x86_64::__m128i) -> [u8; 16] {
    let (first, second) = sse2_words(x);
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&first.to_le_bytes());
    out[8..].copy_from_slice(&second.to_le_bytes());
    out
}

/// [`hex16`] a word at a time (no table, no branch): the fallback off
/// x86_64.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline]
const fn hex16_swar(v: u64) -> [u8; 16] {
    let hi = nibbles_to_ascii(spread_nibbles((v >> 32) as u32)).to_be_bytes();
    let lo = nibbles_to_ascii(spread_nibbles(v as u32)).to_be_bytes();
    let mut out = [0u8; 16];
    let mut i = 0;
    while i < 8 {
        out[i] = hi[i];
        out[8 + i] = lo[i];
        i += 1;
    }
    out
}

/// The nibble held by each byte of `c` if that byte is an UPPERCASE hex
/// digit: `(c & 0xF) + 9 * (bit 6 of c)`, kept to 4 bits. A byte was a
/// canonical digit exactly when its nibble spells it again
/// (`nibbles_to_ascii(n) == c`).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
const fn nibbles(c: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW: u64 = 0x0F * ONES;
    ((c & LOW) + ((c >> 6) & ONES) * 9) & LOW
}

/// Packs 8 nibbles, one per byte with the first in the low byte, into 32
/// bits, the first most significant. Each step is one multiply: in a lane
/// `lo + hi << k`, `lane * (1 + 1 << (k + k/2))` holds `lo << k/2 | hi`
/// in its upper half (the parts never overlap, so nothing carries).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
const fn pack_nibbles(n: u64) -> u32 {
    let x = (n.wrapping_mul(1 + (16 << 8)) >> 8) & 0x00FF_00FF_00FF_00FF;
    let x = (x.wrapping_mul(1 + (256 << 16)) >> 16) & 0x0000_FFFF_0000_FFFF;
    (x.wrapping_mul(1 + (65_536 << 32)) >> 32) as u32
}

/// The value of 16 UPPERCASE hex digits, `None` when any is not one:
/// SSE2 where the build enables it (always on x86_64), SWAR elsewhere.
///
/// The one `unsafe` block of the crate: a `#[target_feature]` function is
/// safe to call only from another one with the same feature, even when the
/// whole build has it (rustc 1.95: "the sse2 target feature being enabled
/// in the build configuration does not remove the requirement"), so the
/// call is `unsafe` and the `cfg` is its proof. SSE2 took the i64 decode
/// from 5.2 to 1.8 ns (BENCHMARKS.md); SWAR and SSE2 are tested on every
/// byte value at every position.
#[inline]
pub(crate) fn unhex16(d: &[u8; 16]) -> Option<u64> {
    let (a, b) = d.split_at(8);
    let a = u64::from_le_bytes(a.try_into().ok()?);
    let b = u64::from_le_bytes(b.try_into().ok()?);
    // SAFETY: `unhex16_sse2`'s only requirement is SSE2, and the `cfg`
    // compiles this call only into builds that enable SSE2 for every
    // function (the x86_64 baseline); it takes and returns plain integers.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[allow(unsafe_code)]
    return unsafe { unhex16_sse2(a, b) };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return unhex16_swar(a, b);
}

/// [`unhex16`] with SSE2, the 16 digits as two little-endian words `a`
/// (digits 0–7) and `b` (8–15). A byte is a digit when `c - '0'` is
/// below 10 or `c - 'A'` below 6 (unsigned compares as signed ones after
/// adding 0x80); its nibble is `c - '0'`, 7 less for a letter. Pairs
/// `hi, lo` (one 16-bit lane, `hi` in the low byte) become
/// `hi << 4 | lo` by two shifts and a mask, and `packus` gathers the 8
/// bytes, most significant first.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
fn unhex16_sse2(a: u64, b: u64) -> Option<u64> {
    use core::arch::x86_64::{
        _mm_add_epi8, _mm_and_si128, _mm_cmplt_epi8, _mm_cvtsi128_si64, _mm_movemask_epi8,
        _mm_or_si128, _mm_packus_epi16, _mm_set1_epi16, _mm_set1_epi8, _mm_set_epi64x,
        _mm_slli_epi16, _mm_srli_epi16, _mm_sub_epi8,
    };
    // `as i8`/`as i64`: bit patterns, not values.
    let c = _mm_set_epi64x(b as i64, a as i64);
    let digit = _mm_add_epi8(c, _mm_set1_epi8((0x80 - b'0') as i8));
    let letter = _mm_add_epi8(c, _mm_set1_epi8((0x80 - b'A') as i8));
    let is_digit = _mm_cmplt_epi8(digit, _mm_set1_epi8((0x80 + 10) as u8 as i8));
    let is_letter = _mm_cmplt_epi8(letter, _mm_set1_epi8((0x80 + 6) as u8 as i8));
    if _mm_movemask_epi8(_mm_or_si128(is_digit, is_letter)) != 0xFFFF {
        return None;
    }
    let n = _mm_sub_epi8(
        _mm_sub_epi8(c, _mm_set1_epi8(b'0' as i8)),
        _mm_and_si128(is_letter, _mm_set1_epi8(7)),
    );
    let pairs = _mm_and_si128(
        _mm_or_si128(_mm_slli_epi16::<4>(n), _mm_srli_epi16::<8>(n)),
        _mm_set1_epi16(0xFF),
    );
    Some((_mm_cvtsi128_si64(_mm_packus_epi16(pairs, pairs)) as u64).swap_bytes())
}

/// [`unhex16`] a word at a time (SWAR), the 16 digits as two little-endian
/// words `a` (digits 0–7) and `b` (8–15): the fallback off x86_64.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn unhex16_swar(a: u64, b: u64) -> Option<u64> {
    let (na, nb) = (nibbles(a), nibbles(b));
    if (nibbles_to_ascii(na) ^ a) | (nibbles_to_ascii(nb) ^ b) != 0 {
        return None;
    }
    Some(u64::from(pack_nibbles(na)) << 32 | u64::from(pack_nibbles(nb)))
}

impl Hex {
    /// The error path of [`Body::decode_u64`]: reports the first bad digit.
    #[cold]
    fn decode_u64_slow(input: &[u8]) -> Result<u64, DecodeError> {
        Self::decode_u64_general(input, "16 hex digits")
    }
}

/// The value of an UPPERCASE hex digit; the error names `offset`.
#[inline]
pub(crate) fn nibble(c: u8, offset: usize) -> Result<u8, DecodeError> {
    upper_hex_value(c).ok_or(DecodeError::InvalidSymbol {
        offset,
        found: c,
        expected: "an UPPERCASE hex digit (0-9, A-F)",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two little-endian words [`unhex16`] splits its digits into.
    fn words(d: &[u8; 16]) -> (u64, u64) {
        let (a, b) = d.split_at(8);
        (
            u64::from_le_bytes(a.try_into().unwrap()),
            u64::from_le_bytes(b.try_into().unwrap()),
        )
    }

    #[test]
    #[allow(unsafe_code)] // calls the SSE2 decoder directly, as `unhex16` does
    fn swar_hex_matches_format_and_table() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..20_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = if i < 64 { 1u64 << i } else { x };
            let digits = hex16(v);
            assert_eq!(&digits, format!("{v:016X}").as_bytes());
            assert_eq!(&hex16_swar(v), format!("{v:016X}").as_bytes());
            assert_eq!(unhex16(&digits), Some(v));
            let (a, b) = words(&digits);
            assert_eq!(unhex16_swar(a, b), Some(v));
            // SAFETY: as in `unhex16`.
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            assert_eq!(unsafe { unhex16_sse2(a, b) }, Some(v));
        }
        // Every byte value in every position: accepted exactly when it is
        // an UPPERCASE hex digit.
        for pos in 0..16 {
            for b in 0..=255u8 {
                let mut d = *b"0123456789ABCDEF";
                d[pos] = b;
                let ok = upper_hex_value(b).is_some();
                assert_eq!(unhex16(&d).is_some(), ok, "byte {b:#x} at {pos}");
                // Both paths, whichever `unhex16` takes: same verdict, and
                // the value of the digits when they are all valid.
                let want =
                    ok.then(|| u64::from_str_radix(std::str::from_utf8(&d).unwrap(), 16).unwrap());
                let (wa, wb) = words(&d);
                assert_eq!(unhex16_swar(wa, wb), want, "SWAR: byte {b:#x} at {pos}");
                // SAFETY: as in `unhex16`.
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                assert_eq!(
                    unsafe { unhex16_sse2(wa, wb) },
                    want,
                    "SSE2: byte {b:#x} at {pos}"
                );
            }
        }
    }
}
