//! The `sudoku`, `queens` and `colour` commands on one puzzle (tree search or local search),
//! and what `cspkit` prints without arguments.

use std::io::{self, Write};
use std::sync::atomic::Ordering;

use cspkit::models::queens::Queens;
use cspkit::models::sudoku::{Grid, GridFormat, Sudoku};
use cspkit::teach::html::Board;
use cspkit::{Domain, PropagationLevel, Solution};

use crate::args::{
    ColourArgs, Defaults, MAX_LOCAL_QUEENS, MAX_QUEENS, QueensArgs, QueensModel, SudokuArgs,
};
use crate::input::{check_local_options, colouring, load_grid, queens_model};
use crate::limits::{built_within, interrupt};
use crate::local;
use crate::output::{bad_input, exit, output_failed};
use crate::run::{Answer, Views, configure, watched};
use crate::step::Marks;

/// The Baekjoon 2239 example, solved when `cspkit` runs without arguments.
const SAMPLE_SUDOKU: &str = "\
103000509
002109400
000704000
300502006
060000050
700803004
000401000
009205800
804000107
";

pub(crate) fn sudoku(args: &SudokuArgs) -> u8 {
    if args.local.local_search.is_some() && args.batch {
        return bad_input("--local-search solves one puzzle: it cannot be combined with --batch");
    }
    if let Err(code) = check_local_options(&args.mode, &args.strategy, &args.local, &args.show) {
        return code;
    }
    let (grid, input_format) =
        match load_grid(args.file.as_deref(), args.input_format.map(Into::into)) {
            Ok(loaded) => loaded,
            Err(code) => return code,
        };
    let format: GridFormat = args.format.map_or(input_format, Into::into);
    if let Err(error) = grid.to_text(format) {
        return bad_input(error);
    }
    let sudoku = match Sudoku::new(&grid) {
        Ok(sudoku) => sudoku,
        Err(error) => return bad_input(error),
    };
    if args.local.local_search.is_some() {
        let local = args.local.with_strategy(&args.strategy);
        return local::run(sudoku.model(), &local, &args.show, |solution| {
            sudoku.grid_of(solution).to_text(format).unwrap_or_default()
        });
    }
    let solver = match configure(sudoku.model(), &args.strategy, PropagationLevel::Full) {
        Ok(solver) => solver,
        Err(error) => return bad_input(error),
    };
    let separator = if format == GridFormat::Line { "" } else { "\n" };
    let answer = Answer {
        mode: &args.mode,
        strategy: &args.strategy,
        separator,
        defaults: Defaults::at("full"),
    };
    let board = Board::Grid {
        columns: grid.side(),
        cells: sudoku.cells().to_vec(),
    };
    let views = Views {
        render: |solution: &Solution| sudoku.grid_of(solution).to_text(format).unwrap_or_default(),
        state: |domains: &[Domain], _: &Marks| sudoku.board_at(domains),
        board,
    };
    watched(solver, &args.show, answer, views)
}

pub(crate) fn colour(args: &ColourArgs) -> u8 {
    if let Err(code) = check_local_options(&args.mode, &args.strategy, &args.local, &args.show) {
        return code;
    }
    let graph = match colouring(&args.graph, args.colours) {
        Ok(graph) => graph,
        Err(code) => return code,
    };
    if args.local.local_search.is_some() {
        let local = args.local.with_strategy(&args.strategy);
        return local::run(graph.model(), &local, &args.show, |solution| {
            format!("{}\n", graph.describe(solution))
        });
    }
    let solver = match configure(graph.model(), &args.strategy, PropagationLevel::Full) {
        Ok(solver) => solver,
        Err(error) => return bad_input(error),
    };
    let answer = Answer {
        mode: &args.mode,
        strategy: &args.strategy,
        separator: "",
        defaults: Defaults::at("full"),
    };
    // A graph has no board: --trace-domains shows the domains instead.
    let views = Views {
        render: |solution: &Solution| format!("{}\n", graph.describe(solution)),
        state: |_: &[Domain], _: &Marks| String::new(),
        board: Board::Table,
    };
    watched(solver, &args.show, answer, views)
}

pub(crate) fn queens(args: &QueensArgs) -> u8 {
    if let Err(code) = check_local_options(&args.mode, &args.strategy, &args.local, &args.show) {
        return code;
    }
    let local = args.local.local_search.is_some() && args.model == QueensModel::Alldiff;
    if args.n > MAX_QUEENS && !local {
        return bad_input(format_args!(
            "{} queens is too many for the tree search (at most {MAX_QUEENS}: its domains take \
             N² bits); --local-search min-conflicts with the alldiff model takes up to {MAX_LOCAL_QUEENS}",
            args.n
        ));
    }
    let built = if local {
        // Millions of queens take seconds to build, which the time limit counts.
        let (n, model) = (args.n as usize, args.model);
        let limit = args.local.with_strategy(&args.strategy).time_limit;
        match built_within(limit, move || queens_model(n, model)) {
            Some(built) => built,
            None => {
                note!(
                    "cspkit: no solution found in 0 steps ({}) (min-conflicts is incomplete: \
                     this does not mean there is none)",
                    if interrupt().load(Ordering::Relaxed) {
                        cspkit::Limit::Cancelled
                    } else {
                        cspkit::Limit::Time
                    }
                );
                return exit::STOPPED;
            }
        }
    } else {
        queens_model(args.n as usize, args.model)
    };
    let queens = match built {
        Ok(queens) => queens,
        Err(code) => return code,
    };
    if args.local.local_search.is_some() {
        let local = args.local.with_strategy(&args.strategy);
        let draw = queens.n() <= MAX_QUEENS as usize;
        return local::run(queens.model(), &local, &args.show, |solution| {
            let columns: Vec<String> = queens
                .columns(solution)
                .iter()
                .map(ToString::to_string)
                .collect();
            let board = if draw {
                queens.board(solution)
            } else {
                String::new()
            };
            format!("{board}{}\n", columns.join(" "))
        });
    }
    let solver = match configure(queens.model(), &args.strategy, Queens::DEFAULT_PROPAGATION) {
        Ok(solver) => solver,
        Err(error) => return bad_input(error),
    };
    let answer = Answer {
        mode: &args.mode,
        strategy: &args.strategy,
        separator: "\n",
        defaults: Defaults::at("forward"),
    };
    let board = Board::Queens {
        rows: queens.rows().to_vec(),
        first_column: 1,
    };
    let views = Views {
        render: |solution: &Solution| {
            let columns: Vec<String> = queens
                .columns(solution)
                .iter()
                .map(ToString::to_string)
                .collect();
            format!("{}{}\n", queens.board(solution), columns.join(" "))
        },
        state: |domains: &[Domain], marks: &Marks| {
            // A row of the clash marked: its line.
            let rows = queens.rows();
            let board = queens.board_at(domains);
            board
                .lines()
                .zip(rows)
                .map(|(line, &row)| marks.cell(row, line) + "\n")
                .collect()
        },
        board,
    };
    watched(solver, &args.show, answer, views)
}

pub(crate) fn demo() -> u8 {
    match write_demo(&mut io::stdout().lock()) {
        Ok(()) => exit::SOLVED,
        Err(error) => output_failed(error, exit::SOLVED),
    }
}

/// What `cspkit` prints without arguments: the samples solved, and usage hints.
fn write_demo(out: &mut impl Write) -> io::Result<()> {
    let grid = Grid::parse(SAMPLE_SUDOKU, None).expect("the built-in sample is a valid grid");
    let sudoku = Sudoku::new(&grid).expect("a valid grid makes a valid model");
    let solution = sudoku.solve().expect("the built-in sample is solvable");
    let solution = solution.to_text(GridFormat::Compact).unwrap_or_default();
    writeln!(
        out,
        "cspkit: a constraint-satisfaction engine, with Sudoku and N-Queens on top.\n"
    )?;
    writeln!(
        out,
        "Sudoku (the Baekjoon 2239 example), lexicographically smallest solution:\n"
    )?;
    writeln!(out, "  puzzle      solution")?;
    for (p, s) in SAMPLE_SUDOKU.lines().zip(solution.lines()) {
        writeln!(out, "  {p}   {s}")?;
    }
    let queens = Queens::new(8).expect("8 queens is a valid model");
    let mut solver = queens
        .model()
        .solver()
        .with_propagation(Queens::DEFAULT_PROPAGATION);
    if let Some(first) = solver.next_solution().solution() {
        let columns: Vec<String> = queens
            .columns(&first)
            .iter()
            .map(ToString::to_string)
            .collect();
        writeln!(
            out,
            "\n8-Queens, first placement (columns {}) of {}:\n",
            columns.join(" "),
            queens.count()
        )?;
        for row in queens.board(&first).lines() {
            writeln!(out, "  {row}")?;
        }
    }
    writeln!(
        out,
        "\nTry (files from the repository's samples/ folder; in a clone, \
         `cargo run --release -- ARGS` runs\n`cspkit ARGS`, and `cargo install --path .` puts \
         cspkit on your PATH):\n  \
         cspkit sudoku samples/sudoku/2239.txt           solve a puzzle (compact, spaced or line format)\n  \
         cspkit sudoku --batch samples/sudoku/batch.txt  one puzzle per line\n  \
         cspkit queens 12 --count                        count the placements of 12 queens\n  \
         cspkit queens 4 --trace                         watch the search\n  \
         cspkit fzn --install-msc                        then: minizinc --solver cspkit samples/minizinc/queens.mzn samples/minizinc/queens.dzn\n  \
         cspkit help sudoku                              every option, with examples"
    )?;
    out.flush()
}
