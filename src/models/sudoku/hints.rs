//! Hints and explanations from a player's state ([`Sudoku::hint_from`],
//! [`Sudoku::explain_from`]): the player's entries and pencil marks are checked against the
//! givens, then the human techniques of [`rating`](super::rating) continue from the marks.

use super::board::Board;
use super::rating::{easiest_step, guess};
use super::{RatedStep, Sudoku, SudokuState};
use crate::puzzle::{ConflictGoal, ConflictOptions, GradeError, Limits, MinimalConflict};
use crate::puzzle::{Optimality, WhyError, smallest_conflict};
use crate::util::clock::Instant;
use crate::{Limit, Outcome, Solution, VarId};

/// The time the search for the fewest givens that clash with a wrong entry may take, unless
/// the limits say less.
const CLASH_SEARCH: std::time::Duration = std::time::Duration::from_secs(2);

/// Cells with values: givens, entries.
type Clues = Vec<(VarId, i32)>;

/// A mistake in a player's state: an entry or pencil marks that no solution agrees with.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mistake {
    /// An entry that no solution of the givens has.
    WrongEntry {
        /// The cell.
        cell: VarId,
        /// The value entered.
        value: i32,
        /// The fewest givens that clash with it (the smallest set found).
        clash: Vec<(VarId, i32)>,
        /// The deductions from those givens and the entry to a contradiction, one a line,
        /// when one line does not say it (empty otherwise).
        proof: Vec<String>,
        /// `r2c5 = 7 contradicts the givens: two 7s in row 2 (r2c1 = 7, r2c5 = 7)`, or, when
        /// it takes a chain, the givens that clash with the entry and the chain's length.
        text: String,
    },
    /// Entries that each agree with a solution of the givens (the puzzle has several), but
    /// not all together.
    EntriesClash {
        /// The entries of the smallest clash found (with the givens in it, if any).
        entries: Vec<(VarId, i32)>,
        /// `the entries r1c1 = 3, r5c5 = 4 contradict the givens together: …`.
        text: String,
    },
    /// Pencil marks that lost the cell's value: with the givens and entries, no solution is
    /// left once the marks are taken as written.
    LostValue {
        /// The cell.
        cell: VarId,
        /// Its pencil marks, as written.
        marks: Vec<i32>,
        /// The cell's value in the solution (of the givens and entries) the marks lost.
        value: i32,
        /// `r4c6: the pencil marks 1 3 lost the cell's value in the solution`.
        text: String,
    },
}

impl Mistake {
    /// The mistake in words.
    pub fn text(&self) -> &str {
        match self {
            Mistake::WrongEntry { text, .. }
            | Mistake::EntriesClash { text, .. }
            | Mistake::LostValue { text, .. } => text,
        }
    }
}

/// The steps from a player's state: the mistakes found in it, or the deductions that continue
/// from it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct StateSteps {
    /// The mistakes of the state: wrong entries first (then no marks are checked), else
    /// marks that lost a value. No steps are taken from a state with mistakes.
    pub mistakes: Vec<Mistake>,
    /// The deductions, by the human techniques of [`Sudoku::rate`], the easiest first at
    /// each step (a guess of the solution's value when none applies).
    pub steps: Vec<RatedStep>,
    /// Whether the givens have another solution: `Some(true)` if so, `None` if a limit
    /// stopped the count.
    pub several_solutions: Option<bool>,
    /// The limit that stopped the steps before the grid was complete, if any.
    pub stopped_by: Option<Limit>,
}

impl Sudoku {
    /// The next step from a player's state (on the model of the empty grid of its size, as
    /// [`Sudoku::rate`]): the easiest deduction of the human techniques on the player's
    /// pencil marks, or the mistakes of the state. See [`Sudoku::explain_from`].
    ///
    /// # Errors
    ///
    /// As [`Sudoku::explain_from`].
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::sudoku::{Grid, Sudoku, SudokuState};
    /// use cspkit::puzzle::Limits;
    ///
    /// let empty = Sudoku::new(&Grid::empty(2).unwrap())?;
    /// let state = SudokuState::parse("12.4 34.. 2143 432.")?;
    /// let hint = empty.hint_from(&state, &Limits::new())?;
    /// assert_eq!(hint.steps[0].text, "r1c3 = 3: full house: the last open cell of row 1");
    ///
    /// // A wrong entry is named, with the givens it clashes with.
    /// let wrong = SudokuState::parse("12+4. 34.. 2143 432.")?;
    /// let hint = empty.hint_from(&wrong, &Limits::new())?;
    /// assert!(hint.mistakes[0].text().starts_with("r1c3 = 4 contradicts the givens"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn hint_from(
        &self,
        state: &SudokuState,
        limits: &Limits,
    ) -> Result<StateSteps, GradeError> {
        self.steps_from(state, limits, 1)
    }

    /// The steps from a player's state to the end: the entries are checked against the
    /// givens (an entry no solution has is a [`Mistake::WrongEntry`], with the fewest givens
    /// that clash with it), then the pencil marks (marks that exclude every solution are a
    /// [`Mistake::LostValue`] for each cell whose marks lost its value), then the human
    /// techniques of [`Sudoku::rate`] continue from the marks, the easiest deduction first,
    /// until the grid is complete. A state with mistakes gets no steps.
    ///
    /// Limits: the decision limit bounds each search for solutions, the time limit and the
    /// flag the whole call; a limit that stops the steps leaves those taken, with
    /// [`StateSteps::stopped_by`].
    ///
    /// # Errors
    ///
    /// [`GradeError::NoSolution`] if the givens have no solution, [`GradeError::LimitReached`]
    /// if a limit stops the search for one, [`GradeError::Model`] for a state of another size
    /// or a model with givens.
    pub fn explain_from(
        &self,
        state: &SudokuState,
        limits: &Limits,
    ) -> Result<StateSteps, GradeError> {
        self.steps_from(state, limits, usize::MAX)
    }

    fn steps_from(
        &self,
        state: &SudokuState,
        limits: &Limits,
        max_steps: usize,
    ) -> Result<StateSteps, GradeError> {
        let started = Instant::now();
        let givens = self.clues_of(&state.givens())?;
        let filled: Vec<(VarId, i32)> = self.givens(&state.filled()).collect();
        let entries: Vec<(VarId, i32)> = filled
            .iter()
            .copied()
            .filter(|p| !givens.contains(p))
            .collect();
        let mut solver = self.limited_solver(limits);
        solver.restart_with(givens.iter().copied())?;
        let first = solve(&mut solver)?.ok_or(GradeError::NoSolution)?;
        let several_solutions = match solver.next_solution() {
            Outcome::Solved(_) => Some(true),
            Outcome::Exhausted => Some(false),
            Outcome::LimitReached(_) => None,
        };
        // Uniqueness deductions only when the givens are proved to have one solution.
        let uniqueness = self.uniqueness && several_solutions == Some(false);
        let mut result = StateSteps {
            mistakes: Vec::new(),
            steps: Vec::new(),
            several_solutions,
            stopped_by: None,
        };
        // The entries, against the givens.
        let with_entries = if entries.is_empty() {
            Some(first.clone())
        } else {
            solver.restart_with(filled.iter().copied())?;
            solve(&mut solver)?
        };
        let Some(solution) = with_entries else {
            result.mistakes = self.entry_mistakes(&givens, &entries, limits)?;
            return Ok(result);
        };
        // The marks, against the solution.
        let (value, cand) = state.candidates();
        let lost: Vec<usize> = (0..value.len())
            .filter(|&c| value[c] == 0 && cand[c] & (1 << (solution[self.cells[c]] - 1)) == 0)
            .collect();
        let mut answer: Vec<u8> = self.cells.iter().map(|&v| solution[v] as u8).collect();
        if !lost.is_empty() {
            match self.answer_within_marks(state, &cand, limits)? {
                Some(other) => answer = other,
                None => {
                    result.mistakes = lost
                        .iter()
                        .map(|&c| {
                            let n = state.side();
                            let marks: Vec<i32> = state
                                .marks(c / n, c % n)
                                .unwrap_or_default()
                                .into_iter()
                                .map(i32::from)
                                .collect();
                            let words: Vec<String> = marks.iter().map(i32::to_string).collect();
                            let text = format!(
                                "{}: the pencil marks {} lost the cell's value in the solution",
                                self.model.var_name(self.cells[c]),
                                words.join(" ")
                            );
                            Mistake::LostValue {
                                cell: self.cells[c],
                                marks,
                                value: solution[self.cells[c]],
                                text,
                            }
                        })
                        .collect();
                    return Ok(result);
                }
            }
        }
        // The steps, from the marks.
        let Some(mut board) = Board::new(&state.filled()) else {
            return Err(GradeError::NoSolution);
        };
        board.cand = cand;
        let remaining = limits.after(started.elapsed());
        let clock = remaining.start();
        while !board.is_solved() && result.steps.len() < max_steps {
            if let Some(limit) = clock.stopped() {
                result.stopped_by = Some(limit);
                break;
            }
            let found =
                easiest_step(&board, &answer, uniqueness).unwrap_or_else(|| guess(&board, &answer));
            result.steps.push(self.rated_step(&board, &found));
            board.apply(&found);
            if board.is_broken() {
                // Sound deductions on marks that keep a solution cannot break the board.
                result.stopped_by = Some(Limit::Cancelled);
                break;
            }
        }
        Ok(result)
    }

    /// A solver of this model within the decision and time limits and the flag of `limits`.
    fn limited_solver(&self, limits: &Limits) -> crate::Solver<'_, crate::SmallestDomain> {
        limits.apply_to(
            self.model()
                .solver()
                .with_variable_order(crate::SmallestDomain),
        )
    }

    /// The mistakes of entries that, all together, leave the givens no solution: each entry
    /// no solution has, with the fewest givens that clash with it; or, when each alone agrees
    /// with a solution, the smallest clash of entries.
    fn entry_mistakes(
        &self,
        givens: &[(VarId, i32)],
        entries: &[(VarId, i32)],
        limits: &Limits,
    ) -> Result<Vec<Mistake>, GradeError> {
        let mut solver = self.limited_solver(limits);
        let mut mistakes = Vec::new();
        for &entry in entries {
            solver.restart_with(givens.iter().copied().chain([entry]))?;
            if solve(&mut solver)?.is_some() {
                continue;
            }
            let mut clues = givens.to_vec();
            clues.push(entry);
            let (chosen, lines) = self.clash(&clues, limits)?;
            let clash: Vec<(VarId, i32)> = chosen.into_iter().filter(|&p| p != entry).collect();
            let (detail, proof) = self.clash_words(&clash, lines);
            let text = format!(
                "{} = {} contradicts the givens: {detail}",
                self.model.var_name(entry.0),
                entry.1
            );
            mistakes.push(Mistake::WrongEntry {
                cell: entry.0,
                value: entry.1,
                clash,
                proof,
                text,
            });
        }
        if mistakes.is_empty() {
            let mut clues = givens.to_vec();
            clues.extend_from_slice(entries);
            let (chosen, lines) = self.clash(&clues, limits)?;
            let entries: Vec<(VarId, i32)> = chosen
                .iter()
                .copied()
                .filter(|p| !givens.contains(p))
                .collect();
            let clashing_givens: Vec<(VarId, i32)> =
                chosen.into_iter().filter(|p| givens.contains(p)).collect();
            let (detail, _) = self.clash_words(&clashing_givens, lines);
            let names: Vec<String> = entries
                .iter()
                .map(|&(var, v)| format!("{} = {v}", self.model.var_name(var)))
                .collect();
            mistakes.push(Mistake::EntriesClash {
                text: format!(
                    "the entries {} contradict the givens together: {detail}",
                    names.join(", ")
                ),
                entries,
            });
        }
        Ok(mistakes)
    }

    /// `two 7s in row 2 (r2c1 = 7, r2c5 = 7)` when one line of `--why` says why a clash has
    /// no solution; otherwise `with the 3 givens r1c1 = 4, …, it leaves no solution (a chain
    /// of 12 deductions)` and the chain's lines.
    fn clash_words(&self, givens: &[(VarId, i32)], lines: Vec<String>) -> (String, Vec<String>) {
        if let [only] = lines.as_slice()
            && let Some((_, why)) = only.split_once(": ")
        {
            return (why.to_owned(), Vec::new());
        }
        let names: Vec<String> = givens
            .iter()
            .map(|&(var, v)| format!("{} = {v}", self.model.var_name(var)))
            .collect();
        let proof: Vec<String> = lines
            .into_iter()
            .skip(1)
            .map(|line| line.trim().to_owned())
            .collect();
        let with = match names.len() {
            0 => "alone".to_owned(),
            1 => format!("with the given {}", names[0]),
            k => format!("with the {k} givens {}", names.join(", ")),
        };
        (
            format!(
                "{with}, it leaves no solution (a chain of {} deductions)",
                proof.len()
            ),
            proof,
        )
    }

    /// The smallest set of `clues` without a solution that the search finds within its time,
    /// and the lines of `--why` that say why it has none.
    fn clash(
        &self,
        clues: &[(VarId, i32)],
        limits: &Limits,
    ) -> Result<(Clues, Vec<String>), GradeError> {
        let options = ConflictOptions::new(ConflictGoal::Minimum)
            .with_limits(limits.clone())
            .with_search_time(
                limits
                    .time_limit()
                    .map_or(CLASH_SEARCH, |t| t.min(CLASH_SEARCH)),
            );
        let found = match smallest_conflict(self.model(), clues, &options) {
            Ok(found) => found,
            Err(WhyError::LimitReached(limit)) => return Err(GradeError::LimitReached(limit)),
            Err(WhyError::Model(error)) => return Err(GradeError::Model(error)),
            Err(_) => return Err(GradeError::LimitReached(Limit::Cancelled)),
        };
        let conflict = MinimalConflict {
            assumptions: found.assumptions.clone(),
            minimal: found.optimality != Optimality::Unproved,
            stopped_by: None,
        };
        let chosen: Vec<(VarId, i32)> = found.assumptions.iter().map(|&i| clues[i]).collect();
        Ok((chosen, self.conflict_lines(clues, &conflict)))
    }

    /// A solution of the givens and entries of `state` within the candidates `cand`, if any:
    /// the value of each cell.
    fn answer_within_marks(
        &self,
        state: &SudokuState,
        cand: &[u64],
        limits: &Limits,
    ) -> Result<Option<Vec<u8>>, GradeError> {
        let mut marked = Sudoku::new(&state.filled())?;
        let n = state.side() as u8;
        let filled = state.filled();
        for (c, &mask) in cand.iter().enumerate() {
            if filled.cells()[c] != 0 {
                continue;
            }
            for v in (1..=n).filter(|&v| mask & (1 << (v - 1)) == 0) {
                let var = marked.cells[c];
                if marked.model_mut().remove(var, i32::from(v)).is_err() {
                    return Ok(None);
                }
            }
        }
        let mut solver = marked.limited_solver(limits);
        Ok(solve(&mut solver)?
            .map(|solution| marked.cells.iter().map(|&v| solution[v] as u8).collect()))
    }
}

/// The next solution of `solver`: `None` if there is none, an error at a limit.
fn solve(
    solver: &mut crate::Solver<'_, crate::SmallestDomain>,
) -> Result<Option<Solution>, GradeError> {
    match solver.next_solution() {
        Outcome::Solved(solution) => Ok(Some(solution)),
        Outcome::Exhausted => Ok(None),
        Outcome::LimitReached(limit) => Err(GradeError::LimitReached(limit)),
    }
}
