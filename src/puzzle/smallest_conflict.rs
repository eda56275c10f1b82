//! [`smallest_conflict`]: the fewest (or cheapest) assumptions without a solution, by an
//! implicit hitting-set search over the minimal ones.

use std::time::Duration;

use crate::ValueOrder;
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::propagate_alone;
use crate::model::Model;
use crate::puzzle::hitting_set::{Cheapest, HittingSets};
use crate::puzzle::limits::Clock;
use crate::puzzle::{Limits, WhyError};
use crate::{Limit, Outcome, PropagationLevel, SearchView, SmallestDomain, Solution, Solver};

/// Which set of assumptions without a solution [`smallest_conflict`] looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConflictGoal {
    /// Subset-minimal (irreducible): without any one of its assumptions, the rest have a
    /// solution. The quickest to find, by deletion ([`minimal_conflict`](super::minimal_conflict)).
    Minimal,
    /// Cardinality-minimal: no set of fewer assumptions has no solution.
    Minimum,
    /// Cost-minimal: no set of smaller total cost has no solution, under the costs of
    /// [`ConflictOptions::with_costs`] (each 1 by default, which makes it [`Minimum`](Self::Minimum)).
    CostOptimal,
}

/// What [`smallest_conflict`] looks for and how long it may search.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use cspkit::puzzle::{ConflictGoal, ConflictOptions, Limits};
///
/// // The cheapest set, where the first assumption costs 5 and the others 1.
/// let options = ConflictOptions::new(ConflictGoal::CostOptimal)
///     .with_costs(&[5, 1, 1, 1])
///     .with_limits(Limits::new().with_decision_limit(10_000))
///     .with_search_time(Duration::from_secs(2));
/// assert_eq!(options.goal(), ConflictGoal::CostOptimal);
/// ```
#[derive(Debug, Clone)]
pub struct ConflictOptions {
    goal: ConflictGoal,
    costs: Option<Vec<u64>>,
    limits: Limits,
    search_time: Option<Duration>,
}

impl ConflictOptions {
    /// Looks for `goal`, each assumption costing 1, with no limit.
    pub fn new(goal: ConflictGoal) -> Self {
        ConflictOptions {
            goal,
            costs: None,
            limits: Limits::new(),
            search_time: None,
        }
    }

    /// The cost of each assumption, in the order of the assumptions (one each): what
    /// [`ConflictGoal::CostOptimal`] minimises, the sum over the set. A puzzle maker may make a
    /// given she cares about dear, so that the set avoids it. With
    /// [`ConflictGoal::Minimum`], costs only break ties; [`ConflictGoal::Minimal`] ignores
    /// them.
    pub fn with_costs(mut self, costs: &[u64]) -> Self {
        self.costs = Some(costs.to_vec());
        self
    }

    /// The limits of the whole call (see [`Limits`]): the decision limit of each search, the
    /// time limit and the flag of everything.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// How long the search for a smaller set than the subset-minimal one may take, once that
    /// one is found (within the time limit of [`with_limits`](Self::with_limits) too). When it
    /// runs out, the subset-minimal set is the answer, and says so.
    pub fn with_search_time(mut self, time: Duration) -> Self {
        self.search_time = Some(time);
        self
    }

    /// The set looked for.
    pub fn goal(&self) -> ConflictGoal {
        self.goal
    }

    /// The costs given, if any.
    pub fn costs(&self) -> Option<&[u64]> {
        self.costs.as_deref()
    }

    /// The limits of the whole call.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }
}

/// What is proved of a [`SmallestConflict`]'s set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Optimality {
    /// Nothing beyond having no solution: a limit stopped the shrinking (or a check reached
    /// the decision limit).
    Unproved,
    /// Subset-minimal: each proper subset has a solution. The fallback when a limit stops the
    /// search for the smallest, and the answer to [`ConflictGoal::Minimal`].
    Minimal,
    /// Cardinality-minimal: no fewer assumptions have no solution (and subset-minimal).
    Minimum,
    /// Cost-minimal under the costs given: no cheaper set has no solution.
    CostOptimal,
}

/// A set of assumptions without a solution, found by [`smallest_conflict`], and what is known
/// of it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SmallestConflict {
    /// The indices of the assumptions in the set, ascending.
    pub assumptions: Vec<usize>,
    /// What is proved: [`Optimality::Minimum`] or [`Optimality::CostOptimal`] when the
    /// goal was reached, a weaker one when a limit stopped the search.
    pub optimality: Optimality,
    /// Whether the set is a direct clash: two assumptions that one constraint alone refutes
    /// (two equal values in an all-different, a binary constraint violated, one variable
    /// given two values), found before any search.
    pub direct: bool,
    /// The total cost of the set.
    pub cost: u64,
    /// A lower bound on the cost of every set without a solution: equal to
    /// [`cost`](Self::cost) when the set is proved the cheapest.
    pub lower_bound: u64,
    /// The limit that stopped the search before the goal was proved, if any.
    pub stopped_by: Option<Limit>,
}

/// A set of `assumptions` (each `variable = value`, such as a puzzle's clues) under which
/// `model` has no solution, as small as `options` asks: subset-minimal, cardinality-minimal or
/// cost-minimal ([`ConflictGoal`]).
///
/// First, two assumptions that one constraint alone refutes (propagated alone at full
/// strength on the model's domains, with the two fixed) are the answer, the cheapest such
/// pair, with [`SmallestConflict::direct`] set: two equal givens in a Sudoku's row are always
/// reported as that pair.
///
/// Otherwise a subset-minimal set is found by deletion, as [`minimal_conflict_within`](super::minimal_conflict_within) does:
/// the fast answer, and the fallback. For [`ConflictGoal::Minimum`] and
/// [`ConflictGoal::CostOptimal`] an implicit hitting-set search then looks for the cheapest
/// (OCUS-style, after Ignatiev et al. and Gamba, Bogaerts and Guns): a hitting-set solver
/// proposes the cheapest set of assumptions that meets every correction set found so far;
/// if the model has no solution under it, it is the cheapest of all, since every set without
/// a solution meets every correction set. If it has one, the proposal is grown to a maximal
/// satisfiable subset (the solution's agreeing assumptions, then each other one that still
/// leaves a solution), and the assumptions left out are a new correction set to meet. Cheap
/// greedy proposals are checked between two exact ones, and a greedy proposal without a
/// solution, shrunk by deletion, becomes the best set so far. The search stops when the
/// cheapest proposal is no cheaper than the best set so far, which is then the cheapest.
///
/// When a limit stops that search (the time limit of the options' [`Limits`], their flag, or
/// [`ConflictOptions::with_search_time`]), the best set so far is the answer, as
/// [`Optimality::Minimal`], with the bound proved so far in
/// [`SmallestConflict::lower_bound`] and the limit in [`SmallestConflict::stopped_by`].
///
/// # Errors
///
/// [`WhyError::Solvable`] if all the assumptions together have a solution,
/// [`WhyError::LimitReached`] if the search on all of them stops at a limit,
/// [`WhyError::Model`] for an assumption outside its variable's domain,
/// [`WhyError::CostCount`] if the costs are not one per assumption.
///
/// # Examples
///
/// ```
/// use cspkit::models::sudoku::{Grid, Sudoku};
/// use cspkit::puzzle::{ConflictGoal, ConflictOptions, Optimality, smallest_conflict};
///
/// let empty = Sudoku::new(&Grid::empty(3).unwrap())?;
/// // Two 5s in the first row, and a harmless 7.
/// let clues = [(empty.cell(0, 0), 5), (empty.cell(4, 4), 7), (empty.cell(0, 2), 5)];
/// let options = ConflictOptions::new(ConflictGoal::Minimum);
/// let found = smallest_conflict(empty.model(), &clues, &options)?;
/// assert_eq!(found.assumptions, [0, 2]);
/// assert!(found.direct);
/// assert_eq!(found.optimality, Optimality::Minimum);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn smallest_conflict(
    model: &Model,
    assumptions: &[(VarId, i32)],
    options: &ConflictOptions,
) -> Result<SmallestConflict, WhyError> {
    if let Some(costs) = &options.costs
        && costs.len() != assumptions.len()
    {
        return Err(WhyError::CostCount {
            costs: costs.len(),
            assumptions: assumptions.len(),
        });
    }
    // The costs the search minimises. For the fewest assumptions, with costs given to break
    // ties, each assumption counts for more than all the costs given together (`unit`).
    let unit = match (&options.costs, options.goal) {
        (Some(given), ConflictGoal::Minimum) => given
            .iter()
            .fold(0u64, |s, &c| s.saturating_add(c))
            .saturating_add(1),
        _ => 1,
    };
    let costs: Vec<u64> = match (&options.costs, options.goal) {
        (Some(given), ConflictGoal::CostOptimal) => given.clone(),
        (Some(given), ConflictGoal::Minimum) => {
            given.iter().map(|&c| unit.saturating_add(c)).collect()
        }
        _ => vec![1; assumptions.len()],
    };
    for &(var, value) in assumptions {
        model.check_fix(var, value)?;
    }
    let clock = options.limits.start();
    let mut checker = Checker::new(model, assumptions, &clock);
    let cost_of = |set: &[usize]| set.iter().fold(0u64, |s, &i| s.saturating_add(costs[i]));
    // The cost reported: the sum of the costs given, or the number of assumptions.
    let reported = |set: &[usize]| -> u64 {
        match (&options.costs, options.goal) {
            (Some(given), ConflictGoal::CostOptimal) => {
                set.iter().fold(0u64, |s, &i| s.saturating_add(given[i]))
            }
            _ => set.len() as u64,
        }
    };

    let mut best = match direct_pair(model, assumptions, &costs) {
        Some(pair) if checker.singletons_solvable(&pair) => Best {
            set: pair,
            optimality: Optimality::Minimal,
            direct: true,
        },
        _ => {
            let all: Vec<usize> = (0..assumptions.len()).collect();
            match checker.check(&all) {
                Check::Unsat => {}
                Check::Sat(_) => return Err(WhyError::Solvable),
                Check::Unknown(limit) => return Err(WhyError::LimitReached(limit)),
            }
            // Deletion in the order of the assumptions, as `minimal_conflict` does.
            let order: Vec<usize> = all.clone();
            let shrunk = checker.shrink(all, &order);
            if shrunk.stopped_by.is_some() || !shrunk.minimal {
                return Ok(SmallestConflict {
                    cost: reported(&shrunk.set),
                    assumptions: shrunk.set,
                    optimality: Optimality::Unproved,
                    direct: false,
                    lower_bound: 0,
                    stopped_by: shrunk.stopped_by,
                });
            }
            Best {
                set: shrunk.set,
                optimality: Optimality::Minimal,
                direct: false,
            }
        }
    };
    if options.goal == ConflictGoal::Minimal {
        return Ok(SmallestConflict {
            cost: reported(&best.set),
            assumptions: best.set,
            optimality: best.optimality,
            direct: best.direct,
            lower_bound: 0,
            stopped_by: None,
        });
    }

    let search_clock = options
        .search_time
        .map(|time| Limits::new().with_time_limit(time));
    let search_clock = search_clock.as_ref().map(Limits::start);
    let stopped = || clock.stopped().or_else(|| search_clock.as_ref()?.stopped());
    let mut family = HittingSets::new(costs.clone());
    let mut lower = 0u64;
    let proved = if options.goal == ConflictGoal::CostOptimal {
        Optimality::CostOptimal
    } else {
        Optimality::Minimum
    };
    let stopped_by = 'search: loop {
        if let Some(limit) = stopped() {
            break 'search Some(limit);
        }
        let bound = cost_of(&best.set);
        match family.cheapest(bound, &mut || stopped().is_some()) {
            Cheapest::Stopped => break 'search stopped().or(Some(Limit::Time)),
            Cheapest::NoneBelow => {
                lower = bound;
                best.optimality = proved;
                break 'search None;
            }
            Cheapest::Found(proposal, cost) => {
                lower = cost;
                match checker.check(&proposal) {
                    Check::Unsat => {
                        let order = dearest_first(&proposal, &costs);
                        best = Best {
                            set: checker.shrink(proposal, &order).set,
                            optimality: proved,
                            direct: false,
                        };
                        lower = cost_of(&best.set);
                        break 'search None;
                    }
                    Check::Sat(solution) => {
                        let correction = checker.grow(&proposal, &solution, &costs);
                        family.add(correction);
                    }
                    Check::Unknown(limit) => break 'search Some(limit),
                }
            }
        }
        // Postponed optimisation: greedy proposals while they have solutions.
        while let Some(proposal) = family.greedy() {
            if stopped().is_some() || cost_of(&proposal) >= cost_of(&best.set) {
                break;
            }
            match checker.check(&proposal) {
                Check::Sat(solution) => {
                    let correction = checker.grow(&proposal, &solution, &costs);
                    family.add(correction);
                }
                Check::Unsat => {
                    let order = dearest_first(&proposal, &costs);
                    let shrunk = checker.shrink(proposal, &order);
                    if shrunk.minimal && cost_of(&shrunk.set) < cost_of(&best.set) {
                        best = Best {
                            set: shrunk.set,
                            optimality: Optimality::Minimal,
                            direct: false,
                        };
                    }
                    break;
                }
                Check::Unknown(_) => break,
            }
        }
    };
    let lower_bound = if stopped_by.is_none() {
        reported(&best.set)
    } else {
        // A bound on the costs used inside, back in the costs reported.
        lower / unit
    };
    Ok(SmallestConflict {
        cost: reported(&best.set),
        assumptions: best.set,
        optimality: best.optimality,
        direct: best.direct,
        lower_bound,
        stopped_by,
    })
}

/// The best set so far.
struct Best {
    set: Vec<usize>,
    optimality: Optimality,
    direct: bool,
}

/// The cheapest pair of assumptions that one constraint alone refutes (or two values given
/// to one variable), ties broken by the smallest indices.
fn direct_pair(model: &Model, assumptions: &[(VarId, i32)], costs: &[u64]) -> Option<Vec<usize>> {
    let mut best: Option<(u64, usize, usize)> = None;
    let mut consider = |i: usize, j: usize| {
        let (i, j) = (i.min(j), i.max(j));
        let key = (costs[i].saturating_add(costs[j]), i, j);
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    };
    // Assumptions by variable.
    let mut on: Vec<Vec<usize>> = vec![Vec::new(); model.variables().len()];
    for (i, &(var, _)) in assumptions.iter().enumerate() {
        on[var.index()].push(i);
    }
    for list in &on {
        for (a, &i) in list.iter().enumerate() {
            for &j in &list[a + 1..] {
                if assumptions[i].1 != assumptions[j].1 {
                    consider(i, j);
                }
            }
        }
    }
    let mut domains: Vec<Domain> = model.variables().map(|v| model.domain(v).clone()).collect();
    let fixed = |value: i32| Domain::from_values([value]).expect("one value");
    for (_, constraint) in model.constraints() {
        let scope = constraint.scope();
        let mut inside: Vec<usize> = scope
            .iter()
            .flat_map(|v| on[v.index()].iter().copied())
            .collect();
        inside.sort_unstable();
        inside.dedup();
        if inside.len() < 2 {
            continue;
        }
        // All of them at once first: most constraints accept them, and then no pair clashes.
        let mut clash = false;
        for &i in &inside {
            let (var, value) = assumptions[i];
            if domains[var.index()].contains(value) {
                domains[var.index()] = fixed(value);
            } else {
                clash = true;
            }
        }
        clash = clash || propagate_alone(constraint, &mut domains, PropagationLevel::Full).is_err();
        restore(model, scope, &mut domains);
        if !clash {
            continue;
        }
        for (a, &i) in inside.iter().enumerate() {
            for &j in &inside[a + 1..] {
                let ((x, u), (y, w)) = (assumptions[i], assumptions[j]);
                if x == y {
                    continue;
                }
                domains[x.index()] = fixed(u);
                domains[y.index()] = fixed(w);
                let refuted =
                    propagate_alone(constraint, &mut domains, PropagationLevel::Full).is_err();
                restore(model, scope, &mut domains);
                domains[x.index()] = model.domain(x).clone();
                domains[y.index()] = model.domain(y).clone();
                if refuted {
                    consider(i, j);
                }
            }
        }
    }
    best.map(|(_, i, j)| vec![i, j])
}

/// The model's domains back on `scope`.
fn restore(model: &Model, scope: &[VarId], domains: &mut [Domain]) {
    for &var in scope {
        domains[var.index()].clone_from(model.domain(var));
    }
}

/// Tries, at each branch, the value of an assumption on the variable if it is still there:
/// solutions then agree with as many assumptions as they can, so the correction sets are
/// small.
#[derive(Debug, Clone)]
struct Preferred(Vec<Option<i32>>);

impl ValueOrder for Preferred {
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        let domain = view.domain(var);
        match self.0[var.index()] {
            Some(value) if domain.contains(value) => value,
            _ => domain.min().expect("a variable branched on has values"),
        }
    }
}

/// A set shrunk by deletion.
struct Shrunk {
    /// The set left, ascending.
    set: Vec<usize>,
    /// Whether every check answered: the set is then subset-minimal.
    minimal: bool,
    /// The time limit or the flag, if it stopped the deletion.
    stopped_by: Option<Limit>,
}

/// The elements of `set`, the dearest first: deletion then keeps the cheap ones.
fn dearest_first(set: &[usize], costs: &[u64]) -> Vec<usize> {
    let mut order = set.to_vec();
    order.sort_by_key(|&i| (std::cmp::Reverse(costs[i]), i));
    order
}

/// The answer of one check.
enum Check {
    /// No solution under the assumptions checked.
    Unsat,
    /// A solution.
    Sat(Solution),
    /// A limit stopped the search.
    Unknown(Limit),
}

/// Searches for solutions under subsets of the assumptions.
struct Checker<'m, 'c> {
    solver: Solver<'m, SmallestDomain, Preferred>,
    assumptions: &'m [(VarId, i32)],
    clock: &'c Clock<'c>,
}

impl<'m, 'c> Checker<'m, 'c> {
    fn new(model: &'m Model, assumptions: &'m [(VarId, i32)], clock: &'c Clock<'c>) -> Self {
        let mut preferred = vec![None; model.variables().len()];
        for &(var, value) in assumptions {
            preferred[var.index()].get_or_insert(value);
        }
        let solver = clock.configure(
            model
                .solver()
                .with_variable_order(SmallestDomain)
                .with_value_order(Preferred(preferred)),
        );
        Checker {
            solver,
            assumptions,
            clock,
        }
    }

    /// Whether the model has a solution under the assumptions of `set`.
    fn check(&mut self, set: &[usize]) -> Check {
        let chosen = set.iter().map(|&i| self.assumptions[i]);
        // Two values for one variable: no solution (the solver would refuse the second).
        let mut seen: Vec<(VarId, i32)> = chosen.clone().collect();
        seen.sort_unstable();
        if seen
            .windows(2)
            .any(|w| w[0].0 == w[1].0 && w[0].1 != w[1].1)
        {
            return Check::Unsat;
        }
        if self.solver.restart_with(chosen).is_err() {
            return Check::Unsat;
        }
        self.clock.arm(&mut self.solver);
        match self.solver.next_solution() {
            Outcome::Solved(solution) => Check::Sat(solution),
            Outcome::Exhausted => Check::Unsat,
            Outcome::LimitReached(limit) => Check::Unknown(limit),
        }
    }

    /// Whether each of the two assumptions of `pair` alone leaves a solution.
    fn singletons_solvable(&mut self, pair: &[usize]) -> bool {
        pair.iter()
            .all(|&i| matches!(self.check(&[i]), Check::Sat(_)))
    }

    /// The assumptions a maximal satisfiable subset grown from `set` (which `solution`
    /// satisfies) leaves out: a correction set that `set` does not meet.
    fn grow(&mut self, set: &[usize], solution: &Solution, costs: &[u64]) -> Vec<usize> {
        let n = self.assumptions.len();
        let mut kept = vec![false; n];
        let agree = |kept: &mut [bool], solution: &Solution| {
            for (i, &(var, value)) in self.assumptions.iter().enumerate() {
                if solution[var] == value {
                    kept[i] = true;
                }
            }
        };
        for &i in set {
            kept[i] = true;
        }
        agree(&mut kept, solution);
        // The cheap ones kept first: the correction sets then hold the dear ones.
        let mut order: Vec<usize> = (0..n).filter(|&i| !kept[i]).collect();
        order.sort_by_key(|&i| (costs[i], i));
        for i in order {
            if kept[i] || self.clock.stopped().is_some() {
                continue;
            }
            kept[i] = true;
            let trial: Vec<usize> = (0..n).filter(|&k| kept[k]).collect();
            match self.check(&trial) {
                Check::Sat(more) => agree(&mut kept, &more),
                Check::Unsat | Check::Unknown(_) => kept[i] = false,
            }
        }
        (0..n).filter(|&i| !kept[i]).collect()
    }

    /// `set` (which has no solution) shrunk by deletion, its assumptions tried in `order`.
    fn shrink(&mut self, set: Vec<usize>, order: &[usize]) -> Shrunk {
        let mut kept = set;
        let mut minimal = true;
        let mut stopped_by = None;
        for &i in order {
            if let Some(limit) = self.clock.stopped() {
                stopped_by = Some(limit);
                minimal = false;
                break;
            }
            let trial: Vec<usize> = kept.iter().copied().filter(|&k| k != i).collect();
            match self.check(&trial) {
                Check::Unsat => kept = trial,
                Check::Sat(_) => {}
                Check::Unknown(Limit::Decisions) => minimal = false,
                Check::Unknown(limit) => {
                    stopped_by = Some(limit);
                    minimal = false;
                    break;
                }
            }
        }
        kept.sort_unstable();
        Shrunk {
            set: kept,
            minimal,
            stopped_by,
        }
    }
}
