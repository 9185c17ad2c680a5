//! `Descending`: largest value first.

use super::{ChooseValue, Cursor};
use crate::search::core::Core;
use crate::VarId;

/// Tries the values from the largest down.
#[derive(Clone)]
pub(crate) struct Descending;

impl ChooseValue for Descending {
    #[inline]
    fn next(&mut self, var: VarId, core: &Core<'_>, cursor: &mut Cursor) -> Option<i32> {
        let value = core.store.domains.next_below(var, cursor.last)?;
        cursor.last = Some(value);
        Some(value)
    }
}
