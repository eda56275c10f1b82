//! Pair tests: which values of the other variables of a constraint clash with one assignment
//! alone, the rest of its scope left free. Textbook forward checking filters with them, and the
//! least-constraining value order counts with them.

use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::trail::Trail;
use crate::kernel::{Constraint, PropagationContext, PropagationLevel};
use crate::model::Model;

/// A domain for the variables of `scope` that a pair test leaves free: every initial value of
/// the scope and as many again on each side, so that an all-different constraint never runs
/// out of values for them.
pub(crate) fn free_domain(model: &Model, scope: &[VarId]) -> Domain {
    let initial = model.initial_domains();
    let low = scope.iter().filter_map(|v| initial[v.index()].min()).min();
    let high = scope.iter().filter_map(|v| initial[v.index()].max()).max();
    let room = scope.len() as i64;
    let (low, high) = match (low, high) {
        (Some(low), Some(high)) => (i64::from(low) - room, i64::from(high) + room),
        _ => (0, 0),
    };
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    Domain::range(clamp(low), clamp(high)).unwrap_or_else(|_| initial[scope[0].index()].clone())
}

/// The pair tests of `x = v` against every other variable of `constraint`'s scope at once:
/// the constraint's stateless propagation at `Forward` on domains where only `x` is fixed and
/// the rest of the scope is `free`. Afterwards `scratch[y]` holds, for each other variable `y`
/// of the scope, the values that do not clash with `x = v` (a value `w` is gone exactly when
/// `x = v, y = w` alone violates the constraint, for constraints whose forward checking
/// removes the values a fixed variable rules out, as every built-in one does); `false` if
/// `x = v` alone already violates it.
pub(crate) fn without_clashes(
    scratch: &mut [Domain],
    constraint: &dyn Constraint,
    free: &Domain,
    (x, v): (VarId, i32),
) -> bool {
    for z in constraint.scope() {
        scratch[z.index()].clone_from(free);
    }
    scratch[x.index()] = Domain::from_values([v]).expect("one value");
    let mut trail = Trail::default();
    let mut ctx = PropagationContext::new(scratch, &mut trail, None, PropagationLevel::Forward);
    constraint.propagate(&mut ctx).is_ok()
}
