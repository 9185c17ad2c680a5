//! Running the binary and reading what it printed.

use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub fn csp_command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_csp"));
    command.args(args);
    command
}

/// Whether `program` runs here (a peer solver, MiniZinc, a checker).
pub fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("--help")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// Runs `csp` with `args` to completion.
pub fn csp(args: &[&str]) -> Output {
    csp_command(args).stdin(Stdio::null()).output().unwrap()
}

/// The n x n queen graph's edges, vertices numbered from 0 row by row: squares adjacent when
/// they share a row, a column or a diagonal (DIMACS's queenN_N).
pub fn queen_edges(n: usize) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for a in 0..n * n {
        for b in a + 1..n * n {
            let (r1, c1, r2, c2) = (a / n, a % n, b / n, b % n);
            if r1 == r2 || c1 == c2 || r1.abs_diff(r2) == c1.abs_diff(c2) {
                edges.push((a, b));
            }
        }
    }
    edges
}

/// A graph in DIMACS .col text: the `p` line, then an `e` line per edge, numbered from 1.
pub fn dimacs(vertices: usize, edges: &[(usize, usize)]) -> String {
    let mut text = format!("p edge {vertices} {}\n", edges.len());
    for (u, v) in edges {
        text.push_str(&format!("e {} {}\n", u + 1, v + 1));
    }
    text
}

/// A FlatZinc model whose search finds `burst` solutions at once, then searches for a long
/// time without finding more: `b` is branched on first; for `b` up to `burst` every pigeon
/// sits in hole 1, and `b = burst + 1` asks for `pigeons` pigeons in one hole fewer, all apart
/// (no solution, and about (pigeons - 1)! nodes under binary `!=` to show it). `solve` is
/// `satisfy`, or `maximize b` for a run of improving solutions before the long search.
pub fn burst_then_long_search(burst: usize, pigeons: usize, solve: &str) -> String {
    let holes = pigeons - 1;
    let mut text = format!("var 1..{}: b :: output_var;\nvar bool: s;\n", burst + 1);
    for i in 1..=pigeons {
        text.push_str(&format!(
            "var 1..{holes}: p{i} :: output_var;\nvar bool: e{i};\n"
        ));
    }
    let mut constraints = format!("constraint int_le_reif({}, b, s);\n", burst + 1);
    for i in 1..=pigeons {
        constraints.push_str(&format!(
            "constraint int_eq_reif(p{i}, 1, e{i});\nconstraint bool_clause([s, e{i}], []);\n"
        ));
        for j in i + 1..=pigeons {
            text.push_str(&format!("var bool: r{i}_{j};\n"));
            constraints.push_str(&format!(
                "constraint int_ne_reif(p{i}, p{j}, r{i}_{j});\n\
                 constraint bool_clause([r{i}_{j}], [s]);\n"
            ));
        }
    }
    let pigeon_list: Vec<String> = (1..=pigeons).map(|i| format!("p{i}")).collect();
    text.push_str(&constraints);
    text.push_str(&format!(
        "solve :: seq_search([int_search([b], input_order, indomain_min, complete), \
         int_search([{}], input_order, indomain_min, complete)]) {solve};\n",
        pigeon_list.join(", ")
    ));
    text
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Runs `csp` with `args`, writing `input` to its standard input.
pub fn csp_with_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = csp_command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Starts `csp` with piped stdout and stderr.
pub fn spawn(args: &[&str]) -> Child {
    csp_command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child`, reading its output as it comes (so it never blocks on a full pipe), and
/// kills it after `limit`: a hang watchdog, not a speed check.
pub fn wait_with_watchdog(child: Child, limit: Duration) -> Output {
    let pid = child.id().to_string();
    let done = Arc::new(AtomicBool::new(false));
    let watchdog = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let start = Instant::now();
            while !done.load(Ordering::Relaxed) {
                if start.elapsed() > limit {
                    let _ = Command::new("kill").args(["-KILL", &pid]).status();
                    return true;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            false
        })
    };
    let output = child.wait_with_output().unwrap();
    done.store(true, Ordering::Relaxed);
    assert!(
        !watchdog.join().unwrap(),
        "csp did not finish within {limit:?}"
    );
    output
}

/// The OEIS A000170 counts from the repository's copy, a(0) = 1 first.
pub fn oeis_a000170() -> Vec<u64> {
    let text = include_str!("../../../../tests/data/nqueens_oeis_counts.csv");
    let mut counts = vec![1];
    counts.extend(
        text.lines()
            .skip(1)
            .map(|line| line.split(',').nth(1).unwrap().parse::<u64>().unwrap()),
    );
    counts
}
