//! Value orders: in which order the values of the branching variable are tried.
//!
//! Orders that walk the domain (ascending, descending) keep only the last value tried. Orders
//! that rank the values (least constraining, random) write the ranking into one arena shared by
//! all open nodes, so no node allocates once the arena has grown to the deepest branch; the
//! random order writes it only at a node's second value.

mod ascending;
mod descending;
mod least_constraining;
mod phased_values;
mod random_order;

pub(crate) use ascending::Ascending;
pub(crate) use descending::Descending;
pub(crate) use least_constraining::LeastConstraining;
pub(crate) use phased_values::PhasedValues;
pub(crate) use random_order::RandomOrder;

use super::core::Core;
use crate::VarId;

/// Where a node is in its list of values.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Cursor {
    /// The value tried last, for orders that walk the domain.
    pub(crate) last: Option<i32>,
    /// The node's slice of the arena: `arena[next..end]` are still to be tried.
    pub(crate) start: u32,
    pub(crate) next: u32,
    pub(crate) end: u32,
    /// A ranking order met a domain too wide to rank and walks it from the smallest up.
    pub(crate) walking: bool,
    /// Which of its strategies an order that has several follows at this node.
    pub(crate) strategy: u8,
    /// The position in the domain of the first value drawn, for orders that list the values
    /// only when a second is asked for.
    pub(crate) drawn: u32,
}

/// The most values a ranking order (least constraining, random) ranks at a node; a wider
/// domain (bounds and holes, up to 2^32 values) is tried from its smallest value up instead of
/// being listed whole.
pub(crate) const MOST_VALUES_RANKED: u64 = 1 << 16;

/// For the ranking orders: walks `var` from the smallest value up when its domain is too wide
/// to rank (then `cursor.walking` is set, and the order's `next` calls `walk`).
fn too_wide_to_rank(var: VarId, core: &Core<'_>, cursor: &mut Cursor) -> bool {
    cursor.walking = core.store.domains.size_u64(var) > MOST_VALUES_RANKED;
    cursor.walking
}

/// The next value of a walk from the smallest value up.
#[inline(always)]
fn walk(var: VarId, core: &Core<'_>, cursor: &mut Cursor) -> Option<i32> {
    let value = core.store.domains.next_above(var, cursor.last)?;
    cursor.last = Some(value);
    Some(value)
}

/// How a two-way node cuts its variable's domain, as FlatZinc solvers branch (Gecode, Chuffed):
/// a decision and its negation, each propagated, the variable chosen afresh below each.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TwoWay {
    /// `x <= mid` and `x > mid`, `mid` the mean of the bounds rounded down (`indomain_split`);
    /// the upper half first when `upper_first` (`indomain_reverse_split`).
    Bisect { upper_first: bool },
    /// `x = min`, then `x != min` (`indomain_min`).
    Min,
    /// `x = max`, then `x != max` (`indomain_max`).
    Max,
    /// `x = m`, then `x != m`, for `m` the lower median of the domain (`indomain_median`).
    Median,
}

/// Yields the values of one node's variable. `next` is called with the domains as they were
/// when the node started.
pub(crate) trait ChooseValue: Clone {
    /// A node on `var` starts.
    fn start(&mut self, var: VarId, core: &mut Core<'_>, cursor: &mut Cursor) {
        let _ = (var, core, cursor);
    }

    /// The next value to try, or `None` when the node is done.
    fn next(&mut self, var: VarId, core: &Core<'_>, cursor: &mut Cursor) -> Option<i32>;

    /// Whether a node on `var` branches two ways under `mac` rather than trying its values
    /// one by one, and how. The default, `None`, tries values.
    fn two_way(&self, var: VarId) -> Option<TwoWay> {
        let _ = var;
        None
    }

    /// The node is done: release what `start` took.
    fn finish(&mut self, cursor: &Cursor) {
        let _ = cursor;
    }
}

/// The shared arena of ranked values for the ranking orders.
#[derive(Clone, Debug, Default)]
pub(crate) struct Arena {
    values: Vec<i32>,
}

impl Arena {
    /// Appends a node's ranked values and points `cursor` at them.
    fn open(&mut self, cursor: &mut Cursor, ranked: impl Iterator<Item = i32>) {
        cursor.start = self.values.len() as u32;
        self.values.extend(ranked);
        cursor.next = cursor.start;
        cursor.end = self.values.len() as u32;
    }

    fn next(&self, cursor: &mut Cursor) -> Option<i32> {
        if cursor.next < cursor.end {
            cursor.next += 1;
            Some(self.values[cursor.next as usize - 1])
        } else {
            None
        }
    }

    fn close(&mut self, cursor: &Cursor) {
        self.values.truncate(cursor.start as usize);
    }

    fn slice_mut(&mut self, cursor: &Cursor) -> &mut [i32] {
        &mut self.values[cursor.start as usize..cursor.end as usize]
    }
}
