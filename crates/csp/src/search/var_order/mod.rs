//! Variable orders: which unassigned variable the search branches on next.
//!
//! Each order is its own type, and the node loop is compiled once per order, so choosing one
//! costs no dynamic dispatch per node.

mod dom_deg;
mod dom_wdeg;
mod input_order;
mod min_domain;
mod phased;
mod ratio_heap;

pub(crate) use dom_deg::DomDeg;
pub(crate) use dom_wdeg::DomWdeg;
pub(crate) use input_order::InputOrder;
pub(crate) use min_domain::MinDomain;
pub(crate) use phased::{rank, Phased};

use super::core::Core;
use crate::{ConstraintId, VarId};
pub(crate) use ratio_heap::RatioHeap;

/// Picks the next variable; called only while some variable is unassigned.
pub(crate) trait SelectVar: Clone {
    fn select(&mut self, core: &mut Core<'_>) -> VarId;

    /// Whether the order needs the variables whose domains shrank (`Store::take_touched`).
    fn wants_touched(&self) -> bool {
        false
    }

    /// Constraint `c` just caused a failure.
    fn on_conflict(&mut self, c: ConstraintId, core: &Core<'_>) {
        let _ = (c, core);
    }

    /// The search took back its assignment of `var` (its domains are restored already).
    fn on_unassign(&mut self, var: VarId, core: &Core<'_>) {
        let _ = (var, core);
    }
}

/// The variables whose dynamic degree grew when `var` came back unassigned: in each of its
/// constraints that now has exactly two unassigned variables, the other one (it had no
/// other open variable there until now). A constraint with more open variables changes no
/// one's degree, so a large all-different costs a few looks, not a pass over its scope.
pub(crate) fn newly_linked<'c>(core: &'c Core<'_>, var: VarId) -> impl Iterator<Item = VarId> + 'c {
    core.model.constraints_on(var).iter().filter_map(move |&c| {
        let mut open = core.model.network.constraints[c.index()]
            .scope()
            .iter()
            .copied()
            .filter(|&u| u != var && !core.is_assigned(u));
        let other = open.next()?;
        open.all(|u| u == other).then_some(other)
    })
}
