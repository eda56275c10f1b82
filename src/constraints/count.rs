//! Counting constraints: how many variables take a value, or a value of a set.

use smallvec::SmallVec;

use crate::constraints::bounds::{keep_at_least, keep_at_most};
use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn, check_then_any_change};
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// `count = #{ i : vars[i] ∈ values }`: how many of the variables take one of the values
/// ("exactly k mines around this cell", "the digit i occurs `s[i]` times"; MiniZinc's `among`,
/// and `count` for one value, [`Among::value`]).
///
/// `count` is a variable; it may also be one of `vars` (a magic sequence's `s[i]` counts the
/// occurrences of `i` among the `s` themselves). For a constant count, give it a fixed
/// variable; for several values with one count each, [`GlobalCardinality`](crate::GlobalCardinality).
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed and the count is wrong.
/// - `Forward` and `Full`: domain consistency (when `count` is not also counted): with `sure`
///   the variables whose domains lie within `values` and `possible` those that meet them,
///   `count` keeps its values in `sure..=possible`; if it cannot exceed `sure`, the undecided
///   variables lose `values`; if it cannot stay below `possible`, they keep only `values`.
///   O(Σ min(|Dᵢ|, |values|) · log |values|) per call, without visiting a wide domain.
///
/// # Examples
///
/// ```
/// use cspkit::{Among, Model};
///
/// // Three dice, exactly two of them even.
/// let mut model = Model::new();
/// let dice = model.new_vars(3, 1..=6)?;
/// let two = model.new_var(2..=2)?;
/// model.post(Among::new(&dice, &[2, 4, 6], two))?;
/// assert_eq!(model.solver().count().solutions, 3 * 3 * 3 * 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Among {
    /// The counted variables, then the count.
    scope: Vec<VarId>,
    /// Sorted, without repeats.
    values: Vec<i32>,
}

impl Among {
    /// `count = #{ i : vars[i] ∈ values }` (MiniZinc's `among`).
    pub fn new(vars: &[VarId], values: &[i32], count: VarId) -> Among {
        let mut values = values.to_vec();
        values.sort_unstable();
        values.dedup();
        let mut scope = vars.to_vec();
        scope.push(count);
        Among { scope, values }
    }

    /// `count = #{ i : vars[i] = value }` (MiniZinc's `count`).
    pub fn value(vars: &[VarId], value: i32, count: VarId) -> Among {
        Among::new(vars, &[value], count)
    }

    /// The counted values, ascending.
    pub fn values(&self) -> &[i32] {
        &self.values
    }
}

/// How a domain stands to a set of values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Standing {
    /// Every value of the domain is in the set.
    Inside,
    /// No value of the domain is in the set.
    Outside,
    /// Some are, some are not.
    Undecided,
}

/// Where `domain` stands to the ascending set `values`, visiting at most
/// `min(|domain|, |values|)` values of either.
pub(crate) fn standing(domain: &Domain, values: &[i32]) -> Standing {
    let meets = if domain.size() <= values.len() {
        domain.iter().any(|v| values.binary_search(&v).is_ok())
    } else {
        values.iter().any(|&v| domain.contains(v))
    };
    if !meets {
        Standing::Outside
    } else if domain.size() <= values.len()
        && domain.iter().all(|v| values.binary_search(&v).is_ok())
    {
        Standing::Inside
    } else {
        Standing::Undecided
    }
}

/// Prunes `var` to the values in the ascending set `values` (`inside`) or out of it.
pub(crate) fn keep_in_or_out(
    ctx: &mut PropagationContext<'_>,
    var: VarId,
    values: &[i32],
    inside: bool,
) -> Result<bool, Conflict> {
    if inside {
        ctx.retain_sorted(var, values)
    } else {
        let mut changed = false;
        for &v in values {
            changed |= ctx.remove(var, v)?;
        }
        Ok(changed)
    }
}

impl Constraint for Among {
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
        let (vars, count) = values.split_at(values.len() - 1);
        let n = vars
            .iter()
            .filter(|v| self.values.binary_search(v).is_ok())
            .count();
        i64::try_from(n).is_ok_and(|n| n == i64::from(count[0]))
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let (vars, count) = self.scope.split_at(self.scope.len() - 1);
        let count = count[0];
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        let (mut sure, mut possible) = (0i64, 0i64);
        let mut undecided: SmallVec<[VarId; 32]> = SmallVec::new();
        for &var in vars {
            match standing(ctx.domain(var), &self.values) {
                Standing::Inside => {
                    sure += 1;
                    possible += 1;
                }
                Standing::Undecided => {
                    possible += 1;
                    undecided.push(var);
                }
                Standing::Outside => {}
            }
        }
        keep_at_least(ctx, count, sure)?;
        keep_at_most(ctx, count, possible)?;
        if undecided.is_empty() {
            return Ok(());
        }
        let domain = ctx.domain(count);
        // Some count above `sure` is possible, and some below `possible`.
        let more = domain.max().is_some_and(|max| i64::from(max) > sure);
        let fewer = domain.min().is_some_and(|min| i64::from(min) < possible);
        if !more || !fewer {
            // No more than `sure`: the undecided take none of the values; no fewer than
            // `possible`: they all take one.
            for &var in &undecided {
                keep_in_or_out(ctx, var, &self.values, more)?;
            }
        }
        Ok(())
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        check_then_any_change(level)
    }
}
