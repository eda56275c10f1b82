//! Membership in a set of values, plain or reified.

use smallvec::SmallVec;

use crate::constraints::count::{Standing, keep_in_or_out, standing};
use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn, check_then_any_change};
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// `x ∈ values` ([`new`](Member::new)), `b ⇔ x ∈ values` ([`reified`](Member::reified)) or
/// `b ⇒ x ∈ values` ([`implied`](Member::implied)), for a 0/1 variable `b`: "this cell is a
/// vowel", "if the light is on, the switch is in one of these positions"; MiniZinc's `set_in`,
/// `set_in_reif`, `set_in_imp` on a constant set.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to values that violate it.
/// - `Forward` and `Full`: domain consistency: `b` is fixed as soon as the domain of `x` lies
///   inside the set (true; not for `implied`) or outside it (false); once `b` is known, `x`
///   keeps the values of the set (true) or loses them (false; not for `implied`). `b` keeps
///   only 0 and 1. O(min(|Dx|, |values|) · log |values|) per call.
///
/// # Examples
///
/// ```
/// use cspkit::{Member, Model};
///
/// let mut model = Model::new();
/// let x = model.new_var(1..=6)?;
/// let even = model.new_bool()?;
/// model.post(Member::reified(x, &[2, 4, 6], even.var()))?;
/// model.fix(even.var(), 0)?;
/// let odd: Vec<i32> = model.solver().solutions().map(|s| s[x]).collect();
/// assert_eq!(odd, [1, 3, 5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Member {
    /// `x`, then `b` when reified.
    scope: SmallVec<[VarId; 2]>,
    /// Ascending, without repeats.
    values: Vec<i32>,
    /// Only `b ⇒ condition`.
    implied: bool,
    /// The value of `b` that stands for true: 1, or 0 for a negated boolean.
    truth: i32,
    /// The condition is `x ∈ values` (true) or `x ∉ values` (false).
    inside: bool,
}

impl Member {
    /// `x ∈ values`.
    pub fn new(x: VarId, values: &[i32]) -> Member {
        Member::build(&[x], values, false)
    }

    /// `b ⇔ x ∈ values`.
    pub fn reified(x: VarId, values: &[i32], b: VarId) -> Member {
        Member::build(&[x, b], values, false)
    }

    /// `b ⇒ x ∈ values`.
    pub fn implied(x: VarId, values: &[i32], b: VarId) -> Member {
        Member::build(&[x, b], values, true)
    }

    /// `b ⇔ x ∈ values` (`inside`) or `b ⇔ x ∉ values`, `b ⇒ …` if `implied`, where `b` is
    /// true when its variable takes `truth` (1, or 0 for a negated boolean).
    pub(crate) fn with_polarity(
        x: VarId,
        values: &[i32],
        (b, truth): (VarId, i32),
        inside: bool,
        implied: bool,
    ) -> Member {
        Member {
            truth,
            inside,
            ..Member::build(&[x, b], values, implied)
        }
    }

    fn build(scope: &[VarId], values: &[i32], implied: bool) -> Member {
        let mut values = values.to_vec();
        values.sort_unstable();
        values.dedup();
        Member {
            scope: SmallVec::from_slice(scope),
            values,
            implied,
            truth: 1,
            inside: true,
        }
    }

    /// The set, ascending.
    pub fn values(&self) -> &[i32] {
        &self.values
    }
}

impl Constraint for Member {
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
        let holds = self.values.binary_search(&values[0]).is_ok() == self.inside;
        match values.get(1) {
            None => holds,
            Some(&b) if b != 0 && b != 1 => false,
            Some(&b) if self.implied => b != self.truth || holds,
            Some(&b) => (b == self.truth) == holds,
        }
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        let x = self.scope[0];
        let Some(&b) = self.scope.get(1) else {
            keep_in_or_out(ctx, x, &self.values, self.inside)?;
            return Ok(());
        };
        ctx.remove_below(b, 0)?;
        ctx.remove_above(b, 1)?;
        match ctx.value(b) {
            Some(value) if value == self.truth => {
                keep_in_or_out(ctx, x, &self.values, self.inside)?;
            }
            Some(_) if !self.implied => {
                keep_in_or_out(ctx, x, &self.values, !self.inside)?;
            }
            Some(_) => {}
            None => {
                let holds = match standing(ctx.domain(x), &self.values) {
                    Standing::Inside => Some(self.inside),
                    Standing::Outside => Some(!self.inside),
                    Standing::Undecided => None,
                };
                match holds {
                    Some(true) if !self.implied => {
                        ctx.fix(b, self.truth)?;
                    }
                    Some(false) => {
                        ctx.fix(b, 1 - self.truth)?;
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        check_then_any_change(level)
    }

    fn is_idempotent(&self, level: PropagationLevel) -> bool {
        level != PropagationLevel::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{ConformanceTest, Consistency};

    #[test]
    fn every_polarity_and_side_is_domain_consistent() {
        // b ⇔ / ⇒ x ∈ values or x ∉ values, with b read as true on 1 or on 0.
        let build = |vars: &[VarId], random: &mut crate::conformance::SplitMix64| {
            let values: Vec<i32> = (0..random.below(4))
                .map(|_| random.value_in(-2..=3))
                .collect();
            let truth = i32::from(random.chance(1, 2));
            Member::with_polarity(
                vars[0],
                &values,
                (vars[1], truth),
                random.chance(1, 2),
                random.chance(1, 2),
            )
        };
        for repeated in [false, true] {
            let mut test = ConformanceTest::with_parameters(2, -2..=3, build).cases(600);
            test = if repeated {
                test.repeated_variables()
            } else {
                test.require(PropagationLevel::Forward, Consistency::Domain)
                    .require(PropagationLevel::Full, Consistency::Domain)
            };
            test.assert_conforms();
        }
    }

    #[test]
    fn a_negated_boolean_outside_the_set_is_the_plain_membership() {
        // ¬b ⇔ x ∉ {1, 2} accepts exactly what b ⇔ x ∈ {1, 2} accepts.
        let plain = Member::reified(
            VarId { model: 0, index: 0 },
            &[1, 2],
            VarId { model: 0, index: 1 },
        );
        let turned = Member::with_polarity(
            VarId { model: 0, index: 0 },
            &[1, 2],
            (VarId { model: 0, index: 1 }, 0),
            false,
            false,
        );
        for x in -1..=3 {
            for b in -1..=2 {
                assert_eq!(
                    plain.check(&[x, b]),
                    turned.check(&[x, b]),
                    "x = {x}, b = {b}"
                );
            }
        }
    }
}
