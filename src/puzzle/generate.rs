//! [`Generator`]: puzzles with exactly one solution, for any model and its clue variables.

use std::ops::RangeInclusive;
use std::sync::Arc;
use std::time::Duration;

use crate::Solution;
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::PropagationLevel;
use crate::model::Model;
use crate::puzzle::grade::{
    Difficulty, Grade, GradeError, fixed_domains, grade_within, propagate_rounds,
};
use crate::puzzle::limits::{Clock, Limits};
use crate::util::random::nth;
use crate::{Limit, Outcome, RandomValue, SmallestDomain, SmallestDomainRandomTies};

/// A generated puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The clues: `(variable, value)` pairs, in the order of the generator's clue variables.
    pub clues: Vec<(VarId, i32)>,
    /// The one solution.
    pub solution: Solution,
    /// How hard it is.
    pub grade: Grade,
    /// Whether no clue (or group of clues, with a symmetry) can be removed without losing the
    /// generator's check: a unique solution, or, with a target difficulty of
    /// [`Difficulty::Forward`] or [`Difficulty::Full`], a solution that propagation at that
    /// level finds alone. `false` when the generator stopped at its target number of clues, or
    /// when a uniqueness check reached its decision limit (the clue was then kept: the puzzle is
    /// unique, but a clue might have gone).
    pub minimal: bool,
}

/// Where a [`Generator`] is, given to the callback of
/// [`with_progress`](Generator::with_progress): after each random solution drawn and after
/// each clue (or group of clues) it tried to remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Progress {
    /// The attempt (the random solution) under way, from 0.
    pub attempt: u32,
    /// The clues (or groups of clues, with a symmetry) tried so far in this attempt.
    pub tried: usize,
    /// The clues (or groups) there are to try in one attempt.
    pub groups: usize,
    /// The clues left in the puzzle so far.
    pub clues: usize,
    /// The time since [`generate`](Generator::generate) started.
    pub elapsed: Duration,
}

/// A grade band: whether a puzzle's clues grade within it (`None`: not graded).
type Band<'m> = Arc<dyn Fn(&Model, &[(VarId, i32)]) -> Option<bool> + Send + Sync + 'm>;

/// A progress callback.
type ProgressFn<'m> = Arc<dyn Fn(&Progress) + Send + Sync + 'm>;

/// Why no puzzle was generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The model has no solution.
    #[error("the model has no solution")]
    NoSolution,
    /// No attempt gave a puzzle with exactly one solution and the asked number of clues or
    /// difficulty.
    #[error("no puzzle{} in {attempts} attempts: {reason}", spaced(.wanted))]
    NotFound {
        /// What was asked, in words (empty when nothing but a unique solution was asked).
        wanted: String,
        /// The attempts made.
        attempts: u32,
        /// Why the attempts failed, in words: how many drew a solution that all the clues
        /// together do not make unique, how many ended above the target, and so on.
        reason: String,
    },
    /// The time limit or the cancellation flag stopped the generator.
    #[error("stopped: {0}")]
    LimitReached(Limit),
    /// A clue variable is not of the model.
    #[error(transparent)]
    Model(#[from] crate::ModelError),
}

/// Makes puzzles from a model and the variables that may hold clues: a full solution at
/// random (seeded), then clues removed in random order while the solution stays unique
/// (counted up to two with full propagation), until none can be removed or the target number
/// of clues is reached.
///
/// The uniqueness is that of the whole model: every variable, clue or not, must be fixed by
/// the clues, so the model should have no free helper variables. An attempt whose solution is
/// not unique even with every clue variable given (Skyscrapers whose clues are the edge
/// counts: two grids may show the same counts) is dropped, and another solution drawn; every
/// puzzle returned has exactly one solution.
///
/// Each search stops at a decision limit ([`with_decision_limit`](Generator::with_decision_limit),
/// [`with_check_decision_limit`](Generator::with_check_decision_limit)); the whole call at a
/// time limit or a cancellation flag ([`with_time_limit`](Generator::with_time_limit),
/// [`with_cancel_flag`](Generator::with_cancel_flag)).
///
/// # Examples
///
/// ```
/// use cspkit::models::sudoku::{Grid, Sudoku};
/// use cspkit::puzzle::Generator;
///
/// let empty = Sudoku::new(&Grid::empty(2).unwrap())?;
/// let puzzle = Generator::new(empty.model(), empty.cells()).with_seed(7).generate()?;
/// assert!(puzzle.minimal && puzzle.clues.len() < 16);
/// // Unique: the clues alone have one solution.
/// let mut solver = empty.model().solver();
/// solver.restart_with(puzzle.clues.iter().copied())?;
/// assert_eq!(solver.count().solutions, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Generator<'m> {
    model: &'m Model,
    clues: Vec<VarId>,
    /// Indices into `clues` removed together.
    groups: Vec<Vec<usize>>,
    seed: u64,
    target_clues: Option<usize>,
    difficulty: Option<Difficulty>,
    attempts: u32,
    decision_limit: u64,
    check_decision_limit: Option<u64>,
    /// The time limit and the flag (the decision limits are the fields above).
    limits: Limits,
    /// The variables the searches branch on (all when empty).
    decision_variables: Vec<VarId>,
    /// The grade band asked for, if any.
    band: Option<Band<'m>>,
    /// The progress callback, if any.
    progress: Option<ProgressFn<'m>>,
}

impl std::fmt::Debug for Generator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generator")
            .field("clues", &self.clues.len())
            .field("groups", &self.groups.len())
            .field("seed", &self.seed)
            .field("target_clues", &self.target_clues)
            .field("difficulty", &self.difficulty)
            .field("attempts", &self.attempts)
            .field("decision_limit", &self.decision_limit)
            .field("check_decision_limit", &self.check_decision_limit)
            .field("limits", &self.limits)
            .field("decision_variables", &self.decision_variables.len())
            .field("band", &self.band.is_some())
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// ` wanted`, or nothing.
fn spaced(wanted: &str) -> String {
    if wanted.is_empty() {
        String::new()
    } else {
        format!(" {wanted}")
    }
}

/// How the attempts of one call failed.
#[derive(Debug, Default)]
struct Failures {
    /// The random solution was not found within the decision limit.
    no_solution: u32,
    /// Every clue given, the model still had another solution.
    not_unique: u32,
    /// Every clue given, the uniqueness check reached its decision limit.
    unknown: u32,
    /// The puzzle ended with more clues than the target.
    above_target: u32,
    /// The puzzle came out of another difficulty, or its grading reached the decision limit.
    difficulty: u32,
    /// The puzzle graded outside the grade band, or the band's grader gave no grade.
    band: u32,
}

impl Failures {
    /// The failures in words.
    fn reason(&self) -> String {
        let mut parts = Vec::new();
        let mut part = |n: u32, text: &str| {
            if n > 0 {
                parts.push(format!("{n} {text}"));
            }
        };
        part(
            self.not_unique,
            "drew a solution that is not unique even with every clue given (the clues cannot \
             tell it from another)",
        );
        part(
            self.unknown,
            "drew a solution whose uniqueness with every clue given was not settled within the \
             decision limit",
        );
        part(
            self.no_solution,
            "found no solution within the decision limit",
        );
        part(self.above_target, "ended above the target number of clues");
        part(self.difficulty, "came out of another difficulty");
        part(self.band, "graded outside the grade band");
        parts.join(", ")
    }
}

impl<'m> Generator<'m> {
    /// A generator of puzzles of `model` whose clues are values of `clues`.
    pub fn new(model: &'m Model, clues: &[VarId]) -> Self {
        Generator {
            model,
            clues: clues.to_vec(),
            groups: (0..clues.len()).map(|i| vec![i]).collect(),
            seed: 0,
            target_clues: None,
            difficulty: None,
            attempts: 100,
            decision_limit: 1_000_000,
            check_decision_limit: None,
            limits: Limits::new(),
            decision_variables: Vec::new(),
            band: None,
            progress: None,
        }
    }

    /// The seed of the random solution and of the order clues are removed in: the same seed
    /// gives the same puzzle.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Clues removed together, to keep a pattern (Sudoku's 180° rotation: each cell with its
    /// image). Each orbit lists clue variables; a clue variable in no orbit is removed alone,
    /// and one in several belongs to the first.
    pub fn with_symmetry(mut self, orbits: &[Vec<VarId>]) -> Self {
        let mut group_of: Vec<Option<usize>> = vec![None; self.clues.len()];
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for orbit in orbits {
            let members: Vec<usize> = orbit
                .iter()
                .filter_map(|v| self.clues.iter().position(|c| c == v))
                .filter(|&i| group_of[i].is_none())
                .collect();
            if members.is_empty() {
                continue;
            }
            for &i in &members {
                group_of[i] = Some(groups.len());
            }
            groups.push(members);
        }
        for (i, group) in group_of.iter().enumerate() {
            if group.is_none() {
                groups.push(vec![i]);
            }
        }
        self.groups = groups;
        self
    }

    /// Stop removing clues once at most `clues` are left. An attempt that ends with more (a
    /// minimal puzzle above the target) is discarded.
    pub fn with_target_clues(mut self, clues: usize) -> Self {
        self.target_clues = Some(clues);
        self
    }

    /// Puzzles of this difficulty only. For [`Difficulty::Forward`] and [`Difficulty::Full`],
    /// a clue is removed only if propagation at that level still solves the puzzle alone (so
    /// the puzzles have more clues than minimal unique ones); attempts whose grade comes out
    /// easier, and for [`Difficulty::Search`] attempts that need no search, are discarded.
    pub fn with_difficulty(mut self, difficulty: Difficulty) -> Self {
        self.difficulty = Some(difficulty);
        self
    }

    /// Puzzles whose grade by `grader` lies in `band` only: any grading function, from the
    /// levels of [`grade`](crate::puzzle::grade) to a numeric rating, given the model and the
    /// clues and returning `None` when it cannot grade (a limit reached). Each attempt is
    /// carved to a minimal puzzle (or to the target number of clues), then graded; one outside
    /// the band is discarded and another solution drawn, up to the
    /// [attempts](Generator::with_attempts). The share of attempts that land in a band is its
    /// hit rate (measured for Sudoku in the chapter on puzzles of the documentation).
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::sudoku::{Grid, Sudoku};
    /// use cspkit::puzzle::{Difficulty, Generator, grade};
    ///
    /// let empty = Sudoku::new(&Grid::empty(2).unwrap())?;
    /// let level = |model: &cspkit::Model, clues: &[(cspkit::VarId, i32)]| {
    ///     grade(model, clues, 10_000).ok().map(|g| g.difficulty)
    /// };
    /// let puzzle = Generator::new(empty.model(), empty.cells())
    ///     .with_grade_band(level, Difficulty::Forward..=Difficulty::Full)
    ///     .generate()?;
    /// assert!(puzzle.grade.difficulty <= Difficulty::Full);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_grade_band<G, R>(mut self, grader: G, band: RangeInclusive<R>) -> Self
    where
        G: Fn(&Model, &[(VarId, i32)]) -> Option<R> + Send + Sync + 'm,
        R: PartialOrd + Send + Sync + 'm,
    {
        self.band = Some(Arc::new(move |model, clues| {
            grader(model, clues).map(|grade| band.contains(&grade))
        }));
        self
    }

    /// Calls `report` after each random solution drawn and each clue (or group) tried, with
    /// where the generator is: for a progress line on a long run (25 × 25 Sudoku). The
    /// callback runs on the generator's thread; it should be quick.
    pub fn with_progress(mut self, report: impl Fn(&Progress) + Send + Sync + 'm) -> Self {
        self.progress = Some(Arc::new(report));
        self
    }

    /// The searches (the random solution, the uniqueness checks) branch on `vars` only, and on
    /// the other variables once those are fixed ([`Solver::with_decision_variables`]): give
    /// the cells of a grid whose model has auxiliary variables (Skyscrapers' maxima and
    /// booleans), which propagation fixes once the cells are, so a random solution is not
    /// drawn by guessing them. The puzzles are the same kind; the searches much smaller.
    ///
    /// [`Solver::with_decision_variables`]: crate::Solver::with_decision_variables
    pub fn with_decision_variables(mut self, vars: &[VarId]) -> Self {
        self.decision_variables = vars.to_vec();
        self
    }

    /// How many random solutions to try before giving up on the targets (100 by default).
    pub fn with_attempts(mut self, attempts: u32) -> Self {
        self.attempts = attempts.max(1);
        self
    }

    /// The decision limit of each search (1,000,000 by default): the search for a random
    /// solution, the grading, and the uniqueness checks unless
    /// [`with_check_decision_limit`](Generator::with_check_decision_limit) sets theirs. A
    /// uniqueness check that reaches it keeps the clue (the puzzle is then not
    /// [`minimal`](Puzzle::minimal)).
    pub fn with_decision_limit(mut self, decisions: u64) -> Self {
        self.decision_limit = decisions;
        self
    }

    /// The decision limit of each uniqueness check made while removing clues (by default the
    /// [decision limit](Generator::with_decision_limit)). Proving a near-minimal puzzle unique
    /// can take a long search on large grids (25 × 25 Sudoku): a small limit keeps a clue
    /// whose removal is not settled quickly, for a few more clues and a much faster generator.
    pub fn with_check_decision_limit(mut self, decisions: u64) -> Self {
        self.check_decision_limit = Some(decisions);
        self
    }

    /// Stops [`generate`](Generator::generate) once it has run for `time`, with
    /// [`GenerateError::LimitReached`].
    pub fn with_time_limit(mut self, time: std::time::Duration) -> Self {
        self.limits = self.limits.with_time_limit(time);
        self
    }

    /// Stops [`generate`](Generator::generate) when `flag` becomes true, from any thread, with
    /// [`GenerateError::LimitReached`].
    pub fn with_cancel_flag(mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Self {
        self.limits = self.limits.with_cancel_flag(flag);
        self
    }

    /// A puzzle.
    ///
    /// # Errors
    ///
    /// [`GenerateError::NoSolution`] if the model has none, [`GenerateError::NotFound`] if
    /// no attempt met the targets (or had a unique solution at all), with the reasons,
    /// [`GenerateError::LimitReached`] if the time limit or the flag stopped it,
    /// [`GenerateError::Model`] if a clue variable is not of the model.
    pub fn generate(&self) -> Result<Puzzle, GenerateError> {
        for &var in &self.clues {
            if !self.model.owns(var) {
                return Err(crate::ModelError::ForeignVariable {
                    context: "puzzle generator".into(),
                    variable: format!("{var:?}"),
                }
                .into());
            }
        }
        let clock = self.limits.start();
        let mut failures = Failures::default();
        for attempt in 0..self.attempts {
            if let Some(limit) = clock.stopped() {
                return Err(GenerateError::LimitReached(limit));
            }
            let seed = nth(self.seed, u64::from(attempt));
            let Some(solution) = self.random_solution(seed, &clock)? else {
                failures.no_solution += 1;
                continue;
            };
            if let Some(puzzle) = self.carve(&solution, attempt, &clock, &mut failures)? {
                return Ok(puzzle);
            }
        }
        let mut wanted = Vec::new();
        if let Some(clues) = self.target_clues {
            wanted.push(format!("with at most {clues} clues"));
        }
        if let Some(difficulty) = self.difficulty {
            wanted.push(format!("of difficulty {}", difficulty.name()));
        }
        if self.band.is_some() {
            wanted.push("in the grade band".to_owned());
        }
        Err(GenerateError::NotFound {
            wanted: wanted.join(" and "),
            attempts: self.attempts,
            reason: failures.reason(),
        })
    }

    /// A solution drawn by a randomised search; `None` if it reached the decision limit.
    fn random_solution(
        &self,
        seed: u64,
        clock: &Clock<'_>,
    ) -> Result<Option<Solution>, GenerateError> {
        let solver = self
            .model
            .solver()
            .with_variable_order(SmallestDomainRandomTies::new(seed))
            .with_value_order(RandomValue::new(seed))
            .with_decision_variables(&self.decision_variables)?
            .with_decision_limit(self.decision_limit);
        let mut solver = clock.configure(solver);
        clock.arm(&mut solver);
        match solver.next_solution() {
            Outcome::Solved(solution) => Ok(Some(solution)),
            Outcome::Exhausted => Err(GenerateError::NoSolution),
            Outcome::LimitReached(Limit::Decisions) => Ok(None),
            Outcome::LimitReached(limit) => Err(GenerateError::LimitReached(limit)),
        }
    }

    /// Removes clues from `solution` in an order drawn from `seed`; the puzzle, if it meets the
    /// targets (each attempt that does not is counted in `failures`).
    fn carve(
        &self,
        solution: &Solution,
        attempt: u32,
        clock: &Clock<'_>,
        failures: &mut Failures,
    ) -> Result<Option<Puzzle>, GenerateError> {
        let seed = nth(self.seed, u64::from(attempt));
        let report = |tried: usize, clues: usize| {
            if let Some(progress) = &self.progress {
                progress(&Progress {
                    attempt,
                    tried,
                    groups: self.groups.len(),
                    clues,
                    elapsed: clock.elapsed(),
                });
            }
        };
        report(0, self.clues.len());
        let mut order: Vec<usize> = (0..self.groups.len()).collect();
        for i in (1..order.len()).rev() {
            let j = (nth(seed ^ 0x5EED, i as u64) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let mut kept = vec![true; self.clues.len()];
        let level = self.difficulty.and_then(Difficulty::level);
        let mut counter = clock.configure(
            self.model
                .solver()
                .with_variable_order(SmallestDomain)
                .with_decision_variables(&self.decision_variables)?
                .with_decision_limit(self.check_decision_limit.unwrap_or(self.decision_limit)),
        );
        // Whether the clues have this one solution: `Some(true)` if so, `Some(false)` if
        // another, `None` if the check reached its decision limit.
        let mut unique = |clues: Vec<(VarId, i32)>| -> Result<Option<bool>, GenerateError> {
            counter.restart_with(clues)?;
            clock.arm(&mut counter);
            let count = counter.count_up_to(2);
            match count.stopped_by {
                None => Ok(Some(count.solutions == 1)),
                Some(Limit::Solutions) => Ok(Some(false)),
                Some(Limit::Decisions) => Ok(None),
                Some(limit) => Err(GenerateError::LimitReached(limit)),
            }
        };
        // Every clue given must already make the solution unique, or no subset will.
        match unique(self.clues_of(&kept, solution))? {
            Some(true) => {}
            Some(false) => {
                failures.not_unique += 1;
                return Ok(None);
            }
            None => {
                failures.unknown += 1;
                return Ok(None);
            }
        }
        let mut left = self.clues.len();
        let mut minimal = true;
        for (tried, group) in order.into_iter().enumerate() {
            if tried > 0 {
                report(tried, left);
            }
            if let Some(limit) = clock.stopped() {
                return Err(GenerateError::LimitReached(limit));
            }
            if self.target_clues.is_some_and(|target| left <= target) {
                minimal = false;
                break;
            }
            for &i in &self.groups[group] {
                kept[i] = false;
            }
            let clues = self.clues_of(&kept, solution);
            let holds = match level {
                Some(level) => self.solved_by(&clues, level)?,
                None => match unique(clues)? {
                    Some(holds) => holds,
                    None => {
                        minimal = false;
                        false
                    }
                },
            };
            if holds {
                left -= self.groups[group].len();
            } else {
                for &i in &self.groups[group] {
                    kept[i] = true;
                }
            }
        }
        if self.target_clues.is_some_and(|target| left > target) {
            failures.above_target += 1;
            return Ok(None);
        }
        let clues = self.clues_of(&kept, solution);
        let grade = match self.grade(&clues, clock) {
            Ok(grade) => grade,
            Err(GradeError::Model(error)) => return Err(error.into()),
            Err(GradeError::LimitReached(limit)) if limit != Limit::Decisions => {
                return Err(GenerateError::LimitReached(limit));
            }
            Err(_) => {
                failures.difficulty += 1;
                return Ok(None);
            }
        };
        if self.difficulty.is_some_and(|d| d != grade.difficulty) {
            failures.difficulty += 1;
            return Ok(None);
        }
        if let Some(band) = &self.band
            && band(self.model, &clues) != Some(true)
        {
            failures.band += 1;
            return Ok(None);
        }
        Ok(Some(Puzzle {
            clues,
            solution: solution.clone(),
            grade,
            minimal,
        }))
    }

    /// The grade of `clues`, as [`grade_within`] gives it; with decision variables, the search
    /// of [`Difficulty::Search`] branches on them only (its decisions are counted there).
    fn grade(&self, clues: &[(VarId, i32)], clock: &Clock<'_>) -> Result<Grade, GradeError> {
        if self.decision_variables.is_empty() {
            let limits = clock.remaining().with_decision_limit(self.decision_limit);
            return grade_within(self.model, clues, &limits);
        }
        // Propagation alone first: a search that needs a decision stops at once.
        match grade_within(self.model, clues, &clock.remaining().with_decision_limit(0)) {
            Err(GradeError::LimitReached(Limit::Decisions)) => {}
            other => return other,
        }
        let mut domains = fixed_domains(self.model, clues)?;
        let rounds = propagate_rounds(self.model, &mut domains, PropagationLevel::Full)
            .map_err(|_| GradeError::NoSolution)?;
        let mut solver = clock.configure(
            self.model
                .solver()
                .with_variable_order(SmallestDomain)
                .with_decision_variables(&self.decision_variables)?
                .with_decision_limit(self.decision_limit),
        );
        solver.restart_with(clues.iter().copied())?;
        clock.arm(&mut solver);
        match solver.next_solution() {
            Outcome::Solved(_) => Ok(Grade {
                difficulty: Difficulty::Search,
                rounds,
                decisions: solver.stats().decisions,
            }),
            Outcome::Exhausted => Err(GradeError::NoSolution),
            Outcome::LimitReached(limit) => Err(GradeError::LimitReached(limit)),
        }
    }

    fn clues_of(&self, kept: &[bool], solution: &Solution) -> Vec<(VarId, i32)> {
        self.clues
            .iter()
            .zip(kept)
            .filter(|&(_, &k)| k)
            .map(|(&var, _)| (var, solution[var]))
            .collect()
    }

    /// Whether propagation at `level` alone fixes every variable from `clues`.
    fn solved_by(
        &self,
        clues: &[(VarId, i32)],
        level: PropagationLevel,
    ) -> Result<bool, GenerateError> {
        let mut domains = fixed_domains(self.model, clues)?;
        Ok(propagate_rounds(self.model, &mut domains, level).is_ok()
            && domains.iter().all(Domain::is_fixed))
    }
}
