//! The toolkit in one crate: re-exports the engine and the models so examples and tests can use them.

pub use csp;
pub use nqueens;
