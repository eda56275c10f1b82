//! How long "why was this value removed?" takes on 9x9 puzzles: for each puzzle of a file (one
//! a line, `.` or `0` for an open cell), the chain of the first value removed from the first
//! open cell at the root, replay included; prints the median, the 90th percentile and the
//! chains' sizes.
//!
//! ```text
//! cargo run --release --example why_removed -- puzzles.txt [COUNT]
//! ```

use std::time::Instant;

use cspkit::PropagationLevel;
use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::puzzle::{WhyRemoved, why_removed};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: why_removed PUZZLES.txt [COUNT]")?;
    let count: usize = args.next().map_or(Ok(1000), |c| c.parse())?;
    let text = std::fs::read_to_string(&path)?;
    let empty = Sudoku::new(&Grid::empty(3).ok_or("no empty grid")?)?;
    let model = empty.model();
    let (mut times, mut steps, mut premises) = (Vec::new(), Vec::new(), Vec::new());
    // The first word of each line of 81 cells (some files rate their puzzles after it).
    let puzzles = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.len() == 81);
    for puzzle in puzzles.take(count) {
        let grid = Grid::parse_line(puzzle, 1)?;
        let givens: Vec<_> = empty.givens(&grid).collect();
        let Some(open) = (0..81).find(|&i| grid.get(i / 9, i % 9) == 0) else {
            continue;
        };
        let var = empty.cells()[open];
        // The first value removed from that cell: the smallest the solution does not take.
        for value in 1..=9 {
            let started = Instant::now();
            let answer = why_removed(model, &givens, &[], var, value, PropagationLevel::Full)?;
            let elapsed = started.elapsed();
            if let WhyRemoved::Removed(chain) = answer {
                times.push(elapsed.as_secs_f64() * 1e3);
                steps.push(chain.steps.len());
                premises.push(chain.premises.len());
                break;
            }
        }
    }
    if times.is_empty() {
        return Err("no puzzle read".into());
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[v.len() * 9 / 10], v[v.len() - 1])
    };
    let (m, p90, max) = median(&mut times);
    let mut s: Vec<f64> = steps.iter().map(|&s| s as f64).collect();
    let (sm, s90, smax) = median(&mut s);
    let mut p: Vec<f64> = premises.iter().map(|&p| p as f64).collect();
    let (pm, _, _) = median(&mut p);
    println!(
        "{} puzzles: chain time median {m:.2} ms, p90 {p90:.2} ms, max {max:.2} ms; \
         steps median {sm}, p90 {s90}, max {smax}; premises median {pm}",
        times.len()
    );
    Ok(())
}
