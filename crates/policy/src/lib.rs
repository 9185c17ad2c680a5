//! How a model is searched, decided in one place for every front end: the defaults with
//! their reasons ([`Defaults`]), search settings from plain options ([`SearchSettings`]),
//! limits and their parsing, the rule that picks the searches for a model ([`Request::plan`]) and whether an LP
//! relaxation joins them ([`LpChoice`]),
//! and proof files created with every overwrite check ([`ProofFiles`]).
//!
//! The command line (`csp fzn`, `csp xcsp3`, the puzzle commands) and the Python module call
//! it with their options turned into plain values: clap stays in the CLI, PyO3 in Python.
//! It never prints and never exits; its refusals are [`PolicyError`]s, which each front end
//! words with its own option names ([`Spelling`]).

#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod defaults;
mod error;
mod limits;
mod lp;
mod plan;
mod proof_files;
mod settings;

pub use defaults::Defaults;
pub use error::{Opt, PolicyError, Spelling};
pub use limits::{
    check_node_limit, limits, time_limit_seconds, time_limit_text, MAX_TIME_LIMIT_SECS,
};
pub use lp::LP_MOST_LITERALS;
pub use lp::{LpChoice, LpDecision, LP_AUTO_ROWS, LP_AUTO_ROWS_OVER_VALUES, LP_MOST_ROWS};
pub use plan::{Instance, Plan, Request, Wanted, Workers, MOST_THREADS, SATISFACTION_THREADS};
pub use proof_files::ProofFiles;
pub use settings::{SearchOptions, SearchSettings};
