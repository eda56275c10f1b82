//! Driving a search one step at a time: [`Solver::step`], and a read-only look at where the
//! search stands ([`Solver::domains`], [`Solver::decisions`]).
//!
//! A step runs the engine up to its next decision, with an observer that keeps every event of
//! the stream (as [`StepEvent`]s, owning their domains) beside the solver's own observer; the
//! events are then handed out one per call. The engine pauses before a decision exactly as it
//! does for a decision limit, so a step costs what the same part of an uninterrupted search costs,
//! plus the copies of the domains the events carry: the domains a propagator narrowed, and
//! every variable's domain once per node that does not fail ([`StepEvent::Propagated`]).
//!
//! The engine runs ahead of the events handed out: after a decision that fails it has already
//! moved on to the refutation when the decision's [`StepEvent::Node`] is handed out, and
//! [`Solver::domains`] shows where it stands. The domains at a node, in step with the events,
//! are those of its [`StepEvent::Propagated`] (or, at a failure, the node's parent's narrowed
//! by the branch and the [`StepEvent::Pruned`] events in between).

use std::time::Duration;

#[cfg(doc)]
use super::Branching;
use super::Solver;
use super::engine::{Run, Step};
use super::limits::{Budget, Clock, Limit, Pause};
use super::observer::{BranchKind, Event, SearchObserver};
use super::ordering::{SearchView, ValueOrder, VariableOrder};
use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::model::Solution;

/// One event of a search driven by [`Solver::step`]: the [`Event`]s of the stream, owning
/// their domains, and how the search ended.
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
    events: &'a mut std::collections::VecDeque<StepEvent>,
}

impl<O: SearchObserver> SearchObserver for Recorder<'_, O> {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        self.inner.decision(var, value, depth);
    }
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        self.inner.failure(constraint, depth);
    }
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        self.inner.backtrack(var, value, depth);
    }
    fn solution(&mut self, depth: usize) {
        self.inner.solution(depth);
    }
    fn observes_propagation(&self) -> bool {
        true
    }
    fn event(&mut self, event: &Event<'_>) {
        // The solver's own observer sees only what it asked for.
        if !matches!(event, Event::Pruned { .. } | Event::Propagated { .. })
            || self.inner.observes_propagation()
        {
            self.inner.event(event);
        }
        let owned = match *event {
            Event::Node {
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
            Event::Pruned {
                node,
                var,
                before,
                after,
                constraint,
            } => StepEvent::Pruned {
                node,
                var,
                before: before.clone(),
                after: after.clone(),
                constraint,
            },
            Event::Failure {
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
            Event::Propagated { node, domains } => StepEvent::Propagated {
                node,
                domains: domains.to_vec(),
            },
            Event::ArcQueue { node, arcs } => StepEvent::ArcQueue {
                node,
                arcs: arcs.to_vec(),
            },
            Event::Revise {
                node,
                from,
                to,
                removed,
                queue,
            } => StepEvent::Revise {
                node,
                from,
                to,
                removed: removed.to_vec(),
                queue: queue.to_vec(),
            },
            Event::Solution { .. } | Event::Improved { .. } => return,
        };
        self.events.push_back(owned);
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
    /// its [`StepEvent::Propagated`]: they are in step with the events handed out, while
    /// [`Solver::domains`] may be ahead of them (the engine runs a node at a time, and a failed
    /// decision's events come out after the engine has moved on to its refutation).
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::{StepEvent, BranchKind};
    ///
    /// let queens = Queens::new(4)?;
    /// let mut solver = queens.model().solver();
    /// // The root's propagation comes first: no queen is placed yet.
    /// assert!(matches!(solver.step(), StepEvent::Propagated { node: 0, .. }));
    /// let first = solver.step();
    /// assert!(matches!(first, StepEvent::Node { value: 1, kind: BranchKind::Equal, depth: 1, .. }));
    /// // Where the search stands: one decision, row 1 = 1.
    /// assert_eq!(solver.decisions(), [(queens.rows()[0], 1)]);
    /// // The board after each node that does not fail, up to the first solution.
    /// let mut boards = Vec::new();
    /// let solution = loop {
    ///     match solver.step() {
    ///         StepEvent::Propagated { domains, .. } => boards.push(queens.board_at(&domains)),
    ///         StepEvent::Solution { solution, .. } => break solution,
    ///         StepEvent::Exhausted | StepEvent::Stopped(_) => unreachable!(),
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
    pub fn step(&mut self) -> StepEvent {
        if let Some(event) = self.steps.pop_front() {
            return event;
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
            events: &mut self.steps,
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
                let node = engine.node();
                let solution = Solution::from_domains(self.model, engine.domains());
                self.steps.push_back(StepEvent::Solution { node, solution });
            }
            Step::Exhausted => self.steps.push_back(StepEvent::Exhausted),
            Step::Limit(_) if budget.paused() => {}
            Step::Limit(limit) => self.steps.push_back(StepEvent::Stopped(limit)),
        }
        // A pause before the first decision of a step cannot leave the queue empty: the step
        // made a decision (its node event) or ended the search.
        self.steps.pop_front().unwrap_or(StepEvent::Exhausted)
    }

    /// The domains where the search stands (the model's own before it starts): after a
    /// solution, the solution's; after a step, those of the last node the engine made, after
    /// its propagation. The engine may be ahead of the events [`Solver::step`] has handed out:
    /// when a failed decision's events are handed out, it has already moved on to the
    /// refutation. The domains in step with the events come with [`StepEvent::Propagated`].
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
