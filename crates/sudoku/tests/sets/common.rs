//! Reading the sets and solving a puzzle.

use csp::{Inference, Outcome, Solver, VarOrder};
use std::ops::ControlFlow;
use sudoku::{Alphabet, Entry, Grid, Reader, SudokuModel};

pub fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every entry of `text`, read line by line.
pub fn read(text: &str, alphabet: Option<&str>) -> Vec<Entry> {
    let mut reader = Reader::new(alphabet.map(|a| Alphabet::new(a).unwrap()));
    let mut out = Vec::new();
    let mut last = 0;
    for (i, line) in text.lines().enumerate() {
        reader.feed(i + 1, line, &mut out);
        last = i + 1;
    }
    reader.finish(last, &mut out);
    out
}

/// The configurations every answer is checked under. (Forward checking with plain MRV is
/// left out: it is correct but needs 83 million nodes to show that q_boss has no solution.)
pub const CONFIGS: [(Inference, VarOrder); 3] = [
    (Inference::ForwardChecking, VarOrder::DomWdeg),
    (Inference::Mac, VarOrder::MinDomain),
    (Inference::Mac, VarOrder::DomWdeg),
];

/// Up to `limit` solutions of `puzzle`, each checked against the rules and the givens.
pub fn solutions(puzzle: &Grid, inference: Inference, order: VarOrder, limit: u64) -> Vec<Grid> {
    let model = SudokuModel::new(puzzle).unwrap();
    let mut found = Vec::new();
    let summary = Solver::new(&model.model)
        .inference(inference)
        .var_order(order)
        .max_solutions(Some(limit))
        .solve(|s| {
            let grid = model.grid(s);
            assert!(
                grid.solves(puzzle),
                "a reported solution breaks a rule or a given"
            );
            found.push(grid);
            ControlFlow::Continue(())
        });
    assert!(matches!(
        summary.outcome,
        Outcome::Solved | Outcome::Exhausted
    ));
    found
}

/// The number of solutions, counted without keeping them.
pub fn count(puzzle: &Grid, inference: Inference, order: VarOrder) -> u64 {
    let model = SudokuModel::new(puzzle).unwrap();
    Solver::new(&model.model)
        .inference(inference)
        .var_order(order)
        .count()
}

/// An 81-character line as a 9x9 grid.
pub fn grid9(line: &str) -> Grid {
    let entries = read(line, None);
    entries.into_iter().next().unwrap().puzzle.unwrap().grid
}
