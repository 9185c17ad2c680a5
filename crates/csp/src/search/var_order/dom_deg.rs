//! `DomDeg`: domain size over dynamic degree.

use super::{smallest_ratio, SelectVar};
use crate::search::core::Core;
use crate::VarId;

/// Branches on the variable with the smallest domain size divided by the number of its
/// constraints that still involve another unassigned variable.
pub(crate) struct DomDeg;

impl SelectVar for DomDeg {
    fn select(&mut self, core: &Core<'_>) -> VarId {
        smallest_ratio(core, |var| {
            core.model
                .constraints_on(var)
                .iter()
                .filter(|&&c| core.has_other_open(c, var))
                .count() as u64
        })
    }
}
