//! A finite-domain constraint engine: domains over any `i32` range, propagation, and search.
//!
//! Build a [`Model`] of integer variables and constraints, then solve it with a [`Solver`],
//! choosing how much to infer after each assignment ([`Inference`]: plain backtracking, forward
//! checking, or maintained arc consistency) and which variable and value to try next
//! ([`VarOrder`], [`ValueOrder`]). Solutions stream to a callback or an iterator; every solve
//! ends with a [`Summary`] of [`Statistics`] that mean the same thing in every mode.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use csp::{Inference, Model, Solver};
//! use std::ops::ControlFlow;
//!
//! // Four queens: one variable per row, its value the queen's column.
//! let mut model = Model::new();
//! let rows = (0..4).map(|_| model.new_var(0..=3)).collect::<Result<Vec<_>, _>>()?;
//! for i in 0..4 {
//!     for j in i + 1..4 {
//!         let d = (j - i) as i32;
//!         model.not_equal(rows[i], rows[j])?;
//!         model.not_equal_offset(rows[i], rows[j], d)?;
//!         model.not_equal_offset(rows[i], rows[j], -d)?;
//!     }
//! }
//! let mut found = Vec::new();
//! let summary = Solver::new(&model)
//!     .inference(Inference::Mac)
//!     .solve(|s| { found.push(s.values().to_vec()); ControlFlow::Continue(()) });
//! assert_eq!(found, vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
//! assert_eq!(summary.stats.solutions, 2);
//! # Ok(())
//! # }
//! ```
//!
//! The engine does no I/O: it returns data and calls the caller's callbacks.

// Bad input must come back as an error, never a panic; tests may unwrap.
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod atom;
/// Brute-force oracles for the tests beside each constraint.
#[cfg(test)]
mod brute_force;
pub mod constraints;
pub mod cube;
mod error;
mod ids;
mod learning;
mod limits;
mod lp;
mod model;
mod poller;
mod propagation;
mod rng;
mod search;
mod turns;

pub use atom::Atom;
pub use constraints::{Lit, Relation};
pub use error::ModelError;
pub use ids::{ConstraintId, VarId};
pub use limits::{Limit, Limits};
pub use lp::{LpRelaxation, RelaxationLiterals, MOST_VALUES_ENCODED};
pub use model::{Model, Operand, Reification};
pub use poller::{Poller, TARGET_INTERVAL};
pub use propagation::checkable::Checkable;
pub use propagation::consistency::Consistency;
pub use propagation::constraint::Constraint;
pub use propagation::context::{Conflict, ConflictKind, Context, Trailed};
pub use propagation::declared_domain::BITSET_SPAN_LIMIT;
pub use propagation::earlier::Earlier;
pub use propagation::linear_row::{DeclaredBounds, LinearRow, ValueRows};
pub use propagation::wake::{Priority, Wake};
pub use rng::SplitMix64;
pub use search::{
    DeclaredRuns, Inference, NoObserver, Objective, Observer, Outcome, Phase, Portfolio, Sense,
    Session, SharedBound, Solution, Solutions, Solver, Statistics, Summary, UnknownChoice,
    ValueOrder, ValueSelect, VarOrder, VarSelect, OPTIMISATION_SHARES, SHARD_DEPTH,
};
