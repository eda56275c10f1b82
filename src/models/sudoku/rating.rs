//! [`Sudoku::rate`]: a solving path by human techniques, the easiest available at each step,
//! rated on the Sudoku Explainer (SE) scale and placed on a technique ladder after HoDoKu's.
//!
//! The path works on pencil marks (the candidates each open cell has left once the placed
//! values leave their peers), finds every technique below on them, and at each step applies
//! the deduction of lowest rating: singles, locked candidates, naked and hidden sets of one
//! unit, fish, wings, chains, then contradictions of growing depth, and a guess of the
//! solution's value when nothing applies. The puzzle's rating is that of its hardest step,
//! as in Sudoku Explainer: the rating of the hardest step needed when the easiest is always
//! taken. The table of ratings is in the chapter "Grades on the puzzle makers' scales" of the
//! documentation, with its source.
//!
//! Costs: a step tries the techniques in order and stops at the first that applies, so an
//! easy puzzle costs microseconds a step; chains search from every candidate (breadth first,
//! the shortest chain from each start) and contradictions assume every candidate in turn, so
//! the hardest 9x9 puzzles take milliseconds to a second.

use std::fmt;

use super::basic::basic_step;
use super::board::{Board, Found};
use super::chains::chain;
use super::forcing::{Depth, contradiction};
use super::uniqueness::{bug_plus_one, unique_rectangle};
use super::{Grid, HumanTechnique, Sudoku};
use crate::puzzle::{GradeError, Limits};
use crate::util::clock::Instant;
use crate::{Limit, VarId};

/// The steps of a technique ladder, from the easiest, after HoDoKu's default levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Level {
    /// Singles only.
    Easy,
    /// Locked candidates, naked and hidden pairs and triples.
    Medium,
    /// Naked and hidden quads, X-wing, swordfish, XY-wing, XYZ-wing.
    Hard,
    /// Jellyfish, X-chains, XY-chains, alternating inference chains.
    Unfair,
    /// Contradictions (Nishio, forcing nets) or a guess.
    Extreme,
}

impl Level {
    /// The name: `easy`, `medium`, `hard`, `unfair`, `extreme`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Unfair => "unfair",
            Level::Extreme => "extreme",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One step of a rated solving path.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RatedStep {
    /// The technique.
    pub technique: HumanTechnique,
    /// The step's rating on the Sudoku Explainer scale (tenths).
    pub rating: f64,
    /// The values it places, as `(cell variable, value)`.
    pub placed: Vec<(VarId, i32)>,
    /// The candidates it removes.
    pub removed: Vec<(VarId, i32)>,
    /// The candidates that make the pattern: a single's cell, the cells of a set or a fish,
    /// a wing's pivot and pincers, a chain's candidates in the chain's order (starting with
    /// a strong link), or the candidate a contradiction assumes.
    pub pattern: Vec<(VarId, i32)>,
    /// The step in Sudoku's words: `r1c5 ≠ 7: X-wing: in row 2, row 8, 7 lies only in
    /// column 5, column 9`.
    pub text: String,
}

/// A puzzle's rating: its solving path by human techniques and where it sits on the SE
/// scale and the ladder.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Rating {
    /// The rating of the hardest step, on the Sudoku Explainer scale (1.0 to 11.9; 12.0 when
    /// a step has to guess; 0.0 when every cell is given).
    pub rating: f64,
    /// The ladder step of the hardest technique (by rating).
    pub level: Level,
    /// The hardest technique (by rating), `None` when every cell is given.
    pub hardest: Option<HumanTechnique>,
    /// The path, one step each.
    pub steps: Vec<RatedStep>,
    /// Whether the puzzle has another solution: `Some(true)` if so (a proper puzzle has one;
    /// the path's guesses, if any, follow one solution), `None` if a limit stopped the count.
    pub several_solutions: Option<bool>,
}

impl Rating {
    /// How many steps use each technique, the easiest (by rating) first.
    pub fn technique_counts(&self) -> Vec<(HumanTechnique, usize)> {
        let mut counts: Vec<(HumanTechnique, usize)> = Vec::new();
        for step in &self.steps {
            match counts.iter_mut().find(|(t, _)| *t == step.technique) {
                Some((_, n)) => *n += 1,
                None => counts.push((step.technique, 1)),
            }
        }
        counts.sort_by(|a, b| a.0.se_rating().total_cmp(&b.0.se_rating()));
        counts
    }
}

/// The easiest deduction of every technique here, without guessing. `answer` is a solution
/// the board's candidates keep (it spares the forcing nets the assumptions that cannot fail;
/// the deduction found is the same without it).
///
/// With `uniqueness` (on a puzzle proved to have one solution), a unique rectangle or BUG+1
/// comes in where its rating puts it among the techniques up to the quads.
pub(crate) fn easiest_step(board: &Board, answer: &[u8], uniqueness: bool) -> Option<Found> {
    let mut basic = basic_step(board);
    if uniqueness {
        for (rating, technique) in [
            (
                HumanTechnique::UniqueRectangle.se_rating(),
                unique_rectangle as fn(&Board) -> Option<Found>,
            ),
            (HumanTechnique::Bug.se_rating(), bug_plus_one),
        ] {
            if basic.as_ref().is_none_or(|b| b.rating > rating)
                && let Some(found) = technique(board)
            {
                basic = Some(found);
            }
        }
    }
    basic
        .or_else(|| chain(board))
        .or_else(|| contradiction(board, Depth::Nishio, answer))
        .or_else(|| contradiction(board, Depth::Singles, answer))
        .or_else(|| contradiction(board, Depth::Nested, answer))
}

impl Sudoku {
    /// The rating of `puzzle` (on the model of the empty grid of its size, as
    /// [`Sudoku::explain`]): its solving path by human techniques, the easiest available at
    /// each step, and the rating of the hardest on the Sudoku Explainer scale; see
    /// [`Sudoku::rate_within`] for limits.
    ///
    /// # Errors
    ///
    /// As [`Sudoku::rate_within`].
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::sudoku::{Grid, Level, Sudoku};
    ///
    /// let empty = Sudoku::new(&Grid::empty(2).unwrap())?;
    /// let puzzle = Grid::parse("12.434..2143432.", None)?;
    /// let rating = empty.rate(&puzzle)?;
    /// assert_eq!(rating.level, Level::Easy);
    /// assert_eq!(rating.steps[0].text, "r1c3 = 3: full house: the last open cell of row 1");
    /// assert_eq!(rating.several_solutions, Some(false));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rate(&self, puzzle: &Grid) -> Result<Rating, GradeError> {
        self.rate_within(puzzle, &Limits::new())
    }

    /// The rating of `puzzle`, as [`Sudoku::rate`], within `limits`: the decision limit
    /// bounds the search that counts the solutions (up to two), the time limit and the flag
    /// the whole call. A puzzle with several solutions is rated all the same (its path
    /// guesses the values of one when the techniques stop) and flagged
    /// ([`Rating::several_solutions`]).
    ///
    /// # Errors
    ///
    /// [`GradeError::NoSolution`] if the puzzle has none, [`GradeError::LimitReached`] if a
    /// limit stops the search for a solution or the path, [`GradeError::Model`] for a puzzle
    /// of another size or a model with givens.
    pub fn rate_within(&self, puzzle: &Grid, limits: &Limits) -> Result<Rating, GradeError> {
        let started = Instant::now();
        let clues = self.clues_of(puzzle)?;
        let mut solver = limits.apply_to(
            self.model()
                .solver()
                .with_variable_order(crate::SmallestDomain),
        );
        solver.restart_with(clues.iter().copied())?;
        let solution = match solver.next_solution() {
            crate::Outcome::Solved(solution) => solution,
            crate::Outcome::Exhausted => return Err(GradeError::NoSolution),
            crate::Outcome::LimitReached(limit) => return Err(GradeError::LimitReached(limit)),
        };
        let several_solutions = match solver.next_solution() {
            crate::Outcome::Solved(_) => Some(true),
            crate::Outcome::Exhausted => Some(false),
            crate::Outcome::LimitReached(_) => None,
        };
        // Uniqueness deductions only on a puzzle proved to have one solution.
        let uniqueness = self.uniqueness && several_solutions == Some(false);
        let answer: Vec<u8> = self
            .cells
            .iter()
            .map(|&c| {
                solution
                    .get(c)
                    .and_then(|v| u8::try_from(v).ok())
                    .unwrap_or(0)
            })
            .collect();
        let Some(mut board) = Board::new(puzzle) else {
            return Err(GradeError::NoSolution);
        };
        let remaining = limits.after(started.elapsed());
        let clock = remaining.start();
        let mut steps = Vec::new();
        while !board.is_solved() {
            if let Some(limit) = clock.stopped() {
                return Err(GradeError::LimitReached(limit));
            }
            let found =
                easiest_step(&board, &answer, uniqueness).unwrap_or_else(|| guess(&board, &answer));
            steps.push(self.rated_step(&board, &found));
            board.apply(&found);
            if board.is_broken() {
                // Every deduction is sound, so this cannot happen on a puzzle with a
                // solution; stop rather than loop.
                return Err(GradeError::LimitReached(Limit::Cancelled));
            }
        }
        let hardest = steps
            .iter()
            .max_by(|a, b| a.rating.total_cmp(&b.rating))
            .map(|s| (s.rating, s.technique));
        Ok(Rating {
            rating: hardest.map_or(0.0, |h| h.0),
            level: hardest.map_or(Level::Easy, |h| h.1.level()),
            hardest: hardest.map(|h| h.1),
            steps,
            several_solutions,
        })
    }

    /// A deduction on `board` as a step of the path, in the model's variables and words.
    pub(crate) fn rated_step(&self, board: &Board, found: &Found) -> RatedStep {
        let pairs = |list: &[(usize, u8)]| -> Vec<(VarId, i32)> {
            list.iter()
                .map(|&(c, v)| (self.cells[c], i32::from(v)))
                .collect()
        };
        RatedStep {
            technique: found.technique,
            rating: (found.rating * 10.0).round() / 10.0,
            placed: pairs(&found.placed),
            removed: pairs(&found.removed),
            pattern: pairs(&found.pattern),
            text: format!("{}: {}", board.effect_text(found), found.why),
        }
    }
}

/// A guess: the solution's value in the open cell with the fewest candidates.
pub(crate) fn guess(board: &Board, answer: &[u8]) -> Found {
    let n = board.geo.n;
    let cell = (0..n * n)
        .filter(|&c| board.value[c] == 0)
        .min_by_key(|&c| board.cand[c].count_ones())
        .expect("an open cell");
    let v = answer[cell];
    Found {
        technique: HumanTechnique::Guess,
        rating: HumanTechnique::Guess.se_rating(),
        placed: vec![(cell, v)],
        removed: Vec::new(),
        pattern: vec![(cell, v)],
        why: "no technique applies: guess (the value of the solution)".to_owned(),
    }
}
