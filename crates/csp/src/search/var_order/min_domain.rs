//! `MinDomain`: minimum remaining values, the fail-first principle.

use super::SelectVar;
use crate::search::core::Core;
use crate::VarId;

/// Branches on the unassigned variable with the fewest values left.
pub(crate) struct MinDomain;

impl SelectVar for MinDomain {
    fn select(&mut self, core: &mut Core<'_>) -> VarId {
        // The smallest (size, variable) pair, as one key: a branch-free minimum.
        let best = core
            .unassigned()
            .iter()
            .map(|&var| u64::from(core.store.domains.size(var)) << 32 | u64::from(var.0))
            .min();
        best.map_or(core.order[core.assigned_count], |key| VarId(key as u32))
    }
}
