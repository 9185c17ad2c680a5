//! `csp_solver._native`: the engine as a Python extension module (PyO3), below the pure-Python package.
//!
//! The Python package (`python/csp_solver`) holds the modelling layer, the CPMpy interface and
//! the `csp` command's launcher; this module gives it a [`Model`](model::PyModel) to post on
//! and a [`Search`](search::PySearch) that streams solutions from a thread of its own.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod convert;
mod cubes;
mod model;
mod search;

use pyo3::prelude::*;

pyo3::create_exception!(
    _native,
    ModelError,
    pyo3::exceptions::PyValueError,
    "A model the engine refuses: an empty domain, an unknown variable, a malformed constraint."
);

/// The module: its classes, its exception, and the engine's version.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<model::PyModel>()?;
    m.add_class::<search::PySearch>()?;
    m.add_class::<cubes::PyCubeSource>()?;
    m.add_class::<cubes::PyCubeControl>()?;
    m.add_function(wrap_pyfunction!(cubes::merge_results, m)?)?;
    m.add("ModelError", m.py().get_type::<ModelError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
