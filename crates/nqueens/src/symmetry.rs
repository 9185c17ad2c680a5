//! The eight symmetries of the square board, and canonical representatives of solution classes.
//!
//! Two solutions are in one class when a rotation or reflection of the board turns one into
//! the other. The class's representative is its lexicographically smallest column vector.

/// The images of `columns` under the 8 symmetries of the square (itself included), written
/// into `scratch` one after another (8 × n entries).
fn images(columns: &[usize], scratch: &mut Vec<usize>) {
    let n = columns.len();
    scratch.clear();
    scratch.resize(8 * n, 0);
    for (r, &c) in columns.iter().enumerate() {
        let (rr, cc) = (n - 1 - r, n - 1 - c);
        // (row, column) -> image: identity, three rotations, four reflections.
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
            scratch[k * n + row] = column;
        }
    }
}

/// Whether `columns` is the smallest of its class (so each class is counted once).
pub fn is_canonical(columns: &[usize], scratch: &mut Vec<usize>) -> bool {
    let n = columns.len();
    images(columns, scratch);
    (1..8).all(|k| columns <= &scratch[k * n..(k + 1) * n])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_queens_solutions_are_one_class() {
        let mut scratch = Vec::new();
        assert!(is_canonical(&[1, 3, 0, 2], &mut scratch));
        assert!(!is_canonical(&[2, 0, 3, 1], &mut scratch));
        images(&[1, 3, 0, 2], &mut scratch);
        assert!(scratch
            .chunks(4)
            .all(|image| image == [1, 3, 0, 2] || image == [2, 0, 3, 1]));
    }
}
