//! `IntegerInequality`: rows of the model combined by integer multipliers into one
//! inequality `sum(c_j x_j) <= r`, exactly, and filtered on bounds with reasons.
//!
//! This is what makes the LP sound: the simplex's floating-point duals (or its Farkas row)
//! only suggest multipliers; they are scaled and rounded to integers, each one checked to use
//! a side the row really has, and the combination is recomputed in 128-bit integers. Any
//! such combination is implied by the model, so what bounds reasoning then derives from it
//! (a bound on the objective, reduced-cost fixing, a failure) is implied too, with the
//! variables' bounds as its reason, as any linear constraint explains. A rounding error can
//! only weaken it: CP-SAT's `PropagateExactLpReason` does the same.

use crate::{Atom, Conflict, Context, VarId};
use smallvec::SmallVec;

/// One row of the relaxation: `lower <= sum(a * x_column) <= upper`, either side optional.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct IntegerRow {
    pub(crate) terms: Vec<(usize, i64)>,
    pub(crate) lower: Option<i64>,
    pub(crate) upper: Option<i64>,
}

/// The largest multiplier after scaling: large enough that rounding loses little of the
/// duals, small enough that the combined coefficients stay far inside 128 bits.
const SCALE_TARGET: f64 = (1u64 << 30) as f64;

/// `sum(coefficients[j] * x_j) <= rhs` over the relaxation's columns, in integers.
#[derive(Clone, Debug, Default)]
pub(crate) struct IntegerInequality {
    /// A dense coefficient per column (most are zero in a small relaxation).
    pub(crate) coefficients: Vec<i128>,
    pub(crate) rhs: i128,
}

impl IntegerInequality {
    /// The combination of `rows` by `multipliers` (one per row, any sign): a positive one
    /// takes the row's upper side, a negative one its lower side, and a row without that side
    /// is left out. Multipliers are scaled so the largest is about 2^30 and rounded; the
    /// result is divided by the gcd of its coefficients, the right-hand side rounded down
    /// (valid over integers). `None` when nothing is left or a number would not fit.
    pub(crate) fn combine<'r>(
        &mut self,
        rows: impl IntoIterator<Item = &'r IntegerRow>,
        multipliers: &[f64],
        columns: usize,
    ) -> Option<()> {
        let largest = multipliers
            .iter()
            .filter(|m| m.is_finite())
            .fold(0.0f64, |a, m| a.max(m.abs()));
        if largest <= 0.0 {
            return None;
        }
        // A power of two, so scaling itself is exact.
        let scale = (SCALE_TARGET / largest).log2().floor().exp2();
        self.coefficients.clear();
        self.coefficients.resize(columns, 0);
        self.rhs = 0;
        let mut any = false;
        for (row, &m) in rows.into_iter().zip(multipliers) {
            if !m.is_finite() {
                continue;
            }
            let lambda = (m * scale).round();
            if lambda == 0.0 {
                continue;
            }
            let lambda = lambda as i128;
            let side = if lambda > 0 { row.upper } else { row.lower };
            let Some(side) = side else { continue };
            for &(j, a) in &row.terms {
                let term = lambda.checked_mul(i128::from(a))?;
                self.coefficients[j] = self.coefficients[j].checked_add(term)?;
            }
            self.rhs = self
                .rhs
                .checked_add(lambda.checked_mul(i128::from(side))?)?;
            any = true;
        }
        if !any {
            return None;
        }
        let g = self
            .coefficients
            .iter()
            .fold(0u128, |g, &c| gcd(g, c.unsigned_abs()));
        if g > 1 {
            let g = g as i128;
            self.coefficients.iter_mut().for_each(|c| *c /= g);
            self.rhs = self.rhs.div_euclid(g);
        }
        Some(())
    }

    /// One side of one row as the inequality: its upper side, or its lower side negated
    /// (`-sum <= -lower`) when `lower`; `None` when the row has no such side.
    pub(crate) fn set_to_row(
        &mut self,
        row: &IntegerRow,
        lower: bool,
        columns: usize,
    ) -> Option<()> {
        let side = if lower { row.lower } else { row.upper }?;
        let sign: i128 = if lower { -1 } else { 1 };
        self.coefficients.clear();
        self.coefficients.resize(columns, 0);
        for &(j, a) in &row.terms {
            self.coefficients[j] += sign * i128::from(a);
        }
        self.rhs = sign * i128::from(side);
        Some(())
    }

    /// Bounds reasoning on the inequality over the current domains of `vars` (column `j` is
    /// `vars[j]`): a conflict when even the least left-hand side exceeds the right-hand
    /// side, else each variable's bound cut to what the slack allows. Each conclusion's
    /// reason is the bounds of the other variables it rests on. Returns how many bounds it
    /// moved (none, inferring nothing, when a number would not fit).
    pub(crate) fn propagate(
        &self,
        vars: &[VarId],
        ctx: &mut Context<'_>,
        reason: &mut Vec<Atom>,
    ) -> Result<u32, Conflict> {
        let mut bounds: SmallVec<[(usize, i32, i32); 32]> = SmallVec::new();
        let mut least: i128 = 0;
        for (j, &c) in self.coefficients.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let (Some(lo), Some(hi)) = (ctx.min(vars[j]), ctx.max(vars[j])) else {
                return Ok(0);
            };
            let at = if c > 0 { lo } else { hi };
            let Some(term) = c.checked_mul(i128::from(at)) else {
                return Ok(0);
            };
            let Some(sum) = least.checked_add(term) else {
                return Ok(0);
            };
            least = sum;
            bounds.push((j, lo, hi));
        }
        let explaining = ctx.explaining();
        // The atom each variable contributes to a reason: the bound its least term rests on.
        let atom = |j: usize, lo: i32, hi: i32| {
            if self.coefficients[j] > 0 {
                Atom::Ge(vars[j], lo)
            } else {
                Atom::Le(vars[j], hi)
            }
        };
        if least > self.rhs {
            reason.clear();
            if explaining {
                reason.extend(bounds.iter().map(|&(j, lo, hi)| atom(j, lo, hi)));
            }
            return Err(ctx.violated_because(reason));
        }
        let slack = self.rhs - least;
        let mut moved = 0;
        for (at, &(j, lo, hi)) in bounds.iter().enumerate() {
            let c = self.coefficients[j];
            let span = i128::from(hi) - i128::from(lo);
            // The term can grow by |c| per unit from its least; slack is all it may grow.
            let room = slack / c.abs();
            if room >= span {
                continue;
            }
            reason.clear();
            if explaining {
                reason.extend(
                    bounds
                        .iter()
                        .enumerate()
                        .filter(|&(other, _)| other != at)
                        .map(|(_, &(k, l, h))| atom(k, l, h)),
                );
            }
            let room = room as i64; // less than span, which fits in 33 bits
            let changed = if c > 0 {
                ctx.at_most_because(vars[j], i64::from(lo) + room, reason)?
            } else {
                ctx.at_least_because(vars[j], i64::from(hi) - room, reason)?
            };
            if changed > 0 {
                moved += 1;
            }
        }
        Ok(moved)
    }
}

/// The greatest common divisor (0 with 0).
pub(crate) fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::{IntegerInequality, IntegerRow};

    #[test]
    fn rows_combine_by_their_real_sides_and_round_down_after_the_gcd() {
        // 2x + 2y <= 5 (an upper side only) and x - y = 1.
        let rows = vec![
            IntegerRow {
                terms: vec![(0, 2), (1, 2)],
                lower: None,
                upper: Some(5),
            },
            IntegerRow {
                terms: vec![(0, 1), (1, -1)],
                lower: Some(1),
                upper: Some(1),
            },
        ];
        let mut ineq = IntegerInequality::default();
        // 1 * first: 2x + 2y <= 5, by the gcd x + y <= 2.
        ineq.combine(&rows, &[1.0, 0.0], 2).unwrap();
        assert_eq!((ineq.coefficients.clone(), ineq.rhs), (vec![1, 1], 2));
        // A negative multiplier on the first row would need a lower side it does not have.
        assert!(ineq.combine(&rows, &[-1.0, 0.0], 2).is_none());
        // first + 2 * second: 4x <= 7, so x <= 1.
        ineq.combine(&rows, &[0.5, 1.0], 2).unwrap();
        assert_eq!((ineq.coefficients.clone(), ineq.rhs), (vec![1, 0], 1));
    }
}
