//! `--trace`, `--stats` and `--help`.

use crate::common::{csp, stderr, stdout};
use serde_json::Value;

#[test]
fn six_queens_trace_walks_the_search_step_by_step() {
    let out = csp(&["queens", "6", "--trace"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.starts_with("Tracing 6-queens"));
    assert!(text.contains("row 1: try column 1\n"));
    assert!(text.contains("forward checking rules out"));
    // Placing row 1's queen in column 1 rules out, in each row below, the column and the
    // diagonal square: grouped by row, rows and columns from 1.
    assert!(text.contains(
        "rules out (row -> columns): row 2 -> 1, 2; row 3 -> 1, 3; row 4 -> 1, 4; row 5 -> 1, 5; row 6 -> 1, 6\n"
    ));
    assert!(text.contains("has no column left"));
    assert!(text.contains("backtrack, take the queen off column"));
    // The four solutions of 6-queens, in order, 1-based.
    let solutions: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("solution "))
        .collect();
    assert_eq!(
        solutions,
        [
            "solution 1: columns 2 4 6 1 3 5",
            "solution 2: columns 3 6 2 5 1 4",
            "solution 3: columns 4 1 5 2 6 3",
            "solution 4: columns 5 3 1 6 4 2"
        ]
    );
    // Every try is followed by its fate.
    let tries = text.matches(": try column").count();
    let placed = text.matches("placed.").count();
    let failed = text.matches("fail: ").count();
    assert_eq!(tries, placed + failed);
}

#[test]
fn plain_backtracking_trace_names_the_attacking_queen() {
    let text = stdout(&csp(&["queens", "4", "--trace", "--inference", "none"]));
    assert!(text.contains("rejected: the queen in row 1 shares its column [column]."));
    assert!(text.contains("rejected: the queen in row 1 shares its diagonal [diagonal]."));
    assert!(!text.contains("rules out"));
}

#[test]
fn stats_json_is_one_object_with_every_counter() {
    let out = csp(&["queens", "8", "--count", "--engine", "csp", "--stats=json"]);
    assert_eq!(stdout(&out), "92\n");
    let stats: Value = serde_json::from_str(stderr(&out).trim()).unwrap();
    assert_eq!(stats["solutions"], 92);
    assert_eq!(stats["outcome"], "exhausted");
    assert_eq!(stats["partial"], false);
    assert_eq!(stats["inference"], "fc");
    for counter in [
        "nodes",
        "backtracks",
        "checks",
        "propagations",
        "pruned",
        "wipeouts",
        "max_depth",
        "elapsed_s",
    ] {
        assert!(stats[counter].is_number(), "{counter}");
    }
}

#[test]
fn stats_text_lists_the_counters_on_stderr() {
    let out = csp(&["queens", "6", "--stats", "--inference", "mac"]);
    let text = stderr(&out);
    assert!(text.starts_with("statistics for 6-queens (engine csp"));
    for label in [
        "solutions",
        "nodes",
        "backtracks",
        "checks",
        "pruned",
        "wipeouts",
    ] {
        assert!(text.contains(label), "{label}");
    }
    assert_eq!(stdout(&out).lines().filter(|l| l.is_empty()).count(), 3);
}

#[test]
fn help_shows_examples_and_exit_codes_and_version_answers() {
    for args in [&["--help"][..], &["queens", "--help"]] {
        let out = csp(args);
        assert_eq!(out.status.code(), Some(0));
        let text = stdout(&out);
        assert!(
            text.contains("Examples:") || text.contains("Defaults:"),
            "{args:?}"
        );
        assert!(text.contains("Exit status:"), "{args:?}");
        assert!(text.contains("143"), "{args:?}");
    }
    let version = csp(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert!(stdout(&version).starts_with("csp "));
}

#[test]
fn fzn_and_xcsp3_print_the_stats_they_list_in_their_help() {
    let data = env!("CARGO_MANIFEST_DIR");
    // Every solution of the knapsack: the JSON counts as many as stdout printed.
    let knapsack = format!("{data}/tests/data/fzn/knapsack.fzn");
    let out = csp(&["fzn", &knapsack, "-a", "--stats=json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stats: Value = serde_json::from_str(stderr(&out).trim()).unwrap();
    let printed = stdout(&out).lines().filter(|l| *l == "----------").count();
    assert!(printed > 0);
    assert_eq!(stats["solutions"], printed as u64);
    assert_eq!(stats["outcome"], "exhausted");
    let unsat = format!("{data}/tests/data/fzn/unsat.fzn");
    let out = csp(&["fzn", &unsat, "--stats"]);
    assert!(stdout(&out).contains("=====UNSATISFIABLE====="));
    assert!(
        stderr(&out).starts_with("statistics for "),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("nodes"));
    let zebra = format!("{data}/../xcsp3/tests/data/Zebra.xml.lzma");
    let out = csp(&["xcsp3", &zebra, "--stats=json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stats: Value = serde_json::from_str(stderr(&out).trim()).unwrap();
    assert!(stdout(&out).contains("s SATISFIABLE"));
    assert!(stats["solutions"].as_u64().unwrap() >= 1);
    assert!(stats["nodes"].as_u64().unwrap() >= 1);
    let out = csp(&["xcsp3", &zebra, "--stats"]);
    assert!(stderr(&out).contains("nodes"), "{}", stderr(&out));
}
