//! Python's arguments made the engine's: variable ids, relations, literals, and errors.

use crate::ModelError;
use csp::{Lit, Relation, VarId};
use pyo3::PyErr;

/// The engine's error as the module's Python exception, with the engine's message.
pub(crate) fn model_error(e: csp::ModelError) -> PyErr {
    ModelError::new_err(e.to_string())
}

/// An error of the caller's making, with `message`.
pub(crate) fn invalid(message: impl Into<String>) -> PyErr {
    ModelError::new_err(message.into())
}

/// The variable with index `index`; the model checks that it has it when posting.
pub(crate) fn var(index: u32) -> Result<VarId, PyErr> {
    VarId::from_index(index as usize).ok_or_else(|| invalid(format!("no variable {index}")))
}

/// Many variables by index.
pub(crate) fn vars(indices: &[u32]) -> Result<Vec<VarId>, PyErr> {
    indices.iter().map(|&i| var(i)).collect()
}

/// A value that must fit the engine's `i32` domains.
pub(crate) fn value(v: i64, what: &str) -> Result<i32, PyErr> {
    i32::try_from(v).map_err(|_| {
        invalid(format!(
            "{what} {v} is outside the 32-bit range of csp's domains"
        ))
    })
}

/// Values that must fit the engine's `i32` domains.
pub(crate) fn values(vs: &[i64], what: &str) -> Result<Vec<i32>, PyErr> {
    vs.iter().map(|&v| value(v, what)).collect()
}

/// A relation written as Python writes it: `==`, `!=`, `<`, `<=`, `>`, `>=`.
pub(crate) fn relation(op: &str) -> Result<Relation, PyErr> {
    Ok(match op {
        "==" => Relation::Eq,
        "!=" => Relation::Ne,
        "<" => Relation::Lt,
        "<=" => Relation::Le,
        ">" => Relation::Gt,
        ">=" => Relation::Ge,
        _ => {
            return Err(invalid(format!(
                "unknown relation {op:?} (one of ==, !=, <, <=, >, >=)"
            )))
        }
    })
}

/// Literals given as `(variable, positive)` pairs.
pub(crate) fn lits(pairs: &[(u32, bool)]) -> Result<Vec<Lit>, PyErr> {
    pairs
        .iter()
        .map(|&(v, positive)| {
            let v = var(v)?;
            Ok(if positive { Lit::pos(v) } else { Lit::neg(v) })
        })
        .collect()
}
