//! KenKen (Calcudoku): fill an `n × n` grid with 1 to `n`, each once per row and column, so
//! that the numbers of each cage give its target by its operation: `+` (sum), `x` (product),
//! `-` (difference) and `/` (quotient) of a two-cell cage, the larger by the smaller. A
//! one-cell cage holds its target.
//!
//! # Text format
//!
//! `n` non-blank lines of `n` words, the cage map: each word is the label of the cell's cage
//! (any word without blanks; a cage's cells must touch side by side). Then one line per cage:
//! its label and its clue, the target followed by the operation (`12+`, `2-`, `6x`, `2/`;
//! `*` and `×` are also products, `÷` also a quotient), or the target alone for a one-cell
//! cage. A target of `?` keeps the operation and hides the number (`?+`). The side `n`, 3 to 9,
//! is the number of labels on the first line:
//!
//! ```text
//! A A B
//! C D B
//! C D D
//! A 1-
//! B 3/
//! C 6x
//! D 6+
//! ```
//!
//! # Model and clues
//!
//! One variable per cell (`x[r,c]`), [`AllDifferent`] on each row and column, and one clue
//! variable per cage (in the order of the cages' first cells, row by row): the cell itself for
//! a one-cell cage, the sum ([`Linear`](crate::Linear)), the product ([`Model::product`]), or
//! the difference or quotient of a two-cell cage ([`Table`] of its triples).
//!
//! ```
//! use cspkit::models::genre::Genre;
//! use cspkit::models::kenken::KenKen;
//! use cspkit::puzzle::Limits;
//!
//! let puzzle = KenKen::parse("A A B\nC D B\nC D D\nA 1-\nB 3/\nC 6x\nD 6+\n")?;
//! let solved = puzzle.model()?.solve(puzzle.clues(), &Limits::new())?;
//! assert_eq!(solved.solutions, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::models::genre::{
    Draw, Genre, GenreModel, TextError, cage_label, cage_map, cages_of, lines, parse_cages,
    random_cages,
};
use crate::{AllDifferent, LinearExpr, Model, ModelError, Table, VarId};

/// The largest side.
pub const MAX_SIDE: usize = 9;

/// A cage's operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Operation {
    /// A one-cell cage: the target is the cell's number.
    Given,
    /// The sum of the cells.
    Add,
    /// The difference of two cells, the larger minus the smaller.
    Subtract,
    /// The product of the cells.
    Multiply,
    /// The quotient of two cells, the larger by the smaller (a whole number).
    Divide,
}

impl Operation {
    /// The operation's sign in the text format (`+`, `-`, `x`, `/`; nothing for a given).
    pub fn sign(self) -> &'static str {
        match self {
            Operation::Given => "",
            Operation::Add => "+",
            Operation::Subtract => "-",
            Operation::Multiply => "x",
            Operation::Divide => "/",
        }
    }
}

/// A KenKen puzzle: side, cages with their operations, and the cages' targets as clues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KenKen {
    side: usize,
    cages: Vec<(Vec<usize>, Operation)>,
    clues: Vec<Option<i32>>,
}

impl KenKen {
    /// The side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The cages: their cells (indices row by row) and operations.
    pub fn cages(&self) -> &[(Vec<usize>, Operation)] {
        &self.cages
    }

    fn text(&self) -> String {
        let cells: Vec<Vec<usize>> = self.cages.iter().map(|(c, _)| c.clone()).collect();
        let mut out = cage_map(self.side, &cells);
        for (k, ((_, op), clue)) in self.cages.iter().zip(&self.clues).enumerate() {
            let target = clue.map_or("?".to_owned(), |v| v.to_string());
            out.push_str(&format!("{} {target}{}\n", cage_label(k), op.sign()));
        }
        out
    }
}

/// The triples `(a, b, target)` of two cells from 1 to `n` whose difference or quotient is
/// `target`.
fn pairs(n: i32, op: Operation) -> Vec<[i32; 3]> {
    let mut out = Vec::new();
    for a in 1..=n {
        for b in 1..=n {
            let (high, low) = (a.max(b), a.min(b));
            match op {
                Operation::Subtract if a != b => out.push([a, b, high - low]),
                Operation::Divide if a != b && high % low == 0 => out.push([a, b, high / low]),
                _ => {}
            }
        }
    }
    out
}

impl Genre for KenKen {
    const NAME: &'static str = "kenken";

    fn parse(text: &str) -> Result<Self, TextError> {
        let lines = lines(text)?;
        let (n, cages, words) = parse_cages(&lines, 3..=MAX_SIDE)?;
        let mut out = Vec::with_capacity(cages.len());
        let mut clues = Vec::with_capacity(cages.len());
        for (cells, word) in cages.into_iter().zip(words) {
            let text = word.text;
            let (target, op) = match text.char_indices().last() {
                Some((i, '+')) => (&text[..i], Operation::Add),
                Some((i, '-')) => (&text[..i], Operation::Subtract),
                Some((i, 'x' | '*' | '×')) => (&text[..i], Operation::Multiply),
                Some((i, '/' | '÷')) => (&text[..i], Operation::Divide),
                _ => (text, Operation::Given),
            };
            let size = cells.len();
            match op {
                Operation::Given if size > 1 => {
                    return Err(word.error(format!(
                        "{text:?}: a cage of {size} cells needs an operation (+, -, x or /)"
                    )));
                }
                Operation::Subtract | Operation::Divide if size != 2 => {
                    return Err(word.error(format!(
                        "{text:?}: - and / are for cages of two cells, this one has {size}"
                    )));
                }
                _ => {}
            }
            let value = if target == "?" {
                None
            } else {
                let high = match op {
                    Operation::Given => n as i32,
                    _ => i32::MAX,
                };
                let token = crate::models::genre::Token {
                    text: target,
                    ..word.clone()
                };
                Some(token.number(1, high, "a cage's target")?)
            };
            out.push((cells, op));
            clues.push(value);
        }
        Ok(KenKen {
            side: n,
            cages: out,
            clues,
        })
    }

    fn to_text(&self) -> String {
        self.text()
    }

    fn solution_text(&self, cells: &[i32]) -> String {
        let n = self.side;
        let mut out = String::new();
        for r in 0..n {
            let row: Vec<String> = (0..n)
                .map(|c| {
                    cells
                        .get(r * n + c)
                        .map_or(".".to_owned(), |v| v.to_string())
                })
                .collect();
            out.push_str(&row.join(" "));
            out.push('\n');
        }
        out
    }

    fn model(&self) -> Result<GenreModel, ModelError> {
        let n = self.side;
        let mut model = Model::new();
        let cells = (0..n * n)
            .map(|i| model.new_named_var(format!("x[{},{}]", i / n + 1, i % n + 1), 1..=n as i32))
            .collect::<Result<Vec<VarId>, _>>()?;
        for k in 0..n {
            let row: Vec<VarId> = (0..n).map(|j| cells[k * n + j]).collect();
            let col: Vec<VarId> = (0..n).map(|i| cells[i * n + k]).collect();
            model.post_named(format!("row {}", k + 1), AllDifferent::new(&row))?;
            model.post_named(format!("column {}", k + 1), AllDifferent::new(&col))?;
        }
        let mut clues = Vec::with_capacity(self.cages.len());
        for (k, (members, op)) in self.cages.iter().enumerate() {
            let vars: Vec<VarId> = members.iter().map(|&i| cells[i]).collect();
            let name = format!("cage {}", cage_label(k));
            let clue = match op {
                Operation::Given => vars[0],
                Operation::Add => {
                    let size = vars.len() as i32;
                    let target = model.new_named_var(name.clone(), size..=size * n as i32)?;
                    model.post_named(name, LinearExpr::sum(&vars).eq(target))?;
                    target
                }
                Operation::Multiply => model.product(&vars)?,
                Operation::Subtract | Operation::Divide => {
                    let target = model.new_named_var(name.clone(), 0..=n as i32)?;
                    let table = Table::new(&[vars[0], vars[1], target], pairs(n as i32, *op))?;
                    model.post_named(name, table)?;
                    target
                }
            };
            clues.push(clue);
        }
        let generated = clues.clone();
        Ok(GenreModel::new(model, cells, clues, generated))
    }

    fn clues(&self) -> &[Option<i32>] {
        &self.clues
    }

    fn with_clues(&self, mut clues: Vec<Option<i32>>) -> Self {
        clues.resize(self.cages.len(), None);
        KenKen {
            side: self.side,
            cages: self.cages.clone(),
            clues,
        }
    }

    fn layout(size: usize, seed: u64) -> Result<Self, String> {
        if !(3..=MAX_SIDE).contains(&size) {
            return Err(format!("a KenKen's side is 3 to {MAX_SIDE}"));
        }
        let mut draw = Draw::new(seed);
        let cage = random_cages(size, size, &[1, 2, 2, 2, 3, 3, 4], &mut draw);
        let cages: Vec<(Vec<usize>, Operation)> = cages_of(&cage)
            .into_iter()
            .map(|cells| {
                let op = match cells.len() {
                    1 => Operation::Given,
                    2 => [
                        Operation::Add,
                        Operation::Subtract,
                        Operation::Multiply,
                        Operation::Divide,
                    ][draw.below(4)],
                    _ => [Operation::Add, Operation::Multiply][draw.below(2)],
                };
                (cells, op)
            })
            .collect();
        let clues = vec![None; cages.len()];
        Ok(KenKen {
            side: size,
            cages,
            clues,
        })
    }
}
