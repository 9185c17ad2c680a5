//! `Earlier`: the domains as they were just before a change, for a constraint that explains
//! the change only when conflict analysis asks (a lazy explanation).

use crate::propagation::atom_trail::{AtomTrail, Pos};
use crate::{Atom, VarId};

/// What held just before one change on the atom trail: a constraint that made the change with
/// [`Context::lazily`](crate::Context::lazily) reads it in
/// [`Constraint::explain`](crate::Constraint::explain) to build the reason then, from the
/// bounds its filtering read. Only what was true before the change can be read, so any reason built from it is
/// made of atoms that held when the change was made.
pub struct Earlier<'a> {
    trail: &'a AtomTrail,
    pos: Pos,
}

impl<'a> Earlier<'a> {
    pub(crate) fn new(trail: &'a AtomTrail, pos: Pos) -> Self {
        Earlier { trail, pos }
    }

    /// The smallest value `var` had then.
    pub fn min(&self, var: VarId) -> i32 {
        self.trail.bounds_before(var, self.pos).0
    }

    /// The largest value `var` had then.
    pub fn max(&self, var: VarId) -> i32 {
        self.trail.bounds_before(var, self.pos).1
    }

    /// Whether `var` still had `value` then.
    pub fn has(&self, var: VarId, value: i32) -> bool {
        self.trail
            .position(Atom::Ne(var, value))
            .is_none_or(|pos| pos >= self.pos)
    }

    /// Pushes onto `out` atoms that together say what `var`'s domain was then: its bounds and
    /// the holes between them (facts of the root left out).
    pub fn domain(&self, var: VarId, out: &mut Vec<Atom>) {
        self.trail.domain_before(var, self.pos, out);
    }
}
