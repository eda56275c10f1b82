//! Futoshiki: fill an `n × n` grid with 1 to `n`, each once per row and column, so that every
//! inequality sign between two neighbouring cells holds.
//!
//! # Text format
//!
//! `2n − 1` non-blank lines of words separated by blanks. Lines 1, 3, 5, … are rows: `2n − 1`
//! words, the cells (`.` for an empty cell, or a number 1 to `n`) with a sign between each two
//! (`<`, `>`, or `.` for none). Lines 2, 4, … between two rows hold `n` signs, one below each
//! cell: `^` when the upper cell is the smaller, `v` when it is the larger, `.` for none. The
//! side `n`, 2 to 9, is read from the first line. A 3 × 3 example:
//!
//! ```text
//! 1 . . < .
//! .   .   .
//! . . . . .
//! ^   .   .
//! . . . . .
//! ```
//!
//! # Model and clues
//!
//! One variable per cell (`x[r,c]`, domain `1..=n`), [`AllDifferent`] on each row and column,
//! and for each pair of neighbours a boolean `b ⇔ first < second` (first: the left or upper
//! cell). The clue variables are the cells, row by row, then the signs of the rows (row by row,
//! left to right), then those of the columns; a sign's clue is 1 for `<` (`^`) and 0 for `>`
//! (`v`). The generator gives both numbers and signs.
//!
//! ```
//! use cspkit::models::futoshiki::Futoshiki;
//! use cspkit::models::genre::Genre;
//! use cspkit::puzzle::Limits;
//!
//! let puzzle = Futoshiki::parse("1 . . < .\n. . .\n. . . . .\n^ . .\n. . . . .\n")?;
//! let solved = puzzle.model()?.solve(puzzle.clues(), &Limits::new())?;
//! assert_eq!(solved.solutions, 1);
//! assert_eq!(solved.first, Some(vec![1, 2, 3, 2, 3, 1, 3, 1, 2]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::models::genre::{Genre, GenreModel, TextError, expect_words, lines};
use crate::{AllDifferent, LinearExpr, Model, ModelError, VarId};

/// The largest side.
pub const MAX_SIDE: usize = 9;

/// A Futoshiki puzzle: its side and its clues (numbers, then signs; see the
/// [module](self) for the order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Futoshiki {
    side: usize,
    clues: Vec<Option<i32>>,
}

impl Futoshiki {
    /// An empty puzzle of side `side` (2 to [`MAX_SIDE`]), `None` for another side.
    pub fn empty(side: usize) -> Option<Futoshiki> {
        (2..=MAX_SIDE).contains(&side).then(|| Futoshiki {
            side,
            clues: vec![None; side * side + 2 * side * (side - 1)],
        })
    }

    /// The side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The index among the clues of the sign right of cell `(r, c)`.
    fn row_sign(&self, r: usize, c: usize) -> usize {
        let n = self.side;
        n * n + r * (n - 1) + c
    }

    /// The index among the clues of the sign below cell `(r, c)`.
    fn column_sign(&self, r: usize, c: usize) -> usize {
        let n = self.side;
        n * n + n * (n - 1) + r * n + c
    }

    fn text_with(&self, cell: impl Fn(usize) -> Option<i32>) -> String {
        let n = self.side;
        let mut out = String::new();
        for r in 0..n {
            let mut words = Vec::with_capacity(2 * n);
            for c in 0..n {
                words.push(cell(r * n + c).map_or(".".to_owned(), |v| v.to_string()));
                if c + 1 < n {
                    words.push(
                        match self.clues[self.row_sign(r, c)] {
                            Some(1) => "<",
                            Some(_) => ">",
                            None => ".",
                        }
                        .to_owned(),
                    );
                }
            }
            out.push_str(&words.join(" "));
            out.push('\n');
            if r + 1 < n {
                let signs: Vec<&str> = (0..n)
                    .map(|c| match self.clues[self.column_sign(r, c)] {
                        Some(1) => "^",
                        Some(_) => "v",
                        None => ".",
                    })
                    .collect();
                out.push_str(&signs.join("   "));
                out.push('\n');
            }
        }
        out
    }
}

impl Genre for Futoshiki {
    const NAME: &'static str = "futoshiki";

    fn parse(text: &str) -> Result<Self, TextError> {
        let lines = lines(text)?;
        let words = lines[0].len();
        let n = words.div_ceil(2);
        if words % 2 == 0 || !(2..=MAX_SIDE).contains(&n) {
            return Err(TextError::at(
                lines[0][0].line,
                0,
                format!(
                    "the first row has {words} words: a row of side n has 2n - 1 (cells and \
                     signs), n from 2 to {MAX_SIDE}"
                ),
            ));
        }
        if lines.len() != 2 * n - 1 {
            let line = lines
                .get(2 * n - 1)
                .map_or(lines[lines.len() - 1][0].line + 1, |l| l[0].line);
            return Err(TextError::at(
                line,
                0,
                format!(
                    "the puzzle has {} lines, a side of {n} needs {} (rows and sign lines)",
                    lines.len(),
                    2 * n - 1
                ),
            ));
        }
        let mut puzzle = Futoshiki::empty(n).expect("a side checked above");
        let side = n as i32;
        for r in 0..n {
            let row = expect_words(&lines[2 * r], 2 * n - 1, &format!("row {}", r + 1))?;
            for (k, word) in row.iter().enumerate() {
                let c = k / 2;
                if k % 2 == 0 {
                    if word.text != "." {
                        puzzle.clues[r * n + c] = Some(word.number(1, side, "a cell's number")?);
                    }
                } else {
                    let index = puzzle.row_sign(r, c);
                    puzzle.clues[index] = match word.text {
                        "<" => Some(1),
                        ">" => Some(0),
                        "." => None,
                        other => {
                            return Err(word.error(format!(
                                "{other:?} is not a sign between cells (<, > or .)"
                            )));
                        }
                    };
                }
            }
            if r + 1 < n {
                let signs = expect_words(
                    &lines[2 * r + 1],
                    n,
                    &format!("the sign line below row {}", r + 1),
                )?;
                for (c, word) in signs.iter().enumerate() {
                    let index = puzzle.column_sign(r, c);
                    puzzle.clues[index] = match word.text {
                        "^" => Some(1),
                        "v" => Some(0),
                        "." => None,
                        other => {
                            return Err(word.error(format!(
                                "{other:?} is not a sign between rows (^, v or .)"
                            )));
                        }
                    };
                }
            }
        }
        Ok(puzzle)
    }

    fn to_text(&self) -> String {
        self.text_with(|i| self.clues[i])
    }

    fn solution_text(&self, cells: &[i32]) -> String {
        self.text_with(|i| cells.get(i).copied())
    }

    fn model(&self) -> Result<GenreModel, ModelError> {
        let n = self.side;
        let mut model = Model::new();
        let name = |i: usize| format!("x[{},{}]", i / n + 1, i % n + 1);
        let cells = (0..n * n)
            .map(|i| model.new_named_var(name(i), 1..=n as i32))
            .collect::<Result<Vec<VarId>, _>>()?;
        for k in 0..n {
            let row: Vec<VarId> = (0..n).map(|j| cells[k * n + j]).collect();
            let col: Vec<VarId> = (0..n).map(|i| cells[i * n + k]).collect();
            model.post_named(format!("row {}", k + 1), AllDifferent::new(&row))?;
            model.post_named(format!("column {}", k + 1), AllDifferent::new(&col))?;
        }
        let mut clues = cells.clone();
        let pairs = (0..n)
            .flat_map(|r| (0..n - 1).map(move |c| (r * n + c, r * n + c + 1)))
            .chain((0..n - 1).flat_map(|r| (0..n).map(move |c| (r * n + c, (r + 1) * n + c))));
        for (i, j) in pairs {
            let less = model.new_named_bool(format!("{} < {}", name(i), name(j)))?;
            model.reify_into(LinearExpr::from(cells[i]).lt(cells[j]), less)?;
            clues.push(less.var());
        }
        let generated = clues.clone();
        Ok(GenreModel::new(model, cells, clues, generated))
    }

    fn clues(&self) -> &[Option<i32>] {
        &self.clues
    }

    fn with_clues(&self, mut clues: Vec<Option<i32>>) -> Self {
        clues.resize(self.clues.len(), None);
        Futoshiki {
            side: self.side,
            clues,
        }
    }

    fn layout(size: usize, _seed: u64) -> Result<Self, String> {
        Futoshiki::empty(size).ok_or_else(|| format!("a Futoshiki's side is 2 to {MAX_SIDE}"))
    }
}
