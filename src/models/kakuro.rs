//! Kakuro: fill the white cells with digits 1 to 9 so that each run of white cells (across or
//! down) holds different digits adding up to the sum in the black cell before it.
//!
//! # Text format
//!
//! A rectangle of non-blank lines, all with the same number of words: `.` is a white cell, `#`
//! a black cell with no sum, and `D\A` a black cell with the sum `D` of the run below it and
//! `A` of the run right of it; either part may be empty (no run there) or `?` (a run whose sum
//! is hidden). A black cell before a run written `#` also hides its sum. The first line and the
//! first column are black; a run has 2 to 9 cells. Generated grids have few 2 × 2 blocks of
//! white cells (such a block often lets two fillings swap digits and keep every sum).
//!
//! ```text
//! #   4\  3\
//! \3  .   .
//! \4  .   .
//! ```
//!
//! # Model and clues
//!
//! One variable per white cell (`x[r,c]`, 1 to 9, row by row), and for each run
//! [`AllDifferent`] and a sum variable ([`Linear`](crate::Linear)). The clue variables are the
//! sums, in the order of their black cells (row by row), the sum down before the sum across.
//!
//! ```
//! use cspkit::models::genre::Genre;
//! use cspkit::models::kakuro::Kakuro;
//! use cspkit::puzzle::Limits;
//!
//! let puzzle = Kakuro::parse("#   4\\  3\\\n\\3  .   .\n\\4  .   .\n")?;
//! let solved = puzzle.model()?.solve(puzzle.clues(), &Limits::new())?;
//! assert_eq!(solved.solutions, 1);
//! assert_eq!(solved.first, Some(vec![1, 2, 3, 1]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::models::genre::{Draw, Genre, GenreModel, TextError, Token, lines};
use crate::{AllDifferent, LinearExpr, Model, ModelError, VarId};

/// The largest side of a generated grid (its first row and column black): runs of at most 9.
pub const MAX_SIDE: usize = 10;

/// A run of white cells and the black cell that holds its sum.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Run {
    /// The black cell, index row by row in the whole grid.
    black: usize,
    /// The white cells, indices in the whole grid.
    cells: Vec<usize>,
}

/// A Kakuro: its white cells and the runs' sums as clues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kakuro {
    rows: usize,
    cols: usize,
    white: Vec<bool>,
    runs: Vec<(Run, bool)>,
    clues: Vec<Option<i32>>,
}

/// The runs of a grid (with `true` for a run down), in the order of their black cells, down
/// before across.
fn runs_of(rows: usize, cols: usize, white: &[bool]) -> Vec<(Run, bool)> {
    let mut runs = Vec::new();
    for black in (0..rows * cols).filter(|&i| !white[i]) {
        let (r, c) = (black / cols, black % cols);
        let down: Vec<usize> = (r + 1..rows)
            .map(|k| k * cols + c)
            .take_while(|&i| white[i])
            .collect();
        let across: Vec<usize> = (c + 1..cols)
            .map(|k| r * cols + k)
            .take_while(|&i| white[i])
            .collect();
        for (cells, is_down) in [(down, true), (across, false)] {
            if !cells.is_empty() {
                runs.push((Run { black, cells }, is_down));
            }
        }
    }
    runs
}

impl Kakuro {
    /// The rows and columns of the whole grid.
    pub fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// Whether each cell (row by row) is white.
    pub fn white(&self) -> &[bool] {
        &self.white
    }

    fn text_with(&self, cell: impl Fn(usize) -> Option<i32>) -> String {
        let mut words: Vec<String> = vec![String::new(); self.rows * self.cols];
        let mut white_index = 0;
        for (i, word) in words.iter_mut().enumerate() {
            if self.white[i] {
                *word = cell(white_index).map_or(".".to_owned(), |v| v.to_string());
                white_index += 1;
            }
        }
        for i in (0..self.rows * self.cols).filter(|&i| !self.white[i]) {
            let part = |down: bool| {
                self.runs
                    .iter()
                    .zip(&self.clues)
                    .find(|((run, d), _)| run.black == i && *d == down)
                    .map(|(_, clue)| clue.map_or("?".to_owned(), |v| v.to_string()))
            };
            words[i] = match (part(true), part(false)) {
                (None, None) => "#".to_owned(),
                (d, a) => format!("{}\\{}", d.unwrap_or_default(), a.unwrap_or_default()),
            };
        }
        let width = words.iter().map(|w| w.chars().count()).max().unwrap_or(1);
        let mut out = String::new();
        for r in 0..self.rows {
            let row: Vec<String> = (0..self.cols)
                .map(|c| format!("{:<width$}", words[r * self.cols + c]))
                .collect();
            out.push_str(row.join(" ").trim_end());
            out.push('\n');
        }
        out
    }

    /// A puzzle of this grid with no clues, or the first run that is too short or too long.
    fn from_white(rows: usize, cols: usize, white: Vec<bool>) -> Result<Kakuro, (usize, String)> {
        let runs = runs_of(rows, cols, &white);
        for (run, down) in &runs {
            if !(2..=9).contains(&run.cells.len()) {
                let way = if *down { "down" } else { "across" };
                return Err((
                    run.black,
                    format!(
                        "the run {way} from here has {} cells, not 2 to 9",
                        run.cells.len()
                    ),
                ));
            }
        }
        let clues = vec![None; runs.len()];
        Ok(Kakuro {
            rows,
            cols,
            white,
            runs,
            clues,
        })
    }
}

impl Genre for Kakuro {
    const NAME: &'static str = "kakuro";

    fn parse(text: &str) -> Result<Self, TextError> {
        let lines = lines(text)?;
        let (rows, cols) = (lines.len(), lines[0].len());
        if rows < 2 || cols < 2 {
            return Err(TextError::at(
                lines[0][0].line,
                0,
                format!("a Kakuro has at least 2 lines of 2 words, this one {rows} of {cols}"),
            ));
        }
        let mut words: Vec<Token<'_>> = Vec::with_capacity(rows * cols);
        for (r, line) in lines.iter().enumerate() {
            crate::models::genre::expect_words(line, cols, &format!("line {}", r + 1))?;
            words.extend(line.iter().cloned());
        }
        let mut white = vec![false; rows * cols];
        for (i, word) in words.iter().enumerate() {
            match word.text {
                "." if i / cols == 0 || i % cols == 0 => {
                    return Err(word.error(
                        "a white cell in the first line or column: they are black (#, or D\\A)",
                    ));
                }
                "." => white[i] = true,
                "#" => {}
                text if text.contains('\\') => {}
                text => {
                    return Err(word.error(format!(
                        "{text:?} is not a Kakuro cell (., #, or D\\A with sums down and across)"
                    )));
                }
            }
        }
        let mut puzzle = Kakuro::from_white(rows, cols, white)
            .map_err(|(cell, message)| words[cell].error(message))?;
        for (i, word) in words.iter().enumerate() {
            let Some((down, across)) = word.text.split_once('\\') else {
                continue;
            };
            let column = word.column;
            for (part, is_down, offset) in
                [(down, true, 0), (across, false, down.chars().count() + 1)]
            {
                let token = Token {
                    text: part,
                    column: column + offset,
                    ..word.clone()
                };
                let run = puzzle
                    .runs
                    .iter()
                    .position(|(run, d)| run.black == i && *d == is_down);
                match (part, run) {
                    ("" | "?", _) => {}
                    (_, None) => {
                        let way = if is_down { "below" } else { "right of" };
                        return Err(
                            token.error(format!("the sum {part:?} has no run {way} its cell"))
                        );
                    }
                    (_, Some(k)) => {
                        let length = puzzle.runs[k].0.cells.len() as i32;
                        let low = length * (length + 1) / 2;
                        let high = (10 - length..=9).sum::<i32>();
                        puzzle.clues[k] = Some(token.number(
                            low,
                            high,
                            &format!("a sum of {length} different digits"),
                        )?);
                    }
                }
            }
        }
        Ok(puzzle)
    }

    fn to_text(&self) -> String {
        self.text_with(|_| None)
    }

    fn solution_text(&self, cells: &[i32]) -> String {
        self.text_with(|i| cells.get(i).copied())
    }

    fn model(&self) -> Result<GenreModel, ModelError> {
        let mut model = Model::new();
        let mut var_of = vec![None; self.rows * self.cols];
        let mut cells = Vec::new();
        for i in (0..self.rows * self.cols).filter(|&i| self.white[i]) {
            let name = format!("x[{},{}]", i / self.cols + 1, i % self.cols + 1);
            let var = model.new_named_var(name, 1..=9)?;
            var_of[i] = Some(var);
            cells.push(var);
        }
        let mut clues = Vec::with_capacity(self.runs.len());
        for (run, down) in &self.runs {
            let vars: Vec<VarId> = run.cells.iter().filter_map(|&i| var_of[i]).collect();
            let way = if *down { "down" } else { "across" };
            let name = format!(
                "{way} from ({},{})",
                run.black / self.cols + 1,
                run.black % self.cols + 1
            );
            model.post_named(name.clone(), AllDifferent::new(&vars))?;
            let length = vars.len() as i32;
            let high = (10 - length..=9).sum::<i32>();
            let sum =
                model.new_named_var(format!("sum {name}"), length * (length + 1) / 2..=high)?;
            model.post_named(name, LinearExpr::sum(&vars).eq(sum))?;
            clues.push(sum);
        }
        let generated = clues.clone();
        Ok(GenreModel::new(model, cells, clues, generated))
    }

    fn clues(&self) -> &[Option<i32>] {
        &self.clues
    }

    fn with_clues(&self, mut clues: Vec<Option<i32>>) -> Self {
        clues.resize(self.runs.len(), None);
        Kakuro {
            clues,
            ..self.clone()
        }
    }

    fn layout(size: usize, seed: u64) -> Result<Self, String> {
        if !(3..=MAX_SIDE).contains(&size) {
            return Err(format!("a Kakuro's side is 3 to {MAX_SIDE}"));
        }
        let mut draw = Draw::new(seed);
        for _ in 0..1000 {
            let mut white: Vec<bool> = (0..size * size)
                .map(|i| i / size > 0 && i % size > 0 && draw.below(5) > 0)
                .collect();
            // A 2 × 2 block of white cells often lets two grids swap digits without changing
            // a sum: black one cell of two blocks in three.
            for i in 0..size * size {
                let (r, c) = (i / size, i % size);
                if r + 1 < size
                    && c + 1 < size
                    && [i, i + 1, i + size, i + size + 1].iter().all(|&k| white[k])
                    && draw.below(3) > 0
                {
                    white[[i, i + 1, i + size, i + size + 1][draw.below(4)]] = false;
                }
            }
            // A white cell alone in its row or column makes a run of one: black it, until none.
            loop {
                let mut changed = false;
                for i in 0..size * size {
                    if !white[i] {
                        continue;
                    }
                    let (r, c) = (i / size, i % size);
                    let across = (c > 0 && white[i - 1]) || (c + 1 < size && white[i + 1]);
                    let down = (r > 0 && white[i - size]) || (r + 1 < size && white[i + size]);
                    if !across || !down {
                        white[i] = false;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            if white.iter().any(|&w| w)
                && let Ok(puzzle) = Kakuro::from_white(size, size, white)
            {
                return Ok(puzzle);
            }
        }
        Err(format!("no Kakuro grid of side {size} drawn in 1000 tries"))
    }
}
