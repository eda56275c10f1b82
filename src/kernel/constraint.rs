//! The [`Constraint`] trait, what propagation reports ([`Conflict`]) and when a constraint wants
//! to run ([`WakeOn`]). The contract and a recipe are in the [`constraints`](crate::constraints)
//! module, beside the built-ins.

use std::fmt;

use crate::error::ModelError;
use crate::ids::VarId;
use crate::kernel::explain::{ExplainContext, Inference, Literal};
use crate::kernel::{ModelView, PropagationContext, PropagationLevel, Propagator, PropagatorSetup};

/// A rule over a set of variables, and how to enforce it: the extension point of cspkit.
///
/// See the [`constraints`](crate::constraints) module for the contract of `propagate` and a
/// recipe.
pub trait Constraint: fmt::Debug + Send + Sync {
    /// The variables the constraint is about.
    ///
    /// The model rejects an empty scope ([`ModelError::EmptyScope`](crate::ModelError)). A
    /// variable may appear at more than one position (`x = y + x·0`-like rules, a counted
    /// variable inside its own count, `pos[i]` and `pos[i] + i + 1` in one all-different): the
    /// engine treats each position as its own, waking the constraint and reporting
    /// [`changes`](PropagationContext::changes) once per position, and `check` receives one
    /// value per position, equal at the positions of one variable. Propagation that treats the
    /// positions as independent variables stays sound (it prunes for a relaxation of the
    /// rule), if weaker. Pruning one position changes the others, so the engine wakes such a
    /// constraint on its own changes even when it claims
    /// [idempotence](Constraint::is_idempotent), and a propagator hears of every change.
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
    /// propagator may borrow the constraint. See the [`kernel`](crate::kernel) module
    /// for its contract.
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
    fn prepare(&mut self, model: &ModelView<'_>) -> Result<(), ModelError> {
        let _ = model;
        Ok(())
    }

    /// If the constraint says exactly that these views take pairwise distinct values, the
    /// views (in scope order); `None`, the default, otherwise.
    ///
    /// Only local search ([`MinConflicts`](crate::MinConflicts)) asks: it then counts the
    /// constraint's violations per value in constant time, instead of calling
    /// [`check`](Constraint::check). `None` is always correct; an answer must agree with
    /// `check`.
    fn distinct_views(&self) -> Option<Vec<crate::IntView>> {
        None
    }

    /// Why the constraint draws `inference` from the domains of `ctx`: literals (`y = 3`,
    /// `y ≠ 3`, `y ≥ 3`, `y ≤ 3`), each true in those domains, from which the constraint alone
    /// draws it. The explanations of the [`puzzle`](crate::puzzle) module print them; a
    /// reason should be as small as the constraint can make it cheaply, since a person reads it.
    ///
    /// `None`, the default, is always correct: the caller then cites every variable of the
    /// scope as its domain stands ([`scope_reason`](crate::kernel::scope_reason)). An answer
    /// must pass [`reason_implies`](crate::kernel::reason_implies); return `None` rather than
    /// guess.
    fn explain(&self, inference: Inference, ctx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        let _ = (inference, ctx);
        None
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
    fn prepare(&mut self, model: &ModelView<'_>) -> Result<(), ModelError> {
        (**self).prepare(model)
    }
    fn distinct_views(&self) -> Option<Vec<crate::IntView>> {
        (**self).distinct_views()
    }
    fn explain(&self, inference: Inference, ctx: &ExplainContext<'_>) -> Option<Vec<Literal>> {
        (**self).explain(inference, ctx)
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
