//! Watch the search: print every decision, failure, backtrack and solution of 4-Queens.
//!
//! Run with `cargo run --release --example trace` (add `-- forward` for forward checking; the
//! default is plain backtracking, the textbook algorithm).

use cspkit::models::queens::Queens;
use cspkit::{ConstraintId, Model, PropagationLevel, SearchObserver, VarId};

/// Prints each event indented by its depth, with the model's names for variables and constraints.
struct Printer<'m> {
    model: &'m Model,
}

impl SearchObserver for Printer<'_> {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        let indent = "  ".repeat(depth - 1);
        println!("{indent}{} = {value}", self.model.var_name(var));
    }

    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        let indent = "  ".repeat(depth);
        match constraint {
            Some(c) => println!("{indent}✗ {}", self.model.constraint_name(c)),
            None => println!("{indent}✗ no value left"),
        }
    }

    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        let indent = "  ".repeat(depth - 1);
        println!("{indent}{} ≠ {value}", self.model.var_name(var));
    }

    fn solution(&mut self, depth: usize) {
        println!("{}✓ solution", "  ".repeat(depth));
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let level = match std::env::args().nth(1).as_deref() {
        Some("forward") => PropagationLevel::Forward,
        Some("full") => PropagationLevel::Full,
        _ => PropagationLevel::None,
    };
    let queens = Queens::new(4)?;
    let model = queens.model();
    let mut solver = model
        .solver()
        .with_propagation(level)
        .with_observer(Printer { model });
    let solution = solver.next_solution().solution().ok_or("no solution")?;
    println!("columns {:?}", queens.columns(&solution));
    let stats = solver.stats();
    println!(
        "{level:?}: {} decisions, {} failures, {} backtracks",
        stats.nodes, stats.failures, stats.backtracks
    );
    Ok(())
}
