//! `IntervalDomain`: a domain of any span held as its bounds and the holes cut out between them.
//!
//! A bitset costs a bit per value of the span, which rules out `0..=10^9`. A variable whose span
//! is too wide for one keeps instead its smallest and largest values, its size, and the removed
//! runs strictly inside its bounds as a map from each run's first value to its last. Memory grows
//! with the number of holes, never with the span. Bounds moves, the common change on wide domains
//! (linear sums, comparisons), cost no hole at all.
//!
//! Changes are undone from a trail of [`IntervalUndo`] records, never by cloning: a change first
//! records the domain's old bounds and size, and every hole inserted or dropped while merging is
//! recorded so that it can be taken out or put back.

use crate::propagation::declared_domain::DeclaredDomain;
use std::collections::BTreeMap;

/// One variable's values: `lo..=hi` less the holes, `size` of them; empty when `size` is 0.
#[derive(Clone, Debug)]
pub(crate) struct IntervalDomain {
    lo: i32,
    hi: i32,
    size: u64,
    /// Removed runs, first value to last; disjoint and never adjacent (adjacent runs merge).
    /// Runs outside `lo..=hi` may linger after the bounds moved past them; they are ignored.
    holes: BTreeMap<i32, i32>,
}

/// How to undo one change to an interval domain (`index` is its place among them).
#[derive(Copy, Clone, Debug)]
pub(crate) enum IntervalUndo {
    /// The bounds and size before a change.
    State {
        index: u32,
        lo: i32,
        hi: i32,
        size: u64,
    },
    /// A hole starting at `start` was inserted: take it out.
    HoleAdded { index: u32, start: i32 },
    /// The hole `start..=end` was dropped while merging: put it back.
    HoleRemoved { index: u32, start: i32, end: i32 },
}

impl IntervalUndo {
    /// The domain the record belongs to.
    pub(crate) fn index(&self) -> usize {
        match *self {
            IntervalUndo::State { index, .. }
            | IntervalUndo::HoleAdded { index, .. }
            | IntervalUndo::HoleRemoved { index, .. } => index as usize,
        }
    }
}

impl IntervalDomain {
    /// The declared domain, held as its bounds and holes.
    pub(crate) fn new(declared: &DeclaredDomain) -> Self {
        IntervalDomain {
            lo: declared.low,
            hi: declared.high,
            size: declared.size(),
            holes: declared.holes.iter().copied().collect(),
        }
    }

    #[inline]
    pub(crate) fn size(&self) -> u64 {
        self.size
    }

    #[inline]
    pub(crate) fn min(&self) -> Option<i32> {
        (self.size > 0).then_some(self.lo)
    }

    #[inline]
    pub(crate) fn max(&self) -> Option<i32> {
        (self.size > 0).then_some(self.hi)
    }

    /// The hole holding `v`, as `(first, last)`.
    fn hole_at(&self, v: i32) -> Option<(i32, i32)> {
        self.holes
            .range(..=v)
            .next_back()
            .filter(|&(_, &end)| end >= v)
            .map(|(&start, &end)| (start, end))
    }

    pub(crate) fn contains(&self, v: i32) -> bool {
        self.size > 0 && self.lo <= v && v <= self.hi && self.hole_at(v).is_none()
    }

    /// The smallest value `>= v` left, for `v` within the bounds. The bounds are never in a
    /// hole and holes never touch, so the value after a hole is in the domain.
    fn first_from(&self, v: i32) -> i32 {
        match self.hole_at(v) {
            Some((_, end)) => end + 1,
            None => v,
        }
    }

    /// The largest value `<= v` left, for `v` within the bounds.
    fn last_to(&self, v: i32) -> i32 {
        match self.hole_at(v) {
            Some((start, _)) => start - 1,
            None => v,
        }
    }

    /// The smallest value strictly above `after` (the smallest of all for `None`).
    pub(crate) fn next_above(&self, after: Option<i32>) -> Option<i32> {
        if self.size == 0 {
            return None;
        }
        let from = match after {
            None => self.lo,
            Some(a) if a >= self.hi => return None,
            Some(a) => (a + 1).max(self.lo),
        };
        Some(self.first_from(from))
    }

    /// The largest value strictly below `before` (the largest of all for `None`).
    pub(crate) fn next_below(&self, before: Option<i32>) -> Option<i32> {
        if self.size == 0 {
            return None;
        }
        let to = match before {
            None => self.hi,
            Some(b) if b <= self.lo => return None,
            Some(b) => (b - 1).min(self.hi),
        };
        Some(self.last_to(to))
    }

    /// The end of the run of values starting at `v` (a value of the domain): the value before
    /// the next hole, or the upper bound.
    pub(crate) fn run_end(&self, v: i32) -> i32 {
        match self.holes.range(v..).next() {
            Some((&start, _)) if start <= self.hi => start - 1,
            _ => self.hi,
        }
    }

    /// How many values of `a..=b` the holes hold.
    fn holes_within(&self, a: i32, b: i32) -> u64 {
        let mut count = 0u64;
        for (&start, &end) in self.holes.range(..=b).rev() {
            if end < a {
                break;
            }
            count += (i64::from(end.min(b)) - i64::from(start.max(a)) + 1) as u64;
        }
        count
    }

    fn save(&self, index: u32, trail: &mut Vec<IntervalUndo>) {
        trail.push(IntervalUndo::State {
            index,
            lo: self.lo,
            hi: self.hi,
            size: self.size,
        });
    }

    /// Removes every value in `a..=b`; returns how many went.
    pub(crate) fn remove_range(
        &mut self,
        index: u32,
        a: i32,
        b: i32,
        trail: &mut Vec<IntervalUndo>,
    ) -> u64 {
        if self.size == 0 {
            return 0;
        }
        let (a, b) = (a.max(self.lo), b.min(self.hi));
        if a > b {
            return 0;
        }
        if a == self.lo && b == self.hi {
            self.save(index, trail);
            let removed = self.size;
            self.size = 0;
            return removed;
        }
        let removed = (i64::from(b) - i64::from(a) + 1) as u64 - self.holes_within(a, b);
        if removed == 0 {
            return 0;
        }
        self.save(index, trail);
        self.size -= removed;
        if a == self.lo {
            // b < hi here, so b + 1 does not overflow and is within the bounds.
            self.lo = self.first_from(b + 1);
        } else if b == self.hi {
            self.hi = self.last_to(a - 1);
        } else {
            self.cut_hole(index, a, b, trail);
        }
        removed
    }

    /// Inserts the hole `a..=b` (strictly inside the bounds), merged with the holes it
    /// overlaps or touches.
    fn cut_hole(&mut self, index: u32, a: i32, b: i32, trail: &mut Vec<IntervalUndo>) {
        let (mut start, mut end) = (a, b);
        // a > lo and b < hi, so a - 1 and b + 1 are in range.
        let touching: Vec<(i32, i32)> = self
            .holes
            .range(..=b + 1)
            .rev()
            .take_while(|&(_, &e)| e >= a - 1)
            .map(|(&s, &e)| (s, e))
            .collect();
        for (s, e) in touching {
            start = start.min(s);
            end = end.max(e);
            self.holes.remove(&s);
            trail.push(IntervalUndo::HoleRemoved {
                index,
                start: s,
                end: e,
            });
        }
        self.holes.insert(start, end);
        trail.push(IntervalUndo::HoleAdded { index, start });
    }

    /// Reduces the domain to `v`, which must be in it.
    pub(crate) fn assign(&mut self, index: u32, v: i32, trail: &mut Vec<IntervalUndo>) {
        if self.size == 1 && self.lo == v {
            return;
        }
        self.save(index, trail);
        self.lo = v;
        self.hi = v;
        self.size = 1;
    }

    /// Undoes one change.
    pub(crate) fn undo(&mut self, record: IntervalUndo) {
        match record {
            IntervalUndo::State { lo, hi, size, .. } => {
                self.lo = lo;
                self.hi = hi;
                self.size = size;
            }
            IntervalUndo::HoleAdded { start, .. } => {
                self.holes.remove(&start);
            }
            IntervalUndo::HoleRemoved { start, end, .. } => {
                self.holes.insert(start, end);
            }
        }
    }
}
