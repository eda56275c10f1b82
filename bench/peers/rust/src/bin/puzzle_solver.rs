//! puzzle-solver: Sudoku and N-Queens modelled the way its own tests do (one variable per cell
//! with candidates 1..=9 and `all_different` per row, column and block; one variable per row
//! for the queens, with `all_different` on the columns and a diagonal constraint of our own).
//!
//! Its search always branches on a smallest domain and cannot be given an order, so it has no
//! lexicographic workload; `solve_unique` answers "unique or not", so `count2` reports `1` or
//! `not-unique`. `num_guesses` is reported as the node count. It has no time limit.

use std::rc::Rc;

use cspkit_bench_peers::{columns_text, emit, grid_text, timed, unsupported, Args};
use puzzle_solver::{Constraint, PsResult, Puzzle, PuzzleSearch, Solution, Val, VarToken};

fn sudoku(cells: &[u8; 81]) -> (Puzzle, Vec<VarToken>) {
    let mut puzzle = Puzzle::new();
    let vars: Vec<VarToken> = (0..81)
        .map(|_| puzzle.new_var_with_candidates(&[1, 2, 3, 4, 5, 6, 7, 8, 9]))
        .collect();
    for g in 0..9 {
        puzzle.all_different((0..9).map(|k| &vars[g * 9 + k]));
        puzzle.all_different((0..9).map(|k| &vars[k * 9 + g]));
        puzzle.all_different((0..9).map(|k| &vars[(g / 3 * 3 + k / 3) * 9 + g % 3 * 3 + k % 3]));
    }
    for (&var, &value) in vars.iter().zip(cells) {
        if value != 0 {
            puzzle.set_value(var, Val::from(value));
        }
    }
    (puzzle, vars)
}

/// No two queens on a diagonal: when row `i` gets column `c`, row `j` loses `c ± (j − i)`.
#[derive(Debug)]
struct Diagonals {
    rows: Vec<VarToken>,
}

impl Constraint for Diagonals {
    fn vars<'a>(&'a self) -> Box<dyn Iterator<Item = &'a VarToken> + 'a> {
        Box::new(self.rows.iter())
    }

    fn on_assigned(&self, search: &mut PuzzleSearch, var: VarToken, val: Val) -> PsResult<()> {
        let row = self.rows.iter().position(|&r| r == var).expect("a row") as Val;
        for (other, &var2) in self.rows.iter().enumerate() {
            let distance = other as Val - row;
            if distance != 0 && !search.is_assigned(var2) {
                search.remove_candidate(var2, val + distance)?;
                search.remove_candidate(var2, val - distance)?;
            }
        }
        Ok(())
    }

    fn substitute(&self, _from: VarToken, _to: VarToken) -> PsResult<Rc<dyn Constraint>> {
        unreachable!("the queens model unifies no variables")
    }
}

fn queens(n: usize) -> (Puzzle, Vec<VarToken>) {
    let mut puzzle = Puzzle::new();
    let columns: Vec<Val> = (1..=n as Val).collect();
    let rows = puzzle.new_vars_with_candidates_1d(n, &columns);
    puzzle.all_different(&rows);
    puzzle.add_constraint(Diagonals { rows: rows.clone() });
    (puzzle, rows)
}

fn values(solution: &Solution, vars: &[VarToken]) -> Vec<i32> {
    vars.iter().map(|&v| solution[v]).collect()
}

fn main() {
    let args = Args::parse();
    match (args.problem.as_str(), args.mode.as_str()) {
        ("sudoku", "mrv" | "count2") => {
            for (line, cells) in args.puzzles() {
                let ((answer, guesses), time) = timed(|| {
                    let (mut puzzle, vars) = sudoku(&cells);
                    let answer = if args.mode == "mrv" {
                        puzzle.solve_any().map(|s| grid_text(values(&s, &vars)))
                    } else {
                        Some(
                            puzzle
                                .solve_unique()
                                .map_or("not-unique", |_| "1")
                                .to_string(),
                        )
                    };
                    (
                        answer.unwrap_or_else(|| "none".into()),
                        puzzle.num_guesses(),
                    )
                });
                emit(line, &answer, time, Some(u64::from(guesses)), None);
            }
        }
        ("queens", "mrv" | "count") => {
            for n in args.sizes() {
                let ((answer, guesses), time) = timed(|| {
                    let (mut puzzle, rows) = queens(n);
                    let answer = if args.mode == "mrv" {
                        puzzle
                            .solve_any()
                            .map_or("none".into(), |s| columns_text(values(&s, &rows)))
                    } else {
                        puzzle.solve_all().len().to_string()
                    };
                    (answer, puzzle.num_guesses())
                });
                emit(n, &answer, time, Some(u64::from(guesses)), None);
            }
        }
        _ => unsupported(&args),
    }
}
