//! Large sudoku: 64x64 and 144x144 grids solve or stop cleanly within their time limit, and a
//! grid too large for memory is refused before its model is built.
//!
//! The puzzles are made here: the cyclic pattern solution `(b·(r mod b) + r div b + c) mod n`
//! of an n = b² grid, with cells blanked by a fixed pseudo-random sequence.

use crate::common::{csp, stderr, stdout};
use crate::streaming::peak_rss;
use std::time::{Duration, Instant};

/// A pattern puzzle in the numeric grid format (one row per line, 0 for a blank), with about
/// `blank_percent` of the cells blanked.
fn pattern_puzzle(box_size: usize, blank_percent: u64, seed: u64) -> Vec<Vec<usize>> {
    let n = box_size * box_size;
    let mut state = seed;
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    // A 64-bit linear congruential step (Knuth's MMIX constants).
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    if (state >> 33) % 100 < blank_percent {
                        0
                    } else {
                        (box_size * (r % box_size) + r / box_size + c) % n + 1
                    }
                })
                .collect()
        })
        .collect()
}

fn write_puzzle(name: &str, grid: &[Vec<usize>]) -> String {
    let text: String = grid
        .iter()
        .map(|row| {
            let cells: Vec<String> = row.iter().map(usize::to_string).collect();
            cells.join(" ") + "\n"
        })
        .collect();
    let path = std::env::temp_dir().join(format!("csp-big-{}-{name}.txt", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// Whether `printed` (the numeric grid `csp` wrote) is a solution that keeps `givens`.
fn assert_solves(printed: &str, givens: &[Vec<usize>], box_size: usize) {
    let n = box_size * box_size;
    let grid: Vec<Vec<usize>> = printed
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect();
    assert_eq!(grid.len(), n, "rows");
    let all: Vec<usize> = (1..=n).collect();
    for r in 0..n {
        assert_eq!(grid[r].len(), n, "row {r}");
        let mut row = grid[r].clone();
        row.sort_unstable();
        assert_eq!(row, all, "row {r}");
        let mut column: Vec<usize> = (0..n).map(|i| grid[i][r]).collect();
        column.sort_unstable();
        assert_eq!(column, all, "column {r}");
        let (top, left) = (r / box_size * box_size, r % box_size * box_size);
        let mut cells: Vec<usize> = (0..n)
            .map(|i| grid[top + i / box_size][left + i % box_size])
            .collect();
        cells.sort_unstable();
        assert_eq!(cells, all, "box {r}");
        for c in 0..n {
            if givens[r][c] != 0 {
                assert_eq!(grid[r][c], givens[r][c], "given at row {r}, column {c}");
            }
        }
    }
}

#[test]
fn a_64x64_and_a_144x144_grid_solve_and_keep_their_givens() {
    for (box_size, blanks) in [(8, 30), (12, 20)] {
        let givens = pattern_puzzle(box_size, blanks, 7);
        let path = write_puzzle(&format!("solve{box_size}"), &givens);
        let out = csp(&["sudoku", &path, "--time-limit", "60"]);
        std::fs::remove_file(&path).ok();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_solves(&stdout(&out), &givens, box_size);
    }
}

/// 16x16 and 25x25 grids written as numbers with spaces between them read as numbers (not
/// as 0-F or 1-9A-P symbols), and every engine solves them: the default, which races the
/// bitmask solver against the general engine from 25x25 on, and each of the two alone.
#[test]
fn numeric_16x16_and_25x25_grids_read_as_numbers_and_every_engine_solves_them() {
    for (box_size, blanks) in [(4, 55), (5, 50)] {
        let givens = pattern_puzzle(box_size, blanks, 11);
        let path = write_puzzle(&format!("numeric{box_size}"), &givens);
        for engine in [None, Some("bitmask"), Some("csp")] {
            let mut args = vec!["sudoku", path.as_str(), "--time-limit", "60"];
            if let Some(engine) = engine {
                args.extend(["--engine", engine]);
            }
            let out = csp(&args);
            assert_eq!(out.status.code(), Some(0), "{engine:?}: {}", stderr(&out));
            assert_solves(&stdout(&out), &givens, box_size);
        }
        std::fs::remove_file(&path).ok();
    }
}

/// 64 symbols, both cases of every letter among them: `a` and `A` are different values.
const SIXTY_FOUR: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$";

#[test]
fn a_64x64_grid_over_a_64_symbol_alphabet_with_both_cases_of_letters_solves() {
    let symbols: Vec<char> = SIXTY_FOUR.chars().collect();
    assert_eq!(symbols.len(), 64);
    let givens = pattern_puzzle(8, 30, 5);
    let line: String = givens
        .iter()
        .flatten()
        .map(|&v| if v == 0 { '.' } else { symbols[v - 1] })
        .collect();
    // Both cases of letters stand among the givens, so folding case would merge values.
    assert!(line.contains('a') && line.contains('A') && line.contains('z') && line.contains('Z'));
    let path = std::env::temp_dir().join(format!("csp-big-{}-alphabet64.txt", std::process::id()));
    std::fs::write(&path, format!("{line}\n")).unwrap();
    let out = csp(&["sudoku", path.to_str().unwrap(), "--alphabet", SIXTY_FOUR]);
    std::fs::remove_file(&path).ok();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let printed = stdout(&out);
    let solved = printed.trim_end();
    assert_eq!(solved.chars().count(), 64 * 64, "one line, as it came");
    // Back to numbers, each symbol's value by its place in the alphabet, case and all.
    let numeric: String = solved
        .chars()
        .collect::<Vec<char>>()
        .chunks(64)
        .map(|row| {
            let values: Vec<String> = row
                .iter()
                .map(|c| (SIXTY_FOUR.find(*c).unwrap() + 1).to_string())
                .collect();
            values.join(" ") + "\n"
        })
        .collect();
    assert_solves(&numeric, &givens, 8);
    // The same alphabet with a repeat is refused, naming the symbol and both places.
    let repeated = SIXTY_FOUR.replace('$', "A");
    let bad = csp(&["sudoku", "--puzzle", "1", "--alphabet", &repeated]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("'A' stands twice, at positions 11 and 64"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn a_hard_144x144_grid_stops_cleanly_at_its_time_limit() {
    // Half the cells blank: near the hard region of quasigroup completion.
    let givens = pattern_puzzle(12, 50, 11);
    let path = write_puzzle("stop144", &givens);
    let started = Instant::now();
    let out = csp(&["sudoku", &path, "--time-limit", "1", "--stats"]);
    let took = started.elapsed();
    std::fs::remove_file(&path).ok();
    // Reading and building take a little; a generous bound that only catches a run that
    // ignores its limit.
    assert!(took < Duration::from_secs(8), "took {took:?}");
    match out.status.code() {
        Some(3) => {
            assert_eq!(stdout(&out), "limit\n");
            let report = stderr(&out);
            assert!(report.contains("1 stopped by a limit"), "{report}");
            assert!(report.contains("stopped by the time limit"), "{report}");
        }
        Some(0) => assert_solves(&stdout(&out), &givens, 12),
        other => panic!("exit {other:?}: {}", stderr(&out)),
    }
}

#[test]
fn a_625x625_grid_is_refused_before_its_model_is_built() {
    let givens = pattern_puzzle(25, 50, 3);
    let path = write_puzzle("refuse625", &givens);
    let out = csp(&["sudoku", &path]);
    let (code, peak) = peak_rss(&["sudoku", &path]);
    std::fs::remove_file(&path).ok();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(code, 2);
    assert_eq!(stdout(&out), "invalid\n");
    let message = stderr(&out);
    assert!(
        message.contains("line 1: a 625x625 grid is too large") && message.contains("GB"),
        "{message}"
    );
    // The model would take gigabytes; refused, the run stays near the size of its input.
    assert!(peak < 100 << 20, "peak resident set {peak} bytes");
}

#[test]
fn a_graph_declaring_too_many_vertices_is_refused_on_its_p_line() {
    let path = std::env::temp_dir().join(format!("csp-big-{}-huge.col", std::process::id()));
    std::fs::write(&path, "p edge 16777216 1\ne 1 2\n").unwrap();
    let path = path.to_string_lossy().into_owned();
    let (code, peak) = peak_rss(&["color", &path, "--colors", "3"]);
    let out = csp(&["color", &path, "--colors", "3"]);
    std::fs::remove_file(&path).ok();
    assert_eq!((code, out.status.code()), (2, Some(2)));
    assert!(stderr(&out).contains("line 1: 16777216 vertices; at most 4194304"));
    assert!(peak < 100 << 20, "peak resident set {peak} bytes");
}
