//! `Compare`: `x rel y + c` or `x rel c` for the six relations.

use super::reified::{LinearForm, Reifiable};
use super::relation::Relation;
use crate::{Atom, Checkable, Conflict, Constraint, Context, DeclaredBounds, LinearRow, Priority};
use crate::{VarId, Wake};
use smallvec::SmallVec;

/// `x rel y + offset`, or `x rel offset` without `y`.
///
/// Consistency: domain consistency for every relation. The order relations cut bounds (which
/// is domain consistency for a monotone relation), `=` keeps the values with a partner, `!=`
/// acts once one side is fixed. Under `fc`, it acts once one side is assigned.
#[derive(Clone, Debug)]
pub struct Compare {
    /// `x`, then `y` if the right side is a variable.
    vars: SmallVec<[VarId; 2]>,
    relation: Relation,
    offset: i64,
}

impl Compare {
    /// `x rel y + offset`.
    pub fn new(x: VarId, relation: Relation, y: VarId, offset: i64) -> Self {
        Compare {
            vars: SmallVec::from_slice(&[x, y]),
            relation,
            offset,
        }
    }

    /// `x rel value`.
    pub fn with_value(x: VarId, relation: Relation, value: i64) -> Self {
        Compare {
            vars: SmallVec::from_slice(&[x]),
            relation,
            offset: value,
        }
    }

    fn x(&self) -> VarId {
        self.vars[0]
    }

    /// `x - y relation offset`, or `x relation value`.
    fn form(&self) -> LinearForm {
        let mut terms = vec![(1, self.x())];
        if let Some(y) = self.y() {
            terms.push((-1, y));
        }
        LinearForm {
            terms,
            relation: self.relation,
            rhs: self.offset,
        }
    }

    /// For `x rel constant`, how its reification depends on `x` (see
    /// [`ValueLink`](crate::propagation::network::ValueLink)): the orderings as `x <= t` or
    /// its negation, `=` and `!=` as `x = v` or its negation. `None` with a variable on the
    /// right, or a constant outside what a domain can hold.
    pub(crate) fn value_link(&self) -> Option<crate::propagation::network::ValueLink> {
        use crate::propagation::network::ValueLink;
        if self.y().is_some() {
            return None;
        }
        let (x, c) = (self.x(), self.offset);
        Some(match self.relation {
            Relation::Le | Relation::Gt => ValueLink::AtMost(x, c),
            Relation::Lt | Relation::Ge => ValueLink::AtMost(x, c.checked_sub(1)?),
            Relation::Eq | Relation::Ne => ValueLink::At(x, c),
        })
    }

    fn y(&self) -> Option<VarId> {
        self.vars.get(1).copied()
    }

    /// `x` and `y` are the same variable: the comparison is `0 rel offset` whatever its value.
    fn on_itself(&self) -> bool {
        self.y() == Some(self.x())
    }

    /// The smallest and largest value of the right side, `None` for an empty domain.
    fn right_bounds(&self, ctx: &Context<'_>) -> Option<(i64, i64)> {
        match self.y() {
            None => Some((self.offset, self.offset)),
            Some(y) => Some((
                i64::from(ctx.min(y)?) + self.offset,
                i64::from(ctx.max(y)?) + self.offset,
            )),
        }
    }

    /// Whether `relation` holds whatever values the variables take.
    fn entailed(&self, relation: Relation, ctx: &Context<'_>) -> bool {
        if self.on_itself() {
            return relation.holds(0, self.offset);
        }
        let x = self.x();
        let (Some(x_min), Some(x_max), Some((r_min, r_max))) =
            (ctx.min(x), ctx.max(x), self.right_bounds(ctx))
        else {
            return false;
        };
        let (x_min, x_max) = (i64::from(x_min), i64::from(x_max));
        match relation {
            Relation::Lt => x_max < r_min,
            Relation::Le => x_max <= r_min,
            Relation::Gt => x_min > r_max,
            Relation::Ge => x_min >= r_max,
            Relation::Eq => x_min == x_max && r_min == r_max && x_min == r_min,
            Relation::Ne => match self.y() {
                None => !i32::try_from(self.offset).is_ok_and(|v| ctx.contains(x, v)),
                Some(y) => x_max < r_min || x_min > r_max || !ctx.intersects(x, y, self.offset),
            },
        }
    }

    /// Removes the values that `relation` rules out, as far as domain consistency goes.
    fn enforce(&self, relation: Relation, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.count_checks(1);
        if self.on_itself() {
            return if relation.holds(0, self.offset) {
                Ok(())
            } else {
                Err(ctx.violated())
            };
        }
        let x = self.x();
        let c = self.offset;
        match relation {
            Relation::Lt | Relation::Le | Relation::Gt | Relation::Ge => {
                // x < r is x <= r - 1, and x > r is x >= r + 1.
                let slack = match relation {
                    Relation::Lt => -1,
                    Relation::Gt => 1,
                    _ => 0,
                };
                let Some((r_min, r_max)) = self.right_bounds(ctx) else {
                    return Ok(());
                };
                let below = matches!(relation, Relation::Lt | Relation::Le);
                // The reason for a bound on one side is the other side's bound (none against
                // a constant). Bounds fit in i32 here: they are a domain's.
                let bound = |ctx: &Context<'_>, var: VarId, upper: bool| -> Option<Atom> {
                    if upper {
                        ctx.max(var).map(|m| Atom::Le(var, m))
                    } else {
                        ctx.min(var).map(|m| Atom::Ge(var, m))
                    }
                };
                let y_reason: Option<Atom> = match self.y() {
                    Some(y) if ctx.explaining() => bound(ctx, y, below),
                    _ => None,
                };
                if below {
                    ctx.at_most_because(x, r_max + slack, y_reason.as_slice())?;
                } else {
                    ctx.at_least_because(x, r_min + slack, y_reason.as_slice())?;
                }
                if let (Some(y), Some(x_min), Some(x_max)) = (self.y(), ctx.min(x), ctx.max(x)) {
                    // x <= y + c + slack: y >= x - c - slack; and the mirror for >=.
                    if below {
                        let reason = [Atom::Ge(x, x_min)];
                        ctx.at_least_because(y, i64::from(x_min) - c - slack, &reason)?;
                    } else {
                        let reason = [Atom::Le(x, x_max)];
                        ctx.at_most_because(y, i64::from(x_max) - c - slack, &reason)?;
                    }
                }
                Ok(())
            }
            Relation::Eq => match self.y() {
                None => match i32::try_from(c) {
                    Ok(value) => ctx.fix(x, value).map(|_| ()),
                    Err(_) => ctx.remove_range(x, i32::MIN, i32::MAX).map(|_| ()),
                },
                Some(y) => {
                    // x keeps the values y + c can take, y those x - c can, a run at a time.
                    ctx.keep_equal(x, y, c).map(|_| ())
                }
            },
            Relation::Ne => {
                if let Some(right) = self.right_bounds(ctx).filter(|(lo, hi)| lo == hi) {
                    if let Ok(value) = i32::try_from(right.0) {
                        ctx.remove(x, value)?;
                    }
                }
                if let (Some(y), Some(value)) = (self.y(), ctx.fixed_value(x)) {
                    if let Ok(value) = i32::try_from(i64::from(value) - c) {
                        ctx.remove(y, value)?;
                    }
                }
                Ok(())
            }
        }
    }

    fn describe_with(&self, relation: Relation) -> String {
        let right = match (self.y(), self.offset) {
            (None, c) => c.to_string(),
            (Some(y), 0) => y.to_string(),
            (Some(y), c) if c > 0 => format!("{y} + {c}"),
            (Some(y), c) => format!("{y} - {}", -c),
        };
        format!("{} {relation} {right}", self.x())
    }
}

impl Constraint for Compare {
    /// Orderings read bounds, `=` reads domains, `!=` acts once a side is fixed.
    fn wake_on(&self, _var: VarId) -> Wake {
        match self.relation {
            Relation::Eq => Wake::Domain,
            Relation::Ne => Wake::Fixed,
            _ => Wake::Bounds,
        }
    }

    fn priority(&self) -> Priority {
        Priority::Cheap
    }

    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let right = values.get(1).map_or(0, |&y| i64::from(y)) + self.offset;
        self.relation.holds(i64::from(values[0]), right)
    }

    fn contradiction(&self) -> Option<String> {
        (self.on_itself() && !self.relation.holds(0, self.offset))
            .then(|| format!("{} can never hold", self.describe_with(self.relation)))
    }

    /// `x - y relation c` as one or two rows (none for `!=`), `=` included.
    fn relax(&self, _declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let form = self.form();
        let terms = form.terms;
        match form.relation {
            Relation::Ne => {}
            Relation::Eq => rows.push(LinearRow::equal(terms, form.rhs)),
            Relation::Le => rows.push(LinearRow::at_most(terms, form.rhs)),
            Relation::Lt => rows.push(LinearRow::at_most(terms, form.rhs.saturating_sub(1))),
            Relation::Ge => rows.push(LinearRow::at_least(terms, form.rhs)),
            Relation::Gt => rows.push(LinearRow::at_least(terms, form.rhs.saturating_add(1))),
        }
    }

    /// The orderings as `x - y <= c` (or `x <= c`) and `x != y` as an all-different; `=`
    /// filters holes, which the checker's bounds reasoning on a sum cannot follow.
    fn checkable(&self) -> Option<Checkable> {
        let x = self.x();
        // `x rel y + c` as `sign * (x - y) <= bound`.
        let (sign, bound) = match self.relation {
            Relation::Le => (1, self.offset),
            Relation::Lt => (1, self.offset.checked_sub(1)?),
            Relation::Ge => (-1, self.offset.checked_neg()?),
            Relation::Gt => (-1, self.offset.checked_neg()?.checked_sub(1)?),
            Relation::Ne => {
                return match self.y() {
                    Some(y) if y != x && self.offset == 0 => {
                        Some(Checkable::AllDifferent(vec![x, y]))
                    }
                    _ => None,
                }
            }
            Relation::Eq => return None,
        };
        let terms = match self.y() {
            Some(y) if y != x => vec![(sign, x), (-sign, y)],
            Some(_) => return None,
            None => vec![(sign, x)],
        };
        Some(Checkable::LinearLe(terms, bound))
    }

    fn describe(&self) -> String {
        self.describe_with(self.relation)
    }

    fn forward_check(&self, _var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        // Forward checking acts on assignments: once one side is assigned, or, for a value on
        // the right, once x is.
        let assigned = self.vars.iter().filter(|&&v| ctx.is_assigned(v)).count();
        if assigned == 0 {
            return Ok(());
        }
        if assigned == self.vars.len() {
            let values: SmallVec<[i32; 2]> = self
                .vars
                .iter()
                .filter_map(|&v| ctx.assigned_value(v))
                .collect();
            ctx.count_checks(1);
            return if self.is_satisfied(&values) {
                Ok(())
            } else {
                Err(ctx.violated())
            };
        }
        self.enforce(self.relation, ctx)
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.enforce(self.relation, ctx)
    }
}

impl Reifiable for Compare {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn holds(&self, values: &[i32]) -> bool {
        self.is_satisfied(values)
    }

    fn enforce(&self, negated: bool, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let relation = if negated {
            self.relation.negation()
        } else {
            self.relation
        };
        Compare::enforce(self, relation, ctx)
    }

    fn entailed(&self, negated: bool, ctx: &Context<'_>) -> bool {
        let relation = if negated {
            self.relation.negation()
        } else {
            self.relation
        };
        Compare::entailed(self, relation, ctx)
    }

    fn describe(&self) -> String {
        self.describe_with(self.relation)
    }

    fn linear_form(&self) -> Option<LinearForm> {
        Some(self.form())
    }

    /// An inequality and its negation, and their entailment, read bounds only.
    fn wake_on(&self, _var: VarId) -> Wake {
        match self.relation {
            Relation::Eq | Relation::Ne => Wake::Domain,
            _ => Wake::Bounds,
        }
    }
}
