//! When the program started (time limits count from there), and the flag that stops a search
//! (Ctrl-C, SIGTERM, a reader gone).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use crate::minizinc;

/// What `make` builds, on a thread of its own, or `None` if the time limit (counted from the
/// start of the program) passes or Ctrl-C comes first: the thread is then left to end with the
/// program.
pub(crate) fn built_within<T: Send + 'static>(
    limit: Option<std::time::Duration>,
    make: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(make());
    });
    let slice = std::time::Duration::from_millis(10);
    loop {
        let wait = limit.map_or(slice, |limit| {
            limit.saturating_sub(started().elapsed()).min(slice)
        });
        match receive.recv_timeout(wait) {
            Ok(built) => return Some(built),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        let late = limit.is_some_and(|limit| started().elapsed() >= limit);
        if late || interrupt().load(Ordering::Relaxed) {
            return None;
        }
    }
}

/// When the program started: a time limit of local search counts the building of the model.
pub(crate) fn started() -> Instant {
    static START: OnceLock<Instant> = OnceLock::new();
    *START.get_or_init(Instant::now)
}

/// The flag that stops a running search: raised by Ctrl-C (SIGINT) or SIGTERM, and by a
/// trace whose reader has gone. A second signal ends the program at once.
pub(crate) fn interrupt() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let raised = Arc::clone(&flag);
        // If a handler cannot be installed, a signal ends the program as it would anyway.
        let _ = ctrlc::set_handler(move || {
            if raised.swap(true, Ordering::Relaxed) {
                // No `minizinc` nor temporary folder left behind.
                minizinc::abandon();
                std::process::exit(130);
            }
        });
        flag
    })
}
