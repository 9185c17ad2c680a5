//! Sudoku of any box size b (b² x b² grids) on the `csp` engine.
//!
//! A [`Reader`] turns lines into puzzles in every common shape: one puzzle per line (with
//! `:count:solution` or CSV tails ignored), or grids over several lines with `|` and `-+-`
//! decoration. A [`Grid`] checks its givens against the rules and names every broken row,
//! column and box. A [`SudokuModel`] states the puzzle as 3b² all_different constraints, solved
//! by the general engine like any other model.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use sudoku::{Reader, SudokuModel};
//! use csp::{Inference, Solver, VarOrder};
//!
//! let mut entries = Vec::new();
//! let mut reader = Reader::new(None);
//! reader.feed(1, "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", &mut entries);
//! let puzzle = entries.remove(0).puzzle.map_err(|e| e.to_string())?;
//! let sudoku = SudokuModel::new(&puzzle.grid)?;
//! let solver = Solver::new(&sudoku.model).inference(Inference::Mac).var_order(VarOrder::MinDomain);
//! assert_eq!(solver.count(), 1);
//! # Ok(())
//! # }
//! ```

#![forbid(unsafe_code)]
// Bad input must come back as an error, never a panic; tests may unwrap.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod alphabet;
pub mod bitmask;
mod blank_models;
mod grid;
mod layout;
mod model;
mod race;
mod reader;

pub use alphabet::{Alphabet, AlphabetError, Symbols};
pub use bitmask::Bitmask;
pub use blank_models::{BlankModels, Sessions};
pub use grid::{Grid, Unit, Violation};
pub use layout::{GridLine, Layout, Shape};
pub use model::{SudokuModel, MAX_MODEL_BYTES};
pub use race::{race, solve_bitmask, RACE_FROM_SIDE};
pub use reader::{Entry, InputError, Puzzle, Reader};
