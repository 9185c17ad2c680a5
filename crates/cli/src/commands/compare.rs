//! `csp compare`: one problem under several configurations, side by side.
//!
//! Each configuration runs the same model with the same limits, by default 10 seconds each;
//! the figures go into one table (text, Markdown, CSV or JSON) with ratios to the first
//! configuration, plain backtracking by default. A spinner on a terminal says what is running.
//! A signal stops the run in progress; the table is printed with what was done, the stopped
//! row and the rows that never ran marked as such. A warning says when the comparison cannot
//! teach anything.

mod configs;

pub use configs::Config;

pub use crate::args::{
    CompareArgs, CompareColorArgs, CompareCommand, CompareFznArgs, CompareQueensArgs,
    CompareSudokuArgs, CompareXcsp3Args, EncodingArg, TableFormat,
};
use crate::events::{EventLog, Recorder};
use crate::exit_code::Status;
use crate::input::{self, ReadStop};
use crate::instances::{self, Early};
use crate::output::Output;
use crate::progress::Spinner;
use crate::render::plot;
use crate::render::replay::{self, Board, Trace};
use crate::render::table::{self, Row};
use crate::signals::{Received, Signals};
use crate::wording::count;
use csp::{Inference, Limit, Limits, Model, Outcome, Poller, Statistics, Summary};
use nqueens::{Encoding, QueensModel};
use std::io::{self, BufRead, BufReader};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// The largest board a sweep or a single comparison takes.
const MAX_QUEENS: usize = 1000;

/// How long each configuration may run unless `--time-limit` says otherwise: long enough for
/// the comparisons a class runs, short enough that a hopeless configuration (plain
/// backtracking on 30 queens) does not hold up the table.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);

/// How many configurations a replay page shows side by side.
const REPLAYED: usize = 2;

/// What every run of a comparison shares.
struct Settings {
    configs: Vec<Config>,
    all: bool,
    /// Each configuration's limits, its time counted from the start of its run: by default
    /// [`DEFAULT_TIME_LIMIT`] (`--time-limit none`: none).
    limits: Limits,
    format: TableFormat,
    /// Whether to record the first configurations' runs for a replay page.
    replay: bool,
    /// The model's objective: each run then proves the optimum.
    goal: Option<csp::Objective>,
    /// Whether the configurations run from the strongest inference down and, once one has
    /// settled the answer, the later ones stop at [`CAP_FACTOR`] times the fastest such time
    /// (at least [`CAP_FLOOR`]): for FlatZinc and XCSP3 models when no `--time-limit` is
    /// given, so that plain backtracking does not spend its full 10 s on a model that arc
    /// consistency or learning settles in a moment.
    cap_weaker: bool,
}

/// How many times the strongest configuration's time the others get once it has proved the
/// answer (see `Settings::cap_weaker`).
const CAP_FACTOR: u32 = 10;

/// The least time the others get under the cap: a weaker mode that needs a few hundred
/// milliseconds more still shows its figures.
const CAP_FLOOR: Duration = Duration::from_secs(1);

/// How strong a mode's inference is, for the cap: learning, then arc consistency, forward
/// checking and plain backtracking.
fn strength(inference: Inference) -> u8 {
    match inference {
        Inference::Lcg => 3,
        Inference::Mac => 2,
        Inference::ForwardChecking => 1,
        Inference::None => 0,
    }
}

impl Settings {
    fn new(args: &CompareArgs, signals: &Signals) -> Result<Self, String> {
        let limits = crate::search_options::limits_from(
            args.time_limit.as_deref(),
            args.node_limit,
            Some(DEFAULT_TIME_LIMIT),
            &signals.cancel,
            None,
        )?;
        Ok(Settings {
            configs: configs::configurations(
                args.with.as_deref(),
                args.configs.as_deref(),
                args.seed,
            )?,
            all: args.all,
            limits,
            format: args.format,
            replay: args.html.is_some(),
            goal: None,
            cap_weaker: false,
        })
    }

    /// The limits of one configuration's run, its time counted from `since`.
    fn limits(&self, since: Instant) -> Limits {
        self.limits.clone().counted_from(since)
    }

    /// A poller for the work around the runs (reading, building models): the signal only.
    fn signal_poller(&self) -> Poller {
        Poller::new(&self.limits.clone().with_nodes(None).with_time(None))
    }

    /// Solves `model` under `config` with `limits`, recorded by `recorder` if one is given:
    /// the first solution, or all of them; with the objective's value in the last solution
    /// found (the best), under an objective.
    fn run(
        &self,
        model: &Model,
        config: &Config,
        limits: Limits,
        recorder: Option<&mut Recorder<EventLog>>,
    ) -> (Summary, Option<i64>) {
        let mut solver = config
            .search
            .solver(model)
            .max_solutions((!self.all).then_some(1))
            .limits(limits);
        if self.goal.is_some() {
            solver = solver.optimize(self.goal).max_solutions(None);
        }
        let mut best = None;
        let on_solution = |s: &csp::Solution<'_>| {
            best = self.goal.map(|g| i64::from(s.value(g.var)));
            ControlFlow::Continue(())
        };
        let summary = match recorder {
            Some(log) => solver.solve_observed(log, on_solution),
            None => solver.solve(on_solution),
        };
        (summary, best)
    }

    /// Whether a run that ended with `outcome` settled what is asked: the optimum proved, all
    /// solutions found, or the first one (or none, proved).
    fn settles(&self, outcome: Outcome) -> bool {
        match outcome {
            Outcome::Exhausted => true,
            Outcome::Solved => self.goal.is_none() && !self.all,
            Outcome::LimitReached(_) => false,
        }
    }

    /// The table's title: what was compared, the modes (then `after_modes`), the limits, and
    /// the configuration the ratios are relative to.
    fn title(&self, what: &str, after_modes: &str) -> String {
        format!(
            "{what}, {}{after_modes}; {}; ratios relative to {}",
            mode_title(self),
            self.limit_note(),
            self.configs[0].name
        )
    }

    /// What the title says of the limits.
    fn limit_note(&self) -> String {
        let time = match self.limits.time {
            Some(t) if t == DEFAULT_TIME_LIMIT => format!(
                "each configuration stops after {} s (the default; --time-limit SECS|none)",
                t.as_secs()
            ),
            Some(t) => format!(
                "each configuration stops after {} s (--time-limit)",
                t.as_secs_f64()
            ),
            None => "no time limit".to_owned(),
        };
        match self.limits.nodes {
            Some(k) => format!("{time} or {}", count(k, "node", "nodes")),
            None => time,
        }
    }
}

/// What `outcome` is called in the table.
fn outcome_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Solved => "solved",
        Outcome::Exhausted => "exhausted",
        Outcome::LimitReached(Limit::Cancelled) => "stopped",
        Outcome::LimitReached(_) => "limit",
    }
}

fn row(
    n: Option<usize>,
    config: &Config,
    outcome: Outcome,
    s: &Statistics,
    objective: Option<i64>,
) -> Row {
    Row {
        n,
        config: config.name.clone(),
        outcome: outcome_word(outcome),
        objective,
        solutions: s.solutions,
        nodes: s.nodes,
        backtracks: s.backtracks,
        checks: s.checks,
        pruned: s.pruned,
        time: s.elapsed,
        learned: s.learned,
        learned_atoms: s.learned_atoms,
        backjump_levels: s.backjump_levels,
    }
}

/// Whether arc consistency alone settles `model` before any branching.
fn solved_at_root(model: &Model) -> bool {
    match csp::Solver::new(model)
        .inference(Inference::Mac)
        .root_domains()
    {
        None => true,
        Some(domains) => domains.iter().all(|d| d.len() == 1),
    }
}

/// A comparison's results as they come: the rows, the warnings for after the table, the
/// recorded runs, and whether a signal cut it short.
struct Comparison<'s> {
    settings: &'s Settings,
    rows: Vec<Row>,
    warnings: Vec<String>,
    traces: Vec<Trace>,
    /// A signal stopped the comparison.
    interrupted: bool,
    /// Under `Settings::cap_weaker`: the configuration that settled the answer fastest, the
    /// time it took, and the limit the ones after it got.
    capped: Option<(String, Duration, Duration)>,
    spinner: Spinner,
}

impl<'s> Comparison<'s> {
    fn new(settings: &'s Settings) -> Self {
        let warnings = settings
            .configs
            .iter()
            .flat_map(|c| {
                let name = c.name.clone();
                c.search
                    .notes()
                    .into_iter()
                    .map(move |note| format!("{name}: {}", note.trim_start_matches("note: ")))
            })
            .collect();
        Comparison {
            settings,
            rows: Vec::new(),
            warnings,
            traces: Vec::new(),
            interrupted: false,
            capped: None,
            spinner: Spinner::on_terminal(),
        }
    }

    /// Runs every configuration on `model` (`n` for a queens row), each with its own limits;
    /// the first ones are recorded when a replay was asked for. After a signal the rest are
    /// marked as not run. `name` says what is compared, for the spinner and the replay. Under
    /// `Settings::cap_weaker` the strongest runs first and, once it settles the answer, sets
    /// the others' time; the rows stay in the configurations' order.
    fn run_all(&mut self, n: Option<usize>, model: &Model, name: &str, board: Board) {
        let settings = self.settings;
        let first = self.rows.len();
        let mut order: Vec<usize> = (0..settings.configs.len()).collect();
        if settings.cap_weaker {
            // Strongest first; among equals, as listed (the sort is stable).
            order.sort_by_key(|&i| {
                std::cmp::Reverse(strength(settings.configs[i].search.inference))
            });
        }
        let mut rows: Vec<Option<Row>> = vec![None; settings.configs.len()];
        let mut cap: Option<Duration> = None;
        for (step, &i) in order.iter().enumerate() {
            let config = &settings.configs[i];
            if self.interrupted {
                rows[i] = Some(Row::not_run(n, &config.name));
                continue;
            }
            self.spinner.step(format!(
                "{name}: {} ({} of {})",
                config.name,
                step + 1,
                settings.configs.len()
            ));
            let mut recorder = (settings.replay && i < REPLAYED && self.traces.len() < REPLAYED)
                .then(replay::recorder);
            let mut limits = settings.limits(Instant::now());
            if let Some(cap) = cap {
                limits.time = Some(limits.time.map_or(cap, |t| t.min(cap)));
            }
            let (summary, objective) = settings.run(model, config, limits, recorder.as_mut());
            if settings.cap_weaker && settings.settles(summary.outcome) {
                let took = summary.stats.elapsed;
                let limit = (took * CAP_FACTOR).max(CAP_FLOOR);
                let tighter = cap.or(settings.limits.time).is_none_or(|t| limit < t);
                if tighter {
                    cap = Some(limit);
                    self.capped = Some((config.name.clone(), took, limit));
                }
            }
            if let Some(log) = recorder {
                let stopped_by = match summary.outcome {
                    Outcome::LimitReached(limit) => Some(limit.to_string()),
                    _ => None,
                };
                self.traces.push(Trace::new(
                    model,
                    board,
                    name,
                    &config.name,
                    log,
                    &summary,
                    stopped_by.as_deref(),
                ));
            }
            self.note(summary.outcome);
            rows[i] = Some(row(n, config, summary.outcome, &summary.stats, objective));
        }
        self.rows.extend(rows.into_iter().flatten());
        if !self.interrupted {
            self.warn_if_identical(first, name);
        }
    }

    /// Takes note of how a run ended: a signal stops the comparison.
    fn note(&mut self, outcome: Outcome) {
        if outcome == Outcome::LimitReached(Limit::Cancelled) {
            self.interrupted = true;
        }
    }

    /// Warns when every configuration with a different mode explored the same number of
    /// nodes (rows from `first` on).
    fn warn_if_identical(&mut self, first: usize, what: &str) {
        // Learning counts no node for a variable propagation fixed: its rows are left out.
        let rows: Vec<&Row> = self.rows[first..]
            .iter()
            .filter(|r| {
                r.config.split('+').next().and_then(|m| m.parse().ok()) != Some(Inference::Lcg)
            })
            .collect();
        let modes: std::collections::BTreeSet<String> = self
            .settings
            .configs
            .iter()
            .filter(|c| c.search.inference != Inference::Lcg)
            .map(|c| c.search.inference.to_string())
            .collect();
        if modes.len() < 2 || rows.is_empty() || rows.iter().any(|r| r.outcome != rows[0].outcome) {
            return;
        }
        if rows[0].outcome == "limit" {
            return;
        }
        if rows.iter().all(|r| r.nodes == rows[0].nodes) {
            self.warnings.push(format!(
                "{what}: every configuration explored the same {}; \
                 inference made no difference here, try a larger instance",
                count(rows[0].nodes, "node", "nodes")
            ));
        }
    }

    /// Prints the table (and writes the replay page); the exit status says whether a signal
    /// cut it short.
    fn finish(
        self,
        title: &str,
        with_n: bool,
        html: Option<&std::path::Path>,
        received: Option<Received>,
        out: &mut Output,
    ) -> Status {
        self.spinner.clear();
        let settings = self.settings;
        let text = match settings.format {
            TableFormat::Table => table::text(&self.rows, title, with_n),
            TableFormat::Markdown => table::markdown(&self.rows, title, with_n),
            TableFormat::Csv => table::csv(&self.rows),
            TableFormat::Json => table::json(&self.rows),
        };
        out.record(text.as_bytes());
        if let Some(status) = out.finish("csp compare") {
            return status;
        }
        for warning in &self.warnings {
            eprintln!("csp compare: warning: {warning}");
        }
        if let Some(path) = html {
            let names: Vec<&str> = settings
                .configs
                .iter()
                .take(REPLAYED)
                .map(|c| c.name.as_str())
                .collect();
            let title = format!(
                "{}: {} side by side",
                title_problem(title),
                names.join(" and ")
            );
            let subtitle =
                "Each panel replays the run whose figures the table shows; the slider moves both.";
            match replay::write_page(path, &title, subtitle, &self.traces) {
                Ok(message) => eprintln!("{message}"),
                Err(message) => {
                    eprintln!("csp compare: {message}");
                    return Status::BadInput;
                }
            }
        }
        if self.interrupted {
            let signal = received.map_or("a cancel request", Received::name);
            eprintln!(
                "csp compare: stopped by {signal}; the table shows the runs done, the one \
                 stopped ('stopped') and those never run ('not run')"
            );
            return match received {
                Some(Received::Terminate) => Status::Terminated,
                _ => Status::Interrupted,
            };
        }
        // A run stopped by its limit is a row of the table ("limit"), not a failure of the
        // comparison: the table was asked for, and printed.
        Status::Success
    }
}

/// The problem part of a title (before its first comma).
fn title_problem(title: &str) -> &str {
    title.split(',').next().unwrap_or(title)
}

pub fn run(command: &CompareCommand, signals: &Signals, mut out: Output) -> Status {
    let result = match command {
        CompareCommand::Queens(args) => queens(args, signals, &mut out),
        CompareCommand::Sudoku(args) => sudoku(args, signals, &mut out),
        CompareCommand::Color(args) => color(args, signals, &mut out),
        CompareCommand::Fzn(args) => fzn(args, signals, &mut out),
        CompareCommand::Xcsp3(args) => xcsp3(args, signals, &mut out),
    };
    match result {
        Ok(status) => status,
        Err(Failure::BadInput(message)) => {
            eprintln!("csp compare: {message}");
            Status::BadInput
        }
        Err(Failure::Stopped) => {
            eprintln!("csp compare: stopped before any configuration ran; no table");
            match signals.received() {
                Some(Received::Terminate) => Status::Terminated,
                _ => Status::Interrupted,
            }
        }
    }
}

/// Why a comparison printed no table.
enum Failure {
    BadInput(String),
    /// A signal came while the input was read or the models built.
    Stopped,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::BadInput(message)
    }
}

fn mode_title(settings: &Settings) -> &'static str {
    if settings.goal.is_some() {
        "the optimum, proved"
    } else if settings.all {
        "all solutions"
    } else {
        "first solution"
    }
}

/// `N` or `A..B`, inclusive.
fn parse_range(text: &str) -> Result<(usize, usize), String> {
    let number = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{text}' is not a board size or a range such as 4..12"))
    };
    let (low, high) = match text.split_once("..") {
        Some((a, b)) => (number(a)?, number(b.trim_start_matches('='))?),
        None => (number(text)?, number(text)?),
    };
    if low > high {
        return Err(format!("the range {text} is empty"));
    }
    if high > MAX_QUEENS {
        return Err(format!("compare takes boards up to N = {MAX_QUEENS}"));
    }
    Ok((low, high))
}

fn queens(
    args: &CompareQueensArgs,
    signals: &Signals,
    out: &mut Output,
) -> Result<Status, Failure> {
    let settings = Settings::new(&args.compare, signals)?;
    let (low, high) = parse_range(&args.n)?;
    let encoding = match args.encoding {
        EncodingArg::Binary => Encoding::Binary,
        EncodingArg::Alldiff => Encoding::AllDiff,
    };
    let sweep = low != high;
    if args.compare.plot.is_some() && !sweep {
        return Err("--plot needs a range of N, such as 4..12".to_owned().into());
    }
    let mut comparison = Comparison::new(&settings);
    let mut poller = settings.signal_poller();
    let mut stopped_at = None;
    for n in low..=high {
        let queens = match QueensModel::build(n, encoding, &mut poller) {
            Ok(queens) => queens,
            Err(csp::ModelError::Stopped(_)) => {
                comparison.interrupted = true;
                stopped_at = Some(n);
                break;
            }
            Err(e) => return Err(e.to_string().into()),
        };
        let name = format!("{n}-queens");
        comparison.run_all(Some(n), &queens.model, &name, Board::Queens);
        if comparison.interrupted {
            stopped_at = (n < high).then_some(n + 1);
            break;
        }
        if solved_at_root(&queens.model) {
            comparison.warnings.push(format!(
                "queens {n}: arc consistency alone settles it at the root, before any search; \
                 the comparison shows little"
            ));
        }
    }
    if comparison.rows.is_empty() {
        return Err(Failure::Stopped);
    }
    let mut title = if sweep {
        settings.title(&format!("queens {low}..{high} ({encoding} encoding)"), "")
            + " at the same N"
    } else {
        settings.title(&format!("queens {low} ({encoding} encoding)"), "")
    };
    if let Some(n) = stopped_at {
        title.push_str(&format!(" (stopped: N = {n}..{high} not run)"));
    }
    if let Some(path) = &args.compare.plot {
        plot::draw(
            path,
            &comparison.rows,
            &format!("N-Queens, {}, {encoding} encoding", mode_title(&settings)),
        )?;
    }
    Ok(comparison.finish(
        &title,
        sweep,
        args.compare.html.as_deref(),
        signals.received(),
        out,
    ))
}

/// Reads the whole input as lines of text, stopping on a signal.
fn read_text(
    input: Box<dyn BufRead + Send>,
    poller: &mut Poller,
) -> Result<Vec<(usize, String)>, Failure> {
    let mut lines = Vec::new();
    let read = input::for_each_line(input, poller, |number, bytes| {
        lines.push((number, String::from_utf8_lossy(bytes).into_owned()));
        ControlFlow::Continue(())
    });
    match read {
        Ok(_) => Ok(lines),
        Err(ReadStop::Io(line, e)) => Err(format!("line {line}: {e}").into()),
        Err(ReadStop::Limit(_)) => Err(Failure::Stopped),
    }
}

fn sudoku(
    args: &CompareSudokuArgs,
    signals: &Signals,
    out: &mut Output,
) -> Result<Status, Failure> {
    let settings = Settings::new(&args.compare, signals)?;
    let alphabet = match &args.alphabet {
        Some(a) => Some(sudoku::Alphabet::new(a).map_err(|e| format!("--alphabet: {e}"))?),
        None => None,
    };
    let input: Box<dyn BufRead + Send> = match (&args.puzzle, &args.file) {
        (Some(text), _) => Box::new(io::Cursor::new(text.clone().into_bytes())),
        (None, Some(path)) if path.as_os_str() != "-" => Box::new(BufReader::new(
            std::fs::File::open(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        )),
        _ => Box::new(BufReader::new(io::stdin())),
    };
    let mut poller = settings.signal_poller();
    let mut reader = sudoku::Reader::new(alphabet);
    let mut entries = Vec::new();
    let lines = read_text(input, &mut poller)?;
    let last = lines.len();
    for (number, line) in &lines {
        reader.feed(*number, line, &mut entries);
    }
    reader.finish(last, &mut entries);
    let mut models = Vec::new();
    for entry in entries {
        match entry.puzzle {
            Err(e) => eprintln!("csp compare: skipped: {e}"),
            Ok(p) if !p.grid.violations().is_empty() => {
                eprintln!(
                    "csp compare: skipped: line {}: the givens break the rules",
                    entry.line
                )
            }
            Ok(p) => models.push(sudoku::SudokuModel::new(&p.grid).map_err(|e| e.to_string())?),
        }
        if !poller.tick() {
            return Err(Failure::Stopped);
        }
    }
    if models.is_empty() {
        return Err("no puzzle to compare".to_owned().into());
    }
    let what = count(models.len() as u64, "sudoku puzzle", "sudoku puzzles");
    let mut comparison = Comparison::new(&settings);
    for (i, config) in settings.configs.iter().enumerate() {
        if comparison.interrupted {
            comparison.rows.push(Row::not_run(None, &config.name));
            continue;
        }
        // One limit for the configuration over all its puzzles.
        let limits = settings.limits(Instant::now());
        let mut total = Statistics::default();
        let mut worst = Outcome::Solved;
        for (p, model) in models.iter().enumerate() {
            comparison.spinner.step(format!(
                "{what}: {} ({} of {}), puzzle {} of {}",
                config.name,
                i + 1,
                settings.configs.len(),
                p + 1,
                models.len()
            ));
            let mut recorder = (settings.replay && p == 0 && i < REPLAYED).then(replay::recorder);
            let (summary, _) =
                settings.run(&model.model, config, limits.clone(), recorder.as_mut());
            if let Some(log) = recorder {
                let stopped_by = match summary.outcome {
                    Outcome::LimitReached(limit) => Some(limit.to_string()),
                    _ => None,
                };
                comparison.traces.push(Trace::new(
                    &model.model,
                    Board::Sudoku(model.cells.len()),
                    "the first sudoku",
                    &config.name,
                    log,
                    &summary,
                    stopped_by.as_deref(),
                ));
            }
            total.add(&summary.stats);
            worst = match (worst, summary.outcome) {
                (Outcome::LimitReached(l), _) | (_, Outcome::LimitReached(l)) => {
                    Outcome::LimitReached(l)
                }
                (Outcome::Exhausted, _) | (_, Outcome::Exhausted) => Outcome::Exhausted,
                _ => Outcome::Solved,
            };
            if let Outcome::LimitReached(_) = summary.outcome {
                // The configuration's time is up (or a signal came): the rest would stop at once.
                break;
            }
        }
        comparison.note(worst);
        comparison.rows.push(row(None, config, worst, &total, None));
    }
    if !comparison.interrupted {
        comparison.warn_if_identical(0, &what);
        let at_root = models.iter().filter(|m| solved_at_root(&m.model)).count();
        if at_root > 0 {
            comparison.warnings.push(format!(
                "{at_root} of {} settled by arc consistency at the root, before any \
                 search",
                match models.len() {
                    1 => "1 puzzle is".to_owned(),
                    n => format!("{n} puzzles are"),
                }
            ));
        }
    }
    let title = settings.title(&what, ", figures summed per configuration");
    Ok(comparison.finish(
        &title,
        false,
        args.compare.html.as_deref(),
        signals.received(),
        out,
    ))
}

fn color(args: &CompareColorArgs, signals: &Signals, out: &mut Output) -> Result<Status, Failure> {
    let settings = Settings::new(&args.compare, signals)?;
    let mut poller = settings.signal_poller();
    let read = match instances::read_graph(&args.file, &mut poller) {
        Ok(read) => read,
        Err(Early::Failed(message, _)) => return Err(message.into()),
        Err(Early::Stopped(..)) => return Err(Failure::Stopped),
    };
    let clique = match coloring::largest_clique(&read.graph, coloring::CLIQUE_NODES, &mut poller) {
        Ok(clique) => clique.members,
        Err(_) => return Err(Failure::Stopped),
    };
    if clique.len() > args.colors as usize {
        return Err(format!(
            "no {}-colouring: the graph has a clique of {}",
            args.colors,
            clique.len()
        )
        .into());
    }
    // The model `csp color` solves under mac and lcg: all-different over cliques covering the
    // edges. Every configuration gets the same one; under none and fc an all-different checks
    // and prunes just as its edges' `!=` would, so only arc consistency and learning see more.
    let cliques = match coloring::clique_cover(&read.graph, coloring::REDUNDANT_CLIQUE, &mut poller)
    {
        Ok(cliques) => cliques,
        Err(_) => return Err(Failure::Stopped),
    };
    let built = coloring::ColoringModel::with_cliques(
        &read.graph,
        args.colors,
        &clique,
        &cliques,
        &mut poller,
    );
    let model = match built {
        Ok(model) => model,
        Err(csp::ModelError::Stopped(_)) => return Err(Failure::Stopped),
        Err(e) => return Err(e.to_string().into()),
    };
    let what = format!("{}-colouring of {}", args.colors, args.file.display());
    Ok(one_model(
        &settings,
        &model.model,
        &what,
        &args.compare,
        signals,
        out,
    ))
}

/// The table of every configuration on one model (not a sweep), with the warning that arc
/// consistency alone settles it where it does.
fn one_model(
    settings: &Settings,
    model: &Model,
    what: &str,
    args: &CompareArgs,
    signals: &Signals,
    out: &mut Output,
) -> Status {
    let mut comparison = Comparison::new(settings);
    comparison.run_all(None, model, what, Board::Generic);
    if !comparison.interrupted && solved_at_root(model) {
        comparison.warnings.push(format!(
            "{what}: arc consistency alone settles it at the root"
        ));
    }
    let mut title = settings.title(what, "");
    if let Some((strongest, took, limit)) = &comparison.capped {
        title.push_str(&format!(
            "; {strongest} settled it in {:.3} s, so the configurations run after it \
             (weaker ones) stopped after {:.3} s ({CAP_FACTOR} times as long, at least {} s)",
            took.as_secs_f64(),
            limit.as_secs_f64(),
            CAP_FLOOR.as_secs()
        ));
    }
    comparison.finish(&title, false, args.html.as_deref(), signals.received(), out)
}

/// A FlatZinc model (what MiniZinc compiles a user's model to): its satisfaction problem, or
/// its optimisation proved, under each configuration; the model's own search annotations are
/// left out, so that the configurations' heuristics are what is compared.
fn fzn(args: &CompareFznArgs, signals: &Signals, out: &mut Output) -> Result<Status, Failure> {
    let mut settings = Settings::new(&args.compare, signals)?;
    let Some(first) = args.files.first() else {
        return Err("name a model".to_owned().into());
    };
    let is_fzn = first.extension().is_some_and(|e| e == "fzn");
    if is_fzn && (args.files.len() > 1 || !args.data.is_empty()) {
        return Err("a FlatZinc model takes no data (files or -D)"
            .to_owned()
            .into());
    }
    let compile = |keep_paths| {
        super::minizinc_setup::compile_with_minizinc(&args.files, &args.data, keep_paths)
    };
    let text = if is_fzn {
        std::fs::read_to_string(first)
            .map_err(|e| format!("cannot read {}: {e}", first.display()))?
    } else {
        compile(false)?
    };
    let fzn = match flatzinc::load(&text) {
        Ok(fzn) => fzn,
        Err(e) if is_fzn => return Err(format!("{}: {e}", first.display()).into()),
        // A line of MiniZinc's FlatZinc means nothing to the user: compiled again with the
        // model's places kept, the error names the place in the model.
        Err(e) => {
            let again = compile(true).ok().and_then(|t| flatzinc::load(&t).err());
            return Err(match again {
                Some(e) if e.source.is_some() => e.to_string(),
                _ => format!("{}: {}", first.display(), e.message),
            }
            .into());
        }
    };
    drop(text);
    if let Some(why) = &fzn.contradiction {
        return Err(format!("{}: no solution, before any search: {why}", first.display()).into());
    }
    settings.goal = fzn.objective;
    settings.cap_weaker = args.compare.time_limit.is_none();
    let what = args
        .files
        .iter()
        .map(|f| f.display().to_string())
        .chain(args.data.iter().map(|d| format!("-D {d}")))
        .collect::<Vec<_>>()
        .join(" ");
    Ok(one_model(
        &settings,
        &fzn.model,
        &what,
        &args.compare,
        signals,
        out,
    ))
}

/// An XCSP3 instance: its satisfaction problem (or every solution with --all), or its
/// optimisation proved, under each configuration.
fn xcsp3(args: &CompareXcsp3Args, signals: &Signals, out: &mut Output) -> Result<Status, Failure> {
    let mut settings = Settings::new(&args.compare, signals)?;
    let text = instances::read_instance(&args.file)?;
    let read = xcsp3::load(&text).map_err(|e| format!("{}: {e}", args.file.display()))?;
    drop(text);
    settings.goal = read.objective;
    settings.cap_weaker = args.compare.time_limit.is_none();
    let what = args.file.display().to_string();
    Ok(one_model(
        &settings,
        &read.model,
        &what,
        &args.compare,
        signals,
        out,
    ))
}
