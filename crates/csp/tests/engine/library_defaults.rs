//! What `Solver::new` does with no settings, on the models a newcomer writes first: the
//! defaults must solve them as the command line would, not leave them to a weak search.

use csp::{Model, Outcome, Relation, Solver};
use std::time::Duration;

/// Eight tasks on a resource of capacity 3: (duration, usage). Their energy bound is 13;
/// the least makespan, found by the brute force below, is 14.
const TASKS: [(i32, i32); 8] = [
    (3, 2),
    (2, 1),
    (4, 2),
    (1, 3),
    (5, 1),
    (2, 2),
    (3, 1),
    (4, 2),
];
const CAPACITY: i32 = 3;

/// The least makespan by brute force: the serial schedule generation scheme (each task in
/// turn at its earliest start that fits the resource) over every order of the tasks. Its
/// schedules are the active ones, among which one is optimal for the makespan (Kolisch,
/// "Serial and parallel resource-constrained project scheduling methods revisited", EJOR
/// 1996), so the least over all 8! orders is the optimum.
fn brute_force_makespan() -> i32 {
    let horizon: i32 = TASKS.iter().map(|t| t.0).sum();
    let mut order: Vec<usize> = (0..TASKS.len()).collect();
    let mut best = i32::MAX;
    let mut profile = vec![0; horizon as usize];
    loop {
        profile.iter_mut().for_each(|p| *p = 0);
        let mut end = 0;
        for &t in &order {
            let (d, r) = TASKS[t];
            let fits = |s: usize| (s..s + d as usize).all(|k| profile[k] + r <= CAPACITY);
            let start = (0..).find(|&s| fits(s)).unwrap();
            (start..start + d as usize).for_each(|k| profile[k] += r);
            end = end.max(start as i32 + d);
        }
        best = best.min(end);
        if !next_permutation(&mut order) {
            return best;
        }
    }
}

/// Steps `xs` to its next permutation in lexicographic order; false after the last.
fn next_permutation(xs: &mut [usize]) -> bool {
    let Some(i) = (1..xs.len()).rev().find(|&i| xs[i - 1] < xs[i]) else {
        return false;
    };
    let j = (i..xs.len()).rev().find(|&j| xs[j] > xs[i - 1]).unwrap();
    xs.swap(i - 1, j);
    xs[i..].reverse();
    true
}

#[test]
fn a_cumulative_makespan_is_minimised_to_its_optimum_with_default_settings() {
    let optimum = brute_force_makespan();
    assert_eq!(optimum, 14);
    let horizon: i32 = TASKS.iter().map(|t| t.0).sum();
    let mut model = Model::new();
    let starts: Vec<_> = TASKS
        .iter()
        .map(|_| model.new_var(0..=horizon).unwrap())
        .collect();
    let makespan = model.new_var(0..=horizon).unwrap();
    let durations: Vec<i32> = TASKS.iter().map(|t| t.0).collect();
    let usages: Vec<i32> = TASKS.iter().map(|t| t.1).collect();
    model
        .cumulative(&starts, &durations, &usages, CAPACITY)
        .unwrap();
    for (&s, &d) in starts.iter().zip(&durations) {
        model
            .linear(&[(1, s), (-1, makespan)], Relation::Le, -i64::from(d))
            .unwrap();
    }
    // The limit only catches a hang (forward checking, the old default, ran for minutes).
    let mut solutions = Solver::new(&model)
        .time_limit(Duration::from_secs(120))
        .minimize(makespan)
        .solutions();
    let best = solutions.by_ref().last().expect("a schedule");
    assert_eq!(solutions.summary().outcome, Outcome::Exhausted);
    assert_eq!(best[makespan.index()], optimum);
    assert!(model.check_solution(&best).is_ok());
}
