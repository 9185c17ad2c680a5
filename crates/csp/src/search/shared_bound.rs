//! `SharedBound`: the best objective value any worker of a portfolio has found, read by the
//! others so that each prunes with the best bound of all.

use super::{Objective, Sense};
use std::sync::atomic::{AtomicI64, Ordering};

/// The best objective value found so far by any of the threads holding this, kept as a value
/// to minimise (a maximised objective negated). No solution yet: `i64::MAX`.
#[derive(Debug)]
pub(crate) struct SharedBound {
    best: AtomicI64,
}

impl SharedBound {
    pub(crate) fn new() -> Self {
        SharedBound {
            best: AtomicI64::new(i64::MAX),
        }
    }

    /// `value` of `objective` minimised: itself, or negated under `Maximize`.
    fn key(objective: Objective, value: i64) -> i64 {
        match objective.sense {
            Sense::Minimize => value,
            Sense::Maximize => -value,
        }
    }

    /// A solution of this value was found.
    pub(crate) fn offer(&self, objective: Objective, value: i64) {
        self.best
            .fetch_min(Self::key(objective, value), Ordering::Relaxed);
    }

    /// The best value found by anyone, in `objective`'s own terms, if any.
    pub(crate) fn best(&self, objective: Objective) -> Option<i64> {
        let key = self.best.load(Ordering::Relaxed);
        (key != i64::MAX).then(|| Self::key(objective, key))
    }
}
