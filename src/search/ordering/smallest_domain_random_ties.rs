//! [`SmallestDomainRandomTies`]: the fewest values left, ties broken at random.

use super::{SearchView, VariableOrder};
use crate::ids::VarId;
use crate::util::random;

/// Branch on a variable with the fewest values left, chosen at random among the ties (MRV or
/// first-fail with random tie-breaking).
///
/// [`SmallestDomain`](crate::SmallestDomain) breaks ties by declaration order, so on a
/// symmetric model such as N-Queens it always starts the same way, and a bad start can cost it
/// a very long search. This order breaks ties by a pseudo-random permutation of the variables
/// drawn from the seed, the same at every node of one run and redrawn for each run of a search
/// with restarts ([`VariableOrder::start_run`]): combined with restarts, each run tries a
/// different start, which cuts the heavy tail of the search times (Gomes, Selman and Kautz,
/// "Boosting combinatorial search through randomization", AAAI 1998).
///
/// The choice is a function of the seed, the run and the current domains, never of the
/// search's history, so the same seed gives the same search, sequential or parallel.
///
/// Cost: one pass over the variables, as for `SmallestDomain`, plus a hash for each variable
/// whose domain is as small as the smallest seen so far.
///
/// # Examples
///
/// ```
/// use cspkit::{MiddleOut, PropagationLevel, SmallestDomainRandomTies};
/// use cspkit::models::queens::Queens;
///
/// let queens = Queens::new(60)?;
/// let mut solver = queens
///     .model()
///     .solver()
///     .with_variable_order(SmallestDomainRandomTies::new(1))
///     .with_value_order(MiddleOut)
///     .with_propagation(PropagationLevel::Forward);
/// assert!(solver.next_solution().is_solved());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SmallestDomainRandomTies {
    seed: u64,
    /// The key of the current run.
    key: u64,
}

impl SmallestDomainRandomTies {
    /// The order whose ties are broken by the permutation drawn from `seed`.
    pub fn new(seed: u64) -> Self {
        SmallestDomainRandomTies {
            seed,
            key: random::run_key(seed, 0),
        }
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
}

impl VariableOrder for SmallestDomainRandomTies {
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        // The smallest (size, rank), where the rank is the variable's place in the permutation.
        let mut best: Option<(usize, u64, VarId)> = None;
        for var in view.unfixed() {
            let size = view.domain(var).size();
            if best.is_some_and(|(s, _, _)| size > s) {
                continue;
            }
            let rank = random::nth(self.key, var.index() as u64);
            if best.is_none_or(|(s, r, _)| size < s || rank < r) {
                best = Some((size, rank, var));
            }
        }
        best.map(|(_, _, var)| var)
    }

    fn start_run(&mut self, run: u32) {
        self.key = random::run_key(self.seed, run);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{model_with, view_of};
    use super::*;

    #[test]
    fn only_an_unfixed_variable_with_the_smallest_domain_is_selected() {
        let (m, v) = model_with(&[
            &[1],
            &[1, 2, 3],
            &[4, 5],
            &[2],
            &[1, 2],
            &[7, 8],
            &[1, 2, 3],
        ]);
        let d = m.initial_domains();
        for seed in 0..100 {
            let chosen = SmallestDomainRandomTies::new(seed).select_variable(&view_of(&m, d));
            assert!([v[2], v[4], v[5]].contains(&chosen.unwrap()), "{chosen:?}");
        }
        let (m, _) = model_with(&[&[1], &[2]]);
        let d = m.initial_domains();
        assert_eq!(
            SmallestDomainRandomTies::new(0).select_variable(&view_of(&m, d)),
            None
        );
    }

    #[test]
    fn ties_are_broken_at_random_but_reproducibly() {
        let domains: Vec<&[i32]> = vec![&[1, 2]; 10];
        let (m, _) = model_with(&domains);
        let view = view_of(&m, m.initial_domains());
        let chosen = |seed, run| {
            let mut order = SmallestDomainRandomTies::new(seed);
            order.start_run(run);
            order.select_variable(&view).unwrap().index()
        };
        let mut counts = [0u32; 10];
        for seed in 0..2000 {
            counts[chosen(seed, 0)] += 1;
            assert_eq!(chosen(seed, 0), chosen(seed, 0));
        }
        assert!(
            counts.iter().all(|&n| (120..280).contains(&n)),
            "{counts:?}"
        );
        let runs: Vec<usize> = (0..30).map(|run| chosen(5, run)).collect();
        let mut distinct = runs.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(distinct.len() >= 5, "{runs:?}");
    }
}
