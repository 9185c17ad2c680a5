//! The counting and summing constraints: `<sum>` (coefficients integers or variables),
//! `<count>`, `<nValues>` and `<cardinality>`, each with its condition.

use super::{parse_values, split_list, Args};
use crate::intension::Operand;
use crate::{Reader, XcspError};
use csp::VarId;
use roxmltree::Node;

impl Reader<'_> {
    /// `<sum>`: `sum(coeffs[i] * list[i])` meets the condition; coefficients that are
    /// variables make products of their own.
    pub(super) fn sum(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let xs = self.required_vars(node, "list", args)?;
        let condition = self.required(node, "condition", args)?;
        let Some(text) = self.child_text(node, "coeffs", args)? else {
            let terms = xs.into_iter().map(|x| (1, x)).collect();
            return self.condition(node, terms, &condition);
        };
        let coeffs = self.operands(node, &text)?;
        if coeffs.len() != xs.len() {
            return Err(self.fault(
                node,
                format!("{} coefficients for {} terms", coeffs.len(), xs.len()),
            ));
        }
        let terms = self.weighted_terms(node, coeffs, &xs)?;
        self.condition(node, terms, &condition)
    }

    /// The terms `coeffs[i] * xs[i]`, a coefficient that is a variable making a product of
    /// its own.
    pub(super) fn weighted_terms(
        &mut self,
        node: Node<'_, '_>,
        coeffs: Vec<Operand>,
        xs: &[VarId],
    ) -> Result<Vec<(i64, VarId)>, XcspError> {
        let mut terms = Vec::with_capacity(xs.len());
        for (c, &x) in coeffs.into_iter().zip(xs) {
            match c {
                Operand::Const(c) => terms.push((c, x)),
                Operand::Var(_) => {
                    let product = self
                        .product(c, Operand::Var(x))
                        .map_err(|why| self.fault(node, why))?;
                    terms.push((1, self.operand_var_at(node, product)?));
                }
            }
        }
        Ok(terms)
    }

    /// `<count>`: the number of the list's variables taking one of `<values>` (integers, or
    /// one variable) meets the condition.
    pub(super) fn count(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let xs = self.required_vars(node, "list", args)?;
        let values = self.required(node, "values", args)?;
        let condition = self.required(node, "condition", args)?;
        let n = self.condition_var(node, &condition, (0, xs.len() as i64))?;
        match parse_values(&values, &self.values) {
            Ok(values) => self.model.among(n, &xs, &values),
            Err(_) => match self.list_vars(node, &values)?[..] {
                [y] => self.model.count(&xs, y, n),
                _ => {
                    return Err(self.fault(
                        node,
                        "<count> over several values that are variables is not supported yet",
                    ))
                }
            },
        }
        .map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// `<nValues>`: the number of distinct values the list takes meets the condition.
    pub(super) fn n_values(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        if node.children().any(|c| c.has_tag_name("except")) {
            return Err(self.fault(node, "<nValues> with <except> is not supported yet"));
        }
        let list = self.list_text(node, args)?;
        let xs = self.list_vars(node, &list)?;
        let condition = self.required(node, "condition", args)?;
        let n = self.condition_var(node, &condition, (0, xs.len() as i64))?;
        self.model
            .nvalue(n, &xs)
            .map_err(|e| self.engine(node, e))?;
        Ok(())
    }

    /// `<cardinality>`: each value of `<values>` occurs among the list as `<occurs>` says (a
    /// variable, a number or a range per value), only those values when `closed`.
    pub(super) fn cardinality(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let xs = self.required_vars(node, "list", args)?;
        let values_node = node.children().find(|c| c.has_tag_name("values"));
        let closed = values_node.and_then(|v| v.attribute("closed")) == Some("true");
        let values = self.required(node, "values", args)?;
        let cover = parse_values(&values, &self.values).map_err(|_| {
            self.fault(
                node,
                "<cardinality> over values that are variables is not supported yet",
            )
        })?;
        let occurs = self.required(node, "occurs", args)?;
        let items = split_list(&occurs);
        if items.len() != cover.len() && !occurs.contains('[') {
            return Err(self.fault(
                node,
                format!("{} occurrences for {} values", items.len(), cover.len()),
            ));
        }
        let constant = |item: &str| -> Option<(i64, i64)> {
            match item.split_once("..") {
                Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
                None => item.parse().ok().map(|v| (v, v)),
            }
        };
        let bounds: Option<Vec<(i64, i64)>> = items.iter().map(|i| constant(i)).collect();
        match bounds {
            Some(bounds) => {
                let (low, high): (Vec<i64>, Vec<i64>) = bounds.into_iter().unzip();
                self.model
                    .global_cardinality(&xs, &cover, &low, &high, closed)
                    .map_err(|e| self.engine(node, e))?;
            }
            None => {
                let counts = self.list_vars(node, &occurs)?;
                if counts.len() != cover.len() {
                    return Err(self.fault(
                        node,
                        format!("{} occurrences for {} values", counts.len(), cover.len()),
                    ));
                }
                self.model
                    .global_cardinality_counts(&xs, &cover, &counts, closed)
                    .map_err(|e| self.engine(node, e))?;
            }
        }
        Ok(())
    }
}
