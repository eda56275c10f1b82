//! [`grade`]: how hard a puzzle is, as the weakest reasoning that solves it without guessing.

use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::{Conflict, PropagationLevel, propagate_alone};
use crate::model::Model;
use crate::puzzle::Limits;
use crate::{Limit, Outcome, SmallestDomain};

/// The weakest reasoning that solves a puzzle, from the easiest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    /// Nothing to deduce: the clues fix every variable.
    Given,
    /// Forward checking alone fixes every variable ([`PropagationLevel::Forward`]; in Sudoku,
    /// naked singles).
    Forward,
    /// Each constraint's strongest filtering fixes every variable, forward checking does not
    /// ([`PropagationLevel::Full`]; in Sudoku, hidden singles and the naked and hidden sets of
    /// one row, column or box).
    Full,
    /// Propagation stops short: the search has to guess.
    Search,
}

impl Difficulty {
    /// The name: `given`, `forward`, `full`, `search`.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Given => "given",
            Difficulty::Forward => "forward",
            Difficulty::Full => "full",
            Difficulty::Search => "search",
        }
    }

    /// The propagation level that solves puzzles of this difficulty, `None` for
    /// [`Difficulty::Search`].
    pub fn level(self) -> Option<PropagationLevel> {
        match self {
            Difficulty::Given => Some(PropagationLevel::None),
            Difficulty::Forward => Some(PropagationLevel::Forward),
            Difficulty::Full => Some(PropagationLevel::Full),
            Difficulty::Search => None,
        }
    }
}

/// A puzzle's grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grade {
    /// The weakest reasoning that solves it.
    pub difficulty: Difficulty,
    /// Rounds of propagation at that level (at [`PropagationLevel::Full`] for
    /// [`Difficulty::Search`]) until it deduces nothing more; a round propagates every
    /// constraint once, in the model's order.
    pub rounds: u32,
    /// For [`Difficulty::Search`]: the decisions a fixed strategy (smallest domain first,
    /// ascending values, full propagation) takes to its first solution; 0 otherwise.
    pub decisions: u64,
}

/// Why a puzzle has no grade.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GradeError {
    /// The clues admit no solution.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// A limit stopped the search for a solution before it found one or proved there is none.
    #[error("no answer: {0}")]
    LimitReached(Limit),
    /// A clue is not a value of its variable.
    #[error(transparent)]
    Model(#[from] crate::ModelError),
}

/// Rounds of propagation at `level` from `domains`, until a round prunes nothing: the number
/// of rounds that pruned, or the conflict.
pub(crate) fn propagate_rounds(
    model: &Model,
    domains: &mut [Domain],
    level: PropagationLevel,
) -> Result<u32, Conflict> {
    let mut rounds = 0;
    loop {
        let before: usize = domains.iter().map(Domain::size).sum();
        for (_, constraint) in model.constraints() {
            propagate_alone(constraint, domains, level)?;
        }
        if domains.iter().map(Domain::size).sum::<usize>() == before {
            return Ok(rounds);
        }
        rounds += 1;
    }
}

/// The model's domains with `fixed` applied.
pub(crate) fn fixed_domains(
    model: &Model,
    fixed: &[(VarId, i32)],
) -> Result<Vec<Domain>, crate::ModelError> {
    let mut domains: Vec<Domain> = model.variables().map(|v| model.domain(v).clone()).collect();
    for &(var, value) in fixed {
        model.check_fix(var, value)?;
        let domain = &mut domains[var.index()];
        if !domain.contains(value) {
            return Err(crate::ModelError::ValueNotInDomain {
                variable: model.var_name(var).into_owned(),
                value,
                domain: domain.to_string(),
            });
        }
        *domain = Domain::from_values([value]).expect("one value");
    }
    Ok(domains)
}

/// The grade of `model` with the clues `fixed`: the weakest propagation level that fixes every
/// variable, or the decisions a search needs (at most `decision_limit`); see [`grade_within`]
/// for a time limit and a cancellation flag.
///
/// # Errors
///
/// [`GradeError::NoSolution`] if the clues admit no solution, [`GradeError::LimitReached`] if
/// the search for one stops at the limit, [`GradeError::Model`] for a clue outside its domain.
///
/// # Examples
///
/// ```
/// use cspkit::models::sudoku::{Grid, Sudoku};
/// use cspkit::puzzle::{Difficulty, grade};
///
/// let empty = Sudoku::new(&Grid::empty(2).unwrap())?;
/// let puzzle = Grid::parse("1..4..1..1..4...", None)?;
/// let clues: Vec<_> = empty.givens(&puzzle).collect();
/// let grade = grade(empty.model(), &clues, 1000)?;
/// // Four givens leave cells with two candidates each: the search has to guess.
/// assert_eq!(grade.difficulty, Difficulty::Search);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn grade(
    model: &Model,
    fixed: &[(VarId, i32)],
    decision_limit: u64,
) -> Result<Grade, GradeError> {
    grade_within(
        model,
        fixed,
        &Limits::new().with_decision_limit(decision_limit),
    )
}

/// The grade of `model` with the clues `fixed`, as [`grade`], within `limits`: the search for
/// a solution (when propagation does not fix every variable) stops at the decision limit, the
/// time limit or the flag.
///
/// The grade says nothing of how many solutions there are: a puzzle with several is graded
/// [`Difficulty::Search`] by the decisions to its first.
///
/// # Errors
///
/// [`GradeError::NoSolution`] if the clues admit no solution, [`GradeError::LimitReached`] with
/// the limit that stopped the search, [`GradeError::Model`] for a clue outside its domain.
pub fn grade_within(
    model: &Model,
    fixed: &[(VarId, i32)],
    limits: &Limits,
) -> Result<Grade, GradeError> {
    let clock = limits.start();
    let start = fixed_domains(model, fixed)?;
    if start.iter().all(Domain::is_fixed) {
        if model.is_solution(&start.iter().filter_map(Domain::value).collect::<Vec<_>>()) {
            return Ok(Grade {
                difficulty: Difficulty::Given,
                rounds: 0,
                decisions: 0,
            });
        }
        return Err(GradeError::NoSolution);
    }
    for (difficulty, level) in [
        (Difficulty::Forward, PropagationLevel::Forward),
        (Difficulty::Full, PropagationLevel::Full),
    ] {
        if let Some(limit) = clock.stopped() {
            return Err(GradeError::LimitReached(limit));
        }
        let mut domains = start.clone();
        let rounds =
            propagate_rounds(model, &mut domains, level).map_err(|_| GradeError::NoSolution)?;
        if domains.iter().all(Domain::is_fixed) {
            let values: Vec<i32> = domains.iter().filter_map(Domain::value).collect();
            if !model.is_solution(&values) {
                return Err(GradeError::NoSolution);
            }
            return Ok(Grade {
                difficulty,
                rounds,
                decisions: 0,
            });
        }
        if level == PropagationLevel::Full {
            let mut solver = clock.configure(model.solver().with_variable_order(SmallestDomain));
            solver.restart_with(fixed.iter().copied())?;
            clock.arm(&mut solver);
            return match solver.next_solution() {
                Outcome::Solved(_) => Ok(Grade {
                    difficulty: Difficulty::Search,
                    rounds,
                    decisions: solver.stats().decisions,
                }),
                Outcome::Exhausted => Err(GradeError::NoSolution),
                Outcome::LimitReached(limit) => Err(GradeError::LimitReached(limit)),
            };
        }
    }
    unreachable!("the loop returns at the full level")
}
