//! `clique_cover`: cliques that cover the edges, for redundant all-different constraints.

use crate::Graph;
use csp::{Limit, Poller};

/// Cliques of at least `min_size` vertices, grown greedily from edges no clique has covered
/// yet, until every edge that lies in such a clique is covered. An all-different constraint
/// over a clique says what its edges' `!=` constraints say, but with a matching-based
/// propagator it sees more: eight queens in a row of a queen graph, with eight colours, must
/// take them all. Each clique starts from an uncovered edge `u v` and takes the common
/// neighbours that fit, those of highest degree first. `poller` is ticked once per edge;
/// `Err` is the limit that stopped it.
pub fn clique_cover(
    graph: &Graph,
    min_size: usize,
    poller: &mut Poller,
) -> Result<Vec<Vec<usize>>, Limit> {
    let n = graph.vertex_count();
    // covered[v][i]: whether the edge from v to its i-th neighbour lies in a clique kept.
    let mut covered: Vec<Vec<bool>> = (0..n)
        .map(|v| vec![false; graph.neighbours(v).len()])
        .collect();
    let mut cover = Vec::new();
    let mut common: Vec<usize> = Vec::new();
    for u in 0..n {
        for i in 0..graph.neighbours(u).len() {
            if !poller.tick() {
                return Err(poller.stopped().unwrap_or(Limit::Cancelled));
            }
            let v = graph.neighbours(u)[i] as usize;
            if covered[u][i] || v < u {
                continue;
            }
            common.clear();
            common.extend(
                graph
                    .neighbours(u)
                    .iter()
                    .map(|&w| w as usize)
                    .filter(|&w| w != v && graph.adjacent(v, w)),
            );
            if common.len() + 2 < min_size {
                continue;
            }
            // Those adjacent to the most of the others first: on an edge of a queen graph's
            // row they are the row's other squares, which make the whole row a clique, where
            // the highest degrees overall (central squares off the row) would block it.
            let inside: Vec<usize> = common
                .iter()
                .map(|&w| common.iter().filter(|&&y| graph.adjacent(w, y)).count())
                .collect();
            let mut order: Vec<usize> = (0..common.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(inside[i]));
            let common: Vec<usize> = order.iter().map(|&i| common[i]).collect();
            let mut clique = vec![u, v];
            for &w in &common {
                if clique.iter().all(|&c| graph.adjacent(c, w)) {
                    clique.push(w);
                }
            }
            if clique.len() < min_size {
                continue;
            }
            for (a, &x) in clique.iter().enumerate() {
                for &y in &clique[a + 1..] {
                    for (p, q) in [(x, y), (y, x)] {
                        if let Ok(j) = graph.neighbours(p).binary_search(&(q as u32)) {
                            covered[p][j] = true;
                        }
                    }
                }
            }
            clique.sort_unstable();
            cover.push(clique);
        }
    }
    Ok(cover)
}
