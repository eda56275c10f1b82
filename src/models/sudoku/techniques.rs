//! Sudoku's solving techniques, from the library's generic explanations and grades.
//!
//! [`Explainer`] walks a solving path of the model; each step is named here after the
//! technique a Sudoku player knows, from which propagation drew it:
//!
//! | propagation | step | technique |
//! |---|---|---|
//! | forward checking (a fixed cell's value leaves its row, column and box) | a cell left with one value | naked single |
//! | all-different's domain consistency (Régin) on one unit | a cell forced, the others of the unit lacking its value | hidden single |
//! | the same | values removed by a Hall set of `k` cells holding `k` values | naked pair, triple, quad (`k` = 2, 3, 4) |
//! | the same | a Hall set of `m − k` of the `m` open cells, so `k` values fit only the other `k` | hidden pair, triple, quad |
//! | none (no single unit proves it) | | locked candidates, fish, chains: the path guesses instead |
//!
//! A Hall set is named naked or hidden by the smaller side: `k` cells holding `k` values, or
//! `k` values fitting only `k` cells. Locked candidates (pointing, claiming) need two units
//! at once, which no single constraint's propagation sees: a puzzle that needs them is graded
//! as needing a guess.

use std::fmt;

use crate::kernel::Literal;
use crate::models::sudoku::{Grid, Sudoku};
use crate::puzzle::{Explainer, Grade, GradeError, Step, describe_literals, grade};
use crate::{ConstraintId, Domain, ModelError, Outcome, VarId};

/// A Sudoku solving technique, from the easiest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Technique {
    /// The cell has one candidate left.
    NakedSingle,
    /// The value has one cell left in a row, column or box.
    HiddenSingle,
    /// `k` cells of a unit hold `k` values between them, which leave its other cells.
    NakedSet(usize),
    /// `k` values of a unit fit only `k` of its cells, whose other values go.
    HiddenSet(usize),
    /// No technique above applies: a value is guessed.
    Guess,
}

impl Technique {
    /// The order of difficulty: singles, then pairs, triples and so on (naked before hidden),
    /// then guessing.
    pub fn rank(self) -> usize {
        match self {
            Technique::NakedSingle => 0,
            Technique::HiddenSingle => 1,
            Technique::NakedSet(k) => 2 * k,
            Technique::HiddenSet(k) => 2 * k + 1,
            Technique::Guess => usize::MAX,
        }
    }
}

impl PartialOrd for Technique {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Technique {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set = |k: usize| match k {
            1 => "single".to_owned(),
            2 => "pair".to_owned(),
            3 => "triple".to_owned(),
            4 => "quad".to_owned(),
            k => format!("set of {k}"),
        };
        match self {
            Technique::NakedSingle => f.write_str("naked single"),
            Technique::HiddenSingle => f.write_str("hidden single"),
            Technique::NakedSet(k) => write!(f, "naked {}", set(*k)),
            Technique::HiddenSet(k) => write!(f, "hidden {}", set(*k)),
            Technique::Guess => f.write_str("guess"),
        }
    }
}

/// One line of a Sudoku's solving path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deduction {
    /// The library's step.
    pub step: Step,
    /// The technique it is, for a step that places or removes values.
    pub technique: Option<Technique>,
    /// The line, in Sudoku's words.
    pub text: String,
}

/// A Sudoku's grade: the library's, and the hardest technique of its solving path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SudokuGrade {
    /// The weakest propagation that solves it, or the decisions of a search.
    pub grade: Grade,
    /// The hardest technique of the path [`Sudoku::explain`] takes (`None` when every cell is
    /// given).
    pub hardest: Option<Technique>,
    /// How many times the path guesses.
    pub guesses: usize,
}

impl Sudoku {
    /// A solving path of `puzzle`, one deduction a line, on the model of the empty grid of its
    /// size (build it with [`Grid::empty`]): the givens are clues, so that reasons can cite
    /// them. When no technique applies, the path guesses the value of the puzzle's (smallest)
    /// solution if `guesses`, and stops otherwise; it ends with `solved`, with a
    /// contradiction for a puzzle without solution, or where it stopped.
    ///
    /// # Errors
    ///
    /// [`ModelError`] if `puzzle` is not of this Sudoku's size or this Sudoku has givens.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::sudoku::{Grid, Sudoku};
    ///
    /// let empty = Sudoku::new(&Grid::empty(2).unwrap())?;
    /// let puzzle = Grid::parse("12.3..........21", None)?;
    /// let path = empty.explain(&puzzle, true)?;
    /// assert_eq!(path[0].text, "r1c3 = 4: only value left (row 1 has 1 2 3)");
    /// assert_eq!(path.last().unwrap().text, "solved");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn explain(&self, puzzle: &Grid, guesses: bool) -> Result<Vec<Deduction>, ModelError> {
        let clues = self.clues_of(puzzle)?;
        // The simplest technique first, as a person solves.
        let mut explainer = Explainer::new(self.model())
            .with_fixed(&clues)?
            .with_cost(|step, before| self.technique(step, before).map_or(0, Technique::rank));
        if guesses {
            let mut solver = self.model().solver();
            solver.restart_with(clues.iter().copied())?;
            if let Outcome::Solved(solution) = solver.next_solution() {
                explainer = explainer.with_guesses_from(solution.values());
            }
        }
        let mut path = Vec::new();
        while let Some(step) = explainer.next_step() {
            let before = explainer.previous_domains();
            let technique = self.technique(&step, before);
            let text = self.describe_step(&step, technique, before);
            path.push(Deduction {
                step,
                technique,
                text,
            });
        }
        Ok(path)
    }

    /// The grade of `puzzle` (see [`Sudoku::explain`] for the model to call it on): the
    /// library's [`grade`], with the hardest technique of the solving path. Searches stop at
    /// `decision_limit` decisions.
    ///
    /// # Errors
    ///
    /// As [`grade`]: no solution, the limit reached, or a puzzle of another size.
    pub fn grade(&self, puzzle: &Grid, decision_limit: u64) -> Result<SudokuGrade, GradeError> {
        let clues = self.clues_of(puzzle)?;
        let grade = grade(self.model(), &clues, decision_limit)?;
        let path = self.explain(puzzle, true)?;
        Ok(SudokuGrade {
            grade,
            hardest: path.iter().filter_map(|d| d.technique).max(),
            guesses: path
                .iter()
                .filter(|d| d.technique == Some(Technique::Guess))
                .count(),
        })
    }

    /// The grid whose givens are `clues` (cells of this Sudoku with their values, as a
    /// [`Generator`](crate::puzzle::Generator) or
    /// [`minimal_conflict`](crate::puzzle::minimal_conflict) give them); the reverse of
    /// [`Sudoku::givens`]. Pairs on other variables, or with values outside `1..=n`, are left
    /// out.
    ///
    /// ```
    /// use cspkit::models::sudoku::{Grid, Sudoku};
    ///
    /// let empty = Sudoku::new(&Grid::empty(2).unwrap())?;
    /// let grid = empty.grid_of_clues(&[(empty.cell(0, 1), 3), (empty.cell(3, 3), 4)]);
    /// assert_eq!(grid.cells(), [0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn grid_of_clues(&self, clues: &[(VarId, i32)]) -> Grid {
        let n = self.box_size * self.box_size;
        let mut cells = vec![0u8; self.cells.len()];
        for &(var, value) in clues {
            let cell = self.cells.iter().position(|&c| c == var);
            let value = u8::try_from(value)
                .ok()
                .filter(|&v| v >= 1 && usize::from(v) <= n);
            if let (Some(i), Some(v)) = (cell, value) {
                cells[i] = v;
            }
        }
        Grid {
            box_size: self.box_size,
            cells,
        }
    }

    /// The givens of `puzzle` as clues of this model, which must have none of its own.
    pub(crate) fn clues_of(&self, puzzle: &Grid) -> Result<Vec<(VarId, i32)>, ModelError> {
        let n = self.box_size * self.box_size;
        let open = self.cells.iter().all(|&c| self.model.domain(c).size() == n);
        if puzzle.box_size() != self.box_size || !open {
            return Err(ModelError::InvalidConstraint {
                constraint: "Sudoku".into(),
                reason: format!(
                    "a {0}x{0} puzzle's clues need the model of an empty {0}x{0} grid",
                    puzzle.side()
                ),
            });
        }
        Ok(self.givens(puzzle).collect())
    }

    /// The technique of a step, from the domains before it.
    fn technique(&self, step: &Step, before: &[Domain]) -> Option<Technique> {
        match step {
            Step::OnlyValue { .. } => Some(Technique::NakedSingle),
            Step::Guess { .. } => Some(Technique::Guess),
            Step::Forced {
                value,
                constraint,
                reason,
                ..
            } if only_place(*value, reason) => {
                let _ = constraint;
                Some(Technique::HiddenSingle)
            }
            Step::Forced {
                constraint, reason, ..
            }
            | Step::Eliminated {
                constraint, reason, ..
            } => {
                let cells = hall_cells(step, reason);
                let open = self
                    .unit(*constraint)
                    .iter()
                    .filter(|c| !before[c.index()].is_fixed())
                    .count();
                let k = cells.len();
                Some(if k <= open.saturating_sub(k) {
                    Technique::NakedSet(k)
                } else {
                    Technique::HiddenSet(open.saturating_sub(k))
                })
            }
            _ => None,
        }
    }

    /// The cells of a unit's constraint.
    fn unit(&self, constraint: ConstraintId) -> &[VarId] {
        self.model()
            .constraints()
            .find(|(id, _)| *id == constraint)
            .map_or(&[], |(_, c)| c.scope())
    }

    /// A step in Sudoku's words.
    fn describe_step(
        &self,
        step: &Step,
        technique: Option<Technique>,
        before: &[Domain],
    ) -> String {
        let model = self.model();
        let name = |var: VarId| model.var_name(var).into_owned();
        let unit = |constraint: ConstraintId| model.constraint_name(constraint).to_owned();
        match (step, technique) {
            (
                Step::Forced {
                    var,
                    value,
                    constraint,
                    ..
                },
                Some(Technique::HiddenSingle),
            ) => format!(
                "{} = {value}: the only cell of {} where {value} can go",
                name(*var),
                unit(*constraint)
            ),
            (Step::Forced { .. } | Step::Eliminated { .. }, Some(technique)) => {
                let (constraint, reason) = match step {
                    Step::Forced {
                        constraint, reason, ..
                    }
                    | Step::Eliminated {
                        constraint, reason, ..
                    } => (*constraint, reason),
                    _ => unreachable!("matched above"),
                };
                let what = match step {
                    Step::Forced { var, value, .. } => format!("{} = {value}", name(*var)),
                    Step::Eliminated { removed, .. } => {
                        let literals: Vec<Literal> =
                            removed.iter().map(|&(v, x)| Literal::Ne(v, x)).collect();
                        describe_literals(model, &literals)
                    }
                    _ => unreachable!("matched above"),
                };
                let hall = hall_cells(step, reason);
                let values = |cells: &[VarId]| {
                    let mut values: Vec<i32> = cells
                        .iter()
                        .flat_map(|c| before[c.index()].iter())
                        .collect();
                    values.sort_unstable();
                    values.dedup();
                    values
                };
                let names =
                    |cells: &[VarId]| cells.iter().map(|&c| name(c)).collect::<Vec<_>>().join(" ");
                let texts = |values: &[i32]| {
                    values
                        .iter()
                        .map(i32::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                match technique {
                    Technique::HiddenSet(_) => {
                        let others: Vec<VarId> = self
                            .unit(constraint)
                            .iter()
                            .copied()
                            .filter(|c| !before[c.index()].is_fixed() && !hall.contains(c))
                            .collect();
                        let held = values(&hall);
                        let only: Vec<i32> = values(&others)
                            .into_iter()
                            .filter(|v| !held.contains(v))
                            .collect();
                        format!(
                            "{what}: {technique}: {} fit only {} in {}",
                            texts(&only),
                            names(&others),
                            unit(constraint)
                        )
                    }
                    _ => format!(
                        "{what}: {technique}: {} hold {} in {}",
                        names(&hall),
                        texts(&values(&hall)),
                        unit(constraint)
                    ),
                }
            }
            (Step::Contradiction { constraint, reason }, _) => {
                let value = reason.first().map(|l| l.value());
                let all_same = reason
                    .iter()
                    .all(|l| matches!(l, Literal::Eq(_, v) if Some(*v) == value));
                match value {
                    Some(value) if all_same && reason.len() > 1 => format!(
                        "contradiction: {} {value}s in {} ({})",
                        count_word(reason.len()),
                        unit(*constraint),
                        describe_literals(model, reason)
                    ),
                    _ => step.describe(model),
                }
            }
            _ => step.describe(model),
        }
    }
}

/// The cells a reason confines (a Hall set): those it names, but for the cell a step forces
/// (whose own lost values a reason may list).
fn hall_cells(step: &Step, reason: &[Literal]) -> Vec<VarId> {
    let forced = match step {
        Step::Forced { var, .. } => Some(*var),
        _ => None,
    };
    let mut cells: Vec<VarId> = reason
        .iter()
        .map(|l| l.var())
        .filter(|&v| Some(v) != forced)
        .collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// Whether a reason says "no other cell can take `value`": each literal is `c ≠ value` or
/// `c = w` with `w ≠ value`.
fn only_place(value: i32, reason: &[Literal]) -> bool {
    !reason.is_empty()
        && reason.iter().all(|l| match l {
            Literal::Ne(_, v) => *v == value,
            Literal::Eq(_, v) => *v != value,
            _ => false,
        })
}

fn count_word(n: usize) -> String {
    match n {
        2 => "two".to_owned(),
        3 => "three".to_owned(),
        4 => "four".to_owned(),
        n => n.to_string(),
    }
}
