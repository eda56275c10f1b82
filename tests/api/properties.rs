//! Properties of the whole engine on random small models, checked against brute force.
//!
//! The models mix `AllDifferent` (with and without offsets), `NotEqual` with offsets, and a
//! linear inequality defined below with the public API only. Every property compares the search
//! with the naive enumeration of `common::brute_force`, which trusts nothing but the
//! constraints' own `check`.

use crate::common;

use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use common::{
    ConstraintRecipe, ConstraintSpec, LEVELS, ModelSpec, Pair, Stateless, brute_force,
    clustered_domain, clustered_model_specs, collect_solutions, domain, forward_checking_fixpoint,
    full_root_propagation_is_exact, has_no_repeats, initial_domains, model_specs, offset,
    root_domains, scale, scope, supported_values,
};
use cspkit::{
    AllDifferent, Ascending, Branching, Conflict, Constraint, Descending, DomainOverDegree,
    InputOrder, Limit, Model, NotEqual, Outcome, PropagationContext, PropagationLevel,
    SearchObserver, SearchView, SmallestDomain, ValueOrder, VarId, VariableOrder, WakeOn,
};
#[allow(
    deprecated,
    reason = "checks that the deprecated `EventRecorder` still works"
)]
use cspkit::{EventRecorder, SearchEvent};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::Index;

// ----- A constraint written the way a user would: Σ cᵢ·xᵢ ≤ bound. -----

/// `Σ coefficients[i] · scope[i] ≤ bound`.
///
/// - `None`: fails when the whole scope is fixed and violates the rule.
/// - `Forward`: when all variables but one are fixed, keeps in the last one the values that
///   satisfy the rule with the fixed ones (so it looks at fixed variables only, and is woken
///   only by fixing).
/// - `Full`: bounds pruning. A value `v` of `xᵢ` is kept exactly when `cᵢ·v` plus the smallest
///   possible sum of the other terms is at most `bound`; that is the rule itself, so the pruning
///   is exact (every value left belongs to some solution of the constraint alone).
#[derive(Debug)]
struct LinearAtMost {
    scope: Vec<VarId>,
    coefficients: Vec<i64>,
    bound: i64,
}

impl LinearAtMost {
    /// The smallest value of `c·x` over the domain of `x`.
    fn smallest_term(ctx: &PropagationContext<'_>, var: VarId, c: i64) -> Result<i64, Conflict> {
        let domain = ctx.domain(var);
        let end = if c >= 0 { domain.min() } else { domain.max() };
        end.map(|v| c * i64::from(v)).ok_or(Conflict)
    }

    /// Keeps in `x` the values with `c·x ≤ slack`.
    fn prune(
        ctx: &mut PropagationContext<'_>,
        x: VarId,
        c: i64,
        slack: i64,
    ) -> Result<(), Conflict> {
        // A bound beyond the i32 range keeps every value or none.
        let everything = Ok(());
        let nothing = Err(Conflict);
        if c > 0 {
            let highest = slack.div_euclid(c);
            match i32::try_from(highest) {
                Ok(highest) => ctx.remove_above(x, highest).map(drop),
                Err(_) if highest < 0 => nothing,
                Err(_) => everything,
            }
        } else if c < 0 {
            let lowest = -slack.div_euclid(-c);
            match i32::try_from(lowest) {
                Ok(lowest) => ctx.remove_below(x, lowest).map(drop),
                Err(_) if lowest > 0 => nothing,
                Err(_) => everything,
            }
        } else if slack < 0 {
            nothing
        } else {
            everything
        }
    }
}

impl Constraint for LinearAtMost {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn check(&self, values: &[i32]) -> bool {
        let sum: i64 = values
            .iter()
            .zip(&self.coefficients)
            .map(|(&v, &c)| c * i64::from(v))
            .sum();
        sum <= self.bound
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let terms = self
            .scope
            .iter()
            .copied()
            .zip(self.coefficients.iter().copied());
        if ctx.level() != PropagationLevel::Full {
            let mut fixed_sum = 0;
            let mut unfixed = Vec::new();
            for (x, c) in terms {
                match ctx.value(x) {
                    Some(v) => fixed_sum += c * i64::from(v),
                    None => unfixed.push((x, c)),
                }
            }
            return match unfixed[..] {
                [] if fixed_sum > self.bound => Err(Conflict),
                [(x, c)] if ctx.level() == PropagationLevel::Forward => {
                    Self::prune(ctx, x, c, self.bound - fixed_sum)
                }
                _ => Ok(()),
            };
        }
        let smallest: Vec<i64> = terms
            .clone()
            .map(|(x, c)| Self::smallest_term(ctx, x, c))
            .collect::<Result<_, _>>()?;
        let total: i64 = smallest.iter().sum();
        if total > self.bound {
            return Err(Conflict);
        }
        // Pruning a term's largest values never changes its smallest value, so `total` stays
        // right through the loop.
        for ((x, c), own) in terms.zip(smallest) {
            Self::prune(ctx, x, c, self.bound - (total - own))?;
        }
        Ok(())
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::Full => WakeOn::AnyChange,
            _ => WakeOn::Fixed,
        }
    }

    fn is_idempotent(&self, _level: PropagationLevel) -> bool {
        true
    }
}

/// How to build a [`LinearAtMost`]: variables by index, one coefficient each.
#[derive(Debug, Clone)]
struct Linear {
    terms: Vec<(usize, i64)>,
    bound: i64,
}

impl ConstraintRecipe for Linear {
    fn build(&self, vars: &[VarId]) -> Box<dyn Constraint> {
        Box::new(LinearAtMost {
            scope: self.terms.iter().map(|&(i, _)| vars[i]).collect(),
            coefficients: self.terms.iter().map(|&(_, c)| c).collect(),
            bound: self.bound,
        })
    }
}

/// A random linear inequality over one to three of `num_variables` variables, with
/// coefficients in ±{1, 2} and a bound around zero (so that about half the assignments pass).
fn linear(num_variables: usize, scale: i32) -> impl Strategy<Value = Linear> {
    let coefficient = prop_oneof![Just(-2i64), Just(-1), Just(1), Just(2)];
    (
        scope(num_variables, 1..=num_variables.min(3)),
        vec(coefficient, 3),
        -8i64..=8,
    )
        .prop_map(move |(scope, coefficients, bound)| Linear {
            terms: scope.into_iter().zip(coefficients).collect(),
            bound: bound * i64::from(scale),
        })
}

/// Random models of two to six variables: built-ins and linear inequalities, over small or
/// spread-out domains half the time, over clustered domains the other half.
fn models() -> impl Strategy<Value = ModelSpec<Linear>> {
    prop_oneof![
        model_specs(2..=6, 1, linear),
        clustered_model_specs(2..=6, 1, linear),
    ]
}

/// Random models of built-in constraints only.
fn builtin_models() -> impl Strategy<Value = ModelSpec<Linear>> {
    models().prop_map(|mut spec| {
        spec.constraints
            .retain(|c| !matches!(c, ConstraintSpec::Extra(_)));
        spec
    })
}

/// The binary relations of a model of built-in constraints.
fn builtin_pairs(spec: &ModelSpec<Linear>) -> Vec<Pair> {
    spec.constraints
        .iter()
        .flat_map(|c| c.builtin_pairs().expect("a built-in constraint"))
        .collect()
}

// ----- Strategies of the search, as trait objects so that they can be listed. -----

/// The variable orders tried: every built-in one and a closure.
#[derive(Debug, Clone, Copy)]
enum VariableChoice {
    Input,
    SmallestDomain,
    DomainOverDegree,
    /// A closure: the last unfixed variable in declaration order.
    LastUnfixed,
}

impl VariableChoice {
    const ALL: [VariableChoice; 4] = [
        VariableChoice::Input,
        VariableChoice::SmallestDomain,
        VariableChoice::DomainOverDegree,
        VariableChoice::LastUnfixed,
    ];

    fn order(self) -> Box<dyn VariableOrder> {
        match self {
            VariableChoice::Input => Box::new(InputOrder),
            VariableChoice::SmallestDomain => Box::new(SmallestDomain),
            VariableChoice::DomainOverDegree => Box::new(DomainOverDegree),
            VariableChoice::LastUnfixed => {
                Box::new(|view: &SearchView<'_>| view.unfixed().next_back())
            }
        }
    }
}

/// The value orders tried: every built-in one and a closure.
#[derive(Debug, Clone, Copy)]
enum ValueChoice {
    Ascending,
    Descending,
    /// A closure: the middle value of the domain (the upper one of two).
    Middle,
}

impl ValueChoice {
    const ALL: [ValueChoice; 3] = [
        ValueChoice::Ascending,
        ValueChoice::Descending,
        ValueChoice::Middle,
    ];

    fn order(self) -> Box<dyn ValueOrder> {
        match self {
            ValueChoice::Ascending => Box::new(Ascending),
            ValueChoice::Descending => Box::new(Descending),
            ValueChoice::Middle => Box::new(|var: VarId, view: &SearchView<'_>| {
                let domain = view.domain(var);
                domain
                    .iter()
                    .nth(domain.size() / 2)
                    .expect("the variable is not fixed")
            }),
        }
    }
}

/// An observer that raises a cancellation flag after every `every` decisions.
#[derive(Debug)]
struct CancelEvery {
    flag: Arc<AtomicBool>,
    every: u64,
    decisions: u64,
}

impl SearchObserver for CancelEvery {
    fn decision(&mut self, _var: VarId, _value: i32, _depth: usize) {
        self.decisions += 1;
        if self.decisions.is_multiple_of(self.every) {
            self.flag.store(true, Ordering::Relaxed);
        }
    }
}

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(256)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_reported_solution_satisfies_every_constraint(spec in models()) {
        let (model, _) = spec.build();
        for level in LEVELS {
            for variables in VariableChoice::ALL {
                let mut solver = model
                    .solver()
                    .with_variable_order(variables.order())
                    .with_propagation(level);
                for solution in solver.solutions() {
                    prop_assert!(
                        model.is_solution(solution.values()),
                        "{solution:?} at {level:?} with {variables:?} violates a constraint"
                    );
                    for (_, constraint) in model.constraints() {
                        let scoped: Vec<i32> =
                            constraint.scope().iter().map(|&x| solution[x]).collect();
                        prop_assert!(
                            constraint.check(&scoped),
                            "{solution:?} violates {constraint:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_restart_with_fixes_searches_as_the_model_with_those_values_fixed(
        spec in models(),
        picks in proptest::collection::vec(
            (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
            0..4,
        ),
    ) {
        let (model, vars) = spec.build();
        // Fixes drawn from the initial domains, one per variable at most.
        let mut fixes: Vec<(usize, i32)> = Vec::new();
        for (var, value) in &picks {
            let i = var.index(vars.len());
            let values: Vec<i32> = model.domain(vars[i]).iter().collect();
            if fixes.iter().all(|&(j, _)| j != i) {
                fixes.push((i, values[value.index(values.len())]));
            }
        }
        let (mut fixed, fixed_vars) = spec.build();
        for &(i, value) in &fixes {
            fixed.fix(fixed_vars[i], value).unwrap();
        }
        for level in LEVELS {
            let mut expected_solver = fixed.solver().with_propagation(level);
            let (expected, _) = collect_solutions(&mut expected_solver);
            let expected_stats = expected_solver.stats();
            let mut solver = model.solver().with_propagation(level);
            // Twice: the second restart reuses the buffers of a finished search.
            for _ in 0..2 {
                solver.restart_with(fixes.iter().map(|&(i, value)| (vars[i], value))).unwrap();
                let (found, _) = collect_solutions(&mut solver);
                prop_assert_eq!(&found, &expected, "at {:?}", level);
                let stats = solver.stats();
                prop_assert_eq!(
                    (stats.decisions, stats.failures, stats.propagations, stats.solutions),
                    (
                        expected_stats.decisions,
                        expected_stats.failures,
                        expected_stats.propagations,
                        expected_stats.solutions,
                    )
                );
            }
        }
    }

    #[test]
    fn the_solutions_are_the_brute_force_solutions_each_reported_once(spec in models()) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        if let Some(planted) = &spec.planted {
            prop_assert!(expected.contains(planted), "the oracle misses the planted solution");
        }
        for level in LEVELS {
            let mut solver = model.solver().with_propagation(level);
            let (mut found, stopped_by) = collect_solutions(&mut solver);
            prop_assert_eq!(stopped_by, None);
            prop_assert_eq!(solver.stats().solutions, found.len() as u64);
            found.sort();
            prop_assert!(has_no_repeats(&found), "a solution is reported twice at {:?}", level);
            prop_assert_eq!(&found, &expected, "at {:?}", level);
        }
    }

    #[test]
    fn the_solutions_are_the_same_under_every_variable_order_value_order_and_level(
        spec in models(),
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        for level in LEVELS {
            for variables in VariableChoice::ALL {
                for values in ValueChoice::ALL {
                    let strategy = format!("{variables:?}, {values:?}, {level:?}");
                    let solver = || {
                        model
                            .solver()
                            .with_variable_order(variables.order())
                            .with_value_order(values.order())
                            .with_propagation(level)
                    };
                    let count = solver().count();
                    prop_assert!(count.is_exact(), "{}", strategy);
                    prop_assert_eq!(count.solutions, expected.len() as u64, "{}", strategy);
                    let (mut found, _) = collect_solutions(&mut solver());
                    found.sort();
                    prop_assert!(has_no_repeats(&found), "{}", strategy);
                    prop_assert_eq!(&found, &expected, "{}", strategy);
                }
            }
        }
    }

    #[test]
    fn input_order_and_ascending_values_report_solutions_in_lexicographic_order(
        spec in models(),
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        for level in LEVELS {
            let mut solver = model.solver().with_propagation(level);
            let (found, _) = collect_solutions(&mut solver);
            prop_assert_eq!(&found, &expected, "at {:?}", level);
            let first = model.solver().with_propagation(level).next_solution();
            match expected.first() {
                Some(minimum) => {
                    let first = first.solution().map(|s| s.values().to_vec());
                    prop_assert_eq!(first.as_ref(), Some(minimum), "at {:?}", level);
                }
                None => prop_assert_eq!(first, Outcome::Exhausted, "at {:?}", level),
            }
        }
        let default = model.solve().solution().map(|s| s.values().to_vec());
        prop_assert_eq!(default.as_ref(), expected.first());
    }

    #[test]
    fn root_propagation_never_removes_a_value_of_a_solution(
        spec in prop_oneof![models(), lone_all_different()],
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        let supported = supported_values(&expected, model.num_variables());
        let initial = initial_domains(&model);
        for level in LEVELS {
            match root_domains(&model, level) {
                None => prop_assert!(
                    expected.is_empty(),
                    "root propagation failed at {:?} on a model with solutions", level
                ),
                Some(root) => {
                    for (i, ((root, supported), initial)) in
                        root.iter().zip(&supported).zip(&initial).enumerate()
                    {
                        prop_assert!(
                            supported.is_subset(root),
                            "x{} at {:?}: {:?} pruned, but solutions use {:?}",
                            i, level, root, supported
                        );
                        prop_assert!(root.is_subset(initial), "x{} grew at {:?}", i, level);
                    }
                }
            }
        }
    }

    #[test]
    fn plain_backtracking_prunes_nothing_at_the_root(spec in builtin_models()) {
        let (model, _) = spec.build();
        // It fails at once exactly when two fixed variables break a constraint.
        let fixed = |i: usize| (spec.domains[i].len() == 1).then(|| spec.domains[i][0]);
        let broken = builtin_pairs(&spec).iter().any(|pair| {
            matches!((fixed(pair.x), fixed(pair.y)), (Some(a), Some(b)) if !(pair.allowed)(a, b))
        });
        let expected = (!broken).then(|| initial_domains(&model));
        prop_assert_eq!(root_domains(&model, PropagationLevel::None), expected);
    }

    #[test]
    fn forward_checking_at_the_root_reaches_the_value_elimination_fixpoint(
        spec in builtin_models(),
    ) {
        let (model, _) = spec.build();
        let expected = forward_checking_fixpoint(&spec.domains, &builtin_pairs(&spec));
        prop_assert_eq!(root_domains(&model, PropagationLevel::Forward), expected);
    }

    #[test]
    fn fixing_and_removing_values_after_posting_leaves_the_brute_force_solutions(
        spec in models(),
        edits in vec((any::<Index>(), any::<Index>(), any::<bool>()), 1..=3),
    ) {
        let (mut model, vars) = spec.build();
        for (which, pick, fix) in edits {
            let var = *which.get(&vars);
            let values: Vec<i32> = model.domain(var).iter().collect();
            let value = *pick.get(&values);
            if fix {
                model.fix(var, value).expect("a value of the domain");
            } else if values.len() > 1 {
                model.remove(var, value).expect("not the last value");
            } else {
                prop_assert!(model.remove(var, value).is_err(), "the last value is removed");
            }
        }
        let expected = brute_force(&model);
        for level in LEVELS {
            let mut solver = model.solver().with_propagation(level);
            let (found, _) = collect_solutions(&mut solver);
            prop_assert_eq!(&found, &expected, "at {:?}", level);
        }
    }

    #[test]
    fn a_model_whose_variables_are_all_fixed_is_solved_exactly_when_the_values_satisfy_it(
        spec in models(),
        picks in vec(any::<Index>(), 6),
    ) {
        // The planted solution half the time, so that both answers are common.
        let values: Vec<i32> = match &spec.planted {
            Some(planted) => planted.clone(),
            None => spec.domains.iter().zip(&picks).map(|(d, pick)| *pick.get(d)).collect(),
        };
        let fixed = ModelSpec {
            domains: values.iter().map(|&v| vec![v]).collect(),
            constraints: spec.constraints.clone(),
            planted: None,
        };
        let (model, _) = fixed.build();
        let satisfied = spec.constraints.iter().all(|c| c.is_satisfied_by(&values));
        for level in LEVELS {
            let outcome = model.solver().with_propagation(level).next_solution();
            prop_assert_eq!(outcome.is_solved(), satisfied, "{:?} at {:?}", values, level);
        }
    }

    #[test]
    fn a_node_limited_search_reports_exhausted_only_when_it_finished(
        spec in models(),
        fraction in 0.0f64..1.25,
    ) {
        let (model, _) = spec.build();
        for level in LEVELS {
            let mut unlimited = model.solver().with_propagation(level);
            let (all, _) = collect_solutions(&mut unlimited);
            let needed = unlimited.stats().decisions;
            let limit = (needed as f64 * fraction) as u64;

            // Through `next_solution`: the solutions found are a prefix of the unlimited ones.
            let mut limited = model.solver().with_propagation(level).with_decision_limit(limit);
            let (found, stopped_by) = collect_solutions(&mut limited);
            prop_assert!(limited.stats().decisions <= limit, "the limit is exceeded");
            prop_assert_eq!(&found[..], &all[..found.len()]);
            match stopped_by {
                None => {
                    prop_assert!(needed <= limit, "exhausted after {} of {} nodes", limit, needed);
                    prop_assert_eq!(found.len(), all.len());
                }
                Some(limit_reached) => {
                    prop_assert_eq!(limit_reached, Limit::Decisions);
                    // Asking again reports the same limit and does no more work.
                    let nodes = limited.stats().decisions;
                    prop_assert_eq!(limited.next_solution(), Outcome::LimitReached(Limit::Decisions));
                    prop_assert_eq!(limited.stats().decisions, nodes);
                }
            }
            if limit >= needed {
                prop_assert_eq!(
                    stopped_by, None,
                    "a limit of {} stopped a search that needs {} nodes", limit, needed
                );
            }

            // Through `count`: a count is exact only if the search finished.
            let mut counting = model.solver().with_propagation(level).with_decision_limit(limit);
            let count = counting.count();
            prop_assert!(count.solutions <= all.len() as u64);
            if count.is_exact() {
                prop_assert!(needed <= limit, "exact count after {} of {} nodes", limit, needed);
                prop_assert_eq!(count.solutions, all.len() as u64);
            } else {
                prop_assert_eq!(count.stopped_by, Some(Limit::Decisions));
                prop_assert!(counting.stats().decisions <= limit);
            }
        }
    }

    #[test]
    fn resuming_after_a_cancellation_continues_to_the_same_solutions(
        spec in models(),
        every in 1u64..=5,
    ) {
        let (model, _) = spec.build();
        for level in LEVELS {
            let mut unlimited = model.solver().with_propagation(level);
            let (all, _) = collect_solutions(&mut unlimited);

            let flag = Arc::new(AtomicBool::new(false));
            let mut solver = model
                .solver()
                .with_propagation(level)
                .with_cancel_flag(Arc::clone(&flag))
                .with_observer(CancelEvery { flag: Arc::clone(&flag), every, decisions: 0 });
            let mut found = Vec::new();
            let mut stops = 0u64;
            loop {
                match solver.next_solution() {
                    Outcome::Solved(solution) => found.push(solution.values().to_vec()),
                    Outcome::Exhausted => break,
                    Outcome::LimitReached(limit) => {
                        prop_assert_eq!(limit, Limit::Cancelled);
                        stops += 1;
                        prop_assert!(stops <= unlimited.stats().decisions, "no progress between stops");
                        flag.store(false, Ordering::Relaxed);
                    }
                }
            }
            prop_assert_eq!(&found, &all, "at {:?}", level);
            // Resuming neither repeats nor skips work.
            let (resumed, straight) = (solver.stats(), unlimited.stats());
            prop_assert_eq!(
                (resumed.decisions, resumed.refutations, resumed.nassigns, resumed.failures, resumed.backtracks, resumed.propagations),
                (straight.decisions, straight.refutations, straight.nassigns, straight.failures, straight.backtracks, straight.propagations),
                "decisions, refutations, nassigns, failures, backtracks, propagations at {:?}", level
            );
            prop_assert_eq!(solver.next_solution(), Outcome::Exhausted);
        }
    }

    #[test]
    #[allow(deprecated, reason = "checks that the deprecated `EventRecorder` still works")]
    fn the_observer_sees_a_consistent_search_that_the_statistics_count(spec in models()) {
        let (model, _) = spec.build();
        for level in LEVELS {
            let mut solver = model
                .solver()
                .with_variable_order(SmallestDomain)
                .with_propagation(level)
                .with_observer(EventRecorder::default());
            // Replays the events on a stack of decisions, checking each against it.
            let mut path: Vec<(VarId, i32)> = Vec::new();
            let mut seen = 0;
            let (mut decisions, mut failures, mut backtracks, mut solutions) = (0, 0, 0, 0);
            let mut deepest = 0;
            loop {
                let outcome = solver.next_solution();
                let events = solver.observer().events();
                for event in &events[seen..] {
                    match *event {
                        SearchEvent::Decision { var, value, depth } => {
                            path.push((var, value));
                            prop_assert_eq!(depth, path.len());
                            deepest = deepest.max(depth);
                            decisions += 1;
                        }
                        SearchEvent::Backtrack { var, value, depth } => {
                            prop_assert_eq!(depth, path.len());
                            prop_assert_eq!(path.pop(), Some((var, value)));
                            backtracks += 1;
                        }
                        SearchEvent::Failure { constraint, depth } => {
                            prop_assert_eq!(depth, path.len());
                            if let Some(c) = constraint {
                                prop_assert!(c.index() < model.num_constraints());
                            }
                            failures += 1;
                        }
                        SearchEvent::Solution { depth } => {
                            prop_assert_eq!(depth, path.len());
                            solutions += 1;
                        }
                    }
                }
                seen = events.len();
                match outcome {
                    Outcome::Solved(solution) => {
                        let last_is_solution =
                            matches!(events.last(), Some(SearchEvent::Solution { .. }));
                        prop_assert!(last_is_solution, "the last event is the solution");
                        for &(var, value) in &path {
                            prop_assert_eq!(solution[var], value, "a decision on the path");
                        }
                    }
                    _ => break,
                }
            }
            prop_assert!(path.is_empty(), "an exhausted search undoes every decision");
            let stats = solver.stats();
            prop_assert_eq!(
                (stats.decisions, stats.failures, stats.backtracks, stats.solutions),
                (decisions, failures, backtracks, solutions),
                "nodes, failures, backtracks, solutions at {:?}", level
            );
            prop_assert_eq!(stats.max_depth, deepest);
        }
    }

    #[test]
    fn count_up_to_k_finds_the_smaller_of_k_and_the_total(
        spec in models(),
        extra in 0u64..=3,
        fraction in 0.0f64..=1.0,
    ) {
        let (model, _) = spec.build();
        let total = brute_force(&model).len() as u64;
        // k ranges over 0..=total + 3, with the interesting values near the total.
        let k = if extra == 0 { (total as f64 * fraction) as u64 } else { total + extra - 1 };
        for level in LEVELS {
            let mut solver = model.solver().with_propagation(level);
            let count = solver.count_up_to(k);
            prop_assert_eq!(count.solutions, k.min(total), "k = {} at {:?}", k, level);
            if k <= total {
                prop_assert_eq!(count.stopped_by, Some(Limit::Solutions));
            } else {
                prop_assert!(count.is_exact());
            }
            // The same solver counts the rest.
            let rest = solver.count();
            prop_assert!(rest.is_exact());
            prop_assert_eq!(count.solutions + rest.solutions, total, "k = {} at {:?}", k, level);
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn domain_splitting_finds_the_brute_force_solutions_in_lexicographic_order_under_input_order(
        spec in models(),
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        for level in LEVELS {
            for values in ValueChoice::ALL {
                let mut solver = model
                    .solver()
                    .with_branching(Branching::Split)
                    .with_value_order(values.order())
                    .with_propagation(level);
                let (found, stopped) = collect_solutions(&mut solver);
                prop_assert_eq!(stopped, None);
                prop_assert_eq!(&found, &expected, "{:?}, {:?}", values, level);
            }
            for variables in VariableChoice::ALL {
                let mut solver = model
                    .solver()
                    .with_branching(Branching::Split)
                    .with_variable_order(variables.order())
                    .with_value_order(ValueChoice::Middle.order())
                    .with_propagation(level);
                let (mut found, _) = collect_solutions(&mut solver);
                found.sort();
                prop_assert!(has_no_repeats(&found));
                prop_assert_eq!(&found, &expected, "{:?}, {:?}", variables, level);
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    #[allow(deprecated, reason = "checks that the deprecated `with_textbook_forward_checking` still works")]
    fn d_way_branching_and_textbook_forward_checking_find_the_brute_force_solutions(
        spec in models(),
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        for (level, textbook) in LEVELS.iter().map(|&l| (l, false)).chain([(LEVELS[0], true)]) {
            for values in ValueChoice::ALL {
                let mut solver = model
                    .solver()
                    .with_branching(Branching::DWay)
                    .with_value_order(values.order())
                    .with_propagation(level)
                    .with_textbook_forward_checking(textbook);
                let (found, stopped) = collect_solutions(&mut solver);
                prop_assert_eq!(stopped, None);
                // Input order, and values in the order asked for: the brute force's order
                // when ascending, the same set otherwise.
                let mut sorted = found.clone();
                sorted.sort();
                prop_assert!(has_no_repeats(&sorted));
                prop_assert_eq!(&sorted, &expected, "{:?}, {:?}, textbook {}", values, level, textbook);
                if matches!(values, ValueChoice::Ascending) {
                    prop_assert_eq!(&found, &expected);
                }
            }
        }
    }
}

/// The model of `spec`, each constraint behind [`Stateless`].
fn stateless_model(spec: &ModelSpec<Linear>) -> Model {
    let mut model = Model::new();
    let vars: Vec<VarId> = spec
        .domains
        .iter()
        .map(|domain| model.new_var(domain.as_slice()).expect("a valid domain"))
        .collect();
    for constraint in &spec.constraints {
        model
            .post(Stateless(constraint.build(&vars)))
            .expect("a valid constraint");
    }
    model
}

/// Every solution in the order found, with the nodes, failures and backtracks it took.
fn search_record(
    model: &Model,
    level: PropagationLevel,
    variables: VariableChoice,
    values: ValueChoice,
) -> (Vec<Vec<i32>>, [u64; 3]) {
    let mut solver = model
        .solver()
        .with_variable_order(variables.order())
        .with_value_order(values.order())
        .with_propagation(level);
    let (solutions, stopped) = collect_solutions(&mut solver);
    assert_eq!(stopped, None);
    let stats = solver.stats();
    (
        solutions,
        [stats.decisions, stats.failures, stats.backtracks],
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn stateful_propagators_search_node_for_node_as_their_stateless_reference(
        spec in models(),
    ) {
        let (model, _) = spec.build();
        let reference = stateless_model(&spec);
        for level in LEVELS {
            for variables in [VariableChoice::Input, VariableChoice::SmallestDomain] {
                for values in [ValueChoice::Ascending, ValueChoice::Middle] {
                    prop_assert_eq!(
                        search_record(&model, level, variables, values),
                        search_record(&reference, level, variables, values),
                        "{:?}, {:?}, {:?}", variables, values, level
                    );
                }
            }
        }
    }
}

#[test]
fn a_node_limit_of_zero_still_reports_a_solution_that_root_propagation_finds() {
    // x = 1 and x ≠ y leave y = 2: forward checking and full propagation solve the model at the
    // root, without a decision.
    let mut model = Model::new();
    let x = model.new_var([1]).expect("a valid domain");
    let y = model.new_var([1, 2]).expect("a valid domain");
    model.post(NotEqual::new(x, y)).expect("a valid constraint");
    let expected = brute_force(&model);
    for level in [PropagationLevel::Forward, PropagationLevel::Full] {
        let mut unlimited = model.solver().with_propagation(level);
        let (all, _) = collect_solutions(&mut unlimited);
        assert_eq!(
            (all.as_slice(), unlimited.stats().decisions),
            (&expected[..], 0)
        );
        let mut limited = model
            .solver()
            .with_propagation(level)
            .with_decision_limit(0);
        let first = limited
            .next_solution()
            .solution()
            .map(|s| s.values().to_vec());
        assert_eq!(first.as_ref(), expected.first(), "at {level:?}");
        assert_eq!(limited.next_solution(), Outcome::Exhausted, "at {level:?}");
    }
}

// ----- Values at the ends of the i32 range. -----

/// Random models whose variables take values within four of `i32::MIN` or of `i32::MAX`, with
/// offsets that carry values from one end to the middle (so that shifted values collide and
/// sums overflow `i32`).
fn extreme_models() -> impl Strategy<Value = ModelSpec<Linear>> {
    (2usize..=5)
        .prop_flat_map(|n| {
            let domain = (
                any::<bool>(),
                proptest::sample::subsequence(vec![0, 1, 2, 3, 4], 1..=4),
            )
                .prop_map(|(top, steps)| {
                    steps
                        .into_iter()
                        .map(|k| if top { i32::MAX - k } else { i32::MIN + k })
                        .collect::<Vec<i32>>()
                });
            let offset = proptest::sample::select(vec![
                i32::MIN,
                i32::MIN + 1,
                -1,
                0,
                1,
                i32::MAX - 1,
                i32::MAX,
            ]);
            let all_different =
                (scope(n, 2..=n), vec(offset.clone(), n)).prop_map(|(scope, offsets)| {
                    ConstraintSpec::AllDifferent {
                        offsets: Some(offsets[..scope.len()].to_vec()),
                        scope,
                    }
                });
            let not_equal =
                (scope(n, 2..=2), offset).prop_map(|(pair, offset)| ConstraintSpec::NotEqual {
                    x: pair[0],
                    y: pair[1],
                    offset,
                });
            let constraint = prop_oneof![
                all_different,
                not_equal,
                linear(n, 1).prop_map(ConstraintSpec::Extra),
            ];
            (vec(domain, n), vec(constraint, 0..=4))
        })
        .prop_map(|(domains, constraints)| ModelSpec {
            domains,
            constraints,
            planted: None,
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn models_at_the_ends_of_the_i32_range_have_the_brute_force_solutions(
        spec in extreme_models(),
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        let supported = supported_values(&expected, model.num_variables());
        for level in LEVELS {
            let mut solver = model.solver().with_propagation(level);
            let (found, stopped_by) = collect_solutions(&mut solver);
            prop_assert_eq!(stopped_by, None);
            prop_assert_eq!(&found, &expected, "at {:?}", level);
            if let Some(root) = root_domains(&model, level) {
                for (root, supported) in root.iter().zip(&supported) {
                    prop_assert!(supported.is_subset(root), "{:?} pruned at {:?}", root, level);
                }
            } else {
                prop_assert!(expected.is_empty(), "the root failed at {:?}", level);
            }
        }
    }
}

// ----- Exactness of the strongest filtering, on a lone constraint. -----

/// A model with a single constraint built by `constraint` over variables with `domains`.
fn lone(domains: Vec<Vec<i32>>, constraint: ConstraintSpec<Linear>) -> ModelSpec<Linear> {
    ModelSpec {
        domains,
        constraints: vec![constraint],
        planted: None,
    }
}

/// Value pools for dense `AllDifferent` instances, where the variables have few values to share
/// so that Hall sets and alternating cycles are common, each with the unit of its offsets: one
/// pool fits a machine word, one is spread out, one straddles a word boundary.
const DENSE_POOLS: [([i32; 6], i32); 3] = [
    ([0, 1, 2, 3, 4, 5], 1),
    ([0, 40, 80, 120, 160, 200], 40),
    ([-2, -1, 0, 62, 63, 64], 1),
];

/// A lone `AllDifferent`, with or without offsets, over two to six variables: dense three times
/// in four (domains of one to four values from one of [`DENSE_POOLS`], offsets of at most one
/// unit), otherwise with domains as in the random models.
fn lone_all_different() -> impl Strategy<Value = ModelSpec<Linear>> {
    let dense = (2usize..=6, proptest::sample::select(DENSE_POOLS.to_vec())).prop_flat_map(
        |(n, (pool, unit))| {
            let domain = proptest::sample::subsequence(pool.to_vec(), 1..=4);
            let offset = (-1i32..=1).prop_map(move |o| o * unit);
            (vec(domain, n), scope(n, 2..=n), vec(offset, n))
        },
    );
    let sparse = (2usize..=6, scale(), any::<bool>()).prop_flat_map(|(n, scale, clustered)| {
        let domain = if clustered {
            clustered_domain().boxed()
        } else {
            domain(scale).boxed()
        };
        (vec(domain, n), scope(n, 2..=n), vec(offset(scale), n))
    });
    (prop_oneof![3 => dense, 1 => sparse], any::<bool>()).prop_map(
        |((domains, scope, offsets), with_offsets)| {
            let offsets = with_offsets.then(|| offsets[..scope.len()].to_vec());
            lone(domains, ConstraintSpec::AllDifferent { scope, offsets })
        },
    )
}

/// A lone linear inequality over two to four variables.
fn lone_linear() -> impl Strategy<Value = ModelSpec<Linear>> {
    (2usize..=4, scale())
        .prop_flat_map(|(n, scale)| (vec(domain(scale), n), linear(n, scale)))
        .prop_map(|(domains, linear)| lone(domains, ConstraintSpec::Extra(linear)))
}

/// A larger `AllDifferent` than brute force can enumerate: seven to twelve variables over
/// `n + 2` values (dense, spread out, or straddling a word boundary), one to four values each,
/// with or without offsets of at most one unit. Domains and offsets, in scope order.
fn larger_all_different() -> impl Strategy<Value = (Vec<Vec<i32>>, Option<Vec<i32>>)> {
    (7usize..=12, 0usize..3).prop_flat_map(|(n, kind)| {
        let (pool, unit): (Vec<i32>, i32) = match kind {
            0 => ((0..n as i32 + 2).collect(), 1),
            1 => ((0..n as i32 + 2).map(|v| 40 * v).collect(), 40),
            _ => ((0..n as i32 + 2).map(|v| 58 + v).chain([0]).collect(), 1),
        };
        let domain = proptest::sample::subsequence(pool, 1..=4);
        let offset = (-1i32..=1).prop_map(move |o| o * unit);
        (vec(domain, n), proptest::option::of(vec(offset, n)))
    })
}

/// For each variable, the values `v` such that the others can take values making all shifted
/// values `value + offset` distinct while it takes `v`; `None` if no variable has such a value.
///
/// A naive depth-first search over the variables in order, remembering which sets of shifted
/// values the later variables cannot complete.
fn values_with_distinct_completions(
    domains: &[Vec<i32>],
    offsets: &[i64],
) -> Option<Vec<BTreeSet<i32>>> {
    let mut keys: Vec<i64> = domains
        .iter()
        .zip(offsets)
        .flat_map(|(d, &o)| d.iter().map(move |&v| i64::from(v) + o))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let key = |i: usize, v: i32| {
        keys.binary_search(&(i64::from(v) + offsets[i]))
            .expect("a key")
    };
    // `dead` holds (next variable, keys used) pairs from which no completion exists.
    fn complete(
        next: usize,
        used: u64,
        choices: &[Vec<usize>],
        dead: &mut HashSet<(usize, u64)>,
    ) -> bool {
        if next == choices.len() {
            return true;
        }
        if dead.contains(&(next, used)) {
            return false;
        }
        let found = choices[next]
            .iter()
            .any(|&k| used & 1 << k == 0 && complete(next + 1, used | 1 << k, choices, dead));
        if !found {
            dead.insert((next, used));
        }
        found
    }
    let mut supported = vec![BTreeSet::new(); domains.len()];
    for (i, domain) in domains.iter().enumerate() {
        for &v in domain {
            // Put variable i first, fixed to v.
            let mut choices: Vec<Vec<usize>> = vec![vec![key(i, v)]];
            choices.extend(
                (0..domains.len())
                    .filter(|&j| j != i)
                    .map(|j| domains[j].iter().map(|&w| key(j, w)).collect()),
            );
            if complete(0, 0, &choices, &mut HashSet::new()) {
                supported[i].insert(v);
            }
        }
    }
    supported.iter().all(|s| !s.is_empty()).then_some(supported)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn full_propagation_of_a_lone_all_different_keeps_only_supported_values(
        spec in lone_all_different(),
    ) {
        full_root_propagation_is_exact(&spec)?;
    }

    #[test]
    fn full_propagation_of_a_larger_all_different_keeps_only_supported_values(
        (domains, offsets) in larger_all_different(),
    ) {
        let mut model = Model::new();
        let vars: Vec<VarId> = domains
            .iter()
            .map(|d| model.new_var(d.as_slice()).expect("a valid domain"))
            .collect();
        let constraint = match &offsets {
            Some(offsets) => AllDifferent::with_offsets(&vars, offsets).expect("one each"),
            None => AllDifferent::new(&vars),
        };
        model.post(constraint).expect("a valid constraint");
        let offsets: Vec<i64> = match &offsets {
            Some(offsets) => offsets.iter().map(|&o| i64::from(o)).collect(),
            None => vec![0; domains.len()],
        };
        let expected = values_with_distinct_completions(&domains, &offsets);
        prop_assert_eq!(root_domains(&model, PropagationLevel::Full), expected);
    }

    #[test]
    fn full_propagation_of_a_lone_linear_inequality_keeps_only_supported_values(
        spec in lone_linear(),
    ) {
        full_root_propagation_is_exact(&spec)?;
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn min_conflicts_reports_only_solutions_and_never_claims_there_is_none(spec in models()) {
        let (model, _) = spec.build();
        let solutions = common::brute_force(&model);
        for seed in 0..3 {
            let mut search = cspkit::MinConflicts::new(&model)
                .with_seed(seed)
                .with_max_steps(500);
            match search.run() {
                cspkit::LocalOutcome::Solved(solution) => {
                    prop_assert!(model.is_solution(solution.values()));
                    prop_assert!(solutions.contains(&solution.values().to_vec()));
                }
                cspkit::LocalOutcome::NotFound { steps } => {
                    prop_assert!(steps <= 500);
                    prop_assert_eq!(search.stats().steps, steps);
                }
                other => prop_assert!(false, "unexpected {other:?}"),
            }
        }
    }
}

// ----- Projection: solutions told apart by some variables only. -----

/// The distinct projections of `solutions` on the variables marked in `mask`, sorted.
fn projections(solutions: &[Vec<i32>], mask: &[bool]) -> Vec<Vec<i32>> {
    let distinct: BTreeSet<Vec<i32>> = solutions
        .iter()
        .map(|s| {
            s.iter()
                .zip(mask)
                .filter(|(_, on)| **on)
                .map(|(v, _)| *v)
                .collect()
        })
        .collect();
    distinct.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    #[allow(deprecated, reason = "checks that the deprecated `with_textbook_forward_checking` still works")]
    fn projected_solutions_are_the_distinct_brute_force_projections_each_reported_once(
        spec in models(),
        mask in vec(any::<bool>(), 6),
        decision_mask in vec(any::<bool>(), 6),
    ) {
        let (model, vars) = spec.build();
        let mask = &mask[..vars.len()];
        let projected: Vec<VarId> =
            vars.iter().zip(mask).filter(|(_, on)| **on).map(|(v, _)| *v).collect();
        let decisions: Vec<VarId> =
            vars.iter().zip(&decision_mask).filter(|(_, on)| **on).map(|(v, _)| *v).collect();
        let all = brute_force(&model);
        let expected = if projected.is_empty() { all.clone() } else { projections(&all, mask) };
        let project = |solutions: &[Vec<i32>]| {
            if projected.is_empty() {
                solutions.to_vec()
            } else {
                solutions
                    .iter()
                    .map(|s| s.iter().zip(mask).filter(|(_, on)| **on).map(|(v, _)| *v).collect())
                    .collect::<Vec<Vec<i32>>>()
            }
        };
        // An order that looks past the view's variables: the last open variable of all.
        let past_the_view = |view: &SearchView<'_>| {
            view.variables().rev().find(|&v| view.domain(v).size() > 1)
        };
        for level in LEVELS {
            for branching in [Branching::Assign, Branching::Split, Branching::DWay] {
                for variables in VariableChoice::ALL {
                    for with_decisions in [false, true] {
                        let strategy =
                            format!("{variables:?}, {level:?}, {branching:?}, {with_decisions}");
                        let mut solver = model
                            .solver()
                            .with_variable_order(variables.order())
                            .with_value_order(Descending)
                            .with_propagation(level)
                            .with_branching(branching)
                            .with_projection(&projected)
                            .unwrap();
                        if with_decisions {
                            solver = solver.with_decision_variables(&decisions).unwrap();
                        }
                        let (found, stopped_by) = collect_solutions(&mut solver);
                        prop_assert_eq!(stopped_by, None);
                        prop_assert_eq!(solver.stats().solutions, found.len() as u64);
                        for solution in &found {
                            prop_assert!(all.contains(solution), "{}: not a solution", strategy);
                        }
                        let mut shown = project(&found);
                        shown.sort();
                        prop_assert!(has_no_repeats(&shown), "{}: repeated", strategy);
                        prop_assert_eq!(&shown, &expected, "{}", strategy);
                    }
                }
            }
            let mut solver = model
                .solver()
                .with_variable_order(past_the_view)
                .with_propagation(level)
                .with_projection(&projected)
                .unwrap();
            let (found, _) = collect_solutions(&mut solver);
            let mut shown = project(&found);
            shown.sort();
            prop_assert_eq!(&shown, &expected, "an order past the view, {:?}", level);
            for branching in [Branching::Assign, Branching::Split, Branching::DWay] {
                // Textbook forward checking, where every variable is assigned by a decision.
                let mut solver = model
                    .solver()
                    .with_propagation(level)
                    .with_textbook_forward_checking(true)
                    .with_branching(branching)
                    .with_projection(&projected)
                    .unwrap();
                let (found, _) = collect_solutions(&mut solver);
                let mut shown = project(&found);
                shown.sort();
                prop_assert!(has_no_repeats(&shown), "textbook, {:?}: repeated", branching);
                prop_assert_eq!(&shown, &expected, "textbook, {:?}, {:?}", branching, level);
            }
            let threads = std::num::NonZeroUsize::new(2).unwrap();
            let mut solver = model.solver().with_propagation(level).with_projection(&projected).unwrap();
            prop_assert_eq!(solver.count_parallel(threads).solutions, expected.len() as u64);
        }
    }
}

#[test]
fn a_projection_leaves_the_variables_it_does_not_name_out_of_the_count() {
    // x ≠ y over 1..=3, and 12 free booleans: 6 · 2¹² solutions, 6 on (x, y). The projected
    // search makes one descent per pair, not one per combination of the booleans.
    let mut model = Model::new();
    let x = model.new_var(1..=3).unwrap();
    let y = model.new_var(1..=3).unwrap();
    let _free = model.new_vars(12, 0..=1).unwrap();
    model.post(NotEqual::new(x, y)).unwrap();
    let mut solver = model.solver().with_projection(&[x, y]).unwrap();
    let count = solver.count();
    assert_eq!((count.solutions, count.is_exact()), (6, true));
    assert!(solver.stats().decisions <= 6 * 14, "{:?}", solver.stats());
    let foreign = Model::new().new_var(0..=1);
    if let Ok(foreign) = foreign {
        assert!(model.solver().with_projection(&[foreign]).is_err());
    }
}
