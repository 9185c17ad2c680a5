//! `Outcome` and `Summary`: how a solve ended and what it did.

use super::Statistics;
use crate::Limit;
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

/// The end of a solve: its outcome and its statistics.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// How it ended.
    pub outcome: Outcome,
    /// What it did.
    pub stats: Statistics,
}
