//! `Task` and `Tasks`: the start, duration and usage variables a scheduling constraint reads,
//! and their bounds at one moment of the search.

use crate::{Atom, Context, VarId};

/// A task's bounds now: its start lies in `est..=lst`, it lasts at least `duration` and uses
/// at least `usage` of the resource (both clamped at 0: a negative duration or usage takes no
/// time and no resource).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Task {
    /// Earliest start.
    pub est: i64,
    /// Latest start.
    pub lst: i64,
    /// Least duration.
    pub duration: i64,
    /// Least usage.
    pub usage: i64,
}

impl Task {
    /// Earliest completion.
    pub fn ect(&self) -> i64 {
        self.est + self.duration
    }

    /// Whether it surely runs over `a..b` whatever its start: its compulsory part
    /// `lst..ect` covers the interval.
    pub fn covers(&self, a: i64, b: i64) -> bool {
        self.lst <= a && self.ect() >= b
    }
}

/// Where `n` tasks' variables lie in a scope: the starts first; then, for a cumulative
/// resource, the durations and the usages; on a disjunctive one the durations are constants
/// and each task uses the whole resource.
#[derive(Clone, Debug)]
pub(crate) struct Tasks {
    pub n: usize,
    /// The constant durations of a disjunctive resource; empty for a cumulative one, whose
    /// durations and usages are variables of the scope.
    pub fixed: Vec<i64>,
}

impl Tasks {
    pub fn start(&self, scope: &[VarId], i: usize) -> VarId {
        scope[i]
    }

    /// Task `i`'s duration variable, `None` when durations are constants.
    pub fn duration(&self, scope: &[VarId], i: usize) -> Option<VarId> {
        self.fixed.is_empty().then(|| scope[self.n + i])
    }

    /// Task `i`'s usage variable, `None` on a disjunctive resource.
    pub fn usage(&self, scope: &[VarId], i: usize) -> Option<VarId> {
        self.fixed.is_empty().then(|| scope[2 * self.n + i])
    }

    /// The bounds of every task now, into `out` (cleared first); `None` if a domain is empty.
    pub fn read(&self, scope: &[VarId], ctx: &Context<'_>, out: &mut Vec<Task>) -> Option<()> {
        out.clear();
        for i in 0..self.n {
            let start = self.start(scope, i);
            let (duration, usage) = match (self.duration(scope, i), self.usage(scope, i)) {
                (Some(d), Some(r)) => (i64::from(ctx.min(d)?), i64::from(ctx.min(r)?).max(0)),
                _ => (self.fixed[i], 1),
            };
            out.push(Task {
                est: i64::from(ctx.min(start)?),
                lst: i64::from(ctx.max(start)?),
                duration: duration.max(0),
                usage,
            });
        }
        Some(())
    }

    /// Why task `i` lasts at least `task.duration` and uses at least `task.usage`: the atoms
    /// on its duration and usage (the start's are the caller's to say).
    pub fn size_reason(&self, scope: &[VarId], i: usize, task: &Task, reason: &mut Vec<Atom>) {
        if let Some(d) = self.duration(scope, i).filter(|_| task.duration > 0) {
            reason.push(Atom::Ge(d, task.duration as i32));
        }
        if let Some(r) = self.usage(scope, i) {
            if task.usage > 0 {
                reason.push(Atom::Ge(r, task.usage as i32));
            }
        }
    }

    /// Why task `i`, with those sizes, surely runs over `a..b`: it starts in `b - duration..=a`.
    pub fn covering_reason(
        &self,
        scope: &[VarId],
        i: usize,
        task: &Task,
        a: i64,
        b: i64,
        reason: &mut Vec<Atom>,
    ) {
        let start = self.start(scope, i);
        reason.push(Atom::Le(start, clamped(a)));
        reason.push(Atom::Ge(start, clamped(b - task.duration)));
        self.size_reason(scope, i, task, reason);
    }
}

/// `t` within `i32`: an atom `x <= t` or `x >= t` on a time beyond the type says the same as
/// one on its end, for a variable that cannot leave it.
pub(crate) fn clamped(t: i64) -> i32 {
    t.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}
