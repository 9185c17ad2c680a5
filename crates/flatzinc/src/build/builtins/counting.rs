//! The counting builtins: `count`, `global_cardinality` (closed or not, with bounds or
//! with count variables), `nvalue` and `among`.

use super::Call;
use crate::build::Builder;
use crate::error::FznError;

impl Builder {
    /// The counting builtin `call` names, posted; `false` if it names none of them.
    pub(super) fn counting(&mut self, call: &Call<'_>) -> Result<bool, FznError> {
        let Call {
            name, args, line, ..
        } = *call;
        let arity = |n: usize| call.arity(n);
        let engine = Self::engine(line);
        match name {
            "csp_count_eq" => {
                arity(3)?;
                let xs = self.vars(&args[0], line)?;
                let [y, c] = [self.var(&args[1], line)?, self.var(&args[2], line)?];
                self.model.count(&xs, y, c).map_err(engine)?;
            }
            "csp_global_cardinality_low_up" | "csp_global_cardinality_low_up_closed" => {
                arity(4)?;
                let xs = self.vars(&args[0], line)?;
                let cover = self.small_consts(&args[1], line)?;
                let low = self.consts(&args[2], line)?;
                let high = self.consts(&args[3], line)?;
                let closed = name.ends_with("_closed");
                self.model
                    .global_cardinality(&xs, &cover, &low, &high, closed)
                    .map_err(engine)?;
            }
            "csp_global_cardinality" | "csp_global_cardinality_closed" => {
                arity(3)?;
                let xs = self.vars(&args[0], line)?;
                let cover = self.small_consts(&args[1], line)?;
                let counts = self.vars(&args[2], line)?;
                let closed = name.ends_with("_closed");
                self.model
                    .global_cardinality_counts(&xs, &cover, &counts, closed)
                    .map_err(engine)?;
            }
            "csp_nvalue" => {
                arity(2)?;
                let n = self.var(&args[0], line)?;
                let xs = self.vars(&args[1], line)?;
                self.model.nvalue(n, &xs).map_err(engine)?;
            }
            "csp_among" => {
                arity(3)?;
                let n = self.var(&args[0], line)?;
                let xs = self.vars(&args[1], line)?;
                let values = self.int_set(&args[2], line)?;
                self.model.among(n, &xs, &values).map_err(engine)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
