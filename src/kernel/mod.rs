//! The propagation kernel: what every constraint, built-in or not, is written against.
//!
//! # Where the kernel stands
//!
//! The kernel is the third layer from the bottom, above `domain`, `ids` and `error`, below the
//! constraints, the model and the search: the crate's one map, with every layer, is the
//! diagram of `docs/architecture.md` (checked against the sources by `tests/layers.rs`).
//!
//! The kernel knows constraints only through the [`Constraint`] and [`Propagator`] traits, and a
//! model only through the [`ModelView`] a constraint is posted with: the built-in constraints
//! and a user's are on the same footing.
//!
//! # Propagators with state
//!
//! A [`Constraint`] is declarative and shared: it belongs to the model, and
//! its `propagate(&self)` re-reads everything it needs from the domains on every call. That is
//! simple and always correct, but a constraint that could remember what it learnt (which values
//! are taken, a matching, a support) pays again on every call for what the last one knew.
//!
//! A [`Propagator`] is what a constraint creates, once per search, to enforce itself in that
//! search (Pumpkin's split between a constraint and its propagators, Gecode's propagators with
//! their own state). It lives in the solver, never in the model, so the model stays shareable
//! and solvable many times, from several threads at once. It can keep two kinds of state:
//!
//! - **Reversible state**: values created with [`PropagatorSetup::reversible`] and changed with
//!   [`PropagationContext::set`]. The engine records the old
//!   value on the same trail as the domains, so backtracking restores it exactly, at the cost
//!   of one trail entry per change (like a domain word). Counters, masks of taken values, the
//!   set of unfixed variables, a watched support: anything that must describe the current node.
//! - **Caches in plain fields** (`&mut self`): anything whose every use is checked against the
//!   current domains and that is therefore valid at any node, or valid at any node given its
//!   reversible part (a sparse set whose size is reversible). Backtracking does not touch them. Anything else kept in
//!   a plain field is a bug, which the [conformance kit](crate::conformance) catches: a
//!   propagator must behave after a backtrack exactly as if the undone branch had never been
//!   explored.
//!
//! A propagator also learns what changed since its last run:
//! [`PropagationContext::changes`] lists the positions in
//! the scope whose domains changed, each with the strongest [`DomainEvent`] it saw, so the
//! propagator updates its state from those alone instead of rescanning its scope.
//!
//! # A constraint alone
//!
//! [`propagate_alone`] runs one constraint outside a search, on domains the caller owns, until
//! it prunes nothing more (and leaves the domains as they were when it reports a conflict).
//! [`Sandbox`] is the reusable form underneath: one call at a time, and an undo. Puzzle grading
//! and explanations, [`reason_implies`], the [conformance kit](crate::conformance) and the
//! search-tree page all run constraints alone through them.

mod constraint;
mod context;
pub(crate) mod explain;
pub(crate) mod propagation;
mod propagator;
mod sandbox;
pub(crate) mod trail;
mod view;

pub use constraint::{Conflict, Constraint, WakeOn};
pub use context::PropagationContext;
/// [`Literal`](crate::Literal) at its old path: the crate root is its one documented path, as
/// users of the [`puzzle`](crate::puzzle) explanations meet it there too.
#[deprecated(since = "0.3.0", note = "use `cspkit::Literal` (the crate root)")]
#[doc(hidden)]
pub use explain::Literal;
pub use explain::{ExplainContext, Inference, minimized_reason, reason_implies, scope_reason};
pub use propagator::{
    Change, DomainEvent, Propagator, PropagatorSetup, Reversible, ReversibleValue,
};
pub use sandbox::{Sandbox, propagate_alone};
pub use view::IntView;

use std::borrow::Cow;

use crate::domain::Domain;
use crate::ids::VarId;

/// How hard constraints work to prune, chosen per solve.
///
/// All levels find the same solutions in the same order; stronger levels visit fewer nodes and
/// spend more per node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum PropagationLevel {
    /// Check only: a constraint fails once the variables fixed so far violate it, and prunes
    /// nothing. Plain backtracking, the textbook algorithm.
    None,
    /// Forward checking: when a variable is fixed, remove the values it rules out from the
    /// other variables of its constraints.
    Forward,
    /// Each constraint's strongest filtering (for [`AllDifferent`](crate::AllDifferent):
    /// domain consistency, by Régin's matching-based algorithm).
    #[default]
    Full,
}

impl PropagationLevel {
    /// Every level, weakest first.
    pub const ALL: [PropagationLevel; 3] = [
        PropagationLevel::None,
        PropagationLevel::Forward,
        PropagationLevel::Full,
    ];

    /// The level's name, as the command line and `--stats` write it: `none`, `forward`, `full`.
    pub fn name(self) -> &'static str {
        match self {
            PropagationLevel::None => "none",
            PropagationLevel::Forward => "forward",
            PropagationLevel::Full => "full",
        }
    }
}

impl std::fmt::Display for PropagationLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for PropagationLevel {
    type Err = crate::ParseNameError;

    /// `none`, `forward`, `full`, or `mac` (the textbooks' name for `full`).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        crate::error::parse_name(
            "propagation level",
            name,
            &[
                ("none", PropagationLevel::None),
                ("forward", PropagationLevel::Forward),
                ("full", PropagationLevel::Full),
                ("mac", PropagationLevel::Full),
            ],
            &["none", "forward", "full", "mac"],
        )
    }
}

/// What a constraint sees of the model it is posted on, in
/// [`Constraint::prepare`]: the variables' initial domains and names.
#[derive(Debug, Clone, Copy)]
pub struct ModelView<'a> {
    model: u32,
    domains: &'a [Domain],
    names: &'a [Option<Box<str>>],
}

impl<'a> ModelView<'a> {
    pub(crate) fn new(model: u32, domains: &'a [Domain], names: &'a [Option<Box<str>>]) -> Self {
        ModelView {
            model,
            domains,
            names,
        }
    }

    /// The initial domain of `var`.
    ///
    /// # Panics
    ///
    /// If `var` is not a variable of the model (posting checks scopes first).
    pub fn domain(&self, var: VarId) -> &'a Domain {
        assert!(
            var.model == self.model,
            "{var:?} is not a variable of this model"
        );
        &self.domains[var.index()]
    }

    /// The name of `var` as messages show it: its given name, or `x` and its index.
    pub fn var_name(&self, var: VarId) -> Cow<'a, str> {
        match self.names.get(var.index()) {
            Some(Some(name)) if var.model == self.model => Cow::Borrowed(name),
            _ => Cow::Owned(var.to_string()),
        }
    }
}
