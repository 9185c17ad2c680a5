//! `PhasedValues`: the value orders of a declared search for the variables its phases name,
//! another order for the rest.

use super::{
    too_wide_to_rank, Arena, Ascending, ChooseValue, Cursor, Descending, RandomOrder, TwoWay,
};
use crate::search::core::Core;
use crate::search::phase::{Phase, ValueSelect};
use crate::VarId;

/// The strategies a node of a phase's variable follows, kept in its cursor.
const INNER: u8 = 0;
const UP: u8 = 1;
const DOWN: u8 = 2;
const RANDOM: u8 = 3;
const MEDIAN: u8 = 4;

/// Orders the values of each phase variable as its (first) phase says, through the engine's
/// own orders where one fits (ascending, descending, random); `rest` orders the others.
#[derive(Clone)]
pub(crate) struct PhasedValues<W> {
    /// For each variable, the value selection of the first phase that names it.
    by_var: Vec<Option<ValueSelect>>,
    rest: W,
    random: RandomOrder,
    /// Median-first rankings, one slice per open node.
    arena: Arena,
}

impl<W: ChooseValue> PhasedValues<W> {
    pub(crate) fn new(phases: &[Phase], vars: usize, seed: u64, rest: W) -> Self {
        let mut by_var = vec![None; vars];
        for phase in phases.iter().rev() {
            for &v in &phase.vars {
                if let Some(slot) = by_var.get_mut(v.index()) {
                    *slot = Some(phase.value);
                }
            }
        }
        PhasedValues {
            by_var,
            rest,
            random: RandomOrder::new(seed),
            arena: Arena::default(),
        }
    }
}

impl<W: ChooseValue> ChooseValue for PhasedValues<W> {
    fn start(&mut self, var: VarId, core: &mut Core<'_>, cursor: &mut Cursor) {
        let Some(select) = self.by_var.get(var.index()).copied().flatten() else {
            cursor.strategy = INNER;
            return self.rest.start(var, core, cursor);
        };
        cursor.strategy = match select {
            ValueSelect::Min | ValueSelect::Split => UP,
            ValueSelect::Max | ValueSelect::ReverseSplit => DOWN,
            ValueSelect::Random => {
                self.random.start(var, core, cursor);
                RANDOM
            }
            ValueSelect::Median if too_wide_to_rank(var, core, cursor) => UP,
            ValueSelect::Median => {
                let mut ranked: Vec<i32> = core.store.domains.iter(var).collect();
                let median = i64::from(ranked[(ranked.len() - 1) / 2]);
                ranked.sort_by_key(|&v| ((i64::from(v) - median).abs(), v));
                self.arena.open(cursor, ranked.into_iter());
                MEDIAN
            }
        };
    }

    fn next(&mut self, var: VarId, core: &Core<'_>, cursor: &mut Cursor) -> Option<i32> {
        match cursor.strategy {
            INNER => self.rest.next(var, core, cursor),
            UP => Ascending.next(var, core, cursor),
            DOWN => Descending.next(var, core, cursor),
            RANDOM => self.random.next(var, core, cursor),
            _ => self.arena.next(cursor),
        }
    }

    fn two_way(&self, var: VarId) -> Option<TwoWay> {
        match self.by_var.get(var.index()).copied().flatten()? {
            ValueSelect::Split => Some(TwoWay::Bisect { upper_first: false }),
            ValueSelect::ReverseSplit => Some(TwoWay::Bisect { upper_first: true }),
            ValueSelect::Min => Some(TwoWay::Min),
            ValueSelect::Max => Some(TwoWay::Max),
            ValueSelect::Median => Some(TwoWay::Median),
            // Drawn afresh at each node, a random value would need the generator here; the
            // values are tried one by one in one random order instead.
            ValueSelect::Random => None,
        }
    }

    fn finish(&mut self, cursor: &Cursor) {
        match cursor.strategy {
            INNER => self.rest.finish(cursor),
            RANDOM => self.random.finish(cursor),
            MEDIAN => self.arena.close(cursor),
            _ => {}
        }
    }
}
