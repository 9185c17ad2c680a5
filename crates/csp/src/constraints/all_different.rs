//! `AllDifferent`: the values x_i + c_i are pairwise distinct.

use super::hall_intervals::HallIntervals;
use super::hall_sets;
use super::listed::listed;
use super::regin::Regin;
use super::words::{hall_set_possible, hall_set_possible_among, Words};
use crate::{Atom, Checkable, Conflict, Consistency, Constraint, Context, Priority, VarId, Wake};
use crate::{DeclaredBounds, LinearRow, ValueRows};
use smallvec::SmallVec;
use std::collections::BTreeMap;

/// Pairwise distinct values, optionally after adding a fixed offset to each variable
/// (`x_i + c_i`), which is how the N-Queens diagonals are stated.
///
/// Under `none` it compares the new assignment with the assigned part of its scope; under `fc` it
/// removes the new value from the unassigned variables. Under `mac` its strength is chosen
/// ([`AllDifferent::with_consistency`]); each level first removes the values of newly fixed
/// variables from the others, which is all that [`Consistency::Value`] does.
/// [`Consistency::Bounds`] then narrows the bounds past Hall intervals (López-Ortiz et al.,
/// O(n log n)), and the default, [`Consistency::Domain`], enforces generalised arc consistency
/// with Régin's matching-based filtering. Where the variable-value graph is too large to build (over 65,536
/// distinct values), `mac` keeps to that value elimination and a pigeonhole test. Over at most
/// 64 variables whose shifted values fit one 64-value window (a sudoku unit, a small board), it
/// works on words: elimination, a Hall set test and the matching in bit operations, with the
/// matching deferred until every woken constraint's cheap filtering is done.
#[derive(Clone, Debug)]
pub struct AllDifferent {
    vars: Vec<VarId>,
    offsets: Vec<i32>,
    /// Every (variable, position in `vars`) pair, sorted, so that a variable's positions are
    /// found by binary search rather than a scan of the scope (10,000 long on 10,000 queens).
    by_var: Vec<(VarId, u32)>,
    /// `Some(b)` when `vars[i]` is `VarId(b + i)` throughout (the rows of a board, a sudoku's
    /// row): a variable's position is then read off its id, without the binary search.
    contiguous_from: Option<u32>,
    /// A variable appears twice with the same offset, so the constraint cannot hold.
    repeats_with_one_offset: bool,
    /// A variable appears twice (with different offsets): the word filtering, which treats
    /// each place as a variable of its own, is not used.
    repeats: bool,
    /// How strongly `mac` filters.
    consistency: Consistency,
}

/// The rows "each value at most once" over value literals: for each value `w` that two or
/// more of `places` can take (`x + offset = w`, `x`'s literal for `w - offset`), unless
/// `skipped(w)`, the sum of those literals at most 1. Variables without value literals are
/// left out, which weakens no row's truth.
pub(crate) fn at_most_once(
    places: impl Iterator<Item = (VarId, i32)>,
    skipped: impl Fn(i64) -> bool,
    declared: &dyn DeclaredBounds,
    rows: &mut Vec<LinearRow>,
) {
    let mut takers: BTreeMap<i64, Vec<(i64, VarId)>> = BTreeMap::new();
    for (x, offset) in places {
        for &(v, y) in declared.value_literals(x).unwrap_or(&[]) {
            let w = i64::from(v) + i64::from(offset);
            if !skipped(w) {
                takers.entry(w).or_default().push((1, y));
            }
        }
    }
    for (_, terms) in takers {
        if terms.len() > 1 {
            rows.push(LinearRow::at_most(terms, 1));
        }
    }
}

/// Above this many distinct candidate values the pigeonhole test is skipped, so that it never
/// costs more than a few kilobytes of stack.
const PIGEONHOLE_MAX_SPAN: i64 = 4096;

impl AllDifferent {
    /// All of `vars` take distinct values.
    pub fn new(vars: Vec<VarId>) -> Self {
        let offsets = vec![0; vars.len()];
        AllDifferent::build(vars, offsets)
    }

    /// The values `vars[i] + offsets[i]` are distinct. `None` when the lengths differ.
    pub fn with_offsets(vars: Vec<VarId>, offsets: Vec<i32>) -> Option<Self> {
        (vars.len() == offsets.len()).then(|| AllDifferent::build(vars, offsets))
    }

    fn build(vars: Vec<VarId>, offsets: Vec<i32>) -> Self {
        let mut pairs: Vec<(VarId, i32)> =
            vars.iter().copied().zip(offsets.iter().copied()).collect();
        pairs.sort_unstable();
        let repeats_with_one_offset = pairs.windows(2).any(|w| w[0] == w[1]);
        let mut by_var: Vec<(VarId, u32)> = (0..vars.len()).map(|i| (vars[i], i as u32)).collect();
        by_var.sort_unstable();
        let contiguous_from = vars.first().map(|v| v.0).filter(|&base| {
            vars.iter()
                .enumerate()
                .all(|(i, v)| u64::from(v.0) == u64::from(base) + i as u64)
        });
        let repeats = by_var.windows(2).any(|w| w[0].0 == w[1].0);
        AllDifferent {
            vars,
            offsets,
            by_var,
            contiguous_from,
            repeats_with_one_offset,
            repeats,
            consistency: Consistency::Domain,
        }
    }

    /// The same constraint, filtered under `mac` with the given strength (by default
    /// [`Consistency::Domain`]).
    pub fn with_consistency(mut self, consistency: Consistency) -> Self {
        self.consistency = consistency;
        self
    }

    /// The value `x_j` must avoid so that `x_j + c_j` differs from `shifted`.
    #[inline]
    fn clash_for(&self, j: usize, shifted: i64) -> Option<i32> {
        i32::try_from(shifted - i64::from(self.offsets[j])).ok()
    }

    /// For each position `i` of the assigned `var` and each other position `j`, calls
    /// `visit(self, ctx, j, shifted)` with `shifted` the value at `i` plus its offset. Plain
    /// loops: this runs at every node under none and fc, and iterator adapters cost here.
    #[inline(always)]
    fn against_others(
        &self,
        var: VarId,
        ctx: &mut Context<'_>,
        mut visit: impl FnMut(&Self, &mut Context<'_>, usize, i64) -> Result<(), Conflict>,
    ) -> Result<(), Conflict> {
        let Some(value) = ctx.assigned_value(var) else {
            return Ok(());
        };
        for i in self.positions(var) {
            let shifted = i64::from(value) + i64::from(self.offsets[i]);
            for j in 0..self.vars.len() {
                if j != i {
                    visit(self, ctx, j, shifted)?;
                }
            }
        }
        Ok(())
    }

    /// The positions of `var` in the scope (usually one).
    fn positions(&self, var: VarId) -> impl Iterator<Item = usize> + '_ {
        let first = match self.contiguous_from {
            Some(base) => (var.0.wrapping_sub(base) as usize).min(self.by_var.len()),
            None => self.by_var.partition_point(|&(v, _)| v < var),
        };
        self.by_var[first..]
            .iter()
            .take_while(move |&&(v, _)| v == var)
            .map(|&(_, i)| i as usize)
    }

    /// Whether Régin's filtering may find something that value elimination left: a Hall set
    /// of unfixed variables (h of them sharing only h values, which the others must avoid), or
    /// too few values for all of them. Read as words where the domains allow it (the test of
    /// `words.rs`); otherwise, from the sizes alone, a Hall set needs h unfixed variables of at
    /// most h values each, short of all of them, and a shortage needs every unfixed variable
    /// to have at most as many values as there are unfixed variables. When neither can be, the
    /// constraint is already generalised arc consistent.
    fn may_have_hall_set(&self, ctx: &Context<'_>) -> bool {
        let mut words = Words::<64>::new();
        if words.read(&self.vars, &self.offsets, ctx) {
            return hall_set_possible_among(&words.masks[..words.len]);
        }
        // with_size[s]: how many unfixed places have s values (the scope's length for more).
        let n = self.vars.len();
        let mut with_size: SmallVec<[u32; 64]> = SmallVec::from_elem(0, n + 1);
        let (mut open, mut largest) = (0usize, 0usize);
        for &var in &self.vars {
            let size = ctx.size(var) as usize;
            if size > 1 {
                open += 1;
                largest = largest.max(size);
                with_size[size.min(n)] += 1;
            }
        }
        if open < 2 {
            return false;
        }
        // A Hall set short of all the open places: h of them with at most h values each.
        let mut at_most = 0usize;
        for (h, &count) in with_size.iter().enumerate().take(open).skip(2) {
            at_most += count as usize;
            if at_most >= h {
                return true;
            }
        }
        // All the open places together may be short of values only if each has fewer values
        // than there are open places; if they have just enough, they leave out no one.
        largest < open && self.short_of_values(ctx) != Some(false)
    }

    /// [`AllDifferent::propagate_words`] when the scope reads as words of at most `N`
    /// variables; `None` when it does not.
    #[inline(always)]
    fn on_words<const N: usize>(&self, ctx: &mut Context<'_>) -> Option<Result<(), Conflict>> {
        let mut words = Words::<N>::new();
        words
            .read(&self.vars, &self.offsets, ctx)
            .then(|| self.propagate_words(&mut words, ctx))
    }

    /// Generalised arc consistency on words: the values of fixed variables leave the others
    /// until no more become fixed, then, if a Hall set may remain, Régin's filtering on the
    /// same words (deferred while cheaper propagators wait); the domains are written back once.
    fn propagate_words<const N: usize>(
        &self,
        words: &mut Words<N>,
        ctx: &mut Context<'_>,
    ) -> Result<(), Conflict> {
        let low = words.low;
        let masks = &mut words.masks[..words.len];
        let mut checks = 0u64;
        // Branch-free passes: whether a variable is fixed, or becomes so, is a coin toss that
        // a branch kept guessing wrong.
        loop {
            let (mut fixed, mut twice) = (0u64, 0u64);
            for &mask in masks.iter() {
                // The mask itself if it has one bit, else nothing.
                let single = mask & ((mask & mask.wrapping_sub(1) == 0) as u64).wrapping_neg();
                twice |= fixed & single;
                fixed |= single;
            }
            if twice != 0 {
                ctx.count_checks(checks);
                return Err(self.clash(words, twice, ctx));
            }
            let (mut newly_fixed, mut emptied) = (0u64, 0u64);
            for mask in masks.iter_mut() {
                let open = u64::from(*mask & mask.wrapping_sub(1) != 0);
                checks += open;
                let left = *mask & !(fixed & open.wrapping_neg());
                *mask = left;
                emptied |= u64::from(left == 0);
                newly_fixed |= open & u64::from(left & left.wrapping_sub(1) == 0);
            }
            if emptied != 0 {
                // Every value some variable had is some fixed variable's: writing the empty
                // mask back reports the wipe-out.
                ctx.count_checks(checks);
                words.write_back(&self.vars, ctx)?;
                return Err(ctx.violated());
            }
            if newly_fixed == 0 {
                break;
            }
        }
        ctx.count_checks(checks);
        // The open variables' census, for the Hall set test: how many, their values together,
        // and how many have each size up to 16 (larger sizes never matter to the test then).
        let (mut open, mut union, mut with_size) = (0u32, 0u64, [0u8; 17]);
        for &mask in masks.iter() {
            let is_open = mask & mask.wrapping_sub(1) != 0;
            open += u32::from(is_open);
            union |= mask & u64::from(is_open).wrapping_neg();
            with_size[(mask.count_ones() as usize).min(16)] += u8::from(is_open);
        }
        let hall = self.consistency == Consistency::Domain
            && if open <= 16 {
                hall_set_possible(open, union, &with_size, masks)
            } else {
                hall_set_possible_among(masks)
            };
        if hall {
            if ctx.queue() < Priority::Global {
                // Matching waits until the value elimination of every woken constraint is done.
                words.write_back(&self.vars, ctx)?;
                ctx.defer(Priority::Global);
                return Ok(());
            }
            let masks = &mut words.masks[..words.len];
            ctx.count_checks(masks.iter().map(|m| u64::from(m.count_ones())).sum());
            let matched = ctx.with_scratch(|_, regin: &mut Regin| regin.filter_masks(masks, low));
            if !matched {
                return Err(ctx.violated());
            }
        }
        words.write_back(&self.vars, ctx)
    }

    /// The conflict of two variables fixed to the same value, a bit of `twice`: the last of
    /// them loses it, a wipe-out as value elimination one at a time would have found it.
    #[cold]
    fn clash<const N: usize>(
        &self,
        words: &Words<N>,
        twice: u64,
        ctx: &mut Context<'_>,
    ) -> Conflict {
        let bit = twice & twice.wrapping_neg();
        let last = (0..words.len).rev().find(|&i| words.masks[i] == bit);
        match last {
            // All it had, which leaves it none.
            Some(i) => match ctx.remove_bits64(
                self.vars[i],
                words.mins[i],
                words.read[i] >> words.shifts[i],
            ) {
                Err(conflict) => conflict,
                Ok(_) => ctx.violated(),
            },
            None => ctx.violated(),
        }
    }

    /// Bounds consistency: each place's interval is narrowed past the Hall intervals it
    /// starts or ends in.
    fn narrow_bounds(
        &self,
        hall: &mut HallIntervals,
        ctx: &mut Context<'_>,
    ) -> Result<(), Conflict> {
        hall.clear();
        for (&var, &offset) in self.vars.iter().zip(&self.offsets) {
            let (Some(min), Some(max)) = (ctx.min(var), ctx.max(var)) else {
                return Err(ctx.violated());
            };
            hall.push(
                i64::from(min) + i64::from(offset),
                i64::from(max) + i64::from(offset),
            );
        }
        ctx.count_checks(self.vars.len() as u64);
        if !hall.narrow() {
            return Err(ctx.violated());
        }
        for (i, (&var, &offset)) in self.vars.iter().zip(&self.offsets).enumerate() {
            let (low, high) = (
                hall.low[i] - i64::from(offset),
                hall.high[i] - i64::from(offset),
            );
            if ctx.min(var).is_some_and(|min| i64::from(min) < low) {
                if ctx.explaining() {
                    let reason = self.hall_reason(i, Side::Below(hall.low[i]), ctx);
                    ctx.at_least_because(var, low, &reason)?;
                } else {
                    ctx.at_least(var, low)?;
                }
            }
            if ctx.max(var).is_some_and(|max| i64::from(max) > high) {
                if ctx.explaining() {
                    let reason = self.hall_reason(i, Side::Above(hall.high[i]), ctx);
                    ctx.at_most_because(var, high, &reason)?;
                } else {
                    ctx.at_most(var, high)?;
                }
            }
        }
        Ok(())
    }

    /// Why place `i` loses the shifted values on `side` of its new bound: a Hall interval
    /// that ends (or starts) there, filled by other places' intervals, which the place starts
    /// (or ends) in. Found afresh from the current bounds; if none were found, every place's
    /// bounds, which imply whatever bounds filtering removes.
    fn hall_reason(&self, i: usize, side: Side, ctx: &Context<'_>) -> SmallVec<[Atom; 16]> {
        let shifted = |j: usize| {
            let var = self.vars[j];
            let offset = i64::from(self.offsets[j]);
            let min = ctx.min(var).map_or(i64::MAX, |m| i64::from(m) + offset);
            let max = ctx.max(var).map_or(i64::MIN, |m| i64::from(m) + offset);
            (min, max)
        };
        let own = shifted(i);
        let others = (0..self.vars.len()).filter(|&j| j != i);
        // The Hall interval's far end is some other place's bound on the same side as the
        // place's own; try each, nearest first.
        let mut ends: SmallVec<[i64; 16]> = others
            .clone()
            .map(|j| match side {
                Side::Below(_) => shifted(j).0,
                Side::Above(_) => shifted(j).1,
            })
            .filter(|&e| match side {
                Side::Below(_) => e <= own.0,
                Side::Above(_) => e >= own.1,
            })
            .collect();
        ends.sort_unstable();
        if matches!(side, Side::Below(_)) {
            ends.reverse();
        }
        ends.dedup();
        let atom_ge = |j: usize, shifted: i64| {
            let value = shifted - i64::from(self.offsets[j]);
            Atom::Ge(
                self.vars[j],
                value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
            )
        };
        let atom_le = |j: usize, shifted: i64| {
            let value = shifted - i64::from(self.offsets[j]);
            Atom::Le(
                self.vars[j],
                value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
            )
        };
        for end in ends {
            let (low, high) = match side {
                Side::Below(bound) => (end, bound - 1),
                Side::Above(bound) => (bound + 1, end),
            };
            let inside: SmallVec<[usize; 16]> = others
                .clone()
                .filter(|&j| {
                    let (min, max) = shifted(j);
                    min >= low && max <= high
                })
                .collect();
            if inside.len() as i64 > high - low {
                let mut reason: SmallVec<[Atom; 16]> = SmallVec::new();
                reason.push(match side {
                    Side::Below(_) => atom_ge(i, low),
                    Side::Above(_) => atom_le(i, high),
                });
                for j in inside {
                    reason.push(atom_ge(j, low));
                    reason.push(atom_le(j, high));
                }
                return reason;
            }
        }
        (0..self.vars.len())
            .flat_map(|j| {
                let (min, max) = shifted(j);
                [atom_ge(j, min), atom_le(j, max)]
            })
            .collect()
    }

    /// Fails when the unfixed variables have fewer distinct shifted values between them than
    /// there are unfixed variables.
    fn pigeonhole(&self, ctx: &Context<'_>) -> Result<(), Conflict> {
        if self.short_of_values(ctx) == Some(true) {
            Err(ctx.violated())
        } else {
            Ok(())
        }
    }

    /// Whether the unfixed variables have fewer distinct shifted values between them than
    /// there are unfixed variables; `None` when their values span too far to tell cheaply.
    fn short_of_values(&self, ctx: &Context<'_>) -> Option<bool> {
        let mut open = 0usize;
        let (mut low, mut high) = (i64::MAX, i64::MIN);
        for (&var, &offset) in self.vars.iter().zip(&self.offsets) {
            if ctx.size(var) > 1 {
                open += 1;
                if let (Some(min), Some(max)) = (ctx.min(var), ctx.max(var)) {
                    low = low.min(i64::from(min) + i64::from(offset));
                    high = high.max(i64::from(max) + i64::from(offset));
                }
            }
        }
        if open < 2 {
            return Some(false);
        }
        if high - low + 1 > PIGEONHOLE_MAX_SPAN {
            return None;
        }
        let words = ((high - low) / 64 + 1) as usize;
        let mut seen: SmallVec<[u64; 64]> = SmallVec::from_elem(0, words);
        for (&var, &offset) in self.vars.iter().zip(&self.offsets) {
            if ctx.size(var) > 1 {
                for (first, last) in ctx.ranges(var) {
                    let from = (i64::from(first) + i64::from(offset) - low) as usize;
                    let to = (i64::from(last) + i64::from(offset) - low) as usize;
                    set_bits(&mut seen, from, to);
                }
            }
        }
        let distinct: u32 = seen.iter().map(|w| w.count_ones()).sum();
        Some((distinct as usize) < open)
    }
}

/// Sets bits `from..=to` of `words`, a word at a time.
fn set_bits(words: &mut [u64], from: usize, to: usize) {
    let (first, last) = (from / 64, to / 64);
    let head = u64::MAX << (from % 64);
    let tail = u64::MAX >> (63 - to % 64);
    if first == last {
        words[first] |= head & tail;
    } else {
        words[first] |= head;
        for word in &mut words[first + 1..last] {
            *word = u64::MAX;
        }
        words[last] |= tail;
    }
}

/// The queue of a constraint that eliminates the values of fixed variables and then matches:
/// a fixation wakes the linear elimination, any other change only the matching, which waits
/// among the globals (all_different, all_different_except).
pub(super) fn matching_priority(event: Wake) -> Priority {
    match event {
        Wake::Fixed => Priority::Linear,
        Wake::Domain | Wake::Bounds => Priority::Global,
    }
}

/// Which side of a place's interval bounds filtering cuts, and the new shifted bound there.
#[derive(Copy, Clone, Debug)]
enum Side {
    Below(i64),
    Above(i64),
}

impl Constraint for AllDifferent {
    /// Over more than 64 variables (a large board's rows) value elimination works from the
    /// variables newly fixed; up to 64 the filtering on words reads the whole scope anyway.
    fn wants_changes(&self) -> bool {
        self.vars.len() > 64
    }

    /// Value elimination is linear; the matching or the Hall intervals, deferred to
    /// [`Priority::Global`], are not.
    fn priority(&self) -> Priority {
        Priority::Linear
    }

    /// Woken by a change that fixed nothing, only the matching or the Hall intervals can find
    /// more: it goes straight to the queue of globals rather than filtering by value first
    /// and deferring.
    fn priority_on(&self, event: Wake) -> Priority {
        matching_priority(event)
    }

    /// Value consistency reads only fixed variables, bounds consistency only bounds.
    fn wake_on(&self, var: VarId) -> Wake {
        let _ = var;
        match self.consistency {
            Consistency::Value => Wake::Fixed,
            Consistency::Bounds => Wake::Bounds,
            Consistency::Domain => Wake::Domain,
        }
    }

    /// A bound narrowed onto a hole moves further, which can make a new Hall interval: the
    /// bounds filtering runs again after its own changes.
    fn idempotent(&self) -> bool {
        self.consistency != Consistency::Bounds
    }

    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let mut shifted: Vec<i64> = values
            .iter()
            .zip(&self.offsets)
            .map(|(&v, &c)| i64::from(v) + i64::from(c))
            .collect();
        shifted.sort_unstable();
        shifted.windows(2).all(|w| w[0] != w[1])
    }

    fn value_rows(&self) -> ValueRows<'_> {
        ValueRows::AtMostOnce(&self.vars)
    }

    /// Each value taken at most once, over the value literals of the variables that have
    /// them.
    fn relax(&self, declared: &dyn DeclaredBounds, rows: &mut Vec<LinearRow>) {
        let places = self.vars.iter().copied().zip(self.offsets.iter().copied());
        at_most_once(places, |_| false, declared, rows);
    }

    fn contradiction(&self) -> Option<String> {
        if !self.repeats_with_one_offset {
            return None;
        }
        let mut pairs: Vec<(VarId, i32)> = self
            .vars
            .iter()
            .copied()
            .zip(self.offsets.iter().copied())
            .collect();
        pairs.sort_unstable();
        let twice = pairs.windows(2).find(|w| w[0] == w[1]).map(|w| w[0].0);
        twice.map(|var| {
            format!("all_different names {var} twice with the same offset: it can never hold")
        })
    }

    /// Without offsets and repeats, the checker's own all-different.
    fn checkable(&self) -> Option<Checkable> {
        (!self.repeats && self.offsets.iter().all(|&c| c == 0))
            .then(|| Checkable::AllDifferent(self.vars.clone()))
    }

    fn describe(&self) -> String {
        let terms = self.vars.iter().zip(&self.offsets).map(|(v, &c)| match c {
            0 => v.to_string(),
            c if c > 0 => format!("{v}+{c}"),
            c => format!("{v}{c}"),
        });
        format!("all_different({})", listed(terms, 6, ", "))
    }

    fn check_assigned(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.against_others(var, ctx, |this, ctx, j, shifted| {
            if let Some(other_value) = ctx.assigned_value(this.vars[j]) {
                ctx.count_checks(1);
                if i64::from(other_value) + i64::from(this.offsets[j]) == shifted {
                    return Err(ctx.violated());
                }
            }
            Ok(())
        })
    }

    fn forward_check(&self, var: VarId, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let Some(value) = ctx.assigned_value(var) else {
            return Ok(());
        };
        if let (Some(first), false) = (self.contiguous_from, self.repeats) {
            // A board's row, column or diagonal: one loop on the domains' words.
            let position = (var.0 - first) as usize;
            let shifted = i64::from(value) + i64::from(self.offsets[position]);
            if let Some(result) = ctx.remove_along(VarId(first), &self.offsets, shifted) {
                return result;
            }
        }
        // Every removal is because of var's value; built only when an observer collects reasons.
        let reason = ctx.explaining().then_some(Atom::Eq(var, value));
        // The hottest loop of counting and of large boards: one pass over the scope per
        // position of `var`, zipped so that no index is checked, the checks tallied in a
        // register and added once.
        for i in self.positions(var) {
            let shifted = i64::from(value) + i64::from(self.offsets[i]);
            let mut checks = 0;
            for (j, (&other, &offset)) in self.vars.iter().zip(&self.offsets).enumerate() {
                if ctx.is_assigned(other) {
                    // The same variable twice clashes with itself unless the offsets differ.
                    if other == var && j != i && i64::from(value) + i64::from(offset) == shifted {
                        ctx.count_checks(checks);
                        return Err(ctx.violated());
                    }
                    continue;
                }
                checks += 1;
                if let Ok(clash) = i32::try_from(shifted - i64::from(offset)) {
                    if let Err(conflict) = ctx.remove_because(other, clash, reason.as_slice()) {
                        ctx.count_checks(checks);
                        return Err(conflict);
                    }
                }
            }
            ctx.count_checks(checks);
        }
        Ok(())
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        self.propagate_changed(&self.vars, ctx)
    }

    /// Removes the value of each newly fixed variable from the others, following the chain
    /// of variables that become fixed in turn; a variable fixed earlier was handled when it
    /// became fixed, and the trail undoes both together.
    fn propagate_changed(&self, changed: &[VarId], ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let n = self.vars.len();
        if self.repeats_with_one_offset {
            // Some variable appears twice with the same offset: its two values always clash.
            return Err(ctx.violated());
        }
        if !self.repeats && !ctx.explaining() && self.consistency != Consistency::Bounds {
            let on_words = if n <= 16 {
                self.on_words::<16>(ctx)
            } else {
                self.on_words::<64>(ctx)
            };
            if let Some(result) = on_words {
                return result;
            }
        }
        let mut done: SmallVec<[bool; 64]> = SmallVec::from_elem(false, n);
        let mut pending: SmallVec<[usize; 64]> = SmallVec::new();
        for &var in changed {
            if ctx.size(var) == 1 {
                pending.extend(self.positions(var));
            }
        }
        while let Some(i) = pending.pop() {
            if std::mem::replace(&mut done[i], true) {
                continue;
            }
            let Some(value) = ctx.fixed_value(self.vars[i]) else {
                continue;
            };
            let shifted = i64::from(value) + i64::from(self.offsets[i]);
            let reason = [Atom::Eq(self.vars[i], value)];
            for j in (0..n).filter(|&j| j != i) {
                let other = self.vars[j];
                ctx.count_checks(1);
                let Some(clash) = self.clash_for(j, shifted) else {
                    continue;
                };
                if ctx.remove_because(other, clash, &reason)? && ctx.size(other) == 1 {
                    pending.push(j);
                }
            }
        }
        if self.consistency == Consistency::Value
            || (self.consistency == Consistency::Domain && !self.may_have_hall_set(ctx))
        {
            return Ok(());
        }
        if ctx.queue() < Priority::Global {
            // Hall sets wait until the value elimination of every woken constraint is done.
            ctx.defer(Priority::Global);
            return Ok(());
        }
        if self.consistency == Consistency::Bounds {
            return ctx.with_scratch(|ctx, hall: &mut HallIntervals| self.narrow_bounds(hall, ctx));
        }
        let filtered = ctx.with_scratch(|ctx, regin: &mut Regin| {
            if ctx.explaining()
                && hall_sets::filter_explained(&self.vars, &self.offsets, regin.hint(), ctx)?
            {
                return Ok(true);
            }
            regin.filter(&self.vars, &self.offsets, ctx)
        });
        if filtered? {
            Ok(())
        } else {
            self.pigeonhole(ctx)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::brute_force::{assert_gac, config, random_vars};
    use crate::{Inference, Model, Solver, SplitMix64, VarId};
    use proptest::prelude::*;

    #[test]
    fn under_mac_it_is_exactly_generalised_arc_consistent() {
        let mut rng = SplitMix64::new(11);
        let narrow: Vec<i32> = (-2..=5).collect();
        // Values far apart take the general graph layout instead of the one-word one.
        let wide: Vec<i32> = (-3..=4).map(|i| i * 37).collect();
        for case in 0..600 {
            for pool in [&narrow, &wide] {
                let mut model = Model::new();
                let k = 2 + rng.below(5) as usize;
                let vars = random_vars(&mut rng, &mut model, k, pool, 4);
                let offsets: Vec<i32> = (0..k).map(|_| rng.below(3) as i32 - 1).collect();
                model.all_different_offsets(&vars, &offsets).unwrap();
                assert_gac(&model, &format!("case {case}"));
            }
        }
    }

    /// Whether the variables from `i` on can take distinct values from their domains (bit
    /// `v` of a domain: value `v`) avoiding `used`: plain backtracking, the oracle below.
    fn distinct_completion(domains: &[u16], i: usize, used: u16) -> bool {
        let Some(&domain) = domains.get(i) else {
            return true;
        };
        let mut free = domain & !used;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            if distinct_completion(domains, i + 1, used | bit) {
                return true;
            }
            free &= !bit;
        }
        false
    }

    proptest! {
        #![proptest_config(config())]

        /// all_different over 5 to 9 variables, as in a sudoku unit: some fixed, most sharing
        /// exactly as many values as there are open variables (so that its shortcuts for that
        /// case, naked and hidden sets, are tried), and some with a value or two to spare.
        /// Under mac the root keeps exactly the values that some assignment of distinct
        /// values uses.
        #[test]
        fn on_sudoku_sized_scopes_it_keeps_exactly_the_supported_values(
            n in 5..=9usize,
            spare in 0..=2u32,
            raw in prop::collection::vec(1..512u16, 9),
        ) {
            let values = (n as u32 + spare).min(9);
            let mask = (1u16 << values) - 1;
            let domains: Vec<u16> = raw[..n]
                .iter()
                .map(|&r| if r & mask == 0 { 1 << (r % values as u16) } else { r & mask })
                .collect();
            let mut model = Model::new();
            let vars: Vec<VarId> = domains
                .iter()
                .map(|&d| {
                    let values: Vec<i32> =
                        (0..16).filter(|v| d >> v & 1 == 1).map(|v| v + 1).collect();
                    model.new_var_from_values(None, &values).unwrap()
                })
                .collect();
            model.all_different(&vars).unwrap();
            let mut expected: Vec<Vec<i32>> = vec![Vec::new(); n];
            for i in 0..n {
                for v in 0..16 {
                    if domains[i] >> v & 1 == 1 {
                        let mut fixed = domains.clone();
                        fixed[i] = 1 << v;
                        if distinct_completion(&fixed, 0, 0) {
                            expected[i].push(v + 1);
                        }
                    }
                }
            }
            let expected = expected.iter().all(|d| !d.is_empty()).then_some(expected);
            prop_assert_eq!(Solver::new(&model).inference(Inference::Mac).root_domains(), expected);
        }
    }
}
