//! Compare: one model searched with several strategies, one row of statistics each (as
//! `cspkit compare` prints them), and the page of their trees side by side (as `cspkit
//! compare ... --tree page.html` writes it).

use cspkit::ModelError;
use cspkit::teach::html::{self, Panel};
use cspkit::teach::table::Record;
use cspkit::teach::tree::SearchTree;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::raised;
use crate::model::RawModel;
use crate::options::SearchOptions;
use crate::views::{BoardSpec, board, off_the_gil, run_search, status_words};

/// The most strategies a comparison page draws side by side (as `cspkit compare --tree`).
const MAX_PANELS: usize = 4;

/// One strategy: its options, and the names of its variable and value orders.
struct Strategy {
    options: SearchOptions,
    var_order: String,
    value_order: String,
}

/// Searches `model` with each strategy (a dict of search options) for `wanted` solutions
/// (0 for all): one row each, a dict of the columns of `cspkit compare --format json` (the
/// time in seconds as `time`, the tree nodes also as `nodes`), and, if `tree_limit` is
/// given, the page of the trees side by side with the board `board_spec` describes.
#[pyfunction]
#[pyo3(signature = (model, strategies, wanted, tree_limit, board_spec, title))]
pub fn compare<'py>(
    py: Python<'py>,
    model: &RawModel,
    strategies: Vec<Bound<'py, PyDict>>,
    wanted: u64,
    tree_limit: Option<usize>,
    board_spec: BoardSpec,
    title: String,
) -> PyResult<(Vec<Bound<'py, PyDict>>, Option<String>)> {
    if tree_limit.is_some() && !(1..=MAX_PANELS).contains(&strategies.len()) {
        return Err(raised(format!(
            "compare: a page draws 1 to {MAX_PANELS} strategies side by side, not {}",
            strategies.len()
        )));
    }
    let strategies = strategies
        .iter()
        .enumerate()
        .map(|(k, dict)| strategy(dict).map_err(|e| raised(format!("strategy {}: {e}", k + 1))))
        .collect::<PyResult<Vec<_>>>()?;
    let model = model.shared_model();
    let board = board(&model, board_spec)?;
    let (records, page) = off_the_gil(py, move |cancel| {
        let mut records = Vec::new();
        let mut trees = Vec::new();
        for strategy in &strategies {
            let solver = strategy
                .options
                .solver(&model, std::sync::Arc::clone(&cancel))?;
            let names = [
                strategy.var_order.as_str(),
                strategy.value_order.as_str(),
                solver.config().propagation().name(),
                solver.config().branching().name(),
            ];
            let mut tree = tree_limit
                .map(|limit| SearchTree::new(&model).with_limit(limit).with_domains(true));
            let mut solver = solver.with_observer(&mut tree);
            let status = status_words(run_search(&mut solver, wanted));
            let stats = solver.stats();
            drop(solver);
            if let Some(tree) = tree {
                trees.push((names.join(", "), html::panel_stats(&stats, &status), tree));
            }
            records.push(Record::new(names, &stats, &status));
        }
        let page = tree_limit.map(|_| {
            let panels: Vec<Panel<'_>> = trees
                .iter()
                .map(|(heading, stats, tree)| Panel {
                    tree,
                    board: &board,
                    title: heading,
                    stats,
                })
                .collect();
            html::render_comparison(&title, &panels)
        });
        Ok::<_, ModelError>((records, page))
    })?
    .map_err(raised)?;
    let rows = records
        .iter()
        .map(|record| row(py, record))
        .collect::<PyResult<Vec<_>>>()?;
    Ok((rows, page))
}

/// The strategy a dict of search options describes.
fn strategy(dict: &Bound<'_, PyDict>) -> PyResult<Strategy> {
    let name = |key: &str, default: &str| -> PyResult<String> {
        match dict.get_item(key)? {
            Some(value) if !value.is_none() => value.extract(),
            _ => Ok(default.to_owned()),
        }
    };
    Ok(Strategy {
        options: SearchOptions::from_keywords(Some(dict))?.without_objective()?,
        var_order: name("var_order", "input")?,
        value_order: name("value_order", "asc")?,
    })
}

/// One row of the table as a dict.
fn row<'py>(py: Python<'py>, record: &Record) -> PyResult<Bound<'py, PyDict>> {
    let row = &record.row;
    let dict = PyDict::new(py);
    let strategy = [
        row.variable_order.as_str(),
        row.value_order.as_str(),
        row.propagation.as_str(),
        row.branching.as_str(),
    ]
    .join(", ");
    dict.set_item("strategy", strategy)?;
    dict.set_item("var_order", &row.variable_order)?;
    dict.set_item("value_order", &row.value_order)?;
    dict.set_item("propagation", &row.propagation)?;
    dict.set_item("branching", &row.branching)?;
    dict.set_item("decisions", row.decisions)?;
    dict.set_item("nodes", row.tree_nodes)?;
    dict.set_item("tree_nodes", row.tree_nodes)?;
    dict.set_item("failures", row.failures)?;
    dict.set_item("nassigns", row.nassigns)?;
    dict.set_item("propagations", row.propagations)?;
    dict.set_item("arc_revisions", record.revisions)?;
    dict.set_item("values_removed", record.removals)?;
    dict.set_item("domain_changes", row.domain_changes)?;
    dict.set_item("solutions", row.solutions)?;
    dict.set_item("time", row.time.as_secs_f64())?;
    dict.set_item("status", &row.status)?;
    Ok(dict)
}
