//! `MinDomain`: minimum remaining values, the fail-first principle.

use super::SelectVar;
use crate::search::core::Core;
use crate::VarId;

/// Branches on the unassigned variable with the fewest values left.
#[derive(Clone)]
pub(crate) struct MinDomain;

impl SelectVar for MinDomain {
    fn select(&mut self, core: &mut Core<'_>) -> VarId {
        // The smallest (size, variable) pair, as one key, over every variable in id order
        // with the assigned ones keyed out of reach: a branch-free pass over two arrays that
        // the compiler vectorises. Walking only the unassigned ones (a permutation) gathered
        // the sizes one at a time and cost more until nearly every variable was assigned.
        let sizes = core.store.domains.sizes();
        let assigned = &core.store.assigned;
        let best = sizes
            .iter()
            .zip(assigned)
            .enumerate()
            .map(|(var, (&size, &done))| {
                (u64::from(done) << 63) | u64::from(size) << 32 | var as u64
            })
            .min();
        match best {
            Some(key) if key >> 63 == 0 => VarId(key as u32),
            _ => core.order[core.assigned_count],
        }
    }
}
