//! `cspkit sudoku --batch`: one puzzle per line in, one answer per line out.
//!
//! Each non-empty input line gets exactly one output line, in order: the solution in the line
//! format, the number of solutions with `--count`, or a marker — `no solution`,
//! `malformed: <reason>`, `stopped: <limit>`. Empty lines are skipped. A summary goes to
//! standard error, with a progress bar when standard error is a terminal.
//!
//! The input is streamed: memory stays bounded whatever its size, and a line longer than any
//! puzzle is skipped without being stored. Puzzles of one size share a model, that of the empty
//! grid, built on first use; each puzzle restarts its size's solver with its givens. Lines end with LF, CRLF or CR, as in
//! [`Grid::parse`].

use std::cell::OnceCell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::time::{Duration, Instant};

use cspkit::models::sudoku::{Grid, GridFormat, Sudoku};
use cspkit::{Outcome, PropagationLevel, SearchStats};
use indicatif::{ProgressBar, ProgressStyle};

use crate::args::SudokuArgs;
use crate::{CliSolver, bad_input, configure, counted, exit, output_failed, print_stats};

/// Lines longer than this are malformed without being read into memory (a 25x25 grid on one
/// line is 625 characters).
const MAX_LINE_BYTES: usize = 4096;

/// The UTF-8 byte order mark, skipped at the start of the input.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// Files larger than this get a progress bar (when standard error is a terminal).
const PROGRESS_BAR_BYTES: u64 = 64 * 1024;

#[derive(Debug, Default)]
struct Summary {
    /// Lines read, empty ones included.
    lines: usize,
    solved: u64,
    unsolvable: u64,
    malformed: u64,
    stopped: u64,
    stats: SearchStats,
}

impl Summary {
    fn puzzles(&self) -> u64 {
        self.solved + self.unsolvable + self.malformed + self.stopped
    }

    fn add(&mut self, stats: SearchStats) {
        let total = &mut self.stats;
        total.nodes += stats.nodes;
        total.failures += stats.failures;
        total.backtracks += stats.backtracks;
        total.propagations += stats.propagations;
        total.solutions += stats.solutions;
        total.max_depth = total.max_depth.max(stats.max_depth);
        total.elapsed += stats.elapsed;
    }

    fn exit_code(&self) -> u8 {
        if self.malformed > 0 {
            exit::BAD_INPUT
        } else if self.stopped > 0 {
            exit::STOPPED
        } else if self.unsolvable > 0 {
            exit::NO_SOLUTION
        } else {
            exit::SOLVED
        }
    }
}

/// Why a batch ended before the end of its input.
#[derive(Debug)]
enum Failure {
    /// The input could not be read.
    Read(io::Error),
    /// The output could not be written.
    Write(io::Error),
}

pub(crate) fn run(args: &SudokuArgs) -> u8 {
    if args.mode.all {
        return bad_input("--all cannot be combined with --batch (use --count)");
    }
    for (flag, format) in [
        ("--format", args.format),
        ("--input-format", args.input_format),
    ] {
        if format.is_some_and(|f| GridFormat::from(f) != GridFormat::Line) {
            return bad_input(format_args!(
                "--batch reads and writes the line format only (drop {flag})"
            ));
        }
    }
    let path = args.file.as_deref().filter(|p| p.as_os_str() != "-");
    let source = path.map_or("standard input".into(), |p| p.display().to_string());
    let (reader, size): (Box<dyn BufRead>, Option<u64>) = match path {
        Some(path) => match File::open(path) {
            Ok(file) => {
                let size = file.metadata().ok().map(|m| m.len());
                (Box::new(BufReader::new(file)), size)
            }
            Err(e) => return bad_input(format_args!("{source}: {e}")),
        },
        None => {
            if io::stdin().is_terminal() {
                note!(
                    "cspkit: reading puzzles from standard input, one per line (end with Ctrl-D)"
                );
            }
            (Box::new(io::stdin().lock()), None)
        }
    };
    let progress = progress_bar(size);
    let started = Instant::now();
    let mut summary = Summary::default();
    let mut out = BufWriter::new(io::stdout().lock());
    let result = solve_lines(
        LineReader::new(reader),
        &mut out,
        args,
        &mut summary,
        &progress,
    )
    .and_then(|()| out.flush().map_err(Failure::Write));
    progress.finish_and_clear();
    let code = match result {
        Ok(()) if summary.puzzles() == 0 => {
            return bad_input(format_args!("{source}: the input holds no puzzle"));
        }
        Ok(()) => summary.exit_code(),
        // A closed pipe (`cspkit sudoku --batch … | head`) ends the run quietly.
        Err(Failure::Write(error)) if error.kind() == io::ErrorKind::BrokenPipe => {
            summary.exit_code()
        }
        Err(Failure::Write(error)) => output_failed(error, exit::BAD_INPUT),
        Err(Failure::Read(error)) => bad_input(format_args!(
            "{source}: cannot read line {}: {error}",
            summary.lines + 1
        )),
    };
    report(&summary, started.elapsed(), args.strategy.stats);
    code
}

fn progress_bar(size: Option<u64>) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    match size {
        Some(bytes) if bytes >= PROGRESS_BAR_BYTES => ProgressBar::new(bytes).with_style(
            ProgressStyle::with_template("{bar:40} {percent:>3}% {elapsed} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        Some(_) => ProgressBar::hidden(),
        None => ProgressBar::new_spinner(),
    }
}

fn solve_lines(
    mut reader: LineReader,
    out: &mut impl Write,
    args: &SudokuArgs,
    summary: &mut Summary,
    progress: &ProgressBar,
) -> Result<(), Failure> {
    let models = Models::default();
    let mut solvers = Solvers::new(&models, args);
    let mut buffer = Vec::with_capacity(128);
    loop {
        buffer.clear();
        let Some(line) = reader.read_line(&mut buffer).map_err(Failure::Read)? else {
            return Ok(());
        };
        summary.lines += 1;
        let number = summary.lines;
        progress.set_position(reader.consumed);
        let answer = if line.too_long {
            summary.malformed += 1;
            format!("malformed: line {number}: longer than {MAX_LINE_BYTES} bytes")
        } else if buffer.iter().all(u8::is_ascii_whitespace) {
            continue;
        } else {
            match Grid::parse_line_bytes(&buffer, number) {
                Ok(grid) => solve_one(&grid, number, &mut solvers, args, summary),
                Err(error) => {
                    summary.malformed += 1;
                    format!("malformed: {error}")
                }
            }
        };
        writeln!(out, "{answer}").map_err(Failure::Write)?;
    }
}

/// A line read by [`LineReader::read_line`].
#[derive(Debug)]
struct Line {
    /// Whether the line was longer than [`MAX_LINE_BYTES`] (only the start of it was kept).
    too_long: bool,
}

/// Reads lines ending with LF, CRLF or CR, keeping at most [`MAX_LINE_BYTES`] of each, so that
/// memory stays bounded whatever the input.
struct LineReader {
    reader: Box<dyn BufRead>,
    /// The last line ended with a CR: an LF right after it belongs to the same line ending.
    after_cr: bool,
    /// Bytes consumed so far.
    consumed: u64,
}

impl LineReader {
    fn new(reader: Box<dyn BufRead>) -> LineReader {
        LineReader {
            reader,
            after_cr: false,
            consumed: 0,
        }
    }

    /// Reads the next line, without its line ending, into `buffer`; `None` at the end of the
    /// input. A byte order mark at the start of the input is skipped.
    fn read_line(&mut self, buffer: &mut Vec<u8>) -> io::Result<Option<Line>> {
        let mut too_long = false;
        let mut empty = true;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok((!empty).then_some(Line { too_long }));
            }
            let mut skip = 0;
            if self.consumed == 0 && available.starts_with(BYTE_ORDER_MARK) {
                skip = BYTE_ORDER_MARK.len();
            } else if std::mem::take(&mut self.after_cr) && available[0] == b'\n' {
                skip = 1;
            }
            let rest = &available[skip..];
            let end = rest.iter().position(|&b| b == b'\n' || b == b'\r');
            let content = &rest[..end.unwrap_or(rest.len())];
            let room = MAX_LINE_BYTES.saturating_sub(buffer.len());
            buffer.extend_from_slice(&content[..content.len().min(room)]);
            too_long |= content.len() > room;
            empty &= content.is_empty() && end.is_none();
            self.after_cr = end.is_some_and(|i| rest[i] == b'\r');
            let used = skip + content.len() + usize::from(end.is_some());
            self.reader.consume(used);
            self.consumed += used as u64;
            if end.is_some() {
                return Ok(Some(Line { too_long }));
            }
        }
    }
}

/// The largest box size of a grid the parser accepts (36x36).
const MAX_BOX_SIZE: usize = 6;

/// The model of an empty grid for each box size (index), built on first use.
type Models = [OnceCell<Result<Sudoku, String>>; MAX_BOX_SIZE + 1];

/// A solver per box size, on the model of the empty grid of that size: each puzzle restarts
/// it with its givens fixed, so the model is built once per size rather than once per line.
struct Solvers<'m> {
    models: &'m Models,
    solvers: [Option<CliSolver<'m>>; MAX_BOX_SIZE + 1],
    args: &'m SudokuArgs,
}

impl<'m> Solvers<'m> {
    fn new(models: &'m Models, args: &'m SudokuArgs) -> Self {
        Solvers {
            models,
            solvers: Default::default(),
            args,
        }
    }

    /// The Sudoku model and the solver for grids like `grid`, restarted with its givens.
    fn restarted_for(&mut self, grid: &Grid) -> Result<(&'m Sudoku, &mut CliSolver<'m>), String> {
        let b = grid.box_size();
        let unsupported = || format!("no model for {b}x{b} boxes");
        let sudoku = self
            .models
            .get(b)
            .ok_or_else(unsupported)?
            .get_or_init(|| {
                let empty = Grid::empty(b).ok_or_else(unsupported)?;
                Sudoku::new(&empty).map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(Clone::clone)?;
        let args = self.args;
        let solver = self.solvers[b].get_or_insert_with(|| {
            configure(sudoku.model(), &args.strategy, PropagationLevel::Full)
        });
        solver
            .restart_with(sudoku.givens(grid))
            .map_err(|e| e.to_string())?;
        Ok((sudoku, solver))
    }
}

fn solve_one(
    grid: &Grid,
    line: usize,
    solvers: &mut Solvers<'_>,
    args: &SudokuArgs,
    summary: &mut Summary,
) -> String {
    let (sudoku, solver) = match solvers.restarted_for(grid) {
        Ok(found) => found,
        Err(error) => {
            summary.malformed += 1;
            return format!("malformed: line {line}: {error}");
        }
    };
    let answer = if args.mode.count {
        let count = solver.count_up_to(args.mode.limit.unwrap_or(u64::MAX));
        match count.stopped_by {
            Some(limit) if limit != cspkit::Limit::Solutions => {
                summary.stopped += 1;
                format!(
                    "stopped: {limit} after {}",
                    counted(count.solutions, "solution")
                )
            }
            _ if count.solutions == 0 => {
                summary.unsolvable += 1;
                "0".to_owned()
            }
            _ => {
                summary.solved += 1;
                count.solutions.to_string()
            }
        }
    } else {
        match solver.next_solution() {
            Outcome::Solved(solution) => {
                summary.solved += 1;
                let text = sudoku.grid_of(&solution).to_text(GridFormat::Line);
                text.unwrap_or_default().trim_end().to_owned()
            }
            Outcome::Exhausted => {
                summary.unsolvable += 1;
                "no solution".to_owned()
            }
            Outcome::LimitReached(limit) => {
                summary.stopped += 1;
                format!("stopped: {limit}")
            }
        }
    };
    summary.add(solver.stats());
    answer
}

fn report(summary: &Summary, elapsed: Duration, stats: bool) {
    let puzzles = summary.puzzles();
    let per_puzzle = if puzzles > 0 {
        elapsed.as_secs_f64() * 1e6 / puzzles as f64
    } else {
        0.0
    };
    note!(
        "{}: {} solved, {} without solution, {} malformed, {} stopped by a limit; \
         {:.3} s in all, {per_puzzle:.1} µs per puzzle",
        counted(puzzles, "puzzle"),
        summary.solved,
        summary.unsolvable,
        summary.malformed,
        summary.stopped,
        elapsed.as_secs_f64()
    );
    if stats {
        print_stats(&summary.stats);
    }
}
