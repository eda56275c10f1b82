//! Running a search with the GIL released, stopping it cleanly on Ctrl-C: the one-shot
//! searches run on the calling thread and take the GIL back every few milliseconds to let
//! Python run its signal handlers; a solution iterator's search runs on a worker thread while
//! the calling thread waits, looking at the signals as often. Either way Ctrl-C raises the
//! solver's cancellation flag, the search stops at its next check, and `KeyboardInterrupt` is
//! raised with the model untouched.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use cspkit::{Event, Model, ModelError, SearchObserver, SearchStats, Solver};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::errors::raised;
use crate::options::{AnyValueOrder, AnyVariableOrder, SearchOptions};

/// How long the calling thread waits between two looks at Python's signals.
pub const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Runs `job` on a solver of `model` made with `options`, on a worker thread; returns what it
/// returns and the solver's statistics.
///
/// # Errors
///
/// `CspkitError` if the options do not suit the model; the `KeyboardInterrupt` (or other
/// exception) a signal handler raised while the search ran.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    model: Arc<Model>,
    options: SearchOptions,
    job: impl for<'m> FnOnce(&mut WatchedSolver<'m>) -> Result<T, ModelError> + Send,
) -> PyResult<(T, SearchStats)> {
    let cancel = Arc::new(AtomicBool::new(false));
    let answer = py.allow_threads(|| -> Result<_, ModelError> {
        let solver = options.solver(&model, Arc::clone(&cancel))?;
        let mut solver = solver.with_observer(SignalWatch::new(Arc::clone(&cancel)));
        let value = job(&mut solver)?;
        let stats = solver.stats();
        Ok((value, stats, solver.into_observer().interrupted))
    });
    match answer {
        Ok((_, _, Some(interrupted))) => Err(interrupted),
        Ok((value, stats, None)) => Ok((value, stats)),
        Err(error) => Err(raised(error)),
    }
}

/// A solver whose search looks at Python's signals as it goes.
pub type WatchedSolver<'m> = Solver<'m, AnyVariableOrder, AnyValueOrder, SignalWatch>;

/// An observer that, on the calling thread, takes the GIL back every [`SIGNAL_POLL`] of search
/// to let Python run its signal handlers; when one raises (Ctrl-C), it raises the solver's
/// cancellation flag and keeps the exception. Searching on the calling thread, rather than
/// handing the search to a worker, saves the handover (tens of microseconds, as long as a
/// whole Sudoku search).
#[derive(Debug)]
pub struct SignalWatch {
    cancel: Arc<AtomicBool>,
    events: u32,
    last_look: Instant,
    interrupted: Option<PyErr>,
}

impl SignalWatch {
    /// A watch that raises `cancel` on a signal handler's exception.
    fn new(cancel: Arc<AtomicBool>) -> SignalWatch {
        SignalWatch {
            cancel,
            events: 0,
            last_look: Instant::now(),
            interrupted: None,
        }
    }
}

/// How many search events pass between two looks at the clock.
const EVENTS_PER_CLOCK_LOOK: u32 = 1024;

impl SearchObserver for SignalWatch {
    fn on_event(&mut self, _event: &Event<'_>) {
        self.events = self.events.wrapping_add(1);
        if !self.events.is_multiple_of(EVENTS_PER_CLOCK_LOOK)
            || self.interrupted.is_some()
            || self.last_look.elapsed() < SIGNAL_POLL
        {
            return;
        }
        self.last_look = Instant::now();
        if let Err(error) = Python::with_gil(|py| py.check_signals()) {
            self.cancel.store(true, Ordering::Relaxed);
            self.interrupted = Some(error);
        }
    }
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
