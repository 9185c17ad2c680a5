//! `PolicyError`: an option, a limit or a proof file refused, in one set of words that each
//! front end spells its own way ([`Spelling`]).

use csp::Inference;
use std::fmt;

/// How a front end names its options in a message: the command line's flags
/// (`--time-limit`) or Python's keyword arguments (`time_limit`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// `--time-limit`, `--var-order`, ...
    Flags,
    /// `time_limit`, `var_order`, ...
    Keywords,
}

/// An option a message names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Opt {
    /// The inference.
    Inference,
    /// The variable order.
    VarOrder,
    /// The value order.
    ValOrder,
    /// The seed of random values.
    Seed,
    /// Luby restarts.
    Restarts,
    /// The time limit.
    TimeLimit,
    /// The node limit.
    NodeLimit,
    /// Large neighbourhood search.
    Lns,
    /// Decisions that follow the incumbent.
    IncumbentPhase,
    /// The proof file.
    Proof,
    /// The LP relaxation.
    Lp,
}

impl Opt {
    /// The option's name as `spelling` writes it.
    pub const fn name(self, spelling: Spelling) -> &'static str {
        let (flag, keyword) = match self {
            Opt::Inference => ("--inference", "inference"),
            Opt::VarOrder => ("--var-order", "var_order"),
            Opt::ValOrder => ("--val-order", "value_order"),
            Opt::Seed => ("--seed", "seed"),
            Opt::Restarts => ("--restarts", "restarts"),
            Opt::TimeLimit => ("--time-limit", "time_limit"),
            Opt::NodeLimit => ("--node-limit", "node_limit"),
            Opt::Lns => ("--lns", "lns"),
            Opt::IncumbentPhase => ("--incumbent-phase", "incumbent_phase"),
            Opt::Proof => ("--proof", "proof"),
            Opt::Lp => ("--lp", "lp"),
        };
        match spelling {
            Spelling::Flags => flag,
            Spelling::Keywords => keyword,
        }
    }
}

/// Why the options of a run, or its proof files, are refused.
#[derive(Debug)]
pub enum PolicyError {
    /// A time limit that is not a number of seconds (as written).
    TimeNotSeconds(String),
    /// A negative time limit (as written).
    TimeNegative(String),
    /// A time limit beyond [`crate::MAX_TIME_LIMIT_SECS`] (as written).
    TimeTooLong(String),
    /// A node limit of 0, which would stop before the first node.
    NodeLimitZero,
    /// A seed that seeds nothing: the values are not random.
    SeedUnused,
    /// A variable order given to an inference that does not follow one.
    VarOrderNotFollowed(Inference),
    /// A value order given to an inference that does not follow it.
    ValOrderNotFollowed {
        /// The order's name.
        order: &'static str,
        /// The inference asked for.
        inference: Inference,
    },
    /// Restarts asked for a search for many solutions; `instead` says what to do.
    RestartsForMany {
        /// The advice, in the front end's words.
        instead: String,
    },
    /// An option only learning takes, given to another inference.
    NeedsLearning {
        /// The option.
        option: Opt,
        /// The inference it was given with.
        inference: Inference,
    },
    /// A proof asked of a search that does not learn.
    ProofNeedsLearning,
    /// The LP asked for (`on`) beside a proof, which cannot log its inferences.
    LpWithProof,
    /// The declared search asked for in every run and left out (`-f`) at once (options
    /// of `csp fzn` alone).
    DeclaredOnlyFree,
    /// The proof, the model written beside it and the input would overwrite one another.
    ProofOverwrites {
        /// The proof's path.
        proof: String,
        /// The model's path beside it.
        model: String,
    },
    /// The model cannot be written for the checker, or a proof file cannot be written.
    Proof(String),
}

impl PolicyError {
    /// The message, with the options named as `spelling` names them.
    pub fn message(&self, spelling: Spelling) -> String {
        let name = |opt: Opt| opt.name(spelling);
        let inference = |i: &Inference| format!("{} {i}", name(Opt::Inference));
        match self {
            PolicyError::TimeNotSeconds(text) => {
                format!(
                    "{} '{text}' is not a number of seconds",
                    name(Opt::TimeLimit)
                )
            }
            PolicyError::TimeNegative(text) => {
                format!(
                    "{} '{text}' must be zero or more seconds",
                    name(Opt::TimeLimit)
                )
            }
            PolicyError::TimeTooLong(text) => format!(
                "{} '{text}' is too long: at most {:.0} seconds (a century); leave it out for no \
                 limit",
                name(Opt::TimeLimit),
                crate::MAX_TIME_LIMIT_SECS
            ),
            PolicyError::NodeLimitZero => format!("{} must be at least 1", name(Opt::NodeLimit)),
            PolicyError::SeedUnused => format!(
                "{} applies to {} random only",
                name(Opt::Seed),
                name(Opt::ValOrder)
            ),
            PolicyError::VarOrderNotFollowed(i) => format!(
                "{} does not apply to {}, which branches on the variables most active in recent \
                 conflicts",
                name(Opt::VarOrder),
                inference(i)
            ),
            PolicyError::ValOrderNotFollowed {
                order,
                inference: i,
            } => format!(
                "{} {order} does not apply to {}, which tries the most active value first (asc \
                 and desc choose the end of a wide domain)",
                name(Opt::ValOrder),
                inference(i)
            ),
            PolicyError::RestartsForMany { instead } => format!(
                "{} applies to a search for one solution: {instead}",
                name(Opt::Restarts)
            ),
            PolicyError::NeedsLearning {
                option,
                inference: i,
            } => format!(
                "{} applies to {} lcg, not {i}",
                name(*option),
                name(Opt::Inference)
            ),
            PolicyError::ProofNeedsLearning => format!(
                "{} needs {} lcg: only learning explains what it proves",
                name(Opt::Proof),
                name(Opt::Inference)
            ),
            PolicyError::LpWithProof => format!(
                "{} on: a proof cannot log the LP's inferences (its checker knows no LP \
                 steps); leave {} out or off with {}",
                name(Opt::Lp),
                name(Opt::Lp),
                name(Opt::Proof)
            ),
            PolicyError::DeclaredOnlyFree => "--declared-only follows the model's search in \
                 every run and -f (free search) leaves it out; give one of them"
                .to_owned(),
            PolicyError::ProofOverwrites { proof, model } => format!(
                "{} {proof}: the proof and the model written beside it ({model}) would overwrite \
                 one another or the input; name the proof FILE.drcp in another place",
                name(Opt::Proof)
            ),
            PolicyError::Proof(detail) => format!("{}: {detail}", name(Opt::Proof)),
        }
    }
}

/// The command line's words.
impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Spelling::Flags))
    }
}

impl std::error::Error for PolicyError {}

/// The command line's words, for a front end whose errors are lines of text (`?` into a
/// `Result<_, String>`).
impl From<PolicyError> for String {
    fn from(error: PolicyError) -> Self {
        error.to_string()
    }
}
