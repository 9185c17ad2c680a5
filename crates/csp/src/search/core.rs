//! `Core`: the state one search works on (domains, assignments, the propagation queue) and the
//! three inference modes that run after each assignment.

use crate::propagation::context::{Conflict, Context, Store};
use crate::propagation::domains::Domains;
use crate::propagation::queue::{report_prunes, Hook, Queue};
use crate::{
    Atom, ConstraintId, Inference, Limit, Limits, Model, Observer, Poller, Statistics, VarId, Wake,
};

/// The search's state, shared by the node loop and the heuristics.
pub(crate) struct Core<'m> {
    pub(crate) model: &'m Model,
    pub(crate) store: Store,
    pub(crate) inference: Inference,
    /// The variables, assigned ones first: `order[..assigned_count]` are assigned.
    pub(crate) order: Vec<VarId>,
    position: Vec<u32>,
    pub(crate) assigned_count: usize,
    /// The woken constraints, and the counters of their runs.
    pub(crate) queue: Queue,
    /// Branch and bound: the objective variable and the values still allowed to it.
    pub(crate) objective: Option<Bound>,
    /// The best value the other workers of a portfolio found, with the objective it is of.
    pub(crate) shared: Option<(
        std::sync::Arc<super::shared_bound::SharedBound>,
        super::Objective,
    )>,
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
        let mut store = Store::new(domains, log_prunes, model.network.len());
        store.track_changes = inference.propagates();
        Core {
            model,
            store,
            inference,
            order: model.vars().collect(),
            position: (0..n as u32).collect(),
            assigned_count: 0,
            queue: Queue::new(model.network.len()),
            objective: None,
            shared: None,
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
        self.queue.reset();
        self.objective = None;
        self.shared = None;
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

    /// The node limit once `nodes` reach it, or whatever the poller read (every millisecond
    /// or so of nodes; the poller's interval adapts to what a node costs, from 100 ns on
    /// queens to 10 ms on a 200,000-vertex colouring).
    #[inline]
    pub(crate) fn limit_hit(&mut self, nodes: u64) -> Option<Limit> {
        if self.poller.nodes_reached(nodes) {
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
        objective: Option<super::Objective>,
    ) {
        for (slot, var) in solution.iter_mut().zip(self.model.vars()) {
            *slot = self.store.domains.value(var).unwrap_or_default();
        }
        if let (Some(super::Objective { var, sense }), Some(bound)) =
            (objective, &mut self.objective)
        {
            let value = i64::from(solution[var.index()]);
            match sense {
                super::Sense::Minimize => bound.high = value - 1,
                super::Sense::Maximize => bound.low = value + 1,
            }
            if let Some((shared, objective)) = &self.shared {
                shared.offer(*objective, value, solution);
            }
        }
    }

    /// Tightens the objective's bound to beat the best solution another worker of a
    /// portfolio found; true if that made it tighter.
    #[inline]
    pub(crate) fn import_bound(&mut self) -> bool {
        let (Some((shared, objective)), Some(bound)) = (&self.shared, &mut self.objective) else {
            return false;
        };
        let Some(best) = shared.best(objective.sense) else {
            return false;
        };
        match objective.sense {
            super::Sense::Minimize if best - 1 < bound.high => bound.high = best - 1,
            super::Sense::Maximize if best + 1 > bound.low => bound.low = best + 1,
            _ => return false,
        }
        true
    }

    /// Sets a solve up on the root's domains: fixes the configured assumptions and `assumed`,
    /// and leaves the objective unbounded. False when the fixings cannot all hold; true when
    /// a limit already stopped the setting up, which the search then reports.
    pub(crate) fn begin(&mut self, config: &super::SolveConfig, assumed: &[(VarId, i32)]) -> bool {
        let hold = self.interrupted.is_some()
            || (self.fix_at_root(&config.assumed) && self.fix_at_root(assumed));
        self.objective = config.objective.map(|super::Objective { var, .. }| Bound {
            var,
            low: i64::MIN,
            high: i64::MAX,
        });
        self.shared = config.shared.clone().zip(config.objective);
        self.poller.take_turns(config.turn.clone());
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
        stats.propagations = self.queue.propagations;
        stats.wipeouts = self.queue.wipeouts;
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
        self.model.network.constraints[c.index()]
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

    /// Runs the chosen inference after the search assigned `var`.
    pub(crate) fn infer<O: Observer>(
        &mut self,
        var: VarId,
        observer: &mut O,
    ) -> Result<(), Conflict> {
        let network = &self.model.network;
        match self.inference {
            Inference::None => {
                for &c in network.constraints_on(var) {
                    self.queue
                        .run(network, &mut self.store, c, Hook::Check(var), observer)?;
                }
                Ok(())
            }
            Inference::ForwardChecking => {
                for &c in network.constraints_on(var) {
                    self.queue.run(
                        network,
                        &mut self.store,
                        c,
                        Hook::ForwardCheck(var),
                        observer,
                    )?;
                }
                Ok(())
            }
            Inference::Mac | Inference::Lcg => {
                // `assign` noted the change, if it made one; the objective's bound may have
                // made others.
                self.queue.enqueue_changed(network, &mut self.store, None);
                self.fixpoint_with(observer, |_| Ok(()))
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
            report_prunes(&mut self.store, ConstraintId::OBJECTIVE, observer);
        }
        self.queue.count(&result);
        result
    }

    /// Forward checks every constraint on `var` without telling anyone: the look-ahead of the
    /// least-constraining-value order. The caller restores the domains.
    pub(crate) fn forward_check_quietly(&mut self, var: VarId) -> Result<(), Conflict> {
        let network = &self.model.network;
        let log = std::mem::replace(&mut self.store.log_prunes, false);
        let mut result = Ok(());
        for &c in network.constraints_on(var) {
            let mut ctx = Context {
                store: &mut self.store,
                current: c,
            };
            result = network.constraints[c.index()].forward_check(var, &mut ctx);
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
        self.propagate_all_with(observer, |_| Ok(()))
    }

    /// After the root's fixpoint under mac: retires the constraints that hold whatever the
    /// search does (see [`Queue::retire_entailed`]).
    pub(crate) fn retire_entailed(&mut self) {
        self.queue.retire_entailed(&self.model.network, &self.store);
    }

    /// Runs the woken constraints to a fixpoint, `between` before each (see
    /// [`Queue::fixpoint_with`]); a limit that cut it short is left in `interrupted`.
    pub(crate) fn fixpoint_with<O: Observer>(
        &mut self,
        observer: &mut O,
        between: impl FnMut(&mut Store) -> Result<(), Conflict>,
    ) -> Result<(), Conflict> {
        let result = self.queue.fixpoint_with(
            &self.model.network,
            &mut self.store,
            &mut self.poller,
            observer,
            between,
        );
        if let Some(limit) = self.queue.interrupted.take() {
            self.interrupted = Some(limit);
        }
        result
    }

    /// As [`Core::propagate_all`], with `between` as in [`Core::fixpoint_with`].
    pub(crate) fn propagate_all_with<O: Observer>(
        &mut self,
        observer: &mut O,
        between: impl FnMut(&mut Store) -> Result<(), Conflict>,
    ) -> Result<(), Conflict> {
        self.queue.queue_all(&self.model.network);
        self.fixpoint_with(observer, between)
    }
}
