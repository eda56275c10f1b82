//! N-Queens by local search (AIMA's MIN-CONFLICTS): `cargo run --release --example
//! min_conflicts -- [n] [seed]`. Prints the steps and the time; the board for n ≤ 30.

use cspkit::models::queens::Queens;
use cspkit::{LocalOutcome, MinConflicts};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(Ok(8), |a| a.parse())?;
    let seed: u64 = args.next().map_or(Ok(0), |a| a.parse())?;
    let built = std::time::Instant::now();
    let queens = Queens::new(n)?;
    println!("model built in {:.3} s", built.elapsed().as_secs_f64());
    let mut search = MinConflicts::new(queens.model())
        .with_seed(seed)
        .with_max_steps(1_000_000);
    let outcome = search.run();
    let stats = search.stats();
    match &outcome {
        LocalOutcome::Solved(solution) if n <= 30 => print!("{}", queens.board(solution)),
        LocalOutcome::Solved(_) => {}
        LocalOutcome::NotFound { steps } => println!("no solution found in {steps} steps"),
        _ => println!("{outcome:?}"),
    }
    println!(
        "n = {n}: {} in conflict after the greedy start, {} steps, {} restarts, {:.3} s",
        stats.initial_conflicted,
        stats.steps,
        stats.restarts,
        stats.elapsed.as_secs_f64()
    );
    Ok(())
}
