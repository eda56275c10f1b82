//! Word-at-a-time helpers shared by the built-in constraints: one domain filtered against
//! another shifted or mirrored, 64 values per step, through [`Domain::window`] and
//! [`PropagationContext::retain_window`]. They are meant for bitset domains (see
//! [`Domain::is_bitset`]): on a wide domain each step would cost a search of its holes.

use smallvec::SmallVec;

use crate::constraints::{Conflict, PropagationContext};
use crate::domain::Domain;
use crate::ids::VarId;

/// The values `base..base + 64` of `target` that `source` holds shifted or mirrored, as a
/// mask: bit `i` is set when `source` holds `base + i − shift`, or `shift − base − i` when
/// `mirrored`.
fn image(source: &Domain, base: i64, shift: i64, mirrored: bool) -> u64 {
    let mut mask = 0;
    if mirrored {
        // Bit i stands for shift − base − i: bit 63 − i of the window of `source` that starts
        // at shift − base − 63.
        source.windows(shift - base - 63, 1, |w| mask = w.reverse_bits());
    } else {
        source.windows(base - shift, 1, |w| mask = w);
    }
    mask
}

/// Keeps in `target` only the values `v` for which `source` holds `v − shift`, or `shift − v`
/// when `mirrored`: a window of `source` per 64 values of `target`. Returns whether `target`
/// changed.
pub(crate) fn keep_image(
    ctx: &mut PropagationContext<'_>,
    target: VarId,
    source: VarId,
    shift: i64,
    mirrored: bool,
) -> Result<bool, Conflict> {
    keep_masked(ctx, target, |ctx, base| {
        image(ctx.domain(source), base, shift, mirrored)
    })
}

/// Keeps in `target` the values `v` for which `source` holds `v` or `−v`: per 64 values, the
/// window of `source` at the same place joined with its mirror image.
pub(crate) fn keep_either_sign(
    ctx: &mut PropagationContext<'_>,
    target: VarId,
    source: VarId,
) -> Result<bool, Conflict> {
    keep_masked(ctx, target, |ctx, base| {
        let source = ctx.domain(source);
        image(source, base, 0, false) | image(source, base, 0, true)
    })
}

/// The most windows [`keep_masked`] computes before it prunes them as one change.
const WINDOWS_AT_ONCE: usize = 32;

/// Keeps in `target`, 64 values at a time from its smallest to its largest, the values whose
/// bit is set in `mask(ctx, base)` (bit `i` for the value `base + i`). The masks of up to
/// [`WINDOWS_AT_ONCE`] windows are computed first and pruned as one change of the domain, so
/// `mask` sees `target` as it was before the windows of its group were pruned.
pub(crate) fn keep_masked(
    ctx: &mut PropagationContext<'_>,
    target: VarId,
    mask: impl Fn(&PropagationContext<'_>, i64) -> u64,
) -> Result<bool, Conflict> {
    let d = ctx.domain(target);
    let (low, high) = (d.min().ok_or(Conflict)?, d.max().ok_or(Conflict)?);
    let (mut base, mut changed) = (d.word_start(low), false);
    let mut masks = [0u64; WINDOWS_AT_ONCE];
    while base <= i64::from(high) {
        let mut count = 0;
        while count < WINDOWS_AT_ONCE && base + 64 * count as i64 <= i64::from(high) {
            masks[count] = mask(ctx, base + 64 * count as i64);
            count += 1;
        }
        // Windows start within `target`'s window of values, so within the `i32` range. One
        // window (a domain of at most 64 values, often) takes the one-word fast path.
        changed |= match masks[..count] {
            [mask] => ctx.retain_window(target, base as i32, mask)?,
            _ => ctx.retain_windows(target, base as i32, &masks[..count])?,
        };
        base += 64 * count as i64;
    }
    Ok(changed)
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
        if x.window(base as i32) & image(y, base, shift, false) != 0 {
            return true;
        }
        base += 64;
    }
    false
}

/// Whether `x` and `y` share a value: a word at a time when both are bitsets, else the values
/// of the smaller looked up in the larger.
pub(crate) fn meet(x: &Domain, y: &Domain) -> bool {
    if x.is_bitset() && y.is_bitset() {
        return meets_shifted(x, y, 0);
    }
    let (small, large) = if x.size() <= y.size() { (x, y) } else { (y, x) };
    small.iter().any(|v| large.contains(v))
}

/// Removes from `target` the values `source` lacks (but 0 if `keep_zero`): a word at a time
/// when both are bitsets, else value by value, the values to go listed first (inline up to
/// 64). Returns whether `target` changed.
pub(crate) fn keep_within(
    ctx: &mut PropagationContext<'_>,
    target: VarId,
    source: VarId,
    keep_zero: bool,
) -> Result<bool, Conflict> {
    if ctx.domain(target).is_bitset() && ctx.domain(source).is_bitset() {
        return keep_masked(ctx, target, |ctx, base| {
            // Windows start within `target`'s window of values, so within the `i32` range.
            let zero = if keep_zero && (base..base + 64).contains(&0) {
                1u64 << -base
            } else {
                0
            };
            ctx.domain(source).window(base as i32) | zero
        });
    }
    let gone: SmallVec<[i32; 64]> = ctx
        .domain(target)
        .iter()
        .filter(|&v| !(ctx.domain(source).contains(v) || keep_zero && v == 0))
        .collect();
    for &v in &gone {
        ctx.remove(target, v)?;
    }
    Ok(!gone.is_empty())
}
