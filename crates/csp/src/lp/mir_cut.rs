//! Mixed-integer rounding (MIR) of an exact integer inequality: the cut that the root LP
//! adds to itself where its optimum is fractional.
//!
//! Every column of the relaxation is an integer variable, so MIR needs no continuous part:
//! with each variable complemented to its nearer bound (`y = x - l` or `y = u - x`, both
//! non-negative integers) the inequality reads `sum(a y) <= b`; for a divisor `d > 0` with
//! `b = d q + r`, `0 < r < d`, and `a_j = d q_j + r_j`, every non-negative integer `y` also
//! satisfies `sum(((d - r) q_j + max(0, r_j - r)) y_j) <= (d - r) q` (Nemhauser and Wolsey;
//! Marchand and Wolsey, "Aggregation and mixed integer rounding to solve MIPs", 2001, whose
//! choice of divisors this follows: each coefficient of a variable strictly between its
//! bounds at the LP optimum, then the best one halved three times). It is computed here in
//! 128-bit integers from an inequality that is itself an exact combination of the model's
//! rows over bounds that hold at the root, so the cut is implied by the model whatever the
//! floating-point LP did: the LP's values only choose which cut.

use super::integer_inequality::{gcd, IntegerInequality, IntegerRow};

/// A cut must be violated at the LP optimum by this much, over the norm of its
/// coefficients, to be worth a row.
const LEAST_EFFICACY: f64 = 1e-4;
/// The most divisors tried for one inequality.
const MOST_DIVISORS: usize = 8;
/// The largest coefficient a cut may keep after its gcd is divided out: a cut of huge
/// coefficients is one the floating-point LP cannot use well (a pivot on it loses the
/// digits the rest of the basis needs), and one whose exact combinations overflow sooner.
const LARGEST_COEFFICIENT: i64 = 1 << 20;

/// The most violated MIR cut of `base` (`sum(c_j x_j) <= rhs` over columns with `bounds`
/// that hold wherever the cut is to hold, and LP values `values`), as a row
/// `sum(e_j x_j) <= f`, with its efficacy (violation over norm at `values`); `None` when no
/// divisor gives a cut violated enough or a number would not fit.
pub(crate) fn mir_cut(
    base: &IntegerInequality,
    bounds: &[(i64, i64)],
    values: &[f64],
) -> Option<(IntegerRow, f64)> {
    let lower = |j: usize| bounds[j].0;
    let upper = |j: usize| bounds[j].1;
    // Complement each variable to its nearer bound: y_j = x_j - l_j or u_j - x_j.
    let mut terms: Vec<(usize, i128, bool)> = Vec::new(); // (column, a_j, complemented to upper)
    let mut b = base.rhs;
    for (j, &c) in base.coefficients.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let (l, u) = (i128::from(lower(j)), i128::from(upper(j)));
        if l == u {
            b = b.checked_sub(c.checked_mul(l)?)?;
            continue;
        }
        let to_upper = upper(j) as f64 - values[j] < values[j] - lower(j) as f64;
        if to_upper {
            b = b.checked_sub(c.checked_mul(u)?)?;
            terms.push((j, -c, true));
        } else {
            b = b.checked_sub(c.checked_mul(l)?)?;
            terms.push((j, c, false));
        }
    }
    let y = |j: usize, up: bool| {
        if up {
            upper(j) as f64 - values[j]
        } else {
            values[j] - lower(j) as f64
        }
    };
    // Divisors: the coefficients of the variables strictly inside their bounds, largest
    // value of y first.
    let mut inside: Vec<(f64, i128)> = terms
        .iter()
        .filter(|&&(j, a, up)| {
            a != 0 && y(j, up) > 1e-6 && y(j, up) < (upper(j) - lower(j)) as f64 - 1e-6
        })
        .map(|&(j, a, up)| (y(j, up), a.abs()))
        .collect();
    inside.sort_by(|p, q| q.0.total_cmp(&p.0));
    let mut divisors: Vec<i128> = Vec::new();
    for (_, d) in inside {
        if !divisors.contains(&d) {
            divisors.push(d);
        }
        if divisors.len() >= MOST_DIVISORS {
            break;
        }
    }
    let evaluate = |d: i128| -> Option<(Vec<i128>, i128, f64)> {
        let (q, r) = (b.div_euclid(d), b.rem_euclid(d));
        if r == 0 {
            return None;
        }
        let mut coefficients = Vec::with_capacity(terms.len());
        let (mut lhs, mut norm) = (0.0f64, 0.0f64);
        for &(j, a, up) in &terms {
            let (qj, rj) = (a.div_euclid(d), a.rem_euclid(d));
            let g = (d - r).checked_mul(qj)?.checked_add((rj - r).max(0))?;
            lhs += g as f64 * y(j, up);
            norm += (g as f64) * (g as f64);
            coefficients.push(g);
        }
        let rhs = (d - r).checked_mul(q)?;
        let efficacy = (lhs - rhs as f64) / norm.sqrt().max(1e-12);
        Some((coefficients, rhs, efficacy))
    };
    let mut best: Option<(Vec<i128>, i128, f64, i128)> = None;
    for &d in &divisors {
        if let Some((g, rhs, e)) = evaluate(d) {
            if best.as_ref().is_none_or(|b| e > b.2) {
                best = Some((g, rhs, e, d));
            }
        }
    }
    if let Some(d) = best.as_ref().map(|b| b.3) {
        for k in 1..=3 {
            let half = d >> k;
            if half > 0 {
                if let Some((g, rhs, e)) = evaluate(half) {
                    if best.as_ref().is_none_or(|b| e > b.2) {
                        best = Some((g, rhs, e, half));
                    }
                }
            }
        }
    }
    let (g, mut rhs, efficacy, _) = best?;
    if efficacy < LEAST_EFFICACY {
        return None;
    }
    // Back to x: g y = g (x - l) or g (u - x).
    let mut row: Vec<(usize, i128)> = Vec::with_capacity(terms.len());
    for (&(j, _, up), &gj) in terms.iter().zip(&g) {
        if gj == 0 {
            continue;
        }
        if up {
            rhs = rhs.checked_sub(gj.checked_mul(i128::from(upper(j)))?)?;
            row.push((j, -gj));
        } else {
            rhs = rhs.checked_add(gj.checked_mul(i128::from(lower(j)))?)?;
            row.push((j, gj));
        }
    }
    let divisor = row
        .iter()
        .fold(0u128, |g, &(_, c)| gcd(g, c.unsigned_abs()));
    if divisor == 0 {
        return None;
    }
    let divisor = divisor as i128;
    let terms = row
        .into_iter()
        .map(|(j, c)| i64::try_from(c / divisor).ok().map(|c| (j, c)))
        .collect::<Option<Vec<_>>>()?;
    let upper = i64::try_from(rhs.div_euclid(divisor)).ok()?;
    if terms.len() < 2 || terms.iter().any(|&(_, c)| c.abs() > LARGEST_COEFFICIENT) {
        return None;
    }
    Some((
        IntegerRow {
            terms,
            lower: None,
            upper: Some(upper),
        },
        efficacy,
    ))
}

#[cfg(test)]
mod tests {
    use super::mir_cut;
    use crate::lp::integer_inequality::IntegerInequality;

    /// Every cut holds on every integer point of the box that satisfies its base
    /// inequality (brute force over small random inequalities and LP points).
    #[test]
    fn every_cut_holds_on_the_integer_points_of_its_base() {
        let mut state = 11u64;
        let mut next = |k: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % k
        };
        let mut cuts = 0;
        for _ in 0..4000 {
            let n = 2 + next(2) as usize;
            let lower: Vec<i64> = (0..n).map(|_| next(4) as i64 - 2).collect();
            let upper: Vec<i64> = lower.iter().map(|&l| l + 1 + next(3) as i64).collect();
            let base = IntegerInequality {
                coefficients: (0..n).map(|_| next(19) as i128 - 9).collect(),
                rhs: next(21) as i128 - 10,
            };
            let values: Vec<f64> = (0..n)
                .map(|j| {
                    lower[j] as f64 + (upper[j] - lower[j]) as f64 * (next(1000) as f64 / 1000.0)
                })
                .collect();
            let bounds: Vec<(i64, i64)> =
                lower.iter().copied().zip(upper.iter().copied()).collect();
            let Some((cut, _)) = mir_cut(&base, &bounds, &values) else {
                continue;
            };
            cuts += 1;
            // Every integer point of the box.
            let mut point = lower.clone();
            loop {
                let holds = |c: &[i128], r: i128| {
                    c.iter()
                        .zip(&point)
                        .map(|(&a, &x)| a * i128::from(x))
                        .sum::<i128>()
                        <= r
                };
                if holds(&base.coefficients, base.rhs) {
                    let lhs: i128 = cut
                        .terms
                        .iter()
                        .map(|&(j, a)| i128::from(a) * i128::from(point[j]))
                        .sum();
                    assert!(
                        lhs <= i128::from(cut.upper.unwrap()),
                        "cut {cut:?} of {base:?} fails at {point:?}"
                    );
                }
                let mut k = 0;
                while k < n && point[k] == upper[k] {
                    point[k] = lower[k];
                    k += 1;
                }
                if k == n {
                    break;
                }
                point[k] += 1;
            }
        }
        println!("{cuts} cuts checked");
        assert!(cuts > 500, "only {cuts} cuts");
    }
}
