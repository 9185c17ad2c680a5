//! `Atom`: one fact about one variable's domain (`x = 3`, `x != 3`, `x <= 3`, `x >= 3`), the
//! unit in which propagators explain what they prune, and in which nogoods will be learnt.
//!
//! An explanation of a removal is a set of atoms, all true when the propagator acted, whose
//! conjunction (with the constraint) forces it: `row 5 != 3` because `row 2 = 1` under the
//! diagonal. Conflict analysis (nogood learning, a later stage) walks back from a failure
//! through these sets to the decisions behind it, as Chuffed and Pumpkin do.

use crate::VarId;
use std::fmt;

/// A fact about the value of one variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// `x = v`
    Eq(VarId, i32),
    /// `x != v`
    Ne(VarId, i32),
    /// `x <= v`
    Le(VarId, i32),
    /// `x >= v`
    Ge(VarId, i32),
}

impl Atom {
    /// The variable it is about.
    pub fn var(&self) -> VarId {
        match *self {
            Atom::Eq(x, _) | Atom::Ne(x, _) | Atom::Le(x, _) | Atom::Ge(x, _) => x,
        }
    }

    /// The atom that holds exactly when this one does not (`x <= 3` for `x >= 4`). A bound
    /// at the end of `i32` stays there: `x >= i32::MIN` negates to `x <= i32::MIN`, wrongly
    /// but harmlessly, as no search asks for it.
    pub fn negated(&self) -> Atom {
        match *self {
            Atom::Eq(x, v) => Atom::Ne(x, v),
            Atom::Ne(x, v) => Atom::Eq(x, v),
            Atom::Le(x, v) => Atom::Ge(x, v.saturating_add(1)),
            Atom::Ge(x, v) => Atom::Le(x, v.saturating_sub(1)),
        }
    }

    /// Whether it holds when its variable takes `value`.
    pub fn holds_for(&self, value: i32) -> bool {
        match *self {
            Atom::Eq(_, v) => value == v,
            Atom::Ne(_, v) => value != v,
            Atom::Le(_, v) => value <= v,
            Atom::Ge(_, v) => value >= v,
        }
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Atom::Eq(x, v) => write!(f, "{x} = {v}"),
            Atom::Ne(x, v) => write!(f, "{x} != {v}"),
            Atom::Le(x, v) => write!(f, "{x} <= {v}"),
            Atom::Ge(x, v) => write!(f, "{x} >= {v}"),
        }
    }
}
