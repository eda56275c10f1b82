//! The randomised orders, restarts and parallel search on random small models, checked against
//! brute force (`common::brute_force`), and on N-Queens, whose counts are known.

use crate::common;

use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use common::{
    ConstraintRecipe, LEVELS, ModelSpec, brute_force, collect_solutions, has_no_repeats,
    model_specs, scope,
};
use cspkit::models::queens::Queens;
use cspkit::{
    AllDifferent, Ascending, Comparison, Constraint, DomainOverDegree, InputOrder, Limit, Linear,
    LinearExpr, MiddleOut, Model, Outcome, PropagationLevel, RandomValue, RestartPolicy,
    SearchView, SmallestDomain, SmallestDomainRandomTies, Solver, ValueOrder, VarId, VariableOrder,
};
#[allow(
    deprecated,
    reason = "checks that the deprecated `EventRecorder` still works"
)]
use cspkit::{EventRecorder, SearchEvent};
use proptest::prelude::*;

/// `Σ aᵢ·xᵢ ≤ c`, through the crate's own [`Linear`], so that models are not all-different only.
#[derive(Debug, Clone)]
struct AtMost {
    terms: Vec<(i64, usize)>,
    constant: i64,
}

impl ConstraintRecipe for AtMost {
    fn build(&self, vars: &[VarId]) -> Box<dyn Constraint> {
        let terms: Vec<(i64, VarId)> = self.terms.iter().map(|&(a, i)| (a, vars[i])).collect();
        Box::new(Linear::new(&terms, Comparison::Le, self.constant))
    }
}

fn at_most(n: usize, scale: i32) -> impl Strategy<Value = AtMost> {
    let coefficient = prop_oneof![Just(-2i64), Just(-1), Just(1), Just(2)];
    (
        scope(n, 1..=n.min(3)),
        proptest::collection::vec(coefficient, 3),
        -8i64..=8,
    )
        .prop_map(move |(scope, coefficients, bound)| AtMost {
            terms: coefficients.into_iter().zip(scope).collect(),
            constant: bound * i64::from(scale),
        })
}

fn models() -> impl Strategy<Value = ModelSpec<AtMost>> {
    model_specs(2..=6, 1, at_most)
}

fn policies() -> impl Strategy<Value = RestartPolicy> {
    prop_oneof![
        (1u64..=4).prop_map(RestartPolicy::luby),
        (1u64..=4).prop_map(|base| RestartPolicy::geometric(base, 1.5)),
    ]
}

/// A named strategy: a variable order and a value order, as trait objects.
type NamedOrders = (String, Box<dyn VariableOrder>, Box<dyn ValueOrder>);

/// Every variable order with every value order of the crate, the randomised ones from `seed`.
fn orders(seed: u64) -> Vec<NamedOrders> {
    let variable_order = |name: &str| -> Box<dyn VariableOrder> {
        match name {
            "input" => Box::new(InputOrder),
            "smallest" => Box::new(SmallestDomain),
            "dom/deg" => Box::new(DomainOverDegree),
            _ => Box::new(SmallestDomainRandomTies::new(seed)),
        }
    };
    let value_order = |name: &str| -> Box<dyn ValueOrder> {
        match name {
            "ascending" => Box::new(Ascending),
            "middle" => Box::new(MiddleOut),
            _ => Box::new(RandomValue::new(seed)),
        }
    };
    let mut all = Vec::new();
    for v in ["input", "smallest", "dom/deg", "random ties"] {
        for w in ["ascending", "middle", "random"] {
            all.push((format!("{v}, {w}"), variable_order(v), value_order(w)));
        }
    }
    all
}

fn threads(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).expect("at least one thread")
}

/// The solutions of a parallel listing, as value vectors, and what stopped it.
fn listed<V, W>(solver: &mut Solver<'_, V, W>, jobs: usize) -> (Vec<Vec<i32>>, Option<Limit>)
where
    V: VariableOrder + Clone + Send,
    W: ValueOrder + Clone + Send,
{
    let mut found = Vec::new();
    let stopped_by = solver.for_each_solution_parallel(threads(jobs), |solution| {
        found.push(solution.values().to_vec());
        ControlFlow::Continue(())
    });
    (found, stopped_by)
}

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(128)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_new_orders_find_the_brute_force_solutions_each_once(
        spec in models(),
        seed in any::<u64>(),
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        for level in LEVELS {
            for (name, variable_order, value_order) in orders(seed) {
                let mut solver = model
                    .solver()
                    .with_variable_order(variable_order)
                    .with_value_order(value_order)
                    .with_propagation(level);
                let (mut found, stopped_by) = collect_solutions(&mut solver);
                prop_assert_eq!(stopped_by, None);
                found.sort();
                prop_assert!(has_no_repeats(&found), "{} at {:?}", name, level);
                prop_assert_eq!(&found, &expected, "{} at {:?}", name, level);
            }
        }
    }

    #[test]
    fn branching_on_some_variables_finds_the_brute_force_solutions_each_once(
        spec in models(),
        chosen in proptest::collection::vec(any::<bool>(), 8),
    ) {
        let (model, vars) = spec.build();
        let expected = brute_force(&model);
        let decision: Vec<VarId> = vars
            .iter()
            .zip(chosen.iter().cycle())
            .filter_map(|(&v, &keep)| keep.then_some(v))
            .collect();
        for level in LEVELS {
            let mut solver = model
                .solver()
                .with_variable_order(SmallestDomain)
                .with_propagation(level)
                .with_decision_variables(&decision)
                .unwrap();
            let (mut found, stopped_by) = collect_solutions(&mut solver);
            prop_assert_eq!(stopped_by, None);
            found.sort();
            prop_assert!(has_no_repeats(&found), "at {:?}", level);
            prop_assert_eq!(&found, &expected, "at {:?}", level);
            // The lexicographic order of the default search holds for the decision variables
            // first: with input order and ascending values, the first solution found is the
            // smallest on them.
            let first = model
                .solver()
                .with_propagation(level)
                .with_decision_variables(&decision)
                .unwrap()
                .next_solution()
                .solution();
            if let Some(first) = first {
                let key = |values: &[i32]| -> Vec<i32> {
                    decision.iter().map(|v| values[v.index()]).collect()
                };
                let smallest = expected.iter().map(|s| key(s)).min().unwrap();
                prop_assert_eq!(key(first.values()), smallest, "at {:?}", level);
            }
        }
    }

    #[test]
    fn randomised_orders_give_the_same_search_for_the_same_seed(
        spec in models(),
        seed in any::<u64>(),
    ) {
        let (model, _) = spec.build();
        let search = || {
            let mut solver = model
                .solver()
                .with_variable_order(SmallestDomainRandomTies::new(seed))
                .with_value_order(RandomValue::new(seed))
                .with_propagation(PropagationLevel::Forward);
            let (found, _) = collect_solutions(&mut solver);
            (found, solver.stats().decisions, solver.stats().failures)
        };
        prop_assert_eq!(search(), search());
    }

    #[test]
    fn restarts_find_a_solution_exactly_when_brute_force_does(
        spec in models(),
        seed in any::<u64>(),
        policy in policies(),
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        for level in LEVELS {
            let mut solver = model
                .solver()
                .with_variable_order(SmallestDomainRandomTies::new(seed))
                .with_value_order(RandomValue::new(seed))
                .with_propagation(level)
                .with_restarts(policy);
            match solver.next_solution() {
                Outcome::Solved(solution) => {
                    prop_assert!(expected.iter().any(|s| s == solution.values()), "at {:?}", level);
                    // The later calls go on with the last run: every other solution, once.
                    let mut found = vec![solution.values().to_vec()];
                    loop {
                        match solver.next_solution() {
                            Outcome::Solved(solution) => found.push(solution.values().to_vec()),
                            Outcome::Exhausted => break,
                            Outcome::LimitReached(limit) => {
                                return Err(TestCaseError::fail(format!("stopped: {limit}")));
                            }
                        }
                    }
                    found.sort();
                    prop_assert!(has_no_repeats(&found));
                    prop_assert_eq!(&found, &expected, "at {:?}", level);
                }
                Outcome::Exhausted => prop_assert!(expected.is_empty(), "at {:?}", level),
                Outcome::LimitReached(limit) => {
                    return Err(TestCaseError::fail(format!("stopped without a limit: {limit}")));
                }
            }
        }
    }

    #[test]
    fn counting_and_listing_ignore_restarts(
        spec in models(),
        seed in any::<u64>(),
        policy in policies(),
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        let count = model.solver().with_restarts(policy).count();
        prop_assert_eq!((count.solutions, count.stopped_by), (expected.len() as u64, None));
        // With the default orders, the listing is the lexicographic order, restarts or not.
        let (found, _) = collect_solutions(&mut model.solver().with_restarts(policy));
        prop_assert_eq!(&found, &expected);
        let mut random = model
            .solver()
            .with_value_order(RandomValue::new(seed))
            .with_restarts(policy);
        prop_assert_eq!(random.count().solutions, expected.len() as u64);
        prop_assert_eq!(random.stats().restarts, 0);
    }

    #[test]
    fn a_limited_restart_search_reports_exhausted_only_when_there_is_no_solution(
        spec in models(),
        seed in any::<u64>(),
        nodes in 0u64..8,
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        let mut solver = model
            .solver()
            .with_variable_order(SmallestDomainRandomTies::new(seed))
            .with_value_order(RandomValue::new(seed))
            .with_restarts(RestartPolicy::luby(1))
            .with_decision_limit(nodes);
        match solver.next_solution() {
            Outcome::Solved(solution) => {
                prop_assert!(expected.iter().any(|s| s == solution.values()));
            }
            Outcome::Exhausted => prop_assert!(expected.is_empty()),
            Outcome::LimitReached(limit) => {
                prop_assert_eq!(limit, Limit::Decisions);
                prop_assert!(solver.stats().decisions >= nodes);
            }
        }
    }

    #[test]
    fn parallel_counts_and_listings_are_those_of_the_sequential_search(
        spec in models(),
        seed in any::<u64>(),
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        for level in LEVELS {
            let solver = || {
                model
                    .solver()
                    .with_variable_order(SmallestDomainRandomTies::new(seed))
                    .with_value_order(RandomValue::new(seed))
                    .with_propagation(level)
            };
            let (sequential, _) = collect_solutions(&mut solver());
            let sequential_stats = {
                let mut solver = solver();
                solver.count();
                solver.stats()
            };
            for jobs in 1..=4 {
                let mut counter = solver();
                let count = counter.count_parallel(threads(jobs));
                prop_assert_eq!((count.solutions, count.stopped_by), (expected.len() as u64, None));
                let stats = counter.stats();
                prop_assert_eq!(
                    (stats.decisions, stats.failures, stats.backtracks, stats.solutions),
                    (
                        sequential_stats.decisions,
                        sequential_stats.failures,
                        sequential_stats.backtracks,
                        sequential_stats.solutions,
                    ),
                    "jobs {} at {:?}", jobs, level
                );
                let (found, stopped_by) = listed(&mut solver(), jobs);
                prop_assert_eq!(stopped_by, None);
                prop_assert_eq!(&found, &sequential, "jobs {} at {:?}", jobs, level);
                for max in 1..=3 {
                    let count = solver().count_up_to_parallel(max, threads(jobs));
                    let mut reference = solver();
                    prop_assert_eq!(count, reference.count_up_to(max), "max {}", max);
                }
            }
        }
    }

    #[test]
    fn a_limited_parallel_search_never_reports_an_inexact_count_as_exact(
        spec in models(),
        nodes in 0u64..12,
        jobs in 1usize..=3,
    ) {
        let (model, _) = spec.build();
        let expected = brute_force(&model);
        let mut solver = model.solver().with_decision_limit(nodes);
        let count = solver.count_parallel(threads(jobs));
        if count.is_exact() {
            prop_assert_eq!(count.solutions, expected.len() as u64);
        } else {
            prop_assert_eq!(count.stopped_by, Some(Limit::Decisions));
            prop_assert!(count.solutions <= expected.len() as u64);
        }
        // A listing cut short by a limit is the start of the sequential order.
        let (found, stopped_by) = listed(&mut model.solver().with_decision_limit(nodes), jobs);
        prop_assert!(expected.starts_with(&found), "{:?}", found);
        if stopped_by.is_none() {
            prop_assert_eq!(&found, &expected);
        }
    }
}

#[test]
fn restarts_prove_that_the_pigeons_do_not_fit() {
    // Seven pigeons, six holes: no solution, and a tree large enough for many restarts.
    let mut model = Model::new();
    let pigeons = model.new_vars(7, 1..=6).unwrap();
    for (i, &p) in pigeons.iter().enumerate() {
        for &q in &pigeons[i + 1..] {
            model.post(cspkit::NotEqual::new(p, q)).unwrap();
        }
    }
    for policy in [RestartPolicy::luby(2), RestartPolicy::geometric(2, 1.3)] {
        let mut solver = model
            .solver()
            .with_variable_order(SmallestDomainRandomTies::new(3))
            .with_value_order(RandomValue::new(3))
            .with_propagation(PropagationLevel::Forward)
            .with_restarts(policy);
        assert_eq!(solver.next_solution(), Outcome::Exhausted);
        assert!(solver.stats().restarts > 5, "{:?}", solver.stats());
        // Asking again: still nothing.
        assert_eq!(solver.next_solution(), Outcome::Exhausted);
    }
}

#[test]
fn a_time_limit_or_a_cancellation_stops_a_restart_search_cleanly() {
    let mut model = Model::new();
    let pigeons = model.new_vars(12, 1..=11).unwrap();
    model.post(AllDifferent::new(&pigeons)).unwrap();
    let flag = Arc::new(AtomicBool::new(true));
    let mut solver = model
        .solver()
        .with_propagation(PropagationLevel::None)
        .with_value_order(RandomValue::new(1))
        .with_restarts(RestartPolicy::luby(1))
        .with_cancel_flag(Arc::clone(&flag));
    assert_eq!(
        solver.next_solution(),
        Outcome::LimitReached(Limit::Cancelled)
    );
    let mut solver = model
        .solver()
        .with_propagation(PropagationLevel::None)
        .with_value_order(RandomValue::new(1))
        .with_restarts(RestartPolicy::luby(1))
        .with_time_limit(std::time::Duration::from_millis(20));
    assert_eq!(solver.next_solution(), Outcome::LimitReached(Limit::Time));
    assert!(solver.stats().restarts > 0);
}

#[test]
#[allow(
    deprecated,
    reason = "checks that the deprecated `EventRecorder` still works"
)]
fn runs_differ_and_the_observer_sees_each_of_them_from_the_root() {
    let queens = Queens::new(30).unwrap();
    let mut recorder = EventRecorder::default();
    let mut solver = queens
        .model()
        .solver()
        .with_variable_order(SmallestDomainRandomTies::new(9))
        .with_value_order(RandomValue::new(9))
        .with_propagation(PropagationLevel::Forward)
        .with_restarts(RestartPolicy::luby(1))
        .with_observer(&mut recorder);
    assert!(solver.next_solution().is_solved());
    let stats = solver.stats();
    drop(solver);
    assert!(stats.restarts > 2, "{stats:?}");
    // The first decision of each run is at depth 1, and runs start differently.
    let firsts: Vec<(VarId, i32)> = recorder
        .events()
        .iter()
        .filter_map(|event| match *event {
            SearchEvent::Decision {
                var,
                value,
                depth: 1,
            } => Some((var, value)),
            _ => None,
        })
        .collect();
    assert!(firsts.len() as u64 > stats.restarts);
    let mut distinct = firsts.clone();
    distinct.sort_unstable_by_key(|&(var, value)| (var.index(), value));
    distinct.dedup();
    assert!(distinct.len() > 1, "{firsts:?}");
    let decisions = recorder
        .events()
        .iter()
        .filter(|e| matches!(e, SearchEvent::Decision { .. }))
        .count() as u64;
    assert_eq!(decisions, stats.decisions);
}

/// The number of placements of n queens, n = 1..=10 (OEIS A000170).
const QUEENS_COUNTS: [u64; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

#[test]
fn parallel_queens_counts_and_listings_do_not_depend_on_the_number_of_threads() {
    for n in 6..=10 {
        let queens = Queens::new(n).unwrap();
        let solver = || {
            queens
                .model()
                .solver()
                .with_propagation(Queens::DEFAULT_PROPAGATION)
        };
        let (sequential, _) = collect_solutions(&mut solver());
        assert_eq!(sequential.len() as u64, QUEENS_COUNTS[n - 1]);
        for jobs in 1..=4 {
            let count = solver().count_parallel(threads(jobs));
            assert_eq!(
                (count.solutions, count.stopped_by),
                (QUEENS_COUNTS[n - 1], None),
                "{n} queens, {jobs} threads"
            );
            let (found, stopped_by) = listed(&mut solver(), jobs);
            assert_eq!(stopped_by, None);
            assert_eq!(found, sequential, "{n} queens, {jobs} threads");
            // With smallest-domain-first and the middle out: another order, the same agreement.
            let mrv = || {
                solver()
                    .with_variable_order(SmallestDomain)
                    .with_value_order(MiddleOut)
            };
            let (sequential, _) = collect_solutions(&mut mrv());
            let (found, _) = listed(&mut mrv(), jobs);
            assert_eq!(found, sequential, "{n} queens, {jobs} threads, mrv");
        }
    }
}

#[test]
fn a_parallel_search_covers_the_whole_problem_under_the_fixes_of_restart_with() {
    let queens = Queens::new(8).unwrap();
    let rows = queens.rows();
    let mut solver = queens
        .model()
        .solver()
        .with_propagation(PropagationLevel::Forward);
    // Half the solutions are already reported: the sequential count is of the rest only.
    for _ in 0..46 {
        assert!(solver.next_solution().is_solved());
    }
    assert_eq!(solver.count_parallel(threads(2)).solutions, 92);
    assert_eq!(solver.count().solutions, 46);
    solver.restart_with([(rows[0], 1)]).unwrap();
    assert_eq!(solver.count_parallel(threads(3)).solutions, 4);
    let (found, _) = listed(&mut solver, 3);
    assert!(found.iter().all(|s| s[0] == 1) && found.len() == 4);
}

#[test]
fn a_cancelled_parallel_search_says_so() {
    let queens = Queens::new(12).unwrap();
    let flag = Arc::new(AtomicBool::new(true));
    let mut solver = queens.model().solver().with_cancel_flag(flag);
    let count = solver.count_parallel(threads(2));
    assert_eq!(
        (count.solutions, count.stopped_by),
        (0, Some(Limit::Cancelled))
    );
    let big = Queens::new(14).unwrap();
    let count = big
        .model()
        .solver()
        .with_time_limit(std::time::Duration::from_millis(5))
        .count_parallel(threads(2));
    assert_eq!(count.stopped_by, Some(Limit::Time));
    assert!(!count.is_exact());
}

#[test]
fn the_node_limit_of_a_parallel_search_counts_the_solvers_earlier_decisions_too() {
    let queens = Queens::new(8).unwrap();
    let mut solver = queens.model().solver().with_decision_limit(50);
    assert_eq!(solver.count().stopped_by, Some(Limit::Decisions));
    let count = solver.count_parallel(threads(2));
    assert_eq!(count.stopped_by, Some(Limit::Decisions));
    let (found, stopped_by) = listed(&mut solver, 1);
    assert_eq!((found.len(), stopped_by), (0, Some(Limit::Decisions)));
    // A fresh solver with room for the whole tree counts everything.
    let nodes = {
        let mut solver = queens.model().solver();
        solver.count();
        solver.stats().decisions
    };
    let mut solver = queens.model().solver().with_decision_limit(nodes + 1);
    assert_eq!(solver.count_parallel(threads(3)).solutions, 92);
}

#[test]
fn a_visitor_that_stops_stops_the_threads() {
    let queens = Queens::new(10).unwrap();
    let mut solver = queens.model().solver();
    let mut seen = 0;
    let stopped_by = solver.for_each_solution_parallel(threads(3), |_| {
        seen += 1;
        if seen == 5 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!((seen, stopped_by), (5, None));
}

#[test]
fn a_split_that_reaches_its_cap_at_the_first_level_keeps_the_rest_of_the_tree_as_one_subtree() {
    // 10 000 values for x, each the root of a subtree (z is still free once x = y): more
    // subtrees than a split keeps, so the last one recorded is the rest of the tree.
    let mut model = Model::new();
    let x = model.new_var(0..10_000).unwrap();
    let y = model.new_var(0..10_000).unwrap();
    let z = model.new_var(0..=1).unwrap();
    model
        .post(cspkit::Relation::new(x, Comparison::Eq, y))
        .unwrap();
    let _ = z;
    let solver = || model.solver().with_propagation(PropagationLevel::Forward);
    let count = solver().count_parallel(threads(2));
    assert_eq!((count.solutions, count.stopped_by), (20_000, None));
    let (sequential, _) = collect_solutions(&mut solver());
    let (found, stopped_by) = listed(&mut solver(), 3);
    assert_eq!(stopped_by, None);
    assert!(
        found == sequential,
        "the listing differs from the sequential order"
    );
}

#[test]
fn every_restart_run_keeps_the_fixes_of_restart_with() {
    let queens = Queens::new(20).unwrap();
    let rows = queens.rows();
    let mut solver = queens
        .model()
        .solver()
        .with_value_order(RandomValue::new(4))
        .with_propagation(PropagationLevel::Forward)
        .with_restarts(RestartPolicy::luby(1));
    for column in [1, 7, 20] {
        solver.restart_with([(rows[0], column)]).unwrap();
        let solution = solver.next_solution().solution().expect("a placement");
        assert!(solver.stats().restarts > 0, "{:?}", solver.stats());
        assert_eq!(solution[rows[0]], column);
        assert!(queens.model().is_solution(solution.values()));
    }
}

/// Branching on the variables of a puzzle, not on the auxiliary variables the modelling
/// shortcuts make, shrinks the search: the minimum bandwidth of a path numbering, where each
/// `|p[i] − p[j]|` is a variable of its own.
#[test]
fn decision_variables_keep_the_search_off_auxiliary_variables() {
    let mut model = Model::new();
    let n = 7;
    let p = model.new_vars(n, 1..=n as i32).unwrap();
    model.post(AllDifferent::new(&p)).unwrap();
    // A cycle and two chords, each edge's stretch at most 3.
    let edges = [
        (0, 1),
        (1, 2),
        (2, 3),
        (3, 4),
        (4, 5),
        (5, 6),
        (6, 0),
        (0, 3),
        (2, 5),
    ];
    let mut stretches = Vec::new();
    for (i, j) in edges {
        let gap = model.var_for(p[i] - p[j]).unwrap();
        let stretch = model.abs(gap).unwrap();
        model.post(LinearExpr::from(stretch).le(3)).unwrap();
        stretches.push(stretch);
    }
    let mut everything = model.solver().with_variable_order(SmallestDomain);
    let all = everything.count().solutions;
    let mut positions = model
        .solver()
        .with_variable_order(SmallestDomain)
        .with_decision_variables(&p)
        .unwrap();
    assert_eq!(positions.count().solutions, all);
    assert!(all > 0);
    assert!(
        positions.stats().decisions < everything.stats().decisions,
        "{} decisions on the positions, {} on every variable",
        positions.stats().decisions,
        everything.stats().decisions
    );
    // A variable of another model is an error, not a panic; no variables means all of them.
    let other = Model::new().new_var(0..=1).unwrap();
    assert!(model.solver().with_decision_variables(&[other]).is_err());
    let mut default = model.solver().with_decision_variables(&[]).unwrap();
    assert_eq!(default.count().solutions, all);
}

/// A parallel count stops at its maximum even when every solution comes at the first
/// decision, above any split (each value of `x` fixes `y`): the split keeps no more than a
/// bounded number of solutions, and the count never exceeds what was asked.
#[test]
fn a_parallel_count_never_exceeds_its_maximum_on_shallow_solutions() {
    let mut model = Model::new();
    let x = model.new_var(i32::MIN..=i32::MAX).unwrap();
    let y = model.new_var(i32::MIN..=i32::MAX).unwrap();
    model.post(cspkit::NotEqual::new(x, y)).unwrap();
    model.post((LinearExpr::from(x) + y).eq(-1)).unwrap();
    let two = NonZeroUsize::new(2).unwrap();
    for max in [1, 3, 2000] {
        let mut solver = model
            .solver()
            .with_time_limit(std::time::Duration::from_secs(60));
        let count = solver.count_up_to_parallel(max, two);
        assert_eq!(count.solutions, max);
        assert_eq!(count.stopped_by, Some(Limit::Solutions));
        // Bounded work: not a pass over four billion values of x.
        assert!(solver.stats().decisions < 100 * max + 10_000, "{max}");
    }
}

/// A parallel listing hands over each solution of the subtree whose turn it is as soon as it
/// is found: a caller that stops after three stops the search at once, not after the first
/// subtree (all 16-Queens placements with the first queen in the corner) is finished.
#[test]
fn a_parallel_listing_that_stops_early_stops_the_search_early() {
    let queens = Queens::new(16).unwrap();
    for threads in [2, 3] {
        let mut solver = queens.model().solver();
        let mut found = Vec::new();
        let stopped_by =
            solver.for_each_solution_parallel(NonZeroUsize::new(threads).unwrap(), |s| {
                found.push(s.values().to_vec());
                if found.len() == 3 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
        assert_eq!(stopped_by, None);
        let first: Vec<Vec<i32>> = queens
            .model()
            .solver()
            .solutions()
            .take(3)
            .map(|s| s.values().to_vec())
            .collect();
        assert_eq!(found, first);
        // The corner's subtree alone takes millions of decisions.
        assert!(
            solver.stats().decisions < 200_000,
            "{} decisions",
            solver.stats().decisions
        );
    }
}

/// The least-constraining-value order spends a bounded amount of work per decision even over
/// the whole 32-bit range (counting a neighbour's values costs their number), so a time limit
/// stops it: a decision used to count four billion values per value tried.
#[test]
fn least_constraining_values_stay_within_a_time_limit_on_the_widest_domains() {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut model = Model::new();
        let x = model.new_var(i32::MIN..=i32::MAX).unwrap();
        let y = model.new_var(i32::MIN..=i32::MAX).unwrap();
        model.post(cspkit::NotEqual::new(x, y)).unwrap();
        model.post((LinearExpr::from(x) + y).eq(-1)).unwrap();
        let mut solver = model
            .solver()
            .with_value_order(cspkit::LeastConstraining::new())
            .with_time_limit(std::time::Duration::from_millis(500));
        let count = solver.count();
        let _ = sender.send(count.stopped_by);
    });
    let stopped_by = receiver
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("a 0.5 s time limit ends the search well within a minute");
    assert_eq!(stopped_by, Some(Limit::Time));
}

/// A variable order that breaks its contract is stopped with a message naming the fault, not
/// left to loop (a fixed variable branched on again and again) or to index out of bounds (a
/// variable of a larger model).
#[test]
fn a_variable_order_that_breaks_its_contract_is_named() {
    let message = |payload: Box<dyn std::any::Any + Send>| -> String {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default()
    };
    let mut model = Model::new();
    let x = model.new_named_var("x", 1..=1).unwrap();
    let ys = model.new_named_vars("y", 2, 1..=3).unwrap();
    model.post(AllDifferent::new(&ys)).unwrap();
    let mut bigger = Model::new();
    let foreign = bigger.new_vars(50, 0..=1).unwrap()[40];
    type Order = Box<dyn Fn(&SearchView<'_>) -> Option<VarId> + Send + Sync>;
    let cases: Vec<(Order, &str)> = vec![
        (
            Box::new(move |_: &SearchView<'_>| Some(x)),
            "x, which is already fixed",
        ),
        (
            Box::new(move |_: &SearchView<'_>| Some(foreign)),
            "which is not a variable of the model being solved",
        ),
    ];
    for (order, expected) in cases {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            model.solver().with_variable_order(order).count()
        }));
        let text = message(result.expect_err("the search stops"));
        assert!(text.contains(expected), "{text}");
    }
}

/// Counting only for the statistics is an ordinary statement: with `unused_must_use` denied,
/// this test would not compile if `Count` asked to be used.
#[test]
#[deny(unused_must_use)]
fn a_count_run_for_its_statistics_needs_no_binding() {
    let queens = Queens::new(6).unwrap();
    let mut solver = queens.model().solver();
    solver.count();
    assert_eq!(solver.stats().solutions, 4);
    let mut limited = queens.model().solver().with_decision_limit(3);
    limited.count_up_to(10);
    assert!(limited.stats().decisions <= 3);
}

/// The search for the next variable starts after the variables already fixed on the path, so a
/// million variables are searched in input order in linear time (it was quadratic: some 10¹¹
/// domain reads here, far past the deadline); with d-way branching and textbook mode too.
#[test]
#[allow(
    deprecated,
    reason = "checks that the deprecated `with_textbook_forward_checking` still works"
)]
fn input_order_costs_linear_time_on_a_million_variables() {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut model = Model::new();
        let xs = model.new_vars(1_000_000, 0..=9).unwrap();
        model.post(AllDifferent::new(&xs[..5])).unwrap();
        let first = model.solver().next_solution().solution().unwrap();
        let textbook = model
            .solver()
            .with_propagation(PropagationLevel::None)
            .with_textbook_forward_checking(true)
            .with_branching(cspkit::Branching::DWay)
            .next_solution()
            .solution()
            .unwrap();
        let _ = sender.send((
            first.values()[..6].to_vec(),
            textbook.values()[..6].to_vec(),
        ));
    });
    let (first, textbook) = receiver
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("a million variables in input order within a minute");
    assert_eq!(first, [0, 1, 2, 3, 4, 0]);
    assert_eq!(textbook, first);
}

/// The decisions of a search of `model` with `order`, under a decision limit, with the given
/// branching and propagation, branching on `decision_vars` first if given.
#[allow(
    deprecated,
    reason = "checks that the deprecated `EventRecorder` still works"
)]
fn decisions_with(
    model: &Model,
    order: impl VariableOrder,
    branching: cspkit::Branching,
    level: PropagationLevel,
    decision_vars: Option<&[VarId]>,
) -> (Vec<(VarId, i32)>, u64, Option<Limit>) {
    let mut recorder = EventRecorder::default();
    let mut solver = model
        .solver()
        .with_variable_order(order)
        .with_branching(branching)
        .with_propagation(level)
        .with_decision_limit(2_000);
    if let Some(vars) = decision_vars {
        solver = solver.with_decision_variables(vars).unwrap();
    }
    let mut solver = solver.with_observer(&mut recorder);
    let count = solver.count_up_to(50);
    drop(solver);
    let decisions = recorder
        .events()
        .iter()
        .filter_map(|event| match *event {
            SearchEvent::Decision { var, value, .. } => Some((var, value)),
            _ => None,
        })
        .collect();
    (decisions, count.solutions, count.stopped_by)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// `SmallestDomain` answers from an index of domain sizes once its passes get long (over
    /// 128 variables here): its choices must stay those of a plain pass, through propagation,
    /// refutations, backtracking to the root and every branching.
    #[test]
    fn smallest_domain_with_its_index_chooses_as_a_plain_pass(
        sizes in proptest::collection::vec(2i32..8, 150..260),
        pairs in proptest::collection::vec((0usize..1000, 0usize..1000), 40..160),
        groups in proptest::collection::vec(proptest::collection::vec(0usize..1000, 2..6), 0..30),
        branching in 0usize..3,
        level in 0usize..3,
        restrict in proptest::bool::ANY,
    ) {
        let mut model = Model::new();
        let xs: Vec<VarId> = sizes.iter().map(|&s| model.new_var(1..=s).unwrap()).collect();
        let n = xs.len();
        for &(a, b) in &pairs {
            if a % n != b % n {
                model.post(cspkit::NotEqual::new(xs[a % n], xs[b % n])).unwrap();
            }
        }
        for group in &groups {
            let mut scope: Vec<VarId> = group.iter().map(|&i| xs[i % n]).collect();
            scope.sort_unstable_by_key(|v| v.index());
            scope.dedup();
            model.post(AllDifferent::new(&scope)).unwrap();
        }
        let branching = [
            cspkit::Branching::Assign,
            cspkit::Branching::Split,
            cspkit::Branching::DWay,
        ][branching];
        let level = [PropagationLevel::None, PropagationLevel::Forward, PropagationLevel::Full][level];
        let decision_vars: Vec<VarId> = xs.iter().copied().step_by(2).collect();
        let decision_vars = restrict.then_some(&decision_vars[..]);
        let plain_pass = |view: &SearchView<'_>| {
            view.unfixed().min_by_key(|&v| view.domain(v).size())
        };
        let with_index = decisions_with(&model, SmallestDomain, branching, level, decision_vars);
        let by_pass = decisions_with(&model, plain_pass, branching, level, decision_vars);
        // Either a search of some length, or a model refuted early (no solution).
        prop_assert!(with_index.0.len() > 10 || with_index.1 == 0);
        prop_assert_eq!(with_index, by_pass);
    }
}

#[test]
fn smallest_domain_costs_near_linear_time_on_a_million_variables() {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut model = Model::new();
        let xs = model.new_vars(1_000_000, 0..=9).unwrap();
        model.post(AllDifferent::new(&xs[..5])).unwrap();
        let first = model
            .solver()
            .with_variable_order(SmallestDomain)
            .next_solution()
            .solution()
            .unwrap();
        let _ = sender.send(first.values()[..6].to_vec());
    });
    // A pass over the variables per decision would take hours; the index takes about a second.
    let first = receiver
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("a million variables by smallest domain within a minute");
    assert_eq!(first, [0, 1, 2, 3, 4, 0]);
}

#[test]
fn smallest_domain_with_its_index_follows_refutations_at_the_root() {
    // x0 ∈ {1, 2} is branched on first. Four variables over 1..=3, all different, refute
    // x0 = 1, below which z is never touched; x0 = 2 then holds at the root and takes 2 from
    // z: changes the trail does not record. z is then the smallest domain.
    let mut model = Model::new();
    let x0 = model.new_var(1..=2).unwrap();
    let pigeons = model.new_vars(4, 1..=3).unwrap();
    model.new_vars(200, 1..=5).unwrap();
    let z = model.new_var(2..=4).unwrap();
    model.post(AllDifferent::new(&pigeons)).unwrap();
    model.post(cspkit::NotEqual::new(x0, z)).unwrap();
    let plain_pass = |view: &SearchView<'_>| view.unfixed().min_by_key(|&v| view.domain(v).size());
    for branching in [cspkit::Branching::Assign, cspkit::Branching::Split] {
        let level = PropagationLevel::Forward;
        let with_index = decisions_with(&model, SmallestDomain, branching, level, None);
        let by_pass = decisions_with(&model, plain_pass, branching, level, None);
        assert_eq!(with_index.1, 0);
        assert_eq!(with_index.0[0], (x0, 1));
        assert!(
            with_index
                .0
                .iter()
                .any(|&(var, value)| var == z && value == 3)
        );
        assert_eq!(with_index, by_pass);
    }
}

#[test]
fn split_branching_with_middle_values_bisects_the_full_range() {
    let mut model = Model::new();
    let x = model.new_var(i32::MIN..=i32::MAX).unwrap();
    let y = model.new_var(i32::MIN..=i32::MAX).unwrap();
    model.post(cspkit::NotEqual::new(x, y)).unwrap();
    let mut solver = model
        .solver()
        .with_branching(cspkit::Branching::Split)
        .with_value_order(MiddleOut)
        .with_decision_limit(1_000);
    let solution = solver.next_solution().solution().expect("a solution");
    assert_ne!(solution[x], solution[y]);
    // Each split halves a range of 2^32 values: 32 decisions fix a variable.
    assert!(solver.stats().max_depth <= 66, "{:?}", solver.stats());
    // The left branch first: the smallest values, as in input order.
    assert_eq!((solution[x], solution[y]), (i32::MIN, i32::MIN + 1));
}

#[test]
fn all_different_at_full_solves_ten_thousand_variables_within_its_limit() {
    // One AllDifferent over 10,000 variables with values 1..=10,000, input order, ascending
    // values: Régin's algorithm over every variable at every node took hours, and its root
    // propagation alone overran a 120 s limit; a Hall set can only lie among small domains,
    // and there are none until the end, so the search takes seconds.
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let n = 10_000;
        let mut model = Model::new();
        let xs = model.new_vars(n as usize, 1..=n).unwrap();
        model.post(AllDifferent::new(&xs)).unwrap();
        let mut solver = model
            .solver()
            .with_propagation(PropagationLevel::Full)
            .with_time_limit(std::time::Duration::from_secs(120));
        let identity = match solver.next_solution() {
            Outcome::Solved(solution) => solution.values().iter().copied().eq(1..=n),
            other => panic!("{other:?}"),
        };
        let _ = sender.send((identity, solver.stats().failures));
    });
    let (identity, failures) = receiver
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("AllDifferent at Full over 10,000 variables within its limit");
    assert!(
        identity,
        "the first solution in ascending order is the identity"
    );
    assert_eq!(failures, 0);
}

#[test]
fn domain_changes_count_every_rewrite_of_a_domain_word() {
    // Without propagation a decision `x = v` and a refutation `x ≠ v` each rewrite one domain
    // word, and nothing else does: the changes are the branches.
    let queens = Queens::new(6).unwrap();
    let mut solver = queens
        .model()
        .solver()
        .with_propagation(PropagationLevel::None);
    assert_eq!(solver.count().solutions, 4);
    let plain = solver.stats();
    assert!(plain.decisions > 0);
    assert_eq!(plain.domain_changes, plain.decisions + plain.refutations);
    // Forward checking removes values beside the branches: more changes on fewer branches.
    let mut solver = queens
        .model()
        .solver()
        .with_propagation(PropagationLevel::Forward);
    assert_eq!(solver.count().solutions, 4);
    let forward = solver.stats();
    assert!(forward.decisions < plain.decisions);
    assert!(forward.domain_changes > forward.decisions + forward.refutations);
    // A restart starts the statistics afresh: the same search counts the same again.
    solver.restart_with([]).unwrap();
    assert_eq!(solver.count().solutions, 4);
    assert_eq!(solver.stats().domain_changes, forward.domain_changes);
}
