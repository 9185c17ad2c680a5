//! `MinDomain`: minimum remaining values, the fail-first principle.

use super::SelectVar;
use crate::search::core::Core;
use crate::VarId;

/// Branches on the unassigned variable with the fewest values left.
pub(crate) struct MinDomain;

impl SelectVar for MinDomain {
    fn select(&mut self, core: &mut Core<'_>) -> VarId {
        let mut best = core.order[core.assigned_count];
        let mut best_size = u32::MAX;
        for &var in core.unassigned() {
            let size = core.store.domains.size(var);
            if size < best_size || (size == best_size && var < best) {
                best = var;
                best_size = size;
            }
        }
        best
    }
}
