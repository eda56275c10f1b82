//! `--why-removed VAR=VALUE [--at NODE]`: why a value is no longer possible at a node of a
//! search (`cspkit sudoku`, `cspkit fzn`, `cspkit mzn`), the library's
//! [`RemovalReplay`] in the model's names.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::puzzle::{RemovalReplay, parse_literal, parse_path};
use cspkit::{
    BranchKind, Event, Literal, Model, Propagation, PropagationLevel, SearchObserver, VarId,
};

use crate::args::{FznArgs, MznArgs, SudokuArgs};
use crate::input::load_grid;
use crate::output::{bad_input, exit, output_failed};
use crate::run::{CliSolver, configure};

/// `--why-removed` and `--at`, flattened into the commands that take them.
#[derive(Debug, Args)]
pub struct WhyRemovedArgs {
    /// Instead of solving: why is this value no longer possible? VAR=VALUE in the model's
    /// names (r3c4=5 for a Sudoku, 'x[3]=5' for a model, as MiniZinc prints it): the chain of
    /// reasons back to the givens and the decisions, each reason checked.
    #[arg(long, value_name = "VAR=VALUE")]
    pub why_removed: Option<String>,
    /// With --why-removed: the node to ask at, as decisions from the root separated by commas
    /// ('r1c1=1,r1c2!=3'; also <=, >=, <, >), or as a node's number in a --tree page of a run
    /// with the same strategy options (0 is the root). Default: the root, after propagating
    /// the givens.
    #[arg(long, value_name = "NODE", requires = "why_removed")]
    pub at: Option<String>,
}

/// `cspkit sudoku FILE --why-removed r3c4=5 [--at NODE]`.
pub(crate) fn sudoku(args: &SudokuArgs) -> u8 {
    let other = [
        (args.puzzle.any(), "a puzzle task (--grade, --explain, ...)"),
        (args.batch, "--batch"),
        (args.local.local_search.is_some(), "--local-search"),
        (args.mode.all, "--all"),
        (args.mode.count, "--count"),
        (args.show.trace, "--trace"),
        (args.show.step, "--step"),
        (args.show.tree.is_some(), "--tree"),
    ];
    if let Some((_, name)) = other.iter().find(|(set, _)| *set) {
        return bad_input(format_args!("--why-removed cannot be combined with {name}"));
    }
    let (grid, _) = match load_grid(args.file.as_deref(), args.input_format.map(Into::into)) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let (Some(Ok(empty)), Ok(puzzle)) = (
        Grid::empty(grid.box_size()).map(|g| Sudoku::new(&g)),
        Sudoku::new(&grid),
    ) else {
        return bad_input("cannot build the model of this grid");
    };
    let givens: Vec<(VarId, i32)> = empty.givens(&grid).collect();
    let level = replay_level(&args.strategy);
    // Node numbers are those of the search of the puzzle's own model (givens fixed in it),
    // whose cells are numbered as the empty grid's.
    let path = |text: &str| match node_number(text) {
        Some(node) => {
            let solver = configure(puzzle.model(), &args.strategy, PropagationLevel::Full)
                .map_err(|e| e.to_string())?;
            let path = path_to_node(solver, node)?;
            Ok(path
                .into_iter()
                .map(|l| with_var(l, empty.cells()[l.var().index()]))
                .collect())
        }
        None => parse_path(empty.model(), text).map_err(|e| e.to_string()),
    };
    answer(
        empty.model(),
        &givens,
        level,
        args.removal.why_removed.as_deref().unwrap_or_default(),
        args.removal.at.as_deref(),
        path,
    )
}

/// `cspkit fzn FILE --why-removed 'x[3]=5' [--at NODE]`.
pub(crate) fn fzn(args: &FznArgs) -> u8 {
    let Some(path) = args.model.as_deref() else {
        return bad_input("no model file given (see cspkit fzn --help)");
    };
    model_answer(path, &[], &args.run)
}

/// `cspkit mzn MODEL [DATA...] --why-removed 'x[3]=5' [--at NODE]`.
pub(crate) fn mzn(args: &MznArgs) -> u8 {
    model_answer(&args.model, &args.data, &args.run)
}

fn model_answer(
    file: &std::path::Path,
    data: &[std::path::PathBuf],
    run: &crate::args::ModelRunArgs,
) -> u8 {
    let other = [
        (run.all, "--all"),
        (run.count, "--count"),
        (run.show.trace, "--trace"),
        (run.show.step, "--step"),
        (run.show.tree.is_some(), "--tree"),
        (run.local.local_search.is_some(), "--local-search"),
        (run.explain, "--explain"),
    ];
    if let Some((_, name)) = other.iter().find(|(set, _)| *set) {
        return bad_input(format_args!("--why-removed cannot be combined with {name}"));
    }
    let fzn = match crate::minizinc::model_of(file, data) {
        Ok(fzn) => fzn,
        Err(message) => return bad_input(message),
    };
    let level = replay_level(&run.strategy);
    let path = |text: &str| match node_number(text) {
        Some(node) => {
            let solver = crate::minizinc::configure_model(&fzn, run).map_err(|e| e.to_string())?;
            path_to_node(solver, node)
        }
        None => parse_path(fzn.model(), text).map_err(|e| e.to_string()),
    };
    answer(
        fzn.model(),
        &[],
        level,
        run.removal.why_removed.as_deref().unwrap_or_default(),
        run.removal.at.as_deref(),
        path,
    )
}

/// Replays the path to the node `at` names and prints the answer; the exit code.
fn answer(
    model: &Model,
    givens: &[(VarId, i32)],
    level: PropagationLevel,
    question: &str,
    at: Option<&str>,
    path: impl FnOnce(&str) -> Result<Vec<Literal>, String>,
) -> u8 {
    let (var, value) = match parse_literal(model, question) {
        Ok(Literal::Eq(var, value)) => (var, value),
        Ok(_) => {
            return bad_input(format_args!(
                "--why-removed {question:?}: ask about one value, as VAR=VALUE"
            ));
        }
        Err(error) => return bad_input(format_args!("--why-removed: {error}")),
    };
    let decisions = match at.map(path).transpose() {
        Ok(decisions) => decisions.unwrap_or_default(),
        Err(message) => return bad_input(format_args!("--at: {message}")),
    };
    let mut replay = match RemovalReplay::new(model, givens, level) {
        Ok(replay) => replay,
        Err(error) => return bad_input(format_args!("--why-removed: {error}")),
    };
    for &decision in &decisions {
        if let Err(error) = replay.decide(decision) {
            return bad_input(format_args!("--at: {error}"));
        }
    }
    let answer = match replay.why(var, value) {
        Ok(answer) => answer,
        Err(error) => return bad_input(format_args!("--why-removed: {error}")),
    };
    let place = if decisions.is_empty() {
        "at the root".to_owned()
    } else {
        let written: Vec<String> = decisions
            .iter()
            .map(|&d| cspkit::puzzle::describe_literals(model, &[d]))
            .collect();
        format!("at the node {}", written.join(", "))
    };
    let mut out = io::stdout().lock();
    let mut lines = vec![format!("{place}:")];
    lines.extend(answer.describe(model));
    for line in lines {
        if let Err(error) = writeln!(out, "{line}") {
            return output_failed(error, exit::SOLVED);
        }
    }
    exit::SOLVED
}

/// The propagation the replay runs: the search's (textbook forward checking as forward
/// checking, AC-3 as full propagation).
fn replay_level(strategy: &crate::args::StrategyArgs) -> PropagationLevel {
    match strategy.config(PropagationLevel::Full).propagation() {
        Propagation::TextbookForward => PropagationLevel::Forward,
        other => other.level(),
    }
}

/// The node's number, if `text` is one.
fn node_number(text: &str) -> Option<u64> {
    let text = text.trim();
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

/// `literal` about `var` instead.
fn with_var(literal: Literal, var: VarId) -> Literal {
    match literal {
        Literal::Eq(_, v) => Literal::Eq(var, v),
        Literal::Ne(_, v) => Literal::Ne(var, v),
        Literal::Ge(_, v) => Literal::Ge(var, v),
        Literal::Le(_, v) => Literal::Le(var, v),
    }
}

/// The branches from the root to node `node` of the search `solver` makes (stopped there).
fn path_to_node(solver: CliSolver<'_>, node: u64) -> Result<Vec<Literal>, String> {
    let stop = Arc::new(AtomicBool::new(false));
    let mut nodes = NodePaths {
        branches: vec![None],
        parents: vec![0],
        wanted: node,
        stop: Arc::clone(&stop),
    };
    let mut stopped_by = None;
    if node > 0 {
        let mut solver = solver
            .with_cancel_flag(Arc::clone(&stop))
            .with_observer(&mut nodes);
        stopped_by = solver.count().stopped_by;
    }
    let made = nodes.branches.len() as u64;
    if node >= made
        && let Some(limit) = stopped_by.filter(|_| !stop.load(Ordering::Relaxed))
    {
        // A limit, not the end of the search, came first: node `node` may exist further on.
        return Err(format!(
            "node {node} not reached: the search stopped after {made} tree node{} ({limit}); \
             raise the limit to go further",
            if made == 1 { "" } else { "s" },
        ));
    }
    if node >= made {
        return Err(format!(
            "no node {node}: the search makes {made} tree node{} (0 to {})",
            if made == 1 { "" } else { "s" },
            made - 1
        ));
    }
    let mut path = Vec::new();
    let mut at = node as usize;
    while at > 0 {
        path.extend(nodes.branches[at]);
        at = nodes.parents[at] as usize;
    }
    path.reverse();
    Ok(path)
}

/// Records each node's parent and branch, and stops the search at the node wanted.
struct NodePaths {
    branches: Vec<Option<Literal>>,
    parents: Vec<u64>,
    wanted: u64,
    stop: Arc<AtomicBool>,
}

impl SearchObserver for NodePaths {
    fn on_event(&mut self, event: &Event<'_>) {
        if let Event::Node {
            node,
            parent,
            var,
            value,
            kind,
            ..
        } = *event
        {
            if node != self.branches.len() as u64 {
                return;
            }
            let literal = match kind {
                BranchKind::Equal => Literal::Eq(var, value),
                BranchKind::NotEqual => Literal::Ne(var, value),
                BranchKind::AtMost => Literal::Le(var, value),
                BranchKind::Above => Literal::Ge(var, value.saturating_add(1)),
            };
            self.branches.push(Some(literal));
            self.parents.push(parent);
            if node >= self.wanted {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }
}
