//! Branching strategies: which variable to branch on next, and which of its values to try first.
//!
//! The engine branches in two ways (binary branching): at a node it asks the
//! [`VariableOrder`] for an unfixed variable `x` and the [`ValueOrder`] for a value `v` of it,
//! and tries `x = v`; if that subtree is exhausted, it removes `v` from `x` (`x ≠ v`),
//! propagates, and asks both orders again. With [`InputOrder`] and [`Ascending`] this visits
//! assignments in lexicographic order, so the first solution found is the lexicographically
//! smallest one (in declaration order).
//!
//! The built-in orders, one per file of this module:
//!
//! | variable order | picks | cost per call |
//! |---|---|---|
//! | [`InputOrder`] | the first unfixed variable | up to one pass over the variables |
//! | [`SmallestDomain`] | the fewest values left (MRV, first-fail) | one pass |
//! | [`SmallestDomainRandomTies`] | the same, ties broken at random (seeded) | one pass, a hash per tie |
//! | [`DomainOverDegree`] | the smallest size over degree (dom/deg) | one pass |
//! | [`DomWdeg`] | the smallest size over weighted degree (dom/wdeg) | a pass over the scopes of the constraints of the unfixed variables |
//! | [`SmallestMinimum`] | the smallest value left, ties to the fewest values (the earliest start: the order for start times) | one pass |
//! | [`Activity`] | the most involved in recent conflicts (VSIDS), for a search that learns | one pass |
//!
//! | value order | picks | cost per call |
//! |---|---|---|
//! | [`Ascending`] | the smallest value | a few instructions |
//! | [`Descending`] | the largest value | a few instructions |
//! | [`MiddleOut`] | the value nearest the middle of the declared domain | a scan out from the middle |
//! | [`RandomValue`] | a random value (seeded) | a hash per value of the domain |
//!
//! The randomised orders are deterministic: their choices are a function of their seed, of
//! the run they are in (see [`VariableOrder::start_run`]) and of the current domains, never of
//! the history of the search. A search with them is reproducible, and a
//! [parallel search](crate::Solver::count_parallel) makes the same choices as the sequential
//! one.
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

mod activity;
mod ascending;
mod descending;
mod dom_wdeg;
mod domain_over_degree;
mod input_order;
mod least_constraining;
mod middle_out;
mod random_value;
mod smallest_domain;
mod smallest_domain_random_ties;
mod smallest_minimum;

pub use activity::Activity;
pub use ascending::Ascending;
pub use descending::Descending;
pub use dom_wdeg::DomWdeg;
pub use domain_over_degree::DomainOverDegree;
pub use input_order::InputOrder;
pub use least_constraining::LeastConstraining;
pub use middle_out::MiddleOut;
pub use random_value::RandomValue;
pub use smallest_domain::SmallestDomain;
pub(crate) use smallest_domain::smallest_domain_among;
pub use smallest_domain_random_ties::SmallestDomainRandomTies;
pub use smallest_minimum::SmallestMinimum;
pub(crate) use smallest_minimum::smallest_minimum_among;

use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};
use crate::kernel::explain::Literal;
use crate::model::Model;
use crate::search::Branching;
use crate::search::sizes::{LONG_PASS, SizeIndex};

/// A read-only view of the search state, given to orderings.
#[derive(Debug, Clone, Copy)]
pub struct SearchView<'a> {
    model: &'a Model,
    domains: &'a [Domain],
    depth: usize,
    /// In textbook mode, the variables assigned by a decision: only the others are still to
    /// branch on, fixed or not.
    decided: Option<&'a [bool]>,
    /// The variables the search branches on, if not all
    /// ([`Solver::with_decision_variables`](crate::Solver::with_decision_variables)).
    branch: Option<&'a [bool]>,
    /// Every variable before this index is known to be fixed (assigned, in textbook mode):
    /// [`unfixed`](SearchView::unfixed) starts there.
    front: u32,
    /// The engine's index of domain sizes, in step with `domains` if it is active.
    sizes: Option<&'a SizeIndex>,
    branching: Branching,
}

impl<'a> SearchView<'a> {
    pub(crate) fn new(model: &'a Model, domains: &'a [Domain], depth: usize) -> Self {
        SearchView {
            model,
            domains,
            depth,
            decided: None,
            branch: None,
            front: 0,
            sizes: None,
            branching: Branching::Assign,
        }
    }

    /// The view of a search that splits its nodes by `branching`.
    #[inline]
    pub(crate) fn with_branching(mut self, branching: Branching) -> Self {
        self.branching = branching;
        self
    }

    /// The view of a search that keeps an index of domain sizes for
    /// [`smallest_domain`](SearchView::smallest_domain).
    #[inline]
    pub(crate) fn with_sizes(mut self, sizes: &'a SizeIndex) -> Self {
        self.sizes = Some(sizes);
        self
    }

    /// The view of a textbook search, where a variable is open until a decision assigns it.
    #[inline]
    pub(crate) fn with_decided(mut self, decided: &'a [bool]) -> Self {
        self.decided = Some(decided);
        self
    }

    /// The view of a search that branches only on the variables marked in `branch` (indexed by
    /// variable): the others are left out of [`unfixed`](SearchView::unfixed).
    #[inline]
    pub(crate) fn with_branch(mut self, branch: Option<&'a [bool]>) -> Self {
        self.branch = branch;
        self
    }

    /// The view of a search where every variable before `front` is known to be fixed (or
    /// assigned): [`unfixed`](SearchView::unfixed) starts there.
    #[inline]
    pub(crate) fn with_front(mut self, front: u32) -> Self {
        self.front = front.min(self.domains.len() as u32);
        self
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

    /// How the search splits the node the orders are choosing for: with
    /// [`Branching::Split`], the value chosen is the bound of the left branch, `x ≤ v`.
    pub fn branching(&self) -> Branching {
        self.branching
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

    /// The variables still to branch on, in declaration order: those not fixed yet or, in a
    /// textbook search ([`Propagation::TextbookForward`]), those no decision has
    /// assigned yet (a variable that forward checking left with one value is still assigned
    /// by a decision, as the textbooks count it). A search given its decision variables
    /// ([`Solver::with_decision_variables`]) lists only those.
    ///
    /// [`Propagation::TextbookForward`]: crate::Propagation::TextbookForward
    /// [`Solver::with_decision_variables`]: crate::Solver::with_decision_variables
    #[inline]
    pub fn unfixed(&self) -> Unfixed<'a> {
        Unfixed {
            model: self.model.id(),
            domains: self.domains,
            decided: self.decided,
            branch: self.branch,
            front: self.front,
            back: self.domains.len() as u32,
        }
    }

    /// The smallest domain a variable still to branch on can have: 2, or 1 in a textbook
    /// search (where a variable fixed by forward checking is still assigned by a decision). An
    /// order looking for the smallest domain can stop at the first this small.
    pub fn min_unfixed_size(&self) -> usize {
        if self.decided.is_some() { 1 } else { 2 }
    }

    /// The variable still to branch on with the fewest values left, the earliest declared
    /// among ties, or `None` if every variable is fixed: the choice of
    /// [`SmallestDomain`](crate::SmallestDomain).
    ///
    /// Cost: a pass over [`unfixed`](SearchView::unfixed), stopped at the first domain of
    /// [`min_unfixed_size`](SearchView::min_unfixed_size), while the passes are short. After a
    /// long one, the search keeps an index of the domain sizes, updated from its undo log at
    /// O(log n) per domain change, and the answer costs O(1): a search over n variables with
    /// no constraints then takes O(n log n) time, not O(n²). (A textbook search, whose
    /// variables stay open after forward checking fixes them, always makes the pass.)
    pub fn smallest_domain(&self) -> Option<VarId> {
        if self.decided.is_none()
            && let Some(sizes) = self.sizes
            && let Some(found) = sizes.smallest()
        {
            return found.map(|index| VarId {
                model: self.model.id(),
                index,
            });
        }
        let mut seen = 0;
        let best = smallest_domain_among(self, self.unfixed().inspect(|_| seen += 1));
        if seen > LONG_PASS
            && let Some(sizes) = self.sizes
        {
            sizes.want();
        }
        best
    }

    /// The number of constraints on `var` (its static degree).
    pub fn degree(&self, var: VarId) -> usize {
        self.model.degree(var)
    }
}

/// The variables still to branch on, from [`SearchView::unfixed`].
#[derive(Debug, Clone)]
pub struct Unfixed<'a> {
    model: u32,
    domains: &'a [Domain],
    decided: Option<&'a [bool]>,
    branch: Option<&'a [bool]>,
    /// The indices not visited yet: `front..back`.
    front: u32,
    back: u32,
}

impl Unfixed<'_> {
    #[inline]
    fn is_open(&self, index: u32) -> bool {
        let index = index as usize;
        self.branch.is_none_or(|branch| branch[index])
            && match self.decided {
                None => !self.domains[index].is_fixed(),
                Some(decided) => !decided[index],
            }
    }

    #[inline]
    fn var(&self, index: u32) -> VarId {
        VarId {
            model: self.model,
            index,
        }
    }
}

impl Iterator for Unfixed<'_> {
    type Item = VarId;

    #[inline]
    fn next(&mut self) -> Option<VarId> {
        // The common case in a loop of its own: the first unfixed domain.
        let (front, back) = (self.front as usize, self.back as usize);
        let found = match (self.decided, self.branch) {
            (None, None) => self.domains[front..back].iter().position(|d| !d.is_fixed()),
            (Some(decided), None) => decided[front..back].iter().position(|&d| !d),
            (_, Some(_)) => (front..back).position(|i| self.is_open(i as u32)),
        };
        match found {
            Some(offset) => {
                let index = (front + offset) as u32;
                self.front = index + 1;
                Some(self.var(index))
            }
            None => {
                self.front = self.back;
                None
            }
        }
    }
}

impl DoubleEndedIterator for Unfixed<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<VarId> {
        while self.front < self.back {
            self.back -= 1;
            if self.is_open(self.back) {
                return Some(self.var(self.back));
            }
        }
        None
    }
}

impl std::iter::FusedIterator for Unfixed<'_> {}

/// Chooses the variable to branch on.
pub trait VariableOrder {
    /// An unfixed variable to branch on, or `None` when every variable is fixed.
    ///
    /// Returning `None` while some variable is unfixed is a bug in the order; the engine then
    /// falls back to the first unfixed variable (and says so in debug builds).
    ///
    /// # Panics
    ///
    /// The search panics, with a message naming the variable, if the order returns a variable
    /// that is not one of the model's, or one that is already fixed (already assigned, with
    /// textbook forward checking): branching on it would never end. Choose among
    /// [`SearchView::unfixed`].
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId>;

    /// Prepares the order for a search from the root.
    ///
    /// The solver calls it before the first decision of every search from the root: with
    /// `run` 0 for a new search (after a `with_*` method or [`Solver::restart_with`]) and for
    /// each subtree of a parallel search, then with 1, 2, … for the successive runs of a
    /// search with restarts ([`Solver::with_restarts`]). Randomised orders draw their choices
    /// from their seed and `run`, so that each run of a restarting search explores the tree
    /// differently while every search stays reproducible. The default does nothing.
    ///
    /// [`Solver::restart_with`]: crate::Solver::restart_with
    /// [`Solver::with_restarts`]: crate::Solver::with_restarts
    fn start_run(&mut self, run: u32) {
        let _ = run;
    }

    /// A node failed; `constraint` reported it, if one did. Orders that learn from failures
    /// (dom/wdeg) count them here; the default ignores them.
    #[inline]
    fn failure(&mut self, constraint: Option<ConstraintId>) {
        let _ = constraint;
    }

    /// The search learned `nogood` from a failure (with learning on,
    /// [`Solver::with_learning`](crate::Solver::with_learning)): literals that cannot all
    /// hold. Orders that follow the conflicts ([`Activity`]) count its variables here; the
    /// default ignores it.
    #[inline]
    fn learned(&mut self, nogood: &[Literal]) {
        let _ = nogood;
    }
}

impl<F> VariableOrder for F
where
    F: FnMut(&SearchView<'_>) -> Option<VarId>,
{
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        self(view)
    }
}

/// A boxed order, `Send` or not, is an order.
macro_rules! boxed_orders {
    ($($bounds:tt)*) => {
        impl VariableOrder for Box<dyn VariableOrder $($bounds)* + '_> {
            fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
                (**self).select_variable(view)
            }

            fn start_run(&mut self, run: u32) {
                (**self).start_run(run);
            }

            fn failure(&mut self, constraint: Option<ConstraintId>) {
                (**self).failure(constraint);
            }

            fn learned(&mut self, nogood: &[Literal]) {
                (**self).learned(nogood);
            }
        }

        impl ValueOrder for Box<dyn ValueOrder $($bounds)* + '_> {
            fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
                (**self).select_value(var, view)
            }

            fn start_run(&mut self, run: u32) {
                (**self).start_run(run);
            }
        }
    };
}

boxed_orders!();
boxed_orders!(+ Send);

/// Chooses the value to try first for the variable branched on.
pub trait ValueOrder {
    /// A value in the current domain of `var` (which has at least two values).
    ///
    /// # Panics
    ///
    /// The engine panics if the value is not in the domain: that is a bug in the order.
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32;

    /// Prepares the order for a search from the root; see [`VariableOrder::start_run`], whose
    /// rules are the same. The default does nothing.
    fn start_run(&mut self, run: u32) {
        let _ = run;
    }
}

impl<F> ValueOrder for F
where
    F: FnMut(VarId, &SearchView<'_>) -> i32,
{
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        self(var, view)
    }
}

/// Helpers for the unit tests of the orders.
#[cfg(test)]
mod testing {
    use crate::domain::Domain;
    use crate::ids::VarId;
    use crate::model::Model;

    use super::SearchView;

    /// A view of `domains` at the root of a search of `model`.
    pub(super) fn view_of<'a>(model: &'a Model, domains: &'a [Domain]) -> SearchView<'a> {
        SearchView::new(model, domains, 0)
    }

    /// A model with one unconstrained variable per domain.
    pub(super) fn model_with(domains: &[&[i32]]) -> (Model, Vec<VarId>) {
        let mut m = Model::new();
        let vars = domains.iter().map(|d| m.new_var(*d).unwrap()).collect();
        (m, vars)
    }

    /// `domain` with only `values` left, for views of a node below the root.
    pub(super) fn narrowed(domain: &Domain, values: &[i32]) -> Domain {
        let mut narrowed = domain.clone();
        for value in domain.iter().filter(|v| !values.contains(v)) {
            narrowed.remove(value, &mut |_, _| {});
        }
        narrowed
    }
}
