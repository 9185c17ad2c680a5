//! `GlobalCardinality`: how many of some variables take each value of a cover, between fixed
//! bounds or equal to count variables, optionally with every variable taking a cover value.

use super::cardinality_flow::{value_span, CardinalityFlow};
use super::listed::listed;
use crate::propagation::constraint::{check_when_settled, filter_last_open};
use crate::{Atom, Conflict, Constraint, Context, Priority, VarId, Wake};
use smallvec::SmallVec;

/// How many places may take one cover value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Card {
    /// Between these, inclusive.
    Between(u32, u32),
    /// Exactly the value of this count variable (a scope variable).
    Counted(VarId),
}

/// For each `i`, the number of the variables `xs` equal to `cover[i]` lies between
/// `low[i]` and `high[i]` (MiniZinc's `global_cardinality_low_up`) or equals `counts[i]`
/// (`global_cardinality`); when closed, every variable takes a value of the cover.
///
/// Under `mac` it enforces generalised arc consistency on `xs` for the counts' current
/// bounds, by Régin's flow (AAAI 1996); a count variable is narrowed to between how many
/// variables are fixed to its value and how many can still take it. Where the values span
/// more than 65,536, it keeps to those counts alone, fixing and removing values when a count
/// is met. Under `none` and `fc` it acts on assigned values: a value whose count has reached
/// its most leaves the unassigned variables.
#[derive(Clone, Debug)]
pub struct GlobalCardinality {
    /// `xs` followed by the count variables, in cover order.
    scope: Vec<VarId>,
    places: usize,
    cover: Vec<i32>,
    /// The cover's values sorted, for a closed cover's membership tests.
    sorted_cover: Vec<i32>,
    cards: Vec<Card>,
    closed: bool,
}

/// `values` sorted, without repeats.
fn sorted(values: &[i32]) -> Vec<i32> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted
}

impl GlobalCardinality {
    /// Between `low[i]` and `high[i]` of `xs` equal `cover[i]`. `None` when the three lists
    /// differ in length.
    pub fn low_up(
        xs: &[VarId],
        cover: &[i32],
        low: &[i64],
        high: &[i64],
        closed: bool,
    ) -> Option<Self> {
        if cover.len() != low.len() || cover.len() != high.len() {
            return None;
        }
        let n = xs.len() as i64;
        let cards = low
            .iter()
            .zip(high)
            .map(|(&l, &h)| {
                if h < 0 || l > h || l > n {
                    // Never met: kept as a least above the most.
                    Card::Between(1, 0)
                } else {
                    Card::Between(l.max(0) as u32, h.min(n) as u32)
                }
            })
            .collect();
        Some(GlobalCardinality {
            scope: xs.to_vec(),
            places: xs.len(),
            cover: cover.to_vec(),
            sorted_cover: sorted(cover),
            cards,
            closed,
        })
    }

    /// Exactly `counts[i]` of `xs` equal `cover[i]`. `None` when the lists differ in length.
    pub fn counted(xs: &[VarId], cover: &[i32], counts: &[VarId], closed: bool) -> Option<Self> {
        if cover.len() != counts.len() {
            return None;
        }
        let mut scope = xs.to_vec();
        scope.extend_from_slice(counts);
        Some(GlobalCardinality {
            scope,
            places: xs.len(),
            cover: cover.to_vec(),
            sorted_cover: sorted(cover),
            cards: counts.iter().map(|&c| Card::Counted(c)).collect(),
            closed,
        })
    }

    fn xs(&self) -> &[VarId] {
        &self.scope[..self.places]
    }

    /// The least and most places cover entry `i` allows now (least above most: none).
    fn bounds(&self, i: usize, ctx: &Context<'_>) -> (u32, u32) {
        match self.cards[i] {
            Card::Between(low, high) => (low, high),
            Card::Counted(c) => {
                let n = self.places as i64;
                let low = ctx.min(c).map_or(n + 1, |v| i64::from(v).clamp(0, n + 1));
                let high = ctx.max(c).map_or(-1, |v| i64::from(v).clamp(-1, n));
                if high < 0 {
                    (1, 0)
                } else {
                    (low as u32, high as u32)
                }
            }
        }
    }

    /// The most places cover entry `i` allows once settled, for `none` and `fc`: its upper
    /// bound, or its count variable's assigned value.
    fn settled_most(&self, i: usize, ctx: &Context<'_>) -> Option<i64> {
        match self.cards[i] {
            Card::Between(_, high) => Some(i64::from(high)),
            Card::Counted(c) => ctx.assigned_value(c).map(i64::from),
        }
    }

    /// For `none` and `fc`: fails when the assigned places break a most, or take a value out
    /// of a closed cover; with `remove`, takes a value whose most is reached from the
    /// unassigned places.
    fn check_counts(
        &self,
        var: VarId,
        remove: bool,
        ctx: &mut Context<'_>,
    ) -> Result<(), Conflict> {
        let Some(value) = ctx.assigned_value(var) else {
            return Ok(());
        };
        let xs = self.xs();
        if !xs.contains(&var) {
            return Ok(());
        }
        if self.closed && !self.cover.contains(&value) {
            return Err(ctx.violated());
        }
        for i in (0..self.cover.len()).filter(|&i| self.cover[i] == value) {
            let Some(most) = self.settled_most(i, ctx) else {
                continue;
            };
            let taken = xs
                .iter()
                .filter(|&&x| ctx.assigned_value(x) == Some(value))
                .count() as i64;
            ctx.count_checks(xs.len() as u64);
            if taken > most {
                return Err(ctx.violated());
            }
            if remove && taken == most {
                let mut reason: SmallVec<[Atom; 8]> = SmallVec::new();
                if ctx.explaining() {
                    reason.extend(
                        xs.iter()
                            .filter(|&&x| ctx.assigned_value(x) == Some(value))
                            .map(|&x| Atom::Eq(x, value)),
                    );
                    if let Card::Counted(c) = self.cards[i] {
                        reason.push(Atom::Le(c, most as i32));
                    }
                }
                for &x in xs {
                    if !ctx.is_assigned(x) {
                        ctx.remove_because(x, value, &reason)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Takes every value out of the cover from the places (closed only).
    fn keep_to_cover(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let sorted = &self.sorted_cover;
        for &x in self.xs() {
            let (Some(min), Some(max)) = (ctx.min(x), ctx.max(x)) else {
                return Err(ctx.violated());
            };
            let inside = sorted.first().is_some_and(|&first| first <= min)
                && sorted.last().is_some_and(|&last| last >= max)
                && ctx.size_u64(x) <= sorted.len() as u64
                && ctx.values(x).all(|v| sorted.binary_search(&v).is_ok());
            if inside {
                continue;
            }
            for v in ctx.values_vec(x) {
                if sorted.binary_search(&v).is_err() {
                    ctx.remove(x, v)?;
                }
            }
        }
        Ok(())
    }

    /// Narrows each count variable to between how many places are fixed to its value and
    /// how many can take it; where the values span too wide for the flow, also fixes the
    /// places when a least needs all that can, and removes the value when a most is met.
    /// Returns whether it changed a place, after which the counts are to be read again.
    fn by_counting(&self, with_values: bool, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let xs = self.xs();
        let mut changed = false;
        for (i, &value) in self.cover.iter().enumerate() {
            let (mut fixed, mut possible) = (0u32, 0u32);
            for &x in xs {
                if ctx.contains(x, value) {
                    possible += 1;
                    fixed += u32::from(ctx.size(x) == 1);
                }
            }
            ctx.count_checks(xs.len() as u64);
            if let Card::Counted(c) = self.cards[i] {
                let reason_fixed: SmallVec<[Atom; 8]> = if ctx.explaining() {
                    xs.iter()
                        .filter(|&&x| ctx.fixed_value(x) == Some(value))
                        .map(|&x| Atom::Eq(x, value))
                        .collect()
                } else {
                    SmallVec::new()
                };
                ctx.at_least_because(c, i64::from(fixed), &reason_fixed)?;
                let reason_possible: SmallVec<[Atom; 8]> = if ctx.explaining() {
                    xs.iter()
                        .filter(|&&x| !ctx.contains(x, value))
                        .map(|&x| Atom::Ne(x, value))
                        .collect()
                } else {
                    SmallVec::new()
                };
                ctx.at_most_because(c, i64::from(possible), &reason_possible)?;
            }
            if !with_values {
                continue;
            }
            let (low, high) = self.bounds(i, ctx);
            if low > high || fixed > high || possible < low {
                return Err(ctx.violated());
            }
            if possible == low && fixed < low {
                for &x in xs {
                    if ctx.contains(x, value) {
                        changed |= ctx.fix(x, value)? > 0;
                    }
                }
            } else if fixed == high && possible > high {
                for &x in xs {
                    if ctx.size(x) > 1 {
                        changed |= ctx.remove(x, value)?;
                    }
                }
            }
        }
        Ok(changed)
    }

    /// Generalised arc consistency on the places, by the flow.
    fn by_flow(&self, flow: &mut CardinalityFlow, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let xs = self.xs();
        let Some((low, high)) = value_span(xs, ctx) else {
            return Ok(false);
        };
        flow.start(low, high, self.places);
        for i in 0..self.cover.len() {
            let (least, most) = self.bounds(i, ctx);
            if least > most {
                return Err(ctx.violated());
            }
            let value = i64::from(self.cover[i]);
            if value < low || value > high {
                if least > 0 {
                    return Err(ctx.violated());
                }
                continue;
            }
            let j = (value - low) as usize;
            flow.lower[j] = flow.lower[j].max(least);
            flow.upper[j] = flow.upper[j].min(most);
            if flow.lower[j] > flow.upper[j] {
                return Err(ctx.violated());
            }
        }
        flow.filter(xs, ctx)?;
        Ok(true)
    }
}

impl Constraint for GlobalCardinality {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (xs, counts) = values.split_at(self.places);
        if self.closed && xs.iter().any(|v| !self.cover.contains(v)) {
            return false;
        }
        let mut counted = 0;
        self.cover.iter().zip(&self.cards).all(|(&value, card)| {
            let taken = xs.iter().filter(|&&v| v == value).count() as i64;
            match card {
                Card::Between(low, high) => i64::from(*low) <= taken && taken <= i64::from(*high),
                Card::Counted(_) => {
                    counted += 1;
                    i64::from(counts[counted - 1]) == taken
                }
            }
        })
    }

    fn describe(&self) -> String {
        let xs = listed(self.xs().iter().map(|x| x.to_string()), 6, ", ");
        let cards = self
            .cover
            .iter()
            .zip(&self.cards)
            .map(|(v, card)| match card {
                Card::Between(low, high) => format!("{v}: {low}..{high}"),
                Card::Counted(c) => format!("{v}: {c}"),
            });
        let closed = if self.closed { "_closed" } else { "" };
        format!(
            "global_cardinality{closed}([{xs}], {{{}}})",
            listed(cards, 6, ", ")
        )
    }

    fn priority(&self) -> Priority {
        Priority::Global
    }

    /// The places wake it on any removal, the count variables on their bounds.
    fn wake_on(&self, var: VarId) -> Wake {
        if self.xs().contains(&var) {
            Wake::Domain
        } else {
            Wake::Bounds
        }
    }

    /// Narrowing a count variable can tighten the flow's bounds again.
    fn idempotent(&self) -> bool {
        self.cards.iter().all(|c| matches!(c, Card::Between(..)))
    }

    fn check_assigned(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.check_counts(var, false, ctx)?;
        check_when_settled(self, ctx, |ctx, v| ctx.assigned_value(v))
    }

    fn forward_check(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.check_counts(var, true, ctx)?;
        filter_last_open(self, ctx, |ctx, v| ctx.assigned_value(v))
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if self.closed {
            self.keep_to_cover(ctx)?;
        }
        let flowed = ctx.with_scratch(|ctx, flow: &mut CardinalityFlow| self.by_flow(flow, ctx))?;
        // Counting alone, a place fixed for one value changes another's counts: to a fixpoint.
        while self.by_counting(!flowed, ctx)? && !flowed {}
        Ok(())
    }
}
