//! `DomWdeg`: domain size over weighted degree, weights learnt from failures.

use super::{smallest_ratio, SelectVar};
use crate::search::core::Core;
use crate::{ConstraintId, VarId};

/// Branches on the variable with the smallest domain size divided by the summed weights of its
/// constraints that still involve another unassigned variable. Every constraint starts at
/// weight 1 and gains 1 each time it causes a failure.
pub(crate) struct DomWdeg {
    weights: Vec<u64>,
}

impl DomWdeg {
    pub(crate) fn new(constraints: usize) -> Self {
        DomWdeg {
            weights: vec![1; constraints],
        }
    }
}

impl SelectVar for DomWdeg {
    fn select(&mut self, core: &Core<'_>) -> VarId {
        let weights = &self.weights;
        smallest_ratio(core, |var| {
            core.model
                .constraints_on(var)
                .iter()
                .filter(|&&c| core.has_other_open(c, var))
                .map(|c| weights[c.index()])
                .sum()
        })
    }

    fn on_conflict(&mut self, c: ConstraintId) {
        if let Some(w) = self.weights.get_mut(c.index()) {
            *w += 1;
        }
    }
}
