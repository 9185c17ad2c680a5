//! Mistakes made while building a model, reported as values rather than panics.

use crate::{Limit, VarId};
use std::fmt;

/// Why a model could not be built as asked.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModelError {
    /// A variable was given no values at all.
    EmptyDomain,
    /// A value the model needs (a bound, a coefficient times a bound) lies outside `i32`;
    /// the text says which.
    OutOfRange(String),
    /// A constraint names a variable that this model does not have.
    UnknownVariable(VarId),
    /// A constraint was given no variables.
    EmptyScope,
    /// A constraint's arguments do not fit together (for example, offsets of the wrong length).
    InvalidConstraint(String),
    /// A constraint that can never hold, whatever the domains (`x != x`): the text says why.
    /// Refused rather than posted, so that a contradiction is not left for a search to find; a
    /// front end whose input may state one (FlatZinc) reads it as an unsatisfiable model.
    NeverHolds(String),
    /// The model has more variables or constraints than an id can number.
    TooMany,
    /// Solving the model would need more memory than its builder allows.
    TooLarge {
        /// What it would need, in bytes (an estimate).
        needed: u64,
        /// The most allowed, in bytes.
        max: u64,
    },
    /// A limit (the time limit or a cancel request, read by a [`Poller`](crate::Poller))
    /// stopped the building before the model was complete.
    Stopped(Limit),
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::EmptyDomain => write!(f, "a variable has an empty domain"),
            ModelError::OutOfRange(what) => {
                write!(
                    f,
                    "{what} lies outside the 32-bit integers the engine holds"
                )
            }
            ModelError::UnknownVariable(v) => write!(f, "unknown variable {v}"),
            ModelError::EmptyScope => write!(f, "a constraint needs at least one variable"),
            ModelError::InvalidConstraint(why) => write!(f, "invalid constraint: {why}"),
            ModelError::NeverHolds(why) => write!(f, "a constraint that can never hold: {why}"),
            ModelError::TooMany => write!(f, "too many variables or constraints"),
            ModelError::TooLarge { needed, max } => write!(
                f,
                "solving it would need about {:.1} GB of memory; at most {:.1} GB is allowed",
                *needed as f64 / 1e9,
                *max as f64 / 1e9
            ),
            ModelError::Stopped(Limit::Time) => {
                write!(f, "the time limit stopped the building of the model")
            }
            ModelError::Stopped(Limit::Nodes) => {
                write!(f, "the node limit stopped the building of the model")
            }
            ModelError::Stopped(Limit::Cancelled) => {
                write!(f, "a cancel request stopped the building of the model")
            }
        }
    }
}

impl std::error::Error for ModelError {}
