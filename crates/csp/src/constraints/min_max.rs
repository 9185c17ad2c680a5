//! `Extremum`: `z = max(xs)` or `z = min(xs)`.

use super::listed::listed;
use crate::{Conflict, Constraint, Context, DeclaredBounds, LinearRow, VarId, Wake};

/// Beyond every `i32` either way, so a side left open stays open once mirrored.
const UNBOUNDED: i64 = 1 << 40;

/// `z = max(xs)` (or `min`), over one variable or more.
///
/// Consistency: bounds(Z): `z` within the largest of the minimums and the largest of the
/// maximums; every `x` at most `max z`; and when only one `x` can reach `min z`, that one at
/// least `min z` (the mirror for `min`). Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct Extremum {
    /// `xs`, then `z`.
    vars: Vec<VarId>,
    maximum: bool,
}

impl Extremum {
    /// `z = max(xs)`, or `z = min(xs)` when `maximum` is false. `xs` must not be empty (the
    /// model refuses it).
    pub fn new(xs: &[VarId], z: VarId, maximum: bool) -> Self {
        let mut vars = xs.to_vec();
        vars.push(z);
        Extremum { vars, maximum }
    }

    fn xs(&self) -> &[VarId] {
        &self.vars[..self.vars.len() - 1]
    }

    /// A variable's bounds, negated for `min` so that the reasoning is always about `max`.
    fn bounds(&self, ctx: &Context<'_>, var: VarId) -> Option<(i64, i64)> {
        let (lo, hi) = (i64::from(ctx.min(var)?), i64::from(ctx.max(var)?));
        Some(if self.maximum { (lo, hi) } else { (-hi, -lo) })
    }

    /// Keeps `var` within `lo..=hi` in the mirrored space.
    fn within(&self, ctx: &mut Context<'_>, var: VarId, lo: i64, hi: i64) -> Result<u64, Conflict> {
        if self.maximum {
            ctx.within(var, lo, hi)
        } else {
            ctx.within(var, -hi, -lo)
        }
    }
}

impl Constraint for Extremum {
    /// It reads bounds only.
    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Bounds
    }

    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    /// `z >= x` for each `x` (`z <= x` for `min`): the half of `z = max(xs)` that is convex.
    fn relax(&self, _declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let z = self.vars[self.vars.len() - 1];
        for &x in self.xs() {
            let terms = vec![(1, z), (-1, x)];
            rows.push(if self.maximum {
                LinearRow::at_least(terms, 0)
            } else {
                LinearRow::at_most(terms, 0)
            });
        }
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (xs, z) = values.split_at(values.len() - 1);
        let best = if self.maximum {
            xs.iter().max()
        } else {
            xs.iter().min()
        };
        best == Some(&z[0])
    }

    fn contradiction(&self) -> Option<String> {
        (self.vars.len() < 2).then(|| "the extremum of no variables is undefined".to_string())
    }

    fn describe(&self) -> String {
        let name = if self.maximum { "max" } else { "min" };
        let z = self.vars[self.vars.len() - 1];
        format!("{z} = {name}({})", listed(self.xs().iter(), 6, ", "))
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let z = self.vars[self.vars.len() - 1];
        loop {
            ctx.count_checks(1);
            let mut removed = 0;
            let (mut lo, mut hi) = (i64::MIN, i64::MIN);
            for &x in self.xs() {
                let Some((a, b)) = self.bounds(ctx, x) else {
                    return Ok(());
                };
                lo = lo.max(a);
                hi = hi.max(b);
            }
            removed += self.within(ctx, z, lo, hi)?;
            let Some((z_lo, z_hi)) = self.bounds(ctx, z) else {
                return Ok(());
            };
            let mut reaching = None;
            let mut count = 0;
            for &x in self.xs() {
                removed += self.within(ctx, x, -UNBOUNDED, z_hi)?;
                if self.bounds(ctx, x).is_some_and(|(_, b)| b >= z_lo) {
                    count += 1;
                    reaching = Some(x);
                }
            }
            match (count, reaching) {
                (0, _) => return Err(ctx.violated()),
                (1, Some(x)) => removed += self.within(ctx, x, z_lo, UNBOUNDED)?,
                _ => {}
            }
            if removed == 0 {
                return Ok(());
            }
        }
    }
}
