//! [`Activity`]: the variable most involved in recent conflicts (VSIDS).

use super::{SearchView, VariableOrder};
use crate::ids::{ConstraintId, VarId};
use crate::kernel::explain::Literal;

/// How much of a variable's activity is left after each conflict: recent conflicts weigh
/// more than old ones (MiniSat's default, Eén and Sörensson 2003).
const DECAY: f64 = 0.95;

/// Above this, every activity is scaled down (the order of the variables is kept).
const RESCALE_ABOVE: f64 = 1e100;

/// Branch on the variable with the highest *activity*: each conflict adds to the activity of
/// the variables it involved, and older additions fade, so the search goes where it failed
/// lately. This is VSIDS (variable state independent decaying sum; Moskewicz, Madigan,
/// Zhao, Zhang and Malik, "Chaff", DAC 2001), the branching of the solvers that learn from
/// failures. Ties, and the start, where every activity is 0, go to the fewest values left,
/// then to the earliest declared.
///
/// A conflict involves:
///
/// - with learning on ([`Solver::with_learning`](crate::Solver::with_learning)), the
///   variables of the nogood learned from it ([`VariableOrder::learned`]);
/// - otherwise, the variables of the constraint that failed ([`VariableOrder::failure`]),
///   as dom/wdeg counts it.
///
/// Once a nogood has been learned the order counts nogoods only. The activities build up
/// over one search and over the runs of a search with restarts (they are why restarts help
/// it); each parallel thread keeps its own.
///
/// Cost per decision: one pass over the open variables.
///
/// # Examples
///
/// ```
/// use cspkit::{Activity, Model, NotEqual, Outcome};
///
/// // Five pigeons, four holes, told apart pair by pair: the search has to fail its way out.
/// let mut model = Model::new();
/// let xs = model.new_vars(5, 1..=4)?;
/// for (i, &x) in xs.iter().enumerate() {
///     for &y in &xs[i + 1..] {
///         model.post(NotEqual::new(x, y))?;
///     }
/// }
/// let mut solver = model
///     .solver()
///     .with_variable_order(Activity::new())
///     .with_learning(true);
/// assert!(matches!(solver.next_solution(), Outcome::Exhausted));
/// assert!(solver.stats().learned > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Activity {
    /// Per variable, its activity. Sized on first use.
    activity: Vec<f64>,
    /// What the next bump adds: it grows by 1 / [`DECAY`] per conflict, which decays every
    /// older bump at once.
    increment: f64,
    /// Whether a nogood has been learned: from then on only nogoods count.
    learning: bool,
    /// Failed constraints not counted yet (their scopes are read from the model at the next
    /// choice).
    pending: Vec<ConstraintId>,
}

impl Default for Activity {
    fn default() -> Self {
        Activity::new()
    }
}

impl Activity {
    /// A new order, every activity 0.
    pub fn new() -> Self {
        Activity {
            activity: Vec::new(),
            increment: 1.0,
            learning: false,
            pending: Vec::new(),
        }
    }

    /// The activity of `var`: the decayed count of the conflicts that involved it, in units
    /// of the latest conflict's weight at the time of the call (0 before any).
    pub fn activity(&self, var: VarId) -> f64 {
        self.activity.get(var.index()).copied().unwrap_or(0.0) / self.increment
    }

    /// Whether the order has seen a learned nogood (and counts only those since).
    pub(crate) fn learns(&self) -> bool {
        self.learning
    }

    fn bump(&mut self, vars: impl Iterator<Item = usize>) {
        for var in vars {
            if var >= self.activity.len() {
                self.activity.resize(var + 1, 0.0);
            }
            self.activity[var] += self.increment;
            if self.activity[var] > RESCALE_ABOVE {
                self.activity.iter_mut().for_each(|a| *a /= RESCALE_ABOVE);
                self.increment /= RESCALE_ABOVE;
            }
        }
        self.increment /= DECAY;
    }

    /// Counts the failures reported since the last choice (without learning).
    fn settle(&mut self, view: &SearchView<'_>) {
        if self.pending.is_empty() {
            return;
        }
        let constraints = view.model().constraint_list();
        for c in std::mem::take(&mut self.pending) {
            if let Some(constraint) = constraints.get(c.index()) {
                self.bump(constraint.scope().iter().map(|var| var.index()));
            }
        }
    }

    /// The candidate (unfixed) with the highest activity, ties to the fewest values left and
    /// then to the first: the choice of [`Activity`] among some variables only.
    pub(crate) fn best_among(
        &mut self,
        view: &SearchView<'_>,
        candidates: impl Iterator<Item = VarId>,
    ) -> Option<VarId> {
        self.settle(view);
        let mut best: Option<(f64, usize, VarId)> = None;
        for var in candidates {
            let activity = self.activity.get(var.index()).copied().unwrap_or(0.0);
            let size = view.domain(var).size();
            let better = best.is_none_or(|(a, s, _)| activity > a || (activity == a && size < s));
            if better {
                best = Some((activity, size, var));
            }
        }
        best.map(|(_, _, var)| var)
    }
}

impl VariableOrder for Activity {
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        self.best_among(view, view.unfixed())
    }

    fn failure(&mut self, constraint: Option<ConstraintId>) {
        if let (false, Some(c)) = (self.learning, constraint) {
            self.pending.push(c);
        }
    }

    fn learned(&mut self, nogood: &[Literal]) {
        self.learning = true;
        self.pending.clear();
        self.bump(nogood.iter().map(|literal| literal.var().index()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Model, NotEqual};

    #[test]
    fn conflicts_draw_the_search_to_their_variables_and_old_ones_fade() {
        let mut m = Model::new();
        let v = m.new_vars(4, 1..=3).unwrap();
        let early = m.post(NotEqual::new(v[0], v[1])).unwrap();
        let late = m.post(NotEqual::new(v[2], v[3])).unwrap();
        let mut order = Activity::new();
        let view = SearchView::new(&m, m.initial_domains(), 0);
        // No conflict yet: the fewest values, then the first declared.
        assert_eq!(order.select_variable(&view), Some(v[0]));
        order.failure(Some(late));
        assert_eq!(order.select_variable(&view), Some(v[2]));
        // Two conflicts on the early pair outweigh one, the later of equal counts wins.
        order.failure(Some(early));
        order.failure(Some(early));
        assert_eq!(order.select_variable(&view), Some(v[0]));
        assert!(order.activity(v[0]) > order.activity(v[2]));
        // Nogoods take over from failures once one is learned.
        order.learned(&[Literal::Eq(v[3], 1), Literal::Ne(v[3], 2)]);
        order.learned(&[Literal::Eq(v[3], 2)]);
        order.failure(Some(early));
        order.failure(Some(early));
        assert_eq!(order.select_variable(&view), Some(v[3]));
    }

    #[test]
    fn activities_are_rescaled_without_changing_the_choice() {
        let mut m = Model::new();
        let v = m.new_vars(2, 1..=3).unwrap();
        let mut order = Activity::new();
        for _ in 0..10_000 {
            order.learned(&[Literal::Eq(v[1], 1)]);
        }
        assert!(order.increment < RESCALE_ABOVE);
        for _ in 0..100 {
            order.learned(&[Literal::Eq(v[0], 1)]);
        }
        let view = SearchView::new(&m, m.initial_domains(), 0);
        assert!(order.activity.iter().all(|a| a.is_finite()));
        assert_eq!(order.select_variable(&view), Some(v[0]));
    }
}
