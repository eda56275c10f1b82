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
use crate::models::sudoku::{Grid, Level, Sudoku};
use crate::puzzle::{Explainer, Grade, GradeError, Limits, Step, describe_literals, grade_within};
use crate::util::clock::Instant;
use crate::{ConstraintId, Domain, Limit, ModelError, Outcome, VarId};

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

    /// The technique as the rating names it, with its rating on the Sudoku Explainer scale
    /// and its level ([`HumanTechnique::se_rating`], [`HumanTechnique::level`]).
    pub fn human(self) -> HumanTechnique {
        HumanTechnique::from(self)
    }
}

impl From<Technique> for HumanTechnique {
    fn from(technique: Technique) -> Self {
        match technique {
            Technique::NakedSingle => HumanTechnique::NakedSingle,
            Technique::HiddenSingle => HumanTechnique::HiddenSingle,
            Technique::NakedSet(k) => HumanTechnique::NakedSet(k),
            Technique::HiddenSet(k) => HumanTechnique::HiddenSet(k),
            Technique::Guess => HumanTechnique::Guess,
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
        fmt::Display::fmt(&HumanTechnique::from(*self), f)
    }
}

/// Every technique the rating ([`Sudoku::rate`]) recognises, from the easiest: the
/// single-unit ones of [`Technique`] and those that look at several units at once. More may
/// come, so a `match` on it needs a wildcard arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HumanTechnique {
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
    /// Locked candidates, pointing: in a box, a value lies only in one row or column, and
    /// leaves the rest of that line.
    Pointing,
    /// Locked candidates, claiming: in a row or column, a value lies only in one box, and
    /// leaves the rest of that box.
    Claiming,
    /// A basic fish of size `k` (X-wing 2, swordfish 3, jellyfish 4): a value's places in `k`
    /// rows lie in `k` columns (or the reverse), and it leaves the rest of those columns.
    Fish(usize),
    /// XY-wing: a two-value pivot `xy` sees pincers `xz` and `yz`; `z` leaves the cells that
    /// see both pincers.
    XyWing,
    /// XYZ-wing: a pivot `xyz` sees pincers `xz` and `yz`; `z` leaves the cells that see all
    /// three.
    XyzWing,
    /// X-chain: an alternating chain of strong and weak links on one value.
    XChain,
    /// XY-chain: an alternating chain through cells with two values.
    XyChain,
    /// An alternating inference chain mixing links in cells and links in units.
    AlternatingChain,
    /// Nishio: assuming a value in a cell, that value's own placements break a unit.
    Nishio,
    /// Forcing net: assuming a candidate, singles lead to a contradiction.
    ForcingNet,
    /// Nested forcing net: assuming a candidate, the techniques up to the wings lead to a
    /// contradiction.
    NestedForcingNet,
    /// Unique rectangle (type 1), a uniqueness technique (only when asked:
    /// [`Sudoku::with_uniqueness`]): three corners of a rectangle over two boxes hold the
    /// same two values only, which leave the fourth corner, lest the puzzle have two
    /// solutions.
    UniqueRectangle,
    /// BUG+1, a uniqueness technique (only when asked: [`Sudoku::with_uniqueness`]): every
    /// open cell has two candidates but one with three, whose value is the one appearing
    /// three times in its units.
    Bug,
}

impl HumanTechnique {
    /// The order of difficulty of the single-unit techniques the reason-backed path
    /// ([`Sudoku::explain`]) takes: singles, then pairs, triples and so on (naked before
    /// hidden), then guessing. HumanTechniques beyond one unit rank after the sets and before
    /// guessing, in the order of [`HumanTechnique::se_rating`]; that rating, not this rank, is
    /// the order of difficulty of [`Sudoku::rate`].
    pub fn rank(self) -> usize {
        match self {
            HumanTechnique::NakedSingle => 0,
            HumanTechnique::HiddenSingle => 1,
            HumanTechnique::NakedSet(k) => 2 * k,
            HumanTechnique::HiddenSet(k) => 2 * k + 1,
            HumanTechnique::Guess => usize::MAX,
            other => 1_000_000 + (other.se_rating() * 10.0).round() as usize,
        }
    }

    /// The base rating of the technique on the Sudoku Explainer scale (see
    /// [`Sudoku::rate`] and the table of the chapter "Grades on the puzzle makers' scales"):
    /// a single's rating depends on where it is found (a full house 1.0, a hidden single
    /// 1.2 in a box and 1.5 in a line; this gives the lowest), and a chain's or a net's grows
    /// with its length (this gives the base). A guess is beyond the scale: 12.0.
    pub fn se_rating(self) -> f64 {
        match self {
            HumanTechnique::HiddenSingle => 1.0,
            HumanTechnique::NakedSingle => 2.3,
            HumanTechnique::Pointing => 2.6,
            HumanTechnique::Claiming => 2.8,
            HumanTechnique::NakedSet(k) => match k {
                0..=1 => 2.3,
                2 => 3.0,
                3 => 3.6,
                _ => 5.0,
            },
            HumanTechnique::HiddenSet(k) => match k {
                0..=1 => 1.2,
                2 => 3.4,
                3 => 4.0,
                _ => 5.4,
            },
            HumanTechnique::Fish(k) => match k {
                0..=2 => 3.2,
                3 => 3.8,
                _ => 5.2,
            },
            HumanTechnique::XyWing => 4.2,
            HumanTechnique::XyzWing => 4.4,
            HumanTechnique::UniqueRectangle => 4.5,
            HumanTechnique::Bug => 5.6,
            HumanTechnique::XChain => 6.5,
            HumanTechnique::XyChain => 6.6,
            HumanTechnique::AlternatingChain => 7.0,
            HumanTechnique::Nishio => 7.5,
            HumanTechnique::ForcingNet => 8.5,
            HumanTechnique::NestedForcingNet => 9.5,
            HumanTechnique::Guess => 12.0,
        }
    }

    /// The step of the technique ladder it belongs to (after HoDoKu's default levels).
    pub fn level(self) -> Level {
        match self {
            HumanTechnique::NakedSingle | HumanTechnique::HiddenSingle => Level::Easy,
            HumanTechnique::Pointing | HumanTechnique::Claiming => Level::Medium,
            HumanTechnique::NakedSet(k) | HumanTechnique::HiddenSet(k) if k <= 3 => Level::Medium,
            HumanTechnique::NakedSet(_) | HumanTechnique::HiddenSet(_) => Level::Hard,
            HumanTechnique::Fish(k) if k <= 3 => Level::Hard,
            HumanTechnique::XyWing
            | HumanTechnique::XyzWing
            | HumanTechnique::UniqueRectangle
            | HumanTechnique::Bug => Level::Hard,
            HumanTechnique::Fish(_)
            | HumanTechnique::XChain
            | HumanTechnique::XyChain
            | HumanTechnique::AlternatingChain => Level::Unfair,
            HumanTechnique::Nishio
            | HumanTechnique::ForcingNet
            | HumanTechnique::NestedForcingNet
            | HumanTechnique::Guess => Level::Extreme,
        }
    }
}

impl PartialOrd for HumanTechnique {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for HumanTechnique {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl fmt::Display for HumanTechnique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set = |k: usize| match k {
            1 => "single".to_owned(),
            2 => "pair".to_owned(),
            3 => "triple".to_owned(),
            4 => "quad".to_owned(),
            k => format!("set of {k}"),
        };
        match self {
            HumanTechnique::NakedSingle => f.write_str("naked single"),
            HumanTechnique::HiddenSingle => f.write_str("hidden single"),
            HumanTechnique::NakedSet(k) => write!(f, "naked {}", set(*k)),
            HumanTechnique::HiddenSet(k) => write!(f, "hidden {}", set(*k)),
            HumanTechnique::Guess => f.write_str("guess"),
            HumanTechnique::Pointing => f.write_str("pointing"),
            HumanTechnique::Claiming => f.write_str("claiming"),
            HumanTechnique::Fish(2) => f.write_str("X-wing"),
            HumanTechnique::Fish(3) => f.write_str("swordfish"),
            HumanTechnique::Fish(4) => f.write_str("jellyfish"),
            HumanTechnique::Fish(k) => write!(f, "fish of {k}"),
            HumanTechnique::XyWing => f.write_str("XY-wing"),
            HumanTechnique::XyzWing => f.write_str("XYZ-wing"),
            HumanTechnique::UniqueRectangle => f.write_str("unique rectangle"),
            HumanTechnique::Bug => f.write_str("BUG+1"),
            HumanTechnique::XChain => f.write_str("X-chain"),
            HumanTechnique::XyChain => f.write_str("XY-chain"),
            HumanTechnique::AlternatingChain => f.write_str("alternating inference chain"),
            HumanTechnique::Nishio => f.write_str("Nishio"),
            HumanTechnique::ForcingNet => f.write_str("forcing net"),
            HumanTechnique::NestedForcingNet => f.write_str("nested forcing net"),
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

/// When a solving path searches for a solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Search {
    /// Before the path, to guess from.
    First,
    /// After the path, if it stops where a guess is needed.
    WhenStuck,
    /// Never.
    Never,
}

/// A Sudoku's solving path, and what the search for a solution said (see
/// [`Sudoku::explain_within`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The deductions, one a line.
    pub path: Vec<Deduction>,
    /// The answer of the search for a solution, if one was made: a solution (the path guesses
    /// its values, when asked to), [`Outcome::Exhausted`] if the puzzle has none, or the limit
    /// that stopped it.
    pub search: Option<Outcome>,
    /// The time limit or the flag, if it stopped the path before its end (the path itself
    /// only propagates, but a long one takes time).
    pub cut: Option<Limit>,
}

impl Explanation {
    /// Whether the puzzle is known to have no solution: the path ends with a contradiction, or
    /// the search found none.
    pub fn no_solution(&self) -> bool {
        matches!(self.search, Some(Outcome::Exhausted))
            || self
                .path
                .last()
                .is_some_and(|d| matches!(d.step, Step::Contradiction { .. }))
    }

    /// The limit that stopped the path before its end, or the search when the path stops
    /// where a guess is needed and the search could not say whether the puzzle has a solution.
    pub fn stopped_by(&self) -> Option<Limit> {
        match self.search {
            _ if self.cut.is_some() => self.cut,
            Some(Outcome::LimitReached(limit)) if !self.no_solution() => Some(limit),
            _ => None,
        }
    }
}

/// A Sudoku's grade: the library's, and the hardest technique of its solving path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SudokuGrade {
    /// The weakest propagation that solves it, or the decisions of a search.
    pub grade: Grade,
    /// The hardest technique of the path [`Sudoku::explain`] takes (`None` when every cell is
    /// given).
    pub hardest: Option<Technique>,
    /// How many times the path guesses.
    pub guesses: usize,
    /// How many times the path uses each technique, the easiest first.
    pub techniques: Vec<(Technique, usize)>,
    /// Whether the puzzle has another solution: `Some(true)` if so (a proper puzzle has one),
    /// `None` if [`Sudoku::grade`] or [`Sudoku::grade_within`] could not tell within its
    /// limits, `Some(false)` when the solution is unique.
    pub several_solutions: Option<bool>,
}

impl Sudoku {
    /// A solving path of `puzzle`, one deduction a line, on the model of the empty grid of its
    /// size (build it with [`Grid::empty`]): the givens are clues, so that reasons can cite
    /// them. When no technique applies, the path guesses the value of the puzzle's (smallest)
    /// solution if `guesses`, and stops otherwise; it ends with `solved`, with a
    /// contradiction for a puzzle without solution, or where it stopped. The search for that
    /// solution has no limit, and a path that stops where a guess is needed does not say
    /// whether the puzzle has a solution: [`Sudoku::explain_within`] has limits and says.
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
        let search = if guesses {
            Search::First
        } else {
            Search::Never
        };
        Ok(self.walk(puzzle, search, &Limits::new())?.path)
    }

    /// A solving path of `puzzle`, as [`Sudoku::explain`], with a search for a solution within
    /// `limits` that tells what the end of the path means. The search runs before the path
    /// when `guesses` (the path guesses the values of the solution it finds), and otherwise
    /// only when the path stops where a guess is needed. When it finds no solution, or a limit
    /// stops it, the last line says so instead of "a guess is needed":
    ///
    /// ```text
    /// no deduction left, and a search finds no solution: the puzzle has none
    /// no deduction left, and the search for a solution stopped: time limit reached
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Sudoku::explain`].
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::sudoku::{Grid, Sudoku};
    /// use cspkit::puzzle::Limits;
    ///
    /// let empty = Sudoku::new(&Grid::empty(3).unwrap())?;
    /// // No solution, but no chain of single-unit deductions shows it.
    /// let puzzle = Grid::parse(
    ///     "301800000000009400080005000000100600100004830090502000400007050709040006002000907",
    ///     None,
    /// )?;
    /// let explained = empty.explain_within(&puzzle, true, &Limits::new())?;
    /// assert!(explained.no_solution());
    /// assert_eq!(
    ///     explained.path.last().unwrap().text,
    ///     "no deduction left, and a search finds no solution: the puzzle has none"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn explain_within(
        &self,
        puzzle: &Grid,
        guesses: bool,
        limits: &Limits,
    ) -> Result<Explanation, ModelError> {
        let search = if guesses {
            Search::First
        } else {
            Search::WhenStuck
        };
        self.walk(puzzle, search, limits)
    }

    /// The solving path, with a search for a solution as `search` says.
    fn walk(
        &self,
        puzzle: &Grid,
        search: Search,
        limits: &Limits,
    ) -> Result<Explanation, ModelError> {
        let clues = self.clues_of(puzzle)?;
        let started = Instant::now();
        let solve = || -> Result<Outcome, ModelError> {
            let limits = limits.after(started.elapsed());
            let mut solver = limits.apply_to(self.model().solver());
            solver.restart_with(clues.iter().copied())?;
            Ok(solver.next_solution())
        };
        // The simplest technique first, as a person solves.
        let mut explainer = Explainer::new(self.model())
            .with_fixed(&clues)?
            .with_cost(|step, before| self.technique(step, before).map_or(0, Technique::rank));
        let mut outcome = None;
        if search == Search::First {
            let found = solve()?;
            if let Outcome::Solved(solution) = &found {
                explainer = explainer.with_guesses_from(solution.values());
            }
            outcome = Some(found);
        }
        let mut path = Vec::new();
        let clock = limits.start();
        let mut cut = None;
        while let Some(step) = explainer.next_step() {
            let before = explainer.previous_domains();
            let technique = self.technique(&step, before);
            let text = self.describe_step(&step, technique, before);
            let last = step.is_last();
            path.push(Deduction {
                step,
                technique,
                text,
            });
            if !last && let Some(limit) = clock.stopped() {
                cut = Some(limit);
                break;
            }
        }
        if let Some(last) = path.last_mut()
            && matches!(last.step, Step::Stuck)
            && search != Search::Never
        {
            if outcome.is_none() {
                outcome = Some(solve()?);
            }
            match &outcome {
                Some(Outcome::Exhausted) => {
                    last.text =
                        "no deduction left, and a search finds no solution: the puzzle has none"
                            .to_owned();
                }
                Some(Outcome::LimitReached(limit)) => {
                    last.text = format!(
                        "no deduction left, and the search for a solution stopped: {limit}"
                    );
                }
                _ => {}
            }
        }
        Ok(Explanation {
            path,
            search: outcome,
            cut,
        })
    }

    /// The grade of `puzzle` (see [`Sudoku::explain`] for the model to call it on): the
    /// library's [`grade`](crate::puzzle::grade), with the hardest technique of the solving
    /// path, and whether the puzzle has another solution. Searches stop at `decision_limit`
    /// decisions; see [`Sudoku::grade_within`] for a time limit.
    ///
    /// # Errors
    ///
    /// As [`grade`](crate::puzzle::grade): no solution, the limit reached, or a puzzle of
    /// another size.
    pub fn grade(&self, puzzle: &Grid, decision_limit: u64) -> Result<SudokuGrade, GradeError> {
        let limits = Limits::new().with_decision_limit(decision_limit);
        self.grade_with(puzzle, &limits, true)
    }

    /// The grade of `puzzle`, as [`Sudoku::grade`], within `limits` (the decision limit bounds
    /// each search, the time limit and the flag the whole call), and whether the puzzle has
    /// another solution ([`SudokuGrade::several_solutions`]).
    ///
    /// # Errors
    ///
    /// As [`grade_within`]: no solution, the limit that stopped a search, or a puzzle of
    /// another size.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::sudoku::{Grid, Sudoku};
    /// use cspkit::puzzle::Limits;
    ///
    /// let empty = Sudoku::new(&Grid::empty(2).unwrap())?;
    /// let puzzle = Grid::parse("1..4..1..1..4...", None)?;
    /// let graded = empty.grade_within(&puzzle, &Limits::new().with_decision_limit(1000))?;
    /// assert_eq!(graded.several_solutions, Some(true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn grade_within(&self, puzzle: &Grid, limits: &Limits) -> Result<SudokuGrade, GradeError> {
        self.grade_with(puzzle, limits, true)
    }

    fn grade_with(
        &self,
        puzzle: &Grid,
        limits: &Limits,
        count: bool,
    ) -> Result<SudokuGrade, GradeError> {
        let started = Instant::now();
        let clues = self.clues_of(puzzle)?;
        let grade = grade_within(self.model(), &clues, limits)?;
        let explained = self.walk(puzzle, Search::First, &limits.after(started.elapsed()))?;
        if let Some(limit) = explained.cut {
            return Err(GradeError::LimitReached(limit));
        }
        if let Some(Outcome::LimitReached(limit)) = explained.search {
            return Err(GradeError::LimitReached(limit));
        }
        let several_solutions = if count && grade.difficulty == crate::puzzle::Difficulty::Search {
            // Propagation that fixes every cell leaves no room for a second solution.
            let left = limits.after(started.elapsed());
            let mut solver = left.apply_to(
                self.model()
                    .solver()
                    .with_variable_order(crate::SmallestDomain),
            );
            solver.restart_with(clues.iter().copied())?;
            let counted = solver.count_up_to(2);
            match counted.stopped_by {
                Some(crate::Limit::Solutions) => Some(true),
                None => Some(counted.solutions > 1),
                Some(_) => None,
            }
        } else {
            Some(false)
        };
        let path = explained.path;
        let mut techniques: Vec<(Technique, usize)> = Vec::new();
        for technique in path.iter().filter_map(|d| d.technique) {
            match techniques.iter_mut().find(|(t, _)| *t == technique) {
                Some((_, n)) => *n += 1,
                None => techniques.push((technique, 1)),
            }
        }
        techniques.sort();
        Ok(SudokuGrade {
            grade,
            hardest: path.iter().filter_map(|d| d.technique).max(),
            guesses: path
                .iter()
                .filter(|d| d.technique == Some(Technique::Guess))
                .count(),
            techniques,
            several_solutions,
        })
    }

    /// The lines `cspkit sudoku --why` prints for `conflict`, a set of `clues` without a
    /// solution as [`minimal_conflict_within`](crate::puzzle::minimal_conflict_within) finds
    /// it on this Sudoku's model (of the empty grid) with the givens of a puzzle
    /// ([`Sudoku::givens`]): the givens that clash, by name, then the deductions that show it
    /// (one line when one deduction does), and a last line when only the search proves it.
    /// The first line says when the set is not proved minimal.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::sudoku::{Grid, Sudoku};
    /// use cspkit::puzzle::{Limits, minimal_conflict_within};
    ///
    /// let empty = Sudoku::new(&Grid::empty(2).unwrap())?;
    /// let puzzle = Grid::parse("11..............", None)?;
    /// let clues: Vec<_> = empty.givens(&puzzle).collect();
    /// let conflict = minimal_conflict_within(empty.model(), &clues, &Limits::new())?;
    /// let lines = empty.conflict_lines(&clues, &conflict);
    /// assert!(lines[0].starts_with("givens r1c1=1, r1c2=1: "), "{lines:?}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn conflict_lines(
        &self,
        clues: &[(VarId, i32)],
        conflict: &crate::puzzle::MinimalConflict,
    ) -> Vec<String> {
        let chosen: Vec<(VarId, i32)> = conflict
            .assumptions
            .iter()
            .filter_map(|&i| clues.get(i).copied())
            .collect();
        let names: Vec<String> = chosen
            .iter()
            .map(|&(var, value)| format!("{}={value}", self.model.var_name(var)))
            .collect();
        let path = self
            .explain(&self.grid_of_clues(&chosen), false)
            .unwrap_or_default();
        let minimal = match conflict.stopped_by {
            Some(_) => " (not shrunk to the end: a limit stopped the search)",
            None if !conflict.minimal => {
                " (not proved minimal: a check reached the decision limit)"
            }
            None => "",
        };
        let givens = format!("givens {}{minimal}", names.join(", "));
        if let [only] = path.as_slice() {
            let text = only
                .text
                .strip_prefix("contradiction: ")
                .unwrap_or(&only.text);
            return vec![format!("{givens}: {text}")];
        }
        let mut lines = vec![format!("{givens} have no solution:")];
        lines.extend(path.iter().map(|deduction| format!("  {}", deduction.text)));
        if path.last().is_some_and(|d| matches!(d.step, Step::Stuck)) {
            lines.push(
                "  (the search proves it: no chain of single-unit deductions does)".to_owned(),
            );
        }
        lines
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
