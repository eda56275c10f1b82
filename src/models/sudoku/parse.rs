//! Reading a [`Grid`] from text: format detection, the three formats, and the [`ParseError`]
//! naming the line and column of the first problem.

use thiserror::Error;

use super::format::{GridFormat, MAX_SYMBOL_VALUE};
use super::grid::{BOX_SIZES, Grid};

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

/// The longest text [`Grid::parse`] reads (a 36x36 spaced grid takes about 4 KiB).
pub const MAX_INPUT_BYTES: usize = 1 << 20;

impl Grid {
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
            // The rows so far happen to be as many as a smaller grid has, but are longer than
            // its rows, and more text follows: the empty line split the grid.
            (
                Err(ParseError::WrongRowLength {
                    expected, found, ..
                }),
                Some(&(line, _)),
            ) if found > expected && grid_lines.len() == expected => {
                Err(ParseError::EmptyLine { line })
            }
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
    /// with `line`. A byte order mark at the start, blanks around the grid and the line ending
    /// are ignored (columns in errors still count them). This is how a batch of puzzles, one
    /// per line, is read.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] naming `line` and the column of the first problem.
    pub fn parse_line(text: &str, line: usize) -> Result<Grid, ParseError> {
        let text = text.strip_prefix(BYTE_ORDER_MARK).unwrap_or(text);
        let text = text.trim_end_matches([' ', '\t', '\r', '\n']);
        let trimmed = text.trim_start_matches([' ', '\t']);
        // Blanks are one byte, one character, one column each.
        let lead = text.len() - trimmed.len();
        if trimmed.is_empty() {
            return Err(ParseError::Empty);
        }
        if trimmed.len() > MAX_INPUT_BYTES {
            return Err(ParseError::TooLarge {
                limit: MAX_INPUT_BYTES,
            });
        }
        parse_line_format(&[(line, trimmed)]).map_err(|mut error| {
            if let ParseError::InvalidCharacter { column, .. }
            | ParseError::InvalidNumber { column, .. }
            | ParseError::ValueOutOfRange { column, .. } = &mut error
            {
                *column += lead;
            }
            error
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::sudoku::BAEKJOON_2239;

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
        // Four rows before the gap: as many as a 4x4 grid has, but 9 cells long.
        let gap = BAEKJOON_2239.replacen("300502006\n", "300502006\n\n", 1);
        assert_eq!(err(&gap), "line 5: empty line inside the grid");
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
    fn a_line_grid_may_have_blanks_on_either_side_and_columns_still_count_them() {
        let line = BAEKJOON_2239.replace('\n', "");
        let expected = Grid::parse_line(&line, 1);
        assert!(expected.is_ok());
        assert_eq!(Grid::parse_line(&format!("  \t{line}"), 1), expected);
        assert_eq!(Grid::parse_line(&format!(" {line} \t\r\n"), 1), expected);
        // The third character of the grid, after two blanks.
        let bad = format!("  {}", line.replacen('3', "x", 1));
        assert_eq!(
            Grid::parse_line(&bad, 4).unwrap_err().to_string(),
            "line 4, column 5: 'x' is not a cell symbol (a digit or '.')"
        );
        assert_eq!(Grid::parse_line(" \t ", 1), Err(ParseError::Empty));
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
}
