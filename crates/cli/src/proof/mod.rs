//! `--proof`: the files of a proof (`csp_proof` writes it) and what the command says of it: a
//! DRCP proof of what a learning search proved, and the model it speaks of as
//! the FlatZinc that Pumpkin's checker reads (`pumpkin-checker MODEL.fzn PROOF.drcp`).
//!
//! The model written is the one the search solved, as csp built it from the input, so the
//! proof certifies that model: the translation from a DIMACS graph or a FlatZinc file into
//! it, and any symmetry breaking added to it, are csp's own and not checked.

use crate::wording::count;
use csp::{Inference, Model, Objective, Solution, Solver, Summary};
use csp_proof::{ProofEnd, ProofError, ProofSummary};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Refuses `--proof` unless the search learns: the library's rule, in the command line's
/// words.
pub fn check_inference(inference: Inference) -> Result<(), String> {
    csp_proof::check_inference(inference).map_err(|error| message(&error))
}

/// A proof error as the command line says it.
fn message(error: &ProofError) -> String {
    match error {
        ProofError::NeedsLearning(_) => {
            "--proof needs --inference lcg: only learning explains what it proves".into()
        }
        other => format!("--proof: {other}"),
    }
}

/// The model's path beside the proof's: `PROOF` with the extension `.fzn`.
fn model_path(proof: &Path) -> PathBuf {
    proof.with_extension("fzn")
}

/// Opens the proof file at `path` and writes `model` beside it; a message naming the file on
/// failure.
fn create(
    path: &Path,
    input: &Path,
    model: &Model,
    objective: Option<Objective>,
) -> Result<BufWriter<File>, String> {
    let model_file = model_path(path);
    let same = |a: &Path, b: &Path| {
        a == b
            || std::fs::canonicalize(a)
                .ok()
                .is_some_and(|a| std::fs::canonicalize(b).is_ok_and(|b| a == b))
    };
    if same(&model_file, path) || same(&model_file, input) || same(path, input) {
        return Err(format!(
            "--proof {}: the proof and the model written beside it ({}) would overwrite one \
             another or the input; name the proof FILE.drcp in another place",
            path.display(),
            model_file.display()
        ));
    }
    let text = csp_proof::checker_model(model, objective).map_err(|e| message(&e))?;
    std::fs::write(&model_file, text)
        .map_err(|e| format!("--proof: cannot write {}: {e}", model_file.display()))?;
    File::create(path)
        .map(BufWriter::new)
        .map_err(|e| format!("--proof: cannot write {}: {e}", path.display()))
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
        model_path(path).display(),
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

/// Flushes a proof's file.
fn flush(mut sink: BufWriter<File>, path: &Path) -> Result<(), String> {
    sink.flush()
        .map_err(|e| format!("--proof: cannot write {}: {e}", path.display()))
}

/// Runs `solver` on `model`, read from `input`, with its
/// proof logged to `path` and the model beside it: the search's summary and one line on what
/// the proof holds. A model the checker cannot read, or a file that cannot be written, is a
/// message instead.
fn solve_logged(
    solver: &Solver<'_>,
    input: &Path,
    model: &Model,
    path: &Path,
    on_solution: impl FnMut(&Solution<'_>) -> ControlFlow<()>,
) -> Result<(Summary, String), String> {
    check_inference(solver.chosen_inference())?;
    let mut sink = create(path, input, model, solver.objective())?;
    let (summary, written) =
        csp_proof::prove(solver, model, &mut sink, on_solution).map_err(|e| match e {
            ProofError::Write(e) => format!("--proof: cannot write {}: {e}", path.display()),
            other => message(&other),
        })?;
    flush(sink, path)?;
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
