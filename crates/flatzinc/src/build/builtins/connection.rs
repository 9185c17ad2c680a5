//! The builtins that connect variables through indices: `element` over constants and
//! over variables, `inverse`, `member` over variables, and `arg_max` / `arg_min`.

use super::Call;
use crate::build::Builder;
use crate::error::FznError;

impl Builder {
    /// The connection builtin `call` names, posted; `false` if it names none of them.
    pub(super) fn connection(&mut self, call: &Call<'_>) -> Result<bool, FznError> {
        let Call {
            name, args, line, ..
        } = *call;
        let arity = |n: usize| call.arity(n);
        let engine = Self::engine(line);
        match name {
            "array_int_element" | "array_bool_element" => {
                arity(3)?;
                let index = self.var(&args[0], line)?;
                let values = self.small_consts(&args[1], line)?;
                let result = self.var(&args[2], line)?;
                self.model
                    .element(index, &values, 1, result)
                    .map_err(engine)?;
            }
            "array_var_int_element" | "array_var_bool_element" => {
                arity(3)?;
                let index = self.var(&args[0], line)?;
                let vars = self.vars(&args[1], line)?;
                let result = self.var(&args[2], line)?;
                self.model
                    .element_vars(index, &vars, 1, result)
                    .map_err(engine)?;
            }
            "csp_inverse" => {
                arity(4)?;
                let f = self.vars(&args[0], line)?;
                let f_first = self.literal(&args[1], line)?;
                let g = self.vars(&args[2], line)?;
                let g_first = self.literal(&args[3], line)?;
                self.model
                    .inverse(&f, f_first, &g, g_first)
                    .map_err(engine)?;
            }
            "csp_member_of" => {
                arity(2)?;
                let xs = self.vars(&args[0], line)?;
                let y = self.var(&args[1], line)?;
                self.model.member_of(&xs, y).map_err(engine)?;
            }
            "csp_arg_max" | "csp_arg_min" => {
                arity(3)?;
                let xs = self.vars(&args[0], line)?;
                let first = self.literal(&args[1], line)?;
                let z = self.var(&args[2], line)?;
                if name == "csp_arg_max" {
                    self.model.arg_max(&xs, first, z).map_err(engine)?;
                } else {
                    self.model.arg_min(&xs, first, z).map_err(engine)?;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
