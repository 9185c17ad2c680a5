//! The command line as clap sees it: raw arguments, before any of them is checked against the
//! others (that is `queens::QueensJob::from_args`).

use crate::choice::EngineChoice;
use crate::exit_code::Status;
use clap::{Args, Parser, Subcommand, ValueEnum};
use csp::{Inference, ValueOrder, VarOrder};

/// The text after `--help`: examples, then the exit codes.
fn help_footer(examples: &str) -> String {
    format!("{examples}\n\n{}", Status::TABLE)
}

const EXAMPLES: &str = "\
Examples:
  csp queens 8                      every solution of 8-queens, as boards
  csp queens 8 --count              92
  csp queens 6 --trace              watch the search, step by step
  csp queens 12 --count --inference none --stats
                                    plain backtracking, with its statistics
  csp queens 30 --first --var-order mrv --format cols";

/// A constraint-satisfaction toolkit: N-Queens and other puzzles on one engine that can run
/// plain backtracking, forward checking or arc consistency.
#[derive(Debug, Parser)]
#[command(name = "csp", version, after_help = help_footer(EXAMPLES))]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Place N queens on an N x N board so that none attacks another.
    #[command(after_help = help_footer(QUEENS_NOTES))]
    Queens(QueensArgs),
    /// Solve, count or check sudoku of any size, one record per puzzle, in input order.
    #[command(after_help = help_footer(SUDOKU_NOTES))]
    Sudoku(SudokuArgs),
    /// Colour a DIMACS graph with K colours, or find its chromatic number.
    #[command(after_help = help_footer(COLOR_NOTES))]
    Color(ColorArgs),
    /// Run the same problem under several configurations and compare their figures.
    #[command(subcommand, after_help = help_footer(COMPARE_NOTES))]
    Compare(CompareCommand),
    /// Solve a FlatZinc model (what `minizinc --solver csp` hands over), printing its
    /// solutions as the FlatZinc protocol says.
    #[command(after_help = FZN_NOTES)]
    Fzn(FznArgs),
    /// Register csp with MiniZinc, so that `minizinc --solver csp` runs models on it.
    #[command(name = "minizinc-setup", after_help = MINIZINC_SETUP_NOTES)]
    MinizincSetup(MinizincSetupArgs),
    /// Solve an XCSP3 instance (.xml or .xml.lzma), printing the competition's answer lines.
    #[command(after_help = XCSP3_NOTES)]
    Xcsp3(Xcsp3Args),
    /// Cut a FlatZinc or XCSP3 model into cubes, one JSON line each, for other processes or
    /// machines to search (`csp fzn|xcsp3 MODEL --cube FILE:I`, then `csp merge`).
    #[command(after_help = SPLIT_NOTES)]
    Split(SplitArgs),
    /// Merge the results of a split's cubes into the model's answer, naming missing cubes.
    #[command(after_help = MERGE_NOTES)]
    Merge(MergeArgs),
}

const SPLIT_NOTES: &str = "\
Each line of the output is one cube: {\"cube\":I,\"of\":N,\"model\":FINGERPRINT,\"literals\":[...]}.
The cubes partition the search space exactly (no solution in two, none in none): a
breadth-first walk propagates each part under arc consistency and cuts it on the variable with
the smallest domain (one part per value, or the halves of a wide domain; the objective and
the variables FlatZinc introduced last) until there are at least N; parts propagation
refutes are left out, so an unsatisfiable model may have no cube at all. Aim for 30 to 100
cubes per worker: the slow ones even out.

Then each cube is searched on its own, as `csp fzn` or `csp xcsp3` would search the whole
model, and writes one JSON result (--result FILE, else stdout); the index I defaults to
SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) where set:
  csp split model.fzn --cubes 200 > cubes.jsonl
  csp fzn model.fzn -a --cube cubes.jsonl:17 --result results/17.json
  csp merge results/*.json
docs/distributed.md has a Slurm array script and a Kubernetes Indexed Job manifest.

Exit status: 0 the cubes were written (none: propagation proved the model unsatisfiable),
2 the model could not be read, 3 a limit stopped the split (nothing written), 130/143
interrupted.";

const MERGE_NOTES: &str = "\
Prints the answer: `count N (complete)`, `optimum V` or `satisfiable` with the solution found,
`unsatisfiable`, or what is known so far with the cubes that have no result (a task that never
ended) or whose search a limit stopped. A cube's results from a retried task count once. A
file that is not a result is named on stderr and its cube counts as missing.

Exit status: 0 the answer is complete, 3 it is not (cubes missing or stopped), 2 no file
holds a result, or results of different splits or models were given.";

/// What `csp split` cuts.
#[derive(Debug, Args)]
pub struct SplitArgs {
    /// The model: a FlatZinc file (.fzn) or an XCSP3 instance (.xml, .xml.lzma).
    #[arg(value_name = "MODEL")]
    pub file: std::path::PathBuf,

    /// At least this many cubes, where the model has that many parts.
    #[arg(long, value_name = "N", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub cubes: u64,

    /// Stop splitting after SECS seconds (nothing is written then).
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<String>,
}

/// The results `csp merge` reads.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The cubes' result files (`csp fzn|xcsp3 --cube ... --result FILE`).
    #[arg(value_name = "RESULT", required = true)]
    pub files: Vec<std::path::PathBuf>,

    /// The merged answer as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Searching one cube of a split, in place of the whole model (`csp fzn`, `csp xcsp3`).
#[derive(Debug, Args, Default, Clone)]
pub struct CubeArgs {
    /// Search only cube I of the cubes `csp split` wrote to FILE, and write its result as
    /// JSON (counting every solution with -a or --count). Without :I, the index is
    /// SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX
    #[arg(long, value_name = "FILE[:I]")]
    pub cube: Option<String>,

    /// With --cube, in an optimisation: look only for solutions better than V (a value some
    /// other cube's solution reaches)
    #[arg(long, value_name = "V", requires = "cube", allow_hyphen_values = true)]
    pub bound: Option<i64>,

    /// With --cube: write the result to FILE (whole or not at all: a task stopped while
    /// writing leaves no result), not to stdout
    #[arg(long, value_name = "FILE", requires = "cube")]
    pub result: Option<std::path::PathBuf>,
}

const XCSP3_NOTES: &str = "\
Prints as the XCSP3 competition asks: `o BOUND` for each better solution of an optimisation,
then `s SATISFIABLE`, `s OPTIMUM FOUND`, `s UNSATISFIABLE` or `s UNKNOWN`, and the last
solution as `v <instantiation>` on one line; `c` lines comment (statistics). With --count, every
solution is counted as ACE and Choco report it: `d FOUND SOLUTIONS N`, then `d COMPLETE
EXPLORATION` when the count is exact. Every solution is checked against every constraint before
it is printed or counted. Read: integer and symbolic variables and the constraints of
XCSP3-core, with groups, blocks and slides (the README lists them); anything else is named with
its line and column, with s UNSUPPORTED.

Defaults (csp_policy, the one rule of every front end; -v says what it picked): for one
solution of a satisfaction instance, unless a search option is given, two searches side by side
(-p 2): arc consistency with dom/wdeg and ascending values beside learning (lcg); with -p 1,
learning alone; with --var-order, --val-order or --restarts, arc consistency alone. --count: mac
with mrv. An optimisation, unless a search option is given: learning with large neighbourhood
search beside arc consistency with dom/wdeg and with mrv, all with values towards the objective
(ascending to minimise, descending to maximise) and sharing the best bound; side by side on two
cores or more, taking turns on one (learning three fifths of the time). With -p 1 or a search
option, one search (learning with LNS unless an order asks for arc consistency; --no-lns turns
LNS off); -p N adds searches unlike it (arc consistency with restarts, learning alone).

Exit status:
  0    answered: a solution, an optimum, UNSATISFIABLE, or a count
  2    the instance could not be read, or uses what this reader does not support
  3    a limit stopped the run (what was found is printed, with s UNKNOWN or s SATISFIABLE)
  4    a solution failed its check and was withheld (a bug in csp: please report it)
  130  interrupted by SIGINT (Ctrl-C), after printing what was found
  143  stopped by SIGTERM, likewise

Examples:
  csp xcsp3 Zebra.xml.lzma            a solution
  csp xcsp3 --count Zebra.xml.lzma    every solution counted
  csp xcsp3 --time-limit 60 GolombRuler-8.xml.lzma";

/// An XCSP3 instance to solve.
#[derive(Debug, Args)]
pub struct Xcsp3Args {
    /// The instance: .xml, or .xml.lzma as the competition ships it.
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,

    /// Count every solution (satisfaction instances).
    #[arg(long)]
    pub count: bool,

    /// Print every solution as a `v` line, as found, then their number (satisfaction
    /// instances; the competition's checker reads each).
    #[arg(long, conflicts_with = "count")]
    pub all: bool,

    /// With --inference lcg: write a DRCP proof of unsatisfiability or of the optimum to
    /// FILE, and the model as csp built it beside it as FILE.fzn (for `pumpkin-checker`).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["count", "all"])]
    pub proof: Option<std::path::PathBuf>,

    /// Large neighbourhood search in an optimisation, under learning (lcg), where it is on
    /// by default: once a solution is found, runs between restarts keep part of the
    /// instance's variables fixed at the best solution's values and search the rest.
    /// Without --inference, it asks for lcg
    #[arg(long, conflicts_with = "count")]
    pub lns: bool,

    /// No large neighbourhood search under lcg
    #[arg(long, conflicts_with = "lns")]
    pub no_lns: bool,

    /// Threads: a portfolio of N searches, the configured one and others unlike it, sharing
    /// the best objective value (for an optimum or one solution; not with --count or --proof)
    #[arg(short = 'p', long = "parallel", value_name = "N", conflicts_with_all = ["count", "all", "proof"])]
    pub parallel: Option<u64>,

    /// Say on stderr how the instance is searched (inference, orders, searches side by side)
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// The LP relaxation of the model inside the search (linear constraints, reifications as
    /// big-M rows, gates, element and the like; MIR cuts at the root; its bound, reduced-cost
    /// fixing, infeasibility), each conclusion explained for learning; off under --proof
    #[arg(long, value_name = "WHEN", default_value = "auto",
          value_parser = EngineChoice::<csp_policy::LpChoice>::new())]
    pub lp: csp_policy::LpChoice,

    #[command(flatten)]
    pub cube: CubeArgs,

    #[command(flatten)]
    pub search: SearchArgs,
}

const MINIZINC_SETUP_NOTES: &str = "\
Writes csp.msc (the solver configuration), csp-fzn (which runs this csp binary's fzn command)
and csp-mznlib (csp's MiniZinc library: nosets.mzn, and the globals csp propagates natively)
into DIR, by default ~/.minizinc/solvers, where MiniZinc looks. A DIR elsewhere is found
through MZN_SOLVER_PATH=DIR. Run it again after moving the csp binary.

Examples:
  csp minizinc-setup
  minizinc --solvers                  lists csp
  minizinc --solver csp model.mzn data.dzn";

/// Where to register csp with MiniZinc.
#[derive(Debug, Args)]
pub struct MinizincSetupArgs {
    /// The folder for the solver configuration (default: ~/.minizinc/solvers).
    #[arg(value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,
}

const FZN_NOTES: &str = "\
Output: the FlatZinc protocol. Each solution prints its output_var and output_array items
(x = 3; a = array1d(1..3, [1, 2, 3]);) and ----------; then ========== when the search was
complete, =====UNSATISFIABLE===== when there is no solution, =====UNKNOWN===== when a limit
or a signal stopped it first. Every solution is checked against every constraint before it
is printed. Without -a, an optimisation prints its best solution at the end; with -a or -i,
each improving one as it is found.

Defaults (csp_policy, the one rule of every front end; -v says what it picked): one search
unless -p N asks for N side by side (sharing the best objective value). The model's search
annotations (int_search, bool_search, seq_search) are followed unless -f, as Gecode follows
them, with --inference mac and --var-order dom-wdeg, ascending values, after them. With -f or
on a model without annotations: an optimisation by learning (lcg) with large neighbourhood
search (--no-lns turns it off), values towards the objective; one solution by learning; many
(-a, -n) by mac with mrv. Under -f, learning still takes the annotations in every other
run between restarts until a first solution, as Chuffed's free search alternates; then
activity alone. A variable or value order without --inference asks for mac.

Exit status (as MiniZinc expects of a solver: a non-zero status reads as an error):
  0    the model was run: solutions, UNSATISFIABLE or UNKNOWN are on stdout
  2    the model could not be read, or uses what this solver does not support (named,
       with its line, on stderr)
  4    a solution failed its check and was withheld (a bug in csp: please report it)
  130  interrupted by SIGINT (Ctrl-C), after printing what was found
  143  stopped by SIGTERM, likewise

Examples:
  csp fzn model.fzn                   the first solution, or the optimum
  csp fzn -a model.fzn                every solution, or every improving one
  csp fzn -s -t 10000 model.fzn       statistics, 10 s limit
  minizinc --solver csp model.mzn data.dzn   (after csp minizinc-setup)";

/// The FlatZinc command line, with the standard options MiniZinc passes to solvers.
#[derive(Debug, Args)]
pub struct FznArgs {
    /// The FlatZinc model: a .fzn file, or - for standard input.
    #[arg(value_name = "FILE.fzn")]
    pub file: std::path::PathBuf,

    /// All solutions of a satisfaction problem; every improving one of an optimisation.
    #[arg(short = 'a', long = "all-solutions")]
    pub all: bool,

    /// Stop after N solutions (satisfaction problems).
    #[arg(short = 'n', long = "num-solutions", value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub num_solutions: Option<u64>,

    /// Print every improving solution of an optimisation.
    #[arg(short = 'i', long = "intermediate")]
    pub intermediate: bool,

    /// Free search: the model's search annotations are not followed (learning takes them in
    /// every other run until a first solution).
    #[arg(short = 'f', long = "free-search")]
    pub free: bool,

    /// With --inference lcg: the model's search annotations guide every run between
    /// restarts, as in Chuffed and Pumpkin without -f (by default learning alternates them
    /// with activity-based runs)
    #[arg(long = "declared-only")]
    pub declared_only: bool,

    /// Threads: a portfolio of N searches, the configured one and others unlike it, sharing
    /// the best objective value (for an optimum or one solution; else one thread)
    #[arg(short = 'p', long = "parallel", value_name = "N")]
    pub parallel: Option<u64>,

    /// Seed for random choices (indomain_random, --val-order random).
    #[arg(short = 'r', long = "random-seed", value_name = "SEED")]
    pub random_seed: Option<u64>,

    /// Statistics as %%%mzn-stat lines on stdout, and notes on stderr.
    #[arg(short = 's', long = "statistics")]
    pub statistics: bool,

    /// Verbose: notes on stderr.
    #[arg(short = 'v', long = "verbose")]
    pub verbose: bool,

    /// Stop after MS milliseconds of solving (reading the model included).
    #[arg(short = 't', long = "time-limit-ms", value_name = "MS")]
    pub time_limit_ms: Option<u64>,

    /// With --inference lcg: write a DRCP proof of unsatisfiability or of the optimum to
    /// FILE, and the model as csp built it beside it as FILE.fzn (for `pumpkin-checker`).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["all", "num_solutions"])]
    pub proof: Option<std::path::PathBuf>,

    /// With --inference lcg, in an optimisation: once a solution is found, every other free
    /// run between restarts gives each decided variable its value in the best solution so
    /// far while it can (solution-based phase saving)
    #[arg(long)]
    pub incumbent_phase: bool,

    /// Large neighbourhood search in an optimisation, under learning (lcg), where it is on
    /// by default: once a solution is found, runs between restarts keep part of the
    /// declared search's variables (or the outputs') fixed at the best solution's values and
    /// search the rest. Without --inference, it asks for lcg
    #[arg(long)]
    pub lns: bool,

    /// No large neighbourhood search under lcg
    #[arg(long, conflicts_with = "lns")]
    pub no_lns: bool,

    /// The LP relaxation of the model inside the search (linear constraints, reifications as
    /// big-M rows, gates, element and the like; MIR cuts at the root; its bound, reduced-cost
    /// fixing, infeasibility), each conclusion explained for learning; off under --proof
    #[arg(long, value_name = "WHEN", default_value = "auto",
          value_parser = EngineChoice::<csp_policy::LpChoice>::new())]
    pub lp: csp_policy::LpChoice,

    #[command(flatten)]
    pub cube: CubeArgs,

    #[command(flatten)]
    pub search: SearchArgs,
}

const COMPARE_NOTES: &str = "\
Configurations: by default none, fc, mac and lcg, each with input order and ascending
values. --with mrv,dom-wdeg,lcv adds, for each mode, one configuration per listed heuristic
(fc+mrv, ...). --configs none,fc+mrv,mac+dom-wdeg+lcv lists them explicitly: a mode (none, fc,
mac, lcg), then + and any of mrv, dom-deg, dom-wdeg (variable order) and desc, lcv, random
(value order). Where a configuration learns (lcg), three more columns say how many nogoods it
learned, their average length in atoms, and the average backjump in decision levels (1 is a
chronological backtrack).

Every configuration has the same limits: 10 seconds unless --time-limit says otherwise (the
title states it); a run that hits one shows as 'limit'. A spinner on a terminal says what runs.
Ctrl-C or SIGTERM stops the run in progress and prints the table so far: that row says
'stopped', the rows never run say 'not run'. Ratios are relative to the first configuration,
with two significant digits at least (4.1e-3x). The command exits 0 once its table is
printed, 3 if a limit cut a run short, 130 or 143 after a signal.

Examples:
  csp compare queens 8
  csp compare queens 4..12 --plot queens.svg
  csp compare queens 8 --with mrv,lcv --format markdown
  csp compare sudoku puzzles.txt --configs fc+mrv,mac+mrv
  csp compare color myciel4.col --colors 4";

const COLOR_NOTES: &str = "\
Input: DIMACS .col ('c' comments, 'p edge V E', 'e u v' with vertices from 1). Repeated edges
and self-loops are dropped, with a note on stderr.

Output: one 'vertex color' line per vertex, in vertex order, colours from 1. With --min (the
default without --colors), stderr ends with 'colors K optimal' or 'colors K best found, not
proven', after a line per step (DSATUR, the largest clique, TabuCol, each complete search).
Symmetry is broken by fixing the colours of a clique. Under mac, all-different constraints
over cliques of 4 or more vertices join the edges' != constraints. Defaults: --inference mac
--var-order dom-wdeg.

Examples:
  csp color myciel4.col --colors 5      a proper 5-colouring
  csp color myciel4.col --colors 4      proves there is none (exit 1)
  csp color queen5_5.col --min          the chromatic number, 5";

const SUDOKU_NOTES: &str = "\
Input: one puzzle per line (81 symbols for 9x9, 16 for 4x4, 256 for 16x16, 625 for 25x25;
anything after a ':', a ',' or a space is ignored; '#' starts a comment), or grids of one row
per line with optional '|' and '-+-' lines, separated by blank lines. Blanks: . - _ and 0.
Symbols: 1-9, then A-G for 16x16 (or --alphabet 0123456789ABCDEF), A-Y for 25x25; or, from
16x16 on, numbers separated by spaces (the only way for grids above 25x25). The default letters read in either case; an --alphabet
is taken exactly as given, so 0-9, A-Z, a-z and two more make a 64x64 alphabet.

Output: one record per puzzle: its solution in the shape it came in, or none, invalid or
limit. A summary goes to stderr. --time-limit and --node-limit apply to each puzzle.

Engines: with none of --inference, --var-order, --val-order, --seed, --html, --trace-json or
--tree, grids up to 64x64 go to the bitmask solver (naked and hidden singles, fewest
candidates first); the others, and any grid when one of those is given, go to the general
engine with --inference mac --var-order mrv --val-order asc unless told otherwise.
--engine csp or --engine bitmask chooses for every grid.

Examples:
  csp sudoku puzzles.txt                 solve every puzzle in the file
  csp sudoku --puzzle 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
  csp sudoku puzzles.txt --unique        unique, multiple or none per puzzle
  csp sudoku puzzles.txt --check         valid or invalid givens (LeetCode 36)";

const QUEENS_NOTES: &str = "\
Defaults: every solution, as boards, in lexicographic order of the column vector, from
--engine csp --encoding alldiff --inference fc --var-order input --val-order asc.
--count (or --threads) with none of --engine, --encoding, --inference, --var-order,
--val-order, --seed and --trace uses the fastest configuration, the bitmask engine (N <= 64).
--first with --var-order mrv, dom-deg or dom-wdeg and no --val-order tries random values
(--seed, default 1) under --restarts 100: with ascending values, mrv goes down an early
mistake on large boards and never comes back up.

Engines: csp (the general constraint engine; N <= 131,072 as memory allows), bitmask
(the classic three-mask backtracking; N <= 64; --threads T spreads it over T threads), and
min-conflicts (local search for one solution of a huge board, with --first).

--shard I/K (with --count) counts the I-th of K disjoint parts, for spreading one count over
many machines: the K parts add up to the total (see the README for a recipe).

--trace prints every step on stdout; above N = 8 it needs --first, --limit or --node-limit.";

/// How solutions are printed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// N lines of `.` and `Q` per solution, a blank line between solutions.
    Board,
    /// One JSON array of boards, each an array of row strings.
    Json,
    /// One line per solution: the queen's 0-based column in each row.
    Cols,
    /// One SVG picture of the boards (at most 500).
    Svg,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// The general constraint engine.
    Csp,
    /// The classic bitmask backtracking (N <= 64).
    Bitmask,
    /// Local search for one solution of a huge board (with --first).
    MinConflicts,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum EncodingArg {
    /// Pairwise != and diagonal constraints.
    Binary,
    /// Three all_different constraints.
    Alldiff,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    /// Aligned lines.
    Text,
    /// One JSON object.
    Json,
}

#[derive(Debug, Args)]
pub struct QueensArgs {
    /// The board size N.
    pub n: u64,

    /// Print the number of solutions instead of the solutions.
    #[arg(long)]
    pub count: bool,

    /// Stop after the first solution.
    #[arg(long, conflicts_with = "limit")]
    pub first: bool,

    /// Stop after K solutions.
    #[arg(long, value_name = "K")]
    pub limit: Option<u64>,

    /// How to print solutions.
    #[arg(long, value_enum, default_value_t = Format::Board)]
    pub format: Format,

    /// The character for an empty square in boards (hello-algo uses '#').
    #[arg(long, value_name = "C", default_value_t = '.')]
    pub empty_char: char,

    #[command(flatten)]
    pub search: SearchArgs,

    /// How the rules become constraints.
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,

    /// Which solver runs.
    #[arg(long, value_enum)]
    pub engine: Option<EngineArg>,

    /// Print every step of the search on stdout.
    #[arg(long)]
    pub trace: bool,

    /// List one board per class of solutions equal under rotation and reflection (the
    /// smallest of each); with --count, print all solutions and classes.
    #[arg(long)]
    pub up_to_symmetry: bool,

    /// Threads for the bitmask engine (the output order stays the same).
    #[arg(long, value_name = "T", default_value_t = 1)]
    pub threads: usize,

    /// With --count, count only part I of K disjoint parts of the search (I from 1 to K).
    #[arg(long, value_name = "I/K", requires = "count")]
    pub shard: Option<String>,

    #[command(flatten)]
    pub record: RecordArgs,
}

/// The search options every command shares.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// How much to infer after each assignment.
    #[arg(long, value_parser = EngineChoice::<Inference>::new())]
    pub inference: Option<Inference>,

    /// Which variable to branch on next.
    #[arg(long, value_parser = EngineChoice::<VarOrder>::new())]
    pub var_order: Option<VarOrder>,

    /// In which order to try a variable's values.
    #[arg(long = "val-order", value_parser = EngineChoice::<ValueOrder>::new())]
    pub val_order: Option<ValueOrder>,

    /// Seed for --val-order random (and for colour's TabuCol under --min).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Restart from the root after SCALE x 1, 1, 2, 1, 1, 2, 4, ... failures (Luby); for a
    /// search for one solution, with --val-order random or --var-order dom-wdeg.
    #[arg(long, value_name = "SCALE", value_parser = clap::value_parser!(u64).range(1..))]
    pub restarts: Option<u64>,

    /// Print statistics on stderr after the run (--stats=json for one JSON object).
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true,
          default_missing_value = "text", value_name = "FORMAT")]
    pub stats: Option<StatsFormat>,

    /// Stop after this many seconds (decimals allowed), counted from the start of the run,
    /// reading and building the model included (sudoku: from the start of each puzzle).
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<String>,

    /// Stop after this many nodes (assignments tried).
    #[arg(long, value_name = "K")]
    pub node_limit: Option<u64>,
}

/// How a sudoku record is printed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum SudokuFormat {
    /// All cells on one line.
    Line,
    /// A grid with boxes marked.
    Grid,
    /// One JSON object per puzzle, one per line.
    Json,
    /// One SVG picture of the solved grids, givens in bold (at most 500).
    Svg,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum SudokuEngineArg {
    /// The general constraint engine (its options apply).
    Csp,
    /// The hand-written bitmask solver (grids up to 64x64).
    Bitmask,
}

#[derive(Debug, Args)]
pub struct SudokuArgs {
    /// The puzzles: a file, or - (or nothing) for standard input.
    #[arg(value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,

    /// One puzzle, given on the command line.
    #[arg(long, value_name = "STR", conflicts_with = "file")]
    pub puzzle: Option<String>,

    /// Print solutions in this shape instead of the puzzle's own.
    #[arg(long, value_enum)]
    pub format: Option<SudokuFormat>,

    /// Print the number of solutions of each puzzle.
    #[arg(long, conflicts_with_all = ["unique", "check"])]
    pub count: bool,

    /// With --count, stop counting at K.
    #[arg(long, value_name = "K", requires = "count")]
    pub limit: Option<u64>,

    /// Print unique, multiple or none for each puzzle.
    #[arg(long, conflicts_with = "check")]
    pub unique: bool,

    /// Only check the givens against the rules: valid or invalid.
    #[arg(long)]
    pub check: bool,

    /// The symbols in value order, for grids of as many values (e.g. 0123456789ABCDEF),
    /// taken exactly as given: case-sensitive, so `a` and `A` can be two symbols.
    #[arg(long, value_name = "SYMBOLS")]
    pub alphabet: Option<String>,

    /// Solve on J threads; the output stays in input order.
    #[arg(long, value_name = "J", default_value_t = 1)]
    pub jobs: usize,

    /// Which solver: by default bitmask up to 64x64 unless an engine option is given.
    #[arg(long, value_enum)]
    pub engine: Option<SudokuEngineArg>,

    /// Print each puzzle's search step by step, cells named r1c1 to r9c9 (the general engine).
    #[arg(long)]
    pub trace: bool,

    #[command(flatten)]
    pub search: SearchArgs,

    /// --html, --trace-json and --tree record the first puzzle's search.
    #[command(flatten)]
    pub record: RecordArgs,
}

#[derive(Debug, Args)]
pub struct ColorArgs {
    /// The graph in DIMACS .col format, or - for standard input.
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,

    /// Find a colouring with at most K colours, or show that none exists.
    #[arg(long, value_name = "K", conflicts_with = "min")]
    pub colors: Option<u32>,

    /// Find the fewest colours (the chromatic number): DSATUR, a largest clique, TabuCol, then
    /// complete searches for one colour fewer until one proves none exists (the default).
    #[arg(long)]
    pub min: bool,

    /// With --inference lcg: write a DRCP proof that no colouring with fewer colours exists
    /// (under --min, of the last search's; with --colors K, of its search's) to FILE, and
    /// the model it proves that of beside it as FILE.fzn. Check with `pumpkin-checker
    /// FILE.fzn FILE` (cargo install pumpkin-checker).
    #[arg(long, value_name = "FILE")]
    pub proof: Option<std::path::PathBuf>,

    #[command(flatten)]
    pub search: SearchArgs,
}

#[derive(Debug, Subcommand)]
pub enum CompareCommand {
    /// N-Queens, for one N or a range A..B (inclusive).
    Queens(CompareQueensArgs),
    /// Every puzzle of a file, figures summed per configuration.
    Sudoku(CompareSudokuArgs),
    /// K-colouring of a DIMACS graph.
    Color(CompareColorArgs),
    /// A FlatZinc model, or a MiniZinc model and its data (compiled by minizinc, which must
    /// be on the PATH, with csp's library).
    Fzn(CompareFznArgs),
    /// An XCSP3 instance (.xml or .xml.lzma).
    Xcsp3(CompareXcsp3Args),
}

#[derive(Debug, Args)]
pub struct CompareXcsp3Args {
    /// The instance.
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,

    #[command(flatten)]
    pub compare: CompareArgs,
}

#[derive(Debug, Args)]
pub struct CompareFznArgs {
    /// The model: FlatZinc (.fzn), or MiniZinc (.mzn) followed by its data files (.dzn, .json).
    #[arg(value_name = "MODEL", required = true, num_args = 1..)]
    pub files: Vec<std::path::PathBuf>,

    /// Data for a MiniZinc model, as MiniZinc's -D takes it (e.g. -D n=8 or -D "n=8; m=3").
    #[arg(short = 'D', long = "data", value_name = "ASSIGNMENTS")]
    pub data: Vec<String>,

    #[command(flatten)]
    pub compare: CompareArgs,
}

#[derive(Debug, Args)]
pub struct CompareQueensArgs {
    /// The board size, or a range such as 4..12.
    #[arg(value_name = "N|A..B")]
    pub n: String,

    /// How the rules become constraints.
    #[arg(long, value_enum, default_value_t = EncodingArg::Alldiff)]
    pub encoding: EncodingArg,

    #[command(flatten)]
    pub compare: CompareArgs,
}

#[derive(Debug, Args)]
pub struct CompareSudokuArgs {
    /// The puzzles: a file, or - (or nothing) for standard input.
    #[arg(value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,

    /// One puzzle, given on the command line.
    #[arg(long, value_name = "STR", conflicts_with = "file")]
    pub puzzle: Option<String>,

    /// The symbols in value order, for grids of as many values (case-sensitive).
    #[arg(long, value_name = "SYMBOLS")]
    pub alphabet: Option<String>,

    #[command(flatten)]
    pub compare: CompareArgs,
}

#[derive(Debug, Args)]
pub struct CompareColorArgs {
    /// The graph in DIMACS .col format.
    #[arg(value_name = "FILE")]
    pub file: std::path::PathBuf,

    /// The number of colours.
    #[arg(long, value_name = "K")]
    pub colors: u32,

    #[command(flatten)]
    pub compare: CompareArgs,
}

/// How a comparison is table is made.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// Aligned columns.
    Table,
    /// A Markdown table.
    Markdown,
    /// Comma-separated values, no ratio columns.
    Csv,
    /// One JSON array of rows.
    Json,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Add, for each mode, one configuration per listed heuristic (e.g. mrv,dom-wdeg,lcv).
    #[arg(long, value_name = "LIST", conflicts_with = "configs")]
    pub with: Option<String>,

    /// The configurations, explicitly (e.g. none,fc+mrv,mac+dom-wdeg+lcv).
    #[arg(long, value_name = "LIST")]
    pub configs: Option<String>,

    /// Find every solution rather than the first.
    #[arg(long)]
    pub all: bool,

    /// How to print the table.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,

    /// Seed for configurations with random value order.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Stop each configuration after this many seconds, or `none` (default: 10).
    #[arg(long, value_name = "SECS|none")]
    pub time_limit: Option<String>,

    /// Stop each run after this many nodes.
    #[arg(long, value_name = "K")]
    pub node_limit: Option<u64>,

    /// With a range of N, draw nodes and time against N for each configuration (SVG).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,

    /// Write a page that replays the first two configurations side by side.
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<std::path::PathBuf>,
}

/// Records of one search, written beside the normal output.
#[derive(Clone, Debug, Default, Args)]
pub struct RecordArgs {
    /// Write a self-contained page that replays the search step by step.
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<std::path::PathBuf>,

    /// Write every event of the search as JSON lines (schema: docs/trace-schema.json).
    #[arg(long, value_name = "FILE")]
    pub trace_json: Option<std::path::PathBuf>,

    /// Write the search tree in Graphviz DOT (small instances: it stops at 2,000 nodes).
    #[arg(long, value_name = "FILE.dot")]
    pub tree: Option<std::path::PathBuf>,
}

impl RecordArgs {
    /// The options given, by name.
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--html", self.html.is_some()),
            ("--trace-json", self.trace_json.is_some()),
            ("--tree", self.tree.is_some()),
        ]
        .iter()
        .filter(|(_, g)| *g)
        .map(|(n, _)| *n)
        .collect()
    }
}
