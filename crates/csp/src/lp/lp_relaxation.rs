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
use super::mir_cut::mir_cut;
use crate::{Atom, Conflict, Constraint, Context, DeclaredBounds, LinearRow, Model, Objective};
use crate::{Priority, Sense};
use crate::{VarId, Wake};
use std::collections::HashMap;

/// The work allowed the first solve of a search (the root), which warm-starts the rest, in
/// pivots times the LP's rows and columns (what a pivot costs where its vectors are dense):
/// a second or so, however large the LP. A dual-feasible basis bounds the objective
/// wherever a solve stops, so a limit only weakens the bound.
const ROOT_WORK: usize = 300_000_000;
/// The most pivots of the root solve, on a small LP.
const ROOT_PIVOTS: usize = 100_000;
/// The work allowed a solve at any later node, in the same units: 200 pivots on an LP of a
/// thousand rows and columns, fewer on a larger one.
const NODE_WORK: usize = 200_000;
/// The most pivots at a later node, and the fewest: a few pivots repair most bound changes.
const NODE_PIVOTS: usize = 200;
const NODE_LEAST_PIVOTS: usize = 10;
/// Rounds of cuts at the root: each separates MIR cuts from the tableau rows of the most
/// fractional basic columns and solves again.
const CUT_ROUNDS: usize = 5;
/// The tableau rows tried for cuts in one round.
const CUT_CANDIDATES: usize = 30;

/// The most calls skipped between two solves. A solve that infers nothing doubles the
/// calls skipped before the next one (1, 2, 4, ... up to this); one that infers something
/// brings the LP back to every call. Skipping is sound (a propagator may always do less)
/// and keeps an LP that prunes nothing, on a model it does not suit, from costing the
/// search more than a few percent of its calls.
const MOST_SKIPPED: u64 = 32;

/// The LP relaxation of a model (see the module documentation).
#[derive(Clone, Debug)]
pub struct LpRelaxation {
    /// Column `j` is `vars[j]`.
    vars: Vec<VarId>,
    /// Each column's declared bounds: they hold everywhere in the search, so cuts rounded
    /// over them hold everywhere too, whichever node the first solve happens at.
    declared: Vec<(i64, i64)>,
    rows: Vec<IntegerRow>,
    /// The column of the objective, and its sense.
    objective: Option<(usize, Sense)>,
}

/// Classes of variables that rows make equal, each named by one of its members (union by
/// a parent map, paths halved as they are walked).
#[derive(Default)]
struct Representatives {
    parent: HashMap<VarId, VarId>,
}

impl Representatives {
    /// The member that names `x`'s class.
    fn of(&mut self, mut x: VarId) -> VarId {
        while let Some(&p) = self.parent.get(&x) {
            if let Some(&grand) = self.parent.get(&p) {
                self.parent.insert(x, grand);
            }
            x = p;
        }
        x
    }

    /// Puts `x` and `y` in one class.
    fn join(&mut self, x: VarId, y: VarId) {
        let (x, y) = (self.of(x), self.of(y));
        if x != y {
            // The earlier variable names the class, so the choice does not hang on row order.
            let (keep, child) = if x < y { (x, y) } else { (y, x) };
            self.parent.insert(child, keep);
        }
    }
}

/// What one search keeps of its LP between calls: the simplex with its last basis (a hint for
/// the next solve: bounds are read afresh each time) and buffers.
#[derive(Debug, Default)]
struct LpWork {
    simplex: Option<DualSimplex>,
    solves: u64,
    /// Calls to the propagator, and the first one that solves again.
    calls: u64,
    next_solve: u64,
    /// Calls skipped after the last solve that inferred nothing.
    skip: u64,
    /// The cuts added at the root, rows after the relaxation's own.
    cuts: Vec<IntegerRow>,
    multipliers: Vec<f64>,
    inequality: IntegerInequality,
    reason: Vec<Atom>,
}

impl LpRelaxation {
    /// The relaxation of `model`: the rows every constraint gives ([`Constraint::relax`]:
    /// linear constraints as they are, reifications as big-M rows, gates as their convex
    /// hulls, and so on) with `objective`, or `None` when there are no rows, or the
    /// objective is in none of them (the LP could then bound nothing).
    ///
    /// Variables that a row `a x - a y = 0` makes equal (`bool2int`'s two views of one
    /// Boolean, above all) share one column, named by one of them: the LP is the same with
    /// one column fewer and one row fewer, and what it infers of that variable holds of the
    /// other, which the equality's own propagator carries over. A row of a single column is
    /// a bound, which the LP reads from the domains anyway, and is left out.
    pub fn of_model(model: &Model, objective: Option<Objective>) -> Option<Self> {
        let mut relaxed: Vec<LinearRow> = Vec::new();
        for id in model.constraint_ids() {
            if let Some(constraint) = model.constraint(id) {
                constraint.relax(model, &mut relaxed);
            }
        }
        let mut same = Representatives::default();
        for row in &relaxed {
            if let ([(a, x), (b, y)], Some(0), Some(0)) = (&row.terms[..], row.lower, row.upper) {
                if *a == -*b && x != y {
                    same.join(*x, *y);
                }
            }
        }
        let mut column_of: HashMap<VarId, usize> = HashMap::new();
        let mut vars = Vec::new();
        let mut rows = Vec::new();
        let mut row: Vec<(VarId, i64)> = Vec::new();
        for LinearRow {
            terms,
            lower,
            upper,
        } in relaxed
        {
            row.clear();
            for (a, x) in terms {
                let x = same.of(x);
                match row.iter_mut().find(|(y, _)| *y == x) {
                    Some((_, b)) => *b = b.saturating_add(a),
                    None => row.push((x, a)),
                }
            }
            row.retain(|&(_, a)| a != 0);
            if row.len() < 2 || (lower.is_none() && upper.is_none()) {
                continue;
            }
            let terms = row
                .iter()
                .map(|&(x, a)| {
                    let j = *column_of.entry(x).or_insert_with(|| {
                        vars.push(x);
                        vars.len() - 1
                    });
                    (j, a)
                })
                .collect();
            rows.push(IntegerRow {
                terms,
                lower,
                upper,
            });
        }
        if rows.is_empty() {
            return None;
        }
        let objective = match objective {
            Some(goal) => Some((*column_of.get(&same.of(goal.var))?, goal.sense)),
            None => None,
        };
        let declared = vars
            .iter()
            .map(|&x| {
                let (lo, hi) = model.bounds(x);
                (i64::from(lo), i64::from(hi))
            })
            .collect();
        Some(LpRelaxation {
            vars,
            declared,
            rows,
            objective,
        })
    }

    /// Rounds of MIR cuts at the root (see [`mir_cut`]): each row of the relaxation that
    /// names a fractional column, and the tableau rows of the most fractional basic
    /// columns, each combined exactly from the rows (both signs), rounded over the declared
    /// bounds (not the current ones, so that the cuts hold in the whole search), and added
    /// where violated; the LP solved again after each round. Returns how the last solve
    /// ended.
    fn cut(&self, lp: &mut DualSimplex, work: &mut LpWork) -> LpStatus {
        let n = self.vars.len();
        let mut status = LpStatus::Optimal;
        for _ in 0..CUT_ROUNDS {
            let values: Vec<f64> = (0..n).map(|j| lp.column_value(j)).collect();
            let mut fractional: Vec<(f64, usize)> = (0..lp.rows())
                .filter_map(|p| {
                    let (_, v) = lp.basic_structural(p)?;
                    let f = v - v.floor();
                    (f > 0.01 && f < 0.99).then_some(((f - 0.5).abs(), p))
                })
                .collect();
            fractional.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut found: Vec<IntegerRow> = Vec::new();
            let is_fractional = |j: usize| {
                let f = values[j] - values[j].floor();
                f > 1e-6 && f < 1.0 - 1e-6
            };
            // The rows themselves, on a side the LP point makes tight, where they name a
            // fractional column: knapsack covers and their like.
            let mut tried = 0;
            for row in &self.rows {
                if tried >= CUT_CANDIDATES || !row.terms.iter().any(|&(j, _)| is_fractional(j)) {
                    continue;
                }
                let activity: f64 = row.terms.iter().map(|&(j, a)| a as f64 * values[j]).sum();
                let tight = |side: Option<i64>| {
                    side.is_some_and(|b| {
                        (activity - b as f64).abs() <= 1e-6 * (1.0 + activity.abs())
                    })
                };
                for lower in [false, true] {
                    if tight(if lower { row.lower } else { row.upper })
                        && work.inequality.set_to_row(row, lower, n).is_some()
                    {
                        tried += 1;
                        self.round(work, &values, &mut found);
                    }
                }
            }
            // The tableau rows: Gomory's mixed-integer cuts, as MIR of them.
            for &(_, p) in fractional.iter().take(CUT_CANDIDATES) {
                work.multipliers.clear();
                work.multipliers.extend_from_slice(lp.inverse_row(p));
                self.round_combination(work, &values, &mut found);
            }
            if found.is_empty() {
                break;
            }
            let rows: Vec<SimplexRow> = found
                .iter()
                .map(|c| {
                    let terms = c.terms.iter().map(|&(j, a)| (j, a as f64)).collect();
                    (
                        terms,
                        f64::NEG_INFINITY,
                        c.upper.map_or(f64::INFINITY, |u| u as f64),
                    )
                })
                .collect();
            lp.add_rows(&rows);
            work.cuts.extend(found);
            let size = self.rows.len() + work.cuts.len() + n;
            status = lp.solve((ROOT_WORK / size).min(ROOT_PIVOTS));
            if status != LpStatus::Optimal {
                break;
            }
        }
        status
    }

    /// The MIR cuts of the combination of the rows by `work.multipliers` and by their
    /// negation, over the declared bounds at the LP point `values`, added to `found` where
    /// new.
    fn round_combination(&self, work: &mut LpWork, values: &[f64], found: &mut Vec<IntegerRow>) {
        for _ in 0..2 {
            let rows = self.rows.iter().chain(&work.cuts);
            if work
                .inequality
                .combine(rows, &work.multipliers, self.vars.len())
                .is_some()
            {
                self.round(work, values, found);
            }
            work.multipliers.iter_mut().for_each(|m| *m = -*m);
        }
    }

    /// The MIR cut of `work.inequality` at the LP point `values`, added to `found` where
    /// there is one and it is new.
    fn round(&self, work: &LpWork, values: &[f64], found: &mut Vec<IntegerRow>) {
        if let Some((cut, _)) = mir_cut(&work.inequality, &self.declared, values) {
            if !found.contains(&cut) && !work.cuts.contains(&cut) {
                found.push(cut);
            }
        }
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

    /// One call of the propagator: a solve, unless the calls are being skipped (see
    /// [`MOST_SKIPPED`]).
    fn run(&self, ctx: &mut Context<'_>, work: &mut LpWork) -> Result<(), Conflict> {
        work.calls += 1;
        if work.solves > 0 && work.calls < work.next_solve {
            return Ok(());
        }
        let inferred = self.solve(ctx, work);
        work.skip = match inferred {
            Ok(0) => (work.skip * 2).clamp(1, MOST_SKIPPED),
            _ => 0,
        };
        work.next_solve = work.calls + 1 + work.skip;
        inferred.map(drop)
    }

    /// Solves the LP from the current bounds and infers what its duals (or its Farkas row)
    /// imply: how many bounds that moved, or the conflict.
    fn solve(&self, ctx: &mut Context<'_>, work: &mut LpWork) -> Result<u32, Conflict> {
        let mut lp = work.simplex.take().unwrap_or_else(|| self.simplex());
        let inferred = self.solve_with(&mut lp, ctx, work);
        work.simplex = Some(lp);
        inferred
    }

    /// [`LpRelaxation::solve`] on the search's simplex, taken out of `work` meanwhile.
    fn solve_with(
        &self,
        lp: &mut DualSimplex,
        ctx: &mut Context<'_>,
        work: &mut LpWork,
    ) -> Result<u32, Conflict> {
        for (j, &x) in self.vars.iter().enumerate() {
            let (Some(lo), Some(hi)) = (ctx.min(x), ctx.max(x)) else {
                return Ok(0);
            };
            lp.set_bounds(j, f64::from(lo), f64::from(hi));
        }
        let size = self.rows.len() + work.cuts.len() + self.vars.len();
        let limit = if work.solves == 0 {
            (ROOT_WORK / size).min(ROOT_PIVOTS)
        } else {
            (NODE_WORK / size).clamp(NODE_LEAST_PIVOTS, NODE_PIVOTS)
        };
        let root = work.solves == 0;
        work.solves += 1;
        let mut status = lp.solve(limit);
        if root && status == LpStatus::Optimal && self.objective.is_some() {
            status = self.cut(lp, work);
        }
        ctx.count_checks(1);
        let m = lp.rows();
        work.multipliers.clear();
        match status {
            LpStatus::Infeasible { row } => {
                work.multipliers.extend_from_slice(lp.inverse_row(row));
                // Either sign of the Farkas row may be the one that fails on bounds.
                let mut moved = 0;
                for _ in 0..2 {
                    if work
                        .inequality
                        .combine(
                            self.rows.iter().chain(&work.cuts),
                            &work.multipliers,
                            self.vars.len(),
                        )
                        .is_some()
                    {
                        moved += work
                            .inequality
                            .propagate(&self.vars, ctx, &mut work.reason)?;
                    }
                    work.multipliers.iter_mut().for_each(|m| *m = -*m);
                }
                Ok(moved)
            }
            LpStatus::Optimal | LpStatus::PivotLimit => {
                if self.objective.is_none() {
                    return Ok(0);
                }
                // c·x >= sum(pi_i * row_i), as `-pi · rows <= ...` in the `<=` form.
                work.multipliers.extend((0..m).map(|i| -lp.row_dual(i)));
                if work
                    .inequality
                    .combine(
                        self.rows.iter().chain(&work.cuts),
                        &work.multipliers,
                        self.vars.len(),
                    )
                    .is_some()
                {
                    return work.inequality.propagate(&self.vars, ctx, &mut work.reason);
                }
                Ok(0)
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
