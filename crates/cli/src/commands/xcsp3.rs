//! `csp xcsp3`: an XCSP3 instance solved, optimised or counted, answered in the competition's
//! lines (`s`, `o`, `v`, `d`, `c`).

use crate::args::Xcsp3Args;
use crate::defaults::Defaults;
use crate::exit_code::Status;
use crate::output::Output;
use crate::proof;
use crate::render::report::{self, RunInfo};
use crate::search_options::{limits, SearchSettings};
use crate::signals::{Received, Signals};
use csp::Outcome;
use std::ops::ControlFlow;
use std::time::Instant;
use xcsp3::{Kind, XcspModel};

/// A validated `csp xcsp3` run.
pub struct Xcsp3Job {
    file: std::path::PathBuf,
    /// Count every solution (`--count`, and `--all`, which prints each too).
    count: bool,
    /// Print every solution as found (`--all`).
    all: bool,
    settings: SearchSettings,
    /// Whether the user chose the variable order, and the value order; otherwise an
    /// optimisation gets its own defaults once the instance is read.
    var_order_given: bool,
    val_order_given: bool,
    /// Whether the user chose the inference; otherwise an optimisation gets its own.
    inference_given: bool,
    /// Large neighbourhood search under lcg in an optimisation (unless `--no-lns`).
    lns: bool,
    /// `--lns` was given.
    lns_asked: bool,
    limits: csp::Limits,
    started: Instant,
    /// Where the proof goes (`--proof`).
    proof: Option<std::path::PathBuf>,
    /// Statistics on stderr at the end (`--stats`, `--stats=json`).
    stats: Option<crate::args::StatsFormat>,
    /// Searches side by side (`-p`), if given.
    threads: Option<usize>,
    /// Whether a search option was given (then one search unless `-p` says otherwise).
    search_chosen: bool,
}

/// Searches side by side for a satisfaction instance when `-p` is not given and no search
/// option is: arc consistency with dom/wdeg beside learning, sharing the machine.
///
/// Why (issue 41's note: 30 s, competition mode, each run pinned to one core, so that the
/// two searches share it): on the wider set's 51 CSPs, 47 answered against 43 for arc
/// consistency alone and 46 for learning alone; on `../shared/xcsp3`'s 43, all 43 against
/// 41 and 42.
const SATISFACTION_THREADS: usize = 2;

/// Whether the user chose the search in any way, so that it runs as chosen, alone.
fn search_chosen(args: &Xcsp3Args) -> bool {
    let search = &args.search;
    search.inference.is_some()
        || search.var_order.is_some()
        || search.val_order.is_some()
        || search.restarts.is_some()
        || args.lns
        || args.no_lns
        || args.count
        || args.all
        || args.proof.is_some()
}

impl Xcsp3Job {
    pub fn from_args(
        args: &Xcsp3Args,
        signals: &Signals,
        started: Instant,
    ) -> Result<Self, String> {
        // Why each: see the table.
        let defaults = if args.count || args.all {
            Defaults::Xcsp3Count
        } else if args.lns || args.proof.is_some() {
            // Asking for what only learning does asks for learning.
            Defaults::FznFree
        } else {
            Defaults::Xcsp3Solve
        }
        .settings();
        let settings = SearchSettings::from_args(&args.search, defaults, false)?;
        settings.check_restarts(!args.count, "drop --restarts to count")?;
        if args.proof.is_some() {
            proof::check_inference(settings.inference)?;
        }
        if args.lns && settings.inference != csp::Inference::Lcg {
            return Err(format!(
                "--lns applies to --inference lcg, not {}",
                settings.inference
            ));
        }
        Ok(Xcsp3Job {
            file: args.file.clone(),
            count: args.count || args.all,
            all: args.all,
            settings,
            var_order_given: args.search.var_order.is_some(),
            val_order_given: args.search.val_order.is_some(),
            inference_given: args.search.inference.is_some() || args.lns || args.proof.is_some(),
            lns: !args.no_lns,
            lns_asked: args.lns,
            limits: limits(&args.search, &signals.cancel, Some(started))?,
            started,
            proof: args.proof.clone(),
            stats: args.search.stats,
            threads: args
                .parallel
                .map(|n| n.clamp(1, crate::commands::MOST_THREADS) as usize),
            search_chosen: search_chosen(args),
        })
    }

    pub fn run(&self, signals: &Signals, mut out: Output) -> Status {
        // Ok(Err(limit)): the read itself was stopped.
        let read = read_instance(&self.file).and_then(|text| {
            match xcsp3::load_within(&text, &self.limits) {
                Ok(instance) => Ok(Ok(instance)),
                Err(e) => match e.stopped {
                    Some(limit) => Ok(Err(limit)),
                    None => Err(format!("{}: {e}", self.file.display())),
                },
            }
        });
        let instance = match read {
            Ok(Ok(instance)) => instance,
            Ok(Err(limit)) => {
                // Stopped while reading: nothing found, as a search stopped at its start.
                let (status, by) = match signals.stopped(Outcome::LimitReached(limit)) {
                    Some(Received::Interrupt) => (Status::Interrupted, "SIGINT".to_owned()),
                    Some(Received::Terminate) => (Status::Terminated, "SIGTERM".to_owned()),
                    None => (Status::Limit, limit.to_string()),
                };
                out.record(format!("c the read was stopped by {by}\ns UNKNOWN\n").as_bytes());
                return out.finish("csp xcsp3").unwrap_or(status);
            }
            Err(message) => {
                eprintln!("csp xcsp3: {message}");
                // The competition's answer for an instance a solver cannot take.
                out.record(b"s UNSUPPORTED\n");
                out.finish("csp xcsp3");
                return Status::BadInput;
            }
        };
        if self.count && instance.kind == Kind::Cop {
            eprintln!("csp xcsp3: --count counts the solutions of a CSP; this instance is a COP");
            return Status::BadInput;
        }
        if self.lns_asked && instance.objective.is_none() {
            eprintln!("csp xcsp3: note: --lns: a satisfaction problem has no incumbent to follow");
        }
        let read_time = self.started.elapsed();
        let mut settings = self.settings;
        if let Some(objective) = instance.objective {
            // Known once the instance is read; the orders the user gave still win.
            let optimising = Defaults::Xcsp3Optimise(objective.sense).settings();
            if !self.inference_given {
                settings.inference = optimising.inference;
            }
            if !self.var_order_given {
                settings.var_order = optimising.var_order;
            }
            if !self.val_order_given {
                settings.value_order = optimising.value_order;
            }
        }
        let mut solver = settings.solver(&instance.model).limits(self.limits.clone());
        if self.lns && settings.inference == csp::Inference::Lcg && instance.objective.is_some() {
            solver = solver.lns(instance.declared().to_vec());
        }
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
        let default = if instance.kind == Kind::Csp && !self.search_chosen {
            SATISFACTION_THREADS
        } else {
            1
        };
        let threads = self.threads.unwrap_or(default);
        let default_optimisation = instance.objective.is_some() && !self.search_chosen;
        let solved = if default_optimisation && self.threads.is_none() {
            // Arc consistency twice beside learning: see csp::OPTIMISATION_SHARES.
            let portfolio = csp::Portfolio::optimising(solver);
            Ok(portfolio.solve(|s| run.take(s.values())))
        } else if threads > 1 {
            let portfolio = csp::Portfolio::varied(solver, threads, instance.declared());
            Ok(portfolio.solve(|s| run.take(s.values())))
        } else {
            proof::solve(
                "csp xcsp3",
                &solver,
                &self.file,
                &instance.model,
                self.proof.as_deref(),
                |s| run.take(s.values()),
            )
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

/// The text of the instance at `file`, unpacked when it is LZMA-compressed (`.lzma`).
pub(crate) fn read_instance(file: &std::path::Path) -> Result<String, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let compressed = file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("lzma"));
    if compressed {
        return xcsp3::decompress(&bytes).map_err(|e| format!("{}: {e}", file.display()));
    }
    String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", file.display()))
}
