//! `csp queens`: checks the arguments against each other, runs the chosen engine, and streams
//! the boards.

use crate::args::{EncodingArg, EngineArg, Format, QueensArgs, RecordArgs, StatsFormat};
use crate::exit_code::Status;
use crate::output::Output;
use crate::recordings::{observers, Recordings};
use crate::render::replay::Board;
use crate::render::report::{self, RunInfo};
use crate::render::trace::{QueensTrace, MAX_TRACE_N};
use crate::search_options::limits;
use crate::signals::{Received, Signals};
use csp::{Limit, Limits, ModelError, Outcome, Poller, Statistics, Summary, VarOrder};
use csp_policy::Defaults;
use csp_policy::SearchSettings;
use nqueens::bitmask::{self, Bitmask};
use nqueens::{Encoding, QueensModel};
use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::Instant;

/// The largest N traced without a limit: 8-queens' full trace is already about 15,000 lines.
const MAX_UNLIMITED_TRACE_N: usize = 8;

/// What the csp engine may use for one model before we refuse to build it.
const CSP_MEMORY_BUDGET: u64 = 4 << 30;

/// The csp engine's settings for queens.
#[derive(Copy, Clone, Debug)]
struct CspSettings {
    encoding: Encoding,
    search: SearchSettings,
}

#[derive(Copy, Clone, Debug)]
enum Engine {
    Csp(CspSettings),
    Bitmask,
    MinConflicts { seed: u64 },
}

/// The largest board min-conflicts takes: its counters need about 20 bytes a row.
const MAX_MIN_CONFLICTS_N: u64 = 200_000_000;

/// A validated `queens` run.
pub struct QueensJob {
    n: usize,
    engine: Engine,
    count: bool,
    max_solutions: Option<u64>,
    format: Format,
    empty: char,
    stats: Option<StatsFormat>,
    trace: bool,
    limits: Limits,
    record: RecordArgs,
    threads: usize,
    /// The 0-based part and the number of parts.
    shard: Option<(u64, u64)>,
    symmetry: bool,
    /// Lines for stderr before the run, about choices the user may not expect.
    notes: Vec<String>,
    /// When the run started: the time limit and the reported time count from here, so that
    /// building the model counts too.
    started: Instant,
}

impl QueensJob {
    /// Checks the arguments against each other; the error is one line for the user. The time
    /// limit counts from `started`, the start of the run.
    pub fn from_args(
        args: &QueensArgs,
        signals: &Signals,
        started: Instant,
    ) -> Result<Self, String> {
        let mut csp_options = args.search.options().given_names();
        if args.encoding.is_some() {
            csp_options.push("--encoding");
        }
        if args.trace {
            csp_options.push("--trace");
        }
        csp_options.extend(args.record.given());
        let engine_arg = match args.engine {
            Some(e) => e,
            // Counting without any csp option: the fastest way to the number.
            None if (args.count || args.threads > 1)
                && csp_options.is_empty()
                && args.n <= bitmask::MAX_N as u64 =>
            {
                EngineArg::Bitmask
            }
            None => EngineArg::Csp,
        };
        if engine_arg == EngineArg::Bitmask {
            if let Some(option) = csp_options.first() {
                return Err(format!("{option} applies to --engine csp only"));
            }
            if args.n > bitmask::MAX_N as u64 {
                return Err(format!(
                    "N = {} is too large for --engine bitmask (at most {})",
                    args.n,
                    bitmask::MAX_N
                ));
            }
        }
        if engine_arg == EngineArg::MinConflicts {
            return Self::min_conflicts(args, signals, started);
        }
        let encoding = match args.encoding {
            Some(EncodingArg::Binary) => Encoding::Binary,
            Some(EncodingArg::Alldiff) | None => Encoding::AllDiff,
        };
        let n = check_csp_size(args.n, engine_arg, encoding)?;
        if args.threads == 0 || args.threads > 1024 {
            return Err(format!(
                "--threads {} must be between 1 and 1024",
                args.threads
            ));
        }
        if args.threads > 1 && engine_arg != EngineArg::Bitmask {
            return Err("--threads applies to --engine bitmask only".into());
        }
        if args.threads > 1 && args.search.node_limit.is_some() {
            return Err(
                "--node-limit stops after an exact number of placements, which takes one thread: drop --threads"
                    .into(),
            );
        }
        let shard = args.shard.as_deref().map(parse_shard).transpose()?;
        let max_solutions = if args.first { Some(1) } else { args.limit };
        let one_solution = max_solutions == Some(1) && !args.count && shard.is_none();
        let random_restarts = one_solution
            && args.search.val_order.is_none()
            && args
                .search
                .var_order
                .is_some_and(|order| order != VarOrder::Input);
        let defaults = if random_restarts {
            Defaults::QueensFirstDynamic
        } else {
            Defaults::Queens
        }
        .settings();
        let search = SearchSettings::from_options(&args.search.options(), defaults, false)?;
        if args.limit == Some(0) {
            return Err("--limit must be at least 1".into());
        }
        if args.empty_char == 'Q' || args.empty_char.is_control() {
            return Err(format!(
                "--empty-char {:?} would not be readable; pick a visible character other than Q",
                args.empty_char
            ));
        }
        let limits = limits(&args.search, &signals.cancel, Some(started))?;
        search.check_restarts(one_solution, "add --first")?;
        if args.trace {
            if args.format != Format::Board {
                return Err(
                    "--trace prints the search as text, boards included, so --format does not \
                     apply; for JSON, write the events with --trace-json FILE"
                        .into(),
                );
            }
            if n > MAX_TRACE_N {
                return Err(format!("--trace draws boards of at most N = {MAX_TRACE_N}"));
            }
            if n > MAX_UNLIMITED_TRACE_N && max_solutions.is_none() && limits.nodes.is_none() {
                return Err(format!(
                    "--trace prints every step; above N = {MAX_UNLIMITED_TRACE_N} add --first, --limit K or --node-limit K"
                ));
            }
        }
        // Recording needs the engine's steps: say so when that is all that moved a count off
        // the bitmask engine, which would have been much faster.
        let recorded_only = args.engine.is_none()
            && args.count
            && args.search.options().given_names().is_empty()
            && args.encoding.is_none()
            && !args.trace
            && !args.record.given().is_empty();
        let mut notes: Vec<String> = search.notes();
        let recorded_note = (recorded_only && engine_arg == EngineArg::Csp).then(|| {
            format!(
                "note: {} records the steps of the csp engine, so the count runs there (fc, \
                 input order) rather than on the faster bitmask engine, the default for --count",
                args.record.given().join(", ")
            )
        });
        notes.extend(recorded_note);
        let engine = match engine_arg {
            EngineArg::Bitmask => Engine::Bitmask,
            // Handled above; kept total so that a new engine cannot slip through.
            EngineArg::MinConflicts => Engine::MinConflicts { seed: 1 },
            EngineArg::Csp => Engine::Csp(CspSettings {
                encoding: match args.encoding {
                    Some(EncodingArg::Binary) => Encoding::Binary,
                    Some(EncodingArg::Alldiff) | None => Encoding::AllDiff,
                },
                search,
            }),
        };
        Ok(QueensJob {
            n,
            engine,
            count: args.count,
            max_solutions,
            format: args.format,
            empty: args.empty_char,
            stats: args.search.stats,
            trace: args.trace,
            limits,
            record: args.record.clone(),
            threads: args.threads,
            shard,
            symmetry: args.up_to_symmetry,
            notes,
            started,
        })
    }

    /// `--engine min-conflicts`: one solution, any board size the memory allows.
    fn min_conflicts(
        args: &QueensArgs,
        signals: &Signals,
        started: Instant,
    ) -> Result<Self, String> {
        let mut given: Vec<&str> = args
            .search
            .options()
            .given_names()
            .into_iter()
            .filter(|o| *o != "--seed")
            .collect();
        if args.encoding.is_some() {
            given.push("--encoding");
        }
        if args.trace {
            given.push("--trace");
        }
        given.extend(args.record.given());
        if args.threads > 1 {
            given.push("--threads");
        }
        if args.up_to_symmetry {
            given.push("--up-to-symmetry");
        }
        if let Some(option) = given.first() {
            return Err(format!("{option} does not apply to --engine min-conflicts"));
        }
        if args.count || !(args.first || args.limit == Some(1)) {
            return Err("--engine min-conflicts finds one solution: use --first".into());
        }
        if args.n > MAX_MIN_CONFLICTS_N {
            return Err(format!(
                "N = {} is too large for --engine min-conflicts (at most {MAX_MIN_CONFLICTS_N})",
                args.n
            ));
        }
        Ok(QueensJob {
            n: args.n as usize,
            engine: Engine::MinConflicts {
                seed: args.search.seed.unwrap_or(1),
            },
            count: false,
            max_solutions: Some(1),
            format: args.format,
            empty: args.empty_char,
            stats: args.search.stats,
            trace: false,
            limits: limits(&args.search, &signals.cancel, Some(started))?,
            record: RecordArgs::default(),
            threads: 1,
            shard: None,
            symmetry: false,
            notes: Vec::new(),
            started,
        })
    }

    fn run_info(&self) -> RunInfo {
        let problem = format!("{}-queens", self.n);
        match self.engine {
            Engine::MinConflicts { .. } => RunInfo::bare(problem, "min-conflicts"),
            Engine::Bitmask => RunInfo {
                // A count without a node limit walks one board per symmetry class, about half
                // the placements of the plain walk a listing makes: say which was counted.
                walk: Some(
                    if self.count && self.limits.nodes.is_none() && self.n >= 6 {
                        "classes"
                    } else {
                        "plain"
                    },
                ),
                ..RunInfo::bare(problem, "bitmask")
            },
            Engine::Csp(s) => RunInfo {
                problem,
                engine: "csp",
                encoding: Some(s.encoding.to_string()),
                inference: Some(s.search.inference.to_string()),
                var_order: Some(s.search.var_order.to_string()),
                val_order: Some(s.search.value_order.to_string()),
                walk: None,
                restart_scale: s.search.restarts,
            },
        }
    }

    /// Runs the job, streaming to `out`; returns the exit status.
    pub fn run(&self, signals: &Signals, out: Output) -> Status {
        for note in &self.notes {
            eprintln!("csp queens: {note}");
        }
        let limits = self.limits.clone();
        let out = RefCell::new(out);
        let mut printer = Printer::new(self.n, self.format, self.empty, self.count);
        printer.symmetry = self.symmetry;
        let summary = match self.engine {
            Engine::MinConflicts { seed } => {
                let mut stats = Statistics::default();
                let outcome = match self.n {
                    2 | 3 => Outcome::Exhausted,
                    0 => {
                        stats.solutions = 1;
                        printer.take(&[], &mut out.borrow_mut());
                        Outcome::Solved
                    }
                    n => {
                        let (found, figures) =
                            nqueens::min_conflicts::solve(n as u32, seed, &limits);
                        stats = figures;
                        match found {
                            Ok(found) if !nqueens::min_conflicts::verify(&found) => {
                                eprintln!(
                                    "csp: internal error: min-conflicts returned an invalid board"
                                );
                                return Status::BadInput;
                            }
                            Ok(found) => {
                                let columns: Vec<usize> =
                                    found.iter().map(|&c| c as usize).collect();
                                printer.take(&columns, &mut out.borrow_mut());
                                Outcome::Solved
                            }
                            Err(limit) => Outcome::LimitReached(limit),
                        }
                    }
                };
                Summary { outcome, stats }
            }
            Engine::Bitmask => {
                let Some(solver) = Bitmask::new(self.n) else {
                    return Status::BadInput;
                };
                let mut solver = solver.limits(limits).threads(self.threads);
                if let Some((index, parts)) = self.shard {
                    match solver.shard(index as usize, parts as usize) {
                        Some(s) => solver = s,
                        None => return Status::BadInput,
                    }
                }
                if self.count && self.max_solutions.is_none() && !self.symmetry {
                    crate::progress::count_with_bar(self.n, |tick| solver.count_with_progress(tick))
                } else if self.count && self.max_solutions.is_none() {
                    let (summary, classes) = solver.count_classes();
                    printer.kept = classes;
                    summary
                } else {
                    solver.solve(|columns| {
                        let more = printer.take(columns, &mut out.borrow_mut());
                        stop_after(more, printer.kept, self.max_solutions)
                    })
                }
            }
            Engine::Csp(settings) => {
                // Building the model counts against the time limit: at 100,000 rows it fills
                // gigabytes.
                let mut poller = Poller::new(&limits);
                let queens = match QueensModel::build(self.n, settings.encoding, &mut poller) {
                    Ok(q) => q,
                    Err(ModelError::Stopped(limit)) => {
                        let summary = Summary {
                            outcome: Outcome::LimitReached(limit),
                            stats: Statistics::default(),
                        };
                        let by =
                            report::stopper(summary.outcome, self.signal_name(&summary, signals))
                                .unwrap_or("a limit");
                        eprintln!("csp: {by} stopped the run while the model was being built");
                        let records: Vec<&str> = self
                            .record
                            .given()
                            .into_iter()
                            .map(|option| match option {
                                "--html" => "replay page (--html)",
                                "--trace-json" => "trace (--trace-json)",
                                _ => "tree (--tree)",
                            })
                            .collect();
                        if !records.is_empty() {
                            eprintln!(
                                "csp: wrote no {}: there was no search to record",
                                records.join(" and no ")
                            );
                        }
                        return self.finish(
                            summary,
                            signals.received(),
                            &mut printer,
                            &mut out.into_inner(),
                        );
                    }
                    Err(e) => {
                        eprintln!("csp: cannot build the model: {e}");
                        return Status::BadInput;
                    }
                };
                let mut solver = settings
                    .search
                    .solver(&queens.model)
                    .max_solutions(if self.symmetry {
                        None
                    } else {
                        self.max_solutions
                    })
                    .limits(limits);
                if let Some((index, parts)) = self.shard {
                    solver = solver.shard(index, parts);
                }
                let mut columns = vec![0usize; self.n];
                let mut on_solution = |s: &csp::Solution<'_>| {
                    for (slot, &v) in columns.iter_mut().zip(s.values()) {
                        *slot = v as usize;
                    }
                    let more = if self.trace {
                        out.borrow().is_open()
                    } else {
                        printer.take(&columns, &mut out.borrow_mut())
                    };
                    if self.symmetry {
                        stop_after(more, printer.kept, self.max_solutions)
                    } else if more {
                        ControlFlow::Continue(())
                    } else {
                        ControlFlow::Break(())
                    }
                };
                let problem = format!("{}-queens", self.n);
                let mut recordings = match Recordings::open(
                    &self.record,
                    &queens.model,
                    Board::Queens,
                    &problem,
                    &format!("engine csp, {}", describe(settings)),
                ) {
                    Ok(r) => r,
                    Err(message) => {
                        eprintln!("csp queens: {message}");
                        return Status::BadInput;
                    }
                };
                let mut trace = self.trace.then(|| {
                    let mut trace = QueensTrace::new(
                        &out,
                        signals.cancel.clone(),
                        &queens.model,
                        settings.search.inference,
                        self.n,
                    );
                    trace.header(&describe(settings));
                    trace
                });
                let summary = match observers(
                    &mut recordings,
                    trace.as_mut().map(|t| t as &mut dyn csp::Observer),
                ) {
                    None => solver.solve(&mut on_solution),
                    Some(all) => solver.solve_observed(all, &mut on_solution),
                };
                drop(trace);
                let stopped_by =
                    report::stopper(summary.outcome, self.signal_name(&summary, signals));
                if let Err(message) = recordings.finish(&queens.model, &summary, stopped_by) {
                    eprintln!("csp queens: {message}");
                    return Status::BadInput;
                }
                summary
            }
        };
        let mut out = out.into_inner();
        self.finish(summary, signals.received(), &mut printer, &mut out)
    }

    /// The signal behind a cancelled run, by name.
    fn signal_name(&self, summary: &Summary, signals: &Signals) -> Option<&'static str> {
        match summary.outcome {
            Outcome::LimitReached(Limit::Cancelled) => signals.received().map(Received::name),
            _ => None,
        }
    }

    /// Closes the output, reports, and decides the exit status.
    fn finish(
        &self,
        mut summary: Summary,
        received: Option<Received>,
        printer: &mut Printer,
        out: &mut Output,
    ) -> Status {
        // The run's wall-clock time, building the model included, as the time limit counts it.
        summary.stats.elapsed = self.started.elapsed();
        if out.is_closed() {
            return Status::Success;
        }
        let signal = match summary.outcome {
            Outcome::LimitReached(Limit::Cancelled) => received,
            _ => None,
        };
        let stopped = matches!(summary.outcome, Outcome::LimitReached(_));
        let found = summary.stats.solutions;
        // `--limit K` (or `--first`) stopped the count at K: there are at least that many.
        let capped = self.count && summary.outcome == Outcome::Solved;
        if self.count && !stopped {
            let kept = printer.kept;
            let (plus, at_least) = if capped {
                ("+", ",\"at_least\":true")
            } else {
                ("", "")
            };
            let line = match (self.format == Format::Json, self.symmetry) {
                (true, false) => format!("{{\"solutions\":{found}{at_least}}}\n"),
                (true, true) => {
                    format!("{{\"solutions\":{found},\"classes\":{kept}{at_least}}}\n")
                }
                (false, false) => format!("{found}{plus}\n"),
                (false, true) => format!("{found}{plus} {kept}{plus}\n"),
            };
            out.record(line.as_bytes());
        } else if !self.count && !self.trace {
            printer.close(out);
        }
        if let Some(status) = out.finish("csp queens") {
            return status;
        }
        let info = self.run_info();
        let signal_name = signal.map(Received::name);
        let status = match (summary.outcome, signal) {
            (Outcome::LimitReached(_), Some(Received::Interrupt)) => Status::Interrupted,
            (Outcome::LimitReached(_), Some(Received::Terminate)) => Status::Terminated,
            (Outcome::LimitReached(_), None) => Status::Limit,
            _ if found == 0 && !self.count => Status::NoSolution,
            _ if self.symmetry && printer.kept == 0 && !self.count => Status::NoSolution,
            _ => Status::Success,
        };
        let status = if printer.wrong > 0 {
            eprintln!(
                "csp: {} withheld: the solver has a bug; please report it",
                crate::wording::count(printer.wrong, "wrong board", "wrong boards")
            );
            status.max(Status::WrongAnswer)
        } else {
            status
        };
        if capped {
            eprintln!(
                "csp: the count stopped at its limit of {}: there are at least that many",
                self.max_solutions.unwrap_or(1)
            );
        }
        if let Some(by) = report::stopper(summary.outcome, signal_name) {
            let what = if self.count {
                "partial count"
            } else {
                "solutions printed"
            };
            eprintln!("csp: stopped by {by}; {what}: {found}");
        } else if status == Status::NoSolution {
            eprintln!("csp: no solution for {}", info.problem);
        }
        let stats_format = match (self.stats, stopped) {
            (Some(format), _) => Some(format),
            (None, true) => Some(StatsFormat::Text),
            (None, false) => None,
        };
        match stats_format {
            Some(StatsFormat::Json) => eprintln!("{}", report::json(&info, &summary, signal_name)),
            Some(StatsFormat::Text) => eprint!("{}", report::text(&info, &summary, signal_name)),
            None => {}
        }
        status
    }
}

/// Appends `value` in decimal; a huge board's columns are millions of numbers.
fn push_number(out: &mut String, mut value: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// `I/K` (I from 1 to K) as a 0-based part and a number of parts.
fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard '{text}': expected I/K with 1 <= I <= K, such as 2/8");
    let (i, k) = text.split_once('/').ok_or_else(bad)?;
    let (i, k): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        k.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || i > k {
        return Err(bad());
    }
    Ok((i - 1, k))
}

/// Whether to go on after the `taken`-th solution.
fn stop_after(more: bool, taken: u64, max: Option<u64>) -> ControlFlow<()> {
    if !more || max.is_some_and(|k| taken >= k) {
        ControlFlow::Break(())
    } else {
        ControlFlow::Continue(())
    }
}

fn describe(s: CspSettings) -> String {
    format!("{} encoding, {}", s.encoding, s.search.describe())
}

/// N as the csp engine can hold it, or why not.
fn check_csp_size(n: u64, engine: EngineArg, encoding: Encoding) -> Result<usize, String> {
    if engine == EngineArg::Bitmask {
        return Ok(n as usize);
    }
    // Wider domains are held as bounds and holes, slow for a board's thousands of holes.
    if n > csp::BITSET_SPAN_LIMIT {
        return Err(format!(
            "N = {n} is too large for the csp engine (at most {}); for one solution, use \
             --engine min-conflicts --first",
            csp::BITSET_SPAN_LIMIT
        ));
    }
    // The search's bitset domains plus, for the binary encoding, the 3·n(n-1)/2 constraints
    // at about 120 bytes each with their names.
    let domain_bytes = n * n.div_ceil(64) * 8;
    let constraint_bytes = match encoding {
        Encoding::Binary => 3 * n * n.saturating_sub(1) / 2 * 120,
        Encoding::AllDiff => 0,
    };
    let needed = domain_bytes + constraint_bytes;
    if needed > CSP_MEMORY_BUDGET {
        return Err(format!(
            "N = {n} would need about {} MiB for the csp engine (the limit is {} MiB); \
             for one solution of a board this large, use --engine min-conflicts --first",
            needed >> 20,
            CSP_MEMORY_BUDGET >> 20,
        ));
    }
    usize::try_from(n).map_err(|_| format!("N = {n} is too large"))
}

/// Formats solutions one whole record at a time.
struct Printer {
    n: usize,
    format: Format,
    empty: char,
    count_only: bool,
    printed: u64,
    record: String,
    /// Boards kept for `--format svg`, drawn at the end.
    pictures: Vec<Vec<usize>>,
    /// Keep only the smallest board of each symmetry class.
    symmetry: bool,
    /// Solutions kept: every one, or one per class.
    kept: u64,
    scratch: Vec<usize>,
    /// Which columns and diagonals the board being checked holds, reused from one to the next.
    taken: Vec<bool>,
    /// Solutions that failed the check and were withheld.
    wrong: u64,
}

impl Printer {
    fn new(n: usize, format: Format, empty: char, count_only: bool) -> Self {
        Printer {
            n,
            format,
            empty,
            count_only,
            printed: 0,
            record: String::new(),
            pictures: Vec::new(),
            symmetry: false,
            kept: 0,
            scratch: Vec::new(),
            taken: Vec::new(),
            wrong: 0,
        }
    }

    /// Takes one solution: drops it if another of its class stands for it, else prints it.
    fn take(&mut self, columns: &[usize], out: &mut Output) -> bool {
        if self.symmetry && !nqueens::symmetry::is_canonical(columns, &mut self.scratch) {
            return true;
        }
        self.kept += 1;
        self.solution(columns, out)
    }

    /// Prints one solution; false once nothing more can be written.
    fn solution(&mut self, columns: &[usize], out: &mut Output) -> bool {
        if self.count_only {
            return true;
        }
        if !nqueens::attack_free(columns, &mut self.taken) {
            self.wrong += 1;
            if self.wrong == 1 {
                eprintln!(
                    "csp: internal error: a board found has two queens attacking each other, so \
                     it is withheld (a bug in csp: please report it)"
                );
            }
            return true;
        }
        self.record.clear();
        match self.format {
            Format::Svg => {
                self.printed += 1;
                if self.pictures.len() < crate::render::svg::MAX_BOARDS {
                    self.pictures.push(columns.to_vec());
                    return true;
                }
                eprintln!(
                    "csp: --format svg draws at most {} boards; add --limit K",
                    crate::render::svg::MAX_BOARDS
                );
                return false;
            }
            Format::Board => {
                if self.printed > 0 {
                    self.record.push('\n');
                }
                for &c in columns {
                    self.push_row(c);
                    self.record.push('\n');
                }
                if self.n == 0 {
                    self.record.push('\n');
                }
            }
            Format::Cols => {
                for (i, c) in columns.iter().enumerate() {
                    if i > 0 {
                        self.record.push(' ');
                    }
                    push_number(&mut self.record, *c);
                }
                self.record.push('\n');
            }
            Format::Json => {
                self.record.push(if self.printed == 0 { '[' } else { ',' });
                self.record.push('[');
                for (i, &c) in columns.iter().enumerate() {
                    if i > 0 {
                        self.record.push(',');
                    }
                    self.record.push('"');
                    self.push_row(c);
                    self.record.push('"');
                }
                self.record.push(']');
            }
        }
        self.printed += 1;
        out.record(self.record.as_bytes())
    }

    fn push_row(&mut self, column: usize) {
        for i in 0..self.n {
            self.record.push(if i == column { 'Q' } else { self.empty });
        }
    }

    /// Ends the stream: closes the JSON array, or draws the picture.
    fn close(&mut self, out: &mut Output) {
        if self.format == Format::Svg && !self.pictures.is_empty() {
            out.record(crate::render::svg::queens(&self.pictures, self.n).as_bytes());
        }
        if self.format == Format::Json {
            let end = if self.printed == 0 { "[]\n" } else { "]\n" };
            out.record(end.as_bytes());
        }
    }
}
