//! The lazy solution iterator: a solver kept alive on its own thread, asked for one solution
//! at a time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use cspkit::{Model, Outcome, SearchStats};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::raised;
use crate::options::SearchOptions;
use crate::run::wait;
use crate::stats::stats_dict;

/// What the solver thread answers to one request: the next outcome and the statistics so far.
type Answer = Result<(Outcome, SearchStats), String>;

/// The channels to one solver thread.
#[derive(Debug)]
struct Worker {
    /// One message per solution asked for; dropping it ends the thread.
    requests: Option<SyncSender<()>>,
    /// The thread's answers.
    answers: Mutex<Receiver<Answer>>,
}

/// The solutions of a model, one per `next`, found lazily by a solver on its own thread.
///
/// After the last solution, `status` says whether the search was exhausted or a limit
/// stopped it.
#[pyclass(module = "cspkit._cspkit")]
#[derive(Debug)]
pub struct RawSolutions {
    worker: Mutex<Worker>,
    cancel: Arc<AtomicBool>,
    stats: Mutex<SearchStats>,
    status: Mutex<Option<String>>,
}

impl RawSolutions {
    /// Starts a solver thread over `model` with `options`.
    pub fn start(model: Arc<Model>, options: SearchOptions) -> RawSolutions {
        let cancel = Arc::new(AtomicBool::new(false));
        let (requests, asked) = mpsc::sync_channel::<()>(0);
        let (answer, answers) = mpsc::sync_channel::<Answer>(1);
        let flag = Arc::clone(&cancel);
        std::thread::spawn(move || {
            let mut solver = match options.solver(&model, flag) {
                Ok(solver) => solver,
                Err(error) => {
                    if asked.recv().is_ok() {
                        let _ = answer.send(Err(error.to_string()));
                    }
                    return;
                }
            };
            while asked.recv().is_ok() {
                let outcome = solver.next_solution();
                let last = matches!(outcome, Outcome::Exhausted);
                if answer.send(Ok((outcome, solver.stats()))).is_err() || last {
                    return;
                }
            }
        });
        RawSolutions {
            worker: Mutex::new(Worker {
                requests: Some(requests),
                answers: Mutex::new(answers),
            }),
            cancel,
            stats: Mutex::new(SearchStats::default()),
            status: Mutex::new(None),
        }
    }
}

#[pymethods]
impl RawSolutions {
    /// The iterator itself.
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The values of the next solution (one per variable, by index), or the end.
    ///
    /// Ctrl-C while it searches raises `KeyboardInterrupt`; the iterator can be resumed.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Vec<i32>>> {
        // Never block on the lock while holding the GIL: the thread searching gives the GIL
        // up while it holds the lock, and could not take it back.
        let mut worker = match self.worker.try_lock() {
            Ok(worker) => worker,
            Err(std::sync::TryLockError::WouldBlock) => {
                return Err(raised(
                    "these solutions are being searched by another thread: one thread at a time \
                     may iterate them",
                ));
            }
            Err(std::sync::TryLockError::Poisoned(_)) => {
                return Err(raised("these solutions failed in another thread"));
            }
        };
        let Some(requests) = worker.requests.as_ref() else {
            return Ok(None);
        };
        if requests.send(()).is_err() {
            return Ok(None);
        }
        let answer = wait(py, &worker.answers, &self.cancel, None);
        self.cancel.store(false, Ordering::Relaxed);
        let (outcome, stats) = answer?.map_err(raised)?;
        *self.stats.lock().expect("the stats lock") = stats;
        let status = match outcome {
            Outcome::Solved(solution) => return Ok(Some(solution.values().to_vec())),
            Outcome::LimitReached(limit) => format!("limit: {limit}"),
            _ => "exhausted".to_string(),
        };
        *self.status.lock().expect("the status lock") = Some(status);
        worker.requests = None;
        Ok(None)
    }

    /// `None` while solutions may remain; then `"exhausted"` or `"limit: <why>"`.
    #[getter]
    fn status(&self) -> Option<String> {
        self.status.lock().expect("the status lock").clone()
    }

    /// The statistics of the search so far, as a dict.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        stats_dict(py, &self.stats.lock().expect("the stats lock"))
    }
}
