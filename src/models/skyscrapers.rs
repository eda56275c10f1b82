//! Skyscrapers: fill an `n × n` grid with heights 1 to `n`, each once per row and column, so
//! that each number on the edge counts the buildings seen from there along its row or column
//! (a building hides the lower ones behind it).
//!
//! # Text format
//!
//! `n + 2` non-blank lines of `n + 2` words separated by blanks: the first and last lines are
//! the clues seen from the top and from the bottom, the first and last words of the lines
//! between are the clues seen from the left and from the right, and the `n × n` words inside
//! are the cells. A clue is a number 1 to `n` or `.` for none; a cell is `.` or a given
//! height 1 to `n`; the four corners are `.`. The side `n`, 2 to 9, is read from the first line:
//!
//! ```text
//! . 3 2 1 2 .
//! 2 . . . . 2
//! 2 . . . . 2
//! 4 . . . . 1
//! 1 . . . . 4
//! . 1 2 3 2 .
//! ```
//!
//! # Model and clues
//!
//! One variable per cell (`h[r,c]`), [`AllDifferent`] on each row and column, and for each edge
//! clue a variable (1 to `n`) equal to the number of buildings seen: building `i` of a line is
//! seen when it is the tallest so far (`seen ⇔ h = max(h₀, …, hᵢ)`, with [`Model::max`] and
//! [`Model::reify`]). The clue variables are the edge clues (top from left to right, bottom,
//! left from top to bottom, right), then the cells row by row. The generator gives edge clues
//! only; a grid whose edge counts do not tell it from another is redrawn.
//!
//! ```
//! use cspkit::models::genre::Genre;
//! use cspkit::models::skyscrapers::Skyscrapers;
//! use cspkit::puzzle::Limits;
//!
//! let text = ". 3 2 1 2 .\n2 . . . . 2\n2 . . . . 2\n4 . . . . 1\n1 . . . . 4\n. 1 2 3 2 .\n";
//! let puzzle = Skyscrapers::parse(text)?;
//! let solved = puzzle.model()?.solve(puzzle.clues(), &Limits::new())?;
//! assert_eq!(solved.solutions, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::models::genre::{Genre, GenreModel, TextError, expect_words, lines};
use crate::{AllDifferent, LinearExpr, Model, ModelError, VarId};

/// The largest side.
pub const MAX_SIDE: usize = 9;

/// A Skyscrapers puzzle: its side and clues (edges, then cells; see the [module](self)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skyscrapers {
    side: usize,
    clues: Vec<Option<i32>>,
}

impl Skyscrapers {
    /// An empty puzzle of side `side` (2 to [`MAX_SIDE`]), `None` for another side.
    pub fn empty(side: usize) -> Option<Skyscrapers> {
        (2..=MAX_SIDE).contains(&side).then(|| Skyscrapers {
            side,
            clues: vec![None; 4 * side + side * side],
        })
    }

    /// The side.
    pub fn side(&self) -> usize {
        self.side
    }

    fn text_with(&self, cell: impl Fn(usize) -> Option<i32>) -> String {
        let n = self.side;
        let word = |v: Option<i32>| v.map_or(".".to_owned(), |v| v.to_string());
        let edge = |side: usize, k: usize| word(self.clues[side * n + k]);
        let mut out = String::new();
        let border = |out: &mut String, side: usize| {
            let mut words = vec![".".to_owned()];
            words.extend((0..n).map(|k| edge(side, k)));
            words.push(".".to_owned());
            out.push_str(&words.join(" "));
            out.push('\n');
        };
        border(&mut out, 0);
        for r in 0..n {
            let mut words = vec![edge(2, r)];
            words.extend((0..n).map(|c| word(cell(r * n + c))));
            words.push(edge(3, r));
            out.push_str(&words.join(" "));
            out.push('\n');
        }
        border(&mut out, 1);
        out
    }
}

/// Posts "from the start of `line`, `count` buildings are seen".
fn post_seen(model: &mut Model, line: &[VarId], count: VarId) -> Result<(), ModelError> {
    // The first building is always seen: count − 1 of the others are.
    let mut seen = LinearExpr::from(1);
    let mut top = line[0];
    for &height in &line[1..] {
        top = model.max(&[top, height])?;
        let visible = model.reify(LinearExpr::from(height).eq(top))?;
        seen += visible.var();
    }
    model.post(seen.eq(count))?;
    Ok(())
}

impl Genre for Skyscrapers {
    const NAME: &'static str = "skyscrapers";

    fn parse(text: &str) -> Result<Self, TextError> {
        let lines = lines(text)?;
        let words = lines[0].len();
        let n = words.saturating_sub(2);
        if !(2..=MAX_SIDE).contains(&n) {
            return Err(TextError::at(
                lines[0][0].line,
                0,
                format!(
                    "the first line has {words} words: a side of n has n + 2, n from 2 to \
                     {MAX_SIDE}"
                ),
            ));
        }
        if lines.len() != n + 2 {
            let line = lines
                .get(n + 2)
                .map_or(lines[lines.len() - 1][0].line + 1, |l| l[0].line);
            return Err(TextError::at(
                line,
                0,
                format!(
                    "the puzzle has {} lines, a side of {n} needs {}",
                    lines.len(),
                    n + 2
                ),
            ));
        }
        let mut puzzle = Skyscrapers::empty(n).expect("a side checked above");
        let side = n as i32;
        for (r, line) in lines.iter().enumerate() {
            let line = expect_words(line, n + 2, &format!("line {}", r + 1))?;
            for (c, word) in line.iter().enumerate() {
                let border_row = r == 0 || r == n + 1;
                let border_col = c == 0 || c == n + 1;
                if border_row && border_col {
                    if word.text != "." {
                        return Err(word.error(format!(
                            "{:?} in a corner: corners hold no clue, write .",
                            word.text
                        )));
                    }
                    continue;
                }
                if word.text == "." {
                    continue;
                }
                let index = match (r, c) {
                    (0, c) => c - 1,
                    (r, c) if r == n + 1 => n + c - 1,
                    (r, 0) => 2 * n + r - 1,
                    (r, c) if c == n + 1 => 3 * n + r - 1,
                    (r, c) => 4 * n + (r - 1) * n + c - 1,
                };
                let what = if index < 4 * n {
                    "an edge clue"
                } else {
                    "a cell's height"
                };
                puzzle.clues[index] = Some(word.number(1, side, what)?);
            }
        }
        Ok(puzzle)
    }

    fn to_text(&self) -> String {
        self.text_with(|i| self.clues[4 * self.side + i])
    }

    fn solution_text(&self, cells: &[i32]) -> String {
        self.text_with(|i| cells.get(i).copied())
    }

    fn model(&self) -> Result<GenreModel, ModelError> {
        let n = self.side;
        let mut model = Model::new();
        let cells = (0..n * n)
            .map(|i| model.new_named_var(format!("h[{},{}]", i / n + 1, i % n + 1), 1..=n as i32))
            .collect::<Result<Vec<VarId>, _>>()?;
        let row = |r: usize| -> Vec<VarId> { (0..n).map(|c| cells[r * n + c]).collect() };
        let col = |c: usize| -> Vec<VarId> { (0..n).map(|r| cells[r * n + c]).collect() };
        for k in 0..n {
            model.post_named(format!("row {}", k + 1), AllDifferent::new(&row(k)))?;
            model.post_named(format!("column {}", k + 1), AllDifferent::new(&col(k)))?;
        }
        let mut clues = Vec::with_capacity(4 * n + n * n);
        for (side, name) in ["top", "bottom", "left", "right"].into_iter().enumerate() {
            for k in 0..n {
                let mut line = if side < 2 { col(k) } else { row(k) };
                if side % 2 == 1 {
                    line.reverse();
                }
                let count = model.new_named_var(format!("{name}[{}]", k + 1), 1..=n as i32)?;
                post_seen(&mut model, &line, count)?;
                clues.push(count);
            }
        }
        let generated = clues.clone();
        clues.extend_from_slice(&cells);
        Ok(GenreModel::new(model, cells, clues, generated))
    }

    fn clues(&self) -> &[Option<i32>] {
        &self.clues
    }

    fn with_clues(&self, mut clues: Vec<Option<i32>>) -> Self {
        clues.resize(self.clues.len(), None);
        Skyscrapers {
            side: self.side,
            clues,
        }
    }

    fn layout(size: usize, _seed: u64) -> Result<Self, String> {
        Skyscrapers::empty(size).ok_or_else(|| format!("a Skyscrapers' side is 2 to {MAX_SIDE}"))
    }
}
