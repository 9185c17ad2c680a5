//! Seven pigeons do not fit in six holes: proved by the learning search through the library,
//! with a DRCP proof that Pumpkin's independent checker verifies.
//!
//! The model is the pigeonhole principle as 0/1 variables, `x[p][h] = 1` when pigeon `p` sits
//! in hole `h`: each pigeon in exactly one hole (a sum equal to 1), each hole holding at most
//! one pigeon (a sum at most 1). Unsatisfiable, and famously hard for resolution, so the
//! proof takes many learned nogoods. `csp_proof` writes the model as the checker's FlatZinc
//! and the proof as the search goes; `pumpkin-checker MODEL PROOF` then judges it.
//!
//! Run: `cargo run --release --example pigeonhole_proof [DIR]` (the files go to DIR, by
//! default the system's temporary folder). The checker is found as $PUMPKIN_CHECKER, in
//! `target/tools/bin` (where `.ci/run` installs it) or on the PATH.

use csp::{Inference, Model, Relation, Solver, VarId};
use std::error::Error;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::Command;

const PIGEONS: usize = 7;
const HOLES: usize = 6;

/// The pigeonhole model over `pigeons` and `holes`.
fn pigeonhole(pigeons: usize, holes: usize) -> Result<Model, csp::ModelError> {
    let mut model = Model::new();
    let mut sits: Vec<Vec<VarId>> = Vec::new();
    for _ in 0..pigeons {
        sits.push(
            (0..holes)
                .map(|_| model.new_bool())
                .collect::<Result<_, _>>()?,
        );
    }
    for row in &sits {
        let terms: Vec<(i64, VarId)> = row.iter().map(|&x| (1, x)).collect();
        model.linear(&terms, Relation::Eq, 1)?;
    }
    for h in 0..holes {
        let terms: Vec<(i64, VarId)> = sits.iter().map(|row| (1, row[h])).collect();
        model.linear(&terms, Relation::Le, 1)?;
    }
    Ok(model)
}

/// What one proof run gave: the files written and what the proof holds.
struct Proved {
    model_file: PathBuf,
    proof_file: PathBuf,
    written: csp_proof::ProofSummary,
    solutions: u64,
}

/// Proves the pigeonhole model unsatisfiable, writing `pigeonhole.fzn` and
/// `pigeonhole.drcp` into `dir`.
fn prove(dir: &Path) -> Result<Proved, Box<dyn Error>> {
    let model = pigeonhole(PIGEONS, HOLES)?;
    let solver = Solver::new(&model).inference(Inference::Lcg);
    let model_file = dir.join("pigeonhole.fzn");
    let proof_file = dir.join("pigeonhole.drcp");
    std::fs::write(
        &model_file,
        csp_proof::checker_model(&model, solver.objective())?,
    )?;
    let mut proof = BufWriter::new(File::create(&proof_file)?);
    let (summary, written) =
        csp_proof::prove(&solver, &model, &mut proof, |_| ControlFlow::Continue(()))?;
    proof.flush()?;
    Ok(Proved {
        model_file,
        proof_file,
        written,
        solutions: summary.stats.solutions,
    })
}

/// Pumpkin's checker, where it is installed.
fn checker() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("PUMPKIN_CHECKER").map(PathBuf::from),
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("target/tools/bin/pumpkin-checker")),
        Some(PathBuf::from("pumpkin-checker")),
    ];
    candidates.into_iter().flatten().find(|path| {
        Command::new(path)
            .arg("--help")
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// The checker's verdict on the proof: `Ok(true)` when it accepts it, `Ok(false)` when no
/// checker is installed.
fn check(proved: &Proved) -> Result<bool, Box<dyn Error>> {
    let Some(checker) = checker() else {
        return Ok(false);
    };
    let out = Command::new(&checker)
        .arg(&proved.model_file)
        .arg(&proved.proof_file)
        .output()?;
    if !out.status.success() {
        return Err(format!(
            "pumpkin-checker rejected the proof: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    Ok(true)
}

fn main() -> Result<(), Box<dyn Error>> {
    let dir = std::env::args_os()
        .nth(1)
        .map_or_else(std::env::temp_dir, PathBuf::from);
    let proved = prove(&dir)?;
    println!(
        "{PIGEONS} pigeons, {HOLES} holes: {} solutions; proof of {} deductions in {}",
        proved.solutions,
        proved.written.deductions,
        proved.proof_file.display()
    );
    if check(&proved)? {
        println!("pumpkin-checker accepts it");
    } else {
        println!("pumpkin-checker is not installed (cargo install pumpkin-checker): not checked");
    }
    Ok(())
}

#[test]
fn the_proof_of_seven_pigeons_in_six_holes_is_accepted_by_pumpkins_checker() {
    let dir = std::env::temp_dir().join(format!("csp-pigeonhole-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let proved = prove(&dir).unwrap();
    assert_eq!(proved.solutions, 0);
    assert_eq!(proved.written.end, csp_proof::ProofEnd::Concluded);
    assert_eq!(proved.written.underived, 0);
    assert!(proved.written.deductions > 0);
    // The checker, a program written elsewhere, is the oracle; CI installs it.
    match check(&proved) {
        Ok(true) => {}
        Ok(false) => eprintln!("SKIPPED: pumpkin-checker is not installed"),
        Err(e) => panic!("{e}"),
    }
    // A proof of a satisfiable model (six pigeons) is refused as a proof: it is solved.
    let six = pigeonhole(HOLES, HOLES).unwrap();
    let solver = Solver::new(&six).inference(Inference::Lcg);
    let (_, written) =
        csp_proof::prove(&solver, &six, std::io::sink(), |_| ControlFlow::Break(())).unwrap();
    assert_eq!(written.end, csp_proof::ProofEnd::Solved);
    // And the search must learn.
    let mac = Solver::new(&six).inference(Inference::Mac);
    assert!(matches!(
        csp_proof::prove(&mac, &six, std::io::sink(), |_| ControlFlow::Continue(())),
        Err(csp_proof::ProofError::NeedsLearning(Inference::Mac))
    ));
    std::fs::remove_dir_all(&dir).ok();
}
