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
