//! `Limits` and `Limit`: when a solve, or any long loop that reads them through a `Poller`,
//! stops early, and which of them stopped it.

use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When to stop early. A solve that stops on a limit says which one.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop once this many nodes have been tried.
    pub nodes: Option<u64>,
    /// Stop once this much time has passed since `since`.
    pub time: Option<Duration>,
    /// When the time limit started counting: `None` counts from the start of each solve (or
    /// of each [`Poller`](crate::Poller)); an instant counts the work before it too, such as
    /// reading the input and building the model.
    pub since: Option<Instant>,
    /// Stop as soon as another thread sets this flag.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limit at all: stop only when the work is done.
    pub fn none() -> Self {
        Limits::default()
    }

    /// These limits with the time limit counted from `start` (see [`Limits::since`]).
    pub fn counted_from(mut self, start: Instant) -> Self {
        self.since = Some(start);
        self
    }

    /// These limits with the node limit `nodes` (`None`: no node limit).
    pub fn with_nodes(mut self, nodes: Option<u64>) -> Self {
        self.nodes = nodes;
        self
    }

    /// These limits with the time limit `time` (`None`: no time limit).
    pub fn with_time(mut self, time: Option<Duration>) -> Self {
        self.time = time;
        self
    }

    /// These limits with their time limit cut to `time` if it is longer (or absent): a
    /// second time limit given another way, as FlatZinc's `-t`.
    pub fn with_time_at_most(mut self, time: Duration) -> Self {
        self.time = Some(self.time.map_or(time, |t| t.min(time)));
        self
    }

    /// These limits with `flag` as the cancel flag, in place of any other.
    pub fn with_cancel(mut self, flag: &Arc<AtomicBool>) -> Self {
        self.cancel = Some(Arc::clone(flag));
        self
    }

    /// These limits for work that must also stop when `flag` is set: the same limits, the
    /// cancel flag replaced by `flag` (the caller relays its own flag to it, as a race of
    /// two solvers does).
    pub fn cancelled_by(&self, flag: &Arc<AtomicBool>) -> Self {
        self.clone().with_cancel(flag)
    }

    /// These limits with the node limit less the `spent` nodes already used: for a run of
    /// several searches that share it.
    pub fn less_nodes(&self, spent: u64) -> Self {
        let mut limits = self.clone();
        limits.nodes = self.nodes.map(|n| n.saturating_sub(spent));
        limits
    }
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
