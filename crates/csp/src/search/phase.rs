//! `Phase`: a declarative search, as FlatZinc states it: variables, how to pick among them and
//! how to order their values, phase after phase, then the solver's own order for the rest.

use crate::VarId;

/// Which variable of a phase to branch on (FlatZinc's variable selections). Ties go to the
/// variable listed first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum VarSelect {
    /// The first unassigned one, in the phase's order (`input_order`).
    InputOrder,
    /// The smallest domain (`first_fail`).
    FirstFail,
    /// The largest domain (`anti_first_fail`).
    AntiFirstFail,
    /// The smallest value in its domain (`smallest`).
    Smallest,
    /// The largest value in its domain (`largest`).
    Largest,
    /// The largest gap between its two smallest values (`max_regret`).
    MaxRegret,
}

/// In which order to try the chosen variable's values (FlatZinc's value selections).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValueSelect {
    /// Smallest first (`indomain_min`). Under `mac`, two-way as in Gecode: `x = min`, then
    /// `x != min` propagated, and the phase's selection chooses afresh (maybe another variable);
    /// under `none` and `fc`, the values one by one, smallest first.
    Min,
    /// Largest first (`indomain_max`): `x = max`, then `x != max` under `mac`, as `Min`.
    Max,
    /// The median first (`indomain_median`): under `mac`, `x = m`, then `x != m`, for `m` the
    /// lower median of the domain at the node, as `Min`; under `none` and `fc`, the median,
    /// then outwards, nearer values first and the lower of two as near.
    Median,
    /// A random order, drawn from the solver's seed (`indomain_random`), the values tried one
    /// by one in every mode.
    Random,
    /// The lower half first (`indomain_split`): under `mac`, bisection, branching on
    /// `x <= mid` then `x > mid` (`mid` the mean of the bounds, rounded down), each half
    /// propagated before it is split again, down to two values; under `none` and `fc`, which
    /// act on assignments, the values one by one, smallest first (the same order of leaves).
    Split,
    /// The upper half first (`indomain_reverse_split`): `x > mid` then `x <= mid` under
    /// `mac`; otherwise the values one by one, largest first.
    ReverseSplit,
}

/// Under learning ([`Inference::Lcg`](super::Inference::Lcg)), which runs between restarts a
/// declared search ([`Solver::phases`](super::Solver::phases)) guides; the others branch on
/// activity. Other inferences follow it throughout.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum DeclaredRuns {
    /// Every other run, the first included, as Chuffed's free search alternates the model's
    /// search with activity.
    #[default]
    Alternate,
    /// Every other run until the first solution; from then on activity alone (and large
    /// neighbourhood search takes its share). MiniZinc's free search (`-f`) in `csp fzn`:
    /// on the MiniZinc Challenge 2024 the declared runs find first solutions that activity
    /// alone misses in a minute (network_50_cstr, portal, yumi-dynamic), and slow the proofs
    /// and improvements once there is one.
    AlternateUntilSolution,
    /// Every other run until the first solution; from then on every run while the runs that
    /// follow it have found more of the solutions (the first included) than the rest of the
    /// search together (free runs, neighbourhoods, a portfolio's other workers), and none
    /// once they have not: a race the declared search leaves for good when it falls behind.
    ///
    /// Not `-f`'s default, for what it did there: on the MiniZinc Challenge 2024 at 60 s it
    /// proves graph-clear's three optima (so, its declared runs find 38 of the 39 solutions
    /// on planar_n20_seed2022_14, and refute z <= 53 in 32,398 conflicts where activity
    /// needs 111,364), 32 complete against 31, but loses harmony ode and trains12 and slows
    /// twinkle, hoist and triangular, 28 points lower; on `../shared/minizinc`'s optimisation
    /// models with a declared search it is faster overall (0.75x) but loses cargo's proof:
    /// the declared runs, given every complete run, find the better solutions because
    /// nothing else runs, so the lead feeds itself.
    WhileAhead,
    /// Every run: the declared search is the search, as in Chuffed and Pumpkin without
    /// `-f` (activity only picks among the variables it leaves open). Two solvers compared
    /// on one model then search alike (`scripts/bench-learning`).
    Every,
}

/// One phase of a search: branch on `vars`, picked by `select`, their values in `value` order,
/// until every one is fixed; then the next phase.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Phase {
    /// The variables of the phase.
    pub vars: Vec<VarId>,
    /// How to pick the next one.
    pub select: VarSelect,
    /// How to order its values.
    pub value: ValueSelect,
}

impl Phase {
    /// A phase over `vars`.
    pub fn new(vars: &[VarId], select: VarSelect, value: ValueSelect) -> Self {
        Phase {
            vars: vars.to_vec(),
            select,
            value,
        }
    }
}
