//! `csp compare`: the table in each format, the ratios, the warnings, the sweep plot.

use crate::common::{csp, stderr, stdout};

#[test]
fn queens_8_compares_none_fc_and_mac_with_nodes_falling_in_that_order() {
    let out = csp(&["compare", "queens", "8"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect())
        .collect();
    let names: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    assert_eq!(names, ["none", "fc", "mac", "lcg"]);
    let nodes: Vec<u64> = rows.iter().map(|r| r[3].parse().unwrap()).collect();
    assert!(nodes[0] > nodes[1] && nodes[1] > nodes[2], "{nodes:?}");
    // Learning shows its own columns: nogoods learned, their length, the jump back.
    assert!(
        text.contains("avg length") && text.contains("avg jump"),
        "{text}"
    );
    assert_eq!(
        rows[0][4], "1.00x",
        "ratios are relative to the first configuration"
    );
    assert!(text.contains("ratio"));
    assert_eq!(stderr(&out), "", "no warning on queens 8");
}

#[test]
fn csv_and_json_parse_and_agree() {
    let csv = stdout(&csp(&["compare", "queens", "8", "--format", "csv"]));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("n,config,outcome,solutions,nodes,backtracks,checks,pruned,time_ms,learned,learned_atoms,backjump_levels,objective")
    );
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect();
    assert_eq!(rows.len(), 4);
    for row in &rows {
        assert_eq!(row.len(), 13);
        assert_eq!(row[0], "8");
        assert_eq!(row[2], "solved");
        row[8].parse::<f64>().unwrap();
    }
    let json: serde_json::Value = serde_json::from_str(&stdout(&csp(&[
        "compare", "queens", "8", "--format", "json",
    ])))
    .unwrap();
    let list = json.as_array().unwrap();
    assert_eq!(list.len(), 4);
    for (row, value) in rows.iter().zip(list) {
        assert_eq!(value["config"], row[1].as_str());
        assert_eq!(value["nodes"].as_u64().unwrap().to_string(), row[4]);
    }
    assert_eq!(list[0]["relative"]["nodes"], 1.0);
}

#[test]
fn with_and_configs_name_each_configuration() {
    let csv = stdout(&csp(&[
        "compare", "queens", "6", "--with", "mrv,lcv", "--format", "csv",
    ]));
    let names: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "none", "none+mrv", "none+lcv", "fc", "fc+mrv", "fc+lcv", "mac", "mac+mrv", "mac+lcv",
            "lcg"
        ]
    );
    // lcg branches on the most active variables and values: a heuristic it would not follow
    // makes no configuration of its own, and naming one is refused.
    let refused = csp(&["compare", "queens", "6", "--configs", "mac,lcg+mrv"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr(&refused).contains("lcg does not follow 'mrv'"));
    let csv = stdout(&csp(&[
        "compare",
        "queens",
        "6",
        "--configs",
        "none,fc+mrv,mac+dom-wdeg+lcv",
        "--format",
        "csv",
        "--all",
    ]));
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(
        rows.iter().map(|r| r[1]).collect::<Vec<_>>(),
        ["none", "fc+mrv", "mac+dom-wdeg+lcv"]
    );
    assert!(
        rows.iter().all(|r| r[2] == "exhausted" && r[3] == "4"),
        "--all finds all 4"
    );
    let bad = csp(&["compare", "queens", "6", "--configs", "fc+fast"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("'fast' is not a heuristic"));
}

#[test]
fn the_warning_fires_when_a_comparison_teaches_nothing() {
    let out = csp(&["compare", "queens", "1"]);
    assert_eq!(out.status.code(), Some(0));
    let warning = stderr(&out);
    assert!(
        warning.contains("every configuration explored the same 1 node;"),
        "{warning}"
    );
    assert!(warning.contains("settles it at the root"), "{warning}");
    // A sudoku that arc consistency settles at the root: LeetCode 37 (an easy one).
    let easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let out = csp(&["compare", "sudoku", "--puzzle", easy]);
    assert!(
        stderr(&out).contains("1 of 1 puzzle is settled by arc consistency at the root"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_limit_shows_as_limit_in_the_table_which_exits_0() {
    let out = csp(&[
        "compare",
        "queens",
        "20",
        "--all",
        "--node-limit",
        "500",
        "--format",
        "csv",
    ]);
    // The table was asked for and printed; the rows say the limit stopped them.
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out)
        .lines()
        .skip(1)
        .all(|l| l.split(',').nth(2) == Some("limit")));
}

#[test]
fn a_sweep_has_one_row_per_n_and_configuration_and_draws_a_plot() {
    let dir = std::env::temp_dir().join(format!("csp-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plot = dir.join("q.svg");
    let out = csp(&[
        "compare",
        "queens",
        "4..12",
        "--plot",
        plot.to_str().unwrap(),
        "--format",
        "csv",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let rows: Vec<String> = stdout(&out).lines().skip(1).map(str::to_owned).collect();
    assert_eq!(rows.len(), 9 * 4);
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for label in [
        "nodes against N",
        "time against N",
        "none",
        "fc",
        "mac",
        "N-Queens",
    ] {
        assert!(svg.contains(label), "{label}");
    }
    crate::browser::screenshot_if_available(&plot, &dir.join("plot.png"), (1100, 520));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sudoku_and_colour_comparisons_sum_and_compare() {
    let data = format!(
        "{}/../sudoku/tests/data/hardest.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let csv = stdout(&csp(&[
        "compare",
        "sudoku",
        &data,
        "--configs",
        "fc+mrv,mac+mrv",
        "--format",
        "csv",
    ]));
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 2);
    assert!(
        rows.iter().all(|r| r[0].is_empty() && r[3] == "11"),
        "11 puzzles solved each: {csv}"
    );
    let graph = format!(
        "{}/../coloring/tests/data/myciel4.col",
        env!("CARGO_MANIFEST_DIR")
    );
    let csv = stdout(&csp(&[
        "compare", "color", &graph, "--colors", "4", "--format", "csv",
    ]));
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert!(
        rows.iter().all(|r| r[2] == "exhausted" && r[3] == "0"),
        "no 4-colouring, in every mode"
    );
}
