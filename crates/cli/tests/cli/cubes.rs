//! The array route: `csp split`, one `csp fzn|xcsp3 --cube` per cube with its index in
//! `SLURM_ARRAY_TASK_ID` (or Kubernetes' `JOB_COMPLETION_INDEX`), and `csp merge`: the
//! answers of the whole model (OEIS A000170, ACE's counts and optima), and a missing result
//! named.

use crate::common::{csp, csp_command, oeis_a000170, stderr, stdout};
use std::path::{Path, PathBuf};

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("csp-cubes-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// N-Queens in FlatZinc, as MiniZinc flattens it: one variable per row, `!=` on columns and
/// both diagonals.
fn queens_fzn(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("var 1..{n}: q{i} :: output_var;\n"));
    }
    for i in 0..n {
        for j in i + 1..n {
            let d = j - i;
            text.push_str(&format!("constraint int_ne(q{i}, q{j});\n"));
            text.push_str(&format!(
                "constraint int_lin_ne([1, -1], [q{i}, q{j}], {d});\n"
            ));
            text.push_str(&format!(
                "constraint int_lin_ne([1, -1], [q{i}, q{j}], -{d});\n"
            ));
        }
    }
    text.push_str("solve satisfy;\n");
    text
}

/// Splits `model` into about `cubes`, runs each cube as an array task would (`command`,
/// then `args`, the index from `index_variable`), and returns the cubes file and the result
/// files.
fn run_array(
    dir: &Path,
    command: &str,
    model: &str,
    args: &[&str],
    cubes: usize,
    index_variable: &str,
) -> (PathBuf, Vec<PathBuf>) {
    let split = csp(&["split", model, "--cubes", &cubes.to_string()]);
    assert_eq!(split.status.code(), Some(0), "{}", stderr(&split));
    let cubes_file = dir.join("cubes.jsonl");
    std::fs::write(&cubes_file, stdout(&split)).unwrap();
    let count = stdout(&split).lines().count();
    let mut results = Vec::new();
    for i in 0..count {
        let result = dir.join(format!("{i}.json"));
        let mut full = vec![command, model];
        full.extend_from_slice(args);
        let cube = cubes_file.to_str().unwrap();
        full.extend(["--cube", cube, "--result", result.to_str().unwrap()]);
        let out = csp_command(&full)
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX")
            .env(index_variable, i.to_string())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "cube {i}: {}", stderr(&out));
        results.push(result);
    }
    (cubes_file, results)
}

fn merge(results: &[PathBuf]) -> std::process::Output {
    let mut args = vec!["merge"];
    args.extend(results.iter().map(|r| r.to_str().unwrap()));
    csp(&args)
}

#[test]
fn queens_counts_through_a_slurm_array_match_a000170() {
    let oeis = oeis_a000170();
    for (n, &expected) in oeis.iter().enumerate().take(9).skip(1) {
        let dir = folder(&format!("queens{n}"));
        let model = dir.join("queens.fzn");
        std::fs::write(&model, queens_fzn(n)).unwrap();
        let model = model.to_str().unwrap();
        let (_, results) = run_array(&dir, "fzn", model, &["-a"], 7, "SLURM_ARRAY_TASK_ID");
        if results.is_empty() {
            // Propagation alone refuted every part: the split says so, and it is right.
            assert_eq!(expected, 0, "n = {n}: no cube, yet solutions");
            continue;
        }
        let merged = merge(&results);
        assert_eq!(
            stdout(&merged).lines().next(),
            Some(format!("count {expected} (complete)").as_str()),
            "n = {n}"
        );
        assert_eq!(merged.status.code(), Some(0));
    }
}

#[test]
fn a_missing_result_is_named_and_the_count_is_not_claimed() {
    let dir = folder("missing");
    let model = dir.join("queens.fzn");
    std::fs::write(&model, queens_fzn(6)).unwrap();
    let (_, results) = run_array(
        &dir,
        "fzn",
        model.to_str().unwrap(),
        &["-a"],
        5,
        "JOB_COMPLETION_INDEX",
    );
    assert!(results.len() >= 3);
    std::fs::remove_file(&results[2]).unwrap();
    // A task that died while writing leaves a file that is not a result: named, not taken.
    std::fs::write(&results[1], "{\"cube\": 1, \"of\"").unwrap();
    let merged = merge(&results);
    assert_eq!(merged.status.code(), Some(3), "{}", stdout(&merged));
    let text = stdout(&merged);
    assert!(text.starts_with("count at least"), "{text}");
    assert!(text.contains("missing: 1, 2\n"), "{text}");
    assert!(
        stderr(&merged).contains("1.json: not a cube result"),
        "{}",
        stderr(&merged)
    );
}

/// The XCSP3 instances copied into crates/xcsp3, with ACE's answers.
fn xcsp3_instance(name: &str) -> String {
    format!(
        "{}/../xcsp3/tests/data/{name}.xml.lzma",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The first line `csp merge` prints for `name`'s cubes, searched with `args`.
fn merged_answer(name: &str, args: &[&str], cubes: usize) -> String {
    let dir = folder(name);
    let instance = xcsp3_instance(name);
    let (_, results) = run_array(&dir, "xcsp3", &instance, args, cubes, "SLURM_ARRAY_TASK_ID");
    stdout(&merge(&results)).lines().next().unwrap().to_owned()
}

/// ACE's answer for `name` in `table` (its lines `KIND/NAME.xml,VALUE`).
fn ace(table: &str, kind: &str, name: &str) -> String {
    let prefix = format!("{kind}/{name}.xml,");
    let line = table.lines().find(|l| l.starts_with(&prefix)).unwrap();
    line[prefix.len()..].to_owned()
}

#[test]
fn xcsp3_counts_and_optima_through_cubes_equal_aces() {
    let counts = include_str!("../../../xcsp3/tests/data/expected_counts.csv");
    for name in ["Zebra", "AllInterval-10", "MagicSequence-10"] {
        let expected = ace(counts, "csp", name);
        let answer = merged_answer(name, &["--count"], 12);
        assert_eq!(answer, format!("count {expected} (complete)"), "{name}");
    }
    let optima = include_str!("../../../xcsp3/tests/data/expected_optima.csv");
    for name in ["Recipe", "Knapsack-Knapsack_20-50-00"] {
        let expected = ace(optima, "cop", name);
        assert_eq!(
            merged_answer(name, &[], 10),
            format!("optimum {expected}"),
            "{name}"
        );
    }
}

#[test]
fn a_bound_from_elsewhere_leaves_a_cube_only_better_and_a_cube_of_another_model_is_refused() {
    let dir = folder("bound");
    let knapsack = format!("{}/tests/data/fzn/knapsack.fzn", env!("CARGO_MANIFEST_DIR"));
    let split = csp(&["split", &knapsack, "--cubes", "1"]);
    let cubes = dir.join("cubes.jsonl");
    std::fs::write(&cubes, stdout(&split)).unwrap();
    let whole = format!("{}:0", cubes.display());
    // The optimum is 15 (brute force over the 32 choices of items).
    let found = csp(&["fzn", &knapsack, "--cube", &whole]);
    assert!(
        stdout(&found).contains("\"objective\":15"),
        "{}",
        stdout(&found)
    );
    let nothing_better = csp(&["fzn", &knapsack, "--cube", &whole, "--bound", "15"]);
    let text = stdout(&nothing_better);
    assert!(
        text.contains("\"complete\":true") && text.contains("\"solutions\":0"),
        "{text}"
    );
    let other = dir.join("queens.fzn");
    std::fs::write(&other, queens_fzn(5)).unwrap();
    let refused = csp(&["fzn", other.to_str().unwrap(), "-a", "--cube", &whole]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("cube 0 was cut from another model"),
        "{}",
        stderr(&refused)
    );
    let beyond = csp(&[
        "fzn",
        &knapsack,
        "--cube",
        &format!("{}:5", cubes.display()),
    ]);
    assert_eq!(beyond.status.code(), Some(2));
    assert!(
        stderr(&beyond).contains("cube 5 asked for"),
        "{}",
        stderr(&beyond)
    );
}
