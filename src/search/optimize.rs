//! Optimisation by branch and bound: [`Solver::minimize`] and [`Solver::maximize`].
//!
//! The search is the solver's own (its orders, propagation and limits); after each solution,
//! the objective's bound is tightened to "strictly better", and every node from then on
//! enforces it by bounds propagation (`Σ aᵢ·xᵢ ≤ best − 1`) after its fixpoint, before the
//! fixpoint runs again on what that pruned. When the search ends, the last solution is
//! optimal; when a limit ends it, the last one is the best found, and the bound proved so far
//! says how far it may be from the optimum.

use std::ops::ControlFlow;

use super::Solver;
use super::engine::{Bound, Step};
use super::limits::{Clock, Limit};
use super::neighbourhoods::{Neighbourhoods, Turn, TurnContext};
use super::observer::{Event, SearchObserver};
use super::ordering::{ValueOrder, VariableOrder};
use crate::error::ModelError;
use crate::model::{LinearExpr, Solution};

/// The answer of [`Solver::minimize`] or [`Solver::maximize`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub enum Optimum {
    /// The best solution, proved optimal: the search finished.
    Optimal {
        /// The solution.
        solution: Solution,
        /// Its objective value.
        value: i64,
    },
    /// A limit stopped the search after it found solutions: the best of them, not proved.
    BestFound {
        /// The best solution found.
        solution: Solution,
        /// Its objective value.
        value: i64,
        /// No solution is better than this: the objective's best value over the declared
        /// domains. The optimum lies between `bound` and `value` ([`Optimum::gap`]).
        bound: i64,
        /// What stopped the search.
        stopped_by: Limit,
    },
    /// The search finished without a solution: there is none.
    Infeasible,
    /// A limit stopped the search before any solution.
    Unknown(Limit),
}

impl Optimum {
    /// The best solution and its value, optimal or not.
    pub fn best(&self) -> Option<(&Solution, i64)> {
        match self {
            Optimum::Optimal { solution, value }
            | Optimum::BestFound {
                solution, value, ..
            } => Some((solution, *value)),
            _ => None,
        }
    }

    /// How far the best solution may be from the optimum: 0 when it is proved optimal, the
    /// distance between its value and the bound when a limit stopped the search, `None`
    /// without a solution.
    pub fn gap(&self) -> Option<u64> {
        match self {
            Optimum::Optimal { .. } => Some(0),
            Optimum::BestFound { value, bound, .. } => Some(value.abs_diff(*bound)),
            _ => None,
        }
    }

    /// Whether the answer is proved: optimal, or infeasible.
    pub fn is_proved(&self) -> bool {
        matches!(self, Optimum::Optimal { .. } | Optimum::Infeasible)
    }
}

impl<V: VariableOrder, W: ValueOrder, O: SearchObserver> Solver<'_, V, W, O> {
    /// The solution with the smallest value of `objective`, by branch and bound; see
    /// [`minimize_with`](Self::minimize_with) to see each improving solution as it is found.
    ///
    /// # Errors
    ///
    /// As [`minimize_with`](Self::minimize_with).
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::{LinearExpr, Model, Optimum};
    ///
    /// // The cheapest x, y with x + y ≥ 7 and x ≤ 2y, at price 3x + 2y.
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=10)?;
    /// let y = model.new_var(0..=10)?;
    /// model.post((LinearExpr::from(x) + y).ge(7))?;
    /// model.post(LinearExpr::from(x).le(LinearExpr::from(y) * 2))?;
    /// let cost = LinearExpr::from(x) * 3 + LinearExpr::from(y) * 2;
    /// let optimum = model.solver().minimize(cost)?;
    /// let (solution, value) = optimum.best().unwrap();
    /// assert!(optimum.is_proved());
    /// assert_eq!((solution[x], solution[y], value), (0, 7, 14));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn minimize(&mut self, objective: impl Into<LinearExpr>) -> Result<Optimum, ModelError> {
        self.minimize_with(objective, |_, _| {})
    }

    /// The solution with the largest value of `objective`, by branch and bound.
    ///
    /// # Errors
    ///
    /// As [`minimize_with`](Self::minimize_with).
    pub fn maximize(&mut self, objective: impl Into<LinearExpr>) -> Result<Optimum, ModelError> {
        self.maximize_with(objective, |_, _| {})
    }

    /// [`maximize`](Self::maximize), calling `improved` with each better solution as the
    /// search finds it, and its value.
    ///
    /// # Errors
    ///
    /// As [`minimize_with`](Self::minimize_with).
    pub fn maximize_with(
        &mut self,
        objective: impl Into<LinearExpr>,
        mut improved: impl FnMut(&Solution, i64),
    ) -> Result<Optimum, ModelError> {
        self.optimize(objective.into(), -1, |solution, value| {
            improved(solution, value);
            ControlFlow::Continue(())
        })
    }

    /// [`minimize`](Self::minimize), calling `improved` with each better solution as the
    /// search finds it, and its value: the values strictly decrease, and the last one is the
    /// optimum when the search finishes.
    ///
    /// The search starts afresh (as after [`Solver::restart_with`] with the fixes in force),
    /// with the solver's orders, propagation and limits. With a restart policy
    /// ([`Solver::with_restarts`]) it searches run after run, each on its budget of failures,
    /// the bound of the best solution so far holding in every run; a run that exhausts its
    /// tree proves the last solution optimal (or that there is none).
    ///
    /// The value order is the solver's, for the objective's variables too: branch and bound
    /// does not change it. Branching on an objective variable with its best value first
    /// (the smallest for `minimize` with a positive coefficient, the largest for `maximize`)
    /// finds good solutions first, and proves a one-variable objective at its first solution;
    /// the default [`Ascending`](crate::Ascending) does so for `minimize`, but makes `maximize`
    /// climb one value at a time. Choose the order for the objective when it is branched on
    /// (`fzn-cspkit` gives its variable its best value first unless an annotation names it).
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] if the objective uses a variable of another model, and
    /// [`ModelError::InvalidConstraint`] if building it overflowed.
    pub fn minimize_with(
        &mut self,
        objective: impl Into<LinearExpr>,
        mut improved: impl FnMut(&Solution, i64),
    ) -> Result<Optimum, ModelError> {
        self.optimize(objective.into(), 1, |solution, value| {
            improved(solution, value);
            ControlFlow::Continue(())
        })
    }

    /// [`minimize_with`](Self::minimize_with), stopping the search when `improved` returns
    /// [`ControlFlow::Break`]: the answer is then [`Optimum::BestFound`] with that solution,
    /// stopped by [`Limit::Solutions`]. This is how a caller stops after N improving
    /// solutions (FlatZinc's `-n N` on an optimisation).
    ///
    /// # Errors
    ///
    /// As [`minimize_with`](Self::minimize_with).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use cspkit::{Limit, Model, Optimum};
    ///
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=100)?;
    /// // Descending values: 100, then 99, 98, ... Stop at the second improvement.
    /// let mut solver = model.solver().with_value_order(cspkit::Descending);
    /// let mut seen = 0;
    /// let optimum = solver.minimize_while(x, |_, _| {
    ///     seen += 1;
    ///     if seen == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    /// })?;
    /// assert!(matches!(
    ///     optimum,
    ///     Optimum::BestFound { value: 99, stopped_by: Limit::Solutions, .. }
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn minimize_while(
        &mut self,
        objective: impl Into<LinearExpr>,
        improved: impl FnMut(&Solution, i64) -> ControlFlow<()>,
    ) -> Result<Optimum, ModelError> {
        self.optimize(objective.into(), 1, improved)
    }

    /// [`maximize_with`](Self::maximize_with), stopping the search when `improved` returns
    /// [`ControlFlow::Break`], as [`minimize_while`](Self::minimize_while) does.
    ///
    /// # Errors
    ///
    /// As [`minimize_with`](Self::minimize_with).
    pub fn maximize_while(
        &mut self,
        objective: impl Into<LinearExpr>,
        improved: impl FnMut(&Solution, i64) -> ControlFlow<()>,
    ) -> Result<Optimum, ModelError> {
        self.optimize(objective.into(), -1, improved)
    }

    fn optimize(
        &mut self,
        objective: LinearExpr,
        sign: i64,
        mut improved: impl FnMut(&Solution, i64) -> ControlFlow<()>,
    ) -> Result<Optimum, ModelError> {
        for &(_, var) in objective.terms() {
            if !self.model.owns(var) {
                return Err(ModelError::ForeignVariable {
                    context: "objective".into(),
                    variable: format!("{var:?}"),
                });
            }
        }
        if objective.has_overflowed() {
            return Err(ModelError::InvalidConstraint {
                constraint: "objective".into(),
                reason: "its coefficients or constant overflow i64".into(),
            });
        }
        // Minimise sign · objective: the bound is on Σ (sign·a)·x ≤ limit − sign·constant.
        let terms: Vec<(i64, crate::ids::VarId)> = objective
            .terms()
            .iter()
            .filter(|&&(a, _)| a != 0)
            .map(|&(a, var)| (a.saturating_mul(sign), var))
            .collect();
        // The best value any assignment of the declared domains could give.
        let mut best_conceivable = i128::from(objective.constant()) * i128::from(sign);
        for &(a, var) in objective.terms() {
            let domain = self.model.domain(var);
            let a = i128::from(a) * i128::from(sign);
            let (low, high) = (
                i128::from(domain.min().unwrap_or(0)),
                i128::from(domain.max().unwrap_or(0)),
            );
            best_conceivable += (a * low).min(a * high);
        }
        let bound = (best_conceivable * i128::from(sign))
            .clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        let fixes = std::mem::take(&mut self.fixes);
        // The fixes were accepted once: they are again.
        self.restart_with(fixes)?;
        // One clock for the whole optimisation: the time between the engine's calls (each
        // improving solution's copy, `improved`, the neighbourhoods' set-up) counts too.
        let clock = Clock::start(self.stats.elapsed);
        self.start();
        if let Some(engine) = self.engine.as_mut() {
            // Every better solution counts, whatever a projection says is the same solution.
            engine.set_projection(None);
            // No bound before the first solution: a limit no sum of i64 × i32 terms reaches.
            engine.set_bound(Some(Bound {
                terms: terms.clone(),
                limit: i128::MAX / 4,
            }));
        }
        let mut best: Option<(Solution, i64)> = None;
        let mut run = 0;
        // Neighbourhoods, if asked for, on an engine of their own; `lns_turn` is the end of
        // the turn in progress (in decisions), `main_until` that of branch and bound's.
        // Their engine is built at the first turn: a search that ends before needs none.
        let mut config = self.plan.config.lns.take();
        let mut lns: Option<Neighbourhoods<'_>> = None;
        let mut lns_turn: Option<u64> = None;
        let mut main_until: Option<u64> = None;
        let mut limit = i128::MAX / 4;
        let stopped = loop {
            let solution = if let (Some(neighbourhoods), Some(until), Some((solution, _))) =
                (lns.as_mut(), lns_turn, best.as_ref())
            {
                let bound = Bound {
                    terms: terms.clone(),
                    limit,
                };
                let mut context = TurnContext {
                    model: self.model,
                    fixes: &self.fixes,
                    limits: &self.plan.config.limits,
                    clock,
                    stats: &mut self.stats,
                };
                match neighbourhoods.turn(&mut context, solution, &bound, until) {
                    Turn::Better(solution) => solution,
                    Turn::Over => {
                        lns_turn = None;
                        main_until = Some(neighbourhoods.search_turn_end(self.stats.decisions));
                        continue;
                    }
                    Turn::Exhausted => break None,
                    Turn::Limit(limit) => break Some(limit),
                }
            } else {
                if let Some(config) = config.as_ref()
                    && best.is_some()
                    && main_until.is_none()
                {
                    main_until = Some(config.first_turn_end(self.stats.decisions));
                }
                let (step, paused) = match self.plan.config.restart_policy() {
                    Some(policy) => {
                        self.step_with_restarts_until(policy, &mut run, main_until, clock)
                    }
                    None => self.advance_until(main_until, clock),
                };
                match step {
                    Step::Solution => self.current_solution(),
                    Step::Exhausted => break None,
                    Step::Limit(_) if paused => {
                        if lns.is_none()
                            && let Some(config) = config.take()
                        {
                            let mut engine = self.new_engine();
                            engine.set_projection(None);
                            lns = Some(Neighbourhoods::new(config, engine, self.model, &terms));
                        }
                        lns_turn = lns
                            .as_mut()
                            .map(|n| n.neighbourhood_turn_end(self.stats.decisions));
                        continue;
                    }
                    Step::Limit(limit) => break Some(limit),
                }
            };
            let Some(value) = objective.value(&solution) else {
                // A value beyond i64: keep searching without this solution.
                continue;
            };
            let node = self.engine.as_ref().map_or(0, |engine| engine.node());
            self.observer.on_event(&Event::Improved { node, value });
            let asked = improved(&solution, value);
            limit = i128::from(value) * i128::from(sign)
                - 1
                - i128::from(objective.constant()) * i128::from(sign);
            if let Some(engine) = self.engine.as_mut() {
                engine.tighten(limit);
            }
            best = Some((solution, value));
            if asked.is_break() {
                break Some(Limit::Solutions);
            }
        };
        self.plan.config.lns = lns.map(Neighbourhoods::into_config).or(config);
        self.stats.elapsed = clock.elapsed();
        if let Some(engine) = self.engine.as_mut() {
            engine.set_bound(None);
            engine.set_projection(self.plan.project.clone());
        }
        Ok(match (best, stopped) {
            (Some((solution, value)), None) => Optimum::Optimal { solution, value },
            (Some((solution, value)), Some(stopped_by)) => Optimum::BestFound {
                solution,
                value,
                bound,
                stopped_by,
            },
            (None, None) => Optimum::Infeasible,
            (None, Some(limit)) => Optimum::Unknown(limit),
        })
    }
}
