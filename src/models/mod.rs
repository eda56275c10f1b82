//! Ready-made models, built on the crate's public API only, as a user would write them.
//!
//! - [`sudoku`]: Sudoku grids from 4x4 to 36x36, their text formats, and their model.
//! - [`queens`]: the N-Queens puzzle (three all-different constraints, or pairwise).
//! - [`colouring`]: graph colouring, with the map of Australia and the Mycielski graphs.
//! - Puzzle genres with a text format, a model and a generator each ([`genre`] says what they
//!   share): [`futoshiki`], [`kenken`], [`kakuro`], [`skyscrapers`], [`killer_sudoku`].

pub mod colouring;
pub mod futoshiki;
pub mod genre;
pub mod kakuro;
pub mod kenken;
pub mod killer_sudoku;
pub mod queens;
pub mod skyscrapers;
pub mod sudoku;
