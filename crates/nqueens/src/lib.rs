//! N-Queens on the `csp` engine, a validated [`Board`], and the classic bitmask solver.
//!
//! Rows are variables and a row's value is the column of its queen, so one queen per row holds
//! by construction; constraints forbid two queens on a column or a diagonal. Two encodings
//! state that ([`Encoding`]); [`bitmask`] solves the same problem without the engine and is the
//! oracle the engine is tested against.

// Bad input must come back as an error, never a panic; tests may unwrap.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod bitmask;
mod board;
mod encoding;
mod queens_model;

pub use board::{Board, BoardError};
pub use encoding::Encoding;
pub use queens_model::QueensModel;
