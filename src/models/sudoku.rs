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

use std::fmt;

use thiserror::Error;

use crate::{AllDifferent, Model, ModelError, Outcome, Solution, VarId};

/// The text formats of a grid. See the [module documentation](self).
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

/// Why a text is not a Sudoku grid. Lines and columns count from 1; columns count characters.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseError {
    /// Nothing but blanks.
    #[error("the input is empty")]
    Empty,
    /// The input is not UTF-8 text.
    #[error("line {line}, column {column}: the input is not valid UTF-8 text")]
    NotText {
        /// Line of the first invalid byte.
        line: usize,
        /// Column (in characters) of the first invalid byte.
        column: usize,
    },
    /// The grid size is not one of 4, 9, 16, 25, 36 (or 4, 9, 16, 25 for compact and line).
    #[error("line {line}: {found} is not a supported grid size ({expected})")]
    UnsupportedSize {
        /// The line where the size was read.
        line: usize,
        /// The size found (rows, cells in a row, or cells on the line).
        found: usize,
        /// The sizes this format accepts, in words.
        expected: &'static str,
    },
    /// A row has the wrong number of cells.
    #[error("line {line}: expected {expected} cells, found {found}")]
    WrongRowLength {
        /// The line of the row.
        line: usize,
        /// Cells expected.
        expected: usize,
        /// Cells found.
        found: usize,
    },
    /// The grid has the wrong number of rows.
    #[error("line {line}: expected {expected} rows, found {found}")]
    WrongRowCount {
        /// The line after the last row, or the first line beyond the grid.
        line: usize,
        /// Rows expected.
        expected: usize,
        /// Rows found.
        found: usize,
    },
    /// An empty line between rows.
    #[error("line {line}: empty line inside the grid")]
    EmptyLine {
        /// The empty line.
        line: usize,
    },
    /// More text after a complete grid.
    #[error("line {line}: unexpected text after the grid")]
    TextAfterGrid {
        /// The first line of that text.
        line: usize,
    },
    /// A character that is not a cell symbol.
    #[error("line {line}, column {column}: {character:?} is not a cell symbol ({expected})")]
    InvalidCharacter {
        /// Line of the character.
        line: usize,
        /// Column of the character.
        column: usize,
        /// The character.
        character: char,
        /// The symbols allowed, in words.
        expected: &'static str,
    },
    /// A token of a spaced grid that is not a number.
    #[error("line {line}, column {column}: {token:?} is not a number")]
    InvalidNumber {
        /// Line of the token.
        line: usize,
        /// Column where the token starts.
        column: usize,
        /// The token.
        token: String,
    },
    /// A value larger than the grid size.
    #[error("line {line}, column {column}: value {value} is out of range 0..={max}")]
    ValueOutOfRange {
        /// Line of the value.
        line: usize,
        /// Column where the value starts.
        column: usize,
        /// The value, as written.
        value: String,
        /// The largest value allowed (the grid size).
        max: usize,
    },
    /// The input is larger than any grid could be.
    #[error("the input is longer than {limit} bytes, more than any grid takes")]
    TooLarge {
        /// The largest input accepted, in bytes.
        limit: usize,
    },
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

/// The box sizes supported: 2 (4x4) to 6 (36x36).
pub const BOX_SIZES: std::ops::RangeInclusive<usize> = 2..=6;

/// The largest value a symbol (as opposed to a spaced number) can write: `P` is 25.
const MAX_SYMBOL_VALUE: usize = 25;

/// The longest text [`Grid::parse`] reads (a 36x36 spaced grid takes about 4 KiB).
pub const MAX_INPUT_BYTES: usize = 1 << 20;

/// A Sudoku grid: `N × N` cells, `0` for empty, `1..=N` for a value.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    box_size: usize,
    cells: Vec<u8>,
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

    /// Reads a grid from text, in `format` or, if `None`, the format detected: one non-empty
    /// line, or a first line of 81, 256 or 625 symbols, is the line format; several lines are
    /// spaced if a row has blanks between cells, and compact otherwise. Returns the grid and the
    /// format it was read in.
    ///
    /// The grid is the first run of non-empty lines; an empty line ends it, and only empty
    /// lines may follow.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] naming the line and column of the first problem.
    pub fn parse_with_format(
        text: &str,
        format: Option<GridFormat>,
    ) -> Result<(Grid, GridFormat), ParseError> {
        if text.len() > MAX_INPUT_BYTES {
            return Err(ParseError::TooLarge {
                limit: MAX_INPUT_BYTES,
            });
        }
        let lines = significant_lines(text.strip_prefix(BYTE_ORDER_MARK).unwrap_or(text))?;
        let end = lines.iter().position(|(_, l)| l.is_empty());
        let (grid_lines, rest) = lines.split_at(end.unwrap_or(lines.len()));
        let format = format.unwrap_or_else(|| detect(grid_lines));
        let grid = match format {
            GridFormat::Line => parse_line_format(grid_lines),
            GridFormat::Compact => parse_rows(grid_lines, false),
            GridFormat::Spaced => parse_rows(grid_lines, true),
        };
        // `lines` ends with a non-empty line, so `rest` is empty or holds more text.
        match (grid, rest.first()) {
            (Ok(grid), None) => Ok((grid, format)),
            (Ok(_), Some(_)) => Err(ParseError::TextAfterGrid {
                line: rest.iter().find(|(_, l)| !l.is_empty()).map_or(0, |r| r.0),
            }),
            // Rows are missing and more text follows: the empty line split the grid.
            (
                Err(ParseError::WrongRowCount {
                    expected, found, ..
                }),
                Some(&(line, _)),
            ) if found < expected => Err(ParseError::EmptyLine { line }),
            (Err(ParseError::UnsupportedSize { .. }), Some(&(line, _))) => {
                Err(ParseError::EmptyLine { line })
            }
            (Err(error), _) => Err(error),
        }
    }

    /// Reads a grid from text in `format`, or in the format detected if `None`. See
    /// [`Grid::parse_with_format`].
    ///
    /// # Errors
    ///
    /// A [`ParseError`] naming the line and column of the first problem.
    pub fn parse(text: &str, format: Option<GridFormat>) -> Result<Grid, ParseError> {
        Self::parse_with_format(text, format).map(|(grid, _)| grid)
    }

    /// Reads one grid in the line format from one line of a larger input, numbering errors
    /// with `line`. A byte order mark at the start, and a trailing line ending and blanks, are
    /// ignored. This is how a batch of puzzles, one per line, is read.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] naming `line` and the column of the first problem.
    pub fn parse_line(text: &str, line: usize) -> Result<Grid, ParseError> {
        let text = text.strip_prefix(BYTE_ORDER_MARK).unwrap_or(text);
        let text = text.trim_end_matches([' ', '\t', '\r', '\n']);
        if text.is_empty() {
            return Err(ParseError::Empty);
        }
        if text.len() > MAX_INPUT_BYTES {
            return Err(ParseError::TooLarge {
                limit: MAX_INPUT_BYTES,
            });
        }
        parse_line_format(&[(line, text)])
    }

    /// As [`Grid::parse_line`], from bytes that should be UTF-8 text.
    ///
    /// # Errors
    ///
    /// [`ParseError::NotText`] at the first byte that is not UTF-8, otherwise as
    /// [`Grid::parse_line`].
    pub fn parse_line_bytes(bytes: &[u8], line: usize) -> Result<Grid, ParseError> {
        let text = text_of(bytes).map_err(|(line_offset, column)| ParseError::NotText {
            line: line + line_offset,
            column,
        })?;
        Self::parse_line(text, line)
    }

    /// As [`Grid::parse_with_format`], from bytes that should be UTF-8 text.
    ///
    /// # Errors
    ///
    /// [`ParseError::NotText`] at the first byte that is not UTF-8, otherwise as
    /// [`Grid::parse_with_format`].
    pub fn parse_bytes(
        bytes: &[u8],
        format: Option<GridFormat>,
    ) -> Result<(Grid, GridFormat), ParseError> {
        if bytes.len() > MAX_INPUT_BYTES {
            return Err(ParseError::TooLarge {
                limit: MAX_INPUT_BYTES,
            });
        }
        let text = text_of(bytes).map_err(|(line_offset, column)| ParseError::NotText {
            line: 1 + line_offset,
            column,
        })?;
        Self::parse_with_format(text, format)
    }

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

/// The symbol for a value in the compact and line formats.
fn symbol(value: u8) -> char {
    match value {
        0 => '0',
        1..=9 => char::from(b'0' + value),
        _ => char::from(b'A' + value - 10),
    }
}

/// The byte order mark some editors write at the start of UTF-8 text; it is skipped.
const BYTE_ORDER_MARK: char = '\u{feff}';

/// The symbols allowed, in words, when the grid size is not known yet.
const ANY_SYMBOL: &str = "a digit, '.', or a letter in grids above 9x9";

/// The longest token an error message quotes in full.
const QUOTED_TOKEN_CHARS: usize = 20;

/// `bytes` as text, or the position of the first byte that is not UTF-8: lines after the
/// first, and the column (from 1) in characters.
fn text_of(bytes: &[u8]) -> Result<&str, (usize, usize)> {
    std::str::from_utf8(bytes).map_err(|e| {
        // The prefix up to `valid_up_to` is valid UTF-8 by definition.
        let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
        let valid = valid.strip_prefix(BYTE_ORDER_MARK).unwrap_or(valid);
        let lines = split_lines(valid).count() - 1;
        let last = split_lines(valid).last().unwrap_or_default();
        (lines, last.chars().count() + 1)
    })
}

/// The lines of `text`, split at LF, CRLF or a lone CR, without their line endings.
fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut pieces = text.split('\n').peekable();
    std::iter::from_fn(move || {
        let piece = pieces.next()?;
        // A CR before an LF belongs to that line ending.
        Some(if pieces.peek().is_some() {
            piece.strip_suffix('\r').unwrap_or(piece)
        } else {
            piece
        })
    })
    .flat_map(|piece| piece.split('\r'))
}

/// The lines from the first non-empty one to the last, with their 1-based numbers, without
/// line endings or trailing blanks (so empty lines inside are kept, empty).
fn significant_lines(text: &str) -> Result<Vec<(usize, &str)>, ParseError> {
    let lines: Vec<(usize, &str)> = split_lines(text)
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches([' ', '\t'])))
        .collect();
    let first = lines.iter().position(|(_, l)| !l.is_empty());
    let last = lines.iter().rposition(|(_, l)| !l.is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return Err(ParseError::Empty);
    };
    Ok(lines[first..=last].to_vec())
}

fn detect(lines: &[(usize, &str)]) -> GridFormat {
    // A compact row has at most 25 symbols: a first line of 81, 256 or 625 is a whole grid.
    let first = lines[0].1;
    let whole_grid =
        !first.contains([' ', '\t']) && (3..=5).any(|b: usize| b.pow(4) == first.chars().count());
    if lines.len() == 1 || whole_grid {
        GridFormat::Line
    } else if lines.iter().any(|(_, l)| l.trim().contains([' ', '\t'])) {
        GridFormat::Spaced
    } else {
        GridFormat::Compact
    }
}

fn box_size_of(side: usize) -> Option<usize> {
    BOX_SIZES.clone().find(|b| b * b == side)
}

/// `token` for an error message: cut short if long, so that a huge token makes a short message.
fn quoted(token: &str) -> String {
    match token.char_indices().nth(QUOTED_TOKEN_CHARS) {
        Some((end, _)) => format!("{}…", &token[..end]),
        None => token.to_owned(),
    }
}

/// Whether `c` is a cell symbol in a grid of some size: a digit, `.` or an ASCII letter (the
/// letters beyond `P` are then reported as out of range).
fn may_be_symbol(c: char) -> bool {
    c == '.' || c.is_ascii_alphanumeric()
}

/// The first character of `text`, on `line`, that is not a cell symbol in any grid.
fn foreign_character(line: usize, text: &str) -> Option<ParseError> {
    let (column, character) = (1..).zip(text.chars()).find(|&(_, c)| !may_be_symbol(c))?;
    Some(ParseError::InvalidCharacter {
        line,
        column,
        character,
        expected: ANY_SYMBOL,
    })
}

/// The value of a compact or line symbol in a grid of side `n`.
fn symbol_value(c: char, n: usize, line: usize, column: usize) -> Result<u8, ParseError> {
    let invalid = |expected| ParseError::InvalidCharacter {
        line,
        column,
        character: c,
        expected,
    };
    let value = match c {
        '.' | '0' => return Ok(0),
        '1'..='9' => c as usize - '0' as usize,
        'A'..='Z' | 'a'..='z' if n > 9 => c.to_ascii_uppercase() as usize - 'A' as usize + 10,
        _ if n > 9 => return Err(invalid("a digit, a letter or '.'")),
        _ => return Err(invalid("a digit or '.'")),
    };
    if value > n {
        return Err(ParseError::ValueOutOfRange {
            line,
            column,
            value: c.to_string(),
            max: n,
        });
    }
    Ok(value as u8)
}

fn parse_line_format(lines: &[(usize, &str)]) -> Result<Grid, ParseError> {
    let (line, text) = lines[0];
    if let Some(error) = foreign_character(line, text) {
        return Err(error);
    }
    let count = text.chars().count();
    let Some(box_size) = (2..=5).find(|b: &usize| b.pow(4) == count) else {
        return Err(ParseError::UnsupportedSize {
            line,
            found: count,
            expected: "16, 81, 256 or 625 cells on one line; 36x36 grids take the spaced format",
        });
    };
    let n = box_size * box_size;
    let cells = text
        .chars()
        .enumerate()
        .map(|(i, c)| symbol_value(c, n, line, i + 1))
        .collect::<Result<_, _>>()?;
    if let Some(&(extra, _)) = lines.get(1) {
        return Err(ParseError::TextAfterGrid { line: extra });
    }
    Ok(Grid { box_size, cells })
}

/// The cells of one row: symbols (compact) or numbers (spaced), with their columns.
fn row_cells(text: &str, spaced: bool) -> Vec<(usize, &str)> {
    if spaced {
        let mut tokens = Vec::new();
        let mut start = None;
        for (column, (i, c)) in text.char_indices().enumerate() {
            match (c == ' ' || c == '\t', start) {
                (false, None) => start = Some((column + 1, i)),
                (true, Some((col, s))) => {
                    tokens.push((col, &text[s..i]));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some((col, s)) = start {
            tokens.push((col, &text[s..]));
        }
        tokens
    } else {
        text.char_indices()
            .enumerate()
            .map(|(column, (i, c))| (column + 1, &text[i..i + c.len_utf8()]))
            .collect()
    }
}

fn parse_rows(lines: &[(usize, &str)], spaced: bool) -> Result<Grid, ParseError> {
    let rows: Vec<(usize, Vec<(usize, &str)>)> = lines
        .iter()
        .map(|&(line, text)| (line, row_cells(text, spaced)))
        .collect();
    // A cell that is no symbol or number in any grid is the clearest report, so it comes first.
    for (&(line, text), (_, row)) in lines.iter().zip(&rows) {
        let foreign = if spaced {
            row.iter()
                .find(|(_, token)| !is_number(token))
                .map(|&(column, token)| ParseError::InvalidNumber {
                    line,
                    column,
                    token: quoted(token),
                })
        } else {
            foreign_character(line, text)
        };
        if let Some(error) = foreign {
            return Err(error);
        }
    }
    let supported = |n: usize| box_size_of(n).filter(|_| spaced || n <= MAX_SYMBOL_VALUE);
    // The side is the number of rows if that is a supported size, else the length of the first
    // row (so that a missing or extra row is reported as such).
    let Some((n, box_size)) = [rows.len(), rows[0].1.len()]
        .into_iter()
        .find_map(|n| Some((n, supported(n)?)))
    else {
        return Err(ParseError::UnsupportedSize {
            line: rows[0].0,
            found: rows.len(),
            expected: if spaced {
                "4, 9, 16, 25 or 36 rows"
            } else {
                "4, 9, 16 or 25 rows; 36x36 grids take the spaced format"
            },
        });
    };
    let mut cells = Vec::with_capacity(n * n);
    for (line, row) in rows.iter().take(n) {
        if row.len() != n {
            return Err(ParseError::WrongRowLength {
                line: *line,
                expected: n,
                found: row.len(),
            });
        }
        for &(column, token) in row {
            let value = if spaced {
                number_value(token, n, *line, column)?
            } else {
                let c = token.chars().next().unwrap_or(' ');
                symbol_value(c, n, *line, column)?
            };
            cells.push(value);
        }
    }
    if rows.len() != n {
        let line = rows
            .get(n)
            .map_or_else(|| rows[rows.len() - 1].0 + 1, |r| r.0);
        return Err(ParseError::WrongRowCount {
            line,
            expected: n,
            found: rows.len(),
        });
    }
    Ok(Grid { box_size, cells })
}

/// Whether a spaced token is written as a number: `.`, or decimal digits after an optional
/// sign.
fn is_number(token: &str) -> bool {
    let unsigned = token.strip_prefix(['+', '-']).unwrap_or(token);
    token == "." || (!unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()))
}

/// The value of a spaced token (see [`is_number`]) in a grid of side `n`: `.` is 0.
fn number_value(token: &str, n: usize, line: usize, column: usize) -> Result<u8, ParseError> {
    if token == "." {
        return Ok(0);
    }
    let digits = token.strip_prefix('+').unwrap_or(token);
    match digits.parse::<i64>() {
        Ok(v) if (0..=n as i64).contains(&v) => Ok(v as u8),
        _ => Err(ParseError::ValueOutOfRange {
            line,
            column,
            value: quoted(token),
            max: n,
        }),
    }
}

/// A Sudoku grid as a [`Model`]: one variable per cell, [`AllDifferent`] over every row,
/// column and box, the givens fixed.
#[derive(Debug)]
pub struct Sudoku {
    model: Model,
    cells: Vec<VarId>,
    box_size: usize,
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
        let cells = model.new_vars(n * n, 1..=n as i32)?;
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
        })
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

    /// The lexicographically smallest completion, with the default strategy; `None` if there is
    /// no completion.
    pub fn solve(&self) -> Option<Grid> {
        match self.model.solve() {
            Outcome::Solved(solution) => Some(self.grid_of(&solution)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BAEKJOON_2239: &str = "103000509\n002109400\n000704000\n300502006\n060000050\n\
                                 700803004\n000401000\n009205800\n804000107\n";

    #[test]
    fn compact_spaced_and_line_formats_are_detected() {
        let (g, f) = Grid::parse_with_format(BAEKJOON_2239, None).unwrap();
        assert_eq!((f, g.side(), g.givens()), (GridFormat::Compact, 9, 30));
        let spaced = g.to_text(GridFormat::Spaced).unwrap();
        assert_eq!(spaced.lines().next(), Some("1 0 3 0 0 0 5 0 9"));
        assert_eq!(
            Grid::parse_with_format(&spaced, None).unwrap(),
            (g.clone(), GridFormat::Spaced)
        );
        let line = g.to_text(GridFormat::Line).unwrap();
        assert_eq!(line.len(), 82);
        assert_eq!(
            Grid::parse_with_format(&line, None).unwrap(),
            (g.clone(), GridFormat::Line)
        );
        assert_eq!(g.to_text(GridFormat::Compact).unwrap(), BAEKJOON_2239);
    }

    #[test]
    fn crlf_trailing_blanks_and_surrounding_empty_lines_are_accepted() {
        let messy = format!("\r\n{}\n\n", BAEKJOON_2239.replace('\n', "  \r\n"));
        assert_eq!(Grid::parse(&messy, None), Grid::parse(BAEKJOON_2239, None));
    }

    #[test]
    fn malformed_input_is_reported_with_line_and_column() {
        let err = |text: &str| Grid::parse(text, None).unwrap_err().to_string();
        assert_eq!(err(""), "the input is empty");
        assert_eq!(err(" \n\t\n"), "the input is empty");
        let bad_char = BAEKJOON_2239.replacen("002109400", "0021x9400", 1);
        assert_eq!(
            err(&bad_char),
            "line 2, column 5: 'x' is not a cell symbol (a digit or '.')"
        );
        let short_row = BAEKJOON_2239.replacen("002109400", "00210940", 1);
        assert_eq!(err(&short_row), "line 2: expected 9 cells, found 8");
        let missing_row = BAEKJOON_2239.replacen("002109400\n", "", 1);
        assert_eq!(err(&missing_row), "line 9: expected 9 rows, found 8");
        let gap = BAEKJOON_2239.replacen("002109400\n", "002109400\n\n", 1);
        assert_eq!(err(&gap), "line 3: empty line inside the grid");
        assert_eq!(
            err("1 2 3 4\n3 4 1 2\n2 1 4 5\n4 3 2 1\n"),
            "line 3, column 7: value 5 is out of range 0..=4"
        );
        assert_eq!(
            err("1 2 3 4\n3 4 1 2\n2 1 x 3\n4 3 2 1\n"),
            "line 3, column 5: \"x\" is not a number"
        );
        assert_eq!(
            err("12345"),
            "line 1: 5 is not a supported grid size (16, 81, 256 or 625 cells on one line; \
             36x36 grids take the spaced format)"
        );
        assert!(matches!(
            Grid::parse_bytes(b"12\xff4", None),
            Err(ParseError::NotText { line: 1, column: 3 })
        ));
    }

    #[test]
    fn a_byte_order_mark_and_cr_line_endings_are_accepted() {
        let expected = Grid::parse(BAEKJOON_2239, None);
        let bom = format!("\u{feff}{BAEKJOON_2239}");
        assert_eq!(Grid::parse(&bom, None), expected);
        assert_eq!(
            Grid::parse_bytes(bom.as_bytes(), None).map(|(g, _)| g),
            expected
        );
        assert_eq!(
            Grid::parse(&BAEKJOON_2239.replace('\n', "\r"), None),
            expected
        );
        let line = BAEKJOON_2239.replace('\n', "");
        assert_eq!(
            Grid::parse_line(&format!("\u{feff}{line}\r\n"), 7),
            expected
        );
        // A lone CR ends a line: the bad character is on line 3.
        let mixed = BAEKJOON_2239
            .replacen('\n', "\r", 1)
            .replacen("000704000", "0007x4000", 1);
        assert_eq!(
            Grid::parse(&mixed, None).unwrap_err().to_string(),
            "line 3, column 5: 'x' is not a cell symbol (a digit or '.')"
        );
    }

    #[test]
    fn characters_that_are_no_symbol_are_reported_before_sizes() {
        let err = |text: &str| Grid::parse(text, None).unwrap_err();
        let nul = BAEKJOON_2239.replacen("002109400", "0021\09400", 1);
        assert!(matches!(
            err(&nul),
            ParseError::InvalidCharacter {
                line: 2,
                column: 5,
                character: '\0',
                ..
            }
        ));
        let nul_added = BAEKJOON_2239.replacen("002109400", "0021\x009400", 1);
        assert!(matches!(
            err(&nul_added),
            ParseError::InvalidCharacter {
                line: 2,
                column: 5,
                character: '\0',
                ..
            }
        ));
        let indented = BAEKJOON_2239.replacen("002109400", "  002109400", 1);
        assert!(matches!(
            err(&indented),
            ParseError::InvalidCharacter {
                line: 2,
                column: 1,
                character: ' ',
                ..
            }
        ));
        let spaced_line = "1 2 3 4 3 4 1 2 2 1 4 3 4 3 2 1";
        assert!(matches!(
            err(spaced_line),
            ParseError::InvalidCharacter {
                line: 1,
                column: 2,
                character: ' ',
                ..
            }
        ));
        let wide = "１".repeat(81);
        assert!(matches!(
            err(&wide),
            ParseError::InvalidCharacter {
                line: 1,
                column: 1,
                character: '１',
                ..
            }
        ));
        assert_eq!(
            err("1 2 3 4\n3 4 1 2\n2 1 4 3 x\n4 3 2 1\n").to_string(),
            "line 3, column 9: \"x\" is not a number"
        );
    }

    #[test]
    fn spaced_numbers_may_have_a_plus_sign_leading_zeros_or_a_dot() {
        let plain = Grid::parse("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 0\n", None);
        let written = Grid::parse("+1 02 3 4\n3 4 001 2\n2 1 4 3\n4 3 2 .\n", None);
        assert_eq!(written, plain);
        let err = |text: &str| Grid::parse(text, None).unwrap_err().to_string();
        assert_eq!(
            err("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 -0x\n"),
            "line 4, column 7: \"-0x\" is not a number"
        );
        let huge = format!("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 {}\n", "9".repeat(10_000));
        assert_eq!(
            err(&huge),
            format!(
                "line 4, column 7: value {}… is out of range 0..=4",
                "9".repeat(20)
            )
        );
    }

    #[test]
    fn only_empty_lines_may_follow_the_grid() {
        let err = |text: &str, format| Grid::parse(text, format).unwrap_err().to_string();
        let garbage = format!("{BAEKJOON_2239}\n\nhello\n");
        assert_eq!(
            err(&garbage, None),
            "line 12: unexpected text after the grid"
        );
        let line = BAEKJOON_2239.replace('\n', "");
        assert_eq!(
            err(&format!("{line}\n\n{line}\n"), None),
            "line 3: unexpected text after the grid"
        );
        assert_eq!(
            err(&format!("{line}\n{line}\n"), None),
            "line 2: unexpected text after the grid"
        );
        assert_eq!(
            err(&format!("{line}\n{line}\n"), Some(GridFormat::Line)),
            "line 2: unexpected text after the grid"
        );
        assert_eq!(
            err(BAEKJOON_2239, Some(GridFormat::Line)),
            "line 1: 9 is not a supported grid size (16, 81, 256 or 625 cells on one line; \
             36x36 grids take the spaced format)"
        );
        let first_row_alone = BAEKJOON_2239.replacen('\n', "\n\n", 1);
        assert_eq!(
            err(&first_row_alone, None),
            "line 2: empty line inside the grid"
        );
    }

    #[test]
    fn input_larger_than_any_grid_is_refused_without_parsing() {
        let big = "1".repeat(MAX_INPUT_BYTES + 1);
        let expected = ParseError::TooLarge {
            limit: MAX_INPUT_BYTES,
        };
        assert_eq!(Grid::parse(&big, None), Err(expected.clone()));
        assert_eq!(
            Grid::parse_bytes(big.as_bytes(), None),
            Err(expected.clone())
        );
        assert_eq!(Grid::parse_line(&big, 1), Err(expected));
    }

    #[test]
    fn invalid_utf8_is_located_by_line_and_column() {
        let at = |bytes: &[u8]| match Grid::parse_bytes(bytes, None) {
            Err(ParseError::NotText { line, column }) => (line, column),
            other => panic!("{other:?}"),
        };
        assert_eq!(at(b"\xff"), (1, 1));
        assert_eq!(at(b"12\r\n3\xc3"), (2, 2));
        assert_eq!(at(b"12\r3\xc3"), (2, 2));
        assert_eq!(at(b"12\r\xc3"), (2, 1));
        assert_eq!(at(b"\xef\xbb\xbf\xc3\xa9\x80"), (1, 2));
        assert_eq!(
            Grid::parse_line_bytes(b"..\xff", 40),
            Err(ParseError::NotText {
                line: 40,
                column: 3
            })
        );
    }

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
