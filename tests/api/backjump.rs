//! Conflict-directed backjumping ([`SearchConfig::with_backjumping`]) against an independent
//! reference written here from the textbook algorithms: AIMA 6.3.3's conflict-directed
//! backjumping, as Prosser (1993) gives it on plain backtracking (BT-CBJ: a value rejected by
//! an assigned neighbour adds that neighbour to the variable's conflict set) and on forward
//! checking (FC-CBJ: an assignment that removes values from a neighbour joins the neighbour's
//! conflict set; a wipe-out fails with it). Variables in declaration order, values ascending,
//! one child per value (d-way), AIMA's counting. The reference knows a binary CSP as the book
//! states it: domains, neighbours, a test of a pair of values; it calls nothing of cspkit's
//! search.
//!
//! Counted: values tried (cspkit's decisions) and AIMA's `nassigns`, for the first solution and
//! for every solution (a solution rests on every assignment: the search goes back
//! chronologically from it). Where no reference applies (cspkit's own propagation, binary
//! branching), backjumping must find the same solutions as the plain search.

use std::collections::BTreeSet;

use cspkit::models::colouring::Colouring;
use cspkit::models::queens::Queens;
use cspkit::{
    Branching, Counting, Model, NotEqual, Propagation, PropagationLevel, SearchConfig, VarId,
};

/// A binary CSP as AIMA writes it.
struct Csp {
    /// The neighbours of each variable, in the order its constraints were posted.
    neighbours: Vec<Vec<usize>>,
    domains: Vec<Vec<i32>>,
    allowed: fn(usize, i32, usize, i32) -> bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Inference {
    None,
    ForwardChecking,
}

/// What a call of the recursive search ends with.
enum Outcome {
    /// A solution (first-solution mode).
    Solved,
    /// A failure resting on these variables.
    Failed(BTreeSet<usize>),
}

struct Cbj<'a> {
    csp: &'a Csp,
    inference: Inference,
    /// Count every solution (else stop at the first).
    all: bool,
    domains: Vec<Vec<i32>>,
    assignment: Vec<Option<i32>>,
    /// FC-CBJ: for each variable, the assigned variables whose forward checking removed one of
    /// its values.
    pruned_by: Vec<BTreeSet<usize>>,
    tried: u64,
    nassigns: u64,
    solutions: u64,
    first: Option<Vec<i32>>,
}

impl Cbj<'_> {
    /// The first assigned neighbour of `var` (in the constraints' order) that `value` clashes
    /// with.
    fn clash(&self, var: usize, value: i32) -> Option<usize> {
        self.csp.neighbours[var].iter().copied().find(|&other| {
            self.assignment[other].is_some_and(|b| !(self.csp.allowed)(var, value, other, b))
        })
    }

    fn search(&mut self) -> Outcome {
        let Some(var) = self.assignment.iter().position(Option::is_none) else {
            self.solutions += 1;
            if self.first.is_none() {
                self.first = Some(self.assignment.iter().map(|v| v.unwrap()).collect());
            }
            if !self.all {
                return Outcome::Solved;
            }
            // Every assignment made this solution: back chronologically.
            return Outcome::Failed((0..self.assignment.len()).collect());
        };
        let mut conf: BTreeSet<usize> = BTreeSet::new();
        let mut values = self.domains[var].clone();
        values.sort_unstable();
        for value in values {
            self.tried += 1;
            if self.inference == Inference::None
                && let Some(culprit) = self.clash(var, value)
            {
                conf.insert(culprit);
                continue;
            }
            self.nassigns += 1;
            self.assignment[var] = Some(value);
            let mut removals: Vec<(usize, i32)> = Vec::new();
            let mut failure: Option<BTreeSet<usize>> = None;
            if self.inference == Inference::ForwardChecking {
                for &b in &self.csp.neighbours[var] {
                    if self.assignment[b].is_some() {
                        continue;
                    }
                    let before = self.domains[b].len();
                    let doomed: Vec<i32> = self.domains[b]
                        .iter()
                        .copied()
                        .filter(|&w| !(self.csp.allowed)(var, value, b, w))
                        .collect();
                    self.domains[b].retain(|w| !doomed.contains(w));
                    removals.extend(doomed.iter().map(|&w| (b, w)));
                    if self.domains[b].len() < before {
                        self.pruned_by[b].insert(var);
                    }
                    if self.domains[b].is_empty() {
                        failure = Some(self.pruned_by[b].clone());
                        break;
                    }
                }
            }
            let outcome = match failure {
                Some(conflict) => Outcome::Failed(conflict),
                None => self.search(),
            };
            // Undo the forward checking of `var = value`.
            for (b, w) in removals {
                self.domains[b].push(w);
            }
            // Every removal `var` made is undone: it no longer prunes anything.
            for set in &mut self.pruned_by {
                set.remove(&var);
            }
            self.assignment[var] = None;
            match outcome {
                Outcome::Solved => {
                    self.assignment[var] = Some(value);
                    return Outcome::Solved;
                }
                Outcome::Failed(mut conflict) => {
                    if !conflict.remove(&var) {
                        // `var` had nothing to do with it: jump over it.
                        return Outcome::Failed(conflict);
                    }
                    conf.extend(conflict);
                }
            }
        }
        conf.extend(self.pruned_by[var].iter().copied());
        Outcome::Failed(conf)
    }
}

/// The reference: values tried, nassigns, solutions, the first solution.
fn reference(csp: &Csp, inference: Inference, all: bool) -> ([u64; 3], Option<Vec<i32>>) {
    let n = csp.domains.len();
    let mut cbj = Cbj {
        csp,
        inference,
        all,
        domains: csp.domains.clone(),
        assignment: vec![None; n],
        pruned_by: vec![BTreeSet::new(); n],
        tried: 0,
        nassigns: 0,
        solutions: 0,
        first: None,
    };
    cbj.search();
    ([cbj.tried, cbj.nassigns, cbj.solutions], cbj.first)
}

fn propagation(inference: Inference) -> Propagation {
    match inference {
        Inference::None => Propagation::None,
        Inference::ForwardChecking => Propagation::TextbookForward,
    }
}

/// cspkit with backjumping, d-way, AIMA's counting: values tried, nassigns, solutions, and
/// the first solution.
fn cspkit(model: &Model, inference: Inference, all: bool) -> ([u64; 3], Option<Vec<i32>>) {
    let config = SearchConfig::new()
        .with_propagation(propagation(inference))
        .with_branching(Branching::DWay)
        .with_counting(Counting::Aima)
        .with_backjumping(true);
    let mut solver = model.solver_with(config).unwrap();
    assert!(solver.backjumps());
    let first = solver
        .next_solution()
        .solution()
        .map(|s| s.values().to_vec());
    if all {
        while solver.next_solution().solution().is_some() {}
    }
    let stats = solver.stats();
    ([stats.decisions, stats.nassigns, stats.solutions], first)
}

fn check(name: &str, model: &Model, csp: &Csp) {
    for inference in [Inference::None, Inference::ForwardChecking] {
        for all in [false, true] {
            let expected = reference(csp, inference, all);
            let got = cspkit(model, inference, all);
            assert_eq!(
                got,
                expected,
                "{name}, {inference:?}, {}: [values tried, nassigns, solutions], first solution",
                if all {
                    "every solution"
                } else {
                    "first solution"
                }
            );
        }
    }
}

fn neighbours(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut neighbours = vec![Vec::new(); n];
    for &(a, b) in edges {
        neighbours[a].push(b);
        neighbours[b].push(a);
    }
    neighbours
}

fn colouring_csp(n: usize, edges: &[(usize, usize)], colours: i32) -> Csp {
    Csp {
        neighbours: neighbours(n, edges),
        domains: vec![(1..=colours).collect(); n],
        allowed: |_, a, _, b| a != b,
    }
}

/// N-Queens as AIMA states it: a row per variable, its queen's column as the value.
fn queens_csp(n: usize) -> Csp {
    Csp {
        neighbours: (0..n)
            .map(|i| (0..n).filter(|&j| j != i).collect())
            .collect(),
        domains: vec![(1..=n as i32).collect(); n],
        allowed: |i, a, j, b| a != b && (a - b).unsigned_abs() as usize != i.abs_diff(j),
    }
}

/// N-Queens with a `≠` per pair of rows and kind of attack, rows in order.
fn pairwise_queens(n: usize) -> Model {
    let mut model = Model::new();
    let q: Vec<VarId> = (0..n)
        .map(|_| model.new_var(1..=n as i32).unwrap())
        .collect();
    for i in 0..n {
        for j in i + 1..n {
            let d = (j - i) as i32;
            model.post(NotEqual::new(q[i], q[j])).unwrap();
            model.post(NotEqual::with_offset(q[i], q[j], d)).unwrap();
            model.post(NotEqual::with_offset(q[i], q[j], -d)).unwrap();
        }
    }
    model
}

/// A random graph on `n` vertices, each edge present with probability `percent`/100, from a
/// seeded generator (SplitMix64).
fn random_graph(n: usize, percent: u64, seed: u64) -> Vec<(usize, usize)> {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if next() % 100 < percent {
                edges.push((a, b));
            }
        }
    }
    edges
}

#[test]
fn australia_counts_as_the_textbooks_backjumping() {
    let names = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];
    let colouring = Colouring::australia(3).unwrap();
    let edges = colouring.edges().to_vec();
    check(
        "Australia",
        colouring.model(),
        &colouring_csp(names.len(), &edges, 3),
    );
    // AIMA's example of a wasted backtrack: WA, NSW first, and T before the rest.
    let order = ["WA", "NSW", "T", "NT", "Q", "V", "SA"];
    let index = |name: &str| order.iter().position(|&n| n == name).unwrap();
    let renamed: Vec<(usize, usize)> = edges
        .iter()
        .map(|&(a, b)| (index(names[a]), index(names[b])))
        .collect();
    let colouring = Colouring::new(&order, &renamed, 3).unwrap();
    check(
        "Australia, AIMA's order",
        colouring.model(),
        &colouring_csp(order.len(), &renamed, 3),
    );
}

#[test]
fn n_queens_counts_as_the_textbooks_backjumping() {
    for n in 4..=8 {
        let csp = queens_csp(n);
        check(&format!("{n} queens, pairwise"), &pairwise_queens(n), &csp);
        // All-different constraints: forward checking only (plain backtracking takes
        // binary models).
        for all in [false, true] {
            let expected = reference(&csp, Inference::ForwardChecking, all);
            let model = Queens::new(n).unwrap();
            let got = cspkit(model.model(), Inference::ForwardChecking, all);
            assert_eq!(got, expected, "{n} queens, all-different, all: {all}");
        }
    }
}

#[test]
fn random_graphs_count_as_the_textbooks_backjumping() {
    // Backjumping must save work on these graphs, or the comparison proves little.
    let (mut jumping, mut chronological) = (0, 0);
    for seed in 0..12 {
        let n = 9 + (seed as usize % 4);
        let edges = random_graph(n, 30 + seed % 3 * 10, seed);
        let names: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
        for colours in [3, 4] {
            let colouring = Colouring::new(&names, &edges, colours).unwrap();
            let csp = colouring_csp(n, &edges, colours);
            check(
                &format!(
                    "graph {seed} ({n} vertices, {} edges), {colours} colours",
                    edges.len()
                ),
                colouring.model(),
                &csp,
            );
            jumping += cspkit(colouring.model(), Inference::None, true).0[0];
            let config = SearchConfig::new()
                .with_propagation(Propagation::None)
                .with_branching(Branching::DWay)
                .with_counting(Counting::Aima);
            let mut solver = colouring.model().solver_with(config).unwrap();
            solver.count();
            chronological += solver.stats().decisions;
        }
    }
    assert!(
        jumping < chronological,
        "{jumping} values tried, {chronological} without"
    );
}

#[test]
fn backjumping_jumps_where_the_textbook_says() {
    // Australia in AIMA's order (WA, NSW, T, NT, Q, V, SA) with T's decision between: once
    // SA fails, T had nothing to do with it.
    let order = ["WA", "NSW", "T", "NT", "Q", "V", "SA"];
    let colouring = Colouring::australia(3).unwrap();
    let names = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];
    let index = |name: &str| order.iter().position(|&n| n == name).unwrap();
    let edges: Vec<(usize, usize)> = colouring
        .edges()
        .iter()
        .map(|&(a, b)| (index(names[a]), index(names[b])))
        .collect();
    let model = Colouring::new(&order, &edges, 3).unwrap();
    let config = SearchConfig::new()
        .with_propagation(Propagation::None)
        .with_branching(Branching::DWay)
        .with_counting(Counting::Aima)
        .with_backjumping(true);
    let mut solver = model.model().solver_with(config).unwrap();
    let count = solver.count();
    assert_eq!(count.solutions, colouring.count());
    assert!(solver.stats().backjumps > 0, "{:?}", solver.stats());
    assert!(solver.stats().levels_skipped >= solver.stats().backjumps);
}

#[test]
fn backjumping_finds_the_same_solutions_under_every_propagation_and_branching() {
    let mut models: Vec<(String, Model)> = Vec::new();
    for n in 4..=8 {
        models.push((
            format!("{n} queens"),
            Queens::new(n).unwrap().model().clone(),
        ));
    }
    for seed in 0..6 {
        let n = 10;
        let edges = random_graph(n, 35, 100 + seed);
        let names: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
        let colouring = Colouring::new(&names, &edges, 3).unwrap();
        models.push((format!("graph {seed}"), colouring.model().clone()));
    }
    for (name, model) in &models {
        for propagation in [
            Propagation::from(PropagationLevel::None),
            Propagation::from(PropagationLevel::Forward),
            Propagation::from(PropagationLevel::Full),
            Propagation::TextbookForward,
        ] {
            for branching in [Branching::Assign, Branching::DWay, Branching::Split] {
                let config = SearchConfig::new()
                    .with_propagation(propagation)
                    .with_branching(branching);
                let solutions = |config: SearchConfig| -> Vec<Vec<i32>> {
                    model
                        .solver_with(config)
                        .unwrap()
                        .solutions()
                        .map(|s| s.values().to_vec())
                        .collect()
                };
                let plain = solutions(config.clone());
                let jumping = solutions(config.with_backjumping(true));
                assert_eq!(
                    jumping, plain,
                    "{name}, {propagation:?}, {branching:?}: the same solutions in the same order"
                );
            }
        }
    }
}
