//! The generic constraints: `<intension>` (a predicate in the functional language) and
//! `<extension>` (a table of supports or conflicts).

use super::{parse_tuples, Args};
use crate::{expression, Reader, XcspError};
use csp::constraints::{Table, TableData};
use roxmltree::Node;
use std::sync::Arc;

impl Reader<'_> {
    /// `<intension>`: the predicate, in `<function>` or as the element's text.
    pub(super) fn intension(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let text = match self.child_text(node, "function", args)? {
            Some(text) => text,
            None => self.text(node, args)?,
        };
        let e = expression::parse(&text).map_err(|(at, why)| {
            self.fault(node, format!("`{}`, byte {at}: {why}", text.trim()))
        })?;
        if self.tabulate(&e).map_err(|why| self.fault(node, why))? {
            return Ok(());
        }
        self.predicate(&e).map_err(|why| self.fault(node, why))
    }

    /// `<extension>`: the list takes one of the `<supports>`, or none of the `<conflicts>`.
    pub(super) fn extension(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let vars = self.required_vars(node, "list", args)?;
        let (tuples_node, supports) = match (
            node.children().find(|c| c.has_tag_name("supports")),
            node.children().find(|c| c.has_tag_name("conflicts")),
        ) {
            (Some(t), None) => (t, true),
            (None, Some(t)) => (t, false),
            _ => {
                return Err(self.fault(node, "<extension> needs one of <supports> and <conflicts>"))
            }
        };
        // Tuples without parameters are the same for every constraint of a group.
        let shared = !tuples_node.text().unwrap_or("").contains('%');
        let data = match self.tables.get(&tuples_node.id()) {
            Some(data) if shared => Arc::clone(data),
            _ => {
                let text = self.text(tuples_node, args)?;
                let tuples = parse_tuples(&text, vars.len(), &self.values)
                    .map_err(|why| self.fault(node, why))?;
                let data = TableData::new(vars.len(), &tuples).ok_or_else(|| {
                    self.fault(
                        node,
                        format!("tuples of another length than {}", vars.len()),
                    )
                })?;
                let data = Arc::new(data);
                if shared {
                    self.tables.insert(tuples_node.id(), Arc::clone(&data));
                }
                data
            }
        };
        let table = Table::over(&vars, data, supports).ok_or_else(|| {
            self.fault(
                node,
                format!("a table of another arity than its {} variables", vars.len()),
            )
        })?;
        self.model.post(table).map_err(|e| self.engine(node, e))?;
        Ok(())
    }
}
