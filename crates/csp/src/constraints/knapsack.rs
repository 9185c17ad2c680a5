//! `Knapsack`: items taken in whole numbers, bounded by their weight and profit through the
//! linear relaxation.

use super::listed::listed;
use crate::{Atom, Conflict, Constraint, Context, DeclaredBounds, LinearRow, VarId, Wake};

/// `x[i]` copies of item `i` are taken, each of weight `weights[i]` and profit `profits[i]`:
/// `weight = Σ weights[i]·x[i]`, `profit = Σ profits[i]·x[i]`, every `x[i]`, `weight` and
/// `profit` at least 0 (MiniZinc's `knapsack`; weights and profits are never negative).
///
/// Consistency: the two sums are posted beside it as [`Linear`](super::Linear)s, which give
/// bounds consistency on each; this one adds what only both together show, the bounds of
/// the linear relaxation (Dantzig's bound), in exact integer arithmetic:
/// - `profit` at most the relaxation's best profit within `weight`'s largest value, and
///   `weight` at least the relaxation's least weight that reaches `profit`'s smallest;
/// - each item's bounds tightened by its reduced cost against the relaxation's critical
///   item (the Lagrangian bound with that item's ratio as the multiplier), in both
///   directions.
///
/// Short of bounds consistency on the integer knapsack (NP-hard). Every bound it moves has
/// a reason: the item bounds the relaxation used, and `weight`'s or `profit`'s bound. Under
/// `none` and `fc`, the default hooks; no proof (it is no single linear form).
#[derive(Clone, Debug)]
pub struct Knapsack {
    /// The items' `x`, then `weight`, then `profit`.
    scope: Vec<VarId>,
    weights: Vec<i64>,
    profits: Vec<i64>,
    /// The items that weigh or earn something, by profit per unit of weight, best first:
    /// weightless ones first, those that earn nothing last. The ratios are constants, so
    /// the order is set once.
    by_ratio: Vec<usize>,
}

/// The relaxation's dual multiplier, `ratio = profit / weight` of its critical item, and
/// each item's reduced cost scaled by `weight`: `profits[i]·weight - weights[i]·profit`.
struct Multiplier {
    profit: i128,
    weight: i128,
}

impl Multiplier {
    /// No multiplier: every item counted at its upper bound, the capacity not at all.
    const ZERO: Multiplier = Multiplier {
        profit: 0,
        weight: 1,
    };

    fn reduced(&self, weight: i64, profit: i64) -> i128 {
        i128::from(profit) * self.weight - i128::from(weight) * self.profit
    }
}

/// Reused between runs: the items' bounds, and the reason being built.
#[derive(Default)]
struct Scratch {
    low: Vec<i64>,
    high: Vec<i64>,
    reason: Vec<Atom>,
}

impl Knapsack {
    /// Items `xs` of `weights` and `profits`, their total weight `weight` and profit
    /// `profit`; `None` when the three lists differ in length or a weight or profit is
    /// negative.
    pub fn new(
        weights: &[i32],
        profits: &[i32],
        xs: &[VarId],
        weight: VarId,
        profit: VarId,
    ) -> Option<Self> {
        if weights.len() != xs.len()
            || profits.len() != xs.len()
            || weights.iter().chain(profits).any(|&v| v < 0)
        {
            return None;
        }
        let weights: Vec<i64> = weights.iter().map(|&w| i64::from(w)).collect();
        let profits: Vec<i64> = profits.iter().map(|&p| i64::from(p)).collect();
        let mut by_ratio: Vec<usize> = (0..xs.len())
            .filter(|&i| weights[i] > 0 || profits[i] > 0)
            .collect();
        // a before b when p_a / w_a > p_b / w_b, compared without dividing: the angles of
        // (w, p) in the first quadrant, a total preorder once (0, 0) is left out.
        by_ratio.sort_by(|&a, &b| (profits[b] * weights[a]).cmp(&(profits[a] * weights[b])));
        let mut scope = xs.to_vec();
        scope.extend([weight, profit]);
        Some(Knapsack {
            scope,
            weights,
            profits,
            by_ratio,
        })
    }

    fn xs(&self) -> &[VarId] {
        &self.scope[..self.weights.len()]
    }

    fn weight(&self) -> VarId {
        self.scope[self.weights.len()]
    }

    fn profit(&self) -> VarId {
        self.scope[self.weights.len() + 1]
    }

    fn filter(&self, s: &mut Scratch, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        for &var in &self.scope {
            if ctx.min(var).is_some_and(|m| m < 0) {
                // Nothing taken a negative number of times: the constraint alone says so.
                ctx.at_least_because(var, 0, &[])?;
            }
        }
        s.low.clear();
        s.high.clear();
        for &x in self.xs() {
            let (Some(low), Some(high)) = (ctx.min(x), ctx.max(x)) else {
                return Err(ctx.violated());
            };
            s.low.push(i64::from(low));
            s.high.push(i64::from(high));
        }
        ctx.count_checks(self.by_ratio.len() as u64);
        self.by_capacity(s, ctx)?;
        self.by_profit(s, ctx)
    }

    /// `weight`'s largest and `profit`'s smallest value.
    fn limits(&self, ctx: &Context<'_>) -> Result<(i64, i64), Conflict> {
        match (ctx.max(self.weight()), ctx.min(self.profit())) {
            (Some(capacity), Some(least)) => Ok((i64::from(capacity), i64::from(least))),
            _ => Err(ctx.violated()),
        }
    }

    /// The relaxation of `max profit` within `weight <= max(weight)`: `profit`'s upper
    /// bound, and each item's bounds against `profit`'s lower bound.
    fn by_capacity(&self, s: &mut Scratch, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (capacity, least_profit) = self.limits(ctx)?;
        let capacity_atom = Atom::Le(self.weight(), capacity as i32);
        let mut room = i128::from(capacity);
        for (i, &w) in self.weights.iter().enumerate() {
            room -= i128::from(w) * i128::from(s.low[i]);
        }
        if room < 0 {
            // The lower bounds alone overfill it.
            s.reason.clear();
            if ctx.explaining() {
                s.reason.push(capacity_atom);
                for (i, &x) in self.xs().iter().enumerate() {
                    if self.weights[i] > 0 && s.low[i] > 0 {
                        s.reason.push(Atom::Ge(x, s.low[i] as i32));
                    }
                }
            }
            return Err(ctx.violated_because(&s.reason));
        }
        // Greedily by ratio from the lower bounds: the first item that does not fit whole
        // is the critical one, whose ratio prices the capacity.
        let critical = self.by_ratio.iter().copied().find(|&i| {
            let take = i128::from(self.weights[i]) * i128::from(s.high[i] - s.low[i]);
            let fits = take <= room;
            room -= take;
            !fits
        });
        let multiplier = critical.map_or(Multiplier::ZERO, |c| Multiplier {
            profit: i128::from(self.profits[c]),
            weight: i128::from(self.weights[c]),
        });
        // For any x within its bounds and the capacity, Σ p·x = Σ (p - r·w)·x + r·Σ w·x:
        // scaled by wc, wc · profit <= pc · capacity + Σ reduced_i · x_i, each x_i at the
        // bound its reduced cost favours.
        let bound = multiplier.profit * i128::from(capacity) + self.best(s, &multiplier);
        let priced = (multiplier.profit > 0).then_some(capacity_atom);
        self.explain(s, ctx, &multiplier, priced);
        let most = bound.div_euclid(multiplier.weight);
        if most < i128::from(ctx.max(self.profit()).map_or(i32::MIN, |m| m)) {
            self.bound_by_reason(s, ctx, |ctx, reason| {
                ctx.at_most_because(self.profit(), clamp(most), reason)
            })?;
        }
        // Forcing an item off its favoured bound by k costs k · |reduced| of the slack.
        let slack = bound - multiplier.weight * i128::from(least_profit);
        if ctx.explaining() {
            s.reason.push(Atom::Ge(self.profit(), least_profit as i32));
        }
        self.tighten_items(s, ctx, &multiplier, slack)
    }

    /// The relaxation of `min weight` with `profit >= min(profit)`: `weight`'s lower bound,
    /// and each item's bounds against `weight`'s upper bound.
    fn by_profit(&self, s: &mut Scratch, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (capacity, least_profit) = self.limits(ctx)?;
        let profit_atom = Atom::Ge(self.profit(), least_profit as i32);
        let mut needed = i128::from(least_profit);
        for (i, &p) in self.profits.iter().enumerate() {
            needed -= i128::from(p) * i128::from(s.low[i]);
        }
        if needed <= 0 {
            // The lower bounds earn enough: the weight's sum says the rest.
            return Ok(());
        }
        // Greedily by ratio from the lower bounds: the critical item is the one that
        // completes the profit needed, whose ratio prices profit in weight.
        let critical = self.by_ratio.iter().copied().find(|&i| {
            let gain = i128::from(self.profits[i]) * i128::from(s.high[i] - s.low[i]);
            let completes = gain >= needed;
            needed -= gain;
            completes
        });
        let Some(c) = critical else {
            // Every item at its upper bound earns too little.
            self.explain(s, ctx, &Multiplier::ZERO, Some(profit_atom));
            return Err(ctx.violated_because(&s.reason));
        };
        let multiplier = Multiplier {
            profit: i128::from(self.profits[c]),
            weight: i128::from(self.weights[c]),
        };
        // For any x within its bounds earning enough, Σ w·x = Σ (w - q·p)·x + q·Σ p·x with
        // q = wc / pc: scaled by pc, pc · weight >= wc · least_profit - Σ reduced_i · x_i.
        let bound = multiplier.weight * i128::from(least_profit) - self.best(s, &multiplier);
        self.explain(s, ctx, &multiplier, Some(profit_atom));
        // pc > 0: the critical item earns what was still needed.
        let least = -(-bound).div_euclid(multiplier.profit);
        if least > i128::from(ctx.min(self.weight()).map_or(i32::MAX, |m| m)) {
            self.bound_by_reason(s, ctx, |ctx, reason| {
                ctx.at_least_because(self.weight(), clamp(least), reason)
            })?;
        }
        let slack = multiplier.profit * i128::from(capacity) - bound;
        if ctx.explaining() {
            s.reason.push(Atom::Le(self.weight(), capacity as i32));
        }
        self.tighten_items(s, ctx, &multiplier, slack)
    }

    /// `Σ reduced_i · x_i` with each `x_i` at the bound its reduced cost favours: the upper
    /// one when positive, the lower one otherwise.
    fn best(&self, s: &Scratch, multiplier: &Multiplier) -> i128 {
        (0..self.weights.len())
            .map(|i| {
                let reduced = multiplier.reduced(self.weights[i], self.profits[i]);
                reduced * i128::from(if reduced > 0 { s.high[i] } else { s.low[i] })
            })
            .sum()
    }

    /// The reason of a bound [`best`](Self::best) used, into `s.reason` (when someone
    /// listens): each item's upper bound where its reduced cost is positive, its lower
    /// bound where negative and above 0 (0 the constraint gives), and `extra`.
    fn explain(&self, s: &mut Scratch, ctx: &Context<'_>, m: &Multiplier, extra: Option<Atom>) {
        s.reason.clear();
        if !ctx.explaining() {
            return;
        }
        s.reason.extend(extra);
        for (i, &x) in self.xs().iter().enumerate() {
            let reduced = m.reduced(self.weights[i], self.profits[i]);
            if reduced > 0 {
                s.reason.push(Atom::Le(x, s.high[i] as i32));
            } else if reduced < 0 && s.low[i] > 0 {
                s.reason.push(Atom::Ge(x, s.low[i] as i32));
            }
        }
    }

    /// Runs `prune` with `s.reason` as its reason, the buffer kept for the next one.
    fn bound_by_reason(
        &self,
        s: &mut Scratch,
        ctx: &mut Context<'_>,
        prune: impl FnOnce(&mut Context<'_>, &[Atom]) -> Result<u64, Conflict>,
    ) -> Result<(), Conflict> {
        let reason = std::mem::take(&mut s.reason);
        let result = prune(ctx, &reason);
        s.reason = reason;
        result.map(|_| ())
    }

    /// Both relaxations end in `Σ reduced_i · (x_i - favoured_i) >= -slack`: each item's
    /// distance from its favoured bound is at most `slack / |reduced_i|`. The reason is the
    /// bound's, which also holds the item's own bound (sound, if not the shortest).
    fn tighten_items(
        &self,
        s: &mut Scratch,
        ctx: &mut Context<'_>,
        m: &Multiplier,
        slack: i128,
    ) -> Result<(), Conflict> {
        for i in 0..self.weights.len() {
            let reduced = m.reduced(self.weights[i], self.profits[i]);
            let (low, high) = (s.low[i], s.high[i]);
            if reduced == 0 || low == high {
                continue;
            }
            let reach = slack / reduced.abs();
            let x = self.xs()[i];
            if reduced < 0 && i128::from(low) + reach < i128::from(high) {
                let most = low + reach as i64;
                self.bound_by_reason(s, ctx, |ctx, reason| ctx.at_most_because(x, most, reason))?;
                s.high[i] = most;
            } else if reduced > 0 && i128::from(high) - reach > i128::from(low) {
                let least = high - reach as i64;
                self.bound_by_reason(s, ctx, |ctx, reason| ctx.at_least_because(x, least, reason))?;
                s.low[i] = least;
            }
        }
        Ok(())
    }
}

/// A bound computed in `i128`, within `i64` (where `at_most` and `at_least` take over).
fn clamp(v: i128) -> i64 {
    v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

impl Constraint for Knapsack {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// Its two sums: `sum(w x) - weight = 0` and `sum(p x) - profit = 0`.
    fn relax(&self, _declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let n = self.weights.len();
        for (values, total) in [
            (&self.weights, self.scope[n]),
            (&self.profits, self.scope[n + 1]),
        ] {
            let mut terms: Vec<(i64, VarId)> = values
                .iter()
                .copied()
                .zip(self.xs().iter().copied())
                .collect();
            terms.push((-1, total));
            rows.push(LinearRow::equal(terms, 0));
        }
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let n = self.weights.len();
        let (xs, totals) = values.split_at(n);
        let sum = |coefficients: &[i64]| -> i64 {
            coefficients
                .iter()
                .zip(xs)
                .map(|(&c, &x)| c * i64::from(x))
                .sum()
        };
        values.iter().all(|&v| v >= 0)
            && sum(&self.weights) == i64::from(totals[0])
            && sum(&self.profits) == i64::from(totals[1])
    }

    fn describe(&self) -> String {
        let numbers = |vs: &[i64]| listed(vs.iter().map(|v| v.to_string()), 6, ", ");
        let xs = listed(self.xs().iter().map(|x| x.to_string()), 6, ", ");
        format!(
            "knapsack([{}], [{}], [{xs}], {}, {})",
            numbers(&self.weights),
            numbers(&self.profits),
            self.weight(),
            self.profit()
        )
    }

    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Bounds
    }

    /// A bound it moves moves the relaxation's optimum.
    fn idempotent(&self) -> bool {
        false
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.with_scratch(|ctx, scratch: &mut Scratch| self.filter(scratch, ctx))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Inference, Model, Solver, SplitMix64, VarId};

    /// The fractional knapsack's best profit within `capacity` (Dantzig: the items by ratio,
    /// the last one cut), in floating point: an oracle written apart from the propagator's
    /// integer arithmetic.
    fn fractional_profit(items: &[(i32, i32)], capacity: i32) -> f64 {
        let mut by_ratio = items.to_vec();
        by_ratio.sort_by(|a, b| (b.1 as f64 / b.0 as f64).total_cmp(&(a.1 as f64 / a.0 as f64)));
        let (mut room, mut profit) = (f64::from(capacity), 0.0);
        for (w, p) in by_ratio {
            let part = (room / f64::from(w)).min(1.0);
            profit += part * f64::from(p);
            room -= part * f64::from(w);
        }
        profit
    }

    /// The fractional knapsack's least weight earning `target`, in floating point.
    fn fractional_weight(items: &[(i32, i32)], target: i32) -> Option<f64> {
        let mut by_ratio = items.to_vec();
        by_ratio.sort_by(|a, b| (b.1 as f64 / b.0 as f64).total_cmp(&(a.1 as f64 / a.0 as f64)));
        let (mut needed, mut weight) = (f64::from(target), 0.0);
        for (w, p) in by_ratio {
            if needed <= 0.0 {
                break;
            }
            let part = (needed / f64::from(p)).min(1.0);
            weight += part * f64::from(w);
            needed -= part * f64::from(p);
        }
        (needed <= 1e-9).then_some(weight)
    }

    /// Every subset's (weight, profit).
    fn subsets(items: &[(i32, i32)]) -> Vec<(i32, i32)> {
        (0..1u32 << items.len())
            .map(|mask| {
                let taken = items.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1);
                taken.fold((0, 0), |(w, p), (_, &(wi, pi))| (w + wi, p + pi))
            })
            .collect()
    }

    /// 0/1 knapsacks of up to 10 items: at the root, `profit` within a capacity is bounded
    /// by the fractional optimum (which the two sums alone do not give) and never below the
    /// best subset's; `weight`, for a profit asked, at least the fractional least weight
    /// and never above the lightest subset's that earns it.
    #[test]
    fn the_root_bounds_are_the_relaxations_and_keep_the_optimum() {
        let mut rng = SplitMix64::new(62);
        for case in 0..300 {
            let n = 1 + rng.below(10) as usize;
            let items: Vec<(i32, i32)> = (0..n)
                .map(|_| (1 + rng.below(20) as i32, 1 + rng.below(30) as i32))
                .collect();
            let all = subsets(&items);
            let total_weight: i32 = items.iter().map(|i| i.0).sum();
            let total_profit: i32 = items.iter().map(|i| i.1).sum();
            let capacity = rng.below(total_weight as u64 + 1) as i32;
            let target = rng.below(total_profit as u64 + 1) as i32;
            let root = |weight: (i32, i32), profit: (i32, i32)| {
                let mut model = Model::new();
                let xs: Vec<VarId> = (0..n).map(|_| model.new_var(0..=1).unwrap()).collect();
                let w = model.new_var(weight.0..=weight.1).unwrap();
                let p = model.new_var(profit.0..=profit.1).unwrap();
                let (ws, ps): (Vec<i32>, Vec<i32>) = items.iter().copied().unzip();
                model.knapsack(&ws, &ps, &xs, w, p).unwrap();
                let domains = Solver::new(&model).inference(Inference::Mac).root_domains();
                domains.map(|d| (d[n].clone(), d[n + 1].clone()))
            };

            let best = all.iter().filter(|s| s.0 <= capacity).map(|s| s.1).max();
            let (_, profit) = root((0, capacity), (0, total_profit)).expect("the empty set fits");
            let most = *profit.last().unwrap();
            let relaxed = fractional_profit(&items, capacity);
            assert!(
                f64::from(most) <= relaxed + 1e-6,
                "case {case}: {items:?} within {capacity}: profit up to {most}, relaxation {relaxed}"
            );
            assert!(
                most >= best.unwrap(),
                "case {case}: lost the optimum {best:?}"
            );

            let lightest = all.iter().filter(|s| s.1 >= target).map(|s| s.0).min();
            let (weight, _) = root((0, total_weight), (target, total_profit)).expect("all earn it");
            let least = weight[0];
            let relaxed = fractional_weight(&items, target).unwrap();
            assert!(
                f64::from(least) >= relaxed - 1e-6,
                "case {case}: {items:?} earning {target}: weight from {least}, relaxation {relaxed}"
            );
            assert!(least <= lightest.unwrap(), "case {case}: lost {lightest:?}");
        }
    }
}
