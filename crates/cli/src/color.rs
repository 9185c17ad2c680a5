//! `csp color`: DIMACS graph colouring with K colours, or the chromatic number by branch and
//! bound below a DSATUR colouring, with a clique as the lower bound.

use crate::args::{ColorArgs, StatsFormat};
use crate::exit_code::Status;
use crate::output::Output;
use crate::report::{self, RunInfo};
use crate::search_options::{limits, SearchSettings};
use crate::signals::{Received, Signals};
use coloring::{bounds, ColoringModel, DimacsGraph, DimacsReader, Graph};
use csp::{Inference, Limit, Limits, Outcome, Summary, ValueOrder, VarOrder};
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::ops::ControlFlow;

/// Forward checking with dom/wdeg was the fastest on the DIMACS test graphs (README).
const DEFAULTS: SearchSettings = SearchSettings {
    inference: Inference::ForwardChecking,
    var_order: VarOrder::DomWdeg,
    value_order: ValueOrder::Ascending,
    restarts: None,
};

/// A validated `color` run.
pub struct ColorJob {
    file: std::path::PathBuf,
    colors: Option<u32>,
    search: SearchSettings,
    limits: Limits,
    stats: Option<StatsFormat>,
}

impl ColorJob {
    pub fn from_args(args: &ColorArgs, signals: &Signals) -> Result<Self, String> {
        if args.colors == Some(0) {
            return Err("--colors must be at least 1".into());
        }
        let search = SearchSettings::from_args(&args.search, DEFAULTS)?;
        search.check_restarts(
            args.colors.is_some(),
            "add --colors K (finding the fewest colours goes through many solutions)",
        )?;
        Ok(ColorJob {
            file: args.file.clone(),
            colors: args.colors,
            search,
            limits: limits(&args.search, &signals.cancel)?,
            stats: args.search.stats,
        })
    }

    fn read(&self) -> Result<DimacsGraph, String> {
        let name = self.file.display().to_string();
        let input: Box<dyn BufRead> = if name == "-" {
            Box::new(BufReader::new(io::stdin()))
        } else {
            let file = File::open(&self.file).map_err(|e| format!("cannot read {name}: {e}"))?;
            Box::new(BufReader::new(file))
        };
        let mut reader = DimacsReader::new();
        let mut last = 0;
        for (i, line) in input.lines().enumerate() {
            let line = line.map_err(|e| format!("{name}: line {}: {e}", i + 1))?;
            reader
                .feed(i + 1, &line)
                .map_err(|e| format!("{name}: {e}"))?;
            last = i + 1;
        }
        reader.finish(last).map_err(|e| format!("{name}: {e}"))
    }

    pub fn run(&self, signals: &Signals, mut out: Output) -> Status {
        let read = match self.read() {
            Ok(read) => read,
            Err(message) => {
                eprintln!("csp color: {message}");
                return Status::BadInput;
            }
        };
        if read.repeated_edges > 0 {
            eprintln!(
                "csp color: note: {} repeated edges counted once",
                read.repeated_edges
            );
        }
        if read.self_loops > 0 {
            eprintln!("csp color: note: {} self-loops ignored", read.self_loops);
        }
        let graph = &read.graph;
        let clique = bounds::greedy_clique(graph);
        let (status, summary, colors) = match self.colors {
            Some(k) => self.with_k(graph, k, &clique, signals),
            None => self.minimum(graph, &clique, signals),
        };
        if let Some(colors) = &colors {
            let mut text = String::with_capacity(colors.len() * 8);
            for (v, c) in colors.iter().enumerate() {
                text.push_str(&format!("{} {}\n", v + 1, c + 1));
            }
            out.record(text.as_bytes());
            out.flush();
            if let Some(e) = out.error.take() {
                eprintln!("csp color: cannot write the output: {e}");
                return Status::BadInput;
            }
        }
        if let (Some(format), Some(summary)) = (self.stats, &summary) {
            let info = RunInfo {
                problem: format!("colouring {}", self.file.display()),
                engine: "csp",
                encoding: None,
                inference: Some(self.search.inference.to_string()),
                var_order: Some(self.search.var_order.to_string()),
                val_order: Some(self.search.value_order.to_string()),
            };
            let signal = signals.received().map(Received::name);
            match format {
                StatsFormat::Json => eprintln!("{}", report::json(&info, summary, signal)),
                StatsFormat::Text => eprint!("{}", report::text(&info, summary, signal)),
            }
        }
        status
    }

    /// A colouring with at most `k` colours, or the proof that there is none.
    fn with_k(
        &self,
        graph: &Graph,
        k: u32,
        clique: &[usize],
        signals: &Signals,
    ) -> (Status, Option<Summary>, Option<Vec<u32>>) {
        if clique.len() > k as usize {
            let members: Vec<String> = clique.iter().map(|v| (v + 1).to_string()).collect();
            eprintln!(
                "csp color: no {k}-colouring: vertices {} form a clique of {}",
                members.join(" "),
                clique.len()
            );
            return (Status::NoSolution, None, None);
        }
        let model = match ColoringModel::new(graph, k, clique) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("csp color: cannot build the model: {e}");
                return (Status::BadInput, None, None);
            }
        };
        let mut found = None;
        let summary = self
            .search
            .solver(&model.model)
            .max_solutions(Some(1))
            .limits(self.limits.clone())
            .solve(|s| {
                found = Some(model.colors(s));
                ControlFlow::Break(())
            });
        if let Some(colors) = found {
            debug_assert!(graph.is_proper(&colors));
            return (Status::Success, Some(summary), Some(colors));
        }
        let status = match stopped(&summary, signals) {
            Some(status) => {
                eprintln!(
                    "csp color: stopped before finding a {k}-colouring or proving there is none"
                );
                status
            }
            None => {
                eprintln!("csp color: no {k}-colouring exists (the search is complete)");
                Status::NoSolution
            }
        };
        (status, Some(summary), None)
    }

    /// The chromatic number: branch and bound below DSATUR's colouring.
    fn minimum(
        &self,
        graph: &Graph,
        clique: &[usize],
        signals: &Signals,
    ) -> (Status, Option<Summary>, Option<Vec<u32>>) {
        let mut best = bounds::dsatur(graph);
        let mut best_k = bounds::colors_used(&best);
        let lower = clique.len().max(usize::from(graph.vertex_count() > 0)) as u32;
        eprintln!("csp color: DSATUR uses {best_k} colours; a clique needs {lower}");
        if best_k <= lower {
            eprintln!("colors {best_k} optimal");
            return (Status::Success, None, Some(best));
        }
        let model = match ColoringModel::minimizing(graph, best_k - 1, clique) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("csp color: cannot build the model: {e}");
                return (Status::BadInput, None, Some(best));
            }
        };
        let Some(used) = model.colors_used else {
            return (Status::BadInput, None, Some(best));
        };
        let summary = self
            .search
            .solver(&model.model)
            .minimize(used)
            .limits(self.limits.clone())
            .solve(|s| {
                best = model.colors(s);
                best_k = s.value(used) as u32;
                eprintln!("csp color: found a colouring with {best_k} colours");
                ControlFlow::Continue(())
            });
        let status = match stopped(&summary, signals) {
            Some(status) => {
                eprintln!("colors {best_k} best found, not proven");
                status
            }
            None => {
                eprintln!("colors {best_k} optimal");
                Status::Success
            }
        };
        (status, Some(summary), Some(best))
    }
}

/// The status of a search a limit or a signal stopped, or `None` if it ran to its end.
fn stopped(summary: &Summary, signals: &Signals) -> Option<Status> {
    match summary.outcome {
        Outcome::LimitReached(Limit::Cancelled) => Some(match signals.received() {
            Some(Received::Terminate) => Status::Terminated,
            _ => Status::Interrupted,
        }),
        Outcome::LimitReached(_) => Some(Status::Limit),
        _ => None,
    }
}
