//! Large-neighbourhood search beside branch and bound ([`Solver::with_lns`]).
//!
//! Branch and bound in a fixed order spends a long time under the first decisions: a better
//! solution that differs from the best one at the top of the tree is out of reach until the
//! search backtracks there. Large-neighbourhood search (Shaw, "Using constraint programming and
//! local search methods to solve vehicle routing problems", CP 1998) looks near the best
//! solution instead: it fixes most of the decision variables to their values in that solution,
//! and searches the rest, the *neighbourhood*, for a better one, within a small failure budget;
//! then again, around the newest best solution, with other variables left free.
//!
//! Here it runs beside the complete search, not instead of it: once branch and bound has its
//! first solution and has made a number of decisions ([`Lns::with_warmup`]), the two take
//! turns of so many decisions each ([`Lns::with_turn`]), on engines of their own, and every
//! better solution either of them finds tightens the bound of both. The complete search still
//! ends the optimisation: it proves the last solution optimal when its tree is exhausted, so
//! without a limit the answer is the one of branch and bound alone; under a limit, the
//! neighbourhoods' decisions are taken from branch and bound's.
//!
//! Each neighbourhood is one of two kinds, in turn: each decision variable kept free with
//! probability `r`, or a run of consecutive decision variables (a fraction `r` of them, from a
//! random start) kept free. `r` adapts as in the adaptive LNS of Pisinger and Ropke (2010, in
//! spirit): a neighbourhood searched to its end without a better solution was too small, and
//! `r` grows; one that used up its failure budget was too large, and `r` shrinks.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use super::engine::{Bound, Engine, Run, Step};
use super::limits::{Budget, Clock, Limit, Pause};
use super::observer::NoObserver;
use super::ordering::{Ascending, DomWdeg, ValueOrder, VariableOrder};
use super::pause::{Progress, Tracked};
use crate::ids::VarId;
use crate::model::{Model, Solution};
use crate::util::random::nth;

/// Large-neighbourhood search beside branch and bound: what [`Solver::with_lns`] takes.
///
/// The neighbourhoods are searched with their own orders (by default [`DomWdeg`] and
/// [`Ascending`]: the failures met in one neighbourhood guide the next), over the decision
/// variables given with [`with_variables`](Lns::with_variables) (by default every variable of
/// the model but those of the objective).
///
/// A clone shares the neighbourhoods' orders with the original, and what they learn in one
/// optimisation (dom/wdeg's weights) carries over to the next of either, as it does from one
/// optimisation to the next of one solver. Give each of several solvers that run at the same
/// time an `Lns` of its own, for searches that are functions of their seeds.
///
/// [`Solver::with_lns`]: crate::Solver::with_lns
///
/// # Examples
///
/// ```
/// use cspkit::{LinearExpr, Lns, Model, Optimum};
///
/// // Ten items, at most 20 in weight, of the greatest value.
/// let weights = [4, 7, 3, 9, 5, 6, 2, 8, 3, 5];
/// let values = [6, 9, 4, 12, 7, 8, 3, 11, 5, 6];
/// let mut model = Model::new();
/// let take = model.new_vars(10, 0..=1)?;
/// let weight: LinearExpr = take.iter().zip(weights).map(|(&x, w)| LinearExpr::from(x) * w).sum();
/// let value: LinearExpr = take.iter().zip(values).map(|(&x, v)| LinearExpr::from(x) * v).sum();
/// model.post(weight.le(20))?;
/// let mut solver = model.solver().with_lns(Lns::new().with_seed(7));
/// let optimum = solver.maximize(value)?;
/// // The complete search still proves the optimum.
/// assert!(matches!(optimum, Optimum::Optimal { value: 29, .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Lns {
    seed: u64,
    warmup: u64,
    turn: u64,
    failures: u64,
    variables: Option<Vec<VarId>>,
    /// The orders, locked by one turn of neighbourhoods at a time.
    orders: Arc<Mutex<Orders>>,
}

/// The orders that search the neighbourhoods.
struct Orders {
    variable: Box<dyn VariableOrder + Send>,
    value: Box<dyn ValueOrder + Send>,
}

impl fmt::Debug for Lns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lns")
            .field("seed", &self.seed)
            .field("warmup", &self.warmup)
            .field("turn", &self.turn)
            .field("failures", &self.failures)
            .field("variables", &self.variables)
            .finish_non_exhaustive()
    }
}

impl Default for Lns {
    fn default() -> Self {
        Lns::new()
    }
}

impl Lns {
    /// Neighbourhoods with seed 0, searched by [`DomWdeg`] and [`Ascending`], over every
    /// variable but the objective's; branch and bound makes 2,000 decisions before the first
    /// neighbourhood, then the two take turns of 1,000 decisions, and a neighbourhood may meet
    /// 200 failures.
    pub fn new() -> Self {
        Lns {
            seed: 0,
            warmup: 2_000,
            turn: 1_000,
            failures: 200,
            variables: None,
            orders: Arc::new(Mutex::new(Orders {
                variable: Box::new(DomWdeg::new()),
                value: Box::new(Ascending),
            })),
        }
    }

    /// The decisions branch and bound makes (in all, and with a solution) before the first
    /// neighbourhood: a search that finishes within them runs as without neighbourhoods.
    pub fn with_warmup(mut self, decisions: u64) -> Self {
        self.warmup = decisions;
        self
    }

    /// The decisions of each turn, of branch and bound and of the neighbourhoods alike (at
    /// least 1).
    pub fn with_turn(mut self, decisions: u64) -> Self {
        self.turn = decisions.max(1);
        self
    }

    /// The failures one neighbourhood may meet before it is left (at least 1).
    pub fn with_failures(mut self, failures: u64) -> Self {
        self.failures = failures.max(1);
        self
    }

    /// The seed of the neighbourhoods' random choices: a search is a function of it.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The decision variables: those a neighbourhood fixes to their values in the best
    /// solution or keeps free. The others are always free (variables a constraint defines,
    /// such as an objective or a sum, are best left out).
    pub fn with_variables(mut self, variables: &[VarId]) -> Self {
        self.variables = Some(variables.to_vec());
        self
    }

    /// The orders that search each neighbourhood.
    pub fn with_orders(
        mut self,
        variable_order: impl VariableOrder + Send + 'static,
        value_order: impl ValueOrder + Send + 'static,
    ) -> Self {
        self.orders = Arc::new(Mutex::new(Orders {
            variable: Box::new(variable_order),
            value: Box::new(value_order),
        }));
        self
    }
}

impl Lns {
    /// Where branch and bound's first turn ends, once it has a solution, `decisions` made.
    pub(crate) fn first_turn_end(&self, decisions: u64) -> u64 {
        self.warmup.max(decisions.saturating_add(self.turn))
    }
}

/// The bounds of `r`, the fraction of the decision variables a neighbourhood keeps free.
const SMALLEST: f64 = 0.02;
const LARGEST: f64 = 0.95;
/// How much `r` grows or shrinks after a neighbourhood.
const STEP: f64 = 1.15;

/// What a turn of neighbourhoods ended with.
pub(crate) enum Turn {
    /// A solution better than the best: its objective obeys the bound.
    Better(Solution),
    /// The turn's decisions are spent.
    Over,
    /// A neighbourhood with nothing fixed was searched to its end: no better solution exists.
    Exhausted,
    /// A limit of the solver stopped it.
    Limit(Limit),
}

/// The neighbourhoods of one optimisation: their engine, orders and adaptive size.
pub(crate) struct Neighbourhoods<'m> {
    config: Lns,
    engine: Engine<'m>,
    variables: Vec<VarId>,
    /// The fraction of `variables` kept free.
    free: f64,
    /// Neighbourhoods started.
    count: u64,
    /// Whether the turn of neighbourhoods in progress found a better solution.
    improved: bool,
    /// Turns of neighbourhoods in a row that found nothing better (at most 3).
    idle: u32,
}

impl<'m> Neighbourhoods<'m> {
    /// Neighbourhoods searched on `engine` (a fresh engine of the solver's model), whose
    /// objective has these `terms`.
    pub(crate) fn new(
        config: Lns,
        engine: Engine<'m>,
        model: &Model,
        terms: &[(i64, VarId)],
    ) -> Self {
        let variables = match &config.variables {
            Some(vars) => vars.iter().copied().filter(|&v| model.owns(v)).collect(),
            None => {
                let objective: std::collections::HashSet<VarId> =
                    terms.iter().map(|&(_, v)| v).collect();
                model
                    .variables()
                    .filter(|v| !objective.contains(v))
                    .collect()
            }
        };
        Neighbourhoods {
            config,
            engine,
            variables,
            free: 0.2,
            count: 0,
            improved: false,
            idle: 0,
        }
    }

    /// The configuration, back to the solver.
    pub(crate) fn into_config(self) -> Lns {
        self.config
    }

    /// Where the turn of neighbourhoods that starts now, `decisions` made, ends.
    pub(crate) fn neighbourhood_turn_end(&mut self, decisions: u64) -> u64 {
        self.improved = false;
        decisions.saturating_add(self.config.turn)
    }

    /// Where branch and bound's turn that starts now, `decisions` made, ends: its turns grow
    /// twofold (to eightfold) with each turn of neighbourhoods in a row that found nothing
    /// better, so that a search left with its proof to make spends little on them.
    pub(crate) fn search_turn_end(&mut self, decisions: u64) -> u64 {
        self.idle = if self.improved {
            0
        } else {
            (self.idle + 1).min(3)
        };
        decisions.saturating_add(self.config.turn.saturating_mul(1 << self.idle))
    }

    /// Searches neighbourhoods of `best` for a better solution (one whose objective obeys
    /// `bound`), until one is found, `until` decisions in all are reached, or a limit stops.
    /// `fixes` are the solver's own fixes, kept in every neighbourhood.
    pub(crate) fn turn(
        &mut self,
        run: &mut TurnContext<'_, 'm>,
        best: &Solution,
        bound: &Bound,
        until: u64,
    ) -> Turn {
        let shared = Arc::clone(&self.config.orders);
        // Uncontended unless a clone of this configuration runs at the same time; a panic in
        // an order leaves it as it was, still an order.
        let mut orders = shared.lock().unwrap_or_else(PoisonError::into_inner);
        let orders = &mut *orders;
        loop {
            if run.stats.decisions >= until {
                return Turn::Over;
            }
            let (fixed, index) = self.start(run.model, run.fixes, best, bound);
            orders.variable.start_run(index);
            orders.value.start_run(index);
            let progress = Progress::default();
            let pause = Pause {
                failures: Some(self.config.failures),
                progress: Some(&progress),
                nodes: Some(until),
                ..Pause::default()
            };
            let budget = Budget::start(run.limits, run.clock).with_pause(pause);
            let mut observer = NoObserver;
            let mut tracked = Tracked {
                inner: &mut observer,
                progress: &progress,
            };
            let mut search = Run {
                model: run.model,
                variable_order: &mut orders.variable,
                value_order: &mut orders.value,
                observer: &mut tracked,
                budget: &budget,
                stats: run.stats,
            };
            let step = self.engine.next(&mut search);
            run.stats.elapsed = budget.elapsed();
            match step {
                Step::Solution => {
                    self.improved = true;
                    return Turn::Better(Solution::from_domains(run.model, self.engine.domains()));
                }
                Step::Exhausted if fixed == 0 => return Turn::Exhausted,
                // No better solution here: look further.
                Step::Exhausted => self.free = (self.free * STEP).min(LARGEST),
                Step::Limit(_) if budget.paused() => {
                    if run.stats.decisions >= until {
                        return Turn::Over;
                    }
                    // Too large to search within the budget: look closer.
                    self.free = (self.free / STEP).max(SMALLEST);
                }
                Step::Limit(limit) => return Turn::Limit(limit),
            }
        }
    }

    /// Sets the engine at the root of the next neighbourhood of `best`; returns the number of
    /// decision variables it fixes, and the number of the neighbourhood (the run the orders
    /// start).
    fn start(
        &mut self,
        model: &Model,
        fixes: &[(VarId, i32)],
        best: &Solution,
        bound: &Bound,
    ) -> (usize, u32) {
        let index = self.count;
        self.count += 1;
        let key = nth(self.config.seed, index);
        self.engine.reset(model);
        for &(var, value) in fixes {
            self.engine.fix_before_search(var, value);
        }
        self.engine.set_bound(Some(bound.clone()));
        let n = self.variables.len();
        // At least one variable free, else the neighbourhood holds only the best solution.
        let free = ((self.free * n as f64).round() as usize).clamp(1.min(n), n);
        let mut fixed = 0;
        if index.is_multiple_of(2) {
            // Each variable free with probability `free / n`.
            let threshold = (free as f64 / n.max(1) as f64 * u64::MAX as f64) as u64;
            for i in 0..n {
                if nth(key, i as u64) >= threshold {
                    fixed += self.fix(self.variables[i], best);
                }
            }
        } else if n > 0 {
            // `free` consecutive variables, from a random start, round the end.
            let start = (key % n as u64) as usize;
            for offset in free..n {
                fixed += self.fix(self.variables[(start + offset) % n], best);
            }
        }
        (fixed, index as u32)
    }

    /// Fixes `var` to its value in `best` if its domain still has it (a fix of the solver may
    /// have taken it) and is not fixed; returns 1 if it did.
    fn fix(&mut self, var: VarId, best: &Solution) -> usize {
        let value = best[var];
        let domain = &self.engine.domains()[var.index()];
        if domain.is_fixed() || !domain.contains(value) {
            return 0;
        }
        self.engine.fix_before_search(var, value);
        1
    }
}

/// What a turn of neighbourhoods borrows from the solver.
pub(crate) struct TurnContext<'s, 'm> {
    pub(crate) model: &'m Model,
    pub(crate) fixes: &'s [(VarId, i32)],
    pub(crate) limits: &'s super::limits::Limits,
    /// The clock of the optimisation call.
    pub(crate) clock: Clock,
    pub(crate) stats: &'s mut super::stats::SearchStats,
}
