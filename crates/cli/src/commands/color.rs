//! `csp color`: DIMACS graph colouring with K colours, or the chromatic number (`--min`),
//! through the `coloring` crate's drivers; this file reads, reports and prints.

use crate::args::{ColorArgs, StatsFormat};
use crate::exit_code::Status;
use crate::instances::{self, Early};
use crate::output::Output;
use crate::proof;
use crate::render::report::{self, RunInfo};
use crate::search_options::limits;
use crate::signals::{Received, Signals};
use crate::wording::{a_colouring, count};
use coloring::{
    ChromaticError, ChromaticSettings, ColoringModel, ColouringSearch, DimacsGraph, Graph,
    KColouring, Step,
};
use csp::{Inference, Limit, Limits, Outcome, Poller, Statistics, Summary};
use csp_policy::Defaults;
use csp_policy::SearchSettings;
use std::ops::ControlFlow;
use std::time::Instant;

/// A validated `color` run.
pub struct ColorJob {
    file: std::path::PathBuf,
    colors: Option<u32>,
    search: SearchSettings,
    /// The drivers' settings: TabuCol's seed (`--seed`), the limits, redundant cliques
    /// under mac and lcg, searches where a clique settles it under `--proof`.
    chromatic: ChromaticSettings,
    stats: Option<StatsFormat>,
    /// When the run started: the time limit counts from here, reading the graph included.
    started: Instant,
    /// Where the proof of the search's unsatisfiability goes (`--proof`).
    proof: Option<std::path::PathBuf>,
}

/// How a run ended: its status, the search's figures if it searched, and the colouring to
/// print if it has one.
type Done = (Status, Option<Summary>, Option<Vec<u32>>);

impl ColorJob {
    pub fn from_args(
        args: &ColorArgs,
        signals: &Signals,
        started: Instant,
    ) -> Result<Self, String> {
        if args.colors == Some(0) {
            return Err("--colors must be at least 1".into());
        }
        // Under --min, --seed also seeds TabuCol.
        let search = SearchSettings::from_options(
            &args.search.options(),
            Defaults::Color.settings(),
            args.colors.is_none(),
        )?;
        search.check_restarts(
            args.colors.is_some(),
            "add --colors K (finding the fewest colours goes through many solutions)",
        )?;
        if args.proof.is_some() {
            proof::check_inference(search.inference)?;
        }
        let chromatic = ChromaticSettings {
            seed: args.search.seed.unwrap_or(1),
            // Cliques' all-different prunes more than their edges' != only under arc
            // consistency (mac, or lcg, where their Hall sets also make short reasons).
            redundant_cliques: matches!(search.inference, Inference::Mac | Inference::Lcg),
            prove_clique_bounds: args.proof.is_some(),
            limits: limits(&args.search, &signals.cancel, Some(started))?,
        };
        Ok(ColorJob {
            proof: args.proof.clone(),
            file: args.file.clone(),
            colors: args.colors,
            search,
            chromatic,
            stats: args.search.stats,
            started,
        })
    }

    pub fn run(&self, signals: &Signals, mut out: Output) -> Status {
        for note in self.search.notes() {
            eprintln!("csp color: {note}");
        }
        let mut poller = Poller::new(&self.chromatic.limits);
        let result = instances::read_graph(&self.file, &mut poller)
            .and_then(|read| self.solve(&read, &mut poller, signals));
        let (status, summary, colors) = match result {
            Ok(done) => done,
            Err(Early::Failed(message, status)) => {
                eprintln!("csp color: {message}");
                return status;
            }
            Err(Early::Stopped(limit, doing)) => {
                let summary = Summary {
                    outcome: Outcome::LimitReached(limit),
                    stats: Statistics::default(),
                };
                let by = report::stopper(summary.outcome, signals.received().map(Received::name));
                eprintln!(
                    "csp color: stopped by {} while {doing}",
                    by.unwrap_or("a limit")
                );
                (
                    stopped(&summary, signals).unwrap_or(Status::Limit),
                    Some(summary),
                    None,
                )
            }
        };
        if let Some(colors) = &colors {
            let mut text = String::with_capacity(colors.len() * 8);
            for (v, c) in colors.iter().enumerate() {
                text.push_str(&format!("{} {}\n", v + 1, c + 1));
            }
            out.record(text.as_bytes());
            if let Some(status) = out.finish("csp color") {
                return status;
            }
        }
        if let Some(mut summary) = summary {
            // The run's wall-clock time, reading and bounds included, as the limit counts it.
            summary.stats.elapsed = self.started.elapsed();
            let partial = matches!(summary.outcome, Outcome::LimitReached(_));
            let format = match (self.stats, partial) {
                (Some(format), _) => Some(format),
                (None, true) => Some(StatsFormat::Text),
                (None, false) => None,
            };
            let info = RunInfo {
                problem: format!("colouring {}", self.file.display()),
                engine: "csp",
                encoding: None,
                inference: Some(self.search.inference.to_string()),
                var_order: Some(self.search.var_order.to_string()),
                val_order: Some(self.search.value_order.to_string()),
                walk: None,
                restart_scale: self.search.restarts,
            };
            let signal = signals.received().map(Received::name);
            match format {
                Some(StatsFormat::Json) => eprintln!("{}", report::json(&info, &summary, signal)),
                Some(StatsFormat::Text) => eprint!("{}", report::text(&info, &summary, signal)),
                None => {}
            }
        }
        status
    }

    /// Bounds, model and search for the graph read.
    fn solve(
        &self,
        read: &DimacsGraph,
        poller: &mut Poller,
        signals: &Signals,
    ) -> Result<Done, Early> {
        if read.repeated_edges > 0 {
            eprintln!(
                "csp color: note: {} counted once",
                count(
                    read.repeated_edges as u64,
                    "repeated edge",
                    "repeated edges"
                )
            );
        }
        if read.self_loops > 0 {
            eprintln!(
                "csp color: note: {} ignored",
                count(read.self_loops as u64, "self-loop", "self-loops")
            );
        }
        if read.edge_lines != read.declared_edges {
            eprintln!(
                "csp color: warning: the 'p' line declares {}, but the file lists {}",
                count(read.declared_edges as u64, "edge", "edges"),
                read.edge_lines
            );
        }
        if read.value_lines > 0 {
            eprintln!(
                "csp color: note: {} ('n' lines) ignored: colouring does not use them",
                count(read.value_lines as u64, "vertex value", "vertex values")
            );
        }
        let graph = &read.graph;
        match self.colors {
            Some(k) => self.with_k(graph, k, poller, signals),
            None => self.minimum(graph, poller, signals),
        }
    }

    /// The chromatic number, or the best colouring found when a limit comes first.
    fn minimum(
        &self,
        graph: &Graph,
        poller: &mut Poller,
        signals: &Signals,
    ) -> Result<Done, Early> {
        let found =
            coloring::chromatic_number(graph, &self.chromatic, &mut Searcher { job: self }, poller)
                .map_err(early)?;
        let k = found.colours();
        let status = if found.optimal() {
            eprintln!("colors {k} optimal");
            Status::Success
        } else {
            eprintln!("colors {k} best found, not proven");
            stopped(&found.summary, signals).unwrap_or(Status::Limit)
        };
        Ok((status, Some(found.summary), Some(found.colors)))
    }

    /// A colouring with at most `k` colours, or the proof that there is none.
    fn with_k(
        &self,
        graph: &Graph,
        k: u32,
        poller: &mut Poller,
        signals: &Signals,
    ) -> Result<Done, Early> {
        let answer = coloring::colour_with(
            graph,
            k,
            &self.chromatic,
            &mut Searcher { job: self },
            poller,
        )
        .map_err(early)?;
        let summary = match answer {
            KColouring::Found { colors, summary } => {
                return Ok((Status::Success, Some(summary), Some(colors)))
            }
            KColouring::CliqueTooLarge { summary, .. } => {
                return Ok((Status::NoSolution, summary, None));
            }
            KColouring::NotFound { summary } => summary,
        };
        let status = match stopped(&summary, signals) {
            Some(status) => {
                eprintln!(
                    "csp color: stopped before finding {} or proving there is none",
                    a_colouring(k)
                );
                status
            }
            None => {
                eprintln!("csp color: no {k}-colouring exists (the search is complete)");
                Status::NoSolution
            }
        };
        Ok((status, Some(summary), None))
    }
}

/// The drivers' complete search as `csp color` runs it: the chosen inference and orders, the
/// proof file under `--proof`, and a line on stderr for each step.
struct Searcher<'a> {
    job: &'a ColorJob,
}

impl ColouringSearch for Searcher<'_> {
    type Error = String;

    fn first(
        &mut self,
        model: &ColoringModel,
        k: u32,
        limits: Limits,
    ) -> Result<(Summary, Option<Vec<u32>>), String> {
        let job = self.job;
        let mut found = None;
        let solver = job
            .search
            .solver(&model.model)
            .max_solutions(Some(1))
            .limits(limits);
        let on_solution = |s: &csp::Solution<'_>| {
            found = Some(model.colors(s));
            ControlFlow::Break(())
        };
        let command = format!("csp color: {k} colours");
        let summary = proof::solve(
            &command,
            &solver,
            &job.file,
            &model.model,
            job.proof.as_deref(),
            on_solution,
        )?;
        Ok((summary, found))
    }

    fn step(&mut self, step: Step<'_>) {
        let colours = |k: u32| count(k, "colour", "colours");
        match step {
            Step::Dsatur(k) => eprintln!("csp color: DSATUR uses {}", colours(k)),
            Step::Clique {
                members,
                proven,
                nodes,
            } => {
                let how = if proven {
                    "none is larger".to_owned()
                } else {
                    format!(
                        "the largest found in {}; a larger one may exist",
                        count(nodes, "node", "nodes")
                    )
                };
                eprintln!(
                    "csp color: a clique of {} needs as many colours ({how})",
                    count(members.len() as u64, "vertex", "vertices"),
                );
            }
            Step::Tabu(k) => eprintln!("csp color: TabuCol finds a colouring with {}", colours(k)),
            Step::Found(k) => eprintln!(
                "csp color: the search finds a colouring with {}",
                colours(k)
            ),
            Step::NoneWith(k) => {
                eprintln!("csp color: no {k}-colouring exists (the search is complete)")
            }
            Step::CliqueExceeds { members, k } => {
                let listed: Vec<String> = members.iter().map(|v| (v + 1).to_string()).collect();
                eprintln!(
                    "csp color: no {k}-colouring: vertices {} form a clique of {}",
                    listed.join(" "),
                    members.len()
                );
            }
        }
    }
}

/// A driver's failure as the run reports it.
fn early(error: ChromaticError<String>) -> Early {
    match error {
        ChromaticError::Stopped(limit, phase) => Early::Stopped(limit, phase.doing()),
        ChromaticError::Model(e) => {
            Early::Failed(format!("cannot build the model: {e}"), Status::BadInput)
        }
        ChromaticError::Search(message) => Early::Failed(message, Status::BadInput),
        ChromaticError::NotProper => Early::Failed(
            "internal error: the colouring found is not proper; no colouring printed".into(),
            Status::WrongAnswer,
        ),
        ChromaticError::CliqueColoured(k) => Early::Failed(
            format!("internal error: a clique larger than {k} was coloured; no colouring printed"),
            Status::WrongAnswer,
        ),
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
