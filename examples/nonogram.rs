//! A Nonogram: shade cells so that each row and column shows its blocks of shaded cells, in
//! order, with at least one empty cell between blocks. Each row and column is a [`Regular`]
//! constraint over the automaton of its clue ([`Dfa::blocks`]).
//!
//! Run with `cargo run --release --example nonogram`.

use cspkit::{Dfa, Model, ModelError, Regular, VarId};

/// The row clues of the example puzzle of problem 98 of the "Ninety-Nine Haskell Problems"
/// (9 rows, 8 columns), whose solution is printed there as a picture.
pub const ROWS: [&[usize]; 9] = [
    &[3],
    &[2, 1],
    &[3, 2],
    &[2, 2],
    &[6],
    &[1, 5],
    &[6],
    &[1],
    &[2],
];
/// Its column clues.
pub const COLUMNS: [&[usize]; 8] = [&[1, 2], &[3, 1], &[1, 5], &[7, 1], &[5], &[3], &[4], &[3]];

/// The model of a Nonogram: one 0/1 variable per cell (1 shaded), a [`Regular`] per line.
pub fn model(
    rows: &[&[usize]],
    columns: &[&[usize]],
) -> Result<(Model, Vec<Vec<VarId>>), ModelError> {
    let mut model = Model::new();
    let grid = model.new_grid("cell", rows.len(), columns.len(), 0..=1)?;
    for (r, clue) in rows.iter().enumerate() {
        model.post_named(
            format!("row {}", r + 1),
            Regular::new(&grid[r], Dfa::blocks(clue)),
        )?;
    }
    for (c, clue) in columns.iter().enumerate() {
        let column: Vec<VarId> = grid.iter().map(|row| row[c]).collect();
        model.post_named(
            format!("column {}", c + 1),
            Regular::new(&column, Dfa::blocks(clue)),
        )?;
    }
    Ok((model, grid))
}

/// The picture of a solution: `#` shaded, `.` empty, one line per row.
pub fn picture(solution: &cspkit::Solution, grid: &[Vec<VarId>]) -> String {
    grid.iter()
        .map(|row| {
            row.iter()
                .map(|&cell| if solution[cell] == 1 { '#' } else { '.' })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (model, grid) = model(&ROWS, &COLUMNS)?;
    let mut solver = model.solver();
    let solution = solver
        .next_solution()
        .solution()
        .ok_or("no picture fits the clues")?;
    println!("{}", picture(&solution, &grid));
    println!("{} nodes", solver.stats().decisions);
    Ok(())
}
