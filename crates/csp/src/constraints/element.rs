//! `Element`: `z = array[x]`, over an array of constants or of variables.

use super::listed::listed;
use crate::{Atom, Conflict, Constraint, Context, DeclaredBounds, Earlier, LinearRow, VarId};
use smallvec::SmallVec;

/// What a change made under learning rests on, as the word [`Context::lazily`] records: the
/// kind in the low two bits, a position of the array above them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Why {
    /// The index is kept within the array: the constraint alone.
    Alone,
    /// The index lost the value of position `p`, whose entry `z` cannot equal.
    Position(usize),
    /// `z` within the entries' hull at the index's positions left (its lower side if
    /// `true`), or `z` within the constants at those positions.
    Hull(bool),
    /// The index is fixed at position `p`: `z` and the entry there are made equal.
    Fixed(usize),
}

impl Why {
    fn word(self) -> u32 {
        match self {
            Why::Alone => 0,
            Why::Position(p) => 1 | (p as u32) << 2,
            Why::Hull(lower) => 2 | u32::from(lower) << 2,
            Why::Fixed(p) => 3 | (p as u32) << 2,
        }
    }

    fn of(word: u32) -> Self {
        let p = (word >> 2) as usize;
        match word & 3 {
            0 => Why::Alone,
            1 => Why::Position(p),
            2 => Why::Hull(p == 1),
            _ => Why::Fixed(p),
        }
    }
}

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

    /// Under learning each change is explained by what its filtering read: a position lost
    /// by its entry's incompatibility with `z` (`z != c` for a constant `c`, or the two
    /// domains, by their bounds where those part them); `z`'s hull by the index's domain
    /// and, on the side it moved, the entries' bounds there; an equality by the index's
    /// value and the other side's domain.
    fn explain(&self, payload: u32, var: VarId, earlier: &Earlier<'_>, out: &mut Vec<Atom>) {
        let (x, z) = (self.scope[0], self.scope[1]);
        match (Why::of(payload), &self.array) {
            (Why::Alone, _) => {}
            (Why::Position(p), Array::Constants(values)) => out.push(Atom::Ne(z, values[p])),
            (Why::Position(p), Array::Variables(_)) => {
                let entry = self.scope[2 + p];
                let (a, b) = (earlier.min(entry), earlier.max(entry));
                let (c, d) = (earlier.min(z), earlier.max(z));
                if b < c {
                    out.extend([Atom::Le(entry, b), Atom::Ge(z, c)]);
                } else if d < a {
                    out.extend([Atom::Ge(entry, a), Atom::Le(z, d)]);
                } else {
                    earlier.domain(entry, out);
                    earlier.domain(z, out);
                }
            }
            (Why::Hull(_), Array::Constants(_)) => earlier.domain(x, out),
            (Why::Hull(lower), Array::Variables(_)) => {
                earlier.domain(x, out);
                let (from, to) = (i64::from(earlier.min(x)), i64::from(earlier.max(x)));
                for v in from..=to {
                    let Some(p) = self.position(v) else { continue };
                    if !earlier.has(x, v as i32) {
                        continue;
                    }
                    let entry = self.scope[2 + p];
                    out.push(if lower {
                        Atom::Ge(entry, earlier.min(entry))
                    } else {
                        Atom::Le(entry, earlier.max(entry))
                    });
                }
            }
            (Why::Fixed(p), _) => {
                out.push(Atom::Eq(x, (self.first + p as i64) as i32));
                let entry = self.scope[2 + p];
                earlier.domain(if var == z { entry } else { z }, out);
            }
        }
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (x, z) = (self.scope[0], self.scope[1]);
        let (first, last) = (self.first, self.first + self.len() as i64 - 1);
        ctx.lazily(Why::Alone.word(), |ctx| ctx.within(x, first, last))?;
        ctx.count_checks(1);
        match &self.array {
            Array::Constants(values) => {
                // The index keeps the positions whose value z can take; z keeps those values.
                let mut kept: SmallVec<[i64; 32]> = SmallVec::new();
                for v in ctx.values_vec(x) {
                    let p = self.position(i64::from(v));
                    match p.map(|p| (p, values[p])) {
                        Some((_, e)) if ctx.contains(z, e) => kept.push(i64::from(e)),
                        Some((p, _)) => {
                            ctx.lazily(Why::Position(p).word(), |ctx| ctx.remove(x, v))?;
                        }
                        None => {
                            ctx.lazily(Why::Alone.word(), |ctx| ctx.remove(x, v))?;
                        }
                    }
                }
                kept.sort_unstable();
                kept.dedup();
                ctx.lazily(Why::Hull(false).word(), |ctx| {
                    ctx.keep_only(z, kept.iter().map(|&e| (e, e)))
                })?;
                // z shared with x: z's loss may cost x values; the engine runs it again.
                Ok(())
            }
            Array::Variables(_) => {
                let (mut lo, mut hi) = (i64::MAX, i64::MIN);
                for v in ctx.values_vec(x) {
                    let Some(p) = self.position(i64::from(v)) else {
                        ctx.lazily(Why::Alone.word(), |ctx| ctx.remove(x, v))?;
                        continue;
                    };
                    let entry = self.scope[2 + p];
                    if !ctx.intersects(entry, z, 0) {
                        ctx.lazily(Why::Position(p).word(), |ctx| ctx.remove(x, v))?;
                    } else if let (Some(a), Some(b)) = (ctx.min(entry), ctx.max(entry)) {
                        lo = lo.min(i64::from(a));
                        hi = hi.max(i64::from(b));
                    }
                }
                if lo <= hi {
                    ctx.lazily(Why::Hull(true).word(), |ctx| ctx.at_least(z, lo))?;
                    ctx.lazily(Why::Hull(false).word(), |ctx| ctx.at_most(z, hi))?;
                }
                if let Some(p) = ctx.fixed_value(x).and_then(|v| self.position(i64::from(v))) {
                    // z = entry, both ways, a run at a time.
                    let entry = self.scope[2 + p];
                    ctx.lazily(Why::Fixed(p).word(), |ctx| ctx.keep_equal(z, entry, 0))?;
                }
                Ok(())
            }
        }
    }
}
