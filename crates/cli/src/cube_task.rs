//! `--cube FILE[:I]` of `csp fzn` and `csp xcsp3`: one cube of a split searched in place of the
//! whole model, and its result written as one JSON object.

use crate::args::CubeArgs;
use crate::exit_code::Status;
use crate::signals::{Received, Signals};
use csp::SharedBound;
use csp_cubes::{run_cube, CubeModel, CubeRecord, CubeResult};
use csp_policy::Request;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The environment variables an array job hands each task its index in: Slurm's job arrays,
/// then Kubernetes' Indexed Jobs.
const INDEX_VARIABLES: [&str; 2] = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"];

/// One cube to search, and where its result goes.
pub struct CubeTask {
    file: PathBuf,
    index: usize,
    bound: Option<i64>,
    result: Option<PathBuf>,
}

impl CubeTask {
    /// The task `--cube` asks for, if any: the index after the file's last `:`, else from
    /// the array job's environment.
    pub fn from_args(args: &CubeArgs) -> Result<Option<Self>, String> {
        let Some(spec) = &args.cube else {
            return Ok(None);
        };
        let split = spec
            .rsplit_once(':')
            .filter(|(_, i)| !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit()));
        let (file, index) = match split {
            Some((file, index)) => (
                file,
                index.parse().map_err(|e| format!("--cube {spec}: {e}"))?,
            ),
            None => (spec.as_str(), index_from_environment()?),
        };
        Ok(Some(CubeTask {
            file: PathBuf::from(file),
            index,
            bound: args.bound,
            result: args.result.clone(),
        }))
    }

    /// Searches the cube of `model` as `request` asks, within `limits`, and writes its result;
    /// `describe` words a solution as the front end prints it. `contradicted`: the reader
    /// already proved the model has no solution (so has no cube).
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        command: &str,
        model: &CubeModel<'_>,
        request: &Request,
        limits: csp::Limits,
        seed: u64,
        signals: &Signals,
        contradicted: bool,
        describe: impl Fn(&[i32]) -> String,
    ) -> Status {
        let text = match std::fs::read_to_string(&self.file) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("{command}: cannot read {}: {e}", self.file.display());
                return Status::BadInput;
            }
        };
        let record = CubeRecord::find(&text, self.index).and_then(|r| {
            let cube = r.cube_for(model.model)?;
            Ok((r, cube))
        });
        let (record, cube) = match record {
            Ok(found) => found,
            Err(e) => {
                eprintln!("{command}: {}: {e}", self.file.display());
                return Status::BadInput;
            }
        };
        if self.bound.is_some() && model.objective.is_none() {
            eprintln!("{command}: --bound: the model has no objective");
            return Status::BadInput;
        }
        let shared = model.objective.zip(self.bound).map(|(objective, bound)| {
            let shared = Arc::new(SharedBound::new());
            shared.tighten(objective.sense, bound);
            shared
        });
        let task = model.task(request);
        let mut status = Status::Success;
        let run = if contradicted {
            None
        } else {
            match run_cube(model, &cube, request, limits, seed, shared, |_| {}) {
                Ok(run) => Some(run),
                Err(e) => {
                    eprintln!("{command}: {e}");
                    return Status::BadInput;
                }
            }
        };
        let result = CubeResult::of_run(&record, model, task, self.bound, run.as_ref(), describe);
        if let Some(run) = &run {
            if run.wrong > 0 {
                eprintln!(
                    "{}",
                    crate::wording::withheld(command, run.wrong, "the model's constraints")
                );
                status = Status::WrongAnswer;
            }
            status = status.max(match signals.stopped(run.summary.outcome) {
                Some(Received::Interrupt) => Status::Interrupted,
                Some(Received::Terminate) => Status::Terminated,
                None if !result.complete => Status::Limit,
                None => Status::Success,
            });
        }
        let line = result.to_line() + "\n";
        let written = match &self.result {
            Some(path) => write_whole(path, &line),
            None => {
                use std::io::Write;
                let mut out = std::io::stdout().lock();
                out.write_all(line.as_bytes()).and_then(|()| out.flush())
            }
        };
        if let Err(e) = written {
            let place = self
                .result
                .as_deref()
                .map_or("stdout".into(), |p| p.display().to_string());
            eprintln!("{command}: cannot write the result to {place}: {e}");
            return status.max(Status::BadInput);
        }
        status
    }
}

/// The array task's index from the first of [`INDEX_VARIABLES`] that is set.
fn index_from_environment() -> Result<usize, String> {
    for name in INDEX_VARIABLES {
        if let Ok(value) = std::env::var(name) {
            return value
                .trim()
                .parse()
                .map_err(|_| format!("--cube: {name}={value:?} is not a cube index"));
        }
    }
    Err(format!(
        "--cube FILE: no index (FILE:I), and neither {} is set",
        INDEX_VARIABLES.join(" nor ")
    ))
}

/// Writes `text` to `path` whole or not at all: to a file beside it, then renamed over it, so
/// that a task killed while writing leaves no result for `csp merge` to take.
fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(format!(".partial-{}", std::process::id()));
    let partial = PathBuf::from(partial);
    std::fs::write(&partial, text)?;
    std::fs::rename(&partial, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&partial);
    })
}
