//! `CardinalityFlow`: Régin's filtering for the global cardinality constraint (AAAI 1996),
//! generalised arc consistency from one feasible flow and the strongly connected components
//! of its residual graph.
//!
//! The network sends one unit from each variable to one of its values, and from each value
//! `v` between `lower[v]` and `upper[v]` units on to a sink. A value `v` stays in the domain of
//! `x` exactly when some feasible flow sends `x`'s unit to `v`: when `x` takes `v` in the flow
//! found, or when the residual graph has a cycle through the arc `x -> v`, that is, when `x`
//! and `v` lie in one strongly connected component. The flow of one call is the next call's
//! starting point, so that after a few removals only the broken assignments are repaired.

use super::components::{Components, ValueGraph};
use crate::{Conflict, Context, VarId};

/// No value assigned; no node reached.
const NONE: u32 = u32::MAX;

/// Above this many values in the domains' span, or this many edges, the caller filters more
/// cheaply instead, so that one call never allocates without bound.
pub(crate) const MAX_VALUES: i64 = 1 << 16;
const MAX_EDGES: usize = 1 << 22;

/// Working memory kept between calls: the last flow and reusable buffers.
#[derive(Debug, Default)]
pub(crate) struct CardinalityFlow {
    /// The value each place took in the previous call's flow.
    hint: Vec<Option<i32>>,
    /// The smallest value of the graph: value node `j` is `low + j`.
    pub(crate) low: i64,
    /// Per value node: the least and most places that may take it, and how many do in the
    /// flow being built.
    pub(crate) lower: Vec<u32>,
    pub(crate) upper: Vec<u32>,
    flow: Vec<u32>,
    /// The places and the values of their domains.
    graph: ValueGraph,
    /// The value node each place takes in the flow.
    var_match: Vec<u32>,
    /// Breadth-first searches: nodes seen (by stamp), how each was reached, and the queue.
    seen_value: Vec<u32>,
    seen_var: Vec<u32>,
    stamp: u32,
    via: Vec<u32>,
    toward: Vec<u32>,
    queue: Vec<u32>,
    components: Components,
}

/// The span of values the domains of `vars` take, when the flow may be built over it.
pub(crate) fn value_span(vars: &[VarId], ctx: &Context<'_>) -> Option<(i64, i64)> {
    let (mut low, mut high, mut edges) = (i64::MAX, i64::MIN, 0usize);
    for &var in vars {
        low = low.min(i64::from(ctx.min(var)?));
        high = high.max(i64::from(ctx.max(var)?));
        edges += ctx.size(var) as usize;
    }
    (high >= low && high - low < MAX_VALUES && edges <= MAX_EDGES).then_some((low, high))
}

impl CardinalityFlow {
    /// Prepares a call over the values `low..=high`, every one free to be taken by up to
    /// `places` places; the caller then sets the bounds of the values it counts in
    /// [`CardinalityFlow::lower`] and [`CardinalityFlow::upper`].
    pub(crate) fn start(&mut self, low: i64, high: i64, places: usize) {
        let m = (high - low + 1) as usize;
        self.low = low;
        self.lower.clear();
        self.lower.resize(m, 0);
        self.upper.clear();
        self.upper.resize(m, places as u32);
    }

    /// Removes from `vars` every value that no feasible flow gives it. A conflict when no
    /// flow is feasible: the counts cannot all be met.
    pub(crate) fn filter(&mut self, vars: &[VarId], ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let m = self.lower.len();
        let k = vars.len();
        self.build(vars, ctx);
        ctx.count_checks(self.graph.adj.len() as u64);
        if !self.find_flow(vars, ctx) {
            return Err(ctx.violated());
        }
        let (adj_start, adj, rev_start, rev) = (
            &self.graph.adj_start,
            &self.graph.adj,
            &self.graph.rev_start,
            &self.graph.rev,
        );
        let (var_match, flow, lower, upper) =
            (&self.var_match, &self.flow, &self.lower, &self.upper);
        let sink = k + m;
        self.components.label(k + m + 1, |node, position| {
            if node < k {
                // A place may move to any other value of its domain.
                let (start, end) = (adj_start[node], adj_start[node + 1]);
                let mut p = position;
                while start + p < end {
                    let value = adj[(start + p) as usize];
                    if value != var_match[node] {
                        return Some((k + value as usize, p));
                    }
                    p += 1;
                }
                None
            } else if node < sink {
                // A value may lose a place that takes it, or send one more unit on.
                let value = node - k;
                let (start, end) = (rev_start[value], rev_start[value + 1]);
                let mut p = position;
                while start + p < end {
                    let var = rev[(start + p) as usize];
                    if var_match[var as usize] as usize == value {
                        return Some((var as usize, p));
                    }
                    p += 1;
                }
                (start + p == end && flow[value] < upper[value]).then_some((sink, p))
            } else {
                // The sink may send one unit less to a value above its least count.
                (position as usize..m)
                    .find(|&value| {
                        flow[value] > lower[value] && rev_start[value] < rev_start[value + 1]
                    })
                    .map(|value| (k + value, value as u32))
            }
        });
        for (i, &var) in vars.iter().enumerate() {
            for e in self.graph.adj_start[i] as usize..self.graph.adj_start[i + 1] as usize {
                let value = self.graph.adj[e];
                if value != self.var_match[i]
                    && self.components.of(i) != self.components.of(k + value as usize)
                {
                    ctx.remove(var, (self.low + i64::from(value)) as i32)?;
                }
            }
        }
        Ok(())
    }

    /// Lays out the graph of the current domains.
    fn build(&mut self, vars: &[VarId], ctx: &Context<'_>) {
        let low = self.low;
        self.graph.lay_out(vars.len(), self.lower.len(), |i, adj| {
            adj.extend(ctx.values(vars[i]).map(|v| (i64::from(v) - low) as u32))
        });
    }

    /// A flow that gives every place a value, no value more than its most and none less
    /// than its least, starting from the last call's; false when there is none.
    fn find_flow(&mut self, vars: &[VarId], ctx: &Context<'_>) -> bool {
        let (k, m) = (vars.len(), self.lower.len());
        self.hint.resize(k, None);
        self.var_match.clear();
        self.var_match.resize(k, NONE);
        self.flow.clear();
        self.flow.resize(m, 0);
        self.seen_value.resize(m, 0);
        self.seen_var.resize(k, 0);
        self.via.resize(m, NONE);
        self.toward.resize(m, NONE);
        for (i, &var) in vars.iter().enumerate() {
            let Some(value) = self.hint[i].filter(|&v| ctx.contains(var, v)) else {
                continue;
            };
            let j = (i64::from(value) - self.low) as usize;
            if j < m && self.flow[j] < self.upper[j] {
                self.var_match[i] = j as u32;
                self.flow[j] += 1;
            }
        }
        for i in 0..k {
            if self.var_match[i] == NONE && !self.place(i) {
                return false;
            }
        }
        for j in 0..m {
            while self.flow[j] < self.lower[j] {
                if !self.raise(j) {
                    return false;
                }
            }
        }
        for i in 0..k {
            self.hint[i] = Some((self.low + i64::from(self.var_match[i])) as i32);
        }
        true
    }

    /// Starts a new search's marks.
    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen_value.iter_mut().for_each(|s| *s = 0);
            self.seen_var.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
    }

    /// Gives the unassigned place `start` a value, moving other places along an augmenting
    /// path to values with room (breadth first). False when none has room.
    fn place(&mut self, start: usize) -> bool {
        self.next_stamp();
        self.queue.clear();
        self.queue.push(start as u32);
        self.seen_var[start] = self.stamp;
        let mut head = 0;
        while let Some(&var) = self.queue.get(head) {
            head += 1;
            let var = var as usize;
            for e in self.graph.adj_start[var] as usize..self.graph.adj_start[var + 1] as usize {
                let value = self.graph.adj[e] as usize;
                if self.seen_value[value] == self.stamp {
                    continue;
                }
                self.seen_value[value] = self.stamp;
                // `via[value]`: the place that would take it.
                self.via[value] = var as u32;
                if self.flow[value] < self.upper[value] {
                    // Each place on the path takes the value it reached; the first had none.
                    let mut value = value;
                    loop {
                        let taker = self.via[value] as usize;
                        let previous = self.var_match[taker];
                        self.var_match[taker] = value as u32;
                        self.flow[value] += 1;
                        if previous == NONE {
                            return true;
                        }
                        self.flow[previous as usize] -= 1;
                        value = previous as usize;
                    }
                }
                for r in
                    self.graph.rev_start[value] as usize..self.graph.rev_start[value + 1] as usize
                {
                    let holder = self.graph.rev[r] as usize;
                    if self.var_match[holder] as usize == value
                        && self.seen_var[holder] != self.stamp
                    {
                        self.seen_var[holder] = self.stamp;
                        self.queue.push(holder as u32);
                    }
                }
            }
        }
        false
    }

    /// One more place for `target`, below its least count, taken from a value above its own
    /// least along a path of places that each move to the value before (breadth first).
    /// False when there is no such path.
    fn raise(&mut self, target: usize) -> bool {
        self.next_stamp();
        self.queue.clear();
        self.queue.push(target as u32);
        self.seen_value[target] = self.stamp;
        let mut head = 0;
        while let Some(&value) = self.queue.get(head) {
            head += 1;
            let value = value as usize;
            for r in self.graph.rev_start[value] as usize..self.graph.rev_start[value + 1] as usize
            {
                let var = self.graph.rev[r] as usize;
                let from = self.var_match[var] as usize;
                if from == value || self.seen_value[from] == self.stamp {
                    continue;
                }
                self.seen_value[from] = self.stamp;
                // The place that would leave `from`, and the value it would take.
                self.via[from] = var as u32;
                self.toward[from] = value as u32;
                if self.flow[from] > self.lower[from] {
                    let mut from = from;
                    while from != target {
                        let mover = self.via[from] as usize;
                        let to = self.toward[from] as usize;
                        self.var_match[mover] = to as u32;
                        self.flow[from] -= 1;
                        self.flow[to] += 1;
                        from = to;
                    }
                    return true;
                }
                self.queue.push(from as u32);
            }
        }
        false
    }
}
