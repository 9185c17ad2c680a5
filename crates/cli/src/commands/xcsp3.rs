//! `csp xcsp3`: an XCSP3 instance solved, optimised or counted, answered in the competition's
//! lines (`s`, `o`, `v`, `d`, `c`).

use crate::args::Xcsp3Args;
use crate::cube_task::CubeTask;
use crate::exit_code::Status;
use crate::output::Output;
use crate::proof;
use crate::render::report::{self, RunInfo};
use crate::search_options::limits;
use crate::signals::{Received, Signals};
use csp::Outcome;
use csp_cubes::CubeModel;
use csp_policy::{Instance, PolicyError, Request, Wanted};
use std::ops::ControlFlow;
use std::time::Instant;
use xcsp3::{Kind, XcspModel};

/// A validated `csp xcsp3` run.
pub struct Xcsp3Job {
    file: std::path::PathBuf,
    /// What the run asks of the search, for the policy to plan once the instance is read.
    request: Request,
    /// Count every solution (`--count`, and `--all`, which prints each too).
    count: bool,
    /// Print every solution as found (`--all`).
    all: bool,
    /// Say on stderr how the instance is searched (`-v`).
    verbose: bool,
    limits: csp::Limits,
    started: Instant,
    /// Where the proof goes (`--proof`).
    proof: Option<std::path::PathBuf>,
    /// Statistics on stderr at the end (`--stats`, `--stats=json`).
    stats: Option<crate::args::StatsFormat>,
    /// One cube of a split searched, its result written as JSON (`--cube`).
    cube: Option<CubeTask>,
}

impl Xcsp3Job {
    pub fn from_args(
        args: &Xcsp3Args,
        signals: &Signals,
        started: Instant,
    ) -> Result<Self, String> {
        let count = args.count || args.all;
        let request = Request {
            search: args.search.options(),
            lns: match (args.lns, args.no_lns) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            },
            incumbent_phase: false,
            proof: args.proof.is_some(),
            free: false,
            declared_only: false,
            threads: args.parallel.map(|n| n.try_into().unwrap_or(usize::MAX)),
            wanted: if count { Wanted::Many } else { Wanted::One },
            lp: args.lp,
        };
        request.check()?;
        let cube = CubeTask::from_args(&args.cube)?;
        if cube.is_some() && (args.proof.is_some() || args.all) {
            return Err("--cube: a cube's search prints no solution and writes no proof; drop --all and --proof".into());
        }
        if count && args.search.restarts.is_some() {
            return Err(PolicyError::RestartsForMany {
                instead: "drop --restarts to count".into(),
            }
            .into());
        }
        Ok(Xcsp3Job {
            file: args.file.clone(),
            request,
            count,
            all: args.all,
            verbose: args.verbose,
            limits: limits(&args.search, &signals.cancel, Some(started))?,
            started,
            proof: args.proof.clone(),
            stats: args.search.stats,
            cube,
        })
    }

    pub fn run(&self, signals: &Signals, mut out: Output) -> Status {
        let instance = match self.read(signals, &mut out) {
            Ok(instance) => instance,
            Err(status) => return status,
        };
        if self.count && instance.kind == Kind::Cop {
            eprintln!("csp xcsp3: --count counts the solutions of a CSP; this instance is a COP");
            return Status::BadInput;
        }
        if self.request.lns == Some(true) && instance.objective.is_none() {
            eprintln!("csp xcsp3: note: --lns: a satisfaction problem has no incumbent to follow");
        }
        if let Some(task) = &self.cube {
            let model = CubeModel {
                model: &instance.model,
                objective: instance.objective,
                phases: Vec::new(),
                neighbourhood: instance.declared().to_vec(),
            };
            return task.run(
                "csp xcsp3",
                &model,
                &self.request,
                self.limits.clone(),
                self.request.search.seed.unwrap_or(1),
                signals,
                false,
                |values| instance.instantiation(values),
            );
        }
        let read_time = self.started.elapsed();
        let plan = match self.request.plan(&Instance::of_xcsp3(&instance)) {
            Ok(plan) => plan,
            Err(e) => {
                eprintln!("csp xcsp3: {e}");
                return Status::BadInput;
            }
        };
        let (model, lp) = plan.relaxed(&instance.model, instance.objective);
        if self.verbose {
            eprintln!("csp xcsp3: search: {}", plan.describe());
            eprintln!("csp xcsp3: {lp}");
        }
        let mut solver = plan
            .solver(&model, instance.declared())
            .limits(self.limits.clone());
        solver = match instance.objective {
            Some(objective) => solver.optimize(Some(objective)),
            None if self.count => solver.max_solutions(None),
            None => solver.max_solutions(Some(1)),
        };
        let mut run = Answers {
            instance: &instance,
            out: &mut out,
            count: self.count,
            all: self.all,
            counted: 0,
            last: None,
            wrong: 0,
        };
        let solved = match self.proof.as_deref() {
            None => Ok(plan.solve(solver, instance.declared(), |s| run.take(s.values()))),
            proof => proof::solve(
                "csp xcsp3",
                &solver,
                &self.file,
                &instance.model,
                proof,
                |s| run.take(s.values()),
            ),
        };
        let summary = match solved {
            Ok(summary) => summary,
            Err(message) => {
                eprintln!("csp xcsp3: {message}");
                return Status::BadInput;
            }
        };
        let Answers {
            counted,
            last,
            wrong,
            ..
        } = run;
        let exact = summary.outcome == Outcome::Exhausted;
        let mut text = String::new();
        if self.count {
            text.push_str(&format!("d FOUND SOLUTIONS {counted}\n"));
            if exact {
                text.push_str("d COMPLETE EXPLORATION\n");
            }
        }
        let found = last.is_some() || counted > 0;
        let status = match (found, instance.kind, exact) {
            (true, Kind::Cop, true) => "OPTIMUM FOUND",
            (true, _, _) => "SATISFIABLE",
            (false, _, true) if wrong == 0 => "UNSATISFIABLE",
            (false, _, _) => "UNKNOWN",
        };
        text.push_str(&format!("s {status}\n"));
        if let Some(values) = &last {
            text.push_str(&format!("v {}\n", instance.instantiation(values)));
        }
        text.push_str(&format!(
            "c read {:.3} s, search {:.3} s, {} nodes, {} failures, {} restarts, {} nogoods learned (atoms {:.1} each)\n",
            read_time.as_secs_f64(),
            summary.stats.elapsed.as_secs_f64(),
            summary.stats.nodes,
            summary.stats.backtracks,
            summary.stats.restarts,
            summary.stats.learned,
            summary.stats.learned_atoms as f64 / summary.stats.learned.max(1) as f64
        ));
        // In place of the solution held since it was found.
        out.hold(text.as_bytes());
        if wrong > 0 {
            eprintln!(
                "{}",
                crate::wording::withheld("csp xcsp3", wrong, "the instance's constraints")
            );
        }
        if let Some(status) = out.finish("csp xcsp3") {
            return status;
        }
        let info = RunInfo::bare(self.file.display().to_string(), "csp");
        let signal = signals.received().map(Received::name);
        if let Some(stats) = report::render(self.stats, &info, &summary, signal) {
            eprint!("{stats}");
        }
        let first_solution_found = instance.kind == Kind::Csp && !self.count && found;
        match signals.stopped(summary.outcome) {
            Some(Received::Interrupt) => Status::Interrupted,
            Some(Received::Terminate) => Status::Terminated,
            None if wrong > 0 => Status::WrongAnswer,
            // A limit that cut short an optimisation or a count; a first solution is whole.
            None if !exact && !first_solution_found => Status::Limit,
            None => Status::Success,
        }
    }

    /// Reads the instance; on failure, what the run printed and its status. A read stopped
    /// by a limit or a signal answers `s UNKNOWN`, as a search stopped at its start; an
    /// instance csp cannot take answers `s UNSUPPORTED`, the competition's word for it.
    fn read(&self, signals: &Signals, out: &mut Output) -> Result<XcspModel, Status> {
        // Ok(Err(limit)): the read itself was stopped.
        let read = crate::instances::read_instance(&self.file).and_then(|text| {
            match xcsp3::load_within(&text, &self.limits) {
                Ok(instance) => Ok(Ok(instance)),
                Err(e) => match e.stopped {
                    Some(limit) => Ok(Err(limit)),
                    None => Err(format!("{}: {e}", self.file.display())),
                },
            }
        });
        match read {
            Ok(Ok(instance)) => Ok(instance),
            Ok(Err(limit)) => {
                // Stopped while reading: nothing found, as a search stopped at its start.
                let (status, by) = match signals.stopped(Outcome::LimitReached(limit)) {
                    Some(Received::Interrupt) => (Status::Interrupted, "SIGINT".to_owned()),
                    Some(Received::Terminate) => (Status::Terminated, "SIGTERM".to_owned()),
                    None => (Status::Limit, limit.to_string()),
                };
                out.record(format!("c the read was stopped by {by}\ns UNKNOWN\n").as_bytes());
                Err(out.finish("csp xcsp3").unwrap_or(status))
            }
            Err(message) => {
                eprintln!("csp xcsp3: {message}");
                // The competition's answer for an instance a solver cannot take.
                out.record(b"s UNSUPPORTED\n");
                out.finish("csp xcsp3");
                Err(Status::BadInput)
            }
        }
    }
}

/// The solutions of one run: checked, counted, and the last kept.
struct Answers<'a> {
    instance: &'a XcspModel,
    out: &'a mut Output,
    count: bool,
    /// Print each counted solution as a `v` line.
    all: bool,
    /// The solutions counted. The reader's auxiliary variables are functions of the declared
    /// ones, so each solution of the model is one of the instance.
    counted: u64,
    last: Option<Vec<i32>>,
    wrong: u64,
}

impl Answers<'_> {
    fn take(&mut self, values: &[i32]) -> ControlFlow<()> {
        if self.instance.model.check_solution(values).is_err() {
            self.wrong += 1;
            return ControlFlow::Continue(());
        }
        if self.count {
            self.counted += 1;
            let line = format!("v {}\n", self.instance.instantiation(values));
            if self.all && !self.out.record(line.as_bytes()) {
                return ControlFlow::Break(());
            }
            return ControlFlow::Continue(());
        }
        if let Some(objective) = self.instance.objective {
            let var = objective.var;
            if !self
                .out
                .record(format!("o {}\n", values[var.index()]).as_bytes())
            {
                return ControlFlow::Break(());
            }
        }
        // What the answer would be if the run ended at once (a second signal): this solution.
        let answer = format!("s SATISFIABLE\nv {}\n", self.instance.instantiation(values));
        self.out.hold(answer.as_bytes());
        self.last = Some(values.to_vec());
        ControlFlow::Continue(())
    }
}
