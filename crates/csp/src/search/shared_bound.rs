//! `SharedBound`: the best objective value any worker of a portfolio has found, and that
//! solution, read by the others so that each prunes with the best bound of all and looks for
//! better around the best solution.

use super::{Objective, Sense};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Mutex, PoisonError};

/// The best objective value found so far by any of the threads holding this, kept as a value
/// to minimise (a maximised objective negated). No solution yet: `i64::MAX`.
#[derive(Debug)]
pub(crate) struct SharedBound {
    best: AtomicI64,
    /// The solution of that value, with its key.
    solution: Mutex<(i64, Vec<i32>)>,
}

impl SharedBound {
    pub(crate) fn new() -> Self {
        SharedBound {
            best: AtomicI64::new(i64::MAX),
            solution: Mutex::new((i64::MAX, Vec::new())),
        }
    }

    /// `value` of `objective` minimised: itself, or negated under `Maximize`.
    fn key(objective: Objective, value: i64) -> i64 {
        match objective.sense {
            Sense::Minimize => value,
            Sense::Maximize => -value,
        }
    }

    /// `solution`, of this value, was found.
    pub(crate) fn offer(&self, objective: Objective, value: i64, solution: &[i32]) {
        let key = Self::key(objective, value);
        if self.best.fetch_min(key, Ordering::Relaxed) <= key {
            return;
        }
        let mut held = self.solution.lock().unwrap_or_else(PoisonError::into_inner);
        if key < held.0 {
            held.0 = key;
            held.1.clear();
            held.1.extend_from_slice(solution);
        }
    }

    /// Copies the best solution into `into`; false if there is none yet.
    pub(crate) fn copy_solution(&self, into: &mut [i32]) -> bool {
        let held = self.solution.lock().unwrap_or_else(PoisonError::into_inner);
        if held.1.len() != into.len() {
            return false;
        }
        into.copy_from_slice(&held.1);
        true
    }

    /// The best value found by anyone, in `objective`'s own terms, if any.
    pub(crate) fn best(&self, objective: Objective) -> Option<i64> {
        let key = self.best.load(Ordering::Relaxed);
        (key != i64::MAX).then(|| Self::key(objective, key))
    }
}
