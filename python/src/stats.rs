//! Search statistics as a Python dict.

use cspkit::SearchStats;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The statistics of a search as a dict of plain numbers (times in seconds); the keys are
/// interned strings, made once.
pub fn stats_dict<'py>(py: Python<'py>, stats: &SearchStats) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "nodes"), stats.tree_nodes())?;
    dict.set_item(intern!(py, "decisions"), stats.decisions)?;
    dict.set_item(intern!(py, "refutations"), stats.refutations)?;
    dict.set_item(intern!(py, "failures"), stats.failures)?;
    dict.set_item(intern!(py, "nassigns"), stats.nassigns)?;
    dict.set_item(intern!(py, "backtracks"), stats.backtracks)?;
    dict.set_item(intern!(py, "propagations"), stats.propagations)?;
    dict.set_item(intern!(py, "domain_changes"), stats.domain_changes)?;
    dict.set_item(intern!(py, "revisions"), stats.revisions)?;
    dict.set_item(intern!(py, "removals"), stats.removals)?;
    dict.set_item(intern!(py, "solutions"), stats.solutions)?;
    dict.set_item(intern!(py, "max_depth"), stats.max_depth)?;
    dict.set_item(intern!(py, "restarts"), stats.restarts)?;
    dict.set_item(intern!(py, "backjumps"), stats.backjumps)?;
    dict.set_item(intern!(py, "levels_skipped"), stats.levels_skipped)?;
    dict.set_item(intern!(py, "elapsed"), stats.elapsed.as_secs_f64())?;
    Ok(dict)
}
