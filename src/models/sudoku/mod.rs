//! Sudoku: grids, their text formats, and the model.
//!
//! This module is built on the crate's public API only: it is what a user could have written.
//!
//! A [`Grid`] is an `N × N` Sudoku (`N = b²` for a box size `b` from 2 to 6: 4x4 up to 36x36),
//! with `0` for an empty cell. [`Grid::parse`] reads it in one of three text formats
//! ([`GridFormat`]), detected automatically:
//!
//! - **compact**: `N` lines of `N` symbols without separators (the input of Baekjoon 2239);
//! - **spaced**: `N` lines of `N` numbers separated by blanks (the input of Baekjoon 2580);
//! - **line**: the whole grid on one line of `N²` symbols (the format of public puzzle
//!   collections).
//!
//! Symbols: `0` or `.` for an empty cell, `1`-`9`, then, in grids larger than 9x9 only, the
//! letters `A`-`P` (either case) for 10 to 25. Spaced grids use decimal numbers (`.` is also
//! empty; a leading `+` or leading zeros are allowed, so `+5` and `005` are 5), so they are the
//! only format for 36x36. Line endings may be LF, CRLF or CR; a byte order mark at the start,
//! trailing blanks on a line and empty lines before or after the grid are ignored. Anything else
//! is a [`ParseError`] naming the line and column: a character that is no cell symbol in any
//! grid is reported first, then a wrong number of cells or rows, then a value out of range, then
//! text after the grid.
//!
//! [`Sudoku`] turns a grid into a [`Model`]: one variable per cell with domain `1..=N`,
//! [`AllDifferent`] over every row, column and box, and the givens fixed. With the default
//! strategy (input order, ascending values, full propagation) the first solution is the
//! lexicographically smallest completion, read row by row.
//!
//! ```
//! use cspkit::models::sudoku::{Grid, GridFormat, Sudoku};
//!
//! let puzzle = Grid::parse("1..4..1..1..4...", None)?; // a 4x4 grid on one line
//! let sudoku = Sudoku::new(&puzzle)?;
//! let solution = sudoku.solve().expect("solvable");
//! assert_eq!(solution.to_text(GridFormat::Line)?, "1234341221434321\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Rustdoc lists `Grid`'s methods in the order of these declarations: value, reading, writing.
// The `Grid` value: size, cells, checks.
mod grid;
// Reading a grid from text: format detection, the three formats, `ParseError`.
mod parse;
// Writing a grid as text: `GridFormat`, `FormatError`.
mod format;
// Solving techniques: explanations and grades in Sudoku's words.
mod techniques;
// Pencil marks, for the human techniques.
mod board;
// The techniques up to the quads, easiest first.
mod basic;
// The human techniques, one family a file, and the rated path that uses them.
mod chains;
mod fish;
mod forcing;
mod locked;
mod rating;
mod singles;
// A player's state (givens, entries, pencil marks) and the hints from it.
mod hints;
mod state;
mod subsets;
mod uniqueness;
mod wings;

pub use format::{FormatError, GridFormat};
pub use grid::{BOX_SIZES, Grid};
pub use hints::{Mistake, StateSteps};
pub use parse::{MAX_INPUT_BYTES, ParseError};
pub use rating::{Level, RatedStep, Rating};
pub use state::{StateFormat, StateParseError, SudokuState};
pub use techniques::{Deduction, Explanation, HumanTechnique, SudokuGrade, Technique};

use crate::{AllDifferent, Domain, Model, ModelError, Outcome, Solution, VarId};
use format::{MAX_SYMBOL_VALUE, symbol};

/// A Sudoku grid as a [`Model`]: one variable per cell, [`AllDifferent`] over every row,
/// column and box, the givens fixed.
#[derive(Debug)]
pub struct Sudoku {
    model: Model,
    cells: Vec<VarId>,
    box_size: usize,
    /// Whether the human techniques may use uniqueness ([`Sudoku::with_uniqueness`]).
    uniqueness: bool,
}

impl Sudoku {
    /// The model of `grid`.
    ///
    /// Givens that contradict each other are not an error: the model then has no solution.
    ///
    /// # Errors
    ///
    /// None for a valid [`Grid`]; the [`ModelError`] is passed on from the model's API.
    pub fn new(grid: &Grid) -> Result<Sudoku, ModelError> {
        let n = grid.side();
        let b = grid.box_size();
        let mut model = Model::new();
        // Cells are named as a person reads them: r1c1 is the top-left cell.
        let cells = (0..n * n)
            .map(|i| model.new_named_var(format!("r{}c{}", i / n + 1, i % n + 1), 1..=n as i32))
            .collect::<Result<Vec<_>, _>>()?;
        for g in 0..n {
            let row: Vec<VarId> = (0..n).map(|k| cells[g * n + k]).collect();
            let col: Vec<VarId> = (0..n).map(|k| cells[k * n + g]).collect();
            let boxed: Vec<VarId> = (0..n)
                .map(|k| cells[(g / b * b + k / b) * n + g % b * b + k % b])
                .collect();
            model.post_named(format!("row {}", g + 1), AllDifferent::new(&row))?;
            model.post_named(format!("column {}", g + 1), AllDifferent::new(&col))?;
            model.post_named(format!("box {}", g + 1), AllDifferent::new(&boxed))?;
        }
        for (&var, &value) in cells.iter().zip(grid.cells()) {
            if value != 0 {
                model.fix(var, i32::from(value))?;
            }
        }
        Ok(Sudoku {
            model,
            cells,
            box_size: b,
            uniqueness: false,
        })
    }

    /// Lets the human techniques of [`Sudoku::rate`], [`Sudoku::hint_from`] and
    /// [`Sudoku::explain_from`] use uniqueness (unique rectangles, BUG+1): deductions that
    /// hold only because a proper puzzle has one solution. They are used only on a puzzle
    /// whose solution was proved unique; off by default, as they are not deductions from the
    /// rules.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::sudoku::{Grid, Sudoku};
    ///
    /// let empty = Sudoku::new(&Grid::empty(3).unwrap())?.with_uniqueness(true);
    /// assert!(empty.uses_uniqueness());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_uniqueness(mut self, on: bool) -> Self {
        self.uniqueness = on;
        self
    }

    /// Whether the human techniques may use uniqueness ([`Sudoku::with_uniqueness`]).
    pub fn uses_uniqueness(&self) -> bool {
        self.uniqueness
    }

    /// The model, to solve with any strategy.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The model, to extend: variants such as Killer Sudoku post their own constraints on the
    /// cells' variables.
    pub fn model_mut(&mut self) -> &mut Model {
        &mut self.model
    }

    /// The variables of the cells, row by row.
    pub fn cells(&self) -> &[VarId] {
        &self.cells
    }

    /// The variable of the cell in row `row`, column `col` (from 0).
    ///
    /// # Panics
    ///
    /// If `row` or `col` is outside the grid.
    pub fn cell(&self, row: usize, col: usize) -> VarId {
        let n = self.box_size * self.box_size;
        assert!(
            row < n && col < n,
            "cell ({row}, {col}) is outside a {n}x{n} grid"
        );
        self.cells[row * n + col]
    }

    /// The givens of `grid` as `(cell variable, value)` pairs, for solving the model of an
    /// empty grid under many sets of givens with [`Solver::restart_with`](crate::Solver::restart_with),
    /// rather than building a model per grid.
    ///
    /// ```
    /// use cspkit::models::sudoku::{Grid, Sudoku};
    ///
    /// let empty = Sudoku::new(&Grid::empty(2).unwrap())?;
    /// let mut solver = empty.model().solver();
    /// let grid = Grid::parse_line("1...............", 1)?;
    /// solver.restart_with(empty.givens(&grid))?;
    /// let solution = solver.next_solution().solution().unwrap();
    /// assert_eq!(empty.grid_of(&solution).get(0, 0), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If `grid` is not of this Sudoku's size.
    pub fn givens<'a>(&'a self, grid: &'a Grid) -> impl Iterator<Item = (VarId, i32)> + 'a {
        assert_eq!(
            grid.box_size(),
            self.box_size,
            "the grid is not of this Sudoku's size"
        );
        self.cells
            .iter()
            .zip(grid.cells())
            .filter(|&(_, &value)| value != 0)
            .map(|(&var, &value)| (var, i32::from(value)))
    }

    /// The grid a solution of [`model`](Sudoku::model) fills in.
    ///
    /// # Panics
    ///
    /// If `solution` is not a solution of this Sudoku's model.
    pub fn grid_of(&self, solution: &Solution) -> Grid {
        Grid {
            box_size: self.box_size,
            cells: self.cells.iter().map(|&v| solution[v] as u8).collect(),
        }
    }

    /// The grid where a search stands, from the domains there (those of a
    /// [`OwnedEvent::Propagated`], or of [`SearchTree::domains_at`]): a fixed cell shows its
    /// value, an open cell its candidates when it has no more than the box size (3 in a 9x9
    /// grid), `.` when it has more, and `✗` when it has none left (a failure). Grids above
    /// 25x25 write values as numbers and open cells as `.`. Every cell is as wide as the widest;
    /// `|` and `-` mark the boxes.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::sudoku::{Grid, Sudoku};
    /// use cspkit::{OwnedEvent, SearchStep};
    ///
    /// let sudoku = Sudoku::new(&Grid::parse("1..4..1..1..4...", None)?)?;
    /// let mut solver = sudoku.model().solver();
    /// // Before the search: the givens, and four candidates in every other cell.
    /// assert_eq!(
    ///     sudoku.board_at(solver.domains()),
    ///     "1 . | . 4\n. . | 1 .\n----+----\n. 1 | . .\n4 . | . .\n"
    /// );
    /// // After the root's propagation: three more cells fixed, two candidates in the others.
    /// let root = loop {
    ///     if let SearchStep::Event(OwnedEvent::Propagated { domains, .. }) = solver.next_step() {
    ///         break domains;
    ///     }
    /// };
    /// assert_eq!(
    ///     sudoku.board_at(&root),
    ///     "1  23 | 23 4\n23 4  | 1  23\n------+------\n23 1  | 4  23\n4  23 | 23 1\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If `domains` are not those of this Sudoku's model (fewer than its variables).
    ///
    /// [`OwnedEvent::Propagated`]: crate::OwnedEvent::Propagated
    /// [`SearchTree::domains_at`]: crate::teach::tree::SearchTree::domains_at
    pub fn board_at(&self, domains: &[Domain]) -> String {
        let b = self.box_size;
        let n = b * b;
        let name = |value: i32| match u8::try_from(value) {
            Ok(v @ 1..) if n <= MAX_SYMBOL_VALUE && usize::from(v) <= n => symbol(v).to_string(),
            _ => value.to_string(),
        };
        let texts: Vec<String> = self
            .cells
            .iter()
            .map(|&cell| {
                let domain = &domains[cell.index()];
                match domain.value() {
                    Some(value) => name(value),
                    None if domain.is_empty() => "✗".to_owned(),
                    None if n <= MAX_SYMBOL_VALUE && domain.size() <= b => {
                        domain.iter().map(name).collect()
                    }
                    None => ".".to_owned(),
                }
            })
            .collect();
        let width = texts.iter().map(|t| t.chars().count()).max().unwrap_or(1);
        let rule = vec!["-".repeat(b * width + b - 1); b].join("-+-");
        let mut out = String::new();
        for (row, cells) in texts.chunks(n).enumerate() {
            if row > 0 && row % b == 0 {
                out.push_str(&rule);
                out.push('\n');
            }
            let mut line = String::new();
            for (col, text) in cells.iter().enumerate() {
                if col > 0 {
                    line.push_str(if col % b == 0 { " | " } else { " " });
                }
                line.push_str(text);
                line.extend(std::iter::repeat_n(' ', width - text.chars().count()));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// The lexicographically smallest completion, with the default strategy; `None` if there is
    /// no completion.
    pub fn solve(&self) -> Option<Grid> {
        match self.model.solve() {
            Outcome::Solved(solution) => Some(self.grid_of(&solution)),
            _ => None,
        }
    }
}

/// The example input of Baekjoon 2239 (a compact 9x9 grid with 30 givens), for the unit tests
/// of this module and its submodules.
#[cfg(test)]
const BAEKJOON_2239: &str = "103000509\n002109400\n000704000\n300502006\n060000050\n\
                           700803004\n000401000\n009205800\n804000107\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_baekjoon_2239_example_has_the_published_answer() {
        // Expected output from the Baekjoon 2239 problem statement.
        let expected = "143628579\n572139468\n986754231\n391542786\n468917352\n\
                        725863914\n237481695\n619275843\n854396127\n";
        let grid = Grid::parse(BAEKJOON_2239, None).unwrap();
        let solved = Sudoku::new(&grid).unwrap().solve().unwrap();
        assert!(solved.is_solved() && grid.is_completed_by(&solved));
        assert_eq!(solved.to_text(GridFormat::Compact).unwrap(), expected);
    }

    #[test]
    fn contradicting_givens_have_no_solution() {
        let mut cells = vec![0u8; 81];
        cells[0] = 5;
        cells[8] = 5;
        let grid = Grid::from_cells(&cells).unwrap();
        assert_eq!(Sudoku::new(&grid).unwrap().solve(), None);
    }
}
