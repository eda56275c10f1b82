//! One `AllDifferent` over `n` variables with values `1..=n`, at full propagation (domain
//! consistency), first solution in input order with ascending values, under a time limit: how
//! Régin's filtering scales with the size of the scope.
//!
//! Run with `cargo run --release --example all_different_at_scale -- 1000 120` (variables, then
//! the time limit in seconds, then optionally the propagation level: `full`, the default, or
//! `forward` or `none`); it prints the outcome, the time and the search's counts.

use std::time::{Duration, Instant};

use cspkit::{AllDifferent, Model, Outcome, PropagationLevel};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: i32 = args.next().map_or(Ok(1000), |arg| arg.parse())?;
    let seconds: f64 = args.next().map_or(Ok(120.0), |arg| arg.parse())?;
    let level: PropagationLevel = args
        .next()
        .map_or(Ok(PropagationLevel::Full), |arg| arg.parse())?;

    let started = Instant::now();
    let mut model = Model::new();
    let vars = model.new_vars(n as usize, 1..=n)?;
    model.post(AllDifferent::new(&vars))?;
    let mut solver = model
        .solver()
        .with_propagation(level)
        .with_time_limit(Duration::from_secs_f64(seconds));
    let outcome = match solver.next_solution() {
        Outcome::Solved(solution) => {
            let ok = solution.values().iter().copied().eq(1..=n);
            format!("solved (the identity: {ok})")
        }
        Outcome::Exhausted => "no solution".to_string(),
        Outcome::LimitReached(limit) => limit.to_string(),
    };
    let stats = solver.stats();
    println!(
        "n = {n}, {level}: {outcome} in {:.3} s, {} decisions, {} failures, {} propagator runs",
        started.elapsed().as_secs_f64(),
        stats.decisions,
        stats.failures,
        stats.propagations,
    );
    Ok(())
}
