//! Watching the search: the [`SearchObserver`] trait, a no-op observer and an event recorder.
//!
//! The engine is generic over its observer, so the default [`NoObserver`] compiles to nothing.
//! Depths count decisions on the current path: the first decision is at depth 1, the root is
//! depth 0.
//!
//! The events of a search, in the order the engine emits them:
//!
//! - `decision(x, v, d)`: the engine branches on `x = v`, at depth `d`;
//! - `failure(c, d)`: propagation at depth `d` found a dead end; `c` is the constraint that
//!   reported it, or `None` when a refutation emptied a domain by itself;
//! - `backtrack(x, v, d)`: the decision `x = v` at depth `d` is undone; the search goes on at
//!   depth `d - 1` with the refutation `x ≠ v` (which may fail in turn);
//! - `solution(d)`: every variable is fixed at depth `d`.

use crate::ids::{ConstraintId, VarId};

/// Receives the events of a search. Every method does nothing by default.
///
/// Implemented for `&mut T` too, so an observer can be lent to a solver and read afterwards.
pub trait SearchObserver {
    /// The engine branches on `var = value`, making the path `depth` decisions deep.
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        let _ = (var, value, depth);
    }

    /// Propagation at `depth` failed; `constraint` is the one that reported the conflict.
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        let _ = (constraint, depth);
    }

    /// The decision `var = value` at `depth` is undone, and `var ≠ value` is tried instead.
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        let _ = (var, value, depth);
    }

    /// A solution was found at `depth`.
    fn solution(&mut self, depth: usize) {
        let _ = depth;
    }
}

impl<T: SearchObserver + ?Sized> SearchObserver for &mut T {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        (**self).decision(var, value, depth);
    }
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        (**self).failure(constraint, depth);
    }
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        (**self).backtrack(var, value, depth);
    }
    fn solution(&mut self, depth: usize) {
        (**self).solution(depth);
    }
}

impl<T: SearchObserver + ?Sized> SearchObserver for Box<T> {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        (**self).decision(var, value, depth);
    }
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        (**self).failure(constraint, depth);
    }
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        (**self).backtrack(var, value, depth);
    }
    fn solution(&mut self, depth: usize) {
        (**self).solution(depth);
    }
}

/// The observer that ignores everything (the default; it costs nothing).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoObserver;

impl SearchObserver for NoObserver {}

/// One event of a search, as recorded by [`EventRecorder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SearchEvent {
    /// See [`SearchObserver::decision`].
    Decision {
        /// The variable branched on.
        var: VarId,
        /// The value it is fixed to.
        value: i32,
        /// Decisions on the path, this one included.
        depth: usize,
    },
    /// See [`SearchObserver::failure`].
    Failure {
        /// The constraint that reported the conflict, if any.
        constraint: Option<ConstraintId>,
        /// Decisions on the path.
        depth: usize,
    },
    /// See [`SearchObserver::backtrack`].
    Backtrack {
        /// The variable of the undone decision.
        var: VarId,
        /// The value of the undone decision, now refuted.
        value: i32,
        /// The depth of the undone decision.
        depth: usize,
    },
    /// See [`SearchObserver::solution`].
    Solution {
        /// Decisions on the path.
        depth: usize,
    },
}

/// An observer that keeps every event, in order.
///
/// # Examples
///
/// ```
/// use cspkit::{EventRecorder, Model, NotEqual, SearchEvent};
///
/// let mut model = Model::new();
/// let x = model.new_var(0..=1)?;
/// let y = model.new_var(0..=1)?;
/// model.post(NotEqual::new(x, y))?;
/// let mut recorder = EventRecorder::default();
/// let _ = model.solver().with_observer(&mut recorder).next_solution();
/// assert_eq!(recorder.events()[0], SearchEvent::Decision { var: x, value: 0, depth: 1 });
/// assert_eq!(recorder.events()[1], SearchEvent::Solution { depth: 1 });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct EventRecorder {
    events: Vec<SearchEvent>,
}

impl EventRecorder {
    /// The events so far, in order.
    pub fn events(&self) -> &[SearchEvent] {
        &self.events
    }

    /// Takes the events, leaving the recorder empty.
    pub fn take(&mut self) -> Vec<SearchEvent> {
        std::mem::take(&mut self.events)
    }
}

impl SearchObserver for EventRecorder {
    fn decision(&mut self, var: VarId, value: i32, depth: usize) {
        self.events
            .push(SearchEvent::Decision { var, value, depth });
    }
    fn failure(&mut self, constraint: Option<ConstraintId>, depth: usize) {
        self.events.push(SearchEvent::Failure { constraint, depth });
    }
    fn backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        self.events
            .push(SearchEvent::Backtrack { var, value, depth });
    }
    fn solution(&mut self, depth: usize) {
        self.events.push(SearchEvent::Solution { depth });
    }
}
