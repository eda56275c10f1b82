//! Search statistics as a Python dict.

use cspkit::SearchStats;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The statistics of a search as a dict of plain numbers (times in seconds).
pub fn stats_dict<'py>(py: Python<'py>, stats: &SearchStats) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("nodes", stats.tree_nodes())?;
    dict.set_item("decisions", stats.decisions)?;
    dict.set_item("refutations", stats.refutations)?;
    dict.set_item("failures", stats.failures)?;
    dict.set_item("nassigns", stats.nassigns)?;
    dict.set_item("backtracks", stats.backtracks)?;
    dict.set_item("propagations", stats.propagations)?;
    dict.set_item("domain_changes", stats.domain_changes)?;
    dict.set_item("revisions", stats.revisions)?;
    dict.set_item("removals", stats.removals)?;
    dict.set_item("solutions", stats.solutions)?;
    dict.set_item("max_depth", stats.max_depth)?;
    dict.set_item("restarts", stats.restarts)?;
    dict.set_item("elapsed", stats.elapsed.as_secs_f64())?;
    Ok(dict)
}
