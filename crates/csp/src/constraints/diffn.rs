//! `Diffn`: rectangles, given by their origins and sizes (all variables), do not overlap.

use super::listed::listed;
use crate::propagation::constraint::filter_last_open;
use crate::{Atom, Conflict, Constraint, Context, Priority, VarId, Wake};
use smallvec::SmallVec;

/// Rectangle `i` spans `x_i..x_i + dx_i` by `y_i..y_i + dy_i`, and no two overlap: for each
/// pair, one lies wholly left of, right of, below or above the other (MiniZinc's `diffn`).
/// Non-strict (`diffn_nonstrict`), a rectangle of zero width or height overlaps nothing.
///
/// Under `mac` each pair is filtered on bounds: the ways of placing the two apart that the
/// bounds still allow are counted; with none left it fails, with one left it enforces that
/// one on the bounds of both rectangles, as the decomposition into four reified inequalities
/// per pair does, in one propagator. Under `none` and `fc` it checks each pair once all
/// eight of its variables are assigned.
#[derive(Clone, Debug)]
pub struct Diffn {
    /// `x, y, dx, dy` for each rectangle in turn.
    scope: Vec<VarId>,
    /// Every (variable, rectangle) pair, sorted: the rectangles a changed variable moves.
    by_var: Vec<(VarId, u32)>,
    strict: bool,
}

/// One way of keeping two rectangles apart: `a + da <= b` along one axis, or a size at zero.
#[derive(Copy, Clone, Debug)]
enum Apart {
    Before { a: VarId, da: VarId, b: VarId },
    Empty(VarId),
}

impl Diffn {
    /// Rectangles at `(x[i], y[i])` of size `dx[i]` by `dy[i]`. `None` when the four lists
    /// differ in length.
    pub fn new(x: &[VarId], y: &[VarId], dx: &[VarId], dy: &[VarId], strict: bool) -> Option<Self> {
        let n = x.len();
        if y.len() != n || dx.len() != n || dy.len() != n {
            return None;
        }
        let scope: Vec<VarId> = (0..n).flat_map(|i| [x[i], y[i], dx[i], dy[i]]).collect();
        let mut by_var: Vec<(VarId, u32)> = scope
            .iter()
            .enumerate()
            .map(|(k, &v)| (v, (k / 4) as u32))
            .collect();
        by_var.sort_unstable();
        by_var.dedup();
        Some(Diffn {
            scope,
            by_var,
            strict,
        })
    }

    fn rects(&self) -> usize {
        self.scope.len() / 4
    }

    /// Rectangle `i`'s `[x, y, dx, dy]`.
    fn rect(&self, i: usize) -> [VarId; 4] {
        let r = &self.scope[4 * i..4 * i + 4];
        [r[0], r[1], r[2], r[3]]
    }

    /// The ways of keeping rectangles `i` and `j` apart.
    fn ways(&self, i: usize, j: usize) -> SmallVec<[Apart; 8]> {
        let [xi, yi, wi, hi] = self.rect(i);
        let [xj, yj, wj, hj] = self.rect(j);
        let mut ways: SmallVec<[Apart; 8]> = SmallVec::from_slice(&[
            Apart::Before {
                a: xi,
                da: wi,
                b: xj,
            },
            Apart::Before {
                a: xj,
                da: wj,
                b: xi,
            },
            Apart::Before {
                a: yi,
                da: hi,
                b: yj,
            },
            Apart::Before {
                a: yj,
                da: hj,
                b: yi,
            },
        ]);
        if !self.strict {
            ways.extend([wi, hi, wj, hj].map(Apart::Empty));
        }
        ways
    }

    /// Whether the values `v` (in scope order) keep rectangles `i` and `j` apart.
    fn apart(&self, v: &[i32], i: usize, j: usize) -> bool {
        let r = |k: usize| {
            let s = &v[4 * k..4 * k + 4];
            s.iter()
                .map(|&x| i64::from(x))
                .collect::<SmallVec<[i64; 4]>>()
        };
        let (a, b) = (r(i), r(j));
        let empty = !self.strict && (a[2] == 0 || a[3] == 0 || b[2] == 0 || b[3] == 0);
        empty
            || a[0] + a[2] <= b[0]
            || b[0] + b[2] <= a[0]
            || a[1] + a[3] <= b[1]
            || b[1] + b[3] <= a[1]
    }

    /// For `none` and `fc`: fails when a pair that has just become fully assigned overlaps.
    fn check_pairs_with(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let n = self.rects();
        let assigned = |ctx: &Context<'_>, k: usize| -> Option<SmallVec<[i32; 4]>> {
            self.rect(k)
                .iter()
                .map(|&v| ctx.assigned_value(v))
                .collect()
        };
        for i in (0..n).filter(|&i| self.rect(i).contains(&var)) {
            let Some(a) = assigned(ctx, i) else {
                continue;
            };
            for j in (0..n).filter(|&j| j != i) {
                let Some(b) = assigned(ctx, j) else {
                    continue;
                };
                ctx.count_checks(1);
                let mut values: SmallVec<[i32; 8]> = SmallVec::new();
                values.extend_from_slice(&a);
                values.extend_from_slice(&b);
                if !self.apart(&values, 0, 1) {
                    return Err(ctx.violated());
                }
            }
        }
        Ok(())
    }

    /// Whether `way` is still possible on the current bounds, and if not, the atoms that
    /// rule it out.
    fn possible(way: Apart, ctx: &Context<'_>) -> Result<bool, Conflict> {
        Ok(match way {
            Apart::Before { a, da, b } => {
                let (Some(a_min), Some(da_min), Some(b_max)) =
                    (ctx.min(a), ctx.min(da), ctx.max(b))
                else {
                    return Err(ctx.violated());
                };
                i64::from(a_min) + i64::from(da_min) <= i64::from(b_max)
            }
            Apart::Empty(d) => ctx.contains(d, 0),
        })
    }

    /// The atoms true now that rule `way` out.
    fn ruled_out(way: Apart, ctx: &Context<'_>, reason: &mut SmallVec<[Atom; 16]>) {
        match way {
            Apart::Before { a, da, b } => {
                if let (Some(a_min), Some(da_min), Some(b_max)) =
                    (ctx.min(a), ctx.min(da), ctx.max(b))
                {
                    reason.extend([Atom::Ge(a, a_min), Atom::Ge(da, da_min), Atom::Le(b, b_max)]);
                }
            }
            Apart::Empty(d) => reason.push(Atom::Ne(d, 0)),
        }
    }

    /// Enforces `way`, the only one left, with `reason` for the others being ruled out.
    fn enforce(
        way: Apart,
        reason: &mut SmallVec<[Atom; 16]>,
        ctx: &mut Context<'_>,
    ) -> Result<(), Conflict> {
        match way {
            Apart::Empty(d) => {
                ctx.fix_because(d, 0, reason)?;
            }
            Apart::Before { a, da, b } => {
                let (Some(a_min), Some(da_min), Some(b_max)) =
                    (ctx.min(a), ctx.min(da), ctx.max(b))
                else {
                    return Err(ctx.violated());
                };
                let (a_min, da_min, b_max) =
                    (i64::from(a_min), i64::from(da_min), i64::from(b_max));
                let base = reason.len();
                // b >= a + da.
                reason.extend([Atom::Ge(a, a_min as i32), Atom::Ge(da, da_min as i32)]);
                ctx.at_least_because(b, a_min + da_min, reason)?;
                reason.truncate(base);
                // a <= b - da.
                reason.extend([Atom::Le(b, b_max as i32), Atom::Ge(da, da_min as i32)]);
                ctx.at_most_because(a, b_max - da_min, reason)?;
                reason.truncate(base);
                // da <= b - a.
                reason.extend([Atom::Le(b, b_max as i32), Atom::Ge(a, a_min as i32)]);
                ctx.at_most_because(da, b_max - a_min, reason)?;
                reason.truncate(base);
            }
        }
        Ok(())
    }
}

impl Constraint for Diffn {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let n = self.rects();
        (0..n).all(|i| (i + 1..n).all(|j| self.apart(values, i, j)))
    }

    fn describe(&self) -> String {
        let rects = (0..self.rects()).map(|i| {
            let [x, y, w, h] = self.rect(i);
            format!("({x}, {y}, {w}, {h})")
        });
        let name = if self.strict {
            "diffn"
        } else {
            "diffn_nonstrict"
        };
        format!("{name}([{}])", listed(rects, 4, ", "))
    }

    fn wake_on(&self, var: VarId) -> Wake {
        let _ = var;
        if self.strict {
            Wake::Bounds
        } else {
            // A size losing 0 from inside its domain matters too.
            Wake::Domain
        }
    }

    fn priority(&self) -> Priority {
        Priority::Global
    }

    /// Enforcing one pair's separation can leave another pair with one way only.
    fn idempotent(&self) -> bool {
        false
    }

    fn check_assigned(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.check_pairs_with(var, ctx)
    }

    fn forward_check(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.check_pairs_with(var, ctx)?;
        filter_last_open(self, ctx, |ctx, v| ctx.assigned_value(v))
    }

    /// Only the pairs with a rectangle that changed are looked at again.
    fn wants_changes(&self) -> bool {
        true
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.propagate_changed(&self.scope, ctx)
    }

    fn propagate_changed(&self, changed: &[VarId], ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let n = self.rects();
        let mut moved: SmallVec<[bool; 64]> = SmallVec::from_elem(false, n);
        for &var in changed {
            let first = self.by_var.partition_point(|&(v, _)| v < var);
            for &(_, rect) in self.by_var[first..].iter().take_while(|&&(v, _)| v == var) {
                moved[rect as usize] = true;
            }
        }
        for i in (0..n).filter(|&i| moved[i]) {
            // A pair of two moved rectangles is looked at once, from the first.
            for j in (0..n).filter(|&j| j != i && (!moved[j] || j > i)) {
                ctx.count_checks(1);
                let ways = self.ways(i.min(j), i.max(j));
                let mut left = None;
                let mut count = 0;
                for &way in &ways {
                    if Self::possible(way, ctx)? {
                        count += 1;
                        left = Some(way);
                        if count > 1 {
                            break;
                        }
                    }
                }
                match (count, left) {
                    (0, _) => return Err(ctx.violated()),
                    (1, Some(way)) => {
                        let mut reason: SmallVec<[Atom; 16]> = SmallVec::new();
                        if ctx.explaining() {
                            for &other in &ways {
                                if !Self::possible(other, ctx)? {
                                    Self::ruled_out(other, ctx, &mut reason);
                                }
                            }
                        }
                        Self::enforce(way, &mut reason, ctx)?;
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}
