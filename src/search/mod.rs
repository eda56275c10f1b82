//! Search: the [`Solver`], its strategies and limits, and what it answers.
//!
//! A solver borrows a [`Model`] and owns the state of one search (domains, trail, queue,
//! decision stack), created on the first call and reused across nodes. Its three entry points
//! are [`Solver::next_solution`] (first solution, then the next one on each call),
//! [`Solver::solutions`] (a lazy iterator) and [`Solver::count`]. Each answer tells apart a
//! solution, an exhausted search ([`Outcome::Exhausted`]: there is no further solution) and a
//! search stopped by a limit ([`Outcome::LimitReached`]: nothing is known about the rest).
//!
//! A solver is its model, its strategy (the variable and value orders, type parameters), its
//! observer, and one [`SearchConfig`] holding every other option (`config.rs`): propagation,
//! branching, limits, restarts, large-neighbourhood search, decision variables, projection. The
//! engine (`engine.rs`) is built from that configuration, checked against the model.
//!
//! Two ways to search differently live in their own files: restarts (`restarts.rs`), which
//! change how `next_solution` finds a first solution, and parallel search (`parallel.rs`):
//! [`Solver::count_parallel`], [`Solver::count_up_to_parallel`] and
//! [`Solver::for_each_solution_parallel`].

pub(crate) mod ac3;
mod backjump;
pub(crate) mod config;
pub(crate) mod constraint_graph;
mod engine;
pub(crate) mod learning;
pub(crate) mod limits;
pub(crate) mod lns;
pub(crate) mod min_conflicts;
mod neighbourhoods;
pub(crate) mod observer;
pub(crate) mod optimize;
pub(crate) mod ordering;
pub(crate) mod pairs;
mod parallel;
mod pause;
pub(crate) mod restarts;
mod sizes;
pub(crate) mod stats;
pub(crate) mod stepping;

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::ModelError;
use crate::ids::VarId;
pub use crate::kernel::PropagationLevel;
use crate::model::{Model, Solution};
use config::{Plan, Propagation, SearchConfig, VariableList};
use engine::{Engine, Run, Step};
use limits::{Budget, Clock, Limit, Pause};
use lns::Lns;
use min_conflicts::MinConflicts;
use observer::{NoObserver, SearchObserver};
use ordering::{Ascending, InputOrder, ValueOrder, VariableOrder};
use pause::{Progress, Tracked};
use restarts::RestartPolicy;
use stats::SearchStats;
use stepping::SearchStep;

/// How the engine splits a node into two branches, for the variable `x` the variable order
/// picks and the value `v` the value order picks.
///
/// Both are binary and complete; with [`InputOrder`](crate::InputOrder) both visit solutions in
/// lexicographic order, since the branch with the smaller values is always explored first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Branching {
    /// `x = v`, then `x ≠ v` (enumeration, the default).
    #[default]
    Assign,
    /// `x ≤ v`, then `x > v` (domain splitting). If `v` is the largest value of `x`, the split
    /// is made below it instead (`x ≤ w`, `w` the next smaller value), so both branches are
    /// proper. With a value order that picks the middle value
    /// ([`MiddleOut`](crate::MiddleOut)) this is bisection, the branching of choice for
    /// variables with many values; the observer's `decision(x, v, _)` then reads `x ≤ v`.
    Split,
    /// One child per value, `x = v₁`, `x = v₂`, …, in the value order: the tree as textbooks
    /// draw it (AIMA's BACKTRACKING-SEARCH). A failed child does not remove its value from the
    /// parent's domain for the others to see, as `x ≠ v` does: the next value is chosen among
    /// those not tried yet, and each value tried is one decision ([`SearchStats::decisions`]
    /// counts them; [`SearchStats::nassigns`] those that passed the consistency check). The
    /// same solutions in the same order as [`Branching::Assign`].
    DWay,
}

impl Branching {
    /// The branching's name, as the command line writes it: `assign`, `split`, `dway`.
    pub fn name(self) -> &'static str {
        match self {
            Branching::Assign => "assign",
            Branching::Split => "split",
            Branching::DWay => "dway",
        }
    }
}

impl std::fmt::Display for Branching {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Branching {
    type Err = crate::ParseNameError;

    /// `assign`, `split` or `dway`.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        crate::error::parse_name(
            "branching",
            name,
            &[
                ("assign", Branching::Assign),
                ("split", Branching::Split),
                ("dway", Branching::DWay),
            ],
            &["assign", "split", "dway"],
        )
    }
}

/// The answer of [`Solver::next_solution`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub enum Outcome {
    /// A solution.
    Solved(Solution),
    /// The search finished: there is no (further) solution.
    Exhausted,
    /// The search stopped at a limit before finishing: whether there are (further) solutions is
    /// unknown. Asking the same solver again reports the same limit, unless the limit was raised
    /// in between ([`Solver::set_decision_limit`], [`Solver::set_time_limit`]): the search then
    /// goes on from where it stopped.
    LimitReached(Limit),
}

impl Outcome {
    /// The solution, if there is one.
    pub fn solution(self) -> Option<Solution> {
        match self {
            Outcome::Solved(solution) => Some(solution),
            _ => None,
        }
    }

    /// Whether this is a solution.
    pub fn is_solved(&self) -> bool {
        matches!(self, Outcome::Solved(_))
    }
}

/// The result of [`Solver::count`]: how many solutions, and whether that is all of them.
///
/// Not `#[must_use]`: a count is often run for what it leaves behind, the solver's
/// [`stats`](Solver::stats) or an observer's record, and `solver.count();` says so without a
/// `let _ =`. Read [`stopped_by`](Count::stopped_by) when the solver has a limit: a count
/// stopped by one is not the number of solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// Solutions found.
    pub solutions: u64,
    /// The limit that stopped the count, or `None` if the search finished and `solutions` is
    /// exact.
    pub stopped_by: Option<Limit>,
}

impl Count {
    /// Whether the search finished, so that `solutions` is the exact number.
    pub fn is_exact(&self) -> bool {
        self.stopped_by.is_none()
    }
}

/// Searches one model: the strategy, the limits, and the state of the search.
///
/// Build it with [`Model::solver`], configure it with the `with_*` and limit methods (which
/// start the search afresh), or make it from a [`SearchConfig`] with [`Model::solver_with`],
/// then ask for solutions. Statistics accumulate over the life of the solver.
///
/// A first solution or an optimum can be searched by restarts ([`Solver::with_restarts`]); counting and
/// listing can be shared out to several threads ([`Solver::count_parallel`],
/// [`Solver::for_each_solution_parallel`]).
///
/// The type parameters are the variable order, the value order and the observer; they are
/// generic so that the default strategy and the no-op observer cost nothing.
///
/// # Examples
///
/// ```
/// use cspkit::{Model, NotEqual, PropagationLevel, SmallestDomain};
///
/// let mut model = Model::new();
/// let xs = model.new_vars(3, 0..=2)?;
/// model.post(NotEqual::new(xs[0], xs[1]))?;
/// model.post(NotEqual::new(xs[1], xs[2]))?;
/// let mut solver = model
///     .solver()
///     .with_variable_order(SmallestDomain)
///     .with_propagation(PropagationLevel::Forward)
///     .with_decision_limit(1_000);
/// let count = solver.count();
/// assert_eq!((count.solutions, count.is_exact()), (12, true));
/// assert_eq!(solver.stats().solutions, 12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Solver<'m, V = InputOrder, W = Ascending, O = NoObserver> {
    model: &'m Model,
    variable_order: V,
    value_order: W,
    observer: O,
    /// Every other option ([`Solver::config`]), checked against the model.
    plan: Plan,
    stats: SearchStats,
    engine: Option<Engine<'m>>,
    /// The fixes of the last [`Solver::restart_with`], kept for restarts and parallel search.
    fixes: Vec<(VarId, i32)>,
    /// Whether the current search has taken a step from its root.
    started: bool,
    /// The events of the last step not yet handed out by [`Solver::next_step`].
    steps: VecDeque<SearchStep>,
}

impl<'m> Solver<'m> {
    /// A solver for `model` with the default strategy: [`InputOrder`], [`Ascending`],
    /// [`PropagationLevel::Full`], no limits.
    pub fn new(model: &'m Model) -> Self {
        Solver::with_plan(model, Plan::default(), InputOrder, Ascending, NoObserver)
    }
}

impl<'m, V, W, O> Solver<'m, V, W, O> {
    /// A solver at the start of a search, with these options and strategy.
    fn with_plan(
        model: &'m Model,
        plan: Plan,
        variable_order: V,
        value_order: W,
        observer: O,
    ) -> Self {
        Solver {
            model,
            variable_order,
            value_order,
            observer,
            plan,
            stats: SearchStats::default(),
            engine: None,
            fixes: Vec::new(),
            started: false,
            steps: VecDeque::new(),
        }
    }
}

impl<'m, V: VariableOrder, W: ValueOrder, O: SearchObserver> Solver<'m, V, W, O> {
    /// Uses `order` to choose the variable to branch on (restarts the search).
    pub fn with_variable_order<V2: VariableOrder>(self, order: V2) -> Solver<'m, V2, W, O> {
        Solver::with_plan(
            self.model,
            self.plan,
            order,
            self.value_order,
            self.observer,
        )
    }

    /// Uses `order` to choose the value to try first (restarts the search).
    pub fn with_value_order<W2: ValueOrder>(self, order: W2) -> Solver<'m, V, W2, O> {
        Solver::with_plan(
            self.model,
            self.plan,
            self.variable_order,
            order,
            self.observer,
        )
    }

    /// Reports the search's events to `observer` (restarts the search). Pass `&mut observer`
    /// to read it after the solver is gone.
    pub fn with_observer<O2: SearchObserver>(self, observer: O2) -> Solver<'m, V, W, O2> {
        Solver::with_plan(
            self.model,
            self.plan,
            self.variable_order,
            self.value_order,
            observer,
        )
    }

    /// Sets every option but the orders and the observer at once (restarts the search): the
    /// options of the solver so far are replaced by those of `config`, read back with
    /// [`Solver::config`].
    ///
    /// # Errors
    ///
    /// [`ModelError::NotForAc3`] for [`Propagation::Ac3`] on a model AC-3 cannot read (see
    /// [`Propagation::Ac3`]), [`ModelError::ForeignVariable`] for a decision or projected
    /// variable of another model; the solver is then not made.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::{Propagation, SearchConfig, SmallestDomain};
    ///
    /// let queens = Queens::new(6)?;
    /// let config = SearchConfig::new().with_propagation(Propagation::TextbookForward);
    /// let mut solver = queens
    ///     .model()
    ///     .solver()
    ///     .with_variable_order(SmallestDomain)
    ///     .with_config(config)?;
    /// assert_eq!(solver.count().solutions, 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_config(mut self, config: SearchConfig) -> Result<Self, ModelError> {
        self.plan = Plan::new(self.model, config)?;
        Ok(self.restart())
    }

    /// The options of the search: propagation, branching, limits, restarts,
    /// large-neighbourhood search, decision variables and projection.
    pub fn config(&self) -> &SearchConfig {
        &self.plan.config
    }

    /// Sets the propagation (restarts the search): a [`PropagationLevel`], or a
    /// [`Propagation`] (textbook forward checking, AC-3).
    ///
    /// # Panics
    ///
    /// For [`Propagation::Ac3`] on a model AC-3 cannot read ([`ModelError::NotForAc3`]). Ask
    /// for AC-3 through [`Solver::with_config`] or [`Model::solver_with`] to have the error
    /// instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::{Propagation, PropagationLevel};
    ///
    /// let queens = Queens::new(6)?;
    /// let forward = queens.model().solver().with_propagation(PropagationLevel::Forward);
    /// assert_eq!(forward.config().propagation(), Propagation::Forward);
    /// let textbook = queens.model().solver().with_propagation(Propagation::TextbookForward);
    /// assert_eq!(textbook.propagation(), PropagationLevel::None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_propagation(mut self, propagation: impl Into<Propagation>) -> Self {
        if let Err(error) = self.plan.set_propagation(self.model, propagation.into()) {
            panic!("{error} (Solver::with_config reports this as an error)");
        }
        self.restart()
    }

    /// Sets how a node is split into two branches (restarts the search).
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::{Branching, Model, MiddleOut};
    ///
    /// // x + y = 10 over 0..=1000: bisection on each variable.
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=1000)?;
    /// let y = model.new_var(0..=1000)?;
    /// model.post((x + y).eq(10))?;
    /// let mut solver = model
    ///     .solver()
    ///     .with_branching(Branching::Split)
    ///     .with_value_order(MiddleOut);
    /// assert_eq!(solver.count().solutions, 11);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_branching(self, branching: Branching) -> Self {
        self.updated(|config| config.with_branching(branching))
    }

    /// Which variables are assigned by a decision of their own, and so what the counts mean
    /// (restarts the search): cspkit's convention, or AIMA's, where every variable is, even
    /// one propagation fixed; see [`Counting`](crate::Counting).
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::{Branching, Counting, Propagation, SearchConfig};
    ///
    /// // MAC with AC-3 on 8-Queens, rows in order, values ascending: AIMA's
    /// // BACKTRACKING-SEARCH assigns 20 values to find the first placement.
    /// let queens = Queens::new(8)?;
    /// let config = SearchConfig::new().with_propagation(Propagation::Ac3);
    /// let mut solver = queens
    ///     .model()
    ///     .solver_with(config)?
    ///     .with_branching(Branching::DWay)
    ///     .with_counting(Counting::Aima);
    /// assert!(solver.next_solution().is_solved());
    /// assert_eq!(solver.stats().nassigns, 20);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_counting(self, counting: crate::Counting) -> Self {
        self.updated(|config| config.with_counting(counting))
    }

    /// Forward checking as the textbooks define it (AIMA's FORWARD-CHECKING), instead of the
    /// constraints' own propagation: [`Propagation::TextbookForward`] (restarts the search).
    /// `false` turns it off, for plain backtracking ([`Propagation::None`]); with another
    /// propagation, `false` changes nothing.
    #[deprecated(
        since = "0.3.0",
        note = "use `with_propagation(Propagation::TextbookForward)` (or `Propagation::None` for `false`)"
    )]
    pub fn with_textbook_forward_checking(self, on: bool) -> Self {
        match self.plan.config.propagation() {
            _ if on => self.with_propagation(Propagation::TextbookForward),
            Propagation::TextbookForward => self.with_propagation(Propagation::None),
            _ => self.restart(),
        }
    }

    /// MAC with AC-3 as the textbooks write it, instead of the constraints' own propagation:
    /// [`Propagation::Ac3`] (restarts the search). `false` turns it off, for
    /// [`Propagation::Full`]; with another propagation, `false` changes nothing.
    ///
    /// # Errors
    ///
    /// [`ModelError::NotForAc3`] if the model has a constraint on more than two variables
    /// that is not an all-different, or a variable with more than 4096 values.
    #[deprecated(
        since = "0.3.0",
        note = "use `with_config(config.with_propagation(Propagation::Ac3))` or \
                `Model::solver_with`, which check the model"
    )]
    pub fn with_ac3(mut self, on: bool) -> Result<Self, ModelError> {
        match self.plan.config.propagation() {
            _ if on => self.plan.set_propagation(self.model, Propagation::Ac3)?,
            Propagation::Ac3 => self.plan.set_propagation(self.model, Propagation::Full)?,
            _ => {}
        }
        Ok(self.restart())
    }

    /// Whether AC-3 is on.
    #[deprecated(
        since = "0.3.0",
        note = "use `config().propagation() == Propagation::Ac3`"
    )]
    pub fn ac3(&self) -> bool {
        self.plan.ac3.is_some()
    }

    /// Branches only on `vars`, in the variable order's choice among them, and on the other
    /// variables (auxiliary variables such as those [`Model::var_for`], [`Model::abs`] or
    /// [`Model::max`] make) only once those are fixed, in input order: MiniZinc's search
    /// annotations do the same. Restarts the search. An empty list restores the default,
    /// every variable.
    ///
    /// The answers are the same, since every variable is still fixed before a solution; the
    /// search can be much smaller, when the order would otherwise branch on a variable that
    /// propagation fixes anyway once the others are.
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] if a variable is not of this solver's model.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::{LinearExpr, Model, SmallestDomain};
    ///
    /// // |x − y| = d, with d an auxiliary variable: branch on x and y only.
    /// let mut model = Model::new();
    /// let (x, y) = (model.new_var(1..=9)?, model.new_var(1..=9)?);
    /// let gap = model.var_for(x - y)?;
    /// let d = model.abs(gap)?;
    /// model.post(LinearExpr::from(d).eq(4))?;
    /// let mut solver = model
    ///     .solver()
    ///     .with_variable_order(SmallestDomain)
    ///     .with_decision_variables(&[x, y])?;
    /// assert_eq!(solver.count().solutions, 10);
    /// # Ok::<(), cspkit::ModelError>(())
    /// ```
    ///
    /// [`Model::var_for`]: crate::Model::var_for
    /// [`Model::abs`]: crate::Model::abs
    /// [`Model::max`]: crate::Model::max
    pub fn with_decision_variables(mut self, vars: &[VarId]) -> Result<Self, ModelError> {
        self.plan.set_variables(
            self.model,
            VariableList::Decision,
            vars,
            "with_decision_variables",
        )?;
        Ok(self.restart())
    }

    /// Reports each solution once per assignment of `vars`: solutions that differ only in the
    /// other variables count as one (the solution handed over is the first of them the search
    /// meets). An empty list restores the default, every variable. Restarts the search.
    ///
    /// This is how a model with auxiliary variables is enumerated or counted on the variables
    /// that matter (MiniZinc's `-a` lists solutions distinct on the output): the search
    /// branches on `vars` first and, below the node where the last of them is fixed, looks
    /// for one solution of the rest and no more, so the auxiliary variables cost one search
    /// per projected solution, not one per combination of their values.
    ///
    /// Used by [`next_solution`](Self::next_solution), [`solutions`](Self::solutions),
    /// [`count`](Self::count), [`step`](Self::step) and the parallel counts (which then run on
    /// one thread); branch and bound ([`minimize`](Self::minimize)) ignores it. Once the
    /// projected variables are fixed, the others are branched on in input order (after the
    /// decision variables, if any).
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] if a variable is not of this solver's model.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::{Model, NotEqual};
    ///
    /// // x ≠ y over 1..=3, and z free: 18 solutions, 6 distinct on (x, y).
    /// let mut model = Model::new();
    /// let [x, y, z] = [(); 3].map(|()| model.new_var(1..=3).unwrap());
    /// model.post(NotEqual::new(x, y))?;
    /// assert_eq!(model.solver().count().solutions, 18);
    /// let mut solver = model.solver().with_projection(&[x, y])?;
    /// assert_eq!(solver.count().solutions, 6);
    /// # let _ = z;
    /// # Ok::<(), cspkit::ModelError>(())
    /// ```
    pub fn with_projection(mut self, vars: &[VarId]) -> Result<Self, ModelError> {
        self.plan.set_variables(
            self.model,
            VariableList::Projection,
            vars,
            "with_projection",
        )?;
        Ok(self.restart())
    }

    /// [`with_projection`](Self::with_projection) on a solver already built: the search
    /// starts afresh (statistics too), keeping the fixes of [`restart_with`](Self::restart_with).
    ///
    /// # Errors
    ///
    /// [`ModelError::ForeignVariable`] if a variable is not of this solver's model; the solver
    /// is then unchanged.
    pub fn set_projection(&mut self, vars: &[VarId]) -> Result<(), ModelError> {
        self.plan
            .set_variables(self.model, VariableList::Projection, vars, "set_projection")?;
        self.stats = SearchStats::default();
        self.started = false;
        self.steps.clear();
        if let Some(engine) = &mut self.engine {
            engine.reset(self.model);
            for &(var, value) in &self.fixes {
                engine.fix_before_search(var, value);
            }
            engine.set_projection(self.plan.project.clone());
        }
        Ok(())
    }

    /// Whether textbook forward checking is on.
    #[deprecated(
        since = "0.3.0",
        note = "use `config().propagation() == Propagation::TextbookForward`"
    )]
    pub fn textbook_forward_checking(&self) -> bool {
        self.plan.textbook()
    }

    /// How nodes are split.
    pub fn branching(&self) -> Branching {
        self.plan.config.branching()
    }

    /// Stops the search after `nodes` decisions in total (restarts the search).
    pub fn with_decision_limit(self, nodes: u64) -> Self {
        self.updated(|config| config.with_decision_limit(nodes))
    }

    /// Stops the search once it has run for `time` in total (restarts the search).
    ///
    /// The time counted is the wall time of the solver's calls (`next_solution`, `count`,
    /// `minimize`, ...), from the start of each call to its return: everything the solver does
    /// in a call counts, the callbacks it makes included (`minimize_with`'s `improved`), but
    /// not the caller's own time between two calls.
    pub fn with_time_limit(self, time: Duration) -> Self {
        self.updated(|config| config.with_time_limit(time))
    }

    /// Stops the search when `flag` becomes true, from any thread (restarts the search).
    pub fn with_cancel_flag(self, flag: Arc<AtomicBool>) -> Self {
        self.updated(|config| config.with_cancel_flag(flag))
    }

    /// Searches for the first solution by runs that restart from the root after a budget of
    /// failures, as `policy` says (restarts the search); see [`RestartPolicy`].
    ///
    /// Restarts are for the first solution only, and only pay off with a randomised order
    /// ([`RandomValue`](crate::RandomValue),
    /// [`SmallestDomainRandomTies`](crate::SmallestDomainRandomTies)), which
    /// [`start_run`](VariableOrder::start_run) reseeds at each run so that the runs differ:
    ///
    /// - The first call of [`next_solution`](Solver::next_solution) searches run after run,
    ///   each on a budget of failures. A run that finds a solution returns it; a run that
    ///   exhausts its tree within its budget proves there is none ([`Outcome::Exhausted`]).
    ///   The node and time limits and the cancellation flag count over all runs and stop the
    ///   search as usual ([`Outcome::LimitReached`]).
    /// - [`minimize`](Solver::minimize) and [`maximize`](Solver::maximize) search run after
    ///   run too, the bound of the best solution so far holding in each; a run that exhausts
    ///   its tree within its budget proves the optimum.
    /// - Later calls of `next_solution` go on with the run that found the first solution,
    ///   without a budget: they return the remaining solutions, each once, in that run's order.
    /// - [`count`](Solver::count), [`count_up_to`](Solver::count_up_to),
    ///   [`solutions`](Solver::solutions) and the parallel searches ignore the policy: they
    ///   search exactly as without it, so counts are exact and the order of solutions is that
    ///   of the strategy alone.
    ///
    /// [`SearchStats::restarts`] counts the runs after the first.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::{MiddleOut, Outcome, PropagationLevel, RestartPolicy, SmallestDomainRandomTies};
    ///
    /// let queens = Queens::new(100)?;
    /// let mut solver = queens
    ///     .model()
    ///     .solver()
    ///     .with_variable_order(SmallestDomainRandomTies::new(42))
    ///     .with_value_order(MiddleOut)
    ///     .with_propagation(PropagationLevel::Forward)
    ///     .with_restarts(RestartPolicy::luby(100));
    /// let Outcome::Solved(solution) = solver.next_solution() else {
    ///     panic!("100 queens can be placed");
    /// };
    /// assert!(queens.model().is_solution(solution.values()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_restarts(self, policy: RestartPolicy) -> Self {
        self.updated(|config| config.with_restarts(policy))
    }

    /// Conflict-directed backjumping (see [`SearchConfig::with_backjumping`]): a failure jumps
    /// back to the deepest decision it rests on. Restarts the search.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    ///
    /// let queens = Queens::new(8)?;
    /// let mut solver = queens.model().solver().with_backjumping(true);
    /// assert!(solver.backjumps());
    /// assert_eq!(solver.count().solutions, 92);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_backjumping(self, on: bool) -> Self {
        self.updated(|config| config.with_backjumping(on))
    }

    /// Whether this solver's search backjumps: asked for
    /// ([`with_backjumping`](Self::with_backjumping)), and possible on its model with its
    /// propagation (every domain a bitset, no AC-3); otherwise it backtracks chronologically.
    pub fn backjumps(&self) -> bool {
        (self.plan.config.backjumping() || self.plan.config.learning())
            && backjump::backjumps_on(self.model, self.plan.ac3.is_some())
    }

    /// Learning from failures (see [`SearchConfig::with_learning`]): each failure is analysed
    /// into a nogood that the search keeps and propagates. Restarts the search.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    ///
    /// let queens = Queens::new(8)?;
    /// let mut solver = queens.model().solver().with_learning(true);
    /// assert!(solver.learns());
    /// assert_eq!(solver.count().solutions, 92);
    /// assert!(solver.stats().learned > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_learning(self, on: bool) -> Self {
        self.updated(|config| config.with_learning(on))
    }

    /// Whether this solver's search learns nogoods: asked for
    /// ([`with_learning`](Self::with_learning)) and possible with its model and strategy
    /// (see [`SearchConfig::with_learning`]); otherwise it backjumps (if it can) without
    /// learning.
    pub fn learns(&self) -> bool {
        let config = &self.plan.config;
        config.learning()
            && self.backjumps()
            && config.branching() != Branching::DWay
            && !self.plan.textbook()
            && !self.plan.assigns_all()
            && !self.plan.checks_assigned()
    }

    /// Searches neighbourhoods of the best solution beside branch and bound, in
    /// [`minimize`](Self::minimize) and [`maximize`](Self::maximize) (restarts the search);
    /// see [`Lns`]. Other searches are unchanged.
    pub fn with_lns(self, lns: Lns) -> Self {
        self.updated(|config| config.with_lns(lns))
    }

    /// The solver with options that need no check against the model changed by `change`
    /// (the configuration's builder methods), the search restarted.
    fn updated(mut self, change: impl FnOnce(SearchConfig) -> SearchConfig) -> Self {
        self.plan.update(change);
        self.restart()
    }

    fn restart(mut self) -> Self {
        self.engine = None;
        self.stats = SearchStats::default();
        self.fixes.clear();
        self.started = false;
        self.steps.clear();
        self
    }

    /// Starts the search afresh (statistics too) with each `(var, value)` of `fixed` fixed on
    /// top of the model's own domains; the model itself is not changed. This is the way to solve
    /// one model under many sets of givens, such as a batch of Sudoku grids, without rebuilding
    /// it: the solver's buffers are reused, so a restart costs a copy of the domains. The fixes
    /// last until the next restart (a `with_*` method also restarts, without them). The limits,
    /// a raised cancellation flag and the observer carry over.
    ///
    /// # Errors
    ///
    /// As successive calls of [`Model::fix`]: [`ModelError::ForeignVariable`] for a variable of
    /// another model, [`ModelError::ValueNotInDomain`] for a value outside its variable's domain
    /// in the model, or a variable fixed twice to different values. The solver is then restarted
    /// without any fix.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::{AllDifferent, Model};
    ///
    /// let mut model = Model::new();
    /// let xs = model.new_vars(3, 1..=3)?;
    /// model.post(AllDifferent::new(&xs))?;
    /// let mut solver = model.solver();
    /// solver.restart_with([(xs[0], 3)])?;
    /// assert_eq!(solver.next_solution().solution().unwrap().values(), [3, 1, 2]);
    /// solver.restart_with([(xs[0], 2), (xs[2], 1)])?;
    /// assert_eq!(solver.count().solutions, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn restart_with(
        &mut self,
        fixed: impl IntoIterator<Item = (VarId, i32)>,
    ) -> Result<(), ModelError> {
        self.stats = SearchStats::default();
        self.started = false;
        self.fixes.clear();
        let engine = match &mut self.engine {
            Some(engine) => {
                engine.reset(self.model);
                engine
            }
            None => self.engine.insert(self.new_engine()),
        };
        for (var, value) in fixed {
            // Checked against the model, then against the fixes made so far: a variable fixed
            // twice to different values is refused, as by two calls of `Model::fix`.
            let checked = self.model.check_fix(var, value).and_then(|()| {
                let domain = &engine.domains()[var.index()];
                if domain.contains(value) {
                    return Ok(());
                }
                Err(ModelError::ValueNotInDomain {
                    variable: self.model.var_name(var).into_owned(),
                    value,
                    domain: domain.to_string(),
                })
            });
            if let Err(error) = checked {
                engine.reset(self.model);
                self.fixes.clear();
                return Err(error);
            }
            engine.fix_before_search(var, value);
            self.fixes.push((var, value));
        }
        Ok(())
    }

    /// The model being solved.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// A local search of this solver's model (AIMA's MIN-CONFLICTS, see [`MinConflicts`]),
    /// with this solver's time limit and cancellation flag; its seed, step budget and restart
    /// patience are set on it. The orders, propagation level and decision limit are those of
    /// the tree search and play no part: local search assigns every variable from the start
    /// and repairs the assignment, within the model's initial domains.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::LocalOutcome;
    ///
    /// let queens = Queens::new(10_000)?;
    /// let solver = queens.model().solver();
    /// let mut search = solver.min_conflicts().with_seed(3).with_max_steps(100_000);
    /// match search.run() {
    ///     LocalOutcome::Solved(solution) => assert!(queens.model().is_solution(solution.values())),
    ///     // Local search is incomplete: not found is not "no solution".
    ///     LocalOutcome::NotFound { steps } => println!("no solution found in {steps} steps"),
    ///     _ => unreachable!("a new kind of outcome"),
    /// }
    /// let stats = search.stats();
    /// println!("{} steps, {} restarts, {:?}", stats.steps, stats.restarts, stats.elapsed);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn min_conflicts(&self) -> MinConflicts<'m> {
        let mut search = MinConflicts::new(self.model);
        if let Some(time) = self.plan.config.time_limit() {
            search = search.with_time_limit(time);
        }
        if let Some(flag) = self.plan.config.cancel_flag() {
            search = search.with_cancel_flag(Arc::clone(flag));
        }
        search
    }

    /// The level the constraints propagate at ([`Propagation::level`]; the whole setting is
    /// [`config().propagation()`](SearchConfig::propagation)).
    pub fn propagation(&self) -> PropagationLevel {
        self.plan.level()
    }

    /// The restart policy of the first-solution search, if any.
    pub fn restart_policy(&self) -> Option<RestartPolicy> {
        self.plan.config.restart_policy()
    }

    /// The statistics of the search so far.
    pub fn stats(&self) -> SearchStats {
        self.stats.with_aliases()
    }

    /// The observer.
    pub fn observer(&self) -> &O {
        &self.observer
    }

    /// The observer, to change or drain between calls (a trace's buffered lines, say).
    pub fn observer_mut(&mut self) -> &mut O {
        &mut self.observer
    }

    /// The observer, taken out of the solver.
    pub fn into_observer(self) -> O {
        self.observer
    }

    /// Finds the next solution: the first one on the first call, then the following ones.
    ///
    /// With a restart policy ([`Solver::with_restarts`]), the first call searches by restarts.
    ///
    /// # Panics
    ///
    /// If the value order returns a value that is not in the domain of the chosen variable.
    pub fn next_solution(&mut self) -> Outcome {
        self.next_outcome(true)
    }

    /// The next solution, by restarts if `restarts` and the solver has a policy and has not
    /// started yet.
    fn next_outcome(&mut self, restarts: bool) -> Outcome {
        let step = match self.plan.config.restart_policy() {
            Some(policy) if restarts && !self.started => {
                let clock = Clock::start(self.stats.elapsed);
                self.step_with_restarts(policy, &mut 0, clock)
            }
            _ => self.advance(),
        };
        match step {
            Step::Solution => Outcome::Solved(self.current_solution()),
            Step::Exhausted => Outcome::Exhausted,
            Step::Limit(limit) => Outcome::LimitReached(limit),
        }
    }

    /// The remaining solutions, lazily: each `next` resumes the search (never by restarts: see
    /// [`Solver::with_restarts`]).
    ///
    /// The iterator ends when the search is exhausted or stopped by a limit; tell the two apart
    /// with [`Solutions::stopped_by`].
    pub fn solutions(&mut self) -> Solutions<'_, 'm, V, W, O> {
        Solutions {
            solver: self,
            stopped_by: None,
            done: false,
        }
    }

    /// Counts the remaining solutions.
    ///
    /// To measure a search, count and then read the statistics; the count itself may be
    /// dropped:
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    ///
    /// let queens = Queens::new(6)?;
    /// let mut solver = queens.model().solver();
    /// solver.count();
    /// assert_eq!(solver.stats().solutions, 4);
    /// println!("{} decisions", solver.stats().decisions);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count(&mut self) -> Count {
        self.count_up_to(u64::MAX)
    }

    /// Counts the remaining solutions, stopping as soon as `max` are found.
    ///
    /// A count that reaches `max` reports [`Limit::Solutions`]: the search did not go on to see
    /// whether more exist. `count_up_to(2)` is the usual "is the solution unique?" question.
    pub fn count_up_to(&mut self, max: u64) -> Count {
        let mut solutions = 0;
        let clock = Clock::start(self.stats.elapsed);
        loop {
            if solutions >= max {
                return Count {
                    solutions,
                    stopped_by: Some(Limit::Solutions),
                };
            }
            match self.advance_until(None, clock).0 {
                Step::Solution => solutions += 1,
                Step::Exhausted => {
                    return Count {
                        solutions,
                        stopped_by: None,
                    };
                }
                Step::Limit(limit) => {
                    return Count {
                        solutions,
                        stopped_by: Some(limit),
                    };
                }
            }
        }
    }

    /// The engine at the root of a new search, if none has started: built on first use, the
    /// orders told that run 0 starts.
    fn start(&mut self) {
        if self.engine.is_none() {
            self.engine = Some(self.new_engine());
        }
        if !self.started {
            self.started = true;
            self.variable_order.start_run(0);
            self.value_order.start_run(0);
        }
    }

    /// An engine for this solver's model and options.
    fn new_engine(&self) -> Engine<'m> {
        Engine::new(self.model, &self.plan)
    }

    /// Runs the search to its next solution, the end of the tree or a limit. Events a step
    /// kept for [`Solver::step`] are dropped: the search has moved past them.
    fn advance(&mut self) -> Step {
        let clock = Clock::start(self.stats.elapsed);
        self.advance_until(None, clock).0
    }

    /// [`advance`](Self::advance), pausing before the decision that would make more than
    /// `until` in all; returns whether it paused there. `clock` times the solver's call this
    /// step belongs to.
    fn advance_until(&mut self, until: Option<u64>, clock: Clock) -> (Step, bool) {
        self.steps.clear();
        self.start();
        let Some(engine) = self.engine.as_mut() else {
            unreachable!("start builds the engine");
        };
        let pause = Pause {
            nodes: until,
            ..Pause::default()
        };
        let budget = Budget::start(&self.plan.config.limits, clock).with_pause(pause);
        let mut run = Run {
            model: self.model,
            variable_order: &mut self.variable_order,
            value_order: &mut self.value_order,
            observer: &mut self.observer,
            budget: &budget,
            stats: &mut self.stats,
        };
        let step = engine.next(&mut run);
        self.stats.elapsed = budget.elapsed();
        let paused = matches!(step, Step::Limit(_)) && budget.paused();
        (step, paused)
    }

    /// Searches from the root, run after run, until a run finds a solution or exhausts its
    /// tree, or a limit stops the search.
    ///
    /// `run` is the number of the run in progress (0 for the first): the search goes on in it,
    /// with a fresh failure budget, and each later run starts from the root. A caller that
    /// comes back for more solutions (branch and bound) passes the same counter again.
    fn step_with_restarts(&mut self, policy: RestartPolicy, run: &mut u32, clock: Clock) -> Step {
        self.step_with_restarts_until(policy, run, None, clock).0
    }

    /// [`step_with_restarts`](Self::step_with_restarts), pausing before the decision that
    /// would make more than `until` in all; returns whether it paused there. The run goes on
    /// at the next call, its failures counted again from 0.
    fn step_with_restarts_until(
        &mut self,
        policy: RestartPolicy,
        run: &mut u32,
        until: Option<u64>,
        clock: Clock,
    ) -> (Step, bool) {
        self.start();
        let progress = Progress::default();
        let mut from_root = false;
        loop {
            let Some(engine) = self.engine.as_mut() else {
                unreachable!("start builds the engine");
            };
            if from_root {
                engine.restart(self.model);
                for &(var, value) in &self.fixes {
                    engine.fix_before_search(var, value);
                }
                self.variable_order.start_run(*run);
                self.value_order.start_run(*run);
                self.stats.restarts += 1;
            }
            progress.reset();
            let pause = Pause {
                failures: Some(policy.failure_budget(*run)),
                progress: Some(&progress),
                nodes: until,
                ..Pause::default()
            };
            let budget = Budget::start(&self.plan.config.limits, clock).with_pause(pause);
            let mut observer = Tracked {
                inner: &mut self.observer,
                progress: &progress,
            };
            let mut search = Run {
                model: self.model,
                variable_order: &mut self.variable_order,
                value_order: &mut self.value_order,
                observer: &mut observer,
                budget: &budget,
                stats: &mut self.stats,
            };
            let step = engine.next(&mut search);
            self.stats.elapsed = budget.elapsed();
            if !(matches!(step, Step::Limit(_)) && budget.paused()) {
                return (step, false);
            }
            if until.is_some_and(|until| self.stats.decisions >= until) {
                return (step, true);
            }
            *run = run.saturating_add(1);
            from_root = true;
        }
    }

    fn current_solution(&self) -> Solution {
        let domains = self.engine.as_ref().map_or(&[][..], Engine::domains);
        Solution::from_domains(self.model, domains)
    }
}

/// The solutions of a [`Solver`], from [`Solver::solutions`].
#[derive(Debug)]
pub struct Solutions<'s, 'm, V, W, O> {
    solver: &'s mut Solver<'m, V, W, O>,
    stopped_by: Option<Limit>,
    done: bool,
}

impl<V, W, O> Solutions<'_, '_, V, W, O> {
    /// After the iterator has ended: the limit that stopped it, or `None` if the search was
    /// exhausted (every solution was produced).
    pub fn stopped_by(&self) -> Option<Limit> {
        self.stopped_by
    }
}

impl<V: VariableOrder, W: ValueOrder, O: SearchObserver> Iterator for Solutions<'_, '_, V, W, O> {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        if self.done {
            return None;
        }
        match self.solver.next_outcome(false) {
            Outcome::Solved(solution) => Some(solution),
            Outcome::Exhausted => {
                self.done = true;
                None
            }
            Outcome::LimitReached(limit) => {
                self.done = true;
                self.stopped_by = Some(limit);
                None
            }
        }
    }
}

impl<V: VariableOrder, W: ValueOrder, O: SearchObserver> std::iter::FusedIterator
    for Solutions<'_, '_, V, W, O>
{
}

/// Solving, on the model itself: the two shortcuts of the search layer.
impl Model {
    /// A solver with the default strategy: input order, ascending values, full propagation.
    /// Configure it with its builder methods, then call
    /// [`next_solution`](Solver::next_solution), [`solutions`](Solver::solutions) or
    /// [`count`](Solver::count).
    pub fn solver(&self) -> Solver<'_> {
        Solver::new(self)
    }

    /// A solver with the options of `config` (its orders input order and ascending values,
    /// to change with [`Solver::with_variable_order`] and [`Solver::with_value_order`]).
    ///
    /// # Errors
    ///
    /// [`ModelError::NotForAc3`] for [`Propagation::Ac3`] on a model AC-3 cannot read (see
    /// [`Propagation::Ac3`]), [`ModelError::ForeignVariable`] for a decision or projected
    /// variable of another model.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    /// use cspkit::{AllDifferent, Model, ModelError, Propagation, SearchConfig};
    ///
    /// let ac3 = SearchConfig::new().with_propagation(Propagation::Ac3);
    /// let queens = Queens::pairwise(4)?;
    /// let mut solver = queens.model().solver_with(ac3.clone())?;
    /// assert_eq!(solver.count().solutions, 2);
    /// assert!(solver.stats().revisions > 0);
    ///
    /// // AC-3 reads binary constraints and all-different, nothing wider.
    /// let mut model = Model::new();
    /// let xs = model.new_vars(3, 0..=2)?;
    /// model.post(AllDifferent::new(&xs))?;
    /// model.post((xs[0] + xs[1] + xs[2]).eq(3))?;
    /// assert!(matches!(model.solver_with(ac3), Err(ModelError::NotForAc3 { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solver_with(&self, config: SearchConfig) -> Result<Solver<'_>, ModelError> {
        let plan = Plan::new(self, config)?;
        Ok(Solver::with_plan(
            self, plan, InputOrder, Ascending, NoObserver,
        ))
    }

    /// The first solution under the default strategy (input order, ascending values, full
    /// propagation): the lexicographically smallest solution in declaration order.
    pub fn solve(&self) -> Outcome {
        self.solver().next_solution()
    }
}

#[cfg(test)]
mod tests {
    use crate::{AllDifferent, Model, ModelError};

    #[test]
    fn a_restart_with_a_bad_fix_is_an_error_and_leaves_no_fix() {
        let mut model = Model::new();
        let xs = model.new_vars(3, 1..=3).unwrap();
        model.post(AllDifferent::new(&xs)).unwrap();
        let other = Model::new().new_var(1..=3).unwrap();
        let mut solver = model.solver();
        assert!(matches!(
            solver.restart_with([(xs[0], 1), (xs[1], 7)]),
            Err(ModelError::ValueNotInDomain { value: 7, .. })
        ));
        assert_eq!(solver.count().solutions, 6);
        assert!(matches!(
            solver.restart_with([(other, 1)]),
            Err(ModelError::ForeignVariable { .. })
        ));
        assert_eq!(solver.count().solutions, 6);
        // One variable fixed twice: refused, as two calls of `Model::fix` would be.
        assert!(matches!(
            solver.restart_with([(xs[0], 1), (xs[0], 2)]),
            Err(ModelError::ValueNotInDomain { value: 2, .. })
        ));
        assert_eq!(solver.count().solutions, 6);
        solver.restart_with([(xs[0], 1), (xs[0], 1)]).unwrap();
        assert_eq!(solver.count().solutions, 2);
        // Fixes that contradict a constraint are no error: the search finds nothing.
        solver.restart_with([(xs[0], 1), (xs[1], 1)]).unwrap();
        assert_eq!(solver.count().solutions, 0);
    }

    #[test]
    fn a_variable_fixed_twice_is_refused_even_when_no_constraint_would_notice() {
        // Unconstrained and at `None`: an empty domain reaching the search would be branched on.
        let mut model = Model::new();
        let x = model.new_var(1..=3).unwrap();
        let mut solver = model
            .solver()
            .with_propagation(crate::PropagationLevel::None);
        assert!(solver.restart_with([(x, 1), (x, 2)]).is_err());
        assert_eq!(solver.count().solutions, 3);
    }
}
