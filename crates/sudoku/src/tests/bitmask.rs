//! Unit tests of `bitmask`: the same solutions as the engine, on grids small enough to count.

use super::*;
use crate::SudokuModel;
use csp::SplitMix64;

/// Every solution of `grid` by the engine (mac, mrv), sorted.
fn engine_solutions(grid: &Grid) -> Vec<Vec<u16>> {
    let model = SudokuModel::new(grid).unwrap();
    let mut out = Vec::new();
    csp::Solver::new(&model.model)
        .inference(csp::Inference::Mac)
        .var_order(csp::VarOrder::MinDomain)
        .solve(|s| {
            out.push(model.grid(s).cells().to_vec());
            ControlFlow::Continue(())
        });
    out.sort();
    out
}

fn bitmask_solutions(grid: &Grid) -> (Vec<Vec<u16>>, Summary) {
    let mut out = Vec::new();
    let summary = Bitmask::new(grid).unwrap().solve(|g| {
        assert!(g.solves(grid), "a solution breaks the rules or the givens");
        out.push(g.cells().to_vec());
        ControlFlow::Continue(())
    });
    out.sort();
    (out, summary)
}

#[test]
fn the_empty_4x4_has_288_solutions_and_the_engine_finds_the_same() {
    let empty = Grid::empty(2);
    let (ours, summary) = bitmask_solutions(&empty);
    assert_eq!(ours.len(), 288);
    assert_eq!(summary.outcome, Outcome::Exhausted);
    assert_eq!(ours, engine_solutions(&empty));
}

/// LeetCode 37's published solution.
const SOLVED_9X9: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

#[test]
fn random_4x4_and_9x9_puzzles_have_the_engines_solution_sets() {
    // Any seed checks the same thing; with this one no draw is a sparse 9x9 with thousands of
    // solutions to list twice, so the test stays under a second.
    let mut rng = SplitMix64::new(3);
    let solved: Vec<u16> = SOLVED_9X9.bytes().map(|b| u16::from(b - b'0')).collect();
    let mut compared = [0usize; 2];
    for round in 0..400 {
        let (box_size, cells) = if round % 2 == 0 {
            // 4x4: a few random givens, consistent or not.
            let mut cells = vec![0u16; 16];
            for _ in 0..3 + rng.below(5) {
                cells[rng.below(16) as usize] = 1 + rng.below(4) as u16;
            }
            (2, cells)
        } else {
            // 9x9: some cells of a solved grid kept, now and then one given changed.
            let keep = 32 + rng.below(14);
            let mut cells: Vec<u16> = solved
                .iter()
                .map(|&v| if rng.below(81) < keep { v } else { 0 })
                .collect();
            if rng.below(4) == 0 {
                cells[rng.below(81) as usize] = 1 + rng.below(9) as u16;
            }
            (3, cells)
        };
        let grid = Grid::new(box_size, cells).unwrap();
        if !grid.violations().is_empty() {
            continue;
        }
        let engine = engine_solutions(&grid);
        let (ours, _) = bitmask_solutions(&grid);
        assert_eq!(ours, engine, "round {round}: {:?}", grid.cells());
        compared[usize::from(box_size == 3)] += 1;
    }
    // Enough of each size got through the filter to mean something.
    assert!(compared[0] >= 50 && compared[1] >= 100, "{compared:?}");
}

#[test]
fn limits_and_the_solution_cap_stop_it() {
    let empty = Grid::empty(3);
    let capped = Bitmask::new(&empty).unwrap().max_solutions(Some(2));
    let mut seen = 0;
    let summary = capped.solve(|_| {
        seen += 1;
        ControlFlow::Continue(())
    });
    assert_eq!((seen, summary.outcome), (2, Outcome::Solved));
    let limited = Bitmask::new(&empty).unwrap().limits(Limits {
        nodes: Some(50),
        ..Limits::default()
    });
    let summary = limited.solve(|_| ControlFlow::Continue(()));
    assert_eq!(summary.outcome, Outcome::LimitReached(Limit::Nodes));
    assert_eq!(summary.stats.nodes, 50);
    // Contradictory givens (two 1s in a row) have no solution and take no branching.
    let mut cells = vec![0u16; 16];
    cells[0] = 1;
    cells[1] = 1;
    let broken = Grid::new(2, cells).unwrap();
    let (none, summary) = bitmask_solutions(&broken);
    assert!(none.is_empty());
    assert_eq!(summary.stats.nodes, 0);
    assert!(Bitmask::new(&Grid::empty(9)).is_none());
}

#[test]
fn a_cancel_stops_it_as_a_limit_not_as_no_solution() {
    // An empty 9x9 grid has 6.67 x 10^21 solutions to count.
    let empty = Grid::new(3, vec![0; 81]).unwrap();
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let limits = Limits {
        cancel: Some(cancel),
        ..Limits::default()
    };
    let summary = Bitmask::new(&empty)
        .unwrap()
        .limits(limits)
        .solve(|_| ControlFlow::Continue(()));
    assert_eq!(summary.outcome, Outcome::LimitReached(Limit::Cancelled));
    let spent = Limits {
        time: Some(std::time::Duration::from_millis(20)),
        ..Limits::default()
    };
    let summary = Bitmask::new(&empty)
        .unwrap()
        .limits(spent)
        .solve(|_| ControlFlow::Continue(()));
    assert_eq!(summary.outcome, Outcome::LimitReached(Limit::Time));
    assert!(summary.stats.solutions > 0 && summary.stats.max_depth > 0);
}
