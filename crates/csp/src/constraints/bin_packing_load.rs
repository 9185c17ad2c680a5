//! `BinPackingLoad`: items put into bins, each bin's load the weight of its items.

use super::listed::listed;
use crate::{Conflict, Constraint, Context, VarId};

/// Item `i` of weight `w[i]` goes into bin `bin[i]`, one of `first..first + loads.len()`,
/// and `load[b]` is the total weight of bin `b`'s items (MiniZinc's `bin_packing_load`).
///
/// Consistency: bounds on the loads and the items' bins, the rules of Shaw's bin-packing
/// constraint (CP 2004) short of its knapsack and lower-bound reasoning:
/// - each load between the weights fixed in its bin plus the least and the most that the
///   items which may still go there can add;
/// - the loads sum to the total weight, so each is at least the total less the most the
///   others can hold, and at most the total less the least they must;
/// - an item leaves a bin it would overfill or underfill, and an item without which a bin
///   cannot reach its least load goes there.
///
/// Weights of either sign are handled. The removals carry no reason yet. Under `none` and
/// `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct BinPackingLoad {
    /// `bin`, then `load`.
    scope: Vec<VarId>,
    weights: Vec<i64>,
    /// The number of the first bin.
    first: i32,
}

/// Buffers reused between runs: per bin, the weight fixed there and what open items may add.
#[derive(Default)]
struct Scratch {
    fixed: Vec<i64>,
    add_least: Vec<i64>,
    add_most: Vec<i64>,
}

impl BinPackingLoad {
    /// Items `bin` of weights `weights` into bins numbered from `first`, of loads `loads`;
    /// `None` when the items and weights differ in number or the bins' numbers pass `i32`.
    pub fn new(loads: &[VarId], first: i32, bin: &[VarId], weights: &[i32]) -> Option<Self> {
        if bin.len() != weights.len()
            || i64::from(first) + loads.len() as i64 - 1 > i64::from(i32::MAX)
        {
            return None;
        }
        let mut scope = bin.to_vec();
        scope.extend_from_slice(loads);
        Some(BinPackingLoad {
            scope,
            weights: weights.iter().map(|&w| i64::from(w)).collect(),
            first,
        })
    }

    fn items(&self) -> &[VarId] {
        &self.scope[..self.weights.len()]
    }

    fn loads(&self) -> &[VarId] {
        &self.scope[self.weights.len()..]
    }

    /// The last bin's number.
    fn last(&self) -> i64 {
        i64::from(self.first) + self.loads().len() as i64 - 1
    }

    fn filter(&self, s: &mut Scratch, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let bins = self.loads().len();
        if bins == 0 {
            return match self.items() {
                [] => Ok(()),
                _ => Err(ctx.violated()),
            };
        }
        let first = i64::from(self.first);
        for &item in self.items() {
            ctx.within(item, first, self.last())?;
        }
        for v in [&mut s.fixed, &mut s.add_least, &mut s.add_most] {
            v.clear();
            v.resize(bins, 0);
        }
        for (&item, &w) in self.items().iter().zip(&self.weights) {
            if let Some(b) = ctx.fixed_value(item) {
                s.fixed[(i64::from(b) - first) as usize] += w;
                continue;
            }
            for b in ctx.values(item) {
                let k = (i64::from(b) - first) as usize;
                s.add_least[k] += w.min(0);
                s.add_most[k] += w.max(0);
            }
        }
        ctx.count_checks(self.items().len() as u64);

        // Each load within what its bin can hold, then within what the others leave.
        let total: i64 = self.weights.iter().sum();
        for k in 0..bins {
            let load = self.loads()[k];
            ctx.within(
                load,
                s.fixed[k] + s.add_least[k],
                s.fixed[k] + s.add_most[k],
            )?;
        }
        let (mut least_sum, mut most_sum) = (0i64, 0i64);
        for &load in self.loads() {
            let (Some(low), Some(high)) = (ctx.min(load), ctx.max(load)) else {
                return Err(ctx.violated());
            };
            least_sum += i64::from(low);
            most_sum += i64::from(high);
        }
        for &load in self.loads() {
            let (Some(low), Some(high)) = (ctx.min(load), ctx.max(load)) else {
                return Err(ctx.violated());
            };
            let others_least = least_sum - i64::from(low);
            let others_most = most_sum - i64::from(high);
            ctx.within(load, total - others_most, total - others_least)?;
        }

        // Each open item against each bin it may go to.
        for (&item, &w) in self.items().iter().zip(&self.weights) {
            if w == 0 || ctx.fixed_value(item).is_some() {
                continue;
            }
            for b in ctx.values_vec(item) {
                let k = (i64::from(b) - first) as usize;
                let load = self.loads()[k];
                let (Some(low), Some(high)) = (ctx.min(load), ctx.max(load)) else {
                    return Err(ctx.violated());
                };
                let (low, high) = (i64::from(low), i64::from(high));
                let least = s.fixed[k] + s.add_least[k];
                let most = s.fixed[k] + s.add_most[k];
                // The bin's reach with the item in it, and without.
                let (with, without) = if w > 0 {
                    ((least + w, most), (least, most - w))
                } else {
                    ((least, most + w), (least - w, most))
                };
                if with.0 > high || with.1 < low {
                    ctx.remove(item, b)?;
                } else if without.0 > high || without.1 < low {
                    ctx.fix(item, b)?;
                    break;
                }
            }
        }
        Ok(())
    }
}

impl Constraint for BinPackingLoad {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (items, loads) = values.split_at(self.weights.len());
        let mut sums = vec![0i64; loads.len()];
        for (&b, &w) in items.iter().zip(&self.weights) {
            let Ok(k) = usize::try_from(i64::from(b) - i64::from(self.first)) else {
                return false;
            };
            let Some(sum) = sums.get_mut(k) else {
                return false;
            };
            *sum += w;
        }
        sums.iter().zip(loads).all(|(&s, &l)| s == i64::from(l))
    }

    fn describe(&self) -> String {
        let names = |vars: &[VarId]| listed(vars.iter().map(|x| x.to_string()), 6, ", ");
        let weights = listed(self.weights.iter().map(|w| w.to_string()), 6, ", ");
        format!(
            "bin_packing_load([{}], [{}], [{weights}])",
            names(self.loads()),
            names(self.items())
        )
    }

    /// A narrowed load or a placed item can enable another rule.
    fn idempotent(&self) -> bool {
        false
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.with_scratch(|ctx, scratch: &mut Scratch| self.filter(scratch, ctx))
    }
}
