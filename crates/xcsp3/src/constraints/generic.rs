//! The generic constraints: `<intension>` (a predicate in the functional language) and
//! `<extension>` (a table of supports or conflicts).

use super::{parse_tuples, Args};
use crate::{expression, Reader, XcspError};
use roxmltree::Node;

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
        self.predicate(&e).map_err(|why| self.fault(node, why))
    }

    /// `<extension>`: the list takes one of the `<supports>`, or none of the `<conflicts>`.
    pub(super) fn extension(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let list = self.required(node, "list", args)?;
        let vars = self.list_vars(node, &list)?;
        let (text, supports) = match (
            self.child_text(node, "supports", args)?,
            self.child_text(node, "conflicts", args)?,
        ) {
            (Some(t), None) => (t, true),
            (None, Some(t)) => (t, false),
            _ => {
                return Err(self.fault(node, "<extension> needs one of <supports> and <conflicts>"))
            }
        };
        let tuples =
            parse_tuples(&text, vars.len(), &self.values).map_err(|why| self.fault(node, why))?;
        self.model
            .extension(&vars, &tuples, supports)
            .map_err(|e| self.engine(node, e))?;
        Ok(())
    }
}
