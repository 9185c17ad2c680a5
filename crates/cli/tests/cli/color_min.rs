//! `csp color --min` against answers from elsewhere: the queen graphs' chromatic numbers
//! (OEIS A088202), brute force on small random graphs, and a user's loop of `--colors K`.

use crate::common::{csp, queen_edges, stderr, stdout};

/// A graph written to a temporary DIMACS file; removed when dropped.
struct GraphFile {
    path: std::path::PathBuf,
    vertices: usize,
    edges: Vec<(usize, usize)>,
}

impl GraphFile {
    fn new(name: &str, vertices: usize, edges: Vec<(usize, usize)>) -> Self {
        let mut text = format!("c {name}\np edge {vertices} {}\n", edges.len());
        for (u, v) in &edges {
            text.push_str(&format!("e {} {}\n", u + 1, v + 1));
        }
        let path = std::env::temp_dir().join(format!("csp-min-{}-{name}.col", std::process::id()));
        std::fs::write(&path, text).unwrap();
        GraphFile {
            path,
            vertices,
            edges,
        }
    }

    fn path(&self) -> &str {
        self.path.to_str().unwrap()
    }

    /// Checks `vertex color` lines: every vertex once, colours 1..=k, no edge within a colour.
    fn assert_coloured(&self, printed: &str, k: usize) {
        let colors: Vec<usize> = printed
            .lines()
            .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(colors.len(), self.vertices);
        assert!(colors.iter().all(|&c| (1..=k).contains(&c)), "{printed}");
        for &(u, v) in &self.edges {
            assert_ne!(colors[u], colors[v], "edge {u}-{v}");
        }
    }
}

impl Drop for GraphFile {
    fn drop(&mut self) {
        std::fs::remove_file(&self.path).ok();
    }
}

/// The n x n queen graph: cells, adjacent when they share a row, a column or a diagonal.
fn queen_graph(n: usize) -> GraphFile {
    GraphFile::new(&format!("queen{n}_{n}"), n * n, queen_edges(n))
}

/// G(n, percent/100) from a seeded 64-bit linear congruential sequence (Knuth's MMIX constants).
fn random_graph(n: usize, percent: u64, seed: u64) -> GraphFile {
    let mut state = seed;
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if (state >> 33) % 100 < percent {
                edges.push((u, v));
            }
        }
    }
    GraphFile::new(&format!("g{n}_{percent}_{seed}"), n, edges)
}

/// The K of the `colors K optimal` line, or of `colors K best found, not proven`.
fn colors_line(report: &str) -> (usize, bool) {
    let line = report
        .lines()
        .find(|l| l.starts_with("colors "))
        .unwrap_or_else(|| panic!("no colors line: {report}"));
    let k = line.split(' ').nth(1).unwrap().parse().unwrap();
    (k, line.ends_with(" optimal"))
}

/// OEIS A088202, the chromatic number of the n x n queen graph, from n = 1.
fn a088202() -> Vec<usize> {
    include_str!("../../../../tests/data/queen_graph_chromatic_A088202.txt")
        .lines()
        .find_map(|l| l.strip_prefix("%S A088202 "))
        .unwrap()
        .split(',')
        .map(|w| w.trim().parse().unwrap())
        .collect()
}

/// With arc consistency up to 8x8 and with learning up to 9x9 (queen8_8 takes about 0.5 s
/// and 0.2 s, queen9_9 about 4 s with learning). The issue asks for each within 60 s: that
/// is the limit given, so a slower proof fails here.
#[test]
fn min_proves_the_chromatic_number_of_the_queen_graphs_up_to_9x9() {
    let published = a088202();
    let runs = (1..=8)
        .map(|n| ("mac", n))
        .chain((1..=9).map(|n| ("lcg", n)));
    for (inference, n) in runs {
        let graph = queen_graph(n);
        let out = csp(&[
            "color",
            graph.path(),
            "--min",
            "--inference",
            inference,
            "--time-limit",
            "60",
        ]);
        let report = stderr(&out);
        assert_eq!(
            out.status.code(),
            Some(0),
            "queen{n}_{n} {inference}: {report}"
        );
        assert_eq!(
            colors_line(&report),
            (published[n - 1], true),
            "n = {n}, {inference}"
        );
        graph.assert_coloured(&stdout(&out), published[n - 1]);
        // A row is a clique of n, so the largest is at least as large, and the search for
        // it runs to its end on graphs this small.
        let clique: usize = report
            .split("a clique of ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(clique >= n && clique <= published[n - 1], "{report}");
        assert!(report.contains("(none is larger)"), "{report}");
    }
}

/// The chromatic number by trying every colouring with 1, 2, ... colours.
fn brute_force_chromatic(graph: &GraphFile) -> usize {
    let n = graph.vertices;
    (1..=n.max(1))
        .find(|&k| {
            (0..k.pow(n as u32)).any(|code| {
                let color = |v: usize| code / k.pow(v as u32) % k;
                graph.edges.iter().all(|&(u, v)| color(u) != color(v))
            })
        })
        .unwrap()
}

#[test]
fn min_matches_brute_force_on_small_random_graphs() {
    for seed in 0..40u64 {
        let n = 1 + (seed as usize * 7) % 8;
        let graph = random_graph(n, 20 + seed * 2, seed);
        let chi = brute_force_chromatic(&graph);
        let out = csp(&["color", graph.path(), "--min"]);
        assert_eq!(out.status.code(), Some(0), "seed {seed}");
        assert_eq!(
            colors_line(&stderr(&out)),
            (chi, true),
            "seed {seed}, n = {n}"
        );
        graph.assert_coloured(&stdout(&out), chi);
    }
}

/// A user without `--min` tries `--colors K` for K = n, n - 1, ... until one fails: `--min`
/// under the same time limit ends at least as low. On G(70, 0.5), DSATUR alone is 1 to 3
/// colours above where that loop ends.
#[test]
fn min_does_at_least_as_well_as_a_loop_of_colors_k() {
    let graph = random_graph(70, 50, 3);
    let limit = "3";
    let min = csp(&["color", graph.path(), "--min", "--time-limit", limit]);
    let (reached, _) = colors_line(&stderr(&min));
    graph.assert_coloured(&stdout(&min), reached);
    let mut loop_low = graph.vertices;
    for k in (1..graph.vertices).rev() {
        let out = csp(&[
            "color",
            graph.path(),
            "--colors",
            &k.to_string(),
            "--time-limit",
            limit,
        ]);
        if out.status.code() != Some(0) {
            break;
        }
        graph.assert_coloured(&stdout(&out), k);
        loop_low = k;
    }
    assert!(
        reached <= loop_low,
        "--min ends at {reached}, the loop at {loop_low}"
    );
}

/// `--seed` seeds TabuCol under `--min` (the help says so), and is refused where nothing
/// random runs.
#[test]
fn seed_is_taken_by_min_and_refused_by_colors_k() {
    let graph = queen_graph(6);
    for seed in ["1", "7"] {
        let out = csp(&["color", graph.path(), "--min", "--seed", seed]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(colors_line(&stderr(&out)), (a088202()[5], true));
    }
    let out = csp(&["color", graph.path(), "--colors", "7", "--seed", "7"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--seed applies to"),
        "{}",
        stderr(&out)
    );
}
