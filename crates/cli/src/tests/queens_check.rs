//! Unit tests of `csp queens`'s board check, against the rules stated pair by pair.

use super::*;

/// Whether two queens share a column or a diagonal, for some pair of rows.
fn attacked_pairwise(columns: &[usize]) -> bool {
    (0..columns.len()).any(|a| {
        (a + 1..columns.len())
            .any(|b| columns[a] == columns[b] || columns[a].abs_diff(columns[b]) == b - a)
    })
}

#[test]
fn the_check_accepts_exactly_the_boards_without_an_attack() {
    let mut printer = Printer::new(0, Format::Cols, '.', false);
    for n in 1..=6usize {
        // Every placement of one queen per row, columns in range: n^n boards.
        let mut columns = vec![0usize; n];
        let mut accepted = 0;
        loop {
            let free = printer.attack_free(&columns);
            assert_eq!(free, !attacked_pairwise(&columns), "{columns:?}");
            accepted += usize::from(free);
            let Some(row) = columns.iter().rposition(|&c| c + 1 < n) else {
                break;
            };
            columns[row] += 1;
            columns[row + 1..].fill(0);
        }
        // OEIS A000170: 1, 0, 0, 2, 10, 4.
        assert_eq!(accepted, [1, 0, 0, 2, 10, 4][n - 1], "n = {n}");
    }
    assert!(!printer.attack_free(&[0, 7]), "a column off the board");
}
