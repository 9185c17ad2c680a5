//! `csp compare`: one problem under several configurations, side by side.
//!
//! Each configuration runs the same model with the same limits; the figures go into one table
//! (text, Markdown, CSV or JSON) with ratios to the first configuration, plain backtracking by
//! default. A warning says when the comparison cannot teach anything.

mod configs;

pub use configs::Config;
mod plot;
mod table;

pub use crate::args::{
    CompareArgs, CompareColorArgs, CompareCommand, CompareQueensArgs, CompareSudokuArgs,
    EncodingArg, TableFormat,
};
use crate::exit_code::Status;
use crate::output::Output;
use crate::search_options::parse_seconds;
use crate::signals::Signals;
use csp::{Inference, Limit, Limits, Model, Outcome, Statistics, Summary};
use nqueens::{Encoding, QueensModel};
use std::io::{self, BufRead, BufReader};
use std::ops::ControlFlow;
use table::Row;

/// The largest board a sweep or a single comparison takes.
const MAX_QUEENS: usize = 1000;

/// What every run of a comparison shares.
struct Settings {
    configs: Vec<Config>,
    all: bool,
    limits: Limits,
    format: TableFormat,
}

impl Settings {
    fn new(args: &CompareArgs, signals: &Signals) -> Result<Self, String> {
        Ok(Settings {
            configs: configs::configurations(
                args.with.as_deref(),
                args.configs.as_deref(),
                args.seed,
            )?,
            all: args.all,
            limits: Limits {
                nodes: args.node_limit,
                time: args.time_limit.as_deref().map(parse_seconds).transpose()?,
                cancel: Some(signals.cancel.clone()),
            },
            format: args.format,
        })
    }

    /// Solves `model` under `config`: the first solution, or all of them.
    fn run(&self, model: &Model, config: &Config) -> Summary {
        config
            .search
            .solver(model)
            .max_solutions((!self.all).then_some(1))
            .limits(self.limits.clone())
            .solve(|_| ControlFlow::Continue(()))
    }
}

fn outcome_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Solved => "solved",
        Outcome::Exhausted => "exhausted",
        Outcome::LimitReached(_) => "limit",
    }
}

fn row(n: Option<usize>, config: &Config, outcome: Outcome, s: &Statistics) -> Row {
    Row {
        n,
        config: config.name.clone(),
        outcome: outcome_word(outcome),
        solutions: s.solutions,
        nodes: s.nodes,
        backtracks: s.backtracks,
        checks: s.checks,
        pruned: s.pruned,
        time: s.elapsed,
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

/// Warns when every configuration with a different mode explored the same number of nodes.
fn warn_if_identical(rows: &[Row], configs: &[Config], what: &str) {
    let modes: std::collections::BTreeSet<String> = configs
        .iter()
        .map(|c| c.search.inference.to_string())
        .collect();
    if modes.len() < 2 || rows.is_empty() || rows.iter().any(|r| r.outcome == "limit") {
        return;
    }
    if rows.iter().all(|r| r.nodes == rows[0].nodes) {
        eprintln!(
            "csp compare: warning: {what}: every configuration explored the same {} nodes; \
             inference made no difference here, try a larger instance",
            rows[0].nodes
        );
    }
}

pub fn run(command: &CompareCommand, signals: &Signals, mut out: Output) -> Status {
    let result = match command {
        CompareCommand::Queens(args) => queens(args, signals),
        CompareCommand::Sudoku(args) => sudoku(args, signals),
        CompareCommand::Color(args) => color(args, signals),
    };
    let (text, html) = match result {
        Ok(done) => done,
        Err(message) => {
            eprintln!("csp compare: {message}");
            return Status::BadInput;
        }
    };
    out.record(text.as_bytes());
    out.flush();
    if let Some(e) = out.error.take() {
        eprintln!("csp compare: cannot write the output: {e}");
        return Status::BadInput;
    }
    if let Some(message) = html {
        eprintln!("{message}");
    }
    Status::Success
}

/// Formats the table, in the asked-for format.
fn render(settings: &Settings, rows: &[Row], title: &str, with_n: bool) -> String {
    match settings.format {
        TableFormat::Table => table::text(rows, title, with_n),
        TableFormat::Markdown => table::markdown(rows, title, with_n),
        TableFormat::Csv => table::csv(rows),
        TableFormat::Json => table::json(rows),
    }
}

fn mode_title(settings: &Settings) -> &'static str {
    if settings.all {
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

type Done = (String, Option<String>);

fn queens(args: &CompareQueensArgs, signals: &Signals) -> Result<Done, String> {
    let settings = Settings::new(&args.compare, signals)?;
    let (low, high) = parse_range(&args.n)?;
    let encoding = match args.encoding {
        EncodingArg::Binary => Encoding::Binary,
        EncodingArg::Alldiff => Encoding::AllDiff,
    };
    let mut rows = Vec::new();
    for n in low..=high {
        let queens = QueensModel::new(n, encoding).map_err(|e| e.to_string())?;
        let first = rows.len();
        for config in &settings.configs {
            let summary = settings.run(&queens.model, config);
            rows.push(row(Some(n), config, summary.outcome, &summary.stats));
            if summary.outcome == Outcome::LimitReached(Limit::Cancelled) {
                return Err("interrupted".into());
            }
        }
        let what = format!("queens {n}");
        warn_if_identical(&rows[first..], &settings.configs, &what);
        if solved_at_root(&queens.model) {
            eprintln!(
                "csp compare: warning: {what}: arc consistency alone settles it at the root, \
                 before any search; the comparison shows little"
            );
        }
    }
    let sweep = low != high;
    let title = if sweep {
        format!(
            "queens {low}..{high} ({encoding} encoding), {}; ratios relative to {} at the same N",
            mode_title(&settings),
            settings.configs[0].name
        )
    } else {
        format!(
            "queens {low} ({encoding} encoding), {}; ratios relative to {}",
            mode_title(&settings),
            settings.configs[0].name
        )
    };
    if let Some(path) = &args.compare.plot {
        if !sweep {
            return Err("--plot needs a range of N, such as 4..12".into());
        }
        plot::draw(
            path,
            &rows,
            &format!("N-Queens, {}, {encoding} encoding", mode_title(&settings)),
        )?;
    }
    let html = match &args.compare.html {
        Some(path) => Some(crate::replay::compare_queens(
            path,
            low,
            encoding,
            &settings.configs,
            &settings.limits,
        )?),
        None => None,
    };
    Ok((render(&settings, &rows, &title, sweep), html))
}

fn sudoku(args: &CompareSudokuArgs, signals: &Signals) -> Result<Done, String> {
    let settings = Settings::new(&args.compare, signals)?;
    let alphabet = match &args.alphabet {
        Some(a) => Some(
            sudoku::Alphabet::new(a).ok_or_else(|| format!("--alphabet '{a}' is not usable"))?,
        ),
        None => None,
    };
    let input: Box<dyn BufRead> = match (&args.puzzle, &args.file) {
        (Some(text), _) => Box::new(io::Cursor::new(text.clone().into_bytes())),
        (None, Some(path)) if path.as_os_str() != "-" => Box::new(BufReader::new(
            std::fs::File::open(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        )),
        _ => Box::new(BufReader::new(io::stdin())),
    };
    let mut reader = sudoku::Reader::new(alphabet);
    let mut entries = Vec::new();
    let mut last = 0;
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| format!("line {}: {e}", i + 1))?;
        reader.feed(i + 1, &line, &mut entries);
        last = i + 1;
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
    }
    if models.is_empty() {
        return Err("no puzzle to compare".into());
    }
    let mut rows = Vec::new();
    for config in &settings.configs {
        let mut total = Statistics::default();
        let mut worst = Outcome::Solved;
        for model in &models {
            let summary = settings.run(&model.model, config);
            total.solutions += summary.stats.solutions;
            total.nodes += summary.stats.nodes;
            total.backtracks += summary.stats.backtracks;
            total.checks += summary.stats.checks;
            total.pruned += summary.stats.pruned;
            total.elapsed += summary.stats.elapsed;
            if summary.outcome == Outcome::LimitReached(Limit::Cancelled) {
                return Err("interrupted".into());
            }
            worst = match (worst, summary.outcome) {
                (Outcome::LimitReached(l), _) | (_, Outcome::LimitReached(l)) => {
                    Outcome::LimitReached(l)
                }
                (Outcome::Exhausted, _) | (_, Outcome::Exhausted) => Outcome::Exhausted,
                _ => Outcome::Solved,
            };
        }
        rows.push(row(None, config, worst, &total));
    }
    let what = format!("{} sudoku puzzles", models.len());
    warn_if_identical(&rows, &settings.configs, &what);
    let at_root = models.iter().filter(|m| solved_at_root(&m.model)).count();
    if at_root > 0 {
        eprintln!(
            "csp compare: warning: {at_root} of {} puzzles are settled by arc consistency at the \
             root, before any search",
            models.len()
        );
    }
    let title = format!(
        "{what}, {}, figures summed per configuration; ratios relative to {}",
        mode_title(&settings),
        settings.configs[0].name
    );
    let html = match &args.compare.html {
        Some(path) => Some(crate::replay::compare_model(
            path,
            &models[0].model,
            crate::replay::Board::Sudoku(models[0].cells.len()),
            "the first sudoku",
            &settings.configs,
            &settings.limits,
        )?),
        None => None,
    };
    Ok((render(&settings, &rows, &title, false), html))
}

fn color(args: &CompareColorArgs, signals: &Signals) -> Result<Done, String> {
    let settings = Settings::new(&args.compare, signals)?;
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let mut reader = coloring::DimacsReader::new();
    for (i, line) in text.lines().enumerate() {
        reader.feed(i + 1, line).map_err(|e| e.to_string())?;
    }
    let read = reader
        .finish(text.lines().count())
        .map_err(|e| e.to_string())?;
    let clique = coloring::bounds::greedy_clique(&read.graph);
    if clique.len() > args.colors as usize {
        return Err(format!(
            "no {}-colouring: the graph has a clique of {}",
            args.colors,
            clique.len()
        ));
    }
    let model = coloring::ColoringModel::new(&read.graph, args.colors, &clique)
        .map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for config in &settings.configs {
        let summary = settings.run(&model.model, config);
        if summary.outcome == Outcome::LimitReached(Limit::Cancelled) {
            return Err("interrupted".into());
        }
        rows.push(row(None, config, summary.outcome, &summary.stats));
    }
    let what = format!("{}-colouring of {}", args.colors, args.file.display());
    warn_if_identical(&rows, &settings.configs, &what);
    if solved_at_root(&model.model) {
        eprintln!("csp compare: warning: {what}: arc consistency alone settles it at the root");
    }
    let title = format!(
        "{what}, {}; ratios relative to {}",
        mode_title(&settings),
        settings.configs[0].name
    );
    let html = match &args.compare.html {
        Some(path) => Some(crate::replay::compare_model(
            path,
            &model.model,
            crate::replay::Board::Generic,
            &what,
            &settings.configs,
            &settings.limits,
        )?),
        None => None,
    };
    Ok((render(&settings, &rows, &title, false), html))
}
