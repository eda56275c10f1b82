//! Running a search on a worker thread while the calling thread waits with the GIL released,
//! waking every few milliseconds to let Python handle signals: Ctrl-C raises the solver's
//! cancellation flag, the worker stops at its next check, and `KeyboardInterrupt` is raised
//! with the model untouched.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use cspkit::{Model, ModelError, SearchStats};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::errors::raised;
use crate::options::{AnySolver, SearchOptions};

/// How long the calling thread waits between two looks at Python's signals.
pub const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Runs `job` on a solver of `model` made with `options`, on a worker thread; returns what it
/// returns and the solver's statistics.
///
/// # Errors
///
/// `CspkitError` if the options do not suit the model; the `KeyboardInterrupt` (or other
/// exception) a signal handler raised while the search ran.
pub fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    model: Arc<Model>,
    options: SearchOptions,
    job: impl for<'m> FnOnce(&mut AnySolver<'m>) -> Result<T, ModelError> + Send + 'static,
) -> PyResult<(T, SearchStats)> {
    let cancel = Arc::new(AtomicBool::new(false));
    let (sender, answers) = mpsc::sync_channel(1);
    let flag = Arc::clone(&cancel);
    let worker = std::thread::spawn(move || {
        let answer = options.solver(&model, flag).and_then(|mut solver| {
            let value = job(&mut solver)?;
            Ok((value, solver.stats()))
        });
        let _ = sender.send(answer);
    });
    let answer = wait(py, &Mutex::new(answers), &cancel, Some(worker))?;
    answer.map_err(raised)
}

/// Waits for the worker's answer with the GIL released, raising `cancel` when a Python
/// signal handler raises; `worker` (if given) is joined once it has answered or stopped.
///
/// # Errors
///
/// The exception of the signal handler, raised once the worker has stopped; a
/// `RuntimeError` if the worker died without answering.
pub fn wait<A: Send>(
    py: Python<'_>,
    answers: &Mutex<Receiver<A>>,
    cancel: &AtomicBool,
    worker: Option<JoinHandle<()>>,
) -> PyResult<A> {
    let mut interrupted: Option<PyErr> = None;
    loop {
        match py.allow_threads(|| {
            answers
                .lock()
                .expect("the answers lock")
                .recv_timeout(SIGNAL_POLL)
        }) {
            Ok(answer) => {
                if let Some(worker) = worker {
                    let _ = py.allow_threads(|| worker.join());
                }
                return match interrupted {
                    Some(error) => Err(error),
                    None => Ok(answer),
                };
            }
            Err(RecvTimeoutError::Timeout) => {
                if interrupted.is_none()
                    && let Err(error) = py.check_signals()
                {
                    cancel.store(true, Ordering::Relaxed);
                    interrupted = Some(error);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(interrupted.unwrap_or_else(|| {
                    PyRuntimeError::new_err("the search thread stopped without an answer")
                }));
            }
        }
    }
}
