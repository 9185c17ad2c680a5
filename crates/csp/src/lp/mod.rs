//! The linear relaxation inside the search: a bounded dual simplex, exact integer
//! combinations of its rows, and the propagator that ties them to the model.

mod basis_factor;
mod dual_simplex;
mod integer_inequality;
mod lp_relaxation;
mod mir_cut;
mod value_literals;

pub use lp_relaxation::LpRelaxation;
pub use value_literals::{RelaxationLiterals, MOST_VALUES_ENCODED};
