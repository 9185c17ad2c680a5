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
/// bounds, durations and usages are read at their minimum. A task whose usage may be 0 (an
/// optional task, its usage its presence) and that fits at no start of its window at usage 1
/// gets usage 0. Each change states its reason: the tasks whose compulsory parts make the
/// stretch, as few as suffice.
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
    /// The stretches an optional task's window was swept over (their indices in `profile`).
    swept: Vec<usize>,
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
            swept,
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
            if task.usage == 0 && task.duration > 0 {
                stretch.exclude_if_unplaceable(j, profile, swept, ctx)?;
            }
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
    /// An optional task (usage 0 or more, as an absent or present one): if it fits at no
    /// start of its window at usage 1, because every place overloads some stretch of the
    /// profile, it uses nothing (Vilím's filtering of optional activities, the rule that
    /// makes a machine choice follow from the others' compulsory parts). The reason: its
    /// window, its duration, the capacity and the stretches swept.
    fn exclude_if_unplaceable(
        &self,
        j: usize,
        profile: &[Segment],
        swept: &mut Vec<usize>,
        ctx: &mut Context<'_>,
    ) -> Result<(), Conflict> {
        let Some(usage) = self.layout.usage(self.scope, j) else {
            return Ok(());
        };
        if ctx.max(usage).is_none_or(|max| max <= 0) {
            return Ok(());
        }
        let probe = Task {
            usage: 1,
            ..self.tasks[j]
        };
        let mut est = probe.est;
        swept.clear();
        for (k, segment) in profile.iter().enumerate() {
            if segment.end <= est {
                continue;
            }
            if segment.start >= est + probe.duration || est > probe.lst {
                break;
            }
            if overloads(&probe, segment, self.cap) {
                est = segment.end;
                swept.push(k);
            }
        }
        if est <= probe.lst {
            return Ok(());
        }
        if !ctx.explaining() {
            ctx.at_most(usage, 0)?;
            return Ok(());
        }
        let start = self.layout.start(self.scope, j);
        let mut reason = vec![
            Atom::Ge(start, clamped(probe.est)),
            Atom::Le(start, clamped(probe.lst)),
        ];
        self.layout
            .size_reason(self.scope, j, &self.tasks[j], &mut reason);
        if let Some(capacity) = self.capacity {
            reason.push(Atom::Le(capacity, clamped(self.cap)));
        }
        for &k in swept.iter() {
            self.reason(&profile[k], Some(j), self.cap - 1, &mut reason);
        }
        ctx.at_most_because(usage, 0, &reason)?;
        Ok(())
    }

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

#[cfg(test)]
mod tests {
    use crate::brute_force::{accepted, config, every_mode_finds_exactly, model_over, MODES};
    use crate::{Model, Relation, Solver, VarId};
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// Whether the tasks `(start, duration, usage)` fit under `cap` at every time, written
    /// out apart from the propagator: a task runs over `start..start + duration` when both
    /// its duration and usage are positive.
    fn fits(tasks: &[(i32, i32, i32)], cap: i32) -> bool {
        let runs = |&&(_, d, r): &&(i32, i32, i32)| d > 0 && r > 0;
        cap >= 0
            && (-10..20).all(|t| {
                let used: i32 = tasks
                    .iter()
                    .filter(runs)
                    .filter(|&&(s, d, _)| s <= t && t < s + d)
                    .map(|&(_, _, r)| r)
                    .sum();
                used <= cap
            })
    }

    /// Which machine each of `jobs` jobs runs on in a solution over `[starts.., presences..]`
    /// (presence `m * jobs + j` for job `j` on machine `m`).
    fn machines_fit(values: &[i32], jobs: usize, durations: &[[i32; 2]]) -> bool {
        let (starts, present) = values.split_at(jobs);
        (0..jobs).all(|j| present[j] + present[jobs + j] == 1)
            && (0..2).all(|m| {
                let tasks: Vec<(i32, i32, i32)> = (0..jobs)
                    .map(|j| (starts[j], durations[j][m], present[m * jobs + j]))
                    .collect();
                fits(&tasks, 1)
            })
    }

    proptest! {
        #![proptest_config(config())]

        /// Tasks of any starts, durations and usages (0 among them: a task that takes
        /// nothing) on a capacity variable: every mode finds exactly the assignments that
        /// fit, and mac keeps every value some of them uses.
        #[test]
        fn every_mode_finds_exactly_the_schedules_that_fit(
            domains in prop::collection::vec(prop::collection::btree_set(0..=4i32, 1..=3), 10),
        ) {
            // Three tasks' starts, durations and usages, then the capacity.
            let mut domains: Vec<Vec<i32>> =
                domains.into_iter().map(|d| d.into_iter().collect()).collect();
            for d in &mut domains[6..] {
                d.iter_mut().for_each(|v| *v = (*v).min(2));
                d.dedup();
            }
            let (mut model, xs) = model_over(&domains);
            model.cumulative(&xs[0..3], &xs[3..6], &xs[6..9], xs[9]).unwrap();
            let expected = accepted(&domains, |v| {
                let tasks: Vec<(i32, i32, i32)> = (0..3).map(|i| (v[i], v[3 + i], v[6 + i])).collect();
                fits(&tasks, v[9])
            });
            every_mode_finds_exactly(&model, &expected)?;
        }

        /// Jobs each on one of two machines (a 0/1 usage per job and machine, the two
        /// summing to 1, as CPMpy's NoOverlapOptional is posted): every mode, learning's
        /// reasons for the optional tasks it excludes among them, finds exactly the
        /// schedules brute force finds.
        #[test]
        fn optional_tasks_on_two_machines_are_scheduled_as_brute_force_schedules_them(
            starts in prop::collection::vec(prop::collection::btree_set(0..=4i32, 1..=3), 3..=4),
            durations in prop::collection::vec((1..=3i32, 1..=3i32), 4),
        ) {
            let jobs = starts.len();
            let durations: Vec<[i32; 2]> = durations[..jobs].iter().map(|&(a, b)| [a, b]).collect();
            let mut domains: Vec<Vec<i32>> =
                starts.into_iter().map(|d| d.into_iter().collect()).collect();
            domains.extend((0..2 * jobs).map(|_| vec![0, 1]));
            let (mut model, xs) = model_over(&domains);
            let (starts, present) = xs.split_at(jobs);
            let one = model.new_var(1..=1).unwrap();
            for m in 0..2 {
                let lengths: Vec<VarId> = (0..jobs)
                    .map(|j| model.new_var(durations[j][m]..=durations[j][m]).unwrap())
                    .collect();
                model
                    .cumulative(starts, &lengths, &present[m * jobs..(m + 1) * jobs], one)
                    .unwrap();
            }
            for j in 0..jobs {
                model.linear(&[(1, present[j]), (1, present[jobs + j])], Relation::Eq, 1).unwrap();
            }
            let expected = accepted(&domains, |v| machines_fit(v, jobs, &durations));
            for inference in MODES {
                let found: BTreeSet<Vec<i32>> = Solver::new(&model)
                    .inference(inference)
                    .solutions()
                    .map(|s| s[..3 * jobs].to_vec())
                    .collect();
                prop_assert_eq!(&found, &expected, "{:?}", inference);
            }
        }
    }

    /// An optional task whose window the others' compulsory parts fill is left out at the
    /// root: it cannot run, so it uses nothing.
    #[test]
    fn an_optional_task_with_no_room_is_left_out() {
        let mut model = Model::new();
        let a = model.new_var(0..=0).unwrap();
        let b = model.new_var(2..=2).unwrap();
        let c = model.new_var(0..=2).unwrap();
        let two = model.new_var(2..=2).unwrap();
        let one = model.new_var(1..=1).unwrap();
        let optional = model.new_var(0..=1).unwrap();
        model
            .cumulative(&[a, b, c], &[two, two, two], &[one, one, optional], one)
            .unwrap();
        for inference in [crate::Inference::Mac, crate::Inference::Lcg] {
            let root = Solver::new(&model).inference(inference).root_domains();
            assert_eq!(
                root.map(|d| d[optional.index()].clone()),
                Some(vec![0]),
                "{inference:?}"
            );
        }
    }
}
