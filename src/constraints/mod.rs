//! Constraints: the [`Constraint`] trait, the [`PropagationContext`] it prunes through, and the
//! built-in constraints.
//!
//! A constraint is a rule over a *scope* (a set of variables). It has two jobs:
//!
//! - [`check`](Constraint::check) a full assignment of its scope: the rule itself, the ground
//!   truth every solution is held to;
//! - [`propagate`](Constraint::propagate): given the current domains, *prune* values that cannot
//!   belong to any solution of the rule, and report a [`Conflict`] when none is left.
//!
//! # The contract of `propagate`
//!
//! 1. **Sound**: never remove a value that belongs to some solution of this constraint under the
//!    current domains. (Removing too little is always allowed; it only costs search.)
//! 2. **Complete on fixed scopes**: when every variable of the scope is fixed and the values
//!    violate the rule, return `Err(Conflict)`. This is what makes the search correct even at
//!    [`PropagationLevel::None`](crate::PropagationLevel::None): the engine never checks solutions itself (except in debug
//!    builds, as a safety net).
//! 3. **Local**: read and prune only the variables of the scope.
//! 4. **Stateless**: `propagate` takes `&self` and keeps no state but the domains, so a model
//!    can be shared and solved many times; scratch space lives on the stack (a `SmallVec`) or
//!    is allocated per call. A constraint that gains from remembering what it learnt creates a
//!    [`Propagator`] with state for each search ([`Constraint::propagator`], see
//!    [below](#state-a-propagator-per-search)); `propagate` then stays as the from-scratch
//!    reference the stateful one is tested against.
//! 5. **Need not reach a fixpoint**: if a call prunes, the engine calls again, unless
//!    [`is_idempotent`](Constraint::is_idempotent) says that would find nothing new.
//!
//! The [`PropagationLevel`](crate::PropagationLevel) asked for by the solve is available as
//! [`PropagationContext::level`]: `None` asks for checking only (fail when the fixed variables
//! already violate the rule, prune nothing), `Forward` for pruning with what fixed variables
//! imply, `Full` for the constraint's strongest filtering. A constraint may ignore the level and
//! always do its best; the built-ins honour it so the levels can be compared in teaching.
//!
//! # How to write a constraint
//!
//! 1. Write `scope` and `check`. `check` is the specification: keep it obviously right.
//! 2. Write the simplest sound `propagate`: if every variable of the scope is fixed, run `check`
//!    on the values and return `Err(Conflict)` when it fails; otherwise do nothing
//!    ([`PropagationContext::check_if_fixed`] does exactly this). This is already a correct
//!    constraint (the engine finds solutions by search alone).
//! 3. Test it: [`ConformanceTest`](crate::conformance::ConformanceTest) compares it with a
//!    brute-force enumeration filtered by `check`, on random domains, at every level; also
//!    solve small models with it and compare their solutions with brute force.
//! 4. Make it prune: for each variable, remove the values that have no support. Re-run the same
//!    tests: a pruning bug shows up as a missing solution.
//! 5. Make it cheap: pick [`wake_on`](Constraint::wake_on) (wake only when a variable is fixed, if
//!    that is all the pruning looks at), say whether it is idempotent, use
//!    [`Domain::window`](crate::Domain::window) and
//!    [`retain_window`](PropagationContext::retain_window) for bit-parallel work on small domains.
//! 6. Make it incremental, if a benchmark asks for it: return a [`Propagator`] from
//!    [`Constraint::propagator`] that keeps what it learnt in [`Reversible`] values and reads
//!    [`PropagationContext::changes`], and test it against `propagate` with the conformance kit,
//!    which also checks that its state is restored exactly on backtracking.
//!
//! # State: a propagator per search
//!
//! When a search starts, the engine asks each constraint for a [`Propagator`]
//! ([`Constraint::propagator`]); a constraint that returns `None` (the default) is run through
//! its own `propagate`. A propagator is owned by the solver, so it takes `&mut self`; what it
//! must remember about the current node goes into [`Reversible`] values, which the engine
//! records on its trail and restores on backtracking, as it does domains. After its first run,
//! it is told which variables of its scope changed and how ([`PropagationContext::changes`]).
//! See the [`kernel`](crate::kernel) module for the rules, and `docs/custom-constraints.md` for a worked
//! example.
//!
//! ```
//! use cspkit::kernel::{Conflict, Constraint, PropagationContext, WakeOn};
//! use cspkit::{Model, PropagationLevel, VarId};
//!
//! /// x < y.
//! #[derive(Debug)]
//! struct Less { scope: [VarId; 2] }
//!
//! impl Constraint for Less {
//!     fn scope(&self) -> &[VarId] { &self.scope }
//!     fn check(&self, values: &[i32]) -> bool { values[0] < values[1] }
//!     fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
//!         let [x, y] = self.scope;
//!         // x < y  ⇒  x ≤ max(y) − 1  and  y ≥ min(x) + 1.
//!         let max_y = ctx.domain(y).max().ok_or(Conflict)?;
//!         ctx.remove_above(x, max_y.saturating_sub(1))?;
//!         let min_x = ctx.domain(x).min().ok_or(Conflict)?;
//!         ctx.remove_below(y, min_x.saturating_add(1))?;
//!         Ok(())
//!     }
//!     fn wake_on(&self, _: PropagationLevel) -> WakeOn { WakeOn::AnyChange }
//!     fn is_idempotent(&self, _: PropagationLevel) -> bool { true }
//! }
//!
//! let mut model = Model::new();
//! let x = model.new_var(1..=3)?;
//! let y = model.new_var(1..=3)?;
//! model.post(Less { scope: [x, y] })?;
//! assert_eq!(model.solver().count().solutions, 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod all_different;
pub(crate) mod arithmetic;
mod bounds;
pub(crate) mod circuit;
pub(crate) mod comparison;
pub(crate) mod count;
pub(crate) mod distance;
pub(crate) mod element;
pub(crate) mod extremum;
pub(crate) mod global_cardinality;
pub(crate) mod inverse;
pub(crate) mod lex;
pub(crate) mod linear;
pub(crate) mod member;
pub(crate) mod not_equal;
pub(crate) mod predicate;
pub(crate) mod product;
pub(crate) mod regular;
pub(crate) mod reified;
pub(crate) mod reified_equality;
pub(crate) mod relation;
pub(crate) mod scheduling;
pub(crate) mod subcircuit;
pub(crate) mod table;
mod words;

// The kernel's items at their old paths, `cspkit::constraints::Constraint` and so on: the
// kernel is their one documented path (`cspkit::kernel::Constraint`).
#[deprecated(since = "0.3.0", note = "use `cspkit::kernel::` and the same name")]
#[doc(hidden)]
pub use crate::kernel::{
    Change, Conflict, Constraint, DomainEvent, ModelView, PropagationContext, Propagator,
    PropagatorSetup, Reversible, ReversibleValue, WakeOn,
};

// The built-in constraints at their old paths, `cspkit::constraints::AllDifferent` and so on:
// the crate root is their one documented path (`cspkit::AllDifferent`).
#[deprecated(
    since = "0.3.0",
    note = "use `cspkit::` and the same name (the crate root)"
)]
#[doc(hidden)]
pub use self::{
    all_different::AllDifferent,
    arithmetic::{Arithmetic, Operation},
    circuit::Circuit,
    comparison::Comparison,
    count::Among,
    distance::Distance,
    element::Element,
    extremum::Extremum,
    global_cardinality::GlobalCardinality,
    inverse::Inverse,
    lex::LexLessEq,
    linear::Linear,
    member::Member,
    not_equal::NotEqual,
    predicate::Predicate,
    product::Product,
    regular::{Dfa, Regular},
    reified::Reified,
    reified_equality::ReifiedEquality,
    relation::Relation,
    scheduling::{Cumulative, Disjunctive},
    subcircuit::Subcircuit,
    table::Table,
};
pub(crate) use linear::Invalid as InvalidLinear;
pub(crate) use product::times as product_range;

/// The wake-up of a constraint that only checks at `None` and reads every removal above it:
/// fixed variables at `None`, any change otherwise.
pub(crate) fn check_then_any_change(level: crate::PropagationLevel) -> WakeOn {
    match level {
        crate::PropagationLevel::None => WakeOn::Fixed,
        _ => WakeOn::AnyChange,
    }
}

#[cfg(test)]
use crate::domain::Domain;
#[cfg(test)]
use crate::kernel::PropagationLevel;
#[cfg(test)]
use crate::kernel::Sandbox;

/// Test support: every solution of `model` at `level`, in the default (lexicographic) order.
#[cfg(test)]
pub(crate) fn solutions_at(model: &crate::Model, level: PropagationLevel) -> Vec<Vec<i32>> {
    model
        .solver()
        .with_propagation(level)
        .solutions()
        .map(|s| s.values().to_vec())
        .collect()
}

/// Test support: runs one constraint once, outside a search, on the given value lists.
#[cfg(test)]
pub(crate) fn propagate_once(
    constraint: &dyn Constraint,
    domains: &[Vec<i32>],
    level: PropagationLevel,
) -> Result<Vec<Vec<i32>>, Conflict> {
    let mut domains: Vec<Domain> = domains
        .iter()
        .map(|values| Domain::from_values(values.iter().copied()).expect("a non-empty domain"))
        .collect();
    Sandbox::new().propagate_once(constraint, &mut domains, level)?;
    Ok(domains.iter().map(|d| d.iter().collect()).collect())
}
