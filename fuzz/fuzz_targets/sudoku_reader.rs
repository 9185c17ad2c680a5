//! Any text through the sudoku reader: no panic; every puzzle read renders and reads back the
//! same; small puzzles with consistent givens solve, each solution keeps the givens, and the
//! engine and the bitmask solver agree on whether there is one.

#![no_main]

use csp::{Limits, Outcome, Solver};
use libfuzzer_sys::fuzz_target;
use sudoku::{Alphabet, Bitmask, Reader, Shape, SudokuModel};

fuzz_target!(|data: &[u8]| {
    // The first byte picks an alphabet, as `--alphabet` would.
    let (choice, text) = data.split_first().map_or((0, &[][..]), |(c, t)| (*c, t));
    let alphabet = match choice % 4 {
        1 => Alphabet::new("0123456789ABCDEF").ok(),
        2 => Alphabet::new("ABCDEFGHI").ok(),
        3 => Alphabet::new("1234").ok(),
        _ => None,
    };
    let text = String::from_utf8_lossy(text);
    let mut reader = Reader::new(alphabet.clone());
    let mut entries = Vec::new();
    let mut last = 0;
    for (i, line) in text.lines().enumerate() {
        reader.feed(i + 1, line, &mut entries);
        last = i + 1;
    }
    reader.finish(last, &mut entries);
    for entry in entries {
        let Ok(puzzle) = entry.puzzle else { continue };
        let grid = &puzzle.grid;
        let violations = grid.violations();
        for shape in [Shape::AsGiven, Shape::Line, Shape::Grid] {
            let written = puzzle.layout.render(grid, &puzzle.symbols, shape);
            // Written as one line or as a grid, it reads back as the same givens.
            if shape != Shape::AsGiven {
                let mut again = Reader::new(alphabet.clone());
                let mut back = Vec::new();
                let lines: Vec<&str> = written.lines().collect();
                for (i, line) in lines.iter().enumerate() {
                    again.feed(i + 1, line, &mut back);
                }
                again.finish(lines.len(), &mut back);
                let read: Vec<_> = back.into_iter().filter_map(|e| e.puzzle.ok()).collect();
                assert_eq!(
                    read.len(),
                    1,
                    "{shape:?} of {text:?} read back as {} puzzles:\n{written}",
                    read.len()
                );
                assert_eq!(
                    &read[0].grid, grid,
                    "{shape:?} of {text:?} read back differently"
                );
            }
        }
        if grid.box_size() > 3 || !violations.is_empty() {
            continue;
        }
        let Ok(model) = SudokuModel::new(grid) else {
            continue;
        };
        let solver = Solver::new(&model.model).node_limit(2_000);
        let engine = solver.solve(|solution| {
            assert!(
                model.grid(solution).solves(grid),
                "a solution breaks the rules or the givens"
            );
            std::ops::ControlFlow::Break(())
        });
        // The bitmask solver agrees on whether there is a solution, where both finished.
        let Some(bitmask) = Bitmask::new(grid) else {
            continue;
        };
        let fast = bitmask
            .max_solutions(Some(1))
            .limits(Limits {
                nodes: Some(2_000),
                ..Limits::default()
            })
            .solve(|solution| {
                assert!(
                    solution.solves(grid),
                    "a bitmask solution breaks the rules or the givens"
                );
                std::ops::ControlFlow::Break(())
            });
        let finished = |o: Outcome| !matches!(o, Outcome::LimitReached(_));
        if finished(engine.outcome) && finished(fast.outcome) {
            assert_eq!(
                engine.stats.solutions, fast.stats.solutions,
                "the engine and the bitmask solver disagree on {text:?}"
            );
        }
    }
});
