//! Watch the search: a hand-written observer that prints every decision, failure, backtrack
//! and solution of N-Queens, beside the library's own trace of the same search.
//!
//! Run with `cargo run --release --example trace` (4 queens, plain backtracking), or give the
//! level and the size: `cargo run --release --example trace -- forward 6`. The command line
//! has the library's trace built in: `cspkit queens 6 --trace`.

use cspkit::models::queens::Queens;
use cspkit::teach::trace::Trace;
use cspkit::{BranchKind, Event, Model, PropagationLevel, SearchObserver};

/// Prints each decision, failure, backtrack and solution indented by its depth, with the
/// model's names for variables and constraints: four kinds of [`Event`] are all it takes.
struct Printer<'m> {
    model: &'m Model,
}

impl SearchObserver for Printer<'_> {
    fn on_event(&mut self, event: &Event<'_>) {
        match *event {
            Event::Node {
                var,
                value,
                kind: BranchKind::Equal,
                depth,
                ..
            } => {
                let indent = "  ".repeat(depth - 1);
                println!("{indent}{} = {value}", self.model.var_name(var));
            }
            Event::Failure {
                constraint, depth, ..
            } => {
                let indent = "  ".repeat(depth);
                match constraint {
                    Some(c) => println!("{indent}✗ {}", self.model.constraint_name(c)),
                    None => println!("{indent}✗ no value left"),
                }
            }
            Event::Backtrack { var, value, depth } => {
                let indent = "  ".repeat(depth - 1);
                println!("{indent}{} ≠ {value}", self.model.var_name(var));
            }
            Event::Solution { depth, .. } => println!("{}✓ solution", "  ".repeat(depth)),
            _ => {}
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let level = match args.next().as_deref() {
        Some("forward") => PropagationLevel::Forward,
        Some("full") => PropagationLevel::Full,
        _ => PropagationLevel::None,
    };
    let n = args.next().map_or(Ok(4), |n| n.parse::<usize>())?;
    let queens = Queens::new(n)?;
    let model = queens.model();

    println!("-- a hand-written observer --");
    let mut solver = model
        .solver()
        .with_propagation(level)
        .with_observer(Printer { model });
    let solution = solver.next_solution().solution().ok_or("no solution")?;
    println!("columns {:?}", queens.columns(&solution));
    let stats = solver.stats();
    println!(
        "{level:?}: {} decisions, {} failures, {} backtracks",
        stats.decisions, stats.failures, stats.backtracks
    );

    println!("\n-- the library's trace (cspkit::teach::trace::Trace) --");
    let mut trace = Trace::new(model, std::io::stdout());
    let mut solver = model
        .solver()
        .with_propagation(level)
        .with_observer(&mut trace);
    let _ = solver.next_solution();
    drop(solver);
    trace.finish()?;
    Ok(())
}
