//! Learning from failures ([`SearchConfig::with_learning`]) on small random models: every
//! learned nogood is checked against all the model's solutions (found by the plain search and
//! checked by brute force), and a learning search must find the same solutions and the same
//! optimum as the plain one.

use std::collections::BTreeSet;

use cspkit::{
    AllDifferent, Branching, Comparison, Event, Linear, Literal, Model, NotEqual, Propagation,
    PropagationLevel, SearchConfig, SearchObserver, Table, VarId,
};

/// A small deterministic generator (xorshift), so a failing seed can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// `k` distinct variables of `vars`.
    fn pick(&mut self, vars: &[VarId], k: usize) -> Vec<VarId> {
        let mut chosen: Vec<VarId> = Vec::new();
        while chosen.len() < k.min(vars.len()) {
            let var = vars[self.below(vars.len() as u64) as usize];
            if !chosen.contains(&var) {
                chosen.push(var);
            }
        }
        chosen
    }
}

/// A random model of 4 to 7 variables over small domains, with all-different, not-equal,
/// linear and table constraints; its variables.
fn random_model(seed: u64) -> (Model, Vec<VarId>) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut model = Model::new();
    let n = 4 + rng.below(4) as usize;
    let vars: Vec<VarId> = (0..n)
        .map(|_| {
            let low = rng.below(3) as i32 - 1;
            let high = low + 2 + rng.below(3) as i32;
            model.new_var(low..=high).unwrap()
        })
        .collect();
    let constraints = 2 + rng.below(5);
    for _ in 0..constraints {
        match rng.below(4) {
            0 => {
                let k = 2 + rng.below(3) as usize;
                model.post(AllDifferent::new(&rng.pick(&vars, k))).unwrap();
            }
            1 => {
                let pair = rng.pick(&vars, 2);
                model.post(NotEqual::new(pair[0], pair[1])).unwrap();
            }
            2 => {
                let k = 2 + rng.below(3) as usize;
                let terms: Vec<(i64, VarId)> = rng
                    .pick(&vars, k)
                    .into_iter()
                    .map(|v| ([-2, -1, 1, 2][rng.below(4) as usize], v))
                    .collect();
                let comparison = [
                    Comparison::Le,
                    Comparison::Ge,
                    Comparison::Eq,
                    Comparison::Ne,
                ][rng.below(4) as usize];
                let constant = rng.below(7) as i64 - 3;
                model
                    .post(Linear::new(&terms, comparison, constant))
                    .unwrap();
            }
            _ => {
                let k = 2 + rng.below(2) as usize;
                let scope = rng.pick(&vars, k);
                let tuples: Vec<Vec<i32>> = (0..3 + rng.below(10))
                    .map(|_| scope.iter().map(|_| rng.below(5) as i32 - 1).collect())
                    .collect();
                model.post(Table::new(&scope, tuples).unwrap()).unwrap();
            }
        }
    }
    (model, vars)
}

/// Every solution of `model`, by brute force (trusting only the constraints' `check`).
fn brute_force(model: &Model) -> BTreeSet<Vec<i32>> {
    crate::common::brute_force(model).into_iter().collect()
}

/// Whether every literal of `nogood` holds in the assignment `values`.
fn excludes(nogood: &[Literal], values: &[i32]) -> bool {
    nogood.iter().all(|&literal| {
        let value = values[literal.var().index()];
        match literal {
            Literal::Eq(_, v) => value == v,
            Literal::Ne(_, v) => value != v,
            Literal::Ge(_, v) => value >= v,
            Literal::Le(_, v) => value <= v,
        }
    })
}

/// The nogoods a search learned, each with the number of solutions (or the best objective
/// value) found before it.
#[derive(Default)]
struct Learned {
    solutions: usize,
    best: Option<i64>,
    nogoods: Vec<(usize, Option<i64>, Vec<Literal>)>,
}

impl SearchObserver for Learned {
    fn on_event(&mut self, event: &Event<'_>) {
        match *event {
            Event::Solution { .. } => self.solutions += 1,
            Event::Improved { value, .. } => self.best = Some(value),
            Event::Learned { nogood, .. } => {
                self.nogoods
                    .push((self.solutions, self.best, nogood.to_vec()));
            }
            _ => {}
        }
    }
}

fn configs() -> Vec<SearchConfig> {
    let mut configs = Vec::new();
    for level in [PropagationLevel::Forward, PropagationLevel::Full] {
        for branching in [Branching::Assign, Branching::Split] {
            configs.push(
                SearchConfig::new()
                    .with_propagation(Propagation::from(level))
                    .with_branching(branching),
            );
        }
    }
    configs
}

#[test]
fn no_learned_nogood_excludes_a_solution_still_to_be_found() {
    let mut learned_any = 0;
    for seed in 0..300 {
        let (model, _) = random_model(seed);
        let all = brute_force(&model);
        for config in configs() {
            let mut solver = model
                .solver_with(config.clone().with_learning(true))
                .unwrap()
                .with_observer(Learned::default());
            assert!(solver.learns(), "seed {seed}: {config:?} learns");
            let found: Vec<Vec<i32>> = solver.solutions().map(|s| s.values().to_vec()).collect();
            let distinct: BTreeSet<Vec<i32>> = found.iter().cloned().collect();
            assert_eq!(
                distinct.len(),
                found.len(),
                "seed {seed}: a solution found twice"
            );
            assert_eq!(distinct, all, "seed {seed}, {config:?}: the same solutions");
            let stats = solver.stats();
            let observer = solver.observer();
            assert_eq!(stats.learned as usize, observer.nogoods.len());
            learned_any += observer.nogoods.len();
            for (before, _, nogood) in &observer.nogoods {
                for solution in &found[*before..] {
                    assert!(
                        !excludes(nogood, solution),
                        "seed {seed}, {config:?}: the nogood {nogood:?} excludes the solution \
                         {solution:?}, found after it was learned"
                    );
                }
            }
        }
    }
    assert!(learned_any > 100, "the random models make learning work");
}

#[test]
fn learning_finds_the_plain_searchs_optimum_and_excludes_no_better_solution() {
    let mut learned_any = 0;
    for seed in 1000..1200 {
        let (model, vars) = random_model(seed);
        let all = brute_force(&model);
        let weights: Vec<(i64, VarId)> = vars
            .iter()
            .enumerate()
            .map(|(i, &v)| ((i as i64 % 5) - 2, v))
            .collect();
        let value_of = |values: &[i32]| -> i64 {
            weights
                .iter()
                .map(|&(a, v)| a * i64::from(values[v.index()]))
                .sum()
        };
        let objective = weights
            .iter()
            .filter(|&&(a, _)| a != 0)
            .map(|&(a, v)| cspkit::LinearExpr::from(v) * a as i32)
            .reduce(|sum, term| sum + term)
            .expect("the first weight is -2");
        let best = all.iter().map(|s| value_of(s)).min();
        for config in configs() {
            let mut plain = model.solver_with(config.clone()).unwrap();
            let plain_value = plain
                .minimize(objective.clone())
                .unwrap()
                .best()
                .map(|(_, v)| v);
            assert_eq!(plain_value, best, "seed {seed}: the plain search's optimum");
            let mut solver = model
                .solver_with(config.clone().with_learning(true))
                .unwrap()
                .with_observer(Learned::default());
            let value = solver
                .minimize(objective.clone())
                .unwrap()
                .best()
                .map(|(_, v)| v);
            assert_eq!(value, best, "seed {seed}, {config:?}: the same optimum");
            learned_any += solver.observer().nogoods.len();
            for (_, bound, nogood) in &solver.observer().nogoods {
                for solution in &all {
                    let better = bound.is_none_or(|b| value_of(solution) < b);
                    assert!(
                        !(better && excludes(nogood, solution)),
                        "seed {seed}, {config:?}: the nogood {nogood:?} excludes {solution:?}, \
                         better than {bound:?}"
                    );
                }
            }
        }
    }
    assert!(learned_any > 50, "the random models make learning work");
}

#[test]
fn learning_counts_the_queens_and_learns_fewer_nodes_than_it_visits() {
    use cspkit::models::queens::Queens;
    for n in 4..=8 {
        let queens = Queens::new(n).unwrap();
        let plain = queens.model().solver().count().solutions;
        let mut solver = queens.model().solver().with_learning(true);
        assert_eq!(solver.count().solutions, plain, "{n} queens");
        let stats = solver.stats();
        assert!(stats.learned <= stats.conflicts);
        assert!(stats.learned_literals >= stats.learned);
        if stats.learned > 0 {
            assert!(stats.mean_backjump_distance() >= 1.0);
        }
    }
}

#[test]
fn learning_is_off_where_it_cannot_run() {
    let (model, _) = random_model(7);
    let dway = SearchConfig::new()
        .with_branching(Branching::DWay)
        .with_learning(true);
    assert!(!model.solver_with(dway).unwrap().learns());
    let queens = cspkit::models::queens::Queens::new(5).unwrap();
    let ac3 = SearchConfig::new()
        .with_propagation(Propagation::Ac3)
        .with_learning(true);
    assert!(!queens.model().solver_with(ac3).unwrap().learns());
    assert!(!model.solver().learns());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// On models drawn from seeds the other tests do not use: the same solution count, first
    /// solution found or not, and the same optimum, with learning as without.
    #[test]
    fn learning_counts_and_optimises_as_the_plain_search(seed in 10_000u64..u64::MAX) {
        let (model, vars) = random_model(seed);
        for config in configs() {
            let plain = model.solver_with(config.clone()).unwrap().count().solutions;
            let mut learning = model.solver_with(config.clone().with_learning(true)).unwrap();
            proptest::prop_assert_eq!(learning.count().solutions, plain);
            let objective = cspkit::LinearExpr::from(vars[0]) * 2 - vars[vars.len() - 1];
            let best = |config: SearchConfig| {
                model
                    .solver_with(config)
                    .unwrap()
                    .maximize(objective.clone())
                    .unwrap()
                    .best()
                    .map(|(_, v)| v)
            };
            proptest::prop_assert_eq!(best(config.clone().with_learning(true)), best(config));
        }
    }
}
