//! Killer Sudoku: a Sudoku without givens, whose cages (groups of cells) each have a sum and
//! no repeated digit. Built on the Sudoku model, with one sum and one all-different per cage.
//!
//! Run with `cargo run --release --example killer_sudoku`.

use cspkit::models::sudoku::{Grid, GridFormat, Sudoku};
use cspkit::{AllDifferent, Comparison, Linear, VarId};

/// The cages: cells with the same letter form one cage, row by row.
///
/// The example puzzle of Wikipedia's "Killer sudoku" article (public-domain image
/// `Killersudoku_color.svg` by Toon Spin), also CSPLib problem 57.
pub const CAGES: [&str; 9] = [
    "aabbbcdef",
    "gghhccdef",
    "ggiicjkkf",
    "lmminjkof",
    "lppqnjoor",
    "sptqnuvvr",
    "sttqwuuxx",
    "syzwwAAxx",
    "syzwBBBCC",
];

/// The sum of each cage, by letter.
#[rustfmt::skip]
pub const SUMS: [(char, i64); 29] = [
    ('a', 3), ('b', 15), ('c', 22), ('d', 4), ('e', 16), ('f', 15), ('g', 25), ('h', 17),
    ('i', 9), ('j', 8), ('k', 20), ('l', 6), ('m', 14), ('n', 17), ('o', 17), ('p', 13),
    ('q', 20), ('r', 12), ('s', 27), ('t', 6), ('u', 20), ('v', 6), ('w', 10), ('x', 14),
    ('y', 8), ('z', 16), ('A', 15), ('B', 13), ('C', 17),
];

/// The Sudoku model of an empty 9x9 grid, with a sum and an all-different on every cage.
pub fn model() -> Result<Sudoku, Box<dyn std::error::Error>> {
    let mut sudoku = Sudoku::new(&Grid::empty(3).ok_or("no 9x9 grid")?)?;
    for (letter, sum) in SUMS {
        let cells: Vec<VarId> = (0..9)
            .flat_map(|r| (0..9).map(move |c| (r, c)))
            .filter(|&(r, c)| CAGES[r].as_bytes()[c] == letter as u8)
            .map(|(r, c)| sudoku.cell(r, c))
            .collect();
        let model = sudoku.model_mut();
        model.post_named(
            format!("cage {letter} sum"),
            Linear::sum(&cells, Comparison::Eq, sum),
        )?;
        model.post_named(format!("cage {letter} digits"), AllDifferent::new(&cells))?;
    }
    Ok(sudoku)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sudoku = model()?;
    let mut solver = sudoku.model().solver();
    let solution = solver.next_solution().solution().ok_or("no solution")?;
    print!("{}", sudoku.grid_of(&solution).to_text(GridFormat::Spaced)?);
    let stats = solver.stats();
    println!("{} decisions, {:?}", stats.decisions, stats.elapsed);
    Ok(())
}
