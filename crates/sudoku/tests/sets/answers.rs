//! Published solutions, "no solution", and exact solution counts.

use crate::common::{count, data, grid9, read, solutions, CONFIGS};
use csp::{Inference, Outcome, Solver, VarOrder};
use sudoku::{BlankModels, Grid, Sessions};

/// Checks a set of unique puzzles against their published solutions.
fn assert_unique(puzzles: &[Grid], published: &[Grid], set: &str) {
    assert_eq!(puzzles.len(), published.len(), "{set}");
    for (i, (puzzle, solution)) in puzzles.iter().zip(published).enumerate() {
        for (inference, order) in CONFIGS {
            let found = solutions(puzzle, inference, order, 2);
            assert_eq!(
                found,
                vec![solution.clone()],
                "{set} #{}: {inference:?} {order:?}",
                i + 1
            );
        }
    }
}

fn grids(text: &str) -> Vec<Grid> {
    read(text, None)
        .into_iter()
        .map(|e| e.puzzle.unwrap().grid)
        .collect()
}

#[test]
fn top95_matches_its_published_solutions() {
    assert_unique(
        &grids(&data("top95.txt")),
        &grids(&data("top95_solutions.txt")),
        "top95",
    );
}

#[test]
fn hardest_has_one_solution_each() {
    for (i, puzzle) in grids(&data("hardest.txt")).iter().enumerate() {
        for (inference, order) in CONFIGS {
            assert_eq!(
                solutions(puzzle, inference, order, 2).len(),
                1,
                "hardest #{}",
                i + 1
            );
        }
    }
}

#[test]
fn tdoku_test_puzzles_have_the_listed_answers() {
    let text = data("tdoku_test_puzzles.txt");
    let (mut unique, mut none, mut several) = (0, 0, 0);
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split(':').collect();
        let puzzle = grid9(fields[0]);
        let expected: u64 = fields[1].parse().unwrap();
        for (inference, order) in CONFIGS {
            assert_eq!(count(&puzzle, inference, order), expected, "{line}");
        }
        match expected {
            0 => none += 1,
            1 => {
                unique += 1;
                let solution = grid9(fields[2]);
                let found = solutions(&puzzle, Inference::Mac, VarOrder::MinDomain, 2);
                assert_eq!(found, vec![solution], "{line}");
            }
            _ => several += 1,
        }
    }
    assert_eq!(
        (unique, none, several),
        (18, 10, 15),
        "the set's own description"
    );
}

#[test]
fn serg_multisolution_counts_are_reproduced_for_the_first_200_lines() {
    let text = data("serg_multisolution_first200.txt");
    let mut checked = 0;
    for line in text.lines() {
        let fields: Vec<&str> = line.split(':').collect();
        let expected: u64 = fields[1].parse().unwrap();
        assert_eq!(
            count(&grid9(fields[0]), Inference::Mac, VarOrder::MinDomain),
            expected,
            "{line}"
        );
        checked += 1;
    }
    assert_eq!(checked, 200);
}

#[test]
fn sudsoln_pairs_solve_from_4x4_to_25x25() {
    let text = data("sudsoln_pairs.tsv");
    let mut sizes = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (name, note) = (fields[0], fields[4]);
        let puzzle = read(fields[2], None).remove(0).puzzle.unwrap();
        let published = read(fields[3], None).remove(0).puzzle.unwrap().grid;
        assert!(
            published.solves(&puzzle.grid),
            "{name}: the published answer"
        );
        sizes.push(puzzle.grid.side());
        let found = solutions(&puzzle.grid, Inference::Mac, VarOrder::MinDomain, 2);
        if note.starts_with("unique") {
            assert_eq!(found, vec![published], "{name}");
        } else {
            // A puzzle with several solutions: any reported one passes the rules and givens
            // (checked as it streams); and there are indeed several.
            assert_eq!(found.len(), 2, "{name}");
        }
    }
    for side in [4, 9, 16, 25] {
        assert!(sizes.contains(&side), "{side}x{side} is in the set");
    }
}

#[test]
fn sudsoln_multi_solution_counts_match_the_set() {
    // q_sta410 has 12 solutions and q_sta410_testing 3 (joon3216/sudsoln's notes).
    let text = data("sudsoln_pairs.tsv");
    for (name, expected) in [("q_sta410", 12), ("q_sta410_testing", 3)] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{name}\t")))
            .unwrap();
        let puzzle = grid9(line.split('\t').nth(2).unwrap());
        assert_eq!(
            count(&puzzle, Inference::Mac, VarOrder::MinDomain),
            expected,
            "{name}"
        );
    }
}

#[test]
fn q_boss_has_no_solution() {
    let puzzle = grid9(data("q_boss.txt").trim());
    for (inference, order) in CONFIGS {
        assert!(solutions(&puzzle, inference, order, 1).is_empty());
    }
}

#[test]
fn hexadoku_solves_with_the_0_to_f_alphabet() {
    for (puzzle, answer) in [
        ("Hexaduko1A.txt", "SolutionA.txt"),
        ("asamshaExample0F.txt", "ashamsaExampleAnswer.txt"),
    ] {
        let alphabet = Some("0123456789ABCDEF");
        let puzzle = read(&data(&format!("hexadoku/{puzzle}")), alphabet)
            .remove(0)
            .puzzle
            .unwrap();
        let answer = read(&data(&format!("hexadoku/{answer}")), alphabet)
            .remove(0)
            .puzzle
            .unwrap();
        assert_eq!(puzzle.grid.side(), 16);
        let found = solutions(&puzzle.grid, Inference::Mac, VarOrder::MinDomain, 2);
        assert_eq!(found, vec![answer.grid]);
    }
    for other in ["Hexaduko2A.txt", "Hexaduko3A.txt"] {
        let puzzle = read(
            &data(&format!("hexadoku/{other}")),
            Some("0123456789ABCDEF"),
        )
        .remove(0)
        .puzzle
        .unwrap();
        assert!(
            !solutions(&puzzle.grid, Inference::Mac, VarOrder::MinDomain, 1).is_empty(),
            "{other}"
        );
    }
}

#[test]
fn leetcode_37_solves_to_its_published_answer() {
    let text = data("leetcode_36_37.txt");
    let line = text
        .lines()
        .find(|l| l.starts_with("lc37_ex_solution:"))
        .unwrap();
    let fields: Vec<&str> = line.split(':').collect();
    let found = solutions(
        &grid9(fields[1]),
        Inference::ForwardChecking,
        VarOrder::Input,
        2,
    );
    assert_eq!(found, vec![grid9(fields[2])]);
}

#[test]
fn the_empty_4x4_grid_has_288_solutions() {
    // OEIS A107739: 288 sudoku grids of order 4.
    for (inference, order) in CONFIGS {
        assert_eq!(count(&Grid::empty(2), inference, order), 288);
    }
    assert_eq!(
        count(&Grid::empty(2), Inference::None, VarOrder::Input),
        288
    );
}

#[test]
fn sessions_answer_mixed_sizes_and_counts_as_published() {
    // One session per size, the sizes interleaved (sudsoln's 4x4 to 25x25 between serg's
    // 9x9 counts), each answer as the set publishes it.
    let models = BlankModels::new();
    let mut counting = Sessions::new(&models);
    let mut first = Sessions::new(&models);
    let pairs = data("sudsoln_pairs.tsv");
    let mut pairs = pairs.lines().filter(|l| !l.starts_with('#'));
    let serg = data("serg_multisolution_first200.txt");
    for (i, line) in serg.lines().enumerate() {
        let fields: Vec<&str> = line.split(':').collect();
        let expected: u64 = fields[1].parse().unwrap();
        let (summary, found) = counting
            .solve(&grid9(fields[0]), |model| {
                Solver::new(model)
                    .inference(Inference::Mac)
                    .var_order(VarOrder::MinDomain)
            })
            .unwrap();
        assert_eq!(summary.outcome, Outcome::Exhausted, "{line}");
        assert_eq!(summary.stats.solutions, expected, "{line}");
        assert!(found.unwrap().solves(&grid9(fields[0])), "{line}");
        if i % 10 != 0 {
            continue;
        }
        let Some(pair) = pairs.next() else { continue };
        let fields: Vec<&str> = pair.split('\t').collect();
        if !fields[4].starts_with("unique") {
            continue;
        }
        let puzzle = read(fields[2], None).remove(0).puzzle.unwrap().grid;
        let published = read(fields[3], None).remove(0).puzzle.unwrap().grid;
        let (_, found) = first
            .solve(&puzzle, |model| {
                Solver::new(model)
                    .inference(Inference::Mac)
                    .var_order(VarOrder::MinDomain)
                    .max_solutions(Some(1))
            })
            .unwrap();
        assert_eq!(found, Some(published), "{}", fields[0]);
    }
}
