//! The command line as clap sees it: raw arguments, before any of them is checked against the
//! others (that is `queens::QueensJob::from_args`).

use clap::{Args, Parser, Subcommand, ValueEnum};

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
#[command(name = "csp", version, after_help = crate::help_footer(EXAMPLES))]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Place N queens on an N x N board so that none attacks another.
    #[command(after_help = crate::help_footer(QUEENS_NOTES))]
    Queens(QueensArgs),
}

const QUEENS_NOTES: &str = "\
Defaults: every solution, as boards, in lexicographic order of the column vector, from
--engine csp --encoding alldiff --inference fc --var-order input --val-order asc.
--count with none of --engine, --encoding, --inference, --var-order, --val-order, --seed
and --trace uses the fastest configuration, the bitmask engine (N <= 64).

Engines: csp (the general constraint engine; N <= 16,777,216 as memory allows) and bitmask
(the classic three-mask backtracking; N <= 64).

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
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// The general constraint engine.
    Csp,
    /// The classic bitmask backtracking (N <= 64).
    Bitmask,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum InferenceArg {
    /// Plain chronological backtracking: check, prune nothing.
    None,
    /// Forward checking.
    Fc,
    /// Maintain arc consistency.
    Mac,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum VarOrderArg {
    /// Creation order (for queens, rows top to bottom).
    Input,
    /// Minimum remaining values.
    Mrv,
    /// Domain size over dynamic degree.
    DomDeg,
    /// Domain size over weighted degree.
    DomWdeg,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ValOrderArg {
    /// Smallest value first.
    Asc,
    /// Largest value first.
    Desc,
    /// Least constraining value first.
    Lcv,
    /// Random order from --seed.
    Random,
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
}

/// The search options every command shares.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// How much to infer after each assignment.
    #[arg(long, value_enum)]
    pub inference: Option<InferenceArg>,

    /// Which variable to branch on next.
    #[arg(long, value_enum)]
    pub var_order: Option<VarOrderArg>,

    /// In which order to try a variable's values.
    #[arg(long = "val-order", value_enum)]
    pub val_order: Option<ValOrderArg>,

    /// Seed for --val-order random.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Print statistics on stderr after the run (--stats=json for one JSON object).
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true,
          default_missing_value = "text", value_name = "FORMAT")]
    pub stats: Option<StatsFormat>,

    /// Stop after this many seconds (decimals allowed).
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<String>,

    /// Stop after this many nodes (assignments tried).
    #[arg(long, value_name = "K")]
    pub node_limit: Option<u64>,
}
