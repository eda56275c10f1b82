//! `cspkit sudoku --batch`: one puzzle per line in, one answer per line out.
//!
//! Each non-empty input line gets exactly one output line, in order: the solution in the line
//! format, the number of solutions with `--count`, or a marker — `no solution`,
//! `malformed: <reason>`, `stopped: <limit>`. Empty lines are skipped. A summary goes to
//! standard error, with a progress bar when standard error is a terminal.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::time::{Duration, Instant};

use cspkit::models::sudoku::{Grid, GridFormat, Sudoku};
use cspkit::{Outcome, PropagationLevel, SearchStats};
use indicatif::{ProgressBar, ProgressStyle};

use crate::args::SudokuArgs;
use crate::{bad_input, configure, exit, output_failed, print_stats};

/// Lines longer than this are malformed without being read into memory (a 25x25 grid on one
/// line is 625 characters).
const MAX_LINE_BYTES: usize = 4096;

/// Files larger than this get a progress bar (when standard error is a terminal).
const PROGRESS_BAR_BYTES: u64 = 64 * 1024;

#[derive(Debug, Default)]
struct Summary {
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

pub(crate) fn run(args: &SudokuArgs) -> u8 {
    if args.mode.all {
        return bad_input("--all cannot be combined with --batch (use --count)");
    }
    if let Some(format) = args.format.map(GridFormat::from) {
        if format != GridFormat::Line {
            return bad_input("--batch writes the line format only");
        }
    }
    let (reader, size): (Box<dyn BufRead>, Option<u64>) =
        match args.file.as_deref().filter(|p| p.as_os_str() != "-") {
            Some(path) => match File::open(path) {
                Ok(file) => {
                    let size = file.metadata().ok().map(|m| m.len());
                    (Box::new(BufReader::new(file)), size)
                }
                Err(e) => return bad_input(format_args!("{}: {e}", path.display())),
            },
            None => (Box::new(io::stdin().lock()), None),
        };
    let progress = progress_bar(size);
    let started = Instant::now();
    let mut summary = Summary::default();
    let mut out = BufWriter::new(io::stdout().lock());
    let result = solve_lines(reader, &mut out, args, &mut summary, &progress);
    progress.finish_and_clear();
    if let Err(error) = result.and_then(|()| out.flush()) {
        if error.kind() != io::ErrorKind::BrokenPipe {
            return output_failed(error, exit::BAD_INPUT);
        }
    }
    report(&summary, started.elapsed(), args.strategy.stats);
    summary.exit_code()
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
    mut reader: Box<dyn BufRead>,
    out: &mut impl Write,
    args: &SudokuArgs,
    summary: &mut Summary,
    progress: &ProgressBar,
) -> io::Result<()> {
    let mut buffer = Vec::with_capacity(128);
    let mut line = 0;
    loop {
        buffer.clear();
        let (read, too_long) = read_line(&mut reader, &mut buffer)?;
        if read == 0 {
            return Ok(());
        }
        line += 1;
        progress.inc(read as u64);
        let answer = if too_long {
            summary.malformed += 1;
            format!("malformed: line {line}: longer than {MAX_LINE_BYTES} bytes")
        } else {
            match std::str::from_utf8(&buffer) {
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => solve_one(text, line, args, summary),
                Err(_) => {
                    summary.malformed += 1;
                    format!("malformed: line {line}: not valid UTF-8 text")
                }
            }
        };
        writeln!(out, "{answer}")?;
    }
}

/// Reads one line (with its newline) into `buffer`, at most [`MAX_LINE_BYTES`] of it; the rest
/// of a longer line is skipped. Returns the bytes consumed and whether the line was too long.
fn read_line(reader: &mut dyn BufRead, buffer: &mut Vec<u8>) -> io::Result<(usize, bool)> {
    let mut read = reader
        .take(MAX_LINE_BYTES as u64)
        .read_until(b'\n', buffer)?;
    if buffer.len() < MAX_LINE_BYTES || buffer.ends_with(b"\n") {
        return Ok((read, false));
    }
    let mut rest = Vec::new();
    loop {
        rest.clear();
        let n = reader
            .take(MAX_LINE_BYTES as u64)
            .read_until(b'\n', &mut rest)?;
        read += n;
        if n == 0 || rest.ends_with(b"\n") {
            return Ok((read, true));
        }
    }
}

fn solve_one(text: &str, line: usize, args: &SudokuArgs, summary: &mut Summary) -> String {
    let grid = match Grid::parse_line(text, line) {
        Ok(grid) => grid,
        Err(error) => {
            summary.malformed += 1;
            return format!("malformed: {error}");
        }
    };
    let sudoku = match Sudoku::new(&grid) {
        Ok(sudoku) => sudoku,
        Err(error) => {
            summary.malformed += 1;
            return format!("malformed: line {line}: {error}");
        }
    };
    let mut solver = configure(sudoku.model(), &args.strategy, PropagationLevel::Full);
    let answer = if args.mode.count {
        let count = solver.count_up_to(args.mode.limit.unwrap_or(u64::MAX));
        match count.stopped_by {
            Some(limit) if limit != cspkit::Limit::Solutions => {
                summary.stopped += 1;
                format!("stopped: {limit} after {} solutions", count.solutions)
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
    eprintln!(
        "{puzzles} puzzles: {} solved, {} without solution, {} malformed, {} stopped by a limit; \
         {:.3} s in all, {per_puzzle:.1} µs per puzzle",
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
