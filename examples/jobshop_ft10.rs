//! The job shop ft10 (Fisher and Thompson, 1963; OR-Library's `jobshop1.txt`): ten jobs of
//! ten tasks, each on its own machine for a given time, the tasks of a job in order. Each
//! machine is one `disjunctive` constraint (edge-finding, not-first/not-last, time-tabling),
//! and each pair of tasks on a machine gets a 0/1 variable that decides which goes first, the
//! decisions the search takes. The published optimal makespan is 930 (Carlier and Pinson,
//! 1989, proved it); `--quick` solves ft06 instead (55), and `--decomposed` leaves the
//! `disjunctive` constraints out, keeping only the pairwise decisions, to compare.

use csp_toolkit::csp::constraints::Compare;
use csp_toolkit::csp::{
    Inference, Model, ModelError, Reification, Relation, Solver, VarId, VarOrder,
};
use std::time::Instant;

/// (machine, duration) of each task, job by job.
type Jobs = [&'static [(usize, i64)]];

const FT06: &Jobs = &[
    &[(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    &[(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    &[(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    &[(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    &[(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    &[(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
];

const FT10: &Jobs = &[
    &[
        (0, 29),
        (1, 78),
        (2, 9),
        (3, 36),
        (4, 49),
        (5, 11),
        (6, 62),
        (7, 56),
        (8, 44),
        (9, 21),
    ],
    &[
        (0, 43),
        (2, 90),
        (4, 75),
        (9, 11),
        (3, 69),
        (1, 28),
        (6, 46),
        (5, 46),
        (7, 72),
        (8, 30),
    ],
    &[
        (1, 91),
        (0, 85),
        (3, 39),
        (2, 74),
        (8, 90),
        (5, 10),
        (7, 12),
        (6, 89),
        (9, 45),
        (4, 33),
    ],
    &[
        (1, 81),
        (2, 95),
        (0, 71),
        (4, 99),
        (6, 9),
        (8, 52),
        (7, 85),
        (3, 98),
        (9, 22),
        (5, 43),
    ],
    &[
        (2, 14),
        (0, 6),
        (1, 22),
        (5, 61),
        (3, 26),
        (4, 69),
        (8, 21),
        (7, 49),
        (9, 72),
        (6, 53),
    ],
    &[
        (2, 84),
        (1, 2),
        (5, 52),
        (3, 95),
        (8, 48),
        (9, 72),
        (0, 47),
        (6, 65),
        (4, 6),
        (7, 25),
    ],
    &[
        (1, 46),
        (0, 37),
        (3, 61),
        (2, 13),
        (6, 32),
        (5, 21),
        (9, 32),
        (8, 89),
        (7, 30),
        (4, 55),
    ],
    &[
        (2, 31),
        (0, 86),
        (1, 46),
        (5, 74),
        (4, 32),
        (6, 88),
        (8, 19),
        (9, 48),
        (7, 36),
        (3, 79),
    ],
    &[
        (0, 76),
        (1, 69),
        (3, 76),
        (5, 51),
        (2, 85),
        (9, 11),
        (6, 40),
        (7, 89),
        (4, 26),
        (8, 74),
    ],
    &[
        (1, 85),
        (0, 13),
        (2, 61),
        (6, 7),
        (8, 64),
        (9, 76),
        (5, 47),
        (3, 52),
        (4, 90),
        (7, 45),
    ],
];

/// The optimal makespan and the search's node count, with one `disjunctive` per machine or,
/// when `disjunctive` is false, with the pairwise precedences alone (the decomposition).
fn makespan(jobs: &Jobs, disjunctive: bool) -> Result<(i32, u64), ModelError> {
    let horizon: i64 = jobs.iter().flat_map(|j| j.iter()).map(|t| t.1).sum();
    let machines = jobs
        .iter()
        .flat_map(|j| j.iter())
        .map(|t| t.0 + 1)
        .max()
        .unwrap_or(0);
    let mut model = Model::new();
    let end = model.new_named_var("makespan", 0..=horizon as i32)?;
    // Per machine: its tasks' starts and durations.
    let mut on: Vec<(Vec<VarId>, Vec<i64>)> = vec![(Vec::new(), Vec::new()); machines];
    for job in jobs {
        let starts: Vec<VarId> = job
            .iter()
            .map(|_| model.new_var(0..=horizon as i32))
            .collect::<Result<_, _>>()?;
        for (k, (&s, &(machine, d))) in starts.iter().zip(job.iter()).enumerate() {
            let next = starts.get(k + 1).copied().unwrap_or(end);
            model.compare_offset(s, Relation::Le, next, -d)?; // s + d <= next task's start
            on[machine].0.push(s);
            on[machine].1.push(d);
        }
    }
    for (starts, durations) in &on {
        if disjunctive {
            model.disjunctive(starts, durations, true)?;
        }
        // Which of each pair goes first: the decisions to search on.
        for i in 0..starts.len() {
            for j in i + 1..starts.len() {
                let first = model.new_bool()?;
                let (a, b) = (starts[i], starts[j]);
                model.reify(
                    first,
                    Compare::new(a, Relation::Le, b, -durations[i]),
                    Reification::Full,
                )?;
                let second = model.new_bool()?;
                model.bool_not(first, second)?;
                model.reify(
                    second,
                    Compare::new(b, Relation::Le, a, -durations[j]),
                    Reification::Full,
                )?;
            }
        }
    }
    let solver = Solver::new(&model)
        .inference(Inference::Mac)
        .var_order(VarOrder::DomWdeg)
        .minimize(end);
    let mut solutions = solver.solutions();
    let best = solutions.by_ref().last().map_or(-1, |s| s[end.index()]);
    Ok((best, solutions.summary().stats.nodes))
}

fn main() -> Result<(), ModelError> {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let disjunctive = !args.iter().any(|a| a == "--decomposed");
    let (name, jobs) = if quick {
        ("ft06", FT06)
    } else {
        ("ft10", FT10)
    };
    let started = Instant::now();
    let (best, nodes) = makespan(jobs, disjunctive)?;
    println!(
        "{name}: optimal makespan {best} ({nodes} nodes, {:.1} s)",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[test]
fn ft06_has_the_published_optimum_with_and_without_disjunctive() {
    assert_eq!(makespan(FT06, true).unwrap().0, 55);
    assert_eq!(makespan(FT06, false).unwrap().0, 55);
}

#[test]
#[ignore = "about 4.5 minutes: scripts/slow-tests runs it"]
fn ft10_has_the_published_optimum() {
    assert_eq!(makespan(FT10, true).unwrap().0, 930);
}
