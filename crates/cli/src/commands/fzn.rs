//! `csp fzn`: a FlatZinc model solved and printed as the FlatZinc protocol says, so that
//! `minizinc --solver csp` can run any MiniZinc model on the engine.

use crate::args::FznArgs;
use crate::cube_task::CubeTask;
use crate::exit_code::Status;
use crate::output::Output;
use crate::proof;
use crate::render::report::{self, RunInfo};
use crate::search_options::limits;
use crate::signals::{Received, Signals};
use csp::{Outcome, Statistics};
use csp_cubes::CubeModel;
use csp_policy::{Instance, Request, Wanted};
use flatzinc::FznModel;
use std::io::Read;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

pub struct FznJob {
    /// What the run asks of the search, for the policy to plan once the model is read.
    request: Request,
    file: std::path::PathBuf,
    all: bool,
    num_solutions: Option<u64>,
    intermediate: bool,
    statistics: bool,
    verbose: bool,
    parallel: Option<u64>,
    seed: u64,
    limits: csp::Limits,
    started: Instant,
    /// Where the proof goes (`--proof`).
    proof: Option<std::path::PathBuf>,
    /// Statistics on stderr at the end (`--stats`, `--stats=json`).
    stats: Option<crate::args::StatsFormat>,
    /// One cube of a split searched, its result written as JSON (`--cube`).
    cube: Option<CubeTask>,
}

impl FznJob {
    pub fn from_args(args: &FznArgs, signals: &Signals, started: Instant) -> Result<Self, String> {
        let many = args.all || args.num_solutions.is_some_and(|n| n > 1);
        let request = Request {
            search: args.search.options(),
            lns: match (args.lns, args.no_lns) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            },
            incumbent_phase: args.incumbent_phase,
            proof: args.proof.is_some(),
            free: args.free,
            declared_only: args.declared_only,
            // MiniZinc's protocol: -p N searches side by side, one without it (the
            // challenge's sequential class runs every solver so).
            threads: Some(args.parallel.unwrap_or(1).try_into().unwrap_or(usize::MAX)),
            wanted: if many { Wanted::Many } else { Wanted::One },
            lp: args.lp,
        };
        request.check()?;
        let cube = CubeTask::from_args(&args.cube)?;
        if cube.is_some() && args.proof.is_some() {
            return Err("--cube: a cube's search writes no proof; drop --proof".into());
        }
        let mut limits = limits(&args.search, &signals.cancel, Some(started))?;
        if let Some(ms) = args.time_limit_ms {
            limits = limits.with_time_at_most(Duration::from_millis(ms));
        }
        Ok(FznJob {
            request,
            file: args.file.clone(),
            all: args.all,
            num_solutions: args.num_solutions,
            intermediate: args.intermediate,
            statistics: args.statistics,
            verbose: args.verbose,
            parallel: args.parallel,
            seed: args.random_seed.or(args.search.seed).unwrap_or(1),
            limits,
            started,
            proof: args.proof.clone(),
            stats: args.search.stats,
            cube,
        })
    }

    fn read(&self) -> Result<String, String> {
        let mut text = String::new();
        let result = if self.file.as_os_str() == "-" {
            std::io::stdin().read_to_string(&mut text).map(drop)
        } else {
            std::fs::File::open(&self.file).and_then(|mut f| f.read_to_string(&mut text).map(drop))
        };
        result.map_err(|e| format!("cannot read {}: {e}", self.file.display()))?;
        Ok(text)
    }

    /// Reads and loads the FlatZinc; on failure, the one line to print after `csp fzn: `.
    fn load(&self) -> Result<FznModel, String> {
        let text = self.read()?;
        match flatzinc::load(&text) {
            Ok(fzn) => Ok(fzn),
            // The model's own place when MiniZinc left it (the FlatZinc file is MiniZinc's
            // temporary one, gone once the run ends); the FlatZinc's line otherwise.
            Err(e) if e.source.is_some() => Err(e.to_string()),
            // MiniZinc's temporary FlatZinc (`minizinc --solver csp`), which is deleted once
            // the run ends: its line is of no use; the message names the variable or
            // constraint, and says how to get the model's line.
            Err(e) if from_minizinc(&self.file) => Err(format!(
                "{} (in the FlatZinc MiniZinc compiled from the model; minizinc --keep-paths \
                 shows the model's line)",
                e.message
            )),
            Err(e) => Err(format!("{}: {e}", self.file.display())),
        }
    }

    pub fn run(&self, signals: &Signals, mut out: Output) -> Status {
        let fzn = match self.load() {
            Ok(fzn) => fzn,
            Err(message) => {
                eprintln!("csp fzn: {message}");
                return Status::BadInput;
            }
        };
        if self.statistics || self.verbose {
            for note in &fzn.notes {
                eprintln!("csp fzn: note: {note}");
            }
            if let Some(p) = self.parallel.filter(|&p| p > 1) {
                if self.proof.is_some() {
                    eprintln!(
                        "csp fzn: note: -p {p}: a proof is logged by one search, on one thread"
                    );
                } else if fzn.objective.is_none()
                    && (self.all || self.num_solutions.is_some_and(|n| n > 1))
                {
                    eprintln!(
                        "csp fzn: note: -p {p}: many solutions are searched for on one thread"
                    );
                }
            }
        }
        if let Some(task) = &self.cube {
            let model = CubeModel {
                model: &fzn.model,
                objective: fzn.objective,
                phases: fzn.phases.clone(),
                neighbourhood: fzn.neighbourhood_vars(),
            };
            let contradicted = fzn.contradiction.is_some();
            return task.run(
                "csp fzn",
                &model,
                &self.request,
                self.limits.clone(),
                self.seed,
                signals,
                contradicted,
                |values| {
                    let mut text = String::new();
                    fzn.format_solution(values, &mut text);
                    text
                },
            );
        }
        let init_time = self.started.elapsed();
        if let Some(why) = &fzn.contradiction {
            if self.verbose {
                eprintln!("csp fzn: {why}");
            }
            if self.proof.is_some() {
                eprintln!("csp fzn: --proof: no proof: the model was found contradictory before any search");
            }
            out.record(b"=====UNSATISFIABLE=====\n");
            return out.finish("csp fzn").unwrap_or(Status::Success);
        }
        for (asked, flag) in [
            (self.request.incumbent_phase, "--incumbent-phase"),
            (self.request.lns == Some(true), "--lns"),
        ] {
            if asked && fzn.objective.is_none() {
                eprintln!(
                    "csp fzn: note: {flag}: a satisfaction problem has no incumbent to follow"
                );
            }
        }
        let plan = match self.request.plan(&Instance::of_flatzinc(&fzn)) {
            Ok(plan) => plan,
            Err(e) => {
                eprintln!("csp fzn: {e}");
                return Status::BadInput;
            }
        };
        let (model, lp) = plan.relaxed(&fzn.model, fzn.objective);
        if self.verbose {
            eprintln!("csp fzn: search: {}", plan.describe());
            eprintln!("csp fzn: {lp}");
        }
        let neighbourhood = fzn.neighbourhood_vars();
        let mut solver = plan
            .solver(&model, &neighbourhood)
            .limits(self.limits.clone());
        solver = plan.declared(solver, fzn.phases.clone(), self.seed);
        let optimising = fzn.objective.is_some();
        solver = match fzn.objective {
            None if self.all => solver.max_solutions(None),
            None => solver.max_solutions(Some(self.num_solutions.unwrap_or(1))),
            Some(_) => solver.optimize(fzn.objective),
        };
        let stream = !optimising || self.all || self.intermediate;
        let mut run = Printing {
            fzn: &fzn,
            out: &mut out,
            stream,
            record: String::new(),
            objective: None,
            printed: 0,
            wrong: 0,
            found_at: self.verbose.then_some(self.started),
        };
        let solved = match self.proof.as_deref() {
            None => Ok(plan.solve(solver, &neighbourhood, |s| run.take(s.values()))),
            proof => proof::solve("csp fzn", &solver, &self.file, &model, proof, |s| {
                run.take(s.values())
            }),
        };
        let summary = match solved {
            Ok(summary) => summary,
            Err(message) => {
                eprintln!("csp fzn: {message}");
                return Status::BadInput;
            }
        };
        let Printing {
            objective,
            printed,
            wrong,
            ..
        } = run;
        out.release();
        let found = printed > 0;
        let status_line = match summary.outcome {
            Outcome::Exhausted if found => Some("=========="),
            Outcome::Exhausted if wrong == 0 => Some("=====UNSATISFIABLE====="),
            Outcome::LimitReached(_) if !found => Some("=====UNKNOWN====="),
            _ => None,
        };
        if let Some(line) = status_line {
            out.record(format!("{line}\n").as_bytes());
        }
        if self.statistics {
            out.record(stat_lines(&fzn, &summary.stats, init_time, objective).as_bytes());
        }
        if wrong > 0 {
            eprintln!(
                "{}",
                crate::wording::withheld("csp fzn", wrong, "the model's constraints")
            );
        }
        if let Some(status) = out.finish("csp fzn") {
            return status;
        }
        let info = RunInfo::bare(self.file.display().to_string(), "csp");
        let signal = signals.received().map(Received::name);
        if let Some(stats) = report::render(self.stats, &info, &summary, signal) {
            eprint!("{stats}");
        }
        match signals.stopped(summary.outcome) {
            Some(Received::Interrupt) => Status::Interrupted,
            Some(Received::Terminate) => Status::Terminated,
            None if wrong > 0 => Status::WrongAnswer,
            None => Status::Success,
        }
    }
}

/// The solutions of one run on their way to stdout.
struct Printing<'a> {
    fzn: &'a FznModel,
    out: &'a mut Output,
    /// Print each solution as found; otherwise hold the last (the best) for the end.
    stream: bool,
    record: String,
    /// The objective's value in the last solution printed or kept.
    objective: Option<i32>,
    /// Solutions that passed the check.
    printed: u64,
    /// Solutions that failed it.
    wrong: u64,
    /// With -v, each solution is noted on stderr as found, with its time from this instant:
    /// a reader can tell how long the solution took to reach it.
    found_at: Option<Instant>,
}

impl Printing<'_> {
    /// Checks one solution against every constraint, then prints it or keeps it.
    fn take(&mut self, values: &[i32]) -> ControlFlow<()> {
        if self.fzn.model.check_solution(values).is_err() {
            self.wrong += 1;
            return ControlFlow::Continue(());
        }
        self.printed += 1;
        self.objective = self.fzn.objective_var().map(|var| values[var.index()]);
        self.record.clear();
        self.fzn.format_solution(values, &mut self.record);
        self.record.push_str("----------\n");
        if let Some(started) = self.found_at {
            let objective = self
                .objective
                .map(|v| format!(", objective {v}"))
                .unwrap_or_default();
            eprintln!(
                "csp fzn: solution {} found at {:.6} s{objective}",
                self.printed,
                started.elapsed().as_secs_f64()
            );
        }
        if !self.stream {
            self.out.hold(self.record.as_bytes());
            return ControlFlow::Continue(());
        }
        if !self.out.record(self.record.as_bytes()) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// The `%%%mzn-stat` block of a finished run.
fn stat_lines(
    fzn: &FznModel,
    stats: &Statistics,
    init_time: Duration,
    objective: Option<i32>,
) -> String {
    let mut lines = vec![
        ("nodes", stats.nodes.to_string()),
        ("failures", stats.backtracks.to_string()),
        ("propagations", stats.propagations.to_string()),
        ("peakDepth", stats.max_depth.to_string()),
        ("restarts", stats.restarts.to_string()),
        ("solutions", stats.solutions.to_string()),
        ("variables", fzn.model.var_count().to_string()),
        ("propagators", fzn.model.constraint_count().to_string()),
        ("initTime", format!("{:.6}", init_time.as_secs_f64())),
        ("solveTime", format!("{:.6}", stats.elapsed.as_secs_f64())),
    ];
    if let Some(value) = objective {
        lines.insert(0, ("objective", value.to_string()));
    }
    let mut text = String::new();
    for (name, value) in lines {
        text.push_str(&format!("%%%mzn-stat: {name}={value}\n"));
    }
    text.push_str("%%%mzn-stat-end\n");
    text
}

/// Whether `file` is the temporary FlatZinc MiniZinc hands a solver: `mznfile*.fzn` in the
/// temporary directory, as every MiniZinc from 2.1 names it.
fn from_minizinc(file: &std::path::Path) -> bool {
    let named = file
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("mznfile") && n.ends_with(".fzn"));
    named && file.starts_with(std::env::temp_dir())
}
