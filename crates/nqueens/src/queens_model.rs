//! `QueensModel`: the N-Queens model on the engine, one variable per row.

use crate::Encoding;
use csp::{Limit, Model, ModelError, Poller, VarId};

/// An N-Queens model: `rows[i]` is the column (0-based) of the queen in row `i`.
#[derive(Debug)]
pub struct QueensModel {
    /// The model to hand to a [`csp::Solver`].
    pub model: Model,
    /// The row variables, top row first.
    pub rows: Vec<VarId>,
}

impl QueensModel {
    /// Builds the model for an `n` x `n` board. Constraints are named for traces: `column`,
    /// `diagonal` and `anti-diagonal`, with the rows they join under the binary encoding.
    pub fn new(n: usize, encoding: Encoding) -> Result<Self, ModelError> {
        Self::build(n, encoding, &mut Poller::unlimited())
    }

    /// As [`QueensModel::new`], ticking `poller` once per row: at 100,000 rows the domains
    /// alone are 1.25 GB. Fails with [`ModelError::Stopped`] when the poller's limits stop it.
    pub fn build(n: usize, encoding: Encoding, poller: &mut Poller) -> Result<Self, ModelError> {
        let stopped =
            |poller: &Poller| ModelError::Stopped(poller.stopped().unwrap_or(Limit::Cancelled));
        let last = i32::try_from(n)
            .map_err(|_| ModelError::OutOfRange(format!("the board size {n}")))?
            - 1;
        let mut model = Model::new();
        let mut rows = Vec::with_capacity(n);
        for i in 0..n {
            rows.push(model.new_named_var(format!("row {}", i + 1), 0..=last)?);
            if !poller.tick() {
                return Err(stopped(poller));
            }
        }
        match encoding {
            Encoding::Binary => {
                for i in 0..n {
                    for j in i + 1..n {
                        let (a, b) = (i + 1, j + 1);
                        let gap = (j - i) as i32;
                        let (qi, qj) = (rows[i], rows[j]);
                        let column = csp::constraints::NotEqual::new(qi, qj, 0);
                        model.post_named(column, format!("column (rows {a} and {b})"))?;
                        // q[i] = q[j] + gap puts row i's queen to the right: a "/" diagonal.
                        let anti = csp::constraints::NotEqual::new(qi, qj, gap);
                        model.post_named(anti, format!("anti-diagonal (rows {a} and {b})"))?;
                        let diag = csp::constraints::NotEqual::new(qi, qj, -gap);
                        model.post_named(diag, format!("diagonal (rows {a} and {b})"))?;
                        if !poller.tick() {
                            return Err(stopped(poller));
                        }
                    }
                }
            }
            Encoding::AllDiff => {
                let up: Vec<i32> = (0..n as i32).collect();
                let down: Vec<i32> = (0..n as i32).map(|i| -i).collect();
                let all = |offsets: Vec<i32>| {
                    csp::constraints::AllDifferent::with_offsets(rows.clone(), offsets)
                        .ok_or_else(|| ModelError::InvalidConstraint("offsets".into()))
                };
                let columns = all(vec![0; n])?;
                let anti = all(up)?;
                let diag = all(down)?;
                if n > 0 {
                    model.post_named(columns, "column")?;
                    model.post_named(anti, "anti-diagonal")?;
                    model.post_named(diag, "diagonal")?;
                }
            }
        }
        Ok(QueensModel { model, rows })
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.rows.len()
    }

    /// The columns of a solution of this model, row by row.
    pub fn columns(&self, solution: &csp::Solution<'_>) -> Vec<usize> {
        self.rows
            .iter()
            .map(|&r| solution.value(r) as usize)
            .collect()
    }
}
