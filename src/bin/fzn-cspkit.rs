//! `fzn-cspkit`: the FlatZinc solver program MiniZinc runs for `--solver cspkit` (the same as
//! `cspkit fzn`; see `cspkit fzn --help`).

use std::process::ExitCode;

#[path = "cspkit/fzn.rs"]
mod fzn;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    ExitCode::from(fzn::main(&args))
}
