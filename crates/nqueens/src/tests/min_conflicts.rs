//! Unit tests of `min_conflicts`, kept beside the crate's source.

use super::*;

#[test]
fn finds_verified_solutions_from_small_to_large_boards() {
    for n in [1u32, 4, 5, 8, 20, 100, 1000, 100_000] {
        for seed in 0..3 {
            let (found, stats) = solve(n, seed, &Limits::default());
            let found = found.unwrap();
            assert_eq!((stats.solutions, stats.max_depth), (1, u64::from(n)));
            assert!(stats.moves <= stats.nodes);
            assert_eq!(found.len(), n as usize);
            assert!(verify(&found), "n = {n}, seed {seed}");
        }
    }
    assert!(!verify(&[0, 1]));
    assert!(!verify(&[0, 0]));
    assert!(!verify(&[3]));
}

#[test]
fn a_cancel_or_a_spent_time_limit_stops_it_with_the_limit_not_a_board() {
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let limits = Limits {
        cancel: Some(cancel),
        ..Limits::default()
    };
    assert_eq!(solve(1_000_000, 1, &limits).0, Err(Limit::Cancelled));
    let spent = Limits {
        time: Some(std::time::Duration::ZERO),
        ..Limits::default()
    };
    assert_eq!(solve(1_000_000, 1, &spent).0, Err(Limit::Time));
}
