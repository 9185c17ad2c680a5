//! The eight symmetries of the square board, and canonical representatives of solution classes.
//!
//! Two solutions are in one class when a rotation or reflection of the board turns one into
//! the other. The class's representative is its lexicographically smallest column vector.
//! Each image is compared with the solution one row at a time as it is computed, so most
//! comparisons stop at the first or second row.

/// Whether `columns` is the smallest of its class (so each class is counted once).
/// `inverse` is scratch space, resized as needed.
pub fn is_canonical(columns: &[usize], inverse: &mut Vec<usize>) -> bool {
    let n = columns.len();
    if n == 0 {
        return true;
    }
    // A mirrored first queen would be smaller: the representative keeps it in the left half.
    if columns[0] > n - 1 - columns[0] {
        return false;
    }
    inverse.clear();
    inverse.resize(n, 0);
    for (row, &column) in columns.iter().enumerate() {
        inverse[column] = row;
    }
    let q = columns;
    let p = &inverse[..];
    let last = n - 1;
    // Row i of each image, for the seven symmetries other than the identity.
    let images: [&dyn Fn(usize) -> usize; 7] = [
        &|i| last - p[i],        // rotation by 90 degrees
        &|i| last - q[last - i], // rotation by 180 degrees
        &|i| p[last - i],        // rotation by 270 degrees
        &|i| last - q[i],        // mirror left-right
        &|i| q[last - i],        // mirror top-bottom
        &|i| p[i],               // transpose
        &|i| last - p[last - i], // anti-transpose
    ];
    images.iter().all(|image| {
        for (i, &own) in q.iter().enumerate() {
            let other = image(i);
            if own != other {
                return own < other;
            }
        }
        true
    })
}

#[cfg(test)]
#[path = "tests/symmetry.rs"]
pub(crate) mod tests;
