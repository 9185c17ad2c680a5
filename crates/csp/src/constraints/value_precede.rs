//! `ValuePrecede`: in a sequence of variables, the value `t` occurs only after some occurrence
//! of the value `s` (symmetry breaking between interchangeable values).

use super::listed::listed;
use crate::{Atom, Conflict, Constraint, Context, VarId};
use smallvec::SmallVec;

/// The first `x_i` equal to `t`, if any, comes after some `x_j` equal to `s` (MiniZinc's
/// `value_precede`; `value_precede_chain` is one per consecutive pair of its values).
///
/// Under `mac` it is domain consistent over distinct variables, after Law and Lee (CP 2004),
/// in one pass: with `p` the first place that can take `s` and `q` the first fixed to `t`,
/// no place up to `p` may take `t`, and if no place other than `p` can take `s` before `q`,
/// `p` must. Under `none` and `fc` it waits until all but one place are settled.
#[derive(Clone, Debug)]
pub struct ValuePrecede {
    s: i32,
    t: i32,
    xs: Vec<VarId>,
}

impl ValuePrecede {
    /// `s` occurs before the first `t` in `xs`.
    pub fn new(s: i32, t: i32, xs: &[VarId]) -> Self {
        ValuePrecede {
            s,
            t,
            xs: xs.to_vec(),
        }
    }

    /// `x_k != s` for the places before `end` other than `skip`: no earlier place takes `s`.
    fn no_s_before(&self, end: usize, skip: Option<usize>) -> SmallVec<[Atom; 8]> {
        self.xs[..end]
            .iter()
            .enumerate()
            .filter(|&(k, _)| Some(k) != skip)
            .map(|(_, &x)| Atom::Ne(x, self.s))
            .collect()
    }
}

impl Constraint for ValuePrecede {
    fn scope(&self) -> &[VarId] {
        &self.xs
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        if self.s == self.t {
            return true;
        }
        match values.iter().position(|&v| v == self.t) {
            None => true,
            Some(first_t) => values[..first_t].contains(&self.s),
        }
    }

    fn describe(&self) -> String {
        let xs = listed(self.xs.iter().map(|x| x.to_string()), 6, ", ");
        format!("value_precede({}, {}, [{xs}])", self.s, self.t)
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if self.s == self.t {
            return Ok(());
        }
        let n = self.xs.len();
        if n == 0 {
            return Ok(());
        }
        ctx.count_checks(n as u64);
        let p = self.xs.iter().position(|&x| ctx.contains(x, self.s));
        let q = self
            .xs
            .iter()
            .position(|&x| ctx.fixed_value(x) == Some(self.t));
        if let Some(q) = q {
            if p.is_none_or(|p| p > q) {
                // A `t` with no place before it that can take `s`.
                return Err(ctx.violated());
            }
        }
        // Up to p, no earlier place can take `s`, so none may take `t`.
        for i in 0..=p.unwrap_or(n - 1) {
            if ctx.contains(self.xs[i], self.t) {
                let reason = if ctx.explaining() {
                    self.no_s_before(i, None)
                } else {
                    SmallVec::new()
                };
                ctx.remove_because(self.xs[i], self.t, &reason)?;
            }
        }
        if let (Some(p), Some(q)) = (p, q) {
            let other = self.xs[p + 1..q].iter().any(|&x| ctx.contains(x, self.s));
            if !other {
                // Only p can put an `s` before the `t` at q.
                let reason = if ctx.explaining() {
                    let mut reason = self.no_s_before(q, Some(p));
                    reason.push(Atom::Eq(self.xs[q], self.t));
                    reason
                } else {
                    SmallVec::new()
                };
                ctx.fix_because(self.xs[p], self.s, &reason)?;
            }
        }
        Ok(())
    }
}
