//! Chromatic numbers of the DIMACS graphs, as published, and the DIMACS reader.

use coloring::{bounds, ColoringModel, DimacsGraph, DimacsReader};
use csp::{Inference, Outcome, Poller, Solver, VarOrder};
use std::ops::ControlFlow;

pub(crate) fn load(name: &str) -> DimacsGraph {
    let path = format!("{}/tests/data/{name}.col", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut reader = DimacsReader::new();
    for (i, line) in text.lines().enumerate() {
        reader.feed(i + 1, line).unwrap();
    }
    reader.finish(text.lines().count()).unwrap()
}

/// (instance, vertices, distinct edges, chromatic number) from chromatic_numbers.csv.
pub(crate) fn published() -> Vec<(String, usize, usize, u32)> {
    let path = format!(
        "{}/tests/data/chromatic_numbers.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].to_owned(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

fn colorable(read: &DimacsGraph, k: u32, inference: Inference) -> Option<Vec<u32>> {
    let clique = bounds::greedy_clique(&read.graph, &mut Poller::unlimited()).unwrap();
    if clique.len() > k as usize {
        return None;
    }
    let model = ColoringModel::new(&read.graph, k, &clique).unwrap();
    let mut found = None;
    let summary = Solver::new(&model.model)
        .inference(inference)
        .var_order(VarOrder::DomWdeg)
        .solve(|s| {
            found = Some(model.colors(s));
            ControlFlow::Break(())
        });
    assert!(!matches!(summary.outcome, Outcome::LimitReached(_)));
    found
}

#[test]
fn the_reader_counts_vertices_and_distinct_edges_as_published() {
    for (name, vertices, edges, _) in published() {
        let read = load(&name);
        assert_eq!(read.graph.vertex_count(), vertices, "{name}");
        assert_eq!(read.graph.edges().len(), edges, "{name}");
    }
    // anna lists each of its 493 edges twice.
    assert_eq!(load("anna").repeated_edges, 493);
}

#[test]
fn each_graph_colours_with_its_chromatic_number_and_not_one_fewer() {
    for (name, _, _, chi) in published() {
        let read = load(&name);
        for inference in [Inference::ForwardChecking, Inference::Mac] {
            let colors = colorable(&read, chi, inference)
                .unwrap_or_else(|| panic!("{name}: no {chi}-colouring"));
            assert!(read.graph.is_proper(&colors), "{name}");
            assert!(colors.iter().all(|&c| c < chi));
            assert!(
                colorable(&read, chi - 1, inference).is_none(),
                "{name}: {} colours",
                chi - 1
            );
        }
    }
}

#[test]
fn branch_and_bound_proves_each_chromatic_number() {
    for (name, _, _, chi) in published() {
        let read = load(&name);
        let clique = bounds::greedy_clique(&read.graph, &mut Poller::unlimited()).unwrap();
        let start = bounds::dsatur(&read.graph, &mut Poller::unlimited()).unwrap();
        assert!(read.graph.is_proper(&start), "DSATUR on {name}");
        let upper = bounds::colors_used(&start);
        assert!(clique.len() as u32 <= chi && chi <= upper, "{name}: bounds");
        let mut best = upper;
        if clique.len() as u32 != upper {
            let model = ColoringModel::minimizing(
                &read.graph,
                upper - 1,
                &clique,
                &mut Poller::unlimited(),
            )
            .unwrap();
            let used = model.colors_used.unwrap();
            let summary = Solver::new(&model.model)
                .var_order(VarOrder::DomWdeg)
                .minimize(used)
                .solve(|s| {
                    assert!(read.graph.is_proper(&model.colors(s)));
                    best = s.value(used) as u32;
                    ControlFlow::Continue(())
                });
            assert_eq!(summary.outcome, Outcome::Exhausted, "{name}");
        }
        assert_eq!(best, chi, "{name}");
    }
}

#[test]
fn bad_dimacs_lines_name_the_line() {
    let mut reader = DimacsReader::new();
    let error = reader.feed(1, "e 1 2").unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 1: an edge before the 'p edge V E' line"
    );
    reader.feed(2, "p edge 3 2").unwrap();
    assert_eq!(
        reader.feed(3, "e 1 4").unwrap_err().to_string(),
        "line 3: vertex 4 is not between 1 and 3"
    );
    assert!(reader
        .feed(4, "e 1 x")
        .unwrap_err()
        .to_string()
        .contains("'x' is not a whole number"));
    assert!(reader.feed(5, "q 1").is_err());
    reader.feed(6, "e 2 2").unwrap();
    reader.feed(7, "c a comment").unwrap();
    let read = reader.finish(7).unwrap();
    assert_eq!((read.self_loops, read.graph.edges().len()), (1, 0));
    assert!(DimacsReader::new().finish(0).is_err());
}
