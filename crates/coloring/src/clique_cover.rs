//! `clique_cover`: cliques that cover the edges, for redundant all-different constraints.

use crate::graph::Graph;
use csp::{Limit, Poller};

/// The longest list of candidates ranked by how many of the others each is adjacent to.
const RANKED_BY_ADJACENCY: usize = 64;

/// Cliques of at least `min_size` vertices, grown greedily from edges no clique has covered
/// yet, until every edge that lies in such a clique is covered. An all-different constraint
/// over a clique says what its edges' `!=` constraints say, but with a matching-based
/// propagator it sees more: eight queens in a row of a queen graph, with eight colours, must
/// take them all. Each clique starts from an uncovered edge `u v` and takes the common
/// neighbours that fit, those adjacent to the most of the others first (those of highest
/// degree first when there are more than [`RANKED_BY_ADJACENCY`]). `poller` is ticked once per edge;
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
            // the highest degrees overall (central squares off the row) would block it. The
            // count is quadratic in the candidates, so a long list (hundreds, on a dense random
            // graph, where it took G(1000, 0.5) from 4.6 s to 32 s) is ranked by degree instead.
            if common.len() <= RANKED_BY_ADJACENCY {
                let mut ranked: Vec<(usize, usize)> = common
                    .iter()
                    .map(|&w| (common.iter().filter(|&&y| graph.adjacent(w, y)).count(), w))
                    .collect();
                ranked.sort_by_key(|&(inside, _)| std::cmp::Reverse(inside));
                common.clear();
                common.extend(ranked.iter().map(|&(_, w)| w));
            } else {
                common.sort_by_key(|&w| std::cmp::Reverse(graph.neighbours(w).len()));
            }
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
