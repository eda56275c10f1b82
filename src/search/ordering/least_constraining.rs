//! [`LeastConstraining`]: the value that rules out the fewest values of the other variables
//! (least-constraining value, LCV).

use super::{SearchView, ValueOrder};
use crate::domain::Domain;
use crate::ids::VarId;
use crate::search::pairs::{free_domain, without_clashes};

/// Try first the value that leaves the most options to the others: for each value `v` of the
/// variable `x` branched on, count the values `w` of every other unfixed variable `y` sharing a
/// constraint with `x` such that `x = v, y = w` alone already violates that constraint (the
/// rest of its scope left free), and pick the value with the smallest count; ties go to the
/// smallest value (AIMA's LEAST-CONSTRAINING-VALUE, for binary constraints and all-different
/// read pairwise).
///
/// Cost per decision: for each value of `x`, one propagation of each of its constraints with
/// `x` fixed (all the pair tests of that value at once), and a pass over the neighbours'
/// domains. So that a decision on a large model stays bounded (limits are checked between
/// decisions, not during one), a decision stops after a budget of work ([`DEFAULT_BUDGET`] by
/// default, a constraint of `k` variables costing `k`, and counting the values of a neighbour
/// costing its domain's size):
/// the values scored by then are tried first, by their counts, and the others after them in
/// ascending order.
///
/// [`DEFAULT_BUDGET`]: LeastConstraining::DEFAULT_BUDGET
#[derive(Debug, Clone)]
pub struct LeastConstraining {
    /// The domains of the pair tests (the model's, reused).
    scratch: Vec<Domain>,
    /// Pair tests allowed per decision.
    budget: usize,
}

impl Default for LeastConstraining {
    fn default() -> Self {
        LeastConstraining {
            scratch: Vec::new(),
            budget: Self::DEFAULT_BUDGET,
        }
    }
}

impl LeastConstraining {
    /// The work a decision may spend by default, in constraint propagations times the size of
    /// their scopes, plus the sizes of the neighbours' domains counted.
    pub const DEFAULT_BUDGET: usize = 1_000_000;

    /// The order.
    pub fn new() -> Self {
        LeastConstraining::default()
    }

    /// The order, spending at most `work` per decision: a propagation of a constraint of `k`
    /// variables costs `k`.
    pub fn with_budget(work: usize) -> Self {
        LeastConstraining {
            budget: work,
            ..LeastConstraining::default()
        }
    }

    /// How many values of the other variables `var = value` rules out.
    pub fn ruled_out(&mut self, var: VarId, value: i32, view: &SearchView<'_>) -> usize {
        let mut unlimited = usize::MAX;
        self.ruled_out_within(var, value, view, &mut unlimited)
            .unwrap_or(usize::MAX)
    }

    /// [`ruled_out`](Self::ruled_out), spending at most `budget` pair tests (`None` once it
    /// runs out).
    fn ruled_out_within(
        &mut self,
        var: VarId,
        value: i32,
        view: &SearchView<'_>,
        budget: &mut usize,
    ) -> Option<usize> {
        let model = view.model();
        if self.scratch.len() != model.num_variables() {
            self.scratch = model.initial_domains().to_vec();
        }
        let mut count = 0;
        for (_, constraint) in model.constraints() {
            let scope = constraint.scope();
            if !scope.contains(&var) {
                continue;
            }
            let free = free_domain(model, scope);
            // All the pair tests of `var = value` on this constraint in one propagation.
            *budget = budget.checked_sub(scope.len())?;
            let fits = without_clashes(&mut self.scratch, constraint, &free, (var, value));
            for &y in scope {
                if y == var || view.domain(y).is_fixed() {
                    continue;
                }
                // Counting goes through the neighbour's values: a wide domain costs its size.
                *budget = budget.checked_sub(view.domain(y).size())?;
                let allowed = &self.scratch[y.index()];
                count += view
                    .domain(y)
                    .iter()
                    .filter(|&w| !fits || !allowed.contains(w))
                    .count();
            }
        }
        Some(count)
    }
}

impl ValueOrder for LeastConstraining {
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        let domain = view.domain(var);
        let mut budget = self.budget;
        let mut best: Option<(usize, i32)> = None;
        for value in domain.iter() {
            // Out of budget: the best of the values scored so far, else the smallest.
            let Some(count) = self.ruled_out_within(var, value, view, &mut budget) else {
                break;
            };
            if best.is_none_or(|(c, _)| count < c) {
                best = Some((count, value));
            }
        }
        best.map_or_else(|| domain.min().unwrap_or_default(), |(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Model, NotEqual};

    #[test]
    fn the_value_that_leaves_the_neighbours_most_options_comes_first() {
        // x in 1..=3; y in {1, 2} and z in {1} must differ from x: x = 3 rules out nothing,
        // x = 2 one value of y, x = 1 one of y and z's only value.
        let mut m = Model::new();
        let x = m.new_var(1..=3).unwrap();
        let y = m.new_var([1, 2]).unwrap();
        let z = m.new_var([1, 3]).unwrap();
        m.post(NotEqual::new(x, y)).unwrap();
        m.post(NotEqual::new(x, z)).unwrap();
        let view = SearchView::new(&m, m.initial_domains(), 0);
        let mut order = LeastConstraining::new();
        assert_eq!([1, 2, 3].map(|v| order.ruled_out(x, v, &view)), [2, 1, 1]);
        // Ties (2 and 3) go to the smaller value.
        assert_eq!(order.select_value(x, &view), 2);
        // Each value costs two propagations over scopes of 2 and the counts of two domains of
        // 2 values: 8 units. With no budget, the smallest value; with enough for the first
        // value only, it; for two, the better.
        assert_eq!(LeastConstraining::with_budget(0).select_value(x, &view), 1);
        assert_eq!(LeastConstraining::with_budget(8).select_value(x, &view), 1);
        assert_eq!(LeastConstraining::with_budget(16).select_value(x, &view), 2);
    }
}
