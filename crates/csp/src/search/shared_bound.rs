//! `SharedBound`: the best objective value any worker of a portfolio has found, and that
//! solution, read by the others so that each prunes with the best bound of all and looks for
//! better around the best solution; also a bound raised from outside the process (a cube of a
//! distributed search told of a better solution found elsewhere).

use super::{Objective, Sense};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Mutex, PoisonError};

/// The best objective value found so far by any of the searches holding this, kept as a value
/// to minimise (a maximised objective negated). No solution yet: `i64::MAX`.
///
/// A search given one ([`Solver::shared_bound`](crate::Solver::shared_bound)) reads it at
/// every node and restart, and looks only for solutions strictly better than it; what it
/// finds better, it offers back. From outside, [`SharedBound::tighten`] says that a solution
/// of some value exists elsewhere, and [`SharedBound::best`] reads the best known.
///
/// ```
/// # fn main() -> Result<(), csp::ModelError> {
/// use csp::{Model, Sense, SharedBound, Solver};
/// use std::sync::Arc;
/// let mut model = Model::new();
/// let x = model.new_var(0..=9)?;
/// let bound = Arc::new(SharedBound::new());
/// // Elsewhere, a solution of value 3 was found: only better ones are looked for here.
/// bound.tighten(Sense::Minimize, 3);
/// let solver = Solver::new(&model).minimize(x).shared_bound(Arc::clone(&bound));
/// solver.solve(|s| {
///     assert!(s.value(x) < 3);
///     std::ops::ControlFlow::Continue(())
/// });
/// assert_eq!(bound.best(Sense::Minimize), Some(0));
/// // Nothing is better than 0: a search under that bound finds nothing.
/// assert_eq!(Solver::new(&model).minimize(x).shared_bound(bound).count(), 0);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct SharedBound {
    best: AtomicI64,
    /// The solution of that value, with its key.
    solution: Mutex<(i64, Vec<i32>)>,
}

impl Default for SharedBound {
    fn default() -> Self {
        SharedBound::new()
    }
}

impl SharedBound {
    /// No solution known.
    pub fn new() -> Self {
        SharedBound {
            best: AtomicI64::new(i64::MAX),
            solution: Mutex::new((i64::MAX, Vec::new())),
        }
    }

    /// A solution of `value` exists (found elsewhere), for an objective of this `sense`: the
    /// searches holding this look only for better ones from their next node on. A worse
    /// value changes nothing.
    pub fn tighten(&self, sense: Sense, value: i64) {
        self.best
            .fetch_min(Self::key(sense, value), Ordering::Relaxed);
    }

    /// `value` minimised: itself, or negated under `Maximize`.
    fn key(sense: Sense, value: i64) -> i64 {
        match sense {
            Sense::Minimize => value,
            Sense::Maximize => -value,
        }
    }

    /// `solution`, of this value, was found.
    pub(crate) fn offer(&self, objective: Objective, value: i64, solution: &[i32]) {
        let key = Self::key(objective.sense, value);
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

    /// The best value found by anyone, for an objective of this `sense`, if any.
    pub fn best(&self, sense: Sense) -> Option<i64> {
        let key = self.best.load(Ordering::Relaxed);
        (key != i64::MAX).then(|| Self::key(sense, key))
    }
}
