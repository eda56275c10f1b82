//! Writing a [`Grid`] in its text formats ([`GridFormat`]), and the [`FormatError`] when a
//! format has no symbol for its values.

use std::fmt;

use thiserror::Error;

use super::grid::Grid;

/// The text formats of a grid. See the [module documentation](super).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GridFormat {
    /// `N` lines of `N` symbols, no separators.
    Compact,
    /// `N` lines of `N` numbers separated by blanks.
    Spaced,
    /// One line of `N²` symbols.
    Line,
}

impl fmt::Display for GridFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GridFormat::Compact => "compact",
            GridFormat::Spaced => "spaced",
            GridFormat::Line => "line",
        })
    }
}

impl std::str::FromStr for GridFormat {
    type Err = crate::ParseNameError;

    /// `compact`, `spaced` or `line`.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        let names = [
            ("compact", GridFormat::Compact),
            ("spaced", GridFormat::Spaced),
            ("line", GridFormat::Line),
        ];
        names
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, format)| format)
            .ok_or_else(|| crate::ParseNameError {
                kind: "grid format",
                given: name.to_owned(),
                expected: &["compact", "spaced", "line"],
            })
    }
}

/// A grid cannot be written in the format asked for.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "a {side}x{side} grid cannot be written in the {format} format (it has no symbol for {side})"
)]
pub struct FormatError {
    /// The grid's side.
    pub side: usize,
    /// The format asked for.
    pub format: GridFormat,
}

/// The largest value a symbol (as opposed to a spaced number) can write: `P` is 25.
pub(super) const MAX_SYMBOL_VALUE: usize = 25;

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

/// The symbol for a value in the compact and line formats.
pub(super) fn symbol(value: u8) -> char {
    match value {
        0 => '0',
        1..=9 => char::from(b'0' + value),
        _ => char::from(b'A' + value - 10),
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
