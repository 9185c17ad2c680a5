//! Energetic reasoning for cumulative resources (Baptiste, Le Pape and Nuijten, 1999): the
//! overload test and the time-bound adjustments over intervals between task bounds.

use super::task::{Task, Tasks};
use crate::{Conflict, Context, VarId};

/// Above this many tasks that take time and resource, the O(n^3) reasoning is skipped and
/// time-tabling alone filters.
pub(crate) const MOST_TASKS: usize = 40;

/// The overlap of `s..s + duration` with `a..b`.
fn overlap(s: i64, duration: i64, a: i64, b: i64) -> i64 {
    ((s + duration).min(b) - s.max(a)).max(0)
}

/// The energy task `t` surely spends in `a..b` wherever it starts: its usage times the least
/// overlap of its run with the interval, which, the overlap rising then falling as the start
/// moves, is at its earliest or its latest start.
fn minimal_intersection(t: &Task, a: i64, b: i64) -> i64 {
    let least = overlap(t.est, t.duration, a, b).min(overlap(t.lst, t.duration, a, b));
    t.usage.saturating_mul(least)
}

/// Buffers reused between runs.
#[derive(Default)]
pub(crate) struct Energetic {
    tasks: Vec<Task>,
    /// The intervals' left ends (earliest and latest starts) and right ends (earliest and
    /// latest completions), sorted without repeats.
    lefts: Vec<i64>,
    rights: Vec<i64>,
    /// Each task's minimal intersection with the interval at hand.
    least: Vec<i64>,
    /// Each task's new earliest and latest start, as found so far.
    est: Vec<i64>,
    lst: Vec<i64>,
}

impl Energetic {
    /// Over every interval `a..b` from a start bound to a completion bound: fails when the
    /// tasks' minimal intersections need more than the largest capacity times `b - a`, and
    /// moves a task's earliest start past the interval's end less
    /// what room is left (its latest start, mirrored) when, started as early as it may, it
    /// would not fit. Tasks, laid out by `layout` in `scope`, are read at their least
    /// duration and usage, which only lessens every energy; the capacity at its largest.
    pub(crate) fn run(
        &mut self,
        scope: &[VarId],
        layout: &Tasks,
        capacity: VarId,
        ctx: &mut Context<'_>,
    ) -> Result<(), Conflict> {
        let Some(cap) = ctx.max(capacity).map(i64::from) else {
            return Err(ctx.violated());
        };
        let mut tasks = std::mem::take(&mut self.tasks);
        let result = match layout.read(scope, ctx, &mut tasks) {
            Some(()) => self.filter(&tasks, scope, layout, cap, ctx),
            None => Err(ctx.violated()),
        };
        self.tasks = tasks;
        result
    }

    fn filter(
        &mut self,
        tasks: &[Task],
        scope: &[VarId],
        layout: &Tasks,
        cap: i64,
        ctx: &mut Context<'_>,
    ) -> Result<(), Conflict> {
        let active = tasks
            .iter()
            .filter(|t| t.duration > 0 && t.usage > 0)
            .count();
        if !(2..=MOST_TASKS).contains(&active) {
            return Ok(());
        }
        self.lefts.clear();
        self.rights.clear();
        for t in tasks.iter().filter(|t| t.duration > 0 && t.usage > 0) {
            self.lefts.extend([t.est, t.lst]);
            self.rights.extend([t.ect(), t.lst + t.duration]);
        }
        for v in [&mut self.lefts, &mut self.rights] {
            v.sort_unstable();
            v.dedup();
        }
        self.est.clear();
        self.est.extend(tasks.iter().map(|t| t.est));
        self.lst.clear();
        self.lst.extend(tasks.iter().map(|t| t.lst));
        let mut checks = 0u64;
        for &a in &self.lefts {
            for &b in self.rights.iter().filter(|&&b| b > a) {
                // Saturating: an energy past i64 is read as i64::MAX, which only weakens the
                // tests (a room that large is never exceeded).
                let room = cap.saturating_mul(b - a);
                self.least.clear();
                self.least
                    .extend(tasks.iter().map(|t| minimal_intersection(t, a, b)));
                let needed = self
                    .least
                    .iter()
                    .fold(0i64, |sum, &e| sum.saturating_add(e));
                checks += tasks.len() as u64;
                if needed > room {
                    // Even the largest capacity cannot hold what the interval needs.
                    ctx.count_checks(checks);
                    return Err(ctx.violated());
                }
                for (i, t) in tasks.iter().enumerate() {
                    if t.duration == 0 || t.usage == 0 {
                        continue;
                    }
                    let others = needed - self.least[i];
                    let left = room - others;
                    // How long the task may run inside a..b.
                    let fits = left / t.usage;
                    // Started as early as it may, it would overlap the interval by more than
                    // `fits`; so would every start up to `b - fits` (the overlap rises, then
                    // falls once the start passes `a`). The mirror for the latest start.
                    if t.usage.saturating_mul(overlap(t.est, t.duration, a, b)) > left {
                        self.est[i] = self.est[i].max(b - fits);
                    }
                    if t.usage.saturating_mul(overlap(t.lst, t.duration, a, b)) > left {
                        self.lst[i] = self.lst[i].min(a + fits - t.duration);
                    }
                }
            }
        }
        ctx.count_checks(checks);
        for (i, t) in tasks.iter().enumerate() {
            let start = layout.start(scope, i);
            if self.est[i] > t.est {
                ctx.at_least(start, self.est[i])?;
            }
            if self.lst[i] < t.lst {
                ctx.at_most(start, self.lst[i])?;
            }
        }
        Ok(())
    }
}
