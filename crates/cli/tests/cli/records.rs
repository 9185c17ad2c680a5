//! The records of a search: `--trace-json` against its schema, `--tree`, `--format svg`, and
//! the replay page in a headless browser.

use crate::common::{csp, stderr, stdout};
use crate::json_schema::Validator;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("csp-records-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_trace_json_validates_against_the_documented_schema() {
    let schema_path = format!(
        "{}/../../docs/trace-schema.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = Validator::new(schema).unwrap();
    let dir = scratch("json");
    for (args, problem) in [
        (vec!["queens", "6"], "6-queens"),
        (
            vec!["queens", "5", "--inference", "none", "--first"],
            "5-queens",
        ),
        (
            vec!["queens", "6", "--inference", "mac", "--encoding", "binary"],
            "6-queens",
        ),
    ] {
        let path = dir.join("trace.jsonl");
        let mut full = args.clone();
        full.extend(["--trace-json", path.to_str().unwrap(), "--format", "cols"]);
        let out = csp(&full);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        for (i, line) in lines.iter().enumerate() {
            let errors = validator.errors(line);
            assert!(errors.is_empty(), "{args:?} line {}: {errors:?}", i + 1);
        }
        assert_eq!(lines[0]["problem"], problem);
        assert_eq!(lines[0]["version"], 1);
        let solutions = lines.iter().filter(|l| l["event"] == "solution").count();
        assert_eq!(solutions, stdout(&out).lines().count(), "{args:?}");
        let assigns = lines.iter().filter(|l| l["event"] == "assign").count();
        let backtracks = lines.iter().filter(|l| l["event"] == "backtrack").count();
        assert!(assigns >= backtracks && assigns > 0);
    }
    // The schema (and its validator) is not a rubber stamp: each of these lines fails it.
    for bad in [
        serde_json::json!({"event": "assign", "var": -1, "value": 0, "depth": 1}),
        serde_json::json!({"event": "assign", "var": 0, "value": 0}),
        serde_json::json!({"event": "assign", "var": 0, "value": 0, "depth": 1, "x": 1}),
        serde_json::json!({"event": "prune", "var": 0, "value": "1", "by": 2}),
        serde_json::json!({"event": "solution", "values": [1, 2.5]}),
        serde_json::json!({"event": "jump", "var": 0}),
        serde_json::json!({"schema": "csp-trace", "version": 2, "problem": "p", "config": "c",
            "variables": [], "constraints": []}),
    ] {
        assert!(!validator.errors(&bad).is_empty(), "{bad} passed");
    }
    let good = serde_json::json!({"event": "wipeout", "var": 3, "by": -1});
    assert_eq!(validator.errors(&good), Vec::<String>::new());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_tree_is_dot_with_one_node_per_assignment() {
    let dir = scratch("tree");
    let path = dir.join("tree.dot");
    let out = csp(&[
        "queens",
        "4",
        "--tree",
        path.to_str().unwrap(),
        "--inference",
        "fc",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let dot = std::fs::read_to_string(&path).unwrap();
    assert!(dot.starts_with("digraph search {") && dot.trim_end().ends_with('}'));
    // 4-queens under fc with input order tries 8 assignments; two are solutions.
    let stats = csp(&["queens", "4", "--stats=json"]);
    let nodes = serde_json::from_str::<serde_json::Value>(stderr(&stats).trim()).unwrap()["nodes"]
        .as_u64()
        .unwrap();
    let drawn = dot.lines().filter(|l| l.contains("[label=\"row ")).count() as u64;
    assert_eq!(drawn, nodes);
    assert_eq!(dot.matches("peripheries=2").count(), 2, "two solutions");
    assert_eq!(dot.matches(" -> ").count() as u64, nodes);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn svg_boards_draw_every_queen_and_every_sudoku_cell() {
    let queens = stdout(&csp(&["queens", "6", "--format", "svg"]));
    assert!(queens.starts_with("<svg") && queens.trim_end().ends_with("</svg>"));
    assert_eq!(
        queens.matches('\u{265B}').count(),
        4 * 6,
        "four boards of six queens"
    );
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let grid = stdout(&csp(&["sudoku", "--puzzle", puzzle, "--format", "svg"]));
    assert_eq!(
        grid.matches("font-weight=\"bold\"").count(),
        30,
        "the 30 givens stand apart"
    );
    assert_eq!(
        grid.matches("font-weight=\"normal\"").count(),
        51,
        "the 51 filled cells"
    );
}

#[test]
fn the_replay_page_steps_in_a_headless_browser() {
    let dir = scratch("html");
    let page = dir.join("replay.html");
    let out = csp(&["compare", "queens", "6", "--html", page.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "self-contained: nothing to fetch"
    );
    assert!(!html.contains("/*DATA*/"));
    let single = dir.join("single.html");
    let out = csp(&[
        "sudoku",
        "--puzzle",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "--html",
        single.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    for (path, panels) in [(&page, 2), (&single, 1)] {
        let Some(report) = crate::browser::self_test(path) else {
            return;
        };
        assert_eq!(
            report["problems"],
            serde_json::json!([]),
            "console errors: {report}"
        );
        assert_eq!(report["panels"], panels);
        assert_eq!(report["forwardChangesBoard"], true, "{report}");
        assert_eq!(report["backChangesBoard"], true, "{report}");
        assert_eq!(report["replayIsDeterministic"], true, "{report}");
        assert_eq!(report["forwardPosition"], 3);
        assert!(report["steps"].as_u64().unwrap() > 10);
    }
    crate::browser::screenshot_if_available(&page, &dir.join("replay.png"), (1200, 800));
    std::fs::remove_dir_all(&dir).unwrap();
}
