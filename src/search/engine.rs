//! The depth-first search loop, on an explicit stack.
//!
//! The engine is a resumable state machine: `next` runs until it finds a solution, exhausts the
//! tree or hits a limit, and returns; calling it again resumes where it stopped. The stack holds
//! one frame per decision (the variable and value); the trail holds what undoing a frame takes.
//!
//! ```text
//! loop:
//!   if the last step failed: backtrack — pop the last decision x = v, undo its level,
//!                            post x ≠ v at the parent level and propagate (repeat on failure;
//!                            an empty stack means the tree is exhausted)
//!   if every variable is fixed: return Solved (resuming treats it as a failure)
//!   if a limit is reached:   return LimitReached (the node is kept for resuming)
//!   decide: choose x and v, open a level, fix x = v, propagate
//! ```

use std::sync::Arc;

use crate::constraints::{Change, Conflict, PropagationContext, PropagatorSetup};
use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::kernel::explain::Literal;
use crate::kernel::propagation::{
    Fixpoint, Propagators, Queue, RunHook, Wake, Watchers, fixpoint, schedule_all,
};
use crate::kernel::trail::Trail;
use crate::model::Model;
use crate::search::ac3::{Ac3, Start, Wipeout};
use crate::search::backjump::{Backjump, Cause, LevelSet, Recorder, backjumps_on};
use crate::search::config::Plan;
use crate::search::learning::Learning;
use crate::search::learning::analysis::{Learned, analyze};
use crate::search::learning::nogoods::Unit;
use crate::search::limits::{Budget, Limit};
use crate::search::observer::{BranchKind, Event, SearchObserver};
use crate::search::ordering::{SearchView, ValueOrder, VariableOrder};
use crate::search::pairs::{free_domain, without_clashes};
use crate::search::sizes::SizeIndex;
use crate::search::stats::SearchStats;
use crate::search::{Branching, PropagationLevel};

use smallvec::SmallVec;

/// How a call of [`Engine::next`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Every variable is fixed; the domains hold the solution.
    Solution,
    /// No further solution.
    Exhausted,
    /// Stopped by a limit; the search can be resumed.
    Limit(Limit),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Nothing done yet: the root must be propagated.
    Root,
    /// At a consistent node.
    Running,
    /// At a solution: resuming must leave it.
    AtSolution,
    /// In the middle of a fixpoint a limit interrupted: resuming must finish it.
    Interrupted,
    /// The tree is exhausted.
    Done,
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    var: u32,
    value: i32,
    /// The node the decision was made at (its refutation's parent).
    parent: u64,
    /// With d-way branching: where the values of `var` tried at `parent` start in
    /// `Engine::tried` (they run to its end).
    tried: u32,
    /// Every variable before this index is fixed (or assigned, in textbook mode) at the node
    /// this decision made and below it: where the search for a variable to branch on starts.
    /// Domains only shrink down a path, so the hint stays true until the frame is popped.
    open_from: u32,
}

/// The next child of a d-way node, chosen on backtracking and made by the next decision.
#[derive(Debug, Clone, Copy)]
struct Sibling {
    var: u32,
    value: i32,
    parent: u64,
    tried: u32,
}

/// Everything a search call borrows from its solver.
pub(crate) struct Run<'a, V, W, O> {
    pub(crate) model: &'a Model,
    pub(crate) variable_order: &'a mut V,
    pub(crate) value_order: &'a mut W,
    pub(crate) observer: &'a mut O,
    pub(crate) budget: &'a Budget<'a>,
    pub(crate) stats: &'a mut SearchStats,
}

/// The state of one search: domains, trail (with the propagators' reversible state), the
/// propagators, queue and decision stack.
#[derive(Debug)]
pub(crate) struct Engine<'m> {
    domains: Vec<Domain>,
    trail: Trail,
    propagators: Propagators<'m>,
    /// Scratch space: the changes handed to the propagator that runs.
    changes: Vec<Change>,
    queue: Queue,
    watchers: Watchers,
    frames: Vec<Frame>,
    phase: Phase,
    level: PropagationLevel,
    branching: Branching,
    /// The current node of the tree, and the number of nodes made so far (the root is node 0).
    node: u64,
    nodes_made: u64,
    /// D-way branching: the values tried at each node of the path, and the child to make next.
    tried: Vec<i32>,
    sibling: Option<Sibling>,
    /// Textbook forward checking; `scratch` holds the domains of its pair tests.
    textbook: bool,
    /// AIMA's counting ([`Counting::Aima`](crate::Counting::Aima), always with textbook
    /// forward checking): every variable is assigned by a decision, fixed or not, and
    /// `decided` marks those a decision assigned (the others are still to branch on).
    assigns_all: bool,
    /// AIMA's plain backtracking on a binary model: a decision is checked against the
    /// decided variables only (see [`Plan::checks_assigned`]); nothing else propagates.
    checks_assigned: bool,
    decided: Vec<bool>,
    /// For textbook forward checking and AIMA's plain backtracking: the constraints on each
    /// variable, in the model's order (empty otherwise).
    constraints_on: Vec<SmallVec<[u32; 8]>>,
    scratch: Vec<Domain>,
    /// The variables to branch on, if not all (indexed by variable); the others are fixed
    /// after them, in input order.
    branch: Option<Arc<[bool]>>,
    /// Projection ([`Engine::set_projection`]): the variables whose values tell solutions
    /// apart (indexed by variable), branched on before the others.
    project: Option<Arc<[bool]>>,
    /// [`Frame::open_from`] of the root.
    root_open_from: u32,
    /// AC-3 instead of the propagators' fixpoint, and the variable of the branch whose
    /// propagation is next (`None` at the root: every arc).
    ac3: Option<Box<Ac3>>,
    branched: Option<VarId>,
    /// Whether the last failure of textbook forward checking was a constraint's check of
    /// assigned variables (the decision's value did not pass AIMA's consistency check).
    rejected: bool,
    /// Branch and bound: `Σ aᵢ·xᵢ ≤ limit` enforced at every node after the fixpoint.
    objective: Option<Bound>,
    /// The index of domain sizes behind [`SearchView::smallest_domain`], kept in step with the
    /// domains once an order has asked for it.
    sizes: SizeIndex,
    /// The limit that interrupted the last fixpoint, until the search returns it.
    halted: Option<Limit>,
    /// Whether the interrupted fixpoint is a decision's, still to be counted in `nassigns`
    /// (which asks whether it failed).
    uncounted: bool,
    /// Conflict-directed backjumping: the causes of the removals on the path (`None` without
    /// it, and then nothing of it is on the way of the search but a test per node).
    backjump: Option<Box<Backjump<Learning>>>,
}

/// The bound of a branch-and-bound search: the terms of the objective (negated for a
/// maximisation) must sum to at most `limit`.
#[derive(Debug, Clone)]
pub(crate) struct Bound {
    pub(crate) terms: Vec<(i64, VarId)>,
    pub(crate) limit: i128,
}

impl<'m> Engine<'m> {
    /// An engine at the root of a search of `model` as `plan` says: its propagation (the
    /// constraints' level, textbook forward checking or AC-3), branching, decision variables
    /// and projection, read here once. The one constructor the solver, the threads of a
    /// parallel search and large-neighbourhood search share.
    pub(crate) fn new(model: &'m Model, plan: &Plan) -> Self {
        let level = plan.level();
        let textbook = plan.textbook();
        let assigns_all = plan.assigns_all();
        let n = model.num_variables();
        let mut trail = Trail::with_capacity(16 * n);
        let propagators: Propagators<'m> = model
            .constraint_list()
            .iter()
            .map(|c| {
                let mut setup = PropagatorSetup::new(model.initial_domains(), &mut trail, level);
                c.propagator(&mut setup)
            })
            .collect();
        let records: Vec<bool> = propagators
            .iter()
            .map(|p| p.as_ref().is_some_and(|p| p.reads_changes()))
            .collect();
        let widest = model
            .constraint_list()
            .iter()
            .map(|c| c.scope().len())
            .max()
            .unwrap_or(0);
        Engine {
            domains: model.initial_domains().to_vec(),
            trail,
            propagators,
            changes: Vec::with_capacity(widest),
            queue: Queue::new(model.constraint_list(), &records),
            watchers: Watchers::new(model.constraint_list(), n, level, &records),
            frames: Vec::with_capacity(n),
            phase: Phase::Root,
            level,
            branching: plan.config.branching(),
            node: 0,
            nodes_made: 0,
            tried: Vec::new(),
            sibling: None,
            textbook,
            assigns_all,
            checks_assigned: checks_assigned(model, plan),
            constraints_on: if textbook || checks_assigned(model, plan) {
                constraints_by_variable(model)
            } else {
                Vec::new()
            },
            decided: vec![false; if assigns_all { n } else { 0 }],
            scratch: Vec::new(),
            ac3: plan.ac3.clone().map(|graph| Box::new(Ac3::new(graph))),
            branched: None,
            rejected: false,
            branch: plan.branch.clone(),
            project: plan.project.clone(),
            root_open_from: 0,
            objective: None,
            sizes: SizeIndex::default(),
            halted: None,
            uncounted: false,
            backjump: ((plan.config.backjumping() || plan.config.learning())
                && backjumps_on(model, plan.ac3.is_some()))
            .then(|| {
                let mut backjump = Box::new(Backjump::new(model));
                if plan.config.learning()
                    && !textbook
                    && !assigns_all
                    && !plan.checks_assigned()
                    && plan.config.branching() != Branching::DWay
                {
                    backjump.learning = Some(Box::new(Learning::new(n)));
                }
                backjump
            }),
        }
    }

    /// Whether this engine learns nogoods from its failures.
    pub(crate) fn learns(&self) -> bool {
        self.backjump.as_ref().is_some_and(|b| b.learning.is_some())
    }

    /// Goes back to the state of a new engine for `model` (which must be the model it was built
    /// for), keeping its buffers and its propagators (whose reversible state goes back to its
    /// initial values; anything else they keep is a cache, valid at any node).
    pub(crate) fn reset(&mut self, model: &Model) {
        self.domains.clone_from_slice(model.initial_domains());
        self.trail.clear();
        self.queue.clear();
        self.frames.clear();
        self.root_open_from = 0;
        self.phase = Phase::Root;
        self.node = 0;
        self.nodes_made = 0;
        self.tried.clear();
        self.sibling = None;
        self.decided.iter_mut().for_each(|d| *d = false);
        self.sizes.reset();
        self.halted = None;
        self.uncounted = false;
        self.branched = None;
        if let Some(backjump) = &mut self.backjump {
            backjump.reset();
        }
    }

    /// [`reset`](Self::reset) for a restart of the same search (the same fixes made again
    /// next, the bound only tightened): the learned nogoods still hold, and are kept.
    pub(crate) fn restart(&mut self, model: &Model) {
        let kept = self.backjump.as_mut().and_then(|b| b.learning.take());
        self.reset(model);
        if let (Some(backjump), Some(mut learning)) = (self.backjump.as_mut(), kept) {
            learning.failure = None;
            learning.at_solution = false;
            learning.nogoods.undone_to(0);
            backjump.learning = Some(learning);
        }
    }

    /// Sets (or clears) the bound of a branch-and-bound search; it holds at every node
    /// propagated from now on.
    pub(crate) fn set_bound(&mut self, bound: Option<Bound>) {
        self.objective = bound;
        // Nogoods learned under another bound may not hold under this one.
        if let Some(learning) = self.backjump.as_mut().and_then(|b| b.learning.as_mut()) {
            learning.reset();
        }
    }

    /// Tightens the bound's limit (a better solution was found).
    pub(crate) fn tighten(&mut self, limit: i128) {
        if let Some(bound) = &mut self.objective {
            bound.limit = bound.limit.min(limit);
        }
    }

    /// Reports each solution once per assignment of the variables marked in `project`
    /// (`None`: every solution): the search branches on them first, and once a solution is
    /// found below the node where the last of them was fixed, the rest of that node's subtree
    /// (which holds only solutions with the same values for them) is left unexplored. The
    /// engine starts with the plan's projection; branch and bound sets none for its search.
    pub(crate) fn set_projection(&mut self, project: Option<Arc<[bool]>>) {
        self.project = project;
    }

    /// Fixes a variable before the search starts (the root propagation then takes it into
    /// account). The caller has checked that the value is in the domain.
    pub(crate) fn fix_before_search(&mut self, var: VarId, value: i32) {
        debug_assert_eq!(self.phase, Phase::Root);
        self.domains[var.index()].fix_to(value, &mut |_, _| {});
    }

    /// Narrows the domains before the search starts to `domains`, those of a node of another
    /// search of the same model: the search then explores that node's subtree.
    pub(crate) fn restrict_before_search(&mut self, domains: &[Domain]) {
        debug_assert_eq!(self.phase, Phase::Root);
        self.domains.clone_from_slice(domains);
    }

    /// Leaves the current node's subtree unexplored: the next call backtracks from it.
    pub(crate) fn skip_subtree(&mut self) {
        // Leaving a node that is no solution must not leave the projected subtree around it.
        debug_assert!(self.project.is_none(), "a projected search is not split");
        // An interrupted fixpoint is left unfinished with the node.
        self.queue.clear();
        self.uncounted = false;
        self.phase = Phase::AtSolution;
    }

    /// The current domains (a full assignment after [`Step::Solution`]).
    pub(crate) fn domains(&self) -> &[Domain] {
        &self.domains
    }

    /// The current node of the tree (the root is 0).
    pub(crate) fn node(&self) -> u64 {
        self.node
    }

    /// The decisions on the current path, from the root: variable index and value.
    pub(crate) fn decisions(&self) -> impl Iterator<Item = (u32, i32)> + '_ {
        self.frames.iter().map(|frame| (frame.var, frame.value))
    }

    pub(crate) fn next<V: VariableOrder, W: ValueOrder, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
    ) -> Step {
        let step = self.search(run);
        run.stats.domain_changes += self.trail.take_changes();
        step
    }

    /// [`next`](Self::next) without the count of domain changes.
    fn search<V: VariableOrder, W: ValueOrder, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
    ) -> Step {
        let mut failed = match self.phase {
            Phase::Done => return Step::Exhausted,
            Phase::Root => {
                // An empty domain never reaches the search, whether or not a constraint
                // watches the variable.
                if let Some(empty) = self.domains.iter().position(Domain::is_empty) {
                    let var = VarId {
                        model: run.model.id(),
                        index: empty as u32,
                    };
                    report_failure(run, 0, None, Some(var), 0);
                    self.phase = Phase::Done;
                    return Step::Exhausted;
                }
                schedule_all(&mut self.queue, run.model.num_constraints());
                self.settle(run).is_err()
            }
            Phase::AtSolution => {
                if let Some(backjump) = &mut self.backjump {
                    // A solution rests on every decision: the search goes back chronologically.
                    backjump.conflict = None;
                    if let Some(learning) = &mut backjump.learning {
                        learning.failure = None;
                        learning.at_solution = true;
                    }
                }
                self.leave_projected_subtree(run);
                true
            }
            Phase::Running => false,
            Phase::Interrupted => {
                let failed = self.settle(run).is_err();
                if self.halted.is_none() && std::mem::take(&mut self.uncounted) {
                    self.count_assignment(run, failed && self.level == PropagationLevel::None);
                }
                failed
            }
        };
        self.phase = Phase::Running;
        loop {
            if failed && !self.backtrack(run) {
                self.phase = Phase::Done;
                return Step::Exhausted;
            }
            if let Some(limit) = self.halted.take() {
                self.phase = Phase::Interrupted;
                return Step::Limit(limit);
            }
            let depth = self.frames.len();
            if let Some(sibling) = self.sibling {
                // The next value of a d-way node: a decision like any other.
                if let Some(limit) = run.budget.exceeded(run.stats.decisions) {
                    return Step::Limit(limit);
                }
                self.sibling = None;
                let var = VarId {
                    model: run.model.id(),
                    index: sibling.var,
                };
                failed = self.decide(run, var, sibling.value, sibling.parent, sibling.tried);
                continue;
            }
            let mut view =
                SearchView::new(run.model, &self.domains, depth).with_branching(self.branching);
            if self.assigns_all {
                view = view.with_decided(&self.decided);
            } else {
                if self.sizes.is_wanted() {
                    let first = self.project.as_deref().or(self.branch.as_deref());
                    self.sizes
                        .sync(&self.domains, &mut self.trail, depth, first);
                }
                view = view.with_sizes(&self.sizes);
            }
            // The projected variables first, then the decision variables, then the rest.
            let mut view = view.with_branch(self.project.as_deref().or(self.branch.as_deref()));
            if self.project.is_none() && self.branch.is_none() {
                // The variables before the first open one are skipped by every order: a
                // search in input order costs linear, not quadratic, time down a path.
                let hint = self
                    .frames
                    .last()
                    .map_or(self.root_open_from, |f| f.open_from);
                let first = view
                    .with_front(hint)
                    .unfixed()
                    .next()
                    .map_or(self.domains.len() as u32, |v| v.index);
                match self.frames.last_mut() {
                    Some(frame) => frame.open_from = first,
                    None => self.root_open_from = first,
                }
                view = view.with_front(first);
            }
            let mut chosen = run.variable_order.select_variable(&view);
            if let Some(var) = chosen {
                self.check_choice(run.model, var);
                if let Some(project) = self.project.as_deref()
                    && !project[var.index()]
                    && let Some(first) = view.unfixed().next()
                {
                    // An order that looks past the view: a projected variable still comes
                    // first, or solutions could repeat.
                    chosen = Some(first);
                }
            }
            // Once the decision variables are fixed, the others in input order.
            let decision = self.branch.as_deref().filter(|_| self.project.is_some());
            let rest = || {
                // A projected variable still open first (an order that gave up early), then
                // the decision variables, then the rest.
                view.unfixed()
                    .next()
                    .filter(|_| self.project.is_some())
                    .or_else(|| {
                        decision.and_then(|branch| view.with_branch(Some(branch)).unfixed().next())
                    })
                    .or_else(|| view.with_branch(None).unfixed().next())
            };
            let var = match chosen.or_else(rest) {
                Some(var) => {
                    debug_assert!(
                        chosen.is_some() || view.unfixed().next().is_none(),
                        "the variable order returned None early"
                    );
                    var
                }
                None => {
                    self.check_solution(run.model);
                    run.stats.solutions += 1;
                    run.observer.on_event(&Event::Solution {
                        node: self.node,
                        depth,
                    });
                    self.phase = Phase::AtSolution;
                    return Step::Solution;
                }
            };
            // Limits stop the search before a decision, not at a node that needs none.
            if let Some(limit) = run.budget.exceeded(run.stats.decisions) {
                return Step::Limit(limit);
            }
            let mut value = run.value_order.select_value(var, &view);
            let domain = &self.domains[var.index()];
            let tried = self.tried.len() as u32;
            assert!(
                domain.contains(value),
                "the value order chose {value} for {}, whose domain is {}",
                run.model.var_name(var),
                domain,
            );
            if self.branching == Branching::Split
                && Some(value) == domain.max()
                && let Some(below) = domain.below(value)
            {
                // `x ≤ max` would not split: split below the largest value instead. (A variable
                // with one value, branched on in textbook mode, keeps `x ≤ v`: one child.)
                value = below;
            }
            let parent = self.node;
            if self.backjump.is_some() {
                self.new_node_conflicts(depth);
            }
            failed = self.decide(run, var, value, parent, tried);
        }
    }

    /// Stops with a message naming the fault if a variable order broke its contract: a
    /// variable of another model, or one already fixed (branching on it would loop). Two
    /// compares on the way of every decision; the message is built out of it.
    #[inline]
    fn check_choice(&self, model: &Model, var: VarId) {
        let open = model.owns(var)
            && if self.assigns_all {
                !self.decided[var.index()]
            } else {
                !self.domains[var.index()].is_fixed()
            };
        if !open {
            self.wrong_choice(model, var);
        }
    }

    #[cold]
    #[inline(never)]
    fn wrong_choice(&self, model: &Model, var: VarId) -> ! {
        if !model.owns(var) {
            panic!(
                "the variable order chose {var:?}, which is not a variable of the model being \
                 solved"
            );
        }
        panic!(
            "the variable order chose {}, which is already {} (an order must return a variable \
             still to branch on, from SearchView::unfixed, or None)",
            model.var_name(var),
            if self.assigns_all {
                "assigned"
            } else {
                "fixed"
            },
        );
    }

    /// Makes the decision `var = value` (or `var ≤ value`) at node `parent`, and propagates it;
    /// returns whether the new node failed.
    fn decide<V: VariableOrder, W, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
        var: VarId,
        value: i32,
        parent: u64,
        tried: u32,
    ) -> bool {
        let depth = self.frames.len();
        run.stats.decisions += 1;
        self.nodes_made += 1;
        self.node = self.nodes_made;
        let open_from = self
            .frames
            .last()
            .map_or(self.root_open_from, |f| f.open_from);
        self.frames.push(Frame {
            var: var.index,
            value,
            parent,
            tried,
            open_from,
        });
        if self.branching == Branching::DWay {
            self.tried.push(value);
        }
        self.trail.push_level();
        run.stats.max_depth = run.stats.max_depth.max(depth + 1);
        run.observer.on_event(&Event::Node {
            node: self.node,
            parent,
            var,
            value,
            kind: match self.branching {
                Branching::Assign | Branching::DWay => BranchKind::Equal,
                Branching::Split => BranchKind::AtMost,
            },
            depth: depth + 1,
        });
        let before = self.before_change(var);
        let branch = match self.branching {
            Branching::Assign | Branching::DWay => self.apply(|ctx| ctx.fix(var, value)),
            Branching::Split => self.apply(|ctx| ctx.remove_above(var, value)),
        };
        if let Some(before) = before {
            self.note_decision(var, value, &before);
        }
        if self.ac3.is_some() {
            self.branched = Some(var);
        }
        if self.assigns_all {
            // The value the decision assigns: `x = v`'s, or a split `x ≤ v`'s when it leaves
            // one value. A split that leaves more assigns nothing, and `x` stays to branch on.
            let assigned = match self.branching {
                Branching::Assign | Branching::DWay => Some(value),
                Branching::Split => branch
                    .is_ok()
                    .then(|| self.domains[var.index()].value())
                    .flatten(),
            };
            if assigned.is_some() {
                self.decided[var.index()] = true;
            }
            if self.textbook || self.checks_only_assigned() {
                self.rejected = false;
                if let (true, Some(value)) = (branch.is_ok(), assigned)
                    && if self.textbook {
                        self.forward_check(run, var, value)
                    } else {
                        self.check_assigned(run, var)
                    }
                    .is_err()
                {
                    self.queue.clear();
                    self.count_assignment(run, self.rejected);
                    return true;
                }
                self.count_assignment(run, false);
                return branch.is_err() || self.settle(run).is_err();
            }
        }
        let failed = branch.is_err() || self.settle(run).is_err();
        if self.halted.is_some() {
            // Counted once the fixpoint is finished, when it is known whether it failed.
            self.uncounted = true;
            return false;
        }
        // With plain backtracking every failure is a constraint's check against the fixed
        // variables: the value did not pass AIMA's consistency check.
        let checked_only = self.level == PropagationLevel::None && self.ac3.is_none();
        self.count_assignment(run, failed && checked_only);
        failed
    }

    /// Counts a decision `x = v` in AIMA's `nassigns` unless its value was `rejected` by the
    /// consistency check against the assignment (`x ≤ v` is no assignment).
    #[inline]
    fn count_assignment<V, W, O>(&self, run: &mut Run<'_, V, W, O>, rejected: bool) {
        if self.branching != Branching::Split && !rejected {
            run.stats.nassigns += 1;
        }
    }

    /// Propagates to a fixpoint, except in textbook mode, where forward checking from the
    /// decisions is all the inference there is.
    fn settle<V: VariableOrder, W, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
    ) -> Result<(), Conflict> {
        if self.textbook || self.checks_only_assigned() {
            self.queue.clear();
            if run.observer.observes_propagation() {
                run.observer.on_event(&Event::Propagated {
                    node: self.node,
                    domains: &self.domains,
                });
            }
            if self.objective.is_none() {
                return Ok(());
            }
            // Branch and bound under textbook forward checking: the objective's bound below
            // must still hold, or every solution would pass for an improvement.
        } else if self.ac3.is_some() {
            let start = match self.branched.take() {
                Some(var) => Start::Into(var),
                None => Start::All,
            };
            self.revise_arcs(run, start)?;
        } else {
            self.propagate(run)?;
        }
        // Branch and bound: the objective's bound, then the fixpoint again, until both hold.
        while self.objective.is_some() && self.halted.is_none() {
            match self.bound_pass() {
                Ok(false) => break,
                Ok(true) if self.ac3.is_some() => self.revise_arcs(run, Start::All)?,
                Ok(true) => self.propagate(run)?,
                Err(Conflict) => {
                    self.queue.clear();
                    if let Some(backjump) = &mut self.backjump {
                        let reason = backjump.unexplained.take();
                        if let Some(learning) = &mut backjump.learning {
                            learning.failure = reason;
                        } else {
                            backjump.conflict = reason.map(|reason| {
                                backjump.trace(run.model, &reason, &LevelSet::default())
                            });
                        }
                    }
                    report_failure(run, self.node, None, None, self.frames.len());
                    return Err(Conflict);
                }
            }
        }
        Ok(())
    }

    /// One bounds pass of `Σ aᵢ·xᵢ ≤ limit`; returns whether a domain changed.
    fn bound_pass(&mut self) -> Result<bool, Conflict> {
        let Some(bound) = self.objective.take() else {
            return Ok(false);
        };
        let result = self.apply_bound(&bound);
        self.objective = Some(bound);
        result
    }

    fn apply_bound(&mut self, bound: &Bound) -> Result<bool, Conflict> {
        let mut least: i128 = 0;
        for &(a, var) in &bound.terms {
            let d = &self.domains[var.index()];
            let (min, max) = (d.min().ok_or(Conflict)?, d.max().ok_or(Conflict)?);
            let end = if a > 0 { min } else { max };
            least += i128::from(a) * i128::from(end);
        }
        let slack = bound.limit - least;
        // Under backjumping, the bounds the slack was computed from are the reason of what
        // this pass removes, and of its failure.
        let reason = if self.backjump.is_some() {
            Some(self.bound_reason(bound))
        } else {
            None
        };
        if slack < 0 {
            self.bound_failed(reason.as_deref());
            return Err(Conflict);
        }
        let clamp = |v: i128| v.clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32;
        let mut changed = false;
        for &(a, var) in &bound.terms {
            let d = &self.domains[var.index()];
            let (min, max) = (d.min().ok_or(Conflict)?, d.max().ok_or(Conflict)?);
            // a·x may exceed its least value by at most the slack; for a < 0, `slack / a` is
            // `-(slack / |a|)` (slack ≥ 0).
            let a = i128::from(a);
            let before = self.before_change(var);
            let result = if a > 0 {
                let limit = clamp(i128::from(min) + slack / a);
                self.apply_changed(|ctx| ctx.remove_above(var, limit))
            } else {
                let limit = clamp(i128::from(max) + slack / a);
                self.apply_changed(|ctx| ctx.remove_below(var, limit))
            };
            if let (Some(backjump), Some(before), Some(reason)) =
                (&mut self.backjump, &before, &reason)
            {
                let cause = backjump.because(reason);
                backjump.note(var.index, before, &self.domains[var.index()], cause);
            }
            match result {
                Ok(c) => changed |= c,
                Err(Conflict) => {
                    self.bound_failed(reason.as_deref());
                    return Err(Conflict);
                }
            }
        }
        Ok(changed)
    }

    /// Under backjumping: the bounds of the objective's terms a bounds pass reads, the reason
    /// of what it removes.
    #[cold]
    #[inline(never)]
    fn bound_reason(&self, bound: &Bound) -> Vec<Literal> {
        bound
            .terms
            .iter()
            .filter_map(|&(a, var)| {
                let d = &self.domains[var.index()];
                Some(if a > 0 {
                    Literal::Ge(var, d.min()?)
                } else {
                    Literal::Le(var, d.max()?)
                })
            })
            .collect()
    }

    /// Under backjumping, the conflict set of the objective's bound failing for `reason`.
    fn bound_failed(&mut self, reason: Option<&[Literal]>) {
        if let (Some(backjump), Some(reason)) = (&mut self.backjump, reason) {
            backjump.unexplained = Some(reason.to_vec());
        }
    }

    /// Undoes decisions until a refutation propagates without failure.
    /// Returns false when the stack runs empty: the tree is exhausted.
    fn backtrack<V: VariableOrder, W: ValueOrder, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
    ) -> bool {
        if self.backjump.is_some() {
            return self.backjump(run);
        }
        while let Some(frame) = self.pop_frame(run) {
            let depth = self.frames.len();
            let var = VarId {
                model: run.model.id(),
                index: frame.var,
            };
            if self.branching == Branching::DWay {
                // The parent's next value, if one is left: the next decision makes it.
                self.node = frame.parent;
                match self.untried_value(run, var, frame.tried as usize) {
                    Some(value) => {
                        self.sibling = Some(Sibling {
                            var: frame.var,
                            value,
                            parent: frame.parent,
                            tried: frame.tried,
                        });
                        return true;
                    }
                    None => {
                        self.tried.truncate(frame.tried as usize);
                        continue;
                    }
                }
            }
            self.nodes_made += 1;
            self.node = self.nodes_made;
            run.stats.refutations += 1;
            run.observer.on_event(&Event::Node {
                node: self.node,
                parent: frame.parent,
                var,
                value: frame.value,
                kind: match self.branching {
                    Branching::Assign | Branching::DWay => BranchKind::NotEqual,
                    Branching::Split => BranchKind::Above,
                },
                depth,
            });
            let refutation = match self.branching {
                Branching::Assign | Branching::DWay => {
                    self.apply(|ctx| ctx.remove(var, frame.value))
                }
                // `x > v`: `v` is below the largest value, so `v + 1` does not overflow.
                Branching::Split => self.apply(|ctx| ctx.remove_below(var, frame.value + 1)),
            };
            if refutation.is_err() {
                report_failure(run, self.node, None, Some(var), depth);
                continue;
            }
            if self.ac3.is_some() {
                self.branched = Some(var);
            }
            if self.settle(run).is_ok() {
                return true;
            }
        }
        false
    }

    /// Conflict-directed backjumping: goes back to the deepest decision of the failure's
    /// conflict set, undoing the decisions below it untried, and refutes it (or, with d-way
    /// branching, tries the next value of its variable), with the rest of the conflict set as
    /// the refutation's reason; repeats on failure. Returns false when no decision is left.
    #[cold]
    #[inline(never)]
    fn backjump<V: VariableOrder, W: ValueOrder, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
    ) -> bool {
        if self.learns()
            && let Some(resumed) = self.learn(run)
        {
            return resumed;
        }
        let model = run.model;
        let mut conflict = match self.backjump.as_mut() {
            Some(backjump) => backjump.take_conflict(model),
            None => LevelSet::up_to(self.frames.len()),
        };
        loop {
            let depth = self.frames.len();
            if depth == 0 {
                return false;
            }
            let target = conflict.deepest().min(depth);
            let decisions: Vec<(u32, i32)> =
                Backjump::<Learning>::decisions_of(&conflict, self.decisions());
            let var_of = |index: u32| VarId {
                model: run.model.id(),
                index,
            };
            let conflict_vars: Vec<VarId> = decisions.iter().map(|&(v, _)| var_of(v)).collect();
            let skipped: Vec<VarId> = self.frames[target..]
                .iter()
                .rev()
                .filter(|_| target < depth)
                .map(|frame| var_of(frame.var))
                .collect();
            if target < depth {
                run.stats.backjumps += 1;
                run.stats.levels_skipped += (depth - target) as u64;
            }
            run.observer.on_event(&Event::Backjump {
                node: self.node,
                depth,
                to: target,
                conflict: &conflict_vars,
                skipped: &skipped,
            });
            // The decisions below the target had nothing to do with the failure.
            while self.frames.len() > target {
                let Some(frame) = self.pop_frame(run) else {
                    break;
                };
                if self.branching == Branching::DWay {
                    self.tried.truncate(frame.tried as usize);
                }
            }
            if target == 0 {
                return false;
            }
            // The frame at the target level: its decision is in the conflict set.
            let Some(frame) = self.pop_frame(run) else {
                return false;
            };
            let depth = self.frames.len();
            conflict.remove(depth + 1);
            let var = var_of(frame.var);
            if self.branching == Branching::DWay {
                self.node = frame.parent;
                let backjump = self.backjump.as_mut().expect("backjumping");
                if backjump.dway.len() <= depth {
                    backjump.dway.resize(depth + 1, LevelSet::default());
                }
                backjump.dway[depth].union_with(&conflict);
                match self.untried_value(run, var, frame.tried as usize) {
                    Some(value) => {
                        self.sibling = Some(Sibling {
                            var: frame.var,
                            value,
                            parent: frame.parent,
                            tried: frame.tried,
                        });
                        return true;
                    }
                    None => {
                        self.tried.truncate(frame.tried as usize);
                        // Every value of `var` failed or was removed: the node fails with
                        // conf(var) and the reasons of the removals.
                        let backjump = self.backjump.as_mut().expect("backjumping");
                        let conf = std::mem::take(&mut backjump.dway[depth]);
                        conflict = backjump.trace_var(run.model, frame.var, &conf);
                        continue;
                    }
                }
            }
            self.nodes_made += 1;
            self.node = self.nodes_made;
            run.stats.refutations += 1;
            run.observer.on_event(&Event::Node {
                node: self.node,
                parent: frame.parent,
                var,
                value: frame.value,
                kind: match self.branching {
                    Branching::Assign | Branching::DWay => BranchKind::NotEqual,
                    Branching::Split => BranchKind::Above,
                },
                depth,
            });
            let before = self.before_change(var);
            let refutation = match self.branching {
                Branching::Assign | Branching::DWay => {
                    self.apply(|ctx| ctx.remove(var, frame.value))
                }
                // `x > v`: `v` is below the largest value, so `v + 1` does not overflow.
                Branching::Split => self.apply(|ctx| ctx.remove_below(var, frame.value + 1)),
            };
            let backjump = self.backjump.as_mut().expect("backjumping");
            if let Some(before) = &before {
                // The refutation rests on the rest of the conflict set.
                let cause = backjump.refuted(&conflict);
                backjump.note(frame.var, before, &self.domains[var.index()], cause);
            }
            if refutation.is_err() {
                conflict = backjump.trace_var(run.model, frame.var, &conflict);
                report_failure(run, self.node, None, Some(var), depth);
                continue;
            }
            if self.settle(run).is_ok() {
                return true;
            }
            // Learning analyses this failure as any other.
            if self.learns()
                && let Some(resumed) = self.learn(run)
            {
                return resumed;
            }
            conflict = match self.backjump.as_mut() {
                Some(backjump) => backjump.take_conflict(model),
                None => LevelSet::up_to(self.frames.len()),
            };
        }
    }

    /// Learning from the last failure: analyses it into a nogood, goes back to the level
    /// where the nogood asserts its literal, makes that literal false there and propagates;
    /// repeats on failure. `Some(false)` when the tree is exhausted, `Some(true)` at a
    /// consistent node, `None` when the failure cannot be analysed (its reason rests on
    /// nothing of the failing level): the caller backjumps from it instead.
    #[cold]
    #[inline(never)]
    fn learn<V: VariableOrder, W: ValueOrder, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
    ) -> Option<bool> {
        loop {
            let depth = self.frames.len();
            let backjump = self.backjump.as_mut()?;
            let learning = backjump.learning.as_mut()?;
            if std::mem::take(&mut learning.at_solution) {
                if depth == 0 {
                    return Some(false);
                }
                // The decisions of the path (those left by a projected search) lead to this
                // solution alone: never all of them again.
                let mut literals = vec![*backjump.decision_literals.get(depth - 1)?];
                literals.extend_from_slice(backjump.decision_literals.get(..depth - 1)?);
                let learned = Learned {
                    second: literals.len().saturating_sub(1).max(1),
                    literals,
                    level: depth - 1,
                    // Kept for good: the solution must not be found again.
                    lbd: 0,
                    origin: None,
                };
                if self.jump_and_assert(run, learned, depth) {
                    return Some(true);
                }
                continue;
            }
            let reason = learning.failure.take()?;
            if depth == 0 {
                return Some(false);
            }
            run.stats.conflicts += 1;
            let budget = run.budget;
            let stop = || budget.interrupted().is_some();
            let analysed = analyze(backjump, run.model, &self.domains, &reason, &stop);
            if analysed.is_none()
                && let Some(limit) = budget.interrupted()
            {
                // A limit came during the analysis: the last decision is refuted as
                // chronological backtracking would (no reason to trace), and the search stops.
                self.halted = Some(limit);
                return None;
            }
            let Some(mut learned) = analysed else {
                // The reason rests on nothing of this level: it fails at the deepest level
                // of its literals already (at the root: nothing is left to search). Going
                // back there, the failure is analysed where it happened.
                let deepest = reason
                    .iter()
                    .map(|&literal| backjump.level_of(literal))
                    .max()
                    .unwrap_or(0);
                if deepest >= depth {
                    // Left to the backjump, chronologically: tracing the reason back to the
                    // decisions can cost more than the search it would save.
                    return None;
                }
                if let Some(learning) = &mut backjump.learning {
                    learning.failure = Some(reason);
                }
                if deepest == 0 {
                    return Some(false);
                }
                while self.frames.len() > deepest {
                    if self.pop_frame(run).is_none() {
                        break;
                    }
                }
                continue;
            };
            let target = learned.level.min(depth - 1);
            learned.origin = Some(self.node);
            run.stats.learned += 1;
            run.stats.learned_literals += learned.literals.len() as u64;
            run.stats.learned_backjump_levels += (depth - target) as u64;
            run.observer.on_event(&Event::Learned {
                node: self.node,
                depth,
                nogood: &learned.literals,
            });
            run.variable_order.learned(&learned.literals);
            if self.jump_and_assert(run, learned, depth) {
                return Some(true);
            }
        }
    }

    /// Goes back from `depth` to the level of `learned`, keeps it, and makes its first literal
    /// false there; returns whether the node then propagates without failure.
    fn jump_and_assert<V: VariableOrder, W: ValueOrder, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
        learned: Learned,
        depth: usize,
    ) -> bool {
        {
            let target = learned.level.min(depth - 1);
            let var_of = |index: u32| VarId {
                model: run.model.id(),
                index,
            };
            if target + 1 < depth {
                run.stats.backjumps += 1;
                run.stats.levels_skipped += (depth - target - 1) as u64;
                // The decisions on the nogood's variables, shallowest first, then the one the
                // search goes back to.
                let mut conflict: Vec<VarId> = self.frames[..target]
                    .iter()
                    .map(|frame| var_of(frame.var))
                    .filter(|&var| learned.literals.iter().any(|l| l.var() == var))
                    .collect();
                conflict.push(var_of(self.frames[target].var));
                let skipped: Vec<VarId> = self.frames[target + 1..]
                    .iter()
                    .rev()
                    .map(|frame| var_of(frame.var))
                    .collect();
                run.observer.on_event(&Event::Backjump {
                    node: self.node,
                    depth,
                    to: target + 1,
                    conflict: &conflict,
                    skipped: &skipped,
                });
            }
            let parent = self.frames[target].parent;
            while self.frames.len() > target {
                if self.pop_frame(run).is_none() {
                    break;
                }
            }
            let asserting = learned.literals[0];
            if let Some(learning) = self.backjump.as_mut().and_then(|b| b.learning.as_mut()) {
                run.stats.forgotten += learning.nogoods.add(
                    learned.literals.clone(),
                    learned.second,
                    learned.lbd,
                    learned.origin,
                ) as u64;
            }
            self.nodes_made += 1;
            self.node = self.nodes_made;
            run.stats.refutations += 1;
            let var = asserting.var();
            let (value, kind) = match asserting {
                Literal::Eq(_, v) => (v, BranchKind::NotEqual),
                Literal::Ne(_, v) => (v, BranchKind::Equal),
                Literal::Ge(_, v) => (v.saturating_sub(1), BranchKind::AtMost),
                Literal::Le(_, v) => (v, BranchKind::Above),
            };
            run.observer.on_event(&Event::Node {
                node: self.node,
                parent,
                var,
                value,
                kind,
                depth: target,
            });
            self.assert_false(run, &learned.literals, 0).is_ok() && self.settle(run).is_ok()
        }
    }

    /// Makes `nogood[at]` false, all the other literals of `nogood` holding (its reason);
    /// a failure if it holds already.
    fn assert_false<V: VariableOrder, W, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
        nogood: &[Literal],
        at: usize,
    ) -> Result<bool, Conflict> {
        let literal = nogood[at];
        let var = literal.var();
        let before = self.domains[var.index()].clone();
        let result = match literal {
            Literal::Eq(_, v) => self.apply_changed(|ctx| ctx.remove(var, v)),
            Literal::Ne(_, v) => self.apply_changed(|ctx| ctx.fix(var, v)),
            Literal::Ge(_, v) => {
                self.apply_changed(|ctx| ctx.remove_above(var, v.saturating_sub(1)))
            }
            Literal::Le(_, v) => {
                self.apply_changed(|ctx| ctx.remove_below(var, v.saturating_add(1)))
            }
        };
        let Some(backjump) = self.backjump.as_mut() else {
            return result;
        };
        let others: SmallVec<[Literal; 16]> = nogood
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != at)
            .map(|(_, &l)| l)
            .collect();
        let cause = backjump.because(&others);
        backjump.note(var.index, &before, &self.domains[var.index()], cause);
        if result.is_err() {
            if let Some(learning) = &mut backjump.learning {
                learning.failure = Some(nogood.to_vec());
            }
            report_failure(run, self.node, None, Some(var), self.frames.len());
        }
        result
    }

    /// Under backjumping: the constraints' fixpoint, recorded, then (when learning) the
    /// learned nogoods, in turn until neither changes a domain. `None` if a nogood failed.
    #[cold]
    #[inline(never)]
    fn fixpoint_learning<V: VariableOrder, W, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
    ) -> Option<(Fixpoint, Option<VarId>)> {
        loop {
            let (result, wiped) = self.fixpoint_recording(run);
            if result != Fixpoint::Reached || !self.learns() {
                return Some((result, wiped));
            }
            match self.propagate_nogoods(run) {
                Ok(true) => {}
                Ok(false) => return Some((result, wiped)),
                Err(Conflict) => return None,
            }
        }
    }

    /// One pass of the learned nogoods (see [`Nogoods`](crate::search::learning::nogoods));
    /// returns whether a domain changed.
    fn propagate_nogoods<V: VariableOrder, W, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
    ) -> Result<bool, Conflict> {
        let Some(backjump) = self.backjump.as_mut() else {
            return Ok(false);
        };
        let root = backjump.level() == 0;
        let Some(learning) = backjump.learning.as_mut() else {
            return Ok(false);
        };
        if learning.nogoods.len() == 0 {
            return Ok(false);
        }
        let mut units = Vec::new();
        learning
            .nogoods
            .pass(&self.domains, &backjump.removals, root, &mut units);
        let mut changed = false;
        for unit in units {
            let (id, at) = match unit {
                Unit::Conflict { id } => (id, None),
                Unit::Assert { id, literal } => (id, Some(literal as usize)),
            };
            let (nogood, origin): (SmallVec<[Literal; 16]>, Option<u64>) =
                match self.backjump.as_ref().and_then(|b| b.learning.as_ref()) {
                    Some(learning) => (
                        learning.nogoods.literals(id).iter().copied().collect(),
                        learning.nogoods.origin(id),
                    ),
                    None => return Ok(changed),
                };
            let holds = |l: &Literal| l.holds_in(&self.domains[l.var().index()]);
            let at = match at {
                Some(at) if !holds(&nogood[at]) => {
                    if crate::search::learning::is_false(
                        nogood[at],
                        &self.domains[nogood[at].var().index()],
                    ) {
                        continue;
                    }
                    at
                }
                _ => {
                    // Every literal holds (checked: an earlier unit may have changed that).
                    if !nogood.iter().all(holds) {
                        continue;
                    }
                    self.queue.clear();
                    if let Some(learning) = self.backjump.as_mut().and_then(|b| b.learning.as_mut())
                    {
                        learning.failure = Some(nogood.to_vec());
                    }
                    if let Some(learned_at) = origin {
                        run.observer.on_event(&Event::NogoodUsed {
                            node: self.node,
                            learned_at,
                            failed: true,
                        });
                    }
                    report_failure(run, self.node, None, None, self.frames.len());
                    return Err(Conflict);
                }
            };
            if let Some(learned_at) = origin {
                run.observer.on_event(&Event::NogoodUsed {
                    node: self.node,
                    learned_at,
                    failed: false,
                });
            }
            changed |= self.assert_false(run, &nogood, at)?;
        }
        Ok(changed)
    }

    /// Undoes the last decision (its level of the trail), without refuting it.
    fn pop_frame<V, W, O: SearchObserver>(&mut self, run: &mut Run<'_, V, W, O>) -> Option<Frame> {
        let frame = self.frames.pop()?;
        let depth = self.frames.len();
        if self.sizes.is_active() {
            self.sizes.undoing(&self.trail, depth);
        }
        self.trail.undo_to(depth, &mut self.domains);
        self.sizes.undone_to(self.trail.len());
        if self.backjump.is_some() {
            self.undo_causes(depth);
        }
        let var = VarId {
            model: run.model.id(),
            index: frame.var,
        };
        run.stats.backtracks += 1;
        run.observer.on_event(&Event::Backtrack {
            var,
            value: frame.value,
            depth: depth + 1,
        });
        if self.assigns_all {
            self.decided[var.index()] = false;
        }
        Some(frame)
    }

    /// At a solution of a projected search: undoes the decisions below the last one on a
    /// projected variable, whose subtrees hold only solutions with the same projected values.
    /// The projected variables are branched on first, so their decisions lead the path.
    fn leave_projected_subtree<V, W, O: SearchObserver>(&mut self, run: &mut Run<'_, V, W, O>) {
        let Some(project) = self.project.clone() else {
            return;
        };
        let keep = self
            .frames
            .iter()
            .take_while(|frame| project[frame.var as usize])
            .count();
        debug_assert!(
            self.frames[keep..]
                .iter()
                .all(|frame| !project[frame.var as usize]),
            "projected variables are branched on first"
        );
        while self.frames.len() > keep {
            if let Some(frame) = self.pop_frame(run)
                && self.branching == Branching::DWay
            {
                self.tried.truncate(frame.tried as usize);
            }
        }
    }

    /// The value the value order chooses for `var` among those not tried yet at this node
    /// (`self.tried[from..]`), or `None` if every value was tried. The tried values are taken
    /// out of the domain for the choice only, on a level of the trail undone at once: d-way
    /// branching does not propagate `var ≠ v` to the other variables.
    fn untried_value<V, W: ValueOrder, O>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
        var: VarId,
        from: usize,
    ) -> Option<i32> {
        let depth = self.frames.len();
        self.trail.push_level();
        for &value in &self.tried[from..] {
            self.domains[var.index()].remove(value, &mut self.trail.recorder(var.index));
        }
        let value = (!self.domains[var.index()].is_empty()).then(|| {
            let view =
                SearchView::new(run.model, &self.domains, depth).with_branching(self.branching);
            run.value_order.select_value(var, &view)
        });
        self.trail.undo_to(depth, &mut self.domains);
        value
    }

    /// Whether this search is AIMA's plain backtracking, which checks each decision against
    /// the decided variables and propagates nothing (not with an objective, whose bound must
    /// propagate).
    #[inline]
    fn checks_only_assigned(&self) -> bool {
        self.checks_assigned && self.objective.is_none()
    }

    /// AIMA's consistency check of the decision on `var`: each constraint on `var` whose
    /// variables are now all decided must hold. A variable fixed but not yet decided is not
    /// checked against, as AIMA's BACKTRACKING-SEARCH does not check against a variable it has
    /// not assigned.
    fn check_assigned<V: VariableOrder, W, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
        var: VarId,
    ) -> Result<(), Conflict> {
        let model = run.model;
        for i in 0..self.constraints_on[var.index()].len() {
            let c = self.constraints_on[var.index()][i];
            let constraint = &model.constraint_list()[c as usize];
            let scope = constraint.scope();
            if !scope.iter().all(|y| self.decided[y.index()]) {
                continue;
            }
            run.stats.propagations += 1;
            self.check_decided(run, c)?;
        }
        Ok(())
    }

    /// The check of constraint `c`, whose variables are all decided, against their values:
    /// a failure (the value is `rejected`, AIMA does not count it) if it does not hold.
    fn check_decided<V: VariableOrder, W, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
        c: u32,
    ) -> Result<(), Conflict> {
        let constraint = &run.model.constraint_list()[c as usize];
        let scope = constraint.scope();
        let values: SmallVec<[i32; 64]> = scope
            .iter()
            .filter_map(|y| self.domains[y.index()].value())
            .collect();
        if values.len() < scope.len() || !constraint.check(&values) {
            self.rejected = true;
            if let Some(backjump) = &mut self.backjump {
                // The values of the scope are the reason.
                let reason: SmallVec<[Literal; 8]> = scope
                    .iter()
                    .filter_map(|&y| Some(Literal::Eq(y, self.domains[y.index()].value()?)))
                    .collect();
                let conflict = backjump.trace(run.model, &reason, &LevelSet::default());
                backjump.conflict = Some(conflict);
            }
            let failed = Some(ConstraintId(c));
            report_failure(run, self.node, failed, None, self.frames.len());
            return Err(Conflict);
        }
        Ok(())
    }

    /// Textbook forward checking after the decision `var = value`: each constraint on `var`
    /// removes from each undecided variable `y` of its scope the values `w` such that
    /// `var = value, y = w` alone already violates it (the rest of its scope left free).
    /// Variables this leaves with one value are not propagated from. Fails on a wipe-out, and
    /// when a constraint whose variables are now all assigned does not hold (what pairs cannot
    /// see of a constraint on more than two variables).
    fn forward_check<V: VariableOrder, W, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
        var: VarId,
        value: i32,
    ) -> Result<(), Conflict> {
        let model = run.model;
        if self.scratch.is_empty() {
            self.scratch = model.initial_domains().to_vec();
        }
        for i in 0..self.constraints_on[var.index()].len() {
            let c = self.constraints_on[var.index()][i] as usize;
            let constraint = &model.constraint_list()[c];
            let scope = constraint.scope();
            run.stats.propagations += 1;
            if scope.iter().all(|y| self.decided[y.index()]) {
                self.check_decided(run, c as u32)?;
                continue;
            }
            let free = free_domain(model, scope);
            // Every pair test of `var = value` on this constraint at once.
            if !without_clashes(&mut self.scratch, constraint.as_ref(), &free, (var, value)) {
                if let Some(backjump) = &mut self.backjump {
                    let reason = [Literal::Eq(var, value)];
                    let conflict = backjump.trace(model, &reason, &LevelSet::default());
                    backjump.conflict = Some(conflict);
                }
                let failed = Some(ConstraintId(c as u32));
                report_failure(run, self.node, failed, None, self.frames.len());
                return Err(Conflict);
            }
            for &y in scope {
                if y == var || self.decided[y.index()] {
                    continue;
                }
                let allowed = &self.scratch[y.index()];
                let doomed: SmallVec<[i32; 64]> = self.domains[y.index()]
                    .iter()
                    .filter(|&w| !allowed.contains(w))
                    .collect();
                if doomed.is_empty() {
                    continue;
                }
                let before = (run.observer.observes_propagation() || self.backjump.is_some())
                    .then(|| self.domains[y.index()].clone());
                let result = self.apply(|ctx| {
                    for &w in &doomed {
                        ctx.remove(y, w)?;
                    }
                    Ok(true)
                });
                if let (Some(backjump), Some(before)) = (&mut self.backjump, &before) {
                    // Forward checking from `var = value` alone.
                    let cause = backjump.because(&[Literal::Eq(var, value)]);
                    backjump.note(y.index, before, &self.domains[y.index()], cause);
                    if result.is_err() {
                        let conflict = backjump.trace_var(model, y.index, &LevelSet::default());
                        backjump.conflict = Some(conflict);
                    }
                }
                if let Some(before) = before
                    .as_ref()
                    .filter(|_| run.observer.observes_propagation())
                {
                    run.observer.on_event(&Event::Pruned {
                        node: self.node,
                        var: y,
                        before,
                        after: &self.domains[y.index()],
                        constraint: ConstraintId(c as u32),
                    });
                }
                if result.is_err() {
                    let failed = Some(ConstraintId(c as u32));
                    report_failure(run, self.node, failed, Some(y), self.frames.len());
                    return Err(Conflict);
                }
            }
        }
        Ok(())
    }

    /// [`apply`](Self::apply), saying whether the domain changed.
    fn apply_changed(
        &mut self,
        change: impl FnOnce(&mut PropagationContext<'_>) -> Result<bool, Conflict>,
    ) -> Result<bool, Conflict> {
        let mut changed = false;
        self.apply(|ctx| {
            changed = change(ctx)?;
            Ok(changed)
        })?;
        Ok(changed)
    }

    /// Changes one domain through a propagation context, waking its watchers.
    fn apply(
        &mut self,
        change: impl FnOnce(&mut PropagationContext<'_>) -> Result<bool, Conflict>,
    ) -> Result<(), Conflict> {
        let wake = Wake {
            queue: &mut self.queue,
            watchers: &self.watchers,
            skip: u32::MAX,
        };
        let mut ctx =
            PropagationContext::new(&mut self.domains, &mut self.trail, Some(wake), self.level);
        let result = change(&mut ctx).map(|_| ());
        if result.is_err() {
            self.queue.clear();
        }
        result
    }

    /// Runs the queue to a fixpoint with `hook` watching each propagator run, unless the time
    /// limit or the cancellation flag of `budget` interrupts it.
    #[inline]
    fn fixpoint(
        &mut self,
        model: &Model,
        budget: &Budget<'_>,
        runs: &mut u64,
        hook: &mut impl RunHook,
    ) -> Fixpoint {
        let halted = &mut self.halted;
        fixpoint(
            model.constraint_list(),
            &mut self.domains,
            &mut self.trail,
            &mut self.queue,
            &self.watchers,
            &mut self.propagators,
            &mut self.changes,
            self.level,
            runs,
            hook,
            &mut || {
                *halted = budget.interrupted();
                halted.is_some()
            },
        )
    }

    /// Runs the queue to a fixpoint, reporting a failure to the statistics and the observer;
    /// a limit that interrupts it is kept in `halted`, and the node is no failure.
    fn propagate<V: VariableOrder, W, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
    ) -> Result<(), Conflict> {
        let budget = run.budget;
        let (result, wiped) = if self.backjump.is_some() {
            match self.fixpoint_learning(run) {
                Some(outcome) => outcome,
                // A nogood failed (and the failure is reported).
                None => return Err(Conflict),
            }
        } else if run.observer.observes_propagation() {
            let mut tracer = Tracer {
                observer: &mut *run.observer,
                model: run.model,
                node: self.node,
                before: Vec::new(),
                wiped: None,
            };
            let result = self.fixpoint(run.model, budget, &mut run.stats.propagations, &mut tracer);
            let wiped = tracer.wiped;
            if result == Fixpoint::Reached {
                run.observer.on_event(&Event::Propagated {
                    node: self.node,
                    domains: &self.domains,
                });
            }
            (result, wiped)
        } else {
            let result = self.fixpoint(run.model, budget, &mut run.stats.propagations, &mut ());
            (result, None)
        };
        match result {
            // An interrupted fixpoint is no failure: `halted` says why it stopped.
            Fixpoint::Reached | Fixpoint::Interrupted => Ok(()),
            Fixpoint::Failed(c) => {
                report_failure(
                    run,
                    self.node,
                    Some(ConstraintId(c)),
                    wiped,
                    self.frames.len(),
                );
                Err(Conflict)
            }
        }
    }

    /// The fixpoint of [`propagate`](Self::propagate) under backjumping: every run's removals
    /// written down with their cause, and a failure's conflict set traced.
    #[cold]
    #[inline(never)]
    fn fixpoint_recording<V: VariableOrder, W, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
    ) -> (Fixpoint, Option<VarId>) {
        let Some(mut backjump) = self.backjump.take() else {
            return (Fixpoint::Reached, None);
        };
        let budget = run.budget;
        let mut recorder = Recorder {
            backjump: &mut backjump,
            model: run.model,
        };
        let (result, wiped) = if run.observer.observes_propagation() {
            let mut tracer = Tracer {
                observer: &mut *run.observer,
                model: run.model,
                node: self.node,
                before: Vec::new(),
                wiped: None,
            };
            let mut both = Both(&mut tracer, &mut recorder);
            let result = self.fixpoint(run.model, budget, &mut run.stats.propagations, &mut both);
            let wiped = tracer.wiped;
            if result == Fixpoint::Reached {
                run.observer.on_event(&Event::Propagated {
                    node: self.node,
                    domains: &self.domains,
                });
            }
            (result, wiped)
        } else {
            let stats = &mut run.stats.propagations;
            (self.fixpoint(run.model, budget, stats, &mut recorder), None)
        };
        if let Fixpoint::Failed(_) = result {
            if backjump.learning.is_some() {
                let reason = backjump.failed_reason(run.model);
                if let Some(learning) = &mut backjump.learning {
                    learning.failure = reason;
                }
            } else {
                backjump.conflict = backjump.trace_failed(run.model);
            }
        }
        self.backjump = Some(backjump);
        (result, wiped)
    }

    /// A copy of `var`'s domain before a change the backjumping writes down (`None` without
    /// backjumping).
    #[inline]
    fn before_change(&self, var: VarId) -> Option<Domain> {
        if self.backjump.is_some() {
            Some(self.copy_domain(var))
        } else {
            None
        }
    }

    /// Out of line: kept off the way of the search without backjumping.
    #[cold]
    #[inline(never)]
    fn copy_domain(&self, var: VarId) -> Domain {
        self.domains[var.index()].clone()
    }

    /// Backjumping: the decision `var = value` (or `var ≤ value`) opened a level and removed
    /// from `before` what `var`'s domain no longer has.
    #[cold]
    #[inline(never)]
    fn note_decision(&mut self, var: VarId, value: i32, before: &Domain) {
        if let Some(backjump) = &mut self.backjump {
            backjump.open_level();
            if self.branching != Branching::Split {
                backjump.decide(var.index, value);
            } else {
                backjump.decided_literal(Literal::Le(var, value));
            }
            backjump.note(
                var.index,
                before,
                &self.domains[var.index()],
                Cause::Decision,
            );
        }
    }

    /// Backjumping: a new node at `depth`, whose children have not failed yet (d-way
    /// branching gathers their conflict sets).
    #[cold]
    #[inline(never)]
    fn new_node_conflicts(&mut self, depth: usize) {
        if let Some(backjump) = &mut self.backjump {
            if backjump.dway.len() <= depth {
                backjump.dway.resize(depth + 1, LevelSet::default());
            }
            backjump.dway[depth].clear();
        }
    }

    /// Backjumping: the levels above `depth` are undone.
    #[cold]
    #[inline(never)]
    fn undo_causes(&mut self, depth: usize) {
        if let Some(backjump) = &mut self.backjump {
            backjump.undo_to(depth);
        }
    }

    /// AC-3 from `start` instead of the propagators' fixpoint, reporting a wipe-out as a
    /// failure of the arc's constraint.
    fn revise_arcs<V: VariableOrder, W, O: SearchObserver>(
        &mut self,
        run: &mut Run<'_, V, W, O>,
        start: Start,
    ) -> Result<(), Conflict> {
        // The branch woke the propagators: AC-3 replaces them.
        self.queue.clear();
        let Some(ac3) = self.ac3.as_mut() else {
            return Ok(());
        };
        let result = ac3.run(
            run.model,
            &mut self.domains,
            &mut self.trail,
            start,
            self.assigns_all.then_some(&self.decided[..]),
            &mut *run.observer,
            &mut *run.stats,
            self.node,
        );
        match result {
            Ok(()) => {
                if run.observer.observes_propagation() {
                    run.observer.on_event(&Event::Propagated {
                        node: self.node,
                        domains: &self.domains,
                    });
                }
                Ok(())
            }
            Err(Wipeout { var, constraint }) => {
                let depth = self.frames.len();
                report_failure(run, self.node, Some(constraint), Some(var), depth);
                Err(Conflict)
            }
        }
    }

    /// In debug builds, re-checks a solution against every constraint before it is reported.
    fn check_solution(&self, model: &Model) {
        if cfg!(debug_assertions) {
            let values: Vec<i32> = self.domains.iter().filter_map(Domain::value).collect();
            if let Some(c) = model.violated_constraint(&values) {
                panic!(
                    "the engine reached an assignment that violates constraint {} ({}): \
                     its propagate does not detect a violated fixed scope",
                    c.index(),
                    model.constraint_name(c)
                );
            }
        }
    }
}

/// Counts a failed node and tells the observer and the variable order (which may learn from
/// it, as dom/wdeg does).
fn report_failure<V: VariableOrder, W, O: SearchObserver>(
    run: &mut Run<'_, V, W, O>,
    node: u64,
    constraint: Option<ConstraintId>,
    var: Option<VarId>,
    depth: usize,
) {
    run.stats.failures += 1;
    run.variable_order.failure(constraint);
    run.observer.on_event(&Event::Failure {
        node,
        constraint,
        var,
        depth,
    });
}

/// The [`RunHook`] of an observer that watches propagation: it keeps the domains of each
/// propagator's scope before the run and reports those the run changed.
struct Tracer<'a, O> {
    observer: &'a mut O,
    model: &'a Model,
    node: u64,
    before: Vec<Domain>,
    /// The variable a failing run emptied, if it emptied one.
    wiped: Option<VarId>,
}

impl<O: SearchObserver> RunHook for Tracer<'_, O> {
    fn before(&mut self, c: u32, domains: &[Domain]) {
        let scope = self.model.constraint_list()[c as usize].scope();
        self.before.clear();
        self.before
            .extend(scope.iter().map(|var| domains[var.index()].clone()));
    }

    fn after(&mut self, c: u32, domains: &[Domain], _failed: bool) {
        let scope = self.model.constraint_list()[c as usize].scope();
        for (before, &var) in self.before.iter().zip(scope) {
            let after = &domains[var.index()];
            if after != before {
                if after.is_empty() {
                    self.wiped = Some(var);
                }
                self.observer.on_event(&Event::Pruned {
                    node: self.node,
                    var,
                    before,
                    after,
                    constraint: ConstraintId(c),
                });
            }
        }
    }
}

/// Two [`RunHook`]s, one after the other.
struct Both<'a, A, B>(&'a mut A, &'a mut B);

impl<A: RunHook, B: RunHook> RunHook for Both<'_, A, B> {
    fn before(&mut self, c: u32, domains: &[Domain]) {
        self.0.before(c, domains);
        self.1.before(c, domains);
    }

    fn after(&mut self, c: u32, domains: &[Domain], failed: bool) {
        self.0.after(c, domains, failed);
        self.1.after(c, domains, failed);
    }
}

/// Whether the search is AIMA's plain backtracking ([`Plan::checks_assigned`]) on a model of
/// unary and binary constraints, AIMA's CSPs. A constraint on more variables keeps the check
/// against the fixed variables, which sees a clash among the assigned ones before all its
/// variables are assigned.
fn checks_assigned(model: &Model, plan: &Plan) -> bool {
    plan.checks_assigned()
        && model
            .constraint_list()
            .iter()
            .all(|constraint| constraint.scope().len() <= 2)
}

/// The constraints on each variable of `model`, in the model's order (a constraint naming a
/// variable twice is listed once).
fn constraints_by_variable(model: &Model) -> Vec<SmallVec<[u32; 8]>> {
    let mut on: Vec<SmallVec<[u32; 8]>> = vec![SmallVec::new(); model.num_variables()];
    for (c, constraint) in model.constraint_list().iter().enumerate() {
        for var in constraint.scope() {
            let list = &mut on[var.index()];
            if list.last() != Some(&(c as u32)) {
                list.push(c as u32);
            }
        }
    }
    on
}
