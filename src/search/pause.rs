//! What the solver's own pauses watch (see [`Pause`](super::limits::Pause)): the failures and the
//! depth of a search call, counted by an observer wrapped around the solver's own.

use std::cell::Cell;

use crate::search::observer::{BranchKind, Event, SearchObserver};

/// The failures and the current depth of a search, as far as a [`Tracked`] observer saw it.
#[derive(Debug, Default)]
pub(crate) struct Progress {
    failures: Cell<u64>,
    depth: Cell<usize>,
}

impl Progress {
    /// Failures seen.
    pub(crate) fn failures(&self) -> u64 {
        self.failures.get()
    }

    /// The number of decisions on the current path.
    pub(crate) fn depth(&self) -> usize {
        self.depth.get()
    }

    /// Starts counting again from the root.
    pub(crate) fn reset(&self) {
        self.failures.set(0);
        self.depth.set(0);
    }
}

/// Passes every event on to `inner`, counting failures and following the depth in `progress`.
#[derive(Debug)]
pub(crate) struct Tracked<'a, O> {
    pub(crate) inner: &'a mut O,
    pub(crate) progress: &'a Progress,
}

impl<O: SearchObserver> SearchObserver for Tracked<'_, O> {
    #[inline]
    fn on_event(&mut self, event: &Event<'_>) {
        match *event {
            Event::Node {
                kind: BranchKind::Equal | BranchKind::AtMost,
                depth,
                ..
            } => self.progress.depth.set(depth),
            Event::Failure { .. } => self.progress.failures.set(self.progress.failures.get() + 1),
            // The decision at `depth` is undone: the search goes on one level up.
            Event::Backtrack { depth, .. } => self.progress.depth.set(depth - 1),
            _ => {}
        }
        self.inner.on_event(event);
    }

    fn observes_propagation(&self) -> bool {
        self.inner.observes_propagation()
    }
}
