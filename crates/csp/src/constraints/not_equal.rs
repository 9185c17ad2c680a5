//! `NotEqual`: x != y + c, the column (c = 0) and diagonal constraints of N-Queens.

use crate::{Atom, Checkable, Conflict, Constraint, Context, Priority, VarId, Wake};

/// `x != y + offset`. With offset 0 this is plain `x != y`.
#[derive(Clone, Debug)]
pub struct NotEqual {
    scope: [VarId; 2],
    offset: i32,
}

impl NotEqual {
    /// `x != y + offset`.
    pub fn new(x: VarId, y: VarId, offset: i32) -> Self {
        NotEqual {
            scope: [x, y],
            offset,
        }
    }

    /// Given one end's value, the value the other end must not take.
    #[inline]
    fn forbidden_for_other(&self, var: VarId, value: i32) -> (VarId, i64) {
        let [x, y] = self.scope;
        if var == x {
            (y, i64::from(value) - i64::from(self.offset))
        } else {
            (x, i64::from(value) + i64::from(self.offset))
        }
    }

    /// Removes from the other end the one value that `var = value` rules out.
    #[inline]
    fn exclude(&self, var: VarId, value: i32, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (other, forbidden) = self.forbidden_for_other(var, value);
        ctx.count_checks(1);
        if let Ok(forbidden) = i32::try_from(forbidden) {
            ctx.remove_because(other, forbidden, &[Atom::Eq(var, value)])?;
        }
        Ok(())
    }
}

impl Constraint for NotEqual {
    /// It acts only once a side is fixed.
    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Fixed
    }

    fn priority(&self) -> Priority {
        Priority::Cheap
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        i64::from(values[0]) != i64::from(values[1]) + i64::from(self.offset)
    }

    fn contradiction(&self) -> Option<String> {
        let [x, y] = self.scope;
        (x == y && self.offset == 0).then(|| format!("{} can never hold", self.describe()))
    }

    /// `x != y` is an all-different over two; with an offset the checker has no form for it.
    fn checkable(&self) -> Option<Checkable> {
        let [x, y] = self.scope;
        (self.offset == 0 && x != y).then(|| Checkable::AllDifferent(vec![x, y]))
    }

    fn describe(&self) -> String {
        let [x, y] = self.scope;
        match self.offset {
            0 => format!("{x} != {y}"),
            c if c > 0 => format!("{x} != {y} + {c}"),
            c => format!("{x} != {y} - {}", -i64::from(c)),
        }
    }

    fn check_assigned(&self, _var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let [x, y] = self.scope;
        if let (Some(a), Some(b)) = (ctx.assigned_value(x), ctx.assigned_value(y)) {
            ctx.count_checks(1);
            if !self.is_satisfied(&[a, b]) {
                return Err(ctx.violated());
            }
        }
        Ok(())
    }

    fn forward_check(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if self.scope[0] == self.scope[1] {
            // x != x + c holds for every value when c != 0 and for none when c == 0.
            return self.check_assigned(var, ctx);
        }
        let (other, _) = self.forbidden_for_other(var, 0);
        match ctx.assigned_value(var) {
            Some(value) if !ctx.is_assigned(other) => self.exclude(var, value, ctx),
            _ => Ok(()),
        }
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        if self.scope[0] == self.scope[1] {
            ctx.count_checks(1);
            return if self.offset == 0 {
                Err(ctx.violated())
            } else {
                Ok(())
            };
        }
        for var in self.scope {
            if let Some(value) = ctx.fixed_value(var) {
                self.exclude(var, value, ctx)?;
            }
        }
        Ok(())
    }
}
