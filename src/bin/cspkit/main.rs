//! The `cspkit` command-line program: a thin layer over the library's Sudoku and N-Queens
//! models. It reads input, picks the strategy from the flags, and prints; all solving is the
//! library's.

/// Writes a line on standard error, like `eprintln!`, but without panicking when standard
/// error is closed or full (`cspkit … 2>&1 | head`): there is nowhere left to report that.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod ac3_page;
mod args;
mod batch;
mod compare;
mod fzn;
mod local;
mod minizinc;
mod ozn;
mod puzzles;
mod step;

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use clap::Parser as _;
use cspkit::models::colouring::Colouring;
use cspkit::models::queens::Queens;
use cspkit::models::sudoku::{Grid, GridFormat, MAX_INPUT_BYTES, ParseError, Sudoku};
use cspkit::teach::html::Board;
use cspkit::teach::trace::Trace;
use cspkit::teach::tree::SearchTree;
use cspkit::teach::{TreeFormat, table};
use cspkit::{
    Domain, Limit, Model, ModelError, Outcome, PropagationLevel, SearchObserver, SearchStats,
    Solution, Solver,
};

use args::{
    ChosenValueOrder, ChosenVariableOrder, Cli, ColourArgs, Command, Defaults, LocalArgs,
    MAX_LOCAL_QUEENS, MAX_QUEENS, ModeArgs, QueensArgs, QueensModel, ShowArgs, StrategyArgs,
    SudokuArgs, TableFormat,
};

/// Exit codes.
pub(crate) mod exit {
    /// Solved (or counted at least one solution).
    pub const SOLVED: u8 = 0;
    /// No solution exists.
    pub const NO_SOLUTION: u8 = 1;
    /// Malformed input or bad usage.
    pub const BAD_INPUT: u8 = 2;
    /// A limit stopped the search before it could answer.
    pub const STOPPED: u8 = 3;
}

/// The Baekjoon 2239 example, solved when `cspkit` runs without arguments.
const SAMPLE_SUDOKU: &str = "\
103000509
002109400
000704000
300502006
060000050
700803004
000401000
009205800
804000107
";

fn main() -> ExitCode {
    started();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return ExitCode::from(usage(&error)),
    };
    let code = match cli.command {
        None => demo(),
        Some(Command::Sudoku(args)) if args.puzzle.any() => puzzles::run(&args),
        Some(Command::Sudoku(args)) if args.batch && args.local.local_search.is_none() => {
            batch::run(&args)
        }
        Some(Command::Sudoku(args)) => sudoku(&args),
        Some(Command::Queens(args)) => queens(&args),
        Some(Command::Colour(args)) => colour(&args),
        Some(Command::Compare(args)) => compare::run(&args),
        Some(Command::Fzn(args)) => minizinc::fzn(&args),
        Some(Command::Mzn(args)) => minizinc::mzn(&args),
    };
    ExitCode::from(code)
}

/// Prints a usage error, or the help or version asked for; returns the exit code.
fn usage(error: &clap::Error) -> u8 {
    let code = if error.use_stderr() {
        exit::BAD_INPUT
    } else {
        exit::SOLVED
    };
    match error.print() {
        Err(e) if !error.use_stderr() => output_failed(e, code),
        _ => code,
    }
}

/// Whether the reader of standard output has gone (a closed pipe: `cspkit … --trace | head`),
/// asked without writing anything.
#[cfg(unix)]
pub(crate) fn stdout_closed() -> bool {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;
    let stdout = io::stdout();
    let mut fds = [PollFd::new(stdout.as_fd(), PollFlags::POLLOUT)];
    poll(&mut fds, PollTimeout::ZERO).is_ok()
        && fds[0]
            .revents()
            .is_some_and(|r| r.intersects(PollFlags::POLLERR | PollFlags::POLLHUP))
}

/// Whether the reader of standard output has gone: not known on this system.
#[cfg(not(unix))]
pub(crate) fn stdout_closed() -> bool {
    false
}

/// Watches standard output while a search writes nothing to it (a trace past its limit):
/// when its reader goes, the search is stopped, as a write would have found.
pub(crate) fn watch_stdout() {
    let _ = std::thread::Builder::new()
        .name("stdout-watch".to_owned())
        .spawn(|| {
            loop {
                std::thread::sleep(std::time::Duration::from_millis(50));
                if stdout_closed() {
                    interrupt().store(true, Ordering::Relaxed);
                    return;
                }
            }
        });
}

/// What `make` builds, on a thread of its own, or `None` if the time limit (counted from the
/// start of the program) passes or Ctrl-C comes first: the thread is then left to end with the
/// program.
fn built_within<T: Send + 'static>(
    limit: Option<std::time::Duration>,
    make: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(make());
    });
    let slice = std::time::Duration::from_millis(10);
    loop {
        let wait = limit.map_or(slice, |limit| {
            limit.saturating_sub(started().elapsed()).min(slice)
        });
        match receive.recv_timeout(wait) {
            Ok(built) => return Some(built),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        let late = limit.is_some_and(|limit| started().elapsed() >= limit);
        if late || interrupt().load(Ordering::Relaxed) {
            return None;
        }
    }
}

/// When the program started: a time limit of local search counts the building of the model.
pub(crate) fn started() -> Instant {
    static START: OnceLock<Instant> = OnceLock::new();
    *START.get_or_init(Instant::now)
}

/// The flag that stops a running search: raised by Ctrl-C (SIGINT) or SIGTERM, and by a
/// trace whose reader has gone. A second signal ends the program at once.
pub(crate) fn interrupt() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let raised = Arc::clone(&flag);
        // If a handler cannot be installed, a signal ends the program as it would anyway.
        let _ = ctrlc::set_handler(move || {
            if raised.swap(true, Ordering::Relaxed) {
                // No `minizinc` nor temporary folder left behind.
                minizinc::abandon();
                std::process::exit(130);
            }
        });
        flag
    })
}

/// The solver the flags ask for.
pub(crate) type CliSolver<'m> = Solver<'m, ChosenVariableOrder, ChosenValueOrder>;

pub(crate) fn configure<'m>(
    model: &'m Model,
    strategy: &StrategyArgs,
    default_level: PropagationLevel,
) -> Result<CliSolver<'m>, ModelError> {
    Ok(model
        .solver_with(strategy.config(default_level))?
        .with_variable_order(strategy.variable_order())
        .with_value_order(strategy.value_order()))
}

/// Writes the statistics on standard error, as `--stats` asks: a line of text, or one row of
/// a strategy table (`strategy` and `defaults` name the row; `status` says how the search ended).
pub(crate) fn print_stats(
    stats: &SearchStats,
    strategy: &StrategyArgs,
    defaults: &Defaults,
    status: &str,
) {
    let Some(format) = strategy.stats else {
        return;
    };
    if format != TableFormat::Text {
        let names = strategy.names(defaults);
        let names = [&*names[0], &*names[1], &*names[2], &*names[3]];
        let row = table::Row::new(names, stats, status);
        let text = match format {
            TableFormat::Json => row.to_json(),
            _ => table::render(&[row], format.into()).trim_end().to_owned(),
        };
        note!("{text}");
        return;
    }
    let [var_order, value_order, propagation, branching] = strategy.names(defaults);
    note!(
        "strategy: var-order {var_order}, value-order {value_order}, propagation {propagation}, \
         branching {branching}"
    );
    let mut restarts = if stats.restarts > 0 {
        format!(", restarts {}", stats.restarts)
    } else {
        String::new()
    };
    if stats.revisions > 0 {
        restarts += &format!(
            ", arc revisions {}, values removed {}",
            stats.revisions, stats.removals
        );
    }
    note!(
        "decisions {}, tree nodes {}, failures {}, nassigns {}, backtracks {}, propagations {}, \
         domain changes {}, solutions {}, max depth {}{restarts}, time {:.3} ms",
        stats.decisions,
        stats.tree_nodes(),
        stats.failures,
        stats.nassigns,
        stats.backtracks,
        stats.propagations,
        stats.domain_changes,
        stats.solutions,
        stats.max_depth,
        stats.elapsed.as_secs_f64() * 1e3
    );
}

/// `count` and `noun`, in the plural unless `count` is 1.
pub(crate) fn counted(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Reports an error on standard error and returns the bad-input exit code.
pub(crate) fn bad_input(message: impl std::fmt::Display) -> u8 {
    note!("cspkit: {message}");
    exit::BAD_INPUT
}

/// Turns an output error into an exit code: a closed pipe (`cspkit … | head`) ends quietly.
pub(crate) fn output_failed(error: io::Error, code: u8) -> u8 {
    if error.kind() == io::ErrorKind::BrokenPipe {
        return code;
    }
    bad_input(format_args!("cannot write the output: {error}"))
}

/// Reads at most one byte more than a grid may take, from `file` or standard input if `None`.
fn read_input(file: Option<&Path>) -> Result<Vec<u8>, String> {
    let limit = MAX_INPUT_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    let result = match file {
        Some(path) => File::open(path)
            .and_then(|f| f.take(limit).read_to_end(&mut bytes))
            .map_err(|e| format!("{}: {e}", path.display())),
        None => {
            if io::stdin().is_terminal() {
                note!("cspkit: reading a puzzle from standard input (end it with Ctrl-D)");
            }
            io::stdin()
                .lock()
                .take(limit)
                .read_to_end(&mut bytes)
                .map_err(|e| format!("standard input: {e}"))
        }
    };
    result.map(|_| bytes)
}

/// Refuses options that make no sense together, with `--local-search` or without.
fn check_local_options(
    mode: &ModeArgs,
    strategy: &StrategyArgs,
    local: &LocalArgs,
    show: &ShowArgs,
) -> Result<(), u8> {
    if local.local_search.is_none() {
        return check_options(mode, strategy, show, false);
    }
    match LocalArgs::conflict(mode, strategy, show) {
        Some(message) => Err(bad_input(message)),
        None => Ok(()),
    }
}

/// Refuses options that make no sense together.
fn check_options(
    mode: &ModeArgs,
    strategy: &StrategyArgs,
    show: &ShowArgs,
    batch: bool,
) -> Result<(), u8> {
    let conflict = strategy
        .conflict(mode.count || mode.all, batch)
        .or_else(|| show.conflict(strategy, batch));
    if let Some(message) = conflict {
        return Err(bad_input(message));
    }
    match show.tree_format() {
        Some(Err(message)) => Err(bad_input(message)),
        _ => Ok(()),
    }
}

fn sudoku(args: &SudokuArgs) -> u8 {
    if args.local.local_search.is_some() && args.batch {
        return bad_input("--local-search solves one puzzle: it cannot be combined with --batch");
    }
    if let Err(code) = check_local_options(&args.mode, &args.strategy, &args.local, &args.show) {
        return code;
    }
    let (grid, input_format) =
        match load_grid(args.file.as_deref(), args.input_format.map(Into::into)) {
            Ok(loaded) => loaded,
            Err(code) => return code,
        };
    let format: GridFormat = args.format.map_or(input_format, Into::into);
    if let Err(error) = grid.to_text(format) {
        return bad_input(error);
    }
    let sudoku = match Sudoku::new(&grid) {
        Ok(sudoku) => sudoku,
        Err(error) => return bad_input(error),
    };
    if args.local.local_search.is_some() {
        let local = args.local.with_strategy(&args.strategy);
        return local::run(sudoku.model(), &local, &args.show, |solution| {
            sudoku.grid_of(solution).to_text(format).unwrap_or_default()
        });
    }
    let solver = match configure(sudoku.model(), &args.strategy, PropagationLevel::Full) {
        Ok(solver) => solver,
        Err(error) => return bad_input(error),
    };
    let separator = if format == GridFormat::Line { "" } else { "\n" };
    let answer = Answer {
        mode: &args.mode,
        strategy: &args.strategy,
        separator,
        defaults: Defaults::at("full"),
    };
    let board = Board::Grid {
        columns: grid.side(),
        cells: sudoku.cells().to_vec(),
    };
    let views = Views {
        render: |solution: &Solution| sudoku.grid_of(solution).to_text(format).unwrap_or_default(),
        state: |domains: &[Domain]| sudoku.board_at(domains),
        board,
    };
    watched(solver, &args.show, answer, views)
}

/// Reads and parses one grid from `file` (standard input if absent or `-`); a bad input is
/// reported, and its exit code returned.
pub(crate) fn load_grid(
    file: Option<&Path>,
    format: Option<GridFormat>,
) -> Result<(Grid, GridFormat), u8> {
    let path = file.filter(|p| p.as_os_str() != "-");
    let source = path.map_or("standard input".into(), |p| p.display().to_string());
    let bytes = read_input(path).map_err(bad_input)?;
    match Grid::parse_bytes(&bytes, format) {
        Ok(parsed) => Ok(parsed),
        Err(error @ ParseError::TextAfterGrid { .. }) => Err(bad_input(format_args!(
            "{source}: {error} (to solve one puzzle per line, use --batch)"
        ))),
        Err(error) => Err(bad_input(format_args!("{source}: {error}"))),
    }
}

/// The N-Queens model asked for.
pub(crate) fn queens_model(n: usize, model: QueensModel) -> Result<Queens, u8> {
    let built = match model {
        QueensModel::Alldiff => Queens::new(n),
        QueensModel::Binary => Queens::pairwise(n),
        QueensModel::Board => Queens::non_attacking(n),
    };
    built.map_err(bad_input)
}

/// The colouring of the graph named `graph`.
pub(crate) fn colouring(graph: &str, colours: i32) -> Result<Colouring, u8> {
    let built = match graph.strip_prefix("myciel").map(str::parse::<u32>) {
        _ if graph == "australia" => Colouring::australia(colours),
        Some(Ok(order)) if (3..=8).contains(&order) => Colouring::mycielski(order, colours),
        _ => {
            return Err(bad_input(format_args!(
                "unknown graph {graph:?}: the graphs are australia and myciel3 to myciel8"
            )));
        }
    };
    built.map_err(bad_input)
}

fn colour(args: &ColourArgs) -> u8 {
    if let Err(code) = check_local_options(&args.mode, &args.strategy, &args.local, &args.show) {
        return code;
    }
    let graph = match colouring(&args.graph, args.colours) {
        Ok(graph) => graph,
        Err(code) => return code,
    };
    if args.local.local_search.is_some() {
        let local = args.local.with_strategy(&args.strategy);
        return local::run(graph.model(), &local, &args.show, |solution| {
            format!("{}\n", graph.describe(solution))
        });
    }
    let solver = match configure(graph.model(), &args.strategy, PropagationLevel::Full) {
        Ok(solver) => solver,
        Err(error) => return bad_input(error),
    };
    let answer = Answer {
        mode: &args.mode,
        strategy: &args.strategy,
        separator: "",
        defaults: Defaults::at("full"),
    };
    // A graph has no board: --trace-domains shows the domains instead.
    let views = Views {
        render: |solution: &Solution| format!("{}\n", graph.describe(solution)),
        state: |_: &[Domain]| String::new(),
        board: Board::Table,
    };
    watched(solver, &args.show, answer, views)
}

fn queens(args: &QueensArgs) -> u8 {
    if let Err(code) = check_local_options(&args.mode, &args.strategy, &args.local, &args.show) {
        return code;
    }
    let local = args.local.local_search.is_some() && args.model == QueensModel::Alldiff;
    if args.n > MAX_QUEENS && !local {
        return bad_input(format_args!(
            "{} queens is too many for the tree search (at most {MAX_QUEENS}: its domains take \
             N² bits); --local-search min-conflicts with the alldiff model takes up to {MAX_LOCAL_QUEENS}",
            args.n
        ));
    }
    let built = if local {
        // Millions of queens take seconds to build, which the time limit counts.
        let (n, model) = (args.n as usize, args.model);
        let limit = args.local.with_strategy(&args.strategy).time_limit;
        match built_within(limit, move || queens_model(n, model)) {
            Some(built) => built,
            None => {
                note!(
                    "cspkit: no solution found in 0 steps ({}) (min-conflicts is incomplete: \
                     this does not mean there is none)",
                    if interrupt().load(Ordering::Relaxed) {
                        cspkit::Limit::Cancelled
                    } else {
                        cspkit::Limit::Time
                    }
                );
                return exit::STOPPED;
            }
        }
    } else {
        queens_model(args.n as usize, args.model)
    };
    let queens = match built {
        Ok(queens) => queens,
        Err(code) => return code,
    };
    if args.local.local_search.is_some() {
        let local = args.local.with_strategy(&args.strategy);
        let draw = queens.n() <= MAX_QUEENS as usize;
        return local::run(queens.model(), &local, &args.show, |solution| {
            let columns: Vec<String> = queens
                .columns(solution)
                .iter()
                .map(ToString::to_string)
                .collect();
            let board = if draw {
                queens.board(solution)
            } else {
                String::new()
            };
            format!("{board}{}\n", columns.join(" "))
        });
    }
    let solver = match configure(queens.model(), &args.strategy, Queens::DEFAULT_PROPAGATION) {
        Ok(solver) => solver,
        Err(error) => return bad_input(error),
    };
    let answer = Answer {
        mode: &args.mode,
        strategy: &args.strategy,
        separator: "\n",
        defaults: Defaults::at("forward"),
    };
    let board = Board::Queens {
        rows: queens.rows().to_vec(),
        first_column: 1,
    };
    let views = Views {
        render: |solution: &Solution| {
            let columns: Vec<String> = queens
                .columns(solution)
                .iter()
                .map(ToString::to_string)
                .collect();
            format!("{}{}\n", queens.board(solution), columns.join(" "))
        },
        state: |domains: &[Domain]| queens.board_at(domains),
        board,
    };
    watched(solver, &args.show, answer, views)
}

/// What to print and how: the mode, the strategy (for `--jobs` and `--stats`), and what goes
/// between two solutions.
#[derive(Clone, Copy)]
pub(crate) struct Answer<'a> {
    pub(crate) mode: &'a ModeArgs,
    pub(crate) strategy: &'a StrategyArgs,
    pub(crate) separator: &'a str,
    /// What the puzzle does where no option says, for `--stats` rows.
    pub(crate) defaults: Defaults,
}

/// Runs [`search`] with the observers `show` asks for (none by default, at full speed): a
/// trace, a tree written to a file, or stepping (which shows the board drawn by `state` after
/// each node).
fn watched(
    solver: CliSolver<'_>,
    show: &ShowArgs,
    answer: Answer<'_>,
    views: Views<impl Fn(&Solution) -> String, impl Fn(&[Domain]) -> String>,
) -> u8 {
    // Ctrl-C (or SIGTERM) stops the search cleanly: the answer so far and --stats are printed.
    let solver = solver.with_cancel_flag(Arc::clone(interrupt()));
    let tree_file = match TreeFile::create(show) {
        Ok(file) => file,
        Err(code) => return code,
    };
    let ac3_page = match ac3_page::Ac3Page::create(show) {
        Ok(file) => file,
        Err(code) => return code,
    };
    if show.step {
        return step::run(solver, show, answer, &views, tree_file);
    }
    if !show.tracing() && tree_file.is_none() && ac3_page.is_none() {
        return search(solver, answer, views.render);
    }
    let model = solver.model();
    let lines = usize::try_from(show.trace_limit).unwrap_or(usize::MAX);
    let trace = show.tracing().then(|| {
        Trace::new(model, io::stdout())
            .with_domains(show.trace_domains)
            .with_limit(lines)
            // A reader gone (`--trace | head`): no point searching on.
            .with_stop_on_error(Arc::clone(interrupt()))
    });
    if show.tracing() {
        watch_stdout();
    }
    let tree = tree_file.as_ref().map(|file| file.recorder(model, show));
    let recorder = ac3_page.as_ref().map(|page| page.recorder(model));
    let mut observers = ((trace, tree), recorder);
    let mut code = search(solver.with_observer(&mut observers), answer, views.render);
    let ((trace, tree), recorder) = observers;
    if let (Some(recorder), Some(page)) = (recorder, ac3_page)
        && let Err(failed) = page.write(model, &recorder, &views.board)
    {
        return failed;
    }
    if let Some(mut trace) = trace
        && let Err(error) = trace.finish()
    {
        code = output_failed(error, code);
    }
    if let (Some(tree), Some(file)) = (tree, tree_file)
        && let Err(failed) = file.write(&tree, &views.board)
    {
        return failed;
    }
    code
}

/// How a puzzle is shown: its solutions (`render`), the state of a search at a node for
/// `--step` (`state`, from the domains there; empty for no board), and its board on the
/// `--tree` page.
pub(crate) struct Views<R, S> {
    pub(crate) render: R,
    pub(crate) state: S,
    pub(crate) board: Board,
}

/// The file `--tree` names, created before the search so that a path that cannot be written
/// is reported before any time is spent, and the format its extension asks for.
pub(crate) struct TreeFile<'a> {
    path: &'a Path,
    format: TreeFormat,
    file: File,
}

impl<'a> TreeFile<'a> {
    /// Creates the file of `--tree`, if there is one; a file that cannot be created is
    /// reported, and the exit code returned.
    pub(crate) fn create(show: &'a ShowArgs) -> Result<Option<Self>, u8> {
        let (Some(Ok(format)), Some(path)) = (show.tree_format(), show.tree.as_deref()) else {
            return Ok(None);
        };
        match File::create(path) {
            Ok(file) => Ok(Some(TreeFile { path, format, file })),
            Err(error) => Err(bad_input(format_args!(
                "cannot write the tree to {}: {error}",
                path.display()
            ))),
        }
    }

    /// A recorder of the tree, with the domains at each node if the format shows them (the
    /// page).
    pub(crate) fn recorder<'m>(&self, model: &'m Model, show: &ShowArgs) -> SearchTree<'m> {
        let nodes = usize::try_from(show.tree_limit).unwrap_or(usize::MAX);
        SearchTree::new(model)
            .with_limit(nodes)
            .with_domains(self.format == TreeFormat::Html)
    }

    /// Draws `tree` in the file's format and writes it, saying on standard error if the tree
    /// was cut; a file that cannot be written is reported, and the exit code returned.
    pub(crate) fn write(mut self, tree: &SearchTree<'_>, board: &Board) -> Result<(), u8> {
        let text = self.format.render(tree, board, &tree_title(tree));
        if let Err(error) = self.file.write_all(text.as_bytes()) {
            note!(
                "cspkit: cannot write the tree to {}: {error}",
                self.path.display()
            );
            return Err(exit::BAD_INPUT);
        }
        if tree.cut() > 0 {
            note!(
                "cspkit: the tree holds the first {} tree nodes; {} more were made (--tree-limit)",
                tree.nodes().len(),
                tree.cut()
            );
        }
        Ok(())
    }
}

/// The title of a tree's page: how many nodes it holds, and of how many when it was cut.
fn tree_title(tree: &SearchTree<'_>) -> String {
    let held = tree.nodes().len() as u64;
    if tree.cut() > 0 {
        format!(
            "cspkit: the search tree (the first {} of {} tree nodes)",
            held,
            held + tree.cut()
        )
    } else {
        format!("cspkit: the search tree ({})", counted(held, "tree node"))
    }
}

/// Runs the search the mode asks for and prints the answer; returns the exit code.
fn search<O: SearchObserver>(
    mut solver: Solver<'_, ChosenVariableOrder, ChosenValueOrder, O>,
    answer: Answer<'_>,
    render: impl Fn(&Solution) -> String,
) -> u8 {
    let Answer {
        mode,
        strategy,
        separator,
        ..
    } = answer;
    let mut out = io::stdout().lock();
    let limit = mode.limit.unwrap_or(u64::MAX);
    let jobs = strategy.jobs;
    let (found, stopped_by) = if mode.count {
        let count = if jobs.get() > 1 {
            solver.count_up_to_parallel(limit, jobs)
        } else {
            solver.count_up_to(limit)
        };
        // A count cut short by a node or time limit is only a lower bound: it goes to the
        // message on standard error, never to standard output, where it would read as the answer.
        let answered = matches!(count.stopped_by, None | Some(Limit::Solutions));
        if answered && let Err(e) = writeln!(out, "{}", count.solutions) {
            return output_failed(e, exit::SOLVED);
        }
        (count.solutions, count.stopped_by)
    } else if mode.all && jobs.get() > 1 {
        let mut found = 0;
        let mut failed = None;
        let stopped_by = solver.for_each_solution_parallel(jobs, |solution| {
            let sep = if found > 0 { separator } else { "" };
            if let Err(e) = write!(out, "{sep}{}", render(&solution)) {
                failed = Some(e);
                return ControlFlow::Break(());
            }
            found += 1;
            if found < limit {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        });
        if let Some(e) = failed {
            return output_failed(e, exit::SOLVED);
        }
        (
            found,
            stopped_by.or((found == limit).then_some(Limit::Solutions)),
        )
    } else if mode.all {
        let mut found = 0;
        let mut solutions = solver.solutions();
        while found < limit {
            let Some(solution) = solutions.next() else {
                break;
            };
            let text = render(&solution);
            let sep = if found > 0 { separator } else { "" };
            if let Err(e) = write!(out, "{sep}{text}") {
                return output_failed(e, exit::SOLVED);
            }
            found += 1;
        }
        let stopped_by = solutions
            .stopped_by()
            .or((found == limit).then_some(Limit::Solutions));
        (found, stopped_by)
    } else {
        // The first solution, by restarts if asked for.
        match solver.next_solution() {
            Outcome::Solved(solution) => {
                if let Err(e) = write!(out, "{}", render(&solution)) {
                    return output_failed(e, exit::SOLVED);
                }
                (1, None)
            }
            Outcome::Exhausted => (0, None),
            Outcome::LimitReached(limit) => (0, Some(limit)),
        }
    };
    if let Err(e) = out.flush() {
        return output_failed(e, exit::SOLVED);
    }
    if stopped_by == Some(Limit::Cancelled) && stdout_closed() {
        // Stopped because the reader has gone (`--trace | head`): quietly, as a failed write.
        return exit::SOLVED;
    }
    let status = stopped_by.map_or_else(|| "done".to_owned(), |limit| limit.to_string());
    print_stats(&solver.stats(), strategy, &answer.defaults, &status);
    match stopped_by {
        Some(Limit::Solutions) => {
            note!(
                "cspkit: stopped after {} (--limit); there may be more",
                counted(found, "solution")
            );
            exit::SOLVED
        }
        Some(limit) => {
            note!(
                "cspkit: search stopped ({limit}) after {}: the answer is incomplete",
                counted(found, "solution")
            );
            exit::STOPPED
        }
        None if found == 0 => {
            note!("cspkit: no solution");
            exit::NO_SOLUTION
        }
        None => exit::SOLVED,
    }
}

fn demo() -> u8 {
    match write_demo(&mut io::stdout().lock()) {
        Ok(()) => exit::SOLVED,
        Err(error) => output_failed(error, exit::SOLVED),
    }
}

/// What `cspkit` prints without arguments: the samples solved, and usage hints.
fn write_demo(out: &mut impl Write) -> io::Result<()> {
    let grid = Grid::parse(SAMPLE_SUDOKU, None).expect("the built-in sample is a valid grid");
    let sudoku = Sudoku::new(&grid).expect("a valid grid makes a valid model");
    let solution = sudoku.solve().expect("the built-in sample is solvable");
    let solution = solution.to_text(GridFormat::Compact).unwrap_or_default();
    writeln!(
        out,
        "cspkit: a constraint-satisfaction engine, with Sudoku and N-Queens on top.\n"
    )?;
    writeln!(
        out,
        "Sudoku (the Baekjoon 2239 example), lexicographically smallest solution:\n"
    )?;
    writeln!(out, "  puzzle      solution")?;
    for (p, s) in SAMPLE_SUDOKU.lines().zip(solution.lines()) {
        writeln!(out, "  {p}   {s}")?;
    }
    let queens = Queens::new(8).expect("8 queens is a valid model");
    let mut solver = queens
        .model()
        .solver()
        .with_propagation(Queens::DEFAULT_PROPAGATION);
    if let Some(first) = solver.next_solution().solution() {
        let columns: Vec<String> = queens
            .columns(&first)
            .iter()
            .map(ToString::to_string)
            .collect();
        writeln!(
            out,
            "\n8-Queens, first placement (columns {}) of {}:\n",
            columns.join(" "),
            queens.count()
        )?;
        for row in queens.board(&first).lines() {
            writeln!(out, "  {row}")?;
        }
    }
    writeln!(
        out,
        "\nTry (files from the repository's samples/ folder; in a clone, \
         `cargo run --release -- ARGS` runs\n`cspkit ARGS`, and `cargo install --path .` puts \
         cspkit on your PATH):\n  \
         cspkit sudoku samples/sudoku/2239.txt           solve a puzzle (compact, spaced or line format)\n  \
         cspkit sudoku --batch samples/sudoku/batch.txt  one puzzle per line\n  \
         cspkit queens 12 --count                        count the placements of 12 queens\n  \
         cspkit queens 4 --trace                         watch the search\n  \
         cspkit fzn --install-msc                        then: minizinc --solver cspkit samples/minizinc/queens.mzn samples/minizinc/queens.dzn\n  \
         cspkit help sudoku                              every option, with examples"
    )?;
    out.flush()
}
