//! N-Queens with the library: the first placement and the number of placements.
//!
//! Run with `cargo run --release --example nqueens -- 8`.

use cspkit::models::queens::Queens;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args().nth(1).map_or(Ok(8), |arg| arg.parse())?;

    // One variable per row holding its queen's column; columns, diagonals
    // and anti-diagonals all different.
    let queens = Queens::new(n)?;

    match queens.model().solve().solution() {
        Some(solution) => print!("{}", queens.board(&solution)),
        None => println!("no placement of {n} queens"),
    }
    println!("{} placements in all", queens.count());
    Ok(())
}
