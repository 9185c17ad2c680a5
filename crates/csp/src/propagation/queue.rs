//! `Queue`: the woken constraints, one queue per priority (cheapest first), and the fixpoint
//! that runs them until no change wakes any.

use crate::propagation::atom_trail::Cause;
use crate::propagation::context::{Conflict, ConflictKind, Context, Store};
use crate::propagation::network::{Links, Network, WakeCode};
use crate::{Atom, ConstraintId, Limit, Poller, Priority, VarId, Wake};
use std::collections::VecDeque;

/// Who hears of each removal propagation makes, and of its reason when one was given: the
/// search's observer, through the blanket implementation beside `Observer`.
pub(crate) trait PruneSink {
    /// Constraint `c` removed `value` from `var`.
    fn pruned(&mut self, var: VarId, value: i32, c: ConstraintId);
    /// Why: `reason`, atoms whose conjunction, with `c`, rules `value` out.
    fn pruned_because(&mut self, var: VarId, value: i32, c: ConstraintId, reason: &[Atom]);
}

/// Which hook of a constraint to run.
#[derive(Copy, Clone)]
pub(crate) enum Hook<'a> {
    /// Check the constraint once `var` is assigned (plain backtracking).
    Check(VarId),
    /// Remove the values of the unassigned variables that `var`'s value rules out.
    ForwardCheck(VarId),
    /// Filter, these variables having changed.
    Propagate(&'a [VarId]),
}

/// The propagation queue of one search, and its counters.
#[derive(Debug)]
pub(crate) struct Queue {
    /// The woken constraints, one queue per priority, cheapest first.
    queues: [VecDeque<ConstraintId>; Priority::COUNT],
    in_queue: Vec<bool>,
    /// Constraints that every assignment of the root's domains satisfies: no change wakes
    /// them again in this solve (see [`Queue::retire_entailed`]).
    retired: Vec<bool>,
    /// For each queued constraint, the scope variables that changed since it last ran.
    pending: Vec<Vec<VarId>>,
    /// Filtering runs (checks of plain backtracking not counted).
    pub(crate) propagations: u64,
    /// Runs that emptied a domain.
    pub(crate) wipeouts: u64,
    /// The limit that cut the last fixpoint short: its `Err` is not a real conflict.
    pub(crate) interrupted: Option<Limit>,
}

impl Queue {
    /// An empty queue for `constraints` constraints.
    pub(crate) fn new(constraints: usize) -> Self {
        Queue {
            queues: Default::default(),
            in_queue: vec![false; constraints],
            retired: vec![false; constraints],
            pending: vec![Vec::new(); constraints],
            propagations: 0,
            wipeouts: 0,
            interrupted: None,
        }
    }

    /// Empty again, nothing retired, the counters at zero; its memory kept.
    pub(crate) fn reset(&mut self) {
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
        self.interrupted = None;
    }

    /// Runs one hook of constraint `c` on `store`, counting it and reporting its removals.
    // Forced inline: under plain backtracking it runs once per constraint per assignment.
    #[inline(always)]
    pub(crate) fn run(
        &mut self,
        network: &Network,
        store: &mut Store,
        c: ConstraintId,
        hook: Hook<'_>,
        sink: &mut impl PruneSink,
    ) -> Result<(), Conflict> {
        let constraint = network.constraints[c.index()].as_ref();
        if let Some(trail) = store.atoms.as_deref_mut() {
            trail.cause = Cause::Propagator(c);
            trail.violation = None;
        }
        let mut ctx = Context { store, current: c };
        let result = match hook {
            Hook::Check(var) => constraint.check_assigned(var, &mut ctx),
            Hook::ForwardCheck(var) => constraint.forward_check(var, &mut ctx),
            Hook::Propagate(changed) => constraint.propagate_changed(changed, &mut ctx),
        };
        if !matches!(hook, Hook::Check(_)) {
            self.propagations += 1;
        }
        if store.log_prunes {
            report_prunes(store, c, sink);
        }
        self.count(&result);
        result
    }

    /// Counts a wipe-out.
    #[inline(always)]
    pub(crate) fn count(&mut self, result: &Result<(), Conflict>) {
        if let Err(Conflict {
            kind: ConflictKind::WipeOut(_),
            ..
        }) = result
        {
            self.wipeouts += 1;
        }
    }

    /// Queues every constraint, each with its whole scope as changed.
    pub(crate) fn queue_all(&mut self, network: &Network) {
        for (i, constraint) in network.constraints.iter().enumerate() {
            self.in_queue[i] = true;
            if network.meta[i].wants_changes {
                self.pending[i].extend_from_slice(constraint.scope());
            }
            self.queues[network.meta[i].priority as usize].push_back(ConstraintId(i as u32));
        }
    }

    /// After the root's fixpoint under mac: retires each constraint that every assignment of
    /// the domains satisfies (at most one variable left open, and each of its values
    /// satisfies it), so that no change wakes it again in this solve, as Gecode disposes of
    /// a subsumed propagator. Below the root the domains only shrink, so it stays satisfied.
    /// A unary constraint such as FlatZinc's `x mod 97 = 0` is then filtered once, not at
    /// every change of `x`. The test is brute force, within a budget of value checks.
    pub(crate) fn retire_entailed(&mut self, network: &Network, store: &Store) {
        const BUDGET: u64 = 1 << 22;
        let mut spent = 0u64;
        let mut values: Vec<i32> = Vec::new();
        let domains = &store.domains;
        for (i, constraint) in network.constraints.iter().enumerate() {
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

    /// Queues the constraints that each changed variable's change wakes, except `skip` (the
    /// constraint that made the change, when it is idempotent).
    pub(crate) fn enqueue_changed(
        &mut self,
        network: &Network,
        store: &mut Store,
        skip: Option<ConstraintId>,
    ) {
        let mut changed = std::mem::take(&mut store.changed);
        for &var in &changed {
            store.is_changed[var.index()] = false;
            let event = event(network, store, var);
            let wakes = network.wakes_on(var);
            for (&c, &wake) in network.constraints_on(var).iter().zip(wakes) {
                if Some(c) == skip || wake > event as WakeCode {
                    continue;
                }
                if network.meta[c.index()].wants_changes && !self.retired[c.index()] {
                    self.pending[c.index()].push(var);
                }
                if !self.in_queue[c.index()] && !self.retired[c.index()] {
                    self.in_queue[c.index()] = true;
                    let priority = network.meta[c.index()].priority_on[event as usize];
                    self.queues[priority as usize].push_back(c);
                }
            }
            if let Some(links) = network.links(var) {
                self.enqueue_settled(network, store, var, links, skip);
            }
        }
        changed.clear();
        store.changed = changed;
    }

    /// Queues the reified comparisons of `var` with constants that its change settled: the
    /// thresholds `t` of `x <= t` now below its smallest value or at or above its largest,
    /// and the values of `x = v` that went or that it is fixed to. The changed values lie
    /// within `removed_span`, so the thresholds searched are those within it: a comparison
    /// settled before was woken then. One whose 0/1 variable is fixed is left alone: it was
    /// woken by that, and once run with it fixed it holds whatever `x` does next.
    #[inline(never)]
    fn enqueue_settled(
        &mut self,
        network: &Network,
        store: &Store,
        var: VarId,
        links: &Links,
        skip: Option<ConstraintId>,
    ) {
        let domains = &store.domains;
        let (Some(min), Some(max)) = (domains.min(var), domains.max(var)) else {
            return;
        };
        let (low, high) = store.removed_span[var.index()];
        let (min, max, low, high) = (
            i64::from(min),
            i64::from(max),
            i64::from(low),
            i64::from(high),
        );
        let settled_below = Links::within(&links.at_most, low, min - 1);
        let settled_above = Links::within(&links.at_most, max, high - 1);
        let gone = Links::within(&links.at, low, high)
            .iter()
            .filter(|l| i32::try_from(l.value).map_or(true, |v| !domains.contains(var, v)));
        let fixed_at = if min == max {
            Links::within(&links.at, min, min)
        } else {
            &[]
        };
        let settled = settled_below.iter().chain(settled_above);
        for link in settled.chain(gone).chain(fixed_at) {
            let c = link.constraint;
            if Some(c) == skip
                || self.in_queue[c.index()]
                || self.retired[c.index()]
                || domains.size(link.b) <= 1
            {
                continue;
            }
            self.in_queue[c.index()] = true;
            let priority = network.meta[c.index()].priority;
            self.queues[priority as usize].push_back(c);
        }
    }

    /// The next woken constraint, from the cheapest queue that has one, with that queue.
    fn next_woken(&mut self) -> Option<(ConstraintId, Priority)> {
        self.queues
            .iter_mut()
            .zip(Priority::ALL)
            .find_map(|(queue, priority)| Some((queue.pop_front()?, priority)))
    }

    /// Runs the woken constraints to a fixpoint, every constraint on `c`'s queue before the
    /// cheaper ones: `between` runs before each constraint and at the end, with the changes it
    /// makes propagated in turn. Learning propagates its nogoods there, ahead of every
    /// constraint, as Chuffed does its clauses. Each run ticks `poller`; a limit it finds due
    /// unwinds the fixpoint as a conflict and is left in [`Queue::interrupted`].
    pub(crate) fn fixpoint_with(
        &mut self,
        network: &Network,
        store: &mut Store,
        poller: &mut Poller,
        sink: &mut impl PruneSink,
        mut between: impl FnMut(&mut Store) -> Result<(), Conflict>,
    ) -> Result<(), Conflict> {
        loop {
            let nogoods = between(store);
            if store.log_prunes && !store.prune_log.is_empty() {
                report_prunes(store, ConstraintId::NOGOOD, sink);
            }
            if let Err(conflict) = nogoods {
                self.drop_queues(store);
                return Err(conflict);
            }
            if !store.changed.is_empty() {
                self.enqueue_changed(network, store, None);
            }
            let Some((c, queue)) = self.next_woken() else {
                return Ok(());
            };
            self.in_queue[c.index()] = false;
            store.queue = queue;
            // Lend the list out and take it back, so its capacity is reused.
            let mut changed = std::mem::take(&mut self.pending[c.index()]);
            // One all_different filter on a 625x625 sudoku takes milliseconds, so the root's
            // filtering stops soon after a limit is due.
            let due = if poller.tick() {
                None
            } else {
                poller.stopped()
            };
            let result = match due {
                Some(limit) => {
                    // Unwound like a conflict; the node loop sees `interrupted` and stops.
                    self.interrupted = Some(limit);
                    Err(Conflict {
                        constraint: c,
                        kind: ConflictKind::Violated,
                    })
                }
                None if network.meta[c.index()].wants_changes => {
                    self.run(network, store, c, Hook::Propagate(&changed), sink)
                }
                None => {
                    let scope = network.constraints[c.index()].scope();
                    self.run(network, store, c, Hook::Propagate(scope), sink)
                }
            };
            changed.clear();
            self.pending[c.index()] = changed;
            store.queue = Priority::Global;
            let deferred = store.deferred.take();
            if let Err(conflict) = result {
                self.drop_queues(store);
                return Err(conflict);
            }
            let idempotent = network.meta[c.index()].idempotent;
            self.enqueue_changed(network, store, idempotent.then_some(c));
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
    fn drop_queues(&mut self, store: &mut Store) {
        for queue in &mut self.queues {
            for c in queue.drain(..) {
                self.in_queue[c.index()] = false;
                self.pending[c.index()].clear();
            }
        }
        store.clear_changed();
    }
}

/// What happened to a changed variable: fixed, its bounds moved (looked at only when some
/// constraint wakes on bounds), or only some value went.
fn event(network: &Network, store: &Store, var: VarId) -> Wake {
    let domains = &store.domains;
    if domains.size(var) <= 1 {
        return Wake::Fixed;
    }
    if !network.bounds_watched[var.index()] {
        return Wake::Domain;
    }
    let (low, high) = store.removed_span[var.index()];
    let moved = domains.min(var).is_some_and(|min| low < min)
        || domains.max(var).is_some_and(|max| high > max);
    if moved {
        Wake::Bounds
    } else {
        Wake::Domain
    }
}

/// Hands the logged removals of constraint `c` and their reasons to `sink`.
pub(crate) fn report_prunes(store: &mut Store, c: ConstraintId, sink: &mut impl PruneSink) {
    for &(var, value, start, end) in &store.prune_log {
        sink.pruned(var, value, c);
        if start < end {
            sink.pruned_because(var, value, c, &store.reasons[start as usize..end as usize]);
        }
    }
    store.prune_log.clear();
    store.reasons.clear();
}
