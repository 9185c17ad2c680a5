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
    /// These limits with the time limit counted from `start` (see [`Limits::since`]).
    pub fn counted_from(mut self, start: Instant) -> Self {
        self.since = Some(start);
        self
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
