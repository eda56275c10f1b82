//! The `cspkit` command-line program: a thin layer over the library's Sudoku and N-Queens
//! models. It reads input, picks the strategy from the flags, and prints; all solving is the
//! library's.
//!
//! This file is the entry point: it parses the arguments and hands each command to its module
//! (`commands` for one Sudoku, N-Queens or colouring puzzle, `batch`, `puzzles`, `compare`,
//! `minizinc` for `fzn` and `mzn`, `serve` for the browser page). What they share lives in
//! `run` (the solver the flags configure, the observers, the modes of search), `input`
//! (reading a puzzle, refusing options that clash), `output` (exit codes, errors, statistics)
//! and `limits` (the start time and the flag that stops a search).

/// Writes a line on standard error, like `eprintln!`, but without panicking when standard
/// error is closed or full (`cspkit … 2>&1 | head`): there is nowhere left to report that.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod ac3_page;
mod args;
mod batch;
mod commands;
mod compare;
mod enums;
mod fzn;
mod genres;
mod input;
mod limits;
mod local;
mod minizinc;
mod output;
mod output_item;
mod ozn;
mod puzzles;
mod run;
mod serve;
mod step;
mod why_removed;

use std::process::ExitCode;

use clap::Parser as _;

use args::{Cli, Command};
use cspkit::models::{
    futoshiki::Futoshiki, kakuro::Kakuro, kenken::KenKen, killer_sudoku::KillerSudoku,
    skyscrapers::Skyscrapers,
};
use output::{exit, output_failed};

fn main() -> ExitCode {
    limits::started();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return ExitCode::from(usage(&error)),
    };
    let code = match cli.command {
        None => commands::demo(),
        Some(Command::Sudoku(args)) if args.removal.why_removed.is_some() => {
            why_removed::sudoku(&args)
        }
        Some(Command::Sudoku(args)) if args.puzzle.any() => puzzles::run(&args),
        Some(Command::Sudoku(args)) if args.batch && args.local.local_search.is_none() => {
            batch::run(&args)
        }
        Some(Command::Sudoku(args)) => commands::sudoku(&args),
        Some(Command::Queens(args)) => commands::queens(&args),
        Some(Command::Colour(args)) => commands::colour(&args),
        Some(Command::Compare(args)) => compare::run(&args),
        Some(Command::Fzn(args)) if args.run.removal.why_removed.is_some() => {
            why_removed::fzn(&args)
        }
        Some(Command::Fzn(args)) => minizinc::fzn(&args),
        Some(Command::Mzn(args)) if args.run.removal.why_removed.is_some() => {
            why_removed::mzn(&args)
        }
        Some(Command::Mzn(args)) => minizinc::mzn(&args),
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Futoshiki(args)) => genres::solve::<Futoshiki>(&args),
        Some(Command::Kenken(args)) => genres::solve::<KenKen>(&args),
        Some(Command::Kakuro(args)) => genres::solve::<Kakuro>(&args),
        Some(Command::Skyscrapers(args)) => genres::solve::<Skyscrapers>(&args),
        Some(Command::Killer(args)) => genres::solve::<KillerSudoku>(&args),
        Some(Command::Generate(args)) => genres::generate(&args),
    };
    ExitCode::from(code)
}

/// Prints a usage error, or the help or version asked for; returns the exit code.
fn usage(error: &clap::Error) -> u8 {
    let code = if error.use_stderr() {
        exit::BAD_INPUT
    } else {
        exit::SOLVED
    };
    match error.print() {
        Err(e) if !error.use_stderr() => output_failed(e, code),
        _ => code,
    }
}
