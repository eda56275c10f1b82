//! Skyscrapers: fill an n × n grid with heights 1 to n, each once per row and column, so that
//! from each edge the clue counts the buildings seen (a taller one hides those behind it).
//!
//! From one side, building `i` is seen when it is the tallest so far: with `top[i]` the
//! [`Model::max`] of the first `i + 1` heights, `seen[i] ⇔ height[i] = top[i]`
//! ([`Model::reify`]), and the clue is the number of `seen` that are true
//! ([`Model::exactly`]).
//!
//! Run with `cargo run --release --example skyscrapers`.

use cspkit::{AllDifferent, LinearExpr, Model, ModelError, VarId};

/// The example puzzle of the walkthrough "How to Solve a 4×4 Skyscraper Puzzle, Step by
/// Step" (The Puzzle Labs): the clues from the top (left to right), the bottom, the left (top
/// to bottom) and the right. 0 means no clue.
pub const TOP: [usize; 4] = [3, 2, 1, 2];
/// From the bottom.
pub const BOTTOM: [usize; 4] = [1, 2, 3, 2];
/// From the left.
pub const LEFT: [usize; 4] = [2, 2, 4, 1];
/// From the right.
pub const RIGHT: [usize; 4] = [2, 2, 1, 4];

/// Posts "from the start of `line`, exactly `clue` buildings are seen".
pub fn post_clue(model: &mut Model, line: &[VarId], clue: usize) -> Result<(), ModelError> {
    if clue == 0 {
        return Ok(());
    }
    let mut seen = Vec::with_capacity(line.len());
    for i in 0..line.len() {
        let top = model.max(&line[..=i])?;
        seen.push(model.reify(LinearExpr::from(line[i]).eq(top))?);
    }
    model.exactly(clue as i64, &seen)
}

/// The model of an n × n puzzle with clues from the top, bottom, left and right.
pub fn model(
    top: &[usize],
    bottom: &[usize],
    left: &[usize],
    right: &[usize],
) -> Result<(Model, Vec<Vec<VarId>>), ModelError> {
    let n = top.len();
    let mut model = Model::new();
    let grid = model.new_grid("h", n, n, 1..=n as i32)?;
    let column = |c: usize| -> Vec<VarId> { grid.iter().map(|row| row[c]).collect() };
    for i in 0..n {
        model.post(AllDifferent::new(&grid[i]))?;
        model.post(AllDifferent::new(&column(i)))?;
        let mut row = grid[i].clone();
        post_clue(&mut model, &row, left[i])?;
        row.reverse();
        post_clue(&mut model, &row, right[i])?;
        let mut col = column(i);
        post_clue(&mut model, &col, top[i])?;
        col.reverse();
        post_clue(&mut model, &col, bottom[i])?;
    }
    Ok((model, grid))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (model, grid) = model(&TOP, &BOTTOM, &LEFT, &RIGHT)?;
    let mut solver = model.solver();
    let solution = solver
        .next_solution()
        .solution()
        .ok_or("no grid fits the clues")?;
    for row in &grid {
        let heights: Vec<String> = row.iter().map(|&h| solution[h].to_string()).collect();
        println!("{}", heights.join(" "));
    }
    println!("{} nodes", solver.stats().decisions);
    Ok(())
}
