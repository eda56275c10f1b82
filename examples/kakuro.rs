//! Kakuro: fill the white cells with digits 1 to 9 so that each run of white cells (across or
//! down) adds up to its clue, without repeating a digit.
//!
//! Run with `cargo run --release --example kakuro`.

use std::collections::BTreeMap;

use cspkit::{AllDifferent, Comparison, Linear, Model, ModelError, VarId};

/// The grid: `#` is a black cell, `.` a white one.
///
/// The example puzzle of Wikipedia's "Kakuro" article (image `Kakuro_black_box.svg`).
pub const GRID: [&str; 7] = [
    "..##...", "..#....", ".....##", "#..#..#", "##.....", "....#..", "...##..",
];
/// The clue of each run across, in reading order.
pub const ACROSS: [i64; 12] = [16, 24, 17, 29, 35, 7, 8, 16, 21, 5, 6, 3];
/// The clue of each run down, column by column, top to bottom.
pub const DOWN: [i64; 12] = [23, 11, 30, 10, 15, 17, 7, 27, 12, 12, 16, 7];

/// A run of white cells: their `(row, column)`s.
pub type Run = Vec<(usize, usize)>;

/// The runs of two white cells or more: across in reading order, then down column by column,
/// the order of the clues in [`ACROSS`] and [`DOWN`].
pub fn runs() -> Vec<Run> {
    let (rows, cols) = (GRID.len(), GRID[0].len());
    let across = (0..rows).map(|r| (0..cols).map(|c| (r, c)).collect::<Run>());
    let down = (0..cols).map(|c| (0..rows).map(|r| (r, c)).collect::<Run>());
    let mut runs = Vec::new();
    for line in across.chain(down) {
        let white = |&(r, c): &(usize, usize)| GRID[r].as_bytes()[c] == b'.';
        for run in line.split(|cell| !white(cell)).filter(|run| run.len() >= 2) {
            runs.push(run.to_vec());
        }
    }
    runs
}

/// The variable of each white cell, by `(row, column)`.
pub type Cells = BTreeMap<(usize, usize), VarId>;

/// The model, and the variables of the white cells.
pub fn model() -> Result<(Model, Cells), ModelError> {
    let mut model = Model::new();
    let mut cells = BTreeMap::new();
    for (r, line) in GRID.iter().enumerate() {
        for (c, _) in line.match_indices('.') {
            cells.insert(
                (r, c),
                model.new_named_var(format!("cell[{r}][{c}]"), 1..=9)?,
            );
        }
    }
    for (run, clue) in runs().iter().zip(ACROSS.into_iter().chain(DOWN)) {
        let vars: Vec<VarId> = run.iter().map(|cell| cells[cell]).collect();
        model.post(Linear::sum(&vars, Comparison::Eq, clue))?;
        model.post(AllDifferent::new(&vars))?;
    }
    Ok((model, cells))
}

fn main() -> Result<(), ModelError> {
    let (model, cells) = model()?;
    let mut solver = model.solver();
    let Some(solution) = solver.next_solution().solution() else {
        println!("no solution");
        return Ok(());
    };
    for (r, line) in GRID.iter().enumerate() {
        let digits: String = (0..line.len())
            .map(|c| cells.get(&(r, c)).map_or('#', |&var| digit(solution[var])))
            .collect();
        println!("{digits}");
    }
    let stats = solver.stats();
    println!("{} decisions, {:?}", stats.decisions, stats.elapsed);
    Ok(())
}

/// The character of a digit 1 to 9.
fn digit(value: i32) -> char {
    u32::try_from(value)
        .ok()
        .and_then(|v| char::from_digit(v, 10))
        .unwrap_or('?')
}
