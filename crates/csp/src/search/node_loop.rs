//! `Search`: the depth-first node loop, resumable after each solution, on an explicit stack.

use super::core::Core;
use super::luby::Luby;
use super::value_order::{ChooseValue, Cursor, TwoWay, MOST_VALUES_RANKED};
use super::var_order::SelectVar;
use super::{Outcome, SolveConfig, Statistics, Summary};
use crate::propagation::context::{Conflict, ConflictKind};
use crate::propagation::domains::TrailMark;
use crate::Limit;
use crate::{Atom, Inference, Model, Observer, VarId};
use std::time::Instant;

/// One open node: the variable branched on, where its domains were when it opened, and its
/// place in its list of values, or, for a two-way node, in its two branches.
struct Frame {
    var: VarId,
    mark: TrailMark,
    trying: Option<i32>,
    cursor: Cursor,
    split: Option<Split>,
}

/// A two-way node: the decision tried first, and how many of it and its negation have been
/// tried.
#[derive(Copy, Clone)]
struct Split {
    first: Atom,
    tried: u8,
}

impl Split {
    /// The `k`-th branch tried: 0 the decision, 1 its negation.
    fn half(&self, k: u8) -> Atom {
        match (k, self.first) {
            (0, atom) => atom,
            (_, Atom::Eq(x, v)) => Atom::Ne(x, v),
            (_, Atom::Ne(x, v)) => Atom::Eq(x, v),
            // The cut lies inside the domain (below its maximum), so `v + 1` is a value.
            (_, Atom::Le(x, v)) => Atom::Ge(x, v + 1),
            (_, Atom::Ge(x, v)) => Atom::Le(x, v - 1),
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Step {
    /// Nothing done yet.
    Start,
    /// The last assignment survived inference: branch deeper (or report a solution).
    Descend,
    /// Take back the current value of the top node and try its next one.
    NextValue,
    Done,
}

/// A solve in progress, monomorphised per variable order, value order and observer.
pub(crate) struct Search<'m, V, W, O> {
    core: Core<'m>,
    var_order: V,
    value_order: W,
    observer: O,
    frames: Vec<Frame>,
    step: Step,
    stats: Statistics,
    outcome: Outcome,
    solution: Vec<i32>,
    config: SolveConfig,
    started: Instant,
    /// Nodes that survived inference at the shard depth so far.
    shard_ordinal: u64,
    /// The restart schedule, and the failures in the current run.
    luby: Option<Luby>,
    failures_this_run: u64,
    /// Whether every assumed value was in its variable's domain.
    assumptions_hold: bool,
    /// The heuristics as they were before the first solve, kept by a session to start each
    /// solve from.
    fresh: Option<(V, W)>,
}

/// A solve whose heuristics were chosen at run time; one dynamic call per solution.
pub(crate) trait Run {
    fn next_solution(&mut self) -> Option<&[i32]>;
    /// Ends the solve early at the caller's request.
    fn stop(&mut self);
    fn summary(&self) -> Summary;
    /// Keeps copies of the heuristics as they are now, before any search, for `reset`.
    fn keep_fresh(&mut self);
    /// Back to the start of a new solve, the memory kept, with `assumed` fixed at the root on
    /// top of the configured assumptions.
    fn reset(&mut self, assumed: &[(VarId, i32)]);
}

impl<'m, V: SelectVar, W: ChooseValue, O: Observer> Search<'m, V, W, O> {
    pub(crate) fn new(
        model: &'m Model,
        config: SolveConfig,
        var_order: V,
        value_order: W,
        observer: O,
    ) -> Self {
        let started = Instant::now();
        let mut core = Core::new(
            model,
            config.inference,
            observer.wants_prunes(),
            &config.limits,
        );
        core.store.track_touched = var_order.wants_touched();
        // Domains cut short by a limit are empty; the search stops at once then anyway.
        let assumptions_hold = core.begin(&config, &[]);
        Search {
            core,
            var_order,
            value_order,
            observer,
            frames: Vec::with_capacity(model.var_count()),
            step: Step::Start,
            stats: Statistics::default(),
            outcome: Outcome::Solved,
            solution: vec![0; model.var_count()],
            started,
            shard_ordinal: 0,
            luby: config.restart_scale().map(Luby::new),
            failures_this_run: 0,
            assumptions_hold,
            config,
            fresh: None,
        }
    }

    fn finish(&mut self, outcome: Outcome) {
        self.outcome = outcome;
        self.step = Step::Done;
        self.stats.elapsed = self.started.elapsed();
    }

    /// The node limit, or whatever the poller read (every millisecond or so of nodes; the
    /// poller's interval adapts to what a node costs, from 100 ns on queens to 10 ms on a
    /// 200,000-vertex colouring).
    #[inline]
    fn limit_hit(&mut self) -> Option<Limit> {
        // A portfolio's better bound, which the next node's branch and bound prunes with.
        self.core.import_bound();
        self.core.limit_hit(self.stats.nodes)
    }

    /// Advances to the next solution. The returned values are valid until the next call.
    fn advance(&mut self) -> bool {
        loop {
            match self.step {
                Step::Done => return false,
                Step::Start => {
                    self.step = Step::Descend;
                    if let Some(limit) = self.core.interrupted {
                        // Setting up the domains was stopped: there is nothing to search.
                        self.finish(Outcome::LimitReached(limit));
                    } else if !self.assumptions_hold {
                        self.finish(Outcome::Exhausted);
                    } else if self.core.inference == Inference::Mac
                        && self.core.propagate_all(&mut self.observer).is_err()
                    {
                        let outcome = match self.core.interrupted {
                            Some(limit) => Outcome::LimitReached(limit),
                            None => Outcome::Exhausted,
                        };
                        self.finish(outcome);
                    } else if self.core.inference == Inference::Mac {
                        self.core.retire_entailed();
                    }
                }
                Step::Descend => {
                    if self.core.unassigned().is_empty() {
                        self.step = Step::NextValue;
                        if !self.record_solution() {
                            continue;
                        }
                        if self
                            .config
                            .max_solutions
                            .is_some_and(|k| self.stats.solutions >= k)
                        {
                            self.finish(Outcome::Solved);
                        }
                        return true;
                    }
                    let var = self.var_order.select(&mut self.core);
                    let mark = self.core.store.domains.mark();
                    let mut cursor = Cursor::default();
                    let split = self.split_of(var);
                    if split.is_none() {
                        self.value_order.start(var, &mut self.core, &mut cursor);
                    }
                    self.frames.push(Frame {
                        var,
                        mark,
                        trying: None,
                        cursor,
                        split,
                    });
                    self.step = Step::NextValue;
                }
                Step::NextValue => self.next_value(),
            }
        }
    }

    /// Takes back the top node's current value and tries its next one, or closes the node.
    fn next_value(&mut self) {
        if let Some(limit) = self.limit_hit() {
            self.finish(Outcome::LimitReached(limit));
            return;
        }
        let depth = self.frames.len();
        let Some(frame) = self.frames.last_mut() else {
            self.finish(Outcome::Exhausted);
            return;
        };
        let var = frame.var;
        if frame.split.is_some() {
            self.next_half();
            return;
        }
        if let Some(value) = frame.trying.take() {
            self.core.unassign(var);
            self.core.store.domains.restore(frame.mark);
            self.var_order.on_unassign(var, &self.core);
            self.observer.on_backtrack(var, value, depth);
        }
        let Some(value) = self.value_order.next(var, &self.core, &mut frame.cursor) else {
            self.value_order.finish(&frame.cursor);
            self.frames.pop();
            return;
        };
        frame.trying = Some(value);
        self.stats.nodes += 1;
        self.core.assign(var, value);
        self.stats.max_depth = self.stats.max_depth.max(depth as u64);
        self.observer.on_assign(var, value, depth);
        let inferred = self
            .core
            .enforce_bound(&mut self.observer)
            .and_then(|()| self.core.infer(var, &mut self.observer));
        self.settle(inferred, var, value, depth);
    }

    /// Whether the node on `var` branches two ways: under mac, when its value order says so
    /// and it has more than two values (two are tried as well one by one, with the same
    /// leaves in the same order).
    fn split_of(&self, var: VarId) -> Option<Split> {
        if self.core.inference != Inference::Mac {
            return None;
        }
        let how = self.value_order.two_way(var)?;
        let domains = &self.core.store.domains;
        if domains.size_u64(var) <= 2 {
            return None;
        }
        let (min, max) = (domains.min(var)?, domains.max(var)?);
        let first = match how {
            TwoWay::Bisect { upper_first } => {
                // The mean rounded down, which lies in min..max, so both halves keep values.
                let mid = (i64::from(min) + i64::from(max)).div_euclid(2) as i32;
                if upper_first {
                    Atom::Ge(var, mid + 1)
                } else {
                    Atom::Le(var, mid)
                }
            }
            TwoWay::Min => Atom::Eq(var, min),
            TwoWay::Max => Atom::Eq(var, max),
            // A domain too wide to list is walked from its smallest value, as when its
            // values are tried one by one.
            TwoWay::Median if domains.size_u64(var) > MOST_VALUES_RANKED => Atom::Eq(var, min),
            TwoWay::Median => {
                let lower_median = (domains.size_u64(var) - 1) / 2;
                Atom::Eq(var, domains.iter(var).nth(lower_median as usize)?)
            }
        };
        Some(Split { first, tried: 0 })
    }

    /// The top node branches two ways: takes back its current branch and tries the other, or
    /// closes it.
    fn next_half(&mut self) {
        let depth = self.frames.len();
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let var = frame.var;
        let Some(mut split) = frame.split else {
            return;
        };
        if split.tried > 0 {
            self.core.store.domains.restore(frame.mark);
            self.observer.on_unsplit(split.half(split.tried - 1), depth);
        }
        if split.tried == 2 {
            self.frames.pop();
            return;
        }
        let atom = split.half(split.tried);
        split.tried += 1;
        frame.split = Some(split);
        self.stats.nodes += 1;
        self.core.impose(atom);
        self.stats.max_depth = self.stats.max_depth.max(depth as u64);
        self.observer.on_split(atom, depth);
        let inferred = self
            .core
            .enforce_bound(&mut self.observer)
            .and_then(|()| self.core.infer(var, &mut self.observer));
        let value = match atom {
            Atom::Eq(_, v) | Atom::Ne(_, v) | Atom::Le(_, v) | Atom::Ge(_, v) => v,
        };
        self.settle(inferred, var, value, depth);
    }

    /// After a decision on `var` (the value it was given, or where it was split) at `depth`:
    /// descend if inference left the node alive, else count the failure and restart when the
    /// run's budget is spent.
    fn settle(&mut self, inferred: Result<(), Conflict>, var: VarId, value: i32, depth: usize) {
        match inferred {
            Ok(()) if !self.in_my_shard(depth) => {}
            Ok(()) => self.step = Step::Descend,
            Err(_) if self.core.interrupted.is_some() => {
                if let Some(limit) = self.core.interrupted {
                    self.finish(Outcome::LimitReached(limit));
                }
            }
            Err(conflict) => {
                self.stats.backtracks += 1;
                self.var_order.on_conflict(conflict.constraint, &self.core);
                match conflict.kind {
                    ConflictKind::WipeOut(emptied) => {
                        self.observer.on_wipeout(emptied, conflict.constraint)
                    }
                    ConflictKind::Violated => {
                        self.observer.on_violation(var, value, conflict.constraint)
                    }
                }
                self.failures_this_run += 1;
                if self
                    .luby
                    .as_ref()
                    .is_some_and(|luby| self.failures_this_run >= luby.budget())
                {
                    self.restart();
                }
            }
        }
    }

    /// Drops every open node, top first, and starts again from the root with the next run's
    /// budget. The trail takes the domains back to the root's; the value order's arena and the
    /// variable order's weights carry over. Observers see each dropped assignment taken back,
    /// as in an ordinary backtrack, so that their picture of the board stays right.
    fn restart(&mut self) {
        while let Some(frame) = self.frames.pop() {
            if let Some(split) = frame.split {
                if split.tried > 0 {
                    let atom = split.half(split.tried - 1);
                    self.observer.on_unsplit(atom, self.frames.len() + 1);
                }
                self.core.store.domains.restore(frame.mark);
                continue;
            }
            if let Some(value) = frame.trying {
                self.core.unassign(frame.var);
                self.observer
                    .on_backtrack(frame.var, value, self.frames.len() + 1);
            }
            self.core.store.domains.restore(frame.mark);
            if frame.trying.is_some() {
                self.var_order.on_unassign(frame.var, &self.core);
            }
            self.value_order.finish(&frame.cursor);
        }
        if let Some(luby) = &mut self.luby {
            luby.advance();
        }
        self.failures_this_run = 0;
        self.stats.restarts += 1;
        self.observer.on_restart(self.stats.restarts);
        self.step = Step::Descend;
    }

    /// Whether the subtree below a surviving node at `depth` is this shard's to explore.
    fn in_my_shard(&mut self, depth: usize) -> bool {
        let Some((index, parts)) = self.config.shard else {
            return true;
        };
        if depth != super::SHARD_DEPTH {
            return true;
        }
        let ordinal = self.shard_ordinal;
        self.shard_ordinal += 1;
        ordinal % parts == index
    }

    /// Records the solution at hand; false when it belongs to another shard.
    fn record_solution(&mut self) -> bool {
        if let Some((index, _)) = self.config.shard {
            // A solution above the cut is seen by every part; only part 0 keeps it.
            if self.frames.len() < super::SHARD_DEPTH && index != 0 {
                return false;
            }
        }
        self.core
            .take_solution(&mut self.solution, self.config.objective);
        self.stats.solutions += 1;
        self.observer.on_solution(&self.solution);
        true
    }
}

impl<V: SelectVar, W: ChooseValue, O: Observer> Run for Search<'_, V, W, O> {
    fn next_solution(&mut self) -> Option<&[i32]> {
        if self.advance() {
            Some(&self.solution)
        } else {
            None
        }
    }

    fn stop(&mut self) {
        if self.step != Step::Done {
            self.finish(Outcome::Solved);
        }
    }

    fn keep_fresh(&mut self) {
        self.fresh = Some((self.var_order.clone(), self.value_order.clone()));
        self.core.store.domains.keep_declared();
    }

    fn reset(&mut self, assumed: &[(VarId, i32)]) {
        self.started = Instant::now();
        self.core.reset(&self.config.limits);
        if let Some((var_order, value_order)) = &self.fresh {
            self.var_order = var_order.clone();
            self.value_order = value_order.clone();
        }
        self.core.store.track_touched = self.var_order.wants_touched();
        self.assumptions_hold = self.core.begin(&self.config, assumed);
        self.frames.clear();
        self.step = Step::Start;
        self.stats = Statistics::default();
        self.outcome = Outcome::Solved;
        self.shard_ordinal = 0;
        self.luby = self.config.restart_scale().map(Luby::new);
        self.failures_this_run = 0;
    }

    fn summary(&self) -> Summary {
        self.core.summary(
            &self.stats,
            self.outcome,
            self.started,
            self.step != Step::Done,
        )
    }
}
