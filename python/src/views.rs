//! What the teaching views share: running a job on a worker thread with the GIL released
//! (Ctrl-C raising its cancellation flag), running a search as far as the view asks (the
//! first solution, some, or all, as `--trace`, `--count` and `--tree` do), and the board a
//! page draws beside the tree.
//!
//! The views themselves: `trace.rs` (the trace as lines and as events), `tree.rs` (the tree
//! page, the picture, and the resumable search of the live widget), `compare.rs` and
//! `puzzle.rs` (the Sudoku tools).

use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use cspkit::teach::html::Board;
use cspkit::{Limit, Model, SearchObserver, Solver, ValueOrder, VarId, VariableOrder};
use pyo3::prelude::*;

use crate::errors::raised;
use crate::run::wait;

/// What a page draws beside the tree, as the Python side describes it: `("queens", rows,
/// first_column)` (the row variables' indices and the value of the leftmost column),
/// `("grid", cells, columns)` (the cells row by row), or `None` for the table of domains.
pub type BoardSpec = Option<(String, Vec<usize>, i64)>;

/// Runs `job` on a worker thread while the calling thread waits with the GIL released; the
/// flag `job` is given is raised when Ctrl-C (or another signal handler) raises.
///
/// # Errors
///
/// The exception of the signal handler (`KeyboardInterrupt`), raised once the job has
/// stopped; a `RuntimeError` if the job died without answering.
pub fn off_the_gil<T: Send + 'static>(
    py: Python<'_>,
    job: impl FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
) -> PyResult<T> {
    let cancel = Arc::new(AtomicBool::new(false));
    let (sender, answers) = mpsc::sync_channel(1);
    let flag = Arc::clone(&cancel);
    let worker = std::thread::spawn(move || {
        let _ = sender.send(job(flag));
    });
    wait(py, &Mutex::new(answers), &cancel, Some(worker))
}

/// Runs `solver` for `wanted` solutions (0: all of them), as the command line does for the
/// first solution, `--count --limit N` and `--count`; the limit that stopped it first, if
/// one did.
pub fn run_search<V: VariableOrder, W: ValueOrder, O: SearchObserver>(
    solver: &mut Solver<'_, V, W, O>,
    wanted: u64,
) -> Option<Limit> {
    match wanted {
        1 => match solver.next_solution() {
            cspkit::Outcome::LimitReached(limit) => Some(limit),
            _ => None,
        },
        0 => solver.count().stopped_by,
        n => solver
            .count_up_to(n)
            .stopped_by
            .filter(|&limit| limit != Limit::Solutions),
    }
}

/// The board `spec` describes, over the variables of `model`.
///
/// # Errors
///
/// `CspkitError` for an unknown kind of board or a variable index the model does not have.
pub fn board(model: &Model, spec: BoardSpec) -> PyResult<Board> {
    let Some((kind, indices, number)) = spec else {
        return Ok(Board::Table);
    };
    let vars: Vec<VarId> = model.variables().collect();
    let cells = indices
        .iter()
        .map(|&index| {
            vars.get(index).copied().ok_or_else(|| {
                raised(format!(
                    "board: no variable with index {index} (the model has {})",
                    vars.len()
                ))
            })
        })
        .collect::<PyResult<Vec<VarId>>>()?;
    match kind.as_str() {
        "queens" => Ok(Board::Queens {
            rows: cells,
            first_column: i32::try_from(number)
                .map_err(|_| raised(format!("board: first column {number} out of range")))?,
        }),
        "grid" => Ok(Board::Grid {
            columns: usize::try_from(number)
                .ok()
                .filter(|&columns| columns > 0)
                .ok_or_else(|| raised(format!("board: {number} columns")))?,
            cells,
        }),
        other => Err(raised(format!(
            "board: unknown kind {other:?} (the kinds are queens, grid)"
        ))),
    }
}

/// How a search that stopped at `limit` (or ran to its end) is written in tables: `done`,
/// or the limit's words.
pub fn status_words(limit: Option<Limit>) -> String {
    limit.map_or_else(|| "done".to_owned(), |limit| limit.to_string())
}
