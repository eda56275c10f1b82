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
//!    [`PropagationLevel::None`]: the engine never checks solutions itself (except in debug
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
//! The [`PropagationLevel`] asked for by the solve is available as
//! [`PropagationContext::level`]: `None` asks for checking only (fail when the fixed variables
//! already violate the rule, prune nothing), `Forward` for pruning with what fixed variables
//! imply, `Full` for the constraint's strongest filtering. A constraint may ignore the level and
//! always do its best; the built-ins honour it so the levels can be compared in teaching.
//!
//! # How to write a constraint
//!
//! 1. Write `scope` and `check`. `check` is the specification: keep it obviously right.
//! 2. Write the simplest sound `propagate`: if every variable of the scope is fixed, run `check`
//!    on the values and return `Err(Conflict)` when it fails; otherwise do nothing. This is
//!    already a correct constraint (the engine finds solutions by search alone).
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
//! See the [`propagator`] module for the rules, and `docs/custom-constraints.md` for a worked
//! example.
//!
//! ```
//! use cspkit::{Conflict, Constraint, Model, PropagationContext, VarId, WakeOn, PropagationLevel};
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

mod all_different;
mod bounds;
mod comparison;
mod distance;
mod element;
mod linear;
mod not_equal;
mod predicate;
pub mod propagator;
mod relation;
mod table;

pub use all_different::AllDifferent;
pub use comparison::Comparison;
pub use distance::Distance;
pub use element::Element;
pub(crate) use linear::Invalid as InvalidLinear;
pub use linear::Linear;
pub use not_equal::NotEqual;
pub use predicate::Predicate;
pub use propagator::{
    Change, DomainEvent, Propagator, PropagatorSetup, Reversible, ReversibleValue,
};
pub use relation::Relation;
pub use table::Table;

use std::fmt;

use crate::domain::Domain;
use crate::model::VarId;
use crate::search::PropagationLevel;
use crate::search::propagation::Wake;
use crate::search::trail::{Trail, TrailRecorder};

/// A rule over a set of variables, and how to enforce it: the extension point of cspkit.
///
/// See the [module documentation](self) for the contract of `propagate` and a recipe.
pub trait Constraint: fmt::Debug + Send + Sync {
    /// The variables the constraint is about, each once.
    ///
    /// The model rejects an empty scope and a scope that names a variable twice
    /// ([`ModelError::EmptyScope`](crate::ModelError), `RepeatedVariable`).
    fn scope(&self) -> &[VarId];

    /// Whether a full assignment of the scope satisfies the rule.
    ///
    /// `values[i]` is the value of `scope()[i]`.
    fn check(&self, values: &[i32]) -> bool;

    /// Prunes the domains of the scope, or reports that the rule cannot be satisfied.
    ///
    /// # Errors
    ///
    /// [`Conflict`] when no assignment of the current domains satisfies the rule. It must be
    /// returned at least when the whole scope is fixed and violates the rule.
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict>;

    /// Which domain changes of its variables should schedule the constraint, at a given level.
    ///
    /// The default, [`WakeOn::AnyChange`], is always correct. [`WakeOn::Fixed`] is correct when
    /// the constraint's propagation at that level looks only at fixed variables.
    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        let _ = level;
        WakeOn::AnyChange
    }

    /// Whether one call of `propagate` at this level reaches its own fixpoint, so that calling it
    /// again right after, on the domains it left, could prune nothing.
    ///
    /// When true, the engine does not wake the constraint for its own changes. The default,
    /// `false`, is always correct.
    fn is_idempotent(&self, level: PropagationLevel) -> bool {
        let _ = level;
        false
    }

    /// The propagator that enforces this constraint in one search, if it has one with state.
    ///
    /// Called once per search (and again when a solver restarts), with the level it will run
    /// at and the model's domains; reversible values are created through `setup`. The default,
    /// `None`, runs the constraint through [`propagate`](Constraint::propagate) itself. A
    /// propagator may borrow the constraint. See the [`propagator`] module for its contract.
    fn propagator(&self, setup: &mut PropagatorSetup<'_>) -> Option<Box<dyn Propagator + '_>> {
        let _ = setup;
        None
    }

    /// Called once by [`Model::post`](crate::Model::post), before the constraint is stored, with
    /// the model it is posted on: the place to check arguments against the variables' initial
    /// domains and to precompute from them. Domains only shrink after posting, so whatever is
    /// derived from them stays valid. The default does nothing.
    ///
    /// # Errors
    ///
    /// A [`ModelError`](crate::ModelError), which `post` returns to the caller.
    fn prepare(&mut self, model: &crate::Model) -> Result<(), crate::ModelError> {
        let _ = model;
        Ok(())
    }

    /// A short name for messages and traces; the type's name by default.
    fn name(&self) -> &str {
        let full = std::any::type_name::<Self>();
        let base = full.split('<').next().unwrap_or(full);
        base.rsplit("::").next().unwrap_or(base)
    }
}

impl<C: Constraint + ?Sized> Constraint for Box<C> {
    fn scope(&self) -> &[VarId] {
        (**self).scope()
    }
    fn check(&self, values: &[i32]) -> bool {
        (**self).check(values)
    }
    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        (**self).propagate(ctx)
    }
    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        (**self).wake_on(level)
    }
    fn is_idempotent(&self, level: PropagationLevel) -> bool {
        (**self).is_idempotent(level)
    }
    fn propagator(&self, setup: &mut PropagatorSetup<'_>) -> Option<Box<dyn Propagator + '_>> {
        (**self).propagator(setup)
    }
    fn prepare(&mut self, model: &crate::Model) -> Result<(), crate::ModelError> {
        (**self).prepare(model)
    }
    fn name(&self) -> &str {
        (**self).name()
    }
}

/// When a constraint wants to be woken up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WakeOn {
    /// When a variable of the scope becomes fixed (one value left).
    Fixed,
    /// When the smallest or the largest value of a variable of the scope is removed (which
    /// includes its becoming fixed).
    Bounds,
    /// When any value is removed from a variable of the scope.
    AnyChange,
}

/// Propagation found that the current domains admit no solution: the search must backtrack.
///
/// This is not an error: it is the normal way a branch of the search ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Conflict;

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("conflict: no value left for some variable")
    }
}

impl std::error::Error for Conflict {}

/// The only door to the domains during propagation: read them, prune them; and, for a
/// [`Propagator`], its reversible state and the changes since its last run.
///
/// Every change is recorded on the search's trail (so backtracking undoes it) and wakes the
/// constraints that watch the changed variable. A change that empties a domain returns
/// `Err(Conflict)`, so pruning code can use `?` throughout.
///
/// # Panics
///
/// Every method taking a [`VarId`] panics if the variable is not one of the model being solved;
/// posting checks scopes, so this only happens when a constraint reads outside its scope.
#[derive(Debug)]
pub struct PropagationContext<'a> {
    domains: &'a mut [Domain],
    trail: &'a mut Trail,
    wake: Option<Wake<'a>>,
    level: PropagationLevel,
    changes: Option<&'a [Change]>,
}

impl<'a> PropagationContext<'a> {
    pub(crate) fn new(
        domains: &'a mut [Domain],
        trail: &'a mut Trail,
        wake: Option<Wake<'a>>,
        level: PropagationLevel,
    ) -> Self {
        PropagationContext {
            domains,
            trail,
            wake,
            level,
            changes: None,
        }
    }

    /// Tells the propagator about to run what changed since it last ran.
    pub(crate) fn with_changes(mut self, changes: Option<&'a [Change]>) -> Self {
        self.changes = changes;
        self
    }

    /// The propagation strength the solve asked for.
    #[inline]
    pub fn level(&self) -> PropagationLevel {
        self.level
    }

    /// What changed since the running [`Propagator`] last ran on the current branch of the
    /// search: the variables of its scope whose domains changed (each once, in the order of
    /// their first change, with the strongest event each saw). After a backtrack, "last ran"
    /// means the state the search went back to, in which every propagator had run and every
    /// reversible value was restored.
    ///
    /// `None` means "look at the whole scope": the first run of a propagator (the root of a
    /// search), and always for a constraint run through its stateless
    /// [`propagate`](Constraint::propagate).
    ///
    /// A propagator of an [idempotent](Constraint::is_idempotent) constraint is not told about
    /// the changes it made itself: it is expected to have dealt with them in the run that made
    /// them. It hears only of the events its [`wake_on`](Constraint::wake_on) asks for: a
    /// propagator that wakes on [`WakeOn::Fixed`] is told of fixed variables only.
    #[inline]
    pub fn changes(&self) -> Option<&[Change]> {
        self.changes
    }

    /// The current value of a reversible value of the running [`Propagator`].
    ///
    /// # Panics
    ///
    /// If `state` was not created for the search being run.
    #[inline]
    pub fn get<T: ReversibleValue>(&self, state: Reversible<T>) -> T {
        T::from_word(self.trail.word(state.index()))
    }

    /// Changes a reversible value of the running [`Propagator`]; the engine restores the old
    /// value when the search backtracks past this point.
    ///
    /// # Panics
    ///
    /// If `state` was not created for the search being run.
    #[inline]
    pub fn set<T: ReversibleValue>(&mut self, state: Reversible<T>, value: T) {
        self.trail.set_word(state.index(), value.to_word());
    }

    /// The current domain of `var`.
    #[inline]
    pub fn domain(&self, var: VarId) -> &Domain {
        &self.domains[var.index()]
    }

    /// The value of `var` if it is fixed.
    #[inline]
    pub fn value(&self, var: VarId) -> Option<i32> {
        self.domain(var).value()
    }

    /// Whether `var` has exactly one value left.
    #[inline]
    pub fn is_fixed(&self, var: VarId) -> bool {
        self.domain(var).is_fixed()
    }

    /// Removes `value` from the domain of `var`.
    ///
    /// Returns whether the domain changed.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    #[inline]
    pub fn remove(&mut self, var: VarId, value: i32) -> Result<bool, Conflict> {
        self.update(var, |d, rec| d.remove(value, rec))
    }

    /// Reduces the domain of `var` to `value` alone.
    ///
    /// Returns whether the domain changed.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if `value` is not in the domain.
    #[inline]
    pub fn fix(&mut self, var: VarId, value: i32) -> Result<bool, Conflict> {
        self.update(var, |d, rec| d.fix_to(value, rec))
    }

    /// Removes every value smaller than `bound` from the domain of `var`.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    pub fn remove_below(&mut self, var: VarId, bound: i32) -> Result<bool, Conflict> {
        if self.domain(var).min().is_some_and(|min| min >= bound) {
            return Ok(false);
        }
        self.update(var, |d, rec| d.retain(|v| v >= bound, rec))
    }

    /// Removes every value larger than `bound` from the domain of `var`.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    pub fn remove_above(&mut self, var: VarId, bound: i32) -> Result<bool, Conflict> {
        if self.domain(var).max().is_some_and(|max| max <= bound) {
            return Ok(false);
        }
        self.update(var, |d, rec| d.retain(|v| v <= bound, rec))
    }

    /// Keeps only the values of `var` for which `keep` returns true.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    pub fn retain(&mut self, var: VarId, keep: impl FnMut(i32) -> bool) -> Result<bool, Conflict> {
        self.update(var, |d, rec| d.retain(keep, rec))
    }

    /// Bit-parallel pruning: of the values `base..base + 64`, keeps in the domain of `var` only
    /// those whose bit (`value - base`) is set in `mask`. Values outside the window are kept.
    ///
    /// Together with [`Domain::window`] this lets a constraint over small domains work a word at
    /// a time, as [`AllDifferent`] does.
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    #[inline]
    pub fn retain_window(&mut self, var: VarId, base: i32, mask: u64) -> Result<bool, Conflict> {
        self.update(var, |d, rec| d.retain_window(base, mask, rec))
    }

    /// The fast path for propagators on domains of at most 64 values: the domain's offset and
    /// word (see [`Domain::small`]), `None` for a wider domain.
    #[inline]
    pub(crate) fn small(&self, var: VarId) -> Option<(i32, u64)> {
        self.domains[var.index()].small()
    }

    /// The fast path's pruning: keeps in the word of `var` (a domain of at most 64 values) only
    /// the bits set in `keep`, with the trail and the wake-ups of any change; returns the word
    /// left (0 for a wider domain, which is left alone: callers check [`small`](Self::small)
    /// first).
    ///
    /// # Errors
    ///
    /// [`Conflict`] if the domain is left empty.
    #[inline]
    pub(crate) fn retain_small(&mut self, var: VarId, keep: u64) -> Result<u64, Conflict> {
        let domain = &mut self.domains[var.index()];
        let Some((_, old)) = domain.small() else {
            return Ok(0);
        };
        let new = old & keep;
        if new == old {
            return Ok(old);
        }
        domain.replace_small(new, &mut self.trail.recorder(var.index));
        if new == 0 {
            return Err(Conflict);
        }
        if let Some(wake) = &mut self.wake {
            let event = if new.is_power_of_two() {
                DomainEvent::Fixed
            } else if wake.is_precise(var.index)
                && (new.trailing_zeros() != old.trailing_zeros()
                    || new.leading_zeros() != old.leading_zeros())
            {
                DomainEvent::Bounds
            } else {
                DomainEvent::Removed
            };
            wake.changed(var.index, event);
        }
        Ok(new)
    }

    /// Applies a mutation, records it on the trail and wakes the watchers of `var`.
    #[inline]
    fn update(
        &mut self,
        var: VarId,
        mutate: impl FnOnce(&mut Domain, &mut TrailRecorder<'_>) -> bool,
    ) -> Result<bool, Conflict> {
        let domain = &mut self.domains[var.index()];
        // Whether a moved bound matters to anyone watching `var`; if not, a change that leaves
        // more than one value is reported as a removal, which wakes the same watchers.
        let precise = self.wake.as_ref().is_some_and(|w| w.is_precise(var.index));
        let bounds = if precise {
            (domain.min(), domain.max())
        } else {
            (None, None)
        };
        let changed = mutate(domain, &mut self.trail.recorder(var.index));
        if !changed {
            return Ok(false);
        }
        if domain.is_empty() {
            return Err(Conflict);
        }
        if let Some(wake) = &mut self.wake {
            let event = if domain.is_fixed() {
                DomainEvent::Fixed
            } else if precise && (domain.min(), domain.max()) != bounds {
                DomainEvent::Bounds
            } else {
                DomainEvent::Removed
            };
            wake.changed(var.index, event);
        }
        Ok(true)
    }
}

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
    let mut trail = Trail::default();
    let mut ctx = PropagationContext::new(&mut domains, &mut trail, None, level);
    constraint.propagate(&mut ctx)?;
    Ok(domains.iter().map(|d| d.iter().collect()).collect())
}
