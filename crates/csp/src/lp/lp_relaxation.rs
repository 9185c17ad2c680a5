//! `LpRelaxation`: the model's linear constraints and its objective as one LP, solved by the
//! dual simplex inside propagation, each conclusion rebuilt as an exact integer inequality.
//!
//! Consistency: what the LP relaxation proves, as far as bounds reasoning on one integer
//! combination of the rows can state it: at its optimum (or pivot limit), the combination by
//! the row duals, which bounds the objective by the LP's value (rounded up) and fixes the
//! columns whose reduced cost would carry the objective past its bound (reduced-cost
//! fixing); when the LP is infeasible, the Farkas combination, which fails the node.

use super::dual_simplex::{DualSimplex, LpStatus, SimplexRow};
use super::integer_inequality::{IntegerInequality, IntegerRow};
use crate::{Atom, Checkable, Conflict, Constraint, Context, Model, Objective, Priority, Sense};
use crate::{VarId, Wake};
use std::collections::HashMap;

/// Pivots allowed in the first solve of a search (the root), which warm-starts the rest.
const ROOT_PIVOTS: usize = 100_000;
/// Pivots allowed in the solve at any later node: a dual-feasible basis bounds the objective
/// wherever the solve stops, so a node never pays for more than this.
const NODE_PIVOTS: usize = 200;

/// The LP relaxation of a model (see the module documentation).
#[derive(Clone, Debug)]
pub struct LpRelaxation {
    /// Column `j` is `vars[j]`.
    vars: Vec<VarId>,
    rows: Vec<IntegerRow>,
    /// The column of the objective, and its sense.
    objective: Option<(usize, Sense)>,
}

/// What one search keeps of its LP between calls: the simplex with its last basis (a hint for
/// the next solve: bounds are read afresh each time) and buffers.
#[derive(Debug, Default)]
struct LpWork {
    simplex: Option<DualSimplex>,
    solves: u64,
    multipliers: Vec<f64>,
    inequality: IntegerInequality,
    reason: Vec<Atom>,
}

impl LpRelaxation {
    /// The relaxation of `model`'s linear constraints (those whose
    /// [`Constraint::checkable`] is a linear `<=` or `=`) with `objective`, or `None` when
    /// the model has no such constraint, or the objective is on none of them (the LP could
    /// then bound nothing).
    pub fn of_model(model: &Model, objective: Option<Objective>) -> Option<Self> {
        let mut column_of: HashMap<VarId, usize> = HashMap::new();
        let mut vars = Vec::new();
        let mut rows = Vec::new();
        for id in model.constraint_ids() {
            let Some(constraint) = model.constraint(id) else {
                continue;
            };
            let (terms, lower, upper) = match constraint.checkable() {
                Some(Checkable::LinearLe(terms, rhs)) => (terms, None, Some(rhs)),
                Some(Checkable::LinearEq(terms, rhs)) => (terms, Some(rhs), Some(rhs)),
                _ => continue,
            };
            let mut row: Vec<(usize, i64)> = Vec::with_capacity(terms.len());
            for (a, x) in terms {
                let j = *column_of.entry(x).or_insert_with(|| {
                    vars.push(x);
                    vars.len() - 1
                });
                match row.iter_mut().find(|(k, _)| *k == j) {
                    Some((_, b)) => *b = b.saturating_add(a),
                    None => row.push((j, a)),
                }
            }
            row.retain(|&(_, a)| a != 0);
            if !row.is_empty() {
                rows.push(IntegerRow {
                    terms: row,
                    lower,
                    upper,
                });
            }
        }
        if rows.is_empty() {
            return None;
        }
        let objective = match objective {
            Some(goal) => Some((*column_of.get(&goal.var)?, goal.sense)),
            None => None,
        };
        Some(LpRelaxation {
            vars,
            rows,
            objective,
        })
    }

    /// How many rows and columns the LP has.
    pub fn size(&self) -> (usize, usize) {
        (self.rows.len(), self.vars.len())
    }

    fn simplex(&self) -> DualSimplex {
        let mut cost = vec![0.0; self.vars.len()];
        if let Some((j, sense)) = self.objective {
            cost[j] = match sense {
                Sense::Minimize => 1.0,
                Sense::Maximize => -1.0,
            };
        }
        let inf = f64::INFINITY;
        let rows: Vec<SimplexRow> = self
            .rows
            .iter()
            .map(|row| {
                let terms = row.terms.iter().map(|&(j, a)| (j, a as f64)).collect();
                let lower = row.lower.map_or(-inf, |l| l as f64);
                let upper = row.upper.map_or(inf, |u| u as f64);
                (terms, lower, upper)
            })
            .collect();
        DualSimplex::new(self.vars.len(), &cost, &rows)
    }

    fn run(&self, ctx: &mut Context<'_>, work: &mut LpWork) -> Result<(), Conflict> {
        let lp = work.simplex.get_or_insert_with(|| self.simplex());
        for (j, &x) in self.vars.iter().enumerate() {
            let (Some(lo), Some(hi)) = (ctx.min(x), ctx.max(x)) else {
                return Ok(());
            };
            lp.set_bounds(j, f64::from(lo), f64::from(hi));
        }
        let limit = if work.solves == 0 {
            ROOT_PIVOTS
        } else {
            NODE_PIVOTS
        };
        work.solves += 1;
        let status = lp.solve(limit);
        ctx.count_checks(1);
        let m = lp.rows();
        work.multipliers.clear();
        match status {
            LpStatus::Infeasible { row } => {
                work.multipliers.extend_from_slice(lp.inverse_row(row));
                // Either sign of the Farkas row may be the one that fails on bounds.
                for _ in 0..2 {
                    if work
                        .inequality
                        .combine(&self.rows, &work.multipliers, self.vars.len())
                        .is_some()
                    {
                        work.inequality
                            .propagate(&self.vars, ctx, &mut work.reason)?;
                    }
                    work.multipliers.iter_mut().for_each(|m| *m = -*m);
                }
                Ok(())
            }
            LpStatus::Optimal | LpStatus::PivotLimit => {
                if self.objective.is_none() {
                    return Ok(());
                }
                // c·x >= sum(pi_i * row_i), as `-pi · rows <= ...` in the `<=` form.
                work.multipliers.extend((0..m).map(|i| -lp.row_dual(i)));
                if work
                    .inequality
                    .combine(&self.rows, &work.multipliers, self.vars.len())
                    .is_some()
                {
                    work.inequality
                        .propagate(&self.vars, ctx, &mut work.reason)?;
                }
                Ok(())
            }
        }
    }
}

impl Constraint for LpRelaxation {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    /// Every row holds: the relaxation is implied by the constraints it was read from.
    fn is_satisfied(&self, values: &[i32]) -> bool {
        self.rows.iter().all(|row| {
            let sum: i128 = row
                .terms
                .iter()
                .map(|&(j, a)| i128::from(a) * i128::from(values[j]))
                .sum();
            row.lower.is_none_or(|l| sum >= i128::from(l))
                && row.upper.is_none_or(|u| sum <= i128::from(u))
        })
    }

    fn describe(&self) -> String {
        let (m, n) = self.size();
        format!("lp_relaxation({m} rows, {n} columns)")
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.with_scratch::<LpWork, _>(|ctx, work| self.run(ctx, work))
    }

    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Bounds
    }

    fn priority(&self) -> Priority {
        Priority::Global
    }

    /// Plain backtracking checks only what is assigned; the LP waits for `fc` and above.
    fn check_assigned(&self, _var: VarId, _ctx: &mut Context<'_>) -> Result<(), Conflict> {
        Ok(())
    }

    fn forward_check(&self, _var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.propagate(ctx)
    }
}
