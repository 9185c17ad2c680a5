//! `--proof`: the files of a proof (`csp_proof` writes it) and what the command says of it: a
//! DRCP proof of what a learning search proved, and the model it speaks of as
//! the FlatZinc that Pumpkin's checker reads (`pumpkin-checker MODEL.fzn PROOF.drcp`).
//!
//! The model written is the one the search solved, as csp built it from the input, so the
//! proof certifies that model: the translation from a DIMACS graph or a FlatZinc file into
//! it, and any symmetry breaking added to it, are csp's own and not checked.

use crate::wording::count;
use csp::{Inference, Model, Solution, Solver, Summary};
use csp_policy::{PolicyError, ProofFiles};
use csp_proof::{ProofEnd, ProofSummary};
use std::ops::ControlFlow;
use std::path::Path;

/// Refuses `--proof` unless the search learns: the library's rule, in the command line's
/// words.
pub fn check_inference(inference: Inference) -> Result<(), String> {
    csp_proof::check_inference(inference).map_err(|_| PolicyError::ProofNeedsLearning.into())
}

/// Says on one line what the proof at `path` holds.
fn said(written: ProofSummary, path: &Path) -> String {
    let ProofSummary {
        end,
        deductions,
        underived,
    } = written;
    let checked = format!(
        "pumpkin-checker {} {}",
        ProofFiles::model_path(path).display(),
        path.display()
    );
    let what = match end {
        ProofEnd::Concluded if underived == 0 => {
            format!(
                "proof written ({}); check it with `{checked}`",
                count(deductions, "deduction", "deductions")
            )
        }
        ProofEnd::Concluded => format!(
            "proof written ({}), but {underived} could not be derived from the search's \
             explanations: the checker will reject it",
            count(deductions, "deduction", "deductions")
        ),
        ProofEnd::Solved => "no proof: a solution was found, and is its own certificate".into(),
        ProofEnd::Incomplete => {
            "proof incomplete: the search stopped before proving anything".into()
        }
    };
    what
}

/// Runs `solver` on `model`, read from `input`, with its proof logged to `path` and the
/// model beside it ([`ProofFiles`], which rules out every overwrite first): the search's
/// summary and one line on what the proof holds.
fn solve_logged(
    solver: &Solver<'_>,
    input: &Path,
    model: &Model,
    path: &Path,
    on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()>,
) -> Result<(Summary, String), String> {
    let files = ProofFiles::create(path, Some(input), model, solver)?;
    let (summary, written) = files.prove(solver, model, on_solution)?;
    Ok((summary, said(written, path)))
}

/// `command`'s search: logged as [`solve_logged`] does when `proof` names a file, else plain.
/// What the proof holds is said on stderr; a refusal too, and it comes back as the message.
pub fn solve(
    command: &str,
    solver: &Solver<'_>,
    input: &Path,
    model: &Model,
    proof: Option<&Path>,
    on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()>,
) -> Result<Summary, String> {
    let Some(path) = proof else {
        return Ok(solver.solve(on_solution));
    };
    let (summary, said) = solve_logged(solver, input, model, path, on_solution)?;
    eprintln!("{command}: {said}");
    Ok(summary)
}
