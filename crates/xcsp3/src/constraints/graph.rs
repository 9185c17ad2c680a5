//! The graph constraints: `<circuit>` (successors forming one cycle, the nodes off it looping
//! on themselves) and `<flow>` (quantities on arcs, balanced at each node).

use super::{tuple_items, Args};
use crate::intension::Operand;
use crate::{Reader, XcspError};
use csp::constraints::Compare;
use csp::{Relation, VarId};
use roxmltree::Node;

impl Reader<'_> {
    /// `<circuit>`: `list[i] = j` puts the arc `i -> j` in the graph (nodes counted from
    /// `startIndex`), and the arcs other than loops form one cycle of at least two nodes
    /// (the XCSP3-core meaning: a node may stay out of the cycle by looping on itself).
    pub(super) fn circuit(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        if node.children().any(|c| c.has_tag_name("size")) {
            return Err(self.fault(node, "<circuit> with <size> is not supported yet"));
        }
        let start = node
            .children()
            .find(|c| c.has_tag_name("list"))
            .and_then(|list| list.attribute("startIndex"))
            .map_or(Ok(0), |s| {
                s.trim()
                    .parse::<i32>()
                    .map_err(|_| self.fault(node, format!("`startIndex` is not an integer: `{s}`")))
            })?;
        let list = self.list_text(node, args)?;
        let succ = self.list_vars(node, &list)?;
        let engine = |reader: &Self, e| reader.engine(node, e);
        self.model
            .circuit(&succ, start, true)
            .map_err(|e| engine(self, e))?;
        // Some node is on the cycle: not every one loops.
        let mut on_cycle = Vec::with_capacity(succ.len());
        for (i, &x) in succ.iter().enumerate() {
            let moves = Compare::with_value(x, Relation::Ne, i64::from(start) + i as i64);
            on_cycle.push(self.reified_bool(node, moves)?);
        }
        self.model
            .clause(&on_cycle, &[])
            .map_err(|e| engine(self, e))?;
        Ok(())
    }

    /// `<flow>`: `list[a]` flows along arc `a` of `<arcs>`; at the `k`-th smallest node,
    /// what flows out less what flows in is `<balance>[k]`; with `<weights>`, the cost
    /// `sum(weights[a] * list[a])` meets the `<condition>`.
    pub(super) fn flow(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        if node.children().any(|c| c.has_tag_name("capacities")) {
            return Err(self.fault(node, "<flow> with <capacities> is not supported yet"));
        }
        let xs = self.required_vars(node, "list", args)?;
        let text = self.required(node, "balance", args)?;
        let balance = self.operands(node, &text)?;
        let text = self.required(node, "arcs", args)?;
        let mut arcs = Vec::new();
        for pair in tuple_items(&text).map_err(|why| self.fault(node, why))? {
            let ends: Option<Vec<i64>> = pair.iter().map(|e| e.trim().parse().ok()).collect();
            match ends.as_deref() {
                Some(&[from, to]) => arcs.push((from, to)),
                _ => {
                    return Err(self.fault(
                        node,
                        format!("arc `({})` is not two integers", pair.join(",")),
                    ))
                }
            }
        }
        if arcs.len() != xs.len() {
            return Err(self.fault(node, format!("{} arcs for {} flows", arcs.len(), xs.len())));
        }
        let mut nodes: Vec<i64> = arcs.iter().flat_map(|&(a, b)| [a, b]).collect();
        nodes.sort_unstable();
        nodes.dedup();
        if nodes.len() != balance.len() {
            return Err(self.fault(
                node,
                format!("{} balances for {} nodes", balance.len(), nodes.len()),
            ));
        }
        let engine = |reader: &Self, e| reader.engine(node, e);
        for (&at, &b) in nodes.iter().zip(&balance) {
            let mut terms: Vec<(i64, VarId)> = Vec::new();
            for (&(from, to), &x) in arcs.iter().zip(&xs) {
                match (from == at, to == at) {
                    (true, false) => terms.push((1, x)),
                    (false, true) => terms.push((-1, x)),
                    _ => {}
                }
            }
            let rhs = match b {
                Operand::Const(c) => c,
                Operand::Var(v) => {
                    terms.push((-1, v));
                    0
                }
            };
            self.model
                .linear(&terms, Relation::Eq, rhs)
                .map_err(|e| engine(self, e))?;
        }
        if let Some(text) = self.child_text(node, "weights", args)? {
            let weights = self.operands(node, &text)?;
            if weights.len() != xs.len() {
                return Err(self.fault(
                    node,
                    format!("{} weights for {} flows", weights.len(), xs.len()),
                ));
            }
            let terms = self.weighted_terms(node, weights, &xs)?;
            let condition = self.required(node, "condition", args)?;
            self.condition(node, terms, &condition)?;
        }
        Ok(())
    }
}
