//! Integer arithmetic as constraints: `x * y = z`, `x div y = z`, `x mod y = z`, `x ^ y = z`
//! and `|x| = z`, with FlatZinc's meanings (division truncates toward zero, the remainder takes
//! the sign of `x`, a divisor of 0 has no solution, `x ^ y` for `y < 0` is `1 div x ^ -y`).
//!
//! Everything is computed in `i64` (an `i32` product fits), so nothing overflows: a result
//! beyond `i32` simply has no value of `z` to match.

use crate::propagation::constraint::check_when_settled;
use crate::{
    Atom, Conflict, Constraint, Context, DeclaredBounds, Earlier, LinearRow, Priority, VarId,
};
use smallvec::SmallVec;
use std::fmt;

/// The operation of an [`Arithmetic`] constraint.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArithOp {
    /// `x * y`
    Times,
    /// `x div y`, truncating toward zero.
    Div,
    /// `x mod y`, with the sign of `x` (`x - y * (x div y)`).
    Mod,
    /// `x ^ y`; for `y < 0`, `1 div x ^ -y`.
    Pow,
}

impl ArithOp {
    /// The result for `x` and `y`, or `None` where it is undefined (a zero divisor).
    pub fn apply(self, x: i64, y: i64) -> Option<i64> {
        match self {
            ArithOp::Times => Some(x * y),
            ArithOp::Div => (y != 0).then(|| x / y),
            ArithOp::Mod => (y != 0).then(|| x % y),
            ArithOp::Pow => pow(x, y),
        }
    }
}

impl fmt::Display for ArithOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ArithOp::Times => "*",
            ArithOp::Div => "div",
            ArithOp::Mod => "mod",
            ArithOp::Pow => "^",
        })
    }
}

/// `x ^ y` as FlatZinc defines it, saturated beyond `i32` (no `z` can match it there).
fn pow(x: i64, y: i64) -> Option<i64> {
    if y < 0 {
        // 1 div x^|y|: 0 unless |x| is 1.
        return match x {
            0 => None,
            1 => Some(1),
            -1 => Some(if y % 2 == 0 { 1 } else { -1 }),
            _ => Some(0),
        };
    }
    match x {
        0 => return Some(if y == 0 { 1 } else { 0 }),
        1 => return Some(1),
        -1 => return Some(if y % 2 == 0 { 1 } else { -1 }),
        _ => {}
    }
    // |x| >= 2: past 2^31 after at most 32 factors, where no i32 can match; stop there,
    // keeping the sign.
    let limit = i64::from(i32::MAX) + 1;
    let mut result: i64 = 1;
    for _ in 0..y {
        result *= x;
        if result.abs() > limit {
            let negative = x < 0 && y % 2 == 1;
            return Some(if negative { -limit - 1 } else { limit + 1 });
        }
    }
    Some(result)
}

/// The most value pairs of `x` and `y` that filtering enumerates; above it, bounds reasoning.
const PAIRS_ENUMERATED: u64 = 4096;

/// Under learning, the most values of `z` for which pairs are enumerated. Each value the
/// enumeration takes out of `z` becomes a `!=` atom on the trail, and the reason it is given
/// lists the domains of `x` and `y`, holes and all: on template_design's `x * y = z` over
/// `0..9 * 1..816`, fixing `y` holed `z` by thousands, and conflicts cost 2 ms each (499 a
/// second against Pumpkin's 13,908 on the same FlatZinc). Above it, bounds reasoning with
/// reasons of bounds, as Chuffed and Pumpkin do for products.
const Z_ENUMERATED_EXPLAINED: u64 = 128;

/// The most values a factor may be declared with for its product to enumerate pairs under
/// learning whatever `z`'s width (up to [`PAIRS_ENUMERATED`] pairs): hoist scheduling's
/// `period * B` with `B` in 0..4, whose holes in `z` lead to first solutions (PU_2_8_4 at 3 s
/// against 50 s with bounds reasoning). template_design's `0..9 * 1..816`, whose holes cost
/// thousands of atoms, stays above it.
pub(crate) const SMALL_FACTOR_DECLARED: u64 = 5;

/// The most values one lazy explanation of an enumerated product accounts for (a bound
/// moved past many at once), and the most candidate pairs it looks at: beyond either, the
/// reason lists the domains of the other two variables.
const EXPLAINED_VALUES: i64 = 1024;
const EXPLAINED_STEPS: u64 = 1 << 16;
/// The most values of a factor that a lazy explanation lists as `!=` atoms for one value of
/// the other factor.
const WINDOW_LISTED: i64 = 4;

/// `v` clamped into `i32`: a bound computed from products may lie beyond it.
fn clamp(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// `op(x, y) = z`.
///
/// Consistency: domain consistency while `x` and `y` have at most 4,096 value pairs between
/// them (each pair is tried and the values without a pair that reaches `z` go); above that,
/// bounds reasoning to a fixpoint: for `*`, `z` within the products of the bounds and `x`, `y`
/// within the quotients of `z`'s bounds by the other's, split at 0 (bounds(R) consistency);
/// for `div`, `z` within the quotients of the bounds and `x` within `z * y` give or take
/// `|y| - 1`; for `mod`, `|z| < |y|`, `|z| <= |x|` and the sign of `x`; for `^`, `z` within
/// the largest power of `x`'s bounds. Under `none` and `fc`, the default hooks. Under learning,
/// pairs are enumerated only while `z` has at most 128 values or, until the search has a
/// solution ([`Context::solution_known`]), a factor was declared with at most five (which
/// [`Model::arith`](crate::Model::arith) and `times` find when they post it; an `Arithmetic`
/// posted directly does not know it) (bounds reasoning otherwise, each bound of
/// `*` explained by the bounds it was computed from), and a `z` of more than 4,096 values keeps its holes out of the enumeration:
/// bounds(Z) for `z`, domain consistency for `x` and `y`. The enumeration's changes under
/// learning are explained when conflict analysis asks, for `*` by the pairs that lack a member
/// (the domains of the other two variables otherwise); a run of `z`'s holes that a bound
/// jumps, by the factors' bounds ([`Constraint::explain_gap`]).
#[derive(Clone, Debug)]
pub struct Arithmetic {
    op: ArithOp,
    /// `x`, `y`, `z`.
    vars: [VarId; 3],
    /// The most value pairs enumerated (0: bounds reasoning alone).
    pairs_enumerated: u64,
    /// A factor was declared with at most [`SMALL_FACTOR_DECLARED`] values: under learning,
    /// pairs are enumerated whatever `z`'s width until a solution is known. The holes the
    /// enumeration leaves in `z` find hoist scheduling's first solutions (bounds alone find
    /// none of PU_2_8_4's in 60 s), but the reasons that list them generalise poorly:
    /// with bounds once a solution is known (and the learning search's branching at the
    /// last cut), PU_2_8_4's optimum is proved in 18 to 25 s under `-f`, where it was not
    /// in 120 s with the holes kept.
    small_factor: bool,
}

impl Arithmetic {
    /// `op(x, y) = z`.
    pub fn new(op: ArithOp, x: VarId, y: VarId, z: VarId) -> Self {
        Arithmetic {
            op,
            vars: [x, y, z],
            pairs_enumerated: PAIRS_ENUMERATED,
            small_factor: false,
        }
    }

    /// A factor is declared with at most [`SMALL_FACTOR_DECLARED`] values (for `*`): under
    /// learning, value pairs are enumerated however wide `z` is.
    pub(crate) fn small_factor(mut self, small: bool) -> Self {
        self.small_factor = small;
        self
    }

    /// Filters by bounds reasoning alone, however small the domains: to compare the two, and
    /// to test the bounds reasoning on small models.
    pub fn bounds_only(mut self) -> Self {
        self.pairs_enumerated = 0;
        self
    }

    /// Domain consistency by trying every pair of values of `x` and `y`; under learning, each
    /// change explained only when conflict analysis asks ([`Arithmetic::explain_product`]).
    fn enumerate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.lazily(0, |ctx| self.enumerate_pairs(ctx))
    }

    fn enumerate_pairs(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let [x, y, z] = self.vars;
        let xs = ctx.values_vec(x);
        let ys = ctx.values_vec(y);
        let mut x_ok: SmallVec<[bool; 64]> = SmallVec::from_elem(false, xs.len());
        let mut y_ok: SmallVec<[bool; 64]> = SmallVec::from_elem(false, ys.len());
        let mut z_kept: Vec<i64> = Vec::new();
        ctx.count_checks((xs.len() * ys.len()) as u64);
        for (i, &a) in xs.iter().enumerate() {
            for (j, &b) in ys.iter().enumerate() {
                // The same variable twice takes one value.
                if x == y && a != b {
                    continue;
                }
                let Some(c) = self.op.apply(i64::from(a), i64::from(b)) else {
                    continue;
                };
                let fits = i32::try_from(c).is_ok_and(|c| ctx.contains(z, c));
                // z shared with x or y must take the same value there too.
                let consistent = (z != x || c == i64::from(a)) && (z != y || c == i64::from(b));
                if fits && consistent {
                    x_ok[i] = true;
                    y_ok[j] = true;
                    z_kept.push(c);
                }
            }
        }
        z_kept.sort_unstable();
        z_kept.dedup();
        if ctx.explaining() && ctx.size_u64(z) > PAIRS_ENUMERATED {
            // Under learning each value taken out of `z` is an atom on the trail, and every
            // reason that reads `z`'s domain lists them all: a product over 0..970299 keeping
            // 4,096 values made conflict analysis take minutes (NFractions). `z`'s bounds only.
            let (Some(&low), Some(&high)) = (z_kept.first(), z_kept.last()) else {
                return Err(ctx.violated());
            };
            ctx.at_least(z, low)?;
            ctx.at_most(z, high)?;
        } else {
            ctx.keep_only(z, z_kept.iter().map(|&c| (c, c)))?;
        }
        for (&a, ok) in xs.iter().zip(x_ok) {
            if !ok {
                ctx.remove(x, a)?;
            }
        }
        for (&b, ok) in ys.iter().zip(y_ok) {
            if !ok {
                ctx.remove(y, b)?;
            }
        }
        Ok(())
    }

    /// Why the enumeration of `x * y = z` took values out of `var` (all it had, for a
    /// conflict): for each value gone, every pair of values that would have kept it lacks a
    /// member just before the change, and the reason says which, by a `!=` atom inside the
    /// member's bounds or a bound beyond which it lies (lifted to the weakest bound that
    /// still excludes it); values beyond what bounds reasoning allows, by those bounds alone.
    /// hoist scheduling's `period * B` with `B` in 0..4 explains a value of `z` gone by a
    /// handful of atoms, where the domains of `period` and `B`, holes and all, took conflict
    /// analysis most of its time (3,846 nogoods in 10 s on PU_2_2_3 against 22,944 with
    /// bounds reasoning). False where it does not apply (another operation, a variable
    /// twice, too many values or pairs): the caller then lists the domains.
    fn explain_product(&self, var: VarId, earlier: &Earlier<'_>, out: &mut Vec<Atom>) -> bool {
        let [x, y, z] = self.vars;
        if self.op != ArithOp::Times || x == y || x == z || y == z {
            return false;
        }
        let before = Before::new(self.vars, earlier);
        let (low, high) = before.bounds(var);
        let (from, to, kept) = match earlier.change() {
            None => (low, high, None),
            Some(Atom::Ne(_, v)) => (i64::from(v), i64::from(v), None),
            Some(Atom::Ge(_, k)) => (low, i64::from(k) - 1, None),
            Some(Atom::Le(_, k)) => (i64::from(k) + 1, high, None),
            Some(Atom::Eq(_, v)) => (low, high, Some(i64::from(v))),
        };
        // The values that bounds reasoning rules out (beyond the products of the factors'
        // bounds, for `z`; beyond the quotients of `z`'s bounds by the other factor's, for a
        // factor) are explained by those bounds at once; only the rest value by value.
        let mut by_bounds: SmallVec<[Atom; 5]> = SmallVec::new();
        let (inner_low, inner_high) = if var == z {
            by_bounds.extend(bound_atoms(x, before.bounds(x)));
            by_bounds.extend(bound_atoms(y, before.bounds(y)));
            corners(before.bounds(x), before.bounds(y), |a, b| a * b)
        } else {
            let other = if var == x { y } else { x };
            let (o_low, o_high) = before.bounds(other);
            if before.lacked(other, 0) {
                by_bounds.extend(bound_atoms(z, before.bounds(z)));
                by_bounds.extend(bound_atoms(other, (o_low, o_high)));
                if o_low < 0 && 0 < o_high {
                    by_bounds.push(Atom::Ne(other, 0));
                }
                let zb = before.bounds(z);
                over_pieces(Some((o_low, o_high)), |piece| {
                    (
                        corners(zb, piece, div_ceil).0,
                        corners(zb, piece, div_floor).1,
                    )
                })
            } else {
                (i64::MIN, i64::MAX)
            }
        };
        let (first, last) = (from.max(inner_low), to.min(inner_high));
        if from < inner_low || to > inner_high {
            out.extend_from_slice(&by_bounds);
        }
        if last - first >= EXPLAINED_VALUES {
            return false;
        }
        let mut steps = 0u64;
        if var == z && kept.is_none() && first < last {
            // A run of `z` at once, when no value of it, gone or not, had a pair.
            let mark = out.len();
            if before.rule_out((first, last), out, &mut steps) {
                return true;
            }
            out.truncate(mark);
        }
        for v in first..=last {
            if Some(v) == kept || before.lacked(var, v) {
                continue;
            }
            let explained = if var == z {
                before.rule_out((v, v), out, &mut steps)
            } else {
                let other = if var == x { y } else { x };
                before.factor_gone(v, other, out, &mut steps)
            };
            if !explained || steps > EXPLAINED_STEPS {
                return false;
            }
        }
        true
    }

    /// `x mod c = k` with `c` and `k` fixed and `x` too wide to enumerate: `x` keeps exactly
    /// its values of residue `k` modulo `|c|` of `k`'s sign (a remainder takes `x`'s sign),
    /// listed from its bounds, so that FlatZinc's `x mod 97 = 0` over 0..119407 leaves the
    /// 1,232 multiples at the root rather than the bounds. `None` when it does not apply or
    /// more than 2^20 values would be listed.
    fn residue(&self, ctx: &mut Context<'_>) -> Option<Result<(), Conflict>> {
        let [x, y, z] = self.vars;
        if self.op != ArithOp::Mod || self.pairs_enumerated == 0 || x == y || x == z {
            return None;
        }
        if ctx.size_u64(x) <= self.pairs_enumerated {
            return None;
        }
        let (c, k) = (ctx.fixed_value(y)?, ctx.fixed_value(z)?);
        let (c, k) = (i64::from(c).abs(), i64::from(k));
        let (min, max) = (i64::from(ctx.min(x)?), i64::from(ctx.max(x)?));
        let (low, high) = match k.signum() {
            1 => (min.max(1), max),
            -1 => (min, max.min(-1)),
            _ => (min, max),
        };
        if c == 0 || k.abs() >= c || low > high {
            return Some(Err(ctx.violated()));
        }
        let first = low + (k - low).rem_euclid(c);
        let count = if first > high {
            0
        } else {
            (high - first) / c + 1
        };
        // Under learning each value taken out is an atom on the trail that reasons reading
        // `x`'s domain list (SuperNumber's `x mod 6 = 0` over 0..999999: 833,334 of them,
        // 46 s at the root): there, only a domain of at most 65,536 values is filtered so.
        let widest: u64 = if ctx.explaining() { 1 << 16 } else { 1 << 20 };
        if count as u64 > widest || (ctx.explaining() && ctx.size_u64(x) > widest) {
            return None;
        }
        ctx.count_checks(count as u64);
        let kept = (0..count).map(|t| (first + t * c, first + t * c));
        Some(ctx.keep_only(x, kept).map(|_| ()))
    }

    /// One round of bounds reasoning; whether it changed anything.
    fn bounds_round(&self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let [x, y, z] = self.vars;
        let (Some(xb), Some(yb), Some(zb)) = (bounds(ctx, x), bounds(ctx, y), bounds(ctx, z))
        else {
            return Ok(false);
        };
        let mut removed = 0;
        match self.op {
            ArithOp::Times => {
                let (lo, hi) = corners(xb, yb, |a, b| a * b);
                let reason = [bound_atoms(x, xb), bound_atoms(y, yb)];
                removed += ctx.because(reason.as_flattened(), |ctx| ctx.within(z, lo, hi))?;
                removed += divide_into(ctx, x, (z, zb), y)?;
                removed += divide_into(ctx, y, (z, zb), x)?;
            }
            ArithOp::Div => {
                removed += ctx.remove_range(y, 0, 0)?;
                let (lo, hi) =
                    over_pieces(bounds(ctx, y), |piece| corners(xb, piece, |a, b| a / b));
                removed += ctx.within(z, lo, hi)?;
                // x = z * y + r with |r| <= |y| - 1.
                let zb = bounds(ctx, z).unwrap_or(zb);
                let yb = bounds(ctx, y).unwrap_or(yb);
                let slack = yb.0.abs().max(yb.1.abs()) - 1;
                let (lo, hi) = corners(zb, yb, |a, b| a * b);
                removed += ctx.within(x, lo - slack, hi + slack)?;
            }
            ArithOp::Mod => {
                removed += ctx.remove_range(y, 0, 0)?;
                let yb = bounds(ctx, y).unwrap_or(yb);
                let largest = yb.0.abs().max(yb.1.abs()) - 1;
                // |z| < |y| and |z| <= |x|, with the sign of x (or 0).
                let lo = if xb.0 >= 0 { 0 } else { -largest.min(-xb.0) };
                let hi = if xb.1 <= 0 { 0 } else { largest.min(xb.1) };
                removed += ctx.within(z, lo, hi)?;
                let zb = bounds(ctx, z).unwrap_or(zb);
                // A nonzero remainder has x's sign and no larger magnitude; |y| exceeds it.
                if zb.0 > 0 {
                    removed += ctx.at_least(x, zb.0)?;
                } else if zb.1 < 0 {
                    removed += ctx.at_most(x, zb.1)?;
                }
                let smallest = if zb.0 > 0 {
                    zb.0
                } else if zb.1 < 0 {
                    -zb.1
                } else {
                    0
                };
                let smallest = smallest.min(i64::from(i32::MAX)) as i32;
                removed += ctx.remove_range(y, -smallest, smallest)?;
            }
            ArithOp::Pow => {
                // |x ^ y| <= max(|x|, 1) ^ max(y, 0).
                let base = xb.0.abs().max(xb.1.abs()).max(1);
                let bound = pow(base, yb.1.max(0)).unwrap_or(1).max(1);
                removed += ctx.within(z, -bound, bound)?;
                if xb.0 >= 0 {
                    // A base of at least 0 gives results of at least 0.
                    removed += ctx.at_least(z, 0)?;
                }
            }
        }
        Ok(removed > 0)
    }
}

/// Bounds reasoning need not see a broken constraint once all is fixed (`2 ^ 2 = 2` passes
/// every bound of its own values): checks it then.
fn check_if_fixed(c: &impl Constraint, ctx: &mut Context<'_>) -> Result<(), Conflict> {
    check_when_settled(c, ctx, |ctx, var| ctx.fixed_value(var))
}

/// A variable's bounds as `i64`s.
fn bounds(ctx: &Context<'_>, var: VarId) -> Option<(i64, i64)> {
    Some((i64::from(ctx.min(var)?), i64::from(ctx.max(var)?)))
}

/// The smallest and largest of `f` over the four corners of two ranges.
fn corners(a: (i64, i64), b: (i64, i64), f: impl Fn(i64, i64) -> i64) -> (i64, i64) {
    let values = [f(a.0, b.0), f(a.0, b.1), f(a.1, b.0), f(a.1, b.1)];
    let lo = values.iter().copied().min().unwrap_or(0);
    let hi = values.iter().copied().max().unwrap_or(0);
    (lo, hi)
}

/// The hull of `f` over the negative and positive parts of `range` (0 left out), or an empty
/// range `(1, 0)` when it holds only 0.
fn over_pieces(range: Option<(i64, i64)>, f: impl Fn((i64, i64)) -> (i64, i64)) -> (i64, i64) {
    let Some((lo, hi)) = range else {
        return (1, 0);
    };
    let mut hull: Option<(i64, i64)> = None;
    for piece in [(lo, hi.min(-1)), (lo.max(1), hi)] {
        if piece.0 <= piece.1 {
            let (a, b) = f(piece);
            hull = Some(hull.map_or((a, b), |(c, d)| (c.min(a), d.max(b))));
        }
    }
    hull.unwrap_or((1, 0))
}

/// The atoms `var >= low` and `var <= high` of bounds read as `i64`s from `var`'s domain.
fn bound_atoms(var: VarId, (low, high): (i64, i64)) -> [Atom; 2] {
    // Read from an i32 domain: they fit.
    [Atom::Ge(var, low as i32), Atom::Le(var, high as i32)]
}

/// For `z = x * y`: keeps `x` within the real quotients of `z`'s bounds `zb` by `y`'s
/// bounds, taken over `y`'s negative and positive parts (the quotient is monotone on each, so
/// the corners bound it). When `y` and `z` can both be 0, `x` is free; when only `y` can,
/// `y = 0` is impossible and goes. Each change is explained by the bounds it was computed
/// from (and `y != 0` where `y`'s bounds straddle 0).
fn divide_into(
    ctx: &mut Context<'_>,
    x: VarId,
    (z, zb): (VarId, (i64, i64)),
    y: VarId,
) -> Result<u64, Conflict> {
    let mut removed = 0;
    let z_bounds = bound_atoms(z, zb);
    if ctx.contains(y, 0) {
        if zb.0 <= 0 && 0 <= zb.1 {
            return Ok(0);
        }
        removed += ctx.because(&z_bounds, |ctx| ctx.remove_range(y, 0, 0))?;
    }
    let Some(yb) = bounds(ctx, y) else {
        return Ok(removed);
    };
    let (lo, hi) = over_pieces(Some(yb), |piece| {
        (
            corners(zb, piece, div_ceil).0,
            corners(zb, piece, div_floor).1,
        )
    });
    let mut reason: SmallVec<[Atom; 5]> = SmallVec::new();
    if ctx.explaining() {
        reason.extend(z_bounds);
        reason.extend(bound_atoms(y, yb));
        if yb.0 < 0 && 0 < yb.1 {
            reason.push(Atom::Ne(y, 0));
        }
    }
    Ok(removed + ctx.because(&reason, |ctx| ctx.within(x, lo, hi))?)
}

/// `n / d` rounded down.
fn div_floor(n: i64, d: i64) -> i64 {
    let q = n / d;
    if n % d != 0 && (n < 0) != (d < 0) {
        q - 1
    } else {
        q
    }
}

/// `n / d` rounded up.
fn div_ceil(n: i64, d: i64) -> i64 {
    let q = n / d;
    if n % d != 0 && (n < 0) == (d < 0) {
        q + 1
    } else {
        q
    }
}

/// The bounds of a product's `x`, `y` and `z` just before the change a lazy explanation
/// looks at, read once, and its holes as asked.
struct Before<'e, 'a> {
    vars: [VarId; 3],
    bounds: [(i64, i64); 3],
    earlier: &'e Earlier<'a>,
}

impl<'e, 'a> Before<'e, 'a> {
    fn new(vars: [VarId; 3], earlier: &'e Earlier<'a>) -> Self {
        let bounds = vars.map(|v| (i64::from(earlier.min(v)), i64::from(earlier.max(v))));
        Before {
            vars,
            bounds,
            earlier,
        }
    }

    fn bounds(&self, var: VarId) -> (i64, i64) {
        let i = self.vars.iter().position(|&v| v == var).unwrap_or(0);
        self.bounds[i]
    }

    /// Whether `var` lacked `value` then.
    fn lacked(&self, var: VarId, value: i64) -> bool {
        let (low, high) = self.bounds(var);
        value < low || value > high || self.earlier.hole(var, value as i32)
    }

    /// Pushes onto `out` an atom, true then, that `var` lacked `value`: the weakest bound
    /// beyond which it lies, or a `!=` inside the bounds. False (nothing pushed) if `var`
    /// still had it.
    fn push_lacked(&self, var: VarId, value: i64, out: &mut Vec<Atom>) -> bool {
        let (low, high) = self.bounds(var);
        // A product may lie beyond `i32`: the bound is clamped to it (still true, still
        // excluding `value`).
        if value < low {
            out.push(self.earlier.at_least_atom(var, clamp(value + 1)));
        } else if value > high {
            out.push(self.earlier.at_most_atom(var, clamp(value - 1)));
        } else if self.earlier.hole(var, value as i32) {
            out.push(Atom::Ne(var, value as i32));
        } else {
            return false;
        }
        true
    }

    /// Why `z` lacks every value in `low..=high`: for each value `b` within the bounds of
    /// the factor with the narrower range (`f`), the window of the other factor (`g`) whose
    /// products with `b` land there is empty, beyond `g`'s bounds (the weakest bound atom
    /// that says so), wholly missing from `g` (a few `!=`), or `b` is missing from `f` (a
    /// `!=`); `f`'s bounds cover the rest. False where some pair could still land there.
    fn rule_out(&self, (low, high): (i64, i64), out: &mut Vec<Atom>, steps: &mut u64) -> bool {
        let [x, y, _] = self.vars;
        let span = |v: VarId| self.bounds(v).1 - self.bounds(v).0;
        let (f, g) = if span(x) <= span(y) { (x, y) } else { (y, x) };
        let (f_low, f_high) = self.bounds(f);
        *steps += (f_high - f_low + 1) as u64;
        if *steps > EXPLAINED_STEPS {
            return false;
        }
        out.extend(bound_atoms(f, (f_low, f_high)));
        let (g_low, g_high) = self.bounds(g);
        for b in f_low..=f_high {
            // The `g` with `b * g` in `low..=high`.
            let (w_low, w_high) = match b.signum() {
                1 => (div_ceil(low, b), div_floor(high, b)),
                -1 => (div_ceil(high, b), div_floor(low, b)),
                _ if low <= 0 && 0 <= high => (g_low, g_high),
                _ => continue,
            };
            if w_low > w_high {
                continue;
            }
            if w_high < g_low {
                out.push(self.earlier.at_least_atom(g, clamp(w_high + 1)));
                continue;
            }
            if w_low > g_high {
                out.push(self.earlier.at_most_atom(g, clamp(w_low - 1)));
                continue;
            }
            let (first, last) = (w_low.max(g_low), w_high.min(g_high));
            if last - first < WINDOW_LISTED
                && (first..=last).all(|v| self.earlier.hole(g, v as i32))
            {
                if w_low < g_low {
                    out.push(self.earlier.at_least_atom(g, g_low as i32));
                }
                if w_high > g_high {
                    out.push(self.earlier.at_most_atom(g, g_high as i32));
                }
                out.extend((first..=last).map(|v| Atom::Ne(g, v as i32)));
            } else if self.earlier.hole(f, b as i32) {
                out.push(Atom::Ne(f, b as i32));
            } else {
                return false;
            }
        }
        true
    }

    /// Why a factor lacks `a` (`y` its other factor): `z` lacks every `a * b` with `b` still
    /// in `y`. The `b` whose products lie beyond `z`'s bounds are covered by one bound of `z`
    /// on each side (or by `y`'s own bound where `z`'s window starts inside `y`'s range); the
    /// rest, one by one, by `y != b` or `z != a * b`. False where a pair had both members.
    fn factor_gone(&self, a: i64, y: VarId, out: &mut Vec<Atom>, steps: &mut u64) -> bool {
        let z = self.vars[2];
        if a == 0 {
            return self.push_lacked(z, 0, out);
        }
        let (y_low, y_high) = self.bounds(y);
        let (z_low, z_high) = self.bounds(z);
        // The window of `b` whose product `a * b` lies within `z_low..=z_high`.
        let (b_low, b_high) = if a > 0 {
            (div_ceil(z_low, a), div_floor(z_high, a))
        } else {
            (div_ceil(z_high, a), div_floor(z_low, a))
        };
        let below = if b_low > y_low {
            // Every `b < b_low` has its product beyond `z`'s bound on that side.
            self.push_lacked(z, a * (b_low - 1), out)
        } else {
            out.push(Atom::Ge(y, y_low as i32));
            true
        };
        let above = if b_high < y_high {
            self.push_lacked(z, a * (b_high + 1), out)
        } else {
            out.push(Atom::Le(y, y_high as i32));
            true
        };
        if !(below && above) {
            return false;
        }
        let (first, last) = (b_low.max(y_low), b_high.min(y_high));
        *steps += (last - first + 1).max(0) as u64;
        if *steps > EXPLAINED_STEPS {
            return false;
        }
        for b in first..=last {
            if self.earlier.hole(y, b as i32) {
                out.push(Atom::Ne(y, b as i32));
            } else if !self.push_lacked(z, a * b, out) {
                return false;
            }
        }
        true
    }
}

impl Constraint for Arithmetic {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    /// A change of the pairs' enumeration, by [`Arithmetic::explain_product`] for `*`, by the
    /// domains of the other two variables otherwise.
    fn explain(&self, _payload: u32, var: VarId, earlier: &Earlier<'_>, out: &mut Vec<Atom>) {
        let start = out.len();
        if self.explain_product(var, earlier, out) {
            return;
        }
        out.truncate(start);
        for (i, &other) in self.vars.iter().enumerate() {
            if other != var && !self.vars[..i].contains(&other) {
                earlier.domain(other, out);
            }
        }
    }

    /// For `*`, a run of values gone from `z` by the factors' bounds and the values missing
    /// from the narrower one ([`Before::rule_out`]).
    fn explain_gap(
        &self,
        var: VarId,
        (low, high): (i32, i32),
        earlier: &Earlier<'_>,
        out: &mut Vec<Atom>,
    ) -> bool {
        let [x, y, z] = self.vars;
        if self.op != ArithOp::Times || var != z || x == y || x == z || y == z {
            return false;
        }
        let before = Before::new(self.vars, earlier);
        let mut steps = 0;
        before.rule_out((i64::from(low), i64::from(high)), out, &mut steps)
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        self.op.apply(i64::from(values[0]), i64::from(values[1])) == Some(i64::from(values[2]))
    }

    fn describe(&self) -> String {
        let [x, y, z] = self.vars;
        format!("{x} {} {y} = {z}", self.op)
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let [x, y, _] = self.vars;
        if let Some(filtered) = self.residue(ctx) {
            return filtered;
        }
        let [.., z] = self.vars;
        for _ in 0..64 {
            let pairs = ctx.size_u64(x).saturating_mul(ctx.size_u64(y));
            if pairs <= self.pairs_enumerated
                && !(ctx.explaining()
                    && self.op == ArithOp::Times
                    && pairs > 1
                    && (!self.small_factor || ctx.solution_known())
                    && ctx.size_u64(z) > Z_ENUMERATED_EXPLAINED)
            {
                return self.enumerate(ctx);
            }
            ctx.count_checks(1);
            if !self.bounds_round(ctx)? {
                break;
            }
        }
        check_if_fixed(self, ctx)
    }
}

/// `|x| = z`.
///
/// Consistency: bounds(Z): `z` within the smallest and largest magnitudes of `x` (the smallest
/// read from `x`'s domain around 0), and `x` within `-max z..=max z` less the magnitudes below
/// `min z`; domain consistency while `x` has at most 4,096 values. Under `none` and `fc`, the
/// default hooks.
#[derive(Clone, Debug)]
pub struct Abs {
    /// `x`, `z`.
    vars: [VarId; 2],
    /// The most values of `x` filtered one by one (0: bounds reasoning alone).
    values_enumerated: u64,
}

impl Abs {
    /// `|x| = z`.
    pub fn new(x: VarId, z: VarId) -> Self {
        Abs {
            vars: [x, z],
            values_enumerated: PAIRS_ENUMERATED,
        }
    }

    /// Filters by bounds reasoning alone, however small the domains (see
    /// [`Arithmetic::bounds_only`]).
    pub fn bounds_only(mut self) -> Self {
        self.values_enumerated = 0;
        self
    }
}

impl Constraint for Abs {
    fn priority(&self) -> Priority {
        Priority::Cheap
    }

    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    /// The convex hull of `z = |x|` over `x`'s declared bounds `lo..=hi`: `z >= x`,
    /// `z >= -x`, and the chord `(hi - lo) z - (hi + lo) x <= -2 hi lo` from `(lo, |lo|)` to
    /// `(hi, |hi|)`; `z = x` or `z = -x` where `x` keeps one sign.
    fn relax(&self, declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let [x, z] = self.vars;
        let (lo, hi) = declared.bounds(x);
        let (lo, hi) = (i64::from(lo), i64::from(hi));
        if lo >= 0 {
            rows.push(LinearRow::equal(vec![(1, z), (-1, x)], 0));
        } else if hi <= 0 {
            rows.push(LinearRow::equal(vec![(1, z), (1, x)], 0));
        } else {
            rows.push(LinearRow::at_least(vec![(1, z), (-1, x)], 0));
            rows.push(LinearRow::at_least(vec![(1, z), (1, x)], 0));
            rows.push(LinearRow::at_most(
                vec![(hi - lo, z), (-(hi + lo), x)],
                -2 * hi * lo,
            ));
        }
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        i64::from(values[0]).abs() == i64::from(values[1])
    }

    fn describe(&self) -> String {
        format!("|{}| = {}", self.vars[0], self.vars[1])
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let [x, z] = self.vars;
        ctx.count_checks(1);
        if x == z {
            return ctx.at_least(x, 0).map(|_| ());
        }
        ctx.at_least(z, 0)?;
        if ctx.size_u64(x) <= self.values_enumerated {
            // Each side keeps the values the other can match.
            let magnitudes: SmallVec<[i64; 64]> = {
                let mut m: SmallVec<[i64; 64]> =
                    ctx.values(x).map(|v| i64::from(v).abs()).collect();
                m.sort_unstable();
                m.dedup();
                m
            };
            ctx.keep_only(z, magnitudes.iter().map(|&m| (m, m)))?;
            for v in ctx.values_vec(x) {
                let m = i64::from(v).abs();
                if !i32::try_from(m).is_ok_and(|m| ctx.contains(z, m)) {
                    ctx.remove(x, v)?;
                }
            }
            return Ok(());
        }
        let (Some((x_lo, x_hi)), Some((z_lo, z_hi))) = (bounds(ctx, x), bounds(ctx, z)) else {
            return Ok(());
        };
        // The smallest magnitude, run by run.
        let smallest = ctx
            .ranges(x)
            .map(|(a, b)| {
                let (a, b) = (i64::from(a), i64::from(b));
                if a <= 0 && 0 <= b {
                    0
                } else {
                    a.abs().min(b.abs())
                }
            })
            .min()
            .unwrap_or(0);
        ctx.within(z, smallest, x_lo.abs().max(x_hi.abs()))?;
        ctx.within(x, -z_hi, z_hi)?;
        if z_lo > 0 {
            ctx.remove_range(x, (1 - z_lo) as i32, (z_lo - 1) as i32)?;
        }
        check_if_fixed(self, ctx)
    }
}

#[cfg(test)]
mod tests {
    use crate::brute_force::config;
    use crate::constraints::ArithOp;
    use crate::search::core::Core;
    use crate::{Inference, Limits, Model, NoObserver, Outcome, Solver, VarId};
    use proptest::prelude::*;
    use std::ops::ControlFlow;

    proptest! {
        #![proptest_config(config())]

        /// `x mod c = k` with constants `c` and `k` over an `x` too wide to enumerate (over
        /// 4,096 values): mac at the root keeps exactly the values whose remainder is `k`,
        /// and the search finds one solution each, though the constraint retires after the
        /// root.
        #[test]
        fn mod_by_a_constant_over_a_wide_domain_keeps_exactly_its_residue(
            low in -7_000..=1_000i32,
            span in 4_097..=9_000i32,
            c in prop::sample::select(vec![-13, -7, -2, -1, 1, 2, 3, 5, 97]),
            k in -13..=13i32,
        ) {
            let mut model = Model::new();
            let x = model.new_var(low..=low + span).unwrap();
            let y = model.new_var(c..=c).unwrap();
            let z = model.new_var(k..=k).unwrap();
            model.arith(ArithOp::Mod, x, y, z).unwrap();
            let expected: Vec<i32> = (low..=low + span).filter(|v| v % c == k).collect();
            let root = Solver::new(&model).inference(Inference::Mac).root_domains();
            match root {
                Some(domains) => prop_assert_eq!(&domains[0], &expected),
                None => prop_assert!(expected.is_empty(), "failed with {} residues", expected.len()),
            }
            let count = Solver::new(&model).inference(Inference::Mac).count();
            prop_assert_eq!(count, expected.len() as u64);
        }
    }

    /// Under learning, a product whose `z` is too wide to keep its holes (5,001 values, over
    /// 4,096) still has exactly the solutions that multiplying every pair gives.
    #[test]
    fn a_product_with_a_wide_result_under_learning_counts_every_pair() {
        for (low, high) in [(700, 5_000), (0, 1_600), (37, 41), (1_601, 5_000)] {
            let mut model = Model::new();
            let x = model.new_var(1..=40).unwrap();
            let y = model.new_var(1..=40).unwrap();
            let z = model.new_var(0..=5_000).unwrap();
            model.times(x, y, z).unwrap();
            model
                .compare_value(z, crate::Relation::Ge, i64::from(low))
                .unwrap();
            model
                .compare_value(z, crate::Relation::Le, i64::from(high))
                .unwrap();
            let pairs = (1..=40)
                .flat_map(|a| (1..=40).map(move |b| a * b))
                .filter(|p| (low..=high).contains(p))
                .count() as u64;
            for inference in [Inference::Mac, Inference::Lcg] {
                let count = Solver::new(&model).inference(inference).count();
                assert_eq!(count, pairs, "{low}..={high} under {inference}");
            }
        }
    }

    /// Under learning, a product one of whose factors is declared with at most five values
    /// (hoist scheduling's `period * B`) keeps `z` to the products of the pairs, holes and
    /// all, however wide `z` is, until a solution is known, and then `z`'s bounds; one
    /// whose factors are wider keeps `z`'s bounds once `z` has over 128 values
    /// (template_design's `0..9 * 1..816`). Checked against the products listed pair by
    /// pair.
    #[test]
    fn a_factor_declared_with_few_values_keeps_the_products_holes_under_learning() {
        for (high, holed) in [(4, true), (9, false)] {
            let mut model = Model::new();
            let x = model.new_var(0..=high).unwrap();
            let y = model.new_var(81..=400).unwrap();
            let z = model.new_var(0..=4_000).unwrap();
            model.times(x, y, z).unwrap();
            let mut products: Vec<i32> = (0..=high)
                .flat_map(|a| (81..=400).map(move |b| a * b))
                .collect();
            products.sort_unstable();
            products.dedup();
            let hull: Vec<i32> = (products[0]..=products[products.len() - 1]).collect();
            // Reasons asked for (as learning asks): the root's propagation as learning sees it.
            let mut core = Core::new(&model, Inference::Lcg, true, &Limits::none());
            assert!(core.propagate_all(&mut NoObserver).is_ok());
            let z_root: Vec<i32> = core.store.domains.iter(z).collect();
            let expected = if holed { &products } else { &hull };
            assert_eq!(&z_root, expected, "x in 0..={high}");
            // Once a solution is known, the root's propagation keeps the bounds alone.
            let mut core = Core::new(&model, Inference::Lcg, true, &Limits::none());
            core.store.solution_known = true;
            assert!(core.propagate_all(&mut NoObserver).is_ok());
            let z_root: Vec<i32> = core.store.domains.iter(z).collect();
            assert_eq!(z_root, hull, "x in 0..={high}, a solution known");
            // A search started afresh on the same core knows no solution again.
            core.reset(&Limits::none());
            assert!(core.propagate_all(&mut NoObserver).is_ok());
            let z_root: Vec<i32> = core.store.domains.iter(z).collect();
            assert_eq!(&z_root, expected, "x in 0..={high}, after a reset");
        }
    }

    proptest! {
        #![proptest_config(config())]

        /// Under learning, three products of a period and factors declared with five values
        /// (hoist scheduling's `period * B[i]`) under two random sums: the sums' bounds jump
        /// the run of holes each product made between 0 and the period, which conflict
        /// analysis explains by the product's bounds rather than hole by hole. Every
        /// solution is found, restarting after each conflict so that nogoods outlive their
        /// branches, and the least and greatest of a free term are found and proved (the
        /// products turning to bounds reasoning after the first solution, their `z` wider
        /// than 128 values), all against the assignments listed one by one.
        #[test]
        fn learning_over_holed_products_that_sums_bound_is_exact(
            period_low in 8..=12i32,
            coefficients in prop::collection::vec(prop::sample::select(vec![-2i64, -1, 1, 2]), 8),
            lows in prop::collection::vec(-150..=150i64, 2),
            widths in prop::collection::vec(0..=60i64, 2),
        ) {
            let period_high = period_low + 40;
            let mut model = Model::new();
            let period = model.new_var(period_low..=period_high).unwrap();
            let w = model.new_var(0..=8).unwrap();
            let mut products = Vec::new();
            for _ in 0..3 {
                let b = model.new_var(0..=4).unwrap();
                let z = model.new_var(0..=4 * period_high).unwrap();
                model.times(period, b, z).unwrap();
                products.push(z);
            }
            // Two sums over the products and `w`, each within `low..=low + width`.
            let sums: Vec<Vec<(i64, VarId)>> = (0..2)
                .map(|s| {
                    let mut terms: Vec<(i64, VarId)> =
                        (0..3).map(|i| (coefficients[4 * s + i], products[i])).collect();
                    terms.push((coefficients[4 * s + 3], w));
                    terms
                })
                .collect();
            for (s, terms) in sums.iter().enumerate() {
                model.linear(terms, crate::Relation::Ge, lows[s]).unwrap();
                model.linear(terms, crate::Relation::Le, lows[s] + widths[s]).unwrap();
            }
            let mut solutions: Vec<i64> = Vec::new();
            for p in period_low..=period_high {
                for bs in 0..125 {
                    let z = [bs % 5, bs / 5 % 5, bs / 25].map(|b| i64::from(p * b));
                    for v in 0..=8i64 {
                        let fits = (0..2).all(|s| {
                            let total: i64 = (0..3).map(|i| coefficients[4 * s + i] * z[i]).sum::<i64>()
                                + coefficients[4 * s + 3] * v;
                            (lows[s]..=lows[s] + widths[s]).contains(&total)
                        });
                        if fits {
                            solutions.push(v);
                        }
                    }
                }
            }
            let count = Solver::new(&model)
                .inference(Inference::Lcg)
                .restarts(Some(1))
                .count();
            prop_assert_eq!(count, solutions.len() as u64);
            for maximise in [false, true] {
                let best = if maximise {
                    solutions.iter().max()
                } else {
                    solutions.iter().min()
                };
                let solver = Solver::new(&model).inference(Inference::Lcg).restarts(Some(1));
                let solver = if maximise { solver.maximize(w) } else { solver.minimize(w) };
                let mut last = None;
                let summary = solver.solve(|s| {
                    last = Some(i64::from(s.value(w)));
                    ControlFlow::Continue(())
                });
                prop_assert_eq!(last.as_ref(), best, "maximise {}", maximise);
                prop_assert_eq!(summary.outcome, Outcome::Exhausted);
            }
        }
    }

    /// Under learning, `x mod c = k` over more values than the residues are listed for
    /// (70,001, over 65,536) keeps bounds reasoning, and the count is still every residue.
    #[test]
    fn mod_over_a_domain_too_wide_to_list_under_learning_counts_every_residue() {
        for (c, k) in [(6, 0), (7, 3), (9_999, 12)] {
            let mut model = Model::new();
            let x = model.new_var(0..=70_000).unwrap();
            let y = model.new_var(c..=c).unwrap();
            let z = model.new_var(k..=k).unwrap();
            model.arith(ArithOp::Mod, x, y, z).unwrap();
            let expected = (0..=70_000).filter(|v| v % c == k).count() as u64;
            let count = Solver::new(&model).inference(Inference::Lcg).count();
            assert_eq!(count, expected, "x mod {c} = {k}");
        }
    }
}
