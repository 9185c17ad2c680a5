//! `--proof`: a DRCP proof of what a learning search proved, and the model it speaks of as
//! the FlatZinc that Pumpkin's checker reads (`pumpkin-checker MODEL.fzn PROOF.drcp`).
//!
//! The model written is the one the search solved, as csp built it from the input, so the
//! proof certifies that model: the translation from a DIMACS graph or a FlatZinc file into
//! it, and any symmetry breaking added to it, are csp's own and not checked.

mod drcp;

use drcp::{DrcpLog, ProofEnd, ProofSummary};

use crate::wording::count;
use csp::{Checkable, Model, Objective, Outcome, Sense, Solution, Solver, Summary, VarId};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// The name of variable `x` in the checker's model.
fn var_name(x: VarId) -> String {
    format!("v{}", x.index())
}

/// Why `model` cannot have a proof the checker reads: its first constraint that is not one
/// of the checker's, named as the model names it; `None` when all are.
fn uncheckable(model: &Model) -> Option<String> {
    model.constraint_ids().find_map(|c| {
        let why = match model.constraint(c).and_then(|k| k.checkable()) {
            None => "the proof checker knows only all_different and linear constraints",
            Some(form) if !fits(&form) => "its coefficients do not fit the checker's 32 bits",
            Some(_) => return None,
        };
        Some(format!(
            "constraint {} ({}): {why}",
            c.index() + 1,
            model.constraint_name(c)
        ))
    })
}

fn fits(form: &Checkable) -> bool {
    let small = |v: i64| i32::try_from(v).is_ok();
    match form {
        Checkable::AllDifferent(_) => true,
        Checkable::LinearLe(terms, rhs) | Checkable::LinearEq(terms, rhs) => {
            small(*rhs) && terms.iter().all(|&(a, _)| small(a))
        }
    }
}

/// `model` as FlatZinc for the checker: one variable `v{i}` per variable (its name in the
/// model in a comment), its constraints in order (the proof cites them by position), the
/// objective. Call only when [`uncheckable`] says `None`.
fn flatzinc(model: &Model, objective: Option<Objective>) -> String {
    let mut fzn = String::from("% The model csp solved, for pumpkin-checker.\n");
    for x in model.vars() {
        let values: Vec<i32> = model.initial_values(x).collect();
        let (Some(&low), Some(&high)) = (values.first(), values.last()) else {
            continue;
        };
        let domain = if i64::from(high) - i64::from(low) + 1 == values.len() as i64 {
            format!("{low}..{high}")
        } else {
            let listed: Vec<String> = values.iter().map(i32::to_string).collect();
            format!("{{{}}}", listed.join(","))
        };
        let name = model
            .var_name(x)
            .map(|n| format!(" % {n}"))
            .unwrap_or_default();
        let _ = writeln!(fzn, "var {domain}: {};{name}", var_name(x));
    }
    let names = |vars: &mut dyn Iterator<Item = VarId>| -> String {
        vars.map(var_name).collect::<Vec<_>>().join(",")
    };
    for c in model.constraint_ids() {
        let Some(form) = model.constraint(c).and_then(|k| k.checkable()) else {
            continue;
        };
        let _ = match &form {
            Checkable::AllDifferent(vars) => writeln!(
                fzn,
                "constraint pumpkin_all_different([{}]);",
                names(&mut vars.iter().copied())
            ),
            Checkable::LinearLe(terms, rhs) | Checkable::LinearEq(terms, rhs) => {
                let which = if matches!(form, Checkable::LinearLe(..)) {
                    "int_lin_le"
                } else {
                    "int_lin_eq"
                };
                let weights: Vec<String> = terms.iter().map(|(a, _)| a.to_string()).collect();
                writeln!(
                    fzn,
                    "constraint {which}([{}],[{}],{rhs});",
                    weights.join(","),
                    names(&mut terms.iter().map(|&(_, x)| x))
                )
            }
        };
    }
    let _ = match objective {
        None => writeln!(fzn, "solve satisfy;"),
        Some(Objective { var, sense }) => {
            let sense = match sense {
                Sense::Minimize => "minimize",
                Sense::Maximize => "maximize",
            };
            writeln!(fzn, "solve {sense} {};", var_name(var))
        }
    };
    fzn
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
    std::fs::write(&model_file, flatzinc(model, objective))
        .map_err(|e| format!("--proof: cannot write {}: {e}", model_file.display()))?;
    File::create(path)
        .map(BufWriter::new)
        .map_err(|e| format!("--proof: cannot write {}: {e}", path.display()))
}

/// Ends the proof of `log` and says on one line what it holds.
fn close(
    log: DrcpLog<'_, &mut BufWriter<File>>,
    exhausted: bool,
    path: &Path,
) -> Result<String, String> {
    let ProofSummary {
        end,
        deductions,
        underived,
    } = log
        .finish(exhausted)
        .map_err(|e| format!("--proof: cannot write {}: {e}", path.display()))?;
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
    Ok(what)
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
    let objective = solver.objective();
    if let Some(why) = uncheckable(model) {
        return Err(format!("--proof: {why}"));
    }
    let mut sink = create(path, input, model, objective)?;
    let mut log = DrcpLog::new(model, objective, &mut sink);
    let summary = solver.solve_observed(&mut log, on_solution);
    let said = close(log, summary.outcome == Outcome::Exhausted, path)?;
    flush(sink, path)?;
    Ok((summary, said))
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
