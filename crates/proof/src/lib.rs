//! Proofs of what csp's learning search proves, in DRCP, the format of Pumpkin's proof checker
//! (`pumpkin-checker MODEL.fzn PROOF.drcp`): that a model has no solution, or that the best
//! solution found is optimal.
//!
//! The proof speaks of the model as csp built it, written as the FlatZinc the checker reads
//! ([`checker_model`]); a model with a constraint the checker has no rule for has no proof.
//! The library writes to the writers it is given and opens no file.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use csp::{Inference, Model, Solver};
//! use std::ops::ControlFlow;
//!
//! // Three pigeons, two holes.
//! let mut model = Model::new();
//! let pigeons = (0..3).map(|_| model.new_var(0..=1)).collect::<Result<Vec<_>, _>>()?;
//! model.all_different(&pigeons)?;
//! let solver = Solver::new(&model).inference(Inference::Lcg);
//! let checker_model = csp_proof::checker_model(&model, solver.objective())?;
//! assert!(checker_model.contains("pumpkin_all_different"));
//! let mut proof = Vec::new();
//! let (summary, written) =
//!     csp_proof::prove(&solver, &model, &mut proof, |_| ControlFlow::Continue(()))?;
//! assert_eq!(summary.stats.solutions, 0);
//! assert_eq!(written.end, csp_proof::ProofEnd::Concluded);
//! assert!(String::from_utf8(proof)?.trim_end().ends_with("c UNSAT"));
//! # Ok(())
//! # }
//! ```

// A proof log must never panic in the middle of a search: errors come back as values.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod checker_model;
mod drcp_log;
mod proof_error;

pub use drcp_log::{DrcpLog, ProofEnd, ProofSummary};
pub use proof_error::{check_inference, ProofError};

use csp::{Model, Objective, Outcome, Solution, Solver, Summary};
use std::io::Write;
use std::ops::ControlFlow;

/// `model` as the FlatZinc Pumpkin's checker reads, for a search that optimises `objective`
/// (none for satisfaction): the model file a proof is checked against. Fails on the first
/// constraint the checker has no rule for.
pub fn checker_model(model: &Model, objective: Option<Objective>) -> Result<String, ProofError> {
    if let Some((c, why)) = checker_model::uncheckable(model) {
        return Err(ProofError::Uncheckable(c, why));
    }
    Ok(checker_model::flatzinc(model, objective))
}

/// Runs `solver` on `model` (the model it was made for) with its proof written to `proof` as
/// it goes, `on_solution` called on each solution as [`Solver::solve`] does: the search's
/// summary and what the proof holds. The solver must learn ([`check_inference`]) and the
/// model be one the checker reads ([`checker_model`]). The caller flushes `proof`.
pub fn prove<W: Write>(
    solver: &Solver<'_>,
    model: &Model,
    proof: W,
    on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()>,
) -> Result<(Summary, ProofSummary), ProofError> {
    check_inference(solver.chosen_inference())?;
    if let Some((c, why)) = checker_model::uncheckable(model) {
        return Err(ProofError::Uncheckable(c, why));
    }
    let mut log = DrcpLog::new(model, solver.objective(), proof);
    let summary = solver.solve_observed(&mut log, on_solution);
    let written = log
        .finish(summary.outcome == Outcome::Exhausted)
        .map_err(ProofError::Write)?;
    Ok((summary, written))
}
