//! The native side of `benches/overhead.py`: the same workloads through the library directly,
//! each model built once before the clock starts, as the Python side does.
//!
//! `cargo run --release --example native_overhead -- [PUZZLES] [LIMIT]` prints, for `queens 12`
//! counting (forward checking, as the command line) and for solving each Sudoku of the file (or
//! of the lines on standard input), the median of 7 runs in seconds, one figure per line.

use std::io::Read;
use std::time::Instant;

use cspkit::models::queens::Queens;
use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::{PropagationLevel, SearchConfig};

/// Runs of each workload.
const RUNS: usize = 7;

/// The median wall time of `action()` over [`RUNS`] runs, in seconds.
fn median_seconds(mut action: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            action();
            started.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[RUNS / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let text = match args.next() {
        Some(path) if path != "-" => std::fs::read_to_string(path)?,
        _ => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text)?;
            text
        }
    };
    let limit: usize = args
        .next()
        .map(|l| l.parse())
        .transpose()?
        .unwrap_or(usize::MAX);

    let queens = Queens::new(12)?;
    let forward = SearchConfig::new().with_propagation(PropagationLevel::Forward);
    let queens_time = median_seconds(|| {
        let count = queens
            .model()
            .solver_with(forward.clone())
            .map(|mut s| s.count());
        assert!(count.is_ok_and(|c| c.solutions == 14_200));
    });

    let sudokus = text
        .split_whitespace()
        .take(limit)
        .map(|line| Ok(Sudoku::new(&Grid::parse(line, None)?)?))
        .collect::<Result<Vec<Sudoku>, Box<dyn std::error::Error>>>()?;
    let sudoku_time = median_seconds(|| {
        for sudoku in &sudokus {
            let _ = sudoku.model().solver().next_solution();
        }
    });
    println!("queens12 {queens_time}");
    println!("sudoku {} {sudoku_time}", sudokus.len());
    Ok(())
}
