//! `Circuit`: successor variables that form one Hamiltonian cycle (MiniZinc's `circuit`), or
//! one cycle through some of the nodes and loops on the rest (`subcircuit`).

use super::listed::listed;
use crate::{Atom, Conflict, Constraint, Context, Priority, VarId};

/// Node `i`'s successor is `succ[i] - offset`: the successors form a single cycle through
/// every node (`circuit`), or, as a subcircuit, a single cycle through the nodes that are not
/// their own successor (possibly none).
///
/// Consistency, the filtering of Caseau and Laburthe and of Gecode's `circuit`, on top of the
/// all_different that [`Model::circuit`](crate::Model::circuit) posts beside it:
/// - no node is its own successor (circuit), no successor lies outside the nodes;
/// - no subtour: a chain of fixed successors from `s` to `e` shorter than the circuit may
///   not close, so `e`'s successor is not `s` (for a subcircuit, while some node outside the
///   chain cannot be left out), and a closed subcircuit leaves every other node out;
/// - reachability (circuit): every node reaches node 0 and node 0 reaches every node along
///   the successors left, or the node fails.
///
/// With every successor fixed the cycle is checked. Each removal states its reason (the
/// chain's successors). Under `none` and `fc`, the default hooks.
#[derive(Clone, Debug)]
pub struct Circuit {
    succ: Vec<VarId>,
    offset: i32,
    sub: bool,
}

/// Buffers reused between runs.
#[derive(Default)]
struct Scratch {
    /// A node with a fixed successor into each node, or `usize::MAX`.
    pred: Vec<usize>,
    /// The start of the chain each node is on, or `usize::MAX`.
    chain: Vec<usize>,
    /// Chains that may not close: start, end and length.
    closings: Vec<(usize, usize, usize)>,
    seen: Vec<bool>,
    stack: Vec<usize>,
    /// Edges in reverse, as (to, from), sorted by `to`, for the backwards search.
    reverse: Vec<(usize, usize)>,
}

impl Circuit {
    /// `succ[i] - offset` is node `i`'s successor; `sub` for a subcircuit.
    pub fn new(succ: &[VarId], offset: i32, sub: bool) -> Self {
        Circuit {
            succ: succ.to_vec(),
            offset,
            sub,
        }
    }

    /// The node a value names.
    fn node(&self, value: i32) -> Option<usize> {
        let k = i64::from(value) - i64::from(self.offset);
        usize::try_from(k).ok().filter(|&k| k < self.succ.len())
    }

    fn value(&self, node: usize) -> i32 {
        self.offset + node as i32
    }

    /// Node `i`'s successor, if fixed.
    fn fixed(&self, ctx: &Context<'_>, i: usize) -> Option<usize> {
        ctx.fixed_value(self.succ[i]).and_then(|v| self.node(v))
    }

    fn run(&self, ctx: &mut Context<'_>, scratch: &mut Scratch) -> Result<(), Conflict> {
        let n = self.succ.len();
        // Successors are nodes; a circuit visits no node twice in a row.
        for (i, &x) in self.succ.iter().enumerate() {
            ctx.at_least(x, i64::from(self.offset))?;
            ctx.at_most(x, i64::from(self.offset) + n as i64 - 1)?;
            if !self.sub && n > 1 {
                ctx.remove(x, self.value(i))?;
            }
        }
        let Scratch {
            pred,
            chain,
            closings,
            seen,
            stack,
            reverse,
        } = scratch;
        pred.clear();
        pred.resize(n, usize::MAX);
        for i in 0..n {
            if let Some(j) = self.fixed(ctx, i).filter(|&j| j != i) {
                if pred[j] != usize::MAX {
                    // Two nodes lead into j: the all_different beside it fails too.
                    return Err(ctx.violated());
                }
                pred[j] = i;
            }
        }
        ctx.count_checks(n as u64);
        // Chains of fixed successors, each from a node nothing fixed leads into; `chain`
        // names each node's chain by its start.
        chain.clear();
        chain.resize(n, usize::MAX);
        closings.clear();
        for start in 0..n {
            if pred[start] != usize::MAX || self.fixed(ctx, start) == Some(start) {
                continue;
            }
            let (mut end, mut length) = (start, 1);
            chain[start] = start;
            while let Some(next) = self.fixed(ctx, end) {
                if next == end || chain[next] != usize::MAX {
                    // Into a node left out, or back into the chain: no single cycle.
                    return Err(ctx.violated());
                }
                end = next;
                length += 1;
                chain[end] = start;
            }
            if length > 1 || !self.sub {
                closings.push((start, end, length));
            }
        }
        // Nodes not on a chain lie on cycles of fixed successors, or are left out.
        seen.clear();
        seen.extend(chain.iter().map(|&c| c != usize::MAX));
        let mut closed: Option<(usize, usize)> = None; // a closed cycle's start and length
        for i in 0..n {
            if seen[i] || self.fixed(ctx, i) == Some(i) {
                continue;
            }
            let mut length = 0;
            let mut k = i;
            while !seen[k] {
                seen[k] = true;
                length += 1;
                k = self.fixed(ctx, k).unwrap_or(k);
            }
            if closed.is_some() {
                return Err(ctx.violated());
            }
            closed = Some((i, length));
        }
        if let Some((start, length)) = closed {
            if !self.sub {
                // A closed cycle must take every node.
                if length < n {
                    return Err(ctx.violated());
                }
                return Ok(());
            }
            // The subcircuit is closed: every other node is left out.
            let reason = if ctx.explaining() {
                self.cycle_reason(ctx, start)
            } else {
                Vec::new()
            };
            for i in 0..n {
                // The cycle's nodes are those seen off every chain.
                if !seen[i] || chain[i] != usize::MAX {
                    ctx.fix_because(self.succ[i], self.value(i), &reason)?;
                }
            }
            return Ok(());
        }
        // Pruned only now: a removal may fix a successor, which the walks above must not see
        // halfway.
        for &(start, end, length) in closings.iter() {
            self.forbid_closing(ctx, start, end, length, chain)?;
        }
        if !self.sub {
            self.reachable(ctx, seen, stack, reverse)?;
        }
        Ok(())
    }

    /// `e`'s successor may not be `s`, which would close the chain from `s` to `e` (`length`
    /// nodes, those whose `chain` is `s`) too early.
    fn forbid_closing(
        &self,
        ctx: &mut Context<'_>,
        s: usize,
        e: usize,
        length: usize,
        chain: &[usize],
    ) -> Result<(), Conflict> {
        let n = self.succ.len();
        if length >= n || !ctx.contains(self.succ[e], self.value(s)) {
            return Ok(());
        }
        // For a subcircuit, closing is fine if every node off the chain may be left out.
        let needed = if self.sub {
            let outside =
                (0..n).find(|&i| chain[i] != s && !ctx.contains(self.succ[i], self.value(i)));
            match outside {
                Some(k) => Some(k),
                None => return Ok(()),
            }
        } else {
            None
        };
        let mut reason = Vec::new();
        if ctx.explaining() {
            let mut k = s;
            while k != e {
                let Some(next) = self.fixed(ctx, k) else {
                    break;
                };
                reason.push(Atom::Eq(self.succ[k], self.value(next)));
                k = next;
            }
            if let Some(k) = needed {
                reason.push(Atom::Ne(self.succ[k], self.value(k)));
            }
        }
        ctx.remove_because(self.succ[e], self.value(s), &reason)?;
        Ok(())
    }

    /// The successors of the closed cycle through `start`.
    fn cycle_reason(&self, ctx: &Context<'_>, start: usize) -> Vec<Atom> {
        let mut reason = Vec::new();
        let mut k = start;
        for _ in 0..self.succ.len() {
            let Some(next) = self.fixed(ctx, k) else {
                break;
            };
            reason.push(Atom::Eq(self.succ[k], self.value(next)));
            k = next;
            if k == start {
                break;
            }
        }
        reason
    }

    /// Fails unless node 0 reaches every node and every node reaches node 0 along the
    /// successors left.
    fn reachable(
        &self,
        ctx: &mut Context<'_>,
        seen: &mut Vec<bool>,
        stack: &mut Vec<usize>,
        reverse: &mut Vec<(usize, usize)>,
    ) -> Result<(), Conflict> {
        let n = self.succ.len();
        if n == 0 {
            return Ok(());
        }
        reverse.clear();
        for (i, &x) in self.succ.iter().enumerate() {
            for v in ctx.values(x) {
                if let Some(j) = self.node(v) {
                    reverse.push((j, i));
                }
            }
        }
        ctx.count_checks(reverse.len() as u64);
        // Forwards.
        seen.clear();
        seen.resize(n, false);
        stack.clear();
        stack.push(0);
        seen[0] = true;
        let mut reached = 1;
        while let Some(i) = stack.pop() {
            for v in ctx.values(self.succ[i]) {
                if let Some(j) = self.node(v).filter(|&j| !seen[j]) {
                    seen[j] = true;
                    reached += 1;
                    stack.push(j);
                }
            }
        }
        if reached < n {
            return Err(ctx.violated());
        }
        // Backwards.
        reverse.sort_unstable();
        seen.clear();
        seen.resize(n, false);
        stack.push(0);
        seen[0] = true;
        let mut reached = 1;
        while let Some(j) = stack.pop() {
            let from = reverse.partition_point(|&(to, _)| to < j);
            for &(to, i) in &reverse[from..] {
                if to != j {
                    break;
                }
                if !seen[i] {
                    seen[i] = true;
                    reached += 1;
                    stack.push(i);
                }
            }
        }
        if reached < n {
            return Err(ctx.violated());
        }
        Ok(())
    }
}

impl Constraint for Circuit {
    fn scope(&self) -> &[VarId] {
        &self.succ
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let n = values.len();
        if n == 0 {
            return true;
        }
        let Some(next) = values
            .iter()
            .map(|&v| self.node(v))
            .collect::<Option<Vec<usize>>>()
        else {
            return false;
        };
        let in_cycle: Vec<usize> = (0..n).filter(|&i| next[i] != i).collect();
        if !self.sub && (in_cycle.len() < n) && n > 1 {
            return false;
        }
        if n == 1 {
            return next[0] == 0;
        }
        let Some(&start) = in_cycle.first() else {
            // No node in the subcircuit: allowed.
            return self.sub;
        };
        // Follow the successors from the first node of the cycle: back there after exactly
        // as many steps as the cycle has nodes.
        let mut k = start;
        for step in 1..=in_cycle.len() {
            k = next[k];
            if k == start {
                return step == in_cycle.len();
            }
        }
        false
    }

    fn describe(&self) -> String {
        format!(
            "{}circuit([{}])",
            if self.sub { "sub" } else { "" },
            listed(self.succ.iter(), 6, ", ")
        )
    }

    fn priority(&self) -> Priority {
        Priority::Global
    }

    fn propagate(&self, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        ctx.with_scratch(|ctx, scratch: &mut Scratch| self.run(ctx, scratch))
    }
}
