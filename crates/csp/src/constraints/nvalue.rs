//! `NValue`: how many distinct values some variables take.

use super::listed::listed;
use crate::{Conflict, Constraint, Context, VarId};
use std::collections::BTreeMap;

/// Above this many values in the domains' union, the rule that needs a count per value is
/// skipped: it only acts when `n` must reach the whole union, rare in a wide one.
const COUNTED_UNION: u64 = 1 << 12;

/// `n` is the number of distinct values among `xs` (MiniZinc's `nvalue`).
///
/// Consistency: bounds on `n` and three rules on the `xs`, at least the pruning of MiniZinc's
/// decomposition (a Boolean per value):
/// - `n` at least the fewest points that meet every variable's interval (a greedy sweep over
///   the intervals by their ends, Beldiceanu's lower bound), so at least the fixed values;
/// - `n` at most the fixed values plus the open variables, and at most the domains' union;
/// - when `n` can be no more than the fixed values, the open variables keep to those; when it
///   must be the fixed values plus every open variable, they lose the fixed values; when it
///   must be the whole union, a value only one variable can take fixes that variable.
///
/// Not domain consistent (that is NP-hard, Bessière et al. 2006). The removals carry no
/// reason yet. Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct NValue {
    /// `xs`, then `n`.
    scope: Vec<VarId>,
}

/// Buffers reused between runs.
#[derive(Default)]
struct Scratch {
    /// Each variable's interval, `(max, min)` so that they sort by their ends.
    intervals: Vec<(i32, i32)>,
    /// The fixed values, sorted, without repeats.
    fixed: Vec<i32>,
    /// Every range of every domain, then merged.
    ranges: Vec<(i32, i32)>,
}

impl NValue {
    /// `n` distinct values among `xs`.
    pub fn new(n: VarId, xs: &[VarId]) -> Self {
        let mut scope = xs.to_vec();
        scope.push(n);
        NValue { scope }
    }

    fn xs(&self) -> &[VarId] {
        &self.scope[..self.scope.len() - 1]
    }

    fn n(&self) -> VarId {
        self.scope[self.scope.len() - 1]
    }

    fn filter(&self, s: &mut Scratch, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        s.intervals.clear();
        s.fixed.clear();
        s.ranges.clear();
        let mut open = 0i64;
        for &x in self.xs() {
            let (Some(low), Some(high)) = (ctx.min(x), ctx.max(x)) else {
                return Err(ctx.violated());
            };
            s.intervals.push((high, low));
            if low == high {
                s.fixed.push(low);
            } else {
                open += 1;
            }
            s.ranges.extend(ctx.ranges(x));
        }
        ctx.count_checks(self.xs().len() as u64);
        s.fixed.sort_unstable();
        s.fixed.dedup();
        let fixed = s.fixed.len() as i64;

        // The fewest points meeting every interval.
        s.intervals.sort_unstable();
        let mut least = 0i64;
        let mut last = i64::MIN;
        for &(high, low) in &s.intervals {
            if i64::from(low) > last {
                least += 1;
                last = i64::from(high);
            }
        }

        // The size of the domains' union.
        s.ranges.sort_unstable();
        let mut union = 0u64;
        let mut reach = i64::MIN;
        for &(low, high) in &s.ranges {
            let (low, high) = (i64::from(low).max(reach + 1), i64::from(high));
            if high >= low {
                union += (high - low + 1) as u64;
                reach = high;
            }
        }

        let n = self.n();
        ctx.at_least(n, least)?;
        ctx.at_most(n, (fixed + open).min(union.min(i64::MAX as u64) as i64))?;
        let (Some(n_min), Some(n_max)) = (ctx.min(n), ctx.max(n)) else {
            return Err(ctx.violated());
        };
        let (n_min, n_max) = (i64::from(n_min), i64::from(n_max));
        if open == 0 {
            return Ok(());
        }
        if n_max <= fixed {
            // No new value: each open variable takes one already taken.
            for &x in self.xs() {
                if ctx.fixed_value(x).is_none() {
                    ctx.keep_only(x, s.fixed.iter().map(|&v| (i64::from(v), i64::from(v))))?;
                }
            }
        } else if n_min >= fixed + open {
            // Each open variable brings a value no other takes.
            for &x in self.xs() {
                if ctx.fixed_value(x).is_none() {
                    for &v in &s.fixed {
                        ctx.remove(x, v)?;
                    }
                }
            }
        } else if n_min as u64 >= union && union <= COUNTED_UNION {
            self.take_every_value(ctx)?;
        }
        Ok(())
    }

    /// Every value of the union must be taken: one that only one variable can take fixes it.
    fn take_every_value(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        // value -> (how many variables can take it, the last of them)
        let mut takers: BTreeMap<i32, (u32, VarId)> = BTreeMap::new();
        for &x in self.xs() {
            for value in ctx.values(x) {
                let entry = takers.entry(value).or_insert((0, x));
                entry.0 += 1;
                entry.1 = x;
            }
        }
        for (value, (count, x)) in takers {
            if count == 1 {
                ctx.fix(x, value)?;
            }
        }
        Ok(())
    }
}

impl Constraint for NValue {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (xs, n) = values.split_at(values.len() - 1);
        let mut seen = xs.to_vec();
        seen.sort_unstable();
        seen.dedup();
        seen.len() as i64 == i64::from(n[0])
    }

    fn describe(&self) -> String {
        let xs = listed(self.xs().iter().map(|x| x.to_string()), 6, ", ");
        format!("{} = nvalue([{xs}])", self.n())
    }

    /// A change of `n`'s bounds or of the `xs` can enable another rule.
    fn idempotent(&self) -> bool {
        false
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.with_scratch(|ctx, scratch: &mut Scratch| self.filter(scratch, ctx))
    }
}
