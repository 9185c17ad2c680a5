//! The extensional and language globals: `table`, `regular` and `mdd`.

use super::super::Values;
use super::Call;
use crate::build::Builder;
use crate::error::FznError;
use csp::constraints::Regular;

impl Builder {
    /// The language builtin `call` names, posted; `false` if it names none of them.
    pub(super) fn language(&mut self, call: &Call<'_>) -> Result<bool, FznError> {
        let Call {
            name, args, line, ..
        } = *call;
        let arity = |n: usize| call.arity(n);
        let engine = Self::engine(line);
        match name {
            "csp_table_int" | "csp_table_bool" => {
                arity(2)?;
                let xs = self.vars(&args[0], line)?;
                let cells = self.consts(&args[1], line)?;
                if xs.is_empty() || cells.len() % xs.len() != 0 {
                    return Err(FznError::on_line(
                        line,
                        format!(
                            "{name}: {} values do not make tuples of {}",
                            cells.len(),
                            xs.len()
                        ),
                    ));
                }
                let tuples = cells
                    .chunks(xs.len())
                    .map(|t| t.iter().map(|&v| i32::try_from(v).ok().map(Some)).collect())
                    .collect::<Option<Vec<Vec<Option<i32>>>>>()
                    .ok_or_else(|| {
                        FznError::on_line(line, format!("{name}: a value beyond 32 bits"))
                    })?;
                self.model.extension(&xs, &tuples, true).map_err(engine)?;
            }
            "csp_regular" => {
                arity(7)?;
                let xs = self.vars(&args[0], line)?;
                let count = |v: i64, what: &str| {
                    usize::try_from(v)
                        .map_err(|_| FznError::on_line(line, format!("regular: {what} is {v}")))
                };
                let states = count(self.literal(&args[1], line)?, "the number of states")?;
                let symbols = count(self.literal(&args[2], line)?, "the number of symbols")?;
                let next = self.consts(&args[3], line)?;
                let start = self.literal(&args[4], line)?;
                let accepting = match self.set_value(&args[5], line)? {
                    Values::Range(low, high) => (low..=high).collect(),
                    Values::List(values) => values,
                };
                let first = self.literal(&args[6], line)?;
                let c = Regular::new(&xs, states, symbols, &next, start, &accepting)
                    .map_err(|why| FznError::on_line(line, why))?;
                let c = i32::try_from(first)
                    .ok()
                    .and_then(|first| c.symbols_from(first))
                    .ok_or_else(|| {
                        FznError::on_line(line, "regular: the symbols pass 32 bits".into())
                    })?;
                self.model.post(c).map_err(engine)?;
            }
            "csp_mdd" => {
                arity(5)?;
                let xs = self.vars(&args[0], line)?;
                let nodes = usize::try_from(self.literal(&args[1], line)?).map_err(|_| {
                    FznError::on_line(line, "mdd: a negative number of nodes".into())
                })?;
                let node = |v: i64| {
                    usize::try_from(v)
                        .map_err(|_| FznError::on_line(line, format!("mdd: node {v}")))
                };
                let from = self.consts(&args[2], line)?;
                let labels = self.int_sets(&args[3], line)?;
                let to = self.consts(&args[4], line)?;
                if from.len() != labels.len() || to.len() != labels.len() {
                    return Err(FznError::on_line(
                        line,
                        "mdd: the edges' from, label and to differ in number".into(),
                    ));
                }
                let mut edges = Vec::with_capacity(labels.len());
                for ((f, label), t) in from.into_iter().zip(labels).zip(to) {
                    edges.push((node(f)?, label, node(t)?));
                }
                self.model.mdd(&xs, nodes, &edges).map_err(engine)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
