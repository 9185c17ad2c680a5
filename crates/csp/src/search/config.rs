//! The choices a solve is made with: inference, variable and value order, limits.

use crate::Limits;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// How much the search infers after each assignment.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Inference {
    /// Plain chronological backtracking: check the new assignment against the assigned
    /// variables, prune nothing.
    None,
    /// Forward checking: remove from each unassigned neighbour the values that clash with the
    /// new assignment; fail as soon as a domain is wiped out.
    ForwardChecking,
    /// Maintaining arc consistency: after each assignment, filter every constraint to a fixpoint
    /// (generalised arc consistency as far as each constraint's propagator reaches). The
    /// default: the global constraints (cumulative, circuit, ...) filter only under it, so
    /// the weaker modes can leave a real model to run for hours.
    #[default]
    Mac,
    /// Maintaining arc consistency and learning from each failure (lazy clause generation):
    /// every change is recorded as an atom with its reason; a conflict is analysed back to
    /// the first unique implication point, the nogood found is kept and propagated, and the
    /// search jumps back past the decisions that played no part. The search takes the most
    /// active choice (VSIDS): a value `x = v` on a variable of at most 64 values, as each of
    /// Chuffed's literals has its activity, or a wider variable, at its last value or by
    /// halves; it restarts on the Luby sequence. It follows no variable order, and of the
    /// value orders only which end of a wide domain (over 64 values) to try first, for a
    /// variable it has not fixed before ([`Inference::follows_var_order`],
    /// [`Inference::follows_value_order`]). A declared
    /// search ([`Solver::phases`](crate::Solver::phases)) takes every other run between
    /// restarts, the first included, as in Chuffed's free search.
    Lcg,
}

impl Inference {
    /// Each choice by the name that [`FromStr`] reads and `Display` writes, with what it
    /// does in a phrase: the list a command line or a binding offers. (`FromStr` also takes
    /// `bt` for `none` and `learn` for `lcg`.)
    pub const CHOICES: [(&'static str, &'static str); 4] = [
        (
            "none",
            "Plain chronological backtracking: check, prune nothing",
        ),
        ("fc", "Forward checking"),
        ("mac", "Maintain arc consistency"),
        (
            "lcg",
            "Maintain arc consistency and learn a nogood from every failure (lazy clause \
             generation), branching on the most active values with restarts",
        ),
    ];

    /// Whether filtering runs to a fixpoint after each decision (`mac` and `lcg`).
    pub fn propagates(self) -> bool {
        matches!(self, Inference::Mac | Inference::Lcg)
    }

    /// Whether the search branches on the variable that the chosen [`VarOrder`] picks: not
    /// under `lcg`, which takes the most active one.
    pub fn follows_var_order(self) -> bool {
        self != Inference::Lcg
    }

    /// Whether the search tries values in `order`: under `lcg` only ascending and descending
    /// (which end of a wide domain to try first), as it has no look-ahead and draws no random
    /// values.
    pub fn follows_value_order(self, order: ValueOrder) -> bool {
        self != Inference::Lcg || matches!(order, ValueOrder::Ascending | ValueOrder::Descending)
    }
}

/// Which unassigned variable to branch on next. Ties go to the variable created first.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VarOrder {
    /// The first unassigned variable in creation order.
    Input,
    /// Minimum remaining values (fail first): the smallest current domain.
    MinDomain,
    /// The smallest ratio of domain size to the number of constraints shared with other
    /// unassigned variables.
    DomDeg,
    /// As `DomDeg`, but each constraint counts with its weight: one plus the number of
    /// failures it caused so far (Boussemart et al., 2004). The default: it goes where the
    /// failures were, and takes the smallest domain among alike weights.
    #[default]
    DomWdeg,
    /// The largest weighted degree, whatever the domain size (wdeg, Boussemart et al.,
    /// 2004): a variable fixed by propagation still comes first. It goes where the failures
    /// were even when a small domain elsewhere would draw dom/wdeg away (bin packing's slots,
    /// ACE's `-varh=Wdeg`).
    Wdeg,
}

impl VarOrder {
    /// Each choice by the name that [`FromStr`] reads and `Display` writes, with what it
    /// does in a phrase. (`FromStr` also takes `min-domain` for `mrv`.)
    pub const CHOICES: [(&'static str, &'static str); 5] = [
        ("input", "Creation order (for queens, rows top to bottom)"),
        ("mrv", "Minimum remaining values"),
        ("dom-deg", "Domain size over dynamic degree"),
        ("dom-wdeg", "Domain size over weighted degree"),
        ("wdeg", "Weighted degree alone"),
    ];
}

/// In which order to try the values of the chosen variable.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ValueOrder {
    /// Smallest first.
    #[default]
    Ascending,
    /// Largest first.
    Descending,
    /// Least constraining value first: the value that forward checking says removes the
    /// fewest values from the neighbours; ties smallest first.
    LeastConstraining,
    /// A random order from this seed; the same seed gives the same search.
    Random {
        /// The seed of the generator.
        seed: u64,
    },
}

/// Everything a solve is configured by.
#[derive(Clone, Debug, Default)]
pub(crate) struct SolveConfig {
    pub(crate) inference: Inference,
    pub(crate) var_order: VarOrder,
    pub(crate) value_order: ValueOrder,
    pub(crate) max_solutions: Option<u64>,
    pub(crate) limits: Limits,
    pub(crate) objective: Option<super::Objective>,
    /// Explore only part `.0` (0-based) of `.1` disjoint parts of the tree.
    pub(crate) shard: Option<(u64, u64)>,
    /// The scale of Luby restarts, if any.
    pub(crate) restarts: Option<u64>,
    /// A declared search, and the seed of its random value selections.
    pub(crate) phases: Vec<super::Phase>,
    pub(crate) phase_seed: u64,
    /// Under learning, which runs the declared search guides
    /// ([`Solver::declared_runs`](super::Solver::declared_runs)).
    pub(crate) declared_runs: super::DeclaredRuns,
    /// Variables fixed from the start ([`Solver::assume`](super::Solver::assume)).
    pub(crate) assumed: Vec<(crate::VarId, i32)>,
    /// Values to try first until a solution is found ([`Solver::hint`](super::Solver::hint)).
    pub(crate) hints: Vec<(crate::VarId, i32)>,
    /// Under learning with an objective, decisions take the best solution's values
    /// ([`Solver::incumbent_phase`](super::Solver::incumbent_phase)).
    pub(crate) incumbent_phase: bool,
    /// Under learning with an objective, the variables whose incumbent values large
    /// neighbourhood search keeps in part ([`Solver::lns`](super::Solver::lns)); none: off.
    pub(crate) lns: Vec<crate::VarId>,
    /// The best objective value of a portfolio's workers, shared ([`Portfolio`](super::Portfolio)).
    pub(crate) shared: Option<std::sync::Arc<super::shared_bound::SharedBound>>,
    /// A portfolio's seat when its workers take turns on one core
    /// ([`Portfolio::in_turns`](super::Portfolio::in_turns)).
    pub(crate) turn: Option<crate::turns::Turn>,
}

impl SolveConfig {
    /// Restarts apply only where they cannot deliver a solution twice: a search for one
    /// solution, or for ever better ones under an objective; not in a shard.
    pub(crate) fn restart_scale(&self) -> Option<u64> {
        let single = self.max_solutions == Some(1) || self.objective.is_some();
        self.restarts.filter(|_| single && self.shard.is_none())
    }
}

/// A name that did not match any choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownChoice {
    /// What was given.
    pub given: String,
    /// The names that would have been accepted.
    pub expected: &'static str,
}

impl fmt::Display for UnknownChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown value '{}' (expected {})",
            self.given, self.expected
        )
    }
}

impl std::error::Error for UnknownChoice {}

fn unknown(given: &str, expected: &'static str) -> UnknownChoice {
    UnknownChoice {
        given: given.to_owned(),
        expected,
    }
}

impl FromStr for Inference {
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        match s {
            "none" | "bt" => Ok(Inference::None),
            "fc" => Ok(Inference::ForwardChecking),
            "mac" => Ok(Inference::Mac),
            "lcg" | "learn" => Ok(Inference::Lcg),
            _ => Err(unknown(s, "none, fc, mac or lcg")),
        }
    }
}

impl fmt::Display for Inference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Inference::None => "none",
            Inference::ForwardChecking => "fc",
            Inference::Mac => "mac",
            Inference::Lcg => "lcg",
        })
    }
}

impl FromStr for VarOrder {
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        match s {
            "input" => Ok(VarOrder::Input),
            "mrv" | "min-domain" => Ok(VarOrder::MinDomain),
            "dom-deg" => Ok(VarOrder::DomDeg),
            "dom-wdeg" => Ok(VarOrder::DomWdeg),
            "wdeg" => Ok(VarOrder::Wdeg),
            _ => Err(unknown(s, "input, mrv, dom-deg, dom-wdeg or wdeg")),
        }
    }
}

impl fmt::Display for VarOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VarOrder::Input => "input",
            VarOrder::MinDomain => "mrv",
            VarOrder::DomDeg => "dom-deg",
            VarOrder::DomWdeg => "dom-wdeg",
            VarOrder::Wdeg => "wdeg",
        })
    }
}

impl ValueOrder {
    /// Each choice by the name that [`FromStr`] reads, with what it does in a phrase.
    pub const CHOICES: [(&'static str, &'static str); 4] = [
        ("asc", "Smallest value first"),
        ("desc", "Largest value first"),
        ("lcv", "Least constraining value first"),
        ("random", "A random order from a seed"),
    ];

    /// The seed of `random` when none is given.
    pub const DEFAULT_SEED: u64 = 1;

    /// This order, its random values (if random) drawn from `seed`.
    pub fn seeded(self, seed: u64) -> Self {
        match self {
            ValueOrder::Random { .. } => ValueOrder::Random { seed },
            order => order,
        }
    }

    /// Its name in [`ValueOrder::CHOICES`], without the seed.
    pub fn name(self) -> &'static str {
        match self {
            ValueOrder::Ascending => "asc",
            ValueOrder::Descending => "desc",
            ValueOrder::LeastConstraining => "lcv",
            ValueOrder::Random { .. } => "random",
        }
    }
}

/// Reads a name of [`ValueOrder::CHOICES`] (`random` with [`ValueOrder::DEFAULT_SEED`]), or
/// `random(S)` as `Display` writes it.
impl FromStr for ValueOrder {
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        let seeded = s
            .strip_prefix("random(")
            .and_then(|rest| rest.strip_suffix(')'))
            .and_then(|seed| seed.parse().ok());
        match s {
            "asc" => Ok(ValueOrder::Ascending),
            "desc" => Ok(ValueOrder::Descending),
            "lcv" => Ok(ValueOrder::LeastConstraining),
            "random" => Ok(ValueOrder::Random {
                seed: ValueOrder::DEFAULT_SEED,
            }),
            _ => match seeded {
                Some(seed) => Ok(ValueOrder::Random { seed }),
                None => Err(unknown(s, "asc, desc, lcv or random")),
            },
        }
    }
}

impl fmt::Display for ValueOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueOrder::Random { seed } => write!(f, "random({seed})"),
            order => f.write_str(order.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every listed name reads back as a choice whose `Display` is that name (random's with
    /// its seed), and an unlisted one is refused: the table, the parser and the names agree.
    #[test]
    fn each_listed_choice_parses_and_prints_as_its_name() {
        for (name, _) in Inference::CHOICES {
            assert_eq!(name.parse::<Inference>().unwrap().to_string(), name);
        }
        for (name, _) in VarOrder::CHOICES {
            assert_eq!(name.parse::<VarOrder>().unwrap().to_string(), name);
        }
        for (name, _) in ValueOrder::CHOICES {
            let order: ValueOrder = name.parse().unwrap();
            assert_eq!(order.name(), name);
            assert_eq!(order.to_string().parse::<ValueOrder>().unwrap(), order);
        }
        assert_eq!(
            "random(7)".parse::<ValueOrder>().unwrap(),
            ValueOrder::Random { seed: 7 }
        );
        assert!("mrv".parse::<Inference>().is_err());
        assert!("random(x)".parse::<ValueOrder>().is_err());
        assert!("lcg".parse::<VarOrder>().is_err());
    }
}
