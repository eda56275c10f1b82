//! [`LeastConstraining`]: the value that rules out the fewest values of the other variables
//! (least-constraining value, LCV).

use super::{SearchView, ValueOrder};
use crate::domain::Domain;
use crate::ids::VarId;
use crate::search::pairs::{free_domain, pair_clashes};

/// Try first the value that leaves the most options to the others: for each value `v` of the
/// variable `x` branched on, count the values `w` of every other unfixed variable `y` sharing a
/// constraint with `x` such that `x = v, y = w` alone already violates that constraint (the
/// rest of its scope left free), and pick the value with the smallest count; ties go to the
/// smallest value (AIMA's LEAST-CONSTRAINING-VALUE, for binary constraints and all-different
/// read pairwise).
///
/// Cost per decision: one pair test per value of `x` and per value of each neighbour, which is
/// what the textbooks' definition costs; an order for teaching and small problems.
#[derive(Debug, Clone, Default)]
pub struct LeastConstraining {
    /// The domains of the pair tests (the model's, reused).
    scratch: Vec<Domain>,
}

impl LeastConstraining {
    /// The order.
    pub fn new() -> Self {
        LeastConstraining::default()
    }

    /// How many values of the other variables `var = value` rules out.
    pub fn ruled_out(&mut self, var: VarId, value: i32, view: &SearchView<'_>) -> usize {
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
            for &y in scope {
                if y == var || view.domain(y).is_fixed() {
                    continue;
                }
                count += view
                    .domain(y)
                    .iter()
                    .filter(|&w| {
                        pair_clashes(&mut self.scratch, constraint, &free, (var, value), (y, w))
                    })
                    .count();
            }
        }
        count
    }
}

impl ValueOrder for LeastConstraining {
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        let domain = view.domain(var);
        let mut best: Option<(usize, i32)> = None;
        for value in domain.iter() {
            let count = self.ruled_out(var, value, view);
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
    }
}
