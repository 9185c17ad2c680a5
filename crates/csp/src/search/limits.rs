//! `Limits`: when a solve, or any long loop that reads them through a `Poller`, stops early.

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
