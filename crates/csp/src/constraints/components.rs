//! `Components`: strongly connected components by Tarjan's algorithm, iterative, over a graph
//! given by a successor function, with buffers kept between calls; and `ValueGraph`, the
//! adjacency lists of a variable-value graph both ways. Both serve Régin's all_different and
//! the global cardinality flow.

/// Not yet visited.
const NONE: u32 = u32::MAX;

/// Reusable working memory and the last labelling.
#[derive(Debug, Default)]
pub(crate) struct Components {
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    /// The depth-first search's stack: a node and the position of its next successor.
    calls: Vec<(u32, u32)>,
    /// Each node's component.
    component: Vec<u32>,
}

impl Components {
    /// Labels the nodes `0..nodes` with their components. `next(node, position)` gives the
    /// first successor of `node` at edge position `position` or later, with its position, so
    /// that a graph held as adjacency lists can skip the edges it leaves out.
    pub(crate) fn label(
        &mut self,
        nodes: usize,
        mut next: impl FnMut(usize, u32) -> Option<(usize, u32)>,
    ) {
        self.index.clear();
        self.index.resize(nodes, NONE);
        self.low.clear();
        self.low.resize(nodes, 0);
        self.on_stack.clear();
        self.on_stack.resize(nodes, false);
        self.stack.clear();
        self.calls.clear();
        self.component.clear();
        self.component.resize(nodes, NONE);
        let mut counter = 0u32;
        let mut components = 0u32;
        for root in 0..nodes {
            if self.index[root] != NONE {
                continue;
            }
            self.calls.push((root as u32, 0));
            while let Some(&(node, position)) = self.calls.last() {
                let node = node as usize;
                if position == 0 && self.index[node] == NONE {
                    self.index[node] = counter;
                    self.low[node] = counter;
                    counter += 1;
                    self.stack.push(node as u32);
                    self.on_stack[node] = true;
                }
                match next(node, position) {
                    Some((succ, used)) => {
                        if let Some(top) = self.calls.last_mut() {
                            top.1 = used + 1;
                        }
                        if self.index[succ] == NONE {
                            self.calls.push((succ as u32, 0));
                        } else if self.on_stack[succ] {
                            self.low[node] = self.low[node].min(self.index[succ]);
                        }
                    }
                    None => {
                        self.calls.pop();
                        if let Some(&(parent, _)) = self.calls.last() {
                            let parent = parent as usize;
                            self.low[parent] = self.low[parent].min(self.low[node]);
                        }
                        if self.low[node] == self.index[node] {
                            while let Some(member) = self.stack.pop() {
                                self.on_stack[member as usize] = false;
                                self.component[member as usize] = components;
                                if member as usize == node {
                                    break;
                                }
                            }
                            components += 1;
                        }
                    }
                }
            }
        }
    }

    /// The component of `node` in the last labelling.
    #[inline]
    pub(crate) fn of(&self, node: usize) -> u32 {
        self.component[node]
    }
}

/// A variable-value graph both ways, its buffers kept between calls:
/// `adj[adj_start[i]..adj_start[i + 1]]` are variable `i`'s value nodes, and
/// `rev[rev_start[j]..rev_start[j + 1]]` the variables holding value node `j`.
#[derive(Debug, Default)]
pub(crate) struct ValueGraph {
    pub(crate) adj_start: Vec<u32>,
    pub(crate) adj: Vec<u32>,
    pub(crate) rev_start: Vec<u32>,
    pub(crate) rev: Vec<u32>,
    /// Next free slot per value while filling `rev`.
    fill: Vec<u32>,
}

impl ValueGraph {
    /// Lays out `k` variables and `m` value nodes, variable `i`'s value nodes being those
    /// `edges(i, adj)` pushes.
    pub(crate) fn lay_out(
        &mut self,
        k: usize,
        m: usize,
        mut edges: impl FnMut(usize, &mut Vec<u32>),
    ) {
        self.adj_start.clear();
        self.adj.clear();
        self.adj_start.push(0);
        for i in 0..k {
            edges(i, &mut self.adj);
            self.adj_start.push(self.adj.len() as u32);
        }
        self.rev_start.clear();
        self.rev_start.resize(m + 1, 0);
        for &value in &self.adj {
            self.rev_start[value as usize + 1] += 1;
        }
        for j in 0..m {
            self.rev_start[j + 1] += self.rev_start[j];
        }
        self.rev.clear();
        self.rev.resize(self.adj.len(), 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.rev_start[..m]);
        for i in 0..k {
            for &value in &self.adj[self.adj_start[i] as usize..self.adj_start[i + 1] as usize] {
                self.rev[self.fill[value as usize] as usize] = i as u32;
                self.fill[value as usize] += 1;
            }
        }
    }
}
