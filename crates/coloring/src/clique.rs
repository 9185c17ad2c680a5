//! `max_clique`: the largest clique by branch and bound, a lower bound on the chromatic number.
//!
//! The graph is cut into one small problem per vertex, as in Eppstein, Löffler and Strash
//! (2010) for listing maximal cliques: in a degeneracy order (smallest degree removed first),
//! every clique has a first vertex `v`, and all its other vertices are among the neighbours of
//! `v` that come later, of which there are at most the degeneracy. Each such neighbourhood is
//! searched with bitsets by branch and bound, bounded by a greedy colouring of the candidates
//! (Tomita and Seki's MCQ, 2003, in the bitset form of San Segundo's BBMC, 2011). So a sparse
//! graph of a million vertices costs little more than reading it, and a dense one of a few
//! hundred is searched as a whole.

use crate::graph::Graph;
use csp::{Limit, Poller};

/// Branch-and-bound nodes a colouring gives the largest-clique search before it settles for
/// the largest found. A million nodes take about a second on dense graphs of a few hundred
/// vertices; sparse graphs of any size finish in far fewer.
pub const CLIQUE_NODES: u64 = 1_000_000;

/// A clique found by [`max_clique`], and whether it is known to be a largest one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliqueSearch {
    /// Its vertices, in increasing order.
    pub members: Vec<usize>,
    /// Whether the search ran to its end, so no clique is larger.
    pub proven: bool,
    /// Branch-and-bound nodes searched.
    pub nodes: u64,
}

/// The largest clique of `graph`, starting from `start` (any clique, such as a greedy one).
/// The search stops after `node_budget` nodes with the largest clique found so far and
/// `proven: false`; `Err` is the limit of `poller` that stopped it, ticked once per node.
pub fn max_clique(
    graph: &Graph,
    start: &[usize],
    node_budget: u64,
    poller: &mut Poller,
) -> Result<CliqueSearch, Limit> {
    let n = graph.vertex_count();
    let mut search = Search {
        best: start.to_vec(),
        current: Vec::new(),
        nodes: 0,
        node_budget,
        adjacency: Vec::new(),
        words: 0,
        local: Vec::new(),
        scratch: Vec::new(),
        free_words: Vec::new(),
        free_orders: Vec::new(),
    };
    if search.best.is_empty() && n > 0 {
        search.best.push(0);
    }
    let order = degeneracy_order(graph);
    let mut position = vec![0usize; n];
    for (i, &v) in order.iter().enumerate() {
        position[v] = i;
    }
    let mut later: Vec<usize> = Vec::new();
    let mut finished = true;
    for &v in &order {
        later.clear();
        later.extend(
            graph
                .neighbours(v)
                .iter()
                .map(|&u| u as usize)
                .filter(|&u| position[u] > position[v]),
        );
        if later.len() < search.best.len() {
            continue;
        }
        match search.around(graph, v, &later, poller) {
            Ok(()) => {}
            Err(Stop::Budget) => {
                finished = false;
                break;
            }
            Err(Stop::Limit) => return Err(poller.stopped().unwrap_or(Limit::Cancelled)),
        }
    }
    let mut members = search.best;
    members.sort_unstable();
    Ok(CliqueSearch {
        members,
        proven: finished,
        nodes: search.nodes,
    })
}

/// The largest clique, searched from a greedy one for at most `node_budget` nodes (see
/// [`max_clique`]): the lower bound and the symmetry breaking of a colouring.
pub fn largest_clique(
    graph: &Graph,
    node_budget: u64,
    poller: &mut Poller,
) -> Result<CliqueSearch, Limit> {
    let greedy = crate::bounds::greedy_clique(graph, poller)?;
    max_clique(graph, &greedy, node_budget, poller)
}

/// Vertices in smallest-last order (Matula and Beck, 1983): each has, among those after it,
/// at most the graph's degeneracy neighbours. Buckets by degree make it O(n + m).
fn degeneracy_order(graph: &Graph) -> Vec<usize> {
    let n = graph.vertex_count();
    let mut degree: Vec<usize> = (0..n).map(|v| graph.neighbours(v).len()).collect();
    let top = degree.iter().copied().max().unwrap_or(0);
    let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); top + 1];
    for v in 0..n {
        buckets[degree[v]].push(v);
    }
    let mut removed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut low: usize = 0;
    while order.len() < n {
        // A removal lowers a degree by one, so the smallest non-empty bucket is at most one
        // below the last; entries whose degree has since changed are stale and skipped.
        low = low.saturating_sub(1);
        let v = loop {
            match buckets[low].pop() {
                Some(v) if !removed[v] && degree[v] == low => break v,
                Some(_) => {}
                None => low += 1,
            }
        };
        removed[v] = true;
        order.push(v);
        for &u in graph.neighbours(v) {
            let u = u as usize;
            if !removed[u] {
                degree[u] -= 1;
                buckets[degree[u]].push(u);
            }
        }
    }
    order
}

/// Why a search stopped early.
enum Stop {
    /// The node budget ran out.
    Budget,
    /// A limit of the run.
    Limit,
}

/// The state of the search, with its buffers kept from one neighbourhood to the next.
struct Search {
    best: Vec<usize>,
    /// The clique being grown, as graph vertices.
    current: Vec<usize>,
    nodes: u64,
    node_budget: u64,
    /// The neighbourhood's adjacency: `words` 64-bit words per local vertex.
    adjacency: Vec<u64>,
    words: usize,
    /// The graph vertex of each local one.
    local: Vec<usize>,
    /// For each graph vertex, its local number plus one, or 0: kept all zero between uses.
    scratch: Vec<u32>,
    /// Bitsets and branching orders given back, reused by the next nodes.
    free_words: Vec<Vec<u64>>,
    free_orders: Vec<Vec<(usize, usize)>>,
}

impl Search {
    /// Searches the cliques made of `v` and some of `later`, its neighbours after it.
    fn around(
        &mut self,
        graph: &Graph,
        v: usize,
        later: &[usize],
        poller: &mut Poller,
    ) -> Result<(), Stop> {
        if self.scratch.len() < graph.vertex_count() {
            self.scratch.resize(graph.vertex_count(), 0);
        }
        // Higher degree first: the greedy colouring then bounds more tightly.
        self.local.clear();
        self.local.extend_from_slice(later);
        self.local
            .sort_unstable_by_key(|&u| std::cmp::Reverse(graph.neighbours(u).len()));
        for (i, &u) in self.local.iter().enumerate() {
            self.scratch[u] = i as u32 + 1;
        }
        let p = self.local.len();
        self.words = p.div_ceil(64);
        self.adjacency.clear();
        self.adjacency.resize(p * self.words, 0);
        for (i, &u) in self.local.iter().enumerate() {
            for &w in graph.neighbours(u) {
                let j = self.scratch[w as usize];
                if j > 0 {
                    let j = j as usize - 1;
                    self.adjacency[i * self.words + j / 64] |= 1 << (j % 64);
                }
            }
        }
        for &u in later {
            self.scratch[u] = 0;
        }
        let mut candidates = self.take_words();
        for j in 0..p {
            candidates[j / 64] |= 1 << (j % 64);
        }
        self.current.clear();
        self.current.push(v);
        self.expand(candidates, poller)
    }

    /// A buffer of `words` zero words, from those given back.
    fn take_words(&mut self) -> Vec<u64> {
        let mut words = self.free_words.pop().unwrap_or_default();
        words.clear();
        words.resize(self.words, 0);
        words
    }

    /// Branch and bound below the current clique, over `candidates` (local vertices adjacent
    /// to all of it). The buffers it uses, `candidates` included, go back to the pools, so a
    /// search allocates only as deep as it goes.
    fn expand(&mut self, candidates: Vec<u64>, poller: &mut Poller) -> Result<(), Stop> {
        let mut order = self.free_orders.pop().unwrap_or_default();
        order.clear();
        let mut candidates = candidates;
        let result = self.branch(&mut candidates, &mut order, poller);
        self.free_words.push(candidates);
        self.free_orders.push(order);
        result
    }

    fn branch(
        &mut self,
        candidates: &mut [u64],
        order: &mut Vec<(usize, usize)>,
        poller: &mut Poller,
    ) -> Result<(), Stop> {
        self.nodes += 1;
        if !poller.tick() {
            return Err(Stop::Limit);
        }
        if self.nodes > self.node_budget {
            return Err(Stop::Budget);
        }
        // Colour the candidates greedily, one independent set per colour. A clique takes at
        // most one vertex per colour, so only the vertices whose colour could lift the
        // current clique above the best are branched on, highest colour first.
        let needed = (self.best.len() + 1).saturating_sub(self.current.len());
        let mut uncoloured = self.take_words();
        uncoloured.copy_from_slice(candidates);
        let mut class = self.take_words();
        let mut color = 0;
        while uncoloured.iter().any(|&w| w != 0) {
            color += 1;
            class.copy_from_slice(&uncoloured);
            while let Some(u) = first(&class) {
                clear(&mut class, u);
                clear(&mut uncoloured, u);
                let row = &self.adjacency[u * self.words..(u + 1) * self.words];
                for (c, &a) in class.iter_mut().zip(row) {
                    *c &= !a;
                }
                if color >= needed {
                    order.push((u, color));
                }
            }
        }
        self.free_words.push(uncoloured);
        self.free_words.push(class);
        for &(u, color) in order.iter().rev() {
            if self.current.len() + color <= self.best.len() {
                return Ok(());
            }
            self.current.push(self.local[u]);
            let mut next = self.take_words();
            let row = &self.adjacency[u * self.words..(u + 1) * self.words];
            for ((n, &c), &a) in next.iter_mut().zip(candidates.iter()).zip(row) {
                *n = c & a;
            }
            if next.iter().all(|&w| w == 0) {
                self.free_words.push(next);
                if self.current.len() > self.best.len() {
                    self.best.clone_from(&self.current);
                }
            } else {
                self.expand(next, poller)?;
            }
            self.current.pop();
            clear(candidates, u);
        }
        Ok(())
    }
}

/// The lowest set bit of a bitset.
fn first(set: &[u64]) -> Option<usize> {
    set.iter()
        .position(|&w| w != 0)
        .map(|i| i * 64 + set[i].trailing_zeros() as usize)
}

fn clear(set: &mut [u64], bit: usize) {
    set[bit / 64] &= !(1 << (bit % 64));
}
