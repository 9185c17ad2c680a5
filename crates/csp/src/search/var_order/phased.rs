//! `Phased`: the variable selection of a declared search, phase after phase, then another
//! order for the variables no phase names.

use super::SelectVar;
use crate::search::core::Core;
use crate::search::phase::{Phase, VarSelect};
use crate::{ConstraintId, VarId};

/// Picks in the first phase that has an unassigned variable, by that phase's selection; once
/// every phase is done, `rest` picks among the others.
#[derive(Clone)]
pub(crate) struct Phased<V> {
    phases: Vec<Phase>,
    rest: V,
}

impl<V: SelectVar> Phased<V> {
    pub(crate) fn new(phases: Vec<Phase>, rest: V) -> Self {
        Phased { phases, rest }
    }
}

/// How a variable ranks under `select`: lower is picked first.
pub(crate) fn rank(select: VarSelect, core: &Core<'_>, var: VarId) -> i64 {
    let domains = &core.store.domains;
    let min = domains.min(var).map_or(0, i64::from);
    match select {
        VarSelect::InputOrder => 0,
        VarSelect::FirstFail => domains.size_u64(var) as i64,
        VarSelect::AntiFirstFail => -(domains.size_u64(var) as i64),
        VarSelect::Smallest => min,
        VarSelect::Largest => -domains.max(var).map_or(0, i64::from),
        VarSelect::MaxRegret => {
            let second = domains.next_above(var, domains.min(var));
            -second.map_or(0, |s| i64::from(s) - min)
        }
    }
}

impl<V: SelectVar> SelectVar for Phased<V> {
    fn select(&mut self, core: &mut Core<'_>) -> VarId {
        for phase in &self.phases {
            let mut best: Option<(i64, VarId)> = None;
            for &var in phase.vars.iter().filter(|&&v| !core.is_assigned(v)) {
                let r = rank(phase.select, core, var);
                if best.is_none_or(|(b, _)| r < b) {
                    best = Some((r, var));
                    if phase.select == VarSelect::InputOrder {
                        break;
                    }
                }
            }
            if let Some((_, var)) = best {
                return var;
            }
        }
        self.rest.select(core)
    }

    fn wants_touched(&self) -> bool {
        self.rest.wants_touched()
    }

    fn on_conflict(&mut self, c: ConstraintId, core: &Core<'_>) {
        self.rest.on_conflict(c, core);
    }

    fn on_unassign(&mut self, var: VarId, core: &Core<'_>) {
        self.rest.on_unassign(var, core);
    }
}
