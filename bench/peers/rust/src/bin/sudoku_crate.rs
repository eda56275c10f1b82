//! The `sudoku` crate, a specialised 9x9 solver: the speed-of-light reference for one solution
//! of a 9x9 Sudoku. It is not a CSP engine and cannot fix its search order, so it has no
//! lexicographic workload.
//!
//! `sudoku_crate sudoku mrv FILE` (any solution) and `sudoku_crate sudoku count2 FILE`.

use cspkit_bench_peers::{emit, grid_text, timed, unsupported, Args};
use sudoku::Sudoku;

fn main() {
    let args = Args::parse();
    if args.problem != "sudoku" {
        unsupported(&args);
    }
    for (line, cells) in args.puzzles() {
        let puzzle = Sudoku::from_bytes(cells).expect("a 9x9 grid");
        let (answer, time) = match args.mode.as_str() {
            "mrv" => timed(|| match puzzle.some_solution() {
                Some(solution) => grid_text(solution.to_bytes().map(i32::from)),
                None => "none".to_string(),
            }),
            "count2" => timed(|| puzzle.solutions_count_up_to(2).to_string()),
            _ => unsupported(&args),
        };
        emit(line, &answer, time, None, None);
    }
}
