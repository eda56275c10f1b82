//! `puzzle::smallest_conflict`: the fewest (or cheapest) assumptions without a solution,
//! checked against brute force over every subset, with a solver written here for the 4x4
//! Sudoku and the library's plain search for the small random models.

use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::puzzle::{
    ConflictGoal, ConflictOptions, Limits, Optimality, WhyError, smallest_conflict,
};
use cspkit::{AllDifferent, Comparison, Model, NotEqual, Outcome, Relation, VarId};

/// Whether the 4x4 Sudoku with these clues (cell index, value) has a solution, by plain
/// backtracking written here.
fn sudoku4_solvable(clues: &[(usize, u8)]) -> bool {
    let mut grid = [0u8; 16];
    for &(cell, value) in clues {
        if grid[cell] != 0 && grid[cell] != value {
            return false;
        }
        grid[cell] = value;
    }
    for i in 0..16 {
        for j in 0..16 {
            if grid[i] != 0 && grid[i] == grid[j] && sees(i, j) {
                return false;
            }
        }
    }
    fn fill(grid: &mut [u8; 16]) -> bool {
        let Some(i) = grid.iter().position(|&v| v == 0) else {
            return true;
        };
        for v in 1..=4 {
            if (0..16).all(|j| !(grid[j] == v && sees(i, j))) {
                grid[i] = v;
                if fill(grid) {
                    return true;
                }
                grid[i] = 0;
            }
        }
        false
    }
    fill(&mut grid)
}

/// Whether two cells of a 4x4 grid share a row, a column or a box.
fn sees(i: usize, j: usize) -> bool {
    let (r, c, s, t) = (i / 4, i % 4, j / 4, j % 4);
    i != j && (r == s || c == t || (r / 2 == s / 2 && c / 2 == t / 2))
}

/// The cheapest cost of a subset without a solution, by trying every subset.
fn brute_force(n: usize, costs: &[u64], solvable: &dyn Fn(&[usize]) -> bool) -> Option<u64> {
    (0u32..1 << n)
        .filter_map(|mask| {
            let set: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
            (!solvable(&set)).then(|| set.iter().map(|&i| costs[i]).sum())
        })
        .min()
}

/// A tiny xorshift generator, so that the cases are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, m: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % m
    }
}

#[test]
fn the_minimum_on_4x4_sudokus_is_what_brute_force_over_every_subset_finds() {
    let empty = Sudoku::new(&Grid::empty(2).unwrap()).unwrap();
    let mut rng = Rng(0x5eed_1234);
    let mut checked = 0;
    let mut not_direct = 0;
    while checked < 60 {
        let count = 5 + rng.below(6) as usize;
        let mut clues: Vec<(usize, u8)> = Vec::new();
        while clues.len() < count {
            let cell = rng.below(16) as usize;
            let value = 1 + rng.below(4) as u8;
            // Most cases without a direct clash (two equal values in a unit), a few with.
            let direct = clues.iter().any(|&(c, v)| v == value && sees(c, cell));
            if clues.iter().all(|&(c, _)| c != cell) && (!direct || rng.below(8) == 0) {
                clues.push((cell, value));
            }
        }
        if sudoku4_solvable(&clues) {
            continue;
        }
        let assumptions: Vec<(VarId, i32)> = clues
            .iter()
            .map(|&(cell, value)| (empty.cells()[cell], i32::from(value)))
            .collect();
        let unit = vec![1; clues.len()];
        let pick = |set: &[usize]| -> Vec<(usize, u8)> { set.iter().map(|&i| clues[i]).collect() };
        let expected =
            brute_force(clues.len(), &unit, &|set| sudoku4_solvable(&pick(set))).unwrap();
        let found = smallest_conflict(
            empty.model(),
            &assumptions,
            &ConflictOptions::new(ConflictGoal::Minimum),
        )
        .unwrap();
        assert_eq!(found.optimality, Optimality::Minimum, "{clues:?}");
        assert_eq!(found.assumptions.len() as u64, expected, "{clues:?}");
        assert_eq!((found.cost, found.lower_bound), (expected, expected));
        assert!(!sudoku4_solvable(&pick(&found.assumptions)), "{clues:?}");
        let minimal = smallest_conflict(
            empty.model(),
            &assumptions,
            &ConflictOptions::new(ConflictGoal::Minimal),
        )
        .unwrap();
        assert!(minimal.assumptions.len() >= found.assumptions.len());
        if !found.direct {
            not_direct += 1;
        }
        checked += 1;
    }
    // The cases are mostly clashes that no single unit shows.
    assert!(not_direct > 15, "{not_direct}");
}

/// A small random model: `n` variables of domain 1..=3, some `≠` and `<` constraints and an
/// all-different over three of them.
fn random_model(rng: &mut Rng) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let n = 4 + rng.below(3) as usize;
    let xs = model.new_vars(n, 1..=3).unwrap();
    for _ in 0..rng.below(4) {
        let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        if a != b {
            model.post(NotEqual::new(xs[a], xs[b])).unwrap();
        }
    }
    for _ in 0..rng.below(3) {
        let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        if a != b {
            model
                .post(Relation::new(xs[a], Comparison::Lt, xs[b]))
                .unwrap();
        }
    }
    model
        .post(AllDifferent::new(&[xs[0], xs[1], xs[n - 1]]))
        .unwrap();
    (model, xs)
}

#[test]
fn the_cheapest_on_small_random_models_is_what_brute_force_over_every_subset_finds() {
    let mut rng = Rng(0xdead_beef);
    let mut checked = 0;
    while checked < 80 {
        let (model, xs) = random_model(&mut rng);
        let count = 3 + rng.below(6) as usize;
        let assumptions: Vec<(VarId, i32)> = (0..count)
            .map(|_| {
                let x = xs[rng.below(xs.len() as u64) as usize];
                (x, 1 + rng.below(3) as i32)
            })
            .collect();
        let costs: Vec<u64> = (0..count).map(|_| 1 + rng.below(5)).collect();
        // The library's plain search, one assumption at a time fixed on a copy of the model.
        let solvable = |set: &[usize]| {
            let mut copy = model.clone();
            for &i in set {
                let (var, value) = assumptions[i];
                if copy.fix(var, value).is_err() {
                    return false;
                }
            }
            matches!(copy.solve(), Outcome::Solved(_))
        };
        let Some(cheapest) = brute_force(count, &costs, &solvable) else {
            assert!(matches!(
                smallest_conflict(
                    &model,
                    &assumptions,
                    &ConflictOptions::new(ConflictGoal::Minimum)
                ),
                Err(WhyError::Solvable)
            ));
            continue;
        };
        let fewest = brute_force(count, &vec![1; count], &solvable).unwrap();
        let options = ConflictOptions::new(ConflictGoal::CostOptimal).with_costs(&costs);
        let found = smallest_conflict(&model, &assumptions, &options).unwrap();
        assert_eq!(found.optimality, Optimality::CostOptimal);
        assert_eq!(found.cost, cheapest, "{assumptions:?} {costs:?}");
        assert_eq!(
            found.assumptions.iter().map(|&i| costs[i]).sum::<u64>(),
            cheapest
        );
        assert!(!solvable(&found.assumptions));
        let found = smallest_conflict(
            &model,
            &assumptions,
            &ConflictOptions::new(ConflictGoal::Minimum).with_costs(&costs),
        )
        .unwrap();
        assert_eq!(found.optimality, Optimality::Minimum);
        assert_eq!(found.assumptions.len() as u64, fewest, "{assumptions:?}");
        assert!(!solvable(&found.assumptions));
        checked += 1;
    }
}

#[test]
fn two_equal_givens_in_a_row_are_reported_as_that_pair() {
    // A published puzzle (magictour top 1465, number 9) with no 5 in row 1, column 1,
    // column 3 or box 1, given two 5s in row 1: r1c1 and r1c3.
    let mut text: Vec<u8> =
        b"......41.9..3.....3...5.....48..7..........62.1.......6..2....5.7....8......9...."
            .to_vec();
    text[0] = b'5';
    text[2] = b'5';
    let puzzle = Grid::parse(std::str::from_utf8(&text).unwrap(), None).unwrap();
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let clues: Vec<_> = empty.givens(&puzzle).collect();
    for goal in [
        ConflictGoal::Minimal,
        ConflictGoal::Minimum,
        ConflictGoal::CostOptimal,
    ] {
        let found = smallest_conflict(empty.model(), &clues, &ConflictOptions::new(goal)).unwrap();
        let named: Vec<String> = found
            .assumptions
            .iter()
            .map(|&i| format!("{}={}", empty.model().var_name(clues[i].0), clues[i].1))
            .collect();
        assert_eq!(named, ["r1c1=5", "r1c3=5"], "{goal:?}");
        assert!(found.direct);
    }
    // The same variable given two values is a direct clash too.
    let cell = empty.cell(4, 4);
    let clues = [
        (empty.cell(0, 0), 1),
        (cell, 3),
        (empty.cell(8, 8), 2),
        (cell, 4),
    ];
    let found = smallest_conflict(
        empty.model(),
        &clues,
        &ConflictOptions::new(ConflictGoal::Minimum),
    )
    .unwrap();
    assert_eq!((found.assumptions, found.direct), (vec![1, 3], true));
}

#[test]
fn a_binary_constraint_violated_by_two_assumptions_is_a_direct_pair() {
    let mut model = Model::new();
    let xs = model.new_vars(4, 1..=5).unwrap();
    model
        .post(Relation::new(xs[0], Comparison::Lt, xs[3]))
        .unwrap();
    model.post(AllDifferent::new(&xs[..3])).unwrap();
    // x0 = 4 and x3 = 2 violate x0 < x3; x1 = 4 clashes with x0 in the all-different too,
    // but costs more.
    let assumptions = [(xs[1], 4), (xs[0], 4), (xs[3], 2)];
    let options = ConflictOptions::new(ConflictGoal::CostOptimal).with_costs(&[5, 1, 1]);
    let found = smallest_conflict(&model, &assumptions, &options).unwrap();
    assert_eq!((found.assumptions, found.direct), (vec![1, 2], true));
    assert_eq!(found.optimality, Optimality::CostOptimal);
}

#[test]
fn wrong_costs_and_limits_are_reported_not_panicked_on() {
    let empty = Sudoku::new(&Grid::empty(2).unwrap()).unwrap();
    let clues = [(empty.cell(0, 0), 1), (empty.cell(0, 1), 1)];
    let options = ConflictOptions::new(ConflictGoal::CostOptimal).with_costs(&[1]);
    assert!(matches!(
        smallest_conflict(empty.model(), &clues, &options),
        Err(WhyError::CostCount {
            costs: 1,
            assumptions: 2
        })
    ));
    let solvable = [(empty.cell(0, 0), 1)];
    assert!(matches!(
        smallest_conflict(
            empty.model(),
            &solvable,
            &ConflictOptions::new(ConflictGoal::Minimum)
        ),
        Err(WhyError::Solvable)
    ));
    // A limit of no time: an answer that says what it is.
    let clues = [
        (empty.cell(0, 0), 1),
        (empty.cell(0, 1), 2),
        (empty.cell(1, 2), 1),
        (empty.cell(2, 3), 2),
    ];
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let options = ConflictOptions::new(ConflictGoal::Minimum)
        .with_limits(Limits::new().with_cancel_flag(flag));
    match smallest_conflict(empty.model(), &clues, &options) {
        Ok(found) => assert_ne!(found.optimality, Optimality::Minimum),
        Err(error) => assert!(matches!(error, WhyError::LimitReached(_)), "{error}"),
    }
}
