//! A closed knight's tour: a knight visits every square of the board once and returns to its
//! first square. One variable per square, its successor on the tour, constrained to the squares
//! a knight's move away; [`Circuit`] makes the successors one cycle through all squares.
//!
//! Smallest domain first is Warnsdorff's rule (go where the fewest moves remain), which finds
//! tours without backtracking on most boards.
//!
//! Run with `cargo run --release --example knights_tour [ROWS] [COLUMNS]` (6 × 6 by default).

use cspkit::{Circuit, Model, ModelError, SmallestDomain, Solution, VarId};

/// The squares a knight's move from `(row, column)`, as indices `row · columns + column`.
pub fn moves(rows: usize, columns: usize, row: usize, column: usize) -> Vec<i32> {
    const JUMPS: [(i64, i64); 8] = [
        (-2, -1),
        (-2, 1),
        (-1, -2),
        (-1, 2),
        (1, -2),
        (1, 2),
        (2, -1),
        (2, 1),
    ];
    let mut squares: Vec<i32> = JUMPS
        .iter()
        .map(|&(dr, dc)| (row as i64 + dr, column as i64 + dc))
        .filter(|&(r, c)| (0..rows as i64).contains(&r) && (0..columns as i64).contains(&c))
        .map(|(r, c)| (r * columns as i64 + c) as i32)
        .collect();
    squares.sort_unstable();
    squares
}

/// The model: `next[s]` is the square after square `s` on the tour.
pub fn model(rows: usize, columns: usize) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let mut next = Vec::with_capacity(rows * columns);
    for row in 0..rows {
        for column in 0..columns {
            let name = format!("next of {}{}", (b'a' + column as u8) as char, row + 1);
            next.push(model.new_named_var(name, moves(rows, columns, row, column))?);
        }
    }
    model.post(Circuit::new(&next))?;
    Ok((model, next))
}

/// The board with each square's step number on the tour, from square 0 at step 1.
pub fn board(solution: &Solution, next: &[VarId], columns: usize) -> Vec<Vec<usize>> {
    let mut steps = vec![0; next.len()];
    let mut square = 0;
    for step in 1..=next.len() {
        steps[square] = step;
        square = solution[next[square]] as usize;
    }
    steps.chunks(columns).map(<[usize]>::to_vec).collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut size = |default: usize| -> Result<usize, String> {
        match args.next() {
            Some(arg) => arg.parse().map_err(|_| format!("not a board size: {arg}")),
            None => Ok(default),
        }
    };
    let rows = size(6)?;
    let columns = size(rows)?;
    if rows * columns < 2 || rows > 30 || columns > 30 {
        return Err(format!("a board from 1 × 2 to 30 × 30, not {rows} × {columns}").into());
    }
    let (model, next) = model(rows, columns)?;
    let mut solver = model.solver().with_variable_order(SmallestDomain);
    match solver.next_solution().solution() {
        Some(solution) => {
            for row in board(&solution, &next, columns) {
                let cells: Vec<String> = row.iter().map(|s| format!("{s:>3}")).collect();
                println!("{}", cells.join(""));
            }
            println!("{} nodes", solver.stats().decisions);
        }
        None => println!("no closed tour on a {rows} × {columns} board"),
    }
    Ok(())
}
