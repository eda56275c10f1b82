//! Limits that end a search early: a decision budget, a time budget, a cancellation flag.
//!
//! Costs: every limit is checked before every decision: the decision limit is a compare, the flag a
//! relaxed atomic load, and the time limit a read of the monotonic clock (tens of nanoseconds,
//! and only when a time limit is set). The time limit and the flag are also checked between
//! propagator runs, every 64 runs, so a long fixpoint (the root of N-Queens with thousands of
//! queens) stops within 64 runs of its limit, and one propagator run is never cut short. A
//! search stopped in the middle of a fixpoint resumes it where it stopped.

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::util::clock::Instant;

/// Why a search stopped before it was finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// The decision limit was reached.
    Decisions,
    /// The time limit was reached.
    Time,
    /// The cancellation flag was raised.
    Cancelled,
    /// A counting search found as many solutions as it was asked to stop at, or an
    /// optimisation's callback asked it to stop ([`Solver::minimize_while`]).
    ///
    /// [`Solver::minimize_while`]: crate::Solver::minimize_while
    Solutions,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::Decisions => "decision limit reached",
            Limit::Time => "time limit reached",
            Limit::Cancelled => "cancelled",
            Limit::Solutions => "solution limit reached",
        })
    }
}

/// The limits of one solver.
#[derive(Debug, Clone, Default)]
pub(crate) struct Limits {
    pub(crate) decisions: Option<u64>,
    pub(crate) time: Option<Duration>,
    pub(crate) cancel: Option<Arc<AtomicBool>>,
}

/// The wall time of one call of the solver (`next_solution`, `count`, `minimize`, a step, a
/// parallel search), on top of the time of the earlier calls.
///
/// One clock is started when the call starts and handed to every engine call it makes: the time
/// between engine calls (cloning a solution, the caller's callback, tightening a bound, building
/// a neighbourhood, going back to the root for a restart) counts against the time limit too, as
/// it is part of the wall time the user asked to bound. Time spent by the caller between two
/// calls of the solver is not counted.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Clock {
    started: Instant,
    /// Search time spent in earlier calls.
    before: Duration,
}

impl Clock {
    /// A clock started now, `before` having been spent in earlier calls.
    pub(crate) fn start(before: Duration) -> Self {
        Clock {
            started: Instant::now(),
            before,
        }
    }

    /// Total search time: the earlier calls, and this one so far.
    pub(crate) fn elapsed(&self) -> Duration {
        self.before + self.started.elapsed()
    }
}

/// Measures a search call against the limits.
#[derive(Debug)]
pub(crate) struct Budget<'a> {
    limits: &'a Limits,
    /// The clock of the solver's call this engine call belongs to.
    clock: Clock,
    /// A decision limit shared with other threads, instead of `limits.decisions`.
    shared_nodes: Option<&'a NodeShare<'a>>,
    /// The solver's own reasons to stop, checked after the limits.
    pause: Pause<'a>,
    /// Whether the last answer of `exceeded` was a pause.
    paused: Cell<bool>,
}

/// The solver's own reasons to stop a search call at a node, to resume it or leave it later:
/// the end of a restart run, the frontier of a split, another thread's request. They are not
/// limits: the caller asks [`Budget::paused`] to tell them apart.
#[derive(Debug, Default)]
pub(crate) struct Pause<'a> {
    /// Stop once the failures counted by `progress` reach this many.
    pub(crate) failures: Option<u64>,
    /// Stop at any node this deep (counted by `progress`).
    pub(crate) depth: Option<usize>,
    /// What the search did so far, kept up to date by a [`Tracked`](super::pause::Tracked)
    /// observer; needed by `failures` and `depth`.
    pub(crate) progress: Option<&'a super::pause::Progress>,
    /// Stop once this flag is raised.
    pub(crate) flag: Option<&'a AtomicBool>,
    /// Stop before the decision that would make more than this many in all (one step).
    pub(crate) nodes: Option<u64>,
}

/// A decision limit over the decisions of several threads.
#[derive(Debug)]
pub(crate) struct SharedNodes {
    /// Decisions reported by all threads.
    used: AtomicU64,
    max: u64,
}

impl SharedNodes {
    /// A limit of `max` decisions of which `used` are already taken.
    pub(crate) fn new(max: u64, used: u64) -> Self {
        SharedNodes {
            used: AtomicU64::new(used),
            max,
        }
    }

    /// Counts `nodes` more decisions.
    pub(crate) fn add(&self, nodes: u64) {
        self.used.fetch_add(nodes, Ordering::Relaxed);
    }

    /// The decisions left before the limit.
    pub(crate) fn left(&self) -> u64 {
        self.max.saturating_sub(self.used.load(Ordering::Relaxed))
    }
}

/// One thread's part of a [`SharedNodes`] limit. A thread reserves its decisions from the
/// shared count in batches of [`NodeShare::BATCH`] (fewer when fewer are left), so that the
/// threads do not contend for it at every decision, and never makes one it has not reserved:
/// together they keep to the limit exactly. Near the limit, a thread may stop while another
/// still holds a few reserved decisions.
#[derive(Debug)]
pub(crate) struct NodeShare<'a> {
    shared: &'a SharedNodes,
    /// The decisions this thread may make in all: those it has reserved.
    allotted: Cell<u64>,
}

impl<'a> NodeShare<'a> {
    /// Decisions a thread reserves at a time.
    pub(crate) const BATCH: u64 = 32;

    pub(crate) fn new(shared: &'a SharedNodes) -> Self {
        NodeShare {
            shared,
            allotted: Cell::new(0),
        }
    }

    /// Whether the limit is reached, this thread having taken `nodes` decisions in all: it is
    /// not while the thread holds a reserved decision, or can reserve more.
    fn exceeded(&self, nodes: u64) -> bool {
        if nodes < self.allotted.get() {
            return false;
        }
        let mut used = self.shared.used.load(Ordering::Relaxed);
        loop {
            if used >= self.shared.max {
                return true;
            }
            let take = Self::BATCH.min(self.shared.max - used);
            match self.shared.used.compare_exchange_weak(
                used,
                used + take,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => {
                    self.allotted.set(nodes + take);
                    return false;
                }
                Err(now) => used = now,
            }
        }
    }

    /// Gives back the reserved decisions this thread did not make, having made `nodes`.
    pub(crate) fn flush(&self, nodes: u64) {
        let unused = self.allotted.get().saturating_sub(nodes);
        self.allotted.set(nodes);
        self.shared.used.fetch_sub(unused, Ordering::Relaxed);
    }
}

impl<'a> Budget<'a> {
    /// A budget for one engine call within the solver's call timed by `clock`.
    pub(crate) fn start(limits: &'a Limits, clock: Clock) -> Self {
        Budget {
            limits,
            clock,
            shared_nodes: None,
            pause: Pause::default(),
            paused: Cell::new(false),
        }
    }

    /// Adds the solver's own reasons to stop.
    pub(crate) fn with_pause(mut self, pause: Pause<'a>) -> Self {
        self.pause = pause;
        self
    }

    /// Counts decisions against a limit shared with other threads (the limits' own decision limit
    /// is then ignored).
    pub(crate) fn with_shared_nodes(mut self, share: &'a NodeShare<'a>) -> Self {
        self.shared_nodes = Some(share);
        self
    }

    /// Total search time, this call included.
    pub(crate) fn elapsed(&self) -> Duration {
        self.clock.elapsed()
    }

    /// Whether the last limit reported by [`exceeded`](Budget::exceeded) was a [`Pause`] (it
    /// is then reported as [`Limit::Cancelled`]).
    pub(crate) fn paused(&self) -> bool {
        self.paused.get()
    }

    /// The limit reached, if any, before decision number `nodes + 1`.
    #[inline]
    pub(crate) fn exceeded(&self, nodes: u64) -> Option<Limit> {
        let decision_limit = match self.shared_nodes {
            Some(share) => share.exceeded(nodes),
            None => self.limits.decisions.is_some_and(|max| nodes >= max),
        };
        if decision_limit {
            return Some(Limit::Decisions);
        }
        if let Some(limit) = self.interrupted() {
            return Some(limit);
        }
        if self.pause_reached(nodes) {
            self.paused.set(true);
            return Some(Limit::Cancelled);
        }
        None
    }

    /// The limit reached, if any, among those that can come during propagation: the time
    /// limit and the cancellation flag (asked between propagator runs, so that a long fixpoint
    /// does not overrun them).
    #[inline]
    pub(crate) fn interrupted(&self) -> Option<Limit> {
        if let Some(flag) = &self.limits.cancel
            && flag.load(Ordering::Relaxed)
        {
            return Some(Limit::Cancelled);
        }
        if let Some(max) = self.limits.time
            && self.elapsed() >= max
        {
            return Some(Limit::Time);
        }
        None
    }

    #[inline]
    fn pause_reached(&self, nodes: u64) -> bool {
        let pause = &self.pause;
        if pause.nodes.is_some_and(|max| nodes >= max) {
            return true;
        }
        if let Some(progress) = pause.progress
            && (pause.failures.is_some_and(|max| progress.failures() >= max)
                || pause.depth.is_some_and(|max| progress.depth() >= max))
        {
            return true;
        }
        pause.flag.is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}
