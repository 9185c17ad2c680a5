//! Quick bounds on the chromatic number: a DSATUR colouring from above, a greedy clique from
//! below.

use crate::graph::Graph;
use csp::{Limit, Poller};

/// The limit a poller stopped on.
fn stopped(poller: &Poller) -> Limit {
    poller.stopped().unwrap_or(Limit::Cancelled)
}

/// Brélaz's DSATUR (1979): colour next the vertex with the most distinct colours among its
/// neighbours (ties: most uncoloured neighbours, then lowest number), with its smallest free
/// colour. Returns one colour per vertex, from 0, or the limit that stopped it (`poller` is
/// ticked once per vertex taken off the heap).
pub fn dsatur(graph: &Graph, poller: &mut Poller) -> Result<Vec<u32>, Limit> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = graph.vertex_count();
    let mut colors: Vec<Option<u32>> = vec![None; n];
    let mut seen: Vec<Vec<bool>> = vec![Vec::new(); n];
    let mut saturation = vec![0usize; n];
    let mut open_degree: Vec<usize> = (0..n).map(|v| graph.neighbours(v).len()).collect();
    // The next vertex comes off a heap of (saturation, open degree, lowest number). A vertex
    // whose key changes is pushed again and its old entries skipped when they surface, which
    // keeps this O((n + m) log n) where a scan per step would be O(n²).
    let mut heap: BinaryHeap<(usize, usize, Reverse<usize>)> =
        (0..n).map(|v| (0, open_degree[v], Reverse(v))).collect();
    while let Some((sat, open, Reverse(v))) = heap.pop() {
        if !poller.tick() {
            return Err(stopped(poller));
        }
        if colors[v].is_some() || sat != saturation[v] || open != open_degree[v] {
            continue;
        }
        let color = (0..)
            .find(|&c| !seen[v].get(c).copied().unwrap_or(false))
            .unwrap_or(0);
        colors[v] = Some(color as u32);
        for &u in graph.neighbours(v) {
            let u = u as usize;
            if colors[u].is_some() {
                continue;
            }
            open_degree[u] = open_degree[u].saturating_sub(1);
            if seen[u].len() <= color {
                seen[u].resize(color + 1, false);
            }
            if !seen[u][color] {
                seen[u][color] = true;
                saturation[u] += 1;
            }
            heap.push((saturation[u], open_degree[u], Reverse(u)));
        }
    }
    Ok(colors.into_iter().map(|c| c.unwrap_or(0)).collect())
}

/// A clique grown greedily from each vertex in turn (highest degree first), the largest kept.
/// Its size is a lower bound on the chromatic number. `poller` is ticked once per candidate
/// tried; `Err` is the limit that stopped it.
pub fn greedy_clique(graph: &Graph, poller: &mut Poller) -> Result<Vec<usize>, Limit> {
    let n = graph.vertex_count();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(graph.neighbours(v).len()));
    let mut rank = vec![0usize; n];
    for (i, &v) in order.iter().enumerate() {
        rank[v] = i;
    }
    let mut best: Vec<usize> = Vec::new();
    let mut candidates: Vec<usize> = Vec::new();
    for &start in &order {
        // Only the start's neighbours can join, taken in the global order.
        let degree = graph.neighbours(start).len();
        if degree < best.len() {
            // Sorted by degree, so no later start can grow a larger clique either.
            break;
        }
        candidates.clear();
        candidates.extend(graph.neighbours(start).iter().map(|&u| u as usize));
        candidates.sort_unstable_by_key(|&u| rank[u]);
        let mut clique = vec![start];
        for &v in &candidates {
            if !poller.tick() {
                return Err(stopped(poller));
            }
            if clique.iter().all(|&u| graph.adjacent(u, v)) {
                clique.push(v);
            }
        }
        if clique.len() > best.len() {
            best = clique;
        }
    }
    best.sort_unstable();
    Ok(best)
}

/// The number of colours a colouring uses.
pub fn colors_used(colors: &[u32]) -> u32 {
    colors.iter().max().map_or(0, |&c| c + 1)
}
