//! N-Queens on the `csp` engine, a validated [`Board`], and the classic bitmask solver.
//!
//! Rows are variables and a row's value is the column of its queen, so one queen per row holds
//! by construction; constraints forbid two queens on a column or a diagonal. Two encodings
//! state that ([`Encoding`]); [`bitmask`] solves the same problem without the engine and is the
//! oracle the engine is tested against.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use csp::{Inference, Solver};
//! use nqueens::{bitmask::Bitmask, Board, Encoding, QueensModel};
//!
//! let queens = QueensModel::new(6, Encoding::AllDiff)?;
//! let solver = Solver::new(&queens.model).inference(Inference::ForwardChecking);
//! let first = solver.first().ok_or("no solution")?;
//! let board = Board::new(first.iter().map(|&c| c as usize).collect())?;
//! assert_eq!(board.rows('.')[0], ".Q....");
//! assert_eq!(solver.count(), 4);
//! assert_eq!(Bitmask::new(6).ok_or("too large")?.count().stats.solutions, 4);
//! # Ok(())
//! # }
//! ```

// Bad input must come back as an error, never a panic; tests may unwrap.
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod bitmask;
mod board;
mod class_units;
mod encoding;
pub mod min_conflicts;
mod queens_model;
pub mod symmetry;

pub use board::{attack_free, Board, BoardError};
pub use encoding::Encoding;
pub use queens_model::QueensModel;
