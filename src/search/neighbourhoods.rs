//! The running side of large-neighbourhood search ([`Lns`] holds its settings): the
//! neighbourhoods of one optimisation, their engine and their adaptive size, taking turns
//! with branch and bound (`optimize.rs`).

use std::sync::{Arc, PoisonError};

use super::engine::{Bound, Engine, Run, Step};
use super::limits::{Budget, Clock, Limit, Pause};
use super::lns::Lns;
use super::observer::NoObserver;
use super::ordering::{ValueOrder, VariableOrder};
use super::pause::{Progress, Tracked};
use crate::ids::VarId;
use crate::model::{Model, Solution};
use crate::util::random::nth;

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
