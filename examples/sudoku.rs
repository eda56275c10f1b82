//! Solve a Sudoku with the library: build the model, solve, print.
//!
//! Run with `cargo run --release --example sudoku`.

use cspkit::models::sudoku::{Grid, GridFormat, Sudoku};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The Baekjoon 2239 example; 0 is an empty cell.
    let puzzle = Grid::parse(
        "103000509\n002109400\n000704000\n300502006\n060000050\n\
         700803004\n000401000\n009205800\n804000107\n",
        None,
    )?;

    // One variable per cell, AllDifferent on every row, column and box, givens fixed.
    let sudoku = Sudoku::new(&puzzle)?;

    // Default strategy: row by row, smallest value first, full propagation,
    // so the first solution is the lexicographically smallest one.
    let mut solver = sudoku.model().solver();
    match solver.next_solution().solution() {
        Some(solution) => print!(
            "{}",
            sudoku.grid_of(&solution).to_text(GridFormat::Compact)?
        ),
        None => println!("no solution"),
    }
    println!("{} decisions", solver.stats().decisions);
    Ok(())
}
