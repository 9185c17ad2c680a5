//! `Path`: the chosen nodes and edges of a fixed graph form one simple path from `s` to `t`.

use super::listed::listed;
use crate::{Conflict, Constraint, Context, VarId};

/// `ns` (a 0/1 per node) and `es` (a 0/1 per edge) choose a subgraph of a fixed graph that is
/// one simple path from node `s` to node `t`, both chosen (MiniZinc's `dpath`, and `path` for
/// an undirected graph). Nodes are numbered from `first`; `s = t` chooses that node alone.
/// As in MiniZinc's decomposition, in the directed graph every chosen node but `s` has one
/// chosen edge in and every one but `t` one out, none enters `s` or leaves `t`, and there is
/// no cycle; undirected, `s` and `t` touch one chosen edge and the other chosen nodes two.
///
/// Consistency: what follows, repeated until nothing changes (Gecode's MiniZinc library
/// decomposes `path`; this is the decomposition's reasoning in one place, plus reachability):
/// - `s` and `t` keep the nodes still allowed, and a fixed one is chosen;
/// - a chosen edge chooses its ends, a node left out leaves out its edges, a loop is out;
/// - no node takes more chosen edges than its degree allows (one in and one out, two
///   undirected), and, once `s` and `t` are fixed, a node that cannot have enough is left out
///   and a chosen one with just enough takes them all;
/// - with `s` and `t` fixed, a node off every route from `s` to `t` (along edges and nodes
///   not left out) is left out, and so is a directed edge off every such route;
/// - the chosen edges form chains: a cycle fails, and an edge that would close one is out.
///
/// Not domain consistent: a node on some route may still be on no simple one. The removals
/// carry no reason yet. Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct Path {
    /// `ns`, then `es`, then `s` and `t`.
    scope: Vec<VarId>,
    nodes: usize,
    first: i32,
    /// Each edge's ends, as node positions (from 0).
    ends: Vec<(usize, usize)>,
    directed: bool,
    /// Per node, the edges leaving it (directed), or all that touch it (undirected).
    out: Vec<Vec<usize>>,
    /// Per node, the edges entering it (directed only).
    into: Vec<Vec<usize>>,
}

/// Buffers reused between runs.
#[derive(Default)]
struct Scratch {
    forward: Vec<bool>,
    backward: Vec<bool>,
    stack: Vec<usize>,
    /// Per node, the chosen edge leaving it (directed) or its chosen edges (undirected).
    next: Vec<[Option<usize>; 2]>,
    seen: Vec<bool>,
}

/// What a 0/1 variable allows.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Choice {
    Out,
    Open,
    In,
}

impl Path {
    /// The path from `s` to `t` over nodes numbered from `first`, `ends` giving each edge's
    /// (from, to) by node number; `ns` and `es` have one 0/1 variable per node and per edge.
    pub fn new(
        first: i32,
        ends: &[(i32, i32)],
        s: VarId,
        t: VarId,
        ns: &[VarId],
        es: &[VarId],
        directed: bool,
    ) -> Result<Self, String> {
        if ends.len() != es.len() {
            return Err(format!(
                "{} edges but {} edge variables",
                ends.len(),
                es.len()
            ));
        }
        let nodes = ns.len();
        let position = |v: i32| -> Result<usize, String> {
            usize::try_from(i64::from(v) - i64::from(first))
                .ok()
                .filter(|&p| p < nodes)
                .ok_or_else(|| {
                    format!(
                        "edge end {v} is not a node ({first}..{} )",
                        first as i64 + nodes as i64 - 1
                    )
                })
        };
        let mut edge_ends = Vec::with_capacity(ends.len());
        let mut out = vec![Vec::new(); nodes];
        let mut into = vec![Vec::new(); if directed { nodes } else { 0 }];
        for (e, &(from, to)) in ends.iter().enumerate() {
            let (u, v) = (position(from)?, position(to)?);
            edge_ends.push((u, v));
            out[u].push(e);
            if directed {
                into[v].push(e);
            } else if u != v {
                out[v].push(e);
            }
        }
        let mut scope = ns.to_vec();
        scope.extend_from_slice(es);
        scope.push(s);
        scope.push(t);
        Ok(Path {
            scope,
            nodes,
            first,
            ends: edge_ends,
            directed,
            out,
            into,
        })
    }

    fn node_var(&self, u: usize) -> VarId {
        self.scope[u]
    }

    fn edge_var(&self, e: usize) -> VarId {
        self.scope[self.nodes + e]
    }

    fn s(&self) -> VarId {
        self.scope[self.scope.len() - 2]
    }

    fn t(&self) -> VarId {
        self.scope[self.scope.len() - 1]
    }

    /// The node at the other end of edge `e` from `u`.
    fn other(&self, e: usize, u: usize) -> usize {
        let (a, b) = self.ends[e];
        if a == u {
            b
        } else {
            a
        }
    }

    /// The node numbered `value`, if there is one.
    fn node_of(&self, value: i32) -> Option<usize> {
        usize::try_from(i64::from(value) - i64::from(self.first))
            .ok()
            .filter(|&p| p < self.nodes)
    }

    /// The largest node number.
    fn last(&self) -> i64 {
        i64::from(self.first) + self.nodes as i64 - 1
    }

    /// How many chosen edges node `u` takes: in and out (directed), or in all (undirected,
    /// the first of the pair).
    fn needs(&self, u: usize, s: usize, t: usize) -> (usize, usize) {
        if s == t {
            (0, 0)
        } else if self.directed {
            (usize::from(u != s), usize::from(u != t))
        } else {
            (
                usize::from(u == s || u == t) + 2 * usize::from(u != s && u != t),
                0,
            )
        }
    }

    fn filter(&self, sc: &mut Scratch, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        let scope_len = self.scope.len() as u64;
        for &v in &self.scope[..self.nodes + self.ends.len()] {
            ctx.within(v, 0, 1)?;
        }
        let (first, last) = (i64::from(self.first), self.last());
        ctx.within(self.s(), first, last)?;
        ctx.within(self.t(), first, last)?;
        for (e, &(u, v)) in self.ends.iter().enumerate() {
            if u == v {
                ctx.fix(self.edge_var(e), 0)?;
            }
        }
        // Each pass may enable another; every change removes a value, so this ends.
        loop {
            ctx.count_checks(scope_len);
            let mut changed = self.ends_and_degrees(ctx)?;
            changed += self.ends_of_the_path(ctx)?;
            let (s, t) = (ctx.fixed_value(self.s()), ctx.fixed_value(self.t()));
            if let (Some(s), Some(t)) = (
                s.and_then(|v| self.node_of(v)),
                t.and_then(|v| self.node_of(v)),
            ) {
                changed += self.fixed_ends(s, t, ctx)?;
                changed += self.routes(sc, s, t, ctx)?;
            }
            changed += self.chains(sc, ctx)?;
            if changed == 0 {
                return Ok(());
            }
        }
    }

    fn choice(&self, ctx: &Context<'_>, v: VarId) -> Choice {
        match (ctx.min(v), ctx.max(v)) {
            (Some(1), _) => Choice::In,
            (_, Some(0)) => Choice::Out,
            _ => Choice::Open,
        }
    }

    /// `s` and `t` keep the nodes not left out; a fixed one is chosen.
    fn ends_of_the_path(&self, ctx: &mut Context<'_>) -> Result<u64, Conflict> {
        let mut changed = 0;
        for end in [self.s(), self.t()] {
            for u in 0..self.nodes {
                if self.choice(ctx, self.node_var(u)) == Choice::Out {
                    changed += ctx.remove(end, self.first + u as i32)? as u64;
                }
            }
            if let Some(u) = ctx.fixed_value(end).and_then(|v| self.node_of(v)) {
                changed += ctx.fix(self.node_var(u), 1)?;
            }
        }
        Ok(changed)
    }

    /// Chosen edges choose their ends, left-out nodes leave out their edges, and no node takes
    /// more chosen edges than it may: one in and one out, or two undirected.
    fn ends_and_degrees(&self, ctx: &mut Context<'_>) -> Result<u64, Conflict> {
        let mut changed = 0;
        for (e, &(u, v)) in self.ends.iter().enumerate() {
            match self.choice(ctx, self.edge_var(e)) {
                Choice::In => {
                    changed += ctx.fix(self.node_var(u), 1)?;
                    changed += ctx.fix(self.node_var(v), 1)?;
                }
                Choice::Open
                    if self.choice(ctx, self.node_var(u)) == Choice::Out
                        || self.choice(ctx, self.node_var(v)) == Choice::Out =>
                {
                    changed += ctx.fix(self.edge_var(e), 0)?;
                }
                _ => {}
            }
        }
        let most = if self.directed { 1 } else { 2 };
        for u in 0..self.nodes {
            changed += self.at_most(&self.out[u], most, ctx)?;
            if self.directed {
                changed += self.at_most(&self.into[u], 1, ctx)?;
            }
        }
        Ok(changed)
    }

    /// At most `most` of `edges` chosen: once that many are, the others are out.
    fn at_most(
        &self,
        edges: &[usize],
        most: usize,
        ctx: &mut Context<'_>,
    ) -> Result<u64, Conflict> {
        let chosen = edges
            .iter()
            .filter(|&&e| self.choice(ctx, self.edge_var(e)) == Choice::In)
            .count();
        if chosen > most {
            return Err(ctx.violated());
        }
        let mut changed = 0;
        if chosen == most {
            for &e in edges {
                if self.choice(ctx, self.edge_var(e)) == Choice::Open {
                    changed += ctx.fix(self.edge_var(e), 0)?;
                }
            }
        }
        Ok(changed)
    }

    /// With `s` and `t` fixed: the degrees each node needs. A node that cannot have them is
    /// left out; a chosen node with just enough edges takes them all.
    fn fixed_ends(&self, s: usize, t: usize, ctx: &mut Context<'_>) -> Result<u64, Conflict> {
        let mut changed = 0;
        if s == t {
            for u in (0..self.nodes).filter(|&u| u != s) {
                changed += ctx.fix(self.node_var(u), 0)?;
            }
            return Ok(changed);
        }
        if self.directed {
            for &e in self.into[s].iter().chain(&self.out[t]) {
                changed += ctx.fix(self.edge_var(e), 0)?;
            }
        }
        for u in 0..self.nodes {
            let (first_need, second_need) = self.needs(u, s, t);
            let sides: [(&[usize], usize); 2] = if self.directed {
                [
                    (self.into[u].as_slice(), first_need),
                    (self.out[u].as_slice(), second_need),
                ]
            } else {
                [(self.out[u].as_slice(), first_need), (&[], 0)]
            };
            for (edges, need) in sides {
                let open =
                    |ctx: &Context<'_>, e: usize| self.choice(ctx, self.edge_var(e)) != Choice::Out;
                let count = edges.iter().filter(|&&e| open(ctx, e)).count();
                if count < need {
                    changed += ctx.fix(self.node_var(u), 0)?;
                } else if count == need && self.choice(ctx, self.node_var(u)) == Choice::In {
                    for &e in edges {
                        if open(ctx, e) {
                            changed += ctx.fix(self.edge_var(e), 1)?;
                        }
                    }
                }
            }
        }
        Ok(changed)
    }

    /// With `s` and `t` fixed: what no route from `s` to `t` passes is left out.
    fn routes(
        &self,
        sc: &mut Scratch,
        s: usize,
        t: usize,
        ctx: &mut Context<'_>,
    ) -> Result<u64, Conflict> {
        let usable = |ctx: &Context<'_>, e: usize, to: usize| {
            self.choice(ctx, self.edge_var(e)) != Choice::Out
                && self.choice(ctx, self.node_var(to)) != Choice::Out
        };
        // Forward from s and backward from t (along edges either way when undirected), a
        // walk stopping at the other end, which the path cannot pass.
        for (reached, from, stop) in [(&mut sc.forward, s, t), (&mut sc.backward, t, s)] {
            let backward = from == t;
            reached.clear();
            reached.resize(self.nodes, false);
            reached[from] = true;
            sc.stack.clear();
            sc.stack.push(from);
            while let Some(u) = sc.stack.pop() {
                if u == stop {
                    continue;
                }
                let edges = if backward && self.directed {
                    &self.into[u]
                } else {
                    &self.out[u]
                };
                for &e in edges {
                    let v = self.other(e, u);
                    if !reached[v] && usable(ctx, e, v) {
                        reached[v] = true;
                        sc.stack.push(v);
                    }
                }
            }
        }
        let mut changed = 0;
        for u in 0..self.nodes {
            if !(sc.forward[u] && sc.backward[u]) {
                changed += ctx.fix(self.node_var(u), 0)?;
            }
        }
        for (e, &(u, v)) in self.ends.iter().enumerate() {
            let on_a_route = (sc.forward[u] && sc.backward[v])
                || (!self.directed && sc.forward[v] && sc.backward[u]);
            if !on_a_route {
                changed += ctx.fix(self.edge_var(e), 0)?;
            }
        }
        Ok(changed)
    }

    /// The chosen edges form chains: a cycle fails, and an edge joining the two ends of one
    /// chain is out.
    fn chains(&self, sc: &mut Scratch, ctx: &mut Context<'_>) -> Result<u64, Conflict> {
        sc.next.clear();
        sc.next.resize(self.nodes, [None, None]);
        let mut any = false;
        for (e, &(u, v)) in self.ends.iter().enumerate() {
            if self.choice(ctx, self.edge_var(e)) != Choice::In {
                continue;
            }
            any = true;
            if self.directed {
                sc.next[u][0] = Some(e);
                sc.next[v][1] = Some(e);
            } else {
                for w in [u, v] {
                    let slot = usize::from(sc.next[w][0].is_some());
                    sc.next[w][slot] = Some(e);
                }
            }
        }
        if !any {
            return Ok(0);
        }
        sc.seen.clear();
        sc.seen.resize(self.nodes, false);
        let mut changed = 0;
        for head in 0..self.nodes {
            // A chain starts where a node has a chosen edge out but none in (directed), or
            // just one chosen edge (undirected).
            let [a, b] = sc.next[head];
            if a.is_none() || b.is_some() || sc.seen[head] {
                continue;
            }
            sc.seen[head] = true;
            let (mut at, mut via) = (head, a);
            while let Some(e) = via {
                let next = self.other(e, at);
                if sc.seen[next] {
                    // Reached twice: a node with two chosen edges in, or three undirected.
                    return Err(ctx.violated());
                }
                sc.seen[next] = true;
                via = if self.directed {
                    sc.next[next][0]
                } else {
                    sc.next[next].iter().copied().flatten().find(|&f| f != e)
                };
                at = next;
            }
            let tail = at;
            // The edges that would close the chain into a cycle.
            let closing: &[usize] = if self.directed {
                &self.out[tail]
            } else {
                &self.out[head]
            };
            for &e in closing {
                let joins = if self.directed {
                    self.ends[e].1 == head
                } else {
                    self.other(e, head) == tail
                };
                if joins && self.choice(ctx, self.edge_var(e)) == Choice::Open {
                    changed += ctx.fix(self.edge_var(e), 0)?;
                }
            }
        }
        // A node with chosen edges that no chain reached lies on a cycle.
        if (0..self.nodes).any(|u| !sc.seen[u] && sc.next[u][0].or(sc.next[u][1]).is_some()) {
            return Err(ctx.violated());
        }
        Ok(changed)
    }
}

impl Constraint for Path {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let (ns, rest) = values.split_at(self.nodes);
        let (es, ends) = rest.split_at(self.ends.len());
        if ns.iter().chain(es).any(|&b| b != 0 && b != 1) {
            return false;
        }
        let (Some(s), Some(t)) = (self.node_of(ends[0]), self.node_of(ends[1])) else {
            return false;
        };
        if ns[s] == 0 || ns[t] == 0 {
            return false;
        }
        let mut degree_in = vec![0usize; self.nodes];
        let mut degree_out = vec![0usize; self.nodes];
        let mut next = vec![Vec::new(); self.nodes];
        for (e, &(u, v)) in self.ends.iter().enumerate() {
            if es[e] == 0 {
                continue;
            }
            if u == v || ns[u] == 0 || ns[v] == 0 {
                return false;
            }
            degree_out[u] += 1;
            degree_in[v] += 1;
            next[u].push(v);
            if !self.directed {
                next[v].push(u);
            }
        }
        for u in (0..self.nodes).filter(|&u| ns[u] == 1) {
            let (need, _) = self.needs(u, s, t);
            let fits = if self.directed {
                (degree_in[u], degree_out[u]) == self.needs(u, s, t)
            } else {
                degree_in[u] + degree_out[u] == need
            };
            if !fits {
                return false;
            }
        }
        // Walk from s: with the degrees right, the walk ends at t; every chosen node must be
        // on it, or the rest would form cycles.
        let (mut at, mut came_from, mut walked) = (s, usize::MAX, 1);
        while at != t {
            let Some(&step) = next[at].iter().find(|&&v| v != came_from) else {
                return false;
            };
            came_from = at;
            at = step;
            walked += 1;
            if walked > self.nodes {
                return false;
            }
        }
        walked == ns.iter().filter(|&&b| b == 1).count()
    }

    fn describe(&self) -> String {
        let kind = if self.directed { "dpath" } else { "path" };
        let es = listed(
            (0..self.ends.len()).map(|e| self.edge_var(e).to_string()),
            6,
            ", ",
        );
        format!("{kind}({} -> {}, edges [{es}])", self.s(), self.t())
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.with_scratch(|ctx, scratch: &mut Scratch| self.filter(scratch, ctx))
    }
}
