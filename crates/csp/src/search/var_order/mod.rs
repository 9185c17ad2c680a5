//! Variable orders: which unassigned variable the search branches on next.
//!
//! Each order is its own type, and the node loop is compiled once per order, so choosing one
//! costs no dynamic dispatch per node.

mod dom_deg;
mod dom_wdeg;
mod input_order;
mod min_domain;

pub(crate) use dom_deg::DomDeg;
pub(crate) use dom_wdeg::DomWdeg;
pub(crate) use input_order::InputOrder;
pub(crate) use min_domain::MinDomain;

use super::core::Core;
use crate::{ConstraintId, VarId};

/// Picks the next variable; called only while some variable is unassigned.
pub(crate) trait SelectVar {
    fn select(&mut self, core: &Core<'_>) -> VarId;

    /// Constraint `c` just caused a failure.
    fn on_conflict(&mut self, c: ConstraintId) {
        let _ = c;
    }
}

/// The unassigned variable with the smallest `size / weight`, ties to the lowest id. Ratios are
/// compared by cross-multiplying, so no floating point is involved.
pub(crate) fn smallest_ratio(core: &Core<'_>, weight: impl Fn(VarId) -> u64) -> VarId {
    let mut best: Option<(VarId, u64, u64)> = None;
    for &var in core.unassigned() {
        let size = u64::from(core.store.domains.size(var));
        let w = weight(var).max(1);
        let better = match best {
            None => true,
            Some((b, b_size, b_w)) => {
                let (lhs, rhs) = (size * b_w, b_size * w);
                lhs < rhs || (lhs == rhs && var < b)
            }
        };
        if better {
            best = Some((var, size, w));
        }
    }
    match best {
        Some((var, _, _)) => var,
        None => core.order[core.assigned_count],
    }
}
