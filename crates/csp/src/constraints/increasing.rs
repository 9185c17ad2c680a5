//! `Increasing`: a sequence of variables that never goes down (or, strictly, always goes up).

use super::listed::listed;
use crate::{Atom, Conflict, Constraint, Context, VarId, Wake};

/// `xs[0] <= xs[1] <= ...` (MiniZinc's `increasing`), or with `<` throughout
/// (`strictly_increasing`); `decreasing` and `strictly_decreasing` are the same over the
/// sequence reversed.
///
/// Consistency: domain consistency over distinct variables, in two passes: forwards, each
/// variable's least value rises to its predecessor's (plus one when strict); backwards, each
/// largest value falls to its successor's. Every value left is then supported, by the least
/// values before it and the largest after. Only bounds are read and changed. Each narrowed
/// bound is explained by the neighbour's bound that caused it. Over a sequence that names a
/// variable twice, sound, and run again until nothing changes. Under `none` and `fc`, the
/// default hooks.
#[derive(Clone, Debug)]
pub struct Increasing {
    /// The sequence, in increasing order.
    xs: Vec<VarId>,
    strict: bool,
    /// Whether the user asked for the decreasing form (the sequence is stored reversed), for
    /// the description only.
    decreasing: bool,
    /// Whether a variable comes twice: one pass in each direction may then leave work.
    repeats: bool,
}

impl Increasing {
    /// `xs` in increasing order, strictly if `strict`; in decreasing order if `decreasing`.
    pub fn new(xs: &[VarId], strict: bool, decreasing: bool) -> Self {
        let mut order = xs.to_vec();
        if decreasing {
            order.reverse();
        }
        let mut sorted = xs.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        Increasing {
            repeats: sorted.len() < xs.len(),
            xs: order,
            strict,
            decreasing,
        }
    }

    /// The least step from one place to the next.
    fn step(&self) -> i64 {
        i64::from(self.strict)
    }
}

impl Constraint for Increasing {
    fn scope(&self) -> &[VarId] {
        &self.xs
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        values
            .windows(2)
            .all(|w| i64::from(w[0]) + self.step() <= i64::from(w[1]))
    }

    fn describe(&self) -> String {
        let mut names: Vec<String> = self.xs.iter().map(|x| x.to_string()).collect();
        if self.decreasing {
            names.reverse();
        }
        let name = match (self.strict, self.decreasing) {
            (false, false) => "increasing",
            (true, false) => "strictly_increasing",
            (false, true) => "decreasing",
            (true, true) => "strictly_decreasing",
        };
        format!("{name}([{}])", listed(names.into_iter(), 8, ", "))
    }

    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Bounds
    }

    fn idempotent(&self) -> bool {
        !self.repeats
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let step = self.step();
        ctx.count_checks(2 * self.xs.len() as u64);
        for pair in self.xs.windows(2) {
            let Some(low) = ctx.min(pair[0]) else {
                return Err(ctx.violated());
            };
            let least = i64::from(low) + step;
            if ctx.min(pair[1]).is_some_and(|m| i64::from(m) < least) {
                ctx.at_least_because(pair[1], least, &[Atom::Ge(pair[0], low)])?;
            }
        }
        for pair in self.xs.windows(2).rev() {
            let Some(high) = ctx.max(pair[1]) else {
                return Err(ctx.violated());
            };
            let most = i64::from(high) - step;
            if ctx.max(pair[0]).is_some_and(|m| i64::from(m) > most) {
                ctx.at_most_because(pair[0], most, &[Atom::Le(pair[1], high)])?;
            }
        }
        Ok(())
    }
}
