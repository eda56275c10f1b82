//! [`minimal_conflict`]: which of a puzzle's clues already admit no solution.

use crate::ids::VarId;
use crate::model::Model;
use crate::puzzle::Limits;
use crate::{Limit, Outcome, SmallestDomain};

/// A set of assumptions without a solution, as indices into the assumptions given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinimalConflict {
    /// The indices of the assumptions in the set, ascending.
    pub assumptions: Vec<usize>,
    /// Whether the set is proved minimal: without any one of its assumptions, the rest have a
    /// solution (and so does every proper subset). `false` when a check reached the decision
    /// limit (the assumption checked was then kept), or when a limit ended the shrinking early.
    pub minimal: bool,
    /// The time limit or the cancellation flag, if it ended the shrinking before every
    /// assumption was checked: the set still has no solution, but may not be minimal.
    pub stopped_by: Option<Limit>,
}

/// Why no conflict was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WhyError {
    /// The assumptions together have a solution.
    #[error("the assumptions have a solution")]
    Solvable,
    /// A limit stopped the search on all the assumptions before it found a solution or proved
    /// there is none.
    #[error("no answer: {0}")]
    LimitReached(Limit),
    /// An assumption is not a value of its variable.
    #[error(transparent)]
    Model(#[from] crate::ModelError),
    /// The costs of [`ConflictOptions::with_costs`](super::ConflictOptions::with_costs) are not
    /// one per assumption.
    #[error("{costs} costs for {assumptions} assumptions: give one cost per assumption")]
    CostCount {
        /// The number of costs given.
        costs: usize,
        /// The number of assumptions.
        assumptions: usize,
    },
}

/// A minimal subset of `assumptions` (each `variable = value`, such as a puzzle's clues) under
/// which `model` has no solution, by deletion: each assumption in turn is left out, and stays
/// out if the others still have no solution (a search of at most `decision_limit` decisions,
/// smallest domain first, full propagation). Since fewer assumptions never have fewer
/// solutions, the set left is minimal: each proper subset has a solution.
///
/// See [`minimal_conflict_within`] for a time limit and a cancellation flag.
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
    minimal_conflict_within(
        model,
        assumptions,
        &Limits::new().with_decision_limit(decision_limit),
    )
}

/// A minimal subset of `assumptions` under which `model` has no solution, as
/// [`minimal_conflict`], within `limits`: each search stops at the decision limit (its
/// assumption is then kept, and the set is not proved minimal), and the time limit or the flag
/// ends the shrinking where it stands, with the set found so far
/// ([`MinimalConflict::stopped_by`]).
///
/// # Errors
///
/// [`WhyError::Solvable`] if all the assumptions together have a solution,
/// [`WhyError::LimitReached`] if a limit stops that search, [`WhyError::Model`] for an
/// assumption outside its variable's domain.
pub fn minimal_conflict_within(
    model: &Model,
    assumptions: &[(VarId, i32)],
    limits: &Limits,
) -> Result<MinimalConflict, WhyError> {
    let clock = limits.start();
    let mut solver = clock.configure(model.solver().with_variable_order(SmallestDomain));
    // `Ok(true)`: no solution; `Ok(false)`: a solution; `Err(limit)`: a limit.
    let mut unsolvable = |kept: &[bool]| -> Result<Result<bool, Limit>, WhyError> {
        let chosen = assumptions
            .iter()
            .zip(kept)
            .filter(|&(_, &k)| k)
            .map(|(&a, _)| a);
        solver.restart_with(chosen)?;
        clock.arm(&mut solver);
        Ok(match solver.next_solution() {
            Outcome::Exhausted => Ok(true),
            Outcome::Solved(_) => Ok(false),
            Outcome::LimitReached(limit) => Err(limit),
        })
    };
    let mut kept = vec![true; assumptions.len()];
    match unsolvable(&kept)? {
        Ok(true) => {}
        Ok(false) => return Err(WhyError::Solvable),
        Err(limit) => return Err(WhyError::LimitReached(limit)),
    }
    let mut minimal = true;
    let mut stopped_by = None;
    for i in 0..assumptions.len() {
        if let Some(limit) = clock.stopped() {
            stopped_by = Some(limit);
            minimal = false;
            break;
        }
        kept[i] = false;
        match unsolvable(&kept)? {
            Ok(true) => {}
            Ok(false) => kept[i] = true,
            Err(limit) => {
                kept[i] = true;
                minimal = false;
                if limit != Limit::Decisions {
                    stopped_by = Some(limit);
                    break;
                }
            }
        }
    }
    Ok(MinimalConflict {
        assumptions: (0..assumptions.len()).filter(|&i| kept[i]).collect(),
        minimal,
        stopped_by,
    })
}
