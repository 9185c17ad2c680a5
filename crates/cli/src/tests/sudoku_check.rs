//! Unit tests of `csp sudoku`'s answer check: a solution that breaks a rule or moves a given is
//! withheld, whichever solver produced it.

use super::*;
use crate::args::{Cli, Command};
use clap::Parser;

/// The first puzzle of top95 (Peter Norvig's set, in crates/sudoku/tests/data) and its
/// solution as the bitmask solver finds it.
const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn job_and_puzzle() -> (SudokuJob, Puzzle) {
    let Command::Sudoku(args) = Cli::parse_from(["csp", "sudoku", "--puzzle", PUZZLE]).command
    else {
        unreachable!("parsed as sudoku");
    };
    let job = SudokuJob::from_args(&args, &Signals::inert()).unwrap();
    let mut entries = Vec::new();
    let mut reader = Reader::new(None);
    reader.feed(1, PUZZLE, &mut entries);
    reader.finish(1, &mut entries);
    let puzzle = entries.remove(0).puzzle.unwrap();
    (job, puzzle)
}

#[test]
fn a_correct_solution_is_printed_and_a_wrong_one_withheld() {
    let (job, puzzle) = job_and_puzzle();
    let (summary, solution) = solve_bitmask(&puzzle.grid, Some(1), Limits::default());
    let solution = solution.unwrap();
    let right = job.answer(1, &puzzle, summary.clone(), Some(solution.clone()), None);
    assert_eq!(right.answer, Some(Answer::Solved));
    assert!(right.errors.is_empty());

    // Two cells of a row swapped: still complete, but a column or a box now repeats a value,
    // or a given moved.
    let mut cells = solution.cells().to_vec();
    cells.swap(1, 2);
    let swapped = Grid::new(3, cells).unwrap();
    let wrong = job.answer(1, &puzzle, summary.clone(), Some(swapped), None);
    assert_eq!(wrong.answer, Some(Answer::Wrong));
    assert_eq!(wrong.record, "error\n");
    assert!(
        wrong.errors[0].contains("internal error"),
        "{:?}",
        wrong.errors
    );

    // A solution of the empty grid that ignores the givens breaks no rule but is still wrong.
    let (_, other) = solve_bitmask(&Grid::empty(3), Some(1), Limits::default());
    let other = other.unwrap();
    assert!(other.violations().is_empty());
    let ignored = job.answer(1, &puzzle, summary, Some(other), None);
    assert_eq!(ignored.answer, Some(Answer::Wrong));
}
