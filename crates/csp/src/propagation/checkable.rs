//! `Checkable`: a constraint in the few forms an independent proof checker reads.
//!
//! Pumpkin's DRCP checker (`pumpkin-checker`, ConSol-Lab) judges the inferences of four
//! FlatZinc constraints: `int_lin_le`, `int_lin_eq`, `pumpkin_all_different` and
//! `pumpkin_cumulative`. A constraint that is one of the first three says so through
//! [`Constraint::checkable`](crate::Constraint::checkable); a proof of a model whose
//! constraints all say so can be checked by it.

use crate::VarId;

/// A constraint as a proof checker reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checkable {
    /// The variables take different values.
    AllDifferent(Vec<VarId>),
    /// `sum(a * x) <= rhs`.
    LinearLe(Vec<(i64, VarId)>, i64),
    /// `sum(a * x) = rhs`.
    LinearEq(Vec<(i64, VarId)>, i64),
}

impl Checkable {
    /// The label of its inferences in a DRCP proof: the kind of reasoning the checker applies
    /// to judge them.
    pub fn label(&self) -> &'static str {
        match self {
            Checkable::AllDifferent(_) => "all_different",
            Checkable::LinearLe(..) | Checkable::LinearEq(..) => "linear_bounds",
        }
    }

    /// The variables it is on, in its own order.
    pub fn vars(&self) -> Vec<VarId> {
        match self {
            Checkable::AllDifferent(vars) => vars.clone(),
            Checkable::LinearLe(terms, _) | Checkable::LinearEq(terms, _) => {
                terms.iter().map(|&(_, x)| x).collect()
            }
        }
    }
}
