//! [`Limits`]: how long the puzzle tools may search.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::util::clock::Instant;
use crate::{Limit, SearchObserver, Solver, ValueOrder, VariableOrder};

/// The limits of a puzzle tool's searches ([`grade_within`](super::grade_within),
/// [`minimal_conflict_within`](super::minimal_conflict_within),
/// [`Sudoku::explain_within`](crate::models::sudoku::Sudoku::explain_within)): a decision limit
/// for each search, a time limit for the whole call, and a cancellation flag.
///
/// A tool makes many searches (a uniqueness check at each clue removed, a satisfiability check
/// at each assumption left out): the decision limit bounds each of them, the time limit and the
/// flag all of them together. No limit is set by default.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use cspkit::models::sudoku::{Grid, Sudoku};
/// use cspkit::puzzle::{Limits, grade_within};
///
/// let empty = Sudoku::new(&Grid::empty(2).unwrap())?;
/// let clues: Vec<_> = empty.givens(&Grid::parse("12.3..........21", None)?).collect();
/// let limits = Limits::new()
///     .with_decision_limit(10_000)
///     .with_time_limit(Duration::from_secs(5));
/// assert!(grade_within(empty.model(), &clues, &limits).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Limits {
    decisions: Option<u64>,
    time: Option<Duration>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limit.
    pub fn new() -> Self {
        Limits::default()
    }

    /// Stops each search after `decisions` decisions.
    pub fn with_decision_limit(mut self, decisions: u64) -> Self {
        self.decisions = Some(decisions);
        self
    }

    /// Stops the whole call once it has run for `time`.
    pub fn with_time_limit(mut self, time: Duration) -> Self {
        self.time = Some(time);
        self
    }

    /// Stops the whole call when `flag` becomes true, from any thread (a Ctrl-C handler).
    pub fn with_cancel_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// The decision limit of each search, if any.
    pub fn decision_limit(&self) -> Option<u64> {
        self.decisions
    }

    /// The time limit of the whole call, if any.
    pub fn time_limit(&self) -> Option<Duration> {
        self.time
    }

    /// The cancellation flag, if any.
    pub fn cancel_flag(&self) -> Option<Arc<AtomicBool>> {
        self.cancel.clone()
    }

    /// `solver` with these limits: the decision limit, the time limit and the flag, those
    /// that are set.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use cspkit::Model;
    /// use cspkit::puzzle::Limits;
    ///
    /// let mut model = Model::new();
    /// model.new_vars(3, 1..=3)?;
    /// let limits = Limits::new().with_time_limit(Duration::from_secs(1));
    /// let mut solver = limits.apply_to(model.solver());
    /// assert_eq!(solver.count().solutions, 27);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn apply_to<'m, V, W, O>(&self, solver: Solver<'m, V, W, O>) -> Solver<'m, V, W, O>
    where
        V: VariableOrder,
        W: ValueOrder,
        O: SearchObserver,
    {
        let mut solver = solver;
        if let Some(decisions) = self.decisions {
            solver = solver.with_decision_limit(decisions);
        }
        if let Some(time) = self.time {
            solver = solver.with_time_limit(time);
        }
        if let Some(flag) = &self.cancel {
            solver = solver.with_cancel_flag(Arc::clone(flag));
        }
        solver
    }

    /// The limits left after `elapsed` of the time limit has gone (the same flag, the same
    /// decision limit): for a call that follows others within the same budget.
    pub fn after(&self, elapsed: Duration) -> Limits {
        Limits {
            decisions: self.decisions,
            time: self.time.map(|t| t.saturating_sub(elapsed)),
            cancel: self.cancel.clone(),
        }
    }

    /// Starts the clock of one call.
    pub(crate) fn start(&self) -> Clock<'_> {
        Clock {
            limits: self,
            started: Instant::now(),
        }
    }
}

/// The limits of one call, with its clock running.
#[derive(Debug)]
pub(crate) struct Clock<'a> {
    limits: &'a Limits,
    started: Instant,
}

impl Clock<'_> {
    /// The time left, if there is a time limit.
    fn left(&self) -> Option<Duration> {
        self.limits
            .time
            .map(|t| t.saturating_sub(self.started.elapsed()))
    }

    /// The time since the call started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The limit that ends the call now, if any: the flag raised or the time gone.
    pub(crate) fn stopped(&self) -> Option<Limit> {
        if self
            .limits
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            return Some(Limit::Cancelled);
        }
        if self.left().is_some_and(|left| left.is_zero()) {
            return Some(Limit::Time);
        }
        None
    }

    /// The limits left.
    pub(crate) fn remaining(&self) -> Limits {
        self.limits.after(self.started.elapsed())
    }

    /// `solver` with the decision limit (if any) and the flag.
    pub(crate) fn configure<'m, V, W, O>(&self, solver: Solver<'m, V, W, O>) -> Solver<'m, V, W, O>
    where
        V: VariableOrder,
        W: ValueOrder,
        O: SearchObserver,
    {
        let mut solver = solver;
        if let Some(decisions) = self.limits.decisions {
            solver = solver.with_decision_limit(decisions);
        }
        if let Some(flag) = &self.limits.cancel {
            solver = solver.with_cancel_flag(Arc::clone(flag));
        }
        solver
    }

    /// Gives `solver` the time left, before a search that follows a restart (which sets its
    /// search time back to zero).
    pub(crate) fn arm<V, W, O>(&self, solver: &mut Solver<'_, V, W, O>)
    where
        V: VariableOrder,
        W: ValueOrder,
        O: SearchObserver,
    {
        if let Some(left) = self.left() {
            solver.set_time_limit(Some(left));
        }
    }
}
