//! `ProofFiles`: the two files of a proof, the DRCP proof and beside it the model it speaks of
//! as the FlatZinc that Pumpkin's checker reads (`pumpkin-checker MODEL.fzn PROOF.drcp`),
//! created once every overwrite has been ruled out.

use crate::error::PolicyError;
use csp::{Model, Objective, Solution, Solver, Summary};
use csp_proof::{ProofError, ProofSummary};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// A proof being written: its file open, the model's written beside it.
#[derive(Debug)]
pub struct ProofFiles {
    sink: BufWriter<File>,
    path: PathBuf,
}

/// Whether `a` and `b` name the same file, as written or once resolved.
fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || std::fs::canonicalize(a)
            .ok()
            .is_some_and(|a| std::fs::canonicalize(b).is_ok_and(|b| a == b))
}

/// A proof error in the policy's words.
fn proof_error(error: ProofError, path: &Path) -> PolicyError {
    match error {
        ProofError::NeedsLearning(_) => PolicyError::ProofNeedsLearning,
        ProofError::Write(e) => PolicyError::Proof(format!("cannot write {}: {e}", path.display())),
        other => PolicyError::Proof(other.to_string()),
    }
}

impl ProofFiles {
    /// The model's path beside the proof at `proof`: the extension `.fzn`.
    pub fn model_path(proof: &Path) -> PathBuf {
        proof.with_extension("fzn")
    }

    /// Checks that `solver` can be proved (it learns; its model is one the checker reads),
    /// that the proof at `path`, the model beside it and the `input` read (if any) are three
    /// files, then writes the model and opens the proof.
    pub fn create(
        path: &Path,
        input: Option<&Path>,
        model: &Model,
        solver: &Solver<'_>,
    ) -> Result<Self, PolicyError> {
        csp_proof::check_inference(solver.chosen_inference()).map_err(|e| proof_error(e, path))?;
        let model_file = Self::model_path(path);
        let clash = same_file(&model_file, path)
            || input.is_some_and(|input| same_file(&model_file, input) || same_file(path, input));
        if clash {
            return Err(PolicyError::ProofOverwrites {
                proof: path.display().to_string(),
                model: model_file.display().to_string(),
            });
        }
        let objective: Option<Objective> = solver.objective();
        let text = csp_proof::checker_model(model, objective).map_err(|e| proof_error(e, path))?;
        std::fs::write(&model_file, text).map_err(|e| {
            PolicyError::Proof(format!("cannot write {}: {e}", model_file.display()))
        })?;
        let file = File::create(path)
            .map_err(|e| PolicyError::Proof(format!("cannot write {}: {e}", path.display())))?;
        Ok(ProofFiles {
            sink: BufWriter::new(file),
            path: path.to_owned(),
        })
    }

    /// Solves with `solver`, writing the proof as the search goes: the summary and what the
    /// proof holds.
    pub fn prove(
        mut self,
        solver: &Solver<'_>,
        model: &Model,
        on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()>,
    ) -> Result<(Summary, ProofSummary), PolicyError> {
        let proved = csp_proof::prove(solver, model, &mut self.sink, on_solution)
            .map_err(|e| proof_error(e, &self.path))?;
        self.sink.flush().map_err(|e| {
            PolicyError::Proof(format!("cannot write {}: {e}", self.path.display()))
        })?;
        Ok(proved)
    }
}
