//! The elementary constraint `<instantiation>`: each variable of the list takes its value.

use super::{parse_values, Args};
use crate::{Reader, XcspError};
use csp::Relation;
use roxmltree::Node;

impl Reader<'_> {
    /// `<instantiation>`: `<list>` and `<values>` side by side.
    pub(super) fn instantiation(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let vars = self.required_vars(node, "list", args)?;
        let values = self.required(node, "values", args)?;
        let values = parse_values(&values, &self.values).map_err(|why| self.fault(node, why))?;
        if values.len() != vars.len() {
            return Err(self.fault(
                node,
                format!("{} values for {} variables", values.len(), vars.len()),
            ));
        }
        for (x, v) in vars.into_iter().zip(values) {
            self.model
                .compare_value(x, Relation::Eq, i64::from(v))
                .map_err(|e| self.engine(node, e))?;
        }
        Ok(())
    }
}
