//! `Among`: how many of some variables take a value in a given set.

use super::listed::listed;
use crate::{Conflict, Constraint, Context, DeclaredBounds, LinearRow, ValueRows, VarId, Wake};

/// Sets up to this size are read a value at a time, larger ones range by range.
const FEW_VALUES: usize = 4;

/// `n` equals the number of `xs` that take a value in `values` (MiniZinc's `among`).
///
/// Under `mac` it is domain consistent: with `inside` the variables left only values of the
/// set and `touching` those with at least one, `n` keeps to `inside..=touching`; when `n` can
/// be no more than `inside`, the undecided variables lose the set's values, and when it must
/// be `touching`, they lose the others. Under `none` and `fc` it waits until all but one
/// variable are settled.
#[derive(Clone, Debug)]
pub struct Among {
    /// `xs` followed by `n`.
    scope: Vec<VarId>,
    /// The set, sorted, without repeats.
    values: Vec<i32>,
}

impl Among {
    /// `n` of `xs` take a value in `values`.
    pub fn new(n: VarId, xs: &[VarId], values: &[i32]) -> Self {
        let mut scope = xs.to_vec();
        scope.push(n);
        let mut values = values.to_vec();
        values.sort_unstable();
        values.dedup();
        Among { scope, values }
    }

    fn xs(&self) -> &[VarId] {
        &self.scope[..self.scope.len() - 1]
    }

    fn n(&self) -> VarId {
        self.scope[self.scope.len() - 1]
    }

    fn in_set(&self, value: i32) -> bool {
        self.values.binary_search(&value).is_ok()
    }

    /// How many of the set's values lie in `low..=high`.
    fn in_range(&self, low: i32, high: i32) -> usize {
        let first = self.values.partition_point(|&v| v < low);
        let end = self.values.partition_point(|&v| v <= high);
        end - first
    }

    /// Whether `x` has values in the set and values out of it, read range by range so that a
    /// wide domain costs no more than a narrow one.
    fn split(&self, x: VarId, ctx: &Context<'_>) -> (bool, bool) {
        if self.values.len() <= FEW_VALUES {
            // A set of a value or a few (a `count` of one value): each looked up, where the
            // ranges of a domain with holes would cost a walk.
            let present = self.values.iter().filter(|&&v| ctx.contains(x, v)).count();
            return (present > 0, ctx.size_u64(x) > present as u64);
        }
        let (mut some_in, mut some_out) = (false, false);
        for (low, high) in ctx.ranges(x) {
            let k = self.in_range(low, high) as i64;
            some_in |= k > 0;
            some_out |= k < i64::from(high) - i64::from(low) + 1;
            if some_in && some_out {
                break;
            }
        }
        (some_in, some_out)
    }

    /// Removes from `x` the set's values (`keep_in` false) or every other value (true).
    fn keep(&self, x: VarId, keep_in: bool, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (Some(min), Some(max)) = (ctx.min(x), ctx.max(x)) else {
            return Err(ctx.violated());
        };
        let first = self.values.partition_point(|&v| v < min);
        let end = self.values.partition_point(|&v| v <= max);
        let inside = &self.values[first..end];
        if !keep_in {
            for &value in inside {
                ctx.remove(x, value)?;
            }
            return Ok(());
        }
        ctx.keep_only(x, inside.iter().map(|&v| (i64::from(v), i64::from(v))))
            .map(|_| ())
    }
}

/// How many of `xs` take a value of `counted` (sorted, without repeats), as LP terms: each
/// variable's value literals of those values, or a constant 1 (0) for a variable declared
/// entirely inside (outside) them. Appends the terms to `terms` and returns the constant;
/// `None` when a variable straddles the values without literals, where no exact row exists.
pub(crate) fn occurrences(
    xs: &[VarId],
    counted: &[i32],
    declared: &dyn DeclaredBounds,
    terms: &mut Vec<(i64, VarId)>,
) -> Option<i64> {
    let mut constant = 0;
    for &x in xs {
        if let Some(literals) = declared.value_literals(x) {
            terms.extend(
                literals
                    .iter()
                    .filter(|&&(v, _)| counted.binary_search(&v).is_ok())
                    .map(|&(_, y)| (1, y)),
            );
            continue;
        }
        // Read from the sorted values, not the domain: a variable without literals is wide.
        let (low, high) = declared.bounds(x);
        let inside =
            counted.partition_point(|&v| v <= high) - counted.partition_point(|&v| v < low);
        if inside == 0 {
            continue;
        }
        // Bounds say nothing of holes: only a variable wholly inside is known to count.
        if i64::try_from(inside).ok()? != i64::from(high) - i64::from(low) + 1 {
            return None;
        }
        constant += 1;
    }
    Some(constant)
}

impl Constraint for Among {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (xs, n) = values.split_at(values.len() - 1);
        xs.iter().filter(|&&v| self.in_set(v)).count() as i64 == i64::from(n[0])
    }

    fn describe(&self) -> String {
        let xs = listed(self.xs().iter().map(|x| x.to_string()), 6, ", ");
        let values = listed(self.values.iter().map(|v| v.to_string()), 6, ", ");
        format!("{} = among([{xs}], {{{values}}})", self.n())
    }

    /// The count reads only its bounds.
    fn wake_on(&self, var: VarId) -> Wake {
        if var == self.n() && !self.xs().contains(&var) {
            Wake::Bounds
        } else {
            Wake::Domain
        }
    }

    /// The count's own bounds, once narrowed, can decide the undecided variables.
    fn idempotent(&self) -> bool {
        false
    }

    fn value_rows(&self) -> ValueRows<'_> {
        ValueRows::Counted(self.xs())
    }

    /// `n` is the sum of the `xs`' literals of the set's values: exact where every
    /// variable either has value literals or lies wholly inside or outside the set.
    fn relax(&self, declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let mut terms = Vec::new();
        let Some(constant) = occurrences(self.xs(), &self.values, declared, &mut terms) else {
            return;
        };
        terms.push((-1, self.n()));
        rows.push(LinearRow::equal(terms, -constant));
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let (mut inside, mut touching) = (0i64, 0i64);
        for &x in self.xs() {
            let (some_in, some_out) = self.split(x, ctx);
            touching += i64::from(some_in);
            inside += i64::from(some_in && !some_out);
        }
        ctx.count_checks(self.xs().len() as u64);
        let n = self.n();
        ctx.at_least(n, inside)?;
        ctx.at_most(n, touching)?;
        let (Some(low), Some(high)) = (ctx.min(n), ctx.max(n)) else {
            return Err(ctx.violated());
        };
        let (low, high) = (i64::from(low), i64::from(high));
        if high > inside && low < touching {
            return Ok(());
        }
        for &x in self.xs() {
            let (some_in, some_out) = self.split(x, ctx);
            if !(some_in && some_out) {
                continue;
            }
            // No more may come in: the undecided stay out; all must: they come in.
            self.keep(x, high > inside, ctx)?;
        }
        Ok(())
    }
}
