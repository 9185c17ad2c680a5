//! `InputOrder`: the first unassigned variable in creation order.

use super::SelectVar;
use crate::search::core::Core;
use crate::VarId;

/// Branches on variables in the order they were created.
#[derive(Clone)]
pub(crate) struct InputOrder;

impl SelectVar for InputOrder {
    #[inline]
    fn select(&mut self, core: &mut Core<'_>) -> VarId {
        // Assigning in creation order keeps the assigned variables a prefix of `order`, which
        // starts in creation order, so the next one is always the first unassigned slot.
        core.order[core.assigned_count]
    }
}
