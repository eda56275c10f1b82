//! Pair tests: whether two assignments alone already violate a constraint, the rest of its
//! scope left free. Textbook forward checking filters with them, and the least-constraining
//! value order counts with them.

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

/// Whether `x = v` and `y = w` alone violate `constraint`: its stateless propagation at
/// `Forward` fails on domains where they are fixed and the rest of its scope is `free`.
pub(crate) fn pair_clashes(
    scratch: &mut [Domain],
    constraint: &dyn Constraint,
    free: &Domain,
    (x, v): (VarId, i32),
    (y, w): (VarId, i32),
) -> bool {
    for z in constraint.scope() {
        scratch[z.index()].clone_from(free);
    }
    let one = |value: i32| Domain::from_values([value]).expect("one value");
    scratch[x.index()] = one(v);
    scratch[y.index()] = one(w);
    let mut trail = Trail::default();
    let mut ctx = PropagationContext::new(scratch, &mut trail, None, PropagationLevel::Forward);
    constraint.propagate(&mut ctx).is_err()
}
