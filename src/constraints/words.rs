//! Word-at-a-time helpers shared by the built-in constraints: one domain filtered against
//! another shifted or mirrored, 64 values per step, through [`Domain::window`] and
//! [`PropagationContext::retain_window`]. They are meant for bitset domains (see
//! [`Domain::is_bitset`]): on a wide domain each step would cost a search of its holes.

use crate::constraints::{Conflict, PropagationContext};
use crate::domain::Domain;
use crate::ids::VarId;

/// Keeps in `target` only the values `v` for which `source` holds `v − shift`, or `shift − v`
/// when `mirrored`: a window of `source` per 64 values of `target`, reversed when mirrored.
/// Returns whether `target` changed.
pub(crate) fn keep_image(
    ctx: &mut PropagationContext<'_>,
    target: VarId,
    source: VarId,
    shift: i64,
    mirrored: bool,
) -> Result<bool, Conflict> {
    let d = ctx.domain(target);
    let (low, high) = (d.min().ok_or(Conflict)?, d.max().ok_or(Conflict)?);
    let (mut base, mut changed) = (i64::from(low), false);
    while base <= i64::from(high) {
        let mut mask = 0;
        if mirrored {
            // Bit i (the value base + i) stands for shift − base − i: bit 63 − i of the
            // window of `source` that starts at shift − base − 63.
            ctx.domain(source)
                .windows(shift - base - 63, 1, |w| mask = w.reverse_bits());
        } else {
            ctx.domain(source).windows(base - shift, 1, |w| mask = w);
        }
        changed |= ctx.retain_window(target, base as i32, mask)?;
        base += 64;
    }
    Ok(changed)
}

/// Keeps in `target` the values `v` for which `source` holds `v` or `−v`: per 64 values, the
/// window of `source` at the same place, joined with the reversed window at the mirror place.
pub(crate) fn keep_either_sign(
    ctx: &mut PropagationContext<'_>,
    target: VarId,
    source: VarId,
) -> Result<(), Conflict> {
    let d = ctx.domain(target);
    let (low, high) = (d.min().ok_or(Conflict)?, d.max().ok_or(Conflict)?);
    let mut base = i64::from(low);
    while base <= i64::from(high) {
        let source = ctx.domain(source);
        let mut mask = source.window(base as i32);
        // Bit i (the value base + i) mirrored is −base − i: bit 63 − i of the window at
        // −base − 63.
        source.windows(-base - 63, 1, |w| mask |= w.reverse_bits());
        ctx.retain_window(target, base as i32, mask)?;
        base += 64;
    }
    Ok(())
}

/// Whether `x` holds some value `v` with `v − shift` in `y`: the windows of both over the
/// values their hulls share, 64 at a time, stopping at the first common one.
pub(crate) fn meets_shifted(x: &Domain, y: &Domain, shift: i64) -> bool {
    let (Some(x_low), Some(x_high), Some(y_low), Some(y_high)) =
        (x.min(), x.max(), y.min(), y.max())
    else {
        return false;
    };
    let low = i64::from(x_low).max(i64::from(y_low) + shift);
    let high = i64::from(x_high).min(i64::from(y_high) + shift);
    let mut base = low;
    while base <= high {
        let mut other = 0;
        y.windows(base - shift, 1, |w| other = w);
        if x.window(base as i32) & other != 0 {
            return true;
        }
        base += 64;
    }
    false
}
