//! `Binary`: a constraint on two variables given by a predicate or by a table of allowed pairs.

use crate::{Conflict, Constraint, Context, Priority, VarId};
use std::collections::HashSet;
use std::fmt;

/// How the allowed pairs are known.
enum Relation {
    Predicate(Box<dyn Fn(i32, i32) -> bool + Send + Sync>),
    Table(HashSet<(i32, i32)>),
}

/// A binary constraint in extension (a table of allowed pairs) or in intension (a predicate):
/// the textbook form of a CSP constraint, filtered by AC-3's `revise` under `mac`.
pub struct Binary {
    scope: [VarId; 2],
    relation: Relation,
    label: String,
}

impl fmt::Debug for Binary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.label)
    }
}

impl Binary {
    /// Allows exactly the pairs `(x, y)` for which `allowed(x, y)` is true.
    pub fn predicate(
        x: VarId,
        y: VarId,
        allowed: impl Fn(i32, i32) -> bool + Send + Sync + 'static,
    ) -> Self {
        Binary {
            scope: [x, y],
            relation: Relation::Predicate(Box::new(allowed)),
            label: format!("relation({x}, {y})"),
        }
    }

    /// Allows exactly the listed pairs `(x, y)`.
    pub fn table(x: VarId, y: VarId, pairs: impl IntoIterator<Item = (i32, i32)>) -> Self {
        Binary {
            scope: [x, y],
            relation: Relation::Table(pairs.into_iter().collect()),
            label: format!("table({x}, {y})"),
        }
    }

    /// Replaces the description shown in traces.
    pub fn named(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    #[inline]
    fn allows(&self, a: i32, b: i32) -> bool {
        match &self.relation {
            Relation::Predicate(f) => f(a, b),
            Relation::Table(pairs) => pairs.contains(&(a, b)),
        }
    }

    /// Whether the pair with `var = value` and its partner `= other_value` is allowed.
    #[inline]
    fn allows_from(&self, var_is_x: bool, value: i32, other_value: i32) -> bool {
        if var_is_x {
            self.allows(value, other_value)
        } else {
            self.allows(other_value, value)
        }
    }

    /// AC-3's revise: removes the values of one end that have no support in the other.
    fn revise(&self, revised_is_x: bool, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let [x, y] = self.scope;
        if x == y {
            // Both ends are one variable: a value is its own only support.
            for a in ctx.values_vec(x) {
                ctx.count_checks(1);
                if !self.allows(a, a) {
                    ctx.remove(x, a)?;
                }
            }
            return Ok(());
        }
        let (revised, support) = if revised_is_x { (x, y) } else { (y, x) };
        for a in ctx.values_vec(revised) {
            let mut supported = false;
            for b in ctx.values_vec(support) {
                ctx.count_checks(1);
                if self.allows_from(revised_is_x, a, b) {
                    supported = true;
                    break;
                }
            }
            if !supported {
                ctx.remove(revised, a)?;
            }
        }
        Ok(())
    }
}

impl Constraint for Binary {
    fn priority(&self) -> Priority {
        Priority::Cheap
    }

    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        self.allows(values[0], values[1])
    }

    fn describe(&self) -> String {
        self.label.clone()
    }

    fn check_assigned(&self, _var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let [x, y] = self.scope;
        if let (Some(a), Some(b)) = (ctx.assigned_value(x), ctx.assigned_value(y)) {
            ctx.count_checks(1);
            if !self.allows(a, b) {
                return Err(ctx.violated());
            }
        }
        Ok(())
    }

    fn forward_check(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let [x, y] = self.scope;
        let var_is_x = var == x;
        let other = if var_is_x { y } else { x };
        let Some(value) = ctx.assigned_value(var) else {
            return Ok(());
        };
        if other == var {
            ctx.count_checks(1);
            return if self.allows(value, value) {
                Ok(())
            } else {
                Err(ctx.violated())
            };
        }
        if ctx.is_assigned(other) {
            return Ok(());
        }
        for b in ctx.values_vec(other) {
            ctx.count_checks(1);
            if !self.allows_from(var_is_x, value, b) {
                ctx.remove(other, b)?;
            }
        }
        Ok(())
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.revise(true, ctx)?;
        self.revise(false, ctx)
    }
}

#[cfg(test)]
mod tests {
    use crate::brute_force::{assert_gac, random_vars};
    use crate::{Model, SplitMix64};

    #[test]
    fn tables_and_predicates_under_mac_are_exactly_arc_consistent() {
        let mut rng = SplitMix64::new(12);
        let pool: Vec<i32> = (0..6).collect();
        for case in 0..500 {
            let mut model = Model::new();
            let vars = random_vars(&mut rng, &mut model, 2, &pool, 5);
            let pairs: Vec<[i32; 2]> = (0..8)
                .map(|_| [rng.below(6) as i32, rng.below(6) as i32])
                .collect();
            model.table(&vars[..2], &pairs).unwrap();
            assert_gac(&model, &format!("table case {case}"));
            let mut model = Model::new();
            let vars = random_vars(&mut rng, &mut model, 2, &pool, 5);
            let m = 2 + rng.below(3) as i32;
            model
                .binary(vars[0], vars[1], move |a, b| (a * b) % m == 1)
                .unwrap();
            assert_gac(&model, &format!("predicate case {case}"));
        }
    }
}
