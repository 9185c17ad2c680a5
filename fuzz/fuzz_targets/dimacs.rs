//! Any text through the DIMACS reader: no panic; a small graph read gets a proper colouring
//! or none, never an improper one.

#![no_main]

use coloring::bounds::{dsatur, greedy_clique};
use coloring::{ColoringModel, DimacsReader};
use csp::{Poller, Solver};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut reader = DimacsReader::new();
    let mut last = 0;
    for (i, line) in text.lines().enumerate() {
        if reader.feed(i + 1, line).is_err() {
            return;
        }
        last = i + 1;
    }
    let Ok(read) = reader.finish(last) else {
        return;
    };
    let graph = &read.graph;
    if graph.vertex_count() > 60 {
        return;
    }
    let Ok(greedy) = dsatur(graph, &mut Poller::unlimited()) else {
        panic!("DSATUR stopped with no limit set");
    };
    assert!(
        graph.is_proper(&greedy),
        "DSATUR gave an improper colouring"
    );
    let Ok(clique) = greedy_clique(graph, &mut Poller::unlimited()) else {
        panic!("the clique search stopped with no limit set");
    };
    for pair in clique.windows(2) {
        assert!(graph.adjacent(pair[0], pair[1]) || clique.len() < 2);
    }
    let Ok(model) = ColoringModel::new(graph, 3, &clique) else {
        return;
    };
    Solver::new(&model.model)
        .node_limit(2_000)
        .solve(|solution| {
            assert!(
                graph.is_proper(&model.colors(solution)),
                "an improper 3-colouring"
            );
            std::ops::ControlFlow::Break(())
        });
});
