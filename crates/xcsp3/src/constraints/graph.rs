//! The graph constraint `<circuit>`: successors forming one cycle, the nodes off it looping
//! on themselves.

use super::Args;
use crate::{Reader, XcspError};
use csp::constraints::Compare;
use csp::{Reification, Relation};
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
            let b = self.model.new_bool().map_err(|e| engine(self, e))?;
            let moves = Compare::with_value(x, Relation::Ne, i64::from(start) + i as i64);
            self.model
                .reify(b, moves, Reification::Full)
                .map_err(|e| engine(self, e))?;
            on_cycle.push(b);
        }
        self.model
            .clause(&on_cycle, &[])
            .map_err(|e| engine(self, e))?;
        Ok(())
    }
}
