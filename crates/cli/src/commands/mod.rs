//! The commands, one per file: each checks its arguments against each other, runs, and prints.

pub mod color;
pub mod compare;
pub mod fzn;
pub mod minizinc_setup;
pub mod queens;
pub mod sudoku;
pub mod xcsp3;

/// The most threads `-p` starts (`csp fzn`, `csp xcsp3`).
pub const MOST_THREADS: u64 = 64;
