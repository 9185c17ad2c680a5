//! Unit tests of `bitmask`, kept beside the crate's source.

use super::*;
use crate::Board;

/// Every permutation of 0..n that places no two queens on a diagonal, by brute force.
fn brute_force(n: usize) -> Vec<Vec<usize>> {
    fn extend(n: usize, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == n {
            if Board::new(prefix.clone()).is_ok() {
                out.push(prefix.clone());
            }
            return;
        }
        for c in 0..n {
            if !prefix.contains(&c) {
                prefix.push(c);
                extend(n, prefix, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), &mut out);
    out
}

#[test]
fn lists_exactly_the_brute_force_solutions_in_lexicographic_order() {
    for n in 0..=8 {
        let solver = Bitmask::new(n).unwrap();
        let mut listed = Vec::new();
        let summary = solver.solve(|s| {
            listed.push(s.to_vec());
            ControlFlow::Continue(())
        });
        assert_eq!(listed, brute_force(n), "n = {n}");
        assert_eq!(summary.outcome, Outcome::Exhausted);
        assert_eq!(
            solver.count().stats.solutions,
            listed.len() as u64,
            "n = {n}"
        );
    }
}

#[test]
fn stops_on_break_and_on_the_node_limit() {
    let solver = Bitmask::new(8).unwrap();
    let mut seen = 0;
    let summary = solver.solve(|_| {
        seen += 1;
        ControlFlow::Break(())
    });
    assert_eq!((seen, summary.outcome), (1, Outcome::Solved));
    let limited = Bitmask::new(12).unwrap().limits(Limits {
        nodes: Some(1000),
        ..Limits::default()
    });
    let summary = limited.count();
    assert_eq!(summary.outcome, Outcome::LimitReached(Limit::Nodes));
    assert_eq!(summary.stats.nodes, 1000);
    assert!(Bitmask::new(65).is_none());
}

#[test]
fn counting_by_classes_agrees_with_brute_force_classes() {
    // Each solution's class: its 8 images, found by mapping every queen.
    let smallest_image = |q: &[usize]| {
        crate::symmetry::tests::images_by_hand(q)
            .into_iter()
            .min()
            .unwrap()
    };
    for n in 0..=10 {
        let solutions = brute_force(n);
        let mut classes: Vec<Vec<usize>> = solutions.iter().map(|q| smallest_image(q)).collect();
        classes.sort();
        classes.dedup();
        for threads in [1, 2] {
            let (summary, found) = Bitmask::new(n).unwrap().threads(threads).count_classes();
            assert_eq!(
                (summary.stats.solutions, found),
                (solutions.len() as u64, classes.len() as u64),
                "n = {n}, {threads} threads"
            );
        }
        // The shards of the class walk add up too.
        let parts: u64 = (0..3)
            .map(|i| {
                Bitmask::new(n)
                    .unwrap()
                    .shard(i, 3)
                    .unwrap()
                    .count_classes()
                    .1
            })
            .sum();
        assert_eq!(parts, classes.len() as u64, "n = {n}, 3 shards");
    }
}

#[test]
fn max_depth_is_the_deepest_level_reached_by_every_walk() {
    for n in 0..=11 {
        // The listing walk tracks its depth as it places; the class walk reads it off its
        // stack at the end. Both must agree: n where boards exist, less where none do (two
        // rows on a 3x3 board, one on a 2x2).
        let listed = Bitmask::new(n)
            .unwrap()
            .solve(|_| ControlFlow::Continue(()))
            .stats
            .max_depth;
        let expected = match n {
            2 => 1,
            3 => 2,
            _ => n as u64,
        };
        assert_eq!(listed, expected, "n = {n}");
        for threads in [1, 2] {
            let counted = Bitmask::new(n).unwrap().threads(threads).count();
            assert_eq!(
                counted.stats.max_depth, expected,
                "n = {n}, {threads} threads"
            );
        }
    }
    // Unit by unit: a unit with a board reaches the last row, one without stops short of it.
    for n in 6..=10 {
        for unit in class_units::class_units(n) {
            let counted = class_units::count_unit(n, unit, &mut Poller::unlimited());
            if counted.solutions > 0 {
                assert_eq!(counted.max_depth, n as u64, "n = {n}, {unit:?}");
            }
            assert!((2..=n as u64).contains(&counted.max_depth), "{unit:?}");
        }
    }
}

#[test]
fn a_stopped_count_keeps_what_it_counted_on_every_thread() {
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(Arc::clone(&cancel)),
        ..Limits::default()
    };
    // Stopped before it starts: nothing counted, and the outcome says why.
    cancel.store(true, Ordering::Relaxed);
    for threads in [1, 2] {
        let summary = Bitmask::new(14)
            .unwrap()
            .threads(threads)
            .limits(limits.clone())
            .count();
        assert_eq!(summary.outcome, Outcome::LimitReached(Limit::Cancelled));
        assert_eq!(summary.stats.solutions, 0);
    }
    // Stopped after a while by the time limit: a part of the count, never more than all.
    let timed = Limits {
        time: Some(Duration::from_millis(20)),
        ..Limits::default()
    };
    for threads in [1, 2] {
        let summary = Bitmask::new(18)
            .unwrap()
            .threads(threads)
            .limits(timed.clone())
            .count();
        assert_eq!(summary.outcome, Outcome::LimitReached(Limit::Time));
        // A000170(18) = 666,090,624.
        assert!(summary.stats.solutions < 666_090_624);
        assert!(summary.stats.nodes > summary.stats.solutions);
    }
}
