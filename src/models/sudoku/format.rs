//! The text formats of a grid ([`GridFormat`]), the symbols they write, and the
//! [`FormatError`] when a format has no symbol for a grid's values. `Grid::to_text` writes them.

use std::fmt;

use thiserror::Error;

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

/// The symbol for a value in the compact and line formats.
pub(super) fn symbol(value: u8) -> char {
    match value {
        0 => '0',
        1..=9 => char::from(b'0' + value),
        _ => char::from(b'A' + value - 10),
    }
}
