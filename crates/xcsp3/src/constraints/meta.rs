//! The meta-constraint `<slide>`: a template constraint over each window of a list.

use super::Args;
use crate::{Reader, XcspError};
use roxmltree::Node;

impl Reader<'_> {
    /// `<slide>`: the template (its parameters `%0 %1 …`) over each window of the list,
    /// windows `offset` apart (1 unless the list says), wrapping round when `circular`.
    pub(super) fn slide(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let mut names: Vec<String> = Vec::new();
        let mut offset = 1usize;
        for list in node.children().filter(|c| c.has_tag_name("list")) {
            if let Some(o) = list.attribute("offset") {
                offset = o.trim().parse().ok().filter(|&o| o > 0).ok_or_else(|| {
                    self.fault(list, format!("`offset` is not a positive integer: `{o}`"))
                })?;
            }
            let text = self.text(list, args)?;
            for v in self.list_vars(node, &text)? {
                names.push(self.model.var_name(v).unwrap_or_default().into_owned());
            }
        }
        let template = node
            .children()
            .find(|c| c.is_element() && !c.has_tag_name("list"))
            .ok_or_else(|| self.fault(node, "a <slide> without a template"))?;
        let arity = Args::new(template, &[]).highest.map_or(0, |h| h + 1);
        let circular = node.attribute("circular").map(str::trim) == Some("true");
        let n = names.len();
        if arity == 0 || n == 0 {
            return Err(self.fault(node, "a <slide> whose template has no parameter"));
        }
        let mut first = 0;
        while if circular {
            first < n
        } else {
            first + arity <= n
        } {
            let window: Vec<String> = (0..arity).map(|k| names[(first + k) % n].clone()).collect();
            self.constraint(template, Some(&Args::new(template, &window)))?;
            first += offset;
        }
        Ok(())
    }
}
