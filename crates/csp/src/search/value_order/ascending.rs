//! `Ascending`: smallest value first.

use super::{walk, ChooseValue, Cursor};
use crate::search::core::Core;
use crate::VarId;

/// Tries the values from the smallest up.
#[derive(Clone)]
pub(crate) struct Ascending;

impl ChooseValue for Ascending {
    #[inline]
    fn next(&mut self, var: VarId, core: &Core<'_>, cursor: &mut Cursor) -> Option<i32> {
        walk(var, core, cursor)
    }
}
