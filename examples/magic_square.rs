//! Magic squares: the numbers 1..=n² in an n×n grid, every row, column and both diagonals
//! adding up to the same sum, n(n² + 1)/2.
//!
//! Run with `cargo run --release --example magic_square`.

use cspkit::{AllDifferent, DomainOverDegree, LinearExpr, Model, ModelError, VarId};

/// The model of an n×n magic square, and its grid of variables.
pub fn magic_square(n: usize) -> Result<(Model, Vec<Vec<VarId>>), ModelError> {
    let mut model = Model::new();
    let size = (n * n) as i32;
    let square = model.new_grid("cell", n, n, 1..=size)?;
    let magic = size * (size + 1) / 2 / n as i32;

    model.post(AllDifferent::new(&square.concat()))?;
    let mut lines = square.clone(); // the rows, then the columns and the two diagonals
    lines.extend((0..n).map(|c| (0..n).map(|r| square[r][c]).collect()));
    lines.push((0..n).map(|i| square[i][i]).collect());
    lines.push((0..n).map(|i| square[i][n - 1 - i]).collect());
    for line in &lines {
        model.post(LinearExpr::sum(line).eq(magic))?;
    }
    Ok((model, square))
}

fn main() -> Result<(), ModelError> {
    let (model, square) = magic_square(3)?;
    let mut solver = model.solver();
    if let Some(solution) = solver.next_solution().solution() {
        for row in &square {
            println!("{:?}", solution.values_of(row));
        }
    }
    println!("3x3: {} magic squares", model.solver().count().solutions);

    let (model, _) = magic_square(4)?;
    let mut solver = model.solver().with_variable_order(DomainOverDegree);
    let count = solver.count();
    let stats = solver.stats();
    println!(
        "4x4: {} magic squares, {} decisions, {:?}",
        count.solutions, stats.decisions, stats.elapsed
    );
    Ok(())
}
