//! The Sudoku tools of `cspkit sudoku --generate | --grade | --explain | --hint | --why`,
//! over the library's puzzle module: a grid goes in as its cells (0 for an empty one), row
//! by row; each search is bounded by a decision limit, the whole task by a time limit and
//! Ctrl-C.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cspkit::Limit;
use cspkit::models::sudoku::{Grid, GridFormat, Sudoku};
use cspkit::puzzle::{
    Difficulty, GenerateError, Generator, GradeError, Limits, Step, WhyError,
    minimal_conflict_within,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::raised;
use crate::views::off_the_gil;

/// Decisions each search of a task may take unless told (the command line's default).
const DECISION_LIMIT: u64 = 1_000_000;

/// The grid of `cells` (row by row, 0 for an empty cell) and the model of the empty grid of
/// its size, on which the tools cite the givens as clues.
fn grid_and_empty(cells: &[u8]) -> PyResult<(Grid, Sudoku)> {
    let grid = Grid::from_cells(cells).ok_or_else(|| {
        raised(format!(
            "a Sudoku grid has N x N cells for N = 4, 9, 16, 25 or 36, each 0 (empty) to N: \
             got {} cells",
            cells.len()
        ))
    })?;
    let empty = Grid::empty(grid.box_size())
        .map(|g| Sudoku::new(&g))
        .and_then(Result::ok)
        .ok_or_else(|| raised("cannot build the model of an empty grid of this size"))?;
    Ok((grid, empty))
}

/// The limits of a task: `decision_limit` for each search, `time_limit` seconds for the
/// whole, and the flag Ctrl-C raises.
fn limits(decision_limit: u64, time_limit: Option<f64>, cancel: Arc<AtomicBool>) -> Limits {
    let limits = Limits::new()
        .with_decision_limit(decision_limit)
        .with_cancel_flag(cancel);
    match time_limit {
        Some(seconds) => limits.with_time_limit(Duration::from_secs_f64(seconds)),
        None => limits,
    }
}

/// `time_limit`, checked: a non-negative number of seconds.
fn seconds(time_limit: Option<f64>) -> PyResult<Option<f64>> {
    match time_limit {
        Some(s) if !(s.is_finite() && s >= 0.0) => Err(raised(format!(
            "time_limit: expected a non-negative number of seconds, got {s}"
        ))),
        other => Ok(other),
    }
}

/// Givens that clash: each as (0-based row, column, value), whether the set is proved
/// minimal, and the lines `--why` prints.
type Clash = (Vec<(usize, usize, i32)>, bool, Vec<String>);

/// A limit in words, naming the keyword that set it.
fn limit_words(limit: Limit) -> String {
    match limit {
        Limit::Time => "time limit reached, time_limit".to_owned(),
        Limit::Decisions => "decision limit reached, decision_limit".to_owned(),
        Limit::Cancelled => "interrupted".to_owned(),
        other => other.to_string(),
    }
}

/// A puzzle with one solution, as `cspkit sudoku --generate` makes it (with the same seed,
/// the same puzzle): the grid on one line, `.` for an empty cell.
#[pyfunction]
#[pyo3(signature = (size, clues, difficulty, symmetric, seed, decision_limit, time_limit))]
#[allow(
    clippy::too_many_arguments,
    reason = "the keywords of the Python function, one each"
)]
pub fn sudoku_generate(
    py: Python<'_>,
    size: usize,
    clues: Option<usize>,
    difficulty: Option<String>,
    symmetric: bool,
    seed: u64,
    decision_limit: Option<u64>,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let box_size = (2..=5)
        .find(|b| b * b == size)
        .ok_or_else(|| raised(format!("size {size}: a Sudoku has 4, 9, 16 or 25 rows")))?;
    if let Some(clues) = clues
        && !(1..=size * size).contains(&clues)
    {
        return Err(raised(format!(
            "clues {clues}: a {size}x{size} grid has {} cells; clues must be 1 to {}",
            size * size,
            size * size
        )));
    }
    let difficulty = match difficulty.as_deref() {
        None => None,
        Some("easy" | "forward") => Some(Difficulty::Forward),
        Some("medium" | "full") => Some(Difficulty::Full),
        Some("hard" | "search") => Some(Difficulty::Search),
        Some(other) => {
            return Err(raised(format!(
                "difficulty {other:?}: the difficulties are easy, medium, hard"
            )));
        }
    };
    let time_limit = seconds(time_limit)?;
    let answer = off_the_gil(py, move |cancel| {
        let empty = Grid::empty(box_size)
            .map(|g| Sudoku::new(&g))
            .and_then(Result::ok)
            .ok_or_else(|| "cannot build the model of an empty grid of this size".to_owned())?;
        let cells = empty.cells().to_vec();
        // As the command line: a uniqueness check of a large grid may take fewer decisions
        // (it keeps its clue when it reaches them), and puzzle 0 of seed `s` is drawn with
        // seed `s·2³²`.
        let check_limit = match size {
            25 => 100,
            16 => 10_000,
            _ => DECISION_LIMIT,
        };
        let mut generator = Generator::new(empty.model(), &cells)
            .with_seed(seed.wrapping_shl(32))
            .with_decision_limit(decision_limit.unwrap_or(DECISION_LIMIT))
            .with_check_decision_limit(decision_limit.unwrap_or(check_limit))
            .with_cancel_flag(cancel);
        if let Some(seconds) = time_limit {
            generator = generator.with_time_limit(Duration::from_secs_f64(seconds));
        }
        if symmetric {
            let orbits: Vec<Vec<_>> = (0..cells.len())
                .map(|i| vec![cells[i], cells[cells.len() - 1 - i]])
                .collect();
            generator = generator.with_symmetry(&orbits);
        }
        if let Some(clues) = clues {
            generator = generator.with_target_clues(clues);
        }
        if let Some(difficulty) = difficulty {
            generator = generator.with_difficulty(difficulty);
        }
        match generator.generate() {
            Ok(puzzle) => empty
                .grid_of_clues(&puzzle.clues)
                .to_text(GridFormat::Line)
                .map_err(|e| e.to_string()),
            Err(GenerateError::LimitReached(limit)) => Err(format!(
                "generate stopped ({}): no puzzle",
                limit_words(limit)
            )),
            Err(error) => Err(error.to_string()),
        }
    })?;
    answer
        .map(|text| text.trim_end().to_owned())
        .map_err(raised)
}

/// The grade of the puzzle `cells`, as `--grade` prints it: a dict of `difficulty`
/// (`given`, `forward`, `full`, `search`), `hardest` (technique, or None), `rounds`,
/// `decisions`, `guesses`, `techniques` ({name: count}, easiest first) and `unique` (True,
/// False, or None when a limit stopped the count).
#[pyfunction]
#[pyo3(signature = (cells, decision_limit, time_limit))]
pub fn sudoku_grade<'py>(
    py: Python<'py>,
    cells: Vec<u8>,
    decision_limit: u64,
    time_limit: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let (grid, empty) = grid_and_empty(&cells)?;
    let time_limit = seconds(time_limit)?;
    let (graded, rated) = off_the_gil(py, move |cancel| {
        let limits = limits(decision_limit, time_limit, cancel);
        let graded = empty.grade_within(&grid, &limits);
        // The rating by human techniques, on grids up to 9x9, as `--grade` gives it.
        let rated = (graded.is_ok() && grid.side() <= 9).then(|| empty.rate_within(&grid, &limits));
        (graded, rated)
    })?;
    let graded = match graded {
        Ok(graded) => graded,
        Err(GradeError::NoSolution) => {
            return Err(raised(
                "the puzzle has no solution (why() says which givens clash)",
            ));
        }
        Err(GradeError::LimitReached(limit)) => {
            return Err(raised(format!(
                "grade stopped ({}): no grade",
                limit_words(limit)
            )));
        }
        Err(error) => return Err(raised(error)),
    };
    let dict = PyDict::new(py);
    dict.set_item("difficulty", graded.grade.difficulty.name())?;
    dict.set_item("hardest", graded.hardest.map(|t| t.to_string()))?;
    dict.set_item("rounds", graded.grade.rounds)?;
    dict.set_item("decisions", graded.grade.decisions)?;
    dict.set_item("guesses", graded.guesses)?;
    let techniques = PyDict::new(py);
    for (technique, count) in &graded.techniques {
        techniques.set_item(technique.to_string(), count)?;
    }
    dict.set_item("techniques", techniques)?;
    dict.set_item("unique", graded.several_solutions.map(|several| !several))?;
    match rated {
        Some(Ok(rating)) => {
            dict.set_item("rating", rating.rating)?;
            dict.set_item("rating_hardest", rating.hardest.map(|t| t.to_string()))?;
            dict.set_item("level", rating.level.to_string())?;
        }
        Some(Err(GradeError::LimitReached(limit))) => {
            return Err(raised(format!(
                "grade stopped ({}): no rating",
                limit_words(limit)
            )));
        }
        Some(Err(error)) => return Err(raised(error)),
        None => {
            dict.set_item("rating", py.None())?;
            dict.set_item("rating_hardest", py.None())?;
            dict.set_item("level", py.None())?;
        }
    }
    Ok(dict)
}

/// The lines of a solving path of the puzzle `cells`, as `--explain` prints them (guessing
/// from the solution when no deduction is left, if `guesses`; `--hint` prints the first line
/// of the path without guesses), and whether the puzzle has no solution.
///
/// # Errors
///
/// `CspkitError` when a limit stopped the path or the search: whether the puzzle has a
/// solution is then not known.
#[pyfunction]
#[pyo3(signature = (cells, guesses, decision_limit, time_limit))]
pub fn sudoku_explain(
    py: Python<'_>,
    cells: Vec<u8>,
    guesses: bool,
    decision_limit: u64,
    time_limit: Option<f64>,
) -> PyResult<(Vec<String>, bool)> {
    let (grid, empty) = grid_and_empty(&cells)?;
    let time_limit = seconds(time_limit)?;
    let explained = off_the_gil(py, move |cancel| {
        empty.explain_within(&grid, guesses, &limits(decision_limit, time_limit, cancel))
    })?
    .map_err(raised)?;
    if let Some(limit) = explained.stopped_by() {
        return Err(raised(format!(
            "explain stopped ({}): whether the puzzle has a solution is not known",
            limit_words(limit)
        )));
    }
    let lines = explained.path.iter().map(|d| d.text.clone()).collect();
    Ok((lines, explained.no_solution()))
}

/// The line of the solving path of the puzzle `cells` that places the cell at `row`, `col`
/// (0-based), or None for a given (or a path that ends before it).
#[pyfunction]
#[pyo3(signature = (cells, row, col, decision_limit, time_limit))]
pub fn sudoku_why_cell(
    py: Python<'_>,
    cells: Vec<u8>,
    row: usize,
    col: usize,
    decision_limit: u64,
    time_limit: Option<f64>,
) -> PyResult<Option<String>> {
    let (grid, empty) = grid_and_empty(&cells)?;
    let side = grid.side();
    if row >= side || col >= side {
        return Err(raised(format!(
            "cell ({}, {}): the grid has rows and columns 1 to {side}",
            row + 1,
            col + 1
        )));
    }
    if grid.get(row, col) != 0 {
        return Ok(None);
    }
    let cell = empty.cell(row, col);
    let time_limit = seconds(time_limit)?;
    let explained = off_the_gil(py, move |cancel| {
        empty.explain_within(&grid, true, &limits(decision_limit, time_limit, cancel))
    })?
    .map_err(raised)?;
    let placed = explained.path.iter().find(|d| match &d.step {
        Step::OnlyValue { var, .. } | Step::Forced { var, .. } | Step::Guess { var, .. } => {
            *var == cell
        }
        _ => false,
    });
    match (placed, explained.stopped_by()) {
        (Some(deduction), _) => Ok(Some(deduction.text.clone())),
        (None, Some(limit)) => Err(raised(format!(
            "why stopped ({}) before the path placed the cell",
            limit_words(limit)
        ))),
        (None, None) => Ok(None),
    }
}

/// The givens of the puzzle `cells` that clash, as `--why` finds them: None when the puzzle
/// has a solution; else the givens (0-based row, column, value), whether the set is proved
/// minimal, and the lines `--why` prints.
#[pyfunction]
#[pyo3(signature = (cells, decision_limit, time_limit))]
pub fn sudoku_why(
    py: Python<'_>,
    cells: Vec<u8>,
    decision_limit: u64,
    time_limit: Option<f64>,
) -> PyResult<Option<Clash>> {
    let (grid, empty) = grid_and_empty(&cells)?;
    let time_limit = seconds(time_limit)?;
    let answer = off_the_gil(py, move |cancel| {
        let clues: Vec<_> = empty.givens(&grid).collect();
        let limits = limits(decision_limit, time_limit, cancel);
        let conflict = match minimal_conflict_within(empty.model(), &clues, &limits) {
            Ok(conflict) => conflict,
            Err(WhyError::Solvable) => return Ok(None),
            Err(WhyError::LimitReached(limit)) => {
                return Err(format!(
                    "why stopped ({}): whether the puzzle has a solution is not known",
                    limit_words(limit)
                ));
            }
            Err(error) => return Err(error.to_string()),
        };
        let side = grid.side();
        let givens = conflict
            .assumptions
            .iter()
            .filter_map(|&i| clues.get(i))
            .filter_map(|&(var, value)| {
                let index = empty.cells().iter().position(|&c| c == var)?;
                Some((index / side, index % side, value))
            })
            .collect();
        let minimal = conflict.minimal && conflict.stopped_by.is_none();
        Ok(Some((
            givens,
            minimal,
            empty.conflict_lines(&clues, &conflict),
        )))
    })?;
    answer.map_err(raised)
}
