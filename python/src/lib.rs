//! `cspkit._cspkit`: the CPython extension module under the `cspkit` Python package.
//!
//! The module is deliberately low level: a model holding the library's `Model` and the
//! variables by index, and searches run with the GIL released, looking at Python's signals
//! every few milliseconds so that Ctrl-C stops them. The Pythonic layer (variables, expressions
//! with operators, constraints, solutions read by variable) is `cspkit/__init__.py`.

mod builtin;
mod errors;
mod model;
mod options;
mod run;
mod solutions;
mod spec;
mod stats;

use pyo3::prelude::*;

/// The extension module: its classes, functions and exception.
#[pymodule]
fn _cspkit(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("CspkitError", module.py().get_type::<errors::CspkitError>())?;
    module.add_class::<model::RawModel>()?;
    module.add_class::<solutions::RawSolutions>()?;
    module.add_function(wrap_pyfunction!(builtin::queens, module)?)?;
    module.add_function(wrap_pyfunction!(builtin::sudoku, module)?)?;
    Ok(())
}
