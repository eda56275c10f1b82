//! selen: Sudoku and N-Queens on its modelling API (`Model::int`, `alldiff`, and for the
//! diagonals of the queens, auxiliary variables tied to `row ± i` by `m.new(expr.eq(var))`, as
//! in its `n_queens` example).
//!
//! Its search is fixed: the first unassigned variable in declaration order, lower half of the
//! domain first. The cells (or rows) are declared first, so its first solution is the
//! lexicographic minimum: it runs the `lex`, `count2` and `count` workloads, with no node
//! count. Its default 60 s time limit would silently cut a count short, so the driver sets the
//! limit from `--timeout` and answers `limit` when a search ran into it.

use std::time::Duration;

use cspkit_bench_peers::{columns_text, emit, grid_text, timed, unsupported, Args};
use selen::prelude::*;
use selen::utils::config::SolverConfig;

fn model(timeout: Duration) -> Model {
    let millis = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
    Model::with_config(SolverConfig::default().with_timeout_ms(millis))
}

fn sudoku(cells: &[u8; 81], timeout: Duration) -> (Model, Vec<VarId>) {
    let mut m = model(timeout);
    let vars: Vec<VarId> = cells
        .iter()
        .map(|&v| {
            if v == 0 {
                m.int(1, 9)
            } else {
                m.int(i32::from(v), i32::from(v))
            }
        })
        .collect();
    for g in 0..9 {
        let row: Vec<VarId> = (0..9).map(|k| vars[g * 9 + k]).collect();
        let column: Vec<VarId> = (0..9).map(|k| vars[k * 9 + g]).collect();
        let block: Vec<VarId> = (0..9)
            .map(|k| vars[(g / 3 * 3 + k / 3) * 9 + g % 3 * 3 + k % 3])
            .collect();
        m.alldiff(&row);
        m.alldiff(&column);
        m.alldiff(&block);
    }
    (m, vars)
}

fn queens(n: usize, timeout: Duration) -> (Model, Vec<VarId>) {
    let mut m = model(timeout);
    let size = n as i32;
    let rows = m.ints(n, 1, size);
    m.alldiff(&rows);
    for sign in [1, -1] {
        let diagonals: Vec<VarId> = rows
            .iter()
            .enumerate()
            .map(|(i, &row)| {
                let shift = sign * i as i32;
                let diagonal = m.int(1 - size, 2 * size);
                m.new(add(row, int(shift)).eq(diagonal));
                diagonal
            })
            .collect();
        m.alldiff(&diagonals);
    }
    (m, rows)
}

/// The first solution rendered, `none`, or `limit` if the search hit the time limit.
fn first(m: Model, render: impl Fn(&Solution) -> String) -> String {
    match m.solve() {
        Ok(solution) => render(&solution),
        Err(SolverError::Timeout { .. }) => "limit".into(),
        Err(_) => "none".into(),
    }
}

/// The number of solutions, up to `max`, or `limit` if the search ran until the time limit.
fn count(m: Model, max: usize, timeout: Duration) -> String {
    let (found, time) = timed(|| m.enumerate().take(max).count());
    if time >= timeout {
        "limit".into()
    } else {
        found.to_string()
    }
}

fn main() {
    let args = Args::parse();
    let timeout = args.timeout;
    match (args.problem.as_str(), args.mode.as_str()) {
        ("sudoku", "lex" | "count2") => {
            for (line, cells) in args.puzzles() {
                let (answer, time) = timed(|| {
                    let (m, vars) = sudoku(&cells, timeout);
                    if args.mode == "lex" {
                        first(m, |s| grid_text(vars.iter().map(|&v| s.get_int(v))))
                    } else {
                        count(m, 2, timeout)
                    }
                });
                emit(line, &answer, time, None, None);
            }
        }
        ("queens", "lex" | "count") => {
            for n in args.sizes() {
                let (answer, time) = timed(|| {
                    let (m, rows) = queens(n, timeout);
                    if args.mode == "lex" {
                        first(m, |s| columns_text(rows.iter().map(|&v| s.get_int(v))))
                    } else {
                        count(m, usize::MAX, timeout)
                    }
                });
                emit(n, &answer, time, None, None);
            }
        }
        _ => unsupported(&args),
    }
}
