//! `Observer`: hooks called at each step of the search, for traces and visualisations.

use crate::propagation::queue::PruneSink;
use crate::{Atom, ConstraintId, VarId};

/// Receives the search's events as they happen. Every method has an empty default, and the
/// search is compiled separately for each observer type, so [`NoObserver`] costs nothing.
///
/// The events of one node come in this order: `on_assign` (or `on_split`, for a two-way node
/// under mac), then any `on_prune` (fc, mac), then either `on_wipeout` or `on_violation` (the node failed) or
/// the next node's events; `on_backtrack` (`on_unsplit`) when the search takes the decision
/// back, and `on_solution` when every variable has a value.
pub trait Observer {
    /// Whether `on_prune` should be called. Collecting prunes costs a little, so an observer
    /// that ignores them can say so.
    fn wants_prunes(&self) -> bool {
        true
    }

    /// The search gave `var` the value `value`; `depth` counts assigned variables, this one included.
    fn on_assign(&mut self, var: VarId, value: i32, depth: usize) {
        let _ = (var, value, depth);
    }

    /// Filtering by constraint `by` removed `value` from `var`.
    fn on_prune(&mut self, var: VarId, value: i32, by: ConstraintId) {
        let _ = (var, value, by);
    }

    /// The reason constraint `by` gave for the removal just reported by `on_prune`: atoms
    /// that held then and, with the constraint, rule `value` out of `var`. Called only for
    /// removals whose propagator explains them.
    fn on_reason(&mut self, var: VarId, value: i32, by: ConstraintId, reason: &[Atom]) {
        let _ = (var, value, by, reason);
    }

    /// Filtering by constraint `by` removed the last value of `var`: the node fails.
    fn on_wipeout(&mut self, var: VarId, by: ConstraintId) {
        let _ = (var, by);
    }

    /// Under `none`, constraint `by` is broken by the assignments so far: the node fails.
    fn on_violation(&mut self, var: VarId, value: i32, by: ConstraintId) {
        let _ = (var, value, by);
    }

    /// The search takes back `var = value` (after a failure, or once its subtree is done).
    fn on_backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        let _ = (var, value, depth);
    }

    /// The search took a branch of a two-way node under `mac`, `atom`, instead of assigning a
    /// value: `x <= mid` or `x >= mid + 1` (bisection), or `x = v` or `x != v` (a declared
    /// search's `min`, `max` or `median`); the variable stays unassigned. `depth` counts the
    /// open decisions, this one included.
    fn on_split(&mut self, atom: Atom, depth: usize) {
        let _ = (atom, depth);
    }

    /// The search takes back the narrowing `atom` (after a failure, or once its subtree is
    /// done).
    fn on_unsplit(&mut self, atom: Atom, depth: usize) {
        let _ = (atom, depth);
    }

    /// A solution: one value per variable, in creation order.
    fn on_solution(&mut self, values: &[i32]) {
        let _ = values;
    }

    /// Learning found `nogood`: atoms that cannot all hold (the clause of their negations),
    /// its first the one it makes false after the search jumps back to decision level
    /// `backjump`.
    fn on_nogood(&mut self, nogood: &[Atom], backjump: usize) {
        let _ = (nogood, backjump);
    }

    /// Whether `on_explanation` should be called (it costs a copy of each explanation).
    fn wants_explanations(&self) -> bool {
        false
    }

    /// Whether every change made below the root is also to be explained to `on_explanation`
    /// once propagation stops (at a fixpoint or a conflict), not only those conflict analysis
    /// reads: for a checker of explanations, which then sees the reasons no conflict happens
    /// to ask for. Such calls come outside the order of a conflict's, so a proof logger says
    /// false (the default: it costs an explanation per change).
    fn wants_every_explanation(&self) -> bool {
        false
    }

    /// Conflict analysis explained a change: with constraint `by` (or, when `by` is
    /// [`ConstraintId::NOGOOD`], the nogood `nogood`: atoms that cannot all hold), the atoms
    /// of `reason` imply `implied`, or, when `implied` is `None`, cannot all hold. For
    /// checking explanations and logging proofs; called only under `lcg`. The reason given
    /// here also lists the facts of the root about its variables (values gone there), which
    /// analysis itself leaves out.
    ///
    /// The calls of one conflict come in this order: the conflict itself (`implied` is
    /// `None`), then the changes analysis resolved, newest first, then those minimisation
    /// looked through; `on_nogood` closes them.
    fn on_explanation(
        &mut self,
        by: ConstraintId,
        nogood: &[Atom],
        reason: &[Atom],
        implied: Option<Atom>,
    ) {
        let _ = (by, nogood, reason, implied);
    }

    /// A change made at the root (decision level 0) explained, as `on_explanation` explains
    /// one: a fact for the rest of the search, which analysis never explains again. Called
    /// once per change, before any conflict whose explanations rely on it. The default
    /// passes it to `on_explanation`.
    fn on_root_explanation(
        &mut self,
        by: ConstraintId,
        nogood: &[Atom],
        reason: &[Atom],
        implied: Atom,
    ) {
        self.on_explanation(by, nogood, reason, Some(implied));
    }

    /// The search dropped every open node (each assignment taken back with `on_backtrack`,
    /// deepest first) and starts again from the root; `restarts` counts this one.
    fn on_restart(&mut self, restarts: u64) {
        let _ = restarts;
    }
}

/// The observer that observes nothing.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    fn wants_prunes(&self) -> bool {
        false
    }
}

impl<T: Observer + ?Sized> Observer for &mut T {
    fn wants_prunes(&self) -> bool {
        (**self).wants_prunes()
    }
    fn on_assign(&mut self, var: VarId, value: i32, depth: usize) {
        (**self).on_assign(var, value, depth)
    }
    fn on_prune(&mut self, var: VarId, value: i32, by: ConstraintId) {
        (**self).on_prune(var, value, by)
    }
    fn on_reason(&mut self, var: VarId, value: i32, by: ConstraintId, reason: &[Atom]) {
        (**self).on_reason(var, value, by, reason)
    }
    fn on_wipeout(&mut self, var: VarId, by: ConstraintId) {
        (**self).on_wipeout(var, by)
    }
    fn on_violation(&mut self, var: VarId, value: i32, by: ConstraintId) {
        (**self).on_violation(var, value, by)
    }
    fn on_backtrack(&mut self, var: VarId, value: i32, depth: usize) {
        (**self).on_backtrack(var, value, depth)
    }
    fn on_split(&mut self, atom: Atom, depth: usize) {
        (**self).on_split(atom, depth)
    }
    fn on_unsplit(&mut self, atom: Atom, depth: usize) {
        (**self).on_unsplit(atom, depth)
    }
    fn on_solution(&mut self, values: &[i32]) {
        (**self).on_solution(values)
    }
    fn on_nogood(&mut self, nogood: &[Atom], backjump: usize) {
        (**self).on_nogood(nogood, backjump)
    }
    fn wants_explanations(&self) -> bool {
        (**self).wants_explanations()
    }
    fn wants_every_explanation(&self) -> bool {
        (**self).wants_every_explanation()
    }
    fn on_explanation(
        &mut self,
        by: ConstraintId,
        nogood: &[Atom],
        reason: &[Atom],
        implied: Option<Atom>,
    ) {
        (**self).on_explanation(by, nogood, reason, implied)
    }
    fn on_root_explanation(
        &mut self,
        by: ConstraintId,
        nogood: &[Atom],
        reason: &[Atom],
        implied: Atom,
    ) {
        (**self).on_root_explanation(by, nogood, reason, implied)
    }
    fn on_restart(&mut self, restarts: u64) {
        (**self).on_restart(restarts)
    }
}

/// Propagation reports its removals to the search's observer.
impl<O: Observer + ?Sized> PruneSink for O {
    #[inline]
    fn pruned(&mut self, var: VarId, value: i32, c: ConstraintId) {
        self.on_prune(var, value, c);
    }
    #[inline]
    fn pruned_because(&mut self, var: VarId, value: i32, c: ConstraintId, reason: &[Atom]) {
        self.on_reason(var, value, c, reason);
    }
}
