//! The library's built-in models: N-Queens and Sudoku.

use cspkit::models::queens::Queens;
use cspkit::models::sudoku::{Grid, Sudoku};
use pyo3::prelude::*;

use crate::errors::raised;
use crate::model::RawModel;

/// The N-Queens model with `n` queens: the model and the indices of the row variables
/// (row `i`'s value is its queen's column).
#[pyfunction]
pub fn queens(n: usize) -> PyResult<(RawModel, Vec<usize>)> {
    let queens = Queens::new(n).map_err(raised)?;
    let rows = queens.rows().iter().map(|var| var.index()).collect();
    Ok((RawModel::wrapping(queens.model().clone()), rows))
}

/// The Sudoku model of the grid `text` (any format the command line reads): the model, the
/// indices of the cell variables row by row, and the side of the grid.
#[pyfunction]
pub fn sudoku(text: &str) -> PyResult<(RawModel, Vec<usize>, usize)> {
    let grid = Grid::parse(text, None).map_err(raised)?;
    let sudoku = Sudoku::new(&grid).map_err(raised)?;
    let cells = sudoku.cells().iter().map(|var| var.index()).collect();
    Ok((
        RawModel::wrapping(sudoku.model().clone()),
        cells,
        grid.side(),
    ))
}
