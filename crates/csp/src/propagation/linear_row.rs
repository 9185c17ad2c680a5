//! `LinearRow`: one linear inequality (or equation) that every solution of a constraint
//! satisfies, as a constraint hands it to the LP relaxation ([`Constraint::relax`]).
//!
//! [`Constraint::relax`]: crate::Constraint::relax

use crate::VarId;

/// `lower <= sum(a * x) <= upper`, either side optional, over the model's variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearRow {
    /// The `(a, x)` terms; a variable may appear more than once (the terms add up).
    pub terms: Vec<(i64, VarId)>,
    /// The least the sum may be, if bounded below.
    pub lower: Option<i64>,
    /// The most the sum may be, if bounded above.
    pub upper: Option<i64>,
}

impl LinearRow {
    /// `sum(terms) <= upper`.
    pub fn at_most(terms: Vec<(i64, VarId)>, upper: i64) -> Self {
        LinearRow {
            terms,
            lower: None,
            upper: Some(upper),
        }
    }

    /// `sum(terms) >= lower`.
    pub fn at_least(terms: Vec<(i64, VarId)>, lower: i64) -> Self {
        LinearRow {
            terms,
            lower: Some(lower),
            upper: None,
        }
    }

    /// `sum(terms) = value`.
    pub fn equal(terms: Vec<(i64, VarId)>, value: i64) -> Self {
        LinearRow {
            terms,
            lower: Some(value),
            upper: Some(value),
        }
    }

    /// Whether `values` (a value per variable, by index) satisfy the row.
    pub fn holds(&self, value_of: impl Fn(VarId) -> i32) -> bool {
        let sum: i128 = self
            .terms
            .iter()
            .map(|&(a, x)| i128::from(a) * i128::from(value_of(x)))
            .sum();
        self.lower.is_none_or(|l| sum >= i128::from(l))
            && self.upper.is_none_or(|u| sum <= i128::from(u))
    }
}

/// The variables whose value literals ([`DeclaredBounds::value_literals`]) a constraint's
/// [`relax`](crate::Constraint::relax) reads, by what its rows say over them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ValueRows<'a> {
    /// It reads none.
    #[default]
    None,
    /// Each value taken at most once (an all-different): over the integers alone an LP
    /// cannot say it at all.
    AtMostOnce(&'a [VarId]),
    /// How many take a value (a count): the integers' rows say it only through big-M.
    Counted(&'a [VarId]),
}

impl<'a> ValueRows<'a> {
    /// The variables, whichever the rows.
    pub fn vars(self) -> &'a [VarId] {
        match self {
            ValueRows::None => &[],
            ValueRows::AtMostOnce(vars) | ValueRows::Counted(vars) => vars,
        }
    }
}

/// The bounds of variables that a relaxation may rest on: their declared domains, which
/// hold throughout the search (a big-M coefficient read off them stays valid at every node).
pub trait DeclaredBounds {
    /// The least and greatest value `var` is declared to take.
    fn bounds(&self, var: VarId) -> (i32, i32);

    /// `var`'s value literals, when the relaxation has them: for each value of its
    /// declared domain, smallest first, a 0/1 variable that is 1 exactly when `var` takes
    /// it (see [`Model::add_value_literals`](crate::Model::add_value_literals)). A
    /// constraint relaxed over them states what big-M rows cannot: which value each
    /// variable takes. The default: none.
    fn value_literals(&self, var: VarId) -> Option<&[(i32, VarId)]> {
        let _ = var;
        None
    }
}
