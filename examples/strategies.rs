//! Compare search strategies on one Sudoku: the same answer count, very different trees.
//!
//! Run with `cargo run --release --example strategies`. Each line solves the puzzle with one
//! variable order and one propagation level and counts the solutions up to 2 (to prove the
//! answer unique), printing the search statistics.

use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::{InputOrder, PropagationLevel, SmallestDomain, VariableOrder};

/// A puzzle that defeats plain backtracking in row order, in the line format: the second
/// puzzle of the "forum hardest 1106" collection (Enjoy Sudoku Players Forum, "The hardest
/// sudokus" thread, as redistributed in the tdoku benchmark suite).
const PUZZLE: &str =
    "........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sudoku = Sudoku::new(&Grid::parse(PUZZLE, None)?)?;
    println!(
        "{:<16} {:<8} {:>10} {:>10} {:>12}",
        "order", "level", "decisions", "failures", "time"
    );
    for level in [
        PropagationLevel::None,
        PropagationLevel::Forward,
        PropagationLevel::Full,
    ] {
        compare(&sudoku, "input order", InputOrder, level);
        compare(&sudoku, "smallest domain", SmallestDomain, level);
    }
    Ok(())
}

fn compare(sudoku: &Sudoku, name: &str, order: impl VariableOrder, level: PropagationLevel) {
    // Plain backtracking can take minutes here: stop it after a million decisions.
    let mut solver = sudoku
        .model()
        .solver()
        .with_variable_order(order)
        .with_propagation(level)
        .with_decision_limit(1_000_000);
    let count = solver.count_up_to(2);
    let stats = solver.stats();
    let outcome = match (count.is_exact(), count.solutions) {
        (true, 1) => "unique",
        (true, _) => "not unique",
        (false, _) => "decision limit reached",
    };
    println!(
        "{name:<16} {:<8} {:>10} {:>10} {:>10.1?}  {outcome}",
        format!("{level:?}"),
        stats.decisions,
        stats.failures,
        stats.elapsed,
    );
}
