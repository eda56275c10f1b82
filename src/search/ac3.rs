//! AC-3 as the textbook writes it (Mackworth 1977; AIMA's AC-3 and MAC), over the arcs of a
//! [`ConstraintGraph`]: the inference of a search with [`Propagation::Ac3`].
//!
//! ```text
//! AC-3(queue):
//!   while queue is not empty:
//!     (Xi, Xj) ← pop the front of queue
//!     if REVISE(Xi, Xj):                   # removed every a of Di with no b in Dj allowed
//!       if Di is empty: fail
//!       for each neighbour Xk of Xi, k ≠ j: push (Xk, Xi) unless it is already queued
//! ```
//!
//! The queue is first in, first out; an arc already waiting is not queued a second time. It
//! starts, at the root, with every arc of the graph in [`ConstraintGraph::arcs`] order (after
//! the unary constraints are applied); after a branch on `x` (`x = v`, `x ≠ v`, `x ≤ v`,
//! `x > v`), with the arcs `(Xk, x)` for each neighbour `Xk` of `x` that is not fixed, in
//! neighbour order: AIMA's MAC, whose queue starts with the arcs from the unassigned
//! neighbours of the variable just assigned (a variable with one value is assigned here;
//! with AIMA's counting, where every variable is assigned by a decision, only a decision
//! assigns one).
//!
//! Cost: a revision of `(Xi, Xj)` tests at most `|Di|·|Dj|` pairs; AC-3 revises an arc at
//! most `d` times per run, O(e·d³) in all for `e` edges and `d` values.
//!
//! [`Propagation::Ac3`]: crate::Propagation::Ac3

use std::sync::Arc;

use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::kernel::trail::Trail;
use crate::model::Model;
use crate::search::constraint_graph::ConstraintGraph;
use crate::search::observer::{Event, SearchObserver};
use crate::search::stats::SearchStats;

/// Where a run of AC-3 starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Start {
    /// Every arc (the root, or after a bound changed any domain).
    All,
    /// After a branch on this variable: the arcs into it from its unfixed neighbours.
    Into(VarId),
}

/// A run of AC-3 emptied `var`'s domain, revising an arc of a constraint of `constraint`'s
/// edge.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Wipeout {
    pub(crate) var: VarId,
    pub(crate) constraint: ConstraintId,
}

/// The state of AC-3 in one search: the graph, the queue and scratch space.
#[derive(Debug, Clone)]
pub(crate) struct Ac3 {
    graph: Arc<ConstraintGraph>,
    /// The arcs pushed in this run, and their variables; the queue is `[head..]`.
    queue: Vec<u32>,
    pairs: Vec<(VarId, VarId)>,
    head: usize,
    /// Whether each arc is waiting in the queue.
    queued: Vec<bool>,
    removed: Vec<i32>,
    values: Vec<i32>,
}

impl Ac3 {
    pub(crate) fn new(graph: Arc<ConstraintGraph>) -> Self {
        let arcs = graph.num_arcs();
        Ac3 {
            graph,
            queue: Vec::with_capacity(arcs),
            pairs: Vec::with_capacity(arcs),
            head: 0,
            queued: vec![false; arcs],
            removed: Vec::new(),
            values: Vec::new(),
        }
    }

    fn push(&mut self, arc: u32) {
        if !self.queued[arc as usize] {
            self.queued[arc as usize] = true;
            self.queue.push(arc);
            self.pairs.push(self.graph.arc(arc));
        }
    }

    fn clear(&mut self) {
        for &arc in &self.queue[self.head..] {
            self.queued[arc as usize] = false;
        }
        self.queue.clear();
        self.pairs.clear();
        self.head = 0;
    }

    /// Runs AC-3 from `start` at `node`, narrowing `domains` (every removal on `trail`),
    /// counting revisions and removals in `stats` and reporting each revision to `observer`
    /// ([`Event::ArcQueue`] first, then one [`Event::Revise`] per arc; [`Event::Pruned`] too
    /// for an observer of propagation). With `assigned` (AIMA's counting, where a variable is
    /// assigned by a decision even when fixed), the arcs of [`Start::Into`] come from the
    /// neighbours not assigned, fixed or not; without it, from those not fixed.
    #[allow(
        clippy::too_many_arguments,
        reason = "the engine's state, borrowed field by field"
    )]
    pub(crate) fn run<O: SearchObserver>(
        &mut self,
        model: &Model,
        domains: &mut [Domain],
        trail: &mut Trail,
        start: Start,
        assigned: Option<&[bool]>,
        observer: &mut O,
        stats: &mut SearchStats,
        node: u64,
    ) -> Result<(), Wipeout> {
        self.clear();
        let watching = observer.observes_propagation();
        match start {
            Start::All => {
                // Node consistency first: the unary constraints, once.
                let removals = self.graph.unary_removals(model, domains, &mut self.values);
                for (var, value, constraint) in removals {
                    let before = watching.then(|| domains[var.index()].clone());
                    domains[var.index()].remove(value, &mut trail.recorder(var.index));
                    if let Some(before) = &before {
                        observer.on_event(&Event::Pruned {
                            node,
                            var,
                            before,
                            after: &domains[var.index()],
                            constraint,
                        });
                    }
                    if domains[var.index()].is_empty() {
                        return Err(Wipeout { var, constraint });
                    }
                }
                for arc in 0..self.graph.num_arcs() as u32 {
                    self.push(arc);
                }
            }
            Start::Into(x) => {
                let graph = Arc::clone(&self.graph);
                for &arc in graph.incoming(x) {
                    let (from, _) = graph.arc(arc);
                    let open = match assigned {
                        Some(assigned) => !assigned[from.index()],
                        None => !domains[from.index()].is_fixed(),
                    };
                    if open {
                        self.push(arc);
                    }
                }
            }
        }
        observer.on_event(&Event::ArcQueue {
            node,
            arcs: &self.pairs,
        });
        let graph = Arc::clone(&self.graph);
        while self.head < self.queue.len() {
            let arc = self.queue[self.head];
            self.head += 1;
            self.queued[arc as usize] = false;
            let (from, to) = graph.arc(arc);
            stats.revisions += 1;
            // REVISE(from, to): every value of `from` with no support left in `to`.
            self.removed.clear();
            {
                let (di, dj) = (&domains[from.index()], &domains[to.index()]);
                for a in di.iter() {
                    let supported = dj
                        .iter()
                        .any(|b| graph.allows(model, arc, a, b, &mut self.values));
                    if !supported {
                        self.removed.push(a);
                    }
                }
            }
            if self.removed.is_empty() {
                observer.on_event(&Event::Revise {
                    node,
                    from,
                    to,
                    removed: &[],
                    queue: &self.pairs[self.head..],
                });
                continue;
            }
            stats.removals += self.removed.len() as u64;
            let before = watching.then(|| domains[from.index()].clone());
            for &a in &self.removed {
                domains[from.index()].remove(a, &mut trail.recorder(from.index));
            }
            let wiped = domains[from.index()].is_empty();
            if !wiped {
                for &next in graph.incoming(from) {
                    if graph.arc(next).0 != to {
                        self.push(next);
                    }
                }
            }
            observer.on_event(&Event::Revise {
                node,
                from,
                to,
                removed: &self.removed,
                queue: &self.pairs[self.head..],
            });
            let constraint = graph.arc_constraint(arc);
            if let Some(before) = &before {
                observer.on_event(&Event::Pruned {
                    node,
                    var: from,
                    before,
                    after: &domains[from.index()],
                    constraint,
                });
            }
            if wiped {
                self.clear();
                return Err(Wipeout {
                    var: from,
                    constraint,
                });
            }
        }
        self.clear();
        Ok(())
    }
}
