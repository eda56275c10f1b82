//! Job shops: which variable order finds a schedule. Each order, with and without
//! large-neighbourhood search, minimises the makespan of each instance under a time limit;
//! one line per run: the time and decisions to the first schedule (the search's own time, the
//! model's building not counted), its makespan, the best makespan at the limit, and whether
//! it is proved optimal.
//!
//! Run with `cargo run --release --example jobshop -- [FILE...] [--time-limit SECONDS]`
//! (`tests/data/jobshop/la07.txt` and 3 s by default). A file holds one instance in
//! OR-Library's format: `jobs machines`, then per job its tasks in order as `machine duration`
//! pairs (machines from 0); lines starting with `#` are comments.

use std::time::{Duration, Instant};

use cspkit::{
    BranchKind, Disjunctive, DomWdeg, Event, InputOrder, LinearExpr, Lns, Model, ModelError,
    Optimum, SearchObserver, SmallestDomain, SmallestMinimum, VarId, VariableOrder,
};

/// Per job, its tasks in order, as (machine, duration).
type Jobs = Vec<Vec<(usize, i32)>>;

/// Makes a fresh variable order.
type NewOrder = fn() -> Box<dyn VariableOrder>;

fn read(text: &str) -> Result<Jobs, String> {
    let mut lines = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty());
    let mut numbers = || -> Result<Vec<i32>, String> {
        let line = lines.next().ok_or("the file ends too early")?;
        line.split_whitespace()
            .map(|n| n.parse().map_err(|_| format!("not a number: {n}")))
            .collect()
    };
    let head = numbers()?;
    let &[jobs, machines] = head.as_slice() else {
        return Err("the first line is `jobs machines`".into());
    };
    (0..jobs)
        .map(|_| {
            let tasks = numbers()?;
            if tasks.len() != 2 * machines as usize {
                return Err(format!(
                    "a job has {machines} tasks, as machine-duration pairs"
                ));
            }
            Ok(tasks.chunks(2).map(|t| (t[0] as usize, t[1])).collect())
        })
        .collect()
}

/// The model: a start per task over `0..=` the sum of the durations, each task after the one
/// before it in its job, one `Disjunctive` per machine, the makespan as the largest end.
fn model(jobs: &Jobs) -> Result<(Model, VarId), ModelError> {
    let horizon: i32 = jobs.iter().flatten().map(|&(_, d)| d).sum();
    let mut model = Model::new();
    let mut machines: Vec<(Vec<VarId>, Vec<i32>)> = Vec::new();
    let mut ends = Vec::new();
    for job in jobs {
        let starts = model.new_vars(job.len(), 0..=horizon)?;
        for (k, &(machine, duration)) in job.iter().enumerate() {
            if machines.len() <= machine {
                machines.resize(machine + 1, (Vec::new(), Vec::new()));
            }
            machines[machine].0.push(starts[k]);
            machines[machine].1.push(duration);
            if k + 1 < job.len() {
                model.post((LinearExpr::from(starts[k]) + duration).le(starts[k + 1]))?;
            } else {
                ends.push(model.var_for(LinearExpr::from(starts[k]) + duration)?);
            }
        }
    }
    for (starts, durations) in &machines {
        model.post(Disjunctive::new(starts, durations)?)?;
    }
    let makespan = model.max(&ends)?;
    Ok((model, makespan))
}

/// Watches a search for its first solution: when, after how many decisions, of what value.
struct FirstSchedule {
    start: Instant,
    decisions: u64,
    first: Option<(Duration, u64, i64)>,
}

impl FirstSchedule {
    fn new() -> Self {
        FirstSchedule {
            start: Instant::now(),
            decisions: 0,
            first: None,
        }
    }
}

impl SearchObserver for FirstSchedule {
    fn on_event(&mut self, event: &Event<'_>) {
        match *event {
            Event::Node {
                kind: BranchKind::Equal | BranchKind::AtMost,
                ..
            } => self.decisions += 1,
            Event::Improved { value, .. } if self.first.is_none() => {
                self.first = Some((self.start.elapsed(), self.decisions, value));
            }
            _ => {}
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut files = Vec::new();
    let mut limit = Duration::from_secs(3);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--time-limit" {
            let seconds: f64 = args.next().ok_or("--time-limit SECONDS")?.parse()?;
            limit = Duration::from_secs_f64(seconds);
        } else {
            files.push(arg);
        }
    }
    if files.is_empty() {
        files.push(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/jobshop/la07.txt").into());
    }
    println!("| instance | order | LNS | first schedule | decisions | makespan | best | proved |");
    println!("|---|---|---|---:|---:|---:|---:|---|");
    for file in &files {
        let jobs = read(&std::fs::read_to_string(file)?).map_err(|e| format!("{file}: {e}"))?;
        let (model, makespan) = model(&jobs)?;
        let name = std::path::Path::new(file)
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy();
        let orders: [(&str, NewOrder); 4] = [
            ("input (default)", || Box::new(InputOrder)),
            ("smallest domain", || Box::new(SmallestDomain)),
            ("dom/wdeg", || Box::new(DomWdeg::new())),
            ("smallest minimum", || Box::new(SmallestMinimum)),
        ];
        for (order_name, order) in orders {
            for lns in [false, true] {
                let mut solver = model
                    .solver()
                    .with_variable_order(order())
                    .with_time_limit(limit)
                    .with_observer(FirstSchedule::new());
                if lns {
                    solver = solver.with_lns(Lns::new());
                }
                let optimum = solver.minimize(makespan)?;
                let (time, decisions, value) = match solver.observer().first {
                    Some((time, decisions, value)) => (
                        format!("{:.3} s", time.as_secs_f64()),
                        decisions.to_string(),
                        value.to_string(),
                    ),
                    None => ("none".into(), "–".into(), "–".into()),
                };
                let best = optimum.best().map_or("–".into(), |(_, v)| v.to_string());
                let proved = match optimum {
                    Optimum::Optimal { .. } => {
                        format!("in {:.2} s", solver.stats().elapsed.as_secs_f64())
                    }
                    _ => "no".into(),
                };
                println!(
                    "| {name} | {order_name} | {} | {time} | {decisions} | {value} | {best} | {} |",
                    if lns { "yes" } else { "no" },
                    proved,
                );
            }
        }
    }
    Ok(())
}
