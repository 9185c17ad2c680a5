//! `Ascending`: smallest value first.

use super::{ChooseValue, Cursor};
use crate::search::core::Core;
use crate::VarId;

/// Tries the values from the smallest up.
pub(crate) struct Ascending;

impl ChooseValue for Ascending {
    #[inline]
    fn next(&mut self, var: VarId, core: &Core<'_>, cursor: &mut Cursor) -> Option<i32> {
        let value = core.store.domains.next_above(var, cursor.last)?;
        cursor.last = Some(value);
        Some(value)
    }
}
