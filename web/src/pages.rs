//! The free functions' work: the comparison page of two searches, a Sudoku's explanations
//! (`--explain`, `--hint`, `--why`), the menus' lists, and a count for the benchmark.

use std::fmt::Write as _;
use std::time::Duration;

use cspkit::models::sudoku::{Grid, Sudoku};
use cspkit::puzzle::{Limits, Step, WhyError, minimal_conflict_within};
use cspkit::teach::html::{self, Panel};
use cspkit::teach::tree::SearchTree;
use cspkit::{Limit, Outcome};
use serde_json::{Value, json};

use crate::error::{WebError, What};
use crate::puzzle::Puzzle;
use crate::spec::{
    DEFAULT_NODE_LIMIT, DEFAULT_TIME_LIMIT_MS, DEFAULT_TREE_LIMIT, MAPS, ModelSpec, QUEENS_MODELS,
    Spec,
};
use crate::strategy::{
    BRANCHINGS, VALUE_ORDERS, VARIABLE_ORDERS, counting_names, propagation_names,
};

/// The comparison page of the searches of `a` and `b` (the same model), each run to its
/// limits: as `cspkit compare ... --tree page.html` draws two runs.
///
/// # Errors
///
/// Specs of different models, a model that cannot be built, a strategy it refuses.
pub fn compare(a: &Spec, b: &Spec) -> Result<String, WebError> {
    if a.model_key != b.model_key {
        return Err(WebError::spec(
            "compare: the two specs must have the same model (they differ in strategy only)",
        ));
    }
    let puzzle = Puzzle::build(&a.model)?;
    let board = puzzle.board();
    let mut runs = Vec::new();
    for spec in [a, b] {
        let mut tree = SearchTree::new(puzzle.model())
            .with_limit(spec.tree_limit)
            .with_domains(true);
        let solver = puzzle.solver(spec)?;
        let level = solver.config().propagation();
        let mut solver = solver.with_observer(&mut tree);
        let stopped = match spec.solutions {
            1 => match solver.next_solution() {
                Outcome::LimitReached(limit) => Some(limit),
                _ => None,
            },
            0 => solver.count().stopped_by,
            n => solver
                .count_up_to(n)
                .stopped_by
                .filter(|&l| l != Limit::Solutions),
        };
        let stats = solver.stats();
        drop(solver);
        let fzn = matches!(puzzle, Puzzle::FlatZinc(_));
        let default_order = |fzn_name: &'static str, name: &'static str| {
            if fzn { fzn_name } else { name }
        };
        let names = [
            spec.var_order
                .clone()
                .unwrap_or_else(|| default_order("annotations", "input").to_owned()),
            spec.value_order
                .clone()
                .unwrap_or_else(|| default_order("annotations", "asc").to_owned()),
            level.name().to_owned(),
            branching_name(spec.branching).to_owned(),
        ];
        runs.push((
            names.join(", "),
            html::panel_stats(
                &stats,
                &stopped.map_or_else(|| "done".to_owned(), |l| l.to_string()),
            ),
            tree,
        ));
    }
    let panels: Vec<Panel<'_>> = runs
        .iter()
        .map(|(title, stats, tree)| Panel {
            tree,
            board: &board,
            title,
            stats,
        })
        .collect();
    Ok(html::render_comparison("cspkit compare", &panels))
}

/// A branching's CLI name.
fn branching_name(branching: cspkit::Branching) -> &'static str {
    match branching {
        cspkit::Branching::Split => "split",
        cspkit::Branching::DWay => "dway",
        _ => "assign",
    }
}

/// What `cspkit sudoku FILE --explain`, `--hint` or `--why` prints for the spec's grid, with
/// the spec's node limit (each search) and time limit (the whole task). A note the CLI writes
/// on standard error (no solution, a limit reached) ends the text, as `cspkit: ...`.
///
/// # Errors
///
/// A spec that is not a Sudoku, an unknown `what`, a malformed grid.
pub fn explain(spec: &Spec, what: &str) -> Result<String, WebError> {
    let ModelSpec::Sudoku { .. } = spec.model else {
        return Err(WebError::spec(
            "explain: explanations are for a Sudoku (model kind sudoku)",
        ));
    };
    if !["explain", "hint", "why"].contains(&what) {
        return Err(WebError::spec(format!(
            "explain: {what:?} is not one of explain, hint, why"
        )));
    }
    let ModelSpec::Sudoku { grid: text } = &spec.model else {
        unreachable!("checked above");
    };
    let (grid, _) = Grid::parse_bytes(text.as_bytes(), None)
        .map_err(|e| WebError::located(What::Model, format!("the grid: {e}")))?;
    let empty = match Grid::empty(grid.box_size()).map(|g| Sudoku::new(&g)) {
        Some(Ok(sudoku)) => sudoku,
        _ => {
            return Err(WebError::new(
                What::Model,
                "cannot build the model of an empty grid of this size",
            ));
        }
    };
    let limits = Limits::new()
        .with_decision_limit(spec.node_limit)
        .with_time_limit(Duration::from_millis(spec.time_limit_ms));
    if what == "why" {
        return why(&empty, &grid, &limits);
    }
    let hint = what == "hint";
    let explained = empty
        .explain_within(&grid, !hint, &limits)
        .map_err(|e| WebError::new(What::Model, e.to_string()))?;
    let lines = if hint { 1 } else { explained.path.len() };
    let mut out = String::new();
    for deduction in explained.path.iter().take(lines) {
        let _ = writeln!(out, "{}", deduction.text);
    }
    if explained.no_solution() {
        out.push_str("cspkit: no solution (--why says which givens clash)\n");
    } else if let Some(limit) = explained.stopped_by() {
        let _ = writeln!(
            out,
            "cspkit: --{what} stopped ({}): whether the puzzle has a solution is not known",
            limit_words(limit)
        );
    }
    Ok(out)
}

/// `--why`: a minimal set of givens without a solution, and the deductions that show it.
fn why(empty: &Sudoku, grid: &Grid, limits: &Limits) -> Result<String, WebError> {
    let clues: Vec<_> = empty.givens(grid).collect();
    let mut out = String::new();
    let conflict = match minimal_conflict_within(empty.model(), &clues, limits) {
        Ok(conflict) => conflict,
        Err(WhyError::Solvable) => return Ok("the puzzle has a solution: no givens clash\n".into()),
        Err(WhyError::LimitReached(limit)) => {
            return Ok(format!(
                "cspkit: --why stopped ({}): whether the puzzle has a solution is not known\n",
                limit_words(limit)
            ));
        }
        Err(error) => return Err(WebError::new(What::Model, error.to_string())),
    };
    let model = empty.model();
    let chosen: Vec<_> = conflict.assumptions.iter().map(|&i| clues[i]).collect();
    let names: Vec<String> = chosen
        .iter()
        .map(|&(var, value)| format!("{}={value}", model.var_name(var)))
        .collect();
    let subset = empty.grid_of_clues(&chosen);
    let path = empty.explain(&subset, false).unwrap_or_default();
    let minimal = match conflict.stopped_by {
        Some(_) => " (not shrunk to the end: a limit stopped the search)",
        None if !conflict.minimal => " (not proved minimal: a check reached the decision limit)",
        None => "",
    };
    let givens = format!("givens {}{minimal}", names.join(", "));
    match path.as_slice() {
        [only] => {
            let text = only
                .text
                .strip_prefix("contradiction: ")
                .unwrap_or(&only.text);
            let _ = writeln!(out, "{givens}: {text}");
        }
        _ => {
            let _ = writeln!(out, "{givens} have no solution:");
            for deduction in &path {
                let _ = writeln!(out, "  {}", deduction.text);
            }
            if path.last().is_some_and(|d| matches!(d.step, Step::Stuck)) {
                out.push_str("  (the search proves it: no chain of single-unit deductions does)\n");
            }
        }
    }
    if let Some(limit) = conflict.stopped_by {
        let _ = writeln!(
            out,
            "cspkit: --why stopped ({}): the givens printed clash, but fewer may",
            limit_words(limit)
        );
    }
    Ok(out)
}

/// A limit in words, naming the spec's key that set it.
fn limit_words(limit: Limit) -> String {
    match limit {
        Limit::Time => "time limit reached, time_limit_ms".to_owned(),
        Limit::Decisions => "node limit reached, node_limit".to_owned(),
        other => other.to_string(),
    }
}

/// The lists of the page's menus and the defaults.
pub fn models() -> Value {
    json!({
        "propagation": propagation_names(),
        "var_order": VARIABLE_ORDERS,
        "value_order": VALUE_ORDERS,
        "branching": BRANCHINGS,
        "counting": counting_names(),
        "maps": MAPS,
        "queens_models": QUEENS_MODELS,
        "defaults": {
            "propagation": {"queens": "forward", "sudoku": "full", "colouring": "full", "flatzinc": "full"},
            "var_order": {"queens": "input", "sudoku": "input", "colouring": "input", "flatzinc": "annotations"},
            "value_order": {"queens": "asc", "sudoku": "asc", "colouring": "asc", "flatzinc": "annotations"},
            "branching": "assign",
            "solutions": 1,
            "colours": 3,
            "node_limit": DEFAULT_NODE_LIMIT,
            "time_limit_ms": DEFAULT_TIME_LIMIT_MS,
            "tree_limit": DEFAULT_TREE_LIMIT,
        },
    })
}

/// Counts the solutions of `spec` at full speed, with no observer (the benchmark's
/// workload): the count, the decisions, failures, and whether a limit stopped it.
///
/// # Errors
///
/// A model that cannot be built, or a strategy it refuses.
pub fn count(spec: &Spec) -> Result<Value, WebError> {
    let puzzle = Puzzle::build(&spec.model)?;
    let mut solver = puzzle.solver(spec)?;
    let count = if spec.solutions == 0 {
        solver.count()
    } else {
        solver.count_up_to(spec.solutions)
    };
    let stats = solver.stats();
    Ok(json!({
        "solutions": count.solutions,
        "stopped_by": count.stopped_by.map(|l| l.to_string()),
        "nodes": stats.decisions,
        "failures": stats.failures,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Baekjoon 2239 example of `cspkit`'s demo.
    const SUDOKU: &str = "103000509\n002109400\n000704000\n300502006\n060000050\n\
                          700803004\n000401000\n009205800\n804000107\n";

    fn spec(text: &str) -> Spec {
        Spec::parse(text).unwrap()
    }

    fn sudoku_spec() -> Spec {
        spec(&json!({"model": {"kind": "sudoku", "grid": SUDOKU}}).to_string())
    }

    #[test]
    fn a_hint_is_the_first_line_of_the_explanation() {
        let hint = explain(&sudoku_spec(), "hint").unwrap();
        let whole = explain(&sudoku_spec(), "explain").unwrap();
        assert_eq!(hint.lines().count(), 1);
        assert!(whole.lines().count() > 1);
        assert_eq!(whole.lines().next(), hint.lines().next());
        let why = explain(&sudoku_spec(), "why").unwrap();
        assert_eq!(why, "the puzzle has a solution: no givens clash\n");
    }

    #[test]
    fn explanations_are_for_a_sudoku_and_named_tasks_only() {
        let queens = spec(r#"{"model": {"kind": "queens", "n": 8}}"#);
        assert_eq!(explain(&queens, "hint").unwrap_err().what, What::Spec);
        let error = explain(&sudoku_spec(), "solve").unwrap_err();
        assert!(error.message.contains("\"solve\""), "{error}");
    }

    #[test]
    fn compare_draws_both_strategies_of_one_model() {
        let a = spec(r#"{"model": {"kind": "queens", "n": 5}}"#);
        let b = spec(r#"{"model": {"kind": "queens", "n": 5}, "value_order": "desc"}"#);
        let page = compare(&a, &b).unwrap();
        assert!(page.contains("input, asc, forward, assign"));
        assert!(page.contains("input, desc, forward, assign"));
        let other = spec(r#"{"model": {"kind": "queens", "n": 6}}"#);
        assert_eq!(compare(&a, &other).unwrap_err().what, What::Spec);
    }

    #[test]
    fn every_menu_name_is_accepted_in_a_spec() {
        let menus = models();
        for (key, names) in [
            ("propagation", &menus["propagation"]),
            ("var_order", &menus["var_order"]),
            ("value_order", &menus["value_order"]),
            ("branching", &menus["branching"]),
            ("counting", &menus["counting"]),
        ] {
            for name in names.as_array().unwrap() {
                let text = json!({"model": {"kind": "queens", "n": 4}, key: name}).to_string();
                assert!(Spec::parse(&text).is_ok(), "{key} {name}");
            }
        }
    }
}
