//! `Extremum`: `z = max(xs)` or `z = min(xs)`.

use super::listed::listed;
use crate::{Atom, Conflict, Constraint, Context, DeclaredBounds, Earlier, LinearRow, VarId, Wake};
use smallvec::SmallVec;

/// What a change rests on under learning, in the mirrored space where the extremum is a
/// maximum, as the word [`Context::lazily`] records: the kind in the low two bits, a position
/// among the `xs` above them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Why {
    /// `z` at least the largest minimum, that of `xs[i]`.
    ZAtLeast(usize),
    /// `z` at most the largest maximum: every `x`'s maximum.
    ZAtMost,
    /// An `x` at most `z`'s maximum.
    XAtMost,
    /// `xs[i]`, the only one that can reach `z`'s minimum, at least that: `z`'s minimum and
    /// the others' maximums.
    XAtLeast(usize),
}

impl Why {
    fn word(self) -> u32 {
        match self {
            Why::ZAtLeast(i) => (i as u32) << 2,
            Why::ZAtMost => 1,
            Why::XAtMost => 2,
            Why::XAtLeast(i) => 3 | (i as u32) << 2,
        }
    }

    fn of(word: u32) -> Self {
        let i = (word >> 2) as usize;
        match word & 3 {
            0 => Why::ZAtLeast(i),
            1 => Why::ZAtMost,
            2 => Why::XAtMost,
            _ => Why::XAtLeast(i),
        }
    }
}

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

    /// Keeps `var` within `lo..=hi` in the mirrored space, the change resting on `why`.
    fn within(
        &self,
        ctx: &mut Context<'_>,
        var: VarId,
        (lo, hi): (i64, i64),
        why: Why,
    ) -> Result<u64, Conflict> {
        ctx.lazily(why.word(), |ctx| {
            if self.maximum {
                ctx.within(var, lo, hi)
            } else {
                ctx.within(var, -hi, -lo)
            }
        })
    }

    /// The atom "`var` is at least `k`" in the mirrored space (at most `-k` for `min`).
    fn at_least(&self, var: VarId, k: i32) -> Atom {
        if self.maximum {
            Atom::Ge(var, k)
        } else {
            Atom::Le(var, k)
        }
    }

    /// The atom "`var` is at most `k`" in the mirrored space.
    fn at_most(&self, var: VarId, k: i32) -> Atom {
        if self.maximum {
            Atom::Le(var, k)
        } else {
            Atom::Ge(var, k)
        }
    }

    /// A variable's smallest and largest values, mirrored for `min` (each an actual bound of
    /// the domain, for atoms: `at_least(var, low)` holds).
    fn read(&self, (min, max): (i32, i32)) -> (i32, i32) {
        if self.maximum {
            (min, max)
        } else {
            (max, min)
        }
    }

    /// Every `x` but `except` at most its maximum (mirrored), then `z` at least its minimum:
    /// why no other `x` reaches `z`.
    fn others_below(
        &self,
        except: Option<usize>,
        bounds: impl Fn(VarId) -> (i32, i32),
        out: &mut impl Extend<Atom>,
    ) {
        for (j, &x) in self.xs().iter().enumerate() {
            if Some(j) != except {
                out.extend([self.at_most(x, self.read(bounds(x)).1)]);
            }
        }
        let z = self.vars[self.vars.len() - 1];
        out.extend([self.at_least(z, self.read(bounds(z)).0)]);
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

    /// Each change is explained by the bounds it was computed from: `z`'s minimum by the one
    /// `x` whose minimum it is, its maximum by every `x`'s maximum, an `x`'s maximum by `z`'s,
    /// and the last `x` that can reach `z`'s minimum by that and the others' maximums.
    fn explain(&self, payload: u32, _var: VarId, earlier: &Earlier<'_>, out: &mut Vec<Atom>) {
        let z = self.vars[self.vars.len() - 1];
        let bounds = |v: VarId| (earlier.min(v), earlier.max(v));
        match Why::of(payload) {
            Why::ZAtLeast(i) => {
                let x = self.xs()[i];
                out.push(self.at_least(x, self.read(bounds(x)).0));
            }
            Why::ZAtMost => {
                for &x in self.xs() {
                    out.push(self.at_most(x, self.read(bounds(x)).1));
                }
            }
            Why::XAtMost => out.push(self.at_most(z, self.read(bounds(z)).1)),
            Why::XAtLeast(i) => self.others_below(Some(i), bounds, out),
        }
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let z = self.vars[self.vars.len() - 1];
        loop {
            ctx.count_checks(1);
            let mut removed = 0;
            let (mut lo, mut hi) = (i64::MIN, i64::MIN);
            let mut highest_low = 0;
            for (i, &x) in self.xs().iter().enumerate() {
                let Some((a, b)) = self.bounds(ctx, x) else {
                    return Ok(());
                };
                if a > lo {
                    lo = a;
                    highest_low = i;
                }
                hi = hi.max(b);
            }
            removed += self.within(ctx, z, (lo, UNBOUNDED), Why::ZAtLeast(highest_low))?;
            removed += self.within(ctx, z, (-UNBOUNDED, hi), Why::ZAtMost)?;
            let Some((z_lo, z_hi)) = self.bounds(ctx, z) else {
                return Ok(());
            };
            let mut reaching = None;
            let mut count = 0;
            for (i, &x) in self.xs().iter().enumerate() {
                removed += self.within(ctx, x, (-UNBOUNDED, z_hi), Why::XAtMost)?;
                if self.bounds(ctx, x).is_some_and(|(_, b)| b >= z_lo) {
                    count += 1;
                    reaching = Some(i);
                }
            }
            match (count, reaching) {
                (0, _) if ctx.explaining() => {
                    let mut reason: SmallVec<[Atom; 16]> = SmallVec::new();
                    let bounds = |v: VarId| (ctx.min(v).unwrap_or(0), ctx.max(v).unwrap_or(0));
                    self.others_below(None, bounds, &mut reason);
                    return Err(ctx.violated_because(&reason));
                }
                (0, _) => return Err(ctx.violated()),
                (1, Some(i)) => {
                    let x = self.xs()[i];
                    removed += self.within(ctx, x, (z_lo, UNBOUNDED), Why::XAtLeast(i))?;
                }
                _ => {}
            }
            if removed == 0 {
                return Ok(());
            }
        }
    }
}
