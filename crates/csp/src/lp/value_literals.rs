//! `ValueLiterals`: a 0/1 variable for each value of an integer variable, added for the LP
//! relaxation, whose rows tie them to it (`sum y = 1`, `sum v * y = x`).
//!
//! MIP solvers reach the bounds of assignment models (all-different, its `except_0` form,
//! the reified comparisons that count who got a value) through such an encoding: MiniZinc's
//! linear library turns `x` into its value literals before a MIP solver sees it. Over the
//! integer `x` alone, an LP cannot say that two variables of an all-different take
//! different values, nor that `b <-> x >= 1` makes `b` the share of `x`'s values from 1 up;
//! over value literals both are rows (`sum of y[x][v] over the xs <= 1` per value, `b = sum
//! of y[x][v] over v >= 1`), and the relaxation of ConcertHall's halls is as strong as the MIP
//! model's.

use crate::constraints::{Compare, Relation};
use crate::{Conflict, Constraint, Context, DeclaredBounds, LinearRow, Model, ModelError};
use crate::{Priority, Reification, ValueRows, VarId, Wake};

/// What [`Model::add_relaxation_literals`] added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RelaxationLiterals {
    /// How many literals.
    pub added: usize,
    /// Whether the variables of a constraint that takes each value at most once (an
    /// all-different, [`ValueRows::AtMostOnce`]) have literals: the rows that only literals
    /// can state.
    pub at_most_once: bool,
}

/// The most values a variable may have to get value literals: past this the rows the
/// literals give grow faster than what they tell.
pub const MOST_VALUES_ENCODED: u64 = 64;

/// `x` takes the value of its one true literal: `sum y = 1` and `sum v * y = x`, as rows of
/// the LP relaxation. Each `y <-> x = v` is a reified comparison posted beside it, which
/// does all the propagation.
///
/// Consistency: none of its own (the reified comparisons that define its literals are
/// domain consistent, and imply it); it exists for its rows.
#[derive(Clone, Debug)]
struct ValueLiterals {
    /// `x`, then the literals in the order of `values`.
    scope: Vec<VarId>,
    values: Vec<i32>,
}

impl Constraint for ValueLiterals {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (x, literals) = (values[0], &values[1..]);
        literals.iter().all(|&y| y == 0 || y == 1)
            && literals.iter().filter(|&&y| y == 1).count() == 1
            && self
                .values
                .iter()
                .zip(literals)
                .all(|(&v, &y)| (y == 1) == (v == x))
    }

    fn describe(&self) -> String {
        format!("value literals of {}", self.scope[0])
    }

    /// The reified comparisons propagate; this adds nothing to them.
    fn propagate(&self, _ctx: &mut Context<'_>) -> Result<(), Conflict> {
        Ok(())
    }

    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Fixed
    }

    fn priority(&self) -> Priority {
        Priority::Cheap
    }

    fn relax(&self, _declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let (x, literals) = (self.scope[0], &self.scope[1..]);
        rows.push(LinearRow::equal(
            literals.iter().map(|&y| (1, y)).collect(),
            1,
        ));
        let mut sum: Vec<(i64, VarId)> = self
            .values
            .iter()
            .zip(literals)
            .filter(|(&v, _)| v != 0)
            .map(|(&v, &y)| (i64::from(v), y))
            .collect();
        sum.push((-1, x));
        rows.push(LinearRow::equal(sum, 0));
    }
}

impl Model {
    /// Gives `x` a 0/1 variable for each value `v` of its declared domain, `y <-> x = v`, as
    /// the LP relaxation's columns ([`DeclaredBounds::value_literals`]): constraints over
    /// `x` that name it in [`Constraint::value_rows`], and reified comparisons of `x`
    /// with constants, then relax over them. Returns how many literals were added: none
    /// when `x` has them already or more than [`MOST_VALUES_ENCODED`] values.
    pub fn add_value_literals(&mut self, x: VarId) -> Result<usize, ModelError> {
        if self.value_literals.contains_key(&x) || self.initial_size(x) > MOST_VALUES_ENCODED {
            return Ok(0);
        }
        let values = self.initial_domain(x);
        let mut literals = Vec::with_capacity(values.len());
        for &v in &values {
            let y = self.new_bool()?;
            self.set_introduced(y);
            let equal = Compare::with_value(x, Relation::Eq, i64::from(v));
            self.reify(y, equal, Reification::Full)?;
            literals.push((v, y));
        }
        let mut scope = vec![x];
        scope.extend(literals.iter().map(|&(_, y)| y));
        self.post(ValueLiterals {
            scope,
            values: values.clone(),
        })?;
        let added = literals.len();
        self.value_literals.insert(x, literals);
        Ok(added)
    }

    /// Value literals ([`Model::add_value_literals`]) for the variables of every constraint
    /// whose relaxation is stronger over them ([`Constraint::value_rows`]), up to `most`
    /// literals in all, the constraints taken in the order they were posted.
    pub fn add_relaxation_literals(
        &mut self,
        most: usize,
    ) -> Result<RelaxationLiterals, ModelError> {
        let mut wanted: Vec<(VarId, bool)> = Vec::new();
        for id in self.constraint_ids() {
            if let Some(c) = self.constraint(id) {
                let rows = c.value_rows();
                let at_most_once = matches!(rows, ValueRows::AtMostOnce(_));
                wanted.extend(rows.vars().iter().map(|&x| (x, at_most_once)));
            }
        }
        let mut added = RelaxationLiterals::default();
        for (x, at_most_once) in wanted {
            let size = usize::try_from(self.initial_size(x)).unwrap_or(usize::MAX);
            if !self.value_literals.contains_key(&x) && added.added + size <= most {
                added.added += self.add_value_literals(x)?;
            }
            added.at_most_once |= at_most_once && self.value_literals.contains_key(&x);
        }
        Ok(added)
    }
}
