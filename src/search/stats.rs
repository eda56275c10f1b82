//! Search statistics.

use std::time::Duration;

/// What a search did, counted over the whole life of one [`Solver`](crate::Solver).
///
/// Node counts are deterministic (the same model and strategy give the same figures on any
/// machine); `elapsed` is not.
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
    /// Wall time spent searching.
    pub elapsed: Duration,
}
