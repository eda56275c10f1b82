//! Running a search as the flags ask and printing its answer: the solver they configure, the
//! observers of `--trace`, `--tree`, `--ac3-page` and `--step`, and the modes (first solution,
//! `--all`, `--count`).

use std::fs::File;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;

use cspkit::teach::TreeFormat;
use cspkit::teach::html::Board;
use cspkit::teach::trace::Trace;
use cspkit::teach::tree::SearchTree;
use cspkit::{
    Domain, Limit, Model, ModelError, Outcome, PropagationLevel, SearchObserver, Solution, Solver,
};

use crate::args::{
    ChosenValueOrder, ChosenVariableOrder, Defaults, ModeArgs, ShowArgs, StrategyArgs,
};
use crate::limits::interrupt;
use crate::output::{
    bad_input, counted, exit, output_failed, print_stats, stdout_closed, watch_stdout,
};
use crate::step::Marks;
use crate::{ac3_page, step};

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
pub(crate) fn watched(
    solver: CliSolver<'_>,
    show: &ShowArgs,
    answer: Answer<'_>,
    views: Views<impl Fn(&Solution) -> String, impl Fn(&[Domain], &Marks) -> String>,
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
            .with_counting(solver.config().counting())
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
/// `--step` (`state`, from the domains there, with the variables of a clash marked; empty for
/// no board), and its board on the `--tree` page.
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
    size: cspkit::teach::svg::Slide,
}

impl<'a> TreeFile<'a> {
    /// Creates the file of `--tree`, if there is one; a file that cannot be created is
    /// reported, and the exit code returned.
    pub(crate) fn create(show: &'a ShowArgs) -> Result<Option<Self>, u8> {
        let (Some(Ok(format)), Some(path)) = (show.tree_format(), show.tree.as_deref()) else {
            return Ok(None);
        };
        match File::create(path) {
            Ok(file) => Ok(Some(TreeFile {
                path,
                format,
                file,
                size: show.tree_size,
            })),
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
        let text = match self.format {
            TreeFormat::Svg => cspkit::teach::svg::render_slide(tree, self.size),
            _ => self
                .format
                .render(tree, board, &cspkit::teach::html::tree_title(tree)),
        };
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
