//! Graph colouring on the `csp` engine: DIMACS `.col` reading, bounds (DSATUR, TabuCol, a greedy
//! clique, the largest clique), k-colouring as a CSP with symmetry broken on a clique, and the
//! drivers that find the chromatic number or a K-colouring from them.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use coloring::{bounds, ColoringModel, Graph};
//! use csp::{Poller, Solver};
//!
//! // A 5-cycle needs 3 colours.
//! let graph = Graph::new(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]);
//! let clique = bounds::greedy_clique(&graph, &mut Poller::unlimited())?;
//! assert_eq!(Solver::new(&ColoringModel::new(&graph, 2, &clique)?.model).count(), 0);
//! assert!(Solver::new(&ColoringModel::new(&graph, 3, &clique)?.model).count() > 0);
//! # Ok(())
//! # }
//! ```

#![forbid(unsafe_code)]
// Bad input must come back as an error, never a panic; tests may unwrap.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod bounds;
mod chromatic;
mod clique;
mod clique_cover;
mod dimacs;
mod graph;
mod model;
mod tabucol;

pub use chromatic::{
    chromatic_number, colour_with, Chromatic, ChromaticError, ChromaticSettings, ColouringSearch,
    KColouring, Phase, Searched, Step, REDUNDANT_CLIQUE,
};
pub use clique::{largest_clique, max_clique, CliqueSearch, CLIQUE_NODES};
pub use clique_cover::clique_cover;
pub use dimacs::{DimacsError, DimacsGraph, DimacsReader, MAX_VERTICES};
pub use graph::Graph;
pub use model::{ColoringModel, MAX_MODEL_BYTES};
pub use tabucol::{tabucol, TabuSearch};
