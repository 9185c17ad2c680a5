//! `DomDeg`: domain size over dynamic degree.

use super::{newly_linked, RatioHeap, SelectVar};
use crate::search::core::Core;
use crate::VarId;

/// Branches on the variable with the smallest domain size divided by the number of its
/// constraints that still involve another unassigned variable, kept in a heap.
#[derive(Clone, Default)]
pub(crate) struct DomDeg {
    heap: RatioHeap,
}

/// The dynamic degree of `var`.
fn degree(core: &Core<'_>, var: VarId) -> u64 {
    core.model
        .constraints_on(var)
        .iter()
        .filter(|&&c| core.has_other_open(c, var))
        .count() as u64
}

impl SelectVar for DomDeg {
    fn select(&mut self, core: &mut Core<'_>) -> VarId {
        self.heap.pick(core, degree)
    }

    fn wants_touched(&self) -> bool {
        true
    }

    fn on_unassign(&mut self, var: VarId, core: &Core<'_>) {
        if !self.heap.is_started() {
            return;
        }
        self.heap.insert(core, var, &degree);
        for u in newly_linked(core, var) {
            self.heap.update(core, u, &degree);
        }
    }
}
