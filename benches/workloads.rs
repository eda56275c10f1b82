//! The workloads of the benchmark suite, on cspkit's public API.
//!
//! ```text
//! cargo bench --bench workloads -- sudoku FILE [--mode lex|mrv|count2] [--propagation LEVEL]
//!                                      [--limit K] [--decision-limit N] [--emit OUT]
//! cargo bench --bench workloads -- queens count|mrv|lex N... [--propagation LEVEL]
//!                                      [--model alldiff|board] [--time-limit SECONDS]
//!                                      [--decision-limit N] [--emit OUT]
//! ```
//!
//! Sudoku modes (one puzzle per line, 81 characters, `.` or `0` for a blank):
//!
//! - `lex`: the lexicographically smallest solution (input order, ascending values);
//! - `mrv`: any solution, smallest domain first (ascending values);
//! - `count2`: count up to 2 solutions (input order): 1 proves the solution unique.
//!
//! N-Queens modes: `count` (all solutions, input order), `mrv` (first solution, smallest domain
//! first), `lex` (the lexicographically first placement, input order), on the model of three
//! all-different constraints (`Queens::new`) or, with `--model board`, on one constraint for the
//! whole board (`Queens::non_attacking`). The default propagation
//! level is `full` for Sudoku and `forward` for N-Queens, as in the `cspkit` program.
//!
//! Each board size is timed from the model's construction to the answer. Sudoku puzzles are
//! solved as `cspkit sudoku --batch` solves them: one model of the empty grid, built once, and
//! one solver restarted with each puzzle's givens ([`Solver::restart_with`]); each puzzle is
//! timed from that restart to the answer (parsing excluded). The aggregate (puzzles/s, median and p99 µs per
//! puzzle, mean nodes and failures, and what a node costs the engine: the tree nodes, with the
//! propagator runs and the domain changes per tree node) is printed on standard output; `--emit OUT` also writes one
//! line per puzzle, `ITEM ANSWER MICROSECONDS NODES FAILURES`, the format every driver of
//! `bench/run.sh` writes (`--emit -`: those lines on standard output, the aggregate on standard
//! error). `ANSWER` is the solution (81 digits, or the columns from 1 joined by
//! commas), the count, `none` (no solution) or `limit` (stopped by a limit).

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cspkit::models::queens::Queens;
use cspkit::models::sudoku::{Grid, GridFormat, Sudoku};
use cspkit::{
    InputOrder, Limit, Model, Outcome, PropagationLevel, SearchStats, SmallestDomain, Solver,
    VariableOrder,
};

const USAGE: &str = "\
usage: workloads sudoku FILE [--mode lex|mrv|count2] [--propagation none|forward|full]
                             [--limit K] [--decision-limit N] [--emit OUT]
       workloads queens count|mrv|lex N... [--propagation none|forward|full]
                             [--model alldiff|board] [--time-limit SECONDS]
                             [--decision-limit N] [--emit OUT]";

/// What one search answered, and what it cost.
struct Record {
    item: String,
    answer: String,
    time: Duration,
    stats: SearchStats,
}

/// The options shared by both workloads.
#[derive(Default)]
struct Options {
    positional: Vec<String>,
    mode: Option<String>,
    propagation: Option<PropagationLevel>,
    limit: Option<usize>,
    decision_limit: Option<u64>,
    time_limit: Option<Duration>,
    emit: Option<String>,
    /// The N-Queens model: `alldiff` (the default) or `board`.
    model: Option<String>,
}

fn parse_options(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options::default();
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            // `cargo bench` passes `--bench` to every benchmark program.
            "--bench" => {}
            "--mode" => options.mode = Some(value()?),
            "--propagation" => options.propagation = Some(parse_level(&value()?)?),
            "--limit" => options.limit = Some(parse_number(&value()?)?),
            "--decision-limit" => options.decision_limit = Some(parse_number(&value()?)?),
            "--time-limit" => {
                let seconds: f64 = parse_number(&value()?)?;
                options.time_limit = Some(Duration::from_secs_f64(seconds));
            }
            "--emit" => options.emit = Some(value()?),
            "--model" => options.model = Some(value()?),
            other if other.starts_with("--") => return Err(format!("unknown option {other}")),
            _ => options.positional.push(arg),
        }
    }
    Ok(options)
}

fn parse_number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{text:?} is not a number"))
}

fn parse_level(text: &str) -> Result<PropagationLevel, String> {
    match text {
        "none" => Ok(PropagationLevel::None),
        "forward" => Ok(PropagationLevel::Forward),
        "full" => Ok(PropagationLevel::Full),
        _ => Err(format!("{text:?} is not a propagation level")),
    }
}

fn main() -> ExitCode {
    let result = parse_options(std::env::args().skip(1)).and_then(|options| {
        match options.positional.first().map(String::as_str) {
            Some("sudoku") => sudoku(&options),
            Some("queens") => queens(&options),
            _ => Err(USAGE.to_string()),
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("workloads: {message}");
            ExitCode::from(2)
        }
    }
}

/// Applies the limits of `options` to a solver.
fn limited<'m, V: VariableOrder>(
    mut solver: Solver<'m, V>,
    options: &Options,
    level: PropagationLevel,
) -> Solver<'m, V> {
    solver = solver.with_propagation(level);
    if let Some(nodes) = options.decision_limit {
        solver = solver.with_decision_limit(nodes);
    }
    if let Some(time) = options.time_limit {
        solver = solver.with_time_limit(time);
    }
    solver
}

/// The first solution, rendered, or `none` / `limit`.
fn first<V: VariableOrder>(
    solver: &mut Solver<'_, V>,
    render: impl Fn(&[i32]) -> String,
) -> String {
    match solver.next_solution() {
        Outcome::Solved(solution) => render(solution.values()),
        Outcome::Exhausted => "none".into(),
        Outcome::LimitReached(_) => "limit".into(),
    }
}

/// Counts up to `max` solutions; `limit` if another limit stopped the count.
fn count<V: VariableOrder>(solver: &mut Solver<'_, V>, max: u64) -> String {
    let count = solver.count_up_to(max);
    match count.stopped_by {
        Some(Limit::Solutions) | None => count.solutions.to_string(),
        Some(_) => "limit".into(),
    }
}

/// The solver `mode` asks for on `model` (smallest domain first for `mrv`, input order
/// otherwise), with the limits of `options`.
fn solver_for<'m>(
    model: &'m Model,
    mode: &str,
    options: &Options,
    level: PropagationLevel,
) -> Solver<'m, Box<dyn VariableOrder>> {
    let order: Box<dyn VariableOrder> = match mode {
        "mrv" => Box::new(SmallestDomain),
        _ => Box::new(InputOrder),
    };
    limited(model.solver().with_variable_order(order), options, level)
}

/// Runs `mode` on a solver just (re)started: the answer and the statistics.
fn search(
    solver: &mut Solver<'_, Box<dyn VariableOrder>>,
    mode: &str,
    count_max: u64,
    render: impl Fn(&[i32]) -> String,
) -> Result<(String, SearchStats), String> {
    let answer = match mode {
        "lex" | "mrv" => first(solver, render),
        "count" | "count2" => count(solver, count_max),
        other => return Err(format!("unknown mode {other:?}")),
    };
    Ok((answer, solver.stats()))
}

fn sudoku(options: &Options) -> Result<(), String> {
    let [_, file] = options.positional.as_slice() else {
        return Err(USAGE.to_string());
    };
    if options.model.is_some() {
        return Err("--model is an option of the queens workloads".into());
    }
    let mode = options.mode.as_deref().unwrap_or("lex");
    if !["lex", "mrv", "count2"].contains(&mode) {
        return Err(format!("unknown sudoku mode {mode:?}"));
    }
    let level = options.propagation.unwrap_or(PropagationLevel::Full);
    let reader = BufReader::new(File::open(file).map_err(|e| format!("{file}: {e}"))?);
    // One model of the empty 9x9 grid and one solver, restarted with each puzzle's givens: the
    // way to solve many puzzles with cspkit (what `cspkit sudoku --batch` does).
    let empty = Sudoku::new(&Grid::empty(3).expect("9x9 exists")).map_err(|e| e.to_string())?;
    let mut solver = solver_for(empty.model(), mode, options, level);
    let mut records = Vec::new();
    for (index, line) in reader.lines().enumerate() {
        if options.limit.is_some_and(|limit| records.len() >= limit) {
            break;
        }
        let line = line.map_err(|e| format!("{file}: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let grid = Grid::parse_line(line.trim(), index + 1).map_err(|e| format!("{file}: {e}"))?;
        if grid.box_size() != 3 {
            return Err(format!("{file}: line {}: not a 9x9 grid", index + 1));
        }
        let started = Instant::now();
        solver
            .restart_with(empty.givens(&grid))
            .map_err(|e| e.to_string())?;
        let render = |values: &[i32]| {
            let cells: Vec<u8> = values.iter().map(|&v| v as u8).collect();
            let grid = Grid::from_cells(&cells).expect("a solution fills the grid");
            let text = grid.to_text(GridFormat::Line).expect("9x9 has symbols");
            text.trim_end().to_string()
        };
        let (answer, stats) = search(&mut solver, mode, 2, render)?;
        records.push(Record {
            item: (index + 1).to_string(),
            answer,
            time: started.elapsed(),
            stats,
        });
    }
    finish(
        &format!("sudoku {mode} {level:?} {file}"),
        "puzzles",
        &records,
        options,
    )
}

fn queens(options: &Options) -> Result<(), String> {
    let [_, mode, sizes @ ..] = options.positional.as_slice() else {
        return Err(USAGE.to_string());
    };
    if !["count", "mrv", "lex"].contains(&mode.as_str()) {
        return Err(format!("unknown queens mode {mode:?}"));
    }
    let level = options.propagation.unwrap_or(Queens::DEFAULT_PROPAGATION);
    let mut records = Vec::new();
    for size in sizes {
        let n: usize = parse_number(size)?;
        let started = Instant::now();
        let queens = match options.model.as_deref() {
            None | Some("alldiff") => Queens::new(n),
            Some("board") => Queens::non_attacking(n),
            Some(other) => return Err(format!("unknown queens model {other:?}")),
        }
        .map_err(|e| e.to_string())?;
        let render = |values: &[i32]| {
            // The model's columns count from 1.
            let columns: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            columns.join(",")
        };
        let mut solver = solver_for(queens.model(), mode, options, level);
        let (answer, stats) = search(&mut solver, mode, u64::MAX, render)?;
        let time = started.elapsed();
        eprintln!(
            "n = {n}: {answer_short} in {:.3} ms, {} nodes, {} failures",
            time.as_secs_f64() * 1e3,
            stats.decisions,
            stats.failures,
            answer_short = shorten(&answer),
        );
        records.push(Record {
            item: n.to_string(),
            answer,
            time,
            stats,
        });
    }
    finish(
        &format!(
            "queens {mode} {level:?}{}",
            if options.model.as_deref() == Some("board") {
                " (board model)"
            } else {
                ""
            }
        ),
        "boards",
        &records,
        options,
    )
}

fn shorten(answer: &str) -> String {
    if answer.len() <= 40 {
        answer.to_string()
    } else {
        format!("{}...", &answer[..37])
    }
}

/// Prints the aggregate and writes the per-item lines.
fn finish(title: &str, unit: &str, records: &[Record], options: &Options) -> Result<(), String> {
    if let Some(path) = &options.emit {
        let write = || -> std::io::Result<()> {
            let file: Box<dyn Write> = if path == "-" {
                Box::new(std::io::stdout().lock())
            } else {
                Box::new(File::create(path)?)
            };
            let mut out = BufWriter::new(file);
            writeln!(out, "# cspkit {title}; time = build + solve")?;
            for r in records {
                writeln!(
                    out,
                    "{} {} {:.1} {} {}",
                    r.item,
                    r.answer,
                    r.time.as_secs_f64() * 1e6,
                    r.stats.decisions,
                    r.stats.failures
                )?;
            }
            out.flush()
        };
        write().map_err(|e| format!("{path}: {e}"))?;
    }
    let to_stderr = options.emit.as_deref() == Some("-");
    let report = |line: String| {
        if to_stderr {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    };
    let count = records.len();
    if count == 0 {
        report(format!("{title}: nothing to run"));
        return Ok(());
    }
    let mut micros: Vec<f64> = records.iter().map(|r| r.time.as_secs_f64() * 1e6).collect();
    micros.sort_by(f64::total_cmp);
    let total: f64 = micros.iter().sum();
    let nodes: u64 = records.iter().map(|r| r.stats.decisions).sum();
    let failures: u64 = records.iter().map(|r| r.stats.failures).sum();
    let stopped = records.iter().filter(|r| r.answer == "limit").count();
    let sum =
        |count: fn(&SearchStats) -> u64| -> u64 { records.iter().map(|r| count(&r.stats)).sum() };
    let tree_nodes = sum(SearchStats::tree_nodes);
    report(format!(
        "{title}: {count} {unit}, {:.1} {unit}/s, median {:.1} µs, p99 {:.1} µs, \
         mean {:.1} nodes and {:.1} failures per {}, {stopped} stopped by a limit; \
         {tree_nodes} tree nodes, {:.2} propagations and {:.2} domain changes per tree node",
        count as f64 / (total / 1e6),
        percentile(&micros, 0.5),
        percentile(&micros, 0.99),
        nodes as f64 / count as f64,
        failures as f64 / count as f64,
        unit.trim_end_matches('s'),
        sum(|s| s.propagations) as f64 / tree_nodes as f64,
        sum(|s| s.domain_changes) as f64 / tree_nodes as f64,
    ));
    Ok(())
}

/// The nearest-rank percentile of sorted values.
fn percentile(sorted: &[f64], fraction: f64) -> f64 {
    let rank = (fraction * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}
