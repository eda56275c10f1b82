//! Watching the search: the [`SearchObserver`] trait, a no-op observer and an event recorder.
//!
//! The engine is generic over its observer, so the default [`NoObserver`] compiles to nothing.
//! Depths count decisions on the current path: the first decision is at depth 1, the root is
//! depth 0.
//!
//! The events of a search, in the order the engine emits them:
//!
//! - `decision(x, v, d)`: the engine branches on `x = v`, at depth `d`;
//! - `failure(c, d)`: propagation at depth `d` found a dead end; `c` is the constraint that
//!   reported it, or `None` when a refutation emptied a domain by itself;
//! - `backtrack(x, v, d)`: the decision `x = v` at depth `d` is undone; the search goes on at
//!   depth `d - 1` with the refutation `x ≠ v` (which may fail in turn);
//! - `solution(d)`: every variable is fixed at depth `d`.
//!
//! Beside these four summaries, [`SearchObserver::event`] receives the full stream, as
//! [`Event`]s: every node of the tree with its id and its parent's (so the tree can be
//! rebuilt), the branch that made it (`x = v`, `x ≠ v`, `x ≤ v`, `x > v`), and, for an observer
//! that asks for them ([`SearchObserver::observes_propagation`]), every domain a propagator
//! narrowed, with the constraint that did it, the domain before and after (a variable fixed by
//! propagation is one whose domain after holds one value; a wiped-out one is empty).

use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};

/// How a node of the search tree was made from its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BranchKind {
    /// `x = v`: the left branch of [`Branching::Assign`](crate::Branching::Assign).
    Equal,
    /// `x ≠ v`: its right branch, after `x = v` was refuted.
    NotEqual,
    /// `x ≤ v`: the left branch of [`Branching::Split`](crate::Branching::Split).
    AtMost,
    /// `x > v`: its right branch.
    Above,
}

impl BranchKind {
    /// The relation as a person writes it: `=`, `≠`, `≤` or `>`.
    pub fn symbol(self) -> &'static str {
        match self {
            BranchKind::Equal => "=",
            BranchKind::NotEqual => "≠",
            BranchKind::AtMost => "≤",
            BranchKind::Above => ">",
        }
    }
}

/// One event of the full stream a search emits, for [`SearchObserver::event`].
///
/// Nodes are numbered in the order the search makes them; the root is node 0. `depth` counts
/// the decisions (left branches) on the path to a node, as in the other observer methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event<'a> {
    /// A new node: `parent`'s child by the branch `var kind value`. Its propagation follows.
    Node {
        /// The new node's id.
        node: u64,
        /// Its parent's id.
        parent: u64,
        /// The variable branched on.
        var: VarId,
        /// The value of the branch.
        value: i32,
        /// The branch: `=`, `≠`, `≤` or `>`.
        kind: BranchKind,
        /// Decisions on the path to the new node.
        depth: usize,
    },
    /// A propagator narrowed a domain at `node` (only for observers that
    /// [observe propagation](SearchObserver::observes_propagation)).
    Pruned {
        /// The node being propagated.
        node: u64,
        /// The variable whose domain changed.
        var: VarId,
        /// The domain before the propagator ran.
        before: &'a Domain,
        /// The domain after: one value if the propagator fixed it, empty if it wiped it out.
        after: &'a Domain,
        /// The constraint whose propagator made the change.
        constraint: ConstraintId,
    },
    /// Propagation at `node` reached a fixpoint without failing: `domains` are the domains of
    /// every variable there, indexed by [`VarId::index`] (only for observers that
    /// [observe propagation](SearchObserver::observes_propagation)).
    Propagated {
        /// The node.
        node: u64,
        /// Every variable's domain at the node.
        domains: &'a [Domain],
    },
    /// AC-3 ([`Solver::with_ac3`](crate::Solver::with_ac3)) starts at `node` with these arcs
    /// `(Xi, Xj)` in its queue, front first: every arc at the root, the arcs into the
    /// variable branched on after a branch. Its [`Revise`](Event::Revise) events follow.
    ArcQueue {
        /// The node being propagated.
        node: u64,
        /// The queue, front first.
        arcs: &'a [(VarId, VarId)],
    },
    /// AC-3 took the arc `(from, to)` off its queue and ran REVISE(from, to): `removed` are
    /// the values of `from` with no value of `to` allowed by the constraints between them, in
    /// ascending order (none if the arc was consistent). `queue` is the queue after it, the
    /// arcs `(Xk, from)` it queued included. If `from` has no value left, a
    /// [`Failure`](Event::Failure) follows.
    Revise {
        /// The node being propagated.
        node: u64,
        /// The variable revised (`Xi`).
        from: VarId,
        /// The variable whose values support it (`Xj`).
        to: VarId,
        /// The values removed from `from`.
        removed: &'a [i32],
        /// The arcs still queued, front first.
        queue: &'a [(VarId, VarId)],
    },
    /// The node is a dead end.
    Failure {
        /// The failed node.
        node: u64,
        /// The constraint that reported the conflict; `None` when the branch itself emptied
        /// the variable's domain.
        constraint: Option<ConstraintId>,
        /// The variable whose domain was emptied, when one was (known for a branch, and for a
        /// propagator's conflict when propagation is observed).
        var: Option<VarId>,
        /// Decisions on the path.
        depth: usize,
    },
    /// The node is a solution: every variable is fixed.
    Solution {
        /// The solution's node.
        node: u64,
        /// Decisions on the path.
        depth: usize,
    },
    /// Optimisation ([`Solver::minimize`](crate::Solver::minimize) and the like): the solution
    /// just reported at `node` improves on every one before, with this objective value; from
    /// now on only better ones are searched for.
    Improved {
        /// The solution's node.
        node: u64,
        /// Its objective value.
        value: i64,
    },
}

/// Receives the events of a search. Every method does nothing by default.
///
/// Implemented for `&mut T` too, so an observer can be lent to a solver and read afterwards.
pub trait SearchObserver {
    /// The engine branches on `var = value`, making the path `depth` decisions deep.
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        let _ = (var, value, depth);
    }

    /// Propagation at `depth` failed; `constraint` is the one that reported the conflict.
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        let _ = (constraint, depth);
    }

    /// The decision `var = value` at `depth` is undone, and `var ≠ value` is tried instead.
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        let _ = (var, value, depth);
    }

    /// A solution was found at `depth`.
    fn solution(&mut self, depth: usize) {
        let _ = depth;
    }

    /// Every event of the full stream (see [`Event`]), beside the summaries above.
    fn event(&mut self, event: &Event<'_>) {
        let _ = event;
    }

    /// Whether [`event`](Self::event) wants the [`Event::Pruned`] events. Asked once per
    /// propagation; `false` (the default) keeps propagation at full speed, as it then needs no
    /// copy of the domains a propagator is about to change.
    fn observes_propagation(&self) -> bool {
        false
    }
}

impl<T: SearchObserver + ?Sized> SearchObserver for &mut T {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        (**self).decision(var, value, depth);
    }
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        (**self).failure(constraint, depth);
    }
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        (**self).backtrack(var, value, depth);
    }
    fn solution(&mut self, depth: usize) {
        (**self).solution(depth);
    }
    fn event(&mut self, event: &Event<'_>) {
        (**self).event(event);
    }
    fn observes_propagation(&self) -> bool {
        (**self).observes_propagation()
    }
}

impl<T: SearchObserver + ?Sized> SearchObserver for Box<T> {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        (**self).decision(var, value, depth);
    }
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        (**self).failure(constraint, depth);
    }
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        (**self).backtrack(var, value, depth);
    }
    fn solution(&mut self, depth: usize) {
        (**self).solution(depth);
    }
    fn event(&mut self, event: &Event<'_>) {
        (**self).event(event);
    }
    fn observes_propagation(&self) -> bool {
        (**self).observes_propagation()
    }
}

/// Two observers at once: every event goes to both.
impl<A: SearchObserver, B: SearchObserver> SearchObserver for (A, B) {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        self.0.decision(var, value, depth);
        self.1.decision(var, value, depth);
    }
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        self.0.failure(constraint, depth);
        self.1.failure(constraint, depth);
    }
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        self.0.backtrack(var, value, depth);
        self.1.backtrack(var, value, depth);
    }
    fn solution(&mut self, depth: usize) {
        self.0.solution(depth);
        self.1.solution(depth);
    }
    fn event(&mut self, event: &Event<'_>) {
        self.0.event(event);
        self.1.event(event);
    }
    fn observes_propagation(&self) -> bool {
        self.0.observes_propagation() || self.1.observes_propagation()
    }
}

/// An observer that may be absent: `None` ignores everything.
impl<T: SearchObserver> SearchObserver for Option<T> {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        if let Some(o) = self {
            o.decision(var, value, depth);
        }
    }
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        if let Some(o) = self {
            o.failure(constraint, depth);
        }
    }
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        if let Some(o) = self {
            o.backtrack(var, value, depth);
        }
    }
    fn solution(&mut self, depth: usize) {
        if let Some(o) = self {
            o.solution(depth);
        }
    }
    fn event(&mut self, event: &Event<'_>) {
        if let Some(o) = self {
            o.event(event);
        }
    }
    fn observes_propagation(&self) -> bool {
        self.as_ref()
            .is_some_and(SearchObserver::observes_propagation)
    }
}

/// The observer that ignores everything (the default; it costs nothing).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoObserver;

impl SearchObserver for NoObserver {}

/// One event of a search, as recorded by [`EventRecorder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SearchEvent {
    /// See [`SearchObserver::decision`].
    Decision {
        /// The variable branched on.
        var: VarId,
        /// The value it is fixed to.
        value: i32,
        /// Decisions on the path, this one included.
        depth: usize,
    },
    /// See [`SearchObserver::failure`].
    Failure {
        /// The constraint that reported the conflict, if any.
        constraint: Option<ConstraintId>,
        /// Decisions on the path.
        depth: usize,
    },
    /// See [`SearchObserver::backtrack`].
    Backtrack {
        /// The variable of the undone decision.
        var: VarId,
        /// The value of the undone decision, now refuted.
        value: i32,
        /// The depth of the undone decision.
        depth: usize,
    },
    /// See [`SearchObserver::solution`].
    Solution {
        /// Decisions on the path.
        depth: usize,
    },
}

/// An observer that keeps every event, in order.
///
/// # Examples
///
/// ```
/// use cspkit::{EventRecorder, Model, NotEqual, SearchEvent};
///
/// let mut model = Model::new();
/// let x = model.new_var(0..=1)?;
/// let y = model.new_var(0..=1)?;
/// model.post(NotEqual::new(x, y))?;
/// let mut recorder = EventRecorder::default();
/// let _ = model.solver().with_observer(&mut recorder).next_solution();
/// assert_eq!(recorder.events()[0], SearchEvent::Decision { var: x, value: 0, depth: 1 });
/// assert_eq!(recorder.events()[1], SearchEvent::Solution { depth: 1 });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct EventRecorder {
    events: Vec<SearchEvent>,
}

impl EventRecorder {
    /// The events so far, in order.
    pub fn events(&self) -> &[SearchEvent] {
        &self.events
    }

    /// Takes the events, leaving the recorder empty.
    pub fn take(&mut self) -> Vec<SearchEvent> {
        std::mem::take(&mut self.events)
    }
}

impl SearchObserver for EventRecorder {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        self.events
            .push(SearchEvent::Decision { var, value, depth });
    }
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        self.events.push(SearchEvent::Failure { constraint, depth });
    }
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        self.events
            .push(SearchEvent::Backtrack { var, value, depth });
    }
    fn solution(&mut self, depth: usize) {
        self.events.push(SearchEvent::Solution { depth });
    }
}
