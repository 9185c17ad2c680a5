//! The comparison constraints: `<allDifferent>` (over a list, with `except`, or over the rows
//! and columns of a `<matrix>`), `<allEqual>`, `<ordered>` and `<lex>`.

use super::{parse_values, Args};
use crate::intension::{flip, relation};
use crate::{Reader, XcspError};
use csp::{Relation, VarId};
use roxmltree::Node;

impl Reader<'_> {
    /// `<allDifferent>`: the list's values are distinct (bar the `<except>` values); over a
    /// `<matrix>`, each row's and each column's.
    pub(super) fn all_different(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        if node.children().filter(|c| c.has_tag_name("list")).count() > 1 {
            return Err(self.fault(
                node,
                "<allDifferent> over several lists (distinct tuples) is not supported yet",
            ));
        }
        let except = match self.child_text(node, "except", args)? {
            Some(text) => parse_values(&text, &self.values).map_err(|why| self.fault(node, why))?,
            None => Vec::new(),
        };
        let groups = match self.child_text(node, "matrix", args)? {
            Some(text) => {
                let rows = self.matrix(node, &text)?;
                let mut groups = columns(&rows);
                groups.extend(rows);
                groups
            }
            None => {
                let list = self.list_text(node, args)?;
                vec![self.list_vars(node, &list)?]
            }
        };
        for vars in groups {
            let posted = if except.is_empty() {
                self.model.all_different(&vars)
            } else {
                self.model.all_different_except(&vars, &except)
            };
            posted.map_err(|e| self.engine(node, e))?;
        }
        Ok(())
    }

    /// `<allEqual>`: every variable of the list equals the first.
    pub(super) fn all_equal(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let list = self.list_text(node, args)?;
        let vars = self.list_vars(node, &list)?;
        for pair in vars.windows(2) {
            self.model
                .compare(pair[0], Relation::Eq, pair[1])
                .map_err(|e| self.engine(node, e))?;
        }
        Ok(())
    }

    /// `<ordered>`: consecutive variables in the operator's order, `<lengths>` apart at
    /// least (`x[i] + length[i] op x[i+1]`).
    pub(super) fn ordered(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let vars = self.required_vars(node, "list", args)?;
        let rel = self.order(node, args)?;
        let lengths = match self.child_text(node, "lengths", args)? {
            Some(text) => {
                Some(parse_values(&text, &self.values).map_err(|why| self.fault(node, why))?)
            }
            None => None,
        };
        for (i, pair) in vars.windows(2).enumerate() {
            let offset = lengths
                .as_ref()
                .and_then(|l| l.get(i))
                .copied()
                .map_or(0, i64::from);
            // x[i] + length[i] rel x[i+1], that is x[i+1] rel' x[i] + length[i].
            self.model
                .compare_offset(pair[1], flip(rel), pair[0], offset)
                .map_err(|e| self.engine(node, e))?;
        }
        Ok(())
    }

    /// `<lex>`: consecutive `<list>`s in the operator's lexicographic order; over a
    /// `<matrix>`, consecutive rows and consecutive columns.
    pub(super) fn lex(
        &mut self,
        node: Node<'_, '_>,
        args: Option<&Args<'_>>,
    ) -> Result<(), XcspError> {
        let rel = self.order(node, args)?;
        let vectors = match self.child_text(node, "matrix", args)? {
            Some(text) => {
                let rows = self.matrix(node, &text)?;
                // Rows and columns are each a chain of their own.
                let cols = columns(&rows);
                self.lex_chain(node, &rows, rel)?;
                self.lex_chain(node, &cols, rel)?;
                return Ok(());
            }
            None => {
                let mut vectors = Vec::new();
                for list in node.children().filter(|c| c.has_tag_name("list")) {
                    let text = self.text(list, args)?;
                    vectors.push(self.list_vars(node, &text)?);
                }
                vectors
            }
        };
        self.lex_chain(node, &vectors, rel)
    }

    /// Each vector and the next in `rel`'s lexicographic order.
    fn lex_chain(
        &mut self,
        node: Node<'_, '_>,
        vectors: &[Vec<VarId>],
        rel: Relation,
    ) -> Result<(), XcspError> {
        for pair in vectors.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if a.len() != b.len() {
                return Err(self.fault(
                    node,
                    format!("<lex> over lists of {} and {} variables", a.len(), b.len()),
                ));
            }
            let posted = match rel {
                Relation::Lt => self.model.lex(a, b, true),
                Relation::Le => self.model.lex(a, b, false),
                Relation::Gt => self.model.lex(b, a, true),
                Relation::Ge => self.model.lex(b, a, false),
                Relation::Eq | Relation::Ne => {
                    return Err(self.fault(node, "<lex> orders with lt, le, gt or ge"))
                }
            };
            posted.map_err(|e| self.engine(node, e))?;
        }
        Ok(())
    }

    /// The `<operator>` of an ordering constraint.
    fn order(&self, node: Node<'_, '_>, args: Option<&Args<'_>>) -> Result<Relation, XcspError> {
        let operator = self.required(node, "operator", args)?;
        relation(operator.trim())
            .filter(|r| !matches!(r, Relation::Eq | Relation::Ne))
            .ok_or_else(|| self.fault(node, format!("`{}` is not an order", operator.trim())))
    }
}

/// The columns of `rows`, as far as the shortest row goes.
fn columns(rows: &[Vec<VarId>]) -> Vec<Vec<VarId>> {
    let width = rows.iter().map(Vec::len).min().unwrap_or(0);
    (0..width)
        .map(|j| rows.iter().map(|row| row[j]).collect())
        .collect()
}
