//! `Consistency`: how strongly a global constraint filters under `mac`, where it offers a
//! choice (MiniZinc's `value_propagation`, `bounds_propagation`, `domain_propagation`).

/// The strength of a global's filtering, weakest first. Stronger filtering removes more
/// values per run and so can save nodes, at a higher cost per run; which pays depends on the
/// model, which is why the best solvers let the modeller choose.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Consistency {
    /// Acts on fixed variables only: their values leave the others.
    Value,
    /// Every bound left has a support among the other variables' intervals (their domains
    /// read without holes).
    Bounds,
    /// Every value left has a support among the other variables' domains (generalised arc
    /// consistency); the default.
    #[default]
    Domain,
}
