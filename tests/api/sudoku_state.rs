//! A player's state (`SudokuState`) and the hints from it (`Sudoku::hint_from`,
//! `Sudoku::explain_from`).
//!
//! Hints are checked by a small technique solver written here, independently of the
//! library's: singles, locked candidates (pointing and claiming), naked and hidden pairs, on
//! the pencil marks this test computes from the state. Each hint must be sound (it places the
//! unique solution's value and never removes it) and the easiest: when this solver has a
//! deduction of a technique, the hint is of that technique or an easier one. States are made
//! from public puzzles with published ratings (tests/data/sudoku_se_rated_sample.txt says
//! where from) by correct partial progress: some of the solution's values entered, some
//! wrong candidates struck out of the marks, or this test's own solver run to its end.

use cspkit::models::sudoku::{
    Grid, HumanTechnique, Mistake, RatedStep, StateFormat, Sudoku, SudokuState,
};
use cspkit::puzzle::Limits;

/// The pencil marks of a 9x9 state as this test sees them: a bitmask per cell (bit `v − 1`)
/// and the values filled in.
#[derive(Clone, Debug)]
struct Pencil {
    cand: Vec<u16>,
    value: Vec<u8>,
}

/// The 27 units of a 9x9 grid: rows, columns, boxes.
fn units() -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for i in 0..9 {
        out.push((0..9).map(|k| i * 9 + k).collect());
        out.push((0..9).map(|k| k * 9 + i).collect());
        out.push(
            (0..9)
                .map(|k| (i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3)
                .collect(),
        );
    }
    out
}

fn same_unit(a: usize, b: usize) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
}

impl Pencil {
    /// The marks of `state`, computed here: a filled cell has none; an empty one has its
    /// marks (all nine if none are written) less the values filled in its peers.
    fn of(state: &SudokuState) -> Pencil {
        let mut value = vec![0u8; 81];
        for (c, v) in value.iter_mut().enumerate() {
            *v = state.value(c / 9, c % 9);
        }
        let cand = (0..81)
            .map(|c| {
                if value[c] != 0 {
                    return 0;
                }
                let marks = state
                    .marks(c / 9, c % 9)
                    .map_or(0x1ff, |m| m.iter().fold(0u16, |a, &v| a | 1 << (v - 1)));
                (0..81)
                    .filter(|&o| same_unit(c, o) && value[o] != 0)
                    .fold(marks, |m, o| m & !(1 << (value[o] - 1)))
            })
            .collect();
        Pencil { cand, value }
    }

    fn has(&self, c: usize, v: u8) -> bool {
        self.cand[c] & (1 << (v - 1)) != 0
    }

    fn place(&mut self, c: usize, v: u8) {
        self.value[c] = v;
        self.cand[c] = 0;
        for o in 0..81 {
            if same_unit(c, o) {
                self.cand[o] &= !(1 << (v - 1));
            }
        }
    }

    /// A single: `(cell, value)` of an open cell with one candidate, or of the only place
    /// of a value in a unit that lacks it.
    fn single(&self) -> Option<(usize, u8)> {
        for c in 0..81 {
            if self.value[c] == 0 && self.cand[c].count_ones() == 1 {
                return Some((c, self.cand[c].trailing_zeros() as u8 + 1));
            }
        }
        for unit in units() {
            for v in 1..=9 {
                if unit.iter().any(|&c| self.value[c] == v) {
                    continue;
                }
                let places: Vec<usize> = unit.iter().copied().filter(|&c| self.has(c, v)).collect();
                if let [only] = places[..] {
                    return Some((only, v));
                }
            }
        }
        None
    }

    /// Candidates that locked candidates remove: a value's places in one unit all lie in
    /// another unit (a box and a line), so it leaves the rest of that other unit.
    fn locked(&self) -> Vec<(usize, u8)> {
        let all = units();
        for a in &all {
            for b in &all {
                let shared: Vec<usize> = a.iter().copied().filter(|c| b.contains(c)).collect();
                if a == b || shared.len() != 3 {
                    continue;
                }
                for v in 1..=9 {
                    let places: Vec<usize> =
                        a.iter().copied().filter(|&c| self.has(c, v)).collect();
                    if places.is_empty() || !places.iter().all(|c| shared.contains(c)) {
                        continue;
                    }
                    let removed: Vec<(usize, u8)> = b
                        .iter()
                        .copied()
                        .filter(|&c| self.has(c, v) && !shared.contains(&c))
                        .map(|c| (c, v))
                        .collect();
                    if !removed.is_empty() {
                        return removed;
                    }
                }
            }
        }
        Vec::new()
    }

    /// Candidates that a naked pair removes: two cells of a unit with the same two
    /// candidates, which leave its other cells.
    fn naked_pair(&self) -> Vec<(usize, u8)> {
        for unit in units() {
            for (i, &a) in unit.iter().enumerate() {
                for &b in &unit[i + 1..] {
                    let m = self.cand[a];
                    if m.count_ones() != 2 || self.cand[b] != m {
                        continue;
                    }
                    let removed: Vec<(usize, u8)> = unit
                        .iter()
                        .copied()
                        .filter(|&c| c != a && c != b)
                        .flat_map(|c| {
                            (1..=9u8)
                                .filter(move |&v| m & (1 << (v - 1)) != 0)
                                .map(move |v| (c, v))
                        })
                        .filter(|&(c, v)| self.has(c, v))
                        .collect();
                    if !removed.is_empty() {
                        return removed;
                    }
                }
            }
        }
        Vec::new()
    }

    /// Candidates that a hidden pair removes: two values of a unit that fit only the same
    /// two cells, whose other candidates go.
    fn hidden_pair(&self) -> Vec<(usize, u8)> {
        for unit in units() {
            let places = |v: u8| -> Vec<usize> {
                unit.iter().copied().filter(|&c| self.has(c, v)).collect()
            };
            for x in 1..=9u8 {
                for y in x + 1..=9 {
                    let (px, py) = (places(x), places(y));
                    if px.len() != 2 || px != py {
                        continue;
                    }
                    let removed: Vec<(usize, u8)> = px
                        .iter()
                        .flat_map(|&c| {
                            (1..=9u8)
                                .filter(move |&v| v != x && v != y)
                                .map(move |v| (c, v))
                        })
                        .filter(|&(c, v)| self.has(c, v))
                        .collect();
                    if !removed.is_empty() {
                        return removed;
                    }
                }
            }
        }
        Vec::new()
    }

    /// Runs this solver to its end: singles, locked candidates, pairs, as long as one
    /// applies. Every deduction is checked against the solution on the way.
    fn run(&mut self, solution: &[u8]) {
        loop {
            if let Some((c, v)) = self.single() {
                assert_eq!(solution[c], v, "the test's own single is unsound");
                self.place(c, v);
                continue;
            }
            let removed = [self.locked(), self.naked_pair(), self.hidden_pair()]
                .into_iter()
                .find(|r| !r.is_empty());
            let Some(removed) = removed else { return };
            for (c, v) in removed {
                assert_ne!(solution[c], v, "the test's own technique is unsound");
                self.cand[c] &= !(1 << (v - 1));
            }
        }
    }

    /// The state of these marks on `givens`: the other values as entries, the marks of
    /// every open cell written out.
    fn to_state(&self, givens: &[u8]) -> SudokuState {
        let mut state = SudokuState::from_grid(&Grid::from_cells(givens).expect("9x9"));
        for (c, &given) in givens.iter().enumerate() {
            if given == 0 && self.value[c] != 0 {
                assert!(state.set_entry(c / 9, c % 9, self.value[c]));
            } else if self.value[c] == 0 {
                let marks: Vec<u8> = (1..=9).filter(|&v| self.has(c, v)).collect();
                assert!(state.set_marks(c / 9, c % 9, &marks));
            }
        }
        state
    }
}

/// The cell index and value of a step's pair.
fn cell_value(sudoku: &Sudoku, pair: &(cspkit::VarId, i32)) -> (usize, u8) {
    let c = sudoku
        .cells()
        .iter()
        .position(|&v| v == pair.0)
        .expect("a cell");
    (c, pair.1 as u8)
}

/// Checks one hint on `state`: sound against `solution`, and the easiest by this test's
/// solver. Returns its technique.
fn check_hint(
    empty: &Sudoku,
    state: &SudokuState,
    solution: &[u8],
    step: &RatedStep,
) -> HumanTechnique {
    let pencil = Pencil::of(state);
    for pair in &step.placed {
        let (c, v) = cell_value(empty, pair);
        assert_eq!(solution[c], v, "hint {:?} places a wrong value", step.text);
        assert!(
            pencil.has(c, v),
            "hint {:?} places a value the marks exclude",
            step.text
        );
    }
    for pair in &step.removed {
        let (c, v) = cell_value(empty, pair);
        assert_ne!(
            solution[c], v,
            "hint {:?} removes the solution's value",
            step.text
        );
        assert!(
            pencil.has(c, v),
            "hint {:?} removes a value not in the marks",
            step.text
        );
    }
    assert!(
        !step.placed.is_empty() || !step.removed.is_empty(),
        "{:?} does nothing",
        step.text
    );
    let t = step.technique;
    let rating = t.se_rating();
    let single = matches!(
        t,
        HumanTechnique::NakedSingle | HumanTechnique::HiddenSingle
    );
    if pencil.single().is_some() {
        assert!(single, "a single was open, the hint is {:?}", step.text);
    } else {
        assert!(
            !single,
            "the hint {:?} is a single this test does not see",
            step.text
        );
        if !pencil.locked().is_empty() {
            assert!(
                rating <= 2.8,
                "locked candidates were open, the hint is {:?}",
                step.text
            );
        } else if !pencil.naked_pair().is_empty() {
            assert!(
                rating <= 3.0,
                "a naked pair was open, the hint is {:?}",
                step.text
            );
        } else if !pencil.hidden_pair().is_empty() {
            assert!(
                rating <= 3.4,
                "a hidden pair was open, the hint is {:?}",
                step.text
            );
        }
    }
    // The recognisers this test shares with the library must agree on the pattern.
    match t {
        HumanTechnique::Pointing | HumanTechnique::Claiming => {
            assert!(
                !pencil.locked().is_empty(),
                "{:?}: no locked candidates here",
                step.text
            )
        }
        HumanTechnique::NakedSet(2) => {
            assert!(
                !pencil.naked_pair().is_empty(),
                "{:?}: no naked pair here",
                step.text
            )
        }
        HumanTechnique::HiddenSet(2) => {
            assert!(
                !pencil.hidden_pair().is_empty(),
                "{:?}: no hidden pair here",
                step.text
            )
        }
        _ => {}
    }
    t
}

/// The rated sample's puzzles (tests/data/sudoku_se_rated_sample.txt): the givens and the
/// unique solution, found by the solver of the model (not by the techniques).
fn sample() -> Vec<(Vec<u8>, Vec<u8>)> {
    let text = include_str!("../data/sudoku_se_rated_sample.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let puzzle = line.split_whitespace().nth(1).expect("a puzzle");
            let grid = Grid::parse_line(puzzle, 1).expect("a 9x9 puzzle");
            let solved = Sudoku::new(&grid)
                .expect("model")
                .solve()
                .expect("solvable");
            (grid.cells().to_vec(), solved.cells().to_vec())
        })
        .collect()
}

/// A small deterministic generator for the partial progress.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// A state with correct partial progress: about a fifth of the open cells entered with the
/// solution's value, and in half the others the marks written with a third of the wrong
/// candidates struck out.
fn progress(givens: &[u8], solution: &[u8], rng: &mut Lcg) -> SudokuState {
    let mut state = SudokuState::from_grid(&Grid::from_cells(givens).expect("9x9"));
    for c in 0..81 {
        if givens[c] != 0 {
            continue;
        }
        match rng.below(10) {
            0 | 1 => assert!(state.set_entry(c / 9, c % 9, solution[c])),
            2..=6 => {
                let marks: Vec<u8> = (1..=9)
                    .filter(|&v| v == solution[c] || rng.below(3) != 0)
                    .collect();
                assert!(state.set_marks(c / 9, c % 9, &marks));
            }
            _ => {}
        }
    }
    state
}

#[test]
fn hints_from_partial_progress_are_sound_and_the_easiest() {
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let mut rng = Lcg(42);
    let mut checked = 0;
    for (givens, solution) in sample() {
        for _ in 0..3 {
            let state = progress(&givens, &solution, &mut rng);
            let steps = empty.hint_from(&state, &Limits::new()).expect("a hint");
            assert!(steps.mistakes.is_empty(), "{:?}", steps.mistakes);
            assert_eq!(steps.several_solutions, Some(false));
            if let Some(step) = steps.steps.first() {
                check_hint(&empty, &state, &solution, step);
                checked += 1;
            }
        }
    }
    assert!(checked >= 150, "only {checked} hints checked");
}

#[test]
fn where_this_tests_solver_stops_the_hint_is_a_harder_technique_and_sound() {
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let mut beyond_pairs = std::collections::BTreeMap::new();
    for (givens, solution) in sample() {
        let state = SudokuState::from_grid(&Grid::from_cells(&givens).unwrap());
        let mut pencil = Pencil::of(&state);
        pencil.run(&solution);
        let stuck = pencil.to_state(&givens);
        let steps = empty.hint_from(&stuck, &Limits::new()).expect("a hint");
        assert!(steps.mistakes.is_empty(), "{:?}", steps.mistakes);
        let Some(step) = steps.steps.first() else {
            assert!(
                pencil.value.iter().all(|&v| v != 0),
                "no hint on an open grid"
            );
            continue;
        };
        let t = check_hint(&empty, &stuck, &solution, step);
        assert!(
            t.se_rating() > 3.0,
            "{:?} after this test's solver stopped",
            step.text
        );
        *beyond_pairs.entry(t.to_string()).or_insert(0) += 1;
    }
    // The sample's ratings go to 9 and more: fish, wings, chains and nets are hinted.
    let names: Vec<&String> = beyond_pairs.keys().collect();
    assert!(beyond_pairs.len() >= 4, "techniques hinted: {names:?}");
    assert!(
        names
            .iter()
            .any(|n| n.contains("chain") || n.contains("net")),
        "no chain or net hinted: {names:?}"
    );
}

#[test]
fn the_explanation_from_a_state_completes_the_solution() {
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let mut rng = Lcg(7);
    for (givens, solution) in sample().into_iter().step_by(5) {
        let state = progress(&givens, &solution, &mut rng);
        let path = empty.explain_from(&state, &Limits::new()).expect("a path");
        assert!(path.mistakes.is_empty() && path.stopped_by.is_none());
        let mut pencil = Pencil::of(&state);
        for step in &path.steps {
            for pair in &step.removed {
                let (c, v) = cell_value(&empty, pair);
                assert_ne!(solution[c], v, "{:?}", step.text);
                pencil.cand[c] &= !(1 << (v - 1));
            }
            for pair in &step.placed {
                let (c, v) = cell_value(&empty, pair);
                assert_eq!(solution[c], v, "{:?}", step.text);
                pencil.place(c, v);
            }
        }
        assert_eq!(
            pencil.value, solution,
            "the path does not complete the grid"
        );
    }
}

#[test]
fn a_wrong_entry_is_named_with_a_smallest_set_of_givens_that_clash_with_it() {
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    for (givens, solution) in sample().into_iter().take(12) {
        let grid = Grid::from_cells(&givens).unwrap();
        // The first open cell, entered with a value its peers allow but the solution has not.
        let (c, wrong) = (0..81)
            .filter(|&c| givens[c] == 0)
            .flat_map(|c| (1..=9u8).map(move |v| (c, v)))
            .find(|&(c, v)| v != solution[c] && !(0..81).any(|o| same_unit(c, o) && givens[o] == v))
            .expect("a wrong value");
        let mut state = SudokuState::from_grid(&grid);
        assert!(state.set_entry(c / 9, c % 9, wrong));
        let steps = empty.hint_from(&state, &Limits::new()).unwrap();
        assert!(steps.steps.is_empty());
        let [
            Mistake::WrongEntry {
                cell,
                value,
                clash,
                text,
                ..
            },
        ] = &steps.mistakes[..]
        else {
            panic!("{:?}", steps.mistakes)
        };
        assert_eq!((*cell, *value), (empty.cells()[c], i32::from(wrong)));
        let name = format!(
            "r{}c{} = {wrong} contradicts the givens: ",
            c / 9 + 1,
            c % 9 + 1
        );
        assert!(text.starts_with(&name), "{text}");
        // The clash is real, made of givens, and no given of it can go (checked by search).
        let entry = (empty.cells()[c], i32::from(wrong));
        let all: Vec<_> = empty.givens(&grid).collect();
        assert!(clash.iter().all(|p| all.contains(p)));
        let solvable = |clues: Vec<(cspkit::VarId, i32)>| {
            let mut solver = empty.model().solver();
            solver.restart_with(clues).unwrap();
            solver.next_solution().solution().is_some()
        };
        assert!(!solvable(clash.iter().copied().chain([entry]).collect()));
        for k in 0..clash.len() {
            let mut fewer = clash.clone();
            fewer.remove(k);
            assert!(
                solvable(fewer.into_iter().chain([entry]).collect()),
                "{text}"
            );
        }
    }
}

#[test]
fn a_direct_clash_is_named_as_a_pair_and_a_right_entry_is_no_mistake() {
    let empty = Sudoku::new(&Grid::empty(2).unwrap()).unwrap();
    let state = SudokuState::parse("12+4. 34.. 2143 432.").unwrap();
    let steps = empty.explain_from(&state, &Limits::new()).unwrap();
    assert_eq!(
        steps.mistakes[0].text(),
        "r1c3 = 4 contradicts the givens: two 4s in column 3 (r1c3 = 4, r3c3 = 4)"
    );
    let right = SudokuState::parse("12+3. 34.. 2143 432.").unwrap();
    let steps = empty.explain_from(&right, &Limits::new()).unwrap();
    assert!(steps.mistakes.is_empty());
    assert_eq!(steps.steps.len(), 4, "four open cells, four steps");
}

#[test]
fn marks_that_lost_the_solutions_value_are_named_by_cell() {
    let empty = Sudoku::new(&Grid::empty(3).unwrap()).unwrap();
    let (givens, solution) = sample().swap_remove(3);
    let mut state = SudokuState::from_grid(&Grid::from_cells(&givens).unwrap());
    let c = (0..81).rev().find(|&c| givens[c] == 0).unwrap();
    let marks: Vec<u8> = (1..=9).filter(|&v| v != solution[c]).collect();
    assert!(state.set_marks(c / 9, c % 9, &marks));
    let steps = empty.hint_from(&state, &Limits::new()).unwrap();
    let [
        Mistake::LostValue {
            cell, value, text, ..
        },
    ] = &steps.mistakes[..]
    else {
        panic!("{:?}", steps.mistakes)
    };
    assert_eq!(*cell, empty.cells()[c]);
    assert_eq!(*value, i32::from(solution[c]));
    assert!(
        text.starts_with(&format!("r{}c{}: the pencil marks", c / 9 + 1, c % 9 + 1)),
        "{text}"
    );
    assert!(steps.steps.is_empty());
}

#[test]
fn a_puzzle_with_several_solutions_is_flagged_and_marks_keeping_one_are_no_mistake() {
    let empty = Sudoku::new(&Grid::empty(2).unwrap()).unwrap();
    // Columns 3 and 4 of rows 2 and 4 can hold 1 2 or 2 1: two solutions. Marks that keep
    // either are no mistake, and the path follows them.
    for v in [1u8, 2] {
        let text = format!("1 2 3 4\n3 4 [{v}] .\n2 1 4 3\n4 3 . .\n");
        let state = SudokuState::parse(&text).unwrap();
        let steps = empty.explain_from(&state, &Limits::new()).unwrap();
        assert_eq!(steps.several_solutions, Some(true));
        assert!(steps.mistakes.is_empty(), "{:?}", steps.mistakes);
        let r2c3 = empty.cell(1, 2);
        assert!(
            steps
                .steps
                .iter()
                .any(|s| s.placed.contains(&(r2c3, i32::from(v)))),
            "the path keeps to the marks: {:?}",
            steps.steps
        );
    }
    // Marks that keep neither are a mistake.
    let state = SudokuState::parse("1 2 3 4\n3 4 [1] .\n2 1 4 3\n4 3 [1] .\n").unwrap();
    let steps = empty.explain_from(&state, &Limits::new()).unwrap();
    assert!(
        matches!(steps.mistakes[..], [Mistake::LostValue { .. }]),
        "{:?}",
        steps.mistakes
    );
}

#[test]
fn parse_errors_name_the_line_and_column() {
    let cases = [
        ("1 2 3 4\n3 x 1 2\n", (2, 3), "'x'"),
        ("1 2 3 4\n3 4 [12 .\n", (2, 5), "not closed"),
        ("1 2 3 4\n3 4 [] .\n", (2, 5), "empty pencil marks"),
        ("1 2 3 4\n+ 4 1 2\n", (2, 1), "'+'"),
        ("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 9\n", (4, 7), "value 9"),
        ("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 [15] 1\n", (4, 5), "value 5"),
        ("1 2 3\n", (1, 5), "3 cells"),
        ("", (1, 1), "empty"),
        ("# only a comment\n", (1, 1), "empty"),
    ];
    for (text, (line, column), words) in cases {
        let error = SudokuState::parse(text).expect_err(text);
        assert_eq!(
            (error.line, error.column),
            (line, column),
            "{text:?}: {error}"
        );
        assert!(error.to_string().contains(words), "{text:?}: {error}");
    }
    // A sukaku cell without candidates, and a candidate out of its place.
    let mut sukaku = "123456789".repeat(81);
    sukaku.replace_range(9..18, ".........");
    let error = SudokuState::parse(&sukaku).unwrap_err();
    assert_eq!((error.line, error.column), (1, 10), "{error}");
    assert!(
        error.to_string().contains("r1c2 has no candidate"),
        "{error}"
    );
    let mut sukaku = "123456789".repeat(81);
    sukaku.replace_range(0..2, "21");
    let error = SudokuState::parse(&sukaku).unwrap_err();
    assert_eq!((error.line, error.column), (1, 1), "{error}");
}

#[test]
fn states_round_trip_through_both_formats_and_every_size() {
    let mut rng = Lcg(3);
    for (givens, solution) in sample().into_iter().take(10) {
        let state = progress(&givens, &solution, &mut rng);
        let (back, format) = SudokuState::parse_as(&state.to_string()).unwrap();
        assert_eq!((back, format), (state.clone(), StateFormat::State));
        // Sukaku, written by this test from its own marks (cells with one candidate placed
        // first, so that no peer keeps a filled cell's value): read and written again, the
        // same 729 characters, with the same marks and filled cells.
        let mut pencil = Pencil::of(&state);
        while let Some(c) =
            (0..81).find(|&c| pencil.value[c] == 0 && pencil.cand[c].count_ones() == 1)
        {
            pencil.place(c, pencil.cand[c].trailing_zeros() as u8 + 1);
        }
        let sukaku: String = (0..81)
            .flat_map(|c| (1..=9u8).map(move |v| (c, v)))
            .map(|(c, v)| {
                if pencil.value[c] == v || pencil.has(c, v) {
                    sym(v)
                } else {
                    '.'
                }
            })
            .collect();
        let (read, format) = SudokuState::parse_as(&sukaku).unwrap();
        assert_eq!(format, StateFormat::Sukaku);
        assert_eq!(read.to_sukaku().trim_end(), sukaku);
        for c in 0..81 {
            let (r, k) = (c / 9, c % 9);
            let marks: Vec<u8> = (1..=9).filter(|&v| pencil.has(c, v)).collect();
            match pencil.value[c] {
                0 => assert_eq!(read.marks(r, k), Some(marks)),
                v => assert_eq!(read.given(r, k), v),
            }
        }
    }
    // 16x16 and 25x25: symbols A-P, marks as symbols or comma-separated numbers.
    for b in [2usize, 4, 5] {
        let n = b * b;
        let mut state = SudokuState::from_grid(&Grid::empty(b).unwrap());
        assert!(state.set_entry(0, 1, n as u8));
        assert!(state.set_marks(n - 1, n - 1, &[1, n as u8 - 1, n as u8]));
        let text = state.to_string();
        assert_eq!(SudokuState::parse(&text).unwrap(), state, "{n}x{n}");
        let numbers = text.replacen(
            &format!(
                "[{}]",
                state
                    .marks(n - 1, n - 1)
                    .unwrap()
                    .iter()
                    .map(|&v| sym(v))
                    .collect::<String>()
            ),
            &format!("[1,{},{}]", n - 1, n),
            1,
        );
        assert_eq!(SudokuState::parse(&numbers).unwrap(), state, "{numbers}");
        let read = SudokuState::parse(&state.to_sukaku()).unwrap();
        assert_eq!(read.side(), n);
    }
}

fn sym(v: u8) -> char {
    if v <= 9 {
        char::from(b'0' + v)
    } else {
        char::from(b'A' + v - 10)
    }
}

#[test]
fn box_rules_comments_and_bars_are_read_as_a_person_writes_them() {
    let text = "# a 4x4 state\n1 . | . 4\n. [23] | 1 .\n------+------\n. 1 | +4 .\n4 . | . .\n";
    let state = SudokuState::parse(text).unwrap();
    assert_eq!(
        state.to_string(),
        "1 . . 4\n. [23] 1 .\n. 1 +4 .\n4 . . .\n"
    );
    assert_eq!(state.givens().cells()[..4], [1, 0, 0, 4]);
    assert_eq!(state.filled().cells()[10], 4);
}
