//! `Objective`: the variable a solve optimises, and which way (`Sense`).

use crate::{Atom, VarId};
use serde::Serialize;

/// Which way an objective goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sense {
    /// Smaller is better.
    Minimize,
    /// Larger is better.
    Maximize,
}

/// What a solve optimises: a variable and a sense. A front end that reads an objective over
/// an expression posts the expression as a variable first (FlatZinc always does; XCSP3's
/// sums and maxima are made so).
///
/// ```
/// use csp::{Model, Objective, Sense, Solver};
/// # fn main() -> Result<(), csp::ModelError> {
/// let mut model = Model::new();
/// let x = model.new_var(1..=5)?;
/// let goal = Objective::maximize(x);
/// assert_eq!(goal.sense, Sense::Maximize);
/// assert!(goal.is_better(5, 4));
/// let best = Solver::new(&model).optimize(Some(goal)).solutions().last();
/// assert_eq!(best, Some(vec![5]));
/// # Ok(())
/// # }
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Objective {
    /// The variable whose value is optimised.
    pub var: VarId,
    /// Which way.
    pub sense: Sense,
}

impl Objective {
    /// Smaller values of `var` are better.
    pub fn minimize(var: VarId) -> Self {
        Objective {
            var,
            sense: Sense::Minimize,
        }
    }

    /// Larger values of `var` are better.
    pub fn maximize(var: VarId) -> Self {
        Objective {
            var,
            sense: Sense::Maximize,
        }
    }

    /// Whether the objective value `a` is strictly better than `b`.
    pub fn is_better(&self, a: i64, b: i64) -> bool {
        match self.sense {
            Sense::Minimize => a < b,
            Sense::Maximize => a > b,
        }
    }

    /// The atom that a solution strictly better than one of value `value` makes true:
    /// `var <= value - 1` when minimising, `var >= value + 1` when maximising.
    pub fn better_than(&self, value: i32) -> Atom {
        match self.sense {
            Sense::Minimize => Atom::Le(self.var, value.saturating_sub(1)),
            Sense::Maximize => Atom::Ge(self.var, value.saturating_add(1)),
        }
    }
}
