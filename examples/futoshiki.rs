//! Futoshiki in Rust: the puzzle of `samples/minizinc/futoshiki.mzn` and its data, written with
//! the library's API, for the tutorial's chapter "Your own puzzle". Fill an n × n grid with
//! 1 to n, each once per row and column, keeping the given numbers, so that each sign `<`
//! between two neighbouring cells holds.
//!
//! The model is the MiniZinc one constraint for constraint: an [`AllDifferent`] per row and
//! per column, a [`LinearExpr::lt`] per sign, the givens as fixed domains; the variables are
//! named `x[i,j]`, from 1, as MiniZinc names an array's elements. Searched in the same order
//! (row by row, the smallest value first), it makes the same decisions as
//! `cspkit mzn samples/minizinc/futoshiki.mzn samples/minizinc/futoshiki.dzn`, which
//! `tests/cli/mzn.rs` checks.
//!
//! Run with `cargo run --release --example futoshiki` for the solution, or add a level for the
//! trace of its search: `cargo run --release --example futoshiki -- forward`.

use cspkit::teach::trace::Trace;
use cspkit::{AllDifferent, LinearExpr, Model, ModelError, PropagationLevel, VarId};

/// The puzzle of `samples/minizinc/futoshiki.dzn`: the given numbers (0 for an empty cell),
/// row by row.
#[rustfmt::skip]
pub const GIVEN: [[i32; 6]; 6] = [
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 3, 0],
    [0, 0, 3, 6, 0, 4],
    [0, 0, 4, 1, 0, 0],
    [0, 0, 0, 0, 2, 3],
    [0, 4, 0, 0, 0, 0],
];

/// A cell, as (row, column) counted from 1.
pub type Cell = (usize, usize);

/// The signs: `((r1, c1), (r2, c2))` says that cell (r1, c1) is less than cell (r2, c2).
pub const LESS: [(Cell, Cell); 5] = [
    ((1, 1), (1, 2)),
    ((3, 2), (2, 2)),
    ((5, 3), (5, 4)),
    ((1, 6), (1, 5)),
    ((1, 4), (1, 5)),
];

/// The model of a Futoshiki: its cells, row by row.
pub fn futoshiki<const N: usize>(
    given: &[[i32; N]; N],
    less: &[(Cell, Cell)],
) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let side = i32::try_from(N).map_err(|_| ModelError::InvalidConstraint {
        constraint: "futoshiki".into(),
        reason: "the grid is too large".into(),
    })?;
    let mut cells = Vec::with_capacity(N * N);
    for (i, row) in given.iter().enumerate() {
        for (j, &value) in row.iter().enumerate() {
            let name = format!("x[{},{}]", i + 1, j + 1);
            let cell = if value > 0 {
                model.new_named_var(name, value..=value)?
            } else {
                model.new_named_var(name, 1..=side)?
            };
            cells.push(cell);
        }
    }
    let at = |(i, j): Cell| cells[(i - 1) * N + (j - 1)];
    for i in 0..N {
        model.post(AllDifferent::new(&cells[i * N..(i + 1) * N]))?;
    }
    for j in 0..N {
        let column: Vec<VarId> = (0..N).map(|i| cells[i * N + j]).collect();
        model.post(AllDifferent::new(&column))?;
    }
    for &(small, large) in less {
        model.post(LinearExpr::from(at(small)).lt(at(large)))?;
    }
    Ok((model, cells))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let level: Option<PropagationLevel> = std::env::args().nth(1).map(|a| a.parse()).transpose()?;
    let (model, cells) = futoshiki(&GIVEN, &LESS)?;
    let mut solver = model
        .solver()
        .with_propagation(level.unwrap_or(PropagationLevel::Full));
    let solution = match level {
        // With a level asked for, the trace of the search, in the model's names.
        Some(_) => {
            let mut trace = Trace::new(&model, std::io::stdout());
            let mut watched = solver.with_observer(&mut trace);
            let solution = watched.next_solution().solution();
            trace.finish()?;
            solution
        }
        None => solver.next_solution().solution(),
    };
    let solution = solution.ok_or("no solution")?;
    for row in cells.chunks(GIVEN.len()) {
        let values: Vec<String> = row.iter().map(|&c| solution[c].to_string()).collect();
        println!("{}", values.join(" "));
    }
    Ok(())
}
