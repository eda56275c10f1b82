//! Pruning by bounds computed in `i64`: the arithmetic constraints compute bounds that may lie
//! outside the `i32` range of values, and these helpers clamp them safely.

use crate::constraints::{Conflict, PropagationContext};
use crate::ids::VarId;

/// Removes the values of `var` larger than `bound`.
pub(crate) fn keep_at_most(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    bound: i64,
) -> Result<bool, Conflict> {
    match i32::try_from(bound) {
        Ok(bound) => ctx.remove_above(var, bound),
        Err(_) if bound > 0 => Ok(false),
        // No `i32` value is at most `bound`.
        Err(_) => Err(Conflict),
    }
}

/// Removes the values of `var` smaller than `bound`.
pub(crate) fn keep_at_least(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    bound: i64,
) -> Result<bool, Conflict> {
    match i32::try_from(bound) {
        Ok(bound) => ctx.remove_below(var, bound),
        Err(_) if bound < 0 => Ok(false),
        Err(_) => Err(Conflict),
    }
}

/// `⌊a / b⌋` for `b ≠ 0`, when `-a` and `-b` do not overflow.
#[inline]
pub(crate) fn floor_div(a: i64, b: i64) -> i64 {
    if b > 0 {
        a.div_euclid(b)
    } else {
        (-a).div_euclid(-b)
    }
}

/// `⌈a / b⌉` for `b ≠ 0`, when `-a` and `-b` do not overflow.
#[inline]
pub(crate) fn ceil_div(a: i64, b: i64) -> i64 {
    -floor_div(-a, b)
}

/// [`floor_div`] on `i128`, for products and sums that may leave `i64` (`b ≠ 0`, and `-a`,
/// `-b` do not overflow). Divides in `i64` when both fit with their negations: a 128-bit
/// division costs several times more, and most operands are products of two `i32`.
#[inline]
pub(crate) fn floor_div_wide(a: i128, b: i128) -> i128 {
    const NARROW: std::ops::RangeInclusive<i128> = -(i64::MAX as i128)..=i64::MAX as i128;
    if NARROW.contains(&a) && NARROW.contains(&b) {
        return i128::from(floor_div(a as i64, b as i64));
    }
    if b > 0 {
        a.div_euclid(b)
    } else {
        (-a).div_euclid(-b)
    }
}

/// [`ceil_div`] on `i128`.
#[inline]
pub(crate) fn ceil_div_wide(a: i128, b: i128) -> i128 {
    -floor_div_wide(-a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_and_ceil_division_round_the_right_way_for_every_sign() {
        for a in -9i64..=9 {
            for b in [-3i64, -2, -1, 1, 2, 3] {
                let exact = a as f64 / b as f64;
                assert_eq!(floor_div(a, b), exact.floor() as i64, "{a} / {b}");
                assert_eq!(ceil_div(a, b), exact.ceil() as i64, "{a} / {b}");
            }
        }
    }

    #[test]
    fn wide_division_agrees_with_exact_division_on_both_sides_of_the_i64_range() {
        let edge = i128::from(i64::MAX);
        let numerators = [
            -9,
            9,
            edge,
            -edge,
            edge + 1,
            -edge - 1,
            edge * 3 + 2,
            -(edge * 3 + 2),
        ];
        for a in numerators {
            for b in [-3i128, -2, 2, 3, edge, -edge, edge + 2, -edge - 2] {
                // Floor by the definition: the q with q·b ≤ a < (q + 1)·b for b > 0.
                let (q, r) = (a / b, a % b);
                let floor = if r != 0 && (r < 0) != (b < 0) {
                    q - 1
                } else {
                    q
                };
                assert_eq!(floor_div_wide(a, b), floor, "{a} / {b}");
                let ceil = if r != 0 && (r < 0) == (b < 0) {
                    q + 1
                } else {
                    q
                };
                assert_eq!(ceil_div_wide(a, b), ceil, "{a} / {b}");
            }
        }
    }
}
