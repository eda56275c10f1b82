//! `b ⇔ x = y + c`: the reified equality of two variables, domain consistent.

use smallvec::SmallVec;

use crate::constraints::words::{keep_image, meets_shifted};
use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn};
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// The most values a domain may have for the equality to be enforced value by value; wider
/// domains get their bounds only.
const VALUES: usize = 4096;

/// `b ⇔ x = y + c`, with `b` a 0/1 variable: MiniZinc's `int_eq_reif` and `int_ne_reif` on two
/// variables, the "these two cells hold the same value" of many puzzles.
///
/// Propagation at `Forward` and `Full` (domain consistency, with bitset domains or domains of
/// up to 4096 values, word by word on bitsets; bounds beyond):
///
/// - `b` true: `x` keeps the values of `y + c` and `y` those of `x − c`;
/// - `b` false: once one of `x`, `y` is fixed, the other loses the value that would make them
///   equal;
/// - `b` open: false when no value of `x` is in `y + c`, true when both are fixed and equal.
///
/// At `None` it checks once the scope is fixed. [`Model::reify_into`](crate::Model::reify_into)
/// posts it for `x = y + c` and `x ≠ y + c`.
///
/// # Examples
///
/// ```
/// use cspkit::{Model, ReifiedEquality};
///
/// let mut model = Model::new();
/// let x = model.new_var(1..=3)?;
/// let y = model.new_var(1..=3)?;
/// let b = model.new_var(0..=1)?;
/// model.post(ReifiedEquality::new(x, y, 0, b))?;
/// model.fix(b, 0)?;
/// model.fix(x, 2)?;
/// // x ≠ y: y keeps 1 and 3.
/// assert_eq!(model.solver().count().solutions, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ReifiedEquality {
    /// `x`, `y`, `b`.
    scope: [VarId; 3],
    offset: i64,
    /// The value of `b` that means "equal" (0 for a negated boolean).
    truth: i32,
}

impl ReifiedEquality {
    /// `b ⇔ x = y + offset`.
    pub fn new(x: VarId, y: VarId, offset: i32, b: VarId) -> ReifiedEquality {
        ReifiedEquality::with_truth(x, y, offset, b, 1)
    }

    /// `(b = truth) ⇔ x = y + offset`, for a boolean seen negated (`truth` 0).
    pub(crate) fn with_truth(
        x: VarId,
        y: VarId,
        offset: i32,
        b: VarId,
        truth: i32,
    ) -> ReifiedEquality {
        ReifiedEquality {
            scope: [x, y, b],
            offset: i64::from(offset),
            truth,
        }
    }

    /// Whether `x` and `y + offset` share no value.
    fn disjoint(&self, x: &Domain, y: &Domain) -> bool {
        let [Some(x_low), Some(x_high), Some(y_low), Some(y_high)] =
            [x.min(), x.max(), y.min(), y.max()]
        else {
            return true;
        };
        let (y_low, y_high) = (
            i64::from(y_low) + self.offset,
            i64::from(y_high) + self.offset,
        );
        if i64::from(x_high) < y_low || y_high < i64::from(x_low) {
            return true;
        }
        if let Some(v) = y.value() {
            return !contains(x, i64::from(v) + self.offset);
        }
        if let Some(v) = x.value() {
            return !contains(y, i64::from(v) - self.offset);
        }
        if x.is_bitset() && y.is_bitset() {
            return !meets_shifted(x, y, self.offset);
        }
        if x.size() > VALUES || y.size() > VALUES {
            return false;
        }
        !x.iter().any(|v| contains(y, i64::from(v) - self.offset))
    }
}

/// Whether `domain` holds `value` (an `i64` that may lie outside the `i32` range).
fn contains(domain: &Domain, value: i64) -> bool {
    i32::try_from(value).is_ok_and(|v| domain.contains(v))
}

impl Constraint for ReifiedEquality {
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
        let equal = i64::from(values[0]) == i64::from(values[1]) + self.offset;
        (values[2] == 0 || values[2] == 1) && (values[2] == self.truth) == equal
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        let [x, y, b] = self.scope;
        ctx.remove_below(b, 0)?;
        ctx.remove_above(b, 1)?;
        let falsity = 1 - self.truth;
        if !ctx.is_fixed(b) {
            if self.disjoint(ctx.domain(x), ctx.domain(y)) {
                ctx.fix(b, falsity)?;
            } else if let (Some(vx), Some(vy)) = (ctx.value(x), ctx.value(y)) {
                let equal = i64::from(vx) == i64::from(vy) + self.offset;
                ctx.fix(b, if equal { self.truth } else { falsity })?;
            }
        }
        match ctx.value(b) {
            Some(v) if v == self.truth => {
                // x = y + offset: the bounds, then the values of small domains.
                for _ in 0..2 {
                    let (y_low, y_high) = bounds(ctx.domain(y))?;
                    keep_at_least(ctx, x, y_low + self.offset)?;
                    keep_at_most(ctx, x, y_high + self.offset)?;
                    let (x_low, x_high) = bounds(ctx.domain(x))?;
                    keep_at_least(ctx, y, x_low - self.offset)?;
                    keep_at_most(ctx, y, x_high - self.offset)?;
                }
                if ctx.domain(x).is_bitset() && ctx.domain(y).is_bitset() {
                    // A word at a time: x keeps y shifted, then y keeps x shifted back.
                    keep_image(ctx, x, y, self.offset, false)?;
                    keep_image(ctx, y, x, -self.offset, false)?;
                } else if ctx.domain(x).size() <= VALUES && ctx.domain(y).size() <= VALUES {
                    let shift = |var: VarId, by: i64, ctx: &PropagationContext<'_>| {
                        let values: SmallVec<[i64; 64]> =
                            ctx.domain(var).iter().map(|v| i64::from(v) + by).collect();
                        values
                    };
                    let held = shift(y, self.offset, ctx);
                    ctx.retain(x, |v| held.binary_search(&i64::from(v)).is_ok())?;
                    let held = shift(x, -self.offset, ctx);
                    ctx.retain(y, |v| held.binary_search(&i64::from(v)).is_ok())?;
                }
            }
            Some(_) => {
                // x ≠ y + offset, once one side is fixed.
                if let Some(vx) = ctx.value(x)
                    && let Ok(v) = i32::try_from(i64::from(vx) - self.offset)
                {
                    ctx.remove(y, v)?;
                }
                if let Some(vy) = ctx.value(y)
                    && let Ok(v) = i32::try_from(i64::from(vy) + self.offset)
                {
                    ctx.remove(x, v)?;
                }
            }
            None => {}
        }
        Ok(())
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::None => WakeOn::Fixed,
            _ => WakeOn::AnyChange,
        }
    }
}

fn bounds(domain: &Domain) -> Result<(i64, i64), Conflict> {
    match (domain.min(), domain.max()) {
        (Some(low), Some(high)) => Ok((i64::from(low), i64::from(high))),
        _ => Err(Conflict),
    }
}

fn keep_at_least(ctx: &mut PropagationContext<'_>, var: VarId, bound: i64) -> Result<(), Conflict> {
    crate::constraints::bounds::keep_at_least(ctx, var, bound).map(drop)
}

fn keep_at_most(ctx: &mut PropagationContext<'_>, var: VarId, bound: i64) -> Result<(), Conflict> {
    crate::constraints::bounds::keep_at_most(ctx, var, bound).map(drop)
}
