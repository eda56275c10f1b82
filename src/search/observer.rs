//! Watching the search: the [`SearchObserver`] trait, its [`Event`]s (borrowed, as the engine
//! emits them) and [`OwnedEvent`]s (the same events owning their data, to keep), a no-op
//! observer and an [`EventLog`].
//!
//! The engine is generic over its observer, so the default [`NoObserver`] compiles to nothing.
//! Depths count decisions on the current path: the first decision is at depth 1, the root is
//! depth 0.
//!
//! The search emits one stream of [`Event`]s, each to [`SearchObserver::on_event`]:
//!
//! - [`Event::Node`]: a new node of the tree, with its id and its parent's (so the tree can be
//!   rebuilt) and the branch that made it (`x = v`, `x ≠ v`, `x ≤ v`, `x > v`). A node made by
//!   a left branch (`=` or `≤`) is a *decision* at its depth;
//! - [`Event::Failure`]: propagation at a node found a dead end, with the constraint that
//!   reported it, or `None` when a branch emptied a domain by itself;
//! - [`Event::Backtrack`]: the decision `x = v` at depth `d` is undone; the search goes on at
//!   depth `d - 1`, with the refutation `x ≠ v` (which may fail in turn) if it is tried;
//! - [`Event::Solution`]: every variable is fixed; [`Event::Improved`] follows when an
//!   optimisation found a better one;
//! - for an observer that asks for them ([`SearchObserver::observes_propagation`]): every
//!   domain a propagator narrowed ([`Event::Pruned`], with the constraint that did it, the
//!   domain before and after: a variable fixed by propagation is one whose domain after holds
//!   one value; a wiped-out one is empty), and every node's fixpoint ([`Event::Propagated`]);
//! - with AC-3, its queue and each revision ([`Event::ArcQueue`], [`Event::Revise`]).

use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::kernel::explain::Literal;

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

/// One event of the stream a search emits, for [`SearchObserver::on_event`]; it borrows its
/// domains from the engine ([`Event::to_owned_event`] makes an [`OwnedEvent`] to keep).
///
/// Nodes are numbered in the order the search makes them; the root is node 0. `depth` counts
/// the decisions (left branches) on the path to a node.
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
    /// AC-3 ([`Propagation::Ac3`](crate::Propagation::Ac3)) starts at `node` with these arcs
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
    /// The decision `var = value` (or `var ≤ value` with [`Branching::Split`]) at `depth` is
    /// undone: the search goes on one level up, where the [`Node`](Event::Node) of its
    /// refutation follows if the refutation is tried.
    ///
    /// [`Branching::Split`]: crate::Branching::Split
    Backtrack {
        /// The variable of the undone decision.
        var: VarId,
        /// The value of the undone decision.
        value: i32,
        /// The depth of the undone decision.
        depth: usize,
    },
    /// Conflict-directed backjumping
    /// ([`SearchConfig::with_backjumping`](crate::SearchConfig::with_backjumping)): the
    /// failure at `node` rests on the decisions on the variables of `conflict` (its conflict
    /// set, shallowest first), so the search goes back to the deepest of them, at depth `to`
    /// (0: none, the search is over), and undoes the decisions on `skipped` (deepest first)
    /// without trying their other branches: they had nothing to do with the failure. The
    /// [`Backtrack`](Event::Backtrack) events of the undone decisions follow.
    Backjump {
        /// The failed node.
        node: u64,
        /// Decisions on the path to it.
        depth: usize,
        /// The depth of the decision the search goes back to (0: none is left).
        to: usize,
        /// The variables of the decisions the failure rests on, shallowest first.
        conflict: &'a [VarId],
        /// The variables of the decisions jumped over, deepest first.
        skipped: &'a [VarId],
    },
    /// Learning from failures
    /// ([`SearchConfig::with_learning`](crate::SearchConfig::with_learning)): conflict
    /// analysis of the failure at `node` learned `nogood`, literals that cannot all hold in
    /// any solution still to be found. Its first literal is the one of the failing level: the
    /// search goes back to the deepest level of the others, where it makes that one false
    /// (a [`Node`](Event::Node) whose branch is the first literal's negation), after the
    /// [`Backjump`](Event::Backjump) (if it skips a level) and the
    /// [`Backtrack`](Event::Backtrack)s.
    Learned {
        /// The failed node.
        node: u64,
        /// Decisions on the path to it.
        depth: usize,
        /// The nogood's literals, the asserting one first.
        nogood: &'a [Literal],
    },
    /// Learning from failures: a nogood learned earlier (at the failure of node
    /// `learned_at`, see [`Learned`](Event::Learned)) took a value away at `node`, all its
    /// other literals holding, or failed the node (`failed`), all of them holding. How often
    /// a nogood is used is how much search it saves.
    NogoodUsed {
        /// The node being propagated.
        node: u64,
        /// The failed node the nogood was learned at.
        learned_at: u64,
        /// Whether it failed the node (else it removed a value).
        failed: bool,
    },
}

/// An [`Event`] that owns its data (domains, arcs, values), to keep after the search moved on:
/// the same variants with the same fields. Recorded by [`EventLog`], handed out by
/// [`Solver::next_step`](crate::Solver::next_step); [`OwnedEvent::as_event`] lends it back
/// as an [`Event`], so whatever observes a search can replay a recorded one.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum OwnedEvent {
    /// See [`Event::Node`].
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
    /// See [`Event::Pruned`].
    Pruned {
        /// The node being propagated.
        node: u64,
        /// The variable whose domain changed.
        var: VarId,
        /// The domain before the propagator ran.
        before: Domain,
        /// The domain after it.
        after: Domain,
        /// The constraint whose propagator made the change.
        constraint: ConstraintId,
    },
    /// See [`Event::Propagated`]: the state to show after a node, such as a puzzle's board.
    Propagated {
        /// The node.
        node: u64,
        /// Every variable's domain at the node, indexed by [`VarId::index`].
        domains: Vec<Domain>,
    },
    /// See [`Event::ArcQueue`].
    ArcQueue {
        /// The node being propagated.
        node: u64,
        /// AC-3's queue, front first.
        arcs: Vec<(VarId, VarId)>,
    },
    /// See [`Event::Revise`].
    Revise {
        /// The node being propagated.
        node: u64,
        /// The variable revised.
        from: VarId,
        /// The variable whose values support it.
        to: VarId,
        /// The values removed from `from`.
        removed: Vec<i32>,
        /// The arcs still queued, front first.
        queue: Vec<(VarId, VarId)>,
    },
    /// See [`Event::Failure`].
    Failure {
        /// The failed node.
        node: u64,
        /// The constraint that reported the conflict, if one did.
        constraint: Option<ConstraintId>,
        /// The variable whose domain was emptied, if one was.
        var: Option<VarId>,
        /// Decisions on the path.
        depth: usize,
    },
    /// See [`Event::Backtrack`].
    Backtrack {
        /// The variable of the undone decision.
        var: VarId,
        /// The value of the undone decision.
        value: i32,
        /// The depth of the undone decision.
        depth: usize,
    },
    /// See [`Event::Solution`].
    Solution {
        /// The solution's node.
        node: u64,
        /// Decisions on the path.
        depth: usize,
    },
    /// See [`Event::Improved`].
    Improved {
        /// The solution's node.
        node: u64,
        /// Its objective value.
        value: i64,
    },
    /// See [`Event::Backjump`].
    Backjump {
        /// The failed node.
        node: u64,
        /// Decisions on the path to it.
        depth: usize,
        /// The depth of the decision the search goes back to (0: none is left).
        to: usize,
        /// The variables of the decisions the failure rests on, shallowest first.
        conflict: Vec<VarId>,
        /// The variables of the decisions jumped over, deepest first.
        skipped: Vec<VarId>,
    },
    /// See [`Event::Learned`].
    Learned {
        /// The failed node.
        node: u64,
        /// Decisions on the path to it.
        depth: usize,
        /// The nogood's literals, the asserting one first.
        nogood: Vec<Literal>,
    },
    /// See [`Event::NogoodUsed`].
    NogoodUsed {
        /// The node being propagated.
        node: u64,
        /// The failed node the nogood was learned at.
        learned_at: u64,
        /// Whether it failed the node (else it removed a value).
        failed: bool,
    },
}

impl Event<'_> {
    /// The same event, owning its data (a copy of the domains, arcs and values it borrows).
    pub fn to_owned_event(&self) -> OwnedEvent {
        match *self {
            Event::Node {
                node,
                parent,
                var,
                value,
                kind,
                depth,
            } => OwnedEvent::Node {
                node,
                parent,
                var,
                value,
                kind,
                depth,
            },
            Event::Pruned {
                node,
                var,
                before,
                after,
                constraint,
            } => OwnedEvent::Pruned {
                node,
                var,
                before: before.clone(),
                after: after.clone(),
                constraint,
            },
            Event::Propagated { node, domains } => OwnedEvent::Propagated {
                node,
                domains: domains.to_vec(),
            },
            Event::ArcQueue { node, arcs } => OwnedEvent::ArcQueue {
                node,
                arcs: arcs.to_vec(),
            },
            Event::Revise {
                node,
                from,
                to,
                removed,
                queue,
            } => OwnedEvent::Revise {
                node,
                from,
                to,
                removed: removed.to_vec(),
                queue: queue.to_vec(),
            },
            Event::Failure {
                node,
                constraint,
                var,
                depth,
            } => OwnedEvent::Failure {
                node,
                constraint,
                var,
                depth,
            },
            Event::Backtrack { var, value, depth } => OwnedEvent::Backtrack { var, value, depth },
            Event::Solution { node, depth } => OwnedEvent::Solution { node, depth },
            Event::Improved { node, value } => OwnedEvent::Improved { node, value },
            Event::Backjump {
                node,
                depth,
                to,
                conflict,
                skipped,
            } => OwnedEvent::Backjump {
                node,
                depth,
                to,
                conflict: conflict.to_vec(),
                skipped: skipped.to_vec(),
            },
            Event::Learned {
                node,
                depth,
                nogood,
            } => OwnedEvent::Learned {
                node,
                depth,
                nogood: nogood.to_vec(),
            },
            Event::NogoodUsed {
                node,
                learned_at,
                failed,
            } => OwnedEvent::NogoodUsed {
                node,
                learned_at,
                failed,
            },
        }
    }
}

impl OwnedEvent {
    /// The same event, borrowing its data from this one: what an observer receives.
    ///
    /// # Examples
    ///
    /// Replaying a recorded search into another observer:
    ///
    /// ```
    /// use cspkit::{EventLog, Model, NotEqual, SearchObserver};
    /// use cspkit::teach::tree::SearchTree;
    ///
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=1)?;
    /// let y = model.new_var(0..=1)?;
    /// model.post(NotEqual::new(x, y))?;
    /// let mut log = EventLog::new();
    /// let _ = model.solver().with_observer(&mut log).next_solution();
    /// let mut tree = SearchTree::new(&model);
    /// for event in log.events() {
    ///     tree.on_event(&event.as_event());
    /// }
    /// assert_eq!(tree.nodes().len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_event(&self) -> Event<'_> {
        match *self {
            OwnedEvent::Node {
                node,
                parent,
                var,
                value,
                kind,
                depth,
            } => Event::Node {
                node,
                parent,
                var,
                value,
                kind,
                depth,
            },
            OwnedEvent::Pruned {
                node,
                var,
                ref before,
                ref after,
                constraint,
            } => Event::Pruned {
                node,
                var,
                before,
                after,
                constraint,
            },
            OwnedEvent::Propagated { node, ref domains } => Event::Propagated { node, domains },
            OwnedEvent::ArcQueue { node, ref arcs } => Event::ArcQueue { node, arcs },
            OwnedEvent::Revise {
                node,
                from,
                to,
                ref removed,
                ref queue,
            } => Event::Revise {
                node,
                from,
                to,
                removed,
                queue,
            },
            OwnedEvent::Failure {
                node,
                constraint,
                var,
                depth,
            } => Event::Failure {
                node,
                constraint,
                var,
                depth,
            },
            OwnedEvent::Backtrack { var, value, depth } => Event::Backtrack { var, value, depth },
            OwnedEvent::Solution { node, depth } => Event::Solution { node, depth },
            OwnedEvent::Improved { node, value } => Event::Improved { node, value },
            OwnedEvent::Backjump {
                node,
                depth,
                to,
                ref conflict,
                ref skipped,
            } => Event::Backjump {
                node,
                depth,
                to,
                conflict,
                skipped,
            },
            OwnedEvent::Learned {
                node,
                depth,
                ref nogood,
            } => Event::Learned {
                node,
                depth,
                nogood,
            },
            OwnedEvent::NogoodUsed {
                node,
                learned_at,
                failed,
            } => Event::NogoodUsed {
                node,
                learned_at,
                failed,
            },
        }
    }
}

/// Receives the events of a search, one [`Event`] at a time, through
/// [`on_event`](Self::on_event). Every method does nothing by default.
///
/// Implemented for `&mut T` too, so an observer can be lent to a solver and read afterwards.
///
/// The methods of earlier versions, one per kind of event ([`decision`](Self::decision),
/// [`failure`](Self::failure), [`backtrack`](Self::backtrack), [`solution`](Self::solution))
/// and [`event`](Self::event) for the rest of the stream, are deprecated; the default
/// [`on_event`](Self::on_event) still calls them, so an observer that overrides them works as
/// before.
///
/// # Examples
///
/// ```
/// use cspkit::{BranchKind, Event, Model, NotEqual, SearchObserver};
///
/// #[derive(Default)]
/// struct Decisions(Vec<String>);
///
/// impl SearchObserver for Decisions {
///     fn on_event(&mut self, event: &Event<'_>) {
///         if let Event::Node { var, value, kind: BranchKind::Equal, .. } = *event {
///             self.0.push(format!("{var:?} = {value}"));
///         }
///     }
/// }
///
/// let mut model = Model::new();
/// let x = model.new_var(0..=1)?;
/// let y = model.new_var(0..=1)?;
/// model.post(NotEqual::new(x, y))?;
/// let mut decisions = Decisions::default();
/// let _ = model.solver().with_observer(&mut decisions).next_solution();
/// assert_eq!(decisions.0.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait SearchObserver {
    /// One event of the search (see [`Event`]).
    ///
    /// The default body calls the deprecated methods, as the engine did before: a
    /// [`Node`](Event::Node) by a left branch (`=`, `≤`) calls [`decision`](Self::decision),
    /// a [`Failure`](Event::Failure) [`failure`](Self::failure), a
    /// [`Backtrack`](Event::Backtrack) [`backtrack`](Self::backtrack), a
    /// [`Solution`](Event::Solution) [`solution`](Self::solution); then every event but a
    /// backtrack goes to [`event`](Self::event).
    #[allow(
        deprecated,
        reason = "the default dispatch to the deprecated methods keeps old observers working"
    )]
    #[inline]
    fn on_event(&mut self, event: &Event<'_>) {
        match *event {
            Event::Node {
                var,
                value,
                kind: BranchKind::Equal | BranchKind::AtMost,
                depth,
                ..
            } => self.decision(var, value, depth),
            Event::Failure {
                constraint, depth, ..
            } => self.failure(constraint, depth),
            Event::Backtrack { var, value, depth } => {
                self.backtrack(var, value, depth);
                return;
            }
            Event::Solution { depth, .. } => self.solution(depth),
            _ => {}
        }
        self.event(event);
    }

    /// Whether [`on_event`](Self::on_event) wants the [`Event::Pruned`] and
    /// [`Event::Propagated`] events. Asked once per propagation; `false` (the default) keeps
    /// propagation at full speed, as it then needs no copy of the domains a propagator is
    /// about to change.
    fn observes_propagation(&self) -> bool {
        false
    }

    /// The engine branches on `var = value`, making the path `depth` decisions deep.
    #[deprecated(
        since = "0.3.0",
        note = "use `on_event`: a decision is an `Event::Node` whose `kind` is `Equal` or `AtMost`"
    )]
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        let _ = (var, value, depth);
    }

    /// Propagation at `depth` failed; `constraint` is the one that reported the conflict.
    #[deprecated(since = "0.3.0", note = "use `on_event` and `Event::Failure`")]
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        let _ = (constraint, depth);
    }

    /// The decision `var = value` at `depth` is undone, and `var ≠ value` is tried instead.
    #[deprecated(since = "0.3.0", note = "use `on_event` and `Event::Backtrack`")]
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        let _ = (var, value, depth);
    }

    /// A solution was found at `depth`.
    #[deprecated(since = "0.3.0", note = "use `on_event` and `Event::Solution`")]
    fn solution(&mut self, depth: usize) {
        let _ = depth;
    }

    /// Every event of the stream but [`Event::Backtrack`], after the methods above.
    #[deprecated(since = "0.3.0", note = "use `on_event`")]
    fn event(&mut self, event: &Event<'_>) {
        let _ = event;
    }
}

#[allow(
    deprecated,
    reason = "the deprecated methods keep forwarding until they are removed"
)]
impl<T: SearchObserver + ?Sized> SearchObserver for &mut T {
    #[inline]
    fn on_event(&mut self, event: &Event<'_>) {
        (**self).on_event(event);
    }
    fn observes_propagation(&self) -> bool {
        (**self).observes_propagation()
    }
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
}

#[allow(
    deprecated,
    reason = "the deprecated methods keep forwarding until they are removed"
)]
impl<T: SearchObserver + ?Sized> SearchObserver for Box<T> {
    #[inline]
    fn on_event(&mut self, event: &Event<'_>) {
        (**self).on_event(event);
    }
    fn observes_propagation(&self) -> bool {
        (**self).observes_propagation()
    }
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
}

/// Two observers at once: every event goes to the first, then to the second.
#[allow(
    deprecated,
    reason = "the deprecated methods keep forwarding until they are removed"
)]
impl<A: SearchObserver, B: SearchObserver> SearchObserver for (A, B) {
    #[inline]
    fn on_event(&mut self, event: &Event<'_>) {
        self.0.on_event(event);
        self.1.on_event(event);
    }
    fn observes_propagation(&self) -> bool {
        self.0.observes_propagation() || self.1.observes_propagation()
    }
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
}

/// An observer that may be absent: `None` ignores everything.
#[allow(
    deprecated,
    reason = "the deprecated methods keep forwarding until they are removed"
)]
impl<T: SearchObserver> SearchObserver for Option<T> {
    #[inline]
    fn on_event(&mut self, event: &Event<'_>) {
        if let Some(o) = self {
            o.on_event(event);
        }
    }
    fn observes_propagation(&self) -> bool {
        self.as_ref()
            .is_some_and(SearchObserver::observes_propagation)
    }
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
}

/// The observer that ignores everything (the default; it costs nothing).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoObserver;

impl SearchObserver for NoObserver {}

/// An observer that keeps every event it receives, as [`OwnedEvent`]s, in order: the nodes,
/// failures, backtracks and solutions, and, if built [`with_propagation`](Self::with_propagation),
/// the prunings and fixpoints of propagation.
///
/// # Examples
///
/// ```
/// use cspkit::{BranchKind, EventLog, Model, NotEqual, OwnedEvent};
///
/// let mut model = Model::new();
/// let x = model.new_var(0..=1)?;
/// let y = model.new_var(0..=1)?;
/// model.post(NotEqual::new(x, y))?;
/// let mut log = EventLog::new();
/// let _ = model.solver().with_observer(&mut log).next_solution();
/// assert_eq!(
///     log.events(),
///     [
///         OwnedEvent::Node { node: 1, parent: 0, var: x, value: 0, kind: BranchKind::Equal, depth: 1 },
///         OwnedEvent::Solution { node: 1, depth: 1 },
///     ]
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct EventLog {
    events: Vec<OwnedEvent>,
    propagation: bool,
}

impl EventLog {
    /// An empty log, that does not ask for the events of propagation.
    pub fn new() -> Self {
        EventLog::default()
    }

    /// Asks for the events of propagation too ([`Event::Pruned`], [`Event::Propagated`]), at
    /// the cost of a copy of the domains they carry.
    pub fn with_propagation(mut self) -> Self {
        self.propagation = true;
        self
    }

    /// The events so far, in order.
    pub fn events(&self) -> &[OwnedEvent] {
        &self.events
    }

    /// Takes the events, leaving the log empty.
    pub fn take(&mut self) -> Vec<OwnedEvent> {
        std::mem::take(&mut self.events)
    }
}

impl SearchObserver for EventLog {
    fn on_event(&mut self, event: &Event<'_>) {
        self.events.push(event.to_owned_event());
    }

    fn observes_propagation(&self) -> bool {
        self.propagation
    }
}

/// One event of a search, as recorded by [`EventRecorder`]: a summary of four kinds of
/// [`Event`].
#[deprecated(
    since = "0.3.0",
    note = "use `OwnedEvent` (recorded by `EventLog`): a decision is an `OwnedEvent::Node` whose `kind` is `Equal` or `AtMost`"
)]
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

/// An observer that keeps the decisions, failures, backtracks and solutions, in order, as
/// [`SearchEvent`]s.
///
/// # Examples
///
/// ```
/// # #![allow(deprecated)]
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
#[deprecated(
    since = "0.3.0",
    note = "use `EventLog`, which keeps the whole stream as `OwnedEvent`s"
)]
#[allow(deprecated, reason = "the deprecated recorder itself")]
#[derive(Debug, Clone, Default)]
pub struct EventRecorder {
    events: Vec<SearchEvent>,
}

#[allow(deprecated, reason = "the deprecated recorder itself")]
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

#[allow(deprecated, reason = "the deprecated recorder itself")]
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
