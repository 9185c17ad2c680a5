//! What `csp queens` prints, byte for byte, in each format.

use crate::common::{csp, stderr, stdout};

/// LeetCode 51, example 1: the two solutions of 4-queens, in this order.
const LEETCODE_51_N4: &str = ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n";

#[test]
fn four_queens_prints_leetcode_51s_example_exactly() {
    let out = csp(&["queens", "4"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), LEETCODE_51_N4);
    assert_eq!(stderr(&out), "");
}

#[test]
fn every_engine_and_mode_prints_the_same_boards_for_four_queens() {
    for extra in [
        &["--engine", "bitmask"][..],
        &["--inference", "none"],
        &["--inference", "mac", "--encoding", "binary"],
        &["--encoding", "binary"],
    ] {
        let mut args = vec!["queens", "4"];
        args.extend_from_slice(extra);
        assert_eq!(stdout(&csp(&args)), LEETCODE_51_N4, "{extra:?}");
    }
}

#[test]
fn one_queen_is_a_single_q() {
    assert_eq!(stdout(&csp(&["queens", "1"])), "Q\n");
}

#[test]
fn json_is_leetcode_51s_output_shape() {
    let out = csp(&["queens", "4", "--format", "json"]);
    assert_eq!(
        stdout(&out),
        "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]\n"
    );
    let parsed: Vec<Vec<String>> = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(parsed.len(), 2);
    let eight: Vec<Vec<String>> =
        serde_json::from_str(&stdout(&csp(&["queens", "8", "--format", "json"]))).unwrap();
    assert_eq!(eight.len(), 92);
}

#[test]
fn cols_prints_zero_based_columns_one_solution_per_line() {
    assert_eq!(
        stdout(&csp(&["queens", "4", "--format", "cols"])),
        "1 3 0 2\n2 0 3 1\n"
    );
}

#[test]
fn the_empty_glyph_is_configurable() {
    let out = stdout(&csp(&["queens", "4", "--empty-char", "#", "--first"]));
    assert_eq!(out, "#Q##\n###Q\nQ###\n##Q#\n");
}

#[test]
fn count_prints_the_number_alone() {
    assert_eq!(stdout(&csp(&["queens", "8", "--count"])), "92\n");
    // A count cut by --limit says there may be more.
    assert_eq!(
        stdout(&csp(&["queens", "8", "--count", "--limit", "5"])),
        "5+\n"
    );
    assert_eq!(
        stdout(&csp(&["queens", "8", "--count", "--engine", "csp"])),
        "92\n"
    );
}

#[test]
fn first_and_limit_stop_early_in_order() {
    let all = stdout(&csp(&["queens", "8", "--format", "cols"]));
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 92);
    let first = stdout(&csp(&["queens", "8", "--format", "cols", "--first"]));
    assert_eq!(first, format!("{}\n", lines[0]));
    let five = stdout(&csp(&["queens", "8", "--format", "cols", "--limit", "5"]));
    assert_eq!(
        five,
        lines[..5]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    );
    let bitmask = stdout(&csp(&[
        "queens", "8", "--format", "cols", "--engine", "bitmask",
    ]));
    assert_eq!(bitmask, all);
}

#[test]
fn the_empty_board_has_one_solution() {
    for format in ["board", "cols"] {
        let out = csp(&["queens", "0", "--format", format]);
        assert_eq!((stdout(&out).as_str(), out.status.code()), ("\n", Some(0)));
    }
    assert_eq!(stdout(&csp(&["queens", "0", "--format", "json"])), "[[]]\n");
    assert_eq!(stdout(&csp(&["queens", "0", "--count"])), "1\n");
}

#[test]
fn two_and_three_queens_have_no_solution() {
    for n in ["2", "3"] {
        let out = csp(&["queens", n]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(stdout(&out), "");
        assert!(stderr(&out).contains("no solution"), "{}", stderr(&out));
        let json = csp(&["queens", n, "--format", "json"]);
        assert_eq!(
            (stdout(&json).as_str(), json.status.code()),
            ("[]\n", Some(1))
        );
        let count = csp(&["queens", n, "--count"]);
        assert_eq!(
            (stdout(&count).as_str(), count.status.code()),
            ("0\n", Some(0))
        );
    }
}

#[test]
fn min_conflicts_finds_a_valid_board_and_refuses_what_it_cannot_do() {
    for n in ["1", "8", "1000"] {
        let out = csp(&[
            "queens",
            n,
            "--engine",
            "min-conflicts",
            "--first",
            "--format",
            "cols",
        ]);
        assert_eq!(out.status.code(), Some(0));
        let columns: Vec<usize> = stdout(&out)
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        assert_attack_free(&columns, n.parse().unwrap());
    }
    assert_eq!(
        csp(&["queens", "3", "--engine", "min-conflicts", "--first"])
            .status
            .code(),
        Some(1)
    );
    let listing = csp(&["queens", "8", "--engine", "min-conflicts"]);
    assert_eq!(listing.status.code(), Some(2));
    assert!(stderr(&listing).contains("use --first"));
}

/// Checked here independently of the engine: `columns` is a permutation of 0..n with no two
/// queens on one diagonal.
fn assert_attack_free(columns: &[usize], n: usize) {
    assert_eq!(columns.len(), n);
    let mut sorted = columns.to_vec();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..n).collect::<Vec<_>>());
    let up: std::collections::HashSet<usize> =
        columns.iter().enumerate().map(|(r, &c)| r + c).collect();
    let down: std::collections::HashSet<usize> = columns
        .iter()
        .enumerate()
        .map(|(r, &c)| r + n - c)
        .collect();
    assert_eq!((up.len(), down.len()), (n, n));
}

/// Checks that a `--first --format cols --stats=json` run printed an attack-free board of
/// `n` queens, and returns its statistics.
fn board_and_stats(out: &std::process::Output, n: usize) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    let columns: Vec<usize> = stdout(out)
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    assert_attack_free(&columns, n);
    serde_json::from_str(stderr(out).trim()).unwrap()
}

#[test]
fn mrv_for_one_board_restarts_random_values_unless_told_otherwise() {
    // With ascending values mrv does not finish N = 2,000 in a minute (README); by default a
    // dynamic order looking for one board draws random values and restarts.
    let out = csp(&[
        "queens",
        "2000",
        "--first",
        "--var-order",
        "mrv",
        "--format",
        "cols",
        "--time-limit",
        "120",
        "--stats=json",
    ]);
    let stats = board_and_stats(&out, 2000);
    assert_eq!(stats["val_order"], "random(1)", "{stats}");
    assert_eq!(stats["restart_scale"], 100, "{stats}");
    // Input order, and an explicit value order, keep their ascending or asked-for search.
    for (args, order) in [
        (vec!["--var-order", "input"], "asc"),
        (vec!["--var-order", "mrv", "--val-order", "asc"], "asc"),
    ] {
        let mut all = vec!["queens", "8", "--first", "--stats=json"];
        all.extend(args);
        let stats: serde_json::Value = serde_json::from_str(stderr(&csp(&all)).trim()).unwrap();
        assert_eq!(stats["val_order"], order, "{all:?}");
        assert!(stats.get("restart_scale").is_none(), "{all:?}");
    }
}

#[test]
fn restarts_find_a_valid_board_and_are_refused_where_they_would_repeat_solutions() {
    // Seed 2 at N = 500 fails often enough for a budget of 1, 1, 2, ... failures to restart.
    let args = [
        "queens",
        "500",
        "--first",
        "--var-order",
        "mrv",
        "--val-order",
        "random",
        "--seed",
        "2",
        "--restarts",
        "1",
        "--format",
        "cols",
        "--stats=json",
    ];
    let out = csp(&args);
    let stats = board_and_stats(&out, 500);
    assert!(stats["restarts"].as_u64().unwrap() >= 1, "{stats}");
    // The same seed and schedule give the same search.
    assert_eq!(stdout(&csp(&args)), stdout(&out));
    // The trace says where the search went back to the top; the board it draws next starts
    // empty again (the queens of the dropped path are taken back first).
    let traced = csp(&[
        "queens",
        "8",
        "--first",
        "--inference",
        "none",
        "--val-order",
        "random",
        "--seed",
        "1",
        "--restarts",
        "1",
        "--trace",
    ]);
    assert_eq!(traced.status.code(), Some(0));
    let text = stdout(&traced);
    let after = text
        .split("restart 1:")
        .nth(1)
        .expect("a restart in the trace");
    let first_board: Vec<&str> = after.lines().skip(4).take(8).map(str::trim).collect();
    assert_eq!(
        first_board
            .iter()
            .map(|l| l.matches('Q').count())
            .sum::<usize>(),
        1,
        "{after}"
    );
    for refused in [
        vec!["queens", "8", "--restarts", "10"],
        vec!["queens", "8", "--count", "--restarts", "10"],
        vec!["queens", "8", "--limit", "2", "--restarts", "10"],
        vec!["queens", "8", "--first", "--restarts", "0"],
        vec![
            "queens",
            "8",
            "--first",
            "--engine",
            "bitmask",
            "--restarts",
            "10",
        ],
    ] {
        let out = csp(&refused);
        assert_eq!(out.status.code(), Some(2), "{refused:?}");
        assert!(
            stderr(&out).contains("--restarts"),
            "{refused:?}: {}",
            stderr(&out)
        );
    }
}
