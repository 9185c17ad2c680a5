//! The elementary constraints `<instantiation>` (each variable of the list takes its value) and
//! `<clause>` (one of its literals holds).

use super::{parse_values, split_list, Args};
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

    /// `<clause>`: one of its literals holds, a literal being a 0/1 variable (`x`, which holds
    /// at 1) or its negation (`not(x)`, at 0), in its `<list>` or its own text.
    pub(super) fn clause(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let text = self.list_text(node, args)?;
        let (mut positive, mut negative) = (Vec::new(), Vec::new());
        for token in split_list(&text) {
            match token.strip_prefix("not(").and_then(|t| t.strip_suffix(')')) {
                Some(inner) => negative.extend(self.list_vars(node, inner)?),
                None => positive.extend(self.list_vars(node, token)?),
            }
        }
        for &var in positive.iter().chain(&negative) {
            if !matches!(self.model.initial_bounds(var), Some((low, high)) if low >= 0 && high <= 1)
            {
                let name = self.model.var_name(var).unwrap_or_default().into_owned();
                return Err(self.fault(
                    node,
                    format!("<clause> over `{name}`, which is not a 0/1 variable"),
                ));
            }
        }
        self.model
            .clause(&positive, &negative)
            .map_err(|e| self.engine(node, e))?;
        Ok(())
    }
}
