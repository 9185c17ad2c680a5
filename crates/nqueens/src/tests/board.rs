//! Unit tests of `board`, kept beside the crate's source.

use super::*;

#[test]
fn accepts_the_four_queens_solutions_and_renders_them_as_leetcode_does() {
    let board = Board::new(vec![1, 3, 0, 2]).unwrap();
    assert_eq!(board.rows('.'), [".Q..", "...Q", "Q...", "..Q."]);
    assert_eq!(board.rows('#')[0], "#Q##");
    assert_eq!(board.to_string(), ".Q..\n...Q\nQ...\n..Q.\n");
}

#[test]
fn rejects_attacks_and_off_board_queens() {
    assert!(matches!(
        Board::new(vec![0, 0]),
        Err(BoardError::Attack { line: "column", .. })
    ));
    assert!(matches!(
        Board::new(vec![0, 2, 1]),
        Err(BoardError::Attack {
            first: 1,
            second: 2,
            ..
        })
    ));
    assert!(matches!(
        Board::new(vec![0, 1]),
        Err(BoardError::Attack {
            line: "diagonal",
            ..
        })
    ));
    assert!(matches!(
        Board::new(vec![1, 0]),
        Err(BoardError::Attack {
            line: "anti-diagonal",
            ..
        })
    ));
    assert_eq!(
        Board::new(vec![3]),
        Err(BoardError::OffBoard { row: 0, column: 3 })
    );
    assert!(Board::new(vec![]).is_ok());
}

/// Whether two queens share a column or a diagonal, for some pair of rows.
fn attacked_pairwise(columns: &[usize]) -> bool {
    (0..columns.len()).any(|a| {
        (a + 1..columns.len())
            .any(|b| columns[a] == columns[b] || columns[a].abs_diff(columns[b]) == b - a)
    })
}

#[test]
fn attack_free_accepts_exactly_the_boards_without_an_attack() {
    let mut taken = Vec::new();
    for n in 1..=6usize {
        // Every placement of one queen per row, columns in range: n^n boards.
        let mut columns = vec![0usize; n];
        let mut accepted = 0;
        loop {
            let free = attack_free(&columns, &mut taken);
            assert_eq!(free, !attacked_pairwise(&columns), "{columns:?}");
            assert_eq!(free, Board::new(columns.clone()).is_ok(), "{columns:?}");
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
    assert!(
        !attack_free(&[0usize, 7], &mut taken),
        "a column off the board"
    );
    assert!(!attack_free(&[0i64, -1], &mut taken), "a negative column");
}
