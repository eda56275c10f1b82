//! N-Queens: place `n` queens on an `n × n` board so that no two attack each other.
//!
//! This module is built on the crate's public API only: it is what a user could have written.
//!
//! The model has one variable per row, holding the column of that row's queen (`1..=n`), so no
//! two queens share a row by construction. Three [`AllDifferent`] constraints do the rest: over
//! the columns `q[i]`, over the diagonals `q[i] − i`, and over the anti-diagonals `q[i] + i`.
//!
//! The names follow the matrix convention: a *diagonal* runs in the direction of the main
//! diagonal, row and column growing together, as the squares (1, 1) and (2, 2) do, so its squares
//! share `column − row`; an *anti-diagonal* runs the other way, as (1, 2) and (2, 1), and its
//! squares share `column + row`. Traces name the constraint that failed: `row 2 = 2 ✗
//! diagonals, with row 1 = 1`.
//!
//! Both are all-different constraints over views ([`IntView`]): `q[i] − i` and `q[i] + i`, with
//! no auxiliary variable.
//!
//! Why three all-different constraints rather than `3·n(n−1)/2` binary
//! [`NotEqual`] constraints: the model stays O(n) in size (1000 queens are 3
//! constraints, not 1.5 million), forward checking prunes exactly as the binary constraints
//! would, and [`PropagationLevel::Full`] can apply Régin's filtering to both kinds of diagonal,
//! which the binary decomposition cannot express.
//!
//! ```
//! use cspkit::models::queens::Queens;
//!
//! let queens = Queens::new(8)?;
//! assert_eq!(queens.first_columns(), Some(vec![1, 5, 8, 6, 3, 7, 2, 4]));
//! assert_eq!(queens.count(), 92);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod board;

pub use board::NonAttacking;

use crate::{
    AllDifferent, Domain, IntView, Model, ModelError, NotEqual, Outcome, PropagationLevel,
    Solution, VarId,
};

/// The N-Queens model.
#[derive(Debug)]
pub struct Queens {
    model: Model,
    rows: Vec<VarId>,
}

impl Queens {
    /// The propagation level [`Queens::first_columns`] and [`Queens::count`] use: forward
    /// checking, which is the fastest per solution on this model.
    pub const DEFAULT_PROPAGATION: PropagationLevel = PropagationLevel::Forward;

    /// The model for `n` queens.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidDomain`] if `n` is 0. Memory grows with `n` squared (a domain of `n`
    /// values per row): the CLI stops at 10,000.
    pub fn new(n: usize) -> Result<Queens, ModelError> {
        let size = i32::try_from(n).unwrap_or(i32::MAX);
        let mut model = Model::new();
        let rows = Queens::rows_of(&mut model, n)?;
        // Row i's queen stands on the diagonal `q[i] - i` (matrix convention: (1, 1) and
        // (2, 2) share one) and on the anti-diagonal `q[i] + i`.
        let shifted = |sign: i32| -> Vec<IntView> {
            (0..size)
                .zip(&rows)
                .map(|(i, &q)| q.offset(sign * i))
                .collect()
        };
        // Posted in this order (anti-diagonals before diagonals) since the first version: the
        // order decides which constraint a trace names when both could fail.
        model.post_named("columns", AllDifferent::new(&rows))?;
        model.post_named("anti-diagonals", AllDifferent::over_views(&shifted(1))?)?;
        model.post_named("diagonals", AllDifferent::over_views(&shifted(-1))?)?;
        Ok(Queens { model, rows })
    }

    /// The same puzzle with one constraint per pair of rows and kind of attack
    /// (`q[i] ≠ q[j]`, `q[i] ≠ q[j] ± (j − i)`): the binary model of the textbooks, with
    /// `3·n(n−1)/2` constraints instead of three. The same placements in the same order.
    /// Forward checking prunes as on the all-different model; full propagation prunes less
    /// (arc consistency on each pair, where Régin's algorithm sees whole rows at once). Every
    /// row meets `3(n−1)` constraints, so static degrees tie; `DomWdeg`'s learnt weights do
    /// tell the rows apart.
    ///
    /// # Errors
    ///
    /// As [`Queens::new`].
    pub fn pairwise(n: usize) -> Result<Queens, ModelError> {
        let mut model = Model::new();
        let rows = Queens::rows_of(&mut model, n)?;
        for i in 0..n {
            for j in i + 1..n {
                let d = i32::try_from(j - i).unwrap_or(i32::MAX);
                let (a, b) = (i + 1, j + 1);
                model.post_named(
                    format!("rows {a} and {b}: columns"),
                    NotEqual::new(rows[i], rows[j]),
                )?;
                // q[i] = q[j] + d: q[i] + i = q[j] + j, one anti-diagonal.
                model.post_named(
                    format!("rows {a} and {b}: anti-diagonal"),
                    NotEqual::with_offset(rows[i], rows[j], d),
                )?;
                // q[i] = q[j] − d: q[i] − i = q[j] − j, one diagonal.
                model.post_named(
                    format!("rows {a} and {b}: diagonal"),
                    NotEqual::with_offset(rows[i], rows[j], -d),
                )?;
            }
        }
        Ok(Queens { model, rows })
    }

    /// The same puzzle as one [`NonAttacking`] constraint over the rows: a model-level
    /// constraint whose propagator keeps the taken columns and diagonals in words, as a
    /// bitboard solver does (boards up to 32; larger ones run its reference propagation). The
    /// same placements in the same order as [`Queens::new`] at [`PropagationLevel::Forward`],
    /// with one propagator run per fixing instead of three; at `Full` it prunes less (no
    /// Régin). `bench/engine.md` measures what it gives.
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    ///
    /// let queens = Queens::non_attacking(8)?;
    /// assert_eq!(queens.first_columns(), Queens::new(8)?.first_columns());
    /// assert_eq!(queens.count(), 92);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Queens::new`].
    pub fn non_attacking(n: usize) -> Result<Queens, ModelError> {
        let mut model = Model::new();
        let rows = Queens::rows_of(&mut model, n)?;
        if n > 0 {
            model.post(NonAttacking::new(&rows))?;
        }
        Ok(Queens { model, rows })
    }

    /// The variables `row 1` to `row n` of `model`, each holding its queen's column from 1.
    fn rows_of(model: &mut Model, n: usize) -> Result<Vec<VarId>, ModelError> {
        let size = i32::try_from(n).unwrap_or(i32::MAX);
        let rows = (0..n)
            .map(|row| model.new_named_var(format!("row {}", row + 1), 1..=size))
            .collect::<Result<Vec<_>, _>>()?;
        if n == 0 {
            // Reported as the empty domain that zero columns would give every queen.
            model.new_named_var("row 1", 1..1)?;
        }
        Ok(rows)
    }

    /// The number of queens.
    pub fn n(&self) -> usize {
        self.rows.len()
    }

    /// The model, to solve with any strategy.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The variables, one per row (`row 1` to `row N`), holding the queen's column (from 1, as
    /// a person counts them).
    pub fn rows(&self) -> &[VarId] {
        &self.rows
    }

    /// The columns of a solution, from 1, row by row.
    ///
    /// # Panics
    ///
    /// If `solution` is not a solution of this model.
    pub fn columns(&self, solution: &Solution) -> Vec<usize> {
        self.rows
            .iter()
            .map(|&row| solution[row] as usize)
            .collect()
    }

    /// The board of a solution: one line per row, `Q` for a queen and `.` for an empty square.
    ///
    /// # Panics
    ///
    /// If `solution` is not a solution of this model.
    pub fn board(&self, solution: &Solution) -> String {
        self.draw(|row, column| if solution[row] == column { 'Q' } else { '.' })
    }

    /// The board where a search stands, from the domains there (those of a
    /// [`OwnedEvent::Propagated`], or of [`SearchTree::domains_at`]): one line per row, `Q` for
    /// a placed queen (a row left with one column), `o` for a square still open to its row's
    /// queen, `.` for a square ruled out. A row with no column left (a failure) is all `.`.
    ///
    /// # Examples
    ///
    /// ```
    /// use cspkit::models::queens::Queens;
    ///
    /// let queens = Queens::new(4)?;
    /// // Before the search, every square is open.
    /// let solver = queens.model().solver();
    /// assert_eq!(queens.board_at(solver.domains()), "oooo\n".repeat(4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If `domains` are not those of this model (fewer than its variables).
    ///
    /// [`OwnedEvent::Propagated`]: crate::OwnedEvent::Propagated
    /// [`SearchTree::domains_at`]: crate::teach::tree::SearchTree::domains_at
    pub fn board_at(&self, domains: &[Domain]) -> String {
        self.draw(|row, column| {
            let domain = &domains[row.index()];
            match domain.value() {
                Some(value) if value == column => 'Q',
                None if domain.contains(column) => 'o',
                _ => '.',
            }
        })
    }

    /// One line per row, the square of each column (from 1) drawn by `square`.
    fn draw(&self, square: impl Fn(VarId, i32) -> char) -> String {
        let n = self.n();
        let mut out = String::with_capacity(n * (n + 1));
        for &row in &self.rows {
            out.extend((1..=n).map(|column| square(row, column as i32)));
            out.push('\n');
        }
        out
    }

    /// The lexicographically first placement (rows in order, columns ascending), as columns
    /// from 1; `None` if there is none (n = 2 or 3).
    pub fn first_columns(&self) -> Option<Vec<usize>> {
        let mut solver = self
            .model
            .solver()
            .with_propagation(Self::DEFAULT_PROPAGATION);
        match solver.next_solution() {
            Outcome::Solved(solution) => Some(self.columns(&solution)),
            _ => None,
        }
    }

    /// The number of placements.
    pub fn count(&self) -> u64 {
        let mut solver = self
            .model
            .solver()
            .with_propagation(Self::DEFAULT_PROPAGATION);
        solver.count().solutions
    }
}

/// Whether `columns` (from 1, one per row) places non-attacking queens on an `n × n` board,
/// `n = columns.len()`. An independent check, for tests and for users.
pub fn is_valid_placement(columns: &[usize]) -> bool {
    let n = columns.len();
    columns.iter().all(|&c| (1..=n).contains(&c))
        && (0..n).all(|i| {
            (i + 1..n).all(|j| columns[i] != columns[j] && columns[i].abs_diff(columns[j]) != j - i)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_placement_found_is_valid_and_the_count_matches() {
        // Numbers of solutions for n = 1..=8 (OEIS A000170).
        let known = [1, 0, 0, 2, 10, 4, 40, 92];
        for (n, &count) in (1..).zip(&known) {
            let queens = Queens::new(n).unwrap();
            let mut solver = queens.model().solver();
            let placements: Vec<Vec<usize>> =
                solver.solutions().map(|s| queens.columns(&s)).collect();
            assert_eq!(placements.len() as u64, count, "n = {n}");
            assert!(placements.iter().all(|p| is_valid_placement(p)));
            assert_eq!(queens.count(), count);
        }
    }

    #[test]
    fn zero_queens_is_a_model_error() {
        assert!(matches!(
            Queens::new(0),
            Err(ModelError::InvalidDomain { .. })
        ));
    }

    #[test]
    fn the_board_marks_one_queen_per_row() {
        let queens = Queens::new(4).unwrap();
        let solution = queens.model().solve().solution().unwrap();
        assert_eq!(queens.board(&solution), ".Q..\n...Q\nQ...\n..Q.\n");
    }

    #[test]
    fn the_board_of_a_node_shows_queens_open_squares_and_an_emptied_row() {
        let queens = Queens::new(4).unwrap();
        let mut domains = queens.model().solver().domains().to_vec();
        let rows = queens.rows();
        for (row, columns) in rows.iter().zip([&[2][..], &[4], &[1, 3]]) {
            domains[row.index()] = Domain::from_values(columns.iter().copied()).unwrap();
        }
        // Row 4 emptied, as at a failure.
        let mut empty = Domain::from_values([1]).unwrap();
        empty.remove(1, &mut |_, _| {});
        domains[rows[3].index()] = empty;
        assert_eq!(queens.board_at(&domains), ".Q..\n...Q\no.o.\n....\n");
    }
}
