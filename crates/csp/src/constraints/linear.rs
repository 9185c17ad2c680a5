//! `Linear`: sum(a_i * x_i) compared with a constant, filtered on bounds.

use super::listed::listed;
use super::reified::{LinearForm, Reifiable};
use super::Relation;
use crate::{Atom, Checkable, Conflict, Constraint, Context, Earlier, Trailed, VarId, Wake};
use smallvec::SmallVec;
use std::fmt;

/// How the sum compares with the right-hand side, once `<` and `>` are taken one step in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum LinearOp {
    /// `sum = c`
    Eq,
    /// `sum <= c`
    Le,
    /// `sum >= c`
    Ge,
    /// `sum != c`
    Ne,
}

impl fmt::Display for LinearOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LinearOp::Eq => "=",
            LinearOp::Le => "<=",
            LinearOp::Ge => ">=",
            LinearOp::Ne => "!=",
        })
    }
}

/// Which way a bound on one term of the sum goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Side {
    /// An upper bound, from the other terms' least values.
    Above,
    /// A lower bound, from their greatest.
    Below,
}

/// How the bounds a pass puts on a term are explained.
#[derive(Copy, Clone)]
enum Why<'a> {
    /// By the reasons given, `(for a bound from below, for one from above)`.
    Given(&'a [Atom], &'a [Atom]),
    /// When analysis asks ([`Constraint::explain`] with the term and the side).
    Lazy,
}

impl Why<'_> {
    /// Runs `prune`, a bound on term `i` from `side`, explained as this says.
    fn apply(
        self,
        i: usize,
        side: Side,
        ctx: &mut Context<'_>,
        prune: impl FnOnce(&mut Context<'_>) -> Result<u64, Conflict>,
    ) -> Result<u64, Conflict> {
        match self {
            Why::Lazy => ctx.lazily(payload(i, side), prune),
            Why::Given(below, above) => {
                let reason = if side == Side::Below { below } else { above };
                if reason.is_empty() {
                    prune(ctx)
                } else {
                    ctx.because(reason, prune)
                }
            }
        }
    }
}

/// The word a lazy bound on term `i` from `side` is recorded with.
fn payload(i: usize, side: Side) -> u32 {
    (i as u32) << 1 | u32::from(side == Side::Below)
}

/// From this many terms a sum keeps its bounds between runs (see [`Linear`]).
const INCREMENTAL_FROM: usize = 16;

/// The largest sum of absolute coefficients kept incrementally: every sum of terms then fits
/// an `i64` (a trailed integer), whatever the `i32` values.
const INCREMENTAL_COEFFICIENTS: u64 = 1 << 31;

/// A long sum's terms, widest first, as they were when it last counted from scratch: a term
/// narrower than the slack cannot be bounded, nor can any after it.
#[derive(Default)]
struct WideFirst {
    /// Which count this is, as the first trailed integer says while it holds: a state
    /// whose integers name another was not within the one this order was made in.
    generation: i64,
    order: Vec<u32>,
    /// The span (greatest less least value) of each term of `order` then: no less than now.
    span: Vec<i64>,
}

/// `sum(coefficients[i] * vars[i]) op rhs`. Sums are computed in 128 bits, so no choice of
/// 64-bit coefficients can overflow them.
///
/// Filtering is bounds consistency: for `<=`, each term can be at most the right-hand side
/// minus the smallest the other terms can be, and so on for `>=`; `=` applies both until the
/// bounds settle. `!=` acts once all but one variable are fixed. Forward checking uses the same
/// bounds reasoning, once per assignment. It can be reified ([`Reifiable`]): its negation is
/// the same sum with `=` and `!=` swapped, `<= c` as `>= c + 1`, `>= c` as `<= c - 1`.
///
/// A sum of many terms (an objective that counts a model's Booleans) is woken by each of
/// them: it keeps each term's bounds and their totals as trailed integers, updates them from
/// the variables that changed, and visits only the terms wider than the slack, widest first,
/// as Chuffed's and Pumpkin's linear propagators do; the same bounds, without a pass over
/// every term at every change.
#[derive(Clone, Debug)]
pub struct Linear {
    vars: Vec<VarId>,
    coefficients: Vec<i64>,
    op: LinearOp,
    /// In 128 bits, so that `< i64::MIN` and `> i64::MAX` taken one step in still fit.
    rhs: i128,
    /// Each variable with the index of its term, by variable, when the sum is kept
    /// incrementally; empty otherwise.
    terms_of: Vec<(VarId, u32)>,
}

impl Linear {
    /// `sum(a * x for (a, x) in terms) relation rhs`, for any of the six relations.
    pub fn new(terms: &[(i64, VarId)], relation: Relation, rhs: i64) -> Self {
        let rhs = i128::from(rhs);
        let (op, rhs) = match relation {
            Relation::Eq => (LinearOp::Eq, rhs),
            Relation::Ne => (LinearOp::Ne, rhs),
            Relation::Le => (LinearOp::Le, rhs),
            Relation::Lt => (LinearOp::Le, rhs - 1),
            Relation::Ge => (LinearOp::Ge, rhs),
            Relation::Gt => (LinearOp::Ge, rhs + 1),
        };
        let weight = terms
            .iter()
            .try_fold(0u64, |total, &(a, _)| total.checked_add(a.unsigned_abs()));
        let incremental = terms.len() >= INCREMENTAL_FROM
            && op != LinearOp::Ne
            && weight.is_some_and(|w| w <= INCREMENTAL_COEFFICIENTS);
        let mut terms_of: Vec<(VarId, u32)> = Vec::new();
        if incremental {
            terms_of = (0..terms.len()).map(|i| (terms[i].1, i as u32)).collect();
            terms_of.sort_unstable();
        }
        Linear {
            vars: terms.iter().map(|&(_, x)| x).collect(),
            coefficients: terms.iter().map(|&(a, _)| a).collect(),
            op,
            rhs,
            terms_of,
        }
    }

    /// The trailed integers of an incremental sum: the generation of the order of terms they
    /// go with (0: not set), the sum's least and greatest, then each term's least and
    /// greatest.
    fn slots(&self, ctx: &mut Context<'_>) -> Trailed {
        ctx.trailed(3 + 2 * self.vars.len())
    }

    /// Counts every term's bounds and their totals afresh; with `wide`, orders the terms
    /// by span too (only where the integers were not set: every later state is then
    /// within this one). `None` when a domain is empty.
    fn recount(
        &self,
        slots: Trailed,
        wide: Option<&mut WideFirst>,
        ctx: &mut Context<'_>,
    ) -> Option<()> {
        let (mut low, mut high) = (0i64, 0i64);
        for i in 0..self.vars.len() {
            let (lo, hi) = self.term_bounds(i, ctx)?;
            let (lo, hi) = (lo as i64, hi as i64);
            ctx.set_trailed_int(slots, 3 + 2 * i, lo);
            ctx.set_trailed_int(slots, 4 + 2 * i, hi);
            low += lo;
            high += hi;
        }
        ctx.set_trailed_int(slots, 1, low);
        ctx.set_trailed_int(slots, 2, high);
        if let Some(wide) = wide {
            wide.generation += 1;
            ctx.set_trailed_int(slots, 0, wide.generation);
            let span =
                |i: usize| ctx.trailed_int(slots, 4 + 2 * i) - ctx.trailed_int(slots, 3 + 2 * i);
            wide.order.clear();
            wide.order.extend(0..self.vars.len() as u32);
            wide.order
                .sort_by_key(|&i| std::cmp::Reverse(span(i as usize)));
            wide.span.clear();
            wide.span
                .extend(wide.order.iter().map(|&i| span(i as usize)));
        }
        Some(())
    }

    /// Brings the kept bounds of `var`'s terms up to date. `None` when its domain is empty.
    fn refresh(&self, var: VarId, slots: Trailed, ctx: &mut Context<'_>) -> Option<()> {
        let start = self.terms_of.partition_point(|&(v, _)| v < var);
        for &(v, i) in &self.terms_of[start..] {
            if v != var {
                break;
            }
            let i = i as usize;
            let (lo, hi) = self.term_bounds(i, ctx)?;
            let (lo, hi) = (lo as i64, hi as i64);
            let (old_lo, old_hi) = (
                ctx.trailed_int(slots, 3 + 2 * i),
                ctx.trailed_int(slots, 4 + 2 * i),
            );
            if lo != old_lo {
                ctx.set_trailed_int(slots, 3 + 2 * i, lo);
                let low = ctx.trailed_int(slots, 1) + (lo - old_lo);
                ctx.set_trailed_int(slots, 1, low);
            }
            if hi != old_hi {
                ctx.set_trailed_int(slots, 4 + 2 * i, hi);
                let high = ctx.trailed_int(slots, 2) + (hi - old_hi);
                ctx.set_trailed_int(slots, 2, high);
            }
        }
        Some(())
    }

    /// Bounds reasoning on a long sum from its kept bounds, told which variables changed
    /// since it last ran (its own changes it has kept up to date itself).
    fn propagate_kept(
        &self,
        changed: &[VarId],
        wide: &mut WideFirst,
        ctx: &mut Context<'_>,
    ) -> Result<(), Conflict> {
        let n = self.vars.len();
        let slots = self.slots(ctx);
        let generation = ctx.trailed_int(slots, 0);
        let counted = if generation == 0 {
            self.recount(slots, Some(wide), ctx)
        } else if generation != wide.generation || wide.order.len() != n {
            // The order was made in a state this one is not within (one since undone):
            // a pass over every term.
            return self.enforce_op(self.op, self.rhs, ctx);
        } else if changed.len() * 4 >= n {
            self.recount(slots, None, ctx)
        } else {
            changed
                .iter()
                .try_for_each(|&var| self.refresh(var, slots, ctx))
        };
        if counted.is_none() {
            return Ok(());
        }
        let (need_le, need_ge) = match self.op {
            LinearOp::Eq => (true, true),
            LinearOp::Le => (true, false),
            LinearOp::Ge => (false, true),
            LinearOp::Ne => return self.exclude_last(self.rhs, ctx),
        };
        let rhs = self.rhs;
        loop {
            let sum_low = i128::from(ctx.trailed_int(slots, 1));
            let sum_high = i128::from(ctx.trailed_int(slots, 2));
            debug_assert_eq!(
                self.sum_bounds(ctx),
                Some((sum_low, sum_high)),
                "the kept totals of {}",
                Constraint::describe(self)
            );
            if (need_le && sum_low > rhs) || (need_ge && sum_high < rhs) {
                // The whole pass states the failure, with its reason.
                let result = self.tighten(self.op, rhs, ctx);
                debug_assert!(result.is_err(), "a pass finds the failure the totals show");
                return result.map(drop);
            }
            let slack = match (need_le, need_ge) {
                (true, true) => (rhs - sum_low).min(sum_high - rhs),
                (true, false) => rhs - sum_low,
                _ => sum_high - rhs,
            };
            let mut moved = false;
            for (k, &i) in wide.order.iter().enumerate() {
                if i128::from(wide.span[k]) <= slack {
                    break;
                }
                let i = i as usize;
                let lo = i128::from(ctx.trailed_int(slots, 3 + 2 * i));
                let hi = i128::from(ctx.trailed_int(slots, 4 + 2 * i));
                ctx.count_checks(1);
                let high = need_le.then(|| rhs - (sum_low - lo)).filter(|&h| h < hi);
                let low = need_ge.then(|| rhs - (sum_high - hi)).filter(|&l| l > lo);
                if high.is_none() && low.is_none() {
                    continue;
                }
                let why = if ctx.explains_lazily() {
                    Why::Lazy
                } else {
                    Why::Given(&[], &[])
                };
                if self.bound_term(i, low, high, why, ctx)? {
                    moved = true;
                    if self.refresh(self.vars[i], slots, ctx).is_none() {
                        return Ok(());
                    }
                }
            }
            if !moved {
                return Ok(());
            }
        }
    }

    /// The smallest and largest value of term `i` over the current domain.
    fn term_bounds(&self, i: usize, ctx: &Context<'_>) -> Option<(i128, i128)> {
        let a = self.coefficients[i];
        let (lo, hi) = (ctx.min(self.vars[i])?, ctx.max(self.vars[i])?);
        let (p, q) = (term(a, lo), term(a, hi));
        Some((p.min(q), p.max(q)))
    }

    /// Removes the values of `vars[i]` whose term falls outside `[low, high]`; whether any went.
    /// The term `a·x` is monotone in `x`, so the values kept are a range of `x`, cut with
    /// [`Context::set_min`] and [`Context::set_max`] a word of the bitset at a time.
    /// `why` explains the two bounds on the term.
    fn bound_term(
        &self,
        i: usize,
        low: Option<i128>,
        high: Option<i128>,
        why: Why<'_>,
        ctx: &mut Context<'_>,
    ) -> Result<bool, Conflict> {
        let a = i128::from(self.coefficients[i]);
        let var = self.vars[i];
        if a == 0 {
            // The term is 0 whatever x is: all of x's values go, or none.
            if low.is_some_and(|l| l > 0) || high.is_some_and(|h| h < 0) {
                return ctx.remove_range(var, i32::MIN, i32::MAX).map(|n| n > 0);
            }
            return Ok(false);
        }
        // a·x >= low and a·x <= high, as bounds on x (dividing by a negative a flips them);
        // each with the side of the term's bound it comes from.
        let (x_low, x_high, low_side, high_side) = if a > 0 {
            let x_low = low.map(|l| div_ceil(l, a));
            (
                x_low,
                high.map(|h| div_floor(h, a)),
                Side::Below,
                Side::Above,
            )
        } else {
            let x_low = high.map(|h| div_ceil(h, a));
            (
                x_low,
                low.map(|l| div_floor(l, a)),
                Side::Above,
                Side::Below,
            )
        };
        // Beyond i64 is beyond i32 too: at_least and at_most read it as all or nothing.
        let clamp = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        let mut removed = 0;
        if let Some(min) = x_low {
            removed += why.apply(i, low_side, ctx, |ctx| ctx.at_least(var, clamp(min)))?;
        }
        if let Some(max) = x_high {
            removed += why.apply(i, high_side, ctx, |ctx| ctx.at_most(var, clamp(max)))?;
        }
        Ok(removed > 0)
    }

    /// The atoms on the terms but `i` that bound the term `i` from `side`, with bounds read
    /// by `bound` (told each term's index and variable): a term bounded from above rests on the others' least values, one from
    /// below on their greatest.
    fn reason_for(
        &self,
        i: usize,
        side: Side,
        bound: impl Fn(usize, VarId) -> (i32, i32),
        out: &mut impl Extend<Atom>,
    ) {
        for (j, (&x, &a)) in self.vars.iter().zip(&self.coefficients).enumerate() {
            if j == i || a == 0 {
                continue;
            }
            let (min, max) = bound(j, x);
            let least = (a > 0) == (side == Side::Above);
            out.extend([if least {
                Atom::Ge(x, min)
            } else {
                Atom::Le(x, max)
            }]);
        }
    }

    /// The smallest and largest the sum can be, or `None` when a domain is empty.
    fn sum_bounds(&self, ctx: &Context<'_>) -> Option<(i128, i128)> {
        let (mut low, mut high) = (0i128, 0i128);
        for i in 0..self.vars.len() {
            let (lo, hi) = self.term_bounds(i, ctx)?;
            low += lo;
            high += hi;
        }
        Some((low, high))
    }

    /// One pass of bounds reasoning for `sum op rhs`; whether it removed anything.
    fn tighten(&self, op: LinearOp, rhs: i128, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let n = self.vars.len();
        let (mut sum_low, mut sum_high) = (0i128, 0i128);
        let mut bounds = SmallVec::<[(i128, i128); 16]>::with_capacity(n);
        for i in 0..n {
            let Some((lo, hi)) = self.term_bounds(i, ctx) else {
                return Ok(false);
            };
            sum_low += lo;
            sum_high += hi;
            bounds.push((lo, hi));
        }
        let (need_le, need_ge) = match op {
            LinearOp::Eq => (true, true),
            LinearOp::Le => (true, false),
            LinearOp::Ge => (false, true),
            LinearOp::Ne => return Ok(false),
        };
        if (need_le && sum_low > rhs) || (need_ge && sum_high < rhs) {
            if !ctx.explaining() {
                return Err(ctx.violated());
            }
            // Every term's least value (or greatest): the reason of a bound on a term that
            // is not in the sum.
            let side = if need_le && sum_low > rhs {
                Side::Above
            } else {
                Side::Below
            };
            let mut reason: SmallVec<[Atom; 16]> = SmallVec::new();
            let bound = |_, x| (ctx.min(x).unwrap_or(0), ctx.max(x).unwrap_or(0));
            self.reason_for(usize::MAX, side, bound, &mut reason);
            return Err(ctx.violated_because(&reason));
        }
        let mut changed = false;
        // Reasons: built when analysis asks (lazily), or now from the variables' bounds as
        // they were at the start of the pass (atoms about them still hold as it tightens
        // them), or not at all.
        let lazy = ctx.explains_lazily();
        let eager = !lazy && ctx.explaining();
        let var_bounds: SmallVec<[(i32, i32); 16]> = if eager {
            self.vars
                .iter()
                .map(|&x| (ctx.min(x).unwrap_or(0), ctx.max(x).unwrap_or(0)))
                .collect()
        } else {
            SmallVec::new()
        };
        let (mut low_reason, mut high_reason): (SmallVec<[Atom; 8]>, SmallVec<[Atom; 8]>) =
            (SmallVec::new(), SmallVec::new());
        for (i, &(lo, hi)) in bounds.iter().enumerate() {
            ctx.count_checks(1);
            // The other terms contribute at least sum_low - lo and at most sum_high - hi.
            let high = need_le.then(|| rhs - (sum_low - lo)).filter(|&h| h < hi);
            let low = need_ge.then(|| rhs - (sum_high - hi)).filter(|&l| l > lo);
            if high.is_none() && low.is_none() {
                continue;
            }
            let why = if lazy {
                Why::Lazy
            } else if eager {
                low_reason.clear();
                high_reason.clear();
                let bound = |j: usize, _| var_bounds[j];
                self.reason_for(i, Side::Below, bound, &mut low_reason);
                self.reason_for(i, Side::Above, bound, &mut high_reason);
                Why::Given(&low_reason, &high_reason)
            } else {
                Why::Given(&[], &[])
            };
            changed |= self.bound_term(i, low, high, why, ctx)?;
        }
        Ok(changed)
    }

    /// `sum != rhs`: once every variable but one is fixed, that one loses the single clashing
    /// value.
    fn exclude_last(&self, rhs: i128, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let mut sum = 0i128;
        let mut open = None;
        for (i, (&var, &a)) in self.vars.iter().zip(&self.coefficients).enumerate() {
            match ctx.fixed_value(var) {
                Some(v) => sum += term(a, v),
                None if open.is_none() => open = Some(i),
                None => return Ok(()),
            }
        }
        ctx.count_checks(1);
        match open {
            None if sum == rhs => Err(ctx.violated()),
            None => Ok(()),
            Some(i) => {
                let a = i128::from(self.coefficients[i]);
                let rest = rhs - sum;
                if a != 0 && rest % a == 0 {
                    if let Ok(v) = i32::try_from(rest / a) {
                        ctx.remove(self.vars[i], v)?;
                    }
                } else if a == 0 && rest == 0 {
                    return Err(ctx.violated());
                }
                Ok(())
            }
        }
    }
}

impl Constraint for Linear {
    /// A bound on a term, from the bounds the others had just before it: the weakest
    /// reason bounds reasoning has, as the eager one but read from the trail only when a
    /// conflict needs it.
    fn explain(&self, payload: u32, _var: VarId, earlier: &Earlier<'_>, out: &mut Vec<Atom>) {
        let i = (payload >> 1) as usize;
        let side = if payload & 1 == 1 {
            Side::Below
        } else {
            Side::Above
        };
        self.reason_for(i, side, |_, x| (earlier.min(x), earlier.max(x)), out);
    }

    /// Bounds reasoning reads bounds; `!=` acts once all but one variable are fixed.
    fn wake_on(&self, _var: VarId) -> Wake {
        if self.op == LinearOp::Ne {
            Wake::Fixed
        } else {
            Wake::Bounds
        }
    }

    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let sum: i128 = values
            .iter()
            .zip(&self.coefficients)
            .map(|(&v, &a)| term(a, v))
            .sum();
        let rhs = self.rhs;
        match self.op {
            LinearOp::Eq => sum == rhs,
            LinearOp::Le => sum <= rhs,
            LinearOp::Ge => sum >= rhs,
            LinearOp::Ne => sum != rhs,
        }
    }

    /// `<=`, `>=` (negated into `<=`) and `=`, and `a*x - a*y != 0` as the all-different of
    /// `x` and `y`; the checker has no other `!=` over a sum, nor a right-hand side beyond 64
    /// bits.
    fn checkable(&self) -> Option<Checkable> {
        let rhs = i64::try_from(self.rhs).ok()?;
        let terms = || {
            self.coefficients
                .iter()
                .copied()
                .zip(self.vars.iter().copied())
        };
        match self.op {
            LinearOp::Le => Some(Checkable::LinearLe(terms().collect(), rhs)),
            LinearOp::Ge => Some(Checkable::LinearLe(
                terms()
                    .map(|(a, x)| Some((a.checked_neg()?, x)))
                    .collect::<Option<_>>()?,
                rhs.checked_neg()?,
            )),
            LinearOp::Eq => Some(Checkable::LinearEq(terms().collect(), rhs)),
            // `a*x - a*y != 0` is `x != y`, an all-different of two (CPMpy posts `x != y` so).
            LinearOp::Ne => match (&self.coefficients[..], &self.vars[..]) {
                (&[a, b], &[x, y])
                    if rhs == 0 && a != 0 && a.checked_neg() == Some(b) && x != y =>
                {
                    Some(Checkable::AllDifferent(vec![x, y]))
                }
                _ => None,
            },
        }
    }

    fn describe(&self) -> String {
        let terms = self
            .vars
            .iter()
            .zip(&self.coefficients)
            .map(|(x, a)| format!("{a}*{x}"));
        format!("{} {} {}", listed(terms, 6, " + "), self.op, self.rhs)
    }

    fn forward_check(&self, _var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let rhs = self.rhs;
        match self.op {
            LinearOp::Ne => self.exclude_last(rhs, ctx),
            op => self.tighten(op, rhs, ctx).map(|_| ()),
        }
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.enforce_op(self.op, self.rhs, ctx)
    }

    /// A long sum is told which variables changed, to keep its bounds up to date.
    fn wants_changes(&self) -> bool {
        !self.terms_of.is_empty()
    }

    /// A long sum works from its kept bounds, but where reasons are given now (a proof
    /// log's or an observer's), which a full pass builds.
    fn propagate_changed(&self, changed: &[VarId], ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if self.terms_of.is_empty() {
            return self.propagate(ctx);
        }
        if ctx.explaining() && !ctx.explains_lazily() {
            // The kept bounds go stale: counted afresh at the next run that keeps them.
            let slots = self.slots(ctx);
            ctx.set_trailed_int(slots, 0, 0);
            return self.propagate(ctx);
        }
        ctx.with_scratch(|ctx, wide: &mut WideFirst| self.propagate_kept(changed, wide, ctx))
    }
}

impl Linear {
    /// Filters for `sum op rhs` to the bounds' fixpoint.
    fn enforce_op(&self, op: LinearOp, rhs: i128, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if op == LinearOp::Ne {
            return self.exclude_last(rhs, ctx);
        }
        while self.tighten(op, rhs, ctx)? {}
        Ok(())
    }

    /// The relation and right-hand side of the negation: `=` and `!=` swap, `<= c` becomes
    /// `>= c + 1` and `>= c` becomes `<= c - 1` (in 128 bits, so the edges of `i64` are safe).
    fn negation(&self) -> (LinearOp, i128) {
        let rhs = self.rhs;
        match self.op {
            LinearOp::Eq => (LinearOp::Ne, rhs),
            LinearOp::Ne => (LinearOp::Eq, rhs),
            LinearOp::Le => (LinearOp::Ge, rhs + 1),
            LinearOp::Ge => (LinearOp::Le, rhs - 1),
        }
    }
}

impl Reifiable for Linear {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn holds(&self, values: &[i32]) -> bool {
        self.is_satisfied(values)
    }

    fn enforce(&self, negated: bool, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (op, rhs) = if negated {
            self.negation()
        } else {
            (self.op, self.rhs)
        };
        self.enforce_op(op, rhs, ctx)
    }

    fn entailed(&self, negated: bool, ctx: &Context<'_>) -> bool {
        let (op, rhs) = if negated {
            self.negation()
        } else {
            (self.op, self.rhs)
        };
        let Some((low, high)) = self.sum_bounds(ctx) else {
            return false;
        };
        match op {
            LinearOp::Eq => low == rhs && high == rhs,
            LinearOp::Le => high <= rhs,
            LinearOp::Ge => low >= rhs,
            LinearOp::Ne => high < rhs || low > rhs,
        }
    }

    fn describe(&self) -> String {
        Constraint::describe(self)
    }

    fn linear_form(&self) -> Option<LinearForm> {
        let relation = match self.op {
            LinearOp::Eq => Relation::Eq,
            LinearOp::Ne => Relation::Ne,
            LinearOp::Le => Relation::Le,
            LinearOp::Ge => Relation::Ge,
        };
        Some(LinearForm {
            terms: self
                .coefficients
                .iter()
                .copied()
                .zip(self.vars.iter().copied())
                .collect(),
            relation,
            rhs: i64::try_from(self.rhs).ok()?,
        })
    }

    /// Enforcing a sum relation or its negation and testing entailment read bounds only:
    /// `!=` acts once all but one term is fixed, which a bound change reports.
    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Bounds
    }
}

/// One term `a * v`, exactly.
#[inline]
fn term(a: i64, v: i32) -> i128 {
    i128::from(a) * i128::from(v)
}

/// `n / d` rounded down (`d` not 0).
fn div_floor(n: i128, d: i128) -> i128 {
    let q = n / d;
    if (n % d != 0) && ((n < 0) != (d < 0)) {
        q - 1
    } else {
        q
    }
}

/// `n / d` rounded up (`d` not 0).
fn div_ceil(n: i128, d: i128) -> i128 {
    let q = n / d;
    if (n % d != 0) && ((n < 0) == (d < 0)) {
        q + 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::Linear;
    use crate::brute_force::assert_gac;
    use crate::{Checkable, Constraint, Model, Relation, SplitMix64, VarId};

    #[test]
    fn a_difference_not_zero_is_checked_as_an_all_different_of_two() {
        let (x, y) = (VarId(0), VarId(1));
        let checkable =
            |terms: &[(i64, VarId)], rhs| Linear::new(terms, Relation::Ne, rhs).checkable();
        let pair = Some(Checkable::AllDifferent(vec![x, y]));
        assert_eq!(checkable(&[(1, x), (-1, y)], 0), pair);
        assert_eq!(checkable(&[(-3, x), (3, y)], 0), pair);
        // Not x != y: another right-hand side, a sum, unequal coefficients, one variable twice.
        assert_eq!(checkable(&[(1, x), (-1, y)], 1), None);
        assert_eq!(checkable(&[(1, x), (1, y)], 0), None);
        assert_eq!(checkable(&[(2, x), (-1, y)], 0), None);
        assert_eq!(checkable(&[(1, x), (-1, x)], 0), None);
    }

    #[test]
    fn a_two_variable_equation_is_bounds_consistent() {
        // x + y = c over intervals: bounds consistency on an interval pair is exact.
        let mut rng = SplitMix64::new(14);
        for case in 0..300 {
            let mut model = Model::new();
            let (a, b) = (rng.below(6) as i32, rng.below(6) as i32);
            let x = model.new_var(a..=a + rng.below(5) as i32).unwrap();
            let y = model.new_var(b..=b + rng.below(5) as i32).unwrap();
            model
                .linear(&[(1, x), (1, y)], Relation::Eq, rng.below(16) as i64)
                .unwrap();
            assert_gac(&model, &format!("case {case}"));
        }
    }
}
