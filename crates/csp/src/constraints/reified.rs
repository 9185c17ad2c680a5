//! `Reified`: a 0/1 variable equivalent to a constraint (`b <-> c`) or implying it (`b -> c`).

use crate::{Atom, Conflict, Constraint, Context, Priority, VarId, Wake};
use smallvec::SmallVec;
use std::fmt::Debug;

/// A constraint that can be reified: it can be enforced, negated, and tested for entailment.
pub trait Reifiable: Debug + Send + Sync {
    /// The variables it is on.
    fn vars(&self) -> &[VarId];
    /// Whether it holds for `values`, one per variable of [`Reifiable::vars`].
    fn holds(&self, values: &[i32]) -> bool;
    /// Removes the values that it (or, when `negated`, its negation) rules out.
    fn enforce(&self, negated: bool, ctx: &mut Context<'_>) -> Result<(), Conflict>;
    /// Whether it (or its negation) holds whatever values the variables take.
    fn entailed(&self, negated: bool, ctx: &Context<'_>) -> bool;
    /// A short description, such as `x <= 3`.
    fn describe(&self) -> String;
    /// The weakest change of `var` after which enforcing it or its negation, or testing
    /// either for entailment, can do something new. The default, [`Wake::Domain`], is always
    /// right; inequalities read bounds only.
    fn wake_on(&self, var: VarId) -> Wake {
        let _ = var;
        Wake::Domain
    }
}

/// `b <-> c` (full reification) or `b -> c` (half), with `b` in 0..=1.
///
/// Consistency: domain consistency on `b`, which is fixed once `c` is entailed or disentailed;
/// on `c`'s variables, `c`'s own (or its negation's) once `b` is fixed. Values of `b` other
/// than 0 and 1 are removed at once. Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct Reified<C> {
    /// `b`, then `c`'s variables.
    scope: SmallVec<[VarId; 4]>,
    inner: C,
    half: bool,
}

impl<C: Reifiable> Reified<C> {
    /// `b <-> inner`, or `b -> inner` when `half`.
    pub fn new(b: VarId, inner: C, half: bool) -> Self {
        let mut scope = SmallVec::new();
        scope.push(b);
        scope.extend_from_slice(inner.vars());
        Reified { scope, inner, half }
    }
}

impl<C: Reifiable> Constraint for Reified<C> {
    fn priority(&self) -> Priority {
        if self.scope.len() <= 3 {
            Priority::Cheap
        } else {
            Priority::Linear
        }
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// `b` matters once fixed; the inner constraint's variables as it says.
    fn wake_on(&self, var: VarId) -> Wake {
        // Domain < Bounds < Fixed: the smaller asks to be woken more often.
        if self.inner.vars().contains(&var) {
            Wake::Fixed.min(self.inner.wake_on(var))
        } else {
            Wake::Fixed
        }
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let holds = self.inner.holds(&values[1..]);
        match values[0] {
            1 => holds,
            0 => self.half || !holds,
            _ => false,
        }
    }

    fn describe(&self) -> String {
        let arrow = if self.half { "->" } else { "<->" };
        format!("{} {arrow} ({})", self.scope[0], self.inner.describe())
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let b = self.scope[0];
        ctx.set_min(b, 0)?;
        ctx.set_max(b, 1)?;
        // The inner constraint's removals hold given b's value: their reasons say so.
        match ctx.fixed_value(b) {
            Some(1) => ctx.given(Atom::Eq(b, 1), |ctx| self.inner.enforce(false, ctx)),
            Some(_) if self.half => Ok(()),
            Some(_) => ctx.given(Atom::Eq(b, 0), |ctx| self.inner.enforce(true, ctx)),
            None => {
                ctx.count_checks(1);
                if self.inner.entailed(true, ctx) {
                    ctx.fix(b, 0)?;
                } else if !self.half && self.inner.entailed(false, ctx) {
                    ctx.fix(b, 1)?;
                }
                Ok(())
            }
        }
    }
}
