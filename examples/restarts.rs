//! The heavy tail of first-solution search, and restarts: 88 queens, ten seeds, with and
//! without restarts.
//!
//! Run with `cargo run --release --example restarts`. Smallest-domain-first with random
//! tie-breaking and the middle columns first places 88 queens in well under a millisecond for
//! most seeds, and for one of these ten seeds runs for seconds; with Luby restarts every seed
//! is quick. The board size can be given: `-- 120`.

use std::time::Instant;

use cspkit::models::queens::Queens;
use cspkit::{MiddleOut, PropagationLevel, RestartPolicy, SmallestDomainRandomTies};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args().nth(1).map_or(Ok(88), |arg| arg.parse())?;
    let queens = Queens::new(n)?;
    println!(
        "{:>4} {:>14} {:>10} {:>14} {:>10} {:>8}",
        "seed", "no restarts", "failures", "Luby restarts", "failures", "restarts"
    );
    for seed in 0..10 {
        let mut cells = Vec::new();
        for restarts in [None, Some(RestartPolicy::luby(100))] {
            let mut solver = queens
                .model()
                .solver()
                .with_variable_order(SmallestDomainRandomTies::new(seed))
                .with_value_order(MiddleOut)
                .with_propagation(PropagationLevel::Forward);
            if let Some(policy) = restarts {
                solver = solver.with_restarts(policy);
            }
            let started = Instant::now();
            let solved = solver.next_solution().is_solved();
            assert!(solved, "{n} queens can be placed");
            let stats = solver.stats();
            cells.push((started.elapsed(), stats.failures, stats.restarts));
        }
        println!(
            "{seed:>4} {:>14.1?} {:>10} {:>14.1?} {:>10} {:>8}",
            cells[0].0, cells[0].1, cells[1].0, cells[1].1, cells[1].2
        );
    }
    Ok(())
}
