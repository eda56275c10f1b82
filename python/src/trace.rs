//! The trace of a search: the lines `--trace` prints, and the events of the search one by
//! one, as dicts.

use cspkit::teach::trace::Trace;
use cspkit::{Domain, Model, ModelError, OwnedEvent, SearchStep, VarId};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::raised;
use crate::model::RawModel;
use crate::options::SearchOptions;
use crate::views::{off_the_gil, run_search};

/// The lines `cspkit ... --trace` prints for a search of `model` (`wanted` solutions, 0 for
/// all): at most `max_lines`, then one saying what was cut; with the domains of the unfixed
/// variables after each node if `domains` (`--trace-domains`).
#[pyfunction]
#[pyo3(signature = (model, max_lines, domains, wanted, **options))]
pub fn trace_lines(
    py: Python<'_>,
    model: &RawModel,
    max_lines: usize,
    domains: bool,
    wanted: u64,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<String>> {
    let options = SearchOptions::from_keywords(options)?.without_objective()?;
    let model = model.shared_model();
    let text = off_the_gil(py, move |cancel| {
        let solver = options.solver(&model, cancel)?;
        let mut trace = Trace::new(&model, Vec::new())
            .with_domains(domains)
            .with_counting(solver.config().counting())
            .with_limit(max_lines);
        run_search(&mut solver.with_observer(&mut trace), wanted);
        // Writing to memory does not fail.
        let _ = trace.finish();
        Ok::<_, ModelError>(String::from_utf8_lossy(trace.writer_mut()).into_owned())
    })?
    .map_err(raised)?;
    Ok(text.lines().map(str::to_owned).collect())
}

/// The events of a search of `model` (`wanted` solutions, 0 for all), at most `max_events`
/// (the search stops there), each a dict: `kind` and the event's fields, variables and
/// constraints by name. The events that carry domains (`pruned`, `propagated`) only if
/// `domains`.
#[pyfunction]
#[pyo3(signature = (model, max_events, domains, wanted, **options))]
pub fn trace_events<'py>(
    py: Python<'py>,
    model: &RawModel,
    max_events: usize,
    domains: bool,
    wanted: u64,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let options = SearchOptions::from_keywords(options)?.without_objective()?;
    let shared = model.shared_model();
    let model = std::sync::Arc::clone(&shared);
    let events = off_the_gil(py, move |cancel| {
        let mut solver = options.solver(&model, cancel)?;
        let mut events = Vec::new();
        let mut found = 0;
        while events.len() < max_events {
            match solver.next_step() {
                SearchStep::Event(OwnedEvent::Pruned { .. } | OwnedEvent::Propagated { .. })
                    if !domains => {}
                SearchStep::Event(event) => events.push(event),
                SearchStep::Solution { node, depth, .. } => {
                    events.push(OwnedEvent::Solution { node, depth });
                    found += 1;
                    if wanted != 0 && found >= wanted {
                        break;
                    }
                }
                _ => break,
            }
        }
        Ok::<_, ModelError>(events)
    })?
    .map_err(raised)?;
    events
        .iter()
        .map(|event| event_dict(py, &shared, event))
        .collect()
}

/// One event as a dict, in the model's names.
fn event_dict<'py>(
    py: Python<'py>,
    model: &Model,
    event: &OwnedEvent,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let name = |var: VarId| model.var_name(var).into_owned();
    let values = |domain: &Domain| domain.iter().collect::<Vec<i32>>();
    let arcs = |arcs: &[(VarId, VarId)]| {
        arcs.iter()
            .map(|&(from, to)| (name(from), name(to)))
            .collect::<Vec<_>>()
    };
    match event {
        OwnedEvent::Node {
            node,
            parent,
            var,
            value,
            kind,
            depth,
        } => {
            dict.set_item("kind", "node")?;
            dict.set_item("node", node)?;
            dict.set_item("parent", parent)?;
            dict.set_item("var", name(*var))?;
            dict.set_item("var_index", var.index())?;
            dict.set_item("value", value)?;
            dict.set_item("branch", kind.symbol())?;
            dict.set_item("depth", depth)?;
        }
        OwnedEvent::Pruned {
            node,
            var,
            before,
            after,
            constraint,
        } => {
            dict.set_item("kind", "pruned")?;
            dict.set_item("node", node)?;
            dict.set_item("var", name(*var))?;
            dict.set_item("var_index", var.index())?;
            dict.set_item("before", values(before))?;
            dict.set_item("after", values(after))?;
            dict.set_item("constraint", model.constraint_name(*constraint))?;
        }
        OwnedEvent::Propagated { node, domains } => {
            dict.set_item("kind", "propagated")?;
            dict.set_item("node", node)?;
            let domains: Vec<Vec<i32>> = domains.iter().map(values).collect();
            dict.set_item("domains", domains)?;
        }
        OwnedEvent::ArcQueue { node, arcs: queue } => {
            dict.set_item("kind", "arc_queue")?;
            dict.set_item("node", node)?;
            dict.set_item("arcs", arcs(queue))?;
        }
        OwnedEvent::Revise {
            node,
            from,
            to,
            removed,
            queue,
        } => {
            dict.set_item("kind", "revise")?;
            dict.set_item("node", node)?;
            dict.set_item("from", name(*from))?;
            dict.set_item("to", name(*to))?;
            dict.set_item("removed", removed.clone())?;
            dict.set_item("queue", arcs(queue))?;
        }
        OwnedEvent::Failure {
            node,
            constraint,
            var,
            depth,
        } => {
            dict.set_item("kind", "failure")?;
            dict.set_item("node", node)?;
            dict.set_item(
                "constraint",
                constraint.map(|id| model.constraint_name(id).to_owned()),
            )?;
            dict.set_item("var", var.map(name))?;
            dict.set_item("depth", depth)?;
        }
        OwnedEvent::Backtrack { var, value, depth } => {
            dict.set_item("kind", "backtrack")?;
            dict.set_item("var", name(*var))?;
            dict.set_item("var_index", var.index())?;
            dict.set_item("value", value)?;
            dict.set_item("depth", depth)?;
        }
        OwnedEvent::Solution { node, depth } => {
            dict.set_item("kind", "solution")?;
            dict.set_item("node", node)?;
            dict.set_item("depth", depth)?;
        }
        OwnedEvent::Improved { node, value } => {
            dict.set_item("kind", "improved")?;
            dict.set_item("node", node)?;
            dict.set_item("value", value)?;
        }
        _ => dict.set_item("kind", "other")?,
    }
    Ok(dict)
}
