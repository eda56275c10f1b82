//! Killer Sudoku: a Sudoku (each of 1 to `n` once per row, column and box) with no givens but
//! cages, whose cells hold different numbers adding up to the cage's sum.
//!
//! # Text format
//!
//! As KenKen's ([`kenken`](super::kenken)): `n` non-blank lines of `n` words, the cage map
//! (each word the label of the cell's cage), then one line per cage, its label and its sum, or
//! `?` for a cage whose sum is hidden. The side `n` is 4 (boxes of 2 × 2) or 9 (3 × 3):
//!
//! ```text
//! A A B B
//! C C D D
//! E F G H
//! E I I H
//! A ?
//! B ?
//! C 6
//! D ?
//! E 5
//! F 1
//! G ?
//! H 3
//! I ?
//! ```
//!
//! # Model and clues
//!
//! One variable per cell (`r1c1` …), [`AllDifferent`] on each row, column and box, and one
//! clue variable per cage (in the order of the cages' first cells): its sum. A cage of up to
//! five cells is one [`Table`] of its fillings with their sums (so propagation knows which
//! combinations make a sum); a larger one an [`AllDifferent`] and a [`Linear`](crate::Linear)
//! sum.
//!
//! ```
//! use cspkit::models::genre::Genre;
//! use cspkit::models::killer_sudoku::KillerSudoku;
//! use cspkit::puzzle::Limits;
//!
//! let text = "A A B B\nC C D D\nE F G H\nE I I H\nA ?\nB ?\nC 6\nD ?\nE 5\nF 1\nG ?\nH 3\nI ?\n";
//! let puzzle = KillerSudoku::parse(text)?;
//! let solved = puzzle.model()?.solve(puzzle.clues(), &Limits::new())?;
//! assert_eq!(solved.solutions, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::models::genre::{
    Draw, Genre, GenreModel, TextError, cage_label, cage_map, cages_of, lines, parse_cages,
    random_cages,
};
use crate::{AllDifferent, LinearExpr, Model, ModelError, Table, VarId};

/// Cages of up to this many cells are one [`Table`] of their fillings and sum; larger ones an
/// [`AllDifferent`] and a sum.
const TABLE_CELLS: usize = 5;

/// Every filling of `size` cells with different numbers 1 to `n`, each followed by its sum.
fn fillings(n: i32, size: usize) -> Vec<Vec<i32>> {
    let mut out = Vec::new();
    let mut row = Vec::with_capacity(size + 1);
    fn extend(n: i32, size: usize, row: &mut Vec<i32>, out: &mut Vec<Vec<i32>>) {
        if row.len() == size {
            let mut tuple = row.clone();
            tuple.push(row.iter().sum());
            out.push(tuple);
            return;
        }
        for v in 1..=n {
            if !row.contains(&v) {
                row.push(v);
                extend(n, size, row, out);
                row.pop();
            }
        }
    }
    extend(n, size, &mut row, &mut out);
    out
}

/// A Killer Sudoku: side, cages, and the cages' sums as clues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KillerSudoku {
    side: usize,
    cages: Vec<Vec<usize>>,
    clues: Vec<Option<i32>>,
}

impl KillerSudoku {
    /// The side, 4 or 9.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The cages: their cells, indices row by row.
    pub fn cages(&self) -> &[Vec<usize>] {
        &self.cages
    }
}

impl Genre for KillerSudoku {
    const NAME: &'static str = "killer";

    fn parse(text: &str) -> Result<Self, TextError> {
        let lines = lines(text)?;
        let (n, cages, words) = parse_cages(&lines, 4..=9)?;
        if n != 4 && n != 9 {
            return Err(TextError::at(
                lines[0][0].line,
                0,
                format!("the first line has {n} labels: a Killer Sudoku's side is 4 or 9"),
            ));
        }
        let mut clues = Vec::with_capacity(cages.len());
        for (cells, word) in cages.iter().zip(&words) {
            if cells.len() > n {
                return Err(word.error(format!(
                    "the cage of this line has {} cells, more than {n} different numbers",
                    cells.len()
                )));
            }
            clues.push(if word.text == "?" {
                None
            } else {
                let most = (n * (n + 1) / 2) as i32;
                Some(word.number(1, most, "a cage's sum")?)
            });
        }
        Ok(KillerSudoku {
            side: n,
            cages,
            clues,
        })
    }

    fn to_text(&self) -> String {
        let mut out = cage_map(self.side, &self.cages);
        for (k, clue) in self.clues.iter().enumerate() {
            let sum = clue.map_or("?".to_owned(), |v| v.to_string());
            out.push_str(&format!("{} {sum}\n", cage_label(k)));
        }
        out
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
        let b = if n == 4 { 2 } else { 3 };
        let mut model = Model::new();
        let cells = (0..n * n)
            .map(|i| model.new_named_var(format!("r{}c{}", i / n + 1, i % n + 1), 1..=n as i32))
            .collect::<Result<Vec<VarId>, _>>()?;
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
        let mut clues = Vec::with_capacity(self.cages.len());
        for (k, members) in self.cages.iter().enumerate() {
            let vars: Vec<VarId> = members.iter().map(|&i| cells[i]).collect();
            let name = format!("cage {}", cage_label(k));
            let size = vars.len() as i32;
            let high = (n as i32 - size + 1..=n as i32).sum::<i32>();
            let sum =
                model.new_named_var(format!("sum of {name}"), size * (size + 1) / 2..=high)?;
            if vars.len() <= TABLE_CELLS {
                // Every way to fill the cage, with its sum: the strongest filtering of the cage.
                let mut scope = vars.clone();
                scope.push(sum);
                model.post_named(name, Table::new(&scope, fillings(n as i32, vars.len()))?)?;
            } else {
                model.post_named(name.clone(), AllDifferent::new(&vars))?;
                model.post_named(name, LinearExpr::sum(&vars).eq(sum))?;
            }
            clues.push(sum);
        }
        let generated = clues.clone();
        Ok(GenreModel::new(model, cells, clues, generated))
    }

    fn clues(&self) -> &[Option<i32>] {
        &self.clues
    }

    fn with_clues(&self, mut clues: Vec<Option<i32>>) -> Self {
        clues.resize(self.cages.len(), None);
        KillerSudoku {
            side: self.side,
            cages: self.cages.clone(),
            clues,
        }
    }

    fn layout(size: usize, seed: u64) -> Result<Self, String> {
        if size != 4 && size != 9 {
            return Err("a Killer Sudoku's side is 4 or 9".to_owned());
        }
        let mut draw = Draw::new(seed);
        let sizes: &[usize] = if size == 4 {
            &[1, 2, 2, 3]
        } else {
            &[2, 2, 3, 3, 4]
        };
        let cages = cages_of(&random_cages(size, size, sizes, &mut draw));
        let clues = vec![None; cages.len()];
        Ok(KillerSudoku {
            side: size,
            cages,
            clues,
        })
    }
}
