//! A search the page runs a slice at a time ([`SearchSession`]): stepped by
//! [`Solver::next_step`](cspkit::Solver::next_step), each event fed to a trace (the lines
//! `--trace` prints) and to a search tree (the `--tree page.html` page), so that the page can
//! show the search so far at any moment.
//!
//! A session's model must outlive its solver, trace and tree, which borrow it, and a
//! WebAssembly object cannot hold a borrow: the model is built once per distinct model spec
//! and kept for the life of the module ([`puzzle_of`]), so running the same model with other
//! strategies builds nothing new.

use std::cell::RefCell;

use cspkit::teach::html;
use cspkit::teach::trace::Trace;
use cspkit::teach::tree::SearchTree;
use cspkit::{Limit, OwnedEvent, SearchObserver as _, SearchStep, Solution};
use serde_json::{Value, json};

use crate::error::WebError;
use crate::puzzle::{Puzzle, WebSolver};
use crate::spec::Spec;

/// The trace lines a session keeps; later lines are dropped, and a last line says so.
pub const TRACE_LINES: usize = 20_000;

/// The solutions a session keeps for [`SearchSession::solutions`] (all are counted).
pub const KEPT_SOLUTIONS: usize = 1000;

/// Events run between two readings of the clock in [`SearchSession::advance`].
const EVENTS_PER_CLOCK: usize = 256;

thread_local! {
    /// The models built so far, by their spec's JSON text.
    static PUZZLES: RefCell<Vec<(String, &'static Puzzle)>> = const { RefCell::new(Vec::new()) };
}

/// The model of `spec`, built the first time it is asked for and kept for the life of the
/// module.
///
/// # Errors
///
/// A model that cannot be built.
pub fn puzzle_of(spec: &Spec) -> Result<&'static Puzzle, WebError> {
    if let Some(puzzle) = PUZZLES.with_borrow(|built| {
        built
            .iter()
            .find(|(key, _)| *key == spec.model_key)
            .map(|(_, puzzle)| *puzzle)
    }) {
        return Ok(puzzle);
    }
    let puzzle: &'static Puzzle = Box::leak(Box::new(Puzzle::build(&spec.model)?));
    PUZZLES.with_borrow_mut(|built| built.push((spec.model_key.clone(), puzzle)));
    Ok(puzzle)
}

/// One search, run a slice at a time.
#[derive(Debug)]
pub struct SearchSession {
    puzzle: &'static Puzzle,
    solver: WebSolver<'static>,
    trace: Trace<'static, Vec<u8>>,
    tree: SearchTree<'static>,
    lines: Vec<String>,
    solutions: Vec<Value>,
    found: u64,
    wanted: u64,
    depth: usize,
    answer: Option<&'static str>,
}

impl SearchSession {
    /// A session of the search `spec` asks for, not started.
    ///
    /// # Errors
    ///
    /// A model that cannot be built, or a strategy it refuses.
    pub fn new(spec: &Spec) -> Result<SearchSession, WebError> {
        let puzzle = puzzle_of(spec)?;
        let mut solver = puzzle.solver(spec)?;
        let mut wanted = if spec.solutions == 0 {
            u64::MAX
        } else {
            spec.solutions
        };
        // As `cspkit fzn`: solutions that differ only in what the output does not show are
        // one.
        if let Puzzle::FlatZinc(fzn) = puzzle
            && fzn.has_hidden_variables()
            && wanted > 1
        {
            let shown = fzn.shown_variables();
            if shown.is_empty() {
                wanted = 1;
            } else {
                solver
                    .set_projection(&shown)
                    .map_err(|e| WebError::new(crate::error::What::Model, e.to_string()))?;
            }
        }
        let model = puzzle.model();
        let trace = Trace::new(model, Vec::new())
            .with_counting(solver.config().counting())
            .with_limit(TRACE_LINES);
        let tree = SearchTree::new(model)
            .with_limit(spec.tree_limit)
            .with_domains(true);
        Ok(SearchSession {
            puzzle,
            solver,
            trace,
            tree,
            lines: Vec::new(),
            solutions: Vec::new(),
            found: 0,
            wanted,
            depth: 0,
            answer: None,
        })
    }

    /// Whether the search is over.
    pub fn is_done(&self) -> bool {
        self.answer.is_some()
    }

    /// Runs the search for about `budget_ms` milliseconds, or to its end.
    pub fn advance(&mut self, budget_ms: f64) -> Value {
        let started = web_time::Instant::now();
        while !self.is_done() {
            for _ in 0..EVENTS_PER_CLOCK {
                if self.is_done() {
                    break;
                }
                self.next_event();
            }
            if started.elapsed().as_secs_f64() * 1000.0 >= budget_ms {
                break;
            }
        }
        self.progress()
    }

    /// Runs the search to its next trace line (the events that make none, such as the
    /// propagation before a line's outcome is known, are run on the way): the new lines, the
    /// name of the last event run, and the progress.
    pub fn step(&mut self) -> Value {
        let before = self.lines.len();
        let mut event = "done";
        while !self.is_done() && self.lines.len() == before {
            event = self.next_event();
        }
        let mut value = self.progress();
        value["line"] = json!(self.lines[before..].join("\n"));
        value["event"] = json!(event);
        value
    }

    /// Where the search stands.
    pub fn progress(&self) -> Value {
        let stats = self.solver.stats();
        json!({
            "state": if self.is_done() { "done" } else { "running" },
            "answer": self.answer,
            "nodes": stats.decisions,
            "tree_nodes": stats.tree_nodes(),
            "failures": stats.failures,
            "backjumps": stats.backjumps,
            "levels_skipped": stats.levels_skipped,
            "solutions": self.found,
            "depth": self.depth,
            "elapsed_ms": stats.elapsed.as_secs_f64() * 1000.0,
        })
    }

    /// The tree page of the search so far, at most `max_nodes` nodes drawn.
    pub fn page(&self, max_nodes: usize) -> String {
        let tree = self.tree.truncated(max_nodes);
        html::render(&tree, &self.puzzle.board(), &html::tree_title(&tree))
    }

    /// The trace lines from line `from` on.
    pub fn trace(&self, from: usize) -> String {
        self.lines.get(from..).unwrap_or_default().join("\n")
    }

    /// The solutions found (the first [`KEPT_SOLUTIONS`]), by the model's names.
    pub fn solutions(&self) -> Value {
        Value::Array(self.solutions.clone())
    }

    /// Runs the next event; its name.
    fn next_event(&mut self) -> &'static str {
        let step = self.solver.next_step();
        if let Some(event) = step.event() {
            self.trace.on_event(&event);
            self.tree.on_event(&event);
        }
        let name = match &step {
            SearchStep::Event(event) => {
                if let OwnedEvent::Node { depth, .. } = event {
                    self.depth = *depth;
                }
                event_name(event)
            }
            SearchStep::Solution {
                solution, depth, ..
            } => {
                self.depth = *depth;
                self.solution(solution);
                "solution"
            }
            SearchStep::Exhausted => {
                self.answer = Some(if self.found == 0 {
                    "no solution"
                } else {
                    "all solutions"
                });
                "done"
            }
            SearchStep::Stopped(limit) => {
                self.answer = Some(match limit {
                    Limit::Time => "time limit",
                    _ => "node limit",
                });
                "done"
            }
            _ => "other",
        };
        if self.is_done() {
            let _ = self.trace.finish();
        }
        self.drain();
        name
    }

    /// Keeps a solution, and ends the search at the number asked for.
    fn solution(&mut self, solution: &Solution) {
        self.found += 1;
        if self.solutions.len() < KEPT_SOLUTIONS {
            self.solutions.push(self.puzzle.values(solution));
        }
        if self.found >= self.wanted {
            self.answer = Some("solution");
            let _ = self.trace.finish();
        }
    }

    /// Moves the trace's new lines to the lines kept.
    fn drain(&mut self) {
        let written = std::mem::take(self.trace.writer_mut());
        if written.is_empty() {
            return;
        }
        let text = String::from_utf8_lossy(&written);
        self.lines.extend(
            text.strip_suffix('\n')
                .unwrap_or(&text)
                .split('\n')
                .map(str::to_owned),
        );
    }
}

/// An event's name for the page.
fn event_name(event: &OwnedEvent) -> &'static str {
    match event {
        OwnedEvent::Node { .. } => "node",
        OwnedEvent::Pruned { .. } => "pruned",
        OwnedEvent::Propagated { .. } => "propagated",
        OwnedEvent::ArcQueue { .. } => "arc_queue",
        OwnedEvent::Revise { .. } => "revise",
        OwnedEvent::Failure { .. } => "failure",
        OwnedEvent::Backtrack { .. } => "backtrack",
        OwnedEvent::Solution { .. } => "solution",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace_run::run_trace;

    fn session(spec: &str) -> SearchSession {
        SearchSession::new(&Spec::parse(spec).unwrap()).unwrap()
    }

    #[test]
    fn a_count_finds_every_solution_and_steps_through_the_cli_trace() {
        // 6-Queens has 4 solutions (OEIS A000170).
        let spec = r#"{"model": {"kind": "queens", "n": 6}, "solutions": 0, "propagation": "fc"}"#;
        let mut stepped = session(spec);
        let mut progress = stepped.step();
        while progress["state"] == "running" {
            assert_ne!(
                progress["line"], "",
                "a step that shows no line: {progress}"
            );
            progress = stepped.step();
        }
        assert_eq!(progress["answer"], "all solutions");
        assert_eq!(progress["solutions"], 4);
        assert_eq!(stepped.solutions().as_array().map(Vec::len), Some(4));
        // The CLI's output: the trace, then the count.
        let whole = run_trace(&Spec::parse(spec).unwrap()).unwrap();
        assert_eq!(format!("{}\n4\n", stepped.trace(0)), whole);
    }

    #[test]
    fn advancing_and_stepping_reach_the_same_end() {
        let spec = r#"{"model": {"kind": "colouring", "map": "australia"}, "solutions": 0}"#;
        let mut advanced = session(spec);
        while advanced.advance(1.0)["state"] == "running" {}
        let mut stepped = session(spec);
        while stepped.step()["state"] == "running" {}
        // Australia in 3 colours: 18 colourings (3! ways to colour the mainland triangle
        // WA-NT-SA, then Q, NSW, V forced, and T free: 6 x 3).
        assert_eq!(advanced.progress()["solutions"], 18);
        assert_eq!(advanced.trace(0), stepped.trace(0));
        assert_eq!(advanced.progress()["nodes"], stepped.progress()["nodes"]);
    }

    #[test]
    fn a_search_stops_at_the_node_limit_and_says_so() {
        let mut limited = session(
            r#"{"model": {"kind": "queens", "n": 12}, "solutions": 0, "propagation": "none",
                "node_limit": 50}"#,
        );
        let progress = limited.advance(10_000.0);
        assert_eq!(progress["answer"], "node limit");
        assert_eq!(progress["nodes"], 50);
    }

    #[test]
    fn a_first_solution_is_named_by_the_model_and_drawn_on_the_page() {
        let mut first = session(r#"{"model": {"kind": "queens", "n": 4}}"#);
        assert_eq!(first.advance(10_000.0)["answer"], "solution");
        let solutions = first.solutions();
        // The first placement of 4 queens in row order: columns 2 4 1 3.
        assert_eq!(solutions[0]["row 1"], 2);
        assert_eq!(solutions[0]["row 4"], 3);
        let page = first.page(3);
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(
            page.contains("the first 3 of"),
            "the title says the tree was cut"
        );
    }

    #[test]
    fn flatzinc_solutions_carry_the_output_arrays_names() {
        let text = "array [1..2] of int: X_INTRODUCED_2_ = [1, 1];\n\
                    var 1..2: a;\nvar 1..2: b;\n\
                    array [1..2] of var int: q :: output_array([1..2]) = [a, b];\n\
                    constraint int_ne(a, b);\nsolve satisfy;\n";
        let spec = serde_json::json!({"model": {"kind": "flatzinc", "text": text}, "solutions": 0});
        let mut search = session(&spec.to_string());
        assert_eq!(search.advance(10_000.0)["answer"], "all solutions");
        assert_eq!(
            search.solutions(),
            serde_json::json!([{"q": [1, 2]}, {"q": [2, 1]}])
        );
    }
}
