//! Search statistics.

use std::time::Duration;

/// What a search did, counted over the whole life of one [`Solver`](crate::Solver).
///
/// Node counts are deterministic (the same model and strategy give the same figures on any
/// machine); `elapsed` is not. A parallel search adds up the work of its threads (see
/// [`Solver::count_parallel`](crate::Solver::count_parallel)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchStats {
    /// Decisions taken (`x = v` branches), also called nodes of the search tree.
    pub nodes: u64,
    /// Dead ends: a propagator reported a conflict, or a refutation emptied a domain.
    pub failures: u64,
    /// Decisions undone (each followed by its refutation `x ≠ v`).
    pub backtracks: u64,
    /// Propagator calls.
    pub propagations: u64,
    /// Solutions found.
    pub solutions: u64,
    /// The deepest stack of decisions reached.
    pub max_depth: usize,
    /// Times a search with restarts ([`Solver::with_restarts`](crate::Solver::with_restarts))
    /// went back to the root: its runs after the first.
    pub restarts: u64,
    /// Wall time spent searching.
    pub elapsed: Duration,
}

impl SearchStats {
    /// Adds the work of `other` (another search, or another thread of a parallel search) to
    /// this record: counts and times add up, and the deepest stack is the deeper of the two.
    pub fn add(&mut self, other: &SearchStats) {
        self.nodes += other.nodes;
        self.failures += other.failures;
        self.backtracks += other.backtracks;
        self.propagations += other.propagations;
        self.solutions += other.solutions;
        self.max_depth = self.max_depth.max(other.max_depth);
        self.restarts += other.restarts;
        self.elapsed += other.elapsed;
    }
}
