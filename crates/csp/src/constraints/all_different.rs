//! `AllDifferent`: the values x_i + c_i are pairwise distinct.

use super::listed::listed;
use super::regin::Regin;
use crate::{Atom, Conflict, Constraint, Context, Priority, VarId};
use smallvec::SmallVec;

/// Pairwise distinct values, optionally after adding a fixed offset to each variable
/// (`x_i + c_i`), which is how the N-Queens diagonals are stated.
///
/// Under `none` it compares the new assignment with the assigned part of its scope; under `fc` it
/// removes the new value from the unassigned variables; under `mac` it enforces generalised arc
/// consistency with Régin's matching-based filtering, after removing the values of newly fixed
/// variables from the others. Where the variable-value graph is too large to build (over 65,536
/// distinct values), `mac` keeps to that value elimination and a pigeonhole test.
#[derive(Clone, Debug)]
pub struct AllDifferent {
    vars: Vec<VarId>,
    offsets: Vec<i32>,
    /// Every (variable, position in `vars`) pair, sorted, so that a variable's positions are
    /// found by binary search rather than a scan of the scope (10,000 long on 10,000 queens).
    by_var: Vec<(VarId, u32)>,
    /// `Some(b)` when `vars[i]` is `VarId(b + i)` throughout (the rows of a board, a sudoku's
    /// row): a variable's position is then read off its id, without the binary search.
    contiguous_from: Option<u32>,
    /// A variable appears twice with the same offset, so the constraint cannot hold.
    repeats_with_one_offset: bool,
}

/// Above this many distinct candidate values the pigeonhole test is skipped, so that it never
/// costs more than a few kilobytes of stack.
const PIGEONHOLE_MAX_SPAN: i64 = 4096;

impl AllDifferent {
    /// All of `vars` take distinct values.
    pub fn new(vars: Vec<VarId>) -> Self {
        let offsets = vec![0; vars.len()];
        AllDifferent::build(vars, offsets)
    }

    /// The values `vars[i] + offsets[i]` are distinct. `None` when the lengths differ.
    pub fn with_offsets(vars: Vec<VarId>, offsets: Vec<i32>) -> Option<Self> {
        (vars.len() == offsets.len()).then(|| AllDifferent::build(vars, offsets))
    }

    fn build(vars: Vec<VarId>, offsets: Vec<i32>) -> Self {
        let mut pairs: Vec<(VarId, i32)> =
            vars.iter().copied().zip(offsets.iter().copied()).collect();
        pairs.sort_unstable();
        let repeats_with_one_offset = pairs.windows(2).any(|w| w[0] == w[1]);
        let mut by_var: Vec<(VarId, u32)> = (0..vars.len()).map(|i| (vars[i], i as u32)).collect();
        by_var.sort_unstable();
        let contiguous_from = vars.first().map(|v| v.0).filter(|&base| {
            vars.iter()
                .enumerate()
                .all(|(i, v)| u64::from(v.0) == u64::from(base) + i as u64)
        });
        AllDifferent {
            vars,
            offsets,
            by_var,
            contiguous_from,
            repeats_with_one_offset,
        }
    }

    /// The value `x_j` must avoid so that `x_j + c_j` differs from `shifted`.
    #[inline]
    fn clash_for(&self, j: usize, shifted: i64) -> Option<i32> {
        i32::try_from(shifted - i64::from(self.offsets[j])).ok()
    }

    /// For each position `i` of the assigned `var` and each other position `j`, calls
    /// `visit(self, ctx, j, shifted)` with `shifted` the value at `i` plus its offset. Plain
    /// loops: this runs at every node under none and fc, and iterator adapters cost here.
    #[inline(always)]
    fn against_others(
        &self,
        var: VarId,
        ctx: &mut Context<'_>,
        mut visit: impl FnMut(&Self, &mut Context<'_>, usize, i64) -> Result<(), Conflict>,
    ) -> Result<(), Conflict> {
        let Some(value) = ctx.assigned_value(var) else {
            return Ok(());
        };
        for i in self.positions(var) {
            let shifted = i64::from(value) + i64::from(self.offsets[i]);
            for j in 0..self.vars.len() {
                if j != i {
                    visit(self, ctx, j, shifted)?;
                }
            }
        }
        Ok(())
    }

    /// The positions of `var` in the scope (usually one).
    fn positions(&self, var: VarId) -> impl Iterator<Item = usize> + '_ {
        let first = match self.contiguous_from {
            Some(base) => (var.0.wrapping_sub(base) as usize).min(self.by_var.len()),
            None => self.by_var.partition_point(|&(v, _)| v < var),
        };
        self.by_var[first..]
            .iter()
            .take_while(move |&&(v, _)| v == var)
            .map(|&(_, i)| i as usize)
    }

    /// Fails when the unfixed variables have fewer distinct shifted values between them than
    /// there are unfixed variables.
    fn pigeonhole(&self, ctx: &Context<'_>) -> Result<(), Conflict> {
        let mut open = 0usize;
        let (mut low, mut high) = (i64::MAX, i64::MIN);
        for (&var, &offset) in self.vars.iter().zip(&self.offsets) {
            if ctx.size(var) > 1 {
                open += 1;
                if let (Some(min), Some(max)) = (ctx.min(var), ctx.max(var)) {
                    low = low.min(i64::from(min) + i64::from(offset));
                    high = high.max(i64::from(max) + i64::from(offset));
                }
            }
        }
        if open < 2 || high - low + 1 > PIGEONHOLE_MAX_SPAN {
            return Ok(());
        }
        let words = ((high - low) / 64 + 1) as usize;
        let mut seen: SmallVec<[u64; 64]> = SmallVec::from_elem(0, words);
        for (&var, &offset) in self.vars.iter().zip(&self.offsets) {
            if ctx.size(var) > 1 {
                for value in ctx.values(var) {
                    let bit = (i64::from(value) + i64::from(offset) - low) as usize;
                    seen[bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        let distinct: u32 = seen.iter().map(|w| w.count_ones()).sum();
        if (distinct as usize) < open {
            Err(ctx.violated())
        } else {
            Ok(())
        }
    }
}

impl Constraint for AllDifferent {
    fn priority(&self) -> Priority {
        Priority::Global
    }

    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let mut shifted: Vec<i64> = values
            .iter()
            .zip(&self.offsets)
            .map(|(&v, &c)| i64::from(v) + i64::from(c))
            .collect();
        shifted.sort_unstable();
        shifted.windows(2).all(|w| w[0] != w[1])
    }

    fn contradiction(&self) -> Option<String> {
        if !self.repeats_with_one_offset {
            return None;
        }
        let mut pairs: Vec<(VarId, i32)> = self
            .vars
            .iter()
            .copied()
            .zip(self.offsets.iter().copied())
            .collect();
        pairs.sort_unstable();
        let twice = pairs.windows(2).find(|w| w[0] == w[1]).map(|w| w[0].0);
        twice.map(|var| {
            format!("all_different names {var} twice with the same offset: it can never hold")
        })
    }

    fn describe(&self) -> String {
        let terms = self.vars.iter().zip(&self.offsets).map(|(v, &c)| match c {
            0 => v.to_string(),
            c if c > 0 => format!("{v}+{c}"),
            c => format!("{v}{c}"),
        });
        format!("all_different({})", listed(terms, 6, ", "))
    }

    fn check_assigned(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.against_others(var, ctx, |this, ctx, j, shifted| {
            if let Some(other_value) = ctx.assigned_value(this.vars[j]) {
                ctx.count_checks(1);
                if i64::from(other_value) + i64::from(this.offsets[j]) == shifted {
                    return Err(ctx.violated());
                }
            }
            Ok(())
        })
    }

    fn forward_check(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let Some(value) = ctx.assigned_value(var) else {
            return Ok(());
        };
        // Every removal is because of var's value; built only when an observer collects reasons.
        let reason = ctx.explaining().then_some(Atom::Eq(var, value));
        // The hottest loop of counting and of large boards: one pass over the scope per
        // position of `var`, zipped so that no index is checked, the checks tallied in a
        // register and added once.
        for i in self.positions(var) {
            let shifted = i64::from(value) + i64::from(self.offsets[i]);
            let mut checks = 0;
            for (j, (&other, &offset)) in self.vars.iter().zip(&self.offsets).enumerate() {
                if ctx.is_assigned(other) {
                    // The same variable twice clashes with itself unless the offsets differ.
                    if other == var && j != i && i64::from(value) + i64::from(offset) == shifted {
                        ctx.count_checks(checks);
                        return Err(ctx.violated());
                    }
                    continue;
                }
                checks += 1;
                if let Ok(clash) = i32::try_from(shifted - i64::from(offset)) {
                    if let Err(conflict) = ctx.remove_because(other, clash, reason.as_slice()) {
                        ctx.count_checks(checks);
                        return Err(conflict);
                    }
                }
            }
            ctx.count_checks(checks);
        }
        Ok(())
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.propagate_changed(&self.vars, ctx)
    }

    /// Removes the value of each newly fixed variable from the others, following the chain
    /// of variables that become fixed in turn; a variable fixed earlier was handled when it
    /// became fixed, and the trail undoes both together.
    fn propagate_changed(&self, changed: &[VarId], ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let n = self.vars.len();
        if self.repeats_with_one_offset {
            // Some variable appears twice with the same offset: its two values always clash.
            return Err(ctx.violated());
        }
        let mut done: SmallVec<[bool; 64]> = SmallVec::from_elem(false, n);
        let mut pending: SmallVec<[usize; 64]> = SmallVec::new();
        for &var in changed {
            if ctx.size(var) == 1 {
                pending.extend(self.positions(var));
            }
        }
        while let Some(i) = pending.pop() {
            if std::mem::replace(&mut done[i], true) {
                continue;
            }
            let Some(value) = ctx.fixed_value(self.vars[i]) else {
                continue;
            };
            let shifted = i64::from(value) + i64::from(self.offsets[i]);
            for j in (0..n).filter(|&j| j != i) {
                let other = self.vars[j];
                ctx.count_checks(1);
                let Some(clash) = self.clash_for(j, shifted) else {
                    continue;
                };
                let reason = [Atom::Eq(self.vars[i], value)];
                if ctx.remove_because(other, clash, &reason)? && ctx.size(other) == 1 {
                    pending.push(j);
                }
            }
        }
        // A Hall set (k variables sharing only k values) is what Régin's filtering acts on.
        // When every unfixed domain is larger than the number of unfixed variables there is
        // none, and value elimination has already reached generalised arc consistency.
        let (mut open, mut smallest) = (0u32, u32::MAX);
        for &var in &self.vars {
            let size = ctx.size(var);
            if size > 1 {
                open += 1;
                smallest = smallest.min(size);
            }
        }
        if smallest > open {
            return Ok(());
        }
        let mut regin = ctx.take_scratch::<Regin>();
        let filtered = regin.filter(&self.vars, &self.offsets, ctx);
        ctx.put_scratch(regin);
        if filtered? {
            Ok(())
        } else {
            self.pigeonhole(ctx)
        }
    }
}
