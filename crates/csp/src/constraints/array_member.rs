//! `ArrayMember`: a variable equals one of an array of variables.

use super::listed::listed;
use crate::{Conflict, Constraint, Context, VarId};

/// `y = xs[i]` for some `i` (MiniZinc's `member` over an array of variables).
///
/// Consistency: domain consistency over distinct variables: `y` keeps the values some `x`
/// can take; while two or more `xs` can meet `y`, every value of theirs has a support; once
/// only one can, it and `y` keep the values they share. The removals carry no reason yet.
/// Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct ArrayMember {
    /// `xs`, then `y`.
    scope: Vec<VarId>,
}

/// Buffers reused between runs: every range of every `x`.
#[derive(Default)]
struct Scratch {
    ranges: Vec<(i64, i64)>,
}

impl ArrayMember {
    /// `y` equals one of `xs`.
    pub fn new(xs: &[VarId], y: VarId) -> Self {
        let mut scope = xs.to_vec();
        scope.push(y);
        ArrayMember { scope }
    }

    fn xs(&self) -> &[VarId] {
        &self.scope[..self.scope.len() - 1]
    }

    fn y(&self) -> VarId {
        self.scope[self.scope.len() - 1]
    }

    fn filter(&self, s: &mut Scratch, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let y = self.y();
        s.ranges.clear();
        for &x in self.xs() {
            s.ranges.extend(
                ctx.ranges(x)
                    .map(|(low, high)| (i64::from(low), i64::from(high))),
            );
        }
        // Sorted, overlapping runs are what keep_only reads.
        s.ranges.sort_unstable();
        ctx.keep_only(y, s.ranges.iter().copied())?;
        ctx.count_checks(self.xs().len() as u64);
        let mut meeting = self.xs().iter().filter(|&&x| ctx.intersects(x, y, 0));
        let (one, two) = (meeting.next(), meeting.next());
        match (one, two) {
            (None, _) => Err(ctx.violated()),
            (Some(&x), None) => ctx.keep_equal(x, y, 0).map(|_| ()),
            _ => Ok(()),
        }
    }
}

impl Constraint for ArrayMember {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (xs, y) = values.split_at(values.len() - 1);
        xs.contains(&y[0])
    }

    fn describe(&self) -> String {
        let xs = listed(self.xs().iter().map(|x| x.to_string()), 6, ", ");
        format!("{} in [{xs}]", self.y())
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.with_scratch(|ctx, scratch: &mut Scratch| self.filter(scratch, ctx))
    }
}
