//! AIMA's counting ([`Counting::Aima`]) against an independent reference written here from the
//! book's algorithms: BACKTRACKING-SEARCH (the first unassigned variable in declaration order,
//! values ascending) with no inference, FORWARD-CHECKING or MAC (AC-3 from the arcs `(Xk, x)`
//! of the unassigned neighbours `Xk` of the variable `x` just assigned), on AIMA's map of
//! Australia (7 regions, 3 colours) and on N-Queens from 4 to 8, for the first solution.
//!
//! The reference works on a binary CSP as the book states it: variables, domains, a list of
//! neighbours per variable and a test of a pair of values. It counts AIMA's `nassigns` (a value
//! assigned after it passed the consistency check against the assigned neighbours), the values
//! tried (every value of the current domain the loop takes), and the REVISE calls of AC-3
//! (one per arc taken off the queue). The queue is first in, first out, and an arc already
//! waiting is not added twice (the book's queue is a set). AC-3 also runs once over every arc
//! before the search, as cspkit's does; its revisions are counted apart.
//!
//! Where aima-python's code (`aima/csp.py`) differs from the book, and so from these counts,
//! `docs/levels.md` says how and by how much.

use cspkit::models::colouring::Colouring;
use cspkit::models::queens::Queens;
use cspkit::{Branching, Counting, Model, NotEqual, Propagation, SearchConfig, VarId};

/// A binary CSP as AIMA writes it.
struct Csp {
    /// The neighbours of each variable, in the order AC-3 queues their arcs.
    neighbours: Vec<Vec<usize>>,
    domains: Vec<Vec<i32>>,
    /// Whether `x = a` and `y = b` satisfy the constraints between `x` and `y`.
    allowed: fn(usize, i32, usize, i32) -> bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Inference {
    None,
    ForwardChecking,
    Mac,
}

/// What the reference counts.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Counts {
    /// Values the loop of BACKTRACK took, consistent or not.
    tried: u64,
    /// AIMA's `nassigns`: values that passed the consistency check and were assigned.
    nassigns: u64,
    /// REVISE calls of AC-3 during the search (MAC).
    revisions: u64,
    /// REVISE calls of the AC-3 over every arc before the search (MAC only).
    root_revisions: u64,
}

/// The search's state: current domains, the assignment, and the counts.
struct Search<'a> {
    csp: &'a Csp,
    inference: Inference,
    domains: Vec<Vec<i32>>,
    assignment: Vec<Option<i32>>,
    counts: Counts,
}

impl Search<'_> {
    /// The assigned neighbours of `var` that conflict with `var = value`.
    fn conflicts(&self, var: usize, value: i32) -> usize {
        self.csp.neighbours[var]
            .iter()
            .filter(|&&other| {
                self.assignment[other].is_some_and(|b| !(self.csp.allowed)(var, value, other, b))
            })
            .count()
    }

    /// Removes `value` from the domain of `var`, recording it to be put back.
    fn prune(&mut self, var: usize, value: i32, removals: &mut Vec<(usize, i32)>) {
        self.domains[var].retain(|&v| v != value);
        removals.push((var, value));
    }

    /// REVISE(xi, xj): removes the values of `xi` with no support in `xj`.
    fn revise(&mut self, xi: usize, xj: usize, removals: &mut Vec<(usize, i32)>) -> bool {
        let mut revised = false;
        for a in self.domains[xi].clone() {
            let supported = self.domains[xj]
                .iter()
                .any(|&b| (self.csp.allowed)(xi, a, xj, b));
            if !supported {
                self.prune(xi, a, removals);
                revised = true;
            }
        }
        revised
    }

    /// AC-3 from `queue` (first in, first out, no arc twice in it); counts its REVISE calls
    /// in `revisions`. False if a domain was emptied.
    fn ac3(
        &mut self,
        queue: Vec<(usize, usize)>,
        removals: &mut Vec<(usize, i32)>,
        revisions: &mut u64,
    ) -> bool {
        let mut queue: std::collections::VecDeque<(usize, usize)> = queue.into();
        while let Some((xi, xj)) = queue.pop_front() {
            *revisions += 1;
            if self.revise(xi, xj, removals) {
                if self.domains[xi].is_empty() {
                    return false;
                }
                for &xk in &self.csp.neighbours[xi] {
                    if xk != xj && !queue.contains(&(xk, xi)) {
                        queue.push_back((xk, xi));
                    }
                }
            }
        }
        true
    }

    /// The inference after `var = value`.
    fn infer(&mut self, var: usize, value: i32, removals: &mut Vec<(usize, i32)>) -> bool {
        match self.inference {
            Inference::None => true,
            Inference::ForwardChecking => {
                for &b in &self.csp.neighbours[var] {
                    if self.assignment[b].is_some() {
                        continue;
                    }
                    for w in self.domains[b].clone() {
                        if !(self.csp.allowed)(var, value, b, w) {
                            self.prune(b, w, removals);
                        }
                    }
                    if self.domains[b].is_empty() {
                        return false;
                    }
                }
                true
            }
            Inference::Mac => {
                let queue = self.csp.neighbours[var]
                    .iter()
                    .filter(|&&x| self.assignment[x].is_none())
                    .map(|&x| (x, var))
                    .collect();
                let mut revisions = 0;
                let consistent = self.ac3(queue, removals, &mut revisions);
                self.counts.revisions += revisions;
                consistent
            }
        }
    }

    /// BACKTRACK: true once every variable is assigned.
    fn backtrack(&mut self) -> bool {
        let Some(var) = self.assignment.iter().position(Option::is_none) else {
            return true;
        };
        let mut values = self.domains[var].clone();
        values.sort_unstable();
        for value in values {
            self.counts.tried += 1;
            if self.conflicts(var, value) > 0 {
                continue;
            }
            self.counts.nassigns += 1;
            self.assignment[var] = Some(value);
            // SUPPOSE: the domain of `var` is its value alone.
            let mut removals: Vec<(usize, i32)> = self.domains[var]
                .iter()
                .filter(|&&v| v != value)
                .map(|&v| (var, v))
                .collect();
            self.domains[var] = vec![value];
            if self.infer(var, value, &mut removals) && self.backtrack() {
                return true;
            }
            for (x, v) in removals {
                self.domains[x].push(v);
            }
        }
        self.assignment[var] = None;
        false
    }
}

/// BACKTRACKING-SEARCH on `csp` with `inference` (with MAC, after AC-3 over every arc): the
/// solution, if any, and the counts.
fn aima(csp: &Csp, inference: Inference) -> (Option<Vec<i32>>, Counts) {
    let mut search = Search {
        csp,
        inference,
        domains: csp.domains.clone(),
        assignment: vec![None; csp.domains.len()],
        counts: Counts::default(),
    };
    if inference == Inference::Mac {
        let every_arc = (0..csp.domains.len())
            .flat_map(|x| csp.neighbours[x].iter().map(move |&y| (x, y)))
            .collect();
        let mut root = 0;
        let consistent = search.ac3(every_arc, &mut Vec::new(), &mut root);
        search.counts.root_revisions = root;
        if !consistent {
            return (None, search.counts);
        }
    }
    let solved = search.backtrack();
    let solution = solved.then(|| search.assignment.iter().map(|v| v.unwrap()).collect());
    (solution, search.counts)
}

/// The neighbours of each of `n` variables, from a list of edges (each edge makes each end a
/// neighbour of the other, in the order the edges come).
fn neighbours(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut neighbours = vec![Vec::new(); n];
    for &(a, b) in edges {
        neighbours[a].push(b);
        neighbours[b].push(a);
    }
    neighbours
}

/// AIMA's Australia, in the book's words: "SA: WA NT Q NSW V; NT: WA Q; NSW: Q V; T:", the
/// regions in the order `names` gives them.
fn australia(names: &[&str]) -> (Vec<(usize, usize)>, Csp) {
    let borders = [
        ("SA", "WA"),
        ("SA", "NT"),
        ("SA", "Q"),
        ("SA", "NSW"),
        ("SA", "V"),
        ("NT", "WA"),
        ("NT", "Q"),
        ("NSW", "Q"),
        ("NSW", "V"),
    ];
    let index = |name: &str| names.iter().position(|&n| n == name).unwrap();
    let edges: Vec<(usize, usize)> = borders.iter().map(|&(a, b)| (index(a), index(b))).collect();
    let csp = Csp {
        neighbours: neighbours(names.len(), &edges),
        domains: vec![vec![1, 2, 3]; names.len()],
        allowed: |_, a, _, b| a != b,
    };
    (edges, csp)
}

/// N-Queens as AIMA states it: a variable per row holding its queen's column, every row a
/// neighbour of every other.
fn queens(n: usize) -> Csp {
    let neighbours = (0..n)
        .map(|i| (0..n).filter(|&j| j != i).collect())
        .collect();
    Csp {
        neighbours,
        domains: vec![(1..=n as i32).collect(); n],
        allowed: |i, a, j, b| a != b && (a - b).unsigned_abs() as usize != i.abs_diff(j),
    }
}

/// N-Queens with a `≠` per pair of rows and kind of attack.
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

/// The propagation of cspkit that is `inference`.
fn propagation(inference: Inference) -> Propagation {
    match inference {
        Inference::None => Propagation::None,
        Inference::ForwardChecking => Propagation::TextbookForward,
        Inference::Mac => Propagation::Ac3,
    }
}

/// cspkit's first solution and counts on `model` with `inference`, d-way branching, input
/// order, ascending values, AIMA's counting (the default for forward checking and AC-3 on
/// d-way branching, asked for here all the same): values tried, nassigns, revisions.
fn cspkit(model: &Model, inference: Inference) -> (Option<Vec<i32>>, [u64; 3]) {
    let config = SearchConfig::new()
        .with_propagation(propagation(inference))
        .with_branching(Branching::DWay);
    if inference != Inference::None {
        assert_eq!(config.counting(), Counting::Aima, "{inference:?}");
    }
    let mut solver = model
        .solver_with(config.with_counting(Counting::Aima))
        .unwrap();
    let solution = solver
        .next_solution()
        .solution()
        .map(|s| s.values().to_vec());
    let stats = solver.stats();
    (solution, [stats.decisions, stats.nassigns, stats.revisions])
}

/// Checks cspkit against the reference on one problem; returns the reference's counts.
fn check(name: &str, model: &Model, csp: &Csp, inference: Inference) -> Counts {
    let (expected_solution, expected) = aima(csp, inference);
    let (solution, counts) = cspkit(model, inference);
    assert_eq!(
        solution, expected_solution,
        "{name}, {inference:?}: solution"
    );
    assert_eq!(
        counts,
        [
            expected.tried,
            expected.nassigns,
            expected.revisions + expected.root_revisions
        ],
        "{name}, {inference:?}: values tried, nassigns, arc revisions"
    );
    expected
}

#[test]
fn australia_counts_as_aimas_backtracking_search() {
    // cspkit's declaration order (WA, NT, SA, Q, NSW, V, T), and aima-python's (its map
    // string's order, SA first), with Tasmania last.
    for names in [
        ["WA", "NT", "SA", "Q", "NSW", "V", "T"],
        ["SA", "WA", "NT", "Q", "NSW", "V", "T"],
    ] {
        let (edges, csp) = australia(&names);
        let colouring = Colouring::new(&names, &edges, 3).unwrap();
        for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
            check(&names.join(" "), colouring.model(), &csp, inference);
        }
    }
}

#[test]
fn n_queens_counts_as_aimas_backtracking_search() {
    for n in 4..=8 {
        let csp = queens(n);
        let library = Queens::new(n).unwrap();
        let pairwise = pairwise_queens(n);
        for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
            for (name, model) in [("all-different", library.model()), ("pairwise", &pairwise)] {
                check(&format!("{n} queens, {name}"), model, &csp, inference);
            }
        }
    }
}

#[test]
fn a_queen_placed_in_advance_is_not_checked_against_before_its_own_assignment() {
    // One row's domain holds one column from the start. AIMA checks a value against the
    // assigned rows only, so rows before it may take values that attack the placed queen; the
    // counts of plain backtracking differ from a check against fixed rows, which would reject
    // them at once.
    for n in 5..=7 {
        for row in [1, n - 1] {
            for column in 1..=n as i32 {
                let mut csp = queens(n);
                csp.domains[row] = vec![column];
                let mut model = Model::new();
                let q: Vec<VarId> = (0..n)
                    .map(|i| {
                        let domain = if i == row {
                            column..=column
                        } else {
                            1..=n as i32
                        };
                        model.new_var(domain).unwrap()
                    })
                    .collect();
                for i in 0..n {
                    for j in i + 1..n {
                        let d = (j - i) as i32;
                        model.post(NotEqual::new(q[i], q[j])).unwrap();
                        model.post(NotEqual::with_offset(q[i], q[j], d)).unwrap();
                        model.post(NotEqual::with_offset(q[i], q[j], -d)).unwrap();
                    }
                }
                let name = format!("{n} queens, row {row} placed in column {column}");
                for inference in [Inference::None, Inference::ForwardChecking] {
                    check(&name, &model, &csp, inference);
                }
                // MAC: the same assignments (AC-3's revisions before the search are counted
                // differently when a domain starts with one value).
                let (expected_solution, expected) = aima(&csp, Inference::Mac);
                let (solution, [tried, nassigns, _]) = cspkit(&model, Inference::Mac);
                assert_eq!(solution, expected_solution, "{name}, MAC: solution");
                assert_eq!(
                    [tried, nassigns],
                    [expected.tried, expected.nassigns],
                    "{name}, MAC: values tried, nassigns"
                );
            }
        }
    }
}

#[test]
fn the_reference_gives_the_figures_of_the_docs() {
    // docs/levels.md quotes these (first solution; values tried, nassigns, revisions during
    // the search and before it). The cspkit rows of its table are the tests above.
    let (_, csp) = australia(&["WA", "NT", "SA", "Q", "NSW", "V", "T"]);
    let counts = |csp: &Csp, inference| {
        let (_, c) = aima(csp, inference);
        [c.tried, c.nassigns, c.revisions, c.root_revisions]
    };
    assert_eq!(counts(&csp, Inference::None), [11, 7, 0, 0]);
    assert_eq!(counts(&csp, Inference::ForwardChecking), [7, 7, 0, 0]);
    // 45 arc revisions in all: 18 before the search (every arc once; nothing removed), 27
    // after the 7 assignments.
    assert_eq!(counts(&csp, Inference::Mac), [7, 7, 27, 18]);
    let csp = queens(8);
    assert_eq!(counts(&csp, Inference::None), [876, 113, 0, 0]);
    assert_eq!(counts(&csp, Inference::ForwardChecking), [88, 88, 0, 0]);
    // 707 in all: 56 before the search, 651 after the 20 assignments.
    assert_eq!(counts(&csp, Inference::Mac), [20, 20, 651, 56]);
}

#[test]
fn cspkits_counting_skips_the_variables_propagation_fixed() {
    // The same searches under cspkit's counting: fewer decisions, the same failures, and
    // fewer revisions (no arc into a variable propagation had fixed).
    let australia = Colouring::australia(3).unwrap();
    let queens = Queens::new(8).unwrap();
    for (model, aima_counts, cspkit_counts) in [
        (australia.model(), [7, 45], [3, 40]),
        (queens.model(), [20, 707], [15, 697]),
    ] {
        let run = |counting| {
            let config = SearchConfig::new()
                .with_propagation(Propagation::Ac3)
                .with_branching(Branching::DWay)
                .with_counting(counting);
            let mut solver = model.solver_with(config).unwrap();
            assert!(solver.next_solution().is_solved());
            let stats = solver.stats();
            ([stats.decisions, stats.revisions], stats.failures)
        };
        let (aima, aima_failures) = run(Counting::Aima);
        let (cspkit, cspkit_failures) = run(Counting::Cspkit);
        assert_eq!(aima, aima_counts);
        assert_eq!(cspkit, cspkit_counts);
        assert_eq!(aima_failures, cspkit_failures);
    }
}

#[test]
fn the_default_counting_follows_the_inference_and_the_branching() {
    let config = |propagation, branching| {
        SearchConfig::new()
            .with_propagation(propagation)
            .with_branching(branching)
    };
    for propagation in Propagation::ALL {
        for branching in [Branching::Assign, Branching::DWay, Branching::Split] {
            let expected = match (propagation, branching) {
                (Propagation::TextbookForward, _) | (Propagation::Ac3, Branching::DWay) => {
                    Counting::Aima
                }
                _ => Counting::Cspkit,
            };
            let config = config(propagation, branching);
            assert_eq!(config.counting(), expected, "{propagation} {branching:?}");
            // Textbook forward checking propagates from decisions only: it assigns every
            // variable whatever is asked.
            let asked = config.with_counting(Counting::Cspkit).counting();
            if propagation == Propagation::TextbookForward {
                assert_eq!(asked, Counting::Aima);
            } else {
                assert_eq!(asked, Counting::Cspkit);
            }
        }
    }
    for counting in Counting::ALL {
        assert_eq!(counting.name().parse::<Counting>(), Ok(counting));
    }
}

#[test]
fn every_convention_finds_the_same_solutions() {
    // Assigning the fixed variables adds one-value decisions, never a solution.
    let queens = Queens::new(6).unwrap();
    for propagation in Propagation::ALL {
        for branching in [Branching::Assign, Branching::DWay, Branching::Split] {
            let listed = |counting| -> Vec<Vec<i32>> {
                let config = SearchConfig::new()
                    .with_propagation(propagation)
                    .with_branching(branching)
                    .with_counting(counting);
                queens
                    .model()
                    .solver_with(config)
                    .unwrap()
                    .solutions()
                    .map(|s| s.values().to_vec())
                    .collect()
            };
            let aima = listed(Counting::Aima);
            assert_eq!(aima.len(), 4, "{propagation} {branching:?}");
            let config = SearchConfig::new()
                .with_propagation(propagation)
                .with_branching(branching)
                .with_counting(Counting::Aima);
            let threads = std::num::NonZeroUsize::new(2).unwrap();
            let mut solver = queens.model().solver_with(config).unwrap();
            assert_eq!(
                solver.count_parallel(threads).solutions,
                4,
                "{propagation} {branching:?}, two threads"
            );
            assert_eq!(
                aima,
                listed(Counting::Cspkit),
                "{propagation} {branching:?}"
            );
        }
    }
}

#[test]
fn a_split_assigns_a_variable_only_when_it_leaves_one_value() {
    // `x ≤ v` with v above the minimum (a descending or middle-out value order) leaves `x`
    // open: under AIMA's counting it must stay to branch on, and forward checking must not
    // read the split's bound as the variable's value.
    let queens = Queens::new(6).unwrap();
    let expected: usize = 4;
    for propagation in Propagation::ALL {
        let config = SearchConfig::new()
            .with_propagation(propagation)
            .with_branching(Branching::Split)
            .with_counting(Counting::Aima);
        let check = |solutions: Vec<Vec<i32>>, order: &str| {
            assert_eq!(solutions.len(), expected, "{propagation}, {order}");
            for s in &solutions {
                // Queens' rules, independently of the model: columns and diagonals apart.
                for i in 0..s.len() {
                    for j in i + 1..s.len() {
                        let (a, b) = (s[i], s[j]);
                        assert!(a != b && (a - b).unsigned_abs() as usize != j - i, "{s:?}");
                    }
                }
            }
        };
        let descending: Vec<Vec<i32>> = queens
            .model()
            .solver_with(config.clone())
            .unwrap()
            .with_value_order(cspkit::Descending)
            .solutions()
            .map(|s| s.values().to_vec())
            .collect();
        check(descending, "descending");
        let middle: Vec<Vec<i32>> = queens
            .model()
            .solver_with(config)
            .unwrap()
            .with_value_order(cspkit::MiddleOut)
            .solutions()
            .map(|s| s.values().to_vec())
            .collect();
        check(middle, "middle out");
    }
}
