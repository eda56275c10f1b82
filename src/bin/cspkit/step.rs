//! `--step`: the search one node at a time, driven from the keyboard.
//!
//! The search runs by [`Solver::next_step`], one event per call; the events feed a [`Trace`]
//! writing into a buffer, and the `--tree` recorder, here at the reader's pace, so that the
//! tree holds exactly the nodes stepped through. The events of a node are shown together: its
//! trace lines, then the board where the search stands (the domains after the node's
//! propagation, or at its failure, as the trace rebuilds them), then a prompt with the keys and
//! a wait for Enter. At a failure the variables of the clash are marked on the board and
//! listed below it (`✗ clash: ...`): in red on a terminal that takes colour (standard output a
//! terminal, `NO_COLOR` unset), between `*`s otherwise. The root comes first. `c` (then Enter)
//! prints the rest of the trace without waiting and without the boards, as `--trace` does; `q`
//! quits. End of input counts as `c`, so `--step < /dev/null` prints the whole trace.

use std::io::{self, BufRead, IsTerminal, Write};

use cspkit::teach::trace::Trace;
use cspkit::teach::tree::SearchTree;
use cspkit::{
    BranchKind, ConstraintId, Domain, Event, Model, OwnedEvent, SearchObserver, SearchStep,
    Solution, VarId,
};

use crate::args::ShowArgs;
use crate::output::{exit, output_failed};
use crate::run::{Answer, CliSolver, TreeFile, Views};

/// What the reader asked for after a node.
enum Key {
    Next,
    Continue,
    Quit,
}

/// The node being gathered: where its board goes, and whether it has events not yet shown.
struct Frame {
    /// The root, shown even without trace lines.
    root: bool,
    /// The indentation of the node's board: that of the lines under its branch.
    indent: usize,
    /// Events fed since the node was last shown.
    open: bool,
}

/// The keys, as the prompt names them.
pub(crate) const PROMPT: &str = "[Enter] next  [c] continue  [q] quit";

/// The variables of the clash at a failed node, and how to mark them: in red where the
/// terminal takes colour, between `*`s otherwise.
pub(crate) struct Marks {
    vars: Vec<VarId>,
    colour: bool,
}

impl Marks {
    /// `text` marked.
    fn mark(&self, text: &str) -> String {
        if self.colour {
            format!("\x1b[1;31m{text}\x1b[0m")
        } else {
            format!("*{text}*")
        }
    }

    /// `text`, the cell of `var` on a board, marked if `var` is in the clash.
    pub(crate) fn cell(&self, var: VarId, text: &str) -> String {
        if self.vars.contains(&var) {
            self.mark(text)
        } else {
            text.to_owned()
        }
    }
}

/// Whether marks may be coloured: standard output is a terminal, and `NO_COLOR` unset.
fn colour() -> bool {
    io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The stepping's observers and terminal.
struct Stepper<'m, I, O> {
    model: &'m Model,
    trace: Trace<'m, Vec<u8>>,
    /// The variable of the last branch.
    branch: Option<VarId>,
    /// The variables of the last failure's clash.
    clash: Vec<VarId>,
    /// Whether marks are coloured.
    colour: bool,
    tree: Option<SearchTree<'m>>,
    input: I,
    out: O,
    /// Whether to show the boards and wait for a key: until `c` or the end of the input.
    waiting: bool,
}

/// Steps through the search the mode asks for (a first solution, or all of them with `--all`
/// or `--count`), showing the board `views.state` draws after each node, and writes the
/// `--tree` file of the nodes stepped through however the stepping ends; returns the exit code.
pub(crate) fn run(
    solver: CliSolver<'_>,
    show: &ShowArgs,
    answer: Answer<'_>,
    views: &Views<impl Fn(&Solution) -> String, impl Fn(&[Domain], &Marks) -> String>,
    tree_file: Option<TreeFile<'_>>,
) -> u8 {
    let model = solver.model();
    let limit = usize::try_from(show.trace_limit).unwrap_or(usize::MAX);
    let mut stepper = Stepper {
        model,
        branch: None,
        clash: Vec::new(),
        colour: colour(),
        trace: Trace::new(model, Vec::new())
            .with_domains(show.trace_domains)
            .with_counting(solver.config().counting())
            .with_limit(limit),
        tree: tree_file.as_ref().map(|file| file.recorder(model, show)),
        input: io::stdin().lock(),
        out: io::stdout().lock(),
        waiting: true,
    };
    let code = stepper.steps(solver, answer, views);
    if let (Some(tree), Some(file)) = (&stepper.tree, tree_file)
        && let Err(failed) = file.write(tree, &views.board)
    {
        return failed;
    }
    code
}

impl<I: BufRead, O: Write> Stepper<'_, I, O> {
    fn steps(
        &mut self,
        mut solver: CliSolver<'_>,
        answer: Answer<'_>,
        views: &Views<impl Fn(&Solution) -> String, impl Fn(&[Domain], &Marks) -> String>,
    ) -> u8 {
        let listing = answer.mode.count || answer.mode.all;
        let mut found = 0u64;
        note!("cspkit: Enter shows the next node; c then Enter runs to the end; q quits");
        let unmarked = Marks {
            vars: Vec::new(),
            colour: self.colour,
        };
        let mut frame = Frame {
            root: true,
            indent: 0,
            open: true,
        };
        // An event that starts the next node waits here while the last one is shown.
        let mut held = None;
        loop {
            let step = held.take().unwrap_or_else(|| solver.next_step());
            let next_node = matches!(step, SearchStep::Event(OwnedEvent::Node { .. }));
            if frame.open
                && (next_node || matches!(step, SearchStep::Exhausted | SearchStep::Stopped(_)))
            {
                frame.open = false;
                // The board is drawn only if it is shown: while waiting, for a node with lines
                // (none past --trace-limit) or the root. Drawing costs the size of the model.
                self.trace.flush();
                let lines = !self.trace.writer_mut().is_empty();
                let board = if self.waiting && (lines || frame.root) {
                    let marks = Marks {
                        vars: std::mem::take(&mut self.clash),
                        colour: self.colour,
                    };
                    let mut board = (views.state)(self.trace.domains(), &marks);
                    board.push_str(&self.clash_line(&marks));
                    board
                } else {
                    self.clash.clear();
                    String::new()
                };
                match self.show(&frame, &board, next_node) {
                    Ok(Key::Quit) => {
                        note!("cspkit: stopped by q");
                        return exit::STOPPED;
                    }
                    Ok(_) => {}
                    Err(error) => return output_failed(error, exit::SOLVED),
                }
                held = Some(step);
                continue;
            }
            // A backtrack shows nothing: the refutation's node that follows does.
            if let Some(event) = step.event()
                && !matches!(event, Event::Backtrack { .. })
            {
                self.trace.on_event(&event);
                if let Some(tree) = &mut self.tree {
                    tree.on_event(&event);
                }
                match event {
                    Event::Node { var, .. } => {
                        self.branch = Some(var);
                        self.clash.clear();
                    }
                    Event::Failure {
                        constraint, var, ..
                    } => self.clash = self.clash_of(constraint, var),
                    _ => {}
                }
                frame.open = true;
            }
            match step {
                SearchStep::Event(OwnedEvent::Node { kind, depth, .. }) => {
                    let left = matches!(kind, BranchKind::Equal | BranchKind::AtMost);
                    frame = Frame {
                        root: false,
                        indent: 2 * if left { depth } else { depth + 1 },
                        open: true,
                    };
                }
                SearchStep::Solution { solution, .. } => {
                    found += 1;
                    frame.open = false;
                    let last = !listing || answer.mode.limit.is_some_and(|max| found >= max);
                    // The board of a solution is the answer, printed below unless counting.
                    let board = if answer.mode.count && self.waiting {
                        if self.trace.is_cut() {
                            // A cut trace no longer follows the domains: the solution's.
                            let fixed: Vec<Domain> = solution
                                .values()
                                .iter()
                                .filter_map(|&v| Domain::range(v, v).ok())
                                .collect();
                            (views.state)(&fixed, &unmarked)
                        } else {
                            (views.state)(self.trace.domains(), &unmarked)
                        }
                    } else {
                        String::new()
                    };
                    let shown = self.show(&frame, &board, false).and_then(|_| {
                        if !answer.mode.count {
                            let separator = if found > 1 { answer.separator } else { "" };
                            write!(self.out, "{separator}{}", (views.render)(&solution))?;
                        }
                        Ok(if last { Key::Next } else { self.wait()? })
                    });
                    match shown {
                        Ok(Key::Quit) => {
                            note!("cspkit: stopped by q");
                            return exit::STOPPED;
                        }
                        Ok(_) => {}
                        Err(error) => return output_failed(error, exit::SOLVED),
                    }
                    if last {
                        break;
                    }
                }
                SearchStep::Exhausted => break,
                SearchStep::Stopped(limit) => {
                    note!("cspkit: search stopped ({limit})");
                    return exit::STOPPED;
                }
                _ => {}
            }
        }
        if answer.mode.count
            && let Err(error) = writeln!(self.out, "{found}")
        {
            return output_failed(error, exit::SOLVED);
        }
        // What the trace still holds: the line of the last node, and what a limit cut.
        if let Err(error) = self.trace.finish() {
            return output_failed(error, exit::SOLVED);
        }
        let rest = std::mem::take(self.trace.writer_mut());
        if let Err(error) = self.out.write_all(&rest).and_then(|()| self.out.flush()) {
            return output_failed(error, exit::SOLVED);
        }
        crate::output::print_stats(&solver.stats(), answer.strategy, &answer.defaults, "done");
        if found == 0 {
            note!("cspkit: no solution");
            return exit::NO_SOLUTION;
        }
        exit::SOLVED
    }

    /// Shows the node gathered: its trace lines, then, while waiting, `board` (if not empty)
    /// and, if `wait`, a wait for a key. A node without lines (past `--trace-limit`) is not
    /// shown, nor the root if it has neither lines nor a board (a graph to colour, without
    /// `--trace-domains`).
    fn show(&mut self, frame: &Frame, board: &str, wait: bool) -> io::Result<Key> {
        self.trace.flush();
        let lines = std::mem::take(self.trace.writer_mut());
        self.out.write_all(&lines)?;
        if !self.waiting || (lines.is_empty() && (!frame.root || board.is_empty())) {
            return Ok(Key::Next);
        }
        for line in board.lines() {
            writeln!(self.out, "{:indent$}{line}", "", indent = frame.indent)?;
        }
        if wait { self.wait() } else { Ok(Key::Next) }
    }

    /// The variables of a failure's clash: the variable of the branch, the variable left
    /// without a value, and the variables of the failing constraint that have a value (or
    /// none left), in that order, each once.
    fn clash_of(&self, constraint: Option<ConstraintId>, var: Option<VarId>) -> Vec<VarId> {
        let domains = self.trace.domains();
        let mut vars: Vec<VarId> = self.branch.into_iter().chain(var).collect();
        if let Some((_, c)) = constraint.and_then(|c| self.model.constraints().nth(c.index())) {
            vars.extend(c.scope().iter().copied().filter(|y| {
                domains
                    .get(y.index())
                    .is_some_and(|d| d.is_fixed() || d.is_empty())
            }));
        }
        let mut seen = Vec::with_capacity(vars.len());
        vars.retain(|v| {
            let new = !seen.contains(v);
            seen.push(*v);
            new
        });
        vars
    }

    /// The line below the board of a failed node: `✗ clash: x = 1, y = 1`, each marked.
    fn clash_line(&self, marks: &Marks) -> String {
        if marks.vars.is_empty() {
            return String::new();
        }
        let domains = self.trace.domains();
        let parts: Vec<String> = marks
            .vars
            .iter()
            .map(|&var| {
                let name = self.model.var_name(var);
                let text = match domains.get(var.index()) {
                    Some(d) if d.is_empty() => format!("{name} has no value left"),
                    Some(d) => match d.value() {
                        Some(v) => format!("{name} = {}", self.model.value_name(var, v)),
                        None => format!("{name} ∈ {}", self.model.domain_text(var, d)),
                    },
                    None => name.into_owned(),
                };
                marks.mark(&text)
            })
            .collect();
        format!("✗ clash: {}\n", parts.join(", "))
    }

    /// Waits for a key, if still waiting, after a prompt that names the keys.
    fn wait(&mut self) -> io::Result<Key> {
        if !self.waiting {
            return Ok(Key::Next);
        }
        // On a terminal the cursor waits after the prompt; elsewhere the prompt is a line.
        if self.colour {
            write!(self.out, "{PROMPT} ")?;
        } else {
            writeln!(self.out, "{PROMPT}")?;
        }
        self.out.flush()?;
        let key = read_key(&mut self.input);
        if matches!(key, Key::Continue) {
            self.waiting = false;
        }
        Ok(key)
    }
}

/// The most bytes of one line of input kept: a key is a letter, and endless input without a
/// line break (`< /dev/zero`) must not fill the memory.
const MAX_KEY_LINE: u64 = 64;

/// Waits for a line of input: empty for the next event, `c` to continue, `q` to quit. A line
/// longer than [`MAX_KEY_LINE`] bytes ends the stepping (`c`): it is no key.
fn read_key(input: &mut impl BufRead) -> Key {
    let mut line = Vec::new();
    match io::Read::take(&mut *input, MAX_KEY_LINE).read_until(b'\n', &mut line) {
        Ok(0) | Err(_) => Key::Continue,
        Ok(_) if !line.ends_with(b"\n") && line.len() as u64 == MAX_KEY_LINE => Key::Continue,
        Ok(_) => match String::from_utf8_lossy(&line).trim() {
            "q" | "Q" => Key::Quit,
            "c" | "C" => Key::Continue,
            _ => Key::Next,
        },
    }
}
