//! `BasisFactor`: a sparse LU factorization of a simplex basis, with product-form updates.
//!
//! The basis `B` (`m x m`, its columns in basis positions) is factored once in a while and
//! updated by one eta matrix per pivot in between, as textbook revised simplex codes do
//! (Chvátal, "Linear Programming", ch. 24; Maros, "Computational Techniques of the Simplex
//! Method", ch. 8). A basis of a relaxation is mostly logical columns (one `-1` each) and
//! sparse structural ones, so the factorization first takes column singletons (every logical
//! among them) and row singletons, which cost no fill, and only what is left (the bump) by
//! Gaussian elimination with partial pivoting over a dense block. Solves then cost the
//! nonzeros of the factors and etas, where the dense inverse this replaces cost `m^2` a
//! pivot and capped the LP at a few hundred rows.
//!
//! Elimination step `k` pivots on row `r_k` and basis position `c_k`: its L part is the
//! multipliers that cleared column `c_k` from the rows pivoted later, its U part the row
//! `r_k` as it stood then (entries in positions pivoted later, and the pivot itself).

// Dense elimination over the bump reads as the textbook does with indices.
#![allow(clippy::needless_range_loop)]

/// A bump larger than this is refused as if singular: its dense elimination would cost more
/// than a fresh slack basis saves.
const LARGEST_BUMP: usize = 2_500;
/// The smallest pivot accepted in the bump.
const SINGULAR: f64 = 1e-11;
/// Entries of the factors smaller than this are dropped.
const DROP: f64 = 1e-14;

/// The sparse columns of a basis, position by position: `(row, value)` entries.
pub(crate) type BasisColumns = Vec<Vec<(usize, f64)>>;

/// An LU factorization of a basis with its product-form updates (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct BasisFactor {
    m: usize,
    /// Pivot row and basis position of each elimination step, and its pivot value.
    pivot_row: Vec<usize>,
    pivot_position: Vec<usize>,
    pivot_value: Vec<f64>,
    /// Step `k`'s L multipliers: `(row, l)` at `l_start[k]..l_start[k + 1]`.
    l_start: Vec<usize>,
    l_entries: Vec<(usize, f64)>,
    /// Step `k`'s U row without its pivot: `(position, u)` at `u_start[k]..u_start[k + 1]`.
    u_start: Vec<usize>,
    u_entries: Vec<(usize, f64)>,
    /// The same U by columns, for the forward solve: the entries of the step that pivots
    /// on position `p`'s column, as `(row of an earlier step, u)`, at
    /// `ucol_start[k]..ucol_start[k + 1]` for the step `k` that pivots on it.
    ucol_start: Vec<usize>,
    ucol_entries: Vec<(usize, f64)>,
    /// The step that pivots on each basis position.
    step_of: Vec<usize>,
    /// Update etas: the position replaced, its pivot `w_p`, and the other `(position, w_i)`
    /// at `eta_start[e]..eta_start[e + 1]`.
    eta_position: Vec<usize>,
    eta_pivot: Vec<f64>,
    eta_start: Vec<usize>,
    eta_entries: Vec<(usize, f64)>,
    /// Scratch for the solves, indexed by row.
    work: Vec<f64>,
}

impl BasisFactor {
    /// How many updates have been applied since the last factorization.
    pub(crate) fn updates(&self) -> usize {
        self.eta_position.len()
    }

    /// Factors the basis whose position `p` holds `columns[p]`; false when it is singular
    /// (or its bump too large), leaving the factor unusable until the next success.
    pub(crate) fn factor(&mut self, m: usize, columns: &BasisColumns) -> bool {
        self.m = m;
        self.pivot_row.clear();
        self.pivot_position.clear();
        self.pivot_value.clear();
        self.l_start.clear();
        self.l_entries.clear();
        self.u_start.clear();
        self.u_entries.clear();
        self.eta_position.clear();
        self.eta_pivot.clear();
        self.eta_start.clear();
        self.eta_start.push(0);
        self.eta_entries.clear();
        self.work.clear();
        self.work.resize(m, 0.0);
        self.l_start.push(0);
        self.u_start.push(0);
        if columns.len() != m {
            return false;
        }
        // The active matrix by rows (entries) and by columns (row patterns), with the count
        // of each line's entries among the lines still active.
        let mut rows: Vec<Vec<(usize, f64)>> = vec![Vec::new(); m];
        for (p, column) in columns.iter().enumerate() {
            for &(i, a) in column {
                if a != 0.0 {
                    rows[i].push((p, a));
                }
            }
        }
        let mut row_alive = vec![true; m];
        let mut col_alive = vec![true; m];
        let mut row_count: Vec<usize> = rows.iter().map(Vec::len).collect();
        let mut col_count: Vec<usize> = columns
            .iter()
            .map(|c| c.iter().filter(|e| e.1 != 0.0).count())
            .collect();
        if col_count.contains(&0) || row_count.contains(&0) {
            return false;
        }
        // Column singletons: the column's one active entry is the pivot, its row goes into
        // U whole, and no other row changes.
        let mut stack: Vec<usize> = (0..m).filter(|&p| col_count[p] == 1).collect();
        while let Some(p) = stack.pop() {
            if !col_alive[p] || col_count[p] != 1 {
                continue;
            }
            let Some(&(r, a)) = columns[p].iter().find(|&&(i, a)| row_alive[i] && a != 0.0) else {
                return false;
            };
            row_alive[r] = false;
            col_alive[p] = false;
            self.push_pivot(r, p, a);
            self.l_start.push(self.l_entries.len());
            for &(q, u) in &rows[r] {
                if q != p && col_alive[q] {
                    self.u_entries.push((q, u));
                    col_count[q] -= 1;
                    if col_count[q] == 1 {
                        stack.push(q);
                    }
                }
            }
            self.u_start.push(self.u_entries.len());
        }
        // Row singletons among the rest: the row's one active entry is the pivot, the other
        // rows' entries in its column become L multipliers, and nothing fills in.
        for r in 0..m {
            if row_alive[r] {
                row_count[r] = rows[r].iter().filter(|&&(q, _)| col_alive[q]).count();
                if row_count[r] == 0 {
                    return false;
                }
            }
        }
        let mut stack: Vec<usize> = (0..m)
            .filter(|&r| row_alive[r] && row_count[r] == 1)
            .collect();
        while let Some(r) = stack.pop() {
            if !row_alive[r] || row_count[r] != 1 {
                continue;
            }
            let Some(&(p, a)) = rows[r].iter().find(|&&(q, _)| col_alive[q]) else {
                return false;
            };
            row_alive[r] = false;
            col_alive[p] = false;
            self.push_pivot(r, p, a);
            for &(i, b) in &columns[p] {
                if row_alive[i] && b != 0.0 {
                    self.l_entries.push((i, b / a));
                    row_count[i] -= 1;
                    match row_count[i] {
                        0 => return false,
                        1 => stack.push(i),
                        _ => {}
                    }
                }
            }
            self.l_start.push(self.l_entries.len());
            self.u_start.push(self.u_entries.len());
        }
        // The bump: the rows and columns still active, eliminated as a dense block.
        let bump_rows: Vec<usize> = (0..m).filter(|&r| row_alive[r]).collect();
        let bump_cols: Vec<usize> = (0..m).filter(|&p| col_alive[p]).collect();
        let k = bump_rows.len();
        if k != bump_cols.len() || k > LARGEST_BUMP {
            return false;
        }
        if k > 0 && !self.eliminate_bump(columns, &bump_rows, &bump_cols) {
            return false;
        }
        if self.pivot_row.len() != m {
            return false;
        }
        self.transpose_u();
        true
    }

    /// Builds U by columns from U by rows.
    fn transpose_u(&mut self) {
        let steps = self.pivot_row.len();
        self.step_of.clear();
        self.step_of.resize(self.m, 0);
        for (k, &p) in self.pivot_position.iter().enumerate() {
            self.step_of[p] = k;
        }
        self.ucol_start.clear();
        self.ucol_start.resize(steps + 1, 0);
        for &(p, _) in &self.u_entries {
            self.ucol_start[self.step_of[p] + 1] += 1;
        }
        for k in 0..steps {
            self.ucol_start[k + 1] += self.ucol_start[k];
        }
        let mut fill = self.ucol_start.clone();
        self.ucol_entries.clear();
        self.ucol_entries.resize(self.u_entries.len(), (0, 0.0));
        for k in 0..steps {
            let row = self.pivot_row[k];
            for &(p, u) in &self.u_entries[self.u_start[k]..self.u_start[k + 1]] {
                let at = &mut fill[self.step_of[p]];
                self.ucol_entries[*at] = (row, u);
                *at += 1;
            }
        }
    }

    /// Records the next elimination step's pivot: row `r`, basis position `p`, value `a`.
    fn push_pivot(&mut self, r: usize, p: usize, a: f64) {
        self.pivot_row.push(r);
        self.pivot_position.push(p);
        self.pivot_value.push(a);
    }

    /// Gaussian elimination with partial pivoting on the block `bump_rows x bump_cols`.
    fn eliminate_bump(
        &mut self,
        columns: &BasisColumns,
        bump_rows: &[usize],
        bump_cols: &[usize],
    ) -> bool {
        let k = bump_rows.len();
        let mut local_row = vec![usize::MAX; self.m];
        for (a, &r) in bump_rows.iter().enumerate() {
            local_row[r] = a;
        }
        // block[row * k + col]
        let mut block = vec![0.0; k * k];
        for (b, &p) in bump_cols.iter().enumerate() {
            for &(i, v) in &columns[p] {
                if local_row[i] != usize::MAX {
                    block[local_row[i] * k + b] = v;
                }
            }
        }
        // order[a]: the block row in place a (rows are swapped by index, not moved).
        let mut order: Vec<usize> = (0..k).collect();
        for c in 0..k {
            let (mut best, mut size) = (c, 0.0);
            for a in c..k {
                let v = block[order[a] * k + c].abs();
                if v > size {
                    size = v;
                    best = a;
                }
            }
            if size < SINGULAR {
                return false;
            }
            order.swap(c, best);
            let pr = order[c];
            let pivot = block[pr * k + c];
            self.push_pivot(bump_rows[pr], bump_cols[c], pivot);
            for a in c + 1..k {
                let r = order[a];
                let f = block[r * k + c] / pivot;
                if f.abs() > DROP {
                    self.l_entries.push((bump_rows[r], f));
                    for e in c + 1..k {
                        block[r * k + e] -= f * block[pr * k + e];
                    }
                }
                block[r * k + c] = 0.0;
            }
            self.l_start.push(self.l_entries.len());
            for e in c + 1..k {
                let u = block[pr * k + e];
                if u.abs() > DROP {
                    self.u_entries.push((bump_cols[e], u));
                }
            }
            self.u_start.push(self.u_entries.len());
        }
        true
    }

    /// Solves `B x = b` in place: `b` by row on entry, `x` by basis position on return.
    pub(crate) fn ftran(&mut self, b: &mut [f64]) {
        let steps = self.pivot_row.len();
        for k in 0..steps {
            let v = b[self.pivot_row[k]];
            if v != 0.0 {
                for &(i, l) in &self.l_entries[self.l_start[k]..self.l_start[k + 1]] {
                    b[i] -= l * v;
                }
            }
        }
        // Back substitution, from the last step, by U's columns: each value found is taken
        // out of the rows of earlier steps, and a zero costs nothing.
        let x = &mut self.work;
        for k in (0..steps).rev() {
            let v = b[self.pivot_row[k]] / self.pivot_value[k];
            x[self.pivot_position[k]] = v;
            if v != 0.0 {
                for &(row, u) in &self.ucol_entries[self.ucol_start[k]..self.ucol_start[k + 1]] {
                    b[row] -= u * v;
                }
            }
        }
        b.copy_from_slice(x);
        for e in 0..self.eta_position.len() {
            let p = self.eta_position[e];
            let v = b[p] / self.eta_pivot[e];
            b[p] = v;
            if v != 0.0 {
                for &(i, w) in &self.eta_entries[self.eta_start[e]..self.eta_start[e + 1]] {
                    b[i] -= w * v;
                }
            }
        }
    }

    /// Solves `y B = c` in place: `c` by basis position on entry, `y` by row on return.
    pub(crate) fn btran(&mut self, c: &mut [f64]) {
        for e in (0..self.eta_position.len()).rev() {
            let p = self.eta_position[e];
            let mut v = c[p];
            for &(i, w) in &self.eta_entries[self.eta_start[e]..self.eta_start[e + 1]] {
                v -= w * c[i];
            }
            c[p] = v / self.eta_pivot[e];
        }
        let y = &mut self.work;
        for k in 0..self.pivot_row.len() {
            let v = c[self.pivot_position[k]] / self.pivot_value[k];
            y[self.pivot_row[k]] = v;
            if v != 0.0 {
                for &(p, u) in &self.u_entries[self.u_start[k]..self.u_start[k + 1]] {
                    c[p] -= u * v;
                }
            }
        }
        for k in (0..self.pivot_row.len()).rev() {
            let mut v = y[self.pivot_row[k]];
            for &(i, l) in &self.l_entries[self.l_start[k]..self.l_start[k + 1]] {
                v -= l * y[i];
            }
            y[self.pivot_row[k]] = v;
        }
        c.copy_from_slice(y);
    }

    /// Records that position `p` now holds the column whose FTRAN was `w` (by position).
    pub(crate) fn update(&mut self, p: usize, w: &[f64]) {
        self.eta_position.push(p);
        self.eta_pivot.push(w[p]);
        for (i, &v) in w.iter().enumerate() {
            if i != p && v.abs() > DROP {
                self.eta_entries.push((i, v));
            }
        }
        self.eta_start.push(self.eta_entries.len());
    }

    /// Nonzeros held by the updates, to judge when a fresh factorization pays.
    pub(crate) fn eta_size(&self) -> usize {
        self.eta_entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::{BasisColumns, BasisFactor};

    fn dense(columns: &BasisColumns, m: usize) -> Vec<Vec<f64>> {
        let mut b = vec![vec![0.0; m]; m];
        for (p, c) in columns.iter().enumerate() {
            for &(i, v) in c {
                b[i][p] = v;
            }
        }
        b
    }

    /// A small deterministic pseudo-random sequence.
    fn next(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *state >> 33
    }

    #[test]
    fn solves_match_the_matrix_before_and_after_updates() {
        let mut state = 7u64;
        let mut checked = 0;
        for _ in 0..2000 {
            let m = 1 + (next(&mut state) % 9) as usize;
            // Logical columns in some positions, random sparse ones in others.
            let mut columns: BasisColumns = Vec::new();
            for p in 0..m {
                if next(&mut state) % 3 == 0 {
                    columns.push(vec![(p, -1.0)]);
                } else {
                    let mut c = Vec::new();
                    for i in 0..m {
                        if next(&mut state) % 3 == 0 {
                            c.push((i, (next(&mut state) % 9) as f64 - 4.0));
                        }
                    }
                    columns.push(c);
                }
            }
            let mut f = BasisFactor::default();
            if !f.factor(m, &columns) {
                continue;
            }
            for round in 0..3 {
                let b = dense(&columns, m);
                let x0: Vec<f64> = (0..m).map(|i| i as f64 - 2.5).collect();
                // b = B x0; ftran gives x0 back.
                let mut rhs: Vec<f64> = (0..m)
                    .map(|i| (0..m).map(|p| b[i][p] * x0[p]).sum())
                    .collect();
                f.ftran(&mut rhs);
                for p in 0..m {
                    assert!((rhs[p] - x0[p]).abs() < 1e-6, "ftran {rhs:?} {x0:?}");
                }
                // c = y0 B; btran gives y0 back.
                let y0: Vec<f64> = (0..m).map(|i| 1.5 - i as f64).collect();
                let mut c: Vec<f64> = (0..m)
                    .map(|p| (0..m).map(|i| y0[i] * b[i][p]).sum())
                    .collect();
                f.btran(&mut c);
                for i in 0..m {
                    assert!((c[i] - y0[i]).abs() < 1e-6, "btran {c:?} {y0:?}");
                }
                checked += 1;
                if round == 2 {
                    break;
                }
                // Replace a position by a new column, when that keeps the basis regular.
                let p = (next(&mut state) % m as u64) as usize;
                let mut column: Vec<(usize, f64)> = Vec::new();
                for i in 0..m {
                    if next(&mut state) % 2 == 0 {
                        column.push((i, (next(&mut state) % 7) as f64 - 3.0));
                    }
                }
                let mut w = vec![0.0; m];
                for &(i, v) in &column {
                    w[i] += v;
                }
                f.ftran(&mut w);
                if w[p].abs() < 1e-6 {
                    break;
                }
                f.update(p, &w);
                columns[p] = column;
            }
        }
        assert!(checked > 800, "only {checked} checks");
    }
}
