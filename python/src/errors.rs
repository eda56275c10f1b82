//! The Python exception for bad models and options, carrying the library's messages.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    _cspkit,
    CspkitError,
    PyValueError,
    "A model or a search option cspkit cannot accept; the message names what and where."
);

/// The Python exception for any error the library reports, with its message.
pub fn raised(error: impl std::fmt::Display) -> PyErr {
    CspkitError::new_err(error.to_string())
}
