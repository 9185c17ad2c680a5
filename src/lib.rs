//! The toolkit in one crate: re-exports the engine and the models so examples and tests can use them.

pub use coloring;
pub use csp;
pub use nqueens;
pub use sudoku;

/// The README's code examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The library guide's code examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
pub struct LibraryGuideDoctests;
