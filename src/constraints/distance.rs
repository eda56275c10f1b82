//! Distance relations: `|x − y| op c`.

use smallvec::SmallVec;

use crate::constraints::bounds::{keep_at_least, keep_at_most};
use crate::constraints::{Comparison, Conflict, Constraint, PropagationContext, WakeOn};
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// `|x − y| op c`, for one of the six [`Comparison`]s: "next to each other" is
/// `|x − y| = 1`, "not adjacent" is `|x − y| > 1`, "at most two apart" is `|x − y| ≤ 2`.
///
/// Arithmetic is done in `i64`, so no distance overflows.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when both variables are fixed to values that violate it; prunes nothing.
/// - `Forward`: once one variable is fixed, the other keeps only the values compatible with it.
/// - `Full`: domain consistency (arc consistency): every value `v` left for `x` has a value `w`
///   of `y` with `|v − w| op c`, and the reverse. Per comparison, for each value of one
///   variable: `=` looks up `v − c` and `v + c` in the other domain; `≥` and `>` compare with
///   the other domain's bounds; `≤` and `<` search the other domain's sorted values for one in
///   `v − c ..= v + c` (O(log |D|)); `≠` checks the at most two values the other domain must
///   not be reduced to. Wakes on any change.
///
/// `None` and `Forward` wake only when a variable is fixed. Every level reaches its own fixpoint
/// in one call.
///
/// # Examples
///
/// ```
/// use cspkit::{Comparison, Distance, Model};
///
/// // Two neighbours among houses 1..=5: 8 ordered pairs.
/// let mut model = Model::new();
/// let x = model.new_var(1..=5)?;
/// let y = model.new_var(1..=5)?;
/// model.post(Distance::new(x, y, Comparison::Eq, 1))?;
/// assert_eq!(model.solver().count().solutions, 8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Distance {
    scope: [VarId; 2],
    comparison: Comparison,
    distance: i32,
}

impl Distance {
    /// `|x − y| op distance`.
    pub fn new(x: VarId, y: VarId, comparison: Comparison, distance: i32) -> Distance {
        Distance {
            scope: [x, y],
            comparison,
            distance,
        }
    }

    /// The comparison.
    pub fn comparison(&self) -> Comparison {
        self.comparison
    }

    /// The constant the distance is compared with.
    pub fn distance(&self) -> i32 {
        self.distance
    }

    /// Keeps the values of `var` that have a compatible value in the domain of `other`.
    fn revise(
        &self,
        ctx: &mut PropagationContext<'_>,
        var: VarId,
        other: VarId,
    ) -> Result<(), Conflict> {
        let c = i64::from(self.distance);
        let domain = ctx.domain(other);
        let (min, max) = (
            i64::from(domain.min().ok_or(Conflict)?),
            i64::from(domain.max().ok_or(Conflict)?),
        );
        match self.comparison {
            Comparison::Eq if c < 0 => return Err(Conflict),
            Comparison::Eq => {
                // Bounds first, so that a wide domain is narrowed before its values are visited.
                keep_at_least(ctx, var, min - c)?;
                keep_at_most(ctx, var, max + c)?;
                let domain = ctx.domain(other).clone();
                let has = |w: i64| i32::try_from(w).is_ok_and(|w| domain.contains(w));
                ctx.retain(var, |v| has(i64::from(v) - c) || has(i64::from(v) + c))?;
            }
            Comparison::Ge | Comparison::Gt => {
                let c = c + i64::from(self.comparison == Comparison::Gt);
                if c > 0 {
                    ctx.retain(var, |v| min <= i64::from(v) - c || max >= i64::from(v) + c)?;
                }
            }
            Comparison::Le | Comparison::Lt => {
                let c = c - i64::from(self.comparison == Comparison::Lt);
                if c < 0 {
                    return Err(Conflict);
                }
                if domain.size() as i64 == max - min + 1 {
                    // An interval: v reaches it exactly when v is within c of its ends.
                    keep_at_least(ctx, var, min - c)?;
                    keep_at_most(ctx, var, max + c)?;
                } else {
                    let sorted: SmallVec<[i64; 64]> = domain.iter().map(i64::from).collect();
                    ctx.retain(var, |v| {
                        let v = i64::from(v);
                        let i = sorted.partition_point(|&w| w < v - c);
                        sorted.get(i).is_some_and(|&w| w <= v + c)
                    })?;
                }
            }
            Comparison::Ne => {
                // v needs a value of `other` outside {v − c, v + c}: a domain of three values
                // or more always has one.
                if domain.size() <= 2 && c >= 0 {
                    let values: SmallVec<[i64; 2]> = domain.iter().map(i64::from).collect();
                    ctx.retain(var, |v| {
                        let v = i64::from(v);
                        values.iter().any(|&w| (v - w).abs() != c)
                    })?;
                }
            }
        }
        Ok(())
    }
}

impl Constraint for Distance {
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
        let gap = (i64::from(values[0]) - i64::from(values[1])).abs();
        self.comparison.holds(gap, i64::from(self.distance))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let [x, y] = self.scope;
        match ctx.level() {
            PropagationLevel::None => match (ctx.value(x), ctx.value(y)) {
                (Some(vx), Some(vy)) if !self.check(&[vx, vy]) => Err(Conflict),
                _ => Ok(()),
            },
            PropagationLevel::Forward if !ctx.is_fixed(x) && !ctx.is_fixed(y) => Ok(()),
            _ => {
                self.revise(ctx, x, y)?;
                self.revise(ctx, y, x)
            }
        }
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        if level == PropagationLevel::Full {
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
            for c in [-1, 0, 1, 2, 4] {
                let mut m = Model::new();
                let x = m.new_var([-2, 0, 1, 4]).unwrap();
                let y = m.new_var([0, 1, 5]).unwrap();
                m.post(Distance::new(x, y, op, c)).unwrap();
                let expected: Vec<Vec<i32>> = [-2, 0, 1, 4]
                    .into_iter()
                    .flat_map(|a| [0, 1, 5].map(move |b| vec![a, b]))
                    .filter(|v: &Vec<i32>| op.holds(i64::from((v[0] - v[1]).abs()), c.into()))
                    .collect();
                for level in [
                    PropagationLevel::None,
                    PropagationLevel::Forward,
                    PropagationLevel::Full,
                ] {
                    let found = solutions_at(&m, level);
                    assert_eq!(found, expected, "|x - y| {op} {c} at {level:?}");
                }
            }
        }
    }
}
