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

    /// The change being explained: its atom as the trail holds it (a `!=` for one value gone,
    /// a bound for a bound moved, `=` for a variable fixed), or `None` for a change that
    /// emptied the domain (every value the variable had then went).
    pub fn change(&self) -> Option<Atom> {
        (self.pos <= self.trail.len()).then(|| self.trail.entry(self.pos).atom)
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

    /// The weakest bound atom, true then, that excludes every value below `k` (`var >= k`
    /// held then): `var >= m` for the bound `m` that `var` had when `var >= k` first held.
    /// Reasons that state many lifted bounds of one variable so share their atoms.
    pub fn at_least_atom(&self, var: VarId, k: i32) -> Atom {
        Atom::Ge(var, self.trail.bound_reaching(var, k, true).unwrap_or(k))
    }

    /// As [`Earlier::at_least_atom`], for `var <= k`.
    pub fn at_most_atom(&self, var: VarId, k: i32) -> Atom {
        Atom::Le(var, self.trail.bound_reaching(var, k, false).unwrap_or(k))
    }

    /// Whether `var` lacked `value` then, for a `value` known to lie within its bounds then
    /// (a hole, or gone at the root): [`Earlier::has`]'s answer, negated, without its
    /// searches of the bounds.
    pub fn hole(&self, var: VarId, value: i32) -> bool {
        self.trail.hole_before(var, value, self.pos)
    }

    /// Pushes onto `out` atoms that together say what `var`'s domain was then: its bounds and
    /// the holes between them (facts of the root left out).
    pub fn domain(&self, var: VarId, out: &mut Vec<Atom>) {
        self.trail.domain_before(var, self.pos, out);
    }
}
