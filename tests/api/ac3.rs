//! AC-3 (`Solver::with_ac3`) against an independent reference written here from the textbook
//! (AIMA's AC-3 and MAC) and the rules of each puzzle alone: explicit domains, a relation
//! `allowed(i, a, j, b)` between two variables, a FIFO queue of arcs.
//!
//! The reference follows the order the library documents: the edges in the order the puzzle's
//! rules name the pairs (for Sudoku: row 1, column 1, box 1, row 2, …, each pair of cells once,
//! where it first appears), the initial queue `(x, y), (y, x)` for each edge, the neighbours of
//! a variable in edge order; an arc already waiting is not queued again. At the root every arc
//! is queued; after the decision `x = v` (the first variable with more than one value, its
//! smallest value), the arcs `(k, x)` for the neighbours `k` of `x` with more than one value.
//! The test compares, revision by revision, the arc, the values removed and the queue after it.

use cspkit::models::colouring::Colouring;
use cspkit::models::queens::Queens;
use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::{
    AllDifferent, Comparison, ConstraintGraph, Event, Linear, Model, ModelError, NotEqual,
    PropagationLevel, SearchObserver, VarId,
};

/// One revision: the arc `(from, to)` by variable index, the values removed, the queue after.
type Revision = ((usize, usize), Vec<i32>, Vec<(usize, usize)>);

/// The reference AC-3 over `domains`, starting from `queue`; returns its revisions and
/// whether no domain was emptied.
fn reference_ac3(
    domains: &mut [Vec<i32>],
    neighbours: &[Vec<usize>],
    allowed: &dyn Fn(usize, i32, usize, i32) -> bool,
    mut queue: std::collections::VecDeque<(usize, usize)>,
) -> (Vec<Revision>, bool) {
    let mut revisions = Vec::new();
    while let Some((i, j)) = queue.pop_front() {
        // REVISE(Xi, Xj)
        let removed: Vec<i32> = domains[i]
            .iter()
            .copied()
            .filter(|&a| !domains[j].iter().any(|&b| allowed(i, a, j, b)))
            .collect();
        domains[i].retain(|a| !removed.contains(a));
        if !removed.is_empty() && !domains[i].is_empty() {
            for &k in &neighbours[i] {
                if k != j && !queue.contains(&(k, i)) {
                    queue.push_back((k, i));
                }
            }
        }
        revisions.push(((i, j), removed, queue.iter().copied().collect()));
        if domains[i].is_empty() {
            return (revisions, false);
        }
    }
    (revisions, true)
}

/// The reference MAC at the root and after the first decision: the revisions of each.
fn reference(
    mut domains: Vec<Vec<i32>>,
    edges: &[(usize, usize)],
    allowed: &dyn Fn(usize, i32, usize, i32) -> bool,
) -> (Vec<Revision>, Vec<Revision>) {
    let mut neighbours = vec![Vec::new(); domains.len()];
    for &(x, y) in edges {
        neighbours[x].push(y);
        neighbours[y].push(x);
    }
    let queue = edges.iter().flat_map(|&(x, y)| [(x, y), (y, x)]).collect();
    let (root, consistent) = reference_ac3(&mut domains, &neighbours, allowed, queue);
    assert!(
        consistent,
        "the test puzzles are arc consistent at the root"
    );
    let Some(x) = domains.iter().position(|d| d.len() > 1) else {
        return (root, Vec::new());
    };
    domains[x] = vec![domains[x][0]];
    let queue = neighbours[x]
        .iter()
        .filter(|&&k| domains[k].len() > 1)
        .map(|&k| (k, x))
        .collect();
    let (first, _) = reference_ac3(&mut domains, &neighbours, allowed, queue);
    (root, first)
}

/// The revisions cspkit reports, by node.
#[derive(Default)]
struct Revisions {
    events: Vec<(u64, Revision)>,
    queues: usize,
}

impl SearchObserver for Revisions {
    fn event(&mut self, event: &Event<'_>) {
        match *event {
            Event::Revise {
                node,
                from,
                to,
                removed,
                queue,
            } => {
                let queue = queue.iter().map(|(x, y)| (x.index(), y.index())).collect();
                self.events
                    .push((node, ((from.index(), to.index()), removed.to_vec(), queue)));
            }
            Event::ArcQueue { .. } => self.queues += 1,
            _ => {}
        }
    }
}

/// cspkit's revisions at the root (node 0) and at the first decision (node 1).
#[allow(
    deprecated,
    reason = "checks that the deprecated `with_ac3` still works"
)]
fn observed(model: &Model) -> (Vec<Revision>, Vec<Revision>) {
    let mut seen = Revisions::default();
    let mut solver = model
        .solver()
        .with_ac3(true)
        .expect("a binary model")
        .with_decision_limit(1)
        .with_observer(&mut seen);
    let _ = solver.next_solution();
    let revisions = solver.stats().revisions;
    drop(solver);
    assert_eq!(
        seen.events.len() as u64,
        revisions,
        "one event per revision"
    );
    let at = |node| {
        seen.events
            .iter()
            .filter(|(n, _)| *n == node)
            .map(|(_, r)| r.clone())
            .collect::<Vec<_>>()
    };
    (at(0), at(1))
}

fn assert_same(model: &Model, expected: (Vec<Revision>, Vec<Revision>)) {
    let got = observed(model);
    assert!(!expected.0.is_empty());
    for (what, got, expected) in [
        ("root", &got.0, &expected.0),
        ("decision", &got.1, &expected.1),
    ] {
        for (k, (g, e)) in got.iter().zip(expected).enumerate() {
            assert_eq!(g, e, "{what}: revision {k} differs");
        }
        assert_eq!(got.len(), expected.len(), "{what}: number of revisions");
    }
}

fn attack(i: usize, a: i32, j: usize, b: i32) -> bool {
    a == b || (a - b).unsigned_abs() as usize == i.abs_diff(j)
}

fn queens_reference(n: usize) -> (Vec<Revision>, Vec<Revision>) {
    let edges: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let domains = vec![(1..=n as i32).collect(); n];
    reference(domains, &edges, &|i, a, j, b| !attack(i, a, j, b))
}

#[test]
fn ac3_on_binary_queens_revises_as_the_reference() {
    for n in [4, 5, 8] {
        let queens = Queens::pairwise(n).unwrap();
        assert_same(queens.model(), queens_reference(n));
    }
}

#[test]
fn ac3_on_alldiff_queens_revises_as_the_reference() {
    // Three all-different constraints, read pairwise: the same graph as the binary model.
    for n in [4, 6, 8] {
        let queens = Queens::new(n).unwrap();
        assert_same(queens.model(), queens_reference(n));
    }
}

#[test]
fn ac3_on_australia_revises_as_the_reference() {
    // The map of AIMA's figure 6.1, borders in the order the model posts them.
    let borders = [
        ("WA", "NT"),
        ("WA", "SA"),
        ("NT", "SA"),
        ("NT", "Q"),
        ("SA", "Q"),
        ("SA", "NSW"),
        ("SA", "V"),
        ("Q", "NSW"),
        ("NSW", "V"),
    ];
    let names = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];
    let index = |name| names.iter().position(|&n| n == name).unwrap();
    let edges: Vec<(usize, usize)> = borders.iter().map(|&(a, b)| (index(a), index(b))).collect();
    let domains = vec![vec![1, 2, 3]; names.len()];
    let australia = Colouring::australia(3).unwrap();
    let expected = reference(domains, &edges, &|_, a, _, b| a != b);
    assert_eq!(
        expected.1[0],
        ((1, 0), vec![1], vec![(2, 0), (2, 1), (3, 1)]),
        "WA = 1: revise(NT, WA) removes 1"
    );
    assert_same(australia.model(), expected);
}

/// The cells of each house of a Sudoku of side `n` and boxes of side `b`, in the order the
/// rules are read: row 1, column 1, box 1, row 2, …
fn sudoku_reference(givens: &[u8], b: usize) -> (Vec<Revision>, Vec<Revision>) {
    let n = b * b;
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for g in 0..n {
        let row: Vec<usize> = (0..n).map(|k| g * n + k).collect();
        let col: Vec<usize> = (0..n).map(|k| k * n + g).collect();
        let boxed: Vec<usize> = (0..n)
            .map(|k| (g / b * b + k / b) * n + g % b * b + k % b)
            .collect();
        for house in [row, col, boxed] {
            for (p, &x) in house.iter().enumerate() {
                for &y in &house[p + 1..] {
                    if !edges.contains(&(x, y)) && !edges.contains(&(y, x)) {
                        edges.push((x, y));
                    }
                }
            }
        }
    }
    let domains = givens
        .iter()
        .map(|&g| {
            if g == 0 {
                (1..=n as i32).collect()
            } else {
                vec![i32::from(g)]
            }
        })
        .collect();
    reference(domains, &edges, &|_, a, _, b| a != b)
}

fn sudoku_model(givens: &[u8]) -> Sudoku {
    Sudoku::new(&Grid::from_cells(givens).unwrap()).unwrap()
}

#[test]
fn ac3_on_a_small_sudoku_revises_as_the_reference() {
    #[rustfmt::skip]
    let givens = [
        1, 0, 0, 0,
        0, 0, 2, 0,
        0, 3, 0, 0,
        0, 0, 0, 0,
    ];
    let expected = sudoku_reference(&givens, 2);
    assert!(!expected.1.is_empty(), "the grid needs a decision");
    assert_same(sudoku_model(&givens).model(), expected);
}

#[test]
fn ac3_on_a_hard_sudoku_revises_as_the_reference() {
    // A 17-given puzzle that AC-3 alone does not solve.
    let text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let givens: Vec<u8> = text
        .bytes()
        .map(|c| if c == b'.' { 0 } else { c - b'0' })
        .collect();
    let expected = sudoku_reference(&givens, 3);
    assert!(!expected.1.is_empty(), "the grid needs a decision");
    assert_same(sudoku_model(&givens).model(), expected);
}

#[test]
#[allow(
    deprecated,
    reason = "checks that the deprecated `with_ac3` still works"
)]
fn ac3_finds_the_same_solutions_as_full_propagation() {
    let (pairwise, alldiff) = (Queens::pairwise(6).unwrap(), Queens::new(7).unwrap());
    let australia = Colouring::australia(3).unwrap();
    for model in [pairwise.model(), alldiff.model(), australia.model()] {
        let with_ac3: Vec<_> = model.solver().with_ac3(true).unwrap().solutions().collect();
        let with_full: Vec<_> = model
            .solver()
            .with_propagation(PropagationLevel::Full)
            .solutions()
            .collect();
        assert_eq!(with_ac3, with_full);
        assert!(!with_ac3.is_empty());
    }
}

#[test]
#[allow(
    deprecated,
    reason = "checks that the deprecated `with_ac3` still works"
)]
fn ac3_counts_revisions_and_removals() {
    let queens = Queens::pairwise(4).unwrap();
    let mut solver = queens.model().solver().with_ac3(true).unwrap();
    assert!(solver.next_solution().is_solved());
    let stats = solver.stats();
    // Measured, and equal to the reference's count (12 at the root, then the first decision's
    // and the rest of the search).
    assert_eq!((stats.revisions, stats.removals), (35, 19));
    assert_eq!(stats.propagations, 0, "no propagator runs beside AC-3");
    let mut solver = queens.model().solver();
    assert!(solver.next_solution().is_solved());
    assert_eq!(solver.stats().revisions, 0, "only AC-3 revises arcs");
}

#[test]
#[allow(
    deprecated,
    reason = "checks that the deprecated `with_ac3` still works"
)]
fn ac3_refuses_a_constraint_on_three_variables() {
    let mut model = Model::new();
    let x = model.new_named_var("x", 0..=3).unwrap();
    let y = model.new_named_var("y", 0..=3).unwrap();
    let z = model.new_named_var("z", 0..=3).unwrap();
    model.post(NotEqual::new(x, y)).unwrap();
    model
        .post_named(
            "sum",
            Linear::new(&[(1, x), (1, y), (1, z)], Comparison::Eq, 4),
        )
        .unwrap();
    let error = model.solver().with_ac3(true).expect_err("refused");
    assert!(matches!(error, ModelError::NotForAc3 { .. }));
    let message = error.to_string();
    assert!(
        message.contains("constraint sum (over 3 variables)"),
        "{message}"
    );
    assert!(model.solver().with_ac3(false).is_ok());
}

#[test]
#[allow(
    deprecated,
    reason = "checks that the deprecated `with_ac3` still works"
)]
fn ac3_reads_all_different_as_pairwise_not_equal() {
    let mut model = Model::new();
    let vars: Vec<VarId> = (0..4).map(|_| model.new_var(1..=4).unwrap()).collect();
    model.post(AllDifferent::new(&vars)).unwrap();
    model.post(NotEqual::new(vars[3], vars[0])).unwrap();
    let graph = ConstraintGraph::new(&model).unwrap();
    // Six pairs; the ≠ joins the edge of (x0, x3) already made.
    assert_eq!(graph.edges().count(), 6);
    assert_eq!(graph.arcs().count(), 12);
    assert_eq!(
        graph.arcs().take(3).collect::<Vec<_>>(),
        [(vars[0], vars[1]), (vars[1], vars[0]), (vars[0], vars[2])]
    );
    assert_eq!(graph.constraints_between(vars[3], vars[0]).len(), 2);
    let mut solver = model.solver().with_ac3(true).unwrap();
    assert_eq!(solver.count().solutions, 24);
}
