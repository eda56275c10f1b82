//! [`DomWdeg`]: the smallest ratio of domain size to weighted degree, the weights learnt from
//! failures (dom/wdeg).

use super::{SearchView, VariableOrder};
use crate::ids::{ConstraintId, VarId};

/// Branch on the variable with the smallest ratio of domain size to *weighted* degree, where
/// each constraint starts with weight 1 and gains 1 every time it causes a failure, and a
/// variable's weighted degree sums the weights of its constraints that still have another
/// variable to branch on (Boussemart, Hemery, Lecoutre and Sais, "Boosting systematic search
/// by weighting constraints", ECAI 2004). Ties go to the earliest declared; a variable under no
/// such constraint comes after the others.
///
/// The weights are the order's state: they build up over one search (and over the runs of a
/// search with restarts), so the order adapts to where the problem is hard. Each parallel
/// thread keeps its own.
///
/// Cost per decision: a pass over the scopes of the constraints of every unfixed variable.
#[derive(Debug, Clone, Default)]
pub struct DomWdeg {
    /// Per constraint, its weight; per variable, its constraints. Built on first use.
    weights: Vec<u64>,
    constraints_of: Vec<Vec<u32>>,
}

impl DomWdeg {
    /// A new order, all weights 1.
    pub fn new() -> Self {
        DomWdeg::default()
    }

    /// The weight of constraint `c` (1 plus the failures it caused so far).
    pub fn weight(&self, c: ConstraintId) -> u64 {
        self.weights.get(c.index()).copied().unwrap_or(1)
    }

    fn prepare(&mut self, view: &SearchView<'_>) {
        let model = view.model();
        if self.constraints_of.len() == model.num_variables()
            && self.weights.len() == model.num_constraints()
        {
            return;
        }
        self.weights = vec![1; model.num_constraints()];
        self.constraints_of = vec![Vec::new(); model.num_variables()];
        for (id, constraint) in model.constraints() {
            for var in constraint.scope() {
                self.constraints_of[var.index()].push(id.index() as u32);
            }
        }
    }
}

impl VariableOrder for DomWdeg {
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        self.best_among(view, view.unfixed())
    }

    fn failure(&mut self, constraint: Option<ConstraintId>) {
        if let Some(weight) = constraint.and_then(|c| self.weights.get_mut(c.index())) {
            *weight += 1;
        }
    }
}

impl DomWdeg {
    /// The variable of `candidates` (unfixed ones) with the smallest ratio of domain size to
    /// weighted degree, ties to the first: the choice of [`DomWdeg`] among some variables only
    /// (a search annotation's group).
    pub(crate) fn best_among(
        &mut self,
        view: &SearchView<'_>,
        candidates: impl Iterator<Item = VarId>,
    ) -> Option<VarId> {
        self.prepare(view);
        let constraints = view.model().constraint_list();
        let mut best: Option<(u64, u64, VarId)> = None;
        for var in candidates {
            let size = view.domain(var).size() as u64;
            let wdeg: u64 = self.constraints_of[var.index()]
                .iter()
                .filter(|&&c| {
                    constraints[c as usize]
                        .scope()
                        .iter()
                        .any(|&y| y != var && !view.domain(y).is_fixed())
                })
                .map(|&c| self.weights[c as usize])
                .sum();
            // size / wdeg < best, without division; wdeg 0 is an infinite ratio.
            let better = match best {
                None => true,
                Some((s, w, _)) => match (wdeg, w) {
                    (0, 0) => size < s,
                    (0, _) => false,
                    (_, 0) => true,
                    _ => size * w < s * wdeg,
                },
            };
            if better {
                best = Some((size, wdeg, var));
            }
        }
        best.map(|(_, _, var)| var)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Model, NotEqual, PropagationLevel};

    #[test]
    fn a_constraint_that_fails_draws_the_search_to_its_variables() {
        // x, y, z over 1..=3; a ≠ b ≠ c chain far from them.
        let mut m = Model::new();
        let v = m.new_vars(6, 1..=3).unwrap();
        let first = m.post(NotEqual::new(v[0], v[1])).unwrap();
        let hard = m.post(NotEqual::new(v[4], v[5])).unwrap();
        let mut order = DomWdeg::new();
        let view = SearchView::new(&m, m.initial_domains(), 0);
        // Equal sizes and weights: the first declared variable under a constraint.
        assert_eq!(order.select_variable(&view), Some(v[0]));
        order.failure(Some(hard));
        order.failure(Some(hard));
        assert_eq!((order.weight(hard), order.weight(first)), (3, 1));
        assert_eq!(order.select_variable(&view), Some(v[4]));
        // Unconstrained variables come last.
        let _ = PropagationLevel::Full;
    }
}
