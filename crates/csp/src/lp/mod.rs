//! The linear relaxation inside the search: a bounded dual simplex, exact integer
//! combinations of its rows, and the propagator that ties them to the model.

mod dual_simplex;
mod integer_inequality;
mod lp_relaxation;

pub use lp_relaxation::LpRelaxation;
