//! Binary relations: `x op y + c`.

use crate::constraints::bounds::{keep_at_least, keep_at_most};
use crate::constraints::{Comparison, Conflict, Constraint, PropagationContext, WakeOn};
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// `x op y + offset`, for one of the six [`Comparison`]s: `x < y`, `x = y + 1`, `x ≥ y - 2`…
///
/// For `≠` it is [`NotEqual`](crate::NotEqual) under another name. Arithmetic is done in `i64`,
/// so no offset overflows.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when both variables are fixed to values that violate it; prunes nothing.
/// - `Forward`: once one variable is fixed, the other keeps only the values compatible with it.
/// - `Full`: domain consistency (arc consistency): every value left in either domain has a
///   compatible value in the other. `≤`, `<`, `≥`, `>` need only bounds (one pass over two
///   bounds); `=` keeps the values of `x` whose counterpart `x − offset` is in the domain of
///   `y`, and the reverse (O(|D(x)| + |D(y)|)); `≠` prunes once a variable is fixed, as at
///   `Forward`, which is already domain consistent.
///
/// `None`, `Forward` and `≠` wake only when a variable is fixed; the other comparisons at `Full`
/// wake on any change. Every level reaches its own fixpoint in one call.
///
/// # Examples
///
/// ```
/// use cspkit::{Comparison, Model, Relation};
///
/// // x < y with x, y in 1..=3: (1, 2), (1, 3), (2, 3).
/// let mut model = Model::new();
/// let x = model.new_var(1..=3)?;
/// let y = model.new_var(1..=3)?;
/// model.post(Relation::new(x, Comparison::Lt, y))?;
/// assert_eq!(model.solver().count().solutions, 3);
///
/// // Adding x ≥ y - 1 rules out (1, 3); adding x ≥ y + 2 leaves no solution.
/// model.post(Relation::with_offset(x, Comparison::Ge, y, -1))?;
/// assert_eq!(model.solver().count().solutions, 2);
/// model.post(Relation::with_offset(x, Comparison::Ge, y, 2))?;
/// assert!(!model.solve().is_solved());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Relation {
    scope: [VarId; 2],
    comparison: Comparison,
    offset: i32,
}

impl Relation {
    /// `x op y`.
    pub fn new(x: VarId, comparison: Comparison, y: VarId) -> Relation {
        Relation::with_offset(x, comparison, y, 0)
    }

    /// `x op y + offset`.
    pub fn with_offset(x: VarId, comparison: Comparison, y: VarId, offset: i32) -> Relation {
        Relation {
            scope: [x, y],
            comparison,
            offset,
        }
    }

    /// The comparison.
    pub fn comparison(&self) -> Comparison {
        self.comparison
    }

    /// The constant added to `y`.
    pub fn offset(&self) -> i32 {
        self.offset
    }

    /// The reason of an inference of an inequality, by bounds (see [`Constraint::explain`]).
    fn bound_reason(
        &self,
        inference: crate::kernel::Inference,
        ctx: &crate::kernel::ExplainContext<'_>,
    ) -> Option<Vec<crate::kernel::Literal>> {
        use crate::kernel::{Inference, Literal};
        let [x, y] = self.scope;
        if x == y {
            return None;
        }
        let c = i64::from(self.offset);
        // As `low ≤ high + k`.
        let (low, high, k) = match self.comparison {
            Comparison::Le => (x, y, c),
            Comparison::Lt => (x, y, c - 1),
            Comparison::Ge => (y, x, -c),
            Comparison::Gt => (y, x, -c - 1),
            Comparison::Eq | Comparison::Ne => return None,
        };
        // `var ≤ bound` (or `≥`), unless the model's domain already says it.
        let at_most = |var: VarId, bound: i64| -> Option<Vec<Literal>> {
            let bound = i32::try_from(bound).ok()?;
            let initial = ctx.initial(var).max()?;
            Some(if initial <= bound {
                Vec::new()
            } else {
                vec![Literal::Le(var, bound)]
            })
        };
        let at_least = |var: VarId, bound: i64| -> Option<Vec<Literal>> {
            let bound = i32::try_from(bound).ok()?;
            let initial = ctx.initial(var).min()?;
            Some(if initial >= bound {
                Vec::new()
            } else {
                vec![Literal::Ge(var, bound)]
            })
        };
        let high_max = i64::from(ctx.domain(high).max()?);
        let low_min = i64::from(ctx.domain(low).min()?);
        match inference {
            Inference::Removed { var, value } if var == low => {
                // `low = value` needs `high ≥ value − k`.
                let v = i64::from(value);
                (v > high_max + k).then(|| at_most(high, v - k - 1))?
            }
            Inference::Removed { var, value } if var == high => {
                // `high = value` needs `low ≤ value + k`.
                let v = i64::from(value);
                (v + k < low_min).then(|| at_least(low, v + k + 1))?
            }
            Inference::Failed if low_min > high_max + k => {
                let mut reason = at_least(low, low_min)?;
                reason.extend(at_most(high, low_min - k - 1)?);
                Some(reason)
            }
            _ => None,
        }
    }

    /// Prunes both variables to the values with a compatible value in the other domain.
    fn revise(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let [x, y] = self.scope;
        let c = i64::from(self.offset);
        let bounds = |ctx: &PropagationContext<'_>, var| {
            let d = ctx.domain(var);
            Ok::<_, Conflict>((
                i64::from(d.min().ok_or(Conflict)?),
                i64::from(d.max().ok_or(Conflict)?),
            ))
        };
        match self.comparison {
            Comparison::Le | Comparison::Lt => {
                // x ≤ y + d
                let d = if self.comparison == Comparison::Lt {
                    c - 1
                } else {
                    c
                };
                let (_, max_y) = bounds(ctx, y)?;
                keep_at_most(ctx, x, max_y + d)?;
                let (min_x, _) = bounds(ctx, x)?;
                keep_at_least(ctx, y, min_x - d)?;
            }
            Comparison::Ge | Comparison::Gt => {
                // x ≥ y + e
                let e = if self.comparison == Comparison::Gt {
                    c + 1
                } else {
                    c
                };
                let (min_y, _) = bounds(ctx, y)?;
                keep_at_least(ctx, x, min_y + e)?;
                let (_, max_x) = bounds(ctx, x)?;
                keep_at_most(ctx, y, max_x - e)?;
            }
            Comparison::Eq => {
                // Bounds first, so that a wide domain facing a narrow one is narrowed before
                // its values are visited.
                let (min_y, max_y) = bounds(ctx, y)?;
                keep_at_least(ctx, x, min_y + c)?;
                keep_at_most(ctx, x, max_y + c)?;
                let (min_x, max_x) = bounds(ctx, x)?;
                keep_at_least(ctx, y, min_x - c)?;
                keep_at_most(ctx, y, max_x - c)?;
                let domain_y = ctx.domain(y).clone();
                ctx.retain(x, |v| {
                    i32::try_from(i64::from(v) - c).is_ok_and(|w| domain_y.contains(w))
                })?;
                let domain_x = ctx.domain(x).clone();
                ctx.retain(y, |w| {
                    i32::try_from(i64::from(w) + c).is_ok_and(|v| domain_x.contains(v))
                })?;
            }
            Comparison::Ne => {
                if let Some(v) = ctx.value(x)
                    && let Ok(w) = i32::try_from(i64::from(v) - c)
                {
                    ctx.remove(y, w)?;
                }
                if let Some(w) = ctx.value(y)
                    && let Ok(v) = i32::try_from(i64::from(w) + c)
                {
                    ctx.remove(x, v)?;
                }
            }
        }
        Ok(())
    }
}

impl Constraint for Relation {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// For `≤`, `<`, `≥`, `>`: one bound of the other variable, as weak as still does
    /// (`x ≠ 5` because `y ≤ 4`, for `x ≤ y`); a failure: a bound of each. For `=` and `≠`, the
    /// scope's domains cut down by the constraint's own propagation
    /// ([`minimized_reason`](crate::kernel::minimized_reason)).
    fn explain(
        &self,
        inference: crate::kernel::Inference,
        ctx: &crate::kernel::ExplainContext<'_>,
    ) -> Option<Vec<crate::kernel::Literal>> {
        self.bound_reason(inference, ctx)
            .or_else(|| crate::kernel::minimized_reason(self, inference, ctx))
    }

    fn check(&self, values: &[i32]) -> bool {
        self.comparison.holds(
            i64::from(values[0]),
            i64::from(values[1]) + i64::from(self.offset),
        )
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let [x, y] = self.scope;
        match ctx.level() {
            PropagationLevel::None => match (ctx.value(x), ctx.value(y)) {
                (Some(vx), Some(vy)) if !self.check(&[vx, vy]) => Err(Conflict),
                _ => Ok(()),
            },
            PropagationLevel::Forward if !ctx.is_fixed(x) && !ctx.is_fixed(y) => Ok(()),
            _ => self.revise(ctx),
        }
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        if level == PropagationLevel::Full && self.comparison != Comparison::Ne {
            WakeOn::AnyChange
        } else {
            WakeOn::Fixed
        }
    }

    fn is_idempotent(&self, _level: PropagationLevel) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Model;
    use crate::constraints::solutions_at;

    #[test]
    fn every_comparison_and_level_agrees_with_enumeration() {
        for op in Comparison::ALL {
            for offset in [-2, 0, 1] {
                let mut m = Model::new();
                let x = m.new_var([-1, 0, 2, 3]).unwrap();
                let y = m.new_var(0..=3).unwrap();
                m.post(Relation::with_offset(x, op, y, offset)).unwrap();
                let expected: Vec<Vec<i32>> = [-1, 0, 2, 3]
                    .into_iter()
                    .flat_map(|a| (0..=3).map(move |b| vec![a, b]))
                    .filter(|v| op.holds(v[0].into(), i64::from(v[1] + offset)))
                    .collect();
                for level in [
                    PropagationLevel::None,
                    PropagationLevel::Forward,
                    PropagationLevel::Full,
                ] {
                    let found = solutions_at(&m, level);
                    assert_eq!(found, expected, "x {op} y + {offset} at {level:?}");
                }
            }
        }
    }

    #[test]
    fn offsets_at_the_edge_of_the_value_range_do_not_overflow() {
        let mut m = Model::new();
        let x = m.new_var(i32::MAX - 2..=i32::MAX).unwrap();
        let y = m.new_var(-1..=1).unwrap();
        // x > y + MAX holds only for y = -1, x = MAX.
        m.post(Relation::with_offset(x, Comparison::Gt, y, i32::MAX))
            .unwrap();
        // y ≤ x + MIN: y ≤ -1 for x = MAX... and y ≤ -3 below it.
        m.post(Relation::with_offset(y, Comparison::Le, x, i32::MIN))
            .unwrap();
        for level in [PropagationLevel::Forward, PropagationLevel::Full] {
            let found = solutions_at(&m, level);
            assert_eq!(found, [[i32::MAX, -1]]);
        }
    }
}
