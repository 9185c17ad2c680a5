//! The scheduling and packing globals: `cumulative`, `disjunctive` (strict or not),
//! `diffn` (strict or not), `bin_packing_load` and `knapsack`.

use super::Call;
use crate::build::Builder;
use crate::error::FznError;

impl Builder {
    /// The scheduling builtin `call` names, posted; `false` if it names none of them.
    pub(super) fn scheduling(&mut self, call: &Call<'_>) -> Result<bool, FznError> {
        let Call {
            name, args, line, ..
        } = *call;
        let arity = |n: usize| call.arity(n);
        let engine = Self::engine(line);
        match name {
            "csp_cumulative" => {
                arity(4)?;
                let starts = self.vars(&args[0], line)?;
                let durations = self.vars(&args[1], line)?;
                let usages = self.vars(&args[2], line)?;
                let capacity = self.var(&args[3], line)?;
                self.model
                    .cumulative(&starts, &durations, &usages, capacity)
                    .map_err(engine)?;
            }
            "csp_disjunctive" | "csp_disjunctive_strict" => {
                arity(2)?;
                let starts = self.vars(&args[0], line)?;
                let durations = self.consts(&args[1], line)?;
                let strict = name == "csp_disjunctive_strict";
                self.model
                    .disjunctive(&starts, &durations, strict)
                    .map_err(engine)?;
            }
            "csp_diffn" | "csp_diffn_nonstrict" => {
                arity(4)?;
                let x = self.vars(&args[0], line)?;
                let y = self.vars(&args[1], line)?;
                let dx = self.vars(&args[2], line)?;
                let dy = self.vars(&args[3], line)?;
                let strict = name == "csp_diffn";
                self.model.diffn(&x, &y, &dx, &dy, strict).map_err(engine)?;
            }
            "csp_bin_packing_load" => {
                arity(4)?;
                let loads = self.vars(&args[0], line)?;
                let first = Self::small(self.literal(&args[1], line)?, line)?;
                let bins = self.vars(&args[2], line)?;
                let weights = self.small_consts(&args[3], line)?;
                self.model
                    .bin_packing_load(&loads, first, &bins, &weights)
                    .map_err(engine)?;
            }
            "csp_knapsack" => {
                arity(5)?;
                let weights = self.small_consts(&args[0], line)?;
                let profits = self.small_consts(&args[1], line)?;
                let xs = self.vars(&args[2], line)?;
                let weight = self.var(&args[3], line)?;
                let profit = self.var(&args[4], line)?;
                self.model
                    .knapsack(&weights, &profits, &xs, weight, profit)
                    .map_err(engine)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
