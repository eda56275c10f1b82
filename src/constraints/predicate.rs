//! Predicate: any rule written as a closure over the values of the scope.

use std::fmt;
use std::sync::Arc;

use smallvec::SmallVec;

use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn};
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// The rule behind a [`Predicate`]: called with one value per variable of the scope.
type Rule = dyn Fn(&[i32]) -> bool + Send + Sync;

/// A rule given as a closure `Fn(&[i32]) -> bool` over the values of the scope (in the order of
/// the scope), for rules that no built-in constraint expresses and that are not worth a
/// constraint type of their own.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: once every variable of the scope is fixed, calls the closure and fails if it
///   returns false.
/// - `Forward` and `Full` (the same here): as `None`, plus forward checking: when exactly one
///   variable is unfixed, calls the closure once per value of that variable and prunes the
///   values it rejects. The constraint cannot look further ahead, because the closure is a
///   black box.
///
/// It wakes only when a variable is fixed, and is idempotent. Cost: one closure call when the
/// scope becomes fixed; with forward checking, one call per value of the last unfixed
/// variable, each time another variable of the scope gets fixed (so a variable with a domain
/// of a million values costs a million calls at each such step: prefer a real constraint, or
/// [`PropagationLevel::None`], for wide domains). The values are passed in a buffer on the
/// stack for scopes of up to 16 variables.
///
/// The closure must be a pure function of its argument: the solver may call it any number of
/// times, in any order, and assumes the same answer each time.
///
/// # Examples
///
/// ```
/// use cspkit::{Model, Predicate};
///
/// // x + y is a perfect square.
/// let mut model = Model::new();
/// let x = model.new_var(1..=9)?;
/// let y = model.new_var(1..=9)?;
/// model.post(Predicate::new(&[x, y], |v| {
///     let sum = v[0] + v[1];
///     (1..=5).any(|r| r * r == sum)
/// }))?;
/// model.fix(x, 3)?;
/// let solution = model.solve().solution().unwrap();
/// assert_eq!(solution[y], 1); // 3 + 1 = 4
/// assert_eq!(model.solver().count().solutions, 2); // y = 1 or y = 6
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Predicate {
    scope: Vec<VarId>,
    rule: Arc<Rule>,
}

impl Predicate {
    /// The values of `vars` satisfy `rule`; `rule` receives one value per variable, in the order
    /// of `vars`.
    pub fn new(vars: &[VarId], rule: impl Fn(&[i32]) -> bool + Send + Sync + 'static) -> Self {
        Predicate {
            scope: vars.to_vec(),
            rule: Arc::new(rule),
        }
    }
}

impl Constraint for Predicate {
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
        (self.rule)(values)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let mut values: SmallVec<[i32; 16]> = SmallVec::with_capacity(self.scope.len());
        let mut unfixed = None;
        for (i, &var) in self.scope.iter().enumerate() {
            match ctx.value(var) {
                Some(v) => values.push(v),
                None if unfixed.is_none() => {
                    unfixed = Some(i);
                    values.push(0);
                }
                None => return Ok(()), // Two unfixed variables: nothing to do.
            }
        }
        match unfixed {
            None if (self.rule)(&values) => Ok(()),
            None => Err(Conflict),
            Some(_) if ctx.level() == PropagationLevel::None => Ok(()),
            Some(i) => {
                let var = self.scope[i];
                ctx.retain(var, |v| {
                    values[i] = v;
                    (self.rule)(&values)
                })?;
                Ok(())
            }
        }
    }

    fn wake_on(&self, _level: PropagationLevel) -> WakeOn {
        WakeOn::Fixed
    }

    fn is_idempotent(&self, _level: PropagationLevel) -> bool {
        // The values left after forward checking all satisfy the rule with the others fixed.
        true
    }
}

impl fmt::Debug for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Predicate")
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Model;

    fn propagate(
        constraint: &Predicate,
        domains: &[Vec<i32>],
        level: PropagationLevel,
    ) -> Result<Vec<Vec<i32>>, Conflict> {
        crate::constraints::propagate_once(constraint, domains, level)
    }

    #[test]
    fn forward_checking_prunes_the_last_unfixed_variable() {
        let mut model = Model::new();
        let xs = model.new_vars(3, 0..=5).unwrap();
        let sum_is_six = Predicate::new(&xs, |v| v.iter().sum::<i32>() == 6);
        let domains = [vec![1], (0..=5).collect(), vec![2]];
        assert_eq!(
            propagate(&sum_is_six, &domains, PropagationLevel::Forward),
            Ok(vec![vec![1], vec![3], vec![2]])
        );
        assert_eq!(
            propagate(&sum_is_six, &domains, PropagationLevel::None),
            Ok(domains.to_vec())
        );
        // Two unfixed variables: nothing to learn.
        let open = [vec![1], (0..=5).collect(), (0..=5).collect()];
        assert_eq!(
            propagate(&sum_is_six, &open, PropagationLevel::Full),
            Ok(open.to_vec())
        );
        assert_eq!(
            propagate(
                &sum_is_six,
                &[vec![1], vec![1], vec![1]],
                PropagationLevel::None
            ),
            Err(Conflict)
        );
    }
}
