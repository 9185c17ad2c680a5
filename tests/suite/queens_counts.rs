//! N-Queens counts against OEIS A000170.

use crate::common::{
    oeis_a000170, Config, CHRONOLOGICAL, ENCODINGS, MODES, VALUE_ORDERS, VAR_ORDERS,
};
use csp_toolkit::csp::{Inference, Outcome, Solver, ValueOrder, VarOrder};
use csp_toolkit::nqueens::bitmask::Bitmask;
use csp_toolkit::nqueens::{symmetry, Board, Encoding, QueensModel};
use std::ops::ControlFlow;

/// Counts n-queens under `config` and checks each board independently as it streams by.
fn count_checked(config: Config, n: usize) -> u64 {
    let mut previous: Option<Vec<usize>> = None;
    let ordered = config.value_order == ValueOrder::Ascending
        && config.var_order == VarOrder::Input
        && config.inference != Inference::Lcg;
    let summary = config.solve(n, None, |columns| {
        assert!(
            Board::new(columns.clone()).is_ok(),
            "{config:?}: {columns:?}"
        );
        if ordered {
            assert!(previous.as_ref() < Some(&columns), "{config:?}: order");
            previous = Some(columns);
        }
    });
    assert_eq!(summary.outcome, Outcome::Exhausted);
    summary.stats.solutions
}

#[test]
fn every_mode_and_encoding_counts_a000170_up_to_n_10() {
    assert_plain_counts(&(0..=10).collect::<Vec<_>>());
}

/// Every mode and encoding, input order and ascending values, at each of `sizes`.
fn assert_plain_counts(sizes: &[usize]) {
    let oeis = oeis_a000170();
    for &n in sizes {
        // Learning counts by ruling out each solution with a nogood of its decisions, and
        // its explanations are long: 10-queens takes it seconds, 12 a minute. It counts up
        // to 10 here; the larger boards are for the modes that enumerate.
        let modes: &[Inference] = if n <= 10 { &MODES } else { &CHRONOLOGICAL };
        for encoding in ENCODINGS {
            for &inference in modes {
                let config = Config::plain(encoding, inference);
                assert_eq!(count_checked(config, n), oeis[n], "n = {n}, {config:?}");
            }
        }
    }
}

#[test]
fn every_mode_and_encoding_counts_a000170_at_n_11_and_12() {
    assert_plain_counts(&[11, 12]);
}

#[test]
fn every_heuristic_counts_a000170_up_to_n_8() {
    let oeis = oeis_a000170();
    for (n, &expected) in oeis.iter().enumerate().take(9) {
        for encoding in ENCODINGS {
            for inference in MODES {
                for var_order in VAR_ORDERS {
                    for value_order in VALUE_ORDERS {
                        let config = Config {
                            encoding,
                            inference,
                            var_order,
                            value_order,
                        };
                        assert_eq!(count_checked(config, n), expected, "n = {n}, {config:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_bitmask_engine_counts_and_lists_a000170_up_to_n_12() {
    let oeis = oeis_a000170();
    for (n, &expected) in oeis.iter().enumerate().take(13) {
        let solver = Bitmask::new(n).unwrap();
        assert_eq!(solver.count().stats.solutions, expected, "count, n = {n}");
        let mut listed = 0;
        solver.solve(|columns| {
            assert!(Board::new(columns.to_vec()).is_ok());
            listed += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(listed, expected, "listing, n = {n}");
    }
}

#[test]
fn the_engine_lists_the_same_boards_as_the_bitmask_oracle() {
    for n in 0..=9 {
        let mut oracle = Vec::new();
        Bitmask::new(n).unwrap().solve(|c| {
            oracle.push(c.to_vec());
            ControlFlow::Continue(())
        });
        for encoding in ENCODINGS {
            for inference in MODES {
                let mut ours = Vec::new();
                Config::plain(encoding, inference).solve(n, None, |c| ours.push(c));
                if inference == Inference::Lcg {
                    // The same boards, in the order learning meets them.
                    ours.sort();
                }
                assert_eq!(ours, oracle, "n = {n}, {encoding:?}, {inference:?}");
            }
        }
    }
}

#[test]
#[ignore = "slow (about four minutes): run with scripts/slow-tests"]
fn every_mode_and_encoding_counts_a000170_at_n_13_and_14() {
    assert_plain_counts(&[13, 14]);
}

#[test]
#[ignore = "slow (about 20 s): run with scripts/slow-tests"]
fn the_bitmask_engine_counts_a000170_up_to_n_16() {
    let oeis = oeis_a000170();
    for (n, &expected) in oeis.iter().enumerate().take(17).skip(13) {
        let solver = Bitmask::new(n).unwrap();
        assert_eq!(solver.count().stats.solutions, expected, "n = {n}");
    }
}

/// A002562 (solutions up to rotation and reflection) from the same table, a(0) = 1.
fn oeis_a002562() -> Vec<u64> {
    let text = include_str!("../data/nqueens_oeis_counts.csv");
    let mut counts = vec![1];
    counts.extend(
        text.lines()
            .skip(1)
            .map(|l| l.split(',').nth(2).unwrap().parse::<u64>().unwrap()),
    );
    counts
}

#[test]
fn shards_add_up_to_a000170_for_both_engines() {
    let oeis = oeis_a000170();
    for n in 12..=14 {
        for parts in [1u64, 3, 7] {
            let bitmask: u64 = (0..parts as usize)
                .map(|i| {
                    Bitmask::new(n)
                        .unwrap()
                        .shard(i, parts as usize)
                        .unwrap()
                        .count()
                        .stats
                        .solutions
                })
                .sum();
            assert_eq!(bitmask, oeis[n], "bitmask, n = {n}, {parts} parts");
            // The generic engine carries the smaller board, to keep CI short.
            if n == 12 {
                let queens = QueensModel::new(n, Encoding::AllDiff).unwrap();
                let engine: u64 = (0..parts)
                    .map(|i| Solver::new(&queens.model).shard(i, parts).count())
                    .sum();
                assert_eq!(engine, oeis[n], "csp, n = {n}, {parts} parts");
            }
        }
    }
    // Boards too small to cut belong to the first part.
    for n in 0..3 {
        let parts: Vec<u64> = (0..3)
            .map(|i| {
                Bitmask::new(n)
                    .unwrap()
                    .shard(i, 3)
                    .unwrap()
                    .count()
                    .stats
                    .solutions
            })
            .collect();
        assert_eq!(parts.iter().sum::<u64>(), oeis[n]);
    }
}

#[test]
fn threads_count_and_list_the_same_as_one_thread() {
    let oeis = oeis_a000170();
    for n in [0, 1, 4, 8, 11, 13] {
        let two = Bitmask::new(n).unwrap().threads(2);
        assert_eq!(two.count().stats.solutions, oeis[n], "n = {n}");
        let mut one_list = Vec::new();
        Bitmask::new(n).unwrap().solve(|c| {
            one_list.push(c.to_vec());
            ControlFlow::Continue(())
        });
        let mut two_list = Vec::new();
        two.solve(|c| {
            two_list.push(c.to_vec());
            ControlFlow::Continue(())
        });
        assert_eq!(two_list, one_list, "n = {n}: same boards, same order");
    }
}

#[test]
fn classes_up_to_symmetry_match_a002562_up_to_n_11() {
    let classes = oeis_a002562();
    for (n, &expected) in classes.iter().enumerate().take(12).skip(1) {
        let mut scratch = Vec::new();
        let mut found = 0;
        Bitmask::new(n).unwrap().solve(|c| {
            if symmetry::is_canonical(c, &mut scratch) {
                found += 1;
            }
            ControlFlow::Continue(())
        });
        assert_eq!(found, expected, "n = {n}");
    }
}

#[test]
fn count_classes_matches_a000170_and_a002562_up_to_n_12() {
    let (all, classes) = (oeis_a000170(), oeis_a002562());
    for n in 0..=12 {
        for threads in [1, 2] {
            let (summary, found) = Bitmask::new(n).unwrap().threads(threads).count_classes();
            assert_eq!(
                (summary.stats.solutions, found),
                (all[n], classes[n]),
                "n = {n}, {threads} threads"
            );
        }
    }
}

#[test]
fn count_classes_matches_a002562_up_to_n_16() {
    let (all, classes) = (oeis_a000170(), oeis_a002562());
    for n in 13..=16 {
        let (summary, found) = Bitmask::new(n).unwrap().threads(2).count_classes();
        assert_eq!(
            (summary.stats.solutions, found),
            (all[n], classes[n]),
            "n = {n}"
        );
    }
}
