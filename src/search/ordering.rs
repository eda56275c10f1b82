//! Branching strategies: which variable to branch on next, and which of its values to try first.
//!
//! The engine branches in two ways (binary branching): at a node it asks the
//! [`VariableOrder`] for an unfixed variable `x` and the [`ValueOrder`] for a value `v` of it,
//! and tries `x = v`; if that subtree is exhausted, it removes `v` from `x` (`x ≠ v`),
//! propagates, and asks both orders again. With [`InputOrder`] and [`Ascending`] this visits
//! assignments in lexicographic order, so the first solution found is the lexicographically
//! smallest one (in declaration order).
//!
//! Both traits are implemented for closures, so a one-off strategy needs no type:
//!
//! ```
//! use cspkit::{AllDifferent, Model, SearchView, VarId};
//!
//! let mut model = Model::new();
//! let xs = model.new_vars(4, 1..=4)?;
//! model.post(AllDifferent::new(&xs))?;
//! // Branch on the last unfixed variable first, and try its largest value first.
//! let last_unfixed = |view: &SearchView<'_>| view.unfixed().last();
//! let largest = |var: VarId, view: &SearchView<'_>| view.domain(var).max().unwrap();
//! let mut solver = model.solver().with_variable_order(last_unfixed).with_value_order(largest);
//! let solution = solver.next_solution().solution().unwrap();
//! assert_eq!(solution.values(), [1, 2, 3, 4]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::domain::Domain;
use crate::model::{Model, VarId};

/// A read-only view of the search state, given to orderings.
#[derive(Debug, Clone, Copy)]
pub struct SearchView<'a> {
    model: &'a Model,
    domains: &'a [Domain],
    depth: usize,
}

impl<'a> SearchView<'a> {
    pub(crate) fn new(model: &'a Model, domains: &'a [Domain], depth: usize) -> Self {
        SearchView {
            model,
            domains,
            depth,
        }
    }

    /// The model being solved.
    pub fn model(&self) -> &'a Model {
        self.model
    }

    /// The current domain of `var`.
    ///
    /// # Panics
    ///
    /// If `var` is not a variable of the model being solved.
    #[inline]
    pub fn domain(&self, var: VarId) -> &'a Domain {
        &self.domains[var.index()]
    }

    /// The number of decisions on the current path.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// All variables, in declaration order.
    pub fn variables(&self) -> impl DoubleEndedIterator<Item = VarId> + ExactSizeIterator + 'a {
        let model = self.model.id();
        (0..self.domains.len() as u32).map(move |index| VarId { model, index })
    }

    /// The variables that are not fixed yet, in declaration order.
    pub fn unfixed(&self) -> impl DoubleEndedIterator<Item = VarId> + 'a {
        let domains = self.domains;
        self.variables()
            .filter(move |var| !domains[var.index()].is_fixed())
    }

    /// The number of constraints on `var` (its static degree).
    pub fn degree(&self, var: VarId) -> usize {
        self.model.degree(var)
    }
}

/// Chooses the variable to branch on.
pub trait VariableOrder {
    /// An unfixed variable to branch on, or `None` when every variable is fixed.
    ///
    /// Returning `None` while some variable is unfixed is a bug in the order; the engine then
    /// falls back to the first unfixed variable (and says so in debug builds).
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId>;
}

impl<F> VariableOrder for F
where
    F: FnMut(&SearchView<'_>) -> Option<VarId>,
{
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        self(view)
    }
}

impl VariableOrder for Box<dyn VariableOrder + '_> {
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        (**self).select_variable(view)
    }
}

/// Chooses the value to try first for the variable branched on.
pub trait ValueOrder {
    /// A value in the current domain of `var` (which has at least two values).
    ///
    /// # Panics
    ///
    /// The engine panics if the value is not in the domain: that is a bug in the order.
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32;
}

impl<F> ValueOrder for F
where
    F: FnMut(VarId, &SearchView<'_>) -> i32,
{
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        self(var, view)
    }
}

impl ValueOrder for Box<dyn ValueOrder + '_> {
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        (**self).select_value(var, view)
    }
}

/// Branch on the first unfixed variable in declaration order (also called static or
/// lexicographic order). With [`Ascending`] values, solutions come in lexicographic order.
#[derive(Debug, Clone, Copy, Default)]
pub struct InputOrder;

impl VariableOrder for InputOrder {
    #[inline]
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        view.unfixed().next()
    }
}

/// Branch on the variable with the fewest values left (also called MRV, minimum remaining
/// values, or first-fail); ties go to the earliest declared.
#[derive(Debug, Clone, Copy, Default)]
pub struct SmallestDomain;

impl VariableOrder for SmallestDomain {
    #[inline]
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        let mut best: Option<(usize, VarId)> = None;
        for var in view.variables() {
            let size = view.domain(var).size();
            if size > 1 && best.is_none_or(|(s, _)| size < s) {
                best = Some((size, var));
                if size == 2 {
                    break; // No unfixed domain is smaller.
                }
            }
        }
        best.map(|(_, var)| var)
    }
}

/// Branch on the variable with the smallest ratio of domain size to degree (the number of
/// constraints on it), also called dom/deg; ties go to the earliest declared. A variable under
/// no constraint has an infinite ratio and comes after all others (among themselves, the
/// smallest domain first).
#[derive(Debug, Clone, Copy, Default)]
pub struct DomainOverDegree;

impl VariableOrder for DomainOverDegree {
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        let mut best: Option<(u64, u64, VarId)> = None;
        for var in view.variables() {
            let size = view.domain(var).size() as u64;
            if size <= 1 {
                continue;
            }
            let degree = view.degree(var) as u64;
            // size / degree < best_size / best_degree, compared without division; degree 0
            // counts as an infinitely large ratio.
            let better = match best {
                None => true,
                Some((s, d, _)) => match (degree, d) {
                    (0, 0) => size < s,
                    (0, _) => false,
                    (_, 0) => true,
                    _ => size * d < s * degree,
                },
            };
            if better {
                best = Some((size, degree, var));
            }
        }
        best.map(|(_, _, var)| var)
    }
}

/// Try the smallest value first.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ascending;

impl ValueOrder for Ascending {
    #[inline]
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        view.domain(var).min().unwrap_or_default()
    }
}

/// Try the largest value first.
#[derive(Debug, Clone, Copy, Default)]
pub struct Descending;

impl ValueOrder for Descending {
    #[inline]
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        view.domain(var).max().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view_of<'a>(model: &'a Model, domains: &'a [Domain]) -> SearchView<'a> {
        SearchView::new(model, domains, 0)
    }

    fn model_with(domains: &[&[i32]]) -> (Model, Vec<VarId>) {
        let mut m = Model::new();
        let vars = domains.iter().map(|d| m.new_var(*d).unwrap()).collect();
        (m, vars)
    }

    #[test]
    fn fixed_variables_are_never_selected() {
        let (m, v) = model_with(&[&[1], &[2], &[1, 2, 3], &[4, 5]]);
        let d = m.initial_domains();
        assert_eq!(InputOrder.select_variable(&view_of(&m, d)), Some(v[2]));
        assert_eq!(SmallestDomain.select_variable(&view_of(&m, d)), Some(v[3]));
        assert_eq!(
            DomainOverDegree.select_variable(&view_of(&m, d)),
            Some(v[3])
        );
        let (m, _) = model_with(&[&[1], &[2]]);
        let d = m.initial_domains();
        assert_eq!(InputOrder.select_variable(&view_of(&m, d)), None);
        assert_eq!(SmallestDomain.select_variable(&view_of(&m, d)), None);
        assert_eq!(DomainOverDegree.select_variable(&view_of(&m, d)), None);
    }

    #[test]
    fn smallest_domain_breaks_ties_by_declaration_order() {
        let (m, v) = model_with(&[&[1, 2, 3], &[1, 2], &[3, 4], &[1, 2, 3, 4]]);
        let d = m.initial_domains();
        assert_eq!(SmallestDomain.select_variable(&view_of(&m, d)), Some(v[1]));
    }

    #[test]
    fn domain_over_degree_prefers_constrained_variables() {
        let (mut m, v) = model_with(&[&[1, 2], &[1, 2, 3, 4], &[1, 2, 3, 4], &[1, 2, 3]]);
        // v1 has degree 3: ratio 4/3 < 2/1 (v0, degree 1) and < 3/0 (v3, no constraint).
        m.post(crate::NotEqual::new(v[1], v[0])).unwrap();
        m.post(crate::NotEqual::new(v[1], v[2])).unwrap();
        m.post(crate::NotEqual::with_offset(v[1], v[2], 1)).unwrap();
        let d = m.initial_domains();
        assert_eq!(
            DomainOverDegree.select_variable(&view_of(&m, d)),
            Some(v[1])
        );
    }

    #[test]
    fn value_orders_pick_the_ends_of_the_domain() {
        let (m, v) = model_with(&[&[-4, 0, 9]]);
        let d = m.initial_domains();
        assert_eq!(Ascending.select_value(v[0], &view_of(&m, d)), -4);
        assert_eq!(Descending.select_value(v[0], &view_of(&m, d)), 9);
    }
}
