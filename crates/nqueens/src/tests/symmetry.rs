//! Unit tests of `symmetry`, kept beside the crate's source.

use super::*;

/// The images by brute force: apply each map to every queen.
pub(crate) fn images_by_hand(q: &[usize]) -> Vec<Vec<usize>> {
    let n = q.len();
    let mut out = vec![vec![0; n]; 8];
    for (r, &c) in q.iter().enumerate() {
        let (rr, cc) = (n - 1 - r, n - 1 - c);
        let maps = [
            (r, c),
            (c, rr),
            (rr, cc),
            (cc, r),
            (r, cc),
            (rr, c),
            (c, r),
            (cc, rr),
        ];
        for (k, &(row, column)) in maps.iter().enumerate() {
            out[k][row] = column;
        }
    }
    out
}

#[test]
fn agrees_with_images_computed_by_hand() {
    let mut scratch = Vec::new();
    let solver = crate::bitmask::Bitmask::new(8).unwrap();
    let mut canonical = 0;
    solver.solve(|q| {
        let smallest = images_by_hand(q).into_iter().min().unwrap();
        assert_eq!(is_canonical(q, &mut scratch), smallest == q, "{q:?}");
        canonical += usize::from(smallest == q);
        std::ops::ControlFlow::Continue(())
    });
    assert_eq!(canonical, 12);
    assert!(is_canonical(&[1, 3, 0, 2], &mut scratch));
    assert!(!is_canonical(&[2, 0, 3, 1], &mut scratch));
}
