//! KenKen: fill an n × n grid with 1 to n, each once per row and column, so that the cells of
//! each cage give its target under its operation: `11+` adds up to 11, `240×` multiplies to
//! 240, `3−` and `2÷` are two cells whose difference is 3 or whose quotient is 2, in either
//! order.
//!
//! One constraint per cage: a sum ([`LinearExpr`]), a product of any number of cells
//! ([`Model::product`]), a distance ([`Distance`]), and a quotient as the table of the pairs
//! that give it ([`Table`]).
//!
//! Run with `cargo run --release --example kenken`.

use cspkit::{AllDifferent, Comparison, Distance, LinearExpr, Model, ModelError, Table, VarId};

/// The operation of a cage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// The cells add up to the target.
    Add,
    /// Two cells, the larger minus the smaller is the target.
    Subtract,
    /// The cells multiply to the target.
    Multiply,
    /// Two cells, the larger divided by the smaller is the target.
    Divide,
}

/// The cages of the example puzzle of Wikipedia's "KenKen" article (the image
/// `KenKenProblem.svg`; also the sample input of r/dailyprogrammer's challenge #240, "KenKen
/// Solver"): cells with the same letter form one cage, row by row from the top.
#[rustfmt::skip]
pub const CAGES: [&str; 6] = [
    "abbcdd",
    "aeecfd",
    "gghhfd",
    "ggijkk",
    "llijjm",
    "nnnoom",
];

/// The operation and target of each cage, by letter.
#[rustfmt::skip]
pub const CLUES: [(char, Operation, i32); 15] = [
    ('a', Operation::Add, 11), ('b', Operation::Divide, 2), ('c', Operation::Multiply, 20),
    ('d', Operation::Multiply, 6), ('e', Operation::Subtract, 3), ('f', Operation::Divide, 3),
    ('g', Operation::Multiply, 240), ('h', Operation::Multiply, 6),
    ('i', Operation::Multiply, 6), ('j', Operation::Add, 7), ('k', Operation::Multiply, 30),
    ('l', Operation::Multiply, 6), ('m', Operation::Add, 9), ('n', Operation::Add, 8),
    ('o', Operation::Divide, 2),
];

/// The positions `(row, column)` of the cells of cage `letter` in `cages`.
pub fn cage_cells(cages: &[&str], letter: char) -> Vec<(usize, usize)> {
    cages
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.chars()
                .enumerate()
                .filter(move |&(_, c)| c == letter)
                .map(move |(c, _)| (r, c))
        })
        .collect()
}

/// Posts one cage: `op` over `cells` gives `target`, with values in `1..=n`.
pub fn post_cage(
    model: &mut Model,
    cells: &[VarId],
    op: Operation,
    target: i32,
    n: i32,
) -> Result<(), ModelError> {
    let pair = || -> Result<(VarId, VarId), ModelError> {
        match cells {
            &[x, y] => Ok((x, y)),
            _ => Err(ModelError::InvalidConstraint {
                constraint: format!("{op:?} cage"),
                reason: format!("{} cells, where − and ÷ take two", cells.len()),
            }),
        }
    };
    match op {
        Operation::Add => {
            let sum: LinearExpr = cells.iter().sum();
            model.post(sum.eq(target))?;
        }
        Operation::Multiply => {
            let product = model.product(cells)?;
            model.fix(product, target)?;
        }
        Operation::Subtract => {
            let (x, y) = pair()?;
            model.post(Distance::new(x, y, Comparison::Eq, target))?;
        }
        Operation::Divide => {
            let (x, y) = pair()?;
            let quotients = (1..=n).flat_map(|a| (1..=n).map(move |b| [a, b]));
            let pairs: Vec<[i32; 2]> = quotients
                .filter(|&[a, b]| a == target * b || b == target * a)
                .collect();
            model.post(Table::new(&[x, y], pairs)?)?;
        }
    }
    Ok(())
}

/// The model of a puzzle: the grid `cell[r][c]`, a Latin square, and its cages.
pub fn model(
    cages: &[&str],
    clues: &[(char, Operation, i32)],
) -> Result<(Model, Vec<Vec<VarId>>), ModelError> {
    let n = cages.len();
    let size = i32::try_from(n).unwrap_or(i32::MAX);
    let mut model = Model::new();
    let grid = model.new_grid("cell", n, n, 1..=size)?;
    for i in 0..n {
        let column: Vec<VarId> = grid.iter().map(|row| row[i]).collect();
        model.post_named(format!("row {}", i + 1), AllDifferent::new(&grid[i]))?;
        model.post_named(format!("column {}", i + 1), AllDifferent::new(&column))?;
    }
    for &(letter, op, target) in clues {
        let cells: Vec<VarId> = cage_cells(cages, letter)
            .into_iter()
            .map(|(r, c)| grid[r][c])
            .collect();
        post_cage(&mut model, &cells, op, target, size)?;
    }
    Ok((model, grid))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (model, grid) = model(&CAGES, &CLUES)?;
    let mut solver = model.solver();
    let solution = solver.next_solution().solution().ok_or("no solution")?;
    for row in &grid {
        let values: Vec<String> = row.iter().map(|&c| solution[c].to_string()).collect();
        println!("{}", values.join(" "));
    }
    let stats = solver.stats();
    println!("{} decisions, {:?}", stats.decisions, stats.elapsed);
    Ok(())
}
