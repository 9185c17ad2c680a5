//! `Operand`: a variable or a constant, where a constraint takes either.

use crate::{Model, ModelError, VarId};

/// A variable or a constant: what [`Model::compare`] compares with, and what
/// [`Model::cumulative`] takes for durations, usages and capacity. `VarId`s and integers
/// convert into it, so a call passes either as it is.
///
/// ```
/// # fn main() -> Result<(), csp::ModelError> {
/// use csp::{Model, Relation, Solver};
/// let mut model = Model::new();
/// let x = model.new_var(1..=5)?;
/// let y = model.new_var(1..=5)?;
/// model.compare(x, Relation::Lt, y)?; // a variable
/// model.compare(y, Relation::Le, 3)?; // a constant
/// assert_eq!(Solver::new(&model).count(), 3);
/// # Ok(())
/// # }
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A variable of the model.
    Var(VarId),
    /// A constant.
    Value(i64),
}

impl From<VarId> for Operand {
    fn from(var: VarId) -> Self {
        Operand::Var(var)
    }
}

impl From<i32> for Operand {
    fn from(value: i32) -> Self {
        Operand::Value(i64::from(value))
    }
}

impl From<i64> for Operand {
    fn from(value: i64) -> Self {
        Operand::Value(value)
    }
}

impl Model {
    /// The variable an operand stands for: a constant becomes a variable fixed to it, for the
    /// propagators that read every argument from a domain.
    pub(crate) fn operand_var(&mut self, operand: impl Into<Operand>) -> Result<VarId, ModelError> {
        match operand.into() {
            Operand::Var(var) => Ok(var),
            Operand::Value(value) => {
                let value = i32::try_from(value).map_err(|_| {
                    ModelError::OutOfRange(format!("the constant {value} is outside i32"))
                })?;
                let var = self.new_var(value..=value)?;
                self.set_introduced(var);
                Ok(var)
            }
        }
    }

    /// [`Model::operand_var`] for each of `operands`.
    pub(crate) fn operand_vars<T: Copy + Into<Operand>>(
        &mut self,
        operands: &[T],
    ) -> Result<Vec<VarId>, ModelError> {
        operands.iter().map(|&o| self.operand_var(o)).collect()
    }
}
