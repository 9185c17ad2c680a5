//! `RandomOrder`: a seeded shuffle of the values at each node.

use super::{Arena, ChooseValue, Cursor};
use crate::rng::SplitMix64;
use crate::search::core::Core;
use crate::VarId;

/// Tries the values in a random order drawn from a seeded generator, so a seed always
/// reproduces the same search.
pub(crate) struct RandomOrder {
    arena: Arena,
    rng: SplitMix64,
}

impl RandomOrder {
    pub(crate) fn new(seed: u64) -> Self {
        RandomOrder {
            arena: Arena::default(),
            rng: SplitMix64::new(seed),
        }
    }
}

impl ChooseValue for RandomOrder {
    fn start(&mut self, var: VarId, core: &mut Core<'_>, cursor: &mut Cursor) {
        self.arena.open(cursor, core.store.domains.iter(var));
        let values = self.arena.slice_mut(cursor);
        for i in (1..values.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            values.swap(i, j);
        }
    }

    fn next(&mut self, _var: VarId, _core: &Core<'_>, cursor: &mut Cursor) -> Option<i32> {
        self.arena.next(cursor)
    }

    fn finish(&mut self, cursor: &Cursor) {
        self.arena.close(cursor);
    }
}
