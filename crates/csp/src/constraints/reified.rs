//! `Reified`: a 0/1 variable equivalent to a constraint (`b <-> c`) or implying it (`b -> c`).

use super::relation::Relation;
use crate::{
    Atom, Conflict, Constraint, Context, DeclaredBounds, LinearRow, Priority, VarId, Wake,
};
use smallvec::SmallVec;
use std::fmt::Debug;

/// `sum(a * x) relation rhs`: a reifiable constraint's linear form, from which the LP
/// relaxation builds the big-M rows of its reification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearForm {
    /// The `(a, x)` terms.
    pub terms: Vec<(i64, VarId)>,
    /// How the sum compares with `rhs`.
    pub relation: Relation,
    /// The right-hand side.
    pub rhs: i64,
}

impl LinearForm {
    /// The form as `sum <= upper` inequalities (`=` as two, `!=` as none), each its terms'
    /// sign and its bound.
    fn inequalities(&self) -> SmallVec<[(i64, i64); 2]> {
        let (r, mut out) = (self.rhs, SmallVec::new());
        let le = |out: &mut SmallVec<[(i64, i64); 2]>, bound: Option<i64>| {
            if let Some(bound) = bound {
                out.push((1, bound));
            }
        };
        let ge = |out: &mut SmallVec<[(i64, i64); 2]>, bound: Option<i64>| {
            if let Some(bound) = bound.and_then(i64::checked_neg) {
                out.push((-1, bound));
            }
        };
        match self.relation {
            Relation::Le => le(&mut out, Some(r)),
            Relation::Lt => le(&mut out, r.checked_sub(1)),
            Relation::Ge => ge(&mut out, Some(r)),
            Relation::Gt => ge(&mut out, r.checked_add(1)),
            Relation::Eq => {
                le(&mut out, Some(r));
                ge(&mut out, Some(r));
            }
            Relation::Ne => {}
        }
        out
    }

    /// The rows of `literal -> form`, where the literal is `b` when `when_true` and `not b`
    /// otherwise: for each `sum <= u` of the form, with `M` the most the sum can be over the
    /// declared bounds, `sum + (M - u) * b <= M` (or `sum - (M - u) * b <= u` for `not b`),
    /// which is the form itself when the literal holds and nothing when it does not. None
    /// where the form already holds whatever the values, or a number would not fit.
    pub(crate) fn implied_by(
        &self,
        b: VarId,
        when_true: bool,
        declared: &dyn DeclaredBounds,
        rows: &mut Vec<LinearRow>,
    ) {
        for (sign, upper) in self.inequalities() {
            let mut most: i128 = 0;
            for &(a, x) in &self.terms {
                let (lo, hi) = declared.bounds(x);
                let a = i128::from(a) * i128::from(sign);
                most += (a * i128::from(lo)).max(a * i128::from(hi));
            }
            let gap = most - i128::from(upper);
            if gap <= 0 {
                continue;
            }
            let (Ok(m), Ok(gap)) = (i64::try_from(most), i64::try_from(gap)) else {
                continue;
            };
            let mut terms: Vec<(i64, VarId)> = Vec::with_capacity(self.terms.len() + 1);
            for &(a, x) in &self.terms {
                let Some(a) = a.checked_mul(sign) else {
                    return;
                };
                terms.push((a, x));
            }
            if when_true {
                terms.push((gap, b));
                rows.push(LinearRow::at_most(terms, m));
            } else {
                terms.push((-gap, b));
                rows.push(LinearRow::at_most(terms, upper));
            }
        }
    }
}

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
    /// The constraint as a [`LinearForm`], when it is one, so that its reification joins the
    /// LP relaxation as big-M rows. The default, `None`, leaves it out.
    fn linear_form(&self) -> Option<LinearForm> {
        None
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

    /// `b -> c` as the big-M rows of `c`'s linear form, and for `b <-> c` also `not b ->
    /// not c` (nothing where the negation is `!=`). A comparison of one variable that has
    /// value literals is exact over them instead: `b` is (at most, for `b -> c`) the sum of
    /// the literals of the values where `c` holds.
    fn relax(&self, declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let Some(form) = self.inner.linear_form() else {
            return;
        };
        let b = self.scope[0];
        if let [(a, x)] = form.terms[..] {
            if let Some(literals) = declared.value_literals(x) {
                let mut terms: Vec<(i64, VarId)> = literals
                    .iter()
                    .filter(|&&(v, _)| {
                        a.checked_mul(i64::from(v))
                            .is_some_and(|av| form.relation.holds(av, form.rhs))
                    })
                    .map(|&(_, y)| (1, y))
                    .collect();
                terms.push((-1, b));
                rows.push(match self.half {
                    true => LinearRow::at_least(terms, 0),
                    false => LinearRow::equal(terms, 0),
                });
                return;
            }
        }
        form.implied_by(b, true, declared, rows);
        if !self.half {
            let negation = LinearForm {
                relation: form.relation.negation(),
                ..form
            };
            negation.implied_by(b, false, declared, rows);
        }
    }

    fn describe(&self) -> String {
        let arrow = if self.half { "->" } else { "<->" };
        format!("{} {arrow} ({})", self.scope[0], self.inner.describe())
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let b = self.scope[0];
        ctx.within(b, 0, 1)?;
        // The inner constraint's removals hold given b's value: their reasons say so, built
        // as the removals are made (a sum's from the bounds at the start of its pass).
        // Explained lazily instead (67fa970: the bounds just before each change, b's atom
        // added by this constraint's explain), learning on CPMpy's npuzzle needed 7,861
        // backtracks where these reasons need 1,912 (0.96 s against 0.20 s); why is not yet
        // known, so that path was taken out again.
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

#[cfg(test)]
mod tests {
    use super::super::Compare;
    use crate::brute_force::{assert_gac, random_vars};
    use crate::{Model, Reification, Relation, SplitMix64};

    /// Reified comparisons of one variable with constants, woken on it only when a change
    /// settles them: a star of them around `x`, with `x` and some 0/1 variables cut down by
    /// constraints posted after them (so that the cuts reach the comparisons as changes, not
    /// at their first run), is a tree, where arc consistency is exactly the supported values.
    #[test]
    fn linked_comparisons_settle_as_their_variable_changes() {
        let mut rng = SplitMix64::new(29);
        let pool: Vec<i32> = (-2..=9).collect();
        for case in 0..600 {
            let mut model = Model::new();
            let x = random_vars(&mut rng, &mut model, 1, &pool, 12)[0];
            let mut bs = Vec::new();
            for _ in 0..1 + rng.below(6) {
                let b = model.new_var(0..=1).unwrap();
                let relation = Relation::ALL[rng.below(6) as usize];
                let value = rng.below(14) as i64 - 3;
                let how = if rng.below(4) == 0 {
                    Reification::Half
                } else {
                    Reification::Full
                };
                model
                    .reify(b, Compare::with_value(x, relation, value), how)
                    .unwrap();
                bs.push(b);
            }
            for _ in 0..rng.below(3) {
                let relation = Relation::ALL[rng.below(6) as usize];
                model
                    .compare_value(x, relation, rng.below(12) as i64 - 2)
                    .unwrap();
            }
            if rng.below(2) == 0 {
                let b = bs[rng.below(bs.len() as u64) as usize];
                model
                    .compare_value(b, Relation::Eq, rng.below(2) as i64)
                    .unwrap();
            }
            assert_gac(&model, &format!("case {case}"));
        }
    }
}
