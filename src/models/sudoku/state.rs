//! [`SudokuState`]: where a player stands in a Sudoku — the givens, the player's own entries
//! and the pencil marks — read from text and written back.
//!
//! The formats are described on [`SudokuState`].

use std::fmt;

use thiserror::Error;

use super::board::{Mask, bit, values};
use super::format::symbol;
use super::grid::Grid;
use super::parse::MAX_INPUT_BYTES;

/// Why a text is not a player's state: the place (lines and columns from 1, columns in
/// characters) and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {message}")]
#[non_exhaustive]
pub struct StateParseError {
    /// The line of the problem.
    pub line: usize,
    /// The column of the problem.
    pub column: usize,
    /// What is wrong, naming the value or character found.
    pub message: String,
}

/// The two formats of a player's state (see [`SudokuState`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StateFormat {
    /// Cell tokens: givens, `+` entries, `.` and `[…]` pencil marks.
    State,
    /// `N³` candidate characters, `N` a cell.
    Sukaku,
}

/// A player's state: givens, entries and pencil marks of an `N × N` Sudoku (4x4 to 25x25).
///
/// Two formats are read, told apart by their content ([`SudokuState::parse`]):
///
/// - **state**: `N²` cell tokens in reading order (`N` the side: 4, 9, 16 or 25), each one
///   of `5` (a given), `+5` (the player's entry), `.` or `0` (an empty cell) and `[124]`
///   (an empty cell's pencil marks). Values are the symbols of the grid formats: `1`-`9`,
///   then `A`-`P` (either case) for 10 to 25 in grids larger than 9x9. Inside brackets the
///   symbols follow each other (`[1AC]`), or, when the brackets hold a comma, they are
///   separated by commas and may be decimal numbers (`[1,10,12]`). Blanks and line breaks
///   between tokens are free; `|` is ignored, as are lines made of `-`, `+` and `|` only
///   (box rules) and lines starting with `#` (comments). An empty cell without marks has
///   every candidate its peers allow.
/// - **sukaku**: `N³` characters (729 for 9x9), `N` for each cell in reading order: the
///   `k`-th is the symbol of `k` if `k` is a candidate of the cell, `.` or `0` if not. A cell
///   with one candidate is filled (a given). Blanks and line breaks are free.
///
/// Marks are the player's: a hint works on them as written, except that a value placed in a
/// cell's row, column or box is no candidate of that cell, marked or not.
///
/// # Examples
///
/// ```
/// use cspkit::models::sudoku::SudokuState;
///
/// let state = SudokuState::parse("1 . . 4\n. [23] 1 .\n. 1 +4 .\n4 . . .\n")?;
/// assert_eq!(state.side(), 4);
/// assert_eq!(state.given(0, 0), 1);
/// assert_eq!(state.entry(2, 2), 4);
/// assert_eq!(state.marks(1, 1), Some(vec![2, 3]));
/// assert_eq!(state.to_string(), "1 . . 4\n. [23] 1 .\n. 1 +4 .\n4 . . .\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SudokuState {
    box_size: usize,
    givens: Vec<u8>,
    entries: Vec<u8>,
    /// The marks of each empty cell, 0 when it has none written.
    marks: Vec<Mask>,
}

/// A character of the text with its place.
#[derive(Debug, Clone, Copy)]
struct Placed {
    ch: char,
    line: usize,
    column: usize,
}

fn error(at: (usize, usize), message: impl Into<String>) -> StateParseError {
    StateParseError {
        line: at.0,
        column: at.1,
        message: message.into(),
    }
}

/// The value of a symbol `1`-`9`, `A`-`P` (either case).
fn symbol_value(ch: char) -> Option<u8> {
    match ch {
        '1'..='9' => Some(ch as u8 - b'0'),
        'A'..='P' => Some(ch as u8 - b'A' + 10),
        'a'..='p' => Some(ch as u8 - b'a' + 10),
        _ => None,
    }
}

/// Whether a line is a box rule (`-`, `+`, `|` and blanks, with a `-`).
fn is_rule(line: &str) -> bool {
    line.contains('-')
        && line
            .chars()
            .all(|c| matches!(c, '-' | '+' | '|') || c.is_whitespace())
}

/// The characters that count, with their places: comments and rules dropped, blanks and `|`
/// outside brackets kept out.
fn characters(text: &str) -> Vec<Placed> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start_matches('\u{feff}').trim();
        if trimmed.starts_with('#') || is_rule(trimmed) {
            continue;
        }
        for (j, ch) in line.chars().enumerate() {
            if ch.is_whitespace() || ch == '|' || ch == '\u{feff}' {
                continue;
            }
            out.push(Placed {
                ch,
                line: i + 1,
                column: j + 1,
            });
        }
    }
    out
}

/// The side of a grid of `cells` cells, if it is one of 4, 9, 16, 25.
fn side_of_cells(cells: usize) -> Option<usize> {
    (2..=5).map(|b| b * b).find(|&n| n * n == cells)
}

/// One cell token before the side is known: the value or marks, and where it starts.
enum Token {
    Empty,
    Given(u8),
    Entry(u8),
    Marks(Vec<u8>),
}

impl SudokuState {
    /// The state of a grid: its filled cells as givens, no entries, no marks.
    pub fn from_grid(grid: &Grid) -> SudokuState {
        let cells = grid.cells().len();
        SudokuState {
            box_size: grid.box_size(),
            givens: grid.cells().to_vec(),
            entries: vec![0; cells],
            marks: vec![0; cells],
        }
    }

    /// Reads a state in either format, telling them apart by content: a text of `N³`
    /// characters (64, 729, 4096 or 15625, blanks aside) made only of symbols, `.` and `0`,
    /// is sukaku; anything else is the state format.
    ///
    /// # Errors
    ///
    /// A [`StateParseError`] naming the line and column of the first problem: a character
    /// that is no token, an unclosed or empty bracket, a value beyond the grid's side, a
    /// wrong number of cells (placed at the end of the text), a sukaku cell without
    /// candidates or with a symbol out of its place.
    pub fn parse(text: &str) -> Result<SudokuState, StateParseError> {
        Self::parse_as(text).map(|(state, _)| state)
    }

    /// As [`SudokuState::parse`], with the format found.
    ///
    /// # Errors
    ///
    /// As [`SudokuState::parse`].
    pub fn parse_as(text: &str) -> Result<(SudokuState, StateFormat), StateParseError> {
        if text.len() > MAX_INPUT_BYTES {
            return Err(error(
                (1, 1),
                format!("the input is longer than {MAX_INPUT_BYTES} bytes"),
            ));
        }
        let chars = characters(text);
        if chars.is_empty() {
            return Err(error((1, 1), "the input is empty"));
        }
        let sukaku = [4usize, 9, 16, 25]
            .iter()
            .any(|&n| n * n * n == chars.len())
            && chars
                .iter()
                .all(|p| p.ch == '.' || p.ch == '0' || symbol_value(p.ch).is_some());
        if sukaku {
            Self::parse_sukaku(&chars).map(|s| (s, StateFormat::Sukaku))
        } else {
            Self::parse_tokens(&chars).map(|s| (s, StateFormat::State))
        }
    }

    fn parse_sukaku(chars: &[Placed]) -> Result<SudokuState, StateParseError> {
        let n = [4usize, 9, 16, 25]
            .into_iter()
            .find(|&n| n * n * n == chars.len())
            .unwrap_or(9);
        let box_size = (2..=5).find(|b| b * b == n).unwrap_or(3);
        let mut state = SudokuState::empty(box_size);
        for (cell, group) in chars.chunks(n).enumerate() {
            let mut mask: Mask = 0;
            for (k, p) in group.iter().enumerate() {
                if p.ch == '.' || p.ch == '0' {
                    continue;
                }
                let want = k as u8 + 1;
                if symbol_value(p.ch) != Some(want) {
                    return Err(error(
                        (p.line, p.column),
                        format!(
                            "{:?} is not a candidate here: character {} of a cell is {:?} or '.'",
                            p.ch,
                            k + 1,
                            symbol(want)
                        ),
                    ));
                }
                mask |= bit(want);
            }
            match mask.count_ones() {
                0 => {
                    let p = group[0];
                    return Err(error(
                        (p.line, p.column),
                        format!(
                            "cell r{}c{} has no candidate (its {n} characters are all '.' or '0')",
                            cell / n + 1,
                            cell % n + 1
                        ),
                    ));
                }
                1 => state.givens[cell] = mask.trailing_zeros() as u8 + 1,
                _ => state.marks[cell] = mask,
            }
        }
        Ok(state)
    }

    fn parse_tokens(chars: &[Placed]) -> Result<SudokuState, StateParseError> {
        let mut tokens: Vec<(Token, (usize, usize))> = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let p = chars[i];
            let at = (p.line, p.column);
            match p.ch {
                '.' | '0' => tokens.push((Token::Empty, at)),
                '+' => {
                    let value = chars.get(i + 1).and_then(|q| {
                        (q.line == p.line && q.column == p.column + 1)
                            .then(|| symbol_value(q.ch))
                            .flatten()
                    });
                    let Some(value) = value else {
                        return Err(error(at, "'+' must be followed by a value, as in +5"));
                    };
                    i += 1;
                    tokens.push((Token::Entry(value), at));
                }
                '[' => {
                    let close = chars[i + 1..]
                        .iter()
                        .position(|q| q.ch == ']' || q.ch == '[')
                        .map(|k| i + 1 + k);
                    let Some(close) = close.filter(|&k| chars[k].ch == ']') else {
                        return Err(error(at, "'[' is not closed by ']'"));
                    };
                    let marks = Self::parse_marks(&chars[i + 1..close], at)?;
                    i = close;
                    tokens.push((Token::Marks(marks), at));
                }
                ch => match symbol_value(ch) {
                    Some(v) => tokens.push((Token::Given(v), at)),
                    None => {
                        return Err(error(
                            at,
                            format!(
                                "{ch:?} is not a cell: give a value (5), an entry (+5), '.' or marks ([124])"
                            ),
                        ));
                    }
                },
            }
            i += 1;
        }
        let Some(n) = side_of_cells(tokens.len()) else {
            let end = chars.last().map_or((1, 1), |p| (p.line, p.column));
            return Err(error(
                end,
                format!(
                    "{} cells: a state has 16, 81, 256 or 625 (4x4 to 25x25), or is sukaku (64, 729, 4096 or 15625 candidate characters)",
                    tokens.len()
                ),
            ));
        };
        let box_size = (2..=5).find(|b| b * b == n).unwrap_or(3);
        let mut state = SudokuState::empty(box_size);
        let check = |v: u8, at: (usize, usize)| {
            if usize::from(v) > n {
                Err(error(
                    at,
                    format!("value {v} is out of range 1..={n} of a {n}x{n} grid"),
                ))
            } else {
                Ok(v)
            }
        };
        for (cell, (token, at)) in tokens.into_iter().enumerate() {
            match token {
                Token::Empty => {}
                Token::Given(v) => state.givens[cell] = check(v, at)?,
                Token::Entry(v) => state.entries[cell] = check(v, at)?,
                Token::Marks(list) => {
                    for v in list {
                        state.marks[cell] |= bit(check(v, at)?);
                    }
                }
            }
        }
        Ok(state)
    }

    /// The values inside `[…]`: symbols one after another, or items separated by commas
    /// (symbols or decimal numbers).
    fn parse_marks(inner: &[Placed], at: (usize, usize)) -> Result<Vec<u8>, StateParseError> {
        if inner.is_empty() {
            return Err(error(
                at,
                "empty pencil marks []: an empty cell keeps at least one candidate",
            ));
        }
        let mut out = Vec::new();
        if inner.iter().any(|p| p.ch == ',') {
            for item in inner.split(|p| p.ch == ',') {
                let Some(first) = item.first() else {
                    return Err(error(at, "an empty item between commas in pencil marks"));
                };
                let word: String = item.iter().map(|p| p.ch).collect();
                let value = if word.chars().all(|c| c.is_ascii_digit()) {
                    word.parse::<u8>().ok().filter(|&v| v >= 1)
                } else if word.chars().count() == 1 {
                    symbol_value(first.ch)
                } else {
                    None
                };
                match value {
                    Some(v) => out.push(v),
                    None => {
                        return Err(error(
                            (first.line, first.column),
                            format!("{word:?} is not a value (a number from 1 or a symbol)"),
                        ));
                    }
                }
            }
        } else {
            for p in inner {
                match symbol_value(p.ch) {
                    Some(v) => out.push(v),
                    None => {
                        return Err(error(
                            (p.line, p.column),
                            format!(
                                "{:?} is not a value in pencil marks (1-9, A-P, or numbers separated by commas)",
                                p.ch
                            ),
                        ));
                    }
                }
            }
        }
        Ok(out)
    }

    /// An empty state: no givens, entries or marks.
    fn empty(box_size: usize) -> SudokuState {
        let cells = box_size.pow(4);
        SudokuState {
            box_size,
            givens: vec![0; cells],
            entries: vec![0; cells],
            marks: vec![0; cells],
        }
    }

    /// The side `N` (4, 9, 16 or 25).
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    /// The box size `b` (`N = b²`).
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    fn index(&self, row: usize, col: usize) -> usize {
        let n = self.side();
        assert!(
            row < n && col < n,
            "cell ({row}, {col}) is outside a {n}x{n} grid"
        );
        row * n + col
    }

    /// The given of the cell in row `row`, column `col` (from 0), 0 if none.
    ///
    /// # Panics
    ///
    /// If the cell is outside the grid.
    pub fn given(&self, row: usize, col: usize) -> u8 {
        self.givens[self.index(row, col)]
    }

    /// The player's entry in a cell (from 0), 0 if none.
    ///
    /// # Panics
    ///
    /// If the cell is outside the grid.
    pub fn entry(&self, row: usize, col: usize) -> u8 {
        self.entries[self.index(row, col)]
    }

    /// The value of a cell (from 0): its given, else the player's entry, else 0.
    ///
    /// # Panics
    ///
    /// If the cell is outside the grid.
    pub fn value(&self, row: usize, col: usize) -> u8 {
        let i = self.index(row, col);
        if self.givens[i] != 0 {
            self.givens[i]
        } else {
            self.entries[i]
        }
    }

    /// The pencil marks written in an empty cell (from 0), ascending; `None` if none are
    /// written (or the cell is filled).
    ///
    /// # Panics
    ///
    /// If the cell is outside the grid.
    pub fn marks(&self, row: usize, col: usize) -> Option<Vec<u8>> {
        let i = self.index(row, col);
        (self.givens[i] == 0 && self.entries[i] == 0 && self.marks[i] != 0)
            .then(|| values(self.marks[i]).collect())
    }

    /// The grid of the givens.
    pub fn givens(&self) -> Grid {
        Grid {
            box_size: self.box_size,
            cells: self.givens.clone(),
        }
    }

    /// The grid of the givens and the player's entries.
    pub fn filled(&self) -> Grid {
        Grid {
            box_size: self.box_size,
            cells: self
                .givens
                .iter()
                .zip(&self.entries)
                .map(|(&g, &e)| if g != 0 { g } else { e })
                .collect(),
        }
    }

    /// Writes the player's entry `value` in a cell (from 0), or clears it with 0; `false`
    /// (and nothing changed) if the cell is given, outside the grid or the value beyond the
    /// side.
    pub fn set_entry(&mut self, row: usize, col: usize, value: u8) -> bool {
        let n = self.side();
        if row >= n || col >= n || usize::from(value) > n {
            return false;
        }
        let i = row * n + col;
        if self.givens[i] != 0 {
            return false;
        }
        self.entries[i] = value;
        if value != 0 {
            self.marks[i] = 0;
        }
        true
    }

    /// Writes the pencil marks of an empty cell (from 0), or clears them with an empty
    /// slice; `false` (and nothing changed) if the cell is filled or outside the grid, or a
    /// value is 0 or beyond the side.
    pub fn set_marks(&mut self, row: usize, col: usize, marks: &[u8]) -> bool {
        let n = self.side();
        if row >= n || col >= n || marks.iter().any(|&v| v == 0 || usize::from(v) > n) {
            return false;
        }
        if self.givens[row * n + col] != 0 || self.entries[row * n + col] != 0 {
            return false;
        }
        self.marks[row * n + col] = marks.iter().fold(0, |m, &v| m | bit(v));
        true
    }

    /// The candidates of each cell as the hints see them: none for a filled cell; for an
    /// empty one, its marks (every value if none) less the values placed in its peers.
    pub(crate) fn candidates(&self) -> (Vec<u8>, Vec<Mask>) {
        let filled = self.filled().cells;
        let n = self.side();
        let b = self.box_size;
        let all: Mask = (1 << n) - 1;
        let cand = (0..n * n)
            .map(|cell| {
                if filled[cell] != 0 {
                    return 0;
                }
                let (r, c) = (cell / n, cell % n);
                let mut seen: Mask = 0;
                for k in 0..n {
                    let box_cell = (r / b * b + k / b) * n + c / b * b + k % b;
                    for other in [r * n + k, k * n + c, box_cell] {
                        if filled[other] != 0 {
                            seen |= bit(filled[other]);
                        }
                    }
                }
                let marks = if self.marks[cell] == 0 {
                    all
                } else {
                    self.marks[cell]
                };
                marks & !seen
            })
            .collect();
        (filled, cand)
    }

    /// The state in the sukaku format: one line of `N³` characters. Entries are written as
    /// filled cells, like givens (sukaku tells them apart no more than it has marks for a
    /// filled cell), and an empty cell without marks shows every candidate its peers allow.
    pub fn to_sukaku(&self) -> String {
        let (filled, cand) = self.candidates();
        let n = self.side();
        let mut out = String::with_capacity(n * n * n + 1);
        for cell in 0..n * n {
            let mask = if filled[cell] != 0 {
                bit(filled[cell])
            } else {
                cand[cell]
            };
            for k in 1..=n as u8 {
                out.push(if mask & bit(k) != 0 { symbol(k) } else { '.' });
            }
        }
        out.push('\n');
        out
    }
}

/// The state format: a line a row, cells separated by a blank (`5`, `+5`, `.`, `[124]`).
impl fmt::Display for SudokuState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.side();
        for row in 0..n {
            for col in 0..n {
                if col > 0 {
                    f.write_str(" ")?;
                }
                let i = row * n + col;
                if self.givens[i] != 0 {
                    write!(f, "{}", symbol(self.givens[i]))?;
                } else if self.entries[i] != 0 {
                    write!(f, "+{}", symbol(self.entries[i]))?;
                } else if self.marks[i] != 0 {
                    let marks: String = values(self.marks[i]).map(symbol).collect();
                    write!(f, "[{marks}]")?;
                } else {
                    f.write_str(".")?;
                }
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}
