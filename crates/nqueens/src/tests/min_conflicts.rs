//! Unit tests of `min_conflicts`, kept beside the crate's source.

use super::*;

#[test]
fn finds_verified_solutions_from_small_to_large_boards() {
    for n in [1u32, 4, 5, 8, 20, 100, 1000, 100_000] {
        for seed in 0..3 {
            let found = solve(n, seed, &Limits::default()).unwrap();
            assert_eq!(found.len(), n as usize);
            assert!(verify(&found), "n = {n}, seed {seed}");
        }
    }
    assert!(!verify(&[0, 1]));
    assert!(!verify(&[0, 0]));
    assert!(!verify(&[3]));
}
