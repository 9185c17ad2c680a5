//! `Core`: the state one search works on (domains, assignments, the propagation queue) and the
//! three inference modes that run after each assignment.

use crate::context::{Conflict, ConflictKind, Context, Store};
use crate::domain::Domains;
use crate::learning::atom_trail::Cause;
use crate::{
    Atom, ConstraintId, Inference, Limit, Limits, Model, Observer, Poller, Priority, Statistics,
    VarId, Wake,
};
use std::collections::VecDeque;

/// The search's state, shared by the node loop and the heuristics.
pub(crate) struct Core<'m> {
    pub(crate) model: &'m Model,
    pub(crate) store: Store,
    pub(crate) inference: Inference,
    /// The variables, assigned ones first: `order[..assigned_count]` are assigned.
    pub(crate) order: Vec<VarId>,
    position: Vec<u32>,
    pub(crate) assigned_count: usize,
    /// The woken constraints, one queue per priority, cheapest first.
    queues: [VecDeque<ConstraintId>; Priority::COUNT],
    in_queue: Vec<bool>,
    /// Constraints that every assignment of the root's domains satisfies: no change wakes
    /// them again in this solve (see [`Core::retire_entailed`]).
    retired: Vec<bool>,
    /// For each queued constraint, the scope variables that changed since it last ran.
    pending: Vec<Vec<VarId>>,
    pub(crate) propagations: u64,
    pub(crate) wipeouts: u64,
    /// Branch and bound: the objective variable and the values still allowed to it.
    pub(crate) objective: Option<Bound>,
    /// Reads the time limit and the cancel flag, in the node loop and during propagation.
    pub(crate) poller: Poller,
    /// The limit that cut a propagation (or the setting up of the domains) short: its `Err`
    /// is not a real conflict.
    pub(crate) interrupted: Option<Limit>,
}

/// The objective variable and the range a better solution must fall in.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Bound {
    pub(crate) var: VarId,
    pub(crate) low: i64,
    pub(crate) high: i64,
}

/// Which hook of a constraint to run.
#[derive(Copy, Clone)]
enum Hook<'a> {
    Check(VarId),
    ForwardCheck(VarId),
    Propagate(&'a [VarId]),
}

impl<'m> Core<'m> {
    /// The state for a search of `model`. Setting up the domains reads `limits`; if they stop
    /// it, the core comes back with `interrupted` set and must not be searched.
    pub(crate) fn new(
        model: &'m Model,
        inference: Inference,
        log_prunes: bool,
        limits: &Limits,
    ) -> Self {
        let mut poller = Poller::new(limits);
        let declared = model.vars.iter().map(|v| &v.domain);
        // Under mac, a variable whose every constraint wakes on bounds: inequalities, sums,
        // scheduling. Those that wake on fixing (`!=`) remove single values inside the
        // domain, which a bitset takes better than a list of holes. A constraint on this
        // variable alone (the others fixed as declared, as FlatZinc's `x mod 97 = 0`) does
        // not count: it filters once at the root and then retires (`retire_entailed`), and
        // the bounds moves that follow are what a list of holes takes best.
        let declared_fixed = |v: VarId| model.vars[v.index()].domain.size() == 1;
        let by_bounds = |var: usize| {
            let var = VarId(var as u32);
            if !inference.propagates() {
                return false;
            }
            let mut on_bounds = false;
            for c in model
                .constraints_on(var)
                .iter()
                .filter_map(|&c| model.constraint(c))
            {
                if c.wake_on(var) == Wake::Bounds {
                    on_bounds = true;
                } else if !c.scope().iter().all(|&v| v == var || declared_fixed(v)) {
                    return false;
                }
            }
            on_bounds
        };
        let domains =
            Domains::with_bitset_limit(declared, &mut poller, crate::BITSET_SPAN_LIMIT, &by_bounds);
        let (domains, interrupted) = match domains {
            Some(domains) => (domains, None),
            None => (Domains::empty(), poller.stopped()),
        };
        let n = model.vars.len();
        let mut store = Store::new(domains, log_prunes, model.constraints.len());
        store.track_changes = inference.propagates();
        Core {
            model,
            store,
            inference,
            order: model.vars().collect(),
            position: (0..n as u32).collect(),
            assigned_count: 0,
            queues: Default::default(),
            in_queue: vec![false; model.constraints.len()],
            retired: vec![false; model.constraints.len()],
            pending: vec![Vec::new(); model.constraints.len()],
            propagations: 0,
            wipeouts: 0,
            objective: None,
            poller,
            interrupted,
        }
    }

    /// Back to the state `Core::new` gives, its memory kept: for the next solve of a
    /// [`Session`](crate::Session). Domains whose setting up a limit cut short are set up
    /// again.
    pub(crate) fn reset(&mut self, limits: &Limits) {
        if self.store.domains.len() != self.model.var_count() {
            *self = Core::new(self.model, self.inference, self.store.log_prunes, limits);
            return;
        }
        self.store.reset();
        for (i, var) in self.order.iter_mut().enumerate() {
            *var = VarId(i as u32);
        }
        for (i, position) in self.position.iter_mut().enumerate() {
            *position = i as u32;
        }
        self.assigned_count = 0;
        for queue in &mut self.queues {
            queue.clear();
        }
        self.in_queue.fill(false);
        self.retired.fill(false);
        for pending in &mut self.pending {
            pending.clear();
        }
        self.propagations = 0;
        self.wipeouts = 0;
        self.objective = None;
        self.poller = Poller::new(limits);
        self.interrupted = None;
    }

    /// Fixes each `(var, value)` before the search starts ([`Solver::assume`](crate::Solver));
    /// false when a value is not in its variable's domain (or a variable is given two).
    pub(crate) fn fix_at_root(&mut self, fixed: &[(VarId, i32)]) -> bool {
        for &(var, value) in fixed {
            if var.index() >= self.model.var_count() || !self.store.domains.contains(var, value) {
                return false;
            }
            self.store.domains.assign(var, value);
        }
        true
    }

    /// Counts one propagator run on the poller: the limit that stopped the search, if any.
    /// One all_different filter on a 625x625 sudoku takes milliseconds, so the root's
    /// filtering stops soon after a limit is due.
    #[inline]
    fn due_limit(&mut self) -> Option<Limit> {
        if self.poller.tick() {
            None
        } else {
            self.poller.stopped()
        }
    }

    /// The node limit once `nodes` reach it, or whatever the poller read (every millisecond
    /// or so of nodes; the poller's interval adapts to what a node costs, from 100 ns on
    /// queens to 10 ms on a 200,000-vertex colouring).
    #[inline]
    pub(crate) fn limit_hit(&mut self, nodes: u64, limits: &Limits) -> Option<Limit> {
        if limits.nodes.is_some_and(|n| nodes >= n) {
            return Some(Limit::Nodes);
        }
        if self.poller.tick() {
            None
        } else {
            self.poller.stopped()
        }
    }

    /// Copies the solution at hand into `solution` and, under an objective, tightens its
    /// bound so that every later solution must be strictly better.
    pub(crate) fn take_solution(
        &mut self,
        solution: &mut [i32],
        objective: Option<(VarId, super::Sense)>,
    ) {
        for (slot, var) in solution.iter_mut().zip(self.model.vars()) {
            *slot = self.store.domains.value(var).unwrap_or_default();
        }
        if let (Some((var, sense)), Some(bound)) = (objective, &mut self.objective) {
            let value = i64::from(solution[var.index()]);
            match sense {
                super::Sense::Minimize => bound.high = value - 1,
                super::Sense::Maximize => bound.low = value + 1,
            }
        }
    }

    /// Sets a solve up on the root's domains: fixes the configured assumptions and `assumed`,
    /// and leaves the objective unbounded. False when the fixings cannot all hold; true when
    /// a limit already stopped the setting up, which the search then reports.
    pub(crate) fn begin(&mut self, config: &super::SolveConfig, assumed: &[(VarId, i32)]) -> bool {
        let hold = self.interrupted.is_some()
            || (self.fix_at_root(&config.assumed) && self.fix_at_root(assumed));
        self.objective = config.objective.map(|(var, _)| Bound {
            var,
            low: i64::MIN,
            high: i64::MAX,
        });
        hold
    }

    /// The summary of a solve: `stats` with the core's counters, its time so far if it is
    /// still `running`.
    pub(crate) fn summary(
        &self,
        stats: &Statistics,
        outcome: super::Outcome,
        started: std::time::Instant,
        running: bool,
    ) -> super::Summary {
        let mut stats = self.figures(stats);
        if running {
            stats.elapsed = started.elapsed();
        }
        super::Summary { outcome, stats }
    }

    /// `stats` with the counters the core keeps filled in.
    pub(crate) fn figures(&self, stats: &Statistics) -> Statistics {
        let mut stats = stats.clone();
        stats.checks = self.store.checks;
        stats.pruned = self.store.pruned;
        stats.propagations = self.propagations;
        stats.wipeouts = self.wipeouts;
        stats
    }

    /// The unassigned variables, in no particular order.
    #[inline]
    pub(crate) fn unassigned(&self) -> &[VarId] {
        &self.order[self.assigned_count..]
    }

    #[inline]
    pub(crate) fn is_assigned(&self, var: VarId) -> bool {
        self.store.assigned[var.index()]
    }

    /// Whether constraint `c` has an unassigned variable other than `var` in its scope.
    #[inline]
    pub(crate) fn has_other_open(&self, c: ConstraintId, var: VarId) -> bool {
        self.model.constraints[c.index()]
            .scope()
            .iter()
            .any(|&v| v != var && !self.is_assigned(v))
    }

    /// The search assigns `var = value`: its domain becomes `{value}`. Under `mac` a domain
    /// that shrank is noted as changed, for [`Core::infer`] to propagate from; one that
    /// propagation had already fixed is not, since every constraint on it has already seen it
    /// fixed (the one that fixed it too, unless idempotent: see [`Model::post`]).
    pub(crate) fn assign(&mut self, var: VarId, value: i32) {
        // A domain of one value is `{value}` already: the value order offers only what the
        // domain holds, and under `mac` most of a sudoku's assignments are of such cells.
        if self.store.domains.size(var) > 1 {
            if self.store.track_changes {
                self.store.note_assigned(var);
            }
            self.store.domains.assign(var, value);
        }
        self.store.assigned[var.index()] = true;
        let here = self.position[var.index()] as usize;
        let slot = self.assigned_count;
        let displaced = self.order[slot];
        self.order.swap(here, slot);
        self.position[displaced.index()] = here as u32;
        self.position[var.index()] = slot as u32;
        self.assigned_count += 1;
    }

    /// The search makes `atom` true (a branch of a two-way node), which must keep some of its
    /// variable's values. Like an assignment, the change is noted for propagation but reaches
    /// observers as a decision, not as prunes; the variable stays unassigned.
    pub(crate) fn impose(&mut self, atom: Atom) {
        let var = atom.var();
        let (low, high) = match atom {
            Atom::Eq(_, v) => (v, v),
            Atom::Le(_, v) => (i32::MIN, v),
            Atom::Ge(_, v) => (v, i32::MAX),
            Atom::Ne(_, v) => (v, v),
        };
        if let Atom::Ne(..) = atom {
            if self.store.domains.remove_range(var, low, high) > 0 {
                self.store.note_changed(var, low, high);
            }
            return;
        }
        let domains = &mut self.store.domains;
        let (Some(min), Some(max)) = (domains.min(var), domains.max(var)) else {
            return;
        };
        if low > min && domains.remove_range(var, min, low - 1) > 0 {
            self.store.note_changed(var, min, low - 1);
        }
        let domains = &mut self.store.domains;
        if high < max && domains.remove_range(var, high + 1, max) > 0 {
            self.store.note_changed(var, high + 1, max);
        }
    }

    /// Takes back the most recent assignment, which must be `var`'s. Domains are restored
    /// separately, from the trail.
    pub(crate) fn unassign(&mut self, var: VarId) {
        self.store.assigned[var.index()] = false;
        self.assigned_count -= 1;
    }

    #[inline]
    fn run<O: Observer>(
        &mut self,
        c: ConstraintId,
        hook: Hook<'_>,
        observer: &mut O,
    ) -> Result<(), Conflict> {
        let constraint = self.model.constraints[c.index()].as_ref();
        if let Some(trail) = self.store.atoms.as_deref_mut() {
            trail.cause = Cause::Propagator(c);
            trail.violation = None;
        }
        let mut ctx = Context {
            store: &mut self.store,
            current: c,
        };
        let result = match hook {
            Hook::Check(var) => constraint.check_assigned(var, &mut ctx),
            Hook::ForwardCheck(var) => constraint.forward_check(var, &mut ctx),
            Hook::Propagate(changed) => constraint.propagate_changed(changed, &mut ctx),
        };
        if !matches!(hook, Hook::Check(_)) {
            self.propagations += 1;
        }
        if self.store.log_prunes {
            self.report_prunes(c, observer);
        }
        if let Err(Conflict {
            kind: ConflictKind::WipeOut(_),
            ..
        }) = result
        {
            self.wipeouts += 1;
        }
        result
    }

    /// Hands the logged removals of constraint `c` and their reasons to the observer.
    fn report_prunes<O: Observer>(&mut self, c: ConstraintId, observer: &mut O) {
        for &(var, value, start, end) in &self.store.prune_log {
            observer.on_prune(var, value, c);
            if start < end {
                observer.on_reason(
                    var,
                    value,
                    c,
                    &self.store.reasons[start as usize..end as usize],
                );
            }
        }
        self.store.prune_log.clear();
        self.store.reasons.clear();
    }

    /// Runs the chosen inference after the search assigned `var`.
    pub(crate) fn infer<O: Observer>(
        &mut self,
        var: VarId,
        observer: &mut O,
    ) -> Result<(), Conflict> {
        let model = self.model;
        match self.inference {
            Inference::None => {
                for &c in model.constraints_on(var) {
                    self.run(c, Hook::Check(var), observer)?;
                }
                Ok(())
            }
            Inference::ForwardChecking => {
                for &c in model.constraints_on(var) {
                    self.run(c, Hook::ForwardCheck(var), observer)?;
                }
                Ok(())
            }
            Inference::Mac | Inference::Lcg => {
                // `assign` noted the change, if it made one; the objective's bound may have
                // made others.
                let _ = var;
                self.enqueue_changed(None);
                self.fixpoint(observer)
            }
        }
    }

    /// Branch and bound: keeps the objective inside the range that beats the best solution so
    /// far. Under `none` it only checks an assigned objective; otherwise it prunes.
    pub(crate) fn enforce_bound<O: Observer>(&mut self, observer: &mut O) -> Result<(), Conflict> {
        let Some(bound) = self.objective else {
            return Ok(());
        };
        let outside = |v: i32| i64::from(v) < bound.low || i64::from(v) > bound.high;
        let mut ctx = Context {
            store: &mut self.store,
            current: ConstraintId::OBJECTIVE,
        };
        let result = if self.inference == Inference::None {
            match ctx.assigned_value(bound.var) {
                Some(v) if outside(v) => Err(ctx.violated()),
                _ => Ok(()),
            }
        } else {
            ctx.keep_only(bound.var, [(bound.low, bound.high)])
                .map(|_| ())
        };
        if self.store.log_prunes {
            self.report_prunes(ConstraintId::OBJECTIVE, observer);
        }
        if let Err(Conflict {
            kind: ConflictKind::WipeOut(_),
            ..
        }) = result
        {
            self.wipeouts += 1;
        }
        result
    }

    /// Forward checks every constraint on `var` without telling anyone: the look-ahead of the
    /// least-constraining-value order. The caller restores the domains.
    pub(crate) fn forward_check_quietly(&mut self, var: VarId) -> Result<(), Conflict> {
        let model = self.model;
        let log = std::mem::replace(&mut self.store.log_prunes, false);
        let mut result = Ok(());
        for &c in model.constraints_on(var) {
            let mut ctx = Context {
                store: &mut self.store,
                current: c,
            };
            result = model.constraints[c.index()].forward_check(var, &mut ctx);
            if result.is_err() {
                break;
            }
        }
        self.store.log_prunes = log;
        self.store.clear_changed();
        result
    }

    /// Filters every constraint once and then to a fixpoint: arc consistency at the root.
    pub(crate) fn propagate_all<O: Observer>(&mut self, observer: &mut O) -> Result<(), Conflict> {
        self.queue_all();
        self.fixpoint(observer)
    }

    /// Queues every constraint, each with its whole scope as changed.
    fn queue_all(&mut self) {
        for (i, constraint) in self.model.constraints.iter().enumerate() {
            self.in_queue[i] = true;
            if self.model.meta[i].wants_changes {
                self.pending[i].extend_from_slice(constraint.scope());
            }
            self.queues[self.model.meta[i].priority as usize].push_back(ConstraintId(i as u32));
        }
    }

    /// After the root's fixpoint under mac: retires each constraint that every assignment of
    /// the domains satisfies (at most one variable left open, and each of its values
    /// satisfies it), so that no change wakes it again in this solve, as Gecode disposes of
    /// a subsumed propagator. Below the root the domains only shrink, so it stays satisfied.
    /// A unary constraint such as FlatZinc's `x mod 97 = 0` is then filtered once, not at
    /// every change of `x`. The test is brute force, within a budget of value checks.
    pub(crate) fn retire_entailed(&mut self) {
        const BUDGET: u64 = 1 << 22;
        let mut spent = 0u64;
        let mut values: Vec<i32> = Vec::new();
        let domains = &self.store.domains;
        for (i, constraint) in self.model.constraints.iter().enumerate() {
            let scope = constraint.scope();
            let mut open: Option<VarId> = None;
            let mut several = false;
            for &v in scope.iter().filter(|&&v| domains.size(v) > 1) {
                if open.is_some_and(|o| o != v) {
                    several = true;
                    break;
                }
                open = Some(v);
            }
            if several {
                continue;
            }
            values.clear();
            values.extend(scope.iter().map(|&v| domains.min(v).unwrap_or(0)));
            let cost = scope.len() as u64 * open.map_or(1, |x| domains.size_u64(x));
            if spent + cost > BUDGET {
                continue;
            }
            spent += cost;
            let holds = match open {
                None => constraint.is_satisfied(&values),
                Some(x) => domains.iter(x).all(|a| {
                    for (slot, &v) in values.iter_mut().zip(scope) {
                        if v == x {
                            *slot = a;
                        }
                    }
                    constraint.is_satisfied(&values)
                }),
            };
            self.retired[i] = holds;
        }
    }

    /// What happened to a changed variable: fixed, its bounds moved (looked at only when some
    /// constraint wakes on bounds), or only some value went.
    fn event(&self, var: VarId) -> Wake {
        let domains = &self.store.domains;
        if domains.size(var) <= 1 {
            return Wake::Fixed;
        }
        if !self.model.bounds_watched[var.index()] {
            return Wake::Domain;
        }
        let (low, high) = self.store.removed_span[var.index()];
        let moved = domains.min(var).is_some_and(|min| low < min)
            || domains.max(var).is_some_and(|max| high > max);
        if moved {
            Wake::Bounds
        } else {
            Wake::Domain
        }
    }

    /// Queues the constraints that each changed variable's change wakes, except `skip` (the
    /// constraint that made the change, when it is idempotent).
    fn enqueue_changed(&mut self, skip: Option<ConstraintId>) {
        let model = self.model;
        let mut changed = std::mem::take(&mut self.store.changed);
        for &var in &changed {
            self.store.is_changed[var.index()] = false;
            let event = self.event(var);
            for &c in model.constraints_on(var) {
                if Some(c) == skip || model.wake_of(c, var) > event {
                    continue;
                }
                if model.meta[c.index()].wants_changes && !self.retired[c.index()] {
                    self.pending[c.index()].push(var);
                }
                if !self.in_queue[c.index()] && !self.retired[c.index()] {
                    self.in_queue[c.index()] = true;
                    let priority = model.meta[c.index()].priority_on[event as usize];
                    self.queues[priority as usize].push_back(c);
                }
            }
        }
        changed.clear();
        self.store.changed = changed;
    }

    /// The next woken constraint, from the cheapest queue that has one, with that queue.
    fn next_woken(&mut self) -> Option<(ConstraintId, Priority)> {
        self.queues
            .iter_mut()
            .zip(Priority::ALL)
            .find_map(|(queue, priority)| Some((queue.pop_front()?, priority)))
    }

    fn fixpoint<O: Observer>(&mut self, observer: &mut O) -> Result<(), Conflict> {
        self.fixpoint_with(observer, |_| Ok(()))
    }

    /// Every constraint on `c`'s queue run before the cheaper ones: `between` runs before
    /// each constraint and at the end, with the changes it makes propagated in turn. Learning
    /// propagates its nogoods there, ahead of every constraint, as Chuffed does its clauses.
    pub(crate) fn fixpoint_with<O: Observer>(
        &mut self,
        observer: &mut O,
        mut between: impl FnMut(&mut Store) -> Result<(), Conflict>,
    ) -> Result<(), Conflict> {
        loop {
            let nogoods = between(&mut self.store);
            if self.store.log_prunes && !self.store.prune_log.is_empty() {
                self.report_prunes(ConstraintId::NOGOOD, observer);
            }
            if let Err(conflict) = nogoods {
                self.drop_queues();
                return Err(conflict);
            }
            if !self.store.changed.is_empty() {
                self.enqueue_changed(None);
            }
            let Some((c, queue)) = self.next_woken() else {
                return Ok(());
            };
            self.in_queue[c.index()] = false;
            self.store.queue = queue;
            // Lend the list out and take it back, so its capacity is reused.
            let mut changed = std::mem::take(&mut self.pending[c.index()]);
            let result = match self.due_limit() {
                Some(limit) => {
                    // Unwound like a conflict; the node loop sees `interrupted` and stops.
                    self.interrupted = Some(limit);
                    Err(Conflict {
                        constraint: c,
                        kind: ConflictKind::Violated,
                    })
                }
                None if self.model.meta[c.index()].wants_changes => {
                    self.run(c, Hook::Propagate(&changed), observer)
                }
                None => {
                    let scope = self.model.constraints[c.index()].scope();
                    self.run(c, Hook::Propagate(scope), observer)
                }
            };
            changed.clear();
            self.pending[c.index()] = changed;
            self.store.queue = Priority::Global;
            let deferred = self.store.deferred.take();
            if let Err(conflict) = result {
                self.drop_queues();
                return Err(conflict);
            }
            let idempotent = self.model.meta[c.index()].idempotent;
            self.enqueue_changed(idempotent.then_some(c));
            if let Some(priority) = deferred {
                // Woken again by its own changes, it is queued already: that run can defer
                // again.
                if !self.in_queue[c.index()] {
                    self.in_queue[c.index()] = true;
                    self.queues[priority as usize].push_back(c);
                }
            }
        }
    }

    /// After a conflict: no constraint is left queued and no change pending.
    fn drop_queues(&mut self) {
        for queue in &mut self.queues {
            for c in queue.drain(..) {
                self.in_queue[c.index()] = false;
                self.pending[c.index()].clear();
            }
        }
        self.store.clear_changed();
    }

    /// As [`Core::propagate_all`], with `between` as in [`Core::fixpoint_with`].
    pub(crate) fn propagate_all_with<O: Observer>(
        &mut self,
        observer: &mut O,
        between: impl FnMut(&mut Store) -> Result<(), Conflict>,
    ) -> Result<(), Conflict> {
        self.queue_all();
        self.fixpoint_with(observer, between)
    }
}
