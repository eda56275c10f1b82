//! `cspkit._cspkit`: the CPython extension module under the `cspkit` Python package.
//!
//! The module is deliberately low level: a model holding the library's `Model` and the
//! variables by index, and searches run with the GIL released, looking at Python's signals
//! every few milliseconds so that Ctrl-C stops them. The Pythonic layer (variables, expressions
//! with operators, constraints, solutions read by variable) is `cspkit/__init__.py`.

mod builtin;
mod compare;
mod errors;
mod model;
mod options;
mod puzzle;
mod run;
mod solutions;
mod spec;
mod stats;
mod trace;
mod tree;
mod views;

use pyo3::prelude::*;

/// The extension module: its classes, functions and exception.
#[pymodule]
fn _cspkit(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("CspkitError", module.py().get_type::<errors::CspkitError>())?;
    module.add_class::<model::RawModel>()?;
    module.add_class::<solutions::RawSolutions>()?;
    module.add_function(wrap_pyfunction!(builtin::queens, module)?)?;
    module.add_function(wrap_pyfunction!(builtin::sudoku, module)?)?;
    // The teaching views: trace, tree, compare, the Sudoku tools.
    module.add_class::<tree::RawTreeSession>()?;
    module.add_function(wrap_pyfunction!(tree::tree_html, module)?)?;
    module.add_function(wrap_pyfunction!(tree::tree_svg, module)?)?;
    module.add_function(wrap_pyfunction!(trace::trace_lines, module)?)?;
    module.add_function(wrap_pyfunction!(trace::trace_events, module)?)?;
    module.add_function(wrap_pyfunction!(compare::compare, module)?)?;
    module.add_function(wrap_pyfunction!(puzzle::sudoku_generate, module)?)?;
    module.add_function(wrap_pyfunction!(puzzle::sudoku_grade, module)?)?;
    module.add_function(wrap_pyfunction!(puzzle::sudoku_explain, module)?)?;
    module.add_function(wrap_pyfunction!(puzzle::sudoku_why, module)?)?;
    module.add_function(wrap_pyfunction!(puzzle::sudoku_why_cell, module)?)?;
    Ok(())
}
