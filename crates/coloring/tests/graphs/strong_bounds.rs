//! The largest-clique search and TabuCol against brute force on random graphs.

use crate::random_graphs::brute_force_colorings;
use coloring::{bounds, max_clique, tabucol, Graph};
use csp::{Poller, SplitMix64};

/// A random graph on `n` vertices, each edge present with probability `percent` / 100.
fn random_graph(rng: &mut SplitMix64, n: usize, percent: u64) -> Graph {
    let mut edges = Vec::new();
    for u in 0..n as u32 {
        for v in u + 1..n as u32 {
            if rng.below(100) < percent {
                edges.push((u, v));
            }
        }
    }
    Graph::new(n, edges)
}

/// The size of the largest clique, by trying every subset of the vertices.
fn brute_force_clique(graph: &Graph) -> usize {
    let n = graph.vertex_count();
    (0u32..1 << n)
        .filter(|&set| {
            (0..n).all(|u| {
                set & (1 << u) == 0
                    || (u + 1..n).all(|v| set & (1 << v) == 0 || graph.adjacent(u, v))
            })
        })
        .map(|set| set.count_ones() as usize)
        .max()
        .unwrap_or(0)
}

/// The chromatic number: the fewest colours with a proper colouring, by trying them all.
fn brute_force_chromatic(graph: &Graph) -> u32 {
    let n = graph.vertex_count() as u32;
    (1..=n)
        .find(|&k| brute_force_colorings(graph, k) > 0)
        .unwrap_or(0)
}

fn is_clique(graph: &Graph, members: &[usize]) -> bool {
    members
        .iter()
        .all(|&u| members.iter().all(|&v| u == v || graph.adjacent(u, v)))
}

#[test]
fn the_largest_clique_matches_brute_force_from_any_start() {
    let mut rng = SplitMix64::new(21);
    for case in 0..400 {
        let n = 1 + rng.below(16) as usize;
        let percent = 10 + rng.below(85);
        let graph = random_graph(&mut rng, n, percent);
        let expected = brute_force_clique(&graph);
        let greedy = bounds::greedy_clique(&graph, &mut Poller::unlimited()).unwrap();
        for start in [&[][..], &greedy[..]] {
            let found = max_clique(&graph, start, u64::MAX, &mut Poller::unlimited()).unwrap();
            assert!(found.proven, "case {case}");
            assert!(is_clique(&graph, &found.members), "case {case}");
            assert_eq!(found.members.len(), expected, "case {case}, n = {n}");
        }
    }
}

/// A triangle whose every corner also touches a hub of higher degree (three leaves each): the
/// greedy clique, the lower bound before, joins each corner to its hub and stops at 2, as it
/// stopped at 55 on fpsol2.i.1 where the largest clique has 65 vertices.
#[test]
fn the_search_finds_the_clique_that_greedy_growth_misses() {
    let mut edges = vec![(0, 1), (0, 2), (1, 2), (0, 3), (1, 4), (2, 5)];
    for (hub, first_leaf) in [(3, 6), (4, 9), (5, 12)] {
        edges.extend((first_leaf..first_leaf + 3).map(|leaf| (hub, leaf)));
    }
    let graph = Graph::new(15, edges);
    let greedy = bounds::greedy_clique(&graph, &mut Poller::unlimited()).unwrap();
    assert_eq!(greedy.len(), 2);
    let found = max_clique(&graph, &greedy, u64::MAX, &mut Poller::unlimited()).unwrap();
    assert_eq!(found.members, [0, 1, 2]);
    assert_eq!(brute_force_clique(&graph), 3);
}

#[test]
fn a_node_budget_ends_the_clique_search_unproven_with_a_real_clique() {
    let mut rng = SplitMix64::new(4);
    let graph = random_graph(&mut rng, 300, 50);
    let found = max_clique(&graph, &[], 50, &mut Poller::unlimited()).unwrap();
    assert!(!found.proven);
    assert_eq!(found.nodes, 51, "stops on the node after its budget");
    assert!(is_clique(&graph, &found.members));
    let whole = max_clique(&graph, &[], u64::MAX, &mut Poller::unlimited()).unwrap();
    assert!(whole.proven && whole.members.len() >= found.members.len());
}

#[test]
fn tabucol_colours_properly_at_the_chromatic_number_and_never_below() {
    let mut rng = SplitMix64::new(8);
    for case in 0..200 {
        let n = 1 + rng.below(9) as usize;
        let percent = 20 + rng.below(70);
        let graph = random_graph(&mut rng, n, percent);
        let chi = brute_force_chromatic(&graph);
        let start = bounds::dsatur(&graph, &mut Poller::unlimited()).unwrap();
        for k in 1..=chi {
            let found = tabucol(&graph, k, &start, 10_000, case, &mut Poller::unlimited()).unwrap();
            match found.colors {
                Some(colors) => {
                    assert!(k == chi, "case {case}: coloured with {k} < {chi} colours");
                    assert!(graph.is_proper(&colors), "case {case}");
                    assert!(colors.iter().all(|&c| c < k), "case {case}");
                }
                None => assert!(k < chi, "case {case}: no {chi}-colouring found"),
            }
        }
    }
}
