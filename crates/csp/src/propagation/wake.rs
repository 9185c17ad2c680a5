//! `Wake` and `Priority`: when a propagator runs again, and how soon (Gecode's propagator
//! conditions and cost classes).
//!
//! A change to a variable is one of three events, each implying the weaker ones: it was fixed
//! (one value left), its bounds moved, or some value went. A propagator subscribes to each of
//! its variables with the weakest event it needs: `!=` needs only `Fixed`, a bounds-consistent
//! sum only `Bounds`, a domain-consistent filter `Domain`. A change wakes exactly the
//! propagators whose condition it meets, so a propagator on `Fixed` costs nothing while
//! nothing it watches is fixed. Woken propagators wait in one queue per [`Priority`], and the
//! cheapest non-empty queue runs first, so that cheap filtering has shrunk the domains before
//! an expensive global looks at them.

/// The change of a variable that wakes a propagator.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wake {
    /// Any removal (the default).
    Domain = 0,
    /// The smallest or largest value changed (fixing counts).
    Bounds = 1,
    /// One value is left.
    Fixed = 2,
}

/// How expensive a propagator is to run, for the order of the queues.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// Unary and binary: comparisons, `!=`, membership, tables of pairs.
    Cheap = 0,
    /// Linear in its scope: sums, Boolean gates, arithmetic, element (the default).
    Linear = 1,
    /// Super-linear globals, such as all_different by matching.
    Global = 2,
}

impl Priority {
    /// How many priorities there are, one queue each.
    pub(crate) const COUNT: usize = 3;

    /// Every priority, cheapest first: the queues' order.
    pub(crate) const ALL: [Priority; Priority::COUNT] =
        [Priority::Cheap, Priority::Linear, Priority::Global];
}
