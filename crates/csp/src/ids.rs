//! Typed indices for variables and constraints, so the two can never be mixed up.

use serde::Serialize;
use std::fmt;

/// A variable of a [`Model`](crate::Model), as returned by `Model::new_var*`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct VarId(pub(crate) u32);

/// A constraint posted on a [`Model`](crate::Model).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ConstraintId(pub(crate) u32);

impl VarId {
    /// The position of the variable in creation order (0-based); solutions are indexed by it.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The id of the variable created `index`-th (0-based), if it fits. Whether a model has
    /// such a variable is for the model to say.
    pub fn from_index(index: usize) -> Option<Self> {
        u32::try_from(index).ok().map(VarId)
    }
}

impl ConstraintId {
    /// Stands for the bound that branch and bound puts on the objective (see
    /// [`Solver::minimize`](crate::Solver::minimize)) where a constraint would be named.
    pub const OBJECTIVE: ConstraintId = ConstraintId(u32::MAX);

    /// Stands for the nogoods that learning adds (see [`Inference::Lcg`](crate::Inference))
    /// where a constraint would be named: a change or a conflict one of them caused.
    pub const NOGOOD: ConstraintId = ConstraintId(u32::MAX - 1);

    /// The position of the constraint in posting order (0-based).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.0)
    }
}

impl fmt::Display for ConstraintId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == ConstraintId::OBJECTIVE {
            f.write_str("objective bound")
        } else if *self == ConstraintId::NOGOOD {
            f.write_str("learned nogood")
        } else {
            write!(f, "c{}", self.0)
        }
    }
}
