//! `Cumulative`: tasks on a renewable resource never use more than its capacity at once,
//! filtered by time-tabling on the profile of compulsory parts, then energetic reasoning.

use super::energetic::Energetic;
use super::listed::listed;
use super::task::{clamped, Task, Tasks};
use crate::{Atom, Conflict, Constraint, Context, Priority, VarId, Wake};

/// Tasks `i` start at `s_i`, last `d_i` and use `r_i` of a resource of capacity `b`: at every
/// time, the tasks running (`s_i <= t < s_i + d_i`) use at most `b` together, and `b >= 0`
/// (MiniZinc's `cumulative`). A task with `d_i <= 0` or `r_i <= 0` takes nothing.
///
/// Consistency: time-tabling, as Gecode's and Chuffed's default. A task whose latest start
/// comes before its earliest end surely runs over that stretch (its compulsory part); the sum
/// of those parts is the profile. `b` is at least the profile's peak (a conflict when it
/// cannot be), and a task's start leaves every value at which the task, at its least usage
/// and duration, would lift some stretch of the profile above `max b`. Starts are filtered on
/// bounds, durations and usages are read at their minimum. Each change states its reason: the
/// tasks whose compulsory parts make the stretch, as few as suffice.
///
/// Then, up to 40 tasks, energetic reasoning (Baptiste, Le Pape and Nuijten), as Gecode's
/// and Choco's cumulative add edge-finding: over every interval from a start bound to a
/// completion bound, the energy the tasks surely spend there must fit under `max b`, and a
/// task that would overfill the interval if started as early (late) as it may starts later
/// (earlier). Overload checking is the first of these tests; edge-finding's own adjustment
/// is not built. Under learning (`lcg`) this pass is left out and time-tabling alone filters,
/// as in Chuffed: run at every node it cost more than it pruned. With the pass (its bounds
/// explained by the bounds of the tasks in the interval), XCSP3's RCPSP_WET-j30-27-5 took
/// 11.6 s to its proved optimum against 1.5 s without, and MiniZinc's evilshop and
/// carpet-cutting were no faster; without reasons (the whole scope blamed), evilshop was not
/// proved in 30 s. Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct Cumulative {
    /// Starts, durations, usages, then the capacity.
    vars: Vec<VarId>,
    tasks: Tasks,
}

/// One stretch of the profile: `height` is surely used over `start..end`.
#[derive(Copy, Clone, Debug)]
struct Segment {
    start: i64,
    end: i64,
    height: i64,
}

/// Time-tabling over the tasks of a scope, with its buffers reused between runs: the
/// filtering of [`Cumulative`], and a part of [`Disjunctive`](super::Disjunctive)'s.
#[derive(Default)]
pub(crate) struct TimeTable {
    pub tasks: Vec<Task>,
    events: Vec<(i64, i64)>,
    profile: Vec<Segment>,
}

impl Cumulative {
    /// Tasks with these starts, durations and usages on a resource of capacity `capacity`;
    /// `None` unless the three have one length.
    pub fn new(
        starts: &[VarId],
        durations: &[VarId],
        usages: &[VarId],
        capacity: VarId,
    ) -> Option<Self> {
        let n = starts.len();
        if durations.len() != n || usages.len() != n {
            return None;
        }
        let mut vars = Vec::with_capacity(3 * n + 1);
        vars.extend_from_slice(starts);
        vars.extend_from_slice(durations);
        vars.extend_from_slice(usages);
        vars.push(capacity);
        Some(Cumulative {
            vars,
            tasks: Tasks {
                n,
                fixed: Vec::new(),
            },
        })
    }

    fn capacity(&self) -> VarId {
        self.vars[3 * self.tasks.n]
    }
}

impl TimeTable {
    /// Filters the tasks laid out by `layout` in `scope` on a resource of capacity
    /// `capacity` (a variable, or 1 when `None`), reading their bounds into `self.tasks`
    /// first.
    pub fn run(
        &mut self,
        scope: &[VarId],
        layout: &Tasks,
        capacity: Option<VarId>,
        ctx: &mut Context<'_>,
    ) -> Result<(), Conflict> {
        let TimeTable {
            tasks,
            events,
            profile,
        } = self;
        let cap = match capacity {
            Some(capacity) => {
                ctx.at_least(capacity, 0)?;
                match ctx.max(capacity) {
                    Some(cap) => i64::from(cap),
                    None => return Ok(()),
                }
            }
            None => 1,
        };
        if layout.read(scope, ctx, tasks).is_none() {
            return Ok(());
        }
        build_profile(tasks, events, profile);
        ctx.count_checks((events.len() + tasks.len()) as u64);
        let explaining = ctx.explaining();
        let stretch = Stretch {
            scope,
            layout,
            tasks,
            capacity,
            cap,
        };
        if let Some(peak) = profile.iter().max_by_key(|s| s.height) {
            let mut reason = Vec::new();
            if explaining {
                stretch.reason(peak, None, i64::MAX, &mut reason);
            }
            match capacity {
                Some(capacity) => {
                    ctx.at_least_because(capacity, peak.height, &reason)?;
                }
                None if peak.height > cap => return Err(ctx.violated()),
                None => {}
            }
        }
        for (j, task) in tasks.iter().enumerate() {
            if task.duration == 0 || task.usage == 0 || task.est == task.lst {
                continue;
            }
            let start = layout.start(scope, j);
            // Earliest start: past every stretch it would overload, left to right.
            let mut est = task.est;
            for segment in profile.iter() {
                if segment.end <= est {
                    continue;
                }
                if segment.start >= est + task.duration {
                    break;
                }
                if !overloads(task, segment, cap) {
                    continue;
                }
                est = segment.end;
                if explaining {
                    let mut reason =
                        vec![Atom::Ge(start, clamped(segment.start + 1 - task.duration))];
                    stretch.overload_reason(j, segment, &mut reason);
                    ctx.at_least_because(start, est, &reason)?;
                }
                if est > task.lst {
                    break;
                }
            }
            if !explaining {
                ctx.at_least(start, est)?;
            }
            // Latest start: before every stretch it would overload, right to left.
            let mut lst = task.lst;
            for segment in profile.iter().rev() {
                if segment.start >= lst + task.duration {
                    continue;
                }
                if segment.end <= lst {
                    break;
                }
                if !overloads(task, segment, cap) {
                    continue;
                }
                lst = segment.start - task.duration;
                if explaining {
                    let mut reason = vec![Atom::Le(start, clamped(segment.end - 1))];
                    stretch.overload_reason(j, segment, &mut reason);
                    ctx.at_most_because(start, lst, &reason)?;
                }
                if lst < est {
                    break;
                }
            }
            if !explaining {
                ctx.at_most(start, lst)?;
            }
        }
        Ok(())
    }
}

/// Whether `task` running over any of `segment` would lift it above `cap` (its own
/// compulsory part, if it covers the stretch, counted once).
fn overloads(task: &Task, segment: &Segment, cap: i64) -> bool {
    let own = if task.covers(segment.start, segment.end) {
        task.usage
    } else {
        0
    };
    segment.height - own + task.usage > cap
}

/// What the reasons of one run read: the tasks' bounds and the capacity.
struct Stretch<'a> {
    scope: &'a [VarId],
    layout: &'a Tasks,
    tasks: &'a [Task],
    capacity: Option<VarId>,
    cap: i64,
}

impl Stretch<'_> {
    /// Why `segment` is used: the compulsory parts of the tasks other than `except` covering
    /// it, taken until their usages pass `beyond`.
    fn reason(&self, segment: &Segment, except: Option<usize>, beyond: i64, out: &mut Vec<Atom>) {
        let (a, b) = (segment.start, segment.end);
        let mut used = 0;
        for (k, task) in self.tasks.iter().enumerate() {
            if used > beyond {
                break;
            }
            if Some(k) != except && task.usage > 0 && task.duration > 0 && task.covers(a, b) {
                used += task.usage;
                self.layout.covering_reason(self.scope, k, task, a, b, out);
            }
        }
    }

    /// The rest of the reason task `j` cannot run over `segment`: its size, the capacity's
    /// bound, and the compulsory parts that leave it too little room.
    fn overload_reason(&self, j: usize, segment: &Segment, out: &mut Vec<Atom>) {
        let task = &self.tasks[j];
        self.layout.size_reason(self.scope, j, task, out);
        if let Some(capacity) = self.capacity {
            out.push(Atom::Le(capacity, clamped(self.cap)));
        }
        self.reason(segment, Some(j), self.cap - task.usage, out);
    }
}

/// The profile of compulsory parts, as stretches of constant positive height in time order.
fn build_profile(tasks: &[Task], events: &mut Vec<(i64, i64)>, profile: &mut Vec<Segment>) {
    events.clear();
    profile.clear();
    for task in tasks {
        if task.usage > 0 && task.duration > 0 && task.lst < task.ect() {
            events.push((task.lst, task.usage));
            events.push((task.ect(), -task.usage));
        }
    }
    events.sort_unstable_by_key(|e| e.0);
    let mut height = 0;
    let mut from = i64::MIN;
    for &(time, change) in events.iter() {
        if time > from && height > 0 {
            profile.push(Segment {
                start: from,
                end: time,
                height,
            });
        }
        from = time;
        height += change;
    }
}

impl Constraint for Cumulative {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let n = self.tasks.n;
        let value = |i: usize| i64::from(values[i]);
        let cap = value(3 * n);
        let runs = |i: usize| value(n + i) > 0 && value(2 * n + i) > 0;
        // The usage peaks when some task starts: check at each start.
        cap >= 0
            && (0..n).filter(|&i| runs(i)).all(|i| {
                let t = value(i);
                let used: i64 = (0..n)
                    .filter(|&k| runs(k) && value(k) <= t && t < value(k) + value(n + k))
                    .map(|k| value(2 * n + k))
                    .sum();
                used <= cap
            })
    }

    fn describe(&self) -> String {
        let n = self.tasks.n;
        format!(
            "cumulative(starts [{}], durations [{}], usages [{}], capacity {})",
            listed(self.vars[..n].iter(), 4, ", "),
            listed(self.vars[n..2 * n].iter(), 4, ", "),
            listed(self.vars[2 * n..3 * n].iter(), 4, ", "),
            self.capacity()
        )
    }

    /// It reads bounds only.
    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Bounds
    }

    fn priority(&self) -> Priority {
        Priority::Global
    }

    /// A start pushed off a stretch can grow its compulsory part, and with it the profile.
    fn idempotent(&self) -> bool {
        false
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let capacity = self.capacity();
        ctx.with_scratch(|ctx, table: &mut TimeTable| {
            table.run(&self.vars, &self.tasks, Some(capacity), ctx)
        })?;
        if ctx.explaining() {
            // Under learning, time-tabling alone, as Chuffed's: the O(n^3) pass at every
            // node cost more than its pruning bought (see the type's doc).
            return Ok(());
        }
        ctx.with_scratch(|ctx, energetic: &mut Energetic| {
            energetic.run(&self.vars, &self.tasks, capacity, ctx)
        })
    }
}
