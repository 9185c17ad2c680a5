//! The three inference modes find the same solutions, and each prunes at least as much as the
//! one before it.

use crate::common::{Config, CHRONOLOGICAL, ENCODINGS, MODES};
use csp_toolkit::csp::{Inference, Outcome};
use csp_toolkit::nqueens::{Board, Encoding};
use std::collections::BTreeSet;

#[test]
fn none_fc_and_mac_give_the_same_valid_solution_sets_up_to_n_8() {
    for n in 0..=8 {
        for encoding in ENCODINGS {
            let sets: Vec<BTreeSet<Vec<usize>>> = MODES
                .iter()
                .map(|&inference| {
                    let mut set = BTreeSet::new();
                    Config::plain(encoding, inference).solve(n, None, |columns| {
                        assert!(Board::new(columns.clone()).is_ok(), "{columns:?}");
                        assert!(set.insert(columns), "a solution came twice");
                    });
                    set
                })
                .collect();
            assert_eq!(sets[0], sets[1], "none vs fc, n = {n}, {encoding:?}");
            assert_eq!(sets[1], sets[2], "fc vs mac, n = {n}, {encoding:?}");
        }
    }
}

fn nodes(encoding: Encoding, inference: Inference, first: bool) -> u64 {
    let summary = Config::plain(encoding, inference).solve(8, first.then_some(1), |_| {});
    let expected = if first {
        Outcome::Solved
    } else {
        Outcome::Exhausted
    };
    assert_eq!(summary.outcome, expected);
    summary.stats.nodes
}

#[test]
fn with_input_order_none_explores_more_nodes_than_fc_and_fc_no_fewer_than_mac_at_n_8() {
    for encoding in ENCODINGS {
        for first in [true, false] {
            let [none, fc, mac, _] = MODES.map(|m| nodes(encoding, m, first));
            assert!(
                none > fc,
                "{encoding:?}, first = {first}: none {none}, fc {fc}"
            );
            assert!(
                fc >= mac,
                "{encoding:?}, first = {first}: fc {fc}, mac {mac}"
            );
        }
    }
}

#[test]
fn the_first_solution_of_8_queens_is_the_lexicographically_smallest() {
    // Any backtracking search in row order with ascending columns finds 0 4 7 5 2 6 1 3 first
    // (the first of the 92 in lexicographic order, as the bitmask oracle also lists).
    for encoding in ENCODINGS {
        for inference in CHRONOLOGICAL {
            let mut first = None;
            Config::plain(encoding, inference).solve(8, Some(1), |c| first = Some(c));
            assert_eq!(first, Some(vec![0, 4, 7, 5, 2, 6, 1, 3]));
        }
    }
}

#[test]
fn counters_mean_the_same_in_every_mode() {
    for encoding in ENCODINGS {
        for inference in MODES {
            let s = Config::plain(encoding, inference)
                .solve(6, None, |_| {})
                .stats;
            assert_eq!(s.solutions, 4);
            if inference == Inference::Lcg {
                // Decisions by atoms, jumps back past several: no fixed depth; every
                // conflict learns a nogood.
                assert!(s.max_depth <= 6 && s.learned > 0 && s.learned <= s.backtracks);
            } else {
                assert_eq!(s.max_depth, 6);
                assert!(s.backtracks < s.nodes);
                assert_eq!(s.learned, 0);
            }
            assert!(s.checks > 0);
            if inference == Inference::None {
                assert_eq!((s.pruned, s.propagations, s.wipeouts), (0, 0, 0));
            } else {
                assert!(s.pruned > 0 && s.propagations > 0 && s.wipeouts > 0);
                assert!(s.wipeouts <= s.backtracks);
            }
        }
    }
}
