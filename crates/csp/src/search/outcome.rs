//! `Outcome` and `Summary`: how a solve ended and what it did.

use super::Statistics;
use serde::Serialize;

/// Why a solve stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// It found the solutions asked for (the first, the first K, or as many as the caller
    /// took) and stopped there.
    Solved,
    /// It explored the whole search space: every solution was delivered (maybe none).
    Exhausted,
    /// A limit stopped it before either.
    LimitReached(Limit),
}

/// Which limit stopped a solve.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// The node limit.
    Nodes,
    /// The time limit.
    Time,
    /// The cancel flag.
    Cancelled,
}

/// The end of a solve: its outcome and its statistics.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// How it ended.
    pub outcome: Outcome,
    /// What it did.
    pub stats: Statistics,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::Nodes => "the node limit",
            Limit::Time => "the time limit",
            Limit::Cancelled => "a cancel request",
        })
    }
}

/// A limit that stopped some work before it was done, as an error of the work.
impl std::error::Error for Limit {}
