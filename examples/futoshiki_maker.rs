//! Making Futoshiki puzzles with the library's generic generator: a puzzle's clues are given
//! numbers and the signs between neighbouring cells, and the generator removes both while the
//! solution stays unique. Each puzzle is graded and the start of its solving path printed.
//!
//! A sign is a boolean `b ⇔ left < right` (or `top < bottom`) on two cells of one row or
//! column; since the two cells differ, `b = 0` is the sign `>`. The booleans are determined by
//! the cells, so a puzzle unique in its cells is unique in every variable.
//!
//! Run with `cargo run --release --example futoshiki_maker`, or give a size and a seed:
//! `cargo run --release --example futoshiki_maker -- 6 3`.

use cspkit::puzzle::{Difficulty, Explainer, Generator, Puzzle};
use cspkit::{AllDifferent, LinearExpr, Model, ModelError, VarId};

/// A sign between two neighbouring cells (indices row by row) and its boolean,
/// `boolean ⇔ first < second`.
pub type Sign = (usize, usize, VarId);

/// A Futoshiki of side `n` without clues: the model, the cells row by row, and the signs.
pub fn empty_futoshiki(n: usize) -> Result<(Model, Vec<VarId>, Vec<Sign>), ModelError> {
    let mut model = Model::new();
    let side = i32::try_from(n).unwrap_or(i32::MAX);
    let mut cells = Vec::with_capacity(n * n);
    for i in 0..n * n {
        cells.push(model.new_named_var(format!("x[{},{}]", i / n + 1, i % n + 1), 1..=side)?);
    }
    for k in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[k * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|i| cells[i * n + k]).collect();
        model.post_named(format!("row {}", k + 1), AllDifferent::new(&row))?;
        model.post_named(format!("column {}", k + 1), AllDifferent::new(&col))?;
    }
    let mut signs = Vec::new();
    for i in 0..n * n {
        let (r, c) = (i / n, i % n);
        let neighbours = [(c + 1 < n).then(|| i + 1), (r + 1 < n).then(|| i + n)];
        for j in neighbours.into_iter().flatten() {
            let name = |k: usize| format!("x[{},{}]", k / n + 1, k % n + 1);
            let less = model.new_named_bool(format!("{} < {}", name(i), name(j)))?;
            model.reify_into(LinearExpr::from(cells[i]).lt(cells[j]), less)?;
            signs.push((i, j, less.var()));
        }
    }
    Ok((model, cells, signs))
}

/// The puzzle as text: numbers (`.` without one), `<`/`>` between cells of a row, `^`/`v`
/// (the smaller end up) between cells of a column.
pub fn show(n: usize, cells: &[VarId], signs: &[Sign], puzzle: &Puzzle) -> String {
    let clue = |var: VarId| {
        puzzle
            .clues
            .iter()
            .find(|(v, _)| *v == var)
            .map(|&(_, x)| x)
    };
    let sign = |a: usize, b: usize| {
        signs
            .iter()
            .find(|&&(i, j, _)| i == a && j == b)
            .and_then(|&(_, _, s)| clue(s))
    };
    let mut out = String::new();
    for r in 0..n {
        for c in 0..n {
            let i = r * n + c;
            out.push_str(&clue(cells[i]).map_or(".".to_owned(), |v| v.to_string()));
            if c + 1 < n {
                out.push_str(match sign(i, i + 1) {
                    Some(1) => " < ",
                    Some(_) => " > ",
                    None => "   ",
                });
            }
        }
        out.push('\n');
        if r + 1 < n {
            for c in 0..n {
                let i = r * n + c;
                out.push_str(match sign(i, i + n) {
                    Some(1) => "^",
                    Some(_) => "v",
                    None => " ",
                });
                if c + 1 < n {
                    out.push_str("   ");
                }
            }
            out.push('\n');
        }
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(Ok(5), |a| a.parse())?;
    let seed: u64 = args.next().map_or(Ok(1), |a| a.parse())?;
    if !(2..=9).contains(&n) {
        return Err("the side must be 2 to 9".into());
    }
    let (model, cells, signs) = empty_futoshiki(n)?;
    let mut clue_vars = cells.clone();
    clue_vars.extend(signs.iter().map(|&(_, _, s)| s));
    for difficulty in [Difficulty::Forward, Difficulty::Full, Difficulty::Search] {
        let generated = Generator::new(&model, &clue_vars)
            .with_seed(seed)
            .with_difficulty(difficulty)
            .generate();
        let puzzle = match generated {
            Ok(puzzle) => puzzle,
            Err(error) => {
                println!("{}: {error}\n", difficulty.name());
                continue;
            }
        };
        let numbers = puzzle
            .clues
            .iter()
            .filter(|(v, _)| cells.contains(v))
            .count();
        println!(
            "{}: {} numbers and {} signs; grade {} ({} rounds, {} decisions)",
            difficulty.name(),
            numbers,
            puzzle.clues.len() - numbers,
            puzzle.grade.difficulty.name(),
            puzzle.grade.rounds,
            puzzle.grade.decisions
        );
        print!("{}", show(n, &cells, &signs, &puzzle));
        let mut explainer = Explainer::new(&model)
            .with_fixed(&puzzle.clues)?
            .with_guesses_from(puzzle.solution.values());
        println!("the first deductions:");
        for _ in 0..3 {
            if let Some(step) = explainer.next_step() {
                println!("  {}", step.describe(&model));
            }
        }
        println!();
    }
    Ok(())
}
