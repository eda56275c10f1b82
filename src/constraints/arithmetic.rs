//! Non-linear arithmetic on variables: `z = |x|`, `z = x · y`, `z = x div y`, `z = x mod y`,
//! `z = x ^ y`.

use std::fmt;

use smallvec::SmallVec;

use crate::constraints::bounds::{keep_at_least, keep_at_most};
use crate::constraints::product::product_bounds;
use crate::constraints::words::{self, keep_either_sign};
use crate::constraints::{
    Conflict, Constraint, PropagationContext, Propagator, PropagatorSetup, Reversible, WakeOn,
};
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// The operation of an [`Arithmetic`] constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Operation {
    /// `z = |x|`.
    Abs,
    /// `z = x · y`.
    Times,
    /// `z = x div y`, rounded towards zero (as in Rust, C and MiniZinc's `div`); no solution
    /// with `y = 0`.
    Div,
    /// `z = x mod y`, the remainder of `div`: it has the sign of `x` (as Rust's `%` and
    /// MiniZinc's `mod`); no solution with `y = 0`.
    Mod,
    /// `z = x ^ y` for `y ≥ 0` (`x ^ 0 = 1`); no solution with `y < 0`.
    Pow,
}

impl Operation {
    /// The result of the operation, if it is defined and fits an `i32`.
    pub fn apply(self, x: i32, y: i32) -> Option<i32> {
        let (x, y) = (i64::from(x), i64::from(y));
        let z = match self {
            Operation::Abs => Some(x.abs()),
            Operation::Times => Some(x * y),
            Operation::Div => (y != 0).then(|| x / y),
            Operation::Mod => (y != 0).then(|| x % y),
            Operation::Pow => pow(x, y),
        }?;
        i32::try_from(z).ok()
    }

    fn is_unary(self) -> bool {
        self == Operation::Abs
    }
}

/// `x ^ y` in `i64`, if `y ≥ 0` and it fits.
fn pow(x: i64, y: i64) -> Option<i64> {
    let y = u32::try_from(y).ok()?;
    match x {
        0 | 1 => Some(if y == 0 { 1 } else { x }),
        -1 => Some(if y % 2 == 0 { 1 } else { -1 }),
        _ => x.checked_pow(y),
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Operation::Abs => "abs",
            Operation::Times => "times",
            Operation::Div => "div",
            Operation::Mod => "mod",
            Operation::Pow => "pow",
        })
    }
}

/// The most pairs of values `Full` enumerates for domain consistency.
const PAIRS: usize = 256;

/// The most values of one domain the forward rule visits.
const FORWARD_VALUES: usize = 1 << 16;

/// The forward rule filters a domain of at most this many values value by value; a wider one
/// has its bounds moved instead, at most [`BOUND_STEPS`] values each.
const FILTERED_VALUES: usize = 1 << 8;

/// How far the forward rule looks for a satisfying bound of a wide domain.
const BOUND_STEPS: usize = 1 << 16;

/// The widest domain whose bounds the forward rule moves. Beyond, it is left to the search: two
/// rules that each move a bound by one value (`y mod 3 = 1` and `y mod 3 = 2`) would otherwise
/// take turns over billions of values before failing.
const ROUNDED_VALUES: usize = 1 << 20;

/// The first of `start`, `next(start)`, `next(next(start))`, … that `satisfies`, looking at
/// [`BOUND_STEPS`] values at most (then the last one looked at: every value before it fails).
/// `None` if the values run out first.
fn nearest(
    start: Option<i32>,
    next: impl Fn(i32) -> Option<i32>,
    satisfies: &mut impl FnMut(i32) -> bool,
) -> Option<i32> {
    let mut value = start;
    for _ in 0..BOUND_STEPS {
        match value {
            Some(v) if !satisfies(v) => value = next(v),
            _ => break,
        }
    }
    value
}

/// `z = op(x, y)` for a non-linear [`Operation`]: `|x − y| = z` is `Abs` of a difference,
/// products of variables (areas, "the product of this cage is 120"), `div` and `mod` (digits of
/// a number, clock arithmetic), powers. MiniZinc's `int_abs`, `int_times`, `int_div`,
/// `int_mod`, `int_pow`.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to values that violate it.
/// - `Forward`: once all variables but one are fixed, the last keeps the values that satisfy
///   it (`z` is fixed to `op(x, y)`); a domain of more than 256 values has only its bounds
///   moved to the nearest values that satisfy it (each within 65,536 values; `x mod 97 = 0`
///   over `0..=300000` keeps its holes to the search, not thousands of them at once), and one
///   of more than 2²⁰ values is left alone.
/// - `Full`: for `abs`, domain consistency whenever both domains are bitsets (at most
///   [`Domain::MAX_SPAN`](crate::Domain::MAX_SPAN) values wide), a word at a time: `z` keeps
///   the values of `x` and of its mirror image, `x` those of `z` and of its mirror image. For
///   every operation, domain consistency when the domains of `x` and `y` have at most 256
///   pairs of values (every value left has a support, found by enumerating the pairs); beyond
///   that, the
///   forward rule and bounds reasoning in 64- and 128-bit arithmetic, sound at the ends of the
///   `i32` range (not bounds consistency):
///   - `abs`: `z` from the bounds of `x`, `x` within `±max(z)`;
///   - `times`: the zero and bounds rules of [`Product`](crate::Product), `z` from `x · y` and
///     each factor from `z` divided by the other;
///   - `div`: `y ≠ 0`; `z` from the corners of `x / y`; `|y|` between `|x| / (|z| + 1)` and
///     `|x| / |z|`, `|x|` between `|z|·|y|` and `(|z| + 1)·|y| − 1`; the signs of `x` and `y`
///     from a `z` that cannot be 0; `i32::MIN div −1` ruled out;
///   - `mod`: `y ≠ 0`; `z` has the sign of `x`, `|z| < |y|`, and `z = x` or `|z| ≤ (|x| − 1) / 2`;
///     `x` has the sign of a non-zero `z`, `|y| > |z|`, and when `z = x` is impossible,
///     `|y| ≤ |x| − |z|` and `|x| ≥ |y| + |z|`;
///   - `pow`: `y ≥ 0`, `y ≠ 0` when `z` cannot be 1; `z` from the powers of the bounds of `x`
///     for each exponent (64 at most: beyond, only `x ∈ {−1, 0, 1}` fits an `i32`); `y` from
///     how fast `|x|` grows against `|z|`; `x` negative for a negative `z`, `|x| ≥ 2` for
///     `|z| ≥ 2`, `|x|` at most the `min(y)`-th root of `max|z|`.
///
///   So a search over variables of the whole `i32` range meets a handful of values where
///   value-by-value enumeration would take hours (`-2³¹ mod y = z` leaves `z` in
///   `−(2³⁰ − 1)..=0`, and fixing `z` leaves four values of `y`).
///
/// # Examples
///
/// ```
/// use cspkit::{Arithmetic, Model};
///
/// // Two dice whose product is 12: (2, 6), (3, 4), (4, 3), (6, 2).
/// let mut model = Model::new();
/// let x = model.new_var(1..=6)?;
/// let y = model.new_var(1..=6)?;
/// let z = model.new_var(12..=12)?;
/// model.post(Arithmetic::times(x, y, z))?;
/// assert_eq!(model.solver().count().solutions, 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Arithmetic {
    /// `[x, z]` for a unary operation, `[x, y, z]` otherwise.
    scope: SmallVec<[VarId; 3]>,
    operation: Operation,
}

impl Arithmetic {
    /// `z = |x|`.
    pub fn abs(x: VarId, z: VarId) -> Arithmetic {
        Arithmetic {
            scope: SmallVec::from_slice(&[x, z]),
            operation: Operation::Abs,
        }
    }

    /// `z = x · y`.
    pub fn times(x: VarId, y: VarId, z: VarId) -> Arithmetic {
        Arithmetic::new(Operation::Times, x, y, z)
    }

    /// `z = x div y`, rounded towards zero.
    pub fn div(x: VarId, y: VarId, z: VarId) -> Arithmetic {
        Arithmetic::new(Operation::Div, x, y, z)
    }

    /// `z = x mod y`, with the sign of `x`.
    pub fn modulo(x: VarId, y: VarId, z: VarId) -> Arithmetic {
        Arithmetic::new(Operation::Mod, x, y, z)
    }

    /// `z = x ^ y`, `y ≥ 0`.
    pub fn pow(x: VarId, y: VarId, z: VarId) -> Arithmetic {
        Arithmetic::new(Operation::Pow, x, y, z)
    }

    /// `z = op(x, y)` for a binary operation; for [`Operation::Abs`], `y` is ignored.
    pub fn new(operation: Operation, x: VarId, y: VarId, z: VarId) -> Arithmetic {
        if operation.is_unary() {
            return Arithmetic::abs(x, z);
        }
        Arithmetic {
            scope: SmallVec::from_slice(&[x, y, z]),
            operation,
        }
    }

    /// The operation.
    pub fn operation(&self) -> Operation {
        self.operation
    }

    /// `op(x, y)` for the values of the scope but the last (`y` = 0 for a unary operation).
    fn apply(&self, values: &[i32]) -> Option<i32> {
        let y = if self.operation.is_unary() {
            0
        } else {
            values[1]
        };
        self.operation.apply(values[0], y)
    }

    /// The forward rule: with all variables but one fixed, the last keeps what satisfies it.
    fn forward(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let unfixed: SmallVec<[usize; 3]> = (0..self.scope.len())
            .filter(|&p| !ctx.is_fixed(self.scope[p]))
            .collect();
        let mut values: SmallVec<[i32; 3]> = self
            .scope
            .iter()
            .map(|&v| ctx.domain(v).min().unwrap_or(0))
            .collect();
        match unfixed[..] {
            [] if !self.check(&values) => {
                return Err(Conflict);
            }
            [p] if p == self.scope.len() - 1 => {
                let z = self.apply(&values).ok_or(Conflict)?;
                ctx.fix(self.scope[p], z)?;
            }
            [p] if ctx.domain(self.scope[p]).size() <= FILTERED_VALUES => {
                let var = self.scope[p];
                ctx.retain(var, |v| {
                    values[p] = v;
                    self.check(&values)
                })?;
            }
            [p] if !self.scope[..p].contains(&self.scope[p])
                && ctx.domain(self.scope[p]).size() <= ROUNDED_VALUES =>
            {
                // A wide domain: its bounds move to the nearest values that satisfy the rule
                // (`x mod 97 = 0` rounds them to multiples of 97), the values between are left.
                let var = self.scope[p];
                let mut satisfies = |v: i32| {
                    values[p] = v;
                    self.check(&values)
                };
                let domain = ctx.domain(var);
                let low =
                    nearest(domain.min(), |v| domain.above(v), &mut satisfies).ok_or(Conflict)?;
                ctx.remove_below(var, low)?;
                let domain = ctx.domain(var);
                let high =
                    nearest(domain.max(), |v| domain.below(v), &mut satisfies).ok_or(Conflict)?;
                ctx.remove_above(var, high)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Domain consistency by enumerating the pairs of values of `x` and `y`.
    fn supports(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let last = self.scope.len() - 1;
        let xs: SmallVec<[i32; 64]> = ctx.domain(self.scope[0]).iter().collect();
        let ys: SmallVec<[i32; 64]> = if self.operation.is_unary() {
            SmallVec::from_slice(&[0])
        } else {
            ctx.domain(self.scope[1]).iter().collect()
        };
        let z_domain = ctx.domain(self.scope[last]);
        let mut x_ok: SmallVec<[bool; 64]> = SmallVec::from_elem(false, xs.len());
        let mut y_ok: SmallVec<[bool; 64]> = SmallVec::from_elem(false, ys.len());
        let mut zs: SmallVec<[i32; 64]> = SmallVec::new();
        for (i, &x) in xs.iter().enumerate() {
            for (j, &y) in ys.iter().enumerate() {
                if let Some(z) = self.operation.apply(x, y)
                    && z_domain.contains(z)
                {
                    x_ok[i] = true;
                    y_ok[j] = true;
                    zs.push(z);
                }
            }
        }
        if zs.is_empty() {
            return Err(Conflict);
        }
        zs.sort_unstable();
        zs.dedup();
        let keep = |values: &[i32], ok: &[bool]| -> SmallVec<[i32; 64]> {
            values
                .iter()
                .zip(ok)
                .filter(|&(_, &ok)| ok)
                .map(|(&v, _)| v)
                .collect()
        };
        ctx.retain_sorted(self.scope[0], &keep(&xs, &x_ok))?;
        if !self.operation.is_unary() {
            ctx.retain_sorted(self.scope[1], &keep(&ys, &y_ok))?;
        }
        ctx.retain_sorted(self.scope[last], &zs)?;
        Ok(())
    }

    /// For `z = x · y` over three distinct variables of at most 65,536 values each, the
    /// position (0 or 1) of a factor whose values lie in `{0, 1}` (MiniZinc's
    /// `bool2int(b) * x`).
    fn boolean_factor(&self, ctx: &PropagationContext<'_>) -> Option<usize> {
        let [x, y, z] = self.scope[..] else {
            return None;
        };
        if self.operation != Operation::Times || x == y || x == z || y == z {
            return None;
        }
        // The rule visits the values of x and z: wide domains keep the bounds rules.
        if ctx
            .domain(x)
            .size()
            .max(ctx.domain(y).size())
            .max(ctx.domain(z).size())
            > FORWARD_VALUES
        {
            return None;
        }
        let boolean = |v: VarId| {
            let d = ctx.domain(v);
            d.min().is_some_and(|m| m >= 0) && d.max().is_some_and(|m| m <= 1)
        };
        [0, 1].into_iter().find(|&k| boolean(self.scope[k]))
    }

    /// Domain consistency of `z = b · x` with `b` in `{0, 1}`, in one pass over `z`'s values
    /// instead of every pair: `b = 0` needs `0` in `z`; `b = 1` needs a value shared by `x` and
    /// `z`; `z` keeps `0` if `b` can be `0` and the values of `x` if `b` can be `1`; `x` is
    /// bound only when `b = 1`.
    fn times_boolean(
        &self,
        ctx: &mut PropagationContext<'_>,
        b_position: usize,
    ) -> Result<(), Conflict> {
        let (b, x, z) = (
            self.scope[b_position],
            self.scope[1 - b_position],
            self.scope[2],
        );
        if !ctx.domain(z).contains(0) {
            ctx.remove(b, 0)?;
        }
        if ctx.domain(b).contains(1) && !words::meet(ctx.domain(x), ctx.domain(z)) {
            ctx.remove(b, 1)?;
        }
        match ctx.value(b) {
            Some(0) => {
                ctx.fix(z, 0)?;
            }
            value => {
                // z keeps 0 while b can be 0, and the values of x while it can be 1; x loses
                // what z lacks only once b = 1.
                let zero = value.is_none();
                words::keep_within(ctx, z, x, zero)?;
                if !zero {
                    words::keep_within(ctx, x, z, false)?;
                }
            }
        }
        Ok(())
    }

    /// Bounds reasoning, for domains too large to enumerate: see the type's documentation.
    fn bounds(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let x = self.scope[0];
        let z = self.scope[self.scope.len() - 1];
        if self.operation.is_unary() {
            return abs_bounds(ctx, x, z);
        }
        let y = self.scope[1];
        match self.operation {
            Operation::Times if x == y => square_bounds(ctx, x, z),
            Operation::Times => product_bounds(ctx, &self.scope[..2], z),
            Operation::Div => div_bounds(ctx, x, y, z),
            Operation::Mod => mod_bounds(ctx, x, y, z),
            Operation::Pow => pow_bounds(ctx, x, y, z),
            Operation::Abs => abs_bounds(ctx, x, z),
        }
    }
}

/// Domain consistency of `z = |x|` a word at a time, when both domains are bitsets (at most
/// [`Domain::MAX_SPAN`] wide): `z` keeps its values `v ≥ 0` for which `x` holds `v` or `−v`,
/// then `x` its values `u` for which `z` holds `|u|`. Both keep the values of the other's
/// domain joined with its mirror image (`−v` for `v`), which `z` holds only at or above 0.
/// One pass each way is a fixpoint. Returns whether it ran.
fn abs_by_words(ctx: &mut PropagationContext<'_>, x: VarId, z: VarId) -> Result<bool, Conflict> {
    if x == z {
        return Ok(false);
    }
    if !(ctx.domain(x).is_bitset() && ctx.domain(z).is_bitset()) {
        return Ok(false);
    }
    ctx.remove_below(z, 0)?;
    keep_either_sign(ctx, z, x)?;
    keep_either_sign(ctx, x, z)?;
    Ok(true)
}

/// The smallest and the largest value of `var`.
fn hull(ctx: &PropagationContext<'_>, var: VarId) -> Result<(i64, i64), Conflict> {
    let d = ctx.domain(var);
    Ok((
        i64::from(d.min().ok_or(Conflict)?),
        i64::from(d.max().ok_or(Conflict)?),
    ))
}

/// The smallest and the largest `|v|` for `v` in `low..=high`.
fn magnitudes((low, high): (i64, i64)) -> (i64, i64) {
    let largest = low.abs().max(high.abs());
    let smallest = if low <= 0 && 0 <= high {
        0
    } else {
        low.abs().min(high.abs())
    };
    (smallest, largest)
}

/// The smallest and the largest `|v|` for `v` in the domain of `var` (the smallest read from
/// the values next to 0, so that a hole around 0 counts).
fn domain_magnitudes(ctx: &PropagationContext<'_>, var: VarId) -> Result<(i64, i64), Conflict> {
    let d = ctx.domain(var);
    let (_, largest) = magnitudes(hull(ctx, var)?);
    let smallest = if d.contains(0) {
        0
    } else {
        let negative = d.below(0).map(|v| -i64::from(v));
        let positive = d.above(0).map(i64::from);
        negative.into_iter().chain(positive).min().ok_or(Conflict)?
    };
    Ok((smallest, largest))
}

/// Removes the values `v` of `var` with `|v| > bound`.
fn keep_magnitude_at_most(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    bound: i64,
) -> Result<(), Conflict> {
    keep_at_least(ctx, var, bound.saturating_neg())?;
    keep_at_most(ctx, var, bound)?;
    Ok(())
}

/// Removes the values `v` of `var` with `|v| < bound`.
fn keep_magnitude_at_least(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    bound: i64,
) -> Result<(), Conflict> {
    if bound <= 0 {
        return Ok(());
    }
    // |v| ≤ bound − 1, within the values of an i32 (whose smallest has magnitude 2³¹).
    let reach = bound - 1;
    let low = (-reach).max(i64::from(i32::MIN)) as i32;
    let high = reach.min(i64::from(i32::MAX)) as i32;
    ctx.remove_range(var, low, high)?;
    Ok(())
}

/// `z = x · x`: `z` within the squares of the magnitudes of `x`, and `|x|` within the roots
/// of `z`'s bounds. The product of two factors cannot know that they are one variable: over
/// `x ∈ i32` and `z ≤ 400` it would leave `x` unbounded, where this leaves `−20..=20`.
fn square_bounds(ctx: &mut PropagationContext<'_>, x: VarId, z: VarId) -> Result<(), Conflict> {
    keep_at_least(ctx, z, 0)?;
    let (_, z_high) = hull(ctx, z)?;
    keep_magnitude_at_most(ctx, x, integer_root(z_high, 2))?;
    let (z_low, _) = hull(ctx, z)?;
    // The smallest r with r² ≥ z_low.
    let root = integer_root(z_low, 2);
    let least = if root * root < z_low { root + 1 } else { root };
    keep_magnitude_at_least(ctx, x, least)?;
    let (low, high) = domain_magnitudes(ctx, x)?;
    let square = |m: i64| i64::try_from(i128::from(m) * i128::from(m)).unwrap_or(i64::MAX);
    keep_at_least(ctx, z, square(low))?;
    keep_at_most(ctx, z, square(high))?;
    Ok(())
}

/// `z = |x|`: `z` from the bounds of `x`, and `x` within `±max(z)`.
fn abs_bounds(ctx: &mut PropagationContext<'_>, x: VarId, z: VarId) -> Result<(), Conflict> {
    let (_, z_high) = hull(ctx, z)?;
    keep_magnitude_at_most(ctx, x, z_high)?;
    let (low, high) = magnitudes(hull(ctx, x)?);
    keep_at_least(ctx, z, low)?;
    keep_at_most(ctx, z, high)?;
    Ok(())
}

/// `z = x div y`, rounded towards zero: `|z| = ⌊|x| / |y|⌋`, so `|z|·|y| ≤ |x|` and
/// `|x| < (|z| + 1)·|y|`, and a non-zero `z` has the sign of `x·y`.
fn div_bounds(
    ctx: &mut PropagationContext<'_>,
    x: VarId,
    y: VarId,
    z: VarId,
) -> Result<(), Conflict> {
    ctx.remove(y, 0)?;
    // i32::MIN div −1 is no i32.
    if ctx.value(x) == Some(i32::MIN) {
        ctx.remove(y, -1)?;
    }
    if ctx.value(y) == Some(-1) {
        ctx.remove(x, i32::MIN)?;
    }
    let (a, b) = hull(ctx, x)?;
    let (c, d) = hull(ctx, y)?;
    // `z`: truncated division is monotone in x for a fixed y, and extreme in y at the ends of
    // its range or next to zero (the largest negative value, and 1 or more).
    let below_zero = ctx.domain(y).below(0).map_or(c, i64::from);
    let quotients: SmallVec<[i64; 8]> = [c, d, below_zero, 1]
        .into_iter()
        .filter(|&v| v != 0 && c <= v && v <= d)
        .flat_map(|v| [a / v, b / v])
        .collect();
    let low = quotients.iter().min().ok_or(Conflict)?;
    let high = quotients.iter().max().ok_or(Conflict)?;
    keep_at_least(ctx, z, *low)?;
    keep_at_most(ctx, z, *high)?;
    // `y`: |y| ≤ |x| / |z| for z ≠ 0, and |y| > |x| / (|z| + 1).
    let (x_min, x_max) = domain_magnitudes(ctx, x)?;
    let (z_min, z_max) = domain_magnitudes(ctx, z)?;
    if z_min >= 1 {
        keep_magnitude_at_most(ctx, y, x_max / z_min)?;
    }
    keep_magnitude_at_least(ctx, y, x_min / (z_max + 1) + 1)?;
    // `x`: |z|·|y| ≤ |x| ≤ (|z| + 1)·|y| − 1.
    let (y_min, y_max) = domain_magnitudes(ctx, y)?;
    keep_magnitude_at_least(ctx, x, z_min * y_min)?;
    keep_magnitude_at_most(ctx, x, (z_max + 1) * y_max - 1)?;
    // Signs: a z that cannot be 0 has the sign of x·y (and then x cannot be 0).
    let (z_low, z_high) = hull(ctx, z)?;
    if z_low > 0 || z_high < 0 {
        let same = z_low > 0;
        let sign = |ctx: &PropagationContext<'_>, var| -> Result<i64, Conflict> {
            let (low, high) = hull(ctx, var)?;
            Ok(if low >= 0 {
                1
            } else if high <= 0 {
                -1
            } else {
                0
            })
        };
        for (known, other) in [(x, y), (y, x)] {
            let s = sign(ctx, known)?;
            if s != 0 {
                // `other` has the sign s (same) or −s (opposite).
                if (s > 0) == same {
                    keep_at_least(ctx, other, 1)?;
                } else {
                    keep_at_most(ctx, other, -1)?;
                }
            }
        }
    }
    Ok(())
}

/// `z = x mod y`, the remainder of truncated division: `z` has the sign of `x` (or is 0),
/// `|z| < |y|` and `|z| ≤ |x|`. Either the quotient is 0 and `z = x` (with `|x| < |y|`), or
/// `|x| = |q|·|y| + |z| ≥ |y| + |z| > 2·|z|`.
fn mod_bounds(
    ctx: &mut PropagationContext<'_>,
    x: VarId,
    y: VarId,
    z: VarId,
) -> Result<(), Conflict> {
    ctx.remove(y, 0)?;
    let (a, b) = hull(ctx, x)?;
    let (_, y_max) = domain_magnitudes(ctx, y)?;
    let (_, x_max) = magnitudes((a, b));
    let (z_low, z_high) = hull(ctx, z)?;
    // The sign of x, |z| ≤ |y| − 1 and |z| ≤ |x|.
    let low = if a >= 0 { 0 } else { -((y_max - 1).min(-a)) };
    let high = if b <= 0 { 0 } else { (y_max - 1).min(b) };
    // z = x, or |z| ≤ (|x| − 1) / 2.
    let equal = (
        a.max(z_low).max(1 - y_max).max(low),
        b.min(z_high).min(y_max - 1).min(high),
    );
    let half = (x_max - 1).max(0) / 2;
    let apart = (low.max(-half), high.min(half));
    let (low, high) = match (equal.0 <= equal.1, apart.0 <= apart.1) {
        (true, true) => (equal.0.min(apart.0), equal.1.max(apart.1)),
        (true, false) => equal,
        (false, true) => apart,
        (false, false) => return Err(Conflict),
    };
    keep_at_least(ctx, z, low)?;
    keep_at_most(ctx, z, high)?;
    // `x` has the sign of a z that cannot be 0, and |x| ≥ |z|.
    let (z_low, z_high) = hull(ctx, z)?;
    if z_low > 0 {
        keep_at_least(ctx, x, z_low)?;
    } else if z_high < 0 {
        keep_at_most(ctx, x, z_high)?;
    }
    // `y`: |y| > |z|.
    let (z_min, _) = domain_magnitudes(ctx, z)?;
    keep_magnitude_at_least(ctx, y, z_min + 1)?;
    // When z = x is impossible, the quotient is not 0: |y| ≤ |x| − |z| and |x| ≥ |y| + |z|.
    let (a, b) = hull(ctx, x)?;
    let (_, y_max) = domain_magnitudes(ctx, y)?;
    if a.max(z_low).max(1 - y_max) > b.min(z_high).min(y_max - 1) {
        let (_, x_max) = magnitudes((a, b));
        keep_magnitude_at_most(ctx, y, x_max - z_min)?;
        let (y_min, _) = domain_magnitudes(ctx, y)?;
        keep_magnitude_at_least(ctx, x, y_min + z_min)?;
    }
    Ok(())
}

/// `x^k` for `k ≥ 0`, saturated to `±2⁶²` (beyond every `i32`).
fn saturated_pow(x: i64, k: i64) -> i128 {
    const CAP: i128 = 1 << 62;
    let negative = x < 0 && k % 2 == 1;
    let magnitude = match x.unsigned_abs() {
        _ if k == 0 => 1,
        0 | 1 => i128::from(x.unsigned_abs()),
        m => u32::try_from(k)
            .ok()
            .and_then(|k| i128::from(m).checked_pow(k))
            .map_or(CAP, |p| p.min(CAP)),
    };
    if negative { -magnitude } else { magnitude }
}

/// The largest `r ≥ 0` with `r^k ≤ bound` (`k ≥ 1`, `bound ≥ 0`).
fn integer_root(bound: i64, k: i64) -> i64 {
    let (mut low, mut high) = (0i64, bound.min(1 << 32));
    // Invariant: low^k ≤ bound < (high + 1)^k.
    while low < high {
        let middle = low + (high - low + 1) / 2;
        if saturated_pow(middle, k) <= i128::from(bound) {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    low
}

/// The most exponents the bounds of a power visit; past 64, `|x| ≥ 2` overflows every `i32`
/// and only `x ∈ {−1, 0, 1}` is left, whose powers are in `−1..=1`.
const EXPONENTS: i64 = 64;

/// `z = x ^ y` for `y ≥ 0`: `z` from the bounds of `x` and `y` (each exponent up to 64
/// apart), `y` from how fast `|x|` grows, `x` from the root of `|z|`.
fn pow_bounds(
    ctx: &mut PropagationContext<'_>,
    x: VarId,
    y: VarId,
    z: VarId,
) -> Result<(), Conflict> {
    keep_at_least(ctx, y, 0)?;
    if !ctx.domain(z).contains(1) {
        // x ^ 0 = 1.
        ctx.remove(y, 0)?;
    }
    let (a, b) = hull(ctx, x)?;
    let (y_low, y_high) = hull(ctx, y)?;
    // `z`: x ^ k is monotone in x for odd k; for even k, decreasing below 0, increasing above.
    let (mut low, mut high) = (i128::MAX, i128::MIN);
    for k in y_low..=y_high.min(y_low + EXPONENTS) {
        let (p, q) = (saturated_pow(a, k), saturated_pow(b, k));
        let (from, to) = if k == 0 {
            (1, 1)
        } else if k % 2 == 1 || a >= 0 {
            (p.min(q), p.max(q))
        } else if b <= 0 {
            (q, p)
        } else {
            (0, p.max(q))
        };
        (low, high) = (low.min(from), high.max(to));
    }
    if y_high > y_low + EXPONENTS {
        (low, high) = (low.min(-1), high.max(1));
    }
    keep_at_least(ctx, z, low as i64)?;
    keep_at_most(ctx, z, high as i64)?;
    // `y`: with |x| ≥ 2, |x|^y grows with y; it is |z|, within the magnitudes of z.
    let (x_min, x_max) = domain_magnitudes(ctx, x)?;
    let (z_min, z_max) = domain_magnitudes(ctx, z)?;
    if x_min >= 2 {
        let mut k = 0;
        while saturated_pow(x_min, k + 1) <= i128::from(z_max) {
            k += 1;
        }
        keep_at_most(ctx, y, k)?;
    }
    if x_max >= 2 {
        let mut k = 0;
        while saturated_pow(x_max, k) < i128::from(z_min) {
            k += 1;
        }
        keep_at_least(ctx, y, k)?;
    }
    // `x`: a negative z has a negative x; |z| ≥ 2 needs |x| ≥ 2; for y ≥ 1, |x| ≤ the y-th
    // root of |z|.
    let (z_low, z_high) = hull(ctx, z)?;
    let (y_low, _) = hull(ctx, y)?;
    if z_high < 0 {
        keep_at_most(ctx, x, -1)?;
    }
    if domain_magnitudes(ctx, z)?.0 >= 2 {
        keep_magnitude_at_least(ctx, x, 2)?;
    }
    if y_low >= 1 {
        let (_, z_max) = magnitudes((z_low, z_high));
        keep_magnitude_at_most(ctx, x, integer_root(z_max, y_low))?;
    }
    Ok(())
}

impl Constraint for Arithmetic {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// The scope's domains cut down by the constraint's own propagation
    /// ([`minimized_reason`](crate::kernel::minimized_reason)).
    fn explain(
        &self,
        inference: crate::kernel::Inference,
        ctx: &crate::kernel::ExplainContext<'_>,
    ) -> Option<Vec<crate::kernel::Literal>> {
        crate::kernel::minimized_reason(self, inference, ctx)
    }

    fn check(&self, values: &[i32]) -> bool {
        self.apply(values) == Some(values[values.len() - 1])
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        match ctx.level() {
            PropagationLevel::None => ctx.check_if_fixed(self),
            PropagationLevel::Forward => self.forward(ctx),
            PropagationLevel::Full => {
                if let Some(b) = self.boolean_factor(ctx) {
                    return self.times_boolean(ctx, b);
                }
                if self.operation == Operation::Abs
                    && abs_by_words(ctx, self.scope[0], self.scope[1])?
                {
                    return Ok(());
                }
                let pairs = if self.operation.is_unary() {
                    Some(ctx.domain(self.scope[0]).size())
                } else {
                    ctx.domain(self.scope[0])
                        .size()
                        .checked_mul(ctx.domain(self.scope[1]).size())
                };
                if pairs.is_some_and(|n| n <= PAIRS) {
                    self.supports(ctx)
                } else {
                    self.bounds(ctx)?;
                    self.forward(ctx)
                }
            }
        }
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::Full => WakeOn::AnyChange,
            _ => WakeOn::Fixed,
        }
    }

    fn propagator(&self, setup: &mut PropagatorSetup<'_>) -> Option<Box<dyn Propagator + '_>> {
        (setup.level() == PropagationLevel::Full).then(|| {
            Box::new(Settled {
                constraint: self,
                settled: setup.reversible(false),
            }) as Box<dyn Propagator + '_>
        })
    }

    fn name(&self) -> &str {
        match self.operation {
            Operation::Abs => "Abs",
            Operation::Times => "Times",
            Operation::Div => "Div",
            Operation::Mod => "Mod",
            Operation::Pow => "Pow",
        }
    }
}

/// [`Arithmetic`] at `Full`, with one reversible fact: the run before left every variable but
/// one fixed, and that one with only values that satisfy the constraint (the forward rule, or
/// domain consistency, filtered it). Until the search backtracks past that run, a change of
/// that variable alone only removes values and leaves the rest supported, so the run is
/// skipped: a wide `x mod 97 = 0` is not filtered value by value again at every bound change
/// of `x`.
#[derive(Debug)]
struct Settled<'a> {
    constraint: &'a Arithmetic,
    settled: Reversible<bool>,
}

impl Settled<'_> {
    /// The one position left open, if there is exactly one (a variable at two positions is
    /// open at both, and the forward rule does not filter it).
    fn open(&self, ctx: &PropagationContext<'_>) -> Option<usize> {
        let scope = &self.constraint.scope;
        let mut open = (0..scope.len()).filter(|&p| !ctx.is_fixed(scope[p]));
        let p = open.next()?;
        open.next().is_none().then_some(p)
    }
}

impl Propagator for Settled<'_> {
    fn propagate(&mut self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let scope = &self.constraint.scope;
        if ctx.get(self.settled)
            && let (Some(changes), Some(p)) = (ctx.changes(), self.open(ctx))
            && changes.iter().all(|c| c.position == p)
        {
            return Ok(());
        }
        self.constraint.propagate(ctx)?;
        let settled = self
            .open(ctx)
            .is_some_and(|p| ctx.domain(scope[p]).size() <= FILTERED_VALUES);
        ctx.set(self.settled, settled);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;
    use crate::kernel::trail::Trail;
    use crate::util::random::SplitMix64;

    fn var(index: u32) -> VarId {
        VarId { model: 0, index }
    }

    /// Values near 0 and near the ends of the `i32` range, and the powers of two in between.
    fn extremes() -> Vec<i32> {
        let mut pool = vec![i32::MIN, i32::MIN + 1, i32::MIN + 2, i32::MAX - 1, i32::MAX];
        pool.extend(-8..=8);
        for k in [16, 30] {
            let p = 1i32 << k;
            pool.extend([p - 1, p, p + 1, -p - 1, -p, -p + 1]);
        }
        pool.extend([46_340, 46_341, -46_341, 1_073_741_825, -1_073_741_825]);
        pool.sort_unstable();
        pool.dedup();
        pool
    }

    /// Runs the bounds rules of `constraint` (several times, as the engine would) on `domains`
    /// and checks that every value with a support survives, and that a failure comes only when
    /// there is no support.
    fn check_bounds_are_sound(constraint: &Arithmetic, domains: &[Vec<i32>]) {
        let unary = constraint.operation.is_unary();
        let (xs, zs) = (&domains[0], &domains[domains.len() - 1]);
        let ys: &[i32] = if unary { &[0] } else { &domains[1] };
        let mut supported: Vec<Vec<i32>> = vec![Vec::new(); domains.len()];
        for &x in xs {
            for &y in ys {
                if let Some(z) = constraint.operation.apply(x, y)
                    && zs.contains(&z)
                {
                    supported[0].push(x);
                    if !unary {
                        supported[1].push(y);
                    }
                    supported[domains.len() - 1].push(z);
                }
            }
        }
        let mut state: Vec<Domain> = domains
            .iter()
            .map(|values| Domain::from_values(values.iter().copied()).unwrap())
            .collect();
        let mut trail = Trail::default();
        let mut ctx = PropagationContext::new(&mut state, &mut trail, None, PropagationLevel::Full);
        let result = (0..4).try_for_each(|_| constraint.bounds(&mut ctx));
        let solutions = !supported[0].is_empty();
        assert!(
            result.is_ok() || !solutions,
            "{} on {domains:?} failed, but has solutions",
            constraint.operation
        );
        if result.is_ok() {
            for (p, values) in supported.iter().enumerate() {
                for &v in values {
                    assert!(
                        state[p].contains(v),
                        "{} on {domains:?} removed {v} from position {p}, which has a support",
                        constraint.operation
                    );
                }
            }
        }
    }

    fn subset(random: &mut SplitMix64, pool: &[i32]) -> Vec<i32> {
        loop {
            let keep = 1 + random.below(4);
            let values: Vec<i32> = pool
                .iter()
                .copied()
                .filter(|_| random.below(keep + 1) == 0)
                .collect();
            if !values.is_empty() {
                return values;
            }
        }
    }

    #[test]
    fn the_bounds_rules_never_remove_a_value_with_a_support() {
        let operations = [
            Operation::Abs,
            Operation::Times,
            Operation::Div,
            Operation::Mod,
            Operation::Pow,
        ];
        let mut random = SplitMix64::new(20);
        let extremes = extremes();
        let small: Vec<i32> = (-12..=12).collect();
        for case in 0..6000 {
            let operation = operations[case % operations.len()];
            let constraint = if operation == Operation::Abs {
                Arithmetic::abs(var(0), var(1))
            } else {
                Arithmetic::new(operation, var(0), var(1), var(2))
            };
            let pool = if case % 3 == 0 { &small } else { &extremes };
            let arity = constraint.scope.len();
            let domains: Vec<Vec<i32>> = (0..arity).map(|_| subset(&mut random, pool)).collect();
            check_bounds_are_sound(&constraint, &domains);
        }
    }

    #[test]
    fn a_remainder_at_the_end_of_i32_is_found_by_bounds() {
        // x = -2³¹ fixed: z = x mod y is 0 or within ±(2³⁰ − 1), never beyond.
        let m = Arithmetic::modulo(var(0), var(1), var(2));
        let mut domains = vec![
            Domain::range(i32::MIN, i32::MIN).unwrap(),
            Domain::range(i32::MIN, i32::MAX).unwrap(),
            Domain::range(i32::MIN, i32::MAX).unwrap(),
        ];
        let mut trail = Trail::default();
        let mut ctx =
            PropagationContext::new(&mut domains, &mut trail, None, PropagationLevel::Full);
        m.bounds(&mut ctx).unwrap();
        assert_eq!(
            (ctx.domain(var(2)).min(), ctx.domain(var(2)).max()),
            (Some(-(1 << 30) + 1), Some(0))
        );
        // With z fixed to its smallest value, y is left with ±(2³⁰ + 1) and ±2³⁰.
        ctx.fix(var(2), -(1 << 30) + 1).unwrap();
        m.bounds(&mut ctx).unwrap();
        let ys: Vec<i32> = ctx.domain(var(1)).iter().collect();
        assert_eq!(ys, [-(1 << 30) - 1, -(1 << 30), 1 << 30, (1 << 30) + 1]);
    }

    #[test]
    fn a_product_quotient_or_power_at_the_end_of_i32_leaves_few_values() {
        let full = || Domain::range(i32::MIN, i32::MAX).unwrap();
        let cases = [
            // -2³¹ · y fits an i32 for y in 0..=1 only.
            (Arithmetic::times(var(0), var(1), var(2)), vec![0, 1]),
            // -2³¹ ^ y for y in 0..=1 only.
            (Arithmetic::pow(var(0), var(1), var(2)), vec![0, 1]),
        ];
        for (constraint, expected) in cases {
            let mut domains = vec![Domain::range(i32::MIN, i32::MIN).unwrap(), full(), full()];
            let mut trail = Trail::default();
            let mut ctx =
                PropagationContext::new(&mut domains, &mut trail, None, PropagationLevel::Full);
            constraint.bounds(&mut ctx).unwrap();
            let ys: Vec<i32> = ctx.domain(var(1)).iter().collect();
            assert_eq!(ys, expected, "{}", constraint.operation);
        }
        // z = x div y with z fixed to -2³¹: y is 1 or -1, and x is -2³¹.
        let mut domains = vec![full(), full(), Domain::range(i32::MIN, i32::MIN).unwrap()];
        let mut trail = Trail::default();
        let mut ctx =
            PropagationContext::new(&mut domains, &mut trail, None, PropagationLevel::Full);
        Arithmetic::div(var(0), var(1), var(2))
            .bounds(&mut ctx)
            .unwrap();
        assert_eq!(ctx.value(var(0)), Some(i32::MIN));
        assert_eq!(ctx.domain(var(1)).iter().collect::<Vec<_>>(), [1]);
    }
}
