//! `MinDomain`: minimum remaining values, the fail-first principle.

use super::SelectVar;
use crate::search::core::Core;
use crate::VarId;

/// Branches on the unassigned variable with the fewest values left, the lowest id first
/// among equals.
#[derive(Clone, Default)]
pub(crate) struct MinDomain {
    /// The unassigned variables left with one value when the last scan found one, highest id
    /// first, so that the next is popped off the end. Under `mac` propagation fixes most of a
    /// sudoku's cells, and the search then assigns them one by one without any domain
    /// changing: each would be what a fresh scan returns, so the scan is made once for them
    /// all instead of once each (it was a twentieth of the general engine's sudoku time).
    fixed: Vec<VarId>,
    /// `Store::pruned` when `fixed` was filled: any removal since may have fixed a variable
    /// of lower id, which a scan would prefer, so the list is then dropped.
    pruned_then: u64,
}

impl SelectVar for MinDomain {
    fn select(&mut self, core: &mut Core<'_>) -> VarId {
        if self.pruned_then == core.store.pruned {
            while let Some(var) = self.fixed.pop() {
                if !core.store.assigned[var.index()] && core.store.domains.size(var) == 1 {
                    return var;
                }
            }
        } else {
            self.fixed.clear();
        }
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
            Some(key) if key >> 63 == 0 => {
                if key >> 32 == 1 {
                    self.note_fixed(core, key as u32);
                }
                VarId(key as u32)
            }
            _ => core.order[core.assigned_count],
        }
    }

    /// A backtrack makes the list stale (the variable may be taken back, others unfixed).
    fn on_unassign(&mut self, _var: VarId, _core: &Core<'_>) {
        self.fixed.clear();
    }
}

impl MinDomain {
    /// Lists the unassigned one-value variables above `first` (the one the scan returns) for
    /// the next selections.
    fn note_fixed(&mut self, core: &Core<'_>, first: u32) {
        self.fixed.clear();
        let sizes = core.store.domains.sizes();
        let assigned = &core.store.assigned;
        for var in (first as usize + 1..sizes.len()).rev() {
            if sizes[var] == 1 && !assigned[var] {
                self.fixed.push(VarId(var as u32));
            }
        }
        self.pruned_then = core.store.pruned;
    }
}
