//! The graph globals: `circuit` / `subcircuit` and `path` / `dpath`.

use super::Call;
use crate::build::Builder;
use crate::error::FznError;

impl Builder {
    /// The graph builtin `call` names, posted; `false` if it names none of them.
    pub(super) fn graph(&mut self, call: &Call<'_>) -> Result<bool, FznError> {
        let Call {
            name, args, line, ..
        } = *call;
        let arity = |n: usize| call.arity(n);
        let engine = Self::engine(line);
        match name {
            "csp_circuit" | "csp_subcircuit" => {
                arity(2)?;
                let succ = self.vars(&args[0], line)?;
                let offset = i32::try_from(self.literal(&args[1], line)?).map_err(|_| {
                    FznError::on_line(line, "the circuit's first index is beyond 32 bits".into())
                })?;
                let sub = name == "csp_subcircuit";
                self.model.circuit(&succ, offset, sub).map_err(engine)?;
            }
            "csp_dpath" | "csp_path" => {
                arity(7)?;
                let first = Self::small(self.literal(&args[0], line)?, line)?;
                let from = self.small_consts(&args[1], line)?;
                let to = self.small_consts(&args[2], line)?;
                if from.len() != to.len() {
                    return Err(FznError::on_line(
                        line,
                        format!("{name}: {} edge starts but {} ends", from.len(), to.len()),
                    ));
                }
                let ends: Vec<(i32, i32)> = from.into_iter().zip(to).collect();
                let s = self.var(&args[3], line)?;
                let t = self.var(&args[4], line)?;
                let ns = self.vars(&args[5], line)?;
                let es = self.vars(&args[6], line)?;
                let directed = name == "csp_dpath";
                self.model
                    .path(first, &ends, s, t, &ns, &es, directed)
                    .map_err(engine)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
