//! Making and explaining puzzles, for any model: generate puzzles with one solution, grade
//! them, explain a solving path step by step, and find which clues clash.
//!
//! A puzzle here is a model plus clues: values of some of its variables (a Sudoku's givens, a
//! Futoshiki's signs), passed as `(variable, value)` pairs rather than fixed in the model, so
//! that one model serves every puzzle of its kind.
//!
//! - [`Generator`] draws a full solution at random (seeded) and removes clues while the
//!   solution stays unique, optionally in symmetric groups, down to a number of clues or a
//!   [`Difficulty`], or keeping only puzzles in a grade band of any grading function
//!   ([`Generator::with_grade_band`]), with a [`Progress`] callback for long runs.
//! - [`grade`] gives the weakest reasoning that solves a puzzle without guessing: forward
//!   checking, each constraint's strongest filtering, or search (and how many decisions).
//! - [`Explainer`] walks a solving path, one [`Step`] at a time, each with the reason the
//!   constraint that drew it gives ([`Constraint::explain`](crate::Constraint::explain)), in
//!   the model's names.
//! - [`minimal_conflict`] finds a minimal set of clues that already has no solution;
//!   [`smallest_conflict`] the fewest (or cheapest) such clues, by an implicit hitting-set
//!   search, with the minimal set as its fallback under a limit.
//! - [`RemovalReplay`] (and [`why_removed`]) says why a value is no longer possible at a node
//!   of a search: a chain of checked reasons back to the decisions and the clues.
//!
//! Each tool searches, often many times: [`Limits`] bound each search by decisions and the
//! whole call by time or a cancellation flag ([`grade_within`], [`minimal_conflict_within`],
//! [`Generator::with_time_limit`]). A limit reached is reported as such, never as "no
//! solution" or "unique".
//!
//! `cspkit sudoku --generate`, `--grade`, `--explain`, `--hint` and `--why` are these, with the
//! Sudoku's words (`models::sudoku::techniques`); the chapter "Making and explaining puzzles"
//! of the documentation shows both.

mod explain;
mod generate;
mod grade;
mod hitting_set;
mod limits;
mod smallest_conflict;
mod why;
mod why_removed;

pub use explain::{Cause, Explainer, Step, describe_literals};
pub use generate::{GenerateError, Generator, Progress, Puzzle};
pub use grade::{Difficulty, Grade, GradeError, grade, grade_within};
pub use limits::Limits;
pub use smallest_conflict::{
    ConflictGoal, ConflictOptions, Optimality, SmallestConflict, smallest_conflict,
};
pub use why::{MinimalConflict, WhyError, minimal_conflict, minimal_conflict_within};
pub use why_removed::{
    ChainStep, Premise, RemovalChain, RemovalReplay, WhyRemoved, WhyRemovedError, parse_literal,
    parse_path, why_removed,
};
