//! `cspkit futoshiki | kenken | kakuro | skyscrapers | killer FILE` (solve a puzzle of a genre
//! from its text) and `cspkit generate GENRE` (make puzzles): the library's genre models
//! (`cspkit::models::genre`) and its generator, with a progress line and Ctrl-C.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use cspkit::models::futoshiki::Futoshiki;
use cspkit::models::genre::{self, Genre};
use cspkit::models::kakuro::Kakuro;
use cspkit::models::kenken::KenKen;
use cspkit::models::killer_sudoku::KillerSudoku;
use cspkit::models::skyscrapers::Skyscrapers;
use cspkit::models::sudoku::{Grid, GridFormat, Sudoku};
use cspkit::puzzle::{Difficulty, GenerateError, Generator, Limits, Progress, grade};
use cspkit::{Limit, Model, VarId};

use crate::limits::interrupt;
use crate::output::{bad_input, exit, output_failed};

/// Solving one puzzle of a genre.
#[derive(Debug, clap::Args)]
pub struct GenreArgs {
    /// The puzzle's text (standard input when absent or `-`); the format is in docs/puzzles.md.
    pub file: Option<PathBuf>,
    /// Stop after this many seconds, such as 0.5.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
}

/// The genres `cspkit generate` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GenreName {
    /// Sudoku, 4x4 to 25x25 (--size 4, 9, 16, 25).
    Sudoku,
    /// Futoshiki, side 2 to 9.
    Futoshiki,
    /// KenKen, side 3 to 9.
    Kenken,
    /// Kakuro, a square grid of side 3 to 10 (its first row and column black).
    Kakuro,
    /// Skyscrapers, side 2 to 9.
    Skyscrapers,
    /// Killer Sudoku, side 4 or 9.
    Killer,
}

/// Making puzzles.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// The genre.
    #[arg(value_enum)]
    pub genre: GenreName,
    /// The side of the grid [default: 9 for Sudoku and Killer Sudoku, 5 otherwise].
    #[arg(long, value_name = "N")]
    pub size: Option<usize>,
    /// The seed: the same seed gives the same puzzles.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// How many puzzles.
    #[arg(long, value_name = "M", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub count: u64,
    /// Only puzzles whose grade (given, forward, full, search: the weakest reasoning that
    /// solves them) lies in this band: `full`, `forward..full`, `full..search`.
    #[arg(long, value_name = "LOW..HIGH", value_parser = parse_band)]
    pub band: Option<(Difficulty, Difficulty)>,
    /// Decisions each uniqueness check may take; a check that reaches it keeps its clue (the
    /// puzzle is then unique but maybe not minimal) [default: 100 for 25x25 Sudoku, 10000 for
    /// 16x16, 1000000 otherwise].
    #[arg(long, value_name = "D")]
    pub decision_limit: Option<u64>,
    /// Stop after this many seconds in all, such as 60.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Print each puzzle's solution after it.
    #[arg(long)]
    pub solution: bool,
    /// No progress line on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Seconds, such as 0.5.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("{text:?} is not a number of seconds (such as 0.5)"))
}

/// A grade band, `low..high` or one level.
fn parse_band(text: &str) -> Result<(Difficulty, Difficulty), String> {
    let level = |word: &str| match word {
        "given" => Ok(Difficulty::Given),
        "forward" => Ok(Difficulty::Forward),
        "full" => Ok(Difficulty::Full),
        "search" => Ok(Difficulty::Search),
        other => Err(format!(
            "{other:?} is not a grade: given, forward, full or search"
        )),
    };
    let (low, high) = match text.split_once("..") {
        Some((low, high)) => (level(low)?, level(high)?),
        None => (level(text)?, level(text)?),
    };
    if low > high {
        return Err(format!(
            "{text:?}: the band's low end is above its high end"
        ));
    }
    Ok((low, high))
}

/// Reads the text of `file` (standard input for none or `-`), or reports why not.
fn read(file: Option<&PathBuf>) -> Result<String, u8> {
    let mut text = String::new();
    let read = match file {
        Some(path) if path.as_os_str() != "-" => std::fs::File::open(path).and_then(|f| {
            f.take(genre::MAX_TEXT_BYTES as u64 + 1)
                .read_to_string(&mut text)
        }),
        _ => io::stdin()
            .take(genre::MAX_TEXT_BYTES as u64 + 1)
            .read_to_string(&mut text),
    };
    match read {
        Ok(_) => Ok(text),
        Err(error) => {
            let name = file.map_or("standard input".into(), |p| p.display().to_string());
            Err(bad_input(format!("{name}: {error}")))
        }
    }
}

/// `cspkit GENRE FILE`: the solution, and whether it is unique, or why there is none.
pub fn solve<G: Genre>(args: &GenreArgs) -> u8 {
    let text = match read(args.file.as_ref()) {
        Ok(text) => text,
        Err(code) => return code,
    };
    let name = args
        .file
        .as_ref()
        .map_or("standard input".into(), |p| p.display().to_string());
    let puzzle = match G::parse(&text) {
        Ok(puzzle) => puzzle,
        Err(error) => return bad_input(format!("{name}: {error}")),
    };
    let model = match puzzle.model() {
        Ok(model) => model,
        Err(error) => return bad_input(error),
    };
    let mut limits = Limits::new().with_cancel_flag(Arc::clone(interrupt()));
    if let Some(time) = args.time_limit {
        limits = limits.with_time_limit(time);
    }
    let solved = match model.solve(puzzle.clues(), &limits) {
        Ok(solved) => solved,
        Err(error) => return bad_input(format!("{name}: {error}")),
    };
    let Some(first) = &solved.first else {
        return match solved.stopped_by {
            Some(limit) => {
                note!("cspkit: stopped ({limit}) before a solution");
                exit::STOPPED
            }
            None => {
                note!("cspkit: no solution");
                exit::NO_SOLUTION
            }
        };
    };
    if let Err(error) = io::stdout().write_all(puzzle.solution_text(first).as_bytes()) {
        return output_failed(error, exit::SOLVED);
    }
    match (solved.solutions, solved.stopped_by) {
        (1, None) => note!("cspkit: the solution is unique"),
        (1, Some(limit)) => note!("cspkit: uniqueness not settled ({limit})"),
        _ => note!("cspkit: more than one solution (this is the first)"),
    }
    exit::SOLVED
}

/// Prints a progress line on standard error at most twice a second.
fn progress_printer(puzzle: u64, count: u64) -> impl Fn(&Progress) + Send + Sync {
    let last = AtomicU64::new(0);
    move |p: &Progress| {
        let millis = p.elapsed.as_millis() as u64;
        if millis >= 500 && millis - last.load(Ordering::Relaxed) >= 500 {
            last.store(millis, Ordering::Relaxed);
            let mut err = io::stderr().lock();
            let _ = write!(
                err,
                "\rcspkit: puzzle {} of {count}, attempt {}: {}/{} tried, {} clues, {:.1} s ",
                puzzle + 1,
                p.attempt + 1,
                p.tried,
                p.groups,
                p.clues,
                p.elapsed.as_secs_f64()
            );
            let _ = err.flush();
        }
    }
}

/// The grade band of `--band`, as a generator's target.
fn with_band<'m>(
    generator: Generator<'m>,
    band: Option<(Difficulty, Difficulty)>,
) -> Generator<'m> {
    match band {
        Some((low, high)) => generator.with_grade_band(
            |model: &Model, clues: &[(VarId, i32)]| {
                grade(model, clues, 1_000_000).ok().map(|g| g.difficulty)
            },
            low..=high,
        ),
        None => generator,
    }
}

/// `cspkit generate GENRE`: puzzles separated by blank lines, a summary on standard error.
pub fn generate(args: &GenerateArgs) -> u8 {
    let started = Instant::now();
    let mut out = io::stdout().lock();
    let mut made = 0;
    let mut stopped_by = None;
    for k in 0..args.count {
        let seed = args.seed.wrapping_shl(32).wrapping_add(k);
        let made_one = match args.genre {
            GenreName::Sudoku => sudoku(args, seed, k, started),
            GenreName::Futoshiki => puzzle::<Futoshiki>(args, seed, k, started),
            GenreName::Kenken => puzzle::<KenKen>(args, seed, k, started),
            GenreName::Kakuro => puzzle::<Kakuro>(args, seed, k, started),
            GenreName::Skyscrapers => puzzle::<Skyscrapers>(args, seed, k, started),
            GenreName::Killer => puzzle::<KillerSudoku>(args, seed, k, started),
        };
        if !args.quiet && started.elapsed() >= Duration::from_millis(500) {
            note!("");
        }
        match made_one {
            Ok(text) => {
                let separator = if k > 0 && args.genre != GenreName::Sudoku {
                    "\n"
                } else {
                    ""
                };
                if let Err(error) = write!(out, "{separator}{text}").and_then(|()| out.flush()) {
                    return output_failed(error, exit::SOLVED);
                }
                made += 1;
            }
            Err(GenerateError::LimitReached(limit)) => {
                stopped_by = Some(limit);
                break;
            }
            Err(error @ GenerateError::NotFound { .. }) => {
                note!("cspkit: {error}");
                return exit::STOPPED;
            }
            Err(error) => return bad_input(error),
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    note!(
        "cspkit: {made} of {} puzzles in {seconds:.3} s ({:.1} a second)",
        args.count,
        made as f64 / seconds.max(1e-9)
    );
    match stopped_by {
        Some(limit) => {
            let why = match limit {
                Limit::Cancelled => "interrupted".to_owned(),
                Limit::Time => "time limit reached, --time-limit".to_owned(),
                other => other.to_string(),
            };
            note!("cspkit: generate stopped ({why})");
            exit::STOPPED
        }
        None => exit::SOLVED,
    }
}

/// The generator's limits and callbacks from the options: the time left, Ctrl-C, progress.
fn configure<'m>(
    generator: Generator<'m>,
    args: &GenerateArgs,
    k: u64,
    started: Instant,
) -> Generator<'m> {
    let mut generator = generator.with_cancel_flag(Arc::clone(interrupt()));
    if let Some(time) = args.time_limit {
        generator = generator.with_time_limit(time.saturating_sub(started.elapsed()));
    }
    if let Some(decisions) = args.decision_limit {
        generator = generator.with_check_decision_limit(decisions);
    }
    if !args.quiet {
        generator = generator.with_progress(progress_printer(k, args.count));
    }
    with_band(generator, args.band)
}

/// One puzzle of genre `G`, as text (and its solution with `--solution`).
fn puzzle<G: Genre>(
    args: &GenerateArgs,
    seed: u64,
    k: u64,
    started: Instant,
) -> Result<String, GenerateError> {
    let size = args.size.unwrap_or(if G::NAME == "killer" { 9 } else { 5 });
    let (made, _): (G, _) = genre::generate(size, seed, 20, |g| {
        let g = configure(g, args, k, started);
        match (args.decision_limit, G::NAME, size) {
            // Proving a 9x9 Killer Sudoku unique can take a long search: keep the clue then.
            (None, "killer", 9) => g.with_check_decision_limit(1_000),
            _ => g,
        }
    })?;
    let mut text = made.to_text();
    if args.solution {
        let model = made.model()?;
        if let Ok(solved) = model.solve(made.clues(), &Limits::new())
            && let Some(first) = solved.first
        {
            text.push('\n');
            text.push_str(&made.solution_text(&first));
        }
    }
    Ok(text)
}

/// One Sudoku, on one line (and its solution on the next with `--solution`).
fn sudoku(
    args: &GenerateArgs,
    seed: u64,
    k: u64,
    started: Instant,
) -> Result<String, GenerateError> {
    let side = args.size.unwrap_or(9);
    let Some(empty) = [2, 3, 4, 5]
        .into_iter()
        .find(|b| b * b == side)
        .and_then(Grid::empty)
    else {
        return Err(GenerateError::NotFound {
            wanted: format!("of side {side}"),
            attempts: 0,
            reason: "a generated Sudoku's side is 4, 9, 16 or 25".into(),
        });
    };
    let sudoku = Sudoku::new(&empty)?;
    let check = match side {
        25 => 100,
        16 => 10_000,
        _ => 1_000_000,
    };
    let generator = Generator::new(sudoku.model(), sudoku.cells())
        .with_seed(seed)
        .with_check_decision_limit(check);
    let puzzle = configure(generator, args, k, started).generate()?;
    let mut text = sudoku
        .grid_of_clues(&puzzle.clues)
        .to_text(GridFormat::Line)
        .unwrap_or_default();
    if args.solution {
        let values: Vec<(VarId, i32)> = sudoku
            .cells()
            .iter()
            .map(|&v| (v, puzzle.solution[v]))
            .collect();
        text.push_str(
            &sudoku
                .grid_of_clues(&values)
                .to_text(GridFormat::Line)
                .unwrap_or_default(),
        );
    }
    Ok(text)
}
