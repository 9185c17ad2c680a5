//! `DomWdeg`: domain size over weighted degree (or the weighted degree alone), weights learnt
//! from failures.

use super::{newly_linked, RatioHeap, SelectVar};
use crate::search::core::Core;
use crate::{ConstraintId, VarId};

/// Branches on the variable with the smallest domain size divided by the summed weights of its
/// constraints that still involve another unassigned variable, kept in a heap. Every
/// constraint starts at weight 1 and gains 1 each time it causes a failure.
#[derive(Clone)]
pub(crate) struct DomWdeg {
    weights: Vec<u64>,
    heap: RatioHeap,
}

impl DomWdeg {
    pub(crate) fn new(constraints: usize) -> Self {
        DomWdeg {
            weights: vec![1; constraints],
            heap: RatioHeap::default(),
        }
    }

    /// wdeg: the weighted degree alone decides between open variables.
    pub(crate) fn weight_only(constraints: usize) -> Self {
        DomWdeg {
            weights: vec![1; constraints],
            heap: RatioHeap::sizes_ignored(),
        }
    }
}

/// The weighted dynamic degree of `var`.
fn weighted_degree(weights: &[u64], core: &Core<'_>, var: VarId) -> u64 {
    core.model
        .constraints_on(var)
        .iter()
        .filter(|&&c| core.has_other_open(c, var))
        .map(|c| weights[c.index()])
        .sum()
}

impl SelectVar for DomWdeg {
    fn select(&mut self, core: &mut Core<'_>) -> VarId {
        let DomWdeg { weights, heap } = self;
        heap.pick(core, |core, var| weighted_degree(weights, core, var))
    }

    fn wants_touched(&self) -> bool {
        true
    }

    fn on_conflict(&mut self, c: ConstraintId, core: &Core<'_>) {
        let Some(w) = self.weights.get_mut(c.index()) else {
            return;
        };
        *w += 1;
        // A heavier constraint lowers the ratio of every variable it counts for.
        let DomWdeg { weights, heap } = self;
        if !heap.is_started() {
            return;
        }
        let weight = |core: &Core<'_>, var: VarId| weighted_degree(weights, core, var);
        for &var in core.model.network.constraints[c.index()].scope() {
            heap.update(core, var, &weight);
        }
    }

    fn on_unassign(&mut self, var: VarId, core: &Core<'_>) {
        let DomWdeg { weights, heap } = self;
        if !heap.is_started() {
            return;
        }
        let weight = |core: &Core<'_>, v: VarId| weighted_degree(weights, core, v);
        heap.insert(core, var, &weight);
        for u in newly_linked(core, var) {
            heap.update(core, u, &weight);
        }
    }
}

#[cfg(test)]
mod tests;
