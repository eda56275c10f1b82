//! `cspkit fzn` and `cspkit mzn`: any FlatZinc or MiniZinc model, solved and watched with the
//! views of the built-in puzzles (the trace, the tree, stepping, `--stats`), its search
//! following the model's annotations unless the strategy options say otherwise.
//!
//! `cspkit mzn` compiles the model with the installed `minizinc` and cspkit's MiniZinc library
//! (written to a temporary solver configuration) into FlatZinc, then solves that as
//! `cspkit fzn` does.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError, TryLockError};
use std::time::{Duration, Instant};

use cspkit::flatzinc::{self, FznModel, Goal, Options, OutputItem, OutputValue, Status};
use cspkit::puzzle::{Explainer, Step};
use cspkit::teach::html::{Board, BoardArray};
use cspkit::teach::trace::Trace;
use cspkit::{Branching, Domain, Limit, ModelError, Outcome, PropagationLevel, Solution, VarId};

use crate::args::{
    ChosenValueOrder, ChosenVariableOrder, Defaults, FznArgs, LocalArgs, ModeArgs, ModelRunArgs,
    MznArgs,
};
use crate::enums::Enums;
use crate::limits::interrupt;
use crate::output::{
    bad_input, counted, exit, output_failed, print_stats, stdout_closed, watch_stdout,
};
use crate::output_item::ModelOutput;
use crate::ozn::{Rewrite, SetOutputs, SetWriter};
use crate::run::{Answer, CliSolver, TreeFile, Views, configure};
use crate::step::Marks;
use crate::{ac3_page, fzn, local, step};

/// The defaults of a model's search, as `--stats` names them.
const DEFAULTS: Defaults = Defaults {
    level: "full",
    var_order: "annotations",
    value_order: "annotations",
};

/// The defaults with `-f`: smallest domain first, the smallest value first.
const FREE_DEFAULTS: Defaults = Defaults {
    level: "full",
    var_order: "mrv",
    value_order: "asc",
};

/// The defaults with `-f` on a scheduling model ([`FznModel::is_scheduling`]): the start
/// times by smallest minimum, then smallest domain first; the smallest value first.
const FREE_SCHEDULING_DEFAULTS: Defaults = Defaults {
    level: "full",
    var_order: "start-times+mrv",
    value_order: "asc",
};

/// `cspkit fzn`.
pub(crate) fn fzn(args: &FznArgs) -> u8 {
    if let Some(dir) = &args.install_msc {
        return match fzn::install(dir.clone()) {
            Ok(()) => exit::SOLVED,
            Err(message) => bad_input(message),
        };
    }
    let Some(path) = args.model.as_deref() else {
        return bad_input("no model file given (see cspkit fzn --help)");
    };
    if let Err(code) = check(&args.run) {
        return code;
    }
    solve(
        path,
        &path.display().to_string(),
        &args.run,
        &SetOutputs::default(),
        None,
        &Enums::default(),
    )
}

/// `cspkit mzn`.
pub(crate) fn mzn(args: &MznArgs) -> u8 {
    if let Err(code) = check(&args.run) {
        return code;
    }
    let compiled = match Compiled::new(&args.model, &args.data) {
        Ok(compiled) => compiled,
        // Stopped by a signal: not the input's fault.
        Err(message) if interrupt().load(Ordering::Relaxed) => {
            note!("cspkit: {message}");
            return exit::STOPPED;
        }
        Err(message) => return bad_input(message),
    };
    // The sets of the model, which the FlatZinc holds as booleans.
    let ozn = std::fs::read_to_string(compiled.dir.join("model.ozn")).unwrap_or_default();
    let sets = SetOutputs::read(&ozn);
    // The model's output item prints the solutions, unless the FlatZinc format is asked for.
    let item = (!args.fzn_output && !ozn.is_empty())
        .then(|| ModelOutput::new(compiled.dir.join("model.ozn")));
    let enums = Enums::read(&args.model, &args.data, &ozn);
    solve(
        &compiled.fzn,
        &compiled_name(&args.model),
        &args.run,
        &sets,
        item.as_ref(),
        &enums,
    )
}

/// How messages name the FlatZinc compiled from `model`: its lines are the FlatZinc's.
fn compiled_name(model: &Path) -> String {
    format!("{} (compiled to FlatZinc)", model.display())
}

/// Refuses options that make no sense for a model.
fn check(run: &ModelRunArgs) -> Result<(), u8> {
    if run.local.local_search.is_some() {
        let mode = mode_of(run);
        let conflict = LocalArgs::conflict(&mode, &run.strategy, &run.show).or(run
            .statistics
            .then_some("--local-search has no %%%mzn-stat: lines: use --stats"));
        return match conflict {
            Some(message) => Err(bad_input(message)),
            None => Ok(()),
        };
    }
    let conflict = if run.strategy.jobs.get() > 1 {
        Some("--jobs: the search of a model runs on one thread")
    } else if run.free && run.strategy.var_order.is_some() {
        Some("-f (free search) and --var-order both replace the annotations: give one")
    } else {
        run.strategy
            .conflict(run.all || run.count, false)
            .or_else(|| run.show.conflict(&run.strategy, false))
    };
    if let Some(message) = conflict {
        return Err(bad_input(message));
    }
    match run.show.tree_format() {
        Some(Err(message)) => Err(bad_input(message)),
        _ => Ok(()),
    }
}

/// Reads, builds and solves the FlatZinc model at `path` (`name` is the file the user gave);
/// returns the exit code.
/// `sets` rewrites the booleans of the model's set variables as sets; `item`, if any, writes
/// the solutions instead, as the model's output item says.
fn solve(
    path: &Path,
    name: &str,
    run: &ModelRunArgs,
    sets: &SetOutputs,
    item: Option<&ModelOutput>,
    enums: &Enums,
) -> u8 {
    let mut fzn = match load(path, name) {
        Ok(fzn) => fzn,
        Err(message) => return bad_input(message),
    };
    enums.apply(&mut fzn);
    let fzn = fzn;
    if run.explain {
        return explain(&fzn, run);
    }
    let rewrite: &dyn Rewrite = match item {
        Some(item) => item,
        None => sets,
    };
    if run.count && !matches!(fzn.goal(), Goal::Satisfy) {
        return bad_input(
            "--count counts the solutions of a satisfaction model; this model optimises \
             (-a lists each improving solution)",
        );
    }
    if run.show.step && !matches!(fzn.goal(), Goal::Satisfy) {
        return bad_input(
            "--step follows a search for solutions; this model optimises (use --trace or --tree)",
        );
    }
    let options = Options {
        all: run.all || run.count,
        solutions: run.solutions.or(run.limit),
        time_limit: None,
        free: run.free,
        seed: run.random_seed.unwrap_or_default(),
        statistics: run.statistics,
        // The search shown is branch and bound's own; `fzn-cspkit` adds neighbourhoods.
        lns: false,
        // The solver below has the interrupt flag already.
        cancel: None,
    };
    if run.local.local_search.is_some() {
        // A solution of the constraints: for an optimisation, not a claim of the best.
        if let Goal::Optimize { minimize, .. } = *fzn.goal() {
            note!(
                "cspkit: --local-search ignores the objective ({}): it looks for any solution \
                 of the constraints, not the best",
                if minimize { "minimize" } else { "maximize" }
            );
        }
        let mut local = run.local.with_strategy(&run.strategy);
        local.time_limit = time_limit(run);
        return local::run(fzn.model(), &local, &run.show, |solution| {
            rewrite.rewrite_all(&solution_text(&fzn, solution))
        });
    }
    let defaults = match (run.free, fzn.is_scheduling()) {
        (false, _) => DEFAULTS,
        (true, false) => FREE_DEFAULTS,
        (true, true) => FREE_SCHEDULING_DEFAULTS,
    };
    let solver = match configure_model(&fzn, run) {
        Ok(solver) => solver.with_cancel_flag(Arc::clone(interrupt())),
        Err(error) => return bad_input(format_args!("{name}: {error}")),
    };
    let tree_file = match TreeFile::create(&run.show) {
        Ok(file) => file,
        Err(code) => return code,
    };
    let board = board_of(&fzn);
    if run.show.step {
        let mode = mode_of(run);
        let answer = Answer {
            mode: &mode,
            strategy: &run.strategy,
            separator: "",
            defaults,
        };
        let views = Views {
            render: |solution: &Solution| rewrite.rewrite_all(&solution_text(&fzn, solution)),
            state: |domains: &[Domain], marks: &Marks| board_text(&fzn, domains, marks),
            board,
        };
        return step::run(solver, &run.show, answer, &views, tree_file);
    }
    let model = solver.model();
    let lines = usize::try_from(run.show.trace_limit).unwrap_or(usize::MAX);
    let trace = run.show.tracing().then(|| {
        Trace::new(model, io::stdout())
            .with_domains(run.show.trace_domains)
            .with_counting(solver.config().counting())
            .with_limit(lines)
            .with_stop_on_error(Arc::clone(interrupt()))
    });
    let tree = tree_file
        .as_ref()
        .map(|file| file.recorder(model, &run.show));
    let ac3_page = match ac3_page::Ac3Page::create(&run.show) {
        Ok(page) => page,
        Err(code) => return code,
    };
    let recorder = ac3_page.as_ref().map(|page| page.recorder(model));
    if run.show.tracing() {
        watch_stdout();
    }
    let mut observers = ((trace, tree), recorder);
    let mut solver = solver.with_observer(&mut observers);
    // With a trace, the answer and the trace share standard output unbuffered, in order.
    // --count prints no solution, only their number.
    let printed = |out: Box<dyn Write>| -> Box<dyn Write> {
        if run.count { Box::new(io::sink()) } else { out }
    };
    let mut found = 0;
    // The output item's printer, for a stream of solutions without a trace between them.
    let printer = match item {
        Some(item) if !run.count && !run.show.tracing() => match item.spawn() {
            Ok(printer) => Some(printer),
            Err(error) => return bad_input(format_args!("cannot run minizinc: {error}")),
        },
        _ => None,
    };
    let status = if run.show.tracing() {
        // Each solution through the output item as it comes, in order with the trace.
        let mut out = Counting::new(SetWriter::new(rewrite, printed(Box::new(io::stdout()))));
        let status = flatzinc::solve(&fzn, &options, &mut solver, &mut out);
        found = out.solutions;
        status
    } else if let Some(mut printer) = printer {
        let mut out = Counting::new(io::BufWriter::new(printer.input()));
        let status = flatzinc::solve(&fzn, &options, &mut solver, &mut out).and_then(|s| {
            out.flush()?;
            Ok(s)
        });
        found = out.solutions;
        drop(out);
        status.and_then(|s| {
            printer.finish()?;
            Ok(s)
        })
    } else {
        let stdout = Box::new(io::BufWriter::new(io::stdout().lock()));
        let mut out = Counting::new(SetWriter::new(sets, printed(stdout)));
        flatzinc::solve(&fzn, &options, &mut solver, &mut out).and_then(|s| {
            out.flush()?;
            found = out.solutions;
            Ok(s)
        })
    };
    let stats = solver.stats();
    drop(solver);
    let ((trace, tree), recorder) = observers;
    // A model's graph is drawn on a circle: its variables are not one grid.
    if let (Some(recorder), Some(page)) = (recorder, ac3_page)
        && let Err(failed) = page.write(fzn.model(), &recorder, &Board::Table)
    {
        return failed;
    }
    let stopped = if matches!(status, Ok(Status::Unknown)) {
        "stopped"
    } else {
        "done"
    };
    // --limit, as the puzzles take it: reached, the answer is what was asked for.
    let limited = run.limit.is_some_and(|limit| found >= limit);
    let stopped_at_limit = limited && matches!(status, Ok(Status::Solutions));
    let answered = status.is_ok();
    let mut code = match status {
        Ok(Status::Solutions) if run.count && !limited => {
            note!(
                "cspkit: search stopped after {}: the count is incomplete",
                counted(found, "solution")
            );
            exit::STOPPED
        }
        Ok(Status::Solutions | Status::Complete) => exit::SOLVED,
        Ok(Status::Unsatisfiable) => exit::NO_SOLUTION,
        Ok(Status::Unknown) => exit::STOPPED,
        Err(error) => output_failed(error, exit::SOLVED),
    };
    if run.count && code != exit::STOPPED && answered {
        let mut out = io::stdout().lock();
        if let Err(error) = writeln!(out, "{found}").and_then(|()| out.flush()) {
            code = output_failed(error, code);
        }
    }
    if let Some(mut trace) = trace
        && let Err(error) = trace.finish()
    {
        code = output_failed(error, code);
    }
    if let (Some(tree), Some(file)) = (tree, tree_file)
        && let Err(failed) = file.write(&tree, &board_of(&fzn))
    {
        return failed;
    }
    if run.show.tracing() && stdout_closed() {
        // The reader has gone (`--trace | head`): quietly, as a failed write.
        return exit::SOLVED;
    }
    print_stats(&stats, &run.strategy, &defaults, stopped);
    if stopped_at_limit {
        note!(
            "cspkit: stopped after {} (--limit); there may be more",
            counted(found, "solution")
        );
    }
    code
}

/// A writer of FlatZinc solutions that counts them: the lines `----------` that end each.
struct Counting<W> {
    inner: W,
    solutions: u64,
    /// The start of the line being written: enough to tell the separator.
    line: Vec<u8>,
}

impl<W: Write> Counting<W> {
    fn new(inner: W) -> Self {
        Counting {
            inner,
            solutions: 0,
            line: Vec::new(),
        }
    }
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(buf)?;
        for &byte in &buf[..written] {
            if byte == b'\n' {
                if self.line == b"----------" {
                    self.solutions += 1;
                }
                self.line.clear();
            } else if self.line.len() <= 10 {
                self.line.push(byte);
            }
        }
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// What the MiniZinc flags ask of the solutions, as the built-in puzzles' options say it.
fn mode_of(run: &ModelRunArgs) -> ModeArgs {
    ModeArgs {
        count: run.count,
        all: run.all || run.solutions.is_some(),
        limit: run.solutions.or(run.limit),
    }
}

/// A solution in the FlatZinc output format, ended by `----------`.
fn solution_text(fzn: &FznModel, solution: &Solution) -> String {
    let mut text = Vec::new();
    let _ = flatzinc::write_solution(fzn, solution, &mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// The tighter of `-t` (milliseconds) and `--time-limit` (seconds).
/// `--explain`: the library's solving path of the model, with guesses from a first solution
/// (the objective, if any, plays no part). A path that stops where a guess is needed says
/// why: the model has no solution, or a limit stopped the search for one.
fn explain(fzn: &FznModel, run: &ModelRunArgs) -> u8 {
    let started = Instant::now();
    let limit = time_limit(run);
    let mut explainer = Explainer::new(fzn.model());
    let mut solver = fzn
        .model()
        .solver()
        .with_cancel_flag(Arc::clone(interrupt()));
    if let Some(limit) = limit {
        solver = solver.with_time_limit(limit);
    }
    if let Some(nodes) = run.strategy.decision_limit {
        solver = solver.with_decision_limit(nodes);
    }
    let search = solver.next_solution();
    if let Outcome::Solved(solution) = &search {
        explainer = explainer.with_guesses_from(solution.values());
    }
    let mut out = io::stdout().lock();
    let mut code = exit::SOLVED;
    // The path itself does not search, but a long one takes time: the limits hold between
    // steps.
    let interrupted = || {
        if interrupt().load(Ordering::Relaxed) {
            Some(Limit::Cancelled)
        } else if limit.is_some_and(|limit| started.elapsed() >= limit) {
            Some(Limit::Time)
        } else {
            None
        }
    };
    while let Some(step) = explainer.next_step() {
        let text = match (&step, &search) {
            (Step::Contradiction { .. }, _) => {
                code = exit::NO_SOLUTION;
                step.describe(fzn.model())
            }
            (Step::Stuck, Outcome::Exhausted) => {
                code = exit::NO_SOLUTION;
                "no deduction left, and a search finds no solution: the model has none".to_owned()
            }
            (Step::Stuck, Outcome::LimitReached(limit)) => {
                code = exit::STOPPED;
                format!("no deduction left, and the search for a solution stopped: {limit}")
            }
            _ => step.describe(fzn.model()),
        };
        if let Err(error) = writeln!(out, "{text}") {
            return output_failed(error, code);
        }
        if !step.is_last()
            && let Some(limit) = interrupted()
        {
            note!("cspkit: --explain stopped ({limit}) before the end of the path");
            return exit::STOPPED;
        }
    }
    match (code, &search) {
        (exit::NO_SOLUTION, _) => note!("cspkit: no solution"),
        (exit::STOPPED, Outcome::LimitReached(limit)) => {
            note!(
                "cspkit: --explain stopped ({limit}): whether the model has a solution is not known"
            );
        }
        _ => {}
    }
    code
}

fn time_limit(run: &ModelRunArgs) -> Option<Duration> {
    [
        run.time_limit_ms.map(Duration::from_millis),
        run.strategy.time_limit,
    ]
    .into_iter()
    .flatten()
    .min()
}

/// Reads and builds the FlatZinc model at `path`; errors name `name`.
fn load(path: &Path, name: &str) -> Result<FznModel, String> {
    let text = fzn::read_model(&path.display().to_string())
        .map_err(|e| e.replace(&path.display().to_string(), name))?;
    // The text, then the items, are let go as soon as read: a model's data can be large.
    let items = flatzinc::parse(&text).map_err(|e| format!("{name}: {e}"))?;
    drop(text);
    let fzn = flatzinc::build(&items).map_err(|e| format!("{name}: {e}"))?;
    for warning in fzn.warnings() {
        note!("cspkit: warning: {name}: {warning}");
    }
    Ok(fzn)
}

/// The solver of a model: its search annotations' orders, unless the options name others
/// (`-f`: the start times of tasks by smallest minimum, then smallest domain first, and the
/// smallest value), at full propagation by default; the
/// time limit is the tighter of `-t` and `--time-limit`.
pub(crate) fn configure_model<'m>(
    fzn: &'m FznModel,
    run: &ModelRunArgs,
) -> Result<CliSolver<'m>, ModelError> {
    let strategy = &run.strategy;
    let mut solver = configure(fzn.model(), strategy, PropagationLevel::Full)?;
    let variables = match strategy.var_order {
        Some(_) => strategy.variable_order(),
        None if run.free => ChosenVariableOrder::Annotations(fzn.unannotated_order()),
        None => ChosenVariableOrder::Annotations(fzn.variable_order()),
    };
    let values = match strategy.value_order {
        Some(_) => strategy.value_order(),
        None if run.free => strategy.value_order(),
        None => ChosenValueOrder::Annotations(fzn.value_order(run.random_seed.unwrap_or(0))),
    };
    let annotated_values = matches!(values, ChosenValueOrder::Annotations(_));
    solver = solver
        .with_variable_order(variables)
        .with_value_order(values);
    if annotated_values && Branching::from(strategy.branching) == Branching::Assign {
        solver = solver.with_branching(fzn.branching());
    }
    if let Some(limit) = time_limit(run) {
        solver = solver.with_time_limit(limit);
    }
    Ok(solver)
}

/// The page's board for a model: its output arrays (a row for one index set, a grid for two
/// or more, rows of the last) and its output variables, one cell each; the table of all
/// variables if it outputs none.
pub(crate) fn board_of(fzn: &FznModel) -> Board {
    let arrays = output_arrays(fzn);
    if arrays.is_empty() {
        Board::Table
    } else {
        Board::Arrays(arrays)
    }
}

/// The model's output, as the arrays of a board.
fn output_arrays(fzn: &FznModel) -> Vec<BoardArray> {
    let cell = |value: &OutputValue| match *value {
        OutputValue::Var(var, _) => Some(var),
        _ => None,
    };
    let constant = |value: &OutputValue| match *value {
        OutputValue::Int(v) => Some(v),
        OutputValue::Bool(b) => Some(i64::from(b)),
        OutputValue::Var(..) => None,
    };
    fzn.output()
        .iter()
        .map(|item| match item {
            OutputItem::Scalar { name, value } => BoardArray {
                name: name.clone(),
                columns: 1,
                cells: vec![cell(value)],
                constants: vec![constant(value)],
            },
            OutputItem::Array {
                name,
                ranges,
                values,
            } => BoardArray {
                name: name.clone(),
                columns: ranges.last().map_or(1, |&(low, high)| {
                    usize::try_from(high - low + 1).unwrap_or(1).max(1)
                }),
                cells: values.iter().map(cell).collect(),
                constants: values.iter().map(constant).collect(),
            },
        })
        .filter(|a| a.cells.iter().any(Option::is_some))
        .collect()
}

/// The board `--step` shows after a node: each output array as rows of cells, a fixed cell
/// (or a constant) with its value and an open one with its candidates, values by their enum's
/// names; the plain (scalar) variables together on one line; nothing for a model without
/// output.
fn board_text(fzn: &FznModel, domains: &[Domain], marks: &Marks) -> String {
    let model = fzn.model();
    let show = |cell: &Option<VarId>, constant: &Option<i64>| match cell
        .and_then(|var| Some((var, domains.get(var.index())?)))
    {
        Some((var, domain)) => match domain.value() {
            Some(v) => model.value_name(var, v).into_owned(),
            None => model.domain_text(var, domain),
        },
        None => constant.map_or_else(|| "·".to_owned(), |v| v.to_string()),
    };
    let mut text = String::new();
    let mut scalars = Vec::new();
    for array in output_arrays(fzn) {
        let cells: Vec<String> = array
            .cells
            .iter()
            .zip(&array.constants)
            .map(|(cell, constant)| show(cell, constant))
            .collect();
        let mark = |i: usize, text: &str| match array.cells.get(i).copied().flatten() {
            Some(var) => marks.cell(var, text),
            None => text.to_owned(),
        };
        if let [cell] = cells.as_slice() {
            scalars.push(mark(0, &format!("{} = {cell}", array.name)));
            continue;
        }
        let columns = array.columns.max(1);
        // A row indexed by an enum: its names above the cells (`WA NT SA`).
        let header: Option<Vec<String>> = (cells.len() == columns)
            .then(|| {
                array
                    .cells
                    .iter()
                    .map(|cell| {
                        let name = model.var_name((*cell)?);
                        let index = name.strip_prefix(array.name.as_str())?.strip_prefix('[')?;
                        Some(index.strip_suffix(']')?.to_owned())
                    })
                    .collect::<Option<Vec<String>>>()
            })
            .flatten()
            .filter(|labels| labels.iter().any(|l| l.parse::<i64>().is_err()));
        // Each column as wide as its widest cell.
        let mut widths = vec![0; columns];
        for (i, cell) in cells.iter().chain(header.iter().flatten()).enumerate() {
            widths[i % columns] = widths[i % columns].max(cell.chars().count());
        }
        text.push_str(&format!("{}:\n", array.name));
        if let Some(labels) = &header {
            let labels: Vec<String> = labels
                .iter()
                .zip(&widths)
                .map(|(label, &width)| format!("{label:>width$}"))
                .collect();
            text.push_str(&format!("  {}\n", labels.join(" ")));
        }
        for (r, row) in cells.chunks(columns).enumerate() {
            let row: Vec<String> = row
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(c, (cell, &width))| {
                    let pad = width.saturating_sub(cell.chars().count());
                    format!("{:pad$}{}", "", mark(r * columns + c, cell))
                })
                .collect();
            text.push_str(&format!("  {}\n", row.join(" ")));
        }
    }
    if !scalars.is_empty() {
        text.push_str(&scalars.join("  "));
        text.push('\n');
    }
    text
}

/// A MiniZinc model compiled into FlatZinc in a temporary folder, removed when dropped.
struct Compiled {
    dir: PathBuf,
    fzn: PathBuf,
}

/// What a second signal must clean up before it ends the program at once: the temporary
/// folder of the compiled model, and the `minizinc` compiling it, while they exist.
struct Leftovers {
    dir: Option<PathBuf>,
    child: Option<Child>,
}

static LEFTOVERS: Mutex<Leftovers> = Mutex::new(Leftovers {
    dir: None,
    child: None,
});

fn leftovers() -> std::sync::MutexGuard<'static, Leftovers> {
    LEFTOVERS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Stops the `minizinc` still compiling, if any, and removes the temporary folder: called
/// before the program ends at once on a second signal.
pub(crate) fn abandon() {
    let mut leftovers = match LEFTOVERS.try_lock() {
        Ok(guard) => guard,
        Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
        // Held only for a `try_wait` or a kill: a moment.
        Err(TryLockError::WouldBlock) => {
            std::thread::sleep(Duration::from_millis(50));
            match LEFTOVERS.try_lock() {
                Ok(guard) => guard,
                Err(_) => return,
            }
        }
    };
    if let Some(mut child) = leftovers.child.take() {
        let _ = child.kill();
        let _ = child.wait();
    }
    if let Some(dir) = leftovers.dir.take() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Checks that `file` is a file that can be given to `minizinc`.
fn check_input(file: &Path) -> Result<(), String> {
    match std::fs::metadata(file) {
        Ok(meta) if meta.is_dir() => Err(format!(
            "cannot read {}: it is a directory, not a MiniZinc file",
            file.display()
        )),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            Err(format!("cannot read {}: no such file", file.display()))
        }
        Err(e) => Err(format!("cannot read {}: {e}", file.display())),
    }
}

impl Compiled {
    /// Compiles `model` with `data` by `minizinc`, with cspkit's library; an error says what
    /// went wrong, with MiniZinc's own message. SIGINT or SIGTERM during the compilation stops
    /// `minizinc`; the temporary folder is removed on every path out.
    fn new(model: &Path, data: &[PathBuf]) -> Result<Compiled, String> {
        for file in std::iter::once(model).chain(data.iter().map(PathBuf::as_path)) {
            check_input(file)?;
        }
        // From here a signal is caught, so that the child and the folder can be cleaned up.
        let interrupted = Arc::clone(interrupt());
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("cspkit-mzn-{}-{stamp}", std::process::id()));
        leftovers().dir = Some(dir.clone());
        let compiled = Compiled {
            fzn: dir.join("model.fzn"),
            dir,
        };
        std::fs::create_dir_all(&compiled.dir)
            .map_err(|e| format!("cannot create {}: {e}", compiled.dir.display()))?;
        // Only the library is read when compiling; the solver is named for completeness.
        let executable = fzn::solver_executable().unwrap_or_else(|_| PathBuf::from("fzn-cspkit"));
        let msc = fzn::write_solver_config(&compiled.dir, &executable)?;
        // MiniZinc's messages go to a file: a pipe nobody reads while waiting could fill up.
        let errors_path = compiled.dir.join("minizinc-errors.txt");
        let errors = std::fs::File::create(&errors_path)
            .map_err(|e| format!("cannot create {}: {e}", errors_path.display()))?;
        let child = Command::new("minizinc")
            .arg("--compile")
            .arg("--solver")
            .arg(&msc)
            // Where each variable and constraint comes from, for their names.
            .arg("--keep-paths")
            // Its symbol table goes with the rest, not beside the user's model.
            .arg("--output-paths-to-file")
            .arg(compiled.dir.join("model.paths"))
            .arg("--fzn")
            .arg(&compiled.fzn)
            .arg("--ozn")
            .arg(compiled.dir.join("model.ozn"))
            .arg(model)
            .args(data)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(errors)
            .spawn()
            .map_err(|e| {
                if e.kind() == io::ErrorKind::NotFound {
                    "cspkit mzn needs MiniZinc's compiler, `minizinc`, on the PATH (Debian: \
                     apt-get install minizinc; https://www.minizinc.org); or compile the model \
                     yourself (minizinc -c --solver cspkit MODEL.mzn) and run cspkit fzn on it"
                        .to_owned()
                } else {
                    format!("cannot run minizinc: {e}")
                }
            })?;
        leftovers().child = Some(child);
        let status = loop {
            let mut leftovers = leftovers();
            let Some(child) = leftovers.child.as_mut() else {
                return Err("interrupted while minizinc compiled the model".into());
            };
            let stop = |child: &mut Child| {
                let _ = child.kill();
                let _ = child.wait();
            };
            match child.try_wait() {
                Ok(Some(status)) => {
                    leftovers.child = None;
                    break status;
                }
                Ok(None) if interrupted.load(Ordering::Relaxed) => {
                    stop(child);
                    leftovers.child = None;
                    return Err(format!(
                        "interrupted while minizinc compiled {}",
                        model.display()
                    ));
                }
                Ok(None) => {}
                Err(e) => {
                    stop(child);
                    leftovers.child = None;
                    return Err(format!("cannot wait for minizinc: {e}"));
                }
            }
            drop(leftovers);
            std::thread::sleep(Duration::from_millis(10));
        };
        if !status.success() || !compiled.fzn.is_file() {
            let message = std::fs::read(&errors_path).unwrap_or_default();
            let message = String::from_utf8_lossy(&message);
            let message = message.trim();
            return Err(format!(
                "minizinc could not compile {}{}{}",
                model.display(),
                if message.is_empty() { "" } else { ":\n" },
                message
            ));
        }
        Ok(compiled)
    }
}

impl Drop for Compiled {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        leftovers().dir = None;
    }
}

/// The model of a FlatZinc or MiniZinc file, for `cspkit compare`: a MiniZinc model is
/// compiled with `data` first.
pub(crate) fn model_of(file: &Path, data: &[PathBuf]) -> Result<FznModel, String> {
    let name = file.display().to_string();
    let fzn = if file.extension().is_some_and(|e| e == "mzn") {
        let compiled = Compiled::new(file, data)?;
        load(&compiled.fzn, &compiled_name(file))?
    } else if let Some(extra) = data.first() {
        return Err(format!(
            "{name} is FlatZinc, which holds its data: unexpected argument {}",
            extra.display()
        ));
    } else {
        load(file, &name)?
    };
    Ok(fzn)
}
