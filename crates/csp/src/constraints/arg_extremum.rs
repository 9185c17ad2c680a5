//! `ArgExtremum`: the index of the first largest (or smallest) of some variables.

use super::listed::listed;
use crate::{Conflict, Constraint, Context, VarId, Wake};

/// `z` is the least index `j` at which `xs[j]` is largest (MiniZinc's `arg_max`), or smallest
/// (`arg_min`), with `xs` indexed from `first`.
///
/// Consistency: domain consistency on `z` over distinct variables (index `j` stays while
/// `xs[j]` can beat every earlier one and tie every later one), and bounds on the `xs`: none
/// may pass the best that an index left to `z` can reach (nor tie it from before), and once
/// `z` is fixed its variable rises to beat the earlier ones and tie the later. The removals
/// carry no reason yet. Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct ArgExtremum {
    /// `xs`, then `z`.
    scope: Vec<VarId>,
    first: i64,
    maximum: bool,
}

/// Buffers reused between runs.
#[derive(Default)]
struct Scratch {
    /// Each `x`'s least and most key (its value for a maximum, its negation for a minimum).
    keys: Vec<(i64, i64)>,
    /// `after[k]`: the largest least key of the `xs` after `k`.
    after: Vec<i64>,
    /// `reach[k]`: `x_k`'s most key while `k` is an index left to `z`, else `i64::MIN`.
    reach: Vec<i64>,
    /// `best_from[k]`: the largest of `reach[k..]`.
    best_from: Vec<i64>,
}

impl ArgExtremum {
    /// `z` is the first index of the largest of `xs` (`maximum`) or of the smallest, `xs`
    /// indexed from `first`.
    pub fn new(xs: &[VarId], first: i64, z: VarId, maximum: bool) -> Self {
        let mut scope = xs.to_vec();
        scope.push(z);
        ArgExtremum {
            scope,
            first,
            maximum,
        }
    }

    fn xs(&self) -> &[VarId] {
        &self.scope[..self.scope.len() - 1]
    }

    fn z(&self) -> VarId {
        self.scope[self.scope.len() - 1]
    }

    /// The key of a value: larger is better.
    fn key(&self, value: i32) -> i64 {
        if self.maximum {
            i64::from(value)
        } else {
            -i64::from(value)
        }
    }

    /// Keeps `x`'s key at most `bound`.
    fn key_at_most(&self, x: VarId, bound: i64, ctx: &mut Context<'_>) -> Result<u64, Conflict> {
        if self.maximum {
            ctx.at_most(x, bound)
        } else {
            ctx.at_least(x, -bound)
        }
    }

    /// Keeps `x`'s key at least `bound`.
    fn key_at_least(&self, x: VarId, bound: i64, ctx: &mut Context<'_>) -> Result<u64, Conflict> {
        if self.maximum {
            ctx.at_least(x, bound)
        } else {
            ctx.at_most(x, -bound)
        }
    }

    fn filter(&self, s: &mut Scratch, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let n = self.xs().len();
        let z = self.z();
        let last = self.first + n as i64 - 1;
        ctx.within(z, self.first, last)?;
        s.keys.clear();
        for &x in self.xs() {
            let (Some(low), Some(high)) = (ctx.min(x), ctx.max(x)) else {
                return Err(ctx.violated());
            };
            let (a, b) = (self.key(low), self.key(high));
            s.keys.push((a.min(b), a.max(b)));
        }
        ctx.count_checks(n as u64);
        s.after.clear();
        s.after.resize(n, i64::MIN);
        for k in (0..n.saturating_sub(1)).rev() {
            s.after[k] = s.after[k + 1].max(s.keys[k + 1].0);
        }

        // z keeps the indices whose variable can beat those before and tie those after.
        let mut before = i64::MIN;
        for (k, &(least, most)) in s.keys.iter().enumerate() {
            let index = self.first + k as i64;
            let fits = before < most && s.after[k] <= most;
            if !fits {
                if let Ok(index) = i32::try_from(index) {
                    ctx.remove(z, index)?;
                }
            }
            before = before.max(least);
        }

        // No x passes the best an index of z can reach, nor ties it from before.
        s.reach.clear();
        s.reach
            .extend(s.keys.iter().enumerate().map(|(k, &(_, most))| {
                let open = i32::try_from(self.first + k as i64).is_ok_and(|j| ctx.contains(z, j));
                if open {
                    most
                } else {
                    i64::MIN
                }
            }));
        s.best_from.clear();
        s.best_from.resize(n + 1, i64::MIN);
        for k in (0..n).rev() {
            s.best_from[k] = s.best_from[k + 1].max(s.reach[k]);
        }
        let mut best_up_to = i64::MIN;
        for (k, &x) in self.xs().iter().enumerate() {
            best_up_to = best_up_to.max(s.reach[k]);
            // An index at or before k may be tied; one after must be beaten.
            let bound = best_up_to.max(s.best_from[k + 1].saturating_sub(1));
            if bound == i64::MIN {
                return Err(ctx.violated());
            }
            self.key_at_most(x, bound, ctx)?;
        }

        // A fixed z: its variable beats every earlier one and ties every later one.
        if let Some(j) = ctx.fixed_value(z) {
            let at = (i64::from(j) - self.first) as usize;
            let mut need = s.after[at];
            for &(least, _) in &s.keys[..at] {
                need = need.max(least + 1);
            }
            if need > i64::MIN {
                self.key_at_least(self.xs()[at], need, ctx)?;
            }
        }
        Ok(())
    }
}

impl Constraint for ArgExtremum {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (xs, z) = values.split_at(values.len() - 1);
        let mut best: Option<(usize, i64)> = None;
        for (k, &v) in xs.iter().enumerate() {
            if best.is_none_or(|(_, b)| self.key(v) > b) {
                best = Some((k, self.key(v)));
            }
        }
        best.is_some_and(|(k, _)| self.first + k as i64 == i64::from(z[0]))
    }

    fn describe(&self) -> String {
        let xs = listed(self.xs().iter().map(|x| x.to_string()), 6, ", ");
        let name = if self.maximum { "arg_max" } else { "arg_min" };
        format!("{} = {name}([{xs}])", self.z())
    }

    fn wake_on(&self, var: VarId) -> Wake {
        if var == self.z() {
            Wake::Domain
        } else {
            Wake::Bounds
        }
    }

    /// Narrowed bounds can rule out another index, and a fixed index raise its variable.
    fn idempotent(&self) -> bool {
        false
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.with_scratch(|ctx, scratch: &mut Scratch| self.filter(scratch, ctx))
    }
}
