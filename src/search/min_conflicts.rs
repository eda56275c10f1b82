//! Local search: AIMA's MIN-CONFLICTS (Russell and Norvig, *Artificial Intelligence: A Modern
//! Approach*, 3rd ed., section 6.4).
//!
//! Unlike the tree search of [`Solver`](crate::Solver), local search keeps one complete
//! assignment and repairs it: at each step it picks a variable involved in a violated
//! constraint, at random, and gives it the value with the fewest conflicts (ties broken at
//! random). It never proves anything: a run that stops without a solution
//! ([`LocalOutcome::NotFound`]) says nothing about whether the model has one. Every solution
//! it reports has passed [`Model::is_solution`].
//!
//! # Conflicts
//!
//! The conflicts of a variable `x` at value `v` are counted over the constraints on `x`, the
//! other variables keeping their values: an all-different (any constraint whose
//! [`Constraint::distinct_views`](crate::Constraint::distinct_views) answers) counts one
//! conflict for every other position of its scope with the same view value, as its
//! decomposition into `≠` constraints would; any other constraint counts one conflict if its
//! [`check`](crate::Constraint::check) fails. With N-Queens' three all-differents this is
//! AIMA's count: the number of queens attacking the square.
//!
//! # Costs
//!
//! All-different constraints keep, for each view value, how many positions take it, so the
//! conflicts of a value cost one look-up, and a move updates two counters. They also keep the
//! set of view values that no position takes (the *free* values). Other constraints are
//! re-checked, at the cost of their `check`. The variables in conflict are kept in a set,
//! updated on each move, so choosing one does not scan the model. (An all-different whose view
//! values span more than 64 values per position of its scope (and more than `FULL_SCAN`), or
//! more than `DENSE_LIMIT`, or whose scope repeats a variable, is re-checked like any other
//! constraint: its counters never take memory for the width of its domains.)
//!
//! A step looks for the values without any conflict first, when every constraint on the
//! chosen variable is such an all-different: a value has none exactly when its view value is
//! free in each of them, so the free values of the constraint with the fewest are the only
//! candidates, and they are few on N-Queens (the columns no queen takes). If one of them has no
//! conflict, the step picks one of those at random, as a scan of the whole domain would, at a
//! cost of the free values instead of the domain. Otherwise, or on other models, the step scans
//! the whole domain of the variable. A step on a million queens thus costs microseconds, not
//! the milliseconds of a scan of a million columns.
//!
//! No step allocates per value of a domain: the conflicts of every value are added up in an
//! array only for a domain spanning at most `FULL_SCAN` values; a wider domain with at most
//! `FULL_SCAN` values is scanned value by value, and any wider one is sampled: the current
//! value, the bounds and `SAMPLES` values drawn at random (a variable over all of `i32` costs
//! a few hundred conflict counts a step, not 2³² counters).
//!
//! # Initial assignment
//!
//! AIMA starts from a greedy assignment; so does this one. Variables are assigned in
//! declaration order, each to a value with the fewest conflicts with the variables already
//! assigned (constraints with unassigned variables are not counted). A domain of at most
//! `SMALL` values is scanned in full, ties broken at random. For a larger one, the start first
//! tries up to `PROBES` free values drawn at random (when every constraint on the variable is
//! an all-different with counters) and takes the first without conflicts; failing that, it
//! scans from a random value up (wrapping around) until a value without conflicts, at most
//! `SCAN` values, so that a large N-Queens does not cost `n` values per queen. The time
//! limit and the cancellation flag are read while the start is built too.
//!
//! # Restarts
//!
//! A run caught on a plateau (8-Queens with some seeds) may wander for ever. The search
//! counts the conflicts of the whole assignment (the pairs of positions sharing a view value
//! in each all-different, plus the other constraints violated) and remembers the fewest seen
//! in the current run. When [`MinConflicts::with_restart_after`] steps in a row have not
//! lowered that fewest, it restarts: a new greedy start (other random choices, so another
//! assignment) and a new run, counted in [`LocalSearchStats::restarts`]. The step budget of
//! [`MinConflicts::with_max_steps`] counts the steps of all runs together. The default
//! patience is `max(1000, 10 × variables)` steps.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::model::{Model, Solution};
use crate::util::clock::Instant;
use crate::util::random::SplitMix64;
use crate::{Constraint, Limit, VarId};

/// The largest span of view values for which an all-different keeps dense counters.
const DENSE_LIMIT: i64 = 1 << 24;

/// The largest domain that the initial assignment scans in full.
const SMALL: usize = 64;

/// How many values the initial assignment scans at most, for a larger domain.
const SCAN: usize = 1 << 16;

/// How many free values the initial assignment tries at random, for a larger domain, before
/// it scans.
const PROBES: usize = 64;

/// The largest span of values for which a step adds up the conflicts of every value in an
/// array indexed by value, and the most values a step scans one by one; a wider domain is
/// sampled (see `SAMPLES`).
const FULL_SCAN: usize = 1 << 16;

/// How many values of a domain wider than `FULL_SCAN` a step tries, drawn at random, besides
/// the current value and the bounds.
const SAMPLES: usize = 256;

/// How many view values per position an all-different may span and still keep dense
/// counters (beside the `FULL_SCAN` any one may span): its counters then take memory in
/// proportion to its scope, never to the width of its domains.
const DENSE_PER_POSITION: usize = 64;

/// How much work (conflicts counted, values summed) between two reads of the time limit and
/// the cancellation flag.
const CHECK_WORK: u64 = 4096;

/// A slot that is not in the free list.
const NOT_FREE: u32 = u32::MAX;

/// The answer of a [`MinConflicts`] run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LocalOutcome {
    /// A solution, checked with [`Model::is_solution`].
    Solved(Solution),
    /// No solution was found in `steps` steps. This is not a proof that there is none: local
    /// search is incomplete.
    NotFound {
        /// The steps taken.
        steps: u64,
    },
}

impl LocalOutcome {
    /// Whether this is [`LocalOutcome::Solved`].
    pub fn is_solved(&self) -> bool {
        matches!(self, LocalOutcome::Solved(_))
    }

    /// The solution, if one was found.
    pub fn solution(&self) -> Option<&Solution> {
        match self {
            LocalOutcome::Solved(solution) => Some(solution),
            LocalOutcome::NotFound { .. } => None,
        }
    }
}

/// One step of [`MinConflicts`]: a variable in conflict, and the value it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct MinConflictsStep {
    /// The step's number, from 1.
    pub step: u64,
    /// The variable chosen (at random among those in conflict).
    pub variable: VarId,
    /// Its value before the step.
    pub old_value: i32,
    /// Its value after the step (may equal `old_value` when no value does better).
    pub new_value: i32,
    /// Its conflicts at `old_value`.
    pub conflicts_before: u32,
    /// Its conflicts at `new_value`.
    pub conflicts_after: u32,
    /// The conflicts of the whole assignment after the step (see [`MinConflicts`]): 0 once
    /// solved.
    pub total_conflicts: u64,
}

/// A restart of [`MinConflicts`]: the run that ends, and the new start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct MinConflictsRestart {
    /// The restart's number, from 1.
    pub restart: u64,
    /// The steps taken so far, in all runs.
    pub steps: u64,
    /// The fewest conflicts of the whole assignment seen in the run that ends.
    pub best_conflicts: u64,
    /// The conflicts of the whole assignment after the new greedy start.
    pub conflicts: u64,
}

/// A start of [`MinConflicts`]: the greedy assignment a run begins from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct MinConflictsStart<'a> {
    /// The restarts before this start: 0 for the first.
    pub restart: u64,
    /// The value of each variable of the model, in declaration order.
    pub values: &'a [i32],
    /// The conflicts of the whole assignment (see [`MinConflicts`]).
    pub conflicts: u64,
}

/// Watches a [`MinConflicts`] search: every method does nothing by default.
///
/// Closures that take a step are observers through [`MinConflicts::run_with`]; implement this
/// trait to see the restarts too, and pass it to [`MinConflicts::run_observed`].
pub trait LocalSearchObserver {
    /// After every step.
    fn step(&mut self, step: &MinConflictsStep) {
        let _ = step;
    }

    /// After every restart (see [`MinConflicts::with_restart_after`]).
    fn restart(&mut self, restart: &MinConflictsRestart) {
        let _ = restart;
    }

    /// After each greedy start is built, before the run's first step: the first start, and
    /// the start of each restart (after [`LocalSearchObserver::restart`]).
    fn start(&mut self, start: &MinConflictsStart<'_>) {
        let _ = start;
    }
}

/// A closure over steps, as an observer.
struct OnStep<F>(F);

impl<F: FnMut(&MinConflictsStep)> LocalSearchObserver for OnStep<F> {
    fn step(&mut self, step: &MinConflictsStep) {
        (self.0)(step);
    }
}

/// What a [`MinConflicts`] run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct LocalSearchStats {
    /// Steps taken (variables reassigned, including reassignments to the same value).
    pub steps: u64,
    /// Variables in conflict after the initial assignment.
    pub initial_conflicted: u64,
    /// Restarts from a new initial assignment (see [`MinConflicts::with_restart_after`]).
    pub restarts: u64,
    /// The conflicts of the whole assignment when the search ended: 0 when solved.
    pub final_conflicts: u64,
    /// What stopped the search before its step budget, if anything did: the time limit or the
    /// cancellation flag.
    pub stopped_by: Option<Limit>,
    /// Wall-clock time of the search, initial assignments included.
    pub elapsed: Duration,
}

/// AIMA's MIN-CONFLICTS local search over any [`Model`].
///
/// From a greedy complete assignment, each step picks a variable in conflict at random and
/// gives it a value with the fewest conflicts, ties broken at random. The conflicts of a
/// variable are counted per constraint: for an all-different (any constraint whose
/// [`distinct_views`](Constraint::distinct_views) answers), the other positions with the same
/// view value, counted incrementally; for any other constraint, one if its
/// [`check`](Constraint::check) fails. The search is incomplete: [`LocalOutcome::NotFound`]
/// never means that there is no solution. It restarts from a new greedy assignment after a
/// number of steps without progress ([`with_restart_after`](Self::with_restart_after)), and
/// stops at a budget of steps, a time limit or a cancellation flag. The module
/// documentation gives the costs; [`Solver::min_conflicts`](crate::Solver::min_conflicts)
/// builds one with a solver's time limit and cancellation flag.
///
/// ```
/// use cspkit::models::queens::Queens;
/// use cspkit::{LocalOutcome, MinConflicts};
///
/// let queens = Queens::new(1000)?;
/// let mut search = MinConflicts::new(queens.model()).with_seed(7).with_max_steps(10_000);
/// match search.run() {
///     LocalOutcome::Solved(solution) => assert!(queens.model().is_solution(solution.values())),
///     LocalOutcome::NotFound { steps } => println!("no solution found in {steps} steps"),
///     _ => unreachable!("a new kind of outcome"),
/// }
/// println!("{} steps", search.stats().steps);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct MinConflicts<'m> {
    model: &'m Model,
    seed: u64,
    max_steps: u64,
    restart_after: Option<u64>,
    time_limit: Option<Duration>,
    cancel: Option<Arc<AtomicBool>>,
    stats: LocalSearchStats,
}

impl<'m> MinConflicts<'m> {
    /// The step budget of [`MinConflicts::new`].
    pub const DEFAULT_MAX_STEPS: u64 = 100_000;

    /// A search of `model` with seed 0, at most [`Self::DEFAULT_MAX_STEPS`] steps, the default
    /// restart patience and no time limit.
    pub fn new(model: &'m Model) -> Self {
        MinConflicts {
            model,
            seed: 0,
            max_steps: Self::DEFAULT_MAX_STEPS,
            restart_after: None,
            time_limit: None,
            cancel: None,
            stats: LocalSearchStats::default(),
        }
    }

    /// Restarts from a new greedy assignment after `steps` steps in a row that did not lower
    /// the fewest conflicts seen in the run (at least 1); by default `max(1000, 10 ×
    /// variables)`. A patience above the step budget means no restart.
    pub fn with_restart_after(mut self, steps: u64) -> Self {
        self.restart_after = Some(steps.max(1));
        self
    }

    /// The restart patience in use: the one given, or the default for the model.
    pub fn restart_after(&self) -> u64 {
        self.restart_after
            .unwrap_or_else(|| (10 * self.model.num_variables() as u64).max(1000))
    }

    /// Stops the search after `time` (checked every few thousand values weighed, the greedy
    /// starts included), with [`LocalOutcome::NotFound`] and
    /// [`LocalSearchStats::stopped_by`] set.
    pub fn with_time_limit(mut self, time: Duration) -> Self {
        self.time_limit = Some(time);
        self
    }

    /// Stops the search when `flag` becomes true, from any thread (checked as the time limit
    /// is).
    pub fn with_cancel_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// The step budget.
    pub fn max_steps(&self) -> u64 {
        self.max_steps
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The seed of the random choices: the same seed gives the same run.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The most steps to take before giving up with [`LocalOutcome::NotFound`].
    pub fn with_max_steps(mut self, max_steps: u64) -> Self {
        self.max_steps = max_steps;
        self
    }

    /// The statistics of the last run.
    pub fn stats(&self) -> LocalSearchStats {
        self.stats
    }

    /// Runs the search from a fresh initial assignment.
    pub fn run(&mut self) -> LocalOutcome {
        self.run_with(|_| {})
    }

    /// Runs the search, calling `on_step` after every step.
    pub fn run_with(&mut self, on_step: impl FnMut(&MinConflictsStep)) -> LocalOutcome {
        self.run_observed(&mut OnStep(on_step))
    }

    /// Runs the search, telling `observer` of every step and restart.
    pub fn run_observed(&mut self, observer: &mut impl LocalSearchObserver) -> LocalOutcome {
        let deadline = Deadline {
            start: Instant::now(),
            time_limit: self.time_limit,
            cancel: self.cancel.clone(),
        };
        let patience = self.restart_after();
        self.stats = LocalSearchStats::default();
        let mut state = State::new(self.model, self.seed);
        if let Some(limit) = state.initial_assignment(&deadline) {
            // Stopped while building the start: no step was taken.
            self.stats.stopped_by = Some(limit);
            self.stats.final_conflicts = state.total_conflicts();
            self.stats.elapsed = deadline.start.elapsed();
            return LocalOutcome::NotFound { steps: 0 };
        }
        self.stats.initial_conflicted = state.collect_conflicted();
        let mut total = state.total_conflicts();
        observer.start(&MinConflictsStart {
            restart: 0,
            values: &state.values,
            conflicts: total,
        });
        let (mut best, mut best_at) = (total, 0);
        let mut steps = 0;
        let mut next_check = state.work + CHECK_WORK;
        let outcome = loop {
            let Some(var) = state.pick_conflicted() else {
                // No variable that can change is in conflict: a solution, unless the
                // violations are among variables with one value, which no step can repair.
                if self.model.is_solution(&state.values) {
                    debug_assert_eq!(total, 0, "the conflicts counted as the search went");
                    break LocalOutcome::Solved(Solution::from_values(
                        self.model,
                        std::mem::take(&mut state.values),
                    ));
                }
                break LocalOutcome::NotFound { steps };
            };
            if steps == self.max_steps {
                break LocalOutcome::NotFound { steps };
            }
            if state.work >= next_check {
                next_check = state.work + CHECK_WORK;
                if let Some(limit) = deadline.reached() {
                    self.stats.stopped_by = Some(limit);
                    break LocalOutcome::NotFound { steps };
                }
            }
            if steps - best_at >= patience {
                // No progress for `patience` steps: a new start.
                let ended_best = best;
                state.reset();
                if let Some(limit) = state.initial_assignment(&deadline) {
                    self.stats.stopped_by = Some(limit);
                    break LocalOutcome::NotFound { steps };
                }
                state.collect_conflicted();
                total = state.total_conflicts();
                (best, best_at) = (total, steps);
                self.stats.restarts += 1;
                observer.restart(&MinConflictsRestart {
                    restart: self.stats.restarts,
                    steps,
                    best_conflicts: ended_best,
                    conflicts: total,
                });
                observer.start(&MinConflictsStart {
                    restart: self.stats.restarts,
                    values: &state.values,
                    conflicts: total,
                });
                continue;
            }
            steps += 1;
            let old_value = state.values[var];
            let conflicts_before = state.conflicts(var, old_value);
            let (new_value, conflicts_after) = state.min_conflicts_value(var);
            state.assign(var, new_value);
            total =
                (total + u64::from(conflicts_after)).saturating_sub(u64::from(conflicts_before));
            if total < best {
                (best, best_at) = (total, steps);
            }
            self.stats.steps = steps;
            observer.step(&MinConflictsStep {
                step: steps,
                variable: state.var_ids[var],
                old_value,
                new_value,
                conflicts_before,
                conflicts_after,
                total_conflicts: total,
            });
        };
        self.stats.final_conflicts = total;
        self.stats.elapsed = deadline.start.elapsed();
        outcome
    }
}

/// When a run must stop: its time limit and its cancellation flag.
struct Deadline {
    start: Instant,
    time_limit: Option<Duration>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Deadline {
    /// The limit reached, if one is.
    fn reached(&self) -> Option<Limit> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            Some(Limit::Cancelled)
        } else if self.time_limit.is_some_and(|t| self.start.elapsed() >= t) {
            Some(Limit::Time)
        } else {
            None
        }
    }
}

/// How one constraint counts conflicts.
enum Counter<'m> {
    /// Pairwise distinct view values `factor·x + constant`: dense counts per view value.
    Distinct(Distinct),
    /// Any other constraint: its `check` on the current values.
    Checked(&'m dyn Constraint),
}

struct Distinct {
    vars: Vec<usize>,
    factors: Vec<i64>,
    constants: Vec<i64>,
    base: i64,
    /// How many positions take each view value (index `key - base`).
    count: Vec<u32>,
    /// The exclusive or of the positions taking each view value: when one position does, it.
    xor: Vec<u32>,
    /// The slots no position takes, in no order.
    free: Vec<u32>,
    /// The index in `free` of each slot, or `NOT_FREE`.
    free_at: Vec<u32>,
}

impl Distinct {
    fn new(constraint: &dyn Constraint, model: &Model) -> Option<Distinct> {
        let views = constraint.distinct_views()?;
        let mut vars: Vec<usize> = views.iter().map(|v| v.var().index()).collect();
        let mut sorted = vars.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != vars.len() || views.iter().any(|v| v.factor() == 0) {
            return None;
        }
        let (mut low, mut high) = (i64::MAX, i64::MIN);
        for view in &views {
            let domain = model.domain(view.var());
            for value in [domain.min()?, domain.max()?] {
                let key = view.apply(value);
                low = low.min(key);
                high = high.max(key);
            }
        }
        // Dense counters cost memory per view value: only for spans bounded by the scope.
        let bound = (DENSE_PER_POSITION as i64)
            .saturating_mul(views.len() as i64)
            .max(FULL_SCAN as i64)
            .min(DENSE_LIMIT);
        if high - low >= bound {
            return None;
        }
        let span = usize::try_from(high - low + 1).ok()?;
        let factors = views.iter().map(|v| v.factor()).collect();
        let constants = views.iter().map(|v| v.constant()).collect();
        vars.shrink_to_fit();
        Some(Distinct {
            vars,
            factors,
            constants,
            base: low,
            count: vec![0; span],
            xor: vec![0; span],
            free: (0..span as u32).collect(),
            free_at: (0..span as u32).collect(),
        })
    }

    /// Back to no position taking any value.
    fn reset(&mut self) {
        self.count.fill(0);
        self.xor.fill(0);
        self.free.clear();
        self.free.extend(0..self.count.len() as u32);
        self.free_at.clear();
        self.free_at.extend(0..self.count.len() as u32);
    }

    /// Position `position` leaves `slot`.
    #[inline]
    fn leave(&mut self, position: usize, slot: usize) {
        self.count[slot] -= 1;
        self.xor[slot] ^= position as u32;
        if self.count[slot] == 0 {
            self.free_at[slot] = self.free.len() as u32;
            self.free.push(slot as u32);
        }
    }

    /// Position `position` takes `slot`.
    #[inline]
    fn take(&mut self, position: usize, slot: usize) {
        if self.count[slot] == 0 {
            let at = self.free_at[slot] as usize;
            self.free.swap_remove(at);
            if let Some(&moved) = self.free.get(at) {
                self.free_at[moved as usize] = at as u32;
            }
            self.free_at[slot] = NOT_FREE;
        }
        self.count[slot] += 1;
        self.xor[slot] ^= position as u32;
    }

    /// The value of the variable at `position` whose view value is at `slot`, if there is one.
    #[inline]
    fn value_at(&self, position: usize, slot: u32) -> Option<i32> {
        let scaled = i64::from(slot) + self.base - self.constants[position];
        let factor = self.factors[position];
        (scaled % factor == 0)
            .then(|| i32::try_from(scaled / factor).ok())
            .flatten()
    }

    /// The pairs of positions that share a view value.
    fn pairs(&self) -> u64 {
        self.count
            .iter()
            .map(|&c| u64::from(c) * u64::from(c.saturating_sub(1)) / 2)
            .sum()
    }

    #[inline]
    fn slot(&self, position: usize, value: i32) -> usize {
        (self.factors[position] * i64::from(value) + self.constants[position] - self.base) as usize
    }
}

/// The state of one run.
struct State<'m> {
    model: &'m Model,
    var_ids: Vec<VarId>,
    values: Vec<i32>,
    assigned: Vec<bool>,
    counters: Vec<Counter<'m>>,
    /// The (counter, position) pairs of each variable, as a compressed sparse row.
    occurrence_start: Vec<usize>,
    occurrences: Vec<(u32, u32)>,
    /// Whether every constraint on each variable counts by `Distinct` (and there is one).
    all_distinct: Vec<bool>,
    /// A buffer of free slots.
    slots: Vec<u32>,
    /// A superset of the variables in conflict that have more than one value.
    candidates: Vec<u32>,
    is_candidate: Vec<bool>,
    random: SplitMix64,
    buffer: Vec<i32>,
    /// The conflicts of each value of the variable being moved (from its smallest value).
    per_value: Vec<u32>,
    /// The values a step tries, for a domain too wide to scan.
    samples: Vec<i32>,
    /// The work done: conflicts counted and values summed, for reading the limits.
    work: u64,
}

impl<'m> State<'m> {
    fn new(model: &'m Model, seed: u64) -> Self {
        let var_ids: Vec<VarId> = model.variables().collect();
        let n = var_ids.len();
        let mut counters = Vec::with_capacity(model.num_constraints());
        // (variable, counter, position), sorted by variable below: a compressed sparse row
        // without a vector per variable.
        let mut triples: Vec<(u32, u32, u32)> = Vec::new();
        for (_, constraint) in model.constraints() {
            let index = counters.len() as u32;
            let counter = match Distinct::new(constraint, model) {
                Some(distinct) => Counter::Distinct(distinct),
                None => Counter::Checked(constraint),
            };
            let mut scope: Vec<usize> = constraint.scope().iter().map(|v| v.index()).collect();
            if let Counter::Distinct(distinct) = &counter {
                scope.clone_from(&distinct.vars);
            } else {
                scope.sort_unstable();
                scope.dedup();
            }
            for (position, var) in scope.into_iter().enumerate() {
                triples.push((var as u32, index, position as u32));
            }
            counters.push(counter);
        }
        // A variable appears once per counter: (variable, counter) orders the triples fully,
        // each variable's counters in the order of the constraints.
        triples.sort_unstable_by_key(|&(var, counter, _)| (var, counter));
        let mut occurrence_start = Vec::with_capacity(n + 1);
        let mut occurrences = Vec::with_capacity(triples.len());
        let mut all_distinct = vec![false; n];
        let mut next = 0;
        for (var, is_distinct) in all_distinct.iter_mut().enumerate() {
            occurrence_start.push(occurrences.len());
            let first = next;
            while next < triples.len() && triples[next].0 as usize == var {
                let (_, counter, position) = triples[next];
                occurrences.push((counter, position));
                next += 1;
            }
            *is_distinct = next > first
                && occurrences[occurrences.len() - (next - first)..]
                    .iter()
                    .all(|&(c, _)| matches!(counters[c as usize], Counter::Distinct(_)));
        }
        drop(triples);
        occurrence_start.push(occurrences.len());
        State {
            model,
            values: var_ids
                .iter()
                .map(|&v| model.domain(v).min().unwrap_or(0))
                .collect(),
            assigned: vec![false; n],
            is_candidate: vec![false; n],
            var_ids,
            counters,
            occurrence_start,
            occurrences,
            all_distinct,
            slots: Vec::new(),
            candidates: Vec::new(),
            random: SplitMix64::new(seed),
            buffer: Vec::new(),
            per_value: Vec::new(),
            samples: Vec::new(),
            work: 0,
        }
    }

    /// The conflicts of `var` at `value`, the others keeping their values (unassigned
    /// variables do not count).
    fn conflicts(&mut self, var: usize, value: i32) -> u32 {
        self.work += 1;
        let mut total = 0;
        for k in self.occurrence_start[var]..self.occurrence_start[var + 1] {
            let (counter, position) = self.occurrences[k];
            total += self.conflicts_in(counter as usize, position as usize, var, value);
        }
        total
    }

    /// The conflicts of `var` (at `position` of counter `counter`) at `value` in that
    /// constraint alone.
    fn conflicts_in(&mut self, counter: usize, position: usize, var: usize, value: i32) -> u32 {
        match &self.counters[counter] {
            Counter::Distinct(d) => {
                let here = d.count[d.slot(position, value)];
                let own = self.assigned[var] && self.values[var] == value;
                here - u32::from(own)
            }
            Counter::Checked(constraint) => {
                let scope = constraint.scope();
                if scope
                    .iter()
                    .any(|u| u.index() != var && !self.assigned[u.index()])
                {
                    return 0;
                }
                self.buffer.clear();
                self.buffer.extend(scope.iter().map(|u| {
                    if u.index() == var {
                        value
                    } else {
                        self.values[u.index()]
                    }
                }));
                u32::from(!constraint.check(&self.buffer))
            }
        }
    }

    /// Gives `value` to `var`, updating the counters and adding to the candidates every
    /// variable the move may have put in conflict.
    fn assign(&mut self, var: usize, value: i32) {
        let old = self.assigned[var].then_some(self.values[var]);
        self.values[var] = value;
        self.assigned[var] = true;
        for k in self.occurrence_start[var]..self.occurrence_start[var + 1] {
            let (counter, position) = self.occurrences[k];
            let position = position as usize;
            match &mut self.counters[counter as usize] {
                Counter::Distinct(d) => {
                    if let Some(old) = old {
                        d.leave(position, d.slot(position, old));
                    }
                    let slot = d.slot(position, value);
                    if d.count[slot] == 1 {
                        let other = d.vars[d.xor[slot] as usize];
                        add_candidate(
                            self.model,
                            &self.var_ids,
                            &mut self.candidates,
                            &mut self.is_candidate,
                            other,
                        );
                    }
                    d.take(position, slot);
                }
                Counter::Checked(constraint) => {
                    let scope = constraint.scope();
                    if scope.iter().all(|u| self.assigned[u.index()]) {
                        self.buffer.clear();
                        self.buffer
                            .extend(scope.iter().map(|u| self.values[u.index()]));
                        if !constraint.check(&self.buffer) {
                            for u in scope {
                                add_candidate(
                                    self.model,
                                    &self.var_ids,
                                    &mut self.candidates,
                                    &mut self.is_candidate,
                                    u.index(),
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// AIMA's greedy start: each variable in turn gets a value with the fewest conflicts with
    /// those before it. Stops early, with the limit, when `deadline` is reached.
    fn initial_assignment(&mut self, deadline: &Deadline) -> Option<Limit> {
        let mut next_check = self.work + CHECK_WORK;
        for var in 0..self.values.len() {
            // At least once every 64 variables, besides the work done.
            self.work += 64;
            if self.work >= next_check {
                next_check = self.work + CHECK_WORK;
                if let Some(limit) = deadline.reached() {
                    return Some(limit);
                }
            }
            let domain = self.model.domain(self.var_ids[var]);
            let value = if domain.size() <= SMALL {
                let values: Vec<i32> = domain.iter().collect();
                self.best_of(var, values.into_iter(), false).0
            } else if let Some(value) = self.probe_free(var) {
                value
            } else {
                // From a random value up, wrapping around, at most SCAN values.
                let (low, high) = (domain.min().unwrap_or(0), domain.max().unwrap_or(0));
                let span = (i64::from(high) - i64::from(low) + 1) as u64;
                let start = self.random.below(span);
                let scanned = (0..span.min(SCAN as u64))
                    .map(|i| (i64::from(low) + ((start + i) % span) as i64) as i32)
                    .filter(|&value| domain.contains(value));
                self.best_of(var, scanned, true).0
            };
            self.assign(var, value);
        }
        None
    }

    /// The counter of `var` with the fewest free slots, its position there, and how many free
    /// slots it has, when every constraint on `var` counts by `Distinct`.
    fn fewest_free(&self, var: usize) -> Option<(usize, usize, usize)> {
        if !self.all_distinct[var] {
            return None;
        }
        let occurrences =
            &self.occurrences[self.occurrence_start[var]..self.occurrence_start[var + 1]];
        occurrences
            .iter()
            .filter_map(|&(c, position)| match &self.counters[c as usize] {
                Counter::Distinct(d) => Some((c as usize, position as usize, d.free.len())),
                Counter::Checked(_) => None,
            })
            .min_by_key(|&(_, _, free)| free)
    }

    /// For the greedy start: a value of `var` without conflicts among up to `PROBES` drawn at
    /// random from the free slots of one of its constraints.
    fn probe_free(&mut self, var: usize) -> Option<i32> {
        let (counter, position, free) = self.fewest_free(var)?;
        if free == 0 {
            return None;
        }
        let domain = self.model.domain(self.var_ids[var]);
        for _ in 0..PROBES {
            let i = self.random.below(free as u64) as usize;
            let Counter::Distinct(d) = &self.counters[counter] else {
                return None;
            };
            let value = d.value_at(position, d.free[i]);
            if let Some(value) = value.filter(|&v| domain.contains(v))
                && self.conflicts(var, value) == 0
            {
                return Some(value);
            }
        }
        None
    }

    /// For a step: a value of `var` without conflicts, chosen at random among all those
    /// (they are among the free slots of its constraint with the fewest), or `None` if there
    /// is none or looking would cost more than a scan of the domain.
    fn free_value(&mut self, var: usize, span: usize) -> Option<i32> {
        let (counter, position, free) = self.fewest_free(var)?;
        if free >= span / 2 {
            return None;
        }
        let domain = self.model.domain(self.var_ids[var]);
        let mut slots = std::mem::take(&mut self.slots);
        slots.clear();
        if let Counter::Distinct(d) = &self.counters[counter] {
            slots.extend_from_slice(&d.free);
        }
        let (mut chosen, mut zeros) = (None, 0u64);
        for &slot in &slots {
            let Counter::Distinct(d) = &self.counters[counter] else {
                break;
            };
            let Some(value) = d.value_at(position, slot).filter(|&v| domain.contains(v)) else {
                continue;
            };
            if self.conflicts(var, value) == 0 {
                zeros += 1;
                if self.random.below(zeros) == 0 {
                    chosen = Some(value);
                }
            }
        }
        self.slots = slots;
        chosen
    }

    /// The conflicts of the whole assignment: the pairs of positions sharing a view value in
    /// each all-different, plus the other constraints violated.
    fn total_conflicts(&mut self) -> u64 {
        let mut total = 0;
        for counter in &self.counters {
            total += match counter {
                Counter::Distinct(d) => d.pairs(),
                Counter::Checked(constraint) => {
                    self.buffer.clear();
                    self.buffer
                        .extend(constraint.scope().iter().map(|u| self.values[u.index()]));
                    u64::from(!constraint.check(&self.buffer))
                }
            };
        }
        total
    }

    /// Back to no variable assigned and no candidate, for a new start.
    fn reset(&mut self) {
        for counter in &mut self.counters {
            if let Counter::Distinct(d) = counter {
                d.reset();
            }
        }
        self.assigned.fill(false);
        for &var in &self.candidates {
            self.is_candidate[var as usize] = false;
        }
        self.candidates.clear();
    }

    /// The value of `values` with the fewest conflicts for `var`, ties broken at random, and
    /// its conflicts; with `stop_at_zero`, the first value without conflicts.
    fn best_of(
        &mut self,
        var: usize,
        values: impl Iterator<Item = i32>,
        stop_at_zero: bool,
    ) -> (i32, u32) {
        let (mut best, mut best_conflicts, mut ties) = (self.values[var], u32::MAX, 0u64);
        for value in values {
            let c = self.conflicts(var, value);
            if c < best_conflicts {
                (best, best_conflicts, ties) = (value, c, 1);
                if c == 0 && stop_at_zero {
                    break;
                }
            } else if c == best_conflicts {
                ties += 1;
                if self.random.below(ties) == 0 {
                    best = value;
                }
            }
        }
        (best, best_conflicts)
    }

    /// The value of `var`'s domain with the fewest conflicts, ties broken at random, and its
    /// conflicts. The conflicts of all values are added up constraint by constraint into
    /// `per_value`, so that an all-different with unit factors adds a slice of its counts.
    fn min_conflicts_value(&mut self, var: usize) -> (i32, u32) {
        let domain = self.model.domain(self.var_ids[var]);
        let (Some(low), Some(high)) = (domain.min(), domain.max()) else {
            return (self.values[var], 0);
        };
        let span = (i64::from(high) - i64::from(low) + 1) as usize;
        if let Some(value) = self.free_value(var, span) {
            return (value, 0);
        }
        if span > FULL_SCAN {
            // Never an array per value of a wide domain: its values one by one if they are
            // few, else a sample.
            if domain.size() <= FULL_SCAN {
                return self.best_of(var, domain.iter(), false);
            }
            return self.best_of_sample(var, low, high);
        }
        self.work += span as u64;
        let mut per_value = std::mem::take(&mut self.per_value);
        per_value.clear();
        per_value.resize(span, 0);
        for k in self.occurrence_start[var]..self.occurrence_start[var + 1] {
            let (counter, position) = self.occurrences[k];
            let (counter, position) = (counter as usize, position as usize);
            match &self.counters[counter] {
                Counter::Distinct(d) if d.factors[position] == 1 => {
                    let first = d.slot(position, low);
                    for (total, &count) in per_value.iter_mut().zip(&d.count[first..first + span]) {
                        *total += count;
                    }
                    // The variable does not conflict with itself.
                    per_value[(self.values[var] - low) as usize] -= 1;
                }
                _ => {
                    for value in domain.iter() {
                        per_value[(value - low) as usize] +=
                            self.conflicts_in(counter, position, var, value);
                    }
                }
            }
        }
        let (mut best, mut best_conflicts, mut ties) = (self.values[var], u32::MAX, 0u64);
        for value in domain.iter() {
            let c = per_value[(value - low) as usize];
            if c < best_conflicts {
                (best, best_conflicts, ties) = (value, c, 1);
            } else if c == best_conflicts {
                ties += 1;
                if self.random.below(ties) == 0 {
                    best = value;
                }
            }
        }
        self.per_value = per_value;
        (best, best_conflicts)
    }

    /// The value with the fewest conflicts among the current value of `var`, its bounds
    /// `low` and `high`, and `SAMPLES` values of its domain drawn at random (each the value
    /// drawn in `low..=high`, or the next one of the domain), ties broken at random.
    fn best_of_sample(&mut self, var: usize, low: i32, high: i32) -> (i32, u32) {
        let domain = self.model.domain(self.var_ids[var]);
        let span = (i64::from(high) - i64::from(low) + 1) as u64;
        let mut samples = std::mem::take(&mut self.samples);
        samples.clear();
        samples.extend([self.values[var], low, high]);
        for _ in 0..SAMPLES {
            let drawn = (i64::from(low) + self.random.below(span) as i64) as i32;
            if domain.contains(drawn) {
                samples.push(drawn);
            } else if let Some(value) = domain.above(drawn).or_else(|| domain.below(drawn)) {
                samples.push(value);
            }
        }
        let best = self.best_of(var, samples.iter().copied(), false);
        self.samples = samples;
        best
    }

    /// Makes the candidates every variable in conflict; returns how many there are.
    fn collect_conflicted(&mut self) -> u64 {
        let mut conflicted = 0;
        for var in 0..self.values.len() {
            if self.conflicts(var, self.values[var]) > 0 {
                conflicted += 1;
                add_candidate(
                    self.model,
                    &self.var_ids,
                    &mut self.candidates,
                    &mut self.is_candidate,
                    var,
                );
            }
        }
        conflicted
    }

    /// A variable in conflict that can change, chosen uniformly at random, or `None` if there
    /// is none. Candidates no longer in conflict are dropped on the way.
    fn pick_conflicted(&mut self) -> Option<usize> {
        while !self.candidates.is_empty() {
            let i = self.random.below(self.candidates.len() as u64) as usize;
            let var = self.candidates[i] as usize;
            if self.conflicts(var, self.values[var]) > 0 {
                return Some(var);
            }
            self.candidates.swap_remove(i);
            self.is_candidate[var] = false;
        }
        None
    }
}

/// Adds `var` to the candidates, unless it is one already or has a single value.
fn add_candidate(
    model: &Model,
    var_ids: &[VarId],
    candidates: &mut Vec<u32>,
    is_candidate: &mut [bool],
    var: usize,
) {
    if !is_candidate[var] && model.domain(var_ids[var]).size() > 1 {
        is_candidate[var] = true;
        candidates.push(var as u32);
    }
}
