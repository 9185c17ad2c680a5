//! What a constraint sees while it checks or filters: the domains, the search's assignments, and
//! the counters its work is charged to.

use crate::propagation::atom_trail::{AtomTrail, Cause};
use crate::propagation::domains::Domains;
use crate::{Atom, ConstraintId, Priority, VarId};
use smallvec::SmallVec;
use std::any::Any;

/// Why a constraint gave up on the current node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The constraint that found the conflict.
    pub constraint: ConstraintId,
    /// What went wrong.
    pub kind: ConflictKind,
}

/// The two ways a node fails.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ConflictKind {
    /// Filtering removed the last value of this variable.
    WipeOut(VarId),
    /// The values assigned so far break the constraint.
    Violated,
}

/// A constraint's trailed integers ([`Context::trailed`]).
#[derive(Copy, Clone, Debug)]
pub struct Trailed {
    first: usize,
    count: usize,
}

/// The search's mutable state that propagators work on.
#[derive(Debug)]
pub(crate) struct Store {
    pub(crate) domains: Domains,
    /// Whether the search (not propagation) has assigned each variable.
    pub(crate) assigned: Vec<bool>,
    pub(crate) checks: u64,
    pub(crate) pruned: u64,
    /// Variables whose domain shrank since the engine last looked, each listed once.
    pub(crate) changed: Vec<VarId>,
    pub(crate) is_changed: Vec<bool>,
    /// Every removal as (variable, value, its reason's range in `reasons`), kept only while an
    /// observer wants prune events.
    pub(crate) prune_log: Vec<(VarId, i32, u32, u32)>,
    /// The atoms of the logged removals' reasons.
    pub(crate) reasons: Vec<Atom>,
    /// Atoms added to every reason given meanwhile (see [`Context::given`]).
    pub(crate) given: Vec<Atom>,
    pub(crate) log_prunes: bool,
    /// Whether `changed` is kept (only `mac` needs it).
    pub(crate) track_changes: bool,
    /// For each changed variable, the smallest and largest value asked to go since it was
    /// listed: its bounds moved if either lies outside what is left.
    pub(crate) removed_span: Vec<(i32, i32)>,
    /// Variables whose domain shrank since the variable order last looked, each listed once,
    /// kept for the orders that keep their picks in a heap (`track_touched`).
    touched: Vec<VarId>,
    is_touched: Vec<bool>,
    pub(crate) track_touched: bool,
    /// Each constraint's working memory for this search (see [`Context::take_scratch`]).
    pub(crate) scratch: Vec<Option<Box<dyn Any + Send>>>,
    /// Where each constraint's trailed integers start in the domains' (see
    /// [`Context::trailed`]), `usize::MAX` for none yet.
    trailed_at: Vec<usize>,
    /// The queue the running propagator was taken from ([`Context::queue`]).
    pub(crate) queue: Priority,
    /// The queue the running propagator asked to run again from ([`Context::defer`]).
    pub(crate) deferred: Option<Priority>,
    /// Under learning, every change in atoms, with its cause.
    pub(crate) atoms: Option<Box<AtomTrail>>,
    /// Whether the search has found a solution ([`Context::solution_known`]).
    pub(crate) solution_known: bool,
}

impl Store {
    pub(crate) fn new(domains: Domains, log_prunes: bool, constraints: usize) -> Self {
        let n = domains.len();
        Store {
            domains,
            assigned: vec![false; n],
            checks: 0,
            pruned: 0,
            changed: Vec::new(),
            is_changed: vec![false; n],
            prune_log: Vec::new(),
            reasons: Vec::new(),
            given: Vec::new(),
            log_prunes,
            track_changes: false,
            removed_span: vec![(0, 0); n],
            touched: Vec::new(),
            is_touched: vec![false; n],
            track_touched: false,
            scratch: (0..constraints).map(|_| None).collect(),
            trailed_at: vec![usize::MAX; constraints],
            queue: Priority::Global,
            deferred: None,
            atoms: None,
            solution_known: false,
        }
    }

    /// Back to the state of a search that has not started, the domains as declared; each
    /// constraint's working memory stays, as hints do across restarts.
    pub(crate) fn reset(&mut self) {
        self.domains.restore_all();
        self.assigned.fill(false);
        self.checks = 0;
        self.pruned = 0;
        self.clear_changed();
        self.prune_log.clear();
        self.reasons.clear();
        self.given.clear();
        let touched = self.take_touched();
        self.give_back_touched(touched);
        self.queue = Priority::Global;
        self.deferred = None;
        self.solution_known = false;
    }

    /// The variables whose domains shrank since the last call; hand the list back with
    /// `give_back_touched` so that its memory is reused.
    pub(crate) fn take_touched(&mut self) -> Vec<VarId> {
        let touched = std::mem::take(&mut self.touched);
        for &var in &touched {
            self.is_touched[var.index()] = false;
        }
        touched
    }

    pub(crate) fn give_back_touched(&mut self, mut touched: Vec<VarId>) {
        touched.clear();
        if self.touched.is_empty() {
            self.touched = touched;
        }
    }

    /// Notes that values in `low..=high` went from `var`: propagation wakes the constraints
    /// the change concerns, and a variable order that keeps a heap looks at it again.
    #[inline(always)]
    pub(crate) fn note_changed(&mut self, var: VarId, low: i32, high: i32) {
        if self.track_changes {
            self.note_for_propagation(var, low, high);
        }
        if self.track_touched && !self.is_touched[var.index()] {
            self.is_touched[var.index()] = true;
            self.touched.push(var);
        }
        if let Some(trail) = self.atoms.as_deref_mut() {
            trail.record(var, low, high, &self.domains);
        }
    }

    /// Lists `var` as changed for propagation, widening the span of values it lost.
    #[inline(always)]
    fn note_for_propagation(&mut self, var: VarId, low: i32, high: i32) {
        let span = &mut self.removed_span[var.index()];
        if !self.is_changed[var.index()] {
            self.is_changed[var.index()] = true;
            self.changed.push(var);
            *span = (low, high);
        } else {
            *span = (span.0.min(low), span.1.max(high));
        }
    }

    /// Notes that the search's assignment shrank `var`'s domain, for propagation alone (the
    /// variable orders learn of assignments otherwise).
    pub(crate) fn note_assigned(&mut self, var: VarId) {
        self.note_for_propagation(var, i32::MIN, i32::MAX);
    }

    /// Forgets the changed-variable list (after a conflict, or once consumed).
    pub(crate) fn clear_changed(&mut self) {
        for var in self.changed.drain(..) {
            self.is_changed[var.index()] = false;
        }
    }
}

/// The view a [`Constraint`](crate::Constraint) gets of the search while it runs.
///
/// Reads are free. Every removal goes through [`Context::remove`], which records it for
/// backtracking, counts it as a pruned value and reports a wipe-out as a [`Conflict`].
/// A constraint that tests whether values are compatible reports how many tests it made with
/// [`Context::count_checks`], so that "constraint checks" means the same in every mode.
pub struct Context<'a> {
    pub(crate) store: &'a mut Store,
    pub(crate) current: ConstraintId,
}

impl Context<'_> {
    /// The constraint being run.
    pub fn constraint(&self) -> ConstraintId {
        self.current
    }

    /// How many values `var` has left.
    #[inline]
    pub fn size(&self, var: VarId) -> u32 {
        self.store.domains.size(var)
    }

    /// Whether `value` is still in the domain of `var`.
    #[inline]
    pub fn contains(&self, var: VarId, value: i32) -> bool {
        self.store.domains.contains(var, value)
    }

    /// The smallest value left in `var`.
    #[inline]
    pub fn min(&self, var: VarId) -> Option<i32> {
        self.recorded_bounds(var)
            .map_or_else(|| self.store.domains.min(var), |(low, _)| Some(low))
    }

    /// The largest value left in `var`.
    #[inline]
    pub fn max(&self, var: VarId) -> Option<i32> {
        self.recorded_bounds(var)
            .map_or_else(|| self.store.domains.max(var), |(_, high)| Some(high))
    }

    /// Under learning, `var`'s bounds as the atom trail holds them, which records every
    /// change as it is made: one read, where a bitset domain scans its words from an end (a
    /// product over 0..7344 whose maximum fell to 400 read 110 empty words for it, a quarter
    /// of template_design's search). `None` without learning, and for an empty domain.
    #[inline(always)]
    fn recorded_bounds(&self, var: VarId) -> Option<(i32, i32)> {
        let trail = self.store.atoms.as_deref()?;
        if self.store.domains.size(var) == 0 {
            return None;
        }
        let bounds = trail.bounds(var);
        debug_assert_eq!(
            (Some(bounds.0), Some(bounds.1)),
            (self.store.domains.min(var), self.store.domains.max(var)),
            "the atom trail's bounds of {var} are the domain's"
        );
        Some(bounds)
    }

    /// The value of `var` if its domain is down to one value (by search or by propagation).
    #[inline]
    pub fn fixed_value(&self, var: VarId) -> Option<i32> {
        self.store.domains.value(var)
    }

    /// Whether the search has assigned `var` (a variable fixed by propagation alone is not).
    #[inline]
    pub fn is_assigned(&self, var: VarId) -> bool {
        self.store.assigned[var.index()]
    }

    /// The value the search gave `var`, if it has assigned it.
    #[inline(always)]
    pub fn assigned_value(&self, var: VarId) -> Option<i32> {
        if self.is_assigned(var) {
            self.store.domains.value(var)
        } else {
            None
        }
    }

    /// The values left in `var`, smallest first.
    pub fn values(&self, var: VarId) -> impl Iterator<Item = i32> + '_ {
        self.store.domains.iter(var)
    }

    /// The values left in `var` as one word, bit `i` standing for `min + i`, when they span at
    /// most 64 values: `(min, bits)`. For fast paths over small domains.
    #[inline]
    pub fn bits64(&self, var: VarId) -> Option<(i32, u64)> {
        self.store.domains.window64(var)
    }

    /// As [`Context::bits64`], but a single-word domain comes as stored, bit `i` standing for
    /// `start + i` with `start` the same for every variable of one layout: a sudoku's cells
    /// line up without shifting.
    #[inline]
    pub(crate) fn word64(&self, var: VarId) -> Option<(i32, u64)> {
        self.store.domains.word64(var)
    }

    /// The runs of consecutive values left in `var`, smallest first, as `(first, last)`: on a
    /// wide domain, a handful of runs where its values are a billion.
    pub fn ranges(&self, var: VarId) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.store.domains.ranges(var)
    }

    /// How many values `var` has left, in full: [`Context::size`] saturates at `u32::MAX`, which
    /// only the widest domains reach.
    pub fn size_u64(&self, var: VarId) -> u64 {
        self.store.domains.size_u64(var)
    }

    /// Walks the runs of values that `x` and `y + c` can both take, smallest first, until
    /// `visit` says stop (returns false): a merge of the two domains' runs, whose cost is their
    /// number of runs, not of values.
    fn each_shared_run(
        &self,
        x: VarId,
        y: VarId,
        c: i64,
        mut visit: impl FnMut((i64, i64)) -> bool,
    ) {
        let mut left = self.ranges(x).map(|(a, b)| (i64::from(a), i64::from(b)));
        let mut right = self
            .ranges(y)
            .map(|(a, b)| (i64::from(a) + c, i64::from(b) + c));
        let (mut l, mut r) = (left.next(), right.next());
        while let (Some((la, lb)), Some((ra, rb))) = (l, r) {
            let (a, b) = (la.max(ra), lb.min(rb));
            if a <= b && !visit((a, b)) {
                return;
            }
            // Move past the run that ends first.
            if lb < rb {
                l = left.next();
            } else {
                r = right.next();
            }
        }
    }

    /// Whether `x` and `y + c` can take a value in common (stopping at the first).
    pub fn intersects(&self, x: VarId, y: VarId, c: i64) -> bool {
        let mut found = false;
        self.each_shared_run(x, y, c, |_| {
            found = true;
            false
        });
        found
    }

    /// Makes `x = y + c` domain-consistent: each keeps the values the other can match, a run at
    /// a time. Returns how many values went, or the wipe-out.
    pub fn keep_equal(&mut self, x: VarId, y: VarId, c: i64) -> Result<u64, Conflict> {
        let mut shared: SmallVec<[(i64, i64); 8]> = SmallVec::new();
        self.each_shared_run(x, y, c, |run| {
            shared.push(run);
            true
        });
        let removed = self.keep_only(x, shared.iter().copied())?;
        Ok(removed + self.keep_only(y, shared.iter().map(|&(a, b)| (a - c, b - c)))?)
    }

    /// A copy of the values left in `var`, for loops that remove values while they walk.
    pub fn values_vec(&self, var: VarId) -> SmallVec<[i32; 64]> {
        self.store.domains.iter(var).collect()
    }

    /// Charges `n` constraint checks (tests of whether values are compatible) to the statistics.
    #[inline]
    pub fn count_checks(&mut self, n: u64) {
        self.store.checks += n;
    }

    /// Removes `value` from `var`. Returns whether it was there, or the wipe-out it caused.
    // Forced inline: called for every pruned value, and a call costs a quarter of the work.
    #[inline(always)]
    pub fn remove(&mut self, var: VarId, value: i32) -> Result<bool, Conflict> {
        if !self.store.domains.remove(var, value) {
            return Ok(false);
        }
        self.store.pruned += 1;
        if self.store.log_prunes {
            let at = self.store.reasons.len() as u32;
            self.store.prune_log.push((var, value, at, at));
        }
        self.store.note_changed(var, value, value);
        self.unless_wiped_out(var)?;
        Ok(true)
    }

    /// Forward checking along contiguous variables `first + j`: removes `shifted - offsets[j]`
    /// from each unassigned one, counting a check for each, as `remove` one value at a time
    /// would. `None` where that loop must be taken instead: domains not all of one striped
    /// layout, or someone listening for the changes (mac, an observer, a heap-kept order).
    #[inline]
    pub(crate) fn remove_along(
        &mut self,
        first: VarId,
        offsets: &[i32],
        shifted: i64,
    ) -> Option<Result<(), Conflict>> {
        let store = &mut *self.store;
        if store.log_prunes || store.track_changes || store.track_touched {
            return None;
        }
        let (removed, looked, wiped_out) =
            store
                .domains
                .remove_along(first.0, offsets, shifted, &store.assigned)?;
        store.pruned += removed;
        store.checks += looked;
        Some(match wiped_out {
            None => Ok(()),
            Some(var) => Err(Conflict {
                constraint: self.current,
                kind: ConflictKind::WipeOut(var),
            }),
        })
    }

    /// The wipe-out of `var` if a removal just emptied it.
    #[inline(always)]
    fn unless_wiped_out(&self, var: VarId) -> Result<(), Conflict> {
        if self.store.domains.size(var) == 0 {
            return Err(Conflict {
                constraint: self.current,
                kind: ConflictKind::WipeOut(var),
            });
        }
        Ok(())
    }

    /// Whether reasons are being collected (an observer wants them): a propagator may skip
    /// building a reason when not.
    #[inline]
    pub fn explaining(&self) -> bool {
        self.store.log_prunes || self.store.atoms.is_some()
    }

    /// As [`Context::remove`], stating why: `reason`, atoms true now whose conjunction, with
    /// this constraint, rules `value` out. The reason reaches observers
    /// ([`Observer::on_reason`](crate::Observer::on_reason)) and, later, conflict analysis.
    // Forced inline, as `remove`: without an observer it must cost what `remove` costs.
    #[inline(always)]
    pub fn remove_because(
        &mut self,
        var: VarId,
        value: i32,
        reason: &[Atom],
    ) -> Result<bool, Conflict> {
        if !self.store.log_prunes && self.store.atoms.is_none() {
            return self.remove(var, value);
        }
        self.remove_logged(var, value, reason)
    }

    /// `remove_because` while an observer or learning collects reasons.
    #[inline(never)]
    fn remove_logged(&mut self, var: VarId, value: i32, reason: &[Atom]) -> Result<bool, Conflict> {
        self.because(reason, |ctx| ctx.remove(var, value))
    }

    /// Runs `prune`, every change it makes explained by `reason` (atoms true now whose
    /// conjunction, with this constraint, forces each of them): one reason for many removals.
    pub fn because<T>(
        &mut self,
        reason: &[Atom],
        prune: impl FnOnce(&mut Self) -> Result<T, Conflict>,
    ) -> Result<T, Conflict> {
        let learning = self.open_reason(reason);
        let at = self.store.prune_log.len();
        let result = prune(self);
        self.attach_reason(at, reason);
        if let Some(opened) = learning {
            self.close_reason(opened);
        }
        result
    }

    /// Under learning, stores `reason` (and the atoms given meanwhile) as the cause of the
    /// changes about to be made: what `close_reason` needs to undo it.
    fn open_reason(&mut self, reason: &[Atom]) -> Option<(Cause, u32, usize)> {
        let trail = self.store.atoms.as_deref_mut()?;
        let start = trail.reasons.len() as u32;
        trail.reasons.extend_from_slice(reason);
        trail.reasons.extend_from_slice(&self.store.given);
        let end = trail.reasons.len() as u32;
        let before =
            std::mem::replace(&mut trail.cause, Cause::Explained(self.current, start, end));
        Some((before, start, trail.len() as usize))
    }

    /// Puts the cause back; drops the stored reason if no change used it.
    fn close_reason(&mut self, (before, start, len): (Cause, u32, usize)) {
        if let Some(trail) = self.store.atoms.as_deref_mut() {
            let used = trail.len() as usize > len
                || trail
                    .wipe_out
                    .is_some_and(|w| matches!(w.cause, Cause::Explained(_, s, _) if s == start));
            if !used {
                trail.reasons.truncate(start as usize);
            }
            trail.cause = before;
        }
    }

    /// Whether the search has found a solution already (the learning search says so; the
    /// others never do): a propagator whose stronger filtering mostly serves to find
    /// solutions may then turn to reasoning whose explanations generalise better, for the
    /// proof that none better is left (as [`Arithmetic`](crate::constraints::Arithmetic)
    /// does for a product with a small factor). Only the strength may change, never
    /// soundness: what either filter removes is implied by the constraint.
    #[inline]
    pub fn solution_known(&self) -> bool {
        self.store.solution_known
    }

    /// Whether changes made under [`Context::lazily`] are explained lazily: under learning,
    /// outside a reification (whose condition every reason must carry) and without a proof
    /// being written (which needs each reason as the change is made). Otherwise a filter
    /// gives its reasons as it goes ([`Context::because`]) or none.
    #[inline]
    pub fn explains_lazily(&self) -> bool {
        self.store.atoms.is_some() && !self.store.log_prunes && self.store.given.is_empty()
    }

    /// Runs `prune`, every change it makes to be explained, if conflict analysis asks, by
    /// this constraint's [`Constraint::explain`](crate::Constraint::explain) told `payload`.
    /// Where [`Context::explains_lazily`] is false it runs `prune` as it is, its changes
    /// explained by the domains of the rest of the scope.
    pub fn lazily<T>(
        &mut self,
        payload: u32,
        prune: impl FnOnce(&mut Self) -> Result<T, Conflict>,
    ) -> Result<T, Conflict> {
        if !self.explains_lazily() {
            return prune(self);
        }
        let lazy = Cause::Lazy(self.current, payload);
        let before = self
            .store
            .atoms
            .as_deref_mut()
            .map(|trail| std::mem::replace(&mut trail.cause, lazy));
        let result = prune(self);
        if let (Some(trail), Some(before)) = (self.store.atoms.as_deref_mut(), before) {
            trail.cause = before;
        }
        result
    }

    /// Runs `work` with `atom` added to every reason it gives: a reified constraint enforces
    /// its inner constraint given `b = 1`, which every removal it makes depends on too.
    pub fn given<T>(&mut self, atom: Atom, work: impl FnOnce(&mut Self) -> T) -> T {
        self.store.given.push(atom);
        let result = work(self);
        self.store.given.pop();
        result
    }

    /// As [`Context::at_least`], stating why (see [`Context::remove_because`]).
    pub fn at_least_because(
        &mut self,
        var: VarId,
        min: i64,
        reason: &[Atom],
    ) -> Result<u64, Conflict> {
        self.because(reason, |ctx| ctx.at_least(var, min))
    }

    /// As [`Context::at_most`], stating why (see [`Context::remove_because`]).
    pub fn at_most_because(
        &mut self,
        var: VarId,
        max: i64,
        reason: &[Atom],
    ) -> Result<u64, Conflict> {
        self.because(reason, |ctx| ctx.at_most(var, max))
    }

    /// As [`Context::fix`], stating why (see [`Context::remove_because`]).
    pub fn fix_because(
        &mut self,
        var: VarId,
        value: i32,
        reason: &[Atom],
    ) -> Result<u64, Conflict> {
        self.because(reason, |ctx| ctx.fix(var, value))
    }

    /// Gives the removals logged from `at` on the reason `reason`.
    fn attach_reason(&mut self, at: usize, reason: &[Atom]) {
        if !self.store.log_prunes || self.store.prune_log.len() <= at {
            return;
        }
        let start = self.store.reasons.len() as u32;
        self.store.reasons.extend_from_slice(reason);
        let given = &self.store.given;
        self.store.reasons.extend_from_slice(given);
        let end = self.store.reasons.len() as u32;
        for entry in &mut self.store.prune_log[at..] {
            entry.2 = start;
            entry.3 = end;
        }
    }

    /// Removes every value of `var` in `low..=high`, a word of the bitset at a time. Returns
    /// how many values went, or the wipe-out it caused.
    pub fn remove_range(&mut self, var: VarId, low: i32, high: i32) -> Result<u64, Conflict> {
        if low > high {
            return Ok(0);
        }
        if self.store.log_prunes {
            // An observer sees each value removed, as with `remove`.
            let at = self.store.reasons.len() as u32;
            let mut value = self.store.domains.next_above(var, low.checked_sub(1));
            while let Some(v) = value.filter(|&v| v <= high) {
                self.store.prune_log.push((var, v, at, at));
                value = self.store.domains.next_above(var, Some(v));
            }
        }
        let (removed, low, high) = self.store.domains.remove_span(var, low, high);
        if removed == 0 {
            return Ok(0);
        }
        self.store.pruned += removed;
        self.store.note_changed(var, low, high);
        self.unless_wiped_out(var)?;
        Ok(removed)
    }

    /// Removes the values of `var` below `min`. Returns how many went, or the wipe-out.
    pub fn set_min(&mut self, var: VarId, min: i32) -> Result<u64, Conflict> {
        match min.checked_sub(1) {
            Some(below) => self.remove_range(var, i32::MIN, below),
            None => Ok(0),
        }
    }

    /// Removes the values of `var` above `max`. Returns how many went, or the wipe-out.
    pub fn set_max(&mut self, var: VarId, max: i32) -> Result<u64, Conflict> {
        match max.checked_add(1) {
            Some(above) => self.remove_range(var, above, i32::MAX),
            None => Ok(0),
        }
    }

    /// Removes the values of `var` below `min`, given as an `i64` so that computed bounds need
    /// no care: a bound above `i32::MAX` empties the domain (a wipe-out), one below `i32::MIN`
    /// removes nothing. Returns how many went.
    pub fn at_least(&mut self, var: VarId, min: i64) -> Result<u64, Conflict> {
        match i32::try_from(min) {
            Ok(min) => self.set_min(var, min),
            Err(_) if min > 0 => self.remove_range(var, i32::MIN, i32::MAX),
            Err(_) => Ok(0),
        }
    }

    /// Removes the values of `var` above `max`, an `i64` as for [`Context::at_least`].
    pub fn at_most(&mut self, var: VarId, max: i64) -> Result<u64, Conflict> {
        match i32::try_from(max) {
            Ok(max) => self.set_max(var, max),
            Err(_) if max < 0 => self.remove_range(var, i32::MIN, i32::MAX),
            Err(_) => Ok(0),
        }
    }

    /// Keeps `var` within `low..=high` (`i64`s, as for [`Context::at_least`]). Returns how
    /// many values went.
    pub fn within(&mut self, var: VarId, low: i64, high: i64) -> Result<u64, Conflict> {
        // Most calls find the domain within already (a literal kept to 0/1 at every wake):
        // reading its bounds is cheaper than asking for two removals.
        let domains = &self.store.domains;
        if let (Some(min), Some(max)) = (domains.min(var), domains.max(var)) {
            if low <= i64::from(min) && i64::from(max) <= high {
                return Ok(0);
            }
        }
        Ok(self.at_least(var, low)? + self.at_most(var, high)?)
    }

    /// Removes every value of `var` but `value`: a wipe-out if `value` is not in its domain.
    /// Returns how many values went.
    pub fn fix(&mut self, var: VarId, value: i32) -> Result<u64, Conflict> {
        if !self.contains(var, value) {
            return self.remove_range(var, i32::MIN, i32::MAX);
        }
        Ok(self.set_min(var, value)? + self.set_max(var, value)?)
    }

    /// Keeps only the values of `var` inside `keep`, sorted disjoint runs `(first, last)` (in
    /// `i64`, so that shifted bounds need no care), removing the gaps between them a range at
    /// a time. Returns how many values went, or the wipe-out.
    pub fn keep_only(
        &mut self,
        var: VarId,
        keep: impl IntoIterator<Item = (i64, i64)>,
    ) -> Result<u64, Conflict> {
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        let mut removed = 0;
        // The next value not yet known to be kept, or None past i32::MAX.
        let mut from = Some(i64::from(i32::MIN));
        for (first, last) in keep {
            let Some(start) = from else { break };
            if first > start {
                removed += self.remove_range(var, clamp(start), clamp(first - 1))?;
            }
            from = (last < i64::from(i32::MAX)).then(|| (last + 1).max(start));
        }
        if let Some(start) = from {
            removed += self.remove_range(var, clamp(start), i32::MAX)?;
        }
        Ok(removed)
    }

    /// Removes the values `start + b` of `var` for the bits `b` set in `gone`, those it still
    /// has: the counterpart of [`Context::bits64`] for filters that work on words, which on a
    /// single-word domain takes every bit in one step. Returns how many went, or the wipe-out.
    #[inline]
    pub fn remove_bits64(&mut self, var: VarId, start: i32, gone: u64) -> Result<u64, Conflict> {
        if gone == 0 {
            return Ok(0);
        }
        if self.store.log_prunes {
            self.log_bits64(var, start, gone);
        }
        let removed = self.store.domains.remove_bits(var, start, gone);
        if removed == 0 {
            return Ok(0);
        }
        self.store.pruned += removed;
        let low = i64::from(start) + i64::from(gone.trailing_zeros());
        let high = i64::from(start) + 63 - i64::from(gone.leading_zeros());
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        self.store.note_changed(var, clamp(low), clamp(high));
        self.unless_wiped_out(var)?;
        Ok(removed)
    }

    /// Logs the removals `remove_bits64` is about to make, for an observer.
    #[cold]
    fn log_bits64(&mut self, var: VarId, start: i32, gone: u64) {
        let at = self.store.reasons.len() as u32;
        let mut bits = gone;
        while bits != 0 {
            let value = i64::from(start) + i64::from(bits.trailing_zeros());
            bits &= bits - 1;
            if let Ok(value) = i32::try_from(value) {
                if self.contains(var, value) {
                    self.store.prune_log.push((var, value, at, at));
                }
            }
        }
    }

    /// `count` integers of this constraint's own for the current search, kept between its
    /// runs and restored on backtracking as the domains are (Chuffed's and Pumpkin's trailed
    /// integers): 0 at first and after the search starts over. The first call makes room
    /// for them; every call of one constraint must ask the same `count`. Read and write them
    /// with [`Context::trailed_int`] and [`Context::set_trailed_int`].
    pub fn trailed(&mut self, count: usize) -> Trailed {
        let index = self.current.index();
        if index >= self.store.trailed_at.len() {
            self.store.trailed_at.resize(index + 1, usize::MAX);
        }
        let at = &mut self.store.trailed_at[index];
        if *at == usize::MAX {
            *at = self.store.domains.add_ints(count);
        }
        Trailed { first: *at, count }
    }

    /// The `i`th integer of `slots`.
    #[inline(always)]
    pub fn trailed_int(&self, slots: Trailed, i: usize) -> i64 {
        debug_assert!(i < slots.count);
        self.store.domains.int(slots.first + i)
    }

    /// Sets the `i`th integer of `slots`, to come back on backtracking.
    #[inline(always)]
    pub fn set_trailed_int(&mut self, slots: Trailed, i: usize, value: i64) {
        debug_assert!(i < slots.count);
        self.store.domains.set_int(slots.first + i, value);
    }

    /// This constraint's working memory for the current search: buffers to reuse between
    /// calls, or hints such as a previous matching. It is created with `T::default()` on first
    /// use, is not restored on backtrack (so it must only ever be a hint), and is lent out:
    /// hand it back with [`Context::put_scratch`].
    pub fn take_scratch<T: Default + Send + 'static>(&mut self) -> Box<T> {
        self.store
            .scratch
            .get_mut(self.current.index())
            .and_then(Option::take)
            .and_then(|b| b.downcast::<T>().ok())
            .unwrap_or_default()
    }

    /// The queue this run of [`Constraint::propagate`](crate::Constraint::propagate) was taken
    /// from: the constraint's own [`Priority`] when a change woke it, the one it asked for
    /// when it deferred ([`Context::defer`]), and [`Priority::Global`] outside propagation.
    pub fn queue(&self) -> Priority {
        self.store.queue
    }

    /// Asks to be run again from the queue of `priority` once every cheaper queue is empty,
    /// whether or not anything in the scope changes meanwhile: Gecode's partial fixpoint. A
    /// filter with a cheap part and a costly one does the cheap part when woken and defers the
    /// rest, so that the costly part looks at domains the cheap filters of every constraint
    /// have already shrunk, and runs once for many changes. The deferred run must do all that
    /// was left; the engine does not count the constraint at its fixpoint until it has.
    pub fn defer(&mut self, priority: Priority) {
        self.store.deferred = Some(priority);
    }

    /// Runs `work` with this constraint's working memory (see [`Context::take_scratch`]) and
    /// hands the memory back afterwards, whatever `work` returns.
    pub fn with_scratch<T: Default + Send + 'static, R>(
        &mut self,
        work: impl FnOnce(&mut Self, &mut T) -> R,
    ) -> R {
        let mut scratch = self.take_scratch::<T>();
        let result = work(self, &mut scratch);
        self.put_scratch(scratch);
        result
    }

    /// Returns the memory lent by [`Context::take_scratch`].
    pub fn put_scratch<T: Send + 'static>(&mut self, scratch: Box<T>) {
        if let Some(slot) = self.store.scratch.get_mut(self.current.index()) {
            *slot = Some(scratch);
        }
    }

    /// As [`Context::violated`], stating why: `reason`, atoms true now whose conjunction the
    /// constraint rules out. Without it, learning blames the domains of the whole scope.
    pub fn violated_because(&mut self, reason: &[Atom]) -> Conflict {
        if let Some(trail) = self.store.atoms.as_deref_mut() {
            let start = trail.reasons.len() as u32;
            trail.reasons.extend_from_slice(reason);
            trail.reasons.extend_from_slice(&self.store.given);
            let end = trail.reasons.len() as u32;
            trail.violation = Some((self.current, start, end));
        }
        self.violated()
    }

    /// The conflict to return when the constraint finds itself broken.
    pub fn violated(&self) -> Conflict {
        Conflict {
            constraint: self.current,
            kind: ConflictKind::Violated,
        }
    }
}

#[cfg(test)]
mod tests;
