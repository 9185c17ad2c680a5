//! `LeastConstraining`: the value that leaves the neighbours the most room first.

use super::{too_wide_to_rank, walk, Arena, ChooseValue, Cursor};
use crate::search::core::Core;
use crate::VarId;

/// Ranks the values by how many values forward checking would remove from the other
/// variables (a wipe-out ranks last), fewest first, ties smallest first. The look-ahead's
/// compatibility tests count as constraint checks; its removals are undone and do not count
/// as pruned. A domain of over 65,536 values is walked from its smallest value up instead.
#[derive(Clone, Default)]
pub(crate) struct LeastConstraining {
    arena: Arena,
    scored: Vec<(u64, i32)>,
}

impl ChooseValue for LeastConstraining {
    fn start(&mut self, var: VarId, core: &mut Core<'_>, cursor: &mut Cursor) {
        if too_wide_to_rank(var, core, cursor) {
            self.arena.open(cursor, std::iter::empty());
            return;
        }
        self.scored.clear();
        self.scored
            .extend(core.store.domains.iter(var).map(|v| (0, v)));
        for i in 0..self.scored.len() {
            let value = self.scored[i].1;
            let mark = core.store.domains.mark();
            let pruned_before = core.store.pruned;
            core.assign(var, value);
            let score = match core.forward_check_quietly(var) {
                Ok(()) => core.store.pruned - pruned_before,
                Err(_) => u64::MAX,
            };
            core.unassign(var);
            core.store.domains.restore(mark);
            core.store.pruned = pruned_before;
            self.scored[i].0 = score;
        }
        self.scored.sort_unstable();
        self.arena.open(cursor, self.scored.iter().map(|&(_, v)| v));
    }

    fn next(&mut self, var: VarId, core: &Core<'_>, cursor: &mut Cursor) -> Option<i32> {
        if cursor.walking {
            return walk(var, core, cursor);
        }
        self.arena.next(cursor)
    }

    fn finish(&mut self, cursor: &Cursor) {
        self.arena.close(cursor);
    }
}
