//! `ProofError`: why no proof is written.

use csp::{ConstraintId, Inference};
use std::fmt;
use std::io;

/// Why a proof cannot be written.
#[derive(Debug)]
pub enum ProofError {
    /// The search does not learn: only learning ([`Inference::Lcg`]) explains what it proves.
    NeedsLearning(Inference),
    /// The model has a constraint the checker has no rule for: the first such one, with its
    /// name in the model and why.
    Uncheckable(ConstraintId, String),
    /// Writing the proof failed.
    Write(io::Error),
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofError::NeedsLearning(inference) => write!(
                f,
                "a proof needs the learning search (lcg), not {inference}: only learning \
                 explains what it proves"
            ),
            ProofError::Uncheckable(_, why) => f.write_str(why),
            ProofError::Write(e) => write!(f, "cannot write the proof: {e}"),
        }
    }
}

impl std::error::Error for ProofError {}

/// The inference a proof needs, checked once for every caller: `Ok` for the learning search.
pub fn check_inference(inference: Inference) -> Result<(), ProofError> {
    match inference {
        Inference::Lcg => Ok(()),
        other => Err(ProofError::NeedsLearning(other)),
    }
}
