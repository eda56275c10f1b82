//! Making and explaining puzzles (`cspkit::puzzle`, `Sudoku::explain` and `Sudoku::grade`),
//! checked by code written here: a Sudoku counter and a solver by named techniques that share
//! nothing with the library, and the library's own reason check on every explanation line.

use cspkit::kernel::{Inference, Literal, reason_implies};
use cspkit::models::sudoku::{Grid, Sudoku, Technique};
use cspkit::puzzle::{
    Difficulty, Explainer, GenerateError, Generator, GradeError, Limits, Step, WhyError, grade,
    grade_within, minimal_conflict, minimal_conflict_within,
};
use cspkit::{Domain, Limit, Model, VarId};

/// Solutions of an `n × n` Sudoku (`n = b²`, cells row by row, 0 empty), counted up to
/// `limit` by plain backtracking on bit masks, the cell with the fewest candidates first.
fn count_solutions(cells: &[u8], b: usize, limit: u64) -> u64 {
    let n = b * b;
    let mut grid: Vec<u8> = cells.to_vec();
    let unit_masks = |grid: &[u8], i: usize| -> u32 {
        let (r, c) = (i / n, i % n);
        let mut used = 0u32;
        for k in 0..n {
            for j in [
                r * n + k,
                k * n + c,
                (r / b * b + k / b) * n + c / b * b + k % b,
            ] {
                if j != i && grid[j] != 0 {
                    used |= 1 << grid[j];
                }
            }
        }
        used
    };
    fn go(grid: &mut [u8], n: usize, limit: u64, masks: &dyn Fn(&[u8], usize) -> u32) -> u64 {
        let mut best: Option<(usize, u32)> = None;
        for i in 0..grid.len() {
            if grid[i] == 0 {
                let free = !masks(grid, i) & (((1u32 << n) - 1) << 1);
                if best.is_none_or(|(_, f)| free.count_ones() < f.count_ones()) {
                    best = Some((i, free));
                }
            } else if masks(grid, i) & (1 << grid[i]) != 0 {
                return 0;
            }
        }
        let Some((i, free)) = best else {
            return 1;
        };
        let mut found = 0;
        for v in 1..=n as u8 {
            if free & (1 << v) != 0 {
                grid[i] = v;
                found += go(grid, n, limit - found, masks);
                grid[i] = 0;
                if found >= limit {
                    break;
                }
            }
        }
        found
    }
    go(&mut grid, n, limit, &unit_masks)
}

/// The cells of a generated puzzle, 0 where there is no clue.
fn puzzle_cells(sudoku: &Sudoku, clues: &[(VarId, i32)]) -> Vec<u8> {
    let mut cells = vec![0u8; sudoku.cells().len()];
    for &(var, value) in clues {
        let i = sudoku.cells().iter().position(|&c| c == var).unwrap();
        cells[i] = value as u8;
    }
    cells
}

/// How a person solves a 9x9 puzzle with the techniques up to `hardest` (by rank): candidates,
/// then repeatedly naked singles, hidden singles, and naked and hidden sets of any size in one
/// unit. Whether it solves the puzzle.
fn solves_with(cells: &[u8], hardest: Technique) -> bool {
    let units: Vec<Vec<usize>> = (0..9)
        .flat_map(|g| {
            [
                (0..9).map(|k| g * 9 + k).collect::<Vec<_>>(),
                (0..9).map(|k| k * 9 + g).collect(),
                (0..9)
                    .map(|k| (g / 3 * 3 + k / 3) * 9 + g % 3 * 3 + k % 3)
                    .collect(),
            ]
        })
        .collect();
    let mut cand: Vec<u16> = cells
        .iter()
        .map(|&v| if v == 0 { 0b11_1111_1110 } else { 1 << v })
        .collect();
    let allowed = |t: Technique| t.rank() <= hardest.rank();
    loop {
        let before = cand.clone();
        // Naked singles: a fixed cell's value leaves its units.
        for unit in &units {
            for &i in unit {
                if cand[i].count_ones() == 1 {
                    for &j in unit {
                        if j != i {
                            cand[j] &= !cand[i];
                        }
                    }
                }
            }
        }
        if cand.contains(&0) {
            return false;
        }
        if cand == before && allowed(Technique::HiddenSingle) {
            for unit in &units {
                for v in 1..=9 {
                    let places: Vec<usize> = unit
                        .iter()
                        .copied()
                        .filter(|&i| cand[i] & (1 << v) != 0)
                        .collect();
                    if let [i] = places[..] {
                        cand[i] = 1 << v;
                    }
                }
            }
        }
        if cand == before {
            // Naked sets: k open cells whose candidates number k (k up to 8).
            for unit in &units {
                let open: Vec<usize> = unit
                    .iter()
                    .copied()
                    .filter(|&i| cand[i].count_ones() > 1)
                    .collect();
                let m = open.len();
                for subset in 1u32..(1 << m) {
                    let k = subset.count_ones() as usize;
                    let naked = Technique::NakedSet(k);
                    let hidden = Technique::HiddenSet(m - k);
                    if k < 2 || k >= m || !(allowed(naked) || allowed(hidden)) {
                        continue;
                    }
                    let union = (0..m)
                        .filter(|&t| subset & (1 << t) != 0)
                        .fold(0u16, |u, t| u | cand[open[t]]);
                    if union.count_ones() as usize == k {
                        // As naked k-set or, seen from the other cells, a hidden (m-k)-set.
                        let name = if k <= m - k { naked } else { hidden };
                        if allowed(name) {
                            for t in (0..m).filter(|&t| subset & (1 << t) == 0) {
                                cand[open[t]] &= !union;
                            }
                        }
                    }
                }
            }
        }
        if cand.iter().all(|&c| c.count_ones() == 1) {
            return true;
        }
        if cand == before {
            return false;
        }
    }
}

#[test]
fn generated_puzzles_are_unique_and_minimal_by_an_independent_count() {
    for (b, seeds) in [(2, 0..20u64), (3, 0..6)] {
        let empty = Sudoku::new(&Grid::empty(b).unwrap()).unwrap();
        for seed in seeds {
            let puzzle = Generator::new(empty.model(), empty.cells())
                .with_seed(seed)
                .generate()
                .unwrap();
            assert!(puzzle.minimal);
            let cells = puzzle_cells(&empty, &puzzle.clues);
            assert_eq!(count_solutions(&cells, b, 2), 1, "seed {seed}: {cells:?}");
            // The solution completes the clues.
            for &(var, value) in &puzzle.clues {
                assert_eq!(puzzle.solution[var], value);
            }
            // Minimal: without any one clue, a second solution appears.
            for i in (0..cells.len()).filter(|&i| cells[i] != 0) {
                let mut fewer = cells.clone();
                fewer[i] = 0;
                assert_eq!(
                    count_solutions(&fewer, b, 2),
                    2,
                    "seed {seed}: clue {i} is not needed"
                );
            }
        }
    }
}

#[test]
fn symmetric_puzzles_keep_the_half_turn_and_targets_are_met_or_refused() {
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let cells = empty.cells().to_vec();
    let orbits: Vec<Vec<VarId>> = (0..81).map(|i| vec![cells[i], cells[80 - i]]).collect();
    for seed in 0..3 {
        let puzzle = Generator::new(empty.model(), &cells)
            .with_seed(seed)
            .with_symmetry(&orbits)
            .generate()
            .unwrap();
        let given = puzzle_cells(&empty, &puzzle.clues);
        for i in 0..81 {
            assert_eq!(given[i] != 0, given[80 - i] != 0, "seed {seed}, cell {i}");
        }
        assert_eq!(count_solutions(&given, 3, 2), 1);
    }
    let many = Generator::new(empty.model(), &cells)
        .with_target_clues(40)
        .generate()
        .unwrap();
    assert!(many.clues.len() <= 40 && !many.minimal);
    assert_eq!(count_solutions(&puzzle_cells(&empty, &many.clues), 3, 2), 1);
    // Fewer than 17 clues never make a unique 9x9 Sudoku.
    let impossible = Generator::new(empty.model(), &cells)
        .with_target_clues(10)
        .with_attempts(2)
        .generate();
    assert!(matches!(impossible, Err(GenerateError::NotFound { .. })));
}

#[test]
fn grades_agree_with_a_solver_by_techniques() {
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for (seed, difficulty) in (0..30).map(|s| {
        let d = [Difficulty::Forward, Difficulty::Full, Difficulty::Search][s as usize % 3];
        (s, d)
    }) {
        let puzzle = Generator::new(empty.model(), empty.cells())
            .with_seed(seed)
            .with_difficulty(difficulty)
            .generate()
            .unwrap();
        let cells = puzzle_cells(&empty, &puzzle.clues);
        let grid = Grid::from_cells(&cells).unwrap();
        let graded = empty.grade(&grid, 1_000_000).unwrap();
        assert_eq!(graded.grade, puzzle.grade);
        assert_eq!(graded.grade.difficulty, difficulty, "seed {seed}");
        let hardest = graded.hardest.unwrap();
        seen.insert(hardest.rank());
        // The independent solver: naked singles alone solve exactly the forward puzzles; all
        // techniques of one unit solve exactly the forward and full ones.
        let singles = solves_with(&cells, Technique::NakedSingle);
        let units = solves_with(&cells, Technique::HiddenSet(8));
        assert_eq!(singles, difficulty == Difficulty::Forward, "seed {seed}");
        assert_eq!(units, difficulty <= Difficulty::Full, "seed {seed}");
        // The hardest technique of the path is enough, and needed where singles fall short:
        // the path takes a single whenever there is one.
        if hardest != Technique::Guess {
            assert!(
                solves_with(&cells, hardest),
                "seed {seed}: {hardest} is not enough"
            );
            let singles_only = solves_with(&cells, Technique::HiddenSingle);
            assert_eq!(
                singles_only,
                hardest <= Technique::HiddenSingle,
                "seed {seed}"
            );
            if hardest == Technique::HiddenSingle {
                assert!(!singles, "seed {seed}");
            }
        } else {
            assert_eq!(graded.grade.difficulty, Difficulty::Search);
            assert!(graded.guesses > 0);
        }
    }
    assert!(
        seen.len() >= 3,
        "the sample covers too few techniques: {seen:?}"
    );
}

/// Runs a path and checks each line: its reason holds where the path stands and implies the
/// step by its constraint alone.
fn check_path(model: &Model, fixed: &[(VarId, i32)], solution: Option<&[i32]>) -> Vec<Step> {
    let initial: Vec<Domain> = model.variables().map(|v| model.domain(v).clone()).collect();
    let mut explainer = Explainer::new(model).with_fixed(fixed).unwrap();
    if let Some(solution) = solution {
        explainer = explainer.with_guesses_from(solution);
    }
    let constraint = |id| model.constraints().find(|(c, _)| *c == id).unwrap().1;
    let mut steps = Vec::new();
    while let Some(step) = explainer.next_step() {
        let before = explainer.previous_domains().to_vec();
        let holds = |reason: &[Literal], domains: &[Domain]| {
            reason.iter().all(|l| l.holds_in(&domains[l.var().index()]))
        };
        match &step {
            Step::OnlyValue { var, value, causes } => {
                assert_eq!(explainer.domains()[var.index()].value(), Some(*value));
                for cause in causes {
                    let inference = Inference::Removed {
                        var: *var,
                        value: cause.value,
                    };
                    assert!(holds(&cause.reason, explainer.domains()));
                    assert!(reason_implies(
                        constraint(cause.constraint),
                        &initial,
                        &cause.reason,
                        inference
                    ));
                }
            }
            Step::Forced {
                var,
                value,
                constraint: id,
                reason,
            } => {
                assert!(holds(reason, &before), "{}", step.describe(model));
                let inference = Inference::Fixed {
                    var: *var,
                    value: *value,
                };
                assert!(
                    reason_implies(constraint(*id), &initial, reason, inference),
                    "{}",
                    step.describe(model)
                );
            }
            Step::Eliminated {
                removed,
                constraint: id,
                reason,
            } => {
                assert!(holds(reason, &before), "{}", step.describe(model));
                for &(var, value) in removed {
                    let inference = Inference::Removed { var, value };
                    assert!(
                        reason_implies(constraint(*id), &initial, reason, inference),
                        "{}",
                        step.describe(model)
                    );
                }
            }
            Step::Contradiction {
                constraint: id,
                reason,
            } => {
                assert!(holds(reason, &before));
                assert!(reason_implies(
                    constraint(*id),
                    &initial,
                    reason,
                    Inference::Failed
                ));
            }
            Step::Guess { var, value } => {
                assert_eq!(solution.map(|s| s[var.index()]), Some(*value));
            }
            _ => {}
        }
        steps.push(step);
    }
    steps
}

#[test]
fn every_explanation_line_is_implied_by_its_reason() {
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    for seed in 0..6 {
        let difficulty = [Difficulty::Full, Difficulty::Search][seed as usize % 2];
        let puzzle = Generator::new(empty.model(), empty.cells())
            .with_seed(seed)
            .with_difficulty(difficulty)
            .generate()
            .unwrap();
        let steps = check_path(empty.model(), &puzzle.clues, Some(puzzle.solution.values()));
        assert_eq!(steps.last(), Some(&Step::Solved));
        let guesses = steps
            .iter()
            .filter(|s| matches!(s, Step::Guess { .. }))
            .count();
        assert_eq!(guesses > 0, difficulty == Difficulty::Search, "seed {seed}");
    }
    // A model with linear and table constraints: a small Kakuro-like grid.
    let mut model = Model::new();
    let xs = model.new_named_vars("x", 4, 1..=9).unwrap();
    model
        .post_named(
            "sum",
            cspkit::Linear::sum(&xs[..2], cspkit::Comparison::Eq, 4),
        )
        .unwrap();
    model
        .post_named(
            "pairs",
            cspkit::Table::new(&[xs[1], xs[2]], [[1, 5], [3, 9], [2, 2]]).unwrap(),
        )
        .unwrap();
    model
        .post_named("row", cspkit::AllDifferent::new(&xs))
        .unwrap();
    model
        .post_named(
            "last",
            cspkit::Linear::sum(&xs[2..], cspkit::Comparison::Le, 8),
        )
        .unwrap();
    let solution = model.solve().solution().unwrap();
    let steps = check_path(&model, &[], Some(solution.values()));
    assert_eq!(steps.last(), Some(&Step::Solved));
}

#[test]
fn the_hint_is_the_first_line_and_a_unit_with_two_equal_givens_is_a_contradiction() {
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let mut cells = vec![0u8; 81];
    cells[0] = 5;
    cells[8] = 5;
    cells[40] = 7;
    let grid = Grid::from_cells(&cells).unwrap();
    let path = empty.explain(&grid, false).unwrap();
    assert_eq!(path.len(), 1);
    assert!(path[0].text.contains("two 5s in row 1"), "{}", path[0].text);
    let clues: Vec<_> = empty.givens(&grid).collect();
    let steps = check_path(empty.model(), &clues, None);
    assert!(matches!(steps[..], [Step::Contradiction { .. }]));
}

#[test]
fn a_minimal_conflict_has_no_solution_and_each_proper_subset_has_one() {
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    // A solvable puzzle with one given changed: the clash is deep, not two equal givens.
    let puzzle = Generator::new(empty.model(), empty.cells())
        .with_seed(4)
        .generate()
        .unwrap();
    let mut clues = puzzle.clues.clone();
    let mut broken = None;
    'search: for i in 0..clues.len() {
        for wrong in 1..=9 {
            let mut tried = clues.clone();
            if tried[i].1 == wrong {
                continue;
            }
            tried[i].1 = wrong;
            let cells = puzzle_cells(&empty, &tried);
            // No two equal givens in a unit, yet no solution.
            let clash = cells.iter().enumerate().any(|(a, &va)| {
                va != 0
                    && cells.iter().enumerate().any(|(c, &vc)| {
                        c != a
                            && vc == va
                            && (a / 9 == c / 9
                                || a % 9 == c % 9
                                || (a / 27 == c / 27 && a % 9 / 3 == c % 9 / 3))
                    })
            });
            if !clash && count_solutions(&cells, 3, 1) == 0 {
                broken = Some(tried);
                break 'search;
            }
        }
    }
    clues = broken.expect("a changed given without a direct clash");
    let conflict = minimal_conflict(empty.model(), &clues, 1_000_000).unwrap();
    assert!(conflict.minimal);
    let subset: Vec<_> = conflict.assumptions.iter().map(|&i| clues[i]).collect();
    assert_eq!(count_solutions(&puzzle_cells(&empty, &subset), 3, 1), 0);
    for left_out in 0..subset.len() {
        let mut fewer = subset.clone();
        fewer.remove(left_out);
        assert_eq!(
            count_solutions(&puzzle_cells(&empty, &fewer), 3, 1),
            1,
            "{fewer:?}"
        );
    }
}

#[test]
fn grading_tells_forward_from_full_from_search_on_any_model() {
    // Latin square of order 3 with clues: the library's grade against a hand count.
    let mut model = Model::new();
    let xs = model.new_named_vars("x", 9, 1..=3).unwrap();
    for r in 0..3 {
        model
            .post(cspkit::AllDifferent::new(&xs[r * 3..r * 3 + 3]))
            .unwrap();
        let col: Vec<VarId> = (0..3).map(|k| xs[k * 3 + r]).collect();
        model.post(cspkit::AllDifferent::new(&col)).unwrap();
    }
    // Two values of the first row and one of the second: forward checking completes it.
    let forward = grade(&model, &[(xs[0], 1), (xs[1], 2), (xs[3], 2)], 100).unwrap();
    assert_eq!(forward.difficulty, Difficulty::Forward);
    // One value: several solutions remain, the search decides.
    let search = grade(&model, &[(xs[0], 1)], 100).unwrap();
    assert_eq!(search.difficulty, Difficulty::Search);
    assert!(search.decisions > 0);
    assert!(grade(&model, &[(xs[0], 1), (xs[1], 1)], 100).is_err());
}

/// Skyscrapers (Towers) of side `n` whose only clue variables are the edge counts: a grid of
/// heights 1 to n, each once per row and column (a table of the orders of each line), and from
/// each end of each row and column the number of buildings seen (a taller one hides those
/// behind it). The counts are variables, so that a generator may give them as clues; two grids
/// may show the same counts.
fn towers_with_edge_counts(n: usize) -> (Model, Vec<VarId>) {
    // Every order of the heights 1..=n, with the number of buildings seen from its start.
    fn orders(prefix: &mut Vec<i32>, n: usize, out: &mut Vec<Vec<i32>>) {
        if prefix.len() == n {
            let mut tallest = 0;
            let seen = prefix.iter().filter(|&&h| {
                let new = h > tallest;
                tallest = tallest.max(h);
                new
            });
            let mut tuple = prefix.clone();
            tuple.push(seen.count() as i32);
            out.push(tuple);
            return;
        }
        for h in 1..=n as i32 {
            if !prefix.contains(&h) {
                prefix.push(h);
                orders(prefix, n, out);
                prefix.pop();
            }
        }
    }
    let mut tuples = Vec::new();
    orders(&mut Vec::new(), n, &mut tuples);
    let mut model = Model::new();
    let grid = model.new_grid("h", n, n, 1..=n as i32).unwrap();
    let mut counts = Vec::new();
    for i in 0..n {
        let column: Vec<VarId> = grid.iter().map(|row| row[i]).collect();
        for line in [grid[i].clone(), column] {
            let mut reversed = line.clone();
            reversed.reverse();
            for mut scope in [line, reversed] {
                let count = model.new_var(1..=n as i32).unwrap();
                scope.push(count);
                model
                    .post(cspkit::Table::new(&scope, &tuples).unwrap())
                    .unwrap();
                counts.push(count);
            }
        }
    }
    (model, counts)
}

#[test]
fn generated_puzzles_have_one_solution_even_when_the_clues_cannot_pin_one_down() {
    for (n, seeds) in [(4, 0..12u64), (5, 0..6)] {
        let (model, counts) = towers_with_edge_counts(n);
        let mut made = 0;
        for seed in seeds {
            match Generator::new(&model, &counts)
                .with_seed(seed)
                .with_attempts(20)
                .generate()
            {
                Ok(puzzle) => {
                    made += 1;
                    let mut solver = model.solver();
                    solver.restart_with(puzzle.clues.iter().copied()).unwrap();
                    let count = solver.count_up_to(2);
                    assert_eq!(
                        (count.solutions, count.is_exact()),
                        (1, true),
                        "{n}x{n}, seed {seed}: {:?}",
                        puzzle.clues
                    );
                }
                Err(GenerateError::NotFound { reason, .. }) => {
                    assert!(reason.contains("not unique"), "{reason}");
                }
                Err(error) => panic!("{n}x{n}, seed {seed}: {error}"),
            }
        }
        assert!(
            made > 0,
            "{n}x{n}: some solutions are fixed by their counts"
        );
    }
}

#[test]
fn a_generator_whose_clues_never_fix_the_solution_says_why_it_found_nothing() {
    // `y` is free whatever `x` is given: no puzzle on `x` has one solution.
    let mut model = Model::new();
    let x = model.new_var(1..=3).unwrap();
    let _y = model.new_var(1..=2).unwrap();
    let error = Generator::new(&model, &[x])
        .with_attempts(5)
        .generate()
        .unwrap_err();
    assert!(
        matches!(&error, GenerateError::NotFound { attempts: 5, reason, .. }
            if reason.starts_with("5 drew a solution that is not unique even with every clue given")),
        "{error}"
    );
    assert!(
        error.to_string().starts_with("no puzzle in 5 attempts: "),
        "{error}"
    );
}

#[test]
fn a_raised_cancel_flag_stops_every_puzzle_tool_and_says_so() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let flag = Arc::new(AtomicBool::new(true));
    let limits = Limits::new().with_cancel_flag(Arc::clone(&flag));
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let generated = Generator::new(empty.model(), empty.cells())
        .with_cancel_flag(Arc::clone(&flag))
        .generate();
    assert_eq!(
        generated,
        Err(GenerateError::LimitReached(Limit::Cancelled))
    );
    // One given: propagation leaves cells open, so grading searches.
    let clues = [(empty.cell(0, 0), 5)];
    assert_eq!(
        grade_within(empty.model(), &clues, &limits),
        Err(GradeError::LimitReached(Limit::Cancelled))
    );
    // Propagation alone refutes the clash, before the flag is looked at; the shrinking stops.
    let clash = [
        (empty.cell(0, 0), 5),
        (empty.cell(4, 4), 7),
        (empty.cell(0, 8), 5),
    ];
    let conflict = minimal_conflict_within(empty.model(), &clash, &limits).unwrap();
    assert_eq!(conflict.stopped_by, Some(Limit::Cancelled));
    assert_eq!((conflict.assumptions.len(), conflict.minimal), (3, false));
    // A search is needed to answer: the flag stops it.
    assert_eq!(
        minimal_conflict_within(empty.model(), &[(empty.cell(0, 0), 5)], &limits),
        Err(WhyError::LimitReached(Limit::Cancelled))
    );
    let explained = empty
        .explain_within(&empty.grid_of_clues(&clues), true, &limits)
        .unwrap();
    assert_eq!(explained.stopped_by(), Some(Limit::Cancelled));
    assert!(!explained.no_solution());
}

#[test]
fn a_sudoku_without_solution_that_propagation_cannot_refute_is_explained_as_such() {
    // A 9x9 grid with no solution whose path of single-unit deductions stops short.
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let puzzle = Grid::parse(
        "301800000000009400080005000000100600100004830090502000400007050709040006002000907",
        None,
    )
    .unwrap();
    assert_eq!(
        count_solutions(
            &puzzle_cells(&empty, &empty.givens(&puzzle).collect::<Vec<_>>()),
            3,
            1
        ),
        0
    );
    for guesses in [true, false] {
        let explained = empty
            .explain_within(&puzzle, guesses, &Limits::new())
            .unwrap();
        assert!(explained.no_solution(), "guesses: {guesses}");
        assert_eq!(explained.search, Some(cspkit::Outcome::Exhausted));
        assert_eq!(
            explained.path.last().unwrap().text,
            "no deduction left, and a search finds no solution: the puzzle has none"
        );
    }
}

#[test]
fn grading_within_limits_says_whether_the_solution_is_unique() {
    let empty = Sudoku::new(&Grid::empty(2).unwrap()).unwrap();
    let limits = Limits::new().with_decision_limit(1000);
    let open = empty
        .grade_within(&Grid::parse("1..4..1..1..4...", None).unwrap(), &limits)
        .unwrap();
    assert_eq!(open.several_solutions, Some(true));
    let one_gap = empty
        .grade_within(&Grid::parse(".234341221434321", None).unwrap(), &limits)
        .unwrap();
    assert_eq!(one_gap.several_solutions, Some(false));
}
