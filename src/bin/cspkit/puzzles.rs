//! `cspkit sudoku --generate | --grade | --explain | --hint | --why`: the library's puzzle
//! module with Sudoku's words.

use std::io::{self, Write};
use std::time::Instant;

use cspkit::models::sudoku::{Grid, GridFormat, Sudoku, Technique};
use cspkit::puzzle::{
    Difficulty, GenerateError, Generator, GradeError, Step, WhyError, minimal_conflict,
};

use crate::args::{DifficultyArg, SudokuArgs};
use crate::{bad_input, exit, load_grid, output_failed};

/// Decisions a search may take when grading, generating or finding a conflict.
const DECISION_LIMIT: u64 = 1_000_000;

/// Runs the puzzle task of `args`; the exit code.
pub fn run(args: &SudokuArgs) -> u8 {
    if let Some(message) = conflict(args) {
        return bad_input(message);
    }
    if args.puzzle.generate {
        return generate(args);
    }
    let (grid, _) = match load_grid(args.file.as_deref(), args.input_format.map(Into::into)) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let empty = match Grid::empty(grid.box_size()).map(|g| Sudoku::new(&g)) {
        Some(Ok(sudoku)) => sudoku,
        _ => return bad_input("cannot build the model of an empty grid of this size"),
    };
    let mut out = io::stdout().lock();
    let written = if args.puzzle.why {
        why(&empty, &grid, &mut out)
    } else if args.puzzle.grade {
        grade(&empty, &grid, &mut out)
    } else {
        explain(&empty, &grid, args.puzzle.hint, &mut out)
    };
    match written {
        Ok(code) => code,
        Err(error) => output_failed(error, exit::SOLVED),
    }
}

/// Options that do not go with a puzzle task.
fn conflict(args: &SudokuArgs) -> Option<String> {
    let task = if args.puzzle.generate {
        "--generate"
    } else if args.puzzle.grade {
        "--grade"
    } else if args.puzzle.explain {
        "--explain"
    } else if args.puzzle.hint {
        "--hint"
    } else {
        "--why"
    };
    let other = [
        (args.batch, "--batch"),
        (args.local.local_search.is_some(), "--local-search"),
        (args.mode.all, "--all"),
        (args.mode.count && !args.puzzle.generate, "--count"),
        (args.show.trace, "--trace"),
        (args.show.step, "--step"),
        (args.show.tree.is_some(), "--tree"),
    ];
    if let Some((_, name)) = other.iter().find(|(set, _)| *set) {
        return Some(format!("{task} cannot be combined with {name}"));
    }
    if args.puzzle.generate && args.file.is_some() && !args.mode.count {
        return Some("--generate makes puzzles: it reads no puzzle file".into());
    }
    None
}

/// `--generate`: puzzles one a line (or grids separated by blank lines), and a summary on
/// standard error.
fn generate(args: &SudokuArgs) -> u8 {
    // `--count M`: the number arrives as the positional argument, since `--count` alone is a
    // flag of the solving modes.
    let count = if args.mode.count {
        let number = args
            .file
            .as_ref()
            .and_then(|f| f.to_str()?.parse::<u64>().ok());
        match number {
            Some(n @ 1..=1_000_000) => n,
            _ => return bad_input("--generate --count needs a number of puzzles, 1 to 1000000"),
        }
    } else {
        1
    };
    let side = args.puzzle.size.unwrap_or(9);
    let box_size = (1..=5).find(|b| b * b == side).unwrap_or(3);
    let format: GridFormat = args.format.map_or(GridFormat::Line, Into::into);
    let Some(Ok(empty)) = Grid::empty(box_size).map(|g| Sudoku::new(&g)) else {
        return bad_input("cannot build the model of an empty grid of this size");
    };
    let cells = empty.cells().to_vec();
    let orbits: Vec<Vec<_>> = (0..cells.len())
        .map(|i| vec![cells[i], cells[cells.len() - 1 - i]])
        .collect();
    // Puzzle `k` of seed `s` is drawn with seed `s·2³² + k`: the puzzles of two seeds differ.
    let seed = args.strategy.seed.unwrap_or(0).wrapping_shl(32);
    let started = Instant::now();
    let mut clue_counts = Vec::new();
    let mut out = io::stdout().lock();
    for k in 0..count {
        let mut generator = Generator::new(empty.model(), &cells)
            .with_seed(seed.wrapping_add(k))
            .with_decision_limit(args.strategy.decision_limit.unwrap_or(DECISION_LIMIT));
        if args.puzzle.symmetric {
            generator = generator.with_symmetry(&orbits);
        }
        if let Some(clues) = args.puzzle.clues {
            generator = generator.with_target_clues(usize::try_from(clues).unwrap_or(usize::MAX));
        }
        if let Some(difficulty) = args.puzzle.difficulty {
            generator = generator.with_difficulty(match difficulty {
                DifficultyArg::Easy => Difficulty::Forward,
                DifficultyArg::Medium => Difficulty::Full,
                DifficultyArg::Hard => Difficulty::Search,
            });
        }
        let puzzle = match generator.generate() {
            Ok(puzzle) => puzzle,
            Err(error @ GenerateError::NotFound { .. }) => {
                note!("cspkit: {error}");
                return exit::STOPPED;
            }
            Err(error) => return bad_input(error),
        };
        clue_counts.push(puzzle.clues.len());
        let text = empty
            .grid_of_clues(&puzzle.clues)
            .to_text(format)
            .unwrap_or_default();
        let separator = if k > 0 && format != GridFormat::Line {
            "\n"
        } else {
            ""
        };
        if let Err(error) = write!(out, "{separator}{text}").and_then(|()| out.flush()) {
            return output_failed(error, exit::SOLVED);
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let (min, max) = (
        clue_counts.iter().min().copied().unwrap_or(0),
        clue_counts.iter().max().copied().unwrap_or(0),
    );
    let mean = clue_counts.iter().sum::<usize>() as f64 / clue_counts.len().max(1) as f64;
    note!(
        "cspkit: {} in {seconds:.3} s ({:.1} a second); clues: min {min}, mean {mean:.2}, max {max}",
        crate::counted(count, "puzzle"),
        count as f64 / seconds.max(1e-9)
    );
    exit::SOLVED
}

/// `--grade`.
fn grade(empty: &Sudoku, grid: &Grid, out: &mut impl Write) -> io::Result<u8> {
    let graded = match empty.grade(grid, DECISION_LIMIT) {
        Ok(graded) => graded,
        Err(GradeError::NoSolution) => {
            writeln!(out, "no solution (--why says which givens clash)")?;
            return Ok(exit::NO_SOLUTION);
        }
        Err(error @ GradeError::LimitReached(_)) => {
            writeln!(out, "{error}")?;
            return Ok(exit::STOPPED);
        }
        Err(error) => return Ok(bad_input(error)),
    };
    let path = empty.explain(grid, true).unwrap_or_default();
    let mut used: Vec<(Technique, usize)> = Vec::new();
    for technique in path.iter().filter_map(|d| d.technique) {
        match used.iter_mut().find(|(t, _)| *t == technique) {
            Some((_, n)) => *n += 1,
            None => used.push((technique, 1)),
        }
    }
    used.sort();
    let hardest = graded
        .hardest
        .map_or(String::new(), |t| format!(" (hardest technique: {t})"));
    writeln!(
        out,
        "difficulty: {}{hardest}",
        graded.grade.difficulty.name()
    )?;
    writeln!(out, "rounds: {}", graded.grade.rounds)?;
    writeln!(out, "decisions: {}", graded.grade.decisions)?;
    let techniques: Vec<String> = used.iter().map(|(t, n)| format!("{t} {n}")).collect();
    writeln!(out, "techniques: {}", techniques.join(", "))?;
    Ok(exit::SOLVED)
}

/// `--explain` and `--hint`.
fn explain(empty: &Sudoku, grid: &Grid, hint: bool, out: &mut impl Write) -> io::Result<u8> {
    let path = match empty.explain(grid, !hint) {
        Ok(path) => path,
        Err(error) => return Ok(bad_input(error)),
    };
    let mut code = exit::SOLVED;
    for deduction in &path {
        writeln!(out, "{}", deduction.text)?;
        if matches!(deduction.step, Step::Contradiction { .. }) {
            code = exit::NO_SOLUTION;
        }
        if hint {
            break;
        }
    }
    Ok(code)
}

/// `--why`.
fn why(empty: &Sudoku, grid: &Grid, out: &mut impl Write) -> io::Result<u8> {
    let clues: Vec<_> = empty.givens(grid).collect();
    let conflict = match minimal_conflict(empty.model(), &clues, DECISION_LIMIT) {
        Ok(conflict) => conflict,
        Err(WhyError::Solvable) => {
            writeln!(out, "the puzzle has a solution: no givens clash")?;
            return Ok(exit::SOLVED);
        }
        Err(error @ WhyError::LimitReached(_)) => {
            writeln!(out, "{error}")?;
            return Ok(exit::STOPPED);
        }
        Err(error) => return Ok(bad_input(error)),
    };
    let model = empty.model();
    let chosen: Vec<_> = conflict.assumptions.iter().map(|&i| clues[i]).collect();
    let names: Vec<String> = chosen
        .iter()
        .map(|&(var, value)| format!("{}={value}", model.var_name(var)))
        .collect();
    let subset = empty.grid_of_clues(&chosen);
    let path = empty.explain(&subset, false).unwrap_or_default();
    let minimal = if conflict.minimal {
        ""
    } else {
        " (not proved minimal: a check reached the decision limit)"
    };
    let givens = format!("givens {}{minimal}", names.join(", "));
    match path.as_slice() {
        [only] => writeln!(out, "{givens}: {}", strip(&only.text))?,
        _ => {
            writeln!(out, "{givens} have no solution:")?;
            for deduction in &path {
                writeln!(out, "  {}", deduction.text)?;
            }
            if path.last().is_some_and(|d| matches!(d.step, Step::Stuck)) {
                writeln!(
                    out,
                    "  (the search proves it: no chain of single-unit deductions does)"
                )?;
            }
        }
    }
    Ok(exit::NO_SOLUTION)
}

/// A contradiction's line without its `contradiction: ` prefix.
fn strip(text: &str) -> &str {
    text.strip_prefix("contradiction: ").unwrap_or(text)
}
