//! `Count`: `c` is the number of `xs` equal to `y` (MiniZinc's `count_eq`).

use super::among::occurrences;
use super::listed::listed;
use crate::{Atom, Conflict, Constraint, Context, DeclaredBounds, LinearRow, ValueRows, VarId};

/// `c = |{i : x_i = y}|`.
///
/// Consistency: with `y` fixed to `v`, domain consistent on the `xs` and bounds(Z) on `c`:
/// `c` stays within [the `xs` fixed to `v`, the `xs` that can take `v`]; when `c` can be no
/// more than those fixed to `v`, `v` leaves the others; when it must be as many as can take
/// `v`, those are fixed to `v`. With `y` open, a value of `y` whose count range misses `c`'s
/// bounds leaves `y`, and `c` keeps within the ranges of the values left. Each change states
/// its reason. Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct Count {
    /// `xs`, then `y`, then `c`.
    vars: Vec<VarId>,
}

impl Count {
    /// `c` counts the `xs` equal to `y`.
    pub fn new(xs: &[VarId], y: VarId, c: VarId) -> Self {
        let mut vars = xs.to_vec();
        vars.push(y);
        vars.push(c);
        Count { vars }
    }

    fn xs(&self) -> &[VarId] {
        &self.vars[..self.vars.len() - 2]
    }

    fn y(&self) -> VarId {
        self.vars[self.vars.len() - 2]
    }

    fn c(&self) -> VarId {
        self.vars[self.vars.len() - 1]
    }

    /// How many `xs` are fixed to `v`, and how many can take it.
    fn range(&self, ctx: &Context<'_>, v: i32) -> (i64, i64) {
        let (mut must, mut may) = (0, 0);
        for &x in self.xs() {
            if ctx.contains(x, v) {
                may += 1;
                must += i64::from(ctx.size(x) == 1);
            }
        }
        (must, may)
    }

    /// `head`, then `x = v` for each x fixed to `v`: why at least that many count.
    fn reason_fixed_to(&self, ctx: &Context<'_>, v: i32, head: Atom) -> Vec<Atom> {
        let mut reason = vec![head];
        reason.extend(
            self.xs()
                .iter()
                .filter(|&&x| ctx.fixed_value(x) == Some(v))
                .map(|&x| Atom::Eq(x, v)),
        );
        reason
    }

    /// `head`, then `x != v` for each x without `v`: why at most the others count.
    fn reason_without(&self, ctx: &Context<'_>, v: i32, head: Atom) -> Vec<Atom> {
        let mut reason = vec![head];
        reason.extend(
            self.xs()
                .iter()
                .filter(|&&x| !ctx.contains(x, v))
                .map(|&x| Atom::Ne(x, v)),
        );
        reason
    }

    /// Filtering with `y` fixed to `v`.
    fn with_value(&self, ctx: &mut Context<'_>, v: i32) -> Result<(), Conflict> {
        let (y, c) = (self.y(), self.c());
        let (must, may) = self.range(ctx, v);
        ctx.count_checks(self.xs().len() as u64);
        let explaining = ctx.explaining();
        // The reasons: y = v, with the xs fixed to v (for lower bounds) or those without v
        // (for upper bounds).
        let fixed_to_v = |ctx: &Context<'_>| self.reason_fixed_to(ctx, v, Atom::Eq(y, v));
        let without_v = |ctx: &Context<'_>| self.reason_without(ctx, v, Atom::Eq(y, v));
        // A reason is built only for a bound that moves (or fails): each lists the scope.
        let reason = if explaining && ctx.min(c).is_none_or(|min| must > i64::from(min)) {
            fixed_to_v(ctx)
        } else {
            Vec::new()
        };
        ctx.at_least_because(c, must, &reason)?;
        let reason = if explaining && ctx.max(c).is_none_or(|max| may < i64::from(max)) {
            without_v(ctx)
        } else {
            Vec::new()
        };
        ctx.at_most_because(c, may, &reason)?;
        let (Some(low), Some(high)) = (ctx.min(c), ctx.max(c)) else {
            return Ok(());
        };
        let (low, high) = (i64::from(low), i64::from(high));
        if must < may && high == must {
            // No more can take v: it leaves every x not fixed to it.
            let mut reason = Vec::new();
            if explaining {
                reason = self.reason_fixed_to(ctx, v, Atom::Le(c, high as i32));
                reason.push(Atom::Eq(y, v));
            }
            for &x in self.xs() {
                if ctx.size(x) > 1 {
                    ctx.remove_because(x, v, &reason)?;
                }
            }
        } else if must < may && low == may {
            // Every x that can take v must.
            let mut reason = Vec::new();
            if explaining {
                reason = self.reason_without(ctx, v, Atom::Ge(c, low as i32));
                reason.push(Atom::Eq(y, v));
            }
            for &x in self.xs() {
                if ctx.size(x) > 1 && ctx.contains(x, v) {
                    ctx.fix_because(x, v, &reason)?;
                }
            }
        }
        Ok(())
    }
}

impl Constraint for Count {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let n = values.len() - 2;
        let (y, c) = (values[n], values[n + 1]);
        values[..n].iter().filter(|&&x| x == y).count() as i64 == i64::from(c)
    }

    fn describe(&self) -> String {
        format!(
            "{} = count({} == {})",
            self.c(),
            listed(self.xs().iter(), 6, ", "),
            self.y()
        )
    }

    fn value_rows(&self) -> ValueRows<'_> {
        ValueRows::Counted(self.xs())
    }

    /// With `y` declared a constant `v`, `c` is the sum of the `xs`' literals of `v`: exact
    /// where every `x` has value literals or is declared `v` alone or without it.
    fn relax(&self, declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let (low, high) = declared.bounds(self.y());
        if low != high {
            return;
        }
        let mut terms = Vec::new();
        let Some(constant) = occurrences(self.xs(), &[low], declared, &mut terms) else {
            return;
        };
        terms.push((-1, self.c()));
        rows.push(LinearRow::equal(terms, -constant));
    }

    /// Idempotent with `y` fixed: after it, the xs that can take `v` and those fixed to it
    /// agree with `c`'s bounds. With `y` open it runs again once `y` is fixed.
    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (y, c) = (self.y(), self.c());
        if let Some(v) = ctx.fixed_value(y) {
            return self.with_value(ctx, v);
        }
        let (Some(low), Some(high)) = (ctx.min(c), ctx.max(c)) else {
            return Ok(());
        };
        let (low, high) = (i64::from(low), i64::from(high));
        let (mut least, mut most) = (i64::MAX, i64::MIN);
        let values = ctx.values_vec(y);
        ctx.count_checks((values.len() * self.xs().len()) as u64);
        for v in values {
            let (must, may) = self.range(ctx, v);
            if may < low || must > high {
                // Counting v can never meet c's bounds: y is not v, because of c's bound and
                // the xs that decide the count (those without v, or those fixed to it).
                let reason = match (ctx.explaining(), may < low) {
                    (false, _) => Vec::new(),
                    (true, true) => self.reason_without(ctx, v, Atom::Ge(c, low as i32)),
                    (true, false) => self.reason_fixed_to(ctx, v, Atom::Le(c, high as i32)),
                };
                ctx.remove_because(y, v, &reason)?;
            } else {
                least = least.min(must);
                most = most.max(may);
            }
        }
        if let Some(v) = ctx.fixed_value(y) {
            return self.with_value(ctx, v);
        }
        if least <= most {
            ctx.within(c, least, most)?;
        }
        Ok(())
    }
}
