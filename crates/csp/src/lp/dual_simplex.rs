//! `DualSimplex`: a bounded dual simplex over boxed columns, on a sparse LU factorization of
//! its basis, warm-started from its last basis after bounds change.
//!
//! The LP is `min c·x` over `A x - r = 0`, `l <= x <= u` (structural columns, every bound
//! finite: they are a CP variable's bounds) and `lo <= r <= hi` (one logical column per row;
//! either side may be infinite). Because every structural column is boxed, any basis is made
//! dual feasible by placing each nonbasic column at the bound its reduced cost points to: the
//! slack basis starts the first solve with no phase 1, and after bounds change the previous
//! basis is still dual feasible, so a node's LP costs the few pivots that repair its primal
//! infeasibility: why a dual simplex is what every LP-in-search solver runs (Chuffed's
//! `mip/`, CP-SAT's use of glop). Floating point decides nothing on its own here: the
//! multipliers it returns are rebuilt in exact integer arithmetic before anything is inferred
//! (see `IntegerInequality`).
//!
//! Each pivot costs the nonzeros of `A`, of the basis factors and of their updates
//! ([`BasisFactor`]): the row of the basis inverse by a backward solve, the pivot row by `A`'s
//! rows, the entering column by a forward solve. The basis is factored afresh every
//! [`REFACTOR_EVERY`] pivots, or sooner when the updates grow or a pivot disagrees with its
//! forward solve.

// Linear algebra over rows, positions and columns reads as the textbook does with indices.
#![allow(clippy::needless_range_loop)]

use super::basis_factor::{BasisColumns, BasisFactor};

/// One row for [`DualSimplex::new`]: its `(column, coefficient)` terms and its two sides.
pub(crate) type SimplexRow = (Vec<(usize, f64)>, f64, f64);

/// Pivots between two factorizations of the basis.
const REFACTOR_EVERY: usize = 100;
/// A basic value this far outside its bounds (relative to the bound's size) is infeasible.
const PRIMAL_TOLERANCE: f64 = 1e-7;
/// Reduced costs this far on the wrong side of zero still count as dual feasible.
const DUAL_TOLERANCE: f64 = 1e-9;
/// The smallest pivot element taken.
const PIVOT_TOLERANCE: f64 = 1e-9;
/// A multiplier of the backward solve this small is taken as zero in the pivot row.
const ZERO: f64 = 1e-12;
/// The least a steepest-edge weight is kept at, against rounding.
const WEIGHT_FLOOR: f64 = 1e-6;

/// How a solve ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum LpStatus {
    /// Primal and dual feasible: the row duals prove the optimum.
    Optimal,
    /// The basic column in row position `row` cannot be brought within its bounds: the row
    /// of the basis inverse at that position is a Farkas certificate.
    Infeasible { row: usize },
    /// The pivot limit came first; the basis is still dual feasible, so its row duals still
    /// give a valid (weaker) bound.
    PivotLimit,
}

/// A bounded dual simplex (see the module documentation).
#[derive(Clone, Debug, Default)]
pub(crate) struct DualSimplex {
    /// Structural columns.
    n: usize,
    /// Rows (and logical columns).
    m: usize,
    /// `A` by columns: column `j`'s entries are `col_start[j]..col_start[j + 1]`.
    col_start: Vec<usize>,
    col_row: Vec<usize>,
    col_value: Vec<f64>,
    /// `A` by rows, for the pivot row: row `i`'s entries are `row_start[i]..row_start[i + 1]`.
    row_start: Vec<usize>,
    row_col: Vec<usize>,
    row_value: Vec<f64>,
    /// Costs of the `n + m` columns (logical columns cost nothing).
    cost: Vec<f64>,
    lower: Vec<f64>,
    upper: Vec<f64>,
    /// The column basic at each row position.
    head: Vec<usize>,
    /// Each column's row position if basic, `usize::MAX` if not.
    position: Vec<usize>,
    /// For a nonbasic column, whether it sits at its upper bound.
    at_upper: Vec<bool>,
    /// The factored basis, with its updates.
    factor: BasisFactor,
    /// Whether the factor describes the current basis.
    factored: bool,
    /// A pivot's forward solve disagreed with its pivot row: factor before the next one.
    unsteady: bool,
    /// Each basis position's dual steepest-edge weight: the squared norm of its row of the
    /// basis inverse, kept up to date by the update of Forrest and Goldfarb (1992).
    weights: Vec<f64>,
    /// Column values (nonbasic at a bound, basic solved for).
    x: Vec<f64>,
    /// Reduced costs (zero for basic columns).
    d: Vec<f64>,
    /// Pivots made over every solve.
    pub(crate) pivots: u64,
    // Scratch, reused across pivots.
    rho: Vec<f64>,
    alpha: Vec<f64>,
    column: Vec<f64>,
    tau: Vec<f64>,
    basis_columns: BasisColumns,
}

impl DualSimplex {
    /// An LP of `n` structural columns with costs `cost`, bounds `[0, 0]` until set, and one
    /// row per entry of `rows`: its `(column, coefficient)` terms and its sides.
    pub(crate) fn new(n: usize, cost: &[f64], rows: &[SimplexRow]) -> Self {
        let m = rows.len();
        let mut count = vec![0usize; n + 1];
        for (terms, _, _) in rows {
            for &(j, _) in terms {
                count[j + 1] += 1;
            }
        }
        for j in 0..n {
            count[j + 1] += count[j];
        }
        let col_start = count.clone();
        let mut fill = count;
        let nnz = col_start[n];
        let (mut col_row, mut col_value) = (vec![0; nnz], vec![0.0; nnz]);
        let mut row_start = Vec::with_capacity(m + 1);
        let (mut row_col, mut row_value) = (Vec::with_capacity(nnz), Vec::with_capacity(nnz));
        row_start.push(0);
        for (i, (terms, _, _)) in rows.iter().enumerate() {
            for &(j, a) in terms {
                col_row[fill[j]] = i;
                col_value[fill[j]] = a;
                fill[j] += 1;
                row_col.push(j);
                row_value.push(a);
            }
            row_start.push(row_col.len());
        }
        let mut full_cost = cost.to_vec();
        full_cost.resize(n + m, 0.0);
        let mut lower = vec![0.0; n];
        let mut upper = vec![0.0; n];
        lower.extend(rows.iter().map(|r| r.1));
        upper.extend(rows.iter().map(|r| r.2));
        let mut lp = DualSimplex {
            n,
            m,
            col_start,
            col_row,
            col_value,
            row_start,
            row_col,
            row_value,
            cost: full_cost,
            lower,
            upper,
            x: vec![0.0; n + m],
            d: vec![0.0; n + m],
            rho: vec![0.0; m],
            alpha: vec![0.0; n + m],
            column: vec![0.0; m],
            tau: vec![0.0; m],
            ..DualSimplex::default()
        };
        lp.slack_basis();
        lp
    }

    /// Appends `rows` (cuts), each with its logical column basic, so that the current basis
    /// stays a basis and stays dual feasible; the next solve repairs the rows it violates.
    pub(crate) fn add_rows(&mut self, rows: &[SimplexRow]) {
        if rows.is_empty() {
            return;
        }
        let (n, old_m) = (self.n, self.m);
        let m = old_m + rows.len();
        for (terms, lower, upper) in rows {
            for &(j, a) in terms {
                self.row_col.push(j);
                self.row_value.push(a);
            }
            self.row_start.push(self.row_col.len());
            self.cost.push(0.0);
            self.lower.push(*lower);
            self.upper.push(*upper);
            self.x.push(0.0);
            self.d.push(0.0);
            self.at_upper.push(false);
            self.position.push(usize::MAX);
        }
        // A by columns again, from the rows.
        let nnz = self.row_col.len();
        let mut count = vec![0usize; n + 1];
        for &j in &self.row_col {
            count[j + 1] += 1;
        }
        for j in 0..n {
            count[j + 1] += count[j];
        }
        self.col_start = count.clone();
        let mut fill = count;
        self.col_row = vec![0; nnz];
        self.col_value = vec![0.0; nnz];
        for i in 0..m {
            for e in self.row_start[i]..self.row_start[i + 1] {
                let j = self.row_col[e];
                self.col_row[fill[j]] = i;
                self.col_value[fill[j]] = self.row_value[e];
                fill[j] += 1;
            }
        }
        for i in old_m..m {
            self.position[n + i] = self.head.len();
            self.head.push(n + i);
            // A new logical row of B^-1 is the cut's own row over the basis: its norm is
            // not known without a solve, and 1 is what a fresh row starts from.
            self.weights.push(1.0);
        }
        self.m = m;
        self.rho.resize(m, 0.0);
        self.alpha.resize(n + m, 0.0);
        self.column.resize(m, 0.0);
        self.tau.resize(m, 0.0);
        self.factored = false;
    }

    /// Row position `p`'s basic column, if it is structural, and its value.
    pub(crate) fn basic_structural(&self, p: usize) -> Option<(usize, f64)> {
        let k = self.head[p];
        (k < self.n).then(|| (k, self.x[k]))
    }

    /// The current value of structural column `j`.
    pub(crate) fn column_value(&self, j: usize) -> f64 {
        self.x[j]
    }

    /// `c·x` at the current basic solution.
    #[cfg(test)]
    pub(crate) fn objective_value(&self) -> f64 {
        (0..self.n).map(|j| self.cost[j] * self.x[j]).sum()
    }

    /// Every row's logical column basic: `B = -I`.
    fn slack_basis(&mut self) {
        let (n, m) = (self.n, self.m);
        self.head = (n..n + m).collect();
        self.position = vec![usize::MAX; n + m];
        for (i, &k) in self.head.iter().enumerate() {
            self.position[k] = i;
        }
        self.at_upper = vec![false; n + m];
        // B^-1 = -I: every row's norm is 1.
        self.weights = vec![1.0; m];
        let factored = self.refactor();
        debug_assert!(factored, "the slack basis is regular");
    }

    /// Sets structural column `j`'s bounds.
    pub(crate) fn set_bounds(&mut self, j: usize, lower: f64, upper: f64) {
        self.lower[j] = lower;
        self.upper[j] = upper;
    }

    /// The number of rows.
    pub(crate) fn rows(&self) -> usize {
        self.m
    }

    /// Row `i`'s dual: the reduced cost of its logical column (positive when the row rests on
    /// its lower side, negative on its upper).
    pub(crate) fn row_dual(&self, i: usize) -> f64 {
        self.d[self.n + i]
    }

    /// Row `position` of the basis inverse: after [`LpStatus::Infeasible`], the multipliers
    /// of the rows whose combination no point within the bounds satisfies.
    pub(crate) fn inverse_row(&mut self, position: usize) -> &[f64] {
        self.rho.iter_mut().for_each(|e| *e = 0.0);
        self.rho[position] = 1.0;
        self.factor.btran(&mut self.rho);
        &self.rho
    }

    /// Whether the factor should be made afresh before the next pivot.
    fn due(&self) -> bool {
        !self.factored
            || self.unsteady
            || self.factor.updates() >= REFACTOR_EVERY
            || self.factor.eta_size() > 8 * (self.col_row.len() + self.m)
    }

    /// Factors the basis afresh (or falls back to the slack basis when it is singular), then
    /// places the nonbasic columns and solves for the basic ones.
    fn refresh(&mut self) {
        if !self.refactor() {
            self.slack_basis();
        }
        self.place_nonbasic();
        self.compute_primal();
    }

    /// Runs the dual simplex from the current basis for at most `pivot_limit` pivots.
    pub(crate) fn solve(&mut self, pivot_limit: usize) -> LpStatus {
        if self.due() {
            self.refresh();
        } else {
            self.place_nonbasic();
            self.compute_primal();
        }
        let mut pivots = 0;
        loop {
            let Some((p, to_upper)) = self.leaving_row() else {
                return LpStatus::Optimal;
            };
            if pivots >= pivot_limit {
                return LpStatus::PivotLimit;
            }
            let Some(q) = self.entering_column(p, to_upper) else {
                return LpStatus::Infeasible { row: p };
            };
            self.pivot(p, q, to_upper);
            pivots += 1;
            self.pivots += 1;
            if self.due() {
                self.refresh();
            }
        }
    }

    /// Each nonbasic column at the bound its reduced cost points to (lower for a positive
    /// cost, upper for a negative one; where it is zero, where it was, or the finite side).
    fn place_nonbasic(&mut self) {
        for k in 0..self.n + self.m {
            if self.position[k] != usize::MAX {
                continue;
            }
            let d = self.d[k];
            let mut up = if d > DUAL_TOLERANCE {
                false
            } else if d < -DUAL_TOLERANCE {
                true
            } else {
                self.at_upper[k]
            };
            if up && !self.upper[k].is_finite() {
                up = false;
            } else if !up && !self.lower[k].is_finite() {
                up = true;
            }
            self.at_upper[k] = up;
            let bound = if up { self.upper[k] } else { self.lower[k] };
            // A logical column with both sides infinite is never nonbasic: it never leaves.
            self.x[k] = if bound.is_finite() { bound } else { 0.0 };
        }
    }

    /// `x_B = -B^-1 N x_N`.
    fn compute_primal(&mut self) {
        let (n, m) = (self.n, self.m);
        let v = &mut self.column;
        v.iter_mut().for_each(|e| *e = 0.0);
        for j in 0..n {
            if self.position[j] == usize::MAX && self.x[j] != 0.0 {
                for e in self.col_start[j]..self.col_start[j + 1] {
                    v[self.col_row[e]] -= self.col_value[e] * self.x[j];
                }
            }
        }
        for i in 0..m {
            if self.position[n + i] == usize::MAX {
                // The logical column is -e_i.
                v[i] += self.x[n + i];
            }
        }
        self.factor.ftran(v);
        for p in 0..m {
            self.x[self.head[p]] = v[p];
        }
    }

    /// `d = c - (c_B B^-1) [A -I]`.
    fn compute_duals(&mut self) {
        let (n, m) = (self.n, self.m);
        let y = &mut self.rho;
        for p in 0..m {
            y[p] = self.cost[self.head[p]];
        }
        self.factor.btran(y);
        for j in 0..n {
            let mut dot = 0.0;
            for e in self.col_start[j]..self.col_start[j + 1] {
                dot += y[self.col_row[e]] * self.col_value[e];
            }
            self.d[j] = self.cost[j] - dot;
        }
        self.d[n..n + m].copy_from_slice(&y[..m]);
        for &k in &self.head {
            self.d[k] = 0.0;
        }
    }

    /// The row whose basic column is furthest outside its bounds relative to its
    /// steepest-edge weight (dual steepest-edge pricing: the infeasibility squared over the
    /// weight), and whether it leaves to its upper bound; `None` when the basis is primal
    /// feasible.
    fn leaving_row(&self) -> Option<(usize, bool)> {
        let mut best: Option<(usize, bool)> = None;
        let mut worst = 0.0;
        for (r, &k) in self.head.iter().enumerate() {
            let (x, l, u) = (self.x[k], self.lower[k], self.upper[k]);
            let (gap, to_upper) = if x < l - PRIMAL_TOLERANCE * (1.0 + l.abs()) {
                (l - x, false)
            } else if x > u + PRIMAL_TOLERANCE * (1.0 + u.abs()) {
                (x - u, true)
            } else {
                continue;
            };
            let score = gap * gap / self.weights[r];
            if score > worst {
                worst = score;
                best = Some((r, to_upper));
            }
        }
        best
    }

    /// Harris's two-pass ratio test on row `p` (its basic column leaving to its upper bound
    /// if `to_upper`): the nonbasic column whose reduced cost reaches zero first, among the
    /// near-ties the one with the largest pivot. `None` when no column can move the row's
    /// basic value the way it must go: the LP is infeasible.
    fn entering_column(&mut self, p: usize, to_upper: bool) -> Option<usize> {
        let (n, m) = (self.n, self.m);
        // rho = e_p B^-1, then alpha = rho [A -I] over the nonbasic columns.
        self.rho.iter_mut().for_each(|e| *e = 0.0);
        self.rho[p] = 1.0;
        self.factor.btran(&mut self.rho);
        self.alpha[..n].iter_mut().for_each(|e| *e = 0.0);
        for i in 0..m {
            let r = self.rho[i];
            if r.abs() > ZERO {
                for e in self.row_start[i]..self.row_start[i + 1] {
                    self.alpha[self.row_col[e]] += r * self.row_value[e];
                }
            }
            self.alpha[n + i] = -r;
        }
        // The basic value is -sum(alpha_k x_k): to raise it (leaving to its lower bound from
        // below), a column with alpha < 0 must rise or one with alpha > 0 fall.
        let sign = if to_upper { 1.0 } else { -1.0 };
        let movable = |k: usize, alpha: f64| -> bool {
            if self.position[k] != usize::MAX || self.lower[k] == self.upper[k] {
                return false;
            }
            let a = alpha * sign;
            if self.at_upper[k] {
                a < -PIVOT_TOLERANCE
            } else {
                a > PIVOT_TOLERANCE
            }
        };
        let mut bound = f64::INFINITY;
        for k in 0..n + m {
            let a = self.alpha[k];
            if a != 0.0 && movable(k, a) {
                let ratio = (self.d[k].abs() + DUAL_TOLERANCE) / a.abs();
                bound = bound.min(ratio);
            }
        }
        if !bound.is_finite() {
            return None;
        }
        let mut chosen = None;
        let mut largest = 0.0;
        for k in 0..n + m {
            let a = self.alpha[k];
            if a != 0.0 && movable(k, a) {
                let ratio = self.d[k].abs() / a.abs();
                if ratio <= bound && a.abs() > largest {
                    largest = a.abs();
                    chosen = Some(k);
                }
            }
        }
        chosen
    }

    /// Brings column `q` into the basis at row position `p`, whose column leaves to its upper
    /// bound if `to_upper`, else its lower.
    fn pivot(&mut self, p: usize, q: usize, to_upper: bool) {
        let (n, m) = (self.n, self.m);
        // w = B^-1 M_q.
        let w = &mut self.column;
        w.iter_mut().for_each(|e| *e = 0.0);
        if q < n {
            for e in self.col_start[q]..self.col_start[q + 1] {
                w[self.col_row[e]] = self.col_value[e];
            }
        } else {
            w[q - n] = -1.0;
        }
        self.factor.ftran(w);
        // tau = B^-1 rho, for the weights' update (rho still holds row p of B^-1).
        self.tau.copy_from_slice(&self.rho);
        self.factor.ftran(&mut self.tau);
        let leaving = self.head[p];
        let alpha_q = self.alpha[q];
        let pivot = w[p];
        // The pivot row and the pivot column see the same element; where they disagree the
        // factor has drifted, and is made afresh after this pivot.
        if (pivot - alpha_q).abs() > 1e-7 * (1.0 + pivot.abs()) {
            self.unsteady = true;
        }
        let target = if to_upper {
            self.upper[leaving]
        } else {
            self.lower[leaving]
        };
        // Primal step: the entering column moves so the leaving one lands on its bound.
        let step = (self.x[leaving] - target) / pivot;
        for r in 0..m {
            let k = self.head[r];
            self.x[k] -= w[r] * step;
        }
        self.x[q] += step;
        self.x[leaving] = target;
        // Dual step: the entering column's reduced cost reaches zero.
        let theta = self.d[q] / alpha_q;
        for k in 0..n + m {
            if self.position[k] == usize::MAX && self.alpha[k] != 0.0 {
                self.d[k] -= theta * self.alpha[k];
            }
        }
        self.d[q] = 0.0;
        self.d[leaving] = -theta;
        // Row i of the new inverse is row i - (w_i / w_p) row p, and row p is row p / w_p.
        let beta_p: f64 = self.rho.iter().map(|r| r * r).sum();
        for r in 0..m {
            if r == p {
                self.weights[r] = (beta_p / (pivot * pivot)).max(WEIGHT_FLOOR);
            } else if w[r] != 0.0 {
                let ratio = w[r] / pivot;
                let updated = self.weights[r] - 2.0 * ratio * self.tau[r] + ratio * ratio * beta_p;
                self.weights[r] = updated.max(WEIGHT_FLOOR);
            }
        }
        self.factor.update(p, w);
        self.head[p] = q;
        self.position[q] = p;
        self.position[leaving] = usize::MAX;
        self.at_upper[leaving] = to_upper;
    }

    /// Factors the basis afresh from its columns and recomputes the reduced costs from it;
    /// false when the basis is singular.
    fn refactor(&mut self) -> bool {
        let n = self.n;
        self.basis_columns.resize_with(self.m, Vec::new);
        for (p, &k) in self.head.iter().enumerate() {
            let column = &mut self.basis_columns[p];
            column.clear();
            if k < n {
                column.extend(
                    (self.col_start[k]..self.col_start[k + 1])
                        .map(|e| (self.col_row[e], self.col_value[e])),
                );
            } else {
                column.push((k - n, -1.0));
            }
        }
        self.unsteady = false;
        self.factored = self.factor.factor(self.m, &self.basis_columns);
        if self.factored {
            self.compute_duals();
        }
        self.factored
    }
}

#[cfg(test)]
mod tests {
    use super::{DualSimplex, LpStatus};

    /// max 5a + 4b + 3c s.t. 2a + 3b + c <= 5, 4a + b + 2c <= 11, 3a + 4b + 2c <= 8, each
    /// in [0, 10]: Chvátal's first example, optimum 13 at (2, 0, 1).
    #[test]
    fn chvatal_s_example_reaches_its_optimum() {
        let inf = f64::INFINITY;
        let rows = vec![
            (vec![(0, 2.0), (1, 3.0), (2, 1.0)], -inf, 5.0),
            (vec![(0, 4.0), (1, 1.0), (2, 2.0)], -inf, 11.0),
            (vec![(0, 3.0), (1, 4.0), (2, 2.0)], -inf, 8.0),
        ];
        let mut lp = DualSimplex::new(3, &[-5.0, -4.0, -3.0], &rows);
        for j in 0..3 {
            lp.set_bounds(j, 0.0, 10.0);
        }
        assert_eq!(lp.solve(100), LpStatus::Optimal);
        assert!(
            (lp.objective_value() + 13.0).abs() < 1e-9,
            "{}",
            lp.objective_value()
        );
        let x: Vec<f64> = (0..3).map(|j| lp.column_value(j)).collect();
        assert!((x[0] - 2.0).abs() < 1e-9 && x[1].abs() < 1e-9 && (x[2] - 1.0).abs() < 1e-9);
        // Strong duality: the row duals times the sides give the optimum.
        let dual: f64 = [5.0, 11.0, 8.0]
            .iter()
            .enumerate()
            .map(|(i, b)| lp.row_dual(i) * b)
            .sum();
        assert!((dual + 13.0).abs() < 1e-9, "{dual}");
    }

    #[test]
    fn a_bound_change_is_repaired_from_the_previous_basis_and_infeasibility_found() {
        let inf = f64::INFINITY;
        // x + y >= 4 over [0, 3]^2, minimise x + 2y: x = 3, y = 1.
        let rows = vec![(vec![(0, 1.0), (1, 1.0)], 4.0, inf)];
        let mut lp = DualSimplex::new(2, &[1.0, 2.0], &rows);
        lp.set_bounds(0, 0.0, 3.0);
        lp.set_bounds(1, 0.0, 3.0);
        assert_eq!(lp.solve(100), LpStatus::Optimal);
        assert!((lp.objective_value() - 5.0).abs() < 1e-9);
        // x <= 1: y = 3, cost 7.
        lp.set_bounds(0, 0.0, 1.0);
        assert_eq!(lp.solve(100), LpStatus::Optimal);
        assert!((lp.objective_value() - 7.0).abs() < 1e-9);
        // y <= 2 too: x + y <= 3 < 4.
        lp.set_bounds(1, 0.0, 2.0);
        assert!(matches!(lp.solve(100), LpStatus::Infeasible { .. }));
    }
}
