//! The heavy tail of first-solution search on N-Queens, and what randomisation and restarts do
//! to it: the time to a first solution for every board size of a range, under several
//! strategies, each the median of a few runs (each run with its own seed).
//!
//! ```text
//! cargo bench --bench heavy_tail -- [--sizes FROM..=TO:STEP] [--runs R] [--time-limit SECONDS]
//!                                   [--strategy NAME]...
//! ```
//!
//! A strategy name joins a variable order, a value order and optionally a restart policy:
//! `mrv+asc`, `mrv+middle`, `mrv-random+middle`, `mrv-random+random+luby:100`,
//! `mrv+random+geometric:100`. The variable orders are `mrv` ([`SmallestDomain`]) and
//! `mrv-random` ([`SmallestDomainRandomTies`]); the value orders `asc`, `middle`
//! ([`MiddleOut`]) and `random` ([`RandomValue`]). Propagation is forward checking, as in the
//! `cspkit` program. Run `r` (from 0) of each size uses seed `r`.
//!
//! For each strategy, the output gives one line per board size (median and worst time of the
//! runs, median nodes, failures and restarts) and a summary: the largest median, and the sizes
//! whose median reached one second or whose runs hit the time limit.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use cspkit::models::queens::Queens;
use cspkit::{
    Ascending, MiddleOut, Outcome, PropagationLevel, RandomValue, RestartPolicy, SmallestDomain,
    SmallestDomainRandomTies, ValueOrder, VariableOrder,
};

const USAGE: &str = "\
usage: heavy_tail [--sizes FROM..=TO:STEP] [--runs R] [--time-limit SECONDS] [--strategy NAME]...
  NAME: VARIABLES+VALUES[+luby:BASE|+geometric:BASE], VARIABLES mrv|mrv-random,
        VALUES asc|middle|random";

/// A strategy from its name.
#[derive(Debug, Clone)]
struct Strategy {
    name: String,
    random_ties: bool,
    values: Values,
    restarts: Option<RestartPolicy>,
}

#[derive(Debug, Clone, Copy)]
enum Values {
    Ascending,
    Middle,
    Random,
}

impl Strategy {
    fn parse(name: &str) -> Result<Strategy, String> {
        let parts: Vec<&str> = name.split('+').collect();
        let random_ties = match parts.first() {
            Some(&"mrv") => false,
            Some(&"mrv-random") => true,
            _ => return Err(format!("{name}: unknown variable order")),
        };
        let values = match parts.get(1) {
            Some(&"asc") => Values::Ascending,
            Some(&"middle") => Values::Middle,
            Some(&"random") => Values::Random,
            _ => return Err(format!("{name}: unknown value order")),
        };
        let restarts = match parts.get(2).map(|p| p.split_once(':')) {
            None => None,
            Some(Some((kind, base))) => {
                let base: u64 = base
                    .parse()
                    .ok()
                    .filter(|&b| b > 0)
                    .ok_or(format!("{name}: bad restart base"))?;
                match kind {
                    "luby" => Some(RestartPolicy::luby(base)),
                    "geometric" => Some(RestartPolicy::geometric(base, 1.5)),
                    _ => return Err(format!("{name}: unknown restart policy")),
                }
            }
            Some(None) => return Err(format!("{name}: a restart policy needs a base")),
        };
        if parts.len() > 3 {
            return Err(format!("{name}: too many parts"));
        }
        Ok(Strategy {
            name: name.to_owned(),
            random_ties,
            values,
            restarts,
        })
    }

    fn variable_order(&self, seed: u64) -> Box<dyn VariableOrder> {
        if self.random_ties {
            Box::new(SmallestDomainRandomTies::new(seed))
        } else {
            Box::new(SmallestDomain)
        }
    }

    fn value_order(&self, seed: u64) -> Box<dyn ValueOrder> {
        match self.values {
            Values::Ascending => Box::new(Ascending),
            Values::Middle => Box::new(MiddleOut),
            Values::Random => Box::new(RandomValue::new(seed)),
        }
    }
}

/// One run: its time, whether it found a solution, and its statistics.
struct Run {
    time: Duration,
    solved: bool,
    nodes: u64,
    failures: u64,
    restarts: u64,
}

fn run(queens: &Queens, strategy: &Strategy, seed: u64, time_limit: Duration) -> Run {
    let started = Instant::now();
    let mut solver = queens
        .model()
        .solver()
        .with_variable_order(strategy.variable_order(seed))
        .with_value_order(strategy.value_order(seed))
        .with_propagation(PropagationLevel::Forward)
        .with_time_limit(time_limit);
    if let Some(policy) = strategy.restarts {
        solver = solver.with_restarts(policy);
    }
    let outcome = solver.next_solution();
    let time = started.elapsed();
    if let Outcome::Solved(solution) = &outcome {
        assert!(queens.model().is_solution(solution.values()));
    }
    let stats = solver.stats();
    Run {
        time,
        solved: outcome.is_solved(),
        nodes: stats.decisions,
        failures: stats.failures,
        restarts: stats.restarts,
    }
}

fn median<T: Copy + Ord>(values: &mut [T]) -> T {
    values.sort_unstable();
    values[values.len() / 2]
}

fn parse_sizes(text: &str) -> Result<Vec<usize>, String> {
    let bad = || format!("{text}: give FROM..=TO:STEP");
    let (range, step) = text.split_once(':').unwrap_or((text, "1"));
    let (from, to) = range.split_once("..=").ok_or_else(bad)?;
    let number = |t: &str| t.parse::<usize>().map_err(|_| bad());
    let (from, to, step) = (number(from)?, number(to)?, number(step)?);
    if from == 0 || step == 0 {
        return Err(bad());
    }
    Ok((from..=to).step_by(step).collect())
}

fn main() -> ExitCode {
    match run_all() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("heavy_tail: {message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run_all() -> Result<(), String> {
    let mut sizes = parse_sizes("8..=1000:8")?;
    let mut runs = 5;
    let mut time_limit = Duration::from_secs(10);
    let mut strategies = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            // `cargo bench` passes `--bench` to every benchmark program.
            "--bench" => {}
            "--sizes" => sizes = parse_sizes(&value()?)?,
            "--runs" => {
                runs = value()?
                    .parse()
                    .ok()
                    .filter(|&r| r > 0)
                    .ok_or("--runs: give 1 or more")?;
            }
            "--time-limit" => {
                let seconds: f64 = value()?.parse().map_err(|_| "--time-limit: seconds")?;
                time_limit = Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())?;
            }
            "--strategy" => strategies.push(Strategy::parse(&value()?)?),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if strategies.is_empty() {
        strategies.push(Strategy::parse("mrv-random+middle+luby:100")?);
    }
    for strategy in &strategies {
        println!(
            "# {} ({runs} runs per size, seeds 0..{runs})",
            strategy.name
        );
        println!("n\tmedian_ms\tworst_ms\tnodes\tfailures\trestarts\tunsolved");
        let mut slowest = (0, Duration::ZERO);
        let mut over_a_second = Vec::new();
        for &n in &sizes {
            let queens = Queens::new(n).map_err(|e| e.to_string())?;
            let results: Vec<Run> = (0..runs as u64)
                .map(|seed| run(&queens, strategy, seed, time_limit))
                .collect();
            let time = median(&mut results.iter().map(|r| r.time).collect::<Vec<_>>());
            let worst = results.iter().map(|r| r.time).max().unwrap_or_default();
            let nodes = median(&mut results.iter().map(|r| r.nodes).collect::<Vec<_>>());
            let failures = median(&mut results.iter().map(|r| r.failures).collect::<Vec<_>>());
            let restarts = median(&mut results.iter().map(|r| r.restarts).collect::<Vec<_>>());
            let unsolved = results.iter().filter(|r| !r.solved).count();
            println!(
                "{n}\t{:.2}\t{:.2}\t{nodes}\t{failures}\t{restarts}\t{unsolved}",
                time.as_secs_f64() * 1e3,
                worst.as_secs_f64() * 1e3,
            );
            if time > slowest.1 {
                slowest = (n, time);
            }
            if time >= Duration::from_secs(1) || unsolved > 0 {
                over_a_second.push(n);
            }
        }
        println!(
            "# {}: largest median {:.1} ms (n = {}); sizes at 1 s or more, or unsolved: {:?}\n",
            strategy.name,
            slowest.1.as_secs_f64() * 1e3,
            slowest.0,
            over_a_second
        );
    }
    Ok(())
}
