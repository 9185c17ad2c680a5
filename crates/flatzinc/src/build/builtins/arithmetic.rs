//! The arithmetic builtins: sums and differences, products, quotients, remainders and
//! powers, absolute values, and the least and greatest of two or of an array.

use super::Call;
use crate::build::Builder;
use crate::error::FznError;
use csp::constraints::ArithOp;
use csp::Relation;

impl Builder {
    /// The arithmetic builtin `call` names, posted; `false` if it names none of them.
    pub(super) fn arithmetic(&mut self, call: &Call<'_>) -> Result<bool, FznError> {
        let Call {
            name, args, line, ..
        } = *call;
        let arity = |n: usize| call.arity(n);
        let engine = Self::engine(line);
        match name {
            "int_plus" | "int_minus" => {
                arity(3)?;
                let [a, b, c] = self.first_vars::<3>(args, line)?;
                // a + b = c, or a - b = c.
                let sign = if name == "int_plus" { 1 } else { -1 };
                self.model
                    .linear(&[(1, a), (sign, b), (-1, c)], Relation::Eq, 0)
                    .map_err(engine)?;
            }
            "int_times" | "int_div" | "int_mod" | "int_pow" => {
                arity(3)?;
                let op = match name {
                    "int_times" => ArithOp::Times,
                    "int_div" => ArithOp::Div,
                    "int_mod" => ArithOp::Mod,
                    _ => ArithOp::Pow,
                };
                let [a, b, c] = self.first_vars::<3>(args, line)?;
                self.model.arith(op, a, b, c).map_err(engine)?;
            }
            "int_abs" => {
                arity(2)?;
                let [a, b] = self.first_vars::<2>(args, line)?;
                self.model.abs(a, b).map_err(engine)?;
            }
            "int_max" | "int_min" => {
                arity(3)?;
                let [a, b, c] = self.first_vars::<3>(args, line)?;
                if name == "int_max" {
                    self.model.max(&[a, b], c).map_err(engine)?;
                } else {
                    self.model.min(&[a, b], c).map_err(engine)?;
                }
            }
            "array_int_maximum" | "array_int_minimum" => {
                arity(2)?;
                let m = self.var(&args[0], line)?;
                let xs = self.vars(&args[1], line)?;
                if name == "array_int_maximum" {
                    self.model.max(&xs, m).map_err(engine)?;
                } else {
                    self.model.min(&xs, m).map_err(engine)?;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
