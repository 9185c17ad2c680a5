//! The commands, one per file: each checks its arguments against each other, runs, and prints.

pub mod color;
pub mod compare;
pub mod fzn;
pub mod merge;
pub mod minizinc_setup;
pub mod queens;
pub mod split;
pub mod sudoku;
pub mod xcsp3;
