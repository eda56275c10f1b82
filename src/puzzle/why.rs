//! [`minimal_conflict`]: which of a puzzle's clues already admit no solution.

use crate::ids::VarId;
use crate::model::Model;
use crate::{Outcome, SmallestDomain};

/// A set of assumptions without a solution, as indices into the assumptions given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinimalConflict {
    /// The indices of the assumptions in the set, ascending.
    pub assumptions: Vec<usize>,
    /// Whether the set is proved minimal: without any one of its assumptions, the rest have a
    /// solution (and so does every proper subset). `false` when a check reached the decision
    /// limit; the assumption checked was then kept.
    pub minimal: bool,
}

/// Why no conflict was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WhyError {
    /// The assumptions together have a solution.
    #[error("the assumptions have a solution")]
    Solvable,
    /// The search on all the assumptions reached its decision limit.
    #[error("no answer within {0} decisions")]
    LimitReached(u64),
    /// An assumption is not a value of its variable.
    #[error(transparent)]
    Model(#[from] crate::ModelError),
}

/// A minimal subset of `assumptions` (each `variable = value`, such as a puzzle's clues) under
/// which `model` has no solution, by deletion: each assumption in turn is left out, and stays
/// out if the others still have no solution (a search of at most `decision_limit` decisions,
/// smallest domain first, full propagation). Since fewer assumptions never have fewer
/// solutions, the set left is minimal: each proper subset has a solution.
///
/// Constraints are assumed the way CP-SAT assumes literals: reify each with a boolean
/// ([`Model::reify`](crate::Model::reify)) and assume the boolean `= 1`.
///
/// # Errors
///
/// [`WhyError::Solvable`] if all the assumptions together have a solution,
/// [`WhyError::LimitReached`] if that search stops at the limit, [`WhyError::Model`] for an
/// assumption outside its variable's domain.
///
/// # Examples
///
/// ```
/// use cspkit::models::sudoku::{Grid, Sudoku};
/// use cspkit::puzzle::minimal_conflict;
///
/// let empty = Sudoku::new(&Grid::empty(3).unwrap())?;
/// // Two 5s in the first row, and a harmless 7.
/// let clues = [(empty.cell(0, 0), 5), (empty.cell(4, 4), 7), (empty.cell(0, 8), 5)];
/// let conflict = minimal_conflict(empty.model(), &clues, 10_000)?;
/// assert_eq!(conflict.assumptions, [0, 2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn minimal_conflict(
    model: &Model,
    assumptions: &[(VarId, i32)],
    decision_limit: u64,
) -> Result<MinimalConflict, WhyError> {
    let mut solver = model
        .solver()
        .with_variable_order(SmallestDomain)
        .with_decision_limit(decision_limit);
    // `Some(true)`: no solution; `Some(false)`: a solution; `None`: the limit.
    let mut unsolvable = |kept: &[bool]| -> Result<Option<bool>, WhyError> {
        let chosen = assumptions
            .iter()
            .zip(kept)
            .filter(|&(_, &k)| k)
            .map(|(&a, _)| a);
        solver.restart_with(chosen)?;
        Ok(match solver.next_solution() {
            Outcome::Exhausted => Some(true),
            Outcome::Solved(_) => Some(false),
            _ => None,
        })
    };
    let mut kept = vec![true; assumptions.len()];
    match unsolvable(&kept)? {
        Some(true) => {}
        Some(false) => return Err(WhyError::Solvable),
        None => return Err(WhyError::LimitReached(decision_limit)),
    }
    let mut minimal = true;
    for i in 0..assumptions.len() {
        kept[i] = false;
        match unsolvable(&kept)? {
            Some(true) => {}
            Some(false) => kept[i] = true,
            None => {
                kept[i] = true;
                minimal = false;
            }
        }
    }
    Ok(MinimalConflict {
        assumptions: (0..assumptions.len()).filter(|&i| kept[i]).collect(),
        minimal,
    })
}
