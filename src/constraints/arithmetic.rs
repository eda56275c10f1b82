//! Non-linear arithmetic on variables: `z = |x|`, `z = x · y`, `z = x div y`, `z = x mod y`,
//! `z = x ^ y`.

use std::fmt;

use smallvec::SmallVec;

use crate::constraints::bounds::{keep_at_least, keep_at_most};
use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn};
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
const PAIRS: usize = 4096;

/// The most values of one domain the forward rule visits.
const FORWARD_VALUES: usize = 1 << 16;

/// `z = op(x, y)` for a non-linear [`Operation`]: `|x − y| = z` is `Abs` of a difference,
/// products of variables (areas, "the product of this cage is 120"), `div` and `mod` (digits of
/// a number, clock arithmetic), powers. MiniZinc's `int_abs`, `int_times`, `int_div`,
/// `int_mod`, `int_pow`.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to values that violate it.
/// - `Forward`: once all variables but one are fixed, the last keeps the values that satisfy
///   it (`z` is fixed to `op(x, y)`; a domain of more than 65,536 values is left alone).
/// - `Full`: domain consistency when the domains of `x` and `y` have at most 4096 pairs of
///   values (every value left has a support, found by enumerating the pairs); beyond that, the
///   forward rule and bounds of `z` from the bounds of `x` and `y` (interval arithmetic; for
///   `abs`, also `x` within `±max(z)`).
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
            [p] if ctx.domain(self.scope[p]).size() <= FORWARD_VALUES => {
                let var = self.scope[p];
                ctx.retain(var, |v| {
                    values[p] = v;
                    self.check(&values)
                })?;
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

    /// Bounds of `z` from the bounds of `x` and `y` (and of `x` from `z` for `abs`).
    fn bounds(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let hull = |ctx: &PropagationContext<'_>, var: VarId| -> Result<(i64, i64), Conflict> {
            let d = ctx.domain(var);
            Ok((
                i64::from(d.min().ok_or(Conflict)?),
                i64::from(d.max().ok_or(Conflict)?),
            ))
        };
        let z = self.scope[self.scope.len() - 1];
        let (a, b) = hull(ctx, self.scope[0])?;
        let range = match self.operation {
            Operation::Abs => {
                let (_, z_high) = hull(ctx, z)?;
                keep_at_least(ctx, self.scope[0], -z_high)?;
                keep_at_most(ctx, self.scope[0], z_high)?;
                let (a, b) = hull(ctx, self.scope[0])?;
                let low = if a <= 0 && 0 <= b {
                    0
                } else {
                    a.abs().min(b.abs())
                };
                Some((low, a.abs().max(b.abs())))
            }
            Operation::Times => {
                let (c, d) = hull(ctx, self.scope[1])?;
                let corners = [a * c, a * d, b * c, b * d];
                Some((
                    *corners.iter().min().expect("four corners"),
                    *corners.iter().max().expect("four corners"),
                ))
            }
            Operation::Div => {
                let (c, d) = hull(ctx, self.scope[1])?;
                // Truncated division is monotone in x for a fixed y, and extreme in y at the
                // ends of its range or next to zero.
                let divisors = [c, d, -1, 1]
                    .into_iter()
                    .filter(|&y| y != 0 && c <= y && y <= d);
                let quotients: SmallVec<[i64; 8]> = divisors.flat_map(|y| [a / y, b / y]).collect();
                let low = quotients.iter().min().ok_or(Conflict)?;
                let high = quotients.iter().max().ok_or(Conflict)?;
                Some((*low, *high))
            }
            Operation::Mod => {
                let (c, d) = hull(ctx, self.scope[1])?;
                let divisor = c.abs().max(d.abs()) - 1;
                if divisor < 0 {
                    return Err(Conflict);
                }
                let low = if a >= 0 { 0 } else { -(divisor.min(-a)) };
                let high = if b <= 0 { 0 } else { divisor.min(b) };
                Some((low, high))
            }
            Operation::Pow => None,
        };
        if let Some((low, high)) = range {
            keep_at_least(ctx, z, low)?;
            keep_at_most(ctx, z, high)?;
        }
        Ok(())
    }
}

impl Constraint for Arithmetic {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        self.apply(values) == Some(values[values.len() - 1])
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        match ctx.level() {
            PropagationLevel::None => ctx.check_if_fixed(self),
            PropagationLevel::Forward => self.forward(ctx),
            PropagationLevel::Full => {
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
