//! Search statistics.
//!
//! One vocabulary for every count, used by `--stats`, the trace, the tree, `cspkit compare`
//! and the docs:
//!
//! - a **decision** is a left branch: `x = v` (or `x ≤ v` when splitting domains), and, with
//!   d-way branching, each value given to a variable;
//! - a **refutation** is a right branch, `x ≠ v` (or `x > v`), made when a decision is undone;
//! - the **tree nodes** are the root (one per run of the search) and every decision and
//!   refutation: the nodes the tree drawing shows and the branch lines the trace prints;
//! - a **failure** is a node whose propagation (or check) emptied a domain or found a
//!   constraint violated;
//! - a **domain change** is one rewrite of a domain's stored word (see
//!   [`SearchStats::domain_changes`]); with the propagations per decision, it measures what a
//!   search node costs;
//! - an **arc revision** is one REVISE(Xi, Xj) of AC-3
//!   ([`Propagation::Ac3`](crate::Propagation::Ac3)), and the values it removed are counted
//!   beside it;
//! - **nassigns** is the count AIMA's code (aima-python's `CSP.nassigns`) reports: the
//!   decisions `x = v` whose value passed the consistency check against the variables
//!   already assigned (see [`SearchStats::nassigns`]).

use std::time::Duration;

#[cfg(doc)]
use crate::Solver;

/// What a search did, counted over the whole life of one [`Solver`](crate::Solver).
///
/// Counts are deterministic (the same model and strategy give the same figures on any
/// machine); `elapsed` is not. A parallel search adds up the work of its threads (see
/// [`Solver::count_parallel`](crate::Solver::count_parallel)). The module documentation
/// defines each count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchStats {
    /// Decisions taken: left branches (`x = v`, `x ≤ v`), and with d-way branching every value
    /// given to a variable. The decision limit ([`Solver::with_decision_limit`]) counts these.
    ///
    /// [`Solver::with_decision_limit`]: crate::Solver::with_decision_limit
    pub decisions: u64,
    /// Refutations made: right branches (`x ≠ v`, `x > v`), one per decision undone with
    /// binary branching; none with d-way branching, whose next value is a decision.
    pub refutations: u64,
    /// Dead ends: a node whose propagation or check failed, or a refutation that emptied a
    /// domain.
    pub failures: u64,
    /// AIMA's count of assignments (aima-python's `CSP.nassigns`): the decisions `x = v` whose
    /// value passed the consistency check against the variables already assigned. With plain
    /// backtracking (`PropagationLevel::None`, no textbook forward checking) it is the
    /// decisions minus those that failed their own check; with forward checking or stronger
    /// propagation the domains have already lost the values that clash with the assignment,
    /// so it counts every `x = v` decision. `x ≤ v` decisions are not assignments and are not
    /// counted.
    pub nassigns: u64,
    /// Decisions undone (with binary branching each is followed by its refutation).
    pub backtracks: u64,
    /// Propagator calls.
    pub propagations: u64,
    /// Domain changes: each time a domain's stored word was rewritten, by a decision, a
    /// refutation or a propagator, at the root included. A domain of at most 64 values is
    /// one word, so for it this is the number of changes; a wider one may rewrite several
    /// words in one change. Undoing them on backtracking is not counted.
    pub domain_changes: u64,
    /// Arc revisions of AC-3 ([`Propagation::Ac3`](crate::Propagation::Ac3)): the times
    /// REVISE(Xi, Xj) ran; 0 for any other inference.
    pub revisions: u64,
    /// The values AC-3's revisions removed.
    pub removals: u64,
    /// Solutions found.
    pub solutions: u64,
    /// The deepest stack of decisions reached.
    pub max_depth: usize,
    /// Times a search with restarts ([`Solver::with_restarts`](crate::Solver::with_restarts))
    /// went back to the root: its runs after the first.
    pub restarts: u64,
    /// Conflict-directed backjumping
    /// ([`SearchConfig::with_backjumping`](crate::SearchConfig::with_backjumping)): the
    /// failures after which the search jumped back over at least one decision that had
    /// nothing to do with the failure; 0 without backjumping.
    pub backjumps: u64,
    /// The decisions those jumps went back over: undone without their other branches being
    /// tried, as chronological backtracking would have.
    pub levels_skipped: u64,
    /// Learning from failures
    /// ([`SearchConfig::with_learning`](crate::SearchConfig::with_learning)): the failures
    /// conflict analysis ran on; 0 without learning.
    pub conflicts: u64,
    /// The nogoods conflict analysis learned.
    pub learned: u64,
    /// The literals of those nogoods, all together.
    pub learned_literals: u64,
    /// The levels the search went back by after learning a nogood, all together: from the
    /// failing level to the one where the nogood asserts its literal.
    pub learned_backjump_levels: u64,
    /// The learned nogoods forgotten when the database was reduced (by literal block
    /// distance), all together.
    pub forgotten: u64,
    /// Wall time spent searching: the time of the solver's calls, from the start of each to
    /// its return (callbacks included), as the time limit counts it.
    pub elapsed: Duration,
    /// The old name of [`decisions`](Self::decisions), kept equal to it in the statistics a
    /// solver hands out ([`Solver::stats`](crate::Solver::stats)).
    #[deprecated(
        since = "0.3.0",
        note = "renamed `decisions`; read `SearchStats::decisions`"
    )]
    pub nodes: u64,
}

impl SearchStats {
    /// This record with its deprecated aliases set from the fields they name.
    #[allow(deprecated)]
    pub(crate) fn with_aliases(mut self) -> SearchStats {
        self.nodes = self.decisions;
        self
    }

    /// The nodes of the search tree: one root per run (the first and each restart), and every
    /// decision and refutation. This is the number of nodes a [`SearchTree`] records and
    /// draws (before its limit), and the root plus the branch lines a trace prints.
    ///
    /// [`SearchTree`]: crate::teach::tree::SearchTree
    pub fn tree_nodes(&self) -> u64 {
        1 + self.restarts + self.decisions + self.refutations
    }

    /// The mean size of a learned nogood, in literals (0 without any).
    pub fn mean_learned_size(&self) -> f64 {
        if self.learned == 0 {
            0.0
        } else {
            self.learned_literals as f64 / self.learned as f64
        }
    }

    /// The mean distance of the jumps after learning: the levels between a failure and the
    /// one where its nogood asserts (1 is chronological backtracking; 0 without any).
    pub fn mean_backjump_distance(&self) -> f64 {
        if self.learned == 0 {
            0.0
        } else {
            self.learned_backjump_levels as f64 / self.learned as f64
        }
    }

    /// Adds the work of `other` (another search, or another thread of a parallel search) to
    /// this record: counts and times add up, and the deepest stack is the deeper of the two.
    pub fn add(&mut self, other: &SearchStats) {
        self.decisions += other.decisions;
        self.refutations += other.refutations;
        self.failures += other.failures;
        self.nassigns += other.nassigns;
        self.backtracks += other.backtracks;
        self.propagations += other.propagations;
        self.domain_changes += other.domain_changes;
        self.revisions += other.revisions;
        self.removals += other.removals;
        self.solutions += other.solutions;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.restarts += other.restarts;
        self.backjumps += other.backjumps;
        self.levels_skipped += other.levels_skipped;
        self.conflicts += other.conflicts;
        self.learned += other.learned;
        self.learned_literals += other.learned_literals;
        self.learned_backjump_levels += other.learned_backjump_levels;
        self.forgotten += other.forgotten;
        self.elapsed += other.elapsed;
    }
}
