//! The sudoku crate on published puzzle sets. One test binary; each module covers one area:
// A test fails by panicking, so unwrap and expect are the right tools here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

/// Published solutions, "no solution", and exact solution counts.
mod answers;
/// Reading the sets and solving a puzzle under the engine's configurations.
mod common;
/// The reader's shapes, its errors, and the rule check.
mod reading;
