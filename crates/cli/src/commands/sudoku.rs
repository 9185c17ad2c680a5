//! `csp sudoku`: reads puzzles as a stream, answers each in input order, and ends with a
//! summary. A bad puzzle is reported and answered `invalid`; every other puzzle still runs.

use crate::args::{RecordArgs, StatsFormat, SudokuArgs, SudokuEngineArg, SudokuFormat};
use crate::exit_code::Status;
use crate::input::{self, ReadStop};
use crate::output::Output;
use crate::recordings::{observers, Recordings};
use crate::render::named_trace::NamedTrace;
use crate::render::replay::Board;
use crate::render::report::{self, RunInfo};
use crate::search_options::limits;
use crate::signals::{Received, Signals};
use crate::wording::count;
use csp::{Limit, Limits, Outcome, Poller, Statistics, Summary};
use csp_policy::Defaults;
use csp_policy::SearchSettings;
use serde_json::json;
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use sudoku::{
    solve_bitmask, Alphabet, BlankModels, Entry, Grid, Puzzle, Reader, Sessions, Shape,
    SudokuModel, RACE_FROM_SIDE,
};

/// What to do with each puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mode {
    Solve,
    Count(Option<u64>),
    Unique,
    Check,
}

/// One puzzle's answer, for the record and for the summary.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Answer {
    Solved,
    Counted,
    Unique,
    Multiple,
    NoSolution,
    Valid,
    Invalid,
    /// Stopped by this limit.
    Limit(Limit),
    /// The solver's answer broke the rules or moved a given: withheld.
    Wrong,
}

/// How many puzzles got each answer.
#[derive(Default)]
struct Tally {
    read: u64,
    solved: u64,
    counted: u64,
    unique: u64,
    multiple: u64,
    none: u64,
    valid: u64,
    invalid: u64,
    limit: u64,
    wrong: u64,
    /// The limit that stopped the last puzzle a limit stopped.
    last_limit: Option<Limit>,
}

impl Tally {
    fn add(&mut self, answer: Answer) {
        self.read += 1;
        let slot = match answer {
            Answer::Solved => &mut self.solved,
            Answer::Counted => &mut self.counted,
            Answer::Unique => &mut self.unique,
            Answer::Multiple => &mut self.multiple,
            Answer::NoSolution => &mut self.none,
            Answer::Valid => &mut self.valid,
            Answer::Invalid => &mut self.invalid,
            Answer::Wrong => &mut self.wrong,
            Answer::Limit(limit) => {
                self.last_limit = Some(limit);
                &mut self.limit
            }
        };
        *slot += 1;
    }
}

/// Which solver takes a puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Engine {
    /// The bitmask solver where the grid fits (up to 64x64), the engine beyond.
    Auto,
    Csp,
    Bitmask,
}

/// A validated `sudoku` run.
pub struct SudokuJob {
    engine: Engine,
    source: Source,
    mode: Mode,
    format: Option<SudokuFormat>,
    alphabet: Option<Alphabet>,
    search: SearchSettings,
    limits: Limits,
    stats: Option<StatsFormat>,
    record: RecordArgs,
    jobs: usize,
    /// Print each puzzle's search step by step (`--trace`).
    trace: bool,
    /// The signal flag, which a trace also sets when its reader goes away.
    cancel: Arc<AtomicBool>,
    /// The rules of each grid size met so far, built once and shared by the puzzles (and
    /// threads) that assume their givens on them.
    blank_models: BlankModels,
}

enum Source {
    Stdin,
    File(std::path::PathBuf),
    Text(String),
}

impl SudokuJob {
    pub fn from_args(args: &SudokuArgs, signals: &Signals) -> Result<Self, String> {
        let alphabet = match &args.alphabet {
            None => None,
            Some(symbols) => {
                Some(Alphabet::new(symbols).map_err(|e| format!("--alphabet '{symbols}': {e}"))?)
            }
        };
        if let Some(a) = &alphabet {
            if !(2..=64).any(|b| b * b == a.len()) {
                return Err(format!(
                    "--alphabet has {} symbols; a sudoku alphabet has 4, 9, 16, 25, ... (a square)",
                    a.len()
                ));
            }
        }
        if args.limit == Some(0) {
            return Err("--limit must be at least 1".into());
        }
        if args.jobs == 0 || args.jobs > 1024 {
            return Err(format!("--jobs {} must be between 1 and 1024", args.jobs));
        }
        if args.jobs > 1 && args.trace {
            return Err("--trace prints one search at a time: use it without --jobs".into());
        }
        if args.jobs > 1 && !args.record.given().is_empty() {
            return Err(
                "--html, --trace-json and --tree record one search: use them without --jobs".into(),
            );
        }
        let source = match (&args.puzzle, &args.file) {
            (Some(text), _) => Source::Text(text.clone()),
            (None, Some(path)) if path.as_os_str() != "-" => Source::File(path.clone()),
            _ => Source::Stdin,
        };
        let mode = if args.check {
            Mode::Check
        } else if args.count {
            Mode::Count(args.limit)
        } else if args.unique {
            Mode::Unique
        } else {
            Mode::Solve
        };
        let engine_options: Vec<&str> = args
            .search
            .options()
            .given_names()
            .into_iter()
            .chain(args.record.given())
            .chain(args.trace.then_some("--trace"))
            .collect();
        let engine = match args.engine {
            Some(SudokuEngineArg::Csp) => Engine::Csp,
            Some(SudokuEngineArg::Bitmask) => {
                if let Some(option) = engine_options.first() {
                    return Err(format!(
                        "{option} is an option of the general engine, not of --engine bitmask"
                    ));
                }
                Engine::Bitmask
            }
            None if engine_options.is_empty() => Engine::Auto,
            None => Engine::Csp,
        };
        let search = SearchSettings::from_options(
            &args.search.options(),
            Defaults::Sudoku.settings(),
            false,
        )?;
        search.check_restarts(
            matches!(mode, Mode::Solve),
            "not with --count, --unique or --check",
        )?;
        Ok(SudokuJob {
            engine,
            source,
            mode,
            format: args.format,
            alphabet,
            search,
            // Each puzzle's search has the whole time limit, counted from its own start.
            limits: limits(&args.search, &signals.cancel, None)?,
            stats: args.search.stats,
            record: args.record.clone(),
            jobs: args.jobs,
            trace: args.trace,
            cancel: Arc::clone(&signals.cancel),
            blank_models: BlankModels::new(),
        })
    }

    pub fn run(&self, signals: &Signals, mut out: Output) -> Status {
        if self.engine != Engine::Bitmask {
            for note in self.search.notes() {
                eprintln!("csp sudoku: {note}");
            }
        }
        let input: Box<dyn BufRead + Send> = match &self.source {
            Source::Stdin => Box::new(BufReader::new(io::stdin())),
            Source::Text(text) => Box::new(io::Cursor::new(text.clone().into_bytes())),
            Source::File(path) => match File::open(path) {
                Ok(f) => Box::new(BufReader::new(f)),
                Err(e) => {
                    eprintln!("csp sudoku: cannot read {}: {e}", path.display());
                    return Status::BadInput;
                }
            },
        };
        let started = Instant::now();
        let mut run = Run {
            job: self,
            out: &mut out,
            tally: Tally::default(),
            stats: Statistics::default(),
            interrupted: false,
            pictures: Vec::new(),
            recorded: false,
            record_error: None,
            errors_shown: 0,
            errors_held: 0,
            sessions: Sessions::new(&self.blank_models),
        };
        if matches!(self.source, Source::Stdin) && io::stdin().is_terminal() {
            eprintln!(
                "csp sudoku: reading puzzles from the terminal: one per line (81 symbols for \
                 9x9, . for a blank), or a grid of rows and a blank line after it; Ctrl-D ends \
                 the input"
            );
        }
        let read_error = run.read_all(input, &signals.cancel);
        let elapsed = started.elapsed();
        if !run.pictures.is_empty() {
            let picture = crate::render::svg::sudoku(&run.pictures);
            run.out.record(picture.as_bytes());
        }
        if run.errors_held > 0 {
            eprintln!(
                "csp sudoku: {} of errors and notes not shown (the first {MAX_ERROR_LINES} are above)",
                count(run.errors_held, "more line", "more lines")
            );
        }
        let Run {
            tally,
            mut stats,
            interrupted,
            record_error,
            ..
        } = run;
        // Wall-clock time: with --jobs the puzzles' own times overlap.
        stats.elapsed = elapsed;
        if let Some(message) = record_error {
            eprintln!("csp sudoku: {message}");
            return Status::BadInput;
        }
        if let Some(status) = out.finish("csp sudoku") {
            return status;
        }
        let received = if interrupted || signals.cancel.load(Ordering::Relaxed) {
            signals.received()
        } else {
            None
        };
        self.report(&tally, &stats, elapsed, received);
        if let Some((line, e)) = &read_error {
            eprintln!("csp sudoku: cannot read the input at line {line}: {e}");
        }
        let mut status = Status::Success;
        if tally.none > 0 {
            status = status.max(Status::NoSolution);
        }
        if tally.invalid > 0 || read_error.is_some() {
            status = status.max(Status::BadInput);
        }
        if tally.limit > 0 {
            status = status.max(Status::Limit);
        }
        if tally.wrong > 0 {
            status = status.max(Status::WrongAnswer);
        }
        match received {
            Some(Received::Interrupt) => status.max(Status::Interrupted),
            Some(Received::Terminate) => status.max(Status::Terminated),
            None => status,
        }
    }

    fn report(
        &self,
        tally: &Tally,
        stats: &Statistics,
        elapsed: Duration,
        received: Option<Received>,
    ) {
        let parts: Vec<String> = match self.mode {
            Mode::Solve => vec![
                format!("{} solved", tally.solved),
                format!("{} with no solution", tally.none),
            ],
            Mode::Count(_) => vec![format!("{} counted", tally.counted)],
            Mode::Unique => vec![
                format!("{} unique", tally.unique),
                format!("{} multiple", tally.multiple),
                format!("{} with no solution", tally.none),
            ],
            Mode::Check => vec![format!("{} valid", tally.valid)],
        };
        let seconds = elapsed.as_secs_f64();
        let rate = if seconds > 0.0 {
            tally.read as f64 / seconds
        } else {
            0.0
        };
        let stopped = match received {
            Some(signal) => format!(" (stopped by {})", signal.name()),
            None => String::new(),
        };
        let noun = if tally.read == 1 { "puzzle" } else { "puzzles" };
        let wrong = match tally.wrong {
            0 => String::new(),
            n => format!(", {n} wrong answers withheld"),
        };
        eprintln!(
            "csp sudoku: {} {noun} read{stopped}: {}, {} invalid, {} stopped by a limit{wrong}; {seconds:.3} s, {rate:.1} puzzles/s",
            tally.read,
            parts.join(", "),
            tally.invalid,
            tally.limit,
        );
        // A stopped run shows its figures even unasked, as the other commands do.
        let stopped = received.is_some() || tally.limit > 0;
        let format = match (self.stats, stopped) {
            (Some(format), _) => Some(format),
            (None, true) => Some(StatsFormat::Text),
            (None, false) => None,
        };
        if let Some(format) = format {
            let info = RunInfo {
                problem: count(tally.read, "sudoku puzzle", "sudoku puzzles"),
                engine: match self.engine {
                    Engine::Csp => "csp",
                    Engine::Bitmask => "bitmask",
                    Engine::Auto => {
                        "bitmask up to 16x16, bitmask and csp racing up to 64x64, csp above"
                    }
                },
                encoding: None,
                inference: Some(self.search.inference.to_string()),
                var_order: Some(self.search.var_order.to_string()),
                val_order: Some(self.search.value_order.to_string()),
                walk: None,
                restart_scale: self.search.restarts,
            };
            let summary = Summary {
                outcome: match (received, tally.last_limit) {
                    (Some(_), _) => Outcome::LimitReached(Limit::Cancelled),
                    (None, Some(limit)) => Outcome::LimitReached(limit),
                    // A search that stopped at the solutions it was after (the first, or
                    // the second of a puzzle with several) ended solved; one that looked
                    // everywhere (no solution, a unique one, a count) ended exhausted.
                    (None, None) if tally.solved + tally.multiple > 0 => Outcome::Solved,
                    (None, None) => Outcome::Exhausted,
                },
                stats: stats.clone(),
            };
            let signal = received.map(Received::name);
            match format {
                StatsFormat::Json => eprintln!("{}", report::json(&info, &summary, signal)),
                StatsFormat::Text => eprint!("{}", report::text(&info, &summary, signal)),
            }
        }
    }
}

/// The state of one run over the input.
struct Run<'j, 'o> {
    job: &'j SudokuJob,
    out: &'o mut Output,
    tally: Tally,
    stats: Statistics,
    interrupted: bool,
    /// Solved grids for `--format svg`: (givens, solution, symbols).
    pictures: Vec<(Grid, Grid, sudoku::Symbols)>,
    /// Whether the first puzzle's search was recorded (`--html`, `--trace-json`, `--tree`).
    recorded: bool,
    /// A recording that could not be written.
    record_error: Option<String>,
    /// Lines of errors and notes printed, and those held back beyond [`MAX_ERROR_LINES`].
    errors_shown: usize,
    errors_held: u64,
    /// One session per grid size on its blank model, for the general engine's plain solves
    /// when puzzles are answered one at a time: set up once, not once a puzzle.
    sessions: Sessions<'j>,
}

/// How many lines of errors and notes a run prints before it only counts them: a binary file
/// fed by mistake would otherwise print one per line (37,233 for one such file).
const MAX_ERROR_LINES: usize = 20;

impl Run<'_, '_> {
    /// Reads every line, answering each puzzle as soon as it is complete; the error says at
    /// which line the input could not be read. A signal stops the reading too, even while
    /// the input keeps it waiting.
    fn read_all(
        &mut self,
        input: Box<dyn BufRead + Send>,
        cancel: &Arc<AtomicBool>,
    ) -> Option<(usize, io::Error)> {
        let mut reader = Reader::new(self.job.alphabet.clone());
        let mut entries: Vec<Entry> = Vec::new();
        // With several jobs, puzzles are answered a batch at a time; the batch bounds memory.
        let pool = (self.job.jobs > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(self.job.jobs)
                    .build()
                    .ok()
            })
            .flatten();
        let batch_size = self.job.jobs * 64;
        let mut batch: Vec<Entry> = Vec::new();
        let mut poller = Poller::new(&Limits::none().with_cancel(cancel));
        let mut going = true;
        let read = input::for_each_line(input, &mut poller, |line, bytes| {
            reader.feed(line, &String::from_utf8_lossy(bytes), &mut entries);
            for entry in entries.drain(..) {
                going = match &pool {
                    Some(pool) => {
                        batch.push(entry);
                        batch.len() < batch_size || self.answer_batch(pool, &mut batch)
                    }
                    None => self.answer(entry),
                };
                if !going {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        let last = match read {
            Ok(last) => last,
            Err(ReadStop::Io(line, e)) => return Some((line, e)),
            Err(ReadStop::Limit(_)) => {
                self.interrupted = true;
                return None;
            }
        };
        if !going {
            return None;
        }
        reader.finish(last, &mut entries);
        match &pool {
            Some(pool) => {
                batch.append(&mut entries);
                self.answer_batch(pool, &mut batch);
            }
            None => {
                for entry in entries.drain(..) {
                    if !self.answer(entry) {
                        break;
                    }
                }
            }
        }
        None
    }

    /// Answers one puzzle; false when the run must stop (a signal, a closed output).
    fn answer(&mut self, entry: Entry) -> bool {
        let record = !self.recorded && !self.job.record.given().is_empty() && entry.puzzle.is_ok();
        if record {
            self.recorded = true;
        }
        let worked = if self.job.trace {
            // The trace goes to stdout before the puzzle's record: the records so far first.
            self.out.flush();
            let trace = RefCell::new(Output::new());
            let worked = self.job.work(
                entry,
                Working {
                    record,
                    trace: Some(&trace),
                    sessions: None,
                },
            );
            trace.into_inner().flush();
            worked
        } else {
            let working = Working {
                record,
                trace: None,
                sessions: Some(&mut self.sessions),
            };
            self.job.work(entry, working)
        };
        self.emit(worked)
    }

    /// Answers a batch on the job's threads, then hands the answers over in input order.
    fn answer_batch(&mut self, pool: &rayon::ThreadPool, batch: &mut Vec<Entry>) -> bool {
        use rayon::prelude::*;
        let job = self.job;
        let results: Vec<Worked> = pool.install(|| {
            batch
                .par_drain(..)
                .map(|e| job.work(e, Working::default()))
                .collect()
        });
        for worked in results {
            if !self.emit(worked) {
                return false;
            }
        }
        true
    }

    /// Takes one puzzle's answer into the output, the tally and the figures.
    fn emit(&mut self, worked: Worked) -> bool {
        for line in &worked.errors {
            if self.errors_shown < MAX_ERROR_LINES {
                self.errors_shown += 1;
                eprintln!("csp sudoku: {line}");
            } else {
                self.errors_held += 1;
            }
        }
        self.stats.add(&worked.stats);
        if let Some(message) = worked.record_error {
            self.record_error.get_or_insert(message);
        }
        let Some(answer) = worked.answer else {
            self.interrupted = true;
            return false;
        };
        if let Some(picture) = worked.picture {
            if self.pictures.len() < crate::render::svg::MAX_BOARDS {
                self.pictures.push(picture);
            }
        }
        self.tally.add(answer);
        self.out.record(worked.record.as_bytes())
    }
}

/// One puzzle's answer, worked out apart from the output so that puzzles can run in parallel.
#[derive(Default)]
struct Worked {
    /// `None` when a signal stopped the search.
    answer: Option<Answer>,
    record: String,
    /// Lines for stderr, without the `csp sudoku:` prefix.
    errors: Vec<String>,
    stats: Statistics,
    picture: Option<(Grid, Grid, sudoku::Symbols)>,
    record_error: Option<String>,
}

/// How one entry is worked out: `record` attaches the --html/--trace-json/--tree recorders,
/// `trace` prints the search step by step there (one job only), and plain general-engine
/// solves go through `sessions` when given (one job only).
#[derive(Default)]
struct Working<'a, 't> {
    record: bool,
    trace: Option<&'t RefCell<Output>>,
    sessions: Option<&'t mut Sessions<'a>>,
}

impl SudokuJob {
    /// Works out one entry's answer, as `working` says.
    fn work<'a>(&'a self, entry: Entry, working: Working<'a, '_>) -> Worked {
        let line = entry.line;
        let note = entry.puzzle.as_ref().ok().and_then(|p| p.note.clone());
        let mut worked = self.work_on(entry, working);
        if let Some(note) = note {
            worked
                .errors
                .insert(0, format!("line {line}: note: {note}"));
        }
        worked
    }

    fn work_on<'a>(&'a self, entry: Entry, working: Working<'a, '_>) -> Worked {
        let Working {
            record,
            trace,
            sessions,
        } = working;
        let line = entry.line;
        let puzzle = match entry.puzzle {
            Err(e) => {
                return Worked {
                    answer: Some(Answer::Invalid),
                    record: self.simple(line, "invalid", Some(&e.message)),
                    errors: vec![e.to_string()],
                    ..Worked::default()
                }
            }
            Ok(p) => p,
        };
        let invalid = |message: String| Worked {
            answer: Some(Answer::Invalid),
            record: self.simple(line, "invalid", Some(&message)),
            errors: vec![format!("line {line}: {message}")],
            ..Worked::default()
        };
        let violations = puzzle.grid.violations();
        if !violations.is_empty() {
            let what: Vec<String> = violations
                .iter()
                .map(|v| v.describe(&puzzle.symbols))
                .collect();
            return invalid(format!("the givens break the rules: {}", what.join("; ")));
        }
        if self.mode == Mode::Check {
            return Worked {
                answer: Some(Answer::Valid),
                record: self.simple(line, "valid", None),
                ..Worked::default()
            };
        }
        let max = match self.mode {
            Mode::Solve => Some(1),
            Mode::Unique => Some(2),
            Mode::Count(limit) => limit,
            Mode::Check => Some(0),
        };
        let side = puzzle.grid.side();
        let fits_bitmask = side <= sudoku::bitmask::MAX_SIDE;
        match self.engine {
            Engine::Bitmask if !fits_bitmask => {
                return invalid(format!(
                    "a {side}x{side} grid is too large for --engine bitmask (at most 64x64)"
                ))
            }
            // From RACE_FROM_SIDE on neither solver wins every grid: with one job, both run
            // and the first to finish answers; with several, the general one.
            Engine::Auto if fits_bitmask && side >= RACE_FROM_SIDE && self.jobs == 1 => {
                return match self.race(&puzzle, max) {
                    Ok((summary, first)) => self.answer(line, &puzzle, summary, first, None),
                    Err(message) => invalid(message),
                };
            }
            Engine::Auto if side >= RACE_FROM_SIDE => {}
            Engine::Bitmask | Engine::Auto if fits_bitmask => {
                let (summary, first) = solve_bitmask(&puzzle.grid, max, self.limits.clone());
                return self.answer(line, &puzzle, summary, first, None);
            }
            _ => {}
        }
        // A recording or a trace shows the givens in the model's domains, so it gets a model
        // of its own; a plain solve assumes them on the rules built once for this size.
        let shown = record || trace.is_some();
        let unbuilt = |e: csp::ModelError| match e {
            csp::ModelError::TooLarge { .. } => {
                invalid(format!("a {side}x{side} grid is too large: {e}"))
            }
            e => invalid(format!("cannot build the model: {e}")),
        };
        if let (Some(sessions), false) = (sessions, shown) {
            // The session keeps this run's settings, made on the size's first puzzle.
            let solved = sessions.solve(&puzzle.grid, |model| {
                self.search
                    .solver(model)
                    .max_solutions(max)
                    .limits(self.limits.clone())
            });
            return match solved {
                Ok((summary, first)) => self.answer(line, &puzzle, summary, first, None),
                Err(e) => unbuilt(e),
            };
        }
        let own;
        let model = if shown {
            match SudokuModel::new(&puzzle.grid) {
                Ok(m) => {
                    own = m;
                    &own
                }
                Err(e) => return unbuilt(e),
            }
        } else {
            match self.blank_models.get(puzzle.grid.box_size()) {
                Ok(m) => m,
                Err(e) => return unbuilt(e),
            }
        };
        let mut first: Option<Grid> = None;
        let mut solver = self
            .search
            .solver(&model.model)
            .max_solutions(max)
            .limits(self.limits.clone());
        if !shown {
            solver = solver.assume(model.givens(&puzzle.grid));
        }
        let mut on_solution = |s: &csp::Solution<'_>| {
            if first.is_none() {
                first = Some(model.grid(s));
            }
            ControlFlow::Continue(())
        };
        let mut record_error = None;
        let problem = format!("the sudoku on line {line}");
        let config = format!("engine csp, {}", self.search.describe());
        let mut named = trace.map(|out| {
            let mut named = NamedTrace::new(
                out,
                self.cancel.clone(),
                &model.model,
                self.search.inference,
            );
            named.header(&problem, &config);
            named
        });
        let extra = named.as_mut().map(|t| t as &mut dyn csp::Observer);
        let summary = if !record {
            match extra {
                None => solver.solve(&mut on_solution),
                Some(trace) => solver.solve_observed(trace, &mut on_solution),
            }
        } else {
            match Recordings::open(
                &self.record,
                &model.model,
                Board::Sudoku(model.cells.len()),
                &problem,
                &config,
            ) {
                Err(message) => {
                    record_error = Some(message);
                    solver.solve(&mut on_solution)
                }
                Ok(mut recordings) => {
                    let summary = match observers(&mut recordings, extra) {
                        None => solver.solve(&mut on_solution),
                        Some(all) => solver.solve_observed(all, &mut on_solution),
                    };
                    let stopped_by = report::stopper(summary.outcome, None);
                    if let Err(message) = recordings.finish(&model.model, &summary, stopped_by) {
                        record_error = Some(message);
                    }
                    summary
                }
            }
        };
        drop(named);
        self.answer(line, &puzzle, summary, first, record_error)
    }

    /// The bitmask solver and the general engine side by side ([`sudoku::race`]), the
    /// engine with this run's settings.
    fn race(&self, puzzle: &Puzzle, max: Option<u64>) -> Result<(Summary, Option<Grid>), String> {
        let model = self
            .blank_models
            .get(puzzle.grid.box_size())
            .map_err(|e| format!("cannot build the model: {e}"))?;
        let engine = self.search.solver(&model.model);
        sudoku::race(&puzzle.grid, model, engine, max, &self.limits)
            .ok_or_else(|| "both solvers failed".to_owned())
    }

    /// The record and tally entry for a puzzle searched by either engine.
    fn answer(
        &self,
        line: usize,
        puzzle: &Puzzle,
        summary: Summary,
        first: Option<Grid>,
        record_error: Option<String>,
    ) -> Worked {
        let mut worked = Worked {
            stats: summary.stats.clone(),
            record_error,
            ..Worked::default()
        };
        let found = summary.stats.solutions;
        if summary.outcome == Outcome::LimitReached(Limit::Cancelled) {
            return worked;
        }
        // Every solution is checked before anything is said about it: a grid that breaks a
        // rule or moves a given is withheld, and the run ends with its own exit status.
        if first
            .as_ref()
            .is_some_and(|grid| !grid.solves(&puzzle.grid))
        {
            worked.answer = Some(Answer::Wrong);
            worked.record = self.simple(line, "error", None);
            worked.errors.push(format!(
                "line {line}: internal error: the answer found breaks the rules or a given, \
                 so it is withheld (a bug in csp: please report it)"
            ));
            return worked;
        }
        let (answer, text) = if let Outcome::LimitReached(limit) = summary.outcome {
            (Answer::Limit(limit), self.simple(line, "limit", None))
        } else {
            match (self.mode, first) {
                (Mode::Solve, Some(solution)) => {
                    let (text, picture) = self.solution(line, puzzle, &solution);
                    worked.picture = picture;
                    (Answer::Solved, text)
                }
                (Mode::Solve, None) | (Mode::Unique, None) => {
                    (Answer::NoSolution, self.simple(line, "none", None))
                }
                (Mode::Unique, Some(_)) if found == 1 => {
                    (Answer::Unique, self.simple(line, "unique", None))
                }
                (Mode::Unique, Some(_)) => (Answer::Multiple, self.simple(line, "multiple", None)),
                (Mode::Count(limit), _) => {
                    // Stopped at `--limit K`: there are at least K.
                    let capped = summary.outcome == Outcome::Solved && limit.is_some();
                    (Answer::Counted, self.count(line, found, capped))
                }
                (Mode::Check, _) => (Answer::Valid, self.simple(line, "valid", None)),
            }
        };
        worked.answer = Some(answer);
        worked.record = text;
        worked
    }

    fn simple(&self, line: usize, word: &str, error: Option<&str>) -> String {
        if self.format == Some(SudokuFormat::Svg) {
            return String::new();
        }
        if self.format == Some(SudokuFormat::Json) {
            let mut record = json!({ "line": line, "status": word });
            if let Some(error) = error {
                record["error"] = json!(error);
            }
            format!("{record}\n")
        } else {
            format!("{word}\n")
        }
    }

    /// A count's record; `capped` when `--limit K` stopped it at K (there are at least K).
    fn count(&self, line: usize, found: u64, capped: bool) -> String {
        if self.format == Some(SudokuFormat::Svg) {
            return String::new();
        }
        if self.format == Some(SudokuFormat::Json) {
            let mut record = json!({ "line": line, "status": "counted", "count": found });
            if capped {
                record["at_least"] = json!(true);
            }
            format!("{record}\n")
        } else if capped {
            format!("{found}+\n")
        } else {
            format!("{found}\n")
        }
    }

    /// The record for a solution, or the picture to draw for `--format svg`.
    fn solution(
        &self,
        line: usize,
        puzzle: &Puzzle,
        solution: &Grid,
    ) -> (String, Option<(Grid, Grid, sudoku::Symbols)>) {
        let shape = match self.format {
            None => Shape::AsGiven,
            Some(SudokuFormat::Line) | Some(SudokuFormat::Json) => Shape::Line,
            Some(SudokuFormat::Grid) => Shape::Grid,
            Some(SudokuFormat::Svg) => {
                let picture = (
                    puzzle.grid.clone(),
                    solution.clone(),
                    puzzle.symbols.clone(),
                );
                return (String::new(), Some(picture));
            }
        };
        let text = puzzle.layout.render(solution, &puzzle.symbols, shape);
        if self.format == Some(SudokuFormat::Json) {
            let record = json!({ "line": line, "status": "solved", "solution": text.trim_end() });
            (format!("{record}\n"), None)
        } else {
            (text, None)
        }
    }
}

#[cfg(test)]
#[path = "../tests/sudoku_check.rs"]
mod tests;
