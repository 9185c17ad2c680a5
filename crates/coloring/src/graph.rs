//! `Graph`: an undirected simple graph, vertices numbered from 0.

/// A simple undirected graph: no self-loops, each edge once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    neighbours: Vec<Vec<u32>>,
    edges: Vec<(u32, u32)>,
}

impl Graph {
    /// A graph on `vertices` vertices; `edges` (0-based) are cleaned of self-loops and
    /// repeats.
    pub fn new(vertices: usize, edges: impl IntoIterator<Item = (u32, u32)>) -> Self {
        let mut list: Vec<(u32, u32)> = edges
            .into_iter()
            .filter(|&(u, v)| u != v && (u as usize) < vertices && (v as usize) < vertices)
            .map(|(u, v)| (u.min(v), u.max(v)))
            .collect();
        list.sort_unstable();
        list.dedup();
        let mut neighbours = vec![Vec::new(); vertices];
        for &(u, v) in &list {
            neighbours[u as usize].push(v);
            neighbours[v as usize].push(u);
        }
        Graph {
            neighbours,
            edges: list,
        }
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.neighbours.len()
    }

    /// The edges, each once, smaller end first.
    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// The neighbours of `v`.
    pub fn neighbours(&self, v: usize) -> &[u32] {
        &self.neighbours[v]
    }

    /// Whether `u` and `v` are adjacent.
    pub fn adjacent(&self, u: usize, v: usize) -> bool {
        // Each list is sorted: the edges are, smaller end first, and pushed in that order.
        self.neighbours[u].binary_search(&(v as u32)).is_ok()
    }

    /// Whether `colors` (one per vertex) gives adjacent vertices different colours.
    pub fn is_proper(&self, colors: &[u32]) -> bool {
        colors.len() == self.vertex_count()
            && self
                .edges
                .iter()
                .all(|&(u, v)| colors[u as usize] != colors[v as usize])
    }
}
