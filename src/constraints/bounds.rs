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
/// `-b` do not overflow).
#[inline]
pub(crate) fn floor_div_wide(a: i128, b: i128) -> i128 {
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
}
