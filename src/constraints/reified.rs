//! Any constraint, reified: a 0/1 variable that is true exactly when it holds, or whose truth
//! forces it.

use smallvec::SmallVec;

use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn, check_then_any_change};
use crate::error::ModelError;
use crate::ids::VarId;
use crate::kernel::{ModelView, PropagationLevel};

/// `b ⇔ c` ([`new`](Reified::new)) or `b ⇒ c` ([`implied`](Reified::implied)) for any
/// constraint `c` and a 0/1 variable `b`: "the clue holds if and only if that switch is on",
/// "if this task runs, these tables are respected". The constraint's own propagation does the
/// work once `b` is true; its negation is known only through `check`, so the reification of
/// `c`'s negation is weak (see below). For linear constraints,
/// [`Model::reify`](crate::Model::reify) builds a stronger form; for membership,
/// [`Member::reified`](crate::Member::reified) is domain consistent.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to values that violate it.
/// - `Forward` and `Full`: `b` keeps only 0 and 1. `b` true: `c` propagates at the same level.
///   `b` false (`new` only): fails when `c`'s scope is fixed to values `c` accepts. `b` open:
///   false when `c`'s propagation alone fails on the current domains (a probe, undone after),
///   and, for `new`, true when `c`'s scope is fixed to values it accepts. The probe costs one
///   run of `c` per call.
///
/// # Examples
///
/// ```
/// use cspkit::{AllDifferent, Model, Reified};
///
/// // b says whether x, y, z are all different.
/// let mut model = Model::new();
/// let xs = model.new_vars(3, 1..=2)?;
/// let b = model.new_bool()?;
/// model.post(Reified::new(AllDifferent::new(&xs), b.var()))?;
/// // Three variables over two values are never all different: b is false in all 8 solutions.
/// assert!(model.solver().solutions().all(|s| s[b.var()] == 0));
/// assert_eq!(model.solver().count().solutions, 8);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Reified<C> {
    constraint: C,
    /// `c`'s scope, then `b`.
    scope: Vec<VarId>,
    implied: bool,
    /// The value of `b` that stands for true: 1, or 0 for a negated boolean.
    truth: i32,
    name: String,
}

impl<C: Constraint> Reified<C> {
    /// `b ⇔ constraint`.
    pub fn new(constraint: C, b: VarId) -> Reified<C> {
        Reified::build(constraint, b, false)
    }

    /// `b ⇒ constraint`.
    pub fn implied(constraint: C, b: VarId) -> Reified<C> {
        Reified::build(constraint, b, true)
    }

    /// `b ⇔ constraint` (`b ⇒ constraint` if `implied`), where `b` is true when its variable
    /// takes `truth` (1, or 0 for a negated boolean).
    pub(crate) fn with_polarity(
        constraint: C,
        (b, truth): (VarId, i32),
        implied: bool,
    ) -> Reified<C> {
        Reified {
            truth,
            ..Reified::build(constraint, b, implied)
        }
    }

    fn build(constraint: C, b: VarId, implied: bool) -> Reified<C> {
        let mut scope = constraint.scope().to_vec();
        scope.push(b);
        let name = format!(
            "{}({})",
            if implied { "Implied" } else { "Reified" },
            constraint.name()
        );
        Reified {
            constraint,
            scope,
            implied,
            truth: 1,
            name,
        }
    }

    /// The reified constraint.
    pub fn constraint(&self) -> &C {
        &self.constraint
    }

    fn b(&self) -> VarId {
        self.scope[self.scope.len() - 1]
    }

    /// The values of `c`'s scope, if all are fixed.
    fn fixed_values(&self, ctx: &PropagationContext<'_>) -> Option<SmallVec<[i32; 16]>> {
        let inner = &self.scope[..self.scope.len() - 1];
        inner.iter().map(|&v| ctx.value(v)).collect()
    }
}

impl<C: Constraint> Constraint for Reified<C> {
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
        let (inner, b) = values.split_at(values.len() - 1);
        match b[0] {
            value if value == self.truth => self.constraint.check(inner),
            0 | 1 => self.implied || !self.constraint.check(inner),
            _ => false,
        }
    }

    fn prepare(&mut self, model: &ModelView<'_>) -> Result<(), ModelError> {
        self.constraint.prepare(model)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        let b = self.b();
        ctx.remove_below(b, 0)?;
        ctx.remove_above(b, 1)?;
        match ctx.value(b) {
            Some(value) if value == self.truth => self.constraint.propagate(ctx),
            Some(_) => {
                if !self.implied
                    && self
                        .fixed_values(ctx)
                        .is_some_and(|values| self.constraint.check(&values))
                {
                    return Err(Conflict);
                }
                Ok(())
            }
            None => {
                if ctx.fails(&self.constraint) {
                    ctx.fix(b, 1 - self.truth)?;
                } else if !self.implied && self.fixed_values(ctx).is_some() {
                    // The probe accepted a fixed scope: the constraint holds.
                    ctx.fix(b, self.truth)?;
                }
                Ok(())
            }
        }
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        check_then_any_change(level)
    }

    fn name(&self) -> &str {
        &self.name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Table;
    use crate::conformance::ConformanceTest;

    #[test]
    fn a_boolean_true_on_0_conforms_at_every_level() {
        let build = |vars: &[VarId], random: &mut crate::conformance::SplitMix64| {
            let (inner, b) = vars.split_at(vars.len() - 1);
            let tuples: Vec<Vec<i32>> = (0..random.below(8))
                .map(|_| inner.iter().map(|_| random.value_in(-1..=2)).collect())
                .collect();
            let table = Table::new(inner, &tuples).expect("tuples of the scope's length");
            Reified::with_polarity(table, (b[0], 0), random.chance(1, 2))
        };
        ConformanceTest::with_parameters(3, -1..=2, build)
            .cases(400)
            .assert_conforms();
        ConformanceTest::with_parameters(3, -1..=2, build)
            .repeated_variables()
            .cases(400)
            .assert_conforms();
    }

    #[test]
    fn a_boolean_true_on_0_holds_when_it_is_0() {
        let x = VarId { model: 0, index: 0 };
        let b = VarId { model: 0, index: 1 };
        let table = Table::new(&[x], [[1]]).expect("one tuple");
        let reified = Reified::with_polarity(table.clone(), (b, 0), false);
        let implied = Reified::with_polarity(table, (b, 0), true);
        // b = 0 means "x = 1".
        assert!(reified.check(&[1, 0]) && !reified.check(&[2, 0]));
        assert!(reified.check(&[2, 1]) && !reified.check(&[1, 1]));
        assert!(implied.check(&[2, 1]) && implied.check(&[1, 1]) && !implied.check(&[2, 0]));
        assert!(!reified.check(&[1, 2]));
    }
}
