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
