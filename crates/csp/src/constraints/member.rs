//! `Member`: `x in S` for a set of values `S`.

use super::listed::listed;
use super::reified::Reifiable;
use crate::{Conflict, Constraint, Context, Priority, VarId};

/// `x in S`, `S` a set of values.
///
/// Consistency: domain consistency (the values outside `S` go, ranges of them a word at a
/// time). Under `none` and `fc` it checks `x` once assigned.
#[derive(Clone, Debug)]
pub struct Member {
    var: [VarId; 1],
    /// `S`, sorted, without repeats.
    values: Vec<i32>,
}

impl Member {
    /// `x in values` (in any order, repeats allowed).
    pub fn new(x: VarId, values: &[i32]) -> Self {
        let mut values = values.to_vec();
        values.sort_unstable();
        values.dedup();
        Member { var: [x], values }
    }

    fn contains(&self, value: i32) -> bool {
        self.values.binary_search(&value).is_ok()
    }

    /// Keeps only `x`'s values in `S`, or only those outside when `negated`.
    fn keep(&self, negated: bool, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let x = self.var[0];
        ctx.count_checks(1);
        if negated {
            for &v in &self.values {
                ctx.remove(x, v)?;
            }
            return Ok(());
        }
        // The gaps of S go, below its first value, between two values, above its last.
        ctx.keep_only(x, self.runs()).map(|_| ())
    }

    /// `S` as runs of consecutive values, smallest first.
    fn runs(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        let mut i = 0;
        std::iter::from_fn(move || {
            let first = *self.values.get(i)?;
            let mut last = first;
            i += 1;
            while self
                .values
                .get(i)
                .is_some_and(|&v| i64::from(v) == i64::from(last) + 1)
            {
                last = self.values[i];
                i += 1;
            }
            Some((i64::from(first), i64::from(last)))
        })
    }

    /// How many values of `S` lie in `a..=b`.
    fn count_within(&self, a: i32, b: i32) -> u64 {
        let from = self.values.partition_point(|&v| v < a);
        let to = self.values.partition_point(|&v| v <= b);
        (to - from) as u64
    }
}

impl Constraint for Member {
    fn priority(&self) -> Priority {
        Priority::Cheap
    }

    fn scope(&self) -> &[VarId] {
        &self.var
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        self.contains(values[0])
    }

    fn contradiction(&self) -> Option<String> {
        self.values.is_empty().then(|| {
            format!(
                "{} can never hold: the set is empty",
                Reifiable::describe(self)
            )
        })
    }

    fn describe(&self) -> String {
        Reifiable::describe(self)
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.keep(false, ctx)
    }
}

impl Reifiable for Member {
    fn vars(&self) -> &[VarId] {
        &self.var
    }

    fn holds(&self, values: &[i32]) -> bool {
        self.contains(values[0])
    }

    fn enforce(&self, negated: bool, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.keep(negated, ctx)
    }

    fn entailed(&self, negated: bool, ctx: &Context<'_>) -> bool {
        let x = self.var[0];
        // Run by run, so that a wide domain costs its runs, not its values.
        if negated {
            ctx.ranges(x).all(|(a, b)| self.count_within(a, b) == 0)
        } else {
            ctx.ranges(x)
                .all(|(a, b)| self.count_within(a, b) == (i64::from(b) - i64::from(a) + 1) as u64)
        }
    }

    fn describe(&self) -> String {
        format!(
            "{} in {{{}}}",
            self.var[0],
            listed(self.values.iter(), 8, ", ")
        )
    }
}
