//! `Element`: `z = array[x]`, over an array of constants or of variables.

use super::listed::listed;
use crate::{Conflict, Constraint, Context, DeclaredBounds, LinearRow, VarId};
use smallvec::SmallVec;

/// What the array holds.
#[derive(Clone, Debug)]
enum Array {
    Constants(Vec<i32>),
    /// The variables sit in the scope after `x` and `z`.
    Variables(usize),
}

/// `z = array[x]`, the array indexed from `first` (1 in FlatZinc, 0 in Rust).
///
/// Consistency: domain consistency on the index (it keeps exactly the positions whose entry
/// can equal `z`). Over constants, domain consistency on `z` too (it keeps the entries at the
/// positions left). Over variables, `z` stays within the hull of the entries' bounds at the
/// positions left, and once the index is fixed `z` and that entry are made equal (domain
/// consistency). Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct Element {
    /// `x`, `z`, then the array's variables (if any).
    scope: Vec<VarId>,
    array: Array,
    first: i64,
}

impl Element {
    /// `z = values[x - first]`.
    pub fn constants(x: VarId, values: &[i32], first: i32, z: VarId) -> Self {
        Element {
            scope: vec![x, z],
            array: Array::Constants(values.to_vec()),
            first: i64::from(first),
        }
    }

    /// `z = vars[x - first]`.
    pub fn variables(x: VarId, vars: &[VarId], first: i32, z: VarId) -> Self {
        let mut scope = vec![x, z];
        scope.extend_from_slice(vars);
        Element {
            scope,
            array: Array::Variables(vars.len()),
            first: i64::from(first),
        }
    }

    fn len(&self) -> usize {
        match &self.array {
            Array::Constants(values) => values.len(),
            Array::Variables(n) => *n,
        }
    }

    /// The position in the array of index value `v`, if it is one.
    fn position(&self, v: i64) -> Option<usize> {
        usize::try_from(v - self.first)
            .ok()
            .filter(|&p| p < self.len())
    }
}

/// The most rows one element gives the LP: a hull of more edges keeps its first ones.
const MOST_HULL_ROWS: usize = 64;

/// The edges of the lower hull of `points` (sorted by `x`, distinct `x`), by Andrew's
/// monotone chain; the upper hull is the lower one of the points mirrored in `y`.
fn lower_hull(points: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut hull: Vec<(i64, i64)> = Vec::new();
    for &p in points {
        while hull.len() >= 2 {
            let (a, b) = (hull[hull.len() - 2], hull[hull.len() - 1]);
            // Keep b only if a -> b -> p turns left (counter-clockwise).
            let cross = i128::from(b.0 - a.0) * i128::from(p.1 - a.1)
                - i128::from(b.1 - a.1) * i128::from(p.0 - a.0);
            if cross > 0 {
                break;
            }
            hull.pop();
        }
        hull.push(p);
    }
    hull
}

impl Element {
    /// Over constants: the rows of the convex hull of the points `(v, array[v])` for the
    /// index values `v` within the index's declared bounds, one per edge of the lower hull
    /// (`z` above it) and of the upper hull (`z` below it).
    fn hull_rows(&self, declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let Array::Constants(values) = &self.array else {
            return;
        };
        let (x, z) = (self.scope[0], self.scope[1]);
        let (lo, hi) = declared.bounds(x);
        let last = self.first + self.len() as i64 - 1;
        let points: Vec<(i64, i64)> = (i64::from(lo).max(self.first)..=i64::from(hi).min(last))
            .filter_map(|v| Some((v, i64::from(values[self.position(v)?]))))
            .collect();
        if points.len() < 2 {
            return;
        }
        let mirrored: Vec<(i64, i64)> = points.iter().map(|&(v, y)| (v, -y)).collect();
        let mut made = 0;
        for (hull, sign) in [(lower_hull(&points), 1), (lower_hull(&mirrored), -1)] {
            for edge in hull.windows(2) {
                let ((x1, y1), (x2, y2)) = (edge[0], edge[1]);
                // sign * z above the line through the edge:
                // (x2 - x1) * sign * z - (y2 - y1) * x >= (x2 - x1) * y1 - (y2 - y1) * x1.
                let (dx, dy) = (x2 - x1, y2 - y1);
                let Some(rhs) = dx.checked_mul(y1).zip(dy.checked_mul(x1)) else {
                    continue;
                };
                let Some(rhs) = rhs.0.checked_sub(rhs.1) else {
                    continue;
                };
                rows.push(LinearRow::at_least(vec![(dx * sign, z), (-dy, x)], rhs));
                made += 1;
                if made >= MOST_HULL_ROWS {
                    return;
                }
            }
        }
    }
}

impl Constraint for Element {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// Over constants, the convex hull of `(index, entry)` (see `hull_rows`); over
    /// variables, nothing.
    fn relax(&self, declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        self.hull_rows(declared, rows);
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let Some(p) = self.position(i64::from(values[0])) else {
            return false;
        };
        let entry = match &self.array {
            Array::Constants(array) => array[p],
            Array::Variables(_) => values[2 + p],
        };
        entry == values[1]
    }

    fn contradiction(&self) -> Option<String> {
        (self.len() == 0).then(|| "element of an empty array can never hold".to_string())
    }

    fn describe(&self) -> String {
        let (x, z) = (self.scope[0], self.scope[1]);
        match &self.array {
            Array::Constants(values) => format!("{z} = [{}][{x}]", listed(values.iter(), 8, ", ")),
            Array::Variables(_) => {
                format!("{z} = [{}][{x}]", listed(self.scope[2..].iter(), 6, ", "))
            }
        }
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (x, z) = (self.scope[0], self.scope[1]);
        ctx.within(x, self.first, self.first + self.len() as i64 - 1)?;
        ctx.count_checks(1);
        match &self.array {
            Array::Constants(values) => {
                // The index keeps the positions whose value z can take; z keeps those values.
                let mut kept: SmallVec<[i64; 32]> = SmallVec::new();
                for v in ctx.values_vec(x) {
                    let entry = self.position(i64::from(v)).map(|p| values[p]);
                    match entry {
                        Some(e) if ctx.contains(z, e) => kept.push(i64::from(e)),
                        _ => {
                            ctx.remove(x, v)?;
                        }
                    }
                }
                kept.sort_unstable();
                kept.dedup();
                ctx.keep_only(z, kept.iter().map(|&e| (e, e)))?;
                // z shared with x: z's loss may cost x values; the engine runs it again.
                Ok(())
            }
            Array::Variables(_) => {
                let (mut lo, mut hi) = (i64::MAX, i64::MIN);
                for v in ctx.values_vec(x) {
                    let Some(p) = self.position(i64::from(v)) else {
                        ctx.remove(x, v)?;
                        continue;
                    };
                    let entry = self.scope[2 + p];
                    if !ctx.intersects(entry, z, 0) {
                        ctx.remove(x, v)?;
                    } else if let (Some(a), Some(b)) = (ctx.min(entry), ctx.max(entry)) {
                        lo = lo.min(i64::from(a));
                        hi = hi.max(i64::from(b));
                    }
                }
                if lo <= hi {
                    ctx.within(z, lo, hi)?;
                }
                if let Some(p) = ctx.fixed_value(x).and_then(|v| self.position(i64::from(v))) {
                    // z = entry, both ways, a run at a time.
                    ctx.keep_equal(z, self.scope[2 + p], 0)?;
                }
                Ok(())
            }
        }
    }
}
