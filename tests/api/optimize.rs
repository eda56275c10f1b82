//! Branch and bound ([`Solver::minimize`], [`Solver::maximize`]): optima against brute force
//! on random models, and the answers under limits (published optima: `tests/puzzles.rs`).

use cspkit::{
    AllDifferent, Branching, Comparison, DomWdeg, Limit, Linear, LinearExpr, Lns, Model, NotEqual,
    Optimum, Propagation, PropagationLevel, RandomValue, RestartPolicy, VarId,
};
use proptest::collection::{btree_set, vec};
use proptest::prelude::*;

/// Every full assignment of the model's domains that satisfies it.
fn all_solutions(model: &Model) -> Vec<Vec<i32>> {
    let domains: Vec<Vec<i32>> = model
        .variables()
        .map(|v| model.domain(v).iter().collect())
        .collect();
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn go(
        k: usize,
        domains: &[Vec<i32>],
        model: &Model,
        current: &mut Vec<i32>,
        out: &mut Vec<Vec<i32>>,
    ) {
        if k == domains.len() {
            if model.is_solution(current) {
                out.push(current.clone());
            }
            return;
        }
        for &v in &domains[k] {
            current.push(v);
            go(k + 1, domains, model, current, out);
            current.pop();
        }
    }
    go(0, &domains, model, &mut current, &mut out);
    out
}

#[derive(Debug, Clone)]
struct Spec {
    domains: Vec<Vec<i32>>,
    differ: Vec<(usize, usize, i32)>,
    sum: Vec<i64>,
    sum_limit: i64,
    objective: Vec<i64>,
    constant: i64,
}

fn specs() -> impl Strategy<Value = Spec> {
    specs_of(2..=5)
}

/// Random models of `n` variables.
fn specs_of(n: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Spec> {
    n.prop_flat_map(|n| {
        (
            vec(
                btree_set(-4i32..=4, 1..=5).prop_map(|s| s.into_iter().collect()),
                n,
            ),
            vec((0..n, 0..n, -2i32..=2), 0..4),
            vec(-3i64..=3, n),
            -8i64..=8,
            vec(-5i64..=5, n),
            -10i64..=10,
        )
            .prop_map(
                |(domains, differ, sum, sum_limit, objective, constant)| Spec {
                    domains,
                    differ: differ.into_iter().filter(|&(a, b, _)| a != b).collect(),
                    sum,
                    sum_limit,
                    objective,
                    constant,
                },
            )
    })
}

fn build(spec: &Spec) -> (Model, Vec<VarId>, LinearExpr) {
    let mut model = Model::new();
    let vars: Vec<VarId> = spec
        .domains
        .iter()
        .map(|d| model.new_var(d.clone()).unwrap())
        .collect();
    for &(a, b, offset) in &spec.differ {
        model
            .post(NotEqual::with_offset(vars[a], vars[b], offset))
            .unwrap();
    }
    let terms: Vec<(i64, VarId)> = spec.sum.iter().zip(&vars).map(|(&a, &v)| (a, v)).collect();
    if terms.iter().any(|&(a, _)| a != 0) {
        model
            .post(Linear::new(&terms, Comparison::Le, spec.sum_limit))
            .unwrap();
    }
    let objective: Vec<(i64, VarId)> = spec
        .objective
        .iter()
        .zip(&vars)
        .map(|(&a, &v)| (a, v))
        .collect();
    (model, vars, LinearExpr::new(&objective, spec.constant))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn branch_and_bound_finds_the_brute_force_optimum(spec in specs()) {
        let (model, vars, objective) = build(&spec);
        let value = |s: &[i32]| -> i64 {
            spec.constant + spec.objective.iter().zip(s).map(|(&a, &v)| a * i64::from(v)).sum::<i64>()
        };
        let all = all_solutions(&model);
        let (lowest, highest) = (all.iter().map(|s| value(s)).min(), all.iter().map(|s| value(s)).max());
        // Textbook forward checking too: it propagates from decisions only, and the
        // objective's bound must hold all the same.
        for level in [
            Propagation::None,
            Propagation::TextbookForward,
            Propagation::Forward,
            Propagation::Full,
        ] {
            for branching in [Branching::Assign, Branching::Split, Branching::DWay] {
                let mut seen = Vec::new();
                let optimum = model
                    .solver()
                    .with_propagation(level)
                    .with_branching(branching)
                    .minimize_with(objective.clone(), |_, v| seen.push(v))
                    .unwrap();
                prop_assert!(seen.windows(2).all(|w| w[1] < w[0]), "improving: {:?}", seen);
                match (lowest, &optimum) {
                    (None, Optimum::Infeasible) => {}
                    (Some(best), Optimum::Optimal { solution, value: v }) => {
                        prop_assert_eq!(*v, best, "{:?} {:?}", level, branching);
                        let values: Vec<i32> = vars.iter().map(|&x| solution[x]).collect();
                        prop_assert!(model.is_solution(&values));
                        prop_assert_eq!(value(&values), best);
                    }
                    other => prop_assert!(false, "{:?} {:?}: {:?}", level, branching, other),
                }
                let maximum = model
                    .solver()
                    .with_propagation(level)
                    .with_branching(branching)
                    .maximize(objective.clone())
                    .unwrap();
                prop_assert_eq!(maximum.best().map(|(_, v)| v), highest);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn branch_and_bound_by_restarts_finds_the_same_optimum(spec in specs(), seed in 0u64..1000) {
        let (model, vars, objective) = build(&spec);
        let plain = model.solver().minimize(objective.clone()).unwrap();
        // A budget of one failure: runs end early and often.
        let restarted = model
            .solver()
            .with_variable_order(DomWdeg::new())
            .with_value_order(RandomValue::new(seed))
            .with_restarts(RestartPolicy::luby(1))
            .minimize(objective.clone())
            .unwrap();
        prop_assert_eq!(plain.best().map(|(_, v)| v), restarted.best().map(|(_, v)| v));
        prop_assert_eq!(
            matches!(plain, Optimum::Infeasible),
            matches!(restarted, Optimum::Infeasible)
        );
        let proved = matches!(restarted, Optimum::Optimal { .. } | Optimum::Infeasible);
        prop_assert!(proved, "{:?}", restarted);
        if let Some((solution, _)) = restarted.best() {
            let values: Vec<i32> = vars.iter().map(|&x| solution[x]).collect();
            prop_assert!(model.is_solution(&values));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn neighbourhoods_beside_branch_and_bound_find_the_same_optimum(
        spec in specs_of(6..=9),
        seed in 0u64..1000,
        restarts in any::<bool>(),
    ) {
        let (model, vars, objective) = build(&spec);
        // Turns of one decision, neighbourhoods of one failure: the two searches alternate
        // from the first solution on.
        let lns = || Lns::new().with_seed(seed).with_warmup(0).with_turn(1).with_failures(1);
        for sign in [1, -1] {
            let objective = objective.clone() * sign;
            let plain = model.solver().minimize(objective.clone()).unwrap();
            let mut solver = model.solver().with_lns(lns());
            if restarts {
                solver = solver.with_restarts(RestartPolicy::luby(1));
            }
            let mut seen = Vec::new();
            let found = solver.minimize_with(objective.clone(), |_, v| seen.push(v)).unwrap();
            prop_assert!(seen.windows(2).all(|w| w[1] < w[0]), "improving: {:?}", seen);
            prop_assert!(found.is_proved(), "{:?}", found);
            prop_assert_eq!(plain.best().map(|(_, v)| v), found.best().map(|(_, v)| v));
            if let Some((solution, value)) = found.best() {
                let values: Vec<i32> = vars.iter().map(|&x| solution[x]).collect();
                prop_assert!(model.is_solution(&values));
                prop_assert_eq!(objective.value(solution), Some(value));
            }
        }
    }
}

#[test]
fn neighbourhoods_find_better_solutions_within_a_decision_limit() {
    // Σ (i + 1)·x[i] over the permutations of 1..=16, smallest: branch and bound in input
    // order starts from the worst permutation and must undo its first decisions to improve.
    let (model, x, objective) = weighted_permutation(16);
    let limited = |lns: Option<Lns>| {
        let mut solver = model.solver().with_decision_limit(20_000);
        if let Some(lns) = lns {
            solver = solver.with_lns(lns.with_variables(&x).with_seed(5));
        }
        let optimum = solver.minimize(objective.clone()).unwrap();
        assert!(matches!(optimum, Optimum::BestFound { .. }), "{optimum:?}");
        optimum.best().map(|(_, v)| v).unwrap()
    };
    let alone = limited(None);
    let beside = limited(Some(Lns::new()));
    // The optimum: the largest values on the smallest weights.
    let optimum: i64 = (1..=16).map(|i| i * (17 - i)).sum();
    assert!(
        beside < alone,
        "branch and bound {alone}, with neighbourhoods {beside}"
    );
    assert!(beside >= optimum);
}

#[test]
fn restarts_keep_the_bound_from_run_to_run() {
    let (model, _, objective) = weighted_permutation(7);
    let mut solver = model
        .solver()
        .with_value_order(RandomValue::new(3))
        .with_restarts(RestartPolicy::luby(2));
    let optimum = solver.minimize(objective).unwrap();
    // 7·1 + 6·2 + … + 1·7: the largest values on the smallest weights.
    assert_eq!(optimum.best().map(|(_, v)| v), Some(84));
    assert!(matches!(optimum, Optimum::Optimal { .. }), "{optimum:?}");
    assert!(solver.stats().restarts > 0, "{:?}", solver.stats());
}

/// A permutation of `1..=n` and the weighted sum `Σ (i + 1)·x[i]` over it.
fn weighted_permutation(n: usize) -> (Model, Vec<VarId>, LinearExpr) {
    let mut model = Model::new();
    let x = model.new_vars(n, 1..=n as i32).unwrap();
    model.post(AllDifferent::new(&x)).unwrap();
    let weights: Vec<(i64, VarId)> = x
        .iter()
        .enumerate()
        .map(|(i, &v)| (i as i64 + 1, v))
        .collect();
    (model, x, LinearExpr::new(&weights, 0))
}

#[test]
fn limits_give_the_best_found_and_say_it_is_not_proved() {
    // Maximise the weighted sum Σ i·x[i]: many improvements, a large tree.
    let (model, x, objective) = weighted_permutation(8);
    let full = model.solver().maximize(objective.clone()).unwrap();
    assert_eq!(
        full.best().map(|(_, v)| v),
        Some((1..=8).map(|i| i * i).sum())
    );
    let limited = model
        .solver()
        .with_propagation(PropagationLevel::None)
        .with_decision_limit(100)
        .maximize(objective)
        .unwrap();
    match limited {
        Optimum::BestFound {
            value,
            bound,
            stopped_by,
            ..
        } => {
            assert_eq!(stopped_by, Limit::Decisions);
            assert!(value <= 204);
            // Every x at 8: Σ 8·i = 288, the declared domains' best.
            assert_eq!(bound, 288);
            assert_eq!(limited.gap(), Some((288 - value) as u64));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(full.gap(), Some(0));
    // Nothing found before the limit.
    let none = model
        .solver()
        .with_decision_limit(0)
        .minimize(x[0])
        .unwrap();
    assert_eq!(none, Optimum::Unknown(Limit::Decisions));
    assert!(!none.is_proved());
    // No solution at all.
    let mut empty = Model::new();
    let y = empty.new_vars(3, 1..=2).unwrap();
    empty.post(AllDifferent::new(&y)).unwrap();
    assert_eq!(empty.solver().minimize(y[0]).unwrap(), Optimum::Infeasible);
}

#[test]
fn a_wide_objective_is_bounded_without_enumerating_it() {
    let mut model = Model::new();
    let x = model.new_var(0..=1_000_000_000).unwrap();
    let y = model.new_var(0..=1_000_000_000).unwrap();
    model.post((LinearExpr::from(x) + y).ge(1_234_567)).unwrap();
    model
        .post(LinearExpr::from(x).le(LinearExpr::from(y) * 3))
        .unwrap();
    let mut solver = model.solver().with_branching(Branching::Split);
    let optimum = solver.minimize(LinearExpr::from(x) * 2 + y).unwrap();
    // y ≥ (x + y) / 4 ... the cheapest is x = 0, y = 1234567.
    assert_eq!(
        optimum.best().map(|(s, v)| (s[x], s[y], v)),
        Some((0, 1_234_567, 1_234_567))
    );
    assert!(optimum.is_proved());
    assert!(solver.stats().decisions < 200, "{:?}", solver.stats());
}

/// Records the objective values the search reports as improvements.
#[derive(Debug, Default)]
struct Improvements(Vec<i64>);

impl cspkit::SearchObserver for Improvements {
    fn event(&mut self, event: &cspkit::Event<'_>) {
        if let cspkit::Event::Improved { value, .. } = *event {
            self.0.push(value);
        }
    }
}

#[test]
fn each_improvement_is_reported_to_the_observer_and_the_callback() {
    let (model, _, objective) = weighted_permutation(6);
    let mut seen = Improvements::default();
    let mut called = Vec::new();
    let optimum = model
        .solver()
        .with_observer(&mut seen)
        .minimize_with(objective, |_, value| called.push(value))
        .unwrap();
    assert_eq!(seen.0, called);
    // The first solution, 1..=6 in order, is the worst: then better and better.
    assert!(
        called.len() > 1 && called.windows(2).all(|w| w[0] > w[1]),
        "{called:?}"
    );
    assert_eq!(optimum.best().map(|(_, v)| v), called.last().copied());
    assert_eq!(called.last(), Some(&(1..=6).map(|i| i * (7 - i)).sum()));
}

#[test]
fn branch_and_bound_ignores_a_projection_and_finds_the_true_optimum() {
    // Projected on x, fixed at the root: the first solution, y = 1, would end a projected
    // search at once; branch and bound must still climb to y = 3.
    let mut model = Model::new();
    let x = model.new_var(1..=1).unwrap();
    let y = model.new_var(1..=3).unwrap();
    let mut solver = model.solver().with_projection(&[x]).unwrap();
    let optimum = solver.maximize(y).unwrap();
    assert!(
        matches!(optimum, Optimum::Optimal { value: 3, .. }),
        "{optimum:?}"
    );
    // The projection holds again afterwards: one solution on x.
    solver.restart_with([]).unwrap();
    assert_eq!(solver.count().solutions, 1);
}
