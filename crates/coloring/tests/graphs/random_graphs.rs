//! Random small graphs against brute force.

use coloring::{bounds, ColoringModel, Graph};
use csp::{Inference, Poller, Solver, SplitMix64, VarOrder};

/// The number of proper colourings with at most `k` colours, by trying them all.
pub(crate) fn brute_force_colorings(graph: &Graph, k: u32) -> u64 {
    let n = graph.vertex_count();
    let mut colors = vec![0u32; n];
    let mut count = 0;
    loop {
        if graph.is_proper(&colors) {
            count += 1;
        }
        let mut i = 0;
        loop {
            if i == n {
                return count;
            }
            colors[i] += 1;
            if colors[i] < k {
                break;
            }
            colors[i] = 0;
            i += 1;
        }
    }
}

/// A graph of `low` to `high` vertices and fewer than `edges` random edges (loops and
/// repeats included, which [`Graph::new`] drops).
pub(crate) fn random_graph(rng: &mut SplitMix64, low: u64, high: u64, edges: u64) -> Graph {
    let n = low + rng.below(high - low + 1);
    let edges: Vec<(u32, u32)> = (0..rng.below(edges))
        .map(|_| (rng.below(n) as u32, rng.below(n) as u32))
        .collect();
    Graph::new(n as usize, edges)
}

#[test]
fn colourings_match_brute_force_up_to_the_clique_renaming() {
    let mut rng = SplitMix64::new(5);
    for case in 0..150 {
        let graph = random_graph(&mut rng, 2, 7, 12);
        let clique = bounds::greedy_clique(&graph, &mut Poller::unlimited()).unwrap();
        for k in 1..=4u32 {
            let all = brute_force_colorings(&graph, k);
            // Fixing the clique's colours keeps exactly the colourings that give its i-th
            // vertex colour i: all / (k (k-1) ... (k-q+1)) of them, by symmetry.
            let q = clique.len() as u32;
            let renamings: u64 = if q > k {
                0
            } else {
                (k - q + 1..=k).map(u64::from).product()
            };
            let expected = all.checked_div(renamings).unwrap_or(0);
            if q > k {
                assert_eq!(all, 0, "case {case}: a clique of {q} needs {q} colours");
                continue;
            }
            for inference in [Inference::None, Inference::ForwardChecking, Inference::Mac] {
                let model = ColoringModel::new(&graph, k, &clique).unwrap();
                let count = Solver::new(&model.model)
                    .inference(inference)
                    .var_order(VarOrder::DomWdeg)
                    .count();
                assert_eq!(count, expected, "case {case}, k = {k}, {inference:?}");
            }
        }
    }
}

#[test]
fn a_cancel_stops_the_bounds_and_the_model_with_the_limit() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let mut rng = SplitMix64::new(9);
    let edges: Vec<(u32, u32)> = (0..2_000)
        .map(|_| (rng.below(500) as u32, rng.below(500) as u32))
        .collect();
    let graph = Graph::new(500, edges);
    let limits = csp::Limits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..csp::Limits::default()
    };
    let stopped = Some(csp::Limit::Cancelled);
    assert_eq!(
        bounds::dsatur(&graph, &mut Poller::new(&limits)).err(),
        stopped
    );
    assert_eq!(
        bounds::greedy_clique(&graph, &mut Poller::new(&limits)).err(),
        stopped
    );
    let model = ColoringModel::build(&graph, 5, &[], &mut Poller::new(&limits));
    assert_eq!(
        model.err(),
        Some(csp::ModelError::Stopped(csp::Limit::Cancelled))
    );
    // Unlimited, the same calls give a proper colouring and a clique.
    let colors = bounds::dsatur(&graph, &mut Poller::unlimited()).unwrap();
    assert!(graph.is_proper(&colors));
    let clique = bounds::greedy_clique(&graph, &mut Poller::unlimited()).unwrap();
    assert!(clique
        .iter()
        .all(|&u| clique.iter().all(|&v| u == v || graph.adjacent(u, v))));
}
