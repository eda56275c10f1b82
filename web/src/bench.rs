//! The benchmark's workloads, the same code natively and in WebAssembly (see `web/bench/`):
//! the solutions of N-Queens counted with the CLI's defaults (`cspkit queens N --count`), and
//! the Sudoku workload of `bench/run.sh` (`workloads sudoku FILE --mode lex`): one model of the
//! empty 9x9 grid, one solver restarted with each puzzle's givens, the lexicographically
//! smallest solution at full propagation.

use cspkit::models::queens::Queens;
use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::{Outcome, PropagationLevel};
use serde_json::{Value, json};

use crate::error::{WebError, What};

/// Counts the solutions of `n` queens as `cspkit queens N --count` does: the solutions and
/// the decisions.
///
/// # Errors
///
/// A board size the model refuses.
pub fn queens_count(n: usize) -> Result<Value, WebError> {
    let queens = Queens::new(n).map_err(|e| WebError::new(What::Model, e.to_string()))?;
    let mut solver = queens
        .model()
        .solver()
        .with_propagation(Queens::DEFAULT_PROPAGATION);
    let count = solver.count();
    Ok(json!({"solutions": count.solutions, "nodes": solver.stats().decisions}))
}

/// Solves the first `limit` puzzles of `text` (one 81-character puzzle a line) as the Sudoku
/// workload does: the puzzles solved, the decisions, and the sum of the solutions' digits
/// (a checksum that the native and WebAssembly runs compare).
///
/// # Errors
///
/// A malformed line (with its line number).
pub fn sudoku_workload(text: &str, limit: usize) -> Result<Value, WebError> {
    let grid = Grid::empty(3).ok_or_else(|| WebError::new(What::Model, "no empty 9x9 grid"))?;
    let empty = Sudoku::new(&grid).map_err(|e| WebError::new(What::Model, e.to_string()))?;
    let mut solver = empty
        .model()
        .solver()
        .with_propagation(PropagationLevel::Full);
    let (mut puzzles, mut solved, mut nodes, mut checksum) = (0u64, 0u64, 0u64, 0u64);
    for (index, line) in text.lines().enumerate() {
        if puzzles as usize >= limit {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let grid = Grid::parse_line(line.trim(), index + 1)
            .map_err(|e| WebError::located(What::Model, e.to_string()))?;
        solver
            .restart_with(empty.givens(&grid))
            .map_err(|e| WebError::new(What::Model, e.to_string()))?;
        puzzles += 1;
        if let Outcome::Solved(solution) = solver.next_solution() {
            solved += 1;
            checksum += solution.values().iter().map(|&v| v as u64).sum::<u64>();
        }
        nodes += solver.stats().decisions;
    }
    Ok(json!({"puzzles": puzzles, "solved": solved, "nodes": nodes, "checksum": checksum}))
}
