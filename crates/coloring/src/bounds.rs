//! Quick bounds on the chromatic number: a DSATUR colouring from above, a greedy clique from
//! below.

use crate::Graph;

/// Brélaz's DSATUR (1979): colour next the vertex with the most distinct colours among its
/// neighbours (ties: most uncoloured neighbours, then lowest number), with its smallest free
/// colour. Returns one colour per vertex, from 0.
pub fn dsatur(graph: &Graph) -> Vec<u32> {
    let n = graph.vertex_count();
    let mut colors: Vec<Option<u32>> = vec![None; n];
    let mut seen: Vec<Vec<bool>> = vec![Vec::new(); n];
    let mut saturation = vec![0usize; n];
    let mut open_degree: Vec<usize> = (0..n).map(|v| graph.neighbours(v).len()).collect();
    for _ in 0..n {
        let Some(v) = (0..n)
            .filter(|&v| colors[v].is_none())
            .max_by_key(|&v| (saturation[v], open_degree[v], std::cmp::Reverse(v)))
        else {
            break;
        };
        let color = (0..)
            .find(|&c| !seen[v].get(c).copied().unwrap_or(false))
            .unwrap_or(0);
        colors[v] = Some(color as u32);
        for &u in graph.neighbours(v) {
            let u = u as usize;
            open_degree[u] = open_degree[u].saturating_sub(1);
            if seen[u].len() <= color {
                seen[u].resize(color + 1, false);
            }
            if !seen[u][color] {
                seen[u][color] = true;
                saturation[u] += 1;
            }
        }
    }
    colors.into_iter().map(|c| c.unwrap_or(0)).collect()
}

/// A clique grown greedily from each vertex in turn (highest degree first), the largest kept.
/// Its size is a lower bound on the chromatic number.
pub fn greedy_clique(graph: &Graph) -> Vec<usize> {
    let n = graph.vertex_count();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(graph.neighbours(v).len()));
    let mut best: Vec<usize> = Vec::new();
    for &start in &order {
        let mut clique = vec![start];
        for &v in &order {
            if v != start && clique.iter().all(|&u| graph.adjacent(u, v)) {
                clique.push(v);
            }
        }
        if clique.len() > best.len() {
            best = clique;
        }
    }
    best.sort_unstable();
    best
}

/// The number of colours a colouring uses.
pub fn colors_used(colors: &[u32]) -> u32 {
    colors.iter().max().map_or(0, |&c| c + 1)
}
