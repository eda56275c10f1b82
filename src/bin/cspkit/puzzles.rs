//! `cspkit sudoku --generate | --grade | --explain | --hint | --why`: the library's puzzle
//! module with Sudoku's words.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Instant;

use cspkit::Limit;
use cspkit::models::sudoku::{Grid, GridFormat, Mistake, Sudoku, SudokuState};
use cspkit::puzzle::{
    ConflictGoal, ConflictOptions, Difficulty, GenerateError, Generator, GradeError, Limits,
    MinimalConflict, Optimality, WhyError, smallest_conflict,
};

use crate::args::{DifficultyArg, SudokuArgs};
use crate::input::{load_grid, read_input};
use crate::limits::interrupt;
use crate::output::{bad_input, exit, output_failed};

/// Decisions a search may take when grading, generating or finding a conflict.
const DECISION_LIMIT: u64 = 1_000_000;

/// Decisions a uniqueness check may take while `--generate` removes clues from a grid of side
/// `side`, unless `--decision-limit` says: a check that reaches it keeps its clue. Proofs of
/// uniqueness of near-minimal 25x25 grids can take millions of decisions; with a hundred, a
/// 25x25 puzzle takes seconds and keeps a few more clues.
fn check_decision_limit(side: usize) -> u64 {
    match side {
        25 => 100,
        16 => 10_000,
        _ => DECISION_LIMIT,
    }
}

/// The limits of a puzzle task: `--decision-limit` (each search), `--time-limit` (the whole
/// task) and Ctrl-C.
fn limits(args: &SudokuArgs) -> Limits {
    let mut limits = Limits::new()
        .with_decision_limit(args.strategy.decision_limit.unwrap_or(DECISION_LIMIT))
        .with_cancel_flag(Arc::clone(interrupt()));
    if let Some(time) = args.strategy.time_limit {
        limits = limits.with_time_limit(time);
    }
    limits
}

/// The note and exit code of a task that a limit stopped.
fn stopped(task: &str, limit: Limit, what: &str) -> u8 {
    note!("cspkit: {task} stopped ({}){what}", limit_words(limit));
    exit::STOPPED
}

/// A limit in words, naming the option that set it.
fn limit_words(limit: Limit) -> String {
    match limit {
        Limit::Time => "time limit reached, --time-limit".to_owned(),
        Limit::Decisions => "decision limit reached, --decision-limit".to_owned(),
        Limit::Cancelled => "interrupted".to_owned(),
        other => other.to_string(),
    }
}

/// Runs the puzzle task of `args`; the exit code.
pub fn run(args: &SudokuArgs) -> u8 {
    if let Some(message) = conflict(args) {
        return bad_input(message);
    }
    if args.puzzle.generate {
        return generate(args);
    }
    if args.puzzle.state {
        return from_state(args);
    }
    let (grid, _) = match load_grid(args.file.as_deref(), args.input_format.map(Into::into)) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let empty = match Grid::empty(grid.box_size()).map(|g| Sudoku::new(&g)) {
        Some(Ok(sudoku)) => sudoku.with_uniqueness(args.puzzle.uniqueness),
        _ => return bad_input("cannot build the model of an empty grid of this size"),
    };
    let mut out = io::stdout().lock();
    let limits = limits(args);
    let written = if args.puzzle.why {
        why(&empty, &grid, &limits, &mut out)
    } else if args.puzzle.grade {
        grade(&empty, &grid, &limits, &mut out)
    } else {
        explain(&empty, &grid, args.puzzle.hint, &limits, &mut out)
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
    if args.puzzle.state && !(args.puzzle.hint || args.puzzle.explain) {
        return Some(format!(
            "--state goes with --hint or --explain, not {task} (give the puzzle's givens alone to {task})"
        ));
    }
    if args.puzzle.uniqueness && !(args.puzzle.grade || args.puzzle.state) {
        return Some(format!(
            "--uniqueness goes with --grade or --state (the human techniques), not {task}"
        ));
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
    if let Some(clues) = args.puzzle.clues
        && !(1..=(side * side) as u64).contains(&clues)
    {
        return bad_input(format!(
            "--clues {clues}: a {side}x{side} grid has {} cells; K must be 1 to {}",
            side * side,
            side * side
        ));
    }
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
    let flag = interrupt();
    let mut clue_counts = Vec::new();
    let mut out = io::stdout().lock();
    let mut stopped_by = None;
    for k in 0..count {
        let mut generator = Generator::new(empty.model(), &cells)
            .with_seed(seed.wrapping_add(k))
            .with_decision_limit(args.strategy.decision_limit.unwrap_or(DECISION_LIMIT))
            .with_check_decision_limit(
                args.strategy
                    .decision_limit
                    .unwrap_or_else(|| check_decision_limit(side)),
            )
            .with_cancel_flag(Arc::clone(flag));
        if let Some(time) = args.strategy.time_limit {
            generator = generator.with_time_limit(time.saturating_sub(started.elapsed()));
        }
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
            Err(GenerateError::NotFound {
                attempts, reason, ..
            }) => {
                note!(
                    "cspkit: no puzzle{} in {attempts} attempts: {reason}",
                    wanted(args)
                );
                return exit::STOPPED;
            }
            Err(GenerateError::LimitReached(limit)) => {
                stopped_by = Some(limit);
                break;
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
    let made = clue_counts.len() as u64;
    let seconds = started.elapsed().as_secs_f64();
    let (min, max) = (
        clue_counts.iter().min().copied().unwrap_or(0),
        clue_counts.iter().max().copied().unwrap_or(0),
    );
    let mean = clue_counts.iter().sum::<usize>() as f64 / clue_counts.len().max(1) as f64;
    let summary = if made > 0 {
        format!("; clues: min {min}, mean {mean:.2}, max {max}")
    } else {
        String::new()
    };
    note!(
        "cspkit: {} in {seconds:.3} s ({:.1} a second){summary}",
        crate::output::counted(made, "puzzle"),
        made as f64 / seconds.max(1e-9)
    );
    match stopped_by {
        Some(limit) => stopped(
            "--generate",
            limit,
            &format!(
                " after {} of {count}",
                crate::output::counted(made, "puzzle")
            ),
        ),
        None => exit::SOLVED,
    }
}

/// What `--generate` was asked for, in the options' words: ` of difficulty hard, with at
/// most 30 clues`, or nothing.
fn wanted(args: &SudokuArgs) -> String {
    let mut parts = Vec::new();
    if let Some(difficulty) = args.puzzle.difficulty {
        let name = match difficulty {
            DifficultyArg::Easy => "easy",
            DifficultyArg::Medium => "medium",
            DifficultyArg::Hard => "hard",
        };
        parts.push(format!("of difficulty {name}"));
    }
    if let Some(clues) = args.puzzle.clues {
        parts.push(format!("with at most {clues} clues"));
    }
    if args.puzzle.symmetric {
        parts.push("symmetric".to_owned());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" {}", parts.join(", "))
    }
}

/// `--grade`.
fn grade(empty: &Sudoku, grid: &Grid, limits: &Limits, out: &mut impl Write) -> io::Result<u8> {
    let graded = match empty.grade_within(grid, limits) {
        Ok(graded) => graded,
        Err(GradeError::NoSolution) => {
            writeln!(out, "no solution (--why says which givens clash)")?;
            return Ok(exit::NO_SOLUTION);
        }
        Err(GradeError::LimitReached(limit)) => {
            return Ok(stopped("--grade", limit, ": no grade"));
        }
        Err(error) => return Ok(bad_input(error)),
    };
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
    let techniques: Vec<String> = graded
        .techniques
        .iter()
        .map(|(t, n)| format!("{t} {n}"))
        .collect();
    writeln!(out, "techniques: {}", techniques.join(", "))?;
    // The rating by human techniques, on grids up to 9x9 (larger ones take too long).
    if grid.side() <= 9 {
        match empty.rate_within(grid, limits) {
            Ok(rating) => {
                let hardest = rating
                    .hardest
                    .map_or(String::new(), |t| format!("; hardest step: {t}"));
                writeln!(
                    out,
                    "rating: {:.1} (Sudoku Explainer scale{hardest})",
                    rating.rating
                )?;
                writeln!(out, "level: {} (technique ladder)", rating.level)?;
            }
            Err(GradeError::LimitReached(limit)) => {
                return Ok(stopped("--grade", limit, ": no rating"));
            }
            Err(error) => return Ok(bad_input(error)),
        }
    }
    match graded.several_solutions {
        Some(false) => writeln!(out, "solutions: 1")?,
        Some(true) => {
            writeln!(
                out,
                "solutions: several (a proper puzzle has one; the path guesses one of them)"
            )?;
            note!("cspkit: the puzzle has several solutions");
        }
        None => {
            writeln!(out, "solutions: at least 1 (the count stopped at a limit)")?;
            note!(
                "cspkit: --grade: a limit stopped the count of solutions: whether the solution is unique is not known"
            );
            return Ok(exit::STOPPED);
        }
    }
    Ok(exit::SOLVED)
}

/// `--explain` and `--hint`.
fn explain(
    empty: &Sudoku,
    grid: &Grid,
    hint: bool,
    limits: &Limits,
    out: &mut impl Write,
) -> io::Result<u8> {
    let explained = match empty.explain_within(grid, !hint, limits) {
        Ok(explained) => explained,
        Err(error) => return Ok(bad_input(error)),
    };
    let lines = if hint { 1 } else { explained.path.len() };
    for deduction in explained.path.iter().take(lines) {
        writeln!(out, "{}", deduction.text)?;
    }
    let task = if hint { "--hint" } else { "--explain" };
    if explained.no_solution() {
        note!("cspkit: no solution (--why says which givens clash)");
        return Ok(exit::NO_SOLUTION);
    }
    warn_if_several(empty, grid, limits, task);
    if let Some(limit) = explained.stopped_by() {
        return Ok(stopped(
            task,
            limit,
            ": whether the puzzle has a solution is not known",
        ));
    }
    Ok(exit::SOLVED)
}

/// The time `--why` may spend looking for fewer givens than the irreducible set, unless
/// `--time-limit` says.
const WHY_SEARCH_SECONDS: u64 = 10;

/// `--why`: the fewest givens that clash (a direct pair first), or the irreducible set found
/// by deletion when a limit stops the search for fewer.
fn why(empty: &Sudoku, grid: &Grid, limits: &Limits, out: &mut impl Write) -> io::Result<u8> {
    let clues: Vec<_> = empty.givens(grid).collect();
    let mut options = ConflictOptions::new(ConflictGoal::Minimum).with_limits(limits.clone());
    if limits.time_limit().is_none() {
        options = options.with_search_time(std::time::Duration::from_secs(WHY_SEARCH_SECONDS));
    }
    let found = match smallest_conflict(empty.model(), &clues, &options) {
        Ok(found) => found,
        Err(WhyError::Solvable) => {
            writeln!(out, "the puzzle has a solution: no givens clash")?;
            warn_if_several(empty, grid, limits, "--why");
            return Ok(exit::SOLVED);
        }
        Err(WhyError::LimitReached(limit)) => {
            return Ok(stopped(
                "--why",
                limit,
                ": whether the puzzle has a solution is not known",
            ));
        }
        Err(error) => return Ok(bad_input(error)),
    };
    let conflict = MinimalConflict {
        assumptions: found.assumptions.clone(),
        minimal: found.optimality != Optimality::Unproved,
        stopped_by: if found.optimality == Optimality::Unproved {
            found.stopped_by
        } else {
            None
        },
    };
    for line in empty.conflict_lines(&clues, &conflict) {
        writeln!(out, "{line}")?;
    }
    match found.optimality {
        Optimality::Unproved => {
            if let Some(limit) = found.stopped_by {
                return Ok(stopped(
                    "--why",
                    limit,
                    ": the givens printed clash, but fewer may",
                ));
            }
        }
        Optimality::Minimal => {
            let why = found
                .stopped_by
                .map_or_else(|| "a check reached a limit".to_owned(), limit_words);
            note!(
                "cspkit: --why: these {} givens are irreducible, not proved the fewest ({why}); at least {} clash",
                found.assumptions.len(),
                found.lower_bound.max(2)
            );
        }
        _ => {}
    }
    Ok(exit::NO_SOLUTION)
}

/// A note on standard error when the puzzle has more than one solution (a proper puzzle has
/// one): every puzzle task says so. A limit that stops the count says nothing.
fn warn_if_several(empty: &Sudoku, grid: &Grid, limits: &Limits, task: &str) {
    let mut solver = limits.apply_to(empty.model().solver());
    if solver.restart_with(empty.givens(grid)).is_err() {
        return;
    }
    if solver.count_up_to(2).solutions > 1 {
        note!("cspkit: {task}: the puzzle has several solutions (a proper puzzle has one)");
    }
}

/// `--state --hint` and `--state --explain`: the player's state from FILE; its mistakes, or
/// the steps by human techniques that continue from its pencil marks.
fn from_state(args: &SudokuArgs) -> u8 {
    let path = args.file.as_deref().filter(|p| p.as_os_str() != "-");
    let source = path.map_or("standard input".into(), |p| p.display().to_string());
    let bytes = match read_input(path) {
        Ok(bytes) => bytes,
        Err(message) => return bad_input(message),
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return bad_input(format_args!("{source}: the input is not valid UTF-8 text"));
    };
    let state = match SudokuState::parse(text) {
        Ok(state) => state,
        Err(error) => return bad_input(format_args!("{source}: {error}")),
    };
    let empty = match Grid::empty(state.box_size()).map(|g| Sudoku::new(&g)) {
        Some(Ok(sudoku)) => sudoku.with_uniqueness(args.puzzle.uniqueness),
        _ => return bad_input("cannot build the model of an empty grid of this size"),
    };
    let hint = args.puzzle.hint;
    let task = if hint { "--hint" } else { "--explain" };
    let limits = limits(args);
    let found = if hint {
        empty.hint_from(&state, &limits)
    } else {
        empty.explain_from(&state, &limits)
    };
    let steps = match found {
        Ok(steps) => steps,
        Err(GradeError::NoSolution) => {
            note!(
                "cspkit: {task}: the givens have no solution (--why on the givens says which clash)"
            );
            return exit::NO_SOLUTION;
        }
        Err(GradeError::LimitReached(limit)) => {
            return stopped(
                task,
                limit,
                ": whether the givens have a solution is not known",
            );
        }
        Err(error) => return bad_input(error),
    };
    let mut out = io::stdout().lock();
    let written = (|| -> io::Result<u8> {
        for mistake in &steps.mistakes {
            writeln!(out, "{}", mistake.text())?;
            if let Mistake::WrongEntry { proof, .. } = mistake
                && !hint
            {
                for line in proof {
                    writeln!(out, "  {line}")?;
                }
            }
        }
        for step in &steps.steps {
            writeln!(out, "{}", step.text)?;
        }
        if steps.mistakes.is_empty() && steps.steps.is_empty() && steps.stopped_by.is_none() {
            writeln!(out, "the grid is complete")?;
        }
        Ok(exit::SOLVED)
    })();
    if let Err(error) = written {
        return output_failed(error, exit::SOLVED);
    }
    match steps.several_solutions {
        Some(true) => {
            note!("cspkit: {task}: the puzzle has several solutions (a proper puzzle has one)");
        }
        None => note!(
            "cspkit: {task}: a limit stopped the count of solutions: whether the solution is unique is not known"
        ),
        Some(false) => {}
    }
    if !steps.mistakes.is_empty() {
        note!("cspkit: {task}: the state has mistakes; no step is taken from it");
        return exit::NO_SOLUTION;
    }
    if let Some(limit) = steps.stopped_by {
        return stopped(task, limit, "");
    }
    exit::SOLVED
}
