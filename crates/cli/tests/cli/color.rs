//! `csp color` on the DIMACS graphs: colourings, proofs of none, the chromatic number.

use crate::common::{csp, stderr, stdout};

fn graph(name: &str) -> String {
    format!(
        "{}/../coloring/tests/data/{name}.col",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The distinct edges of a DIMACS file, read here independently of the crate.
fn edges(name: &str) -> Vec<(usize, usize)> {
    std::fs::read_to_string(graph(name))
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("e "))
        .map(|l| {
            let f: Vec<usize> = l
                .split_whitespace()
                .skip(1)
                .map(|w| w.parse().unwrap())
                .collect();
            (f[0], f[1])
        })
        .collect()
}

/// Checks `vertex color` lines: every vertex once in order, colours in 1..=k, edges proper.
fn assert_proper(text: &str, name: &str, vertices: usize, k: usize) {
    let colors: Vec<usize> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let f: Vec<usize> = l.split(' ').map(|w| w.parse().unwrap()).collect();
            assert_eq!(f[0], i + 1, "vertex order");
            f[1]
        })
        .collect();
    assert_eq!(colors.len(), vertices);
    assert!(colors.iter().all(|&c| (1..=k).contains(&c)));
    for (u, v) in edges(name) {
        assert!(u == v || colors[u - 1] != colors[v - 1], "edge {u}-{v}");
    }
}

#[test]
fn myciel4_has_a_5_colouring_and_no_4_colouring() {
    let five = csp(&["color", &graph("myciel4"), "--colors", "5"]);
    assert_eq!(five.status.code(), Some(0));
    assert_proper(&stdout(&five), "myciel4", 23, 5);
    let four = csp(&["color", &graph("myciel4"), "--colors", "4"]);
    assert_eq!(four.status.code(), Some(1));
    assert_eq!(stdout(&four), "");
    assert!(
        stderr(&four).contains("no 4-colouring exists"),
        "{}",
        stderr(&four)
    );
}

#[test]
fn queen5_5_min_proves_5_and_notes_its_repeated_edges() {
    let out = csp(&["color", &graph("queen5_5"), "--min"]);
    assert_eq!(out.status.code(), Some(0));
    assert_proper(&stdout(&out), "queen5_5", 25, 5);
    let report = stderr(&out);
    assert!(report.lines().any(|l| l == "colors 5 optimal"), "{report}");
    assert!(
        report.contains("160 repeated edges counted once"),
        "{report}"
    );
}

#[test]
fn min_is_the_default_and_finds_each_published_chromatic_number() {
    for (name, vertices, chi) in [
        ("myciel3", 11, 4),
        ("myciel4", 23, 5),
        ("queen6_6", 36, 7),
        ("anna", 138, 11),
    ] {
        let out = csp(&["color", &graph(name)]);
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert_proper(&stdout(&out), name, vertices, chi);
        assert!(
            stderr(&out)
                .lines()
                .any(|l| l == format!("colors {chi} optimal")),
            "{name}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn a_clique_larger_than_k_is_named() {
    let out = csp(&["color", &graph("queen5_5"), "--colors", "4"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("form a clique of 5"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_node_limit_stops_the_proof_with_status_3() {
    let out = csp(&[
        "color",
        &graph("myciel4"),
        "--colors",
        "4",
        "--node-limit",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(3));
    let out = csp(&["color", &graph("myciel4"), "--min", "--node-limit", "10"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains("best found, not proven"),
        "{}",
        stderr(&out)
    );
    assert_proper(&stdout(&out), "myciel4", 23, 6);
}

#[test]
fn bad_dimacs_input_exits_2_naming_the_line() {
    let dir = std::env::temp_dir().join(format!("csp-color-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.col");
    std::fs::write(&path, "c test\np edge 3 2\ne 1 2\ne 2 9\n").unwrap();
    let out = csp(&["color", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 4: vertex 9 is not between 1 and 3"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
