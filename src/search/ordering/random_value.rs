//! [`RandomValue`]: the values in a random order, drawn from a seed.

use super::{SearchView, ValueOrder};
use crate::ids::VarId;
use crate::util::random;

/// Try the values in a random order, drawn from a seed: a pseudo-random permutation of each
/// variable's values, the same at every node of one run and redrawn for each run of a search
/// with restarts ([`ValueOrder::start_run`]).
///
/// The value tried is the one of the current domain that comes first in the variable's
/// permutation, so the order is a function of the seed, the run and the current domain, never
/// of the search's history: the same seed gives the same search, sequential or
/// [parallel](crate::Solver::count_parallel). Two seeds give unrelated permutations.
///
/// Cost: one hash per value of the domain (SplitMix64's output function), at each decision.
/// A domain of more than 4096 values (a wide one) is not a permutation: the value tried is a
/// random point between its bounds, or the nearest value below it, at one hash per decision.
///
/// # Examples
///
/// ```
/// use cspkit::{Model, RandomValue};
///
/// let mut model = Model::new();
/// let x = model.new_var(1..=9)?;
/// let order = |seed| -> Vec<i32> {
///     let mut solver = model.solver().with_value_order(RandomValue::new(seed));
///     solver.solutions().map(|s| s[x]).collect()
/// };
/// assert_eq!(order(7), order(7)); // the same seed, the same order
/// let mut values = order(7);
/// values.sort();
/// assert_eq!(values, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct RandomValue {
    seed: u64,
    /// The key of the current run.
    key: u64,
}

/// The largest domain whose values are all drawn among; a larger one (a wide domain) gets a
/// random point between its bounds instead.
const SCAN_LIMIT: usize = 1 << 12;

impl RandomValue {
    /// The random value order drawn from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomValue {
            seed,
            key: random::run_key(seed, 0),
        }
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
}

impl ValueOrder for RandomValue {
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        let variable = (var.index() as u64) << 32;
        let domain = view.domain(var);
        if let (Some(min), Some(max)) = (domain.min(), domain.max())
            && domain.size() > SCAN_LIMIT
        {
            // A wide domain: a random point between the bounds, moved down to a value.
            let width = (i64::from(max) - i64::from(min) + 1) as u64;
            let point = (i64::from(min) + (random::nth(self.key, variable) % width) as i64) as i32;
            return if domain.contains(point) {
                point
            } else {
                domain.below(point).unwrap_or(min)
            };
        }
        domain
            .iter()
            .min_by_key(|&value| random::nth(self.key, variable | u64::from(value as u32)))
            .unwrap_or_default()
    }

    fn start_run(&mut self, run: u32) {
        self.key = random::run_key(self.seed, run);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{model_with, narrowed, view_of};
    use super::*;

    #[test]
    fn the_value_is_in_the_domain_and_depends_only_on_the_seed_run_and_domain() {
        let declared: Vec<i32> = (-40..60).collect();
        let (m, v) = model_with(&[&declared, &declared]);
        let left: Vec<i32> = (-40..60).step_by(3).collect();
        let domains = [
            narrowed(&m.initial_domains()[0], &left),
            m.initial_domains()[1].clone(),
        ];
        let view = view_of(&m, &domains);
        for seed in 0..50 {
            let mut order = RandomValue::new(seed);
            let value = order.select_value(v[0], &view);
            assert!(left.contains(&value));
            assert_eq!(order.select_value(v[0], &view), value);
            assert_eq!(RandomValue::new(seed).select_value(v[0], &view), value);
            order.start_run(3);
            order.start_run(0);
            assert_eq!(order.select_value(v[0], &view), value);
        }
    }

    #[test]
    fn seeds_runs_and_variables_draw_different_orders() {
        let declared: Vec<i32> = (0..100).collect();
        let (m, v) = model_with(&[&declared, &declared]);
        let view = view_of(&m, m.initial_domains());
        let first = |seed, run, var| {
            let mut order = RandomValue::new(seed);
            order.start_run(run);
            order.select_value(var, &view)
        };
        let seeds: Vec<i32> = (0..20).map(|seed| first(seed, 0, v[0])).collect();
        let runs: Vec<i32> = (0..20).map(|run| first(1, run, v[0])).collect();
        let vars: Vec<i32> = (0..20).map(|seed| first(seed, 0, v[1])).collect();
        for values in [&seeds, &runs, &vars] {
            let mut distinct = values.to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            assert!(distinct.len() >= 10, "{values:?}");
        }
        assert_ne!(seeds, vars);
    }

    #[test]
    fn every_value_comes_first_about_as_often() {
        let (m, v) = model_with(&[&[1, 2, 3, 4]]);
        let view = view_of(&m, m.initial_domains());
        let mut firsts = [0u32; 4];
        for seed in 0..4000 {
            let value = RandomValue::new(seed).select_value(v[0], &view);
            firsts[(value - 1) as usize] += 1;
        }
        assert!(
            firsts.iter().all(|&n| (800..1200).contains(&n)),
            "{firsts:?}"
        );
    }
}
