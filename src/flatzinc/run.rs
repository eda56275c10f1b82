//! Solving a built FlatZinc model and printing in the FlatZinc output format.

use std::collections::HashSet;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::flatzinc::build::{
    FznModel, Goal, OutputItem, OutputValue, SearchGroup, ValueChoice, VarChoice,
};
use crate::ids::{ConstraintId, VarId};
use crate::model::Solution;
use crate::search::ordering::{smallest_domain_among, smallest_minimum_among};
use crate::util::random::SplitMix64;
use crate::{
    Activity, Branching, DomWdeg, Literal, Lns, Optimum, Outcome, RestartPolicy, SearchObserver,
    SearchStats, Solver,
};
use crate::{SearchView, ValueOrder, VariableOrder};

/// The options MiniZinc passes to a FlatZinc solver.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `-a`: every solution of a satisfaction problem, every improving one of an optimisation.
    pub all: bool,
    /// `-n N`: stop after N solutions; for an optimisation, after N improving solutions,
    /// each printed as it is found (as Gecode's `fzn-gecode` does).
    pub solutions: Option<u64>,
    /// `-t MS`: the time limit.
    pub time_limit: Option<Duration>,
    /// `-f`: free search, the annotations ignored.
    pub free: bool,
    /// `-r SEED`: the seed of `indomain_random`.
    pub seed: u64,
    /// `-s`: statistics as `%%%mzn-stat:` lines.
    pub statistics: bool,
    /// Large-neighbourhood search beside branch and bound, for an optimisation ([`Lns`]; on in
    /// `fzn-cspkit` unless `--no-lns`).
    pub lns: bool,
    /// A flag that stops the search when raised, from any thread (`fzn-cspkit` raises it on
    /// SIGINT and SIGTERM): what was found is printed as when a limit stops the search.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Solutions printed, the search not finished (satisfaction stopped at `-n`, or a limit).
    Solutions,
    /// The search finished: every solution printed, or the last one optimal (`==========`).
    Complete,
    /// No solution exists (`=====UNSATISFIABLE=====`).
    Unsatisfiable,
    /// A limit ended the search before any solution (`=====UNKNOWN=====`).
    Unknown,
}

/// The variable order of a model's search annotations ([`FznModel::variable_order`]): each
/// group in turn, by its choice; then, in a scheduling model ([`FznModel::is_scheduling`]),
/// the start times of its tasks by smallest minimum
/// ([`SmallestMinimum`](crate::SmallestMinimum)); then the other variables by smallest domain
/// (first fail). Without annotations, the last two.
///
/// Down a path of the search, domains only shrink: a group whose variables are all fixed at a
/// node stays so below it, and so does an `input_order` group's fixed prefix. `fronts[d]`
/// keeps where the choice at depth `d` found its variable (group, and position in an
/// `input_order` group), and the choice below starts there, so that a search through one
/// group of n variables in input order costs O(n) down a path, not O(n²). The choice made last
/// at depth `d - 1` is the parent's (or the same node before a refutation narrowed it), as the
/// search is depth-first.
#[derive(Debug, Clone)]
pub struct AnnotatedOrder {
    groups: Vec<SearchGroup>,
    fronts: Vec<(usize, usize)>,
    /// The failure weights of the `dom_w_deg` groups.
    weights: DomWdeg,
    /// The activities of the variables, for the ones no annotation names once the search
    /// learns.
    activity: Activity,
    /// Which variables are start times of tasks, indexed by variable (empty if none is).
    start_times: StartTimes,
}

/// The start times of a model's tasks ([`FznModel::start_times()`]), and the choice among them.
#[derive(Debug, Clone, Default)]
struct StartTimes {
    /// Indexed by variable; empty if the model has no task.
    marked: Vec<bool>,
}

impl StartTimes {
    /// The start times of `fzn`'s tasks if it is a scheduling model
    /// ([`FznModel::is_scheduling`]), else none.
    fn of(fzn: &FznModel) -> StartTimes {
        if !fzn.is_scheduling() {
            return StartTimes::default();
        }
        let mut marked = vec![false; fzn.model().num_variables()];
        for var in fzn.start_times() {
            marked[var.index()] = true;
        }
        StartTimes { marked }
    }

    /// The open start time with the smallest minimum (ties to the smallest domain), if any:
    /// a task that can start first, placed at its earliest start by the smallest value.
    fn choose(&self, view: &SearchView<'_>) -> Option<VarId> {
        if self.marked.is_empty() {
            return None;
        }
        smallest_minimum_among(view, view.unfixed().filter(|var| self.marked[var.index()]))
    }
}

impl VariableOrder for AnnotatedOrder {
    fn start_run(&mut self, _run: u32) {
        self.fronts.clear();
    }

    fn failure(&mut self, constraint: Option<ConstraintId>) {
        self.weights.failure(constraint);
        self.activity.failure(constraint);
    }

    fn learned(&mut self, nogood: &[Literal]) {
        self.activity.learned(nogood);
    }

    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        let depth = view.depth();
        let (first_group, mut from) = match depth.checked_sub(1) {
            Some(parent) => self.fronts.get(parent).copied().unwrap_or((0, 0)),
            None => (0, 0),
        };
        let mut chosen = None;
        let mut group_index = first_group;
        while let Some(group) = self.groups.get(group_index) {
            let mut open = group.vars[from..]
                .iter()
                .copied()
                .filter(|&v| view.domain(v).size() > 1);
            chosen = match group.var_choice {
                VarChoice::InputOrder => open.next(),
                VarChoice::FirstFail => smallest_domain_among(view, open),
                VarChoice::DomWdeg => self.weights.best_among(view, open),
                VarChoice::MostConstrained => {
                    open.min_by_key(|&v| (view.domain(v).size(), std::cmp::Reverse(view.degree(v))))
                }
                VarChoice::Occurrence => {
                    open.max_by_key(|&v| (view.degree(v), std::cmp::Reverse(v)))
                }
                VarChoice::AntiFirstFail => {
                    open.max_by_key(|&v| (view.domain(v).size(), std::cmp::Reverse(v)))
                }
                VarChoice::Smallest => open.min_by_key(|&v| view.domain(v).min()),
                VarChoice::Largest => {
                    open.max_by_key(|&v| (view.domain(v).max(), std::cmp::Reverse(v)))
                }
            };
            if let Some(var) = chosen {
                if group.var_choice == VarChoice::InputOrder {
                    from += group.vars[from..]
                        .iter()
                        .position(|&v| v == var)
                        .unwrap_or(0);
                }
                break;
            }
            group_index += 1;
            from = 0;
        }
        self.fronts.truncate(depth);
        self.fronts.resize(depth, (0, 0));
        self.fronts.push((group_index, from));
        chosen
            .or_else(|| self.start_times.choose(view))
            .or_else(|| {
                if self.activity.learns() {
                    self.activity.best_among(view, view.unfixed())
                } else {
                    view.smallest_domain()
                }
            })
    }
}

/// The variable order of free search in `fzn-cspkit` ([`FznModel::free_variable_order`]): in a
/// scheduling model ([`FznModel::is_scheduling`]), the start times of its tasks by smallest
/// minimum ([`SmallestMinimum`](crate::SmallestMinimum)); then the other variables by dom/wdeg
/// ([`DomWdeg`], whose weights learn from every failure), or, once the search has learned a
/// nogood ([`Solver::with_learning`]), by activity ([`Activity`], VSIDS).
#[derive(Debug, Clone)]
pub struct FreeOrder {
    start_times: StartTimes,
    weights: DomWdeg,
    activity: Activity,
}

impl VariableOrder for FreeOrder {
    fn failure(&mut self, constraint: Option<ConstraintId>) {
        self.weights.failure(constraint);
        self.activity.failure(constraint);
    }

    fn learned(&mut self, nogood: &[Literal]) {
        self.activity.learned(nogood);
    }

    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        self.start_times.choose(view).or_else(|| {
            if self.activity.learns() {
                self.activity.select_variable(view)
            } else {
                self.weights.select_variable(view)
            }
        })
    }
}

/// The value order of a model's search annotations, per variable (smallest value by default;
/// [`FznModel::value_order`]).
#[derive(Debug, Clone)]
pub struct AnnotatedValues {
    choice: Vec<ValueChoice>,
    random: SplitMix64,
}

impl ValueOrder for AnnotatedValues {
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        let domain = view.domain(var);
        let (low, high) = (domain.min().unwrap_or(0), domain.max().unwrap_or(0));
        let at_most = |target: i64| {
            let target = i32::try_from(target).unwrap_or(high);
            domain.below(target.saturating_add(1)).unwrap_or(low)
        };
        match self
            .choice
            .get(var.index())
            .copied()
            .unwrap_or(ValueChoice::Min)
        {
            ValueChoice::Min => low,
            ValueChoice::Split if view.branching() == Branching::Split => {
                at_most((i64::from(low) + i64::from(high)).div_euclid(2))
            }
            ValueChoice::Split => low,
            ValueChoice::Max => high,
            ValueChoice::Median => at_most((i64::from(low) + i64::from(high)).div_euclid(2)),
            ValueChoice::Random => {
                let span = (i64::from(high) - i64::from(low) + 1) as u64;
                at_most(i64::from(low) + self.random.below(span) as i64)
            }
        }
    }
}

impl FznModel {
    /// The variable order of the model's search annotations: the annotated groups in turn,
    /// then, in a scheduling model ([`is_scheduling`](FznModel::is_scheduling)), the start
    /// times of its tasks by smallest minimum, then the other variables by smallest domain
    /// first.
    pub fn variable_order(&self) -> AnnotatedOrder {
        AnnotatedOrder {
            groups: self.search().to_vec(),
            fronts: Vec::new(),
            weights: DomWdeg::new(),
            activity: Activity::new(),
            start_times: StartTimes::of(self),
        }
    }

    /// Whether the searches treat the model as a scheduling problem: it has tasks of fixed
    /// durations ([`start_times`](FznModel::start_times())), and their start times and the
    /// objective's variables are all its decision variables (those no constraint defines,
    /// [`independent`](FznModel::independent())). Free search, and the annotated search once
    /// its annotations are done, then branch on the start times first, by smallest minimum.
    ///
    /// Where other decisions remain (which machine, which mode, which worker), setting the
    /// times first would fix starts before the choices that give them their meaning: on the
    /// MiniZinc Challenge's flexible job shop, multi-mode and multi-skill project schedules,
    /// free search then found no solution where dom/wdeg proves the optimum.
    pub fn is_scheduling(&self) -> bool {
        if self.start_times().is_empty() {
            return false;
        }
        let mut marked = vec![false; self.model().num_variables()];
        for var in self.start_times() {
            marked[var.index()] = true;
        }
        if let Goal::Optimize { objective, .. } = self.goal() {
            for &(_, var) in objective.terms() {
                marked[var.index()] = true;
            }
        }
        self.independent().iter().all(|var| marked[var.index()])
    }

    /// [`variable_order`](FznModel::variable_order) without the annotations: in a scheduling
    /// model, the start times of its tasks by smallest minimum, then the other variables by
    /// smallest domain first (the free search of `cspkit fzn -f`).
    pub fn unannotated_order(&self) -> AnnotatedOrder {
        AnnotatedOrder {
            groups: Vec::new(),
            fronts: Vec::new(),
            weights: DomWdeg::new(),
            activity: Activity::new(),
            start_times: StartTimes::of(self),
        }
    }

    /// The variable order of free search (`-f`, or a model without search annotations): in a
    /// scheduling model ([`is_scheduling`](FznModel::is_scheduling)), the start times of its
    /// tasks by smallest minimum; then the other variables by dom/wdeg.
    ///
    /// Smallest minimum with the smallest value first places the task that can start first
    /// at its earliest start (*set times*): on a job shop or a project schedule, a first
    /// schedule comes without a failure, where smallest domain first on start times can
    /// search for seconds without one, and dom/wdeg's first schedules are longer
    /// (`docs/strategies.md`, "Start times").
    pub fn free_variable_order(&self) -> FreeOrder {
        FreeOrder {
            start_times: StartTimes::of(self),
            weights: DomWdeg::new(),
            activity: Activity::new(),
        }
    }

    /// The branching of the model's search annotations: [`Branching::Split`] when each
    /// annotated group says `indomain_split` (bisection), [`Branching::Assign`] otherwise.
    pub fn branching(&self) -> Branching {
        let splits = |group: &SearchGroup| group.value_choice == ValueChoice::Split;
        if !self.search().is_empty() && self.search().iter().all(splits) {
            Branching::Split
        } else {
            Branching::Assign
        }
    }

    /// The value order of the model's search annotations; `seed` draws the values of
    /// `indomain_random`. The variables they do not name take their smallest value first,
    /// except the objective's, which takes the best value first (as in free search).
    pub fn value_order(&self, seed: u64) -> AnnotatedValues {
        let mut values = self.free_values();
        values.random = SplitMix64::new(seed);
        for group in self.search() {
            for var in &group.vars {
                if let Some(slot) = values.choice.get_mut(var.index()) {
                    *slot = group.value_choice;
                }
            }
        }
        values
    }

    /// Large-neighbourhood search for this model ([`Options::lns`]), its neighbourhoods
    /// searched by dom/wdeg whatever the search annotations say: over the model's
    /// [`independent`](FznModel::independent()) variables, or if every variable is defined by a
    /// constraint, over the annotated ones (all but the objective's if there are none).
    ///
    /// Measured on the MiniZinc Challenge problems (`docs/benchmarks.md`), both choices find
    /// better solutions than the annotations' variables and orders on most of them.
    pub fn neighbourhoods(&self, seed: u64) -> Lns {
        let lns = Lns::new().with_seed(seed);
        if !self.independent().is_empty() {
            return lns.with_variables(self.independent());
        }
        let mut seen = HashSet::new();
        let annotated: Vec<VarId> = self
            .search()
            .iter()
            .flat_map(|group| group.vars.iter().copied())
            .filter(|&var| seen.insert(var))
            .collect();
        if annotated.is_empty() {
            lns
        } else {
            lns.with_variables(&annotated)
        }
    }

    /// The variables the output shows, in the order it shows them (a variable shown twice is
    /// listed twice): what tells two solutions apart for the user, and the projection of an
    /// all-solutions search when [`hidden`](FznModel::has_hidden_variables) variables exist
    /// ([`Solver::with_projection`](crate::Solver::with_projection)).
    pub fn shown_variables(&self) -> Vec<VarId> {
        let mut vars = Vec::new();
        for item in self.output() {
            let mut push = |value: &OutputValue| {
                if let OutputValue::Var(var, _) = *value {
                    vars.push(var);
                }
            };
            match item {
                OutputItem::Scalar { value, .. } => push(value),
                OutputItem::Array { values: items, .. } => items.iter().for_each(&mut push),
            }
        }
        vars
    }

    /// The value order of free search (`-f`): the smallest value first for every variable,
    /// except the objective's, which takes its best value first (the largest for `maximize`,
    /// the smallest for `minimize`), as Gecode's FlatZinc front end branches on it. When the
    /// search chooses the objective's variable, it then tries the values that would improve on
    /// the best solution first: `solve maximize x` over a wide domain is proved at its first
    /// solution, instead of climbing one value at a time.
    fn free_values(&self) -> AnnotatedValues {
        let mut choice = vec![ValueChoice::Min; self.model().num_variables()];
        if let Goal::Optimize {
            objective,
            minimize,
        } = self.goal()
        {
            for &(coefficient, var) in objective.terms() {
                // Minimising a·x with a > 0 (or maximising it with a < 0) wants x small.
                let smaller_is_better = (coefficient > 0) == *minimize;
                if coefficient != 0
                    && let Some(slot) = choice.get_mut(var.index())
                {
                    *slot = if smaller_is_better {
                        ValueChoice::Min
                    } else {
                        ValueChoice::Max
                    };
                }
            }
        }
        AnnotatedValues {
            choice,
            random: SplitMix64::new(0),
        }
    }
}

/// Writes one solution of `fzn` in the FlatZinc output format (its output variables and
/// arrays), then `----------`.
///
/// # Errors
///
/// An error writing to `out`.
pub fn write_solution(fzn: &FznModel, solution: &Solution, out: &mut dyn Write) -> io::Result<()> {
    let show = |value: &OutputValue| match *value {
        OutputValue::Var(var, true) => (solution[var] != 0).to_string(),
        OutputValue::Var(var, false) => solution[var].to_string(),
        OutputValue::Int(v) => v.to_string(),
        OutputValue::Bool(b) => b.to_string(),
    };
    for item in fzn.output() {
        match item {
            OutputItem::Scalar { name, value } => writeln!(out, "{name} = {};", show(value))?,
            OutputItem::Array {
                name,
                ranges,
                values,
            } => {
                let ranges: Vec<String> = ranges.iter().map(|(l, h)| format!("{l}..{h}")).collect();
                let values: Vec<String> = values.iter().map(show).collect();
                writeln!(
                    out,
                    "{name} = array{}d({}, [{}]);",
                    ranges.len(),
                    ranges.join(", "),
                    values.join(", ")
                )?;
            }
        }
    }
    writeln!(out, "----------")
}

fn print_statistics(
    stats: &SearchStats,
    out: &mut dyn Write,
    elapsed: Duration,
    objective: Option<i64>,
) -> io::Result<()> {
    writeln!(out, "%%%mzn-stat: nodes={}", stats.decisions)?;
    writeln!(out, "%%%mzn-stat: failures={}", stats.failures)?;
    writeln!(out, "%%%mzn-stat: propagations={}", stats.propagations)?;
    writeln!(out, "%%%mzn-stat: peakDepth={}", stats.max_depth)?;
    writeln!(out, "%%%mzn-stat: solutions={}", stats.solutions)?;
    if stats.conflicts > 0 {
        writeln!(out, "%%%mzn-stat: conflicts={}", stats.conflicts)?;
        writeln!(out, "%%%mzn-stat: learnedNogoods={}", stats.learned)?;
        writeln!(
            out,
            "%%%mzn-stat: learnedLiterals={}",
            stats.learned_literals
        )?;
        writeln!(out, "%%%mzn-stat: forgottenNogoods={}", stats.forgotten)?;
    }
    if let Some(objective) = objective {
        writeln!(out, "%%%mzn-stat: objective={objective}")?;
    }
    writeln!(out, "%%%mzn-stat: solveTime={:.6}", elapsed.as_secs_f64())?;
    writeln!(out, "%%%mzn-stat-end")
}

/// The failures of the first run of free search; later runs follow the Luby sequence.
const FREE_SEARCH_RESTARTS: u64 = 100;

/// Solves `fzn` with `options` and prints what a FlatZinc solver prints: each solution's
/// output items and `----------`, then `==========` when the search is complete,
/// `=====UNSATISFIABLE=====` or `=====UNKNOWN=====`, and statistics with `-s`.
///
/// The search follows the model's annotations. Free search (`-f`, and a model without search
/// annotations) branches on the start times of a scheduling model first, by smallest minimum,
/// then on the other variables by dom/wdeg ([`FznModel::free_variable_order`]), with the
/// smallest value first (the objective's variable: its best value first), restarted after
/// 100 failures times the Luby sequence ([`RestartPolicy::luby`]): the weights learnt in one
/// run guide the next.
///
/// # Errors
///
/// An error writing to `out`.
pub fn run(fzn: &FznModel, options: &Options, out: &mut dyn Write) -> io::Result<Status> {
    run_observed(fzn, options, out, &mut crate::NoObserver)
}

/// [`run`], with `observer` watching the search: a [`Trace`](crate::teach::trace::Trace), a
/// [`SearchTree`](crate::teach::tree::SearchTree), or any [`SearchObserver`] (pass `&mut` to
/// read it after the run).
///
/// # Errors
///
/// An error writing to `out`.
pub fn run_observed<O: SearchObserver>(
    fzn: &FznModel,
    options: &Options,
    out: &mut dyn Write,
    observer: O,
) -> io::Result<Status> {
    let mut solver = solver_for(fzn, options, observer);
    solve(fzn, options, &mut solver, out)
}

/// The solver [`run`] and [`run_observed`] use, with `observer` watching it: the model's
/// search annotations (or free search), restarts under free search, neighbourhoods for an
/// optimisation when `options.lns`, the time limit and the cancel flag of `options`. Adjust
/// it (e.g. [`Solver::with_learning`], as `fzn-cspkit --learn` does) and pass it to [`solve`].
///
/// # Examples
///
/// ```
/// use cspkit::flatzinc::{self, Options, Status};
///
/// let text = "var 1..3: x :: output_var;\n\
///             var 1..3: y :: output_var;\n\
///             constraint int_lt(x, y);\n\
///             solve satisfy;\n";
/// let fzn = flatzinc::build(&flatzinc::parse(text)?)?;
/// let options = Options::default();
/// let mut solver = flatzinc::solver_for(&fzn, &options, cspkit::NoObserver).with_learning(true);
/// let mut out = Vec::new();
/// assert_eq!(flatzinc::solve(&fzn, &options, &mut solver, &mut out)?, Status::Solutions);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solver_for<'m, O: SearchObserver>(
    fzn: &'m FznModel,
    options: &Options,
    observer: O,
) -> Solver<'m, Box<dyn VariableOrder>, AnnotatedValues, O> {
    let free = options.free || fzn.search().is_empty();
    let (variables, values): (Box<dyn VariableOrder>, AnnotatedValues) = if free {
        (Box::new(fzn.free_variable_order()), fzn.free_values())
    } else {
        (
            Box::new(fzn.variable_order()),
            fzn.value_order(options.seed),
        )
    };
    let mut solver = fzn
        .model()
        .solver()
        .with_variable_order(variables)
        .with_value_order(values)
        .with_branching(if free {
            Branching::Assign
        } else {
            fzn.branching()
        })
        .with_observer(observer);
    if free {
        solver = solver.with_restarts(RestartPolicy::luby(FREE_SEARCH_RESTARTS));
    }
    if options.lns && matches!(fzn.goal(), Goal::Optimize { .. }) {
        solver = solver.with_lns(fzn.neighbourhoods(options.seed));
    }
    if let Some(limit) = options.time_limit {
        solver = solver.with_time_limit(limit);
    }
    if let Some(flag) = &options.cancel {
        solver = solver.with_cancel_flag(Arc::clone(flag));
    }
    solver
}

/// Solves `fzn` with a solver configured by the caller (its orders, propagation, limits and
/// observers: [`run`] uses the model's search annotations), and prints what a FlatZinc solver
/// prints, as [`run`] does. Of `options`, only the solutions asked for (`all`, `solutions`)
/// and `statistics` are read here. When more than one solution of a satisfaction problem is
/// asked for and the model has [`hidden`](FznModel::has_hidden_variables) variables, the
/// solver is projected on the [`shown_variables`](FznModel::shown_variables)
/// ([`Solver::set_projection`]: the search starts afresh, and the projection stays set).
///
/// # Errors
///
/// An error writing to `out`.
///
/// # Examples
///
/// Smallest domain first and the largest value first, instead of the annotations:
///
/// ```
/// use cspkit::flatzinc::{self, Options, Status};
/// use cspkit::{Descending, SmallestDomain};
///
/// let text = "var 1..3: x :: output_var;\n\
///             var 1..3: y :: output_var;\n\
///             constraint int_lt(x, y);\n\
///             solve :: int_search([x, y], input_order, indomain_min) satisfy;\n";
/// let fzn = flatzinc::build(&flatzinc::parse(text)?)?;
/// let mut solver = fzn
///     .model()
///     .solver()
///     .with_variable_order(SmallestDomain)
///     .with_value_order(Descending);
/// let mut out = Vec::new();
/// let status = flatzinc::solve(&fzn, &Options::default(), &mut solver, &mut out)?;
/// assert_eq!(status, Status::Solutions);
/// assert_eq!(String::from_utf8(out)?, "x = 2;\ny = 3;\n----------\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve<V: VariableOrder, A: ValueOrder, O: SearchObserver>(
    fzn: &FznModel,
    options: &Options,
    solver: &mut Solver<'_, V, A, O>,
    out: &mut dyn Write,
) -> io::Result<Status> {
    // The objective of the best solution, for the statistics.
    let mut objective_value = None;
    let status = match fzn.goal() {
        Goal::Satisfy => {
            // At least one: "none asked for" must not read as "none exists".
            let mut wanted = options
                .solutions
                .unwrap_or(if options.all { u64::MAX } else { 1 })
                .max(1);
            let mut printed = 0u64;
            let mut one_is_all = false;
            // Solutions that differ only in variables the output does not show are one
            // solution to the user: the search is projected on the shown ones.
            if fzn.has_hidden_variables() && wanted > 1 {
                let shown = fzn.shown_variables();
                if shown.is_empty() {
                    // Every solution reads the same: the first is all there is to show.
                    wanted = 1;
                    one_is_all = true;
                } else {
                    solver
                        .set_projection(&shown)
                        .map_err(|e| io::Error::other(e.to_string()))?;
                }
            }
            // `next_solution`: the first one by restarts if the solver has a policy.
            let mut stopped_by = None;
            while printed < wanted {
                match solver.next_solution() {
                    Outcome::Solved(solution) => {
                        write_solution(fzn, &solution, out)?;
                        // Each solution reaches the reader as it is found, even if the run is
                        // killed later.
                        out.flush()?;
                        printed += 1;
                    }
                    Outcome::Exhausted => break,
                    Outcome::LimitReached(limit) => {
                        stopped_by = Some(limit);
                        break;
                    }
                }
            }
            // Stopped at the solutions asked for: there may be more.
            let finished = printed < wanted || (one_is_all && printed == 1);
            match (printed, stopped_by, finished) {
                (0, None, _) => Status::Unsatisfiable,
                (0, Some(_), _) => Status::Unknown,
                (_, None, true) => Status::Complete,
                _ => Status::Solutions,
            }
        }
        Goal::Optimize {
            objective,
            minimize,
        } => {
            // With `-a` (what MiniZinc passes for intermediate solutions) or `-n N`, each
            // improving solution is printed as it is found, and flushed: the reader has it even
            // if the run is killed later. Otherwise only the best is printed, at the end (when
            // the search ends, a limit stops it, or a signal does).
            let each = options.all || options.solutions.is_some();
            let mut found = 0u64;
            let mut write_error = None;
            let mut report = |solution: &Solution, _value: i64| {
                found += 1;
                if each
                    && let Err(e) = write_solution(fzn, solution, out).and_then(|()| out.flush())
                {
                    write_error = Some(e);
                }
                // A reader gone is no reason to search on.
                if write_error.is_some() || options.solutions.is_some_and(|n| found >= n) {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            };
            let optimum = if *minimize {
                solver.minimize_while(objective.clone(), &mut report)
            } else {
                solver.maximize_while(objective.clone(), &mut report)
            };
            if let Some(e) = write_error {
                return Err(e);
            }
            let optimum = optimum.map_err(|e| io::Error::other(e.to_string()))?;
            if let Some((solution, value)) = optimum.best() {
                objective_value = Some(value);
                if !each {
                    write_solution(fzn, solution, out)?;
                }
            }
            match optimum {
                Optimum::Optimal { .. } => Status::Complete,
                Optimum::BestFound { .. } => Status::Solutions,
                Optimum::Infeasible => Status::Unsatisfiable,
                _ => Status::Unknown,
            }
        }
    };
    // A domain clamped to 32 bits may have hidden solutions: no claim of completeness.
    let status = match status {
        Status::Complete if !fzn.clamped().is_empty() => Status::Solutions,
        Status::Unsatisfiable if !fzn.clamped().is_empty() => Status::Unknown,
        status => status,
    };
    match status {
        Status::Complete => writeln!(out, "==========")?,
        Status::Unsatisfiable => writeln!(out, "=====UNSATISFIABLE=====")?,
        Status::Unknown => writeln!(out, "=====UNKNOWN=====")?,
        Status::Solutions => {}
    }
    if options.statistics {
        let stats = solver.stats();
        print_statistics(&stats, out, stats.elapsed, objective_value)?;
    }
    out.flush()?;
    Ok(status)
}
