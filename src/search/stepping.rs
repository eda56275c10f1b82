//! Driving a search one step at a time: [`Solver::next_step`], and a read-only look at where
//! the search stands ([`Solver::domains`], [`Solver::decisions`]).
//!
//! A step runs the engine up to its next decision, with an observer that keeps every event of
//! the stream (as [`OwnedEvent`]s, owning their domains) beside the solver's own observer; the
//! events are then handed out one per call, as [`SearchStep`]s. The engine pauses before a decision exactly as it
//! does for a decision limit, so a step costs what the same part of an uninterrupted search costs,
//! plus the copies of the domains the events carry: the domains a propagator narrowed, and
//! every variable's domain once per node that does not fail ([`OwnedEvent::Propagated`]).
//!
//! The engine runs ahead of the events handed out: after a decision that fails it has already
//! moved on to the refutation when the decision's [`OwnedEvent::Node`] is handed out, and
//! [`Solver::domains`] shows where it stands. The domains at a node, in step with the events,
//! are those of its [`OwnedEvent::Propagated`] (or, at a failure, the node's parent's narrowed
//! by the branch and the [`OwnedEvent::Pruned`] events in between).

use std::time::Duration;

#[cfg(doc)]
use super::Branching;
use super::Solver;
use super::engine::{Run, Step};
use super::limits::{Budget, Clock, Limit, Pause};
use super::observer::{BranchKind, Event, OwnedEvent, SearchObserver};
use super::ordering::{SearchView, ValueOrder, VariableOrder};
use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::model::Solution;

/// What [`Solver::next_step`] hands out: the next event of the search, owning its data, or
/// how the search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SearchStep {
    /// An event of the stream (see [`Event`]); a solution's comes as
    /// [`SearchStep::Solution`].
    Event(OwnedEvent),
    /// A solution: the stream's [`Event::Solution`], with the solution.
    Solution {
        /// The solution's node.
        node: u64,
        /// Decisions on the path.
        depth: usize,
        /// The solution.
        solution: Solution,
    },
    /// The search is over: there is no further solution. Every later call says so again.
    Exhausted,
    /// A limit stopped the search. Raise it ([`Solver::set_decision_limit`],
    /// [`Solver::set_time_limit`]) and step again to go on.
    Stopped(Limit),
}

impl SearchStep {
    /// The event of the stream this step is, borrowing its data: what an observer (a
    /// [`Trace`](crate::teach::trace::Trace), a [`SearchTree`](crate::teach::tree::SearchTree))
    /// receives. `None` when the search is over.
    pub fn event(&self) -> Option<Event<'_>> {
        match *self {
            SearchStep::Event(ref event) => Some(event.as_event()),
            SearchStep::Solution { node, depth, .. } => Some(Event::Solution { node, depth }),
            SearchStep::Exhausted | SearchStep::Stopped(_) => None,
        }
    }
}

/// One event of a search driven by [`Solver::step`]: the [`Event`]s of the stream, owning
/// their domains, and how the search ended.
#[deprecated(
    since = "0.3.0",
    note = "use `Solver::next_step`, which hands out `SearchStep`s (the events as `OwnedEvent`s)"
)]
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StepEvent {
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
    /// The propagation of `node` reached a fixpoint without failing (see
    /// [`Event::Propagated`]): the state to show after a node, such as a puzzle's board. Every
    /// node that does not fail has one, after its [`Pruned`](StepEvent::Pruned) events and
    /// before its solution if it is one; the root's (node 0) comes before the first decision.
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
    /// A solution: see [`Event::Solution`].
    Solution {
        /// The solution's node.
        node: u64,
        /// The solution.
        solution: Solution,
    },
    /// The search is over: there is no further solution. Every later call says so again.
    Exhausted,
    /// A limit stopped the search. Raise it ([`Solver::set_decision_limit`],
    /// [`Solver::set_time_limit`]) and step again to go on.
    Stopped(Limit),
}

/// The observer of a step: the solver's own, and a record of every event.
struct Recorder<'a, O> {
    inner: &'a mut O,
    steps: &'a mut std::collections::VecDeque<SearchStep>,
}

impl<O: SearchObserver> SearchObserver for Recorder<'_, O> {
    fn observes_propagation(&self) -> bool {
        true
    }
    fn on_event(&mut self, event: &Event<'_>) {
        // The solver's own observer sees only what it asked for.
        if !matches!(event, Event::Pruned { .. } | Event::Propagated { .. })
            || self.inner.observes_propagation()
        {
            self.inner.on_event(event);
        }
        self.steps
            .push_back(SearchStep::Event(event.to_owned_event()));
    }
}

#[allow(deprecated, reason = "the deprecated `StepEvent` itself")]
impl StepEvent {
    /// The step as the deprecated [`Solver::step`] hands it out: `None` for the events it
    /// leaves out (backtracks, improvements).
    fn from_step(step: SearchStep) -> Option<StepEvent> {
        Some(match step {
            SearchStep::Event(event) => match event {
                OwnedEvent::Node {
                    node,
                    parent,
                    var,
                    value,
                    kind,
                    depth,
                } => StepEvent::Node {
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
                    before,
                    after,
                    constraint,
                } => StepEvent::Pruned {
                    node,
                    var,
                    before,
                    after,
                    constraint,
                },
                OwnedEvent::Propagated { node, domains } => StepEvent::Propagated { node, domains },
                OwnedEvent::ArcQueue { node, arcs } => StepEvent::ArcQueue { node, arcs },
                OwnedEvent::Revise {
                    node,
                    from,
                    to,
                    removed,
                    queue,
                } => StepEvent::Revise {
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
                } => StepEvent::Failure {
                    node,
                    constraint,
                    var,
                    depth,
                },
                OwnedEvent::Backtrack { .. }
                | OwnedEvent::Backjump { .. }
                | OwnedEvent::Learned { .. }
                | OwnedEvent::NogoodUsed { .. }
                | OwnedEvent::Solution { .. }
                | OwnedEvent::Improved { .. } => return None,
            },
            SearchStep::Solution { node, solution, .. } => StepEvent::Solution { node, solution },
            SearchStep::Exhausted => StepEvent::Exhausted,
            SearchStep::Stopped(limit) => StepEvent::Stopped(limit),
        })
    }
}

impl<V: VariableOrder, W: ValueOrder, O: SearchObserver> Solver<'_, V, W, O> {
    /// The next event of the search, running it one node further when the events of the last
    /// node have all been handed out.
    ///
    /// Stepping and the other ways to search share one search: [`Solver::next_solution`] after
    /// a few steps goes on from there (events not yet handed out are then dropped). Restarts
    /// ([`Solver::with_restarts`]) are not used by steps.
    ///
    /// To show where the search stands after each node (a puzzle's board), use the domains of
    /// its [`OwnedEvent::Propagated`]: they are in step with the events handed out, while
    /// [`Solver::domains`] may be ahead of them (the engine runs a node at a time, and a failed
    /// decision's events come out after the engine has moved on to its refutation).
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::{BranchKind, OwnedEvent, SearchStep};
    ///
    /// let queens = Queens::new(4)?;
    /// let mut solver = queens.model().solver();
    /// // The root's propagation comes first: no queen is placed yet.
    /// assert!(matches!(
    ///     solver.next_step(),
    ///     SearchStep::Event(OwnedEvent::Propagated { node: 0, .. })
    /// ));
    /// let first = solver.next_step();
    /// assert!(matches!(
    ///     first,
    ///     SearchStep::Event(OwnedEvent::Node { value: 1, kind: BranchKind::Equal, depth: 1, .. })
    /// ));
    /// // Where the search stands: one decision, row 1 = 1.
    /// assert_eq!(solver.decisions(), [(queens.rows()[0], 1)]);
    /// // The board after each node that does not fail, up to the first solution.
    /// let mut boards = Vec::new();
    /// let solution = loop {
    ///     match solver.next_step() {
    ///         SearchStep::Event(OwnedEvent::Propagated { domains, .. }) => {
    ///             boards.push(queens.board_at(&domains))
    ///         }
    ///         SearchStep::Solution { solution, .. } => break solution,
    ///         SearchStep::Exhausted | SearchStep::Stopped(_) => unreachable!(),
    ///         _ => {}
    ///     }
    /// };
    /// // After row 1 = 1: its queen, and the squares still open to the others.
    /// assert_eq!(boards[0], "Q...\n..oo\n.o.o\n.oo.\n");
    /// assert_eq!(queens.columns(&solution), [2, 4, 1, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If the value order returns a value that is not in the domain of the chosen variable.
    pub fn next_step(&mut self) -> SearchStep {
        if let Some(step) = self.steps.pop_front() {
            return step;
        }
        self.start();
        let Some(engine) = self.engine.as_mut() else {
            unreachable!("start builds the engine");
        };
        let pause = Pause {
            nodes: Some(self.stats.decisions + 1),
            ..Pause::default()
        };
        let budget = Budget::start(&self.plan.config.limits, Clock::start(self.stats.elapsed))
            .with_pause(pause);
        let mut observer = Recorder {
            inner: &mut self.observer,
            steps: &mut self.steps,
        };
        let mut run = Run {
            model: self.model,
            variable_order: &mut self.variable_order,
            value_order: &mut self.value_order,
            observer: &mut observer,
            budget: &budget,
            stats: &mut self.stats,
        };
        let step = engine.next(&mut run);
        self.stats.elapsed = budget.elapsed();
        match step {
            Step::Solution => {
                // The solution's event, last in the queue, comes with the solution.
                let solution = Solution::from_domains(self.model, engine.domains());
                let (node, depth) = match self.steps.pop_back() {
                    Some(SearchStep::Event(OwnedEvent::Solution { node, depth })) => (node, depth),
                    _ => unreachable!("the engine reports a solution's event before returning it"),
                };
                self.steps.push_back(SearchStep::Solution {
                    node,
                    depth,
                    solution,
                });
            }
            Step::Exhausted => self.steps.push_back(SearchStep::Exhausted),
            Step::Limit(_) if budget.paused() => {}
            Step::Limit(limit) => self.steps.push_back(SearchStep::Stopped(limit)),
        }
        // A pause before the first decision of a step cannot leave the queue empty: the step
        // made a decision (its node event) or ended the search.
        self.steps.pop_front().unwrap_or(SearchStep::Exhausted)
    }

    /// The next event of the search, as [`StepEvent`]: [`Solver::next_step`] without the
    /// backtracks.
    ///
    /// # Panics
    ///
    /// If the value order returns a value that is not in the domain of the chosen variable.
    #[deprecated(
        since = "0.3.0",
        note = "use `Solver::next_step`, which hands out `SearchStep`s (the events as `OwnedEvent`s)"
    )]
    #[allow(deprecated, reason = "the deprecated `step` itself")]
    pub fn step(&mut self) -> StepEvent {
        loop {
            if let Some(event) = StepEvent::from_step(self.next_step()) {
                return event;
            }
        }
    }

    /// The domains where the search stands (the model's own before it starts): after a
    /// solution, the solution's; after a step, those of the last node the engine made, after
    /// its propagation. The engine may be ahead of the events [`Solver::step`] has handed out:
    /// when a failed decision's events are handed out, it has already moved on to the
    /// refutation. The domains in step with the events come with [`OwnedEvent::Propagated`].
    pub fn domains(&self) -> &[Domain] {
        match &self.engine {
            Some(engine) if self.started => engine.domains(),
            _ => self.model.initial_domains(),
        }
    }

    /// The decisions on the path to where the search stands, from the root: `(var, value)` for
    /// each `var = value` (or `var ≤ value` with [`Branching::Split`]).
    pub fn decisions(&self) -> Vec<(VarId, i32)> {
        let Some(engine) = self.engine.as_ref().filter(|_| self.started) else {
            return Vec::new();
        };
        engine
            .decisions()
            .map(|(index, value)| {
                let var = VarId {
                    model: self.model.id(),
                    index,
                };
                (var, value)
            })
            .collect()
    }

    /// A read-only view of where the search stands, as variable and value orders see it.
    pub fn view(&self) -> SearchView<'_> {
        SearchView::new(self.model, self.domains(), self.decisions().len())
            .with_branch(self.plan.branch.as_deref())
            .with_branching(self.plan.config.branching())
    }

    /// Changes the decision limit without restarting the search: a search stopped by the old
    /// limit goes on up to the new one at the next call (`None` removes the limit).
    pub fn set_decision_limit(&mut self, nodes: Option<u64>) {
        self.plan.config.set_decision_limit(nodes);
    }

    /// Changes the time limit without restarting the search (`None` removes it).
    pub fn set_time_limit(&mut self, time: Option<Duration>) {
        self.plan.config.set_time_limit(time);
    }
}
