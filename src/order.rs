//! The order-preserving transform of IEEE 754 floats, written once for
//! every format and profile that stores a float as big-endian bytes: the
//! native formats ([`crate::value::f64_order_bits`]), FoundationDB's tuple
//! layer, HBase `OrderedBytes` and Apache Phoenix.
//!
//! The transform flips the sign bit of a float whose sign is clear and
//! every bit of one whose sign is set, so that the unsigned order of the
//! result is the float order (`-inf < -0.0 < +0.0 < +inf`, positive NaNs
//! above `+inf`). Where the systems differ is only what they do with NaNs,
//! which a [`NanRule`] names:
//!
//! | who | rule |
//! |---|---|
//! | lexikey's formats, HBase, Phoenix (Java's `floatToIntBits`) | [`NanRule::Canonical`] |
//! | FoundationDB's tuple layer | [`NanRule::Keep`] |
//!
//! Phoenix adds one to the result ([`crate::interop::phoenix::float_key`]);
//! that stays Phoenix's own thin wrapper.
//!
//! ```
//! use lexikey::order::{f64_from_order, f64_to_order, NanRule};
//!
//! assert_eq!(f64_to_order(1.0, NanRule::Canonical), 0xBFF0_0000_0000_0000);
//! assert!(f64_to_order(-0.0, NanRule::Canonical) < f64_to_order(0.0, NanRule::Canonical));
//! // A NaN with a payload: canonical under one rule, kept under the other.
//! let nan = f64::from_bits(0x7FF8_0000_0000_0001);
//! assert_eq!(f64_to_order(nan, NanRule::Canonical), f64_to_order(f64::NAN, NanRule::Canonical));
//! assert_eq!(f64_to_order(nan, NanRule::Keep), 0xFFF8_0000_0000_0001);
//! assert_eq!(f64_from_order(0xFFF8_0000_0000_0001, NanRule::Canonical), None);
//! assert!(f64_from_order(0xFFF8_0000_0000_0001, NanRule::Keep).is_some_and(f64::is_nan));
//! ```
//!
//! Every function is branch-free on the sign (random signs would
//! mispredict) and inlined into the callers' encode and decode loops.

/// The canonical NaN of `f64` (`f64::NAN`, Java's `doubleToLongBits` NaN).
pub const CANONICAL_NAN_F64: u64 = 0x7FF8_0000_0000_0000;

/// The canonical NaN of `f32` (`f32::NAN`, Java's `floatToIntBits` NaN).
pub const CANONICAL_NAN_F32: u32 = 0x7FC0_0000;

/// What a format does with a NaN's sign and payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NanRule {
    /// Every NaN is written as the canonical quiet NaN
    /// ([`CANONICAL_NAN_F64`], [`CANONICAL_NAN_F32`]), and only that NaN
    /// is read back (any other is not a key the writer could have made):
    /// lexikey's own formats, and Java's `floatToIntBits` /
    /// `doubleToLongBits` (HBase, Phoenix).
    Canonical,
    /// A NaN keeps its sign and payload, and every NaN is read back:
    /// FoundationDB's tuple layer.
    Keep,
}

impl NanRule {
    /// The IEEE bits of `v` as this rule writes them.
    ///
    /// ```
    /// use lexikey::order::NanRule;
    /// assert_eq!(NanRule::Canonical.f64_bits(-f64::NAN), 0x7FF8_0000_0000_0000);
    /// assert_eq!(NanRule::Keep.f64_bits(-f64::NAN), 0xFFF8_0000_0000_0000);
    /// ```
    #[inline(always)]
    pub fn f64_bits(self, v: f64) -> u64 {
        match self {
            NanRule::Canonical if v.is_nan() => CANONICAL_NAN_F64,
            _ => v.to_bits(),
        }
    }

    /// The IEEE bits of `v` as this rule writes them (see
    /// [`NanRule::f64_bits`]).
    #[inline(always)]
    pub fn f32_bits(self, v: f32) -> u32 {
        match self {
            NanRule::Canonical if v.is_nan() => CANONICAL_NAN_F32,
            _ => v.to_bits(),
        }
    }

    /// The `f64` of IEEE bits `bits`, `None` for a NaN this rule does not
    /// write (a non-canonical one under [`NanRule::Canonical`]).
    ///
    /// ```
    /// use lexikey::order::NanRule;
    /// assert_eq!(NanRule::Canonical.f64_from_bits(0x3FF0_0000_0000_0000), Some(1.0));
    /// assert_eq!(NanRule::Canonical.f64_from_bits(0xFFF8_0000_0000_0000), None);
    /// ```
    #[inline(always)]
    pub fn f64_from_bits(self, bits: u64) -> Option<f64> {
        let v = f64::from_bits(bits);
        match self {
            NanRule::Canonical if v.is_nan() && bits != CANONICAL_NAN_F64 => None,
            _ => Some(v),
        }
    }

    /// The `f32` of IEEE bits `bits`, `None` for a NaN this rule does not
    /// write (see [`NanRule::f64_from_bits`]).
    #[inline(always)]
    pub fn f32_from_bits(self, bits: u32) -> Option<f32> {
        let v = f32::from_bits(bits);
        match self {
            NanRule::Canonical if v.is_nan() && bits != CANONICAL_NAN_F32 => None,
            _ => Some(v),
        }
    }
}

/// The order bits of the IEEE bits of an `f64`: XOR with `1 << 63` when
/// the sign is clear, with all ones when it is set.
///
/// ```
/// use lexikey::order::order_bits_64;
/// assert_eq!(order_bits_64(0.0f64.to_bits()), 1 << 63);
/// assert_eq!(order_bits_64((-0.0f64).to_bits()), (1 << 63) - 1);
/// ```
#[inline(always)]
pub const fn order_bits_64(ieee: u64) -> u64 {
    // `as i64`/`as u64`: the sign bit smeared over the word (bit patterns).
    ieee ^ (((ieee as i64 >> 63) as u64) | 1 << 63)
}

/// The inverse of [`order_bits_64`]: the IEEE bits of order bits.
#[inline(always)]
pub const fn ieee_bits_64(order: u64) -> u64 {
    order ^ ((order >> 63).wrapping_sub(1) | 1 << 63)
}

/// The order bits of the IEEE bits of an `f32` (see [`order_bits_64`]).
#[inline(always)]
pub const fn order_bits_32(ieee: u32) -> u32 {
    // `as i32`/`as u32`: the sign bit smeared over the word (bit patterns).
    ieee ^ (((ieee as i32 >> 31) as u32) | 1 << 31)
}

/// The inverse of [`order_bits_32`].
#[inline(always)]
pub const fn ieee_bits_32(order: u32) -> u32 {
    order ^ ((order >> 31).wrapping_sub(1) | 1 << 31)
}

/// The order bits of `v`, its NaNs written by `nan`.
#[inline(always)]
pub fn f64_to_order(v: f64, nan: NanRule) -> u64 {
    order_bits_64(nan.f64_bits(v))
}

/// The `f64` of order bits `order`; `None` for a NaN that `nan` does not
/// write.
#[inline(always)]
pub fn f64_from_order(order: u64, nan: NanRule) -> Option<f64> {
    nan.f64_from_bits(ieee_bits_64(order))
}

/// The order bits of `v`, its NaNs written by `nan`.
///
/// ```
/// use lexikey::order::{f32_to_order, NanRule};
/// assert_eq!(f32_to_order(-42.0, NanRule::Keep), 0x3dd7_ffff); // FDB's `pack(-42f)`
/// ```
#[inline(always)]
pub fn f32_to_order(v: f32, nan: NanRule) -> u32 {
    order_bits_32(nan.f32_bits(v))
}

/// The `f32` of order bits `order`; `None` for a NaN that `nan` does not
/// write.
#[inline(always)]
pub fn f32_from_order(order: u32, nan: NanRule) -> Option<f32> {
    nan.f32_from_bits(ieee_bits_32(order))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The transform as the specifications state it, one branch on the sign.
    fn reference_64(ieee: u64) -> u64 {
        if ieee >> 63 == 0 {
            ieee ^ (1 << 63)
        } else {
            !ieee
        }
    }

    fn reference_32(ieee: u32) -> u32 {
        if ieee >> 31 == 0 {
            ieee ^ (1 << 31)
        } else {
            !ieee
        }
    }

    fn reference_inverse_64(order: u64) -> u64 {
        if order >> 63 == 1 {
            order ^ (1 << 63)
        } else {
            !order
        }
    }

    fn reference_inverse_32(order: u32) -> u32 {
        if order >> 31 == 1 {
            order ^ (1 << 31)
        } else {
            !order
        }
    }

    /// The branch-free transforms agree with the stated ones, invert, and
    /// order floats as `total_cmp` does (sign and payload included), on
    /// special values and 100,000 random bit patterns.
    #[test]
    fn branch_free_transform_matches_reference() {
        let specials = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            5e-324,
            f64::MAX,
            f64::MIN,
        ];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut prev: Option<f64> = None;
        for i in 0..100_000usize {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = specials.get(i).copied().unwrap_or(f64::from_bits(x));
            let b = v.to_bits();
            assert_eq!(order_bits_64(b), reference_64(b), "{b:#x}");
            assert_eq!(ieee_bits_64(order_bits_64(b)), b, "{b:#x}");
            assert_eq!(ieee_bits_64(x), reference_inverse_64(x), "{x:#x}");
            let h = (x >> 32) as u32;
            assert_eq!(order_bits_32(h), reference_32(h), "{h:#x}");
            assert_eq!(ieee_bits_32(h), reference_inverse_32(h), "{h:#x}");
            assert_eq!(ieee_bits_32(order_bits_32(h)), h, "{h:#x}");
            if let Some(p) = prev {
                assert_eq!(
                    order_bits_64(p.to_bits()).cmp(&order_bits_64(b)),
                    p.total_cmp(&v),
                    "{p:?} vs {v:?}"
                );
                let (pf, vf) = (f32::from_bits(p.to_bits() as u32), f32::from_bits(b as u32));
                assert_eq!(
                    order_bits_32(pf.to_bits()).cmp(&order_bits_32(vf.to_bits())),
                    pf.total_cmp(&vf),
                    "{pf:?} vs {vf:?}"
                );
            }
            prev = Some(v);
            // The rules: canonical NaN in, canonical NaN only out.
            let canon = f64_from_order(x, NanRule::Canonical).map(f64::to_bits);
            let ieee = ieee_bits_64(x);
            let want =
                (!f64::from_bits(ieee).is_nan() || ieee == CANONICAL_NAN_F64).then_some(ieee);
            assert_eq!(canon, want, "{x:#x}");
            assert_eq!(
                f64_from_order(x, NanRule::Keep).map(f64::to_bits),
                Some(ieee)
            );
            let c = f64_to_order(v, NanRule::Canonical);
            if v.is_nan() {
                assert_eq!(c, order_bits_64(CANONICAL_NAN_F64));
            } else {
                assert_eq!(c, order_bits_64(b));
            }
            assert_eq!(f64_to_order(v, NanRule::Keep), order_bits_64(b));
            let f = f32::from_bits(h);
            let c32 = f32_to_order(f, NanRule::Canonical);
            assert_eq!(
                f32_from_order(c32, NanRule::Canonical).map(f32::to_bits),
                Some(if f.is_nan() { CANONICAL_NAN_F32 } else { h })
            );
            assert_eq!(
                f32_from_order(f32_to_order(f, NanRule::Keep), NanRule::Keep).map(f32::to_bits),
                Some(h)
            );
        }
    }
}
