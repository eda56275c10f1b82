//! The [`Grid`] value: its size, its cells, and whether it is solved.
//!
//! Reading its text formats is in the `parse` module; `format` names the formats and their
//! symbols, which [`Grid::to_text`] writes.

use std::fmt;

use super::format::{FormatError, GridFormat, MAX_SYMBOL_VALUE, symbol};

/// The box sizes supported: 2 (4x4) to 6 (36x36).
pub const BOX_SIZES: std::ops::RangeInclusive<usize> = 2..=6;

/// A Sudoku grid: `N × N` cells, `0` for empty, `1..=N` for a value.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    pub(super) box_size: usize,
    pub(super) cells: Vec<u8>,
}

impl Grid {
    /// An empty grid with boxes of `box_size × box_size` cells (`N = box_size²`).
    ///
    /// Returns `None` unless `box_size` is in [`BOX_SIZES`].
    pub fn empty(box_size: usize) -> Option<Grid> {
        BOX_SIZES.contains(&box_size).then(|| Grid {
            box_size,
            cells: vec![0; box_size.pow(4)],
        })
    }

    /// A grid from its cells, row by row (`0` for empty).
    ///
    /// Returns `None` if the number of cells is not `N²` for a supported `N`, or a value
    /// exceeds `N`.
    pub fn from_cells(cells: &[u8]) -> Option<Grid> {
        let box_size = BOX_SIZES.clone().find(|b| b.pow(4) == cells.len())?;
        let side = box_size * box_size;
        cells.iter().all(|&v| usize::from(v) <= side).then(|| Grid {
            box_size,
            cells: cells.to_vec(),
        })
    }

    /// The side `N` of the grid.
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    /// The side of a box (`√N`).
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// The cells, row by row; `0` is empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value in row `row`, column `col` (from 0), `0` if empty.
    ///
    /// # Panics
    ///
    /// If `row` or `col` is not below [`side`](Grid::side).
    pub fn get(&self, row: usize, col: usize) -> u8 {
        let n = self.side();
        assert!(
            row < n && col < n,
            "cell ({row}, {col}) is outside a {n}x{n} grid"
        );
        self.cells[row * n + col]
    }

    /// The number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell is filled and every row, column and box holds each value once.
    pub fn is_solved(&self) -> bool {
        let n = self.side();
        let b = self.box_size;
        let groups = (0..n).flat_map(|g| {
            [
                (0..n).map(|k| g * n + k).collect::<Vec<_>>(),
                (0..n).map(|k| k * n + g).collect(),
                (0..n)
                    .map(|k| (g / b * b + k / b) * n + g % b * b + k % b)
                    .collect(),
            ]
        });
        self.cells.iter().all(|&v| v != 0)
            && groups.into_iter().all(|group| {
                let mut seen = vec![false; n + 1];
                group
                    .into_iter()
                    .all(|i| !std::mem::replace(&mut seen[usize::from(self.cells[i])], true))
            })
    }

    /// Whether `other` fills this grid: the same size, and every given of `self` kept.
    pub fn is_completed_by(&self, other: &Grid) -> bool {
        self.box_size == other.box_size
            && self
                .cells
                .iter()
                .zip(&other.cells)
                .all(|(&given, &value)| given == 0 || given == value)
    }
}

impl Grid {
    /// Writes the grid in `format`, ending with a newline.
    ///
    /// # Errors
    ///
    /// [`FormatError`] if the format has no symbol for the grid's values (compact and line
    /// stop at 25x25).
    pub fn to_text(&self, format: GridFormat) -> Result<String, FormatError> {
        let n = self.side();
        if format != GridFormat::Spaced && n > MAX_SYMBOL_VALUE {
            return Err(FormatError { side: n, format });
        }
        let mut out = String::with_capacity(self.cells.len() * 3 + n);
        for (i, &v) in self.cells.iter().enumerate() {
            let col = i % n;
            match format {
                GridFormat::Spaced => {
                    if col > 0 {
                        out.push(' ');
                    }
                    out.push_str(&v.to_string());
                }
                GridFormat::Compact | GridFormat::Line => out.push(symbol(v)),
            }
            if col == n - 1 && (format != GridFormat::Line || i == self.cells.len() - 1) {
                out.push('\n');
            }
        }
        Ok(out)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self
            .to_text(GridFormat::Line)
            .or_else(|_| self.to_text(GridFormat::Spaced))
            .unwrap_or_default();
        write!(f, "Grid({})", text.trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_grids_use_letters_in_symbol_formats() {
        let mut cells = vec![0u8; 256];
        cells[0] = 16;
        cells[1] = 10;
        let g = Grid::from_cells(&cells).unwrap();
        let line = g.to_text(GridFormat::Line).unwrap();
        assert!(line.starts_with("GA0"));
        assert_eq!(Grid::parse(&line.to_lowercase(), None).unwrap(), g);
        let big = Grid::empty(6).unwrap();
        assert!(big.to_text(GridFormat::Line).is_err());
        assert_eq!(
            Grid::parse(&big.to_text(GridFormat::Spaced).unwrap(), None).unwrap(),
            big
        );
    }
}
