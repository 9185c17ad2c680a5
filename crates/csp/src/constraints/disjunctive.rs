//! `Disjunctive`: tasks of fixed durations on a machine that runs one at a time, filtered by
//! time-tabling, overload checking, edge-finding and not-first/not-last.

use super::cumulative::TimeTable;
use super::listed::listed;
use super::task::{clamped, Task, Tasks};
use crate::{Atom, Conflict, Constraint, Context, Priority, VarId, Wake};

/// Tasks `i` start at `s_i` and last `d_i` (constants, at least 0); no two of positive
/// duration overlap: `s_i + d_i <= s_j` or `s_j + d_j <= s_i` (MiniZinc's `disjunctive`). A
/// task of duration 0 may run at any time, unless the resource is strict
/// (`disjunctive_strict`), where it may not fall strictly inside another task.
///
/// Consistency: bounds on the starts, by four rules over the tasks of positive duration, each
/// both ways in time (Vilím's rules, run here in O(n³) over task windows, which suits the
/// tens of tasks a machine takes in practice):
/// - time-tabling on compulsory parts, as [`Cumulative`](super::Cumulative) with capacity 1;
/// - overload checking: the tasks whose windows lie in `[a, b)` need no more than `b - a`;
/// - edge-finding: if task `i` cannot finish before the last of a set Ω ends (Ω with `i` does
///   not fit from the earliest of their starts to Ω's latest end), `i` starts after Ω's
///   earliest completion;
/// - not-first: if `i` first, then Ω after it, cannot fit by Ω's latest end, `i` starts after
///   the earliest end in Ω; not-last, its mirror.
///
/// With every start fixed the pairs are checked, zero durations included. Each change
/// states its reason: the window bounds of the set it used. Under `none` and `fc`, the
/// default hooks.
#[derive(Clone, Debug)]
pub struct Disjunctive {
    starts: Vec<VarId>,
    tasks: Tasks,
    strict: bool,
}

/// A task's window in one direction of time: it runs within `est..lct` for `p` (> 0).
#[derive(Copy, Clone, Debug)]
struct Window {
    task: usize,
    est: i64,
    lct: i64,
    p: i64,
}

impl Window {
    fn ect(&self) -> i64 {
        self.est + self.p
    }
}

/// A new earliest start for a task in one direction of time, and the set behind it.
#[derive(Copy, Clone, Debug)]
struct Push {
    /// Index into the windows.
    task: usize,
    bound: i64,
    rule: Rule,
}

#[derive(Copy, Clone, Debug)]
enum Rule {
    /// Edge-finding on Ω = the others with windows in `[from, lct)`; the task starts at least
    /// at `own`, which with Ω does not fit; Ω's part from `tight` on ends no earlier than the
    /// bound.
    EdgeFinding {
        from: i64,
        lct: i64,
        own: i64,
        tight: i64,
    },
    /// Not-first on Ω = the others ending by `lct` with earliest ends at least `bound`; the
    /// task starts at least at `own`, too late to run before all of Ω.
    NotFirst { lct: i64, own: i64 },
}

/// Buffers reused between runs.
#[derive(Default)]
struct Scratch {
    table: TimeTable,
    windows: Vec<Window>,
    by_est: Vec<usize>,
    by_ect: Vec<usize>,
    lcts: Vec<i64>,
    pushes: Vec<Push>,
}

impl Disjunctive {
    /// Tasks with these starts and durations on one machine (`strict`: zero-duration tasks
    /// may not fall inside others); `None` unless the two have one length.
    pub fn new(starts: &[VarId], durations: &[i64], strict: bool) -> Option<Self> {
        if starts.len() != durations.len() {
            return None;
        }
        Some(Disjunctive {
            starts: starts.to_vec(),
            tasks: Tasks {
                n: starts.len(),
                fixed: durations.to_vec(),
            },
            strict,
        })
    }

    /// The atom "task `k` starts at `t` or later" in one direction of time: backwards, a
    /// start `s` reads as `-(s + d)`.
    fn starts_from(&self, k: usize, t: i64, backwards: bool) -> Atom {
        let (s, d) = (self.starts[k], self.tasks.fixed[k]);
        if backwards {
            Atom::Le(s, clamped(-t - d))
        } else {
            Atom::Ge(s, clamped(t))
        }
    }

    /// The atom "task `k` ends by `t`" in one direction of time.
    fn ends_by(&self, k: usize, t: i64, backwards: bool) -> Atom {
        let (s, d) = (self.starts[k], self.tasks.fixed[k]);
        if backwards {
            Atom::Ge(s, clamped(-t))
        } else {
            Atom::Le(s, clamped(t - d))
        }
    }

    /// Reads the windows of the tasks of positive duration in one direction of time.
    fn windows(tasks: &[Task], backwards: bool, out: &mut Vec<Window>) {
        out.clear();
        for (task, t) in tasks.iter().enumerate() {
            if t.duration == 0 {
                continue;
            }
            let (est, lct) = if backwards {
                (-(t.lst + t.duration), -t.est)
            } else {
                (t.est, t.lst + t.duration)
            };
            out.push(Window {
                task,
                est,
                lct,
                p: t.duration,
            });
        }
    }

    /// Overload checking, edge-finding and not-first in one direction of time, on the
    /// windows of `scratch`, into `scratch.pushes`. `Err` on an overload.
    fn find(scratch: &mut Scratch) -> Result<u64, ()> {
        let Scratch {
            windows,
            by_est,
            by_ect,
            lcts,
            pushes,
            ..
        } = scratch;
        pushes.clear();
        let n = windows.len();
        by_est.clear();
        by_est.extend(0..n);
        by_est.sort_unstable_by_key(|&k| std::cmp::Reverse(windows[k].est));
        by_ect.clear();
        by_ect.extend(0..n);
        by_ect.sort_unstable_by_key(|&k| std::cmp::Reverse(windows[k].ect()));
        lcts.clear();
        lcts.extend(windows.iter().map(|w| w.lct));
        lcts.sort_unstable();
        lcts.dedup();
        let mut checks = 0u64;
        for &lct in lcts.iter() {
            // Overload: the windows within [est, lct), for each est.
            let mut total = 0;
            for &k in by_est.iter() {
                let w = &windows[k];
                if w.lct <= lct {
                    total += w.p;
                    if w.est + total > lct {
                        return Err(());
                    }
                }
            }
            for i in 0..n {
                let wi = windows[i];
                checks += n as u64;
                // Edge-finding, for a task outside this lct's sets.
                if wi.lct > lct {
                    let (mut total, mut ect, mut tight) = (0, i64::MIN, 0);
                    let mut best: Option<Push> = None;
                    for &k in by_est.iter() {
                        let w = &windows[k];
                        if w.lct > lct {
                            continue;
                        }
                        total += w.p;
                        if w.est + total > ect {
                            ect = w.est + total;
                            tight = w.est;
                        }
                        let own = wi.est.min(w.est);
                        if own + total + wi.p > lct && ect > wi.est {
                            best = Some(Push {
                                task: i,
                                bound: ect,
                                rule: Rule::EdgeFinding {
                                    from: w.est,
                                    lct,
                                    own,
                                    tight,
                                },
                            });
                        }
                    }
                    pushes.extend(best);
                }
                // Not-first: the others ending by lct, latest earliest-ends first; the first
                // set that cannot all follow i gives the bound.
                let mut total = 0;
                for &k in by_ect.iter() {
                    let w = &windows[k];
                    if k == i || w.lct > lct {
                        continue;
                    }
                    total += w.p;
                    if wi.ect() + total > lct {
                        if w.ect() > wi.est {
                            pushes.push(Push {
                                task: i,
                                bound: w.ect(),
                                rule: Rule::NotFirst {
                                    lct,
                                    own: lct - total - wi.p + 1,
                                },
                            });
                        }
                        break;
                    }
                }
            }
        }
        Ok(checks)
    }

    /// Applies the pushes found in one direction of time, each with its reason.
    fn apply(
        &self,
        scratch: &Scratch,
        backwards: bool,
        ctx: &mut Context<'_>,
    ) -> Result<(), Conflict> {
        let explaining = ctx.explaining();
        let mut reason = Vec::new();
        for push in &scratch.pushes {
            let i = scratch.windows[push.task].task;
            if explaining {
                reason.clear();
                self.explain(scratch, push, backwards, &mut reason);
            }
            let s = self.starts[i];
            if backwards {
                ctx.at_most_because(s, -push.bound - self.tasks.fixed[i], &reason)?;
            } else {
                ctx.at_least_because(s, push.bound, &reason)?;
            }
        }
        Ok(())
    }

    fn explain(&self, scratch: &Scratch, push: &Push, backwards: bool, out: &mut Vec<Atom>) {
        let windows = &scratch.windows;
        let i = windows[push.task].task;
        match push.rule {
            Rule::EdgeFinding {
                from,
                lct,
                own,
                tight,
            } => {
                out.push(self.starts_from(i, own, backwards));
                for w in windows {
                    if w.task != i && w.est >= from && w.lct <= lct {
                        let from = if w.est >= tight { tight } else { from };
                        out.push(self.starts_from(w.task, from, backwards));
                        out.push(self.ends_by(w.task, lct, backwards));
                    }
                }
            }
            Rule::NotFirst { lct, own } => {
                out.push(self.starts_from(i, own, backwards));
                for w in windows {
                    if w.task != i && w.lct <= lct && w.ect() >= push.bound {
                        out.push(self.starts_from(w.task, push.bound - w.p, backwards));
                        out.push(self.ends_by(w.task, lct, backwards));
                    }
                }
            }
        }
    }

    fn run(&self, ctx: &mut Context<'_>, scratch: &mut Scratch) -> Result<(), Conflict> {
        scratch.table.run(&self.starts, &self.tasks, None, ctx)?;
        for backwards in [false, true] {
            // Read again: the time-table or the other direction may have moved bounds.
            if self
                .tasks
                .read(&self.starts, ctx, &mut scratch.table.tasks)
                .is_none()
            {
                return Ok(());
            }
            Self::windows(&scratch.table.tasks, backwards, &mut scratch.windows);
            let checks = Self::find(scratch).map_err(|()| ctx.violated())?;
            ctx.count_checks(checks);
            self.apply(scratch, backwards, ctx)?;
        }
        if self.strict && self.starts.iter().all(|&s| ctx.size(s) == 1) {
            let values: Vec<i32> = self.starts.iter().filter_map(|&s| ctx.min(s)).collect();
            ctx.count_checks(1);
            if !self.is_satisfied(&values) {
                return Err(ctx.violated());
            }
        }
        Ok(())
    }
}

impl Constraint for Disjunctive {
    fn scope(&self) -> &[VarId] {
        &self.starts
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let d = &self.tasks.fixed;
        let n = values.len();
        let s = |i: usize| i64::from(values[i]);
        d.iter().all(|&d| d >= 0)
            && (0..n).all(|i| {
                (i + 1..n).all(|j| {
                    (!self.strict && (d[i] == 0 || d[j] == 0))
                        || s(i) + d[i] <= s(j)
                        || s(j) + d[j] <= s(i)
                })
            })
    }

    fn contradiction(&self) -> Option<String> {
        self.tasks
            .fixed
            .iter()
            .find(|&&d| d < 0)
            .map(|d| format!("a task's duration is {d}, below 0"))
    }

    fn describe(&self) -> String {
        format!(
            "disjunctive{}(starts [{}], durations [{}])",
            if self.strict { "_strict" } else { "" },
            listed(self.starts.iter(), 4, ", "),
            listed(self.tasks.fixed.iter(), 4, ", "),
        )
    }

    /// It reads bounds only.
    fn wake_on(&self, _var: VarId) -> Wake {
        Wake::Bounds
    }

    fn priority(&self) -> Priority {
        Priority::Global
    }

    /// Each rule runs once per call; what one moves, another may use.
    fn idempotent(&self) -> bool {
        false
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.with_scratch(|ctx, scratch: &mut Scratch| self.run(ctx, scratch))
    }
}
