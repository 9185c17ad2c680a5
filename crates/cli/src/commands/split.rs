//! `csp split`: a FlatZinc or XCSP3 model cut into cubes, one JSON line each, for other
//! processes or machines to search (`--cube` of `csp fzn` and `csp xcsp3`).

use crate::args::SplitArgs;
use crate::exit_code::Status;
use crate::search_options::limits_from;
use crate::signals::{Received, Signals};
use csp::{Model, Objective, VarId};
use csp_cubes::CubeRecord;
use std::io::Write;
use std::time::Instant;

/// A model as `csp split` read it.
struct Read {
    model: Model,
    objective: Option<Objective>,
    /// The declared search's variables, in its order: cut first.
    first: Vec<VarId>,
    /// Why the reader already knows there is no solution, if it does.
    contradiction: Option<String>,
}

/// Runs `csp split`.
pub fn run(args: &SplitArgs, signals: &Signals, started: Instant) -> Status {
    let limits = match limits_from(
        args.time_limit.as_deref(),
        None,
        None,
        &signals.cancel,
        Some(started),
    ) {
        Ok(limits) => limits,
        Err(message) => {
            eprintln!("csp split: {message}");
            return Status::BadInput;
        }
    };
    let read = match read(&args.file, &limits) {
        Ok(read) => read,
        Err(message) => {
            eprintln!("csp split: {message}");
            return Status::BadInput;
        }
    };
    if let Some(why) = &read.contradiction {
        eprintln!("csp split: no cube: the model has no solution ({why})");
        return Status::Success;
    }
    let avoid: Vec<_> = read.objective.map(|o| o.var).into_iter().collect();
    let target = usize::try_from(args.cubes).unwrap_or(usize::MAX);
    let split = match csp::cube::split(&read.model, target, &read.first, &avoid, &limits) {
        Ok(split) => split,
        Err(limit) => {
            eprintln!("csp split: stopped by {limit} before the split was done; nothing written");
            return match signals.stopped(csp::Outcome::LimitReached(limit)) {
                Some(Received::Interrupt) => Status::Interrupted,
                Some(Received::Terminate) => Status::Terminated,
                None => Status::Limit,
            };
        }
    };
    if split.cubes.is_empty() {
        eprintln!("csp split: no cube: propagation proved that the model has no solution");
    }
    let of = split.cubes.len();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (index, cube) in split.cubes.iter().enumerate() {
        let line = CubeRecord::new(&read.model, cube, index, of).to_line();
        if let Err(e) = writeln!(out, "{line}") {
            return closed_or_failed(&e);
        }
    }
    if let Err(e) = out.flush() {
        return closed_or_failed(&e);
    }
    Status::Success
}

/// A closed pipe (`csp split ... | head`) ends the run quietly; another write error is named.
fn closed_or_failed(e: &std::io::Error) -> Status {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return Status::Success;
    }
    eprintln!("csp split: cannot write the cubes: {e}");
    Status::BadInput
}

/// Reads `file` as FlatZinc (`.fzn`) or XCSP3 (anything else: `.xml`, `.xml.lzma`).
fn read(file: &std::path::Path, limits: &csp::Limits) -> Result<Read, String> {
    let name = file.display();
    if file.extension().is_some_and(|e| e == "fzn") {
        let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {name}: {e}"))?;
        let fzn = flatzinc::load(&text).map_err(|e| format!("{name}: {e}"))?;
        return Ok(Read {
            objective: fzn.objective,
            first: fzn
                .phases
                .iter()
                .flat_map(|p| p.vars.iter().copied())
                .collect(),
            contradiction: fzn.contradiction.clone(),
            model: fzn.model,
        });
    }
    let text = crate::instances::read_instance(file)?;
    let instance = xcsp3::load_within(&text, limits).map_err(|e| format!("{name}: {e}"))?;
    Ok(Read {
        objective: instance.objective,
        first: Vec::new(),
        contradiction: None,
        model: instance.model,
    })
}
