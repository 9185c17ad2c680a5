//! N-Queens counts against OEIS A000170.

use crate::common::{oeis_a000170, Config, ENCODINGS, MODES, VALUE_ORDERS, VAR_ORDERS};
use csp_toolkit::csp::{Outcome, ValueOrder, VarOrder};
use csp_toolkit::nqueens::bitmask::Bitmask;
use csp_toolkit::nqueens::Board;
use std::ops::ControlFlow;

/// Counts n-queens under `config` and checks each board independently as it streams by.
fn count_checked(config: Config, n: usize) -> u64 {
    let mut previous: Option<Vec<usize>> = None;
    let ordered =
        config.value_order == ValueOrder::Ascending && config.var_order == VarOrder::Input;
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
        for encoding in ENCODINGS {
            for inference in MODES {
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
