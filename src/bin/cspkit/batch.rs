//! `cspkit sudoku --batch`: one puzzle per line in, one answer per line out.
//!
//! Each non-empty input line gets exactly one output line, in order: the solution in the line
//! format, the number of solutions with `--count`, or a marker — `no solution`,
//! `malformed: <reason>`, `stopped: <limit>`. Empty lines are skipped. A summary goes to
//! standard error, with a progress bar when standard error is a terminal.
//!
//! The input is streamed: memory stays bounded whatever its size, and a line longer than any
//! puzzle is reported once that is known and the rest of it skipped without being stored. The
//! answers are written in blocks, at least every [`FLUSH_EVERY`], and before a read that may
//! wait (for a pipe or a terminal, or to skip a long line): a slow puzzle, a slow writer or an
//! endless line holds back no answer already found. Puzzles of one size share a model, that of the empty
//! grid, built on first use; each puzzle restarts its size's solver with its givens. Lines end
//! with LF, CRLF or CR, as in [`Grid::parse`].
//!
//! With `--jobs N` (N > 1), the main thread reads lines and hands them to N threads in chunks
//! of up to [`CHUNK_LINES`] lines (fewer when a thread may be idle), each thread with its own
//! solvers (the models are shared), and writes the answers in input order as they come: at
//! most [`CHUNKS_IN_FLIGHT_PER_JOB`] chunks per thread are read ahead of the output, so memory
//! stays bounded too. Each answer depends on its puzzle alone (a solver restarted with a
//! puzzle's givens starts its orders afresh), so the output is the same for any N.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use cspkit::models::sudoku::{Grid, GridFormat, Sudoku};
use cspkit::{Outcome, PropagationLevel, SearchStats};
use indicatif::{ProgressBar, ProgressStyle};

use crate::args::Defaults;
use crate::args::{StrategyArgs, SudokuArgs};
use crate::output::{bad_input, counted, exit, output_failed, print_stats};
use crate::run::{CliSolver, configure};

/// Lines longer than this are malformed without being read into memory (a 25x25 grid on one
/// line is 625 characters).
const MAX_LINE_BYTES: usize = 4096;

/// The longest the answers found wait before they are written out.
const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// The UTF-8 byte order mark, skipped at the start of the input.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// Files larger than this get a progress bar (when standard error is a terminal).
const PROGRESS_BAR_BYTES: u64 = 64 * 1024;

/// With `--jobs`, the most lines handed to a thread at once: chunks save a hand-over per line
/// (a 9x9 puzzle takes tens of microseconds, a hand-over a few).
const CHUNK_LINES: usize = 8;

/// With `--jobs`, how many chunks per thread may be read before their answers are written.
const CHUNKS_IN_FLIGHT_PER_JOB: usize = 8;

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

    /// Counts an answer.
    fn record(&mut self, answer: &Answer) {
        match answer.kind {
            Kind::Solved => self.solved += 1,
            Kind::Unsolvable => self.unsolvable += 1,
            Kind::Malformed => self.malformed += 1,
            Kind::Stopped => self.stopped += 1,
        }
        self.stats.add(&answer.stats);
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

/// What became of a puzzle line.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Solved,
    Unsolvable,
    Malformed,
    Stopped,
}

/// The output line of a puzzle line, and what it cost.
#[derive(Debug)]
struct Answer {
    text: String,
    kind: Kind,
    stats: SearchStats,
}

impl Answer {
    fn malformed(text: String) -> Answer {
        Answer {
            text,
            kind: Kind::Malformed,
            stats: SearchStats::default(),
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
    let conflict = args.strategy.conflict(args.mode.count, true);
    if let Some(message) = conflict.or_else(|| args.show.conflict(&args.strategy, true)) {
        return bad_input(message);
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
    let (reader, size, regular): (Box<dyn Read>, Option<u64>, bool) = match path {
        Some(path) => match File::open(path) {
            Ok(file) => {
                let metadata = file.metadata().ok();
                let size = metadata.as_ref().map(|m| m.len());
                let regular = metadata.is_some_and(|m| m.is_file());
                (Box::new(file), size, regular)
            }
            Err(e) => return bad_input(format_args!("{source}: {e}")),
        },
        None => {
            if io::stdin().is_terminal() {
                note!(
                    "cspkit: reading puzzles from standard input, one per line (end with Ctrl-D)"
                );
            }
            (Box::new(io::stdin().lock()), None, false)
        }
    };
    let progress = progress_bar(size);
    let started = Instant::now();
    let mut summary = Summary::default();
    let mut out = Paced::new(BufWriter::new(io::stdout().lock()));
    let reader = LineReader::new(reader, !regular);
    let jobs = args.strategy.jobs;
    let result = if jobs.get() > 1 {
        solve_lines_in_parallel(reader, &mut out, args, &mut summary, &progress, jobs)
    } else {
        solve_lines(reader, &mut out, args, &mut summary, &progress)
    }
    .and_then(|()| out.flush());
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
    report(&summary, started.elapsed(), &args.strategy);
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
    out: &mut Paced<impl Write>,
    args: &SudokuArgs,
    summary: &mut Summary,
    progress: &ProgressBar,
) -> Result<(), Failure> {
    let models = Models::default();
    let mut solvers = Solvers::new(&models, args, None);
    let mut buffer = Vec::with_capacity(128);
    loop {
        if reader.may_wait() {
            out.flush()?;
        }
        buffer.clear();
        let Some(line) = reader.read_line(&mut buffer).map_err(Failure::Read)? else {
            return Ok(());
        };
        summary.lines += 1;
        progress.set_position(reader.consumed);
        if is_blank(&line, &buffer) {
            continue;
        }
        let answer = answer_line(&buffer, &line, summary.lines, &mut solvers, args);
        summary.record(&answer);
        out.write_line(&answer.text)?;
    }
}

/// A puzzle line handed to a thread.
struct Work {
    /// Its line number.
    number: usize,
    bytes: Vec<u8>,
    line: Line,
}

/// Consecutive puzzle lines handed to a thread; `rank` is the chunk's place in the output.
struct Chunk {
    rank: usize,
    lines: Vec<Work>,
}

/// As [`solve_lines`], on `jobs` threads, writing the answers in input order.
fn solve_lines_in_parallel(
    mut reader: LineReader,
    out: &mut Paced<impl Write>,
    args: &SudokuArgs,
    summary: &mut Summary,
    progress: &ProgressBar,
    jobs: NonZeroUsize,
) -> Result<(), Failure> {
    let models = Models::default();
    let window = jobs.get() * CHUNKS_IN_FLIGHT_PER_JOB;
    let cancel = Arc::new(AtomicBool::new(false));
    let (work_sender, work_receiver) = mpsc::sync_channel::<Chunk>(window);
    let work_receiver = Mutex::new(work_receiver);
    let (answer_sender, answer_receiver) = mpsc::channel::<(usize, Vec<Answer>)>();
    thread::scope(|scope| {
        for _ in 0..jobs.get() {
            let answer_sender = answer_sender.clone();
            let (models, work_receiver) = (&models, &work_receiver);
            let cancel = Arc::clone(&cancel);
            scope.spawn(move || {
                let mut solvers = Solvers::new(models, args, Some(cancel));
                loop {
                    let chunk = match work_receiver.lock() {
                        Ok(receiver) => receiver.recv(),
                        Err(_) => break,
                    };
                    let Ok(chunk) = chunk else {
                        break; // The input is over.
                    };
                    let answers = chunk
                        .lines
                        .iter()
                        .map(|w| answer_line(&w.bytes, &w.line, w.number, &mut solvers, args))
                        .collect();
                    if answer_sender.send((chunk.rank, answers)).is_err() {
                        break; // The output failed.
                    }
                }
            });
        }
        drop(answer_sender);
        let result = feed_and_write(
            &mut reader,
            work_sender,
            &answer_receiver,
            out,
            summary,
            progress,
            jobs.get(),
        );
        if result.is_err() {
            // Stop the searches under way: their answers will not be written.
            cancel.store(true, Ordering::Relaxed);
        }
        result
    })
}

/// Reads the puzzle lines and hands them to the `jobs` threads in chunks through `work`, and
/// writes their answers in order as they come back, keeping at most
/// [`CHUNKS_IN_FLIGHT_PER_JOB`] chunks per thread ahead of the output.
fn feed_and_write(
    reader: &mut LineReader,
    work: mpsc::SyncSender<Chunk>,
    answers: &mpsc::Receiver<(usize, Vec<Answer>)>,
    out: &mut Paced<impl Write>,
    summary: &mut Summary,
    progress: &ProgressBar,
    jobs: usize,
) -> Result<(), Failure> {
    let window = jobs * CHUNKS_IN_FLIGHT_PER_JOB;
    let mut output = InOrder {
        pending: BTreeMap::new(),
        written: 0,
        out,
    };
    let mut sent = 0;
    let mut chunk = Vec::with_capacity(CHUNK_LINES);
    let mut buffer = Vec::with_capacity(128);
    let read = loop {
        while let Ok((rank, answers)) = answers.try_recv() {
            output.add(rank, answers, summary)?;
        }
        // Hand the chunk over when it is full, at once when a thread may be idle, and before
        // a read that may wait.
        let may_wait = reader.may_wait();
        if chunk.len() >= CHUNK_LINES
            || (!chunk.is_empty() && (sent - output.written < jobs || may_wait))
        {
            while sent - output.written >= window {
                match answers.recv() {
                    Ok((rank, answers)) => output.add(rank, answers, summary)?,
                    Err(_) => return Ok(()), // A thread panicked: the scope reports it.
                }
            }
            let lines = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK_LINES));
            if work.send(Chunk { rank: sent, lines }).is_err() {
                return Ok(()); // Every thread panicked: the scope reports it.
            }
            sent += 1;
        }
        if may_wait {
            // The read may wait for ever (a terminal, an endless line): every answer so far
            // out first.
            while output.written < sent {
                match answers.recv() {
                    Ok((rank, answers)) => output.add(rank, answers, summary)?,
                    Err(_) => return Ok(()), // A thread panicked: the scope reports it.
                }
            }
            output.out.flush()?;
        }
        buffer.clear();
        let line = match reader.read_line(&mut buffer) {
            Ok(Some(line)) => line,
            Ok(None) => break Ok(()),
            Err(error) => break Err(Failure::Read(error)),
        };
        summary.lines += 1;
        progress.set_position(reader.consumed);
        if is_blank(&line, &buffer) {
            continue;
        }
        chunk.push(Work {
            number: summary.lines,
            bytes: buffer.clone(),
            line,
        });
    };
    // The input is over (or unreadable): the threads end once they have answered every line
    // read, whose answers come before any message about the input.
    if !chunk.is_empty()
        && work
            .send(Chunk {
                rank: sent,
                lines: chunk,
            })
            .is_ok()
    {
        sent += 1;
    }
    drop(work);
    while output.written < sent {
        let Ok((rank, answers)) = answers.recv() else {
            return Ok(()); // A thread panicked: the scope reports it.
        };
        output.add(rank, answers, summary)?;
    }
    read
}

/// Writes chunks of answers in the order of their ranks, keeping those that come early.
struct InOrder<'o, O> {
    pending: BTreeMap<usize, Vec<Answer>>,
    /// The chunks written so far, and the rank of the next one.
    written: usize,
    out: &'o mut Paced<O>,
}

impl<O: Write> InOrder<'_, O> {
    fn add(
        &mut self,
        rank: usize,
        answers: Vec<Answer>,
        summary: &mut Summary,
    ) -> Result<(), Failure> {
        self.pending.insert(rank, answers);
        while let Some(answers) = self.pending.remove(&self.written) {
            for answer in answers {
                summary.record(&answer);
                self.out.write_line(&answer.text)?;
            }
            self.written += 1;
        }
        Ok(())
    }
}

/// Buffered output written out at least every [`FLUSH_EVERY`] (checked at each line).
struct Paced<W> {
    out: W,
    flushed: Instant,
}

impl<W: Write> Paced<W> {
    fn new(out: W) -> Self {
        Paced {
            out,
            flushed: Instant::now(),
        }
    }

    fn write_line(&mut self, text: &str) -> Result<(), Failure> {
        writeln!(self.out, "{text}").map_err(Failure::Write)?;
        if self.flushed.elapsed() >= FLUSH_EVERY {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Failure> {
        self.flushed = Instant::now();
        self.out.flush().map_err(Failure::Write)
    }
}

/// Whether a line holds no puzzle (and gets no output line).
fn is_blank(line: &Line, buffer: &[u8]) -> bool {
    !line.too_long && buffer.iter().all(u8::is_ascii_whitespace)
}

/// The answer to line `number`, whose first bytes are `buffer`.
fn answer_line(
    buffer: &[u8],
    line: &Line,
    number: usize,
    solvers: &mut Solvers<'_>,
    args: &SudokuArgs,
) -> Answer {
    if line.too_long {
        return Answer::malformed(format!(
            "malformed: line {number}: longer than {MAX_LINE_BYTES} bytes"
        ));
    }
    match Grid::parse_line_bytes(buffer, number) {
        Ok(grid) => solve_one(&grid, number, solvers, args),
        Err(error) => Answer::malformed(format!("malformed: {error}")),
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
    reader: BufReader<Box<dyn Read>>,
    /// Whether a read may wait for the input (a pipe or a terminal, not a file).
    waits: bool,
    /// The last line ended with a CR: an LF right after it belongs to the same line ending.
    after_cr: bool,
    /// Bytes consumed so far.
    consumed: u64,
    /// The last line was cut at [`MAX_LINE_BYTES`]: the rest of it is still to be skipped.
    skipping: bool,
}

impl LineReader {
    fn new(reader: Box<dyn Read>, waits: bool) -> LineReader {
        LineReader {
            reader: BufReader::new(reader),
            waits,
            after_cr: false,
            consumed: 0,
            skipping: false,
        }
    }

    /// Whether the next [`read_line`](LineReader::read_line) may take long for reasons other
    /// than the size of the line: it waits for more input, or skips the rest of a long line.
    fn may_wait(&self) -> bool {
        self.skipping || (self.waits && self.reader.buffer().is_empty())
    }

    /// Reads the next line, without its line ending, into `buffer`; `None` at the end of the
    /// input. A byte order mark at the start of the input is skipped. A line longer than
    /// [`MAX_LINE_BYTES`] is returned as soon as it is known to be, and the rest of it skipped
    /// by the next call: a line that never ends is reported, not waited for.
    fn read_line(&mut self, buffer: &mut Vec<u8>) -> io::Result<Option<Line>> {
        if std::mem::take(&mut self.skipping) {
            self.skip_rest_of_line()?;
        }
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
            if too_long {
                self.skipping = true;
                return Ok(Some(Line { too_long }));
            }
        }
    }

    /// Consumes the input up to the end of the current line, its line ending included.
    fn skip_rest_of_line(&mut self) -> io::Result<()> {
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(());
            }
            let end = available.iter().position(|&b| b == b'\n' || b == b'\r');
            self.after_cr = end.is_some_and(|i| available[i] == b'\r');
            let used = end.map_or(available.len(), |i| i + 1);
            self.reader.consume(used);
            self.consumed += used as u64;
            if end.is_some() {
                return Ok(());
            }
        }
    }
}

/// The largest box size of a grid the parser accepts (36x36).
const MAX_BOX_SIZE: usize = 6;

/// The model of an empty grid for each box size (index), built on first use (by any thread).
type Models = [OnceLock<Result<Sudoku, String>>; MAX_BOX_SIZE + 1];

/// A solver per box size, on the model of the empty grid of that size: each puzzle restarts
/// it with its givens fixed, so the model is built once per size rather than once per line.
struct Solvers<'m> {
    models: &'m Models,
    solvers: [Option<CliSolver<'m>>; MAX_BOX_SIZE + 1],
    args: &'m SudokuArgs,
    /// A flag that stops every search, raised when the output fails.
    cancel: Option<Arc<AtomicBool>>,
}

impl<'m> Solvers<'m> {
    fn new(models: &'m Models, args: &'m SudokuArgs, cancel: Option<Arc<AtomicBool>>) -> Self {
        Solvers {
            models,
            solvers: Default::default(),
            args,
            cancel,
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
        let (args, cancel) = (self.args, &self.cancel);
        let slot = &mut self.solvers[b];
        if slot.is_none() {
            let solver = configure(sudoku.model(), &args.strategy, PropagationLevel::Full)
                .map_err(|e| e.to_string())?;
            *slot = Some(match cancel {
                Some(flag) => solver.with_cancel_flag(Arc::clone(flag)),
                None => solver,
            });
        }
        let Some(solver) = slot.as_mut() else {
            unreachable!("the solver was just made");
        };
        solver
            .restart_with(sudoku.givens(grid))
            .map_err(|e| e.to_string())?;
        Ok((sudoku, solver))
    }
}

fn solve_one(grid: &Grid, line: usize, solvers: &mut Solvers<'_>, args: &SudokuArgs) -> Answer {
    let (sudoku, solver) = match solvers.restarted_for(grid) {
        Ok(found) => found,
        Err(error) => return Answer::malformed(format!("malformed: line {line}: {error}")),
    };
    let (text, kind) = if args.mode.count {
        let count = solver.count_up_to(args.mode.limit.unwrap_or(u64::MAX));
        match count.stopped_by {
            Some(limit) if limit != cspkit::Limit::Solutions => (
                format!(
                    "stopped: {limit} after {}",
                    counted(count.solutions, "solution")
                ),
                Kind::Stopped,
            ),
            _ if count.solutions == 0 => ("0".to_owned(), Kind::Unsolvable),
            _ => (count.solutions.to_string(), Kind::Solved),
        }
    } else {
        match solver.next_solution() {
            Outcome::Solved(solution) => {
                let text = sudoku.grid_of(&solution).to_text(GridFormat::Line);
                (text.unwrap_or_default().trim_end().to_owned(), Kind::Solved)
            }
            Outcome::Exhausted => ("no solution".to_owned(), Kind::Unsolvable),
            Outcome::LimitReached(limit) => (format!("stopped: {limit}"), Kind::Stopped),
        }
    };
    Answer {
        text,
        kind,
        stats: solver.stats(),
    }
}

fn report(summary: &Summary, elapsed: Duration, strategy: &StrategyArgs) {
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
    print_stats(&summary.stats, strategy, &Defaults::at("full"), "done");
}
