//! `cspkit compare`: one puzzle, every combination of the strategies asked for, one table.

use std::io::{self, Write};

use cspkit::teach::table::{self, Row};
use cspkit::{Branching, Limit, Model, Outcome, PropagationLevel};

use crate::args::{BranchingArg, CompareArgs, Propagation, Puzzle, ValOrder, VarOrder, name_of};
use crate::{bad_input, colouring, exit, load_grid, output_failed, queens_model};

/// Runs the comparison and prints the table; returns the exit code.
pub(crate) fn run(args: &CompareArgs) -> u8 {
    let built = match build(args) {
        Ok(built) => built,
        Err(code) => return code,
    };
    let model = built.model();
    let var_orders = or_all(
        &args.var_order,
        &[
            VarOrder::Input,
            VarOrder::Mrv,
            VarOrder::MrvRandom,
            VarOrder::DomDeg,
            VarOrder::DomWdeg,
        ],
    );
    let value_orders = or_all(
        &args.value_order,
        &[
            ValOrder::Asc,
            ValOrder::Desc,
            ValOrder::Middle,
            ValOrder::Random,
            ValOrder::Lcv,
        ],
    );
    let levels = or_all(
        &args.propagation,
        &[
            Propagation::None,
            Propagation::Fc,
            Propagation::Forward,
            Propagation::Full,
        ],
    );
    let branchings = or_all(&args.branching, &[BranchingArg::Assign]);
    let seed = args.seed.unwrap_or_default();
    let mut rows = Vec::new();
    for &branching in &branchings {
        for &var_order in &var_orders {
            for &value_order in &value_orders {
                for &level in &levels {
                    let mut solver = model
                        .solver()
                        .with_variable_order(var_order.build(seed))
                        .with_value_order(value_order.build(seed))
                        .with_propagation(PropagationLevel::from(level))
                        .with_branching(Branching::from(branching))
                        .with_textbook_forward_checking(level == Propagation::Fc)
                        .with_decision_limit(args.decision_limit)
                        .with_time_limit(args.time_limit);
                    let stopped = if args.count || args.all {
                        solver.count().stopped_by
                    } else {
                        match solver.next_solution() {
                            Outcome::LimitReached(limit) => Some(limit),
                            _ => None,
                        }
                    };
                    let status =
                        stopped.map_or_else(|| "done".to_owned(), |l: Limit| l.to_string());
                    let names = [
                        name_of(var_order),
                        name_of(value_order),
                        name_of(level),
                        name_of(branching),
                    ];
                    let names = [&*names[0], &*names[1], &*names[2], &*names[3]];
                    rows.push(Row::new(names, &solver.stats(), &status));
                }
            }
        }
    }
    let text = table::render(&rows, args.format.into());
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => exit::SOLVED,
        Err(error) => output_failed(error, exit::SOLVED),
    }
}

/// The lists given, or every choice.
fn or_all<T: Copy>(given: &[T], all: &[T]) -> Vec<T> {
    if given.is_empty() {
        all.to_vec()
    } else {
        given.to_vec()
    }
}

/// The puzzle's model, kept with what owns it.
enum Built {
    Queens(cspkit::models::queens::Queens),
    Sudoku(cspkit::models::sudoku::Sudoku),
    Colour(cspkit::models::colouring::Colouring),
}

impl Built {
    fn model(&self) -> &Model {
        match self {
            Built::Queens(q) => q.model(),
            Built::Sudoku(s) => s.model(),
            Built::Colour(c) => c.model(),
        }
    }
}

fn build(args: &CompareArgs) -> Result<Built, u8> {
    match args.puzzle {
        Puzzle::Queens => {
            let n: usize = args
                .target
                .parse()
                .ok()
                .filter(|n| (1..=1000).contains(n))
                .ok_or_else(|| {
                    bad_input(format_args!(
                        "compare queens {:?}: N must be a whole number from 1 to 1000",
                        args.target
                    ))
                })?;
            queens_model(n, args.model).map(Built::Queens)
        }
        Puzzle::Sudoku => {
            let (grid, _) = load_grid(Some(std::path::Path::new(&args.target)), None)?;
            cspkit::models::sudoku::Sudoku::new(&grid)
                .map(Built::Sudoku)
                .map_err(bad_input)
        }
        Puzzle::Colour => colouring(&args.target, args.colours).map(Built::Colour),
    }
}
