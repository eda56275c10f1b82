//! Restarts: a first-solution search cut into runs, each with a budget of failures that grows.
//!
//! Randomised orders make search times vary wildly from one seed to the next: most runs are
//! quick, a few take very long (a heavy-tailed distribution; Gomes, Selman, Crato and Kautz,
//! "Heavy-tailed phenomena in satisfiability and constraint satisfaction problems", 2000).
//! Restarting after a budget of failures, with fresh random choices, keeps the quick runs and
//! abandons the long ones. The budget grows from run to run, so the search stays complete: a
//! run that exhausts its tree within its budget proves that there is no solution.

/// When a search with restarts starts again from the root: the number of failures each run
/// may meet, run after run ([`Solver::with_restarts`](crate::Solver::with_restarts)).
///
/// Two sequences, both times a `base` number of failures:
///
/// - [`luby`](RestartPolicy::luby): 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, … (Luby,
///   Sinclair and Zuckerman, "Optimal speedup of Las Vegas algorithms", 1993), within a
///   logarithmic factor of the best fixed budget for any distribution of run times;
/// - [`geometric`](RestartPolicy::geometric): 1, f, f², f³, … for a factor `f > 1` (Walsh,
///   "Search in a small world", 1999), fewer restarts, quicker to reach long runs.
///
/// # Examples
///
/// ```
/// use cspkit::RestartPolicy;
///
/// let luby = RestartPolicy::luby(10);
/// let budgets: Vec<u64> = (0..8).map(|run| luby.failure_budget(run)).collect();
/// assert_eq!(budgets, [10, 10, 20, 10, 10, 20, 40, 10]);
/// let geometric = RestartPolicy::geometric(100, 1.5);
/// let budgets: Vec<u64> = (0..4).map(|run| geometric.failure_budget(run)).collect();
/// assert_eq!(budgets, [100, 150, 225, 338]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RestartPolicy {
    sequence: Sequence,
    base: u64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Sequence {
    Luby,
    Geometric { factor: f64 },
}

impl RestartPolicy {
    /// The Luby sequence times `base` failures.
    ///
    /// # Panics
    ///
    /// If `base` is 0.
    pub fn luby(base: u64) -> Self {
        assert!(base > 0, "a restart base of 0 failures allows no search");
        RestartPolicy {
            sequence: Sequence::Luby,
            base,
        }
    }

    /// The geometric sequence `base`, `base·factor`, `base·factor²`, … failures (rounded to
    /// the nearest whole number).
    ///
    /// # Panics
    ///
    /// If `base` is 0, or if `factor` is not a finite number greater than 1 (with a factor of
    /// 1 or less, the budget would not grow and the search would not be complete).
    pub fn geometric(base: u64, factor: f64) -> Self {
        assert!(base > 0, "a restart base of 0 failures allows no search");
        assert!(
            factor.is_finite() && factor > 1.0,
            "a geometric restart factor must be a finite number greater than 1, not {factor}"
        );
        RestartPolicy {
            sequence: Sequence::Geometric { factor },
            base,
        }
    }

    /// The number of failures of the first run (and the unit of the Luby sequence).
    pub fn base(&self) -> u64 {
        self.base
    }

    /// The number of failures run `run` (from 0) may meet before the search restarts.
    /// Saturates at `u64::MAX`.
    pub fn failure_budget(&self, run: u32) -> u64 {
        match self.sequence {
            Sequence::Luby => self.base.saturating_mul(luby(u64::from(run) + 1)),
            Sequence::Geometric { factor } => {
                let budget = self.base as f64 * factor.powf(f64::from(run));
                // Float to integer casts saturate, so a budget past u64::MAX is u64::MAX.
                budget.round() as u64
            }
        }
    }
}

/// Term `i` (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, …: `2^(k-1)` if `i = 2^k - 1`,
/// else the term `i - (2^(k-1) - 1)` for the `k` with `2^(k-1) <= i < 2^k - 1`.
fn luby(mut i: u64) -> u64 {
    debug_assert!(i >= 1);
    loop {
        let k = u64::BITS - i.leading_zeros(); // 2^(k-1) <= i < 2^k
        if k < u64::BITS && i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_luby_sequence_starts_as_published() {
        let terms: Vec<u64> = (1..=31).map(luby).collect();
        assert_eq!(
            terms,
            [
                1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2,
                4, 8, 16
            ]
        );
        assert_eq!(luby((1 << 32) - 1), 1 << 31);
    }

    #[test]
    fn budgets_grow_without_bound_and_saturate() {
        let luby = RestartPolicy::luby(u64::MAX / 2);
        assert_eq!(luby.failure_budget(6), u64::MAX);
        let geometric = RestartPolicy::geometric(1, 2.0);
        assert_eq!(geometric.failure_budget(10), 1024);
        assert_eq!(geometric.failure_budget(u32::MAX), u64::MAX);
        assert_eq!(RestartPolicy::luby(3).failure_budget(u32::MAX - 1), 3 << 31);
    }

    #[test]
    #[should_panic(expected = "greater than 1")]
    fn a_geometric_factor_of_one_is_refused() {
        let _ = RestartPolicy::geometric(10, 1.0);
    }

    #[test]
    #[should_panic(expected = "base of 0")]
    fn a_base_of_zero_is_refused() {
        let _ = RestartPolicy::luby(0);
    }
}
